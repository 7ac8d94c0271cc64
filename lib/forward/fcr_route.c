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

/* A route longer than /16 is an LPM prefix longer than /24: it takes a
 * tbl8 group, shared with the routes in the same (slot, domain, area). One
 * group per route is as many as the table can need. */
static uint32_t
tbl8s_of(uint32_t max_routes)
{
	return max_routes;
}

uint64_t
fcr_route_table_memory(uint32_t max_routes)
{
	/* tbl24 (2^24 four-byte entries) dominates; a tbl8 group is 1 KiB */
	return (1ull << 24) * 4 + sizeof(struct fcr_route_table) +
	       (uint64_t)tbl8s_of(max_routes) * RTE_LPM_TBL8_GROUP_NUM_ENTRIES * 4 +
	       (uint64_t)max_routes *
	       (sizeof(struct fcr_nexthop) + sizeof(struct fcr_route) + 8);
}

struct fcr_route_table *
fcr_route_table_create(const char *name, uint32_t max_routes,
		       struct rte_rcu_qsbr *qsbr, int socket)
{
	struct rte_lpm_config cfg = { .max_rules = max_routes,
				      .number_tbl8s = tbl8s_of(max_routes) };
	/* a tbl8 group freed by a delete is reused only once no worker can
	 * still be reading it */
	struct rte_lpm_rcu_config rc = { .v = qsbr, .mode = RTE_LPM_QSBR_MODE_SYNC };
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
	if (qsbr != NULL && rte_lpm_rcu_qsbr_add(rt->lpm, &rc) != 0)
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
route_valid(uint16_t vlan, unsigned int bits)
{
	return bits >= 1 && bits <= 24 && (vlan < FCR_VLANS || vlan == FCR_VLAN_ANY);
}

/* A route's LPM key and depth: its slot in the top byte. */
static inline uint32_t
lpm_key(unsigned int slot, uint32_t prefix)
{
	return (uint32_t)slot << 24 | prefix;
}

static inline uint8_t
lpm_depth(unsigned int bits)
{
	return (uint8_t)(8 + bits);
}

int
fcr_route_slot(const struct fcr_route_table *rt, uint16_t vlan)
{
	unsigned int s;

	if (vlan >= FCR_VLANS)
		return vlan == FCR_VLAN_ANY ? 0 : -EINVAL;
	if (rt->slot_of[vlan] != 0)
		return rt->slot_of[vlan];
	for (s = 1; s < FCR_ROUTE_SLOTS; s++)
		if (rt->slot_routes[s] == 0)
			return (int)s;
	return -ENOSPC;
}

static int
find_route(const struct fcr_route_table *rt, uint16_t vlan, uint32_t prefix,
	   unsigned int bits)
{
	uint32_t i;

	for (i = 0; i < rt->nb_routes; i++)
		if (rt->routes[i].prefix == prefix && rt->routes[i].bits == bits &&
		    rt->routes[i].vlan == vlan)
			return (int)i;
	return -ENOENT;
}

int
fcr_route_find(const struct fcr_route_table *rt, uint16_t vlan, uint32_t fcid,
	       unsigned int bits)
{
	if (!route_valid(vlan, bits))
		return -EINVAL;
	return find_route(rt, vlan, prefix_of(fcid, bits), bits);
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
fcr_route_add(struct fcr_route_table *rt, uint16_t vlan, uint32_t fcid,
	      unsigned int bits, uint16_t port, const uint8_t *mac)
{
	uint32_t prefix;
	int r, nh, rc, slot;

	if (!route_valid(vlan, bits))
		return -EINVAL;
	prefix = prefix_of(fcid, bits);
	r = find_route(rt, vlan, prefix, bits);
	if (r < 0 && rt->nb_routes == rt->max_routes)
		return -ENOSPC;
	slot = fcr_route_slot(rt, vlan);
	if (slot < 0)
		return slot;
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
	rc = rte_lpm_add(rt->lpm, lpm_key(slot, prefix), lpm_depth(bits), (uint32_t)nh);
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
		rt->routes[r].vlan = vlan;
		rt->routes[r].bits = (uint8_t)bits;
		rt->routes[r].nh = (uint32_t)nh;
		/* the VLAN's frames look in its slot once its first route is there */
		if (rt->slot_routes[slot]++ == 0 && slot != 0)
			__atomic_store_n(&rt->slot_of[vlan], (uint8_t)slot, __ATOMIC_RELEASE);
	}
	fcr_change_mark(rt->log, FCR_KIND_ROUTE, &rt->routes[r].sflags, (uint32_t)r);
	return 0;
}

int
fcr_route_del(struct fcr_route_table *rt, uint16_t vlan, uint32_t fcid,
	      unsigned int bits)
{
	uint32_t prefix, nh;
	int r, slot;

	if (!route_valid(vlan, bits))
		return -EINVAL;
	prefix = prefix_of(fcid, bits);
	r = find_route(rt, vlan, prefix, bits);
	if (r < 0)
		return r;
	slot = fcr_route_slot(rt, vlan);
	/* the VLAN's last route: its frames stop looking in the slot before
	 * it goes; retire_nexthop's grace period then sees every worker past
	 * its last look, so the slot can be another VLAN's */
	if (--rt->slot_routes[slot] == 0 && slot != 0)
		__atomic_store_n(&rt->slot_of[vlan], 0, __ATOMIC_RELEASE);
	rte_lpm_delete(rt->lpm, lpm_key(slot, prefix), lpm_depth(bits));
	nh = rt->routes[r].nh;
	if (rt->log != NULL) {
		struct fcr_key tomb = { .kind = FCR_KIND_ROUTE, .vlan = vlan, .k1 = prefix,
					.k2 = bits };

		fcr_change_deleted(rt->log, &rt->routes[r].sflags, &tomb);
	}
	rt->routes[r] = rt->routes[--rt->nb_routes];
	retire_nexthop(rt, nh);
	return 0;
}
