/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The control lcore: runs commands (command file, then standard input or
 * the terminal) and, as the tables' one writer, applies the events workers
 * send through their rings.
 */
#ifndef FCR_APP_CONTROL_H
#define FCR_APP_CONTROL_H

#include <stdint.h>
#include <stdio.h>

/* Run a file of commands. 0, or -1 when it cannot be opened or a line
 * fails (the message names file:line). */
int fcr_control_run_file(const char *path);

/*
 * Main loop. interactive: read commands from standard input (a prompt when
 * it is a terminal); end of input acts as `quit`. Otherwise forward until
 * SIGINT/SIGTERM. Returns when asked to quit.
 */
void fcr_control_loop(int interactive);

/* Start/stop forwarding; stop waits until every worker has paused. */
void fcr_control_start(void);
void fcr_control_stop(void);

/* Time from a worker snooping a login to the writer having applied it. */
struct fcr_login_latency {
	uint64_t count;
	uint64_t sum_tsc;
	uint64_t max_tsc;
};
extern struct fcr_login_latency fcr_login_latency;

/* Apply every pending worker event; returns how many. */
unsigned int fcr_control_drain_events(void);

/* 1 once `quit` has been given. */
int fcr_control_quit_requested(void);

/* Set by the signal handler. */
extern volatile int fcr_control_signal;

#endif /* FCR_APP_CONTROL_H */
