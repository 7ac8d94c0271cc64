/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ENodes made to log in again whole: the self-healing start (an ENode that
 * keeps alive through an edge port with no login seen here logged in
 * before fcredirect knew it: a first start, a lost or refused state file,
 * an insertion into a live path) and the operator's `enode relogin`. The
 * tables decide (lib/forward/fcr_tables.c, FCR_NOTE_RELOGIN); here the
 * Clear Virtual Link is sent in the name of the ENode's own FCF and logged.
 */
#ifndef FCR_APP_RELOGIN_H
#define FCR_APP_RELOGIN_H

#include "fcr_note.h"

/* The tables lcore, on FCR_NOTE_RELOGIN: send, log. */
void fcr_relogin_carry_out(const struct fcr_note *n);

#endif /* FCR_APP_RELOGIN_H */
