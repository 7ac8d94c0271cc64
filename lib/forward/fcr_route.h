/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Route table: FCID prefix -> egress port and next-hop MAC, or "fpma"
 * (deliver to the VN_Port at FC-MAP || D_ID). A 24-bit FCID shifted left by 8
 * is a 32-bit rte_lpm key; domain routes are /8, area routes /16, single
 * ports /24, so every prefix lives in LPM's tbl24 and a lookup is one read.
 * The sync lcore changes it; workers look up lock-free.
 */
#ifndef FCR_ROUTE_H
#define FCR_ROUTE_H

#include <stdint.h>

#include <rte_lpm.h>

struct rte_rcu_qsbr;

#define FCR_NH_FPMA 0x01 /* destination MAC = FC-MAP || final D_ID */

struct fcr_nexthop {
	uint16_t port;
	uint8_t flags;
	uint8_t in_use;
	uint8_t mac[6];
};

struct fcr_route {
	uint32_t prefix; /* FCID with the host bits cleared */
	uint8_t bits;    /* 1..24 */
	uint8_t sflags;  /* replication: FCR_SF_* */
	uint32_t nh;     /* index into nexthop[] */
	uint64_t version;
};

struct fcr_change_log;

struct fcr_route_table {
	struct rte_lpm *lpm;
	struct fcr_nexthop *nexthop; /* [max_routes], read by workers */
	struct fcr_route *routes;    /* [max_routes], the sync lcore's, unordered */
	uint32_t *nh_free;           /* free next-hop slots, a stack */
	uint32_t nb_nh_free;
	uint32_t nb_routes;
	uint32_t max_routes;
	uint32_t fc_map;             /* upper 3 bytes of FPMA MACs */
	struct rte_rcu_qsbr *qsbr;
	struct fcr_change_log *log;  /* replication, when attached */
};

struct fcr_route_table *fcr_route_table_create(const char *name,
					       uint32_t max_routes,
					       struct rte_rcu_qsbr *qsbr,
					       int socket);
void fcr_route_table_free(struct fcr_route_table *rt);

/* Add or replace. mac NULL means fpma. 0, -EINVAL (bits not 1..24), -ENOSPC. */
int fcr_route_add(struct fcr_route_table *rt, uint32_t fcid, unsigned int bits,
		  uint16_t port, const uint8_t *mac);
/* Index in routes[] of prefix/bits, or -ENOENT. */
int fcr_route_find(const struct fcr_route_table *rt, uint32_t fcid,
		   unsigned int bits);
/* 0 or -ENOENT. */
int fcr_route_del(struct fcr_route_table *rt, uint32_t fcid, unsigned int bits);

/* Worker side: next-hop indexes of n D_IDs; FCR_ROUTE_NONE when no route.
 * `keys` is scratch space of n entries. */
#define FCR_ROUTE_NONE UINT32_MAX
static inline void
fcr_route_lookup_bulk(const struct fcr_route_table *rt, const uint32_t *d_id,
		      uint32_t *keys, uint32_t *nh, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		keys[i] = d_id[i] << 8;
	rte_lpm_lookup_bulk(rt->lpm, keys, nh, n);
	for (i = 0; i < n; i++)
		nh[i] = (nh[i] & RTE_LPM_LOOKUP_SUCCESS) ?
			(nh[i] & 0x00FFFFFF) : FCR_ROUTE_NONE;
}

/* Bytes the table takes with max_routes. */
uint64_t fcr_route_table_memory(uint32_t max_routes);

#endif /* FCR_ROUTE_H */
