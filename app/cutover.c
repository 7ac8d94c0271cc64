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

/* Clear Virtual Links for one bound VN_Port; 0 when it went out. */
static int
clear_vn_port(uint16_t vlan, uint64_t wwpn)
{
	struct fcr_tables *t = fcr_fwd.tables;
	uint32_t n = fcr_binding_get(t->bindings, vlan, wwpn, 0);
	const struct fcr_binding *e;
	const struct fcr_fcf *fcf = &t->fcf[vlan & 0xFFF];
	struct fcr_l2_spec l2 = { .tagged = vlan != 0, .vlan = vlan, .pcp = 3 };
	uint8_t buf[128], vn_mac[6];
	unsigned int port;
	struct rte_mbuf *m;
	size_t len;

	if (n == FCR_BINDING_NONE || !fcf->known)
		return -1;
	e = &t->bindings->entry[n];
	port = (unsigned int)(e->vn >> 48) & 0xFF;
	/* learned over FIP, through one of our edge ports: its ENode is known */
	if (e->fcid == FCR_FCID_NONE || e->origin != FCR_BIND_LEARNED || e->enode == 0 ||
	    port >= fcr_fwd.nb_ports || (fcr_fwd.fabric_mask >> port & 1))
		return -1;
	fcr_vn_mac(e->enode, l2.dst);
	fcr_vn_mac(e->vn, vn_mac);
	memcpy(l2.src, fcf->mac, 6);
	len = fcr_build_fip_cvl(buf, sizeof(buf), &l2, fcf->name, vn_mac, e->fcid, wwpn);
	m = rte_pktmbuf_alloc(fcr_ports_pool((uint16_t)port));
	if (len == 0 || m == NULL) {
		rte_pktmbuf_free(m);
		return -1;
	}
	memcpy(rte_pktmbuf_append(m, (uint16_t)len), buf, len);
	m->port = (uint16_t)port;
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
	struct fcr_tables *t = fcr_fwd.tables;
	const uint64_t who[2] = { n->wwpn, n->other_wwpn };
	char w[FCR_WWPN_STRLEN];
	int i;

	if (fcr_fwd.fabric_mask == 0)
		return; /* a lab: no ENode to tell */
	for (i = 0; i < 2; i++) {
		fcr_wwpn_format(who[i], w);
		if (clear_vn_port(n->vlan, who[i]) == 0) {
			t->st.cutovers++;
			if (i == 0)
				fcr_redirect_cutover_sent(t->redirects);
			FCR_LOG(NOTICE, tables, "redirect vlan %u: the pair's path changed: %s %s "
				"made to log in again (Clear Virtual Links in the FCF's name)",
				n->vlan, i == 0 ? "host" : "vi", w);
		} else {
			t->st.cutovers_unsent++;
			FCR_LOG(WARNING, tables, "redirect vlan %u: the pair's path changed: %s %s "
				"could not be made to log in again (not learned over FIP, no FCF "
				"advertisement seen on the VLAN, or no mbuf); its open exchanges "
				"may reach the new path", n->vlan, i == 0 ? "host" : "vi", w);
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
