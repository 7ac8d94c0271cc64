/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sodium.h>

#include <rte_common.h>
#include <rte_hash.h>
#include <rte_hash_crc.h>
#include <rte_malloc.h>

#include "fcr_change.h"
#include "fcr_kind.h"
#include "fcr_sync.h"
#include "fcr_tables.h"

#define MAX_RECS 128 /* per datagram: the smallest record is 11 bytes */

struct inflight {
	uint32_t seq;
	uint8_t type;
	uint8_t used;
	uint16_t nb;
	uint64_t sent_ms;
	struct fcr_rec rec[MAX_RECS];
};

enum { BULK_NONE, BULK_START, BULK_STREAM, BULK_END };
/* A bulk resync sends the deletion markers, then each kind in turn
 * (stage 1 + its id). */
#define STAGE_DEAD 0
#define STAGE_KIND(k) (1 + (k))
#define STAGE_DONE STAGE_KIND(FCR_KIND_COUNT)

struct peer {
	struct fcr_sync_addr addr;
	enum fcr_peer_state state;
	uint64_t boot;             /* the boot accepted, 0: none yet */
	uint64_t challenge;        /* ours for it to echo: never 0 */
	uint64_t echo;             /* its challenge for us, as last received */
	uint16_t node;
	uint8_t ready;
	uint8_t wants_bulk;
	uint64_t last_rx_ms;
	uint64_t last_tx_ms;
	/* what it sent us: replay window and what we acknowledge */
	uint32_t rx_high;
	uint64_t rx_seen;          /* bit i: seq rx_high - 1 - i seen */
	uint32_t ack_base;
	uint64_t ack_bits;
	int ack_due;
	/* what we send it */
	uint32_t tx_seq;
	struct inflight *inflight; /* [FCR_SYNC_INFLIGHT] */
	unsigned int nb_inflight;
	struct fcr_rec *resend;    /* objects to send again as they are now */
	uint32_t nb_resend;
	uint32_t cap_resend;
	/* bulk resync to it */
	int bulk;
	int bulk_stage;
	uint32_t bulk_pos;
	uint64_t bulk_done_boot;
	int hello_now;             /* greet at the next tick */
};

/*
 * Deletion markers: an object deleted here (or told deleted by a peer)
 * leaves its key and the deletion's version for a while, so an older update
 * that arrives late (reordered, or from a peer that was away) cannot bring
 * it back; a bulk resync sends them first. The most recent NB_DEAD are kept.
 */
#define NB_DEAD 65536

struct dead {
	struct fcr_key key;
	uint64_t version;
	uint8_t used;
};

struct fcr_sync {
	struct fcr_sync_params p;
	struct rte_hash *dead_hash;  /* fcr_key -> index in dead[] */
	struct dead *dead;           /* [NB_DEAD], a ring */
	uint32_t dead_pos;
	struct fcr_tables *t;
	struct fcr_change_log *log;
	struct fcr_sync_stats st;
	uint64_t clock;            /* hybrid logical clock, ms since 2024 */
	uint64_t clock_offset;     /* wall clock ms since 2024 minus now_ms */
	uint64_t now_ms;           /* of the current tick or input */
	uint64_t start_ms;
	uint64_t window_end_ms;
	uint64_t first_dirty_ms;   /* 0: nothing pending */
	int flush_unfinished;      /* a flush stopped at a full window */
	/* What the flush of the window that ended still owes: the entries
	 * listed when it ended (the first of each list; routes: a flag).
	 * Objects noted since wait for the next window, so an object changed
	 * again while a flush is paced out goes once per window, not once
	 * per change. */
	struct {
		uint32_t tomb;
		uint32_t dirty[FCR_KIND_COUNT];
	} due;
	int ready;
	void *refresh[FCR_KIND_COUNT]; /* each kind's refresh state, or NULL */
	unsigned int nb_peers;
	struct peer peer[FCR_SYNC_MAX_PEERS];
	/* the batch being built */
	uint8_t body[2048];
	size_t body_len;
	uint16_t nb_recs;
	struct fcr_rec recs[MAX_RECS];
	uint64_t rec_at[MAX_RECS];   /* where a bulk resync reads each (AT_ANY: not skipped) */
	/* the part of it for a peer whose bulk resync is under way */
	uint8_t part_body[2048];
	struct fcr_rec part_recs[MAX_RECS];
	uint8_t out[2048];
};

/* A record's place in a bulk resync's walk, (stage << 32) | index, or: */
#define AT_ANY UINT64_MAX /* sent to every peer whatever its resync */

/* --------------------------------------------------- deletion markers */

/* Version of the deletion of the object r names, or 0. */
static uint64_t
dead_version(const struct fcr_sync *s, const struct fcr_rec *r)
{
	void *data;

	if (rte_hash_lookup_data(s->dead_hash, &r->key, &data) < 0)
		return 0;
	return s->dead[(uintptr_t)data].version;
}

static void
dead_note(struct fcr_sync *s, const struct fcr_rec *r)
{
	const struct fcr_key *k = &r->key;
	struct dead *d;
	void *data;
	uint32_t i;

	if (rte_hash_lookup_data(s->dead_hash, k, &data) >= 0) {
		d = &s->dead[(uintptr_t)data];
		if (r->version > d->version)
			d->version = r->version;
		return;
	}
	i = s->dead_pos++ % NB_DEAD;
	d = &s->dead[i];
	if (d->used)
		rte_hash_del_key(s->dead_hash, &d->key); /* the oldest goes */
	d->key = *k;
	d->version = r->version;
	d->used = 1;
	rte_hash_add_key_data(s->dead_hash, k, (void *)(uintptr_t)i);
}

/* The deletion record of an object */
static void
del_rec(const struct fcr_key *k, uint64_t version, struct fcr_rec *r)
{
	memset(r, 0, sizeof(*r));
	r->type = (uint8_t)(fcr_kinds[k->kind]->rec_type + 1);
	r->key = *k;
	r->version = version;
}

/* --------------------------------------------------------- versions */

static uint64_t
next_version(struct fcr_sync *s, uint64_t held)
{
	/* A hybrid logical clock: milliseconds of the wall clock (since
	 * 2024), never behind what this node has seen, and above the version
	 * the object holds. It does not advance per record (a flush of a
	 * million objects would run it ahead of time, and a restarted node's
	 * changes would then lose to older ones): the objects of one flush
	 * share a millisecond, and an object is in a flush once. */
	uint64_t c = RTE_MAX(s->now_ms + s->clock_offset, s->clock);

	if (((c << 16) | s->p.node) <= held)
		c = (held >> 16) + 1;
	s->clock = c;
	return (c << 16) | s->p.node;
}

static void
see_version(struct fcr_sync *s, uint64_t v)
{
	if ((v >> 16) > s->clock)
		s->clock = v >> 16;
}

/* ------------------------------------------- objects <-> records */

static struct fcr_rec_ctx
rec_ctx(const struct fcr_sync *s, uint64_t now_ms, uint64_t now_tsc)
{
	return (struct fcr_rec_ctx){ .now_ms = now_ms, .now_tsc = now_tsc,
				     .tsc_hz = s->p.tsc_hz };
}

/* The current state of the object a record names: 1, or 0 when gone.
 * Deletions are sent as they are. */
static int
current_rec(struct fcr_sync *s, struct fcr_rec *r, uint64_t now_ms,
	    uint64_t now_tsc)
{
	const struct fcr_kind *k = fcr_kind_of_rec(r->type);
	struct fcr_rec_ctx c = rec_ctx(s, now_ms, now_tsc);
	int i;

	if (k == NULL || fcr_rec_is_del(k, r))
		return 1;
	i = k->find(s->t, &r->key);
	if (i < 0)
		return 0;
	k->rec(s->t, (uint32_t)i, &c, r);
	return 1;
}

/* ----------------------------------------------------------- sending */

static size_t
body_room(const struct fcr_sync *s)
{
	return s->p.mtu - FCR_SYNC_OVERHEAD;
}

static void
send_raw(struct fcr_sync *s, struct peer *pe, uint8_t type, const uint8_t *body,
	 size_t body_len, uint16_t nb, uint64_t now_ms)
{
	struct fcr_sync_hdr h = {
		.type = type,
		.flags = (s->ready ? FCR_SYNC_F_READY : 0) |
			 (s->ready ? 0 : FCR_SYNC_F_WANT_BULK),
		.node = s->p.node,
		.nb_records = nb,
		.boot = s->p.boot,
		.seq = ++pe->tx_seq,
		.ack_base = pe->ack_base,
		.ack_bits = pe->ack_bits,
		.peer_boot = pe->boot,
		.challenge = pe->challenge,
		.echo = pe->echo,
	};
	size_t len = fcr_sync_hdr_put(s->out, &h);

	if (body_len != 0) /* markers and keepalives have no body (NULL) */
		memcpy(s->out + len, body, body_len);
	len = fcr_sync_seal(s->out, len + body_len, s->p.key);
	s->p.send(s->p.send_ctx, &pe->addr, s->out, len);
	pe->last_tx_ms = now_ms;
	pe->ack_due = 0;
	s->st.datagrams_sent++;
	s->st.bytes_sent += len;
	s->st.records_sent += nb;
}

static void lose(struct fcr_sync *s, struct peer *pe, struct inflight *f);

/* A reliable datagram: remembered until acknowledged. */
static void
send_reliable(struct fcr_sync *s, struct peer *pe, uint8_t type,
	      const uint8_t *body, size_t body_len, const struct fcr_rec *recs,
	      uint16_t nb, uint64_t now_ms)
{
	struct inflight *f = NULL, *oldest = NULL;
	unsigned int i;

	for (i = 0; i < FCR_SYNC_INFLIGHT; i++) {
		if (!pe->inflight[i].used) {
			f = &pe->inflight[i];
			break;
		}
		if (oldest == NULL || pe->inflight[i].seq < oldest->seq)
			oldest = &pe->inflight[i];
	}
	if (f == NULL) {
		/* window full: give the oldest up as lost */
		lose(s, pe, oldest);
		f = oldest;
	}
	send_raw(s, pe, type, body, body_len, nb, now_ms);
	f->used = 1;
	f->seq = pe->tx_seq;
	f->type = type;
	f->sent_ms = now_ms;
	f->nb = nb;
	if (nb != 0)
		memcpy(f->rec, recs, sizeof(recs[0]) * nb);
	pe->nb_inflight++;
}

static void
batch_reset(struct fcr_sync *s)
{
	s->body_len = 0;
	s->nb_recs = 0;
}

/* Append a record to the batch; 0 when the batch is full. */
static int
batch_add(struct fcr_sync *s, const struct fcr_rec *r)
{
	size_t n;

	if (s->nb_recs == MAX_RECS)
		return 0;
	n = fcr_rec_put(s->body + s->body_len, body_room(s) - s->body_len, r);
	if (n == 0)
		return 0;
	s->body_len += n;
	s->rec_at[s->nb_recs] = AT_ANY;
	s->recs[s->nb_recs++] = *r;
	return 1;
}

static void
batch_send_to(struct fcr_sync *s, struct peer *pe, uint64_t now_ms)
{
	if (s->nb_recs > 0)
		send_reliable(s, pe, FCR_SYNC_UPDATE, s->body, s->body_len, s->recs,
			      s->nb_recs, now_ms);
}

/* Where pe's bulk resync has still to read: from this place of its walk
 * on (AT_ANY: no resync under way, or it has read everything). */
static uint64_t
bulk_unread_from(const struct peer *pe)
{
	switch (pe->bulk) {
	case BULK_START:
		return 0;
	case BULK_STREAM:
		return (uint64_t)pe->bulk_stage << 32 | pe->bulk_pos;
	default:
		return AT_ANY;
	}
}

/*
 * The batch to pe, less the objects its bulk resync has still to read: the
 * resync sends each as it is when it gets there, the update would only send
 * it twice (with the flows active during a resync, every change of a flow
 * it had not reached yet).
 */
static void
batch_send_part(struct fcr_sync *s, struct peer *pe, uint64_t from, uint64_t now_ms)
{
	size_t len = 0;
	uint16_t i, n = 0;

	for (i = 0; i < s->nb_recs; i++) {
		if (s->rec_at[i] != AT_ANY && s->rec_at[i] >= from)
			continue;
		/* a part of what fitted: it fits */
		len += fcr_rec_put(s->part_body + len, sizeof(s->part_body) - len,
				   &s->recs[i]);
		s->part_recs[n++] = s->recs[i];
	}
	if (n == s->nb_recs)
		batch_send_to(s, pe, now_ms);
	else if (n > 0)
		send_reliable(s, pe, FCR_SYNC_UPDATE, s->part_body, len, s->part_recs,
			      n, now_ms);
}

static void
batch_send_all(struct fcr_sync *s, uint64_t now_ms)
{
	unsigned int i;

	for (i = 0; i < s->nb_peers; i++) {
		struct peer *pe = &s->peer[i];
		uint64_t from = bulk_unread_from(pe);

		if (pe->state != FCR_PEER_UP)
			continue;
		if (from == AT_ANY)
			batch_send_to(s, pe, now_ms);
		else
			batch_send_part(s, pe, from, now_ms);
	}
	batch_reset(s);
}

/* Datagrams a flush may still send now: it never sends more than every
 * up peer's window has room for (a datagram does not count as lost because
 * the window filled), and what does not fit stays pending for the next tick. */
static unsigned int
flush_budget(const struct fcr_sync *s)
{
	unsigned int i, room = FCR_SYNC_INFLIGHT;

	for (i = 0; i < s->nb_peers; i++)
		if (s->peer[i].state == FCR_PEER_UP)
			room = RTE_MIN(room, FCR_SYNC_INFLIGHT - s->peer[i].nb_inflight);
	return room;
}

/* Put a record in the batch, sending the batch when full. 0, or -1 when
 * the budget is spent (the record is not taken). */
static int
take(struct fcr_sync *s, const struct fcr_rec *r, uint64_t at, unsigned int *budget,
     uint64_t now_ms)
{
	if (s->p.config_elsewhere && fcr_rec_is_config(r))
		return 0; /* the store's: every node has it from there */
	if (!batch_add(s, r)) {
		if (*budget <= 1)
			return -1; /* the last slot is for the final partial batch */
		batch_send_all(s, now_ms);
		(*budget)--;
		if (!batch_add(s, r))
			return -1;
	}
	s->rec_at[s->nb_recs - 1] = at;
	return 0;
}

static uint64_t
pending(const struct fcr_sync *s)
{
	const struct fcr_change_log *log = s->log;
	uint64_t n = log->nb_tomb;
	int k;

	/* an overflowed list (routes': always) counts one for the scan */
	for (k = 0; k < FCR_KIND_COUNT; k++)
		n += log->dirty[k].n + (uint64_t)(log->dirty[k].overflow != 0);
	return n;
}

/* Entries of a dirty list the flush goes over: those due, or the whole
 * table when some dirty objects are not listed. */
static uint32_t
list_lim(const struct fcr_dirty_list *l, uint32_t due, uint32_t capacity)
{
	return l->overflow ? capacity : RTE_MIN(l->n, due);
}

/*
 * The flush went over `done` of the `lim` entries of l: drop them, the
 * rest wait (those not reached, and those noted after the window ended).
 * Returns 1 when every entry due has gone.
 */
static int
list_advance(struct fcr_dirty_list *l, uint32_t *due, uint32_t done, uint32_t lim)
{
	if (l->overflow) {
		if (done < lim)
			return 0; /* rescanned whole next time */
		/* the scan saw every dirty object, listed or not */
		l->n = 0;
		l->overflow = 0;
		*due = 0;
		return 1;
	}
	if (done != 0 && done < l->n) /* an empty list may have no array */
		memmove(l->idx, l->idx + done, (l->n - done) * sizeof(l->idx[0]));
	l->n -= done;
	*due -= RTE_MIN(*due, done);
	return done == lim;
}

/* The window ended: its flush owes what is listed now. */
static void
due_at_window_end(struct fcr_sync *s)
{
	const struct fcr_change_log *log = s->log;

	int k;

	s->due.tomb = log->nb_tomb;
	for (k = 0; k < FCR_KIND_COUNT; k++)
		s->due.dirty[k] = log->dirty[k].n;
}

/* The objects of kind k the flush owes, each with its state as of now, as
 * far as the budget allows. 0 when every one went, else -1. */
static int
flush_kind(struct fcr_sync *s, int k, const struct fcr_rec_ctx *c, unsigned int *budget)
{
	const struct fcr_kind *kind = fcr_kinds[k];
	struct fcr_dirty_list *l = &s->log->dirty[k];
	uint32_t i, idx, lim = list_lim(l, s->due.dirty[k], kind->slots(s->t));
	struct fcr_sync_meta m;
	struct fcr_rec r;
	uint64_t v;

	for (i = 0; i < lim; i++) {
		idx = l->overflow ? i : l->idx[i];
		if (!kind->slot(s->t, idx, &m)) {
			*m.sflags &= (uint8_t)~FCR_SF_DIRTY; /* gone: its deletion went */
			continue;
		}
		if (!(*m.sflags & FCR_SF_DIRTY))
			continue;
		v = *m.version;
		*m.version = next_version(s, v);
		kind->rec(s->t, idx, c, &r);
		if (take(s, &r, kind->paced ? (uint64_t)STAGE_KIND(k) << 32 | idx : AT_ANY,
			 budget, c->now_ms) < 0) {
			*m.version = v;
			break;
		}
		*m.sflags = (uint8_t)((*m.sflags & ~FCR_SF_DIRTY) | FCR_SF_KNOWN);
	}
	return list_advance(l, &s->due.dirty[k], i, lim) ? 0 : -1;
}

/* What was pending when the window ended, each object with its state as of
 * now, as far as the peers' windows allow. Returns 1 when all of it went. */
static int
flush(struct fcr_sync *s, uint64_t now_ms, uint64_t now_tsc)
{
	struct fcr_rec_ctx c = rec_ctx(s, now_ms, now_tsc);
	struct fcr_change_log *log = s->log;
	unsigned int budget = flush_budget(s);
	struct fcr_rec r;
	uint32_t i, lim;
	uint64_t tomb_floor;
	int k;

	if (budget == 0)
		return 0;
	tomb_floor = s->clock;
	batch_reset(s);
	/* every deletion, also those noted since the window ended: a
	 * deletion has nothing to coalesce, and one sent after an object that
	 * was re-created since would outrank it at the peers */
	lim = log->nb_tomb;
	for (i = 0; i < lim; i++) {
		del_rec(&log->tomb[i], 0, &r);
		/* above whatever this node gave the object before, in this
		 * millisecond too */
		r.version = next_version(s, RTE_MAX(dead_version(s, &r),
						    (tomb_floor << 16) | 0xFFFF));
		if (take(s, &r, AT_ANY, &budget, now_ms) < 0)
			break;
		dead_note(s, &r);
	}
	memmove(log->tomb, log->tomb + i, (log->nb_tomb - i) * sizeof(log->tomb[0]));
	log->nb_tomb -= i;
	s->due.tomb -= RTE_MIN(s->due.tomb, i);
	/* what is created again in this flush outranks its deletion */
	if (i > 0)
		s->clock++;
	if (i < lim)
		goto out;
	for (k = 0; k < FCR_KIND_COUNT; k++)
		if (flush_kind(s, k, &c, &budget) < 0)
			goto out;
	batch_send_all(s, now_ms);
	/* what was noted since the window ended goes with the next one */
	s->first_dirty_ms = pending(s) > 0 ? now_ms : 0;
	return 1;
out:
	batch_send_all(s, now_ms);
	return 0;
}

/* Per peer: objects whose datagram was lost, sent again as they are now,
 * as far as its window allows; the rest wait for the next tick. */
static void
send_resends(struct fcr_sync *s, struct peer *pe, uint64_t now_ms,
	     uint64_t now_tsc)
{
	uint32_t i, n = pe->nb_resend;

	if (n == 0 || pe->state != FCR_PEER_UP)
		return;
	batch_reset(s);
	for (i = 0; i < n; i++) {
		struct fcr_rec r = pe->resend[i];

		if (!current_rec(s, &r, now_ms, now_tsc))
			continue; /* gone since: its deletion travels on its own */
		if (!batch_add(s, &r)) {
			if (pe->nb_inflight >= FCR_SYNC_INFLIGHT / 2)
				break; /* let acks catch up */
			batch_send_to(s, pe, now_ms);
			batch_reset(s);
			batch_add(s, &r);
		}
		s->st.retransmits++;
	}
	batch_send_to(s, pe, now_ms);
	batch_reset(s);
	/* sending may have started a resync (which empties the list) or
	 * added losses at its end: keep what was not sent and what came */
	if (pe->nb_resend >= n) {
		memmove(pe->resend, pe->resend + i, (pe->nb_resend - i) * sizeof(pe->resend[0]));
		pe->nb_resend -= i;
	}
}

static void
start_bulk(struct fcr_sync *s, struct peer *pe)
{
	pe->bulk = BULK_START;
	pe->bulk_stage = STAGE_DEAD;
	pe->bulk_pos = 0;
	pe->nb_resend = 0; /* the bulk carries everything anyway */
}

/* Next object of a bulk resync, or 0 when all have been sent. */
static int
bulk_next(struct fcr_sync *s, struct peer *pe, struct fcr_rec *r, uint64_t now_ms,
	  uint64_t now_tsc)
{
	struct fcr_rec_ctx c = rec_ctx(s, now_ms, now_tsc);
	struct fcr_sync_meta m;

	while (pe->bulk_stage < STAGE_DONE) {
		uint32_t i = pe->bulk_pos++;
		const struct fcr_kind *k;

		if (pe->bulk_stage == STAGE_DEAD) {
			if (i < NB_DEAD) {
				if (!s->dead[i].used)
					continue;
				del_rec(&s->dead[i].key, s->dead[i].version, r);
				if (s->p.config_elsewhere && fcr_rec_is_config(r))
					continue;
				return 1;
			}
		} else {
			k = fcr_kinds[pe->bulk_stage - STAGE_KIND(0)];
			if (i < k->slots(s->t)) {
				if (!k->slot(s->t, i, &m))
					continue;
				k->rec(s->t, i, &c, r);
				if (s->p.config_elsewhere && fcr_rec_is_config(r))
					continue;
				return 1;
			}
		}
		pe->bulk_stage++;
		pe->bulk_pos = 0;
	}
	return 0;
}

/* Paced by acknowledgements: at most half the window in flight. */
static void
bulk_step(struct fcr_sync *s, struct peer *pe, uint64_t now_ms, uint64_t now_tsc)
{
	struct fcr_rec r;

	if (pe->state != FCR_PEER_UP)
		return;
	if (pe->bulk == BULK_START) {
		if (pe->nb_inflight >= FCR_SYNC_INFLIGHT / 2)
			return;
		send_reliable(s, pe, FCR_SYNC_BULK_START, NULL, 0, NULL, 0, now_ms);
		pe->bulk = BULK_STREAM;
	}
	while (pe->bulk == BULK_STREAM && pe->nb_inflight < FCR_SYNC_INFLIGHT / 2) {
		batch_reset(s);
		while (bulk_next(s, pe, &r, now_ms, now_tsc)) {
			if (!batch_add(s, &r)) {
				pe->bulk_pos--; /* again in the next datagram */
				break;
			}
		}
		if (s->nb_recs == 0) {
			pe->bulk = BULK_END;
			break;
		}
		batch_send_to(s, pe, now_ms);
	}
	batch_reset(s);
	/* the end marker only once everything before it has arrived */
	if (pe->bulk == BULK_END && pe->nb_inflight == 0 && pe->nb_resend == 0) {
		send_reliable(s, pe, FCR_SYNC_BULK_END, NULL, 0, NULL, 0, now_ms);
		pe->bulk = BULK_NONE;
		pe->bulk_done_boot = pe->boot;
		s->st.bulk_sent++;
	}
}

/* ----------------------------------------------------------- losses */

static void
lose(struct fcr_sync *s, struct peer *pe, struct inflight *f)
{
	uint16_t i;

	if (f->type == FCR_SYNC_BULK_START || f->type == FCR_SYNC_BULK_END) {
		/* a lost marker: the whole resync again */
		start_bulk(s, pe);
	} else {
		for (i = 0; i < f->nb; i++) {
			if (pe->nb_resend == pe->cap_resend) {
				start_bulk(s, pe); /* too much lost: resync */
				break;
			}
			pe->resend[pe->nb_resend++] = f->rec[i];
		}
	}
	f->used = 0;
	pe->nb_inflight--;
}

static void
acked(struct fcr_sync *s, struct peer *pe, uint32_t base, uint64_t bits)
{
	unsigned int i;

	if (base == 0)
		return;
	for (i = 0; i < FCR_SYNC_INFLIGHT; i++) {
		struct inflight *f = &pe->inflight[i];
		uint32_t d;

		if (!f->used || f->seq > base)
			continue;
		d = base - f->seq;
		if (d == 0 || (d <= 64 && (bits >> (d - 1)) & 1)) {
			f->used = 0;
			pe->nb_inflight--;
		} else if (d > 64) {
			lose(s, pe, f);
		}
	}
}

static void
check_timeouts(struct fcr_sync *s, struct peer *pe, uint64_t now_ms)
{
	unsigned int i;

	for (i = 0; i < FCR_SYNC_INFLIGHT; i++) {
		struct inflight *f = &pe->inflight[i];

		if (f->used && now_ms - f->sent_ms >= s->p.rto_ms)
			lose(s, pe, f);
	}
}

/* ----------------------------------------------------------- receiving */

static struct peer *
peer_of(struct fcr_sync *s, const struct fcr_sync_addr *a)
{
	unsigned int i;

	for (i = 0; i < s->nb_peers; i++)
		if (s->peer[i].addr.ip == a->ip && s->peer[i].addr.port == a->port)
			return &s->peer[i];
	return NULL;
}

/* 64 random bits, never 0 (0 means none on the wire). */
static uint64_t
random_nz(const struct fcr_sync *s)
{
	uint64_t v;

	do {
		if (s->p.random64 != NULL)
			v = s->p.random64();
		else
			randombytes_buf(&v, sizeof(v));
	} while (v == 0);
	return v;
}

/* A new boot of the peer accepted: what was its past life's is gone, and
 * a new challenge is drawn, so the replaced boot's datagrams (which echo
 * the one it had) are refused from now on. */
static void
peer_reset(struct fcr_sync *s, struct peer *pe, uint64_t boot)
{
	unsigned int i;

	if (pe->boot != 0)
		s->st.peer_restarts++;
	pe->boot = boot;
	pe->challenge = random_nz(s);
	pe->rx_high = 0;
	pe->rx_seen = 0;
	pe->ack_base = 0;
	pe->ack_bits = 0;
	for (i = 0; i < FCR_SYNC_INFLIGHT; i++)
		pe->inflight[i].used = 0;
	pe->nb_inflight = 0;
	pe->nb_resend = 0;
	pe->bulk = BULK_NONE;
	pe->bulk_done_boot = 0;
}

/* Replay window: 0 new, -1 already seen or too old. */
static int
replay_check(struct peer *pe, uint32_t seq)
{
	uint32_t d;

	if (seq == 0)
		return -1;
	if (seq > pe->rx_high) {
		d = seq - pe->rx_high;
		pe->rx_seen = d >= 64 ? 0 : (pe->rx_seen << d);
		if (pe->rx_high != 0 && d <= 64)
			pe->rx_seen |= 1ull << (d - 1);
		pe->rx_high = seq;
		return 0;
	}
	d = pe->rx_high - seq;
	if (d == 0 || d > 64 || (pe->rx_seen >> (d - 1)) & 1)
		return -1;
	pe->rx_seen |= 1ull << (d - 1);
	return 0;
}

static void
note_for_ack(struct peer *pe, uint32_t seq)
{
	uint32_t d;

	if (seq > pe->ack_base) {
		d = seq - pe->ack_base;
		pe->ack_bits = d >= 64 ? 0 : pe->ack_bits << d;
		if (pe->ack_base != 0 && d <= 64)
			pe->ack_bits |= 1ull << (d - 1);
		pe->ack_base = seq;
	} else {
		d = pe->ack_base - seq;
		if (d > 0 && d <= 64)
			pe->ack_bits |= 1ull << (d - 1);
	}
	pe->ack_due = 1;
}

/* A record is stale when the object holds a newer version, or has a local
 * change not sent yet: that change will go out with a version of now,
 * newer than anything seen so far. */
static void
apply(struct fcr_sync *s, const struct fcr_rec *r, uint64_t now_ms)
{
	const struct fcr_kind *k = fcr_kind_of_rec(r->type);
	struct fcr_rec_ctx c = rec_ctx(s, now_ms, 0);

	/* skipped before the deletion markers: it has no key or version */
	if (k == NULL) {
		s->st.records_unknown++;
		return;
	}
	/* keys no frame and no command can make */
	if (!k->key_valid(&r->key)) {
		s->st.records_refused++;
		return;
	}
	/* A version far ahead of this node's wall clock would pull the clock
	 * with it, up to where the version's millisecond field wraps and
	 * every later local change looks older than what peers hold. Nodes'
	 * clocks agree to well within the bound (NTP); a node that does not
	 * is told by this counter. */
	if ((r->version >> 16) > now_ms + s->clock_offset + FCR_SYNC_MAX_AHEAD_MS) {
		s->st.records_refused++;
		s->st.records_ahead++;
		return;
	}
	if (s->p.config_elsewhere && fcr_rec_is_config(r)) {
		s->st.records_stale++; /* the store decides */
		return;
	}
	see_version(s, r->version);
	if (fcr_rec_is_del(k, r)) {
		dead_note(s, r);
	} else if (r->version <= dead_version(s, r)) {
		/* deleted since, by a change newer than this update */
		s->st.records_stale++;
		return;
	}
	switch (k->apply(s->t, r, &c)) {
	case FCR_APPLY_DONE:
		s->st.records_applied++;
		break;
	case FCR_APPLY_STALE:
		s->st.records_stale++;
		break;
	case FCR_APPLY_REFUSED:
		s->st.records_refused++;
		break;
	}
}

void
fcr_sync_input(struct fcr_sync *s, const struct fcr_sync_addr *from,
	       const uint8_t *p, size_t len, uint64_t now_ms, uint64_t now_tsc)
{
	enum fcr_sync_drop why;
	struct fcr_sync_hdr h;
	struct peer *pe;
	struct fcr_rec r;
	size_t off;
	int rc;

	(void)now_tsc;
	s->st.datagrams_received++;
	s->st.bytes_received += len;
	if (fcr_sync_open(p, len, s->p.mtu, s->p.key, &h, &why) < 0) {
		s->st.drop[why]++;
		return;
	}
	pe = peer_of(s, from);
	if (pe == NULL || h.boot == s->p.boot) {
		/* not a configured peer (or our own datagram looped back) */
		s->st.drop[FCR_SD_UNKNOWN_PEER]++;
		return;
	}
	/* check the records before anything changes */
	off = FCR_SYNC_HDR_LEN;
	while ((rc = fcr_rec_next(p, len - FCR_SYNC_TAG_LEN, &off, &r)) > 0)
		;
	if (rc < 0) {
		s->st.drop[FCR_SD_MALFORMED]++;
		return;
	}
	if (h.boot != pe->boot) {
		/* Another boot than the one accepted: the peer restarted, this
		 * node did, or a past life's datagram is replayed. Only a
		 * sender that has our present challenge proves it is running
		 * now; its own challenge is kept to echo, so that it can take
		 * our boot too. */
		if (h.challenge != 0)
			pe->echo = h.challenge;
		if (h.echo != pe->challenge) {
			/* made knowing our present boot, yet not our present
			 * challenge: made before we drew it, by a boot we
			 * have replaced since */
			s->st.drop[h.peer_boot == s->p.boot ? FCR_SD_REPLAY
							     : FCR_SD_UNPROVEN]++;
			pe->hello_now = 1; /* it gets our challenge */
			return;
		}
		if (h.seq == 0) {
			s->st.drop[FCR_SD_REPLAY]++;
			return;
		}
		peer_reset(s, pe, h.boot);
		/* what it sent before it proved itself is not taken later
		 * (a restarted receiver's window starts here, not empty): it
		 * was never acknowledged, so its objects are sent again */
		pe->rx_high = h.seq;
		pe->rx_seen = ~0ull;
	} else if (replay_check(pe, h.seq) < 0) {
		s->st.drop[FCR_SD_REPLAY]++;
		return;
	}
	if (h.challenge != 0)
		pe->echo = h.challenge;
	if (pe->state != FCR_PEER_UP) {
		/* first contact, or back after silence: it may lack anything;
		 * greet at once so it learns our boot id */
		start_bulk(s, pe);
		pe->state = FCR_PEER_UP;
		pe->hello_now = 1;
	}
	pe->node = h.node;
	pe->ready = (h.flags & FCR_SYNC_F_READY) != 0;
	pe->last_rx_ms = now_ms;
	if (h.peer_boot == s->p.boot)
		acked(s, pe, h.ack_base, h.ack_bits);
	if ((h.flags & FCR_SYNC_F_WANT_BULK) && pe->bulk == BULK_NONE &&
	    pe->bulk_done_boot != pe->boot)
		start_bulk(s, pe);

	switch (h.type) {
	case FCR_SYNC_UPDATE:
		note_for_ack(pe, h.seq);
		s->log->muted = 1;
		off = FCR_SYNC_HDR_LEN;
		while (fcr_rec_next(p, len - FCR_SYNC_TAG_LEN, &off, &r) > 0) {
			s->st.records_received++;
			apply(s, &r, now_ms);
		}
		s->log->muted = 0;
		break;
	case FCR_SYNC_BULK_START:
		note_for_ack(pe, h.seq);
		break;
	case FCR_SYNC_BULK_END:
		note_for_ack(pe, h.seq);
		s->st.bulk_received++;
		s->ready = 1;
		break;
	default: /* ACK, HELLO: the header said it all */
		break;
	}
}

/* ----------------------------------------------------------- the clock */

/* The kinds that note changes of their own as time passes (flows: idle,
 * new counters) take their turn. */
static void
refresh(struct fcr_sync *s, uint64_t now_tsc)
{
	struct fcr_refresh_ctx c = { .log = s->log, .now_tsc = now_tsc, .tsc_hz = s->p.tsc_hz,
				     .idle_ms = s->p.idle_ms, .period_ms = s->p.refresh_ms };
	int k;

	for (k = 0; k < FCR_KIND_COUNT; k++)
		if (fcr_kinds[k]->refresh != NULL)
			fcr_kinds[k]->refresh(s->t, s->refresh[k], &c);
}

void
fcr_sync_tick(struct fcr_sync *s, uint64_t now_ms, uint64_t now_tsc)
{
	unsigned int i, up = 0;

	s->now_ms = now_ms;
	for (i = 0; i < s->nb_peers; i++) {
		struct peer *pe = &s->peer[i];

		if (pe->state == FCR_PEER_UP && now_ms - pe->last_rx_ms > s->p.dead_ms)
			pe->state = FCR_PEER_DOWN;
		up += pe->state == FCR_PEER_UP;
		check_timeouts(s, pe, now_ms);
	}
	/* the first node up has nobody to resync from */
	if (!s->ready && up == 0 && now_ms - s->start_ms > s->p.dead_ms)
		s->ready = 1;

	refresh(s, now_tsc);
	if (pending(s) > 0 && s->first_dirty_ms == 0)
		s->first_dirty_ms = now_ms;
	/* A batch goes out when the window ends (in as many datagrams as it
	 * takes) and goes on at the next ticks when a peer's window was full.
	 * Not earlier: sending each datagram as soon as it is full sends an
	 * object again for every later change in the same window (measured:
	 * 15% less traffic instead of 90% with changes spread over the
	 * window). A flush sends what was pending when its window ended (and
	 * what a flush still owed then); what is noted while it is paced out
	 * waits for the next window's end, else a flush that outlasts the
	 * peers' windows would send an object again for each later change. */
	if (now_ms >= s->window_end_ms)
		due_at_window_end(s);
	if (now_ms >= s->window_end_ms || s->flush_unfinished) {
		if (pending(s) > 0)
			s->flush_unfinished = !flush(s, now_ms, now_tsc);
		else
			s->flush_unfinished = 0;
		if (now_ms >= s->window_end_ms)
			s->window_end_ms = now_ms + s->p.window_ms;
	}
	for (i = 0; i < s->nb_peers; i++) {
		struct peer *pe = &s->peer[i];

		send_resends(s, pe, now_ms, now_tsc);
		if (pe->bulk != BULK_NONE)
			bulk_step(s, pe, now_ms, now_tsc);
		if (pe->ack_due && pe->state == FCR_PEER_UP) {
			send_raw(s, pe, FCR_SYNC_ACK, NULL, 0, 0, now_ms);
			s->st.acks_sent++;
		} else if (pe->hello_now ||
			   now_ms - pe->last_tx_ms >= s->p.keepalive_ms) {
			send_raw(s, pe, FCR_SYNC_HELLO, NULL, 0, 0, now_ms);
			s->st.keepalives_sent++;
			pe->hello_now = 0;
		}
	}
}

/* ----------------------------------------------------------- set-up */

struct fcr_sync *
fcr_sync_create(const struct fcr_sync_params *p, struct fcr_tables *t,
		uint64_t now_ms)
{
	struct fcr_sync *s;
	int k;

	if (sodium_init() < 0 || t->log == NULL || p->send == NULL)
		return NULL;
	s = rte_zmalloc("fcr_sync", sizeof(*s), 0);
	if (s == NULL)
		return NULL;
	s->p = *p;
	if (s->p.mtu == 0)
		s->p.mtu = 1400;
	if (s->p.mtu < FCR_SYNC_OVERHEAD + 300)
		s->p.mtu = FCR_SYNC_OVERHEAD + 300;
	if (s->p.mtu > sizeof(s->out))
		s->p.mtu = sizeof(s->out);
	if (s->p.window_ms == 0)
		s->p.window_ms = 50;
	if (s->p.keepalive_ms == 0)
		s->p.keepalive_ms = 1000;
	if (s->p.dead_ms == 0)
		s->p.dead_ms = 3500;
	if (s->p.rto_ms == 0)
		s->p.rto_ms = 200;
	if (s->p.idle_ms == 0)
		s->p.idle_ms = 30000;
	if (s->p.refresh_ms == 0)
		s->p.refresh_ms = 5000;
	/* Boot ids are random, not from the clock: what proves a restart is
	 * the challenge a new boot echoes (fcr_sync_wire.h), so a node whose
	 * clock went back is not taken for a replay. */
	if (s->p.boot == 0)
		s->p.boot = random_nz(s);
	if (s->p.node == 0)
		s->p.node = (uint16_t)(random_nz(s) | 1);
	if (s->p.wall_ms == 0) {
		struct timespec rt;

		clock_gettime(CLOCK_REALTIME, &rt);
		if (rt.tv_sec > 1704067200)
			s->p.wall_ms = (uint64_t)(rt.tv_sec - 1704067200) * 1000 +
				       (uint64_t)rt.tv_nsec / 1000000;
	}
	/* a hybrid logical clock: it starts at the wall clock (ms since
	 * 2024), so versions made after a restart outrank those made before
	 * it, even before the node has heard from a peer, when the clock is
	 * right */
	s->clock = s->p.wall_ms;
	s->clock_offset = s->clock - RTE_MIN(now_ms, s->clock);
	s->now_ms = now_ms;
	{
		char name[RTE_HASH_NAMESIZE];
		struct rte_hash_parameters hp = {
			.name = name, .entries = NB_DEAD, .key_len = sizeof(struct fcr_key),
			.hash_func = rte_hash_crc, .socket_id = SOCKET_ID_ANY,
			.extra_flag = RTE_HASH_EXTRA_FLAGS_EXT_TABLE,
		};
		static unsigned int seq;

		snprintf(name, sizeof(name), "fcr_dead%u", seq++);
		s->dead_hash = rte_hash_create(&hp);
		s->dead = rte_zmalloc(NULL, sizeof(struct dead) * NB_DEAD, 0);
		if (s->dead_hash == NULL || s->dead == NULL) {
			fcr_sync_free(s);
			return NULL;
		}
	}
	for (k = 0; k < FCR_KIND_COUNT; k++) {
		if (fcr_kinds[k]->refresh_size == 0)
			continue;
		s->refresh[k] = rte_zmalloc(NULL, fcr_kinds[k]->refresh_size, 0);
		if (s->refresh[k] == NULL) {
			fcr_sync_free(s);
			return NULL;
		}
	}
	s->t = t;
	s->log = t->log;
	s->start_ms = now_ms;
	s->window_end_ms = now_ms + s->p.window_ms;
	s->ready = 1; /* until a peer is added */
	return s;
}

void
fcr_sync_free(struct fcr_sync *s)
{
	unsigned int i;

	if (s == NULL)
		return;
	for (i = 0; i < s->nb_peers; i++) {
		rte_free(s->peer[i].inflight);
		rte_free(s->peer[i].resend);
	}
	for (i = 0; i < FCR_KIND_COUNT; i++)
		rte_free(s->refresh[i]);
	rte_hash_free(s->dead_hash);
	rte_free(s->dead);
	rte_free(s);
}

int
fcr_sync_peer_add(struct fcr_sync *s, const struct fcr_sync_addr *a)
{
	struct peer *pe;

	if (s->nb_peers == FCR_SYNC_MAX_PEERS || peer_of(s, a) != NULL)
		return -1;
	pe = &s->peer[s->nb_peers];
	memset(pe, 0, sizeof(*pe));
	pe->addr = *a;
	pe->last_tx_ms = 0; /* say hello at the next tick */
	pe->hello_now = 1;
	pe->challenge = random_nz(s);
	pe->cap_resend = 16384;
	pe->inflight = rte_zmalloc(NULL, sizeof(struct inflight) * FCR_SYNC_INFLIGHT, 0);
	pe->resend = rte_malloc(NULL, sizeof(struct fcr_rec) * pe->cap_resend, 0);
	if (pe->inflight == NULL || pe->resend == NULL) {
		rte_free(pe->inflight);
		rte_free(pe->resend);
		return -1;
	}
	s->ready = 0; /* someone may have state for us */
	return (int)s->nb_peers++;
}

void
fcr_sync_set_window(struct fcr_sync *s, uint32_t ms)
{
	s->p.window_ms = ms ? ms : 1;
	s->window_end_ms = 0; /* the new window starts at the next tick */
}

const struct fcr_sync_stats *fcr_sync_stats(const struct fcr_sync *s) { return &s->st; }
int fcr_sync_ready(const struct fcr_sync *s) { return s->ready; }
uint64_t fcr_sync_boot(const struct fcr_sync *s) { return s->p.boot; }
uint16_t fcr_sync_node(const struct fcr_sync *s) { return s->p.node; }
uint32_t fcr_sync_window(const struct fcr_sync *s) { return s->p.window_ms; }
unsigned int fcr_sync_nb_peers(const struct fcr_sync *s) { return s->nb_peers; }
uint64_t fcr_sync_pending(const struct fcr_sync *s) { return pending(s); }

uint64_t
fcr_sync_oldest_ms(const struct fcr_sync *s, uint64_t now_ms)
{
	return s->first_dirty_ms ? now_ms - s->first_dirty_ms : 0;
}

void
fcr_sync_peer_info(const struct fcr_sync *s, unsigned int i,
		   struct fcr_sync_peer_info *out)
{
	const struct peer *pe = &s->peer[i];

	out->addr = pe->addr;
	out->state = pe->state;
	out->ready = pe->ready;
	out->bulk_to = pe->bulk != BULK_NONE;
	out->node = pe->node;
	out->boot = pe->boot;
	out->inflight = pe->nb_inflight;
	out->last_rx_ms = pe->last_rx_ms;
}
