/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Configuration: the kinds' commands (route, binding, redirect: their rows
 * are in lib/kind/, their one handler here), save config and load config,
 * and command files, read whole and checked before anything of them runs.
 */
#define _GNU_SOURCE /* getline */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>

#include "commands.h"
#include "config_cmds.h"
#include "dispatch.h"
#include "fcr_cutover.h"
#include "fcr_config.h"
#include "fcr_kind.h"
#include "fcr_kind_redirect.h"
#include "fcr_paths.h"
#include "fcr_tables.h"
#include "fcr_text.h"
#include "fwd.h"
#include "log.h"
#include "options.h"
#include "store.h"
#include "tables_lcore.h"

/* A parse error of a file's line without the file's words: the grammar
 * quotes the words it could not take, and a file may hold what is not
 * for the screen; shown as '...' ('help' stays). */
static void
redact(const char *msg, char *out, size_t cap)
{
	size_t o = 0;

	while (*msg != '\0' && o + 6 < cap) {
		const char *end = *msg == '\'' ? strchr(msg + 1, '\'') : NULL;

		if (end == NULL) {
			out[o++] = *msg++;
			continue;
		}
		if (end - msg == 5 && strncmp(msg, "'help'", 6) == 0) {
			memcpy(out + o, msg, 6);
			o += 6;
		} else {
			memcpy(out + o, "'...'", 5);
			o += 5;
		}
		msg = end + 1;
	}
	out[o] = '\0';
}

void
fcr_cmd_file_free(struct fcr_cmd_file *cf)
{
	unsigned int i;

	for (i = 0; i < cf->n; i++)
		free(cf->texts[i]);
	free(cf->lines);
	free(cf->texts);
	memset(cf, 0, sizeof(*cf));
}

static int
cmd_file_add(struct fcr_cmd_file *cf, const struct fcr_cmd *c, unsigned int lineno,
	     const char *text)
{
	if (cf->n == cf->cap) {
		unsigned int cap = cf->cap ? cf->cap * 2 : 64;
		struct fcr_config_line *l = realloc(cf->lines, cap * sizeof(*l));
		char **t;

		if (l == NULL)
			return -1;
		cf->lines = l;
		t = realloc(cf->texts, cap * sizeof(*t));
		if (t == NULL)
			return -1;
		cf->texts = t;
		cf->cap = cap;
	}
	cf->texts[cf->n] = strdup(text);
	if (cf->texts[cf->n] == NULL)
		return -1;
	cf->lines[cf->n].cmd = *c;
	cf->lines[cf->n].lineno = lineno;
	cf->n++;
	return 0;
}

/* (config_cmds.h) */
int
fcr_cmd_file_read(FILE *f, const char *name, int config_only, struct fcr_cmd_file *cf,
		  FILE *out)
{
	char msg[FCR_CMD_MSG_LEN], shown[FCR_CMD_MSG_LEN], why[128];
	unsigned int lineno = 0, bad = 0;
	size_t cap = 0;
	char *line = NULL;
	ssize_t len;

	while ((len = getline(&line, &cap, f)) >= 0) {
		struct fcr_cmd c;
		int r;

		lineno++;
		if (len > 0 && line[len - 1] == '\n')
			len--;
		if (fcr_cmd_line_check(line, (size_t)len, why, sizeof(why)) < 0) {
			fprintf(out, "error: %s:%u: %s\n", name, lineno, why);
			bad++;
			continue;
		}
		line[len] = '\0'; /* a CR left before it is a blank to the grammar */
		r = fcr_cmd_parse(fcr_commands, fcr_nb_commands, line, &c, msg);
		if (r < 0) {
			redact(msg, shown, sizeof(shown));
			fprintf(out, "error: %s:%u: %s\n", name, lineno, shown);
			bad++;
		} else if (r > 0 && config_only && !(c.def->flags & FCR_CMD_CONFIG)) {
			fprintf(out, "error: %s:%u: '%s' is not configuration (route add, binding add, "
			       "redirect add)\n", name, lineno, c.def->syntax);
			bad++;
		} else if (r > 0 && c.def->kind != NULL &&
			   fcr_config_check(fcr_fwd.tables, &c, msg) < 0) {
			fprintf(out, "error: %s:%u: %s\n", name, lineno, msg);
			bad++;
		} else if (r > 0 && cmd_file_add(cf, &c, lineno, line) < 0) {
			fprintf(out, "error: %s: out of memory\n", name);
			bad++;
			break;
		}
	}
	free(line);
	if (ferror(f)) {
		fprintf(out, "error: %s: read error\n", name);
		bad++;
	}
	if (bad != 0)
		fprintf(out, "error: %s: %u bad line%s: nothing of the file was applied\n", name, bad,
		       bad == 1 ? "" : "s");
	return bad ? -1 : 0;
}

/* With a configuration store: the lines as one transaction there. */
static int
store_write_lines(const struct fcr_config_line *lines, unsigned int n, const char *name,
		  FILE *out)
{
	struct fcr_cmd *cmds = malloc((n ? n : 1) * sizeof(*cmds));
	unsigned int i;
	int rc;

	if (cmds == NULL) {
		fprintf(out, "error: %s: out of memory\n", name);
		return -1;
	}
	for (i = 0; i < n; i++)
		cmds[i] = lines[i].cmd;
	rc = fcr_store_write(cmds, n, out);
	if (rc < 0)
		fprintf(out, "error: %s: nothing of the file was applied\n", name);
	free(cmds);
	return rc;
}

/* Configuration lines [from, to) of a file, as one step on the tables lcore
 * (with a store: one transaction in it). */
int
fcr_cmd_file_apply(const struct fcr_cmd_file *cf, unsigned int from, unsigned int to,
		   const char *name, FILE *out)
{
	char *said = NULL;
	int rc;

	if (fcr_store_enabled())
		return store_write_lines(cf->lines + from, to - from, name, out);
	rc = fcr_tables_lcore_apply(cf->lines + from, to - from, name, &said);
	if (said != NULL) {
		fputs(said, out);
		free(said);
	}
	return rc;
}

/*
 * load config: every line is parsed and checked first (syntax, that it is
 * a configuration command, ports that exist, four distinct redirect
 * ports); one bad line and nothing is applied. The tables lcore then applies
 * the parsed lines as one step.
 */
static int
load_config(const struct fcr_cmd *c, FILE *out)
{
	char path[PATH_MAX], why[PATH_MAX + 100];
	const char *file = fcr_cmd_word(c, 0);
	struct fcr_cmd_file cf = { 0 };
	FILE *f;
	int rc;

	if (fcr_options_config_path(fcr_fwd.opt, file, 1, path, why, sizeof(why)) < 0) {
		fprintf(out, "error: load config: %s\n", why);
		return -1;
	}
	f = fopen(path, "r");
	if (f == NULL) {
		fprintf(out, "error: load config: cannot open %s: %s\n", file, strerror(errno));
		return -1;
	}
	rc = fcr_cmd_file_read(f, file, 1, &cf, out);
	fclose(f);
	if (rc == 0)
		rc = fcr_cmd_file_apply(&cf, 0, cf.n, file, out);
	fcr_cmd_file_free(&cf);
	return rc;
}

/* A command file that `load config` (or --cmdline-file) restores: routes,
 * static bindings and redirects; learned bindings come back by themselves.
 * On the tables lcore: the tables are its own. */
static int
save_config(const struct fcr_cmd *c, FILE *out)
{
	const char *file = fcr_cmd_word(c, 0);
	char path[PATH_MAX], why[PATH_MAX + 100];
	FILE *f;
	int fd;

	if (fcr_options_config_path(fcr_fwd.opt, file, 0, path, why, sizeof(why)) < 0) {
		fprintf(out, "error: save config: %s\n", why);
		return -1;
	}
	/* not through a link: one left dangling in the folder could point out */
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0666);
	f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (f == NULL) {
		fprintf(out, "error: save config: cannot write %s: %s\n", file,
			errno == ELOOP ? "a symbolic link" : strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	fprintf(f, "# fcredirect configuration: routes, static bindings, redirects\n");
	fcr_config_save(fcr_fwd.tables, f);
	if (fclose(f) != 0) {
		fprintf(out, "error: save config: writing %s: %s\n", file, strerror(errno));
		return -1;
	}
	return 0;
}

/* On the tables lcore: add, del or list, in the tables. */
static int
kind_apply(const struct fcr_cmd *c, FILE *out)
{
	return fcr_config_run(fcr_fwd.tables, c, out);
}

/* Every kind's commands: checked at the door for what the grammar cannot
 * check; a change goes to the configuration store when there is one (this
 * node applies it as the store's watch brings it back), else to the
 * tables. */
struct pair_open {
	uint16_t vlan;
	uint64_t host, target, open;
};

static void
pair_open_job(void *arg)
{
	struct pair_open *p = arg;

	p->open = fcr_cutover_pair_open(fcr_fwd.tables, p->vlan, p->host, p->target);
}

/* `redirect add ... when idle`: wait on the command line's thread (the
 * tables lcore asked every 10 ms) until the pair has no exchange open. 0,
 * or -1 with a message when it still had after the bound. */
static int
wait_pair_idle(const struct fcr_cmd *c, FILE *out)
{
	struct pair_open p = { .vlan = (uint16_t)c->arg[0].u32, .host = c->arg[1].wwpn,
			       .target = c->arg[2].wwpn };
	uint64_t hz = rte_get_tsc_hz(), end = rte_get_tsc_cycles() + FCR_REDIRECT_IDLE_WAIT_S * hz;
	char h[FCR_WWPN_STRLEN], t[FCR_WWPN_STRLEN];

	for (;;) {
		fcr_tables_lcore_run(pair_open_job, &p);
		if (p.open == 0)
			return 0;
		if (rte_get_tsc_cycles() > end || fcr_quitting())
			break;
		rte_delay_us_sleep(10000);
	}
	fprintf(out, "error: redirect add ... when idle: host %s and target %s still had %" PRIu64
		" exchange(s) open after %d s: nothing added (without 'when idle' the redirect "
		"drains them)\n", fcr_wwpn_format(p.host, h), fcr_wwpn_format(p.target, t),
		p.open, FCR_REDIRECT_IDLE_WAIT_S);
	return -1;
}

/* `redirect del ... paths`: the named redirect and the others of its host's
 * and target's nodes (lib/forward/fcr_paths.h), as one step (with a store:
 * one transaction). */
#define PATHS_MAX 64

struct group_job {
	const struct fcr_cmd *c;
	struct fcr_config_line lines[PATHS_MAX];
	unsigned int n;
};

static void
group_job(void *arg)
{
	struct group_job *g = arg;
	const struct fcr_redirect_table *rt = fcr_fwd.tables->redirects;
	int id = fcr_redirect_find(rt, (uint16_t)g->c->arg[0].u32, g->c->arg[1].wwpn,
				   g->c->arg[2].wwpn);
	uint32_t ids[PATHS_MAX];
	unsigned int i;

	g->n = 0;
	if (id < 0)
		return;
	g->n = fcr_paths_members(rt, (uint32_t)id, ids, PATHS_MAX);
	for (i = 0; i < g->n; i++) {
		const struct fcr_redirect *r = &rt->r[ids[i]];

		g->lines[i].cmd = *g->c;
		g->lines[i].cmd.arg[1].wwpn = rt->bindings->entry[r->binding[FCR_M_HOST]].wwpn;
		g->lines[i].cmd.arg[2].wwpn = rt->bindings->entry[r->binding[FCR_M_TARGET]].wwpn;
		g->lines[i].lineno = i + 1;
	}
}

static int
del_paths(const struct fcr_cmd *c, FILE *out)
{
	struct group_job *g = calloc(1, sizeof(*g));
	int rc;

	if (g == NULL) {
		fprintf(out, "error: out of memory\n");
		return -1;
	}
	g->c = c;
	fcr_tables_lcore_run(group_job, g);
	if (g->n == 0) {
		/* no such redirect: the one command says so */
		free(g);
		return fcr_tables_lcore_cmd(kind_apply, c, out);
	}
	rc = fcr_cmd_file_apply(&(struct fcr_cmd_file){ .lines = g->lines, .n = g->n }, 0, g->n,
				"redirect del ... paths", out);
	if (rc == 0)
		fprintf(out, "%u redirect(s) of the host's and the target's nodes removed\n", g->n);
	free(g);
	return rc;
}

static int
kind_cmd(const struct fcr_cmd *c, FILE *out)
{
	char msg[FCR_CMD_MSG_LEN];

	if (fcr_config_check(fcr_fwd.tables, c, msg) < 0) {
		fprintf(out, "error: %s\n", msg);
		return -1;
	}
	if (c->def->kind == fcr_kinds[FCR_KIND_REDIRECT] && (c->def->form & FCR_REDIRECT_WHEN_IDLE) &&
	    wait_pair_idle(c, out) < 0)
		return -1;
	if (c->def->kind == fcr_kinds[FCR_KIND_REDIRECT] && (c->def->form & FCR_REDIRECT_PATHS))
		return del_paths(c, out);
	if (fcr_store_enabled() && (c->def->flags & FCR_CMD_CHANGES))
		return fcr_store_write(c, 1, out);
	return fcr_tables_lcore_cmd(kind_apply, c, out);
}

static const struct fcr_cmd_def rows[] = {
	{ .syntax = "save config <file>", .help = "write routes, static bindings and redirects as a command file", .run = save_config, .thread = FCR_CMD_ON_TABLES, .section = FCR_SEC_CONFIG },
	{ .syntax = "load config <file>", .help = "apply a command file of routes, bindings, redirects: all or nothing", .run = load_config, .section = FCR_SEC_CONFIG },
};

/* The kinds' rows first, in the kinds' order, then save and load. */
RTE_INIT(fcr_register_config_cmds)
{
	int k;

	for (k = 0; k < FCR_KIND_COUNT; k++)
		if (fcr_kinds[k]->nb_cmds != 0)
			fcr_commands_register(fcr_kinds[k]->cmds, fcr_kinds[k]->nb_cmds, kind_cmd,
					      FCR_CMD_ON_CLI);
	fcr_commands_register(rows, RTE_DIM(rows), NULL, FCR_CMD_ON_CLI);
}
