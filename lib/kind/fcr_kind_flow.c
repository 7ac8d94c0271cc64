/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Flows, as a kind of object (fcr_kind.h): their counters and whether they
 * are idle, so a peer that takes over shows them. On the wire:
 *   1 FLOW      key u64 (VLAN<<48 | S_ID<<24 | D_ID), version varint,
 *               state u8 (1 active, 2 idle), frames varint, bytes varint,
 *               ms since first frame varint, ms since last frame varint
 *   2 FLOW_DEL  key u64, version varint
 */
#include <string.h>

#include <rte_common.h>
#include <rte_cycles.h>

#include "fcr_fcoe.h"
#include "fcr_kind.h"
#include "fcr_kind_flow.h"
#include "fcr_tables.h"
#include "fcr_text.h"

/* A key with its top nibble set is none a frame makes (UINT64_MAX marks a
 * free slot of the flow table). */
static int
key_valid(const struct fcr_key *k)
{
	return k->k1 >> 60 == 0;
}

static size_t
put(uint8_t *b, const struct fcr_rec *r)
{
	const struct fcr_flow_val *v = (const struct fcr_flow_val *)r->val.u64;
	size_t n = 8;

	fcr_put_be64(b, r->key.k1);
	n += fcr_varint_put(b + n, r->version);
	if (r->type == FCR_REC_FLOW) {
		b[n++] = (uint8_t)v->state;
		n += fcr_varint_put(b + n, v->frames);
		n += fcr_varint_put(b + n, v->bytes);
		n += fcr_varint_put(b + n, v->first_age_ms);
		n += fcr_varint_put(b + n, v->last_age_ms);
	}
	return n;
}

static int
get(const uint8_t *p, size_t o, size_t end, struct fcr_rec *r)
{
	struct fcr_flow_val *v = fcr_flow_val(r);

	FCR_BODY_NEED(o, 8, end);
	r->key.kind = FCR_KIND_FLOW;
	r->key.k1 = fcr_get_be64(p + o);
	o += 8;
	FCR_BODY_VARINT(p, o, end, r->version);
	if (r->type == FCR_REC_FLOW_DEL)
		return 0;
	FCR_BODY_NEED(o, 1, end);
	v->state = p[o++];
	FCR_BODY_VARINT(p, o, end, v->frames);
	FCR_BODY_VARINT(p, o, end, v->bytes);
	FCR_BODY_VARINT(p, o, end, v->first_age_ms);
	FCR_BODY_VARINT(p, o, end, v->last_age_ms);
	return 0;
}

static uint32_t
slots(const struct fcr_tables *t)
{
	return t->flows->capacity;
}

static int
slot(struct fcr_tables *t, uint32_t idx, struct fcr_sync_meta *m)
{
	struct fcr_flow_table *ft = t->flows;

	m->version = &ft->version[idx];
	m->sflags = &ft->sflags[idx];
	return ft->key[idx] != UINT64_MAX;
}

static uint64_t
tsc_age_ms(const struct fcr_rec_ctx *c, uint64_t then_tsc)
{
	if (then_tsc == 0 || then_tsc > c->now_tsc || c->tsc_hz == 0)
		return 0;
	return (c->now_tsc - then_tsc) * 1000 / c->tsc_hz;
}

static void
rec(struct fcr_tables *t, uint32_t idx, const struct fcr_rec_ctx *c, struct fcr_rec *r)
{
	const struct fcr_flow_table *ft = t->flows;
	const struct fcr_flow_remote *rm = &ft->remote[idx];
	struct fcr_flow_counters n;
	struct fcr_flow_val *v;
	uint64_t now_s = c->now_ms / 1000;

	fcr_flow_counters_sum(ft, idx, &n);
	*r = fcr_flow_rec(ft->key[idx], (ft->sflags[idx] & FCR_SF_IDLE) ? FCR_FLOW_REC_IDLE
								  : FCR_FLOW_REC_ACTIVE,
			  ft->version[idx]);
	v = fcr_flow_val(r);
	/* what a peer told us plus what we forwarded since */
	v->frames = rm->frames + n.frames;
	v->bytes = rm->bytes + n.bytes;
	if (rm->frames && rm->first_s)
		v->first_age_ms = (now_s > rm->first_s ? now_s - rm->first_s : 0) * 1000;
	else
		v->first_age_ms = tsc_age_ms(c, n.first_tsc);
	if (n.frames)
		v->last_age_ms = tsc_age_ms(c, n.last_tsc);
	else if (rm->last_s)
		v->last_age_ms = (now_s > rm->last_s ? now_s - rm->last_s : 0) * 1000;
}

static int
find(struct fcr_tables *t, const struct fcr_key *k)
{
	return fcr_flow_find(t->flows, k->k1);
}

static enum fcr_apply_result
apply(struct fcr_tables *t, const struct fcr_rec *r, const struct fcr_rec_ctx *c)
{
	const struct fcr_flow_val *v = (const struct fcr_flow_val *)r->val.u64;
	struct fcr_flow_table *ft = t->flows;
	uint64_t key = r->key.k1, now_ms = c->now_ms;
	int live = r->type == FCR_REC_FLOW;
	struct fcr_sync_meta m;
	int i = fcr_flow_find(ft, key);

	if (i < 0 && live)
		i = fcr_flow_set(ft, key, fcr_action(fcr_flow_key_sid(key),
						     fcr_flow_key_did(key), FCR_LEG_PLAIN),
				 FCR_NO_OWNER);
	if (i < 0)
		return live ? FCR_APPLY_REFUSED : FCR_APPLY_DONE;
	slot(t, (uint32_t)i, &m);
	if (fcr_rec_stale(&m, r->version))
		return FCR_APPLY_STALE;
	if (!live) {
		/* rules are derived here from the redirects: only a plain
		 * entry goes */
		if (ft->owner[i] == FCR_NO_OWNER)
			fcr_flow_del(ft, key);
		return FCR_APPLY_DONE;
	}
	ft->version[i] = r->version;
	ft->sflags[i] = (uint8_t)((ft->sflags[i] & ~FCR_SF_IDLE) | FCR_SF_KNOWN |
				  (v->state == FCR_FLOW_REC_IDLE ? FCR_SF_IDLE : 0));
	ft->remote[i].frames = v->frames;
	ft->remote[i].bytes = v->bytes;
	ft->remote[i].first_s = (uint32_t)((now_ms - RTE_MIN(now_ms, v->first_age_ms)) / 1000);
	ft->remote[i].last_s = (uint32_t)((now_ms - RTE_MIN(now_ms, v->last_age_ms)) / 1000);
	return FCR_APPLY_DONE;
}

#define RESCAN_SEGS 64

struct rescan {
	uint32_t rescan_pos;
	/* When the rescan reached the start of each segment of the table, in
	 * this pass and in the previous one (before the first pass ended: the
	 * first tick); 0: no tick yet. */
	uint64_t rescan_seg_tsc[2][RESCAN_SEGS];
};

/* A frame stamped this long before the rescan passed its entry may have
 * been counted after: a worker stamps a burst, then counts it. */
#define RESCAN_MARGIN_MS 10

/*
 * The rescan: a slice of the flow table per tick, the whole table once per refresh
 * period: idle/active changes, and the counters of the flows that forwarded
 * frames since the previous pass over their entry. A flow with no frame
 * since is not noted: the peers already have its counters (from the update
 * that followed that pass, or from their bulk resync, which read them
 * later), so quiet flows and resyncs do not cost a record per active flow
 * per period. A frame's counters reach the peers within a refresh period
 * and a window.
 */
static void
refresh(struct fcr_tables *t, void *state, const struct fcr_refresh_ctx *c)
{
	struct rescan *s = state;
	struct fcr_flow_table *ft = t->flows;
	uint64_t now_tsc = c->now_tsc;
	uint64_t idle_tsc = c->tsc_hz * c->idle_ms / 1000;
	uint64_t margin = c->tsc_hz * RESCAN_MARGIN_MS / 1000;
	uint32_t per_tick = ft->capacity / (c->period_ms ? c->period_ms : 1) + 1;
	uint32_t seg_len = ft->capacity / RESCAN_SEGS + 1;
	struct fcr_flow_counters n;
	uint32_t i, k;

	if (s->rescan_seg_tsc[1][0] == 0) {
		/* the first tick: a peer has what was counted before it from
		 * its bulk resync, which starts no earlier */
		for (k = 0; k < RESCAN_SEGS; k++)
			s->rescan_seg_tsc[0][k] = s->rescan_seg_tsc[1][k] =
				RTE_MAX(now_tsc, (uint64_t)1);
	}
	for (i = 0; i < per_tick; i++, s->rescan_pos++) {
		uint32_t idx;
		uint64_t since;
		int idle, was_idle;

		if (s->rescan_pos >= ft->capacity) {
			s->rescan_pos = 0;
			memcpy(s->rescan_seg_tsc[1], s->rescan_seg_tsc[0],
			       sizeof(s->rescan_seg_tsc[0]));
		}
		idx = s->rescan_pos;
		k = idx / seg_len;
		if (idx % seg_len == 0)
			s->rescan_seg_tsc[0][k] = now_tsc;
		if (ft->key[idx] == UINT64_MAX)
			continue;
		fcr_flow_counters_sum(ft, idx, &n);
		if (n.frames == 0)
			continue; /* nothing forwarded here: a peer's flow */
		/* the previous pass was here no earlier than this */
		since = s->rescan_seg_tsc[1][k] - RTE_MIN(s->rescan_seg_tsc[1][k], margin);
		idle = now_tsc - n.last_tsc > idle_tsc;
		was_idle = (ft->sflags[idx] & FCR_SF_IDLE) != 0;
		if (idle == was_idle && (idle || n.last_tsc < since))
			continue; /* idle still, or no frame since the last pass */
		ft->sflags[idx] = (uint8_t)(idle ? ft->sflags[idx] | FCR_SF_IDLE
					   : ft->sflags[idx] & ~FCR_SF_IDLE);
		fcr_change_mark(c->log, FCR_KIND_FLOW, &ft->sflags[idx], idx);
	}
}

/* A flow's row in show flows and /fcr/flows: its key, its leg and
 * rewrite, what it forwarded here and at a peer before, its rate here. */
static int
fields(struct fcr_tables *t, uint32_t idx, struct fcr_field *f, int *config)
{
	static const struct fcr_field cols[] = {
		{ .name = "vlan", .flags = FCR_FIELD_NUM, .width = 5 },
		{ .name = "s_id", .width = 8 },
		{ .name = "d_id", .width = 8 },
		{ .name = "leg", .width = 15 },
		{ .name = "new_s_id", .width = 8 },
		{ .name = "new_d_id", .width = 8 },
		{ .name = "frames", .flags = FCR_FIELD_NUM, .width = 12 },
		{ .name = "bytes", .flags = FCR_FIELD_NUM, .width = 14 },
		{ .name = "frames/s", .flags = FCR_FIELD_TEXT },
	};
	const struct fcr_flow_table *ft = t->flows;
	struct fcr_flow_counters c;
	double secs, fps = 0;
	uint64_t k, a;
	unsigned int i;

	*config = 0;
	for (i = 0; i < RTE_DIM(cols); i++)
		f[i] = cols[i];
	if (idx == FCR_FIELDS_NAMES)
		return (int)RTE_DIM(cols);
	k = ft->key[idx];
	a = ft->action[idx];
	fcr_flow_counters_sum(ft, idx, &c);
	secs = (double)(c.last_tsc - c.first_tsc) / (double)rte_get_tsc_hz();
	if (c.frames > 1 && secs > 0)
		fps = (double)(c.frames - 1) / secs;
	if (ft->remote != NULL) {
		/* what a peer forwarded before, as of its last update */
		c.frames += ft->remote[idx].frames;
		c.bytes += ft->remote[idx].bytes;
	}
	f[0].num = fcr_flow_key_vlan(k);
	fcr_fcid_format(fcr_flow_key_sid(k), f[1].value);
	fcr_fcid_format(fcr_flow_key_did(k), f[2].value);
	snprintf(f[3].value, FCR_FIELD_LEN, "%s", fcr_leg_name(fcr_action_leg(a)));
	fcr_fcid_format(fcr_action_sid(a), f[4].value);
	fcr_fcid_format(fcr_action_did(a), f[5].value);
	f[6].num = c.frames;
	f[7].num = c.bytes;
	snprintf(f[8].value, FCR_FIELD_LEN, "%.0f", fps);
	return (int)RTE_DIM(cols);
}

const struct fcr_kind fcr_kind_flow = {
	.name = "flow",
	.rec_type = FCR_REC_FLOW,
	.paced = 1,
	.key_valid = key_valid,
	.put = put,
	.get = get,
	.slots = slots,
	.slot = slot,
	.rec = rec,
	.find = find,
	.apply = apply,
	.refresh = refresh,
	.refresh_size = sizeof(struct rescan),
	.fields = fields,
};
