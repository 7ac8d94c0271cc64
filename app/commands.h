/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The command table. Each file that runs commands registers its own rows
 * beside their handlers (FCR_COMMANDS); each row says which thread runs
 * it. The table feeds the command line, command files, `help` and the
 * terminal's completion; app/dispatch.c runs a command on its thread.
 */
#ifndef FCR_APP_COMMANDS_H
#define FCR_APP_COMMANDS_H

#include <stddef.h>

#include <rte_common.h>

#include "fcr_cmd.h"

/* Add rows to the table (before fcr_commands_init()). A row without a
 * handler is given run and thread (the kinds' rows: one handler for all). */
void fcr_commands_register(const struct fcr_cmd_def *rows, size_t n, fcr_cmd_fn *run,
			   enum fcr_cmd_thread thread);

/* A file's rows, registered when the program loads. */
#define FCR_COMMANDS(rows) \
	RTE_INIT(fcr_register_##rows) \
	{ \
		fcr_commands_register(rows, RTE_DIM(rows), NULL, FCR_CMD_ON_CLI); \
	}

/* A handler that takes no argument and cannot fail: print(out). */
#define FCR_CMD_PRINTER(name, print) \
	static int name(const struct fcr_cmd *c, FILE *out) \
	{ \
		(void)c; \
		print(out); \
		return 0; \
	}

/* Built by fcr_commands_init() from the rows registered: by help's
 * section, and in a section in the order registered. */
extern const struct fcr_cmd_def *fcr_commands;
extern size_t fcr_nb_commands;

/* 0, or -1 and why when the rows make no table: a row without a handler,
 * a syntax twice, memory short. */
int fcr_commands_init(char why[FCR_CMD_MSG_LEN]);

#endif /* FCR_APP_COMMANDS_H */
