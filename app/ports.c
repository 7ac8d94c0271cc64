/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <string.h>

#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "commands.h"
#include "fwd.h"
#include "log.h"
#include "notes_log.h"
#include "ports.h"

/* The largest frame a port of this MTU delivers: Ethernet header, two
 * tags, CRC. */
static uint32_t
frame_max(uint16_t mtu)
{
	return (uint32_t)mtu + RTE_ETHER_HDR_LEN + 2 * RTE_VLAN_HLEN + RTE_ETHER_CRC_LEN;
}

/* Frames of the MTU longer than an mbuf arrive as chains where the port
 * can (RX scatter, and multi-segment TX to send them on): some PMDs (mlx5)
 * refuse an RX queue whose mbufs cannot hold the MTU's frames otherwise.
 * FCoE's own frames (2,180 bytes at most) always fit one mbuf. */
static void
rx_scatter(uint16_t port, const struct rte_eth_dev_info *info, uint16_t mtu,
	   const struct rte_mempool *mp, struct rte_eth_conf *eth_conf)
{
	uint32_t room = rte_pktmbuf_data_room_size((struct rte_mempool *)(uintptr_t)mp) -
			RTE_PKTMBUF_HEADROOM;

	if (frame_max(mtu) <= room)
		return;
	if (!(info->rx_offload_capa & RTE_ETH_RX_OFFLOAD_SCATTER)) {
		FCR_LOG(INFO, port, "port %u (%s): frames of MTU %u (%u bytes) exceed an mbuf "
			"(%u) and it cannot scatter: longer ones are the driver's to drop",
			port, info->driver_name, mtu, frame_max(mtu), room);
		return;
	}
	eth_conf->rxmode.offloads |= RTE_ETH_RX_OFFLOAD_SCATTER;
	if (info->tx_offload_capa & RTE_ETH_TX_OFFLOAD_MULTI_SEGS)
		eth_conf->txmode.offloads |= RTE_ETH_TX_OFFLOAD_MULTI_SEGS;
}

static int
port_start(uint16_t port, const struct fcr_port_conf *conf,
	   struct rte_mempool *mp)
{
	struct rte_eth_conf eth_conf;
	struct rte_eth_dev_info info;
	uint16_t q, rxd = conf->rxd, txd = conf->txd;
	int socket = rte_eth_dev_socket_id(port);
	int rc;

	memset(&eth_conf, 0, sizeof(eth_conf));
	rc = rte_eth_dev_info_get(port, &info);
	if (rc != 0) {
		FCR_LOG(ERR, port, "port %u: cannot read device info: %s", port,
			rte_strerror(-rc));
		return -1;
	}
	if (conf->vlan_strip) {
		if ((info.rx_offload_capa & RTE_ETH_RX_OFFLOAD_VLAN_STRIP) &&
		    (info.tx_offload_capa & RTE_ETH_TX_OFFLOAD_VLAN_INSERT)) {
			eth_conf.rxmode.offloads |= RTE_ETH_RX_OFFLOAD_VLAN_STRIP;
			eth_conf.txmode.offloads |= RTE_ETH_TX_OFFLOAD_VLAN_INSERT;
		} else {
			FCR_LOG(WARNING, port, "port %u (%s): no VLAN strip/insert offload; "
				"tags stay in the frames", port, info.driver_name);
		}
	}
	rx_scatter(port, &info, conf->mtu, mp, &eth_conf);
	rc = rte_eth_dev_configure(port, conf->rxq[port], conf->txq, &eth_conf);
	if (rc != 0) {
		FCR_LOG(ERR, port, "port %u (%s): configure %u rx / %u tx queues: %s",
			port, info.driver_name, conf->rxq[port], conf->txq,
			rte_strerror(-rc));
		return -1;
	}
	rc = rte_eth_dev_adjust_nb_rx_tx_desc(port, &rxd, &txd);
	if (rc != 0)
		return -1;
	/* FCoE needs baby-jumbo frames; virtual ports (pcap, memif) cannot
	 * change their MTU, which is a warning, not a failure. */
	rc = rte_eth_dev_set_mtu(port, conf->mtu);
	if (rc != 0)
		FCR_LOG(WARNING, port, "port %u (%s): MTU %u not set: %s",
			port, info.driver_name, conf->mtu, rte_strerror(-rc));
	for (q = 0; q < conf->rxq[port]; q++) {
		rc = rte_eth_rx_queue_setup(port, q, rxd, socket, NULL, mp);
		if (rc != 0) {
			FCR_LOG(ERR, port, "port %u: rx queue %u setup: %s", port,
				q, rte_strerror(-rc));
			return -1;
		}
	}
	for (q = 0; q < conf->txq; q++) {
		rc = rte_eth_tx_queue_setup(port, q, txd, socket, NULL);
		if (rc != 0) {
			FCR_LOG(ERR, port, "port %u: tx queue %u setup: %s", port,
				q, rte_strerror(-rc));
			return -1;
		}
	}
	rc = rte_eth_dev_start(port);
	if (rc != 0) {
		FCR_LOG(ERR, port, "port %u: start: %s", port, rte_strerror(-rc));
		return -1;
	}
	rte_eth_promiscuous_enable(port);
	return 0;
}

static int
port_socket(uint16_t port)
{
	int s = rte_eth_dev_socket_id(port);

	return s < 0 ? (int)rte_socket_id() : s;
}

/* One mbuf pool per NUMA socket, on the socket of the ports it serves, sized
 * for their queues. */
static struct rte_mempool *pools[RTE_MAX_NUMA_NODES];
/* What the ports were started with (a reset sets a port up again from it),
 * and which are stopped (`port stop`). */
static struct fcr_port_conf started_conf;
static uint8_t stopped[FCR_PORTS_MAX];

static struct rte_mempool *
pool_for(int socket, const struct fcr_port_conf *conf)
{
	char name[RTE_MEMPOOL_NAMESIZE];
	unsigned int n = 0;
	uint16_t port;

	if (pools[socket] != NULL)
		return pools[socket];
	RTE_ETH_FOREACH_DEV(port)
		if (port_socket(port) == socket)
			n += conf->rxq[port] * conf->rxd + conf->txq * (conf->txd + conf->burst);
	n = RTE_MAX(n + conf->txq * 64u + 2048u, 8192u);
	snprintf(name, sizeof(name), "fcr_mbufs_s%d", socket);
	pools[socket] = rte_pktmbuf_pool_create(name, n, 256, 0, FCR_MBUF_DATA_ROOM,
						socket);
	if (pools[socket] == NULL)
		FCR_LOG(ERR, port, "cannot create a pool of %u mbufs on socket %d: %s",
			n, socket, rte_strerror(rte_errno));
	return pools[socket];
}

int
fcr_ports_start(const struct fcr_port_conf *conf)
{
	struct rte_mempool *mp;
	uint16_t port;

	started_conf = *conf;
	RTE_ETH_FOREACH_DEV(port) {
		mp = pool_for(port_socket(port), conf);
		if (mp == NULL || port_start(port, conf, mp) != 0)
			return -1;
	}
	return 0;
}

struct rte_mempool *
fcr_ports_pool(uint16_t port)
{
	return pools[port_socket(port)];
}

void
fcr_ports_free_pools(void)
{
	unsigned int i;

	for (i = 0; i < RTE_MAX_NUMA_NODES; i++) {
		rte_mempool_free(pools[i]);
		pools[i] = NULL;
	}
}

/* testpmd's `show port summary all`, with each port's state. */
void
fcr_ports_print(FILE *out)
{
	struct rte_eth_dev_info info;
	struct rte_ether_addr mac;
	struct rte_eth_link link;
	char name[RTE_ETH_NAME_MAX_LEN];
	char macs[RTE_ETHER_ADDR_FMT_SIZE];
	char links[RTE_ETH_LINK_MAX_STR_LEN];
	uint16_t port;

	fprintf(out, "%-4s %-20s %-12s %-17s %-8s %s\n", "port", "name", "driver",
		"mac", "state", "link");
	RTE_ETH_FOREACH_DEV(port) {
		if (rte_eth_dev_info_get(port, &info) != 0)
			continue;
		rte_eth_dev_get_name_by_port(port, name);
		rte_eth_macaddr_get(port, &mac);
		rte_ether_format_addr(macs, sizeof(macs), &mac);
		rte_eth_link_get_nowait(port, &link);
		rte_eth_link_to_str(links, sizeof(links), &link);
		fprintf(out, "%-4u %-20s %-12s %-17s %-8s %s\n", port, name,
			info.driver_name, macs, fcr_port_stopped(port) ? "stopped" : "started",
			links);
	}
}

int
fcr_port_stopped(uint16_t port)
{
	return port < FCR_PORTS_MAX && stopped[port];
}

static int
port_stop(uint16_t port, FILE *out)
{
	int rc;

	if (stopped[port])
		return 0;
	rc = rte_eth_dev_stop(port);
	if (rc != 0) {
		fprintf(out, "error: port stop %u: %s\n", port, rte_strerror(-rc));
		return -1;
	}
	stopped[port] = 1;
	return 0;
}

static int
port_restart(uint16_t port, FILE *out)
{
	int rc;

	if (!stopped[port])
		return 0;
	rc = rte_eth_dev_start(port);
	if (rc != 0) {
		fprintf(out, "error: port start %u: %s\n", port, rte_strerror(-rc));
		return -1;
	}
	stopped[port] = 0;
	return 0;
}

/* Each command holds the link watch and answers with the link it leaves. */
static int
with_link_watch(int (*change)(uint16_t, FILE *), uint16_t port, FILE *out)
{
	int rc;

	fcr_links_hold();
	rc = change(port, out);
	fcr_links_release(port, rc == 0 ? out : NULL);
	return rc;
}

int
fcr_port_stop(uint16_t port, FILE *out)
{
	return with_link_watch(port_stop, port, out);
}

int
fcr_port_start(uint16_t port, FILE *out)
{
	return with_link_watch(port_restart, port, out);
}

/* Stop, the driver's reset where it has one, then configured and started
 * again as at start-up (its queues, MTU, offloads). */
static int
port_reset(uint16_t port, FILE *out)
{
	struct rte_mempool *mp = fcr_ports_pool(port);
	int rc;

	if (port_stop(port, out) < 0)
		return -1;
	rc = rte_eth_dev_reset(port);
	if (rc != 0 && rc != -ENOTSUP) {
		fprintf(out, "error: port reset %u: %s (the port stays stopped)\n", port,
			rte_strerror(-rc));
		return -1;
	}
	if (mp == NULL || port_start(port, &started_conf, mp) != 0) {
		fprintf(out, "error: port reset %u: set-up failed (the port stays stopped; "
			"the log says which step)\n", port);
		return -1;
	}
	stopped[port] = 0;
	return 0;
}

int
fcr_port_reset(uint16_t port, FILE *out)
{
	return with_link_watch(port_reset, port, out);
}

int
fcr_port_promisc(uint16_t port, int on, FILE *out)
{
	int rc = on ? rte_eth_promiscuous_enable(port) : rte_eth_promiscuous_disable(port);

	if (rc != 0) {
		fprintf(out, "error: set promisc %u %s: %s\n", port, on ? "on" : "off",
			rte_strerror(-rc));
		return -1;
	}
	return 0;
}

void
fcr_ports_close(void)
{
	uint16_t port;

	RTE_ETH_FOREACH_DEV(port) {
		rte_eth_dev_stop(port);
		rte_eth_dev_close(port);
	}
}

/*
 * The port commands. port stop|start|reset <port>|all: as testpmd, only
 * with forwarding stopped (a worker must never poll a stopped port); `all`
 * is the form without a <port>.
 */
/* The ports [*first, *last) a command names: its <port> (its first
 * argument) when one_port, else all. 0, or -1 and why. */
static int
port_range(const struct fcr_cmd *c, int one_port, FILE *out, uint16_t *first, uint16_t *last)
{
	*first = 0;
	*last = fcr_fwd.nb_ports;
	if (!one_port)
		return 0;
	if (c->arg[0].u32 >= fcr_fwd.nb_ports) {
		fprintf(out, "error: port %u does not exist (%u ports)\n", c->arg[0].u32,
			fcr_fwd.nb_ports);
		return -1;
	}
	*first = (uint16_t)c->arg[0].u32;
	*last = *first + 1;
	return 0;
}

static int
each_port(const struct fcr_cmd *c, FILE *out, int (*change)(uint16_t port, FILE *out))
{
	uint16_t p, first, last;
	int rc = 0;

	if (port_range(c, c->nb_args == 1, out, &first, &last) < 0)
		return -1;
	if (__atomic_load_n(&fcr_fwd.forwarding, __ATOMIC_ACQUIRE)) {
		fprintf(out, "error: %s: stop forwarding first (stop)\n", c->def->syntax);
		return -1;
	}
	for (p = first; p < last && rc == 0; p++)
		rc = change(p, out);
	return rc;
}

static int
port_stop_cmd(const struct fcr_cmd *c, FILE *out)
{
	return each_port(c, out, fcr_port_stop);
}

static int
port_start_cmd(const struct fcr_cmd *c, FILE *out)
{
	return each_port(c, out, fcr_port_start);
}

static int
port_reset_cmd(const struct fcr_cmd *c, FILE *out)
{
	return each_port(c, out, fcr_port_reset);
}

/* set promisc <port>|all on|off: also while forwarding */
static int
set_promisc(const struct fcr_cmd *c, FILE *out)
{
	const char *onoff = fcr_cmd_word(c, c->nb_args - 1);
	uint16_t p, first, last;
	int rc = 0;

	if (port_range(c, c->nb_args == 2, out, &first, &last) < 0)
		return -1;
	if (strcmp(onoff, "on") != 0 && strcmp(onoff, "off") != 0) {
		fprintf(out, "error: set promisc: on or off, not '%s'\n", onoff);
		return -1;
	}
	for (p = first; p < last && rc == 0; p++)
		rc = fcr_port_promisc(p, strcmp(onoff, "on") == 0, out);
	return rc;
}

#define PORT(syntax_, help_, run_) \
	{ .syntax = (syntax_), .help = (help_), .run = (run_), .section = FCR_SEC_PORTS, \
	  .flags = FCR_CMD_CHANGES }

static const struct fcr_cmd_def rows[] = {
	PORT("port stop <port>", "stop a port (forwarding stopped first, as testpmd asks)", port_stop_cmd),
	PORT("port stop all", "stop every port", port_stop_cmd),
	PORT("port start <port>", "start a stopped port", port_start_cmd),
	PORT("port start all", "start every stopped port", port_start_cmd),
	PORT("port reset <port>", "stop, reset (where the driver can) and set up a port again as at start", port_reset_cmd),
	PORT("port reset all", "the same for every port", port_reset_cmd),
	PORT("set promisc <port> <on|off>", "on or off: a port takes frames for any MAC (on by default: FPMA MACs are many)", set_promisc),
	PORT("set promisc all <on|off>", "on or off for every port", set_promisc),
};
FCR_COMMANDS(rows)
