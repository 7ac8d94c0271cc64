/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The sync engine between in-process nodes over a simulated network that can
 * drop, duplicate and reorder: convergence of config, bindings and flows,
 * coalescing, deletions, loss recovery, restarts with bulk resync, three
 * nodes, and refusal of forged, short, replayed and foreign datagrams.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <rte_eal.h>

#include "fcr_change.h"
#include "fcr_enode.h"
#include "fcr_kind.h"
#include "fcr_kind_binding.h"
#include "fcr_kind_flow.h"
#include "fcr_kind_redirect.h"
#include "fcr_kind_route.h"
#include "fcr_sn.h"
#include "fcr_sync.h"
#include "fcr_tables.h"
#include "test_util.h"

/* The deletion of the object r names. */
static struct fcr_rec
as_del(struct fcr_rec r)
{
	r.type++;
	memset(&r.val, 0, sizeof(r.val));
	return r;
}

#define MAXQ 200000
#define NODES 3

struct pkt {
	int to;
	int from;
	uint16_t len;
	uint8_t data[1500];
};

static struct pkt *q;       /* the network: datagrams in flight */
static unsigned int nq;
static uint64_t rng = 88172645463325252ull;
static int loss_pct, dup_pct, reorder_pct;

struct node {
	struct fcr_tables *t;
	struct fcr_sync *s;
	struct fcr_sync_addr addr;
	int id;
};
static struct node nodes[NODES];
static uint64_t now;
static uint8_t key[FCR_SYNC_KEY_LEN] = "fcredirect test key 32 bytes...";
static struct pkt last_sent; /* for replay tests */
static int64_t wall_shift_ms;  /* a node started with its clock this far off */
static int store_mode;         /* nodes started with config_elsewhere */

/* A peer of node n that is not one of the nodes: datagrams it sends are
 * sealed with the shared key, so they reach the record decoder; it echoes
 * the challenge the node sends it, as a running peer does. */
static const struct fcr_sync_addr lone_peer = { 0x7F000001, 50 };
static uint64_t lone_challenge;

/* The wall clock, ms since 2024-01-01 UTC, as the engine counts it. */
static uint64_t
wall_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)(ts.tv_sec - 1704067200) * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static uint32_t
rnd(uint32_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng % n);
}

static void
net_send(void *ctx, const struct fcr_sync_addr *to, const uint8_t *p, size_t len)
{
	struct node *from = ctx;
	struct pkt *k;
	int copies = 1;

	assert_true(len <= sizeof(q[0].data));
	if (to->port == lone_peer.port) {
		struct fcr_sync_hdr h;
		enum fcr_sync_drop why;

		assert_int_equal(fcr_sync_open(p, len, 1500, key, &h, &why), 0);
		lone_challenge = h.challenge;
		return;
	}
	last_sent.to = (int)to->port - 1;
	last_sent.from = from->id;
	last_sent.len = (uint16_t)len;
	memcpy(last_sent.data, p, len);
	if (rnd(100) < (uint32_t)loss_pct)
		return;
	if (rnd(100) < (uint32_t)dup_pct)
		copies = 2;
	while (copies-- && nq < MAXQ) {
		k = &q[nq++];
		*k = last_sent;
		/* reorder: swap with a random earlier datagram */
		if (nq > 1 && rnd(100) < (uint32_t)reorder_pct) {
			struct pkt tmp = q[nq - 1];
			unsigned int j = rnd(nq - 1);

			q[nq - 1] = q[j];
			q[j] = tmp;
		}
	}
}

static void
deliver(struct node *n, const struct pkt *k)
{
	fcr_sync_input(n->s, &nodes[k->from].addr, k->data, k->len, now, now);
}

/* Run the network and clocks for ms milliseconds. */
static void
run(int ms, int nb_nodes)
{
	static struct pkt batch[4096];
	int i, t;

	for (t = 0; t < ms; t++) {
		unsigned int n = nq < 4096 ? nq : 4096, j;

		memcpy(batch, q, n * sizeof(q[0]));
		memmove(q, q + n, (nq - n) * sizeof(q[0]));
		nq -= n;
		for (j = 0; j < n; j++)
			if (batch[j].to < nb_nodes && nodes[batch[j].to].s != NULL)
				deliver(&nodes[batch[j].to], &batch[j]);
		now++;
		for (i = 0; i < nb_nodes; i++)
			if (nodes[i].s != NULL)
				fcr_sync_tick(nodes[i].s, now, now);
	}
}

static void
node_start(int i, int nb_nodes)
{
	struct fcr_tables_params tp = {
		.max_flows = 4096 + FCR_REDIRECT_KEYS * (256 + 1), .max_routes = 64, .max_bindings = 1024,
		.max_redirects = 256, .nb_workers = 1, .socket = 0,
	};
	struct fcr_sync_params sp = {
		.mtu = 1400, .window_ms = 50, .tsc_hz = 1000, .send = net_send,
		.send_ctx = &nodes[i], .node = (uint16_t)(i + 1),
	};
	static int seq;
	char name[32];
	int j;

	snprintf(name, sizeof(name), "n%d_%d", i, seq++);
	memcpy(sp.key, key, sizeof(key));
	nodes[i].id = i;
	nodes[i].addr.ip = 0x7F000001;
	nodes[i].addr.port = (uint16_t)(i + 1);
	nodes[i].t = fcr_tables_create(name, &tp);
	assert_non_null(nodes[i].t);
	assert_int_equal(fcr_tables_attach_log(nodes[i].t, 0), 0);
	sp.config_elsewhere = store_mode;
	if (wall_shift_ms != 0)
		sp.wall_ms = (uint64_t)((int64_t)wall_now() + wall_shift_ms);
	nodes[i].s = fcr_sync_create(&sp, nodes[i].t, now);
	assert_non_null(nodes[i].s);
	for (j = 0; j < nb_nodes; j++)
		if (j != i)
			assert_true(fcr_sync_peer_add(nodes[i].s, &(struct fcr_sync_addr){
				0x7F000001, (uint16_t)(j + 1) }) >= 0);
}

static void
node_stop(int i)
{
	fcr_sync_free(nodes[i].s);
	fcr_tables_free(nodes[i].t);
	nodes[i].s = NULL;
	nodes[i].t = NULL;
}

static int
setup_nodes(void **state, int n)
{
	int i;

	(void)state;
	nq = 0;
	loss_pct = dup_pct = reorder_pct = 0;
	lone_challenge = 0;
	wall_shift_ms = 0;
	for (i = 0; i < n; i++)
		node_start(i, n);
	return 0;
}

static int setup2(void **state) { store_mode = 0; return setup_nodes(state, 2); }
static int setup2_store(void **state) { store_mode = 1; return setup_nodes(state, 2); }
static int setup3(void **state) { store_mode = 0; return setup_nodes(state, 3); }

static int
teardown(void **state)
{
	int i;

	(void)state;
	for (i = 0; i < NODES; i++)
		if (nodes[i].s != NULL)
			node_stop(i);
	return 0;
}

#define H(i) (0x2100000000000000ull | (i))
#define T(i) (0x5000000000000000ull | (i))
#define VI(i) (0x2f01000000000000ull | (i))
#define VT(i) (0x2f02000000000000ull | (i))

static void
config(struct fcr_tables *t, uint32_t i)
{
	assert_int_equal(fcr_tables_binding_add(t, 10, H(i), 0x010000 | i, FCR_BIND_STATIC), 0);
	assert_int_equal(fcr_tables_binding_add(t, 10, T(i), 0x410000 | i, FCR_BIND_STATIC), 0);
	assert_int_equal(fcr_tables_binding_add(t, 10, VI(i), 0x810000 | i, FCR_BIND_LEARNED), 0);
	assert_int_equal(fcr_tables_binding_add(t, 10, VT(i), 0x820000 | i, FCR_BIND_STATIC), 0);
	assert_true(fcr_redirect_add(t->redirects, 10, H(i), T(i), VI(i), VT(i)) >= 0);
}

/* Same routes, bindings (with origin) and redirects (and their state). */
static void
assert_same_config(struct fcr_tables *a, struct fcr_tables *b)
{
	uint32_t i;

	assert_int_equal(a->routes->nb_routes, b->routes->nb_routes);
	for (i = 0; i < a->routes->nb_routes; i++) {
		const struct fcr_route *r = &a->routes->routes[i];
		int j = fcr_route_find(b->routes, r->vlan, r->prefix, r->bits);

		assert_true(j >= 0);
		assert_int_equal(a->routes->nexthop[r->nh].port,
				 b->routes->nexthop[b->routes->routes[j].nh].port);
	}
	assert_int_equal(a->bindings->nb_bound, b->bindings->nb_bound);
	for (i = 0; i < a->bindings->capacity; i++) {
		const struct fcr_binding *n = &a->bindings->entry[i];
		uint32_t m;

		if (!n->in_use || n->fcid == FCR_FCID_NONE)
			continue;
		m = fcr_binding_get(b->bindings, n->vlan, n->wwpn, 0);
		assert_int_not_equal(m, FCR_BINDING_NONE);
		assert_int_equal(b->bindings->entry[m].fcid, n->fcid);
		assert_int_equal(b->bindings->entry[m].origin, n->origin);
	}
	assert_int_equal(a->redirects->count, b->redirects->count);
	assert_int_equal(a->redirects->nb_active, b->redirects->nb_active);
}

static void
config_added_on_one_node_appears_on_the_other_within_two_windows(void **state)
{
	struct fcr_tables *a, *b;
	uint8_t mac[6] = { 2, 0, 0, 0, 0, 7 };
	uint32_t i;

	(void)state;
	run(20, 2); /* hello, bulk of nothing */
	a = nodes[0].t;
	b = nodes[1].t;
	assert_int_equal(fcr_route_add(a->routes, FCR_VLAN_ANY, 0x010000, 8, 0, NULL), 0);
	assert_int_equal(fcr_route_add(a->routes, FCR_VLAN_ANY, 0x810000, 8, 2, mac), 0);
	for (i = 0; i < 50; i++)
		config(a, i);
	run(100, 2);
	assert_same_config(a, b);
	assert_int_equal(b->redirects->nb_active, 50);
	/* rules derived on B from the replicated config */
	assert_true(fcr_flow_find(b->flows, fcr_flow_key(10, 0x010003, 0x410003)) >= 0);
	assert_true(fcr_sync_ready(nodes[0].s));
	assert_true(fcr_sync_ready(nodes[1].s));
	/* deletions travel too */
	assert_int_equal(fcr_redirect_del(a->redirects, 10, H(3), T(3)), 0);
	assert_int_equal(fcr_tables_binding_del(a, 10, VT(4)), 0);
	assert_int_equal(fcr_route_del(a->routes, FCR_VLAN_ANY, 0x810000, 8), 0);
	run(100, 2);
	assert_same_config(a, b);
	assert_int_equal(fcr_redirect_find(b->redirects, 10, H(3), T(3)), -ENOENT);
	/* and B's changes reach A */
	config(b, 77);
	run(100, 2);
	assert_same_config(b, a);
}

/* A service-node cluster replicates: its members, and each redirect of it
 * with the member it is on (the peer keeps that member, not a placement
 * of its own); a move on one node moves the pair on the other. */
static void
a_cluster_and_where_its_pairs_are_replicate(void **state)
{
	struct fcr_tables *a, *b;
	uint64_t sme = 0;
	uint32_t i;
	int id, ib;

	(void)state;
	assert_int_equal(fcr_cluster_parse("sme", &sme), 0);
	run(20, 2);
	a = nodes[0].t;
	b = nodes[1].t;
	for (i = 0; i < 4; i++) {
		struct fcr_tables *t[2] = { a, b };
		int n;

		/* every port bound on both (as learned logins would be) */
		for (n = 0; n < 2; n++) {
			assert_int_equal(fcr_tables_binding_add(t[n], 10, VI(i), 0x810000 | i,
								FCR_BIND_STATIC), 0);
			assert_int_equal(fcr_tables_binding_add(t[n], 10, VT(i), 0x820000 | i,
								FCR_BIND_STATIC), 0);
		}
		assert_true(fcr_sn_add(a->redirects, 10, sme, VI(i), VT(i)) >= 0);
		fcr_change_mark(a->log, FCR_KIND_SN, &a->redirects->sns->sn[i].sflags, i);
	}
	for (i = 0; i < 2; i++) {
		assert_int_equal(fcr_tables_binding_add(a, 10, H(i), 0x010000 | i, FCR_BIND_STATIC), 0);
		assert_int_equal(fcr_tables_binding_add(a, 10, T(i), 0x410000 | i, FCR_BIND_STATIC), 0);
		assert_int_equal(fcr_tables_binding_add(b, 10, H(i), 0x010000 | i, FCR_BIND_STATIC), 0);
		assert_int_equal(fcr_tables_binding_add(b, 10, T(i), 0x410000 | i, FCR_BIND_STATIC), 0);
	}
	id = fcr_redirect_add_cluster(a->redirects, 10, H(0), T(0), sme, 1, 0);
	assert_true(id >= 0);
	fcr_change_mark(a->log, FCR_KIND_REDIRECT, &a->redirects->r[id].sflags, (uint32_t)id);
	run(100, 2);
	assert_int_equal(b->redirects->sns->count, 4);
	ib = fcr_redirect_find(b->redirects, 10, H(0), T(0));
	assert_true(ib >= 0);
	assert_true(b->redirects->r[ib].cluster == sme && b->redirects->r[ib].restartable);
	assert_int_equal(b->redirects->r[ib].state, FCR_RS_ACTIVE);
	assert_int_equal(b->redirects->r[ib].binding[FCR_M_VI] == FCR_BINDING_NONE, 0);
	assert_true(b->bindings->entry[b->redirects->r[ib].binding[FCR_M_VI]].wwpn ==
		    a->bindings->entry[a->redirects->r[id].binding[FCR_M_VI]].wwpn);
	assert_int_equal(b->redirects->sns->sn[b->redirects->r[ib].sn - 1].pairs, 1);
	/* its member's VT gone on A, the failover time passed: it moves, and
	 * B hears where to */
	{
		uint64_t vt = a->bindings->entry[a->redirects->r[id].binding[FCR_M_VT]].wwpn;

		assert_int_equal(fcr_tables_binding_del(a, 10, vt), 0);
		fcr_tables_sn(a, 1000, 0);
		fcr_tables_sn(a, 1001, 0);
		assert_int_equal(a->st.sn_moves, 1);
		assert_true(a->bindings->entry[a->redirects->r[id].binding[FCR_M_VT]].wwpn != vt);
	}
	run(100, 2);
	assert_true(b->bindings->entry[b->redirects->r[ib].binding[FCR_M_VI]].wwpn ==
		    a->bindings->entry[a->redirects->r[id].binding[FCR_M_VI]].wwpn);
	assert_int_equal(b->redirects->r[ib].state, FCR_RS_ACTIVE);
}

/* With a configuration store, replication carries what the dataplane
 * learns and nothing operators configure (every node has that from the
 * store); a peer's configuration record is not taken. */
static void
with_a_store_only_learned_state_is_replicated(void **state)
{
	struct fcr_tables *a, *b;
	struct fcr_rec r;
	uint32_t n;

	(void)state;
	run(20, 2);
	a = nodes[0].t;
	b = nodes[1].t;
	assert_int_equal(fcr_route_add(a->routes, FCR_VLAN_ANY, 0x010000, 8, 0, NULL), 0);
	config(a, 1); /* static H, T, VT; learned VI; the redirect */
	run(100, 2);
	assert_int_equal(b->routes->nb_routes, 0);
	assert_int_equal(b->redirects->count, 0);
	assert_int_equal(b->bindings->nb_bound, 1);
	n = fcr_binding_get(b->bindings, 10, VI(1), 0);
	assert_int_not_equal(n, FCR_BINDING_NONE);
	assert_int_equal(b->bindings->entry[n].origin, FCR_BIND_LEARNED);
	/* a route record from a peer that is not in store mode: not taken */
	r = fcr_route_rec(FCR_VLAN_ANY, 0x020000, 8, 1, NULL, 1ull << 40);
	assert_int_equal(fcr_rec_is_config(&r), 1);
	assert_int_equal(fcr_rec_is_config(&(struct fcr_rec){ .type = FCR_REC_BINDING_DEL }), 0);
}

static void
many_changes_to_one_flow_in_a_window_cost_one_record(void **state)
{
	struct fcr_tables *a = nodes[0].t, *b = nodes[1].t;
	const struct fcr_sync_stats *st = fcr_sync_stats(nodes[0].s);
	uint64_t k = fcr_flow_key(10, 0x010001, 0x410001), before;
	int idx, i;

	(void)state;
	run(20, 2);
	before = st->records_sent;
	idx = fcr_flow_set(a->flows, k, fcr_action(0x010001, 0x410001, FCR_LEG_PLAIN),
			   FCR_NO_OWNER);
	assert_true(idx >= 0);
	for (i = 0; i < 1000; i++) {
		fcr_flow_count(&a->flows->counters[0][idx], 100, now);
		/* what the rescan does on activity changes */
		fcr_change_mark(a->log, FCR_KIND_FLOW, &a->flows->sflags[idx], (uint32_t)idx);
	}
	assert_int_equal(a->log->coalesced, 1000);
	run(60, 2);
	assert_int_equal(st->records_sent - before, 1);
	idx = fcr_flow_find(b->flows, k);
	assert_true(idx >= 0);
	assert_int_equal(b->flows->remote[idx].frames, 1000);
	assert_int_equal(b->flows->remote[idx].bytes, 100000);
	/* created and deleted inside one window: nothing goes out */
	before = st->records_sent;
	k = fcr_flow_key(10, 0x010009, 0x410009);
	assert_true(fcr_flow_set(a->flows, k, 0, FCR_NO_OWNER) >= 0);
	assert_int_equal(fcr_flow_del(a->flows, k), 0);
	run(60, 2);
	assert_int_equal(st->records_sent, before);
	assert_int_equal(a->log->cancelled, 1);
}

/* B holds flow key k with these counters. */
static void
assert_b_counters(struct fcr_tables *b, uint64_t k, uint64_t frames, uint64_t bytes)
{
	int i = fcr_flow_find(b->flows, k);

	assert_true(i >= 0);
	assert_int_equal(b->flows->remote[i].frames, frames);
	assert_int_equal(b->flows->remote[i].bytes, bytes);
}

#define NB_BIG 4000 /* flow records: more than 64 datagrams' worth */

static void
changes_during_an_unfinished_flush_wait_for_the_next_window(void **state)
{
	struct fcr_tables *a = nodes[0].t, *b = nodes[1].t;
	const struct fcr_sync_stats *st = fcr_sync_stats(nodes[0].s);
	static int idx[NB_BIG];
	uint64_t before, first;
	uint32_t i;

	(void)state;
	run(20, 2);
	for (i = 0; i < NB_BIG; i++) {
		idx[i] = fcr_flow_set(a->flows, fcr_flow_key(30, 0x300000 | i, 0x600000),
				      0, FCR_NO_OWNER);
		assert_true(idx[i] >= 0);
	}
	run(200, 2);
	assert_int_equal(b->flows->count, NB_BIG);
	assert_int_equal(fcr_sync_stats(nodes[0].s)->retransmits, 0);
	/* every flow changes, and the window ends at the next tick */
	for (i = 0; i < NB_BIG; i++) {
		fcr_flow_count(&a->flows->counters[0][idx[i]], 100, now);
		fcr_change_mark(a->log, FCR_KIND_FLOW, &a->flows->sflags[idx[i]],
				(uint32_t)idx[i]);
	}
	fcr_sync_set_window(nodes[0].s, 50);
	before = st->records_sent;
	run(1, 2);
	/* the peer's window (64 datagrams) stopped the flush part way */
	first = st->records_sent - before;
	assert_true(first > 0 && first < NB_BIG);
	/* every flow changes again while the flush is paced out */
	for (i = 0; i < NB_BIG; i++) {
		fcr_flow_count(&a->flows->counters[0][idx[i]], 100, now);
		fcr_change_mark(a->log, FCR_KIND_FLOW, &a->flows->sflags[idx[i]],
				(uint32_t)idx[i]);
	}
	run(30, 2);
	/* that window's flush sent each flow once, the later state of those
	 * it had not reached yet; the flows it had sent wait */
	assert_int_equal(st->records_sent - before, NB_BIG);
	assert_int_equal(fcr_sync_pending(nodes[0].s), first);
	/* and go at the next window's end: B ends with the last state */
	run(60, 2);
	assert_int_equal(st->records_sent - before, NB_BIG + first);
	for (i = 0; i < NB_BIG; i++)
		assert_b_counters(b, fcr_flow_key(30, 0x300000 | i, 0x600000), 2, 200);
	assert_int_equal(fcr_sync_stats(nodes[0].s)->retransmits, 0);
}

static void
the_refresh_sends_the_counters_of_flows_that_forwarded_since_only(void **state)
{
	struct fcr_tables *a = nodes[0].t, *b = nodes[1].t;
	const struct fcr_sync_stats *st = fcr_sync_stats(nodes[0].s);
	uint64_t before;
	uint32_t i;
	int idx[100];

	(void)state;
	run(20, 2);
	for (i = 0; i < 100; i++) {
		idx[i] = fcr_flow_set(a->flows, fcr_flow_key(40, 0x300000 | i, 0x600000),
				      0, FCR_NO_OWNER);
		assert_true(idx[i] >= 0);
		fcr_flow_count(&a->flows->counters[0][idx[i]], 100, now);
	}
	run(100, 2);
	for (i = 0; i < 100; i++)
		assert_b_counters(b, fcr_flow_key(40, 0x300000 | i, 0x600000), 1, 100);
	/* the passes of the refresh that saw those frames */
	run(10000, 2);
	/* active (within the idle timeout) but no frame since: two refresh
	 * periods send nothing */
	before = st->records_sent;
	run(10000, 2);
	assert_int_equal(st->records_sent - before, 0);
	/* a frame on one flow: its counters reach B within a refresh period
	 * and a window, and only that flow is sent (once, or twice when the
	 * frame came just before a pass started) */
	fcr_flow_count(&a->flows->counters[0][idx[7]], 50, now);
	run(5000 + 50 + 2, 2);
	assert_b_counters(b, fcr_flow_key(40, 0x300007, 0x600000), 2, 150);
	assert_true(st->records_sent - before >= 1 && st->records_sent - before <= 2);
	/* going idle is still a change B hears of */
	run(30000, 2);
	for (i = 0; i < 100; i++) {
		int j = fcr_flow_find(b->flows, fcr_flow_key(40, 0x300000 | i, 0x600000));

		assert_true(j >= 0);
		assert_true(b->flows->sflags[j] & FCR_SF_IDLE);
	}
	assert_b_counters(b, fcr_flow_key(40, 0x300007, 0x600000), 2, 150);
}

/* Flow expiry with a peer (--flow-idle 10): the standby, which forwards
 * nothing itself, keeps a flow as long as the primary reports its frames;
 * once the flow stops, both nodes drop it. */
static void
a_standby_keeps_the_flows_its_peer_forwards_and_both_expire_idle_ones(void **state)
{
	struct fcr_tables *a = nodes[0].t, *b = nodes[1].t;
	uint64_t k = fcr_flow_key(60, 0x300001, 0x600001);
	uint32_t per_s = a->flows->capacity / 10 + 1; /* a turn every 10 s */
	int idx, sec;

	(void)state;
	run(20, 2);
	idx = fcr_flow_set(a->flows, k, 0, FCR_NO_OWNER);
	assert_true(idx >= 0);
	for (sec = 0; sec < 60; sec++) {
		fcr_flow_count(&a->flows->counters[0][idx], 100, now);
		run(1000, 2);
		fcr_tables_expire(a, per_s, UINT32_MAX);
		fcr_tables_expire(b, per_s, UINT32_MAX);
		assert_true(fcr_flow_find(a->flows, k) >= 0);
		assert_true(fcr_flow_find(b->flows, k) >= 0);
	}
	assert_int_equal(a->st.flows_expired + b->st.flows_expired, 0);
	/* the flow stops: gone on both within two turns and a refresh */
	for (sec = 0; sec < 30; sec++) {
		run(1000, 2);
		fcr_tables_expire(a, per_s, UINT32_MAX);
		fcr_tables_expire(b, per_s, UINT32_MAX);
	}
	run(200, 2);
	assert_int_equal(fcr_flow_find(a->flows, k), -ENOENT);
	assert_int_equal(fcr_flow_find(b->flows, k), -ENOENT);
	assert_true(a->st.flows_expired + b->st.flows_expired >= 1);
}

/* A flow deleted and created again while a window's batch is still being
 * paced out: the deletion must not reach the peer after the new flow. */
static void
a_deletion_then_recreation_during_a_paced_batch_leaves_the_flow_at_the_peer(void **state)
{
	struct fcr_tables *a = nodes[0].t, *b = nodes[1].t;
	uint64_t kf = fcr_flow_key(70, 0x0A0001, 0x0B0001);
	int fidx, i;

	(void)state;
	run(20, 2);
	fidx = fcr_flow_set(a->flows, kf, 0, FCR_NO_OWNER);
	assert_true(fidx >= 0);
	run(200, 2);
	assert_true(fcr_flow_find(b->flows, kf) >= 0);
	for (i = 0; i < NB_BIG; i++)
		assert_true(fcr_flow_set(a->flows, fcr_flow_key(71, 0x300000 | i, 0x600000),
					 0, FCR_NO_OWNER) >= 0);
	/* F changes too, last in the list */
	fcr_change_mark(a->log, FCR_KIND_FLOW, &a->flows->sflags[fidx], (uint32_t)fidx);
	fcr_sync_set_window(nodes[0].s, 50);
	run(1, 2);
	/* the batch stopped before F */
	assert_true(a->flows->sflags[fidx] & FCR_SF_DIRTY);
	/* F goes and comes back (a new flow with the same key) */
	assert_int_equal(fcr_flow_del(a->flows, kf), 0);
	assert_true(fcr_flow_set(a->flows, kf, 0, FCR_NO_OWNER) >= 0);
	run(3000, 2);
	assert_true(fcr_flow_find(a->flows, kf) >= 0);
	assert_true(fcr_flow_find(b->flows, kf) >= 0);
}

/* A flow forwarding a frame every 8 s is never idle at its node (idle
 * time 10 s), though its peer hears of it only at the 5 s refresh and
 * (here) scans faster: what a node expires it expires for itself, so the
 * forwarding node keeps it. */
static void
a_sparse_flow_is_never_deleted_where_it_forwards(void **state)
{
	struct fcr_tables *a = nodes[0].t;
	uint64_t k = fcr_flow_key(60, 0x300001, 0x600001);
	uint32_t per_s = a->flows->capacity / 10; /* a turn in 10 s */
	uint32_t eager = a->flows->capacity / 6;  /* the peer's: in 6 s */
	int idx, sec, lost = 0;

	(void)state;
	run(20, 2);
	idx = fcr_flow_set(a->flows, k, 0, FCR_NO_OWNER);
	assert_true(idx >= 0);
	for (sec = 0; sec < 120; sec++) {
		idx = fcr_flow_find(a->flows, k);
		if (idx < 0) {
			lost++;
			idx = fcr_flow_set(a->flows, k, 0, FCR_NO_OWNER);
		}
		if (sec % 8 == 0)
			fcr_flow_count(&a->flows->counters[0][idx], 100, now);
		run(1000, 2);
		fcr_tables_expire(a, per_s, UINT32_MAX);
		fcr_tables_expire(nodes[1].t, eager, UINT32_MAX);
	}
	assert_int_equal(lost, 0);
	assert_int_equal(a->st.flows_expired, 0);
}

static void
a_resync_carries_the_changes_to_flows_it_has_not_reached(void **state)
{
	struct fcr_tables *a = nodes[0].t;
	const struct fcr_sync_stats *st = fcr_sync_stats(nodes[0].s);
	struct fcr_sync_peer_info pi;
	static int idx[NB_BIG];
	uint64_t before;
	uint32_t i;
	int ms;

	(void)state;
	run(20, 2);
	for (i = 0; i < NB_BIG; i++) {
		idx[i] = fcr_flow_set(a->flows, fcr_flow_key(50, 0x300000 | i, 0x600000),
				      0, FCR_NO_OWNER);
		assert_true(idx[i] >= 0);
	}
	run(200, 2);
	/* B restarts; A's resync to it starts */
	node_stop(1);
	run(10, 2);
	before = st->records_sent;
	node_start(1, 2);
	for (ms = 0; ms < 100; ms++) {
		run(1, 2);
		fcr_sync_peer_info(nodes[0].s, 0, &pi);
		if (pi.bulk_to)
			break;
	}
	assert_true(pi.bulk_to);
	/* flows far past where its first datagrams got to change, and the
	 * window ends at A's next tick */
	for (i = 0; i < NB_BIG; i++) {
		if ((uint32_t)idx[i] < 3 * NB_BIG / 4)
			continue;
		fcr_flow_count(&a->flows->counters[0][idx[i]], 100, now);
		fcr_change_mark(a->log, FCR_KIND_FLOW, &a->flows->sflags[idx[i]],
				(uint32_t)idx[i]);
	}
	fcr_sync_set_window(nodes[0].s, 50);
	for (ms = 0; ms < 40; ms++) {
		run(1, 2);
		fcr_sync_peer_info(nodes[0].s, 0, &pi);
		if (!pi.bulk_to && fcr_sync_ready(nodes[1].s))
			break;
	}
	assert_true(fcr_sync_ready(nodes[1].s));
	/* the resync carried them with their new counters, once */
	assert_int_equal(st->records_sent - before, NB_BIG);
	assert_int_equal(nodes[1].t->flows->count, NB_BIG);
	for (i = 0; i < NB_BIG; i++)
		assert_b_counters(nodes[1].t, fcr_flow_key(50, 0x300000 | i, 0x600000),
				  (uint32_t)idx[i] < 3 * NB_BIG / 4 ? 0 : 1,
				  (uint32_t)idx[i] < 3 * NB_BIG / 4 ? 0 : 100);
	assert_int_equal(st->retransmits, 0);
}

static void
state_converges_over_a_lossy_network(void **state)
{
	struct fcr_tables *a = nodes[0].t, *b = nodes[1].t;
	uint32_t i;

	(void)state;
	loss_pct = 20;
	dup_pct = 20;
	reorder_pct = 20;
	run(50, 2);
	for (i = 0; i < 200; i++) {
		config(a, i);
		if (i % 20 == 0)
			run(7, 2);
	}
	for (i = 0; i < 50; i++)
		assert_int_equal(fcr_redirect_del(a->redirects, 10, H(i), T(i)), 0);
	run(3000, 2);
	assert_same_config(a, b);
	assert_int_equal(b->redirects->count, 150);
	assert_true(fcr_sync_stats(nodes[0].s)->retransmits > 0);
	assert_true(fcr_sync_stats(nodes[1].s)->drop[FCR_SD_REPLAY] > 0); /* duplicates */
}

static void
a_restarted_node_gets_everything_back_by_bulk_resync(void **state)
{
	struct fcr_tables *a = nodes[0].t;
	uint32_t i;

	(void)state;
	run(20, 2);
	for (i = 0; i < 250; i++)
		config(a, i);
	for (i = 0; i < 2000; i++)
		assert_true(fcr_flow_set(a->flows, fcr_flow_key(20, i, i + 1), 0,
					 FCR_NO_OWNER) >= 0);
	run(100, 2);
	node_stop(1);
	run(10, 2);
	node_start(1, 2);
	assert_false(fcr_sync_ready(nodes[1].s));
	run(2000, 2);
	assert_true(fcr_sync_ready(nodes[1].s));
	assert_same_config(a, nodes[1].t);
	assert_true(fcr_flow_find(nodes[1].t->flows, fcr_flow_key(20, 1999, 2000)) >= 0);
	assert_true(fcr_sync_stats(nodes[0].s)->peer_restarts >= 1);
	assert_true(fcr_sync_stats(nodes[0].s)->bulk_sent >= 2);
}

static void
three_nodes_in_a_full_mesh_converge(void **state)
{
	uint32_t i;

	(void)state;
	run(50, 3);
	for (i = 0; i < 30; i++)
		config(nodes[i % 3].t, i);
	run(200, 3);
	assert_same_config(nodes[0].t, nodes[1].t);
	assert_same_config(nodes[0].t, nodes[2].t);
	assert_int_equal(nodes[2].t->redirects->nb_active, 30);
}

static void
stale_updates_are_rejected(void **state)
{
	struct fcr_tables *a = nodes[0].t, *b = nodes[1].t;
	uint32_t n;

	(void)state;
	run(20, 2);
	config(a, 1);
	run(100, 2);
	/* B changes the binding later: its version is higher */
	assert_int_equal(fcr_tables_binding_add(b, 10, H(1), 0x010055, FCR_BIND_LEARNED), 0);
	run(100, 2);
	n = fcr_binding_get(a->bindings, 10, H(1), 0);
	assert_int_equal(a->bindings->entry[n].fcid, 0x010055);
	/* replaying A's old datagram from before is refused */
	fcr_sync_input(nodes[1].s, &nodes[0].addr, last_sent.data, last_sent.len, now, now);
	assert_true(fcr_sync_stats(nodes[1].s)->drop[FCR_SD_REPLAY] +
		    fcr_sync_stats(nodes[0].s)->drop[FCR_SD_REPLAY] > 0);
	n = fcr_binding_get(b->bindings, 10, H(1), 0);
	assert_int_equal(b->bindings->entry[n].fcid, 0x010055);
}

/* An HA pair is cabled alike (--sync-same-ports): a binding the active node
 * learned keeps its port, its MACs, its FCF (by MAC, in the standby's own
 * registry slot) and its node name at the standby, whose ENode is known to
 * have logged in but is not watched (no keep-alive reaches a standby). A
 * node not cabled so, a port that is a fabric port here, and a binding
 * learned at a peer carry no port: from the FPMA MAC on any port. */
static void
a_twin_peer_keeps_the_port_and_macs_a_login_came_from(void **state)
{
	struct fcr_tables *a, *b, *c;
	const uint8_t vmac[6] = { 0x0e, 0xfc, 0x00, 0x01, 0x00, 0x01 };
	const uint8_t emac[6] = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x56 };
	const uint8_t fmac[6] = { 0x0e, 0xfc, 0x00, 0xff, 0xff, 0x0b };
	uint64_t enode = fcr_enode_key(10, emac), vn = fcr_vn_pack(vmac, 2);
	const struct fcr_enode *e;
	uint32_t n;

	(void)state;
	a = nodes[0].t;
	b = nodes[1].t;
	c = nodes[2].t;
	a->fabric_mask = b->fabric_mask = c->fabric_mask = 1;
	b->peers_same_ports = 1;
	/* the FCF that accepted H(1): in both registries, in another slot at b */
	assert_int_equal(fcr_tables_fcf_register(a, 10, fcr_vn_pack(fmac, 0), 0x2001), 0);
	assert_int_equal(fcr_tables_fcf_register(b, 10, fcr_vn_pack(emac, 0), 0x2002), 0);
	assert_int_equal(fcr_tables_fcf_register(b, 10, fcr_vn_pack(fmac, 0), 0x2001), 1);
	run(50, 3);
	assert_int_equal(fcr_tables_binding_restore(a, 10, H(1), 0x010001,
						    vn | 1ull << FCR_VN_FCF_SHIFT, enode, now, 1), 0);
	fcr_tables_binding_node(a, 10, H(1), 0x1000000000000abcull, 1);
	/* logged in through port 0: a fabric port on the twin too */
	assert_int_equal(fcr_tables_binding_restore(a, 10, H(2), 0x010002,
						     fcr_vn_pack(vmac, 0), enode, now, 1), 0);
	/* learned at a peer of a: no port to carry */
	assert_int_equal(fcr_tables_binding_add(a, 10, H(3), 0x010003, FCR_BIND_LEARNED), 0);
	/* accepted by an FCF that never advertised to b (its links down) */
	assert_int_equal(fcr_tables_fcf_register(a, 10, fcr_vn_pack(vmac, 0) ^ 0x77, 0x2003), 1);
	assert_int_equal(fcr_tables_binding_restore(a, 10, H(4), 0x010004,
						    vn | 2ull << FCR_VN_FCF_SHIFT, enode ^ 0x99, now,
						    1), 0);
	run(200, 3);

	n = fcr_binding_get(b->bindings, 10, H(1), 0);
	assert_int_not_equal(n, FCR_BINDING_NONE);
	assert_int_equal(b->bindings->entry[n].origin, FCR_BIND_LEARNED);
	assert_true(b->bindings->entry[n].vn == (vn | 2ull << FCR_VN_FCF_SHIFT));
	assert_true(b->bindings->entry[n].wwnn == 0x1000000000000abcull);
	assert_true(b->bindings->entry[n].enode == enode);
	e = fcr_enode_find(b->enodes, enode);
	assert_non_null(e);
	assert_true(e->fcf == fcr_vn_pack(fmac, 0));
	assert_int_equal(e->logged_in, 1);
	assert_int_equal(e->watched, 0);
	for (n = 2; n <= 3; n++) {
		uint32_t m = fcr_binding_get(b->bindings, 10, H(n), 0);

		assert_int_not_equal(m, FCR_BINDING_NONE);
		assert_int_equal((b->bindings->entry[m].vn >> 48) & 0xFF, FCR_VN_ANY_PORT);
	}
	/* b gives that FCF a slot of its own, by MAC: H(4)'s frames meet
	 * it there; its name is the FCF's to say, so none is spoken in it
	 * until it advertises here */
	{
		uint64_t fcf2 = fcr_vn_pack(vmac, 0) ^ 0x77, name;
		uint32_t m = fcr_binding_get(b->bindings, 10, H(4), 0);

		assert_int_not_equal(m, FCR_BINDING_NONE);
		assert_true(fcr_tables_vn_fcf(b, b->bindings->entry[m].vn) == fcf2);
		assert_int_equal(fcr_tables_fcf_name(b, 10, fcf2, &name), -ENOENT);
		assert_int_equal(fcr_tables_fcf_register(b, 10, fcf2, 0x2003), 2);
		assert_int_equal(fcr_tables_fcf_name(b, 10, fcf2, &name), 0);
		assert_true(name == 0x2003);
		/* a peer's word again does not unname it */
		assert_int_equal(fcr_tables_fcf_register(b, 10, fcf2, 0), 2);
		assert_int_equal(fcr_tables_fcf_name(b, 10, fcf2, &name), 0);
	}
	/* not cabled alike: as before */
	n = fcr_binding_get(c->bindings, 10, H(1), 0);
	assert_int_not_equal(n, FCR_BINDING_NONE);
	assert_int_equal((c->bindings->entry[n].vn >> 48) & 0xFF, FCR_VN_ANY_PORT);
	assert_null(fcr_enode_find(c->enodes, enode));
	/* and what the twin holds it sends on with its port: back at a, the
	 * same; the logout at a unbinds it at b */
	assert_int_equal(fcr_tables_binding_del(a, 10, H(1)), 0);
	run(200, 3);
	assert_int_equal(fcr_binding_get(b->bindings, 10, H(1), 0) == FCR_BINDING_NONE ||
			 b->bindings->entry[fcr_binding_get(b->bindings, 10, H(1), 0)].fcid ==
			 FCR_FCID_NONE, 1);
}

/* A node of an HA pair restarted with its state file while the other
 * forwarded: the active node's state wins over the restored one (a stale
 * FCID is not sent back, a binding the active node no longer has is not
 * brought back to it), and the restarted standby, hearing no keep-alive,
 * times out none of the restored ENodes (their unbinding would reach the
 * active node and cut its stations off). */
static void
a_restarted_standby_neither_times_out_nor_pushes_its_restored_bindings(void **state)
{
	const uint8_t emac[6] = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x57 };
	uint64_t enode = fcr_enode_key(10, emac);
	struct fcr_tables *a, *b;
	uint8_t vmac[6];
	uint32_t n;

	(void)state;
	a = nodes[0].t;
	a->fabric_mask = 1;
	a->fka_ms = 8000;
	run(50, 2);
	fcr_fpma(vmac, 0x0efc00, 0x010001);
	/* learned at A through its port 2 */
	assert_int_equal(fcr_tables_binding_restore(a, 10, H(1), 0x010001, fcr_vn_pack(vmac, 2),
						    enode, now, 1), 0);
	a->peers_same_ports = 1;
	run(200, 2);

	/* B restarts with a state file from before: H(1) at an FCID it since
	 * left, H(2) that logged out since */
	node_stop(1);
	node_start(1, 2);
	b = nodes[1].t;
	b->fabric_mask = 1;
	b->fka_ms = 8000;
	b->peers_same_ports = 1;
	fcr_fpma(vmac, 0x0efc00, 0x010009);
	assert_int_equal(fcr_tables_binding_restore(b, 10, H(1), 0x010009, fcr_vn_pack(vmac, 2),
						    enode, now, 1), 0);
	fcr_fpma(vmac, 0x0efc00, 0x010002);
	assert_int_equal(fcr_tables_binding_restore(b, 10, H(2), 0x010002, fcr_vn_pack(vmac, 1),
						    enode, now, 1), 0);
	run(300, 2);
	n = fcr_binding_get(a->bindings, 10, H(1), 0);
	assert_int_not_equal(n, FCR_BINDING_NONE);
	assert_int_equal(a->bindings->entry[n].fcid, 0x010001);
	assert_int_equal(fcr_binding_get(a->bindings, 10, H(2), 0), FCR_BINDING_NONE);
	n = fcr_binding_get(b->bindings, 10, H(1), 0);
	assert_int_not_equal(n, FCR_BINDING_NONE);
	assert_int_equal(b->bindings->entry[n].fcid, 0x010001); /* A's, the newer */
	/* long after: B, hearing nothing, times out nobody */
	assert_int_equal(fcr_tables_keepalive(b, now + 100000, 1), 0);
	run(200, 2);
	n = fcr_binding_get(a->bindings, 10, H(1), 0);
	assert_int_not_equal(n, FCR_BINDING_NONE);
	assert_int_equal(a->bindings->entry[n].fcid, 0x010001);
}

static void
forged_short_foreign_and_wrong_version_datagrams_change_nothing(void **state)
{
	struct fcr_tables *b = nodes[1].t;
	const struct fcr_sync_stats *st;
	struct pkt k;
	uint32_t bound;

	(void)state;
	run(20, 2);
	config(nodes[0].t, 5);
	/* capture one update from A to B before B sees it */
	run(1, 2);
	while (nq == 0 || q[0].to != 1)
		run(1, 2);
	k = q[0];
	nq = 0; /* B never gets the real one now */
	bound = b->bindings->nb_bound;
	st = fcr_sync_stats(nodes[1].s);

	k.data[50] ^= 1; /* forged */
	fcr_sync_input(nodes[1].s, &nodes[0].addr, k.data, k.len, now, now);
	assert_int_equal(st->drop[FCR_SD_AUTH], 1);
	k.data[50] ^= 1;
	fcr_sync_input(nodes[1].s, &nodes[0].addr, k.data, 30, now, now);
	assert_int_equal(st->drop[FCR_SD_SHORT], 1);
	k.data[4] = FCR_SYNC_VERSION - 1; /* the protocol before routes had a VLAN */
	fcr_sync_input(nodes[1].s, &nodes[0].addr, k.data, k.len, now, now);
	assert_int_equal(st->drop[FCR_SD_VERSION], 1);
	k.data[4] = FCR_SYNC_VERSION;
	/* signed with another key */
	{
		uint8_t other[FCR_SYNC_KEY_LEN] = "another key, another cluster...";
		struct pkt f = k;

		fcr_sync_seal(f.data, f.len - FCR_SYNC_TAG_LEN, other);
		fcr_sync_input(nodes[1].s, &nodes[0].addr, f.data, f.len, now, now);
		assert_int_equal(st->drop[FCR_SD_AUTH], 2);
	}
	/* from an address that is not a peer */
	fcr_sync_input(nodes[1].s, &(struct fcr_sync_addr){ 0x7F000001, 99 }, k.data,
		       k.len, now, now);
	assert_int_equal(st->drop[FCR_SD_UNKNOWN_PEER], 1);
	assert_int_equal(b->bindings->nb_bound, bound);
	/* the genuine one is applied once, its replay refused */
	fcr_sync_input(nodes[1].s, &nodes[0].addr, k.data, k.len, now, now);
	assert_true(b->bindings->nb_bound > bound);
	fcr_sync_input(nodes[1].s, &nodes[0].addr, k.data, k.len, now, now);
	assert_int_equal(st->drop[FCR_SD_REPLAY], 1);
}

static void
lone_peer_sends(struct node *n, uint32_t seq, const uint8_t *recs, size_t recs_len)
{
	struct fcr_sync_hdr h = { .type = FCR_SYNC_UPDATE, .boot = 0x777,
				  .node = 77, .seq = seq, .peer_boot = fcr_sync_boot(n->s),
				  .challenge = 0x1234 };
	uint8_t d[1500];
	size_t len;

	while (lone_challenge == 0) /* its first HELLO */
		run(1, 2);
	h.echo = lone_challenge;
	len = fcr_sync_hdr_put(d, &h);

	assert_true(len + recs_len + FCR_SYNC_TAG_LEN <= sizeof(d));
	memcpy(d + len, recs, recs_len);
	len = fcr_sync_seal(d, len + recs_len, key);
	fcr_sync_input(n->s, &lone_peer, d, len, now, now);
}

static size_t
put_recs(uint8_t *p, size_t cap, const struct fcr_rec *r, int nb)
{
	size_t len = 0, w;
	int i;

	for (i = 0; i < nb; i++) {
		w = fcr_rec_put(p + len, cap - len, &r[i]);
		assert_true(w > 2);
		len += w;
	}
	return len;
}

static void
records_of_unknown_types_are_counted_unknown_and_skipped(void **state)
{
	struct fcr_tables *b = nodes[1].t;
	const struct fcr_sync_stats *st = fcr_sync_stats(nodes[1].s);
	struct fcr_rec bind = fcr_binding_rec(10, H(9), 0x010099, 1, 1ull << 40 | 77);
	uint8_t recs[64];
	size_t len = 0;

	(void)state;
	assert_true(fcr_sync_peer_add(nodes[1].s, &lone_peer) >= 0);
	/* type 42 with 3 bytes, the binding, type 200 with none */
	recs[len++] = 42;
	recs[len++] = 3;
	recs[len++] = 1;
	recs[len++] = 2;
	recs[len++] = 3;
	len += put_recs(recs + len, sizeof(recs) - len, &bind, 1);
	recs[len++] = 200;
	recs[len++] = 0;
	lone_peer_sends(&nodes[1], 1, recs, len);
	assert_int_equal(st->records_received, 3);
	assert_int_equal(st->records_unknown, 2);
	assert_int_equal(st->records_applied, 1);
	assert_int_equal(st->records_stale, 0);
	assert_int_equal(b->bindings->entry[fcr_binding_get(b->bindings, 10, H(9), 0)].fcid,
			 0x010099);
}

/*
 * Keys no frame and no command can make are refused, not stored: a flow key
 * of UINT64_MAX (a free slot's mark: the entry would be counted and never
 * listed), a flow key with its top nibble set, VLANs above 4095 (flow keys
 * keep 12 bits, so VLAN 4106 would redirect VLAN 10's flows), prefix
 * lengths out of 1..24.
 */
static void
records_with_keys_no_frame_can_have_are_refused(void **state)
{
	struct fcr_tables *b = nodes[1].t;
	const struct fcr_sync_stats *st = fcr_sync_stats(nodes[1].s);
	uint64_t v = 1ull << 40 | 77;
	uint8_t mac[6] = { 0 };
	struct fcr_rec bad[] = {
		fcr_flow_rec(UINT64_MAX, FCR_FLOW_REC_ACTIVE, v),
		fcr_flow_rec(0xF000000000010203ull, FCR_FLOW_REC_ACTIVE, v),
		as_del(fcr_flow_rec(UINT64_MAX, 0, v)),
		fcr_binding_rec(4096 + 10, H(1), 0x010001, 1, v),
		as_del(fcr_binding_rec(0xFFFF, H(1), 0, 0, v)),
		fcr_redirect_rec(4096 + 10, H(1), T(1), VI(1), VT(1), v),
		fcr_route_rec(FCR_VLAN_ANY, 0x010000, 0, 1, mac, v),
		as_del(fcr_route_rec(FCR_VLAN_ANY, 0x010000, 25, 0, mac, v)),
		fcr_route_rec(4096 + 10, 0x010000, 8, 1, mac, v),
	};
	struct fcr_rec good = fcr_flow_rec(fcr_flow_key(10, 0x010001, 0x410001),
					   FCR_FLOW_REC_ACTIVE, v);
	uint8_t recs[1024];
	size_t len;
	uint32_t it = 0, listed = 0;

	(void)state;
	assert_true(fcr_sync_peer_add(nodes[1].s, &lone_peer) >= 0);
	len = put_recs(recs, sizeof(recs), bad, (int)RTE_DIM(bad));
	len += put_recs(recs + len, sizeof(recs) - len, &good, 1);
	lone_peer_sends(&nodes[1], 1, recs, len);
	assert_int_equal(st->records_received, RTE_DIM(bad) + 1);
	assert_int_equal(st->records_refused, RTE_DIM(bad));
	assert_int_equal(st->records_applied, 1);
	/* only the good flow, counted and listed alike */
	while (fcr_flow_next(b->flows, &it) >= 0)
		listed++;
	assert_int_equal(b->flows->count, 1);
	assert_int_equal(listed, 1);
	assert_true(fcr_flow_find(b->flows, good.key.k1) >= 0);
	assert_int_equal(b->bindings->nb_bound, 0);
	assert_int_equal(b->redirects->count, 0);
	assert_int_equal(b->routes->nb_routes, 0);
}

/* A version from far in the future would drag the clock to where its
 * millisecond field wraps: refused beyond FCR_SYNC_MAX_AHEAD_MS (7 days) ahead, taken within. */
static void
versions_far_ahead_of_the_clock_are_refused(void **state)
{
	struct fcr_tables *b = nodes[1].t;
	const struct fcr_sync_stats *st = fcr_sync_stats(nodes[1].s);
	struct timespec ts;
	uint64_t wall;
	struct fcr_rec r = fcr_binding_rec(10, H(1), 0x010001, 1, 0);
	uint8_t recs[256];
	size_t len;
	uint32_t n;

	(void)state;
	clock_gettime(CLOCK_REALTIME, &ts);
	wall = (uint64_t)(ts.tv_sec - 1704067200) * 1000 + (uint64_t)ts.tv_nsec / 1000000;
	assert_true(fcr_sync_peer_add(nodes[1].s, &lone_peer) >= 0);
	r.version = (0xFFFFFFFFFFFFull - 1) << 16 | 77;
	len = put_recs(recs, sizeof(recs), &r, 1);
	r.version = (wall + FCR_SYNC_MAX_AHEAD_MS + 60000) << 16 | 77;
	len += put_recs(recs + len, sizeof(recs) - len, &r, 1);
	lone_peer_sends(&nodes[1], 1, recs, len);
	assert_int_equal(st->records_ahead, 2);
	assert_int_equal(st->records_refused, 2);
	assert_int_equal(b->bindings->nb_bound, 0);
	/* a peer whose clock runs five minutes ahead is still heard */
	r.version = (wall + 5 * 60000) << 16 | 77;
	len = put_recs(recs, sizeof(recs), &r, 1);
	lone_peer_sends(&nodes[1], 2, recs, len);
	assert_int_equal(st->records_applied, 1);
	n = fcr_binding_get(b->bindings, 10, H(1), 0);
	assert_int_not_equal(n, FCR_BINDING_NONE);
	assert_int_equal(b->bindings->entry[n].fcid, 0x010001);
}

/* The first datagram from `from` to `to` the network carries, taken out
 * of it before delivery (nothing else is delivered meanwhile). */
static struct pkt
capture(int from, int to)
{
	struct pkt k;
	unsigned int i;

	for (;;) {
		for (i = 0; i < nq; i++)
			if (q[i].from == from && q[i].to == to &&
			    fcr_get_be16(q[i].data + 18) != 0) /* it has records */
				goto found;
		run(1, 2);
	}
found:
	k = q[i];
	nq = 0;
	return k;
}

/* Node B restarts with its clock off by `shift_ms`: A takes it as
 * restarted (it echoes A's challenge; no clock is compared), B takes A's
 * bulk resync, whose versions are ahead of B's clock, and a change made on
 * B afterwards reaches A and wins there. */
static void
restart_with_clock(int64_t shift_ms)
{
	struct fcr_tables *a = nodes[0].t;
	const struct fcr_sync_stats *sa = fcr_sync_stats(nodes[0].s);
	uint64_t restarts;
	uint32_t i, n;

	run(20, 2);
	for (i = 0; i < 40; i++)
		config(a, i);
	run(200, 2);
	assert_same_config(a, nodes[1].t);
	restarts = sa->peer_restarts;
	node_stop(1);
	run(10, 2);
	wall_shift_ms = shift_ms;
	node_start(1, 2);
	wall_shift_ms = 0;
	run(2000, 2);
	assert_true(fcr_sync_ready(nodes[1].s));
	assert_int_equal(sa->peer_restarts, restarts + 1);
	assert_int_equal(sa->drop[FCR_SD_REPLAY], 0);
	assert_int_equal(fcr_sync_stats(nodes[1].s)->records_refused, 0);
	assert_same_config(a, nodes[1].t);
	/* B's clock took A's versions: its next change outranks them */
	assert_int_equal(fcr_tables_binding_add(nodes[1].t, 10, H(3), 0x010077,
						FCR_BIND_LEARNED), 0);
	run(200, 2);
	n = fcr_binding_get(a->bindings, 10, H(3), 0);
	assert_int_not_equal(n, FCR_BINDING_NONE);
	assert_int_equal(a->bindings->entry[n].fcid, 0x010077);
	assert_int_equal(sa->records_refused, 0);
}

/* Two nodes change one route within a window, the one whose change goes
 * second with its clock a little behind (NTP keeps appliances tens of ms
 * apart; on one machine the same happens when a node's window ends in the
 * millisecond the other's update came). The second node's change has
 * refused the first's while pending: it must go out above it, or each node
 * keeps its own. */
static void
one_route_changed_on_two_nodes_at_once_ends_the_same_on_both(void **state)
{
	const uint8_t ports[2] = { 1, 2 };
	struct fcr_tables *a, *b;
	uint64_t b_start;
	int i, j;

	(void)state;
	/* B's windows end 25 ms before A's, A's clock is 30 ms behind */
	node_stop(0);
	node_stop(1);
	b_start = now;
	node_start(1, 2);
	run(25, 2);
	wall_shift_ms = -30;
	node_start(0, 2);
	wall_shift_ms = 0;
	run(200, 2);
	assert_true(fcr_sync_ready(nodes[0].s) && fcr_sync_ready(nodes[1].s));
	a = nodes[0].t;
	b = nodes[1].t;
	/* just after A's window ended: B's change goes first, at B's
	 * window end, and finds A's pending */
	while ((now - b_start) % 50 != 26)
		run(1, 2);
	assert_int_equal(fcr_route_add(b->routes, FCR_VLAN_ANY, 0x220000, 16, ports[1], NULL), 0);
	run(1, 2);
	assert_int_equal(fcr_route_add(a->routes, FCR_VLAN_ANY, 0x220000, 16, ports[0], NULL), 0);
	run(300, 2);
	i = fcr_route_find(a->routes, FCR_VLAN_ANY, 0x220000, 16);
	j = fcr_route_find(b->routes, FCR_VLAN_ANY, 0x220000, 16);
	assert_true(i >= 0 && j >= 0);
	assert_int_equal(a->routes->nexthop[a->routes->routes[i].nh].port,
			 b->routes->nexthop[b->routes->routes[j].nh].port);
	/* the change made last wins */
	assert_int_equal(b->routes->nexthop[b->routes->routes[j].nh].port, ports[0]);
}

static void
a_peer_restarted_an_hour_behind_is_taken_back(void **state)
{
	(void)state;
	restart_with_clock(-3600 * 1000);
}

static void
a_peer_restarted_a_day_behind_is_taken_back(void **state)
{
	(void)state;
	restart_with_clock(-24 * 3600 * 1000);
}

static void
a_peer_restarted_ten_minutes_ahead_is_taken_back(void **state)
{
	(void)state;
	restart_with_clock(10 * 60 * 1000);
}

/* A datagram of B's past life, replayed to A after B restarted, is not
 * read at all: it knows A's present boot but echoes the challenge A had
 * before it took B's new boot. */
static void
a_past_lifes_datagram_is_refused_after_the_peer_restarts(void **state)
{
	const struct fcr_sync_stats *sa = fcr_sync_stats(nodes[0].s);
	struct fcr_tables *a = nodes[0].t;
	uint64_t received, replays;
	struct pkt old;
	uint32_t n;

	(void)state;
	run(20, 2);
	assert_int_equal(fcr_tables_binding_add(nodes[1].t, 10, H(4), 0x010044,
						FCR_BIND_LEARNED), 0);
	old = capture(1, 0);
	deliver(&nodes[0], &old);
	n = fcr_binding_get(a->bindings, 10, H(4), 0);
	assert_int_not_equal(n, FCR_BINDING_NONE);
	node_stop(1);
	node_start(1, 2);
	run(2000, 2);
	assert_true(fcr_sync_ready(nodes[1].s));
	assert_int_equal(sa->peer_restarts, 1);
	assert_int_equal(fcr_tables_binding_del(a, 10, H(4)), 0);
	run(200, 2);
	received = sa->records_received;
	replays = sa->drop[FCR_SD_REPLAY];
	deliver(&nodes[0], &old);
	assert_int_equal(sa->drop[FCR_SD_REPLAY], replays + 1);
	assert_int_equal(sa->records_received, received);
	assert_int_equal(fcr_binding_get(a->bindings, 10, H(4), 0), FCR_BINDING_NONE);
	/* and B, genuine, goes on being heard */
	assert_int_equal(fcr_tables_binding_add(nodes[1].t, 10, H(5), 0x010055,
						FCR_BIND_LEARNED), 0);
	run(200, 2);
	assert_int_not_equal(fcr_binding_get(a->bindings, 10, H(5), 0), FCR_BINDING_NONE);
}

/* A restarted receiver keeps replay protection: what its peer sent before
 * the restart echoes a challenge of its past life and is refused, while
 * the peer itself is taken back at once. */
static void
a_restarted_receiver_refuses_what_was_sent_before(void **state)
{
	const struct fcr_sync_stats *sa;
	uint64_t received, replays;
	struct pkt old;

	(void)state;
	run(20, 2);
	assert_int_equal(fcr_tables_binding_add(nodes[1].t, 10, H(6), 0x010066,
						FCR_BIND_LEARNED), 0);
	old = capture(1, 0); /* never delivered to the A it was meant for */
	assert_int_equal(fcr_tables_binding_del(nodes[1].t, 10, H(6)), 0);
	node_stop(0);
	node_start(0, 2);
	sa = fcr_sync_stats(nodes[0].s);
	deliver(&nodes[0], &old);
	assert_int_equal(sa->drop[FCR_SD_UNPROVEN], 1);
	assert_int_equal(sa->records_received, 0);
	assert_int_equal(fcr_binding_get(nodes[0].t->bindings, 10, H(6), 0), FCR_BINDING_NONE);
	run(2000, 2);
	assert_true(fcr_sync_ready(nodes[0].s));
	assert_int_equal(fcr_binding_get(nodes[0].t->bindings, 10, H(6), 0), FCR_BINDING_NONE);
	/* replayed again once A has taken B's boot: older than the datagram
	 * that proved it, so counted as seen */
	received = sa->records_received;
	replays = sa->drop[FCR_SD_REPLAY];
	deliver(&nodes[0], &old);
	assert_int_equal(sa->drop[FCR_SD_REPLAY], replays + 1);
	assert_int_equal(sa->records_received, received);
	assert_int_equal(fcr_binding_get(nodes[0].t->bindings, 10, H(6), 0), FCR_BINDING_NONE);
}

static void
wire_records_round_trip(void **state)
{
	struct fcr_rec in[8], out;
	uint8_t buf[1024];
	size_t off = 0, n, len = 0;
	int i;

	(void)state;
	memset(in, 0, sizeof(in));
	in[0] = fcr_flow_rec(0x00640101000241FFull, FCR_FLOW_REC_IDLE, 1ull << 40);
	*fcr_flow_val(&in[0]) = (struct fcr_flow_val){ .state = FCR_FLOW_REC_IDLE,
		.frames = 123456789, .bytes = 1ull << 50, .first_age_ms = 1 };
	in[1] = as_del(fcr_flow_rec(7, 0, 9));
	in[2] = fcr_binding_rec(4095, H(1), 0xFFFFFE, 2, 3);
	in[3] = as_del(fcr_binding_rec(1, T(2), 0, 0, 4));
	in[4] = fcr_route_rec(4095, 0x810000, 8, 3, (const uint8_t[6]){ 1, 2, 3, 4, 5, 6 }, 5);
	in[5] = as_del(fcr_route_rec(FCR_VLAN_ANY, 0x10000, 16, 0, NULL, 6));
	in[6] = fcr_redirect_rec(10, H(1), T(1), VI(1), VT(1), UINT64_MAX);
	in[7] = as_del(fcr_redirect_rec(10, H(1), T(1), 0, 0, 8));
	for (i = 0; i < 8; i++) {
		n = fcr_rec_put(buf + len, sizeof(buf) - len, &in[i]);
		assert_true(n > 2);
		len += n;
	}
	for (i = 0; i < 8; i++) {
		assert_int_equal(fcr_rec_next(buf, len, &off, &out), 1);
		assert_memory_equal(&out, &in[i], sizeof(out));
	}
	assert_int_equal(fcr_rec_next(buf, len, &off, &out), 0);
	/* every truncation is refused, never read past */
	for (n = 1; n < len; n++) {
		int r;

		off = 0;
		while ((r = fcr_rec_next(buf, n, &off, &out)) > 0)
			;
		if (off != n)
			assert_int_equal(r, -1);
	}
}

static int
eal_up(void **state)
{
	(void)state;
	q = calloc(MAXQ, sizeof(*q));
	return q == NULL ? -1 : tu_eal_init("test_sync", "512", "0");
}

static int
eal_down(void **state)
{
	(void)state;
	free(q);
	rte_eal_cleanup();
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(wire_records_round_trip),
		cmocka_unit_test_setup_teardown(a_cluster_and_where_its_pairs_are_replicate, setup2,
						teardown),
		cmocka_unit_test_setup_teardown(config_added_on_one_node_appears_on_the_other_within_two_windows, setup2, teardown),
		cmocka_unit_test_setup_teardown(with_a_store_only_learned_state_is_replicated, setup2_store, teardown),
		cmocka_unit_test_setup_teardown(many_changes_to_one_flow_in_a_window_cost_one_record, setup2, teardown),
		cmocka_unit_test_setup_teardown(changes_during_an_unfinished_flush_wait_for_the_next_window, setup2, teardown),
		cmocka_unit_test_setup_teardown(the_refresh_sends_the_counters_of_flows_that_forwarded_since_only, setup2, teardown),
		cmocka_unit_test_setup_teardown(a_resync_carries_the_changes_to_flows_it_has_not_reached, setup2, teardown),
		cmocka_unit_test_setup_teardown(a_deletion_then_recreation_during_a_paced_batch_leaves_the_flow_at_the_peer, setup2, teardown),
		cmocka_unit_test_setup_teardown(a_sparse_flow_is_never_deleted_where_it_forwards, setup2, teardown),
		cmocka_unit_test_setup_teardown(a_standby_keeps_the_flows_its_peer_forwards_and_both_expire_idle_ones, setup2, teardown),
		cmocka_unit_test_setup_teardown(state_converges_over_a_lossy_network, setup2, teardown),
		cmocka_unit_test_setup_teardown(a_restarted_node_gets_everything_back_by_bulk_resync, setup2, teardown),
		cmocka_unit_test_setup_teardown(three_nodes_in_a_full_mesh_converge, setup3, teardown),
		cmocka_unit_test_setup_teardown(stale_updates_are_rejected, setup2, teardown),
		cmocka_unit_test_setup_teardown(a_twin_peer_keeps_the_port_and_macs_a_login_came_from, setup3, teardown),
		cmocka_unit_test_setup_teardown(a_restarted_standby_neither_times_out_nor_pushes_its_restored_bindings, setup2, teardown),
		cmocka_unit_test_setup_teardown(forged_short_foreign_and_wrong_version_datagrams_change_nothing, setup2, teardown),
		cmocka_unit_test_setup_teardown(records_of_unknown_types_are_counted_unknown_and_skipped, setup2, teardown),
		cmocka_unit_test_setup_teardown(records_with_keys_no_frame_can_have_are_refused, setup2, teardown),
		cmocka_unit_test_setup_teardown(versions_far_ahead_of_the_clock_are_refused, setup2, teardown),
		cmocka_unit_test_setup_teardown(one_route_changed_on_two_nodes_at_once_ends_the_same_on_both, setup2, teardown),
		cmocka_unit_test_setup_teardown(a_peer_restarted_an_hour_behind_is_taken_back, setup2, teardown),
		cmocka_unit_test_setup_teardown(a_peer_restarted_a_day_behind_is_taken_back, setup2, teardown),
		cmocka_unit_test_setup_teardown(a_peer_restarted_ten_minutes_ahead_is_taken_back, setup2, teardown),
		cmocka_unit_test_setup_teardown(a_past_lifes_datagram_is_refused_after_the_peer_restarts, setup2, teardown),
		cmocka_unit_test_setup_teardown(a_restarted_receiver_refuses_what_was_sent_before, setup2, teardown),
	};

	return cmocka_run_group_tests(tests, eal_up, eal_down);
}
