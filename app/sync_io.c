/* SPDX-License-Identifier: BSD-3-Clause */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sodium.h>

#include <rte_cycles.h>

#include "commands.h"
#include "fcr_change.h"
#include "fcr_sync.h"
#include "fcr_tables.h"
#include "fwd.h"
#include "log.h"
#include "sync_io.h"

static int sock = -1;
static struct fcr_sync *engine;
static uint64_t last_tick_ms;
static uint32_t mtu;
/* what the log last said about each peer and about this node */
static struct fcr_sync_peer_info peer_was[FCR_SYNC_MAX_PEERS];
static int ready_was;
static uint64_t drops_was[FCR_SD_COUNT], ahead_was, watch_ms;

static void
send_udp(void *ctx, const struct fcr_sync_addr *to, const uint8_t *p, size_t len)
{
	struct sockaddr_in sa = {
		.sin_family = AF_INET,
		.sin_port = htons(to->port),
		.sin_addr.s_addr = htonl(to->ip),
	};

	(void)ctx;
	/* a full socket buffer is a loss like any other: the engine resends */
	(void)sendto(sock, p, len, MSG_DONTWAIT, (struct sockaddr *)&sa, sizeof(sa));
}

/* Any secret of 16 bytes or more, whole; the key is its BLAKE2b hash. */
static int
load_key(const char *path, uint8_t key[FCR_SYNC_KEY_LEN])
{
	crypto_generichash_state st;
	uint8_t buf[4096];
	size_t total = 0;
	ssize_t n;
	int fd = open(path, O_RDONLY);

	const char *why = NULL;
	struct stat sb;

	if (fd < 0) {
		FCR_LOG(ERR, sync, "--sync-key-file: cannot open %s: %s", path,
			strerror(errno));
		return -1;
	}
	/* a secret others can read is no secret: refused, as sshd refuses a
	 * private key others can read */
	if (fstat(fd, &sb) < 0 || !S_ISREG(sb.st_mode))
		why = "not a regular file";
	else if ((sb.st_mode & 077) != 0)
		why = "open to its group or others";
	if (why != NULL) {
		FCR_LOG(ERR, sync, "--sync-key-file: %s is %s: the shared secret must be a "
			"file only its owner can read (chmod 600 %s)", path, why, path);
		close(fd);
		return -1;
	}
	crypto_generichash_init(&st, NULL, 0, FCR_SYNC_KEY_LEN);
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		crypto_generichash_update(&st, buf, (size_t)n);
		total += (size_t)n;
	}
	close(fd);
	sodium_memzero(buf, sizeof(buf));
	if (n < 0 || total < 16) {
		FCR_LOG(ERR, sync, "--sync-key-file: %s holds %zu bytes; the shared "
			"secret needs at least 16", path, total);
		return -1;
	}
	crypto_generichash_final(&st, key, FCR_SYNC_KEY_LEN);
	sodium_memzero(&st, sizeof(st));
	return 0;
}

int
fcr_sync_io_init(const struct fcr_sync_conf *c, struct fcr_tables *t)
{
	struct fcr_sync_params p;
	struct sockaddr_in sa = {
		.sin_family = AF_INET,
		.sin_port = htons(c->bind_port),
		.sin_addr.s_addr = htonl(c->bind_ip),
	};
	int rcvbuf = 8 << 20;
	unsigned int i;

	if (!c->enabled)
		return 0;
	memset(&p, 0, sizeof(p));
	if (sodium_init() < 0 || load_key(c->key_file, p.key) < 0)
		return -1;
	sock = socket(AF_INET, SOCK_DGRAM, 0);
	if (sock < 0 || bind(sock, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		FCR_LOG(ERR, sync, "--sync-bind: cannot bind %s:%u: %s",
			inet_ntoa(sa.sin_addr), c->bind_port, strerror(errno));
		return -1;
	}
	/* a bulk resync arrives faster than the tables lcore may drain it */
	setsockopt(sock, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	setsockopt(sock, SOL_SOCKET, SO_SNDBUF, &rcvbuf, sizeof(rcvbuf));
	fcntl(sock, F_SETFL, O_NONBLOCK);
	if (fcr_tables_attach_log(t, (int)rte_socket_id()) < 0) {
		FCR_LOG(ERR, sync, "cannot allocate the change log");
		return -1;
	}
	mtu = c->mtu;
	p.mtu = c->mtu;
	p.window_ms = c->window_ms;
	p.tsc_hz = rte_get_tsc_hz();
	p.send = send_udp;
	p.config_elsewhere = c->config_elsewhere;
	last_tick_ms = fcr_now_ms();
	engine = fcr_sync_create(&p, t, last_tick_ms);
	sodium_memzero(p.key, sizeof(p.key));
	if (engine == NULL) {
		FCR_LOG(ERR, sync, "cannot start the sync engine");
		return -1;
	}
	for (i = 0; i < c->nb_peers; i++)
		fcr_sync_io_peer_add(c->peer[i].ip, c->peer[i].port);
	return 0;
}

int
fcr_sync_io_fd(void)
{
	return engine != NULL ? sock : -1;
}

int
fcr_sync_io_enabled(void)
{
	return engine != NULL;
}

int
fcr_sync_io_peer_add(uint32_t ip, uint16_t port)
{
	struct fcr_sync_addr a = { .ip = ip, .port = port };

	return engine == NULL ? -1 : fcr_sync_peer_add(engine, &a);
}

void
fcr_sync_io_set_window(uint32_t ms)
{
	if (engine != NULL)
		fcr_sync_set_window(engine, ms);
}

static const char *
peer_name(const struct fcr_sync_addr *a, char buf[32])
{
	struct in_addr ia = { .s_addr = htonl(a->ip) };

	snprintf(buf, 32, "%s:%u", inet_ntoa(ia), a->port);
	return buf;
}

/* Say in the log what changed about the peers since the last look. */
static void
watch_peers(uint64_t ms)
{
	const struct fcr_sync_stats *st = fcr_sync_stats(engine);
	struct fcr_sync_peer_info pi, *was;
	char name[32], drops[256];
	uint64_t refused = 0;
	unsigned int i;
	int len = 0;

	for (i = 0; i < fcr_sync_nb_peers(engine) && i < FCR_SYNC_MAX_PEERS; i++) {
		fcr_sync_peer_info(engine, i, &pi);
		was = &peer_was[i];
		peer_name(&pi.addr, name);
		if (pi.state == FCR_PEER_UP && was->state != FCR_PEER_UP)
			FCR_LOG(NOTICE, sync, "peer %s (node %04x) up", name, pi.node);
		else if (pi.state == FCR_PEER_DOWN && was->state != FCR_PEER_DOWN)
			FCR_LOG(WARNING, sync, "peer %s (node %04x) down: nothing heard for "
				"%" PRIu64 " ms", name, pi.node, ms - pi.last_rx_ms);
		if (pi.state == FCR_PEER_UP && was->boot != 0 && pi.boot != was->boot)
			FCR_LOG(NOTICE, sync, "peer %s (node %04x) restarted: it gets a "
				"full resync", name, pi.node);
		if (pi.bulk_to && !was->bulk_to)
			FCR_LOG(INFO, sync, "resync to peer %s started", name);
		else if (!pi.bulk_to && was->bulk_to)
			FCR_LOG(INFO, sync, "resync to peer %s complete", name);
		if (pi.ready && !was->ready)
			FCR_LOG(INFO, sync, "peer %s has its state (resync complete)", name);
		*was = pi;
	}
	if (fcr_sync_ready(engine) && !ready_was)
		FCR_LOG(NOTICE, sync, "this node has the peers' state (ready to take over)");
	ready_was = fcr_sync_ready(engine);
	if (ms - watch_ms < 1000)
		return;
	watch_ms = ms;
	/* a restart's handshake refuses a datagram or two of each side: said,
	 * not warned about */
	if (st->drop[FCR_SD_UNPROVEN] != drops_was[FCR_SD_UNPROVEN])
		FCR_LOG(INFO, sync, "%" PRIu64 " datagrams of a peer's boot not proven yet "
			"(answered with this node's challenge) in the last second",
			st->drop[FCR_SD_UNPROVEN] - drops_was[FCR_SD_UNPROVEN]);
	drops_was[FCR_SD_UNPROVEN] = st->drop[FCR_SD_UNPROVEN];
	for (i = 0; i < FCR_SD_COUNT; i++) {
		uint64_t d = st->drop[i] - drops_was[i];

		if (d != 0 && len < (int)sizeof(drops) - 40)
			len += snprintf(drops + len, sizeof(drops) - (size_t)len, "%s%s %" PRIu64,
					refused ? ", " : "", fcr_sync_drop_name(i), d);
		refused += d;
		drops_was[i] = st->drop[i];
	}
	if (refused != 0)
		FCR_LOG(WARNING, sync, "%" PRIu64 " datagrams refused in the last second: %s",
			refused, drops);
	if (st->records_ahead != ahead_was)
		FCR_LOG(WARNING, sync, "%" PRIu64 " updates refused in the last second: their "
			"versions are more than 7 days ahead of this node's clock (check NTP)",
			st->records_ahead - ahead_was);
	ahead_was = st->records_ahead;
}

void
fcr_sync_io_poll(uint64_t ms)
{
	uint8_t buf[4096];
	struct sockaddr_in from;
	socklen_t fl;
	ssize_t n;
	int i;

	if (engine == NULL)
		return;
	for (i = 0; i < 256; i++) {
		struct fcr_sync_addr a;

		fl = sizeof(from);
		n = recvfrom(sock, buf, sizeof(buf), 0, (struct sockaddr *)&from, &fl);
		if (n < 0)
			break;
		a.ip = ntohl(from.sin_addr.s_addr);
		a.port = ntohs(from.sin_port);
		fcr_sync_input(engine, &a, buf, (size_t)n, ms, rte_rdtsc());
	}
	if (ms != last_tick_ms) {
		last_tick_ms = ms;
		fcr_sync_tick(engine, ms, rte_rdtsc());
		watch_peers(ms);
	}
}

void
fcr_sync_io_close(void)
{
	fcr_sync_free(engine);
	engine = NULL;
	if (sock >= 0)
		close(sock);
	sock = -1;
}

static void
put(struct fcr_sync_counter *c, unsigned int *n, const char *name, uint64_t v,
    const char *unit)
{
	if (*n >= FCR_SYNC_COUNTERS)
		return;
	snprintf(c[*n].name, sizeof(c[*n].name), "%s", name);
	c[*n].value = v;
	c[*n].unit = unit;
	(*n)++;
}

unsigned int
fcr_sync_io_counters(struct fcr_sync_counter *c)
{
	const struct fcr_sync_stats *st;
	const struct fcr_change_log *log = fcr_fwd.tables->log;
	uint64_t lost = 0;
	unsigned int i, n = 0;
	char name[32];

	if (engine == NULL)
		return 0;
	st = fcr_sync_stats(engine);
	for (i = 0; i < fcr_fwd.nb_workers; i++)
		lost += fcr_fwd.workers[i]->st.events_lost;
	put(c, &n, "events_lost_in_rings", lost, NULL);
	put(c, &n, "changes", log->changes, NULL);
	put(c, &n, "changes_coalesced", log->coalesced, NULL);
	put(c, &n, "changes_cancelled", log->cancelled, NULL);
	put(c, &n, "changes_pending", fcr_sync_pending(engine), NULL);
	put(c, &n, "oldest_unsent_change", fcr_sync_oldest_ms(engine, fcr_now_ms()), "ms");
	put(c, &n, "updates_sent", st->records_sent, NULL);
	put(c, &n, "updates_received", st->records_received, NULL);
	put(c, &n, "updates_applied", st->records_applied, NULL);
	put(c, &n, "updates_stale", st->records_stale, NULL);
	put(c, &n, "updates_refused", st->records_refused, NULL);
	put(c, &n, "updates_ahead_of_clock", st->records_ahead, NULL);
	put(c, &n, "datagrams_sent", st->datagrams_sent, NULL);
	put(c, &n, "datagrams_received", st->datagrams_received, NULL);
	put(c, &n, "bytes_sent", st->bytes_sent, NULL);
	put(c, &n, "bytes_received", st->bytes_received, NULL);
	put(c, &n, "acks_sent", st->acks_sent, NULL);
	put(c, &n, "keepalives_sent", st->keepalives_sent, NULL);
	put(c, &n, "retransmits", st->retransmits, NULL);
	put(c, &n, "resyncs_sent", st->bulk_sent, NULL);
	put(c, &n, "resyncs_received", st->bulk_received, NULL);
	put(c, &n, "peer_restarts", st->peer_restarts, NULL);
	for (i = 0; i < FCR_SD_COUNT; i++) {
		snprintf(name, sizeof(name), "dropped_%s", fcr_sync_drop_name(i));
		put(c, &n, name, st->drop[i], NULL);
	}
	return n;
}

int
fcr_sync_io_ready(void)
{
	return engine != NULL && fcr_sync_ready(engine);
}

void
fcr_show_sync_stats(FILE *out)
{
	struct fcr_sync_counter c[FCR_SYNC_COUNTERS];
	uint64_t ms = fcr_now_ms();
	unsigned int i, n;

	if (engine == NULL) {
		fprintf(out, "sync: off (give --sync-bind, --sync-peer and --sync-key-file)\n");
		return;
	}
	fprintf(out, "------------------------ Sync statistics ------------------------\n");
	fprintf(out, "  node %04x boot %016" PRIx64 "  %s  window %u ms  mtu %u\n",
		fcr_sync_node(engine), fcr_sync_boot(engine),
		fcr_sync_ready(engine) ? "ready" : "not ready (resyncing)",
		fcr_sync_window(engine), mtu);
	n = fcr_sync_io_counters(c);
	for (i = 0; i < n; i++)
		fprintf(out, "  %-30s %" PRIu64 "%s%s\n", c[i].name, c[i].value,
			c[i].unit ? " " : "", c[i].unit ? c[i].unit : "");
	fprintf(out, "  peers:\n");
	for (i = 0; i < fcr_sync_nb_peers(engine); i++) {
		struct fcr_sync_peer_info pi;
		struct in_addr ia;

		fcr_sync_peer_info(engine, i, &pi);
		ia.s_addr = htonl(pi.addr.ip);
		fprintf(out, "    %s:%u %s%s%s node %04x inflight %u last heard %" PRIu64 " ms ago\n",
			inet_ntoa(ia), pi.addr.port,
			pi.state == FCR_PEER_UP ? "up" :
			pi.state == FCR_PEER_DOWN ? "down" : "unknown",
			pi.state == FCR_PEER_UP ? (pi.ready ? " ready" : " not-ready") : "",
			pi.bulk_to ? " (resync to it in progress)" : "", pi.node, pi.inflight,
			pi.last_rx_ms ? ms - pi.last_rx_ms : 0);
	}
	fprintf(out, "-----------------------------------------------------------------\n");
}

FCR_CMD_PRINTER(show_sync_stats, fcr_show_sync_stats)

static int
set_sync_window(const struct fcr_cmd *c, FILE *out)
{
	if (engine == NULL || c->arg[0].u32 == 0 || c->arg[0].u32 > 60000) {
		fprintf(out, "error: set sync window: %s\n", engine != NULL ?
			"the window is 1 to 60000 ms" : "sync is off");
		return -1;
	}
	fcr_sync_io_set_window(c->arg[0].u32);
	return 0;
}

static int
sync_peer_add(const struct fcr_cmd *c, FILE *out)
{
	if (fcr_sync_io_peer_add(c->arg[0].addr.ip, c->arg[0].addr.port) < 0) {
		fprintf(out, "error: sync peer add: %s\n", engine != NULL ?
			"already a peer, or 16 peers already" : "sync is off");
		return -1;
	}
	return 0;
}

#define SYNC(syntax_, help_, run_, flags_) \
	{ .syntax = (syntax_), .help = (help_), .run = (run_), .thread = FCR_CMD_ON_TABLES, \
	  .section = FCR_SEC_REPLICATION, .flags = (flags_) }

static const struct fcr_cmd_def rows[] = {
	SYNC("show sync stats", "replication: readiness, changes, updates, datagrams, losses, peers", show_sync_stats, 0),
	SYNC("set sync window <ms>", "coalescing window: changes inside it go out once, as of its end", set_sync_window, FCR_CMD_CHANGES),
	SYNC("sync peer add <addr>", "replicate with another fcredirect at IPv4:port", sync_peer_add, FCR_CMD_CHANGES),
};
FCR_COMMANDS(rows)
