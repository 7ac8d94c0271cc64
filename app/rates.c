/* SPDX-License-Identifier: BSD-3-Clause */
#include <inttypes.h>
#include <string.h>
#include <time.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>

#include "commands.h"
#include "fcr_text.h"
#include "rates.h"
#include "show.h"

void
fcr_rates_snap(struct fcr_rates_snap *s)
{
	struct fcr_fwd_totals t;
	struct rte_eth_stats ps;
	uint16_t p;

	memset(s, 0, sizeof(*s));
	fcr_fwd_totals(&t, 0); /* since start: never goes back */
	s->tsc = rte_get_tsc_cycles();
	for (p = 0; p < fcr_fwd.nb_ports && p < FCR_MAX_PORTS; p++) {
		if (rte_eth_stats_get(p, &ps) != 0)
			continue;
		s->port_rx[p] = ps.ipackets;
		s->port_tx[p] = ps.opackets;
		s->port_rxb[p] = ps.ibytes;
		s->port_txb[p] = ps.obytes;
	}
	memcpy(s->leg, t.w.pl.leg, sizeof(s->leg));
	memcpy(s->leg_bytes, t.w.pl.leg_bytes, sizeof(s->leg_bytes));
	memcpy(s->drop, t.w.pl.drop, sizeof(s->drop));
}

/* A counter that went back (`clear port stats all` zeroes the ports') is
 * counted from zero. */
static double
per_s(uint64_t a, uint64_t b, double secs)
{
	return secs > 0 ? (double)(b >= a ? b - a : b) / secs : 0;
}

void
fcr_rates_between(const struct fcr_rates_snap *a, const struct fcr_rates_snap *b,
		  struct fcr_rates *r)
{
	double secs = (double)(b->tsc - a->tsc) / (double)rte_get_tsc_hz();
	unsigned int i;

	memset(r, 0, sizeof(*r));
	r->seconds = secs;
	for (i = 0; i < FCR_MAX_PORTS; i++) {
		r->port_rx_fps[i] = per_s(a->port_rx[i], b->port_rx[i], secs);
		r->port_tx_fps[i] = per_s(a->port_tx[i], b->port_tx[i], secs);
		r->port_rx_bps[i] = 8 * per_s(a->port_rxb[i], b->port_rxb[i], secs);
		r->port_tx_bps[i] = 8 * per_s(a->port_txb[i], b->port_txb[i], secs);
	}
	for (i = 0; i < FCR_LEG_COUNT; i++) {
		r->leg_fps[i] = per_s(a->leg[i], b->leg[i], secs);
		r->leg_bps[i] = 8 * per_s(a->leg_bytes[i], b->leg_bytes[i], secs);
	}
	for (i = 0; i < FCR_R_COUNT; i++)
		r->drop_ps[i] = per_s(a->drop[i], b->drop[i], secs);
}

/* 1234567.0 -> "1.23 M" (frames/s, bits/s) */
static const char *
si(double v, char *buf, size_t cap)
{
	if (v >= 1e9)
		snprintf(buf, cap, "%.2f G", v / 1e9);
	else if (v >= 1e6)
		snprintf(buf, cap, "%.2f M", v / 1e6);
	else if (v >= 1e3)
		snprintf(buf, cap, "%.2f k", v / 1e3);
	else
		snprintf(buf, cap, "%.0f ", v);
	return buf;
}

void
fcr_show_fwd_rates(FILE *out)
{
	static struct fcr_rates_snap prev;
	static int have_prev;
	struct fcr_rates_snap now;
	struct fcr_rates r;
	char when[FCR_TIME_STRLEN], a[16], b[16], c[16], d[16];
	unsigned int i, n = 0;

	fcr_rates_snap(&now);
	if (!have_prev) {
		/* the first: since start */
		memset(&prev, 0, sizeof(prev));
		prev.tsc = fcr_fwd.start_tsc;
	}
	fcr_rates_between(&prev, &now, &r);
	prev = now;
	have_prev = 1;
	fprintf(out, "rates %s over %.2f s\n", fcr_time_format(time(NULL), when), r.seconds);
	for (i = 0; i < fcr_fwd.nb_ports; i++)
		fprintf(out, "  port %-3u rx %sfps %sbps  tx %sfps %sbps\n", i,
			si(r.port_rx_fps[i], a, sizeof(a)), si(r.port_rx_bps[i], b, sizeof(b)),
			si(r.port_tx_fps[i], c, sizeof(c)), si(r.port_tx_bps[i], d, sizeof(d)));
	for (i = 0; i < FCR_LEG_COUNT; i++)
		if (r.leg_fps[i] > 0)
			fprintf(out, "  leg  %-16s %sfps %sbps\n", fcr_leg_name(i),
				si(r.leg_fps[i], a, sizeof(a)), si(r.leg_bps[i], b, sizeof(b)));
	fprintf(out, "  drops/s");
	for (i = 1; i < FCR_R_COUNT; i++)
		if (r.drop_ps[i] > 0) {
			fprintf(out, " %s %.1f", fcr_reason_name(i), r.drop_ps[i]);
			n++;
		}
	fprintf(out, "%s\n", n ? "" : " none");
}

int
fcr_show_fwd_rates_cmd(const struct fcr_cmd *c, FILE *out)
{
	(void)c;
	fcr_show_fwd_rates(out);
	return 0;
}

static const struct fcr_cmd_def rows[] = {
	{ .syntax = "show fwd rates", .help = "frames/s and bits/s per port and per leg, drops/s by reason, since the last show fwd rates (timestamped)", .run = fcr_show_fwd_rates_cmd, .thread = FCR_CMD_ON_TABLES, .section = FCR_SEC_DISPLAY },
};
FCR_COMMANDS(rows)
