/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Hostile input for every decoder that reads bytes from the wire: valid
 * frames and datagrams, mutated at random (bit flips, byte sets, truncation,
 * extension, tags added and removed, lengths and counts that lie, segment
 * splits), thrown by the hundred thousand at
 *   - the FCoE parser, flat and in mbuf chains, each buffer and segment
 *     ending at a PROT_NONE guard page;
 *   - login recognition (FCoE ELS and FIP), guard page too;
 *   - the whole worker decision (fcr_pipeline_burst) on real mbufs, its
 *     events then applied by the table writer;
 *   - the sync engine's record decoder, behind a valid MAC (datagrams
 *     sealed with the shared key after mutation), and unsealed bytes.
 * Whatever comes in: a valid reason or drop counter, every frame one
 * outcome, every datagram applied or counted, tables whose views agree, no
 * read past the end, no crash.
 *
 * Deterministic: FCR_FUZZ_SEED=<n> picks the seed (printed), each input
 * derives its own generator from (seed, target, iteration), so a failure
 * names the iteration that reproduces it (for the pipeline, the burst).
 * FCR_FUZZ_ITERS=<n> runs n inputs per target instead of the defaults:
 * frames for the parser, logins and pipeline, datagrams for sync.
 */
#include <time.h>

#include <rte_eal.h>
#include <rte_hash.h>
#include <rte_lpm.h>
#include <rte_mbuf.h>

#include "fcr_change.h"
#include "fcr_login.h"
#include "fcr_pipeline.h"
#include "fcr_sync.h"
#include "fcr_tables.h"
#include "test_util.h"

/* ------------------------------------------------------------ harness */

static uint64_t fz_seed = 0xF0CC5EEDull;
static long fz_iters;            /* 0: each target's default */
static const char *fz_target = "";
static uint64_t fz_iter;

static long
iters_or(long def)
{
	return fz_iters > 0 ? fz_iters : def;
}

static uint64_t
splitmix(uint64_t x)
{
	x += 0x9E3779B97F4A7C15ull;
	x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
	x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
	return x ^ (x >> 31);
}

/* One generator per input: (seed, target, iteration) reproduces it. */
static void
fz_rng(struct tu_rng *r, uint32_t target, uint64_t i)
{
	fz_iter = i;
	tu_rng_seed(r, splitmix(fz_seed ^ splitmix(((uint64_t)target << 48) ^ i)));
}

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void
fz_report(const char *target, long n, const char *unit, double t0,
	  const char *extra)
{
	printf("fuzz %-8s seed 0x%llx: %ld %s in %.1f s%s%s\n", target,
	       (unsigned long long)fz_seed, n, unit, now_s() - t0,
	       extra[0] ? "; " : "", extra);
	fflush(stdout);
}

/* A failed invariant, with what reproduces it. */
#define FZ_CHECK(c, ...) do { \
		if (!(c)) { \
			char m_[256]; \
			snprintf(m_, sizeof(m_), __VA_ARGS__); \
			fail_msg("%s: iteration %llu (FCR_FUZZ_SEED=0x%llx): " \
				 "%s [%s]", fz_target, \
				 (unsigned long long)fz_iter, \
				 (unsigned long long)fz_seed, m_, #c); \
		} \
	} while (0)

static uint64_t
rand_u64_interesting(struct tu_rng *r)
{
	static const uint64_t v[] = {
		0, 1, UINT64_MAX, UINT64_MAX - 1, 1ull << 63, 0x0FFFFFFFFFFFFFFFull,
		0x1000000000000000ull, 0xFFFFFF, 0x7F, 0x80, 0x3FFF, 0x4000,
	};

	return tu_below(r, 2) ? tu_rand64(r) : v[tu_below(r, RTE_DIM(v))];
}

/* ----------------------------------------------------------- mutation */

#define FZ_CAP 4096 /* a page: every buffer fits in front of a guard page */

static const uint8_t interesting[] = {
	0x00, 0xff, 0x7f, 0x80, 0x01, 0x02, 0x03, 0x04, 0x05, 0x07, 0x08, 0x09,
	0x10, 0x14, 0x22, 0x23, 0x51, 0x81, 0x88, 0x89, 0x06, 0xa8, 0x8e, 0x91,
	0x28, 0x29, 0x2d, 0x2e, 0x31, 0x35, 0x36, 0x39,             /* SOF */
	0x41, 0x42, 0x44, 0x46, 0x49, 0x4e, 0x4f, 0x50,             /* EOF */
};

static const uint16_t ethertypes[] = {
	FCR_ETHERTYPE_FCOE, FCR_ETHERTYPE_FIP, FCR_ETHERTYPE_VLAN,
	FCR_ETHERTYPE_QINQ, 0x0800, 0x88cc, 0x8907, 0x0000, 0xffff,
};

/* A position, more often in the headers and the trailer. */
static uint32_t
pick_pos(struct tu_rng *r, uint32_t len)
{
	switch (tu_below(r, 4)) {
	case 0:
	case 1:
		return tu_below(r, RTE_MIN(len, 64u));
	case 2:
		return len - 1 - tu_below(r, RTE_MIN(len, 8u));
	default:
		return tu_below(r, len);
	}
}

static uint32_t
l2_len(const uint8_t *b, uint32_t len)
{
	return len >= 14 && fcr_get_be16(b + 12) == FCR_ETHERTYPE_VLAN ? 18 : 14;
}

/* Put a valid trailer (EOF and reserved zeros) at the current end, so a
 * frame whose length changed still gets past the trailer checks. */
static void
retrailer(struct tu_rng *r, uint8_t *b, uint32_t len)
{
	static const uint8_t eof[] = { 0x41, 0x42, 0x44, 0x46, 0x49, 0x4e, 0x4f, 0x50 };

	if (len < 8)
		return;
	b[len - 4] = eof[tu_below(r, RTE_DIM(eof))];
	b[len - 3] = b[len - 2] = b[len - 1] = 0;
}

/* Recompute the CRC of a frame that parses, so a mutation of the FC
 * header or payload reaches the code behind the CRC check. */
static void
fix_crc(uint8_t *b, uint32_t len)
{
	struct fcr_frame f;

	if (fcr_frame_parse(b, len, &f) == FCR_R_OK)
		tu_fix_crc(b, f.fc_off, f.fc_len);
}

static void
mutate_once(struct tu_rng *r, uint8_t *b, uint32_t *lenp)
{
	uint32_t len = *lenp, p, n, h;

	switch (tu_below(r, 12)) {
	case 0: /* bit flip */
		if (len)
			b[pick_pos(r, len)] ^= (uint8_t)(1u << tu_below(r, 8));
		break;
	case 1: /* byte set */
		if (len)
			b[pick_pos(r, len)] = tu_below(r, 2) ?
				interesting[tu_below(r, RTE_DIM(interesting))] :
				(uint8_t)tu_rand32(r);
		break;
	case 2: /* truncate: near the end, or anywhere */
		if (len)
			len = tu_below(r, 2) ? len - 1 - tu_below(r, RTE_MIN(len, 12u))
					     : tu_below(r, len);
		break;
	case 3: /* extend: a few bytes, whole words, or far */
		n = tu_below(r, 3) == 0 ? tu_below(r, 2400) : 1 + tu_below(r, 16);
		if (tu_below(r, 2))
			n &= ~3u;
		n = RTE_MIN(n, FZ_CAP - len);
		if (tu_below(r, 2))
			memset(b + len, 0, n);
		else
			tu_fill_random(r, b + len, n);
		len += n;
		break;
	case 4:
		retrailer(r, b, len);
		break;
	case 5: /* EtherType, outer or inner */
		if (len >= 14) {
			p = tu_below(r, 2) && len >= 18 ? 16 : 12;
			fcr_put_be16(b + p, ethertypes[tu_below(r, RTE_DIM(ethertypes))]);
		}
		break;
	case 6: /* add a tag (a second one if tagged) */
		if (len >= 12 && len + 4 <= FZ_CAP) {
			memmove(b + 16, b + 12, len - 12);
			fcr_put_be16(b + 12, tu_below(r, 4) ? FCR_ETHERTYPE_VLAN
							   : FCR_ETHERTYPE_QINQ);
			fcr_put_be16(b + 14, (uint16_t)tu_rand32(r));
			len += 4;
		}
		break;
	case 7: /* remove 4 bytes after the MACs (a tag, or not) */
		if (len >= 16) {
			memmove(b + 12, b + 16, len - 16);
			len -= 4;
		}
		break;
	case 8: /* an FC header field: R_CTL/TYPE of a login, F_CTL fill, SOF */
		h = l2_len(b, len);
		p = h + FCR_FCOE_HLEN;
		if (len < p + FCR_FC_HLEN)
			break;
		switch (tu_below(r, 4)) {
		case 0:
			b[p] = tu_below(r, 2) ? FCR_RCTL_ELS_REQ : FCR_RCTL_ELS_REP;
			b[p + FCR_FC_TYPE] = FCR_TYPE_ELS;
			break;
		case 1:
			b[p + FCR_FC_F_CTL + 2] = (uint8_t)((b[p + FCR_FC_F_CTL + 2] & ~3u) |
							    tu_below(r, 4));
			break;
		case 2:
			b[h + 13] = interesting[tu_below(r, RTE_DIM(interesting))];
			break;
		default:
			fcr_put_be24(b + p + (tu_below(r, 2) ? FCR_FC_D_ID : FCR_FC_S_ID),
				     tu_rand32(r) & FCR_FCID_MASK);
			break;
		}
		break;
	case 9: /* a 16- or 32-bit word */
		if (len >= 4) {
			p = pick_pos(r, len - 3);
			if (tu_below(r, 2))
				fcr_put_be16(b + p, (uint16_t)(tu_below(r, 2) ?
					     tu_rand32(r) : 0xFFFF));
			else
				fcr_put_be32(b + p, tu_rand32(r));
		}
		break;
	case 10: /* delete or insert bytes in the middle */
		if (len < 2)
			break;
		p = tu_below(r, len);
		n = 1 + tu_below(r, 8);
		if (tu_below(r, 2)) {
			n = RTE_MIN(n, len - p);
			memmove(b + p, b + p + n, len - p - n);
			len -= n;
		} else if (len + n <= FZ_CAP) {
			memmove(b + p + n, b + p, len - p);
			tu_fill_random(r, b + p, n);
			len += n;
		}
		break;
	default: /* keep the CRC right: mutations behind the CRC check */
		fix_crc(b, len);
		break;
	}
	*lenp = len;
}

/* 0 to 5 mutations; a clean input now and then. */
static void
mutate(struct tu_rng *r, uint8_t *b, uint32_t *len)
{
	uint32_t i, n = tu_below(r, 8) == 0 ? 0 : 1 + tu_below(r, 5);

	for (i = 0; i < n; i++)
		mutate_once(r, b, len);
	if (tu_below(r, 4) == 0)
		retrailer(r, b, *len);
	if (tu_below(r, 3) == 0)
		fix_crc(b, *len);
}

/* ------------------------------------------------------- base inputs */

static uint16_t
rand_plen(struct tu_rng *r, uint16_t max)
{
	static const uint16_t edge[] = { 0, 1, 2, 3, 4, 5, 36, 116, 2108, 2109,
					 2110, 2111, 2112 };
	uint16_t v;

	switch (tu_below(r, 4)) {
	case 0:
		v = edge[tu_below(r, RTE_DIM(edge))];
		break;
	case 1:
		v = (uint16_t)tu_below(r, (uint32_t)max + 1);
		break;
	default:
		v = (uint16_t)tu_below(r, 160);
		break;
	}
	return RTE_MIN(v, max);
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
	fc.payload_len = rand_plen(r, FCR_FC_MAX_PAYLOAD);
	tu_fill_random(r, payload, fc.payload_len);
	fc.payload = payload;
	n = fcr_build_fcoe(b, FZ_CAP, &l2, &fc);
	assert_true(n > 0);
	return (uint32_t)n;
}

/* The WWPN a login names: from a small set, so logins pair up. */
static uint64_t
rand_wwpn(struct tu_rng *r)
{
	return tu_below(r, 8) ? 0x2100000000000000ull | tu_below(r, 8)
			      : rand_u64_interesting(r);
}

/*
 * A valid login frame: FCoE ELS (FLOGI, FDISC, PLOGI, LS_ACC, LS_RJT,
 * LOGO, PRLI) or FIP link service (FLOGI/FDISC/LOGO request or reply), or
 * a FIP frame of random descriptors.
 */
static uint32_t
base_login(struct tu_rng *r, uint8_t *b, int tagged, uint16_t vlan,
	   uint64_t wwpn, uint32_t fcid)
{
	static const uint8_t dt[] = { FCR_FIP_DT_FLOGI, FCR_FIP_DT_FDISC,
				      FCR_FIP_DT_LOGO };
	uint8_t pl[FCR_FC_MAX_PAYLOAD];
	struct fcr_l2_spec l2;
	struct fcr_fc_spec fc;
	struct fcr_fip_spec fip;
	uint32_t kind = tu_below(r, 16), extra;
	uint16_t plen;
	size_t n;

	tu_l2(&l2, tagged);
	l2.vlan = vlan;
	memset(&fc, 0, sizeof(fc));
	fc.type = FCR_TYPE_ELS;
	fc.ox_id = (uint16_t)tu_below(r, 4);
	fc.rx_id = 0xFFFF;
	fc.r_ctl = FCR_RCTL_ELS_REQ;
	fc.d_id = FCR_FCID_FLOGI;
	fc.s_id = 0;
	switch (kind % 8) {
	case 0:
		plen = (uint16_t)fcr_els_sparm(pl, FCR_ELS_FLOGI, wwpn, wwpn + 1);
		break;
	case 1:
		plen = (uint16_t)fcr_els_sparm(pl, FCR_ELS_FDISC, wwpn, wwpn + 1);
		break;
	case 2:
		plen = (uint16_t)fcr_els_sparm(pl, FCR_ELS_PLOGI, wwpn, wwpn + 1);
		fc.s_id = fcid;
		fc.d_id = 0x010000 | tu_below(r, 4);
		break;
	case 3:
		plen = (uint16_t)fcr_els_sparm(pl, FCR_ELS_LS_ACC, wwpn, wwpn + 1);
		fc.r_ctl = FCR_RCTL_ELS_REP;
		fc.s_id = tu_below(r, 2) ? FCR_FCID_FLOGI : 0x010000 | tu_below(r, 4);
		fc.d_id = fcid;
		break;
	case 4:
		memset(pl, 0, 4);
		pl[0] = tu_below(r, 2) ? FCR_ELS_LS_ACC : FCR_ELS_LS_RJT;
		plen = 4;
		fc.r_ctl = FCR_RCTL_ELS_REP;
		fc.s_id = FCR_FCID_FLOGI;
		fc.d_id = fcid;
		break;
	case 5:
		plen = (uint16_t)fcr_els_logo(pl, fcid, wwpn);
		fc.s_id = fcid;
		break;
	case 6:
		memset(pl, 0, 20);
		pl[0] = FCR_ELS_PRLI;
		plen = 20;
		fc.s_id = fcid;
		fc.d_id = 0x010001;
		break;
	default:
		plen = (uint16_t)tu_below(r, 64);
		tu_fill_random(r, pl, plen);
		fc.r_ctl = tu_below(r, 2) ? FCR_RCTL_ELS_REQ : FCR_RCTL_ELS_REP;
		break;
	}
	/* longer than its command needs, now and then */
	if (tu_below(r, 4) == 0) {
		extra = tu_below(r, 300);
		tu_fill_random(r, pl + plen, extra);
		plen = (uint16_t)(plen + extra);
	}
	fc.payload = pl;
	fc.payload_len = plen;
	if (kind < 8) {
		n = fcr_build_fcoe(b, FZ_CAP, &l2, &fc);
	} else if (kind < 15) {
		memset(&fip, 0, sizeof(fip));
		fip.subcode = tu_below(r, 2) ? FCR_FIP_SC_REQ : FCR_FIP_SC_REP;
		fip.desc_type = dt[tu_below(r, RTE_DIM(dt))];
		fip.flags = 0x8000;
		fcr_fpma(fip.mac, FCR_FC_MAP_DEFAULT, fcid);
		if (fip.subcode == FCR_FIP_SC_REP) {
			/* a reply carries an ELS reply */
			fc.r_ctl = FCR_RCTL_ELS_REP;
			if (tu_below(r, 4))
				pl[0] = tu_below(r, 8) ? FCR_ELS_LS_ACC : FCR_ELS_LS_RJT;
		} else if (fip.desc_type == FCR_FIP_DT_LOGO) {
			plen = (uint16_t)fcr_els_logo(pl, fcid, wwpn);
			fc.payload_len = plen;
		} else {
			pl[0] = fip.desc_type == FCR_FIP_DT_FLOGI ? FCR_ELS_FLOGI
								 : FCR_ELS_FDISC;
		}
		fc.r_ctl = fip.subcode == FCR_FIP_SC_REQ ? FCR_RCTL_ELS_REQ
							 : FCR_RCTL_ELS_REP;
		if (fc.payload_len > FCR_FIP_MAX_ELS_PAYLOAD)
			fc.payload_len = FCR_FIP_MAX_ELS_PAYLOAD;
		n = fcr_build_fip_ls(b, FZ_CAP, &l2, &fip, &fc);
	} else {
		/* FIP of random descriptors: MAC, ELS, unknown, any order */
		uint32_t h = tagged ? 18 : 14, off = h + FCR_FIP_HLEN, k;

		n = fcr_build_fip_ls(b, FZ_CAP, &l2,
				     &(struct fcr_fip_spec){ .subcode = FCR_FIP_SC_REQ,
							     .desc_type = FCR_FIP_DT_FLOGI },
				     &fc);
		assert_true(n > 0);
		fcr_put_be16(b + h + 2, tu_below(r, 4) ? FCR_FIP_OP_LS
						       : (uint16_t)tu_below(r, 8));
		b[h + 5] = (uint8_t)tu_below(r, 4);
		for (k = tu_below(r, 5); k > 0 && off + 40 < FZ_CAP; k--) {
			uint32_t dl = 1 + tu_below(r, 9);

			b[off] = tu_below(r, 2) ? FCR_FIP_DT_MAC : (uint8_t)tu_below(r, 16);
			b[off + 1] = (uint8_t)dl;
			tu_fill_random(r, b + off + 2, dl * 4 - 2);
			off += dl * 4;
		}
		fcr_put_be16(b + h + 6, (uint16_t)((off - h - FCR_FIP_HLEN) / 4));
		n = off;
	}
	assert_true(n > 0);
	return (uint32_t)n;
}

/* FIP-specific lies: descriptor list and descriptor lengths, types,
 * subcodes, an extra descriptor. */
static void
mutate_fip(struct tu_rng *r, uint8_t *b, uint32_t *lenp)
{
	uint32_t len = *lenp, h = l2_len(b, len), d;

	if (len < h + FCR_FIP_HLEN + 2)
		return;
	switch (tu_below(r, 5)) {
	case 0:
		fcr_put_be16(b + h + 6, (uint16_t)(tu_below(r, 2) ?
			     fcr_get_be16(b + h + 6) + tu_below(r, 3) - 1 :
			     tu_rand32(r)));
		break;
	case 1: /* a descriptor's length, first or second */
		d = h + FCR_FIP_HLEN;
		if (tu_below(r, 2) && d + 1 < len && b[d + 1] != 0)
			d += b[d + 1] * 4u;
		if (d + 1 < len)
			b[d + 1] = tu_below(r, 2) ? (uint8_t)(b[d + 1] + tu_below(r, 3) - 1)
						  : (uint8_t)tu_rand32(r);
		break;
	case 2:
		d = h + FCR_FIP_HLEN;
		if (tu_below(r, 2) && d + 1 < len && b[d + 1] != 0)
			d += b[d + 1] * 4u;
		if (d < len)
			b[d] = tu_below(r, 2) ? (uint8_t)(2 + tu_below(r, 8))
					      : (uint8_t)tu_rand32(r);
		break;
	case 3:
		b[h + 5] = (uint8_t)tu_below(r, 4);
		break;
	default: /* one more descriptor, counted in the list length */
		if (len + 8 <= FZ_CAP) {
			b[len] = tu_below(r, 2) ? FCR_FIP_DT_MAC : (uint8_t)tu_rand32(r);
			b[len + 1] = 2;
			tu_fill_random(r, b + len + 2, 6);
			len += 8;
			fcr_put_be16(b + h + 6, (uint16_t)(fcr_get_be16(b + h + 6) + 2));
		}
		break;
	}
	*lenp = len;
}

/* ------------------------------------------ guard-page buffers, chains */

#define FZ_MAX_SEGS 6

static struct tu_guard guards[FZ_MAX_SEGS]; /* one per segment of a chain */
static struct tu_guard flat_guard, payload_guard;
static struct rte_mbuf gchain[FZ_MAX_SEGS] __rte_cache_aligned;

/*
 * The bytes as an mbuf chain of nsegs segments split at `cut`, each
 * segment's data ending exactly at its own guard page.
 */
static struct rte_mbuf *
guarded_chain(const uint8_t *b, uint32_t len, const uint32_t *cut,
	      unsigned int nsegs)
{
	uint32_t from = 0, to;
	unsigned int i;

	memset(gchain, 0, sizeof(gchain));
	for (i = 0; i < nsegs; i++) {
		struct rte_mbuf *m = &gchain[i];
		uint8_t *d;

		to = i + 1 < nsegs ? cut[i] : len;
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

/* 1..FZ_MAX_SEGS segments of at least one byte, split at random points. */
static unsigned int
random_cuts(struct tu_rng *r, uint32_t len, uint32_t *cut)
{
	unsigned int n, i, j;

	if (len < 2 || tu_below(r, 4) == 0)
		return 1;
	n = 2 + tu_below(r, RTE_MIN((uint32_t)FZ_MAX_SEGS - 1, len - 1));
	for (i = 0; i < n - 1; i++) {
		/* distinct points in [1, len - 1], sorted */
		uint32_t c;

again:
		c = 1 + (tu_below(r, 2) ? tu_below(r, RTE_MIN(len - 1, 80u))
					: tu_below(r, len - 1));
		for (j = 0; j < i; j++)
			if (cut[j] == c)
				goto again;
		for (j = i; j > 0 && cut[j - 1] > c; j--)
			cut[j] = cut[j - 1];
		cut[j] = c;
	}
	return n;
}

/* ------------------------------------------------ 1. the frame parser */

#define FIELD_EQ(a, b, fld) \
	FZ_CHECK((a)->fld == (b)->fld, "field " #fld ": %llu vs %llu", \
		 (unsigned long long)(a)->fld, (unsigned long long)(b)->fld)

static void
frames_equal(const struct fcr_frame *a, const struct fcr_frame *b)
{
	FIELD_EQ(a, b, ethertype); FIELD_EQ(a, b, vlan); FIELD_EQ(a, b, tagged);
	FIELD_EQ(a, b, pcp); FIELD_EQ(a, b, fcoe_off); FIELD_EQ(a, b, fc_off);
	FIELD_EQ(a, b, fc_len); FIELD_EQ(a, b, payload_len); FIELD_EQ(a, b, sof);
	FIELD_EQ(a, b, eof); FIELD_EQ(a, b, frame_len); FIELD_EQ(a, b, crc);
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

static void
fuzz_frame_parser(void **state)
{
	static uint8_t b[FZ_CAP];
	long n = iters_or(150000), i, ok = 0, segmented = 0;
	uint32_t cut[FZ_MAX_SEGS];
	unsigned long hist[FCR_R_COUNT] = { 0 };
	char extra[400];
	double t0 = now_s();

	(void)state;
	fz_target = "frame";
	for (i = 0; i < n; i++) {
		struct fcr_frame f, fm, want;
		enum fcr_reason rc, rm, rv;
		struct rte_mbuf *m;
		struct tu_rng r;
		const uint8_t *p;
		uint32_t len;
		unsigned int nsegs;

		fz_rng(&r, 1, (uint64_t)i);
		len = base_fcoe(&r, b);
		mutate(&r, b, &len);
		p = tu_guard_place(&flat_guard, b, len);
		memset(&f, 0xA5, sizeof(f));
		rc = fcr_frame_parse(p, len, &f);
		check_parse(p, len, rc, &f);
		hist[(unsigned)rc < FCR_R_COUNT ? rc : 0]++;
		if (rc == FCR_R_OK) {
			ok++;
			/* the CRC check reads exactly the FC frame */
			rv = fcr_frame_verify_crc(p, &f);
			FZ_CHECK(rv == (tu_crc32_ref(p + f.fc_off, f.fc_len) == f.crc ?
					FCR_R_OK : FCR_R_BAD_CRC), "verify_crc %d", rv);
		}

		/* the same bytes as a chain: same result, same fields */
		nsegs = random_cuts(&r, len, cut);
		segmented += nsegs > 1;
		m = guarded_chain(b, len, cut, nsegs);
		want = f;
		if (tu_below(&r, 8) == 0) {
			/* the NIC took a tag off: it is the frame's VLAN,
			 * unless the frame still carries one */
			m->ol_flags |= RTE_MBUF_F_RX_VLAN_STRIPPED;
			m->vlan_tci = (uint16_t)tu_rand32(&r);
			if (f.tagged) {
				rc = FCR_R_VLAN_STACKED;
			} else {
				want.vlan = m->vlan_tci & 0xFFF;
				want.pcp = (uint8_t)(m->vlan_tci >> 13);
			}
		}
		memset(&fm, 0x5A, sizeof(fm));
		rm = fcr_frame_parse_mbuf(m, &fm);
		FZ_CHECK(rm == rc, "mbuf (%u segments) %s, flat %s", nsegs,
			 fcr_reason_name(rm), fcr_reason_name(rc));
		frames_equal(&fm, &want);
		if (rm == FCR_R_OK)
			FZ_CHECK(fcr_frame_verify_crc_mbuf(m, &fm) ==
				 fcr_frame_verify_crc(p, &f), "verify_crc_mbuf");
	}
	{
		int o = snprintf(extra, sizeof(extra), "%ld chained;", segmented);
		unsigned int k;

		for (k = 0; k < FCR_R_COUNT && o < (int)sizeof(extra); k++)
			if (hist[k])
				o += snprintf(extra + o, sizeof(extra) - (size_t)o,
					      " %s %lu", fcr_reason_name((enum fcr_reason)k),
					      hist[k]);
	}
	fz_report("frame", n, "frames", t0, extra);
	assert_true(ok > n / 20);
}

/* ----------------------------------------------- 2. login recognition */

/* The ELS layout of FC-LS, written out independently of fcr_login.c. */
static void
check_els_login(const struct fcr_frame *f, const uint8_t *pl, uint32_t avail,
		enum fcr_reason rc, const struct fcr_login *l)
{
	uint32_t n = RTE_MIN(avail, (uint32_t)f->payload_len);
	uint8_t kind = FCR_LOGIN_NONE;
	enum fcr_reason want = FCR_R_OK;

	FZ_CHECK(l->s_id == f->s_id && l->d_id == f->d_id &&
		 l->ox_id == f->ox_id && l->rx_id == f->rx_id && l->vlan == f->vlan,
		 "header fields");
	FZ_CHECK(!l->via_fip && !l->has_mac && l->answers == FCR_LOGIN_NONE, "fip");
	if (f->type != FCR_TYPE_ELS ||
	    (f->r_ctl != FCR_RCTL_ELS_REQ && f->r_ctl != FCR_RCTL_ELS_REP)) {
		want = FCR_R_OK;
	} else if (n < 4) {
		want = FCR_R_TRUNC_PAYLOAD;
	} else if (f->r_ctl == FCR_RCTL_ELS_REP) {
		kind = pl[0] == FCR_ELS_LS_RJT ? FCR_LOGIN_RJT :
		       pl[0] == FCR_ELS_LS_ACC ? FCR_LOGIN_ACC : FCR_LOGIN_NONE;
	} else if (pl[0] == FCR_ELS_FLOGI || pl[0] == FCR_ELS_FDISC ||
		   pl[0] == FCR_ELS_PLOGI) {
		if (n < 36)
			want = FCR_R_TRUNC_PAYLOAD;
		else
			kind = pl[0] == FCR_ELS_FLOGI ? FCR_LOGIN_FLOGI :
			       pl[0] == FCR_ELS_FDISC ? FCR_LOGIN_FDISC : FCR_LOGIN_PLOGI;
	} else if (pl[0] == FCR_ELS_LOGO) {
		if (n < 16)
			want = FCR_R_TRUNC_PAYLOAD;
		else
			kind = FCR_LOGIN_LOGO;
	}
	FZ_CHECK(rc == want, "els reason %s, expected %s", fcr_reason_name(rc),
		 fcr_reason_name(want));
	if (rc != FCR_R_OK)
		return;
	FZ_CHECK(l->kind == kind, "els kind %u, expected %u", l->kind, kind);
	switch (kind) {
	case FCR_LOGIN_FLOGI:
	case FCR_LOGIN_FDISC:
	case FCR_LOGIN_PLOGI:
		FZ_CHECK(l->has_wwpn && l->wwpn == fcr_get_be64(pl + 20) &&
			 l->wwnn == fcr_get_be64(pl + 28), "service parameters");
		break;
	case FCR_LOGIN_LOGO:
		FZ_CHECK(l->has_wwpn && l->wwpn == fcr_get_be64(pl + 8) &&
			 l->port_id == fcr_get_be24(pl + 5), "logo");
		break;
	case FCR_LOGIN_ACC:
		FZ_CHECK(l->has_wwpn == (n >= 36), "acc has_wwpn");
		if (l->has_wwpn)
			FZ_CHECK(l->wwpn == fcr_get_be64(pl + 20), "acc wwpn");
		break;
	default:
		FZ_CHECK(!l->has_wwpn && l->wwpn == 0, "no wwpn");
		break;
	}
}

/* Ranges any recognised login keeps. */
static void
check_login_ranges(const struct fcr_login *l)
{
	FZ_CHECK(l->kind <= FCR_LOGIN_CVL, "kind %u", l->kind);
	FZ_CHECK(l->nb_cvl <= FCR_CVL_MAX && (l->kind == FCR_LOGIN_CVL) == (l->nb_cvl > 0),
		 "%u VN_Ports cleared", l->nb_cvl);
	FZ_CHECK(l->answers <= FCR_LOGIN_RJT, "answers %u", l->answers);
	FZ_CHECK(l->via_fip <= 1 && l->has_wwpn <= 1 && l->has_mac <= 1, "flags");
	FZ_CHECK(l->s_id <= FCR_FCID_MASK && l->d_id <= FCR_FCID_MASK &&
		 l->port_id <= FCR_FCID_MASK, "24-bit FCIDs");
	FZ_CHECK(l->vlan <= 0xFFF, "vlan %u", l->vlan);
	FZ_CHECK(strcmp(fcr_login_kind_name((enum fcr_login_kind)l->kind), "?") != 0,
		 "kind name");
}

static void
fuzz_login_recognition(void **state)
{
	static uint8_t b[FZ_CAP];
	long n = iters_or(400000), i, learned = 0, via_fip = 0, els = 0;
	unsigned long kinds[FCR_LOGIN_CVL + 1] = { 0 }; /* every kind, CVL too */
	char extra[200];
	double t0 = now_s();

	(void)state;
	fz_target = "login";
	for (i = 0; i < n; i++) {
		struct fcr_login l;
		struct fcr_frame f;
		struct tu_rng r;
		enum fcr_reason rc, rf;
		const uint8_t *p;
		uint32_t len, avail, k, nm;

		fz_rng(&r, 2, (uint64_t)i);
		len = base_login(&r, b, (int)tu_below(&r, 2),
				 (uint16_t)tu_below(&r, 4096), rand_wwpn(&r),
				 0x010000 | tu_below(&r, 16));
		nm = tu_below(&r, 8) == 0 ? 0 : 1 + tu_below(&r, 4);
		for (k = 0; k < nm; k++) {
			if (tu_below(&r, 2))
				mutate_fip(&r, b, &len);
			else
				mutate_once(&r, b, &len);
		}
		if (tu_below(&r, 3) == 0)
			fix_crc(b, len);
		p = tu_guard_place(&flat_guard, b, len);
		memset(&l, 0xA5, sizeof(l));
		rc = fcr_login_parse(p, len, &l);
		FZ_CHECK((unsigned)rc < FCR_R_COUNT, "reason %d", (int)rc);
		rf = fcr_frame_parse(p, len, &f);
		if (rc == FCR_R_OK) {
			check_login_ranges(&l);
			kinds[l.kind]++;
			learned += l.kind != FCR_LOGIN_NONE;
			via_fip += l.via_fip;
			if (l.kind != FCR_LOGIN_NONE) {
				FZ_CHECK(memcmp(l.eth_dst, p, 6) == 0 &&
					 memcmp(l.eth_src, p + 6, 6) == 0, "MACs");
				FZ_CHECK(l.vlan == f.vlan, "vlan %u vs %u", l.vlan, f.vlan);
			}
			if (l.via_fip)
				FZ_CHECK(rf == FCR_R_NOT_FCOE &&
					 f.ethertype == FCR_ETHERTYPE_FIP, "fip");
		}
		/* an FCoE frame: its reason is the parser's unless valid */
		if (rf != FCR_R_OK && rf != FCR_R_NOT_FCOE)
			FZ_CHECK(rc == rf, "login %s, parser %s", fcr_reason_name(rc),
				 fcr_reason_name(rf));
		if (rf != FCR_R_OK)
			continue;
		els++;
		check_els_login(&f, p + f.fc_off + FCR_FC_HLEN, f.payload_len, rc, &l);

		/* the pipeline's way in: a copy of part of the payload, which
		 * ends at a guard page; claiming more than the frame has is
		 * clamped */
		avail = tu_below(&r, 3) == 0 ? tu_below(&r, (uint32_t)f.payload_len + 1)
					     : RTE_MIN((uint32_t)f.payload_len,
						       (uint32_t)FCR_ELS_SPARM_LEN);
		p = tu_guard_place(&payload_guard, b + f.fc_off + FCR_FC_HLEN, avail);
		memset(&l, 0xA5, sizeof(l));
		rc = fcr_login_from_els(&f, p, avail, &l);
		FZ_CHECK((unsigned)rc < FCR_R_COUNT, "reason %d", (int)rc);
		check_els_login(&f, p, avail, rc, &l);
		if (rc == FCR_R_OK)
			check_login_ranges(&l);
	}
	snprintf(extra, sizeof(extra),
		 "%ld logins recognised (%ld via FIP), %ld valid FCoE; flogi %lu "
		 "fdisc %lu plogi %lu logo %lu acc %lu rjt %lu", learned, via_fip,
		 els, kinds[FCR_LOGIN_FLOGI], kinds[FCR_LOGIN_FDISC],
		 kinds[FCR_LOGIN_PLOGI], kinds[FCR_LOGIN_LOGO],
		 kinds[FCR_LOGIN_ACC], kinds[FCR_LOGIN_RJT]);
	fz_report("login", n, "frames", t0, extra);
	assert_true(learned > n / 20);
}

/* -------------------------------------------- tables: views that agree */

static uint64_t
fcid_key(uint16_t vlan, uint32_t fcid)
{
	return (uint64_t)vlan << 32 | fcid; /* fcr_binding.c's by-FCID key */
}

static void
rule_keys(const struct fcr_redirect *r, uint64_t key[4])
{
	const uint32_t *f = r->fcid;

	key[0] = fcr_flow_key(r->vlan, f[FCR_M_HOST], f[FCR_M_TARGET]);
	key[1] = fcr_flow_key(r->vlan, f[FCR_M_VI], f[FCR_M_TARGET]);
	key[2] = fcr_flow_key(r->vlan, f[FCR_M_TARGET], f[FCR_M_HOST]);
	key[3] = fcr_flow_key(r->vlan, f[FCR_M_VT], f[FCR_M_HOST]);
}

/*
 * Everything the tables API lets us cross-check: each hash agrees with the
 * array it indexes, by-FCID and by-WWPN views of the bindings agree, counts
 * match, every name is bound or named by a redirect (nothing leaks), rules
 * exist only for active redirects and active ones have their four.
 */
static void
check_tables(const struct fcr_tables *t)
{
	const struct fcr_flow_table *ft = t->flows;
	const struct fcr_binding_table *bt = t->names;
	const struct fcr_redirect_table *rd = t->redirects;
	const struct fcr_route_table *rt = t->routes;
	uint32_t i, j, m, live = 0, bound = 0, used = 0, active = 0, it;
	const void *kp;
	void *data;
	int32_t rc;

	/* flows */
	for (i = 0; i < ft->capacity; i++) {
		uint64_t k = ft->key[i];

		if (k == UINT64_MAX)
			continue;
		live++;
		FZ_CHECK(k >> 60 == 0, "flow %u: key 0x%llx no frame can have", i,
			 (unsigned long long)k);
		FZ_CHECK(fcr_flow_find(ft, k) == (int)i, "flow %u not found by key", i);
		if (ft->owner[i] != FCR_NO_OWNER) {
			const struct fcr_redirect *x;
			uint64_t rk[4];

			FZ_CHECK(ft->owner[i] < rd->capacity, "owner %u", ft->owner[i]);
			x = &rd->r[ft->owner[i]];
			FZ_CHECK(x->in_use, "entry of a deleted redirect %u", ft->owner[i]);
			if (fcr_action_leg(ft->action[i]) == FCR_LEG_BLOCKED) {
				/* fail closed: only the pair's two keys, and
				 * only while the redirect is not active */
				uint32_t h = bt->names[x->name[FCR_M_HOST]].fcid;
				uint32_t tg = bt->names[x->name[FCR_M_TARGET]].fcid;

				FZ_CHECK(x->state != FCR_RS_ACTIVE && x->blocking,
					 "blocking entry of redirect %u in state %u",
					 ft->owner[i], x->state);
				FZ_CHECK(k == fcr_flow_key(x->vlan, h, tg) ||
					 k == fcr_flow_key(x->vlan, tg, h),
					 "blocking key not the redirect's pair");
				continue;
			}
			FZ_CHECK(x->state == FCR_RS_ACTIVE,
				 "rule of redirect %u in state %u", ft->owner[i], x->state);
			rule_keys(x, rk);
			FZ_CHECK(k == rk[0] || k == rk[1] || k == rk[2] || k == rk[3],
				 "rule key not the redirect's");
		}
	}
	FZ_CHECK(live == ft->count, "flows: %u live, count %u", live, ft->count);
	for (i = 0, j = 0; i < ft->capacity; i++)
		j += ft->key[i] != UINT64_MAX && ft->owner[i] == FCR_NO_OWNER;
	FZ_CHECK(j == ft->nb_plain, "flows: %u plain, nb_plain %u", j, ft->nb_plain);
	FZ_CHECK((uint64_t)ft->nb_plain + ft->reserve <= ft->capacity,
		 "flows: %u plain + reserve %u > %u", ft->nb_plain, ft->reserve,
		 ft->capacity);
	FZ_CHECK(ft->nb_free + ft->count == ft->capacity, "flows: %u free + %u",
		 ft->nb_free, ft->count);
	it = 0;
	while ((rc = rte_hash_iterate(ft->hash, &kp, &data, &it)) >= 0) {
		uint32_t idx = (uint32_t)(uintptr_t)data;

		FZ_CHECK(idx < ft->capacity && ft->key[idx] == *(const uint64_t *)kp,
			 "flow hash entry -> %u", idx);
	}
	FZ_CHECK((uint32_t)rte_hash_count(ft->hash) == ft->count, "flow hash count");

	/* names: by (VLAN, WWPN) and by (VLAN, FCID) */
	for (i = 0; i < bt->capacity; i++) {
		const struct fcr_name *nm = &bt->names[i];

		if (!nm->in_use)
			continue;
		used++;
		FZ_CHECK(nm->vlan <= 0x0FFF, "name %u on VLAN %u", i, nm->vlan);
		FZ_CHECK(fcr_name_get((struct fcr_binding_table *)bt, nm->vlan,
				      nm->wwpn, 0) == i, "name %u by wwpn", i);
		if (nm->fcid != FCR_FCID_NONE) {
			bound++;
			FZ_CHECK(nm->fcid <= FCR_FCID_MASK, "fcid 0x%x", nm->fcid);
			FZ_CHECK(fcr_name_by_fcid(bt, nm->vlan, nm->fcid) == i,
				 "name %u by fcid", i);
			FZ_CHECK(nm->origin == FCR_BIND_STATIC ||
				 nm->origin == FCR_BIND_LEARNED, "origin %u", nm->origin);
		} else {
			FZ_CHECK(nm->origin == FCR_BIND_NONE, "unbound origin %u",
				 nm->origin);
			FZ_CHECK(nm->nb_refs > 0, "name %u (vlan %u wwpn %016llx) neither "
				 "bound nor named by a redirect", i, nm->vlan,
				 (unsigned long long)nm->wwpn);
		}
		for (j = 0; j < nm->nb_refs; j++) {
			const struct fcr_redirect *x = &rd->r[nm->refs[j]];

			FZ_CHECK(nm->refs[j] < rd->capacity && x->in_use, "ref");
			for (m = 0; m < FCR_M_COUNT && x->name[m] != i; m++)
				;
			FZ_CHECK(m < FCR_M_COUNT, "name %u refers to redirect %u "
				 "that does not name it", i, nm->refs[j]);
		}
	}
	FZ_CHECK(bound == bt->nb_bound, "names: %u bound, nb_bound %u", bound,
		 bt->nb_bound);
	FZ_CHECK(used + bt->nb_free == bt->capacity, "names: %u used + %u free",
		 used, bt->nb_free);
	FZ_CHECK((uint32_t)rte_hash_count(bt->by_wwpn) == used, "by_wwpn count");
	FZ_CHECK((uint32_t)rte_hash_count(bt->by_fcid) == bound, "by_fcid count");
	it = 0;
	while ((rc = rte_hash_iterate(bt->by_fcid, &kp, &data, &it)) >= 0) {
		const struct fcr_name *nm = &bt->names[(uintptr_t)data];

		FZ_CHECK((uintptr_t)data < bt->capacity && nm->in_use &&
			 nm->fcid != FCR_FCID_NONE &&
			 fcid_key(nm->vlan, nm->fcid) == *(const uint64_t *)kp,
			 "by_fcid entry -> name %u", (unsigned)(uintptr_t)data);
	}

	/* redirects */
	used = 0;
	for (i = 0; i < rd->capacity; i++) {
		const struct fcr_redirect *x = &rd->r[i];
		uint64_t rk[4];
		int idx;

		if (!x->in_use)
			continue;
		used++;
		FZ_CHECK(x->vlan <= 0x0FFF, "redirect %u on VLAN %u", i, x->vlan);
		for (m = 0; m < FCR_M_COUNT; m++) {
			const struct fcr_name *nm;

			FZ_CHECK(x->name[m] < bt->capacity, "member %u", m);
			nm = &bt->names[x->name[m]];
			FZ_CHECK(nm->in_use && nm->vlan == x->vlan, "member %u name", m);
			for (j = 0; j < nm->nb_refs && nm->refs[j] != i; j++)
				;
			FZ_CHECK(j < nm->nb_refs, "redirect %u not in its member's refs", i);
		}
		FZ_CHECK(fcr_redirect_find(rd, x->vlan, bt->names[x->name[0]].wwpn,
					   bt->names[x->name[1]].wwpn) == (int)i,
			 "redirect %u by key", i);
		if (x->state != FCR_RS_ACTIVE) {
			/* fail closed: a bound pair never has a plain entry */
			uint32_t h = bt->names[x->name[FCR_M_HOST]].fcid;
			uint32_t tg = bt->names[x->name[FCR_M_TARGET]].fcid;
			uint64_t pk[2];

			FZ_CHECK(x->state != FCR_RS_NO_ROOM,
				 "redirect %u no_room despite the reserve", i);
			if (h == FCR_FCID_NONE || tg == FCR_FCID_NONE)
				continue;
			pk[0] = fcr_flow_key(x->vlan, h, tg);
			pk[1] = fcr_flow_key(x->vlan, tg, h);
			for (m = 0; m < 2; m++) {
				idx = fcr_flow_find(ft, pk[m]);
				FZ_CHECK(idx >= 0 && ft->owner[idx] != FCR_NO_OWNER,
					 "redirect %u (%s): its bound pair %06x/%06x has no "
					 "blocking entry (key %u: entry %d, owner %u; it holds "
					 "%u keys, blocking %u; host %06x target %06x vi %06x "
					 "vt %06x)", i, fcr_redirect_state_name(x->state), h, tg,
					 m, idx, idx >= 0 ? ft->owner[idx] : 0, x->nb_keys,
					 x->blocking, h, tg,
					 bt->names[x->name[FCR_M_VI]].fcid,
					 bt->names[x->name[FCR_M_VT]].fcid);
			}
			continue;
		}
		active++;
		for (m = 0; m < FCR_M_COUNT; m++)
			FZ_CHECK(bt->names[x->name[m]].fcid == x->fcid[m],
				 "active redirect %u: member %u moved", i, m);
		rule_keys(x, rk);
		for (m = 0; m < 4; m++) {
			idx = fcr_flow_find(ft, rk[m]);
			FZ_CHECK(idx >= 0 && ft->owner[idx] == i,
				 "active redirect %u lacks rule %u", i, m);
		}
	}
	FZ_CHECK(used == rd->count && rd->count + rd->nb_free == rd->capacity,
		 "redirects: %u used, count %u, free %u", used, rd->count, rd->nb_free);
	FZ_CHECK(active == rd->nb_active, "redirects: %u active, nb_active %u",
		 active, rd->nb_active);
	FZ_CHECK((uint32_t)rte_hash_count(rd->by_key) == used, "redirect hash count");

	/* routes */
	FZ_CHECK(rt->nb_routes <= rt->max_routes &&
		 rt->nb_routes + rt->nb_nh_free == rt->max_routes,
		 "routes: %u + %u free next hops", rt->nb_routes, rt->nb_nh_free);
	for (i = 0; i < rt->nb_routes; i++) {
		const struct fcr_route *ro = &rt->routes[i];
		uint32_t nh;

		FZ_CHECK(ro->bits >= 1 && ro->bits <= 24, "bits %u", ro->bits);
		FZ_CHECK((ro->prefix & ~(0xFFFFFFu << (24 - ro->bits))) == 0 &&
			 ro->prefix <= FCR_FCID_MASK, "prefix 0x%x/%u", ro->prefix,
			 ro->bits);
		FZ_CHECK(ro->nh < rt->max_routes && rt->nexthop[ro->nh].in_use, "nh");
		FZ_CHECK(rte_lpm_is_rule_present(rt->lpm, ro->prefix << 8, ro->bits,
						 &nh) == 1 && nh == ro->nh,
			 "route 0x%x/%u not in the LPM", ro->prefix, ro->bits);
		for (j = 0; j < i; j++)
			FZ_CHECK(rt->routes[j].nh != ro->nh &&
				 (rt->routes[j].prefix != ro->prefix ||
				  rt->routes[j].bits != ro->bits), "route twice");
	}
}

/* ---------------------------------- 3. the worker's decision, in bursts */

#define PL_VLAN 100
#define PL_H 0x2100000000000001ull
#define PL_T 0x5000000000000001ull
#define PL_VI 0x2f00000000000001ull
#define PL_VT 0x2f00000000000002ull
#define PL_FH 0x010001u
#define PL_FT 0x410001u
#define PL_FVI 0x810001u
#define PL_FVT 0x810002u
#define PL_PORTS 3

static struct rte_mempool *pl_mp;
static const uint8_t pl_port_mac[PL_PORTS][6] = {
	{ 2, 0, 0, 0, 0, 0 }, { 2, 0, 0, 0, 0, 1 }, { 2, 0, 0, 0, 0, 2 },
};
static const uint8_t pl_sn_mac[6] = { 0x02, 0x5e, 0x00, 0x00, 0x00, 0x99 };
static const uint16_t pl_passthrough[4] = { 1, 0, 3, 2 }; /* port 2's is none */

static struct fcr_tables *
pipeline_tables(void)
{
	struct fcr_tables_params p = {
		.max_flows = 512, .max_routes = 16, .max_names = 64,
		.max_redirects = 16, .nb_workers = 1, .socket = 0,
	};
	struct fcr_tables *t = fcr_tables_create("fzpl", &p);

	assert_non_null(t);
	assert_int_equal(fcr_route_add(t->routes, 0x010000, 8, 0, NULL), 0);
	assert_int_equal(fcr_route_add(t->routes, 0x410000, 8, 1, NULL), 0);
	assert_int_equal(fcr_route_add(t->routes, 0x810000, 8, 2, pl_sn_mac), 0);
	assert_int_equal(fcr_route_add(t->routes, 0x610000, 8, 7, NULL), 0);
	assert_int_equal(fcr_route_add(t->routes, 0xFFFFFE, 24, 1, pl_sn_mac), 0);
	assert_int_equal(fcr_tables_binding_add(t, PL_VLAN, PL_H, PL_FH, FCR_BIND_STATIC), 0);
	assert_int_equal(fcr_tables_binding_add(t, PL_VLAN, PL_T, PL_FT, FCR_BIND_STATIC), 0);
	assert_int_equal(fcr_tables_binding_add(t, PL_VLAN, PL_VI, PL_FVI, FCR_BIND_STATIC), 0);
	assert_int_equal(fcr_tables_binding_add(t, PL_VLAN, PL_VT, PL_FVT, FCR_BIND_STATIC), 0);
	assert_true(fcr_redirect_add(t->redirects, PL_VLAN, PL_H, PL_T, PL_VI, PL_VT) >= 0);
	/* a second one whose members logins may bind */
	assert_true(fcr_redirect_add(t->redirects, PL_VLAN, 0x2100000000000002ull,
				     0x2100000000000003ull, 0x2100000000000004ull,
				     0x2100000000000005ull) >= 0);
	check_tables(t);
	return t;
}

/* A frame a worker meets: a redirect leg, plain traffic, no route, a
 * login, FIP, another EtherType. */
static uint32_t
base_wire(struct tu_rng *r, uint8_t *b)
{
	static const uint32_t legs[4][2] = {
		{ PL_FH, PL_FT }, { PL_FVI, PL_FT }, { PL_FT, PL_FH }, { PL_FVT, PL_FH },
	};
	static const uint32_t domains[] = { 0x01, 0x41, 0x81, 0x61, 0x21 };
	static uint8_t payload[FCR_FC_MAX_PAYLOAD];
	struct fcr_l2_spec l2;
	struct fcr_fc_spec fc;
	uint32_t k = tu_below(r, 10), len;
	uint16_t vlan = tu_below(r, 4) ? PL_VLAN : (uint16_t)tu_below(r, 4096);
	int tagged = tu_below(r, 5) != 0;

	if (k < 3) {
		len = base_login(r, b, tagged, vlan, rand_wwpn(r),
				 (domains[tu_below(r, 3)] << 16) | tu_below(r, 8));
		fix_crc(b, len);
		return len;
	}
	tu_l2(&l2, tagged);
	l2.vlan = vlan;
	l2.pcp = 3;
	memset(&fc, 0, sizeof(fc));
	fc.r_ctl = FCR_RCTL_FCP_DATA;
	fc.type = FCR_TYPE_FCP;
	fc.f_ctl = 0x290000;
	fc.ox_id = (uint16_t)tu_rand32(r);
	if (k < 6) {
		fc.s_id = legs[k - 3 + tu_below(r, 2)][0];
		fc.d_id = legs[k - 3 + tu_below(r, 2)][1];
	} else {
		fc.s_id = (domains[tu_below(r, 5)] << 16) | tu_below(r, 4);
		fc.d_id = (domains[tu_below(r, 5)] << 16) | tu_below(r, 4);
	}
	fc.payload = payload;
	fc.payload_len = tu_below(r, 8) ? (uint16_t)tu_below(r, 256)
					: rand_plen(r, FCR_FC_MAX_PAYLOAD);
	tu_fill_random(r, payload, fc.payload_len);
	len = (uint32_t)fcr_build_fcoe(b, FZ_CAP, &l2, &fc);
	assert_true(len > 0);
	if (k == 9 && tu_below(r, 2)) /* another EtherType */
		fcr_put_be16(b + (tagged ? 16 : 12), 0x88cc);
	return len;
}

/* An mbuf chain of real mbufs from the pool: 1 to 4 segments. */
static struct rte_mbuf *
wire_mbuf(struct tu_rng *r, const uint8_t *b, uint32_t len)
{
	uint32_t cut[FZ_MAX_SEGS], from = 0, to;
	unsigned int nsegs = len >= 2 && tu_below(r, 4) == 0 ?
			     random_cuts(r, len, cut) : 1, i;
	struct rte_mbuf *head = NULL;

	nsegs = RTE_MIN(nsegs, 4u);
	for (i = 0; i < nsegs; i++) {
		struct rte_mbuf *m = rte_pktmbuf_alloc(pl_mp);
		char *d;

		assert_non_null(m);
		to = i + 1 < nsegs ? cut[i] : len;
		d = rte_pktmbuf_append(m, (uint16_t)(to - from));
		assert_true(d != NULL || to == from);
		if (to > from)
			memcpy(d, b + from, to - from);
		from = to;
		if (head == NULL)
			head = m;
		else
			assert_int_equal(rte_pktmbuf_chain(head, m), 0);
	}
	return head;
}

struct expect {
	enum fcr_reason rc;       /* parse of the mbuf as received */
	struct fcr_frame f;
	uint16_t out;
	uint8_t drop;             /* reason counted when out is DROP */
	uint8_t leg;
	uint8_t miss;
	uint8_t login;            /* a login event is due */
	uint32_t sid, did;        /* after rewrite */
	uint32_t crc_err;         /* stored CRC xor computed, on arrival */
	struct fcr_login l;
	uint32_t len;
	uint8_t bytes[FZ_CAP];
};

static uint16_t
route_port(const struct fcr_tables *t, uint32_t did, const struct fcr_nexthop **hop,
	   uint8_t *drop)
{
	uint32_t key, nh;

	fcr_route_lookup_bulk(t->routes, &did, &key, &nh, 1);
	if (nh == FCR_ROUTE_NONE) {
		*drop = FCR_R_NO_ROUTE;
		return FCR_OUT_DROP;
	}
	*hop = &t->routes->nexthop[nh];
	if ((*hop)->port >= PL_PORTS) {
		*drop = FCR_R_NO_PORT;
		return FCR_OUT_DROP;
	}
	return (*hop)->port;
}

/* The fuzzed pipeline's fabric port: bursts on the other ports are checked
 * against the VN_Port table. */
#define PL_FABRIC_MASK (1u << 0)

/* A frame that snooped as a login is held when it goes out. */
static void
expect_hold(struct expect *e)
{
	if (e->login && e->out != FCR_OUT_DROP)
		e->out |= FCR_OUT_HOLD;
}

/* What the pipeline must decide for one frame, worked out before it runs. */
static void
expect_frame(const struct fcr_tables *t, struct rte_mbuf *m, uint16_t in_port,
	     struct expect *e)
{
	const struct fcr_nexthop *hop;
	uint8_t pl[FCR_ELS_SPARM_LEN];
	struct fcr_frame *f = &e->f;
	const uint8_t *p;
	uint32_t n;
	int idx;

	memset(e, 0, offsetof(struct expect, bytes));
	e->len = rte_pktmbuf_pkt_len(m);
	p = rte_pktmbuf_read(m, 0, e->len, e->bytes);
	assert_non_null(p);
	if (p != e->bytes)
		memcpy(e->bytes, p, e->len);
	e->rc = fcr_frame_parse_mbuf(m, f);
	if (e->rc == FCR_R_NOT_FCOE) {
		e->out = pl_passthrough[in_port] < PL_PORTS ? pl_passthrough[in_port]
							     : FCR_OUT_DROP;
		e->drop = FCR_R_NO_PASSTHROUGH;
		if (f->ethertype == FCR_ETHERTYPE_FIP &&
		    fcr_login_parse(e->bytes, RTE_MIN(e->len, 2560u), &e->l) == FCR_R_OK &&
		    e->l.kind != FCR_LOGIN_NONE) {
			e->login = 1;
			e->l.vlan = f->vlan; /* the frame's VLAN, tag stripped or not */
		}
		expect_hold(e);
		return;
	}
	if (e->rc != FCR_R_OK) {
		e->out = FCR_OUT_DROP;
		e->drop = (uint8_t)e->rc;
		return;
	}
	if (rte_pktmbuf_data_len(m) < (uint32_t)f->fc_off + FCR_FC_HLEN) {
		e->out = FCR_OUT_DROP;
		e->drop = FCR_R_SPLIT_HEADER;
		return;
	}
	e->crc_err = f->crc ^ tu_crc32_ref(e->bytes + f->fc_off, f->fc_len);
	if (!(PL_FABRIC_MASK >> in_port & 1)) {
		/* an edge port: only VN_Ports that logged in through it */
		uint64_t vk = fcr_vn_key(f->vlan, f->s_id), vn;

		fcr_vn_lookup_bulk(t->names, &vk, 1, &vn);
		if (!fcr_vn_allows(vn, e->bytes + 6, in_port) &&
		    !(f->s_id == 0 && f->d_id == FCR_FCID_FLOGI)) {
			e->out = FCR_OUT_DROP;
			e->drop = FCR_R_NOT_LOGGED_IN;
			return;
		}
	}
	if (f->type == FCR_TYPE_ELS && e->crc_err == 0 &&
	    (f->d_id == FCR_FCID_FLOGI || f->s_id == FCR_FCID_FLOGI) &&
	    (f->r_ctl == FCR_RCTL_ELS_REQ || f->r_ctl == FCR_RCTL_ELS_REP)) {
		n = RTE_MIN((uint32_t)f->payload_len, (uint32_t)sizeof(pl));
		memcpy(pl, e->bytes + f->fc_off + FCR_FC_HLEN, n);
		if (fcr_login_from_els(f, pl, n, &e->l) == FCR_R_OK &&
		    e->l.kind != FCR_LOGIN_NONE) {
			e->login = 1;
			memcpy(e->l.eth_dst, e->bytes, 6);
			memcpy(e->l.eth_src, e->bytes + 6, 6);
		}
	}
	idx = fcr_flow_find(t->flows, fcr_flow_key(f->vlan, f->s_id, f->d_id));
	e->miss = idx < 0;
	e->sid = idx < 0 ? f->s_id : fcr_action_sid(t->flows->action[idx]);
	e->did = idx < 0 ? f->d_id : fcr_action_did(t->flows->action[idx]);
	e->leg = idx < 0 ? FCR_LEG_PLAIN : (uint8_t)fcr_action_leg(t->flows->action[idx]);
	if (e->leg == FCR_LEG_BLOCKED) {
		e->out = FCR_OUT_DROP;
		e->drop = FCR_R_REDIRECT_NOT_READY;
		return;
	}
	e->out = route_port(t, e->did, &hop, &e->drop);
	expect_hold(e);
}

/* A frame sent on: the pipeline changed only the MACs, S_ID, D_ID and CRC,
 * and the CRC is exactly as right or wrong as it arrived. */
static void
check_sent(const struct fcr_tables *t, struct rte_mbuf *m, const struct expect *e,
	   uint16_t out)
{
	static uint8_t a[FZ_CAP];
	const struct fcr_nexthop *hop = NULL;
	const uint8_t *p;
	struct fcr_frame f;
	uint32_t fo = e->f.fc_off, co, i;
	uint8_t drop, mac[6];

	FZ_CHECK(rte_pktmbuf_pkt_len(m) == e->len, "length changed");
	p = rte_pktmbuf_read(m, 0, e->len, a);
	assert_non_null(p);
	if (e->rc == FCR_R_NOT_FCOE) {
		FZ_CHECK(memcmp(p, e->bytes, e->len) == 0, "pass-through frame changed");
		return;
	}
	co = fcr_frame_crc_off(&e->f);
	for (i = 12; i < e->len; i++) {
		if ((i > fo && i < fo + 8 && i != fo + 4) || (i >= co && i < co + 4))
			continue;
		FZ_CHECK(p[i] == e->bytes[i], "byte %u changed", i);
	}
	FZ_CHECK(fcr_frame_parse(p, e->len, &f) == FCR_R_OK, "sent frame invalid");
	FZ_CHECK(f.s_id == e->sid && f.d_id == e->did, "ids %06x>%06x, expected "
		 "%06x>%06x", f.s_id, f.d_id, e->sid, e->did);
	FZ_CHECK((f.crc ^ tu_crc32_ref(p + fo, f.fc_len)) == e->crc_err,
		 "CRC error changed from %08x", e->crc_err);
	route_port(t, e->did, &hop, &drop);
	if (hop->flags & FCR_NH_FPMA)
		fcr_fpma(mac, FCR_FC_MAP_DEFAULT, e->did);
	else
		memcpy(mac, hop->mac, 6);
	FZ_CHECK(memcmp(p, mac, 6) == 0, "destination MAC");
	FZ_CHECK(memcmp(p + 6, pl_port_mac[out], 6) == 0, "source MAC");
}

static void
check_login_event(const struct fcr_event *ev, const struct fcr_login *l)
{
	if (l->kind == FCR_LOGIN_CVL) {
		/* an event per VN_Port cleared; the first one is checked */
		FZ_CHECK(ev->kind == FCR_LOGIN_CVL && ev->via_fip &&
			 ev->port_id == l->cvl[0].fcid && ev->wwpn == l->cvl[0].wwpn &&
			 ev->vlan == l->vlan, "clear virtual links event");
		return;
	}
	FZ_CHECK(ev->kind == l->kind && ev->answers == l->answers &&
		 ev->via_fip == l->via_fip && ev->has_wwpn == l->has_wwpn &&
		 ev->has_mac == l->has_mac, "login event kind/flags");
	FZ_CHECK(ev->vlan == l->vlan, "login event on VLAN %u, frame's is %u",
		 ev->vlan, l->vlan);
	FZ_CHECK(ev->s_id == l->s_id && ev->d_id == l->d_id &&
		 ev->port_id == l->port_id && ev->ox_id == l->ox_id &&
		 ev->wwpn == l->wwpn, "login event fields");
	FZ_CHECK(memcmp(ev->enode, l->kind == FCR_LOGIN_ACC || l->kind == FCR_LOGIN_RJT ?
			l->eth_dst : l->eth_src, 6) == 0, "login event enode");
	FZ_CHECK(ev->kind >= FCR_LOGIN_FLOGI && ev->kind <= FCR_LOGIN_RJT &&
		 ev->vlan <= 0xFFF && ev->s_id <= FCR_FCID_MASK &&
		 ev->d_id <= FCR_FCID_MASK && ev->port_id <= FCR_FCID_MASK,
		 "login event ranges");
}

static void
fuzz_pipeline_bursts(void **state)
{
	static struct expect e[FCR_PIPELINE_BURST_MAX];
	static uint8_t b[FZ_CAP];
	struct fcr_event ev[FCR_PIPELINE_EVENTS_MAX], fev[256];
	struct rte_mbuf *pkts[FCR_PIPELINE_BURST_MAX];
	uint16_t out[FCR_PIPELINE_BURST_MAX];
	struct fcr_pipeline pl;
	struct fcr_tables *t = pipeline_tables();
	long frames = iters_or(200000), done = 0, bursts = 0, sent = 0, logins = 0;
	long split = 0, stripped = 0;
	uint64_t now = 1;
	char extra[200];
	double t0 = now_s();

	(void)state;
	fz_target = "pipeline";
	pl = (struct fcr_pipeline){
		.tables = t, .port_mac = pl_port_mac, .passthrough = pl_passthrough,
		.nb_ports = PL_PORTS, .fc_map = FCR_FC_MAP_DEFAULT, .worker = 0,
		.fabric_mask = PL_FABRIC_MASK,
	};
	t->fabric_mask = PL_FABRIC_MASK;
	fcr_pipeline_forget(&pl, NULL, 0);
	while (done < frames) {
		struct fcr_pipeline_stats st;
		uint64_t dsum = 0, want_drop[FCR_R_COUNT] = { 0 };
		uint64_t want_leg[FCR_LEG_COUNT] = { 0 }, want_pass = 0, want_miss = 0;
		uint64_t legs = 0;
		struct tu_rng r;
		uint16_t n, in_port, i;
		unsigned int nev, j, k, want_logins = 0, firsts = 0, misses = 0;

		fz_rng(&r, 3, (uint64_t)bursts);
		n = (uint16_t)(1 + tu_below(&r, FCR_PIPELINE_BURST_MAX));
		in_port = (uint16_t)tu_below(&r, PL_PORTS);
		for (i = 0; i < n; i++) {
			uint32_t len = base_wire(&r, b);

			if (tu_below(&r, 5) < 3)
				mutate(&r, b, &len);
			pkts[i] = wire_mbuf(&r, b, len);
			split += pkts[i]->nb_segs > 1;
			if (tu_below(&r, 10) == 0 && len >= 18) {
				/* the NIC took the tag off (or there was none) */
				pkts[i]->ol_flags |= RTE_MBUF_F_RX_VLAN_STRIPPED;
				pkts[i]->vlan_tci = (uint16_t)(tu_below(&r, 2) ? PL_VLAN :
							       tu_rand32(&r));
				if (fcr_get_be16(b + 12) == FCR_ETHERTYPE_VLAN &&
				    pkts[i]->nb_segs == 1 && tu_below(&r, 4)) {
					uint8_t *d = rte_pktmbuf_mtod(pkts[i], uint8_t *);

					pkts[i]->vlan_tci = fcr_get_be16(d + 14);
					memmove(d + 4, d, 12);
					rte_pktmbuf_adj(pkts[i], 4);
				}
				stripped++;
			}
			expect_frame(t, pkts[i], in_port, &e[i]);
			misses += e[i].rc == FCR_R_OK && e[i].miss;
		}
		memset(&st, 0, sizeof(st));
		memset(out, 0xEE, sizeof(out));
		nev = fcr_pipeline_burst(&pl, in_port, pkts, n, out, &st, ev, now);

		/* every frame exactly one outcome, as worked out */
		FZ_CHECK(nev <= FCR_PIPELINE_EVENTS_MAX, "%u events", nev);
		for (i = 0; i < n; i++) {
			FZ_CHECK(out[i] == e[i].out, "frame %u (%s): out %u, expected %u",
				 i, fcr_reason_name(e[i].rc), out[i], e[i].out);
			if (out[i] == FCR_OUT_DROP) {
				want_drop[e[i].drop]++;
				continue;
			}
			sent++;
			if (e[i].rc == FCR_R_NOT_FCOE) {
				want_pass++;
			} else {
				want_leg[e[i].leg]++;
				want_miss += e[i].miss;
			}
			check_sent(t, pkts[i], &e[i], (uint16_t)(out[i] & ~FCR_OUT_HOLD));
		}
		for (j = 0; j < FCR_R_COUNT; j++) {
			FZ_CHECK(st.drop[j] == want_drop[j], "drop[%s] %llu, expected %llu",
				 fcr_reason_name((enum fcr_reason)j),
				 (unsigned long long)st.drop[j],
				 (unsigned long long)want_drop[j]);
			dsum += st.drop[j];
		}
		for (j = 0; j < FCR_LEG_COUNT; j++) {
			FZ_CHECK(st.leg[j] == want_leg[j], "leg[%u]", j);
			legs += st.leg[j];
		}
		FZ_CHECK(st.drop[FCR_R_OK] == 0, "dropped as ok");
		FZ_CHECK(st.passthrough == want_pass && st.flow_miss == want_miss,
			 "passthrough/flow_miss");
		FZ_CHECK(n == legs + st.passthrough + dsum, "rx %u != tx %llu + drops %llu",
			 n, (unsigned long long)(legs + st.passthrough),
			 (unsigned long long)dsum);

		/* events: the logins (a held frame's names it), then first frames */
		for (j = 0; j < nev && ev[j].type == FCR_EV_LOGIN; j++)
			FZ_CHECK(ev[j].port == in_port, "login event from port %u", ev[j].port);
		for (i = 0; i < n; i++) {
			if (!e[i].login)
				continue;
			want_logins += e[i].l.kind == FCR_LOGIN_CVL ? e[i].l.nb_cvl : 1;
			if (out[i] == FCR_OUT_DROP)
				continue;
			for (k = 0; k < j && ev[k].seq != i; k++)
				;
			FZ_CHECK(k < j, "no login event for held frame %u", i);
			check_login_event(&ev[k], &e[i].l);
		}
		FZ_CHECK(st.logins == want_logins && j == want_logins,
			 "logins %llu (%u events), expected %u",
			 (unsigned long long)st.logins, j, want_logins);
		for (; j < nev; j++) {
			if (ev[j].type == FCR_EV_FLOW_MISSES) {
				/* a flow displaced from the recent reports */
				FZ_CHECK(ev[j].count > 0 && ev[j].flow_key >> 60 == 0,
					 "misses event %u", j);
				continue;
			}
			FZ_CHECK(ev[j].type == FCR_EV_FLOW_FIRST && ev[j].count == 1 &&
				 ev[j].flow_key >> 60 == 0 && ev[j].worker == 0,
				 "event %u of type %u", j, ev[j].type);
			firsts++;
		}
		FZ_CHECK(firsts <= misses, "%u first-frame reports for %u misses",
			 firsts, misses);
		logins += want_logins;

		/* the writer applies them, as the table writer would */
		for (j = 0; j < nev; j++)
			fcr_tables_event(t, &ev[j]);
		if (bursts % 16 == 15) {
			k = fcr_pipeline_forget(&pl, fev, now);
			for (j = 0; j < k; j++) {
				FZ_CHECK(fev[j].type == FCR_EV_FLOW_MISSES &&
					 fev[j].count > 0 && fev[j].flow_key >> 60 == 0,
					 "forget event");
				fcr_tables_event(t, &fev[j]);
			}
		}
		if (bursts % 64 == 63) {
			/* plain entries age out, so new flows keep arriving */
			uint32_t it = 0;
			int idx;

			while ((idx = fcr_flow_next(t->flows, &it)) >= 0)
				if (t->flows->owner[idx] == FCR_NO_OWNER)
					fcr_flow_del(t->flows, t->flows->key[idx]);
		}
		check_tables(t);
		for (i = 0; i < n; i++)
			rte_pktmbuf_free(pkts[i]);
		done += n;
		bursts++;
		now += 1000;
	}
	FZ_CHECK(rte_mempool_in_use_count(pl_mp) == 0, "mbufs leaked");
	snprintf(extra, sizeof(extra), "%ld bursts, %ld sent, %ld chained, %ld "
		 "tag-stripped, %ld logins; writer: %llu bindings learned, %llu "
		 "flows added", bursts, sent, split, stripped, logins,
		 (unsigned long long)t->st.bindings_learned,
		 (unsigned long long)t->st.flows_added);
	fz_report("pipeline", done, "frames", t0, extra);
	fcr_tables_free(t);
}

/* ------------------------------------------ 4. sync, past the MAC check */

#define SZ_MTU 1400
#define SZ_ENGINE_BOOT 0x1000
#define SZ_PEER_NODE 7

static const uint8_t sz_key[FCR_SYNC_KEY_LEN] = "fcredirect fuzz key, 32 bytes..";
static const struct fcr_sync_addr sz_peer = { 0x7F000001, 2 };
static const struct fcr_sync_addr sz_stranger = { 0x7F000001, 99 };
static long sz_out, sz_out_bytes;

/* What the engine sends must itself be well-formed and sealed. */
static void
sz_send(void *ctx, const struct fcr_sync_addr *to, const uint8_t *p, size_t len)
{
	struct fcr_sync_hdr h;
	enum fcr_sync_drop why;
	struct fcr_rec rec;
	size_t off = FCR_SYNC_HDR_LEN;
	int rc;

	(void)ctx;
	FZ_CHECK(to->ip == sz_peer.ip && to->port == sz_peer.port, "sent elsewhere");
	FZ_CHECK(len <= SZ_MTU, "sent %zu bytes", len);
	FZ_CHECK(fcr_sync_open(p, len, SZ_MTU, sz_key, &h, &why) == 0,
		 "sent a datagram that does not open (%s)", fcr_sync_drop_name(why));
	FZ_CHECK(h.boot == SZ_ENGINE_BOOT, "boot");
	while ((rc = fcr_rec_next(p, len - FCR_SYNC_TAG_LEN, &off, &rec)) > 0)
		FZ_CHECK(rec.type >= FCR_REC_FLOW && rec.type <= FCR_REC_REDIRECT_DEL,
			 "sent record of type %u", rec.type);
	FZ_CHECK(rc == 0, "sent malformed records");
	sz_out++;
	sz_out_bytes += (long)len;
}

static uint16_t
sz_vlan(struct tu_rng *r)
{
	return tu_below(r, 10) ? (uint16_t)(10 + tu_below(r, 2)) : (uint16_t)tu_rand32(r);
}

static uint64_t
sz_wwpn(struct tu_rng *r)
{
	return tu_below(r, 16) ? 0x2000000000000000ull | tu_below(r, 10)
			       : rand_u64_interesting(r);
}

static uint32_t
sz_fcid(struct tu_rng *r)
{
	static const uint32_t f[] = { 0x010001, 0x010002, 0x410001, 0x410002,
				      0x810001, 0x810002, 0x810003 };

	return tu_below(r, 5) ? f[tu_below(r, RTE_DIM(f))] : tu_rand32(r) & 0xFFFFFF;
}

/* A record from a small key space, so records meet the same objects. */
static void
sz_record(struct tu_rng *r, uint64_t *clock, struct fcr_rec *rec)
{
	static const uint8_t bits[] = { 8, 16, 24 };
	unsigned int i;

	memset(rec, 0, sizeof(*rec));
	rec->type = (uint8_t)(1 + tu_below(r, 8));
	switch (tu_below(r, 20)) {
	case 0:
		rec->version = 0;
		break;
	case 1:
		rec->version = rand_u64_interesting(r);
		break;
	case 2:
	case 3:
		rec->version = ((*clock - tu_below(r, 50)) << 16) | SZ_PEER_NODE;
		break;
	default:
		rec->version = (++*clock << 16) | SZ_PEER_NODE;
		break;
	}
	rec->vlan = sz_vlan(r);
	for (i = 0; i < 4; i++)
		rec->wwpn[i] = sz_wwpn(r);
	switch (rec->type) {
	case FCR_REC_FLOW:
	case FCR_REC_FLOW_DEL:
		rec->key = tu_below(r, 4) ? fcr_flow_key(rec->vlan, sz_fcid(r), sz_fcid(r))
					  : rand_u64_interesting(r);
		rec->state = (uint8_t)tu_below(r, 4);
		rec->frames = rand_u64_interesting(r);
		rec->bytes = rand_u64_interesting(r);
		rec->first_age_ms = rand_u64_interesting(r);
		rec->last_age_ms = tu_below(r, 1000);
		break;
	case FCR_REC_BINDING:
	case FCR_REC_BINDING_DEL:
		rec->fcid = sz_fcid(r);
		rec->origin = (uint8_t)tu_below(r, 4);
		break;
	case FCR_REC_ROUTE:
	case FCR_REC_ROUTE_DEL:
		rec->fcid = sz_fcid(r);
		rec->bits = tu_below(r, 5) ? bits[tu_below(r, 3)] : (uint8_t)tu_rand32(r);
		rec->port = (uint16_t)(tu_below(r, 5) ? tu_below(r, 4) : tu_rand32(r));
		rec->flags = (uint8_t)tu_rand32(r);
		tu_fill_random(r, rec->mac, 6);
		break;
	default:
		break;
	}
}

/* A cheap digest of everything a record can change. */
static uint64_t
tables_digest(const struct fcr_tables *t)
{
	uint64_t h = 0xcbf29ce484222325ull;
	uint32_t i;

#define MIX(v) (h = (h ^ (uint64_t)(v)) * 0x100000001b3ull)
	for (i = 0; i < t->flows->capacity; i++) {
		MIX(t->flows->key[i]);
		MIX(t->flows->action[i]);
		MIX(t->flows->version[i]);
		MIX(t->flows->remote[i].frames);
	}
	for (i = 0; i < t->names->capacity; i++) {
		const struct fcr_name *n = &t->names->names[i];

		MIX(n->in_use);
		MIX(n->wwpn);
		MIX((uint64_t)n->fcid << 16 | n->vlan);
		MIX(n->version);
	}
	for (i = 0; i < t->redirects->capacity; i++) {
		const struct fcr_redirect *x = &t->redirects->r[i];

		MIX(x->in_use);
		MIX(x->state);
		MIX(x->version);
		MIX((uint64_t)x->name[0] << 32 | x->name[1]);
		MIX((uint64_t)x->name[2] << 32 | x->name[3]);
	}
	MIX(t->routes->nb_routes);
	for (i = 0; i < t->routes->nb_routes; i++) {
		MIX((uint64_t)t->routes->routes[i].prefix << 8 | t->routes->routes[i].bits);
		MIX(t->routes->routes[i].version);
		MIX(t->routes->nexthop[t->routes->routes[i].nh].port);
	}
#undef MIX
	return h;
}

/* A local change, as the command line makes them. */
static void
sz_local_change(struct tu_rng *r, struct fcr_tables *t)
{
	uint16_t vlan = (uint16_t)(10 + tu_below(r, 2));
	uint64_t w[4];
	unsigned int i;

	for (i = 0; i < 4; i++)
		w[i] = 0x2000000000000000ull | tu_below(r, 10);
	switch (tu_below(r, 6)) {
	case 0:
		fcr_tables_binding_add(t, vlan, w[0], sz_fcid(r), FCR_BIND_STATIC);
		break;
	case 1:
		fcr_tables_binding_del(t, vlan, w[0]);
		break;
	case 2:
		fcr_redirect_add(t->redirects, vlan, w[0], w[1], w[2], w[3]);
		break;
	case 3:
		fcr_redirect_del(t->redirects, vlan, w[0], w[1]);
		break;
	case 4:
		fcr_route_add(t->routes, sz_fcid(r), tu_below(r, 2) ? 8 : 16,
			      (uint16_t)tu_below(r, 3), NULL);
		break;
	default:
		fcr_route_del(t->routes, sz_fcid(r), 8);
		break;
	}
}

enum sz_kind { SZ_SEALED, SZ_UNSEALED, SZ_WRONG_KEY, SZ_STRANGER, SZ_OVERSIZE };

static void
fuzz_sync_datagrams(void **state)
{
	static uint8_t d[2048];
	struct fcr_tables_params tp = {
		.max_flows = 256, .max_routes = 16, .max_names = 64,
		.max_redirects = 16, .nb_workers = 1, .socket = 0,
	};
	struct fcr_sync_params sp = {
		.boot = SZ_ENGINE_BOOT, .node = 1, .mtu = SZ_MTU, .window_ms = 50,
		.tsc_hz = 1000, .send = sz_send,
	};
	struct fcr_tables *t;
	struct fcr_sync *s;
	const struct fcr_sync_stats *st;
	long n = iters_or(40000), i, accepted = 0, unsealed = 0, malformed = 0;
	uint64_t now = 1, clock = 1000, peer_boot = 0x5000, max_pending = 0;
	uint32_t seq = 0;
	char extra[300];
	double t0 = now_s();

	(void)state;
	fz_target = "sync";
	t = fcr_tables_create("fzsy", &tp);
	assert_non_null(t);
	assert_int_equal(fcr_tables_attach_log(t, 0), 0);
	memcpy(sp.key, sz_key, sizeof(sz_key));
	s = fcr_sync_create(&sp, t, now);
	assert_non_null(s);
	assert_true(fcr_sync_peer_add(s, &sz_peer) >= 0);
	st = fcr_sync_stats(s);

	for (i = 0; i < n; i++) {
		struct fcr_sync_stats before = *st;
		struct fcr_sync_hdr h;
		struct fcr_rec rec;
		struct tu_rng r;
		enum sz_kind kind;
		uint64_t dg, dsum = 0, acc;
		size_t len = FCR_SYNC_HDR_LEN, recs_end;
		uint32_t nrec = 0, nunknown = 0, k, j;
		int intact = 1;

		fz_rng(&r, 4, (uint64_t)i);
		k = tu_below(&r, 100);
		kind = k < 10 ? SZ_UNSEALED : k < 13 ? SZ_WRONG_KEY :
		       k < 16 ? SZ_STRANGER : k < 19 ? SZ_OVERSIZE : SZ_SEALED;
		if (kind == SZ_UNSEALED) {
			/* random bytes, some dressed as ours up to the tag */
			len = tu_below(&r, 2001);
			tu_fill_random(&r, d, len);
			if (len >= 5 && tu_below(&r, 2)) {
				memcpy(d, FCR_SYNC_MAGIC, 4);
				d[4] = FCR_SYNC_VERSION;
			}
			goto send;
		}

		/* header: a peer that restarts, replays, skips, acks */
		memset(&h, 0, sizeof(h));
		h.type = tu_below(&r, 8) ? FCR_SYNC_UPDATE : (uint8_t)tu_below(&r, 8);
		h.flags = (uint8_t)(tu_below(&r, 4) ? tu_below(&r, 4) : tu_rand32(&r));
		if (tu_below(&r, 500) == 0)
			peer_boot++;
		h.boot = tu_below(&r, 100) ? peer_boot : peer_boot - 1;
		h.node = SZ_PEER_NODE;
		k = tu_below(&r, 50);
		h.seq = k == 0 ? 0 : k < 3 ? seq - tu_below(&r, 80) :
			k == 3 ? (seq += tu_below(&r, 100000)) : ++seq;
		h.ack_base = tu_below(&r, 2) ? 0 : tu_below(&r, 4) ? tu_below(&r, 64)
								   : tu_rand32(&r);
		h.ack_bits = tu_rand64(&r);
		h.peer_boot32 = tu_below(&r, 2) ? (uint32_t)SZ_ENGINE_BOOT : tu_rand32(&r);

		/* records, then lies about them */
		for (k = tu_below(&r, 4) ? tu_below(&r, 12) : tu_below(&r, 120); k > 0; k--) {
			size_t w;

			sz_record(&r, &clock, &rec);
			w = fcr_rec_put(d + len, SZ_MTU - FCR_SYNC_TAG_LEN - len, &rec);
			if (w == 0)
				break;
			len += w;
			nrec++;
		}
		h.nb_records = (uint16_t)(tu_below(&r, 5) ? nrec : tu_rand32(&r));
		recs_end = len;
		for (k = tu_below(&r, 2) ? 0 : 1 + tu_below(&r, 4); k > 0; k--) {
			size_t p = FCR_SYNC_HDR_LEN + (len > FCR_SYNC_HDR_LEN ?
				   tu_below(&r, (uint32_t)(len - FCR_SYNC_HDR_LEN)) : 0);

			switch (tu_below(&r, 6)) {
			case 0: /* a bit of a record */
				if (len > FCR_SYNC_HDR_LEN) {
					d[p] ^= (uint8_t)(1u << tu_below(&r, 8));
					intact = 0;
				}
				break;
			case 1: /* a byte: a type or a length, often */
				if (len > FCR_SYNC_HDR_LEN) {
					d[p] = tu_below(&r, 2) ? (uint8_t)tu_below(&r, 12)
							       : (uint8_t)tu_rand32(&r);
					intact = 0;
				}
				break;
			case 2: /* cut */
				len = FCR_SYNC_HDR_LEN + (len > FCR_SYNC_HDR_LEN ?
					tu_below(&r, (uint32_t)(len - FCR_SYNC_HDR_LEN)) : 0);
				intact = 0;
				break;
			case 3: /* trailing garbage */
				j = tu_below(&r, 40);
				j = (uint32_t)RTE_MIN((size_t)j, SZ_MTU - FCR_SYNC_TAG_LEN - len);
				tu_fill_random(&r, d + len, j);
				len += j;
				intact &= j == 0;
				break;
			case 4: /* a record of a type this version does not know */
				j = tu_below(&r, 40);
				if (len + 2 + j <= SZ_MTU - FCR_SYNC_TAG_LEN && len == recs_end) {
					d[len] = (uint8_t)(9 + tu_below(&r, 247));
					d[len + 1] = (uint8_t)j;
					tu_fill_random(&r, d + len + 2, j);
					len += 2 + j;
					recs_end = len;
					nrec++;
					nunknown++;
				}
				break;
			default: /* a body length that lies */
				if (len > FCR_SYNC_HDR_LEN + 1) {
					d[FCR_SYNC_HDR_LEN + 1] = (uint8_t)tu_rand32(&r);
					intact = 0;
				}
				break;
			}
		}
		if (kind == SZ_OVERSIZE) {
			j = SZ_MTU + 1 + tu_below(&r, 600) - FCR_SYNC_TAG_LEN;
			if (len < j) {
				tu_fill_random(&r, d + len, j - len);
				len = j;
			}
		}
		fcr_sync_hdr_put(d, &h);
		if (kind == SZ_WRONG_KEY) {
			uint8_t other[FCR_SYNC_KEY_LEN];

			memcpy(other, sz_key, sizeof(other));
			other[tu_below(&r, FCR_SYNC_KEY_LEN)] ^= 1;
			len = fcr_sync_seal(d, len, other);
		} else {
			len = fcr_sync_seal(d, len, sz_key);
		}
send:
		dg = tables_digest(t);
		fcr_sync_input(s, kind == SZ_STRANGER ? &sz_stranger : &sz_peer, d, len,
			       now, now);

		/* each datagram: counted once, applied or dropped whole */
		FZ_CHECK(st->datagrams_received == before.datagrams_received + 1,
			 "datagrams_received");
		for (j = 0; j < FCR_SD_COUNT; j++)
			dsum += st->drop[j] - before.drop[j];
		acc = (st->records_applied - before.records_applied) +
		      (st->records_stale - before.records_stale) +
		      (st->records_unknown - before.records_unknown) +
		      (st->records_refused - before.records_refused);
		FZ_CHECK(dsum <= 1, "%llu drop counters for one datagram",
			 (unsigned long long)dsum);
		FZ_CHECK(acc == st->records_received - before.records_received,
			 "%llu records received, %llu accounted for",
			 (unsigned long long)(st->records_received -
					      before.records_received),
			 (unsigned long long)acc);
		FZ_CHECK(acc <= (len > FCR_SYNC_OVERHEAD ? (len - FCR_SYNC_OVERHEAD) / 2 : 0),
			 "%llu records in %zu bytes", (unsigned long long)acc, len);
		switch (kind) {
		case SZ_UNSEALED:
			unsealed++;
			FZ_CHECK(dsum == 1 && st->drop[FCR_SD_REPLAY] == before.drop[FCR_SD_REPLAY] &&
				 st->drop[FCR_SD_MALFORMED] == before.drop[FCR_SD_MALFORMED],
				 "unsealed bytes of length %zu not dropped before "
				 "authentication", len);
			break;
		case SZ_WRONG_KEY:
			FZ_CHECK(st->drop[FCR_SD_AUTH] == before.drop[FCR_SD_AUTH] + 1,
				 "another key's datagram not dropped as bad_auth");
			break;
		case SZ_STRANGER:
			FZ_CHECK(st->drop[FCR_SD_UNKNOWN_PEER] ==
				 before.drop[FCR_SD_UNKNOWN_PEER] + 1, "stranger");
			break;
		case SZ_OVERSIZE:
			FZ_CHECK(st->drop[FCR_SD_OVERSIZE] == before.drop[FCR_SD_OVERSIZE] + 1,
				 "%zu bytes not dropped as oversize", len);
			break;
		default:
			FZ_CHECK(intact == 0 || st->drop[FCR_SD_MALFORMED] ==
				 before.drop[FCR_SD_MALFORMED], "well-formed records "
				 "refused as malformed");
			malformed += st->drop[FCR_SD_MALFORMED] != before.drop[FCR_SD_MALFORMED];
			if (dsum == 0 && h.type == FCR_SYNC_UPDATE) {
				accepted++;
				if (intact) {
					FZ_CHECK(acc == nrec, "%llu of %u records accounted",
						 (unsigned long long)acc, nrec);
					FZ_CHECK(st->records_unknown - before.records_unknown ==
						 nunknown, "%llu records counted unknown, %u "
						 "of unknown types", (unsigned long long)
						 (st->records_unknown - before.records_unknown),
						 nunknown);
				}
			}
			break;
		}
		if (dsum != 0 || kind != SZ_SEALED || h.type != FCR_SYNC_UPDATE) {
			FZ_CHECK(acc == 0, "records taken from a dropped datagram");
			FZ_CHECK(tables_digest(t) == dg, "tables changed by a datagram "
				 "that was dropped or carried no update");
		}
		check_tables(t);

		/* time passes; local changes meet remote ones */
		if (tu_below(&r, 50) == 0)
			sz_local_change(&r, t);
		if (i % 8 == 7) {
			now += tu_below(&r, 120);
			fcr_sync_tick(s, now, now);
			check_tables(t);
		}
		max_pending = RTE_MAX(max_pending, fcr_sync_pending(s));
		FZ_CHECK(fcr_sync_pending(s) <= (uint64_t)tp.max_flows + tp.max_names +
			 tp.max_redirects + 1 + 65536 + 1, "%llu changes pending",
			 (unsigned long long)fcr_sync_pending(s));
	}
	snprintf(extra, sizeof(extra), "%ld updates accepted, %ld unsealed dropped, "
		 "%ld malformed; records applied %llu stale %llu unknown %llu refused "
		 "%llu; %ld datagrams sent back (%ld bytes), pending at most %llu",
		 accepted, unsealed, malformed,
		 (unsigned long long)st->records_applied,
		 (unsigned long long)st->records_stale,
		 (unsigned long long)st->records_unknown,
		 (unsigned long long)st->records_refused, sz_out, sz_out_bytes,
		 (unsigned long long)max_pending);
	fz_report("sync", n, "datagrams", t0, extra);
	assert_true(st->records_applied > 0);
	fcr_sync_free(s);
	fcr_tables_free(t);
}

/* -------------------------------------------------------------- main */

static int
setup(void **state)
{
	unsigned int i;

	(void)state;
	for (i = 0; i < FZ_MAX_SEGS; i++)
		tu_guard_init(&guards[i]);
	tu_guard_init(&flat_guard);
	tu_guard_init(&payload_guard);
	if (guards[0].page < FZ_CAP)
		return -1;
	if (tu_eal_init("test_fuzz", "256", "0") < 0)
		return -1;
	fcr_crc_init();
	pl_mp = rte_pktmbuf_pool_create("fz", 1024, 0, 0,
					RTE_PKTMBUF_HEADROOM + FZ_CAP, 0);
	return pl_mp == NULL ? -1 : 0;
}

static int
teardown(void **state)
{
	unsigned int i;

	(void)state;
	rte_mempool_free(pl_mp);
	for (i = 0; i < FZ_MAX_SEGS; i++)
		tu_guard_fini(&guards[i]);
	tu_guard_fini(&flat_guard);
	tu_guard_fini(&payload_guard);
	rte_eal_cleanup();
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fuzz_frame_parser),
		cmocka_unit_test(fuzz_login_recognition),
		cmocka_unit_test(fuzz_pipeline_bursts),
		cmocka_unit_test(fuzz_sync_datagrams),
	};
	const char *v;

	if ((v = getenv("FCR_FUZZ_SEED")) != NULL)
		fz_seed = strtoull(v, NULL, 0);
	if ((v = getenv("FCR_FUZZ_ITERS")) != NULL)
		fz_iters = strtol(v, NULL, 0);
	printf("fuzz: FCR_FUZZ_SEED=0x%llx FCR_FUZZ_ITERS=%s\n",
	       (unsigned long long)fz_seed, fz_iters > 0 ? v : "(defaults)");
	return cmocka_run_group_tests(tests, setup, teardown);
}
