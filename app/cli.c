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

#include "cli.h"
#include "commands.h"
#include "dispatch.h"
#include "config_cmds.h"
#include "fwd.h"
#include "rates.h"
#include "show.h"
#include "state_file.h"
#include "store.h"
#include "ports.h"
#include "terminal.h"
#include "tables_lcore.h"

volatile int fcr_cli_signal;
int fcr_cli_exit_status;

void
fcr_forwarding_start(void)
{
	/* the configuration is in: restored redirects it no longer names go */
	fcr_tables_lcore_run(fcr_state_file_settle, NULL);
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
wait_rx(uint32_t n, uint32_t ms, FILE *out)
{
	uint64_t hz = rte_get_tsc_hz(), start = rte_rdtsc(), rx;

	while ((rx = rx_total()) < n) {
		if (fcr_cli_signal || rte_rdtsc() - start >= hz / 1000 * ms) {
			fprintf(out, "error: wait rx: %" PRIu64 " of %u frames received after %u ms\n",
				rx, n, ms);
			return -1;
		}
		usleep(500);
	}
	return 0;
}

static int
forwarding(void)
{
	return __atomic_load_n(&fcr_fwd.forwarding, __ATOMIC_ACQUIRE);
}

/* As testpmd's: refused while a port is stopped. */
static int
start(const struct fcr_cmd *c, FILE *out)
{
	uint16_t p;

	(void)c;
	for (p = 0; p < fcr_fwd.nb_ports; p++)
		if (fcr_port_stopped(p)) {
			fprintf(out, "error: start: port %u is stopped (port start %u, or port "
				"start all)\n", p, p);
			return -1;
		}
	fcr_forwarding_start();
	return 0;
}

/* As testpmd's: the forward statistics once the workers have stopped. */
static int
stop(const struct fcr_cmd *c, FILE *out)
{
	(void)c;
	if (!forwarding()) {
		fprintf(out, "forwarding is not started\n");
		return 0;
	}
	fcr_forwarding_stop();
	return fcr_tables_lcore_cmd(fcr_show_fwd_stats_cmd, NULL, out);
}

static int
set_fwd(const struct fcr_cmd *c, FILE *out)
{
	fprintf(out, "error: set fwd %s: fcredirect has one forwarding mode (FC-Redirect rules, "
		"then routes); testpmd's modes do not apply\n", fcr_cmd_word(c, 0));
	return -1;
}

static int
quit(const struct fcr_cmd *c, FILE *out)
{
	(void)c;
	(void)out;
	fcr_quit();
	return 0;
}

static int
sleep_cmd(const struct fcr_cmd *c, FILE *out)
{
	(void)out;
	wait_ms(c->arg[0].u32);
	return 0;
}

static int
wait_idle_cmd(const struct fcr_cmd *c, FILE *out)
{
	(void)out;
	wait_idle(c->arg[0].u32);
	return 0;
}

static int
wait_rx_cmd(const struct fcr_cmd *c, FILE *out)
{
	return wait_rx(c->arg[0].u32, c->arg[1].u32, out);
}

static const struct fcr_cmd_def rows[] = {
	{ .syntax = "start", .help = "start forwarding", .run = start, .flags = FCR_CMD_CHANGES },
	{ .syntax = "stop", .help = "stop forwarding and print the forward statistics (they then add up: rx == tx + dropped)", .run = stop, .flags = FCR_CMD_CHANGES },
	{ .syntax = "set fwd <mode>", .help = "testpmd's forwarding modes: fcredirect has one (FC-Redirect rules, then routes)", .run = set_fwd },
	{ .syntax = "quit", .help = "stop, print the forward statistics, close the ports, exit", .run = quit },
	{ .syntax = "sleep <ms>", .help = "wait (for command files and scripts)", .run = sleep_cmd },
	{ .syntax = "wait idle <ms>", .help = "wait until no frame has arrived for <ms> ms (at most 60 s)", .run = wait_idle_cmd },
	{ .syntax = "wait rx <n> <ms>", .help = "wait until the ports have received <n> frames in all since start (an error after <ms> ms)", .run = wait_rx_cmd },
};
FCR_COMMANDS(rows)

/*
 * --cmdline-file: all or nothing, as load config. The whole file is read
 * and checked first; one bad line and nothing of it runs. Then it runs in
 * order, each run of consecutive configuration lines applied as one step;
 * a line that still fails (a table full) stops it. -1 then: the program
 * does not start (exit 2). A missing file is an error too, unless the file
 * is optional (--cmdline-file-optional).
 */
static int
run_file(const char *path, int optional)
{
	struct fcr_cmd_file cf = { 0 };
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
	rc = fcr_cmd_file_read(f, path, 0, &cf, stdout);
	fclose(f);
	while (rc == 0 && i < cf.n && !fcr_quitting()) {
		for (j = i; j < cf.n && (cf.lines[j].cmd.def->flags & FCR_CMD_CONFIG); j++)
			;
		if (j > i) {
			rc = fcr_cmd_file_apply(&cf, i, j, path, stdout);
			i = j;
			continue;
		}
		snprintf(where, sizeof(where), "%s:%u", path, cf.lines[i].lineno);
		rc = fcr_command_run(&cf.lines[i].cmd, cf.texts[i], where);
		i++;
	}
	if (rc != 0 && i > 0)
		printf("error: %s: stopped at line %u: not starting\n", path,
		       cf.lines[i - 1].lineno);
	fcr_cmd_file_free(&cf);
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
	fcr_command_line(line, NULL);
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
	while (!fcr_quitting() && (nl = memchr(buf, '\n', *len)) != NULL) {
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
		fcr_quit();
	if (!fcr_quitting() && conf->cmdline_file != NULL &&
	    run_file(conf->cmdline_file, conf->cmdline_file_optional) < 0) {
		/* the program does not start on a command file that failed */
		fcr_cli_exit_status = 2;
		fcr_quit();
	}
	if (!fcr_quitting() && !conf->interactive)
		fcr_forwarding_start();
	if (tty && !fcr_quitting())
		fcr_terminal_loop(&fcr_cli_signal);
	while (!tty && !fcr_quitting() && !fcr_cli_signal) {
		if (!conf->interactive) {
			nanosleep(&tick, NULL);
			if (conf->stats_period &&
			    rte_rdtsc() - last_stats >= rte_get_tsc_hz() * conf->stats_period) {
				last_stats = rte_rdtsc();
				fcr_tables_lcore_cmd(fcr_show_fwd_rates_cmd, NULL, stdout);
				fflush(stdout);
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
