/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The command line: a command file, then standard input (a prompt on a
 * terminal) or, without -i, forwarding until SIGINT/SIGTERM. It runs start,
 * stop, sleep, wait and quit itself and hands every table command to the
 * writer.
 */
#ifndef FCR_APP_CLI_H
#define FCR_APP_CLI_H

struct fcr_cli_conf {
	int interactive;
	const char *cmdline_file;
	unsigned int stats_period; /* seconds, without -i; 0: off */
};

/* Thread body; returns when asked to quit (forwarding is then stopped). */
void *fcr_cli_main(void *conf);

/* Set by the signal handler. */
extern volatile int fcr_cli_signal;

void fcr_forwarding_start(void);
/* Stop and wait until every worker has paused. */
void fcr_forwarding_stop(void);

#endif /* FCR_APP_CLI_H */
