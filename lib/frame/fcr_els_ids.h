/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Identities inside link-service payloads. On a redirect leg the header's
 * S_ID or D_ID is rewritten from one N_Port to another; an ELS that names
 * the first inside its payload (an ADISC's N_Port ID and port name, a
 * PLOGI's port name, an RRQ's originator, ...) must name the second too, or
 * the end that receives it sees two identities for one port (libfc logs in
 * again; a target finds an exchange of a port it never met). Every field
 * is rewritten only where it holds the old value, so a payload read wrongly
 * is left as it was. Pure: the caller updates the CRC. The table of what
 * each ELS carries is in docs/fcoe.md ("Identities inside payloads").
 */
#ifndef FCR_ELS_IDS_H
#define FCR_ELS_IDS_H

#include <stdint.h>

/* One leg's substitution: the N_Port the header named and the one it names
 * now. A WWPN of 0 is not known: port names are left alone. */
struct fcr_els_subst {
	uint32_t fcid_old, fcid_new;
	uint64_t wwpn_old, wwpn_new;
	uint64_t wwnn_old, wwnn_new; /* node names; either 0: not rewritten */
};

enum fcr_els_shape {
	FCR_ELS_UNKNOWN = 0, /* an ELS whose payload fcredirect does not read */
	FCR_ELS_NO_IDS,      /* read: names no N_Port (PRLI, LS_RJT, ECHO, ...) */
	FCR_ELS_IDS,         /* read: its identities rewritten where they matched */
};

/*
 * Rewrite the identities in the ELS payload pl[0..len) of a frame with
 * R_CTL r_ctl (request 0x22 or reply 0x23). A reply does not say which
 * request it answers: an LS_ACC is read by its length (a PLOGI's or PDISC's
 * 116 bytes or more, an ADISC's 28 when its port name matches, a REC's 24
 * or more). *changed gets the number of fields rewritten.
 */
enum fcr_els_shape fcr_els_ids_rewrite(uint8_t *pl, uint32_t len, uint8_t r_ctl,
				       const struct fcr_els_subst *s,
				       unsigned int *changed);

#endif /* FCR_ELS_IDS_H */
