/* SPDX-License-Identifier: BSD-3-Clause */
/* The sync engine's UDP socket and clock, driven from the tables lcore's loop. */
#ifndef FCR_APP_SYNC_IO_H
#define FCR_APP_SYNC_IO_H

#include <stdint.h>
#include <stdio.h>

#define FCR_SYNC_CONF_PEERS 16

struct fcr_tables;

struct fcr_sync_conf {
	int enabled;
	uint32_t bind_ip;
	uint16_t bind_port;
	unsigned int nb_peers;
	struct {
		uint32_t ip;
		uint16_t port;
	} peer[FCR_SYNC_CONF_PEERS];
	const char *key_file;
	uint32_t window_ms;
	uint32_t mtu;
	int config_elsewhere;   /* --config-store: replicate learned state only */
	int same_ports;         /* --sync-same-ports: every peer cabled as this node */
};

/* Socket, key and engine. 0, or -1 with a message in the log (fcr.sync). */
int fcr_sync_io_init(const struct fcr_sync_conf *c, struct fcr_tables *t);
/* Receive what has arrived, run the engine's timers (ms: fcr_now_ms()),
 * log peers coming and going. */
void fcr_sync_io_poll(uint64_t ms);
int fcr_sync_io_enabled(void);
/* Its socket, for the tables lcore to sleep on; -1 when off. */
int fcr_sync_io_fd(void);
int fcr_sync_io_peer_add(uint32_t ip, uint16_t port);
void fcr_sync_io_set_window(uint32_t ms);
void fcr_show_sync_stats(FILE *out);

/* The counters `show sync stats` prints and /fcr/sync answers, by name. */
struct fcr_sync_counter {
	char name[32];
	uint64_t value;
	const char *unit;   /* NULL, or "ms" */
};
#define FCR_SYNC_COUNTERS 40
/* Fills c (FCR_SYNC_COUNTERS rows); 0 when sync is off. */
unsigned int fcr_sync_io_counters(struct fcr_sync_counter *c);
int fcr_sync_io_ready(void);
void fcr_sync_io_close(void);

#endif /* FCR_APP_SYNC_IO_H */
