/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The fuzz harness shared by every target (tests/fuzz/fuzz_*.c): the seed,
 * one generator per input, the failed-invariant check that names what
 * reproduces it, the report line, and what a target gives its runner.
 *
 * A target's core takes one input as bytes, fz_this.one(data, len), so a
 * libFuzzer harness can call it as it is; its cmocka test only makes those
 * bytes from the seed, inputs by the hundred thousand.
 */
#ifndef FCR_FUZZ_H
#define FCR_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include "test_util.h"

/* A target, as the one in a program hands it to the runner (fuzz_main.c). */
struct fz_target {
	const char *name;         /* "frame": in reports and failures */
	/* after EAL: what every input needs (guard pages, tables) */
	int (*init)(void);
	void (*fini)(void);
	/* one input (state between inputs stays in the target); -1 if the
	 * bytes are no input of this target, as for LLVMFuzzerTestOneInput */
	int (*one)(const uint8_t *data, size_t len);
	/* what a libFuzzer harness calls instead of one, when set: the sync
	 * target seals the bytes with the key, so the fuzzer's mutations reach
	 * the decoder behind authentication */
	int (*fuzz_one)(const uint8_t *data, size_t len);
	struct CMUnitTest test;   /* inputs made from the seed */
};

/* The target linked into this program. */
extern const struct fz_target fz_this;

extern uint64_t fz_seed;
extern long fz_iters;     /* 0: each target's default */
extern uint64_t fz_iter;  /* the input being run, for failure messages */

/* One generated input to the target's core; with FCR_FUZZ_DUMP=<dir>
 * also written there as a file (how the seed corpora of
 * tests/fuzz/corpus/ are made: FCR_FUZZ_ITERS of them). */
int fz_run_one(const uint8_t *data, size_t len);
/* With FCR_FUZZ_DUMP=<dir>: the input, as the libFuzzer program takes it,
 * written there as <target>-<iteration>. */
void fz_dump(const uint8_t *data, size_t len);

/* n inputs of a target (its number for fz_rng), each made by make into
 * buf (cap bytes: make returns the input's length) and run by
 * fz_run_one, which must take it (0). */
void fz_run_made(uint32_t target, long n,
		 size_t (*make)(struct tu_rng *r, void *buf, size_t cap), void *buf, size_t cap);

/* FCR_FUZZ_ITERS if given, else the target's default. */
long fz_iters_or(long def);

/* One generator per input: (seed, target, iteration) reproduces it.
 * Targets keep their numbers (frame 1, login 2, pipeline 3, sync 4,
 * config 5, profile 6, state 7) so a
 * seed makes the same inputs it always made. */
void fz_rng(struct tu_rng *r, uint32_t target, uint64_t i);

double fz_now(void);

void fz_report(long n, const char *unit, double t0, const char *extra);

/* A failed invariant, with what reproduces it: under libFuzzer
 * (FCR_LIBFUZZER) an abort, which it reports with the input. */
#ifdef FCR_LIBFUZZER
#define FZ_CHECK(c, ...) do { \
		if (!(c)) { \
			fprintf(stderr, "%s: ", fz_this.name); \
			fprintf(stderr, __VA_ARGS__); \
			fprintf(stderr, " [%s]\n", #c); \
			abort(); \
		} \
	} while (0)
#else
#define FZ_CHECK(c, ...) do { \
		if (!(c)) { \
			char m_[256]; \
			snprintf(m_, sizeof(m_), __VA_ARGS__); \
			fail_msg("%s: iteration %llu (FCR_FUZZ_SEED=0x%llx): " \
				 "%s [%s]", fz_this.name, \
				 (unsigned long long)fz_iter, \
				 (unsigned long long)fz_seed, m_, #c); \
		} \
	} while (0)
#endif

#endif /* FCR_FUZZ_H */
