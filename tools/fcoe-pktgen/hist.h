/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Latency histogram with log-linear buckets: values below 64 have a bucket
 * each; above, every power of two is split into 32 equal buckets, so a
 * bucket is at most 1/32 (3.1%) of the values it holds. Values are TSC
 * ticks (any 64-bit value fits); percentiles come out as the upper bound of
 * their bucket, never above the largest value recorded. Adding a value is a
 * count-leading-zeros, two shifts and an increment.
 */
#ifndef FCR_PG_HIST_H
#define FCR_PG_HIST_H

#include <stdint.h>

#define PG_HIST_SUB_BITS 5
#define PG_HIST_SUB (1u << PG_HIST_SUB_BITS)          /* 32 */
#define PG_HIST_LINEAR (2u * PG_HIST_SUB)              /* 0..63 exact */
#define PG_HIST_BUCKETS \
	(PG_HIST_LINEAR + (64u - PG_HIST_SUB_BITS - 1u) * PG_HIST_SUB)

struct pg_hist {
	uint64_t count;
	uint64_t sum;     /* of values, for the mean (wraps only after 2^64) */
	uint64_t min;
	uint64_t max;
	uint64_t bucket[PG_HIST_BUCKETS];
};

static inline unsigned int
pg_hist_index(uint64_t v)
{
	unsigned int msb, shift;

	if (v < PG_HIST_LINEAR)
		return (unsigned int)v;
	msb = 63u - (unsigned int)__builtin_clzll(v);
	shift = msb - PG_HIST_SUB_BITS;                /* >= 1 */
	return PG_HIST_LINEAR + (shift - 1u) * PG_HIST_SUB +
	       (unsigned int)((v >> shift) - PG_HIST_SUB);
}

static inline void
pg_hist_add(struct pg_hist *h, uint64_t v)
{
	h->bucket[pg_hist_index(v)]++;
	h->count++;
	h->sum += v;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
}

void pg_hist_reset(struct pg_hist *h);
/* dst += src */
void pg_hist_merge(struct pg_hist *dst, const struct pg_hist *src);
/* Smallest and largest value bucket i holds. */
void pg_hist_bounds(unsigned int i, uint64_t *lo, uint64_t *hi);
/* Value at quantile q (0 < q <= 1): the upper bound of the bucket holding
 * the ceil(q * count)-th smallest value, at most max. 0 when empty. */
uint64_t pg_hist_quantile(const struct pg_hist *h, double q);

#endif /* FCR_PG_HIST_H */
