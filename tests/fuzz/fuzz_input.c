/* SPDX-License-Identifier: BSD-3-Clause */
/* Valid frames and logins, their mutations, how a frame arrives. */
#include "fcr_build.h"
#include "fcr_fcoe.h"
#include "fcr_frame.h"
#include "fuzz_input.h"

uint64_t
fz_rand_u64_interesting(struct tu_rng *r)
{
	static const uint64_t v[] = {
		0, 1, UINT64_MAX, UINT64_MAX - 1, 1ull << 63, 0x0FFFFFFFFFFFFFFFull,
		0x1000000000000000ull, 0xFFFFFF, 0x7F, 0x80, 0x3FFF, 0x4000,
	};

	return tu_below(r, 2) ? tu_rand64(r) : v[tu_below(r, RTE_DIM(v))];
}

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

uint32_t
fz_l2_len(const uint8_t *b, uint32_t len)
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

void
fz_fix_crc(uint8_t *b, uint32_t len)
{
	struct fcr_frame f;

	if (fcr_frame_parse(b, len, &f) == FCR_R_OK)
		tu_fix_crc(b, f.fc_off, f.fc_len);
}

void
fz_maybe_mark(uint8_t *b, uint32_t len)
{
	struct fcr_frame f;

	if (fcr_frame_parse(b, len, &f) == FCR_R_OK && (f.ox_id & 7) == 0)
		b[f.fcoe_off + FCR_FCOE_MARK_OFF] |= FCR_FCOE_MARK;
}

void
fz_mutate_once(struct tu_rng *r, uint8_t *b, uint32_t *lenp)
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
		h = fz_l2_len(b, len);
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
		fz_fix_crc(b, len);
		break;
	}
	*lenp = len;
}

void
fz_mutate(struct tu_rng *r, uint8_t *b, uint32_t *len)
{
	uint32_t i, n = tu_below(r, 8) == 0 ? 0 : 1 + tu_below(r, 5);

	for (i = 0; i < n; i++)
		fz_mutate_once(r, b, len);
	if (tu_below(r, 4) == 0)
		retrailer(r, b, *len);
	if (tu_below(r, 3) == 0)
		fz_fix_crc(b, *len);
}

uint16_t
fz_rand_plen(struct tu_rng *r, uint16_t max)
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

uint64_t
fz_rand_wwpn(struct tu_rng *r)
{
	return tu_below(r, 8) ? 0x2100000000000000ull | tu_below(r, 8)
			      : fz_rand_u64_interesting(r);
}

/*
 * A valid login frame: FCoE ELS (FLOGI, FDISC, PLOGI, LS_ACC, LS_RJT,
 * LOGO, PRLI) or FIP link service (FLOGI/FDISC/LOGO request or reply), or
 * a FIP frame of random descriptors.
 */
uint32_t
fz_base_login(struct tu_rng *r, uint8_t *b, int tagged, uint16_t vlan,
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

/* 1..FZ_MAX_SEGS segments of at least one byte, split at random points. */
unsigned int
fz_random_cuts(struct tu_rng *r, uint32_t len, uint32_t *cut)
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

void
fz_rx_put(uint8_t *p, const struct fz_rx *rx)
{
	unsigned int i;

	p[0] = rx->nsegs;
	p[1] = (uint8_t)(rx->stripped | rx->untag << 1);
	fcr_put_be16(p + 2, rx->vlan_tci);
	for (i = 0; i < FZ_MAX_SEGS - 1; i++)
		fcr_put_be16(p + 4 + 2 * i, i + 1 < rx->nsegs ? rx->cut[i] : 0);
}

int
fz_rx_get(const uint8_t *p, uint32_t len, unsigned int max_segs, struct fz_rx *rx)
{
	unsigned int i;

	memset(rx, 0, sizeof(*rx));
	rx->nsegs = p[0];
	rx->stripped = p[1] & 1;
	rx->untag = p[1] >> 1 & 1;
	rx->vlan_tci = fcr_get_be16(p + 2);
	if (rx->nsegs == 0 || rx->nsegs > max_segs)
		return -1;
	for (i = 0; i + 1 < rx->nsegs; i++) {
		rx->cut[i] = fcr_get_be16(p + 4 + 2 * i);
		if (rx->cut[i] <= (i ? rx->cut[i - 1] : 0) || rx->cut[i] >= len)
			return -1;
	}
	return 0;
}
