/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Where the tables note their changes for replication. Each object keeps
 * its own pending flag (and version), and a change to an object that is
 * already pending costs nothing: the batch reads the object's state when it
 * is built, so only the last state of the window is sent. A deletion of an
 * object peers never heard of sends nothing either.
 */
#ifndef FCR_CHANGE_H
#define FCR_CHANGE_H

#include <stdint.h>
#include <string.h>

#include "fcr_key.h"

/* Per-object sync flags. */
#define FCR_SF_DIRTY 0x01 /* changed since last sent */
#define FCR_SF_KNOWN 0x02 /* peers have been sent it at least once */
#define FCR_SF_IDLE 0x04  /* flows: last reported as idle */

struct fcr_dirty_list {
	uint32_t *idx;
	uint32_t n;
	uint32_t cap;
	int overflow;   /* some dirty objects are not listed: scan for them */
};

struct fcr_change_log {
	int muted;                       /* applying a peer's update */
	/* by kind; a kind with a list of capacity 0 (routes: few, and
	 * their places move) is always scanned whole */
	struct fcr_dirty_list dirty[FCR_KIND_COUNT];
	struct fcr_key *tomb;            /* deletions still to send */
	uint32_t nb_tomb;
	uint32_t cap_tomb;
	uint64_t changes;                /* local changes noted */
	uint64_t coalesced;              /* changes to an object already pending */
	uint64_t cancelled;              /* created and deleted before being sent */
	uint64_t tomb_overflow;          /* deletions that found the list full */
};

/* Note a change to object idx of a kind; its flags byte is *flags. */
static inline void
fcr_change_mark(struct fcr_change_log *log, enum fcr_kind_id kind,
		uint8_t *flags, uint32_t idx)
{
	struct fcr_dirty_list *l;

	if (log == NULL || log->muted)
		return;
	log->changes++;
	if (*flags & FCR_SF_DIRTY) {
		log->coalesced++;
		return;
	}
	*flags |= FCR_SF_DIRTY;
	l = &log->dirty[kind];
	/* An object deleted while pending leaves a stale entry that the batch
	 * skips; when those fill the list the batch scans the table. */
	if (l->n == l->cap)
		l->overflow = 1;
	else
		l->idx[l->n++] = idx;
}

/* Note a deletion: a tombstone only if peers know the object. */
static inline void
fcr_change_deleted(struct fcr_change_log *log, uint8_t *flags,
		   const struct fcr_key *tomb)
{
	uint8_t f = *flags;

	*flags = 0;
	if (log == NULL || log->muted)
		return;
	log->changes++;
	if (!(f & FCR_SF_KNOWN)) {
		log->cancelled++;
		return;
	}
	if (log->nb_tomb == log->cap_tomb) {
		log->tomb_overflow++;
		return;
	}
	log->tomb[log->nb_tomb++] = *tomb;
}

int fcr_dirty_list_init(struct fcr_dirty_list *l, uint32_t cap, int socket);
void fcr_dirty_list_free(struct fcr_dirty_list *l);

#endif /* FCR_CHANGE_H */
