/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the tables lcore reports in the log as it happens: bindings learned
 * and lost, redirects going active or waiting (from the tables' notes),
 * link changes, and once a second, losses that counters alone would hide
 * (worker events dropped on full rings, first frames finding the flow table
 * full). The tables lcore only, but for the link hold below.
 */
#ifndef FCR_APP_NOTES_LOG_H
#define FCR_APP_NOTES_LOG_H

#include <stdint.h>
#include <stdio.h>

#include "fcr_note.h"

/* Take the ports' link states as the start. */
void fcr_notes_log_init(void);
/* Log one of the tables' notes (the tables lcore's note hook calls it). */
void fcr_notes_log(const struct fcr_note *n);
/* Call on every round of the tables lcore; works once a second. */
void fcr_notes_log_tick(uint64_t now_ms);

/*
 * A port command (any lcore) holds the link watch while it stops, starts or
 * resets a port, then releases it printing the link state it leaves to
 * `tell`, which the watcher then takes as known: the operator reads the
 * change in the command's own answer, not later in the middle of another's.
 * tell NULL (the command failed): nothing printed, nothing taken as known.
 */
void fcr_links_hold(void);
void fcr_links_release(uint16_t port, FILE *tell);

#endif /* FCR_APP_NOTES_LOG_H */
