/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * crc-bench: what the FC CRC costs per frame when a rewrite of D_ID/S_ID
 * recomputes it over the whole frame, against folding the change into the
 * stored CRC (fcr_crc_update_ids). Two no-SIMD references run alongside so
 * the figures are read as ratios within one run (docs/benchmarks.md, "How
 * the figures are measured"):
 *
 *   full(rte_net_crc)  fcr_crc_calc over the FC frame (header + payload)
 *   full(byte table)   the classic one-byte-at-a-time table loop
 *   incremental        fcr_crc_update_ids, new D_ID and S_ID every frame
 *   incr(scalar mul)   the same update with the multiply by x^(8n) done by
 *                      fcr_crc_mulmod_ref (bit by bit, no PCLMULQDQ): what
 *                      fcr_crc_update_ids costs on a CPU without it
 *
 * Every timed loop walks a pool of POOL random frames (a different one each
 * iteration, laid out as they would sit behind the Ethernet and FCoE headers
 * in a receive buffer), the IDs written change every iteration, and by
 * default each iteration's input depends on the previous iteration's result,
 * so a figure is the latency of one call and nothing can be hoisted, merged
 * or dropped. Results go into a volatile sink. Before any timing every frame
 * of every pool is checked: all four paths must agree with each other and
 * with a frame that was actually rewritten and recomputed.
 *
 * No EAL: the library picks its CRC paths itself (fcr_crc_init), and the
 * TSC frequency is calibrated here against CLOCK_MONOTONIC_RAW because
 * rte_get_tsc_hz() is only set by rte_eal_init().
 *
 * Exit status: 0 when all results are correct, whatever the timings (this
 * is a benchmark, it never fails on time); 1 on a correctness failure; 2 on
 * a usage error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_cycles.h>

#include "bench_util.h"
#include "fcr_crc.h"
#include "fcr_fcoe.h"

#define POOL 64        /* frames per size; a power of two */
#define NIDS 256       /* (D_ID, S_ID) pairs cycled through; a power of two */
#define FC_OFF 28      /* FC frame offset in a buffer: Ethernet + FCoE header */
#define MAX_RUNS 101

static const uint32_t payloads[] = { 0, 512, 1024, 2112 };
#define NSIZES (sizeof(payloads) / sizeof(payloads[0]))

enum method { M_FULL, M_TABLE, M_INCR, M_INCR_REF, M_EMPTY, NMETHODS };
static const char *const method_names[NMETHODS] = {
	"full(rte_net_crc)", "full(byte table)", "incremental",
	"incr(scalar mul)", "harness",
};

/* What the parser hands the rewrite step: it has already read these. */
struct frame_meta {
	const uint8_t *fc; /* start of the FC frame (R_CTL) */
	uint32_t fc_len;
	uint32_t crc;      /* stored CRC */
	uint32_t did, sid;
};

struct pool {
	uint32_t payload, fc_len;
	uint8_t *buf; /* POOL slots of `stride` bytes, 64-byte aligned */
	size_t stride;
	struct frame_meta meta[POOL];
};

static struct pool pools[NSIZES];
static struct { uint32_t did, sid; } new_ids[NIDS];

/* The reference and scalar-update tables, built here from the polynomial
 * so nothing in them is borrowed from the code under test. */
static uint32_t tab[8][256];
static uint32_t ref_x_pow[FCR_FC_MAX_LEN / 4 + 1];

static volatile uint32_t sink;
static int chained_v = 1; /* --independent clears it */

/* xorshift64*: deterministic, so every run times the same frames */
static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint64_t
rng(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545F4914F6CDD1Dull;
}

static void
build_ref_tables(void)
{
	uint32_t i, k, c;

	for (i = 0; i < 256; i++) {
		c = i;
		for (k = 0; k < 8; k++)
			c = (c & 1) ? (c >> 1) ^ 0xEDB88320u : c >> 1;
		tab[0][i] = c;
	}
	for (k = 1; k < 8; k++)
		for (i = 0; i < 256; i++)
			tab[k][i] = (tab[k - 1][i] >> 8) ^
				    tab[0][tab[k - 1][i] & 0xFF];
	/* x^(32q) mod P, reflected: x^0 is bit 31; each step feeds four zero
	 * bytes one at a time through the byte table. */
	ref_x_pow[0] = 0x80000000u;
	for (i = 1; i < RTE_DIM(ref_x_pow); i++) {
		c = ref_x_pow[i - 1];
		for (k = 0; k < 4; k++)
			c = (c >> 8) ^ tab[0][c & 0xFF];
		ref_x_pow[i] = c;
	}
}

/* The no-SIMD full CRC: one table look-up per byte. */
static __attribute__((noinline)) uint32_t
crc_byte_table(const uint8_t *p, uint32_t len)
{
	uint32_t c = 0xFFFFFFFFu;

	while (len--)
		c = (c >> 8) ^ tab[0][(c ^ *p++) & 0xFF];
	return ~c;
}

/* fcr_crc_update_ids with the multiplication done by fcr_crc_mulmod_ref,
 * i.e. the library's path on a CPU without PCLMULQDQ. */
static __attribute__((noinline)) uint32_t
update_ids_scalar(uint32_t crc, uint32_t fc_len, uint32_t old_did,
		  uint32_t new_did, uint32_t old_sid, uint32_t new_sid)
{
	uint32_t dd = (old_did ^ new_did) & FCR_FCID_MASK;
	uint32_t sd = (old_sid ^ new_sid) & FCR_FCID_MASK;
	uint32_t r;

	r = tab[6][dd >> 16] ^ tab[5][(dd >> 8) & 0xFF] ^ tab[4][dd & 0xFF] ^
	    tab[2][sd >> 16] ^ tab[1][(sd >> 8) & 0xFF] ^ tab[0][sd & 0xFF];
	return crc ^ fcr_crc_mulmod_ref(r, ref_x_pow[(fc_len - 8) >> 2]);
}

/* Same call shape and argument traffic as the update, no work: the
 * harness cost included in every figure. */
static __attribute__((noinline)) uint32_t
empty_call(uint32_t crc, uint32_t fc_len, uint32_t old_did,
	   uint32_t new_did, uint32_t old_sid, uint32_t new_sid)
{
	__asm__ volatile("" ::: "memory");
	return crc ^ fc_len ^ old_did ^ new_did ^ old_sid ^ new_sid;
}

static void
put_be24(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 16);
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)v;
}

static int
build_pools(void)
{
	uint32_t s, i, j;

	for (i = 0; i < NIDS; i++) {
		new_ids[i].did = (uint32_t)rng() & FCR_FCID_MASK;
		new_ids[i].sid = (uint32_t)rng() & FCR_FCID_MASK;
	}
	for (s = 0; s < NSIZES; s++) {
		struct pool *p = &pools[s];

		p->payload = payloads[s];
		p->fc_len = FCR_FC_HLEN + p->payload;
		/* Eth + FCoE header, FC frame, FCoE trailer, rounded to a
		 * cache line: consecutive frames never share a line. */
		p->stride = RTE_ALIGN_CEIL(FC_OFF + p->fc_len + FCR_FCOE_TLEN, 64);
		if (posix_memalign((void **)&p->buf, 64, p->stride * POOL) != 0)
			return -1;
		for (j = 0; j < p->stride * POOL; j++)
			p->buf[j] = (uint8_t)rng();
		for (i = 0; i < POOL; i++) {
			struct frame_meta *m = &p->meta[i];
			uint8_t *fc = p->buf + i * p->stride + FC_OFF;

			m->fc = fc;
			m->fc_len = p->fc_len;
			m->did = fcr_get_be24(fc + FCR_FC_D_ID);
			m->sid = fcr_get_be24(fc + FCR_FC_S_ID);
			m->crc = fcr_crc_calc(fc, p->fc_len);
			fcr_crc_store(fc + p->fc_len, m->crc);
		}
	}
	return 0;
}

/*
 * Every frame of every pool, with several ID rewrites each (D_ID only,
 * S_ID only, both, the IDs the timed loops use): the full CRC by both
 * paths, and the update by both paths, against the CRC of a copy of the
 * frame that really carries the new IDs.
 */
static int
check_correctness(void)
{
	static const uint8_t kat[] = "123456789";
	uint8_t copy[FCR_FC_MAX_LEN];
	uint32_t s, i, k, errors = 0, checks = 0;

	if (fcr_crc_calc(kat, 9) != 0xCBF43926u ||
	    crc_byte_table(kat, 9) != 0xCBF43926u) {
		fprintf(stderr, "FAIL: CRC-32 of \"123456789\" is not 0xCBF43926 "
			"(fcr_crc_calc %08x, byte table %08x)\n",
			fcr_crc_calc(kat, 9), crc_byte_table(kat, 9));
		return -1;
	}
	for (s = 0; s < NSIZES; s++) {
		struct pool *p = &pools[s];

		for (i = 0; i < POOL; i++) {
			const struct frame_meta *m = &p->meta[i];
			uint32_t full, tbl;

			tbl = crc_byte_table(m->fc, m->fc_len);
			checks++;
			if (tbl != m->crc) {
				fprintf(stderr, "FAIL: payload %u frame %u: "
					"fcr_crc_calc %08x, byte table %08x\n",
					p->payload, i, m->crc, tbl);
				errors++;
			}
			for (k = 0; k < 8; k++) {
				const uint32_t nd[4] = { m->did ^ 0x010203,
					m->did, (uint32_t)rng(),
					new_ids[(i + k) % NIDS].did };
				const uint32_t ns[4] = { m->sid,
					m->sid ^ 0xA5A5A5, (uint32_t)rng(),
					new_ids[(i + k) % NIDS].sid };
				uint32_t did = nd[k & 3] & FCR_FCID_MASK;
				uint32_t sid = ns[k & 3] & FCR_FCID_MASK;
				uint32_t inc, ref;

				memcpy(copy, m->fc, m->fc_len);
				put_be24(copy + FCR_FC_D_ID, did);
				put_be24(copy + FCR_FC_S_ID, sid);
				full = fcr_crc_calc(copy, m->fc_len);
				/* Upper bits of the IDs are not part of the
				 * field: the update must ignore them. */
				inc = fcr_crc_update_ids(m->crc, m->fc_len,
					m->did | (k << 24), did | 0xAB000000u,
					m->sid, sid | (k << 28));
				ref = update_ids_scalar(m->crc, m->fc_len,
					m->did, did, m->sid, sid);
				checks += 3;
				if (inc != full || ref != full ||
				    crc_byte_table(copy, m->fc_len) != full) {
					fprintf(stderr, "FAIL: payload %u frame %u "
						"D_ID %06x->%06x S_ID %06x->%06x: "
						"full %08x, incremental %08x, "
						"scalar update %08x\n",
						p->payload, i, m->did, did,
						m->sid, sid, full, inc, ref);
					errors++;
				}
			}
		}
	}
	if (errors) {
		fprintf(stderr, "FAIL: %u of %u CRC checks wrong\n", errors, checks);
		return -1;
	}
	printf("correctness: %u checks over %u frames x %zu sizes: all paths agree\n",
	       checks, POOL, NSIZES);
	return 0;
}

typedef uint32_t (*update_fn)(uint32_t, uint32_t, uint32_t, uint32_t,
			       uint32_t, uint32_t);

/*
 * The timed loops. `chained` is a constant at each call site, so each
 * mode gets its own loop: in the independent one no input depends on an
 * earlier result at all (masking the result with a zero would not do,
 * the CPU tracks registers, not values).
 */
static inline __attribute__((always_inline)) uint32_t
loop_full(const struct frame_meta *meta, uint32_t iters, int table,
	  const int chained)
{
	uint32_t i, c = 0, acc = 0;

	for (i = 0; i < iters; i++) {
		/* Chained: the frame picked depends on the last result. */
		const struct frame_meta *m =
			&meta[(i + (chained ? c & 1 : 0)) & (POOL - 1)];

		c = table ? crc_byte_table(m->fc, m->fc_len) :
			    fcr_crc_calc(m->fc, m->fc_len);
		acc += c;
	}
	return acc;
}

static inline __attribute__((always_inline)) uint32_t
loop_update(const struct frame_meta *meta, uint32_t iters, update_fn upd,
	    const int chained)
{
	uint32_t i, c = 0, acc = 0;

	for (i = 0; i < iters; i++) {
		const struct frame_meta *m = &meta[i & (POOL - 1)];
		/* New IDs every frame; chained, they also depend on the
		 * last result. */
		uint32_t did = new_ids[i & (NIDS - 1)].did;
		uint32_t sid = new_ids[i & (NIDS - 1)].sid;

		if (chained) {
			did ^= c;
			sid ^= c >> 8;
		}
		c = upd(m->crc, m->fc_len, m->did, did, m->sid, sid);
		acc += c;
	}
	return acc;
}

/* One timed loop; returns TSC cycles per frame. */
static double
time_method(enum method meth, const struct pool *p, uint32_t iters)
{
	const struct frame_meta *meta = p->meta;
	const int chained = chained_v;
	update_fn upd;
	uint32_t acc;
	uint64_t t0, t1;

	upd = meth == M_INCR ? fcr_crc_update_ids :
	      meth == M_INCR_REF ? update_ids_scalar : empty_call;

	t0 = rte_rdtsc_precise();
	if (meth == M_FULL || meth == M_TABLE)
		acc = chained ? loop_full(meta, iters, meth == M_TABLE, 1) :
				loop_full(meta, iters, meth == M_TABLE, 0);
	else
		acc = chained ? loop_update(meta, iters, upd, 1) :
				loop_update(meta, iters, upd, 0);
	t1 = rte_rdtsc_precise();
	sink = acc;
	return (double)(t1 - t0) / iters;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double
median(double *v, unsigned int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n & 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static double
calibrate_tsc_hz(void)
{
	struct timespec a, b, d = { 0, 100 * 1000 * 1000 };
	uint64_t t0, t1;
	double ns;

	clock_gettime(CLOCK_MONOTONIC_RAW, &a);
	t0 = rte_rdtsc_precise();
	while (nanosleep(&d, &d) != 0 && errno == EINTR)
		;
	clock_gettime(CLOCK_MONOTONIC_RAW, &b);
	t1 = rte_rdtsc_precise();
	ns = (b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec);
	return (double)(t1 - t0) * 1e9 / ns;
}

static void
usage(FILE *f, const char *prog)
{
	fprintf(f,
		"usage: %s [--iterations N] [--runs N] [--independent] [--cpu N]\n"
		"  --iterations N  frames per timed loop (default 100000)\n"
		"  --runs N        timed loops per figure; the median is shown "
		"(default 7, odd, max %d)\n"
		"  --independent   do not chain iterations: throughput instead of "
		"latency\n"
		"  --cpu N         pin to CPU N before measuring\n",
		prog, MAX_RUNS);
}

int
main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "iterations", required_argument, NULL, 'i' },
		{ "runs", required_argument, NULL, 'r' },
		{ "independent", no_argument, NULL, 'n' },
		{ "cpu", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static double samples[NSIZES][NMETHODS][MAX_RUNS];
	double med[NSIZES][NMETHODS], spread[NSIZES][NMETHODS];
	unsigned long iters = 100000, runs = 7;
	double worst_spread = 0, inc_min = 1e300, inc_max = 0, tsc_hz;
	unsigned int worst_s = 0, worst_m = 0;
	int opt, cpu = -1, independent = 0, target_ratio, target_flat;
	unsigned int s, m, r;
	char *end, name[64];

	while ((opt = getopt_long(argc, argv, "i:r:nc:h", opts, NULL)) != -1) {
		switch (opt) {
		case 'i':
			iters = strtoul(optarg, &end, 0);
			if (*end || iters == 0 || iters > UINT32_MAX) {
				fprintf(stderr, "bad --iterations: %s\n", optarg);
				return 2;
			}
			break;
		case 'r':
			runs = strtoul(optarg, &end, 0);
			if (*end || runs == 0 || runs > MAX_RUNS) {
				fprintf(stderr, "bad --runs: %s\n", optarg);
				return 2;
			}
			break;
		case 'n':
			independent = 1;
			break;
		case 'c':
			cpu = (int)strtol(optarg, &end, 0);
			if (*end || cpu < 0 || cpu >= CPU_SETSIZE) {
				fprintf(stderr, "bad --cpu: %s\n", optarg);
				return 2;
			}
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
	if (cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set) != 0) {
			fprintf(stderr, "cannot pin to CPU %d: %s\n", cpu,
				strerror(errno));
			return 2;
		}
	}
	if (independent)
		chained_v = 0;

	fcr_crc_init();
	build_ref_tables();
	if (build_pools() != 0) {
		fprintf(stderr, "out of memory\n");
		return 1;
	}
	if (check_correctness() != 0)
		return 1;

	tsc_hz = calibrate_tsc_hz();
	printf("TSC: %.1f MHz (calibrated against CLOCK_MONOTONIC_RAW; "
	       "rte_get_tsc_hz() without EAL: %" PRIu64 "); figures are TSC "
	       "ticks, not core clocks\n", tsc_hz / 1e6, rte_get_tsc_hz());
	printf("%lu frames per loop from a pool of %d per size, %s iterations\n",
	       iters, POOL, independent ? "independent" : "chained (latency)");

	/* Warm up caches, branch predictors and the clock. */
	for (s = 0; s < NSIZES; s++)
		for (m = 0; m < NMETHODS; m++)
			time_method(m, &pools[s], iters < 1000 ? iters : 1000);

	/* Interleave: a burst of noise from the other tenants of this VM
	 * lands on one sample of several figures, not on all of one. */
	for (r = 0; r < runs; r++)
		for (s = 0; s < NSIZES; s++)
			for (m = 0; m < NMETHODS; m++)
				samples[s][m][r] = time_method(m, &pools[s], iters);

	for (s = 0; s < NSIZES; s++)
		for (m = 0; m < NMETHODS; m++) {
			double *v = samples[s][m];

			med[s][m] = median(v, runs);
			/* Sorted by median(): drop the fastest and the
			 * slowest run when there are enough of them, so
			 * one interruption does not make the whole
			 * figure look unstable. */
			spread[s][m] = runs >= 5 ?
				(v[runs - 2] - v[1]) / med[s][m] :
				(v[runs - 1] - v[0]) / med[s][m];
			if (m != M_EMPTY && spread[s][m] > worst_spread) {
				worst_spread = spread[s][m];
				worst_s = s;
				worst_m = m;
			}
		}

	printf("\nFC CRC: full recompute vs incremental update "
	       "(TSC cycles per frame, median of %lu runs)\n", runs);
	printf("full CRC path: %s; incremental update: %s\n", fcr_crc_impl(),
	       fcr_crc_update_uses_clmul() ? "pclmulqdq" :
	       "scalar mulmod (no pclmulqdq)");
	printf("%-8s %-7s %17s %17s %12s %17s %10s\n", "payload", "fc_len",
	       method_names[M_FULL], method_names[M_TABLE],
	       method_names[M_INCR], method_names[M_INCR_REF], "full/incr");
	for (s = 0; s < NSIZES; s++) {
		printf("%-8u %-7u %17.1f %17.1f %12.1f %17.1f %9.1fx\n",
		       payloads[s], pools[s].fc_len, med[s][M_FULL],
		       med[s][M_TABLE], med[s][M_INCR], med[s][M_INCR_REF],
		       med[s][M_FULL] / med[s][M_INCR]);
		snprintf(name, sizeof(name), "%u B payload: incremental (full / incr)",
			 payloads[s]);
		bench_result("crc", name, med[s][M_INCR], "cycles/frame",
			     method_names[M_FULL], med[s][M_FULL],
			     med[s][M_FULL] / med[s][M_INCR],
			     runs > 1 ? spread[s][M_INCR] : NAN);
		if (med[s][M_INCR] < inc_min)
			inc_min = med[s][M_INCR];
		if (med[s][M_INCR] > inc_max)
			inc_max = med[s][M_INCR];
	}
	printf("incremental flat across sizes: max/min = %.2fx\n",
	       inc_max / inc_min);
	/* the flatness is a ratio of medians: no spread of its own */
	bench_result("crc", "incremental over sizes (max / min)", inc_max,
		     "cycles/frame", "incremental, cheapest size", inc_min,
		     inc_max / inc_min, NAN);
	printf("harness (loop + call of an empty function), included above: "
	       "%.1f cycles per frame\n", med[0][M_EMPTY]);
	printf("noise: widest run-to-run spread, %s, = %.0f%% of the "
	       "median (%s at payload %u)\n",
	       runs >= 5 ? "2nd-slowest minus 2nd-fastest" :
	       "slowest minus fastest", worst_spread * 100,
	       method_names[worst_m], payloads[worst_s]);

	target_ratio = med[NSIZES - 1][M_FULL] / med[NSIZES - 1][M_INCR] >= 10.0;
	target_flat = inc_max / inc_min <= 1.5;
	printf("target: incremental at %u bytes >= 10x cheaper than full: "
	       "%.1fx  %s\n", payloads[NSIZES - 1],
	       med[NSIZES - 1][M_FULL] / med[NSIZES - 1][M_INCR],
	       target_ratio ? "PASS" : "MISS");
	printf("target: incremental flat across sizes (max/min <= 1.5): "
	       "%.2fx  %s\n", inc_max / inc_min, target_flat ? "PASS" : "MISS");
	/* Timings never fail a benchmark: only wrong results do. */
	return 0;
}
