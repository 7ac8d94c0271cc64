/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Parse and validate one FCoE frame, held in a plain buffer or in an mbuf
 * (single- or multi-segment). The result is a flat view of the fields the
 * dataplane needs, or the reason the frame is not valid FCoE.
 */
#ifndef FCR_FRAME_H
#define FCR_FRAME_H

#include <stdint.h>

#include "fcr_fcoe.h"
#include "fcr_reason.h"

struct rte_mbuf;

struct fcr_frame {
	/* Layer 2: filled whenever the Ethernet header could be read, so a
	 * caller can route FIP and other EtherTypes even when the result is
	 * FCR_R_NOT_FCOE. */
	uint16_t ethertype;   /* after any 802.1Q tag */
	uint16_t vlan;        /* VLAN ID; 0 when untagged */
	uint8_t tagged;       /* tag present in the frame bytes */
	uint8_t pcp;          /* 802.1p priority from the tag */
	uint16_t fcoe_off;    /* offset of the FCoE (or FIP) header */

	/* FCoE encapsulation, valid when the result is FCR_R_OK */
	uint16_t fc_off;      /* offset of R_CTL */
	uint16_t fc_len;      /* FC header + payload + fill: what the CRC covers */
	uint16_t payload_len; /* payload without fill bytes */
	uint8_t sof;
	uint8_t eof;
	uint8_t mark;         /* FCR_FCOE_MARK: a redirect upstream rewrote it */
	uint32_t frame_len;
	uint32_t crc;         /* stored FC CRC as a value (wire order is LSB first) */

	/* FC header */
	uint8_t r_ctl;
	uint8_t cs_ctl;
	uint8_t type;
	uint8_t seq_id;
	uint8_t df_ctl;
	uint8_t fill;         /* F_CTL bits 1:0 */
	uint16_t seq_cnt;
	uint16_t ox_id;
	uint16_t rx_id;
	uint32_t d_id;
	uint32_t s_id;
	uint32_t f_ctl;
	uint32_t param;
};

/* Offset of the stored CRC from the start of the frame. */
static inline uint32_t
fcr_frame_crc_off(const struct fcr_frame *f)
{
	return (uint32_t)f->fc_off + f->fc_len;
}

/* Validate `len` bytes at `buf`. Never reads outside [buf, buf+len). */
enum fcr_reason fcr_frame_parse(const uint8_t *buf, uint32_t len,
				struct fcr_frame *f);

/*
 * Same for an mbuf chain. A VLAN tag stripped by the NIC
 * (RTE_MBUF_F_RX_VLAN_STRIPPED) is reported as the frame's VLAN.
 */
enum fcr_reason fcr_frame_parse_mbuf(const struct rte_mbuf *m,
				     struct fcr_frame *f);

#endif /* FCR_FRAME_H */
