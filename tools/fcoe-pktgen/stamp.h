/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The 16 bytes fcoe-pktgen writes at the start of an FCP_DATA payload:
 *
 *   bytes 0..7   TSC read just before the frame's rte_eth_tx_burst
 *   bytes 8..15  run tag (24 bits) << 40 | sequence number (40 bits)
 *
 * both in host byte order (sender and receiver are one machine: latency
 * needs both ends on one TSC). The tag is drawn at random for each run, so
 * a payload that merely looks like a stamp (a capture's own data, a frame
 * of an earlier run still in a ring) is not taken for one: a stamp is valid
 * when its tag is this run's and its TSC lies between the run's start and
 * the moment the frame was received.
 *
 * Writing the stamp changes 16 bytes the FC CRC covers; the CRC is updated
 * incrementally (fcr_crc_update: CRC-32 is linear, so the change is folded
 * into the stored CRC at a cost that does not depend on the frame length).
 * A good CRC stays good, and a capture's deliberately bad CRC stays exactly
 * as bad, as a full recompute would not keep it.
 *
 * A frame of the built-in fabric with fewer than 16 payload bytes (a
 * 64-byte tagged frame has none) gets the short stamp instead, in FC header
 * fields no forwarder reads or rewrites in an FCP_DATA frame:
 *
 *   Parameter (relative offset)   TSC, low 32 bits
 *   SEQ_CNT, RX_ID                sequence number, low 32 bits
 *   SEQ_ID                        run tag, low 8 bits
 *
 * The receiver widens both against what it knows (the TSC now, the highest
 * sequence number seen), so latencies up to 2^32 ticks (about a second and
 * a half) and reordering up to 2^31 frames read right. Frames of a capture
 * stay byte for byte as they are: only their payload is ever stamped.
 */
#ifndef FCR_PG_STAMP_H
#define FCR_PG_STAMP_H

#include <stdint.h>
#include <string.h>

#include "fcr_crc.h"
#include "fcr_fcoe.h"
#include "source.h"

#define PG_SEQ_BITS 40
#define PG_SEQ_MASK ((UINT64_C(1) << PG_SEQ_BITS) - 1)
#define PG_TAG_MASK 0xFFFFFFu
/* the short stamp's bytes: SEQ_ID .. Parameter */
#define PG_SHORT_LEN (FCR_FC_HLEN - FCR_FC_SEQ_ID)

static inline uint32_t
pg_load_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

/* Write the stamp into `frame` (laid out as template t) and fix its CRC. */
static inline void
pg_stamp(uint8_t *frame, const struct pg_tmpl *t, uint64_t tsc, uint32_t tag,
	 uint64_t seq)
{
	uint8_t nw[PG_STAMP_LEN];
	uint64_t w = (uint64_t)tag << PG_SEQ_BITS | (seq & PG_SEQ_MASK);
	uint8_t *p = frame + t->stamp_off;
	uint32_t crc = pg_load_le32(frame + t->crc_off);

	memcpy(nw, &tsc, 8);
	memcpy(nw + 8, &w, 8);
	crc = fcr_crc_update(crc, t->fc_len, (uint32_t)(t->stamp_off - t->fc_off),
			     p, nw, PG_STAMP_LEN);
	memcpy(p, nw, PG_STAMP_LEN);
	fcr_crc_store(frame + t->crc_off, crc);
}

/* Write the short stamp into the FC header at fc_off and fix its CRC. */
static inline void
pg_stamp_short(uint8_t *frame, const struct pg_tmpl *t, uint64_t tsc, uint32_t tag,
	       uint64_t seq)
{
	uint8_t *h = frame + t->fc_off;
	uint8_t nw[PG_SHORT_LEN];
	uint32_t crc = pg_load_le32(frame + t->crc_off);
	uint32_t lo = (uint32_t)tsc, s32 = (uint32_t)seq;

	/* SEQ_ID .. Parameter, DF_CTL and OX_ID kept */
	memcpy(nw, h + FCR_FC_SEQ_ID, PG_SHORT_LEN);
	nw[0] = (uint8_t)tag;
	memcpy(nw + FCR_FC_SEQ_CNT - FCR_FC_SEQ_ID, &s32, 2);
	memcpy(nw + FCR_FC_RX_ID - FCR_FC_SEQ_ID, (const uint8_t *)&s32 + 2, 2);
	memcpy(nw + FCR_FC_PARAM - FCR_FC_SEQ_ID, &lo, 4);
	crc = fcr_crc_update(crc, t->fc_len, FCR_FC_SEQ_ID, h + FCR_FC_SEQ_ID, nw,
			     PG_SHORT_LEN);
	memcpy(h + FCR_FC_SEQ_ID, nw, PG_SHORT_LEN);
	fcr_crc_store(frame + t->crc_off, crc);
}

/* A short stamp read back: the 32-bit TSC and sequence number widened
 * against `now` and the highest sequence number seen (`near`). Returns 0
 * when the tag is not this run's. */
static inline int
pg_stamp_short_read(const uint8_t *h, uint32_t tag, uint64_t now, uint64_t near,
		    uint64_t *tsc, uint64_t *seq)
{
	uint32_t lo, s32;

	if (h[FCR_FC_SEQ_ID] != (uint8_t)tag)
		return 0;
	memcpy(&lo, h + FCR_FC_PARAM, 4);
	memcpy(&s32, h + FCR_FC_SEQ_CNT, 2);
	memcpy((uint8_t *)&s32 + 2, h + FCR_FC_RX_ID, 2);
	*tsc = now - (uint32_t)((uint32_t)now - lo);
	*seq = near + (uint64_t)(int64_t)(int32_t)(s32 - (uint32_t)near);
	return 1;
}

/*
 * Where a received frame's stamp would be: after one optional 802.1Q tag,
 * an FCoE header and an FC header of an FCP_DATA frame, with the 8-byte
 * trailer after it. Reads hdr (at least PG_STAMP_PEEK bytes, or the whole
 * frame when shorter) and the frame length; returns the offset or 0.
 */
#define PG_STAMP_PEEK \
	(FCR_ETH_HLEN + FCR_VLAN_HLEN + FCR_FCOE_HLEN + FCR_FC_HLEN + PG_STAMP_LEN)

static inline uint32_t
pg_stamp_offset(const uint8_t *hdr, uint32_t len)
{
	uint32_t l2 = FCR_ETH_HLEN;
	uint16_t et;

	if (len < FCR_ETH_HLEN)
		return 0;
	et = fcr_get_be16(hdr + 12);
	if (et == FCR_ETHERTYPE_VLAN) {
		if (len < FCR_ETH_HLEN + FCR_VLAN_HLEN)
			return 0;
		et = fcr_get_be16(hdr + 16);
		l2 += FCR_VLAN_HLEN;
	}
	if (et != FCR_ETHERTYPE_FCOE)
		return 0;
	if (len < l2 + FCR_FCOE_HLEN + FCR_FC_HLEN + PG_STAMP_LEN + FCR_FCOE_TLEN)
		return 0;
	if (hdr[l2 + FCR_FCOE_HLEN + FCR_FC_R_CTL] != FCR_RCTL_FCP_DATA ||
	    hdr[l2 + FCR_FCOE_HLEN + FCR_FC_TYPE] != FCR_TYPE_FCP)
		return 0;
	return l2 + FCR_FCOE_HLEN + FCR_FC_HLEN;
}

/* Where a received frame's short stamp would be (its FC header): an
 * FCP_DATA frame with fewer than 16 payload bytes; 0 when it is not one. */
static inline uint32_t
pg_stamp_short_offset(const uint8_t *hdr, uint32_t len)
{
	uint32_t l2 = FCR_ETH_HLEN, fc, min;

	if (len < FCR_ETH_HLEN + FCR_VLAN_HLEN)
		return 0;
	if (fcr_get_be16(hdr + 12) == FCR_ETHERTYPE_VLAN)
		l2 += FCR_VLAN_HLEN;
	if (fcr_get_be16(hdr + l2 - 2) != FCR_ETHERTYPE_FCOE)
		return 0;
	fc = l2 + FCR_FCOE_HLEN;
	min = fc + FCR_FC_HLEN + FCR_FCOE_TLEN;
	if (len < min || len >= min + PG_STAMP_LEN)
		return 0;
	if (hdr[fc + FCR_FC_R_CTL] != FCR_RCTL_FCP_DATA || hdr[fc + FCR_FC_TYPE] != FCR_TYPE_FCP)
		return 0;
	return fc;
}

#endif /* FCR_PG_STAMP_H */
