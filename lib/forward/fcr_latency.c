/* SPDX-License-Identifier: BSD-3-Clause */
#include "fcr_latency.h"

#include <inttypes.h>

#define TSC_BITS 48
#define TSC_MASK ((1ull << TSC_BITS) - 1)

int
fcr_latency_note(struct fcr_latency *l, unsigned int side, int begin, uint16_t ox,
		 uint64_t now, uint64_t tsc_per_us, uint64_t stale)
{
	uint64_t *slot = &l->slot[side];
	uint64_t cur = __atomic_load_n(slot, __ATOMIC_RELAXED), dt, us;

	now &= TSC_MASK;
	if (begin) {
		/* free, or a command whose response never came */
		if (cur != 0 && ((now - cur) & TSC_MASK) <= stale)
			return 0;
		/* never 0, the free slot: a TSC of 0 is taken as 1 */
		__atomic_compare_exchange_n(slot, &cur, (uint64_t)ox << TSC_BITS | (now | !now),
					    0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
		return 0;
	}
	if (cur == 0 || (uint16_t)(cur >> TSC_BITS) != ox)
		return 0;
	/* one response ends it: the worker that frees the slot counts */
	if (!__atomic_compare_exchange_n(slot, &cur, 0, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		return 0;
	dt = (now - cur) & TSC_MASK;
	us = tsc_per_us != 0 ? dt / tsc_per_us : 0;
	__atomic_fetch_add(&l->count[side][fcr_lat_bin(us)], 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&l->sum_us[side], us, __ATOMIC_RELAXED);
	return 1;
}

uint64_t
fcr_latency_total(const struct fcr_latency *l, unsigned int side)
{
	uint64_t n = 0;
	unsigned int b;

	for (b = 0; b < FCR_LAT_BINS; b++)
		n += __atomic_load_n(&l->count[side][b], __ATOMIC_RELAXED);
	return n;
}

uint64_t
fcr_latency_quantile_us(const struct fcr_latency *l, unsigned int side, double q)
{
	uint64_t total = fcr_latency_total(l, side), seen = 0;
	unsigned int b;

	if (total == 0)
		return 0;
	for (b = 0; b < FCR_LAT_BINS; b++) {
		seen += __atomic_load_n(&l->count[side][b], __ATOMIC_RELAXED);
		if ((double)seen >= q * (double)total)
			return fcr_lat_bound_us(b);
	}
	return UINT64_MAX;
}

static void
bound_text(uint64_t us, char *buf, size_t len)
{
	if (us == UINT64_MAX)
		snprintf(buf, len, ">= %" PRIu64 " ms", fcr_lat_bound_us(FCR_LAT_BINS - 2) / 1000);
	else if (us >= 1000)
		snprintf(buf, len, "< %" PRIu64 " ms", us / 1000);
	else
		snprintf(buf, len, "< %" PRIu64 " us", us);
}

void
fcr_latency_describe(FILE *out, const struct fcr_latency *l)
{
	static const char *const name[FCR_LAT_SIDES] = { "host side", "vi side" };
	uint64_t n[FCR_LAT_SIDES], mean[FCR_LAT_SIDES];
	unsigned int s, b;

	fprintf(out, "  service node latency (command to response, one exchange a side at a "
		"time):\n");
	for (s = 0; s < FCR_LAT_SIDES; s++) {
		char p50[24], p99[24];

		n[s] = fcr_latency_total(l, s);
		mean[s] = n[s] ? __atomic_load_n(&l->sum_us[s], __ATOMIC_RELAXED) / n[s] : 0;
		if (n[s] == 0) {
			fprintf(out, "    %-10s none timed\n", name[s]);
			continue;
		}
		bound_text(fcr_latency_quantile_us(l, s, 0.5), p50, sizeof(p50));
		bound_text(fcr_latency_quantile_us(l, s, 0.99), p99, sizeof(p99));
		fprintf(out, "    %-10s %" PRIu64 " exchanges  p50 %s  p99 %s  mean %" PRIu64 " us\n",
			name[s], n[s], p50, p99, mean[s]);
	}
	if (n[FCR_LAT_HOST] && n[FCR_LAT_VI])
		fprintf(out, "    added      mean %" PRId64 " us (the host side's less the vi side's)\n",
			(int64_t)mean[FCR_LAT_HOST] - (int64_t)mean[FCR_LAT_VI]);
	if (!n[FCR_LAT_HOST] && !n[FCR_LAT_VI])
		return;
	fprintf(out, "    %-10s", "below (us)");
	for (b = 0; b + 1 < FCR_LAT_BINS; b++)
		fprintf(out, " %6" PRIu64, fcr_lat_bound_us(b));
	fprintf(out, " %6s\n", "more");
	for (s = 0; s < FCR_LAT_SIDES; s++) {
		fprintf(out, "    %-10s", name[s]);
		for (b = 0; b < FCR_LAT_BINS; b++)
			fprintf(out, " %6u", __atomic_load_n(&l->count[s][b], __ATOMIC_RELAXED));
		fprintf(out, "\n");
	}
}
