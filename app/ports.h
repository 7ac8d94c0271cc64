/* SPDX-License-Identifier: BSD-3-Clause */
/* Port bring-up: one mbuf pool, queues, start, and a listing for users. */
#ifndef FCR_APP_PORTS_H
#define FCR_APP_PORTS_H

#include <stdint.h>
#include <stdio.h>

struct rte_mempool;

/* Mbuf data room for the largest FCoE frame (2180 bytes on the wire) in one
 * segment, plus headroom. */
#define FCR_MBUF_DATA_ROOM (2304 + 128)

#define FCR_PORTS_MAX 32

struct fcr_port_conf {
	uint16_t rxq[FCR_PORTS_MAX]; /* RX queues of each port */
	uint16_t txq;                /* TX queues of every port: one per worker */
	uint16_t rxd;
	uint16_t txd;
	uint16_t mtu;
	int vlan_strip;              /* NIC removes the tag on RX, adds it on TX */
	uint16_t burst;
};

/* Configure and start every available port, with its mbufs from a pool on
 * its own NUMA socket. 0, or -1 with a message on stderr naming the port
 * and the step that failed. */
int fcr_ports_start(const struct fcr_port_conf *conf);
void fcr_ports_free_pools(void);
/* The mbuf pool of a started port's socket. */
struct rte_mempool *fcr_ports_pool(uint16_t port);
/* The ports, one line each: name, driver, MAC, started or stopped, link. */
void fcr_ports_print(FILE *out);
/* testpmd's port commands, run with forwarding stopped (the command line
 * checks): 0, or -1 with an error line in out. */
int fcr_port_stop(uint16_t port, FILE *out);
int fcr_port_start(uint16_t port, FILE *out);
int fcr_port_reset(uint16_t port, FILE *out);
int fcr_port_promisc(uint16_t port, int on, FILE *out);
int fcr_port_stopped(uint16_t port);
void fcr_ports_close(void);

#endif /* FCR_APP_PORTS_H */
