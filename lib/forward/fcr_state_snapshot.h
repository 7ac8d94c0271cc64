/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What of the tables the state file (fcr_state.h) keeps: the bindings
 * learned from logins through this node's own ports (their port, VN_Port
 * MAC, ENode and the FCF that accepted it), the FCFs seen (each VLAN's
 * own marked), and the path of each redirected pair
 * (a redirect active or in a cutover). Static bindings are the operator's
 * commands, and a binding a sync peer learned with no port here is the
 * peer's to send again; neither is kept. The tables lcore's.
 */
#ifndef FCR_STATE_SNAPSHOT_H
#define FCR_STATE_SNAPSHOT_H

#include <stddef.h>
#include <stdint.h>

struct fcr_tables;
struct fcr_state_binding;
struct fcr_state_fcf;

/*
 * t's state, written by node at `written` (Unix seconds), into *buf, which
 * grows (realloc, a quarter to spare) when *cap is short. Its length, or 0
 * when memory or the node's name (1 to FCR_STATE_NODE_MAX bytes) fails.
 */
size_t fcr_state_snapshot(const struct fcr_tables *t, const char *node, uint64_t written,
			  uint8_t **buf, size_t *cap);

/*
 * A decoded file's FCFs and bindings into t (fka_ms set first): each FCF
 * into the registry, each VLAN's own as its VLAN's; each binding restored
 * (fcr_tables_binding_restore) naming the registry slot of its FCF record,
 * now a TSC of ticks_per_ms. Returns the bindings restored.
 */
uint32_t fcr_state_restore(struct fcr_tables *t, const struct fcr_state_binding *b,
			   uint32_t nb_bindings, const struct fcr_state_fcf *f, uint32_t nb_fcfs,
			   uint64_t now, uint64_t ticks_per_ms);

#endif /* FCR_STATE_SNAPSHOT_H */
