/* SPDX-License-Identifier: BSD-3-Clause */
/* A redirect as replication carries it (lib/kind/fcr_kind_redirect.c). */
#ifndef FCR_KIND_REDIRECT_H
#define FCR_KIND_REDIRECT_H

#include <stdint.h>

#include "fcr_rec.h"

/* The form of `redirect add ... when idle` (its row's form): the command
 * line waits for the pair to have no open exchange, then adds. */
#define FCR_REDIRECT_WHEN_IDLE 0x01
/* `redirect del ... paths`: every redirect of its multipath group */
#define FCR_REDIRECT_PATHS 0x02
/* `redirect add ... cluster <word>`: placed on a service node of the
 * cluster (fcr_sn.h); `... restartable`: and moved when that one fails */
#define FCR_REDIRECT_CLUSTER 0x04
#define FCR_REDIRECT_RESTARTABLE 0x08
/* ... at most this long (seconds); then nothing is added. */
#define FCR_REDIRECT_IDLE_WAIT_S 30

#define FCR_REC_REDIRECT 7
#define FCR_REC_REDIRECT_DEL 8

/* key: vlan, k1 host WWPN, k2 target WWPN. A redirect of a cluster: its
 * VI and VT those of the node it is on (0 in a command: to be placed). */
struct fcr_redirect_val {
	uint64_t vi;
	uint64_t vt;
	uint64_t cluster;      /* 0: none */
	uint8_t restartable;
};

static inline struct fcr_redirect_val *
fcr_redirect_val(struct fcr_rec *r)
{
	return (struct fcr_redirect_val *)r->val.b;
}

static inline struct fcr_rec
fcr_redirect_rec(uint16_t vlan, uint64_t host, uint64_t target, uint64_t vi,
		 uint64_t vt, uint64_t version)
{
	struct fcr_rec r = { .type = FCR_REC_REDIRECT, .version = version,
			     .key = { .kind = FCR_KIND_REDIRECT, .vlan = vlan,
				      .k1 = host, .k2 = target } };

	fcr_redirect_val(&r)->vi = vi;
	fcr_redirect_val(&r)->vt = vt;
	return r;
}

#endif /* FCR_KIND_REDIRECT_H */
