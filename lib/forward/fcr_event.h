/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What a worker tells the tables lcore, through its single-producer ring:
 * a flow's first frame, or a fabric login frame it holds until the tables lcore
 * has applied it. Fixed 64 bytes, so a ring of them is a flat array.
 */
#ifndef FCR_EVENT_H
#define FCR_EVENT_H

#include <stdint.h>
#include <string.h>

#include "fcr_binding.h"
#include "fcr_login.h"

/* Events each worker's ring holds: 65,536 (4 MB) is 13 ms of first frames
 * at 5 million a second, enough for the tables lcore's thread to be descheduled
 * for a few milliseconds without a loss. */
#define FCR_EVENT_RING_SIZE 65536

enum fcr_event_type {
	FCR_EV_FLOW_FIRST = 1, /* a frame found no flow entry */
	FCR_EV_LOGIN = 2,      /* FLOGI/FDISC/LOGO to the fabric, or its reply */
	FCR_EV_FLOW_MISSES = 3, /* more frames of a reported flow found no entry */
};

struct fcr_event {
	uint8_t type;
	uint8_t kind;       /* enum fcr_login_kind */
	uint8_t answers;    /* FIP replies: the request kind answered */
	uint8_t via_fip;
	uint8_t has_wwpn;
	uint8_t has_mac;
	uint16_t vlan;
	uint16_t ox_id;
	uint8_t worker;
	uint8_t port;       /* logins: the port the frame arrived on */
	union {
		uint32_t s_id;  /* LOGIN: an advertisement's FC-MAP (0: none) */
		uint32_t cmnds; /* FLOW_FIRST/FLOW_MISSES: FCP commands among
				 * its frames (exchanges begun) */
	};
	union {
		struct {
			union {
				uint32_t d_id;
				uint32_t ends;  /* FLOW_FIRST/FLOW_MISSES: exchanges ended */
			};
			uint32_t port_id;   /* LOGIN: VLANS: how many VLANs (fcr_event_vlan) */
		};
		uint64_t node;  /* LOGIN, a FLOGI or FDISC request: the node name of the
				 * port logging in, where its D_ID (FFFFFE) and N_Port
				 * ID would be (neither is read of a request) */
	};
	uint64_t wwpn;
	union {
		uint64_t flow_key;  /* FLOW_FIRST/FLOW_MISSES */
		uint64_t name;      /* LOGIN: an advertisement's FCF name */
		uint64_t fcf;       /* LOGIN, but ADV and VLANS: the FCF's MAC
				     * (fcr_vn_pack), the destination of a
				     * request or keep-alive, the source of a
				     * reply */
	};
	uint8_t mac[6];     /* FIP MAC descriptor */
	uint8_t enode[6];   /* requester's MAC: source of a request, destination of a reply */
	union {
		uint32_t count; /* FLOW_FIRST/FLOW_MISSES: frames it stands for */
		uint32_t seq;   /* LOGIN: its number among its worker's logins */
	};
	uint64_t tsc;       /* when the worker saw it */
};

_Static_assert(sizeof(struct fcr_event) == 64, "fcr_event is one cache line");

static inline void
fcr_event_login(struct fcr_event *ev, const struct fcr_login *l)
{
	memset(ev, 0, sizeof(*ev));
	ev->type = FCR_EV_LOGIN;
	ev->kind = l->kind;
	ev->answers = l->answers;
	ev->via_fip = l->via_fip;
	ev->has_wwpn = l->has_wwpn;
	ev->has_mac = l->has_mac;
	ev->vlan = l->vlan;
	ev->ox_id = l->ox_id;
	ev->s_id = l->s_id;
	ev->d_id = l->d_id;
	ev->port_id = l->port_id;
	ev->wwpn = l->wwpn;
	memcpy(ev->mac, l->mac, 6);
	if (l->kind == FCR_LOGIN_ADV) {
		ev->name = l->wwnn;
		ev->s_id = l->fc_map;
	}
	/* a fabric login request: the node name of the port logging in */
	if ((l->kind == FCR_LOGIN_FLOGI || l->kind == FCR_LOGIN_FDISC) &&
	    l->answers == FCR_LOGIN_NONE)
		ev->node = l->wwnn;
	if (l->kind == FCR_LOGIN_VLANS) {
		/* the VLANs, 16 bits each, where a WWPN and a name would be */
		unsigned int i;

		ev->port_id = l->nb_vlans;
		ev->wwpn = ev->name = 0;
		for (i = 0; i < l->nb_vlans; i++)
			*(i < 4 ? &ev->wwpn : &ev->name) |=
				(uint64_t)l->vlans[i] << (16 * (i % 4));
	}
	if (l->kind == FCR_LOGIN_ACC || l->kind == FCR_LOGIN_RJT)
		memcpy(ev->enode, l->eth_dst, 6);
	else
		memcpy(ev->enode, l->eth_src, 6);
	if (l->kind != FCR_LOGIN_ADV && l->kind != FCR_LOGIN_VLANS)
		ev->fcf = fcr_vn_pack(l->kind == FCR_LOGIN_ACC || l->kind == FCR_LOGIN_RJT ?
				      l->eth_src : l->eth_dst, 0);
}

/* The i-th VLAN (< port_id) of a VLANS event. */
static inline uint16_t
fcr_event_vlan(const struct fcr_event *ev, unsigned int i)
{
	return (uint16_t)((i < 4 ? ev->wwpn : ev->name) >> (16 * (i % 4))) & 0x0FFF;
}

_Static_assert(FCR_VLANS_MAX <= 8, "a VLANS event carries 8 VLANs");

static inline void
fcr_event_flow(struct fcr_event *ev, uint64_t key)
{
	memset(ev, 0, sizeof(*ev));
	ev->type = FCR_EV_FLOW_FIRST;
	ev->flow_key = key;
}

#endif /* FCR_EVENT_H */
