/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The configuration store's transport: HTTP (TLS with certificates) to
 * its members through libcurl, etcd's authentication and its token, and
 * failing over from one member to the next.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <curl/curl.h>

#include "log.h"
#include "store_priv.h"

#define CONNECT_TIMEOUT_MS 2000
#define REQUEST_TIMEOUT_MS 10000

size_t
store_on_data(char *d, size_t sz, size_t n, void *arg)
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
	return store_s.quit; /* non-zero ends the transfer */
}

/* libcurl's own words for a failed transfer: its error buffer says which
 * TLS alert or certificate check, where curl_easy_strerror says only
 * "Failed sending data"; a TLS member asked in plain http answers nothing. */
static int
tls_on(void)
{
	return store_s.conf.cacert != NULL || store_s.conf.cert != NULL;
}

const char *
store_curl_why(CURLcode cc, const char *errbuf, char *out, size_t len)
{
	snprintf(out, len, "%s%s", errbuf[0] ? errbuf : curl_easy_strerror(cc),
		 !tls_on() && cc == CURLE_GOT_NOTHING ?
		 " (a member serving TLS? give --config-store-cacert)" : "");
	return out;
}

/* An easy handle for POST path to member ep with body; *hdrs to free;
 * errbuf (CURL_ERROR_SIZE) gets the reason of a failure. */
CURL *
store_request(unsigned int ep, const char *path, const char *body, struct curl_slist **hdrs,
	      char *errbuf)
{
	char url[256], auth[300];
	CURL *h = curl_easy_init();

	if (h == NULL)
		return NULL;
	snprintf(url, sizeof(url), "%s://%s:%u%s", tls_on() ? "https" : "http",
		 store_s.url.host[ep], store_s.url.port[ep], path);
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
	if (store_s.conf.cacert != NULL)
		curl_easy_setopt(h, CURLOPT_CAINFO, store_s.conf.cacert);
	if (store_s.conf.cert != NULL) {
		curl_easy_setopt(h, CURLOPT_SSLCERT, store_s.conf.cert);
		curl_easy_setopt(h, CURLOPT_SSLKEY, store_s.conf.key);
	}
	*hdrs = curl_slist_append(NULL, "Content-Type: application/json");
	pthread_mutex_lock(&store_s.lock);
	if (store_s.token[0] != '\0') {
		snprintf(auth, sizeof(auth), "Authorization: %s", store_s.token);
		*hdrs = curl_slist_append(*hdrs, auth);
	}
	pthread_mutex_unlock(&store_s.lock);
	curl_easy_setopt(h, CURLOPT_HTTPHEADER, *hdrs);
	return h;
}

static int call_once(unsigned int ep, const char *path, const char *body,
		     struct fcr_etcd_reply *r, long ms);

/* One request and its whole reply, parsed, within ms. 0, or -1 and r->error.
 * A token refused (it expired: etcd's --auth-token-ttl; or is another
 * member's: etcd's simple tokens are a member's own): a new one, once. */
int
store_call_for(unsigned int ep, const char *path, const char *body, struct fcr_etcd_reply *r,
	       long ms)
{
	int rc = call_once(ep, path, body, r, ms);

	if (rc < 0 && store_s.user[0] != '\0' && strstr(r->error, "invalid auth token") != NULL &&
	    store_authenticate(ep) == 0) {
		fcr_etcd_reply_free(r);
		rc = call_once(ep, path, body, r, ms);
	}
	return rc;
}

static int
call_once(unsigned int ep, const char *path, const char *body, struct fcr_etcd_reply *r,
	  long ms)
{
	struct curl_slist *hdrs = NULL;
	struct buf b = { 0 };
	char errbuf[CURL_ERROR_SIZE], why[CURL_ERROR_SIZE + 64];
	CURL *h = store_request(ep, path, body, &hdrs, errbuf);
	CURLcode cc;
	int rc = -1;

	memset(r, 0, sizeof(*r));
	if (h == NULL || body == NULL) {
		snprintf(r->error, sizeof(r->error), "out of memory");
		goto out;
	}
	curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, ms);
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, store_on_data);
	curl_easy_setopt(h, CURLOPT_WRITEDATA, &b);
	cc = curl_easy_perform(h);
	if (cc != CURLE_OK) {
		snprintf(r->error, sizeof(r->error), "%.60s:%u: %.120s", store_s.url.host[ep],
			 store_s.url.port[ep], store_curl_why(cc, errbuf, why, sizeof(why)));
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

int
store_call(unsigned int ep, const char *path, const char *body, struct fcr_etcd_reply *r)
{
	return store_call_for(ep, path, body, r, REQUEST_TIMEOUT_MS);
}

/* The store's answers that another try may not get: no leader yet. */
int
store_transient(const char *error)
{
	return strstr(error, "timed out") != NULL || strstr(error, "leader") != NULL ||
	       strstr(error, "too many requests") != NULL;
}

/* With a user: a token from the member, for every request after. */
int
store_authenticate(unsigned int ep)
{
	struct fcr_etcd_reply r;
	char *body;
	int rc;

	if (store_s.user[0] == '\0')
		return 0;
	pthread_mutex_lock(&store_s.lock);
	store_s.token[0] = '\0';
	pthread_mutex_unlock(&store_s.lock);
	body = fcr_etcd_auth_req(store_s.user, store_s.password);
	rc = call_once(ep, "/v3/auth/authenticate", body, &r, REQUEST_TIMEOUT_MS);
	free(body);
	if (rc == 0 && r.token == NULL) {
		snprintf(r.error, sizeof(r.error), "no token in the reply");
		rc = -1;
	}
	if (rc < 0)
		store_set_error("authenticate as %s: %s", store_s.user, r.error);
	else {
		pthread_mutex_lock(&store_s.lock);
		snprintf(store_s.token, sizeof(store_s.token), "%s", r.token);
		pthread_mutex_unlock(&store_s.lock);
	}
	fcr_etcd_reply_free(&r);
	return rc;
}

void
store_pause_ms(unsigned int ms)
{
	while (ms > 0 && !store_s.quit) {
		unsigned int step = ms < 50 ? ms : 50;

		usleep(step * 1000);
		ms -= step;
	}
}

/* Member failover: the member ep failed (last_error says how); the next
 * one in turn, after backoff ms. */
void
store_fail_over(unsigned int ep, unsigned int backoff)
{
	unsigned int next = store_s.conf.stall_ms > 0 ? store_live_next(ep)
						     : (ep + 1) % store_s.url.nb_endpoints;

	pthread_mutex_lock(&store_s.lock);
	store_s.endpoint = next;
	store_s.st.reconnects++;
	pthread_mutex_unlock(&store_s.lock);
	FCR_LOG(WARNING, store, "%s (next: %s:%u in %u ms)", store_s.st.last_error,
		store_s.url.host[next], store_s.url.port[next], backoff);
	store_pause_ms(backoff);
}
