/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Whether a redirect's service node answers, above FIP: a service node
 * whose FIP keeps alive while its application hangs takes the host's
 * commands and ends none, and the pair goes nowhere. The host's commands go
 * to the VT on the pair's rules and the VT's ends (FCP_RSP, BA_ACC) come
 * back on them; the workers count both (fcr_flow_count_exchange). A command
 * begun after the VT's last end and no end for `bound` ticks: the service
 * node is stalled; it answers again after `recover` ends. Only commands
 * begun since the last end count, so an exchange that never ends for a
 * reason of its own (an abort the VT refused) cannot raise it on an idle
 * pair; a hung VT is found at the host's next command (its retry). Noted and counted, nothing more:
 * the pair keeps failing closed on its own (the target never sees the
 * host's frames but through the service node). Pure; the tables lcore
 * steps it every 100 ms with the workers' counters.
 */
#ifndef FCR_LIVENESS_H
#define FCR_LIVENESS_H

#include <stdint.h>

struct fcr_liveness {
	uint64_t since;     /* when its ends last moved, or nothing new waited */
	uint32_t ends;      /* the VT's ends when last looked at */
	uint32_t begun;     /* the host's commands at the VT's last end */
	uint32_t answered;  /* ends since it stalled */
	uint64_t rule;      /* the host -> target rule's key it counted on */
	uint8_t seen;       /* looked at since its rules were in place */
	uint8_t stalled;
};

enum fcr_liveness_change {
	FCR_LIVE_SAME = 0,
	FCR_LIVE_STALLED,   /* commands begun since, no end for `bound` ticks */
	FCR_LIVE_ANSWERING, /* stalled, then `recover` ends */
};

/* One look at now (ticks): begun (the host's commands) and ends (the
 * VT's), modulo 2^32 as the workers count; open, at the first look only:
 * the commands begun less ended since the rules were set, which wait as
 * if begun after the last end. */
enum fcr_liveness_change fcr_liveness_step(struct fcr_liveness *l, uint32_t begun,
					   uint32_t ends, uint32_t open, uint64_t now,
					   uint64_t bound, uint32_t recover);

/* Forget what was seen (its rules went, or changed). */
static inline void
fcr_liveness_reset(struct fcr_liveness *l)
{
	l->seen = 0;
	l->stalled = 0;
	l->answered = 0;
}

struct fcr_redirect_table;

/* Every active redirect looked at once (now, bound: ticks); a change noted
 * (FCR_NOTE_SN_STALLED, FCR_NOTE_SN_ANSWERING). *stalls and *answering
 * get the changes of this look; returns the redirects stalled now. */
unsigned int fcr_redirect_liveness_tick(struct fcr_redirect_table *rt, uint64_t now,
					uint64_t bound, uint32_t recover,
					unsigned int *stalls, unsigned int *answering);

struct fcr_tables;

/* The same for the tables, counted (sn_stalls, sn_answering). */
void fcr_tables_liveness(struct fcr_tables *t, uint64_t now, uint64_t bound, uint32_t recover);

#endif /* FCR_LIVENESS_H */
