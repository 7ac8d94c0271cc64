/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The frame sequences fcoe-gen writes, in order: fabric logins of every
 * port (FIP or plain ELS, or none), PLOGI and PRLI of every flow's pair,
 * then FCP exchanges round-robin across flows. A redirected flow shows the
 * two ingress legs an fcredirect appliance sees (docs/fcoe.md, "FC-Redirect:
 * the four rules"): each host->target
 * frame is followed by the same frame from the host's VI, each
 * target->host frame by the same frame from the target's VT.
 *
 * Options add to that sequence:
 *   fabric logins, [gap], PLOGI/PRLI, [gap when there are no fabric logins],
 *   [malformed frames], rounds 0..half-1, [second logins, gap],
 *   rounds half..exchanges-1, [LOGOs, gap, one more round of every flow].
 * A gap is login_gap filler frames; half is exchanges / 2.
 */
#ifndef FCR_GEN_TRAFFIC_H
#define FCR_GEN_TRAFFIC_H

#include <stdint.h>

#include "fabric.h"
#include "pcap_out.h"

enum fcr_gen_logins {
	FCR_GEN_LOGINS_FIP,
	FCR_GEN_LOGINS_ELS,
	FCR_GEN_LOGINS_NONE,
};

#define FCR_GEN_MAX_IO_SIZES 64
#define FCR_GEN_MAX_IO_SIZE (16u << 20)

struct fcr_gen_traffic_conf {
	uint16_t vlan;          /* 0: untagged */
	uint8_t pcp;
	enum fcr_gen_logins logins;
	uint32_t exchanges;     /* per flow */
	uint32_t io_sizes[FCR_GEN_MAX_IO_SIZES]; /* bytes, 1..16 MiB */
	uint32_t n_io_sizes;
	uint32_t read_pct;      /* 0..100 */
	uint32_t max_payload;   /* FCP_DATA payload, multiple of 4, <= 2112 */
	uint64_t seed;
	uint64_t login_gap;     /* filler frames after each login phase */
	int relogin_fdisc;      /* second logins (fab->relogins) use FDISC */
	uint32_t logouts;       /* hosts 0..logouts-1 send LOGO after the
				 * exchanges; then one more round for all */
	uint32_t bad_crc;       /* every Nth FCP_DATA frame has a bad CRC; 0 none */
	int malformed;          /* one frame of each malformed kind */
};

/* EtherType of the filler frames (IEEE 802 local experimental 1): not
 * FCoE, not FIP, so a forwarder passes them through unchanged. */
#define FCR_GEN_GAP_ETHERTYPE 0x88B5
/* What a bad CRC is: the right one with every bit flipped. */
#define FCR_GEN_BAD_CRC_XOR 0xFFFFFFFFu

/* Write the whole capture. Returns 0, or -1 after printing why. */
int fcr_gen_traffic_run(const struct fcr_gen_fabric *fab,
			const struct fcr_gen_traffic_conf *conf,
			struct fcr_gen_out *out);

#endif /* FCR_GEN_TRAFFIC_H */
