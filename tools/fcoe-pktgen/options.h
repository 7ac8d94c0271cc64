/* SPDX-License-Identifier: BSD-3-Clause */
/* The options after `--`, and --help. */
#ifndef FCR_PG_OPTIONS_H
#define FCR_PG_OPTIONS_H

#include <stdint.h>

#include "source.h"

/* largest --burst: the transmit and receive sides size their arrays by it */
#define PG_MAX_BURST 512u

#define PG_MAX_RXQ 16

struct pg_opts {
	uint16_t tx_port, rx_port;
	double rate;            /* frames per second; 0: as fast as possible */
	double duration;        /* measured seconds (after the warm-up) */
	uint64_t count;         /* measured frames; 0: no limit */
	int duration_set;
	uint32_t burst;
	double warmup;
	double stats_period;
	double drain;
	double link_wait;
	double linger;
	uint16_t rxd, txd;
	uint16_t rxq;           /* RX queues per port, all polled */
	int check_crc;
	const char *csv;        /* --csv PREFIX: PREFIX-latency.csv, PREFIX-rates.csv */
	const char *pcap;
	int fabric_opt;         /* --flows/--size/... given */
	struct pg_fabric_conf fab;
};

/* Defaults, then argv. 0; 1 after --help (printed); -1 with a message on
 * stderr naming the option. */
int pg_opts_parse(int argc, char **argv, struct pg_opts *o);

#endif /* FCR_PG_OPTIONS_H */
