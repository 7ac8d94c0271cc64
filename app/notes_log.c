/* SPDX-License-Identifier: BSD-3-Clause */
#include <inttypes.h>
#include <string.h>

#include <rte_ethdev.h>
#include <rte_spinlock.h>

#include "fcr_sn.h"
#include "fcr_tables.h"
#include "fcr_text.h"
#include "fwd.h"
#include "log.h"
#include "notes_log.h"

static struct rte_eth_link link_was[FCR_MAX_PORTS];
/* Held by a port command while it changes a port and prints the link it
 * leaves; the watcher skips a round rather than wait for it. */
static rte_spinlock_t links_lock = RTE_SPINLOCK_INITIALIZER;
static uint64_t last_ms, lost_was, full_was;
static struct fcr_log_limit binding_limit = { .what = "binding changes" };
static struct fcr_log_limit redirect_limit = { .what = "redirect changes" };
static struct fcr_log_limit refused_limit = { .what = "refused logins" };

static void
log_binding(const struct fcr_note *n, uint64_t now)
{
	char w[FCR_WWPN_STRLEN], f[FCR_FCID_STRLEN], o[FCR_FCID_STRLEN];

	fcr_wwpn_format(n->wwpn, w);
	if (n->kind == FCR_NOTE_UNBOUND) {
		FCR_LOG_LIMITED(&binding_limit, now, INFO, tables,
				"vlan %u wwpn %s: unbound (had %s)", n->vlan, w,
				fcr_fcid_format(n->old_fcid, o));
		return;
	}
	fcr_fcid_format(n->fcid, f);
	if (n->old_fcid == FCR_FCID_NONE)
		FCR_LOG_LIMITED(&binding_limit, now, INFO, tables,
				"vlan %u wwpn %s: bound to %s (%s)", n->vlan, w, f,
				fcr_bind_origin_name(n->origin));
	else
		FCR_LOG_LIMITED(&binding_limit, now, INFO, tables,
				"vlan %u wwpn %s: moved from %s to %s (%s)", n->vlan, w,
				fcr_fcid_format(n->old_fcid, o), f,
				fcr_bind_origin_name(n->origin));
}

static void
log_redirect(const struct fcr_note *n, uint64_t now)
{
	const struct fcr_redirect_table *rt = fcr_fwd.tables->redirects;
	const struct fcr_redirect *r = &rt->r[n->redirect];
	const struct fcr_binding *nm = rt->bindings->entry;
	char h[FCR_WWPN_STRLEN], t[FCR_WWPN_STRLEN], why[64] = "";
	char w[FCR_WWPN_STRLEN];
	enum fcr_member miss;

	fcr_wwpn_format(nm[r->binding[FCR_M_HOST]].wwpn, h);
	fcr_wwpn_format(nm[r->binding[FCR_M_TARGET]].wwpn, t);
	miss = fcr_redirect_missing(rt, n->redirect);
	if (n->new_state == FCR_RS_WAITING && miss != FCR_M_COUNT)
		snprintf(why, sizeof(why), ": %s %s unbound",
			 fcr_member_name(miss), fcr_wwpn_format(nm[r->binding[miss]].wwpn, w));
	if (n->reinstalled)
		FCR_LOG_LIMITED(&redirect_limit, now, NOTICE, tables,
				"redirect vlan %u host %s target %s: rules moved to new FCIDs",
				n->vlan, h, t);
	else
		FCR_LOG_LIMITED(&redirect_limit, now, NOTICE, tables,
				"redirect vlan %u host %s target %s: %s -> %s%s", n->vlan, h, t,
				fcr_redirect_state_name(n->old_state),
				fcr_redirect_state_name(n->new_state), why);
}

/* What the trust model refused. */
static void
log_refused(const struct fcr_note *n, uint64_t now)
{
	char w[FCR_WWPN_STRLEN], o[FCR_WWPN_STRLEN], f[FCR_FCID_STRLEN], g[FCR_FCID_STRLEN];

	fcr_wwpn_format(n->wwpn, w);
	fcr_fcid_format(n->fcid, f);
	if (n->kind == FCR_NOTE_UNTRUSTED)
		FCR_LOG_LIMITED(&refused_limit, now, WARNING, tables,
				"vlan %u: a fabric login reply to %s arrived on edge port %u: "
				"ignored (a station posing as the fabric, or --fabric-ports "
				"misses a port)", n->vlan, f, n->port);
	else if (n->fcid == FCR_FCID_NONE)
		FCR_LOG_LIMITED(&refused_limit, now, WARNING, tables,
				"vlan %u wwpn %s: the fabric logged out %s; the static "
				"binding stays (binding del to remove it)", n->vlan, w,
				fcr_fcid_format(n->old_fcid, g));
	else if (n->old_fcid != FCR_FCID_NONE)
		FCR_LOG_LIMITED(&refused_limit, now, WARNING, tables,
				"vlan %u wwpn %s: the fabric gave it %s; the static binding "
				"to %s stays (binding del to learn it)", n->vlan, w, f,
				fcr_fcid_format(n->old_fcid, g));
	else
		FCR_LOG_LIMITED(&refused_limit, now, WARNING, tables,
				"vlan %u wwpn %s: the fabric gave it %s, statically bound to "
				"%s: not learned", n->vlan, w, f, fcr_wwpn_format(n->other_wwpn, o));
}

/* What the port and ENode rules refused: a login taken from another
 * port, a pinned member logging in elsewhere, a logout by another ENode. */
static void
log_hijack(const struct fcr_note *n, uint64_t now)
{
	char w[FCR_WWPN_STRLEN], f[FCR_FCID_STRLEN], mac[RTE_ETHER_ADDR_FMT_SIZE];
	struct rte_ether_addr ea;

	fcr_wwpn_format(n->wwpn, w);
	fcr_fcid_format(n->fcid, f);
	fcr_vn_mac(n->enode, ea.addr_bytes);
	rte_ether_format_addr(mac, sizeof(mac), &ea);
	if (n->kind == FCR_NOTE_LOGIN_CONFLICT)
		FCR_LOG_LIMITED(&refused_limit, now, WARNING, tables,
				"vlan %u wwpn %s: a fabric login from ENode %s on port %u "
				"refused (login_conflict): that ENode's login waits or logged "
				"in on port %u", n->vlan, w, mac, n->port, n->other_port);
	else if (n->kind == FCR_NOTE_LOGIN_PINNED)
		FCR_LOG_LIMITED(&refused_limit, now, WARNING, tables,
				"vlan %u wwpn %s: the fabric gave it %s through port %u "
				"(ENode %s); a redirect names it and it is pinned to port %u: "
				"not learned, the redirect keeps its path (binding unpin to "
				"move it)", n->vlan, w, f, n->port, mac, n->other_port);
	else
		FCR_LOG_LIMITED(&refused_limit, now, WARNING, tables,
				"vlan %u wwpn %s: a logout of %s asked by ENode %s on port %u, "
				"which did not log it in: the binding stays", n->vlan, w, f,
				mac, n->port);
}

/* A service node that stopped ending the host's exchanges, or answers
 * again (fcr_liveness.h). */
static void
log_liveness(const struct fcr_note *n)
{
	char h[FCR_WWPN_STRLEN], vt[FCR_WWPN_STRLEN];

	fcr_wwpn_format(n->wwpn, h);
	fcr_wwpn_format(n->other_wwpn, vt);
	if (n->kind == FCR_NOTE_SN_STALLED)
		FCR_LOG(WARNING, tables, "redirect %u vlan %u host %s: its service node (vt %s) "
			"is not answering: %u commands of the host since its last end, none "
			"ended for --sn-stall-ms (sn_stalls)", n->redirect, n->vlan, h, vt, n->open);
	else
		FCR_LOG(NOTICE, tables, "redirect %u vlan %u host %s: its service node (vt %s) "
			"is answering again", n->redirect, n->vlan, h, vt);
}

/* A service node passing the host's data to the target in the clear
 * (lib/forward/fcr_guard.h): every look that finds more is logged. */
static void
log_cleartext(const struct fcr_note *n)
{
	char h[FCR_WWPN_STRLEN], vi[FCR_WWPN_STRLEN];

	fcr_wwpn_format(n->wwpn, h);
	fcr_wwpn_format(n->other_wwpn, vi);
	FCR_LOG(WARNING, tables, "redirect %u vlan %u host %s: its vi %s sent the target %u data "
		"frame(s) that do not look encrypted (cleartext_alarms)%s", n->redirect, n->vlan,
		h, vi, n->open, n->stopped ? "; the redirect is stopped, its pair fails closed "
		"until 'redirect resume' (cleartext_stops)" : "");
}

/* A path of a redirected pair's nodes that no redirect steers
 * (lib/forward/fcr_paths.h): the first of its group. */
static void
log_multipath(const struct fcr_note *n)
{
	char a[FCR_WWPN_STRLEN], b[FCR_WWPN_STRLEN], fa[FCR_FCID_STRLEN], fb[FCR_FCID_STRLEN];

	fcr_wwpn_format(n->wwpn, a);
	fcr_wwpn_format(n->other_wwpn, b);
	FCR_LOG(WARNING, tables, "vlan %u: %s (%s) -> %s (%s) is a path between the nodes of a "
		"redirected pair that no redirect steers: the host's multipath I/O on it "
		"bypasses the service node (multipath_unredirected; redirect list)", n->vlan, a,
		fcr_fcid_format(n->fcid, fa), b, fcr_fcid_format(n->old_fcid, fb));
}

/* Two FCFs of one VLAN that name different FC-MAPs: not one fabric, and
 * a Linux ENode that hears both chooses neither. */
static void
log_fc_map_conflict(const struct fcr_note *n)
{
	char a[FCR_MAC_STRLEN], b[FCR_MAC_STRLEN], ma[FCR_FCID_STRLEN], mb[FCR_FCID_STRLEN];
	uint8_t m[6];

	fcr_vn_mac(n->fcf_mac, m);
	fcr_mac_format(m, a);
	fcr_vn_mac(n->enode, m);
	fcr_mac_format(m, b);
	FCR_LOG(WARNING, tables, "vlan %u: FCF %s advertises FC-MAP %s, FCF %s of the same VLAN "
		"%s: ENodes that hear both choose neither (fcf_fc_map_conflicts); "
		"--vlan-fc-map %u:0x%06x keeps the VLAN to one", n->vlan, a,
		fcr_fcid_format(n->fcid, ma), b, fcr_fcid_format(n->old_fcid, mb), n->vlan,
		n->old_fcid);
}

/* A service node of a cluster changing state, and its pairs moving
 * (lib/forward/fcr_sn.h). */
static void
log_sn(const struct fcr_note *n)
{
	char c[FCR_CLUSTER_STRLEN], a[FCR_WWPN_STRLEN], b[FCR_WWPN_STRLEN], v[FCR_WWPN_STRLEN];

	fcr_cluster_format(n->cluster, c);
	fcr_wwpn_format(n->wwpn, a);
	fcr_wwpn_format(n->other_wwpn, b);
	if (n->kind == FCR_NOTE_SN_STATE && n->new_state == FCR_SN_UP)
		FCR_LOG(NOTICE, tables, "cluster %s vlan %u: service node vi %s vt %s %s -> up "
			"(%u pairs)", c, n->vlan, a, b, fcr_sn_state_name(n->old_state), n->open);
	else if (n->kind == FCR_NOTE_SN_STATE)
		FCR_LOG(WARNING, tables, "cluster %s vlan %u: service node vi %s vt %s %s -> %s "
			"(%u pairs): its restartable pairs move after --sn-failover-ms", c,
			n->vlan, a, b, fcr_sn_state_name(n->old_state),
			fcr_sn_state_name(n->new_state), n->open);
	else if (n->new_vi == 0)
		FCR_LOG(WARNING, tables, "cluster %s vlan %u: service node vi %s is down and "
			"no other node of the cluster is up: %u restartable pairs stay on it, "
			"failing closed (sn_failovers_stuck)", c, n->vlan, b, n->open);
	else
		FCR_LOG(NOTICE, tables, "redirect %u vlan %u host %s: moved from the service "
			"node of vi %s to that of vi %s (cluster %s; a cutover)", n->redirect,
			n->vlan, a, b, fcr_wwpn_format(n->new_vi, v), c);
}

void
fcr_notes_log(const struct fcr_note *n)
{
	uint64_t now = fcr_now_ms();

	switch (n->kind) {
	case FCR_NOTE_REDIRECT:
		log_redirect(n, now);
		break;
	case FCR_NOTE_CUTOVER:
	case FCR_NOTE_DRAINED:
		break; /* logged as the cutover carries them out (cutover.c) */
	case FCR_NOTE_STATIC_KEPT:
	case FCR_NOTE_UNTRUSTED:
		log_refused(n, now);
		break;
	case FCR_NOTE_LOGIN_CONFLICT:
	case FCR_NOTE_LOGIN_PINNED:
	case FCR_NOTE_LOGOUT_REFUSED:
		log_hijack(n, now);
		break;
	case FCR_NOTE_SN_STALLED:
	case FCR_NOTE_SN_ANSWERING:
		log_liveness(n);
		break;
	case FCR_NOTE_FC_MAP_CONFLICT:
		log_fc_map_conflict(n);
		break;
	case FCR_NOTE_CLEARTEXT:
		log_cleartext(n);
		break;
	case FCR_NOTE_MULTIPATH:
		log_multipath(n);
		break;
	case FCR_NOTE_SN_STATE:
	case FCR_NOTE_SN_MOVED:
		log_sn(n);
		break;
	default:
		log_binding(n, now);
	}
}

static uint64_t
events_lost(void)
{
	uint64_t sum = 0;
	unsigned int w;

	for (w = 0; w < fcr_fwd.nb_workers; w++)
		sum += __atomic_load_n(&fcr_fwd.workers[w]->st.events_lost, __ATOMIC_RELAXED);
	return sum;
}

void
fcr_links_hold(void)
{
	rte_spinlock_lock(&links_lock);
}

void
fcr_links_release(uint16_t port, FILE *tell)
{
	char text[RTE_ETH_LINK_MAX_STR_LEN];
	struct rte_eth_link l;

	memset(&l, 0, sizeof(l));
	if (tell != NULL && port < FCR_MAX_PORTS && rte_eth_link_get_nowait(port, &l) == 0) {
		link_was[port] = l;
		rte_eth_link_to_str(text, sizeof(text), &l);
		fprintf(tell, "port %u: %s\n", port, text);
	}
	rte_spinlock_unlock(&links_lock);
}

static void
watch_links(void)
{
	struct rte_eth_link l;
	char text[RTE_ETH_LINK_MAX_STR_LEN];
	uint16_t p;

	if (!rte_spinlock_trylock(&links_lock))
		return;
	for (p = 0; p < fcr_fwd.nb_ports; p++) {
		memset(&l, 0, sizeof(l));
		if (rte_eth_link_get_nowait(p, &l) != 0)
			continue;
		if (l.link_status == link_was[p].link_status &&
		    l.link_speed == link_was[p].link_speed &&
		    l.link_duplex == link_was[p].link_duplex)
			continue;
		link_was[p] = l;
		rte_eth_link_to_str(text, sizeof(text), &l);
		if (l.link_status == RTE_ETH_LINK_UP)
			FCR_LOG(NOTICE, port, "port %u: %s", p, text);
		else
			FCR_LOG(WARNING, port, "port %u: %s", p, text);
	}
	rte_spinlock_unlock(&links_lock);
}

void
fcr_notes_log_init(void)
{
	uint16_t p;

	rte_spinlock_lock(&links_lock);
	for (p = 0; p < fcr_fwd.nb_ports; p++)
		if (rte_eth_link_get_nowait(p, &link_was[p]) != 0)
			memset(&link_was[p], 0, sizeof(link_was[p]));
	rte_spinlock_unlock(&links_lock);
	lost_was = events_lost();
	full_was = fcr_fwd.tables->st.flow_table_full;
	last_ms = fcr_now_ms();
}

void
fcr_notes_log_tick(uint64_t now_ms)
{
	uint64_t lost, full;

	if (now_ms - last_ms < 1000)
		return;
	last_ms = now_ms;
	fcr_log_limits_report(now_ms);
	watch_links();
	lost = events_lost();
	if (lost != lost_was)
		FCR_LOG(WARNING, tables, "%" PRIu64 " worker events lost on full rings in "
			"the last second (first frames and logins the tables lcore never saw)",
			lost - lost_was);
	lost_was = lost;
	full = fcr_fwd.tables->st.flow_table_full;
	if (full != full_was)
		FCR_LOG(WARNING, tables, "%" PRIu64 " new flows found the flow table full "
			"in the last second (forwarded by route with no flow entry; raise --max-flows)",
			full - full_was);
	full_was = full;
}
