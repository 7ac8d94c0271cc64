/* SPDX-License-Identifier: BSD-3-Clause */
#define _GNU_SOURCE /* ppoll */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rte_cycles.h>

#include "log.h"
#include "cli.h"
#include "store.h"
#include "commands.h"
#include "fcr_config.h"
#include "fwd.h"
#include "options.h"
#include "ports.h"
#include "terminal.h"
#include "sync_lcore.h"

volatile int fcr_cli_signal;
int fcr_cli_exit_status;
static int quit_requested;

void
fcr_forwarding_start(void)
{
	__atomic_store_n(&fcr_fwd.forwarding, 1, __ATOMIC_RELEASE);
}

void
fcr_forwarding_stop(void)
{
	unsigned int w;

	__atomic_store_n(&fcr_fwd.forwarding, 0, __ATOMIC_RELEASE);
	/* distributors first: the workers empty their rings after them */
	for (w = 0; w < fcr_fwd.nb_distributors; w++)
		while (!__atomic_load_n(&fcr_fwd.distributors[w]->paused, __ATOMIC_ACQUIRE))
			usleep(50);
	for (w = 0; w < fcr_fwd.nb_workers; w++)
		while (!__atomic_load_n(&fcr_fwd.workers[w]->paused, __ATOMIC_ACQUIRE))
			usleep(50);
}

static void
wait_ms(uint32_t ms)
{
	uint64_t end = rte_rdtsc() + rte_get_tsc_hz() / 1000 * ms;

	while (rte_rdtsc() < end && !fcr_cli_signal)
		usleep(500);
}

static uint64_t
rx_total(void)
{
	uint64_t t = 0;
	unsigned int w, p;

	for (w = 0; w < fcr_fwd.nb_workers; w++)
		for (p = 0; p < FCR_MAX_PORTS; p++)
			t += fcr_fwd.workers[w]->st.rx[p];
	return t;
}

static void
wait_idle(uint32_t ms)
{
	uint64_t hz = rte_get_tsc_hz(), start = rte_rdtsc(), last_change = start;
	uint64_t seen = rx_total(), now, rx;

	for (;;) {
		usleep(500);
		now = rte_rdtsc();
		rx = rx_total();
		if (rx != seen) {
			seen = rx;
			last_change = now;
		}
		if (now - last_change >= hz / 1000 * ms || fcr_cli_signal ||
		    now - start >= hz * 60)
			return;
	}
}

/* A state, not a lull: a capture replayed to its end on a loaded machine
 * may pause for longer than any idle time. */
static int
wait_rx(uint32_t n, uint32_t ms)
{
	uint64_t hz = rte_get_tsc_hz(), start = rte_rdtsc(), rx;

	while ((rx = rx_total()) < n) {
		if (fcr_cli_signal || rte_rdtsc() - start >= hz / 1000 * ms) {
			printf("error: wait rx: %" PRIu64 " of %u frames received after %u ms\n",
			       rx, n, ms);
			return -1;
		}
		usleep(500);
	}
	return 0;
}

static void
help(void)
{
	size_t i;

	for (i = 0; i < fcr_nb_commands; i++) {
		if (fcr_commands[i].group != NULL)
			printf("%s%s:\n", i ? "\n" : "", fcr_commands[i].group);
		printf("  %-72s %s\n", fcr_commands[i].syntax, fcr_commands[i].help);
	}
}

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

/* A command file read whole: its commands parsed, and each line's text
 * (for the audit trail). */
struct cmd_file {
	struct fcr_config_line *lines;
	char **texts;
	unsigned int n, cap;
};

static void
cmd_file_free(struct cmd_file *cf)
{
	unsigned int i;

	for (i = 0; i < cf->n; i++)
		free(cf->texts[i]);
	free(cf->lines);
	free(cf->texts);
	memset(cf, 0, sizeof(*cf));
}

static int
cmd_file_add(struct cmd_file *cf, const struct fcr_cmd *c, unsigned int lineno,
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

/*
 * Read, parse and check a whole command file before anything of it runs:
 * every line shorter than the limit and free of control bytes (NUL
 * included), a command, the checks the grammar cannot make (ports that
 * exist, four distinct redirect ports), and with config_only a
 * configuration command. Every bad line is reported (file:line, never the
 * file's words); one and the file is refused. 0 or -1.
 */
static int
cmd_file_read(FILE *f, const char *name, int config_only, struct cmd_file *cf)
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
			printf("error: %s:%u: %s\n", name, lineno, why);
			bad++;
			continue;
		}
		line[len] = '\0'; /* a CR left before it is a blank to the grammar */
		r = fcr_cmd_parse(fcr_commands, fcr_nb_commands, line, &c, msg);
		if (r < 0) {
			redact(msg, shown, sizeof(shown));
			printf("error: %s:%u: %s\n", name, lineno, shown);
			bad++;
		} else if (r > 0 && config_only && !(c.def->flags & FCR_CMD_CONFIG)) {
			printf("error: %s:%u: '%s' is not configuration (route add, binding add, "
			       "redirect add)\n", name, lineno, c.def->syntax);
			bad++;
		} else if (r > 0 && c.def->kind != NULL &&
			   fcr_config_check(fcr_fwd.tables, &c, msg) < 0) {
			printf("error: %s:%u: %s\n", name, lineno, msg);
			bad++;
		} else if (r > 0 && cmd_file_add(cf, &c, lineno, line) < 0) {
			printf("error: %s: out of memory\n", name);
			bad++;
			break;
		}
	}
	free(line);
	if (ferror(f)) {
		printf("error: %s: read error\n", name);
		bad++;
	}
	if (bad != 0)
		printf("error: %s: %u bad line%s: nothing of the file was applied\n", name, bad,
		       bad == 1 ? "" : "s");
	return bad ? -1 : 0;
}

/* With a configuration store: the lines as one transaction there. */
static int
store_write_lines(const struct fcr_config_line *lines, unsigned int n, const char *name)
{
	struct fcr_cmd *cmds = malloc((n ? n : 1) * sizeof(*cmds));
	unsigned int i;
	int rc;

	if (cmds == NULL) {
		printf("error: %s: out of memory\n", name);
		return -1;
	}
	for (i = 0; i < n; i++)
		cmds[i] = lines[i].cmd;
	rc = fcr_store_write(cmds, n, stdout);
	if (rc < 0)
		printf("error: %s: nothing of the file was applied\n", name);
	free(cmds);
	return rc;
}

/* Configuration lines [from, to) of a file, as one step on the sync lcore
 * (with a store: one transaction in it). */
static int
cmd_file_apply(const struct cmd_file *cf, unsigned int from, unsigned int to, const char *name)
{
	char *out = NULL;
	int rc;

	if (fcr_store_enabled())
		return store_write_lines(cf->lines + from, to - from, name);
	rc = fcr_sync_lcore_apply(cf->lines + from, to - from, name, &out);

	if (out != NULL) {
		fputs(out, stdout);
		free(out);
	}
	return rc;
}

/*
 * load config: every line is parsed and checked first (syntax, that it is
 * a configuration command, ports that exist, four distinct redirect
 * ports); one bad line and nothing is applied. The sync lcore then applies
 * the parsed lines as one step.
 */
static int
load_config(const char *file)
{
	char path[PATH_MAX], why[PATH_MAX + 100];
	struct cmd_file cf = { 0 };
	FILE *f;
	int rc;

	if (fcr_options_config_path(fcr_fwd.opt, file, 1, path, why, sizeof(why)) < 0) {
		printf("error: load config: %s\n", why);
		return -1;
	}
	f = fopen(path, "r");
	if (f == NULL) {
		printf("error: load config: cannot open %s: %s\n", file, strerror(errno));
		return -1;
	}
	rc = cmd_file_read(f, file, 1, &cf);
	fclose(f);
	if (rc == 0)
		rc = cmd_file_apply(&cf, 0, cf.n, file);
	cmd_file_free(&cf);
	return rc;
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

static int run_line(const char *text, const char *where);

static int
forwarding(void)
{
	return __atomic_load_n(&fcr_fwd.forwarding, __ATOMIC_ACQUIRE);
}

/*
 * port stop|start|reset <port>|all and set promisc: as testpmd, only with
 * forwarding stopped (a worker must never poll a stopped port), and `start`
 * refuses while a port is stopped.
 */
static int
port_cmd(const struct fcr_cmd *c)
{
	int id = c->def->id, all = id == CMD_PORT_STOP_ALL || id == CMD_PORT_START_ALL ||
				   id == CMD_PORT_RESET_ALL || id == CMD_SET_PROMISC_ALL;
	const char *onoff = id == CMD_SET_PROMISC ? fcr_cmd_word(c, 1) :
			    id == CMD_SET_PROMISC_ALL ? fcr_cmd_word(c, 0) : NULL;
	uint16_t p, first = all ? 0 : (uint16_t)c->arg[0].u32;
	uint16_t last = all ? fcr_fwd.nb_ports : first + 1;
	int rc = 0;

	if (!all && c->arg[0].u32 >= fcr_fwd.nb_ports) {
		printf("error: port %u does not exist (%u ports)\n", c->arg[0].u32,
		       fcr_fwd.nb_ports);
		return -1;
	}
	if (onoff != NULL && strcmp(onoff, "on") != 0 && strcmp(onoff, "off") != 0) {
		printf("error: set promisc: on or off, not '%s'\n", onoff);
		return -1;
	}
	if (onoff == NULL && forwarding()) {
		printf("error: %s: stop forwarding first (stop)\n", c->def->syntax);
		return -1;
	}
	for (p = first; p < last && rc == 0; p++) {
		switch (id) {
		case CMD_PORT_STOP:
		case CMD_PORT_STOP_ALL:
			rc = fcr_port_stop(p, stdout);
			break;
		case CMD_PORT_START:
		case CMD_PORT_START_ALL:
			rc = fcr_port_start(p, stdout);
			break;
		case CMD_PORT_RESET:
		case CMD_PORT_RESET_ALL:
			rc = fcr_port_reset(p, stdout);
			break;
		default:
			rc = fcr_port_promisc(p, strcmp(onoff, "on") == 0, stdout);
			break;
		}
	}
	return rc;
}

static int
start(void)
{
	uint16_t p;

	for (p = 0; p < fcr_fwd.nb_ports; p++)
		if (fcr_port_stopped(p)) {
			printf("error: start: port %u is stopped (port start %u, or port start all)\n",
			       p, p);
			return -1;
		}
	fcr_forwarding_start();
	return 0;
}

/* As testpmd's: the forward statistics once the workers have stopped. */
static void
stop(void)
{
	if (!forwarding()) {
		printf("forwarding is not started\n");
		return;
	}
	fcr_forwarding_stop();
	run_line("show fwd stats", NULL);
}

int
fcr_cli_quitting(void)
{
	return quit_requested;
}

int
fcr_cli_run(const struct fcr_cmd *c, const char *text, const char *where)
{
	char msg[FCR_CMD_MSG_LEN], *out = NULL;
	int r = 0;

	switch (c->def->id) {
	case CMD_HELP:
		help();
		break;
	case CMD_QUIT:
		quit_requested = 1;
		break;
	case CMD_START:
		r = start();
		break;
	case CMD_STOP:
		stop();
		break;
	case CMD_PORT_STOP:
	case CMD_PORT_STOP_ALL:
	case CMD_PORT_START:
	case CMD_PORT_START_ALL:
	case CMD_PORT_RESET:
	case CMD_PORT_RESET_ALL:
	case CMD_SET_PROMISC:
	case CMD_SET_PROMISC_ALL:
		r = port_cmd(c);
		break;
	case CMD_SET_FWD:
		printf("error: set fwd %s: fcredirect has one forwarding mode (FC-Redirect rules, "
		       "then routes); testpmd's modes do not apply\n", fcr_cmd_word(c, 0));
		r = -1;
		break;
	case CMD_SLEEP:
		wait_ms(c->arg[0].u32);
		break;
	case CMD_WAIT_IDLE:
		wait_idle(c->arg[0].u32);
		break;
	case CMD_WAIT_RX:
		r = wait_rx(c->arg[0].u32, c->arg[1].u32);
		break;
	case CMD_SHOW_CONFIG_STORE:
		fcr_store_show(stdout);
		break;
	case CMD_LOAD_CONFIG:
		r = load_config(fcr_cmd_word(c, 0));
		break;
	default:
		/* checked at the door: what the grammar cannot check */
		if (fcr_config_check(fcr_fwd.tables, c, msg) < 0) {
			printf("error: %s%s%s\n", where ? where : "", where ? ": " : "", msg);
			r = -1;
			break;
		}
		if (fcr_store_enabled() && c->def->kind != NULL &&
		    (c->def->flags & FCR_CMD_CHANGES)) {
			r = fcr_store_write(c, 1, stdout);
			break;
		}
		r = fcr_sync_lcore_call(c, &out);
		if (out != NULL) {
			if (r < 0 && where != NULL && strncmp(out, "error: ", 7) == 0)
				printf("error: %s: %s", where, out + 7);
			else
				fputs(out, stdout);
			free(out);
		}
		break;
	}
	if (r == 0 && (c->def->flags & FCR_CMD_CHANGES))
		audit(text);
	fflush(stdout);
	return r;
}

/* Parse and run one line. 0 (also for blank lines), or -1. */
static int
run_line(const char *text, const char *where)
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
	return fcr_cli_run(&c, text, where);
}

/*
 * --cmdline-file: all or nothing, as load config. The whole file is read
 * and checked first; one bad line and nothing of it runs. Then it runs in
 * order, each run of consecutive configuration lines applied as one step;
 * a line that still fails (a table full) stops it. -1 then: the program
 * does not start (exit 2). A missing file is an error too, unless the file
 * is optional (--cmdline-file-optional).
 */
int
fcr_cli_line(const char *text)
{
	return run_line(text, NULL);
}

static int
run_file(const char *path, int optional)
{
	struct cmd_file cf = { 0 };
	char where[PATH_MAX + 16];
	unsigned int i = 0, j;
	FILE *f = fopen(path, "r");
	int rc;

	if (f == NULL && optional && errno == ENOENT) {
		printf("fcredirect: no command file %s (optional): empty tables\n", path);
		return 0;
	}
	if (f == NULL) {
		printf("error: cannot open command file %s: %s\n", path, strerror(errno));
		return -1;
	}
	rc = cmd_file_read(f, path, 0, &cf);
	fclose(f);
	while (rc == 0 && i < cf.n && !quit_requested) {
		for (j = i; j < cf.n && (cf.lines[j].cmd.def->flags & FCR_CMD_CONFIG); j++)
			;
		if (j > i) {
			rc = cmd_file_apply(&cf, i, j, path);
			i = j;
			continue;
		}
		snprintf(where, sizeof(where), "%s:%u", path, cf.lines[i].lineno);
		rc = fcr_cli_run(&cf.lines[i].cmd, cf.texts[i], where);
		i++;
	}
	if (rc != 0 && i > 0)
		printf("error: %s: stopped at line %u: not starting\n", path,
		       cf.lines[i - 1].lineno);
	cmd_file_free(&cf);
	fflush(stdout);
	return rc;
}

/* Standard input, a line at a time: its lines are numbered; one too long
 * or with a control byte (a NUL among them) is refused whole, with its
 * number, and nothing of it runs: not its head, not its tail. */
static struct {
	unsigned int lineno;
	int discarding;   /* within a line already refused as too long */
} input;

static void
input_line(char *line, size_t len)
{
	char why[128];

	input.lineno++;
	if (fcr_cmd_line_check(line, len, why, sizeof(why)) < 0) {
		printf("error: line %u: %s\n", input.lineno, why);
		fflush(stdout);
		return;
	}
	line[len] = '\0';
	run_line(line, NULL);
}

/* Read what standard input has; run each complete line. -1 at its end. */
static int
read_input(char *buf, size_t cap, size_t *len)
{
	ssize_t n = read(STDIN_FILENO, buf + *len, cap - 1 - *len);
	char *nl;

	if (n < 0)
		return errno == EINTR || errno == EAGAIN ? 0 : -1;
	if (n == 0) {
		if (*len > 0 && !input.discarding) /* a last line without newline */
			input_line(buf, *len);
		*len = 0;
		return -1;
	}
	*len += (size_t)n;
	while (!quit_requested && (nl = memchr(buf, '\n', *len)) != NULL) {
		size_t used = (size_t)(nl - buf) + 1;

		if (input.discarding)
			input.discarding = 0; /* the refused line's end */
		else
			input_line(buf, used - 1);
		memmove(buf, buf + used, *len - used);
		*len -= used;
	}
	if (*len == cap - 1) {
		if (!input.discarding) {
			input.lineno++;
			printf("error: line %u: longer than %d characters: refused whole\n",
			       input.lineno, FCR_CMD_LINE_LEN - 1);
			fflush(stdout);
		}
		input.discarding = 1;
		*len = 0;
	}
	return 0;
}

void *
fcr_cli_main(void *arg)
{
	const struct fcr_cli_conf *conf = arg;
	struct pollfd pfd = { .fd = STDIN_FILENO, .events = POLLIN };
	const struct timespec tick = { .tv_sec = 0, .tv_nsec = 10 * 1000 * 1000 };
	int tty = conf->interactive && isatty(STDIN_FILENO);
	char buf[4096];
	size_t len = 0;
	uint64_t last_stats = rte_rdtsc();

	/* fail closed: no forwarding, no command, before the store's redirects */
	if (fcr_store_enabled() && fcr_store_wait_loaded(&fcr_cli_signal) < 0)
		quit_requested = 1;
	if (!quit_requested && conf->cmdline_file != NULL &&
	    run_file(conf->cmdline_file, conf->cmdline_file_optional) < 0) {
		/* the program does not start on a command file that failed */
		fcr_cli_exit_status = 2;
		quit_requested = 1;
	}
	if (!quit_requested && !conf->interactive)
		fcr_forwarding_start();
	if (tty && !quit_requested)
		fcr_terminal_loop();
	while (!tty && !quit_requested && !fcr_cli_signal) {
		if (!conf->interactive) {
			nanosleep(&tick, NULL);
			if (conf->stats_period &&
			    rte_rdtsc() - last_stats >= rte_get_tsc_hz() * conf->stats_period) {
				last_stats = rte_rdtsc();
				run_line("show fwd rates", NULL);
			}
			continue;
		}
		/* wake up now and then to notice a signal */
		if (ppoll(&pfd, 1, &tick, NULL) > 0 &&
		    read_input(buf, sizeof(buf), &len) < 0)
			break; /* end of input: as `quit` */
	}
	fcr_forwarding_stop();
	return NULL;
}
