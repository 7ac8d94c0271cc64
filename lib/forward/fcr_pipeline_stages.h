/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The stages of fcr_pipeline_burst, in its order: parse, the trust model's
 * checks, flow lookup, action (counters, ID rewrite), route and MACs. The
 * burst is these calls and nothing else; pipeline-bench runs them cut after
 * each stage to tell what each one costs, so its breakdown measures this
 * code, not a copy. Inline (always) so the burst still compiles as one
 * function and the bench's cuts compile as the burst does. Not for the
 * worker: it calls fcr_pipeline_burst.
 *
 * A stage works on the FCoE frames the stages before kept: k of them, in
 * struct fcr_pipeline_frames, compacted; pos[] is each one's index in the
 * burst. Events go to ev[], *nev or the returned count saying how many.
 */
#ifndef FCR_PIPELINE_STAGES_H
#define FCR_PIPELINE_STAGES_H

#include <string.h>

#include <rte_common.h>
#include <rte_ether.h>
#include <rte_mbuf.h>
#include <rte_prefetch.h>

#include "fcr_build.h"
#include "fcr_login.h"
#include "fcr_pipeline.h"
#include "fcr_tables.h"

#define FCR_PIPELINE_FIP_SNOOP_MAX 2560 /* larger than any FIP frame a port delivers */

/* A burst's FCoE frames between stages. */
struct fcr_pipeline_frames {
	struct fcr_frame f[FCR_PIPELINE_BURST_MAX];
	uint64_t key[FCR_PIPELINE_BURST_MAX];
	uint32_t idx[FCR_PIPELINE_BURST_MAX];  /* flow entry or FCR_FLOW_NONE */
	uint32_t did[FCR_PIPELINE_BURST_MAX];  /* D_ID it leaves with */
	uint32_t sid[FCR_PIPELINE_BURST_MAX];  /* S_ID it leaves with */
	uint32_t rkey[FCR_PIPELINE_BURST_MAX]; /* its route's key (fcr_route_key) */
	uint8_t pos[FCR_PIPELINE_BURST_MAX];   /* index in the burst */
	uint8_t leg[FCR_PIPELINE_BURST_MAX];
	uint8_t missed[FCR_PIPELINE_BURST_MAX];
	uint8_t hold[FCR_PIPELINE_BURST_MAX];  /* a login frame (or an RSCN) to hold */
	unsigned int nmark;                    /* frames with the mark parse let on */
	/* the burst came in on a fabric port: a held entry lets its commands
	 * by (fcr_pipeline_holds) */
	uint8_t from_fabric;
};

/* A frame of no flow entry: its flow reported (FCR_EV_FLOW_FIRST), once;
 * the exchanges it begins or ends (an FCP command that is its flow's first
 * frame) go with the report, for the entry the tables lcore makes of it to
 * count them as the workers count theirs. */
static inline unsigned int
fcr_pipeline_report_first(struct fcr_pipeline *p, uint64_t key, const struct fcr_frame *f,
			  struct fcr_event *ev, uint64_t now)
{
	/* One report per new flow, not one per frame of its first bursts. */
	unsigned int slot = (unsigned int)((key * 0x9E3779B97F4A7C15ull) >> 56), n = 0;
	struct fcr_flow_exchanges x = { 0, 0 };

	if (unlikely(fcr_flow_exchange_frame(f->r_ctl)))
		fcr_flow_count_exchange(&x, f->r_ctl, f->type);
	if (p->recent[slot] == key) {
		p->recent_misses[slot]++;
		p->recent_x[slot].cmnds += x.cmnds;
		p->recent_x[slot].ends += x.ends;
		return 0;
	}
	if (p->recent[slot] != UINT64_MAX && p->recent_misses[slot] != 0) {
		/* the flow this slot held: its misses told now, not lost */
		fcr_event_flow(ev, p->recent[slot]);
		ev->type = FCR_EV_FLOW_MISSES;
		ev->count = p->recent_misses[slot];
		ev->cmnds = p->recent_x[slot].cmnds;
		ev->ends = p->recent_x[slot].ends;
		ev->worker = (uint8_t)p->worker;
		ev->tsc = now;
		n = 1;
	}
	p->recent[slot] = key;
	p->recent_misses[slot] = 0;
	p->recent_x[slot].cmnds = p->recent_x[slot].ends = 0;
	fcr_event_flow(&ev[n], key);
	ev[n].count = 1;
	ev[n].cmnds = x.cmnds;
	ev[n].ends = x.ends;
	ev[n].worker = (uint8_t)p->worker;
	ev[n].tsc = now;
	return n + 1;
}

static inline unsigned int
fcr_pipeline_login_event(struct fcr_pipeline *p, struct fcr_login *l,
			 const uint8_t *eth, uint16_t in_port, uint16_t frame,
			 struct fcr_pipeline_stats *st, struct fcr_event *ev,
			 uint64_t now)
{
	if (l->kind == FCR_LOGIN_NONE)
		return 0;
	if (eth != NULL) {
		memcpy(l->eth_dst, eth, 6);
		memcpy(l->eth_src, eth + 6, 6);
	}
	fcr_event_login(ev, l);
	ev->worker = (uint8_t)p->worker;
	ev->port = (uint8_t)in_port;
	ev->seq = frame;
	ev->tsc = now;
	st->logins++;
	return 1;
}

/* A fabric login frame over FCoE: an ELS to or from the login server. */
static inline unsigned int
fcr_pipeline_snoop_els(struct fcr_pipeline *p, struct rte_mbuf *m,
		       const struct fcr_frame *f, uint16_t in_port, uint16_t frame,
		       struct fcr_pipeline_stats *st, struct fcr_event *ev,
		       uint64_t now)
{
	uint8_t buf[FCR_ELS_SPARM_LEN];
	uint32_t n = RTE_MIN((uint32_t)f->payload_len, (uint32_t)sizeof(buf));
	const uint8_t *pl;
	struct fcr_login l;

	if (f->r_ctl != FCR_RCTL_ELS_REQ && f->r_ctl != FCR_RCTL_ELS_REP)
		return 0;
	if (f->d_id != FCR_FCID_FLOGI && f->s_id != FCR_FCID_FLOGI)
		return 0; /* between N_Ports (PLOGI, N_Port LOGO): teaches nothing */
	/* a corrupted login must not teach a wrong binding; logins are rare,
	 * so the full check costs nothing that matters */
	if (fcr_frame_verify_crc_mbuf(m, f) != FCR_R_OK) {
		st->logins_bad_crc++;
		return 0;
	}
	pl = rte_pktmbuf_read(m, f->fc_off + FCR_FC_HLEN, n, buf);
	if (pl == NULL || fcr_login_from_els(f, pl, n, &l) != FCR_R_OK)
		return 0;
	return fcr_pipeline_login_event(p, &l, rte_pktmbuf_mtod(m, const uint8_t *),
					in_port, frame, st, ev, now);
}

/* The fabric controller's RSCN, from a fabric port: it tells the ports a
 * change that a login frame just taught fcredirect (a host's new login:
 * its FCID's rules move). Held like a login frame, behind what this
 * worker gave the tables lcore before it, so that what a port does on the
 * news (a target's LOGO to the host's old FCID) finds the new rules in: an
 * answer to a request that went by the old rules would otherwise come
 * back by the new ones, with another S_ID than the request's D_ID. */
static inline int
fcr_pipeline_fabric_notice(const struct fcr_pipeline *p, struct rte_mbuf *m,
			   const struct fcr_frame *f, uint16_t in_port)
{
	uint8_t buf[1];
	const uint8_t *pl;

	if (f->r_ctl != FCR_RCTL_ELS_REQ || f->s_id != FCR_FCID_FCTRL || f->payload_len < 1 ||
	    !(p->fabric_mask >> in_port & 1))
		return 0;
	pl = rte_pktmbuf_read(m, f->fc_off + FCR_FC_HLEN, 1, buf);
	return pl != NULL && pl[0] == FCR_ELS_RSCN;
}

/* A FIP frame: its events (a CVL's one per VN_Port cleared). *refused:
 * an FCF's advertisement that --vlan-fc-map refuses (fcf_fc_map), no
 * event, to be dropped. */
static inline unsigned int
fcr_pipeline_snoop_fip(struct fcr_pipeline *p, struct rte_mbuf *m,
		       const struct fcr_frame *f, uint16_t in_port, uint16_t frame,
		       struct fcr_pipeline_stats *st, struct fcr_event *ev,
		       uint64_t now, int *refused)
{
	uint8_t buf[FCR_PIPELINE_FIP_SNOOP_MAX];
	uint32_t n = RTE_MIN(rte_pktmbuf_pkt_len(m), (uint32_t)sizeof(buf));
	const uint8_t *b = rte_pktmbuf_read(m, 0, n, buf);
	struct fcr_login l;

	unsigned int j, k = 0;

	if (b == NULL || fcr_login_parse(b, n, &l) != FCR_R_OK)
		return 0;
	/* a tag the NIC stripped is not in the bytes: the frame's VLAN is */
	l.vlan = f->vlan;
	if (unlikely(l.kind == FCR_LOGIN_ADV && (p->fabric_mask >> in_port & 1) &&
		     fcr_tables_fc_map_refused(p->tables, l.vlan, l.fc_map))) {
		*refused = 1;
		return 0;
	}
	if (l.kind != FCR_LOGIN_CVL)
		return fcr_pipeline_login_event(p, &l, NULL, in_port, frame, st, ev,
						now);
	/* an event per VN_Port cleared; the frame waits for the last */
	for (j = 0; j < l.nb_cvl; j++) {
		struct fcr_login one = l;

		one.nb_vlans = 0; /* a CVL names none (and the compiler knows) */

		one.port_id = l.cvl[j].fcid;
		one.wwpn = l.cvl[j].wwpn;
		one.has_wwpn = 1;
		memcpy(one.mac, l.cvl[j].mac, 6);
		one.has_mac = 1;
		k += fcr_pipeline_login_event(p, &one, NULL, in_port, frame, st,
					      &ev[k], now);
	}
	return k;
}

/* A frame on edge port in_port from ENode MAC src (FIP, or a login
 * request): that ENode did not log in through another edge port (rare
 * frames: one lookup each). */
static inline int
fcr_pipeline_enode_ok(struct fcr_pipeline *p, uint16_t vlan, const uint8_t *src,
		      uint16_t in_port)
{
	uint64_t key = fcr_vn_enode_key(fcr_enode_key(vlan, src));
	uint64_t own;

	fcr_vn_lookup_cached(p->tables->bindings, &p->vcache, &key, 1, &own);
	return fcr_vn_enode_allows(own, in_port);
}

_Static_assert(FCR_CVL_MAX <= 3, "a frame's events fit FCR_PIPELINE_EVENTS_MAX");

/* A login frame dropped after all: its event goes on, with nothing held. */
static inline void
fcr_pipeline_unhold(struct fcr_event *ev, unsigned int nev, uint16_t frame)
{
	unsigned int j;

	for (j = 0; j < nev; j++)
		if (ev[j].type == FCR_EV_LOGIN && ev[j].seq == frame)
			ev[j].seq = UINT32_MAX;
}

/* A fabric login request over FCoE (FLOGI or FDISC: from no N_Port ID
 * yet, to the login server): its ENode's MAC is its source. */
static inline int
fcr_pipeline_is_login_request(const struct fcr_frame *f)
{
	return f->s_id == 0 && f->d_id == FCR_FCID_FLOGI;
}

/* Edge port: keep the frames w[0..k) whose (VLAN, S_ID) logged in through
 * this port from their source MAC (or has a static binding), and fabric
 * login requests from an ENode that did not log in through another edge
 * port; drop the rest. A VN_Port told to log in again (a
 * cutover) that has not yet: what it still sends belongs to sessions its
 * ENode is resetting, and on a path changed meanwhile would reach the new
 * path's peer as if from the old (a reply to the target from a replaced
 * VI): dropped too. Returns how many are kept, compacted. */
static inline unsigned int
fcr_pipeline_edge_check(struct fcr_pipeline *p, uint16_t in_port,
			struct rte_mbuf **pkts, struct fcr_pipeline_frames *w,
			unsigned int k, uint16_t *out, struct fcr_pipeline_stats *st)
{
	uint64_t vk[FCR_PIPELINE_BURST_MAX], vn[FCR_PIPELINE_BURST_MAX];
	unsigned int i, j = 0;

	for (i = 0; i < k; i++)
		vk[i] = fcr_vn_key(w->f[i].vlan, w->f[i].s_id);
	fcr_vn_lookup_cached(p->tables->bindings, &p->vcache, vk, k, vn);
	for (i = 0; i < k; i++) {
		const uint8_t *eth = rte_pktmbuf_mtod(pkts[w->pos[i]], const uint8_t *);

		if (unlikely(!fcr_vn_allows(vn[i], eth + 6, in_port))) {
			/* no VN_Port yet: only a login request, from its
			 * ENode's own port (rare: looked up apart) */
			enum fcr_reason r = !fcr_pipeline_is_login_request(&w->f[i]) ?
				FCR_R_NOT_LOGGED_IN :
				!fcr_pipeline_enode_ok(p, w->f[i].vlan, eth + 6, in_port) ?
				FCR_R_ENODE_WRONG_PORT : FCR_R_OK;

			if (r != FCR_R_OK) {
				out[w->pos[i]] = FCR_OUT_DROP;
				st->drop[r]++;
				continue;
			}
		}
		if (unlikely(vn[i] & FCR_VN_LEAVING)) {
			out[w->pos[i]] = FCR_OUT_DROP;
			st->drop[FCR_R_VN_PORT_GONE]++;
			continue;
		}
		if (j != i) {
			w->f[j] = w->f[i];
			w->key[j] = w->key[i];
			w->pos[j] = w->pos[i];
		}
		j++;
	}
	return j;
}

/*
 * Parse the n frames: each FCoE frame's header and flow key to w, the others
 * decided here (out[i]: passed through, FIP snooped with the trust model;
 * or dropped). A frame with the mark goes on only from a fabric or series
 * port: from any other, it is a station posing as a redirect upstream.
 * Returns how many FCoE frames go on.
 */
static __rte_always_inline unsigned int
fcr_pipeline_parse(struct fcr_pipeline *p, uint16_t in_port,
		   struct rte_mbuf **pkts, uint16_t n, uint16_t *out,
		   struct fcr_pipeline_stats *st, struct fcr_event *ev,
		   unsigned int *nev, uint64_t now, struct fcr_pipeline_frames *w)
{
	unsigned int i, k = 0;
	int trust = p->fabric_mask != 0;
	int mark_ok = (p->fabric_mask | p->series_mask) >> in_port & 1;

	w->nmark = 0;
	w->from_fabric = (uint8_t)(p->fabric_mask >> in_port & 1);
	for (i = 0; i < n && i < 4; i++)
		rte_prefetch0(rte_pktmbuf_mtod(pkts[i], void *));
	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i];
		enum fcr_reason r;

		if (i + 4 < n)
			rte_prefetch0(rte_pktmbuf_mtod(pkts[i + 4], void *));
		r = fcr_frame_parse_mbuf(m, &w->f[k]);
		if (likely(r == FCR_R_OK)) {
			if (unlikely(rte_pktmbuf_data_len(m) <
				     (uint32_t)w->f[k].fc_off + FCR_FC_HLEN)) {
				out[i] = FCR_OUT_DROP;
				st->drop[FCR_R_SPLIT_HEADER]++;
				continue;
			}
			if (unlikely(w->f[k].mark)) {
				if (!mark_ok) {
					out[i] = FCR_OUT_DROP;
					st->drop[FCR_R_MARK_UNTRUSTED]++;
					continue;
				}
				w->nmark++;
			}
			w->key[k] = fcr_flow_key(w->f[k].vlan, w->f[k].s_id,
						 w->f[k].d_id);
			w->pos[k++] = (uint8_t)i;
		} else if (r == FCR_R_NOT_FCOE) {
			uint16_t to = p->passthrough[in_port];
			unsigned int held = 0;
			int refused = 0;
			/* a fabric port's FIP reaches every ENode behind
			 * the edge ports that name it as their peer */
			int flood = trust && (p->fabric_mask >> in_port & 1) &&
				    p->flood != NULL &&
				    __builtin_popcount(p->flood[in_port]) > 1;

			if (trust && w->f[k].ethertype == FCR_ETHERTYPE_FIP) {
				if (!w->from_fabric &&
				    !fcr_pipeline_enode_ok(p, w->f[k].vlan,
							   rte_pktmbuf_mtod(m, const uint8_t *) + 6,
							   in_port)) {
					out[i] = FCR_OUT_DROP;
					st->drop[FCR_R_ENODE_WRONG_PORT]++;
					continue;
				}
				held = fcr_pipeline_snoop_fip(p, m, &w->f[k], in_port,
							      i, st, &ev[*nev], now, &refused);
				if (unlikely(refused)) {
					/* an FCF of another fabric: no ENode hears it */
					out[i] = FCR_OUT_DROP;
					st->drop[FCR_R_FCF_FC_MAP]++;
					continue;
				}
			}
			*nev += held;
			if (flood)
				to = (uint16_t)(in_port | FCR_OUT_FLOOD);
			else if (to >= p->nb_ports) {
				out[i] = FCR_OUT_DROP;
				st->drop[FCR_R_NO_PASSTHROUGH]++;
				/* nothing to hold: the events still tell the tables lcore */
				if (held)
					fcr_pipeline_unhold(ev, *nev, i);
				continue;
			}
			out[i] = (uint16_t)(to | (held ? FCR_OUT_HOLD : 0));
			st->passthrough++;
		} else {
			out[i] = FCR_OUT_DROP;
			st->drop[r]++;
		}
	}
	return k;
}

/*
 * The trust model (fabric ports given): on an edge port the VN_Port check,
 * then every fabric login over FCoE an event and its frame held (an RSCN
 * from a fabric port held with none: fcr_pipeline_fabric_notice). Without
 * it nothing is held. Returns how many of the k frames go on.
 */
static __rte_always_inline unsigned int
fcr_pipeline_trust(struct fcr_pipeline *p, uint16_t in_port,
		   struct rte_mbuf **pkts, unsigned int k, uint16_t *out,
		   struct fcr_pipeline_stats *st, struct fcr_event *ev,
		   unsigned int *nev, uint64_t now, struct fcr_pipeline_frames *w)
{
	unsigned int i;

	if (p->fabric_mask == 0) {
		memset(w->hold, 0, k);
		return k;
	}
	if (!(p->fabric_mask >> in_port & 1))
		k = fcr_pipeline_edge_check(p, in_port, pkts, w, k, out, st);
	for (i = 0; i < k; i++) {
		w->hold[i] = 0;
		/* a frame with the mark was rewritten: it teaches nothing */
		if (unlikely(w->f[i].type == FCR_TYPE_ELS && !w->f[i].mark)) {
			unsigned int e = fcr_pipeline_snoop_els(p, pkts[w->pos[i]], &w->f[i],
								in_port, w->pos[i], st,
								&ev[*nev], now);

			*nev += e;
			w->hold[i] = (uint8_t)(e != 0 ||
				fcr_pipeline_fabric_notice(p, pkts[w->pos[i]], &w->f[i], in_port));
		}
	}
	return k;
}

/* The k frames' flow entries, through this worker's flow cache. A frame
 * with the mark has none: a redirect upstream rewrote it, so it must match
 * no rule nor hidden pair here, and goes on plain. */
static __rte_always_inline void
fcr_pipeline_lookup(struct fcr_pipeline *p, unsigned int k,
		    struct fcr_pipeline_frames *w)
{
	unsigned int i;

	fcr_flow_lookup_cached(p->tables->flows, &p->cache, w->key, k, w->idx);
	if (unlikely(w->nmark != 0))
		for (i = 0; i < k; i++)
			if (w->f[i].mark)
				w->idx[i] = FCR_FLOW_NONE;
}

/* An FCP command on an entry held for a cutover's drain (action a) is
 * held where it comes in from its initiator's side, an edge port (every
 * port without fabric ports). From a fabric port it is on its way back
 * from the FCF: between two edge ports of this fcredirect a plain pair's
 * frames go out to the FCF and come back (the deployment's routes), on
 * the same entry each way. Its first pass, let by before the hold, was
 * counted as an exchange begun: held now, it would never reach the
 * target, never end, and the drain would wait for it until its timeout. */
static inline int
fcr_pipeline_holds(uint64_t a, const struct fcr_frame *f, int from_fabric)
{
	return (a & FCR_ACTION_HOLD) && !from_fabric && f->r_ctl == FCR_RCTL_FCP_CMND &&
	       fcr_type_command_response(f->type);
}

/* A frame that may begin or end an exchange on its entry (action a, leg
 * its leg): a command on an entry held for a cutover's drain is held
 * (FCR_LEG_HELD: dropped in the route stage, its exchange never begun);
 * otherwise counted. Blocked and hidden entries send nothing, so count
 * nothing. Returns the frame's leg. */
static inline uint8_t
fcr_pipeline_exchange(uint64_t a, uint8_t leg, struct fcr_flow_exchanges *c,
		      const struct fcr_frame *f, int from_fabric)
{
	if (leg >= FCR_LEG_HELD)
		return leg;
	if (fcr_pipeline_holds(a, f, from_fabric))
		return FCR_LEG_HELD;
	fcr_flow_count_exchange(c, f->r_ctl, f->type);
	return leg;
}

/* A frame on an entry of a pair draining per exchange (FCR_ACTION_DRAIN):
 * of the exchanges of the entry's initiator (the host's or the VI's), a
 * command held has its OX_ID put in the drain's set, and any other frame
 * of an exchange in the set is dropped (FCR_LEG_NEW_EXCHANGE): that
 * exchange began after the change, its command never went. The frames of
 * the exchanges open at the change, and the other side's exchanges, go by
 * the action (fcr_pipeline_exchange). Only such entries pay this. */
static inline uint8_t
fcr_pipeline_drain(const struct fcr_redirect_table *rd, uint64_t a, uint8_t leg,
		   struct fcr_flow_exchanges *c, const struct fcr_frame *f, int from_fabric)
{
	int to_initiator = (f->f_ctl & FCR_F_CTL_EXCH_CTX) != 0;

	if (leg < FCR_LEG_HELD && to_initiator == ((a & FCR_ACTION_DRAIN_TO) != 0)) {
		uint64_t *word = &rd->xsets[fcr_action_drain_set(a)]
				   [(a & FCR_ACTION_DRAIN_VI) != 0][f->ox_id >> 6];
		uint64_t bit = 1ull << (f->ox_id & 63);

		if (fcr_pipeline_holds(a, f, from_fabric)) {
			__atomic_fetch_or(word, bit, __ATOMIC_RELAXED);
			return FCR_LEG_HELD;
		}
		if (__atomic_load_n(word, __ATOMIC_RELAXED) & bit)
			return FCR_LEG_NEW_EXCHANGE;
	}
	if (fcr_flow_exchange_frame(f->r_ctl))
		return fcr_pipeline_exchange(a, leg, c, f, from_fabric);
	return leg;
}

/*
 * Each frame's action: its flow's counters, its leg, the D_ID it leaves
 * with and its route's key (the tbl24 entry prefetched); the IDs rewritten
 * and the CRC updated when `rewrite` (a constant: 0 only for
 * pipeline-bench's cut before the rewrite). A frame with no entry goes on
 * plain, its flow reported. Returns nev plus those reports.
 */
static __rte_always_inline unsigned int
fcr_pipeline_act(struct fcr_pipeline *p, struct rte_mbuf **pkts, unsigned int k,
		 struct fcr_event *ev, unsigned int nev, uint64_t now,
		 struct fcr_pipeline_frames *w, const int rewrite)
{
	const struct fcr_flow_table *ft = p->tables->flows;
	const struct fcr_route_table *rt = p->tables->routes;
	unsigned int i;

	/* the entries' action words and this worker's counters: one miss
	 * each per frame in a large table, started together here */
	for (i = 0; i < k; i++)
		if (w->idx[i] != FCR_FLOW_NONE) {
			rte_prefetch0(&ft->action[w->idx[i]]);
			rte_prefetch0_write(&ft->counters[p->worker][w->idx[i]]);
		}
	for (i = 0; i < k; i++) {
		struct rte_mbuf *m = pkts[w->pos[i]];
		uint64_t a;
		uint32_t s, d;
		int xf;

		w->missed[i] = w->idx[i] == FCR_FLOW_NONE;
		if (w->missed[i]) {
			/* the mark: no entry looked up, none to report */
			if (unlikely(w->f[i].mark))
				w->missed[i] = 0;
			else
				nev += fcr_pipeline_report_first(p, w->key[i], &w->f[i],
								 &ev[nev], now);
			w->did[i] = w->f[i].d_id;
			w->sid[i] = w->f[i].s_id;
			w->rkey[i] = fcr_route_key(rt, w->f[i].vlan, w->did[i]);
			w->leg[i] = FCR_LEG_PLAIN;
			continue;
		}
		a = fcr_flow_action_load(ft, w->idx[i]);
		fcr_flow_count(&ft->counters[p->worker][w->idx[i]],
			       rte_pktmbuf_pkt_len(m), now);
		s = fcr_action_sid(a);
		d = fcr_action_did(a);
		w->leg[i] = (uint8_t)fcr_action_leg(a);
		xf = fcr_flow_exchange_frame(w->f[i].r_ctl);
		if (unlikely(a & FCR_ACTION_DRAIN))
			w->leg[i] = fcr_pipeline_drain(p->tables->redirects, a, w->leg[i],
						       &ft->exchanges[p->worker][w->idx[i]],
						       &w->f[i], w->from_fabric);
		else if (unlikely(xf))
			w->leg[i] = fcr_pipeline_exchange(
				a, w->leg[i], &ft->exchanges[p->worker][w->idx[i]], &w->f[i],
				w->from_fabric);
		/* a command or response sent on one of the four legs */
		if (unlikely(xf && w->leg[i] - 1u < 4u && p->lat_stale != 0))
			fcr_pipeline_latency(p, &w->f[i], w->leg[i], ft->owner[w->idx[i]], now);
		/* the route's tbl24 entry (domain and area routes: the
		 * lookup is this one read) */
		w->rkey[i] = fcr_route_key(rt, w->f[i].vlan, d);
		rte_prefetch0(&rt->lpm->tbl24[w->rkey[i] >> 8]);
		if (rewrite && (s != w->f[i].s_id || d != w->f[i].d_id))
			fcr_rewrite_ids(m, &w->f[i], s, d);
		w->did[i] = d;
		w->sid[i] = s;
	}
	return nev;
}

/* The destination MAC a route gives: the VLAN's FC-MAP || D_ID, or its own. */
static inline void
fcr_pipeline_hop_dst(const struct fcr_pipeline *p, struct rte_ether_hdr *eth,
		     const struct fcr_nexthop *hop, uint16_t vlan, uint32_t d_id)
{
	if (hop->flags & FCR_NH_FPMA)
		fcr_fpma(eth->dst_addr.addr_bytes, fcr_tables_fc_map(p->tables, vlan), d_id);
	else
		memcpy(eth->dst_addr.addr_bytes, hop->mac, 6);
}

/* A VN_Port's source word names a port to send its frames to: learned
 * (one port, one MAC) on an edge port that exists. */
static inline int
fcr_pipeline_vn_hop(const struct fcr_pipeline *p, uint64_t vn)
{
	unsigned int port = (unsigned int)(vn >> 48) & 0xFF;

	return vn != 0 && !(vn & (FCR_VN_ANY_MAC | FCR_VN_LEAVING)) && port < p->nb_ports &&
	       !(p->fabric_mask >> port & 1);
}

/* That port, to the VN_Port's own MAC (FPMA or SPMA). */
static inline void
fcr_pipeline_vn_nexthop(uint64_t vn, struct fcr_nexthop *hop)
{
	hop->port = (uint16_t)(vn >> 48 & 0xFF);
	hop->flags = 0;
	fcr_vn_mac(vn, hop->mac);
}

/*
 * MACs in a fabric (FC-BB-5): an ENode takes a frame only from its FCF's
 * MAC and only for its VN_Port's MAC (low 24 bits the D_ID); the FCF only
 * from the VN_Port MAC of the S_ID, and only for a VN_Port that logged in
 * to it. fcredirect is not the FCF, so it never writes its own port MAC:
 *   to an edge port: source the FCF the D_ID's VN_Port logged in to (vto,
 *   its source word), else the FCF's MAC in the frame (the source the FCF
 *   sent from, the destination an ENode addressed); destination the
 *   route's (FPMA);
 *   to a fabric port: the frame's MACs, but for a rewritten S_ID: source
 *   that VN_Port's MAC, destination its FCF (its source word, looked up
 *   here: only such frames pay for it; FPMA of the S_ID and the frame's
 *   FCF when not known).
 * With one FCF on a VLAN the words name the FCF in the frame; with several,
 * a redirect's leg joins VN_Ports of different FCFs.
 */
static inline void
fcr_pipeline_fabric_macs(struct fcr_pipeline *p, struct rte_ether_hdr *eth,
			 uint16_t in_port, const struct fcr_nexthop *hop, uint16_t vlan,
			 uint32_t s_in, uint32_t s_out, uint32_t d_out, uint64_t vto)
{
	int from_fabric = p->fabric_mask >> in_port & 1;
	int to_fabric = p->fabric_mask >> hop->port & 1;
	uint64_t key, vfrom;
	uint8_t fcf[6];

	if (!to_fabric) {
		if (fcr_tables_vn_fcf_mac(p->tables, vto, fcf) < 0)
			memcpy(fcf, from_fabric ? eth->src_addr.addr_bytes :
			       eth->dst_addr.addr_bytes, 6);
		fcr_pipeline_hop_dst(p, eth, hop, vlan, d_out);
		memcpy(eth->src_addr.addr_bytes, fcf, 6);
		return;
	}
	if (s_out == s_in)
		return;
	key = fcr_vn_key(vlan, s_out);
	fcr_vn_lookup_cached(p->tables->bindings, &p->vcache, &key, 1, &vfrom);
	if (vfrom & FCR_VN_LEAVING)
		vfrom = 0;
	if (vfrom != 0 && !(vfrom & FCR_VN_ANY_MAC))
		fcr_vn_mac(vfrom, eth->src_addr.addr_bytes);
	else
		fcr_fpma(eth->src_addr.addr_bytes, fcr_tables_fc_map(p->tables, vlan), s_out);
	(void)fcr_tables_vn_fcf_mac(p->tables, vfrom, eth->dst_addr.addr_bytes);
}

/*
 * Route the k frames in bulk, each by its VLAN's routes (fcr_route.h):
 * out[] gets each one's port (held for a login frame) with its MACs set, or
 * a drop (redirect not ready: fail closed; no route; no such port).
 * ev[0..nev) are the burst's events, for the logins of dropped frames to
 * hold nothing.
 */
static __rte_always_inline void
fcr_pipeline_route(struct fcr_pipeline *p, uint16_t in_port, struct rte_mbuf **pkts,
		   unsigned int k, uint16_t *out, struct fcr_pipeline_stats *st,
		   struct fcr_event *ev, unsigned int nev,
		   const struct fcr_pipeline_frames *w)
{
	const struct fcr_flow_table *ft = p->tables->flows;
	const struct fcr_route_table *rt = p->tables->routes;
	uint32_t nh[FCR_PIPELINE_BURST_MAX];
	uint64_t vk[FCR_PIPELINE_BURST_MAX], vn[FCR_PIPELINE_BURST_MAX];
	uint64_t vto[FCR_PIPELINE_BURST_MAX];
	uint8_t vi[FCR_PIPELINE_BURST_MAX];
	unsigned int i, nv = 0;

	fcr_route_lookup_bulk(rt, w->rkey, nh, k);
	/* in a fabric: where the D_ID's VN_Port logged in, for what came from
	 * the FCF and what a redirect rewrote, here or upstream (the mark; an
	 * edge station's plain frames follow the routes: to the FCF, which
	 * zones them) */
	if (p->fabric_mask != 0) {
		for (i = 0; i < k; i++) {
			vto[i] = 0;
			if ((p->fabric_mask >> in_port & 1) || w->leg[i] != FCR_LEG_PLAIN ||
			    w->f[i].mark) {
				vk[nv] = fcr_vn_key(w->f[i].vlan, w->did[i]);
				vi[nv++] = (uint8_t)i;
			}
		}
		if (nv != 0)
			fcr_vn_lookup_cached(p->tables->bindings, &p->vcache, vk, nv, vn);
		for (i = 0; i < nv; i++)
			if (fcr_pipeline_vn_hop(p, vn[i]))
				vto[vi[i]] = vn[i];
			else if (vn[i] & FCR_VN_LEAVING)
				vto[vi[i]] = FCR_VN_LEAVING;
	}
	for (i = 0; i < k; i++) {
		struct rte_mbuf *m = pkts[w->pos[i]];
		const struct fcr_nexthop *hop;
		struct fcr_nexthop vhop;
		struct rte_ether_hdr *eth;
		enum fcr_reason r = FCR_R_OK;

		hop = NULL;
		if (unlikely(w->leg[i] >= FCR_LEG_HELD)) {
			/* not a leg a frame is sent on (one test for all four) */
			if (w->leg[i] == FCR_LEG_HELD) {
				/* its initiator retries it once logged in again */
				r = FCR_R_CUTOVER_HELD;
			} else if (w->leg[i] == FCR_LEG_NEW_EXCHANGE) {
				r = FCR_R_CUTOVER_NEW_EXCHANGE;
			} else if (w->leg[i] == FCR_LEG_HIDDEN) {
				r = FCR_R_REDIRECT_HIDDEN;
			} else {
				const struct fcr_redirect_table *rd = p->tables->redirects;
				uint32_t o = ft->owner[w->idx[i]];

				/* fail closed: the pair never talks directly */
				r = FCR_R_REDIRECT_NOT_READY;
				if (o < rd->capacity)
					rd->not_ready[p->worker][o]++;
			}
		} else if (unlikely(p->fabric_mask != 0 && vto[i] == FCR_VN_LEAVING)) {
			/* told to log in again: it would refuse what is
			 * left of its old exchanges */
			r = FCR_R_VN_PORT_GONE;
		} else if (p->fabric_mask != 0 && vto[i] != 0) {
			fcr_pipeline_vn_nexthop(vto[i], &vhop);
			hop = &vhop;
		} else if (unlikely(nh[i] == FCR_ROUTE_NONE)) {
			r = FCR_R_NO_ROUTE;
		} else if (unlikely(rt->nexthop[nh[i]].port >= p->nb_ports)) {
			r = FCR_R_NO_PORT;
		} else {
			hop = &rt->nexthop[nh[i]];
		}
		/* the service node's data on its way to the target, in the
		 * clear: its pair's I/O was never meant to reach it so */
		if (unlikely(p->guard_every != 0 && w->leg[i] == FCR_LEG_VI_TO_TARGET) &&
		    fcr_pipeline_guard(p, m, &w->f[i], ft->owner[w->idx[i]], st) &&
		    p->guard_drop) {
			hop = NULL;
			r = FCR_R_CLEARTEXT;
		}
		/* a snooping bridge never sends a frame back to the FCF port it
		 * came from: the FCF would send it straight back, a loop */
		if (unlikely(hop != NULL && hop->port == in_port &&
			     (p->fabric_mask >> in_port & 1))) {
			hop = NULL;
			r = FCR_R_FABRIC_LOOP;
		}
		/* the login server's reply to an FCID not bound yet (a login's
		 * accept): the port its request came from is known once the
		 * tables lcore has applied it, and the worker sends it there
		 * then (fcr_pipeline_reply_port); meanwhile as routed, or its
		 * port in, which it never goes back out of. As the FCF
		 * addressed it: to the ENode's MAC. */
		if (unlikely(w->hold[i] && w->from_fabric && w->f[i].s_id == FCR_FCID_FLOGI &&
			     vto[i] == 0)) {
			out[w->pos[i]] = (uint16_t)((hop != NULL ? hop->port : in_port) |
						    FCR_OUT_HOLD | FCR_OUT_REPLY);
			st->flow_miss += w->missed[i];
			continue;
		}
		if (unlikely(hop == NULL)) {
			out[w->pos[i]] = FCR_OUT_DROP;
			st->drop[r]++;
			if (w->hold[i])
				fcr_pipeline_unhold(ev, nev, w->pos[i]);
			continue;
		}
		eth = rte_pktmbuf_mtod(m, struct rte_ether_hdr *);
		if (p->fabric_mask != 0)
			fcr_pipeline_fabric_macs(p, eth, in_port, hop, w->f[i].vlan, w->f[i].s_id,
						 w->sid[i], w->did[i],
						 vto[i] == FCR_VN_LEAVING ? 0 : vto[i]);
		else {
			fcr_pipeline_hop_dst(p, eth, hop, w->f[i].vlan, w->did[i]);
			memcpy(eth->src_addr.addr_bytes, p->port_mac[hop->port], 6);
		}
		if (unlikely(w->f[i].type == FCR_TYPE_ELS && w->leg[i] != FCR_LEG_PLAIN))
			fcr_pipeline_els_ids(p, m, &w->f[i], w->leg[i],
					     ft->owner[w->idx[i]], w->sid[i], w->did[i], st);
		st->leg[w->leg[i]]++;
		st->leg_bytes[w->leg[i]] += rte_pktmbuf_pkt_len(m);
		st->flow_miss += w->missed[i];
		out[w->pos[i]] = (uint16_t)(hop->port | (w->hold[i] ? FCR_OUT_HOLD : 0));
	}
	/* the frames with the mark sent (a burst with none pays nothing) */
	if (unlikely(w->nmark != 0))
		for (i = 0; i < k; i++)
			st->series += w->f[i].mark && out[w->pos[i]] != FCR_OUT_DROP;
}

#endif /* FCR_PIPELINE_STAGES_H */
