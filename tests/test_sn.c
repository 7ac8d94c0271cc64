/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Service-node clusters (lib/forward/fcr_sn.h): a redirect of a cluster is
 * placed by target, else on the up node with the fewest pairs; a node down
 * for the failover time gives its restartable pairs to another up node
 * (the rules follow), keeps the others failing closed, and says when no
 * node is left; a node found not answering stays so until it logs in
 * again or an operator adds it again; deleting a node moves its pairs.
 * Runs EAL without hugepages or devices.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <rte_eal.h>

#include "fcr_sn.h"
#include "fcr_tables.h"
#include "test_util.h"

#define V 100
#define FAILOVER 3000
/* a cluster "sme" of nodes A and B, each a VT and two VIs (members);
 * hosts H1..H6, targets T1, T2 */
#define H1 0x2100000000000001ull
#define H2 0x2100000000000002ull
#define H3 0x2100000000000003ull
#define H4 0x2100000000000004ull
#define H5 0x2100000000000005ull
#define H6 0x2100000000000006ull
#define T1 0x5000000000000001ull
#define T2 0x5000000000000002ull
#define AVI 0x2f000000000000a1ull
#define AVT 0x2f000000000000a2ull
#define BVI 0x2f000000000000b1ull
#define BVT 0x2f000000000000b2ull
#define AVI2 0x2f000000000000a3ull
#define BVI2 0x2f000000000000b3ull

struct notes {
	unsigned int state, moved, stuck;
	uint8_t last_state;
	uint64_t moved_to;
};

static void
record(void *ctx, const struct fcr_note *n)
{
	struct notes *l = ctx;

	if (n->kind == FCR_NOTE_SN_STATE) {
		l->state++;
		l->last_state = n->new_state;
	} else if (n->kind == FCR_NOTE_SN_MOVED && n->new_vi != 0) {
		l->moved++;
		l->moved_to = n->new_vi;
	} else if (n->kind == FCR_NOTE_SN_MOVED) {
		l->stuck++;
	}
}

static uint64_t
cluster(const char *name)
{
	uint64_t c = 0;

	assert_int_equal(fcr_cluster_parse(name, &c), 0);
	return c;
}

static void
bind(struct fcr_tables *t, uint64_t w, uint32_t fcid)
{
	assert_int_equal(fcr_tables_binding_add(t, V, w, fcid, FCR_BIND_STATIC), 0);
}

/* A cluster of two nodes of two members each, every port bound. */
static struct fcr_tables *
mk(struct notes *l)
{
	struct fcr_tables *t = tu_tables(1, 0);

	memset(l, 0, sizeof(*l));
	t->note_hook = (struct fcr_note_hook){ .fn = record, .ctx = l };
	bind(t, H1, 0x010001);
	bind(t, H2, 0x010002);
	bind(t, H3, 0x010003);
	bind(t, H4, 0x010004);
	bind(t, H5, 0x010005);
	bind(t, H6, 0x010006);
	bind(t, AVI2, 0x810003);
	bind(t, BVI2, 0x820003);
	bind(t, T1, 0x410001);
	bind(t, T2, 0x410002);
	bind(t, AVI, 0x810001);
	bind(t, AVT, 0x810002);
	bind(t, BVI, 0x820001);
	bind(t, BVT, 0x820002);
	assert_true(fcr_sn_add(t->redirects, V, cluster("sme"), AVI, AVT) >= 0);
	assert_true(fcr_sn_add(t->redirects, V, cluster("sme"), BVI, BVT) >= 0);
	assert_true(fcr_sn_add(t->redirects, V, cluster("sme"), AVI2, AVT) >= 0);
	assert_true(fcr_sn_add(t->redirects, V, cluster("sme"), BVI2, BVT) >= 0);
	fcr_tables_sn(t, 1000, FAILOVER);
	assert_int_equal(l->state, 0); /* judged up when added: nothing changed */
	assert_int_equal(t->redirects->sns->sn[0].state, FCR_SN_UP);
	return t;
}

static uint64_t
vi_of(struct fcr_tables *t, int id)
{
	return t->bindings->entry[t->redirects->r[id].binding[FCR_M_VI]].wwpn;
}

static uint64_t
vt_of(struct fcr_tables *t, int id)
{
	return t->bindings->entry[t->redirects->r[id].binding[FCR_M_VT]].wwpn;
}

static const struct fcr_sn *
node(struct fcr_tables *t, uint64_t vi)
{
	int s = fcr_sn_find(t->redirects, V, cluster("sme"), vi);

	assert_true(s >= 0);
	return &t->redirects->sns->sn[s];
}

/* The rule host -> target goes to (D_ID) the VT of the node it is on. */
static uint32_t
rule_did(struct fcr_tables *t, uint32_t s, uint32_t d)
{
	int idx = fcr_flow_find(t->flows, fcr_flow_key(V, s, d));

	assert_true(idx >= 0);
	return fcr_action_did(t->flows->action[idx]);
}

static void
cluster_names_are_short_words(void **state)
{
	char buf[FCR_CLUSTER_STRLEN];
	uint64_t c;

	(void)state;
	assert_int_equal(fcr_cluster_parse("sme-a.1_B", &c), -1); /* 9 */
	assert_int_equal(fcr_cluster_parse("", &c), -1);
	assert_int_equal(fcr_cluster_parse("a b", &c), -1);
	assert_int_equal(fcr_cluster_parse("dmm/1", &c), -1);
	assert_int_equal(fcr_cluster_parse("sme-a.1_", &c), 0);
	assert_string_equal(fcr_cluster_format(c, buf), "sme-a.1_");
	assert_int_equal(fcr_cluster_parse("X", &c), 0);
	assert_true(c == (uint64_t)'X' << 56);
	assert_string_equal(fcr_cluster_format(c, buf), "X");
	/* a number no name makes (a peer's): no control byte shown */
	assert_string_equal(fcr_cluster_format(0x0141000000000000ull, buf), "?A");
}

/* Every redirect of a target on one node (VT), each on a VI of its own;
 * another target on the node with fewer pairs; a target with no VI free
 * on its node goes to another node; none free anywhere: refused. */
static void
pairs_are_placed_by_target_then_by_load(void **state)
{
	struct notes l;
	struct fcr_tables *t = mk(&l);
	struct fcr_redirect_table *rt = t->redirects;
	int r1, r2, r3, r4, r5;

	(void)state;
	r1 = fcr_redirect_add_cluster(rt, V, H1, T1, cluster("sme"), 1, 0);
	r2 = fcr_redirect_add_cluster(rt, V, H2, T1, cluster("sme"), 1, 0);
	r3 = fcr_redirect_add_cluster(rt, V, H3, T2, cluster("sme"), 0, 0);
	assert_true(r1 >= 0 && r2 >= 0 && r3 >= 0);
	assert_true(vt_of(t, r1) == vt_of(t, r2));
	assert_true(vi_of(t, r1) != vi_of(t, r2));
	assert_true(vt_of(t, r3) != vt_of(t, r1));
	assert_int_equal(node(t, vi_of(t, r1))->pairs, 1);
	assert_int_equal(node(t, vi_of(t, r1))->node_pairs, 2);
	assert_int_equal(node(t, vi_of(t, r3))->node_pairs, 1);
	assert_int_equal(rt->r[r1].state, FCR_RS_ACTIVE);
	assert_int_equal(rt->r[r2].state, FCR_RS_ACTIVE);
	assert_int_equal(rule_did(t, 0x010001, 0x410001), vt_of(t, r1) == AVT ? 0x810002 : 0x820002);
	/* its member's frames: counted from its first look on, a tenth of the
	 * redirects a tick, published at a pass's end with the rate */
	{
		int idx = fcr_flow_find(t->flows, rt->r[r1].key[0]);
		const struct fcr_sn *m = node(t, vi_of(t, r1));
		unsigned int k;

		assert_true(idx >= 0);
		t->flows->counters[0][idx].frames += 100; /* its past: not the member's */
		for (k = 0; k < 20; k++)
			fcr_tables_sn(t, 1100 + 100 * k, FAILOVER);
		assert_int_equal(m->frames, 0);
		t->flows->counters[0][idx].frames += 50;
		/* a pass is ten ticks: published within two passes */
		for (k = 0; k < 20 && m->frames == 0; k++)
			fcr_tables_sn(t, 3100 + 100 * k, FAILOVER);
		assert_int_equal(m->frames, 50);
		assert_int_equal(m->rate, 50); /* 50 frames in the pass's 1000 ms */
	}
	/* named again: it stays where it is */
	assert_int_equal(fcr_redirect_add_cluster(rt, V, H1, T1, cluster("sme"), 1, 0), r1);
	assert_int_equal(node(t, vi_of(t, r1))->pairs, 1);
	/* T1's node has no VI free for T1: the other node, then its other VI */
	r4 = fcr_redirect_add_cluster(rt, V, H4, T1, cluster("sme"), 1, 0);
	r5 = fcr_redirect_add_cluster(rt, V, H5, T1, cluster("sme"), 1, 0);
	assert_true(r4 >= 0 && r5 >= 0);
	assert_true(vt_of(t, r4) == vt_of(t, r3) && vt_of(t, r5) == vt_of(t, r3));
	assert_true(vi_of(t, r4) != vi_of(t, r5));
	assert_int_equal(rt->r[r4].state, FCR_RS_ACTIVE);
	assert_int_equal(rt->r[r5].state, FCR_RS_ACTIVE);
	/* every VI carries a pair to T1: refused */
	assert_int_equal(fcr_redirect_add_cluster(rt, V, H6, T1, cluster("sme"), 1, 0), -EBUSY);
	/* a cluster with no node on the VLAN: nothing is added */
	assert_int_equal(fcr_redirect_add_cluster(rt, V, H6, T1, cluster("dmm"), 1, 0), -ENOENT);
	/* deleted: the counts follow */
	assert_int_equal(fcr_redirect_del(rt, V, H2, T1), 0);
	assert_int_equal(node(t, vi_of(t, r1))->node_pairs, 1);
	assert_true(fcr_redirect_add_cluster(rt, V, H6, T1, cluster("sme"), 1, 0) >= 0);
	fcr_tables_free(t);
}

/* Node X's VT logs out: nothing moves before the failover time; then the
 * restartable pair moves to node Y (its rules to Y's VT), the other stays
 * on X failing closed; X back up, nothing moves back. */
static void
a_failed_node_gives_its_restartable_pairs_to_another(void **state)
{
	struct notes l;
	struct fcr_tables *t = mk(&l);
	struct fcr_redirect_table *rt = t->redirects;
	uint64_t from, to;
	int r1, r2;

	(void)state;
	r1 = fcr_redirect_add_cluster(rt, V, H1, T1, cluster("sme"), 1, 0);
	r2 = fcr_redirect_add_cluster(rt, V, H2, T1, cluster("sme"), 0, 0);
	from = vt_of(t, r1);
	to = from == AVT ? BVT : AVT;
	assert_true(vt_of(t, r2) == from);
	assert_int_equal(fcr_tables_binding_del(t, V, from), 0);
	fcr_tables_sn(t, 1100, FAILOVER);
	assert_int_equal(node(t, vi_of(t, r1))->state, FCR_SN_UNBOUND);
	assert_int_equal(node(t, vi_of(t, r2))->state, FCR_SN_UNBOUND);
	assert_int_equal(l.last_state, FCR_SN_UNBOUND);
	assert_int_equal(rt->r[r1].state, FCR_RS_WAITING); /* failing closed */
	fcr_tables_sn(t, 1100 + FAILOVER - 1, FAILOVER);
	assert_true(vt_of(t, r1) == from);
	assert_int_equal(t->st.sn_moves, 0);
	fcr_tables_sn(t, 1100 + FAILOVER, FAILOVER);
	assert_int_equal(t->st.sn_moves, 1);
	assert_int_equal(l.moved, 1);
	assert_true(vt_of(t, r1) == to);
	assert_true(l.moved_to == vi_of(t, r1));
	assert_true(vt_of(t, r2) == from); /* not restartable: stays */
	assert_int_equal(rt->r[r1].state, FCR_RS_ACTIVE);
	assert_int_equal(rt->r[r2].state, FCR_RS_WAITING);
	assert_int_equal(rule_did(t, 0x010001, 0x410001), to == AVT ? 0x810002 : 0x820002);
	assert_int_equal(node(t, vi_of(t, r2))->node_pairs, 1);
	assert_int_equal(node(t, vi_of(t, r1))->node_pairs, 1);
	assert_int_equal(node(t, vi_of(t, r1))->moved_in, 1);
	/* the next ticks move nothing more */
	fcr_tables_sn(t, 1100 + 2 * FAILOVER, FAILOVER);
	assert_int_equal(t->st.sn_moves, 1);
	assert_int_equal(t->st.sn_failovers_stuck, 0);
	/* back: up again, nothing moves back */
	bind(t, from, from == AVT ? 0x810002 : 0x820002);
	fcr_tables_sn(t, 1100 + 3 * FAILOVER, FAILOVER);
	assert_int_equal(node(t, vi_of(t, r2))->state, FCR_SN_UP);
	assert_true(vt_of(t, r1) == to);
	assert_int_equal(rt->r[r2].state, FCR_RS_ACTIVE);
	/* r1's VI alone gone: to the node of its target's other pair (r2's,
	 * up again), on the VI there free for the target */
	assert_int_equal(fcr_tables_binding_del(t, V, vi_of(t, r1)), 0);
	fcr_tables_sn(t, 1100 + 4 * FAILOVER, FAILOVER);
	fcr_tables_sn(t, 1100 + 5 * FAILOVER, FAILOVER);
	assert_true(vt_of(t, r1) == from && vi_of(t, r1) != vi_of(t, r2));
	assert_int_equal(rt->r[r1].state, FCR_RS_ACTIVE);
	/* with no other pair of its target: its VI alone gone, its VT there,
	 * to the other VI of its own node */
	assert_int_equal(fcr_redirect_del(rt, V, H2, T1), 0);
	{
		uint64_t vi = vi_of(t, r1), other = vi == AVI ? AVI2 : vi == AVI2 ? AVI :
						      vi == BVI ? BVI2 : BVI;

		assert_int_equal(fcr_tables_binding_del(t, V, vi), 0);
		fcr_tables_sn(t, 1100 + 6 * FAILOVER, FAILOVER);
		fcr_tables_sn(t, 1100 + 7 * FAILOVER, FAILOVER);
		assert_true(vi_of(t, r1) == other && vt_of(t, r1) == from);
		assert_int_equal(rt->r[r1].state, FCR_RS_ACTIVE);
	}
	fcr_tables_free(t);
}

/* Both nodes down: the restartable pair stays, said once; the other node
 * back up, it moves there. */
static void
with_no_node_up_the_pair_waits_and_is_said_once(void **state)
{
	struct notes l;
	struct fcr_tables *t = mk(&l);
	struct fcr_redirect_table *rt = t->redirects;
	uint64_t from, to;
	int r1;

	(void)state;
	r1 = fcr_redirect_add_cluster(rt, V, H1, T1, cluster("sme"), 1, 0);
	from = vt_of(t, r1);
	to = from == AVT ? BVT : AVT;
	assert_int_equal(fcr_tables_binding_del(t, V, AVT), 0);
	assert_int_equal(fcr_tables_binding_del(t, V, BVT), 0);
	fcr_tables_sn(t, 2000, FAILOVER);
	fcr_tables_sn(t, 2000 + FAILOVER, FAILOVER);
	fcr_tables_sn(t, 2100 + FAILOVER, FAILOVER);
	assert_int_equal(t->st.sn_moves, 0);
	assert_int_equal(t->st.sn_failovers_stuck, 1);
	assert_int_equal(l.stuck, 1);
	assert_int_equal(rt->sns->moving, 1);
	assert_true(vt_of(t, r1) == from);
	/* the other comes back: the pair goes there at the next look */
	bind(t, to, to == AVT ? 0x810002 : 0x820002);
	fcr_tables_sn(t, 2200 + FAILOVER, FAILOVER);
	assert_int_equal(t->st.sn_moves, 1);
	assert_true(vt_of(t, r1) == to);
	assert_int_equal(rt->sns->moving, 0);
	fcr_tables_free(t);
}

/* A pair finding its member not answering: the member is not-answering
 * (not the other member of its VT: a VT stalls while one member's VI is
 * gone), the restartable pair moves, and the member stays so though
 * nothing looks any more, until its VT logs in again; an operator's add
 * clears it too. */
static void
a_node_not_answering_stays_so_until_it_logs_in_again(void **state)
{
	struct notes l;
	struct fcr_tables *t = mk(&l);
	struct fcr_redirect_table *rt = t->redirects;
	uint64_t from, to, other_vi;
	int r1, s;

	(void)state;
	r1 = fcr_redirect_add_cluster(rt, V, H1, T1, cluster("sme"), 1, 0);
	from = vt_of(t, r1);
	to = from == AVT ? BVT : AVT;
	other_vi = vi_of(t, r1) == AVI ? AVI2 : vi_of(t, r1) == AVI2 ? AVI :
		   vi_of(t, r1) == BVI ? BVI2 : BVI;
	s = fcr_sn_find(rt, V, cluster("sme"), vi_of(t, r1));
	rt->r[r1].live.stalled = 1; /* as fcr_redirect_liveness_tick finds it */
	fcr_tables_sn(t, 3000, FAILOVER);
	assert_int_equal(rt->sns->sn[s].state, FCR_SN_STALLED);
	assert_int_equal(node(t, other_vi)->state, FCR_SN_UP);
	fcr_tables_sn(t, 3000 + FAILOVER, FAILOVER);
	/* its VT may be what hangs: to the other node */
	assert_true(vt_of(t, r1) == to);
	rt->r[r1].live.stalled = 0; /* its new rules: looked at afresh */
	fcr_tables_sn(t, 3100 + 2 * FAILOVER, FAILOVER);
	assert_int_equal(rt->sns->sn[s].state, FCR_SN_STALLED);
	/* a new pair of another target is not put on it */
	assert_true(vi_of(t, fcr_redirect_add_cluster(rt, V, H2, T2, cluster("sme"), 1, 0)) !=
		    rt->sns->sn[s].vi);
	/* its VT logs in again (a restart): up */
	rt->bindings->entry[fcr_binding_get(rt->bindings, V, from, 0)].logins++;
	fcr_tables_sn(t, 3200 + 2 * FAILOVER, FAILOVER);
	assert_int_equal(rt->sns->sn[s].state, FCR_SN_UP);
	assert_int_equal(node(t, other_vi)->state, FCR_SN_UP);
	/* stalled again; the operator adds the member again: up */
	fcr_sn_set(rt, (uint32_t)r1, s); /* as if it were on it */
	rt->r[r1].live.stalled = 1;
	fcr_tables_sn(t, 3300 + 2 * FAILOVER, 100 * FAILOVER);
	assert_int_equal(rt->sns->sn[s].state, FCR_SN_STALLED);
	rt->r[r1].live.stalled = 0;
	assert_int_equal(fcr_sn_add(rt, V, cluster("sme"), rt->sns->sn[s].vi, rt->sns->sn[s].vt),
			 s);
	fcr_tables_sn(t, 3400 + 2 * FAILOVER, 100 * FAILOVER);
	assert_int_equal(rt->sns->sn[s].state, FCR_SN_UP);
	fcr_tables_free(t);
}

/* Deleting a member moves its pairs, restartable or not; the last member
 * keeps them (their VI and VT stay); a member's ports are its own; a new
 * VT takes its pairs along. */
static void
deleting_a_node_moves_its_pairs_and_the_last_keeps_them(void **state)
{
	struct notes l;
	struct fcr_tables *t = mk(&l);
	struct fcr_redirect_table *rt = t->redirects;
	const uint64_t vis[] = { AVI, AVI2, BVI, BVI2 };
	unsigned int i;
	int r1;

	(void)state;
	r1 = fcr_redirect_add_cluster(rt, V, H1, T1, cluster("sme"), 0, 0);
	assert_int_equal(fcr_sn_add(rt, V, cluster("dmm"), vi_of(t, r1), H3), -EINVAL);
	for (i = 0; i < 4; i++) {
		uint64_t was = vi_of(t, r1);

		if (vis[i] == was)
			continue;
		assert_int_equal(fcr_sn_del(rt, V, cluster("sme"), was), 0);
		assert_true(vi_of(t, r1) != was);
		assert_int_equal(node(t, vi_of(t, r1))->pairs, 1);
		assert_int_equal(rt->r[r1].state, FCR_RS_ACTIVE);
	}
	while (rt->sns->count > 1)
		for (i = 0; i < 4; i++)
			if (vis[i] != vi_of(t, r1))
				fcr_sn_del(rt, V, cluster("sme"), vis[i]);
	assert_int_equal(fcr_sn_del(rt, V, cluster("sme"), vi_of(t, r1)), 0);
	assert_int_equal(rt->sns->count, 0);
	assert_int_equal(rt->r[r1].sn, 0);
	assert_int_equal(rt->r[r1].state, FCR_RS_ACTIVE);
	/* a member again: the pair goes on it at the next look */
	assert_true(fcr_sn_add(rt, V, cluster("sme"), AVI, AVT) >= 0);
	fcr_tables_sn(t, 5000, FAILOVER);
	assert_true(vi_of(t, r1) == AVI);
	assert_int_equal(node(t, AVI)->pairs, 1);
	assert_int_equal(fcr_redirect_add_cluster(rt, V, H1, T1, cluster("sme"), 0, 0), r1);
	/* a new VT: the pair on it follows */
	assert_true(fcr_sn_add(rt, V, cluster("sme"), AVI, BVT) >= 0);
	assert_int_equal(rule_did(t, 0x010001, 0x410001), 0x820002);
	fcr_tables_free(t);
}

static int
eal_up(void **state)
{
	(void)state;
	return tu_eal_init("test_sn", "256", "0");
}

static int
eal_down(void **state)
{
	(void)state;
	rte_eal_cleanup();
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cluster_names_are_short_words),
		cmocka_unit_test(pairs_are_placed_by_target_then_by_load),
		cmocka_unit_test(a_failed_node_gives_its_restartable_pairs_to_another),
		cmocka_unit_test(with_no_node_up_the_pair_waits_and_is_said_once),
		cmocka_unit_test(a_node_not_answering_stays_so_until_it_logs_in_again),
		cmocka_unit_test(deleting_a_node_moves_its_pairs_and_the_last_keeps_them),
	};

	return cmocka_run_group_tests(tests, eal_up, eal_down);
}
