/* SPDX-License-Identifier: BSD-3-Clause */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>

#include "commands.h"
#include "cutover.h"
#include "fcr_tables.h"
#include "fcr_text.h"
#include "fwd.h"
#include "log.h"
#include "relogin.h"

/* A start into a live fabric tells every ENode at once: the first few a
 * second are logged one by one, the rest summed up. */
#define RELOGIN_LOGGED_PER_S 20

void
fcr_relogin_carry_out(const struct fcr_note *n)
{
	static uint64_t second, logged, held;
	uint64_t now = rte_get_tsc_cycles() / rte_get_tsc_hz();
	struct fcr_cvl c = { .vlan = n->vlan, .port = n->port, .fcf_name = n->fcf_name };
	char mac[FCR_MAC_STRLEN], fcf[FCR_MAC_STRLEN];
	int sent;

	fcr_vn_mac(n->enode, c.enode_mac);
	fcr_vn_mac(n->fcf_mac, c.fcf_mac);
	sent = fcr_cutover_send_cvl(&c, 1) == 0;
	if (!sent)
		fcr_fwd.tables->st.enode_relogins_unsent++;
	if (now != second) {
		if (held != 0)
			FCR_LOG(NOTICE, tables, "%" PRIu64 " more ENodes made to log in again "
				"(counted in enode_relogins)", held);
		second = now;
		logged = held = 0;
	}
	if (logged >= RELOGIN_LOGGED_PER_S && sent) {
		held++;
		return;
	}
	logged++;
	fcr_mac_format(c.enode_mac, mac);
	fcr_mac_format(c.fcf_mac, fcf);
	if (!sent)
		FCR_LOG(WARNING, tables, "vlan %u ENode %s (port %u): could not be made to log "
			"in again (no mbuf)", n->vlan, mac, n->port);
	else if (n->by_operator)
		FCR_LOG(NOTICE, tables, "vlan %u ENode %s (port %u): made to log in again, as "
			"asked (Clear Virtual Link in the name of FCF %s)", n->vlan, mac, n->port,
			fcf);
	else
		FCR_LOG(NOTICE, tables, "vlan %u ENode %s (port %u): keeps alive but never "
			"logged in here: made to log in again (Clear Virtual Link in the name "
			"of FCF %s)", n->vlan, mac, n->port, fcf);
}

static int
enode_relogin(const struct fcr_cmd *c, FILE *out)
{
	unsigned int unknown, n;

	if (fcr_fwd.tables->fabric_mask == 0) {
		fprintf(out, "error: no fabric ports (--fabric-ports): no FCF to speak for\n");
		return -1;
	}
	n = fcr_tables_enode_relogin(fcr_fwd.tables, c->nb_args > 0 ? c->arg[0].mac : NULL,
				     rte_rdtsc(), &unknown);
	if (n == 0 && unknown == 0) {
		fprintf(out, "error: %s\n", c->nb_args > 0 ?
			"no such ENode seen on an edge port" : "no ENode seen on an edge port");
		return -1;
	}
	fprintf(out, "%u ENode(s) made to log in again", n);
	if (unknown != 0)
		fprintf(out, "; %u not: their FCF is not known yet (no keep-alive or "
			"advertisement seen)", unknown);
	fprintf(out, "\n");
	return n != 0 ? 0 : -1;
}

static const struct fcr_cmd_def rows[] = {
	{ .syntax = "enode relogin all", .help = "make every ENode seen on an edge port log in "
	  "again (a Clear Virtual Link in the name of its FCF)", .run = enode_relogin,
	  .thread = FCR_CMD_ON_TABLES, .section = FCR_SEC_CONTROL, .flags = FCR_CMD_CHANGES },
	{ .syntax = "enode relogin <mac>", .help = "make one ENode log in again, on every VLAN "
	  "it keeps alive on", .run = enode_relogin, .thread = FCR_CMD_ON_TABLES,
	  .section = FCR_SEC_CONTROL, .flags = FCR_CMD_CHANGES },
};
FCR_COMMANDS(rows)
