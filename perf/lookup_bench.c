/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lookup-bench: the flow lookup against the linked list it replaces
 * (docs/benchmarks.md, "What the references stand for": lookups at 12,000
 * flows from about 120 us to under 2 us).
 *
 *   list         a plain singly linked list of flow entries, as the naive
 *                switch code kept them: one malloc'd node per flow (next,
 *                key, action, owner, counters: one 64-byte line), new flows
 *                pushed at the head, a lookup walks from the head comparing
 *                the uint64 key of fcr_flow_key(). Allocated in insertion
 *                order, the nodes sit almost back to back, so the hardware
 *                prefetcher runs ahead of the walk: the generous reference,
 *                and the one the targets are judged against.
 *   scattered    the same list with its nodes where a long-lived heap
 *                leaves them: linked in an order unrelated to their
 *                addresses, so every step is a load the prefetcher cannot
 *                guess (closer to the story's 120 us at 12,000 flows).
 *   find(1)      fcr_flow_find: one key per rte_hash call (the tables lcore's)
 *   bulk N       fcr_flow_lookup_bulk with N keys per call: the worker's
 *                call (its burst is 32 by default)
 *
 * All see the same keys: uniformly random draws from the inserted set. The
 * flow table is created for exactly the flows it holds, as --max-flows
 * would size it, so its rte_hash is 73-98% full (95% at 1,000,000 flows).
 * The list is timed on every flow's worth of lookups up to 12K flows; at
 * 100K and 1M flows a lookup walks 50K / 500K nodes on average, so it is
 * timed on a sample (--list-budget node visits per loop). The scattered
 * list, a cache miss per node, is always sampled (a tenth of that budget,
 * at least 10 lookups) and timed in 3 runs only. The table says which
 * figures are sampled.
 *
 * Each timed loop of the table takes its keys from a different slice of a
 * long random stream (16 MB of keys), so a loop does not find the previous
 * loop's buckets in the cache: at 1M flows the table (~100 MB) is far
 * larger than the last-level cache and most lookups miss it, as they
 * would in the dataplane.
 *
 * Before timing, every inserted key is looked up through the table (bulk
 * and single) and must give its own entry, a spread sample through both
 * lists, and keys never inserted must miss everywhere; during timing every
 * lookup must hit (the hit-rate check).
 *
 * Exit status: 0 when all results are correct, whatever the timings; 1 on a
 * wrong result; 2 on a usage or set-up error.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_hash.h>

#include "bench_util.h"
#include "fcr_flow.h"

static const uint32_t sizes[] = { 1000, 12000, 100000, 1000000 };
#define NSIZES RTE_DIM(sizes)
static const unsigned int bulks[] = { 8, 16, 32 };
#define NBULKS RTE_DIM(bulks)
#define WORKER_BURST 32 /* the worker's default burst: the target's figure */
#define LIST_FULL_MAX 12000 /* up to here, the list is not sampled */

enum method { M_LIST, M_SCAT, M_FIND, M_BULK0, NMETHODS = M_BULK0 + NBULKS };
#define NLISTS 2 /* M_LIST, M_SCAT */

/* ------------------------------------------------------------------ */
/* the reference: the naive switch's linked list */

struct list_node {
	struct list_node *next;
	uint64_t key;
	uint64_t action;
	uint32_t owner;
	struct fcr_flow_counters c;
};

struct flow_list {
	struct list_node *head;
	uint32_t count;
	struct list_node *block; /* scattered list: all nodes, one allocation */
};

static int
list_add(struct flow_list *l, uint64_t key, uint64_t action)
{
	struct list_node *n = calloc(1, sizeof(*n));

	if (n == NULL)
		return -1;
	n->key = key;
	n->action = action;
	n->owner = FCR_NO_OWNER;
	n->next = l->head;
	l->head = n;
	l->count++;
	return 0;
}

static __attribute__((noinline)) struct list_node *
list_find(const struct flow_list *l, uint64_t key)
{
	struct list_node *n;

	for (n = l->head; n != NULL; n = n->next)
		if (n->key == key)
			return n;
	return NULL;
}

/*
 * The same flows with the nodes where a long-lived heap leaves them: each
 * in a cache line of its own, linked in an order unrelated to their
 * addresses (a random permutation of one block), so every step of the walk
 * is a dependent load the prefetcher cannot guess.
 */
static int
list_build_scattered(struct flow_list *l, const uint64_t *keys, uint32_t n,
		     struct bench_rng *rng)
{
	uint32_t *perm = malloc(sizeof(*perm) * n), i;

	l->block = aligned_alloc(64, RTE_ALIGN_CEIL(sizeof(*l->block) * n, 64));
	if (perm == NULL || l->block == NULL) {
		free(perm);
		return -1;
	}
	memset(l->block, 0, sizeof(*l->block) * n);
	for (i = 0; i < n; i++)
		perm[i] = i;
	bench_shuffle_u32(rng, perm, n);
	/* the same order as the other list: newest first */
	l->head = NULL;
	for (i = 0; i < n; i++) {
		struct list_node *e = &l->block[perm[i]];

		e->key = keys[i];
		e->owner = FCR_NO_OWNER;
		e->next = l->head;
		l->head = e;
	}
	l->count = n;
	free(perm);
	return 0;
}

static void
list_free(struct flow_list *l)
{
	struct list_node *n = l->head, *next;

	if (l->block != NULL) {
		free(l->block);
	} else {
		while (n != NULL) {
			next = n->next;
			free(n);
			n = next;
		}
	}
	l->head = NULL;
	l->block = NULL;
	l->count = 0;
}

_Static_assert(sizeof(struct list_node) == 64, "a list node is one line");

/* ------------------------------------------------------------------ */

static volatile uint64_t sink;

struct size_result {
	uint32_t flows;
	uint32_t slots;                /* rte_hash key slots: flows rounded up */
	uint32_t list_lookups[NLISTS]; /* per run */
	unsigned int list_runs[NLISTS];
	double med[NMETHODS];
	double spread[NMETHODS];
	uint64_t lookups, hits;
	int measured;
};

static uint64_t
random_key(struct bench_rng *r)
{
	uint64_t v = bench_rand(r);

	/* a handful of VLANs (VSANs), any S_ID and D_ID */
	return fcr_flow_key((uint16_t)(100 + (v >> 60)), (uint32_t)(v >> 24),
			    (uint32_t)v);
}

static double
time_list(const struct flow_list *l, const uint64_t *keys, uint32_t n,
	  uint64_t *found)
{
	uint64_t t0, t1, acc = 0, hit = 0;
	uint32_t i;

	t0 = rte_rdtsc_precise();
	for (i = 0; i < n; i++) {
		const struct list_node *e = list_find(l, keys[i]);

		hit += e != NULL;
		acc += (uintptr_t)e;
	}
	t1 = rte_rdtsc_precise();
	sink = acc;
	*found += hit;
	return (double)(t1 - t0) / n;
}

static double
time_find(const struct fcr_flow_table *ft, const uint64_t *keys, uint32_t n,
	  uint64_t *found)
{
	uint64_t t0, t1, acc = 0, hit = 0;
	uint32_t i;
	int idx;

	t0 = rte_rdtsc_precise();
	for (i = 0; i < n; i++) {
		idx = fcr_flow_find(ft, keys[i]);
		hit += idx >= 0;
		acc += (uint64_t)idx;
	}
	t1 = rte_rdtsc_precise();
	sink = acc;
	*found += hit;
	return (double)(t1 - t0) / n;
}

static double
time_bulk(const struct fcr_flow_table *ft, const uint64_t *keys, uint32_t n,
	  unsigned int bulk, uint64_t *found)
{
	uint32_t idx[64];
	uint64_t t0, t1, acc = 0, hit = 0;
	uint32_t i;

	n -= n % bulk;
	t0 = rte_rdtsc_precise();
	for (i = 0; i < n; i += bulk) {
		hit += fcr_flow_lookup_bulk(ft, keys + i, bulk, idx);
		acc += idx[0] + idx[bulk - 1];
	}
	t1 = rte_rdtsc_precise();
	sink = acc;
	*found += hit;
	return (double)(t1 - t0) / n;
}

/* Every inserted key through the table, a spread sample through the lists;
 * keys never inserted miss everywhere. */
static int
check(const struct fcr_flow_table *ft, const struct flow_list *lists,
      const uint64_t *keys, const uint32_t *expect_idx, uint32_t nflows,
      struct bench_rng *rng)
{
	uint32_t idx[32], i, j, n, l, errors = 0;
	uint64_t miss[32];

	for (i = 0; i < nflows; i += n) {
		n = RTE_MIN(32u, nflows - i);
		if (fcr_flow_lookup_bulk(ft, keys + i, n, idx) != n)
			errors++;
		for (j = 0; j < n; j++)
			if (idx[j] != expect_idx[i + j] ||
			    fcr_flow_find(ft, keys[i + j]) != (int)expect_idx[i + j])
				errors++;
	}
	for (i = 0; i < 32; i++) {
		/* random keys are absent with overwhelming probability;
		 * those that are not are drawn again */
		do
			miss[i] = random_key(rng);
		while (fcr_flow_find(ft, miss[i]) >= 0);
	}
	if (fcr_flow_lookup_bulk(ft, miss, 32, idx) != 0)
		errors++;
	for (i = 0; i < 32; i++)
		if (idx[i] != FCR_FLOW_NONE)
			errors++;
	/* every key when small; an even sample when large (checking all of
	 * 1M keys would walk 5e11 nodes) */
	for (l = 0; l < NLISTS; l++) {
		uint32_t nchk = RTE_MIN(nflows, nflows <= LIST_FULL_MAX ?
					(l == 0 ? 2000u : 200u) : 10u);

		if (lists[l].count != nflows)
			errors++;
		for (i = 0; i < nchk; i++) {
			uint32_t k = (uint32_t)((uint64_t)i * nflows / nchk);
			const struct list_node *e = list_find(&lists[l], keys[k]);

			if (e == NULL || e->key != keys[k])
				errors++;
		}
		if (list_find(&lists[l], miss[l]) != NULL)
			errors++;
	}
	if (errors)
		fprintf(stderr, "FAIL: %u flows: %u lookup results wrong\n",
			nflows, errors);
	return errors ? -1 : 0;
}

static void
usage(FILE *f, const char *prog)
{
	fprintf(f,
		"usage: %s [--runs N] [--lookups N] [--list-budget N] "
		"[--max-flows N] [--no-thp]\n"
		"  --runs N         timed loops per figure; the median is shown "
		"(default 11, max %d)\n"
		"  --lookups N      table lookups per timed loop (default 131072)\n"
		"  --list-budget N  list nodes visited per sampled list loop "
		"(default 25000000;\n"
		"                   a tenth of it for the scattered list)\n"
		"  --max-flows N    skip table sizes above N (1000, 12000, 100000, "
		"1000000)\n"
		"  --no-thp         table on the EAL heap's 4 KB pages instead of "
		"transparent\n"
		"                   huge pages\n", prog, BENCH_MAX_RUNS);
}

/* Lookups per list loop: every flow's worth up to 12K flows (at least
 * 16K), else the budget's worth, at least 10; never more than the stream. */
static uint32_t
list_lookups(unsigned long budget, uint32_t nflows, unsigned long stream,
	     int sampled_only)
{
	unsigned long nl = budget / RTE_MAX(nflows / 2, 1u);

	if (nflows <= LIST_FULL_MAX && !sampled_only)
		nl = RTE_MAX(nflows, 16384u);
	if (nl < 10)
		nl = 10;
	return (uint32_t)RTE_MIN(nl, stream / 2);
}

#define SCATTERED_RUNS 3u

static const char *const method_names[NMETHODS] = {
	"list", "scattered", "find(1)", "bulk8", "bulk16", "bulk32",
};

int
main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "runs", required_argument, NULL, 'r' },
		{ "lookups", required_argument, NULL, 'l' },
		{ "list-budget", required_argument, NULL, 'b' },
		{ "max-flows", required_argument, NULL, 'm' },
		{ "no-thp", no_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static double samples[NMETHODS][BENCH_MAX_RUNS];
	struct size_result res[NSIZES];
	unsigned long runs = 11, lookups = 1u << 17, budget = 25000000,
		      max_flows = 1000000;
	struct bench_rng rng = { 0x9E3779B97F4A7C15ull };
	double hz, worst_spread = 0, load0;
	int opt, thp = 1, rc = 0, sock, verbose = getenv("BENCH_VERBOSE") != NULL;
	unsigned int s, m, r, b, l, worst_m = 0, worst_s = 0;

	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (opt) {
		case 'r':
			if (bench_parse_ul("--runs", optarg, 1, BENCH_MAX_RUNS, &runs))
				return 2;
			break;
		case 'l':
			if (bench_parse_ul("--lookups", optarg, 1024, 1ul << 26, &lookups))
				return 2;
			break;
		case 'b':
			if (bench_parse_ul("--list-budget", optarg, 8000, 1ul << 40, &budget))
				return 2;
			break;
		case 'm':
			if (bench_parse_ul("--max-flows", optarg, 1, 1ul << 30, &max_flows))
				return 2;
			break;
		case 'T':
			thp = 0;
			break;
		case 'h':
			usage(stdout, argv[0]);
			return 0;
		default:
			usage(stderr, argv[0]);
			return 2;
		}
	}
	if (optind != argc) {
		usage(stderr, argv[0]);
		return 2;
	}
	lookups -= lookups % 64;
	if (bench_eal_init("lookup-bench", thp ? 256 : 1536, "0,1") < 0)
		return 2;
	sock = bench_memory_socket("lookup-bench", 1024, thp);
	hz = (double)rte_get_tsc_hz();
	load0 = bench_loadavg();
	memset(res, 0, sizeof(res));

	for (s = 0; s < NSIZES; s++) {
		struct size_result *sr = &res[s];
		uint32_t nflows = sizes[s], i, *expect_idx;
		uint64_t *keys, *stream, list_found[NLISTS] = { 0, 0 }, dummy = 0;
		uint64_t nstream = RTE_MAX(lookups * 4, 1ul << 21);
		struct flow_list lists[NLISTS];
		struct fcr_flow_table *ft;
		char name[32];

		sr->flows = nflows;
		if (nflows > max_flows)
			continue;
		memset(lists, 0, sizeof(lists));
		snprintf(name, sizeof(name), "lb%u", s);
		ft = fcr_flow_table_create(name, nflows, 1, NULL, sock);
		keys = malloc(sizeof(*keys) * nflows);
		expect_idx = malloc(sizeof(*expect_idx) * nflows);
		stream = malloc(sizeof(*stream) * nstream);
		if (ft == NULL || !keys || !expect_idx || !stream) {
			fprintf(stderr, "out of memory at %u flows (%s)\n", nflows,
				rte_strerror(rte_errno));
			return 2;
		}
		/* unique keys, in the table and in the list */
		for (i = 0; i < nflows; i++) {
			uint64_t k;
			int idx;

			do
				k = random_key(&rng);
			while (fcr_flow_find(ft, k) >= 0);
			idx = fcr_flow_set(ft, k, fcr_action(fcr_flow_key_sid(k),
				fcr_flow_key_did(k), FCR_LEG_PLAIN), FCR_NO_OWNER);
			if (idx < 0 || list_add(&lists[0], k, 0) < 0) {
				fprintf(stderr, "FAIL: insert %u of %u flows: %d\n",
					i, nflows, idx);
				return 1;
			}
			keys[i] = k;
			expect_idx[i] = (uint32_t)idx;
		}
		if (list_build_scattered(&lists[1], keys, nflows, &rng) < 0) {
			fprintf(stderr, "out of memory at %u flows\n", nflows);
			return 2;
		}
		if (ft->count != nflows) {
			fprintf(stderr, "FAIL: %u flows inserted, table holds %u\n",
				nflows, ft->count);
			return 1;
		}
		if (check(ft, lists, keys, expect_idx, nflows, &rng) < 0)
			return 1;
		/* the lookup stream: uniform over the inserted flows */
		for (i = 0; i < nstream; i++)
			stream[i] = keys[bench_rand_below(&rng, nflows)];
		sr->slots = rte_align32pow2(nflows);
		sr->list_lookups[0] = list_lookups(budget, nflows, nstream, 0);
		sr->list_lookups[1] = list_lookups(budget / 10, nflows, nstream, 1);
		sr->list_runs[0] = (unsigned int)runs;
		sr->list_runs[1] = RTE_MIN((unsigned int)runs, SCATTERED_RUNS);

		/* warm up: one loop of each, not counted (the lists only when
		 * a loop is short) */
		for (l = 0; l < NLISTS; l++)
			if (nflows <= LIST_FULL_MAX)
				time_list(&lists[l], stream, sr->list_lookups[l],
					  &dummy);
		time_find(ft, stream, lookups, &dummy);
		for (b = 0; b < NBULKS; b++)
			time_bulk(ft, stream, lookups, bulks[b], &dummy);
		/* interleaved, so a burst of noise from the other tenants of
		 * this machine lands on one sample of several figures; each
		 * loop reads its own slice of the stream */
		for (r = 0; r < runs; r++) {
			for (m = 0; m < NMETHODS; m++) {
				uint32_t n = m < NLISTS ? sr->list_lookups[m] :
					     (uint32_t)lookups;
				const uint64_t *k = stream +
					((uint64_t)(r * NMETHODS + m) * lookups) %
					(nstream - n + 1);

				if (m < NLISTS) {
					if (r < sr->list_runs[m])
						samples[m][r] = time_list(&lists[m],
							k, n, &list_found[m]);
				} else if (m == M_FIND) {
					samples[m][r] = time_find(ft, k, n,
								  &sr->hits);
					sr->lookups += n;
				} else {
					b = m - M_BULK0;
					samples[m][r] = time_bulk(ft, k, n,
						bulks[b], &sr->hits);
					sr->lookups += n - n % bulks[b];
				}
			}
		}
		if (sr->hits != sr->lookups) {
			fprintf(stderr, "FAIL: %u flows: %" PRIu64 " of %" PRIu64
				" table lookups hit; every key was inserted\n",
				nflows, sr->hits, sr->lookups);
			rc = 1;
		}
		for (l = 0; l < NLISTS; l++)
			if (list_found[l] != (uint64_t)sr->list_lookups[l] *
					     sr->list_runs[l]) {
				fprintf(stderr, "FAIL: %u flows: %" PRIu64 " of %"
					PRIu64 " %s lookups found their key\n",
					nflows, list_found[l],
					(uint64_t)sr->list_lookups[l] *
					sr->list_runs[l], method_names[l]);
				rc = 1;
			}
		for (m = 0; m < NMETHODS; m++) {
			unsigned int nr = m < NLISTS ? sr->list_runs[m] :
				(unsigned int)runs;

			if (verbose) {
				printf("%u flows, %s:", nflows, method_names[m]);
				for (r = 0; r < nr; r++)
					printf(" %.1f", samples[m][r]);
				printf("\n");
			}
			sr->med[m] = bench_median(samples[m], nr);
			sr->spread[m] = bench_spread(samples[m], nr, sr->med[m]);
			if (m != M_SCAT && sr->spread[m] > worst_spread) {
				worst_spread = sr->spread[m];
				worst_m = m;
				worst_s = s;
			}
		}
		sr->measured = 1;
		for (l = 0; l < NLISTS; l++)
			list_free(&lists[l]);
		fcr_flow_table_free(ft);
		free(keys);
		free(expect_idx);
		free(stream);
	}

	bench_print_env();
	bench_print_load(load0);
	printf("\nFlow lookup: linked list (the story's reference) vs fcr_flow_table "
	       "(TSC cycles per lookup, median of %lu runs)\n"
	       "uniformly random keys from the inserted flows; table sized for "
	       "its flows (load = flows / hash slots); %lu table lookups per loop\n",
	       runs, lookups);
	printf("%-8s %5s %11s %-17s %11s %-14s %8s %7s %7s %7s\n", "flows", "load",
	       "list", "  lookups/run", "scattered", "  lookups/run", "find(1)",
	       "bulk8", "bulk16", "bulk32");
	for (s = 0; s < NSIZES; s++) {
		const struct size_result *sr = &res[s];
		char nl[NLISTS][32];

		if (!sr->measured) {
			printf("%-8u (skipped: --max-flows)\n", sr->flows);
			continue;
		}
		for (l = 0; l < NLISTS; l++)
			snprintf(nl[l], sizeof(nl[l]), "%u %s", sr->list_lookups[l],
				 sr->list_lookups[l] >= sr->flows ? "(all)" :
				 "(sampled)");
		printf("%-8u %4.0f%% %11.0f   %-15s %11.0f   %-12s %8.1f %7.1f "
		       "%7.1f %7.1f\n", sr->flows, 100.0 * sr->flows / sr->slots,
		       sr->med[M_LIST], nl[0], sr->med[M_SCAT], nl[1],
		       sr->med[M_FIND], sr->med[M_BULK0], sr->med[M_BULK0 + 1],
		       sr->med[M_BULK0 + 2]);
	}
	printf("(all): at least as many list lookups per run as flows. (sampled): "
	       "fewer random lookups, an estimate of\nthe mean walk of flows/2 "
	       "nodes (a lookup of every flow would take hours at 1M flows). The "
	       "scattered list:\nmedian of %u runs, information only (the targets "
	       "are judged against the faster list).\n",
	       RTE_MIN((unsigned int)runs, SCATTERED_RUNS));

	printf("\nRatio: list / table (how many times faster the table is)\n");
	printf("%-8s %12s %12s %12s %12s %14s\n", "flows", "list/find",
	       "list/bulk8", "list/bulk16", "list/bulk32", "scatt/bulk32");
	for (s = 0; s < NSIZES; s++) {
		const struct size_result *sr = &res[s];

		if (!sr->measured)
			continue;
		printf("%-8u %11.0fx %11.0fx %11.0fx %11.0fx %13.0fx\n", sr->flows,
		       sr->med[M_LIST] / sr->med[M_FIND],
		       sr->med[M_LIST] / sr->med[M_BULK0],
		       sr->med[M_LIST] / sr->med[M_BULK0 + 1],
		       sr->med[M_LIST] / sr->med[M_BULK0 + 2],
		       sr->med[M_SCAT] / sr->med[M_BULK0 + 2]);
	}
	for (s = 0; s < NSIZES; s++) {
		const struct size_result *sr = &res[s];
		const unsigned int bk = M_BULK0 + NBULKS - 1;
		char fl[16], name[64];

		if (!sr->measured)
			continue;
		snprintf(fl, sizeof(fl), "%u%s flows", sr->flows % 1000000 ?
			 sr->flows / 1000 : sr->flows / 1000000,
			 sr->flows % 1000000 ? "K" : "M");
		snprintf(name, sizeof(name), "%s: bulk%u (list / table)", fl,
			 WORKER_BURST);
		bench_result("lookup", name, sr->med[bk], "cycles/lookup",
			     "linked list", sr->med[M_LIST],
			     sr->med[M_LIST] / sr->med[bk], sr->spread[bk]);
		snprintf(name, sizeof(name), "%s: bulk%u (scattered list / table)",
			 fl, WORKER_BURST);
		bench_result("lookup", name, sr->med[bk], "cycles/lookup",
			     "linked list, nodes scattered", sr->med[M_SCAT],
			     sr->med[M_SCAT] / sr->med[bk], sr->spread[bk]);
		snprintf(name, sizeof(name), "%s: find(1) (list / table)", fl);
		bench_result("lookup", name, sr->med[M_FIND], "cycles/lookup",
			     "linked list", sr->med[M_LIST],
			     sr->med[M_LIST] / sr->med[M_FIND], sr->spread[M_FIND]);
	}
	for (s = 0; s < NSIZES; s++)
		if (res[s].measured)
			printf("hit rate at %7u flows: %" PRIu64 "/%" PRIu64
			       " table lookups hit (100%% expected: every key "
			       "drawn was inserted)\n", res[s].flows, res[s].hits,
			       res[s].lookups);
	printf("noise: widest run-to-run spread, %s, = %.0f%% of the median "
	       "(%s at %u flows)\n",
	       runs >= 5 ? "2nd-slowest minus 2nd-fastest" :
	       "slowest minus fastest", worst_spread * 100,
	       method_names[worst_m], res[worst_s].flows);

	for (s = 0; s < NSIZES; s++) {
		const struct size_result *sr = &res[s];
		double bulk = sr->med[M_BULK0 + NBULKS - 1];

		if (!sr->measured)
			continue;
		if (sr->flows == 12000) {
			printf("in time at 12,000 flows: list %.1f us per lookup, "
			       "scattered %.1f us (story: ~120 us); table %.3f us "
			       "(story: < 2 us)\n", sr->med[M_LIST] / hz * 1e6,
			       sr->med[M_SCAT] / hz * 1e6, bulk / hz * 1e6);
			printf("target: at 12K flows >= 1000x faster than the list "
			       "(bulk %u): %.0fx  %s  (scattered list: %.0fx %s)\n",
			       WORKER_BURST, sr->med[M_LIST] / bulk,
			       sr->med[M_LIST] / bulk >= 1000 ? "PASS" : "MISS",
			       sr->med[M_SCAT] / bulk,
			       sr->med[M_SCAT] / bulk >= 1000 ? "PASS" : "MISS");
		}
		if (sr->flows == 1000000)
			printf("target: at 1M flows, uniformly random keys, <= 250 "
			       "cycles per lookup (bulk %u): %.1f  %s\n",
			       WORKER_BURST, bulk, bulk <= 250 ? "PASS" : "MISS");
	}
	rte_eal_cleanup();
	/* Timings never fail a benchmark: only wrong results do. */
	return rc;
}
