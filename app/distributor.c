/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The distributor loop: for a NIC that cannot spread FCoE over its RX
 * queues (RSS on EtherType 0x8906 gives most NICs one queue), one lcore
 * receives the queue and deals each frame to a worker by its flow
 * (lib/frame/fcr_spread.h), over a single-producer single-consumer ring per
 * (queue, worker). A flow's frames all go to one worker, in order. The
 * workers dequeue the rings as they would poll queues (app/worker.c).
 *
 * It reads no table, so it takes no part in RCU. A full ring drops the
 * frame and counts it (distributor_full): the distributor never waits on a
 * worker. At a stop it hands on what it holds and acknowledges; the workers
 * then empty their rings before they acknowledge, so every frame received
 * is counted once the stop returns.
 *
 * Busy polling assumes an lcore has its CPU to itself. When lcores share
 * one (--lcores '1@1,2@1'), the distributor yields it after every round
 * and a worker whenever its round was short, so the kernel hands the CPU
 * over at each burst rather than at the end of a time slice (by then the
 * rings have overflowed).
 */
#define _GNU_SOURCE /* CPU_AND, CPU_COUNT */
#include <sched.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#include "fcr_spread.h"
#include "fwd.h"

/* The VLAN a NIC took off the frame, or -1 (the tag, if any, is in it). */
static inline int
stripped_vlan(const struct rte_mbuf *m)
{
	return (m->ol_flags & RTE_MBUF_F_RX_VLAN_STRIPPED) ? (int)(m->vlan_tci & 0xFFF) : -1;
}

static void
deal_burst(struct fcr_distributor *d, unsigned int qi, struct rte_mbuf **pkts, uint16_t n)
{
	struct rte_mbuf *to[FCR_MAX_WORKERS][FCR_PIPELINE_BURST_MAX];
	uint16_t cnt[FCR_MAX_WORKERS] = { 0 };
	unsigned int nw = fcr_fwd.nb_workers, w, sent;
	uint16_t i;

	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i];
		uint32_t h = fcr_spread_hash(rte_pktmbuf_mtod(m, const uint8_t *),
					     m->data_len, stripped_vlan(m));

		w = fcr_spread_pick(h, nw);
		to[w][cnt[w]++] = m;
	}
	for (w = 0; w < nw; w++) {
		if (cnt[w] == 0)
			continue;
		sent = rte_ring_enqueue_burst(d->ring[qi][w], (void **)to[w], cnt[w], NULL);
		if (unlikely(sent < cnt[w])) {
			d->st.ring_full[d->rxq[qi].port] += cnt[w] - sent;
			rte_pktmbuf_free_bulk(to[w] + sent, cnt[w] - sent);
		}
	}
}

int
fcr_lcore_shares_core(unsigned int lc)
{
	rte_cpuset_t mine = rte_lcore_cpuset(lc), both;
	unsigned int other;

	RTE_LCORE_FOREACH(other) {
		rte_cpuset_t theirs = rte_lcore_cpuset(other);

		if (other == lc)
			continue;
		CPU_AND(&both, &mine, &theirs);
		if (CPU_COUNT(&both) != 0)
			return 1;
	}
	return 0;
}

int
fcr_distributor_main(void *arg)
{
	struct fcr_distributor *d = arg;
	struct rte_mbuf *pkts[FCR_PIPELINE_BURST_MAX];
	uint16_t burst = RTE_MIN(fcr_fwd.burst, (uint16_t)FCR_PIPELINE_BURST_MAX);
	unsigned int nap = 100, i;
	uint64_t t0;
	uint16_t n;

	d->paused = 1;
	d->shares_core = fcr_lcore_shares_core(d->lcore);
	while (!__atomic_load_n(&fcr_fwd.quit, __ATOMIC_ACQUIRE)) {
		if (!__atomic_load_n(&fcr_fwd.forwarding, __ATOMIC_ACQUIRE)) {
			if (!d->paused) {
				__atomic_store_n(&d->paused, 1, __ATOMIC_RELEASE);
				nap = 100;
			}
			usleep(nap);
			nap = RTE_MIN(nap * 2, 10000u);
			continue;
		}
		if (d->paused)
			__atomic_store_n(&d->paused, 0, __ATOMIC_RELEASE);
		for (i = 0; i < d->nb_rxq; i++) {
			t0 = rte_rdtsc();
			n = rte_eth_rx_burst(d->rxq[i].port, d->rxq[i].queue, pkts, burst);
			d->st.polls++;
			if (n == 0)
				continue;
			deal_burst(d, i, pkts, n);
			d->st.frames += n;
			d->st.busy_polls++;
			d->st.busy_cycles += rte_rdtsc() - t0;
		}
		if (d->shares_core)
			sched_yield();
	}
	__atomic_store_n(&d->paused, 1, __ATOMIC_RELEASE);
	return 0;
}
