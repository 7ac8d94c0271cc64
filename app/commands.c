/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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

/* help's lines end by column 80: text from column `indent` (the first line
 * from wherever the caller left it, `at`), broken between words, the lines
 * after the first at column `cont`. */
#define HELP_WIDTH 80

static void
help_wrap(FILE *out, const char *text, size_t at, size_t cont)
{
	while (*text != '\0') {
		size_t room = at < HELP_WIDTH ? HELP_WIDTH - at : 1, n = strlen(text), cut;

		if (n <= room) {
			fprintf(out, "%s", text);
			break;
		}
		for (cut = room; cut > 0 && text[cut] != ' '; cut--)
			;
		if (cut == 0) /* one word longer than the line: whole */
			cut = strcspn(text, " ");
		fprintf(out, "%.*s", (int)cut, text);
		text += cut;
		while (*text == ' ')
			text++;
		if (*text != '\0')
			fprintf(out, "\n%*s", (int)cont, "");
		at = cont;
	}
	fprintf(out, "\n");
}

/* help: every command by section; help <topic>: one section (its name, or
 * its first letters), or the commands that begin with the word */
static int
help(const struct fcr_cmd *c, FILE *out)
{
	const char *w = c->nb_args > 0 ? fcr_cmd_word(c, 0) : NULL;
	int section = -1, only = -1, s;
	size_t i, shown = 0;

	for (s = 0; w != NULL && s < FCR_SEC_COUNT; s++)
		if (strncasecmp(fcr_cmd_section_name((enum fcr_cmd_section)s), w, strlen(w)) == 0)
			only = s;
	for (i = 0; i < fcr_nb_commands; i++) {
		if (w != NULL && (only >= 0 ? (int)fcr_commands[i].section != only
				  : strncmp(fcr_commands[i].syntax, w, strlen(w)) != 0))
			continue;
		shown++;
		if ((int)fcr_commands[i].section != section) {
			section = (int)fcr_commands[i].section;
			fprintf(out, "%s%s:\n", shown > 1 ? "\n" : "",
				fcr_cmd_section_name(fcr_commands[i].section));
		}
		/* the syntax at column 2 (its own overflow at 4), what it does
		 * below it at 6 */
		fprintf(out, "  ");
		help_wrap(out, fcr_commands[i].syntax, 2, 4);
		fprintf(out, "      ");
		help_wrap(out, fcr_commands[i].help, 6, 6);
	}
	if (shown == 0) {
		fprintf(out, "error: help %s: no section or command begins so (sections:", w);
		for (s = 0; s < FCR_SEC_COUNT; s++)
			fprintf(out, " %s", fcr_cmd_section_name((enum fcr_cmd_section)s));
		fprintf(out, ")\n");
		return -1;
	}
	return 0;
}

static const struct fcr_cmd_def rows[] = {
	{ .syntax = "help", .help = "list the commands", .run = help },
	{ .syntax = "help <topic>", .help = "one section's commands (control, display, ports, configuration, replication), or those that begin with the word (help show)", .run = help },
};
FCR_COMMANDS(rows)
