/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pipeline-bench: what the worker's forwarding decision costs per frame,
 * in process and without a PMD: fcr_pipeline_burst (parse, bulk flow
 * lookup, ID rewrite with the incremental CRC update, bulk route, MACs) over
 * bursts of 32 mbufs, as app/worker.c calls it.
 *
 * Set-up, per flow count (1,000 and 1,000,000 flow entries):
 *   - tables from fcr_tables_create sized for the flows, two workers'
 *     counter arrays;
 *   - a /8 route for every FCID domain in use (next-hop MAC or FPMA, four
 *     ports), for every VLAN; with --routes vlan, in the frames' VLAN (its
 *     slot of the route table: one lookup); with --routes fallback, for
 *     every VLAN while the frames' VLAN has a route of its own that none of
 *     them matches (each frame looked up in the VLAN's slot, then again);
 *   - half the entries are redirect rules: flows/8 redirects, each with its
 *     four ports bound (fcr_tables_binding_add) and added through
 *     fcr_redirect_add, so each installs four rules that rewrite D_ID or
 *     S_ID; the other half are plain entries, created the way the tables lcore
 *     creates them from a worker's first-frame event (fcr_tables_event).
 * Frames: tagged FCoE (VLAN 100), FCP data, each of a flow drawn uniformly
 * at random from all the entries; 68 bytes (payload 4: 14 + 4 + 14 + 24 + 4
 * + 8) and 2112 bytes (payload 2048). Each worker owns its mbufs, in a
 * mempool of its own; a pass runs them all through in bursts of 32.
 *
 * How many frames: a worker has about its RX rings' worth of frames in
 * flight (the app's default ring is 1024 descriptors), so each worker
 * cycles through 2048 mbufs (--frames). This machine's caches are small in
 * practice (a random-access test sees DRAM latency, ~500 TSC ticks, beyond
 * 2-4 MB: the last-level cache is shared with other tenants), so many more
 * frames than that would measure this machine's DRAM, not the pipeline.
 *
 * Between passes, outside the timed region, each frame gets its original
 * bytes back: the rewrite changes the MACs (bytes 0-11), the mark, D_ID and
 * S_ID (in the first 64 bytes) and the CRC (in the last 8), so the first 64
 * and the last 8 bytes are copied back (checked: the whole frame is then
 * identical to the original); and the mbuf fields a PMD's receive function writes
 * (lengths, offload flags) are written, so a frame's lines sit in the cache
 * roughly as a just-received burst's do. Frame sizes are compared fairly:
 * each frame has the same three lines touched (mbuf header, first data
 * line, trailer line) whatever its size. With --cold they are flushed from
 * the caches as well, as a NIC writing to memory without DDIO leaves them.
 *
 * References measured in the same run (docs/benchmarks.md, "How the figures
 * are measured": every figure a ratio):
 *   macswap   testpmd's macswap engine per frame (swap the MACs, choose a
 *             port): the least a forwarder that reads and writes each
 *             frame's header does.
 *   harness   the loop alone (a burst pointer and rte_rdtsc per burst).
 *
 * Two workers: worker 1 runs on lcore 1 (rte_eal_remote_launch) with its
 * own fcr_pipeline (worker id 1) and mbufs; both start each pass together
 * (a barrier); the aggregate is both workers' frames over the wall time
 * from the common start to the later finish. Each pass is preceded by a
 * short idle gap (--gap-us, not timed), for both one and two workers: this
 * VM's host throttles its second vCPU when both stay busy for more than a
 * few milliseconds (the "machine:" line measures it each run with a plain
 * compute loop), which would otherwise be measured instead of the code.
 *
 * The breakdown: fcr_pipeline_burst's own stages (fcr_pipeline_stages.h,
 * inlined here as in the burst) run up to a cut (parse; with --edge, + the
 * VN_Port check; + bulk flow lookup; + action load and per-flow counters;
 * + ID rewrite and CRC update; + bulk route, its checks and MACs), so the
 * difference between consecutive columns is what that stage costs. The
 * last cut is the whole burst: it should match fcr_pipeline_burst. The
 * parse column includes the first touch of each frame's lines.
 *
 * Correctness before timing: after the first pass of every configuration
 * (one worker, two workers, and the stages run up to the last cut), every
 * frame is compared byte for byte with the frame expected from an
 * independent model (new IDs from the redirect's members as docs/fcoe.md's table
 * says, egress port and MACs from the route, the CRC recomputed in full
 * over the expected frame) and parsed with its CRC verified
 * (fcr_frame_verify_crc); the per-leg counters must add up, nothing may be
 * dropped or miss its flow entry. After the timed runs, once more with two
 * workers.
 *
 * Exit status: 0 when all results are correct, whatever the timings; 1 on a
 * wrong result; 2 on a usage or set-up error.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ether.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <rte_prefetch.h>
#ifdef RTE_ARCH_X86
#include <x86intrin.h>
#endif

#include "bench_util.h"
#include "fcr_build.h"
#include "fcr_crc.h"
#include "fcr_frame.h"
#include "fcr_pipeline.h"
#include "fcr_pipeline_stages.h"
#include "fcr_tables.h"

#define NB_PORTS 4
#define BURST 32               /* the worker's default */
#define VLAN 100
#define FC_MAP FCR_FC_MAP_DEFAULT
#define DATA_ROOM (2304 + 128) /* as app/ports.h */
#define MAX_PASSES 64
#define NWORKERS 2

static const uint32_t flow_counts[] = { 1000, 1000000 };
#define NFLOWS RTE_DIM(flow_counts)
static const uint16_t payloads[] = { 4, 2048 };
#define NSIZES RTE_DIM(payloads)

/* ------------------------------------------------------------------ */
/* the world: tables, flows and the model of what each flow's frames become */

enum role { R_HOST, R_TARGET, R_VI, R_VT, NROLES };
static const uint8_t role_domain[NROLES] = { 0x10, 0x20, 0x30, 0x38 };
#define PLAIN_S_DOMAIN 0x40
#define PLAIN_D_DOMAIN 0x50

struct flow_spec {
	uint32_t s, d;   /* as the frame arrives */
	uint32_t ns, nd; /* as it must leave */
	uint8_t leg;
};

struct route_spec {
	uint8_t domain;
	uint16_t port;
	uint8_t fpma;
	uint8_t mac[6];
};

static struct route_spec routes[16];
static unsigned int nb_routes;
static uint8_t port_mac[NB_PORTS][6];
static uint16_t passthrough[NB_PORTS] = { 1, 0, 3, 2 };

struct world {
	uint32_t nflows;
	struct fcr_tables *t;
	struct flow_spec *flows;
};

static uint32_t
fcid_of(enum role r, uint32_t i)
{
	return (uint32_t)(role_domain[r] + (i >> 16)) << 16 | (i & 0xFFFF);
}

static uint64_t
wwpn_of(enum role r, uint32_t i)
{
	return (uint64_t)(0x21 + r) << 56 | 0x0000240000000000ull | i;
}

static const struct route_spec *
route_of(uint32_t d_id)
{
	unsigned int i;

	for (i = 0; i < nb_routes; i++)
		if (routes[i].domain == d_id >> 16)
			return &routes[i];
	return NULL;
}

static void
add_route_spec(uint8_t domain)
{
	struct route_spec *r = &routes[nb_routes];

	r->domain = domain;
	r->port = (uint16_t)(nb_routes % NB_PORTS);
	r->fpma = nb_routes & 1;
	r->mac[0] = 0x02;
	r->mac[1] = 0xAA;
	r->mac[5] = domain;
	nb_routes++;
}

static void
route_model_init(void)
{
	unsigned int p, d;

	for (p = 0; p < NB_PORTS; p++) {
		memset(port_mac[p], 0, 6);
		port_mac[p][0] = 0x02;
		port_mac[p][5] = (uint8_t)p;
	}
	for (d = 0; d < 2; d++) {
		add_route_spec((uint8_t)(role_domain[R_HOST] + d));
		add_route_spec((uint8_t)(role_domain[R_TARGET] + d));
		add_route_spec((uint8_t)(role_domain[R_VI] + d));
		add_route_spec((uint8_t)(role_domain[R_VT] + d));
	}
	add_route_spec(PLAIN_S_DOMAIN);
	add_route_spec(PLAIN_D_DOMAIN);
}

/* --edge: frames arrive on an edge port of the trust model (port 1 faces the
 * fabric): each burst's S_IDs are checked against the VN_Port table */
static int edge;

/* --routes: where the routes are (lib/forward/fcr_route.h) */
enum routes_in { ROUTES_ANY, ROUTES_VLAN, ROUTES_FALLBACK };
static const char *const routes_names[] = { "any", "vlan", "fallback" };
static enum routes_in routes_in;

static int
world_create(struct world *w, uint32_t nflows, int sock)
{
	uint32_t nredir = nflows / 8, nplain = nflows - nredir * 4, i, side;
	struct fcr_tables_params tp = {
		/* the redirects' reserve (lib/forward/fcr_redirect.h) and the plain */
		.max_flows = fcr_redirect_reserve(RTE_MAX(nredir, 16u)) + nplain,
		.max_routes = 4096,
		.max_bindings = RTE_MAX(nredir * 4 + 2048, 64u),
		.max_redirects = RTE_MAX(nredir, 16u),
		.nb_workers = NWORKERS,
		.qsbr = NULL,
		.socket = sock,
	};
	char name[32];
	unsigned int r;
	int rc;

	memset(w, 0, sizeof(*w));
	w->nflows = nflows;
	snprintf(name, sizeof(name), "pb%u", nflows);
	w->t = fcr_tables_create(name, &tp);
	w->flows = malloc(sizeof(*w->flows) * nflows);
	if (w->t == NULL || w->flows == NULL) {
		fprintf(stderr, "cannot create tables for %u flows: %s\n", nflows,
			rte_strerror(rte_errno));
		return -2;
	}
	/* a domain no frame is sent to */
	if (routes_in == ROUTES_FALLBACK &&
	    fcr_route_add(w->t->routes, VLAN, 0xEE0000, 8, 0, NULL) < 0) {
		fprintf(stderr, "FAIL: route add in VLAN %u\n", VLAN);
		return -1;
	}
	for (r = 0; r < nb_routes; r++) {
		rc = fcr_route_add(w->t->routes, routes_in == ROUTES_VLAN ? VLAN : FCR_VLAN_ANY,
				   (uint32_t)routes[r].domain << 16, 8, routes[r].port,
				   routes[r].fpma ? NULL : routes[r].mac);
		if (rc < 0) {
			fprintf(stderr, "FAIL: route add: %d\n", rc);
			return -1;
		}
	}
	for (i = 0; i < nredir; i++) {
		uint32_t f[NROLES];
		struct flow_spec *fs = &w->flows[i * 4];

		for (r = 0; r < NROLES; r++) {
			f[r] = fcid_of((enum role)r, i);
			rc = fcr_tables_binding_add(w->t, VLAN, wwpn_of((enum role)r, i),
						    f[r], FCR_BIND_STATIC);
			if (rc < 0) {
				fprintf(stderr, "FAIL: binding %u: %d\n", i, rc);
				return -1;
			}
		}
		rc = fcr_redirect_add(w->t->redirects, VLAN, wwpn_of(R_HOST, i),
				      wwpn_of(R_TARGET, i), wwpn_of(R_VI, i),
				      wwpn_of(R_VT, i));
		if (rc < 0 || w->t->redirects->r[rc].state != FCR_RS_ACTIVE) {
			fprintf(stderr, "FAIL: redirect %u not active: %d\n", i, rc);
			return -1;
		}
		/* docs/fcoe.md, "FC-Redirect: the four rules", independently of lib/forward/fcr_redirect.c */
		fs[0] = (struct flow_spec){ f[R_HOST], f[R_TARGET], f[R_HOST],
					    f[R_VT], FCR_LEG_HOST_TO_TARGET };
		fs[1] = (struct flow_spec){ f[R_VI], f[R_TARGET], f[R_HOST],
					    f[R_TARGET], FCR_LEG_VI_TO_TARGET };
		fs[2] = (struct flow_spec){ f[R_TARGET], f[R_HOST], f[R_TARGET],
					    f[R_VI], FCR_LEG_TARGET_TO_HOST };
		fs[3] = (struct flow_spec){ f[R_VT], f[R_HOST], f[R_TARGET],
					    f[R_HOST], FCR_LEG_VT_TO_HOST };
	}
	/* plain entries: initiator x target pairs in two more domains */
	side = 1;
	while (side * side < nplain)
		side++;
	for (i = 0; i < nplain; i++) {
		struct flow_spec *fs = &w->flows[nredir * 4 + i];
		struct fcr_event ev;
		uint32_t s = (uint32_t)PLAIN_S_DOMAIN << 16 | (i % side);
		uint32_t d = (uint32_t)PLAIN_D_DOMAIN << 16 | (i / side);

		fcr_event_flow(&ev, fcr_flow_key(VLAN, s, d));
		fcr_tables_event(w->t, &ev);
		*fs = (struct flow_spec){ s, d, s, d, FCR_LEG_PLAIN };
		/* --edge: the initiators are VN_Ports the check lets through */
		if (edge && i < side &&
		    fcr_tables_binding_add(w->t, VLAN, 0x2200000000000000ull | i, s,
					   FCR_BIND_STATIC) < 0) {
			fprintf(stderr, "FAIL: binding of initiator %u\n", i);
			return -1;
		}
	}
	/* and each redirect's two hidden pairs */
	if (w->t->flows->count != nflows + nredir * (FCR_REDIRECT_KEYS - 4) ||
	    w->t->redirects->nb_active != nredir ||
	    w->t->st.flows_added != nplain) {
		fprintf(stderr, "FAIL: %u flows wanted, table holds %u (%u "
			"redirects active of %u)\n", nflows, w->t->flows->count,
			w->t->redirects->nb_active, nredir);
		return -1;
	}
	return 0;
}

static void
world_free(struct world *w)
{
	fcr_tables_free(w->t);
	free(w->flows);
	memset(w, 0, sizeof(*w));
}

/* ------------------------------------------------------------------ */
/* workers and their frames */

enum job {
	J_HARNESS, J_MACSWAP, J_PIPELINE,
	J_S_PARSE, J_S_EDGE, J_S_LOOKUP, J_S_ACTION, J_S_REWRITE, J_S_ROUTE,
	NJOBS
};
static const char *const job_names[NJOBS] = {
	"harness", "macswap", "pipeline", "parse", "+edge", "+lookup",
	"+action", "+rewrite", "+route",
};

struct wctx {
	unsigned int id;
	struct rte_mempool *mp;
	uint32_t nframes;
	/* the frames of the size being measured: one of the sets below */
	struct rte_mbuf **m;
	uint32_t *flow_of;       /* [nframes] */
	uint8_t *orig;           /* [nframes][FCR_FCOE_MAX_FRAME] */
	uint32_t frame_len;
	/* a set of mbufs per frame size, so the sizes alternate run by run */
	struct rte_mbuf **set_m[NSIZES];
	uint32_t *set_flow_of[NSIZES];
	uint8_t *set_orig[NSIZES];
	uint32_t set_len[NSIZES];
	uint16_t *out;           /* [nframes] */
	struct fcr_pipeline pl;
	struct fcr_pipeline_stats st;
	struct fcr_event ev[FCR_PIPELINE_EVENTS_MAX];
	uint64_t nev;
	uint64_t acc;
	uint64_t t0[MAX_PASSES], t1[MAX_PASSES];
	struct bench_rng rng;
	/* the job the lcore runs */
	const struct world *world;
	enum job job;
	unsigned int passes;
	int cold;
};

static struct wctx workers[NWORKERS];
static struct bench_barrier barrier;
static unsigned int active_workers;
static unsigned int gap_us = 500;
static int verbose;
static double last_own[NWORKERS]; /* each worker's own cycles per frame */
static volatile uint64_t sink;

static int
wctx_init(struct wctx *w, unsigned int id, uint32_t nframes, int sock)
{
	char name[32];
	unsigned int sz;

	memset(w, 0, sizeof(*w));
	w->id = id;
	w->nframes = nframes;
	w->rng.s = 0x1234567887654321ull * (id + 1);
	snprintf(name, sizeof(name), "pb_mp%u", id);
	w->mp = rte_pktmbuf_pool_create(name, NSIZES * nframes + 64, 0, 0,
					DATA_ROOM, sock);
	w->out = calloc(nframes, sizeof(*w->out));
	if (w->mp == NULL || w->out == NULL)
		goto nomem;
	for (sz = 0; sz < NSIZES; sz++) {
		w->set_m[sz] = calloc(nframes, sizeof(*w->m));
		w->set_flow_of[sz] = calloc(nframes, sizeof(*w->flow_of));
		w->set_orig[sz] = malloc((size_t)nframes * FCR_FCOE_MAX_FRAME);
		if (!w->set_m[sz] || !w->set_flow_of[sz] || !w->set_orig[sz] ||
		    rte_pktmbuf_alloc_bulk(w->mp, w->set_m[sz], nframes) != 0)
			goto nomem;
	}
	return 0;
nomem:
	fprintf(stderr, "cannot allocate %u mbufs for worker %u: %s\n",
		nframes, id, rte_strerror(rte_errno));
	return -1;
}

/* Make the frames of one size the ones every worker runs. */
static void
select_size(unsigned int sz)
{
	unsigned int i;

	for (i = 0; i < NWORKERS; i++) {
		struct wctx *w = &workers[i];

		w->m = w->set_m[sz];
		w->flow_of = w->set_flow_of[sz];
		w->orig = w->set_orig[sz];
		w->frame_len = w->set_len[sz];
	}
}

/* Build every frame of a worker's set `sz` for a world. */
static int
build_frames(struct wctx *w, const struct world *wd, unsigned int sz)
{
	uint16_t payload = payloads[sz];
	uint8_t pl[FCR_FC_MAX_PAYLOAD];
	uint32_t i, j;

	for (j = 0; j < sizeof(pl); j++)
		pl[j] = (uint8_t)bench_rand(&w->rng);
	for (i = 0; i < w->nframes; i++) {
		const struct flow_spec *fs;
		struct fcr_l2_spec l2 = { .tagged = 1, .pcp = 3, .vlan = VLAN };
		struct fcr_fc_spec fc = {
			.r_ctl = FCR_RCTL_FCP_DATA, .type = FCR_TYPE_FCP,
			.f_ctl = 0x080000, .payload = pl, .payload_len = payload,
		};
		struct rte_mbuf *m = w->set_m[sz][i];
		uint8_t *o = w->set_orig[sz] + (size_t)i * FCR_FCOE_MAX_FRAME;
		size_t len;

		w->set_flow_of[sz][i] = bench_rand_below(&w->rng, wd->nflows);
		fs = &wd->flows[w->set_flow_of[sz][i]];
		memcpy(l2.dst, port_mac[0], 6);
		fcr_fpma(l2.src, FC_MAP, fs->s);
		fc.s_id = fs->s;
		fc.d_id = fs->d;
		fc.ox_id = (uint16_t)bench_rand(&w->rng);
		fc.rx_id = 0xFFFF;
		fc.seq_id = (uint8_t)i;
		fc.param = i * payload;
		len = fcr_build_fcoe(o, FCR_FCOE_MAX_FRAME, &l2, &fc);
		if (len == 0 || len + RTE_PKTMBUF_HEADROOM > DATA_ROOM)
			return -1;
		w->set_len[sz] = (uint32_t)len;
		rte_pktmbuf_reset(m);
		memcpy(rte_pktmbuf_mtod(m, uint8_t *), o, len);
		m->data_len = (uint16_t)len;
		m->pkt_len = (uint32_t)len;
	}
	return 0;
}

/* Put back the bytes a pass may have changed: the first 64 bytes (MACs,
 * the mark, D_ID, S_ID) and the last 8 (CRC); and write the mbuf fields a
 * PMD's receive function writes. Not timed. */
static void
restore_frames(struct wctx *w, int cold)
{
	uint32_t len = w->frame_len, i;
	uint32_t head = RTE_MIN(len, 64u);

	for (i = 0; i < w->nframes; i++) {
		struct rte_mbuf *m = w->m[i];
		uint8_t *d = rte_pktmbuf_mtod(m, uint8_t *);
		const uint8_t *o = w->orig + (size_t)i * FCR_FCOE_MAX_FRAME;

		memcpy(d, o, head);
		memcpy(d + len - 8, o + len - 8, 8);
		m->data_len = (uint16_t)len;
		m->pkt_len = len;
		m->ol_flags = 0;
		m->vlan_tci = 0;
		m->packet_type = 0;
		m->port = 0;
#ifdef RTE_ARCH_X86
		if (cold) {
			_mm_clflush(w->m[i]);
			_mm_clflush((uint8_t *)w->m[i] + 64);
			_mm_clflush(d);
			_mm_clflush(d + len - 8);
		}
#endif
	}
#ifdef RTE_ARCH_X86
	if (cold)
		_mm_mfence();
#endif
}

/* Frames identical to the originals again: the restore is complete. */
static int
check_restored(const struct wctx *w)
{
	uint32_t i;

	for (i = 0; i < w->nframes; i++)
		if (memcmp(rte_pktmbuf_mtod(w->m[i], const uint8_t *),
			   w->orig + (size_t)i * FCR_FCOE_MAX_FRAME,
			   w->frame_len) != 0) {
			fprintf(stderr, "FAIL: worker %u frame %u not restored\n",
				w->id, i);
			return -1;
		}
	return 0;
}

/*
 * After one pass of the pipeline (or its stages up to the last cut): every
 * frame against the model, byte for byte; the CRC verified by the parser's
 * path too; the counters.
 */
static int
verify_pass(const struct wctx *w, const struct world *wd, int check_stats,
	    const char *what)
{
	uint64_t legs[FCR_LEG_COUNT] = { 0 };
	uint8_t exp[FCR_FCOE_MAX_FRAME];
	uint32_t i, errors = 0, len = w->frame_len;
	unsigned int r;

	for (i = 0; i < w->nframes; i++) {
		const struct flow_spec *fs = &wd->flows[w->flow_of[i]];
		const struct route_spec *rs = route_of(fs->nd);
		const uint8_t *got = rte_pktmbuf_mtod(w->m[i], const uint8_t *);
		const uint8_t *o = w->orig + (size_t)i * FCR_FCOE_MAX_FRAME;
		struct fcr_frame f;
		uint32_t fc_off = FCR_ETH_HLEN + FCR_VLAN_HLEN + FCR_FCOE_HLEN;

		legs[fs->leg]++;
		memcpy(exp, o, len);
		if (edge && rs->port == 1) {
			/* to the fabric: the FCF's MAC as addressed, from the
			 * S_ID's VN_Port MAC (docs/trust.md) */
			if (fs->ns != fs->s)
				fcr_fpma(exp + 6, FC_MAP, fs->ns);
		} else {
			if (rs->fpma)
				fcr_fpma(exp, FC_MAP, fs->nd);
			else
				memcpy(exp, rs->mac, 6);
			/* lab: the port's own MAC; edge to edge: the FCF's, as
			 * the ENode addressed it */
			memcpy(exp + 6, edge ? o : port_mac[rs->port], 6);
		}
		fcr_put_be24(exp + fc_off + FCR_FC_D_ID, fs->nd);
		fcr_put_be24(exp + fc_off + FCR_FC_S_ID, fs->ns);
		/* a rewritten frame carries the mark (docs/fcoe.md) */
		if (fs->ns != fs->s || fs->nd != fs->d)
			exp[fc_off - FCR_FCOE_HLEN + FCR_FCOE_MARK_OFF] |= FCR_FCOE_MARK;
		fcr_crc_store(exp + len - 8, fcr_crc_calc(exp + fc_off,
							  len - 8 - fc_off));
		if (w->out[i] != rs->port || memcmp(got, exp, len) != 0 ||
		    fcr_frame_parse(got, len, &f) != FCR_R_OK ||
		    fcr_frame_verify_crc(got, &f) != FCR_R_OK ||
		    f.s_id != fs->ns || f.d_id != fs->nd || f.vlan != VLAN) {
			if (errors++ < 5)
				fprintf(stderr, "FAIL: %s: worker %u frame %u "
					"(flow %06x->%06x leg %u): port %u "
					"(expected %u), frame %s the model\n",
					what, w->id, i, fs->s, fs->d, fs->leg,
					w->out[i], rs->port,
					memcmp(got, exp, len) ? "differs from" :
					"matches");
		}
	}
	if (check_stats) {
		for (r = 0; r < FCR_R_COUNT; r++)
			errors += w->st.drop[r] != 0;
		for (r = 0; r < FCR_LEG_COUNT; r++)
			errors += w->st.leg[r] != legs[r];
		errors += w->st.flow_miss != 0 || w->nev != 0 || w->st.series != 0;
		if (errors)
			fprintf(stderr, "FAIL: %s: worker %u: frames or counters "
				"wrong (flow_miss %" PRIu64 ", events %" PRIu64
				", plain %" PRIu64 " of %" PRIu64 ")\n", what,
				w->id, w->st.flow_miss, w->nev,
				w->st.leg[FCR_LEG_PLAIN], legs[FCR_LEG_PLAIN]);
	}
	return errors ? -1 : 0;
}

/* ------------------------------------------------------------------ */
/* the pipeline's own stages, cut after one */

/* fcr_pipeline_burst's stages, as it calls them, up to `stage`; what a cut
 * leaves unread is summed and returned so the compiler keeps its work. */
static inline __attribute__((always_inline)) uint64_t
staged_burst(struct wctx *w, struct rte_mbuf **pkts, uint16_t n,
	     uint16_t *out, const enum job stage, uint64_t now)
{
	struct fcr_pipeline *p = &w->pl;
	struct fcr_pipeline_frames fr;
	unsigned int i, k, nev = 0;
	uint64_t acc = 0;

	k = fcr_pipeline_parse(p, 0, pkts, n, out, &w->st, w->ev, &nev, now, &fr);
	if (stage == J_S_PARSE || k == 0) {
		for (i = 0; i < k; i++)
			acc += fr.key[i];
		return acc;
	}
	/* without --edge only a reset of the hold flags: in +lookup */
	k = fcr_pipeline_trust(p, 0, pkts, k, out, &w->st, w->ev, &nev, now, &fr);
	if (stage == J_S_EDGE || k == 0) {
		for (i = 0; i < k; i++)
			acc += fr.key[i] + fr.hold[i];
		return acc;
	}
	fcr_pipeline_lookup(p, k, &fr);
	if (stage == J_S_LOOKUP) {
		for (i = 0; i < k; i++)
			acc += fr.idx[i];
		return acc;
	}
	nev = fcr_pipeline_act(p, pkts, k, w->ev, nev, now, &fr,
			       stage != J_S_ACTION);
	if (stage == J_S_ACTION || stage == J_S_REWRITE) {
		for (i = 0; i < k; i++)
			acc += fr.did[i] + fr.leg[i];
		return acc;
	}
	fcr_pipeline_route(p, 0, pkts, k, out, &w->st, w->ev, nev, &fr);
	w->nev += nev;
	return acc;
}

/* testpmd's macswap engine, per frame */
static inline void
macswap_burst(struct rte_mbuf **pkts, uint16_t n, uint16_t *out)
{
	unsigned int i;

	for (i = 0; i < n && i < 4; i++)
		rte_prefetch0(rte_pktmbuf_mtod(pkts[i], void *));
	for (i = 0; i < n; i++) {
		struct rte_ether_hdr *eth;
		struct rte_ether_addr tmp;

		if (i + 4 < n)
			rte_prefetch0(rte_pktmbuf_mtod(pkts[i + 4], void *));
		eth = rte_pktmbuf_mtod(pkts[i], struct rte_ether_hdr *);
		rte_ether_addr_copy(&eth->dst_addr, &tmp);
		rte_ether_addr_copy(&eth->src_addr, &eth->dst_addr);
		rte_ether_addr_copy(&tmp, &eth->src_addr);
		out[i] = 1;
	}
}

/* One pass over all of a worker's frames. */
static void
process(struct wctx *w, enum job job)
{
	uint32_t b;

	for (b = 0; b + BURST <= w->nframes; b += BURST) {
		struct rte_mbuf **pk = &w->m[b];
		uint16_t *out = &w->out[b];
		uint64_t now = rte_rdtsc();

		switch (job) {
		case J_HARNESS:
			w->acc += (uintptr_t)pk[0] + now;
			break;
		case J_MACSWAP:
			macswap_burst(pk, BURST, out);
			break;
		case J_PIPELINE:
			w->nev += fcr_pipeline_burst(&w->pl, 0, pk, BURST, out,
						     &w->st, w->ev, now);
			break;
		case J_S_PARSE:
			w->acc += staged_burst(w, pk, BURST, out, J_S_PARSE, now);
			break;
		case J_S_EDGE:
			w->acc += staged_burst(w, pk, BURST, out, J_S_EDGE, now);
			break;
		case J_S_LOOKUP:
			w->acc += staged_burst(w, pk, BURST, out, J_S_LOOKUP, now);
			break;
		case J_S_ACTION:
			w->acc += staged_burst(w, pk, BURST, out, J_S_ACTION, now);
			break;
		case J_S_REWRITE:
			w->acc += staged_burst(w, pk, BURST, out, J_S_REWRITE, now);
			break;
		case J_S_ROUTE:
			w->acc += staged_burst(w, pk, BURST, out, J_S_ROUTE, now);
			break;
		default:
			break;
		}
	}
}

/* What each lcore runs: passes of restore (not timed), a common start,
 * one timed pass, a common end. */
static int
run_passes(void *arg)
{
	struct wctx *w = arg;
	unsigned int p;

	for (p = 0; p < w->passes; p++) {
		if (gap_us)
			rte_delay_us_sleep(gap_us);
		restore_frames(w, w->cold);
		if (active_workers > 1)
			bench_barrier_wait(&barrier);
		w->t0[p] = rte_rdtsc_precise();
		process(w, w->job);
		w->t1[p] = rte_rdtsc_precise();
		if (active_workers > 1)
			bench_barrier_wait(&barrier);
	}
	sink = w->acc;
	return 0;
}

/*
 * Run `passes` passes of a job on `nw` workers at once. Returns TSC cycles
 * per frame: for one worker its own time, for two the wall time from the
 * common start to the later finish over both workers' frames.
 */
static double
run_job(const struct world *wd, enum job job, unsigned int nw,
	unsigned int passes, int cold)
{
	uint64_t ticks = 0, frames = 0;
	unsigned int i, p;

	active_workers = nw;
	barrier.n = nw;
	for (i = 0; i < nw; i++) {
		workers[i].world = wd;
		workers[i].job = job;
		workers[i].passes = passes;
		workers[i].cold = cold;
	}
	if (nw > 1 && rte_eal_remote_launch(run_passes, &workers[1], 1) != 0) {
		fprintf(stderr, "cannot launch worker 1 on lcore 1\n");
		exit(2);
	}
	run_passes(&workers[0]);
	if (nw > 1)
		rte_eal_wait_lcore(1);
	for (p = 0; p < passes; p++) {
		uint64_t t0 = workers[0].t0[p], t1 = workers[0].t1[p];

		for (i = 1; i < nw; i++) {
			t0 = RTE_MIN(t0, workers[i].t0[p]);
			t1 = RTE_MAX(t1, workers[i].t1[p]);
		}
		ticks += t1 - t0;
	}
	for (i = 0; i < nw; i++)
		frames += (uint64_t)passes * (workers[i].nframes -
					      workers[i].nframes % BURST);
	for (i = 0; i < nw; i++) {
		uint64_t own = 0;

		for (p = 0; p < passes; p++)
			own += workers[i].t1[p] - workers[i].t0[p];
		last_own[i] = (double)own / passes /
			      (workers[i].nframes - workers[i].nframes % BURST);
	}
	if (verbose && passes > 1) {
		printf("job %s x%u:", job_names[job], nw);
		for (i = 0; i < nw; i++)
			printf(" w%u %.1f", i, last_own[i]);
		printf(" -> %.1f\n", (double)ticks / (double)frames);
	}
	return (double)ticks / (double)frames;
}

static void
reset_stats(unsigned int nw)
{
	unsigned int i;

	for (i = 0; i < nw; i++) {
		memset(&workers[i].st, 0, sizeof(workers[i].st));
		workers[i].nev = 0;
		fcr_pipeline_forget(&workers[i].pl, NULL, 0);
	}
}

/* One untimed pass of a job that rewrites, then every frame checked. */
static int
verified_pass(const struct world *wd, enum job job, unsigned int nw,
	      const char *what)
{
	unsigned int i;
	int rc = 0;

	reset_stats(nw);
	run_job(wd, job, nw, 1, 0);
	for (i = 0; i < nw; i++)
		if (verify_pass(&workers[i], wd, 1, what) < 0)
			rc = -1;
	for (i = 0; i < nw; i++) {
		restore_frames(&workers[i], 0);
		if (check_restored(&workers[i]) < 0)
			rc = -1;
	}
	return rc;
}

/* ------------------------------------------------------------------ */
/* the machine: can its two vCPUs run flat out at once? */

#define SPIN_ITERS 200000 /* ~0.3 ms of a dependent multiply chain */
#define SPIN_BURSTS 160

struct spin_job {
	unsigned int gap;
	unsigned int nw;
	double cyc;      /* mean TSC cycles per iteration */
};

static struct spin_job spin_jobs[NWORKERS];

static int
spin(void *arg)
{
	struct spin_job *j = arg;
	uint64_t x = 1, total = 0, t0;
	unsigned int b, i;

	for (b = 0; b < SPIN_BURSTS; b++) {
		if (j->gap)
			rte_delay_us_sleep(j->gap);
		if (j->nw > 1)
			bench_barrier_wait(&barrier);
		t0 = rte_rdtsc_precise();
		for (i = 0; i < SPIN_ITERS; i++)
			x = x * 6364136223846793005ull + 1;
		total += rte_rdtsc_precise() - t0;
	}
	sink = x;
	j->cyc = (double)total / SPIN_BURSTS / SPIN_ITERS;
	return 0;
}

/* lcore 1's speed: alone, next to a busy lcore 0 flat out, and in short
 * bursts with gaps; as a fraction of its speed alone. */
static void
vcpu_check(double *flat, double *gapped)
{
	double solo = 1e30, best[2] = { 1e30, 1e30 };
	unsigned int g, t;

	/* best of three each, so other work on the machine weighs less */
	for (t = 0; t < 3; t++) {
		spin_jobs[1] = (struct spin_job){ .gap = 0, .nw = 1 };
		rte_eal_remote_launch(spin, &spin_jobs[1], 1);
		rte_eal_wait_lcore(1);
		solo = RTE_MIN(solo, spin_jobs[1].cyc);
		for (g = 0; g < 2; g++) {
			barrier.n = 2;
			spin_jobs[0] = (struct spin_job){ .gap = g ? gap_us : 0,
							  .nw = 2 };
			spin_jobs[1] = spin_jobs[0];
			rte_eal_remote_launch(spin, &spin_jobs[1], 1);
			spin(&spin_jobs[0]);
			rte_eal_wait_lcore(1);
			best[g] = RTE_MIN(best[g], spin_jobs[1].cyc);
		}
	}
	*flat = solo / best[0];
	*gapped = solo / best[1];
}

/* ------------------------------------------------------------------ */

struct cell {
	double med, spread;
};

static void
measure(double *samples, unsigned int runs, struct cell *c)
{
	c->med = bench_median(samples, runs);
	c->spread = bench_spread(samples, runs, c->med);
}

static unsigned int
frame_len_of(uint16_t payload)
{
	const struct fcr_l2_spec l2 = { .tagged = 1 };

	return (unsigned int)fcr_fcoe_frame_len(&l2, payload);
}

static void
usage(FILE *f, const char *prog)
{
	fprintf(f,
		"usage: %s [--runs N] [--passes N] [--frames N] [--cold] "
		"[--gap-us N]\n          [--no-breakdown] [--max-flows N] "
		"[--no-thp] [--edge]\n          [--routes any|vlan|fallback]\n"
		"  --runs N        timed runs per figure; the median is shown "
		"(default 11, max %d)\n"
		"  --passes N      passes over a worker's frames per run "
		"(default 32, max %d)\n"
		"  --frames N      frames (mbufs) per worker, a multiple of %d "
		"(default 2048:\n"
		"                  two RX rings of the app's 1024 descriptors)\n"
		"  --cold          flush each frame from the caches after "
		"restoring it (no DDIO)\n"
		"  --gap-us N      idle time before each pass, not timed "
		"(default 500): the host of\n"
		"                  this VM can throttle its second vCPU when "
		"both stay busy\n"
		"  --no-breakdown  skip the per-step breakdown\n"
		"  --max-flows N   skip flow counts above N (1000, 1000000)\n"
		"  --no-thp        tables and mbufs on the EAL heap's 4 KB pages\n"
		"  --edge          frames arrive on an edge port (--fabric-ports 1): each\n"
		"                  burst's S_IDs checked against the VN_Port table\n"
		"  --routes R      the routes for every VLAN (any, the default), in the\n"
		"                  frames' VLAN (vlan), or for every VLAN while that VLAN\n"
		"                  has a route of its own no frame matches (fallback)\n",
		prog, BENCH_MAX_RUNS, MAX_PASSES, BURST);
}

int
main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "runs", required_argument, NULL, 'r' },
		{ "passes", required_argument, NULL, 'p' },
		{ "frames", required_argument, NULL, 'f' },
		{ "cold", no_argument, NULL, 'c' },
		{ "gap-us", required_argument, NULL, 'g' },
		{ "no-breakdown", no_argument, NULL, 'B' },
		{ "max-flows", required_argument, NULL, 'm' },
		{ "no-thp", no_argument, NULL, 'T' },
		{ "edge", no_argument, NULL, 'E' },
		{ "routes", required_argument, NULL, 'R' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	enum { C_HARNESS, C_MACSWAP, C_PIPE1, C_PIPE2, C_MACSWAP2, C_OWN0, C_OWN1,
	       C_RATIO, NCOLS };
	static const enum job all_stages[] = {
		J_HARNESS, J_S_PARSE, J_S_EDGE, J_S_LOOKUP, J_S_ACTION,
		J_S_REWRITE, J_S_ROUTE, J_PIPELINE,
	};
#define NSTAGES_MAX RTE_DIM(all_stages)
	static double samples[NSIZES][NCOLS > NSTAGES_MAX ? NCOLS : NSTAGES_MAX]
			     [BENCH_MAX_RUNS];
	enum job stages[NSTAGES_MAX];
	unsigned int nstages = 0;
	double size_ratio[BENCH_MAX_RUNS], size_effect[NFLOWS];
	char what[NSIZES][64];
	struct cell res[NFLOWS][NSIZES][NCOLS], brk[NFLOWS][NSTAGES_MAX];
	double best_ratio[NFLOWS][NSIZES];
	int measured[NFLOWS] = { 0 };
	unsigned long runs = 11, passes = 32, nframes = 2048, max_flows = 1000000, v;
	int opt, thp = 1, cold = 0, breakdown = 1, rc = 0, sock;
	unsigned int fl, sz, r, c, i, st;
	double hz, worst = 0, vcpu_flat = 0, vcpu_gapped = 0, load0;
	const char *worst_what = "";

	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (opt) {
		case 'r':
			if (bench_parse_ul("--runs", optarg, 1, BENCH_MAX_RUNS, &runs))
				return 2;
			break;
		case 'p':
			if (bench_parse_ul("--passes", optarg, 1, MAX_PASSES, &passes))
				return 2;
			break;
		case 'f':
			if (bench_parse_ul("--frames", optarg, BURST, 1ul << 20,
					   &nframes))
				return 2;
			nframes -= nframes % BURST;
			break;
		case 'c':
			cold = 1;
			break;
		case 'g':
			if (bench_parse_ul("--gap-us", optarg, 0, 100000, &v))
				return 2;
			gap_us = (unsigned int)v;
			break;
		case 'B':
			breakdown = 0;
			break;
		case 'm':
			if (bench_parse_ul("--max-flows", optarg, 1, 1ul << 30,
					   &max_flows))
				return 2;
			break;
		case 'T':
			thp = 0;
			break;
		case 'E':
			edge = 1;
			break;
		case 'R':
			for (v = 0; v < RTE_DIM(routes_names); v++)
				if (strcmp(optarg, routes_names[v]) == 0)
					break;
			if (v == RTE_DIM(routes_names)) {
				fprintf(stderr, "--routes: any, vlan or fallback\n");
				return 2;
			}
			routes_in = (enum routes_in)v;
			break;
		case 'h':
			usage(stdout, argv[0]);
			return 0;
		default:
			usage(stderr, argv[0]);
			return 2;
		}
	}
	if (optind != argc) {
		usage(stderr, argv[0]);
		return 2;
	}
	verbose = getenv("BENCH_VERBOSE") != NULL;
	/* the VN_Port check is a stage of its own only on an edge port */
	for (i = 0; i < NSTAGES_MAX; i++)
		if (all_stages[i] != J_S_EDGE || edge)
			stages[nstages++] = all_stages[i];
	if (bench_eal_init("pipeline-bench", thp ? 256 : 2048, "0,1") < 0)
		return 2;
	if (rte_lcore_count() < 2 || !rte_lcore_is_enabled(1)) {
		fprintf(stderr, "pipeline-bench: needs lcores 0 and 1\n");
		return 2;
	}
	sock = bench_memory_socket("pipeline-bench", 1536, thp);
	hz = (double)rte_get_tsc_hz();
	load0 = bench_loadavg();
	fcr_crc_init();
	route_model_init();
	for (i = 0; i < NWORKERS; i++)
		if (wctx_init(&workers[i], i, (uint32_t)nframes, sock) < 0)
			return 2;

	vcpu_check(&vcpu_flat, &vcpu_gapped);
	for (fl = 0; fl < NFLOWS; fl++) {
		struct world wd;

		if (flow_counts[fl] > max_flows)
			continue;
		rc = world_create(&wd, flow_counts[fl], sock);
		if (rc < 0)
			return rc == -1 ? 1 : 2;
		for (i = 0; i < NWORKERS; i++)
			workers[i].pl = (struct fcr_pipeline){
				.tables = wd.t,
				.port_mac = (const uint8_t (*)[6])port_mac,
				.passthrough = passthrough,
				.nb_ports = NB_PORTS,
				.worker = i,
				.fabric_mask = edge ? 1u << 1 : 0,
				/* as the worker runs: the service node's latency timed */
				.lat_tsc_per_us = RTE_MAX(rte_get_tsc_hz() / 1000000, (uint64_t)1),
				.lat_stale = 2 * rte_get_tsc_hz(),
			};
		for (sz = 0; sz < NSIZES; sz++) {
			for (i = 0; i < NWORKERS; i++)
				if (build_frames(&workers[i], &wd, sz) < 0) {
					fprintf(stderr, "cannot build frames\n");
					return 2;
				}
			select_size(sz);
			snprintf(what[sz], sizeof(what[sz]), "%u flows, %u-byte "
				 "frames", wd.nflows, workers[0].frame_len);
			/* correctness first: one worker, two workers, and the
			 * stages as the breakdown runs them */
			if (verified_pass(&wd, J_PIPELINE, 1, what[sz]) < 0 ||
			    verified_pass(&wd, J_PIPELINE, 2, what[sz]) < 0 ||
			    verified_pass(&wd, J_S_ROUTE, 1, what[sz]) < 0)
				return 1;
			/* warm up */
			for (c = 0; c < 2; c++)
				run_job(&wd, J_PIPELINE, c + 1, 1, cold);
		}
		/* the sizes alternate within each run, so the size ratio is
		 * taken back to back too */
		for (r = 0; r < runs; r++) {
			for (sz = 0; sz < NSIZES; sz++) {
				double (*sm)[BENCH_MAX_RUNS] = samples[sz];

				select_size(sz);
				sm[C_HARNESS][r] = run_job(&wd, J_HARNESS, 1,
							   (unsigned)passes, cold);
				sm[C_MACSWAP][r] = run_job(&wd, J_MACSWAP, 1,
							   (unsigned)passes, cold);
				sm[C_PIPE1][r] = run_job(&wd, J_PIPELINE, 1,
							 (unsigned)passes, cold);
				sm[C_PIPE2][r] = run_job(&wd, J_PIPELINE, 2,
							 (unsigned)passes, cold);
				sm[C_OWN0][r] = last_own[0];
				sm[C_OWN1][r] = last_own[1];
				/* this run's own scaling: the 1- and 2-worker
				 * figures are taken back to back */
				sm[C_RATIO][r] = sm[C_PIPE1][r] / sm[C_PIPE2][r];
				sm[C_MACSWAP2][r] = run_job(&wd, J_MACSWAP, 2,
							    (unsigned)passes, cold);
			}
			size_ratio[r] = samples[NSIZES - 1][C_PIPE1][r] /
					samples[0][C_PIPE1][r];
		}
		size_effect[fl] = bench_median(size_ratio, (unsigned)runs) - 1;
		for (sz = 0; sz < NSIZES; sz++) {
			for (c = 0; c < NCOLS; c++) {
				measure(samples[sz][c], (unsigned)runs,
					&res[fl][sz][c]);
				if (c == C_RATIO)
					best_ratio[fl][sz] =
						samples[sz][c][runs - 1];
				if (c != C_HARNESS && c < C_OWN0 &&
				    res[fl][sz][c].spread > worst) {
					worst = res[fl][sz][c].spread;
					worst_what = c == C_PIPE1 ? "1 worker" :
						     c == C_PIPE2 ? "2 workers" :
						     "macswap";
				}
			}
			/* the pipeline still does the right thing after all
			 * those passes */
			select_size(sz);
			if (verified_pass(&wd, J_PIPELINE, 2, what[sz]) < 0)
				return 1;
		}
		if (breakdown) {
			select_size(0);
			for (r = 0; r < runs; r++)
				for (st = 0; st < nstages; st++)
					samples[0][st][r] = run_job(&wd, stages[st],
								    1, (unsigned)passes,
								    cold);
			for (st = 0; st < nstages; st++)
				measure(samples[0][st], (unsigned)runs,
					&brk[fl][st]);
		}
		measured[fl] = 1;
		world_free(&wd);
	}

	bench_print_env();
	bench_print_load(load0);
	printf("\nForwarding decision per frame: fcr_pipeline_burst in bursts of "
	       "%d (TSC cycles per frame, median of %lu runs\nof %lu passes over "
	       "%lu frames per worker; frames %s between passes)\n", BURST, runs,
	       passes, nframes, cold ? "restored and flushed from the caches" :
	       "restored (cache-warm, as after DDIO)");
	printf("half the flows redirect rules (ID rewrite + CRC update), half "
	       "plain entries; each frame's flow uniform over all;\nroutes: %s "
	       "(--routes)\n", routes_names[routes_in]);
	printf("%-8s %6s %8s %8s %9s %10s %8s | %9s %8s %8s %8s %8s %8s %8s\n",
	       "flows", "frame", "harness", "macswap", "1 worker", "pipe/macsw",
	       "Mfps", "2 workers", "Mfps", "w0 own", "w1 own", "2w/1w",
	       "best run", "macsw");
	for (fl = 0; fl < NFLOWS; fl++)
		for (sz = 0; sz < NSIZES && measured[fl]; sz++) {
			const struct cell *x = res[fl][sz];

			printf("%-8u %6u %8.1f %8.1f %9.1f %9.1fx %8.1f | %9.1f "
			       "%8.1f %8.1f %8.1f %7.2fx %7.2fx %7.2fx\n",
			       flow_counts[fl], frame_len_of(payloads[sz]),
			       x[C_HARNESS].med, x[C_MACSWAP].med, x[C_PIPE1].med,
			       x[C_PIPE1].med / x[C_MACSWAP].med,
			       hz / x[C_PIPE1].med / 1e6, x[C_PIPE2].med,
			       hz / x[C_PIPE2].med / 1e6, x[C_OWN0].med,
			       x[C_OWN1].med, x[C_RATIO].med, best_ratio[fl][sz],
			       x[C_MACSWAP].med / x[C_MACSWAP2].med);
		}
	for (fl = 0; fl < NFLOWS; fl++)
		for (sz = 0; sz < NSIZES && measured[fl]; sz++) {
			const struct cell *x = res[fl][sz];
			char cfg[32], name[96];

			snprintf(cfg, sizeof(cfg), "%u%s flows, %u B",
				 flow_counts[fl] % 1000000 ? flow_counts[fl] / 1000 :
				 flow_counts[fl] / 1000000,
				 flow_counts[fl] % 1000000 ? "K" : "M",
				 frame_len_of(payloads[sz]));
			snprintf(name, sizeof(name), "%s, 1 worker (pipeline / "
				 "macswap)", cfg);
			bench_result("pipeline", name, x[C_PIPE1].med,
				     "cycles/frame", "macswap, 1 worker",
				     x[C_MACSWAP].med,
				     x[C_PIPE1].med / x[C_MACSWAP].med,
				     x[C_PIPE1].spread);
			/* the table's 2w/1w: the median of the runs' ratios */
			snprintf(name, sizeof(name), "%s, 2 workers (2w / 1w "
				 "throughput)", cfg);
			bench_result("pipeline", name, x[C_PIPE2].med,
				     "cycles/frame", "pipeline, 1 worker",
				     x[C_PIPE1].med, x[C_RATIO].med,
				     x[C_PIPE2].spread);
			snprintf(name, sizeof(name), "%s, macswap 2 workers (2w / "
				 "1w throughput)", cfg);
			bench_result("pipeline", name, x[C_MACSWAP2].med,
				     "cycles/frame", "macswap, 1 worker",
				     x[C_MACSWAP].med,
				     x[C_MACSWAP].med / x[C_MACSWAP2].med,
				     x[C_MACSWAP2].spread);
		}
	printf("1 worker on lcore 0. 2 workers: lcores 0 and 1 at once; the "
	       "aggregate is both workers' frames over the wall\ntime from their "
	       "common start to the later finish; 'own' = each worker's own "
	       "cycles per frame meanwhile;\n2w/1w = throughput ratio, median of "
	       "the runs' ratios (1 and 2 workers timed back to back), and the "
	       "best run;\nmacsw = the same ratio for the macswap reference: what "
	       "this machine's two vCPUs give a trivial forwarder.\nMfps = "
	       "millions of frames per second at this TSC rate.\n");
	printf("machine: lcore 1 runs a compute loop at %.0f%% of its solo speed "
	       "while lcore 0 runs one too, flat out for ~%.0f ms;\nat %.0f%% in "
	       "~0.3 ms bursts with %u us idle gaps (best of 3 each; this VM's "
	       "host can throttle its second\nvCPU when both stay busy: hence the "
	       "gap before every pass, --gap-us)\n", vcpu_flat * 100,
	       SPIN_BURSTS * SPIN_ITERS * 4.0 / hz * 1e3, vcpu_gapped * 100,
	       gap_us);
	printf("noise: widest run-to-run spread = %.0f%% of the median (%s)\n",
	       worst * 100, worst_what);

	if (breakdown) {
		printf("\nWhere the cycles go (1 worker, 68-byte frames): "
		       "fcr_pipeline_burst's own stages, run up to each cut; cycles "
		       "per frame,\ncumulative (the cost of a stage is the "
		       "difference to the column before)\n");
		printf("%-8s", "flows");
		for (st = 0; st < nstages; st++)
			printf(" %9s", st == nstages - 1 ? "pipeline" :
			       job_names[stages[st]]);
		printf("\n");
		for (fl = 0; fl < NFLOWS; fl++) {
			if (!measured[fl])
				continue;
			printf("%-8u", flow_counts[fl]);
			for (st = 0; st < nstages; st++)
				printf(" %9.1f", brk[fl][st].med);
			printf("\n%-8s", "  step");
			for (st = 0; st < nstages; st++)
				printf(" %9.1f", st == 0 ? brk[fl][0].med :
				       brk[fl][st].med - brk[fl][st - 1].med);
			printf("\n");
		}
		printf("stages (fcr_pipeline_stages.h): parse = fcr_pipeline_parse "
		       "(fcr_frame_parse_mbuf + key);\n%s+lookup = "
		       "fcr_pipeline_lookup (flow cache, rte_hash); +action = "
		       "fcr_pipeline_act without its rewrite (action load,\nper-flow "
		       "counters); +rewrite = with it (D_ID/S_ID + "
		       "fcr_crc_update_ids); +route = fcr_pipeline_route\n"
		       "(fcr_route_lookup_bulk, its checks, MACs); pipeline = "
		       "fcr_pipeline_burst itself (its 'step' is the difference\n"
		       "to the same stages inlined here: about 0)\n",
		       edge ? "+edge = fcr_pipeline_trust (the VN_Port check, one "
		       "bulk lookup);\n" : "");
	}

	for (fl = 0; fl < NFLOWS; fl++) {
		double lim = flow_counts[fl] <= 1000 ? 150 : 300;

		if (!measured[fl])
			continue;
		for (sz = 0; sz < NSIZES; sz++) {
			double cyc = res[fl][sz][C_PIPE1].med;

			printf("target: %u flows%s, %u-byte frames: <= %.0f cycles "
			       "per frame (1 worker): %.1f  %s\n", flow_counts[fl],
			       flow_counts[fl] > 1000 ? " (uniformly random)" : "",
			       frame_len_of(payloads[sz]),
			       lim, cyc, cyc <= lim ? "PASS" : "MISS");
		}
	}
	for (fl = 0; fl < NFLOWS; fl++) {
		double d = size_effect[fl];
		char name[64];

		if (!measured[fl])
			continue;
		printf("target: %u flows: frame size (68 -> 2112 bytes) changes "
		       "the cost by < 10%% (median of the runs' paired ratios): "
		       "%+.1f%%  %s\n", flow_counts[fl], d * 100,
		       d < 0.10 && d > -0.10 ? "PASS" : "MISS");
		snprintf(name, sizeof(name), "%u%s flows, %u B / %u B, 1 worker",
			 flow_counts[fl] % 1000000 ? flow_counts[fl] / 1000 :
			 flow_counts[fl] / 1000000,
			 flow_counts[fl] % 1000000 ? "K" : "M",
			 frame_len_of(payloads[NSIZES - 1]),
			 frame_len_of(payloads[0]));
		/* ratio: the median of the runs' paired ratios, as the target */
		bench_result("pipeline", name, res[fl][NSIZES - 1][C_PIPE1].med,
			     "cycles/frame", "smallest frames, 1 worker",
			     res[fl][0][C_PIPE1].med, 1 + d,
			     res[fl][NSIZES - 1][C_PIPE1].spread);
	}
	for (fl = 0; fl < NFLOWS; fl++)
		for (sz = 0; sz < NSIZES && measured[fl]; sz++) {
			double x = res[fl][sz][C_RATIO].med;

			printf("target: %u flows, %u-byte frames: 2 workers >= "
			       "1.9x one: %.2fx  %s (best run %.2fx; macswap "
			       "%.2fx)\n", flow_counts[fl],
			       frame_len_of(payloads[sz]), x,
			       x >= 1.9 ? "PASS" : "MISS", best_ratio[fl][sz],
			       res[fl][sz][C_MACSWAP].med /
			       res[fl][sz][C_MACSWAP2].med);
		}
	rte_eal_cleanup();
	/* Timings never fail a benchmark: only wrong results do. */
	return 0;
}
