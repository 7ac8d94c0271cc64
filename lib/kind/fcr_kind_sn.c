/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Service nodes of clusters (fcr_sn.h), as a kind of object (fcr_kind.h).
 * On the wire:
 *   9  SN      VLAN u16, cluster u64, VI u64, VT u64, version varint
 *   10 SN_DEL  VLAN u16, cluster u64, VI u64, version varint
 */
#include <errno.h>
#include <stdio.h>

#include "fcr_fcoe.h"
#include "fcr_kind.h"
#include "fcr_kind_sn.h"
#include "fcr_sn.h"
#include "fcr_tables.h"
#include "fcr_text.h"

extern const struct fcr_kind fcr_kind_sn;

static const struct fcr_cmd_def cmds[] = {
	FCR_KIND_ROW(fcr_kind_sn, FCR_OP_ADD, 0, "service-node add cluster <word> vlan <vlan> vi <wwpn> vt <wwpn>", "add a service node (its VI and VT) to a cluster that redirects can name; again: it answers again", FCR_CMD_CONFIG | FCR_CMD_CHANGES),
	FCR_KIND_ROW(fcr_kind_sn, FCR_OP_DEL, 0, "service-node del cluster <word> vlan <vlan> vi <wwpn>", "remove a service node: its pairs move to another node of its cluster", FCR_CMD_CHANGES),
	FCR_KIND_ROW(fcr_kind_sn, FCR_OP_LIST, 0, "service-node list", "list service nodes: state, pairs, frames/s, pairs moved", 0),
};

static int
key_valid(const struct fcr_key *k)
{
	return fcr_key_vlan_valid(k) && k->k1 != 0;
}

static size_t
put(uint8_t *b, const struct fcr_rec *r)
{
	size_t n = 18;

	fcr_put_be16(b, r->key.vlan);
	fcr_put_be64(b + 2, r->key.k1);
	fcr_put_be64(b + 10, r->key.k2);
	if (r->type == FCR_REC_SN) {
		fcr_put_be64(b + 18, r->val.u64[0]);
		n = 26;
	}
	return n + fcr_varint_put(b + n, r->version);
}

static int
get(const uint8_t *p, size_t o, size_t end, struct fcr_rec *r)
{
	FCR_BODY_NEED(o, 18, end);
	r->key.kind = FCR_KIND_SN;
	r->key.vlan = fcr_get_be16(p + o);
	r->key.k1 = fcr_get_be64(p + o + 2);
	r->key.k2 = fcr_get_be64(p + o + 10);
	o += 18;
	if (r->type == FCR_REC_SN) {
		FCR_BODY_NEED(o, 8, end);
		r->val.u64[0] = fcr_get_be64(p + o);
		o += 8;
	}
	FCR_BODY_VARINT(p, o, end, r->version);
	return 0;
}

static uint32_t
slots(const struct fcr_tables *t)
{
	(void)t;
	return FCR_SN_MAX;
}

static int
slot(struct fcr_tables *t, uint32_t idx, struct fcr_sync_meta *m)
{
	struct fcr_sn *s = &t->redirects->sns->sn[idx];

	m->version = &s->version;
	m->sflags = &s->sflags;
	return s->in_use;
}

static void
rec(struct fcr_tables *t, uint32_t idx, const struct fcr_rec_ctx *c, struct fcr_rec *r)
{
	const struct fcr_sn *s = &t->redirects->sns->sn[idx];

	(void)c;
	*r = fcr_sn_rec(s->vlan, s->cluster, s->vi, s->vt, s->version);
}

static int
find(struct fcr_tables *t, const struct fcr_key *k)
{
	return fcr_sn_find(t->redirects, k->vlan, k->k1, k->k2);
}

static int
check(const struct fcr_tables *t, const struct fcr_rec *r, char why[FCR_CMD_MSG_LEN])
{
	const struct fcr_redirect_table *rt = t->redirects;
	const struct fcr_key *k = &r->key;
	uint64_t other;

	if (k->k1 == 0) {
		snprintf(why, FCR_CMD_MSG_LEN, "a cluster's name is 1 to 8 of A-Z a-z 0-9 . _ -");
		return -1;
	}
	if (r->type != FCR_REC_SN)
		return 0;
	if (k->k2 == r->val.u64[0]) {
		snprintf(why, FCR_CMD_MSG_LEN, "vi and vt must be two different ports");
		return -1;
	}
	if (fcr_sn_ports_taken(rt, k->vlan, k->k1, k->k2, r->val.u64[0], &other)) {
		char c[FCR_CLUSTER_STRLEN];

		snprintf(why, FCR_CMD_MSG_LEN, "a port of it is a port of another service node "
			 "on vlan %u (cluster %s): a vi is one member's, a vt one cluster's",
			 k->vlan, fcr_cluster_format(other, c));
		return -1;
	}
	if (fcr_sn_find(rt, k->vlan, k->k1, k->k2) < 0 && rt->sns->count == FCR_SN_MAX) {
		snprintf(why, FCR_CMD_MSG_LEN, "%u service nodes, the most there can be",
			 FCR_SN_MAX);
		return -1;
	}
	return 0;
}

static int
set(struct fcr_tables *t, const struct fcr_rec *r)
{
	const struct fcr_key *k = &r->key;
	int rc;

	if (r->type == FCR_REC_SN_DEL)
		return fcr_sn_del(t->redirects, k->vlan, k->k1, k->k2);
	rc = fcr_sn_add(t->redirects, k->vlan, k->k1, k->k2, r->val.u64[0]);
	return rc < 0 ? rc : 0;
}

/* add: <cluster> <vlan> <vi> <vt>; del: <cluster> <vlan> <vi> */
static void
cmd_rec(const struct fcr_cmd *c, struct fcr_rec *r)
{
	uint64_t cluster = 0;

	if (fcr_cluster_parse(fcr_cmd_word(c, 0), &cluster) < 0)
		cluster = 0; /* check() says why */
	*r = fcr_sn_rec((uint16_t)c->arg[1].u32, cluster, c->arg[2].wwpn,
			c->def->op == FCR_OP_DEL ? 0 : c->arg[3].wwpn, 0);
	if (c->def->op == FCR_OP_DEL)
		r->type = FCR_REC_SN_DEL;
}

static int
fields(struct fcr_tables *t, uint32_t idx, struct fcr_field *f, int *config)
{
	const struct fcr_sn *s = &t->redirects->sns->sn[idx];
	int n = 0;

	*config = 1;
	f[n] = (struct fcr_field){ .name = "cluster", .flags = FCR_FIELD_CONFIG };
	fcr_cluster_format(s->cluster, f[n++].value);
	f[n++] = (struct fcr_field){ .name = "vlan", .flags = FCR_FIELD_CONFIG | FCR_FIELD_NUM,
				     .num = s->vlan };
	f[n] = (struct fcr_field){ .name = "vi", .flags = FCR_FIELD_CONFIG };
	fcr_wwpn_format(s->vi, f[n++].value);
	f[n] = (struct fcr_field){ .name = "vt", .flags = FCR_FIELD_CONFIG };
	fcr_wwpn_format(s->vt, f[n++].value);
	f[n] = (struct fcr_field){ .name = "state", .flags = FCR_FIELD_BARE };
	snprintf(f[n++].value, FCR_FIELD_LEN, "%s", fcr_sn_state_name(s->state));
	f[n++] = (struct fcr_field){ .name = "pairs", .flags = FCR_FIELD_NUM, .num = s->pairs };
	f[n++] = (struct fcr_field){ .name = "frames_per_s", .flags = FCR_FIELD_NUM,
				     .num = s->rate };
	f[n++] = (struct fcr_field){ .name = "frames", .flags = FCR_FIELD_NUM | FCR_FIELD_DATA,
				     .num = s->frames };
	f[n++] = (struct fcr_field){ .name = "moved_in", .flags = FCR_FIELD_NUM,
				     .num = s->moved_in };
	f[n++] = (struct fcr_field){ .name = "moved_out", .flags = FCR_FIELD_NUM,
				     .num = s->moved_out };
	f[n++] = (struct fcr_field){ .name = "id", .flags = FCR_FIELD_NUM, .num = idx };
	return n;
}

static int
counts(const struct fcr_tables *t, struct fcr_field *f)
{
	const struct fcr_sn_table *st = t->redirects->sns;
	uint32_t i, up = 0;

	for (i = 0; i < FCR_SN_MAX; i++)
		up += st->sn[i].in_use && st->sn[i].state == FCR_SN_UP;
	f[0] = (struct fcr_field){ .name = "service_nodes", .flags = FCR_FIELD_NUM,
				   .num = st->count };
	f[1] = (struct fcr_field){ .name = "up", .flags = FCR_FIELD_NUM, .num = up };
	f[2] = (struct fcr_field){ .name = "pairs_moved", .flags = FCR_FIELD_NUM,
				   .num = st->moves };
	f[3] = (struct fcr_field){ .name = "pairs_stuck", .flags = FCR_FIELD_NUM,
				   .num = st->moving };
	return 4;
}

static enum fcr_apply_result
apply(struct fcr_tables *t, const struct fcr_rec *r, const struct fcr_rec_ctx *c)
{
	(void)c;
	return fcr_kind_apply_config(&fcr_kind_sn, t, r);
}

const struct fcr_kind fcr_kind_sn = {
	.name = "service-node",
	.rec_type = FCR_REC_SN,
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
