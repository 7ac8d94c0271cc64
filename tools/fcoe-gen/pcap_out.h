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
	X(FCP_RSP, "fcp_rsp")

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
