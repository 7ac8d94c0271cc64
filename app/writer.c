/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_pause.h>
#include <rte_ring_elem.h>

#include "commands.h"
#include "fcr_tables.h"
#include "fwd.h"
#include "show.h"
#include "sync_io.h"
#include "writer.h"

struct fcr_login_latency fcr_login_latency;

/* One command in flight: the command line waits for each, so one slot. */
enum { MB_EMPTY, MB_POSTED, MB_DONE };
static struct {
	char line[1024];
	int rc;
	char *out;
	int state;
} mailbox;
static int writer_exit;

static unsigned int
drain_events(void)
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

static int
execute(const struct fcr_cmd *c, FILE *out)
{
	const union fcr_cmd_arg *a = c->arg;
	struct fcr_tables *t = fcr_fwd.tables;
	int rc = 0;

	switch (c->def->id) {
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
	case CMD_SHOW_SYNC:
		fcr_show_sync_stats(out);
		break;
	case CMD_SET_SYNC_WINDOW:
		if (!fcr_sync_io_enabled() || a[0].u32 == 0 || a[0].u32 > 60000) {
			fprintf(out, "error: set sync window: %s\n", fcr_sync_io_enabled() ?
				"the window is 1 to 60000 ms" : "sync is off");
			return -1;
		}
		fcr_sync_io_set_window(a[0].u32);
		break;
	case CMD_SYNC_PEER_ADD:
		if (fcr_sync_io_peer_add(a[0].addr.ip, a[0].addr.port) < 0) {
			fprintf(out, "error: sync peer add: %s\n", fcr_sync_io_enabled() ?
				"already a peer, or 16 peers already" : "sync is off");
			return -1;
		}
		break;
	default:
		fprintf(out, "error: '%s' is not a table command\n", c->def->syntax);
		return -1;
	}
	if (rc < 0) {
		fprintf(out, "error: %s: %s\n", c->def->syntax, err_text(rc));
		return -1;
	}
	return 0;
}

static void
serve_mailbox(void)
{
	char msg[FCR_CMD_MSG_LEN];
	struct fcr_cmd c;
	size_t len = 0;
	FILE *out;

	if (__atomic_load_n(&mailbox.state, __ATOMIC_ACQUIRE) != MB_POSTED)
		return;
	/* every event sent before the command was posted is applied first */
	drain_events();
	mailbox.out = NULL;
	out = open_memstream(&mailbox.out, &len);
	if (out == NULL) {
		mailbox.rc = -1;
	} else if (fcr_cmd_parse(fcr_commands, fcr_nb_commands, mailbox.line, &c,
				 msg) <= 0) {
		fprintf(out, "error: %s\n", msg);
		mailbox.rc = -1;
	} else {
		mailbox.rc = execute(&c, out);
	}
	if (out != NULL)
		fclose(out);
	__atomic_store_n(&mailbox.state, MB_DONE, __ATOMIC_RELEASE);
}

int
fcr_writer_call(const char *line, char **output)
{
	snprintf(mailbox.line, sizeof(mailbox.line), "%s", line);
	__atomic_store_n(&mailbox.state, MB_POSTED, __ATOMIC_RELEASE);
	while (__atomic_load_n(&mailbox.state, __ATOMIC_ACQUIRE) != MB_DONE)
		usleep(20);
	*output = mailbox.out;
	mailbox.out = NULL;
	__atomic_store_n(&mailbox.state, MB_EMPTY, __ATOMIC_RELEASE);
	return mailbox.rc;
}

void
fcr_writer_exit(void)
{
	__atomic_store_n(&writer_exit, 1, __ATOMIC_RELEASE);
}

int
fcr_writer_main(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&writer_exit, __ATOMIC_ACQUIRE)) {
		unsigned int n = drain_events();

		serve_mailbox();
		fcr_sync_io_poll();
		/* idle: short enough that a login is applied well within 1 ms */
		if (n == 0)
			usleep(100);
	}
	drain_events();
	return 0;
}
