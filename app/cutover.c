/* SPDX-License-Identifier: BSD-3-Clause */
#include <inttypes.h>
#include <string.h>

#include <rte_mbuf.h>
#include <rte_ring.h>

#include "cutover.h"
#include "fcr_build.h"
#include "fcr_text.h"
#include "fwd.h"
#include "log.h"
#include "ports.h"

int
fcr_cutover_send_cvl(const struct fcr_cvl *c, int whole)
{
	struct fcr_l2_spec l2 = { .tagged = c->vlan != 0, .vlan = c->vlan, .pcp = 3 };
	uint8_t buf[128];
	struct rte_mbuf *m;
	size_t len;

	memcpy(l2.dst, c->enode_mac, 6);
	memcpy(l2.src, c->fcf_mac, 6);
	len = fcr_build_fip_cvl(buf, sizeof(buf), &l2, c->fcf_name, whole ? NULL : c->vn_mac,
				 c->fcid, c->wwpn);
	m = rte_pktmbuf_alloc(fcr_ports_pool(c->port));
	if (len == 0 || m == NULL) {
		rte_pktmbuf_free(m);
		return -1;
	}
	memcpy(rte_pktmbuf_append(m, (uint16_t)len), buf, len);
	m->port = c->port;
	if (rte_ring_enqueue(fcr_fwd.workers[0]->inject, m) != 0) {
		rte_pktmbuf_free(m);
		return -1;
	}
	return 0;
}

/* A configuration of thousands of redirects on ports no FIP login taught
 * (static bindings) would log two lines for each: the first few a second
 * are logged, the rest counted (cutovers_unsent) and summed up in the
 * next line logged. */
#define UNSENT_LOGGED_PER_S 10

static int
unsent_log_ok(void)
{
	static uint64_t second, logged, held;
	uint64_t now = rte_get_tsc_cycles() / rte_get_tsc_hz();

	if (now != second) {
		if (held != 0)
			FCR_LOG(WARNING, tables, "%" PRIu64 " more ports of redirects whose path "
				"changed could not be made to log in again (not logged; counted "
				"in cutovers_unsent)", held);
		second = now;
		logged = held = 0;
	}
	if (logged < UNSENT_LOGGED_PER_S) {
		logged++;
		return 1;
	}
	held++;
	return 0;
}

void
fcr_cutover_carry_out(const struct fcr_note *n, const struct fcr_cutover_plan *p)
{
	char w[FCR_WWPN_STRLEN];
	unsigned int i;
	int sent;

	if (p->held) {
		FCR_LOG(NOTICE, tables, "redirect vlan %u: the pair's path changes: host %s's new "
			"commands held until its open exchanges have ended", n->vlan,
			fcr_wwpn_format(n->wwpn, w));
		return;
	}
	if (p->nb == 0)
		return;
	if (n->timed_out && n->tell == FCR_TELL_HOST)
		FCR_LOG(WARNING, tables, "redirect vlan %u: the vi, told first, had not logged in "
			"to the target through the new path after %u s: host %s is told "
			"anyway", n->vlan, FCR_VI_TICKS / 10, fcr_wwpn_format(n->wwpn, w));
	else if (n->timed_out)
		FCR_LOG(WARNING, tables, "redirect vlan %u: exchanges of host %s still open "
			"after %u s: its ports are told to log in again anyway", n->vlan,
			fcr_wwpn_format(n->wwpn, w), FCR_DRAIN_TICKS / 10);
	for (i = 0; i < p->nb; i++) {
		const struct fcr_cutover_tell *x = &p->tell[i];
		const char *who = x->member == FCR_M_HOST ? "host" : "vi";

		fcr_wwpn_format(x->cvl.wwpn, w);
		sent = 0;
		if (x->clearable) {
			sent = fcr_cutover_send_cvl(&x->cvl, 0) == 0;
			fcr_cutover_sent(fcr_fwd.tables, x, sent);
		}
		if (sent && n->tell == FCR_TELL_VI)
			FCR_LOG(NOTICE, tables, "redirect vlan %u: the pair's path changed: %s %s "
				"made to log in again first (Clear Virtual Links in the FCF's "
				"name); the host is told once %s", n->vlan, who, w,
				x->awaited ? "it has logged in to the target through the new path" :
				"the new vi has");
		else if (sent)
			FCR_LOG(NOTICE, tables, "redirect vlan %u: the pair's path changed: %s %s "
				"made to log in again (Clear Virtual Links in the FCF's name)",
				n->vlan, who, w);
		else if (unsent_log_ok())
			FCR_LOG(WARNING, tables, "redirect vlan %u: the pair's path changed: %s %s "
				"could not be made to log in again (not learned over FIP, no FCF "
				"advertisement seen on the VLAN, or no mbuf); its open "
				"exchanges may reach the new path", n->vlan, who, w);
	}
}

int
fcr_cutover_init(void)
{
	fcr_fwd.workers[0]->inject = rte_ring_create("fcr_inject", 256, SOCKET_ID_ANY,
						     RING_F_SP_ENQ | RING_F_SC_DEQ);
	return fcr_fwd.workers[0]->inject != NULL ? 0 : -1;
}
