/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The tables and what the tables lcore does to them: flow entries, routes, bindings, redirects
 * installing and removing their four rules, and learning from login events.
 * Runs EAL without hugepages or devices (rte_hash and rte_lpm need its memory).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_rcu_qsbr.h>
#include <rte_malloc.h>
#include <rte_hash.h>

#include "fcr_change.h"
#include "fcr_build.h"
#include "fcr_paths.h"
#include "fcr_tables.h"
#include "test_util.h"

#define VLAN 100
#define H 0x2100000000000001ull
#define T 0x5000000000000001ull
#define VI 0x2f00000000000001ull
#define VT 0x2f00000000000002ull
#define FH 0x010001u
#define FT 0x410001u
#define FVI 0x810001u
#define FVT 0x810002u
#define EDGE_PORT 0
#define FABRIC_PORT 3
#define NR 2 /* redirects of the random event tests */

static struct fcr_tables *
mk(void)
{
	return tu_tables(2, 1u << FABRIC_PORT);
}

/* The action a worker would apply to (vlan, s, d), or -1 for no entry. */
static int64_t
action_of(struct fcr_tables *t, uint32_t s, uint32_t d)
{
	uint64_t key = fcr_flow_key(VLAN, s, d);
	uint32_t idx;

	fcr_flow_lookup_bulk(t->flows, &key, 1, &idx);
	if (idx == FCR_FLOW_NONE)
		return -1;
	return (int64_t)fcr_flow_action_load(t->flows, idx);
}

static void
assert_rule(struct fcr_tables *t, uint32_t s, uint32_t d, uint32_t ns,
	    uint32_t nd, enum fcr_leg leg)
{
	int64_t a = action_of(t, s, d);

	if (a < 0)
		fail_msg("no rule for %06x -> %06x", s, d);
	assert_int_equal(fcr_action_sid((uint64_t)a), ns);
	assert_int_equal(fcr_action_did((uint64_t)a), nd);
	assert_int_equal(fcr_action_leg((uint64_t)a), leg);
}

static void
assert_four_rules(struct fcr_tables *t, uint32_t h, uint32_t tg, uint32_t vi,
		  uint32_t vt)
{
	assert_rule(t, h, tg, h, vt, FCR_LEG_HOST_TO_TARGET);
	assert_rule(t, vi, tg, h, tg, FCR_LEG_VI_TO_TARGET);
	assert_rule(t, tg, h, tg, vi, FCR_LEG_TARGET_TO_HOST);
	assert_rule(t, vt, h, tg, h, FCR_LEG_VT_TO_HOST);
}

static void
assert_no_rules(struct fcr_tables *t, uint32_t h, uint32_t tg, uint32_t vi,
		uint32_t vt)
{
	assert_true(action_of(t, h, tg) < 0);
	assert_true(action_of(t, vi, tg) < 0);
	assert_true(action_of(t, tg, h) < 0);
	assert_true(action_of(t, vt, h) < 0);
}

/* After the host moved: the keys with its old FCID are gone (VI->target
 * stays, rewritten to the new host). */
static void
assert_no_rules_for_host(struct fcr_tables *t, uint32_t old_h, uint32_t tg,
			 uint32_t vt)
{
	assert_true(action_of(t, old_h, tg) < 0);
	assert_true(action_of(t, tg, old_h) < 0);
	assert_true(action_of(t, vt, old_h) < 0);
}

static void
bind4(struct fcr_tables *t)
{
	assert_int_equal(fcr_tables_binding_add(t, VLAN, H, FH, FCR_BIND_STATIC), 0);
	assert_int_equal(fcr_tables_binding_add(t, VLAN, T, FT, FCR_BIND_STATIC), 0);
	assert_int_equal(fcr_tables_binding_add(t, VLAN, VI, FVI, FCR_BIND_STATIC), 0);
	assert_int_equal(fcr_tables_binding_add(t, VLAN, VT, FVT, FCR_BIND_STATIC), 0);
}

static void
flow_set_find_del_and_reuse(void **state)
{
	struct fcr_tables *t = mk();
	uint64_t k = fcr_flow_key(5, 0x010203, 0x040506);
	int idx, idx2;

	(void)state;
	assert_int_equal(fcr_flow_key_vlan(k), 5);
	assert_int_equal(fcr_flow_key_sid(k), 0x010203);
	assert_int_equal(fcr_flow_key_did(k), 0x040506);
	idx = fcr_flow_set(t->flows, k, fcr_action(1, 2, FCR_LEG_VT_TO_HOST), 7);
	assert_true(idx >= 0);
	assert_int_equal(fcr_flow_find(t->flows, k), idx);
	assert_int_equal(t->flows->count, 1);
	/* change in place keeps the index */
	idx2 = fcr_flow_set(t->flows, k, fcr_action(3, 4, FCR_LEG_PLAIN), 8);
	assert_int_equal(idx2, idx);
	assert_int_equal(fcr_action_sid(t->flows->action[idx]), 3);
	assert_int_equal(fcr_flow_del(t->flows, k), 0);
	assert_int_equal(fcr_flow_find(t->flows, k), -ENOENT);
	assert_int_equal(fcr_flow_del(t->flows, k), -ENOENT);
	assert_int_equal(t->flows->count, 0);
	fcr_tables_free(t);
}

/* A worker's flow cache answers what the rte_hash answers, whatever the
 * tables lcore did since: deleted, re-added elsewhere, slot given to another key. */
static void
flow_cache_answers_as_the_table_does(void **state)
{
	struct fcr_tables *t = mk();
	static struct fcr_flow_cache c; /* 64 KB: not on the stack */
	struct tu_rng r;
	uint64_t keys[32], k = fcr_flow_key(5, 0x010203, 0x040506), k2;
	uint32_t idx[32], ref[32], i, round, present;
	uint64_t hits;
	int at, at2;

	(void)state;
	memset(&c, 0, sizeof(c));
	at = fcr_flow_set(t->flows, k, fcr_action(1, 2, FCR_LEG_PLAIN), FCR_NO_OWNER);
	assert_true(at >= 0);
	assert_int_equal(fcr_flow_lookup_cached(t->flows, &c, &k, 1, idx), 1);
	assert_int_equal(idx[0], at);
	assert_int_equal(fcr_flow_lookup_cached(t->flows, &c, &k, 1, idx), 1);
	assert_int_equal(idx[0], at);
	assert_true(c.hits == 1 && c.lookups == 2);
	/* deleted: the cache still names the slot, but must not answer */
	assert_int_equal(fcr_flow_del(t->flows, k), 0);
	assert_int_equal(fcr_flow_lookup_cached(t->flows, &c, &k, 1, idx), 0);
	assert_int_equal(idx[0], FCR_FLOW_NONE);
	/* the slot (no readers here: reused at once) given to another key */
	k2 = fcr_flow_key(5, 0x010203, 0x040507);
	at2 = fcr_flow_set(t->flows, k2, fcr_action(3, 4, FCR_LEG_PLAIN), FCR_NO_OWNER);
	assert_int_equal(at2, at);
	assert_int_equal(fcr_flow_lookup_cached(t->flows, &c, &k, 1, idx), 0);
	assert_int_equal(fcr_flow_lookup_cached(t->flows, &c, &k2, 1, idx), 1);
	assert_int_equal(idx[0], at2);
	/* the first key back, in another slot */
	at = fcr_flow_set(t->flows, k, fcr_action(1, 2, FCR_LEG_PLAIN), FCR_NO_OWNER);
	assert_int_not_equal(at, at2);
	assert_int_equal(fcr_flow_lookup_cached(t->flows, &c, &k, 1, idx), 1);
	assert_int_equal(idx[0], at);

	/* random keys over a few hundred flows churning: bursts answered as
	 * the table answers, with keys sharing cache buckets */
	tu_rng_seed(&r, 77);
	for (round = 0; round < 2000; round++) {
		for (i = 0; i < 32; i++)
			keys[i] = fcr_flow_key(1, tu_rand32(&r) % 300, 7);
		if (round % 3 == 0)
			fcr_flow_set(t->flows, keys[0], 0, FCR_NO_OWNER);
		if (round % 5 == 0)
			fcr_flow_del(t->flows, keys[1]);
		fcr_flow_lookup_bulk(t->flows, keys, 32, ref);
		fcr_flow_lookup_cached(t->flows, &c, keys, 32, idx);
		for (i = 0, present = 0; i < 32; i++) {
			assert_int_equal(idx[i], ref[i]);
			present += ref[i] != FCR_FLOW_NONE;
		}
		/* the same burst again: every key present comes from the cache */
		hits = c.hits;
		assert_int_equal(fcr_flow_lookup_cached(t->flows, &c, keys, 32, idx), present);
		assert_int_equal(c.hits - hits, present);
		for (i = 0; i < 32; i++)
			assert_int_equal(idx[i], ref[i]);
	}
	fcr_tables_free(t);
}

/* Plain entries with no frame (here or at a peer) for a whole turn of the
 * expiry scan go; redirect rules and flows still forwarding stay. */
static void
idle_plain_flows_expire_and_rules_stay(void **state)
{
	struct fcr_tables *t = mk();
	struct fcr_flow_table *ft = t->flows;
	uint64_t a = fcr_flow_key(9, 0x010101, 0x410101), b = fcr_flow_key(9, 0x010102, 0x410101);
	uint64_t c = fcr_flow_key(9, 0x010103, 0x410101);
	int ia, ic;
	uint32_t i;

	(void)state;
	bind4(t);
	assert_true(fcr_redirect_add(t->redirects, VLAN, H, T, VI, VT) >= 0);
	ia = fcr_flow_set(ft, a, fcr_action(0x010101, 0x410101, FCR_LEG_PLAIN), FCR_NO_OWNER);
	assert_true(ia >= 0);
	assert_true(fcr_flow_set(ft, b, fcr_action(0x010102, 0x410101, FCR_LEG_PLAIN),
				 FCR_NO_OWNER) >= 0);
	assert_int_equal(ft->count, FCR_REDIRECT_KEYS + 2);
	/* the first turn only notes the new entries */
	fcr_tables_expire(t, ft->capacity, UINT32_MAX);
	assert_int_equal(ft->count, FCR_REDIRECT_KEYS + 2);
	/* a forwarded frame of a (worker 1) between the turns keeps it */
	fcr_flow_count(&ft->counters[1][ia], 100, 12345);
	fcr_tables_expire(t, ft->capacity, UINT32_MAX);
	assert_int_equal(ft->count, FCR_REDIRECT_KEYS + 1);
	assert_true(fcr_flow_find(ft, a) >= 0);
	assert_int_equal(fcr_flow_find(ft, b), -ENOENT);
	assert_int_equal(t->st.flows_expired, 1);
	/* a turn in small steps is a turn; the rules never go */
	for (i = 0; i < ft->capacity; i++)
		fcr_tables_expire(t, 1, UINT32_MAX);
	assert_int_equal(fcr_flow_find(ft, a), -ENOENT);
	assert_int_equal(t->st.flows_expired, 2);
	assert_int_equal(ft->count, FCR_REDIRECT_KEYS);
	assert_four_rules(t, FH, FT, FVI, FVT);
	for (i = 0; i < 3; i++)
		fcr_tables_expire(t, ft->capacity, UINT32_MAX);
	assert_four_rules(t, FH, FT, FVI, FVT);

	/* with replication, frames a peer reports keep a flow too */
	assert_int_equal(fcr_tables_attach_log(t, 0), 0);
	ic = fcr_flow_set(ft, c, fcr_action(0x010103, 0x410101, FCR_LEG_PLAIN), FCR_NO_OWNER);
	assert_true(ic >= 0);
	fcr_tables_expire(t, ft->capacity, UINT32_MAX);
	ft->remote[ic].frames += 7;
	fcr_tables_expire(t, ft->capacity, UINT32_MAX);
	assert_true(fcr_flow_find(ft, c) >= 0);
	fcr_tables_expire(t, ft->capacity, UINT32_MAX);
	assert_int_equal(fcr_flow_find(ft, c), -ENOENT);
	assert_int_equal(t->st.flows_expired, 3);
	fcr_tables_free(t);
}

static void
flow_table_fills_to_capacity_then_refuses(void **state)
{
	struct fcr_tables *t = mk();
	uint32_t i;

	(void)state;
	for (i = 0; i < 1024; i++)
		assert_true(fcr_flow_set(t->flows, fcr_flow_key(1, i, i + 1), 0, 0) >= 0);
	assert_int_equal(fcr_flow_set(t->flows, fcr_flow_key(2, 1, 1), 0, 0), -ENOSPC);
	/* a delete makes room again (no readers: freed at once) */
	assert_int_equal(fcr_flow_del(t->flows, fcr_flow_key(1, 7, 8)), 0);
	assert_true(fcr_flow_set(t->flows, fcr_flow_key(2, 1, 1), 0, 0) >= 0);
	fcr_tables_free(t);
}

static void
counters_sum_over_workers(void **state)
{
	struct fcr_tables *t = mk();
	struct fcr_flow_counters c;
	int idx = fcr_flow_set(t->flows, fcr_flow_key(1, 2, 3), 0, 0);

	(void)state;
	fcr_flow_count(&t->flows->counters[0][idx], 100, 50);
	fcr_flow_count(&t->flows->counters[0][idx], 100, 70);
	fcr_flow_count(&t->flows->counters[1][idx], 60, 40);
	fcr_flow_counters_sum(t->flows, (uint32_t)idx, &c);
	assert_int_equal(c.frames, 3);
	assert_int_equal(c.bytes, 260);
	assert_int_equal(c.first_tsc, 40);
	assert_int_equal(c.last_tsc, 70);
	fcr_tables_free(t);
}

/* The next hops of frames in vlan to d[0..n) (at most 8), as a worker
 * looks them up. */
static void
route_lookup(const struct fcr_route_table *rt, uint16_t vlan, const uint32_t *d,
	     uint32_t *nh, unsigned int n)
{
	uint32_t keys[8];
	unsigned int i;

	for (i = 0; i < n; i++)
		keys[i] = fcr_route_key(rt, vlan, d[i]);
	fcr_route_lookup_bulk(rt, keys, nh, n);
}

/* The port a frame in vlan to d leaves by, or -1 with no route. */
static int
route_port(const struct fcr_route_table *rt, uint16_t vlan, uint32_t d)
{
	uint32_t nh;

	route_lookup(rt, vlan, &d, &nh, 1);
	return nh == FCR_ROUTE_NONE ? -1 : rt->nexthop[nh].port;
}

static void
routes_longest_prefix_wins_and_replace_and_delete(void **state)
{
	struct fcr_tables *t = mk();
	uint8_t mac[6] = { 2, 0, 0, 0, 0, 9 };
	uint32_t d[3] = { 0x010203, 0x01ff00, 0x020000 }, nh[3];

	(void)state;
	assert_int_equal(fcr_route_add(t->routes, FCR_VLAN_ANY, 0x010000, 8, 1, NULL), 0);
	assert_int_equal(fcr_route_add(t->routes, FCR_VLAN_ANY, 0x010200, 16, 2, mac), 0);
	assert_int_equal(fcr_route_add(t->routes, FCR_VLAN_ANY, 0x010000, 25, 2, mac), -EINVAL);
	assert_int_equal(fcr_route_add(t->routes, 4096, 0x010000, 8, 2, mac), -EINVAL);
	route_lookup(t->routes, VLAN, d, nh, 3);
	assert_int_equal(t->routes->nexthop[nh[0]].port, 2);
	assert_memory_equal(t->routes->nexthop[nh[0]].mac, mac, 6);
	assert_int_equal(t->routes->nexthop[nh[1]].port, 1);
	assert_true(t->routes->nexthop[nh[1]].flags & FCR_NH_FPMA);
	assert_int_equal(nh[2], FCR_ROUTE_NONE);
	/* replacing keeps one route and changes the port */
	assert_int_equal(fcr_route_add(t->routes, FCR_VLAN_ANY, 0x01ABCD, 8, 3, NULL), 0);
	assert_int_equal(t->routes->nb_routes, 2);
	route_lookup(t->routes, VLAN, d, nh, 2);
	assert_int_equal(t->routes->nexthop[nh[1]].port, 3);
	assert_int_equal(fcr_route_del(t->routes, FCR_VLAN_ANY, 0x010200, 16), 0);
	assert_int_equal(fcr_route_del(t->routes, FCR_VLAN_ANY, 0x010200, 16), -ENOENT);
	route_lookup(t->routes, VLAN, d, nh, 1);
	assert_int_equal(t->routes->nexthop[nh[0]].port, 3);
	/* a /24 for every VLAN (an LPM /32, in a tbl8 group) */
	assert_int_equal(fcr_route_add(t->routes, FCR_VLAN_ANY, 0x010203, 24, 4, NULL), 0);
	assert_int_equal(route_port(t->routes, 0, 0x010203), 4);
	assert_int_equal(route_port(t->routes, 0, 0x010204), 3);
	fcr_tables_free(t);
}

/* VLANs are separate fabrics: the same FCID in VLANs 100 and 200 routed to
 * different ports, /24 and /8 alike; a frame whose VLAN has no matching
 * route of its own takes the routes for every VLAN. */
static void
routes_of_two_vlans_send_the_same_fcid_apart(void **state)
{
	struct fcr_route_table *rt = fcr_route_table_create("rt2v", 64, NULL, 0);
	/* one bulk mixing the VLANs, so the look-ups again for every VLAN
	 * come back to the right frames */
	uint16_t vl[8] = { 100, 200, 300, 100, 200, 100, 200, 100 };
	uint32_t d[8] = { 0x010203, 0x010203, 0x010203, 0x020001, 0x020001,
			  0x010204, 0x030001, 0x040000 };
	int want[8] = { 1, 2, 5, 3, 0, 5, 6, -1 };
	uint32_t keys[8], nh[8];
	unsigned int i;

	(void)state;
	assert_non_null(rt);
	assert_int_equal(fcr_route_add(rt, 100, 0x010203, 24, 1, NULL), 0);
	assert_int_equal(fcr_route_add(rt, 200, 0x010203, 24, 2, NULL), 0);
	assert_int_equal(fcr_route_add(rt, 100, 0x020000, 8, 3, NULL), 0);
	assert_int_equal(fcr_route_add(rt, 200, 0x020000, 8, 0, NULL), 0);
	assert_int_equal(fcr_route_add(rt, FCR_VLAN_ANY, 0x010000, 8, 5, NULL), 0);
	assert_int_equal(fcr_route_add(rt, FCR_VLAN_ANY, 0x030000, 16, 6, NULL), 0);
	assert_int_equal(rt->nb_routes, 6);
	assert_int_not_equal(rt->slot_of[100], 0);
	assert_int_not_equal(rt->slot_of[200], 0);
	assert_int_not_equal(rt->slot_of[100], rt->slot_of[200]);
	assert_int_equal(rt->slot_of[300], 0);
	for (i = 0; i < 8; i++)
		keys[i] = fcr_route_key(rt, vl[i], d[i]);
	fcr_route_lookup_bulk(rt, keys, nh, 8);
	for (i = 0; i < 8; i++)
		if ((nh[i] == FCR_ROUTE_NONE ? -1 : rt->nexthop[nh[i]].port) != want[i])
			fail_msg("vlan %u to %06x: nh %u, want port %d", vl[i], d[i], nh[i],
				 want[i]);
	/* a VLAN's own /8 comes before a longer route for every VLAN */
	assert_int_equal(fcr_route_add(rt, FCR_VLAN_ANY, 0x020300, 16, 7, NULL), 0);
	assert_int_equal(route_port(rt, 100, 0x020301), 3);
	assert_int_equal(route_port(rt, 300, 0x020301), 7);
	/* routes are found and deleted in their VLAN only */
	assert_true(fcr_route_find(rt, 100, 0x010203, 24) >= 0);
	assert_int_equal(fcr_route_find(rt, 300, 0x010203, 24), -ENOENT);
	assert_int_equal(fcr_route_del(rt, 300, 0x010203, 24), -ENOENT);
	assert_int_equal(fcr_route_del(rt, FCR_VLAN_ANY, 0x010203, 24), -ENOENT);
	assert_int_equal(fcr_route_del(rt, 100, 0x010203, 24), 0);
	assert_int_equal(route_port(rt, 100, 0x010203), 5);
	assert_int_equal(route_port(rt, 200, 0x010203), 2);
	/* replacing a VLAN's route keeps it in its VLAN */
	assert_int_equal(fcr_route_add(rt, 200, 0x010203, 24, 4, NULL), 0);
	assert_int_equal(route_port(rt, 200, 0x010203), 4);
	assert_int_equal(route_port(rt, 100, 0x010203), 5);
	assert_int_equal(rt->nb_routes, 6);
	fcr_route_table_free(rt);
}

/* A VLAN's slot goes with its last route and is then another VLAN's; 255
 * VLANs can have routes of their own, the 256th is refused until one
 * goes. */
static void
vlan_slots_are_freed_reused_and_at_most_255(void **state)
{
	struct fcr_route_table *rt = fcr_route_table_create("rtsl", 512, NULL, 0);
	unsigned int v;
	int slot;

	(void)state;
	assert_non_null(rt);
	assert_int_equal(fcr_route_add(rt, 10, 0x010000, 8, 1, NULL), 0);
	assert_int_equal(fcr_route_add(rt, 10, 0x010001, 24, 2, NULL), 0);
	slot = rt->slot_of[10];
	assert_int_not_equal(slot, 0);
	assert_int_equal(rt->slot_routes[slot], 2);
	assert_int_equal(fcr_route_del(rt, 10, 0x010000, 8), 0);
	assert_int_equal(rt->slot_of[10], slot);
	assert_int_equal(fcr_route_del(rt, 10, 0x010001, 24), 0);
	assert_int_equal(rt->slot_of[10], 0);
	assert_int_equal(rt->slot_routes[slot], 0);
	assert_int_equal(route_port(rt, 10, 0x010001), -1);
	/* the slot is the next VLAN's, and holds nothing of VLAN 10 */
	assert_int_equal(fcr_route_add(rt, 11, 0x020000, 8, 3, NULL), 0);
	assert_int_equal(rt->slot_of[11], slot);
	assert_int_equal(route_port(rt, 11, 0x020001), 3);
	assert_int_equal(route_port(rt, 11, 0x010001), -1);
	assert_int_equal(route_port(rt, 10, 0x020001), -1);
	/* 255 VLANs (11 and 1001..1254), a /24 each: the 256th is refused */
	for (v = 1; v < 255; v++)
		assert_int_equal(fcr_route_add(rt, (uint16_t)(1000 + v), 0x010000 | v, 24,
					       (uint16_t)(v % 8), NULL), 0);
	assert_int_equal(fcr_route_slot(rt, 300), -ENOSPC);
	assert_int_equal(fcr_route_add(rt, 300, 0x010000, 8, 1, NULL), -ENOSPC);
	assert_int_equal(rt->slot_of[300], 0);
	/* more routes in a VLAN that has a slot, and for every VLAN, still fit */
	assert_int_equal(fcr_route_add(rt, 11, 0x030000, 16, 4, NULL), 0);
	assert_int_equal(fcr_route_add(rt, FCR_VLAN_ANY, 0x010000, 8, 7, NULL), 0);
	for (v = 1; v < 255; v++) {
		assert_int_equal(route_port(rt, (uint16_t)(1000 + v), 0x010000 | v), (int)(v % 8));
		assert_int_equal(route_port(rt, (uint16_t)(1000 + v), 0x010000 | (v + 1)), 7);
	}
	assert_int_equal(route_port(rt, 300, 0x010005), 7);
	/* one VLAN's last route goes: the 256th gets its slot */
	slot = rt->slot_of[1042];
	assert_int_equal(fcr_route_del(rt, 1042, 0x01002A, 24), 0);
	assert_int_equal(fcr_route_add(rt, 300, 0x01002A, 24, 6, NULL), 0);
	assert_int_equal(rt->slot_of[300], slot);
	assert_int_equal(route_port(rt, 300, 0x01002A), 6);
	assert_int_equal(route_port(rt, 1042, 0x01002A), 7);
	fcr_route_table_free(rt);
}

static void
redirect_installs_four_rules_when_all_bound(void **state)
{
	struct fcr_tables *t = mk();
	int id;

	(void)state;
	assert_int_equal(fcr_tables_binding_add(t, VLAN, H, FH, FCR_BIND_STATIC), 0);
	assert_int_equal(fcr_tables_binding_add(t, VLAN, T, FT, FCR_BIND_STATIC), 0);
	id = fcr_redirect_add(t->redirects, VLAN, H, T, VI, VT);
	assert_true(id >= 0);
	assert_int_equal(t->redirects->r[id].state, FCR_RS_WAITING);
	assert_int_equal(fcr_redirect_missing(t->redirects, (uint32_t)id), FCR_M_VI);
	/* fail closed: the bound pair's frames are dropped, not forwarded */
	assert_rule(t, FH, FT, FH, FT, FCR_LEG_BLOCKED);
	assert_rule(t, FT, FH, FT, FH, FCR_LEG_BLOCKED);
	assert_true(action_of(t, FVI, FT) < 0);
	assert_int_equal(fcr_tables_binding_add(t, VLAN, VI, FVI, FCR_BIND_STATIC), 0);
	assert_int_equal(fcr_redirect_missing(t->redirects, (uint32_t)id), FCR_M_VT);
	assert_int_equal(fcr_tables_binding_add(t, VLAN, VT, FVT, FCR_BIND_STATIC), 0);
	assert_int_equal(t->redirects->r[id].state, FCR_RS_ACTIVE);
	assert_four_rules(t, FH, FT, FVI, FVT);
	assert_int_equal(t->redirects->nb_active, 1);
	fcr_tables_free(t);
}

static void
redirect_on_another_vlan_does_not_match(void **state)
{
	struct fcr_tables *t = mk();

	(void)state;
	bind4(t);
	assert_true(fcr_redirect_add(t->redirects, VLAN + 1, H, T, VI, VT) >= 0);
	assert_true(action_of(t, FH, FT) < 0);
	assert_int_equal(fcr_redirect_missing(t->redirects, 0), FCR_M_HOST);
	fcr_tables_free(t);
}

static void
redirect_refuses_a_port_named_twice(void **state)
{
	struct fcr_tables *t = mk();

	(void)state;
	assert_int_equal(fcr_redirect_add(t->redirects, VLAN, H, T, H, VT), -EINVAL);
	assert_int_equal(t->redirects->count, 0);
	fcr_tables_free(t);
}

static void
rebinding_a_member_rebuilds_the_rules(void **state)
{
	struct fcr_tables *t = mk();
	int shared;

	(void)state;
	bind4(t);
	assert_true(fcr_redirect_add(t->redirects, VLAN, H, T, VI, VT) >= 0);
	assert_four_rules(t, FH, FT, FVI, FVT);
	shared = fcr_flow_find(t->flows, fcr_flow_key(VLAN, FVI, FT));
	assert_int_equal(fcr_tables_binding_add(t, VLAN, H, 0x010099, FCR_BIND_LEARNED), 0);
	assert_no_rules_for_host(t, FH, FT, FVT);
	assert_four_rules(t, 0x010099, FT, FVI, FVT);
	/* the VI->target key was changed in place, never missing */
	assert_int_equal(fcr_flow_find(t->flows, fcr_flow_key(VLAN, FVI, FT)), shared);
	assert_int_equal(t->redirects->r[0].installs, 2);
	fcr_tables_free(t);
}

static void
an_fcid_taken_by_another_port_unbinds_the_first(void **state)
{
	struct fcr_tables *t = mk();

	(void)state;
	bind4(t);
	assert_true(fcr_redirect_add(t->redirects, VLAN, H, T, VI, VT) >= 0);
	/* the fabric gives the host's FCID to some other port */
	assert_int_equal(fcr_tables_binding_add(t, VLAN, 0x2100000000000099ull, FH,
						FCR_BIND_LEARNED), 0);
	assert_int_equal(t->st.bindings_evicted, 1);
	assert_no_rules(t, FH, FT, FVI, FVT);
	assert_int_equal(fcr_redirect_missing(t->redirects, 0), FCR_M_HOST);
	fcr_tables_free(t);
}

static void
redirect_del_and_unbind_remove_the_rules(void **state)
{
	struct fcr_tables *t = mk();

	(void)state;
	bind4(t);
	assert_true(fcr_redirect_add(t->redirects, VLAN, H, T, VI, VT) >= 0);
	assert_int_equal(fcr_tables_binding_del(t, VLAN, VT), 0);
	/* the service node's legs go; the pair blocks */
	assert_rule(t, FH, FT, FH, FT, FCR_LEG_BLOCKED);
	assert_rule(t, FT, FH, FT, FH, FCR_LEG_BLOCKED);
	assert_true(action_of(t, FVI, FT) < 0);
	assert_true(action_of(t, FVT, FH) < 0);
	assert_int_equal(t->redirects->r[0].state, FCR_RS_WAITING);
	/* the host goes too: its FCID means nothing now, nothing blocks */
	assert_int_equal(fcr_tables_binding_del(t, VLAN, H), 0);
	assert_no_rules(t, FH, FT, FVI, FVT);
	assert_int_equal(fcr_tables_binding_add(t, VLAN, H, FH, FCR_BIND_STATIC), 0);
	assert_int_equal(fcr_tables_binding_add(t, VLAN, VT, FVT, FCR_BIND_STATIC), 0);
	assert_four_rules(t, FH, FT, FVI, FVT);
	assert_int_equal(fcr_redirect_del(t->redirects, VLAN, H, T), 0);
	assert_no_rules(t, FH, FT, FVI, FVT);
	assert_int_equal(fcr_redirect_del(t->redirects, VLAN, H, T), -ENOENT);
	assert_int_equal(t->redirects->count, 0);
	assert_int_equal(t->flows->count, 0);
	fcr_tables_free(t);
}

static void
two_redirects_sharing_a_key_conflict(void **state)
{
	struct fcr_tables *t = mk();
	int a, b;

	(void)state;
	bind4(t);
	assert_int_equal(fcr_tables_binding_add(t, VLAN, 0x2100000000000002ull, 0x010002,
						FCR_BIND_STATIC), 0);
	a = fcr_redirect_add(t->redirects, VLAN, H, T, VI, VT);
	/* a second host using the same VI towards the same target would
	 * need the same VI->target key */
	b = fcr_redirect_add(t->redirects, VLAN, 0x2100000000000002ull, T, VI, VT);
	assert_int_equal(t->redirects->r[a].state, FCR_RS_ACTIVE);
	assert_int_equal(t->redirects->r[b].state, FCR_RS_CONFLICT);
	assert_four_rules(t, FH, FT, FVI, FVT);
	/* the same again tries again, and is still in conflict */
	assert_int_equal(fcr_redirect_add(t->redirects, VLAN, 0x2100000000000002ull, T, VI, VT), b);
	assert_int_equal(t->redirects->r[b].state, FCR_RS_CONFLICT);
	assert_int_equal(fcr_redirect_retry_blocked(t->redirects), 0);
	/* the first goes: the second takes the keys at once, so the VI's
	 * frames are never without a rule between the two */
	assert_int_equal(fcr_redirect_del(t->redirects, VLAN, H, T), 0);
	assert_int_equal(t->redirects->r[b].state, FCR_RS_ACTIVE);
	assert_four_rules(t, 0x010002, FT, FVI, FVT);
	/* nothing blocked: nothing scanned, nothing changes */
	assert_int_equal(t->redirects->blocked, 0);
	assert_int_equal(fcr_redirect_retry_blocked(t->redirects), 0);
	fcr_tables_free(t);
}

/* Fill the table with plain flows until it refuses one; returns how many. */
static uint32_t
flood(struct fcr_flow_table *ft)
{
	uint32_t i;

	for (i = 0; fcr_flow_set(ft, fcr_flow_key(3, 0x020000 + i, 0x420000), 0,
				 FCR_NO_OWNER) >= 0; i++)
		;
	return i;
}

/* The flow table keeps 4 entries for every redirect the table can hold: a
 * flood of new flows fills only the rest, and a redirect added after it
 * still installs, moves to new FCIDs and blocks. */
static void
a_flood_of_flows_cannot_take_a_redirects_room(void **state)
{
	struct fcr_tables *t = mk();
	struct fcr_flow_table *ft = t->flows;
	struct fcr_tables_params p = {
		.max_flows = 256, .max_routes = 16, .max_bindings = 64,
		.max_redirects = 64, .nb_workers = 1, .qsbr = NULL, .socket = 0,
	};
	int id;

	(void)state;
	assert_int_equal(ft->reserve, fcr_redirect_reserve(64));
	assert_int_equal(flood(ft), ft->capacity - fcr_redirect_reserve(64));
	assert_int_equal(t->st.flow_table_full, 0);
	/* the host and target bound: the pair blocks */
	assert_int_equal(fcr_tables_binding_add(t, VLAN, H, FH, FCR_BIND_STATIC), 0);
	assert_int_equal(fcr_tables_binding_add(t, VLAN, T, FT, FCR_BIND_STATIC), 0);
	id = fcr_redirect_add(t->redirects, VLAN, H, T, VI, VT);
	assert_true(id >= 0);
	assert_rule(t, FH, FT, FH, FT, FCR_LEG_BLOCKED);
	/* the service node logs in: the four rules go in all the same */
	assert_int_equal(fcr_tables_binding_add(t, VLAN, VI, FVI, FCR_BIND_STATIC), 0);
	assert_int_equal(fcr_tables_binding_add(t, VLAN, VT, FVT, FCR_BIND_STATIC), 0);
	assert_int_equal(t->redirects->r[id].state, FCR_RS_ACTIVE);
	assert_four_rules(t, FH, FT, FVI, FVT);
	/* the host moves: three new keys before the three old ones go */
	assert_int_equal(fcr_tables_binding_add(t, VLAN, H, 0x010099, FCR_BIND_LEARNED), 0);
	assert_four_rules(t, 0x010099, FT, FVI, FVT);
	assert_no_rules_for_host(t, FH, FT, FVT);
	fcr_tables_free(t);

	/* a table that cannot keep its redirects' entries is refused */
	p.max_redirects = 64;
	p.max_flows = fcr_redirect_reserve(64) - 1;
	assert_null(fcr_tables_create("rsv", &p));
	p.max_flows = fcr_redirect_reserve(64);
	t = fcr_tables_create("rsv", &p);
	assert_non_null(t);
	assert_int_equal(flood(t->flows), 0);
	fcr_tables_free(t);

	/* room for one redirect (--max-redirects 1): the second is refused */
	p.max_redirects = 1;
	p.max_flows = 64;
	t = fcr_tables_create("one", &p);
	assert_non_null(t);
	assert_true(fcr_redirect_add(t->redirects, VLAN, H, T, VI, VT) >= 0);
	assert_int_equal(fcr_redirect_add(t->redirects, VLAN, H + 1, T + 1, VI + 1, VT + 1),
			 -ENOSPC);
	fcr_tables_free(t);
}

static void
first_frames_of_a_flow_whose_rule_came_later_count_as_before_rule(void **state)
{
	struct fcr_tables *t = mk();
	struct fcr_event ev;

	(void)state;
	bind4(t);
	assert_true(fcr_redirect_add(t->redirects, VLAN, H, T, VI, VT) >= 0);
	/* the worker missed (no rule yet when it looked): 1 + 4 frames */
	fcr_event_flow(&ev, fcr_flow_key(VLAN, FH, FT));
	ev.count = 1;
	fcr_tables_event(t, &ev);
	ev.type = FCR_EV_FLOW_MISSES;
	ev.count = 4;
	fcr_tables_event(t, &ev);
	assert_int_equal(t->redirects->r[0].frames_before, 5);
	/* misses of a flow with no entry yet are plain frames, nothing more */
	fcr_event_flow(&ev, fcr_flow_key(VLAN, 0x010077, FT));
	ev.type = FCR_EV_FLOW_MISSES;
	ev.count = 3;
	fcr_tables_event(t, &ev);
	assert_int_equal(t->st.flows_added, 0);
	fcr_tables_free(t);
}

static void
first_frame_event_adds_a_plain_entry_once(void **state)
{
	struct fcr_tables *t = mk();
	struct fcr_event ev;

	(void)state;
	fcr_event_flow(&ev, fcr_flow_key(VLAN, FH, FT));
	fcr_tables_event(t, &ev);
	fcr_tables_event(t, &ev);
	assert_int_equal(t->st.flows_added, 1);
	assert_rule(t, FH, FT, FH, FT, FCR_LEG_PLAIN);
	/* a redirect installed later takes over the key and counts what went
	 * plain before it */
	fcr_flow_count(&t->flows->counters[1][fcr_flow_find(t->flows,
		fcr_flow_key(VLAN, FH, FT))], 68, 1);
	bind4(t);
	assert_true(fcr_redirect_add(t->redirects, VLAN, H, T, VI, VT) >= 0);
	assert_four_rules(t, FH, FT, FVI, FVT);
	assert_int_equal(t->redirects->r[0].frames_before, 1);
	fcr_tables_free(t);
}

struct note_log {
	struct fcr_note n[16];
	unsigned int count;
};

static void
record_note(void *ctx, const struct fcr_note *n)
{
	struct note_log *l = ctx;

	assert_true(l->count < 16);
	l->n[l->count++] = *n;
}

/* Requests come in on the edge port, replies on the fabric port, unless
 * reply_port says otherwise. */
static uint8_t reply_port = FABRIC_PORT;
static uint8_t request_port = EDGE_PORT;
/* when login()'s frames were seen */
static uint64_t login_tsc;

static void
login(struct fcr_tables *t, enum fcr_login_kind kind, uint8_t answers,
      int fip, uint32_t s, uint32_t d, uint16_t ox, uint64_t wwpn,
      uint32_t port_id, uint8_t enode_last)
{
	struct fcr_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.type = FCR_EV_LOGIN;
	ev.kind = (uint8_t)kind;
	ev.answers = answers;
	ev.via_fip = (uint8_t)fip;
	ev.vlan = VLAN;
	ev.s_id = s;
	ev.d_id = d;
	ev.ox_id = ox;
	ev.wwpn = wwpn;
	ev.has_wwpn = wwpn != 0;
	ev.port_id = port_id;
	ev.enode[0] = 0x0e;
	ev.enode[5] = enode_last;
	ev.port = kind == FCR_LOGIN_ACC || kind == FCR_LOGIN_RJT ? reply_port : request_port;
	ev.tsc = login_tsc;
	fcr_tables_event(t, &ev);
}

static uint64_t
fpma_vn(uint32_t fcid, unsigned int port)
{
	uint8_t mac[6];

	fcr_fpma(mac, FCR_FC_MAP_DEFAULT, fcid);
	return fcr_vn_pack(mac, port);
}

static void
flogi_and_its_accept_bind_the_requester(void **state)
{
	struct fcr_tables *t = mk();
	uint64_t key, vn;
	uint32_t n;

	(void)state;
	login(t, FCR_LOGIN_FLOGI, 0, 0, 0, FCR_FCID_FLOGI, 7, H, 0, 1);
	/* another ENode's FLOGI with the same OX_ID must not be confused */
	login(t, FCR_LOGIN_FLOGI, 0, 0, 0, FCR_FCID_FLOGI, 7, T, 0, 2);
	login(t, FCR_LOGIN_ACC, 0, 0, FCR_FCID_FLOGI, FH, 7, 0x2000000000000fffull, 0, 1);
	login(t, FCR_LOGIN_ACC, 0, 0, FCR_FCID_FLOGI, FT, 7, 0x2000000000000fffull, 0, 2);
	n = fcr_binding_get(t->bindings, VLAN, H, 0);
	assert_int_not_equal(n, FCR_BINDING_NONE);
	assert_int_equal(t->bindings->entry[n].fcid, FH);
	assert_int_equal(t->bindings->entry[n].origin, FCR_BIND_LEARNED);
	/* its frames may come from its FPMA MAC, through the port it asked on */
	key = fcr_vn_key(VLAN, FH);
	fcr_vn_lookup_bulk(t->bindings, &key, 1, &vn);
	assert_true(vn == fpma_vn(FH, EDGE_PORT));
	n = fcr_binding_get(t->bindings, VLAN, T, 0);
	assert_int_equal(t->bindings->entry[n].fcid, FT);
	assert_int_equal(t->st.bindings_learned, 2);
	/* a binding a sync peer learned confirming a static one leaves it
	 * static */
	assert_int_equal(fcr_tables_binding_add(t, VLAN, VT, FVT, FCR_BIND_STATIC), 0);
	assert_int_equal(fcr_tables_binding_add(t, VLAN, VT, FVT, FCR_BIND_LEARNED), 0);
	assert_int_equal(t->bindings->entry[fcr_binding_get(t->bindings, VLAN, VT, 0)].origin,
			 FCR_BIND_STATIC);
	key = fcr_vn_key(VLAN, FVT);
	fcr_vn_lookup_bulk(t->bindings, &key, 1, &vn);
	assert_true(vn == FCR_VN_ANY);
	/* an accept nobody asked for binds nothing */
	login(t, FCR_LOGIN_ACC, 0, 0, FCR_FCID_FLOGI, 0x010777, 9, 0x20000000000000ffull, 0, 3);
	assert_int_equal(t->st.acc_unmatched, 1);
	assert_int_equal(fcr_binding_by_fcid(t->bindings, VLAN, 0x010777), FCR_BINDING_NONE);
	/* an accept that overtakes its request (two workers) still pairs */
	login(t, FCR_LOGIN_ACC, 0, 0, FCR_FCID_FLOGI, 0x010888, 11, 0x20000000000000ffull, 0, 5);
	assert_int_equal(t->st.acc_unmatched, 2);
	login(t, FCR_LOGIN_FLOGI, 0, 0, 0, FCR_FCID_FLOGI, 11, VI, 0, 5);
	assert_int_equal(t->st.acc_unmatched, 1);
	n = fcr_binding_get(t->bindings, VLAN, VI, 0);
	assert_int_equal(t->bindings->entry[n].fcid, 0x010888);
	assert_true(t->bindings->entry[n].vn == fpma_vn(0x010888, EDGE_PORT));
	fcr_tables_free(t);
}

/* The workers' VN_Port cache answers what the table does after every kind
 * of change to it: each step primes the cache, changes the table, and
 * compares; a change that did not bump the generation leaves a stale word. */
static void
vn_cache_follows_every_change_to_the_vn_table(void **state)
{
	static struct fcr_vn_cache c; /* 24 KB: not on the stack */
	struct fcr_tables *t = mk();
	struct fcr_binding_table *bt = t->bindings;
	uint64_t keys[4], want[4], got[4];
	uint32_t a, b, ev;
	unsigned int step, i;

	(void)state;
	memset(&c, 0, sizeof(c));
	keys[0] = fcr_vn_key(VLAN, FH);
	keys[1] = fcr_vn_key(VLAN, FT);
	keys[2] = fcr_vn_key(VLAN, 0x010999);
	keys[3] = fcr_vn_key(VLAN + 1, FH);
	a = fcr_binding_get(bt, VLAN, H, 1);
	b = fcr_binding_get(bt, VLAN, T, 1);
	for (step = 0; step < 7; step++) {
		/* prime: the cache now holds every key, at this generation */
		fcr_vn_lookup_cached(bt, &c, keys, 4, got);
		switch (step) {
		case 0: /* bind: a new key */
			assert_int_equal(fcr_binding_bind(bt, a, FH, FCR_BIND_LEARNED,
							  fpma_vn(FH, 1),
							  fcr_binding_by_fcid(bt, VLAN, FH), &ev), 1);
			break;
		case 1: /* the same FCID, another MAC or port: the word changes */
			assert_int_equal(fcr_binding_bind(bt, a, FH, FCR_BIND_LEARNED,
							  fpma_vn(FH, 2),
							  fcr_binding_by_fcid(bt, VLAN, FH), &ev), 0);
			break;
		case 2: /* a second port */
			assert_int_equal(fcr_binding_bind(bt, b, FT, FCR_BIND_STATIC,
							  FCR_VN_ANY,
							  fcr_binding_by_fcid(bt, VLAN, FT), &ev), 1);
			break;
		case 3: /* told to leave (a cutover) */
			assert_int_equal(fcr_binding_leaving(bt, a), 0);
			break;
		case 4: /* another name takes FT: the first is evicted */
			assert_int_equal(fcr_binding_bind(bt, a, FT, FCR_BIND_LEARNED,
							  fpma_vn(FT, 1),
							  fcr_binding_by_fcid(bt, VLAN, FT), &ev), 1);
			assert_int_equal(ev, b);
			break;
		case 5: /* moves to a third FCID */
			assert_int_equal(fcr_binding_bind(bt, a, 0x010999, FCR_BIND_LEARNED,
							  fpma_vn(0x010999, 1),
							  fcr_binding_by_fcid(bt, VLAN, 0x010999), &ev), 1);
			break;
		default: /* unbound */
			assert_int_equal(fcr_binding_unbind(bt, a), 1);
			break;
		}
		fcr_vn_lookup_bulk(bt, keys, 4, want);
		fcr_vn_lookup_cached(bt, &c, keys, 4, got);
		for (i = 0; i < 4; i++)
			if (got[i] != want[i])
				fail_msg("step %u, key %u: cache 0x%" PRIx64 ", table 0x%" PRIx64,
					 step, i, got[i], want[i]);
	}
	fcr_tables_free(t);
}

static void
fip_fdisc_reply_binds_and_plogi_teaches_nothing(void **state)
{
	static const uint8_t granted[6] = { 0x0e, 0xfc, 0x00, 0x81, 0x00, 0x01 };
	struct fcr_tables *t = mk();
	struct fcr_event ev;
	uint32_t n;

	(void)state;
	login(t, FCR_LOGIN_FDISC, 0, 1, 0, FCR_FCID_FLOGI, 3, VI, 0, 4);
	/* FIP's reply names the MAC granted */
	memset(&ev, 0, sizeof(ev));
	ev.type = FCR_EV_LOGIN;
	ev.kind = FCR_LOGIN_ACC;
	ev.answers = FCR_LOGIN_FDISC;
	ev.via_fip = 1;
	ev.has_mac = 1;
	memcpy(ev.mac, granted, 6);
	ev.vlan = VLAN;
	ev.s_id = FCR_FCID_FLOGI;
	ev.d_id = FVI;
	ev.ox_id = 3;
	ev.enode[0] = 0x0e;
	ev.enode[5] = 4;
	ev.port = FABRIC_PORT;
	fcr_tables_event(t, &ev);
	n = fcr_binding_get(t->bindings, VLAN, VI, 0);
	assert_int_equal(t->bindings->entry[n].fcid, FVI);
	assert_true(t->bindings->entry[n].vn == fcr_vn_pack(granted, EDGE_PORT));
	/* a PLOGI and its accept name WWPNs: nothing is learned from them */
	login(t, FCR_LOGIN_PLOGI, 0, 0, FVT, FT, 5, VT, 0, 9);
	login(t, FCR_LOGIN_ACC, 0, 0, FT, FVT, 5, T, 0, 9);
	assert_int_equal(fcr_binding_get(t->bindings, VLAN, VT, 0), FCR_BINDING_NONE);
	assert_int_equal(fcr_binding_get(t->bindings, VLAN, T, 0), FCR_BINDING_NONE);
	assert_int_equal(t->st.bindings_learned, 1);
	fcr_tables_free(t);
}

/* A station on an edge port posing as the fabric: its "accepts" teach
 * nothing, logged and counted. */
static void
a_fabric_reply_on_an_edge_port_teaches_nothing(void **state)
{
	struct fcr_tables *t = mk();
	struct note_log l = { .count = 0 };

	(void)state;
	t->note_hook = (struct fcr_note_hook){ .fn = record_note, .ctx = &l };
	login(t, FCR_LOGIN_FLOGI, 0, 1, 0, FCR_FCID_FLOGI, 1, VT, 0, 4);
	reply_port = EDGE_PORT;
	login(t, FCR_LOGIN_ACC, FCR_LOGIN_FLOGI, 1, FCR_FCID_FLOGI, FVT, 1, 0, 0, 4);
	login(t, FCR_LOGIN_ACC, 0, 0, FCR_FCID_FLOGI, FVT, 1, VT, 0, 4);
	reply_port = FABRIC_PORT;
	assert_int_equal(fcr_binding_get(t->bindings, VLAN, VT, 0), FCR_BINDING_NONE);
	assert_int_equal(t->st.logins_untrusted, 2);
	assert_int_equal(l.count, 2);
	assert_int_equal(l.n[0].kind, FCR_NOTE_UNTRUSTED);
	assert_int_equal(l.n[0].port, EDGE_PORT);
	/* the real reply still pairs with the request */
	login(t, FCR_LOGIN_ACC, FCR_LOGIN_FLOGI, 1, FCR_FCID_FLOGI, FVT, 1, 0, 0, 4);
	assert_int_equal(t->bindings->entry[fcr_binding_get(t->bindings, VLAN, VT, 0)].fcid, FVT);
	/* without fabric ports nothing is trusted: nothing is learned */
	t->fabric_mask = 0;
	login(t, FCR_LOGIN_FLOGI, 0, 1, 0, FCR_FCID_FLOGI, 2, VI, 0, 5);
	login(t, FCR_LOGIN_ACC, FCR_LOGIN_FLOGI, 1, FCR_FCID_FLOGI, FVI, 2, 0, 0, 5);
	assert_int_equal(fcr_binding_get(t->bindings, VLAN, VI, 0), FCR_BINDING_NONE);
	fcr_tables_free(t);
}

/* The FCF clears a VN_Port's virtual link: it has left the fabric. From an
 * edge port, the same frame is a station posing as the FCF: ignored. */
static void
the_fcfs_clear_virtual_links_unbinds(void **state)
{
	struct fcr_tables *t = mk();
	struct fcr_event ev;

	(void)state;
	login(t, FCR_LOGIN_FLOGI, 0, 1, 0, FCR_FCID_FLOGI, 1, VT, 0, 4);
	login(t, FCR_LOGIN_ACC, FCR_LOGIN_FLOGI, 1, FCR_FCID_FLOGI, FVT, 1, 0, 0, 4);
	memset(&ev, 0, sizeof(ev));
	ev.type = FCR_EV_LOGIN;
	ev.kind = FCR_LOGIN_CVL;
	ev.via_fip = 1;
	ev.vlan = VLAN;
	ev.has_wwpn = 1;
	ev.wwpn = VT;
	ev.port_id = FVT;
	ev.port = EDGE_PORT;
	fcr_tables_event(t, &ev);
	assert_int_equal(t->st.logins_untrusted, 1);
	assert_int_equal(t->bindings->entry[fcr_binding_get(t->bindings, VLAN, VT, 0)].fcid, FVT);
	ev.port = FABRIC_PORT;
	fcr_tables_event(t, &ev);
	assert_int_equal(fcr_binding_get(t->bindings, VLAN, VT, 0), FCR_BINDING_NONE);
	assert_int_equal(t->st.logouts, 1);
	fcr_tables_free(t);
}

/* An ENode that kept alive and then went silent for 2.5 keep-alive periods
 * (the period the FCF advertises) has gone: its learned bindings go, and a
 * redirect naming it waits (its pair fails closed). One that never kept
 * alive (a capture, a login over FCoE) is never timed out; nor are ENodes
 * whose FCF wants no keep-alives. Keep-alives from the fabric port or an
 * advertisement from an edge port teach nothing. */
/* A keep-alive event from ENode 0e:..:last on port, to the FCF of MAC
 * fcf_last, at tsc (ticks of 1 ms here). */
static void
keep_alive(struct fcr_tables *t, uint8_t last, uint16_t port, uint8_t fcf_last, uint64_t tsc)
{
	static const uint8_t fcf[6] = { 0x0e, 0xfc, 0, 0xff, 0xff, 0 };
	struct fcr_event ev;
	uint8_t m[6];

	memcpy(m, fcf, 6);
	m[5] = fcf_last;
	memset(&ev, 0, sizeof(ev));
	ev.type = FCR_EV_LOGIN;
	ev.kind = FCR_LOGIN_KA;
	ev.via_fip = 1;
	ev.vlan = VLAN;
	ev.mac[0] = 0x0e;
	ev.mac[5] = last;
	ev.fcf = fcr_vn_pack(m, 0);
	ev.port = (uint8_t)port;
	ev.tsc = tsc;
	fcr_tables_event(t, &ev);
}

/* An FCF of MAC 0e:fc:00:ff:ff:fcf_last advertises on port, named name. */
static void
advertise(struct fcr_tables *t, uint8_t fcf_last, uint16_t port, uint64_t name)
{
	struct fcr_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.type = FCR_EV_LOGIN;
	ev.kind = FCR_LOGIN_ADV;
	ev.via_fip = 1;
	ev.vlan = VLAN;
	ev.port_id = 1000;
	ev.name = name;
	memcpy(ev.mac, (const uint8_t[6]){ 0x0e, 0xfc, 0, 0xff, 0xff, fcf_last }, 6);
	ev.port = (uint8_t)port;
	fcr_tables_event(t, &ev);
}

/* A login over FIP from ENode 0e:..:enode_last through the edge port,
 * accepted by the FCF of MAC 0e:fc:00:ff:ff:fcf_last: wwpn bound at fcid. */
static void
fip_login_via(struct fcr_tables *t, uint64_t wwpn, uint32_t fcid, uint8_t enode_last,
	      uint8_t fcf_last)
{
	tu_fip_login(t, VLAN, wwpn, wwpn ^ 0x0100000000000000ull, fcid, EDGE_PORT, FABRIC_PORT,
		     (const uint8_t[6]){ 0x0e, 0, 0, 0, 0, enode_last },
		     (const uint8_t[6]){ 0x0e, 0xfc, 0, 0xff, 0xff, fcf_last });
}

static unsigned int
fcf_of(const struct fcr_tables *t, uint64_t wwpn)
{
	uint32_t n = fcr_binding_get(t->bindings, VLAN, wwpn, 0);

	assert_true(n != FCR_BINDING_NONE);
	return fcr_vn_fcf(t->bindings->entry[n].vn);
}

/*
 * The FCF registry: each FCF advertising on a fabric port keeps the slot it
 * was given (a new name changes no slot); a 64th is counted, not kept. A
 * login names the slot of the FCF that accepted it (the source of its
 * accept), none when that FCF never advertised or is not kept; a login
 * again through another FCF names that one; an advertisement through an
 * edge port registers nothing. A login's request gives its node name.
 */
static void
the_fcf_registry_keeps_each_fcf_s_slot_and_logins_name_theirs(void **state)
{
	struct fcr_tables *t = mk();
	unsigned int i;

	(void)state;
	for (i = 0; i < FCR_FCFS_MAX; i++)
		advertise(t, (uint8_t)i, FABRIC_PORT, 0x1000 + i);
	advertise(t, 200, EDGE_PORT, 0x2000);
	assert_int_equal(t->nb_fcfs, FCR_FCFS_MAX);
	assert_int_equal(t->st.fcfs_untracked, 0);
	advertise(t, 200, FABRIC_PORT, 0x2000);
	assert_int_equal(t->nb_fcfs, FCR_FCFS_MAX);
	assert_int_equal(t->st.fcfs_untracked, 1);
	advertise(t, 5, FABRIC_PORT, 0x3005);
	assert_int_equal(fcr_tables_fcf_slot(t, VLAN, fcr_vn_pack((const uint8_t[6]){
		0x0e, 0xfc, 0, 0xff, 0xff, 5 }, 0)), 5);
	assert_true(t->fcfs[5].name == 0x3005);

	fip_login_via(t, H, FH, 1, 7);
	assert_int_equal(fcf_of(t, H), 8);
	/* its node name, from its request */
	assert_true(t->bindings->entry[fcr_binding_get(t->bindings, VLAN, H, 0)].wwnn ==
		    (H ^ 0x0100000000000000ull));
	fip_login_via(t, T, FT, 2, 200);      /* not kept */
	assert_int_equal(fcf_of(t, T), 0);
	fip_login_via(t, VI, FVI, 3, 250);    /* never advertised */
	assert_int_equal(fcf_of(t, VI), 0);
	fip_login_via(t, H, FH, 1, 9);        /* again, through another FCF */
	assert_int_equal(fcf_of(t, H), 10);
	fcr_tables_free(t);
}

static void
record_fc_map_conflict(void *ctx, const struct fcr_note *n)
{
	if (n->kind == FCR_NOTE_FC_MAP_CONFLICT)
		record_note(ctx, n);
}

/* An FCF of MAC 0e:fc:00:ff:ff:fcf_last advertising FC-MAP fc_map. */
static void
advertise_map(struct fcr_tables *t, uint8_t fcf_last, uint32_t fc_map)
{
	struct fcr_login l = { .kind = FCR_LOGIN_ADV, .via_fip = 1, .has_mac = 1,
			       .vlan = VLAN, .wwnn = 0x1000 + fcf_last, .fc_map = fc_map,
			       .mac = { 0x0e, 0xfc, 0, 0xff, 0xff, fcf_last } };
	struct fcr_event ev;

	fcr_event_login(&ev, &l);
	ev.port = FABRIC_PORT;
	fcr_tables_event(t, &ev);
}

/* Two FCFs of a VLAN naming different FC-MAPs are not one fabric (a
 * Linux ENode hearing both chooses neither): counted at each such
 * advertisement, noted once an FCF; FCFs of other VLANs, or naming none,
 * are no conflict. */
static void
fcfs_of_a_vlan_naming_different_fc_maps_are_counted_and_noted(void **state)
{
	struct fcr_tables *t = mk();
	struct note_log nt = { 0 };

	(void)state;
	t->note_hook = (struct fcr_note_hook){ .fn = record_fc_map_conflict, .ctx = &nt };
	advertise_map(t, 1, 0x0efc00);
	advertise_map(t, 2, 0x0efc00);
	advertise_map(t, 3, 0);
	assert_int_equal(t->st.fcf_fc_map_conflicts, 0);
	advertise_map(t, 4, 0x0efc05);
	advertise_map(t, 4, 0x0efc05);
	assert_int_equal(t->st.fcf_fc_map_conflicts, 2);
	assert_int_equal(nt.count, 1);
	assert_int_equal(nt.n[0].fcid, 0x0efc05);
	assert_int_equal(nt.n[0].old_fcid, 0x0efc00);
	assert_true(nt.n[0].fcf_mac == fcr_vn_pack((const uint8_t[6]){ 0x0e, 0xfc, 0, 0xff, 0xff, 4 }, 0));
	fcr_tables_free(t);
}

static void
record_relogin(void *ctx, const struct fcr_note *n)
{
	if (n->kind == FCR_NOTE_RELOGIN)
		record_note(ctx, n);
}

/*
 * The self-healing start: an ENode that keeps alive through an edge port
 * with no login seen here logged in before fcredirect knew; once it has
 * kept alive for the wait (a keep-alive period, at least 5 s), it is made
 * to log in again, whole, in the name of its own FCF (of two on the VLAN),
 * and not again within two waits. One whose login is seen, one whose FCF
 * never advertised, keep-alives on a fabric port, and a lab with no fabric
 * ports: never. An operator's `enode relogin` tells at once.
 */
static void
an_enode_that_never_logged_in_here_is_made_to_log_in_again(void **state)
{
	struct fcr_tables *t = mk();
	struct note_log l = { .count = 0 };
	uint64_t wait;
	unsigned int unknown;
	uint8_t mac[6];

	(void)state;
	t->ticks_per_ms = 1;
	t->note_hook = (struct fcr_note_hook){ .fn = record_relogin, .ctx = &l };
	advertise(t, 1, FABRIC_PORT, 0x2001000dec000001ull);
	advertise(t, 2, FABRIC_PORT, 0x2001000dec000002ull);
	advertise(t, 3, EDGE_PORT, 0x2001000dec000003ull); /* a station: not an FCF */
	wait = fcr_tables_relogin_wait(t);
	assert_int_equal(wait, 5000); /* 1 s period: at least 5 s */
	/* ENode 7 chose FCF 2; ENode 8 logs in (FIP) while keeping alive;
	 * ENode 9's FCF 3 never advertised on a fabric port */
	keep_alive(t, 7, EDGE_PORT, 2, 1000);
	keep_alive(t, 8, EDGE_PORT, 1, 1000);
	keep_alive(t, 9, EDGE_PORT, 3, 1000);
	keep_alive(t, 7, FABRIC_PORT, 2, 1000 + wait); /* the fabric's: no ENode */
	assert_int_equal(l.count, 0);
	login(t, FCR_LOGIN_FLOGI, 0, 1, 0, FCR_FCID_FLOGI, 1, VT, 0, 8);
	login(t, FCR_LOGIN_ACC, FCR_LOGIN_FLOGI, 1, FCR_FCID_FLOGI, FVT, 1, 0, 0, 8);
	keep_alive(t, 7, EDGE_PORT, 2, 1000 + wait - 1);   /* not yet */
	assert_int_equal(l.count, 0);
	keep_alive(t, 7, EDGE_PORT, 2, 1000 + wait);
	keep_alive(t, 8, EDGE_PORT, 1, 1000 + wait);
	keep_alive(t, 9, EDGE_PORT, 3, 1000 + wait);
	assert_int_equal(l.count, 1);
	assert_int_equal(l.n[0].kind, FCR_NOTE_RELOGIN);
	assert_int_equal(l.n[0].port, EDGE_PORT);
	fcr_vn_mac(l.n[0].enode, mac);
	assert_int_equal(mac[5], 7);
	assert_int_equal(l.n[0].fcf_mac & 0xFF, 2);        /* its own FCF */
	assert_true(l.n[0].fcf_name == 0x2001000dec000002ull);
	assert_int_equal(l.n[0].by_operator, 0);
	assert_int_equal(t->st.enode_relogins, 1);
	/* told: not again within two waits, then again */
	keep_alive(t, 7, EDGE_PORT, 2, 1000 + 3 * wait - 1);
	assert_int_equal(l.count, 1);
	keep_alive(t, 7, EDGE_PORT, 2, 1000 + 3 * wait);
	assert_int_equal(l.count, 2);
	/* an ENode asking to log in gets a wait more */
	keep_alive(t, 10, EDGE_PORT, 1, 1000);
	login_tsc = 1000 + wait - 1;
	login(t, FCR_LOGIN_FLOGI, 0, 1, 0, FCR_FCID_FLOGI, 2, T, 0, 10);
	login_tsc = 0;
	keep_alive(t, 10, EDGE_PORT, 1, 1000 + wait);
	assert_int_equal(l.count, 2);
	/* the operator: every ENode whose FCF is known, at once */
	assert_int_equal(fcr_tables_enode_relogin(t, NULL, 1000 + 3 * wait, &unknown), 3);
	assert_int_equal(unknown, 1); /* ENode 9 */
	assert_int_equal(l.count, 5);
	assert_int_equal(l.n[4].by_operator, 1);
	memcpy(mac, (const uint8_t[6]){ 0x0e, 0, 0, 0, 0, 8 }, 6);
	assert_int_equal(fcr_tables_enode_relogin(t, mac, 1000 + 3 * wait, &unknown), 1);
	assert_int_equal(unknown, 0);
	mac[5] = 0x55;
	assert_int_equal(fcr_tables_enode_relogin(t, mac, 1000 + 3 * wait, &unknown), 0);
	fcr_tables_free(t);

	/* a lab (no fabric ports): nothing is learned, no one is told */
	t = tu_tables(2, 0);
	t->ticks_per_ms = 1;
	l.count = 0;
	t->note_hook = (struct fcr_note_hook){ .fn = record_relogin, .ctx = &l };
	keep_alive(t, 7, EDGE_PORT, 2, 1000);
	keep_alive(t, 7, EDGE_PORT, 2, 100000);
	assert_int_equal(l.count, 0);
	fcr_tables_free(t);
}

/* A login restarts its ENode's keep-alive clock: an ENode silent while it
 * logs in again (a Clear Virtual Link resets it) keeps the binding it got. */
static void
a_login_restarts_the_keep_alive_clock(void **state)
{
	struct fcr_tables *t = mk();

	(void)state;
	advertise(t, 1, FABRIC_PORT, 0x2001000dec000001ull);
	keep_alive(t, 4, EDGE_PORT, 1, 1000);
	/* silent 2 s, then logs in at 3000: 2.5 periods from 1000 pass at
	 * 3500, but the clock started again at 3000 */
	login(t, FCR_LOGIN_FLOGI, 0, 1, 0, FCR_FCID_FLOGI, 1, VT, 0, 4);
	{
		struct fcr_event ev;

		memset(&ev, 0, sizeof(ev));
		ev.type = FCR_EV_LOGIN;
		ev.kind = FCR_LOGIN_ACC;
		ev.answers = FCR_LOGIN_FLOGI;
		ev.via_fip = 1;
		ev.vlan = VLAN;
		ev.s_id = FCR_FCID_FLOGI;
		ev.d_id = FVT;
		ev.ox_id = 1;
		ev.enode[0] = 0x0e;
		ev.enode[5] = 4;
		ev.port = FABRIC_PORT;
		ev.tsc = 3000;
		fcr_tables_event(t, &ev);
	}
	assert_int_equal(fcr_binding_by_fcid(t->bindings, VLAN, FVT) != FCR_BINDING_NONE, 1);
	assert_int_equal(fcr_tables_keepalive(t, 4000, 1), 0);
	assert_int_equal(fcr_binding_by_fcid(t->bindings, VLAN, FVT) != FCR_BINDING_NONE, 1);
	/* and it times out 2.5 periods after the login, as after a keep-alive */
	assert_int_equal(fcr_tables_keepalive(t, 5501, 1), 1);
	assert_int_equal(fcr_binding_by_fcid(t->bindings, VLAN, FVT), FCR_BINDING_NONE);
	fcr_tables_free(t);
}

static void
an_enode_silent_for_two_and_a_half_periods_loses_its_bindings(void **state)
{
	struct fcr_tables *t = mk();
	struct fcr_event ev;
	uint32_t n;
	int id;

	(void)state;
	bind4(t);
	id = fcr_redirect_add(t->redirects, VLAN, H, T, VI, VT);
	assert_true(id >= 0);
	fcr_tables_binding_del(t, VLAN, VT);
	/* the VT logs in over FIP from ENode ...:04, the VI over FCoE */
	login(t, FCR_LOGIN_FLOGI, 0, 1, 0, FCR_FCID_FLOGI, 1, VT, 0, 4);
	login(t, FCR_LOGIN_ACC, FCR_LOGIN_FLOGI, 1, FCR_FCID_FLOGI, FVT, 1, 0, 0, 4);
	assert_int_equal(t->redirects->r[id].state, FCR_RS_ACTIVE);
	/* the FCF advertises a 1 s period; an edge station's "advertisement"
	 * does not count */
	memset(&ev, 0, sizeof(ev));
	ev.type = FCR_EV_LOGIN;
	ev.kind = FCR_LOGIN_ADV;
	ev.via_fip = 1;
	ev.has_mac = 1;
	ev.port_id = 50;
	ev.port = EDGE_PORT;
	fcr_tables_event(t, &ev);
	assert_int_equal(t->fka_ms, FCR_FKA_DEFAULT_MS);
	ev.port_id = 1000;
	ev.port = FABRIC_PORT;
	fcr_tables_event(t, &ev);
	assert_int_equal(t->fka_ms, 1000);
	/* no keep-alive yet: not watched, however long */
	assert_int_equal(fcr_tables_keepalive(t, 1000000, 1), 0);
	/* the ENode keeps alive at 1000 (ticks of 1 ms here) */
	ev.kind = FCR_LOGIN_KA;
	ev.vlan = VLAN;
	ev.port_id = 0;
	ev.mac[0] = 0x0e;
	ev.mac[5] = 4;
	ev.tsc = 1000;
	ev.port = FABRIC_PORT;           /* from the fabric: not an ENode's */
	fcr_tables_event(t, &ev);
	assert_int_equal(fcr_tables_keepalive(t, 1000000, 1), 0);
	ev.port = EDGE_PORT;
	fcr_tables_event(t, &ev);
	assert_int_equal(fcr_tables_keepalive(t, 3500, 1), 0);  /* 2.5 periods: still here */
	n = fcr_binding_get(t->bindings, VLAN, VT, 0);
	assert_int_equal(t->bindings->entry[n].fcid, FVT);
	assert_int_equal(fcr_tables_keepalive(t, 3501, 1), 1);
	assert_int_equal(fcr_binding_get(t->bindings, VLAN, VT, 0) == FCR_BINDING_NONE ||
			 t->bindings->entry[fcr_binding_get(t->bindings, VLAN, VT, 0)].fcid ==
			 FCR_FCID_NONE, 1);
	assert_int_equal(t->redirects->r[id].state, FCR_RS_WAITING);
	assert_int_equal(t->st.keepalive_timeouts, 1);
	assert_int_equal(t->st.keepalive_unbound, 1);
	/* static bindings and the others stay */
	n = fcr_binding_get(t->bindings, VLAN, H, 0);
	assert_int_equal(t->bindings->entry[n].fcid, FH);
	/* logged in again, keeping alive; the FCF then wants none: kept */
	login(t, FCR_LOGIN_FLOGI, 0, 1, 0, FCR_FCID_FLOGI, 2, VT, 0, 4);
	login(t, FCR_LOGIN_ACC, FCR_LOGIN_FLOGI, 1, FCR_FCID_FLOGI, FVT, 2, 0, 0, 4);
	ev.tsc = 5000;
	fcr_tables_event(t, &ev);
	ev.kind = FCR_LOGIN_ADV;
	ev.port = FABRIC_PORT;
	ev.port_id = 0;
	fcr_tables_event(t, &ev);
	assert_int_equal(fcr_tables_keepalive(t, 1000000, 1), 0);
	assert_int_equal(t->redirects->r[id].state, FCR_RS_ACTIVE);
	fcr_tables_free(t);
}

#define OTHER_PORT 1

/* A login() whose request comes in on another edge port. */
static void
login_from(uint8_t port, struct fcr_tables *t, enum fcr_login_kind kind, uint8_t answers,
	   int fip, uint32_t s, uint32_t d, uint16_t ox, uint64_t wwpn, uint32_t port_id,
	   uint8_t enode_last)
{
	request_port = port;
	login(t, kind, answers, fip, s, d, ox, wwpn, port_id, enode_last);
	request_port = EDGE_PORT;
}

/* Only what the port and ENode rules refuse. */
static void
record_refusal(void *ctx, const struct fcr_note *n)
{
	if (n->kind == FCR_NOTE_LOGIN_CONFLICT || n->kind == FCR_NOTE_LOGIN_PINNED ||
	    n->kind == FCR_NOTE_LOGOUT_REFUSED)
		record_note(ctx, n);
}

/* The edge port owning ENode 0e:..:last, or FCR_VN_ANY_PORT. */
static unsigned int
enode_port(struct fcr_tables *t, uint8_t last)
{
	const uint8_t mac[6] = { 0x0e, 0, 0, 0, 0, last };

	return fcr_binding_enode_port(t->bindings, fcr_enode_key(VLAN, mac));
}

/*
 * A login is the port's that asked: a request with the same exchange and
 * ENode MAC from another port (a station taking the service node's login
 * as it logs in again) is refused, counted by port and noted, and the
 * fabric's accept binds the first asker. An ENode that logged in over FIP
 * owns its edge port until it times out: its MAC asking from another port
 * is refused too.
 */
static void
a_login_request_is_bound_to_the_port_it_came_from(void **state)
{
	struct fcr_tables *t = mk();
	struct note_log l = { .count = 0 };
	uint32_t n;

	(void)state;
	t->note_hook = (struct fcr_note_hook){ .fn = record_refusal, .ctx = &l };
	login(t, FCR_LOGIN_FLOGI, 0, 1, 0, FCR_FCID_FLOGI, 1, VT, 0, 4);
	assert_int_equal(enode_port(t, 4), FCR_VN_ANY_PORT); /* not until accepted */
	login_from(OTHER_PORT, t, FCR_LOGIN_FLOGI, 0, 1, 0, FCR_FCID_FLOGI, 1, VT, 0, 4);
	assert_int_equal(t->st.login_conflicts, 1);
	assert_int_equal(t->login_conflict[OTHER_PORT], 1);
	assert_int_equal(t->login_conflict[EDGE_PORT], 0);
	assert_int_equal(l.count, 1);
	assert_int_equal(l.n[0].kind, FCR_NOTE_LOGIN_CONFLICT);
	assert_int_equal(l.n[0].port, OTHER_PORT);
	assert_int_equal(l.n[0].other_port, EDGE_PORT);
	assert_true(l.n[0].wwpn == VT);
	login(t, FCR_LOGIN_ACC, FCR_LOGIN_FLOGI, 1, FCR_FCID_FLOGI, FVT, 1, 0, 0, 4);
	n = fcr_binding_get(t->bindings, VLAN, VT, 0);
	assert_int_equal(t->bindings->entry[n].fcid, FVT);
	assert_int_equal((t->bindings->entry[n].vn >> 48) & 0xFF, EDGE_PORT);
	/* the same port asking again (a retry) replaces its own request */
	login(t, FCR_LOGIN_FDISC, 0, 1, 0, FCR_FCID_FLOGI, 2, VI, 0, 4);
	login(t, FCR_LOGIN_FDISC, 0, 1, 0, FCR_FCID_FLOGI, 2, VI, 0, 4);
	assert_int_equal(t->st.login_conflicts, 1);
	login(t, FCR_LOGIN_ACC, FCR_LOGIN_FDISC, 1, FCR_FCID_FLOGI, FVI, 2, 0, 0, 4);
	assert_int_equal(t->bindings->entry[fcr_binding_get(t->bindings, VLAN, VI, 0)].fcid, FVI);
	/* logged in: its ENode owns the edge port, in the table the workers
	 * read; from another port its requests are refused, any exchange */
	assert_int_equal(enode_port(t, 4), EDGE_PORT);
	login_from(OTHER_PORT, t, FCR_LOGIN_FDISC, 0, 1, 0, FCR_FCID_FLOGI, 3, H, 0, 4);
	login(t, FCR_LOGIN_ACC, FCR_LOGIN_FDISC, 1, FCR_FCID_FLOGI, FH, 3, 0, 0, 4);
	assert_int_equal(t->st.login_conflicts, 2);
	assert_int_equal(t->login_conflict[OTHER_PORT], 2);
	assert_int_equal(fcr_binding_get(t->bindings, VLAN, H, 0), FCR_BINDING_NONE);
	/* another ENode on that port is its own */
	login_from(OTHER_PORT, t, FCR_LOGIN_FLOGI, 0, 1, 0, FCR_FCID_FLOGI, 3, H, 0, 5);
	login(t, FCR_LOGIN_ACC, FCR_LOGIN_FLOGI, 1, FCR_FCID_FLOGI, FH, 3, 0, 0, 5);
	assert_int_equal(t->bindings->entry[fcr_binding_get(t->bindings, VLAN, H, 0)].fcid, FH);
	assert_int_equal(enode_port(t, 5), OTHER_PORT);
	/* the ENode keeps alive, then is silent 2.5 periods: gone, its MAC
	 * free to log in through another port */
	advertise(t, 1, FABRIC_PORT, 0x2000000000000001ull);
	keep_alive(t, 4, EDGE_PORT, 1, 1000);
	assert_int_equal(fcr_tables_keepalive(t, 3501, 1), 1);
	assert_int_equal(enode_port(t, 4), FCR_VN_ANY_PORT);
	assert_int_equal(enode_port(t, 5), OTHER_PORT);
	login_from(OTHER_PORT, t, FCR_LOGIN_FLOGI, 0, 1, 0, FCR_FCID_FLOGI, 4, VT, 0, 4);
	login(t, FCR_LOGIN_ACC, FCR_LOGIN_FLOGI, 1, FCR_FCID_FLOGI, FVT, 4, 0, 0, 4);
	assert_int_equal(t->st.login_conflicts, 2);
	assert_int_equal(enode_port(t, 4), OTHER_PORT);
	fcr_tables_free(t);
}

/*
 * The WWPNs a redirect names stay where they logged in: a login of one
 * through another port or another ENode, even one the fabric accepts, does
 * not move it (the redirect keeps its path); noted and counted. An
 * operator's unpin lets the next login move it, and a pin names its port.
 * A WWPN no redirect names moves freely. Over FIP a logout is honoured
 * only from the ENode that logged the port in.
 */
static void
a_redirect_members_login_elsewhere_does_not_move_it(void **state)
{
	struct fcr_tables *t = mk();
	struct note_log l = { .count = 0 };
	uint32_t n;
	int id;

	(void)state;
	id = fcr_redirect_add(t->redirects, VLAN, H, T, VI, VT);
	assert_true(id >= 0);
	login(t, FCR_LOGIN_FLOGI, 0, 1, 0, FCR_FCID_FLOGI, 1, H, 0, 1);
	login(t, FCR_LOGIN_ACC, FCR_LOGIN_FLOGI, 1, FCR_FCID_FLOGI, FH, 1, 0, 0, 1);
	login(t, FCR_LOGIN_FLOGI, 0, 1, 0, FCR_FCID_FLOGI, 1, T, 0, 2);
	login(t, FCR_LOGIN_ACC, FCR_LOGIN_FLOGI, 1, FCR_FCID_FLOGI, FT, 1, 0, 0, 2);
	login(t, FCR_LOGIN_FLOGI, 0, 1, 0, FCR_FCID_FLOGI, 1, VI, 0, 3);
	login(t, FCR_LOGIN_ACC, FCR_LOGIN_FLOGI, 1, FCR_FCID_FLOGI, FVI, 1, 0, 0, 3);
	login_from(OTHER_PORT, t, FCR_LOGIN_FLOGI, 0, 1, 0, FCR_FCID_FLOGI, 1, VT, 0, 4);
	login(t, FCR_LOGIN_ACC, FCR_LOGIN_FLOGI, 1, FCR_FCID_FLOGI, FVT, 1, 0, 0, 4);
	assert_four_rules(t, FH, FT, FVI, FVT);
	t->note_hook = (struct fcr_note_hook){ .fn = record_refusal, .ctx = &l };
	/* the VT's WWPN logs in from ENode 9 on the host's port: the fabric
	 * grants it a new FCID; the VT keeps its own and the rules stay */
	login(t, FCR_LOGIN_FDISC, 0, 1, 0, FCR_FCID_FLOGI, 2, VT, 0, 9);
	login(t, FCR_LOGIN_ACC, FCR_LOGIN_FDISC, 1, FCR_FCID_FLOGI, 0x010099, 2, 0, 0, 9);
	assert_int_equal(t->st.logins_pinned, 1);
	n = fcr_binding_get(t->bindings, VLAN, VT, 0);
	assert_int_equal(t->bindings->entry[n].fcid, FVT);
	assert_int_equal((t->bindings->entry[n].vn >> 48) & 0xFF, OTHER_PORT);
	assert_int_equal(t->bindings->entry[n].pin_refused, 1);
	assert_int_equal(fcr_binding_by_fcid(t->bindings, VLAN, 0x010099), FCR_BINDING_NONE);
	assert_four_rules(t, FH, FT, FVI, FVT);
	assert_int_equal(l.count, 1);
	assert_int_equal(l.n[0].kind, FCR_NOTE_LOGIN_PINNED);
	assert_int_equal(l.n[0].port, EDGE_PORT);
	assert_int_equal(l.n[0].other_port, OTHER_PORT);
	/* the same port but another ENode: refused too */
	login_from(OTHER_PORT, t, FCR_LOGIN_FDISC, 0, 1, 0, FCR_FCID_FLOGI, 3, VT, 0, 8);
	login(t, FCR_LOGIN_ACC, FCR_LOGIN_FDISC, 1, FCR_FCID_FLOGI, 0x810077, 3, 0, 0, 8);
	assert_int_equal(t->st.logins_pinned, 2);
	assert_four_rules(t, FH, FT, FVI, FVT);
	/* its own ENode logging in again through its port moves it */
	login_from(OTHER_PORT, t, FCR_LOGIN_FLOGI, 0, 1, 0, FCR_FCID_FLOGI, 4, VT, 0, 4);
	login(t, FCR_LOGIN_ACC, FCR_LOGIN_FLOGI, 1, FCR_FCID_FLOGI, 0x810003, 4, 0, 0, 4);
	assert_int_equal(t->st.logins_pinned, 2);
	assert_four_rules(t, FH, FT, FVI, 0x810003);
	/* unbound (its logout), the pin stays: an impostor cannot take it.
	 * Its ENode's MAC asking from another port is refused first */
	login(t, FCR_LOGIN_LOGO, 0, 1, 0, FCR_FCID_FLOGI, 5, VT, 0x810003, 4);
	login(t, FCR_LOGIN_ACC, FCR_LOGIN_LOGO, 1, FCR_FCID_FLOGI, 0x810003, 5, 0, 0, 4);
	assert_int_equal(t->st.logouts, 0);
	login_from(OTHER_PORT, t, FCR_LOGIN_LOGO, 0, 1, 0, FCR_FCID_FLOGI, 6, VT, 0x810003, 4);
	login(t, FCR_LOGIN_ACC, FCR_LOGIN_LOGO, 1, FCR_FCID_FLOGI, 0x810003, 6, 0, 0, 4);
	assert_int_equal(t->st.logouts, 1);
	assert_int_equal(t->redirects->r[id].state, FCR_RS_WAITING);
	login(t, FCR_LOGIN_FDISC, 0, 1, 0, FCR_FCID_FLOGI, 7, VT, 0, 9);
	login(t, FCR_LOGIN_ACC, FCR_LOGIN_FDISC, 1, FCR_FCID_FLOGI, 0x010098, 7, 0, 0, 9);
	assert_int_equal(t->st.logins_pinned, 3);
	assert_int_equal(t->redirects->r[id].state, FCR_RS_WAITING);
	/* the operator moves it: unpinned, its next login pins it there */
	assert_int_equal(fcr_tables_binding_pin(t, VLAN, VT, -1), 0);
	login(t, FCR_LOGIN_FDISC, 0, 1, 0, FCR_FCID_FLOGI, 8, VT, 0, 9);
	login(t, FCR_LOGIN_ACC, FCR_LOGIN_FDISC, 1, FCR_FCID_FLOGI, 0x010098, 8, 0, 0, 9);
	assert_four_rules(t, FH, FT, FVI, 0x010098);
	n = fcr_binding_get(t->bindings, VLAN, VT, 0);
	assert_int_equal(t->bindings->entry[n].pin_port, EDGE_PORT);
	/* pinned to a port by the operator: any ENode there, no other port */
	assert_int_equal(fcr_tables_binding_pin(t, VLAN, VT, OTHER_PORT), 0);
	assert_int_equal(fcr_tables_binding_pin(t, VLAN, 0x1234, OTHER_PORT), -ENOENT);
	login(t, FCR_LOGIN_FDISC, 0, 1, 0, FCR_FCID_FLOGI, 9, VT, 0, 9);
	login(t, FCR_LOGIN_ACC, FCR_LOGIN_FDISC, 1, FCR_FCID_FLOGI, 0x010097, 9, 0, 0, 9);
	assert_int_equal(t->st.logins_pinned, 4);
	login_from(OTHER_PORT, t, FCR_LOGIN_FDISC, 0, 1, 0, FCR_FCID_FLOGI, 10, VT, 0, 7);
	login(t, FCR_LOGIN_ACC, FCR_LOGIN_FDISC, 1, FCR_FCID_FLOGI, 0x810005, 10, 0, 0, 7);
	assert_four_rules(t, FH, FT, FVI, 0x810005);
	/* a WWPN no redirect names moves freely */
	login(t, FCR_LOGIN_FLOGI, 0, 1, 0, FCR_FCID_FLOGI, 11, 0x2100000000000042ull, 0, 1);
	login(t, FCR_LOGIN_ACC, FCR_LOGIN_FLOGI, 1, FCR_FCID_FLOGI, 0x010042, 11, 0, 0, 1);
	login(t, FCR_LOGIN_FDISC, 0, 1, 0, FCR_FCID_FLOGI, 12, 0x2100000000000042ull, 0, 9);
	login(t, FCR_LOGIN_ACC, FCR_LOGIN_FDISC, 1, FCR_FCID_FLOGI, 0x010043, 12, 0, 0, 9);
	assert_int_equal(t->st.logins_pinned, 4);
	assert_int_equal(fcr_binding_by_fcid(t->bindings, VLAN, 0x010043),
			 fcr_binding_get(t->bindings, VLAN, 0x2100000000000042ull, 0));
	/* another ENode on the host's port logs the host out over FIP, and
	 * the fabric accepts: the host stays */
	login(t, FCR_LOGIN_LOGO, 0, 1, 0, FCR_FCID_FLOGI, 13, H, FH, 9);
	login(t, FCR_LOGIN_ACC, FCR_LOGIN_LOGO, 1, FCR_FCID_FLOGI, FH, 13, 0, 0, 9);
	assert_int_equal(t->st.logouts_refused, 1);
	assert_four_rules(t, FH, FT, FVI, 0x810005);
	/* its own ENode's logout is honoured */
	login(t, FCR_LOGIN_LOGO, 0, 1, 0, FCR_FCID_FLOGI, 14, H, FH, 1);
	login(t, FCR_LOGIN_ACC, FCR_LOGIN_LOGO, 1, FCR_FCID_FLOGI, FH, 14, 0, 0, 1);
	assert_int_equal(t->st.logouts_refused, 1);
	assert_int_equal(fcr_redirect_missing(t->redirects, (uint32_t)id), FCR_M_HOST);
	fcr_tables_free(t);
}

/* The operator changing a bound pair's path (a redirect added, its
 * service node replaced, deleted) is told once each time, naming the host
 * and the VI to make log in again; a pair not bound has no open exchange. */
static void
a_path_change_of_a_bound_pair_is_a_cutover(void **state)
{
	struct fcr_tables *t = mk();
	struct note_log l = { .count = 0 };
	unsigned int i, cut = 0;

	(void)state;
	t->note_hook = (struct fcr_note_hook){ .fn = record_note, .ctx = &l };
	/* the host not bound yet: nothing to cut over */
	assert_true(fcr_redirect_add(t->redirects, VLAN, H, T, VI, VT) >= 0);
	for (i = 0; i < l.count; i++)
		cut += l.n[i].kind == FCR_NOTE_CUTOVER;
	assert_int_equal(cut, 0);
	assert_int_equal(fcr_redirect_del(t->redirects, VLAN, H, T), 0);
	bind4(t);
	l.count = 0;
	assert_true(fcr_redirect_add(t->redirects, VLAN, H, T, VI, VT) >= 0);
	assert_true(fcr_redirect_add(t->redirects, VLAN, H, T, VI, VT) >= 0); /* the same: no change */
	assert_true(fcr_redirect_add(t->redirects, VLAN, H, T, VT, VI) >= 0); /* swapped: a change */
	assert_int_equal(fcr_redirect_del(t->redirects, VLAN, H, T), 0);
	for (i = 0, cut = 0; i < l.count; i++) {
		if (l.n[i].kind != FCR_NOTE_CUTOVER)
			continue;
		assert_true(l.n[i].wwpn == H);
		/* the VI of the rules in place, and a new one that replaces it */
		assert_true(l.n[i].other_wwpn == (cut < 2 ? VI : VT));
		assert_true(l.n[i].new_vi == (cut == 1 ? VT : 0));
		assert_int_equal(l.n[i].vlan, VLAN);
		cut++;
	}
	assert_int_equal(cut, 3);
	fcr_tables_free(t);
}

/* A worker sending n frames of kind (r_ctl, type) on the entry (s, d). */
static void
sent(struct fcr_tables *t, uint32_t s, uint32_t d, uint8_t r_ctl, uint8_t type, int n)
{
	int idx = fcr_flow_find(t->flows, fcr_flow_key(VLAN, s, d));

	assert_true(idx >= 0);
	while (n-- > 0) {
		fcr_flow_count(&t->flows->counters[1][idx], 100, 1);
		fcr_flow_count_exchange(&t->flows->exchanges[1][idx], r_ctl, type);
	}
}

/* What the tables lcore does on a cutover note (fcr_cutover_plan and
 * app/cutover.c): tells the host and the VI to log in again, and says so
 * for each. */
struct cutover_probe {
	struct fcr_tables *t;
	unsigned int notes;
	unsigned int drained;
	int told;          /* the host could be told */
};

static void
tell_on_cutover(void *ctx, const struct fcr_note *n)
{
	struct cutover_probe *c = ctx;

	if (n->kind != FCR_NOTE_CUTOVER && n->kind != FCR_NOTE_DRAINED)
		return;
	c->notes += n->kind == FCR_NOTE_CUTOVER;
	c->drained += n->kind == FCR_NOTE_DRAINED;
	if (c->told)
		fcr_redirect_cutover_told(c->t->redirects);
}

/* A fabric login of port i of H, T, VI, VT (the same FCID again). */
static void
relogin(struct fcr_tables *t, int i)
{
	static const uint64_t w[4] = { H, T, VI, VT };
	static const uint32_t f[4] = { FH, FT, FVI, FVT };
	static uint16_t ox = 40;

	ox++;
	login(t, FCR_LOGIN_FLOGI, 0, 1, 0, FCR_FCID_FLOGI, ox, w[i], 0, (uint8_t)(i + 1));
	login(t, FCR_LOGIN_ACC, FCR_LOGIN_FLOGI, 1, FCR_FCID_FLOGI, f[i], ox, 0, 0,
	      (uint8_t)(i + 1));
}

/* The host, the target, the VI and the VT log in over the fabric. */
static void
relogin_all(struct fcr_tables *t)
{
	int i;

	for (i = 0; i < 4; i++)
		relogin(t, i);
}

/* A path change keeps the pair's old path (the redirect's rules after a
 * del or a change) until the host has logged in again: what it sent before
 * goes where its exchange began; a new redirect blocks its pair meanwhile
 * (fail closed, never plain). A member going, or
 * FCR_CUTOVER_TICKS, end it at once; a host not told ends it before it
 * begins. */
static void
a_cutover_keeps_the_old_path_until_both_log_in_again(void **state)
{
	struct fcr_tables *t = mk();
	struct cutover_probe c = { .t = t, .told = 1 };
	unsigned int i, drains = 0, vi_waits = 0, drained;
	uint64_t timed_out;
	int id;

	(void)state;
	relogin_all(t);
	t->note_hook = (struct fcr_note_hook){ .fn = tell_on_cutover, .ctx = &c };
	id = fcr_redirect_add(t->redirects, VLAN, H, T, VI, VT);
	assert_true(id >= 0);
	assert_int_equal(c.notes, 1);
	assert_int_equal(t->redirects->r[id].cutover, 1);
	/* fail closed, never plain, until the host is back */
	assert_int_equal(fcr_action_leg((uint64_t)action_of(t, FH, FT)), FCR_LEG_BLOCKED);
	relogin(t, 2);                                /* the VI: not yet */
	assert_int_equal(fcr_action_leg((uint64_t)action_of(t, FH, FT)), FCR_LEG_BLOCKED);
	relogin(t, 0);                                /* the host: the new path */
	assert_int_equal(t->redirects->r[id].cutover, 0);
	assert_int_equal(t->redirects->r[id].state, FCR_RS_ACTIVE);
	assert_four_rules(t, FH, FT, FVI, FVT);

	/* deleted: gone from the table, its rules stay until both log in */
	assert_int_equal(fcr_redirect_del(t->redirects, VLAN, H, T), 0);
	assert_int_equal(c.notes, 2);
	assert_int_equal(fcr_redirect_find(t->redirects, VLAN, H, T), -ENOENT);
	assert_int_equal(t->redirects->count, 0);
	assert_int_equal(t->redirects->nb_active, 0);
	assert_four_rules(t, FH, FT, FVI, FVT);
	relogin(t, 2);
	assert_four_rules(t, FH, FT, FVI, FVT);
	relogin(t, 0);
	assert_no_rules(t, FH, FT, FVI, FVT);
	assert_int_equal(t->redirects->nb_free, t->redirects->capacity); /* the ghost's id */
	assert_int_equal(t->redirects->nb_cutover, 0);

	/* nobody logs in: the VI, told first, waited for FCR_VI_TICKS, then
	 * the host told, the new path FCR_CUTOVER_TICKS after */
	drained = c.drained;
	id = fcr_redirect_add(t->redirects, VLAN, H, T, VI, VT);
	assert_int_equal(c.drained, drained + 1);
	assert_int_equal(t->redirects->r[id].cut_state, FCR_CUT_VI_TOLD);
	for (i = 1; i < FCR_VI_TICKS; i++)
		assert_int_equal(fcr_redirect_cutover_tick(t->redirects, &drains, &vi_waits), 0);
	assert_int_equal(c.drained, drained + 1);
	assert_int_equal(vi_waits, 0);
	assert_int_equal(fcr_redirect_cutover_tick(t->redirects, &drains, &vi_waits), 0);
	assert_int_equal(vi_waits, 1);
	assert_int_equal(c.drained, drained + 2);
	assert_int_equal(t->redirects->r[id].cut_state, FCR_CUT_TOLD);
	for (i = 1; i < FCR_CUTOVER_TICKS; i++)
		assert_int_equal(fcr_redirect_cutover_tick(t->redirects, &drains, &vi_waits), 0);
	assert_int_equal(fcr_action_leg((uint64_t)action_of(t, FH, FT)), FCR_LEG_BLOCKED);
	/* the owner's tick counts it in the tables' counters */
	timed_out = t->st.cutovers_timed_out;
	fcr_cutover_tick(t);
	assert_int_equal(t->st.cutovers_timed_out, timed_out + 1);
	assert_int_equal(t->redirects->r[id].state, FCR_RS_ACTIVE);

	/* a member goes during a cutover: fail closed at once */
	assert_int_equal(fcr_redirect_del(t->redirects, VLAN, H, T), 0);
	relogin(t, 0);
	relogin(t, 2);
	id = fcr_redirect_add(t->redirects, VLAN, H, T, VI, VT);
	assert_int_equal(t->redirects->r[id].cutover, 1);
	assert_int_equal(fcr_tables_binding_del(t, VLAN, VT), 0);
	assert_int_equal(t->redirects->r[id].cutover, 0);
	assert_int_equal(fcr_action_leg((uint64_t)action_of(t, FH, FT)), FCR_LEG_BLOCKED);

	/* the host not told: no cutover, the new path at once */
	relogin(t, 3);
	c.told = 0;
	assert_int_equal(fcr_redirect_del(t->redirects, VLAN, H, T), 0);
	assert_no_rules(t, FH, FT, FVI, FVT);
	id = fcr_redirect_add(t->redirects, VLAN, H, T, VI, VT);
	assert_int_equal(t->redirects->r[id].cutover, 0);
	assert_int_equal(t->redirects->r[id].state, FCR_RS_ACTIVE);
	assert_four_rules(t, FH, FT, FVI, FVT);
	assert_int_equal(t->redirects->nb_cutover, 0);
	fcr_tables_free(t);
}

/* What the tables lcore does with the tables' notes (app/tables_lcore.c):
 * the cutover's plan made, each Clear Virtual Link it asks for taken as
 * sent (or not), the last plan of a drained pair kept. */
struct plan_probe {
	struct fcr_tables *t;
	int send_ok;
	unsigned int held;
	unsigned int to_send;     /* of the last FCR_NOTE_DRAINED or unheld cutover */
	struct fcr_cutover_plan last;
};

static void
plan_on_note(void *ctx, const struct fcr_note *n)
{
	struct plan_probe *c = ctx;
	struct fcr_cutover_plan p;
	unsigned int i, k = fcr_cutover_plan(c->t, n, &p);

	c->held += p.held;
	if (p.nb == 0)
		return;
	c->to_send = k;
	c->last = p;
	for (i = 0; i < p.nb; i++)
		if (p.tell[i].clearable)
			fcr_cutover_sent(c->t, &p.tell[i], c->send_ok);
}

/* The FCF advertises itself on VLAN through the fabric port. */
static void
fcf_advertises(struct fcr_tables *t)
{
	struct fcr_login l = { .kind = FCR_LOGIN_ADV, .via_fip = 1, .has_mac = 1,
			       .vlan = VLAN, .wwnn = 0x1000000000000fcfull,
			       .mac = { 0x0e, 0xfc, 0x00, 0x00, 0x00, 0xff } };
	struct fcr_event ev;

	fcr_event_login(&ev, &l);
	ev.port = FABRIC_PORT;
	fcr_tables_event(t, &ev);
}

static void
assert_cvl(const struct fcr_cutover_tell *x, uint8_t member, uint64_t wwpn, uint32_t fcid,
	   uint8_t enode_last)
{
	const uint8_t fcf_mac[6] = { 0x0e, 0xfc, 0x00, 0x00, 0x00, 0xff };
	const uint8_t enode[6] = { 0x0e, 0, 0, 0, 0, enode_last };
	uint8_t vn_mac[6];

	fcr_fpma(vn_mac, FCR_FC_MAP_DEFAULT, fcid);
	assert_int_equal(x->member, member);
	assert_true(x->clearable);
	assert_int_equal(x->cvl.vlan, VLAN);
	assert_int_equal(x->cvl.port, EDGE_PORT);
	assert_true(x->cvl.wwpn == wwpn);
	assert_int_equal(x->cvl.fcid, fcid);
	assert_memory_equal(x->cvl.enode_mac, enode, 6);
	assert_memory_equal(x->cvl.vn_mac, vn_mac, 6);
	assert_memory_equal(x->cvl.fcf_mac, fcf_mac, 6);
	assert_true(x->cvl.fcf_name == 0x1000000000000fcfull);
}

/* The cutover's decision (fcr_cutover_plan): a bound pair whose path
 * changes, the host learned over FIP behind an edge port and the FCF
 * advertised: held, then, drained, a Clear Virtual Link for the VI, and
 * once it is back through the new path one for the host, each to its ENode
 * in the FCF's name; sent, they count as cutovers, the host's VN_Port is
 * leaving and the pair keeps its old path.
 * Not sent (no mbuf): counted unsent, the new path at once. A host that
 * cannot be told (no FCF advertisement on its VLAN): nothing to send,
 * counted unsent, no cutover; no fabric port: nothing at all. */
static void
a_drained_pair_asks_clear_virtual_links_for_the_host_and_the_vi(void **state)
{
	struct fcr_tables *t = mk();
	struct plan_probe c = { .t = t, .send_ok = 1 };
	uint32_t h;
	int id;

	(void)state;
	t->nb_ports = 4;
	relogin_all(t);
	fcf_advertises(t);
	t->note_hook = (struct fcr_note_hook){ .fn = plan_on_note, .ctx = &c };
	id = fcr_redirect_add(t->redirects, VLAN, H, T, VI, VT);
	assert_true(id >= 0);
	/* nothing open: held, then drained at once; the VI told first */
	assert_int_equal(c.held, 1);
	assert_int_equal(c.to_send, 1);
	assert_int_equal(c.last.nb, 1);
	assert_cvl(&c.last.tell[0], FCR_M_VI, VI, FVI, 3);
	assert_true(c.last.tell[0].awaited);
	assert_int_equal(t->st.cutovers, 1);
	/* the VI back through the new path: the host, alone */
	relogin(t, 2);
	sent(t, FT, FH, FCR_RCTL_ELS_REP, FCR_TYPE_ELS, FCR_VI_BACK_FRAMES);
	fcr_cutover_tick(t);
	assert_int_equal(c.to_send, 1);
	assert_int_equal(c.last.nb, 1);
	assert_cvl(&c.last.tell[0], FCR_M_HOST, H, FH, 1);
	assert_true(c.last.tell[0].awaited);
	assert_int_equal(t->st.cutovers, 2);
	assert_int_equal(t->st.cutovers_unsent, 0);
	h = fcr_binding_get(t->bindings, VLAN, H, 0);
	assert_true(t->bindings->entry[h].vn & FCR_VN_LEAVING);
	assert_int_equal(t->redirects->r[id].cutover, 1);
	relogin(t, 0);
	assert_int_equal(t->redirects->r[id].cutover, 0);

	/* the frames not sent: unsent, the new path at once */
	c.send_ok = 0;
	assert_int_equal(fcr_redirect_del(t->redirects, VLAN, H, T), 0);
	assert_int_equal(t->st.cutovers, 2);
	assert_int_equal(t->st.cutovers_unsent, 2);
	assert_int_equal(t->redirects->nb_cutover, 0);
	fcr_tables_free(t);

	/* no FCF advertisement: the host cannot be told */
	t = mk();
	memset(&c, 0, sizeof(c));
	c.t = t;
	c.send_ok = 1;
	t->nb_ports = 4;
	relogin_all(t);
	t->note_hook = (struct fcr_note_hook){ .fn = plan_on_note, .ctx = &c };
	id = fcr_redirect_add(t->redirects, VLAN, H, T, VI, VT);
	assert_int_equal(c.held, 0);
	assert_int_equal(c.to_send, 0);
	assert_int_equal(c.last.nb, 2);
	assert_false(c.last.tell[0].clearable);
	assert_false(c.last.tell[1].clearable);
	assert_int_equal(t->st.cutovers, 0);
	assert_int_equal(t->st.cutovers_unsent, 2);
	assert_int_equal(t->redirects->r[id].cutover, 0);
	assert_int_equal(t->redirects->r[id].state, FCR_RS_ACTIVE);

	/* no fabric port (a lab): no ENode to tell, nothing counted */
	t->fabric_mask = 0;
	memset(&c.last, 0, sizeof(c.last));
	assert_int_equal(fcr_redirect_del(t->redirects, VLAN, H, T), 0);
	assert_int_equal(c.last.nb, 0);
	assert_int_equal(t->st.cutovers_unsent, 2);
	fcr_tables_free(t);
}

/* An ENode a cutover told to log in again is silent while it resets (FIP
 * discovery, FCF selection, FLOGI: longer than 2.5 periods of a 1 s
 * FKA_ADV_PERIOD): its keep-alive timeout waits FCR_ENODE_RESET_GRACE_MS
 * more, until it keeps alive or logs in again; an ENode not told times out
 * at 2.5 periods, and a told one that never comes back times out too. */
static void
an_enode_told_by_a_cutover_is_given_time_to_reset(void **state)
{
	const uint64_t grace = FCR_ENODE_RESET_GRACE_MS;
	struct fcr_tables *t = mk();
	struct plan_probe c = { .t = t, .send_ok = 1 };
	unsigned int i;
	int id;

	(void)state;
	t->nb_ports = 4;
	relogin_all(t);
	fcf_advertises(t);
	advertise(t, 0, FABRIC_PORT, 0x1000000000000fcfull); /* a 1 s period */
	assert_int_equal(t->fka_ms, 1000);
	keep_alive(t, 1, EDGE_PORT, 0, 1000); /* the host's ENode */
	keep_alive(t, 2, EDGE_PORT, 0, 1000); /* the target's: not told */
	keep_alive(t, 3, EDGE_PORT, 0, 1000); /* the VI's */
	t->note_hook = (struct fcr_note_hook){ .fn = plan_on_note, .ctx = &c };
	id = fcr_redirect_add(t->redirects, VLAN, H, T, VI, VT);
	assert_true(id >= 0);
	assert_int_equal(t->st.cutovers, 1); /* the VI first */
	for (i = 0; i < FCR_VI_TICKS; i++)
		fcr_cutover_tick(t);
	assert_int_equal(t->st.cutover_vi_waits_timed_out, 1); /* then the host anyway */
	assert_int_equal(t->st.cutovers, 2);
	/* 2.5 periods: the target's ENode goes, the told ones stay */
	assert_int_equal(fcr_tables_keepalive(t, 3501, 1), 1);
	assert_int_equal(fcr_binding_by_fcid(t->bindings, VLAN, FT), FCR_BINDING_NONE);
	assert_true(fcr_binding_by_fcid(t->bindings, VLAN, FH) != FCR_BINDING_NONE);
	assert_true(fcr_binding_by_fcid(t->bindings, VLAN, FVI) != FCR_BINDING_NONE);
	assert_int_equal(fcr_tables_keepalive(t, 3500 + grace, 1), 0);
	/* the host keeps alive again: its own clock from there, no grace */
	keep_alive(t, 1, EDGE_PORT, 0, 3000 + grace);
	/* the VI never came back: timed out after the grace */
	assert_int_equal(fcr_tables_keepalive(t, 3501 + grace, 1), 1);
	assert_int_equal(fcr_binding_by_fcid(t->bindings, VLAN, FVI), FCR_BINDING_NONE);
	assert_true(fcr_binding_by_fcid(t->bindings, VLAN, FH) != FCR_BINDING_NONE);
	assert_int_equal(fcr_tables_keepalive(t, 5500 + grace, 1), 0);
	assert_int_equal(fcr_tables_keepalive(t, 5501 + grace, 1), 1);
	assert_int_equal(fcr_binding_by_fcid(t->bindings, VLAN, FH), FCR_BINDING_NONE);
	assert_int_equal(t->st.keepalive_timeouts, 3);
	(void)id;
	fcr_tables_free(t);
}

/* What the FCF's VLAN notifications offered, learned per fabric port (what
 * an edge station says is not the fabric's); an advertisement's FC-MAP is
 * its VLAN's. The event carries the notification's VLANs as parsed. */
static void
fip_discovery_is_learned_from_fabric_ports_only(void **state)
{
	struct fcr_tables *t = mk();
	struct fcr_login l = { .kind = FCR_LOGIN_VLANS, .via_fip = 1, .nb_vlans = 5,
			       .vlans = { 100, 200, 4095, 7, 300 } };
	struct fcr_event ev;
	unsigned int i;

	(void)state;
	fcr_event_login(&ev, &l);
	for (i = 0; i < 5; i++)
		assert_int_equal(fcr_event_vlan(&ev, i), l.vlans[i]);
	ev.port = EDGE_PORT;
	fcr_tables_event(t, &ev);
	for (i = 0; i < 64; i++)
		assert_true(t->offered[EDGE_PORT][i] == 0);
	ev.port = FABRIC_PORT;
	fcr_tables_event(t, &ev);
	for (i = 0; i < 5; i++)
		assert_true(t->offered[FABRIC_PORT][l.vlans[i] >> 6] >> (l.vlans[i] & 63) & 1);
	assert_false(t->offered[FABRIC_PORT][101 >> 6] >> (101 & 63) & 1);

	memset(&l, 0, sizeof(l));
	l.kind = FCR_LOGIN_ADV;
	l.via_fip = l.has_mac = 1;
	l.vlan = 200;
	l.fc_map = 0x0efc22;
	fcr_event_login(&ev, &l);
	ev.port = EDGE_PORT;
	fcr_tables_event(t, &ev);
	assert_int_equal(fcr_tables_fc_map(t, 200), FCR_FC_MAP_DEFAULT);
	ev.port = FABRIC_PORT;
	fcr_tables_event(t, &ev);
	assert_int_equal(fcr_tables_fc_map(t, 200), 0x0efc22);
	assert_int_equal(fcr_tables_fc_map(t, 100), FCR_FC_MAP_DEFAULT);
	fcr_tables_free(t);
}

static int
held(struct fcr_tables *t, uint32_t s, uint32_t d)
{
	int64_t a = action_of(t, s, d);

	return a >= 0 && ((uint64_t)a & FCR_ACTION_HOLD) != 0;
}

/* `redirect add ... when idle` waits on this: the exchanges open between
 * a host and a target, on their plain flows (commands less the target's
 * ends) or their redirect's rules; 0 while either is not bound. */
static void
a_pairs_open_exchanges_are_counted_for_when_idle(void **state)
{
	struct fcr_tables *t = mk();
	struct fcr_event ev;

	(void)state;
	assert_int_equal(fcr_cutover_pair_open(t, VLAN, H, T), 0);
	bind4(t);
	fcr_event_flow(&ev, fcr_flow_key(VLAN, FH, FT));
	fcr_tables_event(t, &ev);
	fcr_event_flow(&ev, fcr_flow_key(VLAN, FT, FH));
	fcr_tables_event(t, &ev);
	assert_int_equal(fcr_cutover_pair_open(t, VLAN, H, T), 0);
	sent(t, FH, FT, FCR_RCTL_FCP_CMND, FCR_TYPE_FCP, 3);
	assert_int_equal(fcr_cutover_pair_open(t, VLAN, H, T), 3);
	sent(t, FT, FH, FCR_RCTL_FCP_RSP, FCR_TYPE_FCP, 2);
	assert_int_equal(fcr_cutover_pair_open(t, VLAN, H, T), 1);
	/* another pair's are not this one's */
	assert_int_equal(fcr_cutover_pair_open(t, VLAN, VI, T), 0);
	sent(t, FT, FH, FCR_RCTL_FCP_RSP, FCR_TYPE_FCP, 1);
	assert_int_equal(fcr_cutover_pair_open(t, VLAN, H, T), 0);
	fcr_tables_free(t);
}

#define VI2 0x2f00000000000005ull
#define FVI2 0x810005u

/* A new VI for an existing redirect (`redirect add` naming the same host
 * and target with another VI): the pair drains on the old rules (the new
 * VI's way to the target blocked: it must log in to the target through the
 * new rules, as the host), then the old VI and the new VI are told; the
 * new rules come in but the host's way, blocked, and once the new VI has
 * logged in again through them the host is told; when it is back, its
 * way too. */
static void
a_new_vi_cuts_over_to_the_new_service_node(void **state)
{
	struct fcr_tables *t = mk();
	struct plan_probe c = { .t = t, .send_ok = 1 };
	int id;

	(void)state;
	t->nb_ports = 4;
	relogin_all(t);
	login(t, FCR_LOGIN_FLOGI, 0, 1, 0, FCR_FCID_FLOGI, 77, VI2, 0, 5);
	login(t, FCR_LOGIN_ACC, FCR_LOGIN_FLOGI, 1, FCR_FCID_FLOGI, FVI2, 77, 0, 0, 5);
	fcf_advertises(t);
	id = fcr_redirect_add(t->redirects, VLAN, H, T, VI, VT);
	assert_four_rules(t, FH, FT, FVI, FVT);
	t->note_hook = (struct fcr_note_hook){ .fn = plan_on_note, .ctx = &c };
	sent(t, FH, FT, FCR_RCTL_FCP_CMND, FCR_TYPE_FCP, 1);
	assert_int_equal(fcr_redirect_add(t->redirects, VLAN, H, T, VI2, VT), id);
	assert_int_equal(c.held, 1);
	assert_int_equal(t->redirects->r[id].draining, FCR_DRAIN_HOST);
	assert_four_rules(t, FH, FT, FVI, FVT);          /* the old path */
	assert_rule(t, FVI2, FT, FVI2, FT, FCR_LEG_BLOCKED);
	sent(t, FVT, FH, FCR_RCTL_FCP_RSP, FCR_TYPE_FCP, 1);
	fcr_redirect_drain_poll(t->redirects);
	/* drained: the old VI and the new one told, the new one awaited */
	assert_int_equal(c.last.nb, 2);
	assert_cvl(&c.last.tell[0], FCR_M_VI, VI, FVI, 3);
	assert_false(c.last.tell[0].awaited);
	assert_cvl(&c.last.tell[1], FCR_M_VI, VI2, FVI2, 5);
	assert_true(c.last.tell[1].awaited);
	assert_int_equal(t->st.cutovers, 2);
	assert_rule(t, FH, FT, FH, FT, FCR_LEG_BLOCKED);
	assert_rule(t, FVI2, FT, FH, FT, FCR_LEG_VI_TO_TARGET);
	assert_rule(t, FT, FH, FT, FVI2, FCR_LEG_TARGET_TO_HOST);
	assert_true(action_of(t, FVI, FT) < 0);           /* the old VI: plain again */
	/* ... but told: until its new login, what it still sends (a reply to
	 * an ELS the target sent the host through it) is dropped
	 * (test_pipeline.c), not sent plain to the target from its own FCID */
	assert_true(t->bindings->entry[fcr_binding_get(t->bindings, VLAN, VI, 0)].vn &
		    FCR_VN_LEAVING);
	/* the new VI logs in again, the target answers it: the host told */
	login(t, FCR_LOGIN_FLOGI, 0, 1, 0, FCR_FCID_FLOGI, 78, VI2, 0, 5);
	login(t, FCR_LOGIN_ACC, FCR_LOGIN_FLOGI, 1, FCR_FCID_FLOGI, FVI2, 78, 0, 0, 5);
	assert_int_equal(t->st.cutovers, 2);
	sent(t, FT, FH, FCR_RCTL_ELS_REP, FCR_TYPE_ELS, FCR_VI_BACK_FRAMES);
	fcr_cutover_tick(t);
	assert_int_equal(c.last.nb, 1);
	assert_cvl(&c.last.tell[0], FCR_M_HOST, H, FH, 1);
	assert_int_equal(t->st.cutovers, 3);
	assert_rule(t, FH, FT, FH, FT, FCR_LEG_BLOCKED);
	relogin(t, 0);                                    /* the host is back */
	assert_int_equal(t->redirects->r[id].cutover, 0);
	assert_four_rules(t, FH, FT, FVI2, FVT);
	assert_true(t->redirects->r[id].vi_block == 0);
	assert_true(action_of(t, FVI, FT) < 0);           /* the old VI: plain again */
	fcr_tables_free(t);
}

/* How an entry drains per exchange: FCR_ACTION_DRAIN and which way. */
static uint64_t
drain_bits(struct fcr_tables *t, uint32_t s, uint32_t d)
{
	int64_t a = action_of(t, s, d);

	return a < 0 ? 0 : (uint64_t)a & (FCR_ACTION_DRAIN | FCR_ACTION_DRAIN_TO |
					  FCR_ACTION_DRAIN_VI);
}

static unsigned int
sets_used(const struct fcr_tables *t)
{
	unsigned int s, n = 0;

	for (s = 0; s < FCR_DRAIN_SETS; s++)
		n += t->redirects->set_used[s];
	return n;
}

/* A cutover drains its pair before anyone is told: the host's new commands
 * are held until its open exchanges have ended (an FCP_RSP or a BA_ACC
 * ends one, a BA_RJT does not), then the VI's, and only then are the host
 * and the VI told (FCR_NOTE_DRAINED). A new redirect's pair drains on its
 * plain path; its VI is told first and logs in through the new rules while
 * the host's way blocks until the host is back; a drain that does not
 * end within FCR_DRAIN_TICKS tells them anyway. */
static void
a_cutover_drains_the_pair_before_its_ports_are_told(void **state)
{
	struct fcr_tables *t = mk();
	struct cutover_probe c = { .t = t, .told = 1 };
	unsigned int i, drains = 0, vi_waits = 0;
	int id;

	(void)state;
	relogin_all(t);
	/* active before anyone hears of it: no cutover */
	id = fcr_redirect_add(t->redirects, VLAN, H, T, VI, VT);
	assert_int_equal(t->redirects->r[id].state, FCR_RS_ACTIVE);
	t->note_hook = (struct fcr_note_hook){ .fn = tell_on_cutover, .ctx = &c };
	/* the host has two exchanges open with the VT, the VI one with the target */
	sent(t, FH, FT, FCR_RCTL_FCP_CMND, FCR_TYPE_FCP, 3);
	sent(t, FVT, FH, FCR_RCTL_FCP_RSP, FCR_TYPE_FCP, 1);
	sent(t, FVI, FT, FCR_RCTL_FCP_CMND, FCR_TYPE_FCP, 2);
	sent(t, FT, FH, FCR_RCTL_FCP_RSP, FCR_TYPE_FCP, 1);

	assert_int_equal(fcr_redirect_del(t->redirects, VLAN, H, T), 0);
	assert_int_equal(c.notes, 1);
	assert_int_equal(c.drained, 0);
	assert_int_equal(t->redirects->r[id].draining, FCR_DRAIN_HOST);
	assert_int_equal(fcr_redirect_open(t->redirects, (uint32_t)id), 2);
	assert_true(held(t, FH, FT));
	assert_false(held(t, FVI, FT)); /* the VI still serves the host's */
	assert_four_rules(t, FH, FT, FVI, FVT);
	/* per exchange: each rule carries the host's or the VI's, one way */
	assert_int_equal(sets_used(t), 1);
	assert_true(drain_bits(t, FH, FT) == FCR_ACTION_DRAIN);
	assert_true(drain_bits(t, FVT, FH) == (FCR_ACTION_DRAIN | FCR_ACTION_DRAIN_TO));
	assert_true(drain_bits(t, FVI, FT) == (FCR_ACTION_DRAIN | FCR_ACTION_DRAIN_VI));
	assert_true(drain_bits(t, FT, FH) ==
		    (FCR_ACTION_DRAIN | FCR_ACTION_DRAIN_VI | FCR_ACTION_DRAIN_TO));
	fcr_redirect_drain_poll(t->redirects);
	assert_int_equal(c.drained, 0);
	sent(t, FVT, FH, FCR_RCTL_FCP_RSP, FCR_TYPE_FCP, 1);
	sent(t, FVT, FH, FCR_RCTL_BA_RJT, FCR_TYPE_BLS, 1);
	fcr_redirect_drain_poll(t->redirects);
	assert_int_equal(t->redirects->r[id].draining, FCR_DRAIN_HOST);
	assert_int_equal(fcr_redirect_open(t->redirects, (uint32_t)id), 1);
	sent(t, FVT, FH, FCR_RCTL_BA_ACC, FCR_TYPE_BLS, 1);
	fcr_redirect_drain_poll(t->redirects);
	/* the host's ended: the VI's now */
	assert_int_equal(t->redirects->r[id].draining, FCR_DRAIN_VI);
	assert_int_equal(fcr_redirect_open(t->redirects, (uint32_t)id), 1);
	assert_true(held(t, FVI, FT));
	assert_int_equal(c.drained, 0);
	sent(t, FT, FH, FCR_RCTL_FCP_RSP, FCR_TYPE_FCP, 1);
	fcr_redirect_drain_poll(t->redirects);
	assert_int_equal(c.drained, 1);
	assert_int_equal(t->redirects->r[id].draining, 0);
	assert_int_equal(t->redirects->nb_draining, 0);
	/* told: the old path until the host is back */
	assert_four_rules(t, FH, FT, FVI, FVT);
	assert_true(drain_bits(t, FH, FT) == FCR_ACTION_DRAIN);
	relogin(t, 0);
	assert_no_rules(t, FH, FT, FVI, FVT);
	assert_int_equal(sets_used(t), 0);

	/* a new redirect on a plain pair with an exchange open */
	assert_true(fcr_flow_set(t->flows, fcr_flow_key(VLAN, FH, FT),
				 fcr_action(FH, FT, FCR_LEG_PLAIN), FCR_NO_OWNER) >= 0);
	assert_true(fcr_flow_set(t->flows, fcr_flow_key(VLAN, FT, FH),
				 fcr_action(FT, FH, FCR_LEG_PLAIN), FCR_NO_OWNER) >= 0);
	sent(t, FH, FT, FCR_RCTL_FCP_CMND, FCR_TYPE_FCP, 1);
	id = fcr_redirect_add(t->redirects, VLAN, H, T, VI, VT);
	assert_int_equal(c.notes, 2);
	assert_int_equal(t->redirects->r[id].draining, FCR_DRAIN_HOST);
	assert_rule(t, FH, FT, FH, FT, FCR_LEG_PLAIN); /* plain, its commands held */
	assert_true(held(t, FH, FT));
	assert_rule(t, FT, FH, FT, FH, FCR_LEG_PLAIN);
	assert_true(drain_bits(t, FH, FT) == FCR_ACTION_DRAIN);
	assert_true(drain_bits(t, FT, FH) == (FCR_ACTION_DRAIN | FCR_ACTION_DRAIN_TO));
	sent(t, FT, FH, FCR_RCTL_FCP_RSP, FCR_TYPE_FCP, 1);
	fcr_redirect_drain_poll(t->redirects);
	/* drained: the VI told first, the new rules in but the host's way,
	 * which fails closed till the host is back: the VI logs in to the
	 * target as the host before the host reaches the service node */
	assert_int_equal(c.drained, 2);
	assert_int_equal(t->redirects->r[id].cut_state, FCR_CUT_VI_TOLD);
	assert_rule(t, FH, FT, FH, FT, FCR_LEG_BLOCKED);
	assert_rule(t, FVI, FT, FH, FT, FCR_LEG_VI_TO_TARGET);
	assert_rule(t, FT, FH, FT, FVI, FCR_LEG_TARGET_TO_HOST);
	assert_rule(t, FVT, FH, FT, FH, FCR_LEG_VT_TO_HOST);
	/* back once logged in again and answered by the target (its PLOGI's
	 * and PRLI's accepts) through the new path: then the host is told */
	fcr_redirect_cutover_tick(t->redirects, &drains, &vi_waits);
	sent(t, FT, FH, FCR_RCTL_ELS_REP, FCR_TYPE_ELS, FCR_VI_BACK_FRAMES);
	fcr_redirect_cutover_tick(t->redirects, &drains, &vi_waits);
	assert_int_equal(t->redirects->r[id].cut_state, FCR_CUT_VI_TOLD); /* not logged in */
	relogin(t, 2);
	assert_int_equal(c.drained, 3);
	assert_int_equal(t->redirects->r[id].cut_state, FCR_CUT_TOLD);
	assert_rule(t, FH, FT, FH, FT, FCR_LEG_BLOCKED);
	relogin(t, 0);
	assert_int_equal(t->redirects->r[id].state, FCR_RS_ACTIVE);
	assert_four_rules(t, FH, FT, FVI, FVT);
	assert_false(held(t, FH, FT));
	assert_true(drain_bits(t, FH, FT) == 0);
	assert_int_equal(sets_used(t), 0);

	/* what the keys counted before the rules does not hold the next drain,
	 * an exchange that never ends holds it FCR_DRAIN_TICKS */
	sent(t, FH, FT, FCR_RCTL_FCP_CMND, FCR_TYPE_FCP, 1);
	assert_int_equal(fcr_redirect_del(t->redirects, VLAN, H, T), 0);
	assert_int_equal(fcr_redirect_open(t->redirects, (uint32_t)id), 1);
	for (i = 1; i < FCR_DRAIN_TICKS; i++)
		fcr_redirect_cutover_tick(t->redirects, &drains, &vi_waits);
	assert_int_equal(c.drained, 3);
	assert_int_equal(drains, 0);
	fcr_redirect_cutover_tick(t->redirects, &drains, &vi_waits);
	assert_int_equal(drains, 1);
	assert_int_equal(c.drained, 4); /* a deleted one's: host and VI at once */
	relogin(t, 0);
	assert_no_rules(t, FH, FT, FVI, FVT);
	assert_int_equal(t->redirects->nb_cutover, 0);
	fcr_tables_free(t);
}

/* An FCP command that is its flow's first frame finds no entry: the
 * worker reports it (FCR_EV_FLOW_FIRST, with the exchanges it began) and
 * the tables lcore makes the entry. That exchange is open on the entry as
 * much as one the workers counted: a drain waits for it, and for the
 * commands among the frames missed after it (FCR_EV_FLOW_MISSES). */
static void
a_first_frame_command_is_an_open_exchange(void **state)
{
	struct fcr_tables *t = mk();
	struct cutover_probe c = { .t = t, .told = 1 };
	struct fcr_event ev;
	int id;

	(void)state;
	relogin_all(t);
	t->note_hook = (struct fcr_note_hook){ .fn = tell_on_cutover, .ctx = &c };
	fcr_event_flow(&ev, fcr_flow_key(VLAN, FH, FT));
	ev.count = 1;
	ev.cmnds = 1;
	fcr_tables_event(t, &ev);
	ev.type = FCR_EV_FLOW_MISSES; /* two more frames, one a command */
	ev.count = 2;
	fcr_tables_event(t, &ev);
	fcr_event_flow(&ev, fcr_flow_key(VLAN, FT, FH));
	ev.count = 1;
	ev.cmnds = 0;
	ev.ends = 1; /* the first command's FCP_RSP */
	fcr_tables_event(t, &ev);
	id = fcr_redirect_add(t->redirects, VLAN, H, T, VI, VT);
	assert_int_equal(t->redirects->r[id].draining, FCR_DRAIN_HOST);
	assert_int_equal(fcr_redirect_open(t->redirects, (uint32_t)id), 1);
	fcr_redirect_drain_poll(t->redirects);
	assert_int_equal(c.drained, 0);
	sent(t, FT, FH, FCR_RCTL_FCP_RSP, FCR_TYPE_FCP, 1);
	fcr_redirect_drain_poll(t->redirects);
	assert_int_equal(c.drained, 1);
	fcr_tables_free(t);
}

/* The operator's word stands: a login never moves a static binding, never
 * takes its FCID, and a fabric logout does not remove it. */
static void
a_login_never_overrides_a_static_binding(void **state)
{
	struct fcr_tables *t = mk();
	struct note_log l = { .count = 0 };

	(void)state;
	bind4(t);
	assert_true(fcr_redirect_add(t->redirects, VLAN, H, T, VI, VT) >= 0);
	t->note_hook = (struct fcr_note_hook){ .fn = record_note, .ctx = &l };
	/* the VT logs in and the fabric gives it another FCID */
	login(t, FCR_LOGIN_FLOGI, 0, 1, 0, FCR_FCID_FLOGI, 1, VT, 0, 4);
	login(t, FCR_LOGIN_ACC, FCR_LOGIN_FLOGI, 1, FCR_FCID_FLOGI, 0x810099, 1, 0, 0, 4);
	/* another port is given the VT's FCID */
	login(t, FCR_LOGIN_FLOGI, 0, 1, 0, FCR_FCID_FLOGI, 2, 0x2f00000000000009ull, 0, 5);
	login(t, FCR_LOGIN_ACC, FCR_LOGIN_FLOGI, 1, FCR_FCID_FLOGI, FVT, 2, 0, 0, 5);
	/* the fabric logs the VT out */
	login(t, FCR_LOGIN_LOGO, 0, 0, FVT, FCR_FCID_FLOGI, 3, VT, FVT, 6);
	login(t, FCR_LOGIN_ACC, 0, 0, FCR_FCID_FLOGI, FVT, 3, 0, 0, 6);
	assert_int_equal(t->st.logins_static_kept, 3);
	assert_int_equal(l.count, 3);
	assert_int_equal(l.n[0].kind, FCR_NOTE_STATIC_KEPT);
	assert_int_equal(l.n[0].fcid, 0x810099);
	assert_int_equal(l.n[0].old_fcid, FVT);
	assert_int_equal(l.n[1].other_wwpn, VT);
	assert_int_equal(t->st.logouts, 0);
	assert_int_equal(t->redirects->r[0].state, FCR_RS_ACTIVE);
	assert_four_rules(t, FH, FT, FVI, FVT);
	fcr_tables_free(t);
}

static void
learned_logins_drive_a_redirect_through_its_life(void **state)
{
	struct fcr_tables *t = mk();

	(void)state;
	assert_true(fcr_redirect_add(t->redirects, VLAN, H, T, VI, VT) >= 0);
	login(t, FCR_LOGIN_FLOGI, 0, 1, 0, FCR_FCID_FLOGI, 1, H, 0, 1);
	login(t, FCR_LOGIN_ACC, FCR_LOGIN_FLOGI, 1, FCR_FCID_FLOGI, FH, 1, 0, 0, 1);
	login(t, FCR_LOGIN_FLOGI, 0, 1, 0, FCR_FCID_FLOGI, 1, T, 0, 2);
	login(t, FCR_LOGIN_ACC, FCR_LOGIN_FLOGI, 1, FCR_FCID_FLOGI, FT, 1, 0, 0, 2);
	login(t, FCR_LOGIN_FLOGI, 0, 1, 0, FCR_FCID_FLOGI, 1, VI, 0, 3);
	login(t, FCR_LOGIN_ACC, FCR_LOGIN_FLOGI, 1, FCR_FCID_FLOGI, FVI, 1, 0, 0, 3);
	assert_rule(t, FH, FT, FH, FT, FCR_LEG_BLOCKED);
	login(t, FCR_LOGIN_FLOGI, 0, 1, 0, FCR_FCID_FLOGI, 1, VT, 0, 4);
	login(t, FCR_LOGIN_ACC, FCR_LOGIN_FLOGI, 1, FCR_FCID_FLOGI, FVT, 1, 0, 0, 4);
	assert_four_rules(t, FH, FT, FVI, FVT);

	/* the host logs in again and gets a new FCID: rules follow */
	login(t, FCR_LOGIN_FLOGI, 0, 1, 0, FCR_FCID_FLOGI, 2, H, 0, 1);
	login(t, FCR_LOGIN_ACC, FCR_LOGIN_FLOGI, 1, FCR_FCID_FLOGI, 0x010042, 2, 0, 0, 1);
	assert_no_rules_for_host(t, FH, FT, FVT);
	assert_four_rules(t, 0x010042, FT, FVI, FVT);

	/* an N_Port LOGO (to another target) and its accept unbind nothing */
	login(t, FCR_LOGIN_LOGO, 0, 0, 0x010042, 0x410077, 3, H, 0x010042, 1);
	login(t, FCR_LOGIN_ACC, 0, 0, 0x410077, 0x010042, 3, 0, 0, 1);
	assert_four_rules(t, 0x010042, FT, FVI, FVT);
	/* a fabric LOGO is nothing until the fabric accepts it */
	login(t, FCR_LOGIN_LOGO, 0, 0, 0x010042, FCR_FCID_FLOGI, 4, H, 0x010042, 1);
	assert_four_rules(t, 0x010042, FT, FVI, FVT);
	/* a stale FCID's logout, accepted, changes nothing */
	login(t, FCR_LOGIN_LOGO, 0, 0, FH, FCR_FCID_FLOGI, 5, H, FH, 1);
	login(t, FCR_LOGIN_ACC, 0, 0, FCR_FCID_FLOGI, FH, 5, 0, 0, 1);
	assert_four_rules(t, 0x010042, FT, FVI, FVT);
	assert_int_equal(t->st.logouts, 0);
	/* the fabric's accept of the real one unbinds */
	login(t, FCR_LOGIN_ACC, 0, 0, FCR_FCID_FLOGI, 0x010042, 4, 0, 0, 1);
	assert_no_rules(t, 0x010042, FT, FVI, FVT);
	assert_int_equal(t->st.logouts, 1);
	assert_int_equal(fcr_redirect_missing(t->redirects, 0), FCR_M_HOST);
	fcr_tables_free(t);
}


static void
assert_note_bound(const struct fcr_note *n, enum fcr_note_kind kind, uint64_t wwpn,
		  uint32_t fcid, uint32_t old_fcid)
{
	assert_int_equal(n->kind, kind);
	assert_int_equal(n->vlan, VLAN);
	assert_true(n->wwpn == wwpn);
	assert_int_equal(n->fcid, fcid);
	assert_int_equal(n->old_fcid, old_fcid);
}

static void
assert_note_redirect(const struct fcr_note *n, enum fcr_redirect_state from,
		     enum fcr_redirect_state to, int reinstalled)
{
	assert_int_equal(n->kind, FCR_NOTE_REDIRECT);
	assert_int_equal(n->redirect, 0);
	assert_int_equal(n->old_state, from);
	assert_int_equal(n->new_state, to);
	assert_int_equal(n->reinstalled, reinstalled);
}

/* What the log shows: each binding change once, each redirect state change
 * once, in the order they happened; nothing for a change that is none. */
static void
notes_follow_bindings_and_redirect_states(void **state)
{
	struct fcr_tables *t = mk();
	struct note_log l = { .count = 0 };

	(void)state;
	t->note_hook = (struct fcr_note_hook){ .fn = record_note, .ctx = &l };
	assert_int_equal(fcr_redirect_add(t->redirects, VLAN, H, T, VI, VT), 0);
	assert_int_equal(l.count, 0); /* waiting, as a new redirect is */
	assert_int_equal(fcr_tables_binding_add(t, VLAN, H, FH, FCR_BIND_STATIC), 0);
	assert_int_equal(fcr_tables_binding_add(t, VLAN, T, FT, FCR_BIND_STATIC), 0);
	assert_int_equal(fcr_tables_binding_add(t, VLAN, VI, FVI, FCR_BIND_STATIC), 0);
	assert_int_equal(l.count, 3);
	assert_note_bound(&l.n[0], FCR_NOTE_BOUND, H, FH, FCR_FCID_NONE);
	assert_int_equal(l.n[0].origin, FCR_BIND_STATIC);
	login(t, FCR_LOGIN_FLOGI, 0, 1, 0, FCR_FCID_FLOGI, 1, VT, 0, 4);
	login(t, FCR_LOGIN_ACC, FCR_LOGIN_FLOGI, 1, FCR_FCID_FLOGI, FVT, 1, 0, 0, 4);
	assert_int_equal(l.count, 5);
	assert_note_bound(&l.n[3], FCR_NOTE_BOUND, VT, FVT, FCR_FCID_NONE);
	assert_int_equal(l.n[3].origin, FCR_BIND_LEARNED);
	assert_note_redirect(&l.n[4], FCR_RS_WAITING, FCR_RS_ACTIVE, 0);

	/* the same binding again is no change */
	assert_int_equal(fcr_tables_binding_add(t, VLAN, H, FH, FCR_BIND_STATIC), 0);
	assert_int_equal(l.count, 5);
	/* the host moves: its binding and the redirect's rules follow */
	assert_int_equal(fcr_tables_binding_add(t, VLAN, H, 0x010042, FCR_BIND_STATIC), 0);
	assert_int_equal(l.count, 7);
	assert_note_bound(&l.n[5], FCR_NOTE_BOUND, H, 0x010042, FH);
	assert_note_redirect(&l.n[6], FCR_RS_ACTIVE, FCR_RS_ACTIVE, 1);
	/* another port takes the target's FCID: the target is evicted */
	assert_int_equal(fcr_tables_binding_add(t, VLAN, 0x5000000000000099ull, FT,
						FCR_BIND_STATIC), 0);
	assert_int_equal(l.count, 10);
	assert_note_bound(&l.n[7], FCR_NOTE_UNBOUND, T, FCR_FCID_NONE, FT);
	assert_note_redirect(&l.n[8], FCR_RS_ACTIVE, FCR_RS_WAITING, 0);
	assert_note_bound(&l.n[9], FCR_NOTE_BOUND, 0x5000000000000099ull, FT,
			  FCR_FCID_NONE);
	fcr_tables_free(t);
}

static void
many_redirects_load_and_unload_cleanly(void **state)
{
	struct fcr_tables_params p = {
		.max_flows = 1 << 16, .max_routes = 16, .max_bindings = 1 << 14,
		.max_redirects = 1 << 12, .nb_workers = 1, .socket = 0,
	};
	struct fcr_tables *t = fcr_tables_create("big", &p);
	uint32_t i;

	(void)state;
	assert_non_null(t);
	for (i = 0; i < 4096; i++) {
		uint64_t h = 0x2100000000000000ull | i, tg = 0x5000000000000000ull | i;
		uint64_t vi = 0x2f01000000000000ull | i, vt = 0x2f02000000000000ull | i;

		assert_int_equal(fcr_tables_binding_add(t, 1, h, 0x010000 | i, FCR_BIND_STATIC), 0);
		assert_int_equal(fcr_tables_binding_add(t, 1, tg, 0x410000 | i, FCR_BIND_STATIC), 0);
		assert_int_equal(fcr_tables_binding_add(t, 1, vi, 0x810000 | i, FCR_BIND_STATIC), 0);
		assert_int_equal(fcr_tables_binding_add(t, 1, vt, 0x820000 | i, FCR_BIND_STATIC), 0);
		assert_true(fcr_redirect_add(t->redirects, 1, h, tg, vi, vt) >= 0);
	}
	assert_int_equal(t->redirects->nb_active, 4096);
	assert_int_equal(t->flows->count, FCR_REDIRECT_KEYS * 4096);
	assert_int_equal(fcr_redirect_add(t->redirects, 1, 1, 2, 3, 4), -ENOSPC);
	for (i = 0; i < 4096; i++)
		assert_int_equal(fcr_redirect_del(t->redirects, 1, 0x2100000000000000ull | i,
						  0x5000000000000000ull | i), 0);
	assert_int_equal(t->flows->count, 0);
	assert_int_equal(t->redirects->count, 0);
	fcr_tables_free(t);
}

/* ---- fcr_tables_events: a burst applies as its events one by one ---- */

static struct fcr_tables *
mk_logged(uint32_t max_flows)
{
	struct fcr_tables_params p = {
		.max_flows = max_flows, .max_routes = 16, .max_bindings = 64,
		.max_redirects = 8, .nb_workers = 1, .qsbr = NULL, .socket = 0,
	};
	static int seq;
	char name[32];
	struct fcr_tables *t;

	snprintf(name, sizeof(name), "lg%d", seq++);
	t = fcr_tables_create(name, &p);
	assert_non_null(t);
	t->fabric_mask = 1u << FABRIC_PORT;
	assert_int_equal(fcr_tables_attach_log(t, 0), 0);
	return t;
}

static void
assert_dirty_equal(const struct fcr_dirty_list *a, const struct fcr_dirty_list *b)
{
	assert_int_equal(a->n, b->n);
	assert_int_equal(a->overflow, b->overflow);
	assert_memory_equal(a->idx, b->idx, sizeof(uint32_t) * a->n);
}

/* Everything a worker event can change, and what sync would send. */
static void
assert_tables_equal(const struct fcr_tables *a, const struct fcr_tables *b)
{
	const struct fcr_flow_table *fa = a->flows, *fb = b->flows;
	const struct fcr_change_log *la = a->log, *lb = b->log;
	uint32_t i;

	assert_memory_equal(&a->st, &b->st, sizeof(a->st));
	/* flows: the same entries at the same indexes, the same free slots */
	assert_int_equal(fa->count, fb->count);
	assert_int_equal(fa->nb_free, fb->nb_free);
	assert_memory_equal(fa->key, fb->key, sizeof(uint64_t) * fa->capacity);
	assert_memory_equal(fa->action, fb->action, sizeof(uint64_t) * fa->capacity);
	assert_memory_equal(fa->owner, fb->owner, sizeof(uint32_t) * fa->capacity);
	assert_memory_equal(fa->free_idx, fb->free_idx, sizeof(uint32_t) * fa->nb_free);
	assert_memory_equal(fa->sflags, fb->sflags, fa->capacity);
	for (i = 0; i < fa->capacity; i++)
		if (fa->key[i] != UINT64_MAX)
			assert_int_equal(fcr_flow_find(fa, fa->key[i]),
					 fcr_flow_find(fb, fa->key[i]));
	/* bindings and redirects */
	for (i = 0; i < a->bindings->capacity; i++) {
		const struct fcr_binding *x = &a->bindings->entry[i], *y = &b->bindings->entry[i];

		assert_int_equal(x->in_use, y->in_use);
		assert_int_equal(x->wwpn, y->wwpn);
		assert_int_equal(x->fcid, y->fcid);
		assert_int_equal(x->origin, y->origin);
		assert_int_equal(x->sflags, y->sflags);
	}
	for (i = 0; i < a->redirects->capacity; i++) {
		const struct fcr_redirect *x = &a->redirects->r[i], *y = &b->redirects->r[i];

		assert_int_equal(x->in_use, y->in_use);
		assert_int_equal(x->state, y->state);
		assert_int_equal(x->installs, y->installs);
		assert_int_equal(x->frames_before, y->frames_before);
		assert_int_equal(x->sflags, y->sflags);
		assert_memory_equal(x->fcid, y->fcid, sizeof(x->fcid));
	}
	assert_int_equal(rte_hash_count(a->pending), rte_hash_count(b->pending));
	/* the change log: what the next sync batch holds */
	assert_int_equal(la->changes, lb->changes);
	assert_int_equal(la->coalesced, lb->coalesced);
	assert_int_equal(la->cancelled, lb->cancelled);
	for (i = 0; i < FCR_KIND_COUNT; i++)
		assert_dirty_equal(&la->dirty[i], &lb->dirty[i]);
	assert_int_equal(la->nb_tomb, lb->nb_tomb);
	assert_memory_equal(la->tomb, lb->tomb, sizeof(la->tomb[0]) * la->nb_tomb);
}

/* Two redirects whose four ports each log in with one of two FCIDs. */
static uint64_t
port_wwpn(unsigned int r, unsigned int m)
{
	static const uint64_t base[FCR_M_COUNT] = { H, T, VI, VT };

	return base[m] + ((uint64_t)r << 8);
}

static uint32_t
port_fcid(unsigned int r, unsigned int m, unsigned int v)
{
	static const uint32_t base[FCR_M_COUNT] = { FH, FT, FVI, FVT };

	return base[m] + (r << 8) + (v << 4);
}

static void
configure_redirects(struct fcr_tables *t)
{
	unsigned int r, m;

	for (r = 0; r < NR; r++) {
		for (m = 0; m < FCR_M_COUNT; m++)
			assert_int_equal(fcr_tables_binding_add(t, VLAN, port_wwpn(r, m),
				port_fcid(r, m, 0), FCR_BIND_LEARNED), 0);
		assert_true(fcr_redirect_add(t->redirects, VLAN, port_wwpn(r, 0),
					     port_wwpn(r, 1), port_wwpn(r, 2),
					     port_wwpn(r, 3)) >= 0);
	}
}

static uint64_t
rnd(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/* A flow key: a redirect's rule key with either FCID of each end (so keys
 * come and go as ports log in again), or one of a few plain flows. */
static uint64_t
random_key(uint64_t *x)
{
	static const unsigned int ends[4][2] = {
		{ FCR_M_HOST, FCR_M_TARGET }, { FCR_M_VI, FCR_M_TARGET },
		{ FCR_M_TARGET, FCR_M_HOST }, { FCR_M_VT, FCR_M_HOST },
	};
	uint64_t v = rnd(x);
	unsigned int r = v & 1, e = (v >> 1) & 3;

	if ((v >> 3) % 4 == 0)
		return fcr_flow_key(VLAN, 0x020000 + (uint32_t)((v >> 8) % 40), 0x420000);
	return fcr_flow_key(VLAN, port_fcid(r, ends[e][0], (v >> 5) & 1),
			    port_fcid(r, ends[e][1], (v >> 6) & 1));
}

static void
random_event(struct fcr_event *ev, uint64_t *x)
{
	uint64_t v = rnd(x);
	unsigned int r = (v >> 8) & 1, m = (v >> 9) & 3, fv = (v >> 11) & 1;
	unsigned int pick = v % 100;

	if (pick < 60 || pick >= 98) {
		fcr_event_flow(ev, random_key(x));
		ev->count = 1 + (uint32_t)((v >> 16) % 5);
		if (pick >= 98)
			ev->type = 0; /* not an event type: ignored */
		return;
	}
	if (pick < 78) {
		fcr_event_flow(ev, random_key(x));
		ev->type = FCR_EV_FLOW_MISSES;
		ev->count = 1 + (uint32_t)((v >> 16) % 7);
		return;
	}
	memset(ev, 0, sizeof(*ev));
	ev->type = FCR_EV_LOGIN;
	ev->vlan = VLAN;
	ev->ox_id = (uint16_t)((v >> 20) & 3);
	ev->enode[5] = (uint8_t)(r * 4 + m);
	ev->port = EDGE_PORT;
	if (pick < 85) {
		/* the port asks the fabric for a login */
		ev->kind = FCR_LOGIN_FLOGI;
		ev->has_wwpn = 1;
		ev->wwpn = port_wwpn(r, m);
		ev->d_id = FCR_FCID_FLOGI;
	} else if (pick < 90) {
		/* the fabric grants either FCID: its rules move, the keys with
		 * its other FCID go (or a LOGO's accept, then a stale one) */
		ev->kind = FCR_LOGIN_ACC;
		ev->has_wwpn = 1;
		ev->wwpn = 0x20000000000000ffull;
		ev->s_id = FCR_FCID_FLOGI;
		ev->d_id = port_fcid(r, m, fv);
		ev->port = FABRIC_PORT;
	} else if (pick < 94) {
		/* a LOGO, with the port's FCID or its other one (then stale) */
		ev->kind = FCR_LOGIN_LOGO;
		ev->has_wwpn = 1;
		ev->wwpn = port_wwpn(r, m);
		ev->s_id = port_fcid(r, m, fv);
		ev->d_id = FCR_FCID_FLOGI;
		ev->port_id = port_fcid(r, m, fv);
	} else {
		/* the fabric accepts a LOGO */
		ev->kind = FCR_LOGIN_ACC;
		ev->s_id = FCR_FCID_FLOGI;
		ev->d_id = port_fcid(r, m, fv);
		ev->port = FABRIC_PORT;
	}
}

static void
events_in_bursts_match_events_one_by_one(uint32_t max_flows, uint64_t seed)
{
	struct fcr_tables *one = mk_logged(max_flows), *bulk = mk_logged(max_flows);
	struct fcr_event ev[100];
	uint64_t x = seed, added = 0, before = 0, full = 0;
	unsigned int round, i, n;

	configure_redirects(one);
	configure_redirects(bulk);
	assert_tables_equal(one, bulk);
	for (round = 0; round < 3000; round++) {
		/* mostly bursts up to the tables lcore's 64, some longer */
		n = 1 + (unsigned int)(rnd(&x) % (round % 8 == 7 ? 100 : FCR_TABLES_BURST));
		for (i = 0; i < n; i++)
			random_event(&ev[i], &x);
		for (i = 0; i < n; i++)
			fcr_tables_event(one, &ev[i]);
		fcr_tables_events(bulk, ev, n);
		assert_tables_equal(one, bulk);
		if (round % 50 == 49) {
			/* a sync batch went out: the dirty lists start again */
			one->log->dirty[FCR_KIND_FLOW].n = bulk->log->dirty[FCR_KIND_FLOW].n = 0;
			for (i = 0; i < one->flows->capacity; i++) {
				one->flows->sflags[i] = bulk->flows->sflags[i] =
					one->flows->sflags[i] & ~FCR_SF_DIRTY;
			}
		}
	}
	/* the sequence went through every case */
	added = one->st.flows_added;
	full = one->st.flow_table_full;
	for (i = 0; i < NR; i++)
		before += one->redirects->r[i].frames_before;
	assert_true(one->st.logouts > 100);
	assert_true(one->st.bindings_learned > 100);
	if (max_flows < 128) {
		/* the plain flows fill it: first frames find it full */
		assert_true(added > 40);
		assert_true(full > 1000);
	} else {
		assert_true(added > 1000);
		assert_true(before > 1000);
	}
	fcr_tables_free(one);
	fcr_tables_free(bulk);
}

static void
random_bursts_apply_as_their_events_one_by_one(void **state)
{
	(void)state;
	events_in_bursts_match_events_one_by_one(1024, 0x9E3779B97F4A7C15ull);
	events_in_bursts_match_events_one_by_one(1024, 12345);
	/* a table that fills: first frames that find it full */
	events_in_bursts_match_events_one_by_one(48 + fcr_redirect_reserve(8), 0xD1B54A32D192ED03ull);
}

/* The cases a burst must not skip: a first frame of a flow that a redirect
 * took over counts as a frame before its rule; a flow whose rule a login
 * removed earlier in the burst is added again as a plain flow; a new flow
 * reported twice in one burst is added once. */
static void
a_burst_keeps_what_each_first_frame_does(void **state)
{
	struct fcr_tables *t = mk_logged(1024);
	uint64_t rule = fcr_flow_key(VLAN, FH, FT), plain = fcr_flow_key(VLAN, 0x020001, FT);
	struct fcr_event ev[7];
	uint64_t changes;
	int r;

	(void)state;
	bind4(t);
	/* the host's binding learned (here from a sync peer) */
	assert_int_equal(fcr_tables_binding_del(t, VLAN, H), 0);
	assert_int_equal(fcr_tables_binding_add(t, VLAN, H, FH, FCR_BIND_LEARNED), 0);
	r = fcr_redirect_add(t->redirects, VLAN, H, T, VI, VT);
	assert_true(r >= 0);
	assert_int_equal(t->flows->count, FCR_REDIRECT_KEYS);
	changes = t->log->changes;

	fcr_event_flow(&ev[0], rule);     /* known, a redirect's rule */
	ev[0].count = 2;
	fcr_event_flow(&ev[1], plain);    /* new */
	fcr_event_flow(&ev[2], plain);    /* the same, in flight meanwhile */
	memset(&ev[3], 0, sizeof(ev[3])); /* the host logs out of the fabric */
	ev[3].type = FCR_EV_LOGIN;
	ev[3].kind = FCR_LOGIN_LOGO;
	ev[3].vlan = VLAN;
	ev[3].has_wwpn = 1;
	ev[3].wwpn = H;
	ev[3].s_id = FH;
	ev[3].d_id = FCR_FCID_FLOGI;
	ev[3].port_id = FH;
	ev[3].port = EDGE_PORT;
	ev[4] = ev[3];                    /* the fabric accepts: rules removed */
	ev[4].kind = FCR_LOGIN_ACC;
	ev[4].has_wwpn = 0;
	ev[4].wwpn = 0;
	ev[4].s_id = FCR_FCID_FLOGI;
	ev[4].d_id = FH;
	ev[4].port = FABRIC_PORT;
	fcr_event_flow(&ev[5], rule);     /* now plain, and new */
	ev[5].count = 5;
	fcr_event_flow(&ev[6], rule);
	ev[6].type = FCR_EV_FLOW_MISSES;
	ev[6].count = 3;
	fcr_tables_events(t, ev, 7);

	assert_int_equal(t->redirects->r[r].frames_before, 2);
	assert_int_equal(t->st.logouts, 1);
	assert_int_equal(t->st.flows_added, 2);
	assert_rule(t, 0x020001, FT, 0x020001, FT, FCR_LEG_PLAIN);
	assert_rule(t, FH, FT, FH, FT, FCR_LEG_PLAIN);
	assert_int_equal(t->flows->owner[fcr_flow_find(t->flows, rule)], FCR_NO_OWNER);
	/* the two new flows noted for sync, besides the logout's changes */
	assert_true(t->log->changes >= changes + 2);
	assert_int_not_equal(t->flows->sflags[fcr_flow_find(t->flows, rule)] &
			     FCR_SF_DIRTY, 0);
	fcr_tables_free(t);
}

static int
eal_up(void **state)
{
	(void)state;
	return tu_eal_init("test_tables", "256", "0");
}

static int
eal_down(void **state)
{
	(void)state;
	rte_eal_cleanup();
	return 0;
}

/* Multipath: the active redirects of one (VLAN, host node, target node)
 * are a group; a plain flow between a port of one node and a port of the
 * other is a path of the pair no redirect steers: counted at once, noted
 * (the group's first), and shown on each redirect of the group; a pass
 * over the flows sets the count from what is there. Flows of other nodes,
 * and ports with no node name known, are not. */
static void
a_path_of_a_redirected_pair_s_nodes_left_plain_is_found(void **state)
{
	const uint64_t hn = 0x2000000000000011ull, tn = 0x2000000000000022ull;
	struct fcr_tables *t = tu_tables(1, 0);
	struct fcr_event ev;
	uint64_t ex = 0;
	int id, id2;

	(void)state;
	/* host ports H1 H2, target ports T1 T2 (node names hn, tn), a VI/VT */
	assert_int_equal(fcr_tables_binding_add(t, 1, 0x21, 0x010001, FCR_BIND_STATIC), 0);
	assert_int_equal(fcr_tables_binding_add(t, 1, 0x22, 0x010002, FCR_BIND_STATIC), 0);
	assert_int_equal(fcr_tables_binding_add(t, 1, 0x51, 0x410001, FCR_BIND_STATIC), 0);
	assert_int_equal(fcr_tables_binding_add(t, 1, 0x52, 0x410002, FCR_BIND_STATIC), 0);
	assert_int_equal(fcr_tables_binding_add(t, 1, 0x2f1, 0x810001, FCR_BIND_STATIC), 0);
	assert_int_equal(fcr_tables_binding_add(t, 1, 0x2f2, 0x810002, FCR_BIND_STATIC), 0);
	assert_int_equal(fcr_tables_binding_add(t, 1, 0x2f3, 0x810003, FCR_BIND_STATIC), 0);
	assert_int_equal(fcr_tables_binding_add(t, 1, 0x2f4, 0x810004, FCR_BIND_STATIC), 0);
	fcr_tables_binding_node(t, 1, 0x21, hn, 0);
	fcr_tables_binding_node(t, 1, 0x22, hn, 0);
	fcr_tables_binding_node(t, 1, 0x51, tn, 0);
	fcr_tables_binding_node(t, 1, 0x52, tn, 0);
	id = fcr_redirect_add(t->redirects, 1, 0x21, 0x51, 0x2f1, 0x2f2);
	assert_true(id >= 0);
	assert_int_equal(t->redirects->r[id].state, FCR_RS_ACTIVE);
	/* a plain flow of the second host port to the first target port */
	memset(&ev, 0, sizeof(ev));
	fcr_event_flow(&ev, fcr_flow_key(1, 0x010002, 0x410001));
	ev.type = FCR_EV_FLOW_FIRST;
	ev.count = 1;
	fcr_tables_event(t, &ev);
	assert_int_equal(t->st.multipath_unredirected, 1);
	assert_int_equal(fcr_paths_unredirected(t->redirects, (uint32_t)id, &ex), 1);
	assert_true(ex == fcr_flow_key(1, 0x010002, 0x410001));
	/* its answer too (either way); a flow of the VI's: not the nodes' */
	fcr_event_flow(&ev, fcr_flow_key(1, 0x410001, 0x010002));
	fcr_tables_event(t, &ev);
	fcr_event_flow(&ev, fcr_flow_key(1, 0x810003, 0x410001));
	fcr_tables_event(t, &ev);
	assert_int_equal(fcr_paths_unredirected(t->redirects, (uint32_t)id, &ex), 2);
	assert_int_equal(t->st.multipath_unredirected, 2);
	/* a pass over the flows counts what is there: the two */
	fcr_paths_tick(t, 4096);
	fcr_paths_tick(t, 4096);
	assert_int_equal(fcr_paths_unredirected(t->redirects, (uint32_t)id, &ex), 2);
	/* the path redirected too: its flows are the new redirect's rules,
	 * the group has two members and no plain path left */
	id2 = fcr_redirect_add(t->redirects, 1, 0x22, 0x51, 0x2f3, 0x2f4);
	assert_true(id2 >= 0);
	assert_int_equal(t->redirects->r[id2].state, FCR_RS_ACTIVE);
	assert_int_equal(t->redirects->paths->g[t->redirects->r[id].path_group - 1].members, 2);
	assert_int_equal(t->redirects->r[id].path_group, t->redirects->r[id2].path_group);
	fcr_paths_tick(t, 4096);
	assert_int_equal(fcr_paths_unredirected(t->redirects, (uint32_t)id, &ex), 0);
	assert_int_equal(fcr_paths_unredirected(t->redirects, (uint32_t)id2, &ex), 0);
	/* the group's members, the one named first; another VLAN's are not */
	{
		uint32_t ids[4];

		assert_int_equal(fcr_paths_members(t->redirects, (uint32_t)id2, ids, 4), 2);
		assert_true(ids[0] == (uint32_t)id2 && ids[1] == (uint32_t)id);
	}
	/* both removed: no group, a new path of the nodes is nobody's */
	assert_int_equal(fcr_redirect_del(t->redirects, 1, 0x21, 0x51), 0);
	assert_int_equal(fcr_redirect_del(t->redirects, 1, 0x22, 0x51), 0);
	assert_int_equal(rte_hash_count(t->redirects->paths->h), 0);
	fcr_event_flow(&ev, fcr_flow_key(1, 0x010001, 0x410002));
	fcr_tables_event(t, &ev);
	assert_int_equal(t->st.multipath_unredirected, 2);
	fcr_tables_free(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(flow_set_find_del_and_reuse),
		cmocka_unit_test(flow_table_fills_to_capacity_then_refuses),
		cmocka_unit_test(flow_cache_answers_as_the_table_does),
		cmocka_unit_test(idle_plain_flows_expire_and_rules_stay),
		cmocka_unit_test(counters_sum_over_workers),
		cmocka_unit_test(routes_longest_prefix_wins_and_replace_and_delete),
		cmocka_unit_test(routes_of_two_vlans_send_the_same_fcid_apart),
		cmocka_unit_test(vlan_slots_are_freed_reused_and_at_most_255),
		cmocka_unit_test(redirect_installs_four_rules_when_all_bound),
		cmocka_unit_test(redirect_on_another_vlan_does_not_match),
		cmocka_unit_test(redirect_refuses_a_port_named_twice),
		cmocka_unit_test(rebinding_a_member_rebuilds_the_rules),
		cmocka_unit_test(an_fcid_taken_by_another_port_unbinds_the_first),
		cmocka_unit_test(redirect_del_and_unbind_remove_the_rules),
		cmocka_unit_test(two_redirects_sharing_a_key_conflict),
		cmocka_unit_test(a_flood_of_flows_cannot_take_a_redirects_room),
		cmocka_unit_test(first_frame_event_adds_a_plain_entry_once),
		cmocka_unit_test(first_frames_of_a_flow_whose_rule_came_later_count_as_before_rule),
		cmocka_unit_test(flogi_and_its_accept_bind_the_requester),
		cmocka_unit_test(fip_fdisc_reply_binds_and_plogi_teaches_nothing),
		cmocka_unit_test(a_fabric_reply_on_an_edge_port_teaches_nothing),
		cmocka_unit_test(a_login_request_is_bound_to_the_port_it_came_from),
		cmocka_unit_test(a_redirect_members_login_elsewhere_does_not_move_it),
		cmocka_unit_test(a_login_never_overrides_a_static_binding),
		cmocka_unit_test(the_fcfs_clear_virtual_links_unbinds),
		cmocka_unit_test(an_enode_silent_for_two_and_a_half_periods_loses_its_bindings),
		cmocka_unit_test(an_enode_that_never_logged_in_here_is_made_to_log_in_again),
		cmocka_unit_test(a_login_restarts_the_keep_alive_clock),
		cmocka_unit_test(a_pairs_open_exchanges_are_counted_for_when_idle),
		cmocka_unit_test(a_path_change_of_a_bound_pair_is_a_cutover),
		cmocka_unit_test(a_cutover_keeps_the_old_path_until_both_log_in_again),
		cmocka_unit_test(a_cutover_drains_the_pair_before_its_ports_are_told),
		cmocka_unit_test(a_drained_pair_asks_clear_virtual_links_for_the_host_and_the_vi),
		cmocka_unit_test(an_enode_told_by_a_cutover_is_given_time_to_reset),
		cmocka_unit_test(fip_discovery_is_learned_from_fabric_ports_only),
		cmocka_unit_test(learned_logins_drive_a_redirect_through_its_life),
		cmocka_unit_test(notes_follow_bindings_and_redirect_states),
		cmocka_unit_test(a_first_frame_command_is_an_open_exchange),
		cmocka_unit_test(a_new_vi_cuts_over_to_the_new_service_node),
		cmocka_unit_test(many_redirects_load_and_unload_cleanly),
		cmocka_unit_test(a_burst_keeps_what_each_first_frame_does),
		cmocka_unit_test(random_bursts_apply_as_their_events_one_by_one),
		cmocka_unit_test(vn_cache_follows_every_change_to_the_vn_table),
		cmocka_unit_test(the_fcf_registry_keeps_each_fcf_s_slot_and_logins_name_theirs),
		cmocka_unit_test(fcfs_of_a_vlan_naming_different_fc_maps_are_counted_and_noted),
		cmocka_unit_test(a_path_of_a_redirected_pair_s_nodes_left_plain_is_found),
	};

	return cmocka_run_group_tests(tests, eal_up, eal_down);
}
