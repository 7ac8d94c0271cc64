/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * redirect-load-bench: what loading redirects through the tables lcore
 * costs per redirect at 25,000 and at 250,000 redirects (1,000,000 flow
 * rules): it must grow linearly, with no quadratic step (docs/benchmarks.md,
 * "What the references stand for": a switch that worked at 1,000 flows and
 * fell over past 2,000).
 *
 * One redirect = its four ports bound (fcr_tables_binding_add, static) and
 * the redirect added (fcr_redirect_add), which installs its four rules.
 * Two ways in, each into fresh tables of the program's default sizes
 * (app/options.c: 1,048,576 flows and names, 262,144 redirects, 4,096
 * routes; an RCU variable as app/main.c makes):
 *   api       the calls themselves
 *   commands  the lines a command file holds ("binding add vlan ...",
 *             "redirect add vlan ... host ... target ... vi ... vt ..."),
 *             parsed by fcr_cmd_parse against the program's own command
 *             table (app/commands.c, compiled into this benchmark, so a
 *             line is matched the way the program matches it) and run by
 *             the handler the program runs them with (fcr_config_run,
 *             lib/control/fcr_config.c). The lines are
 *             formatted before the clock starts; reading them from a file
 *             is not counted.
 * The reference is the same load at a tenth of the size, in the same run:
 * the ratio of the cost per redirect at 250,000 to that at 25,000 is the
 * figure; the 250,000 load is also timed in ten slices of 25,000, so a
 * step anywhere in it shows.
 *
 * Checked after every load: every call and line succeeded, the tables hold
 * 4 rules, 4 bound names and 1 active redirect per redirect, a sample of
 * rules carry the right rewrite.
 *
 * Exit status: 0 when all results are correct, whatever the timings; 1 on a
 * wrong result; 2 on a usage or set-up error.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdarg.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_malloc.h>
#include <rte_rcu_qsbr.h>

#include "bench_util.h"
#include "fcr_cmd.h"
#include "fcr_config.h"
#include "fcr_kind.h"
#include "fcr_tables.h"
#include "fcr_text.h"

#define VLAN 100
#define SLICES 10
static const uint32_t loads[] = { 25000, 250000 };
#define NLOADS RTE_DIM(loads)

/* app/options.c defaults */
#define MAX_REDIRECTS (1u << 18)
/* the entries of each of MAX_REDIRECTS (4 rules, 2 hidden pairs), and a spare set */
#define MAX_FLOWS (FCR_REDIRECT_KEYS * (MAX_REDIRECTS + 1))
#define MAX_BINDINGS (1u << 20)
#define MAX_ROUTES 4096u

/* The kinds' command rows: what a configuration file's lines match (the
 * program's own rows fail at their first word). */
static struct fcr_cmd_def defs[64];
static size_t nb_defs;

enum mode { M_API, M_CMD, NMODES };
static const char *const mode_names[NMODES] = { "api", "commands" };

static uint32_t
fcid_of(unsigned int role, uint32_t i)
{
	/* hosts, targets, VIs, VTs: each role in domains of its own */
	return (uint32_t)(0x10 + role * 0x10 + (i >> 16)) << 16 | (i & 0xFFFF);
}

static uint64_t
wwpn_of(unsigned int role, uint32_t i)
{
	return (uint64_t)(0x21 + role) << 56 | 0x0000240000000000ull | i;
}

/* ------------------------------------------------------------------ */
/* the command lines */

struct lines {
	char *buf;
	size_t *off; /* [nlines] */
	size_t cap, used;
	uint32_t n, max;
};

static int
lines_init(struct lines *l, uint32_t nredir)
{
	l->max = nredir * 5;
	l->cap = (size_t)l->max * 128;
	l->buf = malloc(l->cap);
	l->off = malloc(sizeof(*l->off) * l->max);
	return l->buf && l->off ? 0 : -1;
}

static void
lines_add(struct lines *l, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void
lines_add(struct lines *l, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(l->buf + l->used, l->cap - l->used, fmt, ap);
	va_end(ap);
	l->off[l->n++] = l->used;
	l->used += (size_t)n + 1;
}

/* What a command file for nredir redirects says, bindings first. */
static void
lines_format(struct lines *l, uint32_t nredir)
{
	char w[4][FCR_WWPN_STRLEN], f[FCR_FCID_STRLEN];
	uint32_t i, r;

	l->n = 0;
	l->used = 0;
	for (i = 0; i < nredir; i++) {
		for (r = 0; r < 4; r++) {
			fcr_wwpn_format(wwpn_of(r, i), w[r]);
			fcr_fcid_format(fcid_of(r, i), f);
			lines_add(l, "binding add vlan %u wwpn %s fcid %s\n", VLAN,
				  w[r], f);
		}
		lines_add(l, "redirect add vlan %u host %s target %s vi %s vt %s\n",
			  VLAN, w[0], w[1], w[2], w[3]);
	}
}

/* ------------------------------------------------------------------ */

static struct rte_rcu_qsbr *qsbr;

static struct fcr_tables *
tables_new(void)
{
	static unsigned int seq;
	struct fcr_tables_params tp = {
		.max_flows = MAX_FLOWS,
		.max_routes = MAX_ROUTES,
		.max_bindings = MAX_BINDINGS,
		.max_redirects = MAX_REDIRECTS,
		.nb_workers = 1,
		.qsbr = qsbr,
		.socket = 0,
	};
	char name[32];
	struct fcr_tables *t;

	snprintf(name, sizeof(name), "rl%u", seq++);
	t = fcr_tables_create(name, &tp);
	if (t == NULL) {
		fprintf(stderr, "cannot create the tables: %s (raise -m)\n",
			rte_strerror(rte_errno));
		exit(2);
	}
	return t;
}

/*
 * Load nredir redirects; slice[] gets the TSC ticks of each tenth.
 * Returns the number of failed calls or lines.
 */
static uint32_t
load(struct fcr_tables *t, enum mode mode, uint32_t nredir, struct lines *l,
     uint64_t slice[SLICES])
{
	uint32_t i, r, s, end, fail = 0, line = 0;
	char msg[FCR_CMD_MSG_LEN];
	struct fcr_cmd c;
	uint64_t t0, t1;

	for (s = 0, i = 0; s < SLICES; s++) {
		end = (uint32_t)((uint64_t)nredir * (s + 1) / SLICES);
		t0 = rte_rdtsc_precise();
		if (mode == M_API) {
			for (; i < end; i++) {
				for (r = 0; r < 4; r++)
					fail += fcr_tables_binding_add(t, VLAN,
						wwpn_of(r, i), fcid_of(r, i),
						FCR_BIND_STATIC) < 0;
				fail += fcr_redirect_add(t->redirects, VLAN,
					wwpn_of(0, i), wwpn_of(1, i),
					wwpn_of(2, i), wwpn_of(3, i)) < 0;
			}
		} else {
			for (; i < end; i++)
				for (r = 0; r < 5; r++, line++)
					fail += fcr_cmd_parse(defs, nb_defs,
						l->buf + l->off[line], &c, msg) != 1 ||
						fcr_config_run(t, &c, stderr) < 0;
		}
		t1 = rte_rdtsc_precise();
		slice[s] = t1 - t0;
	}
	return fail;
}

static int
check_loaded(const struct fcr_tables *t, uint32_t nredir, uint32_t fails,
	     const char *what)
{
	uint32_t i, errors = fails != 0;

	if (t->flows->count != nredir * FCR_REDIRECT_KEYS || t->redirects->nb_active != nredir ||
	    t->redirects->count != nredir || t->bindings->nb_bound != nredir * 4)
		errors++;
	for (i = 0; i < nredir; i += 101) {
		/* VT -> host: S_ID := target */
		int idx = fcr_flow_find(t->flows, fcr_flow_key(VLAN, fcid_of(3, i),
							       fcid_of(0, i)));

		if (idx < 0 || fcr_action_sid(t->flows->action[idx]) !=
			       fcid_of(1, i) ||
		    fcr_action_leg(t->flows->action[idx]) != FCR_LEG_VT_TO_HOST)
			errors++;
	}
	if (errors)
		fprintf(stderr, "FAIL: %s, %u redirects: %u calls failed; tables "
			"hold %u rules, %u redirects (%u active), %u bound names\n",
			what, nredir, fails, t->flows->count, t->redirects->count,
			t->redirects->nb_active, t->bindings->nb_bound);
	return errors ? -1 : 0;
}

static void
usage(FILE *f, const char *prog)
{
	fprintf(f,
		"usage: %s [--runs N] [--api-only]\n"
		"  --runs N     loads per figure, each into fresh tables; the median "
		"is shown (default 5, max %d)\n"
		"  --api-only   skip the command-line path\n", prog, BENCH_MAX_RUNS);
}

int
main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "runs", required_argument, NULL, 'r' },
		{ "api-only", no_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static double samples[NMODES][NLOADS][BENCH_MAX_RUNS];
	static double slice_samples[NMODES][SLICES][BENCH_MAX_RUNS];
	double med[NMODES][NLOADS], slice_med[NMODES][SLICES], hz, load0;
	unsigned long runs = 5;
	unsigned int nmodes = NMODES, m, n, r, s;
	struct lines lines;
	int opt, rc = 0;
	size_t qsz;

	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (opt) {
		case 'r':
			if (bench_parse_ul("--runs", optarg, 1, BENCH_MAX_RUNS, &runs))
				return 2;
			break;
		case 'a':
			nmodes = 1;
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
	nb_defs = fcr_kind_cmds(defs, RTE_DIM(defs));
	if (bench_eal_init("redirect-load-bench", 1024, "0") < 0 || nb_defs > RTE_DIM(defs))
		return 2;
	hz = (double)rte_get_tsc_hz();
	load0 = bench_loadavg();
	qsz = rte_rcu_qsbr_get_memsize(1);
	qsbr = rte_zmalloc("rl_qsbr", qsz, RTE_CACHE_LINE_SIZE);
	if (qsbr == NULL || rte_rcu_qsbr_init(qsbr, 1) != 0 ||
	    lines_init(&lines, loads[NLOADS - 1]) < 0) {
		fprintf(stderr, "set-up failed\n");
		return 2;
	}

	/* interleaved: each run loads every size in every mode */
	for (r = 0; r < runs; r++)
		for (n = 0; n < NLOADS; n++)
			for (m = 0; m < nmodes; m++) {
				uint64_t slice[SLICES], total = 0;
				struct fcr_tables *t = tables_new();
				uint32_t fails;
				char what[64];

				if (m == M_CMD)
					lines_format(&lines, loads[n]);
				fails = load(t, (enum mode)m, loads[n], &lines, slice);
				snprintf(what, sizeof(what), "%s run %u", mode_names[m],
					 r + 1);
				if (check_loaded(t, loads[n], fails, what) < 0)
					rc = 1;
				for (s = 0; s < SLICES; s++) {
					total += slice[s];
					if (n == NLOADS - 1)
						slice_samples[m][s][r] = (double)slice[s] /
							(loads[n] / SLICES);
				}
				samples[m][n][r] = (double)total / loads[n];
				fcr_tables_free(t);
			}
	if (rc)
		return rc;
	for (m = 0; m < nmodes; m++) {
		for (n = 0; n < NLOADS; n++)
			med[m][n] = bench_median(samples[m][n], (unsigned int)runs);
		for (s = 0; s < SLICES; s++)
			slice_med[m][s] = bench_median(slice_samples[m][s],
						       (unsigned int)runs);
	}

	printf("TSC: %.1f MHz (rte_get_tsc_hz); figures are TSC ticks\n", hz / 1e6);
	bench_print_load(load0);
	printf("\nLoading redirects through the tables lcore: 4 bindings + 1 redirect "
	       "(its 4 rules) each, into fresh tables of the\nprogram's default "
	       "sizes (TSC cycles per redirect, median of %lu runs)\n", runs);
	printf("%-10s", "way in");
	for (n = 0; n < NLOADS; n++)
		printf(" %10u %7s", loads[n], "us");
	printf(" %12s\n", "250K/25K");
	for (m = 0; m < nmodes; m++) {
		printf("%-10s", mode_names[m]);
		for (n = 0; n < NLOADS; n++)
			printf(" %10.0f %7.2f", med[m][n], med[m][n] / hz * 1e6);
		printf(" %11.2fx\n", med[m][NLOADS - 1] / med[m][0]);
	}
	if (nmodes == NMODES)
		printf("commands/api: %.2fx at 25K, %.2fx at 250K (the parser's "
		       "share: 5 lines per redirect)\n", med[M_CMD][0] / med[M_API][0],
		       med[M_CMD][NLOADS - 1] / med[M_API][NLOADS - 1]);
	printf("\nThe %u-redirect load in ten slices of %u (cycles per redirect; "
	       "tables filling from 0 to %u%% of the flows' capacity)\n",
	       loads[NLOADS - 1], loads[NLOADS - 1] / SLICES,
	       (unsigned)(100.0 * loads[NLOADS - 1] * FCR_REDIRECT_KEYS / MAX_FLOWS));
	printf("%-10s", "slice");
	for (s = 0; s < SLICES; s++)
		printf(" %7u", s + 1);
	printf(" %11s\n", "last/first");
	for (m = 0; m < nmodes; m++) {
		printf("%-10s", mode_names[m]);
		for (s = 0; s < SLICES; s++)
			printf(" %7.0f", slice_med[m][s]);
		printf(" %10.2fx\n", slice_med[m][SLICES - 1] / slice_med[m][0]);
	}
	/* bench_median sorted the samples: bench_spread reads them so */
	for (m = 0; m < nmodes; m++) {
		const unsigned int nr = (unsigned int)runs, nl = NLOADS - 1;
		char name[64], ref[64];

		snprintf(ref, sizeof(ref), "%s, %uK redirects", mode_names[m],
			 loads[0] / 1000);
		bench_result("redirect-load", ref, med[m][0], "cycles/redirect",
			     NULL, NAN, NAN, bench_spread(samples[m][0], nr, med[m][0]));
		snprintf(name, sizeof(name), "%s, %uK redirects (%uK / %uK)",
			 mode_names[m], loads[nl] / 1000, loads[nl] / 1000,
			 loads[0] / 1000);
		bench_result("redirect-load", name, med[m][nl], "cycles/redirect",
			     ref, med[m][0], med[m][nl] / med[m][0],
			     bench_spread(samples[m][nl], nr, med[m][nl]));
		snprintf(name, sizeof(name), "%s, %uK redirects, slice %u / slice 1",
			 mode_names[m], loads[nl] / 1000, SLICES);
		bench_result("redirect-load", name, slice_med[m][SLICES - 1],
			     "cycles/redirect", "the same load, slice 1",
			     slice_med[m][0], slice_med[m][SLICES - 1] / slice_med[m][0],
			     bench_spread(slice_samples[m][SLICES - 1], nr,
					  slice_med[m][SLICES - 1]));
	}
	for (n = 0; n < NLOADS && nmodes == NMODES; n++) {
		char name[64], ref[64];

		snprintf(name, sizeof(name), "commands, %uK redirects (commands / "
			 "api)", loads[n] / 1000);
		snprintf(ref, sizeof(ref), "api, %uK redirects", loads[n] / 1000);
		bench_result("redirect-load", name, med[M_CMD][n], "cycles/redirect",
			     ref, med[M_API][n], med[M_CMD][n] / med[M_API][n],
			     bench_spread(samples[M_CMD][n], (unsigned int)runs,
					  med[M_CMD][n]));
	}
	for (m = 0; m < nmodes; m++) {
		double x = med[m][NLOADS - 1] / med[m][0];

		printf("target: %s: cost per redirect at 250K within 2x of 25K "
		       "(linear): %.2fx  %s\n", mode_names[m], x,
		       x <= 2.0 ? "PASS" : "MISS");
	}
	rte_eal_cleanup();
	/* Timings never fail a benchmark: only wrong results do. */
	return 0;
}
