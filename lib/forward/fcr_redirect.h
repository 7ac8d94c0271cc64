/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Redirects: (VLAN, host WWPN, target WWPN) -> (VI WWPN, VT WWPN). When all
 * four names are bound, a redirect installs its four flow rules (docs/fcoe.md,
 * "FC-Redirect: the four rules"):
 *   host -> target   D_ID := VT      (to the service node)
 *   VI   -> target   S_ID := host    (the target still sees the host)
 *   target -> host   D_ID := VI      (to the service node)
 *   VT   -> host     S_ID := target  (the host still sees the target)
 * When a name is rebound the rules are rebuilt. A redirect that is not
 * active fails closed: while its host and target are bound, the pair's two
 * keys hold blocking entries (FCR_LEG_BLOCKED), so their frames are dropped
 * and counted, never forwarded directly. The flow table keeps six entries
 * for every redirect the table can hold (fcr_redirect_reserve), from the
 * start: plain flows never take them, so no flood of new flows can keep a
 * redirect from installing, and adding one never fails for want of room.
 * A change of a bound pair's path is a cutover: fcr_cutover.h.
 * The tables lcore's only.
 */
#ifndef FCR_REDIRECT_H
#define FCR_REDIRECT_H

#include <stdint.h>

#include "fcr_binding.h"
#include "fcr_flow.h"
#include "fcr_latency.h"
#include "fcr_liveness.h"
#include "fcr_note.h"

enum fcr_member { FCR_M_HOST, FCR_M_TARGET, FCR_M_VI, FCR_M_VT, FCR_M_COUNT };

/* Flow entries of an active redirect: its four rules, and the target -> VI
 * and host -> VT pairs kept hidden (FCR_LEG_HIDDEN). */
#define FCR_REDIRECT_KEYS 6

const char *fcr_member_name(enum fcr_member m);

enum fcr_redirect_state {
	FCR_RS_WAITING = 0, /* some member unbound: see fcr_redirect_missing */
	FCR_RS_ACTIVE,      /* four rules installed */
	FCR_RS_CONFLICT,    /* a rule key is owned by another redirect */
	FCR_RS_NO_ROOM,     /* flow table full: not expected, the reserve
			     * keeps room for every redirect's entries */
	FCR_RS_CLEARTEXT,   /* stopped by the cleartext guard (fcr_guard.h) */
};

const char *fcr_redirect_state_name(enum fcr_redirect_state s);

struct fcr_redirect {
	uint16_t vlan;
	uint8_t in_use;
	uint8_t state;               /* enum fcr_redirect_state */
	uint8_t sflags;              /* replication: FCR_SF_* */
	uint64_t version;            /* replication */
	uint32_t binding[FCR_M_COUNT];  /* its members' binding entries */
	uint32_t fcid[FCR_M_COUNT];  /* FCIDs the installed rules use */
	uint64_t installs;           /* times its rules were (re)installed */
	uint64_t frames_before;      /* frames forwarded plain on a rule key
				      * before the rule existed */
	uint64_t key[FCR_REDIRECT_KEYS]; /* its flow entries: 4 rules and 2 hidden
					  * pairs, 2 blocking, or none */
	uint8_t nb_keys;
	uint8_t blocking;            /* key[] are blocking entries */
	uint64_t not_ready_base;     /* the workers' not_ready counts when added */
	/* a cutover (docs/fcoe.md, "Cutover"): the pair keeps the path it had
	 * (its old rules, or none) until the host has logged in again, or
	 * FCR_CUTOVER_TICKS have passed; a deleted redirect stays as a ghost
	 * (not in_use: no key, no config) until then */
	uint8_t cutover;
	uint8_t cut_state;           /* enum fcr_cut_state (fcr_cutover.h) */
	uint8_t ghost;
	uint16_t cut_ticks;
	uint32_t cut_logins;         /* the host's logins when it began */
	/* the VI told first (FCR_CUT_TELLING_VI): its logins then, and the
	 * frames its target -> host rule had carried; vi_path: the new rules
	 * are in, the host's way blocked until it is back */
	uint8_t vi_told;
	uint8_t vi_path;
	uint32_t vi_logins;
	uint64_t vi_frames;
	/* its drain, before the host and the VI are told: FCR_DRAIN_HOST
	 * (the host's new commands held until its open exchanges have
	 * ended), FCR_DRAIN_VI (then the VI's), 0 when drained */
	uint8_t draining;
	uint16_t drain_ticks;
	uint32_t drain_pos;          /* its place in drain_list */
	uint64_t drain_token;        /* RCU: every worker has seen the hold */
	/* exchanges counted open on the host's and the VI's keys when its
	 * keys were last set: history of sessions gone, not open now */
	uint32_t xbase[2];
	/* its drain's exchange sets (FCR_ACTION_DRAIN): which, plus one; 0
	 * when it drains per flow (none was free) */
	uint8_t xset;
	/* a new VI's way to the target, blocked during its cutover (0: none) */
	uint64_t vi_block;
	/* restored from the state file (FCR_RESTORED_*): settled when
	 * forwarding first starts (fcr_redirect_settle_restored) */
	uint8_t restored;
	/* its service node answering the host's commands (fcr_liveness.h) */
	struct fcr_liveness live;
	/* the cleartext guard (fcr_guard.h): the workers' counts when it was
	 * added, those last looked at, and whether the guard stopped it */
	uint64_t clear_base;
	uint64_t clear_seen;
	uint8_t guarded;
	/* its multipath group (fcr_paths.h): the group's position + 1; 0: none */
	uint32_t path_group;
	/* the service-node cluster it names (fcr_sn.h; 0: it names its VI
	 * and VT), whether its pair may move to another node of it, and the
	 * node it is on: its slot + 1 (0: none) */
	uint64_t cluster;
	uint8_t restartable;
	uint32_t sn;
	uint64_t sn_frames;          /* its rules' host frames at its member's last look */
};

enum {
	FCR_RESTORED = 1 << 0,         /* not (yet) named by the configuration */
	FCR_RESTORED_CUTOVER = 1 << 1, /* it was in a cutover */
	FCR_RESTORED_NAMED = 1 << 2,   /* the configuration named it again */
};

enum { FCR_DRAIN_HOST = 1, FCR_DRAIN_VI = 2 };

struct fcr_redirect_table {
	struct rte_hash *by_key;     /* (vlan, host, target) -> id */
	struct fcr_redirect *r;
	/* each redirect's members' WWPNs as its rules were installed: the
	 * workers rewrite port names in ELS payloads with them */
	uint64_t (*wwpn)[FCR_M_COUNT];
	/* [capacity] the members' node names as the rules were installed
	 * (0: not known), for the workers' ELS rewrite beside the port names */
	uint64_t (*wwnn)[FCR_M_COUNT];
	uint32_t *free_idx;
	uint32_t nb_free;
	uint32_t capacity;
	uint32_t count;
	uint32_t nb_active;
	struct fcr_flow_table *flows;
	struct fcr_binding_table *bindings;
	struct fcr_change_log *log;  /* replication, when attached */
	const struct fcr_note_hook *note_hook; /* state changes, when set */
	int blocked;                 /* some may be in conflict or no_room */
	uint32_t released;           /* keys given up since the last retry */
	/* frames each worker dropped on a redirect's blocking entries, by
	 * redirect id: each written by its worker alone */
	uint64_t *not_ready[FCR_MAX_WORKERS];
	/* data frames each worker's cleartext guard judged clear on a
	 * redirect's VI -> target leg, by redirect id: each its worker's */
	uint64_t *cleartext[FCR_MAX_WORKERS];
	/* [capacity] the latency its service node adds (fcr_latency.h):
	 * written by the workers, cleared when a redirect is added */
	struct fcr_latency *lat;
	struct fcr_paths *paths;     /* multipath groups (fcr_paths.h) */
	struct fcr_sn_table *sns;    /* service-node clusters (fcr_sn.h) */
	uint32_t nb_workers;
	int retrying;
	uint32_t nb_cutover;         /* redirects in a cutover */
	uint32_t *drain_list;        /* the ids of those draining */
	uint32_t nb_draining;
	uint32_t cut_sent;           /* the awaited port will be, or was, told */
	/* the drains' exchange sets: [set][host, VI][OX_ID / 64], the
	 * workers set a held command's bit; each set taken by one redirect
	 * in a cutover (set_used), taken again only once every worker is
	 * past its release (set_token) */
	uint64_t (*xsets)[2][FCR_DRAIN_SET_WORDS];
	uint8_t set_used[FCR_DRAIN_SETS];
	uint64_t set_token[FCR_DRAIN_SETS];
	uint64_t drains_per_flow;    /* drains that found no set free */
	uint64_t drains_timed_out;   /* since the start: FCR_DRAIN_TICKS passed */
	uint64_t cutovers_timed_out; /* FCR_CUTOVER_TICKS passed */
	uint64_t vi_waits_timed_out; /* FCR_VI_TICKS passed */
	/* bumped when a pair's path may have changed (a redirect's state,
	 * its cutover): the state file's writer watches it */
	uint64_t path_gen;
	uint8_t restoring;           /* fcr_redirect_restore: no cutover */
};

/* A per-redirect count the workers keep one each of (not_ready,
 * cleartext), summed. */
uint64_t fcr_redirect_workers_sum(const struct fcr_redirect_table *rt, uint64_t *const *per_worker,
				  uint32_t id);

/* NULL with rte_errno ENOBUFS when the flow table cannot keep
 * fcr_redirect_reserve(capacity) entries. */
struct fcr_redirect_table *fcr_redirect_table_create(const char *name,
		uint32_t capacity, struct fcr_flow_table *flows,
		struct fcr_binding_table *bindings, int socket);
void fcr_redirect_table_free(struct fcr_redirect_table *rt);

/* Flow entries kept for `capacity` redirects: FCR_REDIRECT_KEYS each, and
 * as many more so that a redirect moving its rules to new FCIDs (new keys
 * set before the old go) never finds the table full. */
static inline uint32_t
fcr_redirect_reserve(uint32_t capacity)
{
	return FCR_REDIRECT_KEYS * (capacity + 1);
}

/* Add (or replace the VI/VT of) a redirect and install its rules if all
 * four ports are bound. Returns the id, or -EINVAL (a port named twice),
 * -ENOSPC (no room for another redirect or its members' bindings). */
int fcr_redirect_add(struct fcr_redirect_table *rt, uint16_t vlan,
		     uint64_t host, uint64_t target, uint64_t vi, uint64_t vt);
/* Remove; its rules revert to plain forwarding. 0 or -ENOENT. */
int fcr_redirect_del(struct fcr_redirect_table *rt, uint16_t vlan,
		     uint64_t host, uint64_t target);
/*
 * Restarts (docs/restart.md). A redirect whose pair had this path when the
 * state file was written comes back before the configuration is read:
 * installed at once if its four ports are restored, with no cutover (the
 * exchanges open at the ends began on this path), not replicated.
 * in_cutover: it was in one (or was a removed redirect's ghost). Returns
 * the id, or what fcr_redirect_add returns (-EEXIST: already there).
 */
int fcr_redirect_restore(struct fcr_redirect_table *rt, uint16_t vlan, uint64_t host,
			 uint64_t target, uint64_t vi, uint64_t vt, int in_cutover);

/*
 * When forwarding first starts, after the configuration has been read:
 * a restored redirect the configuration named again (fcr_redirect_add with
 * the same VI and VT) stays, and one that was in a cutover begins one again
 * (its ports are told to log in again: nobody knows whether they were);
 * one the configuration no longer names is removed through a cutover, as
 * `redirect del` would. Counts each in *kept, *recut, *removed.
 */
void fcr_redirect_settle_restored(struct fcr_redirect_table *rt, unsigned int *kept,
				  unsigned int *recut, unsigned int *removed);

/* Id of (vlan, host, target) or -ENOENT. */
int fcr_redirect_find(const struct fcr_redirect_table *rt, uint16_t vlan,
		      uint64_t host, uint64_t target);

/* Try again to install the redirects left in conflict (another redirect
 * owned a rule key) or no_room (the flow table was full): the other may be
 * gone, flows may have expired. Scans the table only when some are
 * blocked. Returns how many are active now. */
unsigned int fcr_redirect_retry_blocked(struct fcr_redirect_table *rt);

/* A binding changed, or its port logged in again: rebuild every redirect
 * that names it (one in a cutover ends it when its host has logged in
 * again, or a member went). */
void fcr_redirect_binding_changed(struct fcr_redirect_table *rt, uint32_t name);

/* A binding's node name changed: the workers' copy in every redirect that
 * names it (the rules' next install copies them all again). */
void fcr_redirect_node_changed(struct fcr_redirect_table *rt, uint32_t name);

/* Frames of its host-target pair dropped while it was not active. */
uint64_t fcr_redirect_dropped(const struct fcr_redirect_table *rt, uint32_t id);

/* First member that is not bound, or FCR_M_COUNT when all are. */
enum fcr_member fcr_redirect_missing(const struct fcr_redirect_table *rt,
				     uint32_t id);

#endif /* FCR_REDIRECT_H */
