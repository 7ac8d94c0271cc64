/* SPDX-License-Identifier: BSD-3-Clause */
#include <string.h>

#include <rte_mbuf.h>

#include "fcr_frame.h"

/* Longest prefix the parser reads: tagged Ethernet + FCoE + FC headers. */
#define HDR_SPAN (FCR_ETH_HLEN + FCR_VLAN_HLEN + FCR_FCOE_HLEN + FCR_FC_HLEN)

int
fcr_sof_valid(uint8_t sof)
{
	switch (sof) {
	case FCR_SOF_F: case FCR_SOF_I4: case FCR_SOF_I2: case FCR_SOF_I3:
	case FCR_SOF_N4: case FCR_SOF_N2: case FCR_SOF_N3: case FCR_SOF_C4:
		return 1;
	}
	return 0;
}

int
fcr_eof_valid(uint8_t eof)
{
	switch (eof) {
	case FCR_EOF_N: case FCR_EOF_T: case FCR_EOF_RT: case FCR_EOF_DT:
	case FCR_EOF_NI: case FCR_EOF_DTI: case FCR_EOF_RTI: case FCR_EOF_A:
		return 1;
	}
	return 0;
}

static enum fcr_reason
parse_l2(const uint8_t *h, uint32_t len, struct fcr_frame *f)
{
	uint16_t et;

	if (len < FCR_ETH_HLEN)
		return FCR_R_RUNT;
	et = fcr_get_be16(h + 12);
	f->fcoe_off = FCR_ETH_HLEN;
	if (et == FCR_ETHERTYPE_VLAN) {
		uint16_t tci;

		if (len < FCR_ETH_HLEN + FCR_VLAN_HLEN)
			return FCR_R_TRUNC_VLAN;
		tci = fcr_get_be16(h + 14);
		f->tagged = 1;
		f->vlan = tci & 0x0FFF;
		f->pcp = (uint8_t)(tci >> 13);
		et = fcr_get_be16(h + 16);
		f->fcoe_off += FCR_VLAN_HLEN;
		if (et == FCR_ETHERTYPE_VLAN || et == FCR_ETHERTYPE_QINQ) {
			f->ethertype = et;
			return FCR_R_VLAN_STACKED;
		}
	} else if (et == FCR_ETHERTYPE_QINQ) {
		f->ethertype = et;
		return FCR_R_VLAN_STACKED;
	}
	f->ethertype = et;
	return FCR_R_OK;
}

/*
 * h: the first min(len, HDR_SPAN) bytes of the frame, contiguous.
 * t: the last 8 bytes when len >= 8, contiguous.
 */
static enum fcr_reason
parse_core(const uint8_t *h, const uint8_t *t, uint32_t len,
	   struct fcr_frame *f)
{
	enum fcr_reason r;
	const uint8_t *e, *fc;
	uint32_t off, fc_len, i;

	r = parse_l2(h, len, f);
	if (r != FCR_R_OK)
		return r;
	if (f->ethertype != FCR_ETHERTYPE_FCOE)
		return FCR_R_NOT_FCOE;

	off = f->fcoe_off;
	if (len < off + FCR_FCOE_HLEN)
		return FCR_R_TRUNC_FCOE_HDR;
	e = h + off;
	if (e[0] >> 4)
		return FCR_R_BAD_VERSION;
	if (e[0] & 0x0F)
		return FCR_R_BAD_RESERVED;
	for (i = 1; i < 13; i++)
		if (e[i])
			return FCR_R_BAD_RESERVED;
	f->sof = e[13];
	if (!fcr_sof_valid(f->sof))
		return FCR_R_BAD_SOF;

	f->fc_off = (uint16_t)(off + FCR_FCOE_HLEN);
	if (len < (uint32_t)f->fc_off + FCR_FC_HLEN)
		return FCR_R_TRUNC_FC_HDR;
	if (len < (uint32_t)f->fc_off + FCR_FC_HLEN + FCR_FCOE_TLEN)
		return FCR_R_NO_TRAILER;

	f->eof = t[4];
	if (!fcr_eof_valid(f->eof))
		return FCR_R_BAD_EOF;
	if (t[5] | t[6] | t[7])
		return FCR_R_BAD_TRAILER;

	fc_len = len - FCR_FCOE_TLEN - f->fc_off;
	if (fc_len & 3)
		return FCR_R_BAD_LENGTH;
	if (fc_len > FCR_FC_MAX_LEN)
		return FCR_R_TOO_LONG;

	fc = h + f->fc_off;
	f->r_ctl = fc[FCR_FC_R_CTL];
	f->d_id = fcr_get_be24(fc + FCR_FC_D_ID);
	f->cs_ctl = fc[FCR_FC_CS_CTL];
	f->s_id = fcr_get_be24(fc + FCR_FC_S_ID);
	f->type = fc[FCR_FC_TYPE];
	f->f_ctl = fcr_get_be24(fc + FCR_FC_F_CTL);
	f->seq_id = fc[FCR_FC_SEQ_ID];
	f->df_ctl = fc[FCR_FC_DF_CTL];
	f->seq_cnt = fcr_get_be16(fc + FCR_FC_SEQ_CNT);
	f->ox_id = fcr_get_be16(fc + FCR_FC_OX_ID);
	f->rx_id = fcr_get_be16(fc + FCR_FC_RX_ID);
	f->param = fcr_get_be32(fc + FCR_FC_PARAM);
	f->fill = (uint8_t)(f->f_ctl & FCR_F_CTL_FILL_MASK);
	if (f->fill > fc_len - FCR_FC_HLEN)
		return FCR_R_BAD_FILL;

	f->fc_len = (uint16_t)fc_len;
	f->payload_len = (uint16_t)(fc_len - FCR_FC_HLEN - f->fill);
	f->frame_len = len;
	f->crc = (uint32_t)t[0] | (uint32_t)t[1] << 8 | (uint32_t)t[2] << 16 |
		 (uint32_t)t[3] << 24;
	return FCR_R_OK;
}

enum fcr_reason
fcr_frame_parse(const uint8_t *buf, uint32_t len, struct fcr_frame *f)
{
	memset(f, 0, sizeof(*f));
	return parse_core(buf, len >= FCR_FCOE_TLEN ? buf + len - FCR_FCOE_TLEN
						   : NULL, len, f);
}

enum fcr_reason
fcr_frame_parse_mbuf(const struct rte_mbuf *m, struct fcr_frame *f)
{
	uint8_t hcopy[HDR_SPAN], tcopy[FCR_FCOE_TLEN];
	const uint8_t *h, *t = NULL;
	uint32_t len = rte_pktmbuf_pkt_len(m);
	uint32_t span = len < HDR_SPAN ? len : HDR_SPAN;
	enum fcr_reason r;

	memset(f, 0, sizeof(*f));
	/* rte_pktmbuf_read returns the mbuf's own bytes when contiguous and
	 * copies only when the span crosses a segment boundary. */
	h = rte_pktmbuf_read(m, 0, span, hcopy);
	if (len >= FCR_FCOE_TLEN)
		t = rte_pktmbuf_read(m, len - FCR_FCOE_TLEN, FCR_FCOE_TLEN, tcopy);
	if (h == NULL)
		return FCR_R_RUNT;
	r = parse_core(h, t, len, f);
	if (m->ol_flags & RTE_MBUF_F_RX_VLAN_STRIPPED) {
		/* the NIC took one tag off: one more in the frame is a stack */
		if (f->tagged)
			return FCR_R_VLAN_STACKED;
		f->vlan = m->vlan_tci & 0x0FFF;
		f->pcp = (uint8_t)(m->vlan_tci >> 13);
	}
	return r;
}
