/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The configuration store (--config-store etcd://...): what operators
 * configure lives in etcd, one key per object (lib/store/fcr_store.h), and
 * every node applies what the store's watch delivers. A thread of its own
 * reads the store whole, then watches it from the revision it applied,
 * across the store's members with back-off, and reads it whole again after
 * a compaction. The command line writes configuration to the store in one
 * transaction that fails when an object it changes moved since this node
 * read it, then waits for its own watch to apply it.
 */
#ifndef FCR_APP_STORE_H
#define FCR_APP_STORE_H

#include <stdint.h>
#include <stdio.h>

#include "fcr_cmd.h"

struct fcr_store_conf {
	const char *url;      /* etcd://HOST:PORT[,HOST:PORT...]/PREFIX; NULL: none */
	const char *cacert;   /* TLS: the CA that signed the members' certificates */
	const char *cert;     /* TLS: this node's client certificate and key */
	const char *key;
	const char *user;     /* USER:PASSWORD, etcd's authentication */
	unsigned int stall_ms; /* a watched member that does not prove it is
				* current within this is left; 0: not asked */
	const char *node;     /* this node's name in the store; NULL: host:file-prefix */
};

/* What `show config store` and /fcr/store report. */
struct fcr_store_status {
	int connected;             /* the watch is up */
	int current;               /* its member proved it is current (below) */
	int64_t confirmed_revision; /* the revision it confirmed last */
	uint64_t confirmed_at_ms;  /* when (monotonic ms) */
	uint64_t not_current_for_ms; /* how long the node has not been current */
	uint64_t stalls;           /* members left for not proving it in time */
	unsigned int nodes;        /* nodes of the store (PREFIX node/), this one too */
	unsigned int nodes_behind; /* those before the last change applied here */
	char endpoint[80];         /* the member it talks to (or last tried) */
	uint64_t member_id;
	int64_t applied_revision;  /* the store's revision the tables hold */
	uint64_t applied_at_ms;    /* when it was applied (Unix time, ms) */
	int64_t store_revision;    /* the newest revision heard of */
	uint64_t objects;          /* keys under the prefix */
	uint64_t refused;          /* records the tables refused (each logged) */
	uint64_t refused_redirects; /* redirect keys refused now: while any,
				     * the node forwards nothing (fail closed) */
	uint64_t full_reads;       /* the store read whole: at start, after compaction */
	uint64_t reconnects;
	uint64_t writes;           /* transactions committed from this node */
	uint64_t conflicts;        /* writes refused: an object moved since read */
	char last_error[192];
	uint64_t last_error_age_s;
};

/* Parse the options and start the store's thread. 0, or -1 said on stderr. */
int fcr_store_start(const struct fcr_store_conf *c);
int fcr_store_enabled(void);
/* Wait until the store has been read whole and applied once (forwarding
 * must not start on a configuration without its redirects): 0, or -1 when
 * *quit became set first. */
int fcr_store_wait_loaded(volatile int *quit);
/* The kinds' commands cmds[0..n) as one transaction, then wait until this
 * node applied it. 0, or -1 with the reason on out. */
int fcr_store_write(const struct fcr_cmd *cmds, unsigned int n, FILE *out);
void fcr_store_get_status(struct fcr_store_status *s);
void fcr_store_show(FILE *out);
void fcr_store_stop(void);

#endif /* FCR_APP_STORE_H */
