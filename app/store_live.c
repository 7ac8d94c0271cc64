/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The configuration store's liveness: a member the node watches must keep
 * proving it is current, or the node leaves it. Every half of
 * --config-store-stall-ms a thread of its own asks the watched member for a
 * linearizable read of one key, bounded by the other half. etcd answers one
 * only after the member confirmed with a quorum that it has applied
 * everything the cluster committed: a member that is paused, cut off from
 * the leader, or without one, does not answer in time, even though its TCP
 * connections (the watch's too) stay up. Then the node says it is not
 * current (show config store, the log, /fcr/store), asks the other members
 * the same, and moves its watch to the first that answers, from the
 * revision it applied: it catches up there. A member that failed its read
 * is passed over by the watch and by writes until it answers again.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "log.h"
#include "store_priv.h"

/* Member ep answered at revision rev: no longer passed over; the node is
 * current when its watch is up there. */
static void
confirmed(unsigned int ep, int64_t rev)
{
	int was, now;

	pthread_mutex_lock(&store_s.lock);
	was = store_s.st.current;
	store_s.member_failed[ep] = 0;
	now = store_s.st.current = store_s.st.connected && store_s.endpoint == ep;
	if (now) {
		store_s.st.confirmed_revision = rev;
		store_s.st.confirmed_at_ms = store_mono_ms();
	}
	if (rev > store_s.st.store_revision)
		store_s.st.store_revision = rev;
	pthread_mutex_unlock(&store_s.lock);
	if (now && !was)
		FCR_LOG(NOTICE, store, "current: %s:%u confirmed revision %" PRId64
			" (this node applied %" PRId64 ")", store_s.url.host[ep],
			store_s.url.port[ep], rev, store_s.st.applied_revision);
}

/* A linearizable read of one key on member ep within ms: 0 and its
 * revision, or -1 and why. A leadership change under way ("leader
 * changed") is asked again within the same bound. */
static int
ask(unsigned int ep, unsigned int ms, int64_t *rev, char *why, size_t len)
{
	struct fcr_etcd_reply r;
	char *body = fcr_etcd_range_req(store_s.url.prefix, NULL, 0, 1);
	uint64_t end = store_mono_ms() + ms;
	int rc = store_call_for(ep, "/v3/kv/range", body, &r, (long)ms);

	while (rc < 0 && strstr(r.error, "leader changed") != NULL &&
	       store_mono_ms() + 100 < end && !store_s.quit) {
		fcr_etcd_reply_free(&r);
		store_pause_ms(50);
		rc = store_call_for(ep, "/v3/kv/range", body, &r, (long)(end - store_mono_ms()));
	}
	free(body);
	if (rc == 0)
		*rev = r.revision;
	else
		snprintf(why, len, "%s", r.error);
	fcr_etcd_reply_free(&r);
	return rc;
}

/* The watched member did not answer: the node is not current; the other
 * members not known to fail are asked (the watch goes to the first that
 * answers: store_live_next), and the watch is ended at once (its socket
 * shut). Said once per member, not at every read it fails. */
static void
leave(unsigned int ep, unsigned int ms, const char *why)
{
	unsigned int i, n = store_s.url.nb_endpoints;
	int64_t rev;
	char other[FCR_CMD_MSG_LEN];
	int was_failed;

	pthread_mutex_lock(&store_s.lock);
	if (store_s.st.current) {
		store_s.st.current = 0;
		store_s.not_current_ms = store_mono_ms();
	}
	was_failed = store_s.member_failed[ep] != 0;
	store_s.member_failed[ep] = store_mono_ms();
	store_s.st.stalls += !was_failed;
	pthread_mutex_unlock(&store_s.lock);
	if (!was_failed) {
		store_set_error("%s:%u did not confirm it is current within %u ms (%s)",
				store_s.url.host[ep], store_s.url.port[ep], ms, why);
		FCR_LOG(WARNING, store, "not current: %s:%u did not confirm it is current "
			"within %u ms (%s); leaving it (forwarding goes on with revision %"
			PRId64 ")", store_s.url.host[ep], store_s.url.port[ep], ms, why,
			store_s.st.applied_revision);
	}
	for (i = 1; i < n && !store_s.quit; i++) {
		unsigned int o = (ep + i) % n;

		if (store_live_failed(o))
			continue; /* retry_failed asks it again */
		if (ask(o, ms, &rev, other, sizeof(other)) == 0)
			break;
		pthread_mutex_lock(&store_s.lock);
		store_s.member_failed[o] = store_mono_ms();
		pthread_mutex_unlock(&store_s.lock);
	}
	pthread_mutex_lock(&store_s.lock);
	if (store_s.endpoint == ep) {
		store_s.abandon = 1;
		if (store_s.watch_fd >= 0)
			shutdown(store_s.watch_fd, SHUT_RDWR);
	}
	pthread_mutex_unlock(&store_s.lock);
}

/* One member that failed its read, other than the watched one, asked
 * again (in turn): one that answers is no longer passed over. */
static void
retry_failed(unsigned int ep, unsigned int ms)
{
	static unsigned int next;
	unsigned int i, n = store_s.url.nb_endpoints;
	int64_t rev;
	char why[FCR_CMD_MSG_LEN];

	for (i = 0; i < n; i++) {
		unsigned int o = (next + i) % n;

		if (o == ep || !store_live_failed(o))
			continue;
		next = o + 1;
		if (ask(o, ms, &rev, why, sizeof(why)) == 0) {
			pthread_mutex_lock(&store_s.lock);
			store_s.member_failed[o] = 0;
			pthread_mutex_unlock(&store_s.lock);
		}
		return;
	}
}

void *
store_live_main(void *arg)
{
	unsigned int half = store_s.conf.stall_ms / 2;

	(void)arg;
	while (!store_s.quit) {
		uint64_t t0 = store_mono_ms(), spent;
		unsigned int ep;
		int loaded;
		int64_t rev;
		char why[FCR_CMD_MSG_LEN];

		pthread_mutex_lock(&store_s.lock);
		ep = store_s.endpoint;
		loaded = store_s.loaded;
		pthread_mutex_unlock(&store_s.lock);
		/* before the first whole read the store's thread says itself
		 * what is wrong; after it, the member it watches (or is opening
		 * a watch on) must answer */
		if (loaded) {
			if (ask(ep, half, &rev, why, sizeof(why)) == 0)
				confirmed(ep, rev);
			else if (!store_s.quit)
				leave(ep, half, why);
		}
		retry_failed(ep, half);
		spent = store_mono_ms() - t0;
		store_pause_ms(spent < half ? half - (unsigned int)spent : 0);
	}
	return NULL;
}

int
store_live_failed(unsigned int ep)
{
	int failed;

	pthread_mutex_lock(&store_s.lock);
	failed = store_s.member_failed[ep] != 0;
	pthread_mutex_unlock(&store_s.lock);
	return failed;
}

/* The member after ep, in order, that did not fail its last read. */
unsigned int
store_live_next(unsigned int ep)
{
	unsigned int i, n = store_s.url.nb_endpoints, next = (ep + 1) % n;

	pthread_mutex_lock(&store_s.lock);
	for (i = 1; i <= n; i++)
		if (store_s.member_failed[(ep + i) % n] == 0) {
			next = (ep + i) % n;
			break;
		}
	pthread_mutex_unlock(&store_s.lock);
	return next;
}
