/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Configuration commands and command files (app/config_cmds.c). A command
 * file is read and checked whole before anything of it runs.
 */
#ifndef FCR_APP_CONFIG_CMDS_H
#define FCR_APP_CONFIG_CMDS_H

#include <stdio.h>

#include "fcr_config.h"

/* A command file read whole: its commands parsed, and each line's text
 * (for the audit trail). */
struct fcr_cmd_file {
	struct fcr_config_line *lines;
	char **texts;
	unsigned int n, cap;
};

/*
 * Read, parse and check a whole command file (name: for messages):
 * every line shorter than the limit and free of control bytes, a command,
 * the checks the grammar cannot make and, with config_only, a
 * configuration command. Every bad line is said on out (file:line, never
 * the file's words); one and the file is refused. 0 or -1.
 */
int fcr_cmd_file_read(FILE *f, const char *name, int config_only, struct fcr_cmd_file *cf,
		      FILE *out);
/* Its configuration lines [from, to) as one step on the tables lcore (with a
 * store: one transaction in it). 0 or -1. */
int fcr_cmd_file_apply(const struct fcr_cmd_file *cf, unsigned int from, unsigned int to,
		       const char *name, FILE *out);
void fcr_cmd_file_free(struct fcr_cmd_file *cf);

#endif /* FCR_APP_CONFIG_CMDS_H */
