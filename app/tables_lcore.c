/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_pause.h>
#include <rte_ring_elem.h>

#include "cutover.h"
#include "fcr_config.h"
#include "fcr_guard.h"
#include "fcr_paths.h"
#include "fcr_sn.h"
#include "fcr_tables.h"
#include "fwd.h"
#include "log.h"
#include "options.h"
#include "state_file.h"
#include "sync_io.h"
#include "notes_log.h"
#include "relogin.h"
#include "tables_lcore.h"
#include "wake.h"

struct fcr_login_latency fcr_login_latency;

/* One command in flight: the command line waits for each, so one slot.
 * It holds the command parsed: no text is parsed here. */
enum { MB_EMPTY, MB_POSTED, MB_DONE };
static struct {
	struct fcr_cmd cmd;
	fcr_cmd_fn *cmd_fn;                    /* a command's handler, or NULL */
	int has_cmd;                           /* cmd is its argument (else NULL) */
	const struct fcr_config_line *lines; /* a configuration to apply whole, or NULL */
	void (*job)(void *arg);               /* a read of the tables, or NULL */
	void *job_arg;
	unsigned int nb_lines;
	const char *where;
	int rc;
	char *out;
	int state;
} mailbox;
static int tables_lcore_exit;
#define EXPIRE_MAX_DELETED 1024 /* flow entries expired a tenth of a second at most */

/* A round of the tables lcore's loop applies at most about this many events before
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
	if (unlikely(fcr_fwd.opt->tables_delay_us != 0))
		usleep(fcr_fwd.opt->tables_delay_us);
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
		mailbox.rc = mailbox.cmd_fn(mailbox.has_cmd ? &mailbox.cmd : NULL, out);
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
	mailbox.cmd_fn = NULL;
	__atomic_store_n(&mailbox.state, MB_EMPTY, __ATOMIC_RELEASE);
	return mailbox.rc;
}

int
fcr_tables_lcore_apply(const struct fcr_config_line *lines, unsigned int n, const char *where,
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
fcr_tables_lcore_run(void (*job)(void *arg), void *arg)
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
fcr_tables_lcore_cmd(fcr_cmd_fn *fn, const struct fcr_cmd *c, FILE *out)
{
	char *said = NULL;
	int rc;

	pthread_mutex_lock(&mailbox_lock);
	mailbox.cmd_fn = fn;
	mailbox.has_cmd = c != NULL;
	if (c != NULL)
		mailbox.cmd = *c;
	rc = post_and_wait(&said);
	pthread_mutex_unlock(&mailbox_lock);
	if (said != NULL) {
		fputs(said, out);
		free(said);
	}
	return rc;
}

void
fcr_tables_lcore_exit(void)
{
	__atomic_store_n(&tables_lcore_exit, 1, __ATOMIC_RELEASE);
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
	static uint64_t expire_ms, retry_ms, keepalive_ms, live_ms;
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
	/* once a second: a pass over every redirect (fcr_liveness.h) */
	if (fcr_fwd.opt->sn_stall_ms != 0 && ms - live_ms >= 1000) {
		uint64_t tpms = rte_get_tsc_hz() / 1000;

		live_ms = ms;
		fcr_tables_liveness(fcr_fwd.tables, rte_rdtsc(), fcr_fwd.opt->sn_stall_ms * tpms,
				    fcr_fwd.opt->sn_recover);
	}
	if (ms - keepalive_ms >= 100) {
		keepalive_ms = ms;
		if (fcr_fwd.guard_every != 0)
			fcr_tables_guard(fcr_fwd.tables, fcr_fwd.guard_drop);
		/* a pass over the flows every 10 s at most (fcr_paths.h) */
		fcr_paths_tick(fcr_fwd.tables,
			       RTE_MAX(fcr_fwd.tables->flows->capacity / 100, 1024u));
		/* workers stamp keep-alives with their TSC */
		fcr_tables_keepalive(fcr_fwd.tables, rte_rdtsc(), rte_get_tsc_hz() / 1000);
		fcr_cutover_tick(fcr_fwd.tables);
		fcr_tables_sn(fcr_fwd.tables, ms, fcr_fwd.opt->sn_failover_ms);
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
	    __atomic_load_n(&tables_lcore_exit, __ATOMIC_ACQUIRE))
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
	if (n->kind == FCR_NOTE_RELOGIN) {
		fcr_relogin_carry_out(n);
		return;
	}
	fcr_notes_log(n);
	fcr_cutover_plan(fcr_fwd.tables, n, &p);
	fcr_cutover_carry_out(n, &p);
}

int
fcr_tables_lcore_main(void *arg)
{
	(void)arg;
	fcr_fwd.tables->note_hook = (struct fcr_note_hook){ .fn = on_tables_note, .ctx = NULL };
	fcr_notes_log_init();
	while (!__atomic_load_n(&tables_lcore_exit, __ATOMIC_ACQUIRE)) {
		unsigned int n = drain_events(DRAIN_MAX);
		uint64_t ms = fcr_now_ms();

		serve_mailbox();
		fcr_sync_io_poll(ms);
		fcr_notes_log_tick(ms);
		upkeep(ms);
		fcr_state_file_tick(ms);
		if (n == 0)
			idle();
	}
	drain_sent();
	fcr_state_file_final();
	return 0;
}
