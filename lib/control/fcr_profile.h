/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Port profiles (the .conf files in pmd-config/): how a kind of port is brought up for
 * FCoE. One "key = value" per line, '#' starts a comment, ${NAME} takes an
 * environment variable. Keys:
 *
 *   eal = <EAL arguments>        appended to the EAL command line (repeatable)
 *   rxq = <n>                    RX queues per port (1..64)
 *   rxd = <n>, txd = <n>         descriptors per queue (32..16384)
 *   mtu = <n>                    1500..9600; FCoE needs 2500 (baby jumbo)
 *   burst = <n>                  1..64
 *   config = (p,q,l),...         the lcore map, as --config
 *   distributor = (p,q,l),...    distributor lcores, as --distributor
 *   offloads = none | vlan_strip (the NIC removes the tag; the VLAN comes
 *                                from the mbuf)
 *   fcoe_steering = none | rte_flow   rte_flow: install rules sending
 *                                EtherType 0x8906 to fcoe_queues and 0x8914
 *                                (FIP) to fip_queue
 *   fcoe_queues = <q>[,<q>...]   RSS over these queues for FCoE (default all)
 *   fip_queue = <q>              (default 0)
 *   lossless_priority = <0..7>   the FCoE class (PFC/DCB are set on the switch
 *                                and NIC firmware; recorded for `show config`)
 *   description = <text>
 *
 * An unknown key or a bad value is refused with file:line.
 */
#ifndef FCR_PROFILE_H
#define FCR_PROFILE_H

#include <stdint.h>

#define FCR_PROFILE_MAX_EAL 32
#define FCR_PROFILE_MAX_QUEUES 64

struct fcr_profile {
	char name[64];
	char description[160];
	int nb_eal;
	char *eal[FCR_PROFILE_MAX_EAL];     /* malloc'd words */
	uint16_t rxq;                       /* 0: not set */
	uint16_t rxd;
	uint16_t txd;
	uint16_t mtu;
	uint16_t burst;
	char config[512];                   /* "" when not set */
	char distributor[512];              /* "" when not set */
	int vlan_strip;
	int steering;                       /* 1: rte_flow */
	uint16_t nb_fcoe_queues;
	uint16_t fcoe_queues[FCR_PROFILE_MAX_QUEUES];
	uint16_t fip_queue;
	int lossless_priority;              /* -1: not set */
};

/*
 * Load `path`. 0, or -1 with `err` (at least 256 bytes) holding
 * "file:line: what is wrong".
 */
int fcr_profile_load(const char *path, struct fcr_profile *p, char *err,
		     unsigned int err_len);
void fcr_profile_free(struct fcr_profile *p);

#endif /* FCR_PROFILE_H */
