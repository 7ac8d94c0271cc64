/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_rcu_qsbr.h>

#include "fcr_fcoe.h"
#include "fcr_change.h"
#include "fcr_route.h"

static inline uint32_t
prefix_of(uint32_t fcid, unsigned int bits)
{
	return (fcid & FCR_FCID_MASK) & ~((1u << (24 - bits)) - 1);
}

uint64_t
fcr_route_table_memory(uint32_t max_routes)
{
	/* tbl24 (2^24 four-byte entries) dominates */
	return (1ull << 24) * 4 + (uint64_t)max_routes *
	       (sizeof(struct fcr_nexthop) + sizeof(struct fcr_route) + 8);
}

struct fcr_route_table *
fcr_route_table_create(const char *name, uint32_t max_routes,
		       struct rte_rcu_qsbr *qsbr, int socket)
{
	/* Prefixes are at most /24 after the shift, so LPM never needs tbl8
	 * groups; it still wants at least one. */
	struct rte_lpm_config cfg = { .max_rules = max_routes, .number_tbl8s = 1 };
	struct fcr_route_table *rt;
	char lname[64];
	uint32_t i;

	if (max_routes == 0 || max_routes > 0x00FFFFFF) {
		rte_errno = EINVAL;
		return NULL;
	}
	rt = rte_zmalloc_socket(name, sizeof(*rt), RTE_CACHE_LINE_SIZE, socket);
	if (rt == NULL)
		goto nomem;
	snprintf(lname, sizeof(lname), "%s_lpm", name);
	rt->lpm = rte_lpm_create(lname, socket, &cfg);
	if (rt->lpm == NULL)
		goto fail;
	rt->nexthop = rte_zmalloc_socket(NULL, sizeof(*rt->nexthop) * max_routes,
					 RTE_CACHE_LINE_SIZE, socket);
	rt->routes = rte_zmalloc_socket(NULL, sizeof(*rt->routes) * max_routes,
					0, socket);
	rt->nh_free = rte_malloc_socket(NULL, sizeof(uint32_t) * max_routes, 0,
					socket);
	if (rt->nexthop == NULL || rt->routes == NULL || rt->nh_free == NULL)
		goto nomem;
	for (i = 0; i < max_routes; i++)
		rt->nh_free[i] = max_routes - 1 - i;
	rt->nb_nh_free = max_routes;
	rt->max_routes = max_routes;
	rt->fc_map = FCR_FC_MAP_DEFAULT;
	rt->qsbr = qsbr;
	return rt;
nomem:
	rte_errno = ENOMEM;
fail:
	fcr_route_table_free(rt);
	return NULL;
}

void
fcr_route_table_free(struct fcr_route_table *rt)
{
	if (rt == NULL)
		return;
	rte_lpm_free(rt->lpm);
	rte_free(rt->nexthop);
	rte_free(rt->routes);
	rte_free(rt->nh_free);
	rte_free(rt);
}

static int
find_route(const struct fcr_route_table *rt, uint32_t prefix, unsigned int bits)
{
	uint32_t i;

	for (i = 0; i < rt->nb_routes; i++)
		if (rt->routes[i].prefix == prefix && rt->routes[i].bits == bits)
			return (int)i;
	return -ENOENT;
}

int
fcr_route_find(const struct fcr_route_table *rt, uint32_t fcid, unsigned int bits)
{
	if (bits < 1 || bits > 24)
		return -EINVAL;
	return find_route(rt, prefix_of(fcid, bits), bits);
}

static int
alloc_nexthop(struct fcr_route_table *rt)
{
	if (rt->nb_nh_free == 0)
		return -ENOSPC;
	return (int)rt->nh_free[--rt->nb_nh_free];
}

static void
free_nexthop(struct fcr_route_table *rt, uint32_t nh)
{
	rt->nexthop[nh].in_use = 0;
	rt->nh_free[rt->nb_nh_free++] = nh;
}

/* A next hop replaced or removed may still be read by a worker that looked
 * the route up a moment ago: wait for every worker to pass a quiescent
 * point before it can be reused. Routes change rarely; this takes well
 * under a millisecond with workers polling. */
static void
retire_nexthop(struct fcr_route_table *rt, uint32_t nh)
{
	if (rt->qsbr != NULL)
		rte_rcu_qsbr_synchronize(rt->qsbr, RTE_QSBR_THRID_INVALID);
	free_nexthop(rt, nh);
}

int
fcr_route_add(struct fcr_route_table *rt, uint32_t fcid, unsigned int bits,
	      uint16_t port, const uint8_t *mac)
{
	uint32_t prefix;
	int r, nh, rc;

	if (bits < 1 || bits > 24)
		return -EINVAL;
	prefix = prefix_of(fcid, bits);
	r = find_route(rt, prefix, bits);
	if (r < 0 && rt->nb_routes == rt->max_routes)
		return -ENOSPC;
	nh = alloc_nexthop(rt);
	if (nh < 0)
		return nh;
	rt->nexthop[nh].port = port;
	rt->nexthop[nh].flags = mac == NULL ? FCR_NH_FPMA : 0;
	if (mac != NULL)
		memcpy(rt->nexthop[nh].mac, mac, 6);
	else
		memset(rt->nexthop[nh].mac, 0, 6);
	rt->nexthop[nh].in_use = 1;
	/* rte_lpm_add replaces the next hop of an existing prefix in place */
	rc = rte_lpm_add(rt->lpm, prefix << 8, (uint8_t)bits, (uint32_t)nh);
	if (rc < 0) {
		free_nexthop(rt, (uint32_t)nh);
		return rc;
	}
	if (r >= 0) {
		uint32_t old = rt->routes[r].nh;

		rt->routes[r].nh = (uint32_t)nh;
		retire_nexthop(rt, old);
	} else {
		r = (int)rt->nb_routes++;
		memset(&rt->routes[r], 0, sizeof(rt->routes[r]));
		rt->routes[r].prefix = prefix;
		rt->routes[r].bits = (uint8_t)bits;
		rt->routes[r].nh = (uint32_t)nh;
	}
	fcr_change_mark(rt->log, FCR_KIND_ROUTE, &rt->routes[r].sflags, (uint32_t)r);
	return 0;
}

int
fcr_route_del(struct fcr_route_table *rt, uint32_t fcid, unsigned int bits)
{
	uint32_t prefix, nh;
	int r;

	if (bits < 1 || bits > 24)
		return -EINVAL;
	prefix = prefix_of(fcid, bits);
	r = find_route(rt, prefix, bits);
	if (r < 0)
		return r;
	rte_lpm_delete(rt->lpm, prefix << 8, (uint8_t)bits);
	nh = rt->routes[r].nh;
	if (rt->log != NULL) {
		struct fcr_key tomb = { .kind = FCR_KIND_ROUTE, .k1 = prefix, .k2 = bits };

		fcr_change_deleted(rt->log, &rt->routes[r].sflags, &tomb);
	}
	rt->routes[r] = rt->routes[--rt->nb_routes];
	retire_nexthop(rt, nh);
	return 0;
}
