/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Recognise the frames where a WWPN meets an FCID: ELS FLOGI, FDISC, PLOGI
 * and LOGO and their replies, carried in FCoE or inside FIP link-service
 * frames, and the FCF's FIP Clear Virtual Links. Stateless: an LS_ACC in an FCoE frame does not say which request it
 * answers, so the caller pairs it with its request by exchange (OX_ID). A FIP
 * reply does say, through its descriptor type.
 */
#ifndef FCR_LOGIN_H
#define FCR_LOGIN_H

#include <stdint.h>

#include "fcr_frame.h"

enum fcr_login_kind {
	FCR_LOGIN_NONE = 0, /* not a login frame: nothing to learn */
	FCR_LOGIN_FLOGI,
	FCR_LOGIN_FDISC,
	FCR_LOGIN_PLOGI,
	FCR_LOGIN_LOGO,
	FCR_LOGIN_ACC,      /* LS_ACC */
	FCR_LOGIN_RJT,      /* LS_RJT */
	FCR_LOGIN_CVL,      /* FIP Clear Virtual Links: the VN_Ports in cvl[] */
	FCR_LOGIN_KA,       /* FIP keep-alive: mac the ENode's; a VN_Port's
			     * also names it (port_id, wwpn) */
	FCR_LOGIN_ADV,      /* FIP advertisement: mac the FCF's, wwnn its name;
			     * port_id its keep-alive period in ms, 0 when it
			     * wants none, UINT32_MAX when it does not say */
	FCR_LOGIN_VLANS,    /* FIP VLAN notification: the FCF's (mac) FCoE
			     * VLANs, in vlans[] */
};

/* VLANs one VLAN notification names that are read (one event's worth). */
#define FCR_VLANS_MAX 8

/* VN_Ports one Clear Virtual Links frame clears that are read (a frame
 * naming more clears the first ones; the rest log in again when they find
 * their links gone). */
#define FCR_CVL_MAX 3

struct fcr_login {
	uint8_t kind;       /* enum fcr_login_kind */
	uint8_t answers;    /* FIP replies: the request kind answered; else NONE */
	uint8_t via_fip;
	uint8_t has_wwpn;   /* wwpn/wwnn present (service parameters or LOGO) */
	uint8_t has_mac;    /* FIP MAC descriptor present */
	uint16_t vlan;
	uint16_t ox_id;
	uint16_t rx_id;
	uint32_t s_id;
	uint32_t d_id;
	uint32_t port_id;   /* LOGO: the N_Port ID logging out */
	uint64_t wwpn;
	uint64_t wwnn;
	uint32_t fc_map;    /* advertisement: its FC-MAP (Fabric or FC-MAP
			     * descriptor); 0 when it has none */
	uint8_t mac[6];     /* FIP: requested MAC (request) or granted MAC (reply) */
	uint8_t eth_dst[6];
	uint8_t eth_src[6];
	uint8_t nb_vlans;   /* VLANS: VLANs named (at most FCR_VLANS_MAX) */
	uint16_t vlans[FCR_VLANS_MAX];
	uint8_t nb_cvl;     /* CVL: VN_Ports named (at most FCR_CVL_MAX) */
	struct {
		uint64_t wwpn;
		uint32_t fcid;
		uint8_t mac[6];
	} cvl[FCR_CVL_MAX];
};

/* Name for logs: "flogi", "ls_acc", ... */
const char *fcr_login_kind_name(enum fcr_login_kind k);

/*
 * ELS frame already parsed by fcr_frame_parse*: `payload` holds `avail`
 * bytes of its payload (the caller may pass fewer than f->payload_len; at
 * least 36 bytes covers everything read here). FCR_R_OK with kind NONE for
 * frames that are not login ELS; FCR_R_TRUNC_PAYLOAD when the payload is
 * too short for what its command code says it is.
 */
enum fcr_reason fcr_login_from_els(const struct fcr_frame *f,
				   const uint8_t *payload, uint32_t avail,
				   struct fcr_login *out);

/*
 * Any frame in a buffer: FCoE ELS or FIP. Frames that are neither give
 * FCR_R_OK with kind NONE; invalid FCoE gives the parser's reason; FIP
 * whose lengths point past the frame gives FCR_R_BAD_PAYLOAD or
 * FCR_R_TRUNC_PAYLOAD. Never reads outside [buf, buf+len).
 */
enum fcr_reason fcr_login_parse(const uint8_t *buf, uint32_t len,
				struct fcr_login *out);

#endif /* FCR_LOGIN_H */
