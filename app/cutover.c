/* SPDX-License-Identifier: BSD-3-Clause */
#include <inttypes.h>

#include <rte_mbuf.h>
#include <rte_ring.h>

#include "cutover.h"
#include "fcr_build.h"
#include "fcr_tables.h"
#include "fcr_text.h"
#include "fwd.h"
#include "log.h"
#include "ports.h"

/* The binding of a VN_Port that can be told to log in again: learned over
 * FIP through one of our edge ports (its ENode known), on a VLAN whose FCF
 * advertised itself. NULL when it cannot. */
static const struct fcr_binding *
clearable(uint16_t vlan, uint64_t wwpn, uint32_t *n)
{
	struct fcr_tables *t = fcr_fwd.tables;
	const struct fcr_binding *e;
	unsigned int port;

	*n = fcr_binding_get(t->bindings, vlan, wwpn, 0);
	if (*n == FCR_BINDING_NONE || !t->fcf[vlan & 0xFFF].known)
		return NULL;
	e = &t->bindings->entry[*n];
	port = (unsigned int)(e->vn >> 48) & 0xFF;
	if (e->fcid == FCR_FCID_NONE || e->origin != FCR_BIND_LEARNED || e->enode == 0 ||
	    port >= fcr_fwd.nb_ports || (fcr_fwd.fabric_mask >> port & 1))
		return NULL;
	return e;
}

/* Clear Virtual Links for one bound VN_Port; 0 when it went out. */
static int
clear_vn_port(uint16_t vlan, uint64_t wwpn)
{
	struct fcr_tables *t = fcr_fwd.tables;
	const struct fcr_fcf *fcf = &t->fcf[vlan & 0xFFF];
	struct fcr_l2_spec l2 = { .tagged = vlan != 0, .vlan = vlan, .pcp = 3 };
	uint8_t buf[128], vn_mac[6];
	const struct fcr_binding *e;
	struct rte_mbuf *m;
	uint16_t port;
	uint32_t n;
	size_t len;

	e = clearable(vlan, wwpn, &n);
	if (e == NULL)
		return -1;
	port = (uint16_t)((e->vn >> 48) & 0xFF);
	fcr_vn_mac(e->enode, l2.dst);
	fcr_vn_mac(e->vn, vn_mac);
	memcpy(l2.src, fcf->mac, 6);
	len = fcr_build_fip_cvl(buf, sizeof(buf), &l2, fcf->name, vn_mac, e->fcid, wwpn);
	m = rte_pktmbuf_alloc(fcr_ports_pool(port));
	if (len == 0 || m == NULL) {
		rte_pktmbuf_free(m);
		return -1;
	}
	memcpy(rte_pktmbuf_append(m, (uint16_t)len), buf, len);
	m->port = port;
	if (rte_ring_enqueue(fcr_fwd.workers[0]->inject, m) != 0) {
		rte_pktmbuf_free(m);
		return -1;
	}
	/* what is left of its old exchanges it would refuse: dropped here */
	fcr_binding_leaving(t->bindings, n);
	return 0;
}

void
fcr_cutover_note(const struct fcr_note *n)
{
	char w[FCR_WWPN_STRLEN];
	uint32_t b;

	if (fcr_fwd.fabric_mask == 0)
		return; /* a lab: no ENode to tell */
	if (clearable(n->vlan, n->wwpn, &b) == NULL) {
		/* no cutover: the new path at once; the host counted as not
		 * told, the VI told now */
		fcr_cutover_drained(n);
		return;
	}
	fcr_redirect_cutover_told(fcr_fwd.tables->redirects);
	FCR_LOG(NOTICE, tables, "redirect vlan %u: the pair's path changes: host %s's new "
		"commands held until its open exchanges have ended", n->vlan,
		fcr_wwpn_format(n->wwpn, w));
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
fcr_cutover_drained(const struct fcr_note *n)
{
	struct fcr_tables *t = fcr_fwd.tables;
	const uint64_t who[2] = { n->wwpn, n->other_wwpn };
	char w[FCR_WWPN_STRLEN];
	int i;

	if (fcr_fwd.fabric_mask == 0)
		return;
	if (n->timed_out)
		FCR_LOG(WARNING, tables, "redirect vlan %u: exchanges of host %s still open "
			"after %u s: its ports are told to log in again anyway", n->vlan,
			fcr_wwpn_format(n->wwpn, w), FCR_DRAIN_TICKS / 10);
	for (i = 0; i < 2; i++) {
		fcr_wwpn_format(who[i], w);
		if (clear_vn_port(n->vlan, who[i]) == 0) {
			t->st.cutovers++;
			if (i == 0)
				fcr_redirect_cutover_told(t->redirects);
			FCR_LOG(NOTICE, tables, "redirect vlan %u: the pair's path changed: %s %s "
				"made to log in again (Clear Virtual Links in the FCF's name)",
				n->vlan, i == 0 ? "host" : "vi", w);
		} else {
			t->st.cutovers_unsent++;
			if (unsent_log_ok())
				FCR_LOG(WARNING, tables, "redirect vlan %u: the pair's path changed: %s %s "
					"could not be made to log in again (not learned over FIP, no FCF "
					"advertisement seen on the VLAN, or no mbuf); its open "
					"exchanges may reach the new path", n->vlan,
					i == 0 ? "host" : "vi", w);
		}
	}
}

int
fcr_cutover_init(void)
{
	fcr_fwd.workers[0]->inject = rte_ring_create("fcr_inject", 256, SOCKET_ID_ANY,
						     RING_F_SP_ENQ | RING_F_SC_DEQ);
	return fcr_fwd.workers[0]->inject != NULL ? 0 : -1;
}
