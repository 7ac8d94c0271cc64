/* SPDX-License-Identifier: BSD-3-Clause */
#include <string.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "fcr_frame.h"
#include "hist.h"
#include "run.h"
#include "rx.h"
#include "stamp.h"

struct pg_rx_stats pg_rxs;

static uint16_t rx_ports[PG_MAX_RX_PORTS];
static unsigned int nb_rx_ports;

void
pg_rx_init(void)
{
	rx_ports[0] = pg_run.o.rx_port;
	nb_rx_ports = 1;
	if (pg_run.o.tx_port != pg_run.o.rx_port)
		rx_ports[nb_rx_ports++] = pg_run.o.tx_port;
	pg_hist_reset(&pg_rxs.hist);
	pg_hist_reset(&pg_rxs.ihist);
}

static inline void
rx_one(struct rte_mbuf *m, unsigned int pi, unsigned int si, uint64_t now, uint64_t seq0)
{
	struct pg_rx_stats *rxs = &pg_rxs;
	uint8_t buf[PG_STAMP_PEEK];
	uint32_t len = m->pkt_len, peek = len < PG_STAMP_PEEK ? len : PG_STAMP_PEEK;
	const uint8_t *h = rte_pktmbuf_read(m, 0, peek, buf);
	uint32_t off = h ? pg_stamp_offset(h, len) : 0;
	uint64_t tsc, w, seq, idx = rxs->total;
	int measured;

	rxs->total++;
	if (pg_run.o.check_crc) {
		struct fcr_frame f;

		if (fcr_frame_parse_mbuf(m, &f) == FCR_R_OK) {
			if (fcr_frame_verify_crc_mbuf(m, &f) == FCR_R_OK)
				rxs->crc_ok++;
			else
				rxs->crc_bad++;
		} else {
			rxs->crc_na++;
		}
	}
	if (off != 0) {
		memcpy(&tsc, h + off, 8);
		memcpy(&w, h + off + 8, 8);
		seq = w & PG_SEQ_MASK;
		if ((w >> PG_SEQ_BITS) != pg_run.tag)
			off = 0;
	} else if (pg_run.src.short_stamps && h != NULL &&
		   (off = pg_stamp_short_offset(h, len)) != 0) {
		if (!pg_stamp_short_read(h + off, pg_run.tag, now,
					 rxs->any_seq[si] ? rxs->max_seq[si] : seq0, &tsc, &seq))
			off = 0;
	}
	if (off != 0) {
		if (tsc >= pg_run.t_start && tsc <= now) {
			if (seq < seq0) {
				rxs->warmup++;
				return;
			}
			if (rxs->any_seq[si] && seq < rxs->max_seq[si])
				rxs->reordered++;
			else
				rxs->max_seq[si] = seq;
			rxs->any_seq[si] = 1;
			rxs->timed++;
			pg_hist_add(&rxs->ihist, now - tsc);
			goto counted;
		}
	}
	/* no stamp: frames come back in the order they were sent (one path),
	 * so the first seq0 frames received are the warm-up's */
	measured = idx >= seq0;
	if (!measured) {
		rxs->warmup++;
		return;
	}
	rxs->untimed++;
counted:
	if (pi == 0) {
		rxs->frames++;
		rxs->bytes += len;
	} else {
		rxs->other++;
	}
}

uint32_t
pg_rx_poll(void)
{
	struct rte_mbuf *pkts[PG_MAX_BURST];
	uint64_t seq0 = pg_load64(&pg_run.sh.seq0), now;
	uint32_t total = 0;
	unsigned int p;
	uint16_t n, i, q;

	for (p = 0; p < nb_rx_ports; p++)
		for (q = 0; q < pg_run.o.rxq; q++) {
			n = rte_eth_rx_burst(rx_ports[p], q, pkts, (uint16_t)pg_run.o.burst);
			if (n == 0)
				continue;
			now = rte_rdtsc();
			for (i = 0; i < n; i++)
				rx_one(pkts[i], p, p * PG_MAX_RXQ + q, now, seq0);
			rte_pktmbuf_free_bulk(pkts, n);
			pg_rxs.t_last = now;
			total += n;
		}
	return total;
}

void
pg_rx_linger(void)
{
	struct rte_mbuf *pkts[PG_MAX_BURST];
	uint64_t end = rte_rdtsc() + (uint64_t)(pg_run.o.linger * (double)pg_run.hz);
	unsigned int p;
	uint16_t n, q;

	while (!pg_run.quit && rte_rdtsc() < end) {
		for (p = 0; p < nb_rx_ports; p++)
			for (q = 0; q < pg_run.o.rxq; q++) {
				n = rte_eth_rx_burst(rx_ports[p], q, pkts,
						     (uint16_t)pg_run.o.burst);
				if (n != 0)
					rte_pktmbuf_free_bulk(pkts, n);
			}
		rte_delay_us_sleep(1000);
	}
}
