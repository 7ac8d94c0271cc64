/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Build FCoE and FIP frames byte-exact, for the generator and the tests:
 * right fill bytes, CRC and trailer, tagged or not. Not used per frame in
 * the dataplane.
 */
#ifndef FCR_BUILD_H
#define FCR_BUILD_H

#include <stddef.h>
#include <stdint.h>

#include "fcr_fcoe.h"

struct fcr_l2_spec {
	uint8_t dst[6];
	uint8_t src[6];
	uint8_t tagged;   /* add one 802.1Q tag */
	uint8_t pcp;      /* priority in the tag (FCoE usually rides on 3) */
	uint16_t vlan;
};

struct fcr_fc_spec {
	uint8_t sof;      /* 0 means SOFi3 */
	uint8_t eof;      /* 0 means EOFt */
	uint8_t r_ctl;
	uint8_t cs_ctl;
	uint8_t type;
	uint8_t seq_id;
	uint8_t df_ctl;
	uint32_t d_id;
	uint32_t s_id;
	uint32_t f_ctl;   /* the fill bits (1:0) are set by the builder */
	uint16_t seq_cnt;
	uint16_t ox_id;
	uint16_t rx_id;
	uint32_t param;
	const uint8_t *payload;
	uint16_t payload_len; /* 0 .. FCR_FC_MAX_PAYLOAD */
};

/* Exact length fcr_build_fcoe() will produce. */
size_t fcr_fcoe_frame_len(const struct fcr_l2_spec *l2, uint16_t payload_len);

/*
 * Write a complete FCoE frame (no Ethernet FCS) into buf. Returns its length,
 * or 0 when it does not fit in `cap` or the payload is longer than 2112.
 */
size_t fcr_build_fcoe(uint8_t *buf, size_t cap, const struct fcr_l2_spec *l2,
		      const struct fcr_fc_spec *fc);

/* FIP link-service frames: FLOGI, FDISC or LOGO, request or reply. */
#define FCR_FIP_OP_LS 0x0002
#define FCR_FIP_OP_CTRL 0x0003   /* keep-alive, Clear Virtual Links */
#define FCR_FIP_SC_KA 1
#define FCR_FIP_SC_CVL 2
#define FCR_FIP_OP_DISC 0x0001   /* solicitation, advertisement */
#define FCR_FIP_OP_VLAN 0x0004   /* VLAN discovery: request, notification */
#define FCR_FIP_SC_VLAN_NOTE 2
#define FCR_FIP_DT_VLAN 14       /* VLAN: its ID in the low 12 bits at +2 */
#define FCR_FIP_SC_ADV 2
#define FCR_FIP_DT_FKA 12        /* FKA_ADV_Period: flags (D bit), period in ms */
#define FCR_FIP_DT_NAME 4        /* the FCF's switch name */
#define FCR_FIP_DT_FC_MAP 3      /* FC-MAP: 3 reserved bytes, the FC-MAP */
#define FCR_FIP_DT_FABRIC 5      /* Fabric: VF_ID, reserved, FC-MAP, fabric name */
#define FCR_FIP_DT_VN_ID 11      /* Vx_Port identification: MAC, FC ID, port name */
#define FCR_FIP_VN_ID_LEN 20
#define FCR_FIP_SC_REQ 1
#define FCR_FIP_SC_REP 2
#define FCR_FIP_DT_MAC 2
#define FCR_FIP_DT_FLOGI 7
#define FCR_FIP_DT_FDISC 8
#define FCR_FIP_DT_LOGO 9
#define FCR_FIP_HLEN 10
#define FCR_FIP_VERSION 0x10

struct fcr_fip_spec {
	uint8_t subcode;      /* FCR_FIP_SC_REQ or FCR_FIP_SC_REP */
	uint8_t desc_type;    /* FCR_FIP_DT_FLOGI, _FDISC or _LOGO */
	uint8_t mac[6];       /* MAC descriptor: requested (REQ) or granted (REP) */
	uint16_t flags;       /* FIP header flags, e.g. 0x8000 FPMA */
};

/*
 * FIP frame carrying the ELS described by `fc` (header and payload; FIP
 * carries no SOF/EOF/CRC) and a MAC descriptor. Returns length or 0 (also
 * when the ELS payload exceeds FCR_FIP_MAX_ELS_PAYLOAD: a descriptor's
 * length is one byte of 4-byte words).
 */
#define FCR_FIP_MAX_ELS_PAYLOAD (255 * 4 - 4 - FCR_FC_HLEN)
size_t fcr_build_fip_ls(uint8_t *buf, size_t cap, const struct fcr_l2_spec *l2,
			const struct fcr_fip_spec *fip,
			const struct fcr_fc_spec *fc);

/* ELS payloads. Service parameters as FLOGI/FDISC/PLOGI and their LS_ACC
 * carry them: 116 bytes, WWPN at 20, WWNN at 28. */
#define FCR_ELS_SPARM_LEN 116
#define FCR_ELS_LOGO_LEN 16
/*
 * The FCF's Clear Virtual Links to one VN_Port (FC-BB-5): from the FCF's
 * MAC and name, naming the VN_Port's MAC, N_Port ID and port name; l2->dst
 * the ENode's MAC. An ENode that gets it logs in again. vn_mac NULL: no
 * VN_Port named, the whole ENode cleared (Linux resets every VN_Port of
 * it). Returns the length or 0 when it does not fit.
 */
#define FCR_FIP_CVL_LEN (FCR_FIP_HLEN + 8 + 12 + FCR_FIP_VN_ID_LEN)
size_t fcr_build_fip_cvl(uint8_t *buf, size_t cap, const struct fcr_l2_spec *l2,
			 uint64_t fcf_name, const uint8_t vn_mac[6], uint32_t fcid,
			 uint64_t wwpn);

size_t fcr_els_sparm(uint8_t *p, uint8_t cmd, uint64_t wwpn, uint64_t wwnn);
/* LOGO request: N_Port ID at 5, WWPN at 8. */
size_t fcr_els_logo(uint8_t *p, uint32_t fcid, uint64_t wwpn);

/* FC-MAP || FCID (inline: workers write it into every FPMA-routed frame) */
static inline void
fcr_fpma(uint8_t mac[6], uint32_t fc_map, uint32_t fcid)
{
	fcr_put_be24(mac, fc_map);
	fcr_put_be24(mac + 3, fcid);
}

#endif /* FCR_BUILD_H */
