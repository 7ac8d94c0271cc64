/* SPDX-License-Identifier: BSD-3-Clause */
/* What the show and list commands print. */
#ifndef FCR_APP_SHOW_H
#define FCR_APP_SHOW_H

#include <stdint.h>
#include <stdio.h>

#include "fwd.h"

/* Totals over all workers. */
struct fcr_fwd_totals {
	struct fcr_worker_stats w;
	uint64_t rx, tx, dropped;
	uint64_t made;  /* sent, received by no port: rx + made == tx + dropped */
};

/* since_clear: since the last `clear fwd stats` (else since start) */
void fcr_fwd_totals(struct fcr_fwd_totals *t, int since_clear);
/* What show fwd stats prints: since the last `clear fwd stats`. */
void fcr_show_fwd_stats(FILE *out);
/* The same as a command's handler, for the tables lcore (and `stop`). */
struct fcr_cmd;
int fcr_show_fwd_stats_cmd(const struct fcr_cmd *c, FILE *out);
void fcr_clear_fwd_stats(void);
/* port < 0: all ports */
void fcr_show_port_stats(FILE *out, int port);
void fcr_clear_port_stats(void);
void fcr_show_port_info(FILE *out, int port);
void fcr_show_port_xstats(FILE *out, uint16_t port);
/* vlan < 0: every VLAN; top 0: table order (at most 1000), else the busiest */
void fcr_show_flows(FILE *out, int vlan, uint32_t top);
/* The top (<= capacity of rows) busiest flows of a VLAN (< 0: all), sorted;
 * returns how many; *total: how many flows were looked at. */
struct fcr_flow_row {
	uint64_t frames;
	uint32_t idx;
};
uint32_t fcr_top_flows(int vlan, uint32_t top, struct fcr_flow_row *rows,
		       uint32_t *total);
void fcr_show_lcores(FILE *out);
void fcr_show_config(FILE *out);
void fcr_show_config_fwd(FILE *out);
void fcr_show_redirect_paths(FILE *out);
void fcr_show_fcf(FILE *out);
void fcr_show_fip_sessions(FILE *out);
void fcr_show_mempool(FILE *out);

#endif /* FCR_APP_SHOW_H */
