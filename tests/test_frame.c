/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The FCoE parser: every field of valid frames (flat buffers and mbuf
 * chains), one test per malformation with its named reason, and no read past
 * the given length (guard page).
 */
#include <signal.h>
#include <sys/wait.h>

#include "fcr_spread.h"
#include "test_util.h"

static uint8_t payload[FCR_FC_MAX_PAYLOAD];

static int
setup_payload(void **state)
{
	struct tu_rng r;

	(void)state;
	tu_rng_seed(&r, 0xF4A3E);
	tu_fill_random(&r, payload, sizeof(payload));
	return 0;
}

static uint8_t
fill_of(uint32_t plen)
{
	return (uint8_t)((4 - (plen & 3)) & 3);
}

/* The fields tu_std_frame() wrote, as the parser must report them. */
static void
check_std_fields(const uint8_t *buf, uint32_t len, const struct fcr_frame *f,
		 int tagged, uint32_t plen)
{
	uint8_t fill = fill_of(plen);
	uint32_t hl = tagged ? FCR_VLAN_HLEN : 0;

	assert_int_equal(f->ethertype, FCR_ETHERTYPE_FCOE);
	assert_int_equal(f->tagged, tagged ? 1 : 0);
	assert_int_equal(f->vlan, tagged ? TU_VLAN : 0);
	assert_int_equal(f->pcp, tagged ? TU_PCP : 0);
	assert_int_equal(f->fcoe_off, FCR_ETH_HLEN + hl);
	assert_int_equal(f->fc_off, FCR_ETH_HLEN + hl + FCR_FCOE_HLEN);
	assert_int_equal(f->fc_len, FCR_FC_HLEN + plen + fill);
	assert_int_equal(f->payload_len, plen);
	assert_int_equal(f->fill, fill);
	assert_int_equal(f->frame_len, len);
	assert_int_equal(fcr_frame_crc_off(f), len - FCR_FCOE_TLEN);
	assert_int_equal(f->sof, FCR_SOF_N3);
	assert_int_equal(f->eof, FCR_EOF_N);
	assert_int_equal(f->r_ctl, FCR_RCTL_FCP_DATA);
	assert_int_equal(f->cs_ctl, 0x5a);
	assert_int_equal(f->type, FCR_TYPE_FCP);
	assert_int_equal(f->seq_id, 0x17);
	assert_int_equal(f->df_ctl, 0x40);
	assert_int_equal(f->d_id, TU_D_ID);
	assert_int_equal(f->s_id, TU_S_ID);
	assert_int_equal(f->f_ctl, 0x290008u | fill);
	assert_int_equal(f->seq_cnt, 0x1234);
	assert_int_equal(f->ox_id, 0xbeef);
	assert_int_equal(f->rx_id, 0xcafe);
	assert_int_equal(f->param, 0xdeadb00fu);
	assert_int_equal(f->crc, tu_crc32_ref(buf + f->fc_off, f->fc_len));
}

static void
assert_frame_equal(const struct fcr_frame *a, const struct fcr_frame *b)
{
	assert_int_equal(a->ethertype, b->ethertype);
	assert_int_equal(a->vlan, b->vlan);
	assert_int_equal(a->tagged, b->tagged);
	assert_int_equal(a->pcp, b->pcp);
	assert_int_equal(a->fcoe_off, b->fcoe_off);
	assert_int_equal(a->fc_off, b->fc_off);
	assert_int_equal(a->fc_len, b->fc_len);
	assert_int_equal(a->payload_len, b->payload_len);
	assert_int_equal(a->sof, b->sof);
	assert_int_equal(a->eof, b->eof);
	assert_int_equal(a->frame_len, b->frame_len);
	assert_int_equal(a->crc, b->crc);
	assert_int_equal(a->r_ctl, b->r_ctl);
	assert_int_equal(a->cs_ctl, b->cs_ctl);
	assert_int_equal(a->type, b->type);
	assert_int_equal(a->seq_id, b->seq_id);
	assert_int_equal(a->df_ctl, b->df_ctl);
	assert_int_equal(a->fill, b->fill);
	assert_int_equal(a->seq_cnt, b->seq_cnt);
	assert_int_equal(a->ox_id, b->ox_id);
	assert_int_equal(a->rx_id, b->rx_id);
	assert_int_equal(a->d_id, b->d_id);
	assert_int_equal(a->s_id, b->s_id);
	assert_int_equal(a->f_ctl, b->f_ctl);
	assert_int_equal(a->param, b->param);
}

/* ------------------------------------------------------ valid frames */

/*
 * A frame written byte by byte here (not by fcr_build): tagged, DEI set,
 * every field distinct, 5-byte payload so 3 fill bytes.
 */
static void
test_hand_written_tagged_frame_parses_every_field(void **state)
{
	uint8_t b[] = {
		0x0e, 0xfc, 0x00, 0x11, 0x22, 0x33,  /* dst */
		0x0e, 0xfc, 0x00, 0x44, 0x55, 0x66,  /* src */
		0x81, 0x00, 0xba, 0xbc,              /* pcp 5, DEI, VLAN 0xabc */
		0x89, 0x06,                          /* FCoE */
		0x00, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		0x36,                                /* SOFn3 */
		0x22, 0xff, 0xff, 0xfe,              /* R_CTL, D_ID */
		0x9c, 0x12, 0x34, 0x56,              /* CS_CTL, S_ID */
		0x01, 0x29, 0x00, 0x03,              /* TYPE, F_CTL (fill 3) */
		0xa7, 0x3d, 0x80, 0x01,              /* SEQ_ID, DF_CTL, SEQ_CNT */
		0x12, 0x34, 0xff, 0xff,              /* OX_ID, RX_ID */
		0x87, 0x65, 0x43, 0x21,              /* param */
		0x04, 0x01, 0x02, 0x03, 0x04, 0, 0, 0, /* payload 5 + fill 3 */
		0, 0, 0, 0,                          /* CRC, set below */
		0x4e, 0x00, 0x00, 0x00,              /* EOFdti */
	};
	struct fcr_frame f;
	uint32_t crc = tu_crc32_ref(b + 32, 32);

	(void)state;
	fcr_crc_store(b + 64, crc);
	expect_reason(fcr_frame_parse(b, sizeof(b), &f), FCR_R_OK, "ok");
	assert_int_equal(f.ethertype, 0x8906);
	assert_int_equal(f.tagged, 1);
	assert_int_equal(f.vlan, 0xabc);
	assert_int_equal(f.pcp, 5);
	assert_int_equal(f.fcoe_off, 18);
	assert_int_equal(f.fc_off, 32);
	assert_int_equal(f.fc_len, 32);
	assert_int_equal(f.payload_len, 5);
	assert_int_equal(f.fill, 3);
	assert_int_equal(f.sof, 0x36);
	assert_int_equal(f.eof, 0x4e);
	assert_int_equal(f.frame_len, sizeof(b));
	assert_int_equal(f.crc, crc);
	assert_int_equal(f.r_ctl, 0x22);
	assert_int_equal(f.d_id, 0xfffffe);
	assert_int_equal(f.cs_ctl, 0x9c);
	assert_int_equal(f.s_id, 0x123456);
	assert_int_equal(f.type, 0x01);
	assert_int_equal(f.f_ctl, 0x290003);
	assert_int_equal(f.seq_id, 0xa7);
	assert_int_equal(f.df_ctl, 0x3d);
	assert_int_equal(f.seq_cnt, 0x8001);
	assert_int_equal(f.ox_id, 0x1234);
	assert_int_equal(f.rx_id, 0xffff);
	assert_int_equal(f.param, 0x87654321);
	assert_int_equal(fcr_frame_crc_off(&f), 64);
	expect_reason(fcr_frame_verify_crc(b, &f), FCR_R_OK, "ok");
}

static void
test_untagged_frame_parses_every_field(void **state)
{
	uint8_t buf[256];
	struct fcr_frame f;
	uint32_t len;

	(void)state;
	len = tu_std_frame(buf, sizeof(buf), 0, payload, 37);
	assert_int_equal(len, FCR_ETH_HLEN + FCR_FCOE_HLEN + FCR_FC_HLEN + 40 +
			 FCR_FCOE_TLEN);
	expect_reason(fcr_frame_parse(buf, len, &f), FCR_R_OK, "ok");
	check_std_fields(buf, len, &f, 0, 37);
	expect_reason(fcr_frame_verify_crc(buf, &f), FCR_R_OK, "ok");
}

static void
test_tagged_frame_parses_vlan_pcp_and_every_field(void **state)
{
	uint8_t buf[256];
	struct fcr_frame f;
	uint32_t len;

	(void)state;
	len = tu_std_frame(buf, sizeof(buf), 1, payload, 38);
	expect_reason(fcr_frame_parse(buf, len, &f), FCR_R_OK, "ok");
	check_std_fields(buf, len, &f, 1, 38);
	expect_reason(fcr_frame_verify_crc(buf, &f), FCR_R_OK, "ok");
}

static void
test_every_payload_size_0_to_2112_parses_tagged_and_untagged(void **state)
{
	static uint8_t buf[FCR_FCOE_MAX_FRAME];
	struct fcr_frame f;
	uint32_t plen, len;
	int tagged;

	(void)state;
	for (tagged = 0; tagged < 2; tagged++) {
		for (plen = 0; plen <= FCR_FC_MAX_PAYLOAD; plen++) {
			len = tu_std_frame(buf, sizeof(buf), tagged, payload,
					   (uint16_t)plen);
			expect_reason(fcr_frame_parse(buf, len, &f), FCR_R_OK, "ok");
			check_std_fields(buf, len, &f, tagged, plen);
			if (plen)
				assert_memory_equal(buf + f.fc_off + FCR_FC_HLEN,
						    payload, plen);
			expect_reason(fcr_frame_verify_crc(buf, &f), FCR_R_OK, "ok");
		}
	}
	/* the largest frame is exactly the documented maximum */
	assert_int_equal(len, FCR_FCOE_MAX_FRAME);
}

static void
test_smallest_frame_is_60_bytes(void **state)
{
	uint8_t buf[128];
	struct fcr_frame f;
	uint32_t len;

	(void)state;
	len = tu_std_frame(buf, sizeof(buf), 0, NULL, 0);
	assert_int_equal(len, FCR_FCOE_MIN_FRAME);
	assert_int_equal(len, 60);
	expect_reason(fcr_frame_parse(buf, len, &f), FCR_R_OK, "ok");
	assert_int_equal(f.payload_len, 0);
	assert_int_equal(f.fc_len, 24);
}

static void
test_every_valid_sof_accepted_every_other_byte_is_bad_sof(void **state)
{
	static const uint8_t valid[] = { 0x28, 0x29, 0x2D, 0x2E, 0x31, 0x35, 0x36, 0x39 };
	uint8_t buf[256];
	struct fcr_frame f;
	uint32_t len, v, i, sof_at;
	int tagged, is_valid;

	(void)state;
	for (tagged = 0; tagged < 2; tagged++) {
		len = tu_std_frame(buf, sizeof(buf), tagged, payload, 20);
		sof_at = FCR_ETH_HLEN + (tagged ? 4 : 0) + 13;
		assert_int_equal(buf[sof_at], FCR_SOF_N3);
		for (v = 0; v < 256; v++) {
			is_valid = 0;
			for (i = 0; i < sizeof(valid); i++)
				is_valid |= valid[i] == v;
			assert_int_equal(fcr_sof_valid((uint8_t)v), is_valid);
			buf[sof_at] = (uint8_t)v;
			if (is_valid) {
				expect_reason(fcr_frame_parse(buf, len, &f), FCR_R_OK, "ok");
				assert_int_equal(f.sof, v);
				/* SOF is outside the CRC */
				expect_reason(fcr_frame_verify_crc(buf, &f), FCR_R_OK, "ok");
			} else {
				expect_reason(fcr_frame_parse(buf, len, &f),
					      FCR_R_BAD_SOF, "bad_sof");
			}
		}
	}
}

static void
test_every_valid_eof_accepted_every_other_byte_is_bad_eof(void **state)
{
	static const uint8_t valid[] = { 0x41, 0x42, 0x44, 0x46, 0x49, 0x4E, 0x4F, 0x50 };
	uint8_t buf[256];
	struct fcr_frame f;
	uint32_t len, v, i;
	int tagged, is_valid;

	(void)state;
	for (tagged = 0; tagged < 2; tagged++) {
		len = tu_std_frame(buf, sizeof(buf), tagged, payload, 21);
		assert_int_equal(buf[len - 4], FCR_EOF_N);
		for (v = 0; v < 256; v++) {
			is_valid = 0;
			for (i = 0; i < sizeof(valid); i++)
				is_valid |= valid[i] == v;
			assert_int_equal(fcr_eof_valid((uint8_t)v), is_valid);
			buf[len - 4] = (uint8_t)v;
			if (is_valid) {
				expect_reason(fcr_frame_parse(buf, len, &f), FCR_R_OK, "ok");
				assert_int_equal(f.eof, v);
				expect_reason(fcr_frame_verify_crc(buf, &f), FCR_R_OK, "ok");
			} else {
				expect_reason(fcr_frame_parse(buf, len, &f),
					      FCR_R_BAD_EOF, "bad_eof");
			}
		}
	}
}

/* Fill 3 in a 4-byte payload area is a 1-byte payload: valid. */
static void
test_fill_up_to_the_payload_area_is_accepted(void **state)
{
	uint8_t buf[128];
	struct fcr_frame f;
	uint32_t len, fill, fc_off;

	(void)state;
	len = tu_std_frame(buf, sizeof(buf), 1, payload, 4);
	fc_off = FCR_ETH_HLEN + 4 + FCR_FCOE_HLEN;
	for (fill = 0; fill < 4; fill++) {
		buf[fc_off + FCR_FC_F_CTL + 2] = (uint8_t)((buf[fc_off + FCR_FC_F_CTL + 2] & ~3u) | fill);
		tu_fix_crc(buf, fc_off, 28);
		expect_reason(fcr_frame_parse(buf, len, &f), FCR_R_OK, "ok");
		assert_int_equal(f.fill, fill);
		assert_int_equal(f.payload_len, 4 - fill);
		assert_int_equal(f.fc_len, 28);
		expect_reason(fcr_frame_verify_crc(buf, &f), FCR_R_OK, "ok");
	}
}

/* --------------------------------------------------------- mbufs */

static void
test_mbuf_single_segment_equals_flat_every_payload_size(void **state)
{
	static uint8_t buf[FCR_FCOE_MAX_FRAME];
	struct fcr_frame f, fm;
	struct tu_mchain c;
	struct rte_mbuf *m;
	uint32_t plen, len;
	int tagged;

	(void)state;
	for (tagged = 0; tagged < 2; tagged++) {
		for (plen = 0; plen <= FCR_FC_MAX_PAYLOAD; plen++) {
			len = tu_std_frame(buf, sizeof(buf), tagged, payload,
					   (uint16_t)plen);
			m = tu_mchain_flat(&c, buf, len);
			expect_reason(fcr_frame_parse(buf, len, &f), FCR_R_OK, "ok");
			expect_reason(fcr_frame_parse_mbuf(m, &fm), FCR_R_OK, "ok");
			check_std_fields(buf, len, &fm, tagged, plen);
			assert_frame_equal(&fm, &f);
			tu_mchain_free(&c);
		}
	}
}

/* One tagged frame split into two segments at every offset 1..len-1. */
static void
test_mbuf_split_at_every_offset_equals_flat(void **state)
{
	static uint8_t buf[FCR_FCOE_MAX_FRAME];
	static const uint16_t sizes[] = { 0, 61, 2112 };
	struct fcr_frame f, fm;
	struct tu_mchain c;
	struct rte_mbuf *m;
	uint32_t len, split;
	unsigned int s;

	(void)state;
	for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		len = tu_std_frame(buf, sizeof(buf), 1, payload, sizes[s]);
		expect_reason(fcr_frame_parse(buf, len, &f), FCR_R_OK, "ok");
		for (split = 1; split < len; split++) {
			m = tu_mchain_split(&c, buf, len, split);
			expect_reason(fcr_frame_parse_mbuf(m, &fm), FCR_R_OK, "ok");
			assert_frame_equal(&fm, &f);
			check_std_fields(buf, len, &fm, 1, sizes[s]);
			tu_mchain_free(&c);
		}
	}
}

static void
test_mbuf_one_byte_per_segment_equals_flat(void **state)
{
	static uint8_t buf[FCR_FCOE_MAX_FRAME];
	static uint32_t segs[FCR_FCOE_MAX_FRAME];
	struct fcr_frame f, fm;
	struct tu_mchain c;
	struct rte_mbuf *m;
	uint32_t len, i;
	int tagged;

	(void)state;
	for (tagged = 0; tagged < 2; tagged++) {
		len = tu_std_frame(buf, sizeof(buf), tagged, payload, 77);
		for (i = 0; i < len; i++)
			segs[i] = 1;
		m = tu_mchain_build(&c, buf, len, segs, len);
		expect_reason(fcr_frame_parse(buf, len, &f), FCR_R_OK, "ok");
		expect_reason(fcr_frame_parse_mbuf(m, &fm), FCR_R_OK, "ok");
		assert_frame_equal(&fm, &f);
		tu_mchain_free(&c);
	}
}

static void
test_mbuf_vlan_stripped_by_nic_is_reported(void **state)
{
	uint8_t buf[256];
	struct fcr_frame f;
	struct tu_mchain c;
	struct rte_mbuf *m;
	uint32_t len;

	(void)state;
	len = tu_std_frame(buf, sizeof(buf), 0, payload, 40);
	m = tu_mchain_split(&c, buf, len, 30);
	m->ol_flags = RTE_MBUF_F_RX_VLAN | RTE_MBUF_F_RX_VLAN_STRIPPED;
	m->vlan_tci = (uint16_t)(6 << 13 | 1 << 12 | 0x3e9); /* pcp 6, DEI, 1001 */
	expect_reason(fcr_frame_parse_mbuf(m, &f), FCR_R_OK, "ok");
	assert_int_equal(f.vlan, 1001);
	assert_int_equal(f.pcp, 6);
	assert_int_equal(f.tagged, 0);      /* no tag in the bytes */
	assert_int_equal(f.fcoe_off, 14);
	assert_int_equal(f.fc_off, 28);
	assert_int_equal(f.d_id, TU_D_ID);
	expect_reason(fcr_frame_verify_crc_mbuf(m, &f), FCR_R_OK, "ok");

	/* the TCI alone, without the flag, is not a VLAN */
	m->ol_flags = 0;
	expect_reason(fcr_frame_parse_mbuf(m, &f), FCR_R_OK, "ok");
	assert_int_equal(f.vlan, 0);
	assert_int_equal(f.pcp, 0);

	/* a stripped tag is also reported for FIP, which the caller routes */
	buf[12] = 0x89;
	buf[13] = 0x14;
	tu_mchain_free(&c);
	m = tu_mchain_flat(&c, buf, len);
	m->ol_flags = RTE_MBUF_F_RX_VLAN | RTE_MBUF_F_RX_VLAN_STRIPPED;
	m->vlan_tci = 0x0123;
	expect_reason(fcr_frame_parse_mbuf(m, &f), FCR_R_NOT_FCOE, "not_fcoe");
	assert_int_equal(f.ethertype, FCR_ETHERTYPE_FIP);
	assert_int_equal(f.vlan, 0x123);
	tu_mchain_free(&c);
}

/* ------------------------------------------------------ malformed */

static void
test_reason_names_are_the_documented_counter_names(void **state)
{
	static const struct {
		enum fcr_reason r;
		const char *name;
	} t[] = {
		{ FCR_R_OK, "ok" }, { FCR_R_RUNT, "runt" },
		{ FCR_R_TRUNC_VLAN, "trunc_vlan" },
		{ FCR_R_VLAN_STACKED, "vlan_stacked" },
		{ FCR_R_NOT_FCOE, "not_fcoe" },
		{ FCR_R_TRUNC_FCOE_HDR, "trunc_fcoe_hdr" },
		{ FCR_R_BAD_VERSION, "bad_version" },
		{ FCR_R_BAD_RESERVED, "bad_reserved" },
		{ FCR_R_BAD_SOF, "bad_sof" },
		{ FCR_R_TRUNC_FC_HDR, "trunc_fc_hdr" },
		{ FCR_R_NO_TRAILER, "no_trailer" },
		{ FCR_R_BAD_EOF, "bad_eof" },
		{ FCR_R_BAD_TRAILER, "bad_trailer" },
		{ FCR_R_BAD_LENGTH, "bad_length" },
		{ FCR_R_TOO_LONG, "too_long" },
		{ FCR_R_BAD_FILL, "bad_fill" },
		{ FCR_R_BAD_CRC, "bad_crc" },
		{ FCR_R_TRUNC_PAYLOAD, "trunc_payload" },
		{ FCR_R_BAD_PAYLOAD, "bad_payload" },
	};
	unsigned int i, j;
	const char *c;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		assert_string_equal(fcr_reason_name(t[i].r), t[i].name);
	/* every reason (the list grows with the dataplane's drop reasons)
	 * has its own counter name, made of [a-z0-9_], and an explanation */
	for (i = 0; i < FCR_R_COUNT; i++) {
		assert_non_null(fcr_reason_name((enum fcr_reason)i));
		assert_string_not_equal(fcr_reason_name((enum fcr_reason)i), "?");
		for (c = fcr_reason_name((enum fcr_reason)i); *c; c++)
			assert_true((*c >= 'a' && *c <= 'z') ||
				    (*c >= '0' && *c <= '9') || *c == '_');
		assert_non_null(fcr_reason_text((enum fcr_reason)i));
		assert_true(strlen(fcr_reason_text((enum fcr_reason)i)) > 3);
		for (j = 0; j < i; j++)
			assert_string_not_equal(fcr_reason_name((enum fcr_reason)i),
						fcr_reason_name((enum fcr_reason)j));
	}
	assert_string_equal(fcr_reason_name(FCR_R_COUNT), "?");
	assert_string_equal(fcr_reason_name((enum fcr_reason)-1), "?");
	assert_string_equal(fcr_reason_text(FCR_R_COUNT), "?");
}

/*
 * Every truncation of a frame, from 0 bytes to one short of the whole:
 * the right reason for each field cut, and never "OK with a good CRC".
 */
static void
check_truncations(const uint8_t *buf, uint32_t full, int tagged)
{
	uint32_t fcoe_off = FCR_ETH_HLEN + (tagged ? 4 : 0);
	uint32_t fc_off = fcoe_off + FCR_FCOE_HLEN;
	struct fcr_frame f;
	enum fcr_reason r;
	uint32_t len;

	for (len = 0; len < full; len++) {
		r = fcr_frame_parse(buf, len, &f);
		if (len < FCR_ETH_HLEN) {
			expect_reason(r, FCR_R_RUNT, "runt");
		} else if (tagged && len < FCR_ETH_HLEN + FCR_VLAN_HLEN) {
			expect_reason(r, FCR_R_TRUNC_VLAN, "trunc_vlan");
		} else if (len < fc_off) {
			expect_reason(r, FCR_R_TRUNC_FCOE_HDR, "trunc_fcoe_hdr");
			assert_int_equal(f.ethertype, FCR_ETHERTYPE_FCOE);
		} else if (len < fc_off + FCR_FC_HLEN) {
			expect_reason(r, FCR_R_TRUNC_FC_HDR, "trunc_fc_hdr");
		} else if (len < fc_off + FCR_FC_HLEN + FCR_FCOE_TLEN) {
			expect_reason(r, FCR_R_NO_TRAILER, "no_trailer");
		} else {
			/* the headers are whole: only trailer/length reasons */
			assert_true(r == FCR_R_OK || r == FCR_R_BAD_EOF ||
				    r == FCR_R_BAD_TRAILER || r == FCR_R_BAD_LENGTH ||
				    r == FCR_R_BAD_FILL);
			if (r == FCR_R_OK &&
			    fcr_frame_verify_crc(buf, &f) != FCR_R_BAD_CRC)
				fail_msg("truncated to %u of %u: OK with a good CRC",
					 len, full);
		}
		if (tagged && len >= FCR_ETH_HLEN + FCR_VLAN_HLEN) {
			assert_int_equal(f.tagged, 1);
			assert_int_equal(f.vlan, TU_VLAN);
		}
	}
	expect_reason(fcr_frame_parse(buf, full, &f), FCR_R_OK, "ok");
}

static void
test_every_truncation_gives_the_reason_of_the_field_cut(void **state)
{
	static uint8_t buf[FCR_FCOE_MAX_FRAME], zeros[FCR_FC_MAX_PAYLOAD];
	static const uint16_t sizes[] = { 0, 1, 4, 64, 255, 2112 };
	uint32_t len;
	unsigned int s;
	int tagged;

	(void)state;
	for (tagged = 0; tagged < 2; tagged++) {
		for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
			len = tu_std_frame(buf, sizeof(buf), tagged, payload, sizes[s]);
			check_truncations(buf, len, tagged);
			/* an all-zero payload looks like trailer padding */
			len = tu_std_frame(buf, sizeof(buf), tagged, zeros, sizes[s]);
			check_truncations(buf, len, tagged);
		}
	}
}

/* The mbuf path gives the same reason as the flat one for every length,
 * with the chain split in the middle of the headers. */
static void
test_every_truncation_same_reason_in_mbuf_chain(void **state)
{
	static uint8_t buf[FCR_FCOE_MAX_FRAME];
	struct fcr_frame f, fm;
	struct tu_mchain c;
	struct rte_mbuf *m;
	uint32_t full, len, segs[3];
	int tagged;

	(void)state;
	for (tagged = 0; tagged < 2; tagged++) {
		full = tu_std_frame(buf, sizeof(buf), tagged, payload, 100);
		for (len = 0; len <= full; len++) {
			segs[0] = len / 3;
			segs[1] = len / 3;
			segs[2] = len - 2 * (len / 3);
			m = tu_mchain_build(&c, buf, len, segs, 3);
			expect_reason(fcr_frame_parse_mbuf(m, &fm),
				      fcr_frame_parse(buf, len, &f),
				      fcr_reason_name(fcr_frame_parse(buf, len, &f)));
			assert_int_equal(fm.ethertype, f.ethertype);
			assert_int_equal(fm.vlan, f.vlan);
			tu_mchain_free(&c);
		}
	}
}

static void
test_wrong_ethertype_is_not_fcoe(void **state)
{
	static const uint16_t types[] = {
		0x0800, 0x86DD, 0x0806, 0x8907, 0x8915, 0x0000, 0xFFFF, 0x0689,
	};
	uint8_t buf[256];
	struct fcr_frame f;
	uint32_t len, at;
	unsigned int i;
	int tagged;

	(void)state;
	for (tagged = 0; tagged < 2; tagged++) {
		len = tu_std_frame(buf, sizeof(buf), tagged, payload, 20);
		at = tagged ? 16 : 12;
		for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
			fcr_put_be16(buf + at, types[i]);
			expect_reason(fcr_frame_parse(buf, len, &f),
				      FCR_R_NOT_FCOE, "not_fcoe");
			assert_int_equal(f.ethertype, types[i]);
		}
	}
}

/* FIP is not FCoE, but the caller needs its EtherType and VLAN to route it. */
static void
test_fip_is_not_fcoe_but_reports_ethertype_and_vlan(void **state)
{
	uint8_t buf[256];
	struct fcr_frame f;
	uint32_t len;

	(void)state;
	len = tu_std_frame(buf, sizeof(buf), 1, payload, 20);
	fcr_put_be16(buf + 16, FCR_ETHERTYPE_FIP);
	expect_reason(fcr_frame_parse(buf, len, &f), FCR_R_NOT_FCOE, "not_fcoe");
	assert_int_equal(f.ethertype, 0x8914);
	assert_int_equal(f.tagged, 1);
	assert_int_equal(f.vlan, TU_VLAN);
	assert_int_equal(f.pcp, TU_PCP);
	assert_int_equal(f.fcoe_off, 18);
	/* even when only the Ethernet header and tag are there */
	expect_reason(fcr_frame_parse(buf, 18, &f), FCR_R_NOT_FCOE, "not_fcoe");
	assert_int_equal(f.ethertype, 0x8914);
	assert_int_equal(f.vlan, TU_VLAN);

	len = tu_std_frame(buf, sizeof(buf), 0, payload, 20);
	fcr_put_be16(buf + 12, FCR_ETHERTYPE_FIP);
	expect_reason(fcr_frame_parse(buf, len, &f), FCR_R_NOT_FCOE, "not_fcoe");
	assert_int_equal(f.ethertype, 0x8914);
	assert_int_equal(f.tagged, 0);
	assert_int_equal(f.vlan, 0);
	assert_int_equal(f.fcoe_off, 14);
	expect_reason(fcr_frame_parse(buf, 14, &f), FCR_R_NOT_FCOE, "not_fcoe");
	assert_int_equal(f.ethertype, 0x8914);
}

static void
test_stacked_vlan_tags_are_vlan_stacked(void **state)
{
	uint8_t buf[256];
	struct fcr_frame f;
	uint32_t len;

	(void)state;
	/* 0x8100 inside 0x8100 */
	len = tu_std_frame(buf, sizeof(buf), 1, payload, 20);
	fcr_put_be16(buf + 16, FCR_ETHERTYPE_VLAN);
	expect_reason(fcr_frame_parse(buf, len, &f), FCR_R_VLAN_STACKED, "vlan_stacked");
	assert_int_equal(f.vlan, TU_VLAN);
	/* 0x88a8 inside 0x8100 */
	fcr_put_be16(buf + 16, FCR_ETHERTYPE_QINQ);
	expect_reason(fcr_frame_parse(buf, len, &f), FCR_R_VLAN_STACKED, "vlan_stacked");
	/* 0x88a8 outer (802.1ad S-tag) */
	len = tu_std_frame(buf, sizeof(buf), 1, payload, 20);
	fcr_put_be16(buf + 12, FCR_ETHERTYPE_QINQ);
	expect_reason(fcr_frame_parse(buf, len, &f), FCR_R_VLAN_STACKED, "vlan_stacked");
	/* and an untagged frame whose EtherType is 0x88a8 */
	len = tu_std_frame(buf, sizeof(buf), 0, payload, 20);
	fcr_put_be16(buf + 12, FCR_ETHERTYPE_QINQ);
	expect_reason(fcr_frame_parse(buf, len, &f), FCR_R_VLAN_STACKED, "vlan_stacked");
}

static void
test_nonzero_version_is_bad_version(void **state)
{
	uint8_t buf[256];
	struct fcr_frame f;
	uint32_t len, v, at;
	int tagged;

	(void)state;
	for (tagged = 0; tagged < 2; tagged++) {
		len = tu_std_frame(buf, sizeof(buf), tagged, payload, 20);
		at = FCR_ETH_HLEN + (tagged ? 4 : 0);
		for (v = 1; v < 16; v++) {
			buf[at] = (uint8_t)(v << 4);
			expect_reason(fcr_frame_parse(buf, len, &f),
				      FCR_R_BAD_VERSION, "bad_version");
		}
		buf[at] = 0;
		expect_reason(fcr_frame_parse(buf, len, &f), FCR_R_OK, "ok");
	}
}

/* Reserved bytes 15..26 (untagged offsets; the low nibble of byte 14 too),
 * but for the mark's bit of byte 26. */
static void
test_nonzero_reserved_byte_in_each_position_is_bad_reserved(void **state)
{
	static const uint8_t vals[] = { 0x01, 0x10, 0x80, 0xFF };
	uint8_t buf[256];
	struct fcr_frame f;
	uint32_t len, pos, i, shift;
	int tagged;

	(void)state;
	for (tagged = 0; tagged < 2; tagged++) {
		len = tu_std_frame(buf, sizeof(buf), tagged, payload, 20);
		shift = tagged ? 4 : 0;
		for (pos = 15; pos <= 26; pos++) {
			for (i = 0; i < sizeof(vals); i++) {
				if (pos == FCR_ETH_HLEN + FCR_FCOE_MARK_OFF &&
				    vals[i] == FCR_FCOE_MARK)
					continue;
				buf[pos + shift] = vals[i];
				expect_reason(fcr_frame_parse(buf, len, &f),
					      FCR_R_BAD_RESERVED, "bad_reserved");
			}
			buf[pos + shift] = 0;
			expect_reason(fcr_frame_parse(buf, len, &f), FCR_R_OK, "ok");
		}
		for (i = 1; i < 16; i++) {
			buf[14 + shift] = (uint8_t)i;
			expect_reason(fcr_frame_parse(buf, len, &f),
				      FCR_R_BAD_RESERVED, "bad_reserved");
		}
		buf[14 + shift] = 0;
	}
}

/* The mark (the last reserved byte's low bit) parses, tagged or not, and
 * is reported; unmarked frames report none. (fuzz-frame: the same in mbuf
 * chains.) */
static void
test_the_mark_parses_and_is_reported(void **state)
{
	uint8_t buf[256];
	struct fcr_frame f;
	uint32_t len, at;
	int tagged;

	(void)state;
	for (tagged = 0; tagged < 2; tagged++) {
		len = tu_std_frame(buf, sizeof(buf), tagged, payload, 20);
		at = FCR_ETH_HLEN + (tagged ? FCR_VLAN_HLEN : 0) + FCR_FCOE_MARK_OFF;
		expect_reason(fcr_frame_parse(buf, len, &f), FCR_R_OK, "ok");
		assert_int_equal(f.mark, 0);
		buf[at] = FCR_FCOE_MARK;
		expect_reason(fcr_frame_parse(buf, len, &f), FCR_R_OK, "ok");
		assert_int_equal(f.mark, FCR_FCOE_MARK);
		/* outside the CRC: the frame's CRC still checks */
		assert_int_equal(fcr_frame_verify_crc(buf, &f), FCR_R_OK);
		/* any other bit of that byte is still pre-standard */
		buf[at] = FCR_FCOE_MARK | 0x02;
		expect_reason(fcr_frame_parse(buf, len, &f), FCR_R_BAD_RESERVED,
			      "bad_reserved");
	}
}

static void
test_nonzero_trailer_reserved_is_bad_trailer(void **state)
{
	uint8_t buf[256];
	struct fcr_frame f;
	uint32_t len, k, v;
	int tagged;

	(void)state;
	for (tagged = 0; tagged < 2; tagged++) {
		len = tu_std_frame(buf, sizeof(buf), tagged, payload, 20);
		for (k = 1; k <= 3; k++) {
			for (v = 1; v < 256; v <<= 1) {
				buf[len - k] = (uint8_t)v;
				expect_reason(fcr_frame_parse(buf, len, &f),
					      FCR_R_BAD_TRAILER, "bad_trailer");
			}
			buf[len - k] = 0;
			expect_reason(fcr_frame_parse(buf, len, &f), FCR_R_OK, "ok");
		}
	}
}

/* Move the 8-byte trailer by `delta` bytes (removing or inserting FC bytes). */
static uint32_t
shift_trailer(uint8_t *buf, uint32_t len, int delta)
{
	uint8_t t[FCR_FCOE_TLEN];

	memcpy(t, buf + len - FCR_FCOE_TLEN, FCR_FCOE_TLEN);
	if (delta > 0)
		memset(buf + len - FCR_FCOE_TLEN, 0x00, (size_t)delta);
	memcpy(buf + (int)len - FCR_FCOE_TLEN + delta, t, FCR_FCOE_TLEN);
	return (uint32_t)((int)len + delta);
}

static void
test_fc_length_not_multiple_of_4_is_bad_length(void **state)
{
	uint8_t buf[256];
	struct fcr_frame f;
	uint32_t len, n;
	int tagged, d;

	(void)state;
	for (tagged = 0; tagged < 2; tagged++) {
		for (d = -3; d <= 3; d++) {
			if (d == 0)
				continue;
			len = tu_std_frame(buf, sizeof(buf), tagged, payload, 8);
			n = shift_trailer(buf, len, d);
			expect_reason(fcr_frame_parse(buf, n, &f),
				      FCR_R_BAD_LENGTH, "bad_length");
		}
		/* with the FC header alone plus 1..3 bytes */
		for (d = 1; d <= 3; d++) {
			len = tu_std_frame(buf, sizeof(buf), tagged, NULL, 0);
			n = shift_trailer(buf, len, d);
			expect_reason(fcr_frame_parse(buf, n, &f),
				      FCR_R_BAD_LENGTH, "bad_length");
		}
	}
}

static void
test_payload_over_2112_is_too_long(void **state)
{
	static uint8_t buf[80000];
	struct fcr_frame f;
	uint32_t len, n;
	int tagged, d;

	(void)state;
	for (tagged = 0; tagged < 2; tagged++) {
		/* 2112 is the limit and fine */
		len = tu_std_frame(buf, sizeof(buf), tagged, payload, 2112);
		expect_reason(fcr_frame_parse(buf, len, &f), FCR_R_OK, "ok");
		assert_int_equal(f.fc_len, FCR_FC_MAX_LEN);
		/* 2116, 2120, ... */
		for (d = 4; d <= 64; d += 4) {
			len = tu_std_frame(buf, sizeof(buf), tagged, payload, 2112);
			n = shift_trailer(buf, len, d);
			expect_reason(fcr_frame_parse(buf, n, &f),
				      FCR_R_TOO_LONG, "too_long");
		}
		/* 2113 bytes of payload and 3 of fill */
		len = tu_std_frame(buf, sizeof(buf), tagged, payload, 2112);
		n = shift_trailer(buf, len, 4);
		buf[(tagged ? 32 : 28) + FCR_FC_F_CTL + 2] |= 3;
		expect_reason(fcr_frame_parse(buf, n, &f), FCR_R_TOO_LONG, "too_long");
		/* a jumbo frame whose FC length does not fit in 16 bits */
		len = tu_std_frame(buf, sizeof(buf), tagged, payload, 2112);
		n = shift_trailer(buf, len, 65536 + 4 * 1000);
		assert_true(n <= sizeof(buf));
		expect_reason(fcr_frame_parse(buf, n, &f), FCR_R_TOO_LONG, "too_long");
		len = tu_std_frame(buf, sizeof(buf), tagged, payload, 0);
		n = shift_trailer(buf, len, 65536);
		expect_reason(fcr_frame_parse(buf, n, &f), FCR_R_TOO_LONG, "too_long");
	}
}

static void
test_fill_larger_than_payload_is_bad_fill(void **state)
{
	uint8_t buf[256];
	struct fcr_frame f;
	uint32_t len, fc_off, fill;
	int tagged;

	(void)state;
	for (tagged = 0; tagged < 2; tagged++) {
		len = tu_std_frame(buf, sizeof(buf), tagged, NULL, 0);
		fc_off = FCR_ETH_HLEN + (tagged ? 4 : 0) + FCR_FCOE_HLEN;
		for (fill = 1; fill < 4; fill++) {
			buf[fc_off + FCR_FC_F_CTL + 2] =
				(uint8_t)((buf[fc_off + FCR_FC_F_CTL + 2] & ~3u) | fill);
			tu_fix_crc(buf, fc_off, FCR_FC_HLEN); /* CRC is not the issue */
			expect_reason(fcr_frame_parse(buf, len, &f),
				      FCR_R_BAD_FILL, "bad_fill");
		}
	}
}

static void
test_wrong_crc_is_bad_crc(void **state)
{
	uint8_t buf[256];
	struct fcr_frame f;
	uint32_t len, k, bit;
	int tagged;

	(void)state;
	for (tagged = 0; tagged < 2; tagged++) {
		len = tu_std_frame(buf, sizeof(buf), tagged, payload, 33);
		for (k = 0; k < 4; k++) {
			for (bit = 0; bit < 8; bit++) {
				buf[len - 8 + k] ^= (uint8_t)(1u << bit);
				expect_reason(fcr_frame_parse(buf, len, &f), FCR_R_OK, "ok");
				expect_reason(fcr_frame_verify_crc(buf, &f),
					      FCR_R_BAD_CRC, "bad_crc");
				buf[len - 8 + k] ^= (uint8_t)(1u << bit);
			}
		}
		/* a payload byte */
		buf[50] ^= 0x40;
		expect_reason(fcr_frame_parse(buf, len, &f), FCR_R_OK, "ok");
		expect_reason(fcr_frame_verify_crc(buf, &f), FCR_R_BAD_CRC, "bad_crc");
		/* the CRC stored big-endian is wrong too (it is LSB first) */
		buf[50] ^= 0x40;
		fcr_put_be32(buf + len - 8, tu_crc32_ref(buf + f.fc_off, f.fc_len));
		expect_reason(fcr_frame_parse(buf, len, &f), FCR_R_OK, "ok");
		expect_reason(fcr_frame_verify_crc(buf, &f), FCR_R_BAD_CRC, "bad_crc");
	}
}

/* ---------------------------------------------------- no over-read */

/* The guard page itself: reading one byte past the placed data faults. */
static void
test_guard_page_faults_on_a_read_past_the_end(void **state)
{
	struct tu_guard g;
	uint8_t one = 0x42;
	volatile const uint8_t *p;
	int status;
	pid_t pid;

	(void)state;
	tu_guard_init(&g);
	p = tu_guard_place(&g, &one, 1);
	assert_int_equal(p[0], 0x42);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		volatile uint8_t x;

		/* cmocka catches SIGSEGV to report it; the child must die */
		signal(SIGSEGV, SIG_DFL);
		x = p[1];

		(void)x;
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGSEGV);
	tu_guard_fini(&g);
}

/* Parse every truncation with its last byte right before a PROT_NONE page:
 * a read past the given length would kill the test with SIGSEGV. */
static void
test_parse_never_reads_past_the_given_length(void **state)
{
	static uint8_t buf[FCR_FCOE_MAX_FRAME];
	static const uint16_t sizes[] = { 0, 3, 100, 2112 };
	struct fcr_frame f, g;
	struct tu_guard gp;
	struct rte_mbuf *m;
	uint8_t *p;
	uint32_t full, len;
	unsigned int s;
	int tagged;

	(void)state;
	tu_guard_init(&gp);
	m = aligned_alloc(RTE_CACHE_LINE_SIZE, sizeof(*m));
	assert_non_null(m);
	for (tagged = 0; tagged < 2; tagged++) {
		for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
			full = tu_std_frame(buf, sizeof(buf), tagged, payload, sizes[s]);
			for (len = 0; len <= full; len++) {
				enum fcr_reason r;

				p = tu_guard_place(&gp, buf, len);
				r = fcr_frame_parse(p, len, &f);
				assert_int_equal(r, fcr_frame_parse(buf, len, &g));
				if (r == FCR_R_OK)
					fcr_frame_verify_crc(p, &f);
				/* the mbuf path over the same bytes */
				memset(m, 0, sizeof(*m));
				m->buf_addr = p - 64;
				m->data_off = 64;
				m->buf_len = (uint16_t)(64 + len);
				m->data_len = (uint16_t)len;
				m->pkt_len = len;
				m->nb_segs = 1;
				assert_int_equal(fcr_frame_parse_mbuf(m, &g), r);
				if (r == FCR_R_OK)
					expect_reason(fcr_frame_verify_crc_mbuf(m, &g),
						      len == full ? FCR_R_OK : FCR_R_BAD_CRC,
						      len == full ? "ok" : "bad_crc");
			}
		}
	}
	free(m);
	tu_guard_fini(&gp);
}

/* ------------------------------------------------ the distributor's deal */

static uint32_t
spread_of(int tagged, uint16_t vlan, uint32_t s_id, uint32_t d_id, uint16_t ox_id,
	  const uint8_t src[6], uint16_t plen)
{
	uint8_t buf[FCR_FC_MAX_LEN + 64];
	struct fcr_l2_spec l2;
	struct fcr_fc_spec fc;
	size_t n;

	tu_l2(&l2, tagged);
	l2.vlan = vlan;
	memcpy(l2.src, src, 6);
	tu_fc(&fc, payload, plen);
	fc.s_id = s_id;
	fc.d_id = d_id;
	fc.ox_id = ox_id;
	n = fcr_build_fcoe(buf, sizeof(buf), &l2, &fc);
	assert_true(n > 0);
	return fcr_spread_hash(buf, (uint32_t)n, -1);
}

static void
test_spread_a_flows_frames_go_to_one_worker_whatever_else_differs(void **state)
{
	static const uint8_t mac_a[6] = { 0x0e, 0xfc, 0x00, 0x01, 0x02, 0x03 };
	static const uint8_t mac_b[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x09 };
	uint32_t h = spread_of(1, 100, 0x010203, 0x410001, 1, mac_a, 0);

	(void)state;
	/* exchange, source MAC (a redirect's leg may come from another
	 * port's MAC) and payload are not part of the key */
	assert_int_equal(spread_of(1, 100, 0x010203, 0x410001, 0x7777, mac_a, 0), h);
	assert_int_equal(spread_of(1, 100, 0x010203, 0x410001, 1, mac_b, 0), h);
	assert_int_equal(spread_of(1, 100, 0x010203, 0x410001, 1, mac_a, 2048), h);
	/* VLAN, S_ID and D_ID are */
	assert_int_not_equal(spread_of(1, 101, 0x010203, 0x410001, 1, mac_a, 0), h);
	assert_int_not_equal(spread_of(1, 100, 0x010204, 0x410001, 1, mac_a, 0), h);
	assert_int_not_equal(spread_of(1, 100, 0x010203, 0x410002, 1, mac_a, 0), h);
	/* the two directions of an exchange are two flows */
	assert_int_not_equal(spread_of(1, 100, 0x410001, 0x010203, 1, mac_a, 0), h);
}

static void
test_spread_a_tag_the_nic_stripped_counts_as_the_tag(void **state)
{
	uint8_t buf[256];
	uint32_t n = tu_std_frame(buf, sizeof(buf), 1, payload, 64);
	uint32_t tagged = fcr_spread_hash(buf, n, -1);

	(void)state;
	/* the same frame with its tag taken off, as a NIC's VLAN strip does */
	memmove(buf + 12, buf + 16, n - 16);
	assert_int_equal(fcr_spread_hash(buf, n - 4, TU_VLAN), tagged);
	assert_int_not_equal(fcr_spread_hash(buf, n - 4, -1), tagged);
}

static void
test_spread_fabric_flows_are_dealt_evenly_over_workers(void **state)
{
	static const uint8_t mac[6] = { 0x0e, 0xfc, 0x00, 0x01, 0x00, 0x00 };
	uint32_t count[8], w, k, nw;

	(void)state;
	for (nw = 1; nw <= 8; nw++) {
		memset(count, 0, sizeof(count));
		/* fcoe-gen's fabric: 1,024 hosts 01.00.xx to 8 targets 41.00.0x */
		for (k = 0; k < 8192; k++)
			count[fcr_spread_pick(spread_of(1, 100, 0x010000 + k % 1024,
							0x410000 + k / 1024, 1, mac, 0), nw)]++;
		for (w = 0; w < nw; w++) {
			assert_true(count[w] > 8192 / nw * 85 / 100);
			assert_true(count[w] < 8192 / nw * 115 / 100);
		}
	}
}

static void
test_spread_other_frames_by_source_mac_and_short_ones_to_worker_0(void **state)
{
	uint8_t buf[64] = { 0 };
	uint32_t h1, h2;

	(void)state;
	/* a FIP frame: by VLAN and source MAC */
	buf[6] = 0x0e, buf[11] = 0x01;
	buf[12] = 0x89, buf[13] = 0x14;
	h1 = fcr_spread_hash(buf, 60, -1);
	buf[30] = 0x55; /* its payload is not in the key */
	assert_int_equal(fcr_spread_hash(buf, 60, -1), h1);
	buf[11] = 0x02;
	h2 = fcr_spread_hash(buf, 60, -1);
	assert_int_not_equal(h1, h2);
	/* an FCoE frame cut before its D_ID or S_ID: by source MAC */
	buf[12] = 0x89, buf[13] = 0x06;
	assert_int_equal(fcr_spread_hash(buf, 40, -1), h2);
	/* shorter than an Ethernet header */
	assert_int_equal(fcr_spread_hash(buf, 13, -1), 0);
	assert_int_equal(fcr_spread_pick(0, 4), 0);
	assert_int_equal(fcr_spread_pick(UINT32_MAX, 4), 3);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hand_written_tagged_frame_parses_every_field),
		cmocka_unit_test(test_untagged_frame_parses_every_field),
		cmocka_unit_test(test_tagged_frame_parses_vlan_pcp_and_every_field),
		cmocka_unit_test(test_every_payload_size_0_to_2112_parses_tagged_and_untagged),
		cmocka_unit_test(test_smallest_frame_is_60_bytes),
		cmocka_unit_test(test_every_valid_sof_accepted_every_other_byte_is_bad_sof),
		cmocka_unit_test(test_every_valid_eof_accepted_every_other_byte_is_bad_eof),
		cmocka_unit_test(test_fill_up_to_the_payload_area_is_accepted),
		cmocka_unit_test(test_mbuf_single_segment_equals_flat_every_payload_size),
		cmocka_unit_test(test_mbuf_split_at_every_offset_equals_flat),
		cmocka_unit_test(test_mbuf_one_byte_per_segment_equals_flat),
		cmocka_unit_test(test_mbuf_vlan_stripped_by_nic_is_reported),
		cmocka_unit_test(test_reason_names_are_the_documented_counter_names),
		cmocka_unit_test(test_every_truncation_gives_the_reason_of_the_field_cut),
		cmocka_unit_test(test_every_truncation_same_reason_in_mbuf_chain),
		cmocka_unit_test(test_wrong_ethertype_is_not_fcoe),
		cmocka_unit_test(test_fip_is_not_fcoe_but_reports_ethertype_and_vlan),
		cmocka_unit_test(test_stacked_vlan_tags_are_vlan_stacked),
		cmocka_unit_test(test_nonzero_version_is_bad_version),
		cmocka_unit_test(test_nonzero_reserved_byte_in_each_position_is_bad_reserved),
		cmocka_unit_test(test_the_mark_parses_and_is_reported),
		cmocka_unit_test(test_nonzero_trailer_reserved_is_bad_trailer),
		cmocka_unit_test(test_fc_length_not_multiple_of_4_is_bad_length),
		cmocka_unit_test(test_payload_over_2112_is_too_long),
		cmocka_unit_test(test_fill_larger_than_payload_is_bad_fill),
		cmocka_unit_test(test_wrong_crc_is_bad_crc),
		cmocka_unit_test(test_guard_page_faults_on_a_read_past_the_end),
		cmocka_unit_test(test_parse_never_reads_past_the_given_length),
		cmocka_unit_test(test_spread_a_flows_frames_go_to_one_worker_whatever_else_differs),
		cmocka_unit_test(test_spread_a_tag_the_nic_stripped_counts_as_the_tag),
		cmocka_unit_test(test_spread_fabric_flows_are_dealt_evenly_over_workers),
		cmocka_unit_test(test_spread_other_frames_by_source_mac_and_short_ones_to_worker_0),
	};

	fcr_crc_init();
	return cmocka_run_group_tests(tests, setup_payload, NULL);
}
