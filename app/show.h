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
};

void fcr_fwd_totals(struct fcr_fwd_totals *t);
void fcr_show_fwd_stats(FILE *out);
void fcr_show_port_stats(FILE *out);
void fcr_show_flows(FILE *out, uint32_t limit);
void fcr_show_routes(FILE *out);
void fcr_show_bindings(FILE *out);
void fcr_show_redirects(FILE *out);

#endif /* FCR_APP_SHOW_H */
