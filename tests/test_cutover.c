/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The cutover's decisions (fcr_cutover_step): every state with every
 * event, and the inputs that change the outcome, as a table of
 * state x event (x what the event found) -> state + actions.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "fcr_cutover.h"

enum {
	HOLD_HOST = FCR_CUT_A_HOLD_HOST, HOLD_VI = FCR_CUT_A_HOLD_VI, TELL = FCR_CUT_A_TELL,
	BLOCK = FCR_CUT_A_BLOCK, NEW_PATH = FCR_CUT_A_NEW_PATH,
	DRAIN_TO = FCR_CUT_A_DRAIN_TIMEOUT, CUT_TO = FCR_CUT_A_CUTOVER_TIMEOUT,
	RESET = FCR_CUT_A_RESET_TICKS, TELL_VI = FCR_CUT_A_TELL_VI, VI_PATH = FCR_CUT_A_VI_PATH,
	VI_TO = FCR_CUT_A_VI_TIMEOUT,
};

enum { IDLE = FCR_CUT_IDLE, DHOST = FCR_CUT_DRAIN_HOST, DVI = FCR_CUT_DRAIN_VI,
       TVI = FCR_CUT_TELLING_VI, VITOLD = FCR_CUT_VI_TOLD, TELLING = FCR_CUT_TELLING,
       TOLD = FCR_CUT_TOLD };

struct row {
	const char *what;
	uint8_t state;
	uint8_t event;
	struct fcr_cut_in in;
	uint8_t next;
	uint16_t actions;
};

#define ALL_KEYS { .clearable = 1, .host_keys = 1, .vi_keys = 1 }
/* the new path has a VI (a redirect added or changed, not deleted) */
#define VI_FIRST { .clearable = 1, .host_keys = 1, .vi_keys = 1, .vi_first = 1 }

static const struct row rows[] = {
	/* idle: only a change of the path means anything */
	{ "change, host can be told: drain the host", IDLE, FCR_CUT_EV_CHANGE,
	  ALL_KEYS, DHOST, RESET | HOLD_HOST },
	{ "change, host cannot be told (cutovers_unsent): new path at once", IDLE,
	  FCR_CUT_EV_CHANGE, { .clearable = 0, .host_keys = 1 }, IDLE, NEW_PATH },
	{ "change of a blocked pair: nothing open, tell at once", IDLE, FCR_CUT_EV_CHANGE,
	  { .clearable = 1, .host_keys = 0 }, TELLING, RESET | TELL },
	{ "idle: drained means nothing", IDLE, FCR_CUT_EV_DRAINED, ALL_KEYS, IDLE, 0 },
	{ "idle: tick", IDLE, FCR_CUT_EV_TICK, { .ticks = 1000 }, IDLE, 0 },
	{ "idle: told", IDLE, FCR_CUT_EV_TOLD, ALL_KEYS, IDLE, 0 },
	{ "idle: untold", IDLE, FCR_CUT_EV_UNTOLD, ALL_KEYS, IDLE, 0 },
	{ "idle: host back", IDLE, FCR_CUT_EV_HOST_BACK, ALL_KEYS, IDLE, 0 },
	{ "idle: member gone", IDLE, FCR_CUT_EV_MEMBER_GONE, ALL_KEYS, IDLE, 0 },
	{ "idle: vi back", IDLE, FCR_CUT_EV_VI_BACK, ALL_KEYS, IDLE, 0 },
	{ "change of a blocked pair to a path with a VI: tell the VI first", IDLE,
	  FCR_CUT_EV_CHANGE, { .clearable = 1, .vi_first = 1 }, TVI, RESET | TELL_VI },
	{ "change, host can be told, a path with a VI: still drain the host first", IDLE,
	  FCR_CUT_EV_CHANGE, VI_FIRST, DHOST, RESET | HOLD_HOST },

	/* draining the host */
	{ "host drained, VI has rules: drain the VI", DHOST, FCR_CUT_EV_DRAINED,
	  ALL_KEYS, DVI, HOLD_VI },
	{ "host drained, no VI keys (plain pair): tell", DHOST, FCR_CUT_EV_DRAINED,
	  { .vi_keys = 0 }, TELLING, RESET | TELL },
	{ "draining host: a tick", DHOST, FCR_CUT_EV_TICK, { .ticks = 0 }, DHOST, 0 },
	{ "draining host: the last tick before the bound", DHOST, FCR_CUT_EV_TICK,
	  { .ticks = FCR_DRAIN_TICKS - 2 }, DHOST, 0 },
	{ "draining host: FCR_DRAIN_TICKS passed: tell anyway", DHOST, FCR_CUT_EV_TICK,
	  { .ticks = FCR_DRAIN_TICKS - 1 }, TELLING, DRAIN_TO | RESET | TELL },
	{ "draining host: redirect deleted or VI replaced: joins", DHOST, FCR_CUT_EV_CHANGE,
	  ALL_KEYS, DHOST, 0 },
	{ "draining host: the host logs in again before the drain ends", DHOST,
	  FCR_CUT_EV_HOST_BACK, ALL_KEYS, IDLE, NEW_PATH },
	{ "draining host: a member gone", DHOST, FCR_CUT_EV_MEMBER_GONE, ALL_KEYS, IDLE,
	  NEW_PATH },
	{ "draining host: told means nothing", DHOST, FCR_CUT_EV_TOLD, ALL_KEYS, DHOST, 0 },
	{ "draining host: untold means nothing", DHOST, FCR_CUT_EV_UNTOLD, ALL_KEYS, DHOST, 0 },
	{ "draining host: vi back means nothing", DHOST, FCR_CUT_EV_VI_BACK, ALL_KEYS, DHOST, 0 },
	{ "host drained, no VI keys, a path with a VI: tell the VI first", DHOST,
	  FCR_CUT_EV_DRAINED, { .vi_first = 1 }, TVI, RESET | TELL_VI },
	{ "draining host, a path with a VI: FCR_DRAIN_TICKS passed: the VI first anyway",
	  DHOST, FCR_CUT_EV_TICK, { .ticks = FCR_DRAIN_TICKS - 1, .vi_first = 1 }, TVI,
	  DRAIN_TO | RESET | TELL_VI },

	/* draining the VI */
	{ "VI drained: tell", DVI, FCR_CUT_EV_DRAINED, ALL_KEYS, TELLING, RESET | TELL },
	{ "draining VI: a tick", DVI, FCR_CUT_EV_TICK, { .ticks = 10 }, DVI, 0 },
	{ "draining VI: FCR_DRAIN_TICKS passed: tell anyway", DVI, FCR_CUT_EV_TICK,
	  { .ticks = FCR_DRAIN_TICKS - 1 }, TELLING, DRAIN_TO | RESET | TELL },
	{ "draining VI: redirect deleted or VI replaced: joins", DVI, FCR_CUT_EV_CHANGE,
	  ALL_KEYS, DVI, 0 },
	{ "draining VI: host logs in again", DVI, FCR_CUT_EV_HOST_BACK, ALL_KEYS, IDLE,
	  NEW_PATH },
	{ "draining VI: a member gone", DVI, FCR_CUT_EV_MEMBER_GONE, ALL_KEYS, IDLE, NEW_PATH },
	{ "draining VI: told means nothing", DVI, FCR_CUT_EV_TOLD, ALL_KEYS, DVI, 0 },
	{ "draining VI: untold means nothing", DVI, FCR_CUT_EV_UNTOLD, ALL_KEYS, DVI, 0 },
	{ "draining VI: vi back means nothing", DVI, FCR_CUT_EV_VI_BACK, ALL_KEYS, DVI, 0 },
	{ "VI drained, a path with a VI (a new VI): tell the VIs first", DVI,
	  FCR_CUT_EV_DRAINED, VI_FIRST, TVI, RESET | TELL_VI },
	{ "draining VI, a path with a VI: FCR_DRAIN_TICKS passed: the VIs first anyway", DVI,
	  FCR_CUT_EV_TICK, { .ticks = FCR_DRAIN_TICKS - 1, .vi_first = 1 }, TVI,
	  DRAIN_TO | RESET | TELL_VI },

	/* telling the VI first */
	{ "VI told: the new rules in, the host's way blocked, wait for the VI", TVI,
	  FCR_CUT_EV_TOLD, VI_FIRST, VITOLD, RESET | VI_PATH },
	{ "VI could not be told: the host now, as without a VI first", TVI,
	  FCR_CUT_EV_UNTOLD, VI_FIRST, TELLING, TELL },
	{ "telling VI: change joins", TVI, FCR_CUT_EV_CHANGE, VI_FIRST, TVI, 0 },
	{ "telling VI: drained means nothing", TVI, FCR_CUT_EV_DRAINED, VI_FIRST, TVI, 0 },
	{ "telling VI: tick", TVI, FCR_CUT_EV_TICK, { .ticks = 1000 }, TVI, 0 },
	{ "telling VI: vi back means nothing", TVI, FCR_CUT_EV_VI_BACK, VI_FIRST, TVI, 0 },
	{ "telling VI: host back", TVI, FCR_CUT_EV_HOST_BACK, VI_FIRST, IDLE, NEW_PATH },
	{ "telling VI: member gone", TVI, FCR_CUT_EV_MEMBER_GONE, VI_FIRST, IDLE, NEW_PATH },

	/* the VI told: until it has logged in to the target through the new path */
	{ "VI back through the new path: tell the host", VITOLD, FCR_CUT_EV_VI_BACK, VI_FIRST,
	  TELLING, RESET | TELL },
	{ "VI told: a tick", VITOLD, FCR_CUT_EV_TICK, { .ticks = 0 }, VITOLD, 0 },
	{ "VI told: the last tick before the bound", VITOLD, FCR_CUT_EV_TICK,
	  { .ticks = FCR_VI_TICKS - 2 }, VITOLD, 0 },
	{ "VI told: FCR_VI_TICKS passed: tell the host anyway", VITOLD, FCR_CUT_EV_TICK,
	  { .ticks = FCR_VI_TICKS - 1 }, TELLING, VI_TO | RESET | TELL },
	{ "VI told: change joins", VITOLD, FCR_CUT_EV_CHANGE, VI_FIRST, VITOLD, 0 },
	{ "VI told: drained means nothing", VITOLD, FCR_CUT_EV_DRAINED, VI_FIRST, VITOLD, 0 },
	{ "VI told: told again means nothing", VITOLD, FCR_CUT_EV_TOLD, VI_FIRST, VITOLD, 0 },
	{ "VI told: untold means nothing", VITOLD, FCR_CUT_EV_UNTOLD, VI_FIRST, VITOLD, 0 },
	{ "VI told: the host logs in again by itself: new path", VITOLD,
	  FCR_CUT_EV_HOST_BACK, VI_FIRST, IDLE, NEW_PATH },
	{ "VI told: a member gone", VITOLD, FCR_CUT_EV_MEMBER_GONE, VI_FIRST, IDLE, NEW_PATH },

	/* telling */
	{ "host told, a changed or deleted redirect: keep the old path", TELLING,
	  FCR_CUT_EV_TOLD, { .plain = 0 }, TOLD, RESET },
	{ "host told, a new redirect: block the pair", TELLING, FCR_CUT_EV_TOLD,
	  { .plain = 1 }, TOLD, RESET | BLOCK },
	{ "host could not be told (cutovers_unsent): new path at once", TELLING,
	  FCR_CUT_EV_UNTOLD, ALL_KEYS, IDLE, NEW_PATH },
	{ "telling: change joins", TELLING, FCR_CUT_EV_CHANGE, ALL_KEYS, TELLING, 0 },
	{ "telling: drained means nothing", TELLING, FCR_CUT_EV_DRAINED, ALL_KEYS, TELLING, 0 },
	{ "telling: tick", TELLING, FCR_CUT_EV_TICK, { .ticks = 1000 }, TELLING, 0 },
	{ "telling: host back", TELLING, FCR_CUT_EV_HOST_BACK, ALL_KEYS, IDLE, NEW_PATH },
	{ "telling: member gone", TELLING, FCR_CUT_EV_MEMBER_GONE, ALL_KEYS, IDLE, NEW_PATH },
	{ "telling: vi back means nothing", TELLING, FCR_CUT_EV_VI_BACK, ALL_KEYS, TELLING, 0 },

	/* told: the old path until the host is back */
	{ "told: the host logs in again after the drain: new path", TOLD,
	  FCR_CUT_EV_HOST_BACK, ALL_KEYS, IDLE, NEW_PATH },
	{ "told: a member gone", TOLD, FCR_CUT_EV_MEMBER_GONE, ALL_KEYS, IDLE, NEW_PATH },
	{ "told: a tick", TOLD, FCR_CUT_EV_TICK, { .ticks = 0 }, TOLD, 0 },
	{ "told: the last tick before the bound", TOLD, FCR_CUT_EV_TICK,
	  { .ticks = FCR_CUTOVER_TICKS - 2 }, TOLD, 0 },
	{ "told: FCR_CUTOVER_TICKS passed: new path anyway", TOLD, FCR_CUT_EV_TICK,
	  { .ticks = FCR_CUTOVER_TICKS - 1 }, IDLE, CUT_TO | NEW_PATH },
	{ "told: redirect deleted or VI replaced: joins, the host's login takes the newest",
	  TOLD, FCR_CUT_EV_CHANGE, ALL_KEYS, TOLD, 0 },
	{ "told: drained means nothing", TOLD, FCR_CUT_EV_DRAINED, ALL_KEYS, TOLD, 0 },
	{ "told: told again means nothing", TOLD, FCR_CUT_EV_TOLD, ALL_KEYS, TOLD, 0 },
	{ "told: untold means nothing", TOLD, FCR_CUT_EV_UNTOLD, ALL_KEYS, TOLD, 0 },
	{ "told: vi back means nothing", TOLD, FCR_CUT_EV_VI_BACK, ALL_KEYS, TOLD, 0 },
};

static void
every_transition_is_as_the_table_says(void **state)
{
	unsigned int i, bad = 0;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *r = &rows[i];
		struct fcr_cut_step s = fcr_cutover_step((enum fcr_cut_state)r->state,
							 (enum fcr_cut_event)r->event, &r->in);

		if (s.state != r->next || s.actions != r->actions) {
			print_error("%s: state %s actions %#x, want %s %#x\n", r->what,
				    fcr_cut_state_name((enum fcr_cut_state)s.state), s.actions,
				    fcr_cut_state_name((enum fcr_cut_state)r->next), r->actions);
			bad++;
		}
	}
	assert_int_equal(bad, 0);
}

/* The table names every state with every event. */
static void
the_table_covers_every_state_and_event(void **state)
{
	uint8_t seen[FCR_CUT_STATES][FCR_CUT_EVENTS] = { { 0 } };
	unsigned int i, s, e;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		seen[rows[i].state][rows[i].event] = 1;
	for (s = 0; s < FCR_CUT_STATES; s++)
		for (e = 0; e < FCR_CUT_EVENTS; e++)
			if (!seen[s][e])
				fail_msg("no row for state %s, event %u",
					 fcr_cut_state_name((enum fcr_cut_state)s), e);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_transition_is_as_the_table_says),
		cmocka_unit_test(the_table_covers_every_state_and_event),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
