/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The cleartext guard (--cleartext-guard), for encrypting service nodes:
 * the workers judge sampled data frames on each redirect's VI -> target leg
 * (fcr_pipeline_guard, fcr_cleartext.h) and count those that do not look
 * encrypted by redirect; the tables lcore looks at the counts every 100 ms.
 * A redirect whose count grew is noted (FCR_NOTE_CLEARTEXT: logged) and
 * counted; with `drop`, its pair is also stopped: it fails closed as a
 * redirect waiting for a member does (state `cleartext`), its VI kept from
 * the target too, until an operator resumes it (`redirect resume`). The
 * tables lcore's only.
 */
#ifndef FCR_GUARD_H
#define FCR_GUARD_H

#include <stdint.h>

struct fcr_redirect_table;
struct fcr_tables;

/* Every redirect looked at once; drop: stop those found passing clear
 * data (*stops: how many were stopped now). Returns how many redirects the
 * look found passing it. */
unsigned int fcr_redirect_guard_tick(struct fcr_redirect_table *rt, int drop,
				     unsigned int *stops);

/* The same for the tables, counted (cleartext_alarms, cleartext_stops). */
void fcr_tables_guard(struct fcr_tables *t, int drop);

/* An operator's word: a redirect the guard stopped takes its path again
 * (its rules installed if its members are bound). 0, -ENOENT (no such
 * redirect) or -EALREADY (not stopped). */
int fcr_redirect_resume(struct fcr_redirect_table *rt, uint16_t vlan, uint64_t host,
			uint64_t target);

/* Data frames the workers judged clear on a redirect's VI -> target leg
 * since it was added. */
uint64_t fcr_redirect_cleartext(const struct fcr_redirect_table *rt, uint32_t id);

#endif /* FCR_GUARD_H */
