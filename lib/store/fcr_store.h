/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The configuration store's side of fcredirect that needs no network:
 * where `--config-store` points, the key an object has in the store, and
 * what a change the store's watch delivers asks of the tables (a record
 * that the kinds' own check and set then apply, as for a command).
 *
 * One key per object, under the prefix: "<kind>/<vlan>/<k1>/<k2>" with the
 * VLAN in decimal ("any": a route for every VLAN) and the kind's two key
 * words in hex (route: prefix FCID and bits; binding: WWPN and 0;
 * redirect: host and target WWPN). Its value: the object's add line, as
 * `save config` writes it.
 */
#ifndef FCR_STORE_H
#define FCR_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "fcr_cmd.h"
#include "fcr_etcd.h"
#include "fcr_key.h"
#include "fcr_rec.h"

struct fcr_kind;

#define FCR_STORE_ENDPOINTS_MAX 8
#define FCR_STORE_PREFIX_MAX 128
#define FCR_STORE_KEY_MAX (FCR_STORE_PREFIX_MAX + 64)

struct fcr_store_url {
	char host[FCR_STORE_ENDPOINTS_MAX][64];
	uint16_t port[FCR_STORE_ENDPOINTS_MAX];
	unsigned int nb_endpoints;
	char prefix[FCR_STORE_PREFIX_MAX]; /* begins and ends with '/' */
};

/* "etcd://HOST:PORT[,HOST:PORT...]/PREFIX" -> u. 0, or -1 and why. */
int fcr_store_url_parse(const char *s, struct fcr_store_url *u, char why[FCR_CMD_MSG_LEN]);

/* The store key of k (FCR_STORE_KEY_MAX bytes). */
void fcr_store_key(const char *prefix, const struct fcr_key *k, char *buf);
/* A store key back to the object's key: 0, or -1 (not one of ours). */
int fcr_store_key_parse(const char *prefix, const char *text, struct fcr_key *k);

/*
 * What a watch event asks: a PUT's value, a kind's add line, as its record;
 * a DELETE's key as the record of the object's deletion. 0, or -1 and why:
 * a key that names no object, a value the grammar refuses or that is no
 * add line, a value that names another object than its key.
 */
int fcr_store_event_rec(const struct fcr_cmd_def *defs, size_t nb_defs, const char *prefix,
			const struct fcr_etcd_event *e, struct fcr_rec *r,
			char why[FCR_CMD_MSG_LEN]);

/*
 * The mod revision of every object key the store holds, as this node last
 * read it: a write expects each key it changes to be still at that
 * revision (0: absent), so a change made elsewhere since is never lost.
 * Grows as it fills; one thread at a time.
 */
struct fcr_store_revs {
	struct fcr_store_rev {
		struct fcr_key key;
		int64_t rev;        /* 0: a free slot */
		uint64_t value;     /* fcr_store_value_hash of its value */
		uint8_t refused;    /* this node's tables refused its value */
	} *slot;
	size_t cap;                 /* a power of 2 */
	size_t count;
	/* keys of a fail-closed kind (fcr_kind.fail_closed: redirects) whose
	 * value was refused: while any, the node cannot steer a pair the
	 * fabric redirects, so it forwards nothing */
	size_t refused_closed;
	/* the kinds that say which are fail-closed; NULL: fcr_kinds */
	const struct fcr_kind *const *kinds;
};

/* 0, or -1 when out of memory. rev 0 removes the key. A new value is not
 * refused until fcr_store_revs_refuse says so. */
int fcr_store_revs_set(struct fcr_store_revs *m, const struct fcr_key *k, int64_t rev,
		       uint64_t value_hash);
/* The key's present value was refused here (a key not held: nothing). */
void fcr_store_revs_refuse(struct fcr_store_revs *m, const struct fcr_key *k);
/* The key's revision, 0 when absent; *value_hash its value's (may be NULL). */
int64_t fcr_store_revs_get(const struct fcr_store_revs *m, const struct fcr_key *k,
			   uint64_t *value_hash);
/* A value's hash (FNV-1a, 64 bits): a write of what the store holds is none. */
uint64_t fcr_store_value_hash(const char *value);
void fcr_store_revs_clear(struct fcr_store_revs *m);
void fcr_store_revs_free(struct fcr_store_revs *m);

/*
 * The nodes of a store: each publishes the revision it applied, under
 * PREFIX "node/" NAME, its value "applied REV", on a lease (a node that
 * stops drops out when its lease expires). A write answers once every
 * node listed has applied it.
 */
#define FCR_STORE_NODE_NAME_MAX 64
#define FCR_STORE_NODES_MAX 256

/* A node's name: 1..63 characters of [A-Za-z0-9._:-]. */
int fcr_store_node_name_valid(const char *name);
/* Its key (FCR_STORE_KEY_MAX bytes). */
void fcr_store_node_key(const char *prefix, const char *name, char *buf);
/* A node's key back to its name (FCR_STORE_NODE_NAME_MAX bytes): 0, or -1
 * when text is no node key of prefix. */
int fcr_store_node_key_parse(const char *prefix, const char *text, char *name);
/* "applied REV": 0 and *rev, or -1. */
int fcr_store_node_value_parse(const char *value, int64_t *rev);

struct fcr_store_nodes {
	struct fcr_store_node {
		char name[FCR_STORE_NODE_NAME_MAX];
		int64_t applied;
	} n[FCR_STORE_NODES_MAX];
	unsigned int count;
};

/* The node's applied revision set (added when new): 0, or -1 when full. */
int fcr_store_nodes_set(struct fcr_store_nodes *t, const char *name, int64_t applied);
void fcr_store_nodes_del(struct fcr_store_nodes *t, const char *name);
/* How many have not applied rev. */
unsigned int fcr_store_nodes_behind(const struct fcr_store_nodes *t, int64_t rev);

#endif /* FCR_STORE_H */
