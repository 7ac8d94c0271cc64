/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Whether a redirect's service node answers (fcr_liveness_step): every
 * transition, at the edges of the bound and of the recovery count.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "fcr_liveness.h"

#define BOUND 1000 /* ticks */

/* A service node looked at first at tick 100, nothing open. */
static struct fcr_liveness
fresh(void)
{
	struct fcr_liveness l = { 0 };

	assert_int_equal(fcr_liveness_step(&l, 0, 7, 100, BOUND, 1), FCR_LIVE_SAME);
	return l;
}

static void
nothing_open_never_stalls(void **state)
{
	struct fcr_liveness l = fresh();

	(void)state;
	assert_int_equal(fcr_liveness_step(&l, 0, 7, 100 + 10 * BOUND, BOUND, 1), FCR_LIVE_SAME);
	assert_false(l.stalled);
}

static void
open_without_an_end_stalls_at_the_bound_not_before(void **state)
{
	struct fcr_liveness l = fresh();

	(void)state;
	/* a command arrives; the clock runs from the last look with nothing open */
	assert_int_equal(fcr_liveness_step(&l, 3, 7, 150, BOUND, 1), FCR_LIVE_SAME);
	assert_int_equal(fcr_liveness_step(&l, 3, 7, 100 + BOUND - 1, BOUND, 1), FCR_LIVE_SAME);
	assert_false(l.stalled);
	assert_int_equal(fcr_liveness_step(&l, 3, 7, 100 + BOUND, BOUND, 1), FCR_LIVE_STALLED);
	assert_true(l.stalled);
	/* said once */
	assert_int_equal(fcr_liveness_step(&l, 4, 7, 100 + 5 * BOUND, BOUND, 1), FCR_LIVE_SAME);
	assert_true(l.stalled);
}

static void
ends_keep_the_clock_from_running(void **state)
{
	struct fcr_liveness l = fresh();
	uint64_t t = 100;
	uint32_t ends = 7;
	int i;

	(void)state;
	/* always something open, an end every 0.9 bound: never stalled */
	for (i = 0; i < 20; i++) {
		t += BOUND * 9 / 10;
		assert_int_equal(fcr_liveness_step(&l, 5, ++ends, t, BOUND, 1), FCR_LIVE_SAME);
	}
	assert_false(l.stalled);
}

static void
stalled_answers_again_after_recover_ends(void **state)
{
	struct fcr_liveness l = fresh();

	(void)state;
	assert_int_equal(fcr_liveness_step(&l, 2, 7, 100 + BOUND, BOUND, 3), FCR_LIVE_STALLED);
	assert_int_equal(fcr_liveness_step(&l, 2, 8, 200 + BOUND, BOUND, 3), FCR_LIVE_SAME);
	assert_int_equal(fcr_liveness_step(&l, 2, 9, 300 + BOUND, BOUND, 3), FCR_LIVE_SAME);
	assert_true(l.stalled);
	assert_int_equal(fcr_liveness_step(&l, 2, 10, 400 + BOUND, BOUND, 3), FCR_LIVE_ANSWERING);
	assert_false(l.stalled);
	/* several ends between two looks count as several */
	assert_int_equal(fcr_liveness_step(&l, 2, 10, 400 + 2 * BOUND, BOUND, 3),
			 FCR_LIVE_STALLED);
	assert_int_equal(fcr_liveness_step(&l, 0, 13, 500 + 2 * BOUND, BOUND, 3),
			 FCR_LIVE_ANSWERING);
}

static void
ends_wrap_at_2_32(void **state)
{
	struct fcr_liveness l = { 0 };

	(void)state;
	assert_int_equal(fcr_liveness_step(&l, 1, UINT32_MAX, 100, BOUND, 2), FCR_LIVE_SAME);
	assert_int_equal(fcr_liveness_step(&l, 1, UINT32_MAX, 100 + BOUND, BOUND, 2),
			 FCR_LIVE_STALLED);
	/* two ends: UINT32_MAX -> 1 */
	assert_int_equal(fcr_liveness_step(&l, 1, 1, 200 + BOUND, BOUND, 2), FCR_LIVE_ANSWERING);
}

static void
reset_forgets_a_stall(void **state)
{
	struct fcr_liveness l = fresh();

	(void)state;
	assert_int_equal(fcr_liveness_step(&l, 1, 7, 100 + BOUND, BOUND, 1), FCR_LIVE_STALLED);
	fcr_liveness_reset(&l);
	assert_false(l.stalled);
	/* the first look after: a new start, not a stall */
	assert_int_equal(fcr_liveness_step(&l, 1, 7, 100 + 3 * BOUND, BOUND, 1), FCR_LIVE_SAME);
	assert_false(l.stalled);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(nothing_open_never_stalls),
		cmocka_unit_test(open_without_an_end_stalls_at_the_bound_not_before),
		cmocka_unit_test(ends_keep_the_clock_from_running),
		cmocka_unit_test(stalled_answers_again_after_recover_ends),
		cmocka_unit_test(ends_wrap_at_2_32),
		cmocka_unit_test(reset_forgets_a_stall),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
