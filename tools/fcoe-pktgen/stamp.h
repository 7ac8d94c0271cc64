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

#endif /* FCR_PG_STAMP_H */
