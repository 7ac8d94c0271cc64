/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The configuration store's thread: the store read whole, then watched
 * from the revision applied; what comes applied to the tables (on the
 * tables lcore), each refusal logged and counted; and the fail-closed hold
 * while a record of a fail-closed kind (a redirect) is refused here.
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>

#include <curl/curl.h>

#include "commands.h"
#include "fcr_config.h"
#include "fcr_kind.h"
#include "fwd.h"
#include "log.h"
#include "store_priv.h"
#include "tables_lcore.h"

#define BACKOFF_MIN_MS 100
#define BACKOFF_MAX_MS 5000
#define APPLY_CHUNK 2048      /* records a tables lcore job sets */
#define READ_PAGE 20000       /* keys a range request of a whole read asks for */

static uint64_t
wall_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* ---- applying what the store says ------------------------------------ */

struct set_job {
	const struct fcr_rec *recs;
	unsigned int n;
	int replace;
	unsigned int refused;
	uint8_t bad[APPLY_CHUNK]; /* bad[i]: recs[i] refused */
	char *out;
};

static void
set_job_run(void *arg)
{
	struct set_job *j = arg;
	size_t len = 0;
	FILE *f = open_memstream(&j->out, &len);
	unsigned int i;

	if (f == NULL) {
		j->refused = j->n;
		return;
	}
	if (j->replace && fcr_config_keep_only(fcr_fwd.tables, j->recs, j->n) < 0)
		fprintf(f, "error: out of memory: objects the store no longer holds are kept\n");
	else if (!j->replace)
		j->refused = fcr_config_set_recs(fcr_fwd.tables, j->recs, j->n, 0, f, j->bad);
	fclose(f);
	/* fail closed at once, before the workers' next burst: the pair of a
	 * redirect refused here must not pass plain (hold_update decides
	 * when it may forward again) */
	for (i = 0; i < j->n && j->refused; i++)
		if (j->bad[i] && fcr_key_fail_closed(fcr_kinds, &j->recs[i].key))
			__atomic_store_n(&fcr_fwd.store_refused, 1, __ATOMIC_RELEASE);
}

static void
refusal(int64_t rev, const char *why)
{
	FCR_LOG(WARNING, store, "revision %" PRId64 ": %s", rev, why);
	pthread_mutex_lock(&store_s.lock);
	store_s.st.refused++;
	store_s.refused_rev = rev;
	snprintf(store_s.refused_why, sizeof(store_s.refused_why), "%s", why);
	pthread_mutex_unlock(&store_s.lock);
}

/*
 * Apply the records of revision rev on the tables lcore; each line the tables
 * refused is logged and counted (the tables keep what they held for it).
 */
static void
run_job(struct set_job *j, int64_t rev)
{
	char *line, *save = NULL;
	unsigned int i;

	fcr_tables_lcore_run(set_job_run, j);
	pthread_mutex_lock(&store_s.lock);
	for (i = 0; i < j->n && j->refused; i++)
		if (j->bad[i])
			fcr_store_revs_refuse(&store_s.revs, &j->recs[i].key);
	pthread_mutex_unlock(&store_s.lock);
	if (j->out == NULL)
		return;
	for (line = strtok_r(j->out, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save))
		refusal(rev, strncmp(line, "error: ", 7) == 0 ? line + 7 : line);
	free(j->out);
}

/*
 * Fail closed: while a redirect the store holds is refused here (the
 * tables full, or a value that is no redirect), this node cannot steer
 * that pair, so its workers drop every frame rather than pass it plain.
 * Forwarding comes back when each such key has a value the tables take,
 * or is deleted.
 */
static void
hold_update(void)
{
	char why[FCR_CMD_MSG_LEN];
	size_t n;
	int was;

	pthread_mutex_lock(&store_s.lock);
	n = store_s.revs.refused_closed;
	was = store_s.st.refused_redirects > 0;
	store_s.st.refused_redirects = n;
	snprintf(why, sizeof(why), "%s", store_s.refused_why);
	pthread_mutex_unlock(&store_s.lock);
	__atomic_store_n(&fcr_fwd.store_refused, n > 0, __ATOMIC_RELEASE);
	if (n > 0 && !was)
		FCR_LOG(ERR, store, "not forwarding: %zu redirect(s) of the store refused here "
			"(last: %s); every frame is dropped as store_refused until each applies "
			"or is deleted", n, why);
	else if (n == 0 && was)
		FCR_LOG(NOTICE, store, "forwarding again: every redirect of the store is "
			"applied here");
}

/* The records in the kinds' order (fcr_key.h: a service node before the
 * redirects placed on it; the store's keys come sorted by name), each
 * kind's in the order they came (a key's changes stay in theirs). */
static void
by_kind(struct fcr_rec *recs, unsigned int n)
{
	unsigned int i, k, j = 0;
	struct fcr_rec *tmp;
	uint8_t seen = 0;

	for (i = 0; i < n && recs[i].key.kind >= seen; i++)
		seen = recs[i].key.kind;
	if (i == n)
		return; /* in order already: nothing is copied */
	tmp = malloc(n * sizeof(*tmp));
	if (tmp == NULL)
		return; /* as read: a redirect before its node is refused, said */
	for (k = 0; k < FCR_KIND_COUNT; k++)
		for (i = 0; i < n; i++)
			if (recs[i].key.kind == k)
				tmp[j++] = recs[i];
	memcpy(recs, tmp, (size_t)j * sizeof(*tmp));
	free(tmp);
}

/* With replace, what the store no longer holds goes first. The records go
 * APPLY_CHUNK at a time: between two, the tables lcore applies the workers'
 * events and replicates (a whole read of 500,000 objects is seconds). */
static void
apply_recs(struct fcr_rec *recs, unsigned int n, int replace, int64_t rev)
{
	unsigned int i;

	by_kind(recs, n);

	if (replace) {
		struct set_job keep = { .recs = recs, .n = n, .replace = 1 };

		run_job(&keep, rev);
	}
	for (i = 0; i < n; i += APPLY_CHUNK) {
		struct set_job j = { .recs = recs + i,
				     .n = n - i < APPLY_CHUNK ? n - i : APPLY_CHUNK };

		run_job(&j, rev);
	}
	hold_update();
}

/* A node's key: its applied revision into nodes (a deletion: its lease
 * expired or was revoked, it is gone). 1 when the event was a node's. */
static int
node_event(const struct fcr_etcd_event *ev, struct fcr_store_nodes *nodes)
{
	char name[FCR_STORE_NODE_NAME_MAX];
	int64_t applied;

	if (fcr_store_node_key_parse(store_s.url.prefix, ev->kv.key, name) < 0)
		return 0;
	pthread_mutex_lock(&store_s.lock);
	if (ev->del)
		fcr_store_nodes_del(nodes, name);
	else if (fcr_store_node_value_parse(ev->kv.value, &applied) == 0 &&
		 fcr_store_nodes_set(nodes, name, applied) < 0 && nodes == &store_s.nodes)
		store_s.nodes_full = 1;
	pthread_cond_broadcast(&store_s.applied);
	pthread_mutex_unlock(&store_s.lock);
	return 1;
}

/* Events (a whole read is PUT events) into records; keys' revisions noted
 * in map (the store's, or the one a whole read fills), nodes' revisions in
 * nodes. *config: raised to the newest revision of configuration among
 * them (not a node's key: a watch catching up brings both in a message). */
static unsigned int
to_recs(const struct fcr_etcd_event *ev, size_t n, struct fcr_rec *recs, int64_t rev,
	struct fcr_store_revs *map, struct fcr_store_nodes *nodes, int64_t *config)
{
	char why[FCR_CMD_MSG_LEN];
	unsigned int k = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		struct fcr_key key;
		int ours;

		if (node_event(&ev[i], nodes))
			continue;
		if (ev[i].kv.mod_rev > *config)
			*config = ev[i].kv.mod_rev;
		ours = fcr_store_key_parse(store_s.url.prefix, ev[i].kv.key, &key) == 0;

		if (ours) {
			pthread_mutex_lock(&store_s.lock);
			fcr_store_revs_set(map, &key, ev[i].del ? 0 : ev[i].kv.mod_rev,
					   fcr_store_value_hash(ev[i].kv.value));
			if (map == &store_s.revs)
				store_s.st.objects = store_s.revs.count;
			pthread_mutex_unlock(&store_s.lock);
		}
		if (fcr_store_event_rec(fcr_commands, fcr_nb_commands, store_s.url.prefix,
					&ev[i], &recs[k], why) < 0) {
			refusal(ev[i].del ? rev : ev[i].kv.mod_rev, why);
			/* a redirect's key with a value that is none: that pair is
			 * redirected by the fabric, and not here */
			pthread_mutex_lock(&store_s.lock);
			if (ours && !ev[i].del)
				fcr_store_revs_refuse(map, &key);
			pthread_mutex_unlock(&store_s.lock);
			continue;
		}
		k++;
	}
	return k;
}

/* Applied up to rev; configuration last changed at config (this node then
 * publishes its applied revision: store_node.c). */
static void
applied_at(int64_t rev, int64_t config)
{
	pthread_mutex_lock(&store_s.lock);
	if (config > store_s.config_rev) {
		store_s.config_rev = config;
		pthread_cond_signal(&store_s.wake);
	}
	if (rev > store_s.st.applied_revision) {
		store_s.st.applied_revision = rev;
		store_s.st.applied_at_ms = wall_ms();
	}
	if (rev > store_s.st.store_revision)
		store_s.st.store_revision = rev;
	pthread_cond_broadcast(&store_s.applied);
	pthread_mutex_unlock(&store_s.lock);
}

/* A page of a whole read (the key repeated from the page before left out)
 * into records at the end of *recs, growing it, its keys' revisions into
 * map; the page's JSON and strings go with r. 0, or -1 out of memory. */
static int
page_to_recs(struct fcr_etcd_reply *r, const char *after, int64_t rev,
	     struct fcr_store_revs *map, struct fcr_store_nodes *nodes, int64_t *config,
	     struct fcr_rec **recs, size_t *n, size_t *cap)
{
	struct fcr_etcd_event *ev = calloc(r->nb_kvs ? r->nb_kvs : 1, sizeof(*ev));
	size_t i, k = 0;

	if (ev == NULL)
		return -1;
	for (i = 0; i < r->nb_kvs; i++)
		if (after == NULL || strcmp(r->kvs[i].key, after) != 0)
			ev[k++].kv = r->kvs[i]; /* borrowed: r keeps the strings */
	if (*n + k > *cap) {
		size_t c = *cap ? *cap : READ_PAGE;
		struct fcr_rec *v;

		while (c < *n + k)
			c *= 2;
		v = realloc(*recs, c * sizeof(*v));
		if (v == NULL) {
			free(ev);
			return -1;
		}
		*recs = v;
		*cap = c;
	}
	*n += to_recs(ev, k, *recs + *n, rev, map, nodes, config);
	free(ev);
	return 0;
}

/*
 * The store whole, at one revision, READ_PAGE keys a request (each page
 * starts at the last key of the one before): the tables then hold what it
 * holds. Each page becomes records as it comes (its JSON freed), into a
 * revisions map of its own that replaces the store's once the read is
 * whole: a write meanwhile still compares with what this node applied.
 */
static int
read_whole(unsigned int ep)
{
	struct fcr_store_revs fresh = { 0 }, old;
	struct fcr_store_nodes *nodes = calloc(1, sizeof(*nodes));
	struct fcr_etcd_reply r;
	struct fcr_rec *recs = NULL;
	size_t n = 0, cap = 0;
	int64_t rev = 0, config = 0;
	uint64_t member = 0, t0 = store_mono_ms(), t1;
	char *after = NULL;
	int more = 1;

	if (nodes == NULL) {
		store_set_error("read %s: out of memory", store_s.url.prefix);
		return -1;
	}
	while (more) {
		char *body = fcr_etcd_range_req(after != NULL ? after : store_s.url.prefix,
						store_s.range_end, rev, READ_PAGE);
		int rc = store_call(ep, "/v3/kv/range", body, &r);

		free(body);
		if (rc == 0 && rev == 0) {
			rev = r.revision; /* every later page at this revision */
			member = r.member_id;
		}
		if (rc == 0 && page_to_recs(&r, after, rev, &fresh, nodes, &config, &recs, &n, &cap) < 0) {
			snprintf(r.error, sizeof(r.error), "out of memory");
			rc = -1;
		}
		if (rc < 0) {
			store_set_error("read %s: %s", store_s.url.prefix, r.error);
			fcr_etcd_reply_free(&r);
			fcr_store_revs_free(&fresh);
			free(recs);
			free(after);
			free(nodes);
			return -1;
		}
		more = r.more && r.nb_kvs > 0;
		free(after);
		after = r.nb_kvs > 0 ? strdup(r.kvs[r.nb_kvs - 1].key) : NULL;
		fcr_etcd_reply_free(&r);
		if (more && after == NULL) {
			store_set_error("read %s: out of memory", store_s.url.prefix);
			fcr_store_revs_free(&fresh);
			free(recs);
			free(nodes);
			return -1;
		}
	}
	free(after);
	pthread_mutex_lock(&store_s.lock);
	old = store_s.revs;
	store_s.revs = fresh;
	store_s.st.objects = store_s.revs.count;
	store_s.nodes = *nodes;
	pthread_mutex_unlock(&store_s.lock);
	free(nodes);
	fcr_store_revs_free(&old);
	t1 = store_mono_ms();
	apply_recs(recs, (unsigned int)n, 1, rev);
	FCR_LOG(NOTICE, store, "%s read whole at revision %" PRId64 ": %zu objects (read %"
		PRIu64 " ms, applied %" PRIu64 " ms)", store_s.url.prefix, rev, fresh.count,
		t1 - t0, store_mono_ms() - t1);
	pthread_mutex_lock(&store_s.lock);
	store_s.st.full_reads++;
	store_s.loaded = 1;
	store_s.st.member_id = member;
	pthread_mutex_unlock(&store_s.lock);
	applied_at(rev, config);
	free(recs);
	return 0;
}

/* ---- the watch -------------------------------------------------------- */

struct watch {
	struct buf b;
	size_t off;
	int compacted;
	int failed;
};

static int
watch_message(struct fcr_etcd_reply *r)
{
	struct fcr_rec *recs;
	int64_t rev = r->revision;
	unsigned int n;
	int64_t config = 0;
	size_t i;

	if (r->canceled) {
		if (r->compact_revision > 0)
			return 1;
		store_set_error("the watch was canceled: %s",
				r->error[0] ? r->error : "no reason given");
		return -1;
	}
	if (r->created) {
		pthread_mutex_lock(&store_s.lock);
		store_s.st.connected = 1;
		store_s.st.member_id = r->member_id;
		if (r->revision > store_s.st.store_revision)
			store_s.st.store_revision = r->revision;
		pthread_mutex_unlock(&store_s.lock);
		FCR_LOG(INFO, store, "watching %s on %s:%u from revision %" PRId64,
			store_s.url.prefix, store_s.url.host[store_s.endpoint],
			store_s.url.port[store_s.endpoint], store_s.st.applied_revision + 1);
	}
	if (r->nb_events == 0)
		return 0;
	recs = calloc(r->nb_events, sizeof(*recs));
	if (recs == NULL) {
		store_set_error("out of memory");
		return -1;
	}
	for (i = 0; i < r->nb_events; i++)
		if (r->events[i].kv.mod_rev > rev)
			rev = r->events[i].kv.mod_rev;
	pthread_mutex_lock(&store_s.lock);
	if (r->revision > store_s.st.store_revision)
		store_s.st.store_revision = r->revision;
	pthread_mutex_unlock(&store_s.lock);
	n = to_recs(r->events, r->nb_events, recs, rev, &store_s.revs, &store_s.nodes, &config);
	if (config)
		apply_recs(recs, n, 0, rev);
	free(recs);
	/* events of one revision come in one message: all of it is applied */
	applied_at(r->events[r->nb_events - 1].kv.mod_rev, config);
	return 0;
}

static size_t
on_watch(char *d, size_t sz, size_t n, void *arg)
{
	struct watch *w = arg;
	size_t used;
	int rc;

	if (store_on_data(d, sz, n, &w->b) != sz * n)
		return 0;
	for (;;) {
		struct fcr_etcd_reply r = { 0 };

		rc = fcr_etcd_parse_stream(w->b.p + w->off, w->b.len - w->off, &used, &r);
		if (rc == 0)
			break;
		if (rc < 0) {
			store_set_error("the watch stream: %s", r.error);
			fcr_etcd_reply_free(&r);
			w->failed = 1;
			return 0;
		}
		w->off += used;
		rc = watch_message(&r);
		fcr_etcd_reply_free(&r);
		if (rc != 0) {
			w->compacted = rc > 0;
			w->failed = rc < 0;
			return 0;
		}
	}
	/* keep only what is not parsed yet */
	memmove(w->b.p, w->b.p + w->off, w->b.len - w->off);
	w->b.len -= w->off;
	w->off = 0;
	return sz * n;
}

/* The watch's socket, known to the liveness thread, which shuts it to end
 * a watch on a member that stopped proving it is current (a paused or cut
 * off member keeps its TCP connection up: the watch would wait for ever). */
static curl_socket_t
open_watch_socket(void *arg, curlsocktype purpose, struct curl_sockaddr *a)
{
	curl_socket_t fd = socket(a->family, a->socktype, a->protocol);

	(void)arg;
	(void)purpose;
	if (fd != CURL_SOCKET_BAD) {
		pthread_mutex_lock(&store_s.lock);
		store_s.watch_fd = fd;
		pthread_mutex_unlock(&store_s.lock);
	}
	return fd;
}

static int
close_watch_socket(void *arg, curl_socket_t fd)
{
	(void)arg;
	pthread_mutex_lock(&store_s.lock);
	if (store_s.watch_fd == fd)
		store_s.watch_fd = -1;
	pthread_mutex_unlock(&store_s.lock);
	return close(fd);
}

/* Watch from the revision after the applied one until the stream ends:
 * 1 when the store compacted past it, -1 otherwise. */
static int
watch(unsigned int ep)
{
	struct curl_slist *hdrs = NULL;
	struct watch w = { 0 };
	char errbuf[CURL_ERROR_SIZE], why[CURL_ERROR_SIZE + 64];
	char *body;
	CURL *h;
	CURLcode cc;

	pthread_mutex_lock(&store_s.lock);
	body = fcr_etcd_watch_req(store_s.url.prefix, store_s.range_end,
				  store_s.st.applied_revision + 1);
	store_s.abandon = 0;
	pthread_mutex_unlock(&store_s.lock);
	h = store_request(ep, "/v3/watch", body, &hdrs, errbuf);
	if (h == NULL || body == NULL) {
		free(body);
		return -1;
	}
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_watch);
	curl_easy_setopt(h, CURLOPT_WRITEDATA, &w);
	curl_easy_setopt(h, CURLOPT_OPENSOCKETFUNCTION, open_watch_socket);
	curl_easy_setopt(h, CURLOPT_CLOSESOCKETFUNCTION, close_watch_socket);
	cc = curl_easy_perform(h);
	/* ended by the liveness thread: the error says why already */
	if (!w.compacted && !w.failed && !store_s.quit && !store_s.abandon)
		store_set_error("%s:%u: %s", store_s.url.host[ep], store_s.url.port[ep],
			  cc == CURLE_OK ? "the watch stream ended" :
			  store_curl_why(cc, errbuf, why, sizeof(why)));
	curl_easy_cleanup(h);
	curl_slist_free_all(hdrs);
	free(body);
	free(w.b.p);
	pthread_mutex_lock(&store_s.lock);
	store_s.st.connected = 0;
	if (store_s.st.current) {
		store_s.st.current = 0;
		store_s.not_current_ms = store_mono_ms();
	}
	pthread_mutex_unlock(&store_s.lock);
	return w.compacted ? 1 : -1;
}

void *
store_main(void *arg)
{
	unsigned int backoff = BACKOFF_MIN_MS;
	int need_read = 1;

	(void)arg;
	while (!store_s.quit) {
		unsigned int ep = store_s.endpoint;
		int rc = store_authenticate(ep);

		if (rc == 0 && need_read) {
			rc = read_whole(ep);
			if (rc == 0)
				need_read = 0;
		}
		if (rc == 0) {
			rc = watch(ep);
			if (rc > 0) {
				FCR_LOG(NOTICE, store, "revision %" PRId64 " is compacted: reading "
					"the store whole again", store_s.st.applied_revision + 1);
				need_read = 1;
				backoff = BACKOFF_MIN_MS;
				continue;
			}
		}
		if (store_s.quit)
			break;
		if (store_s.abandon) /* left for another member: no back-off */
			backoff = BACKOFF_MIN_MS;
		store_fail_over(ep, backoff);
		/* a watch that ran a while was a success: start over short */
		backoff = backoff * 2 > BACKOFF_MAX_MS ? BACKOFF_MAX_MS : backoff * 2;
	}
	return NULL;
}
