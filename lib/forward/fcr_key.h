/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The kinds of object the tables hold, and a key that names any one of them
 * whatever its kind: replication marks deletions and remembers deleted
 * objects by it. Each kind says what its key holds (lib/kind/).
 */
#ifndef FCR_KEY_H
#define FCR_KEY_H

#include <stdint.h>

/* In the order a bulk resync sends them: a redirect after the bindings it
 * names, flows last (they are the many). */
enum fcr_kind_id {
	FCR_KIND_ROUTE,
	FCR_KIND_BINDING,
	FCR_KIND_SN,        /* a service node (fcr_sn.h): after the bindings it
			     * names, before the redirects placed on it */
	FCR_KIND_REDIRECT,
	FCR_KIND_FLOW,
	FCR_KIND_COUNT
};

/* Hashed whole: padding is zero. */
struct fcr_key {
	uint8_t kind;
	uint8_t zero;
	uint16_t vlan;
	uint32_t zero2;
	uint64_t k1;
	uint64_t k2;
};

#endif /* FCR_KEY_H */
