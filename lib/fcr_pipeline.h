/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The per-burst forwarding decision: parse, look the flows up in bulk,
 * rewrite IDs with the incremental CRC update, route in bulk, set MACs.
 * It decides and rewrites; the caller (the worker) owns the I/O: it sends
 * each frame to the port chosen here, frees the dropped ones and passes the
 * events on to the table writer. Kept apart from the worker so the same
 * code is unit-tested and benchmarked on pre-built mbufs without a PMD.
 */
#ifndef FCR_PIPELINE_H
#define FCR_PIPELINE_H

#include <stdint.h>

#include "fcr_event.h"
#include "fcr_flow.h"
#include "fcr_reason.h"

struct rte_mbuf;
struct fcr_tables;

#define FCR_PIPELINE_BURST_MAX 64
/* at most a login and a first-frame report per frame */
#define FCR_PIPELINE_EVENTS_MAX (2 * FCR_PIPELINE_BURST_MAX)
#define FCR_OUT_DROP UINT16_MAX

struct fcr_pipeline {
	const struct fcr_tables *tables;
	const uint8_t (*port_mac)[6];  /* [nb_ports] */
	const uint16_t *passthrough;   /* [in port] -> out port */
	uint16_t nb_ports;
	uint32_t fc_map;
	uint32_t worker;               /* which per-worker counters */
	uint64_t recent[256];          /* first frames recently reported */
	uint32_t recent_misses[256];   /* frames missed since each report */
	struct fcr_flow_cache cache;   /* this worker's flow cache */
};

/* Counters one worker owns. */
struct fcr_pipeline_stats {
	uint64_t drop[FCR_R_COUNT];
	uint64_t leg[FCR_LEG_COUNT];   /* FCoE frames sent, by rewrite leg */
	uint64_t flow_miss;            /* FCoE frames sent with no flow entry yet */
	uint64_t passthrough;          /* FIP and other EtherTypes sent */
	uint64_t logins;               /* login frames reported */
	uint64_t logins_bad_crc;       /* login frames not learned from */
};

/* Forget the first frames reported (the worker does it every drain
 * period, so a flow whose report was lost is reported again). Writes to ev
 * (room for 256; NULL to discard) how many more frames of each reported
 * flow missed since; returns how many events. */
unsigned int fcr_pipeline_forget(struct fcr_pipeline *p, struct fcr_event *ev,
				 uint64_t now);

/*
 * Process n (<= FCR_PIPELINE_BURST_MAX) frames received on in_port. For
 * each, out[i] is the egress port or FCR_OUT_DROP (counted in st->drop;
 * the caller frees it). Events for the table writer go to ev[]; returns how
 * many.
 */
unsigned int fcr_pipeline_burst(struct fcr_pipeline *p, uint16_t in_port,
				struct rte_mbuf **pkts, uint16_t n,
				uint16_t *out, struct fcr_pipeline_stats *st,
				struct fcr_event *ev, uint64_t now);

#endif /* FCR_PIPELINE_H */
