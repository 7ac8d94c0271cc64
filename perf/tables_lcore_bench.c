/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tables-lcore-bench: how many worker events per second the tables
 * lcore absorbs with no ring loss (docs/architecture.md, "Rings and events":
 * "A worker never waits on a full ring: it counts the loss").
 *
 * A producer on a worker lcore (lcore 1) pushes struct fcr_event into an
 * SP/SC rte_ring of 8192 events (app/main.c gives each worker FCR_EVENT_RING_SIZE, 8x more)
 * the way app/worker.c does: bursts of 32 with rte_ring_enqueue_burst_elem,
 * never waiting, counting what does not fit as lost. The consumer, on the
 * main lcore, runs the loop of app/tables_lcore.c fcr_tables_lcore_main: drain the ring
 * in bursts of 64 applying each burst with fcr_tables_events, at most 1024
 * events a round (drain_events), then the sync poll (fcr_sync_tick when the
 * millisecond changes), and
 * sleep 100 us when no event came. The machine has two cores, so one
 * producer: a second would share a core with the first and measure the
 * scheduler.
 *
 * What an event is, three kinds, each reported on its own:
 *   new flows    FLOW_FIRST of a flow not in the table: the tables lcore creates
 *                the entry (rte_hash insert, per-flow arrays, change noted
 *                for sync). The expensive case. The table is the program's
 *                default (--max-flows 1048576) holding 262,144 flows when a
 *                trial starts (a fresh table each trial).
 *   known flows  FLOW_FIRST of a flow already there (several frames of a
 *                new flow in flight, or several workers): one lookup, no
 *                change. Uniformly random over 524,288 flows.
 *   logins       fabric logins (an ELS FLOGI from an ENode on an edge port,
 *                the fabric's LS_ACC from FFFFFE on the fabric port) of
 *                65,536 host/target port pairs, hosts and targets in turn,
 *                each binding its port to a new FCID (the fabric moved it):
 *                two events per login, one binding change noted for sync,
 *                the pending-login table written and read.
 * and three set-ups of the consumer, the first the reference:
 *   tables       fcr_tables_events alone, no change log (what the tables cost)
 *   +sync        change log attached and a sync engine ticked every ms with
 *                one peer configured that never answers (changes noted,
 *                coalesced, rescanned and encoded into batches; nothing is
 *                sent because the peer is not up)
 *   +sync+peer   as +sync with the peer up: a second engine (node B, its own
 *                tables) on the same lcore, joined by an in-process network
 *                (1 ms), so A encodes, authenticates and sends every update
 *                and B authenticates and applies it. B's work runs on the
 *                consumer's lcore too: a pessimistic set-up (on two
 *                machines B has its own core); B's share is shown.
 *
 * Per kind and set-up, first the tables lcore's CPU cost alone (no ring, no
 * other thread): 100,000 events applied with fcr_tables_events in bursts of
 * 64 (as the tables lcore dequeues them),
 * best of 3 batches, in ns per event; with an engine, also the one tick
 * that encodes what such a batch changed. --cost-only stops there. Then
 * the consumer's maximum rate (the producer
 * pushes as fast as it can and waits when the ring is full, so nothing is
 * lost), then paced trials: the producer sends bursts of 32 on a TSC
 * schedule at a target rate for 100 ms (less at high rates, so a trial
 * never overfills the table), at 0.5, 1, 2, 3, 4, 5, 6, 8, 10, 12, 15 and
 * 20 M events/s, up to 5 attempts each (an attempt that loses nothing
 * settles the rate: noise only adds loss; 3 undisturbed attempts with loss
 * settle it the other way); the ladder stops at the first rate that loses
 * events in every attempt. The figure is the highest rate with zero loss.
 * A rate the producer itself cannot keep is marked.
 *
 * --drain-max N makes the tables lcore run its sync poll after at most N events
 * (default 1024, as app/tables_lcore.c: under load the engine's tick still runs
 * every millisecond instead of waiting for the ring to be nearly empty and
 * then flushing a large backlog while the ring fills). --per-event applies
 * each event with fcr_tables_event, one lookup each (the tables lcore before
 * fcr_tables_events): the reference for the bulk path.
 *
 * The machine is shared: each row says how much CPU other processes used
 * meanwhile, and an attempt the scheduler disturbed (the producer more than
 * 1 ms late, or a 100 us sleep that took more than 1 ms) is retried.
 *
 * Correctness first: every event the producer enqueued is applied exactly
 * once (counts), new-flow trials end with every flow in the table, login
 * trials with every port bound to its latest FCID; with a peer, B holds all
 * of A's flows once A has sent everything. Each set-up runs in a child
 * process, so one that crashes is reported and the others still run.
 * Exit status: 0 when all results are correct, whatever the rates; 1 on a
 * wrong result or a crash; 2 on a usage or set-up error.
 */
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_pause.h>
#include <rte_ring_elem.h>

#include "bench_util.h"
#include "fcr_change.h"
#include "fcr_event.h"
#include "fcr_sync.h"
#include "fcr_tables.h"

/* An eighth of the app's ring (FCR_EVENT_RING_SIZE): in a 100 ms trial the
 * app's 65,536 events would hide a tables lcore slower than the rate by up to
 * 0.65 M/s; this one only 0.08 M/s, and still holds 1.6 ms at 5 M/s. */
#define EVENT_RING_SIZE 8192
#define PRODUCER_BURST 32
#define DRAIN_BURST 64         /* app/tables_lcore.c drain_events */
#define MAX_FLOWS (1u << 20)   /* the program's default --max-flows */
#define PREFILL (1u << 18)
#define MAX_REDIRECTS (1u << 10)
#define KNOWN_FLOWS (1u << 19)
#define LOGIN_PAIRS (1u << 16)
#define TRIAL_S 0.1
#define MICRO 100000 /* events of the single-thread cost */
#define MAX_ATTEMPTS 5   /* per rate */
#define MAX_CLEAN_FAILS 3 /* undisturbed attempts that lost events */
#define MTU 1400

static const double ladder[] = { 0.5, 1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20 };
#define NRATES RTE_DIM(ladder)
#define TARGET_MEPS 5.0

enum kind { K_NEW, K_KNOWN, K_LOGIN, NKINDS };
static const char *const kind_names[NKINDS] = { "new flows", "known flows",
						"logins" };
enum setup { S_TABLES, S_SYNC, S_PEER, NSETUPS };
static const char *const setup_names[NSETUPS] = { "tables", "+sync",
						  "+sync+peer" };

/* ------------------------------------------------------------------ */
/*
 * What else ran on the machine: CPU time of all processes (and steal) minus
 * this process' own, over a period, as a share of all CPUs. The figures of
 * this benchmark are rates with no loss, which another tenant's load moves.
 */
struct load_mark {
	uint64_t busy, total, self;
};

static void
load_mark(struct load_mark *m)
{
	unsigned long long v[10] = { 0 };
	unsigned long ut = 0, st = 0;
	char buf[1024], *p;
	FILE *f = fopen("/proc/stat", "r");
	int i;

	memset(m, 0, sizeof(*m));
	if (f != NULL) {
		if (fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu",
			   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7],
			   &v[8], &v[9]) >= 8) {
			for (i = 0; i < 8; i++)
				m->total += v[i];
			m->busy = m->total - v[3] - v[4]; /* all but idle, iowait */
		}
		fclose(f);
	}
	f = fopen("/proc/self/stat", "r");
	if (f != NULL) {
		if (fgets(buf, sizeof(buf), f) != NULL && (p = strrchr(buf, ')')) != NULL &&
		    sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu",
			   &ut, &st) == 2)
			m->self = ut + st;
		fclose(f);
	}
}

/* Share of the machine's CPU used by others between a and b, in %. */
static double
load_other(const struct load_mark *a, const struct load_mark *b)
{
	double total = (double)(b->total - a->total);
	double other = (double)(b->busy - a->busy) - (double)(b->self - a->self);

	return total > 0 && other > 0 ? 100.0 * other / total : 0;
}

/* ------------------------------------------------------------------ */
/* shared between the producer and the consumer */

static struct rte_ring *ring;
static struct {
	double rate;              /* events/s; 0: as fast as possible, waiting */
	uint64_t nb;              /* events to send */
	uint64_t first;           /* number of the first event (new keys) */
	volatile int go;
	volatile int done;
	uint64_t sent, lost;
	uint64_t t_start, t_end;  /* TSC */
	int behind;               /* the producer could not keep the rate */
} prod;

static enum kind kind;
static uint64_t known_keys[KNOWN_FLOWS];

static inline uint64_t
new_key(uint64_t i)
{
	/* VLAN 1..4095 and S_ID/D_ID from the event number: all distinct */
	return fcr_flow_key((uint16_t)(1 + (i % 4095)), (uint32_t)(i / 4095) & 0xFFFFFF,
			    0x7F0000 | (uint32_t)((i / 4095) >> 24));
}

#define HOST(i) (0x2100000000000000ull | (i))
#define TGT(i) (0x5000000000000000ull | (i))
#define FABRIC_WWPN 0x2000000dec000001ull

static inline uint32_t
host_fcid(uint32_t i, uint32_t round)
{
	return (round & 1 ? 0x020000 : 0x010000) | i;
}

static inline uint32_t
tgt_fcid(uint32_t i, uint32_t round)
{
	return (round & 1 ? 0x420000 : 0x410000) | i;
}

/* Event n of the trial. Logins: pair n/2, PLOGI then its accept. */
static inline void
make_event(struct fcr_event *ev, uint64_t n, uint64_t *rng)
{
	switch (kind) {
	case K_NEW:
		fcr_event_flow(ev, new_key(prod.first + n));
		break;
	case K_KNOWN:
		*rng ^= *rng << 13;
		*rng ^= *rng >> 7;
		*rng ^= *rng << 17;
		fcr_event_flow(ev, known_keys[*rng & (KNOWN_FLOWS - 1)]);
		break;
	default: {
		/* login L (events 2L, 2L+1): pair L/2, its host then its
		 * target; request from the ENode on edge port 1, the
		 * fabric's accept on fabric port 0 */
		uint64_t login = (prod.first + n) / 2, pair = login / 2;
		uint32_t i = (uint32_t)(pair % LOGIN_PAIRS);
		uint32_t round = (uint32_t)(pair / LOGIN_PAIRS);
		int target = (int)(login & 1);

		memset(ev, 0, sizeof(*ev));
		ev->type = FCR_EV_LOGIN;
		ev->vlan = 10;
		ev->ox_id = (uint16_t)(login & 0xFFFF);
		ev->has_wwpn = 1;
		ev->enode[0] = 0x02;
		ev->enode[2] = (uint8_t)target;
		ev->enode[3] = (uint8_t)(i >> 16);
		ev->enode[4] = (uint8_t)(i >> 8);
		ev->enode[5] = (uint8_t)i;
		if (((prod.first + n) & 1) == 0) { /* FLOGI */
			ev->kind = FCR_LOGIN_FLOGI;
			ev->port = 1;
			ev->s_id = 0;
			ev->d_id = FCR_FCID_FLOGI;
			ev->wwpn = target ? TGT(i) : HOST(i);
		} else {                           /* the fabric's accept */
			ev->kind = FCR_LOGIN_ACC;
			ev->port = 0;
			ev->s_id = FCR_FCID_FLOGI;
			ev->d_id = target ? tgt_fcid(i, round) : host_fcid(i, round);
			ev->wwpn = FABRIC_WWPN;
		}
		break;
	}
	}
}

static int
producer_main(void *arg)
{
	struct fcr_event ev[PRODUCER_BURST];
	uint64_t rng = 0x2545F4914F6CDD1Dull, n = 0, hz = rte_get_tsc_hz();
	uint64_t next, now;
	double ticks_per_burst;

	(void)arg;
	while (!prod.go)
		rte_pause();
	ticks_per_burst = prod.rate > 0 ? PRODUCER_BURST * (double)hz / prod.rate : 0;
	prod.t_start = rte_rdtsc();
	next = prod.t_start;
	while (n < prod.nb) {
		unsigned int i, k = (unsigned int)RTE_MIN((uint64_t)PRODUCER_BURST,
							   prod.nb - n);
		unsigned int sent;

		for (i = 0; i < k; i++)
			make_event(&ev[i], n + i, &rng);
		if (prod.rate > 0) {
			/* the schedule: burst b at t_start + b * ticks_per_burst */
			next = prod.t_start + (uint64_t)((n / PRODUCER_BURST) * ticks_per_burst);
			while ((now = rte_rdtsc()) < next)
				rte_pause();
			if (now - next > hz / 1000) /* more than 1 ms late */
				prod.behind = 1;
			sent = rte_ring_enqueue_burst_elem(ring, ev, sizeof(ev[0]), k, NULL);
			prod.lost += k - sent;
		} else {
			sent = 0;
			while (sent < k) {
				unsigned int m = rte_ring_enqueue_burst_elem(ring,
					ev + sent, sizeof(ev[0]), k - sent, NULL);

				sent += m;
				if (m == 0)
					rte_pause();
			}
		}
		prod.sent += sent;
		n += k;
	}
	prod.t_end = rte_rdtsc();
	__atomic_store_n(&prod.done, 1, __ATOMIC_RELEASE);
	return 0;
}

/* ------------------------------------------------------------------ */
/* the consumer's node(s) */

struct pkt {
	uint16_t len;
	uint8_t to;
	uint8_t data[MTU];
};

static struct pkt *netq;
static size_t nq, capq;

struct node {
	struct fcr_tables *t;
	struct fcr_sync *s;
	struct fcr_sync_addr addr;
	int id;
};

static struct node nodes[2];
static enum setup setup;
static uint64_t last_ms;
static uint64_t b_tsc;    /* time spent in node B's calls */
static uint64_t applied;  /* events applied by the consumer */
static int oom;

static uint64_t
mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static void
net_send(void *ctx, const struct fcr_sync_addr *to, const uint8_t *p, size_t len)
{
	struct pkt *k;

	(void)ctx;
	if (len > MTU || to->port < 1 || to->port > 2) {
		oom = 1;
		return;
	}
	k = bench_push((void **)&netq, &nq, &capq, sizeof(*k));
	if (k == NULL) {
		oom = 1;
		return;
	}
	k->len = (uint16_t)len;
	k->to = (uint8_t)(to->port - 1);
	memcpy(k->data, p, len);
}

/* app/sync_io.c fcr_sync_io_poll, with the in-process network for sockets */
static void
sync_poll(void)
{
	uint64_t ms = mono_ms(), tsc = rte_rdtsc(), t0 = 0;
	size_t j, n;

	if (setup == S_TABLES || ms == last_ms)
		return;
	last_ms = ms;
	if (setup == S_PEER) {
		/* what was sent during the last millisecond arrives */
		n = nq;
		for (j = 0; j < n; j++) {
			const struct pkt *k = &netq[j];

			if (k->to == 1)
				t0 = rte_rdtsc();
			fcr_sync_input(nodes[k->to].s, &nodes[1 - k->to].addr, k->data,
				       k->len, ms, tsc);
			if (k->to == 1)
				b_tsc += rte_rdtsc() - t0;
		}
		memmove(netq, netq + n, (nq - n) * sizeof(netq[0]));
		nq -= n;
	}
	fcr_sync_tick(nodes[0].s, ms, tsc);
	if (setup == S_PEER) {
		t0 = rte_rdtsc();
		fcr_sync_tick(nodes[1].s, ms, tsc);
		b_tsc += rte_rdtsc() - t0;
	}
}

/* app/tables_lcore.c drain_events, one worker: until the ring has less than a
 * burst or drain_max events were applied (then the sync tick's turn) */
static unsigned int drain_max = 1024; /* DRAIN_MAX, app/tables_lcore.c */
static int per_event; /* --per-event: fcr_tables_event for each event */

static void
apply(struct fcr_tables *t, const struct fcr_event *ev, unsigned int n)
{
	unsigned int i;

	if (!per_event) {
		fcr_tables_events(t, ev, n);
		return;
	}
	for (i = 0; i < n; i++)
		fcr_tables_event(t, &ev[i]);
}

static int cost_only; /* --cost-only: the single-thread cost, no trials */

static unsigned int
drain_events(void)
{
	struct fcr_event ev[DRAIN_BURST];
	unsigned int n, total = 0;

	do {
		n = rte_ring_dequeue_burst_elem(ring, ev, sizeof(ev[0]), DRAIN_BURST,
						NULL);
		apply(nodes[0].t, ev, n);
		total += n;
	} while (n == DRAIN_BURST && total < drain_max);
	applied += total;
	return total;
}

static int
node_start(int i, int sock, int log, unsigned int gen)
{
	struct fcr_tables_params tp = {
		.max_flows = MAX_FLOWS, .max_routes = 4096,
		.max_bindings = 1u << 20, .max_redirects = MAX_REDIRECTS,
		.nb_workers = 1, .socket = sock,
	};
	struct fcr_sync_params sp = {
		.mtu = MTU, .window_ms = 50, .tsc_hz = rte_get_tsc_hz(),
		.send = net_send, .send_ctx = &nodes[i], .node = (uint16_t)(i + 1),
	};
	struct fcr_sync_addr peer = { 0x7F000001, (uint16_t)(2 - i) };
	char name[32];

	memcpy(sp.key, "tables-lcore-bench shared key.....", FCR_SYNC_KEY_LEN);
	nodes[i].id = i;
	nodes[i].addr.ip = 0x7F000001;
	nodes[i].addr.port = (uint16_t)(i + 1);
	snprintf(name, sizeof(name), "sl%u_%d", gen, i);
	nodes[i].t = fcr_tables_create(name, &tp);
	if (nodes[i].t == NULL)
		return -1;
	nodes[i].t->fabric_mask = 1; /* logins learned from port 0's replies */
	if (!log)
		return 0;
	if (fcr_tables_attach_log(nodes[i].t, sock) < 0)
		return -1;
	nodes[i].s = fcr_sync_create(&sp, nodes[i].t, mono_ms());
	if (nodes[i].s == NULL || fcr_sync_peer_add(nodes[i].s, &peer) < 0)
		return -1;
	return 0;
}

static void
nodes_stop(void)
{
	int i;

	for (i = 0; i < 2; i++) {
		fcr_sync_free(nodes[i].s);
		fcr_tables_free(nodes[i].t);
		nodes[i].s = NULL;
		nodes[i].t = NULL;
	}
	nq = 0;
}

/* Run the sync poll (no events) for ms milliseconds. */
static void
idle_ms(unsigned int ms)
{
	uint64_t end = mono_ms() + ms;

	while (mono_ms() < end) {
		sync_poll();
		usleep(100);
	}
}

static unsigned int gen;

/*
 * Fresh nodes, node A holding the flows the kind needs (new flows: every
 * trial; the others: once). With a peer, A's flows reach B by the bulk
 * resync when the two meet, and the trial starts once B holds them all.
 */
static int
nodes_for(int sock)
{
	struct fcr_event ev;
	uint64_t end;
	uint32_t i;

	if (nodes[0].t != NULL)
		nodes_stop();
	gen++;
	if (node_start(0, sock, setup != S_TABLES, gen) < 0 ||
	    (setup == S_PEER && node_start(1, sock, 1, gen) < 0))
		return -1;
	if (kind == K_NEW)
		for (i = 0; i < PREFILL; i++) {
			fcr_event_flow(&ev, new_key((uint64_t)1 << 40 | i));
			fcr_tables_event(nodes[0].t, &ev);
		}
	if (kind == K_KNOWN)
		for (i = 0; i < KNOWN_FLOWS; i++) {
			fcr_event_flow(&ev, known_keys[i]);
			fcr_tables_event(nodes[0].t, &ev);
		}
	if (setup == S_TABLES)
		return 0;
	idle_ms(60); /* A's first window: its flows noted and flushed */
	if (setup != S_PEER)
		return 0;
	end = mono_ms() + 20000;
	while (mono_ms() < end && (!fcr_sync_ready(nodes[0].s) ||
				   !fcr_sync_ready(nodes[1].s) ||
				   nodes[1].t->flows->count != nodes[0].t->flows->count))
		idle_ms(5);
	if (nodes[1].t->flows->count != nodes[0].t->flows->count ||
	    !fcr_sync_ready(nodes[1].s)) {
		fprintf(stderr, "FAIL: %s: B (ready %d) holds %u of A's %u flows 20 s "
			"after they met\n", kind_names[kind], fcr_sync_ready(nodes[1].s),
			nodes[1].t->flows->count, nodes[0].t->flows->count);
		return -2;
	}
	idle_ms(200); /* A's last acknowledgements */
	return 0;
}

struct trial {
	double offered;   /* events/s the producer reached */
	double consumed;  /* events/s the consumer applied, first to last */
	uint64_t sent, lost;
	double b_share;   /* of the consumer's time, in node B */
	double tick_ms;   /* the consumer's longest sync poll (engine work) */
	double sleep_ms;  /* its longest 100 us sleep */
	int behind;
	int disturbed;
	int ok;
};

static uint64_t next_first; /* event numbers: never reused in a process */
static int any_loss;        /* some event of the case was lost */

/* One trial: nb events at rate (0: as fast as the consumer takes them). */
static int
trial(double rate, uint64_t nb, struct trial *t)
{
	unsigned int lcore = rte_get_next_lcore(-1, 1, 0);
	uint64_t hz = rte_get_tsc_hz(), t_first = 0, t_last = 0, b0 = b_tsc;
	uint64_t t_prev = 0, tick_max = 0, sleep_max = 0, t0, t1;
	uint64_t count0 = nodes[0].t->flows->count;
	uint64_t learned0 = nodes[0].t->st.bindings_learned;

	memset(t, 0, sizeof(*t));
	memset(&prod, 0, sizeof(prod));
	prod.rate = rate;
	prod.nb = nb;
	prod.first = next_first;
	applied = 0;
	if (rte_eal_remote_launch(producer_main, NULL, lcore) != 0)
		return -1;
	prod.go = 1;
	/* app/tables_lcore.c fcr_tables_lcore_main */
	for (;;) {
		int fin = __atomic_load_n(&prod.done, __ATOMIC_ACQUIRE);
		uint64_t t_before = rte_rdtsc();
		unsigned int n = drain_events();

		if (n > 0) {
			if (t_first == 0)
				t_first = t_before;
			t_last = rte_rdtsc();
		}
		(void)t_prev;
		t0 = rte_rdtsc();
		sync_poll();
		t1 = rte_rdtsc();
		if (t1 - t0 > tick_max)
			tick_max = t1 - t0;
		if (fin && rte_ring_count(ring) == 0 && n == 0)
			break;
		if (n == 0) {
			usleep(100);
			t0 = rte_rdtsc() - t1;
			if (t0 > sleep_max)
				sleep_max = t0;
		}
	}
	rte_eal_wait_lcore(lcore);
	t->sent = prod.sent;
	t->lost = prod.lost;
	t->behind = prod.behind;
	t->tick_ms = (double)tick_max * 1000 / hz;
	t->sleep_ms = (double)sleep_max * 1000 / hz;
	/* the scheduler, not the consumer's work: the producer ran more
	 * than 1 ms late, or a 100 us sleep took more than 1 ms */
	t->disturbed = prod.behind || t->sleep_ms > 1.0;
	t->offered = (double)nb * hz / (double)(prod.t_end - prod.t_start + 1);
	t->consumed = t_last > t_first ? (double)applied * hz / (double)(t_last - t_first) : 0;
	t->b_share = t_last > t_first ? (double)(b_tsc - b0) / (double)(t_last - t_first) : 0;
	t->ok = applied == prod.sent;
	if (!t->ok)
		fprintf(stderr, "FAIL: %s, %s: %" PRIu64 " events enqueued, %" PRIu64
			" applied\n", kind_names[kind], setup_names[setup], prod.sent,
			applied);
	/* what the events must have done */
	if (kind == K_NEW) {
		uint64_t i, missing = 0;

		if (prod.lost == 0 && nodes[0].t->flows->count != count0 + nb) {
			fprintf(stderr, "FAIL: new flows: the table holds %u flows, "
				"%" PRIu64 " expected\n", nodes[0].t->flows->count,
				count0 + nb);
			t->ok = 0;
		}
		for (i = 0; i < nb && prod.lost == 0; i += 97)
			missing += fcr_flow_find(nodes[0].t->flows,
						 new_key(next_first + i)) < 0;
		if (missing) {
			fprintf(stderr, "FAIL: new flows: %" PRIu64 " sampled flows "
				"missing\n", missing);
			t->ok = 0;
		}
		next_first += nb;
	} else if (kind == K_LOGIN) {
		/* the pairs whose four events (two logins) all fell in the trial */
		uint64_t p0 = (next_first + 3) / 4, end = (next_first + nb) / 4;
		uint64_t logins = (next_first + nb) / 2 - (next_first + 1) / 2;
		uint32_t i, wrong = 0, checked = 0;

		/* every port that logged in during the trial holds the FCID of
		 * its last login */
		for (i = 0; i < LOGIN_PAIRS && prod.lost == 0; i += 13) {
			uint64_t p = end - 1 - ((end - 1 - i) % LOGIN_PAIRS);
			uint32_t round = (uint32_t)(p / LOGIN_PAIRS);
			uint32_t h = fcr_binding_get(nodes[0].t->bindings, 10, HOST(i), 0);
			uint32_t g = fcr_binding_get(nodes[0].t->bindings, 10, TGT(i), 0);

			if (p < p0 || p >= end)
				continue;
			checked++;
			if (h == FCR_BINDING_NONE || g == FCR_BINDING_NONE ||
			    nodes[0].t->bindings->entry[h].fcid != host_fcid(i, round) ||
			    nodes[0].t->bindings->entry[g].fcid != tgt_fcid(i, round))
				wrong++;
		}
		if (wrong) {
			fprintf(stderr, "FAIL: logins: %u of %u sampled ports not bound "
				"to the FCID of their last login\n", wrong, checked);
			t->ok = 0;
		}
		/* each login is a change, when no earlier event was lost */
		if (prod.lost == 0 && !any_loss &&
		    nodes[0].t->st.bindings_learned - learned0 != logins) {
			fprintf(stderr, "FAIL: logins: %" PRIu64 " bindings changed by "
				"%" PRIu64 " logins\n",
				nodes[0].t->st.bindings_learned - learned0, logins);
			t->ok = 0;
		}
		next_first += nb;
	}
	any_loss |= prod.lost > 0;
	return 0;
}

/* ------------------------------------------------------------------ */

struct result {
	int ran, crashed;
	double max_rate;      /* consumer, unpaced */
	double b_share_max;
	double best;          /* highest zero-loss rate, events/s */
	double best_offered;
	double best_b_share;
	int best_behind;
	double first_fail;    /* lowest rate lost at in every attempt (0: none) */
	uint64_t first_fail_lost, first_fail_sent;
	int first_fail_disturbed;  /* every attempt there was disturbed */
	double best_tick_ms;       /* longest sync poll at the best rate */
	double fail_tick_ms;       /* ... at the first rate that failed */
	double other_load;         /* % of the machine's CPU others used */
	double apply_ns;           /* fcr_tables_events alone, per event */
	double flush_ms;           /* +sync: one tick flushing MICRO events' changes */
	uint64_t flush_recs;
	unsigned int trials;
	uint64_t records_sent, bulk_sent, retransmits; /* A, whole case */
	int ok;
};

static uint64_t
trial_events(double rate)
{
	uint64_t nb = (uint64_t)(rate * TRIAL_S);

	/* the table keeps room for its redirects' entries (fcr_redirect_reserve) */
	if (kind == K_NEW)
		nb = RTE_MIN(nb, (uint64_t)(MAX_FLOWS - PREFILL -
					    fcr_redirect_reserve(MAX_REDIRECTS) - 1024));
	nb = RTE_MAX(nb, (uint64_t)20000);
	return nb & ~1ull; /* logins come in pairs */
}

static int
run_case(enum kind k, enum setup s, int thp, int fd, int verbose)
{
	static struct result res;
	struct load_mark lm0, lm1;
	struct trial t;
	int sock, rc = 0, x;
	unsigned int r, a;
	uint32_t i;

	kind = k;
	setup = s;
	if (bench_eal_init("tables-lcore-bench", 512, "0,1") < 0)
		return 2;
	sock = bench_memory_socket("tables-lcore-bench", 4096, thp);
	ring = rte_ring_create_elem("sl_ev", sizeof(struct fcr_event), EVENT_RING_SIZE,
				    (int)rte_socket_id(), RING_F_SP_ENQ | RING_F_SC_DEQ);
	if (ring == NULL || rte_lcore_count() < 2)
		return 2;
	for (i = 0; i < KNOWN_FLOWS; i++)
		known_keys[i] = new_key((uint64_t)2 << 40 | i);
	memset(&res, 0, sizeof(res));
	res.ok = 1;
	x = nodes_for(sock);
	if (x == -2)
		return 1;
	if (x < 0)
		return 2;
	load_mark(&lm0);

	/* The tables lcore's CPU cost alone, no ring, no other thread: MICRO events
	 * applied in a loop (best of 3 batches), then, with an engine and no
	 * peer up, one tick that encodes everything they changed. */
	{
		static struct fcr_event evs[MICRO];
		uint64_t rng = 0x2545F4914F6CDD1Dull, hz = rte_get_tsc_hz();
		unsigned int rep;

		res.apply_ns = 1e30;
		for (rep = 0; rep < 3; rep++) {
			uint64_t t0, t1;
			uint64_t p0 = s == S_SYNC ? fcr_sync_stats(nodes[0].s)->records_sent : 0;

			memset(&prod, 0, sizeof(prod));
			prod.first = next_first;
			for (i = 0; i < MICRO; i++)
				make_event(&evs[i], i, &rng);
			t0 = rte_rdtsc_precise();
			for (i = 0; i < MICRO; i += DRAIN_BURST)
				apply(nodes[0].t, &evs[i],
				      RTE_MIN((uint32_t)DRAIN_BURST, MICRO - i));
			t1 = rte_rdtsc_precise();
			res.apply_ns = RTE_MIN(res.apply_ns, (double)(t1 - t0) * 1e9 / hz / MICRO);
			next_first += MICRO;
			if (s == S_SYNC) {
				/* the flush: everything pending, encoded (no peer up) */
				uint64_t ms = mono_ms() + 60; /* the window has ended */

				t0 = rte_rdtsc_precise();
				fcr_sync_tick(nodes[0].s, ms, rte_rdtsc());
				t1 = rte_rdtsc_precise();
				last_ms = ms;
				res.flush_recs = fcr_sync_pending(nodes[0].s) == 0 ? MICRO : 0;
				res.flush_ms = RTE_MAX(res.flush_ms, (double)(t1 - t0) * 1e3 / hz);
				(void)p0;
				idle_ms(70); /* the clock catches up */
			}
		}
		idle_ms(20);
	}

	if (cost_only)
		goto done;
	/* the consumer's maximum: the producer waits, nothing is lost */
	if (trial(0, trial_events(3e6) * (k == K_NEW ? 1 : 3), &t) < 0)
		return 2;
	res.ok &= t.ok;
	res.max_rate = t.consumed;
	res.b_share_max = t.b_share;
	if (verbose)
		fprintf(stderr, "%s %s: max %.2f M/s (B %.0f%%)\n", kind_names[k],
			setup_names[s], t.consumed / 1e6, t.b_share * 100);

	for (r = 0; r < NRATES && res.first_fail == 0; r++) {
		double rate = ladder[r] * 1e6;

		unsigned int clean_fails = 0, disturbed = 0;
		int passed = 0;

		for (a = 0; a < MAX_ATTEMPTS && clean_fails < MAX_CLEAN_FAILS; a++) {
			if (k == K_NEW && (x = nodes_for(sock)) < 0)
				return x == -2 ? 1 : 2;
			if (trial(rate, trial_events(rate), &t) < 0)
				return 2;
			res.trials++;
			res.ok &= t.ok;
			if (verbose)
				fprintf(stderr, "%s %s: %.1f M/s try %u: offered %.2f "
					"lost %" PRIu64 "/%" PRIu64 ", longest tick %.2f ms, "
					"longest sleep %.2f ms%s\n", kind_names[k],
					setup_names[s], ladder[r], a + 1, t.offered / 1e6,
					t.lost, t.sent + t.lost, t.tick_ms, t.sleep_ms,
					t.behind ? " (producer behind)" : "");
			if (t.lost == 0) {
				res.best = rate;
				res.best_offered = t.offered;
				res.best_b_share = t.b_share;
				res.best_behind = t.behind;
				res.best_tick_ms = t.tick_ms;
				passed = 1;
				break;
			}
			if (t.disturbed)
				disturbed++;
			else
				clean_fails++;
			res.fail_tick_ms = RTE_MAX(res.fail_tick_ms, t.tick_ms);
			res.first_fail_lost = t.lost;
			res.first_fail_sent = t.sent + t.lost;
		}
		if (!passed) {
			res.first_fail = rate;
			res.first_fail_disturbed = clean_fails == 0;
		}
	}
done:
	load_mark(&lm1);
	res.other_load = load_other(&lm0, &lm1);
	if (s != S_TABLES) {
		const struct fcr_sync_stats *st = fcr_sync_stats(nodes[0].s);

		res.records_sent = st->records_sent;
		res.bulk_sent = st->bulk_sent;
		res.retransmits = st->retransmits;
	}
	if (s == S_PEER && k == K_NEW) {
		/* B holds A's flows once A has sent everything */
		uint64_t end = mono_ms() + 10000;
		uint32_t it = 0, miss = 0;
		int ia;

		while (mono_ms() < end &&
		       nodes[1].t->flows->count != nodes[0].t->flows->count)
			idle_ms(10);
		while ((ia = fcr_flow_next(nodes[0].t->flows, &it)) >= 0)
			miss += fcr_flow_find(nodes[1].t->flows,
					      nodes[0].t->flows->key[ia]) < 0;
		if (miss) {
			fprintf(stderr, "FAIL: %s, %s: B lacks %u of A's %u flows 10 s "
				"after the last trial\n", kind_names[k],
				setup_names[s], miss, nodes[0].t->flows->count);
			res.ok = 0;
		}
	}
	if (oom)
		return 2;
	res.ran = 1;
	if (!res.ok)
		rc = 1;
	if (write(fd, &res, sizeof(res)) != (ssize_t)sizeof(res))
		return 2;
	return rc;
}

static void
usage(FILE *f, const char *prog)
{
	fprintf(f,
		"usage: %s [--kind new|known|login] [--setup tables|sync|peer]\n"
		"          [--drain-max N] [--per-event] [--no-thp]\n"
		"  --kind K   only this kind of event (default: all three)\n"
		"  --setup S  only this set-up (default: all three)\n"
		"  --cost-only  only the single-thread cost (ns/ev, flush), no trials\n"
		"  --drain-max N  the tables lcore drains at most N events before its sync\n"
		"             poll (default 1024, as app/tables_lcore.c)\n"
		"  --per-event  apply each event with fcr_tables_event (the tables lcore\n"
		"             before fcr_tables_events: one lookup per event)\n"
		"  --no-thp   tables on the EAL's 4 KB pages\n"
		"  --runs N   accepted for run-benchmarks.sh (the ladder repeats each\n"
		"             rate up to 3 times itself)\n", prog);
}

int
main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "runs", required_argument, NULL, 'r' },
		{ "kind", required_argument, NULL, 'k' },
		{ "drain-max", required_argument, NULL, 'd' },
		{ "cost-only", no_argument, NULL, 'c' },
		{ "per-event", no_argument, NULL, 'p' },
		{ "setup", required_argument, NULL, 's' },
		{ "no-thp", no_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static struct result res[NKINDS][NSETUPS];
	int opt, thp = 1, rc = 0, verbose = getenv("BENCH_VERBOSE") != NULL;
	unsigned long dummy;
	unsigned int k, s, kmask = 7, smask = 7;

	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (opt) {
		case 'r':
			if (bench_parse_ul("--runs", optarg, 1, BENCH_MAX_RUNS, &dummy))
				return 2;
			break;
		case 'c':
			cost_only = 1;
			break;
		case 'p':
			per_event = 1;
			break;
		case 'd':
			if (bench_parse_ul("--drain-max", optarg, 64, 1u << 20, &dummy))
				return 2;
			drain_max = (unsigned int)dummy;
			break;
		case 'k':
			kmask = !strcmp(optarg, "new") ? 1 : !strcmp(optarg, "known") ? 2 :
				!strcmp(optarg, "login") ? 4 : 0;
			if (kmask == 0) {
				usage(stderr, argv[0]);
				return 2;
			}
			break;
		case 's':
			smask = !strcmp(optarg, "tables") ? 1 : !strcmp(optarg, "sync") ? 2 :
				!strcmp(optarg, "peer") ? 4 : 0;
			if (smask == 0) {
				usage(stderr, argv[0]);
				return 2;
			}
			break;
		case 'T':
			thp = 0;
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
	fflush(stdout);
	for (k = 0; k < NKINDS; k++)
		for (s = 0; s < NSETUPS; s++) {
			struct result *x = &res[k][s];
			int fds[2], st = 0;
			ssize_t got;
			pid_t pid;

			if (!(kmask >> k & 1) || !(smask >> s & 1))
				continue;
			if (pipe(fds) != 0)
				return 2;
			pid = fork();
			if (pid < 0)
				return 2;
			if (pid == 0) {
				close(fds[0]);
				exit(run_case(k, s, thp, fds[1], verbose));
			}
			close(fds[1]);
			got = read(fds[0], x, sizeof(*x));
			close(fds[0]);
			if (waitpid(pid, &st, 0) < 0)
				return 2;
			if (WIFSIGNALED(st)) {
				memset(x, 0, sizeof(*x));
				x->crashed = WTERMSIG(st);
				fprintf(stderr, "FAIL: %s, %s: the process died of signal "
					"%d (%s)\n", kind_names[k], setup_names[s],
					x->crashed, strsignal(x->crashed));
				rc = 1;
				continue;
			}
			if (!WIFEXITED(st) || WEXITSTATUS(st) == 2 ||
			    got != (ssize_t)sizeof(*x)) {
				fprintf(stderr, "%s, %s: set-up error\n", kind_names[k],
					setup_names[s]);
				return 2;
			}
			if (WEXITSTATUS(st) != 0)
				rc = 1;
		}

	printf("Tables lcore: worker events absorbed per second with no ring loss "
	       "(one producer lcore, one SP/SC ring of %d,\nthe tables lcore loop of "
	       "app/tables_lcore.c on the main lcore; M = million events per second)\n",
	       EVENT_RING_SIZE);
	printf("The tables lcore applies each burst of up to %d events with %s and runs "
	       "its sync poll after at most\n%u events%s.\n", DRAIN_BURST,
	       per_event ? "fcr_tables_event one by one (--per-event)" :
	       "fcr_tables_events", drain_max,
	       drain_max == 1024 ? " (as app/tables_lcore.c)" : " (--drain-max)");
	printf("%-11s %-10s | %6s %6s | %7s %6s | %7s %6s %6s %6s | %-26s %6s | %5s | %s\n",
	       "events", "set-up", "ns/ev", "flush", "max M/s", "vs tbl", "0-loss",
	       "vs tbl", "tick", "B time", "first rate with loss", "tick", "other",
	       "A's sync records");
	for (k = 0; k < NKINDS; k++)
		for (s = 0; s < NSETUPS; s++) {
			const struct result *x = &res[k][s], *ref = &res[k][S_TABLES];
			char ff[64], recs[64], bshare[16], best[16], fl[16];

			if (!x->ran && !x->crashed)
				continue;
			if (x->crashed) {
				printf("%-11s %-10s | CRASHED (signal %d, %s)\n",
				       kind_names[k], setup_names[s], x->crashed,
				       strsignal(x->crashed));
				continue;
			}
			if (x->first_fail > 0)
				snprintf(ff, sizeof(ff), "%4.1f: %4.1f%% lost%s",
					 x->first_fail / 1e6, 100.0 * x->first_fail_lost /
					 (x->first_fail_sent ? x->first_fail_sent : 1),
					 x->first_fail_disturbed ? " (dist.)" : "");
			else
				snprintf(ff, sizeof(ff), "none to %.0f", ladder[NRATES - 1]);
			if (s == S_TABLES)
				snprintf(recs, sizeof(recs), "-");
			else
				snprintf(recs, sizeof(recs), "%" PRIu64 " sent, %" PRIu64
					 " retx, %" PRIu64 " bulk", x->records_sent,
					 x->retransmits, x->bulk_sent);
			if (s == S_PEER)
				snprintf(bshare, sizeof(bshare), "%5.0f%%",
					 100 * x->best_b_share);
			else
				snprintf(bshare, sizeof(bshare), "%6s", "-");
			snprintf(best, sizeof(best), "%6.1f%s", x->best / 1e6,
				 x->best_behind ? "*" : " ");
			if (s == S_SYNC)
				snprintf(fl, sizeof(fl), "%6.1f", x->flush_ms);
			else
				snprintf(fl, sizeof(fl), "%6s", "-");
			printf("%-11s %-10s | %6.0f %6s | %7.2f %5.2fx | %7s %5.2fx %6.2f %6s | "
			       "%-26s %6.2f | %4.0f%% | %s%s\n", kind_names[k],
			       setup_names[s], x->apply_ns, fl, x->max_rate / 1e6, ref->max_rate > 0 ?
			       x->max_rate / ref->max_rate : 0, best, ref->best > 0 ?
			       x->best / ref->best : 0, x->best_tick_ms, bshare, ff,
			       x->fail_tick_ms, x->other_load, recs,
			       x->ok ? "" : "  WRONG");
		}
	/* no runs to spread over: a ladder, and a best of 3 batches */
	for (k = 0; k < NKINDS; k++)
		for (s = 0; s < NSETUPS; s++) {
			const struct result *x = &res[k][s], *ref = &res[k][S_TABLES];
			/* the tables-only set-up is the reference, not its own */
			const int vs = s != S_TABLES && ref->ran;
			char name[80], rn[48];

			if (!x->ran)
				continue;
			snprintf(name, sizeof(name), "%s, %s: apply cost",
				 kind_names[k], setup_names[s]);
			bench_result("tables-lcore", name, x->apply_ns, "ns/event", NULL,
				     NAN, NAN, NAN);
			if (cost_only)
				continue;
			snprintf(rn, sizeof(rn), "%s, %s", kind_names[k],
				 setup_names[S_TABLES]);
			snprintf(name, sizeof(name), "%s, %s: zero-loss rate%s",
				 kind_names[k], setup_names[s], vs ? " (vs tables)" : "");
			bench_result("tables-lcore", name, x->best / 1e6, "M events/s",
				     vs ? rn : NULL, vs ? ref->best / 1e6 : NAN,
				     vs ? x->best / ref->best : NAN, NAN);
			snprintf(name, sizeof(name), "%s, %s: max rate%s",
				 kind_names[k], setup_names[s], vs ? " (vs tables)" : "");
			bench_result("tables-lcore", name, x->max_rate / 1e6,
				     "M events/s", vs ? rn : NULL,
				     vs ? ref->max_rate / 1e6 : NAN,
				     vs ? x->max_rate / ref->max_rate : NAN, NAN);
		}
	printf("ns/ev: the tables lcore's apply alone per event, one thread, no ring (best "
	       "of 3 batches of %d). flush:\nms of the one engine tick that encodes "
	       "what such a batch changed (no peer up).\n", MICRO);
	printf("max: the consumer's rate when the producer waits for room (nothing "
	       "lost by construction). 0-loss:\nthe highest rate of the ladder "
	       "(0.5 1 2 3 4 5 6 8 10 12 15 20 M/s) at which a paced 100 ms trial "
	       "lost\nnothing, up to %d attempts a rate (* = the producer itself fell "
	       "behind its schedule there).\nvs tbl: against the tables-only set-up "
	       "measured in the same run, the reference. tick: the longest\nsync "
	       "poll (engine tick, datagrams in and out) in ms, at the 0-loss rate "
	       "and at the first rate with\nloss: a tick longer than the ring holds "
	       "(8191 events = %.1f ms at 5 M/s) loses events by itself.\nB time: "
	       "share of the consumer's time spent in node B (the peer) at the "
	       "0-loss rate. (dist.): every\nattempt at that rate was disturbed by the "
	       "scheduler (the producer ran > 1 ms late or a 100 us sleep\ntook > 1 "
	       "ms). other: CPU used by other processes on this machine during the "
	       "case, in %% of all\nCPUs (the rates move with it). A's sync records: "
	       "over the whole case (all trials).\n", MAX_ATTEMPTS,
	       8191.0 / 5e6 * 1e3);
	printf("\nAn event: new flows = one FLOW_FIRST that creates a flow entry; "
	       "known flows = one FLOW_FIRST for a\nflow already there (a lookup, "
	       "no change); logins = one fabric login FLOGI or its LS_ACC, two rebinding a "
	       "port.\n\n");
	for (k = 0; k < NKINDS; k++)
		for (s = S_SYNC; s < NSETUPS; s++) {
			const struct result *x = &res[k][s];

			if (!x->ran && !x->crashed)
				continue;
			if (x->crashed) {
				printf("target: %-11s %-10s >= %.0f M events/s with zero "
				       "loss: crashed  MISS\n", kind_names[k],
				       setup_names[s], TARGET_MEPS);
				continue;
			}
			printf("target: %-11s %-10s >= %.0f M events/s with zero loss: "
			       "%.1f  %s\n", kind_names[k], setup_names[s], TARGET_MEPS,
			       x->best / 1e6, x->best >= TARGET_MEPS * 1e6 ? "PASS" :
			       "MISS");
		}
	/* Rates never fail a benchmark: only wrong results and crashes do. */
	return rc;
}
