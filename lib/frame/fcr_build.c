/* SPDX-License-Identifier: BSD-3-Clause */
#include <string.h>

#include "fcr_build.h"
#include "fcr_crc.h"

static size_t
put_l2(uint8_t *buf, const struct fcr_l2_spec *l2, uint16_t ethertype)
{
	size_t off = 12;

	memcpy(buf, l2->dst, 6);
	memcpy(buf + 6, l2->src, 6);
	if (l2->tagged) {
		fcr_put_be16(buf + 12, FCR_ETHERTYPE_VLAN);
		fcr_put_be16(buf + 14, (uint16_t)((l2->pcp & 7) << 13 |
						  (l2->vlan & 0x0FFF)));
		off += FCR_VLAN_HLEN;
	}
	fcr_put_be16(buf + off, ethertype);
	return off + 2;
}

static void
put_fc_header(uint8_t *fc, const struct fcr_fc_spec *s, uint8_t fill)
{
	fc[FCR_FC_R_CTL] = s->r_ctl;
	fcr_put_be24(fc + FCR_FC_D_ID, s->d_id);
	fc[FCR_FC_CS_CTL] = s->cs_ctl;
	fcr_put_be24(fc + FCR_FC_S_ID, s->s_id);
	fc[FCR_FC_TYPE] = s->type;
	fcr_put_be24(fc + FCR_FC_F_CTL, (s->f_ctl & ~FCR_F_CTL_FILL_MASK) | fill);
	fc[FCR_FC_SEQ_ID] = s->seq_id;
	fc[FCR_FC_DF_CTL] = s->df_ctl;
	fcr_put_be16(fc + FCR_FC_SEQ_CNT, s->seq_cnt);
	fcr_put_be16(fc + FCR_FC_OX_ID, s->ox_id);
	fcr_put_be16(fc + FCR_FC_RX_ID, s->rx_id);
	fcr_put_be32(fc + FCR_FC_PARAM, s->param);
}

static inline uint8_t
fill_of(uint16_t payload_len)
{
	return (uint8_t)((4 - (payload_len & 3)) & 3);
}

size_t
fcr_fcoe_frame_len(const struct fcr_l2_spec *l2, uint16_t payload_len)
{
	return FCR_ETH_HLEN + (l2->tagged ? FCR_VLAN_HLEN : 0) + FCR_FCOE_HLEN +
	       FCR_FC_HLEN + payload_len + fill_of(payload_len) + FCR_FCOE_TLEN;
}

size_t
fcr_build_fcoe(uint8_t *buf, size_t cap, const struct fcr_l2_spec *l2,
	       const struct fcr_fc_spec *fc)
{
	size_t len, off;
	uint8_t fill = fill_of(fc->payload_len);
	uint8_t *f, *t;
	uint32_t fc_len;

	if (fc->payload_len > FCR_FC_MAX_PAYLOAD)
		return 0;
	len = fcr_fcoe_frame_len(l2, fc->payload_len);
	if (len > cap)
		return 0;
	off = put_l2(buf, l2, FCR_ETHERTYPE_FCOE);
	memset(buf + off, 0, FCR_FCOE_HLEN);
	buf[off + 13] = fc->sof ? fc->sof : FCR_SOF_I3;
	f = buf + off + FCR_FCOE_HLEN;
	put_fc_header(f, fc, fill);
	if (fc->payload_len)
		memcpy(f + FCR_FC_HLEN, fc->payload, fc->payload_len);
	memset(f + FCR_FC_HLEN + fc->payload_len, 0, fill);
	fc_len = FCR_FC_HLEN + fc->payload_len + fill;
	t = f + fc_len;
	fcr_crc_store(t, fcr_crc_calc(f, fc_len));
	t[4] = fc->eof ? fc->eof : FCR_EOF_T;
	t[5] = t[6] = t[7] = 0;
	return len;
}

size_t
fcr_build_fip_ls(uint8_t *buf, size_t cap, const struct fcr_l2_spec *l2,
		 const struct fcr_fip_spec *fip, const struct fcr_fc_spec *fc)
{
	/* ELS descriptor: type, len, 2 reserved, FC header, payload padded
	 * to whole words; MAC descriptor: type, len, 6-byte MAC. */
	size_t els_len = 4 + FCR_FC_HLEN + fc->payload_len + fill_of(fc->payload_len);
	size_t desc_len = els_len + 8;
	size_t off, len;
	uint8_t *h, *d;

	/* a descriptor's length is one byte of 4-byte words */
	if (fc->payload_len > FCR_FC_MAX_PAYLOAD || els_len / 4 > UINT8_MAX)
		return 0;
	len = FCR_ETH_HLEN + (l2->tagged ? FCR_VLAN_HLEN : 0) + FCR_FIP_HLEN +
	      desc_len;
	if (len > cap)
		return 0;
	off = put_l2(buf, l2, FCR_ETHERTYPE_FIP);
	h = buf + off;
	memset(h, 0, FCR_FIP_HLEN);
	h[0] = FCR_FIP_VERSION;
	fcr_put_be16(h + 2, FCR_FIP_OP_LS);
	h[5] = fip->subcode;
	fcr_put_be16(h + 6, (uint16_t)(desc_len / 4));
	fcr_put_be16(h + 8, fip->flags);
	d = h + FCR_FIP_HLEN;
	d[0] = fip->desc_type;
	d[1] = (uint8_t)(els_len / 4);
	d[2] = d[3] = 0;
	put_fc_header(d + 4, fc, 0);
	if (fc->payload_len)
		memcpy(d + 4 + FCR_FC_HLEN, fc->payload, fc->payload_len);
	memset(d + 4 + FCR_FC_HLEN + fc->payload_len, 0, fill_of(fc->payload_len));
	d += els_len;
	d[0] = FCR_FIP_DT_MAC;
	d[1] = 2;
	memcpy(d + 2, fip->mac, 6);
	return len;
}

size_t
fcr_build_fip_cvl(uint8_t *buf, size_t cap, const struct fcr_l2_spec *l2,
		  uint64_t fcf_name, const uint8_t vn_mac[6], uint32_t fcid,
		  uint64_t wwpn)
{
	size_t fip = vn_mac != NULL ? FCR_FIP_CVL_LEN : FCR_FIP_CVL_LEN - FCR_FIP_VN_ID_LEN;
	size_t len = FCR_ETH_HLEN + (l2->tagged ? FCR_VLAN_HLEN : 0) + fip;
	uint8_t *h, *d;

	if (len > cap)
		return 0;
	h = buf + put_l2(buf, l2, FCR_ETHERTYPE_FIP);
	memset(h, 0, fip);
	h[0] = FCR_FIP_VERSION;
	fcr_put_be16(h + 2, FCR_FIP_OP_CTRL);
	h[5] = FCR_FIP_SC_CVL;
	fcr_put_be16(h + 6, (uint16_t)((fip - FCR_FIP_HLEN) / 4));
	d = h + FCR_FIP_HLEN;
	d[0] = FCR_FIP_DT_MAC;           /* the FCF's MAC */
	d[1] = 2;
	memcpy(d + 2, l2->src, 6);
	d += 8;
	d[0] = FCR_FIP_DT_NAME;          /* its name */
	d[1] = 3;
	fcr_put_be64(d + 4, fcf_name);
	d += 12;
	if (vn_mac == NULL)
		return len;              /* the whole ENode */
	d[0] = FCR_FIP_DT_VN_ID;         /* the VN_Port cleared */
	d[1] = FCR_FIP_VN_ID_LEN / 4;
	memcpy(d + 2, vn_mac, 6);
	fcr_put_be24(d + 9, fcid);
	fcr_put_be64(d + 12, wwpn);
	return len;
}

size_t
fcr_els_sparm(uint8_t *p, uint8_t cmd, uint64_t wwpn, uint64_t wwnn)
{
	memset(p, 0, FCR_ELS_SPARM_LEN);
	p[0] = cmd;
	/* Common service parameters: FC-PH version 0x20/0x20, BB credit 0x000a,
	 * receive size 2112 (0x840); class 3 valid (byte 68 bit 7). */
	p[4] = 0x20;
	p[5] = 0x20;
	p[7] = 0x0A;
	p[10] = 0x08;
	p[11] = 0x40;
	fcr_put_be64(p + 20, wwpn);
	fcr_put_be64(p + 28, wwnn);
	p[68] = 0x80;
	return FCR_ELS_SPARM_LEN;
}

size_t
fcr_els_logo(uint8_t *p, uint32_t fcid, uint64_t wwpn)
{
	memset(p, 0, FCR_ELS_LOGO_LEN);
	p[0] = FCR_ELS_LOGO;
	fcr_put_be24(p + 5, fcid);
	fcr_put_be64(p + 8, wwpn);
	return FCR_ELS_LOGO_LEN;
}

