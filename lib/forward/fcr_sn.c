/* SPDX-License-Identifier: BSD-3-Clause */
/* Service-node clusters: fcr_sn.h. */
#include <errno.h>
#include <string.h>

#include "fcr_binding.h"
#include "fcr_change.h"
#include "fcr_flow.h"
#include "fcr_key.h"
#include "fcr_redirect.h"
#include "fcr_sn.h"
#include "fcr_tables.h"

int
fcr_cluster_parse(const char *name, uint64_t *cluster)
{
	uint64_t v = 0;
	size_t i, n = strlen(name);

	if (n == 0 || n > FCR_CLUSTER_STRLEN - 1)
		return -1;
	for (i = 0; i < n; i++) {
		char c = name[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-'))
			return -1;
		v |= (uint64_t)(uint8_t)c << (56 - 8 * i);
	}
	*cluster = v;
	return 0;
}

const char *
fcr_cluster_format(uint64_t cluster, char *buf)
{
	int i, n = 0;

	for (i = 0; i < 8; i++) {
		char c = (char)(cluster >> (56 - 8 * i));

		if (c == 0)
			break;
		/* a peer's or a file's number that no name makes: shown as
		 * '?', never as a control byte */
		buf[n++] = (c >= 0x21 && c <= 0x7E) ? c : '?';
	}
	buf[n] = '\0';
	return buf;
}

const char *
fcr_sn_state_name(enum fcr_sn_state s)
{
	switch (s) {
	case FCR_SN_UP:
		return "up";
	case FCR_SN_UNBOUND:
		return "unbound";
	case FCR_SN_STALLED:
		return "not-answering";
	}
	return "?";
}

int
fcr_sn_find(const struct fcr_redirect_table *rt, uint16_t vlan, uint64_t cluster, uint64_t vi)
{
	const struct fcr_sn_table *st = rt->sns;
	uint32_t i;

	for (i = 0; i < FCR_SN_MAX; i++) {
		const struct fcr_sn *s = &st->sn[i];

		if (s->in_use && s->vlan == vlan && s->cluster == cluster && s->vi == vi)
			return (int)i;
	}
	return -ENOENT;
}

int
fcr_sn_ports_taken(const struct fcr_redirect_table *rt, uint16_t vlan, uint64_t cluster,
		   uint64_t vi, uint64_t vt, uint64_t *other)
{
	uint32_t i;

	for (i = 0; i < FCR_SN_MAX; i++) {
		const struct fcr_sn *s = &rt->sns->sn[i];

		if (!s->in_use || s->vlan != vlan || (s->cluster == cluster && s->vi == vi))
			continue;
		/* members of one node share its VT; a VI is one member's */
		if (s->vi == vi || s->vt == vi || s->vi == vt ||
		    (s->vt == vt && s->cluster != cluster)) {
			*other = s->cluster;
			return 1;
		}
	}
	return 0;
}

static uint64_t
wwpn_of(const struct fcr_redirect_table *rt, const struct fcr_redirect *r, enum fcr_member m)
{
	return rt->bindings->entry[r->binding[m]].wwpn;
}

/* A member's pairs by d, and its node's (every member of its VT). */
static void
count_pair(struct fcr_sn_table *st, int slot, int d)
{
	const struct fcr_sn *s = &st->sn[slot];
	uint32_t i;

	st->sn[slot].pairs += (uint32_t)d;
	for (i = 0; i < FCR_SN_MAX; i++) {
		struct fcr_sn *o = &st->sn[i];

		if (o->in_use && o->vlan == s->vlan && o->cluster == s->cluster && o->vt == s->vt)
			o->node_pairs += (uint32_t)d;
	}
}

/* Every member's node_pairs again (a member came, went, or took another VT). */
static void
recount_nodes(struct fcr_sn_table *st)
{
	uint32_t i;

	for (i = 0; i < FCR_SN_MAX; i++)
		st->sn[i].node_pairs = 0;
	for (i = 0; i < FCR_SN_MAX; i++) {
		uint32_t pairs = st->sn[i].pairs;

		if (st->sn[i].in_use && pairs != 0) {
			st->sn[i].pairs = 0;
			count_pair(st, (int)i, (int)pairs);
		}
	}
}

void
fcr_sn_set(struct fcr_redirect_table *rt, uint32_t id, int slot)
{
	struct fcr_redirect *r = &rt->r[id];

	if (r->sn != 0)
		count_pair(rt->sns, (int)r->sn - 1, -1);
	r->sn = slot < 0 ? 0 : (uint32_t)slot + 1;
	r->sn_frames = UINT64_MAX; /* counted from its next look on */
	if (slot >= 0)
		count_pair(rt->sns, slot, 1);
}

static enum fcr_sn_state judge(const struct fcr_redirect_table *rt, struct fcr_sn *s);
static int port_bound(const struct fcr_redirect_table *rt, uint16_t vlan, uint64_t w,
		      uint32_t *logins);

/* Tiebreak among members of equal load: a hash of the target and the VI, so
 * that targets spread and the choice does not depend on slots' order. */
static uint64_t
mix(uint64_t a, uint64_t b)
{
	uint64_t x = a ^ (b * 0x9E3779B97F4A7C15ULL);

	x ^= x >> 31;
	x *= 0xBF58476D1CE4E5B9ULL;
	x ^= x >> 29;
	return x;
}

/* Whether member slot's VI carries no pair to target but self's: the
 * target's frames from a VI are rewritten back to one host by (VI,
 * target), so a VI serves one host of a target. */
static int
vi_free_for(const struct fcr_redirect_table *rt, const struct fcr_binding *tb, int slot,
	    uint32_t self)
{
	uint32_t i;

	for (i = 0; i < tb->nb_refs; i++) {
		const struct fcr_redirect *o = &rt->r[tb->refs[i]];

		if (tb->refs[i] != self && o->in_use && o->sn == (uint32_t)slot + 1 &&
		    o->binding[FCR_M_TARGET] == (uint32_t)(tb - rt->bindings->entry))
			return 0;
	}
	return 1;
}

/* Whether a is a better place than b (-1: none yet): up first, then the
 * target's node, then the fewest pairs, then a hash of the target and the VI
 * (targets spread, whatever the slots' order). */
static int
better(const struct fcr_sn_table *st, int a, int b, uint64_t aff_vt, uint64_t target)
{
	const struct fcr_sn *x = &st->sn[a], *y;

	if (b < 0)
		return 1;
	y = &st->sn[b];
	if ((x->state == FCR_SN_UP) != (y->state == FCR_SN_UP))
		return x->state == FCR_SN_UP;
	if ((x->vt == aff_vt) != (y->vt == aff_vt))
		return x->vt == aff_vt;
	if (x->node_pairs != y->node_pairs)
		return x->node_pairs < y->node_pairs;
	if (x->pairs != y->pairs)
		return x->pairs < y->pairs;
	return mix(target, x->vi) > mix(target, y->vi);
}

int
fcr_sn_place(const struct fcr_redirect_table *rt, uint16_t vlan, uint64_t cluster,
	     uint64_t target, int except, uint32_t self, uint64_t near_vt)
{
	const struct fcr_sn_table *st = rt->sns;
	uint32_t t = fcr_binding_get(rt->bindings, vlan, target, 0);
	const struct fcr_binding *tb = t != FCR_BINDING_NONE ? &rt->bindings->entry[t] : NULL;
	uint64_t aff_vt = 0;
	int best = -ENOENT, any = 0;
	uint32_t i;

	/* the node (VT) the target's other pairs of the cluster are on: an up one first */
	for (i = 0; tb != NULL && i < tb->nb_refs; i++) {
		const struct fcr_redirect *o = &rt->r[tb->refs[i]];
		int s = (int)o->sn - 1;

		if (tb->refs[i] == self || !o->in_use || o->cluster != cluster || s < 0 ||
		    o->binding[FCR_M_TARGET] != t)
			continue;
		if (aff_vt == 0 || st->sn[s].state == FCR_SN_UP)
			aff_vt = st->sn[s].vt;
		if (st->sn[s].state == FCR_SN_UP)
			break;
	}
	if (aff_vt == 0)
		aff_vt = near_vt;
	for (i = 0; i < FCR_SN_MAX; i++) {
		const struct fcr_sn *s = &st->sn[i];

		if (!s->in_use || s->vlan != vlan || s->cluster != cluster || (int)i == except)
			continue;
		any = 1;
		if (tb != NULL && !vi_free_for(rt, tb, (int)i, self))
			continue;
		if (better(st, (int)i, best, aff_vt, target))
			best = (int)i;
	}
	/* a move goes to an up member only */
	if (best >= 0 && except >= 0 && st->sn[best].state != FCR_SN_UP)
		return -ENOENT;
	return best >= 0 ? best : any ? -EBUSY : -ENOENT;
}

/* Put redirect id on member `slot`: its VI and VT become the member's, through
 * a cutover when it had others (fcr_redirect_add). */
static int
put_on(struct fcr_redirect_table *rt, uint32_t id, int slot)
{
	const struct fcr_redirect *r = &rt->r[id];
	const struct fcr_sn *s = &rt->sns->sn[slot];
	int rc = fcr_redirect_add(rt, r->vlan, wwpn_of(rt, r, FCR_M_HOST),
				  wwpn_of(rt, r, FCR_M_TARGET), s->vi, s->vt);

	if (rc < 0)
		return rc;
	fcr_sn_set(rt, id, slot);
	return 0;
}

/* Its cluster and restartable flag, noted for replication when they change. */
static void
set_cluster(struct fcr_redirect_table *rt, uint32_t id, uint64_t cluster, int restartable)
{
	struct fcr_redirect *r = &rt->r[id];

	if (r->cluster == cluster && r->restartable == (restartable != 0))
		return;
	r->cluster = cluster;
	r->restartable = restartable != 0;
	if (rt->log != NULL)
		fcr_change_mark(rt->log, FCR_KIND_REDIRECT, &r->sflags, id);
}

void
fcr_redirect_leave_cluster(struct fcr_redirect_table *rt, uint32_t id)
{
	set_cluster(rt, id, 0, 0);
	fcr_sn_set(rt, id, -1);
}

int
fcr_redirect_add_cluster(struct fcr_redirect_table *rt, uint16_t vlan, uint64_t host,
			 uint64_t target, uint64_t cluster, int restartable, uint64_t pref_vi)
{
	int id = fcr_redirect_find(rt, vlan, host, target);
	int slot = -ENOENT;

	/* the member a peer (or the state file) says it is on */
	if (pref_vi != 0)
		slot = fcr_sn_find(rt, vlan, cluster, pref_vi);
	if (slot < 0 && id >= 0) {
		/* kept where it is when that is a member of the cluster */
		const struct fcr_redirect *r = &rt->r[id];

		slot = fcr_sn_find(rt, vlan, cluster, wwpn_of(rt, r, FCR_M_VI));
		if (slot >= 0 && rt->sns->sn[slot].vt != wwpn_of(rt, r, FCR_M_VT))
			slot = -ENOENT;
	}
	if (slot < 0)
		slot = fcr_sn_place(rt, vlan, cluster, target, -1,
				    id >= 0 ? (uint32_t)id : UINT32_MAX, 0);
	if (slot < 0)
		return slot;
	id = fcr_redirect_add(rt, vlan, host, target, rt->sns->sn[slot].vi,
			      rt->sns->sn[slot].vt);
	if (id < 0)
		return id;
	set_cluster(rt, (uint32_t)id, cluster, restartable);
	fcr_sn_set(rt, (uint32_t)id, slot);
	return id;
}

/* Move redirect id off member `from` (-1: its member was deleted) to an up
 * member of its cluster (none: it stays). Returns 1 when it moved. */
static int
move(struct fcr_redirect_table *rt, uint32_t id, int from)
{
	struct fcr_redirect *r = &rt->r[id];
	const struct fcr_sn *f = from >= 0 ? &rt->sns->sn[from] : NULL;
	uint32_t logins = 0;
	/* its VI gone and its VT there: another VI of the same node first */
	uint64_t near = f != NULL && f->state == FCR_SN_UNBOUND &&
				port_bound(rt, f->vlan, f->vt, &logins) ? f->vt : 0;
	int to = fcr_sn_place(rt, r->vlan, r->cluster, wwpn_of(rt, r, FCR_M_TARGET), from, id,
			      near);
	struct fcr_note n = { .kind = FCR_NOTE_SN_MOVED, .vlan = r->vlan, .redirect = id,
			      .wwpn = wwpn_of(rt, r, FCR_M_HOST), .cluster = r->cluster,
			      .other_wwpn = wwpn_of(rt, r, FCR_M_VI) };

	if (to < 0 || rt->sns->sn[to].state != FCR_SN_UP || put_on(rt, id, to) < 0)
		return 0;
	if (from >= 0)
		rt->sns->sn[from].moved_out++;
	rt->sns->sn[to].moved_in++;
	rt->sns->moves++;
	if (rt->log != NULL)
		fcr_change_mark(rt->log, FCR_KIND_REDIRECT, &r->sflags, id);
	n.new_vi = rt->sns->sn[to].vi;
	fcr_note_tell(rt->note_hook, &n);
	return 1;
}

int
fcr_sn_add(struct fcr_redirect_table *rt, uint16_t vlan, uint64_t cluster, uint64_t vi,
	   uint64_t vt)
{
	struct fcr_sn_table *st = rt->sns;
	int slot = fcr_sn_find(rt, vlan, cluster, vi);
	uint64_t other;
	uint32_t id;

	if (vi == vt || fcr_sn_ports_taken(rt, vlan, cluster, vi, vt, &other))
		return -EINVAL;
	if (slot >= 0) {
		struct fcr_sn *s = &st->sn[slot];

		if (s->vt == vt) {
			s->latched = 0; /* the operator's word: it answers again */
			return slot;
		}
		/* a new VT: its pairs follow it */
		s->vt = vt;
		recount_nodes(st);
		for (id = 0; id < rt->capacity; id++)
			if (rt->r[id].in_use && rt->r[id].sn == (uint32_t)slot + 1)
				put_on(rt, id, slot);
		return slot;
	}
	for (slot = 0; slot < FCR_SN_MAX && st->sn[slot].in_use; slot++)
		;
	if (slot == FCR_SN_MAX)
		return -ENOSPC;
	st->sn[slot] = (struct fcr_sn){ .in_use = 1, .vlan = vlan, .cluster = cluster,
					.vi = vi, .vt = vt, .state = FCR_SN_UNBOUND,
					.since_ms = st->now_ms, .frames_ms = st->now_ms };
	st->sn[slot].state = (uint8_t)judge(rt, &st->sn[slot]);
	st->count++;
	recount_nodes(st);
	return slot;
}

int
fcr_sn_del(struct fcr_redirect_table *rt, uint16_t vlan, uint64_t cluster, uint64_t vi)
{
	struct fcr_sn_table *st = rt->sns;
	int slot = fcr_sn_find(rt, vlan, cluster, vi);
	uint32_t id;

	if (slot < 0)
		return slot;
	for (id = 0; id < rt->capacity && st->sn[slot].pairs != 0; id++)
		if (rt->r[id].in_use && rt->r[id].sn == (uint32_t)slot + 1 &&
		    !move(rt, id, slot))
			fcr_sn_set(rt, id, -1); /* none up: it keeps its VI and VT */
	st->sn[slot].in_use = 0;
	st->count--;
	recount_nodes(st);
	if (rt->log != NULL) {
		struct fcr_key tomb = { .kind = FCR_KIND_SN, .vlan = vlan, .k1 = cluster, .k2 = vi };

		fcr_change_deleted(rt->log, &st->sn[slot].sflags, &tomb);
	}
	return 0;
}

/* A port's binding: *logins its logins; 1 when it is bound. */
static int
port_bound(const struct fcr_redirect_table *rt, uint16_t vlan, uint64_t w, uint32_t *logins)
{
	uint32_t b = fcr_binding_get(rt->bindings, vlan, w, 0);

	if (b == FCR_BINDING_NONE)
		return 0;
	*logins += rt->bindings->entry[b].logins;
	return rt->bindings->entry[b].fcid != FCR_FCID_NONE;
}

/* A member's state from its ports and its pairs' liveness. */
static enum fcr_sn_state
judge(const struct fcr_redirect_table *rt, struct fcr_sn *s)
{
	uint32_t logins = 0;
	int bound = port_bound(rt, s->vlan, s->vi, &logins) &
		    port_bound(rt, s->vlan, s->vt, &logins);

	if (s->stalled != 0 && !s->latched) {
		s->latched = 1;
		s->latch_logins = logins;
	} else if (s->latched && s->stalled == 0 && logins != s->latch_logins) {
		s->latched = 0; /* logged in again: restarted */
	}
	if (!bound)
		return FCR_SN_UNBOUND;
	return s->latched ? FCR_SN_STALLED : FCR_SN_UP;
}

/* Frames on a rule's entry, every worker's. */
static uint64_t
rule_frames(const struct fcr_redirect_table *rt, uint64_t key)
{
	struct fcr_flow_counters c = { 0 };
	int idx = fcr_flow_find(rt->flows, key);

	if (idx >= 0)
		fcr_flow_counters_sum(rt->flows, (uint32_t)idx, &c);
	return c.frames;
}

unsigned int
fcr_sn_tick(struct fcr_redirect_table *rt, uint64_t now_ms, uint64_t failover_ms)
{
	struct fcr_sn_table *st = rt->sns;
	/* the members' frames: a tenth of the redirects a tick, so that no
	 * tick takes a pass of hash lookups over them all; published when a
	 * pass ends (about a second) */
	uint32_t slice = rt->capacity / 10 + 1, lo = st->frames_pos, hi = lo + slice;
	int count_frames = hi >= rt->capacity;
	uint32_t restartable[FCR_SN_MAX];
	uint8_t fail[FCR_SN_MAX];
	unsigned int moved = 0, orphans = 0;
	int any = 0;
	uint32_t i, id;

	st->now_ms = now_ms;
	if (st->count == 0)
		return 0;
	st->frames_pos = count_frames ? 0 : hi;
	for (i = 0; i < FCR_SN_MAX; i++) {
		st->sn[i].stalled = 0;
		restartable[i] = 0;
	}
	for (id = 0; id < rt->capacity; id++) {
		struct fcr_redirect *r = &rt->r[id];

		if (r->in_use && r->sn == 0 && r->cluster != 0)
			orphans++;
		if (!r->in_use || r->sn == 0)
			continue;
		st->sn[r->sn - 1].stalled += r->live.stalled;
		restartable[r->sn - 1] += r->restartable;
		if (id >= lo && id < hi && r->nb_keys == FCR_REDIRECT_KEYS && !r->blocking) {
			uint64_t f = rule_frames(rt, r->key[0]) + rule_frames(rt, r->key[3]);

			/* the frames since its last look on this member (none at
			 * the first: a pair moved in brings its whole past) */
			if (r->sn_frames != UINT64_MAX && f >= r->sn_frames)
				st->sn[r->sn - 1].frames_acc += f - r->sn_frames;
			r->sn_frames = f;
		}
	}
	st->moving = 0;
	for (i = 0; i < FCR_SN_MAX; i++) {
		struct fcr_sn *s = &st->sn[i];
		enum fcr_sn_state now;

		if (!s->in_use)
			continue;
		if (s->since_ms == 0)
			s->since_ms = s->frames_ms = now_ms; /* added before the first tick */
		if (count_frames) {
			uint64_t ms = now_ms - s->frames_ms;

			s->rate = ms != 0 ? s->frames_acc * 1000 / ms : 0;
			s->frames += s->frames_acc;
			s->frames_acc = 0;
			s->frames_ms = now_ms;
		}
		now = judge(rt, s);
		if (now != s->state) {
			struct fcr_note n = { .kind = FCR_NOTE_SN_STATE, .vlan = s->vlan,
					      .redirect = i, .cluster = s->cluster,
					      .wwpn = s->vi, .other_wwpn = s->vt,
					      .old_state = s->state, .new_state = (uint8_t)now,
					      .open = s->pairs };

			s->state = (uint8_t)now;
			s->since_ms = now_ms;
			s->stuck_told = 0;
			fcr_note_tell(rt->note_hook, &n);
		}
	}
	/* failover: a node down for failover_ms gives up its restartable pairs */
	for (i = 0; i < FCR_SN_MAX; i++) {
		struct fcr_sn *s = &st->sn[i];

		fail[i] = s->in_use && s->state != FCR_SN_UP && restartable[i] != 0 &&
			  now_ms - s->since_ms >= failover_ms;
		restartable[i] = 0; /* now: those left on it */
		any |= fail[i];
	}
	for (id = 0; any && id < rt->capacity; id++) {
		struct fcr_redirect *r = &rt->r[id];
		uint32_t from = r->sn - 1;

		if (!r->in_use || r->sn == 0 || !r->restartable || !fail[from])
			continue;
		if (move(rt, id, (int)from))
			moved++;
		else
			restartable[from]++;
	}
	/* pairs whose member was deleted with none up to take them: on an up
	 * member as soon as there is one */
	for (id = 0; orphans != 0 && id < rt->capacity; id++) {
		const struct fcr_redirect *r = &rt->r[id];

		if (!r->in_use || r->sn != 0 || r->cluster == 0)
			continue;
		orphans--;
		moved += (unsigned int)move(rt, id, -1);
	}
	for (i = 0; any && i < FCR_SN_MAX; i++) {
		struct fcr_sn *s = &st->sn[i];

		st->moving += restartable[i];
		if (restartable[i] != 0 && !s->stuck_told) {
			/* said once while it stays down; tried again each tick */
			struct fcr_note n = { .kind = FCR_NOTE_SN_MOVED, .vlan = s->vlan,
					      .redirect = UINT32_MAX, .cluster = s->cluster,
					      .other_wwpn = s->vi, .open = restartable[i] };

			s->stuck_told = 1;
			st->stuck++;
			fcr_note_tell(rt->note_hook, &n);
		}
	}
	return moved;
}

void
fcr_tables_sn(struct fcr_tables *t, uint64_t now_ms, uint64_t failover_ms)
{
	uint64_t stuck = t->redirects->sns->stuck;

	t->st.sn_moves += fcr_sn_tick(t->redirects, now_ms, failover_ms);
	t->st.sn_failovers_stuck += t->redirects->sns->stuck - stuck;
}
