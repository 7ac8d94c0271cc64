/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_pause.h>
#include <rte_ring_elem.h>

#include <rte_log.h>

#include "commands.h"
#include "cutover.h"
#include "fcr_config.h"
#include "fcr_text.h"
#include "fcr_tables.h"
#include "fwd.h"
#include "log.h"
#include "options.h"
#include "ports.h"
#include "rates.h"
#include "show.h"
#include "sync_io.h"
#include "notes_log.h"
#include "sync_lcore.h"
#include "wake.h"

struct fcr_login_latency fcr_login_latency;

/* One command in flight: the command line waits for each, so one slot.
 * It holds the command parsed: no text is parsed here. */
enum { MB_EMPTY, MB_POSTED, MB_DONE };
static struct {
	struct fcr_cmd cmd;
	const struct fcr_config_line *lines; /* a configuration to apply whole, or NULL */
	void (*job)(void *arg);               /* a read of the tables, or NULL */
	void *job_arg;
	unsigned int nb_lines;
	const char *where;
	int rc;
	char *out;
	int state;
} mailbox;
static int sync_lcore_exit;
#define EXPIRE_MAX_DELETED 1024 /* flow entries expired a tenth of a second at most */

/* A round of the sync lcore's loop applies at most about this many events before
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
	if (unlikely(fcr_fwd.opt->sync_delay_us != 0))
		usleep(fcr_fwd.opt->sync_delay_us);
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
save_config(const char *file, FILE *out)
{
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

static int
execute(const struct fcr_cmd *c, FILE *out)
{
	const union fcr_cmd_arg *a = c->arg;
	uint32_t n;

	if (c->def->kind != NULL)
		return fcr_config_run(fcr_fwd.tables, c, out);
	switch (c->def->id) {
	case CMD_SHOW_FWD:
		fcr_show_fwd_stats(out);
		break;
	case CMD_SHOW_REDIRECT_PATHS:
		fcr_show_redirect_paths(out);
		break;
	case CMD_SHOW_FWD_RATES:
		fcr_show_fwd_rates(out);
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
	case CMD_SHOW_CONFIG_FWD:
		fcr_show_config_fwd(out);
		break;
	case CMD_SHOW_PORT_SUMMARY:
		fprintf(out, "Number of available ports: %u\n", fcr_fwd.nb_ports);
		fcr_ports_print(out);
		break;
	case CMD_SHOW_FCF:
		fcr_show_fcf(out);
		break;
	case CMD_SHOW_MEMPOOL:
		fcr_show_mempool(out);
		break;
	case CMD_SET_LOG_LEVEL:
		return set_log_level(fcr_cmd_word(c, 0), fcr_cmd_word(c, 1), out);
	case CMD_SHOW_LOG:
		rte_log_dump(out);
		break;
	case CMD_SAVE_CONFIG:
		return save_config(fcr_cmd_word(c, 0), out);
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
	return 0;
}

static void
serve_mailbox(void)
{
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
	} else if (mailbox.job != NULL) {
		mailbox.job(mailbox.job_arg);
		mailbox.rc = 0;
	} else if (mailbox.lines != NULL) {
		mailbox.rc = fcr_config_apply(fcr_fwd.tables, mailbox.lines, mailbox.nb_lines,
					      mailbox.where, out);
		if (mailbox.rc == 0)
			FCR_LOG(INFO, cli, "%s: %u configuration lines applied", mailbox.where,
				mailbox.nb_lines);
	} else {
		mailbox.rc = execute(&mailbox.cmd, out);
	}
	if (out != NULL)
		fclose(out);
	__atomic_store_n(&mailbox.state, MB_DONE, __ATOMIC_RELEASE);
}

/* Callers: the command line and the configuration store's thread, one at a
 * time (mailbox_lock held from filling the slot to taking the answer). */
static pthread_mutex_t mailbox_lock = PTHREAD_MUTEX_INITIALIZER;

static int
post_and_wait(char **output)
{
	__atomic_store_n(&mailbox.state, MB_POSTED, __ATOMIC_RELEASE);
	fcr_wake();
	while (__atomic_load_n(&mailbox.state, __ATOMIC_ACQUIRE) != MB_DONE)
		usleep(20);
	*output = mailbox.out;
	mailbox.out = NULL;
	mailbox.lines = NULL;
	mailbox.job = NULL;
	__atomic_store_n(&mailbox.state, MB_EMPTY, __ATOMIC_RELEASE);
	return mailbox.rc;
}

int
fcr_sync_lcore_apply(const struct fcr_config_line *lines, unsigned int n, const char *where,
		 char **output)
{
	int rc;

	pthread_mutex_lock(&mailbox_lock);
	mailbox.lines = lines;
	mailbox.nb_lines = n;
	mailbox.where = where;
	rc = post_and_wait(output);
	pthread_mutex_unlock(&mailbox_lock);
	return rc;
}

void
fcr_sync_lcore_run(void (*job)(void *arg), void *arg)
{
	char *out = NULL;

	pthread_mutex_lock(&mailbox_lock);
	mailbox.job = job;
	mailbox.job_arg = arg;
	post_and_wait(&out);
	pthread_mutex_unlock(&mailbox_lock);
	free(out);
}

int
fcr_sync_lcore_call(const struct fcr_cmd *c, char **output)
{
	int rc;

	pthread_mutex_lock(&mailbox_lock);
	mailbox.cmd = *c;
	rc = post_and_wait(output);
	pthread_mutex_unlock(&mailbox_lock);
	return rc;
}

void
fcr_sync_lcore_exit(void)
{
	__atomic_store_n(&sync_lcore_exit, 1, __ATOMIC_RELEASE);
	fcr_wake();
}

/* The tables' upkeep, paced by the clock: idle flows expire (the whole
 * table in no less than an idle period, a tenth of a second at a time,
 * with a bounded number of deletions so a mass expiry does not hold up the
 * events), blocked redirects get another try once a second, and ENodes
 * that stopped keeping alive lose their bindings. */
static void
upkeep(uint64_t ms)
{
	static uint64_t expire_ms, retry_ms, keepalive_ms;
	unsigned int drains = 0;
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
	if (ms - keepalive_ms >= 100) {
		keepalive_ms = ms;
		/* workers stamp keep-alives with their TSC */
		fcr_tables_keepalive(fcr_fwd.tables, rte_rdtsc(), rte_get_tsc_hz() / 1000);
		fcr_fwd.tables->st.cutovers_timed_out +=
			fcr_redirect_cutover_tick(fcr_fwd.tables->redirects, &drains);
		fcr_fwd.tables->st.cutover_drains_timed_out += drains;
	}
	/* a drained pair's ports are told at once */
	if (fcr_fwd.tables->redirects->nb_draining != 0)
		fcr_redirect_drain_poll(fcr_fwd.tables->redirects);
}

/* Work that came in since the round looked: an event in a worker's ring,
 * a command, the end. */
static int
work_waiting(void)
{
	unsigned int w;

	if (__atomic_load_n(&mailbox.state, __ATOMIC_ACQUIRE) == MB_POSTED ||
	    __atomic_load_n(&sync_lcore_exit, __ATOMIC_ACQUIRE))
		return 1;
	for (w = 0; w < fcr_fwd.nb_workers; w++)
		if (rte_ring_count(fcr_fwd.workers[w]->events) != 0)
			return 1;
	return 0;
}

/* Idle: sleep until woken (an event, a command, a datagram) or the next
 * timer: the sync engine's and a drain's 1 ms tick, else upkeep's 100 ms. */
static void
idle(void)
{
	fcr_wake_prepare();
	if (work_waiting()) {
		fcr_wake_cancel();
		return;
	}
	fcr_wake_sleep(fcr_sync_io_enabled() ||
		       fcr_fwd.tables->redirects->nb_draining != 0 ? 1 : 100);
}

/* The tables' notes, as they change: logged; and a cutover's, what the
 * cutover decides (lib) carried out (cutover.c) before the tables go on. */
static void
on_tables_note(void *ctx, const struct fcr_note *n)
{
	struct fcr_cutover_plan p;

	(void)ctx;
	fcr_notes_log(n);
	fcr_cutover_plan(fcr_fwd.tables, n, &p);
	fcr_cutover_carry_out(n, &p);
}

int
fcr_sync_lcore_main(void *arg)
{
	(void)arg;
	fcr_fwd.tables->note_hook = (struct fcr_note_hook){ .fn = on_tables_note, .ctx = NULL };
	fcr_notes_log_init();
	while (!__atomic_load_n(&sync_lcore_exit, __ATOMIC_ACQUIRE)) {
		unsigned int n = drain_events(DRAIN_MAX);
		uint64_t ms = fcr_now_ms();

		serve_mailbox();
		fcr_sync_io_poll(ms);
		fcr_notes_log_tick(ms);
		upkeep(ms);
		if (n == 0)
			idle();
	}
	drain_sent();
	return 0;
}
