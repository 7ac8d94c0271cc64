/* SPDX-License-Identifier: BSD-3-Clause */
/* A redirect's cutover: its pair's drain, the tick, what must be told to
 * whom (fcr_cutover.h). */
#include <inttypes.h>
#include <string.h>

#include <rte_rcu_qsbr.h>

#include "fcr_text.h"

#include "fcr_cutover.h"
#include "fcr_redirect_priv.h"
#include "fcr_tables.h"

static void drain_begin(struct fcr_redirect_table *rt, uint32_t id);

/* ---- the decisions (pure) ------------------------------------------- */

const char *
fcr_cut_state_name(enum fcr_cut_state s)
{
	static const char *const names[FCR_CUT_STATES] = {
		"idle", "draining host", "draining vi", "telling vi",
		"until vi logs in again through the new path", "telling host",
		"until host logs in again",
	};

	return (unsigned int)s < FCR_CUT_STATES ? names[s] : "?";
}

static struct fcr_cut_step
step(enum fcr_cut_state s, uint16_t actions)
{
	return (struct fcr_cut_step){ .state = (uint8_t)s, .actions = actions };
}

struct fcr_cut_step
fcr_cutover_step(enum fcr_cut_state s, enum fcr_cut_event ev, const struct fcr_cut_in *in)
{
	int draining = s == FCR_CUT_DRAIN_HOST || s == FCR_CUT_DRAIN_VI;
	/* drained: the VI of a new path first, so that it is the target's
	 * again before the host's commands reach the service node (which
	 * would wait on a VI still logging in, and the host time out) */
	enum fcr_cut_state telling = in->vi_first ? FCR_CUT_TELLING_VI : FCR_CUT_TELLING;
	uint16_t tell = in->vi_first ? FCR_CUT_A_TELL_VI : FCR_CUT_A_TELL;

	if (s == FCR_CUT_IDLE) {
		if (ev != FCR_CUT_EV_CHANGE)
			return step(s, 0);
		/* nobody would be told when it drained: the new path at once */
		if (!in->clearable)
			return step(FCR_CUT_IDLE, FCR_CUT_A_NEW_PATH);
		/* blocked or unbound: nothing open, drained at once */
		if (!in->host_keys)
			return step(telling, FCR_CUT_A_RESET_TICKS | tell);
		return step(FCR_CUT_DRAIN_HOST, FCR_CUT_A_RESET_TICKS | FCR_CUT_A_HOLD_HOST);
	}
	switch (ev) {
	case FCR_CUT_EV_CHANGE:
		return step(s, 0); /* joins it */
	case FCR_CUT_EV_DRAINED:
		if (s == FCR_CUT_DRAIN_HOST && in->vi_keys)
			return step(FCR_CUT_DRAIN_VI, FCR_CUT_A_HOLD_VI);
		if (draining)
			return step(telling, FCR_CUT_A_RESET_TICKS | tell);
		return step(s, 0);
	case FCR_CUT_EV_TICK:
		if (draining && in->ticks + 1 >= FCR_DRAIN_TICKS)
			return step(telling, FCR_CUT_A_DRAIN_TIMEOUT | FCR_CUT_A_RESET_TICKS | tell);
		if (s == FCR_CUT_VI_TOLD && in->ticks + 1 >= FCR_VI_TICKS)
			return step(FCR_CUT_TELLING, FCR_CUT_A_VI_TIMEOUT | FCR_CUT_A_RESET_TICKS |
				    FCR_CUT_A_TELL);
		if (s == FCR_CUT_TOLD && in->ticks + 1 >= FCR_CUTOVER_TICKS)
			return step(FCR_CUT_IDLE, FCR_CUT_A_CUTOVER_TIMEOUT | FCR_CUT_A_NEW_PATH);
		return step(s, 0);
	case FCR_CUT_EV_TOLD:
		if (s == FCR_CUT_TELLING_VI)
			return step(FCR_CUT_VI_TOLD, FCR_CUT_A_RESET_TICKS | FCR_CUT_A_VI_PATH);
		if (s != FCR_CUT_TELLING)
			return step(s, 0);
		return step(FCR_CUT_TOLD, FCR_CUT_A_RESET_TICKS | (in->plain ? FCR_CUT_A_BLOCK : 0));
	case FCR_CUT_EV_UNTOLD:
		/* the VI cannot come first: the host now, as when not */
		if (s == FCR_CUT_TELLING_VI)
			return step(FCR_CUT_TELLING, FCR_CUT_A_TELL);
		if (s != FCR_CUT_TELLING)
			return step(s, 0);
		return step(FCR_CUT_IDLE, FCR_CUT_A_NEW_PATH);
	case FCR_CUT_EV_VI_BACK:
		if (s != FCR_CUT_VI_TOLD)
			return step(s, 0);
		return step(FCR_CUT_TELLING, FCR_CUT_A_RESET_TICKS | FCR_CUT_A_TELL);
	case FCR_CUT_EV_HOST_BACK:
		/* its new login ended its exchanges: nothing left to wait for */
	case FCR_CUT_EV_MEMBER_GONE:
		/* the pair fails closed (a ghost's goes plain) at once */
		return step(FCR_CUT_IDLE, FCR_CUT_A_NEW_PATH);
	default:
		return step(s, 0);
	}
}

/* The pair's plain entries a new redirect's drain took over (host ->
 * target, target -> host), not blocking ones. */
static int
plain_held(const struct fcr_redirect *r)
{
	return r->nb_keys == 2 && !r->blocking;
}

/* Where in key[] an exchange of the host (FCR_DRAIN_HOST) or of the VI
 * begins (its commands) and ends (their FCP_RSP, or a BA_ACC): the
 * four rules in rule_keys' order, or the plain pair a drain took (host ->
 * target, target -> host). 0 when the redirect has no such keys. */
static int
exchange_keys(const struct fcr_redirect *r, int who, int *begin, int *end)
{
	if (r->blocking)
		return 0;
	if (r->nb_keys == FCR_REDIRECT_KEYS) {
		*begin = who == FCR_DRAIN_HOST ? 0 : 1;
		*end = who == FCR_DRAIN_HOST ? 3 : 2;
		return 1;
	}
	if (plain_held(r) && who == FCR_DRAIN_HOST) {
		*begin = 0;
		*end = 1;
		return 1;
	}
	return 0;
}

/* Exchanges begun less ended on those keys since the entries exist
 * (modulo 2^32, as the workers count). */
uint32_t
fcr_cutover_exchanges(const struct fcr_redirect_table *rt, const struct fcr_redirect *r,
		      int who)
{
	struct fcr_flow_exchanges c;
	uint32_t n = 0;
	int b, e, idx;

	if (!exchange_keys(r, who, &b, &e))
		return 0;
	idx = fcr_flow_find(rt->flows, r->key[b]);
	if (idx >= 0) {
		fcr_flow_exchanges_sum(rt->flows, (uint32_t)idx, &c);
		n += c.cmnds;
	}
	idx = fcr_flow_find(rt->flows, r->key[e]);
	if (idx >= 0) {
		fcr_flow_exchanges_sum(rt->flows, (uint32_t)idx, &c);
		n -= c.ends;
	}
	return n;
}

static uint64_t
open_exchanges(const struct fcr_redirect_table *rt, const struct fcr_redirect *r, int who)
{
	int32_t n = (int32_t)(fcr_cutover_exchanges(rt, r, who) - r->xbase[who - 1]);

	/* below zero: an exchange that began before its entry existed */
	return n > 0 ? (uint64_t)n : 0;
}

/* Begun less ended, clamped at 0 (a key whose entry came mid-exchange). */
static uint64_t
clamp_open(uint32_t n)
{
	return (int32_t)n > 0 ? n : 0;
}

uint64_t
fcr_cutover_pair_open(const struct fcr_tables *t, uint16_t vlan, uint64_t host,
		      uint64_t target)
{
	const struct fcr_redirect_table *rt = t->redirects;
	const struct fcr_binding *h, *g;
	struct fcr_flow_exchanges c;
	uint32_t nh, nt, n = 0;
	int id = fcr_redirect_find(rt, vlan, host, target), idx;

	if (id >= 0 && rt->r[id].nb_keys == FCR_REDIRECT_KEYS)
		return clamp_open(fcr_cutover_exchanges(rt, &rt->r[id], FCR_DRAIN_HOST)) +
		       clamp_open(fcr_cutover_exchanges(rt, &rt->r[id], FCR_DRAIN_VI));
	/* plain: the host's commands to the target less the target's ends */
	nh = fcr_binding_get(t->bindings, vlan, host, 0);
	nt = fcr_binding_get(t->bindings, vlan, target, 0);
	if (nh == FCR_BINDING_NONE || nt == FCR_BINDING_NONE)
		return 0;
	h = &t->bindings->entry[nh];
	g = &t->bindings->entry[nt];
	if (h->fcid == FCR_FCID_NONE || g->fcid == FCR_FCID_NONE)
		return 0;
	idx = fcr_flow_find(t->flows, fcr_flow_key(vlan, h->fcid, g->fcid));
	if (idx >= 0) {
		fcr_flow_exchanges_sum(t->flows, (uint32_t)idx, &c);
		n += c.cmnds;
	}
	idx = fcr_flow_find(t->flows, fcr_flow_key(vlan, g->fcid, h->fcid));
	if (idx >= 0) {
		fcr_flow_exchanges_sum(t->flows, (uint32_t)idx, &c);
		n -= c.ends;
	}
	return clamp_open(n);
}

uint64_t
fcr_redirect_open(const struct fcr_redirect_table *rt, uint32_t id)
{
	const struct fcr_redirect *r = &rt->r[id];

	return r->draining ? open_exchanges(rt, r, r->draining) : 0;
}

static void cut_event(struct fcr_redirect_table *rt, uint32_t id, enum fcr_cut_event ev,
		      const struct fcr_cut_in *in);

/* The new VI's way to the target open again (its rule, once in, keeps
 * the entry). */
static void
vi_unblock(struct fcr_redirect_table *rt, uint32_t id)
{
	struct fcr_redirect *r = &rt->r[id];
	int i, idx;

	if (r->vi_block == 0)
		return;
	for (i = 0; i < r->nb_keys; i++)
		if (r->key[i] == r->vi_block)
			break;
	idx = fcr_flow_find(rt->flows, r->vi_block);
	if (i == r->nb_keys && idx >= 0 && rt->flows->owner[idx] == id) {
		fcr_flow_del(rt->flows, r->vi_block);
		rt->released++;
	}
	r->vi_block = 0;
}

/* The VIs a note names: that of the rules in place (whose exchanges
 * drain; the redirect's own when it has none), and a new one that
 * replaces it (told too: it must log in to the target through the new
 * rules, as the host). */
static void
vis(const struct fcr_redirect_table *rt, uint32_t id, struct fcr_note *n)
{
	const struct fcr_redirect *r = &rt->r[id];
	uint64_t vi = rt->bindings->entry[r->binding[FCR_M_VI]].wwpn;

	n->other_wwpn = vi;
	n->new_vi = 0;
	if (r->nb_keys == FCR_REDIRECT_KEYS && !r->blocking && rt->wwpn[id][FCR_M_VI] != vi) {
		n->other_wwpn = rt->wwpn[id][FCR_M_VI];
		n->new_vi = vi;
	}
}

/* A changed redirect keeps its old rules through its cutover: a new VI
 * (told with the host) must not log in to the target as itself before
 * the rules that make it the host are in, so its way to the target is
 * blocked meanwhile, as a new redirect's VI's is. */
void
fcr_cutover_block_vi(struct fcr_redirect_table *rt, uint32_t id)
{
	struct fcr_redirect *r = &rt->r[id];
	const struct fcr_binding *e = rt->bindings->entry;
	uint32_t vi = e[r->binding[FCR_M_VI]].fcid, t = e[r->binding[FCR_M_TARGET]].fcid;
	uint64_t k;
	int i;

	if (!r->cutover || r->ghost || r->nb_keys != FCR_REDIRECT_KEYS || r->blocking ||
	    vi == FCR_FCID_NONE || t == FCR_FCID_NONE ||
	    rt->wwpn[id][FCR_M_VI] == e[r->binding[FCR_M_VI]].wwpn)
		return;
	k = fcr_flow_key(r->vlan, vi, t);
	for (i = 0; i < r->nb_keys; i++)
		if (r->key[i] == k)
			return;
	if (r->vi_block == k || fcr_redirect_owned_by_other(rt, id, k))
		return;
	if (r->vi_block != 0)
		vi_unblock(rt, id);
	if (fcr_flow_set(rt->flows, k, fcr_action(vi, t, FCR_LEG_BLOCKED), id) >= 0)
		r->vi_block = k;
}
static void drain_step(struct fcr_redirect_table *rt, uint32_t id);

/* The new path has a VI to log in to the target through it before the
 * host comes: a redirect (not one being deleted, or its ghost) whose VI
 * and VT are bound. */
static uint8_t
vi_first(const struct fcr_redirect_table *rt, const struct fcr_redirect *r)
{
	const struct fcr_binding *e = rt->bindings->entry;

	return r->in_use && !r->ghost && r->binding[FCR_M_VI] != FCR_BINDING_NONE &&
	       r->binding[FCR_M_VT] != FCR_BINDING_NONE &&
	       e[r->binding[FCR_M_VI]].fcid != FCR_FCID_NONE &&
	       e[r->binding[FCR_M_VT]].fcid != FCR_FCID_NONE;
}

/* Frames the rule target -> host (to the VI on the new path) carried. */
static uint64_t
vi_frames(const struct fcr_redirect_table *rt, const struct fcr_redirect *r)
{
	const struct fcr_binding *e = rt->bindings->entry;
	struct fcr_flow_counters c;
	int idx = fcr_flow_find(rt->flows, fcr_flow_key(r->vlan, e[r->binding[FCR_M_TARGET]].fcid,
							e[r->binding[FCR_M_HOST]].fcid));

	if (idx < 0)
		return 0;
	fcr_flow_counters_sum(rt->flows, (uint32_t)idx, &c);
	return c.frames;
}

/* The VI told first is back: logged in again, and the target answered
 * its logins through the new path (FCR_VI_BACK_FRAMES to it since). */
static int
vi_back(const struct fcr_redirect_table *rt, const struct fcr_redirect *r)
{
	const struct fcr_binding *v = &rt->bindings->entry[r->binding[FCR_M_VI]];

	return v->fcid != FCR_FCID_NONE && v->logins != r->vi_logins &&
	       vi_frames(rt, r) - r->vi_frames >= FCR_VI_BACK_FRAMES;
}

/* FCR_CUT_EV_VI_BACK when the VI told first is back (asked on its login
 * and on each tick: the target's answers come after the login); 1 when. */
static int
vi_back_event(struct fcr_redirect_table *rt, uint32_t id, const struct fcr_cut_in *in)
{
	if (rt->r[id].cut_state != FCR_CUT_VI_TOLD || !vi_back(rt, &rt->r[id]))
		return 0;
	cut_event(rt, id, FCR_CUT_EV_VI_BACK, in);
	return 1;
}

/* The operator changed the path of a pair whose host and target are bound:
 * exchanges open on the old path must not go on on the new one. When
 * whoever hears it can make the host log in again (which ends its
 * exchanges; fcr_redirect_cutover_told), the pair is in a cutover: it
 * first drains (no new exchange begins, the open ones end on the path
 * they began on), then the host and the VI are told (FCR_NOTE_DRAINED),
 * and it keeps its old path until the host has logged in again: what the
 * host sent before its new login goes where its exchange began, what it
 * sends after takes the new path. One already in a cutover stays in it:
 * the host's new login takes the newest path. */
void
fcr_cutover_begin(struct fcr_redirect_table *rt, uint32_t id)
{
	struct fcr_redirect *r = &rt->r[id];
	const struct fcr_binding *e = rt->bindings->entry;
	struct fcr_cut_in in = { 0 };
	struct fcr_note note;
	int b, x;

	/* a redirect half made (no room for a member) names no one */
	if (r->binding[FCR_M_HOST] == FCR_BINDING_NONE ||
	    r->binding[FCR_M_TARGET] == FCR_BINDING_NONE ||
	    r->binding[FCR_M_VI] == FCR_BINDING_NONE ||
	    e[r->binding[FCR_M_HOST]].fcid == FCR_FCID_NONE ||
	    e[r->binding[FCR_M_TARGET]].fcid == FCR_FCID_NONE)
		return;
	if (r->cut_state != FCR_CUT_IDLE) {
		cut_event(rt, id, FCR_CUT_EV_CHANGE, &in);
		return;
	}
	note = (struct fcr_note){
		.kind = FCR_NOTE_CUTOVER, .vlan = r->vlan, .redirect = id,
		.wwpn = e[r->binding[FCR_M_HOST]].wwpn,
	};
	vis(rt, id, &note);
	rt->cut_sent = 0;
	fcr_note_tell(rt->note_hook, &note);
	in.clearable = rt->cut_sent != 0;
	if (in.clearable)
		drain_begin(rt, id);
	in.host_keys = (uint8_t)exchange_keys(r, FCR_DRAIN_HOST, &b, &x);
	in.vi_first = vi_first(rt, r);
	cut_event(rt, id, FCR_CUT_EV_CHANGE, &in);
	drain_step(rt, id); /* nothing open: drained at once */
}

/* No longer draining (drained, or its cutover over). */
static void
drain_end(struct fcr_redirect_table *rt, uint32_t id)
{
	struct fcr_redirect *r = &rt->r[id];
	uint32_t last;

	if (!r->draining)
		return;
	r->draining = 0;
	last = rt->drain_list[--rt->nb_draining];
	rt->drain_list[r->drain_pos] = last;
	rt->r[last].drain_pos = r->drain_pos;
}

/* ---- the drain's exchange sets (FCR_ACTION_DRAIN) ------------------- */

/* A free exchange set, cleared, that no worker can still be writing (its
 * release passed by every worker); -1 when none. */
static int
xset_take(struct fcr_redirect_table *rt)
{
	unsigned int s;

	for (s = 0; s < FCR_DRAIN_SETS; s++) {
		if (rt->set_used[s])
			continue;
		if (rt->flows->qsbr != NULL &&
		    rte_rcu_qsbr_check(rt->flows->qsbr, rt->set_token[s], false) != 1)
			continue;
		memset(rt->xsets[s], 0, sizeof(rt->xsets[s]));
		rt->set_used[s] = 1;
		return (int)s;
	}
	return -1;
}

/* The cutover is over: its set goes back (its entries rewritten before). */
static void
xset_release(struct fcr_redirect_table *rt, struct fcr_redirect *r)
{
	if (r->xset == 0)
		return;
	rt->set_used[r->xset - 1] = 0;
	rt->set_token[r->xset - 1] = rt->flows->qsbr != NULL ?
				     rte_rcu_qsbr_start(rt->flows->qsbr) : 0;
	r->xset = 0;
}

/* key[k]'s action with `bits` or'ed in, when the redirect holds it. */
static void
mark(struct fcr_redirect_table *rt, uint32_t id, int k, uint64_t bits)
{
	const struct fcr_redirect *r = &rt->r[id];
	int idx = fcr_flow_find(rt->flows, r->key[k]);

	if (idx >= 0 && rt->flows->owner[idx] == id)
		fcr_flow_set(rt->flows, r->key[k], rt->flows->action[idx] | bits, id);
}

/* The pair drains per exchange: each of its entries that carries the
 * host's or the VI's exchanges is told which set and which way. Keys in
 * rule_keys' order: host -> target (the host sends), VI -> target (the
 * VI sends), target -> host (to the VI), VT -> host (to the host); or the
 * plain pair a drain took: host -> target, target -> host. */
static void
xset_mark(struct fcr_redirect_table *rt, uint32_t id)
{
	struct fcr_redirect *r = &rt->r[id];
	uint64_t set;
	int s;

	if (r->blocking || (r->nb_keys != FCR_REDIRECT_KEYS && !plain_held(r)))
		return;
	s = xset_take(rt);
	if (s < 0) {
		rt->drains_per_flow++;
		return;
	}
	r->xset = (uint8_t)(s + 1);
	set = FCR_ACTION_DRAIN | (uint64_t)s << FCR_ACTION_DRAIN_SHIFT;
	mark(rt, id, 0, set);
	if (plain_held(r)) {
		mark(rt, id, 1, set | FCR_ACTION_DRAIN_TO);
		return;
	}
	mark(rt, id, 1, set | FCR_ACTION_DRAIN_VI);
	mark(rt, id, 2, set | FCR_ACTION_DRAIN_VI | FCR_ACTION_DRAIN_TO);
	mark(rt, id, 3, set | FCR_ACTION_DRAIN_TO);
}

unsigned int
fcr_redirect_held_exchanges(const struct fcr_redirect_table *rt, uint32_t id)
{
	const struct fcr_redirect *r = &rt->r[id];
	unsigned int n = 0, i, who;

	if (r->xset == 0)
		return 0;
	for (who = 0; who < 2; who++)
		for (i = 0; i < FCR_DRAIN_SET_WORDS; i++)
			n += (unsigned int)__builtin_popcountll(
				__atomic_load_n(&rt->xsets[r->xset - 1][who][i], __ATOMIC_RELAXED));
	return n;
}

/* The cutover is over: the new path. A ghost's entries go with it. */
static void
cutover_end(struct fcr_redirect_table *rt, uint32_t id)
{
	struct fcr_redirect *r = &rt->r[id];

	drain_end(rt, id);
	r->cutover = 0;
	r->vi_told = r->vi_path = 0;
	rt->nb_cutover--;
	rt->path_gen++;
	if (!r->ghost) {
		fcr_redirect_install_noted(rt, id, r->state);
		vi_unblock(rt, id);
		xset_release(rt, r);
		return;
	}
	r->ghost = 0;
	fcr_redirect_uninstall(rt, id);
	vi_unblock(rt, id);
	xset_release(rt, r);
	fcr_redirect_unref_names(rt, r, id);
	fcr_redirect_retry_released(rt);
	rt->free_idx[rt->nb_free++] = id;
}

/* Hold the FCP commands on key[k]: nothing new begins there. */
static void
hold(struct fcr_redirect_table *rt, uint32_t id, int k)
{
	const struct fcr_redirect *r = &rt->r[id];
	int idx = fcr_flow_find(rt->flows, r->key[k]);

	if (idx >= 0)
		fcr_flow_set(rt->flows, r->key[k], rt->flows->action[idx] | FCR_ACTION_HOLD, id);
}

/* A worker that read an entry before its hold may still be sending a
 * command it let through: the drain counts once every worker is past. */
static uint64_t
hold_token(const struct fcr_redirect_table *rt)
{
	return rt->flows->qsbr != NULL ? rte_rcu_qsbr_start(rt->flows->qsbr) : 0;
}

static int
hold_seen(const struct fcr_redirect_table *rt, const struct fcr_redirect *r)
{
	return rt->flows->qsbr == NULL ||
	       rte_rcu_qsbr_check(rt->flows->qsbr, r->drain_token, false) == 1;
}

/* FCR_CUT_A_TELL_VI, FCR_CUT_A_TELL: the VIs, the host, or both (`who`,
 * FCR_TELL_*) are told to log in again now (FCR_NOTE_DRAINED); whether
 * the awaited one was (the VI the new path uses, or the host) is the next
 * event. */
static void
tell(struct fcr_redirect_table *rt, uint32_t id, int timed_out, uint8_t who)
{
	struct fcr_redirect *r = &rt->r[id];
	const struct fcr_binding *e = rt->bindings->entry;
	struct fcr_note note = {
		.kind = FCR_NOTE_DRAINED, .vlan = r->vlan, .redirect = id,
		.wwpn = e[r->binding[FCR_M_HOST]].wwpn,
		.timed_out = (uint8_t)timed_out, .tell = who,
	};
	struct fcr_cut_in in = { .plain = (uint8_t)(!r->ghost && plain_held(r)) };

	vis(rt, id, &note);
	drain_end(rt, id);
	if (who == FCR_TELL_VI) {
		r->vi_told = 1;
		r->vi_logins = e[r->binding[FCR_M_VI]].logins;
	}
	rt->cut_sent = 0;
	fcr_note_tell(rt->note_hook, &note);
	cut_event(rt, id, rt->cut_sent ? FCR_CUT_EV_TOLD : FCR_CUT_EV_UNTOLD, &in);
}

/* Into the drain list, the hold on key[k] seen by every worker first. */
static void
drain_hold(struct fcr_redirect_table *rt, uint32_t id, int k, int who)
{
	struct fcr_redirect *r = &rt->r[id];

	hold(rt, id, k);
	if (!r->draining) {
		r->drain_pos = rt->nb_draining;
		rt->drain_list[rt->nb_draining++] = id;
	}
	r->draining = (uint8_t)who;
	r->drain_token = hold_token(rt);
}

/*
 * One event: the decision (fcr_cutover_step), then its actions carried
 * out on the tables, in order. A redirect leaving FCR_CUT_IDLE is in a
 * cutover (nb_cutover) until FCR_CUT_A_NEW_PATH.
 */
static void
cut_event(struct fcr_redirect_table *rt, uint32_t id, enum fcr_cut_event ev,
	  const struct fcr_cut_in *in)
{
	struct fcr_redirect *r = &rt->r[id];
	uint8_t was = r->cut_state;
	struct fcr_cut_step s = fcr_cutover_step((enum fcr_cut_state)was, ev, in);
	int b, x;

	r->cut_state = s.state;
	if (was == FCR_CUT_IDLE && s.state != FCR_CUT_IDLE) {
		rt->nb_cutover++;
		r->cutover = 1;
		rt->path_gen++;
		r->cut_logins = rt->bindings->entry[r->binding[FCR_M_HOST]].logins;
		r->vi_told = r->vi_path = 0;
	}
	if (s.actions & FCR_CUT_A_RESET_TICKS)
		r->drain_ticks = r->cut_ticks = 0;
	if (s.actions & FCR_CUT_A_DRAIN_TIMEOUT)
		rt->drains_timed_out++;
	if (s.actions & FCR_CUT_A_CUTOVER_TIMEOUT)
		rt->cutovers_timed_out++;
	if (s.actions & FCR_CUT_A_VI_TIMEOUT)
		rt->vi_waits_timed_out++;
	if ((s.actions & FCR_CUT_A_HOLD_HOST) && exchange_keys(r, FCR_DRAIN_HOST, &b, &x)) {
		xset_mark(rt, id);
		drain_hold(rt, id, b, FCR_DRAIN_HOST);
	}
	if ((s.actions & FCR_CUT_A_HOLD_VI) && exchange_keys(r, FCR_DRAIN_VI, &b, &x))
		drain_hold(rt, id, b, FCR_DRAIN_VI);
	if (s.actions & FCR_CUT_A_TELL_VI)
		tell(rt, id, (s.actions & FCR_CUT_A_DRAIN_TIMEOUT) != 0, FCR_TELL_VI);
	if (s.actions & FCR_CUT_A_TELL)
		tell(rt, id, (s.actions & (FCR_CUT_A_DRAIN_TIMEOUT | FCR_CUT_A_VI_TIMEOUT)) != 0,
		     r->vi_told ? FCR_TELL_HOST : FCR_TELL_ALL);
	/* the VI, told first, logs in to the target through the new rules;
	 * the host's way is blocked until the host is back */
	if (s.actions & FCR_CUT_A_VI_PATH) {
		r->vi_path = 1;
		fcr_redirect_install_noted(rt, id, r->state);
		r->vi_frames = vi_frames(rt, r);
	}
	/* a new redirect's pair, plain until here, is blocked from here until
	 * the host is back (fail closed); a changed or deleted one keeps its
	 * old rules, commands still held */
	if (s.actions & FCR_CUT_A_BLOCK)
		fcr_redirect_install_noted(rt, id, r->state);
	if ((s.actions & FCR_CUT_A_NEW_PATH) && was != FCR_CUT_IDLE)
		cutover_end(rt, id);
}

/* The next step of a drain whose workers are past its hold: the host's
 * exchanges ended, then the VI's (what the VI has open serves the host's
 * until those end, so its commands are held only then). */
static void
drain_step(struct fcr_redirect_table *rt, uint32_t id)
{
	struct fcr_redirect *r = &rt->r[id];
	struct fcr_cut_in in = { 0 };
	int b, e;

	while (r->draining && hold_seen(rt, r) && open_exchanges(rt, r, r->draining) == 0) {
		in.vi_keys = (uint8_t)exchange_keys(r, FCR_DRAIN_VI, &b, &e);
		in.vi_first = vi_first(rt, r);
		cut_event(rt, id, FCR_CUT_EV_DRAINED, &in);
	}
}

/* The pair's path until the cutover: its rules, or plain (a new redirect,
 * whose pair's plain entries it takes, to be held), or blocked (nothing
 * open goes anywhere: drained at once). */
static void
drain_begin(struct fcr_redirect_table *rt, uint32_t id)
{
	struct fcr_redirect *r = &rt->r[id];
	const struct fcr_binding *e = rt->bindings->entry;
	uint32_t h = e[r->binding[FCR_M_HOST]].fcid, t = e[r->binding[FCR_M_TARGET]].fcid;

	if (r->nb_keys == 0) {
		uint64_t key[2] = { fcr_flow_key(r->vlan, h, t), fcr_flow_key(r->vlan, t, h) };
		uint64_t action[2] = {
			fcr_action(h, t, FCR_LEG_PLAIN),
			fcr_action(t, h, FCR_LEG_PLAIN),
		};

		if (!fcr_redirect_owned_by_other(rt, id, key[0]) &&
		    !fcr_redirect_owned_by_other(rt, id, key[1]) &&
		    fcr_redirect_set_entries(rt, id, key, action, 2, 0) == 0)
			r->xbase[0] = 0; /* the plain entries counted from their first frame */
	}
}

void
fcr_redirect_drain_poll(struct fcr_redirect_table *rt)
{
	uint32_t i;

	/* from the end: a drained one leaves its place to the last */
	for (i = rt->nb_draining; i-- > 0;)
		drain_step(rt, rt->drain_list[i]);
}

/* The host has logged in again (its accept is held until this runs, so
 * its first frame after takes the new path), or a member is gone (the pair
 * then fails closed, a ghost's goes plain, at once). The VI's frames in
 * flight drained long before: an ENode told to log in again solicits and
 * waits for the FCF's advertisement before its new login. A VI told first
 * that logs in again: the new rules follow its new FCID. */
void
fcr_cutover_check(struct fcr_redirect_table *rt, uint32_t id)
{
	const struct fcr_redirect *r = &rt->r[id];
	const struct fcr_binding *e = rt->bindings->entry;
	struct fcr_cut_in in = { 0 };
	int m;

	for (m = 0; m < FCR_M_COUNT; m++)
		if (e[r->binding[m]].fcid == FCR_FCID_NONE) {
			cut_event(rt, id, FCR_CUT_EV_MEMBER_GONE, &in);
			return;
		}
	if (e[r->binding[FCR_M_HOST]].logins != r->cut_logins) {
		cut_event(rt, id, FCR_CUT_EV_HOST_BACK, &in); /* its end installs */
		return;
	}
	if (r->vi_path)
		fcr_redirect_install_noted(rt, id, r->state);
	if (!vi_back_event(rt, id, &in))
		fcr_cutover_block_vi(rt, id); /* a new VI logged in meanwhile */
}

unsigned int
fcr_redirect_cutover_tick(struct fcr_redirect_table *rt, unsigned int *drains_timed_out,
			  unsigned int *vi_waits_timed_out)
{
	uint64_t cut0 = rt->cutovers_timed_out, drain0 = rt->drains_timed_out;
	uint64_t vi0 = rt->vi_waits_timed_out;
	uint32_t id;

	for (id = 0; rt->nb_cutover != 0 && id < rt->capacity; id++) {
		struct fcr_redirect *r = &rt->r[id];
		uint8_t was = r->cut_state;
		struct fcr_cut_in in = { .ticks = r->draining ? r->drain_ticks : r->cut_ticks };

		if (was == FCR_CUT_IDLE)
			continue;
		in.vi_first = vi_first(rt, r);
		if (vi_back_event(rt, id, &in))
			continue;
		cut_event(rt, id, FCR_CUT_EV_TICK, &in);
		if (r->cut_state == was && r->draining)
			r->drain_ticks++;
		else if (r->cut_state == was)
			r->cut_ticks++;
	}
	*drains_timed_out += (unsigned int)(rt->drains_timed_out - drain0);
	*vi_waits_timed_out += (unsigned int)(rt->vi_waits_timed_out - vi0);
	return (unsigned int)(rt->cutovers_timed_out - cut0);
}

void
fcr_cutover_tick(struct fcr_tables *t)
{
	unsigned int drains = 0, vi_waits = 0;

	t->st.cutovers_timed_out += fcr_redirect_cutover_tick(t->redirects, &drains, &vi_waits);
	t->st.cutover_drains_timed_out += drains;
	t->st.cutover_vi_waits_timed_out += vi_waits;
}

/* ---- show redirect <id> -------------------------------------------- */

/* The first OX_IDs of a set, up to max, as " 0x0020 0x0031 ..." */
static void
set_oxids(FILE *out, const uint64_t *set, unsigned int max)
{
	unsigned int i, n = 0;

	for (i = 0; i < 65536 && n < max; i++)
		if (__atomic_load_n(&set[i >> 6], __ATOMIC_RELAXED) >> (i & 63) & 1) {
			fprintf(out, " 0x%04x", i);
			n++;
		}
}

int
fcr_redirect_describe(FILE *out, const struct fcr_redirect_table *rt, uint32_t id)
{
	const struct fcr_redirect *r;
	const struct fcr_binding *e = rt->bindings->entry;
	char w[FCR_WWPN_STRLEN];
	unsigned int m, held, bound;

	if (id >= rt->capacity || !rt->r[id].in_use) {
		fprintf(out, "error: no redirect %u (`redirect list` gives each one's id)\n", id);
		return -1;
	}
	r = &rt->r[id];
	fprintf(out, "redirect %u vlan %u: %s\n", id, r->vlan,
		fcr_redirect_state_name((enum fcr_redirect_state)r->state));
	for (m = 0; m < FCR_M_COUNT; m++) {
		const struct fcr_binding *b = &e[r->binding[m]];

		fprintf(out, "  %-7s %s", fcr_member_name((enum fcr_member)m),
			fcr_wwpn_format(b->wwpn, w));
		if (b->fcid == FCR_FCID_NONE)
			fprintf(out, "  not bound\n");
		else
			fprintf(out, "  fcid %06x\n", b->fcid);
	}
	if (r->cutover && r->state == FCR_RS_ACTIVE &&
	    rt->wwpn[id][FCR_M_VI] != e[r->binding[FCR_M_VI]].wwpn)
		fprintf(out, "  old vi  %s  (its rules kept until the cutover ends)\n",
			fcr_wwpn_format(rt->wwpn[id][FCR_M_VI], w));
	if (r->live.stalled)
		fprintf(out, "  service node: NOT ANSWERING: the host's exchanges open, none "
			"ended by the vt for --sn-stall-ms (sn_stalls)\n");
	else if (r->live.seen)
		fprintf(out, "  service node: answering\n");
	fcr_latency_describe(out, &rt->lat[id]);
	if (!r->cutover) {
		fprintf(out, "  cutover: none\n");
		return 0;
	}
	held = fcr_redirect_held_exchanges(rt, id);
	if (r->draining) {
		fprintf(out, "  cutover: draining %s exchanges: %" PRIu64 " open; %u begun after "
			"the change held", r->draining == FCR_DRAIN_HOST ? "host" : "vi",
			fcr_redirect_open(rt, id), held);
		if (r->xset != 0 && held != 0) {
			fprintf(out, " (OX_IDs");
			set_oxids(out, rt->xsets[r->xset - 1][0], 8);
			set_oxids(out, rt->xsets[r->xset - 1][1], 8);
			fprintf(out, "%s)", held > 16 ? " ..." : "");
		}
		fprintf(out, "; %u of %u ticks (100 ms) left\n",
			FCR_DRAIN_TICKS - r->drain_ticks, FCR_DRAIN_TICKS);
		if (r->xset == 0)
			fprintf(out, "  per flow: no exchange set was free (%" PRIu64 " drains so "
				"far): frames of exchanges begun after the change take the old "
				"path\n", rt->drains_per_flow);
		return 0;
	}
	bound = r->cut_state == FCR_CUT_VI_TOLD ? FCR_VI_TICKS : FCR_CUTOVER_TICKS;
	fprintf(out, "  cutover: %s: told %u ticks (100 ms) ago, %u of %u ticks left; "
		"%u exchanges begun after the change held\n",
		fcr_cut_state_name((enum fcr_cut_state)r->cut_state), r->cut_ticks,
		bound - r->cut_ticks, bound, held);
	if (r->cut_state == FCR_CUT_VI_TOLD)
		fprintf(out, "  the host's way blocked until the vi is back: it logged in %s, "
			"%" PRIu64 " of %u frames from the target to it\n",
			e[r->binding[FCR_M_VI]].logins != r->vi_logins ? "again" : "not yet",
			vi_frames(rt, r) - r->vi_frames, FCR_VI_BACK_FRAMES);
	return 0;
}

/* ---- what must be told to whom -------------------------------------- */

/* The binding of a VN_Port that can be told to log in again: learned over
 * FIP through one of the edge ports (its ENode known), on a VLAN whose FCF
 * advertised itself. FCR_BINDING_NONE when it cannot. */
static uint32_t
clearable(struct fcr_tables *t, uint16_t vlan, uint64_t wwpn)
{
	uint32_t n = fcr_binding_get(t->bindings, vlan, wwpn, 0);
	const struct fcr_binding *e;
	unsigned int port;

	if (n == FCR_BINDING_NONE || !t->fcf[vlan & 0xFFF].known)
		return FCR_BINDING_NONE;
	e = &t->bindings->entry[n];
	port = (unsigned int)(e->vn >> 48) & 0xFF;
	if (e->fcid == FCR_FCID_NONE || e->origin != FCR_BIND_LEARNED || e->enode == 0 ||
	    port >= t->nb_ports || (t->fabric_mask >> port & 1))
		return FCR_BINDING_NONE;
	return n;
}

/* The Clear Virtual Link of one member of the pair, in the FCF's name;
 * one that cannot be told counted now. */
static void
plan_tell(struct fcr_tables *t, uint16_t vlan, uint8_t member, uint64_t wwpn,
	  struct fcr_cutover_tell *x)
{
	const struct fcr_binding *e;

	memset(x, 0, sizeof(*x));
	x->member = member;
	x->cvl.vlan = vlan;
	x->cvl.wwpn = wwpn;
	x->binding = clearable(t, vlan, wwpn);
	if (x->binding == FCR_BINDING_NONE) {
		t->st.cutovers_unsent++;
		return;
	}
	e = &t->bindings->entry[x->binding];
	x->clearable = 1;
	x->cvl.port = (uint16_t)((e->vn >> 48) & 0xFF);
	fcr_vn_mac(e->enode, x->cvl.enode_mac);
	fcr_vn_mac(e->vn, x->cvl.vn_mac);
	/* in the name of the FCF the ENode chose (a VLAN may have several) */
	fcr_tables_enode_fcf(t, vlan, e->enode, x->cvl.fcf_mac, &x->cvl.fcf_name);
	x->cvl.fcid = e->fcid;
}

unsigned int
fcr_cutover_plan(struct fcr_tables *t, const struct fcr_note *n, struct fcr_cutover_plan *p)
{
	unsigned int i, send = 0;

	memset(p, 0, sizeof(*p));
	if (n->kind != FCR_NOTE_CUTOVER && n->kind != FCR_NOTE_DRAINED)
		return 0;
	if (t->fabric_mask == 0)
		return 0; /* a lab: no ENode to tell */
	if (n->kind == FCR_NOTE_CUTOVER && clearable(t, n->vlan, n->wwpn) != FCR_BINDING_NONE) {
		fcr_redirect_cutover_told(t->redirects);
		p->held = 1;
		return 0;
	}
	/* drained, or no cutover: the new path at once; the host counted as
	 * not told, the VI told now. Drained with the VIs told first: the
	 * VIs now (the new path's awaited), the host alone after. */
	if (n->tell != FCR_TELL_VI) {
		plan_tell(t, n->vlan, FCR_M_HOST, n->wwpn, &p->tell[p->nb]);
		p->tell[p->nb++].awaited = 1;
	}
	if (n->tell != FCR_TELL_HOST) {
		plan_tell(t, n->vlan, FCR_M_VI, n->other_wwpn, &p->tell[p->nb]);
		p->tell[p->nb++].awaited = n->tell == FCR_TELL_VI && n->new_vi == 0;
		if (n->new_vi != 0) {
			plan_tell(t, n->vlan, FCR_M_VI, n->new_vi, &p->tell[p->nb]);
			p->tell[p->nb++].awaited = n->tell == FCR_TELL_VI;
		}
	}
	for (i = 0; i < p->nb; i++)
		send += p->tell[i].clearable;
	return send;
}

void
fcr_cutover_sent(struct fcr_tables *t, const struct fcr_cutover_tell *x, int sent)
{
	if (!sent) {
		t->st.cutovers_unsent++;
		return;
	}
	t->st.cutovers++;
	/* what is left of its old exchanges it would refuse, and what it still
	 * sends of them: dropped here */
	fcr_binding_leaving(t->bindings, x->binding);
	/* silent while it resets: not timed out for that */
	fcr_enode_resetting(t->enodes, t->bindings->entry[x->binding].enode);
	if (x->awaited)
		fcr_redirect_cutover_told(t->redirects);
}
