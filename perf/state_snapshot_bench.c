/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * state-snapshot-bench: what the state file (--state-file) costs the tables
 * lcore. While learned state changes, the tables lcore takes a snapshot
 * (fcr_state_snapshot: a pass over every binding slot, each learned binding
 * encoded, the CRC) at most every 200 ms and hands it to a writer thread;
 * the tables lcore does nothing else meanwhile (no event drained, no
 * command run, no sync tick), so the snapshot's time is a stall.
 *
 * Tables of the program's default size (262,144 binding slots) holding
 * 1,000, 100,000 and 262,144 learned bindings, and 1,000 in a table of
 * 1,048,576 slots (--max-bindings 1048576): the snapshot's time, median of
 * --runs (default 21) with its spread, against a reference measured in the
 * same run on the same table: one pass over the binding slots that only
 * counts the bound ones (the floor of any scan of the table). The share of
 * the tables lcore is the snapshot's time over the 200 ms period: the most
 * a snapshot takes while bindings change without pause.
 *
 * Checked: each snapshot decodes whole (fcr_state_header,
 * fcr_state_records) with the number of bindings put in.
 *
 * Exit status: 0 when all results are correct, whatever the times; 1 on a
 * wrong result; 2 on a usage or set-up error.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_eal.h>

#include "bench_util.h"
#include "fcr_binding.h"
#include "fcr_enode.h"
#include "fcr_state.h"
#include "fcr_state_snapshot.h"
#include "fcr_tables.h"

#define VLAN 100
#define PERIOD_MS 200.0 /* app/state_file.c, FCR_STATE_FILE_PERIOD_MS */
#define NODE "bench-node ports net_pcap0,net_pcap1,net_pcap2,net_pcap3"

struct cfg {
	uint32_t slots;
	uint32_t bound;
};

static const struct cfg cases[] = {
	{ 1u << 18, 1000 },
	{ 1u << 18, 100000 },
	{ 1u << 18, 1u << 18 },
	{ 1u << 20, 1000 },
};

static double
ms_since(uint64_t t0)
{
	return (double)(rte_rdtsc_precise() - t0) * 1000.0 / (double)rte_get_tsc_hz();
}

static struct fcr_tables *
filled(const struct cfg *c)
{
	struct fcr_tables_params tp = {
		.max_flows = 1024, .max_routes = 64, .max_bindings = c->slots,
		.max_redirects = 64, .nb_workers = 1, .socket = 0,
	};
	struct fcr_tables *t = fcr_tables_create("ssb", &tp);
	uint32_t i;

	if (t == NULL) {
		fprintf(stderr, "cannot create tables of %u bindings\n", c->slots);
		exit(2);
	}
	t->fabric_mask = 1u << 3;
	t->nb_ports = 4;
	t->fka_ms = 8000;
	for (i = 0; i < c->bound; i++) {
		/* FCIDs spread over domains and areas, as a fabric gives them */
		uint32_t fcid = ((i >> 16) + 1) << 16 | (i & 0xFFFF);
		uint8_t mac[6] = { 0x0e, 0xfc, 0x00, (uint8_t)(fcid >> 16),
				   (uint8_t)(fcid >> 8), (uint8_t)fcid };
		uint8_t emac[6] = { 0x52, 0x54, 0x00, (uint8_t)(i >> 16), (uint8_t)(i >> 8),
				    (uint8_t)i };

		if (fcr_tables_binding_restore(t, VLAN, 0x2000000000000000ull | i, fcid,
					       fcr_vn_pack(mac, i % 3),
					       fcr_enode_key(VLAN, emac), 0, 1) != 0) {
			fprintf(stderr, "binding %u of %u refused\n", i, c->bound);
			exit(2);
		}
	}
	return t;
}

/* The reference: one pass over the slots, counting the bound ones. */
static uint32_t
scan(const struct fcr_tables *t)
{
	const struct fcr_binding_table *bt = t->bindings;
	uint32_t n, k = 0;

	for (n = 0; n < bt->capacity; n++)
		k += bt->entry[n].in_use && bt->entry[n].fcid != FCR_FCID_NONE;
	return k;
}

static int
check(const uint8_t *buf, size_t len, const struct cfg *c)
{
	struct fcr_state_expect exp = { .node = NODE, .max_bindings = c->slots,
					.nb_ports = 4, .fabric_mask = 1u << 3 };
	struct fcr_state_info info;
	struct fcr_state_binding *b;
	struct fcr_state_fcf *f;
	char why[256];
	int rc;

	if (fcr_state_header(buf, len, &exp, &info, why, sizeof(why)) < 0) {
		fprintf(stderr, "snapshot refused: %s\n", why);
		return -1;
	}
	b = malloc(sizeof(*b) * (info.nb_bindings + 1));
	f = malloc(sizeof(*f) * (info.nb_fcfs + 1));
	rc = b != NULL && f != NULL &&
	     fcr_state_records(buf, len, &exp, &info, b, f, why, sizeof(why)) == 0 &&
	     info.nb_bindings == c->bound ? 0 : -1;
	if (rc < 0)
		fprintf(stderr, "snapshot of %u bindings: %u decoded (%s)\n", c->bound,
			info.nb_bindings, why);
	free(b);
	free(f);
	return rc;
}

int
main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "runs", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	double snap[BENCH_MAX_RUNS], ref[BENCH_MAX_RUNS];
	unsigned long runs = 21;
	unsigned int i, r;
	int o, bad = 0;

	while ((o = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (o == 'r') {
			if (bench_parse_ul("--runs", optarg, 1, BENCH_MAX_RUNS, &runs) < 0)
				return 2;
		} else {
			printf("usage: %s [--runs N (1..%d, default 21)]\n", argv[0],
			       BENCH_MAX_RUNS);
			return o == 'h' ? 0 : 2;
		}
	}
	if (bench_eal_init("state-snapshot-bench", 1024, "0") < 0)
		return 2;
	printf("state-snapshot-bench: the tables lcore's stall per state-file snapshot, "
	       "median of %lu (spread), against one pass over the binding slots\n\n", runs);
	printf("%-10s %-10s %12s %10s %12s %8s %14s %10s\n", "slots", "learned", "snapshot ms",
	       "spread", "scan ms", "ratio", "of 200 ms", "bytes");
	for (i = 0; i < RTE_DIM(cases); i++) {
		const struct cfg *c = &cases[i];
		struct fcr_tables *t = filled(c);
		uint8_t *buf = NULL;
		size_t cap = 0, len = 0;
		double ms, rms, spread;
		char name[64];
		volatile uint32_t sink = 0;

		for (r = 0; r < runs; r++) {
			uint64_t t0 = rte_rdtsc_precise();

			sink += scan(t);
			ref[r] = ms_since(t0);
			t0 = rte_rdtsc_precise();
			len = fcr_state_snapshot(t, NODE, 1700000000, &buf, &cap);
			snap[r] = ms_since(t0);
			if (len == 0) {
				fprintf(stderr, "snapshot failed\n");
				return 2;
			}
		}
		(void)sink;
		if (check(buf, len, c) < 0)
			bad = 1;
		ms = bench_median(snap, (unsigned int)runs);
		spread = bench_spread(snap, (unsigned int)runs, ms);
		rms = bench_median(ref, (unsigned int)runs);
		printf("%-10u %-10u %12.2f %9.0f%% %12.2f %7.1fx %13.2f%% %10zu\n", c->slots,
		       c->bound, ms, spread * 100, rms, ms / rms, ms / PERIOD_MS * 100, len);
		snprintf(name, sizeof(name), "snapshot %u learned of %u slots", c->bound,
			 c->slots);
		bench_result("state-snapshot", name, ms, "ms", "scan of the slots", rms,
			     ms / rms, spread);
		free(buf);
		fcr_tables_free(t);
	}
	return bad;
}
