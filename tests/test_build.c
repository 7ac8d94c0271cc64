/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The frame builders: FCoE frames byte-exact (length, fill, CRC, defaults,
 * limits), FIP link-service frames, ELS payloads and FPMA MACs.
 */
#include "test_util.h"

#define CANARY 0xA5

static uint8_t payload[FCR_FC_MAX_PAYLOAD + 16];

static int
setup_payload(void **state)
{
	struct tu_rng r;

	(void)state;
	tu_rng_seed(&r, 0xB111D);
	tu_fill_random(&r, payload, sizeof(payload));
	return 0;
}

static uint8_t
fill_of(uint32_t plen)
{
	return (uint8_t)((4 - (plen & 3)) & 3);
}

static void
assert_all(const uint8_t *p, size_t n, uint8_t v)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i] != v)
			fail_msg("byte %zu is %02x, expected %02x", i, p[i], v);
}

/* ---------------------------------------------------------- FCoE */

/*
 * Every payload size, tagged and untagged: the builder writes exactly
 * fcr_fcoe_frame_len() bytes (none past it), the fill count in F_CTL and
 * zero fill bytes, a CRC the independent reference agrees with, LSB first.
 */
static void
test_fcoe_exact_length_fill_and_crc_every_payload_size(void **state)
{
	static uint8_t buf[FCR_FCOE_MAX_FRAME + 64];
	struct fcr_l2_spec l2;
	struct fcr_fc_spec fc;
	uint32_t plen, fc_off, fc_len, crc;
	size_t len, want;
	uint8_t fill;
	int tagged;

	(void)state;
	for (tagged = 0; tagged < 2; tagged++) {
		tu_l2(&l2, tagged);
		fc_off = FCR_ETH_HLEN + (tagged ? FCR_VLAN_HLEN : 0) + FCR_FCOE_HLEN;
		for (plen = 0; plen <= FCR_FC_MAX_PAYLOAD; plen++) {
			fill = fill_of(plen);
			want = fc_off + FCR_FC_HLEN + plen + fill + FCR_FCOE_TLEN;
			assert_int_equal(fcr_fcoe_frame_len(&l2, (uint16_t)plen), want);
			tu_fc(&fc, payload, (uint16_t)plen);
			fc.f_ctl = 0x290003u; /* caller's fill bits are overridden */
			memset(buf, CANARY, sizeof(buf));
			len = fcr_build_fcoe(buf, sizeof(buf), &l2, &fc);
			assert_int_equal(len, want);
			assert_all(buf + len, sizeof(buf) - len, CANARY);
			/* F_CTL: upper bits kept, low two bits = fill */
			assert_int_equal(fcr_get_be24(buf + fc_off + FCR_FC_F_CTL),
					 0x290000u | fill);
			assert_int_equal(fill, (4 - plen % 4) % 4);
			if (plen)
				assert_memory_equal(buf + fc_off + FCR_FC_HLEN,
						    payload, plen);
			assert_all(buf + fc_off + FCR_FC_HLEN + plen, fill, 0);
			fc_len = FCR_FC_HLEN + plen + fill;
			assert_int_equal(fc_len % 4, 0);
			crc = tu_crc32_ref(buf + fc_off, fc_len);
			assert_int_equal(buf[fc_off + fc_len + 0], crc & 0xFF);
			assert_int_equal(buf[fc_off + fc_len + 1], (crc >> 8) & 0xFF);
			assert_int_equal(buf[fc_off + fc_len + 2], (crc >> 16) & 0xFF);
			assert_int_equal(buf[fc_off + fc_len + 3], crc >> 24);
			assert_int_equal(buf[len - 4], FCR_EOF_N);
			assert_all(buf + len - 3, 3, 0);
		}
	}
}

/* A small frame compared byte for byte with one written by hand. */
static void
test_fcoe_tagged_frame_is_byte_exact(void **state)
{
	static const uint8_t pl[5] = { 0x11, 0x22, 0x33, 0x44, 0x55 };
	uint8_t want[] = {
		0x0e, 0xfc, 0x00, 0x01, 0x02, 0x03,  /* dst */
		0x0e, 0xfc, 0x00, 0x0a, 0x0b, 0x0c,  /* src */
		0x81, 0x00, 0x63, 0xea,              /* pcp 3, VLAN 1002 */
		0x89, 0x06,
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		0x36,                                /* SOFn3 */
		0x01, 0x01, 0x02, 0x03,              /* R_CTL, D_ID */
		0x5a, 0x0a, 0x0b, 0x0c,              /* CS_CTL, S_ID */
		0x08, 0x29, 0x00, 0x0b,              /* TYPE, F_CTL | fill 3 */
		0x17, 0x40, 0x12, 0x34,              /* SEQ_ID, DF_CTL, SEQ_CNT */
		0xbe, 0xef, 0xca, 0xfe,              /* OX_ID, RX_ID */
		0xde, 0xad, 0xb0, 0x0f,              /* param */
		0x11, 0x22, 0x33, 0x44, 0x55, 0, 0, 0,
		0, 0, 0, 0,                          /* CRC */
		0x41, 0, 0, 0,                       /* EOFn */
	};
	uint8_t buf[sizeof(want) + 8];
	struct fcr_l2_spec l2;
	struct fcr_fc_spec fc;

	(void)state;
	fcr_crc_store(want + 64, tu_crc32_ref(want + 32, 32));
	tu_l2(&l2, 1);
	tu_fc(&fc, pl, sizeof(pl));
	assert_int_equal(fcr_build_fcoe(buf, sizeof(buf), &l2, &fc), sizeof(want));
	assert_memory_equal(buf, want, sizeof(want));
}

static void
test_fcoe_vlan_and_pcp_are_masked_into_the_tci(void **state)
{
	uint8_t buf[128];
	struct fcr_l2_spec l2;
	struct fcr_fc_spec fc;
	struct fcr_frame f;
	size_t len;

	(void)state;
	tu_l2(&l2, 1);
	l2.vlan = 0xF123; /* 12 bits only */
	l2.pcp = 0xFD;    /* 3 bits only */
	tu_fc(&fc, NULL, 0);
	len = fcr_build_fcoe(buf, sizeof(buf), &l2, &fc);
	assert_int_equal(len, 64);
	assert_int_equal(fcr_get_be16(buf + 12), 0x8100);
	assert_int_equal(fcr_get_be16(buf + 14), (5 << 13) | 0x123);
	assert_int_equal(fcr_get_be16(buf + 16), 0x8906);
	expect_reason(fcr_frame_parse(buf, (uint32_t)len, &f), FCR_R_OK, "ok");
	assert_int_equal(f.vlan, 0x123);
	assert_int_equal(f.pcp, 5);
}

static void
test_fcoe_defaults_sofi3_eoft_and_keeps_explicit_codes(void **state)
{
	uint8_t buf[128];
	struct fcr_l2_spec l2;
	struct fcr_fc_spec fc;
	struct fcr_frame f;
	size_t len;
	int tagged;

	(void)state;
	for (tagged = 0; tagged < 2; tagged++) {
		tu_l2(&l2, tagged);
		tu_fc(&fc, payload, 12);
		fc.sof = 0;
		fc.eof = 0;
		len = fcr_build_fcoe(buf, sizeof(buf), &l2, &fc);
		assert_int_equal(buf[FCR_ETH_HLEN + (tagged ? 4 : 0) + 13], FCR_SOF_I3);
		assert_int_equal(buf[len - 4], FCR_EOF_T);
		expect_reason(fcr_frame_parse(buf, (uint32_t)len, &f), FCR_R_OK, "ok");
		assert_int_equal(f.sof, 0x2E);
		assert_int_equal(f.eof, 0x42);

		fc.sof = FCR_SOF_F;
		fc.eof = FCR_EOF_A;
		len = fcr_build_fcoe(buf, sizeof(buf), &l2, &fc);
		expect_reason(fcr_frame_parse(buf, (uint32_t)len, &f), FCR_R_OK, "ok");
		assert_int_equal(f.sof, FCR_SOF_F);
		assert_int_equal(f.eof, FCR_EOF_A);
		expect_reason(fcr_frame_verify_crc(buf, &f), FCR_R_OK, "ok");
	}
}

/* Every header field lands where the parser reads it. */
static void
test_fcoe_header_fields_round_trip_through_the_parser(void **state)
{
	uint8_t buf[256];
	struct fcr_l2_spec l2;
	struct fcr_fc_spec fc;
	struct fcr_frame f;
	struct tu_rng r;
	size_t len;
	int i;

	(void)state;
	tu_rng_seed(&r, 77);
	for (i = 0; i < 2000; i++) {
		tu_l2(&l2, i & 1);
		l2.vlan = (uint16_t)tu_below(&r, 4096);
		l2.pcp = (uint8_t)tu_below(&r, 8);
		tu_fc(&fc, payload, (uint16_t)tu_below(&r, 150));
		fc.r_ctl = (uint8_t)tu_rand32(&r);
		fc.cs_ctl = (uint8_t)tu_rand32(&r);
		fc.type = (uint8_t)tu_rand32(&r);
		fc.seq_id = (uint8_t)tu_rand32(&r);
		fc.df_ctl = (uint8_t)tu_rand32(&r);
		fc.d_id = tu_rand32(&r) & FCR_FCID_MASK;
		fc.s_id = tu_rand32(&r) & FCR_FCID_MASK;
		fc.f_ctl = tu_rand32(&r) & FCR_FCID_MASK;
		fc.seq_cnt = (uint16_t)tu_rand32(&r);
		fc.ox_id = (uint16_t)tu_rand32(&r);
		fc.rx_id = (uint16_t)tu_rand32(&r);
		fc.param = tu_rand32(&r);
		len = fcr_build_fcoe(buf, sizeof(buf), &l2, &fc);
		assert_true(len > 0);
		expect_reason(fcr_frame_parse(buf, (uint32_t)len, &f), FCR_R_OK, "ok");
		assert_int_equal(f.tagged, i & 1);
		assert_int_equal(f.vlan, (i & 1) ? l2.vlan : 0);
		assert_int_equal(f.pcp, (i & 1) ? l2.pcp : 0);
		assert_int_equal(f.r_ctl, fc.r_ctl);
		assert_int_equal(f.cs_ctl, fc.cs_ctl);
		assert_int_equal(f.type, fc.type);
		assert_int_equal(f.seq_id, fc.seq_id);
		assert_int_equal(f.df_ctl, fc.df_ctl);
		assert_int_equal(f.d_id, fc.d_id);
		assert_int_equal(f.s_id, fc.s_id);
		assert_int_equal(f.f_ctl, (fc.f_ctl & ~3u) | fill_of(fc.payload_len));
		assert_int_equal(f.seq_cnt, fc.seq_cnt);
		assert_int_equal(f.ox_id, fc.ox_id);
		assert_int_equal(f.rx_id, fc.rx_id);
		assert_int_equal(f.param, fc.param);
		assert_int_equal(f.payload_len, fc.payload_len);
		assert_memory_equal(buf, tu_mac_dst, 6);
		assert_memory_equal(buf + 6, tu_mac_src, 6);
		expect_reason(fcr_frame_verify_crc(buf, &f), FCR_R_OK, "ok");
	}
}

static void
test_fcoe_returns_0_and_writes_nothing_when_cap_too_small(void **state)
{
	static uint8_t buf[FCR_FCOE_MAX_FRAME + 8];
	static const uint16_t sizes[] = { 0, 1, 100, 2112 };
	struct fcr_l2_spec l2;
	struct fcr_fc_spec fc;
	size_t want;
	unsigned int s;
	int tagged;

	(void)state;
	for (tagged = 0; tagged < 2; tagged++) {
		tu_l2(&l2, tagged);
		for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
			tu_fc(&fc, payload, sizes[s]);
			want = fcr_fcoe_frame_len(&l2, sizes[s]);
			memset(buf, CANARY, sizeof(buf));
			assert_int_equal(fcr_build_fcoe(buf, want - 1, &l2, &fc), 0);
			assert_int_equal(fcr_build_fcoe(buf, 0, &l2, &fc), 0);
			assert_int_equal(fcr_build_fcoe(buf, 14, &l2, &fc), 0);
			assert_all(buf, sizeof(buf), CANARY);
			assert_int_equal(fcr_build_fcoe(buf, want, &l2, &fc), want);
		}
	}
}

static void
test_fcoe_returns_0_when_payload_over_2112(void **state)
{
	static uint8_t buf[70000];
	static uint8_t big[65535];
	static const uint16_t sizes[] = { 2113, 2114, 2116, 4096, 65535 };
	struct fcr_l2_spec l2;
	struct fcr_fc_spec fc;
	unsigned int s;

	(void)state;
	tu_l2(&l2, 1);
	for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		tu_fc(&fc, big, sizes[s]);
		memset(buf, CANARY, 256);
		assert_int_equal(fcr_build_fcoe(buf, sizeof(buf), &l2, &fc), 0);
		assert_all(buf, 256, CANARY);
	}
}

/* ----------------------------------------------------------- FIP */

struct fip_view {
	const uint8_t *h;   /* FIP header */
	uint32_t hoff;
};

static struct fip_view
check_fip_header(const uint8_t *buf, size_t len, int tagged, uint8_t subcode,
		 uint16_t flags)
{
	struct fip_view v;

	assert_memory_equal(buf, tu_mac_dst, 6);
	assert_memory_equal(buf + 6, tu_mac_src, 6);
	if (tagged) {
		assert_int_equal(fcr_get_be16(buf + 12), 0x8100);
		assert_int_equal(fcr_get_be16(buf + 14), TU_PCP << 13 | TU_VLAN);
	}
	v.hoff = tagged ? 18 : 14;
	assert_int_equal(fcr_get_be16(buf + v.hoff - 2), 0x8914);
	v.h = buf + v.hoff;
	assert_int_equal(v.h[0] >> 4, 1);          /* version 1 */
	assert_int_equal(v.h[0] & 0x0F, 0);
	assert_int_equal(v.h[1], 0);
	assert_int_equal(fcr_get_be16(v.h + 2), 0x0002); /* link service */
	assert_int_equal(v.h[4], 0);
	assert_int_equal(v.h[5], subcode);
	/* descriptor list length, in words, covers exactly the rest */
	assert_int_equal(fcr_get_be16(v.h + 6) * 4, len - v.hoff - FCR_FIP_HLEN);
	assert_int_equal(fcr_get_be16(v.h + 8), flags);
	return v;
}

static void
check_fc_header(const uint8_t *fc, const struct fcr_fc_spec *s)
{
	assert_int_equal(fc[0], s->r_ctl);
	assert_int_equal(fcr_get_be24(fc + 1), s->d_id);
	assert_int_equal(fc[4], s->cs_ctl);
	assert_int_equal(fcr_get_be24(fc + 5), s->s_id);
	assert_int_equal(fc[8], s->type);
	assert_int_equal(fcr_get_be24(fc + 9) & ~3u, s->f_ctl & ~3u);
	assert_int_equal(fc[12], s->seq_id);
	assert_int_equal(fc[13], s->df_ctl);
	assert_int_equal(fcr_get_be16(fc + 14), s->seq_cnt);
	assert_int_equal(fcr_get_be16(fc + 16), s->ox_id);
	assert_int_equal(fcr_get_be16(fc + 18), s->rx_id);
	assert_int_equal(fcr_get_be32(fc + 20), s->param);
}

static void
els_spec(struct fcr_fc_spec *fc, uint8_t r_ctl, uint32_t d_id, uint32_t s_id,
	 const uint8_t *pl, uint16_t plen)
{
	memset(fc, 0, sizeof(*fc));
	fc->r_ctl = r_ctl;
	fc->type = FCR_TYPE_ELS;
	fc->d_id = d_id;
	fc->s_id = s_id;
	fc->f_ctl = r_ctl == FCR_RCTL_ELS_REQ ? 0x290000u : 0x990000u;
	fc->ox_id = 0x1234;
	fc->rx_id = r_ctl == FCR_RCTL_ELS_REQ ? 0xFFFF : 0x5678;
	fc->payload = pl;
	fc->payload_len = plen;
}

static void
test_fip_flogi_request_layout(void **state)
{
	static const uint8_t mac[6] = { 0x0e, 0xfc, 0x00, 0xff, 0xff, 0xfe };
	uint8_t buf[512], sp[FCR_ELS_SPARM_LEN];
	struct fcr_l2_spec l2;
	struct fcr_fc_spec fc;
	struct fcr_fip_spec fip = { .subcode = FCR_FIP_SC_REQ,
				    .desc_type = FCR_FIP_DT_FLOGI,
				    .flags = 0x8000 };
	struct fip_view v;
	const uint8_t *d;
	size_t len;
	int tagged;

	(void)state;
	memcpy(fip.mac, mac, 6);
	fcr_els_sparm(sp, FCR_ELS_FLOGI, 0x21000024ff3a5b01ull, 0x20000024ff3a5b01ull);
	els_spec(&fc, FCR_RCTL_ELS_REQ, FCR_FCID_FLOGI, 0, sp, sizeof(sp));
	for (tagged = 0; tagged < 2; tagged++) {
		tu_l2(&l2, tagged);
		memset(buf, CANARY, sizeof(buf));
		len = fcr_build_fip_ls(buf, sizeof(buf), &l2, &fip, &fc);
		/* Ethernet (+tag) + FIP header + FLOGI descriptor (4 + 24 +
		 * 116) + MAC descriptor (8) */
		assert_int_equal(len, (tagged ? 18 : 14) + 10 + 144 + 8);
		assert_all(buf + len, sizeof(buf) - len, CANARY);
		v = check_fip_header(buf, len, tagged, FCR_FIP_SC_REQ, 0x8000);
		assert_int_equal(fcr_get_be16(v.h + 6), (144 + 8) / 4);
		d = v.h + FCR_FIP_HLEN;
		assert_int_equal(d[0], 7);             /* FLOGI descriptor */
		assert_int_equal(d[1], 144 / 4);       /* its length in words */
		assert_int_equal(d[2], 0);
		assert_int_equal(d[3], 0);
		check_fc_header(d + 4, &fc);
		assert_memory_equal(d + 4 + 24, sp, sizeof(sp));
		d += 144;
		assert_int_equal(d[0], 2);             /* MAC descriptor */
		assert_int_equal(d[1], 2);
		assert_memory_equal(d + 2, mac, 6);
		assert_ptr_equal(d + 8, buf + len);
	}
}

static void
test_fip_reply_and_logo_layout(void **state)
{
	static const uint8_t mac[6] = { 0x0e, 0xfc, 0x00, 0x01, 0x02, 0x03 };
	uint8_t buf[512], pl[FCR_ELS_SPARM_LEN];
	struct fcr_l2_spec l2;
	struct fcr_fc_spec fc;
	struct fcr_fip_spec fip = { .subcode = FCR_FIP_SC_REP,
				    .desc_type = FCR_FIP_DT_FDISC };
	struct fip_view v;
	const uint8_t *d;
	size_t len;

	(void)state;
	memcpy(fip.mac, mac, 6);
	tu_l2(&l2, 1);
	/* FDISC reply: LS_ACC with service parameters */
	fcr_els_sparm(pl, FCR_ELS_LS_ACC, 1, 2);
	els_spec(&fc, FCR_RCTL_ELS_REP, 0x010203, FCR_FCID_FLOGI, pl, sizeof(pl));
	len = fcr_build_fip_ls(buf, sizeof(buf), &l2, &fip, &fc);
	v = check_fip_header(buf, len, 1, FCR_FIP_SC_REP, 0);
	d = v.h + FCR_FIP_HLEN;
	assert_int_equal(d[0], 8);
	assert_int_equal(d[1], 36);
	check_fc_header(d + 4, &fc);
	assert_int_equal(d[4 + 24], FCR_ELS_LS_ACC);
	assert_int_equal(d[144], 2);
	assert_memory_equal(d + 146, mac, 6);

	/* LOGO request: 16-byte payload, descriptor 9 of 11 words */
	fcr_els_logo(pl, 0x010203, 0x21000024ff3a5b01ull);
	fip.subcode = FCR_FIP_SC_REQ;
	fip.desc_type = FCR_FIP_DT_LOGO;
	els_spec(&fc, FCR_RCTL_ELS_REQ, FCR_FCID_FLOGI, 0x010203, pl,
		 FCR_ELS_LOGO_LEN);
	len = fcr_build_fip_ls(buf, sizeof(buf), &l2, &fip, &fc);
	assert_int_equal(len, 18 + 10 + 44 + 8);
	v = check_fip_header(buf, len, 1, FCR_FIP_SC_REQ, 0);
	d = v.h + FCR_FIP_HLEN;
	assert_int_equal(d[0], 9);
	assert_int_equal(d[1], 11);
	assert_memory_equal(d + 28, pl, 16);
	assert_int_equal(d[44], 2);
}

/* A payload that is not whole words is padded with zeros, and the
 * descriptor length counts the padding. */
static void
test_fip_pads_payload_to_whole_words(void **state)
{
	uint8_t buf[512];
	struct fcr_l2_spec l2;
	struct fcr_fc_spec fc;
	struct fcr_fip_spec fip = { .subcode = FCR_FIP_SC_REP,
				    .desc_type = FCR_FIP_DT_LOGO };
	const uint8_t *d;
	uint32_t plen, padded;
	size_t len;

	(void)state;
	tu_l2(&l2, 0);
	for (plen = 0; plen <= 40; plen++) {
		padded = plen + fill_of(plen);
		els_spec(&fc, FCR_RCTL_ELS_REP, 1, 2, payload, (uint16_t)plen);
		memset(buf, CANARY, sizeof(buf));
		len = fcr_build_fip_ls(buf, sizeof(buf), &l2, &fip, &fc);
		assert_int_equal(len, 14 + 10 + 28 + padded + 8);
		check_fip_header(buf, len, 0, FCR_FIP_SC_REP, 0);
		d = buf + 24;
		assert_int_equal(d[1] * 4, 28 + padded);
		if (plen)
			assert_memory_equal(d + 28, payload, plen);
		assert_all(d + 28 + plen, padded - plen, 0);
		/* the FC header in FIP carries no fill count */
		assert_int_equal(fcr_get_be24(d + 4 + 9) & 3, 0);
		assert_int_equal(d[28 + padded], 2);
	}
}

static void
test_fip_returns_0_when_cap_too_small_or_payload_over_2112(void **state)
{
	static uint8_t buf[8192];
	uint8_t sp[FCR_ELS_SPARM_LEN];
	struct fcr_l2_spec l2;
	struct fcr_fc_spec fc;
	struct fcr_fip_spec fip = { .subcode = FCR_FIP_SC_REQ,
				    .desc_type = FCR_FIP_DT_FLOGI };
	size_t want;

	(void)state;
	fcr_els_sparm(sp, FCR_ELS_FLOGI, 1, 2);
	els_spec(&fc, FCR_RCTL_ELS_REQ, FCR_FCID_FLOGI, 0, sp, sizeof(sp));
	tu_l2(&l2, 1);
	want = fcr_build_fip_ls(buf, sizeof(buf), &l2, &fip, &fc);
	assert_int_equal(want, 180);
	memset(buf, CANARY, sizeof(buf));
	assert_int_equal(fcr_build_fip_ls(buf, want - 1, &l2, &fip, &fc), 0);
	assert_int_equal(fcr_build_fip_ls(buf, 0, &l2, &fip, &fc), 0);
	assert_all(buf, sizeof(buf), CANARY);
	assert_int_equal(fcr_build_fip_ls(buf, want, &l2, &fip, &fc), want);

	els_spec(&fc, FCR_RCTL_ELS_REQ, FCR_FCID_FLOGI, 0, payload, 2113);
	assert_int_equal(fcr_build_fip_ls(buf, sizeof(buf), &l2, &fip, &fc), 0);
}

/*
 * A FIP descriptor's length is one byte of words (at most 1020 bytes), so an
 * ELS descriptor can hold at most 1020 - 28 = 992 payload bytes. The builder
 * must refuse larger payloads (return 0) rather than write a descriptor
 * length that wrapped around modulo 256 words.
 */
static void
test_fip_never_writes_a_wrapped_descriptor_length(void **state)
{
	static uint8_t buf[8192];
	struct fcr_l2_spec l2;
	struct fcr_fc_spec fc;
	struct fcr_fip_spec fip = { .subcode = FCR_FIP_SC_REQ,
				    .desc_type = FCR_FIP_DT_FLOGI };
	uint32_t plen, bad = 0, first_bad = 0;
	size_t len;

	(void)state;
	tu_l2(&l2, 1);
	for (plen = 0; plen <= FCR_FC_MAX_PAYLOAD; plen++) {
		els_spec(&fc, FCR_RCTL_ELS_REQ, FCR_FCID_FLOGI, 0, payload,
			 (uint16_t)plen);
		len = fcr_build_fip_ls(buf, sizeof(buf), &l2, &fip, &fc);
		if (plen + fill_of(plen) <= 992)
			assert_true(len > 0);
		if (len == 0)
			continue;
		/* descriptor length must describe the bytes written */
		if ((uint32_t)buf[18 + 10 + 1] * 4 != 28 + plen + fill_of(plen)) {
			if (!bad++)
				first_bad = plen;
		}
	}
	if (bad)
		fail_msg("%u payload sizes (from %u up) built with a wrapped FIP "
			 "descriptor length", bad, first_bad);
}

/* ----------------------------------------------------- ELS payloads */

static void
test_els_sparm_field_positions(void **state)
{
	uint8_t p[FCR_ELS_SPARM_LEN + 16];
	static const uint8_t cmds[] = { FCR_ELS_FLOGI, FCR_ELS_FDISC,
					FCR_ELS_PLOGI, FCR_ELS_LS_ACC };
	/* 21:00:00:24:ff:3a:5b:01 and 20:00:00:24:ff:3a:5b:01 */
	static const uint8_t wwpn[8] = { 0x21, 0, 0, 0x24, 0xff, 0x3a, 0x5b, 0x01 };
	static const uint8_t wwnn[8] = { 0x20, 0, 0, 0x24, 0xff, 0x3a, 0x5b, 0x01 };
	unsigned int i, k;

	(void)state;
	for (i = 0; i < sizeof(cmds); i++) {
		memset(p, CANARY, sizeof(p));
		assert_int_equal(fcr_els_sparm(p, cmds[i], 0x21000024ff3a5b01ull,
					       0x20000024ff3a5b01ull),
				 FCR_ELS_SPARM_LEN);
		assert_int_equal(FCR_ELS_SPARM_LEN, 116);
		assert_int_equal(p[0], cmds[i]);
		assert_int_equal(p[1], 0);
		assert_int_equal(p[2], 0);
		assert_int_equal(p[3], 0);
		/* WWPN at 20, WWNN at 28, big-endian */
		assert_memory_equal(p + 20, wwpn, 8);
		assert_memory_equal(p + 28, wwnn, 8);
		/* common service parameters: receive size 2112, class 3 valid */
		assert_int_equal(fcr_get_be16(p + 10), 2112);
		assert_int_equal(p[68] & 0x80, 0x80);
		/* every byte written (no canary left), nothing past the end */
		for (k = 0; k < FCR_ELS_SPARM_LEN; k++)
			assert_int_not_equal(p[k], CANARY);
		assert_all(p + FCR_ELS_SPARM_LEN, 16, CANARY);
	}
}

static void
test_els_logo_field_positions(void **state)
{
	uint8_t p[FCR_ELS_LOGO_LEN + 8];

	(void)state;
	memset(p, CANARY, sizeof(p));
	assert_int_equal(fcr_els_logo(p, 0x0a0b0c, 0x21000024ff3a5b01ull),
			 FCR_ELS_LOGO_LEN);
	assert_int_equal(FCR_ELS_LOGO_LEN, 16);
	assert_int_equal(p[0], FCR_ELS_LOGO);
	assert_all(p + 1, 4, 0);
	assert_int_equal(p[5], 0x0a);
	assert_int_equal(p[6], 0x0b);
	assert_int_equal(p[7], 0x0c);
	assert_int_equal(p[8], 0x21);
	assert_int_equal(p[11], 0x24);
	assert_int_equal(p[12], 0xff);
	assert_int_equal(p[15], 0x01);
	assert_all(p + 16, 8, CANARY);
}

static void
test_fpma_is_fc_map_then_fcid(void **state)
{
	static const uint8_t want1[6] = { 0x0e, 0xfc, 0x00, 0x01, 0x02, 0x03 };
	static const uint8_t want2[6] = { 0x0e, 0xfc, 0x2a, 0xab, 0xcd, 0xef };
	uint8_t mac[8];

	(void)state;
	memset(mac, CANARY, sizeof(mac));
	fcr_fpma(mac, FCR_FC_MAP_DEFAULT, 0x010203);
	assert_memory_equal(mac, want1, 6);
	assert_all(mac + 6, 2, CANARY);
	fcr_fpma(mac, 0x0EFC2A, 0xABCDEF);
	assert_memory_equal(mac, want2, 6);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fcoe_exact_length_fill_and_crc_every_payload_size),
		cmocka_unit_test(test_fcoe_tagged_frame_is_byte_exact),
		cmocka_unit_test(test_fcoe_vlan_and_pcp_are_masked_into_the_tci),
		cmocka_unit_test(test_fcoe_defaults_sofi3_eoft_and_keeps_explicit_codes),
		cmocka_unit_test(test_fcoe_header_fields_round_trip_through_the_parser),
		cmocka_unit_test(test_fcoe_returns_0_and_writes_nothing_when_cap_too_small),
		cmocka_unit_test(test_fcoe_returns_0_when_payload_over_2112),
		cmocka_unit_test(test_fip_flogi_request_layout),
		cmocka_unit_test(test_fip_reply_and_logo_layout),
		cmocka_unit_test(test_fip_pads_payload_to_whole_words),
		cmocka_unit_test(test_fip_returns_0_when_cap_too_small_or_payload_over_2112),
		cmocka_unit_test(test_fip_never_writes_a_wrapped_descriptor_length),
		cmocka_unit_test(test_els_sparm_field_positions),
		cmocka_unit_test(test_els_logo_field_positions),
		cmocka_unit_test(test_fpma_is_fc_map_then_fcid),
	};

	fcr_crc_init();
	return cmocka_run_group_tests(tests, setup_payload, NULL);
}
