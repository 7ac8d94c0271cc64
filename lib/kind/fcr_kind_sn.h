/* SPDX-License-Identifier: BSD-3-Clause */
/* A service node as replication carries it (lib/kind/fcr_kind_sn.c). */
#ifndef FCR_KIND_SN_H
#define FCR_KIND_SN_H

#include <stdint.h>

#include "fcr_rec.h"

#define FCR_REC_SN 9
#define FCR_REC_SN_DEL 10

/* key: vlan, k1 cluster (fcr_cluster_parse), k2 VI WWPN; val u64[0] VT WWPN */
static inline struct fcr_rec
fcr_sn_rec(uint16_t vlan, uint64_t cluster, uint64_t vi, uint64_t vt, uint64_t version)
{
	struct fcr_rec r = { .type = FCR_REC_SN, .version = version,
			     .key = { .kind = FCR_KIND_SN, .vlan = vlan, .k1 = cluster,
				      .k2 = vi } };

	r.val.u64[0] = vt;
	return r;
}

#endif /* FCR_KIND_SN_H */
