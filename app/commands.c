/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "log.h"
#include "tables_lcore.h"

/* What the files registered, in the order they did. */
#define FCR_MAX_REGISTRATIONS 32
static struct fcr_cmd_rows reg[FCR_MAX_REGISTRATIONS];
static unsigned int nb_reg;
static int reg_overflow;

const struct fcr_cmd_def *fcr_commands;
size_t fcr_nb_commands;
static int quit_requested;

void
fcr_commands_register(const struct fcr_cmd_def *rows, size_t n, fcr_cmd_fn *run,
		      enum fcr_cmd_thread thread)
{
	if (nb_reg == FCR_MAX_REGISTRATIONS) {
		reg_overflow = 1; /* said by fcr_commands_init(): no log yet */
		return;
	}
	reg[nb_reg++] = (struct fcr_cmd_rows){ rows, n, run, thread };
}

int
fcr_commands_init(void)
{
	char why[FCR_CMD_MSG_LEN];

	if (reg_overflow) {
		FCR_LOG(ERR, main, "more than %d files register commands", FCR_MAX_REGISTRATIONS);
		return -1;
	}
	fcr_commands = fcr_cmd_table(reg, nb_reg, &fcr_nb_commands, why);
	if (fcr_commands == NULL) {
		FCR_LOG(ERR, main, "the command table: %s", why);
		return -1;
	}
	return 0;
}

void
fcr_commands_quit(void)
{
	quit_requested = 1;
}

int
fcr_commands_quitting(void)
{
	return quit_requested;
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

/* The line as given, less a comment, for the audit trail (fcr.cli at
 * info). */
static void
audit(const char *text)
{
	size_t n = strcspn(text, "#\r\n");

	while (n > 0 && (text[n - 1] == ' ' || text[n - 1] == '\t'))
		n--;
	while (n > 0 && (*text == ' ' || *text == '\t')) {
		text++;
		n--;
	}
	FCR_LOG(INFO, cli, "%.*s", (int)n, text);
}

static int
run_on_thread(const struct fcr_cmd *c, FILE *out)
{
	if (c->def->thread == FCR_CMD_ON_TABLES)
		return fcr_tables_lcore_cmd(c->def->run, c, out);
	return c->def->run(c, out);
}

int
fcr_command_run(const struct fcr_cmd *c, const char *text, const char *where)
{
	char *said = NULL;
	size_t len = 0;
	FILE *out;
	int r;

	if (where == NULL) {
		r = run_on_thread(c, stdout);
	} else {
		/* a command of a file: its error names the file and line */
		out = open_memstream(&said, &len);
		if (out == NULL) {
			printf("error: %s: out of memory\n", where);
			fflush(stdout);
			return -1;
		}
		r = run_on_thread(c, out);
		fclose(out);
		if (r < 0 && strncmp(said, "error: ", 7) == 0)
			printf("error: %s: %s", where, said + 7);
		else
			fputs(said, stdout);
		free(said);
	}
	if (r == 0 && (c->def->flags & FCR_CMD_CHANGES))
		audit(text);
	fflush(stdout);
	return r;
}

int
fcr_command_line(const char *text, const char *where)
{
	char msg[FCR_CMD_MSG_LEN];
	struct fcr_cmd c;
	int r;

	r = fcr_cmd_parse(fcr_commands, fcr_nb_commands, text, &c, msg);
	if (r < 0) {
		printf("error: %s%s%s\n", where ? where : "", where ? ": " : "", msg);
		fflush(stdout);
		return -1;
	}
	if (r == 0)
		return 0;
	return fcr_command_run(&c, text, where);
}
