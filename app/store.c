/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The configuration store's public side (store.h): start and stop, the
 * command line's writes (one transaction, then its own watch awaited),
 * its status and `show config store`. The transport is store_http.c, the
 * read, the watch and the apply store_watch.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <curl/curl.h>
#include <rte_lcore.h>

#include "commands.h"
#include "fcr_kind.h"
#include "fcr_text.h"
#include "log.h"
#include "store_priv.h"

#define APPLY_WAIT_MS 10000   /* a write waits this long for its own watch */
#define ACK_WAIT_MS 5000      /* ... and this long for every node's */
#define TXN_TIMEOUT_MS 2000   /* a member that takes longer: the next one */
#define COMMIT_TRIES 3        /* rounds over the members */
#define COMMIT_PAUSE_MS 500   /* between rounds: an election's time */

struct store_state store_s = { .lock = PTHREAD_MUTEX_INITIALIZER,
			       .applied = PTHREAD_COND_INITIALIZER,
			       .wake = PTHREAD_COND_INITIALIZER, .watch_fd = -1 };

/* CLOCK_REALTIME ms from now, for pthread_cond_timedwait. */
struct timespec
store_deadline(unsigned int ms)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += ms / 1000;
	ts.tv_nsec += (long)(ms % 1000) * 1000000;
	if (ts.tv_nsec >= 1000000000) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000;
	}
	return ts;
}

uint64_t
store_mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

void
store_set_error(const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&store_s.lock);
	va_start(ap, fmt);
	vsnprintf(store_s.st.last_error, sizeof(store_s.st.last_error), fmt, ap);
	va_end(ap);
	store_s.last_error_s = store_mono_ms() / 1000;
	pthread_mutex_unlock(&store_s.lock);
}

/* ---- the command line's side ----------------------------------------- */

int
fcr_store_enabled(void)
{
	return store_s.on;
}

int
fcr_store_start(const struct fcr_store_conf *c)
{
	char why[FCR_CMD_MSG_LEN];

	if (c->url == NULL)
		return 0;
	if (fcr_store_url_parse(c->url, &store_s.url, why) < 0) {
		fprintf(stderr, "error: --config-store %s\n", why);
		return -1;
	}
	if ((c->cert == NULL) != (c->key == NULL)) {
		fprintf(stderr, "error: --config-store-cert and --config-store-key go together\n");
		return -1;
	}
	if (c->user != NULL) {
		const char *colon = strchr(c->user, ':');

		if (colon == NULL || colon == c->user ||
		    (size_t)(colon - c->user) >= sizeof(store_s.user) ||
		    strlen(colon + 1) >= sizeof(store_s.password)) {
			fprintf(stderr, "error: --config-store-user is USER:PASSWORD\n");
			return -1;
		}
		memcpy(store_s.user, c->user, (size_t)(colon - c->user));
		snprintf(store_s.password, sizeof(store_s.password), "%s", colon + 1);
	}
	if (store_node_name(c->node) < 0)
		return -1;
	store_s.conf = *c;
	store_s.not_current_ms = store_mono_ms();
	fcr_etcd_prefix_end(store_s.url.prefix, store_s.range_end);
	if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
		fprintf(stderr, "error: --config-store: libcurl did not initialise\n");
		return -1;
	}
	store_s.on = 1;
	if (rte_ctrl_thread_create(&store_s.thread, "fcr-store", NULL, store_main, NULL) != 0) {
		fprintf(stderr, "error: --config-store: cannot start its thread\n");
		store_s.on = 0;
		return -1;
	}
	if ((c->stall_ms > 0 && rte_ctrl_thread_create(&store_s.live_thread, "fcr-store-live",
							NULL, store_live_main, NULL) != 0) ||
	    rte_ctrl_thread_create(&store_s.node_thread, "fcr-store-node", NULL, store_node_main,
				   NULL) != 0) {
		fprintf(stderr, "error: --config-store: cannot start its threads\n");
		store_s.quit = 1;
		pthread_join(store_s.thread, NULL);
		store_s.on = 0;
		return -1;
	}
	return 0;
}

int
fcr_store_wait_loaded(volatile int *quit)
{
	uint64_t said = store_mono_ms() / 1000;

	pthread_mutex_lock(&store_s.lock);
	while (!store_s.loaded && !*quit && !store_s.quit) {
		struct timespec ts = store_deadline(200);

		pthread_cond_timedwait(&store_s.applied, &store_s.lock, &ts);
		if (!store_s.loaded && store_mono_ms() / 1000 - said >= 5) {
			said = store_mono_ms() / 1000;
			FCR_LOG(WARNING, store, "not forwarding until the configuration store is "
				"read: %s", store_s.st.last_error[0] ? store_s.st.last_error :
				"no answer yet");
		}
	}
	pthread_mutex_unlock(&store_s.lock);
	return store_s.loaded ? 0 : -1;
}

static int
applied_by(int64_t rev, unsigned int ms)
{
	struct timespec ts = store_deadline(ms);
	int ok;

	pthread_mutex_lock(&store_s.lock);
	while (store_s.st.applied_revision < rev &&
	       pthread_cond_timedwait(&store_s.applied, &store_s.lock, &ts) != ETIMEDOUT)
		;
	ok = store_s.st.applied_revision >= rev;
	pthread_mutex_unlock(&store_s.lock);
	return ok;
}

/* The failure branch: which keys moved, and whether they already say what
 * the write would have (then there is nothing to write: *newest is the
 * latest revision of those, what every node must have applied). */
static int
conflicts(const struct fcr_etcd_op *ops, size_t n, const struct fcr_etcd_reply *r, FILE *out,
	  int64_t *newest)
{
	unsigned int moved = 0;
	size_t i, j;

	for (i = 0; i < n; i++) {
		const struct fcr_etcd_kv *now = NULL;

		for (j = 0; j < r->nb_kvs; j++)
			if (strcmp(r->kvs[j].key, ops[i].key) == 0)
				now = &r->kvs[j];
		if (ops[i].value != NULL ? now != NULL && strcmp(now->value, ops[i].value) == 0
					 : now == NULL) {
			if (now != NULL && now->mod_rev > *newest)
				*newest = now->mod_rev;
			continue; /* already so */
		}
		if ((now != NULL ? now->mod_rev : 0) == ops[i].expect_mod_rev)
			continue; /* as read: another line's key moved */
		moved++;
		if (now != NULL)
			fprintf(out, "error: %s changed in the store since this node read it "
				"(revision %" PRId64 "): now '%s'\n", ops[i].key, now->mod_rev,
				now->value);
		else
			fprintf(out, "error: %s was deleted from the store since this node "
				"read it\n", ops[i].key);
	}
	return (int)moved;
}

static int
commit(const struct fcr_etcd_op *ops, size_t n, int64_t *rev, FILE *out)
{
	struct fcr_etcd_reply r = { 0 };
	char *body = fcr_etcd_txn_req(ops, n);
	unsigned int round, i, asked = 0, moved, nb = store_s.url.nb_endpoints;
	char why[sizeof(r.error)] = "";
	int rc = -1, transient = 1;

	pthread_mutex_lock(&store_s.lock);
	i = store_s.endpoint;
	pthread_mutex_unlock(&store_s.lock);
	/* the members in turn, from the one watched, passing over those that
	 * do not answer the liveness thread; again while the cluster elects a
	 * leader. Sending a transaction again is safe: if the first went in,
	 * the second finds its keys moved and already so. */
	for (round = 0; round < COMMIT_TRIES && transient && rc < 0; round++) {
		unsigned int k;

		if (round > 0)
			store_pause_ms(COMMIT_PAUSE_MS);
		transient = 0;
		for (k = 0; k < nb && rc < 0; k++) {
			unsigned int ep = (i + k) % nb;

			if (store_live_failed(ep))
				continue;
			asked++;
			rc = store_call_for(ep, "/v3/kv/txn", body, &r, TXN_TIMEOUT_MS);
			if (rc == 0)
				break;
			snprintf(why, sizeof(why), "%s", r.error);
			fcr_etcd_reply_free(&r);
			if (strstr(why, "etcdserver:") != NULL && !store_transient(why))
				break; /* an answer: a refusal */
			transient |= strstr(why, "etcdserver:") != NULL;
		}
		if (strstr(why, "etcdserver:") != NULL && !store_transient(why))
			break;
	}
	free(body);
	if (rc < 0) {
		if (asked == 0)
			snprintf(why, sizeof(why), "no member answers (%.150s)",
				 store_s.st.last_error);
		fprintf(out, "error: the configuration store %s: %s; configuration commands are "
			"refused until it answers (forwarding goes on with revision %" PRId64 ")\n",
			strstr(why, "etcdserver:") != NULL && !store_transient(why) ?
			"refused the change" : "is unreachable", why,
			store_s.st.applied_revision);
		return -1;
	}
	*rev = r.revision;
	if (!r.succeeded) {
		int64_t newest = 0;

		moved = (unsigned int)conflicts(ops, n, &r, out, &newest);
		fcr_etcd_reply_free(&r);
		pthread_mutex_lock(&store_s.lock);
		store_s.st.conflicts += moved != 0;
		pthread_mutex_unlock(&store_s.lock);
		if (moved != 0) {
			fprintf(out, "error: nothing was written (read the store again: show config "
				"store; then retry)\n");
			return -1;
		}
		/* the store already says so (a try before this one went in,
		 * its answer lost): what every node must have applied */
		*rev = newest;
		return 0;
	}
	fcr_etcd_reply_free(&r);
	pthread_mutex_lock(&store_s.lock);
	store_s.st.writes++;
	pthread_mutex_unlock(&store_s.lock);
	return 0;
}

int
fcr_store_write(const struct fcr_cmd *cmds, unsigned int n, FILE *out)
{
	struct fcr_etcd_op *ops = calloc(n ? n : 1, sizeof(*ops));
	char (*keys)[FCR_STORE_KEY_MAX] = calloc(n ? n : 1, sizeof(*keys));
	char (*vals)[FCR_CMD_LINE_LEN] = calloc(n ? n : 1, sizeof(*vals));
	uint64_t *held = calloc(n ? n : 1, sizeof(*held));
	unsigned int i, j, m = 0;
	int64_t rev = 0;
	int rc = -1;

	if (ops == NULL || keys == NULL || vals == NULL || held == NULL) {
		fprintf(out, "error: out of memory\n");
		goto out;
	}
	pthread_mutex_lock(&store_s.lock);
	for (i = 0; i < n; i++) {
		const struct fcr_kind *k = cmds[i].def->kind;
		struct fcr_rec r;

		k->cmd_rec(&cmds[i], &r);
		fcr_store_key(store_s.url.prefix, &r.key, keys[m]);
		/* one write per key: the last line for it wins, as it would here */
		for (j = 0; j < m && strcmp(keys[j], keys[m]) != 0; j++)
			;
		ops[j].key = keys[j];
		ops[j].expect_mod_rev = fcr_store_revs_get(&store_s.revs, &r.key, &held[j]);
		if (cmds[i].def->op == FCR_OP_ADD) {
			fcr_cmd_format(&cmds[i], vals[j], sizeof(vals[j]));
			ops[j].value = vals[j];
		} else {
			ops[j].value = NULL;
		}
		if (j == m)
			m++;
	}
	pthread_mutex_unlock(&store_s.lock);
	/* what the store already holds, as this node read it, is no write;
	 * the command still answers once every node has it */
	for (i = 0, j = 0; i < m; i++) {
		int same = ops[i].value != NULL
			? ops[i].expect_mod_rev != 0 && held[i] == fcr_store_value_hash(ops[i].value)
			: ops[i].expect_mod_rev == 0;

		if (!same)
			ops[j++] = ops[i];
		else if (ops[i].expect_mod_rev > rev)
			rev = ops[i].expect_mod_rev;
	}
	m = j;
	if (m > 0 && commit(ops, m, &rev, out) < 0)
		goto out;
	rc = 0;
	if (rev == 0)
		goto out;
	if (!applied_by(rev, APPLY_WAIT_MS)) {
		fprintf(out, "note: committed to the store at revision %" PRId64 "; not applied "
			"here yet (this node's watch is at revision %" PRId64 ")\n", rev,
			store_s.st.applied_revision);
		goto out;
	}
	pthread_mutex_lock(&store_s.lock);
	if (store_s.refused_rev == rev) {
		fprintf(out, "error: committed to the store at revision %" PRId64 ", but this "
			"node refused it: %s\n", rev, store_s.refused_why);
		if (store_s.st.refused_redirects > 0)
			fprintf(out, "error: this node forwards nothing while it refuses a "
				"redirect of the store (%" PRIu64 " now): 'show config store'\n",
				store_s.st.refused_redirects);
		rc = -1;
	}
	pthread_mutex_unlock(&store_s.lock);
	if (rc == 0)
		store_node_acknowledged(rev, ACK_WAIT_MS, out);
out:
	free(ops);
	free(keys);
	free(vals);
	free(held);
	return rc;
}

void
fcr_store_get_status(struct fcr_store_status *s)
{
	pthread_mutex_lock(&store_s.lock);
	*s = store_s.st;
	snprintf(s->endpoint, sizeof(s->endpoint), "%s:%u", store_s.url.host[store_s.endpoint],
		 store_s.url.port[store_s.endpoint]);
	s->last_error_age_s = s->last_error[0] ? store_mono_ms() / 1000 - store_s.last_error_s : 0;
	s->not_current_for_ms = s->current ? 0 : store_mono_ms() - store_s.not_current_ms;
	s->nodes = store_s.nodes.count;
	s->nodes_behind = fcr_store_nodes_behind(&store_s.nodes, store_s.config_rev);
	pthread_mutex_unlock(&store_s.lock);
}

void
fcr_store_show(FILE *out)
{
	struct fcr_store_status s;
	char why[FCR_CMD_MSG_LEN], when[FCR_TIME_STRLEN];

	if (!store_s.on) {
		fprintf(out, "config store: none (configuration is this node's own; "
			"--config-store etcd://HOST:PORT/PREFIX to share it)\n");
		return;
	}
	fcr_store_get_status(&s);
	pthread_mutex_lock(&store_s.lock);
	snprintf(why, sizeof(why), "%s", store_s.refused_why);
	pthread_mutex_unlock(&store_s.lock);
	fprintf(out, "config store: %s\n", store_s.conf.url);
	fprintf(out, "  connected:         %s (%s, member %016" PRIx64 ")\n",
		s.connected ? "yes" : "no", s.endpoint, s.member_id);
	if (store_s.conf.stall_ms == 0)
		fprintf(out, "  current:           not asked (--config-store-stall-ms 0)\n");
	else if (s.current)
		fprintf(out, "  current:           yes (revision %" PRId64 " confirmed %.1f s ago; "
			"members left for not confirming: %" PRIu64 ")\n", s.confirmed_revision,
			(double)(store_mono_ms() - s.confirmed_at_ms) / 1000.0, s.stalls);
	else
		fprintf(out, "  current:           NO for %.1f s: not confirmed by a member within "
			"%u ms; forwarding goes on with revision %" PRId64 " (members left for not "
			"confirming: %" PRIu64 ")\n", (double)s.not_current_for_ms / 1000.0,
			store_s.conf.stall_ms, s.applied_revision, s.stalls);
	fprintf(out, "  applied revision:  %" PRId64 " (at %s)\n", s.applied_revision,
		s.applied_at_ms ? fcr_time_format_ms(s.applied_at_ms, when) : "not yet");
	fprintf(out, "  store revision:    %" PRId64 " (lag %" PRId64 ")\n", s.store_revision,
		s.store_revision - s.applied_revision);
	fprintf(out, "  objects:           %" PRIu64 "\n", s.objects);
	fprintf(out, "  refused here:      %" PRIu64 "\n", s.refused);
	if (s.refused_redirects > 0)
		fprintf(out, "  forwarding:        no: %" PRIu64 " redirect(s) of the store "
			"refused here, every frame dropped as store_refused (last: %s)\n",
			s.refused_redirects, why);
	else
		fprintf(out, "  forwarding:        yes (every redirect of the store applied)\n");
	fprintf(out, "  writes:            %" PRIu64 " (conflicts %" PRIu64 ")\n", s.writes,
		s.conflicts);
	fprintf(out, "  full reads:        %" PRIu64 ", reconnects %" PRIu64 "\n", s.full_reads,
		s.reconnects);
	if (s.last_error[0])
		fprintf(out, "  last error:        %s (%" PRIu64 " s ago)\n", s.last_error,
			s.last_error_age_s);
	store_node_show(out);
}

void
fcr_store_stop(void)
{
	if (!store_s.on)
		return;
	/* the other nodes stop waiting for this one at once */
	store_node_unpublish();
	store_s.quit = 1;
	pthread_mutex_lock(&store_s.lock);
	pthread_cond_broadcast(&store_s.applied);
	pthread_cond_broadcast(&store_s.wake);
	pthread_mutex_unlock(&store_s.lock);
	pthread_join(store_s.thread, NULL);
	if (store_s.conf.stall_ms > 0)
		pthread_join(store_s.live_thread, NULL);
	pthread_join(store_s.node_thread, NULL);
	fcr_store_revs_free(&store_s.revs);
	curl_global_cleanup();
	store_s.on = 0;
}

FCR_CMD_PRINTER(show_config_store, fcr_store_show)

static const struct fcr_cmd_def rows[] = {
	{ .syntax = "show config store", .help = "the configuration store: member, applied revision, lag, last error", .run = show_config_store, .section = FCR_SEC_DISPLAY },
};
FCR_COMMANDS(rows)
