/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Who does what: with one lcore, transmit and receive take turns on it;
 * with two or more, the main lcore transmits and the next receives and
 * prints the progress lines. Either way the receive side then waits up to
 * --drain for frames in flight.
 */
#ifndef FCR_PG_LCORES_H
#define FCR_PG_LCORES_H

/* The run, transmit and receive on this lcore. */
void pg_run_single(void);
/* The run, transmit on this lcore and receive on `lcore`. 0, or -1 (with
 * a message on stderr) when `lcore` could not be launched. */
int pg_run_dual(unsigned int lcore);

#endif /* FCR_PG_LCORES_H */
