/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdio.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_launch.h>

#include "lcores.h"
#include "report.h"
#include "run.h"
#include "rx.h"
#include "tx.h"

/* After transmission: frames still in flight, until every frame sent is
 * back or --drain runs out (a forwarder descheduled for a while still
 * delivers what sits in its rings). */
static void
drain(void)
{
	uint64_t end = pg_run.sh.t_tx_end + (uint64_t)(pg_run.o.drain * (double)pg_run.hz);
	uint64_t now;

	for (;;) {
		now = rte_rdtsc();
		pg_rx_poll();
		if (pg_rxs.total >= __atomic_load_n(&pg_run.sh.tx_sent, __ATOMIC_RELAXED) ||
		    now >= end)
			break;
		pg_report_period(now, 0);
	}
}

static int
rx_lcore(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&pg_run.sh.tx_done, __ATOMIC_ACQUIRE)) {
		pg_rx_poll();
		pg_report_period(rte_rdtsc(), 0);
	}
	drain();
	pg_report_period(rte_rdtsc(), 1);
	return 0;
}

void
pg_run_single(void)
{
	struct pg_txq q;

	pg_tx_init(&q);
	while (pg_tx_poll(&q)) {
		pg_rx_poll();
		pg_report_period(rte_rdtsc(), 0);
	}
	pg_tx_finish(&q);
	drain();
	pg_report_period(rte_rdtsc(), 1);
}

int
pg_run_dual(unsigned int lcore)
{
	struct pg_txq q;
	int rc;

	rc = rte_eal_remote_launch(rx_lcore, NULL, lcore);
	if (rc != 0) {
		fprintf(stderr, "fcoe-pktgen: lcore %u: launch failed (%s)\n", lcore,
			rte_strerror(-rc));
		return -1;
	}
	pg_tx_init(&q);
	while (pg_tx_poll(&q))
		;
	pg_tx_finish(&q);
	rte_eal_wait_lcore(lcore);
	return 0;
}
