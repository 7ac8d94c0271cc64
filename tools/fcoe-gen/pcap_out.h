/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Where generated frames go: a pcap file (Ethernet link type, deterministic
 * timestamps so the same options and seed give the same bytes), an optional
 * per-frame list in the form tshark prints, and per-kind counters.
 */
#ifndef FCR_GEN_PCAP_OUT_H
#define FCR_GEN_PCAP_OUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* What a frame is; its name is the `kind` column of the list. */
#define FCR_GEN_KIND_LIST(X) \
	X(FIP_FLOGI, "fip_flogi") \
	X(FIP_FLOGI_ACC, "fip_flogi_acc") \
	X(ELS_FLOGI, "els_flogi") \
	X(ELS_FLOGI_ACC, "els_flogi_acc") \
	X(PLOGI, "plogi") \
	X(PLOGI_ACC, "plogi_acc") \
	X(PRLI, "prli") \
	X(PRLI_ACC, "prli_acc") \
	X(FCP_CMND, "fcp_cmnd") \
	X(XFER_RDY, "xfer_rdy") \
	X(FCP_DATA, "fcp_data") \
	X(FCP_RSP, "fcp_rsp") \
	X(FIP_FDISC, "fip_fdisc") \
	X(FIP_FDISC_ACC, "fip_fdisc_acc") \
	X(ELS_FDISC, "els_fdisc") \
	X(ELS_FDISC_ACC, "els_fdisc_acc") \
	X(FIP_LOGO, "fip_logo") \
	X(FIP_LOGO_ACC, "fip_logo_acc") \
	X(ELS_LOGO, "els_logo") \
	X(ELS_LOGO_ACC, "els_logo_acc") \
	X(FCP_DATA_BADCRC, "fcp_data_badcrc") \
	X(GAP, "gap") \
	X(MALFORMED_RUNT, "malformed_runt") \
	X(MALFORMED_TRUNC_VLAN, "malformed_trunc_vlan") \
	X(MALFORMED_VLAN_STACKED, "malformed_vlan_stacked") \
	X(MALFORMED_TRUNC_FCOE_HDR, "malformed_trunc_fcoe_hdr") \
	X(MALFORMED_BAD_VERSION, "malformed_bad_version") \
	X(MALFORMED_BAD_RESERVED, "malformed_bad_reserved") \
	X(MALFORMED_BAD_SOF, "malformed_bad_sof") \
	X(MALFORMED_TRUNC_FC_HDR, "malformed_trunc_fc_hdr") \
	X(MALFORMED_NO_TRAILER, "malformed_no_trailer") \
	X(MALFORMED_BAD_EOF, "malformed_bad_eof") \
	X(MALFORMED_BAD_TRAILER, "malformed_bad_trailer") \
	X(MALFORMED_BAD_LENGTH, "malformed_bad_length") \
	X(MALFORMED_TOO_LONG, "malformed_too_long") \
	X(MALFORMED_BAD_FILL, "malformed_bad_fill")

/* The kinds every summary line shows, even at 0; the others show when
 * the options that make them are given. */
#define FCR_GEN_K_BASE_KINDS (FCR_GEN_K_FCP_RSP + 1)

enum fcr_gen_kind {
#define FCR_GEN_KIND_ENUM(id, name) FCR_GEN_K_##id,
	FCR_GEN_KIND_LIST(FCR_GEN_KIND_ENUM)
#undef FCR_GEN_KIND_ENUM
	FCR_GEN_KINDS
};

const char *fcr_gen_kind_name(enum fcr_gen_kind k);

/* The header fields the list reports for a frame (as tshark shows them). */
struct fcr_gen_ids {
	int vlan;        /* VLAN ID, or -1 when untagged */
	int no_fc;       /* no FC header (filler, cut-short frames): IDs print "-" */
	uint32_t s_id;
	uint32_t d_id;
	uint16_t ox_id;
};

struct fcr_gen_out {
	void *pcap;      /* pcap_t, opaque here */
	void *dumper;    /* pcap_dumper_t */
	FILE *file;
	FILE *list;
	const char *path;
	const char *list_path;
	uint64_t frames;
	uint64_t bytes;  /* frame bytes, without pcap headers */
	uint64_t kinds[FCR_GEN_KINDS];
};

/* "-" writes the capture to standard output. list_path may be NULL.
 * Returns 0, or -1 after printing why. */
int fcr_gen_out_open(struct fcr_gen_out *out, const char *path,
		     const char *list_path);

void fcr_gen_out_frame(struct fcr_gen_out *out, const uint8_t *frame,
		       size_t len, enum fcr_gen_kind kind,
		       const struct fcr_gen_ids *ids);

/* Flush and close everything; -1 (after printing why) on a write error. */
int fcr_gen_out_close(struct fcr_gen_out *out);

#endif /* FCR_GEN_PCAP_OUT_H */
