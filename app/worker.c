/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The worker loop: receive a burst, parse, look the flows up in bulk,
 * rewrite, route in bulk, set MACs, buffer for TX; TX buffers drain on a TSC
 * timer so a trickle is not held back. Nothing here locks, allocates or
 * makes a system call per frame.
 */
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_prefetch.h>
#include <rte_rcu_qsbr.h>
#include <rte_ring_elem.h>

#include "fcr_build.h"
#include "fcr_crc.h"
#include "fcr_event.h"
#include "fcr_frame.h"
#include "fcr_login.h"
#include "fcr_tables.h"
#include "fwd.h"

#define BURST_MAX 64
#define FIP_SNOOP_MAX 2560 /* larger than any FIP frame a port delivers */

static inline void
send_event(struct fcr_worker *w, struct fcr_event *ev)
{
	ev->worker = (uint16_t)w->id;
	ev->tsc = rte_rdtsc();
	if (rte_ring_enqueue_elem(w->events, ev, sizeof(*ev)) != 0)
		w->st.events_lost++;
}

static inline void
report_first_frame(struct fcr_worker *w, uint64_t key)
{
	/* One event per new flow, not one per frame of its first bursts. */
	unsigned int slot = (unsigned int)((key * 0x9E3779B97F4A7C15ull) >> 56);
	struct fcr_event ev;

	if (w->recent[slot] == key)
		return;
	fcr_event_flow(&ev, key);
	send_event(w, &ev);
	w->recent[slot] = key;
}

static void
snoop_login(struct fcr_worker *w, struct fcr_login *l, const uint8_t *eth)
{
	struct fcr_event ev;

	if (l->kind == FCR_LOGIN_NONE)
		return;
	if (eth != NULL) {
		memcpy(l->eth_dst, eth, 6);
		memcpy(l->eth_src, eth + 6, 6);
	}
	fcr_event_login(&ev, l);
	w->st.logins++;
	send_event(w, &ev);
}

static void
snoop_els(struct fcr_worker *w, struct rte_mbuf *m, const struct fcr_frame *f)
{
	uint8_t buf[FCR_ELS_SPARM_LEN];
	uint32_t n = RTE_MIN((uint32_t)f->payload_len, (uint32_t)sizeof(buf));
	const uint8_t *p;
	struct fcr_login l;

	if (f->r_ctl != FCR_RCTL_ELS_REQ && f->r_ctl != FCR_RCTL_ELS_REP)
		return;
	/* a corrupted login must not teach a wrong binding; logins are rare,
	 * so the full check costs nothing that matters */
	if (fcr_frame_verify_crc_mbuf(m, f) != FCR_R_OK) {
		w->st.logins_bad_crc++;
		return;
	}
	p = rte_pktmbuf_read(m, f->fc_off + FCR_FC_HLEN, n, buf);
	if (p == NULL || fcr_login_from_els(f, p, n, &l) != FCR_R_OK)
		return;
	snoop_login(w, &l, rte_pktmbuf_mtod(m, const uint8_t *));
}

static void
snoop_fip(struct fcr_worker *w, struct rte_mbuf *m)
{
	uint8_t buf[FIP_SNOOP_MAX];
	uint32_t n = RTE_MIN(rte_pktmbuf_pkt_len(m), (uint32_t)sizeof(buf));
	const uint8_t *p = rte_pktmbuf_read(m, 0, n, buf);
	struct fcr_login l;

	if (p != NULL && fcr_login_parse(p, n, &l) == FCR_R_OK)
		snoop_login(w, &l, NULL);
}

static inline void
tx_frame(struct fcr_worker *w, uint16_t port, struct rte_mbuf *m)
{
	w->st.tx[port]++;
	rte_eth_tx_buffer(port, w->txq, w->txb[port], m);
}

static inline void
drop(struct fcr_worker *w, struct rte_mbuf *m, enum fcr_reason r)
{
	w->st.drop[r]++;
	rte_pktmbuf_free(m);
}

/* The CRC may sit in a later segment of a chained mbuf. */
static inline void
put_crc(struct rte_mbuf *m, uint32_t off, uint32_t crc)
{
	uint8_t b[4];
	uint32_t i;

	if (likely(off + 4 <= rte_pktmbuf_data_len(m))) {
		fcr_crc_store(rte_pktmbuf_mtod_offset(m, uint8_t *, off), crc);
		return;
	}
	fcr_crc_store(b, crc);
	for (i = 0; i < 4; i++) {
		struct rte_mbuf *s = m;
		uint32_t o = off + i;

		while (s != NULL && o >= s->data_len) {
			o -= s->data_len;
			s = s->next;
		}
		if (s != NULL)
			*rte_pktmbuf_mtod_offset(s, uint8_t *, o) = b[i];
	}
}

static inline void
rewrite_ids(struct rte_mbuf *m, const struct fcr_frame *f, uint32_t sid,
	    uint32_t did)
{
	uint8_t *fc = rte_pktmbuf_mtod_offset(m, uint8_t *, f->fc_off);

	fcr_put_be24(fc + FCR_FC_D_ID, did);
	fcr_put_be24(fc + FCR_FC_S_ID, sid);
	/* incremental: a CRC that was bad on arrival stays exactly as bad */
	put_crc(m, fcr_frame_crc_off(f),
		fcr_crc_update_ids(f->crc, f->fc_len, f->d_id, did, f->s_id, sid));
}

static void
process_burst(struct fcr_worker *w, uint16_t in_port, struct rte_mbuf **pkts,
	      uint16_t n)
{
	const struct fcr_tables *t = fcr_fwd.tables;
	const struct fcr_flow_table *ft = t->flows;
	const struct fcr_route_table *rt = t->routes;
	struct fcr_frame f[BURST_MAX];
	struct rte_mbuf *fc[BURST_MAX];
	uint64_t key[BURST_MAX];
	uint32_t idx[BURST_MAX], did[BURST_MAX], lkey[BURST_MAX], nh[BURST_MAX];
	uint8_t leg[BURST_MAX];
	unsigned int i, k = 0;
	uint64_t now;

	for (i = 0; i < n && i < 4; i++)
		rte_prefetch0(rte_pktmbuf_mtod(pkts[i], void *));
	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i];
		enum fcr_reason r;

		if (i + 4 < n)
			rte_prefetch0(rte_pktmbuf_mtod(pkts[i + 4], void *));
		r = fcr_frame_parse_mbuf(m, &f[k]);
		if (likely(r == FCR_R_OK)) {
			if (unlikely(rte_pktmbuf_data_len(m) <
				     (uint32_t)f[k].fc_off + FCR_FC_HLEN)) {
				drop(w, m, FCR_R_SPLIT_HEADER);
				continue;
			}
			if (unlikely(f[k].type == FCR_TYPE_ELS))
				snoop_els(w, m, &f[k]);
			key[k] = fcr_flow_key(f[k].vlan, f[k].s_id, f[k].d_id);
			fc[k++] = m;
		} else if (r == FCR_R_NOT_FCOE) {
			uint16_t out = fcr_fwd.passthrough[in_port];

			if (f[k].ethertype == FCR_ETHERTYPE_FIP)
				snoop_fip(w, m);
			if (out >= fcr_fwd.nb_ports) {
				drop(w, m, FCR_R_NO_PASSTHROUGH);
			} else {
				w->st.passthrough++;
				tx_frame(w, out, m);
			}
		} else {
			drop(w, m, r);
		}
	}
	if (k == 0)
		return;

	fcr_flow_lookup_bulk(ft, key, k, idx);
	now = rte_rdtsc();
	for (i = 0; i < k; i++) {
		uint64_t a;
		uint32_t s, d;

		if (idx[i] == FCR_FLOW_NONE) {
			w->st.flow_miss++;
			report_first_frame(w, key[i]);
			did[i] = f[i].d_id;
			leg[i] = FCR_LEG_PLAIN;
			continue;
		}
		a = fcr_flow_action_load(ft, idx[i]);
		fcr_flow_count(&ft->counters[w->id][idx[i]],
			       rte_pktmbuf_pkt_len(fc[i]), now);
		s = fcr_action_sid(a);
		d = fcr_action_did(a);
		leg[i] = (uint8_t)fcr_action_leg(a);
		if (s != f[i].s_id || d != f[i].d_id)
			rewrite_ids(fc[i], &f[i], s, d);
		did[i] = d;
	}

	fcr_route_lookup_bulk(rt, did, lkey, nh, k);
	for (i = 0; i < k; i++) {
		const struct fcr_nexthop *hop;
		struct rte_ether_hdr *eth;

		if (unlikely(nh[i] == FCR_ROUTE_NONE)) {
			drop(w, fc[i], FCR_R_NO_ROUTE);
			continue;
		}
		hop = &rt->nexthop[nh[i]];
		if (unlikely(hop->port >= fcr_fwd.nb_ports)) {
			drop(w, fc[i], FCR_R_NO_PORT);
			continue;
		}
		eth = rte_pktmbuf_mtod(fc[i], struct rte_ether_hdr *);
		if (hop->flags & FCR_NH_FPMA)
			fcr_fpma(eth->dst_addr.addr_bytes, fcr_fwd.fc_map, did[i]);
		else
			memcpy(eth->dst_addr.addr_bytes, hop->mac, 6);
		rte_ether_addr_copy(&fcr_fwd.port_mac[hop->port], &eth->src_addr);
		w->st.leg[leg[i]]++;
		tx_frame(w, hop->port, fc[i]);
	}
}

static void
flush_all(struct fcr_worker *w)
{
	uint16_t p;

	for (p = 0; p < fcr_fwd.nb_ports; p++)
		rte_eth_tx_buffer_flush(p, w->txq, w->txb[p]);
}

int
fcr_worker_main(void *arg)
{
	struct fcr_worker *w = arg;
	struct rte_mbuf *pkts[BURST_MAX];
	uint16_t burst = RTE_MIN(fcr_fwd.burst, (uint16_t)BURST_MAX);
	uint64_t prev = rte_rdtsc(), cur, t0;
	uint16_t i, n;

	memset(w->recent, 0xFF, sizeof(w->recent));
	rte_rcu_qsbr_thread_register(fcr_fwd.qsbr, w->id);
	w->paused = 1;
	while (!__atomic_load_n(&fcr_fwd.quit, __ATOMIC_ACQUIRE)) {
		if (!__atomic_load_n(&fcr_fwd.forwarding, __ATOMIC_ACQUIRE)) {
			if (!w->paused) {
				flush_all(w);
				rte_rcu_qsbr_thread_offline(fcr_fwd.qsbr, w->id);
				__atomic_store_n(&w->paused, 1, __ATOMIC_RELEASE);
			}
			usleep(200);
			continue;
		}
		if (w->paused) {
			rte_rcu_qsbr_thread_online(fcr_fwd.qsbr, w->id);
			__atomic_store_n(&w->paused, 0, __ATOMIC_RELEASE);
		}
		rte_rcu_qsbr_quiescent(fcr_fwd.qsbr, w->id);

		cur = rte_rdtsc();
		if (unlikely(cur - prev > fcr_fwd.drain_tsc)) {
			flush_all(w);
			/* forget reported first frames, so a flow whose
			 * event was lost or whose entry went is reported again */
			memset(w->recent, 0xFF, sizeof(w->recent));
			prev = cur;
		}
		for (i = 0; i < w->nb_rxq; i++) {
			const struct fcr_rxq *q = &w->rxq[i];

			t0 = rte_rdtsc();
			n = rte_eth_rx_burst(q->port, q->queue, pkts, burst);
			w->st.polls++;
			if (n == 0)
				continue;
			w->st.rx[q->port] += n;
			w->st.frames += n;
			process_burst(w, q->port, pkts, n);
			w->st.busy_polls++;
			w->st.busy_cycles += rte_rdtsc() - t0;
		}
	}
	if (!w->paused) {
		flush_all(w);
		rte_rcu_qsbr_thread_offline(fcr_fwd.qsbr, w->id);
		w->paused = 1;
	}
	rte_rcu_qsbr_thread_unregister(fcr_fwd.qsbr, w->id);
	return 0;
}
