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

/* A service node looked at first at tick 100: 5 commands, 4 ends so far
 * (one exchange that never ended, an abort the VT refused). */
static struct fcr_liveness
fresh(void)
{
	struct fcr_liveness l = { 0 };

	assert_int_equal(fcr_liveness_step(&l, 5, 4, 0, 100, BOUND, 1), FCR_LIVE_SAME);
	return l;
}

static void
nothing_new_never_stalls_not_even_with_one_left_open(void **state)
{
	struct fcr_liveness l = fresh();

	(void)state;
	assert_int_equal(fcr_liveness_step(&l, 5, 4, 0, 100 + 10 * BOUND, BOUND, 1), FCR_LIVE_SAME);
	assert_false(l.stalled);
}

static void
a_new_command_without_an_end_stalls_at_the_bound_not_before(void **state)
{
	struct fcr_liveness l = fresh();

	(void)state;
	/* a command arrives; the clock runs from the last look with nothing new */
	assert_int_equal(fcr_liveness_step(&l, 6, 4, 0, 150, BOUND, 1), FCR_LIVE_SAME);
	assert_int_equal(fcr_liveness_step(&l, 7, 4, 0, 100 + BOUND - 1, BOUND, 1), FCR_LIVE_SAME);
	assert_false(l.stalled);
	assert_int_equal(fcr_liveness_step(&l, 7, 4, 0, 100 + BOUND, BOUND, 1), FCR_LIVE_STALLED);
	assert_true(l.stalled);
	/* said once */
	assert_int_equal(fcr_liveness_step(&l, 9, 4, 0, 100 + 5 * BOUND, BOUND, 1), FCR_LIVE_SAME);
	assert_true(l.stalled);
}

static void
ends_keep_the_clock_from_running(void **state)
{
	struct fcr_liveness l = fresh();
	uint64_t t = 100;
	uint32_t begun = 5, ends = 4;
	int i;

	(void)state;
	/* always a command waiting, an end every 0.9 bound: never stalled */
	for (i = 0; i < 20; i++) {
		t += BOUND * 9 / 10;
		begun += 2;
		assert_int_equal(fcr_liveness_step(&l, begun, ++ends, 0, t, BOUND, 1), FCR_LIVE_SAME);
	}
	assert_false(l.stalled);
}

static void
stalled_answers_again_after_recover_ends(void **state)
{
	struct fcr_liveness l = fresh();

	(void)state;
	assert_int_equal(fcr_liveness_step(&l, 6, 4, 0, 100 + BOUND, BOUND, 3), FCR_LIVE_STALLED);
	assert_int_equal(fcr_liveness_step(&l, 6, 5, 0, 200 + BOUND, BOUND, 3), FCR_LIVE_SAME);
	assert_int_equal(fcr_liveness_step(&l, 6, 6, 0, 300 + BOUND, BOUND, 3), FCR_LIVE_SAME);
	assert_true(l.stalled);
	assert_int_equal(fcr_liveness_step(&l, 6, 7, 0, 400 + BOUND, BOUND, 3), FCR_LIVE_ANSWERING);
	assert_false(l.stalled);
	/* several ends between two looks count as several */
	assert_int_equal(fcr_liveness_step(&l, 8, 7, 0, 400 + 2 * BOUND, BOUND, 3),
			 FCR_LIVE_STALLED);
	assert_int_equal(fcr_liveness_step(&l, 8, 10, 0, 500 + 2 * BOUND, BOUND, 3),
			 FCR_LIVE_ANSWERING);
}

static void
counts_wrap_at_2_32(void **state)
{
	struct fcr_liveness l = { 0 };

	(void)state;
	assert_int_equal(fcr_liveness_step(&l, UINT32_MAX, UINT32_MAX, 0, 100, BOUND, 2),
			 FCR_LIVE_SAME);
	/* a command: UINT32_MAX -> 0 */
	assert_int_equal(fcr_liveness_step(&l, 0, UINT32_MAX, 0, 100 + BOUND, BOUND, 2),
			 FCR_LIVE_STALLED);
	/* two ends: UINT32_MAX -> 1 */
	assert_int_equal(fcr_liveness_step(&l, 0, 1, 0, 200 + BOUND, BOUND, 2), FCR_LIVE_ANSWERING);
}

static void
open_at_the_first_look_waits(void **state)
{
	struct fcr_liveness l = { 0 };

	(void)state;
	/* rules just set: 2 of the 5 commands since then not ended yet */
	assert_int_equal(fcr_liveness_step(&l, 5, 3, 2, 100, BOUND, 1), FCR_LIVE_SAME);
	assert_int_equal(fcr_liveness_step(&l, 5, 3, 2, 100 + BOUND, BOUND, 1),
			 FCR_LIVE_STALLED);
}

static void
reset_forgets_a_stall(void **state)
{
	struct fcr_liveness l = fresh();

	(void)state;
	assert_int_equal(fcr_liveness_step(&l, 6, 4, 0, 100 + BOUND, BOUND, 1), FCR_LIVE_STALLED);
	fcr_liveness_reset(&l);
	assert_false(l.stalled);
	/* the first look after: a new start, not a stall */
	assert_int_equal(fcr_liveness_step(&l, 7, 4, 0, 100 + 3 * BOUND, BOUND, 1), FCR_LIVE_SAME);
	assert_false(l.stalled);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(nothing_new_never_stalls_not_even_with_one_left_open),
		cmocka_unit_test(a_new_command_without_an_end_stalls_at_the_bound_not_before),
		cmocka_unit_test(ends_keep_the_clock_from_running),
		cmocka_unit_test(stalled_answers_again_after_recover_ends),
		cmocka_unit_test(counts_wrap_at_2_32),
		cmocka_unit_test(open_at_the_first_look_waits),
		cmocka_unit_test(reset_forgets_a_stall),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
