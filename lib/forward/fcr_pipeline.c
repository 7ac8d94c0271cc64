/* SPDX-License-Identifier: BSD-3-Clause */
#include <string.h>

#include "fcr_cleartext.h"
#include "fcr_els_ids.h"
#include "fcr_pipeline.h"
#include "fcr_pipeline_stages.h"

unsigned int
fcr_pipeline_forget(struct fcr_pipeline *p, struct fcr_event *ev, uint64_t now)
{
	unsigned int i, n = 0;

	/* the frames missed after each flow's first report, so the tables lcore can
	 * tell how many went plain before a rule existed */
	for (i = 0; i < 256 && ev != NULL; i++) {
		if (p->recent[i] == UINT64_MAX || p->recent_misses[i] == 0)
			continue;
		fcr_event_flow(&ev[n], p->recent[i]);
		ev[n].type = FCR_EV_FLOW_MISSES;
		ev[n].count = p->recent_misses[i];
		ev[n].cmnds = p->recent_x[i].cmnds;
		ev[n].ends = p->recent_x[i].ends;
		ev[n].worker = (uint8_t)p->worker;
		ev[n].tsc = now;
		n++;
	}
	memset(p->recent, 0xFF, sizeof(p->recent));
	memset(p->recent_misses, 0, sizeof(p->recent_misses));
	memset(p->recent_x, 0, sizeof(p->recent_x));
	return n;
}

/* The stages in order (fcr_pipeline_stages.h), and nothing else: what
 * pipeline-bench cuts after each stage is this. */
unsigned int
fcr_pipeline_burst(struct fcr_pipeline *p, uint16_t in_port,
		   struct rte_mbuf **pkts, uint16_t n, uint16_t *out,
		   struct fcr_pipeline_stats *st, struct fcr_event *ev,
		   uint64_t now)
{
	struct fcr_pipeline_frames w;
	unsigned int k, nev = 0;

	k = fcr_pipeline_parse(p, in_port, pkts, n, out, st, ev, &nev, now, &w);
	if (k == 0)
		return nev;
	k = fcr_pipeline_trust(p, in_port, pkts, k, out, st, ev, &nev, now, &w);
	if (k == 0)
		return nev;
	fcr_pipeline_lookup(p, k, &w);
	nev = fcr_pipeline_act(p, pkts, k, ev, nev, now, &w, 1);
	fcr_pipeline_route(p, in_port, pkts, k, out, st, ev, nev, &w);
	return nev;
}

/* Which member a leg's header stopped naming, and which it names now. */
static const uint8_t leg_members[FCR_LEG_COUNT][2] = {
	[FCR_LEG_HOST_TO_TARGET] = { FCR_M_TARGET, FCR_M_VT },
	[FCR_LEG_VI_TO_TARGET] = { FCR_M_VI, FCR_M_HOST },
	[FCR_LEG_TARGET_TO_HOST] = { FCR_M_HOST, FCR_M_VI },
	[FCR_LEG_VT_TO_HOST] = { FCR_M_VT, FCR_M_TARGET },
};

void
fcr_pipeline_latency(const struct fcr_pipeline *p, const struct fcr_frame *f,
		     unsigned int leg, uint32_t owner, uint64_t now)
{
	const struct fcr_redirect_table *rd = p->tables->redirects;
	int begin = f->r_ctl == FCR_RCTL_FCP_CMND;
	/* commands go toward the target, responses back; the host's side is
	 * its command to the VT and the VT's response, the node's the VI's
	 * command to the target and the target's response */
	int to_target = leg == FCR_LEG_HOST_TO_TARGET || leg == FCR_LEG_VI_TO_TARGET;
	unsigned int side = leg == FCR_LEG_HOST_TO_TARGET || leg == FCR_LEG_VT_TO_HOST ?
			    FCR_LAT_HOST : FCR_LAT_VI;

	if (owner >= rd->capacity || !fcr_type_command_response(f->type) ||
	    (!begin && f->r_ctl != FCR_RCTL_FCP_RSP) || begin != to_target)
		return;
	fcr_latency_note(&rd->lat[owner], side, begin, f->ox_id, now, p->lat_tsc_per_us,
			 p->lat_stale);
}

int
fcr_pipeline_guard(struct fcr_pipeline *p, struct rte_mbuf *m, const struct fcr_frame *f,
		   uint32_t owner, struct fcr_pipeline_stats *st)
{
	const struct fcr_redirect_table *rd = p->tables->redirects;
	uint32_t off = (uint32_t)f->fc_off + FCR_FC_HLEN;

	if (f->r_ctl != FCR_RCTL_FCP_DATA || !fcr_type_command_response(f->type) ||
	    f->payload_len < FCR_CLEARTEXT_MIN || ++p->guard_count < p->guard_every)
		return 0;
	p->guard_count = 0;
	/* a payload past the first segment is not judged (not counted) */
	if (off + f->payload_len > rte_pktmbuf_data_len(m))
		return 0;
	st->guard_judged++;
	if (fcr_cleartext_judge(rte_pktmbuf_mtod_offset(m, const uint8_t *, off),
				f->payload_len) != FCR_CT_CLEAR)
		return 0;
	st->guard_clear++;
	if (owner < rd->capacity)
		rd->cleartext[p->worker][owner]++;
	return 1;
}

void
fcr_pipeline_els_ids(const struct fcr_pipeline *p, struct rte_mbuf *m,
		     const struct fcr_frame *f, unsigned int leg, uint32_t owner,
		     uint32_t sid, uint32_t did, struct fcr_pipeline_stats *st)
{
	const struct fcr_redirect_table *rd = p->tables->redirects;
	uint32_t off = (uint32_t)f->fc_off + FCR_FC_HLEN, crc_off = fcr_frame_crc_off(f);
	uint8_t old[FCR_FC_MAX_PAYLOAD], *pl, cmd;
	struct fcr_els_subst sub;
	enum fcr_els_shape shape;
	unsigned int n;
	uint32_t crc;

	if (f->payload_len == 0 || owner >= rd->capacity ||
	    off + f->payload_len + 4 > rte_pktmbuf_data_len(m) ||
	    crc_off + 4 > rte_pktmbuf_data_len(m)) {
		st->els_unread[0]++;
		return;
	}
	pl = rte_pktmbuf_mtod_offset(m, uint8_t *, off);
	cmd = pl[0];
	sub.fcid_old = did != f->d_id ? f->d_id : f->s_id;
	sub.fcid_new = did != f->d_id ? did : sid;
	sub.wwpn_old = __atomic_load_n(&rd->wwpn[owner][leg_members[leg][0]], __ATOMIC_ACQUIRE);
	sub.wwpn_new = __atomic_load_n(&rd->wwpn[owner][leg_members[leg][1]], __ATOMIC_ACQUIRE);
	sub.wwnn_old = __atomic_load_n(&rd->wwnn[owner][leg_members[leg][0]], __ATOMIC_ACQUIRE);
	sub.wwnn_new = __atomic_load_n(&rd->wwnn[owner][leg_members[leg][1]], __ATOMIC_ACQUIRE);
	memcpy(old, pl, f->payload_len);
	shape = fcr_els_ids_rewrite(pl, f->payload_len, f->r_ctl, &sub, &n);
	if (shape == FCR_ELS_UNKNOWN) {
		st->els_unread[cmd]++;
		return;
	}
	if (n == 0)
		return;
	st->els_ids++;
	/* incremental, over the header's rewrite: a bad CRC stays as bad */
	crc = fcr_crc_update_ids(f->crc, f->fc_len, f->d_id, did, f->s_id, sid);
	crc = fcr_crc_update(crc, f->fc_len, FCR_FC_HLEN, old, pl, f->payload_len);
	fcr_put_crc_mbuf(m, crc_off, crc);
}
