/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_hash.h>
#include <rte_hash_crc.h>
#include <rte_malloc.h>
#include <rte_rcu_qsbr.h>

#include "fcr_change.h"
#include "fcr_flow.h"

#define KEY_FREE UINT64_MAX /* no valid key has its top nibble set */
#define DQ_MAX 65536
#define SEEN_NEW UINT32_MAX /* not visited by the expiry scan yet */

/* What waits in the defer queue: the hash position and our entry index. */
struct deferred {
	int32_t pos;
	uint32_t idx;
};

const char *
fcr_leg_name(enum fcr_leg leg)
{
	static const char *const names[FCR_LEG_COUNT] = {
		[FCR_LEG_PLAIN] = "plain",
		[FCR_LEG_HOST_TO_TARGET] = "host_to_target",
		[FCR_LEG_VI_TO_TARGET] = "vi_to_target",
		[FCR_LEG_TARGET_TO_HOST] = "target_to_host",
		[FCR_LEG_VT_TO_HOST] = "vt_to_host",
	};

	if ((unsigned)leg == FCR_LEG_BLOCKED)
		return "blocked";
	if ((unsigned)leg == FCR_LEG_HIDDEN)
		return "hidden";
	return (unsigned)leg < FCR_LEG_COUNT ? names[leg] : "?";
}

static void
release(struct fcr_flow_table *ft, int32_t pos, uint32_t idx)
{
	rte_hash_free_key_with_position(ft->hash, pos);
	/* owner[] still says what the slot held: it is reset only on reuse */
	if (ft->owner[idx] == FCR_NO_OWNER)
		ft->nb_plain--;
	ft->free_idx[ft->nb_free++] = idx;
}

/* Called by the defer queue once no worker can still hold these entries. */
static void
reclaim_cb(void *p, void *e, unsigned int n)
{
	struct fcr_flow_table *ft = p;
	struct deferred *d = e;
	unsigned int i;

	for (i = 0; i < n; i++)
		release(ft, d[i].pos, d[i].idx);
}

/* The table's hash, and the flow cache's bucket index: one CRC32-C of
 * the key, so a key the cache misses goes to the table with its hash. */
static inline uint32_t
key_hash(uint64_t key)
{
	return rte_hash_crc_8byte(key, 0);
}

static uint32_t
table_hash(const void *key, uint32_t len, uint32_t init)
{
	uint64_t k;

	RTE_SET_USED(len);
	RTE_SET_USED(init); /* 0: the table's hash_func_init_val */
	memcpy(&k, key, sizeof(k));
	return key_hash(k);
}

/* rte_hash compares keys whose length is not a multiple of 16 with
 * memcmp; ours are one 64-bit word. */
static int
key_cmp(const void *a, const void *b, size_t len)
{
	uint64_t x, y;

	RTE_SET_USED(len);
	memcpy(&x, a, sizeof(x));
	memcpy(&y, b, sizeof(y));
	return x != y;
}

uint64_t
fcr_flow_table_memory(uint32_t capacity, uint32_t nb_workers)
{
	return (uint64_t)capacity *
	       (sizeof(uint64_t) * 2 + sizeof(uint32_t) * 4 +
		sizeof(struct fcr_flow_exchanges) +
		(uint64_t)nb_workers * (sizeof(struct fcr_flow_counters) +
					sizeof(struct fcr_flow_exchanges)));
}

struct fcr_flow_table *
fcr_flow_table_create(const char *name, uint32_t capacity, uint32_t nb_workers,
		      struct rte_rcu_qsbr *qsbr, int socket)
{
	char hname[RTE_HASH_NAMESIZE];
	struct rte_hash_parameters hp = {
		.entries = capacity,
		.key_len = sizeof(uint64_t),
		.hash_func = table_hash,
		.socket_id = socket,
		/* lock-free readers; the extendable table guarantees that
		 * `capacity` keys fit whatever their hashes */
		.extra_flag = RTE_HASH_EXTRA_FLAGS_RW_CONCURRENCY_LF |
			      RTE_HASH_EXTRA_FLAGS_EXT_TABLE,
	};
	struct fcr_flow_table *ft;
	uint32_t i;

	if (capacity == 0 || nb_workers == 0 || nb_workers > FCR_MAX_WORKERS) {
		rte_errno = EINVAL;
		return NULL;
	}
	ft = rte_zmalloc_socket(name, sizeof(*ft), RTE_CACHE_LINE_SIZE, socket);
	if (ft == NULL)
		goto nomem;
	ft->capacity = capacity;
	ft->nb_workers = nb_workers;
	ft->qsbr = qsbr;
	snprintf(hname, sizeof(hname), "%s_h", name);
	hp.name = hname;
	ft->hash = rte_hash_create(&hp);
	if (ft->hash == NULL)
		goto fail;
	rte_hash_set_cmp_func(ft->hash, key_cmp);
	ft->action = rte_zmalloc_socket(NULL, sizeof(uint64_t) * capacity,
					RTE_CACHE_LINE_SIZE, socket);
	ft->key = rte_malloc_socket(NULL, sizeof(uint64_t) * capacity, 0, socket);
	ft->owner = rte_malloc_socket(NULL, sizeof(uint32_t) * capacity, 0, socket);
	ft->seen = rte_malloc_socket(NULL, sizeof(uint32_t) * capacity, 0, socket);
	ft->missed = rte_malloc_socket(NULL, sizeof(uint32_t) * capacity, 0, socket);
	ft->xmissed = rte_malloc_socket(NULL, sizeof(*ft->xmissed) * capacity, 0, socket);
	ft->free_idx = rte_malloc_socket(NULL, sizeof(uint32_t) * capacity, 0,
					 socket);
	if (!ft->action || !ft->key || !ft->owner || !ft->seen || !ft->missed ||
	    !ft->xmissed || !ft->free_idx)
		goto nomem;
	for (i = 0; i < nb_workers; i++) {
		ft->counters[i] = rte_zmalloc_socket(NULL,
			sizeof(struct fcr_flow_counters) * capacity,
			RTE_CACHE_LINE_SIZE, socket);
		ft->exchanges[i] = rte_zmalloc_socket(NULL,
			sizeof(struct fcr_flow_exchanges) * capacity,
			RTE_CACHE_LINE_SIZE, socket);
		if (ft->counters[i] == NULL || ft->exchanges[i] == NULL)
			goto nomem;
	}
	/* Hand out low indexes first: a small table stays in few pages. */
	for (i = 0; i < capacity; i++) {
		ft->key[i] = KEY_FREE;
		ft->free_idx[i] = capacity - 1 - i;
	}
	ft->nb_free = capacity;
	if (qsbr != NULL) {
		char qname[RTE_RCU_QSBR_DQ_NAMESIZE];
		struct rte_rcu_qsbr_dq_parameters dp = {
			.name = qname,
			/* deletions wait here for a grace period; a burst larger
			 * than this waits for one in place (fcr_flow_del) */
			.size = capacity < DQ_MAX ? capacity : DQ_MAX,
			.esize = sizeof(struct deferred),
			.trigger_reclaim_limit = 64,
			.max_reclaim_size = 256,
			.free_fn = reclaim_cb,
			.p = ft,
			.v = qsbr,
		};

		snprintf(qname, sizeof(qname), "%s_dq", name);
		ft->dq = rte_rcu_qsbr_dq_create(&dp);
		if (ft->dq == NULL)
			goto fail;
	}
	return ft;
nomem:
	rte_errno = ENOMEM;
fail:
	fcr_flow_table_free(ft);
	return NULL;
}

void
fcr_flow_table_free(struct fcr_flow_table *ft)
{
	uint32_t i;

	if (ft == NULL)
		return;
	if (ft->dq)
		rte_rcu_qsbr_dq_delete(ft->dq);
	rte_hash_free(ft->hash);
	for (i = 0; i < FCR_MAX_WORKERS; i++) {
		rte_free(ft->counters[i]);
		rte_free(ft->exchanges[i]);
	}
	rte_free(ft->action);
	rte_free(ft->key);
	rte_free(ft->owner);
	rte_free(ft->seen);
	rte_free(ft->missed);
	rte_free(ft->xmissed);
	rte_free(ft->free_idx);
	rte_free(ft->sflags);
	rte_free(ft->version);
	rte_free(ft->remote);
	rte_free(ft);
}

int
fcr_flow_table_attach_log(struct fcr_flow_table *ft, struct fcr_change_log *log,
			  int socket)
{
	ft->sflags = rte_zmalloc_socket(NULL, ft->capacity, 0, socket);
	ft->version = rte_zmalloc_socket(NULL, sizeof(uint64_t) * ft->capacity, 0,
					 socket);
	ft->remote = rte_zmalloc_socket(NULL,
					sizeof(struct fcr_flow_remote) * ft->capacity,
					0, socket);
	if (ft->sflags == NULL || ft->version == NULL || ft->remote == NULL)
		return -ENOMEM;
	ft->log = log;
	return 0;
}

/* hashes: the keys' key_hash() when known, else NULL */
static unsigned int
lookup_bulk(const struct fcr_flow_table *ft, const uint64_t *keys,
	    uint32_t *hashes, unsigned int n, uint32_t *idx)
{
	const void *kp[RTE_HASH_LOOKUP_BULK_MAX];
	void *data[RTE_HASH_LOOKUP_BULK_MAX];
	uint64_t hits = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		kp[i] = &keys[i];
	if (hashes != NULL)
		rte_hash_lookup_with_hash_bulk_data(ft->hash, kp, hashes, n, &hits, data);
	else
		rte_hash_lookup_bulk_data(ft->hash, kp, n, &hits, data);
	for (i = 0; i < n; i++)
		idx[i] = (hits >> i) & 1 ? (uint32_t)(uintptr_t)data[i] :
					   FCR_FLOW_NONE;
	return (unsigned int)__builtin_popcountll(hits);
}

unsigned int
fcr_flow_lookup_bulk(const struct fcr_flow_table *ft, const uint64_t *keys,
		     unsigned int n, uint32_t *idx)
{
	return lookup_bulk(ft, keys, NULL, n, idx);
}

static inline uint32_t
cache_way_idx(const struct fcr_flow_table *ft, uint64_t way, uint32_t crc,
	      uint64_t key)
{
	uint32_t x = (uint32_t)way;

	if ((uint32_t)(way >> 32) != crc || x >= ft->capacity ||
	    __atomic_load_n(&ft->key[x], __ATOMIC_ACQUIRE) != key)
		return FCR_FLOW_NONE;
	return x;
}

unsigned int
fcr_flow_lookup_cached(const struct fcr_flow_table *ft, struct fcr_flow_cache *c,
		       const uint64_t *keys, unsigned int n, uint32_t *idx)
{
	uint64_t mkey[RTE_HASH_LOOKUP_BULK_MAX];
	uint32_t crc[RTE_HASH_LOOKUP_BULK_MAX], midx[RTE_HASH_LOOKUP_BULK_MAX];
	uint8_t mpos[RTE_HASH_LOOKUP_BULK_MAX];
	unsigned int i, nm = 0, hits = 0;

	for (i = 0; i < n; i++) {
		uint32_t h = key_hash(keys[i]);
		uint64_t *b = c->way[h & (FCR_FLOW_CACHE_BUCKETS - 1)];
		uint32_t x = cache_way_idx(ft, b[0], h, keys[i]);

		if (x == FCR_FLOW_NONE)
			x = cache_way_idx(ft, b[1], h, keys[i]);
		if (x != FCR_FLOW_NONE) {
			idx[i] = x;
			hits++;
			continue;
		}
		crc[nm] = h;
		mkey[nm] = keys[i];
		mpos[nm++] = (uint8_t)i;
	}
	c->lookups += n;
	c->hits += hits;
	if (nm == 0)
		return hits;
	hits += lookup_bulk(ft, mkey, crc, nm, midx);
	for (i = 0; i < nm; i++) {
		uint64_t *b = c->way[crc[i] & (FCR_FLOW_CACHE_BUCKETS - 1)];

		idx[mpos[i]] = midx[i];
		if (midx[i] == FCR_FLOW_NONE)
			continue;
		/* most recent first; the other way keeps the one before */
		if ((uint32_t)(b[0] >> 32) != crc[i])
			b[1] = b[0];
		b[0] = (uint64_t)crc[i] << 32 | midx[i];
	}
	return hits;
}

int
fcr_flow_find(const struct fcr_flow_table *ft, uint64_t key)
{
	void *data;

	if (rte_hash_lookup_data(ft->hash, &key, &data) < 0)
		return -ENOENT;
	return (int)(uintptr_t)data;
}

static uint32_t
alloc_idx(struct fcr_flow_table *ft)
{
	if (ft->nb_free == 0 && ft->dq != NULL)
		rte_rcu_qsbr_dq_reclaim(ft->dq, ft->capacity, NULL, NULL, NULL);
	if (ft->nb_free == 0)
		return FCR_FLOW_NONE;
	return ft->free_idx[--ft->nb_free];
}

int
fcr_flow_set_reserve(struct fcr_flow_table *ft, uint32_t reserve)
{
	if (reserve > ft->reserve && (uint64_t)ft->nb_plain + reserve > ft->capacity &&
	    ft->dq != NULL) /* plain slots deleted may wait to be taken back */
		rte_rcu_qsbr_dq_reclaim(ft->dq, ft->capacity, NULL, NULL, NULL);
	if (reserve > ft->reserve && (uint64_t)ft->nb_plain + reserve > ft->capacity)
		return -ENOBUFS;
	ft->reserve = reserve;
	return 0;
}

int
fcr_flow_set(struct fcr_flow_table *ft, uint64_t key, uint64_t action,
	     uint32_t owner)
{
	int found = fcr_flow_find(ft, key);
	uint32_t idx, w;
	int rc;

	if (found >= 0) {
		idx = (uint32_t)found;
		__atomic_store_n(&ft->action[idx], action, __ATOMIC_RELEASE);
		ft->nb_plain += (owner == FCR_NO_OWNER) - (ft->owner[idx] == FCR_NO_OWNER);
		ft->owner[idx] = owner;
		return found;
	}
	if (owner == FCR_NO_OWNER && (uint64_t)ft->nb_plain + ft->reserve >= ft->capacity) {
		/* plain slots deleted may wait in the defer queue */
		if (ft->dq != NULL)
			rte_rcu_qsbr_dq_reclaim(ft->dq, ft->capacity, NULL, NULL, NULL);
		if ((uint64_t)ft->nb_plain + ft->reserve >= ft->capacity)
			return -ENOSPC;
	}
	idx = alloc_idx(ft);
	if (idx == FCR_FLOW_NONE && owner != FCR_NO_OWNER && ft->qsbr != NULL) {
		/* a rule's slot is in the reserve, perhaps still in the defer
		 * queue: every worker passes a quiescent point within a poll */
		rte_rcu_qsbr_synchronize(ft->qsbr, RTE_QSBR_THRID_INVALID);
		idx = alloc_idx(ft);
	}
	if (idx == FCR_FLOW_NONE)
		return -ENOSPC;
	/* The entry is complete before the key is published: a worker that
	 * finds the key reads this action and zeroed counters. */
	ft->action[idx] = action;
	ft->owner[idx] = owner;
	ft->seen[idx] = SEEN_NEW;
	ft->missed[idx] = 0;
	ft->xmissed[idx].cmnds = ft->xmissed[idx].ends = 0;
	for (w = 0; w < ft->nb_workers; w++) {
		memset(&ft->counters[w][idx], 0, sizeof(struct fcr_flow_counters));
		memset(&ft->exchanges[w][idx], 0, sizeof(struct fcr_flow_exchanges));
	}
	rc = rte_hash_add_key_data(ft->hash, &key, (void *)(uintptr_t)idx);
	if (rc < 0) {
		ft->free_idx[ft->nb_free++] = idx;
		return -ENOSPC;
	}
	ft->nb_plain += owner == FCR_NO_OWNER;
	/* a worker whose flow cache still names this slot for this key (an
	 * earlier life of the same flow) may use it from here on; one that
	 * finds it in the hash first caches it, and hits once this is set */
	__atomic_store_n(&ft->key[idx], key, __ATOMIC_RELEASE);
	ft->count++;
	if (ft->log != NULL) {
		ft->sflags[idx] = 0;
		ft->version[idx] = 0;
		memset(&ft->remote[idx], 0, sizeof(ft->remote[idx]));
		fcr_change_mark(ft->log, FCR_KIND_FLOW, &ft->sflags[idx], idx);
	}
	return (int)idx;
}

static int
del_entry(struct fcr_flow_table *ft, uint64_t key, int tell_peers)
{
	struct deferred d;
	int found = fcr_flow_find(ft, key);
	int32_t pos;

	if (found < 0)
		return -ENOENT;
	pos = rte_hash_del_key(ft->hash, &key);
	if (pos < 0)
		return -ENOENT;
	ft->count--;
	/* no longer an entry for iterators (show flows, bulk resync, rescan),
	 * even while its slot waits for the workers' quiescence */
	__atomic_store_n(&ft->key[found], KEY_FREE, __ATOMIC_RELAXED);
	if (ft->log != NULL && tell_peers) {
		struct fcr_key tomb = { .kind = FCR_KIND_FLOW, .k1 = key };

		fcr_change_deleted(ft->log, &ft->sflags[found], &tomb);
	} else if (ft->log != NULL) {
		ft->sflags[found] = 0; /* nothing to send for it */
	}
	d.pos = pos;
	d.idx = (uint32_t)found;
	if (ft->dq != NULL && rte_rcu_qsbr_dq_enqueue(ft->dq, &d) == 0)
		return 0;
	/* No readers, or the defer queue is full: wait for every worker to
	 * pass a quiescent point (well under a millisecond), then free. */
	if (ft->qsbr != NULL)
		rte_rcu_qsbr_synchronize(ft->qsbr, RTE_QSBR_THRID_INVALID);
	release(ft, pos, d.idx);
	return 0;
}

void
fcr_flow_exchanges_sum(const struct fcr_flow_table *ft, uint32_t idx,
		       struct fcr_flow_exchanges *out)
{
	uint32_t w;

	out->cmnds = ft->xmissed[idx].cmnds;
	out->ends = ft->xmissed[idx].ends;
	for (w = 0; w < ft->nb_workers; w++) {
		out->cmnds += __atomic_load_n(&ft->exchanges[w][idx].cmnds, __ATOMIC_RELAXED);
		out->ends += __atomic_load_n(&ft->exchanges[w][idx].ends, __ATOMIC_RELAXED);
	}
}

void
fcr_flow_counters_sum(const struct fcr_flow_table *ft, uint32_t idx,
		      struct fcr_flow_counters *out)
{
	uint32_t w;

	memset(out, 0, sizeof(*out));
	for (w = 0; w < ft->nb_workers; w++) {
		const struct fcr_flow_counters *c = &ft->counters[w][idx];

		if (c->frames == 0)
			continue;
		if (out->frames == 0 || c->first_tsc < out->first_tsc)
			out->first_tsc = c->first_tsc;
		if (c->last_tsc > out->last_tsc)
			out->last_tsc = c->last_tsc;
		out->frames += c->frames;
		out->bytes += c->bytes;
	}
}

int
fcr_flow_del(struct fcr_flow_table *ft, uint64_t key)
{
	return del_entry(ft, key, 1);
}

uint32_t
fcr_flow_room(struct fcr_flow_table *ft)
{
	if (ft->dq != NULL)
		rte_rcu_qsbr_dq_reclaim(ft->dq, ft->capacity, NULL, NULL, NULL);
	return ft->nb_free;
}

unsigned int
fcr_flow_expire(struct fcr_flow_table *ft, uint32_t n, uint32_t max_deleted)
{
	unsigned int deleted = 0;
	uint32_t i, idx, frames, w;

	for (i = 0; i < n && i < ft->capacity && deleted < max_deleted; i++) {
		idx = ft->expire_pos;
		ft->expire_pos = idx + 1 < ft->capacity ? idx + 1 : 0;
		if (ft->key[idx] == KEY_FREE || ft->owner[idx] != FCR_NO_OWNER)
			continue;
		frames = ft->remote != NULL ? (uint32_t)ft->remote[idx].frames : 0;
		for (w = 0; w < ft->nb_workers; w++)
			frames += (uint32_t)__atomic_load_n(&ft->counters[w][idx].frames,
							    __ATOMIC_RELAXED);
		if (frames == SEEN_NEW)
			frames--; /* keep the marker for entries not visited yet */
		if (ft->seen[idx] != frames) {
			ft->seen[idx] = frames;
			continue;
		}
		/* each node expires its own entries: a standby, hearing of
		 * its peer's frames only every few seconds, must not delete
		 * the entry of a flow its peer still forwards */
		if (del_entry(ft, ft->key[idx], 0) == 0)
			deleted++;
	}
	return deleted;
}

int
fcr_flow_next(const struct fcr_flow_table *ft, uint32_t *iter)
{
	while (*iter < ft->capacity) {
		uint32_t i = (*iter)++;

		if (ft->key[i] != KEY_FREE)
			return (int)i;
	}
	return -ENOENT;
}
