/* SPDX-License-Identifier: BSD-3-Clause */
#include <string.h>

#include <rte_byteorder.h>
#include <rte_mbuf.h>

#include "fcr_frame.h"

/* Longest prefix the parser reads: tagged Ethernet + FCoE + FC headers. */
#define HDR_SPAN (FCR_ETH_HLEN + FCR_VLAN_HLEN + FCR_FCOE_HLEN + FCR_FC_HLEN)


/* SOF and EOF codes as bitmaps: one load and a bit test. */
static const uint64_t sof_map[4] = {
	(1ull << FCR_SOF_F) | (1ull << FCR_SOF_I4) | (1ull << FCR_SOF_I2) |
	(1ull << FCR_SOF_I3) | (1ull << FCR_SOF_N4) | (1ull << FCR_SOF_N2) |
	(1ull << FCR_SOF_N3) | (1ull << FCR_SOF_C4),
};
static const uint64_t eof_map[4] = {
	0,
	(1ull << (FCR_EOF_N - 64)) | (1ull << (FCR_EOF_T - 64)) |
	(1ull << (FCR_EOF_RT - 64)) | (1ull << (FCR_EOF_DT - 64)) |
	(1ull << (FCR_EOF_NI - 64)) | (1ull << (FCR_EOF_DTI - 64)) |
	(1ull << (FCR_EOF_RTI - 64)) | (1ull << (FCR_EOF_A - 64)),
};

static inline int
in_map(const uint64_t *map, uint8_t v)
{
	return (int)((map[v >> 6] >> (v & 63)) & 1);
}

static inline uint32_t
load_be32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return rte_be_to_cpu_32(v);
}

int
fcr_sof_valid(uint8_t sof)
{
	return in_map(sof_map, sof);
}

int
fcr_eof_valid(uint8_t eof)
{
	return in_map(eof_map, eof);
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
	uint32_t off, fc_len;

	r = parse_l2(h, len, f);
	if (r != FCR_R_OK)
		return r;
	if (f->ethertype != FCR_ETHERTYPE_FCOE)
		return FCR_R_NOT_FCOE;

	off = f->fcoe_off;
	if (len < off + FCR_FCOE_HLEN)
		return FCR_R_TRUNC_FCOE_HDR;
	e = h + off;
	{
		/* version, reserved: 13 zero bytes in the common case, but
		 * for the mark */
		uint64_t a;
		uint32_t b;

		memcpy(&a, e, 8);
		memcpy(&b, e + 8, 4);
		if (unlikely((a | b | (e[FCR_FCOE_MARK_OFF] & ~FCR_FCOE_MARK)) != 0)) {
			if (e[0] >> 4)
				return FCR_R_BAD_VERSION;
			return FCR_R_BAD_RESERVED;
		}
		f->mark = e[FCR_FCOE_MARK_OFF] & FCR_FCOE_MARK;
	}
	f->sof = e[13];
	if (!in_map(sof_map, f->sof))
		return FCR_R_BAD_SOF;

	f->fc_off = (uint16_t)(off + FCR_FCOE_HLEN);
	if (len < (uint32_t)f->fc_off + FCR_FC_HLEN)
		return FCR_R_TRUNC_FC_HDR;
	if (len < (uint32_t)f->fc_off + FCR_FC_HLEN + FCR_FCOE_TLEN)
		return FCR_R_NO_TRAILER;

	f->eof = t[4];
	if (!in_map(eof_map, f->eof))
		return FCR_R_BAD_EOF;
	if (t[5] | t[6] | t[7])
		return FCR_R_BAD_TRAILER;

	fc_len = len - FCR_FCOE_TLEN - f->fc_off;
	if (fc_len & 3)
		return FCR_R_BAD_LENGTH;
	if (fc_len > FCR_FC_MAX_LEN)
		return FCR_R_TOO_LONG;

	fc = h + f->fc_off;
	{
		uint32_t w0 = load_be32(fc), w1 = load_be32(fc + 4);
		uint32_t w2 = load_be32(fc + 8), w3 = load_be32(fc + 12);
		uint32_t w4 = load_be32(fc + 16);

		f->r_ctl = (uint8_t)(w0 >> 24);
		f->d_id = w0 & FCR_FCID_MASK;
		f->cs_ctl = (uint8_t)(w1 >> 24);
		f->s_id = w1 & FCR_FCID_MASK;
		f->type = (uint8_t)(w2 >> 24);
		f->f_ctl = w2 & 0xFFFFFF;
		f->seq_id = (uint8_t)(w3 >> 24);
		f->df_ctl = (uint8_t)(w3 >> 16);
		f->seq_cnt = (uint16_t)w3;
		f->ox_id = (uint16_t)(w4 >> 16);
		f->rx_id = (uint16_t)w4;
		f->param = load_be32(fc + 20);
	}
	f->fill = (uint8_t)(f->f_ctl & FCR_F_CTL_FILL_MASK);
	if (f->fill > fc_len - FCR_FC_HLEN)
		return FCR_R_BAD_FILL;

	f->fc_len = (uint16_t)fc_len;
	f->payload_len = (uint16_t)(fc_len - FCR_FC_HLEN - f->fill);
	f->frame_len = len;
	memcpy(&f->crc, t, 4); /* stored LSB first: a little-endian load */
	f->crc = rte_le_to_cpu_32(f->crc);
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
