/* SPDX-License-Identifier: BSD-3-Clause */
/* The fuzz harness: seed, per-input generators, report. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "fuzz.h"

uint64_t fz_seed = 0xF0CC5EEDull;
long fz_iters;
uint64_t fz_iter;

void
fz_dump(const uint8_t *data, size_t len)
{
	const char *dir = getenv("FCR_FUZZ_DUMP");
	char path[4096];
	FILE *f;

	if (dir == NULL)
		return;
	snprintf(path, sizeof(path), "%s/%s-%06llu", dir, fz_this.name,
		 (unsigned long long)fz_iter);
	f = fopen(path, "wb");
	if (f != NULL) {
		fwrite(data, 1, len, f);
		fclose(f);
	}
}

int
fz_run_one(const uint8_t *data, size_t len)
{
	fz_dump(data, len);
	return fz_this.one(data, len);
}

void
fz_run_made(uint32_t target, long n,
	    size_t (*make)(struct tu_rng *r, void *buf, size_t cap), void *buf, size_t cap)
{
	long i;

	for (i = 0; i < n; i++) {
		struct tu_rng r;
		size_t len;

		fz_rng(&r, target, (uint64_t)i);
		len = make(&r, buf, cap);
		FZ_CHECK(fz_run_one(buf, len) == 0, "input refused");
	}
}

long
fz_iters_or(long def)
{
	return fz_iters > 0 ? fz_iters : def;
}

static uint64_t
splitmix(uint64_t x)
{
	x += 0x9E3779B97F4A7C15ull;
	x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
	x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
	return x ^ (x >> 31);
}

void
fz_rng(struct tu_rng *r, uint32_t target, uint64_t i)
{
	fz_iter = i;
	tu_rng_seed(r, splitmix(fz_seed ^ splitmix(((uint64_t)target << 48) ^ i)));
}

double
fz_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

void
fz_report(long n, const char *unit, double t0, const char *extra)
{
	printf("fuzz %-8s seed 0x%llx: %ld %s in %.1f s%s%s\n", fz_this.name,
	       (unsigned long long)fz_seed, n, unit, fz_now() - t0,
	       extra[0] ? "; " : "", extra);
	fflush(stdout);
}
