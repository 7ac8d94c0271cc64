/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Notes from the tables to whoever runs them: a binding learned, moved or
 * removed, a redirect whose rules came or went. The tables lcore's thread calls
 * the hook synchronously, after the tables have changed; the app turns the
 * notes into log lines. Without a hook nothing is noted.
 */
#ifndef FCR_NOTE_H
#define FCR_NOTE_H

#include <stddef.h>
#include <stdint.h>

enum fcr_note_kind {
	FCR_NOTE_BOUND,     /* wwpn now holds fcid (old_fcid: before, or NONE) */
	FCR_NOTE_UNBOUND,   /* wwpn lost old_fcid: removed, logged out, evicted */
	FCR_NOTE_REDIRECT,  /* redirect `redirect` went old_state -> new_state */
	FCR_NOTE_STATIC_KEPT, /* a fabric login gave wwpn fcid; the static
			       * binding (old_fcid: its FCID, or the WWPN
			       * statically bound to fcid) stays */
	FCR_NOTE_UNTRUSTED, /* a fabric login reply arrived on edge port
			     * `port`: ignored */
	FCR_NOTE_CUTOVER,   /* redirect `redirect` was added, replaced or
			     * deleted while its host (wwpn) and target were
			     * bound: the pair's path changed under any open
			     * exchange; other_wwpn the service node's VI
			     * (of the rules in place), new_vi its new one.
			     * The host's new commands are held from here */
	FCR_NOTE_RELOGIN,   /* the ENode `enode` on edge port `port` is to be
			     * made to log in again, whole (a Clear Virtual
			     * Link with no VN_Port named, in the name of
			     * its FCF: fcf_mac, fcf_name): it keeps alive
			     * but no login through it was ever seen here
			     * (or an operator asked: by_operator) */
	FCR_NOTE_LOGIN_CONFLICT, /* a fabric login request for wwpn from
				  * port `port` refused: a request with its
				  * exchange and ENode MAC waits from
				  * other_port, or its ENode (enode) logged in
				  * through other_port */
	FCR_NOTE_LOGIN_PINNED, /* the fabric granted wwpn, which a redirect
				* names, fcid through port `port` (ENode
				* enode): it is pinned to other_port (and
				* its ENode): not learned */
	FCR_NOTE_LOGOUT_REFUSED, /* the fabric accepted a logout of wwpn
				  * (fcid) that ENode enode asked, not the
				  * ENode that logged it in: kept */
	FCR_NOTE_SN_STALLED, /* redirect `redirect`'s service node (VT
			      * other_wwpn) ended nothing for --sn-stall-ms
			      * while the host (wwpn) began `open` commands */
	FCR_NOTE_SN_ANSWERING, /* and it ends them again */
	FCR_NOTE_FC_MAP_CONFLICT, /* the FCF fcf_mac on vlan advertises FC-MAP
				   * fcid, another FCF of the VLAN (enode: its
				   * MAC, packed) old_fcid */
	FCR_NOTE_CLEARTEXT, /* redirect `redirect`'s VI (other_wwpn) sent data
			     * to the target as the host (wwpn) that does
			     * not look encrypted: `open` frames judged so */
	FCR_NOTE_MULTIPATH, /* a plain flow (fcid -> old_fcid, wwpn -> other_wwpn)
			     * joins the nodes of a redirected pair: the
			     * first such of its group */
	FCR_NOTE_DRAINED,   /* that pair's open exchanges have ended
			     * (timed_out: or FCR_DRAIN_TICKS passed): the
			     * host (wwpn) and the VI (other_wwpn), or those
			     * `tell` names, to be made to log in again now */
	FCR_NOTE_SN_STATE,  /* service node (slot `redirect`, cluster, VI wwpn,
			     * VT other_wwpn) went old_state -> new_state
			     * (enum fcr_sn_state); `open`: its pairs */
	FCR_NOTE_SN_MOVED,  /* redirect `redirect` (host wwpn) moved from the
			     * node of VI other_wwpn to that of VI new_vi, of
			     * its cluster; or, new_vi 0, `open` restartable
			     * pairs on a down node found no up node */
};

/* A drained cutover's Clear Virtual Links: to the host and the VIs at
 * once, or the VIs first (a new path's VI logs in to the target through
 * it before the host comes) and then the host alone. */
enum { FCR_TELL_ALL = 0, FCR_TELL_VI, FCR_TELL_HOST };

struct fcr_note {
	enum fcr_note_kind kind;
	uint16_t vlan;
	uint8_t origin;      /* binding: enum fcr_bind_origin */
	uint8_t old_state;   /* redirect: enum fcr_redirect_state */
	uint8_t new_state;
	uint8_t reinstalled; /* redirect: active before and after, new FCIDs */
	uint8_t timed_out;   /* drained: exchanges were still open (tell
			      * FCR_TELL_HOST: the VI was not back) */
	uint8_t tell;        /* drained: whom to tell now (FCR_TELL_*) */
	uint64_t wwpn;
	uint32_t fcid;
	uint32_t old_fcid;
	uint32_t redirect;   /* id in the redirect table */
	uint16_t port;       /* untrusted, login conflict, pinned: the port */
	uint16_t other_port; /* login conflict, pinned: the port it keeps */
	uint64_t other_wwpn; /* static kept: the WWPN statically bound to fcid */
	uint32_t open;       /* sn stalled: commands begun since the VT's last end;
			      * cleartext: frames judged clear since the last look */
	uint8_t stopped;     /* cleartext: its pair stopped now (guard `drop`) */
	uint64_t enode;      /* relogin: the ENode's key (fcr_enode_key) */
	uint64_t fcf_mac;    /* relogin: its FCF's MAC (fcr_vn_pack) */
	uint64_t fcf_name;   /* relogin: that FCF's name */
	uint8_t by_operator; /* relogin: `enode relogin` asked */
	uint64_t cluster;    /* sn state, sn moved: the cluster */
	uint64_t new_vi;     /* cutover, drained: the VI that replaces
			      * other_wwpn (the VI of the old rules), which
			      * is told too; 0 when the VI stays */
};

struct fcr_note_hook {
	void (*fn)(void *ctx, const struct fcr_note *n);
	void *ctx;
};

static inline void
fcr_note_tell(const struct fcr_note_hook *h, const struct fcr_note *n)
{
	if (h != NULL && h->fn != NULL)
		h->fn(h->ctx, n);
}

#endif /* FCR_NOTE_H */
