/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The tables lcore: it applies what workers report through their rings
 * (first frames, logins) and runs the commands whose rows say they run on
 * it (FCR_CMD_ON_TABLES), so no other thread ever changes a table. It runs
 * on its own lcore when one is given, otherwise on the main lcore.
 */
#ifndef FCR_APP_TABLES_LCORE_H
#define FCR_APP_TABLES_LCORE_H

#include <stdint.h>
#include <stdio.h>

#include "fcr_cmd.h"
#include "fcr_config.h"

/* Time from a worker snooping a login to the tables lcore having applied it. */
struct fcr_login_latency {
	uint64_t count;
	uint64_t sum_tsc;
	uint64_t max_tsc;
};
extern struct fcr_login_latency fcr_login_latency;

/* lcore function: loops until fcr_tables_lcore_exit(). */
int fcr_tables_lcore_main(void *arg);
void fcr_tables_lcore_exit(void);

/*
 * Run a command's handler on the tables lcore (c: its argument, or NULL for
 * one that takes none) and wait for it; what it says is written to out.
 * 0 or -1.
 */
int fcr_tables_lcore_cmd(fcr_cmd_fn *fn, const struct fcr_cmd *c, FILE *out);

/* Run job(arg) on the tables lcore's lcore (a read of the tables that must not
 * race their changes) and wait for it. */
void fcr_tables_lcore_run(void (*job)(void *arg), void *arg);

/*
 * Apply a checked configuration (`where` names the file for messages) as
 * one step: if a line fails, what the earlier lines changed is undone. 0
 * or -1; *output as above.
 */
int fcr_tables_lcore_apply(const struct fcr_config_line *lines, unsigned int n,
		     const char *where, char **output);

#endif /* FCR_APP_TABLES_LCORE_H */
