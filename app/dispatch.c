/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "dispatch.h"
#include "log.h"
#include "tables_lcore.h"

static int quit_requested;

void
fcr_quit(void)
{
	quit_requested = 1;
}

int
fcr_quitting(void)
{
	return quit_requested;
}

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
