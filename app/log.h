/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fcredirect's log types, on DPDK's rte_log: the same --log-level EAL
 * option, `set log level` command, syslog and stream as every DPDK library.
 *   fcr.main    start, stop, telemetry, live capture
 *   fcr.port    port setup, MTU, offloads, FCoE steering, link changes
 *   fcr.tables  bindings learned and lost, redirects going active or not,
 *               tables full, worker events lost
 *   fcr.sync    peers up and down, restarts, resyncs, refused datagrams
 *   fcr.cli     configuration commands applied (an audit trail, at info)
 *   fcr.store   the configuration store: read, watched, members lost, refusals
 */
#ifndef FCR_APP_LOG_H
#define FCR_APP_LOG_H

#include <stdint.h>

#include <rte_log.h>

extern int fcr_logtype_main;
extern int fcr_logtype_port;
extern int fcr_logtype_tables;
extern int fcr_logtype_sync;
extern int fcr_logtype_cli;
extern int fcr_logtype_store;

#define FCR_LOG_PFX_EMERG "emergency: "
#define FCR_LOG_PFX_ALERT "alert: "
#define FCR_LOG_PFX_CRIT "critical: "
#define FCR_LOG_PFX_ERR "error: "
#define FCR_LOG_PFX_WARNING "warning: "
#define FCR_LOG_PFX_NOTICE ""
#define FCR_LOG_PFX_INFO ""
#define FCR_LOG_PFX_DEBUG ""

/* FCR_LOG(WARNING, port, "port %u: ...", p) prints
 * "fcr.port: warning: port 0: ..." when fcr.port logs warnings. */
#define FCR_LOG(level, type, fmt, ...) \
	rte_log(RTE_LOG_##level, fcr_logtype_##type, \
		"fcr." #type ": " FCR_LOG_PFX_##level fmt "\n", ##__VA_ARGS__)

#define FCR_LOG_ENABLED(level, type) \
	rte_log_can_log((uint32_t)fcr_logtype_##type, RTE_LOG_##level)

/* Messages that a storm could repeat by the thousand (a fabric-wide
 * relogin, a flood of forged datagrams): at most FCR_LOG_BURST a second per
 * limiter, then one line saying how many were held back. One thread each. */
#define FCR_LOG_BURST 20

struct fcr_log_limit {
	const char *what;      /* "binding changes": for the held-back line */
	const char *name;      /* set by FCR_LOG_LIMITED */
	int type;
	uint32_t level;
	int listed;
	uint64_t second;
	uint32_t shown;
	uint64_t held;
};

int fcr_log_limit_take(struct fcr_log_limit *l, uint64_t now_ms);
/* Report what the limiters held back in a second that has ended; the
 * tables lcore calls it on its housekeeping round. */
void fcr_log_limits_report(uint64_t now_ms);

#define FCR_LOG_LIMITED(lim, now_ms, lvl, typ, fmt, ...) do { \
	if (FCR_LOG_ENABLED(lvl, typ)) { \
		(lim)->name = "fcr." #typ; \
		(lim)->type = fcr_logtype_##typ; \
		(lim)->level = RTE_LOG_##lvl; \
		if (fcr_log_limit_take(lim, now_ms)) \
			FCR_LOG(lvl, typ, fmt, ##__VA_ARGS__); \
	} \
} while (0)

/* After EAL: under systemd (JOURNAL_STREAM set), log to standard error
 * only, each line with its syslog level for the journal. */
void fcr_log_init(void);

/* Milliseconds on the monotonic clock. */
uint64_t fcr_now_ms(void);

#endif /* FCR_APP_LOG_H */
