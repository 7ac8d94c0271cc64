/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Exchange-safe cutover, its frames: what lib/forward/fcr_cutover.c
 * decides a cutover must tell, sent. When the operator changes the path of
 * a bound host-target pair, fcredirect makes the host and the service
 * node's VI log in again, as FC-Redirect deployments require of hosts: it
 * sends each ENode the FCF's Clear Virtual Links for that VN_Port, in the
 * FCF's name (its MAC and switch name, from its advertisements), through
 * worker 0. The port logs in to the fabric again, its open exchanges end,
 * and its new PLOGI implicitly logs out the old session at the other end:
 * every exchange then begins on one path.
 */
#ifndef FCR_APP_CUTOVER_H
#define FCR_APP_CUTOVER_H

#include "fcr_cutover.h"
#include "fcr_note.h"

/* The ring that carries the frames to worker 0. 0 or -1. */
int fcr_cutover_init(void);
/* One Clear Virtual Link, in the FCF's name (c's MAC and name), to the
 * ENode c names through worker 0's ring: for c's VN_Port, or with whole
 * for the whole ENode (no VN_Port named). 0 when it went out. */
int fcr_cutover_send_cvl(const struct fcr_cvl *c, int whole);

/* The tables lcore, with the plan fcr_cutover_plan made of note n: each
 * Clear Virtual Link sent, how it went told back to the tables, logged. */
void fcr_cutover_carry_out(const struct fcr_note *n, const struct fcr_cutover_plan *p);

#endif /* FCR_APP_CUTOVER_H */
