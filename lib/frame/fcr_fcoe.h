/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * FCoE and FC wire constants (FC-BB-5, FC-FS, FC-LS). Offsets of the FCoE
 * header are from the start of the FCoE header (after the Ethernet header and
 * any 802.1Q tag); offsets of FC header fields are from the start of the FC
 * frame (R_CTL). docs/fcoe.md, "Frame layout", has the full layout.
 */
#ifndef FCR_FCOE_H
#define FCR_FCOE_H

#include <stdint.h>

#define FCR_ETHERTYPE_FCOE 0x8906
#define FCR_ETHERTYPE_FIP 0x8914
#define FCR_ETHERTYPE_VLAN 0x8100
#define FCR_ETHERTYPE_QINQ 0x88A8

#define FCR_ETH_HLEN 14    /* dst, src, EtherType */
#define FCR_VLAN_HLEN 4    /* one 802.1Q tag */
#define FCR_FCOE_HLEN 14   /* version + reserved + SOF */
#define FCR_FC_HLEN 24     /* R_CTL .. Parameter */
#define FCR_FCOE_TLEN 8    /* FC CRC, EOF, 3 reserved */
/* The mark: a bit of the FCoE header's last reserved byte (just before SOF)
 * that fcredirect sets on every frame a redirect leg rewrote, so a second
 * fcredirect in series forwards it plain instead of redirecting it again.
 * Outside the FC CRC; receivers ignore reserved bits (docs/fcoe.md). */
#define FCR_FCOE_MARK_OFF 12
#define FCR_FCOE_MARK 0x01
#define FCR_FC_MAX_PAYLOAD 2112
/* largest FC frame covered by the CRC: header, payload and fill */
#define FCR_FC_MAX_LEN (FCR_FC_HLEN + FCR_FC_MAX_PAYLOAD)
/* largest FCoE frame, tagged, without Ethernet FCS */
#define FCR_FCOE_MAX_FRAME \
	(FCR_ETH_HLEN + FCR_VLAN_HLEN + FCR_FCOE_HLEN + FCR_FC_MAX_LEN + FCR_FCOE_TLEN)
#define FCR_FCOE_MIN_FRAME \
	(FCR_ETH_HLEN + FCR_FCOE_HLEN + FCR_FC_HLEN + FCR_FCOE_TLEN)

/* FC header field offsets, from R_CTL */
#define FCR_FC_R_CTL 0
#define FCR_FC_D_ID 1
#define FCR_FC_CS_CTL 4
#define FCR_FC_S_ID 5
#define FCR_FC_TYPE 8
#define FCR_FC_F_CTL 9
#define FCR_FC_SEQ_ID 12
#define FCR_FC_DF_CTL 13
#define FCR_FC_SEQ_CNT 14
#define FCR_FC_OX_ID 16
#define FCR_FC_RX_ID 18
#define FCR_FC_PARAM 20

#define FCR_F_CTL_FILL_MASK 0x000003u
/* F_CTL Exchange Context: set on the frames the exchange's responder sends */
#define FCR_F_CTL_EXCH_CTX 0x800000u

/* SOF codes (FC-BB-5 table) */
enum fcr_sof {
	FCR_SOF_F = 0x28,
	FCR_SOF_I4 = 0x29,
	FCR_SOF_I2 = 0x2D,
	FCR_SOF_I3 = 0x2E,
	FCR_SOF_N4 = 0x31,
	FCR_SOF_N2 = 0x35,
	FCR_SOF_N3 = 0x36,
	FCR_SOF_C4 = 0x39,
};

/* EOF codes */
enum fcr_eof {
	FCR_EOF_N = 0x41,
	FCR_EOF_T = 0x42,
	FCR_EOF_RT = 0x44,
	FCR_EOF_DT = 0x46,
	FCR_EOF_NI = 0x49,
	FCR_EOF_DTI = 0x4E,
	FCR_EOF_RTI = 0x4F,
	FCR_EOF_A = 0x50,
};

/* R_CTL values we act on */
#define FCR_RCTL_FCP_DATA 0x01
#define FCR_RCTL_FCP_XFER_RDY 0x05
#define FCR_RCTL_FCP_CMND 0x06
#define FCR_RCTL_FCP_RSP 0x07
#define FCR_RCTL_ELS_REQ 0x22
#define FCR_RCTL_ELS_REP 0x23
#define FCR_RCTL_BA_ABTS 0x81
#define FCR_RCTL_BA_ACC 0x84
#define FCR_RCTL_BA_RJT 0x85

/* TYPE values */
#define FCR_TYPE_BLS 0x00
#define FCR_TYPE_ELS 0x01
#define FCR_TYPE_FCP 0x08
/* FC-NVMe: its command, data and response IUs in FCP's information
 * categories (a command 0x06, its response, RSP or ERSP, 0x07) */
#define FCR_TYPE_NVME 0x28

/* An FC-4 whose exchanges begin with a command and end with a response in
 * FCP's information categories: FCP (SCSI) and FC-NVMe. */
static inline int
fcr_type_command_response(uint8_t type)
{
	return type == FCR_TYPE_FCP || type == FCR_TYPE_NVME;
}

/* ELS command codes (first payload byte) */
#define FCR_ELS_LS_RJT 0x01
#define FCR_ELS_LS_ACC 0x02
#define FCR_ELS_PLOGI 0x03
#define FCR_ELS_FLOGI 0x04
#define FCR_ELS_LOGO 0x05
#define FCR_ELS_PRLI 0x20
#define FCR_ELS_FDISC 0x51
#define FCR_ELS_RSCN 0x61

/* Well-known FCIDs */
#define FCR_FCID_FLOGI 0xFFFFFEu
#define FCR_FCID_FCTRL 0xFFFFFDu
#define FCR_FCID_DIR 0xFFFFFCu
#define FCR_FCID_BCAST 0xFFFFFFu
#define FCR_FCID_MASK 0xFFFFFFu

/* Default FC-MAP: the upper 3 bytes of an FPMA MAC */
#define FCR_FC_MAP_DEFAULT 0x0EFC00u

static inline uint32_t
fcr_get_be24(const uint8_t *p)
{
	return ((uint32_t)p[0] << 16) | ((uint32_t)p[1] << 8) | p[2];
}

static inline void
fcr_put_be24(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 16);
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)v;
}

static inline uint16_t
fcr_get_be16(const uint8_t *p)
{
	return (uint16_t)((p[0] << 8) | p[1]);
}

static inline void
fcr_put_be16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static inline uint32_t
fcr_get_be32(const uint8_t *p)
{
	return ((uint32_t)p[0] << 24) | fcr_get_be24(p + 1);
}

static inline void
fcr_put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	fcr_put_be24(p + 1, v);
}

static inline uint64_t
fcr_get_be64(const uint8_t *p)
{
	return ((uint64_t)fcr_get_be32(p) << 32) | fcr_get_be32(p + 4);
}

static inline void
fcr_put_be64(uint8_t *p, uint64_t v)
{
	fcr_put_be32(p, (uint32_t)(v >> 32));
	fcr_put_be32(p + 4, (uint32_t)v);
}

/* 1 when the byte is one of the SOF / EOF codes FC-BB-5 defines */
int fcr_sof_valid(uint8_t sof);
int fcr_eof_valid(uint8_t eof);

#endif /* FCR_FCOE_H */
