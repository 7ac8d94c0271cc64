/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The flow table: (VLAN, S_ID, D_ID) -> rewrite action, on rte_hash with
 * lock-free readers. The tables lcore alone adds, changes and
 * deletes; workers look up in bulk and never block. A deleted entry's slot is
 * reused only after every worker has reported a quiescent state
 * (rte_rcu_qsbr), so a worker holding an index always reads a live entry.
 *
 * Per-flow counters live in one array per worker, indexed like the entries:
 * each is written by its worker alone, so they need no atomics and no two
 * workers share a cache line of counters.
 */
#ifndef FCR_FLOW_H
#define FCR_FLOW_H

#include <stdint.h>

#include <rte_branch_prediction.h>
#include <rte_common.h>

#include "fcr_fcoe.h"

struct rte_hash;
struct rte_rcu_qsbr;
struct rte_rcu_qsbr_dq;

#define FCR_MAX_WORKERS 64
#define FCR_FLOW_NONE UINT32_MAX
#define FCR_NO_OWNER UINT32_MAX

/* Redirect legs, in the order of the table in docs/fcoe.md, "FC-Redirect: the
 * four rules"; 0 is plain forwarding. */
enum fcr_leg {
	FCR_LEG_PLAIN = 0,
	FCR_LEG_HOST_TO_TARGET, /* D_ID := VT, to the service node */
	FCR_LEG_VI_TO_TARGET,   /* S_ID := host, to the target */
	FCR_LEG_TARGET_TO_HOST, /* D_ID := VI, to the service node */
	FCR_LEG_VT_TO_HOST,     /* S_ID := target, to the host */
	FCR_LEG_COUNT
};

/* Not a leg a frame is sent on: the entry of a host-target pair whose
 * redirect is not active. Its frames are dropped (redirect_not_ready), so a
 * configured redirect never lets the pair talk directly. Fits the action's
 * three leg bits, outside the legs counted per frame sent. */
#define FCR_LEG_BLOCKED 7
/* Nor this: the entry of a target -> VI or host -> VT pair while a redirect
 * is active. Each end sees only the other, never the service node: the VI's
 * answers to the target are rewritten to the host's, so an exchange the
 * target began with the VI itself could never complete. Dropped
 * (redirect_hidden). */
#define FCR_LEG_HIDDEN 6
/* Nor this: a frame's, never an entry's. An FCP command on an entry held
 * for a cutover (FCR_ACTION_HOLD): dropped (cutover_held). */
#define FCR_LEG_HELD 5
/* Nor this: a frame's. Any other frame of an exchange whose command was
 * held (FCR_ACTION_DRAIN): dropped (cutover_new_exchange). */
#define FCR_LEG_NEW_EXCHANGE 8

const char *fcr_leg_name(enum fcr_leg leg);

/* Key: VLAN in bits 48-59, S_ID 24-47, D_ID 0-23. */
static inline uint64_t
fcr_flow_key(uint16_t vlan, uint32_t s_id, uint32_t d_id)
{
	return (uint64_t)(vlan & 0x0FFF) << 48 | (uint64_t)(s_id & 0xFFFFFF) << 24 |
	       (d_id & 0xFFFFFF);
}

static inline uint16_t fcr_flow_key_vlan(uint64_t k) { return (uint16_t)(k >> 48) & 0x0FFF; }
static inline uint32_t fcr_flow_key_sid(uint64_t k) { return (uint32_t)(k >> 24) & 0xFFFFFF; }
static inline uint32_t fcr_flow_key_did(uint64_t k) { return (uint32_t)k & 0xFFFFFF; }

/* Action word, read by workers in one atomic load: new D_ID in bits 0-23,
 * new S_ID in 24-47, leg in 48-50. */
static inline uint64_t
fcr_action(uint32_t new_s_id, uint32_t new_d_id, enum fcr_leg leg)
{
	return (uint64_t)leg << 48 | (uint64_t)(new_s_id & 0xFFFFFF) << 24 |
	       (new_d_id & 0xFFFFFF);
}

/* On an action: FCP commands on the entry are held (dropped) while a
 * cutover drains the pair's open exchanges (docs/fcoe.md, "Cutover"); the
 * rest of its frames go by the action. */
#define FCR_ACTION_HOLD (1ull << 51)
/* On the actions of a pair draining per exchange (docs/fcoe.md, "Cutover"):
 * the OX_IDs of the commands held on the pair (FCR_ACTION_HOLD) are kept in
 * the drain's exchange set (bits 55-59: which of FCR_DRAIN_SETS), one set
 * for the host's exchanges, one for the VI's (FCR_ACTION_DRAIN_VI); the
 * entry carries the frames of that initiator's exchanges as their sender
 * (Exchange Context 0), or as their receiver (FCR_ACTION_DRAIN_TO: the
 * responder's frames, Exchange Context 1). A frame of an exchange in the
 * set is dropped: that exchange began after the change. */
#define FCR_ACTION_DRAIN (1ull << 52)
#define FCR_ACTION_DRAIN_TO (1ull << 53)
#define FCR_ACTION_DRAIN_VI (1ull << 54)
#define FCR_ACTION_DRAIN_SHIFT 55
#define FCR_DRAIN_SETS 32
/* One initiator's exchanges: a bit per OX_ID. */
#define FCR_DRAIN_SET_WORDS (65536 / 64)

static inline unsigned int
fcr_action_drain_set(uint64_t a)
{
	return (unsigned int)(a >> FCR_ACTION_DRAIN_SHIFT) & (FCR_DRAIN_SETS - 1);
}

static inline uint32_t fcr_action_did(uint64_t a) { return (uint32_t)a & 0xFFFFFF; }
static inline uint32_t fcr_action_sid(uint64_t a) { return (uint32_t)(a >> 24) & 0xFFFFFF; }
static inline unsigned int fcr_action_leg(uint64_t a) { return (unsigned int)(a >> 48) & 7; }

struct fcr_flow_counters {
	uint64_t frames;
	uint64_t bytes;
	uint64_t first_tsc;
	uint64_t last_tsc;
};

/* A worker's count of the exchanges sent on an entry: FCP commands (an
 * exchange begins) and what ends one (FCP_RSP, BA_ACC); a cutover waits on
 * the pair's difference. Apart from the counters: only those frames touch
 * it, and the counters keep their 32-byte stride. */
struct fcr_flow_exchanges {
	uint32_t cmnds;
	uint32_t ends;
};

struct fcr_change_log;

/* A peer's view of a flow, as of its last update. */
struct fcr_flow_remote {
	uint64_t frames;
	uint64_t bytes;
	uint32_t first_s;   /* unix seconds */
	uint32_t last_s;
};

struct fcr_flow_table {
	struct rte_hash *hash;
	uint64_t *action;                    /* [capacity], read by workers */
	struct fcr_flow_counters *counters[FCR_MAX_WORKERS];
	struct fcr_flow_exchanges *exchanges[FCR_MAX_WORKERS];
	/* written by the tables lcore only; workers read it to confirm a hit in
	 * their flow cache (published after the entry's action, release) */
	uint64_t *key;                       /* [capacity] */
	uint32_t *owner;                     /* redirect that installed it */
	uint32_t *seen;                      /* frames at the expiry scan's last visit */
	/* frames sent before the entry existed, as the workers reported
	 * them: a redirect taking a plain entry over counts them too */
	uint32_t *missed;
	/* the exchanges among them (an FCP command that was its flow's
	 * first frame): counted with the workers' (fcr_flow_exchanges_sum) */
	struct fcr_flow_exchanges *xmissed;
	uint32_t expire_pos;                 /* where the expiry scan goes on */
	uint32_t *free_idx;
	uint32_t nb_free;
	uint32_t capacity;
	uint32_t nb_workers;
	uint32_t count;
	/* Slots held by plain entries (no owner), live or waiting in the
	 * defer queue, and slots kept free for redirect rules: plain entries
	 * never take the rules' room, so flooding the table with new flows
	 * cannot keep a redirect from installing. */
	uint32_t nb_plain;
	uint32_t reserve;
	struct rte_rcu_qsbr_dq *dq;
	struct rte_rcu_qsbr *qsbr;
	/* replication, when a change log is attached (the tables lcore only) */
	struct fcr_change_log *log;
	uint8_t *sflags;
	uint64_t *version;
	struct fcr_flow_remote *remote;
};

/*
 * capacity flows; nb_workers counter arrays; qsbr: the RCU variable the
 * workers report to (NULL only when no reader runs concurrently, as in
 * single-threaded tools and tests). NULL with rte_errno set on failure.
 */
struct fcr_flow_table *fcr_flow_table_create(const char *name, uint32_t capacity,
					     uint32_t nb_workers,
					     struct rte_rcu_qsbr *qsbr,
					     int socket);
void fcr_flow_table_free(struct fcr_flow_table *ft);

/*
 * The tables lcore's side: visit the next n entries (round the table) and delete the
 * plain ones (no redirect owns them) that forwarded no frame, here or at a
 * sync peer, since the previous visit. Visiting the whole table once per
 * idle period removes an idle flow one to two periods after its last
 * frame; a new entry is only noted on its first visit. Each node expires
 * its own entries: the deletion is not replicated (a peer still
 * forwarding the flow keeps it, and reports it again). Stops after
 * max_deleted deletions (the next call goes on from there). Returns how
 * many were deleted.
 */
unsigned int fcr_flow_expire(struct fcr_flow_table *ft, uint32_t n,
			     uint32_t max_deleted);

/* Free entries, once those whose readers have all passed a quiescent
 * point are taken back from the RCU defer queue. The tables lcore only. */
uint32_t fcr_flow_room(struct fcr_flow_table *ft);

/*
 * Worker side. Looks up n (<= 64) keys; idx[i] is the entry or
 * FCR_FLOW_NONE. Returns the number of hits.
 */
unsigned int fcr_flow_lookup_bulk(const struct fcr_flow_table *ft,
				  const uint64_t *keys, unsigned int n,
				  uint32_t *idx);

/*
 * A worker's flow cache in front of the rte_hash (an exact-match cache):
 * 2-way buckets indexed by the key's CRC32-C, each way holding that CRC
 * and the entry index the key last resolved to. A hit is confirmed against
 * the table's own key array, so an entry deleted, or reused for another
 * key once every worker has passed a quiescent point, is never taken for
 * this key. 64 KB per worker; zero-filled is empty. Worker only.
 */
#define FCR_FLOW_CACHE_BUCKETS 4096
struct fcr_flow_cache {
	uint64_t way[FCR_FLOW_CACHE_BUCKETS][2];  /* crc << 32 | entry index */
	uint64_t hits;
	uint64_t lookups;
};

/* fcr_flow_lookup_bulk through the cache: keys it holds cost one bucket
 * read and one key compare; the rest go to the rte_hash in one bulk call
 * and are cached. Same results as fcr_flow_lookup_bulk. */
unsigned int fcr_flow_lookup_cached(const struct fcr_flow_table *ft,
				    struct fcr_flow_cache *c,
				    const uint64_t *keys, unsigned int n,
				    uint32_t *idx);

static inline uint64_t
fcr_flow_action_load(const struct fcr_flow_table *ft, uint32_t idx)
{
	return __atomic_load_n(&ft->action[idx], __ATOMIC_ACQUIRE);
}

static inline void
fcr_flow_count(struct fcr_flow_counters *c, uint32_t bytes, uint64_t now)
{
	if (unlikely(c->frames == 0))
		c->first_tsc = now;
	c->frames++;
	c->bytes += bytes;
	c->last_tsc = now;
}

/* Whether a frame of this R_CTL may begin or end an exchange: one test
 * lets the data frames by. It takes 0x04-0x07 (FCP_CMND 0x06, FCP_RSP
 * 0x07, and XFER_RDY) and 0x84-0x87 (BA_ACC 0x84, BA_RJT). */
static inline int
fcr_flow_exchange_frame(uint8_t r_ctl)
{
	return (uint8_t)((r_ctl & 0x7F) - 0x04) < 4;
}

/* An exchange begun or ended by the frame (R_CTL, TYPE) sent on the entry:
 * an FCP or FC-NVMe command, its response; an abort accepted. */
static inline void
fcr_flow_count_exchange(struct fcr_flow_exchanges *c, uint8_t r_ctl, uint8_t type)
{
	if (fcr_type_command_response(type)) {
		c->cmnds += r_ctl == FCR_RCTL_FCP_CMND;
		c->ends += r_ctl == FCR_RCTL_FCP_RSP;
	} else if (unlikely(type == FCR_TYPE_BLS)) {
		/* an abort accepted; a BA_RJT answers one the responder never
		 * had open (a command held, or answered already): no end */
		c->ends += r_ctl == FCR_RCTL_BA_ACC;
	}
}

/* The tables lcore's side. */
/* Keep `reserve` slots for owned entries (redirect rules). 0, or -ENOBUFS
 * when the plain entries already hold more than the rest. */
int fcr_flow_set_reserve(struct fcr_flow_table *ft, uint32_t reserve);
/* Insert or change in place. Returns the entry index, or -ENOSPC (for a
 * plain entry: the slots left are the rules' reserve). An owned entry that
 * finds no free slot waits for the workers' quiescence once and takes back
 * the slots deleted before. */
int fcr_flow_set(struct fcr_flow_table *ft, uint64_t key, uint64_t action,
		 uint32_t owner);
/* Returns 0, or -ENOENT. */
int fcr_flow_del(struct fcr_flow_table *ft, uint64_t key);
/* Entry index, or -ENOENT. */
int fcr_flow_find(const struct fcr_flow_table *ft, uint64_t key);
/* Sum of every worker's counters for one entry (first = earliest seen). */
void fcr_flow_counters_sum(const struct fcr_flow_table *ft, uint32_t idx,
			   struct fcr_flow_counters *out);
/* Sum of every worker's exchange counts for one entry, and of those its
 * frames sent before it existed brought (xmissed), modulo 2^32. */
void fcr_flow_exchanges_sum(const struct fcr_flow_table *ft, uint32_t idx,
			    struct fcr_flow_exchanges *out);
/* Walk the live entries: *iter starts at 0; returns the index or -ENOENT
 * at the end. */
int fcr_flow_next(const struct fcr_flow_table *ft, uint32_t *iter);
/* Start noting changes in `log` (allocates the per-flow sync state). */
int fcr_flow_table_attach_log(struct fcr_flow_table *ft,
			      struct fcr_change_log *log, int socket);

/* Bytes allocated for `capacity` flows and `nb_workers` workers. */
uint64_t fcr_flow_table_memory(uint32_t capacity, uint32_t nb_workers);

#endif /* FCR_FLOW_H */
