/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What fcoe-pktgen prints on stdout: two lines saying what the run will
 * do, progress lines (`period ...`) while it runs, and the three
 * `summary key=value ...` lines scripts read.
 */
#ifndef FCR_PG_REPORT_H
#define FCR_PG_REPORT_H

#include <stdint.h>

/* Ports, source, rate, what is measured; two_lcores: tx and rx apart. */
void pg_report_start(int two_lcores);
/* Progress lines start counting at pg_run.t_start. */
void pg_report_period_init(void);
/* A progress line when the period is over (never with force: the last
 * call, at the end of the run); the interval's latency goes into the
 * run's histogram either way. Called by the lcore that receives. */
void pg_report_period(uint64_t now, int force);
void pg_report_summary(void);

#endif /* FCR_PG_REPORT_H */
