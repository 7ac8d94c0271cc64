/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Exchange-safe cutover of a redirect's host-target pair (docs/fcoe.md,
 * "Cutover"): when the operator changes the path of a bound pair (a
 * redirect added, its service node replaced, or deleted), no exchange
 * opened on the old path may go on on the new one. The pair drains (the
 * host's new commands held until its open exchanges have ended, then the
 * VI's), then the host and the service node's VI are made to log in again
 * (the FCF's Clear Virtual Links, in its name), and the pair keeps its old
 * path until the host has logged in again. Here: the drain, the tick, and
 * what must be told to whom; fcr_redirect.c keeps the redirects themselves.
 * The tables lcore's only.
 *
 * The hook. The state machine tells its steps as notes on the tables'
 * note hook (FCR_NOTE_CUTOVER when a path changes, FCR_NOTE_DRAINED when
 * the pair has drained) and reads back, before it goes on, whether the
 * host was told (fcr_redirect_cutover_told). The tables' owner passes
 * those notes to fcr_cutover_plan, sends the Clear Virtual Links it asks
 * for and says how each went (fcr_cutover_sent): the frames' sending is
 * all the owner does. Every decision is fcr_cutover_step's (below), a pure
 * function of the state and the event; fcr_cutover.c feeds it the events
 * and carries out its actions.
 */
#ifndef FCR_CUTOVER_H
#define FCR_CUTOVER_H

#include <stdint.h>
#include <stdio.h>

#include "fcr_note.h"
#include "fcr_redirect.h"

struct fcr_tables;

/*
 * The cutover's decisions, a pure state machine: a redirect's cutover
 * state and one event give the next state and the actions to take, in
 * the order of their bits; fcr_cutover.c carries the actions out on the
 * tables (the hold, the notes that have the owner send Clear Virtual
 * Links, the new path) and feeds back the events.
 */
enum fcr_cut_state {
	FCR_CUT_IDLE = 0,    /* no cutover */
	FCR_CUT_DRAIN_HOST,  /* the host's new commands held, its exchanges ending */
	FCR_CUT_DRAIN_VI,    /* then the VI's */
	FCR_CUT_TELLING_VI,  /* drained: the VI of the new path being told */
	FCR_CUT_VI_TOLD,     /* the new path's rules in, the host's way blocked,
			      * until the VI has logged in again through it */
	FCR_CUT_TELLING,     /* the host (and the VI when not told first)
			      * being told */
	FCR_CUT_TOLD,        /* the old path (or blocked) until the host is back */
	FCR_CUT_STATES
};

enum fcr_cut_event {
	FCR_CUT_EV_CHANGE = 0,  /* the operator changed the pair's path */
	FCR_CUT_EV_DRAINED,     /* the side draining has nothing open, every
				 * worker past its hold */
	FCR_CUT_EV_TICK,        /* 100 ms passed */
	FCR_CUT_EV_TOLD,        /* the awaited port's Clear Virtual Link went
				 * out (the VI's when telling it first, else
				 * the host's) */
	FCR_CUT_EV_UNTOLD,      /* it could not be sent (cutovers_unsent) */
	FCR_CUT_EV_VI_BACK,     /* the VI logged in again and the target
				 * answered its logins through the new path */
	FCR_CUT_EV_HOST_BACK,   /* the host logged in again */
	FCR_CUT_EV_MEMBER_GONE, /* a member of the pair has no FCID any more */
	FCR_CUT_EVENTS
};

/* What the event found. */
struct fcr_cut_in {
	uint8_t clearable;   /* CHANGE: the host can be made to log in again */
	uint8_t host_keys;   /* CHANGE: the pair has entries to drain */
	uint8_t vi_keys;     /* DRAINED: the VI has entries to drain (rules) */
	uint8_t plain;       /* TOLD: a new redirect's pair, plain until now */
	uint8_t vi_first;    /* CHANGE, DRAINED, TICK: the new path has a VI,
			      * bound, to log in to the target through it
			      * before the host comes (not a deleted one's) */
	uint16_t ticks;      /* TICK: ticks in this step before this one */
};

enum {
	FCR_CUT_A_HOLD_HOST = 1 << 0,    /* hold the host's commands, drain */
	FCR_CUT_A_HOLD_VI = 1 << 1,      /* hold the VI's commands */
	FCR_CUT_A_TELL = 1 << 2,         /* make the host and the VI log in again */
	FCR_CUT_A_BLOCK = 1 << 3,        /* the pair fails closed till the host is back */
	FCR_CUT_A_NEW_PATH = 1 << 4,     /* the newest path now: the cutover ends */
	FCR_CUT_A_DRAIN_TIMEOUT = 1 << 5,   /* count cutover_drains_timed_out */
	FCR_CUT_A_CUTOVER_TIMEOUT = 1 << 6, /* count cutovers_timed_out */
	FCR_CUT_A_RESET_TICKS = 1 << 7,  /* a new step: its ticks from 0 */
	FCR_CUT_A_TELL_VI = 1 << 8,      /* make the VI(s) log in again first */
	FCR_CUT_A_VI_PATH = 1 << 9,      /* the new rules in, the host's way
					  * blocked until the host is back */
	FCR_CUT_A_VI_TIMEOUT = 1 << 10,  /* count cutover_vi_waits_timed_out */
};

struct fcr_cut_step {
	uint8_t state;       /* enum fcr_cut_state */
	uint16_t actions;    /* FCR_CUT_A_* */
};

/* The next state and the actions of `ev` in `s`. Events that mean nothing
 * in a state change nothing (a change during a cutover joins it: the
 * host's new login takes the newest path). */
struct fcr_cut_step fcr_cutover_step(enum fcr_cut_state s, enum fcr_cut_event ev,
				     const struct fcr_cut_in *in);
const char *fcr_cut_state_name(enum fcr_cut_state s);

/* Ticks (every 100 ms) a drain waits for the pair's open exchanges to end
 * before its ports are told to log in again anyway. */
#define FCR_DRAIN_TICKS 50

/* Ticks (fcr_redirect_cutover_tick, every 100 ms) a cutover waits for the
 * host to log in again before the new path is taken anyway. */
#define FCR_CUTOVER_TICKS 200

/* Ticks a cutover waits for the VI, told first, to log in again through
 * the new path before the host is told anyway. */
#define FCR_VI_TICKS 100

/* Frames from the target to the VI, after its new login, that say the
 * target answered its logins (the accepts of its PLOGI and its PRLI). */
#define FCR_VI_BACK_FRAMES 2

/* Whoever hears FCR_NOTE_CUTOVER says so when it can tell the host (the
 * note's wwpn) to log in again, and, on FCR_NOTE_DRAINED, when it did:
 * the pair then drains and keeps its old path until the host has logged
 * in again; else the new path is taken at once. */
static inline void
fcr_redirect_cutover_told(struct fcr_redirect_table *rt)
{
	rt->cut_sent = 1;
}

/* As often as it can while some are draining (nb_draining): a cutover
 * whose pair has no exchange open any more, with every worker past the
 * hold, is drained (FCR_NOTE_DRAINED). */
void fcr_redirect_drain_poll(struct fcr_redirect_table *rt);

/* Exchanges open now between a host and a target of vlan, by WWPN: on
 * their redirect's rules (the host's and the VI's) when they have one,
 * else on their plain flows; 0 when either is not bound. For
 * `redirect add ... when idle`. */
uint64_t fcr_cutover_pair_open(const struct fcr_tables *t, uint16_t vlan, uint64_t host,
			       uint64_t target);

/* Exchanges open on the keys a draining redirect waits on now. */
uint64_t fcr_redirect_open(const struct fcr_redirect_table *rt, uint32_t id);

/* Exchanges its drain saw begin after the change (distinct OX_IDs of the
 * commands held, the host's and the VI's); 0 when it drains per flow. */
unsigned int fcr_redirect_held_exchanges(const struct fcr_redirect_table *rt, uint32_t id);

/* `show redirect <id>`: the redirect's members (WWPN, FCID), its state,
 * and what its cutover waits for. -1 (with an error line) when no
 * redirect has that id. */
int fcr_redirect_describe(FILE *out, const struct fcr_redirect_table *rt, uint32_t id);

/* Every 100 ms: drains that waited FCR_DRAIN_TICKS end anyway (counted in
 * *drains_timed_out), VIs not back after FCR_VI_TICKS have the host told
 * anyway (*vi_waits_timed_out), cutovers that waited FCR_CUTOVER_TICKS
 * after take the new path. Returns how many did. */
unsigned int fcr_redirect_cutover_tick(struct fcr_redirect_table *rt,
				       unsigned int *drains_timed_out,
				       unsigned int *vi_waits_timed_out);

/* The tables' owner, every 100 ms: fcr_redirect_cutover_tick, counted in
 * the tables' counters (cutovers_timed_out, cutover_drains_timed_out,
 * cutover_vi_waits_timed_out). */
void fcr_cutover_tick(struct fcr_tables *t);

/* Send a Clear Virtual Link for one VN_Port: from the FCF (its MAC and
 * switch name) to the ENode behind an edge port, on a VLAN. */
struct fcr_cvl {
	uint16_t vlan;
	uint16_t port;           /* the edge port the ENode logged in through */
	uint8_t enode_mac[6];    /* to */
	uint8_t vn_mac[6];       /* the VN_Port's MAC */
	uint8_t fcf_mac[6];      /* from */
	uint64_t fcf_name;       /* the FCF's switch name */
	uint32_t fcid;           /* the VN_Port's */
	uint64_t wwpn;
};

#define FCR_CUTOVER_TELL_MAX 3

/* One port of the pair to make log in again. */
struct fcr_cutover_tell {
	uint8_t member;          /* FCR_M_HOST or FCR_M_VI */
	uint8_t clearable;       /* 0: it cannot be told (counted already) */
	uint8_t awaited;         /* the cutover waits for its new login */
	uint32_t binding;        /* clearable: its binding entry */
	struct fcr_cvl cvl;      /* vlan and wwpn always; all when clearable */
};

/* What the cutover asks on a note, in order. */
struct fcr_cutover_plan {
	uint8_t held;            /* FCR_NOTE_CUTOVER: the host can be told, so
				  * the pair drains, its new commands held */
	uint8_t nb;              /* tell[0..nb): the host, then the VI, then
				  * a new VI that replaces it (the VIs alone
				  * when told first, the host alone after) */
	struct fcr_cutover_tell tell[FCR_CUTOVER_TELL_MAX];
};

/*
 * The tables' owner, on each note of its tables: what the cutover decides.
 * FCR_NOTE_CUTOVER whose host can be told: held, the host taken as told
 * (nothing to send yet). FCR_NOTE_CUTOVER whose host cannot, and
 * FCR_NOTE_DRAINED: the host and the VI (those n->tell names), each
 * clearable when it was
 * learned over FIP through an edge port (its ENode known) on a VLAN whose
 * FCF advertised itself; those that are not are counted (cutovers_unsent).
 * Any other note, or no fabric port (a lab: no ENode to tell): nothing.
 * Returns how many Clear Virtual Links to send (tell[] clearable).
 */
unsigned int fcr_cutover_plan(struct fcr_tables *t, const struct fcr_note *n,
			      struct fcr_cutover_plan *p);

/* A clearable tell's Clear Virtual Link went out (sent) or not (no mbuf,
 * a full ring): counted (cutovers, cutovers_unsent); once out, its
 * VN_Port's leftovers are dropped (leaving) and, for the awaited one, the
 * cutover waits for its new login. */
void fcr_cutover_sent(struct fcr_tables *t, const struct fcr_cutover_tell *x, int sent);

#endif /* FCR_CUTOVER_H */
