/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Service-node clusters. A member is a VI and its node's VT, on a VLAN; a
 * node (a VT) serving several hosts of one target has a member per VI, as
 * the target's frames to a VI are rewritten back to one host by (VI,
 * target). A cluster is the members an operator names alike. A redirect
 * may name a cluster instead of a VI and a VT: it is placed on a member
 * whose VI carries no other pair to its target, by target (on the node its
 * target's other pairs of the cluster are on, so one target's I/O stays on
 * one node), else on the up node with the fewest pairs. A member is up
 * when its VI and VT are logged in and no pair on it found it not
 * answering (fcr_liveness.h) since they last logged in; down for the
 * failover time, the pairs of its restartable redirects move to other up
 * members (one whose VI alone went: another VI of its node first), each
 * through the exchange-safe cutover (fcr_cutover.h), and never move back
 * by themselves. A redirect that is not restartable stays on its member
 * and fails closed, as one naming its VI and VT does. Deleting a member
 * moves its pairs (the operator's word); the last of a cluster keeps them.
 * The tables lcore's only.
 */
#ifndef FCR_SN_H
#define FCR_SN_H

#include <stdint.h>

/* Members the tables hold, every cluster and VLAN together. */
#define FCR_SN_MAX 1024

/* A cluster's name: 1 to 8 of [A-Za-z0-9._-], kept as a number (its
 * bytes, first in the high byte, zero-padded), so that it fits a key. */
#define FCR_CLUSTER_STRLEN 9

/* name -> *cluster: 0, or -1 when it is not a cluster's name. */
int fcr_cluster_parse(const char *name, uint64_t *cluster);
/* The name of cluster, into buf (FCR_CLUSTER_STRLEN); returns buf. */
const char *fcr_cluster_format(uint64_t cluster, char *buf);

enum fcr_sn_state {
	FCR_SN_UP = 0,
	FCR_SN_UNBOUND,   /* its VI or its VT is not logged in */
	FCR_SN_STALLED,   /* a pair on it finds it not answering */
};

const char *fcr_sn_state_name(enum fcr_sn_state s);

struct fcr_sn {
	uint8_t in_use;
	uint8_t state;          /* enum fcr_sn_state */
	uint8_t sflags;         /* replication: FCR_SF_* */
	uint16_t vlan;
	uint64_t version;       /* replication */
	uint64_t cluster;
	uint64_t vi, vt;        /* WWPNs */
	uint64_t since_ms;      /* when its state last changed */
	uint32_t pairs;         /* redirects placed on it */
	uint32_t node_pairs;    /* on its node: every member with its VT */
	/* its pairs finding it not answering: the member's, not its node's, as
	 * a VT stalls for one member's VI gone (its I/O queued for another) */
	uint32_t stalled;
	/* found not answering: it stays so, though its pairs moved away and
	 * nothing looks any more, until its VI or VT logs in again (the
	 * service node restarted: latch_logins, their logins then) or an
	 * operator adds it again */
	uint8_t latched;
	uint8_t stuck_told;     /* a failover that found no up member, said */
	uint32_t latch_logins;
	uint64_t moved_in;      /* pairs moved to it from another member */
	uint64_t moved_out;     /* pairs moved from it */
	/* frames its pairs' hosts sent and got on their rules while on it,
	 * counted in passes over the redirects (about a second: a tenth a
	 * tick); the last pass's rate, and the pass under way's frames */
	uint64_t frames;
	uint64_t frames_acc;
	uint64_t rate;          /* frames per second */
	uint64_t frames_ms;     /* when frames was counted */
};

struct fcr_sn_table {
	struct fcr_sn sn[FCR_SN_MAX];
	uint32_t count;
	uint32_t moving;        /* restartable pairs on a down member, as of the last tick */
	uint64_t now_ms;        /* the last tick's time: a new member's since */
	uint32_t frames_pos;    /* where the pass counting frames goes on */
	uint64_t moves;         /* pairs moved, since the start */
	uint64_t stuck;         /* failovers that found no up member to move to */
};

struct fcr_redirect_table;

/* Slot of (vlan, cluster, vi), or -ENOENT. */
int fcr_sn_find(const struct fcr_redirect_table *rt, uint16_t vlan, uint64_t cluster,
		uint64_t vi);

/* 1 and *other (its cluster) when vi or vt is a port of another member on
 * vlan (a VT may be the VT of other members of its cluster: one node,
 * several VIs), else 0. */
int fcr_sn_ports_taken(const struct fcr_redirect_table *rt, uint16_t vlan, uint64_t cluster,
		       uint64_t vi, uint64_t vt, uint64_t *other);

/* Add a member, or give one its new VT (its pairs then move to the
 * new VT, each through a cutover). Returns the slot, or -EINVAL (its VI or
 * VT is another member's port: fcr_sn_ports_taken), -ENOSPC. */
int fcr_sn_add(struct fcr_redirect_table *rt, uint16_t vlan, uint64_t cluster, uint64_t vi,
	       uint64_t vt);
/* Remove one: its pairs move to the cluster's best other member, if it has
 * one. 0 or -ENOENT. */
int fcr_sn_del(struct fcr_redirect_table *rt, uint16_t vlan, uint64_t cluster, uint64_t vi);

/* Where a redirect of (vlan, cluster) to target goes now (self: its id,
 * UINT32_MAX for a new one; not member `except`, -1: any): a member whose
 * VI carries no other pair to the target, up first, then on the node (VT)
 * of the target's other pairs (none: on near_vt's, 0: any), then with the
 * fewest pairs. When it must
 * move (except >= 0), an up member only. A slot, or -ENOENT (no member on
 * vlan, none up to move to), -EBUSY (every member's VI carries a pair to
 * the target already). */
int fcr_sn_place(const struct fcr_redirect_table *rt, uint16_t vlan, uint64_t cluster,
		 uint64_t target, int except, uint32_t self, uint64_t near_vt);

/*
 * Add a redirect of a cluster: on pref_vi's member (a peer's placement)
 * when that is one of the cluster, else kept on the member it is on when
 * that is one, else placed (fcr_sn_place). Returns the redirect's id, or
 * what fcr_sn_place refuses with (-ENOENT, -EBUSY), or what
 * fcr_redirect_add returns.
 */
int fcr_redirect_add_cluster(struct fcr_redirect_table *rt, uint16_t vlan, uint64_t host,
			     uint64_t target, uint64_t cluster, int restartable,
			     uint64_t pref_vi);

/* The redirect names its VI and VT now: no cluster's any more. */
void fcr_redirect_leave_cluster(struct fcr_redirect_table *rt, uint32_t id);

/* The redirect's member changed (slot, or -1: none); the counts follow. */
void fcr_sn_set(struct fcr_redirect_table *rt, uint32_t id, int slot);

/*
 * Every member looked at (now: ms): its state from its ports and its pairs;
 * one down for failover_ms has its restartable pairs moved. Counts pairs,
 * and each member's frames and rate, a tenth of the redirects a tick. Returns the pairs
 * moved.
 */
unsigned int fcr_sn_tick(struct fcr_redirect_table *rt, uint64_t now_ms, uint64_t failover_ms);

struct fcr_tables;

/* The same for the tables, counted (sn_moves, sn_failovers_stuck). */
void fcr_tables_sn(struct fcr_tables *t, uint64_t now_ms, uint64_t failover_ms);

#endif /* FCR_SN_H */
