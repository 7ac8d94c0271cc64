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

#include "fcr_fcoe.h"
#include "fcr_kind.h"
#include "fcr_kind_flow.h"
#include "fcr_tables.h"

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
};
