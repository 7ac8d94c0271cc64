/* SPDX-License-Identifier: BSD-3-Clause */
#include "fcr_kind.h"
#include "fcr_kind_binding.h"
#include "fcr_tables.h"

extern const struct fcr_kind fcr_kind_route, fcr_kind_binding, fcr_kind_redirect,
	fcr_kind_flow, fcr_kind_sn;

/* One row per kind, by its id (fcr_key.h). */
const struct fcr_kind *const fcr_kinds[FCR_KIND_COUNT] = {
	[FCR_KIND_ROUTE] = &fcr_kind_route,
	[FCR_KIND_BINDING] = &fcr_kind_binding,
	[FCR_KIND_SN] = &fcr_kind_sn,
	[FCR_KIND_REDIRECT] = &fcr_kind_redirect,
	[FCR_KIND_FLOW] = &fcr_kind_flow,
};

size_t
fcr_kind_cmds(struct fcr_cmd_def *defs, size_t cap)
{
	size_t n = 0;
	unsigned int c;
	int k;

	for (k = 0; k < FCR_KIND_COUNT; k++)
		for (c = 0; c < fcr_kinds[k]->nb_cmds; c++, n++)
			if (n < cap)
				defs[n] = fcr_kinds[k]->cmds[c];
	return n;
}

const struct fcr_kind *
fcr_kind_of_rec(uint8_t type)
{
	int k;

	for (k = 0; k < FCR_KIND_COUNT; k++)
		if (type == fcr_kinds[k]->rec_type || type == fcr_kinds[k]->rec_type + 1)
			return fcr_kinds[k];
	return NULL;
}

enum fcr_apply_result
fcr_kind_apply_config(const struct fcr_kind *k, struct fcr_tables *t, const struct fcr_rec *r)
{
	char why[FCR_CMD_MSG_LEN];
	struct fcr_sync_meta m;
	int i = k->find(t, &r->key);

	if (i >= 0 && k->slot(t, (uint32_t)i, &m) && fcr_rec_stale(&m, r->version))
		return FCR_APPLY_STALE;
	if (fcr_rec_is_del(k, r)) {
		k->set(t, r); /* gone already: nothing to do */
		return FCR_APPLY_DONE;
	}
	if (k->check(t, r, why) < 0 || k->set(t, r) < 0)
		return FCR_APPLY_REFUSED;
	i = k->find(t, &r->key);
	if (i < 0)
		return FCR_APPLY_REFUSED;
	k->slot(t, (uint32_t)i, &m);
	*m.version = r->version;
	*m.sflags = FCR_SF_KNOWN;
	return FCR_APPLY_DONE;
}

int
fcr_rec_is_config(const struct fcr_rec *r)
{
	const struct fcr_kind *k = fcr_kind_of_rec(r->type);

	if (k == NULL || k->cmds == NULL)
		return 0;
	if (k != &fcr_kind_binding)
		return 1;
	/* a binding: a static one's update; its deletion may be a logout's */
	return !fcr_rec_is_del(k, r) &&
	       ((const struct fcr_binding_val *)r->val.b)->origin == FCR_BIND_STATIC;
}
