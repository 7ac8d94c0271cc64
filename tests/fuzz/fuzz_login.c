/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Fuzz target "login": login recognition over FCoE ELS and FIP, from the
 * whole frame and from the copy of an ELS payload the pipeline makes, both
 * ending at a PROT_NONE guard page. Whatever comes in: a valid reason, the
 * parser's reason for a broken FCoE frame, an ELS read as FC-LS lays it out
 * (written out again here), fields in range, no read past the end.
 *
 * One input: LOGIN_HLEN bytes saying how much of the ELS payload the copy
 * holds, then the frame, at most FZ_CAP bytes.
 */
#include <string.h>

#include "fcr_build.h"
#include "fcr_frame.h"
#include "fcr_login.h"
#include "fuzz.h"
#include "fuzz_input.h"

/* byte 0 not zero: what recognition needs (the service parameters);
 * else bytes 1-4 pick a length up to the whole payload */
#define LOGIN_HLEN 5

static struct tu_guard flat_guard, payload_guard;

/* what the inputs were, for the report */
static struct {
	long learned, via_fip, els;
	unsigned long kinds[FCR_LOGIN_VLANS + 1];
} tally;

/* FIP-specific lies: descriptor list and descriptor lengths, types,
 * subcodes, an extra descriptor. */
static void
mutate_fip(struct tu_rng *r, uint8_t *b, uint32_t *lenp)
{
	uint32_t len = *lenp, h = fz_l2_len(b, len), d;

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
	FZ_CHECK(l->kind <= FCR_LOGIN_VLANS, "kind %u", l->kind);
	FZ_CHECK(l->nb_vlans <= FCR_VLANS_MAX && (l->kind == FCR_LOGIN_VLANS) == (l->nb_vlans > 0),
		 "%u VLANs notified", l->nb_vlans);
	FZ_CHECK(l->nb_cvl <= FCR_CVL_MAX && (l->kind == FCR_LOGIN_CVL) == (l->nb_cvl > 0),
		 "%u VN_Ports cleared", l->nb_cvl);
	FZ_CHECK(l->answers <= FCR_LOGIN_RJT, "answers %u", l->answers);
	FZ_CHECK(l->via_fip <= 1 && l->has_wwpn <= 1 && l->has_mac <= 1, "flags");
	/* an advertisement's port_id is its keep-alive period in ms */
	FZ_CHECK(l->s_id <= FCR_FCID_MASK && l->d_id <= FCR_FCID_MASK &&
		 (l->port_id <= FCR_FCID_MASK || l->kind == FCR_LOGIN_ADV), "24-bit FCIDs");
	FZ_CHECK((l->kind != FCR_LOGIN_KA && l->kind != FCR_LOGIN_ADV) || l->has_mac,
		 "a keep-alive or advertisement names its MAC");
	FZ_CHECK(l->vlan <= 0xFFF, "vlan %u", l->vlan);
	FZ_CHECK(strcmp(fcr_login_kind_name((enum fcr_login_kind)l->kind), "?") != 0,
		 "kind name");
}

/* One input: see the top of this file. */
static int
login_one(const uint8_t *data, size_t size)
{
	const uint8_t *b, *p;
	struct fcr_login l;
	struct fcr_frame f;
	enum fcr_reason rc, rf;
	uint32_t len, avail;

	if (size < LOGIN_HLEN || size - LOGIN_HLEN > FZ_CAP)
		return -1;
	b = data + LOGIN_HLEN;
	len = (uint32_t)(size - LOGIN_HLEN);
	p = tu_guard_place(&flat_guard, b, len);
	memset(&l, 0xA5, sizeof(l));
	rc = fcr_login_parse(p, len, &l);
	FZ_CHECK((unsigned)rc < FCR_R_COUNT, "reason %d", (int)rc);
	rf = fcr_frame_parse(p, len, &f);
	if (rc == FCR_R_OK) {
		check_login_ranges(&l);
		tally.kinds[l.kind]++;
		tally.learned += l.kind != FCR_LOGIN_NONE;
		tally.via_fip += l.via_fip;
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
		return 0;
	tally.els++;
	check_els_login(&f, p + f.fc_off + FCR_FC_HLEN, f.payload_len, rc, &l);

	/* the pipeline's way in: a copy of part of the payload, which
	 * ends at a guard page; claiming more than the frame has is
	 * clamped (the part as tu_below maps a draw) */
	avail = data[0] ? RTE_MIN((uint32_t)f.payload_len, (uint32_t)FCR_ELS_SPARM_LEN)
			: (uint32_t)((fcr_get_be32(data + 1) *
				      ((uint64_t)f.payload_len + 1)) >> 32);
	p = tu_guard_place(&payload_guard, b + f.fc_off + FCR_FC_HLEN, avail);
	memset(&l, 0xA5, sizeof(l));
	rc = fcr_login_from_els(&f, p, avail, &l);
	FZ_CHECK((unsigned)rc < FCR_R_COUNT, "reason %d", (int)rc);
	check_els_login(&f, p, avail, rc, &l);
	if (rc == FCR_R_OK)
		check_login_ranges(&l);
	return 0;
}

/* Random valid logins, mutated, FIP's lengths lying. */
static void
fuzz_login_recognition(void **state)
{
	static uint8_t in[LOGIN_HLEN + FZ_CAP];
	uint8_t *b = in + LOGIN_HLEN;
	long n = fz_iters_or(400000), i;
	char extra[200];
	double t0 = fz_now();

	(void)state;
	memset(&tally, 0, sizeof(tally));
	for (i = 0; i < n; i++) {
		struct tu_rng r;
		uint32_t len, k, nm;

		fz_rng(&r, 2, (uint64_t)i);
		len = fz_base_login(&r, b, (int)tu_below(&r, 2),
				    (uint16_t)tu_below(&r, 4096), fz_rand_wwpn(&r),
				    0x010000 | tu_below(&r, 16));
		nm = tu_below(&r, 8) == 0 ? 0 : 1 + tu_below(&r, 4);
		for (k = 0; k < nm; k++) {
			if (tu_below(&r, 2))
				mutate_fip(&r, b, &len);
			else
				fz_mutate_once(&r, b, &len);
		}
		if (tu_below(&r, 3) == 0)
			fz_fix_crc(b, len);
		in[0] = tu_below(&r, 3) != 0;
		fcr_put_be32(in + 1, tu_rand32(&r));
		FZ_CHECK(fz_run_one(in, LOGIN_HLEN + len) == 0, "input refused");
	}
	snprintf(extra, sizeof(extra),
		 "%ld logins recognised (%ld via FIP), %ld valid FCoE; flogi %lu "
		 "fdisc %lu plogi %lu logo %lu acc %lu rjt %lu", tally.learned,
		 tally.via_fip, tally.els, tally.kinds[FCR_LOGIN_FLOGI],
		 tally.kinds[FCR_LOGIN_FDISC], tally.kinds[FCR_LOGIN_PLOGI],
		 tally.kinds[FCR_LOGIN_LOGO], tally.kinds[FCR_LOGIN_ACC],
		 tally.kinds[FCR_LOGIN_RJT]);
	fz_report(n, "frames", t0, extra);
	assert_true(tally.learned > n / 20);
}

static int
login_init(void)
{
	tu_guard_init(&flat_guard);
	tu_guard_init(&payload_guard);
	return flat_guard.page < FZ_CAP ? -1 : 0;
}

static void
login_fini(void)
{
	tu_guard_fini(&flat_guard);
	tu_guard_fini(&payload_guard);
}

const struct fz_target fz_this = {
	.name = "login",
	.init = login_init,
	.fini = login_fini,
	.one = login_one,
	.test = cmocka_unit_test(fuzz_login_recognition),
};
