/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <curl/curl.h>
#include <rte_lcore.h>

#include "commands.h"
#include "fcr_config.h"
#include "fcr_kind.h"
#include "fcr_store.h"
#include "fwd.h"
#include "log.h"
#include "store.h"
#include "sync_lcore.h"

#define CONNECT_TIMEOUT_MS 2000
#define REQUEST_TIMEOUT_MS 10000
#define BACKOFF_MIN_MS 100
#define BACKOFF_MAX_MS 5000
#define APPLY_WAIT_MS 10000   /* a write waits this long for its own watch */
#define TXN_TIMEOUT_MS 3000   /* a member that takes longer: the next one */
#define COMMIT_TRIES 3        /* rounds over the members */
#define COMMIT_PAUSE_MS 500   /* between rounds: an election's time */
#define APPLY_CHUNK 2048      /* records a sync lcore job sets */
#define READ_PAGE 20000       /* keys a range request of a whole read asks for */

struct buf {
	char *p;
	size_t len, cap;
};

static struct {
	int on;
	struct fcr_store_url url;
	struct fcr_store_conf conf;
	char user[128], password[128];
	char range_end[FCR_STORE_PREFIX_MAX];
	pthread_t thread;
	volatile int quit;

	/* below: under lock; the thread changes them, readers copy them */
	pthread_mutex_t lock;
	pthread_cond_t applied;    /* applied_revision moved, or loaded */
	int loaded;
	unsigned int endpoint;     /* the member in use */
	char token[256];           /* authentication, when a user is given */
	struct fcr_store_revs revs;
	struct fcr_store_status st;
	int64_t refused_rev;       /* the revision of the last refusal, and why */
	char refused_why[FCR_CMD_MSG_LEN];
	uint64_t last_error_s;
} S = { .lock = PTHREAD_MUTEX_INITIALIZER, .applied = PTHREAD_COND_INITIALIZER };

static uint64_t
wall_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* CLOCK_REALTIME ms from now, for pthread_cond_timedwait. */
static struct timespec
deadline(unsigned int ms)
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

static uint64_t
mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static void
set_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void
set_error(const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&S.lock);
	va_start(ap, fmt);
	vsnprintf(S.st.last_error, sizeof(S.st.last_error), fmt, ap);
	va_end(ap);
	S.last_error_s = mono_ms() / 1000;
	pthread_mutex_unlock(&S.lock);
}

static size_t
on_data(char *d, size_t sz, size_t n, void *arg)
{
	struct buf *b = arg;
	size_t add = sz * n;

	if (b->len + add + 1 > b->cap) {
		size_t cap = (b->len + add + 1) * 2;
		char *p = realloc(b->p, cap);

		if (p == NULL)
			return 0;
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->len, d, add);
	b->len += add;
	b->p[b->len] = '\0';
	return add;
}

static int
on_progress(void *arg, curl_off_t a, curl_off_t b, curl_off_t c, curl_off_t d)
{
	(void)arg, (void)a, (void)b, (void)c, (void)d;
	return S.quit; /* non-zero ends the transfer */
}

/* libcurl's own words for a failed transfer: its error buffer says which
 * TLS alert or certificate check, where curl_easy_strerror says only
 * "Failed sending data"; a TLS member asked in plain http answers nothing. */
static int
tls_on(void)
{
	return S.conf.cacert != NULL || S.conf.cert != NULL;
}

static const char *
curl_why(CURLcode cc, const char *errbuf, char *out, size_t len)
{
	snprintf(out, len, "%s%s", errbuf[0] ? errbuf : curl_easy_strerror(cc),
		 !tls_on() && cc == CURLE_GOT_NOTHING ?
		 " (a member serving TLS? give --config-store-cacert)" : "");
	return out;
}

/* An easy handle for POST path to member ep with body; *hdrs to free;
 * errbuf (CURL_ERROR_SIZE) gets the reason of a failure. */
static CURL *
request(unsigned int ep, const char *path, const char *body, struct curl_slist **hdrs,
	char *errbuf)
{
	char url[256], auth[300];
	CURL *h = curl_easy_init();

	if (h == NULL)
		return NULL;
	snprintf(url, sizeof(url), "%s://%s:%u%s", tls_on() ? "https" : "http", S.url.host[ep],
		 S.url.port[ep], path);
	curl_easy_setopt(h, CURLOPT_URL, url);
	curl_easy_setopt(h, CURLOPT_POSTFIELDS, body);
	errbuf[0] = '\0';
	curl_easy_setopt(h, CURLOPT_ERRORBUFFER, errbuf);
	/* the JSON gateway's long-lived watch is a chunked HTTP/1.1 reply */
	curl_easy_setopt(h, CURLOPT_HTTP_VERSION, (long)CURL_HTTP_VERSION_1_1);
	curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, (long)CONNECT_TIMEOUT_MS);
	curl_easy_setopt(h, CURLOPT_TCP_KEEPALIVE, 1L);
	curl_easy_setopt(h, CURLOPT_TCP_KEEPIDLE, 5L);
	curl_easy_setopt(h, CURLOPT_TCP_KEEPINTVL, 2L);
	curl_easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
	curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, on_progress);
	if (S.conf.cacert != NULL)
		curl_easy_setopt(h, CURLOPT_CAINFO, S.conf.cacert);
	if (S.conf.cert != NULL) {
		curl_easy_setopt(h, CURLOPT_SSLCERT, S.conf.cert);
		curl_easy_setopt(h, CURLOPT_SSLKEY, S.conf.key);
	}
	*hdrs = curl_slist_append(NULL, "Content-Type: application/json");
	pthread_mutex_lock(&S.lock);
	if (S.token[0] != '\0') {
		snprintf(auth, sizeof(auth), "Authorization: %s", S.token);
		*hdrs = curl_slist_append(*hdrs, auth);
	}
	pthread_mutex_unlock(&S.lock);
	curl_easy_setopt(h, CURLOPT_HTTPHEADER, *hdrs);
	return h;
}

/* One request and its whole reply, parsed, within ms. 0, or -1 and r->error. */
static int
call_for(unsigned int ep, const char *path, const char *body, struct fcr_etcd_reply *r,
	 long ms)
{
	struct curl_slist *hdrs = NULL;
	struct buf b = { 0 };
	char errbuf[CURL_ERROR_SIZE], why[CURL_ERROR_SIZE + 64];
	CURL *h = request(ep, path, body, &hdrs, errbuf);
	CURLcode cc;
	int rc = -1;

	memset(r, 0, sizeof(*r));
	if (h == NULL || body == NULL) {
		snprintf(r->error, sizeof(r->error), "out of memory");
		goto out;
	}
	curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, ms);
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_data);
	curl_easy_setopt(h, CURLOPT_WRITEDATA, &b);
	cc = curl_easy_perform(h);
	if (cc != CURLE_OK) {
		snprintf(r->error, sizeof(r->error), "%.60s:%u: %.120s", S.url.host[ep],
			 S.url.port[ep], curl_why(cc, errbuf, why, sizeof(why)));
		goto out;
	}
	rc = fcr_etcd_parse(b.p != NULL ? b.p : "", b.len, r);
out:
	if (h != NULL)
		curl_easy_cleanup(h);
	curl_slist_free_all(hdrs);
	free(b.p);
	return rc;
}

static int
call(unsigned int ep, const char *path, const char *body, struct fcr_etcd_reply *r)
{
	return call_for(ep, path, body, r, REQUEST_TIMEOUT_MS);
}

/* The store's answers that another try may not get: no leader yet. */
static int
transient(const char *error)
{
	return strstr(error, "timed out") != NULL || strstr(error, "leader") != NULL ||
	       strstr(error, "too many requests") != NULL;
}

/* With a user: a token from the member, for every request after. */
static int
authenticate(unsigned int ep)
{
	struct fcr_etcd_reply r;
	char *body;
	int rc;

	if (S.user[0] == '\0')
		return 0;
	pthread_mutex_lock(&S.lock);
	S.token[0] = '\0';
	pthread_mutex_unlock(&S.lock);
	body = fcr_etcd_auth_req(S.user, S.password);
	rc = call(ep, "/v3/auth/authenticate", body, &r);
	free(body);
	if (rc == 0 && r.token == NULL) {
		snprintf(r.error, sizeof(r.error), "no token in the reply");
		rc = -1;
	}
	if (rc < 0)
		set_error("authenticate as %s: %s", S.user, r.error);
	else {
		pthread_mutex_lock(&S.lock);
		snprintf(S.token, sizeof(S.token), "%s", r.token);
		pthread_mutex_unlock(&S.lock);
	}
	fcr_etcd_reply_free(&r);
	return rc;
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
	pthread_mutex_lock(&S.lock);
	S.st.refused++;
	S.refused_rev = rev;
	snprintf(S.refused_why, sizeof(S.refused_why), "%s", why);
	pthread_mutex_unlock(&S.lock);
}

/*
 * Apply the records of revision rev on the sync lcore; each line the tables
 * refused is logged and counted (the tables keep what they held for it).
 */
static void
run_job(struct set_job *j, int64_t rev)
{
	char *line, *save = NULL;
	unsigned int i;

	fcr_sync_lcore_run(set_job_run, j);
	pthread_mutex_lock(&S.lock);
	for (i = 0; i < j->n && j->refused; i++)
		if (j->bad[i])
			fcr_store_revs_refuse(&S.revs, &j->recs[i].key);
	pthread_mutex_unlock(&S.lock);
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

	pthread_mutex_lock(&S.lock);
	n = S.revs.refused_closed;
	was = S.st.refused_redirects > 0;
	S.st.refused_redirects = n;
	snprintf(why, sizeof(why), "%s", S.refused_why);
	pthread_mutex_unlock(&S.lock);
	__atomic_store_n(&fcr_fwd.store_refused, n > 0, __ATOMIC_RELEASE);
	if (n > 0 && !was)
		FCR_LOG(ERR, store, "not forwarding: %zu redirect(s) of the store refused here "
			"(last: %s); every frame is dropped as store_refused until each applies "
			"or is deleted", n, why);
	else if (n == 0 && was)
		FCR_LOG(NOTICE, store, "forwarding again: every redirect of the store is "
			"applied here");
}

/* With replace, what the store no longer holds goes first. The records go
 * APPLY_CHUNK at a time: between two, the sync lcore applies the workers'
 * events and replicates (a whole read of 500,000 objects is seconds). */
static void
apply_recs(const struct fcr_rec *recs, unsigned int n, int replace, int64_t rev)
{
	unsigned int i;

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

/* Events (a whole read is PUT events) into records; keys' revisions noted
 * in map (the store's, or the one a whole read fills). */
static unsigned int
to_recs(const struct fcr_etcd_event *ev, size_t n, struct fcr_rec *recs, int64_t rev,
	struct fcr_store_revs *map)
{
	char why[FCR_CMD_MSG_LEN];
	unsigned int k = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		struct fcr_key key;
		int ours = fcr_store_key_parse(S.url.prefix, ev[i].kv.key, &key) == 0;

		if (ours) {
			pthread_mutex_lock(&S.lock);
			fcr_store_revs_set(map, &key, ev[i].del ? 0 : ev[i].kv.mod_rev,
					   fcr_store_value_hash(ev[i].kv.value));
			if (map == &S.revs)
				S.st.objects = S.revs.count;
			pthread_mutex_unlock(&S.lock);
		}
		if (fcr_store_event_rec(fcr_commands, fcr_nb_commands, S.url.prefix,
					&ev[i], &recs[k], why) < 0) {
			refusal(ev[i].del ? rev : ev[i].kv.mod_rev, why);
			/* a redirect's key with a value that is none: that pair is
			 * redirected by the fabric, and not here */
			pthread_mutex_lock(&S.lock);
			if (ours && !ev[i].del)
				fcr_store_revs_refuse(map, &key);
			pthread_mutex_unlock(&S.lock);
			continue;
		}
		k++;
	}
	return k;
}

static void
applied_at(int64_t rev)
{
	pthread_mutex_lock(&S.lock);
	if (rev > S.st.applied_revision) {
		S.st.applied_revision = rev;
		S.st.applied_at_ms = wall_ms();
	}
	if (rev > S.st.store_revision)
		S.st.store_revision = rev;
	pthread_cond_broadcast(&S.applied);
	pthread_mutex_unlock(&S.lock);
}

/* A page of a whole read (the key repeated from the page before left out)
 * into records at the end of *recs, growing it, its keys' revisions into
 * map; the page's JSON and strings go with r. 0, or -1 out of memory. */
static int
page_to_recs(struct fcr_etcd_reply *r, const char *after, int64_t rev,
	     struct fcr_store_revs *map, struct fcr_rec **recs, size_t *n, size_t *cap)
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
	*n += to_recs(ev, k, *recs + *n, rev, map);
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
	struct fcr_etcd_reply r;
	struct fcr_rec *recs = NULL;
	size_t n = 0, cap = 0;
	int64_t rev = 0;
	uint64_t member = 0, t0 = mono_ms(), t1;
	char *after = NULL;
	int more = 1;

	while (more) {
		char *body = fcr_etcd_range_req(after != NULL ? after : S.url.prefix, S.range_end,
						rev, READ_PAGE);
		int rc = call(ep, "/v3/kv/range", body, &r);

		free(body);
		if (rc == 0 && rev == 0) {
			rev = r.revision; /* every later page at this revision */
			member = r.member_id;
		}
		if (rc == 0 && page_to_recs(&r, after, rev, &fresh, &recs, &n, &cap) < 0) {
			snprintf(r.error, sizeof(r.error), "out of memory");
			rc = -1;
		}
		if (rc < 0) {
			set_error("read %s: %s", S.url.prefix, r.error);
			fcr_etcd_reply_free(&r);
			fcr_store_revs_free(&fresh);
			free(recs);
			free(after);
			return -1;
		}
		more = r.more && r.nb_kvs > 0;
		free(after);
		after = r.nb_kvs > 0 ? strdup(r.kvs[r.nb_kvs - 1].key) : NULL;
		fcr_etcd_reply_free(&r);
		if (more && after == NULL) {
			set_error("read %s: out of memory", S.url.prefix);
			fcr_store_revs_free(&fresh);
			free(recs);
			return -1;
		}
	}
	free(after);
	pthread_mutex_lock(&S.lock);
	old = S.revs;
	S.revs = fresh;
	S.st.objects = S.revs.count;
	pthread_mutex_unlock(&S.lock);
	fcr_store_revs_free(&old);
	t1 = mono_ms();
	apply_recs(recs, (unsigned int)n, 1, rev);
	FCR_LOG(NOTICE, store, "%s read whole at revision %" PRId64 ": %zu objects (read %"
		PRIu64 " ms, applied %" PRIu64 " ms)", S.url.prefix, rev, fresh.count, t1 - t0,
		mono_ms() - t1);
	pthread_mutex_lock(&S.lock);
	S.st.full_reads++;
	S.loaded = 1;
	S.st.member_id = member;
	pthread_mutex_unlock(&S.lock);
	applied_at(rev);
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
	size_t i;

	if (r->canceled) {
		if (r->compact_revision > 0)
			return 1;
		set_error("the watch was canceled: %s", r->error[0] ? r->error : "no reason given");
		return -1;
	}
	if (r->created) {
		pthread_mutex_lock(&S.lock);
		S.st.connected = 1;
		S.st.member_id = r->member_id;
		if (r->revision > S.st.store_revision)
			S.st.store_revision = r->revision;
		pthread_mutex_unlock(&S.lock);
		FCR_LOG(INFO, store, "watching %s on %s:%u from revision %" PRId64,
			S.url.prefix, S.url.host[S.endpoint], S.url.port[S.endpoint],
			S.st.applied_revision + 1);
	}
	if (r->nb_events == 0)
		return 0;
	recs = calloc(r->nb_events, sizeof(*recs));
	if (recs == NULL) {
		set_error("out of memory");
		return -1;
	}
	for (i = 0; i < r->nb_events; i++)
		if (r->events[i].kv.mod_rev > rev)
			rev = r->events[i].kv.mod_rev;
	pthread_mutex_lock(&S.lock);
	if (r->revision > S.st.store_revision)
		S.st.store_revision = r->revision;
	pthread_mutex_unlock(&S.lock);
	n = to_recs(r->events, r->nb_events, recs, rev, &S.revs);
	apply_recs(recs, n, 0, rev);
	free(recs);
	/* events of one revision come in one message: all of it is applied */
	applied_at(r->events[r->nb_events - 1].kv.mod_rev);
	return 0;
}

static size_t
on_watch(char *d, size_t sz, size_t n, void *arg)
{
	struct watch *w = arg;
	size_t used;
	int rc;

	if (on_data(d, sz, n, &w->b) != sz * n)
		return 0;
	for (;;) {
		struct fcr_etcd_reply r = { 0 };

		rc = fcr_etcd_parse_stream(w->b.p + w->off, w->b.len - w->off, &used, &r);
		if (rc == 0)
			break;
		if (rc < 0) {
			set_error("the watch stream: %s", r.error);
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

	pthread_mutex_lock(&S.lock);
	body = fcr_etcd_watch_req(S.url.prefix, S.range_end, S.st.applied_revision + 1);
	pthread_mutex_unlock(&S.lock);
	h = request(ep, "/v3/watch", body, &hdrs, errbuf);
	if (h == NULL || body == NULL) {
		free(body);
		return -1;
	}
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_watch);
	curl_easy_setopt(h, CURLOPT_WRITEDATA, &w);
	cc = curl_easy_perform(h);
	if (!w.compacted && !w.failed && !S.quit)
		set_error("%s:%u: %s", S.url.host[ep], S.url.port[ep],
			  cc == CURLE_OK ? "the watch stream ended" :
			  curl_why(cc, errbuf, why, sizeof(why)));
	curl_easy_cleanup(h);
	curl_slist_free_all(hdrs);
	free(body);
	free(w.b.p);
	pthread_mutex_lock(&S.lock);
	S.st.connected = 0;
	pthread_mutex_unlock(&S.lock);
	return w.compacted ? 1 : -1;
}

static void
pause_ms(unsigned int ms)
{
	while (ms > 0 && !S.quit) {
		unsigned int step = ms < 50 ? ms : 50;

		usleep(step * 1000);
		ms -= step;
	}
}

static void *
store_main(void *arg)
{
	unsigned int backoff = BACKOFF_MIN_MS;
	int need_read = 1;

	(void)arg;
	while (!S.quit) {
		unsigned int ep = S.endpoint;
		int rc = authenticate(ep);

		if (rc == 0 && need_read) {
			rc = read_whole(ep);
			if (rc == 0)
				need_read = 0;
		}
		if (rc == 0) {
			rc = watch(ep);
			if (rc > 0) {
				FCR_LOG(NOTICE, store, "revision %" PRId64 " is compacted: reading "
					"the store whole again", S.st.applied_revision + 1);
				need_read = 1;
				backoff = BACKOFF_MIN_MS;
				continue;
			}
		}
		if (S.quit)
			break;
		FCR_LOG(WARNING, store, "%s (next: %s:%u in %u ms)", S.st.last_error,
			S.url.host[(ep + 1) % S.url.nb_endpoints],
			S.url.port[(ep + 1) % S.url.nb_endpoints], backoff);
		pthread_mutex_lock(&S.lock);
		S.endpoint = (ep + 1) % S.url.nb_endpoints;
		S.st.reconnects++;
		pthread_mutex_unlock(&S.lock);
		pause_ms(backoff);
		/* a watch that ran a while was a success: start over short */
		backoff = backoff * 2 > BACKOFF_MAX_MS ? BACKOFF_MAX_MS : backoff * 2;
	}
	return NULL;
}

/* ---- the command line's side ----------------------------------------- */

int
fcr_store_enabled(void)
{
	return S.on;
}

int
fcr_store_start(const struct fcr_store_conf *c)
{
	char why[FCR_CMD_MSG_LEN];

	if (c->url == NULL)
		return 0;
	if (fcr_store_url_parse(c->url, &S.url, why) < 0) {
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
		    (size_t)(colon - c->user) >= sizeof(S.user) ||
		    strlen(colon + 1) >= sizeof(S.password)) {
			fprintf(stderr, "error: --config-store-user is USER:PASSWORD\n");
			return -1;
		}
		memcpy(S.user, c->user, (size_t)(colon - c->user));
		snprintf(S.password, sizeof(S.password), "%s", colon + 1);
	}
	S.conf = *c;
	fcr_etcd_prefix_end(S.url.prefix, S.range_end);
	if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
		fprintf(stderr, "error: --config-store: libcurl did not initialise\n");
		return -1;
	}
	S.on = 1;
	if (rte_ctrl_thread_create(&S.thread, "fcr-store", NULL, store_main, NULL) != 0) {
		fprintf(stderr, "error: --config-store: cannot start its thread\n");
		S.on = 0;
		return -1;
	}
	return 0;
}

int
fcr_store_wait_loaded(volatile int *quit)
{
	uint64_t said = mono_ms() / 1000;

	pthread_mutex_lock(&S.lock);
	while (!S.loaded && !*quit && !S.quit) {
		struct timespec ts = deadline(200);

		pthread_cond_timedwait(&S.applied, &S.lock, &ts);
		if (!S.loaded && mono_ms() / 1000 - said >= 5) {
			said = mono_ms() / 1000;
			FCR_LOG(WARNING, store, "not forwarding until the configuration store is "
				"read: %s", S.st.last_error[0] ? S.st.last_error : "no answer yet");
		}
	}
	pthread_mutex_unlock(&S.lock);
	return S.loaded ? 0 : -1;
}

static int
applied_by(int64_t rev, unsigned int ms)
{
	struct timespec ts = deadline(ms);
	int ok;

	pthread_mutex_lock(&S.lock);
	while (S.st.applied_revision < rev &&
	       pthread_cond_timedwait(&S.applied, &S.lock, &ts) != ETIMEDOUT)
		;
	ok = S.st.applied_revision >= rev;
	pthread_mutex_unlock(&S.lock);
	return ok;
}

/* The failure branch: which keys moved, and whether they already say what
 * the write would have (then there is nothing to write). */
static int
conflicts(const struct fcr_etcd_op *ops, size_t n, const struct fcr_etcd_reply *r, FILE *out)
{
	unsigned int moved = 0;
	size_t i, j;

	for (i = 0; i < n; i++) {
		const struct fcr_etcd_kv *now = NULL;

		for (j = 0; j < r->nb_kvs; j++)
			if (strcmp(r->kvs[j].key, ops[i].key) == 0)
				now = &r->kvs[j];
		if (ops[i].value != NULL ? now != NULL && strcmp(now->value, ops[i].value) == 0
					 : now == NULL)
			continue; /* already so */
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
	struct fcr_etcd_reply r;
	char *body = fcr_etcd_txn_req(ops, n);
	unsigned int tried, ep, moved;
	int rc = -1;

	pthread_mutex_lock(&S.lock);
	ep = S.endpoint;
	pthread_mutex_unlock(&S.lock);
	/* every member in turn, for a while: one may be down, or the cluster
	 * electing a leader. Sending a transaction again is safe: if the first
	 * went in, the second finds its keys moved and already so. */
	for (tried = 0; tried < COMMIT_TRIES * S.url.nb_endpoints;
	     tried++, ep = (ep + 1) % S.url.nb_endpoints) {
		if (tried > 0 && tried % S.url.nb_endpoints == 0)
			pause_ms(COMMIT_PAUSE_MS);
		rc = call_for(ep, "/v3/kv/txn", body, &r, TXN_TIMEOUT_MS);
		if (rc < 0 && strstr(r.error, "invalid auth token") != NULL &&
		    authenticate(ep) == 0) {
			/* a token expires (etcd's --auth-token-ttl): a new one, once */
			fcr_etcd_reply_free(&r);
			rc = call_for(ep, "/v3/kv/txn", body, &r, TXN_TIMEOUT_MS);
		}
		if (rc == 0 || (strstr(r.error, "etcdserver:") != NULL && !transient(r.error)))
			break; /* an answer, even a refusal */
		if (tried + 1 < COMMIT_TRIES * S.url.nb_endpoints)
			fcr_etcd_reply_free(&r);
	}
	free(body);
	if (rc < 0) {
		fprintf(out, "error: the configuration store %s: %s; configuration commands are "
			"refused until it answers (forwarding goes on with revision %" PRId64 ")\n",
			strstr(r.error, "etcdserver:") != NULL && !transient(r.error) ?
			"refused the change" : "is unreachable", r.error, S.st.applied_revision);
		fcr_etcd_reply_free(&r);
		return -1;
	}
	*rev = r.revision;
	if (!r.succeeded) {
		moved = (unsigned int)conflicts(ops, n, &r, out);
		fcr_etcd_reply_free(&r);
		pthread_mutex_lock(&S.lock);
		S.st.conflicts += moved != 0;
		pthread_mutex_unlock(&S.lock);
		if (moved != 0) {
			fprintf(out, "error: nothing was written (read the store again: show config "
				"store; then retry)\n");
			return -1;
		}
		*rev = 0; /* the store already says so */
		return 0;
	}
	fcr_etcd_reply_free(&r);
	pthread_mutex_lock(&S.lock);
	S.st.writes++;
	pthread_mutex_unlock(&S.lock);
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
	pthread_mutex_lock(&S.lock);
	for (i = 0; i < n; i++) {
		const struct fcr_kind *k = cmds[i].def->kind;
		struct fcr_rec r;

		k->cmd_rec(&cmds[i], &r);
		fcr_store_key(S.url.prefix, &r.key, keys[m]);
		/* one write per key: the last line for it wins, as it would here */
		for (j = 0; j < m && strcmp(keys[j], keys[m]) != 0; j++)
			;
		ops[j].key = keys[j];
		ops[j].expect_mod_rev = fcr_store_revs_get(&S.revs, &r.key, &held[j]);
		if (cmds[i].def->id == FCR_OP_ADD) {
			fcr_cmd_format(&cmds[i], vals[j], sizeof(vals[j]));
			ops[j].value = vals[j];
		} else {
			ops[j].value = NULL;
		}
		if (j == m)
			m++;
	}
	pthread_mutex_unlock(&S.lock);
	/* what the store already holds, as this node read it, is no write */
	for (i = 0, j = 0; i < m; i++) {
		int same = ops[i].value != NULL
			? ops[i].expect_mod_rev != 0 && held[i] == fcr_store_value_hash(ops[i].value)
			: ops[i].expect_mod_rev == 0;

		if (!same)
			ops[j++] = ops[i];
	}
	m = j;
	if (m == 0) {
		rc = 0;
		goto out;
	}
	if (commit(ops, m, &rev, out) < 0)
		goto out;
	rc = 0;
	if (rev == 0)
		goto out;
	if (!applied_by(rev, APPLY_WAIT_MS)) {
		fprintf(out, "note: committed to the store at revision %" PRId64 "; not applied "
			"here yet (this node's watch is at revision %" PRId64 ")\n", rev,
			S.st.applied_revision);
		goto out;
	}
	pthread_mutex_lock(&S.lock);
	if (S.refused_rev == rev) {
		fprintf(out, "error: committed to the store at revision %" PRId64 ", but this "
			"node refused it: %s\n", rev, S.refused_why);
		if (S.st.refused_redirects > 0)
			fprintf(out, "error: this node forwards nothing while it refuses a "
				"redirect of the store (%" PRIu64 " now): 'show config store'\n",
				S.st.refused_redirects);
		rc = -1;
	}
	pthread_mutex_unlock(&S.lock);
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
	pthread_mutex_lock(&S.lock);
	*s = S.st;
	snprintf(s->endpoint, sizeof(s->endpoint), "%s:%u", S.url.host[S.endpoint],
		 S.url.port[S.endpoint]);
	s->last_error_age_s = s->last_error[0] ? mono_ms() / 1000 - S.last_error_s : 0;
	pthread_mutex_unlock(&S.lock);
}

void
fcr_store_show(FILE *out)
{
	struct fcr_store_status s;
	char why[FCR_CMD_MSG_LEN];

	if (!S.on) {
		fprintf(out, "config store: none (configuration is this node's own; "
			"--config-store etcd://HOST:PORT/PREFIX to share it)\n");
		return;
	}
	fcr_store_get_status(&s);
	pthread_mutex_lock(&S.lock);
	snprintf(why, sizeof(why), "%s", S.refused_why);
	pthread_mutex_unlock(&S.lock);
	fprintf(out, "config store: %s\n", S.conf.url);
	fprintf(out, "  connected:         %s (%s, member %016" PRIx64 ")\n",
		s.connected ? "yes" : "no", s.endpoint, s.member_id);
	fprintf(out, "  applied revision:  %" PRId64 " (at %" PRIu64 ".%03" PRIu64 ")\n",
		s.applied_revision, s.applied_at_ms / 1000, s.applied_at_ms % 1000);
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
}

void
fcr_store_stop(void)
{
	if (!S.on)
		return;
	S.quit = 1;
	pthread_mutex_lock(&S.lock);
	pthread_cond_broadcast(&S.applied);
	pthread_mutex_unlock(&S.lock);
	pthread_join(S.thread, NULL);
	fcr_store_revs_free(&S.revs);
	curl_global_cleanup();
	S.on = 0;
}
