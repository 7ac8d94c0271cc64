/* SPDX-License-Identifier: BSD-3-Clause */
/* A flow as replication carries it (lib/kind/fcr_kind_flow.c). */
#ifndef FCR_KIND_FLOW_H
#define FCR_KIND_FLOW_H

#include <stdint.h>

#include "fcr_rec.h"

#define FCR_REC_FLOW 1
#define FCR_REC_FLOW_DEL 2
#define FCR_FLOW_REC_ACTIVE 1
#define FCR_FLOW_REC_IDLE 2

/* key: k1 the flow key (VLAN << 48 | S_ID << 24 | D_ID) */
struct fcr_flow_val {
	uint64_t state;        /* FCR_FLOW_REC_ACTIVE or _IDLE */
	uint64_t frames;
	uint64_t bytes;
	uint64_t first_age_ms; /* since its first frame */
	uint64_t last_age_ms;  /* since its last frame */
};

static inline struct fcr_flow_val *
fcr_flow_val(struct fcr_rec *r)
{
	return (struct fcr_flow_val *)r->val.u64;
}

static inline struct fcr_rec
fcr_flow_rec(uint64_t key, uint8_t state, uint64_t version)
{
	struct fcr_rec r = { .type = FCR_REC_FLOW, .version = version,
			     .key = { .kind = FCR_KIND_FLOW, .k1 = key } };

	fcr_flow_val(&r)->state = state;
	return r;
}

#endif /* FCR_KIND_FLOW_H */
