/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * etcd v3's messages as its JSON gateway speaks them (POST /v3/kv/range,
 * /v3/kv/txn, /v3/kv/put, /v3/watch, /v3/auth/authenticate, /v3/lease/grant,
 * /v3/lease/keepalive, /v3/lease/revoke): requests built, replies
 * read. No I/O: app/store.c carries them over HTTP. Keys and values are
 * base64 on the wire and plain bytes here; 64-bit numbers come as strings
 * or numbers; fields at their zero value are left out by the gateway (a
 * PUT event has no "type", a failed txn no "succeeded").
 */
#ifndef FCR_ETCD_H
#define FCR_ETCD_H

#include <stddef.h>
#include <stdint.h>

struct fcr_etcd_kv {
	char *key;          /* NUL-terminated (keys and values here are text) */
	char *value;
	int64_t create_rev;
	int64_t mod_rev;
};

struct fcr_etcd_event {
	int del;            /* a DELETE; else a PUT */
	struct fcr_etcd_kv kv;
};

/* What a reply says; parse into one zeroed, free with fcr_etcd_reply_free. */
struct fcr_etcd_reply {
	int64_t revision;       /* header.revision: the store's when it answered */
	uint64_t member_id;     /* header.member_id: who answered */
	/* range, or a txn's failure branch: the keys as they are now */
	struct fcr_etcd_kv *kvs;
	size_t nb_kvs;
	int more;               /* range: a limit left keys out */
	int succeeded;          /* txn: every compare held, the writes are in */
	/* watch */
	int created;
	int canceled;
	int64_t compact_revision; /* canceled: the start revision is compacted */
	struct fcr_etcd_event *events;
	size_t nb_events;
	char *token;            /* authenticate */
	int64_t lease_id;       /* lease grant and keep-alive: the lease's ID */
	int64_t ttl;            /* its time to live left, s (0: it expired) */
	char error[192];        /* the store's error, when it sent one */
};

/* One write of a transaction: value NULL deletes. expect_mod_rev: the
 * key's mod revision the writer read (0: the writer read no key). */
struct fcr_etcd_op {
	const char *key;
	const char *value;
	int64_t expect_mod_rev;
};

/* The end of a prefix's range (the prefix with its last byte + 1), into
 * end (strlen(prefix) + 1 bytes). */
void fcr_etcd_prefix_end(const char *prefix, char *end);

/* Requests (malloc'd JSON text, NULL when out of memory). */
char *fcr_etcd_range_req(const char *key, const char *range_end, int64_t revision,
			 int64_t limit);
/* Every write if each key is still as read, else nothing and each key's
 * present value (the reply's kvs). */
char *fcr_etcd_txn_req(const struct fcr_etcd_op *ops, size_t n);
char *fcr_etcd_watch_req(const char *key, const char *range_end, int64_t start_revision);
char *fcr_etcd_auth_req(const char *user, const char *password);
/* A put of key under a lease (0: none). */
char *fcr_etcd_put_req(const char *key, const char *value, int64_t lease_id);
/* A lease: granted for ttl s, kept alive, revoked (its keys deleted). */
char *fcr_etcd_lease_grant_req(int64_t ttl);
char *fcr_etcd_lease_req(int64_t lease_id);

/* One reply (range, txn, authenticate) of len bytes: 0, or -1 with
 * r->error saying why (the store's error, or what is malformed). */
int fcr_etcd_parse(const char *json, size_t len, struct fcr_etcd_reply *r);
/* The first message of a watch stream's buf: 1 and *used its bytes, 0 when
 * buf does not hold a whole one yet, -1 with r->error when malformed. */
int fcr_etcd_parse_stream(const char *buf, size_t len, size_t *used, struct fcr_etcd_reply *r);
void fcr_etcd_reply_free(struct fcr_etcd_reply *r);

#endif /* FCR_ETCD_H */
