/* SPDX-License-Identifier: BSD-3-Clause */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <rte_branch_prediction.h>
#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_memcpy.h>

#include "run.h"
#include "stamp.h"
#include "tx.h"

#define PG_MIN_SLOTS 2048u
#define PG_MAX_SLOTS 8192u
#define PG_FLUSH_MS 1000u

struct pg_tx_stats pg_txs;

static struct rte_mbuf **slots;
static uint32_t n_slots;

uint32_t
pg_tx_slots_count(uint32_t n_tmpl)
{
	if (n_tmpl > PG_MAX_SLOTS)
		return 0;
	return n_tmpl * ((PG_MIN_SLOTS + n_tmpl - 1) / n_tmpl);
}

int
pg_tx_slots_make(void)
{
	const struct pg_source *src = &pg_run.src;
	uint32_t i;

	n_slots = pg_tx_slots_count(src->n);
	if (n_slots == 0)
		return 0;
	slots = calloc(n_slots, sizeof(*slots));
	if (slots == NULL)
		return -1;
	for (i = 0; i < n_slots; i++) {
		const struct pg_tmpl *tm = &src->t[i % src->n];
		struct rte_mbuf *m = rte_pktmbuf_alloc(pg_run.pool);

		if (m == NULL)
			return -1;
		rte_memcpy(rte_pktmbuf_mtod(m, void *), tm->data, tm->len);
		m->data_len = tm->len;
		m->pkt_len = tm->len;
		slots[i] = m;
	}
	return 0;
}

void
pg_tx_slots_free(void)
{
	uint32_t i;

	for (i = 0; i < n_slots; i++)
		rte_pktmbuf_free(slots[i]);
	free(slots);
	slots = NULL;
	n_slots = 0;
}

/* One more frame at the end of q; 0 when no mbuf could be had. */
static inline int
tx_build_one(struct pg_txq *q)
{
	const struct pg_source *src = &pg_run.src;
	const struct pg_tmpl *tm;
	struct rte_mbuf *m = NULL;

	if (n_slots != 0) {
		tm = &src->t[q->cur % src->n];
		m = slots[q->cur];
		if (rte_mbuf_refcnt_read(m) == 1)
			rte_mbuf_refcnt_update(m, 1);
		else
			m = NULL;
		q->cur = q->cur + 1 == n_slots ? 0 : q->cur + 1;
	} else {
		tm = &src->t[q->cur];
		q->cur = q->cur + 1 == src->n ? 0 : q->cur + 1;
	}
	if (m == NULL) {
		m = rte_pktmbuf_alloc(pg_run.pool);
		if (unlikely(m == NULL)) {
			pg_txs.alloc_fail++;
			/* try this template again next time */
			if (n_slots != 0)
				q->cur = q->cur == 0 ? n_slots - 1 : q->cur - 1;
			else
				q->cur = q->cur == 0 ? src->n - 1 : q->cur - 1;
			return 0;
		}
		rte_memcpy(rte_pktmbuf_mtod(m, void *), tm->data, tm->len);
		m->data_len = tm->len;
		m->pkt_len = tm->len;
		if (n_slots != 0)
			pg_txs.copies++;
	}
	q->pkts[q->n] = m;
	q->tm[q->n] = tm;
	q->seq[q->n] = q->next_seq++;
	q->n++;
	return 1;
}

void
pg_tx_init(struct pg_txq *q)
{
	const struct pg_opts *o = &pg_run.o;

	memset(q, 0, sizeof(*q));
	q->t0 = rte_rdtsc();
	q->warm_end = q->t0 + (uint64_t)(o->warmup * (double)pg_run.hz);
	q->building = 1;
	q->max_debt = (uint64_t)(o->rate / 10);
	if (q->max_debt < o->burst)
		q->max_debt = o->burst;
	q->min_chunk = (uint32_t)ceil(o->rate / 100000.0);
	if (q->min_chunk < 1)
		q->min_chunk = 1;
	if (q->min_chunk > o->burst)
		q->min_chunk = o->burst;
	pg_store64(&pg_run.sh.seq0, o->warmup > 0 ? UINT64_MAX : 0);
	if (o->warmup <= 0) {
		pg_store64(&pg_run.sh.t_meas, q->t0);
		if (o->duration_set || o->count == 0)
			q->meas_end = q->t0 + (uint64_t)(o->duration * (double)pg_run.hz);
	}
}

int
pg_tx_poll(struct pg_txq *q)
{
	const struct pg_opts *o = &pg_run.o;
	struct pg_shared *sh = &pg_run.sh;
	uint64_t hz = pg_run.hz, now = rte_rdtsc(), seq0 = sh->seq0, tsc;
	uint32_t want, i, sent;

	if (q->building) {
		if (seq0 == UINT64_MAX && now >= q->warm_end) {
			seq0 = q->next_seq;
			pg_store64(&sh->seq0, seq0);
			pg_store64(&sh->t_meas, now);
			if (o->duration_set || o->count == 0)
				q->meas_end = now + (uint64_t)(o->duration * (double)hz);
		}
		if (pg_run.quit || (q->meas_end != 0 && now >= q->meas_end) ||
		    (o->count != 0 && seq0 != UINT64_MAX && q->next_seq - seq0 >= o->count)) {
			q->building = 0;
			q->t_stop = now;
		}
	}
	if (q->building) {
		want = o->burst - q->n;
		if (o->rate > 0) {
			uint64_t expected = (uint64_t)((double)(now - q->t0) * o->rate / (double)hz);

			/* behind (the lcore was descheduled, the port pushed
			 * back): made up at full speed, up to 100 ms worth */
			if (expected > q->granted + q->max_debt)
				q->granted = expected - q->max_debt;
			if (expected - q->granted < want)
				want = (uint32_t)(expected - q->granted);
			/* no call for less than 10 us of traffic: tiny bursts
			 * cost a port more per frame than the rate allows */
			if (q->n == 0 && want < q->min_chunk)
				want = 0;
		}
		if (o->count != 0 && seq0 != UINT64_MAX &&
		    o->count - (q->next_seq - seq0) < want)
			want = (uint32_t)(o->count - (q->next_seq - seq0));
		for (i = 0; i < want; i++)
			if (!tx_build_one(q))
				break;
		q->granted += i;
	} else if (q->n != 0 &&
		   now - q->t_stop > (uint64_t)PG_FLUSH_MS * hz / 1000) {
		/* the port has refused these for a second: give up */
		pg_txs.unsent += q->n;
		rte_pktmbuf_free_bulk(q->pkts, q->n);
		q->n = 0;
	}
	if (q->n == 0)
		return q->building;
	tsc = rte_rdtsc();
	for (i = 0; i < q->n; i++)
		if (q->tm[i]->stamp_short)
			pg_stamp_short(rte_pktmbuf_mtod(q->pkts[i], uint8_t *), q->tm[i],
				       tsc, pg_run.tag, q->seq[i]);
		else if (q->tm[i]->stamp_off != 0)
			pg_stamp(rte_pktmbuf_mtod(q->pkts[i], uint8_t *), q->tm[i],
				 tsc, pg_run.tag, q->seq[i]);
	sent = rte_eth_tx_burst(o->tx_port, 0, q->pkts, (uint16_t)q->n);
	for (i = 0; i < sent; i++) {
		if (q->seq[i] >= seq0) {
			pg_txs.frames++;
			pg_txs.bytes += q->tm[i]->len;
			pg_txs.t_last = tsc;
		}
	}
	if (sent != 0)
		__atomic_store_n(&sh->tx_sent, sh->tx_sent + sent, __ATOMIC_RELAXED);
	if (sent < q->n) {
		pg_txs.refused += q->n - sent;
		memmove(q->pkts, q->pkts + sent, (q->n - sent) * sizeof(q->pkts[0]));
		memmove(q->tm, q->tm + sent, (q->n - sent) * sizeof(q->tm[0]));
		memmove(q->seq, q->seq + sent, (q->n - sent) * sizeof(q->seq[0]));
	}
	q->n -= sent;
	return q->building || q->n != 0;
}

void
pg_tx_finish(struct pg_txq *q)
{
	if (q->n != 0) {
		pg_txs.unsent += q->n;
		rte_pktmbuf_free_bulk(q->pkts, q->n);
		q->n = 0;
	}
	pg_store64(&pg_run.sh.t_tx_end, rte_rdtsc());
	__atomic_store_n(&pg_run.sh.tx_done, 1, __ATOMIC_RELEASE);
}
