/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_pause.h>
#include <rte_ring_elem.h>

#include <rte_log.h>

#include "commands.h"
#include "fcr_text.h"
#include "fcr_tables.h"
#include "fwd.h"
#include "log.h"
#include "options.h"
#include "show.h"
#include "sync_io.h"
#include "watch.h"
#include "writer.h"

struct fcr_login_latency fcr_login_latency;

/* One command in flight: the command line waits for each, so one slot. */
enum { MB_EMPTY, MB_POSTED, MB_DONE };
static struct {
	char line[1024];
	const char *text;   /* a configuration to apply whole, or NULL */
	const char *where;
	int rc;
	char *out;
	int state;
} mailbox;
static int writer_exit;
#define EXPIRE_MAX_DELETED 1024 /* flow entries expired a tenth of a second at most */

/* A round of the writer's loop applies at most about this many events before
 * its sync poll and command mailbox get their turn (at 600 ns an event, the
 * cost of a new flow entry, about 0.6 ms), so a flood of events holds back
 * neither the sync engine's 1 ms tick nor a command. */
#define DRAIN_MAX 1024

/* Apply up to max (<= 64) events of worker w's ring. */
static unsigned int
drain_burst(unsigned int w, unsigned int max)
{
	struct fcr_event ev[FCR_TABLES_BURST];
	unsigned int i, n;
	uint64_t now, lat;

	n = rte_ring_dequeue_burst_elem(fcr_fwd.workers[w]->events, ev,
					sizeof(ev[0]), max, NULL);
	if (n == 0)
		return 0;
	if (unlikely(fcr_fwd.opt->writer_delay_us != 0))
		usleep(fcr_fwd.opt->writer_delay_us);
	fcr_tables_events(fcr_fwd.tables, ev, n);
	/* the worker may send the login frames it holds for these: their
	 * bindings and rules are in the tables (release: workers that find
	 * the number see the entries) */
	for (i = n; i-- > 0;)
		if (ev[i].type == FCR_EV_LOGIN) {
			__atomic_store_n(&fcr_fwd.workers[w]->login_applied, ev[i].seq,
					 __ATOMIC_RELEASE);
			break;
		}
	now = 0;
	for (i = 0; i < n; i++) {
		if (ev[i].type != FCR_EV_LOGIN)
			continue;
		/* from the worker seeing the login to its binding being in
		 * the tables (its burst applied) */
		if (now == 0)
			now = rte_rdtsc();
		lat = now > ev[i].tsc ? now - ev[i].tsc : 0;
		fcr_login_latency.count++;
		fcr_login_latency.sum_tsc += lat;
		if (lat > fcr_login_latency.max_tsc)
			fcr_login_latency.max_tsc = lat;
	}
	return n;
}

/* A burst from each worker's ring in turn, until the rings are nearly
 * empty or about max events were applied. */
static unsigned int
drain_events(unsigned int max)
{
	unsigned int total = 0, w, n, more;

	do {
		more = 0;
		for (w = 0; w < fcr_fwd.nb_workers; w++) {
			n = drain_burst(w, FCR_TABLES_BURST);
			total += n;
			more |= n == FCR_TABLES_BURST;
		}
	} while (more && total < max);
	return total;
}

/* Everything the workers had sent when this was called (later events wait
 * for the next round). */
static void
drain_sent(void)
{
	unsigned int w, n, left;

	for (w = 0; w < fcr_fwd.nb_workers; w++) {
		left = rte_ring_count(fcr_fwd.workers[w]->events);
		while (left > 0) {
			n = drain_burst(w, RTE_MIN(left, (unsigned int)FCR_TABLES_BURST));
			if (n == 0)
				break;
			left -= n;
		}
	}
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
set_log_level(const char *type, const char *level, FILE *out)
{
	static const char *const names[] = {
		NULL, "emerg", "alert", "crit", "err", "warning", "notice", "info", "debug",
	};
	char *end;
	long lv = strtol(level, &end, 10);
	unsigned int i;

	if (*end != '\0' || lv < RTE_LOG_EMERG || lv > RTE_LOG_DEBUG) {
		lv = 0;
		for (i = 1; i < sizeof(names) / sizeof(names[0]); i++)
			if (strcmp(level, names[i]) == 0)
				lv = (long)i;
	}
	if (lv == 0) {
		fprintf(out, "error: set log level: '%s' is not a level (emerg alert crit err "
			"warning notice info debug, or 1-8)\n", level);
		return -1;
	}
	if (rte_log_set_level_pattern(type, (uint32_t)lv) != 0) {
		fprintf(out, "error: set log level: cannot set '%s'\n", type);
		return -1;
	}
	return 0;
}

/* A command file that `load config` (or --cmdline-file) restores: routes,
 * static bindings and redirects; learned bindings come back by themselves. */
static int
save_config(const char *path, FILE *out)
{
	const struct fcr_tables *t = fcr_fwd.tables;
	char a[FCR_FCID_STRLEN], m[FCR_MAC_STRLEN], w[4][FCR_WWPN_STRLEN];
	uint32_t i;
	FILE *f = fopen(path, "w");
	int k;

	if (f == NULL) {
		fprintf(out, "error: save config: cannot write %s: %s\n", path, strerror(errno));
		return -1;
	}
	fprintf(f, "# fcredirect configuration: routes, static bindings, redirects\n");
	for (i = 0; i < t->routes->nb_routes; i++) {
		const struct fcr_route *r = &t->routes->routes[i];
		const struct fcr_nexthop *h = &t->routes->nexthop[r->nh];

		if (h->flags & FCR_NH_FPMA)
			fprintf(f, "route add %s/%u port %u fpma\n", fcr_fcid_format(r->prefix, a),
				r->bits, h->port);
		else
			fprintf(f, "route add %s/%u port %u mac %s\n", fcr_fcid_format(r->prefix, a),
				r->bits, h->port, fcr_mac_format(h->mac, m));
	}
	for (i = 0; i < t->names->capacity; i++) {
		const struct fcr_name *n = &t->names->names[i];

		if (n->in_use && n->fcid != FCR_FCID_NONE && n->origin == FCR_BIND_STATIC)
			fprintf(f, "binding add vlan %u wwpn %s fcid %s\n", n->vlan,
				fcr_wwpn_format(n->wwpn, w[0]), fcr_fcid_format(n->fcid, a));
	}
	for (i = 0; i < t->redirects->capacity; i++) {
		const struct fcr_redirect *r = &t->redirects->r[i];

		if (!r->in_use)
			continue;
		for (k = 0; k < FCR_M_COUNT; k++)
			fcr_wwpn_format(t->names->names[r->name[k]].wwpn, w[k]);
		fprintf(f, "redirect add vlan %u host %s target %s vi %s vt %s\n", r->vlan,
			w[0], w[1], w[2], w[3]);
	}
	if (fclose(f) != 0) {
		fprintf(out, "error: save config: writing %s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

static int
execute(const struct fcr_cmd *c, FILE *out)
{
	const union fcr_cmd_arg *a = c->arg;
	struct fcr_tables *t = fcr_fwd.tables;
	uint32_t n;
	int rc = 0;

	switch (c->def->id) {
	case CMD_SHOW_FWD:
		fcr_show_fwd_stats(out);
		break;
	case CMD_CLEAR_FWD:
		fcr_clear_fwd_stats();
		break;
	case CMD_SHOW_PORT_STATS_ALL:
		fcr_show_port_stats(out, -1);
		break;
	case CMD_SHOW_PORT_STATS:
	case CMD_SHOW_PORT_INFO:
	case CMD_SHOW_PORT_XSTATS:
		if (a[0].u32 >= fcr_fwd.nb_ports) {
			fprintf(out, "error: port %u does not exist (%u ports)\n", a[0].u32,
				fcr_fwd.nb_ports);
			return -1;
		}
		if (c->def->id == CMD_SHOW_PORT_STATS)
			fcr_show_port_stats(out, (int)a[0].u32);
		else if (c->def->id == CMD_SHOW_PORT_INFO)
			fcr_show_port_info(out, (int)a[0].u32);
		else
			fcr_show_port_xstats(out, (uint16_t)a[0].u32);
		break;
	case CMD_CLEAR_PORT_STATS:
		fcr_clear_port_stats();
		break;
	case CMD_SHOW_PORT_INFO_ALL:
		fcr_show_port_info(out, -1);
		break;
	case CMD_SHOW_FLOWS:
		fcr_show_flows(out, -1, 0);
		break;
	case CMD_SHOW_FLOWS_VLAN:
		fcr_show_flows(out, (int)a[0].u32, 0);
		break;
	case CMD_SHOW_FLOWS_TOP:
	case CMD_SHOW_FLOWS_VLAN_TOP:
		n = c->def->id == CMD_SHOW_FLOWS_TOP ? a[0].u32 : a[1].u32;
		if (n == 0 || n > 100000) {
			fprintf(out, "error: top: 1 to 100000 flows\n");
			return -1;
		}
		fcr_show_flows(out, c->def->id == CMD_SHOW_FLOWS_TOP ? -1 : (int)a[0].u32, n);
		break;
	case CMD_SHOW_LCORES:
		fcr_show_lcores(out);
		break;
	case CMD_SHOW_CONFIG:
		fcr_show_config(out);
		break;
	case CMD_SET_LOG_LEVEL:
		return set_log_level(a[0].word, a[1].word, out);
	case CMD_SHOW_LOG:
		rte_log_dump(out);
		break;
	case CMD_SAVE_CONFIG:
		return save_config(a[0].word, out);
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

/* What a configuration line replaced, to put back if a later line fails. */
struct undo {
	int id;
	int existed;
	union fcr_cmd_arg a[FCR_CMD_MAX_ARGS];
	uint16_t port;       /* route: old next hop */
	uint8_t fpma;
	uint8_t mac[6];
	uint32_t fcid;       /* binding: old FCID and origin */
	uint8_t origin;
	uint64_t vi, vt;     /* redirect: old VI and VT */
};

static void
note_undo(const struct fcr_cmd *c, struct undo *u)
{
	const struct fcr_tables *t = fcr_fwd.tables;
	int i;

	memset(u, 0, sizeof(*u));
	u->id = c->def->id;
	memcpy(u->a, c->arg, sizeof(u->a));
	switch (u->id) {
	case CMD_ROUTE_ADD_MAC:
	case CMD_ROUTE_ADD_FPMA:
		i = fcr_route_find(t->routes, c->arg[0].prefix.fcid, c->arg[0].prefix.bits);
		if (i >= 0) {
			const struct fcr_nexthop *h = &t->routes->nexthop[t->routes->routes[i].nh];

			u->existed = 1;
			u->port = h->port;
			u->fpma = (h->flags & FCR_NH_FPMA) != 0;
			memcpy(u->mac, h->mac, 6);
		}
		break;
	case CMD_BIND_ADD: {
		uint32_t n = fcr_name_get(t->names, (uint16_t)c->arg[0].u32, c->arg[1].wwpn, 0);

		if (n != FCR_NAME_NONE && t->names->names[n].fcid != FCR_FCID_NONE) {
			u->existed = 1;
			u->fcid = t->names->names[n].fcid;
			u->origin = t->names->names[n].origin;
		}
		break;
	}
	case CMD_REDIR_ADD:
		i = fcr_redirect_find(t->redirects, (uint16_t)c->arg[0].u32, c->arg[1].wwpn,
				      c->arg[2].wwpn);
		if (i >= 0) {
			const struct fcr_redirect *r = &t->redirects->r[i];

			u->existed = 1;
			u->vi = t->names->names[r->name[FCR_M_VI]].wwpn;
			u->vt = t->names->names[r->name[FCR_M_VT]].wwpn;
		}
		break;
	}
}

static void
undo(const struct undo *u)
{
	struct fcr_tables *t = fcr_fwd.tables;
	const union fcr_cmd_arg *a = u->a;

	switch (u->id) {
	case CMD_ROUTE_ADD_MAC:
	case CMD_ROUTE_ADD_FPMA:
		if (u->existed)
			fcr_route_add(t->routes, a[0].prefix.fcid, a[0].prefix.bits, u->port,
				      u->fpma ? NULL : u->mac);
		else
			fcr_route_del(t->routes, a[0].prefix.fcid, a[0].prefix.bits);
		break;
	case CMD_BIND_ADD:
		if (u->existed)
			fcr_tables_binding_add(t, (uint16_t)a[0].u32, a[1].wwpn, u->fcid,
					       u->origin);
		else
			fcr_tables_binding_del(t, (uint16_t)a[0].u32, a[1].wwpn);
		break;
	case CMD_REDIR_ADD:
		if (u->existed)
			fcr_redirect_add(t->redirects, (uint16_t)a[0].u32, a[1].wwpn, a[2].wwpn,
					 u->vi, u->vt);
		else
			fcr_redirect_del(t->redirects, (uint16_t)a[0].u32, a[1].wwpn, a[2].wwpn);
		break;
	}
}

static int
apply_text(const char *text, const char *where, FILE *out)
{
	char line[1024], msg[FCR_CMD_MSG_LEN];
	struct undo *log = NULL;
	unsigned int n = 0, cap = 0, lineno = 0;
	const char *p = text;
	struct fcr_cmd c;
	int rc = 0;

	while (*p && rc == 0) {
		size_t len = strcspn(p, "\n");
		FILE *quiet;

		lineno++;
		snprintf(line, sizeof(line), "%.*s", (int)len, p);
		p += len + (p[len] == '\n');
		if (fcr_cmd_parse(fcr_commands, fcr_nb_commands, line, &c, msg) <= 0)
			continue; /* checked already: blank or comment */
		if (n == cap) {
			struct undo *g = realloc(log, (cap ? cap * 2 : 256) * sizeof(*log));

			if (g == NULL) {
				fprintf(out, "error: %s: out of memory\n", where);
				rc = -1;
				break;
			}
			log = g;
			cap = cap ? cap * 2 : 256;
		}
		note_undo(&c, &log[n]);
		quiet = fopen("/dev/null", "w");
		rc = execute(&c, quiet ? quiet : out);
		if (quiet)
			fclose(quiet);
		if (rc == 0)
			n++;
		else
			fprintf(out, "error: %s:%u: %s could not be applied (a table is full?)\n",
				where, lineno, c.def->syntax);
	}
	if (rc != 0) {
		while (n > 0)
			undo(&log[--n]);
		fprintf(out, "error: %s: nothing of the file was applied\n", where);
	} else {
		FCR_LOG(INFO, cli, "%s: %u configuration lines applied", where, n);
	}
	free(log);
	return rc;
}

/* Commands the audit trail (fcr.cli at info) records. */
static int
changes_something(int id)
{
	switch (id) {
	case CMD_ROUTE_ADD_MAC: case CMD_ROUTE_ADD_FPMA: case CMD_ROUTE_DEL:
	case CMD_BIND_ADD: case CMD_BIND_DEL: case CMD_REDIR_ADD: case CMD_REDIR_DEL:
	case CMD_SET_SYNC_WINDOW: case CMD_SYNC_PEER_ADD: case CMD_CLEAR_PORT_STATS:
	case CMD_CLEAR_FWD:
	case CMD_SET_LOG_LEVEL:
		return 1;
	default:
		return 0;
	}
}

static void
serve_mailbox(void)
{
	char msg[FCR_CMD_MSG_LEN], said[sizeof(mailbox.line)];
	struct fcr_cmd c;
	size_t len = 0;
	FILE *out;

	if (__atomic_load_n(&mailbox.state, __ATOMIC_ACQUIRE) != MB_POSTED)
		return;
	/* every event sent before the command was posted is applied first */
	drain_sent();
	mailbox.out = NULL;
	out = open_memstream(&mailbox.out, &len);
	if (out == NULL) {
		mailbox.rc = -1;
	} else if (mailbox.text != NULL) {
		mailbox.rc = apply_text(mailbox.text, mailbox.where, out);
	} else if (snprintf(said, sizeof(said), "%s", mailbox.line) < 0 ||
		   fcr_cmd_parse(fcr_commands, fcr_nb_commands, mailbox.line, &c,
				 msg) <= 0) {
		fprintf(out, "error: %s\n", msg);
		mailbox.rc = -1;
	} else {
		mailbox.rc = execute(&c, out);
		if (mailbox.rc == 0 && changes_something(c.def->id)) {
			/* the line as given (the parser cut it up), less a comment */
			size_t n = strcspn(said, "#");

			while (n > 0 && (said[n - 1] == ' ' || said[n - 1] == '\t'))
				n--;
			FCR_LOG(INFO, cli, "%.*s", (int)n, said);
		}
	}
	if (out != NULL)
		fclose(out);
	__atomic_store_n(&mailbox.state, MB_DONE, __ATOMIC_RELEASE);
}

int
fcr_writer_apply(const char *text, const char *where, char **output)
{
	mailbox.text = text;
	mailbox.where = where;
	return fcr_writer_call("", output);
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
	mailbox.text = NULL;
	__atomic_store_n(&mailbox.state, MB_EMPTY, __ATOMIC_RELEASE);
	return mailbox.rc;
}

void
fcr_writer_exit(void)
{
	__atomic_store_n(&writer_exit, 1, __ATOMIC_RELEASE);
}

/* The tables' upkeep, paced by the clock: idle flows expire (the whole
 * table in no less than an idle period, a tenth of a second at a time,
 * with a bounded number of deletions so a mass expiry does not hold up the
 * events), and blocked redirects get another try once a second. */
static void
upkeep(uint64_t ms)
{
	static uint64_t expire_ms, retry_ms;
	uint32_t idle = fcr_fwd.opt->flow_idle_s;

	if (idle != 0 && ms - expire_ms >= 100) {
		expire_ms = ms;
		fcr_tables_expire(fcr_fwd.tables,
				  RTE_MAX(fcr_fwd.tables->flows->capacity / (idle * 10), 1u),
				  EXPIRE_MAX_DELETED);
	}
	if (ms - retry_ms >= 1000) {
		retry_ms = ms;
		fcr_redirect_retry_blocked(fcr_fwd.tables->redirects);
	}
}

int
fcr_writer_main(void *arg)
{
	(void)arg;
	fcr_watch_init();
	while (!__atomic_load_n(&writer_exit, __ATOMIC_ACQUIRE)) {
		unsigned int n = drain_events(DRAIN_MAX);
		uint64_t ms = fcr_now_ms();

		serve_mailbox();
		fcr_sync_io_poll(ms);
		fcr_watch_tick(ms);
		upkeep(ms);
		/* idle: short enough that a login is applied well within 1 ms */
		if (n == 0)
			usleep(100);
	}
	drain_sent();
	return 0;
}
