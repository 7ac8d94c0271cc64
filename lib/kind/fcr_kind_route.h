/* SPDX-License-Identifier: BSD-3-Clause */
/* A route as replication carries it (lib/kind/fcr_kind_route.c). */
#ifndef FCR_KIND_ROUTE_H
#define FCR_KIND_ROUTE_H

#include <stdint.h>
#include <string.h>

#include "fcr_rec.h"

#define FCR_REC_ROUTE 5
#define FCR_REC_ROUTE_DEL 6
#define FCR_ROUTE_REC_FPMA 0x01 /* flags: deliver to the VN_Port's FPMA MAC */

/* key: vlan (FCR_VLAN_ANY: every VLAN), k1 prefix, k2 its length in bits */
struct fcr_route_val {
	uint16_t port;
	uint8_t flags;
	uint8_t mac[6];
};

static inline struct fcr_route_val *
fcr_route_val(struct fcr_rec *r)
{
	return (struct fcr_route_val *)r->val.b;
}

/* A route record; mac NULL: fpma. */
static inline struct fcr_rec
fcr_route_rec(uint16_t vlan, uint32_t prefix, uint8_t bits, uint16_t port,
	      const uint8_t *mac, uint64_t version)
{
	struct fcr_rec r = { .type = FCR_REC_ROUTE, .version = version,
			     .key = { .kind = FCR_KIND_ROUTE, .vlan = vlan, .k1 = prefix,
				      .k2 = bits } };

	fcr_route_val(&r)->port = port;
	fcr_route_val(&r)->flags = mac ? 0 : FCR_ROUTE_REC_FPMA;
	if (mac)
		memcpy(fcr_route_val(&r)->mac, mac, 6);
	return r;
}

#endif /* FCR_KIND_ROUTE_H */
