/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Route table: (VLAN, FCID prefix) -> egress port and next-hop MAC, or
 * "fpma" (deliver to the VN_Port at FC-MAP || D_ID). VLANs are separate
 * fabrics: the same FCID in two VLANs may be routed apart.
 *
 * One rte_lpm, keyed by slot << 24 | D_ID: slot 0 holds the routes for
 * every VLAN; a VLAN with routes of its own has a slot 1..255 (slot_of[]).
 * A route of `bits` is an LPM prefix of 8 + bits: domain (/8) and area
 * (/16) routes live in tbl24, so their lookup is one read; longer ones take
 * a tbl8 group as well.
 *
 * A frame's lookup: its VLAN's own routes first, then, when none matches,
 * the routes for every VLAN.
 *
 * The tables lcore changes it; workers look up lock-free.
 */
#ifndef FCR_ROUTE_H
#define FCR_ROUTE_H

#include <stdint.h>

#include <rte_branch_prediction.h>
#include <rte_common.h>
#include <rte_lpm.h>

#include "fcr_fcoe.h"

struct rte_rcu_qsbr;

#define FCR_NH_FPMA 0x01 /* destination MAC = FC-MAP || final D_ID */

/* The VLAN of a route for every VLAN (commands, records, routes[]). */
#define FCR_VLAN_ANY 0xFFFF
#define FCR_VLANS 4096
/* Slot 0 and the slots VLANs can have. */
#define FCR_ROUTE_SLOTS 256

struct fcr_nexthop {
	uint16_t port;
	uint8_t flags;
	uint8_t in_use;
	uint8_t mac[6];
};

struct fcr_route {
	uint32_t prefix; /* FCID with the host bits cleared */
	uint16_t vlan;   /* 0..4095, or FCR_VLAN_ANY */
	uint8_t bits;    /* 1..24 */
	uint8_t sflags;  /* replication: FCR_SF_* */
	uint32_t nh;     /* index into nexthop[] */
	uint64_t version;
};

struct fcr_change_log;

struct fcr_route_table {
	struct rte_lpm *lpm;
	struct fcr_nexthop *nexthop; /* [max_routes], read by workers */
	struct fcr_route *routes;    /* [max_routes], the tables lcore's, unordered */
	uint32_t *nh_free;           /* free next-hop slots, a stack */
	uint32_t nb_nh_free;
	uint32_t nb_routes;
	uint32_t max_routes;
	struct rte_rcu_qsbr *qsbr;
	struct fcr_change_log *log;  /* replication, when attached */
	/* routes in each slot; a slot with none is free (slot 0: unused) */
	uint32_t slot_routes[FCR_ROUTE_SLOTS];
	/* each VLAN's slot, 0: none; read by workers */
	uint8_t slot_of[FCR_VLANS] __rte_cache_aligned;
};

struct fcr_route_table *fcr_route_table_create(const char *name,
					       uint32_t max_routes,
					       struct rte_rcu_qsbr *qsbr,
					       int socket);
void fcr_route_table_free(struct fcr_route_table *rt);

/* Add or replace a route in `vlan` (0..4095, or FCR_VLAN_ANY). mac NULL
 * means fpma. 0, -EINVAL (bits not 1..24, no such VLAN), -ENOSPC (the
 * table is full, or 255 VLANs have routes of their own). */
int fcr_route_add(struct fcr_route_table *rt, uint16_t vlan, uint32_t fcid,
		  unsigned int bits, uint16_t port, const uint8_t *mac);
/* Index in routes[] of prefix/bits in vlan, or -ENOENT (-EINVAL). */
int fcr_route_find(const struct fcr_route_table *rt, uint16_t vlan, uint32_t fcid,
		   unsigned int bits);
/* 0 or -ENOENT (-EINVAL). */
int fcr_route_del(struct fcr_route_table *rt, uint16_t vlan, uint32_t fcid,
		  unsigned int bits);

/* The slot of vlan's routes: 0 for every VLAN's (FCR_VLAN_ANY), the VLAN's
 * own, or a free one for its first route; -ENOSPC when none is left. */
int fcr_route_slot(const struct fcr_route_table *rt, uint16_t vlan);

/* Worker side. The lookup key of a frame in `vlan` (0..4095) to d_id. */
static inline uint32_t
fcr_route_key(const struct fcr_route_table *rt, uint16_t vlan, uint32_t d_id)
{
	return (uint32_t)rt->slot_of[vlan & (FCR_VLANS - 1)] << 24 | (d_id & FCR_FCID_MASK);
}

#define FCR_ROUTE_NONE UINT32_MAX
#define FCR_ROUTE_BULK 64

/* Up to FCR_ROUTE_BULK keys: the lookups that missed in a VLAN's slot
 * again in slot 0, together. */
static inline void
fcr_route_lookup_chunk(const struct fcr_route_table *rt, const uint32_t *key,
		       uint32_t *nh, unsigned int n)
{
	uint32_t again[FCR_ROUTE_BULK], got[FCR_ROUTE_BULK];
	uint8_t at[FCR_ROUTE_BULK];
	unsigned int i, m = 0;

	rte_lpm_lookup_bulk(rt->lpm, key, nh, n);
	for (i = 0; i < n; i++) {
		if (likely(nh[i] & RTE_LPM_LOOKUP_SUCCESS)) {
			nh[i] &= 0x00FFFFFF;
			continue;
		}
		nh[i] = FCR_ROUTE_NONE;
		if (key[i] >> 24 != 0) {
			again[m] = key[i] & FCR_FCID_MASK;
			at[m++] = (uint8_t)i;
		}
	}
	if (m == 0)
		return;
	rte_lpm_lookup_bulk(rt->lpm, again, got, m);
	for (i = 0; i < m; i++)
		if (got[i] & RTE_LPM_LOOKUP_SUCCESS)
			nh[at[i]] = got[i] & 0x00FFFFFF;
}

/* Next-hop indexes of n keys (fcr_route_key); FCR_ROUTE_NONE when no
 * route. */
static inline void
fcr_route_lookup_bulk(const struct fcr_route_table *rt, const uint32_t *key,
		      uint32_t *nh, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i += FCR_ROUTE_BULK)
		fcr_route_lookup_chunk(rt, key + i, nh + i,
				       RTE_MIN(n - i, (unsigned int)FCR_ROUTE_BULK));
}

/* Bytes the table takes with max_routes. */
uint64_t fcr_route_table_memory(uint32_t max_routes);

#endif /* FCR_ROUTE_H */
