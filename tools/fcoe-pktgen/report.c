/* SPDX-License-Identifier: BSD-3-Clause */
#include <inttypes.h>
#include <stdio.h>

#include "hist.h"
#include "ports.h"
#include "report.h"
#include "run.h"
#include "rx.h"
#include "tx.h"

/* progress lines */
static uint64_t per_next, per_ticks, per_tx_prev, per_rx_prev, per_t_prev;
static FILE *rates_csv; /* --csv: a row a period */

static double
ns(uint64_t ticks)
{
	return (double)ticks * 1e9 / (double)pg_run.hz;
}

void
pg_report_start(int two_lcores)
{
	const struct pg_opts *o = &pg_run.o;
	char rate[48], meas[96];

	printf("fcoe-pktgen: tx port %u (%s), rx port %u (%s); %s\n", o->tx_port,
	       pg_port_driver(o->tx_port), o->rx_port, pg_port_driver(o->rx_port),
	       pg_run.src.desc);
	if (o->rate > 0)
		snprintf(rate, sizeof(rate), "%.0f frames/s", o->rate);
	else
		snprintf(rate, sizeof(rate), "as fast as possible");
	if (o->count != 0 && o->duration_set)
		snprintf(meas, sizeof(meas), "%" PRIu64 " frames or %.3f s, whichever first",
			 o->count, o->duration);
	else if (o->count != 0)
		snprintf(meas, sizeof(meas), "%" PRIu64 " frames", o->count);
	else
		snprintf(meas, sizeof(meas), "%.3f s", o->duration);
	printf("fcoe-pktgen: %s, burst %u, warm-up %.1f s, then measure %s; %s\n",
	       rate, o->burst, o->warmup, meas,
	       two_lcores ? "tx on the main lcore, rx on the next" :
			    "tx and rx on one lcore");
	fflush(stdout);
}

void
pg_report_period_init(void)
{
	uint64_t t_start = pg_run.t_start;

	per_ticks = (uint64_t)(pg_run.o.stats_period * (double)pg_run.hz);
	per_t_prev = t_start;
	per_next = pg_run.o.stats_period > 0 ? t_start + per_ticks : UINT64_MAX;
	per_tx_prev = per_rx_prev = 0;
	if (pg_run.o.csv != NULL) {
		char path[4096];

		snprintf(path, sizeof(path), "%s-rates.csv", pg_run.o.csv);
		rates_csv = fopen(path, "w");
		if (rates_csv == NULL)
			fprintf(stderr, "fcoe-pktgen: --csv: cannot write %s\n", path);
		else
			fprintf(rates_csv, "t_s,tx_pps,rx_pps,lat_p50_ns,lat_p99_ns,lat_max_ns\n");
	}
}

void
pg_report_period(uint64_t now, int force)
{
	struct pg_rx_stats *rxs = &pg_rxs;
	uint64_t hz = pg_run.hz, tx, rx, t_meas;
	double dt;

	if (!force && now < per_next)
		return;
	t_meas = pg_load64(&pg_run.sh.t_meas);
	if (per_next != UINT64_MAX) {
		tx = __atomic_load_n(&pg_run.sh.tx_sent, __ATOMIC_RELAXED);
		rx = rxs->total;
		dt = (double)(now - per_t_prev) / (double)hz;
		if (dt > 0 && !force) {
			printf("period t=%.2f tx_pps=%.0f rx_pps=%.0f tx_total=%" PRIu64
			       " rx_total=%" PRIu64 " rx_untimed=%" PRIu64,
			       (double)(now - pg_run.t_start) / (double)hz,
			       (double)(tx - per_tx_prev) / dt,
			       (double)(rx - per_rx_prev) / dt, tx, rx, rxs->untimed);
			if (rxs->ihist.count != 0)
				printf(" lat_p50_ns=%.0f lat_p99_ns=%.0f lat_max_ns=%.0f",
				       ns(pg_hist_quantile(&rxs->ihist, 0.5)),
				       ns(pg_hist_quantile(&rxs->ihist, 0.99)),
				       ns(rxs->ihist.max));
			printf("%s\n", t_meas == 0 ? " (warm-up)" : "");
			fflush(stdout);
			if (rates_csv != NULL) {
				fprintf(rates_csv, "%.3f,%.0f,%.0f", (double)(now - pg_run.t_start) /
					(double)hz, (double)(tx - per_tx_prev) / dt,
					(double)(rx - per_rx_prev) / dt);
				if (rxs->ihist.count != 0)
					fprintf(rates_csv, ",%.0f,%.0f,%.0f\n",
						ns(pg_hist_quantile(&rxs->ihist, 0.5)),
						ns(pg_hist_quantile(&rxs->ihist, 0.99)),
						ns(rxs->ihist.max));
				else
					fprintf(rates_csv, ",,,\n");
			}
		}
		per_tx_prev = tx;
		per_rx_prev = rx;
		per_t_prev = now;
		while (per_next <= now)
			per_next += per_ticks;
	}
	pg_hist_merge(&rxs->hist, &rxs->ihist);
	pg_hist_reset(&rxs->ihist);
}

/* The histogram as text: its buckets gathered a power of two of ns each
 * (from the first that holds a frame to the last), a bar of up to 40 '#'
 * for the busiest, the frames and their share. */
static void
hist_text(const struct pg_hist *h)
{
	uint64_t rows[64] = { 0 }, most = 0, lo, hi;
	int first = -1, last = -1, r;
	unsigned int i;

	for (i = 0; i < PG_HIST_BUCKETS; i++) {
		if (h->bucket[i] == 0)
			continue;
		pg_hist_bounds(i, &lo, &hi);
		r = 63 - __builtin_clzll((uint64_t)ns(lo) | 1);
		rows[r] += h->bucket[i];
		first = first < 0 || r < first ? r : first;
		last = r > last ? r : last;
	}
	for (r = first; r >= 0 && r <= last; r++)
		most = rows[r] > most ? rows[r] : most;
	printf("hist latency_ns frames=%" PRIu64 " (ranges of [lo, 2*lo) ns)\n", h->count);
	for (r = first; r >= 0 && r <= last; r++) {
		int bar = most ? (int)((rows[r] * 40 + most - 1) / most) : 0;

		printf("hist %10" PRIu64 " ns %-40.*s %10" PRIu64 " %5.1f%%\n", (uint64_t)1 << r,
		       bar, "########################################", rows[r],
		       100.0 * (double)rows[r] / (double)h->count);
	}
}

/* --csv: every bucket that holds a frame, in ns */
static void
hist_csv(const struct pg_hist *h)
{
	char path[4096];
	uint64_t lo, hi;
	unsigned int i;
	FILE *f;

	snprintf(path, sizeof(path), "%s-latency.csv", pg_run.o.csv);
	f = fopen(path, "w");
	if (f == NULL) {
		fprintf(stderr, "fcoe-pktgen: --csv: cannot write %s\n", path);
		return;
	}
	fprintf(f, "lo_ns,hi_ns,frames\n");
	for (i = 0; i < PG_HIST_BUCKETS; i++) {
		if (h->bucket[i] == 0)
			continue;
		pg_hist_bounds(i, &lo, &hi);
		/* a bucket holds [lo, hi] ticks: its end is a tick past hi */
		fprintf(f, "%.1f,%.1f,%" PRIu64 "\n", ns(lo), ns(hi) + ns(1), h->bucket[i]);
	}
	fclose(f);
}

void
pg_report_summary(void)
{
	const struct pg_tx_stats *txs = &pg_txs;
	const struct pg_rx_stats *rxs = &pg_rxs;
	uint64_t hz = pg_run.hz, t_meas = pg_run.sh.t_meas;
	double tx_s = 0, rx_s = 0, loss_pct = 0;
	int64_t lost = (int64_t)txs->frames - (int64_t)rxs->frames - (int64_t)rxs->other;
	const struct pg_hist *h = &rxs->hist;

	if (t_meas != 0 && txs->frames != 0 && txs->t_last > t_meas)
		tx_s = (double)(txs->t_last - t_meas) / (double)hz;
	if (t_meas != 0 && rxs->t_last > t_meas)
		rx_s = (double)(rxs->t_last - t_meas) / (double)hz;
	if (txs->frames != 0)
		loss_pct = 100.0 * (double)lost / (double)txs->frames;
	printf("summary tx_frames=%" PRIu64 " tx_bytes=%" PRIu64 " tx_pps=%.0f tx_mbps=%.1f"
	       " duration_s=%.3f rate_pps=%.0f tx_refused=%" PRIu64 " tx_unsent=%" PRIu64
	       " tx_copies=%" PRIu64 " tx_alloc_fail=%" PRIu64 "\n",
	       txs->frames, txs->bytes, tx_s > 0 ? (double)txs->frames / tx_s : 0.0,
	       tx_s > 0 ? (double)txs->bytes * 8 / tx_s / 1e6 : 0.0, tx_s, pg_run.o.rate,
	       txs->refused, txs->unsent, txs->copies, txs->alloc_fail);
	printf("summary rx_frames=%" PRIu64 " rx_bytes=%" PRIu64 " rx_other=%" PRIu64
	       " rx_timed=%" PRIu64 " rx_untimed=%" PRIu64 " rx_warmup=%" PRIu64
	       " rx_reordered=%" PRIu64 " lost=%" PRId64 " loss_pct=%.4f rx_pps=%.0f",
	       rxs->frames, rxs->bytes, rxs->other, rxs->timed, rxs->untimed, rxs->warmup,
	       rxs->reordered, lost, loss_pct,
	       rx_s > 0 ? (double)(rxs->frames + rxs->other) / rx_s : 0.0);
	if (pg_run.o.check_crc)
		printf(" rx_crc_ok=%" PRIu64 " rx_crc_bad=%" PRIu64 " rx_not_fcoe=%" PRIu64,
		       rxs->crc_ok, rxs->crc_bad, rxs->crc_na);
	printf("\n");
	if (h->count == 0) {
		printf("summary lat_samples=0 lat_min_ns=- lat_mean_ns=- lat_p50_ns=- lat_p90_ns=-"
		       " lat_p99_ns=- lat_p999_ns=- lat_max_ns=-\n");
	} else {
		printf("summary lat_samples=%" PRIu64 " lat_min_ns=%.0f lat_mean_ns=%.0f"
		       " lat_p50_ns=%.0f lat_p90_ns=%.0f lat_p99_ns=%.0f lat_p999_ns=%.0f"
		       " lat_max_ns=%.0f\n", h->count, ns(h->min),
		       ns(h->sum) / (double)h->count, ns(pg_hist_quantile(h, 0.5)),
		       ns(pg_hist_quantile(h, 0.9)), ns(pg_hist_quantile(h, 0.99)),
		       ns(pg_hist_quantile(h, 0.999)), ns(h->max));
		hist_text(h);
	}
	if (pg_run.o.csv != NULL) {
		hist_csv(h);
		if (rates_csv != NULL)
			fclose(rates_csv);
		rates_csv = NULL;
	}
	fflush(stdout);
}

