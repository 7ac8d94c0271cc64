/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The prompt on a terminal: DPDK's cmdline library, with tab completion and
 * '?' help, its instructions made from the command table. Every word of a
 * syntax is a token that knows its type: a literal word, or a placeholder
 * the grammar (lib/frame/fcr_cmd.c) parses as the word is matched. So a
 * line is parsed once, into the typed command the callback runs, and a
 * placeholder matches only what its type accepts ("all" is not a <port>:
 * `show port stats all` is not ambiguous). Completion offers what a type
 * allows: the ports, and the VLANs and WWPNs of the bindings.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmdline.h>
#include <cmdline_parse.h>
#include <cmdline_rdline.h>
#include <cmdline_socket.h>

#include "commands.h"
#include "dispatch.h"
#include "fcr_tables.h"
#include "fcr_text.h"
#include "fwd.h"
#include "terminal.h"
#include "tables_lcore.h"

struct token {
	struct cmdline_token_hdr hdr;
	const char *word;   /* the literal word, or the placeholder ("<vlan>") */
	size_t len;
	int placeholder;
};

#define WORD_MAX 200

/* Where a token puts what it parsed (cmdline's result buffer). */
struct slot {
	union fcr_cmd_arg a;
	char word[WORD_MAX];
};

struct result {
	struct slot s[FCR_CMD_MAX_TOKENS];
};

_Static_assert(sizeof(struct result) <= CMDLINE_PARSE_RESULT_BUFSIZE,
	       "a command's parsed words fit cmdline's result buffer");

static int
is(const struct token *t, const char *ph)
{
	return t->len == strlen(ph) && memcmp(t->word, ph, t->len) == 0;
}

static int
tok_parse(cmdline_parse_token_hdr_t *hdr, const char *buf, void *res, unsigned int size)
{
	const struct token *t = (const struct token *)hdr;
	char word[WORD_MAX];
	union fcr_cmd_arg a;
	const char *why;
	size_t n = 0;

	(void)size;
	if (buf == NULL)
		return -1;
	while (buf[n] != '\0' && !cmdline_isendoftoken(buf[n]))
		n++;
	if (n == 0 || n >= sizeof(word))
		return -1;
	if (!t->placeholder)
		return n == t->len && memcmp(buf, t->word, n) == 0 ? (int)n : -1;
	memcpy(word, buf, n);
	word[n] = '\0';
	if (fcr_cmd_arg_parse(t->word, t->len, word, &a, &why) < 0)
		return -1;
	if (res != NULL) {
		struct slot *s = res; /* cmdline points it at this token's slot */

		s->a = a;
		memcpy(s->word, word, n + 1);
	}
	return (int)n;
}

/* What completion offers for VLANs and WWPNs: those of the bindings, read
 * on the tables lcore (the tables are its own). */
#define OFFER_MAX 256
static struct {
	unsigned int n;
	char v[OFFER_MAX][FCR_WWPN_STRLEN];
} offer;

struct offer_job {
	int wwpns;
};

static void
collect(void *arg)
{
	const struct offer_job *j = arg;
	const struct fcr_binding_table *bt = fcr_fwd.tables->bindings;
	char v[FCR_WWPN_STRLEN];
	unsigned int k;
	uint32_t i;

	offer.n = 0;
	for (i = 0; i < bt->capacity && offer.n < OFFER_MAX; i++) {
		const struct fcr_binding *nm = &bt->entry[i];

		if (!nm->in_use || nm->fcid == FCR_FCID_NONE)
			continue;
		if (j->wwpns)
			fcr_wwpn_format(nm->wwpn, v);
		else
			snprintf(v, sizeof(v), "%u", nm->vlan);
		for (k = 0; k < offer.n && strcmp(offer.v[k], v) != 0; k++)
			;
		if (k == offer.n)
			memcpy(offer.v[offer.n++], v, sizeof(v));
	}
}

static int
tok_complete_nb(cmdline_parse_token_hdr_t *hdr)
{
	const struct token *t = (const struct token *)hdr;
	struct offer_job j;

	if (!t->placeholder)
		return 1;
	if (is(t, "<port>"))
		return fcr_fwd.nb_ports;
	if (is(t, "<vlan>") || is(t, "<wwpn>")) {
		j.wwpns = is(t, "<wwpn>");
		fcr_tables_lcore_run(collect, &j);
		return (int)offer.n;
	}
	return 0;
}

static int
tok_complete_elt(cmdline_parse_token_hdr_t *hdr, int i, char *dst, unsigned int size)
{
	const struct token *t = (const struct token *)hdr;

	if (!t->placeholder)
		snprintf(dst, size, "%.*s", (int)t->len, t->word);
	else if (is(t, "<port>"))
		snprintf(dst, size, "%d", i);
	else if (i >= 0 && (unsigned int)i < offer.n)
		snprintf(dst, size, "%s", offer.v[i]);
	else
		return -1;
	return 0;
}

static int
tok_help(cmdline_parse_token_hdr_t *hdr, char *dst, unsigned int size)
{
	const struct token *t = (const struct token *)hdr;

	snprintf(dst, size, "%.*s", (int)t->len, t->word);
	return 0;
}

static struct cmdline_token_ops tok_ops = {
	.parse = tok_parse,
	.complete_get_nb = tok_complete_nb,
	.complete_get_elt = tok_complete_elt,
	.get_help = tok_help,
};

/*
 * The last instruction takes any line no command took, so that what it
 * says is the same as from a pipe or a file (the grammar's `error: unknown
 * command ...` or `error: bad <vlan> ...`), not cmdline's `Command not
 * found` or `Bad arguments`. Its one token takes the rest of the line,
 * completes to nothing and shows in '?' as what the grammar will say.
 */
static char rest_line[FCR_CMD_LINE_LEN];

static int
rest_parse(cmdline_parse_token_hdr_t *hdr, const char *buf, void *res, unsigned int size)
{
	size_t n;

	(void)hdr;
	(void)size;
	if (buf == NULL)
		return -1;
	char line[FCR_CMD_LINE_LEN], msg[FCR_CMD_MSG_LEN];
	struct fcr_cmd c;

	n = strcspn(buf, "\r\n");
	if (n == 0 || n >= sizeof(line))
		return -1;
	memcpy(line, buf, n);
	line[n] = '\0';
	/* a line a command takes is that command's alone (two instructions
	 * that both take a line are `Ambiguous` to cmdline) */
	if (fcr_cmd_parse(fcr_commands, fcr_nb_commands, line, &c, msg) >= 0)
		return -1;
	if (res != NULL)
		memcpy(rest_line, line, n + 1);
	return (int)n;
}

static int
rest_complete_nb(cmdline_parse_token_hdr_t *hdr)
{
	(void)hdr;
	return 0;
}

static int
rest_help(cmdline_parse_token_hdr_t *hdr, char *dst, unsigned int size)
{
	(void)hdr;
	snprintf(dst, size, "(anything else)");
	return 0;
}

static struct cmdline_token_ops rest_ops = {
	.parse = rest_parse,
	.complete_get_nb = rest_complete_nb,
	.get_help = rest_help,
};

static void
on_rest(void *res, struct cmdline *cl, void *data)
{
	(void)res;
	(void)data;
	fcr_command_line(rest_line, NULL);
	if (fcr_quitting())
		cmdline_quit(cl);
}

/* The typed command, from what the tokens parsed, and the line as typed
 * (for the audit trail). */
static void
on_line(void *res, struct cmdline *cl, void *data)
{
	const struct fcr_cmd_def *d = data;
	const struct result *r = res;
	char text[FCR_CMD_LINE_LEN] = "";
	struct fcr_cmd c;
	const char *w = d->syntax;
	int i = 0;

	memset(&c, 0, sizeof(c));
	c.def = d;
	while (*w) {
		size_t len = strcspn(w, " ");
		size_t used = strlen(text);

		if (fcr_cmd_is_placeholder(w)) {
			c.arg[c.nb_args] = r->s[i].a;
			if (fcr_cmd_placeholder_is_word(w, len) &&
			    fcr_cmd_add_word(&c, c.nb_args, r->s[i].word) < 0) {
				printf("error: the words are too long\n");
				return;
			}
			c.nb_args++;
			snprintf(text + used, sizeof(text) - used, "%s%s", used ? " " : "",
				 r->s[i].word);
		} else {
			snprintf(text + used, sizeof(text) - used, "%s%.*s", used ? " " : "",
				 (int)len, w);
		}
		w += len;
		while (*w == ' ')
			w++;
		i++;
	}
	fcr_command_run(&c, text, NULL);
	if (fcr_quitting())
		cmdline_quit(cl);
}

static void
free_instructions(cmdline_parse_ctx_t *ctx)
{
	size_t c, n;

	if (ctx == NULL)
		return;
	for (c = 0; ctx[c] != NULL; c++) {
		cmdline_parse_inst_t *inst = ctx[c];

		for (n = 0; inst->tokens[n] != NULL; n++)
			free(inst->tokens[n]); /* its struct token: hdr comes first */
		free((void *)(uintptr_t)inst->help_str);
		free(inst);
	}
	free(ctx);
}

static cmdline_parse_ctx_t *
instructions(void)
{
	cmdline_parse_ctx_t *ctx = calloc(fcr_nb_commands + 2, sizeof(*ctx));
	size_t c;

	if (ctx == NULL)
		return NULL;
	for (c = 0; c < fcr_nb_commands; c++) {
		const struct fcr_cmd_def *d = &fcr_commands[c];
		cmdline_parse_inst_t *inst;
		const char *w = d->syntax;
		char *help;
		size_t n = 0;

		inst = calloc(1, sizeof(*inst) + (FCR_CMD_MAX_TOKENS + 1) * sizeof(void *));
		help = malloc(strlen(d->syntax) + strlen(d->help) + 4);
		if (inst == NULL || help == NULL) {
			free(inst);
			free(help);
			free_instructions(ctx);
			return NULL;
		}
		ctx[c] = inst; /* from here freed with ctx */
		sprintf(help, "%s: %s", d->syntax, d->help);
		inst->f = on_line;
		inst->data = (void *)(uintptr_t)d;
		inst->help_str = help;
		while (*w && n < FCR_CMD_MAX_TOKENS) {
			struct token *t = calloc(1, sizeof(*t));

			if (t == NULL) {
				free_instructions(ctx);
				return NULL;
			}
			t->hdr.ops = &tok_ops;
			t->hdr.offset = (unsigned int)(n * sizeof(struct slot));
			t->word = w;
			t->len = strcspn(w, " ");
			t->placeholder = fcr_cmd_is_placeholder(w);
			inst->tokens[n++] = &t->hdr;
			w += t->len;
			while (*w == ' ')
				w++;
		}
	}
	{
		cmdline_parse_inst_t *inst = calloc(1, sizeof(*inst) + 2 * sizeof(void *));
		struct token *t = calloc(1, sizeof(*t));
		char *help = strdup("what the grammar says of any other line");

		ctx[c] = inst;
		if (inst == NULL || t == NULL || help == NULL) {
			free(t);
			free(help);
			free_instructions(ctx);
			return NULL;
		}
		t->hdr.ops = &rest_ops;
		inst->f = on_rest;
		inst->help_str = help;
		inst->tokens[0] = &t->hdr;
	}
	return ctx;
}

void
fcr_terminal_loop(volatile int *signalled)
{
	cmdline_parse_ctx_t *ctx = instructions();
	struct cmdline *cl;

	if (ctx == NULL || (cl = cmdline_stdin_new(ctx, "fcredirect> ")) == NULL) {
		printf("error: cannot start the interactive prompt\n");
		free_instructions(ctx);
		return;
	}
	while (!fcr_quitting() && !*signalled) {
		int st = cmdline_poll(cl);

		if (st < 0 || st == RDLINE_EXITED)
			break;
		usleep(2000);
	}
	cmdline_stdin_exit(cl);
	free_instructions(ctx);
	printf("\n");
}
