/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Which worker a frame goes to when one receive queue feeds several workers
 * (the distributor, app/distributor.c, for NICs that cannot spread FCoE
 * over queues themselves).
 *
 * An FCoE frame is dealt by its (VLAN, S_ID, D_ID): every frame of a flow
 * goes to one worker, so a flow's frames keep their order, and the flows of
 * a fabric spread evenly (FCIDs differ in their low bits). Any other frame
 * (FIP, frames fcredirect passes through) by its VLAN and source MAC: an
 * ENode's FIP frames keep their order too. A frame too short to read goes
 * to worker 0; the worker counts and drops it as it would have anyway.
 */
#ifndef FCR_SPREAD_H
#define FCR_SPREAD_H

#include <stdint.h>

#include "fcr_fcoe.h"

/*
 * A 32-bit hash of the frame's spreading key. `l2` is the frame from its
 * Ethernet header on, `len` the bytes readable there; `vlan` the VLAN a
 * NIC stripped (-1 when the tag, if any, is still in the frame).
 */
static inline uint32_t
fcr_spread_hash(const uint8_t *l2, uint32_t len, int vlan)
{
	uint32_t off = FCR_ETH_HLEN;
	uint64_t key;
	uint16_t et;

	if (len < FCR_ETH_HLEN)
		return 0;
	et = fcr_get_be16(l2 + 12);
	if (et == FCR_ETHERTYPE_VLAN && len >= FCR_ETH_HLEN + FCR_VLAN_HLEN) {
		vlan = fcr_get_be16(l2 + 14) & 0xFFF;
		et = fcr_get_be16(l2 + 16);
		off += FCR_VLAN_HLEN;
	}
	if (vlan < 0)
		vlan = 0;
	if (et == FCR_ETHERTYPE_FCOE && len >= off + FCR_FCOE_HLEN + FCR_FC_HLEN) {
		const uint8_t *fc = l2 + off + FCR_FCOE_HLEN;

		key = (uint64_t)vlan << 48 | (uint64_t)fcr_get_be24(fc + FCR_FC_S_ID) << 24 |
		      fcr_get_be24(fc + FCR_FC_D_ID);
	} else {
		key = (uint64_t)vlan << 48 | (uint64_t)fcr_get_be16(l2 + 6) << 32 |
		      (uint64_t)fcr_get_be16(l2 + 8) << 16 | fcr_get_be16(l2 + 10);
	}
	/* a multiply-xorshift mix: every key bit reaches the high bits */
	key ^= key >> 29;
	key *= UINT64_C(0xBF58476D1CE4E5B9);
	key ^= key >> 32;
	return (uint32_t)key;
}

/* The worker of n for a hash, without a division. */
static inline uint32_t
fcr_spread_pick(uint32_t hash, uint32_t n)
{
	return (uint32_t)(((uint64_t)hash * n) >> 32);
}

#endif /* FCR_SPREAD_H */
