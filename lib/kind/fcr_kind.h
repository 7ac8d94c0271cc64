/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the generic code needs to know of each kind of object the tables
 * hold (route, binding, redirect, flow): one operations table per kind, in
 * its own file (fcr_kind_<name>.c), one row per kind in fcr_kinds.c. The
 * replication engine (lib/sync/fcr_sync.c) loops over these and knows no
 * kind by name. Adding a kind: its file, its id in fcr_key.h, its row.
 */
#ifndef FCR_KIND_H
#define FCR_KIND_H

#include <stddef.h>
#include <stdint.h>

#include "fcr_cmd.h"
#include "fcr_change.h"
#include "fcr_key.h"
#include "fcr_rec.h"

struct fcr_tables;

/* When a record is made: flows turn their timestamps into ages. */
struct fcr_rec_ctx {
	uint64_t now_ms;
	uint64_t now_tsc;
	uint64_t tsc_hz;
};

/* A tick of the sync engine, for a kind's refresh. */
struct fcr_refresh_ctx {
	struct fcr_change_log *log;
	uint64_t now_tsc;
	uint64_t tsc_hz;
	uint32_t idle_ms;    /* a flow with no frame this long is idle */
	uint32_t period_ms;  /* every object visited once in this period */
};

/* An object's replication state, wherever its kind keeps it. */
struct fcr_sync_meta {
	uint64_t *version;
	uint8_t *sflags;   /* FCR_SF_* (fcr_change.h) */
};

enum fcr_apply_result {
	FCR_APPLY_DONE,
	FCR_APPLY_STALE,    /* the object holds a newer version, or a local change */
	FCR_APPLY_REFUSED,  /* a table is full */
};

/* What a kind's command does (fcr_cmd_def.op of its commands). */
enum fcr_op { FCR_OP_ADD, FCR_OP_DEL, FCR_OP_LIST };

/* A row of kind self's commands, in its file. The program gives the rows
 * their handler (app/config_cmds.c): the same for every kind. */
#define FCR_KIND_ROW(self, op_, form_, syntax_, help_, flags_) \
	{ .syntax = (syntax_), .help = (help_), .section = FCR_SEC_CONFIG, \
	  .flags = (flags_), .kind = &(self), .op = (op_), .form = (form_) }

/* One field of an object as users read it: in its `list` line, in the
 * `add` line `save config` writes, in telemetry. */
#define FCR_FIELD_BARE 0x01   /* in text, the value alone ("fpma", "static") */
#define FCR_FIELD_CONFIG 0x02 /* an argument of the kind's add command */
#define FCR_FIELD_NUM 0x04    /* a number (telemetry) */
#define FCR_FIELD_TEXT 0x08   /* in text only */
#define FCR_FIELD_DATA 0x10   /* in telemetry only (a text form says it in words) */
#define FCR_FIELDS_MAX 20
#define FCR_FIELDS_NAMES UINT32_MAX
#define FCR_FIELD_LEN 48

struct fcr_field {
	const char *name;
	uint8_t flags;
	uint8_t width;               /* its column in a table (show flows) */
	uint64_t num;                /* FCR_FIELD_NUM */
	char value[FCR_FIELD_LEN];   /* otherwise */
};

struct fcr_kind {
	const char *name;   /* its word in commands, logs and telemetry */
	uint8_t rec_type;  /* its record's type on the wire; rec_type + 1: a deletion */
	/* a flush leaves a record that a peer's bulk resync has still to
	 * reach to that resync (flows: the many, so not sent twice) */
	uint8_t paced;
	/* a record of it the tables refuse stops forwarding (a redirect: its
	 * pair must never go plain) */
	uint8_t fail_closed;

	/* Replication. Objects are walked by slot, 0 .. slots() - 1. */
	int (*key_valid)(const struct fcr_key *k);
	/* body of r (live or deletion) into b, at most FCR_REC_MAX_BODY
	 * bytes; returns its length */
	size_t (*put)(uint8_t *b, const struct fcr_rec *r);
	/* body [off, end) into r (type set); 0, or -1 when malformed */
	int (*get)(const uint8_t *p, size_t off, size_t end, struct fcr_rec *r);
	uint32_t (*slots)(const struct fcr_tables *t);
	/* 1 when slot idx holds an object (a record to send), 0 when not;
	 * *m is the slot's replication state either way */
	int (*slot)(struct fcr_tables *t, uint32_t idx, struct fcr_sync_meta *m);
	void (*rec)(struct fcr_tables *t, uint32_t idx, const struct fcr_rec_ctx *c,
		    struct fcr_rec *r);
	/* the slot of the object k names, or -1 */
	int (*find)(struct fcr_tables *t, const struct fcr_key *k);
	/* a peer's record (live or deletion), not older than a deletion this
	 * node knows of */
	enum fcr_apply_result (*apply)(struct fcr_tables *t, const struct fcr_rec *r,
				       const struct fcr_rec_ctx *c);

	/* Changes of its own as time passes, noted for replication (flows:
	 * idle or not, new counters), once per tick of the sync engine, with
	 * refresh_size bytes of state of the engine's (zeroed at first). */
	void (*refresh)(struct fcr_tables *t, void *state, const struct fcr_refresh_ctx *c);
	size_t refresh_size;

	/* Configuration: kinds an operator adds and deletes (NULL: none). */
	const struct fcr_cmd_def *cmds;
	unsigned int nb_cmds;
	/* the object a parsed add or del command names (a deletion record
	 * for del) */
	void (*cmd_rec)(const struct fcr_cmd *c, struct fcr_rec *r);
	/* 0, or -1 and why the object cannot be here (a port that does not
	 * exist, ...): the same check for a command and for a peer's record */
	int (*check)(const struct fcr_tables *t, const struct fcr_rec *r,
		     char why[FCR_CMD_MSG_LEN]);
	/* make the object what r says, or delete it: 0 or -errno */
	int (*set)(struct fcr_tables *t, const struct fcr_rec *r);
	/* why set refused r with rc when that depends on what the tables hold
	 * then (a redirect naming a cluster with no member yet: check() cannot
	 * say it, a file's lines being checked before any is applied); 1 and
	 * why, or 0: the errno says it. NULL: never. */
	int (*refused)(const struct fcr_tables *t, const struct fcr_rec *r, int rc,
		       char why[FCR_CMD_MSG_LEN]);
	/* 1 and *other: the record, as it is now, of another object that
	 * setting r changes on the way (a binding given an FCID that another
	 * WWPN holds takes it from that one); 0 when none. NULL: never. An
	 * all-or-nothing load takes both back. */
	int (*displaces)(struct fcr_tables *t, const struct fcr_rec *r, struct fcr_rec *other);

	/* Display: an object's fields (their number); *config: whether
	 * `save config` writes it. idx FCR_FIELDS_NAMES: the names alone, for
	 * a table's header. */
	int (*fields)(struct fcr_tables *t, uint32_t idx, struct fcr_field *f, int *config);
	/* the summary under a list: first the count, then the kind's own */
	int (*counts)(const struct fcr_tables *t, struct fcr_field *f);
};

extern const struct fcr_kind *const fcr_kinds[FCR_KIND_COUNT];

/* Every kind's command rows, in the kinds' order, into defs (at most
 * cap; their handlers the program's): how many there are. */
size_t fcr_kind_cmds(struct fcr_cmd_def *defs, size_t cap);

/* The kind of a record type (live or deletion), or NULL. */
const struct fcr_kind *fcr_kind_of_rec(uint8_t type);

/* Whether r is what operators configure (a route, a redirect, a static
 * binding, or the deletion of a route or redirect): with a configuration
 * store, the store carries these, not replication. */
int fcr_rec_is_config(const struct fcr_rec *r);

/* Whether refusing the object k names stops forwarding (its kind's
 * fail_closed), by the kinds of table `kinds` (fcr_kinds). */
static inline int
fcr_key_fail_closed(const struct fcr_kind *const *kinds, const struct fcr_key *k)
{
	return k->kind < FCR_KIND_COUNT && kinds[k->kind]->fail_closed;
}

static inline int
fcr_rec_is_del(const struct fcr_kind *k, const struct fcr_rec *r)
{
	return r->type != k->rec_type;
}

/* A key with a VLAN a frame can carry (keys keep 12 bits of it). */
static inline int
fcr_key_vlan_valid(const struct fcr_key *k)
{
	return k->vlan <= 0x0FFF;
}

/*
 * A peer's record applied the way configuration is (routes, redirects):
 * stale against the object's version, else deleted, or checked and set as
 * a command would be, the object then holding the record's version.
 */
enum fcr_apply_result fcr_kind_apply_config(const struct fcr_kind *k, struct fcr_tables *t,
					    const struct fcr_rec *r);

/* A peer's record loses to the version an object holds, and to a change
 * made here and not sent yet. That change must then go out above the
 * record it beat (the flush versions it above what the object holds),
 * or each node would keep its own: the record's version is held for it. */
static inline int
fcr_rec_stale(const struct fcr_sync_meta *m, uint64_t version)
{
	if (version <= *m->version)
		return 1;
	if (!(*m->sflags & FCR_SF_DIRTY))
		return 0;
	*m->version = version;
	return 1;
}

/* Reading a record body [o, end) of p: return -1 from the caller when it
 * is too short. */
#define FCR_BODY_NEED(o, n, end) \
	do { if ((o) + (n) > (end)) return -1; } while (0)
#define FCR_BODY_VARINT(p, o, end, v) \
	do { if (fcr_varint_get((p), (end), &(o), &(v)) < 0) return -1; } while (0)

#endif /* FCR_KIND_H */
