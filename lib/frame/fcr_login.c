/* SPDX-License-Identifier: BSD-3-Clause */
#include <string.h>

#include "fcr_build.h"
#include "fcr_login.h"

/* Service parameters: WWPN at 20..27, WWNN at 28..35. */
#define SPARM_MIN 36

const char *
fcr_login_kind_name(enum fcr_login_kind k)
{
	static const char *const names[] = {
		[FCR_LOGIN_NONE] = "none", [FCR_LOGIN_FLOGI] = "flogi",
		[FCR_LOGIN_FDISC] = "fdisc", [FCR_LOGIN_PLOGI] = "plogi",
		[FCR_LOGIN_LOGO] = "logo", [FCR_LOGIN_ACC] = "ls_acc",
		[FCR_LOGIN_RJT] = "ls_rjt", [FCR_LOGIN_CVL] = "clear_virtual_links",
		[FCR_LOGIN_KA] = "keep_alive", [FCR_LOGIN_ADV] = "advertisement",
		[FCR_LOGIN_VLANS] = "vlan_notification",
	};

	return (unsigned)k < sizeof(names) / sizeof(names[0]) ? names[k] : "?";
}

/* Shared by FCoE and FIP: the ELS command in `p` (avail bytes). */
static enum fcr_reason
els_payload(uint8_t r_ctl, const uint8_t *p, uint32_t avail,
	    struct fcr_login *out)
{
	if (avail < 4)
		return FCR_R_TRUNC_PAYLOAD;
	if (r_ctl == FCR_RCTL_ELS_REP) {
		if (p[0] == FCR_ELS_LS_RJT) {
			out->kind = FCR_LOGIN_RJT;
		} else if (p[0] == FCR_ELS_LS_ACC) {
			out->kind = FCR_LOGIN_ACC;
			/* an ACC to FLOGI/FDISC/PLOGI carries service
			 * parameters; one to LOGO is 4 bytes */
			if (avail >= SPARM_MIN) {
				out->wwpn = fcr_get_be64(p + 20);
				out->wwnn = fcr_get_be64(p + 28);
				out->has_wwpn = 1;
			}
		}
		return FCR_R_OK;
	}
	if (r_ctl != FCR_RCTL_ELS_REQ)
		return FCR_R_OK;
	switch (p[0]) {
	case FCR_ELS_FLOGI:
	case FCR_ELS_FDISC:
	case FCR_ELS_PLOGI:
		if (avail < SPARM_MIN)
			return FCR_R_TRUNC_PAYLOAD;
		out->kind = p[0] == FCR_ELS_FLOGI ? FCR_LOGIN_FLOGI :
			    p[0] == FCR_ELS_FDISC ? FCR_LOGIN_FDISC :
						    FCR_LOGIN_PLOGI;
		out->wwpn = fcr_get_be64(p + 20);
		out->wwnn = fcr_get_be64(p + 28);
		out->has_wwpn = 1;
		break;
	case FCR_ELS_LOGO:
		if (avail < FCR_ELS_LOGO_LEN)
			return FCR_R_TRUNC_PAYLOAD;
		out->kind = FCR_LOGIN_LOGO;
		out->port_id = fcr_get_be24(p + 5);
		out->wwpn = fcr_get_be64(p + 8);
		out->has_wwpn = 1;
		break;
	}
	return FCR_R_OK;
}

static void
header_ids(const uint8_t *fc, struct fcr_login *out)
{
	out->d_id = fcr_get_be24(fc + FCR_FC_D_ID);
	out->s_id = fcr_get_be24(fc + FCR_FC_S_ID);
	out->ox_id = fcr_get_be16(fc + FCR_FC_OX_ID);
	out->rx_id = fcr_get_be16(fc + FCR_FC_RX_ID);
}

enum fcr_reason
fcr_login_from_els(const struct fcr_frame *f, const uint8_t *payload,
		   uint32_t avail, struct fcr_login *out)
{
	memset(out, 0, sizeof(*out));
	out->vlan = f->vlan;
	out->s_id = f->s_id;
	out->d_id = f->d_id;
	out->ox_id = f->ox_id;
	out->rx_id = f->rx_id;
	if (f->type != FCR_TYPE_ELS ||
	    (f->r_ctl != FCR_RCTL_ELS_REQ && f->r_ctl != FCR_RCTL_ELS_REP))
		return FCR_R_OK;
	if (avail > f->payload_len)
		avail = f->payload_len;
	return els_payload(f->r_ctl, payload, avail, out);
}

static uint8_t
fip_desc_kind(uint8_t dt)
{
	return dt == FCR_FIP_DT_FLOGI ? FCR_LOGIN_FLOGI :
	       dt == FCR_FIP_DT_FDISC ? FCR_LOGIN_FDISC : FCR_LOGIN_LOGO;
}

/* The descriptor at off of a FIP list ending at end: its length, or why
 * there is none. */
static enum fcr_reason
fip_desc_at(const uint8_t *h, uint32_t end, uint32_t off, uint32_t *len)
{
	if (end - off < 2)
		return FCR_R_TRUNC_PAYLOAD;
	*len = (uint32_t)h[off + 1] * 4;
	if (*len == 0 || *len > end - off)
		return FCR_R_BAD_PAYLOAD;
	return FCR_R_OK;
}

/* Each descriptor of a FIP frame's list (its type at d[0], len bytes): what
 * it teaches, or a reason to refuse the frame. */
typedef enum fcr_reason (*fip_desc_fn)(const uint8_t *d, uint32_t len, int adv,
				       struct fcr_login *out);

static enum fcr_reason
fip_walk(const uint8_t *h, uint32_t avail, int adv, fip_desc_fn each, struct fcr_login *out)
{
	uint32_t dlen = (uint32_t)fcr_get_be16(h + 6) * 4, off, len;

	if (dlen > avail - FCR_FIP_HLEN)
		return FCR_R_BAD_PAYLOAD;
	out->via_fip = 1;
	for (off = FCR_FIP_HLEN; off < FCR_FIP_HLEN + dlen; off += len) {
		enum fcr_reason r = fip_desc_at(h, FCR_FIP_HLEN + dlen, off, &len);

		if (r == FCR_R_OK)
			r = each(h + off, len, adv, out);
		if (r != FCR_R_OK)
			return r;
	}
	return FCR_R_OK;
}

/* Clear Virtual Links (FC-BB-5): after the FCF's MAC and name, a Vx_Port
 * identification descriptor per VN_Port cleared. */
static enum fcr_reason
cvl_desc(const uint8_t *d, uint32_t len, int adv, struct fcr_login *out)
{
	(void)adv;
	if (d[0] != FCR_FIP_DT_VN_ID)
		return FCR_R_OK;
	if (len < FCR_FIP_VN_ID_LEN)
		return FCR_R_TRUNC_PAYLOAD;
	if (out->nb_cvl == FCR_CVL_MAX)
		return FCR_R_OK;
	memcpy(out->cvl[out->nb_cvl].mac, d + 2, 6);
	out->cvl[out->nb_cvl].fcid = fcr_get_be24(d + 9);
	out->cvl[out->nb_cvl].wwpn = fcr_get_be64(d + 12);
	out->nb_cvl++;
	return FCR_R_OK;
}

/* A keep-alive (the ENode's MAC; a VN_Port's adds its identification) or
 * an advertisement (the FCF's MAC, name, FC-MAP and keep-alive period). */
static enum fcr_reason
alive_desc(const uint8_t *d, uint32_t len, int adv, struct fcr_login *out)
{
	if (d[0] == FCR_FIP_DT_MAC && len >= 8) {
		memcpy(out->mac, d + 2, 6);
		out->has_mac = 1;
	} else if (d[0] == FCR_FIP_DT_VN_ID && !adv && len >= FCR_FIP_VN_ID_LEN) {
		out->port_id = fcr_get_be24(d + 9);
		out->wwpn = fcr_get_be64(d + 12);
		out->has_wwpn = 1;
	} else if (d[0] == FCR_FIP_DT_NAME && adv && len >= 12) {
		out->wwnn = fcr_get_be64(d + 4);
	} else if ((d[0] == FCR_FIP_DT_FABRIC || d[0] == FCR_FIP_DT_FC_MAP) && adv && len >= 8) {
		out->fc_map = fcr_get_be24(d + 5);
	} else if (d[0] == FCR_FIP_DT_FKA && adv && len >= 8) {
		/* the D bit: the FCF expects no keep-alives */
		out->port_id = (d[3] & 1) ? 0 : fcr_get_be32(d + 4);
	}
	return FCR_R_OK;
}

/* A VLAN notification (FC-BB-5 VLAN discovery): the FCF's MAC and a VLAN
 * descriptor per FCoE VLAN it offers. */
static enum fcr_reason
vlan_desc(const uint8_t *d, uint32_t len, int adv, struct fcr_login *out)
{
	(void)adv;
	if (d[0] == FCR_FIP_DT_MAC && len >= 8) {
		memcpy(out->mac, d + 2, 6);
		out->has_mac = 1;
	} else if (d[0] == FCR_FIP_DT_VLAN && out->nb_vlans < FCR_VLANS_MAX) {
		out->vlans[out->nb_vlans++] = fcr_get_be16(d + 2) & 0x0FFF;
	}
	return FCR_R_OK;
}

static enum fcr_reason
fip_cvl(const uint8_t *h, uint32_t avail, struct fcr_login *out)
{
	enum fcr_reason r = fip_walk(h, avail, 0, cvl_desc, out);

	if (r == FCR_R_OK && out->nb_cvl > 0)
		out->kind = FCR_LOGIN_CVL;
	return r;
}

static enum fcr_reason
fip_alive(const uint8_t *h, uint32_t avail, int adv, struct fcr_login *out)
{
	enum fcr_reason r;

	out->port_id = adv ? UINT32_MAX : 0;
	r = fip_walk(h, avail, adv, alive_desc, out);
	if (r != FCR_R_OK)
		return r;
	if (out->has_mac)
		out->kind = adv ? FCR_LOGIN_ADV : FCR_LOGIN_KA;
	else
		out->port_id = 0; /* nothing learned */
	return FCR_R_OK;
}

static enum fcr_reason
fip_vlans(const uint8_t *h, uint32_t avail, struct fcr_login *out)
{
	enum fcr_reason r = fip_walk(h, avail, 0, vlan_desc, out);

	if (r == FCR_R_OK && out->nb_vlans > 0)
		out->kind = FCR_LOGIN_VLANS;
	return r;
}

static enum fcr_reason
fip_parse(const uint8_t *h, uint32_t avail, struct fcr_login *out)
{
	uint32_t dlen, off;
	uint16_t op;
	uint8_t sub;
	enum fcr_reason r;
	int seen_els = 0;

	if (avail < FCR_FIP_HLEN)
		return FCR_R_TRUNC_PAYLOAD;
	if ((h[0] >> 4) != (FCR_FIP_VERSION >> 4))
		return FCR_R_BAD_VERSION;
	op = fcr_get_be16(h + 2);
	sub = h[5];
	if (op == FCR_FIP_OP_CTRL && sub == FCR_FIP_SC_CVL)
		return fip_cvl(h, avail, out);
	if (op == FCR_FIP_OP_CTRL && sub == FCR_FIP_SC_KA)
		return fip_alive(h, avail, 0, out);
	if (op == FCR_FIP_OP_DISC && sub == FCR_FIP_SC_ADV)
		return fip_alive(h, avail, 1, out);
	if (op == FCR_FIP_OP_VLAN && sub == FCR_FIP_SC_VLAN_NOTE)
		return fip_vlans(h, avail, out);
	if (op != FCR_FIP_OP_LS || (sub != FCR_FIP_SC_REQ && sub != FCR_FIP_SC_REP))
		return FCR_R_OK; /* solicitation, VLAN request: nothing to learn */
	dlen = (uint32_t)fcr_get_be16(h + 6) * 4;
	if (dlen > avail - FCR_FIP_HLEN)
		return FCR_R_BAD_PAYLOAD;
	out->via_fip = 1;

	for (off = FCR_FIP_HLEN; off < FCR_FIP_HLEN + dlen;) {
		const uint8_t *d = h + off;
		uint32_t len;

		r = fip_desc_at(h, FCR_FIP_HLEN + dlen, off, &len);
		if (r != FCR_R_OK)
			return r;
		switch (d[0]) {
		case FCR_FIP_DT_MAC:
			if (len < 8)
				return FCR_R_TRUNC_PAYLOAD;
			memcpy(out->mac, d + 2, 6);
			out->has_mac = 1;
			break;
		case FCR_FIP_DT_FLOGI:
		case FCR_FIP_DT_FDISC:
		case FCR_FIP_DT_LOGO:
			if (seen_els++)
				return FCR_R_BAD_PAYLOAD;
			if (len < 4 + FCR_FC_HLEN)
				return FCR_R_TRUNC_PAYLOAD;
			/* a request carries an ELS request, a reply an ELS reply */
			if (d[4 + FCR_FC_R_CTL] != (sub == FCR_FIP_SC_REQ ?
						    FCR_RCTL_ELS_REQ : FCR_RCTL_ELS_REP))
				return FCR_R_BAD_PAYLOAD;
			header_ids(d + 4, out);
			r = els_payload(d[4 + FCR_FC_R_CTL], d + 4 + FCR_FC_HLEN,
					len - 4 - FCR_FC_HLEN, out);
			if (r != FCR_R_OK)
				return r;
			if (sub == FCR_FIP_SC_REP)
				out->answers = fip_desc_kind(d[0]);
			else if (out->kind != fip_desc_kind(d[0]))
				return FCR_R_BAD_PAYLOAD; /* descriptor and ELS disagree */
			break;
		default:
			break;
		}
		off += len;
	}
	if (!seen_els)
		out->kind = FCR_LOGIN_NONE;
	return FCR_R_OK;
}

enum fcr_reason
fcr_login_parse(const uint8_t *buf, uint32_t len, struct fcr_login *out)
{
	struct fcr_frame f;
	enum fcr_reason r = fcr_frame_parse(buf, len, &f);

	if (r == FCR_R_NOT_FCOE && f.ethertype == FCR_ETHERTYPE_FIP) {
		memset(out, 0, sizeof(*out));
		out->vlan = f.vlan;
		memcpy(out->eth_dst, buf, 6);
		memcpy(out->eth_src, buf + 6, 6);
		return fip_parse(buf + f.fcoe_off, len - f.fcoe_off, out);
	}
	if (r == FCR_R_NOT_FCOE) {
		memset(out, 0, sizeof(*out));
		return FCR_R_OK;
	}
	if (r != FCR_R_OK)
		return r;
	r = fcr_login_from_els(&f, buf + f.fc_off + FCR_FC_HLEN, f.payload_len, out);
	memcpy(out->eth_dst, buf, 6);
	memcpy(out->eth_src, buf + 6, 6);
	return r;
}
