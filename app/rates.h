/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Rates: two snapshots of the counters (the ports' own, the legs' and the
 * drops' since start) and what they make per second between them. `show
 * fwd rates` and --stats-period print them with a timestamp; telemetry's
 * /fcr/rates gives them since its previous read.
 */
#ifndef FCR_APP_RATES_H
#define FCR_APP_RATES_H

#include <stdint.h>
#include <stdio.h>

#include "fcr_flow.h"
#include "fcr_reason.h"
#include "fwd.h"

struct fcr_rates_snap {
	uint64_t tsc;
	uint64_t port_rx[FCR_MAX_PORTS], port_tx[FCR_MAX_PORTS];      /* frames */
	uint64_t port_rxb[FCR_MAX_PORTS], port_txb[FCR_MAX_PORTS];    /* bytes */
	uint64_t leg[FCR_LEG_COUNT], leg_bytes[FCR_LEG_COUNT];
	uint64_t drop[FCR_R_COUNT];
};

/* Per second between two snapshots (b after a). */
struct fcr_rates {
	double seconds;
	double port_rx_fps[FCR_MAX_PORTS], port_tx_fps[FCR_MAX_PORTS];
	double port_rx_bps[FCR_MAX_PORTS], port_tx_bps[FCR_MAX_PORTS];
	double leg_fps[FCR_LEG_COUNT], leg_bps[FCR_LEG_COUNT];
	double drop_ps[FCR_R_COUNT];
};

void fcr_rates_snap(struct fcr_rates_snap *s);
void fcr_rates_between(const struct fcr_rates_snap *a, const struct fcr_rates_snap *b,
		       struct fcr_rates *r);
/* The rates since the previous call (the first: since start), with the
 * wall-clock time and the interval: what `show fwd rates` prints. */
void fcr_show_fwd_rates(FILE *out);
/* The same as a command's handler, for the tables lcore (and -i's absence:
 * --stats-period). */
struct fcr_cmd;
int fcr_show_fwd_rates_cmd(const struct fcr_cmd *c, FILE *out);

#endif /* FCR_APP_RATES_H */
