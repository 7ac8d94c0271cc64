/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the sync lcore reports in the log as it happens: bindings learned
 * and lost, redirects going active or waiting (from the tables' notes),
 * link changes, and once a second, losses that counters alone would hide
 * (worker events dropped on full rings, first frames finding the flow table
 * full). The sync lcore only.
 */
#ifndef FCR_APP_NOTES_LOG_H
#define FCR_APP_NOTES_LOG_H

#include <stdint.h>

/* Hook the tables' notes and take the ports' link states as the start. */
void fcr_notes_log_init(void);
/* Call on every round of the sync lcore; works once a second. */
void fcr_notes_log_tick(uint64_t now_ms);

#endif /* FCR_APP_NOTES_LOG_H */
