/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The cleartext guard's operator command: `redirect resume` gives a
 * redirect the guard stopped (--cleartext-guard=drop) its path again,
 * once the service node encrypts again (lib/forward/fcr_guard.h).
 */
#include <errno.h>
#include <stdio.h>

#include "commands.h"
#include "fcr_guard.h"
#include "fcr_tables.h"
#include "fcr_text.h"
#include "fwd.h"

static int
redirect_resume(const struct fcr_cmd *c, FILE *out)
{
	char h[FCR_WWPN_STRLEN], t[FCR_WWPN_STRLEN];
	int rc = fcr_redirect_resume(fcr_fwd.tables->redirects, (uint16_t)c->arg[0].u32,
				     c->arg[1].wwpn, c->arg[2].wwpn);

	fcr_wwpn_format(c->arg[1].wwpn, h);
	fcr_wwpn_format(c->arg[2].wwpn, t);
	if (rc == -ENOENT) {
		fprintf(out, "error: no redirect vlan %u host %s target %s\n", c->arg[0].u32, h, t);
		return -1;
	}
	if (rc == -EALREADY) {
		fprintf(out, "error: redirect vlan %u host %s target %s was not stopped by the "
			"cleartext guard\n", c->arg[0].u32, h, t);
		return -1;
	}
	fprintf(out, "redirect vlan %u host %s target %s resumed\n", c->arg[0].u32, h, t);
	return 0;
}

static const struct fcr_cmd_def rows[] = {
	{ .syntax = "redirect resume vlan <vlan> host <wwpn> target <wwpn>",
	  .help = "give a redirect the cleartext guard stopped its path again",
	  .run = redirect_resume, .thread = FCR_CMD_ON_TABLES, .section = FCR_SEC_CONTROL,
	  .flags = FCR_CMD_CHANGES },
};
FCR_COMMANDS(rows)
