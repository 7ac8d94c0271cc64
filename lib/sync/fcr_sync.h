/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Replication of the tables between fcredirect nodes (wire format in
 * fcr_sync_wire.h). The engine is I/O-free: the program feeds it received
 * datagrams and clock ticks and gives it a function that sends; tests and
 * benchmarks connect engines directly.
 *
 * What it does, after OpenBSD's pfsync and conntrackd's FTFW mode:
 *  - changes are coalesced in the objects themselves (fcr_change.h) and go
 *    out when the window ends, as fast as the peers' windows allow; what
 *    changes while that flush is paced out waits for the next window's end;
 *  - every datagram is numbered, acknowledged (base + 64-bit bitmap) and
 *    authenticated; one not acknowledged in time is not resent as it was:
 *    its objects are sent again as they are now;
 *  - keepalives; a peer's new boot id means it restarted once the peer has
 *    echoed this node's challenge (fcr_sync_wire.h), and a peer that
 *    (re)appears gets a bulk resync, paced by its acknowledgements and
 *    marked by BULK_START and BULK_END; a node that has peers is not ready
 *    until one has sent it a complete bulk;
 *  - per-object versions (hybrid logical clock and origin node) reject
 *    stale updates; sequence numbers, boot ids and the challenge a boot
 *    must echo reject replays, across either side's restarts, whatever
 *    the clocks say.
 */
#ifndef FCR_SYNC_H
#define FCR_SYNC_H

#include <stddef.h>
#include <stdint.h>

#include "fcr_sync_wire.h"

struct fcr_tables;

#define FCR_SYNC_MAX_PEERS 16
/* Versions more than this ahead of the wall clock are refused (ms): a
 * node restarted with its clock a day behind still takes its peers'. */
#define FCR_SYNC_MAX_AHEAD_MS (7ull * 24 * 3600 * 1000)
#define FCR_SYNC_INFLIGHT 64

struct fcr_sync_addr {
	uint32_t ip;   /* host order */
	uint16_t port;
};

typedef void (*fcr_sync_send_fn)(void *ctx, const struct fcr_sync_addr *to,
				 const uint8_t *p, size_t len);

struct fcr_sync_params {
	uint64_t boot;          /* 0: 64 random bits */
	uint16_t node;          /* 0: random */
	uint64_t wall_ms;       /* the wall clock now, ms since 2024-01-01 UTC
				 * (0: read it); versions start from it */
	uint64_t (*random64)(void); /* NULL: libsodium's; boot ids, challenges */
	uint8_t key[FCR_SYNC_KEY_LEN];
	uint32_t mtu;           /* largest datagram (UDP payload), default 1400 */
	uint32_t window_ms;     /* coalescing window, default 50 */
	uint32_t keepalive_ms;  /* default 1000 */
	uint32_t dead_ms;       /* silence before a peer is down, default 3500 */
	uint32_t rto_ms;        /* unacknowledged this long: lost, default 200 */
	uint32_t idle_ms;       /* a flow with no frame this long is idle, default 30000 */
	uint32_t refresh_ms;    /* the flow rescan's period: the counters of a flow that
				 * forwarded since its last pass are sent, so peers'
				 * counters lag by at most this and a window; default 5000 */
	uint64_t tsc_hz;        /* units of the flow counters' timestamps */
	fcr_sync_send_fn send;
	void *send_ctx;
	/* configuration comes from a store on every node (--config-store):
	 * configuration records are neither sent nor taken (fcr_rec_is_config;
	 * a peer's count as stale), only what the dataplane learns */
	int config_elsewhere;
};

enum fcr_peer_state { FCR_PEER_UNKNOWN, FCR_PEER_UP, FCR_PEER_DOWN };

struct fcr_sync_stats {
	uint64_t records_sent;
	uint64_t records_received;
	uint64_t records_applied;
	uint64_t records_stale;     /* older than what we hold */
	uint64_t records_unknown;   /* types this version does not know */
	uint64_t records_refused;   /* valid but not applicable (table full, ...) */
	uint64_t records_ahead;     /* of those: versions too far ahead of our clock */
	uint64_t datagrams_sent;
	uint64_t datagrams_received;
	uint64_t bytes_sent;
	uint64_t bytes_received;
	uint64_t acks_sent;
	uint64_t keepalives_sent;
	uint64_t retransmits;       /* records sent again after a loss */
	uint64_t bulk_sent;         /* bulk resyncs completed to a peer */
	uint64_t bulk_received;     /* bulk resyncs completed from a peer */
	uint64_t peer_restarts;
	uint64_t drop[FCR_SD_COUNT];
};

struct fcr_sync;

struct fcr_sync *fcr_sync_create(const struct fcr_sync_params *p,
				 struct fcr_tables *t, uint64_t now_ms);
void fcr_sync_free(struct fcr_sync *s);

/* A peer to replicate with. Returns its index or -1 (full, or known). */
int fcr_sync_peer_add(struct fcr_sync *s, const struct fcr_sync_addr *a);

/* A datagram received from `from`. */
void fcr_sync_input(struct fcr_sync *s, const struct fcr_sync_addr *from,
		    const uint8_t *p, size_t len, uint64_t now_ms, uint64_t now_tsc);

/* Timers: window, acks, keepalives, losses, bulk pacing, the flow rescan.
 * Call at least every millisecond. */
void fcr_sync_tick(struct fcr_sync *s, uint64_t now_ms, uint64_t now_tsc);

void fcr_sync_set_window(struct fcr_sync *s, uint32_t ms);

/* Introspection for `show sync stats` and tests. */
const struct fcr_sync_stats *fcr_sync_stats(const struct fcr_sync *s);
int fcr_sync_ready(const struct fcr_sync *s);
uint64_t fcr_sync_boot(const struct fcr_sync *s);
uint16_t fcr_sync_node(const struct fcr_sync *s);
uint32_t fcr_sync_window(const struct fcr_sync *s);
unsigned int fcr_sync_nb_peers(const struct fcr_sync *s);
struct fcr_sync_peer_info {
	struct fcr_sync_addr addr;
	enum fcr_peer_state state;
	int ready;              /* it says its own resync is complete */
	int bulk_to;            /* a bulk resync to it is in progress */
	uint16_t node;
	uint64_t boot;
	uint32_t inflight;
	uint64_t last_rx_ms;
};
void fcr_sync_peer_info(const struct fcr_sync *s, unsigned int i,
			struct fcr_sync_peer_info *out);
/* Changes waiting to be sent, and how long the oldest has waited. */
uint64_t fcr_sync_pending(const struct fcr_sync *s);
uint64_t fcr_sync_oldest_ms(const struct fcr_sync *s, uint64_t now_ms);

#endif /* FCR_SYNC_H */
