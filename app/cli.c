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
#include "commands.h"
#include "fcr_config.h"
#include "fwd.h"
#include "options.h"
#include "terminal.h"
#include "sync_lcore.h"

volatile int fcr_cli_signal;
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

/*
 * load config: every line is parsed and checked first (syntax, that it is
 * a configuration command, ports that exist, four distinct redirect
 * ports); one bad line and nothing is applied. The sync lcore then applies
 * the parsed lines as one step.
 */
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

static int
load_config(const char *file)
{
	char line[FCR_CMD_LINE_LEN + 1], msg[FCR_CMD_MSG_LEN], shown[FCR_CMD_MSG_LEN];
	char path[PATH_MAX], why[PATH_MAX + 100], *out = NULL;
	struct fcr_config_line *lines = NULL;
	unsigned int n = 0, cap = 0, lineno = 0;
	FILE *f;
	int rc = 0, r;

	if (fcr_options_config_path(fcr_fwd.opt, file, 1, path, why, sizeof(why)) < 0) {
		printf("error: load config: %s\n", why);
		return -1;
	}
	f = fopen(path, "r");
	if (f == NULL) {
		printf("error: load config: cannot open %s: %s\n", file, strerror(errno));
		return -1;
	}
	while (rc == 0 && fgets(line, sizeof(line), f) != NULL) {
		struct fcr_cmd c;

		lineno++;
		if (strchr(line, '\n') == NULL && !feof(f)) {
			printf("error: %s:%u: line too long\n", file, lineno);
			rc = -1;
			break;
		}
		r = fcr_cmd_parse(fcr_commands, fcr_nb_commands, line, &c, msg);
		if (r < 0) {
			redact(msg, shown, sizeof(shown));
			printf("error: %s:%u: %s\n", file, lineno, shown);
			rc = -1;
		} else if (r > 0 && !(c.def->flags & FCR_CMD_CONFIG)) {
			printf("error: %s:%u: '%s' is not configuration (route add, binding add, "
			       "redirect add)\n", file, lineno, c.def->syntax);
			rc = -1;
		} else if (r > 0 && fcr_config_check(fcr_fwd.tables, &c, msg) < 0) {
			printf("error: %s:%u: %s\n", file, lineno, msg);
			rc = -1;
		} else if (r > 0) {
			if (n == cap) {
				struct fcr_config_line *g =
					realloc(lines, (cap ? cap * 2 : 64) * sizeof(*lines));

				if (g == NULL) {
					printf("error: load config: out of memory\n");
					rc = -1;
					break;
				}
				lines = g;
				cap = cap ? cap * 2 : 64;
			}
			lines[n].cmd = c;
			lines[n].lineno = lineno;
			n++;
		}
	}
	fclose(f);
	if (rc != 0) {
		printf("error: %s: nothing of the file was applied\n", file);
	} else {
		rc = fcr_sync_lcore_apply(lines, n, file, &out);
		if (out != NULL) {
			fputs(out, stdout);
			free(out);
		}
	}
	free(lines);
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
		fcr_forwarding_start();
		break;
	case CMD_STOP:
		fcr_forwarding_stop();
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

static int
run_file(const char *path)
{
	char line[1024], where[512];
	unsigned int lineno = 0;
	FILE *f = fopen(path, "r");
	int rc = 0;

	if (f == NULL) {
		printf("error: cannot open command file %s: %s\n", path, strerror(errno));
		return -1;
	}
	while (!quit_requested && fgets(line, sizeof(line), f) != NULL) {
		lineno++;
		snprintf(where, sizeof(where), "%s:%u", path, lineno);
		if (strchr(line, '\n') == NULL && !feof(f)) {
			printf("error: %s: line longer than %zu characters\n", where,
			       sizeof(line) - 2);
			rc = -1;
			break;
		}
		if (run_line(line, where) < 0)
			rc = -1;
	}
	fclose(f);
	fflush(stdout);
	return rc;
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
		if (*len > 0) { /* a last line without newline */
			buf[*len] = '\0';
			run_line(buf, NULL);
			*len = 0;
		}
		return -1;
	}
	*len += (size_t)n;
	buf[*len] = '\0';
	while (!quit_requested && (nl = strchr(buf, '\n')) != NULL) {
		size_t used = (size_t)(nl - buf) + 1;

		*nl = '\0';
		run_line(buf, NULL);
		memmove(buf, buf + used, *len - used + 1);
		*len -= used;
	}
	if (*len == cap - 1) {
		printf("error: line longer than %zu characters ignored\n", cap - 2);
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

	if (conf->cmdline_file != NULL)
		run_file(conf->cmdline_file);
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
				run_line("show fwd stats", NULL);
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
