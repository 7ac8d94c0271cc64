/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_log.h>

#include "ports.h"
#include "run.h"

#define PG_MTU 2500u

static uint16_t used_ports[2];
static unsigned int nb_used_ports;
static int port_started[2];

const char *
pg_port_driver(uint16_t port)
{
	static struct rte_eth_dev_info info[2];
	static int k;
	struct rte_eth_dev_info *i = &info[k++ & 1];

	if (rte_eth_dev_info_get(port, i) != 0 || i->driver_name == NULL)
		return "?";
	return i->driver_name;
}

static int
port_config(uint16_t port, uint32_t max_len)
{
	struct rte_eth_conf conf;
	struct rte_eth_dev_info info;
	uint16_t rxd = pg_run.o.rxd, txd = pg_run.o.txd, q;
	int sock = rte_eth_dev_socket_id(port), rc;

	memset(&conf, 0, sizeof(conf));
	rc = rte_eth_dev_info_get(port, &info);
	if (rc != 0) {
		fprintf(stderr, "fcoe-pktgen: port %u: no device info (%s)\n", port,
			rte_strerror(-rc));
		return -1;
	}
	if (sock < 0)
		sock = (int)rte_socket_id();
	rc = rte_eth_dev_configure(port, pg_run.o.rxq, 1, &conf);
	if (rc == 0)
		rc = rte_eth_dev_adjust_nb_rx_tx_desc(port, &rxd, &txd);
	for (q = 0; rc == 0 && q < pg_run.o.rxq; q++)
		rc = rte_eth_rx_queue_setup(port, q, rxd, (unsigned int)sock, NULL, pg_run.pool);
	if (rc == 0)
		rc = rte_eth_tx_queue_setup(port, 0, txd, (unsigned int)sock, NULL);
	if (rc != 0) {
		fprintf(stderr, "fcoe-pktgen: port %u (%s): set-up failed: %s\n", port,
			info.driver_name, rte_strerror(-rc));
		return -1;
	}
	/* FCoE frames reach 2180 bytes: ask for the MTU FCoE needs. Virtual
	 * ports (memif, pcap) cannot set one and carry such frames anyway. */
	rc = rte_eth_dev_set_mtu(port, PG_MTU);
	if (rc != 0 && max_len > RTE_ETHER_MAX_LEN - RTE_ETHER_CRC_LEN &&
	    rc != -ENOTSUP)
		fprintf(stderr, "fcoe-pktgen: port %u (%s): MTU %u refused (%s); frames of up to %u bytes are sent\n",
			port, info.driver_name, PG_MTU, rte_strerror(-rc), max_len);
	return 0;
}

int
pg_ports_config(uint32_t max_len)
{
	unsigned int i;

	used_ports[nb_used_ports++] = pg_run.o.tx_port;
	if (pg_run.o.rx_port != pg_run.o.tx_port)
		used_ports[nb_used_ports++] = pg_run.o.rx_port;
	for (i = 0; i < nb_used_ports; i++)
		if (port_config(used_ports[i], max_len) != 0)
			return -1;
	return 0;
}

static int
link_up(uint16_t port)
{
	struct rte_eth_link link;

	memset(&link, 0, sizeof(link));
	return rte_eth_link_get_nowait(port, &link) == 0 &&
	       link.link_status == RTE_ETH_LINK_UP;
}

/*
 * Start the ports and wait for their links. A memif client cannot start
 * before its server's socket exists, and a server that is not started yet
 * turns the client away without retrying: so a port that does not start,
 * or whose link is still down a second after it started, is started again,
 * until --link-wait runs out.
 */
int
pg_ports_up(void)
{
	uint64_t thz = rte_get_timer_hz(), now = rte_get_timer_cycles();
	uint64_t deadline = now + (uint64_t)(pg_run.o.link_wait * (double)thz);
	uint64_t t_try[2] = { 0, 0 };
	int last_rc[2] = { 0, 0 };
	unsigned int i, up, tries = 0;
	/* a retried memif start logs an error each time: once is enough */
	int lt = rte_log_register("pmd.net.memif");
	int lvl = lt >= 0 ? rte_log_get_level((uint32_t)lt) : -1;

	for (;;) {
		now = rte_get_timer_cycles();
		if (tries++ == 1 && lvl > (int)RTE_LOG_CRIT)
			rte_log_set_level((uint32_t)lt, RTE_LOG_CRIT);
		up = 0;
		for (i = 0; i < nb_used_ports; i++) {
			uint16_t port = used_ports[i];

			if (!port_started[i]) {
				if (t_try[i] == 0 || now - t_try[i] >= thz / 2) {
					t_try[i] = now;
					last_rc[i] = rte_eth_dev_start(port);
					if (last_rc[i] == 0) {
						port_started[i] = 1;
						/* a forwarder sends to FPMA MACs, not ours */
						rte_eth_promiscuous_enable(port);
					}
				}
				continue;
			}
			if (link_up(port)) {
				up++;
				continue;
			}
			if (now - t_try[i] >= thz) {
				rte_eth_dev_stop(port);
				port_started[i] = 0;
				t_try[i] = 0;
			}
		}
		if (up == nb_used_ports || pg_run.quit || now >= deadline)
			break;
		rte_delay_us_sleep(10000);
	}
	if (lvl >= 0)
		rte_log_set_level((uint32_t)lt, (uint32_t)lvl);
	if (up == nb_used_ports)
		return 0;
	for (i = 0; i < nb_used_ports; i++) {
		uint16_t port = used_ports[i];

		if (!port_started[i])
			fprintf(stderr, "fcoe-pktgen: port %u (%s): does not start (%d) within %.1f s (--link-wait)%s\n",
				port, pg_port_driver(port), last_rc[i], pg_run.o.link_wait,
				strcmp(pg_port_driver(port), "net_memif") == 0 ?
					" (a memif client needs its server's socket)" : "");
		else if (!link_up(port))
			fprintf(stderr, "fcoe-pktgen: port %u (%s): link down after %.1f s (--link-wait)%s\n",
				port, pg_port_driver(port), pg_run.o.link_wait,
				strcmp(pg_port_driver(port), "net_memif") == 0 ?
					" (memif: is the server on the same socket started?)" : "");
	}
	return -1;
}

void
pg_ports_close(void)
{
	unsigned int i;

	for (i = 0; i < nb_used_ports; i++) {
		if (port_started[i])
			rte_eth_dev_stop(used_ports[i]);
		port_started[i] = 0;
	}
	for (i = 0; i < nb_used_ports; i++)
		rte_eth_dev_close(used_ports[i]);
	nb_used_ports = 0;
}
