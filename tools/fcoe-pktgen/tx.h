/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The transmit side: the source's frames in a loop, at full speed or paced
 * by the TSC to --rate, stamped just before they are sent; the warm-up,
 * then measurement until --duration or --count.
 *
 * Frames are sent from "slots": one mbuf per template position, kept with
 * an extra reference. A slot whose mbuf the driver has released (reference
 * count back to 1) is stamped again in place and sent again: no copy, no
 * allocation. A slot still in flight (a NIC that has not completed it yet)
 * is sent as a fresh copy of its template instead.
 */
#ifndef FCR_PG_TX_H
#define FCR_PG_TX_H

#include <stdint.h>

#include "options.h"
#include "source.h"

struct rte_mbuf;

struct pg_tx_stats {
	uint64_t frames, bytes;    /* measured (sequence >= seq0) */
	uint64_t refused;          /* frames tx_burst handed back (retried) */
	uint64_t copies;           /* slot still in flight: sent a copy */
	uint64_t alloc_fail;
	uint64_t unsent;           /* still refused when the run ended */
	uint64_t t_last;           /* TSC of the last measured frame sent */
};

/* Written by the transmit side only. */
extern struct pg_tx_stats pg_txs;

struct pg_txq {
	struct rte_mbuf *pkts[PG_MAX_BURST];
	const struct pg_tmpl *tm[PG_MAX_BURST];
	uint64_t seq[PG_MAX_BURST];
	uint32_t n;
	uint32_t cur;      /* next slot (or template when there are no slots) */
	uint64_t next_seq;
	uint64_t granted;  /* frames the pacing has allowed so far */
	uint64_t max_debt; /* frames behind schedule that are made up */
	uint32_t min_chunk; /* fewest frames worth a tx burst when paced */
	uint64_t t0;
	uint64_t warm_end;
	uint64_t meas_end; /* 0 when only --count ends the run */
	int building;
	uint64_t t_stop;
};

/* Mbufs the slots of a source of n_tmpl templates take; 0: too many
 * templates for slots, every frame is a copy. */
uint32_t pg_tx_slots_count(uint32_t n_tmpl);
/* The slots, filled from the source. 0, or -1 when memory runs out. */
int pg_tx_slots_make(void);
void pg_tx_slots_free(void);

/* Traffic starts now: pacing, warm-up and measurement clocks. */
void pg_tx_init(struct pg_txq *q);
/* One pass: build what pacing allows, stamp, send. Returns 0 when
 * transmission is over. */
int pg_tx_poll(struct pg_txq *q);
/* Frames the port still refuses are counted unsent and freed; the receive
 * side is told transmission has ended. */
void pg_tx_finish(struct pg_txq *q);

#endif /* FCR_PG_TX_H */
