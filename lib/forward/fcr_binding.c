/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_hash.h>
#include <rte_hash_crc.h>
#include <rte_malloc.h>
#include <rte_rcu_qsbr.h>

#include "fcr_binding.h"
#include "fcr_change.h"

struct wwpn_key {
	uint64_t wwpn;
	uint32_t vlan;
	uint32_t zero;
};


const char *
fcr_bind_origin_name(enum fcr_bind_origin o)
{
	return o == FCR_BIND_STATIC ? "static" :
	       o == FCR_BIND_LEARNED ? "learned" : "none";
}

struct fcr_binding_table *
fcr_binding_table_create(const char *name, uint32_t capacity,
			 struct rte_rcu_qsbr *qsbr, int socket)
{
	char n1[RTE_HASH_NAMESIZE], n2[RTE_HASH_NAMESIZE], n3[RTE_HASH_NAMESIZE];
	struct rte_hash_parameters hp = {
		.entries = capacity,
		.hash_func = rte_hash_crc,
		.socket_id = socket,
		.extra_flag = RTE_HASH_EXTRA_FLAGS_EXT_TABLE,
	};
	struct fcr_binding_table *bt;
	uint32_t i;

	bt = rte_zmalloc_socket(name, sizeof(*bt), 0, socket);
	if (bt == NULL)
		goto nomem;
	bt->socket = socket;
	bt->vn_gen = 1; /* a zeroed cache entry (generation 0) is empty */
	snprintf(n1, sizeof(n1), "%s_w", name);
	snprintf(n2, sizeof(n2), "%s_f", name);
	hp.name = n1;
	hp.key_len = sizeof(struct wwpn_key);
	bt->by_wwpn = rte_hash_create(&hp);
	/* by_fcid and vn_ports: one key, the same hash (fcr_binding_bind
	 * hashes once for both) */
	hp.name = n2;
	hp.key_len = sizeof(uint64_t);
	bt->by_fcid = rte_hash_create(&hp);
	/* read by the workers while the tables lcore changes it: lock-free, and a
	 * deleted key's slot is reused only after their quiescence */
	snprintf(n3, sizeof(n3), "%s_v", name);
	hp.name = n3;
	hp.extra_flag = RTE_HASH_EXTRA_FLAGS_EXT_TABLE |
			(qsbr != NULL ? RTE_HASH_EXTRA_FLAGS_RW_CONCURRENCY_LF : 0);
	/* and each ENode's port: at most one per binding */
	hp.entries = capacity * 2;
	bt->vn_ports = rte_hash_create(&hp);
	if (bt->by_wwpn == NULL || bt->by_fcid == NULL || bt->vn_ports == NULL)
		goto fail;
	if (qsbr != NULL) {
		struct rte_hash_rcu_config rc = { .v = qsbr, .mode = RTE_HASH_QSBR_MODE_DQ };

		if (rte_hash_rcu_qsbr_add(bt->vn_ports, &rc) != 0)
			goto fail;
	}
	bt->entry = rte_zmalloc_socket(NULL, sizeof(*bt->entry) * capacity, 0,
				       socket);
	bt->free_idx = rte_malloc_socket(NULL, sizeof(uint32_t) * capacity, 0,
					 socket);
	if (bt->entry == NULL || bt->free_idx == NULL)
		goto nomem;
	for (i = 0; i < capacity; i++)
		bt->free_idx[i] = capacity - 1 - i;
	bt->nb_free = capacity;
	bt->capacity = capacity;
	return bt;
nomem:
	rte_errno = ENOMEM;
fail:
	fcr_binding_table_free(bt);
	return NULL;
}

void
fcr_binding_table_free(struct fcr_binding_table *bt)
{
	uint32_t i;

	if (bt == NULL)
		return;
	if (bt->entry)
		for (i = 0; i < bt->capacity; i++)
			rte_free(bt->entry[i].refs);
	rte_hash_free(bt->by_wwpn);
	rte_hash_free(bt->by_fcid);
	rte_hash_free(bt->vn_ports);
	rte_free(bt->entry);
	rte_free(bt->free_idx);
	rte_free(bt);
}

uint32_t
fcr_binding_get(struct fcr_binding_table *bt, uint16_t vlan, uint64_t wwpn,
	     int create)
{
	struct wwpn_key k = { .wwpn = wwpn, .vlan = vlan };
	void *data;

	if (rte_hash_lookup_data(bt->by_wwpn, &k, &data) >= 0)
		return (uint32_t)(uintptr_t)data;
	return create ? fcr_binding_new(bt, vlan, wwpn) : FCR_BINDING_NONE;
}

uint32_t
fcr_binding_new(struct fcr_binding_table *bt, uint16_t vlan, uint64_t wwpn)
{
	struct wwpn_key k = { .wwpn = wwpn, .vlan = vlan };
	struct fcr_binding *nm;
	uint32_t n;

	if (bt->nb_free == 0)
		return FCR_BINDING_NONE;
	n = bt->free_idx[--bt->nb_free];
	if (rte_hash_add_key_data(bt->by_wwpn, &k, (void *)(uintptr_t)n) < 0) {
		bt->nb_free++;
		return FCR_BINDING_NONE;
	}
	nm = &bt->entry[n];
	nm->wwpn = wwpn;
	nm->wwnn = 0;
	nm->vlan = vlan;
	nm->origin = FCR_BIND_NONE;
	nm->fcid = FCR_FCID_NONE;
	nm->nb_refs = 0;
	nm->sflags = 0;
	nm->version = 0;
	nm->pinned = 0;
	nm->pin_refused = 0;
	nm->since = 0;
	nm->in_use = 1;
	return n;
}

uint32_t
fcr_binding_by_fcid(const struct fcr_binding_table *bt, uint16_t vlan,
		 uint32_t fcid)
{
	uint64_t k = fcr_vn_key(vlan, fcid);
	void *data;

	if (rte_hash_lookup_data(bt->by_fcid, &k, &data) < 0)
		return FCR_BINDING_NONE;
	return (uint32_t)(uintptr_t)data;
}

/* note: log a deletion for replication (not when the name is only moving
 * to another FCID: that is an update). */
/* After a change to vn_ports: the workers' cached words are stale. */
static inline void
vn_changed(struct fcr_binding_table *bt)
{
	__atomic_store_n(&bt->vn_gen, bt->vn_gen + 1, __ATOMIC_RELEASE);
}

static int
name_unbind(struct fcr_binding_table *bt, uint32_t n, int note)
{
	struct fcr_binding *nm = &bt->entry[n];
	uint64_t k;

	if (nm->fcid == FCR_FCID_NONE)
		return 0;
	k = fcr_vn_key(nm->vlan, nm->fcid);
	rte_hash_del_key(bt->by_fcid, &k);
	rte_hash_del_key(bt->vn_ports, &k);
	vn_changed(bt);
	nm->fcid = FCR_FCID_NONE;
	nm->origin = FCR_BIND_NONE;
	nm->since = 0;
	bt->nb_bound--;
	if (bt->log != NULL && note) {
		struct fcr_key tomb = { .kind = FCR_KIND_BINDING, .vlan = nm->vlan,
					.k1 = nm->wwpn };

		fcr_change_deleted(bt->log, &nm->sflags, &tomb);
	}
	return 1;
}

int
fcr_binding_unbind(struct fcr_binding_table *bt, uint32_t n)
{
	return name_unbind(bt, n, 1);
}

int
fcr_binding_leaving(struct fcr_binding_table *bt, uint32_t n)
{
	struct fcr_binding *nm = &bt->entry[n];
	uint64_t k = fcr_vn_key(nm->vlan, nm->fcid);

	if (nm->fcid == FCR_FCID_NONE)
		return -ENOENT;
	/* an existing key's data changes atomically for readers */
	if (rte_hash_add_key_data(bt->vn_ports, &k,
				  (void *)(uintptr_t)(nm->vn | FCR_VN_LEAVING)) < 0)
		return -ENOENT;
	vn_changed(bt);
	nm->vn |= FCR_VN_LEAVING;
	return 0;
}

int
fcr_binding_bind(struct fcr_binding_table *bt, uint32_t n, uint32_t fcid,
	      enum fcr_bind_origin origin, uint64_t vn, uint32_t other,
	      uint32_t *evicted)
{
	struct fcr_binding *nm = &bt->entry[n];
	hash_sig_t h;
	uint64_t k;

	*evicted = FCR_BINDING_NONE;
	if (nm->fcid == fcid) {
		if (nm->origin != origin && bt->log != NULL)
			fcr_change_mark(bt->log, FCR_KIND_BINDING, &nm->sflags, n);
		nm->origin = (uint8_t)origin;
		if (nm->vn != vn) {
			/* an existing key's data changes atomically for readers */
			k = fcr_vn_key(nm->vlan, fcid);
			if (rte_hash_add_key_data(bt->vn_ports, &k, (void *)(uintptr_t)vn) < 0)
				return -ENOSPC;
			vn_changed(bt);
			nm->vn = vn;
		}
		return 0;
	}
	if (other != FCR_BINDING_NONE && other != n) {
		fcr_binding_unbind(bt, other);
		*evicted = other;
	}
	name_unbind(bt, n, 0);
	/* one key, one hash function: one hash for both tables */
	k = fcr_vn_key(nm->vlan, fcid);
	h = rte_hash_hash(bt->by_fcid, &k);
	if (rte_hash_add_key_with_hash_data(bt->by_fcid, &k, h, (void *)(uintptr_t)n) < 0)
		return -ENOSPC;
	if (rte_hash_add_key_with_hash_data(bt->vn_ports, &k, h, (void *)(uintptr_t)vn) < 0) {
		rte_hash_del_key(bt->by_fcid, &k);
		return -ENOSPC;
	}
	vn_changed(bt);
	nm->vn = vn;
	nm->fcid = fcid;
	nm->origin = (uint8_t)origin;
	bt->nb_bound++;
	if (bt->log != NULL)
		fcr_change_mark(bt->log, FCR_KIND_BINDING, &nm->sflags, n);
	return 1;
}

int
fcr_binding_ref_add(struct fcr_binding_table *bt, uint32_t n, uint32_t redirect)
{
	struct fcr_binding *nm = &bt->entry[n];

	if (nm->nb_refs == nm->cap_refs) {
		uint32_t cap = nm->cap_refs ? nm->cap_refs * 2 : 4;
		/* on the table's heap, like the entry that points at it (a
		 * malloc'd block reachable only from DPDK memory is one that
		 * leak checkers cannot see) */
		uint32_t *r = rte_realloc_socket(nm->refs, cap * sizeof(*r), 0, bt->socket);

		if (r == NULL)
			return -ENOMEM;
		nm->refs = r;
		nm->cap_refs = cap;
	}
	nm->refs[nm->nb_refs++] = redirect;
	return 0;
}

void
fcr_binding_ref_del(struct fcr_binding_table *bt, uint32_t n, uint32_t redirect)
{
	struct fcr_binding *nm = &bt->entry[n];
	uint32_t i;

	for (i = 0; i < nm->nb_refs; i++)
		if (nm->refs[i] == redirect) {
			nm->refs[i] = nm->refs[--nm->nb_refs];
			return;
		}
}

void
fcr_binding_maybe_free(struct fcr_binding_table *bt, uint32_t n)
{
	struct fcr_binding *nm = &bt->entry[n];
	struct wwpn_key k;

	if (!nm->in_use || nm->nb_refs != 0 || nm->fcid != FCR_FCID_NONE)
		return;
	memset(&k, 0, sizeof(k));
	k.wwpn = nm->wwpn;
	k.vlan = nm->vlan;
	rte_hash_del_key(bt->by_wwpn, &k);
	nm->in_use = 0;
	bt->free_idx[bt->nb_free++] = n;
}

int
fcr_binding_enode_own(struct fcr_binding_table *bt, uint64_t enode, unsigned int port)
{
	uint64_t k = fcr_vn_enode_key(enode);
	uint64_t w = (enode & 0xFFFFFFFFFFFFull) | (uint64_t)(port & 0xFF) << 48;
	void *data;

	if (rte_hash_lookup_data(bt->vn_ports, &k, &data) >= 0 &&
	    (uint64_t)(uintptr_t)data == w)
		return 0;
	/* an existing key's data changes atomically for readers */
	if (rte_hash_add_key_data(bt->vn_ports, &k, (void *)(uintptr_t)w) < 0)
		return -ENOSPC;
	vn_changed(bt);
	return 0;
}

void
fcr_binding_enode_free(struct fcr_binding_table *bt, uint64_t enode)
{
	uint64_t k = fcr_vn_enode_key(enode);

	if (rte_hash_del_key(bt->vn_ports, &k) >= 0)
		vn_changed(bt);
}

unsigned int
fcr_binding_enode_port(const struct fcr_binding_table *bt, uint64_t enode)
{
	uint64_t k = fcr_vn_enode_key(enode);
	void *data;

	if (rte_hash_lookup_data(bt->vn_ports, &k, &data) < 0)
		return FCR_VN_ANY_PORT;
	return (unsigned int)((uint64_t)(uintptr_t)data >> 48) & 0xFF;
}

void
fcr_vn_lookup_bulk(const struct fcr_binding_table *bt, const uint64_t *keys,
		   unsigned int n, uint64_t *vn)
{
	const void *kp[RTE_HASH_LOOKUP_BULK_MAX];
	void *data[RTE_HASH_LOOKUP_BULK_MAX];
	uint64_t hits = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		kp[i] = &keys[i];
	rte_hash_lookup_bulk_data(bt->vn_ports, kp, n, &hits, data);
	for (i = 0; i < n; i++)
		vn[i] = (hits >> i) & 1 ? (uint64_t)(uintptr_t)data[i] : 0;
}

static inline uint32_t
vn_slot(uint64_t key)
{
	return (uint32_t)((key * UINT64_C(0x9E3779B97F4A7C15)) >> 54) & (FCR_VN_CACHE_SIZE - 1);
}

void
fcr_vn_lookup_cached(const struct fcr_binding_table *bt, struct fcr_vn_cache *c,
		     const uint64_t *keys, unsigned int n, uint64_t *vn)
{
	/* the generation before the lookups: a change after it is caught by
	 * the next burst's read */
	uint64_t gen = __atomic_load_n(&bt->vn_gen, __ATOMIC_ACQUIRE);
	uint64_t mkey[RTE_HASH_LOOKUP_BULK_MAX], mvn[RTE_HASH_LOOKUP_BULK_MAX];
	uint8_t mi[RTE_HASH_LOOKUP_BULK_MAX];
	unsigned int i, nm = 0;

	for (i = 0; i < n; i++) {
		const struct fcr_vn_cache_entry *e = &c->e[vn_slot(keys[i])];

		if (e->gen == gen && e->key == keys[i]) {
			vn[i] = e->vn;
		} else {
			mkey[nm] = keys[i];
			mi[nm++] = (uint8_t)i;
		}
	}
	if (nm == 0)
		return;
	fcr_vn_lookup_bulk(bt, mkey, nm, mvn);
	for (i = 0; i < nm; i++) {
		struct fcr_vn_cache_entry *e = &c->e[vn_slot(mkey[i])];

		vn[mi[i]] = mvn[i];
		e->key = mkey[i];
		e->vn = mvn[i];
		e->gen = gen;
	}
}
