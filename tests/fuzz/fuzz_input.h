/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Inputs the fuzz targets share: valid frames and logins, their mutations
 * (bit flips, byte sets, truncation, extension, tags added and removed,
 * lengths that lie), and how a frame arrives (segments, a stripped tag).
 */
#ifndef FCR_FUZZ_INPUT_H
#define FCR_FUZZ_INPUT_H

#include <stdint.h>

#include "test_util.h"

#define FZ_CAP 4096 /* a page: every buffer fits in front of a guard page */
#define FZ_MAX_SEGS 6

uint64_t fz_rand_u64_interesting(struct tu_rng *r);

/* The WWPN a login names: from a small set, so logins pair up. */
uint64_t fz_rand_wwpn(struct tu_rng *r);

/* A payload length, often at the edges. */
uint16_t fz_rand_plen(struct tu_rng *r, uint16_t max);

/* The Ethernet header's length: 18 if tagged. */
uint32_t fz_l2_len(const uint8_t *b, uint32_t len);

/* Recompute the CRC of a frame that parses, so a mutation of the FC
 * header or payload reaches the code behind the CRC check. */
void fz_fix_crc(uint8_t *b, uint32_t len);

/* The mark on one FCoE frame in 8 that parse, told by its OX_ID: no draw
 * more, so each seed's inputs are otherwise the ones it always gave. */
void fz_maybe_mark(uint8_t *b, uint32_t len);

/* One mutation of a frame in b[0..*len), b of FZ_CAP bytes. */
void fz_mutate_once(struct tu_rng *r, uint8_t *b, uint32_t *len);

/* 0 to 5 mutations; a clean input now and then. */
void fz_mutate(struct tu_rng *r, uint8_t *b, uint32_t *len);

/* A valid login frame (FCoE ELS, FIP link service, FIP of random
 * descriptors) into b of FZ_CAP bytes; returns its length. */
uint32_t fz_base_login(struct tu_rng *r, uint8_t *b, int tagged, uint16_t vlan,
		       uint64_t wwpn, uint32_t fcid);

/* 1..FZ_MAX_SEGS segments of at least one byte: the cut points. */
unsigned int fz_random_cuts(struct tu_rng *r, uint32_t len, uint32_t *cut);

/*
 * How a frame arrives, in the bytes in front of it: its segments, and the
 * VLAN tag a NIC took off. Bytes, not a generator's seed, so a fuzzer
 * mutates them as it does the frame.
 */
struct fz_rx {
	uint8_t nsegs;                    /* 1..FZ_MAX_SEGS */
	uint8_t stripped;                 /* RTE_MBUF_F_RX_VLAN_STRIPPED */
	uint8_t untag;                    /* and the tag is gone from the bytes */
	uint16_t vlan_tci;
	uint16_t cut[FZ_MAX_SEGS - 1];    /* where segments 2.. start */
};

#define FZ_RX_LEN 14

void fz_rx_put(uint8_t *p, const struct fz_rx *rx);

/* The FZ_RX_LEN bytes at p for a frame of len bytes; -1 if no frame can
 * arrive so (more than max_segs segments, cuts out of order or outside). */
int fz_rx_get(const uint8_t *p, uint32_t len, unsigned int max_segs,
	      struct fz_rx *rx);

#endif /* FCR_FUZZ_INPUT_H */
