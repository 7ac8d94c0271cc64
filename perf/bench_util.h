/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the EAL benchmarks share: EAL start-up without hugepages or devices,
 * optional transparent huge pages under the EAL heap, a deterministic
 * random generator, medians, a two-lcore barrier and option parsing. Header
 * only: every benchmark is one executable built from one .c file.
 *
 * Why transparent huge pages: a real deployment backs the EAL heap with
 * 2 MB or 1 GB hugepages, so a random access to a million-flow table costs
 * a cache miss, not a cache miss plus a page walk. These machines have no
 * hugetlbfs pages, and `--no-huge` memory is 4 KB pages. The benchmarks
 * put their tables on an external malloc heap of memory madvised for
 * transparent huge pages (bench_memory_socket), which gives the TLB
 * behaviour of the real thing; `--no-thp` measures on the EAL's 4 KB heap.
 * They print which one was in effect (from /proc/self/smaps_rollup).
 *
 * With FCR_BENCH_JSON set, each also appends its headline figures to that
 * file, one JSON object a line (bench_result), for perf/run to collect.
 */
#ifndef FCR_BENCH_UTIL_H
#define FCR_BENCH_UTIL_H

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_memory.h>

#define BENCH_MAX_RUNS 101

/* ------------------------------------------------------------------ */
/* xorshift64*: deterministic, so every run uses the same data */

struct bench_rng {
	uint64_t s;
};

static inline uint64_t
bench_rand(struct bench_rng *r)
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return r->s * 0x2545F4914F6CDD1Dull;
}

/* Uniform in [0, n) without modulo bias worth mentioning (n < 2^32). */
static inline uint32_t
bench_rand_below(struct bench_rng *r, uint32_t n)
{
	return (uint32_t)(((bench_rand(r) >> 32) * (uint64_t)n) >> 32);
}

/* Fisher-Yates */
static inline void
bench_shuffle_u32(struct bench_rng *r, uint32_t *v, uint32_t n)
{
	uint32_t i, j, t;

	for (i = n; i > 1; i--) {
		j = bench_rand_below(r, i);
		t = v[i - 1];
		v[i - 1] = v[j];
		v[j] = t;
	}
}

/* ------------------------------------------------------------------ */
/* statistics */

static int
bench_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Sorts v. */
static inline double
bench_median(double *v, unsigned int n)
{
	qsort(v, n, sizeof(*v), bench_cmp_double);
	return n & 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Run-to-run spread of a sorted sample, as crc-bench reports it: the
 * 2nd-slowest minus the 2nd-fastest when there are at least 5 runs. NAN
 * when there is none to measure (one run): not a spread of 0. */
static inline double
bench_spread(const double *sorted, unsigned int n, double med)
{
	if (n < 2 || med <= 0)
		return NAN;
	return n >= 5 ? (sorted[n - 2] - sorted[1]) / med :
			(sorted[n - 1] - sorted[0]) / med;
}

/* ------------------------------------------------------------------ */
/* machine-readable results */

/*
 * One headline figure, appended as a line of JSON to the file that
 * FCR_BENCH_JSON names (nothing when it is unset): value in unit, against
 * reference (NULL: none) measured at reference_value; ratio as the bench's
 * own table prints it (reference / value or value / reference); spread =
 * value's run-to-run spread over its median (NAN: not measured over runs).
 * A NaN or infinite number is written as null. The line is buffered until
 * fclose, so it reaches the O_APPEND file in one write: whole lines even
 * when several benchmarks share the file.
 */
static inline void
bench_result(const char *bench, const char *name, double value,
	     const char *unit, const char *reference, double reference_value,
	     double ratio, double spread)
{
	const struct {
		const char *key;
		int is_str;
		const char *s;
		double v;
	} fld[] = {
		{ "bench", 1, bench, 0 },
		{ "name", 1, name, 0 },
		{ "value", 0, NULL, value },
		{ "unit", 1, unit, 0 },
		{ "reference", 1, reference, 0 },
		{ "reference_value", 0, NULL, reference_value },
		{ "ratio", 0, NULL, ratio },
		{ "spread", 0, NULL, spread },
	};
	const char *path = getenv("FCR_BENCH_JSON"), *p;
	char num[32];
	unsigned int i;
	FILE *f;

	if (path == NULL || *path == '\0')
		return;
	f = fopen(path, "a");
	if (f == NULL) {
		fprintf(stderr, "FCR_BENCH_JSON: %s: %s\n", path, strerror(errno));
		return;
	}
	for (i = 0; i < RTE_DIM(fld); i++) {
		fprintf(f, "%s\"%s\":", i ? "," : "{", fld[i].key);
		if (fld[i].is_str && fld[i].s != NULL) {
			fputc('"', f);
			for (p = fld[i].s; *p != '\0'; p++) {
				if ((unsigned char)*p < 0x20)
					fprintf(f, "\\u%04x", (unsigned char)*p);
				else if (*p == '"' || *p == '\\')
					fprintf(f, "\\%c", *p);
				else
					fputc(*p, f);
			}
			fputc('"', f);
		} else if (!fld[i].is_str && isfinite(fld[i].v)) {
			/* always a fraction or an exponent: read as a float */
			snprintf(num, sizeof(num), "%.10g", fld[i].v);
			fprintf(f, "%s%s", num, strpbrk(num, ".e") ? "" : ".0");
		} else {
			fputs("null", f);
		}
	}
	fputs("}\n", f);
	if (fclose(f) != 0)
		fprintf(stderr, "FCR_BENCH_JSON: %s: %s\n", path, strerror(errno));
}

/* ------------------------------------------------------------------ */
/* options */

/* Append one element to a growing array (*arr of *n, room for *cap):
 * the new slot, or NULL when memory runs out. */
static inline void *
bench_push(void **arr, size_t *n, size_t *cap, size_t elem)
{
	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : 4096;
		void *a = realloc(*arr, c * elem);

		if (a == NULL)
			return NULL;
		*arr = a;
		*cap = c;
	}
	return (char *)*arr + (*n)++ * elem;
}

static inline int
bench_parse_ul(const char *opt, const char *s, unsigned long min,
	       unsigned long max, unsigned long *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (*s == '\0' || *s == '-' || *end != '\0' || errno || v < min ||
	    v > max) {
		fprintf(stderr, "bad %s: '%s' (expected %lu..%lu)\n", opt, s,
			min, max);
		return -1;
	}
	*out = v;
	return 0;
}

/* ------------------------------------------------------------------ */
/* EAL */

/* kB of this process' anonymous memory backed by transparent huge pages */
static inline long
bench_thp_kb(void)
{
	FILE *f = fopen("/proc/self/smaps_rollup", "r");
	char line[256];
	long kb = -1;

	if (f == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "AnonHugePages: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

/* The EAL runtime directory of this process (/var/run/dpdk/<prefix>): its
 * prefix is ours alone, so it goes when we exit rather than pile up (its
 * memory-map files are megabytes). */
static char bench_runtime_dir[512];

static void
bench_remove_runtime_dir(void)
{
	char path[1024];
	struct dirent *de;
	DIR *d;

	if (bench_runtime_dir[0] == '\0')
		return;
	d = opendir(bench_runtime_dir);
	if (d == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", bench_runtime_dir,
			 de->d_name);
		unlink(path);
	}
	closedir(d);
	rmdir(bench_runtime_dir);
}

/*
 * rte_eal_init with `--no-huge -m <mem_mb> --no-pci` and a file prefix of
 * this program's own (name and pid, so concurrent runs never collide; its
 * runtime directory is removed at exit). lcores: "-l" argument, e.g.
 * "0,1". Returns 0, or -1 with a message.
 */
static inline int
bench_eal_init(const char *prog, unsigned int mem_mb, const char *lcores)
{
	char mem[16], prefix[64];
	char *argv[16];
	int argc = 0;

	snprintf(mem, sizeof(mem), "%u", mem_mb);
	snprintf(prefix, sizeof(prefix), "%s-%ld", prog, (long)getpid());
	argv[argc++] = (char *)prog;
	argv[argc++] = (char *)"--no-huge";
	argv[argc++] = (char *)"-m";
	argv[argc++] = mem;
	argv[argc++] = (char *)"--no-pci";
	argv[argc++] = (char *)"--no-telemetry";
	argv[argc++] = (char *)"--file-prefix";
	argv[argc++] = prefix;
	argv[argc++] = (char *)"-l";
	argv[argc++] = (char *)lcores;
	argv[argc++] = (char *)"--log-level";
	argv[argc++] = (char *)"lib.eal:error";
	argv[argc] = NULL;
	if (rte_eal_init(argc, argv) < 0) {
		fprintf(stderr, "%s: EAL initialisation failed: %s\n", prog,
			rte_strerror(rte_errno));
		return -1;
	}
	/* only a directory named after our own prefix is ever removed */
	if (strstr(rte_eal_get_runtime_dir(), prefix) != NULL) {
		snprintf(bench_runtime_dir, sizeof(bench_runtime_dir), "%s",
			 rte_eal_get_runtime_dir());
		atexit(bench_remove_runtime_dir);
	}
	return 0;
}

/*
 * The memory the tables and mbufs are allocated from: a socket id for the
 * *_socket() calls. With thp, an external malloc heap ("bench_thp") on
 * private anonymous memory madvised for transparent huge pages: the EAL's
 * own --no-huge memory is a shared memfd mapping, which this kernel will
 * not back with huge pages (shmem_enabled=never). rte_malloc, rte_hash,
 * rte_lpm, rte_ring and mempools all take an external heap's socket id.
 * Without thp (or if that fails): the EAL heap, socket 0, 4 KB pages.
 */
static int bench_thp_active;

static inline int
bench_memory_socket(const char *prog, size_t mb, int thp)
{
	const size_t align = 2u << 20;
	size_t len = mb << 20;
	uint8_t *raw, *base;
	int sock;

	if (!thp)
		return 0;
	raw = mmap(NULL, len + align, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (raw == MAP_FAILED)
		goto fallback;
	base = RTE_PTR_ALIGN_CEIL(raw, align);
	if (madvise(base, len, MADV_HUGEPAGE) != 0 ||
	    rte_malloc_heap_create("bench_thp") != 0 ||
	    rte_malloc_heap_memory_add("bench_thp", base, len, NULL, 0,
				       4096) != 0)
		goto fallback;
	sock = rte_malloc_heap_get_socket("bench_thp");
	if (sock < 0)
		goto fallback;
	bench_thp_active = 1;
	return sock;
fallback:
	fprintf(stderr, "%s: note: no transparent-huge-page heap (%s); the EAL "
		"heap on 4 KB pages instead\n", prog, rte_strerror(rte_errno));
	return 0;
}

/* 1-minute load average (other tenants' work competes for the CPUs). */
static inline double
bench_loadavg(void)
{
	FILE *f = fopen("/proc/loadavg", "r");
	double l = -1;

	if (f != NULL) {
		if (fscanf(f, "%lf", &l) != 1)
			l = -1;
		fclose(f);
	}
	return l;
}

static inline void
bench_print_load(double at_start)
{
	printf("machine load: 1-minute load average %.2f at start, %.2f at the end, "
	       "%ld CPUs (this benchmark adds 1-2; more is other work sharing the "
	       "CPUs: expect noise)\n",
	       at_start, bench_loadavg(), sysconf(_SC_NPROCESSORS_ONLN));
}

static inline void
bench_print_env(void)
{
	long kb = bench_thp_kb();

	printf("TSC: %.1f MHz (rte_get_tsc_hz); figures are TSC ticks. Table "
	       "memory: %s (%ld MB in huge pages now)\n",
	       rte_get_tsc_hz() / 1e6,
	       bench_thp_active ?
	       "transparent huge pages, as hugepages back it in production "
	       "(--no-thp: 4 KB pages)" :
	       "EAL --no-huge heap, 4 KB pages (--no-thp)",
	       kb < 0 ? -1 : kb / 1024);
}

/* Bytes allocated from one malloc heap (a socket id, as above). */
static inline uint64_t
bench_heap_allocated(int socket)
{
	struct rte_malloc_socket_stats st;

	if (rte_malloc_get_socket_stats(socket, &st) != 0)
		return 0;
	return st.heap_allocsz_bytes;
}

/* ------------------------------------------------------------------ */
/* a barrier for a fixed number of lcores, spinning */

struct bench_barrier {
	uint32_t count;
	uint32_t gen;
	uint32_t n;
};

static inline void
bench_barrier_wait(struct bench_barrier *b)
{
	uint32_t gen = __atomic_load_n(&b->gen, __ATOMIC_ACQUIRE);

	if (__atomic_add_fetch(&b->count, 1, __ATOMIC_ACQ_REL) == b->n) {
		__atomic_store_n(&b->count, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&b->gen, gen + 1, __ATOMIC_RELEASE);
		return;
	}
	while (__atomic_load_n(&b->gen, __ATOMIC_ACQUIRE) == gen)
		rte_pause();
}

#endif /* FCR_BENCH_UTIL_H */
