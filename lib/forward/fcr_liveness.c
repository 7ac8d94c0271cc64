/* SPDX-License-Identifier: BSD-3-Clause */
#include "fcr_liveness.h"
#include "fcr_flow.h"
#include "fcr_note.h"
#include "fcr_redirect.h"
#include "fcr_redirect_priv.h"
#include "fcr_tables.h"

enum fcr_liveness_change
fcr_liveness_step(struct fcr_liveness *l, uint32_t begun, uint32_t ends, uint32_t open,
		  uint64_t now, uint64_t bound, uint32_t recover)
{
	if (!l->seen) {
		l->seen = 1;
		l->since = now;
		l->ends = ends;
		l->begun = begun - open;
		return FCR_LIVE_SAME;
	}
	if (ends != l->ends) {
		uint32_t got = ends - l->ends;

		l->ends = ends;
		l->begun = begun;
		l->since = now;
		if (!l->stalled)
			return FCR_LIVE_SAME;
		l->answered += got;
		if (l->answered < recover)
			return FCR_LIVE_SAME;
		l->stalled = 0;
		l->answered = 0;
		return FCR_LIVE_ANSWERING;
	}
	if (begun == l->begun) {
		/* nothing begun since the last end waits: no clock runs */
		l->since = now;
		return FCR_LIVE_SAME;
	}
	if (l->stalled || now - l->since < bound)
		return FCR_LIVE_SAME;
	l->stalled = 1;
	l->answered = 0;
	return FCR_LIVE_STALLED;
}

/* A rule's exchange counts: the host's commands on its host -> target
 * rule (key 0 in rule_keys' order, fcr_cutover.c), the VT's ends on its
 * VT -> host rule (key 3). */
static struct fcr_flow_exchanges
rule_exchanges(const struct fcr_redirect_table *rt, uint64_t key)
{
	struct fcr_flow_exchanges c = { 0, 0 };
	int idx = fcr_flow_find(rt->flows, key);

	if (idx >= 0)
		fcr_flow_exchanges_sum(rt->flows, (uint32_t)idx, &c);
	return c;
}

unsigned int
fcr_redirect_liveness_tick(struct fcr_redirect_table *rt, uint64_t now, uint64_t bound,
			   uint32_t recover, unsigned int *stalls, unsigned int *answering)
{
	unsigned int stalled = 0;
	uint32_t id;

	*stalls = *answering = 0;
	for (id = 0; id < rt->capacity; id++) {
		struct fcr_redirect *r = &rt->r[id];
		enum fcr_liveness_change ch;
		uint32_t begun;
		int32_t open;

		if (!r->in_use || r->state != FCR_RS_ACTIVE || r->blocking ||
		    r->nb_keys != FCR_REDIRECT_KEYS || r->cutover) {
			fcr_liveness_reset(&r->live);
			continue;
		}
		/* new rules (a member's new FCID, the slot another redirect's):
		 * their counts start again */
		if (r->live.rule != r->key[0]) {
			fcr_liveness_reset(&r->live);
			r->live.rule = r->key[0];
		}
		begun = rule_exchanges(rt, r->key[0]).cmnds;
		/* begun less ended since its keys were set (fcr_cutover.c) */
		open = (int32_t)(fcr_cutover_exchanges(rt, r, FCR_DRAIN_HOST) -
				 r->xbase[FCR_DRAIN_HOST - 1]);
		ch = fcr_liveness_step(&r->live, begun, rule_exchanges(rt, r->key[3]).ends,
				       open > 0 ? (uint32_t)open : 0, now, bound, recover);
		stalled += r->live.stalled;
		if (ch == FCR_LIVE_SAME)
			continue;
		*stalls += ch == FCR_LIVE_STALLED;
		*answering += ch == FCR_LIVE_ANSWERING;
		{
			struct fcr_note n = {
				.kind = ch == FCR_LIVE_STALLED ? FCR_NOTE_SN_STALLED
							       : FCR_NOTE_SN_ANSWERING,
				.vlan = r->vlan, .redirect = id,
				.wwpn = rt->bindings->entry[r->binding[FCR_M_HOST]].wwpn,
				.other_wwpn = rt->bindings->entry[r->binding[FCR_M_VT]].wwpn,
				.open = begun - r->live.begun,
			};

			fcr_note_tell(rt->note_hook, &n);
		}
	}
	return stalled;
}

void
fcr_tables_liveness(struct fcr_tables *t, uint64_t now, uint64_t bound, uint32_t recover)
{
	unsigned int stalls, answering;

	fcr_redirect_liveness_tick(t->redirects, now, bound, recover, &stalls, &answering);
	t->st.sn_stalls += stalls;
	t->st.sn_answering += answering;
}
