/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The FC CRC: IEEE 802.3 CRC-32 over the FC header, payload and fill bytes,
 * stored least-significant byte first in the FCoE trailer.
 *
 * Full computation goes through DPDK's rte_net_crc (its SSE4.2/PCLMULQDQ
 * path where the CPU has it). A rewrite of a few header bytes is folded into
 * the stored CRC instead: CRC-32 is linear, so for frames of equal length
 * crc(A) ^ crc(B) == raw(A ^ B), where raw is the CRC without the initial
 * and final complement. The XOR difference is non-zero only in the rewritten
 * bytes, so raw() of it is the CRC of those bytes shifted across the zeros
 * that follow them: one multiplication by x^(8n) mod P, with x^(8n) taken
 * from a table. The cost does not depend on the frame length, and a CRC that
 * was wrong before the update is exactly as wrong after it.
 */
#ifndef FCR_CRC_H
#define FCR_CRC_H

#include <stdint.h>

#include "fcr_frame.h"

struct rte_mbuf;

/* Choose the fastest implementations this CPU has. Idempotent; the other
 * functions call it on first use, but a dataplane calls it at start-up so
 * the hot path never takes the first-use branch. */
void fcr_crc_init(void);

/* Name of the full-CRC path in use: "sse42-pclmulqdq", "avx512" or "scalar". */
const char *fcr_crc_impl(void);
/* 1 when the incremental update uses PCLMULQDQ. */
int fcr_crc_update_uses_clmul(void);

/* CRC of `len` contiguous bytes (the FC frame: R_CTL up to the CRC). */
uint32_t fcr_crc_calc(const void *fc, uint32_t len);

/* Recompute and compare with the stored CRC of a parsed frame.
 * FCR_R_OK or FCR_R_BAD_CRC. */
enum fcr_reason fcr_frame_verify_crc(const uint8_t *buf,
				     const struct fcr_frame *f);
enum fcr_reason fcr_frame_verify_crc_mbuf(const struct rte_mbuf *m,
					  const struct fcr_frame *f);

/*
 * Incremental update: bytes [at, at+n) of an FC frame of `fc_len` bytes
 * (the CRC's span) change from `old` to `new`. Returns the CRC of the new
 * frame given the CRC of the old one. at + n <= fc_len <= FCR_FC_MAX_LEN.
 */
uint32_t fcr_crc_update(uint32_t crc, uint32_t fc_len, uint32_t at,
			const uint8_t *old, const uint8_t *new, uint32_t n);

/*
 * The dataplane's case: D_ID and/or S_ID rewritten (pass the old value as
 * the new one for a field that does not change). Branch-free and a few tens
 * of cycles whatever fc_len is.
 */
uint32_t fcr_crc_update_ids(uint32_t crc, uint32_t fc_len,
			    uint32_t old_did, uint32_t new_did,
			    uint32_t old_sid, uint32_t new_sid);

/* Write a CRC into a trailer position, LSB first. */
static inline void
fcr_crc_store(uint8_t *p, uint32_t crc)
{
	p[0] = (uint8_t)crc;
	p[1] = (uint8_t)(crc >> 8);
	p[2] = (uint8_t)(crc >> 16);
	p[3] = (uint8_t)(crc >> 24);
}

/* Exposed for tests: a*b mod P in the reflected representation (bit 31 is
 * x^0), computed bit by bit with no table and no PCLMULQDQ. */
uint32_t fcr_crc_mulmod_ref(uint32_t a, uint32_t b);
/* The same through the path fcr_crc_update uses. */
uint32_t fcr_crc_mulmod(uint32_t a, uint32_t b);

#endif /* FCR_CRC_H */
