/* SPDX-License-Identifier: BSD-3-Clause */
#include "fcr_kind.h"

extern const struct fcr_kind fcr_kind_route, fcr_kind_binding, fcr_kind_redirect,
	fcr_kind_flow;

/* One row per kind, by its id (fcr_key.h). */
const struct fcr_kind *const fcr_kinds[FCR_KIND_COUNT] = {
	[FCR_KIND_ROUTE] = &fcr_kind_route,
	[FCR_KIND_BINDING] = &fcr_kind_binding,
	[FCR_KIND_REDIRECT] = &fcr_kind_redirect,
	[FCR_KIND_FLOW] = &fcr_kind_flow,
};

const struct fcr_kind *
fcr_kind_of_rec(uint8_t type)
{
	int k;

	for (k = 0; k < FCR_KIND_COUNT; k++)
		if (type == fcr_kinds[k]->rec_type || type == fcr_kinds[k]->rec_type + 1)
			return fcr_kinds[k];
	return NULL;
}
