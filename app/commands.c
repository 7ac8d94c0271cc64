/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"

/* What the files registered, in the order they did. */
#define FCR_MAX_REGISTRATIONS 32
static struct fcr_cmd_rows reg[FCR_MAX_REGISTRATIONS];
static unsigned int nb_reg;
static int reg_overflow;

const struct fcr_cmd_def *fcr_commands;
size_t fcr_nb_commands;

void
fcr_commands_register(const struct fcr_cmd_def *rows, size_t n, fcr_cmd_fn *run,
		      enum fcr_cmd_thread thread)
{
	if (nb_reg == FCR_MAX_REGISTRATIONS) {
		reg_overflow = 1; /* said by fcr_commands_init() */
		return;
	}
	reg[nb_reg++] = (struct fcr_cmd_rows){ rows, n, run, thread };
}

int
fcr_commands_init(char why[FCR_CMD_MSG_LEN])
{
	if (reg_overflow) {
		snprintf(why, FCR_CMD_MSG_LEN, "more than %d files register commands",
			 FCR_MAX_REGISTRATIONS);
		return -1;
	}
	fcr_commands = fcr_cmd_table(reg, nb_reg, &fcr_nb_commands, why);
	return fcr_commands != NULL ? 0 : -1;
}

static int
help(const struct fcr_cmd *c, FILE *out)
{
	int section = -1;
	size_t i;

	(void)c;
	for (i = 0; i < fcr_nb_commands; i++) {
		if ((int)fcr_commands[i].section != section) {
			section = (int)fcr_commands[i].section;
			fprintf(out, "%s%s:\n", i ? "\n" : "",
				fcr_cmd_section_name(fcr_commands[i].section));
		}
		fprintf(out, "  %-72s %s\n", fcr_commands[i].syntax, fcr_commands[i].help);
	}
	return 0;
}

static const struct fcr_cmd_def rows[] = {
	{ .syntax = "help", .help = "list the commands", .run = help },
};
FCR_COMMANDS(rows)
