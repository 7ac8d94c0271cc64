/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * memory-bench: bytes per flow at 1,000,000 flows, every table included,
 * measured rather than estimated: the EAL heap's allocated bytes
 * (rte_malloc_get_socket_stats) before and after each table is created and
 * after the tables are filled, plus what the tables lcore keeps in the C heap
 * (mallinfo2: the redirect lists of the names, grown with realloc).
 *
 * Sizes are the program's defaults (app/options.c): 1,048,576 flows,
 * 4,096 routes, 262,144 bindings (VLAN, WWPN names), 65,536 redirects;
 * one worker's counters unless said otherwise, and an RCU variable as
 * app/main.c creates, so the flow table has its defer queue.
 *
 * First each table alone, created and freed in turn, to see what each
 * contributes (and the library's own estimates, fcr_flow_table_memory and
 * fcr_route_table_memory, next to it); then fcr_tables_create with all of
 * them, filled to capacity: 65,536 redirects whose four ports are bound
 * (262,144 bound names, 262,144 flow rules) and plain flows up to
 * 1,000,000 flows.
 * Bytes per flow = bytes / 1,000,000.
 *
 * Checked: the tables hold what was put in them (rules, names, redirects
 * active, a sample of rules looked up).
 *
 * Exit status: 0 when all results are correct, whatever the sizes; 1 on a
 * wrong result; 2 on a usage or set-up error.
 */
#include <getopt.h>
#include <inttypes.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_hash.h>
#include <rte_hash_crc.h>
#include <rte_malloc.h>
#include <rte_rcu_qsbr.h>

#include "bench_util.h"
#include "fcr_tables.h"

#define FLOWS 1000000u
#define VLAN 100

/* app/options.c defaults */
#define MAX_FLOWS (1u << 20)
#define MAX_REDIRECTS (1u << 16)
#define MAX_BINDINGS (1u << 18)
#define MAX_ROUTES 4096u

static uint64_t
heap(void)
{
	return bench_heap_allocated(0);
}

static uint64_t
c_heap(void)
{
	struct mallinfo2 mi = mallinfo2();

	return mi.uordblks + mi.hblkhd;
}

static struct rte_rcu_qsbr *
make_qsbr(unsigned int nb_workers)
{
	size_t sz = rte_rcu_qsbr_get_memsize(nb_workers);
	struct rte_rcu_qsbr *q = rte_zmalloc("mb_qsbr", sz, RTE_CACHE_LINE_SIZE);

	if (q == NULL || rte_rcu_qsbr_init(q, nb_workers) != 0) {
		fprintf(stderr, "cannot set up RCU\n");
		exit(2);
	}
	return q;
}

struct row {
	const char *name;
	const char *capacity;
	uint64_t bytes;
	uint64_t estimate; /* 0: none */
	int indent;
};

static struct row rows[32];
static unsigned int nb_rows;

static void
add_row(const char *name, const char *capacity, uint64_t bytes,
	uint64_t estimate, int indent)
{
	rows[nb_rows++] = (struct row){ name, capacity, bytes, estimate, indent };
}

static uint32_t
fcid_of(unsigned int role, uint32_t i)
{
	/* hosts, targets, VIs, VTs in domains of their own: 4 per role */
	return (uint32_t)(0x10 + role * 0x10 + (i >> 16)) << 16 | (i & 0xFFFF);
}

static uint64_t
wwpn_of(unsigned int role, uint32_t i)
{
	return (uint64_t)(0x21 + role) << 56 | 0x0000240000000000ull | i;
}

/* The redirects, bindings first, as a configuration file would; then plain
 * flows (as first frames create them) up to FLOWS. */
static int
fill(struct fcr_tables *t, uint32_t nredir)
{
	uint32_t i, r;
	int rc;

	for (i = nredir * FCR_REDIRECT_KEYS; i < FLOWS; i++) {
		uint64_t k = fcr_flow_key(VLAN + 1, 0x010000 + (i >> 12), 0x410000 + i);

		if (fcr_flow_set(t->flows, k, fcr_action(fcr_flow_key_sid(k),
							 fcr_flow_key_did(k), FCR_LEG_PLAIN),
				 FCR_NO_OWNER) < 0) {
			fprintf(stderr, "FAIL: plain flow %u\n", i);
			return -1;
		}
	}
	for (i = 0; i < nredir; i++) {
		for (r = 0; r < 4; r++) {
			rc = fcr_tables_binding_add(t, VLAN, wwpn_of(r, i),
						    fcid_of(r, i), FCR_BIND_STATIC);
			if (rc < 0) {
				fprintf(stderr, "FAIL: binding %u/%u: %d\n", i, r, rc);
				return -1;
			}
		}
		rc = fcr_redirect_add(t->redirects, VLAN, wwpn_of(0, i),
				      wwpn_of(1, i), wwpn_of(2, i), wwpn_of(3, i));
		if (rc < 0) {
			fprintf(stderr, "FAIL: redirect %u: %d\n", i, rc);
			return -1;
		}
	}
	return 0;
}

static int
check_filled(const struct fcr_tables *t, uint32_t nredir)
{
	uint32_t i, errors = 0;

	if (t->flows->count != FLOWS || t->redirects->nb_active != nredir ||
	    t->bindings->nb_bound != nredir * 4)
		errors++;
	for (i = 0; i < nredir; i += 997) {
		/* host -> target: D_ID := VT */
		int idx = fcr_flow_find(t->flows, fcr_flow_key(VLAN, fcid_of(0, i),
							       fcid_of(1, i)));

		if (idx < 0 || fcr_action_did(t->flows->action[idx]) !=
			       fcid_of(3, i))
			errors++;
	}
	if (errors)
		fprintf(stderr, "FAIL: filled tables: %u flows, %u active "
			"redirects, %u bound names (expected %u, %u, %u)\n",
			t->flows->count, t->redirects->nb_active,
			t->bindings->nb_bound, FLOWS, nredir, nredir * 4);
	return errors ? -1 : 0;
}

static void
usage(FILE *f, const char *prog)
{
	fprintf(f, "usage: %s [--runs N]\n"
		"  (the sizes are the program's defaults; --runs is accepted, as "
		"run-benchmarks.sh\n"
		"  may pass it to every benchmark, and ignored: nothing here is "
		"timed)\n", prog);
}

/* Heap bytes a flow table of MAX_FLOWS takes (created, measured, freed);
 * 0 when it cannot be created. */
static uint64_t
flow_table_heap(const char *name, uint32_t workers, struct rte_rcu_qsbr *q)
{
	uint64_t h0 = heap(), h1;
	struct fcr_flow_table *ft = fcr_flow_table_create(name, MAX_FLOWS, workers, q, 0);

	h1 = heap();
	if (ft == NULL)
		return 0;
	fcr_flow_table_free(ft);
	return h1 - h0;
}

int
main(int argc, char **argv)
{
	const uint32_t nredir = MAX_REDIRECTS;
	struct fcr_tables_params tp = {
		.max_flows = MAX_FLOWS,
		.max_routes = MAX_ROUTES,
		.max_bindings = MAX_BINDINGS,
		.max_redirects = MAX_REDIRECTS,
		.nb_workers = 1,
		.socket = 0,
	};
	struct rte_hash_parameters hp = {
		.name = "mb_bare",
		.entries = MAX_FLOWS,
		.key_len = sizeof(uint64_t),
		.hash_func = rte_hash_crc,
		.socket_id = 0,
		.extra_flag = RTE_HASH_EXTRA_FLAGS_RW_CONCURRENCY_LF |
			      RTE_HASH_EXTRA_FLAGS_EXT_TABLE,
	};
	uint64_t h0, h1, c0, c1, flow_total, flow_total2, flow_noq, hash_bare,
		 all_create, fill_heap,
		 fill_c, sum = 0, total;
	struct fcr_flow_table *ft;
	struct fcr_route_table *rt;
	struct fcr_binding_table *bt;
	struct fcr_redirect_table *rd;
	struct fcr_tables *t;
	struct rte_hash *h;
	struct rte_rcu_qsbr *q1, *q2;
	const char *parent = "";
	unsigned int i;
	int rc = 0;

	for (i = 1; i < (unsigned int)argc; i++) {
		unsigned long v;

		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			usage(stdout, argv[0]);
			return 0;
		}
		if (strncmp(argv[i], "--runs=", 7) == 0 &&
		    bench_parse_ul("--runs", argv[i] + 7, 1, BENCH_MAX_RUNS, &v) == 0)
			continue;
		if (strcmp(argv[i], "--runs") == 0 && i + 1 < (unsigned int)argc &&
		    bench_parse_ul("--runs", argv[i + 1], 1, BENCH_MAX_RUNS, &v) == 0) {
			i++;
			continue;
		}
		usage(stderr, argv[0]);
		return 2;
	}
	if (bench_eal_init("memory-bench", 2048, "0") < 0)
		return 2;
	q1 = make_qsbr(1);
	q2 = make_qsbr(2);

	/* each table alone */
	h0 = heap();
	h = rte_hash_create(&hp);
	h1 = heap();
	if (h == NULL)
		goto nomem;
	rte_hash_free(h);
	hash_bare = h1 - h0;

	flow_total = flow_table_heap("mb_f1", 1, q1);
	flow_total2 = flow_table_heap("mb_f2", 2, q2);
	flow_noq = flow_table_heap("mb_f0", 1, NULL);
	if (flow_total == 0 || flow_total2 == 0 || flow_noq == 0)
		goto nomem;

	add_row("flow table, 1 worker", "1,048,576 flows", flow_total,
		fcr_flow_table_memory(MAX_FLOWS, 1), 0);
	add_row("  its rte_hash (key 8 B, lock-free, ext.)", "1,048,576 keys",
		hash_bare, 0, 1);
	add_row("  its arrays (action, key, owner, free, counters)", "",
		flow_noq - hash_bare, fcr_flow_table_memory(MAX_FLOWS, 1), 1);
	add_row("  its RCU defer queue", "1,048,576 slots",
		flow_total - flow_noq, 0, 1);
	add_row("flow table, 2 workers", "1,048,576 flows", flow_total2,
		fcr_flow_table_memory(MAX_FLOWS, 2), 0);

	h0 = heap();
	rt = fcr_route_table_create("mb_rt", MAX_ROUTES, q1, 0);
	h1 = heap();
	if (rt == NULL)
		goto nomem;
	fcr_route_table_free(rt);
	add_row("route table (rte_lpm: tbl24 is 64 MB)", "4,096 routes", h1 - h0,
		fcr_route_table_memory(MAX_ROUTES), 0);
	sum += h1 - h0;

	h0 = heap();
	bt = fcr_binding_table_create("mb_nm", MAX_BINDINGS, NULL, 0);
	h1 = heap();
	if (bt == NULL)
		goto nomem;
	add_row("binding table (2 rte_hash + names)", "262,144 names",
		h1 - h0, 0, 0);
	sum += h1 - h0;
	h0 = heap();
	ft = fcr_flow_table_create("mb_f3", MAX_FLOWS, 1, NULL, 0);
	h1 = heap();
	rd = fcr_redirect_table_create("mb_rd", MAX_REDIRECTS, ft, bt, 0);
	h1 = heap() - (h1 - h0);
	if (rd == NULL || ft == NULL)
		goto nomem;
	add_row("redirect table (rte_hash + redirects)", "65,536 redirects",
		h1 - h0, 0, 0);
	sum += h1 - h0;
	fcr_redirect_table_free(rd);
	fcr_flow_table_free(ft);
	fcr_binding_table_free(bt);

	/* all of them, as the program creates them */
	tp.qsbr = q1;
	h0 = heap();
	c0 = c_heap();
	t = fcr_tables_create("mb", &tp);
	h1 = heap();
	if (t == NULL)
		goto nomem;
	all_create = h1 - h0;
	add_row("login pending hash (the rest)", "4,096 logins",
		all_create - sum - flow_total, 0, 0);
	add_row("all tables: fcr_tables_create", "", all_create, 0, 0);
	if (fill(t, nredir) < 0 || check_filled(t, nredir) < 0) {
		rc = 1;
		goto out;
	}
	fill_heap = heap() - h1;
	c1 = c_heap();
	fill_c = c1 > c0 ? c1 - c0 : 0;
	add_row("filled: EAL heap growth", "65,536 redirects + plain flows", fill_heap, 0, 0);
	add_row("filled: C heap growth (names' redirect lists)", "262,144 names",
		fill_c, 0, 0);
	total = all_create + fill_heap + fill_c;
	add_row("all tables, filled", "1,000,000 flows", total, 0, 0);

	printf("Memory at %u flows: every table at the program's default size "
	       "(app/options.c), measured\n(EAL heap: rte_malloc_get_socket_stats "
	       "allocated bytes; C heap: mallinfo2); B/flow = bytes / %u\n",
	       FLOWS, FLOWS);
	printf("%-46s %-18s %12s %8s %12s %9s\n", "what", "capacity", "MB",
	       "B/flow", "lib estimate", "measured/est");
	for (i = 0; i < nb_rows; i++) {
		const struct row *r = &rows[i];
		char est[32] = "", ratio[16] = "";

		if (r->estimate) {
			snprintf(est, sizeof(est), "%.1f MB", r->estimate / 1048576.0);
			snprintf(ratio, sizeof(ratio), "%.2fx",
				 (double)r->bytes / r->estimate);
		}
		printf("%-46s %-18s %12.1f %8.1f %12s %9s\n", r->name, r->capacity,
		       r->bytes / 1048576.0, (double)r->bytes / FLOWS, est, ratio);
	}
	/* sizes, not timings: no run-to-run spread */
	for (i = 0; i < nb_rows; i++) {
		const struct row *r = &rows[i];
		char name[128];

		if (r->indent)
			snprintf(name, sizeof(name), "%s: %s", parent,
				 r->name + strspn(r->name, " "));
		else
			parent = r->name;
		bench_result("memory", r->indent ? name : r->name,
			     (double)r->bytes / FLOWS, "B/flow",
			     r->estimate ? "library estimate" : NULL,
			     r->estimate ? (double)r->estimate / FLOWS : NAN,
			     r->estimate ? (double)r->bytes / r->estimate : NAN, NAN);
	}
	printf("fcr_flow_table_memory counts the flow table's own arrays, not its "
	       "rte_hash nor the RCU defer queue;\nfcr_route_table_memory counts "
	       "tbl24, the tbl8 groups and the route arrays.\n");
	printf("each further worker: +%.1f B/flow (its per-flow counters)\n",
	       (double)(flow_total2 - flow_total) / FLOWS);
	bench_result("memory", "flow table, each further worker",
		     (double)(flow_total2 - flow_total) / FLOWS, "B/flow", NULL,
		     NAN, NAN, NAN);
	printf("target: flow table only (1 worker) <= 256 B/flow: %.1f  %s\n",
	       (double)flow_total / FLOWS,
	       (double)flow_total / FLOWS <= 256 ? "PASS" : "MISS");
	printf("target: all tables, filled, at 1M flows <= 256 B/flow: %.1f  %s\n",
	       (double)total / FLOWS, (double)total / FLOWS <= 256 ? "PASS" :
	       "MISS");
out:
	fcr_tables_free(t);
	rte_eal_cleanup();
	/* Sizes never fail a benchmark: only wrong results do. */
	return rc;
nomem:
	fprintf(stderr, "out of memory: %s (raise -m)\n", rte_strerror(rte_errno));
	return 2;
}
