/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_hash.h>
#include <rte_hash_crc.h>
#include <rte_malloc.h>

#include "fcr_change.h"
#include "fcr_redirect.h"

#include "fcr_guard.h"
#include "fcr_paths.h"
#include "fcr_sn.h"
#include "fcr_redirect_priv.h"

struct redirect_key {
	uint64_t host;
	uint64_t target;
	uint32_t vlan;
	uint32_t zero;
};

const char *
fcr_member_name(enum fcr_member m)
{
	static const char *const names[FCR_M_COUNT] = {
		"host", "target", "vi", "vt",
	};

	return (unsigned)m < FCR_M_COUNT ? names[m] : "?";
}

const char *
fcr_redirect_state_name(enum fcr_redirect_state s)
{
	switch (s) {
	case FCR_RS_WAITING: return "waiting";
	case FCR_RS_ACTIVE: return "active";
	case FCR_RS_CONFLICT: return "conflict";
	case FCR_RS_NO_ROOM: return "no_room";
	case FCR_RS_CLEARTEXT: return "cleartext";
	}
	return "?";
}

struct fcr_redirect_table *
fcr_redirect_table_create(const char *name, uint32_t capacity,
			  struct fcr_flow_table *flows,
			  struct fcr_binding_table *bindings, int socket)
{
	char hname[RTE_HASH_NAMESIZE];
	struct rte_hash_parameters hp = {
		.name = hname,
		.entries = capacity < 8 ? 8 : capacity, /* rte_hash takes no fewer */
		.key_len = sizeof(struct redirect_key),
		.hash_func = rte_hash_crc,
		.socket_id = socket,
		.extra_flag = RTE_HASH_EXTRA_FLAGS_EXT_TABLE,
	};
	struct fcr_redirect_table *rt;
	uint32_t i;

	/* every redirect the table can hold has its entries kept in the
	 * flow table from the start */
	if (fcr_flow_set_reserve(flows, fcr_redirect_reserve(capacity)) < 0) {
		rte_errno = ENOBUFS;
		return NULL;
	}
	rt = rte_zmalloc_socket(name, sizeof(*rt), 0, socket);
	if (rt == NULL)
		goto nomem;
	snprintf(hname, sizeof(hname), "%s_h", name);
	rt->by_key = rte_hash_create(&hp);
	if (rt->by_key == NULL)
		goto fail;
	rt->r = rte_zmalloc_socket(NULL, sizeof(*rt->r) * capacity, 0, socket);
	rt->wwpn = rte_zmalloc_socket(NULL, sizeof(*rt->wwpn) * capacity, 0, socket);
	rt->wwnn = rte_zmalloc_socket(NULL, sizeof(*rt->wwnn) * capacity, 0, socket);
	rt->free_idx = rte_malloc_socket(NULL, sizeof(uint32_t) * capacity, 0,
					 socket);
	rt->drain_list = rte_malloc_socket(NULL, sizeof(uint32_t) * capacity, 0, socket);
	rt->xsets = rte_zmalloc_socket(NULL, sizeof(*rt->xsets) * FCR_DRAIN_SETS,
				       RTE_CACHE_LINE_SIZE, socket);
	rt->lat = rte_zmalloc_socket(NULL, sizeof(*rt->lat) * capacity, RTE_CACHE_LINE_SIZE,
				     socket);
	rt->paths = fcr_paths_create(name, capacity, socket);
	rt->sns = rte_zmalloc_socket(NULL, sizeof(*rt->sns), 0, socket);
	if (rt->r == NULL || rt->wwpn == NULL || rt->wwnn == NULL || rt->free_idx == NULL || rt->drain_list == NULL ||
	    rt->xsets == NULL || rt->lat == NULL || rt->paths == NULL ||
	    rt->sns == NULL)
		goto nomem;
	for (i = 0; i < capacity; i++)
		rt->free_idx[i] = capacity - 1 - i;
	rt->nb_free = capacity;
	rt->capacity = capacity;
	rt->nb_workers = flows->nb_workers;
	for (i = 0; i < rt->nb_workers; i++) {
		rt->not_ready[i] = rte_zmalloc_socket(NULL, sizeof(uint64_t) * capacity,
						      RTE_CACHE_LINE_SIZE, socket);
		rt->cleartext[i] = rte_zmalloc_socket(NULL, sizeof(uint64_t) * capacity,
						      RTE_CACHE_LINE_SIZE, socket);
		if (rt->not_ready[i] == NULL || rt->cleartext[i] == NULL)
			goto nomem;
	}
	rt->flows = flows;
	rt->bindings = bindings;
	return rt;
nomem:
	rte_errno = ENOMEM;
fail:
	fcr_redirect_table_free(rt);
	return NULL;
}

void
fcr_redirect_table_free(struct fcr_redirect_table *rt)
{
	uint32_t i;

	if (rt == NULL)
		return;
	rte_hash_free(rt->by_key);
	for (i = 0; i < FCR_MAX_WORKERS; i++) {
		rte_free(rt->not_ready[i]);
		rte_free(rt->cleartext[i]);
	}
	rte_free(rt->r);
	rte_free(rt->wwpn);
	rte_free(rt->wwnn);
	rte_free(rt->lat);
	fcr_paths_free(rt->paths);
	rte_free(rt->sns);
	rte_free(rt->free_idx);
	rte_free(rt->drain_list);
	rte_free(rt->xsets);
	rte_free(rt);
}

static void
rule_keys(const struct fcr_redirect *r, const uint32_t *f, uint64_t key[FCR_REDIRECT_KEYS],
	  uint64_t action[FCR_REDIRECT_KEYS])
{
	uint32_t h = f[FCR_M_HOST], t = f[FCR_M_TARGET];
	uint32_t vi = f[FCR_M_VI], vt = f[FCR_M_VT];

	key[0] = fcr_flow_key(r->vlan, h, t);
	action[0] = fcr_action(h, vt, FCR_LEG_HOST_TO_TARGET);
	key[1] = fcr_flow_key(r->vlan, vi, t);
	action[1] = fcr_action(h, t, FCR_LEG_VI_TO_TARGET);
	key[2] = fcr_flow_key(r->vlan, t, h);
	action[2] = fcr_action(t, vi, FCR_LEG_TARGET_TO_HOST);
	key[3] = fcr_flow_key(r->vlan, vt, h);
	action[3] = fcr_action(t, h, FCR_LEG_VT_TO_HOST);
	/* the service node stays out of sight of the pair's ends */
	key[4] = fcr_flow_key(r->vlan, t, vi);
	action[4] = fcr_action(t, vi, FCR_LEG_HIDDEN);
	key[5] = fcr_flow_key(r->vlan, h, vt);
	action[5] = fcr_action(h, vt, FCR_LEG_HIDDEN);
}

uint64_t
fcr_redirect_workers_sum(const struct fcr_redirect_table *rt, uint64_t *const *per_worker,
			 uint32_t id)
{
	uint64_t n = 0;
	uint32_t w;

	for (w = 0; w < rt->nb_workers; w++)
		n += __atomic_load_n(&per_worker[w][id], __ATOMIC_RELAXED);
	return n;
}

static uint64_t
not_ready_sum(const struct fcr_redirect_table *rt, uint32_t id)
{
	return fcr_redirect_workers_sum(rt, rt->not_ready, id);
}

uint64_t
fcr_redirect_dropped(const struct fcr_redirect_table *rt, uint32_t id)
{
	return not_ready_sum(rt, id) - rt->r[id].not_ready_base;
}

/*
 * Make the redirect's entries exactly key[0..n) -> action[0..n). Keys it
 * had and keeps are changed in place, so a flow is never without an entry
 * between two states (blocked -> active, a rebinding); keys it no longer
 * wants go after. A plain entry taken over brings its frames into
 * frames_before: they went directly before the redirect could act. 0, or
 * -ENOSPC (cannot happen while the table keeps the redirects' reserve).
 */
int
fcr_redirect_set_entries(struct fcr_redirect_table *rt, uint32_t id, const uint64_t *key,
			 const uint64_t *action, int n, int blocking)
{
	struct fcr_redirect *r = &rt->r[id];
	struct fcr_flow_counters c;
	int i, j, idx, rc = 0;

	for (i = 0; i < n; i++) {
		idx = fcr_flow_find(rt->flows, key[i]);
		if (idx >= 0 && rt->flows->owner[idx] == FCR_NO_OWNER) {
			fcr_flow_counters_sum(rt->flows, (uint32_t)idx, &c);
			r->frames_before += c.frames + rt->flows->missed[idx];
		}
		if (fcr_flow_set(rt->flows, key[i], action[i], id) < 0)
			rc = -ENOSPC;
	}
	for (i = 0; i < r->nb_keys; i++) {
		for (j = 0; j < n && r->key[i] != key[j]; j++)
			;
		idx = j < n ? -1 : fcr_flow_find(rt->flows, r->key[i]);
		if (idx >= 0 && rt->flows->owner[idx] == id) {
			fcr_flow_del(rt->flows, r->key[i]);
			rt->released++;
		}
	}
	if (n > 0)
		memcpy(r->key, key, sizeof(key[0]) * (size_t)n);
	r->nb_keys = (uint8_t)n;
	r->blocking = (uint8_t)(blocking && n > 0);
	return rc;
}

/* Keys of another redirect among key[0..n). */
int
fcr_redirect_owned_by_other(const struct fcr_redirect_table *rt, uint32_t id,
			    uint64_t key)
{
	int idx = fcr_flow_find(rt->flows, key);

	return idx >= 0 && rt->flows->owner[idx] != FCR_NO_OWNER &&
	       rt->flows->owner[idx] != id;
}

/*
 * Bring the redirect's entries in line with its members' FCIDs. All four
 * bound and no key owned by another redirect: the four rules (active).
 * Otherwise, when the host and the target are bound, the pair's two keys
 * block (their frames are dropped, never forwarded directly), and the
 * state says why (waiting for a member, or in conflict).
 */
static void
install(struct fcr_redirect_table *rt, uint32_t id)
{
	struct fcr_redirect *r = &rt->r[id];
	uint64_t key[FCR_REDIRECT_KEYS], action[FCR_REDIRECT_KEYS];
	uint32_t f[FCR_M_COUNT];
	int i, n = 0, missing = 0, conflict = 0, was_active = r->state == FCR_RS_ACTIVE;
	uint8_t state;

	for (i = 0; i < FCR_M_COUNT; i++) {
		f[i] = rt->bindings->entry[r->binding[i]].fcid;
		missing |= f[i] == FCR_FCID_NONE;
	}
	if (!missing) {
		rule_keys(r, f, key, action);
		for (i = 0; i < FCR_REDIRECT_KEYS; i++)
			conflict |= fcr_redirect_owned_by_other(rt, id, key[i]);
	}
	/* a new redirect in a cutover: its pair fails closed until the host
	 * has logged in again, never plain; once its VI, told first, logs in
	 * through them (vi_path), the rules but the host's way */
	if (!missing && !conflict && !r->guarded && (!r->cutover || r->vi_path)) {
		n = FCR_REDIRECT_KEYS;
		state = FCR_RS_ACTIVE;
		if (r->cutover)
			action[0] = fcr_action(f[FCR_M_HOST], f[FCR_M_TARGET], FCR_LEG_BLOCKED);
		/* before the rules: a worker that meets one reads these */
		for (i = 0; i < FCR_M_COUNT; i++) {
			__atomic_store_n(&rt->wwnn[id][i],
					 rt->bindings->entry[r->binding[i]].wwnn,
					 __ATOMIC_RELEASE);
			__atomic_store_n(&rt->wwpn[id][i],
					 rt->bindings->entry[r->binding[i]].wwpn,
					 __ATOMIC_RELEASE);
		}
	} else {
		if (f[FCR_M_HOST] != FCR_FCID_NONE && f[FCR_M_TARGET] != FCR_FCID_NONE) {
			uint64_t b[2] = {
				fcr_flow_key(r->vlan, f[FCR_M_HOST], f[FCR_M_TARGET]),
				fcr_flow_key(r->vlan, f[FCR_M_TARGET], f[FCR_M_HOST]),
			};

			for (i = 0; i < 2; i++) {
				/* another redirect's entry is there: this one
				 * waits for it to go (retried at once then) */
				if (fcr_redirect_owned_by_other(rt, id, b[i])) {
					conflict = 1;
					continue;
				}
				key[n] = b[i];
				action[n++] = fcr_action(fcr_flow_key_sid(b[i]),
							 fcr_flow_key_did(b[i]),
							 FCR_LEG_BLOCKED);
			}
		}
		/* a new redirect in a cutover: its VI, told to log in again
		 * with the host, must not log in to the target as itself
		 * (the target's LUN knows the host, not the VI) before the
		 * rules that make it the host are in; its PLOGI is retried */
		/* stopped by the cleartext guard: nor does its VI reach the
		 * target as itself */
		if ((r->cutover || r->guarded) && n == 2 && f[FCR_M_VI] != FCR_FCID_NONE) {
			uint64_t v = fcr_flow_key(r->vlan, f[FCR_M_VI], f[FCR_M_TARGET]);

			if (!fcr_redirect_owned_by_other(rt, id, v)) {
				key[n] = v;
				action[n++] = fcr_action(f[FCR_M_VI], f[FCR_M_TARGET],
							 FCR_LEG_BLOCKED);
			}
		}
		state = conflict ? FCR_RS_CONFLICT : r->guarded ? FCR_RS_CLEARTEXT : FCR_RS_WAITING;
	}
	if (fcr_redirect_set_entries(rt, id, key, action, n, state != FCR_RS_ACTIVE) < 0)
		state = FCR_RS_NO_ROOM;
	if (state == FCR_RS_ACTIVE) {
		rt->nb_active += !was_active;
		if (!was_active || memcmp(r->fcid, f, sizeof(f)) != 0) {
			r->installs++;
			/* new keys: what their entries counted before
			 * belongs to sessions no longer open on them */
			r->xbase[0] = fcr_cutover_exchanges(rt, r, FCR_DRAIN_HOST);
			r->xbase[1] = fcr_cutover_exchanges(rt, r, FCR_DRAIN_VI);
		}
		memcpy(r->fcid, f, sizeof(f));
	} else {
		rt->nb_active -= was_active;
	}
	rt->path_gen += r->state != state;
	r->state = state;
	fcr_paths_update(rt, id);
}

/* Remove every entry of a redirect being deleted: its pair goes back to
 * plain forwarding (the operator asked for it). */
void
fcr_redirect_uninstall(struct fcr_redirect_table *rt, uint32_t id)
{
	struct fcr_redirect *r = &rt->r[id];

	fcr_redirect_set_entries(rt, id, NULL, NULL, 0, 0);
	if (r->state == FCR_RS_ACTIVE)
		rt->nb_active--;
	r->state = FCR_RS_WAITING;
	rt->path_gen++;
	fcr_paths_update(rt, id);
}

/* Keys a redirect gave up may be what one in conflict waits for: it gets
 * them at once, so their flows are never without an entry between the two. */
void
fcr_redirect_retry_released(struct fcr_redirect_table *rt)
{
	if (rt->released == 0 || !rt->blocked || rt->retrying) {
		rt->released = 0;
		return;
	}
	rt->released = 0;
	rt->retrying = 1;
	fcr_redirect_retry_blocked(rt);
	rt->retrying = 0;
}

/* install() and a note when the state (or, when active, the FCIDs)
 * changed; `was` is the state before, FCR_RS_WAITING for a new redirect. */
void
fcr_redirect_install_noted(struct fcr_redirect_table *rt, uint32_t id, uint8_t was)
{
	struct fcr_redirect *r = &rt->r[id];
	uint64_t installs = r->installs;
	struct fcr_note note;

	install(rt, id);
	if (r->state == FCR_RS_CONFLICT || r->state == FCR_RS_NO_ROOM)
		rt->blocked = 1;
	fcr_redirect_retry_released(rt);
	if (r->state == was && (r->state != FCR_RS_ACTIVE || r->installs == installs))
		return;
	note = (struct fcr_note){
		.kind = FCR_NOTE_REDIRECT, .vlan = r->vlan, .redirect = id,
		.old_state = was, .new_state = r->state,
		.reinstalled = r->state == was,
	};
	fcr_note_tell(rt->note_hook, &note);
}

static void
rebuild(struct fcr_redirect_table *rt, uint32_t id)
{
	if (!rt->r[id].cutover)
		fcr_redirect_install_noted(rt, id, rt->r[id].state);
	else
		fcr_cutover_check(rt, id);
}

int
fcr_redirect_find(const struct fcr_redirect_table *rt, uint16_t vlan,
		  uint64_t host, uint64_t target)
{
	struct redirect_key k = { .host = host, .target = target, .vlan = vlan };
	void *data;

	if (rte_hash_lookup_data(rt->by_key, &k, &data) < 0)
		return -ENOENT;
	return (int)(uintptr_t)data;
}

void
fcr_redirect_unref_names(struct fcr_redirect_table *rt, struct fcr_redirect *r,
			 uint32_t id)
{
	int m;

	for (m = 0; m < FCR_M_COUNT; m++) {
		if (r->binding[m] == FCR_BINDING_NONE)
			continue;
		fcr_binding_ref_del(rt->bindings, r->binding[m], id);
		fcr_binding_maybe_free(rt->bindings, r->binding[m]);
		r->binding[m] = FCR_BINDING_NONE;
	}
}

/* Point members [from, FCR_M_COUNT) at the bindings of w[], dropping the
 * references to the bindings they had. 0, or -ENOSPC (the redirect is gone). */
static int
set_members(struct fcr_redirect_table *rt, uint32_t id, int from,
	    const uint64_t w[FCR_M_COUNT])
{
	struct fcr_redirect *r = &rt->r[id];
	int m;

	for (m = from; m < FCR_M_COUNT; m++) {
		if (r->binding[m] != FCR_BINDING_NONE) {
			fcr_binding_ref_del(rt->bindings, r->binding[m], id);
			fcr_binding_maybe_free(rt->bindings, r->binding[m]);
		}
		r->binding[m] = fcr_binding_get(rt->bindings, r->vlan, w[m], 1);
		if (r->binding[m] == FCR_BINDING_NONE ||
		    fcr_binding_ref_add(rt->bindings, r->binding[m], id) < 0) {
			r->binding[m] = FCR_BINDING_NONE;
			fcr_redirect_del(rt, r->vlan, w[FCR_M_HOST], w[FCR_M_TARGET]);
			return -ENOSPC;
		}
	}
	return 0;
}

int
fcr_redirect_add(struct fcr_redirect_table *rt, uint16_t vlan, uint64_t host,
		 uint64_t target, uint64_t vi, uint64_t vt)
{
	struct redirect_key k = { .host = host, .target = target, .vlan = vlan };
	uint64_t w[FCR_M_COUNT] = { host, target, vi, vt };
	struct fcr_redirect *r;
	int id, m, j, from = 0;

	for (m = 0; m < FCR_M_COUNT; m++)
		for (j = m + 1; j < FCR_M_COUNT; j++)
			if (w[m] == w[j])
				return -EINVAL;
	id = fcr_redirect_find(rt, vlan, host, target);
	if (id >= 0) {
		/* Same key again: the same VI/VT changes nothing; new ones are
		 * swapped in and install() changes the rules in place, so the
		 * flows are never without one. */
		r = &rt->r[id];
		if (rt->bindings->entry[r->binding[FCR_M_VI]].wwpn == vi &&
		    rt->bindings->entry[r->binding[FCR_M_VT]].wwpn == vt) {
			/* the same again: a blocked one tries once more */
			if (r->state == FCR_RS_CONFLICT || r->state == FCR_RS_NO_ROOM)
				rebuild(rt, (uint32_t)id);
			if (r->restored & FCR_RESTORED) {
				/* the configuration names a restored one: kept, and
				 * now a peer hears of it */
				r->restored = (uint8_t)((r->restored & ~FCR_RESTORED) |
							FCR_RESTORED_NAMED);
				if (rt->log != NULL)
					fcr_change_mark(rt->log, FCR_KIND_REDIRECT, &r->sflags,
							(uint32_t)id);
			}
			return id;
		}
		/* another VI/VT than the restored one: an ordinary change */
		r->restored = 0;
		from = FCR_M_VI;
		/* another service node: whether it answers is seen afresh */
		fcr_liveness_reset(&r->live);
	} else {
		if (rt->nb_free == 0)
			return -ENOSPC;
		id = (int)rt->free_idx[--rt->nb_free];
		if (rte_hash_add_key_data(rt->by_key, &k,
					  (void *)(uintptr_t)id) < 0) {
			rt->nb_free++;
			return -ENOSPC;
		}
		r = &rt->r[id];
		memset(r, 0, sizeof(*r));
		r->vlan = vlan;
		/* the workers' counts of this id start over from here */
		r->not_ready_base = not_ready_sum(rt, (uint32_t)id);
		r->clear_base = fcr_redirect_cleartext(rt, (uint32_t)id);
		/* a removed redirect's id: its workers' last notes may land
		 * after this, a few exchanges at most */
		memset(&rt->lat[id], 0, sizeof(rt->lat[id]));
		/* memset cleared sflags: a new redirect is not known to peers */
		r->in_use = 1;
		rt->count++;
		for (m = 0; m < FCR_M_COUNT; m++)
			r->binding[m] = FCR_BINDING_NONE;
	}
	if (set_members(rt, (uint32_t)id, from, w) < 0)
		return -ENOSPC;
	rt->path_gen++;
	if (!rt->restoring)
		fcr_cutover_begin(rt, (uint32_t)id);
	/* in a cutover the new rules wait for the host: a changed one keeps
	 * its old rules, a new one blocks its pair (install) */
	if (!r->cutover || r->nb_keys == 0)
		fcr_redirect_install_noted(rt, (uint32_t)id, r->state);
	else
		fcr_cutover_block_vi(rt, (uint32_t)id);
	if (rt->log != NULL)
		fcr_change_mark(rt->log, FCR_KIND_REDIRECT, &r->sflags, (uint32_t)id);
	return id;
}

int
fcr_redirect_del(struct fcr_redirect_table *rt, uint16_t vlan, uint64_t host,
		 uint64_t target)
{
	struct redirect_key k = { .host = host, .target = target, .vlan = vlan };
	int id = fcr_redirect_find(rt, vlan, host, target);
	struct fcr_redirect *r;

	if (id < 0)
		return id;
	r = &rt->r[id];
	r->restored = 0;
	rt->path_gen++;
	r->in_use = 0; /* not retried below; its cutover's new path has no VI */
	fcr_paths_update(rt, (uint32_t)id);
	fcr_sn_set(rt, (uint32_t)id, -1);
	fcr_cutover_begin(rt, (uint32_t)id);
	rte_hash_del_key(rt->by_key, &k);
	if (rt->log != NULL) {
		struct fcr_key tomb = { .kind = FCR_KIND_REDIRECT, .vlan = vlan,
					.k1 = host, .k2 = target };

		fcr_change_deleted(rt->log, &r->sflags, &tomb);
	}
	rt->count--;
	if (r->cutover) {
		/* a ghost: its entries stay until the host and the VI have
		 * logged in again (cutover_end) */
		r->ghost = 1;
		rt->nb_active -= r->state == FCR_RS_ACTIVE;
		r->state = FCR_RS_WAITING;
		return 0;
	}
	fcr_redirect_uninstall(rt, (uint32_t)id);
	fcr_redirect_unref_names(rt, r, (uint32_t)id);
	fcr_redirect_retry_released(rt);
	rt->free_idx[rt->nb_free++] = (uint32_t)id;
	return 0;
}

int
fcr_redirect_restore(struct fcr_redirect_table *rt, uint16_t vlan, uint64_t host,
		     uint64_t target, uint64_t vi, uint64_t vt, int in_cutover)
{
	struct fcr_change_log *log = rt->log;
	int id;

	if (fcr_redirect_find(rt, vlan, host, target) >= 0)
		return -EEXIST;
	/* the file's, not the configuration's: no peer hears of it */
	rt->log = NULL;
	rt->restoring = 1;
	id = fcr_redirect_add(rt, vlan, host, target, vi, vt);
	rt->restoring = 0;
	rt->log = log;
	if (id >= 0) {
		rt->r[id].restored = (uint8_t)(FCR_RESTORED |
					       (in_cutover ? FCR_RESTORED_CUTOVER : 0));
	}
	return id;
}

void
fcr_redirect_settle_restored(struct fcr_redirect_table *rt, unsigned int *kept,
			     unsigned int *recut, unsigned int *removed)
{
	uint32_t i;

	*kept = *recut = *removed = 0;
	for (i = 0; i < rt->capacity; i++) {
		struct fcr_redirect *r = &rt->r[i];
		uint8_t how = r->restored;

		if (!r->in_use || how == 0)
			continue;
		r->restored = 0;
		if (how & FCR_RESTORED) {
			struct fcr_change_log *log = rt->log;
			const struct fcr_binding *e = rt->bindings->entry;

			/* never replicated: its removal is not either */
			rt->log = NULL;
			fcr_redirect_del(rt, r->vlan, e[r->binding[FCR_M_HOST]].wwpn,
					 e[r->binding[FCR_M_TARGET]].wwpn);
			rt->log = log;
			(*removed)++;
		} else if (how & FCR_RESTORED_CUTOVER) {
			rt->path_gen++;
			fcr_cutover_begin(rt, i);
			(*recut)++;
		} else {
			(*kept)++;
		}
	}
}

unsigned int
fcr_redirect_retry_blocked(struct fcr_redirect_table *rt)
{
	unsigned int active = 0;
	uint32_t i;

	if (!rt->blocked)
		return 0;
	rt->blocked = 0;
	for (i = 0; i < rt->capacity; i++) {
		const struct fcr_redirect *r = &rt->r[i];

		if (!r->in_use || (r->state != FCR_RS_CONFLICT && r->state != FCR_RS_NO_ROOM))
			continue;
		rebuild(rt, i);
		active += r->state == FCR_RS_ACTIVE;
	}
	return active;
}

void
fcr_redirect_node_changed(struct fcr_redirect_table *rt, uint32_t name)
{
	const struct fcr_binding *nm = &rt->bindings->entry[name];
	uint32_t i;
	int m;

	for (i = 0; i < nm->nb_refs; i++)
		for (m = 0; m < FCR_M_COUNT; m++)
			if (rt->r[nm->refs[i]].binding[m] == name) {
				__atomic_store_n(&rt->wwnn[nm->refs[i]][m], nm->wwnn,
						 __ATOMIC_RELEASE);
				fcr_paths_update(rt, nm->refs[i]);
			}
}

void
fcr_redirect_binding_changed(struct fcr_redirect_table *rt, uint32_t name)
{
	const struct fcr_binding *nm = &rt->bindings->entry[name];
	uint32_t i;

	for (i = 0; i < nm->nb_refs; i++)
		rebuild(rt, nm->refs[i]);
}

enum fcr_member
fcr_redirect_missing(const struct fcr_redirect_table *rt, uint32_t id)
{
	const struct fcr_redirect *r = &rt->r[id];
	int m;

	for (m = 0; m < FCR_M_COUNT; m++)
		if (rt->bindings->entry[r->binding[m]].fcid == FCR_FCID_NONE)
			return (enum fcr_member)m;
	return FCR_M_COUNT;
}
