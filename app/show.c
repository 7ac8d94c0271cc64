/* SPDX-License-Identifier: BSD-3-Clause */
#include <inttypes.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>

#include "writer.h"
#include "fcr_tables.h"
#include "fcr_text.h"
#include "show.h"

void
fcr_fwd_totals(struct fcr_fwd_totals *t)
{
	unsigned int i, j;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < fcr_fwd.nb_workers; i++) {
		const struct fcr_worker_stats *s = &fcr_fwd.workers[i]->st;

		for (j = 0; j < FCR_MAX_PORTS; j++) {
			t->w.rx[j] += s->rx[j];
			t->w.tx[j] += s->tx[j];
			t->w.tx_fail[j] += s->tx_fail[j];
		}
		for (j = 0; j < FCR_R_COUNT; j++)
			t->w.pl.drop[j] += s->pl.drop[j];
		for (j = 0; j < FCR_LEG_COUNT; j++)
			t->w.pl.leg[j] += s->pl.leg[j];
		t->w.pl.flow_miss += s->pl.flow_miss;
		t->w.pl.passthrough += s->pl.passthrough;
		t->w.pl.logins += s->pl.logins;
		t->w.pl.logins_bad_crc += s->pl.logins_bad_crc;
		t->w.events_lost += s->events_lost;
		t->w.frames += s->frames;
		t->w.busy_cycles += s->busy_cycles;
	}
	for (j = 0; j < FCR_MAX_PORTS; j++) {
		/* frames the port refused count as tx_full drops, not tx */
		t->w.pl.drop[FCR_R_TX_FULL] += t->w.tx_fail[j];
		t->w.tx[j] -= t->w.tx_fail[j];
		t->rx += t->w.rx[j];
		t->tx += t->w.tx[j];
	}
	for (j = 0; j < FCR_R_COUNT; j++)
		t->dropped += t->w.pl.drop[j];
}

void
fcr_show_fwd_stats(FILE *out)
{
	const struct fcr_writer_stats *ws = &fcr_fwd.tables->st;
	struct fcr_fwd_totals t;
	unsigned int i, any = 0;
	uint16_t p;

	fcr_fwd_totals(&t);
	fprintf(out, "---------------------- Forward statistics ----------------------\n");
	for (p = 0; p < fcr_fwd.nb_ports; p++)
		fprintf(out, "  port %-3u rx %-14" PRIu64 " tx %-14" PRIu64 "\n", p,
			t.w.rx[p], t.w.tx[p]);
	fprintf(out, "  total    rx %-14" PRIu64 " tx %-14" PRIu64 " dropped %" PRIu64
		"  (rx %s tx + dropped)\n", t.rx, t.tx, t.dropped,
		t.rx == t.tx + t.dropped ? "==" : "!=");
	fprintf(out, "  sent by kind:\n");
	for (i = 0; i < FCR_LEG_COUNT; i++)
		fprintf(out, "    %-28s %" PRIu64 "\n", fcr_leg_name(i), t.w.pl.leg[i]);
	fprintf(out, "    %-28s %" PRIu64 "\n", "passthrough", t.w.pl.passthrough);
	fprintf(out, "    %-28s %" PRIu64 "  (of plain: no flow entry yet)\n",
		"flow_miss", t.w.pl.flow_miss);
	fprintf(out, "  drops by reason:\n");
	for (i = 1; i < FCR_R_COUNT; i++) {
		if (t.w.pl.drop[i] == 0)
			continue;
		fprintf(out, "    %-28s %" PRIu64 "\n", fcr_reason_name(i), t.w.pl.drop[i]);
		any = 1;
	}
	if (!any)
		fprintf(out, "    none\n");
	fprintf(out, "  workers:\n");
	for (i = 0; i < fcr_fwd.nb_workers; i++) {
		const struct fcr_worker_stats *s = &fcr_fwd.workers[i]->st;

		fprintf(out, "    worker %u (lcore %u): frames %" PRIu64
			", busy cycles/frame %.1f, busy polls %.1f%%\n", i,
			fcr_fwd.workers[i]->lcore, s->frames,
			s->frames ? (double)s->busy_cycles / (double)s->frames : 0.0,
			s->polls ? 100.0 * (double)s->busy_polls / (double)s->polls : 0.0);
	}
	fprintf(out, "  table writer:\n");
	fprintf(out, "    %-28s %" PRIu64 "\n", "login_frames_snooped", t.w.pl.logins);
	fprintf(out, "    %-28s %" PRIu64 "\n", "login_frames_bad_crc", t.w.pl.logins_bad_crc);
	fprintf(out, "    %-28s %" PRIu64 "\n", "events_lost", t.w.events_lost);
#define FCR_WS_PRINT(name, text) \
	fprintf(out, "    %-28s %" PRIu64 "\n", #name, ws->name);
	FCR_WRITER_STATS(FCR_WS_PRINT)
#undef FCR_WS_PRINT
	if (fcr_login_latency.count > 0) {
		double us = 1e6 / (double)rte_get_tsc_hz();

		fprintf(out, "    %-28s %.1f us average, %.1f us max\n",
			"login_to_binding",
			us * (double)fcr_login_latency.sum_tsc /
				(double)fcr_login_latency.count,
			us * (double)fcr_login_latency.max_tsc);
	}
	fprintf(out, "    %-28s %u\n", "flows", fcr_fwd.tables->flows->count);
	fprintf(out, "    %-28s %u of %u\n", "redirects_active",
		fcr_fwd.tables->redirects->nb_active,
		fcr_fwd.tables->redirects->count);
	fprintf(out, "----------------------------------------------------------------\n");
}

void
fcr_show_port_stats(FILE *out)
{
	struct rte_eth_stats s;
	uint16_t p;

	for (p = 0; p < fcr_fwd.nb_ports; p++) {
		if (rte_eth_stats_get(p, &s) != 0)
			continue;
		fprintf(out, "  ######## port %u ########\n", p);
		fprintf(out, "  RX-packets: %-12" PRIu64 " RX-missed: %-10" PRIu64
			" RX-bytes: %" PRIu64 "\n", s.ipackets, s.imissed, s.ibytes);
		fprintf(out, "  RX-errors:  %-12" PRIu64 " RX-nombuf: %" PRIu64 "\n",
			s.ierrors, s.rx_nombuf);
		fprintf(out, "  TX-packets: %-12" PRIu64 " TX-errors: %-10" PRIu64
			" TX-bytes: %" PRIu64 "\n", s.opackets, s.oerrors, s.obytes);
	}
}

void
fcr_show_flows(FILE *out, uint32_t limit)
{
	const struct fcr_flow_table *ft = fcr_fwd.tables->flows;
	struct fcr_flow_counters c;
	char s[FCR_FCID_STRLEN], d[FCR_FCID_STRLEN], ns[FCR_FCID_STRLEN],
		nd[FCR_FCID_STRLEN];
	uint32_t it = 0, shown = 0;
	int idx;

	fprintf(out, "%-5s %-8s %-8s %-15s %-8s %-8s %-12s %s\n", "vlan", "s_id",
		"d_id", "leg", "new_s_id", "new_d_id", "frames", "bytes");
	while ((idx = fcr_flow_next(ft, &it)) >= 0) {
		uint64_t k = ft->key[idx], a = ft->action[idx];

		if (shown == limit) {
			fprintf(out, "... %u flows in all\n", ft->count);
			return;
		}
		fcr_flow_counters_sum(ft, (uint32_t)idx, &c);
		if (ft->remote != NULL) {
			/* what a peer forwarded before, as of its last update */
			c.frames += ft->remote[idx].frames;
			c.bytes += ft->remote[idx].bytes;
		}
		fprintf(out, "%-5u %-8s %-8s %-15s %-8s %-8s %-12" PRIu64 " %" PRIu64 "\n",
			fcr_flow_key_vlan(k), fcr_fcid_format(fcr_flow_key_sid(k), s),
			fcr_fcid_format(fcr_flow_key_did(k), d),
			fcr_leg_name(fcr_action_leg(a)),
			fcr_fcid_format(fcr_action_sid(a), ns),
			fcr_fcid_format(fcr_action_did(a), nd), c.frames, c.bytes);
		shown++;
	}
	fprintf(out, "%u flows\n", ft->count);
}

void
fcr_show_routes(FILE *out)
{
	const struct fcr_route_table *rt = fcr_fwd.tables->routes;
	char f[FCR_FCID_STRLEN], m[FCR_MAC_STRLEN];
	uint32_t i;

	for (i = 0; i < rt->nb_routes; i++) {
		const struct fcr_route *r = &rt->routes[i];
		const struct fcr_nexthop *h = &rt->nexthop[r->nh];

		fprintf(out, "route %s/%u port %u %s%s\n", fcr_fcid_format(r->prefix, f),
			r->bits, h->port, (h->flags & FCR_NH_FPMA) ? "fpma" : "mac ",
			(h->flags & FCR_NH_FPMA) ? "" : fcr_mac_format(h->mac, m));
	}
	fprintf(out, "%u routes\n", rt->nb_routes);
}

void
fcr_show_bindings(FILE *out)
{
	const struct fcr_binding_table *bt = fcr_fwd.tables->names;
	char w[FCR_WWPN_STRLEN], f[FCR_FCID_STRLEN];
	uint32_t i;

	for (i = 0; i < bt->capacity; i++) {
		const struct fcr_name *n = &bt->names[i];

		if (!n->in_use || n->fcid == FCR_FCID_NONE)
			continue;
		fprintf(out, "binding vlan %u wwpn %s fcid %s %s\n", n->vlan,
			fcr_wwpn_format(n->wwpn, w), fcr_fcid_format(n->fcid, f),
			fcr_bind_origin_name(n->origin));
	}
	fprintf(out, "%u bindings\n", bt->nb_bound);
}

void
fcr_show_redirects(FILE *out)
{
	const struct fcr_redirect_table *rt = fcr_fwd.tables->redirects;
	const struct fcr_binding_table *bt = rt->names;
	char w[FCR_M_COUNT][FCR_WWPN_STRLEN];
	uint32_t i;
	int m;

	for (i = 0; i < rt->capacity; i++) {
		const struct fcr_redirect *r = &rt->r[i];
		enum fcr_member miss;

		if (!r->in_use)
			continue;
		for (m = 0; m < FCR_M_COUNT; m++)
			fcr_wwpn_format(bt->names[r->name[m]].wwpn, w[m]);
		fprintf(out, "redirect vlan %u host %s target %s vi %s vt %s %s",
			r->vlan, w[0], w[1], w[2], w[3],
			fcr_redirect_state_name(r->state));
		miss = fcr_redirect_missing(rt, i);
		if (r->state == FCR_RS_WAITING && miss != FCR_M_COUNT)
			fprintf(out, " (waiting for %s %s)", fcr_member_name(miss),
				w[miss]);
		fprintf(out, " before_rule %" PRIu64 "\n", r->frames_before);
	}
	fprintf(out, "%u redirects, %u active\n", rt->count, rt->nb_active);
}
