/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * All the tables and the operations of the one thread that changes them,
 * the tables lcore: configuration from the
 * command line, first frames and logins reported by workers. Workers read
 * `flows` and `routes` lock-free; everything else here is the tables lcore's.
 */
#ifndef FCR_TABLES_H
#define FCR_TABLES_H

#include <errno.h>
#include <stdint.h>

#include "fcr_binding.h"
#include "fcr_cutover.h"
#include "fcr_enode.h"
#include "fcr_event.h"
#include "fcr_flow.h"
#include "fcr_note.h"
#include "fcr_redirect.h"
#include "fcr_route.h"

struct rte_hash;
struct rte_rcu_qsbr;

struct fcr_tables_params {
	uint32_t max_flows;
	uint32_t max_routes;
	uint32_t max_bindings;      /* (VLAN, WWPN) pairs */
	uint32_t max_redirects;
	uint32_t nb_workers;
	uint16_t nb_ports;       /* routes name ports below it; 0: any */
	struct rte_rcu_qsbr *qsbr;
	int socket;
};

/* The tables lcore's own counters, shown by `show fwd stats`. */
#define FCR_TABLES_STATS(X) \
	X(flows_added, "plain flow entries created from first frames") \
	X(flow_table_full, "first frames that found the flow table full (the redirects' reserve left out)") \
	X(logins_seen, "fabric login frames reported by workers") \
	X(bindings_learned, "bindings learned or changed by a fabric login") \
	X(bindings_evicted, "bindings that lost their FCID to another port") \
	X(logouts, "bindings removed by a fabric logout or Clear Virtual Links") \
	X(acc_unmatched, "fabric login accepts with no request seen") \
	X(logins_untrusted, "fabric login replies and Clear Virtual Links that arrived on an edge port: ignored") \
	X(logins_static_kept, "fabric logins that would have changed a static binding: kept") \
	X(login_conflicts, "fabric login requests refused: one with the same exchange and ENode MAC waits from another port, or the ENode logged in through another edge port (by port: login_conflict)") \
	X(logins_pinned, "fabric logins of a WWPN a redirect names through another port or ENode than its last login: not learned, the member keeps its path (binding unpin moves it)") \
	X(logouts_refused, "fabric logouts of a VN_Port asked by another ENode than the one that logged it in: the binding kept") \
	X(pending_overflow, "fabric login requests forgotten: too many at once") \
	X(flows_expired, "plain flow entries removed after --flow-idle with no frame") \
	X(keepalive_timeouts, "ENodes silent for 2.5 keep-alive periods after keeping alive") \
	X(keepalive_unbound, "learned bindings removed with their silent ENode") \
	X(enode_relogins, "ENodes made to log in again whole (a Clear Virtual Link in their FCF's name): they kept alive with no login seen here, or an operator asked (enode relogin)") \
	X(enode_relogins_unsent, "of those, Clear Virtual Links that could not be sent (no mbuf, a full ring)") \
	X(cutovers, "VN_Ports made to log in again (the FCF's Clear Virtual Links) when the operator changed their pair's path") \
	X(cutovers_unsent, "VN_Ports that could not be made to log in again: not learned over FIP, no FCF advertisement seen on their VLAN, or no mbuf") \
	X(cutovers_timed_out, "cutovers that took the new path after 20 s without the host logging in again") \
	X(cutover_drains_timed_out, "cutovers whose pair still had exchanges open after 5 s of held commands: its ports told to log in again anyway") \
	X(cutover_vi_waits_timed_out, "cutovers whose VI, told first, had not logged in again through the new path after 10 s: the host told anyway") \
	X(sn_stalls, "service nodes found not answering: a redirect's host had exchanges open and its VT ended none for --sn-stall-ms") \
	X(sn_answering, "service nodes answering again after a stall (--sn-recover ends)") \
	X(sn_moves, "pairs of restartable redirects moved to another service node of their cluster, their node down for --sn-failover-ms (each a cutover)") \
	X(sn_failovers_stuck, "service nodes down for --sn-failover-ms whose restartable pairs found no up node of their cluster to move to: logged once a failure") \
	X(multipath_unredirected, "plain flows added between a port of a redirected host's node and a port of its target's node: a path of the pair that no redirect steers (redirect list says how many each group has; the first of a group logged)") \
	X(cleartext_alarms, "looks (every 100 ms) that found a redirect's VI sending the target data that does not look encrypted (--cleartext-guard); logged") \
	X(cleartext_stops, "redirects stopped by the cleartext guard (--cleartext-guard=drop): failing closed until `redirect resume`") \
	X(fcf_fc_map_conflicts, "advertisements of an FCF naming another FC-MAP than an FCF of its VLAN did (no --vlan-fc-map there): Linux ENodes then choose neither; logged once an FCF") \
	X(fcfs_untracked, "advertisements of an FCF not kept in the registry, its 63 slots taken: frames of its VN_Ports keep the FCF MAC they carry") \
	X(state_writes, "snapshots of the learned state written to --state-file") \
	X(state_write_failures, "snapshots of the learned state that could not be written to --state-file") \
	X(state_restored_bindings, "learned bindings restored from --state-file at start") \
	X(state_restored_redirects, "redirects restored from --state-file at start with the path their pair had (active, or in a cutover)") \
	X(state_redirects_recut, "restored redirects that were in a cutover: a cutover begun again when forwarding started") \
	X(state_redirects_removed, "restored redirects the configuration no longer names: removed through a cutover when forwarding started")

struct fcr_tables_stats {
#define FCR_TS_FIELD(name, text) uint64_t name;
	FCR_TABLES_STATS(FCR_TS_FIELD)
#undef FCR_TS_FIELD
};

struct fcr_change_log;
struct fcr_pending;

/* An FCF as its advertisements on a fabric port name it. */
#define FCR_OFFERED_PORTS 32
/* Ports with counters of their own here */
#define FCR_COUNTED_PORTS 32

struct fcr_fcf {
	uint8_t mac[6];
	uint8_t known;
	uint8_t map_known;        /* the VLAN's FC-MAP is from its advertisements */
	uint64_t name;
};

/* The FCF registry: every FCF seen advertising on a fabric port, by (VLAN,
 * MAC). A VLAN may have several, and each ENode chooses one: a frame to it
 * must come from that FCF's MAC, one from it (its VN_Port's S_ID) go to
 * that MAC, and a Clear Virtual Link name that FCF (its MAC and name), or
 * the ENode or the FCF drops it. A slot, once given, keeps its FCF: a
 * VN_Port's source word names it (FCR_VN_FCF_SHIFT) and the workers read
 * its MAC. When all are taken, a new FCF is counted (fcfs_untracked) and
 * its VN_Ports' frames keep the FCF MAC they carry. */
#define FCR_FCFS_MAX 63

struct fcr_fcf_seen {
	uint64_t mac;             /* fcr_vn_pack; set once, before any VN_Port names it */
	uint64_t name;
	uint32_t fc_map;          /* as it last advertised it; 0: not named */
	uint16_t vlan;
	uint8_t conflict_noted;   /* its FC-MAP conflict logged */
};

struct fcr_tables {
	struct fcr_change_log *log; /* replication: NULL when there is none */
	struct fcr_flow_table *flows;
	struct fcr_route_table *routes;
	struct fcr_binding_table *bindings;
	struct fcr_redirect_table *redirects;
	struct rte_hash *pending; /* fabric logins and logouts waiting for their reply */
	struct fcr_pending *pend; /* their state, by the hash's key position */
	/* The trust model: ports facing the fabric (bit per port). Bindings
	 * are learned only from the fabric's replies arriving on these ports;
	 * 0: none, nothing is learned (static bindings only). */
	uint32_t fabric_mask;
	uint16_t nb_ports;        /* routes name ports below it; 0: any */
	uint32_t fc_map;          /* FC-MAP where no FCF advertised one (--fc-map):
				   * fcr_tables_set_fc_map */
	struct fcr_enode_table *enodes; /* ENodes that keep alive */
	struct fcr_fcf *fcf;      /* [4096] the FCF seen advertising on each VLAN */
	/* [FCR_OFFERED_PORTS][64]: per fabric port, a bit per VLAN its FCF
	 * offered in FIP VLAN discovery (VLAN notifications) */
	uint64_t (*offered)[64];
	/* [4096] each VLAN's FC-MAP of FPMA MACs: its FCF's, else --fc-map;
	 * read by workers */
	uint32_t *vlan_fc_map;
	/* [4096] --vlan-fc-map: the VLAN's fabric's FC-MAP | FCR_FC_MAP_FIXED,
	 * 0 where none is given; read by workers (an advertisement naming
	 * another is dropped) */
	uint32_t *vlan_fc_map_fixed;
	uint32_t fka_ms;          /* the FCF's keep-alive period (its advertisements) */
	/* every sync peer is cabled as this node is (--sync-same-ports, an HA
	 * pair): port N of each reaches the same station */
	uint8_t peers_same_ports;
	struct fcr_fcf_seen fcfs[FCR_FCFS_MAX];
	unsigned int nb_fcfs;
	uint64_t ticks_per_ms;    /* of the events' tsc (rte_get_tsc_hz) */
	/* bumped when what the state file holds changes: a learned binding
	 * appears, changes or goes, an FCF record or fka_ms changes */
	uint64_t state_gen;
	struct fcr_tables_stats st;
	/* login_conflicts by the port of the refused request */
	uint64_t login_conflict[FCR_COUNTED_PORTS];
	struct fcr_note_hook note_hook;  /* bindings and redirects changing state */
};

struct fcr_tables *fcr_tables_create(const char *name,
				     const struct fcr_tables_params *p);
void fcr_tables_free(struct fcr_tables *t);

/* The FC-MAP (--fc-map) of the VLANs whose FCF advertised none. */
void fcr_tables_set_fc_map(struct fcr_tables *t, uint32_t fc_map);

/* --vlan-fc-map: vlan's fabric has FC-MAP fc_map; its FPMA MACs use it
 * from now, and an FCF advertising another on a fabric port is refused
 * (fcf_fc_map). */
#define FCR_FC_MAP_FIXED (1u << 24)
void fcr_tables_fix_fc_map(struct fcr_tables *t, uint16_t vlan, uint32_t fc_map);

/* An advertisement of FC-MAP fc_map on vlan: refused by --vlan-fc-map? */
static inline int
fcr_tables_fc_map_refused(const struct fcr_tables *t, uint16_t vlan, uint32_t fc_map)
{
	uint32_t f = __atomic_load_n(&t->vlan_fc_map_fixed[vlan & 0xFFF], __ATOMIC_RELAXED);

	return f != 0 && fc_map != 0 && fc_map != (f & 0xFFFFFF);
}

/* The FC-MAP of a VLAN's FPMA MACs: its FCF's, learned from its
 * advertisements on a fabric port, else --fc-map. Workers read it. */
static inline uint32_t
fcr_tables_fc_map(const struct fcr_tables *t, uint16_t vlan)
{
	return __atomic_load_n(&t->vlan_fc_map[vlan & 0xFFF], __ATOMIC_RELAXED);
}

/* Configured binding (static), or one a sync peer learned (its frames then
 * allowed from its FPMA MAC on any port). 0, or -ENOSPC. */
int fcr_tables_binding_add(struct fcr_tables *t, uint16_t vlan, uint64_t wwpn,
			   uint32_t fcid, enum fcr_bind_origin origin);
/* 0 or -ENOENT. */
int fcr_tables_binding_del(struct fcr_tables *t, uint16_t vlan, uint64_t wwpn);

/* (vlan, wwpn)'s node name (its login request's, a peer's, the state
 * file's; 0 changes nothing): a redirect naming it rewrites it in ELS
 * payloads beside its port name. replicate: a change to send to the sync
 * peers (a login's; not a peer's own, nor a restored one). */
void fcr_tables_binding_node(struct fcr_tables *t, uint16_t vlan, uint64_t wwpn, uint64_t wwnn,
			     int replicate);

/* An operator moves a redirect member on purpose: pin (vlan, wwpn) to
 * `port`, any ENode (port < 0: unpinned, its next login pins it where it
 * comes from). 0 or -ENOENT (no such binding). */
int fcr_tables_binding_pin(struct fcr_tables *t, uint16_t vlan, uint64_t wwpn, int port);

/*
 * A learned binding from the state file (app/state_file.c), at start: as a
 * fabric login would have learned it (the VN_Port table, the redirects
 * naming it, the change log), its frames allowed from vn (MAC | port <<
 * 48), its ENode enode (fcr_enode_key, 0: none). Its ENode is stamped in
 * the keep-alive table as kept alive one period (fka_ms) before now (the
 * workers' TSC; ticks_per_ms), so one that does not keep alive within 1.5
 * periods more is timed out (fcr_tables_keepalive) and its bindings go.
 * Not counted as learned. In an HA pair (peers_same_ports) it is neither
 * replicated (the peer's newer state wins) nor timed out here (a standby
 * hears no keep-alive). 0, -EEXIST (a static binding holds the WWPN or
 * the FCID), -ENOSPC.
 */
int fcr_tables_binding_restore(struct fcr_tables *t, uint16_t vlan, uint64_t wwpn,
			       uint32_t fcid, uint64_t vn, uint64_t enode, uint64_t now,
			       uint64_t ticks_per_ms);

/*
 * A binding a sync peer cabled as this node is learned (peers_same_ports):
 * its frames allowed from vn (MAC | port << 48, its FCF's slot here in
 * FCR_VN_FCF_MASK) and sent to that port, as
 * the peer's, if vn's port is an edge port here (else from its FPMA MAC on
 * any port, as fcr_tables_binding_add). Its ENode (enode, 0: none) is known
 * to have logged in, not watched: a standby hears no keep-alive before it
 * takes over, and one that then keeps alive is not made to log in again.
 * Not counted as learned. 0, -EEXIST (a static binding stands), -ENOSPC.
 */
int fcr_tables_binding_twin(struct fcr_tables *t, uint16_t vlan, uint64_t wwpn,
			    uint32_t fcid, uint64_t vn, uint64_t enode, uint64_t now);

/* The FCF a VLAN's advertisements on a fabric port name (or the state
 * file restores): its MAC, name and, map_known, its FC-MAP for the VLAN's
 * FPMA MACs. */
void fcr_tables_fcf_set(struct fcr_tables *t, uint16_t vlan, const uint8_t mac[6],
			uint64_t name, int map_known, uint32_t fc_map);

/* Start noting changes for replication. 0 or -ENOMEM. */
int fcr_tables_attach_log(struct fcr_tables *t, int socket);

/* Visit n flow entries for expiry (fcr_flow_expire, at most max_deleted
 * removed), counting those removed in st.flows_expired. */
void fcr_tables_expire(struct fcr_tables *t, uint32_t n, uint32_t max_deleted);

/* Apply one worker event. */
void fcr_tables_event(struct fcr_tables *t, const struct fcr_event *ev);

/* ENodes silent for 2.5 keep-alive periods (the workers' TSC, now, with
 * ticks_per_ms) are gone: their learned bindings are removed, so a redirect
 * whose VI or VT went with them fails closed. Returns how many ENodes. */
#define FCR_FKA_DEFAULT_MS 8000
unsigned int fcr_tables_keepalive(struct fcr_tables *t, uint64_t now,
				  uint64_t ticks_per_ms);

/* The registry slot of the FCF of MAC mac (fcr_vn_pack) on vlan, seen
 * advertising, or -ENOENT. */
int fcr_tables_fcf_slot(const struct fcr_tables *t, uint16_t vlan, uint64_t mac);

/* Register an FCF (its advertisement, the state file, or name 0: a sync
 * peer's binding naming it): its slot, its name updated (never to 0);
 * -ENOSPC (counted in fcfs_untracked) when all are taken. */
int fcr_tables_fcf_register(struct fcr_tables *t, uint16_t vlan, uint64_t mac, uint64_t name);

/* An FCF in slot `slot` advertised FC-MAP fc_map (0: none named): one
 * that names another than an FCF of its VLAN did is counted
 * (fcf_fc_map_conflicts) and, once an FCF, noted (FCR_NOTE_FC_MAP_CONFLICT). */
void fcr_tables_fcf_map_seen(struct fcr_tables *t, int slot, uint32_t fc_map);

/* The MAC (fcr_vn_pack) of the FCF a VN_Port's source word names, 0 when
 * it names none. */
static inline uint64_t
fcr_tables_vn_fcf(const struct fcr_tables *t, uint64_t vn)
{
	unsigned int s = fcr_vn_fcf(vn);

	return s == 0 ? 0 : t->fcfs[s - 1].mac;
}

/* The MAC a VN_Port's frames meet its FCF at (vn: its source word): 0
 * and mac, or -ENOENT when its FCF is not known. */
static inline int
fcr_tables_vn_fcf_mac(const struct fcr_tables *t, uint64_t vn, uint8_t mac[6])
{
	uint64_t m = fcr_tables_vn_fcf(t, vn);

	if (m == 0)
		return -ENOENT;
	fcr_vn_mac(m, mac);
	return 0;
}

/* The name of the FCF of MAC mac (fcr_vn_pack) on vlan, seen advertising:
 * 0 and *name, or -ENOENT (not registered, or by a peer's word alone). */
int fcr_tables_fcf_name(const struct fcr_tables *t, uint16_t vlan, uint64_t mac,
			uint64_t *name);

/* The FCF an ENode (fcr_enode_key) chose, by its keep-alives or logins,
 * else the VLAN's last advertiser: its MAC and name. 0, or -ENOENT when no
 * FCF of the VLAN is known. */
int fcr_tables_enode_fcf(const struct fcr_tables *t, uint16_t vlan, uint64_t enode,
			 uint8_t mac[6], uint64_t *name);

/* An ENode keeps alive with no login through it for this long (ticks)
 * before it is made to log in again: a keep-alive period, at least 5 s
 * (Linux keeps alive from its choice of FCF on, a few seconds before its
 * login). */
uint64_t fcr_tables_relogin_wait(const struct fcr_tables *t);

/* `enode relogin`: make the ENodes of MAC mac (NULL: every ENode seen on
 * an edge port) log in again now (FCR_NOTE_RELOGIN, by_operator). Returns
 * how many were told; *unknown_fcf those whose FCF is not known. */
unsigned int fcr_tables_enode_relogin(struct fcr_tables *t, const uint8_t *mac, uint64_t now,
				      unsigned int *unknown_fcf);

/* Flow events looked up together by fcr_tables_events. */
#define FCR_TABLES_BURST 64

/*
 * Apply n worker events, in order, with the same effect as n calls of
 * fcr_tables_event: the keys of each run of flow events (up to
 * FCR_TABLES_BURST, up to the next login) are looked up in one bulk lookup,
 * so a first frame of a flow already in the table costs a fraction of a
 * lookup of its own.
 */
void fcr_tables_events(struct fcr_tables *t, const struct fcr_event *ev,
		       unsigned int n);

/* What the state file holds changed since this last read another value:
 * a learned binding, an FCF, the keep-alive period, a pair's path. */
static inline uint64_t
fcr_tables_state_gen(const struct fcr_tables *t)
{
	return t->state_gen + t->redirects->path_gen;
}

#endif /* FCR_TABLES_H */
