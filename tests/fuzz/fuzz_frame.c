/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Fuzz target "frame": the FCoE parser, flat and in mbuf chains, each
 * buffer and segment ending at a PROT_NONE guard page. Whatever comes in: a
 * valid reason, fields that are the bytes', the chain parsed as the flat
 * buffer, the CRC check reading exactly the FC frame, no read past the end.
 *
 * One input: how the frame arrives (FZ_RX_LEN bytes: its segments, a tag
 * the NIC took off), then the frame, at most FZ_CAP bytes.
 */
#include <string.h>

#include <rte_mbuf.h>

#include "fcr_build.h"
#include "fcr_frame.h"
#include "fuzz.h"
#include "fuzz_input.h"

static struct tu_guard guards[FZ_MAX_SEGS]; /* one per segment of a chain */
static struct tu_guard flat_guard;
static struct rte_mbuf gchain[FZ_MAX_SEGS] __rte_cache_aligned;

/* what the inputs were, for the report */
static struct {
	long ok, segmented, marked;
	unsigned long hist[FCR_R_COUNT];
} tally;

/* The bytes as the mbuf chain rx tells, each segment's data ending exactly
 * at its own guard page. */
static struct rte_mbuf *
guarded_chain(const uint8_t *b, uint32_t len, const struct fz_rx *rx)
{
	unsigned int i, nsegs = rx->nsegs;
	uint32_t from = 0, to;

	memset(gchain, 0, sizeof(gchain));
	for (i = 0; i < nsegs; i++) {
		struct rte_mbuf *m = &gchain[i];
		uint8_t *d;

		to = i + 1 < nsegs ? rx->cut[i] : len;
		d = tu_guard_place(&guards[i], b + from, to - from);
		m->buf_addr = d;
		m->buf_len = (uint16_t)(to - from);
		m->data_off = 0;
		m->data_len = (uint16_t)(to - from);
		m->nb_segs = 1;
		m->next = i + 1 < nsegs ? &gchain[i + 1] : NULL;
		rte_mbuf_refcnt_set(m, 1);
		from = to;
	}
	gchain[0].nb_segs = (uint16_t)nsegs;
	gchain[0].pkt_len = len;
	return &gchain[0];
}

/* A valid FCoE frame: random header fields, tagged or not, any payload. */
static uint32_t
base_fcoe(struct tu_rng *r, uint8_t *b)
{
	static const uint8_t sof[] = { 0x28, 0x29, 0x2d, 0x2e, 0x31, 0x35, 0x36, 0x39 };
	static const uint8_t eof[] = { 0x41, 0x42, 0x44, 0x46, 0x49, 0x4e, 0x4f, 0x50 };
	static uint8_t payload[FCR_FC_MAX_PAYLOAD];
	struct fcr_l2_spec l2;
	struct fcr_fc_spec fc;
	size_t n;

	tu_l2(&l2, (int)tu_below(r, 2));
	l2.vlan = (uint16_t)tu_below(r, 4096);
	l2.pcp = (uint8_t)tu_below(r, 8);
	memset(&fc, 0, sizeof(fc));
	fc.sof = sof[tu_below(r, RTE_DIM(sof))];
	fc.eof = eof[tu_below(r, RTE_DIM(eof))];
	fc.r_ctl = (uint8_t)tu_rand32(r);
	fc.cs_ctl = (uint8_t)tu_rand32(r);
	fc.type = (uint8_t)tu_rand32(r);
	fc.seq_id = (uint8_t)tu_rand32(r);
	fc.df_ctl = (uint8_t)tu_rand32(r);
	fc.d_id = tu_rand32(r) & FCR_FCID_MASK;
	fc.s_id = tu_rand32(r) & FCR_FCID_MASK;
	fc.f_ctl = tu_rand32(r) & 0xFFFFFC;
	fc.seq_cnt = (uint16_t)tu_rand32(r);
	fc.ox_id = (uint16_t)tu_rand32(r);
	fc.rx_id = (uint16_t)tu_rand32(r);
	fc.param = tu_rand32(r);
	fc.payload_len = fz_rand_plen(r, FCR_FC_MAX_PAYLOAD);
	tu_fill_random(r, payload, fc.payload_len);
	fc.payload = payload;
	n = fcr_build_fcoe(b, FZ_CAP, &l2, &fc);
	assert_true(n > 0);
	fz_maybe_mark(b, (uint32_t)n);
	return (uint32_t)n;
}

#define FIELD_EQ(a, b, fld) \
	FZ_CHECK((a)->fld == (b)->fld, "field " #fld ": %llu vs %llu", \
		 (unsigned long long)(a)->fld, (unsigned long long)(b)->fld)

static void
frames_equal(const struct fcr_frame *a, const struct fcr_frame *b)
{
	FIELD_EQ(a, b, ethertype); FIELD_EQ(a, b, vlan); FIELD_EQ(a, b, tagged);
	FIELD_EQ(a, b, pcp); FIELD_EQ(a, b, fcoe_off); FIELD_EQ(a, b, fc_off);
	FIELD_EQ(a, b, fc_len); FIELD_EQ(a, b, payload_len); FIELD_EQ(a, b, sof);
	FIELD_EQ(a, b, eof); FIELD_EQ(a, b, mark); FIELD_EQ(a, b, frame_len);
	FIELD_EQ(a, b, crc);
	FIELD_EQ(a, b, r_ctl); FIELD_EQ(a, b, cs_ctl); FIELD_EQ(a, b, type);
	FIELD_EQ(a, b, seq_id); FIELD_EQ(a, b, df_ctl); FIELD_EQ(a, b, fill);
	FIELD_EQ(a, b, seq_cnt); FIELD_EQ(a, b, ox_id); FIELD_EQ(a, b, rx_id);
	FIELD_EQ(a, b, d_id); FIELD_EQ(a, b, s_id); FIELD_EQ(a, b, f_ctl);
	FIELD_EQ(a, b, param);
}

/* What must hold of any parse result, against the bytes themselves. */
static void
check_parse(const uint8_t *b, uint32_t len, enum fcr_reason rc,
	    const struct fcr_frame *f)
{
	const uint8_t *fc;
	unsigned int i;

	FZ_CHECK((unsigned)rc < FCR_R_COUNT, "reason %d", (int)rc);
	FZ_CHECK(rc != FCR_R_RUNT || len < FCR_ETH_HLEN, "runt of %u bytes", len);
	if (rc == FCR_R_NOT_FCOE) {
		FZ_CHECK(f->ethertype != FCR_ETHERTYPE_FCOE, "not_fcoe with 0x8906");
		FZ_CHECK(f->fcoe_off <= len, "fcoe_off %u of %u", f->fcoe_off, len);
		FZ_CHECK(f->ethertype == fcr_get_be16(b + f->fcoe_off - 2),
			 "ethertype 0x%x", f->ethertype);
		FZ_CHECK(f->tagged == (f->fcoe_off == 18), "tagged");
	}
	if (rc != FCR_R_OK)
		return;
	FZ_CHECK(f->ethertype == FCR_ETHERTYPE_FCOE, "ethertype 0x%x", f->ethertype);
	FZ_CHECK(f->fcoe_off == (f->tagged ? 18 : 14), "fcoe_off %u", f->fcoe_off);
	FZ_CHECK(f->tagged == (fcr_get_be16(b + 12) == FCR_ETHERTYPE_VLAN), "tag");
	FZ_CHECK(f->fc_off == f->fcoe_off + FCR_FCOE_HLEN, "fc_off %u", f->fc_off);
	FZ_CHECK(f->frame_len == len, "frame_len %u of %u", f->frame_len, len);
	FZ_CHECK((f->fc_len & 3) == 0, "fc_len %u", f->fc_len);
	FZ_CHECK(f->fc_len >= FCR_FC_HLEN && f->fc_len <= FCR_FC_MAX_LEN,
		 "fc_len %u", f->fc_len);
	FZ_CHECK(f->fill <= 3 && f->fill == (f->f_ctl & 3), "fill %u", f->fill);
	FZ_CHECK((uint32_t)f->payload_len + f->fill + FCR_FC_HLEN == f->fc_len,
		 "payload %u + fill %u + 24 != fc_len %u", f->payload_len,
		 f->fill, f->fc_len);
	FZ_CHECK(fcr_frame_crc_off(f) + FCR_FCOE_TLEN == len, "crc at %u of %u",
		 fcr_frame_crc_off(f), len);
	FZ_CHECK(fcr_sof_valid(f->sof) && f->sof == b[f->fcoe_off + 13], "sof");
	/* version and reserved bytes zero, but for the mark */
	for (i = 0; i < FCR_FCOE_MARK_OFF; i++)
		FZ_CHECK(b[f->fcoe_off + i] == 0, "FCoE header byte %u", i);
	FZ_CHECK((b[f->fcoe_off + FCR_FCOE_MARK_OFF] & ~FCR_FCOE_MARK) == 0 &&
		 f->mark == (b[f->fcoe_off + FCR_FCOE_MARK_OFF] & FCR_FCOE_MARK), "mark");
	FZ_CHECK(fcr_eof_valid(f->eof) && f->eof == b[len - 4], "eof");
	fc = b + f->fc_off;
	FZ_CHECK(f->r_ctl == fc[0] && f->d_id == fcr_get_be24(fc + 1), "d_id");
	FZ_CHECK(f->cs_ctl == fc[4] && f->s_id == fcr_get_be24(fc + 5), "s_id");
	FZ_CHECK(f->type == fc[8] && f->f_ctl == fcr_get_be24(fc + 9), "f_ctl");
	FZ_CHECK(f->seq_id == fc[12] && f->df_ctl == fc[13] &&
		 f->seq_cnt == fcr_get_be16(fc + 14), "seq");
	FZ_CHECK(f->ox_id == fcr_get_be16(fc + 16) &&
		 f->rx_id == fcr_get_be16(fc + 18), "exchange ids");
	FZ_CHECK(f->param == fcr_get_be32(fc + 20), "param");
	FZ_CHECK(f->crc == ((uint32_t)b[len - 8] | (uint32_t)b[len - 7] << 8 |
			    (uint32_t)b[len - 6] << 16 | (uint32_t)b[len - 5] << 24),
		 "crc value");
	if (f->tagged)
		FZ_CHECK(f->vlan == (fcr_get_be16(b + 14) & 0xFFF) &&
			 f->pcp == b[14] >> 5, "vlan");
	else
		FZ_CHECK(f->vlan == 0 && f->pcp == 0, "vlan of untagged");
}

/* One input: see the top of this file. */
static int
frame_one(const uint8_t *data, size_t size)
{
	struct fcr_frame f, fm, want;
	enum fcr_reason rc, rm, rv;
	const uint8_t *b, *p;
	struct rte_mbuf *m;
	struct fz_rx rx;
	uint32_t len;

	if (size < FZ_RX_LEN || size - FZ_RX_LEN > FZ_CAP)
		return -1;
	b = data + FZ_RX_LEN;
	len = (uint32_t)(size - FZ_RX_LEN);
	if (fz_rx_get(data, len, FZ_MAX_SEGS, &rx) < 0)
		return -1;
	p = tu_guard_place(&flat_guard, b, len);
	memset(&f, 0xA5, sizeof(f));
	rc = fcr_frame_parse(p, len, &f);
	check_parse(p, len, rc, &f);
	tally.hist[(unsigned)rc < FCR_R_COUNT ? rc : 0]++;
	if (rc == FCR_R_OK) {
		tally.ok++;
		tally.marked += f.mark != 0;
		/* the CRC check reads exactly the FC frame */
		rv = fcr_frame_verify_crc(p, &f);
		FZ_CHECK(rv == (tu_crc32_ref(p + f.fc_off, f.fc_len) == f.crc ?
				FCR_R_OK : FCR_R_BAD_CRC), "verify_crc %d", rv);
	}

	/* the same bytes as a chain: same result, same fields */
	tally.segmented += rx.nsegs > 1;
	m = guarded_chain(b, len, &rx);
	want = f;
	if (rx.stripped) {
		/* the NIC took a tag off: it is the frame's VLAN,
		 * unless the frame still carries one */
		m->ol_flags |= RTE_MBUF_F_RX_VLAN_STRIPPED;
		m->vlan_tci = rx.vlan_tci;
		if (f.tagged) {
			rc = FCR_R_VLAN_STACKED;
		} else {
			want.vlan = m->vlan_tci & 0xFFF;
			want.pcp = (uint8_t)(m->vlan_tci >> 13);
		}
	}
	memset(&fm, 0x5A, sizeof(fm));
	rm = fcr_frame_parse_mbuf(m, &fm);
	FZ_CHECK(rm == rc, "mbuf (%u segments) %s, flat %s", rx.nsegs,
		 fcr_reason_name(rm), fcr_reason_name(rc));
	frames_equal(&fm, &want);
	if (rm == FCR_R_OK)
		FZ_CHECK(fcr_frame_verify_crc_mbuf(m, &fm) ==
			 fcr_frame_verify_crc(p, &f), "verify_crc_mbuf");
	return 0;
}

/* Random valid frames, mutated, in random segments. */
static void
fuzz_frame_parser(void **state)
{
	static uint8_t in[FZ_RX_LEN + FZ_CAP];
	uint8_t *b = in + FZ_RX_LEN;
	long n = fz_iters_or(150000), i;
	char extra[400];
	double t0 = fz_now();

	(void)state;
	memset(&tally, 0, sizeof(tally));
	for (i = 0; i < n; i++) {
		struct fz_rx rx = { 0 };
		uint32_t len, cut[FZ_MAX_SEGS];
		struct tu_rng r;
		unsigned int k;

		fz_rng(&r, 1, (uint64_t)i);
		len = base_fcoe(&r, b);
		fz_mutate(&r, b, &len);
		rx.nsegs = (uint8_t)fz_random_cuts(&r, len, cut);
		for (k = 0; k + 1 < rx.nsegs; k++)
			rx.cut[k] = (uint16_t)cut[k];
		if (tu_below(&r, 8) == 0) {
			rx.stripped = 1;
			rx.vlan_tci = (uint16_t)tu_rand32(&r);
		}
		fz_rx_put(in, &rx);
		FZ_CHECK(fz_run_one(in, FZ_RX_LEN + len) == 0, "input refused");
	}
	{
		int o = snprintf(extra, sizeof(extra), "%ld chained, %ld ok with the mark;",
				 tally.segmented, tally.marked);
		unsigned int k;

		for (k = 0; k < FCR_R_COUNT && o < (int)sizeof(extra); k++)
			if (tally.hist[k])
				o += snprintf(extra + o, sizeof(extra) - (size_t)o,
					      " %s %lu", fcr_reason_name((enum fcr_reason)k),
					      tally.hist[k]);
	}
	fz_report(n, "frames", t0, extra);
	assert_true(tally.ok > n / 20);
}

static int
frame_init(void)
{
	unsigned int i;

	for (i = 0; i < FZ_MAX_SEGS; i++)
		tu_guard_init(&guards[i]);
	tu_guard_init(&flat_guard);
	return flat_guard.page < FZ_CAP ? -1 : 0;
}

static void
frame_fini(void)
{
	unsigned int i;

	for (i = 0; i < FZ_MAX_SEGS; i++)
		tu_guard_fini(&guards[i]);
	tu_guard_fini(&flat_guard);
}

const struct fz_target fz_this = {
	.name = "frame",
	.init = frame_init,
	.fini = frame_fini,
	.one = frame_one,
	.test = cmocka_unit_test(fuzz_frame_parser),
};
