/* SPDX-License-Identifier: BSD-3-Clause */
#include <math.h>
#include <string.h>

#include "hist.h"

void
pg_hist_reset(struct pg_hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

void
pg_hist_merge(struct pg_hist *dst, const struct pg_hist *src)
{
	unsigned int i;

	if (src->count == 0)
		return;
	for (i = 0; i < PG_HIST_BUCKETS; i++)
		dst->bucket[i] += src->bucket[i];
	dst->count += src->count;
	dst->sum += src->sum;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
}

void
pg_hist_bounds(unsigned int i, uint64_t *lo, uint64_t *hi)
{
	unsigned int g, shift;
	uint64_t top;

	if (i < PG_HIST_LINEAR) {
		*lo = *hi = i;
		return;
	}
	g = (i - PG_HIST_LINEAR) / PG_HIST_SUB;
	shift = g + 1;
	top = PG_HIST_SUB + (i - PG_HIST_LINEAR) % PG_HIST_SUB;
	*lo = top << shift;
	/* the last bucket's bound is 2^64 - 1 */
	*hi = top + 1 == 2u * PG_HIST_SUB && shift + PG_HIST_SUB_BITS + 1 == 64 ?
		      UINT64_MAX : ((top + 1) << shift) - 1;
}

uint64_t
pg_hist_quantile(const struct pg_hist *h, double q)
{
	uint64_t rank, seen = 0, lo, hi;
	unsigned int i;

	if (h->count == 0)
		return 0;
	if (q > 1.0)
		q = 1.0;
	rank = (uint64_t)ceil(q * (double)h->count);
	if (rank < 1)
		rank = 1;
	if (rank > h->count)
		rank = h->count;
	for (i = 0; i < PG_HIST_BUCKETS; i++) {
		seen += h->bucket[i];
		if (seen >= rank) {
			pg_hist_bounds(i, &lo, &hi);
			return hi < h->max ? hi : h->max;
		}
	}
	return h->max;
}
