/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The sync protocol's wire format, version 3. Every datagram is one UDP
 * payload; all integers are big-endian unless marked varint (unsigned
 * LEB128: 7 bits per byte, low group first, high bit = more follows, at most
 * 10 bytes).
 *
 * Datagram
 *   off size field
 *    0   4   magic "FCRS"
 *    4   1   protocol version, 3 (2: boot ids from the clock, no
 *            handshake; 1: routes without their VLAN)
 *    5   1   type: 1 UPDATE, 2 ACK, 3 HELLO, 4 BULK_START, 5 BULK_END
 *    6   1   flags: bit 0 READY (the sender's own bulk resync is complete),
 *                   bit 1 WANT_BULK (the sender asks for a bulk resync)
 *    7   1   reserved, 0
 *    8   8   sender's boot id: 64 random bits at each start; a new one
 *            means the sender restarted (once proven, below)
 *   16   2   sender's node id (the low 16 bits of every version it makes)
 *   18   2   number of records
 *   20   4   seq: the sender's datagram number since its boot, from 1, on
 *            every datagram (replay protection)
 *   24   4   ack base: highest seq of an UPDATE/BULK datagram received from
 *            the addressee (0: none yet)
 *   28   8   ack bitmap: bit i set = seq (ack base - 1 - i) received too
 *   36   8   the addressee's boot id as the sender knows it (0: unknown),
 *            so acks meant for a previous life are ignored
 *   44   8   challenge: a random number the sender gives the addressee to
 *            echo (never 0)
 *   52   8   echo: the addressee's challenge, as the sender last received it
 *            (0: none yet)
 *   60   ... records
 *   end-32 32 authentication tag: HMAC-SHA-512-256 (libsodium crypto_auth)
 *            of every byte before it, keyed by the shared secret
 *
 * Restarts and replays. A receiver takes datagrams of one boot of each
 * peer, the one it has accepted; their sequence numbers pass a 64-wide
 * window. A datagram of any other boot (the peer restarted, the receiver
 * did, or it is a replay of a past life) is not read further unless its
 * echo is the challenge the receiver gives that peer now: only a sender
 * running now, which has received that challenge, can seal one. Then the
 * boot is accepted (the peer restarted: its state is reset, a bulk resync
 * follows) and the receiver draws a new challenge, so datagrams of the
 * boot it replaced, which echo an older one, are refused from then on.
 * Otherwise the receiver answers with a HELLO carrying its challenge. No
 * clock is read: a node restarted with its clock behind is accepted, and
 * a receiver restarted (a new challenge) refuses the datagrams made before.
 *
 * Record: 1-byte type, 1-byte body length, body. Each kind of object has
 * two types, its state and its deletion, and says what their bodies hold
 * (lib/kind/fcr_kind_<kind>.c): 1-2 flow, 3-4 binding, 5-6 route,
 * 7-8 redirect, 9-10 service node. Unknown types are skipped; records naming what no frame can
 * carry (a flow key with bits 60-63 set, a VLAN above 4095 but a route's
 * 0xFFFF for every VLAN, a prefix length outside 1..24) are refused.
 *
 * A version is (hybrid logical clock << 16) | node id of the change's
 * origin, the clock being milliseconds since 2024-01-01 UTC, never behind a
 * version the node has seen. A record is applied only if its version is
 * greater than the one held; one whose clock is more than 7 days ahead of
 * the receiver's wall clock is refused (it would pull every node's clock
 * with it); clocks that disagree by less only order changes by their
 * clocks.
 */
#ifndef FCR_SYNC_WIRE_H
#define FCR_SYNC_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include "fcr_rec.h"

#define FCR_SYNC_MAGIC "FCRS"
#define FCR_SYNC_VERSION 3
#define FCR_SYNC_HDR_LEN 60
#define FCR_SYNC_TAG_LEN 32
#define FCR_SYNC_KEY_LEN 32
#define FCR_SYNC_OVERHEAD (FCR_SYNC_HDR_LEN + FCR_SYNC_TAG_LEN)
#define FCR_SYNC_MAX_RECORD (2 + FCR_REC_MAX_BODY)

enum fcr_sync_type {
	FCR_SYNC_UPDATE = 1,
	FCR_SYNC_ACK = 2,
	FCR_SYNC_HELLO = 3,
	FCR_SYNC_BULK_START = 4,
	FCR_SYNC_BULK_END = 5,
};

#define FCR_SYNC_F_READY 0x01
#define FCR_SYNC_F_WANT_BULK 0x02

struct fcr_sync_hdr {
	uint8_t type;
	uint8_t flags;
	uint16_t node;
	uint16_t nb_records;
	uint64_t boot;
	uint32_t seq;
	uint32_t ack_base;
	uint64_t ack_bits;
	uint64_t peer_boot;
	uint64_t challenge;
	uint64_t echo;
};

/* Why a datagram was refused; each is a counter in `show sync stats`. */
enum fcr_sync_drop {
	FCR_SD_SHORT,      /* shorter than header + tag */
	FCR_SD_OVERSIZE,   /* longer than the path MTU setting */
	FCR_SD_MAGIC,      /* not ours */
	FCR_SD_VERSION,    /* another protocol version */
	FCR_SD_AUTH,       /* tag does not verify */
	FCR_SD_REPLAY,     /* seq already seen or too old; or a past boot's
			    * datagram made in the receiver's present life */
	FCR_SD_MALFORMED,  /* records run past the end, bad lengths */
	FCR_SD_UNKNOWN_PEER, /* authenticates, but from no configured peer */
	FCR_SD_UNPROVEN,   /* of a boot not accepted, without the challenge: a
			    * restart (answered with it) or an older replay */
	FCR_SD_COUNT
};

const char *fcr_sync_drop_name(enum fcr_sync_drop d);

/* Encoders return bytes written, 0 when it does not fit in `cap`. */
size_t fcr_sync_hdr_put(uint8_t *p, const struct fcr_sync_hdr *h);
size_t fcr_rec_put(uint8_t *p, size_t cap, const struct fcr_rec *r);

/* Append the tag over p[0..len); returns len + FCR_SYNC_TAG_LEN. */
size_t fcr_sync_seal(uint8_t *p, size_t len, const uint8_t key[FCR_SYNC_KEY_LEN]);

/*
 * Check a received datagram: size, magic, version, tag, then decode the
 * header. Returns -1 and *why on refusal. Records are then walked with
 * fcr_rec_next over [FCR_SYNC_HDR_LEN, len - FCR_SYNC_TAG_LEN).
 */
int fcr_sync_open(const uint8_t *p, size_t len, size_t max_len,
		  const uint8_t key[FCR_SYNC_KEY_LEN], struct fcr_sync_hdr *h,
		  enum fcr_sync_drop *why);

/* Decode the record at *off; 1 and advances, 0 at the end, -1 malformed.
 * Unknown record types are returned with type as read and no fields. */
int fcr_rec_next(const uint8_t *p, size_t end, size_t *off, struct fcr_rec *r);

#endif /* FCR_SYNC_WIRE_H */
