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

/* Per ENode, by slot. */
struct fcr_enode {
	uint64_t last;      /* when it last kept alive or logged in */
	uint64_t first;     /* when it was first seen */
	uint64_t told;      /* when it was last made to log in again; 0: never */
	uint64_t fcf;       /* the MAC of the FCF it keeps alive with (packed);
			     * 0: not known */
	uint8_t logged_in;  /* a fabric login through it was seen (or restored) */
	uint8_t watched;    /* it kept alive: timed out when silent */
	uint8_t port;       /* the edge port it was last seen on */
	uint8_t resetting;  /* told to log in again, not heard from since */
};

/* An ENode told to log in again (a cutover's or a relogin's Clear Virtual
 * Link) is silent while it resets: Linux runs FIP discovery, waits 2 s to
 * choose its FCF, then logs in, longer than 2.5 periods of a short
 * FKA_ADV_PERIOD. Its keep-alive timeout is this much longer until it logs
 * in or keeps alive again; the fabric's own Clear Virtual Links still
 * unbind it at once. The cutover's own wait for the host (20 s). */
#define FCR_ENODE_RESET_GRACE_MS 20000

struct fcr_enode_table {
	struct rte_hash *by_key;   /* key -> slot */
	struct fcr_enode *e;       /* [capacity] */
	uint32_t capacity;
};

struct fcr_enode_table *fcr_enode_table_create(const char *name, uint32_t capacity,
					       int socket);
void fcr_enode_table_free(struct fcr_enode_table *et);

/* A keep-alive from key at time now: its slot, or -ENOSPC (too many
 * ENodes: this one is not watched). */
int fcr_enode_alive(struct fcr_enode_table *et, uint64_t key, uint64_t now);

/* A keep-alive from key on edge port `port` to the FCF of MAC fcf (packed):
 * as fcr_enode_alive, remembering both. */
int fcr_enode_seen(struct fcr_enode_table *et, uint64_t key, uint64_t now,
		   uint64_t fcf, unsigned int port);

/* The fabric accepted a login through key, asked on edge port `port`
 * (FCR_VN_ANY_PORT: not known), at time now, from the FCF of MAC fcf (0:
 * not known): it is an ENode the fabric knows logged in, and
 * the keep-alive clock of one watched starts again (an ENode is silent
 * while it logs in again, a Clear Virtual Link's reset); one not watched
 * stays so until it keeps alive. Its slot, or -ENOSPC. */
int fcr_enode_logged_in(struct fcr_enode_table *et, uint64_t key, uint64_t now,
			uint64_t fcf, unsigned int port);

/* key asks to log in (a FIP FLOGI or FDISC) at now: it is given a wait
 * more (fcr_enode_needs_relogin counts from now), not watched for it. */
void fcr_enode_asking(struct fcr_enode_table *et, uint64_t key, uint64_t now);

/* An ENode's record, or NULL. */
const struct fcr_enode *fcr_enode_find(const struct fcr_enode_table *et, uint64_t key);

/*
 * Should the ENode in `slot` be made to log in again now? Yes when it has
 * kept alive for at least `period` ticks with no login seen through it
 * (it logged in before fcredirect knew: a first start, a lost or refused
 * state file, an insertion into a live path), its FCF is known, and it was
 * not told within the last two periods. Yes marks it told at now.
 */
int fcr_enode_needs_relogin(struct fcr_enode_table *et, int slot, uint64_t now,
			    uint64_t period);

/* Mark the ENode in slot told at now (an operator's `enode relogin`);
 * resetting till it logs in or keeps alive. */
void fcr_enode_told(struct fcr_enode_table *et, int slot, uint64_t now);

/* The ENode of key was told to log in again by a cutover: resetting till
 * it logs in or keeps alive (no record: nothing). */
void fcr_enode_resetting(struct fcr_enode_table *et, uint64_t key);

/* Forget and write to out[] (at most max) the ENodes silent since before
 * now - timeout (now - timeout - grace for one resetting); returns how
 * many. */
unsigned int fcr_enode_expired(struct fcr_enode_table *et, uint64_t now,
			       uint64_t timeout, uint64_t grace, uint64_t *out,
			       unsigned int max);

#endif /* FCR_ENODE_H */
