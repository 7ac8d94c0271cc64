/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Routes, as a kind of object (fcr_kind.h). On the wire:
 *   5 ROUTE      VLAN u16 (0xFFFF: every VLAN), prefix u24, bits u8,
 *                port u16, flags u8 (bit 0 fpma), next-hop MAC 6 bytes,
 *                version varint
 *   6 ROUTE_DEL  VLAN u16, prefix u24, bits u8, version varint
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "fcr_fcoe.h"
#include "fcr_kind.h"
#include "fcr_kind_route.h"
#include "fcr_tables.h"
#include "fcr_text.h"

extern const struct fcr_kind fcr_kind_route;

/* The forms of its commands (fcr_cmd_def.form): */
#define ROUTE_VLAN 0x01 /* of one VLAN: its <vlan> first */
#define ROUTE_MAC 0x02  /* to a next-hop MAC, not to the VN_Ports (fpma) */

static const struct fcr_cmd_def cmds[] = {
	FCR_KIND_ROW(fcr_kind_route, FCR_OP_ADD, ROUTE_MAC, "route add <prefix> port <port> mac <mac>", "route an FCID prefix to a next-hop MAC, in every VLAN", FCR_CMD_CONFIG | FCR_CMD_CHANGES),
	FCR_KIND_ROW(fcr_kind_route, FCR_OP_ADD, 0, "route add <prefix> port <port> fpma", "route an FCID prefix to its VN_Ports (MAC = FC-MAP || D_ID), in every VLAN", FCR_CMD_CONFIG | FCR_CMD_CHANGES),
	FCR_KIND_ROW(fcr_kind_route, FCR_OP_ADD, ROUTE_VLAN | ROUTE_MAC, "route add vlan <vlan> <prefix> port <port> mac <mac>", "route an FCID prefix in one VLAN (before the routes for every VLAN)", FCR_CMD_CONFIG | FCR_CMD_CHANGES),
	FCR_KIND_ROW(fcr_kind_route, FCR_OP_ADD, ROUTE_VLAN, "route add vlan <vlan> <prefix> port <port> fpma", "route an FCID prefix in one VLAN to its VN_Ports", FCR_CMD_CONFIG | FCR_CMD_CHANGES),
	FCR_KIND_ROW(fcr_kind_route, FCR_OP_DEL, 0, "route del <prefix>", "remove a route for every VLAN", FCR_CMD_CHANGES),
	FCR_KIND_ROW(fcr_kind_route, FCR_OP_DEL, ROUTE_VLAN, "route del vlan <vlan> <prefix>", "remove a route of one VLAN", FCR_CMD_CHANGES),
	FCR_KIND_ROW(fcr_kind_route, FCR_OP_LIST, 0, "route list", "list the routes", 0),
};

static int
key_valid(const struct fcr_key *k)
{
	return (fcr_key_vlan_valid(k) || k->vlan == FCR_VLAN_ANY) && k->k2 >= 1 && k->k2 <= 24;
}

static size_t
put(uint8_t *b, const struct fcr_rec *r)
{
	const struct fcr_route_val *v = (const struct fcr_route_val *)r->val.b;
	size_t n = 6;

	fcr_put_be16(b, r->key.vlan);
	fcr_put_be24(b + 2, (uint32_t)r->key.k1);
	b[5] = (uint8_t)r->key.k2;
	if (r->type == FCR_REC_ROUTE) {
		fcr_put_be16(b + 6, v->port);
		b[8] = v->flags;
		memcpy(b + 9, v->mac, 6);
		n = 15;
	}
	return n + fcr_varint_put(b + n, r->version);
}

static int
get(const uint8_t *p, size_t o, size_t end, struct fcr_rec *r)
{
	struct fcr_route_val *v = fcr_route_val(r);

	FCR_BODY_NEED(o, 6, end);
	r->key.kind = FCR_KIND_ROUTE;
	r->key.vlan = fcr_get_be16(p + o);
	r->key.k1 = fcr_get_be24(p + o + 2);
	r->key.k2 = p[o + 5];
	o += 6;
	if (r->type == FCR_REC_ROUTE) {
		FCR_BODY_NEED(o, 9, end);
		v->port = fcr_get_be16(p + o);
		v->flags = p[o + 2];
		memcpy(v->mac, p + o + 3, 6);
		o += 9;
	}
	FCR_BODY_VARINT(p, o, end, r->version);
	return 0;
}

/* Routes are few and their places move as others go: always walked whole. */
static uint32_t
slots(const struct fcr_tables *t)
{
	return t->routes->nb_routes;
}

static int
slot(struct fcr_tables *t, uint32_t idx, struct fcr_sync_meta *m)
{
	struct fcr_route *ro = &t->routes->routes[idx];

	m->version = &ro->version;
	m->sflags = &ro->sflags;
	return 1;
}

static void
rec(struct fcr_tables *t, uint32_t idx, const struct fcr_rec_ctx *c, struct fcr_rec *r)
{
	const struct fcr_route_table *rt = t->routes;
	const struct fcr_route *ro = &rt->routes[idx];
	const struct fcr_nexthop *h = &rt->nexthop[ro->nh];

	(void)c;
	*r = fcr_route_rec(ro->vlan, ro->prefix, ro->bits, h->port,
			   (h->flags & FCR_NH_FPMA) ? NULL : h->mac, ro->version);
}

static int
find(struct fcr_tables *t, const struct fcr_key *k)
{
	return fcr_route_find(t->routes, k->vlan, (uint32_t)k->k1, (unsigned int)k->k2);
}

static int
check(const struct fcr_tables *t, const struct fcr_rec *r, char why[FCR_CMD_MSG_LEN])
{
	const struct fcr_route_val *v = (const struct fcr_route_val *)r->val.b;

	if (r->type != FCR_REC_ROUTE)
		return 0;
	if (t->nb_ports != 0 && v->port >= t->nb_ports) {
		snprintf(why, FCR_CMD_MSG_LEN, "port %u does not exist (%u ports)", v->port,
			 t->nb_ports);
		return -1;
	}
	if (fcr_route_slot(t->routes, r->key.vlan) < 0) {
		snprintf(why, FCR_CMD_MSG_LEN, "vlan %u: %u VLANs have routes of their own, "
			 "the most there can be", r->key.vlan, FCR_ROUTE_SLOTS - 1);
		return -1;
	}
	return 0;
}

static int
set(struct fcr_tables *t, const struct fcr_rec *r)
{
	const struct fcr_route_val *v = (const struct fcr_route_val *)r->val.b;

	if (r->type == FCR_REC_ROUTE_DEL)
		return fcr_route_del(t->routes, r->key.vlan, (uint32_t)r->key.k1,
				     (unsigned int)r->key.k2);
	return fcr_route_add(t->routes, r->key.vlan, (uint32_t)r->key.k1, (unsigned int)r->key.k2,
			     v->port, (v->flags & FCR_ROUTE_REC_FPMA) ? NULL : v->mac);
}

/* add: [<vlan>] <prefix> <port> [<mac>]; del: [<vlan>] <prefix> */
static void
cmd_rec(const struct fcr_cmd *c, struct fcr_rec *r)
{
	int in_vlan = (c->def->form & ROUTE_VLAN) != 0;
	const union fcr_cmd_arg *a = c->arg + in_vlan;

	*r = fcr_route_rec(in_vlan ? (uint16_t)c->arg[0].u32 : FCR_VLAN_ANY,
			   a[0].prefix.fcid & (0xFFFFFFu << (24 - a[0].prefix.bits) & 0xFFFFFF),
			   a[0].prefix.bits, (uint16_t)a[1].u32,
			   (c->def->form & ROUTE_MAC) ? a[2].mac : NULL, 0);
	if (c->def->op == FCR_OP_DEL)
		r->type = FCR_REC_ROUTE_DEL;
}

static int
fields(struct fcr_tables *t, uint32_t idx, struct fcr_field *f, int *config)
{
	const struct fcr_route_table *rt = t->routes;
	const struct fcr_route *ro = &rt->routes[idx];
	const struct fcr_nexthop *h = &rt->nexthop[ro->nh];
	char p[FCR_FCID_STRLEN];

	*config = 1;
	/* listed "vlan any"; a route for every VLAN is saved without it */
	if (ro->vlan == FCR_VLAN_ANY)
		f[0] = (struct fcr_field){ .name = "vlan", .value = "any" };
	else
		f[0] = (struct fcr_field){ .name = "vlan", .num = ro->vlan,
					   .flags = FCR_FIELD_CONFIG | FCR_FIELD_NUM };
	f[1] = (struct fcr_field){ .name = "prefix", .flags = FCR_FIELD_BARE | FCR_FIELD_CONFIG };
	snprintf(f[1].value, sizeof(f[1].value), "%s/%u", fcr_fcid_format(ro->prefix, p),
		 ro->bits);
	f[2] = (struct fcr_field){ .name = "port", .flags = FCR_FIELD_CONFIG | FCR_FIELD_NUM,
				   .num = h->port };
	if (h->flags & FCR_NH_FPMA) {
		f[3] = (struct fcr_field){ .name = "fpma", .value = "fpma",
					   .flags = FCR_FIELD_BARE | FCR_FIELD_CONFIG };
	} else {
		f[3] = (struct fcr_field){ .name = "mac", .flags = FCR_FIELD_CONFIG };
		fcr_mac_format(h->mac, f[3].value);
	}
	return 4;
}

static int
counts(const struct fcr_tables *t, struct fcr_field *f)
{
	f[0] = (struct fcr_field){ .name = "routes", .flags = FCR_FIELD_NUM,
				   .num = t->routes->nb_routes };
	return 1;
}

static enum fcr_apply_result
apply(struct fcr_tables *t, const struct fcr_rec *r, const struct fcr_rec_ctx *c)
{
	(void)c;
	return fcr_kind_apply_config(&fcr_kind_route, t, r);
}

const struct fcr_kind fcr_kind_route = {
	.name = "route",
	.rec_type = FCR_REC_ROUTE,
	.key_valid = key_valid,
	.put = put,
	.get = get,
	.slots = slots,
	.slot = slot,
	.rec = rec,
	.find = find,
	.apply = apply,
	.cmds = cmds,
	.nb_cmds = sizeof(cmds) / sizeof(cmds[0]),
	.cmd_rec = cmd_rec,
	.check = check,
	.set = set,
	.fields = fields,
	.counts = counts,
};
