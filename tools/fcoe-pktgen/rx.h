/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The receive side: every frame back on --rx-port, and on --tx-port when
 * distinct (rx_other), is counted by class (measured or warm-up, stamped
 * or not), its latency added to the histogram and, with --check-crc, its
 * FC CRC checked; then freed.
 */
#ifndef FCR_PG_RX_H
#define FCR_PG_RX_H

#include <stdint.h>

#include "hist.h"
#include "options.h"

#define PG_MAX_RX_PORTS 2

struct pg_rx_stats {
	uint64_t total;            /* every frame received, every class */
	uint64_t frames, bytes;    /* measured, on --rx-port */
	uint64_t other;            /* measured, on --tx-port (when distinct) */
	uint64_t timed, untimed;   /* measured, by stamp */
	uint64_t warmup;           /* sent before measurement began */
	uint64_t reordered;        /* stamp sequence below one already seen on the queue */
	uint64_t crc_ok, crc_bad, crc_na; /* --check-crc; na: not a valid FCoE frame */
	/* per RX queue: a forwarder keeps a flow's frames on one queue in
	 * order (each of its workers sends on its own) */
	uint64_t max_seq[PG_MAX_RX_PORTS * PG_MAX_RXQ];
	int any_seq[PG_MAX_RX_PORTS * PG_MAX_RXQ];
	uint64_t t_last;           /* TSC of the last frame received */
	struct pg_hist hist;       /* measured latency, ticks */
	struct pg_hist ihist;      /* since the last periodic line */
};

/* Written by the receive side; the progress lines fold ihist into hist. */
extern struct pg_rx_stats pg_rxs;

/* The ports to poll, the histograms emptied. */
void pg_rx_init(void);
/* Poll every receiving port once; returns frames received. */
uint32_t pg_rx_poll(void);
/* --linger: links up, frames dropped, until the time is up or a signal. */
void pg_rx_linger(void);

#endif /* FCR_PG_RX_H */
