/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The latency a service node adds, per redirect. fcredirect sees both
 * sides of the node: the host's exchanges with "the target" (its command on
 * host_to_target, the VT's response on vt_to_host) and the node's own with
 * the target (the VI's command on vi_to_target, the target's response on
 * target_to_host). Each side's command-to-response time goes into a
 * histogram; the difference of the two is what the node adds.
 *
 * Sampled: each side of a redirect times one exchange at a time. A worker
 * that sends a command while its side's slot is free (or holds a command
 * older than the stale bound: an exchange aborted) puts its OX_ID and TSC
 * there; the worker that sends the response of that OX_ID (the same or
 * another: slots are shared, one 64-bit word each) takes it and counts the
 * time. So an idle pair costs nothing, a busy one a compare-and-swap per
 * exchange timed, and at most one exchange per side is in flight.
 */
#ifndef FCR_LATENCY_H
#define FCR_LATENCY_H

#include <stdint.h>
#include <stdio.h>

/* bins: < 16 us, then one per doubling ([16, 32) us, ...), the last
 * 131 ms and over */
#define FCR_LAT_BINS 15
#define FCR_LAT_FIRST_US 16u

enum fcr_lat_side { FCR_LAT_HOST = 0, FCR_LAT_VI = 1, FCR_LAT_SIDES = 2 };

/* One redirect's histograms, each side's counts and sum of microseconds
 * (the workers add, with atomics). */
struct fcr_latency {
	uint64_t slot[FCR_LAT_SIDES];    /* OX_ID << 48 | TSC (48 bits); 0: free */
	uint32_t count[FCR_LAT_SIDES][FCR_LAT_BINS];
	uint64_t sum_us[FCR_LAT_SIDES];
};

/* The bin of a time in microseconds. */
static inline unsigned int
fcr_lat_bin(uint64_t us)
{
	unsigned int b;

	if (us < FCR_LAT_FIRST_US)
		return 0;
	b = (unsigned int)(63 - __builtin_clzll(us)) - 3;
	return b < FCR_LAT_BINS ? b : FCR_LAT_BINS - 1;
}

/* A bin's upper bound in microseconds (UINT64_MAX for the last). */
static inline uint64_t
fcr_lat_bound_us(unsigned int b)
{
	return b + 1 < FCR_LAT_BINS ? (uint64_t)FCR_LAT_FIRST_US << b : UINT64_MAX;
}

/*
 * A command (begin) or its response (!begin) with OX_ID ox on `side` of
 * redirect l, at TSC now; tsc_per_us: TSC ticks per microsecond; stale: a
 * slot's command older than this many ticks is given up. Returns 1 when
 * the response ended the exchange timed.
 */
int fcr_latency_note(struct fcr_latency *l, unsigned int side, int begin, uint16_t ox,
		     uint64_t now, uint64_t tsc_per_us, uint64_t stale);

/* A side's count, and the bound (us) below which a fraction q of its
 * exchanges ended (UINT64_MAX: in the last bin; 0: none timed). */
uint64_t fcr_latency_total(const struct fcr_latency *l, unsigned int side);
uint64_t fcr_latency_quantile_us(const struct fcr_latency *l, unsigned int side, double q);

/* `show redirect`'s lines: each side's exchanges timed, quantiles, mean,
 * what the node adds (the means' difference), the histograms. */
void fcr_latency_describe(FILE *out, const struct fcr_latency *l);

#endif /* FCR_LATENCY_H */
