/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The command line: a command file, then standard input (a prompt on a
 * terminal: app/terminal.c) or, without -i, forwarding until SIGINT/SIGTERM.
 * Every line is parsed here, once; the command line runs start, stop,
 * sleep, wait, load config and quit itself and hands every other command,
 * parsed, to the sync lcore.
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

#include "fcr_cmd.h"

/* Run a parsed command (text: the line as typed, for the audit trail;
 * where: the file and line it came from, or NULL). 0 or -1. */
int fcr_cli_run(const struct fcr_cmd *c, const char *text, const char *where);
/* Parse and run one line as from a pipe (the terminal's lines no command
 * took: the grammar says what is wrong). 0 or -1. */
int fcr_cli_line(const char *text);
/* Whether `quit` was given. */
int fcr_cli_quitting(void);

/* 2 when the command file failed: the program exits with it. */
extern int fcr_cli_exit_status;

/* Set by the signal handler. */
extern volatile int fcr_cli_signal;

void fcr_forwarding_start(void);
/* Stop and wait until every worker has paused. */
void fcr_forwarding_stop(void);

#endif /* FCR_APP_CLI_H */
