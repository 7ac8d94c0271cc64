/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdlib.h>
#include <string.h>

#include "fcr_state.h"
#include "fcr_state_snapshot.h"
#include "fcr_tables.h"

size_t
fcr_state_snapshot(const struct fcr_tables *t, const char *node, uint64_t written,
		   uint8_t **buf, size_t *cap)
{
	const struct fcr_binding_table *bt = t->bindings;
	size_t need = fcr_state_size(bt->nb_bound, FCR_STATE_MAX_FCFS, strlen(node));
	struct fcr_state_enc e;
	uint32_t n;
	uint16_t v;

	if (*cap < need) {
		/* room for some more, so a growing fabric reallocates seldom */
		size_t c = need + need / 4;
		uint8_t *p = realloc(*buf, c);

		if (p == NULL)
			return 0;
		*buf = p;
		*cap = c;
	}
	if (fcr_state_begin(&e, *buf, *cap, node, written, t->fka_ms) < 0)
		return 0;
	for (n = 0; n < bt->capacity; n++) {
		const struct fcr_binding *nm = &bt->entry[n];
		struct fcr_state_binding r;

		/* a sync peer's with no port here: the peer resends them to a
		 * node that restarted */
		if (!nm->in_use || nm->fcid == FCR_FCID_NONE || !fcr_binding_learned_here(nm))
			continue;
		r = (struct fcr_state_binding){
			.wwpn = nm->wwpn, .vlan = nm->vlan, .fcid = nm->fcid,
			/* a VN_Port told to log in again is restored as logged in */
			.vn = nm->vn & ((1ull << 56) - 1), .enode = nm->enode,
		};
		if (fcr_state_put_binding(&e, &r) < 0)
			return 0;
	}
	for (v = 0; v < 4096; v++) {
		const struct fcr_fcf *fc = &t->fcf[v];
		struct fcr_state_fcf r;

		if (!fc->known)
			continue;
		r = (struct fcr_state_fcf){
			.vlan = v, .map_known = fc->map_known, .name = fc->name,
			.fc_map = fcr_tables_fc_map(t, v),
		};
		memcpy(r.mac, fc->mac, 6);
		if (fcr_state_put_fcf(&e, &r) < 0)
			return 0;
	}
	return fcr_state_end(&e);
}
