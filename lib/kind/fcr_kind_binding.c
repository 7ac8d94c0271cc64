/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Bindings, as a kind of object (fcr_kind.h). On the wire:
 *   3 BINDING      VLAN u16, WWPN u64, FCID u24, origin u8 (1 static,
 *                  2 learned), version varint; a learned one then where
 *                  it logged in: port u8, VN_Port MAC 6 bytes, ENode MAC
 *                  6 bytes (zero: none), the MAC of the FCF that accepted
 *                  it 6 bytes (zero: not known), its node name u64 (0: not
 *                  known). A node of an older version skips those 27
 *                  bytes, or the last ones it does not know (a record's
 *                  body length covers them).
 *   4 BINDING_DEL  VLAN u16, WWPN u64, version varint
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "fcr_enode.h"
#include "fcr_fcoe.h"
#include "fcr_kind.h"
#include "fcr_kind_binding.h"
#include "fcr_tables.h"
#include "fcr_text.h"

extern const struct fcr_kind fcr_kind_binding;

static const struct fcr_cmd_def cmds[] = {
	FCR_KIND_ROW(fcr_kind_binding, FCR_OP_ADD, 0, "binding add vlan <vlan> wwpn <wwpn> fcid <fcid>", "bind a port name to an FCID (static)", FCR_CMD_CONFIG | FCR_CMD_CHANGES),
	FCR_KIND_ROW(fcr_kind_binding, FCR_OP_DEL, 0, "binding del vlan <vlan> wwpn <wwpn>", "remove a binding", FCR_CMD_CHANGES),
	FCR_KIND_ROW(fcr_kind_binding, FCR_OP_LIST, 0, "binding list", "list bound port names (static or learned)", 0),
};

static size_t
put(uint8_t *b, const struct fcr_rec *r)
{
	const struct fcr_binding_val *v = (const struct fcr_binding_val *)r->val.b;
	size_t n = 10;

	fcr_put_be16(b, r->key.vlan);
	fcr_put_be64(b + 2, r->key.k1);
	if (r->type == FCR_REC_BINDING) {
		fcr_put_be24(b + n, v->fcid);
		b[n + 3] = v->origin;
		n += 4;
	}
	n += fcr_varint_put(b + n, r->version);
	if (r->type == FCR_REC_BINDING && v->at) {
		b[n] = v->port;
		memcpy(b + n + 1, v->mac, 6);
		memcpy(b + n + 7, v->enode, 6);
		memcpy(b + n + 13, v->fcf, 6);
		fcr_put_be64(b + n + 19, v->wwnn);
		n += 27;
	}
	return n;
}

static int
get(const uint8_t *p, size_t o, size_t end, struct fcr_rec *r)
{
	struct fcr_binding_val *v = fcr_binding_val(r);

	FCR_BODY_NEED(o, 10, end);
	r->key.kind = FCR_KIND_BINDING;
	r->key.vlan = fcr_get_be16(p + o);
	r->key.k1 = fcr_get_be64(p + o + 2);
	o += 10;
	if (r->type == FCR_REC_BINDING) {
		FCR_BODY_NEED(o, 4, end);
		v->fcid = fcr_get_be24(p + o);
		v->origin = p[o + 3];
		o += 4;
	}
	FCR_BODY_VARINT(p, o, end, r->version);
	if (r->type == FCR_REC_BINDING && end - o >= 13) {
		v->at = 1;
		v->port = p[o];
		memcpy(v->mac, p + o + 1, 6);
		memcpy(v->enode, p + o + 7, 6);
		if (end - o >= 19)
			memcpy(v->fcf, p + o + 13, 6);
		if (end - o >= 27)
			v->wwnn = fcr_get_be64(p + o + 19);
	}
	return 0;
}

static uint32_t
slots(const struct fcr_tables *t)
{
	return t->bindings->capacity;
}

/* A slot is a bound binding when it has an FCID (an entry a redirect
 * mentions may have none yet). */
static int
slot(struct fcr_tables *t, uint32_t idx, struct fcr_sync_meta *m)
{
	struct fcr_binding *n = &t->bindings->entry[idx];

	m->version = &n->version;
	m->sflags = &n->sflags;
	return n->in_use && n->fcid != FCR_FCID_NONE;
}

static void
rec(struct fcr_tables *t, uint32_t idx, const struct fcr_rec_ctx *c, struct fcr_rec *r)
{
	const struct fcr_binding *n = &t->bindings->entry[idx];

	(void)c;
	*r = fcr_binding_rec(n->vlan, n->wwpn, n->fcid, n->origin, n->version);
	/* where a login here came from */
	if (fcr_binding_learned_here(n)) {
		struct fcr_binding_val *v = fcr_binding_val(r);

		v->at = 1;
		v->port = (uint8_t)(n->vn >> 48);
		fcr_vn_mac(n->vn, v->mac);
		fcr_vn_mac(n->enode, v->enode);
		fcr_vn_mac(fcr_tables_vn_fcf(t, n->vn), v->fcf);
		v->wwnn = n->wwnn;
	}
}

static int
find(struct fcr_tables *t, const struct fcr_key *k)
{
	uint32_t n = fcr_binding_get(t->bindings, k->vlan, k->k1, 0);

	if (n == FCR_BINDING_NONE || t->bindings->entry[n].fcid == FCR_FCID_NONE)
		return -1;
	return (int)n;
}

static int
check(const struct fcr_tables *t, const struct fcr_rec *r, char why[FCR_CMD_MSG_LEN])
{
	(void)t;
	(void)r;
	(void)why;
	return 0;
}

/* A binding a command or a peer makes: static, or learned by a peer (then
 * its frames are allowed from its FPMA MAC on any port; from the port and
 * MAC it logged in with when the peers are cabled as this node is). */
static int
set_at(struct fcr_tables *t, const struct fcr_rec *r, uint64_t now)
{
	const struct fcr_binding_val *v = (const struct fcr_binding_val *)r->val.b;
	int rc;

	if (r->type == FCR_REC_BINDING_DEL)
		return fcr_tables_binding_del(t, r->key.vlan, r->key.k1);
	if (v->origin == FCR_BIND_LEARNED && v->at && t->peers_same_ports) {
		uint8_t none[6] = { 0 };
		uint64_t enode = memcmp(v->enode, none, 6) == 0 ? 0 :
				 fcr_enode_key(r->key.vlan, v->enode);
		uint64_t vn = fcr_vn_pack(v->mac, v->port);
		/* the peer's FCF by its MAC, in this node's registry: its slot
		 * when its advertisements reached here too, else one given now
		 * (a standby whose links are down), its name known once it
		 * advertises here */
		int s = memcmp(v->fcf, none, 6) == 0 ? -1 :
			fcr_tables_fcf_register(t, r->key.vlan, fcr_vn_pack(v->fcf, 0), 0);

		if (s >= 0)
			vn |= (uint64_t)(s + 1) << FCR_VN_FCF_SHIFT;
		rc = fcr_tables_binding_twin(t, r->key.vlan, r->key.k1, v->fcid, vn, enode, now);
	} else {
		rc = fcr_tables_binding_add(t, r->key.vlan, r->key.k1, v->fcid,
					    v->origin == FCR_BIND_LEARNED ? FCR_BIND_LEARNED
									  : FCR_BIND_STATIC);
	}
	/* the peer's word for its node name: not sent on again */
	if (rc == 0 && v->at)
		fcr_tables_binding_node(t, r->key.vlan, r->key.k1, v->wwnn, 0);
	return rc;
}

static int
set(struct fcr_tables *t, const struct fcr_rec *r)
{
	return set_at(t, r, 0);
}

static int
displaces(struct fcr_tables *t, const struct fcr_rec *r, struct fcr_rec *other)
{
	const struct fcr_binding_val *v = (const struct fcr_binding_val *)r->val.b;
	uint32_t n;

	if (r->type == FCR_REC_BINDING_DEL)
		return 0;
	n = fcr_binding_by_fcid(t->bindings, r->key.vlan, v->fcid);
	if (n == FCR_BINDING_NONE || t->bindings->entry[n].wwpn == r->key.k1)
		return 0;
	rec(t, n, NULL, other);
	return 1;
}

/* add: <vlan> <wwpn> <fcid>; del: <vlan> <wwpn> */
static void
cmd_rec(const struct fcr_cmd *c, struct fcr_rec *r)
{
	const union fcr_cmd_arg *a = c->arg;

	*r = fcr_binding_rec((uint16_t)a[0].u32, a[1].wwpn, a[2].fcid, FCR_BIND_STATIC, 0);
	if (c->def->op == FCR_OP_DEL)
		r->type = FCR_REC_BINDING_DEL;
}

static int
fields(struct fcr_tables *t, uint32_t idx, struct fcr_field *f, int *config)
{
	const struct fcr_binding *n = &t->bindings->entry[idx];

	*config = n->origin == FCR_BIND_STATIC;
	f[0] = (struct fcr_field){ .name = "vlan", .flags = FCR_FIELD_CONFIG | FCR_FIELD_NUM,
				   .num = n->vlan };
	f[1] = (struct fcr_field){ .name = "wwpn", .flags = FCR_FIELD_CONFIG };
	fcr_wwpn_format(n->wwpn, f[1].value);
	f[2] = (struct fcr_field){ .name = "fcid", .flags = FCR_FIELD_CONFIG };
	fcr_fcid_format(n->fcid, f[2].value);
	f[3] = (struct fcr_field){ .name = "origin", .flags = FCR_FIELD_BARE };
	snprintf(f[3].value, sizeof(f[3].value), "%s", fcr_bind_origin_name(n->origin));
	return 4;
}

static int
counts(const struct fcr_tables *t, struct fcr_field *f)
{
	f[0] = (struct fcr_field){ .name = "bindings", .flags = FCR_FIELD_NUM,
				   .num = t->bindings->nb_bound };
	return 1;
}

static enum fcr_apply_result
apply(struct fcr_tables *t, const struct fcr_rec *r, const struct fcr_rec_ctx *c)
{
	int live = r->type == FCR_REC_BINDING, rc;
	struct fcr_sync_meta m;
	uint32_t n;

	n = fcr_binding_get(t->bindings, r->key.vlan, r->key.k1, live);
	if (n == FCR_BINDING_NONE)
		return live ? FCR_APPLY_REFUSED : FCR_APPLY_DONE;
	slot(t, n, &m);
	if (fcr_rec_stale(&m, r->version)) {
		fcr_binding_maybe_free(t->bindings, n);
		return FCR_APPLY_STALE;
	}
	rc = set_at(t, r, c != NULL ? c->now_tsc : 0);
	n = fcr_binding_get(t->bindings, r->key.vlan, r->key.k1, 0);
	if (n != FCR_BINDING_NONE) {
		t->bindings->entry[n].version = r->version;
		t->bindings->entry[n].sflags |= FCR_SF_KNOWN;
		t->bindings->entry[n].sflags &= (uint8_t)~FCR_SF_DIRTY;
	}
	return rc < 0 && live ? FCR_APPLY_REFUSED : FCR_APPLY_DONE;
}

const struct fcr_kind fcr_kind_binding = {
	.name = "binding",
	.rec_type = FCR_REC_BINDING,
	.key_valid = fcr_key_vlan_valid,
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
	.displaces = displaces,
	.fields = fields,
	.counts = counts,
};
