/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The object record: one object of the tables (its key), its version and,
 * unless it is a deletion, its state, laid out by its kind (lib/kind/). A
 * command, the configuration store and a peer's datagram all arrive as
 * records; replication carries each as a type, a length and a body of at
 * most FCR_REC_MAX_BODY bytes (lib/sync/fcr_sync_wire.h), the kinds writing
 * and reading the body with the varint helpers below.
 */
#ifndef FCR_REC_H
#define FCR_REC_H

#include <stddef.h>
#include <stdint.h>

#include "fcr_key.h"

/* A record's body: its length is one byte. */
#define FCR_REC_MAX_BODY 255

/* One decoded record: which object (its key), its version and, unless it
 * is a deletion, its state, laid out by its kind (lib/kind/). */
struct fcr_rec {
	uint8_t type;
	uint64_t version;
	struct fcr_key key;
	union {
		uint64_t u64[5];
		uint8_t b[40];
	} val;
};

/* Varints: unsigned LEB128, 7 bits per byte, low group first, high bit =
 * more follows, at most 10 bytes. put returns the bytes written; get reads
 * p[*off..len), advances *off and returns 0, or -1 when it runs past len. */
size_t fcr_varint_put(uint8_t *p, uint64_t v);
int fcr_varint_get(const uint8_t *p, size_t len, size_t *off, uint64_t *v);

#endif /* FCR_REC_H */
