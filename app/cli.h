/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The command line: a command file, then standard input (a prompt on a
 * terminal: app/terminal.c) or, without -i, forwarding until SIGINT/SIGTERM.
 * Every line is parsed here, once, and run on the thread its row names
 * (app/commands.c). Its own commands: start, stop, quit, sleep, wait.
 */
#ifndef FCR_APP_CLI_H
#define FCR_APP_CLI_H

struct fcr_cli_conf {
	int interactive;
	const char *cmdline_file;
	int cmdline_file_optional;  /* a missing file is no error */
	unsigned int stats_period; /* seconds, without -i; 0: off */
};

/* Thread body; returns when asked to quit (forwarding is then stopped). */
void *fcr_cli_main(void *conf);

/* 2 when the command file failed: the program exits with it. */
extern int fcr_cli_exit_status;

/* Set by the signal handler. */
extern volatile int fcr_cli_signal;

void fcr_forwarding_start(void);
/* Stop and wait until every worker has paused. */
void fcr_forwarding_stop(void);

#endif /* FCR_APP_CLI_H */
