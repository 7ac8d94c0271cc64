/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the parts of a run share: the options, the source, the mbuf pool,
 * the clock and the stamp tag, set before traffic starts and read-only
 * after; the quit flag; and the counters the transmit side writes for the
 * receive side, which may run on another lcore.
 */
#ifndef FCR_PG_RUN_H
#define FCR_PG_RUN_H

#include <stdint.h>

#include <rte_common.h>

#include "options.h"
#include "source.h"

struct rte_mempool;

/* Counters the transmit side writes and the receive side reads. */
struct pg_shared {
	uint64_t tx_sent;       /* every frame sent, warm-up included */
	uint64_t seq0;          /* first measured sequence number */
	uint64_t t_meas;        /* TSC when measurement began; 0 before */
	uint64_t t_tx_end;      /* TSC of the end of transmission */
	int tx_done;
};

struct pg_run {
	struct pg_opts o;
	struct pg_source src;
	struct rte_mempool *pool;
	uint64_t hz;            /* TSC ticks per second */
	uint64_t t_start;       /* TSC when traffic began */
	uint32_t tag;           /* this run's stamp tag (stamp.h) */
	volatile int quit;      /* SIGINT/SIGTERM */
	/* a line of its own: the transmit lcore writes it every burst */
	struct pg_shared sh __rte_cache_aligned;
};

extern struct pg_run pg_run;

static inline uint64_t
pg_load64(const uint64_t *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static inline void
pg_store64(uint64_t *p, uint64_t v)
{
	__atomic_store_n(p, v, __ATOMIC_RELEASE);
}

#endif /* FCR_PG_RUN_H */
