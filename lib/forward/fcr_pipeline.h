/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The per-burst forwarding decision: parse, look the flows up in bulk,
 * rewrite IDs with the incremental CRC update, route in bulk, set MACs.
 * It decides and rewrites; the caller (the worker) owns the I/O: it sends
 * each frame to the port chosen here, frees the dropped ones and passes the
 * events on to the tables lcore. Kept apart from the worker so the same
 * code is unit-tested and benchmarked on pre-built mbufs without a PMD;
 * its stages, one by one, are in fcr_pipeline_stages.h.
 *
 * With fabric ports (the trust model), frames arriving on an edge port are
 * checked against the VN_Port table first: an FCoE frame whose (VLAN, S_ID)
 * did not log in through this port from this source MAC is dropped
 * (not_logged_in), but for a fabric login request (S_ID 0 to FFFFFE). Then
 * every fabric login frame (FLOGI, FDISC, LOGO to FFFFFE and the fabric's
 * replies, over FCoE or FIP) becomes an event and its frame is held
 * (FCR_OUT_HOLD): the worker sends it only once the tables lcore has applied the
 * event, so a host never has its accept before its binding and every rule it
 * completes are in the tables. The fabric controller's RSCNs from a fabric
 * port are held too, with no event of their own: behind every event the
 * worker gave before them, so no port hears of a change (a host's new
 * FCID) before fcredirect's rules have followed it.
 */
#ifndef FCR_PIPELINE_H
#define FCR_PIPELINE_H

#include <stdint.h>

#include <rte_mbuf.h>

#include "fcr_crc.h"
#include "fcr_enode.h"
#include "fcr_event.h"
#include "fcr_fcoe.h"
#include "fcr_frame.h"
#include "fcr_flow.h"
#include "fcr_reason.h"

struct fcr_tables;

#define FCR_PIPELINE_BURST_MAX 64
/* at most a login, a first-frame report and the misses of the flow it
 * displaced per frame */
#define FCR_PIPELINE_EVENTS_MAX (3 * FCR_PIPELINE_BURST_MAX)
#define FCR_OUT_DROP UINT16_MAX
/* or'ed into out[i]: hold the frame until the tables lcore applied its event */
#define FCR_OUT_HOLD 0x8000u
/* or'ed into out[i] with the port it came in on: FIP (or another EtherType)
 * from a fabric port, for every edge port in flood[that port] */
#define FCR_OUT_FLOOD 0x4000u
/* or'ed into out[i] with FCR_OUT_HOLD: the login server's reply to an FCID
 * not bound yet, with the port it came in on when its route leads back
 * there: its egress decided once applied (fcr_pipeline_reply_port), its
 * leg (plain) counted when it is sent */
#define FCR_OUT_REPLY 0x2000u

/*
 * A fabric login reply, held on its way in from fabric port in_port (ev:
 * its event), goes to the port its request came from, whatever the routes
 * say; the tables lcore knows that port once it has applied the event. The
 * key whose VN_Port table word then says it: a login's accept, its granted
 * (VLAN, FCID), bound behind the requester's port (or not learned:
 * dropped); any other FIP reply, its ENode's edge port. 0: the reply goes
 * where it was routed (a reply over FCoE that grants nothing).
 */
static inline uint64_t
fcr_pipeline_reply_key(const struct fcr_event *ev)
{
	if (ev->type != FCR_EV_LOGIN || (ev->kind != FCR_LOGIN_ACC && ev->kind != FCR_LOGIN_RJT))
		return 0;
	if (!ev->via_fip) {
		if (ev->s_id != FCR_FCID_FLOGI || ev->kind != FCR_LOGIN_ACC || !ev->has_wwpn)
			return 0;
		return fcr_vn_key(ev->vlan, ev->d_id);
	}
	if (ev->answers == FCR_LOGIN_NONE)
		return 0;
	if (ev->kind == FCR_LOGIN_ACC && ev->answers != FCR_LOGIN_LOGO)
		return fcr_vn_key(ev->vlan, ev->d_id);
	return fcr_vn_enode_key(fcr_enode_key(ev->vlan, ev->enode));
}

/* Where a held reply goes once applied: the port its key's word vn
 * (fcr_vn_lookup) names, else `routed`, its egress when it arrived on
 * in_port; never back out of in_port (FCR_OUT_DROP: a login's accept the
 * tables did not learn, routed back into the fabric). */
static inline uint16_t
fcr_pipeline_reply_port(uint64_t vn, uint16_t routed, uint16_t in_port)
{
	unsigned int port = (unsigned int)(vn >> 48) & 0xFF;

	if (vn != 0 && !(vn & FCR_VN_LEAVING) && port != FCR_VN_ANY_PORT && port != in_port)
		return (uint16_t)port;
	return routed == in_port ? FCR_OUT_DROP : routed;
}

struct fcr_pipeline {
	const struct fcr_tables *tables;
	const uint8_t (*port_mac)[6];  /* [nb_ports] */
	const uint16_t *passthrough;   /* [in port] -> out port */
	const uint32_t *flood;         /* [fabric port] -> its edge ports; NULL: none */
	uint16_t nb_ports;
	uint32_t fabric_mask;          /* fabric ports; 0: no trust model */
	uint32_t series_mask;          /* series ports: edge ports facing another
					* fcredirect's fabric port */
	uint32_t worker;               /* which per-worker counters */
	uint64_t recent[256];          /* first frames recently reported */
	uint32_t recent_misses[256];   /* frames missed since each report */
	struct fcr_flow_exchanges recent_x[256]; /* exchanges among them */
	/* the cleartext guard (fcr_cleartext.h): every guard_every-th data
	 * frame of FCR_CLEARTEXT_MIN bytes or more on a VI -> target leg is
	 * judged (0: none); guard_drop: one judged clear is dropped */
	uint32_t guard_every;
	uint32_t guard_count;
	uint8_t guard_drop;
	/* the service node's latency (fcr_latency.h): TSC ticks per us, and
	 * the age of a command given up; lat_stale 0: not timed */
	uint64_t lat_tsc_per_us;
	uint64_t lat_stale;
	struct fcr_flow_cache cache;   /* this worker's flow cache */
	struct fcr_vn_cache vcache;    /* this worker's VN_Port cache */
};

/* Counters one worker owns. */
struct fcr_pipeline_stats {
	uint64_t drop[FCR_R_COUNT];
	uint64_t leg[FCR_LEG_COUNT];   /* FCoE frames sent, by rewrite leg */
	uint64_t leg_bytes[FCR_LEG_COUNT]; /* their bytes (Ethernet frame, no FCS) */
	uint64_t flow_miss;            /* FCoE frames sent with no flow entry yet */
	uint64_t series;               /* FCoE frames with the mark sent plain */
	uint64_t passthrough;          /* FIP and other EtherTypes sent */
	uint64_t logins;               /* login frames reported */
	uint64_t logins_bad_crc;       /* login frames not learned from */
	uint64_t els_ids;              /* ELS on a redirect leg: identities rewritten */
	uint64_t guard_judged;         /* VI -> target data frames the guard judged */
	uint64_t guard_clear;          /* of them, not looking encrypted */
	uint64_t els_unread[256];      /* ELS on a redirect leg not read, by command
					* code (LS_ACC 0x02: of no known shape;
					* 0: payload not in the first segment) */
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
 * the caller frees it), the port with FCR_OUT_HOLD for a fabric login frame
 * or an RSCN. Events for the tables lcore go to ev[]; returns how many. A
 * login event's `seq` is the index of its frame in pkts (the caller numbers
 * it); a held frame no event names waits for the events before it.
 */
unsigned int fcr_pipeline_burst(struct fcr_pipeline *p, uint16_t in_port,
				struct rte_mbuf **pkts, uint16_t n,
				uint16_t *out, struct fcr_pipeline_stats *st,
				struct fcr_event *ev, uint64_t now);

/* A frame on a VI -> target leg (owner: its redirect), when the guard is
 * on: a data frame, every guard_every-th, is judged. Returns 1 when it is
 * judged clear (counted, for its redirect too: the tables lcore reads
 * the redirect table's cleartext counts). */
int fcr_pipeline_guard(struct fcr_pipeline *p, struct rte_mbuf *m, const struct fcr_frame *f,
		       uint32_t owner, struct fcr_pipeline_stats *st);

/* An FCP or FC-NVMe command or response on a redirect leg (owner: its
 * redirect) timed for its service node's latency (fcr_latency.h). */
void fcr_pipeline_latency(const struct fcr_pipeline *p, const struct fcr_frame *f,
			  unsigned int leg, uint32_t owner, uint64_t now);

/* An ELS on a redirect leg (cold): the identities in its payload follow
 * the header's, the CRC follows them (lib/frame/fcr_els_ids.h). */
void fcr_pipeline_els_ids(const struct fcr_pipeline *p, struct rte_mbuf *m,
			  const struct fcr_frame *f, unsigned int leg, uint32_t owner,
			  uint32_t sid, uint32_t did, struct fcr_pipeline_stats *st);

/* Store a frame's CRC at off; it may sit in a later segment of a chained
 * mbuf. */
static inline void
fcr_put_crc_mbuf(struct rte_mbuf *m, uint32_t off, uint32_t crc)
{
	uint8_t b[4];
	uint32_t i;

	if (likely(off + 4 <= rte_pktmbuf_data_len(m))) {
		fcr_crc_store(rte_pktmbuf_mtod_offset(m, uint8_t *, off), crc);
		return;
	}
	fcr_crc_store(b, crc);
	for (i = 0; i < 4; i++) {
		struct rte_mbuf *s = m;
		uint32_t o = off + i;

		while (s != NULL && o >= s->data_len) {
			o -= s->data_len;
			s = s->next;
		}
		if (s != NULL)
			*rte_pktmbuf_mtod_offset(s, uint8_t *, o) = b[i];
	}
}

/* New D_ID and S_ID, and the CRC updated for them (the pipeline's
 * rewrite); the mark set, so no fcredirect after this one redirects the
 * frame again. */
static inline void
fcr_rewrite_ids(struct rte_mbuf *m, const struct fcr_frame *f, uint32_t sid,
	    uint32_t did)
{
	uint8_t *fc = rte_pktmbuf_mtod_offset(m, uint8_t *, f->fc_off);

	/* the FCoE header, just before the FC frame: outside the CRC */
	fc[FCR_FCOE_MARK_OFF - FCR_FCOE_HLEN] |= FCR_FCOE_MARK;
	fcr_put_be24(fc + FCR_FC_D_ID, did);
	fcr_put_be24(fc + FCR_FC_S_ID, sid);
	/* incremental: a CRC that was bad on arrival stays exactly as bad */
	fcr_put_crc_mbuf(m, fcr_frame_crc_off(f),
		fcr_crc_update_ids(f->crc, f->fc_len, f->d_id, did, f->s_id, sid));
}

#endif /* FCR_PIPELINE_H */
