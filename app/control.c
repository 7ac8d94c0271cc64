/* SPDX-License-Identifier: BSD-3-Clause */
#define _GNU_SOURCE /* ppoll */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_ring_elem.h>

#include "control.h"
#include "fcr_cmd.h"
#include "fcr_tables.h"
#include "fcr_text.h"
#include "fwd.h"
#include "show.h"

volatile int fcr_control_signal;

enum cmd_id {
	CMD_HELP, CMD_QUIT, CMD_START, CMD_STOP, CMD_SHOW_FWD, CMD_SHOW_PORT,
	CMD_SHOW_FLOWS, CMD_ROUTE_ADD_MAC, CMD_ROUTE_ADD_FPMA, CMD_ROUTE_DEL,
	CMD_ROUTE_LIST, CMD_BIND_ADD, CMD_BIND_DEL, CMD_BIND_LIST,
	CMD_REDIR_ADD, CMD_REDIR_DEL, CMD_REDIR_LIST, CMD_SLEEP, CMD_WAIT_IDLE,
};

static const struct fcr_cmd_def cmds[] = {
	{ CMD_HELP, "help", "list the commands" },
	{ CMD_START, "start", "start forwarding" },
	{ CMD_STOP, "stop", "stop forwarding (counters then add up: rx == tx + dropped)" },
	{ CMD_QUIT, "quit", "stop, print the forward statistics, close the ports, exit" },
	{ CMD_SHOW_FWD, "show fwd stats", "frames by port, by redirect leg, drops by reason, per worker" },
	{ CMD_SHOW_PORT, "show port stats all", "the ports' own counters" },
	{ CMD_SHOW_FLOWS, "show flows", "flow table entries with their counters (first 1000)" },
	{ CMD_ROUTE_ADD_MAC, "route add <prefix> port <port> mac <mac>", "route an FCID prefix to a next-hop MAC" },
	{ CMD_ROUTE_ADD_FPMA, "route add <prefix> port <port> fpma", "route an FCID prefix to its VN_Ports (MAC = FC-MAP || D_ID)" },
	{ CMD_ROUTE_DEL, "route del <prefix>", "remove a route" },
	{ CMD_ROUTE_LIST, "route list", "list the routes" },
	{ CMD_BIND_ADD, "binding add vlan <vlan> wwpn <wwpn> fcid <fcid>", "bind a port name to an FCID (static)" },
	{ CMD_BIND_DEL, "binding del vlan <vlan> wwpn <wwpn>", "remove a binding" },
	{ CMD_BIND_LIST, "binding list", "list bound port names (static or learned)" },
	{ CMD_REDIR_ADD, "redirect add vlan <vlan> host <wwpn> target <wwpn> vi <wwpn> vt <wwpn>", "steer host<->target through the service node's VI/VT" },
	{ CMD_REDIR_DEL, "redirect del vlan <vlan> host <wwpn> target <wwpn>", "remove a redirect (its flows fall back to plain forwarding)" },
	{ CMD_REDIR_LIST, "redirect list", "list redirects: active, or which port they wait for" },
	{ CMD_SLEEP, "sleep <ms>", "wait (for command files and scripts)" },
	{ CMD_WAIT_IDLE, "wait idle <ms>", "wait until no frame has arrived for <ms> ms (at most 60 s)" },
};

#define NB_CMDS (sizeof(cmds) / sizeof(cmds[0]))

static int quit_requested;

int
fcr_control_quit_requested(void)
{
	return quit_requested;
}

struct fcr_login_latency fcr_login_latency;

unsigned int
fcr_control_drain_events(void)
{
	struct fcr_event ev[64];
	unsigned int i, total = 0, n, w;
	uint64_t now, lat;

	for (w = 0; w < fcr_fwd.nb_workers; w++) {
		do {
			n = rte_ring_dequeue_burst_elem(fcr_fwd.workers[w]->events,
							ev, sizeof(ev[0]), 64, NULL);
			for (i = 0; i < n; i++) {
				fcr_tables_event(fcr_fwd.tables, &ev[i]);
				if (ev[i].type != FCR_EV_LOGIN)
					continue;
				/* from the worker seeing the login to its binding
				 * being in the tables */
				now = rte_rdtsc();
				lat = now > ev[i].tsc ? now - ev[i].tsc : 0;
				fcr_login_latency.count++;
				fcr_login_latency.sum_tsc += lat;
				if (lat > fcr_login_latency.max_tsc)
					fcr_login_latency.max_tsc = lat;
			}
			total += n;
		} while (n == 64);
	}
	return total;
}

/* Wait a little while keeping the tables up to date. */
static void
idle_ms(void)
{
	if (fcr_control_drain_events() == 0)
		usleep(100);
}

void
fcr_control_start(void)
{
	__atomic_store_n(&fcr_fwd.forwarding, 1, __ATOMIC_RELEASE);
}

void
fcr_control_stop(void)
{
	unsigned int w;

	__atomic_store_n(&fcr_fwd.forwarding, 0, __ATOMIC_RELEASE);
	for (w = 0; w < fcr_fwd.nb_workers; w++)
		while (!__atomic_load_n(&fcr_fwd.workers[w]->paused, __ATOMIC_ACQUIRE))
			idle_ms();
	/* events sent just before the pause are applied now */
	fcr_control_drain_events();
}

static void
wait_ms(uint32_t ms)
{
	uint64_t end = rte_rdtsc() + rte_get_tsc_hz() / 1000 * ms;

	while (rte_rdtsc() < end && !fcr_control_signal)
		idle_ms();
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
	uint64_t seen = rx_total(), now;

	for (;;) {
		idle_ms();
		now = rte_rdtsc();
		if (rx_total() != seen) {
			seen = rx_total();
			last_change = now;
		}
		if (now - last_change >= hz / 1000 * ms || fcr_control_signal ||
		    now - start >= hz * 60)
			return;
	}
}

static void
help(FILE *out)
{
	size_t i;

	for (i = 0; i < NB_CMDS; i++)
		fprintf(out, "  %-72s %s\n", cmds[i].syntax, cmds[i].help);
}

static const char *
err_text(int rc)
{
	switch (rc) {
	case -ENOSPC: return "table full";
	case -ENOENT: return "no such entry";
	case -EINVAL: return "invalid value";
	default: return strerror(-rc);
	}
}

/* Execute one parsed command; 0 or -1 (message already printed). */
static int
execute(const struct fcr_cmd *c, FILE *out)
{
	const union fcr_cmd_arg *a = c->arg;
	struct fcr_tables *t = fcr_fwd.tables;
	int rc = 0;

	switch (c->def->id) {
	case CMD_HELP:
		help(out);
		break;
	case CMD_QUIT:
		quit_requested = 1;
		break;
	case CMD_START:
		fcr_control_start();
		break;
	case CMD_STOP:
		fcr_control_stop();
		break;
	case CMD_SHOW_FWD:
		fcr_show_fwd_stats(out);
		break;
	case CMD_SHOW_PORT:
		fcr_show_port_stats(out);
		break;
	case CMD_SHOW_FLOWS:
		fcr_show_flows(out, 1000);
		break;
	case CMD_ROUTE_ADD_MAC:
	case CMD_ROUTE_ADD_FPMA:
		if (a[1].u32 >= fcr_fwd.nb_ports) {
			fprintf(out, "error: port %u does not exist (%u ports)\n",
				a[1].u32, fcr_fwd.nb_ports);
			return -1;
		}
		rc = fcr_route_add(t->routes, a[0].prefix.fcid, a[0].prefix.bits,
				   (uint16_t)a[1].u32,
				   c->def->id == CMD_ROUTE_ADD_MAC ? a[2].mac : NULL);
		break;
	case CMD_ROUTE_DEL:
		rc = fcr_route_del(t->routes, a[0].prefix.fcid, a[0].prefix.bits);
		break;
	case CMD_ROUTE_LIST:
		fcr_show_routes(out);
		break;
	case CMD_BIND_ADD:
		rc = fcr_tables_binding_add(t, (uint16_t)a[0].u32, a[1].wwpn,
					    a[2].fcid, FCR_BIND_STATIC);
		break;
	case CMD_BIND_DEL:
		rc = fcr_tables_binding_del(t, (uint16_t)a[0].u32, a[1].wwpn);
		break;
	case CMD_BIND_LIST:
		fcr_show_bindings(out);
		break;
	case CMD_REDIR_ADD:
		rc = fcr_redirect_add(t->redirects, (uint16_t)a[0].u32, a[1].wwpn,
				      a[2].wwpn, a[3].wwpn, a[4].wwpn);
		if (rc == -EINVAL) {
			fprintf(out, "error: host, target, vi and vt must be four different ports\n");
			return -1;
		}
		break;
	case CMD_REDIR_DEL:
		rc = fcr_redirect_del(t->redirects, (uint16_t)a[0].u32, a[1].wwpn,
				      a[2].wwpn);
		break;
	case CMD_REDIR_LIST:
		fcr_show_redirects(out);
		break;
	case CMD_SLEEP:
		wait_ms(a[0].u32);
		break;
	case CMD_WAIT_IDLE:
		wait_idle(a[0].u32);
		break;
	}
	if (rc < 0) {
		fprintf(out, "error: %s: %s\n", c->def->syntax, err_text(rc));
		return -1;
	}
	return 0;
}

/* Parse and run one line. 0 (also for blank lines), or -1. */
static int
run_line(char *line, const char *where)
{
	char msg[FCR_CMD_MSG_LEN];
	struct fcr_cmd c;
	int r = fcr_cmd_parse(cmds, NB_CMDS, line, &c, msg);

	if (r < 0) {
		printf("error: %s%s%s\n", where ? where : "", where ? ": " : "", msg);
		fflush(stdout);
		return -1;
	}
	if (r == 0)
		return 0;
	r = execute(&c, stdout);
	fflush(stdout);
	return r;
}

int
fcr_control_run_file(const char *path)
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
			       sizeof(line) - 1);
			rc = -1;
			break;
		}
		if (run_line(line, where) < 0)
			rc = -1;
	}
	fclose(f);
	return rc;
}

/* Read what standard input has; run each complete line. Returns -1 at end
 * of input. */
static int
read_input(char *buf, size_t cap, size_t *len, int tty)
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
		if (tty && !quit_requested) {
			printf("fcredirect> ");
			fflush(stdout);
		}
	}
	if (*len == cap - 1) {
		printf("error: line longer than %zu characters ignored\n", cap - 2);
		*len = 0;
	}
	return 0;
}

void
fcr_control_loop(int interactive)
{
	char buf[4096];
	size_t len = 0;
	int tty = interactive && isatty(STDIN_FILENO);
	struct pollfd pfd = { .fd = STDIN_FILENO, .events = POLLIN };
	/* idle wait: short enough that a login is applied well within 1 ms */
	const struct timespec idle = { .tv_sec = 0, .tv_nsec = 100 * 1000 };
	const struct timespec busy = { 0, 0 };

	if (tty) {
		printf("fcredirect> ");
		fflush(stdout);
	}
	while (!quit_requested && !fcr_control_signal) {
		unsigned int n = fcr_control_drain_events();

		if (!interactive) {
			if (n == 0)
				usleep(100);
			continue;
		}
		if (ppoll(&pfd, 1, n ? &busy : &idle, NULL) > 0 &&
		    read_input(buf, sizeof(buf), &len, tty) < 0)
			break; /* end of input: as `quit` */
	}
}
