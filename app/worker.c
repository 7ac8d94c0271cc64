/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The worker loop, l2fwd-style: receive a burst, let the pipeline decide and
 * rewrite (lib/fcr_pipeline.c), hand frames to per-port TX buffers that
 * drain on a TSC timer so a trickle is not held back, pass events to the
 * table writer's ring. Nothing here locks, allocates or makes a system call
 * per frame; a full ring or TX queue is counted, never waited on.
 */
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_rcu_qsbr.h>
#include <rte_ring_elem.h>

#include "fcr_tables.h"
#include "fwd.h"

static inline void
send_events(struct fcr_worker *w, const struct fcr_event *ev, unsigned int n)
{
	unsigned int sent;

	if (likely(n == 0))
		return;
	sent = rte_ring_enqueue_burst_elem(w->events, ev, sizeof(ev[0]), n, NULL);
	w->st.events_lost += n - sent;
}

static void
forward_burst(struct fcr_worker *w, uint16_t in_port, struct rte_mbuf **pkts,
	      uint16_t n)
{
	struct fcr_event ev[FCR_PIPELINE_EVENTS_MAX];
	uint16_t out[FCR_PIPELINE_BURST_MAX], i;
	unsigned int nev;

	nev = fcr_pipeline_burst(&w->pipeline, in_port, pkts, n, out, &w->st.pl,
				 ev, rte_rdtsc());
	for (i = 0; i < n; i++) {
		if (out[i] == FCR_OUT_DROP) {
			rte_pktmbuf_free(pkts[i]);
			continue;
		}
		w->st.tx[out[i]]++;
		/* a tag the NIC took off goes back on at TX */
		if (unlikely(pkts[i]->ol_flags & RTE_MBUF_F_RX_VLAN_STRIPPED))
			pkts[i]->ol_flags |= RTE_MBUF_F_TX_VLAN;
		rte_eth_tx_buffer(out[i], w->txq, w->txb[out[i]], pkts[i]);
	}
	send_events(w, ev, nev);
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
	unsigned int round;

	w->pipeline = (struct fcr_pipeline){
		.tables = fcr_fwd.tables,
		.port_mac = (const uint8_t (*)[6])fcr_fwd.port_mac,
		.passthrough = fcr_fwd.passthrough,
		.nb_ports = fcr_fwd.nb_ports,
		.fc_map = fcr_fwd.fc_map,
		.worker = w->id,
	};
	fcr_pipeline_forget(&w->pipeline, NULL, 0);
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
		/* nothing read from the tables before this point is held */
		rte_rcu_qsbr_quiescent(fcr_fwd.qsbr, w->id);

		cur = rte_rdtsc();
		if (unlikely(cur - prev > fcr_fwd.drain_tsc)) {
			flush_all(w);
			send_events(w, w->forget_ev,
				    fcr_pipeline_forget(&w->pipeline, w->forget_ev, cur));
			prev = cur;
		}
		round = 0;
		for (i = 0; i < w->nb_rxq; i++) {
			const struct fcr_rxq *q = &w->rxq[i];

			t0 = rte_rdtsc();
			n = rte_eth_rx_burst(q->port, q->queue, pkts, burst);
			w->st.polls++;
			round += n;
			if (n == 0)
				continue;
			w->st.rx[q->port] += n;
			w->st.frames += n;
			forward_burst(w, q->port, pkts, n);
			w->st.busy_polls++;
			w->st.busy_cycles += rte_rdtsc() - t0;
		}
		/* Under load the buffers fill and go out whole; when a round
		 * brings less than a burst, nothing more is coming soon: send
		 * now rather than at the timer (up to 100 us later). */
		if (round > 0 && round < burst)
			flush_all(w);
	}
	if (!w->paused) {
		flush_all(w);
		rte_rcu_qsbr_thread_offline(fcr_fwd.qsbr, w->id);
		w->paused = 1;
	}
	rte_rcu_qsbr_thread_unregister(fcr_fwd.qsbr, w->id);
	return 0;
}
