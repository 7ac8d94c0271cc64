/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * binding pin / unpin: an operator moves a redirect member on purpose. A
 * member's login through another port or ENode than its last is refused
 * (fcr_tables: logins_pinned); pinning it to a port, or unpinning it so its
 * next login pins it wherever it comes from, lets it move.
 */
#include <stdio.h>

#include "commands.h"
#include "fcr_tables.h"
#include "fcr_text.h"
#include "fwd.h"

static int
binding_pin(const struct fcr_cmd *c, FILE *out)
{
	uint16_t vlan = (uint16_t)c->arg[0].u32;
	char w[FCR_WWPN_STRLEN];
	int port = -1;

	fcr_wwpn_format(c->arg[1].wwpn, w);
	if (c->nb_args > 2) {
		if (c->arg[2].u32 >= fcr_fwd.nb_ports) {
			fprintf(out, "error: port %u does not exist (%u ports)\n", c->arg[2].u32,
				fcr_fwd.nb_ports);
			return -1;
		}
		port = (int)c->arg[2].u32;
	}
	if (fcr_tables_binding_pin(fcr_fwd.tables, vlan, c->arg[1].wwpn, port) < 0) {
		fprintf(out, "error: vlan %u wwpn %s: no such binding\n", vlan, w);
		return -1;
	}
	if (port >= 0)
		fprintf(out, "vlan %u wwpn %s: pinned to port %d (any ENode)\n", vlan, w, port);
	else
		fprintf(out, "vlan %u wwpn %s: unpinned: its next login pins it where it "
			"comes from\n", vlan, w);
	return 0;
}

static const struct fcr_cmd_def rows[] = {
	{ .syntax = "binding pin vlan <vlan> wwpn <wwpn> port <port>", .help = "pin a WWPN a "
	  "redirect names to this port, any ENode on it: its logins elsewhere are not learned",
	  .run = binding_pin, .thread = FCR_CMD_ON_TABLES, .section = FCR_SEC_CONTROL,
	  .flags = FCR_CMD_CHANGES },
	{ .syntax = "binding unpin vlan <vlan> wwpn <wwpn>", .help = "let a WWPN a "
	  "redirect names log in through another port or ENode once; that login pins it",
	  .run = binding_pin, .thread = FCR_CMD_ON_TABLES, .section = FCR_SEC_CONTROL,
	  .flags = FCR_CMD_CHANGES },
};
FCR_COMMANDS(rows)
