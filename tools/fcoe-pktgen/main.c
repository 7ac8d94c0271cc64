/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fcoe-pktgen: a live FCoE traffic generator on DPDK ports. It sends the
 * frames of a source (a built-in fabric or a capture, looping) out of one
 * port, at full speed or paced by the TSC to a rate, receives on another
 * (or the same) port and reports transmit and receive rates, loss and
 * latency percentiles. The latency comes from a stamp (stamp.h) carried in
 * the payload of FCP_DATA frames, which a forwarder rewriting FC or
 * Ethernet addresses leaves alone.
 *
 * This file: EAL, the mbuf pool, and the parts in order. options.c reads
 * the options, source.c makes the frames, ports.c brings the ports up,
 * tx.c sends, rx.c receives, lcores.c gives them their lcores, report.c
 * prints; run.h is what they share.
 */
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_random.h>

#include "fcr_text.h"
#include "fcr_crc.h"
#include "lcores.h"
#include "ports.h"
#include "report.h"
#include "run.h"
#include "rx.h"
#include "source.h"
#include "stamp.h"
#include "tx.h"

#define EXIT_RUNTIME 1
#define EXIT_USAGE 2

struct pg_run pg_run;

static void
on_signal(int sig)
{
	(void)sig;
	pg_run.quit = 1;
}

/* The built-in fabric or the capture; 0, or -1 with a message on stderr. */
static int
source_load(void)
{
	struct pg_source *src = &pg_run.src;
	char err[256];
	int rc;

	if (pg_run.o.pcap != NULL)
		rc = pg_source_pcap(src, pg_run.o.pcap, err, sizeof(err));
	else
		rc = pg_source_fabric(src, &pg_run.o.fab, err, sizeof(err));
	if (rc != 0) {
		fprintf(stderr, "fcoe-pktgen: %s\n", err);
		return -1;
	}
	if (src->skipped_long != 0)
		fprintf(stderr, "fcoe-pktgen: %" PRIu64 " capture frame(s) longer than %u bytes left out\n",
			src->skipped_long, PG_MAX_FRAME);
	if (src->n_bad_crc != 0)
		fprintf(stderr, "fcoe-pktgen: %u stamped frame(s) of the capture have a bad FC CRC; it stays bad\n",
			src->n_bad_crc);
	return 0;
}

/* Mbufs for the slots, the ports' descriptor rings, the bursts in hand
 * and the lcores' caches. NULL with a message on stderr. */
static struct rte_mempool *
pool_create(void)
{
	const struct pg_opts *o = &pg_run.o;
	struct rte_mempool *pool;
	uint32_t n_mbufs;

	n_mbufs = pg_tx_slots_count(pg_run.src.n) +
		  2u * ((uint32_t)o->rxd * o->rxq + o->txd) + 4u * o->burst +
		  512u * rte_lcore_count() + 1024u;
	pool = rte_pktmbuf_pool_create("pg_pool", n_mbufs, 256, 0,
				       RTE_PKTMBUF_HEADROOM + PG_MAX_FRAME,
				       (int)rte_socket_id());
	if (pool == NULL)
		fprintf(stderr, "fcoe-pktgen: no memory for %u mbufs of %u bytes (%s): give EAL more (-m)\n",
			n_mbufs, RTE_PKTMBUF_HEADROOM + PG_MAX_FRAME, rte_strerror(rte_errno));
	return pool;
}

/* Every way out of main: EAL released, the ports closed once started. */
static int
leave(int status, int ports_open)
{
	if (ports_open)
		pg_ports_close();
	rte_eal_cleanup();
	return status;
}

int
main(int argc, char **argv)
{
	const struct pg_opts *o = &pg_run.o;
	unsigned int lcore;
	uint32_t i, max_len = 0;
	int rc;

	if (fcr_version_asked(argc, argv, "fcoe-pktgen"))
		return 0;
	rc = rte_eal_init(argc, argv);
	if (rc < 0) {
		fprintf(stderr, "fcoe-pktgen: EAL initialisation failed: %s\n",
			rte_strerror(rte_errno));
		return EXIT_USAGE;
	}
	argc -= rc;
	argv += rc;
	argv[0] = (char *)"fcoe-pktgen";
	rc = pg_opts_parse(argc, argv, &pg_run.o);
	if (rc != 0)
		return leave(rc > 0 ? 0 : EXIT_USAGE, 0);
	if (!rte_eth_dev_is_valid_port(o->tx_port) || !rte_eth_dev_is_valid_port(o->rx_port)) {
		fprintf(stderr, "fcoe-pktgen: --tx-port %u / --rx-port %u: EAL has %u port(s) (give them with --vdev or a PCI device)\n",
			o->tx_port, o->rx_port, rte_eth_dev_count_avail());
		return leave(EXIT_USAGE, 0);
	}
	fcr_crc_init();
	if (source_load() != 0)
		return leave(EXIT_USAGE, 0);
	for (i = 0; i < pg_run.src.n; i++)
		if (pg_run.src.t[i].len > max_len)
			max_len = pg_run.src.t[i].len;

	pg_run.pool = pool_create();
	if (pg_run.pool == NULL)
		return leave(EXIT_RUNTIME, 0);
	if (pg_tx_slots_make() != 0) {
		fprintf(stderr, "fcoe-pktgen: no memory for the frame slots\n");
		return leave(EXIT_RUNTIME, 0);
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	if (pg_ports_config(max_len) != 0)
		return leave(EXIT_RUNTIME, 0);
	lcore = rte_get_next_lcore(-1, 1, 0);
	pg_report_start(lcore < RTE_MAX_LCORE);
	if (pg_ports_up() != 0)
		return leave(EXIT_RUNTIME, 1);

	pg_run.hz = rte_get_tsc_hz();
	pg_run.tag = (uint32_t)(rte_rand() & PG_TAG_MASK);
	pg_rx_init();
	pg_run.t_start = rte_rdtsc();
	pg_report_period_init();
	if (lcore < RTE_MAX_LCORE) {
		if (pg_run_dual(lcore) != 0)
			return leave(EXIT_RUNTIME, 1);
	} else {
		pg_run_single();
	}
	pg_report_summary();
	if (o->linger > 0)
		pg_rx_linger();

	pg_ports_close();
	pg_tx_slots_free();
	pg_source_free(&pg_run.src);
	rte_eal_cleanup();
	return 0;
}
