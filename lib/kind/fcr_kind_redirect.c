/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Redirects, as a kind of object (fcr_kind.h). On the wire:
 *   7 REDIRECT      VLAN u16, host u64, target u64, VI u64, VT u64,
 *                   version varint, [cluster u64, flags u8 (bit 0
 *                   restartable)]: the bracket for a redirect of a
 *                   cluster (VI and VT: the node it is on); a peer that
 *                   reads no further sees a redirect to that VI and VT
 *   8 REDIRECT_DEL  VLAN u16, host u64, target u64, version varint
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "fcr_cutover.h"
#include "fcr_fcoe.h"
#include "fcr_guard.h"
#include "fcr_paths.h"
#include "fcr_sn.h"
#include "fcr_kind.h"
#include "fcr_kind_redirect.h"
#include "fcr_tables.h"
#include "fcr_text.h"

extern const struct fcr_kind fcr_kind_redirect;

static const struct fcr_cmd_def cmds[] = {
	FCR_KIND_ROW(fcr_kind_redirect, FCR_OP_ADD, 0, "redirect add vlan <vlan> host <wwpn> target <wwpn> vi <wwpn> vt <wwpn>", "steer host<->target through the service node's VI/VT", FCR_CMD_CONFIG | FCR_CMD_CHANGES),
	FCR_KIND_ROW(fcr_kind_redirect, FCR_OP_ADD, FCR_REDIRECT_WHEN_IDLE, "redirect add vlan <vlan> host <wwpn> target <wwpn> vi <wwpn> vt <wwpn> when idle", "the same, once the pair has no exchange open (waits up to 30 s, else adds nothing)", FCR_CMD_CHANGES),
	FCR_KIND_ROW(fcr_kind_redirect, FCR_OP_ADD, FCR_REDIRECT_CLUSTER, "redirect add vlan <vlan> host <wwpn> target <wwpn> cluster <word>", "steer host<->target through a service node of the cluster, placed by target; it stays on that node", FCR_CMD_CONFIG | FCR_CMD_CHANGES),
	FCR_KIND_ROW(fcr_kind_redirect, FCR_OP_ADD, FCR_REDIRECT_CLUSTER | FCR_REDIRECT_RESTARTABLE, "redirect add vlan <vlan> host <wwpn> target <wwpn> cluster <word> restartable", "the same; when its node fails, the pair moves to another of the cluster (a cutover)", FCR_CMD_CONFIG | FCR_CMD_CHANGES),
	FCR_KIND_ROW(fcr_kind_redirect, FCR_OP_DEL, 0, "redirect del vlan <vlan> host <wwpn> target <wwpn>", "remove a redirect (its flows fall back to plain forwarding)", FCR_CMD_CHANGES),
	FCR_KIND_ROW(fcr_kind_redirect, FCR_OP_DEL, FCR_REDIRECT_PATHS, "redirect del vlan <vlan> host <wwpn> target <wwpn> paths", "remove it and every redirect of the same host and target nodes (its other paths), at once", FCR_CMD_CHANGES),
	FCR_KIND_ROW(fcr_kind_redirect, FCR_OP_LIST, 0, "redirect list", "list redirects: active, or which port they wait for", 0),
};

static size_t
put(uint8_t *b, const struct fcr_rec *r)
{
	const struct fcr_redirect_val *v = (const struct fcr_redirect_val *)r->val.b;
	size_t n = 18;

	fcr_put_be16(b, r->key.vlan);
	fcr_put_be64(b + 2, r->key.k1);
	fcr_put_be64(b + 10, r->key.k2);
	if (r->type == FCR_REC_REDIRECT) {
		fcr_put_be64(b + 18, v->vi);
		fcr_put_be64(b + 26, v->vt);
		n = 34;
	}
	n += fcr_varint_put(b + n, r->version);
	if (r->type == FCR_REC_REDIRECT && v->cluster != 0) {
		fcr_put_be64(b + n, v->cluster);
		b[n + 8] = v->restartable ? 1 : 0;
		n += 9;
	}
	return n;
}

static int
get(const uint8_t *p, size_t o, size_t end, struct fcr_rec *r)
{
	struct fcr_redirect_val *v = fcr_redirect_val(r);

	FCR_BODY_NEED(o, 18, end);
	r->key.kind = FCR_KIND_REDIRECT;
	r->key.vlan = fcr_get_be16(p + o);
	r->key.k1 = fcr_get_be64(p + o + 2);
	r->key.k2 = fcr_get_be64(p + o + 10);
	o += 18;
	if (r->type == FCR_REC_REDIRECT) {
		FCR_BODY_NEED(o, 16, end);
		v->vi = fcr_get_be64(p + o);
		v->vt = fcr_get_be64(p + o + 8);
		o += 16;
	}
	FCR_BODY_VARINT(p, o, end, r->version);
	if (r->type == FCR_REC_REDIRECT && o < end) {
		FCR_BODY_NEED(o, 9, end);
		v->cluster = fcr_get_be64(p + o);
		v->restartable = p[o + 8] & 1;
	}
	return 0;
}

static uint32_t
slots(const struct fcr_tables *t)
{
	return t->redirects->capacity;
}

static int
slot(struct fcr_tables *t, uint32_t idx, struct fcr_sync_meta *m)
{
	struct fcr_redirect *x = &t->redirects->r[idx];

	m->version = &x->version;
	m->sflags = &x->sflags;
	return x->in_use;
}

static void
rec(struct fcr_tables *t, uint32_t idx, const struct fcr_rec_ctx *c, struct fcr_rec *r)
{
	const struct fcr_redirect *x = &t->redirects->r[idx];
	const struct fcr_binding *n = t->bindings->entry;

	(void)c;
	*r = fcr_redirect_rec(x->vlan, n[x->binding[FCR_M_HOST]].wwpn,
			      n[x->binding[FCR_M_TARGET]].wwpn, n[x->binding[FCR_M_VI]].wwpn,
			      n[x->binding[FCR_M_VT]].wwpn, x->version);
	fcr_redirect_val(r)->cluster = x->cluster;
	fcr_redirect_val(r)->restartable = x->restartable;
}

static int
find(struct fcr_tables *t, const struct fcr_key *k)
{
	return fcr_redirect_find(t->redirects, k->vlan, k->k1, k->k2);
}

static int
check(const struct fcr_tables *t, const struct fcr_rec *r, char why[FCR_CMD_MSG_LEN])
{
	const struct fcr_redirect_val *v = (const struct fcr_redirect_val *)r->val.b;
	uint64_t w[4] = { r->key.k1, r->key.k2, v->vi, v->vt };
	int i, j;

	if (r->type != FCR_REC_REDIRECT)
		return 0;
	if (v->cluster == UINT64_MAX) {
		snprintf(why, FCR_CMD_MSG_LEN, "a cluster's name is 1 to 8 of A-Z a-z 0-9 . _ -");
		return -1;
	}
	if (v->cluster != 0 && r->key.k1 == r->key.k2) {
		snprintf(why, FCR_CMD_MSG_LEN, "host and target must be two different ports");
		return -1;
	}
	if (v->cluster != 0 && v->vi == 0)
		return 0; /* its node: placed when set (refused() says why not) */
	for (i = 0; i < 4; i++)
		for (j = i + 1; j < 4; j++)
			if (w[i] == w[j]) {
				snprintf(why, FCR_CMD_MSG_LEN,
					 "host, target, vi and vt must be four different ports");
				return -1;
			}
	return 0;
}

static int
set(struct fcr_tables *t, const struct fcr_rec *r)
{
	const struct fcr_redirect_val *v = (const struct fcr_redirect_val *)r->val.b;
	const struct fcr_key *k = &r->key;
	int rc;

	if (r->type == FCR_REC_REDIRECT_DEL)
		return fcr_redirect_del(t->redirects, k->vlan, k->k1, k->k2);
	if (v->cluster != 0) {
		/* placed, or kept on the node v names (a peer's placement) */
		rc = fcr_redirect_add_cluster(t->redirects, k->vlan, k->k1, k->k2, v->cluster,
					      v->restartable, v->vi);
		return rc < 0 ? rc : 0;
	}
	rc = fcr_redirect_add(t->redirects, k->vlan, k->k1, k->k2, v->vi, v->vt);
	if (rc >= 0)
		fcr_redirect_leave_cluster(t->redirects, (uint32_t)rc);
	return rc < 0 ? rc : 0;
}

/* A redirect of a cluster finding no member to go on. */
static int
refused(const struct fcr_tables *t, const struct fcr_rec *r, int rc, char why[FCR_CMD_MSG_LEN])
{
	const struct fcr_redirect_val *v = (const struct fcr_redirect_val *)r->val.b;
	char cl[FCR_CLUSTER_STRLEN];

	(void)t;
	if (r->type != FCR_REC_REDIRECT || v->cluster == 0 || (rc != -ENOENT && rc != -EBUSY))
		return 0;
	fcr_cluster_format(v->cluster, cl);
	if (rc == -ENOENT)
		snprintf(why, FCR_CMD_MSG_LEN, "cluster %s has no service node on vlan %u "
			 "(service-node add first)", cl, r->key.vlan);
	else
		snprintf(why, FCR_CMD_MSG_LEN, "every service node of cluster %s on vlan %u "
			 "carries a pair to this target on its vi already: a vi serves one host "
			 "of a target (service-node add another vi)", cl, r->key.vlan);
	return 1;
}

/* add: <vlan> <host> <target> <vi> <vt>; del: <vlan> <host> <target> */
static void
cmd_rec(const struct fcr_cmd *c, struct fcr_rec *r)
{
	const union fcr_cmd_arg *a = c->arg;

	if (c->def->form & FCR_REDIRECT_CLUSTER) {
		uint64_t cluster;

		*r = fcr_redirect_rec((uint16_t)a[0].u32, a[1].wwpn, a[2].wwpn, 0, 0, 0);
		/* a name that is none: refused by check() as a cluster with no node */
		if (fcr_cluster_parse(fcr_cmd_word(c, 3), &cluster) < 0)
			cluster = UINT64_MAX;
		fcr_redirect_val(r)->cluster = cluster;
		fcr_redirect_val(r)->restartable = (c->def->form & FCR_REDIRECT_RESTARTABLE) != 0;
		return;
	}
	*r = fcr_redirect_rec((uint16_t)a[0].u32, a[1].wwpn, a[2].wwpn, a[3].wwpn, a[4].wwpn, 0);
	if (c->def->op == FCR_OP_DEL) {
		r->type = FCR_REC_REDIRECT_DEL;
		fcr_redirect_val(r)->vi = fcr_redirect_val(r)->vt = 0;
	}
}

static int
fields(struct fcr_tables *t, uint32_t idx, struct fcr_field *f, int *config)
{
	const struct fcr_redirect_table *rt = t->redirects;
	const struct fcr_redirect *x = &rt->r[idx];
	enum fcr_member miss;
	int m, n = 0;

	/* restored from the state file, not (yet) named by the configuration:
	 * not the operator's, so not saved */
	*config = !(x->restored & FCR_RESTORED);
	f[n++] = (struct fcr_field){ .name = "vlan", .flags = FCR_FIELD_CONFIG | FCR_FIELD_NUM,
				     .num = x->vlan };
	for (m = 0; m < FCR_M_COUNT; m++) {
		/* a cluster's redirect is saved naming its cluster, not its node */
		f[n] = (struct fcr_field){ .name = fcr_member_name(m),
					   .flags = m < FCR_M_VI || x->cluster == 0 ?
							    FCR_FIELD_CONFIG : 0 };
		fcr_wwpn_format(t->bindings->entry[x->binding[m]].wwpn, f[n++].value);
	}
	if (x->cluster != 0) {
		f[n] = (struct fcr_field){ .name = "cluster", .flags = FCR_FIELD_CONFIG };
		fcr_cluster_format(x->cluster, f[n++].value);
		if (x->restartable)
			f[n++] = (struct fcr_field){ .name = "restartable", .value = "restartable",
						     .flags = FCR_FIELD_BARE | FCR_FIELD_CONFIG };
	}
	f[n] = (struct fcr_field){ .name = "state", .flags = FCR_FIELD_BARE };
	snprintf(f[n++].value, FCR_FIELD_LEN, "%s", fcr_redirect_state_name(x->state));
	miss = fcr_redirect_missing(rt, idx);
	if (x->state == FCR_RS_WAITING && miss != FCR_M_COUNT) {
		char w[FCR_WWPN_STRLEN];

		f[n] = (struct fcr_field){ .name = "waiting", .flags = FCR_FIELD_BARE | FCR_FIELD_TEXT };
		snprintf(f[n++].value, FCR_FIELD_LEN, "(waiting for %.6s %.23s)",
			 fcr_member_name(miss),
			 fcr_wwpn_format(t->bindings->entry[x->binding[miss]].wwpn, w));
	}
	if (x->cutover) {
		f[n] = (struct fcr_field){ .name = "cutover", .flags = FCR_FIELD_BARE | FCR_FIELD_TEXT };
		if (x->draining)
			snprintf(f[n++].value, FCR_FIELD_LEN,
				 "(cutover: draining, %" PRIu64 " %s exchanges open)",
				 fcr_redirect_open(rt, idx),
				 x->draining == FCR_DRAIN_HOST ? "host" : "vi");
		else if (x->cut_state == FCR_CUT_VI_TOLD)
			snprintf(f[n++].value, FCR_FIELD_LEN,
				 "(cutover: until vi logs in again)");
		else
			snprintf(f[n++].value, FCR_FIELD_LEN, "(cutover: until host logs in again)");
	}
	/* a member's login through another port or ENode, refused */
	for (m = 0; m < FCR_M_COUNT; m++) {
		const struct fcr_binding *b = &t->bindings->entry[x->binding[m]];

		if (b->pin_refused == 0)
			continue;
		f[n] = (struct fcr_field){ .name = "pinned", .flags = FCR_FIELD_BARE | FCR_FIELD_TEXT };
		snprintf(f[n++].value, FCR_FIELD_LEN, "(%s logins elsewhere refused: %u)",
			 fcr_member_name(m), b->pin_refused);
		break;
	}
	if (x->live.stalled) {
		f[n] = (struct fcr_field){ .name = "sn", .flags = FCR_FIELD_BARE | FCR_FIELD_TEXT };
		snprintf(f[n++].value, FCR_FIELD_LEN, "(service node not answering)");
	}
	{
		uint64_t ex = 0;
		uint32_t paths = fcr_paths_unredirected(rt, idx, &ex);

		if (paths != 0) {
			char s[FCR_FCID_STRLEN], d[FCR_FCID_STRLEN];

			f[n] = (struct fcr_field){ .name = "multipath",
						   .flags = FCR_FIELD_BARE | FCR_FIELD_TEXT };
			snprintf(f[n++].value, FCR_FIELD_LEN, "(paths not redirected: %u: %s>%s)",
				 paths, fcr_fcid_format(fcr_flow_key_sid(ex), s),
				 fcr_fcid_format(fcr_flow_key_did(ex), d));
		}
	}
	if (x->state == FCR_RS_CLEARTEXT) {
		f[n] = (struct fcr_field){ .name = "guard", .flags = FCR_FIELD_BARE | FCR_FIELD_TEXT };
		snprintf(f[n++].value, FCR_FIELD_LEN,
			 "(stopped: cleartext to the target)");
	}
	if (x->restored & FCR_RESTORED) {
		f[n] = (struct fcr_field){ .name = "restored", .flags = FCR_FIELD_BARE | FCR_FIELD_TEXT };
		snprintf(f[n++].value, FCR_FIELD_LEN, "(restored, not configured yet)");
	}
	/* what `show redirect <id>` takes */
	f[n++] = (struct fcr_field){ .name = "id", .flags = FCR_FIELD_NUM, .num = idx };
	f[n++] = (struct fcr_field){ .name = "before_rule", .flags = FCR_FIELD_NUM,
				     .num = x->frames_before };
	f[n++] = (struct fcr_field){ .name = "not_ready", .flags = FCR_FIELD_NUM,
				     .num = fcr_redirect_dropped(rt, idx) };
	f[n++] = (struct fcr_field){ .name = "sn_stalled", .flags = FCR_FIELD_NUM | FCR_FIELD_DATA,
				     .num = x->live.stalled };
	/* data frames the cleartext guard judged clear: said once there are */
	f[n] = (struct fcr_field){ .name = "cleartext", .flags = FCR_FIELD_NUM,
				   .num = fcr_redirect_cleartext(rt, idx) };
	f[n].flags |= f[n].num == 0 ? FCR_FIELD_DATA : 0;
	n++;
	return n;
}

static int
counts(const struct fcr_tables *t, struct fcr_field *f)
{
	f[0] = (struct fcr_field){ .name = "redirects", .flags = FCR_FIELD_NUM,
				   .num = t->redirects->count };
	f[1] = (struct fcr_field){ .name = "active", .flags = FCR_FIELD_NUM,
				   .num = t->redirects->nb_active };
	return 2;
}

static enum fcr_apply_result
apply(struct fcr_tables *t, const struct fcr_rec *r, const struct fcr_rec_ctx *c)
{
	(void)c;
	return fcr_kind_apply_config(&fcr_kind_redirect, t, r);
}

const struct fcr_kind fcr_kind_redirect = {
	.name = "redirect",
	.rec_type = FCR_REC_REDIRECT,
	.fail_closed = 1,
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
	.refused = refused,
	.fields = fields,
	.counts = counts,
};
