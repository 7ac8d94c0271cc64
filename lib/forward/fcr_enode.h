/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ENodes that keep alive: when each (VLAN, ENode MAC) last sent a FIP
 * keep-alive (FC-BB-5: an ENode every FKA_ADV_PERIOD, its VN_Ports less
 * often, both naming the ENode's MAC). An ENode is watched from its first
 * keep-alive on, so a replayed capture or a pre-FIP login, which send none,
 * is never timed out; one silent for 2.5 periods has gone (its host
 * crashed, its cable was pulled) and its learned bindings go with it, as
 * the FCF's own timer would end its virtual links. The tables lcore's only.
 */
#ifndef FCR_ENODE_H
#define FCR_ENODE_H

#include <stdint.h>

#include "fcr_binding.h"

struct rte_hash;

/* The key of an ENode, and of the ENode a binding logged in through:
 * its MAC in bits 0-47, the VLAN in 48-59; 0 for none. */
static inline uint64_t
fcr_enode_key(uint16_t vlan, const uint8_t mac[6])
{
	return fcr_vn_pack(mac, 0) | (uint64_t)(vlan & 0xFFF) << 48;
}

struct fcr_enode_table {
	struct rte_hash *by_key;   /* key -> slot */
	uint64_t *last;            /* [capacity] when it last kept alive */
	uint32_t capacity;
};

struct fcr_enode_table *fcr_enode_table_create(const char *name, uint32_t capacity,
					       int socket);
void fcr_enode_table_free(struct fcr_enode_table *et);

/* A keep-alive from key at time now: 0, or -ENOSPC (too many ENodes:
 * this one is not watched). */
int fcr_enode_alive(struct fcr_enode_table *et, uint64_t key, uint64_t now);

/* Forget and write to out[] (at most max) the ENodes silent since before
 * now - timeout; returns how many. */
unsigned int fcr_enode_expired(struct fcr_enode_table *et, uint64_t now,
			       uint64_t timeout, uint64_t *out, unsigned int max);

#endif /* FCR_ENODE_H */
