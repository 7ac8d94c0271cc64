/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The worker loop, l2fwd-style: receive a burst, let the pipeline decide and
 * rewrite (lib/forward/fcr_pipeline.c), hand frames to per-port TX buffers that
 * drain on a TSC timer so a trickle is not held back, pass events to the
 * tables lcore's ring. Nothing here locks, allocates or makes a system call
 * per frame; a full ring or TX queue is counted, never waited on. Fabric
 * login frames wait in a FIFO until the tables lcore says it applied their
 * events (login_applied), so no login completes before its binding and
 * rules are in the tables; the fabric's RSCNs wait in it too, behind the
 * events given before them.
 */
#include <sched.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_pause.h>
#include <rte_rcu_qsbr.h>
#include <rte_ring_elem.h>

#include "fcr_tables.h"
#include "fwd.h"
#include "wake.h"

/* Is login number seq among the events ev[sent..n) the ring refused? */
static int
lost_login(const struct fcr_event *ev, unsigned int sent, unsigned int n, uint32_t seq)
{
	for (; sent < n; sent++)
		if (ev[sent].type == FCR_EV_LOGIN && ev[sent].seq == seq)
			return 1;
	return 0;
}

static inline unsigned int
send_events(struct fcr_worker *w, const struct fcr_event *ev, unsigned int n)
{
	unsigned int sent;

	if (likely(n == 0))
		return 0;
	sent = rte_ring_enqueue_burst_elem(w->events, ev, sizeof(ev[0]), n, NULL);
	w->st.events_lost += n - sent;
	if (sent != 0)
		fcr_wake();
	return sent;
}

static inline void
send_frame(struct fcr_worker *w, struct rte_mbuf *m, uint16_t port)
{
	w->st.tx[port]++;
	/* a tag the NIC took off goes back on at TX */
	if (unlikely(m->ol_flags & RTE_MBUF_F_RX_VLAN_STRIPPED))
		m->ol_flags |= RTE_MBUF_F_TX_VLAN;
	rte_eth_tx_buffer(port, w->txq, w->txb[port], m);
}

/* A frame to its port, or to each of a fabric port's edge ports (a copy
 * each but the last: FIP is rare and small). */
static void
send_out(struct fcr_worker *w, struct rte_mbuf *m, uint16_t out)
{
	uint32_t mask;
	uint16_t p;

	if (likely(!(out & FCR_OUT_FLOOD))) {
		send_frame(w, m, out);
		return;
	}
	mask = fcr_fwd.flood[out & ~FCR_OUT_FLOOD];
	while (mask != 0) {
		struct rte_mbuf *c = m;

		p = (uint16_t)__builtin_ctz(mask);
		mask &= mask - 1;
		if (mask != 0) {
			c = rte_pktmbuf_copy(m, m->pool, 0, UINT32_MAX);
			if (c == NULL) {
				w->st.pl.drop[FCR_R_NO_MBUF]++;
				w->st.made++; /* a copy that was not */
				continue;
			}
			w->st.made++;
		}
		send_frame(w, c, p);
	}
}

/* Send the held login frames whose events the tables lcore has applied. */
static inline void
release_held(struct fcr_worker *w)
{
	uint32_t applied;
	uint64_t now, us;

	if (likely(w->held_head == w->held_tail))
		return;
	applied = __atomic_load_n(&w->login_applied, __ATOMIC_ACQUIRE);
	now = rte_rdtsc();
	while (w->held_head != w->held_tail) {
		struct fcr_held *h = &w->held[w->held_head % FCR_HELD_MAX];

		if ((int32_t)(applied - h->seq) < 0)
			break;
		us = (now - h->tsc) * 1000000 / rte_get_tsc_hz();
		w->st.hold_us[RTE_MIN(us / FCR_HOLD_BUCKET_US, (uint64_t)FCR_HOLD_BUCKETS - 1)]++;
		if (now - h->tsc > w->st.hold_max_tsc)
			w->st.hold_max_tsc = now - h->tsc;
		w->held_head++;
		if (unlikely(h->reply != 0 || h->deferred)) {
			/* applied: the tables say where its request came from */
			uint64_t vn = 0;
			uint16_t to;

			if (h->reply != 0)
				fcr_vn_lookup_cached(fcr_fwd.tables->bindings,
						     &w->pipeline.vcache, &h->reply, 1, &vn);
			to = fcr_pipeline_reply_port(vn, h->port, h->in_port);
			if (to == FCR_OUT_DROP) {
				w->st.pl.drop[FCR_R_LOGIN_REFUSED]++;
				rte_pktmbuf_free(h->m);
				continue;
			}
			if (h->deferred) {
				w->st.pl.leg[FCR_LEG_PLAIN]++;
				w->st.pl.leg_bytes[FCR_LEG_PLAIN] += rte_pktmbuf_pkt_len(h->m);
			}
			send_out(w, h->m, to);
			continue;
		}
		send_out(w, h->m, h->port);
	}
}

static void
forward_burst(struct fcr_worker *w, uint16_t in_port, struct rte_mbuf **pkts,
	      uint16_t n)
{
	struct fcr_event ev[FCR_PIPELINE_EVENTS_MAX];
	uint16_t out[FCR_PIPELINE_BURST_MAX], i;
	uint32_t seq_of[FCR_PIPELINE_BURST_MAX];
	uint64_t reply[FCR_PIPELINE_BURST_MAX];
	uint64_t own = 0; /* frames with a login event of their own */
	uint64_t now = rte_rdtsc();
	unsigned int nev, sent, j;

	if (unlikely(__atomic_load_n(&fcr_fwd.store_refused, __ATOMIC_ACQUIRE))) {
		w->st.pl.drop[FCR_R_STORE_REFUSED] += n;
		rte_pktmbuf_free_bulk(pkts, n);
		return;
	}
	nev = fcr_pipeline_burst(&w->pipeline, in_port, pkts, n, out, &w->st.pl,
				 ev, now);
	/* number the logins; a held frame waits for its own number, one
	 * with none (an RSCN) for the last this worker gave */
	RTE_BUILD_BUG_ON(FCR_PIPELINE_BURST_MAX > 64);
	for (j = 0; j < nev; j++) {
		if (ev[j].type != FCR_EV_LOGIN)
			continue;
		i = ev[j].seq < n ? (uint16_t)ev[j].seq : UINT16_MAX;
		ev[j].seq = ++w->login_seq;
		if (i != UINT16_MAX) {
			seq_of[i] = ev[j].seq;
			own |= 1ull << i;
			reply[i] = fcr_fwd.fabric_mask >> in_port & 1 ?
				fcr_pipeline_reply_key(&ev[j]) : 0;
		}
	}
	/* events first: a held frame's event is in the ring before it waits */
	sent = send_events(w, ev, nev);
	for (j = sent; j-- > 0;)
		if (ev[j].type == FCR_EV_LOGIN) {
			w->login_sent = ev[j].seq;
			break;
		}
	for (i = 0; i < n; i++) {
		struct fcr_held *h;

		if (out[i] == FCR_OUT_DROP) {
			rte_pktmbuf_free(pkts[i]);
			continue;
		}
		if (likely(!(out[i] & FCR_OUT_HOLD))) {
			send_out(w, pkts[i], out[i]);
			continue;
		}
		/* an RSCN waits behind the events this worker gave; with no
		 * room to wait it goes now (a port that misses the news never
		 * looks again) */
		if (!(own >> i & 1)) {
			seq_of[i] = w->login_sent;
			reply[i] = 0;
			if (w->held_tail - w->held_head >= FCR_HELD_MAX) {
				send_out(w, pkts[i], (uint16_t)(out[i] & ~FCR_OUT_HOLD));
				continue;
			}
		}
		/* its event lost (ring full) or no room to wait: a fabric
		 * login frame never passes unapplied (the ENode retries) */
		if (w->held_tail - w->held_head >= FCR_HELD_MAX ||
		    (sent < nev && (own >> i & 1) && lost_login(ev, sent, nev, seq_of[i]))) {
			w->st.pl.drop[FCR_R_LOGIN_HELD_FULL]++;
			rte_pktmbuf_free(pkts[i]);
			continue;
		}
		h = &w->held[w->held_tail++ % FCR_HELD_MAX];
		h->m = pkts[i];
		h->tsc = now;
		h->seq = seq_of[i];
		h->port = (uint16_t)(out[i] & ~(FCR_OUT_HOLD | FCR_OUT_REPLY));
		h->in_port = in_port;
		h->reply = reply[i];
		h->deferred = (out[i] & FCR_OUT_REPLY) != 0;
	}
	release_held(w);
}

/* A burst from a source: the NIC queue, or a distributor's ring. */
static inline uint16_t
receive(const struct fcr_rxq *q, struct rte_mbuf **pkts, uint16_t burst)
{
	if (q->ring != NULL)
		return (uint16_t)rte_ring_dequeue_burst(q->ring, (void **)pkts, burst, NULL);
	return rte_eth_rx_burst(q->port, q->queue, pkts, burst);
}

/* At a stop: once every distributor has acknowledged it, the frames still
 * in this worker's rings are forwarded, so the stop's counters add up. */
static void
empty_rings(struct fcr_worker *w)
{
	struct rte_mbuf *pkts[FCR_PIPELINE_BURST_MAX];
	unsigned int d, i;
	uint16_t n;

	for (d = 0; d < fcr_fwd.nb_distributors; d++)
		while (!__atomic_load_n(&fcr_fwd.distributors[d]->paused, __ATOMIC_ACQUIRE) &&
		       !__atomic_load_n(&fcr_fwd.quit, __ATOMIC_ACQUIRE))
			rte_pause();
	for (i = 0; i < w->nb_rxq; i++) {
		const struct fcr_rxq *q = &w->rxq[i];

		if (q->ring == NULL)
			continue;
		while ((n = receive(q, pkts, FCR_PIPELINE_BURST_MAX)) != 0) {
			rte_rcu_qsbr_quiescent(fcr_fwd.qsbr, w->id);
			w->st.rx[q->port] += n;
			w->st.frames += n;
			forward_burst(w, q->port, pkts, n);
		}
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
	struct rte_mbuf *pkts[FCR_PIPELINE_BURST_MAX];
	uint16_t burst = RTE_MIN(fcr_fwd.burst, (uint16_t)FCR_PIPELINE_BURST_MAX);
	uint64_t prev = rte_rdtsc(), cur, t0;
	uint16_t i, n;
	unsigned int round, nap = 100;

	w->pipeline = (struct fcr_pipeline){
		.tables = fcr_fwd.tables,
		.port_mac = (const uint8_t (*)[6])fcr_fwd.port_mac,
		.passthrough = fcr_fwd.passthrough,
		.flood = fcr_fwd.flood,
		.nb_ports = fcr_fwd.nb_ports,
		.fabric_mask = fcr_fwd.fabric_mask,
		.series_mask = fcr_fwd.series_mask,
		.worker = w->id,
		.guard_every = fcr_fwd.guard_every,
		.guard_drop = fcr_fwd.guard_drop,
		/* a command unanswered for 2 s: the exchange is not timed */
		.lat_tsc_per_us = RTE_MAX(rte_get_tsc_hz() / 1000000, (uint64_t)1),
		.lat_stale = 2 * rte_get_tsc_hz(),
	};
	fcr_pipeline_forget(&w->pipeline, NULL, 0);
	rte_rcu_qsbr_thread_register(fcr_fwd.qsbr, w->id);
	w->shares_core = fcr_lcore_shares_core(w->lcore);
	w->paused = 1;
	while (!__atomic_load_n(&fcr_fwd.quit, __ATOMIC_ACQUIRE)) {
		if (!__atomic_load_n(&fcr_fwd.forwarding, __ATOMIC_ACQUIRE)) {
			if (!w->paused) {
				empty_rings(w);
				/* the tables lcore applies what it was sent: the held
				 * frames go before the stop is acknowledged */
				while (w->held_head != w->held_tail &&
				       !__atomic_load_n(&fcr_fwd.quit, __ATOMIC_ACQUIRE)) {
					rte_rcu_qsbr_quiescent(fcr_fwd.qsbr, w->id);
					release_held(w);
					rte_pause();
				}
				flush_all(w);
				rte_rcu_qsbr_thread_offline(fcr_fwd.qsbr, w->id);
				__atomic_store_n(&w->paused, 1, __ATOMIC_RELEASE);
				nap = 100;
			}
			/* stopped: a start is seen within 10 ms, without
			 * thousands of wake-ups a second */
			usleep(nap);
			nap = RTE_MIN(nap * 2, 10000u);
			continue;
		}
		if (w->paused) {
			rte_rcu_qsbr_thread_online(fcr_fwd.qsbr, w->id);
			__atomic_store_n(&w->paused, 0, __ATOMIC_RELEASE);
		}
		/* nothing read from the tables before this point is held */
		rte_rcu_qsbr_quiescent(fcr_fwd.qsbr, w->id);

		cur = rte_rdtsc();
		if (unlikely(cur - prev > fcr_fwd.drain_tsc)) {
			struct rte_mbuf *inj[8];
			unsigned int k, ni = w->inject == NULL ? 0 :
				rte_ring_dequeue_burst(w->inject, (void **)inj, 8, NULL);

			/* frames the tables lcore asked to be sent */
			for (k = 0; k < ni; k++)
				send_frame(w, inj[k], inj[k]->port);
			w->st.made += ni;
			flush_all(w);
			send_events(w, w->forget_ev,
				    fcr_pipeline_forget(&w->pipeline, w->forget_ev, cur));
			prev = cur;
		}
		release_held(w);
		round = 0;
		t0 = rte_rdtsc();
		for (i = 0; i < w->nb_rxq; i++) {
			const struct fcr_rxq *q = &w->rxq[i];

			n = receive(q, pkts, burst);
			w->st.polls++;
			round += n;
			if (n == 0)
				continue;
			w->st.rx[q->port] += n;
			w->st.frames += n;
			forward_burst(w, q->port, pkts, n);
			w->st.busy_polls++;
		}
		/* Under load the buffers fill and go out whole; when a round
		 * brings less than a burst, nothing more is coming soon: send
		 * now rather than at the timer (up to 100 us later). */
		if (round > 0 && round < burst)
			flush_all(w);
		/* a round that brought frames, receive to send, is busy */
		if (round > 0)
			w->st.busy_cycles += rte_rdtsc() - t0;
		/* an lcore sharing its CPU (app/distributor.c) */
		if (w->shares_core && round < burst)
			sched_yield();
	}
	if (!w->paused) {
		flush_all(w);
		rte_rcu_qsbr_thread_offline(fcr_fwd.qsbr, w->id);
		w->paused = 1;
	}
	/* quitting without a stop: login frames still waiting are dropped */
	while (w->held_head != w->held_tail) {
		rte_pktmbuf_free(w->held[w->held_head++ % FCR_HELD_MAX].m);
		w->st.pl.drop[FCR_R_LOGIN_HELD_FULL]++;
	}
	rte_rcu_qsbr_thread_unregister(fcr_fwd.qsbr, w->id);
	return 0;
}
