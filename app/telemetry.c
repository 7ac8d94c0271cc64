/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Telemetry callbacks run in DPDK's telemetry threads (one per client). They read counters
 * that other threads write (64-bit loads: each value is whole, the set is a
 * moment's snapshot) and tables whose arrays never move, so a reply may mix
 * a change in progress but never reads freed memory.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_mempool.h>
#include <rte_telemetry.h>

#include "fcr_change.h"
#include "fcr_kind.h"
#include "fcr_sync.h"
#include "fcr_tables.h"
#include "fcr_text.h"
#include "fwd.h"
#include "rates.h"
#include "show.h"
#include "sync_io.h"
#include "store.h"
#include "telemetry.h"

static int
tel_stats(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct fcr_fwd_totals t;
	struct rte_tel_data *drops, *legs, *leg_bytes, *ports, *tables;
	const struct fcr_tables_stats *ts = &fcr_fwd.tables->st;
	unsigned int i;

	(void)cmd;
	(void)params;
	fcr_fwd_totals(&t, 0); /* monotonic: since start */
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_u64(d, "rx", t.rx);
	rte_tel_data_add_dict_u64(d, "tx", t.tx);
	rte_tel_data_add_dict_u64(d, "dropped", t.dropped);
	rte_tel_data_add_dict_u64(d, "made", t.made);
	rte_tel_data_add_dict_u64(d, "passthrough", t.w.pl.passthrough);
	rte_tel_data_add_dict_u64(d, "flow_miss", t.w.pl.flow_miss);
	rte_tel_data_add_dict_u64(d, "series", t.w.pl.series);
	rte_tel_data_add_dict_u64(d, "guard_judged", t.w.pl.guard_judged);
	rte_tel_data_add_dict_u64(d, "guard_clear", t.w.pl.guard_clear);
	rte_tel_data_add_dict_int(d, "forwarding", fcr_fwd.forwarding);
	legs = rte_tel_data_alloc();
	leg_bytes = rte_tel_data_alloc();
	drops = rte_tel_data_alloc();
	ports = rte_tel_data_alloc();
	tables = rte_tel_data_alloc();
	if (legs == NULL || leg_bytes == NULL || drops == NULL || ports == NULL ||
	    tables == NULL) {
		rte_tel_data_free(legs);
		rte_tel_data_free(leg_bytes);
		rte_tel_data_free(drops);
		rte_tel_data_free(ports);
		rte_tel_data_free(tables);
		return -ENOMEM;
	}
	/* the tables lcore's counters, by the names `show fwd stats` gives them */
	rte_tel_data_start_dict(tables);
#define FCR_TEL_TS(name, text) rte_tel_data_add_dict_u64(tables, #name, ts->name);
	FCR_TABLES_STATS(FCR_TEL_TS)
#undef FCR_TEL_TS
	rte_tel_data_start_dict(legs);
	rte_tel_data_start_dict(leg_bytes);
	for (i = 0; i < FCR_LEG_COUNT; i++) {
		rte_tel_data_add_dict_u64(legs, fcr_leg_name(i), t.w.pl.leg[i]);
		rte_tel_data_add_dict_u64(leg_bytes, fcr_leg_name(i), t.w.pl.leg_bytes[i]);
	}
	rte_tel_data_start_dict(drops);
	for (i = 1; i < FCR_R_COUNT; i++)
		rte_tel_data_add_dict_u64(drops, fcr_reason_name(i), t.w.pl.drop[i]);
	rte_tel_data_start_dict(ports);
	for (i = 0; i < fcr_fwd.nb_ports; i++) {
		char k[32];

		snprintf(k, sizeof(k), "port%u_rx", i);
		rte_tel_data_add_dict_u64(ports, k, t.w.rx[i]);
		snprintf(k, sizeof(k), "port%u_tx", i);
		rte_tel_data_add_dict_u64(ports, k, t.w.tx[i]);
	}
	rte_tel_data_add_dict_container(d, "sent_by_kind", legs, 0);
	rte_tel_data_add_dict_container(d, "sent_bytes_by_kind", leg_bytes, 0);
	rte_tel_data_add_dict_container(d, "drops", drops, 0);
	rte_tel_data_add_dict_container(d, "ports", ports, 0);
	rte_tel_data_add_dict_container(d, "tables", tables, 0);
	return 0;
}

/* A dict of per-second figures, by name. */
static struct rte_tel_data *
tel_rates_dict(void)
{
	struct rte_tel_data *c = rte_tel_data_alloc();

	if (c != NULL)
		rte_tel_data_start_dict(c);
	return c;
}

/* /fcr/rates[,MS]: frames/s and bits/s by port and leg, drops/s by reason,
 * measured over the next MS ms (default 1000), rounded to units. Each
 * telemetry client has its own thread, so the wait holds only the asker, and
 * one reader's interval never shortens another's. */
#define TEL_RATES_MS_DEFAULT 1000
#define TEL_RATES_MS_MIN 100
#define TEL_RATES_MS_MAX 10000

static int
tel_rates(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct rte_tel_data *ports, *legs, *drops;
	struct fcr_rates_snap before, now;
	unsigned long ms = TEL_RATES_MS_DEFAULT;
	struct fcr_rates r;
	unsigned int i;
	char k[48];

	(void)cmd;
	if (params != NULL && *params != '\0') {
		char *end;

		ms = strtoul(params, &end, 10);
		if (*end != '\0' || ms < TEL_RATES_MS_MIN || ms > TEL_RATES_MS_MAX)
			return -EINVAL;
	}
	fcr_rates_snap(&before);
	rte_delay_us_sleep((unsigned int)ms * 1000);
	fcr_rates_snap(&now);
	fcr_rates_between(&before, &now, &r);
	ports = tel_rates_dict();
	legs = tel_rates_dict();
	drops = tel_rates_dict();
	if (ports == NULL || legs == NULL || drops == NULL) {
		rte_tel_data_free(ports);
		rte_tel_data_free(legs);
		rte_tel_data_free(drops);
		return -ENOMEM;
	}
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_u64(d, "interval_ms", (uint64_t)(r.seconds * 1000 + 0.5));
	for (i = 0; i < fcr_fwd.nb_ports; i++) {
		snprintf(k, sizeof(k), "port%u_rx_fps", i);
		rte_tel_data_add_dict_u64(ports, k, (uint64_t)r.port_rx_fps[i]);
		snprintf(k, sizeof(k), "port%u_rx_bps", i);
		rte_tel_data_add_dict_u64(ports, k, (uint64_t)r.port_rx_bps[i]);
		snprintf(k, sizeof(k), "port%u_tx_fps", i);
		rte_tel_data_add_dict_u64(ports, k, (uint64_t)r.port_tx_fps[i]);
		snprintf(k, sizeof(k), "port%u_tx_bps", i);
		rte_tel_data_add_dict_u64(ports, k, (uint64_t)r.port_tx_bps[i]);
	}
	for (i = 0; i < FCR_LEG_COUNT; i++) {
		snprintf(k, sizeof(k), "%s_fps", fcr_leg_name(i));
		rte_tel_data_add_dict_u64(legs, k, (uint64_t)r.leg_fps[i]);
		snprintf(k, sizeof(k), "%s_bps", fcr_leg_name(i));
		rte_tel_data_add_dict_u64(legs, k, (uint64_t)r.leg_bps[i]);
	}
	for (i = 1; i < FCR_R_COUNT; i++)
		rte_tel_data_add_dict_u64(drops, fcr_reason_name(i), (uint64_t)r.drop_ps[i]);
	rte_tel_data_add_dict_container(d, "ports", ports, 0);
	rte_tel_data_add_dict_container(d, "legs", legs, 0);
	rte_tel_data_add_dict_container(d, "drops_per_s", drops, 0);
	return 0;
}

static int
tel_lcores(const char *cmd, const char *params, struct rte_tel_data *d)
{
	unsigned int w;

	(void)cmd;
	(void)params;
	rte_tel_data_start_dict(d);
	for (w = 0; w < fcr_fwd.nb_workers; w++) {
		const struct fcr_worker *wk = fcr_fwd.workers[w];
		struct rte_tel_data *c = rte_tel_data_alloc();
		char k[32];

		if (c == NULL)
			return -ENOMEM;
		rte_tel_data_start_dict(c);
		rte_tel_data_add_dict_int(c, "lcore", (int)wk->lcore);
		rte_tel_data_add_dict_u64(c, "frames", wk->st.frames);
		rte_tel_data_add_dict_u64(c, "busy_cycles", wk->st.busy_cycles);
		rte_tel_data_add_dict_u64(c, "polls", wk->st.polls);
		rte_tel_data_add_dict_u64(c, "busy_polls", wk->st.busy_polls);
		rte_tel_data_add_dict_u64(c, "busy_cycles_per_frame",
					  wk->st.frames ? wk->st.busy_cycles / wk->st.frames : 0);
		rte_tel_data_add_dict_u64(c, "flow_cache_lookups", wk->pipeline.cache.lookups);
		rte_tel_data_add_dict_u64(c, "flow_cache_hits", wk->pipeline.cache.hits);
		snprintf(k, sizeof(k), "worker%u", w);
		rte_tel_data_add_dict_container(d, k, c, 0);
	}
	return 0;
}

static void
tel_pool(struct rte_mempool *mp, void *arg)
{
	struct rte_tel_data *d = arg, *c = rte_tel_data_alloc();
	unsigned int avail = rte_mempool_avail_count(mp);
	char name[RTE_MEMPOOL_NAMESIZE];
	unsigned int i;

	if (c == NULL)
		return;
	/* a key is letters, digits and _ (DPDK 22.11's telemetry) */
	snprintf(name, sizeof(name), "%s", mp->name);
	for (i = 0; name[i] != '\0'; i++)
		if (!isalnum((unsigned char)name[i]))
			name[i] = '_';
	rte_tel_data_start_dict(c);
	rte_tel_data_add_dict_int(c, "socket", mp->socket_id);
	rte_tel_data_add_dict_u64(c, "size", mp->size);
	rte_tel_data_add_dict_u64(c, "in_use", mp->size - avail);
	rte_tel_data_add_dict_u64(c, "free", avail);
	rte_tel_data_add_dict_container(d, name, c, 0);
}

/* show mempool's figures: each pool by name */
static int
tel_mempool(const char *cmd, const char *params, struct rte_tel_data *d)
{
	(void)cmd;
	(void)params;
	rte_tel_data_start_dict(d);
	rte_mempool_walk(tel_pool, d);
	return 0;
}

static void
tel_fields(struct rte_tel_data *d, const struct fcr_field *f, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		if (f[i].flags & FCR_FIELD_TEXT)
			continue;
		if (f[i].flags & FCR_FIELD_NUM)
			rte_tel_data_add_dict_u64(d, f[i].name, f[i].num);
		else
			rte_tel_data_add_dict_string(d, f[i].name, f[i].value);
	}
}

/* /fcr/flows[,N]: the N (default 20, at most 100) busiest flows. */
static int
tel_flows(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct fcr_flow_row best[100];
	unsigned int n, want = 20, i;

	(void)cmd;
	if (params != NULL && *params != '\0') {
		want = (unsigned int)strtoul(params, NULL, 10);
		if (want == 0 || want > 100)
			return -EINVAL;
	}
	n = fcr_top_flows(-1, want, best, NULL);
	rte_tel_data_start_dict(d);
	for (i = 0; i < n; i++) {
		struct rte_tel_data *x = rte_tel_data_alloc();
		struct fcr_field f[FCR_FIELDS_MAX];
		char key[32];
		int config;

		if (x == NULL)
			return -ENOMEM;
		rte_tel_data_start_dict(x);
		tel_fields(x, f, fcr_kinds[FCR_KIND_FLOW]->fields(fcr_fwd.tables, best[i].idx, f,
								  &config));
		snprintf(key, sizeof(key), "flow%u", i);
		rte_tel_data_add_dict_container(d, key, x, 0);
	}
	return 0;
}

/* /fcr/<kind>s (routes, bindings, redirects): the counts, and up to 200
 * objects with the fields their list line shows. */
#define TEL_OBJECTS_MAX 200

/* A kind's name as telemetry spells it: '_' for '-' (a command's and a
 * key's characters are letters, digits, '_' and '/'). */
static void
tel_kind_word(const struct fcr_kind *k, char *buf, size_t len)
{
	size_t i;

	snprintf(buf, len, "%s", k->name);
	for (i = 0; buf[i] != '\0'; i++)
		if (buf[i] == '-')
			buf[i] = '_';
}

/* Its command: /fcr/<word>s. */
static void
tel_kind_path(const struct fcr_kind *k, char *buf, size_t len)
{
	char w[48];

	tel_kind_word(k, w, sizeof(w));
	snprintf(buf, len, "/fcr/%ss", w);
}

static int
tel_kind(const char *cmd, const char *params, struct rte_tel_data *d)
{
	const struct fcr_kind *k = NULL;
	struct fcr_tables *t = fcr_fwd.tables;
	struct fcr_field f[FCR_FIELDS_MAX];
	struct fcr_sync_meta m;
	unsigned int shown = 0;
	uint32_t i, slots;
	int j, n, config;

	(void)params;
	for (j = 0; j < FCR_KIND_COUNT; j++) {
		char name[64];

		tel_kind_path(fcr_kinds[j], name, sizeof(name));
		if (strcmp(cmd, name) == 0)
			k = fcr_kinds[j];
	}
	if (k == NULL)
		return -EINVAL;
	rte_tel_data_start_dict(d);
	n = k->counts(t, f);
	rte_tel_data_add_dict_u64(d, "count", f[0].num);
	tel_fields(d, f + 1, n - 1);
	slots = k->slots(t);
	for (i = 0; i < slots && shown < TEL_OBJECTS_MAX; i++) {
		struct rte_tel_data *x;
		char key[32];

		if (!k->slot(t, i, &m))
			continue;
		x = rte_tel_data_alloc();
		if (x == NULL)
			return -ENOMEM;
		rte_tel_data_start_dict(x);
		n = k->fields(t, i, f, &config);
		tel_fields(x, f, n);
		tel_kind_word(k, key, sizeof(key) - 10);
		snprintf(key + strlen(key), 10, "%u", shown++);
		rte_tel_data_add_dict_container(d, key, x, 0);
	}
	return 0;
}

/* The service node latency of each redirect that timed an exchange
 * (lib/forward/fcr_latency.h): per side its bins' counts and its sum; the
 * first TEL_LATENCY_MAX (about 600 bytes each in a 16 KB answer), or the
 * one whose id is the parameter. */
#define TEL_LATENCY_MAX 20

static int
tel_latency(const char *cmd, const char *params, struct rte_tel_data *d)
{
	const struct fcr_redirect_table *rt = fcr_fwd.tables->redirects;
	const struct fcr_binding *e = rt->bindings->entry;
	struct rte_tel_data *bounds;
	unsigned int shown = 0, b, s;
	uint32_t id, first = 0, last = rt->capacity;

	(void)cmd;
	if (params != NULL && *params != '\0') {
		char *end;
		unsigned long v = strtoul(params, &end, 10);

		if (*end != '\0' || v >= rt->capacity)
			return -EINVAL;
		first = (uint32_t)v;
		last = first + 1;
	}
	rte_tel_data_start_dict(d);
	bounds = rte_tel_data_alloc();
	if (bounds == NULL)
		return -ENOMEM;
	rte_tel_data_start_array(bounds, RTE_TEL_U64_VAL);
	for (b = 0; b + 1 < FCR_LAT_BINS; b++)
		rte_tel_data_add_array_u64(bounds, fcr_lat_bound_us(b));
	rte_tel_data_add_dict_container(d, "bounds_us", bounds, 0);
	for (id = first; id < last && shown < TEL_LATENCY_MAX; id++) {
		const struct fcr_redirect *r = &rt->r[id];
		const struct fcr_latency *l = &rt->lat[id];
		char key[48], w[FCR_WWPN_STRLEN];
		struct rte_tel_data *x;

		if (!r->in_use || fcr_latency_total(l, FCR_LAT_HOST) +
				  fcr_latency_total(l, FCR_LAT_VI) == 0)
			continue;
		x = rte_tel_data_alloc();
		if (x == NULL)
			return -ENOMEM;
		rte_tel_data_start_dict(x);
		rte_tel_data_add_dict_u64(x, "id", id);
		rte_tel_data_add_dict_u64(x, "vlan", r->vlan);
		rte_tel_data_add_dict_string(x, "host", fcr_wwpn_format(e[r->binding[FCR_M_HOST]].wwpn, w));
		rte_tel_data_add_dict_string(x, "target",
					     fcr_wwpn_format(e[r->binding[FCR_M_TARGET]].wwpn, w));
		for (s = 0; s < FCR_LAT_SIDES; s++) {
			const char *side = s == FCR_LAT_HOST ? "host" : "vi";

			for (b = 0; b < FCR_LAT_BINS; b++) {
				snprintf(key, sizeof(key), "%s_%u", side, b);
				rte_tel_data_add_dict_u64(x, key, __atomic_load_n(&l->count[s][b],
										__ATOMIC_RELAXED));
			}
			snprintf(key, sizeof(key), "%s_sum_us", side);
			rte_tel_data_add_dict_u64(x, key, __atomic_load_n(&l->sum_us[s],
									 __ATOMIC_RELAXED));
		}
		snprintf(key, sizeof(key), "redirect%u", shown++);
		rte_tel_data_add_dict_container(d, key, x, 0);
	}
	return 0;
}

static int
tel_sync(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct fcr_sync_counter c[FCR_SYNC_COUNTERS];
	unsigned int i, n;

	(void)cmd;
	(void)params;
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_int(d, "enabled", fcr_sync_io_enabled());
	if (!fcr_sync_io_enabled())
		return 0;
	rte_tel_data_add_dict_string(d, "state", fcr_sync_io_ready() ? "ready" : "not_ready");
	/* the same counters as `show sync stats`, by the same names */
	n = fcr_sync_io_counters(c);
	for (i = 0; i < n; i++)
		rte_tel_data_add_dict_u64(d, c[i].name, c[i].value);
	return 0;
}

/* show config store's figures, by the same names (blanks as _). */
static int
tel_store(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct fcr_store_status s;

	(void)cmd;
	(void)params;
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_int(d, "enabled", fcr_store_enabled());
	if (!fcr_store_enabled())
		return 0;
	fcr_store_get_status(&s);
	rte_tel_data_add_dict_int(d, "connected", s.connected);
	rte_tel_data_add_dict_int(d, "current", s.current);
	rte_tel_data_add_dict_u64(d, "not_current_for_ms", s.not_current_for_ms);
	rte_tel_data_add_dict_u64(d, "confirmed_revision", (uint64_t)s.confirmed_revision);
	rte_tel_data_add_dict_u64(d, "stalls", s.stalls);
	rte_tel_data_add_dict_u64(d, "nodes", s.nodes);
	rte_tel_data_add_dict_u64(d, "nodes_behind", s.nodes_behind);
	rte_tel_data_add_dict_string(d, "endpoint", s.endpoint);
	rte_tel_data_add_dict_u64(d, "member_id", s.member_id);
	rte_tel_data_add_dict_u64(d, "applied_revision", (uint64_t)s.applied_revision);
	rte_tel_data_add_dict_u64(d, "applied_at_ms", s.applied_at_ms);
	rte_tel_data_add_dict_u64(d, "store_revision", (uint64_t)s.store_revision);
	rte_tel_data_add_dict_u64(d, "lag", (uint64_t)(s.store_revision - s.applied_revision));
	rte_tel_data_add_dict_u64(d, "objects", s.objects);
	rte_tel_data_add_dict_u64(d, "refused", s.refused);
	rte_tel_data_add_dict_u64(d, "refused_redirects", s.refused_redirects);
	rte_tel_data_add_dict_int(d, "forwarding", s.refused_redirects == 0);
	rte_tel_data_add_dict_u64(d, "writes", s.writes);
	rte_tel_data_add_dict_u64(d, "conflicts", s.conflicts);
	rte_tel_data_add_dict_u64(d, "full_reads", s.full_reads);
	rte_tel_data_add_dict_u64(d, "reconnects", s.reconnects);
	rte_tel_data_add_dict_string(d, "last_error", s.last_error);
	rte_tel_data_add_dict_u64(d, "last_error_age_s", s.last_error_age_s);
	return 0;
}

int
fcr_telemetry_register(void)
{
	int rc = 0, k;

	rc |= rte_telemetry_register_cmd("/fcr/rates", tel_rates,
		"Frames/s and bits/s by port and leg, drops/s by reason, over the next MS ms. Parameters: int MS (default 1000, 100 to 10000)");
	rc |= rte_telemetry_register_cmd("/fcr/stats", tel_stats,
		"Frames received, sent and dropped; by kind, by reason, by port");
	rc |= rte_telemetry_register_cmd("/fcr/flows", tel_flows,
		"The busiest flows. Parameters: int number of flows (default 20, at most 100)");
	for (k = 0; k < FCR_KIND_COUNT; k++) {
		char cmd[64], help[96];

		if (fcr_kinds[k]->cmds == NULL)
			continue; /* flows: /fcr/flows, the busiest */
		tel_kind_path(fcr_kinds[k], cmd, sizeof(cmd));
		snprintf(help, sizeof(help), "The %ss, as `%s list` shows them (at most %d)",
			 fcr_kinds[k]->name, fcr_kinds[k]->name, TEL_OBJECTS_MAX);
		rc |= rte_telemetry_register_cmd(cmd, tel_kind, help);
	}
	rc |= rte_telemetry_register_cmd("/fcr/lcores", tel_lcores,
		"Worker lcores: frames, busy cycles, polls");
	rc |= rte_telemetry_register_cmd("/fcr/mempool", tel_mempool,
		"Mbuf pools: size, in use, free");
	rc |= rte_telemetry_register_cmd("/fcr/store", tel_store,
		"The configuration store: connected, current, member, applied and store revision, lag, refusals, last error");
	rc |= rte_telemetry_register_cmd("/fcr/latency", tel_latency,
		"Service node latency, per redirect (20) and side: exchanges by bin of bounds_us, sum of us. Parameters: int redirect id");
	rc |= rte_telemetry_register_cmd("/fcr/sync", tel_sync,
		"Replication: ready or not, changes, updates, datagrams, drops");
	return rc;
}
