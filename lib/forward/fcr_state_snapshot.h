/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What of the tables the state file (fcr_state.h) keeps: the bindings
 * learned from logins through this node's own ports (their port, VN_Port
 * MAC and ENode), each VLAN's FCF, and the path of each redirected pair
 * (a redirect active or in a cutover). Static bindings are the operator's
 * commands, and a binding a sync peer learned with no port here is the
 * peer's to send again; neither is kept. The tables lcore's.
 */
#ifndef FCR_STATE_SNAPSHOT_H
#define FCR_STATE_SNAPSHOT_H

#include <stddef.h>
#include <stdint.h>

struct fcr_tables;

/*
 * t's state, written by node at `written` (Unix seconds), into *buf, which
 * grows (realloc, a quarter to spare) when *cap is short. Its length, or 0
 * when memory or the node's name (1 to FCR_STATE_NODE_MAX bytes) fails.
 */
size_t fcr_state_snapshot(const struct fcr_tables *t, const char *node, uint64_t written,
			  uint8_t **buf, size_t *cap);

#endif /* FCR_STATE_SNAPSHOT_H */
