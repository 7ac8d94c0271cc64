/* SPDX-License-Identifier: BSD-3-Clause */
#include <string.h>

#include "fcr_pipeline.h"
#include "fcr_pipeline_stages.h"

unsigned int
fcr_pipeline_forget(struct fcr_pipeline *p, struct fcr_event *ev, uint64_t now)
{
	unsigned int i, n = 0;

	/* the frames missed after each flow's first report, so the sync lcore can
	 * tell how many went plain before a rule existed */
	for (i = 0; i < 256 && ev != NULL; i++) {
		if (p->recent[i] == UINT64_MAX || p->recent_misses[i] == 0)
			continue;
		fcr_event_flow(&ev[n], p->recent[i]);
		ev[n].type = FCR_EV_FLOW_MISSES;
		ev[n].count = p->recent_misses[i];
		ev[n].worker = (uint8_t)p->worker;
		ev[n].tsc = now;
		n++;
	}
	memset(p->recent, 0xFF, sizeof(p->recent));
	memset(p->recent_misses, 0, sizeof(p->recent_misses));
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
