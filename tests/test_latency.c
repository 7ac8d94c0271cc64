/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The service node's latency: one exchange a side timed at a time, from
 * its command to the response of the same OX_ID; a command never answered
 * gives its slot up; bins, quantiles and the text of `show redirect`.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "fcr_latency.h"

#define US 1000ull          /* ticks per microsecond in these tests */
#define STALE (2000000 * US)

static void
bins_double_from_16_us(void **state)
{
	(void)state;
	assert_int_equal(fcr_lat_bin(0), 0);
	assert_int_equal(fcr_lat_bin(15), 0);
	assert_int_equal(fcr_lat_bin(16), 1);
	assert_int_equal(fcr_lat_bin(31), 1);
	assert_int_equal(fcr_lat_bin(32), 2);
	assert_int_equal(fcr_lat_bin(1000), 6);      /* [512, 1024) */
	assert_int_equal(fcr_lat_bin(1u << 30), FCR_LAT_BINS - 1);
	assert_true(fcr_lat_bound_us(0) == 16 && fcr_lat_bound_us(6) == 1024);
	assert_true(fcr_lat_bound_us(FCR_LAT_BINS - 1) == UINT64_MAX);
}

static void
a_response_ends_the_exchange_its_command_began(void **state)
{
	struct fcr_latency l;

	(void)state;
	memset(&l, 0, sizeof(l));
	/* command 0x10 at 1000 us; another command meanwhile is not timed */
	assert_int_equal(fcr_latency_note(&l, FCR_LAT_HOST, 1, 0x10, 1000 * US, US, STALE), 0);
	assert_int_equal(fcr_latency_note(&l, FCR_LAT_HOST, 1, 0x11, 1010 * US, US, STALE), 0);
	/* the other's response, and another side's: nothing */
	assert_int_equal(fcr_latency_note(&l, FCR_LAT_HOST, 0, 0x11, 1100 * US, US, STALE), 0);
	assert_int_equal(fcr_latency_note(&l, FCR_LAT_VI, 0, 0x10, 1100 * US, US, STALE), 0);
	/* its response 300 us on */
	assert_int_equal(fcr_latency_note(&l, FCR_LAT_HOST, 0, 0x10, 1300 * US, US, STALE), 1);
	assert_int_equal(fcr_latency_total(&l, FCR_LAT_HOST), 1);
	assert_int_equal(l.count[FCR_LAT_HOST][fcr_lat_bin(300)], 1);
	assert_true(l.sum_us[FCR_LAT_HOST] == 300);
	assert_int_equal(fcr_latency_total(&l, FCR_LAT_VI), 0);
	/* a second response of it: the slot is free, nothing */
	assert_int_equal(fcr_latency_note(&l, FCR_LAT_HOST, 0, 0x10, 1400 * US, US, STALE), 0);
	/* the slot free: the next command is timed */
	fcr_latency_note(&l, FCR_LAT_HOST, 1, 0x12, 2000 * US, US, STALE);
	assert_int_equal(fcr_latency_note(&l, FCR_LAT_HOST, 0, 0x12, 2020 * US, US, STALE), 1);
	assert_int_equal(l.count[FCR_LAT_HOST][fcr_lat_bin(20)], 1);
}

static void
a_command_never_answered_gives_its_slot_up(void **state)
{
	struct fcr_latency l;

	(void)state;
	memset(&l, 0, sizeof(l));
	fcr_latency_note(&l, FCR_LAT_VI, 1, 0x20, 5 * US, US, STALE);
	/* within the bound: kept */
	fcr_latency_note(&l, FCR_LAT_VI, 1, 0x21, 5 * US + STALE, US, STALE);
	assert_int_equal(fcr_latency_note(&l, FCR_LAT_VI, 0, 0x21, 6 * US + STALE, US, STALE), 0);
	/* past it: the new command takes the slot */
	fcr_latency_note(&l, FCR_LAT_VI, 1, 0x22, 6 * US + STALE, US, STALE);
	assert_int_equal(fcr_latency_note(&l, FCR_LAT_VI, 0, 0x20, 7 * US + STALE, US, STALE), 0);
	assert_int_equal(fcr_latency_note(&l, FCR_LAT_VI, 0, 0x22, 56 * US + STALE, US, STALE), 1);
	assert_int_equal(l.count[FCR_LAT_VI][fcr_lat_bin(50)], 1);
	/* a TSC past 2^48 wraps: still 40 us */
	fcr_latency_note(&l, FCR_LAT_VI, 1, 0x23, (1ull << 48) - 10 * US, US, STALE);
	assert_int_equal(fcr_latency_note(&l, FCR_LAT_VI, 0, 0x23, (1ull << 48) + 30 * US, US,
					  STALE), 1);
	assert_int_equal(l.count[FCR_LAT_VI][fcr_lat_bin(40)], 2);
}

static void
quantiles_and_the_text(void **state)
{
	struct fcr_latency l;
	char buf[4096];
	FILE *f;
	int i;

	(void)state;
	memset(&l, 0, sizeof(l));
	assert_true(fcr_latency_quantile_us(&l, FCR_LAT_HOST, 0.5) == 0);
	/* host side: 98 at 100 us, 2 at 5 ms; vi side: 100 at 40 us */
	for (i = 0; i < 100; i++) {
		uint64_t t0 = (uint64_t)(i + 1) * 10000 * US;

		fcr_latency_note(&l, FCR_LAT_HOST, 1, 1, t0, US, STALE);
		fcr_latency_note(&l, FCR_LAT_HOST, 0, 1, t0 + (i < 98 ? 100 : 5000) * US, US, STALE);
		fcr_latency_note(&l, FCR_LAT_VI, 1, 2, t0, US, STALE);
		fcr_latency_note(&l, FCR_LAT_VI, 0, 2, t0 + 40 * US, US, STALE);
	}
	assert_true(fcr_latency_quantile_us(&l, FCR_LAT_HOST, 0.5) == 128);
	assert_true(fcr_latency_quantile_us(&l, FCR_LAT_HOST, 0.99) == 8192);
	assert_true(fcr_latency_quantile_us(&l, FCR_LAT_VI, 0.99) == 64);
	f = fmemopen(buf, sizeof(buf), "w");
	assert_non_null(f);
	fcr_latency_describe(f, &l);
	fclose(f);
	assert_non_null(strstr(buf, "host side  100 exchanges  p50 < 128 us  p99 < 8 ms  mean 198 us"));
	assert_non_null(strstr(buf, "vi side    100 exchanges  p50 < 64 us  p99 < 64 us  mean 40 us"));
	assert_non_null(strstr(buf, "added      mean 158 us"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(bins_double_from_16_us),
		cmocka_unit_test(a_response_ends_the_exchange_its_command_began),
		cmocka_unit_test(a_command_never_answered_gives_its_slot_up),
		cmocka_unit_test(quantiles_and_the_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
