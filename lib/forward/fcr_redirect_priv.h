/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What a redirect (fcr_redirect.c) and its cutover (fcr_cutover.c) do to
 * each other's state: lib/forward only, the tables lcore's thread only.
 */
#ifndef FCR_REDIRECT_PRIV_H
#define FCR_REDIRECT_PRIV_H

#include <stdint.h>

#include "fcr_redirect.h"

/* fcr_redirect.c */

/* Make the redirect's entries exactly key[0..n) -> action[0..n). 0, or
 * -ENOSPC. */
int fcr_redirect_set_entries(struct fcr_redirect_table *rt, uint32_t id, const uint64_t *key,
			     const uint64_t *action, int n, int blocking);
/* Whether another redirect owns the entry of key. */
int fcr_redirect_owned_by_other(const struct fcr_redirect_table *rt, uint32_t id,
				uint64_t key);
/* Its entries in line with its members' FCIDs, noted when its state
 * changed (`was`: the state before). */
void fcr_redirect_install_noted(struct fcr_redirect_table *rt, uint32_t id, uint8_t was);
/* Every entry of a redirect being deleted removed. */
void fcr_redirect_uninstall(struct fcr_redirect_table *rt, uint32_t id);
/* Its members' bindings no longer referenced by it. */
void fcr_redirect_unref_names(struct fcr_redirect_table *rt, struct fcr_redirect *r,
			      uint32_t id);
/* Keys given up go at once to a redirect in conflict waiting for them. */
void fcr_redirect_retry_released(struct fcr_redirect_table *rt);

/* fcr_cutover.c */

/* The operator changed the pair's path: a cutover when the host can be
 * told, else the new path at once. */
void fcr_cutover_begin(struct fcr_redirect_table *rt, uint32_t id);
/* A member of a redirect in a cutover changed: the cutover ends when the
 * host logged in again or a member went (the new path; a ghost goes). */
void fcr_cutover_check(struct fcr_redirect_table *rt, uint32_t id);
/* A redirect given a new VI, in a cutover on its old rules: the new VI's
 * way to the target blocked until the cutover ends. */
void fcr_cutover_block_vi(struct fcr_redirect_table *rt, uint32_t id);
/* Exchanges begun less ended on the keys of the host (FCR_DRAIN_HOST) or
 * the VI since the entries exist, modulo 2^32. */
uint32_t fcr_cutover_exchanges(const struct fcr_redirect_table *rt,
			       const struct fcr_redirect *r, int who);

#endif /* FCR_REDIRECT_PRIV_H */
