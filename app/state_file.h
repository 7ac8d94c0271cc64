/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The state file (--state-file): the learned bindings, the FCFs and the
 * redirected pairs' paths kept on
 * disk so that a restart (a crash, kill -9, systemctl restart, an upgrade)
 * does not lose them. Its format is lib/forward/fcr_state.h; this is its
 * I/O: loaded once at start, before the ports start; written by a thread
 * of its own from snapshots the tables lcore takes at most every 200 ms
 * while what it holds changes, and once more at a clean quit.
 * docs/restart.md.
 */
#ifndef FCR_APP_STATE_FILE_H
#define FCR_APP_STATE_FILE_H

#include <stdint.h>

struct fcr_tables;

/* At most one snapshot in this many ms. */
#define FCR_STATE_FILE_PERIOD_MS 200

/*
 * This node's identity, which a state file must carry to be taken: the
 * host name and the ports' names (PCI addresses, or net_pcap0 ...) in
 * port order, "HOST ports NAME0,NAME1,..." (past 255 bytes, the names
 * give way to their count and CRC32C). Call after EAL.
 */
void fcr_state_file_node(char *out, size_t len, uint16_t nb_ports);

/*
 * Before the ports start, the tables made and nothing forwarded: restore
 * path's learned bindings, FCFs and keep-alive period into t, whole or not
 * at all. A file refused is logged with its reason and renamed aside to
 * path.bad-<unix seconds>, and nothing of it is restored; no file is no
 * error. Returns the bindings restored.
 */
uint32_t fcr_state_file_load(const char *path, const char *node, struct fcr_tables *t,
			     uint16_t nb_ports, uint32_t fabric_mask, uint32_t max_bindings,
			     uint32_t max_redirects);

/* Tables lcore, when forwarding first starts, the configuration read
 * (fcr_tables_lcore_run): the restored redirects settled
 * (fcr_redirect_settle_restored), logged. Once; nothing without a state
 * file. */
void fcr_state_file_settle(void *arg);

/* The writer thread for path (after the load). 0, or -1 logged. */
int fcr_state_file_start(const char *path, const char *node, struct fcr_tables *t);

/* Tables lcore, each round: a snapshot to the writer when the state
 * changed, FCR_STATE_FILE_PERIOD_MS have passed since the last one and
 * the writer is idle (else at a later round); the writer's counters into
 * the tables' statistics. Never waits for I/O. */
void fcr_state_file_tick(uint64_t ms);

/* Tables lcore, on its way out: a last snapshot, whatever changed. */
void fcr_state_file_final(void);

/* After the tables lcore ended: the writer finishes and ends; its
 * counters into the tables' statistics. */
void fcr_state_file_stop(void);

#endif /* FCR_APP_STATE_FILE_H */
