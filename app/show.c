/* SPDX-License-Identifier: BSD-3-Clause */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_memory.h>
#include <rte_mempool.h>

#include "commands.h"
#include "fcr_config.h"
#include "fcr_cutover.h"
#include "fcr_kind.h"
#include "fcr_tables.h"
#include "fcr_text.h"
#include "fcr_profile.h"
#include "options.h"
#include "ports.h"
#include "show.h"
#include "sync_io.h"
#include "tables_lcore.h"

/* "fabric" (toward the FCF), "edge" (ENodes), "series" (another
 * fcredirect's fabric port: the mark honoured), or "lab" without
 * --fabric-ports. */
static const char *
port_role(uint16_t p)
{
	if (fcr_fwd.series_mask >> p & 1)
		return "series";
	if (fcr_fwd.fabric_mask == 0)
		return "lab";
	return fcr_fwd.fabric_mask >> p & 1 ? "fabric" : "edge";
}

/* Where FIP and other EtherTypes received on port go: "port 3", "ports
 * 0,1,2" (a fabric port's edge ports), or "nowhere (dropped)". */
static const char *
passthrough_text(uint16_t port, char *buf, size_t len)
{
	uint32_t m = fcr_fwd.flood[port];
	size_t o;

	if (__builtin_popcount(m) > 1) {
		o = (size_t)snprintf(buf, len, "ports ");
		while (m != 0 && o < len) {
			o += (size_t)snprintf(buf + o, len - o, "%u%s", __builtin_ctz(m),
					      (m & (m - 1)) ? "," : "");
			m &= m - 1;
		}
	} else if (fcr_fwd.passthrough[port] < fcr_fwd.nb_ports)
		snprintf(buf, len, "port %u", fcr_fwd.passthrough[port]);
	else
		snprintf(buf, len, "nowhere (dropped)");
	return buf;
}

/* a / b, 0 when b is */
static double
per(uint64_t a, uint64_t b)
{
	return b ? (double)a / (double)b : 0.0;
}

/* `clear fwd stats` keeps what each worker's counters said then; the
 * workers own their counters and never see them reset. Every field of
 * struct fcr_worker_stats is a uint64_t counter. */
static struct fcr_worker_stats cleared[FCR_MAX_WORKERS];
_Static_assert(sizeof(struct fcr_worker_stats) % sizeof(uint64_t) == 0,
	       "fcr_worker_stats is uint64_t counters");

/* now - then, counter by counter, over `size` bytes of uint64_t counters
 * another lcore writes */
static void
counters_since(const void *now, const void *then, void *out, size_t size)
{
	const uint64_t *n = now, *t = then;
	uint64_t *o = out;
	size_t i;

	for (i = 0; i < size / sizeof(uint64_t); i++)
		o[i] = __atomic_load_n(&n[i], __ATOMIC_RELAXED) - t[i];
}

static void
worker_since_clear(unsigned int w, struct fcr_worker_stats *d)
{
	counters_since(&fcr_fwd.workers[w]->st, &cleared[w], d, sizeof(*d));
}

static struct fcr_distributor_stats cleared_dist[FCR_MAX_DISTRIBUTORS];
_Static_assert(sizeof(struct fcr_distributor_stats) % sizeof(uint64_t) == 0,
	       "fcr_distributor_stats is uint64_t counters");

static void
distributor_since_clear(unsigned int d, struct fcr_distributor_stats *out)
{
	counters_since(&fcr_fwd.distributors[d]->st, &cleared_dist[d], out, sizeof(*out));
}

void
fcr_clear_fwd_stats(void)
{
	unsigned int w;

	for (w = 0; w < fcr_fwd.nb_workers; w++)
		memcpy(&cleared[w], &fcr_fwd.workers[w]->st, sizeof(cleared[w]));
	for (w = 0; w < fcr_fwd.nb_distributors; w++)
		memcpy(&cleared_dist[w], &fcr_fwd.distributors[w]->st, sizeof(cleared_dist[w]));
}

/* How long fabric login frames waited for the tables lcore (since the last
 * clear): the login-to-accept delay fcredirect adds. */
static void
login_hold(FILE *out)
{
	static uint64_t h[FCR_HOLD_BUCKETS];
	struct fcr_worker_stats s;
	uint64_t n = 0, max = 0, at = 0;
	double p[2] = { -1, -1 };
	unsigned int w, b;

	memset(h, 0, sizeof(h));
	for (w = 0; w < fcr_fwd.nb_workers; w++) {
		worker_since_clear(w, &s);
		for (b = 0; b < FCR_HOLD_BUCKETS; b++)
			h[b] += s.hold_us[b];
		max = RTE_MAX(max, fcr_fwd.workers[w]->st.hold_max_tsc);
	}
	for (b = 0; b < FCR_HOLD_BUCKETS; b++)
		n += h[b];
	if (n == 0)
		return;
	for (b = 0; b < FCR_HOLD_BUCKETS; b++) {
		at += h[b];
		/* a bucket's upper edge: the time is at most that */
		if (p[0] < 0 && at * 2 >= n)
			p[0] = (b + 1) * FCR_HOLD_BUCKET_US;
		if (p[1] < 0 && at * 100 >= n * 99)
			p[1] = (b + 1) * FCR_HOLD_BUCKET_US;
	}
	fprintf(out, "    %-28s %" PRIu64 " frames: p50 <= %.0f us, p99 <= %.0f us, max %.1f us\n",
		"login_hold", n, p[0], p[1], 1e6 * (double)max / (double)rte_get_tsc_hz());
}

void
fcr_fwd_totals(struct fcr_fwd_totals *t, int since_clear)
{
	struct fcr_worker_stats d;
	unsigned int i, j;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < fcr_fwd.nb_workers; i++) {
		const struct fcr_worker_stats *s = &fcr_fwd.workers[i]->st;

		if (since_clear) {
			worker_since_clear(i, &d);
			s = &d;
		}

		for (j = 0; j < FCR_MAX_PORTS; j++) {
			t->w.rx[j] += s->rx[j];
			t->w.tx[j] += s->tx[j];
			t->w.tx_fail[j] += s->tx_fail[j];
		}
		for (j = 0; j < FCR_R_COUNT; j++)
			t->w.pl.drop[j] += s->pl.drop[j];
		for (j = 0; j < FCR_LEG_COUNT; j++) {
			t->w.pl.leg[j] += s->pl.leg[j];
			t->w.pl.leg_bytes[j] += s->pl.leg_bytes[j];
		}
		t->w.pl.flow_miss += s->pl.flow_miss;
		t->w.pl.series += s->pl.series;
		t->w.pl.passthrough += s->pl.passthrough;
		t->w.pl.logins += s->pl.logins;
		t->w.pl.logins_bad_crc += s->pl.logins_bad_crc;
		t->w.pl.els_ids += s->pl.els_ids;
		t->w.pl.guard_judged += s->pl.guard_judged;
		t->w.pl.guard_clear += s->pl.guard_clear;
		for (j = 0; j < 256; j++)
			t->w.pl.els_unread[j] += s->pl.els_unread[j];
		t->w.events_lost += s->events_lost;
		t->w.made += s->made;
		t->w.frames += s->frames;
		t->w.busy_cycles += s->busy_cycles;
	}
	/* frames a distributor received and could not hand on: received, and
	 * dropped there */
	for (i = 0; i < fcr_fwd.nb_distributors; i++) {
		struct fcr_distributor_stats ds;

		if (since_clear)
			distributor_since_clear(i, &ds);
		else
			ds = fcr_fwd.distributors[i]->st;
		for (j = 0; j < FCR_MAX_PORTS; j++) {
			t->w.rx[j] += ds.ring_full[j];
			t->w.pl.drop[FCR_R_DISTRIBUTOR_FULL] += ds.ring_full[j];
		}
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
	t->made = t->w.made;
}

void
fcr_show_fwd_stats(FILE *out)
{
	const struct fcr_tables_stats *ws = &fcr_fwd.tables->st;
	struct fcr_fwd_totals t;
	unsigned int i, any = 0;
	char made[32] = "";
	uint16_t p;

	fcr_fwd_totals(&t, 1);
	fprintf(out, "---------------------- Forward statistics ----------------------\n");
	for (p = 0; p < fcr_fwd.nb_ports; p++)
		fprintf(out, "  port %-3u rx %-14" PRIu64 " tx %-14" PRIu64 "\n", p,
			t.w.rx[p], t.w.tx[p]);
	/* frames fcredirect made itself, shown only when there are some */
	if (t.made != 0)
		snprintf(made, sizeof(made), " made %" PRIu64, t.made);
	fprintf(out, "  total    rx %-14" PRIu64 " tx %-14" PRIu64 " dropped %" PRIu64
		"%s  (rx%s %s tx + dropped)\n", t.rx, t.tx, t.dropped, made,
		t.made != 0 ? " + made" : "", t.rx + t.made == t.tx + t.dropped ? "==" : "!=");
	fprintf(out, "  sent by kind:\n");
	for (i = 0; i < FCR_LEG_COUNT; i++)
		fprintf(out, "    %-28s %" PRIu64 "\n", fcr_leg_name(i), t.w.pl.leg[i]);
	fprintf(out, "    %-28s %" PRIu64 "\n", "passthrough", t.w.pl.passthrough);
	fprintf(out, "    %-28s %" PRIu64 "  (of plain: no flow entry yet)\n",
		"flow_miss", t.w.pl.flow_miss);
	fprintf(out, "    %-28s %" PRIu64 "  (of plain: the mark, a redirect upstream rewrote them)\n",
		"series", t.w.pl.series);
	fprintf(out, "    %-28s %" PRIu64 "  (of the legs: identities in the payload rewritten)\n",
		"els_ids", t.w.pl.els_ids);
	for (i = 0; i < 256; i++)
		if (t.w.pl.els_unread[i] != 0)
			fprintf(out, "    els_unread 0x%02x%-17s %" PRIu64 "  (of the legs: an ELS not read)\n",
				i, "", t.w.pl.els_unread[i]);
	if (fcr_fwd.guard_every != 0) {
		fprintf(out, "    %-28s %" PRIu64 "  (of vi_to_target: data frames the cleartext "
			"guard judged)\n", "guard_judged", t.w.pl.guard_judged);
		fprintf(out, "    %-28s %" PRIu64 "  (of them: not looking encrypted)\n",
			"guard_clear", t.w.pl.guard_clear);
	}
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
		const struct fcr_flow_cache *c = &fcr_fwd.workers[i]->pipeline.cache;
		struct fcr_worker_stats since, *s = &since;

		worker_since_clear(i, &since);

		fprintf(out, "    worker %u (lcore %u): frames %" PRIu64
			", busy cycles/frame %.1f, busy polls %.1f%%, flow cache hits %.1f%%\n",
			i, fcr_fwd.workers[i]->lcore, s->frames, per(s->busy_cycles, s->frames),
			100.0 * per(s->busy_polls, s->polls), 100.0 * per(c->hits, c->lookups));
	}
	for (i = 0; i < fcr_fwd.nb_distributors; i++) {
		struct fcr_distributor_stats ds;
		uint64_t full = 0;
		uint16_t q;

		distributor_since_clear(i, &ds);
		for (q = 0; q < FCR_MAX_PORTS; q++)
			full += ds.ring_full[q];
		fprintf(out, "    distributor %u (lcore %u): frames %" PRIu64
			", busy cycles/frame %.1f, busy polls %.1f%%, distributor_full %" PRIu64 "\n",
			i, fcr_fwd.distributors[i]->lcore, ds.frames, per(ds.busy_cycles, ds.frames),
			100.0 * per(ds.busy_polls, ds.polls), full);
	}
	fprintf(out, "  tables lcore:\n");
	fprintf(out, "    %-28s %" PRIu64 "\n", "login_frames_snooped", t.w.pl.logins);
	fprintf(out, "    %-28s %" PRIu64 "\n", "login_frames_bad_crc", t.w.pl.logins_bad_crc);
	fprintf(out, "    %-28s %" PRIu64 "\n", "events_lost", t.w.events_lost);
#define FCR_WS_PRINT(name, text) \
	fprintf(out, "    %-28s %" PRIu64 "\n", #name, ws->name);
	FCR_TABLES_STATS(FCR_WS_PRINT)
#undef FCR_WS_PRINT
	/* by the port the refused request came in on */
	for (p = 0; p < fcr_fwd.nb_ports && p < FCR_COUNTED_PORTS; p++)
		if (fcr_fwd.tables->login_conflict[p] != 0)
			fprintf(out, "    login_conflict port %-14u %" PRIu64 "\n", p,
				fcr_fwd.tables->login_conflict[p]);
	if (fcr_login_latency.count > 0) {
		double us = 1e6 / (double)rte_get_tsc_hz();

		fprintf(out, "    %-28s %.1f us average, %.1f us max\n",
			"login_to_binding",
			us * (double)fcr_login_latency.sum_tsc /
				(double)fcr_login_latency.count,
			us * (double)fcr_login_latency.max_tsc);
	}
	login_hold(out);
	fprintf(out, "    %-28s %u\n", "flows", fcr_fwd.tables->flows->count);
	fprintf(out, "    %-28s %u of %u\n", "redirects_active",
		fcr_fwd.tables->redirects->nb_active,
		fcr_fwd.tables->redirects->count);
	fprintf(out, "----------------------------------------------------------------\n");
}

/* Rates are since the previous show of the same port. */
static struct {
	uint64_t ipackets, opackets, ibytes, obytes, tsc;
} last_show[FCR_MAX_PORTS];

static void
port_stats(FILE *out, uint16_t p)
{
	struct rte_eth_stats s;
	uint64_t now = rte_rdtsc(), dt;
	double secs;

	if (rte_eth_stats_get(p, &s) != 0)
		return;
	dt = last_show[p].tsc ? now - last_show[p].tsc : 0;
	secs = dt ? (double)dt / (double)rte_get_tsc_hz() : 0;
	fprintf(out, "  ######################## NIC statistics for port %-3u ########################\n", p);
	fprintf(out, "  RX-packets: %-12" PRIu64 " RX-missed: %-10" PRIu64 " RX-bytes:  %" PRIu64 "\n",
		s.ipackets, s.imissed, s.ibytes);
	fprintf(out, "  RX-errors:  %-12" PRIu64 " RX-nombuf: %" PRIu64 "\n", s.ierrors, s.rx_nombuf);
	fprintf(out, "  TX-packets: %-12" PRIu64 " TX-errors: %-10" PRIu64 " TX-bytes:  %" PRIu64 "\n",
		s.opackets, s.oerrors, s.obytes);
	if (secs > 0 && s.ipackets >= last_show[p].ipackets && s.opackets >= last_show[p].opackets) {
		fprintf(out, "  Throughput (since last show)\n");
		fprintf(out, "  Rx-pps: %12.0f          Rx-bps: %12.0f\n",
			(double)(s.ipackets - last_show[p].ipackets) / secs,
			8.0 * (double)(s.ibytes - last_show[p].ibytes) / secs);
		fprintf(out, "  Tx-pps: %12.0f          Tx-bps: %12.0f\n",
			(double)(s.opackets - last_show[p].opackets) / secs,
			8.0 * (double)(s.obytes - last_show[p].obytes) / secs);
	}
	fprintf(out, "  ############################################################################\n");
	last_show[p].ipackets = s.ipackets;
	last_show[p].opackets = s.opackets;
	last_show[p].ibytes = s.ibytes;
	last_show[p].obytes = s.obytes;
	last_show[p].tsc = now;
}

void
fcr_show_port_stats(FILE *out, int port)
{
	uint16_t p;

	for (p = 0; p < fcr_fwd.nb_ports; p++)
		if (port < 0 || port == p)
			port_stats(out, p);
}

void
fcr_clear_port_stats(void)
{
	uint16_t p;

	for (p = 0; p < fcr_fwd.nb_ports; p++) {
		rte_eth_stats_reset(p);
		rte_eth_xstats_reset(p);
		memset(&last_show[p], 0, sizeof(last_show[p]));
	}
}

void
fcr_show_port_info(FILE *out, int port)
{
	struct rte_eth_dev_info info;
	struct rte_eth_link link;
	char name[RTE_ETH_NAME_MAX_LEN], mac[RTE_ETHER_ADDR_FMT_SIZE];
	char links[RTE_ETH_LINK_MAX_STR_LEN], pt[128];
	struct rte_eth_conf conf;
	uint16_t p, mtu = 0;

	for (p = 0; p < fcr_fwd.nb_ports; p++) {
		if ((port >= 0 && port != p) || rte_eth_dev_info_get(p, &info) != 0)
			continue;
		rte_eth_dev_get_name_by_port(p, name);
		rte_ether_format_addr(mac, sizeof(mac), &fcr_fwd.port_mac[p]);
		rte_eth_link_get_nowait(p, &link);
		rte_eth_link_to_str(links, sizeof(links), &link);
		rte_eth_dev_get_mtu(p, &mtu);
		fprintf(out, "  ********************* Infos for port %-3u *********************\n", p);
		fprintf(out, "  MAC address: %s\n  Device name: %s\n  Driver name: %s\n", mac,
			name, info.driver_name);
		fprintf(out, "  NUMA socket: %d\n  Link: %s\n  MTU: %u (max %u)\n",
			rte_eth_dev_socket_id(p), links, mtu, info.max_mtu);
		fprintf(out, "  RX queues: %u (max %u)  TX queues: %u (max %u)\n",
			info.nb_rx_queues, info.max_rx_queues, info.nb_tx_queues,
			info.max_tx_queues);
		fprintf(out, "  RX offload capabilities: 0x%" PRIx64 "  TX: 0x%" PRIx64 "\n",
			info.rx_offload_capa, info.tx_offload_capa);
		if (rte_eth_dev_conf_get(p, &conf) == 0 && fcr_ports_pool(p) != NULL)
			fprintf(out, "  RX scatter: %s (mbuf data room %u)\n",
				(conf.rxmode.offloads & RTE_ETH_RX_OFFLOAD_SCATTER) ?
				"on: frames longer than an mbuf arrive as chains" : "off",
				rte_pktmbuf_data_room_size(fcr_ports_pool(p)) -
				RTE_PKTMBUF_HEADROOM);
		fprintf(out, "  FIP and other EtherTypes pass through to: %s\n",
			passthrough_text(p, pt, sizeof(pt)));
		fprintf(out, "  Role: %s\n", port_role(p));
		fprintf(out, "  State: %s  Promiscuous mode: %s\n",
			fcr_port_stopped(p) ? "stopped" : "started",
			rte_eth_promiscuous_get(p) == 1 ? "enabled" : "disabled");
	}
}

void
fcr_show_port_xstats(FILE *out, uint16_t port)
{
	struct rte_eth_xstat_name *names;
	struct rte_eth_xstat *vals;
	int n, i;

	n = rte_eth_xstats_get(port, NULL, 0);
	if (n <= 0) {
		fprintf(out, "  port %u has no extended counters\n", port);
		return;
	}
	names = calloc((size_t)n, sizeof(*names));
	vals = calloc((size_t)n, sizeof(*vals));
	if (names != NULL && vals != NULL &&
	    rte_eth_xstats_get_names(port, names, (unsigned int)n) == n &&
	    rte_eth_xstats_get(port, vals, (unsigned int)n) == n) {
		fprintf(out, "  ###### NIC extended statistics for port %-3u (non-zero)\n", port);
		for (i = 0; i < n; i++)
			if (vals[i].value != 0)
				fprintf(out, "  %s: %" PRIu64 "\n", names[vals[i].id].name,
					vals[i].value);
	}
	free(names);
	free(vals);
}

static int
busier_first(const void *a, const void *b)
{
	const struct fcr_flow_row *x = a, *y = b;

	return x->frames < y->frames ? 1 : x->frames > y->frames ? -1 : 0;
}

uint32_t
fcr_top_flows(int vlan, uint32_t top, struct fcr_flow_row *rows, uint32_t *total)
{
	const struct fcr_flow_table *ft = fcr_fwd.tables->flows;
	uint32_t it = 0, shown = 0, n = 0, i;
	struct fcr_flow_counters c;
	int idx;

	while ((idx = fcr_flow_next(ft, &it)) >= 0) {
		if (vlan >= 0 && fcr_flow_key_vlan(ft->key[idx]) != vlan)
			continue;
		n++;
		fcr_flow_counters_sum(ft, (uint32_t)idx, &c);
		if (shown == top && c.frames <= rows[top - 1].frames)
			continue;
		/* keep the busiest in rows[], sorted */
		i = shown < top ? shown++ : top - 1;
		rows[i].frames = c.frames;
		rows[i].idx = (uint32_t)idx;
		qsort(rows, shown, sizeof(*rows), busier_first);
	}
	if (total != NULL)
		*total = n;
	return shown;
}

static void
flow_line(FILE *out, uint32_t idx)
{
	const struct fcr_kind *k = fcr_kinds[FCR_KIND_FLOW];
	struct fcr_field f[FCR_FIELDS_MAX];
	int config;

	fcr_fields_row(out, f, k->fields(fcr_fwd.tables, idx, f, &config), 0);
}

/* vlan < 0: all; top 0: in table order, at most 1000; else the busiest. */
void
fcr_show_flows(FILE *out, int vlan, uint32_t top)
{
	const struct fcr_flow_table *ft = fcr_fwd.tables->flows;
	uint32_t it = 0, shown = 0, n = 0, i;
	struct fcr_flow_row *rows;
	int idx;

	struct fcr_field f[FCR_FIELDS_MAX];
	int config;

	fcr_fields_row(out, f, fcr_kinds[FCR_KIND_FLOW]->fields(fcr_fwd.tables, FCR_FIELDS_NAMES,
								 f, &config), 1);
	if (top) {
		rows = calloc(top, sizeof(*rows));
		if (rows == NULL)
			return;
		shown = fcr_top_flows(vlan, top, rows, &n);
		for (i = 0; i < shown; i++)
			flow_line(out, rows[i].idx);
		free(rows);
	} else {
		while ((idx = fcr_flow_next(ft, &it)) >= 0) {
			if (vlan >= 0 && fcr_flow_key_vlan(ft->key[idx]) != vlan)
				continue;
			if (n++ < 1000) {
				flow_line(out, (uint32_t)idx);
				shown++;
			}
		}
	}
	if (n > shown)
		fprintf(out, "... %u flows shown of %u\n", shown, n);
	else
		fprintf(out, "%u flows\n", n);
}

/* A polling lcore's line of `show lcores`. */
static void
lcore_load(FILE *out, unsigned int lc, const char *role, uint64_t frames,
	   uint64_t busy_polls, uint64_t polls, uint64_t busy_cycles)
{
	fprintf(out, "%-6u %-34s %-12" PRIu64 " %5.1f%%     %.1f\n", lc, role, frames,
		100.0 * per(busy_polls, polls), per(busy_cycles, frames));
}

/* Roles and load of every lcore. */
void
fcr_show_lcores(FILE *out)
{
	unsigned int lc, w;

	fprintf(out, "%-6s %-34s %-12s %-10s %s\n", "lcore", "role", "frames", "busy",
		"cycles/frame");
	RTE_LCORE_FOREACH(lc) {
		const struct fcr_worker *wk = NULL;
		const struct fcr_distributor *d = NULL;
		char role[64] = "";

		for (w = 0; w < fcr_fwd.nb_workers; w++)
			if (fcr_fwd.workers[w]->lcore == lc)
				wk = fcr_fwd.workers[w];
		for (w = 0; w < fcr_fwd.nb_distributors; w++)
			if (fcr_fwd.distributors[w]->lcore == lc)
				d = fcr_fwd.distributors[w];
		if (d != NULL) {
			lcore_load(out, lc, "distributor", d->st.frames, d->st.busy_polls,
				   d->st.polls, d->st.busy_cycles);
			continue;
		}
		if (wk != NULL) {
			lcore_load(out, lc, "worker", wk->st.frames, wk->st.busy_polls,
				   wk->st.polls, wk->st.busy_cycles);
			continue;
		}
		if (lc == fcr_fwd.tables_lcore)
			snprintf(role, sizeof(role), "tables lcore: commands, replication%s",
				 lc == rte_get_main_lcore() ? ", command line" : "");
		else if (lc == rte_get_main_lcore())
			snprintf(role, sizeof(role), "command line");
		else
			snprintf(role, sizeof(role), "idle");
		fprintf(out, "%-6u %-34s %-12s %-10s %s\n", lc, role, "-", "-", "-");
	}
}

static void
rxq_list(FILE *out, const struct fcr_rxq *q, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		fprintf(out, "  RX P=%u/Q=%u%s", q[i].port, q[i].queue,
			q[i].ring != NULL ? " (from its distributor)" : "");
	fprintf(out, "\n");
}

/* testpmd's `show config fwd`: who receives what and sends where. */
void
fcr_show_config_fwd(FILE *out)
{
	unsigned int i;

	fprintf(out, "fcredirect forwarding (FC-Redirect rules, then routes) - ports=%u - "
		"workers=%u - distributors=%u - burst=%u\n", fcr_fwd.nb_ports,
		fcr_fwd.nb_workers, fcr_fwd.nb_distributors, fcr_fwd.burst);
	for (i = 0; i < fcr_fwd.nb_distributors; i++) {
		const struct fcr_distributor *d = fcr_fwd.distributors[i];

		fprintf(out, "Logical Core %u (socket %u) distributor %u deals by (VLAN, S_ID, "
			"D_ID) over the workers:", d->lcore, rte_lcore_to_socket_id(d->lcore), i);
		rxq_list(out, d->rxq, d->nb_rxq);
	}
	for (i = 0; i < fcr_fwd.nb_workers; i++) {
		const struct fcr_worker *w = fcr_fwd.workers[i];

		fprintf(out, "Logical Core %u (socket %u) worker %u, TX queue %u of every port:",
			w->lcore, rte_lcore_to_socket_id(w->lcore), i, w->txq);
		rxq_list(out, w->rxq, w->nb_rxq);
	}
	fprintf(out, "Logical Core %u tables lcore: tables, replication%s\n", fcr_fwd.tables_lcore,
		fcr_fwd.tables_lcore == rte_get_main_lcore() ? ", command line" : "");
}

/*
 * `show redirect paths`: each redirect as the path its frames take, host ->
 * VT -> (the service node) -> VI -> target, by WWPN and the FCIDs its rules
 * use, then each of its flow entries: the leg, S_ID -> D_ID as received,
 * and its frames.
 */
void
fcr_show_redirect_paths(FILE *out)
{
	static const enum fcr_member path[] = { FCR_M_HOST, FCR_M_VT, FCR_M_VI, FCR_M_TARGET };
	const struct fcr_redirect_table *rt = fcr_fwd.tables->redirects;
	const struct fcr_binding_table *bt = fcr_fwd.tables->bindings;
	const struct fcr_flow_table *ft = fcr_fwd.tables->flows;
	char w[FCR_WWPN_STRLEN], a[FCR_FCID_STRLEN], b[FCR_FCID_STRLEN];
	uint32_t id, n = 0;
	unsigned int m, k;

	for (id = 0; id < rt->capacity; id++) {
		const struct fcr_redirect *x = &rt->r[id];

		if (!x->in_use)
			continue;
		n++;
		fprintf(out, "redirect path vlan %u: %s\n", x->vlan,
			fcr_redirect_state_name(x->state));
		for (m = 0; m < RTE_DIM(path); m++) {
			const struct fcr_binding *e = &bt->entry[x->binding[path[m]]];

			fprintf(out, "  %s %-6s %s %s\n", m ? "->" : "  ", fcr_member_name(path[m]),
				fcr_wwpn_format(e->wwpn, w),
				e->fcid == FCR_FCID_NONE ? "(not logged in)" :
				fcr_fcid_format_dotted(e->fcid, a));
			if (path[m] == FCR_M_VT)
				fprintf(out, "     (the service node, from its VT to its VI)\n");
		}
		if (!x->blocking && x->nb_keys != 0)
			fprintf(out, "  legs (S_ID -> D_ID as received; rewritten as the leg says):\n");
		if (x->blocking)
			fprintf(out, "  its host-target pair is blocked (%s): %" PRIu64
				" frames dropped\n", fcr_redirect_state_name(x->state),
				fcr_redirect_dropped(rt, id));
		for (k = 0; k < x->nb_keys && !x->blocking; k++) {
			struct fcr_flow_counters c;
			int i = fcr_flow_find(ft, x->key[k]);

			if (i < 0)
				continue;
			fcr_flow_counters_sum(ft, (uint32_t)i, &c);
			fprintf(out, "     %-18s %s -> %s  %" PRIu64 " frames\n",
				fcr_leg_name(fcr_action_leg(fcr_flow_action_load(ft, (uint32_t)i))),
				fcr_fcid_format_dotted(fcr_flow_key_sid(x->key[k]), a),
				fcr_fcid_format_dotted(fcr_flow_key_did(x->key[k]), b), c.frames);
		}
	}
	fprintf(out, "%u redirect paths\n", n);
}

/* What the fabric ports' FIP advertisements taught, by VLAN: the FCF the
 * cutover speaks for, the FC-MAP of the VN_Port MACs fcredirect writes. */
void
fcr_show_fcf(FILE *out)
{
	const struct fcr_tables *t = fcr_fwd.tables;
	char mac[FCR_MAC_STRLEN], name[FCR_WWPN_STRLEN], map[FCR_FCID_STRLEN];
	unsigned int v, n = 0;
	uint16_t port;

	uint32_t vn_ports[FCR_FCFS_MAX] = { 0 }, i;

	/* VN_Ports by the FCF that accepted their login */
	for (i = 0; i < t->bindings->capacity; i++) {
		const struct fcr_binding *b = &t->bindings->entry[i];

		if (b->in_use && b->fcid != FCR_FCID_NONE && fcr_vn_fcf(b->vn) != 0)
			vn_ports[fcr_vn_fcf(b->vn) - 1]++;
	}
	for (v = 0; v < 4096; v++) {
		const struct fcr_fcf *f = &t->fcf[v];

		if (!f->known)
			continue;
		fprintf(out, "vlan %-4u fcf %s name %s fc-map %s (%s)\n", v,
			fcr_mac_format(f->mac, mac), fcr_wwpn_format(f->name, name),
			fcr_fcid_format(fcr_tables_fc_map(t, (uint16_t)v), map),
			t->vlan_fc_map_fixed[v] != 0 ? "--vlan-fc-map" :
			f->map_known ? "advertised" : "--fc-map: the FCF named none");
		/* every FCF of the VLAN, the one each ENode chose */
		for (i = 0; i < t->nb_fcfs; i++) {
			uint8_t m[6];

			if (t->fcfs[i].vlan != v)
				continue;
			fcr_vn_mac(t->fcfs[i].mac, m);
			fprintf(out, "  fcf %s name %s vn_ports %" PRIu32 "%s\n",
				fcr_mac_format(m, mac), fcr_wwpn_format(t->fcfs[i].name, name),
				vn_ports[i], memcmp(m, f->mac, 6) == 0 ? " (last advertiser)" : "");
		}
		n++;
	}
	/* what the ENodes' VLAN discovery was told, by fabric port */
	for (port = 0; port < fcr_fwd.nb_ports && port < FCR_OFFERED_PORTS; port++) {
		int any = 0;

		for (v = 0; v < 4096; v++) {
			if (!(t->offered[port][v >> 6] >> (v & 63) & 1))
				continue;
			if (!any)
				fprintf(out, "vlan discovery: port %u offers vlans", port);
			fprintf(out, " %u", v);
			any = 1;
		}
		if (any)
			fprintf(out, "\n");
	}
	fprintf(out, "%u VLANs with an FCF, %u FCFs (of %u kept); fc-map %s (--fc-map) "
		"elsewhere; keep-alive period %u ms\n", n, t->nb_fcfs, FCR_FCFS_MAX,
		fcr_fcid_format(t->fc_map, map), t->fka_ms);
}

/* The FC-BB-5 sessions, as a snooping bridge shows them: each VN_Port
 * that logged in through a port of this node, with the ENode it came
 * through, its own MAC, the FCF its ENode keeps alive with, and how long
 * ago the login was seen. */
void
fcr_show_fip_sessions(FILE *out)
{
	const struct fcr_tables *t = fcr_fwd.tables;
	const struct fcr_binding_table *bt = t->bindings;
	uint64_t now = rte_get_tsc_cycles(), hz = rte_get_tsc_hz();
	char em[FCR_MAC_STRLEN], vm[FCR_MAC_STRLEN], fm[FCR_MAC_STRLEN];
	char w[FCR_WWPN_STRLEN], f[FCR_FCID_STRLEN], age[FCR_AGE_STRLEN];
	unsigned int n = 0, unknown = 0;
	uint32_t i;

	fprintf(out, "%-4s %-4s %-17s %-17s %-23s %-8s %-17s %s\n", "port", "vlan",
		"enode mac", "vn_port mac", "wwpn", "fcid", "fcf mac", "age");
	for (i = 0; i < bt->capacity; i++) {
		const struct fcr_binding *b = &bt->entry[i];
		uint8_t mac[6];
		uint64_t name;

		if (!b->in_use || b->fcid == FCR_FCID_NONE || !fcr_binding_learned_here(b))
			continue;
		if (b->enode != 0) {
			fcr_vn_mac(b->enode, mac);
			fcr_mac_format(mac, em);
		} else {
			snprintf(em, sizeof(em), "- (no FIP)");
		}
		fcr_vn_mac(b->vn, mac);
		fcr_mac_format(mac, vm);
		if (fcr_tables_enode_fcf(t, b->vlan, b->enode, mac, &name) == 0)
			fcr_mac_format(mac, fm);
		else
			snprintf(fm, sizeof(fm), "-");
		if (b->since != 0 && now >= b->since) {
			fcr_age_format((now - b->since) / hz, age);
		} else {
			snprintf(age, sizeof(age), "-");
			unknown++;
		}
		fprintf(out, "%-4u %-4u %-17s %-17s %-23s %-8s %-17s %s\n",
			(unsigned int)(b->vn >> 48) & 0xFF, b->vlan, em, vm,
			fcr_wwpn_format(b->wwpn, w), fcr_fcid_format_dotted(b->fcid, f), fm, age);
		n++;
	}
	fprintf(out, "%u sessions", n);
	if (unknown)
		fprintf(out, " (%u with age -: restored from the state file or an HA peer's, "
			"the login not seen here)", unknown);
	fprintf(out, "\n");
}

struct pool_walk {
	FILE *out;
	unsigned int n;
};

static void
show_pool(struct rte_mempool *mp, void *arg)
{
	struct pool_walk *w = arg;
	/* what the lcores' caches hold is free: counted in avail */
	unsigned int avail = rte_mempool_avail_count(mp);

	fprintf(w->out, "mempool %-20s socket %d  size %u  in use %u  free %u  "
		"(cache %u per lcore, %.1f MB)\n", mp->name, mp->socket_id, mp->size,
		mp->size - avail, avail, mp->cache_size,
		(double)mp->size * (mp->header_size + mp->elt_size + mp->trailer_size) / 1048576.0);
	w->n++;
}

/* Every pool of the process (a capture's, made by dpdk-dumpcap, too): a
 * stop or an overload that kept mbufs shows as in use that stays. */
void
fcr_show_mempool(FILE *out)
{
	struct pool_walk w = { .out = out };

	rte_mempool_walk(show_pool, &w);
	fprintf(out, "%u mempools\n", w.n);
}

/*
 * Whether dpdk-dumpcap can capture live, and why not: it is a secondary
 * process (it shares this one's hugepage memory, so none with --no-huge)
 * and makes its pool of 4,096 mbufs (twice its 2,048-frame ring) in that
 * memory: 10.2 MB with its default snap length (measured, ops-dumpcap).
 * The memory is what the heap has free plus the free hugepages it can
 * still grow into (EAL's default; not with --legacy-mem or a
 * --socket-limit reached).
 */
#define FCR_CAPTURE_MB 11

static double
free_hugepages_mb(void)
{
	static const struct { const char *path; double mb; } sz[] = {
		{ "/sys/kernel/mm/hugepages/hugepages-2048kB/free_hugepages", 2 },
		{ "/sys/kernel/mm/hugepages/hugepages-1048576kB/free_hugepages", 1024 },
	};
	double mb = 0;
	unsigned int i;

	for (i = 0; i < RTE_DIM(sz); i++) {
		FILE *f = fopen(sz[i].path, "r");
		unsigned long n;

		if (f == NULL)
			continue;
		if (fscanf(f, "%lu", &n) == 1)
			mb += (double)n * sz[i].mb;
		fclose(f);
	}
	return mb;
}

/*
 * dpdk-dumpcap maps this process's memory at the same addresses. EAL asks
 * for them low in the address space; when it got them elsewhere (the low
 * range taken, as under AddressSanitizer) they lie where every process
 * maps its libraries and thread stacks at randomised addresses, so a
 * capture process may find them taken and fail.
 */
#define FCR_MMAP_RANGE (2ULL << 40) /* 2 TiB: the randomised mmap area */

static int
lowest_list(const struct rte_memseg_list *msl, void *arg)
{
	uintptr_t *low = arg;

	if (!msl->external && (uintptr_t)msl->base_va < *low)
		*low = (uintptr_t)msl->base_va;
	return 0;
}

static uintptr_t
memory_among_libraries(void)
{
	uintptr_t low = UINTPTR_MAX, libs = (uintptr_t)&fprintf;

	rte_memseg_list_walk(lowest_list, &low);
	return low != UINTPTR_MAX && low + FCR_MMAP_RANGE > libs ? low : 0;
}

static void
capture_line(FILE *out)
{
	struct rte_malloc_socket_stats st;
	double heap_mb = 0, pages_mb;
	unsigned int s;

	for (s = 0; s < rte_socket_count(); s++)
		if (rte_malloc_get_socket_stats(rte_socket_id_by_idx(s), &st) == 0)
			heap_mb += (double)st.heap_freesz_bytes / 1048576.0;
	pages_mb = free_hugepages_mb();
	if (!rte_eal_has_hugepages())
		fprintf(out, "live capture:   unavailable: --no-huge (dpdk-dumpcap shares this "
			"process's hugepage memory, and it has none)\n");
	else if (fcr_fwd.pdump_error != NULL)
		fprintf(out, "live capture:   unavailable: %s\n", fcr_fwd.pdump_error);
	else if (heap_mb + pages_mb < FCR_CAPTURE_MB)
		fprintf(out, "live capture:   unavailable for want of memory: %.0f MB free in this "
			"process's heap and %.0f MB of free hugepages, dpdk-dumpcap's pool needs about "
			"%d MB (reserve more hugepages, give EAL more with -m, or lower --max-flows)\n",
			heap_mb, pages_mb, FCR_CAPTURE_MB);
	else if (memory_among_libraries() != 0)
		fprintf(out, "live capture:   at risk: this process's memory lies at %#" PRIxPTR
			", among the addresses processes map their libraries at, so dpdk-dumpcap "
			"may fail to map it (start fcredirect with --base-virtaddr 0x300000000000)\n",
			memory_among_libraries());
	else
		fprintf(out, "live capture:   available: dpdk-dumpcap --file-prefix %s -i <port "
			"name> (%.0f MB free in this process's heap, %.0f MB of free hugepages; its "
			"pool takes about %d MB)\n", fcr_fwd.file_prefix, heap_mb, pages_mb,
			FCR_CAPTURE_MB);
}

void
fcr_show_config(FILE *out)
{
	const struct fcr_options *o = fcr_fwd.opt;
	const struct fcr_profile *p = fcr_fwd.profile;
	char mapc[FCR_FCID_STRLEN], pt[128];
	unsigned int w, q, i;
	uint16_t port;

	fprintf(out, "profile:        %s%s%s\n", p ? p->name : "none (EAL options as given)",
		p ? " - " : "", p ? p->description : "");
	if (p != NULL && p->lossless_priority >= 0)
		fprintf(out, "lossless class: priority %d (PFC set on the NIC and switch)\n",
			p->lossless_priority);
	if (p != NULL)
		fprintf(out, "fcoe steering:  %s\n", p->steering ? "rte_flow" : "none");
	fprintf(out, "config folder:  %s (save config, load config)\n", o->config_dir);
	fprintf(out, "ports:          %u\n", fcr_fwd.nb_ports);
	for (port = 0; port < fcr_fwd.nb_ports; port++)
		fprintf(out, "  port %u: %s, pass-through to %s\n", port, port_role(port),
			passthrough_text(port, pt, sizeof(pt)));
	fprintf(out, "trust:          %s\n", fcr_fwd.fabric_mask ?
		"bindings learned from the fabric ports' login replies; edge ports pass "
		"FCoE only from VN_Ports that logged in through them" :
		"no fabric port: nothing learned (static bindings only), no source checked");
	fprintf(out, "the mark:       frames a redirect rewrote carry it; %s\n",
		(fcr_fwd.fabric_mask | fcr_fwd.series_mask) ?
		"from fabric and series ports they pass plain, from other ports they are "
		"dropped (mark_untrusted)" :
		"no fabric or series port: frames with it are dropped (mark_untrusted)");
	fprintf(out, "lcore map:     ");
	for (w = 0; w < fcr_fwd.nb_workers; w++)
		for (q = 0; q < fcr_fwd.workers[w]->nb_rxq; q++)
			fprintf(out, " (%u,%u,%u)", fcr_fwd.workers[w]->rxq[q].port,
				fcr_fwd.workers[w]->rxq[q].queue, fcr_fwd.workers[w]->lcore);
	fprintf(out, "\n");
	fprintf(out, "tables lcore:     lcore %u\n", fcr_fwd.tables_lcore);
	fprintf(out, "descriptors:    rx %u, tx %u; burst %u\n", o->rxd, o->txd, o->burst);
	fprintf(out, "capacity:       %u flows (%u kept for redirect rules), %u redirects, "
		"%u bindings, %u routes\n", o->max_flows, fcr_redirect_reserve(o->max_redirects),
		o->max_redirects, o->max_bindings, o->max_routes);
	if (o->flow_idle_s)
		fprintf(out, "flow idle:      plain entries go after %u s without a frame\n",
			o->flow_idle_s);
	else
		fprintf(out, "flow idle:      plain entries stay\n");
	fprintf(out, "fc-map:         %s", fcr_fcid_format(o->fc_map, mapc));
	for (i = 0; i < o->nb_vlan_fc_maps; i++)
		fprintf(out, "%s vlan %u %s", i == 0 ? "; given:" : ",", o->vlan_fc_map[i].vlan,
			fcr_fcid_format(o->vlan_fc_map[i].fc_map, mapc));
	fprintf(out, "\n");
	if (fcr_fwd.guard_every != 0)
		fprintf(out, "cleartext guard: %s, one data frame in %u judged on vi_to_target\n",
			fcr_fwd.guard_drop ? "drop (a redirect found passing cleartext stops)" :
			"alarm", fcr_fwd.guard_every);
	else
		fprintf(out, "cleartext guard: off\n");
	fprintf(out, "sync:           %s", fcr_sync_io_enabled() ? "on" : "off");
	if (fcr_sync_io_enabled())
		fprintf(out, ", %u peers configured, window %u ms, mtu %u%s", o->sync.nb_peers,
			o->sync.window_ms, o->sync.mtu,
			o->sync.same_ports ? ", peers cabled as this node (same ports)" : "");
	fprintf(out, "\n");
	if (o->stats_period)
		fprintf(out, "stats period:   %u s\n", o->stats_period);
	else
		fprintf(out, "stats period:   off\n");
	capture_line(out);
}

/* The show commands: each reads counters and tables on the tables lcore. */


/* The <port> of a command that names one: 0, or -1 and why. */
static int
port_exists(uint32_t port, FILE *out)
{
	if (port < fcr_fwd.nb_ports)
		return 0;
	fprintf(out, "error: port %u does not exist (%u ports)\n", port, fcr_fwd.nb_ports);
	return -1;
}

int
fcr_show_fwd_stats_cmd(const struct fcr_cmd *c, FILE *out)
{
	(void)c;
	fcr_show_fwd_stats(out);
	return 0;
}

static int
clear_fwd_stats(const struct fcr_cmd *c, FILE *out)
{
	(void)c;
	(void)out;
	fcr_clear_fwd_stats();
	return 0;
}

/* show port stats|info [<port>]: without one, all */
static int
port_of(const struct fcr_cmd *c, FILE *out, int *port)
{
	*port = -1;
	if (c->nb_args == 0)
		return 0;
	if (port_exists(c->arg[0].u32, out) < 0)
		return -1;
	*port = (int)c->arg[0].u32;
	return 0;
}

static int
show_port_stats(const struct fcr_cmd *c, FILE *out)
{
	int port;

	if (port_of(c, out, &port) < 0)
		return -1;
	fcr_show_port_stats(out, port);
	return 0;
}

static int
clear_port_stats(const struct fcr_cmd *c, FILE *out)
{
	(void)c;
	(void)out;
	fcr_clear_port_stats();
	return 0;
}

static int
show_port_info(const struct fcr_cmd *c, FILE *out)
{
	int port;

	if (port_of(c, out, &port) < 0)
		return -1;
	fcr_show_port_info(out, port);
	return 0;
}

static int
show_port_xstats(const struct fcr_cmd *c, FILE *out)
{
	int port;
	uint16_t p;

	if (port_of(c, out, &port) < 0)
		return -1;
	for (p = 0; p < fcr_fwd.nb_ports; p++)
		if (port < 0 || p == port)
			fcr_show_port_xstats(out, p);
	return 0;
}

static int
show_port_summary(const struct fcr_cmd *c, FILE *out)
{
	(void)c;
	fprintf(out, "Number of available ports: %u\n", fcr_fwd.nb_ports);
	fcr_ports_print(out);
	return 0;
}

FCR_CMD_PRINTER(show_redirect_paths, fcr_show_redirect_paths)

static int
show_redirect(const struct fcr_cmd *c, FILE *out)
{
	return fcr_redirect_describe(out, fcr_fwd.tables->redirects, c->arg[0].u32);
}

/* The forms of show flows (fcr_cmd_def.form) */
#define FLOWS_VLAN 0x01 /* of one VLAN: <vlan> first */
#define FLOWS_TOP 0x02  /* the busiest: <n> last */

static int
show_flows(const struct fcr_cmd *c, FILE *out)
{
	uint32_t n = 0;

	if (c->def->form & FLOWS_TOP) {
		n = c->arg[c->nb_args - 1].u32;
		if (n == 0 || n > 100000) {
			fprintf(out, "error: top: 1 to 100000 flows\n");
			return -1;
		}
	}
	fcr_show_flows(out, (c->def->form & FLOWS_VLAN) ? (int)c->arg[0].u32 : -1, n);
	return 0;
}

FCR_CMD_PRINTER(show_lcores, fcr_show_lcores)
FCR_CMD_PRINTER(show_mempool, fcr_show_mempool)
FCR_CMD_PRINTER(show_fcf, fcr_show_fcf)
FCR_CMD_PRINTER(show_fip_sessions, fcr_show_fip_sessions)
FCR_CMD_PRINTER(show_config, fcr_show_config)
FCR_CMD_PRINTER(show_config_fwd, fcr_show_config_fwd)

#define SHOW_FORM(syntax_, help_, run_, flags_, form_) \
	{ .syntax = (syntax_), .help = (help_), .run = (run_), .thread = FCR_CMD_ON_TABLES, \
	  .section = FCR_SEC_DISPLAY, .flags = (flags_), .form = (form_) }
#define SHOW(syntax_, help_, run_, flags_) SHOW_FORM(syntax_, help_, run_, flags_, 0)

static const struct fcr_cmd_def rows[] = {
	SHOW("show fwd stats", "frames by port, by redirect leg, drops by reason, per worker", fcr_show_fwd_stats_cmd, 0),
	SHOW("show fwd stats all", "the same (testpmd's form)", fcr_show_fwd_stats_cmd, 0),
	SHOW("clear fwd stats", "start show fwd stats from zero (telemetry keeps counting since start)", clear_fwd_stats, FCR_CMD_CHANGES),
	SHOW("clear fwd stats all", "the same (testpmd's form)", clear_fwd_stats, FCR_CMD_CHANGES),
	SHOW("show port stats all", "the ports' own counters, with rates since the last show", show_port_stats, 0),
	SHOW("show port stats <port>", "one port's counters and rates", show_port_stats, 0),
	SHOW("clear port stats all", "zero the ports' own counters", clear_port_stats, FCR_CMD_CHANGES),
	SHOW("show port info all", "driver, MAC, link, MTU, queues, offloads", show_port_info, 0),
	SHOW("show port info <port>", "one port's information", show_port_info, 0),
	SHOW("show port xstats all", "every port's extended counters (non-zero)", show_port_xstats, 0),
	SHOW("show port xstats <port>", "the driver's extended counters (non-zero)", show_port_xstats, 0),
	SHOW("show port summary all", "one line a port: name, driver, MAC, started or stopped, link", show_port_summary, 0),
	SHOW("show redirect paths", "each redirect as a path: host -> VT -> service node -> VI -> target, by WWPN and FCID, and the frames of each of its legs", show_redirect_paths, 0),
	SHOW("show redirect <n>", "one redirect by its id (redirect list): its members, state, and what its cutover waits for", show_redirect, 0),
	SHOW("show flows", "flow entries: key, leg, rewrite, frames, bytes, rate (first 1000)", show_flows, 0),
	SHOW_FORM("show flows vlan <vlan>", "flow entries of one VLAN", show_flows, 0, FLOWS_VLAN),
	SHOW_FORM("show flows top <n>", "the n busiest flows", show_flows, 0, FLOWS_TOP),
	SHOW_FORM("show flows vlan <vlan> top <n>", "the n busiest flows of one VLAN", show_flows, 0, FLOWS_VLAN | FLOWS_TOP),
	SHOW("show lcores", "each lcore's role, busy share and cycles per frame", show_lcores, 0),
	SHOW("show mempool", "each mbuf pool: its size, mbufs in use (ports' queues, rings, workers) and free", show_mempool, 0),
	SHOW("show fcf", "the FCF advertising on each VLAN's fabric ports: its MAC, switch name and FC-MAP", show_fcf, 0),
	SHOW("show fip sessions", "each VN_Port logged in through this node: edge port, VLAN, ENode MAC, VN_Port MAC, WWPN, FCID, its ENode's FCF, age", show_fip_sessions, 0),
	SHOW("show config", "options, ports, the lcore map, profile and sync settings in effect", show_config, 0),
	SHOW("show config fwd", "the forwarding set-up: which lcore polls which queue, sends on which", show_config_fwd, 0),
};
FCR_COMMANDS(rows)
