/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * This node among the nodes of a store: its name, the revision it applied
 * published under PREFIX node/NAME on a lease it keeps alive (a thread of
 * its own, woken each time configuration changed here), the list of nodes
 * the watch keeps (store_watch.c), a write's wait until every node listed
 * applied it, and their lines in `show config store`. A node that stops
 * drops out of the list: at once when it stops cleanly (its lease
 * revoked), when its lease expires otherwise.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_eal.h>

#include "store_priv.h"

/* This node's name in the store: given, or HOST:FILE-PREFIX (characters a
 * name does not take become '-'). 0, or -1 said on stderr. */
int
store_node_name(const char *given)
{
	char host[64] = "node";
	const char *rd = rte_eal_get_runtime_dir(), *slash = strrchr(rd, '/');
	size_t i;

	if (given != NULL) {
		if (!fcr_store_node_name_valid(given)) {
			fprintf(stderr, "error: --config-store-node %s: 1 to %d characters of "
				"A-Z a-z 0-9 . _ : -\n", given, FCR_STORE_NODE_NAME_MAX - 1);
			return -1;
		}
		snprintf(store_s.node, sizeof(store_s.node), "%s", given);
	} else {
		gethostname(host, sizeof(host) - 1);
		snprintf(store_s.node, sizeof(store_s.node), "%.31s:%.31s", host,
			 slash != NULL ? slash + 1 : rd);
		for (i = 0; store_s.node[i] != '\0'; i++)
			if (strchr("._:-", store_s.node[i]) == NULL &&
			    !isalnum((unsigned char)store_s.node[i]))
				store_s.node[i] = '-';
	}
	fcr_store_node_key(store_s.url.prefix, store_s.node, store_s.node_key);
	return 0;
}


#define LEASE_TTL_S 10        /* a node that stops drops out after this */
#define KEEPALIVE_MS 3000
#define PUBLISH_MS 2000       /* a request's bound */

/* One request on the watched member; a reply the caller frees. */
static int
call(const char *path, char *body, struct fcr_etcd_reply *r)
{
	unsigned int ep;
	int rc;

	pthread_mutex_lock(&store_s.lock);
	ep = store_s.endpoint;
	pthread_mutex_unlock(&store_s.lock);
	rc = store_call_for(ep, path, body, r, PUBLISH_MS);
	free(body);
	return rc;
}

/* The lease kept alive (a new one when it expired: the key went with it,
 * so it is published again), and the applied revision published when
 * configuration changed since it last was. Failures: tried again at the
 * next turn. Returns the configuration revision it saw. */
static int64_t
publish(void)
{
	static uint64_t kept_ms;
	struct fcr_etcd_reply r;
	char value[48];
	int64_t lease, rev, config, published;
	int loaded;

	pthread_mutex_lock(&store_s.lock);
	loaded = store_s.loaded;
	lease = store_s.lease;
	rev = store_s.st.applied_revision;
	config = store_s.config_rev;
	published = store_s.published;
	pthread_mutex_unlock(&store_s.lock);
	if (!loaded)
		return config;
	if (lease != 0 && store_mono_ms() - kept_ms >= KEEPALIVE_MS) {
		int rc = call("/v3/lease/keepalive", fcr_etcd_lease_req(lease), &r);

		if (rc == 0 && r.ttl > 0)
			kept_ms = store_mono_ms();
		else if (rc == 0 || strstr(r.error, "lease not found") != NULL)
			lease = 0; /* expired: a new lease, the key again */
		fcr_etcd_reply_free(&r);
	}
	if (lease == 0) {
		if (call("/v3/lease/grant", fcr_etcd_lease_grant_req(LEASE_TTL_S), &r) == 0 &&
		    r.lease_id != 0) {
			lease = r.lease_id;
			kept_ms = store_mono_ms();
			published = 0;
		}
		fcr_etcd_reply_free(&r);
		pthread_mutex_lock(&store_s.lock);
		store_s.lease = lease;
		store_s.published = published;
		pthread_mutex_unlock(&store_s.lock);
		if (lease == 0)
			return config;
	}
	if (published != 0 && config <= published)
		return config;
	snprintf(value, sizeof(value), "applied %" PRId64, rev);
	if (call("/v3/kv/put", fcr_etcd_put_req(store_s.node_key, value, lease), &r) == 0) {
		pthread_mutex_lock(&store_s.lock);
		if (rev > store_s.published)
			store_s.published = rev;
		pthread_mutex_unlock(&store_s.lock);
	} else if (strstr(r.error, "lease not found") != NULL) {
		pthread_mutex_lock(&store_s.lock);
		store_s.lease = 0;
		pthread_mutex_unlock(&store_s.lock);
	}
	fcr_etcd_reply_free(&r);
	return config;
}

void
store_node_unpublish(void)
{
	struct fcr_etcd_reply r;

	if (store_s.lease == 0)
		return;
	call("/v3/lease/revoke", fcr_etcd_lease_req(store_s.lease), &r);
	fcr_etcd_reply_free(&r);
	store_s.lease = 0;
}

void *
store_node_main(void *arg)
{
	(void)arg;
	while (!store_s.quit) {
		int64_t seen = publish();
		struct timespec ts = store_deadline(1000);

		/* until configuration is applied here since, or the next turn
		 * (the lease kept alive, a failed publication tried again) */
		pthread_mutex_lock(&store_s.lock);
		if (!store_s.quit && store_s.config_rev == seen)
			pthread_cond_timedwait(&store_s.wake, &store_s.lock, &ts);
		pthread_mutex_unlock(&store_s.lock);
	}
	return NULL;
}

/*
 * A write committed at rev and applied here: it answers once every node
 * of the store (those whose keys are listed under PREFIX node/, this one
 * included) has applied it, or after ms names those that have not. What
 * makes "committed" mean "enforced" across the fabric.
 */
void
store_node_acknowledged(int64_t rev, unsigned int ms, FILE *out)
{
	struct timespec ts = store_deadline(ms);
	unsigned int i, behind;

	pthread_mutex_lock(&store_s.lock);
	while ((behind = fcr_store_nodes_behind(&store_s.nodes, rev)) > 0 &&
	       pthread_cond_timedwait(&store_s.applied, &store_s.lock, &ts) != ETIMEDOUT)
		;
	behind = fcr_store_nodes_behind(&store_s.nodes, rev);
	if (behind == 0) {
		fprintf(out, "applied on every node of the store (%u) at revision %" PRId64 "\n",
			store_s.nodes.count, rev);
	} else {
		fprintf(out, "warning: committed to the store at revision %" PRId64 " and applied "
			"here, but after %.1f s not on %u of the %u nodes:", rev, ms / 1000.0,
			behind, store_s.nodes.count);
		for (i = 0; i < store_s.nodes.count; i++)
			if (store_s.nodes.n[i].applied < rev)
				fprintf(out, " %s (applied %" PRId64 ")", store_s.nodes.n[i].name,
					store_s.nodes.n[i].applied);
		fprintf(out, "\n");
	}
	pthread_mutex_unlock(&store_s.lock);
}

static int
by_name(const void *a, const void *b)
{
	return strcmp(((const struct fcr_store_node *)a)->name,
		      ((const struct fcr_store_node *)b)->name);
}

/* The nodes of the store and the revision each applied, by name; behind:
 * before the last change of configuration this node applied. */
void
store_node_show(FILE *out)
{
	struct fcr_store_nodes *t = malloc(sizeof(*t));
	int64_t config;
	unsigned int i;
	int full;

	if (t == NULL)
		return;
	pthread_mutex_lock(&store_s.lock);
	*t = store_s.nodes;
	full = store_s.nodes_full;
	config = store_s.config_rev;
	pthread_mutex_unlock(&store_s.lock);
	qsort(t->n, t->count, sizeof(t->n[0]), by_name);
	fprintf(out, "  nodes:             %u (this one: %s)%s\n", t->count, store_s.node,
		full ? "; more than the " RTE_STR(FCR_STORE_NODES_MAX) " listed here" : "");
	for (i = 0; i < t->count; i++) {
		fprintf(out, "    %-40s applied %" PRId64, t->n[i].name, t->n[i].applied);
		if (t->n[i].applied < config)
			fprintf(out, " (behind: configuration changed at %" PRId64 ")", config);
		fprintf(out, "\n");
	}
	free(t);
}

