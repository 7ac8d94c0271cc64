/* SPDX-License-Identifier: BSD-3-Clause */
#include "fcr_paths.h"

#include <stdio.h>
#include <string.h>

#include <rte_hash.h>
#include <rte_hash_crc.h>
#include <rte_malloc.h>

#include "fcr_redirect.h"
#include "fcr_tables.h"

struct group_key {
	uint64_t host_node;
	uint64_t target_node;
	uint32_t vlan;            /* 32 bits: no padding in the key */
	uint32_t zero;
};

struct fcr_paths *
fcr_paths_create(const char *name, uint32_t capacity, int socket)
{
	char hname[RTE_HASH_NAMESIZE];
	struct rte_hash_parameters hp = {
		.entries = capacity < 8 ? 8 : capacity, .key_len = sizeof(struct group_key),
		.hash_func = rte_hash_crc, .socket_id = socket,
	};
	struct fcr_paths *p = rte_zmalloc_socket(NULL, sizeof(*p), 0, socket);

	if (p == NULL)
		return NULL;
	snprintf(hname, sizeof(hname), "%s_mp", name);
	hp.name = hname;
	p->entries = hp.entries;
	p->h = rte_hash_create(&hp);
	p->g = rte_zmalloc_socket(NULL, sizeof(*p->g) * hp.entries, 0, socket);
	p->node_refs = rte_zmalloc_socket(NULL, 1u << FCR_PATHS_NODE_BITS, 0, socket);
	if (p->h == NULL || p->g == NULL || p->node_refs == NULL) {
		fcr_paths_free(p);
		return NULL;
	}
	return p;
}

void
fcr_paths_free(struct fcr_paths *p)
{
	if (p == NULL)
		return;
	rte_hash_free(p->h);
	rte_free(p->g);
	rte_free(p->node_refs);
	rte_free(p);
}

static inline uint32_t
node_slot(uint64_t wwnn)
{
	return (uint32_t)((wwnn * 0x9E3779B97F4A7C15ull) >> (64 - FCR_PATHS_NODE_BITS));
}

/* A group's nodes counted in or out; a count that reached 255 stays (the
 * filter then lets that slot's flows through to the lookups: only slower) */
static void
nodes_count(struct fcr_paths *p, const struct group_key *k, int in)
{
	uint8_t *c[2] = { &p->node_refs[node_slot(k->host_node)],
			  &p->node_refs[node_slot(k->target_node)] };
	unsigned int i;

	for (i = 0; i < 2; i++)
		if (*c[i] != UINT8_MAX)
			*c[i] = (uint8_t)(*c[i] + (in ? 1 : -1));
}

void
fcr_paths_update(struct fcr_redirect_table *rt, uint32_t id)
{
	struct fcr_redirect *r = &rt->r[id];
	struct fcr_paths *p = rt->paths;
	struct group_key k = {
		.host_node = rt->wwnn[id][FCR_M_HOST], .target_node = rt->wwnn[id][FCR_M_TARGET],
		.vlan = r->vlan,
	};
	int want = r->in_use && !r->ghost && r->state == FCR_RS_ACTIVE && k.host_node != 0 &&
		   k.target_node != 0;
	int32_t pos = want ? rte_hash_lookup(p->h, &k) : -1;

	/* in its group already, or in none and wanting none */
	if (r->path_group != 0 && pos == (int32_t)r->path_group - 1)
		return;
	if (r->path_group == 0 && !want)
		return;
	if (r->path_group != 0) {
		struct fcr_path_group *g = &p->g[r->path_group - 1];

		if (--g->members == 0) {
			struct group_key old;
			void *kp;

			if (rte_hash_get_key_with_position(p->h, (int32_t)r->path_group - 1,
							   &kp) == 0) {
				memcpy(&old, kp, sizeof(old));
				nodes_count(p, &old, 0);
				rte_hash_del_key(p->h, &old);
			}
			memset(g, 0, sizeof(*g));
		}
		r->path_group = 0;
	}
	if (!want)
		return;
	if (pos < 0) {
		pos = rte_hash_add_key(p->h, &k);
		if (pos < 0)
			return; /* no room: as many groups as redirects, not expected */
		memset(&p->g[pos], 0, sizeof(p->g[pos]));
		nodes_count(p, &k, 1);
	}
	p->g[pos].members++;
	r->path_group = (uint32_t)pos + 1;
}

/* The group whose nodes a flow joins, either way; -1 for none. */
static int32_t
flow_group(const struct fcr_tables *t, uint64_t key)
{
	const struct fcr_binding_table *bt = t->redirects->bindings;
	const uint8_t *refs = t->redirects->paths->node_refs;
	uint16_t vlan = fcr_flow_key_vlan(key);
	uint32_t a = fcr_binding_by_fcid(bt, vlan, fcr_flow_key_sid(key)), b;
	struct group_key k = { .vlan = vlan };
	int32_t pos;

	if (a == FCR_BINDING_NONE || bt->entry[a].wwnn == 0 ||
	    refs[node_slot(bt->entry[a].wwnn)] == 0)
		return -1;
	b = fcr_binding_by_fcid(bt, vlan, fcr_flow_key_did(key));
	if (b == FCR_BINDING_NONE || bt->entry[b].wwnn == 0 ||
	    refs[node_slot(bt->entry[b].wwnn)] == 0)
		return -1;
	k.host_node = bt->entry[a].wwnn;
	k.target_node = bt->entry[b].wwnn;
	pos = rte_hash_lookup(t->redirects->paths->h, &k);
	if (pos >= 0)
		return pos;
	k.host_node = bt->entry[b].wwnn;
	k.target_node = bt->entry[a].wwnn;
	return rte_hash_lookup(t->redirects->paths->h, &k);
}

int
fcr_paths_flow_added(struct fcr_tables *t, uint64_t key)
{
	struct fcr_paths *p = t->redirects->paths;
	struct fcr_path_group *g;
	int32_t pos;

	if (rte_hash_count(p->h) == 0)
		return 0;
	pos = flow_group(t, key);
	if (pos < 0)
		return 0;
	g = &p->g[pos];
	t->st.multipath_unredirected++;
	if (g->unredirected++ == 0) {
		const struct fcr_binding_table *bt = t->redirects->bindings;
		uint16_t vlan = fcr_flow_key_vlan(key);
		struct fcr_note n = {
			.kind = FCR_NOTE_MULTIPATH, .vlan = vlan,
			.fcid = fcr_flow_key_sid(key), .old_fcid = fcr_flow_key_did(key),
		};
		uint32_t a = fcr_binding_by_fcid(bt, vlan, n.fcid),
			 b = fcr_binding_by_fcid(bt, vlan, n.old_fcid);

		n.wwpn = bt->entry[a].wwpn;
		n.other_wwpn = bt->entry[b].wwpn;
		fcr_note_tell(t->redirects->note_hook, &n);
	}
	g->example = key;
	return 1;
}

void
fcr_paths_tick(struct fcr_tables *t, uint32_t budget)
{
	const struct fcr_flow_table *ft = t->flows;
	struct fcr_paths *p = t->redirects->paths;
	uint32_t n = 0;

	if (rte_hash_count(p->h) == 0) {
		p->iter = 0;
		return;
	}
	while (n++ < budget) {
		int idx = fcr_flow_next(ft, &p->iter);
		int32_t pos;
		uint32_t i;

		if (idx < 0) {
			/* the pass is over: its counts are the groups' */
			for (i = 0; i < p->entries; i++) {
				p->g[i].unredirected = p->g[i].counting;
				p->g[i].counting = 0;
			}
			p->iter = 0;
			return;
		}
		if (ft->owner[idx] != FCR_NO_OWNER)
			continue;
		pos = flow_group(t, ft->key[idx]);
		if (pos >= 0) {
			p->g[pos].counting++;
			p->g[pos].example = ft->key[idx];
		}
	}
}

unsigned int
fcr_paths_members(const struct fcr_redirect_table *rt, uint32_t id, uint32_t *ids,
		  unsigned int max)
{
	const struct fcr_binding *e = rt->bindings->entry;
	const struct fcr_redirect *r = &rt->r[id];
	uint64_t hn = e[r->binding[FCR_M_HOST]].wwnn, tn = e[r->binding[FCR_M_TARGET]].wwnn;
	unsigned int n = 0;
	uint32_t i;

	if (max == 0 || !r->in_use)
		return 0;
	ids[n++] = id;
	if (hn == 0 || tn == 0)
		return n;
	for (i = 0; i < rt->capacity && n < max; i++) {
		const struct fcr_redirect *o = &rt->r[i];

		if (i != id && o->in_use && o->vlan == r->vlan &&
		    e[o->binding[FCR_M_HOST]].wwnn == hn && e[o->binding[FCR_M_TARGET]].wwnn == tn)
			ids[n++] = i;
	}
	return n;
}

uint32_t
fcr_paths_unredirected(const struct fcr_redirect_table *rt, uint32_t id, uint64_t *example)
{
	const struct fcr_redirect *r = &rt->r[id];
	const struct fcr_path_group *g;

	if (r->path_group == 0)
		return 0;
	g = &rt->paths->g[r->path_group - 1];
	*example = g->example;
	return g->unredirected;
}
