/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sync-resync-bench: a bulk resync of 1M flows between two nodes over real
 * UDP sockets on 127.0.0.1 (docs/sync.md, "Bulk resync": paced by the peer's
 * acknowledgements).
 *
 * Two sync engines (lib/sync/fcr_sync.c, unchanged) in one process, each with
 * its own tables, its own UDP socket bound on 127.0.0.1 and its own lcore:
 * node A on lcore 1, node B on the main lcore. Each runs the loop the
 * program's tables lcore runs (app/tables_lcore.c fcr_tables_lcore_main and
 * app/sync_io.c fcr_sync_io_poll, copied because they keep one engine per
 * process): receive up to 256 datagrams with recvfrom and hand them to
 * fcr_sync_input, tick the engine when the millisecond changes, and sleep
 * 100 us when no worker event came (there are none here). Sockets as the
 * program sets them: non-blocking, 8 MB buffers asked for, sendto with
 * MSG_DONTWAIT whose failures are losses the engine recovers from.
 * --busy drops the 100 us sleep.
 *
 * Node A holds --flows flows (default 1,000,000: first-frame events applied
 * with fcr_tables_event, as the tables lcore does, each with traffic counters:
 * 1..100,000 frames of 64..2112 bytes, first frame up to an hour ago) plus
 * configuration: 64 routes, 1,000 redirects with their 4,000 static
 * bindings (so 4,000 more flow entries, the redirects' rules), and 10,000
 * learned bindings. Node B starts empty, as after a restart. Two scenarios,
 * each in a child process (so that a node that crashes is reported and the
 * other scenario still runs):
 *   active  every flow's last frame within the idle timeout: the engine's
 *           refresh of active flows (each flow once per 5 s) runs during the
 *           resync, and its updates are counted with the bulk
 *   idle    every flow idle (last frame a minute ago), and A's rescan has
 *           passed over all of them once before B starts: the resync alone
 * Measured from the creation of B's engine until B says it is ready (its
 * bulk resync is complete) and holds as many flows as A; bytes are every
 * datagram either engine sent in that time (A's bulk, its updates and
 * hellos, B's acks and hellos), as UDP payload, and with the IPv4 and UDP
 * headers (28 bytes a datagram). Repeated --runs times per scenario
 * (default 3; B restarts each time with a new boot id, A keeps its
 * tables); medians are reported.
 *
 * The reference, measured in the same run: B's own work for the same
 * datagrams without the network. Every datagram A sent during the first
 * resync is captured and replayed, in order, into a fresh node B' with
 * fcr_sync_input in a tight loop (authentication, decoding, applying):
 * the resync's time over this is what pacing, acknowledgements, sockets
 * and sleeping cost.
 *
 * Correctness first: after each resync B must hold every flow of A with
 * A's counters, and the same routes, bound names, redirects and active
 * redirects; B must not say it is ready before it holds all of A's flows
 * (a node still resyncing does not claim to be ready); B' must end the same.
 * Exit status: 0 when all results are correct, whatever the timings; 1 on
 * a wrong result or a crash; 2 on a usage or set-up error.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <getopt.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_launch.h>
#include <rte_lcore.h>

#include "bench_util.h"
#include "fcr_change.h"
#include "fcr_sync.h"
#include "fcr_tables.h"

#define MTU 1400
#define NB_ROUTES 64
#define NB_REDIRECTS 1000
#define NB_LEARNED 10000
#define TIMEOUT_MS 120000
#define MAX_CAPTURE (1u << 18)

struct unode {
	const char *name;
	int sock;
	uint16_t port;
	struct fcr_tables *t;
	struct fcr_sync *s;
	uint64_t last_tick_ms;
	/* what sendto accepted, and what it refused */
	uint64_t wire_bytes, wire_dgrams, send_fail;
	/* A: a copy of every datagram sent, for the replay */
	int capture;
	uint8_t (*cap)[MTU];
	uint16_t *cap_len;
	uint32_t nb_cap;
	uint32_t cap_lost;
};

static struct unode na = { .name = "A" }, nb = { .name = "B" };
static uint8_t key[FCR_SYNC_KEY_LEN];
static int busy;
static volatile int a_stop;

static uint64_t
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* app/sync_io.c send_udp, counting */
static void
send_udp(void *ctx, const struct fcr_sync_addr *to, const uint8_t *p, size_t len)
{
	struct unode *u = ctx;
	struct sockaddr_in sa = {
		.sin_family = AF_INET,
		.sin_port = htons(to->port),
		.sin_addr.s_addr = htonl(to->ip),
	};

	if (sendto(u->sock, p, len, MSG_DONTWAIT, (struct sockaddr *)&sa,
		   sizeof(sa)) == (ssize_t)len) {
		u->wire_bytes += len;
		u->wire_dgrams++;
	} else {
		u->send_fail++;
	}
	if (u->capture) {
		if (u->nb_cap < MAX_CAPTURE && len <= MTU) {
			memcpy(u->cap[u->nb_cap], p, len);
			u->cap_len[u->nb_cap++] = (uint16_t)len;
		} else {
			u->cap_lost++;
		}
	}
}

static int
open_socket(struct unode *u)
{
	struct sockaddr_in sa = {
		.sin_family = AF_INET,
		.sin_port = 0,
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	socklen_t sl = sizeof(sa);
	int buf = 8 << 20;

	u->sock = socket(AF_INET, SOCK_DGRAM, 0);
	if (u->sock < 0 || bind(u->sock, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    getsockname(u->sock, (struct sockaddr *)&sa, &sl) < 0) {
		fprintf(stderr, "cannot open a UDP socket on 127.0.0.1: %s\n",
			strerror(errno));
		return -1;
	}
	setsockopt(u->sock, SOL_SOCKET, SO_RCVBUF, &buf, sizeof(buf));
	setsockopt(u->sock, SOL_SOCKET, SO_SNDBUF, &buf, sizeof(buf));
	fcntl(u->sock, F_SETFL, O_NONBLOCK);
	u->port = ntohs(sa.sin_port);
	return 0;
}

static void
drain_socket(struct unode *u)
{
	uint8_t buf[4096];

	while (recv(u->sock, buf, sizeof(buf), 0) >= 0)
		;
}

/* B's random bits (its boot id, its challenges) from a seed, so that B' in
 * the replay draws what B drew in the first resync: A's datagrams then
 * prove themselves to B' as they did to B (they echo its challenge). */
static uint64_t rng_state;
#define RESYNC_SEED 0x5EED0000F00Dull /* run r's B: RESYNC_SEED + r */

static uint64_t
seeded_random64(void)
{
	uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull); /* splitmix64 */

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

/* seed: 0 for libsodium's random bits, else seeded_random64 from it */
static int
node_engine(struct unode *u, const struct unode *peer, uint64_t seed)
{
	struct fcr_sync_params p;
	struct fcr_sync_addr a = { .ip = INADDR_LOOPBACK, .port = peer->port };

	memset(&p, 0, sizeof(p));
	memcpy(p.key, key, sizeof(key));
	p.mtu = MTU;
	p.window_ms = 50;
	p.tsc_hz = rte_get_tsc_hz();
	p.send = send_udp;
	p.send_ctx = u;
	if (seed != 0) {
		rng_state = seed;
		p.random64 = seeded_random64;
	}
	u->last_tick_ms = now_ms();
	u->s = fcr_sync_create(&p, u->t, u->last_tick_ms);
	if (u->s == NULL || fcr_sync_peer_add(u->s, &a) < 0)
		return -1;
	return 0;
}

/* app/sync_io.c fcr_sync_io_poll */
static void
poll_node(struct unode *u)
{
	uint8_t buf[4096];
	struct sockaddr_in from;
	socklen_t fl;
	uint64_t ms = now_ms();
	ssize_t n;
	int i;

	for (i = 0; i < 256; i++) {
		struct fcr_sync_addr a;

		fl = sizeof(from);
		n = recvfrom(u->sock, buf, sizeof(buf), 0, (struct sockaddr *)&from, &fl);
		if (n < 0)
			break;
		a.ip = ntohl(from.sin_addr.s_addr);
		a.port = ntohs(from.sin_port);
		fcr_sync_input(u->s, &a, buf, (size_t)n, ms, rte_rdtsc());
	}
	if (ms != u->last_tick_ms) {
		u->last_tick_ms = ms;
		fcr_sync_tick(u->s, ms, rte_rdtsc());
	}
}

/* app/tables_lcore.c fcr_tables_lcore_main, without events or commands */
static int
a_main(void *arg)
{
	(void)arg;
	while (!a_stop) {
		poll_node(&na);
		if (!busy)
			usleep(100);
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* node A's state */

#define HOST(i) (0x2100000000000000ull | (i))
#define TGT(i) (0x5000000000000000ull | (i))
#define VI(i) (0x2f01000000000000ull | (i))
#define VT(i) (0x2f02000000000000ull | (i))

static int
fill_a(struct fcr_tables *t, uint32_t nflows, struct bench_rng *rng)
{
	uint64_t hz = rte_get_tsc_hz(), now = rte_rdtsc();
	uint8_t mac[6] = { 0x02, 0, 0, 0, 0, 0 };
	struct fcr_event ev;
	uint32_t i;

	for (i = 0; i < NB_ROUTES; i++) {
		mac[5] = (uint8_t)i;
		if (fcr_route_add(t->routes, FCR_VLAN_ANY, (i + 1) << 16, 16, (uint16_t)(i % 4),
				  i % 2 ? mac : NULL) < 0)
			return -1;
	}
	for (i = 0; i < NB_REDIRECTS; i++) {
		if (fcr_tables_binding_add(t, 10, HOST(i), 0x010000 | i, FCR_BIND_STATIC) ||
		    fcr_tables_binding_add(t, 10, TGT(i), 0x410000 | i, FCR_BIND_STATIC) ||
		    fcr_tables_binding_add(t, 10, VI(i), 0x810000 | i, FCR_BIND_STATIC) ||
		    fcr_tables_binding_add(t, 10, VT(i), 0x820000 | i, FCR_BIND_STATIC) ||
		    fcr_redirect_add(t->redirects, 10, HOST(i), TGT(i), VI(i), VT(i)) < 0)
			return -1;
	}
	for (i = 0; i < NB_LEARNED; i++)
		if (fcr_tables_binding_add(t, 20, 0x1000000000000000ull | i,
					   0x200000 | i, FCR_BIND_LEARNED))
			return -1;
	for (i = 0; i < nflows; i++) {
		struct fcr_flow_counters *c;
		uint64_t frames;
		int idx;

		/* VLAN 30..45, S_ID 0x30xxxx, D_ID 0x60xxxx: all distinct */
		fcr_event_flow(&ev, fcr_flow_key((uint16_t)(30 + (i & 15)),
						 0x300000 | (i >> 4 & 0xFFFF),
						 0x600000 | (i >> 20)));
		fcr_tables_event(t, &ev);
		idx = fcr_flow_find(t->flows, ev.flow_key);
		if (idx < 0)
			return -1;
		c = &t->flows->counters[0][idx];
		frames = 1 + bench_rand_below(rng, 100000);
		c->frames = frames;
		c->bytes = frames * (64 + bench_rand_below(rng, 2049));
		c->first_tsc = now - hz * bench_rand_below(rng, 3600);
		c->last_tsc = now - hz * bench_rand_below(rng, 20) - 1;
	}
	return t->flows->count == nflows + FCR_REDIRECT_KEYS * NB_REDIRECTS ? 0 : -1;
}

static struct fcr_tables *
tables(const char *name, uint32_t nflows, int sock)
{
	struct fcr_tables_params tp = {
		.max_flows = nflows + fcr_redirect_reserve(NB_REDIRECTS + 64),
		.max_routes = 4096,
		.max_bindings = 4 * NB_REDIRECTS + NB_LEARNED + 1024,
		.max_redirects = NB_REDIRECTS + 64,
		.nb_workers = 1,
		.socket = sock,
	};
	struct fcr_tables *t = fcr_tables_create(name, &tp);

	if (t == NULL || fcr_tables_attach_log(t, sock) < 0)
		return NULL;
	return t;
}

/* b holds a's flows with a's counters, and a's configuration. */
static int
same_state(const struct fcr_tables *a, const struct fcr_tables *b, const char *what)
{
	const struct fcr_flow_table *fa = a->flows, *fb = b->flows;
	uint32_t it = 0, bad = 0, n = 0;
	int ia;

	while ((ia = fcr_flow_next(fa, &it)) >= 0) {
		struct fcr_flow_counters c;
		int ib = fcr_flow_find(fb, fa->key[ia]);

		n++;
		fcr_flow_counters_sum(fa, (uint32_t)ia, &c);
		if (ib >= 0 && fb->remote[ib].frames == fa->remote[ia].frames + c.frames &&
		    fb->remote[ib].bytes == fa->remote[ia].bytes + c.bytes)
			continue;
		if (bad++ < 3)
			fprintf(stderr, "FAIL: %s: flow %016" PRIx64 " %s\n", what,
				fa->key[ia], ib < 0 ? "missing" : "with other counters");
	}
	if (bad || fb->count != fa->count || b->routes->nb_routes != a->routes->nb_routes ||
	    b->bindings->nb_bound != a->bindings->nb_bound ||
	    b->redirects->count != a->redirects->count ||
	    b->redirects->nb_active != a->redirects->nb_active) {
		fprintf(stderr, "FAIL: %s: %u of %u flows wrong; flows %u/%u, routes "
			"%u/%u, bound names %u/%u, redirects %u/%u, active %u/%u "
			"(B/A)\n", what, bad, n, fb->count, fa->count,
			b->routes->nb_routes, a->routes->nb_routes,
			b->bindings->nb_bound, a->bindings->nb_bound, b->redirects->count,
			a->redirects->count, b->redirects->nb_active,
			a->redirects->nb_active);
		return -1;
	}
	return 0;
}

struct run {
	double t_ready, t_all, t_done;  /* s after B's engine was created */
	uint64_t bytes, dgrams;         /* both directions, as handed to sendto */
	uint64_t bytes_a, dgrams_a, bytes_b, dgrams_b;
	uint64_t send_fail;
	uint64_t records_a, retransmits_a, bulk_a;
	int ready_early;                /* ready before holding all flows */
	int ok;
};

static int
one_resync(unsigned int r, uint32_t nflows, int sock, struct run *res)
{
	const struct fcr_sync_stats *sa = fcr_sync_stats(na.s);
	uint64_t wb_a, wd_a, wb_b = 0, wd_b = 0, fail0, rec0, retx0, bulk0;
	double t0, t;
	char name[32];
	int done = 0;

	memset(res, 0, sizeof(*res));
	snprintf(name, sizeof(name), "rsB%u", r);
	nb.t = tables(name, nflows, sock);
	if (nb.t == NULL)
		return 2;
	nb.wire_bytes = nb.wire_dgrams = nb.send_fail = 0;
	drain_socket(&nb); /* B starts afresh: nothing waiting for it */
	a_stop = 0;
	if (rte_eal_remote_launch(a_main, NULL, rte_get_next_lcore(-1, 1, 0)) != 0)
		return 2;
	/* A's counters are read while A runs: whole 64-bit loads, and only
	 * differences matter */
	wb_a = __atomic_load_n(&na.wire_bytes, __ATOMIC_RELAXED);
	wd_a = __atomic_load_n(&na.wire_dgrams, __ATOMIC_RELAXED);
	fail0 = __atomic_load_n(&na.send_fail, __ATOMIC_RELAXED);
	rec0 = sa->records_sent;
	retx0 = sa->retransmits;
	bulk0 = sa->bulk_sent;
	na.capture = r == 0;
	t0 = now_s();
	if (node_engine(&nb, &na, RESYNC_SEED + r) < 0)
		return 2;
	while (!done) {
		int ready, all;

		poll_node(&nb);
		ready = fcr_sync_ready(nb.s);
		all = nb.t->flows->count >= na.t->flows->count;
		t = now_s() - t0;
		if (ready && res->t_ready == 0) {
			res->t_ready = t;
			res->ready_early = !all;
		}
		if (all && res->t_all == 0)
			res->t_all = t;
		if (ready && all) {
			res->t_done = t;
			done = 1;
		} else if (t * 1000 > TIMEOUT_MS) {
			break;
		} else if (!busy) {
			usleep(100);
		}
	}
	res->bytes_a = __atomic_load_n(&na.wire_bytes, __ATOMIC_RELAXED) - wb_a;
	res->dgrams_a = __atomic_load_n(&na.wire_dgrams, __ATOMIC_RELAXED) - wd_a;
	res->bytes_b = nb.wire_bytes - wb_b;
	res->dgrams_b = nb.wire_dgrams - wd_b;
	a_stop = 1;
	rte_eal_wait_lcore(rte_get_next_lcore(-1, 1, 0));
	na.capture = 0;
	res->send_fail = na.send_fail - fail0 + nb.send_fail;
	res->records_a = sa->records_sent - rec0;
	res->retransmits_a = sa->retransmits - retx0;
	res->bulk_a = sa->bulk_sent - bulk0;
	res->bytes = res->bytes_a + res->bytes_b;
	res->dgrams = res->dgrams_a + res->dgrams_b;
	snprintf(name, sizeof(name), "resync %u", r + 1);
	res->ok = done && !res->ready_early && same_state(na.t, nb.t, name) == 0;
	if (!done)
		fprintf(stderr, "FAIL: %s: B not ready with all flows after %d s "
			"(ready %d, %u of %u flows)\n", name, TIMEOUT_MS / 1000,
			fcr_sync_ready(nb.s), nb.t->flows->count, na.t->flows->count);
	if (res->ready_early)
		fprintf(stderr, "FAIL: %s: B said it was ready at %.3f s holding %u "
			"of %u flows\n", name, res->t_ready, nb.t->flows->count,
			na.t->flows->count);
	fcr_sync_free(nb.s);
	fcr_tables_free(nb.t);
	nb.s = NULL;
	nb.t = NULL;
	return res->ok ? 0 : 1;
}

/* The reference: B's work for the captured datagrams, from memory. */
static int
replay(uint32_t nflows, int sock, double *secs)
{
	struct unode b2 = { .name = "B'" };
	struct fcr_sync_addr from = { .ip = INADDR_LOOPBACK, .port = na.port };
	uint64_t ms = now_ms();
	double t0;
	uint32_t i;
	int ok;

	b2.sock = -1;
	b2.port = nb.port;
	b2.t = tables("rsB2", nflows, sock);
	if (b2.t == NULL || node_engine(&b2, &na, RESYNC_SEED) < 0)
		return 2; /* the first resync's B, again */
	/* B' sends nothing that matters: its datagrams go nowhere */
	t0 = now_s();
	for (i = 0; i < na.nb_cap; i++)
		fcr_sync_input(b2.s, &from, na.cap[i], na.cap_len[i], ms, rte_rdtsc());
	*secs = now_s() - t0;
	ok = fcr_sync_ready(b2.s) && same_state(na.t, b2.t, "replay") == 0;
	if (!fcr_sync_ready(b2.s))
		fprintf(stderr, "FAIL: replay: B' not ready after the %u datagrams\n",
			na.nb_cap);
	fcr_sync_free(b2.s);
	fcr_tables_free(b2.t);
	return ok ? 0 : 1;
}

static void
usage(FILE *f, const char *prog)
{
	fprintf(f,
		"usage: %s [--flows N] [--runs N] [--busy] [--no-thp]\n"
		"  --flows N  flows on node A (default 1000000)\n"
		"  --runs N   resyncs, B restarted each time (default 3)\n"
		"  --busy     poll without the tables lcore loop's 100 us sleep\n"
		"  --no-thp   tables on the EAL's 4 KB pages\n", prog);
}

static int
cmp_run(const void *x, const void *y)
{
	double a = ((const struct run *)x)->t_done, b = ((const struct run *)y)->t_done;

	return (a > b) - (a < b);
}

struct summary {
	int ran;
	int ok;
	int crashed;
	double t_done;     /* median */
	double bytes_flow; /* median run's */
	double bytes_flow_ip;
	double replay_s;
	double spread;     /* of t_done over the runs */
	uint32_t flows;
};

static const char *const scen_names[2] = {
	"active flows: every flow's last frame within the idle timeout, so the "
	"engine's 5 s refresh\nof active flows runs during the resync and its "
	"updates are counted",
	"idle flows: every flow idle (last frame 60 s ago) and A's rescan has "
	"passed over all of them\nonce before B starts: the resync alone",
};

/* One scenario in a child process (a crash of an engine is reported, and
 * the other scenario still runs). Prints its table; the summary goes to
 * fd. */
static int
run_scenario(int idle, unsigned long nflows, unsigned long nruns, int thp, int fd)
{
	static struct run runs[BENCH_MAX_RUNS];
	double t_done[BENCH_MAX_RUNS];
	struct bench_rng rng = { 0x9E3779B97F4A7C15ull };
	struct summary sum;
	int rc = 0, sock, x;
	double replay_s = 0, t_fill, t;
	const struct run *med;
	unsigned int r;
	uint32_t total;

	memset(&sum, 0, sizeof(sum));
	if (bench_eal_init("sync-resync-bench", 512, "0,1") < 0)
		return 2;
	if (rte_lcore_count() < 2) {
		fprintf(stderr, "two lcores needed\n");
		return 2;
	}
	sock = bench_memory_socket("sync-resync-bench", 4096, thp);
	memcpy(key, "sync-resync-bench shared key....", FCR_SYNC_KEY_LEN);
	na.cap = malloc(sizeof(*na.cap) * MAX_CAPTURE);
	na.cap_len = malloc(sizeof(*na.cap_len) * MAX_CAPTURE);
	if (na.cap == NULL || na.cap_len == NULL || open_socket(&na) < 0 ||
	    open_socket(&nb) < 0)
		return 2;
	na.t = tables("rsA", (uint32_t)nflows, sock);
	if (na.t == NULL || node_engine(&na, &nb, 0) < 0) {
		fprintf(stderr, "cannot create node A: %s\n", rte_strerror(rte_errno));
		return 2;
	}
	t_fill = now_s();
	if (fill_a(na.t, (uint32_t)nflows, &rng) < 0) {
		fprintf(stderr, "FAIL: node A's tables could not be filled\n");
		return 1;
	}
	t_fill = now_s() - t_fill;
	total = na.t->flows->count;
	if (idle) {
		/* every flow's last frame a minute ago, and a whole pass of A's
		 * rescan (5 s) to note them idle once */
		uint64_t old = rte_rdtsc() - 60 * rte_get_tsc_hz();
		uint32_t it = 0;
		int i;

		while ((i = fcr_flow_next(na.t->flows, &it)) >= 0)
			if (na.t->flows->counters[0][i].frames)
				na.t->flows->counters[0][i].last_tsc = old;
		t = now_s();
		while (now_s() - t < 5.3) {
			poll_node(&na);
			usleep(100);
		}
	}
	/* A's first windows: its own changes noted and flushed to nobody */
	t = now_s();
	while (now_s() - t < 0.2)
		poll_node(&na);
	for (r = 0; r < nruns; r++) {
		x = one_resync(r, (uint32_t)nflows, sock, &runs[r]);
		if (x == 2)
			return 2;
		if (x)
			rc = 1;
	}
	if (na.cap_lost) {
		fprintf(stderr, "note: %u datagrams not captured; no replay\n", na.cap_lost);
	} else {
		x = replay((uint32_t)nflows, sock, &replay_s);
		if (x == 2)
			return 2;
		if (x)
			rc = 1;
	}

	printf("\n%s\n", scen_names[idle]);
	printf("A holds %u flows (%lu learned from first frames, %u redirect entries: rules and hidden pairs), "
	       "%u routes, %u bound names,\n%u redirects (A filled in %.2f s)\n",
	       total, nflows, FCR_REDIRECT_KEYS * NB_REDIRECTS, na.t->routes->nb_routes,
	       na.t->bindings->nb_bound, na.t->redirects->count, t_fill);
	printf("%-4s %8s %8s %8s | %10s %7s %9s %8s | %9s %7s %7s %5s %6s\n", "run",
	       "ready s", "all s", "done s", "bytes", "dgrams", "B/flow", "+IP/UDP",
	       "A records", "A retx", "B dgrams", "bulks", "lost");
	for (r = 0; r < nruns; r++) {
		const struct run *x1 = &runs[r];

		printf("%-4u %8.3f %8.3f %8.3f | %10" PRIu64 " %7" PRIu64 " %9.2f %8.2f"
		       " | %9" PRIu64 " %7" PRIu64 " %7" PRIu64 " %5" PRIu64 " %6" PRIu64
		       "%s\n", r + 1, x1->t_ready, x1->t_all, x1->t_done, x1->bytes,
		       x1->dgrams, (double)x1->bytes / total,
		       (double)(x1->bytes + 28 * x1->dgrams) / total, x1->records_a,
		       x1->retransmits_a, x1->dgrams_b, x1->bulk_a, x1->send_fail,
		       x1->ok ? "" : "  WRONG");
	}
	qsort(runs, nruns, sizeof(runs[0]), cmp_run);
	med = &runs[nruns / 2];
	if (replay_s > 0)
		printf("reference: B's own work for the %u datagrams of resync 1 "
		       "replayed from memory into a fresh node\n(fcr_sync_input in a "
		       "loop): %.3f s, %.0f flows/s; the resync (median) takes %.1fx "
		       "that\n", na.nb_cap, replay_s, total / replay_s,
		       med->t_done / replay_s);
	printf("median of %lu: %.3f s to a ready B holding all %u flows, %.0f "
	       "flows/s, %.2f bytes per flow\n", nruns, med->t_done, total,
	       total / med->t_done, (double)med->bytes / total);
	fflush(stdout);
	sum.ran = 1;
	sum.ok = rc == 0;
	sum.t_done = med->t_done;
	sum.bytes_flow = (double)med->bytes / total;
	sum.bytes_flow_ip = (double)(med->bytes + 28 * med->dgrams) / total;
	sum.replay_s = replay_s;
	for (r = 0; r < nruns; r++)
		t_done[r] = runs[r].t_done; /* sorted by cmp_run */
	sum.spread = bench_spread(t_done, (unsigned int)nruns, med->t_done);
	sum.flows = total;
	if (write(fd, &sum, sizeof(sum)) != (ssize_t)sizeof(sum))
		return 2;
	return rc;
}

int
main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "flows", required_argument, NULL, 'f' },
		{ "runs", required_argument, NULL, 'r' },
		{ "busy", no_argument, NULL, 'b' },
		{ "no-thp", no_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long nflows = 1000000, nruns = 3;
	struct summary sum[2];
	int opt, thp = 1, rc = 0, sc;

	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (opt) {
		case 'f':
			if (bench_parse_ul("--flows", optarg, 1000, 1ul << 24, &nflows))
				return 2;
			break;
		case 'r':
			if (bench_parse_ul("--runs", optarg, 1, BENCH_MAX_RUNS, &nruns))
				return 2;
			break;
		case 'b':
			busy = 1;
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
	printf("Bulk resync of node B (restarted, empty) from node A over UDP on "
	       "127.0.0.1, one lcore each, the\nprogram's tables lcore loop (%s); window "
	       "50 ms, MTU %u; %lu resyncs a scenario, B restarted each time.\n"
	       "ready: B says its resync is complete; all: B holds as many flows as "
	       "A; done: both. bytes: UDP\npayload both ways (A's bulk, updates and "
	       "hellos; B's acks and hellos); +IP/UDP: with 28 bytes of headers\na "
	       "datagram. A records: records A sent (bulk and updates). lost: "
	       "sendto refusals.\n",
	       busy ? "busy polling: --busy" : "100 us sleep between polls", MTU,
	       nruns);
	memset(sum, 0, sizeof(sum));
	for (sc = 0; sc < 2; sc++) {
		int fds[2], st = 0;
		pid_t pid;
		ssize_t got;

		fflush(stdout);
		if (pipe(fds) != 0)
			return 2;
		pid = fork();
		if (pid < 0)
			return 2;
		if (pid == 0) {
			int x;

			close(fds[0]);
			x = run_scenario(sc, nflows, nruns, thp, fds[1]);
			fflush(stdout);
			exit(x);
		}
		close(fds[1]);
		got = read(fds[0], &sum[sc], sizeof(sum[sc]));
		close(fds[0]);
		if (waitpid(pid, &st, 0) < 0)
			return 2;
		if (WIFSIGNALED(st)) {
			memset(&sum[sc], 0, sizeof(sum[sc]));
			sum[sc].crashed = WTERMSIG(st);
			printf("\n%s\nCRASHED: the process died of signal %d (%s)\n",
			       scen_names[sc], sum[sc].crashed, strsignal(sum[sc].crashed));
			fprintf(stderr, "FAIL: %s scenario: a node crashed (signal %d, "
				"%s)\n", sc ? "idle" : "active", sum[sc].crashed,
				strsignal(sum[sc].crashed));
			rc = 1;
			continue;
		}
		if (!WIFEXITED(st) || WEXITSTATUS(st) == 2 ||
		    got != (ssize_t)sizeof(sum[sc])) {
			fprintf(stderr, "set-up error\n");
			return 2;
		}
		if (WEXITSTATUS(st) != 0)
			rc = 1;
	}
	printf("\n");
	for (sc = 0; sc < 2; sc++) {
		const struct summary *x = &sum[sc];
		const char *name = sc ? "idle flows" : "active flows";

		if (!x->ran) {
			printf("target: %-12s resync under 10 s, under 40 bytes per flow: "
			       "crashed  MISS\n", name);
			continue;
		}
		printf("target: %-12s resync of %u flows under 10 s: %.3f s  %s\n", name,
		       x->flows, x->t_done, x->t_done < 10 ? "PASS" : "MISS");
		printf("target: %-12s under 40 bytes per flow (UDP payload): %.2f  %s"
		       "  (with IPv4/UDP headers: %.2f)\n", name, x->bytes_flow,
		       x->bytes_flow < 40 ? "PASS" : "MISS", x->bytes_flow_ip);
	}
	for (sc = 0; sc < 2; sc++) {
		const struct summary *x = &sum[sc];
		char fl[32], name[96];

		if (!x->ran)
			continue;
		if (nflows % 1000000 == 0)
			snprintf(fl, sizeof(fl), "%luM flows", nflows / 1000000);
		else if (nflows % 1000 == 0)
			snprintf(fl, sizeof(fl), "%luK flows", nflows / 1000);
		else
			snprintf(fl, sizeof(fl), "%lu flows", nflows);
		snprintf(name, sizeof(name), "%s, %s: resync time (resync / replay)",
			 fl, sc ? "idle" : "active");
		bench_result("sync-resync", name, x->t_done, "s",
			     x->replay_s > 0 ? "replay into a fresh node, no network" :
			     NULL, x->replay_s > 0 ? x->replay_s : NAN,
			     x->replay_s > 0 ? x->t_done / x->replay_s : NAN, x->spread);
		/* bytes are the median run's: no spread of their own */
		snprintf(name, sizeof(name), "%s, %s: bytes per flow (UDP payload)",
			 fl, sc ? "idle" : "active");
		bench_result("sync-resync", name, x->bytes_flow, "B/flow", NULL, NAN,
			     NAN, NAN);
		snprintf(name, sizeof(name), "%s, %s: bytes per flow (with IPv4/UDP "
			 "headers)", fl, sc ? "idle" : "active");
		bench_result("sync-resync", name, x->bytes_flow_ip, "B/flow", NULL,
			     NAN, NAN, NAN);
	}
	/* Timings never fail a benchmark: only wrong results and crashes do. */
	return rc;
}
