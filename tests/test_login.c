/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Login recognition: FLOGI/FDISC/PLOGI/LOGO and their replies in FCoE and
 * FIP frames, frames with nothing to learn, and payloads that are short or
 * lie about their lengths (rejected with a reason, never read past the end).
 */
#include <signal.h>

#include "fcr_login.h"
#include "test_util.h"

#define WWPN_H 0x21000024ff3a5b01ull /* host */
#define WWNN_H 0x20000024ff3a5b01ull
#define WWPN_F 0x2001000dec1a2b3cull /* fabric port */
#define WWNN_F 0x1001000dec1a2b3cull
#define FCID_H 0x0a0b0cu             /* granted to the host */
#define OX 0x4321
#define RX 0x8765

static const uint8_t mac_req[6] = { 0x0e, 0xfc, 0x00, 0xff, 0xff, 0xfe };
static const uint8_t mac_granted[6] = { 0x0e, 0xfc, 0x00, 0x0a, 0x0b, 0x0c };

static uint32_t
hoff_of(int tagged)
{
	return tagged ? 18 : 14;
}

static void
els_spec(struct fcr_fc_spec *fc, uint8_t r_ctl, uint32_t d_id, uint32_t s_id,
	 const uint8_t *pl, uint16_t plen)
{
	memset(fc, 0, sizeof(*fc));
	fc->sof = FCR_SOF_I3;
	fc->eof = FCR_EOF_T;
	fc->r_ctl = r_ctl;
	fc->type = FCR_TYPE_ELS;
	fc->d_id = d_id;
	fc->s_id = s_id;
	fc->f_ctl = r_ctl == FCR_RCTL_ELS_REQ ? 0x290000u : 0x990000u;
	fc->ox_id = OX;
	fc->rx_id = r_ctl == FCR_RCTL_ELS_REQ ? 0xFFFF : RX;
	fc->payload = pl;
	fc->payload_len = plen;
}

/* An ELS in an FCoE frame. */
static uint32_t
fcoe_els(uint8_t *buf, size_t cap, int tagged, uint8_t r_ctl, uint32_t d_id,
	 uint32_t s_id, const uint8_t *pl, uint16_t plen)
{
	struct fcr_l2_spec l2;
	struct fcr_fc_spec fc;
	size_t n;

	tu_l2(&l2, tagged);
	els_spec(&fc, r_ctl, d_id, s_id, pl, plen);
	n = fcr_build_fcoe(buf, cap, &l2, &fc);
	assert_true(n > 0);
	return (uint32_t)n;
}

/* An ELS in a FIP link-service frame. */
static uint32_t
fip_els(uint8_t *buf, size_t cap, int tagged, uint8_t subcode, uint8_t dtype,
	const uint8_t mac[6], uint8_t r_ctl, uint32_t d_id, uint32_t s_id,
	const uint8_t *pl, uint16_t plen)
{
	struct fcr_l2_spec l2;
	struct fcr_fc_spec fc;
	struct fcr_fip_spec fip;
	size_t n;

	tu_l2(&l2, tagged);
	memset(&fip, 0, sizeof(fip));
	fip.subcode = subcode;
	fip.desc_type = dtype;
	fip.flags = 0x8000;
	memcpy(fip.mac, mac, 6);
	els_spec(&fc, r_ctl, d_id, s_id, pl, plen);
	n = fcr_build_fip_ls(buf, cap, &l2, &fip, &fc);
	assert_true(n > 0);
	return (uint32_t)n;
}

/* A FIP frame from raw descriptors. */
static uint32_t
fip_raw(uint8_t *buf, int tagged, uint16_t op, uint8_t sub,
	const uint8_t *desc, uint32_t dlen)
{
	uint32_t h = hoff_of(tagged);

	memcpy(buf, tu_mac_dst, 6);
	memcpy(buf + 6, tu_mac_src, 6);
	if (tagged) {
		fcr_put_be16(buf + 12, FCR_ETHERTYPE_VLAN);
		fcr_put_be16(buf + 14, TU_PCP << 13 | TU_VLAN);
	}
	fcr_put_be16(buf + h - 2, FCR_ETHERTYPE_FIP);
	memset(buf + h, 0, FCR_FIP_HLEN);
	buf[h] = FCR_FIP_VERSION;
	fcr_put_be16(buf + h + 2, op);
	buf[h + 5] = sub;
	fcr_put_be16(buf + h + 6, (uint16_t)(dlen / 4));
	memcpy(buf + h + FCR_FIP_HLEN, desc, dlen);
	return h + FCR_FIP_HLEN + dlen;
}

static void
check_common(const struct fcr_login *l, int tagged)
{
	assert_int_equal(l->vlan, tagged ? TU_VLAN : 0);
	assert_memory_equal(l->eth_dst, tu_mac_dst, 6);
	assert_memory_equal(l->eth_src, tu_mac_src, 6);
}

/* ------------------------------------------------------------- FCoE */

static void
test_fcoe_flogi_fdisc_plogi_requests_give_kind_ids_and_wwpn(void **state)
{
	static const struct {
		uint8_t cmd, kind;
		uint32_t d_id, s_id;
		const char *name;
	} t[] = {
		{ FCR_ELS_FLOGI, FCR_LOGIN_FLOGI, FCR_FCID_FLOGI, 0, "flogi" },
		{ FCR_ELS_FDISC, FCR_LOGIN_FDISC, FCR_FCID_FLOGI, 0, "fdisc" },
		{ FCR_ELS_PLOGI, FCR_LOGIN_PLOGI, 0x010203, FCID_H, "plogi" },
	};
	uint8_t buf[256], sp[FCR_ELS_SPARM_LEN];
	struct fcr_login l;
	uint32_t len, i;
	int tagged;

	(void)state;
	for (tagged = 0; tagged < 2; tagged++) {
		for (i = 0; i < 3; i++) {
			fcr_els_sparm(sp, t[i].cmd, WWPN_H, WWNN_H);
			len = fcoe_els(buf, sizeof(buf), tagged, FCR_RCTL_ELS_REQ,
				       t[i].d_id, t[i].s_id, sp, sizeof(sp));
			memset(&l, 0xA5, sizeof(l));
			expect_reason(fcr_login_parse(buf, len, &l), FCR_R_OK, "ok");
			assert_int_equal(l.kind, t[i].kind);
			assert_string_equal(fcr_login_kind_name(l.kind), t[i].name);
			assert_int_equal(l.answers, FCR_LOGIN_NONE);
			assert_int_equal(l.via_fip, 0);
			assert_int_equal(l.has_wwpn, 1);
			assert_int_equal(l.has_mac, 0);
			assert_int_equal(l.wwpn, WWPN_H);
			assert_int_equal(l.wwnn, WWNN_H);
			assert_int_equal(l.d_id, t[i].d_id);
			assert_int_equal(l.s_id, t[i].s_id);
			assert_int_equal(l.ox_id, OX);
			assert_int_equal(l.rx_id, 0xFFFF);
			assert_int_equal(l.port_id, 0);
			check_common(&l, tagged);
		}
	}
}

static void
test_fcoe_ls_acc_gives_wwpn_at_payload_20_and_ids(void **state)
{
	uint8_t buf[256], sp[FCR_ELS_SPARM_LEN];
	struct fcr_login l;
	uint32_t len;
	int tagged;

	(void)state;
	for (tagged = 0; tagged < 2; tagged++) {
		/* the fabric's LS_ACC to FLOGI goes to the new FCID */
		fcr_els_sparm(sp, FCR_ELS_LS_ACC, WWPN_F, WWNN_F);
		len = fcoe_els(buf, sizeof(buf), tagged, FCR_RCTL_ELS_REP, FCID_H,
			       FCR_FCID_FLOGI, sp, sizeof(sp));
		expect_reason(fcr_login_parse(buf, len, &l), FCR_R_OK, "ok");
		assert_int_equal(l.kind, FCR_LOGIN_ACC);
		assert_string_equal(fcr_login_kind_name(l.kind), "ls_acc");
		assert_int_equal(l.has_wwpn, 1);
		assert_int_equal(l.wwpn, WWPN_F);
		assert_int_equal(l.wwnn, WWNN_F);
		assert_int_equal(l.d_id, FCID_H);
		assert_int_equal(l.s_id, FCR_FCID_FLOGI);
		assert_int_equal(l.ox_id, OX);
		assert_int_equal(l.rx_id, RX);
		assert_int_equal(l.via_fip, 0);
		check_common(&l, tagged);

		/* LS_ACC to a LOGO: 4 bytes, no service parameters */
		sp[0] = FCR_ELS_LS_ACC;
		sp[1] = sp[2] = sp[3] = 0;
		len = fcoe_els(buf, sizeof(buf), tagged, FCR_RCTL_ELS_REP, FCID_H,
			       0x010203, sp, 4);
		expect_reason(fcr_login_parse(buf, len, &l), FCR_R_OK, "ok");
		assert_int_equal(l.kind, FCR_LOGIN_ACC);
		assert_int_equal(l.has_wwpn, 0);
		assert_int_equal(l.wwpn, 0);
	}
}

static void
test_fcoe_logo_gives_port_id_and_wwpn(void **state)
{
	uint8_t buf[256], pl[FCR_ELS_LOGO_LEN];
	struct fcr_login l;
	uint32_t len;
	int tagged;

	(void)state;
	for (tagged = 0; tagged < 2; tagged++) {
		fcr_els_logo(pl, FCID_H, WWPN_H);
		len = fcoe_els(buf, sizeof(buf), tagged, FCR_RCTL_ELS_REQ,
			       FCR_FCID_FLOGI, FCID_H, pl, sizeof(pl));
		expect_reason(fcr_login_parse(buf, len, &l), FCR_R_OK, "ok");
		assert_int_equal(l.kind, FCR_LOGIN_LOGO);
		assert_string_equal(fcr_login_kind_name(l.kind), "logo");
		assert_int_equal(l.port_id, FCID_H);
		assert_int_equal(l.has_wwpn, 1);
		assert_int_equal(l.wwpn, WWPN_H);
		assert_int_equal(l.s_id, FCID_H);
		assert_int_equal(l.d_id, FCR_FCID_FLOGI);
		assert_int_equal(l.ox_id, OX);
		check_common(&l, tagged);
	}
}

static void
test_fcoe_ls_rjt_is_recognised(void **state)
{
	static const uint8_t rjt[8] = { FCR_ELS_LS_RJT, 0, 0, 0, 0, 0x09, 0x29, 0 };
	uint8_t buf[256];
	struct fcr_login l;
	uint32_t len;
	int tagged;

	(void)state;
	for (tagged = 0; tagged < 2; tagged++) {
		len = fcoe_els(buf, sizeof(buf), tagged, FCR_RCTL_ELS_REP, 0,
			       FCR_FCID_FLOGI, rjt, sizeof(rjt));
		expect_reason(fcr_login_parse(buf, len, &l), FCR_R_OK, "ok");
		assert_int_equal(l.kind, FCR_LOGIN_RJT);
		assert_string_equal(fcr_login_kind_name(l.kind), "ls_rjt");
		assert_int_equal(l.has_wwpn, 0);
		assert_int_equal(l.ox_id, OX);
		assert_int_equal(l.rx_id, RX);
		check_common(&l, tagged);
	}
}

static void
test_non_login_frames_give_kind_none(void **state)
{
	static const struct {
		uint8_t r_ctl, type, cmd;
	} t[] = {
		{ FCR_RCTL_ELS_REQ, FCR_TYPE_ELS, FCR_ELS_PRLI },
		{ FCR_RCTL_ELS_REQ, FCR_TYPE_ELS, 0x21 },  /* PRLO */
		{ FCR_RCTL_ELS_REQ, FCR_TYPE_ELS, 0x52 },  /* ADISC */
		{ FCR_RCTL_ELS_REQ, FCR_TYPE_ELS, 0x12 },  /* RRQ */
		{ FCR_RCTL_ELS_REP, FCR_TYPE_ELS, 0x20 },  /* not ACC/RJT */
		{ FCR_RCTL_FCP_CMND, FCR_TYPE_FCP, FCR_ELS_FLOGI },
		{ FCR_RCTL_FCP_DATA, FCR_TYPE_FCP, FCR_ELS_PLOGI },
		{ FCR_RCTL_FCP_RSP, FCR_TYPE_FCP, FCR_ELS_LS_ACC },
		{ FCR_RCTL_BA_ABTS, FCR_TYPE_BLS, FCR_ELS_LOGO },
		/* FLOGI code but wrong R_CTL or TYPE */
		{ FCR_RCTL_FCP_DATA, FCR_TYPE_ELS, FCR_ELS_FLOGI },
		{ FCR_RCTL_ELS_REQ, FCR_TYPE_FCP, FCR_ELS_FLOGI },
	};
	uint8_t buf[256], pl[FCR_ELS_SPARM_LEN];
	struct fcr_l2_spec l2;
	struct fcr_fc_spec fc;
	struct fcr_login l;
	uint32_t len, i;
	int tagged;

	(void)state;
	for (tagged = 0; tagged < 2; tagged++) {
		tu_l2(&l2, tagged);
		for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
			fcr_els_sparm(pl, t[i].cmd, WWPN_H, WWNN_H);
			els_spec(&fc, t[i].r_ctl, 0x010203, FCID_H, pl, sizeof(pl));
			fc.type = t[i].type;
			len = (uint32_t)fcr_build_fcoe(buf, sizeof(buf), &l2, &fc);
			memset(&l, 0xA5, sizeof(l));
			expect_reason(fcr_login_parse(buf, len, &l), FCR_R_OK, "ok");
			assert_int_equal(l.kind, FCR_LOGIN_NONE);
			assert_string_equal(fcr_login_kind_name(l.kind), "none");
			assert_int_equal(l.has_wwpn, 0);
			assert_int_equal(l.wwpn, 0);
			assert_int_equal(l.via_fip, 0);
			assert_int_equal(l.d_id, 0x010203);
			assert_int_equal(l.s_id, FCID_H);
		}
		/* not FCoE at all */
		fcr_put_be16(buf + hoff_of(tagged) - 2, 0x0800);
		expect_reason(fcr_login_parse(buf, len, &l), FCR_R_OK, "ok");
		assert_int_equal(l.kind, FCR_LOGIN_NONE);
		assert_int_equal(l.has_wwpn, 0);
	}
}

static void
test_fcoe_flogi_fdisc_plogi_under_36_bytes_is_trunc_payload(void **state)
{
	static const uint8_t cmds[] = { FCR_ELS_FLOGI, FCR_ELS_FDISC, FCR_ELS_PLOGI };
	uint8_t buf[256], sp[FCR_ELS_SPARM_LEN];
	struct fcr_login l;
	uint32_t len, plen, i;

	(void)state;
	for (i = 0; i < sizeof(cmds); i++) {
		fcr_els_sparm(sp, cmds[i], WWPN_H, WWNN_H);
		for (plen = 0; plen < 36; plen++) {
			len = fcoe_els(buf, sizeof(buf), (int)(plen & 1),
				       FCR_RCTL_ELS_REQ, FCR_FCID_FLOGI, 0, sp,
				       (uint16_t)plen);
			expect_reason(fcr_login_parse(buf, len, &l),
				      FCR_R_TRUNC_PAYLOAD, "trunc_payload");
		}
		len = fcoe_els(buf, sizeof(buf), 1, FCR_RCTL_ELS_REQ,
			       FCR_FCID_FLOGI, 0, sp, 36);
		expect_reason(fcr_login_parse(buf, len, &l), FCR_R_OK, "ok");
		assert_int_equal(l.wwpn, WWPN_H);
		assert_int_equal(l.wwnn, WWNN_H);
	}
}

static void
test_fcoe_logo_under_16_bytes_is_trunc_payload(void **state)
{
	uint8_t buf[256], pl[FCR_ELS_LOGO_LEN];
	struct fcr_login l;
	uint32_t len, plen;

	(void)state;
	fcr_els_logo(pl, FCID_H, WWPN_H);
	for (plen = 0; plen < 16; plen++) {
		len = fcoe_els(buf, sizeof(buf), (int)(plen & 1), FCR_RCTL_ELS_REQ,
			       FCR_FCID_FLOGI, FCID_H, pl, (uint16_t)plen);
		expect_reason(fcr_login_parse(buf, len, &l), FCR_R_TRUNC_PAYLOAD,
			      "trunc_payload");
	}
	len = fcoe_els(buf, sizeof(buf), 0, FCR_RCTL_ELS_REQ, FCR_FCID_FLOGI,
		       FCID_H, pl, 16);
	expect_reason(fcr_login_parse(buf, len, &l), FCR_R_OK, "ok");
	assert_int_equal(l.port_id, FCID_H);
}

/* fcr_login_from_els reads at most min(avail, payload_len) bytes. */
static void
test_from_els_reads_no_more_than_avail_or_payload_len(void **state)
{
	uint8_t buf[256], sp[FCR_ELS_SPARM_LEN];
	struct fcr_frame f;
	struct fcr_login l;
	struct tu_guard g;
	const uint8_t *p;
	uint32_t len, avail;

	(void)state;
	fcr_els_sparm(sp, FCR_ELS_FLOGI, WWPN_H, WWNN_H);
	len = fcoe_els(buf, sizeof(buf), 1, FCR_RCTL_ELS_REQ, FCR_FCID_FLOGI, 0,
		       sp, sizeof(sp));
	expect_reason(fcr_frame_parse(buf, len, &f), FCR_R_OK, "ok");
	tu_guard_init(&g);
	/* the caller has only `avail` bytes of the payload */
	for (avail = 0; avail <= FCR_ELS_SPARM_LEN; avail++) {
		p = tu_guard_place(&g, buf + f.fc_off + FCR_FC_HLEN, avail);
		expect_reason(fcr_login_from_els(&f, p, avail, &l),
			      avail < 36 ? FCR_R_TRUNC_PAYLOAD : FCR_R_OK,
			      avail < 36 ? "trunc_payload" : "ok");
		if (avail >= 36) {
			assert_int_equal(l.kind, FCR_LOGIN_FLOGI);
			assert_int_equal(l.wwpn, WWPN_H);
			assert_int_equal(l.vlan, TU_VLAN);
			assert_int_equal(l.d_id, FCR_FCID_FLOGI);
			assert_int_equal(l.ox_id, OX);
		}
	}
	/* a frame whose payload is 20 bytes, with a caller claiming 4096
	 * available: only the 20 are read, and 20 is too short */
	len = fcoe_els(buf, sizeof(buf), 1, FCR_RCTL_ELS_REQ, FCR_FCID_FLOGI, 0,
		       sp, 20);
	expect_reason(fcr_frame_parse(buf, len, &f), FCR_R_OK, "ok");
	p = tu_guard_place(&g, buf + f.fc_off + FCR_FC_HLEN, 20);
	expect_reason(fcr_login_from_els(&f, p, 4096, &l), FCR_R_TRUNC_PAYLOAD,
		      "trunc_payload");
	tu_guard_fini(&g);
}

static void
test_invalid_fcoe_gives_the_parser_reason(void **state)
{
	uint8_t buf[256], sp[FCR_ELS_SPARM_LEN];
	struct fcr_login l;
	uint32_t len, k;

	(void)state;
	fcr_els_sparm(sp, FCR_ELS_FLOGI, WWPN_H, WWNN_H);
	len = fcoe_els(buf, sizeof(buf), 1, FCR_RCTL_ELS_REQ, FCR_FCID_FLOGI, 0,
		       sp, sizeof(sp));
	buf[31] = 0x00; /* SOF */
	expect_reason(fcr_login_parse(buf, len, &l), FCR_R_BAD_SOF, "bad_sof");
	buf[31] = FCR_SOF_I3;
	buf[len - 4] = 0x00; /* EOF */
	expect_reason(fcr_login_parse(buf, len, &l), FCR_R_BAD_EOF, "bad_eof");
	buf[len - 4] = FCR_EOF_T;
	/* cut inside the trailer: whatever the parser says, login says */
	for (k = 1; k < 8; k++) {
		struct fcr_frame f;
		enum fcr_reason r = fcr_frame_parse(buf, len - k, &f);

		assert_int_not_equal(r, FCR_R_OK);
		expect_reason(fcr_login_parse(buf, len - k, &l), r,
			      fcr_reason_name(r));
	}
	expect_reason(fcr_login_parse(buf, 10, &l), FCR_R_RUNT, "runt");
	expect_reason(fcr_login_parse(buf, 16, &l), FCR_R_TRUNC_VLAN, "trunc_vlan");
	expect_reason(fcr_login_parse(buf, 40, &l), FCR_R_TRUNC_FC_HDR, "trunc_fc_hdr");
	buf[18] = 0x10;
	expect_reason(fcr_login_parse(buf, len, &l), FCR_R_BAD_VERSION, "bad_version");
}

/* -------------------------------------------------------------- FIP */

static void
test_fip_flogi_and_fdisc_requests_give_kind_mac_and_wwpn(void **state)
{
	static const struct {
		uint8_t dtype, cmd, kind;
	} t[] = {
		{ FCR_FIP_DT_FLOGI, FCR_ELS_FLOGI, FCR_LOGIN_FLOGI },
		{ FCR_FIP_DT_FDISC, FCR_ELS_FDISC, FCR_LOGIN_FDISC },
	};
	uint8_t buf[512], sp[FCR_ELS_SPARM_LEN];
	struct fcr_login l;
	uint32_t len, i;
	int tagged;

	(void)state;
	for (tagged = 0; tagged < 2; tagged++) {
		for (i = 0; i < 2; i++) {
			fcr_els_sparm(sp, t[i].cmd, WWPN_H, WWNN_H);
			len = fip_els(buf, sizeof(buf), tagged, FCR_FIP_SC_REQ,
				      t[i].dtype, mac_req, FCR_RCTL_ELS_REQ,
				      FCR_FCID_FLOGI, 0, sp, sizeof(sp));
			memset(&l, 0xA5, sizeof(l));
			expect_reason(fcr_login_parse(buf, len, &l), FCR_R_OK, "ok");
			assert_int_equal(l.kind, t[i].kind);
			assert_int_equal(l.answers, FCR_LOGIN_NONE);
			assert_int_equal(l.via_fip, 1);
			assert_int_equal(l.has_mac, 1);
			assert_memory_equal(l.mac, mac_req, 6);
			assert_int_equal(l.has_wwpn, 1);
			assert_int_equal(l.wwpn, WWPN_H);
			assert_int_equal(l.wwnn, WWNN_H);
			assert_int_equal(l.d_id, FCR_FCID_FLOGI);
			assert_int_equal(l.s_id, 0);
			assert_int_equal(l.ox_id, OX);
			assert_int_equal(l.rx_id, 0xFFFF);
			check_common(&l, tagged);
		}
	}
}

/* The FCF's reply: LS_ACC inside, the granted MAC, and the granted FCID as
 * the D_ID of the encapsulated LS_ACC. */
static void
test_fip_flogi_and_fdisc_replies_give_answers_granted_mac_and_fcid(void **state)
{
	static const struct {
		uint8_t dtype, answers;
	} t[] = {
		{ FCR_FIP_DT_FLOGI, FCR_LOGIN_FLOGI },
		{ FCR_FIP_DT_FDISC, FCR_LOGIN_FDISC },
	};
	uint8_t buf[512], sp[FCR_ELS_SPARM_LEN], fpma[6];
	struct fcr_login l;
	uint32_t len, i;
	int tagged;

	(void)state;
	fcr_fpma(fpma, FCR_FC_MAP_DEFAULT, FCID_H);
	assert_memory_equal(fpma, mac_granted, 6);
	for (tagged = 0; tagged < 2; tagged++) {
		for (i = 0; i < 2; i++) {
			fcr_els_sparm(sp, FCR_ELS_LS_ACC, WWPN_F, WWNN_F);
			len = fip_els(buf, sizeof(buf), tagged, FCR_FIP_SC_REP,
				      t[i].dtype, mac_granted, FCR_RCTL_ELS_REP,
				      FCID_H, FCR_FCID_FLOGI, sp, sizeof(sp));
			expect_reason(fcr_login_parse(buf, len, &l), FCR_R_OK, "ok");
			assert_int_equal(l.kind, FCR_LOGIN_ACC);
			assert_int_equal(l.answers, t[i].answers);
			assert_int_equal(l.via_fip, 1);
			assert_int_equal(l.has_mac, 1);
			assert_memory_equal(l.mac, mac_granted, 6);
			assert_int_equal(l.d_id, FCID_H);
			assert_int_equal(l.s_id, FCR_FCID_FLOGI);
			assert_int_equal(l.has_wwpn, 1);
			assert_int_equal(l.wwpn, WWPN_F);
			assert_int_equal(l.ox_id, OX);
			assert_int_equal(l.rx_id, RX);
			check_common(&l, tagged);
		}
		/* a rejected FLOGI */
		memset(sp, 0, 8);
		sp[0] = FCR_ELS_LS_RJT;
		sp[5] = 0x09;
		len = fip_els(buf, sizeof(buf), tagged, FCR_FIP_SC_REP,
			      FCR_FIP_DT_FLOGI, mac_req, FCR_RCTL_ELS_REP, 0,
			      FCR_FCID_FLOGI, sp, 8);
		expect_reason(fcr_login_parse(buf, len, &l), FCR_R_OK, "ok");
		assert_int_equal(l.kind, FCR_LOGIN_RJT);
		assert_int_equal(l.answers, FCR_LOGIN_FLOGI);
		assert_int_equal(l.has_wwpn, 0);
	}
}

static void
test_fip_logo_request_and_reply(void **state)
{
	uint8_t buf[512], pl[FCR_ELS_LOGO_LEN];
	struct fcr_login l;
	uint32_t len;
	int tagged;

	(void)state;
	for (tagged = 0; tagged < 2; tagged++) {
		fcr_els_logo(pl, FCID_H, WWPN_H);
		len = fip_els(buf, sizeof(buf), tagged, FCR_FIP_SC_REQ,
			      FCR_FIP_DT_LOGO, mac_granted, FCR_RCTL_ELS_REQ,
			      FCR_FCID_FLOGI, FCID_H, pl, sizeof(pl));
		expect_reason(fcr_login_parse(buf, len, &l), FCR_R_OK, "ok");
		assert_int_equal(l.kind, FCR_LOGIN_LOGO);
		assert_int_equal(l.via_fip, 1);
		assert_int_equal(l.port_id, FCID_H);
		assert_int_equal(l.wwpn, WWPN_H);
		assert_int_equal(l.s_id, FCID_H);
		assert_int_equal(l.has_mac, 1);
		assert_memory_equal(l.mac, mac_granted, 6);
		check_common(&l, tagged);

		memset(pl, 0, 4);
		pl[0] = FCR_ELS_LS_ACC;
		len = fip_els(buf, sizeof(buf), tagged, FCR_FIP_SC_REP,
			      FCR_FIP_DT_LOGO, mac_granted, FCR_RCTL_ELS_REP,
			      FCID_H, FCR_FCID_FLOGI, pl, 4);
		expect_reason(fcr_login_parse(buf, len, &l), FCR_R_OK, "ok");
		assert_int_equal(l.kind, FCR_LOGIN_ACC);
		assert_int_equal(l.answers, FCR_LOGIN_LOGO);
		assert_int_equal(l.has_wwpn, 0);
		assert_int_equal(l.d_id, FCID_H);
	}
}

/* Ethernet padding after the descriptor list and descriptors of other
 * types (name identifier, max FCoE size) do not disturb the result. */
static void
test_fip_padding_and_unknown_descriptors_are_ignored(void **state)
{
	uint8_t buf[512], sp[FCR_ELS_SPARM_LEN], desc[256];
	struct fcr_login l;
	uint32_t len, h, n;

	(void)state;
	fcr_els_sparm(sp, FCR_ELS_FLOGI, WWPN_H, WWNN_H);
	len = fip_els(buf, sizeof(buf), 1, FCR_FIP_SC_REQ, FCR_FIP_DT_FLOGI,
		      mac_req, FCR_RCTL_ELS_REQ, FCR_FCID_FLOGI, 0, sp, sizeof(sp));
	memset(buf + len, 0, 40);
	expect_reason(fcr_login_parse(buf, len + 40, &l), FCR_R_OK, "ok");
	assert_int_equal(l.kind, FCR_LOGIN_FLOGI);
	assert_memory_equal(l.mac, mac_req, 6);

	/* MAC first, then name identifier (type 4, 3 words), max FCoE size
	 * (type 6, 1 word), then the FLOGI descriptor */
	h = hoff_of(1) + FCR_FIP_HLEN;
	n = 0;
	memcpy(desc + n, buf + h + 144, 8);
	n += 8;
	desc[n] = 4;
	desc[n + 1] = 3;
	memset(desc + n + 2, 0x77, 10);
	n += 12;
	desc[n] = 6;
	desc[n + 1] = 1;
	fcr_put_be16(desc + n + 2, 2158);
	n += 4;
	memcpy(desc + n, buf + h, 144);
	n += 144;
	len = fip_raw(buf, 1, FCR_FIP_OP_LS, FCR_FIP_SC_REQ, desc, n);
	expect_reason(fcr_login_parse(buf, len, &l), FCR_R_OK, "ok");
	assert_int_equal(l.kind, FCR_LOGIN_FLOGI);
	assert_int_equal(l.has_mac, 1);
	assert_memory_equal(l.mac, mac_req, 6);
	assert_int_equal(l.wwpn, WWPN_H);
}

static void
test_fip_discovery_keepalive_and_vlan_give_their_kind(void **state)
{
	static const struct {
		uint16_t op;
		uint8_t sub;
		uint8_t kind;
	} t[] = {
		{ 0x0001, 1, FCR_LOGIN_NONE },  /* discovery solicitation */
		{ 0x0001, 2, FCR_LOGIN_ADV },   /* advertisement: the FCF's MAC */
		{ 0x0003, 1, FCR_LOGIN_KA },    /* keep-alive: the ENode's MAC */
		{ 0x0003, 2, FCR_LOGIN_NONE },  /* clear virtual links naming no VN_Port */
		{ 0x0004, 1, FCR_LOGIN_NONE }, { 0x0004, 2, FCR_LOGIN_NONE }, /* VLAN */
		{ 0x0002, 3, FCR_LOGIN_NONE }, { 0x0002, 0, FCR_LOGIN_NONE }, /* LS, unknown subcode */
	};
	uint8_t buf[512], desc[64];
	struct fcr_login l;
	uint32_t len, i;
	int tagged;

	(void)state;
	memset(desc, 0, sizeof(desc));
	desc[0] = FCR_FIP_DT_MAC;
	desc[1] = 2;
	memcpy(desc + 2, mac_req, 6);
	desc[8] = 1;  /* priority */
	desc[9] = 1;
	desc[11] = 128;
	for (tagged = 0; tagged < 2; tagged++) {
		for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
			len = fip_raw(buf, tagged, t[i].op, t[i].sub, desc, 12);
			memset(&l, 0xA5, sizeof(l));
			expect_reason(fcr_login_parse(buf, len, &l), FCR_R_OK, "ok");
			assert_int_equal(l.kind, t[i].kind);
			assert_int_equal(l.answers, FCR_LOGIN_NONE);
			assert_int_equal(l.has_wwpn, 0);
			assert_int_equal(l.vlan, tagged ? TU_VLAN : 0);
			if (t[i].kind != FCR_LOGIN_NONE)
				assert_memory_equal(l.mac, mac_req, 6);
			if (t[i].kind == FCR_LOGIN_ADV) { /* no FKA_ADV_Period, no FC-MAP */
				assert_int_equal(l.port_id, UINT32_MAX);
				assert_int_equal(l.fc_map, 0);
			}
		}
	}
	/* an advertisement's FC-MAP, from its Fabric descriptor or an FC-MAP
	 * descriptor; a keep-alive's Fabric descriptor teaches nothing */
	{
		uint8_t d[24] = { FCR_FIP_DT_MAC, 2, 0, 0, 0, 0, 0, 0,
				  FCR_FIP_DT_FABRIC, 4, 0, 0, 0, 0x0e, 0xfc, 0x05,
				  0x20, 0, 0, 0, 0, 0, 0, 0x01 };

		memcpy(d + 2, mac_req, 6);
		len = fip_raw(buf, 0, 0x0001, 2, d, 24);
		expect_reason(fcr_login_parse(buf, len, &l), FCR_R_OK, "ok");
		assert_int_equal(l.kind, FCR_LOGIN_ADV);
		assert_int_equal(l.fc_map, 0x0efc05);
		d[8] = FCR_FIP_DT_FC_MAP;
		d[9] = 2;
		d[15] = 0x07;
		len = fip_raw(buf, 0, 0x0001, 2, d, 16);
		expect_reason(fcr_login_parse(buf, len, &l), FCR_R_OK, "ok");
		assert_int_equal(l.fc_map, 0x0efc07);
		len = fip_raw(buf, 0, 0x0003, 1, d, 16);
		expect_reason(fcr_login_parse(buf, len, &l), FCR_R_OK, "ok");
		assert_int_equal(l.kind, FCR_LOGIN_KA);
		assert_int_equal(l.fc_map, 0);
	}
	/* a VLAN notification: the FCF's MAC and the VLANs it offers (the
	 * first FCR_VLANS_MAX of them); a VLAN request teaches nothing */
	{
		uint8_t d[8 + 4 * 10] = { FCR_FIP_DT_MAC, 2 };
		unsigned int k;

		memcpy(d + 2, mac_req, 6);
		for (k = 0; k < 10; k++) {
			d[8 + 4 * k] = FCR_FIP_DT_VLAN;
			d[9 + 4 * k] = 1;
			fcr_put_be16(d + 10 + 4 * k, (uint16_t)(0xF000 | (100 + k)));
		}
		len = fip_raw(buf, 0, 0x0004, 2, d, 16);
		expect_reason(fcr_login_parse(buf, len, &l), FCR_R_OK, "ok");
		assert_int_equal(l.kind, FCR_LOGIN_VLANS);
		assert_int_equal(l.nb_vlans, 2);
		assert_int_equal(l.vlans[0], 100);  /* the reserved high bits dropped */
		assert_int_equal(l.vlans[1], 101);
		assert_memory_equal(l.mac, mac_req, 6);
		len = fip_raw(buf, 0, 0x0004, 2, d, sizeof(d));
		expect_reason(fcr_login_parse(buf, len, &l), FCR_R_OK, "ok");
		assert_int_equal(l.nb_vlans, FCR_VLANS_MAX);
		assert_int_equal(l.vlans[FCR_VLANS_MAX - 1], 100 + FCR_VLANS_MAX - 1);
		len = fip_raw(buf, 0, 0x0004, 1, d, sizeof(d));
		expect_reason(fcr_login_parse(buf, len, &l), FCR_R_OK, "ok");
		assert_int_equal(l.kind, FCR_LOGIN_NONE);
	}
	/* an advertisement's keep-alive period, and its D bit (none wanted);
	 * a VN_Port keep-alive's identification */
	{
		uint8_t d[32] = { FCR_FIP_DT_MAC, 2, 0, 0, 0, 0, 0, 0,
				  FCR_FIP_DT_FKA, 2, 0, 0, 0, 0, 0x03, 0xe8 };
		uint8_t v[28] = { FCR_FIP_DT_MAC, 2 };

		memcpy(d + 2, mac_req, 6);
		len = fip_raw(buf, 0, 0x0001, 2, d, 16);
		expect_reason(fcr_login_parse(buf, len, &l), FCR_R_OK, "ok");
		assert_int_equal(l.kind, FCR_LOGIN_ADV);
		assert_int_equal(l.port_id, 1000);
		d[11] = 1;
		len = fip_raw(buf, 0, 0x0001, 2, d, 16);
		expect_reason(fcr_login_parse(buf, len, &l), FCR_R_OK, "ok");
		assert_int_equal(l.port_id, 0);
		memcpy(v + 2, mac_req, 6);
		v[8] = FCR_FIP_DT_VN_ID;
		v[9] = 5;
		fcr_put_be24(v + 8 + 9, 0x010203);
		fcr_put_be64(v + 8 + 12, WWPN_H);
		len = fip_raw(buf, 0, 0x0003, 1, v, 28);
		expect_reason(fcr_login_parse(buf, len, &l), FCR_R_OK, "ok");
		assert_int_equal(l.kind, FCR_LOGIN_KA);
		assert_int_equal(l.port_id, 0x010203);
		assert_true(l.wwpn == WWPN_H);
	}
}

/* ------------------------------------------------ FIP malformations */

static void
test_fip_shorter_than_its_header_is_trunc_payload(void **state)
{
	uint8_t buf[512], sp[FCR_ELS_SPARM_LEN];
	struct fcr_login l;
	uint32_t len, h;
	int tagged;

	(void)state;
	fcr_els_sparm(sp, FCR_ELS_FLOGI, WWPN_H, WWNN_H);
	for (tagged = 0; tagged < 2; tagged++) {
		fip_els(buf, sizeof(buf), tagged, FCR_FIP_SC_REQ, FCR_FIP_DT_FLOGI,
			mac_req, FCR_RCTL_ELS_REQ, FCR_FCID_FLOGI, 0, sp, sizeof(sp));
		h = hoff_of(tagged);
		for (len = h; len < h + FCR_FIP_HLEN; len++)
			expect_reason(fcr_login_parse(buf, len, &l),
				      FCR_R_TRUNC_PAYLOAD, "trunc_payload");
	}
}

static void
test_fip_version_not_1_is_bad_version(void **state)
{
	static const uint8_t vers[] = { 0x00, 0x20, 0x30, 0xF0, 0x01 };
	uint8_t buf[512], sp[FCR_ELS_SPARM_LEN];
	struct fcr_login l;
	uint32_t len, i;
	int tagged;

	(void)state;
	fcr_els_sparm(sp, FCR_ELS_FLOGI, WWPN_H, WWNN_H);
	for (tagged = 0; tagged < 2; tagged++) {
		len = fip_els(buf, sizeof(buf), tagged, FCR_FIP_SC_REQ,
			      FCR_FIP_DT_FLOGI, mac_req, FCR_RCTL_ELS_REQ,
			      FCR_FCID_FLOGI, 0, sp, sizeof(sp));
		for (i = 0; i < sizeof(vers); i++) {
			buf[hoff_of(tagged)] = vers[i];
			expect_reason(fcr_login_parse(buf, len, &l),
				      FCR_R_BAD_VERSION, "bad_version");
		}
		buf[hoff_of(tagged)] = 0x10;
		expect_reason(fcr_login_parse(buf, len, &l), FCR_R_OK, "ok");
	}
}

static void
test_fip_descriptor_list_longer_than_the_frame_is_bad_payload(void **state)
{
	uint8_t buf[512], sp[FCR_ELS_SPARM_LEN];
	struct fcr_login l;
	uint32_t len, h, words;
	int tagged;

	(void)state;
	fcr_els_sparm(sp, FCR_ELS_FLOGI, WWPN_H, WWNN_H);
	for (tagged = 0; tagged < 2; tagged++) {
		len = fip_els(buf, sizeof(buf), tagged, FCR_FIP_SC_REQ,
			      FCR_FIP_DT_FLOGI, mac_req, FCR_RCTL_ELS_REQ,
			      FCR_FCID_FLOGI, 0, sp, sizeof(sp));
		h = hoff_of(tagged);
		words = fcr_get_be16(buf + h + 6);
		assert_int_equal(words * 4, len - h - FCR_FIP_HLEN);
		fcr_put_be16(buf + h + 6, (uint16_t)(words + 1));
		expect_reason(fcr_login_parse(buf, len, &l), FCR_R_BAD_PAYLOAD,
			      "bad_payload");
		fcr_put_be16(buf + h + 6, 0xFFFF);
		expect_reason(fcr_login_parse(buf, len, &l), FCR_R_BAD_PAYLOAD,
			      "bad_payload");
		fcr_put_be16(buf + h + 6, (uint16_t)words);
		expect_reason(fcr_login_parse(buf, len, &l), FCR_R_OK, "ok");
		/* the frame one word shorter than its list */
		expect_reason(fcr_login_parse(buf, len - 4, &l), FCR_R_BAD_PAYLOAD,
			      "bad_payload");
	}
}

static void
on_alarm(int sig)
{
	(void)sig;
	/* async-signal-safe: report and leave with a failure */
	static const char msg[] = "descriptor walk did not terminate\n";

	if (write(2, msg, sizeof(msg) - 1) < 0)
		_exit(3);
	_exit(2);
}

static void
test_fip_descriptor_length_0_is_bad_payload_and_terminates(void **state)
{
	uint8_t buf[512], sp[FCR_ELS_SPARM_LEN];
	struct fcr_login l;
	uint32_t len, d;
	int tagged;

	(void)state;
	signal(SIGALRM, on_alarm);
	alarm(10);
	fcr_els_sparm(sp, FCR_ELS_FLOGI, WWPN_H, WWNN_H);
	for (tagged = 0; tagged < 2; tagged++) {
		len = fip_els(buf, sizeof(buf), tagged, FCR_FIP_SC_REQ,
			      FCR_FIP_DT_FLOGI, mac_req, FCR_RCTL_ELS_REQ,
			      FCR_FCID_FLOGI, 0, sp, sizeof(sp));
		d = hoff_of(tagged) + FCR_FIP_HLEN;
		/* the first descriptor (FLOGI) */
		buf[d + 1] = 0;
		expect_reason(fcr_login_parse(buf, len, &l), FCR_R_BAD_PAYLOAD,
			      "bad_payload");
		buf[d + 1] = 36;
		/* the last one (MAC) */
		buf[d + 144 + 1] = 0;
		expect_reason(fcr_login_parse(buf, len, &l), FCR_R_BAD_PAYLOAD,
			      "bad_payload");
		buf[d + 144 + 1] = 2;
		expect_reason(fcr_login_parse(buf, len, &l), FCR_R_OK, "ok");
	}
	alarm(0);
	signal(SIGALRM, SIG_DFL);
}

static void
test_fip_descriptor_length_past_the_list_is_bad_payload(void **state)
{
	uint8_t buf[512], sp[FCR_ELS_SPARM_LEN];
	struct fcr_login l;
	uint32_t len, h, d;
	int tagged;

	(void)state;
	fcr_els_sparm(sp, FCR_ELS_FLOGI, WWPN_H, WWNN_H);
	for (tagged = 0; tagged < 2; tagged++) {
		len = fip_els(buf, sizeof(buf), tagged, FCR_FIP_SC_REQ,
			      FCR_FIP_DT_FLOGI, mac_req, FCR_RCTL_ELS_REQ,
			      FCR_FCID_FLOGI, 0, sp, sizeof(sp));
		h = hoff_of(tagged);
		d = h + FCR_FIP_HLEN;
		/* MAC descriptor claims 3 words where 2 remain */
		buf[d + 145] = 3;
		expect_reason(fcr_login_parse(buf, len, &l), FCR_R_BAD_PAYLOAD,
			      "bad_payload");
		/* ... and 255 words */
		buf[d + 145] = 255;
		expect_reason(fcr_login_parse(buf, len, &l), FCR_R_BAD_PAYLOAD,
			      "bad_payload");
		buf[d + 145] = 2;
		/* FLOGI descriptor runs past the list (into and beyond MAC) */
		buf[d + 1] = 39;
		expect_reason(fcr_login_parse(buf, len, &l), FCR_R_BAD_PAYLOAD,
			      "bad_payload");
		buf[d + 1] = 36;
		/* list one word shorter: the MAC descriptor now overruns it,
		 * even though the bytes are in the frame */
		fcr_put_be16(buf + h + 6, (uint16_t)(fcr_get_be16(buf + h + 6) - 1));
		expect_reason(fcr_login_parse(buf, len, &l), FCR_R_BAD_PAYLOAD,
			      "bad_payload");
	}
}

static void
test_fip_request_whose_descriptor_disagrees_with_the_els_is_bad_payload(void **state)
{
	static const struct {
		uint8_t dtype, cmd;
		uint16_t plen;
	} t[] = {
		{ FCR_FIP_DT_FLOGI, FCR_ELS_FDISC, FCR_ELS_SPARM_LEN },
		{ FCR_FIP_DT_FDISC, FCR_ELS_FLOGI, FCR_ELS_SPARM_LEN },
		{ FCR_FIP_DT_FLOGI, FCR_ELS_PLOGI, FCR_ELS_SPARM_LEN },
		{ FCR_FIP_DT_LOGO, FCR_ELS_FLOGI, FCR_ELS_SPARM_LEN },
		{ FCR_FIP_DT_FLOGI, FCR_ELS_LOGO, FCR_ELS_LOGO_LEN },
		{ FCR_FIP_DT_FLOGI, FCR_ELS_PRLI, 20 },
	};
	uint8_t buf[512], sp[FCR_ELS_SPARM_LEN];
	struct fcr_login l;
	uint32_t len, i;
	int tagged;

	(void)state;
	for (tagged = 0; tagged < 2; tagged++) {
		for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
			fcr_els_sparm(sp, t[i].cmd, WWPN_H, WWNN_H);
			len = fip_els(buf, sizeof(buf), tagged, FCR_FIP_SC_REQ,
				      t[i].dtype, mac_req, FCR_RCTL_ELS_REQ,
				      FCR_FCID_FLOGI, 0, sp, t[i].plen);
			expect_reason(fcr_login_parse(buf, len, &l),
				      FCR_R_BAD_PAYLOAD, "bad_payload");
		}
		/* a reply (LS_ACC) inside a request */
		fcr_els_sparm(sp, FCR_ELS_LS_ACC, WWPN_H, WWNN_H);
		len = fip_els(buf, sizeof(buf), tagged, FCR_FIP_SC_REQ,
			      FCR_FIP_DT_FLOGI, mac_req, FCR_RCTL_ELS_REP,
			      FCR_FCID_FLOGI, 0, sp, sizeof(sp));
		expect_reason(fcr_login_parse(buf, len, &l), FCR_R_BAD_PAYLOAD,
			      "bad_payload");
	}
}

static void
test_fip_short_els_or_mac_descriptor_is_trunc_payload(void **state)
{
	uint8_t buf[512], sp[FCR_ELS_SPARM_LEN], desc[64];
	struct fcr_login l;
	uint32_t len, plen;

	(void)state;
	fcr_els_sparm(sp, FCR_ELS_FLOGI, WWPN_H, WWNN_H);
	/* FLOGI payload under 36 bytes inside the descriptor */
	for (plen = 0; plen < 36; plen += 4) {
		len = fip_els(buf, sizeof(buf), 1, FCR_FIP_SC_REQ, FCR_FIP_DT_FLOGI,
			      mac_req, FCR_RCTL_ELS_REQ, FCR_FCID_FLOGI, 0, sp,
			      (uint16_t)plen);
		expect_reason(fcr_login_parse(buf, len, &l), FCR_R_TRUNC_PAYLOAD,
			      "trunc_payload");
	}
	/* an ELS descriptor shorter than an FC header: 1..6 words */
	for (plen = 1; plen <= 6; plen++) {
		memset(desc, 0, sizeof(desc));
		desc[0] = FCR_FIP_DT_FLOGI;
		desc[1] = (uint8_t)plen;
		len = fip_raw(buf, 0, FCR_FIP_OP_LS, FCR_FIP_SC_REQ, desc, plen * 4);
		expect_reason(fcr_login_parse(buf, len, &l), FCR_R_TRUNC_PAYLOAD,
			      "trunc_payload");
	}
	/* a MAC descriptor of one word */
	memset(desc, 0, sizeof(desc));
	desc[0] = FCR_FIP_DT_MAC;
	desc[1] = 1;
	len = fip_raw(buf, 0, FCR_FIP_OP_LS, FCR_FIP_SC_REP, desc, 4);
	expect_reason(fcr_login_parse(buf, len, &l), FCR_R_TRUNC_PAYLOAD,
		      "trunc_payload");
}

static void
test_fip_two_els_descriptors_is_bad_payload(void **state)
{
	uint8_t buf[512], sp[FCR_ELS_SPARM_LEN], desc[400];
	struct fcr_login l;
	uint32_t len, d;

	(void)state;
	fcr_els_sparm(sp, FCR_ELS_FLOGI, WWPN_H, WWNN_H);
	fip_els(buf, sizeof(buf), 0, FCR_FIP_SC_REQ, FCR_FIP_DT_FLOGI, mac_req,
		FCR_RCTL_ELS_REQ, FCR_FCID_FLOGI, 0, sp, sizeof(sp));
	d = hoff_of(0) + FCR_FIP_HLEN;
	memcpy(desc, buf + d, 144);
	memcpy(desc + 144, buf + d, 144);
	memcpy(desc + 288, buf + d + 144, 8);
	len = fip_raw(buf, 0, FCR_FIP_OP_LS, FCR_FIP_SC_REQ, desc, 296);
	expect_reason(fcr_login_parse(buf, len, &l), FCR_R_BAD_PAYLOAD,
		      "bad_payload");
}

/* --------------------------------------------------- no over-read */

/* Expected reason for a FIP frame of `full` bytes cut to `len`. */
static enum fcr_reason
fip_trunc_reason(uint32_t len, uint32_t full, int tagged)
{
	uint32_t h = hoff_of(tagged);

	if (len < FCR_ETH_HLEN)
		return FCR_R_RUNT;
	if (tagged && len < FCR_ETH_HLEN + FCR_VLAN_HLEN)
		return FCR_R_TRUNC_VLAN;
	if (len < h + FCR_FIP_HLEN)
		return FCR_R_TRUNC_PAYLOAD;
	if (len < full)
		return FCR_R_BAD_PAYLOAD; /* the list runs past the frame */
	return FCR_R_OK;
}

static void
test_fip_every_truncation_never_reads_past_the_frame(void **state)
{
	uint8_t buf[512], pl[FCR_ELS_SPARM_LEN];
	struct fcr_login l;
	struct tu_guard g;
	const uint8_t *p;
	uint32_t full, len, k;
	enum fcr_reason want;
	int tagged;

	(void)state;
	tu_guard_init(&g);
	for (tagged = 0; tagged < 2; tagged++) {
		for (k = 0; k < 4; k++) {
			switch (k) {
			case 0:
				fcr_els_sparm(pl, FCR_ELS_FLOGI, WWPN_H, WWNN_H);
				full = fip_els(buf, sizeof(buf), tagged,
					       FCR_FIP_SC_REQ, FCR_FIP_DT_FLOGI,
					       mac_req, FCR_RCTL_ELS_REQ,
					       FCR_FCID_FLOGI, 0, pl, sizeof(pl));
				break;
			case 1:
				fcr_els_sparm(pl, FCR_ELS_LS_ACC, WWPN_F, WWNN_F);
				full = fip_els(buf, sizeof(buf), tagged,
					       FCR_FIP_SC_REP, FCR_FIP_DT_FDISC,
					       mac_granted, FCR_RCTL_ELS_REP,
					       FCID_H, FCR_FCID_FLOGI, pl, sizeof(pl));
				break;
			case 2:
				fcr_els_logo(pl, FCID_H, WWPN_H);
				full = fip_els(buf, sizeof(buf), tagged,
					       FCR_FIP_SC_REQ, FCR_FIP_DT_LOGO,
					       mac_granted, FCR_RCTL_ELS_REQ,
					       FCR_FCID_FLOGI, FCID_H, pl, 16);
				break;
			default:
				memset(pl, 0, 4);
				pl[0] = FCR_ELS_LS_ACC;
				full = fip_els(buf, sizeof(buf), tagged,
					       FCR_FIP_SC_REP, FCR_FIP_DT_LOGO,
					       mac_granted, FCR_RCTL_ELS_REP,
					       FCID_H, FCR_FCID_FLOGI, pl, 4);
				break;
			}
			for (len = 0; len <= full; len++) {
				p = tu_guard_place(&g, buf, len);
				want = fip_trunc_reason(len, full, tagged);
				expect_reason(fcr_login_parse(p, len, &l), want,
					      fcr_reason_name(want));
			}
		}
	}
	tu_guard_fini(&g);
}

/* FCoE login frames too: every truncation, at the page end. */
static void
test_fcoe_login_every_truncation_never_reads_past_the_frame(void **state)
{
	uint8_t buf[512], sp[FCR_ELS_SPARM_LEN];
	struct fcr_login l;
	struct tu_guard g;
	const uint8_t *p;
	uint32_t full, len;
	enum fcr_reason r;
	int tagged;

	(void)state;
	tu_guard_init(&g);
	fcr_els_sparm(sp, FCR_ELS_FLOGI, WWPN_H, WWNN_H);
	for (tagged = 0; tagged < 2; tagged++) {
		full = fcoe_els(buf, sizeof(buf), tagged, FCR_RCTL_ELS_REQ,
				FCR_FCID_FLOGI, 0, sp, sizeof(sp));
		for (len = 0; len <= full; len++) {
			p = tu_guard_place(&g, buf, len);
			r = fcr_login_parse(p, len, &l);
			if (len == full) {
				expect_reason(r, FCR_R_OK, "ok");
				assert_int_equal(l.wwpn, WWPN_H);
			} else {
				assert_int_not_equal(r, FCR_R_OK);
			}
		}
	}
	tu_guard_fini(&g);
}

static void
test_kind_names(void **state)
{
	(void)state;
	assert_string_equal(fcr_login_kind_name(FCR_LOGIN_NONE), "none");
	assert_string_equal(fcr_login_kind_name(FCR_LOGIN_FLOGI), "flogi");
	assert_string_equal(fcr_login_kind_name(FCR_LOGIN_FDISC), "fdisc");
	assert_string_equal(fcr_login_kind_name(FCR_LOGIN_PLOGI), "plogi");
	assert_string_equal(fcr_login_kind_name(FCR_LOGIN_LOGO), "logo");
	assert_string_equal(fcr_login_kind_name(FCR_LOGIN_ACC), "ls_acc");
	assert_string_equal(fcr_login_kind_name(FCR_LOGIN_RJT), "ls_rjt");
	assert_string_equal(fcr_login_kind_name(FCR_LOGIN_CVL), "clear_virtual_links");
	assert_string_equal(fcr_login_kind_name(FCR_LOGIN_KA), "keep_alive");
	assert_string_equal(fcr_login_kind_name(FCR_LOGIN_ADV), "advertisement");
	assert_string_equal(fcr_login_kind_name(FCR_LOGIN_VLANS), "vlan_notification");
	assert_string_equal(fcr_login_kind_name((enum fcr_login_kind)11), "?");
	assert_string_equal(fcr_login_kind_name((enum fcr_login_kind)-1), "?");
}

/* Clear Virtual Links: the FCF's MAC and name, then one Vx_Port
 * identification per VN_Port cleared (FC-BB-5); read up to FCR_CVL_MAX. */
static size_t
cvl_frame(uint8_t *b, unsigned int nb_vn)
{
	size_t off = 0;
	unsigned int i, words = 2 + 3 + 5 * nb_vn;

	memset(b, 0, 256);
	memcpy(b, "\x01\x10\x18\x01\x00\x02", 6);          /* ALL-ENode-MACs */
	memcpy(b + 6, "\x0e\xfc\x00\xff\xff\xfe", 6);      /* the FCF */
	b[12] = 0x89, b[13] = 0x14;
	off = 14;
	b[off] = 0x10;                                      /* version 1 */
	b[off + 2] = 0, b[off + 3] = FCR_FIP_OP_CTRL;
	b[off + 5] = FCR_FIP_SC_CVL;
	b[off + 6] = 0, b[off + 7] = (uint8_t)words;
	off += FCR_FIP_HLEN;
	b[off] = FCR_FIP_DT_MAC, b[off + 1] = 2;
	memcpy(b + off + 2, "\x0e\xfc\x00\xff\xff\xfe", 6);
	off += 8;
	b[off] = 4, b[off + 1] = 3;                         /* switch name */
	off += 12;
	for (i = 0; i < nb_vn; i++) {
		b[off] = FCR_FIP_DT_VN_ID, b[off + 1] = 5;
		memcpy(b + off + 2, "\x0e\xfc\x00\x81\x00", 5);
		b[off + 7] = (uint8_t)(2 + i);
		fcr_put_be24(b + off + 9, 0x810002 + i);
		fcr_put_be64(b + off + 12, 0x2f00000000000002ull + i);
		off += 20;
	}
	return off;
}

static void
test_fip_clear_virtual_links_names_the_vn_ports(void **state)
{
	uint8_t b[256];
	struct fcr_login l;
	size_t n;

	(void)state;
	n = cvl_frame(b, 2);
	assert_int_equal(fcr_login_parse(b, (uint32_t)n, &l), FCR_R_OK);
	assert_int_equal(l.kind, FCR_LOGIN_CVL);
	assert_true(l.via_fip);
	assert_int_equal(l.nb_cvl, 2);
	assert_int_equal(l.cvl[0].fcid, 0x810002);
	assert_true(l.cvl[1].wwpn == 0x2f00000000000003ull);
	assert_int_equal(l.cvl[1].mac[5], 3);
	/* more than it reads: the first FCR_CVL_MAX */
	n = cvl_frame(b, FCR_CVL_MAX + 2);
	assert_int_equal(fcr_login_parse(b, (uint32_t)n, &l), FCR_R_OK);
	assert_int_equal(l.nb_cvl, FCR_CVL_MAX);
	/* cut inside a descriptor: refused, nothing read past the frame */
	n = cvl_frame(b, 1);
	assert_int_equal(fcr_login_parse(b, (uint32_t)n - 4, &l), FCR_R_BAD_PAYLOAD);
	/* a CVL naming nobody clears nothing */
	n = cvl_frame(b, 0);
	assert_int_equal(fcr_login_parse(b, (uint32_t)n, &l), FCR_R_OK);
	assert_int_equal(l.kind, FCR_LOGIN_NONE);
	/* the one fcredirect builds for a cutover (tagged and not): the FCF's
	 * MAC and name, one VN_Port */
	{
		struct fcr_l2_spec l2 = { .tagged = 1, .vlan = TU_VLAN };
		static const uint8_t vn[6] = { 0x0e, 0xfc, 0x00, 0x01, 0x00, 0x07 };
		int tagged;

		memcpy(l2.dst, tu_mac_dst, 6);
		memcpy(l2.src, tu_mac_src, 6);
		for (tagged = 0; tagged < 2; tagged++) {
			l2.tagged = (uint8_t)tagged;
			n = fcr_build_fip_cvl(b, sizeof(b), &l2, 0x2001000dec000001ull, vn,
					      0x010007, WWPN_H);
			assert_int_equal(n, 14 + 4 * tagged + FCR_FIP_CVL_LEN);
			assert_int_equal(fcr_login_parse(b, (uint32_t)n, &l), FCR_R_OK);
			assert_int_equal(l.kind, FCR_LOGIN_CVL);
			assert_int_equal(l.nb_cvl, 1);
			assert_int_equal(l.cvl[0].fcid, 0x010007);
			assert_true(l.cvl[0].wwpn == WWPN_H);
			assert_memory_equal(l.cvl[0].mac, vn, 6);
			assert_memory_equal(l.eth_src, tu_mac_src, 6);
			assert_memory_equal(b + 14 + 4 * tagged + FCR_FIP_HLEN + 2, tu_mac_src, 6);
			assert_true(fcr_get_be64(b + 14 + 4 * tagged + FCR_FIP_HLEN + 12) ==
				    0x2001000dec000001ull);
		}
		assert_int_equal(fcr_build_fip_cvl(b, 40, &l2, 1, vn, 1, 1), 0);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fcoe_flogi_fdisc_plogi_requests_give_kind_ids_and_wwpn),
		cmocka_unit_test(test_fcoe_ls_acc_gives_wwpn_at_payload_20_and_ids),
		cmocka_unit_test(test_fcoe_logo_gives_port_id_and_wwpn),
		cmocka_unit_test(test_fcoe_ls_rjt_is_recognised),
		cmocka_unit_test(test_non_login_frames_give_kind_none),
		cmocka_unit_test(test_fcoe_flogi_fdisc_plogi_under_36_bytes_is_trunc_payload),
		cmocka_unit_test(test_fcoe_logo_under_16_bytes_is_trunc_payload),
		cmocka_unit_test(test_from_els_reads_no_more_than_avail_or_payload_len),
		cmocka_unit_test(test_invalid_fcoe_gives_the_parser_reason),
		cmocka_unit_test(test_fip_flogi_and_fdisc_requests_give_kind_mac_and_wwpn),
		cmocka_unit_test(test_fip_flogi_and_fdisc_replies_give_answers_granted_mac_and_fcid),
		cmocka_unit_test(test_fip_logo_request_and_reply),
		cmocka_unit_test(test_fip_padding_and_unknown_descriptors_are_ignored),
		cmocka_unit_test(test_fip_discovery_keepalive_and_vlan_give_their_kind),
		cmocka_unit_test(test_fip_shorter_than_its_header_is_trunc_payload),
		cmocka_unit_test(test_fip_version_not_1_is_bad_version),
		cmocka_unit_test(test_fip_descriptor_list_longer_than_the_frame_is_bad_payload),
		cmocka_unit_test(test_fip_descriptor_length_0_is_bad_payload_and_terminates),
		cmocka_unit_test(test_fip_descriptor_length_past_the_list_is_bad_payload),
		cmocka_unit_test(test_fip_request_whose_descriptor_disagrees_with_the_els_is_bad_payload),
		cmocka_unit_test(test_fip_short_els_or_mac_descriptor_is_trunc_payload),
		cmocka_unit_test(test_fip_two_els_descriptors_is_bad_payload),
		cmocka_unit_test(test_fip_every_truncation_never_reads_past_the_frame),
		cmocka_unit_test(test_fcoe_login_every_truncation_never_reads_past_the_frame),
		cmocka_unit_test(test_kind_names),
		cmocka_unit_test(test_fip_clear_virtual_links_names_the_vn_ports),
	};

	fcr_crc_init();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
