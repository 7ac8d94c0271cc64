/* SPDX-License-Identifier: BSD-3-Clause */
/* A binding as replication carries it (lib/kind/fcr_kind_binding.c). */
#ifndef FCR_KIND_BINDING_H
#define FCR_KIND_BINDING_H

#include <stdint.h>

#include "fcr_rec.h"

#define FCR_REC_BINDING 3
#define FCR_REC_BINDING_DEL 4

/* key: vlan, k1 WWPN */
struct fcr_binding_val {
	uint32_t fcid;
	uint8_t origin;   /* enum fcr_bind_origin: 1 static, 2 learned */
	uint8_t at;       /* learned through port `port` from VN_Port MAC mac */
	uint8_t port;
	uint8_t mac[6];
	uint8_t enode[6]; /* the ENode it logged in through; zero: none (no FIP) */
	uint8_t fcf[6];   /* the FCF that accepted it; zero: not known */
	uint64_t wwnn;    /* its node name; 0: not known */
};

static inline struct fcr_binding_val *
fcr_binding_val(struct fcr_rec *r)
{
	return (struct fcr_binding_val *)r->val.b;
}

static inline struct fcr_rec
fcr_binding_rec(uint16_t vlan, uint64_t wwpn, uint32_t fcid, uint8_t origin,
		uint64_t version)
{
	struct fcr_rec r = { .type = FCR_REC_BINDING, .version = version,
			     .key = { .kind = FCR_KIND_BINDING, .vlan = vlan, .k1 = wwpn } };

	fcr_binding_val(&r)->fcid = fcid;
	fcr_binding_val(&r)->origin = origin;
	return r;
}

#endif /* FCR_KIND_BINDING_H */
