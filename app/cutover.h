/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Exchange-safe cutover: when the operator changes the path of a bound
 * host-target pair (a redirect added, its service node replaced, or
 * deleted), no exchange opened on the old path may go on on the new one.
 * Once the pair's open exchanges have ended (its new commands held
 * meanwhile: lib/forward/fcr_redirect.c, "drain"), fcredirect makes the
 * host and the service node's VI log in again, as
 * FC-Redirect deployments require of hosts: it sends each ENode the FCF's
 * Clear Virtual Links for that VN_Port, in the FCF's name (its MAC and
 * switch name, from its advertisements). The port logs in to the fabric
 * again, its open exchanges end, and its new PLOGI implicitly logs out the
 * old session at the other end: every exchange then begins on one path.
 */
#ifndef FCR_CUTOVER_H
#define FCR_CUTOVER_H

#include "fcr_note.h"

/* The ring that carries the frames to worker 0. 0 or -1. */
int fcr_cutover_init(void);
/* The sync lcore, on FCR_NOTE_CUTOVER: whether the host can be told. */
void fcr_cutover_note(const struct fcr_note *n);
/* The sync lcore, on FCR_NOTE_DRAINED: the host and the VI told. */
void fcr_cutover_drained(const struct fcr_note *n);

#endif /* FCR_CUTOVER_H */
