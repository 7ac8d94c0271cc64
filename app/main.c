/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fcredirect: FCoE forwarder with FC-Redirect on DPDK ports.
 * This stage brings up EAL and the ports and lists them.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>

#include "fcr_crc.h"
#include "ports.h"

static void
usage(const char *prog)
{
	printf("Usage: %s [EAL options] -- [options]\n"
	       "  --rxd N    RX descriptors per queue (default 1024)\n"
	       "  --txd N    TX descriptors per queue (default 1024)\n"
	       "  -h, --help this text\n", prog);
}

static int
parse_u16(const char *opt, const char *s, uint16_t *out)
{
	char *end;
	unsigned long v = strtoul(s, &end, 10);

	if (*s == '\0' || *end != '\0' || v == 0 || v > UINT16_MAX) {
		fprintf(stderr, "%s: '%s' is not a number between 1 and 65535\n",
			opt, s);
		return -1;
	}
	*out = (uint16_t)v;
	return 0;
}

static int
parse_args(int argc, char **argv, struct fcr_port_conf *conf)
{
	static const struct option longopts[] = {
		{ "rxd", required_argument, NULL, 'r' },
		{ "txd", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'r':
			if (parse_u16("--rxd", optarg, &conf->rxd) < 0)
				return -1;
			break;
		case 't':
			if (parse_u16("--txd", optarg, &conf->txd) < 0)
				return -1;
			break;
		case 'h':
			usage(argv[0]);
			exit(0);
		default:
			usage(argv[0]);
			return -1;
		}
	}
	return 0;
}

int
main(int argc, char **argv)
{
	struct fcr_port_conf conf = {
		.rxq = 1, .txq = 1, .rxd = 1024, .txd = 1024, .mtu = 2500,
	};
	struct rte_mempool *mp;
	unsigned int nb_mbufs;
	int ret;

	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		fprintf(stderr, "EAL initialisation failed: %s\n",
			rte_strerror(rte_errno));
		return 1;
	}
	argc -= ret;
	argv += ret;
	if (parse_args(argc, argv, &conf) < 0) {
		rte_eal_cleanup();
		return 2;
	}
	fcr_crc_init();

	if (rte_eth_dev_count_avail() == 0) {
		fprintf(stderr, "no ports: give some with -a or --vdev "
				"(e.g. --vdev net_pcap0,rx_pcap=in.pcap,tx_pcap=out.pcap)\n");
		rte_eal_cleanup();
		return 1;
	}
	nb_mbufs = RTE_MAX(rte_eth_dev_count_avail() * (conf.rxd + conf.txd + 512u),
			   8192u);
	mp = rte_pktmbuf_pool_create("fcr_mbufs", nb_mbufs, 256, 0,
				     FCR_MBUF_DATA_ROOM, (int)rte_socket_id());
	if (mp == NULL) {
		fprintf(stderr, "cannot create mbuf pool of %u mbufs: %s\n",
			nb_mbufs, rte_strerror(rte_errno));
		rte_eal_cleanup();
		return 1;
	}
	if (fcr_ports_start(&conf, mp) != 0) {
		fcr_ports_close();
		rte_eal_cleanup();
		return 1;
	}
	printf("fcredirect: %u port(s), FC CRC path %s, incremental update %s\n",
	       rte_eth_dev_count_avail(), fcr_crc_impl(),
	       fcr_crc_update_uses_clmul() ? "pclmulqdq" : "scalar");
	fcr_ports_print(stdout);
	fcr_ports_close();
	rte_mempool_free(mp);
	rte_eal_cleanup();
	return 0;
}
