/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The configuration store's three parts, what they share: its state (one
 * object, store_s, defined in store.c) and what each part offers the
 * others. store.c: the public side (store.h); store_http.c: the transport
 * to the members; store_watch.c: the store's thread (read, watch, apply);
 * store_live.c: the liveness thread (is the watched member current?);
 * store_node.c: this node among the nodes of the store.
 */
#ifndef FCR_APP_STORE_PRIV_H
#define FCR_APP_STORE_PRIV_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <curl/curl.h>

#include "fcr_cmd.h"
#include "fcr_etcd.h"
#include "fcr_store.h"
#include "store.h"

/* A reply as it comes. */
struct buf {
	char *p;
	size_t len, cap;
};

struct store_state {
	int on;
	struct fcr_store_url url;
	struct fcr_store_conf conf;
	char user[128], password[128];
	char range_end[FCR_STORE_PREFIX_MAX];
	pthread_t thread;
	pthread_t live_thread;     /* liveness (store_live.c), with conf.stall_ms */
	pthread_t node_thread;     /* this node published (store_node.c) */
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
	/* liveness (store_live.c) */
	uint64_t member_failed[FCR_STORE_ENDPOINTS_MAX]; /* when its read failed; 0: it did not */
	uint64_t not_current_ms;   /* since when the node is not current */
	int watch_fd;              /* the watch's socket, -1 when none */
	int abandon;               /* the watch is to end: its member is left */
	/* the nodes of the store (store_live.c publishes this one's) */
	char node[FCR_STORE_NODE_NAME_MAX];
	char node_key[FCR_STORE_KEY_MAX];
	struct fcr_store_nodes nodes; /* as the watch says, this one included */
	int nodes_full;            /* a node was not listed: the table is full */
	int64_t config_rev;        /* the last revision that changed configuration */
	int64_t published;         /* the applied revision last published */
	int64_t lease;             /* the node key's lease; 0: none */
	pthread_cond_t wake;       /* the node's thread: config_rev moved */
};

extern struct store_state store_s;

/* store.c */
uint64_t store_mono_ms(void);
/* CLOCK_REALTIME ms from now, for pthread_cond_timedwait. */
struct timespec store_deadline(unsigned int ms);
/* The status's last error, now. */
void store_set_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* store_http.c */
/* libcurl's write callback: the data at the end of the struct buf arg. */
size_t store_on_data(char *d, size_t sz, size_t n, void *arg);
/* libcurl's own words for a failed transfer, into out. */
const char *store_curl_why(CURLcode cc, const char *errbuf, char *out, size_t len);
/* An easy handle for POST path to member ep with body; *hdrs to free;
 * errbuf (CURL_ERROR_SIZE) gets the reason of a failure. */
CURL *store_request(unsigned int ep, const char *path, const char *body,
		    struct curl_slist **hdrs, char *errbuf);
/* One request and its whole reply, parsed, within ms (store_call: the
 * usual time). 0, or -1 and r->error. */
int store_call_for(unsigned int ep, const char *path, const char *body,
		   struct fcr_etcd_reply *r, long ms);
int store_call(unsigned int ep, const char *path, const char *body, struct fcr_etcd_reply *r);
/* The store's answers that another try may not get: no leader yet. */
int store_transient(const char *error);
/* With a user: a token from member ep, for every request after. 0 or -1. */
int store_authenticate(unsigned int ep);
/* ms, or until the store stops. */
void store_pause_ms(unsigned int ms);
/* The member ep failed: the next one, after backoff ms. */
void store_fail_over(unsigned int ep, unsigned int backoff);

/* store_live.c */
/* The liveness thread: the watched member asked to prove it is current. */
void *store_live_main(void *arg);
/* The member after ep, in order, that did not fail its last read. */
unsigned int store_live_next(unsigned int ep);
/* Member ep failed its last read: the watch and writes pass it over. */
int store_live_failed(unsigned int ep);

/* store_node.c */
/* This node's name (given, or HOST:FILE-PREFIX) and key. 0, or -1 said on
 * stderr. */
int store_node_name(const char *given);
/* Its thread: the applied revision published, the lease kept alive. */
void *store_node_main(void *arg);
/* Its key deleted (the lease revoked): at a clean stop. */
void store_node_unpublish(void);
/* A write committed at rev and applied here: wait until every node
 * applied it, or ms, then say which have not. */
void store_node_acknowledged(int64_t rev, unsigned int ms, FILE *out);
/* The nodes' lines of `show config store`. */
void store_node_show(FILE *out);

/* store_watch.c */
/* The store's thread: read whole, watch, again after a compaction. */
void *store_main(void *arg);

#endif /* FCR_APP_STORE_PRIV_H */
