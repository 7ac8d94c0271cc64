/* SPDX-License-Identifier: BSD-3-Clause */
#include "fcr_guard.h"

#include <errno.h>

#include "fcr_redirect.h"
#include "fcr_redirect_priv.h"
#include "fcr_tables.h"

uint64_t
fcr_redirect_cleartext(const struct fcr_redirect_table *rt, uint32_t id)
{
	return fcr_redirect_workers_sum(rt, rt->cleartext, id) - rt->r[id].clear_base;
}

unsigned int
fcr_redirect_guard_tick(struct fcr_redirect_table *rt, int drop, unsigned int *stops)
{
	unsigned int found = 0;
	uint32_t id;

	*stops = 0;
	for (id = 0; id < rt->capacity; id++) {
		struct fcr_redirect *r = &rt->r[id];
		uint64_t n;

		/* a cutover's rules are its own; the count waits for its end */
		if (!r->in_use || r->cutover)
			continue;
		n = fcr_redirect_cleartext(rt, id);
		if (n == r->clear_seen)
			continue;
		{
			struct fcr_note note = {
				.kind = FCR_NOTE_CLEARTEXT, .vlan = r->vlan, .redirect = id,
				.wwpn = rt->bindings->entry[r->binding[FCR_M_HOST]].wwpn,
				.other_wwpn = rt->bindings->entry[r->binding[FCR_M_VI]].wwpn,
				.open = (uint32_t)(n - r->clear_seen),
				.stopped = drop && !r->guarded,
			};

			r->clear_seen = n;
			found++;
			fcr_note_tell(rt->note_hook, &note);
		}
		if (drop && !r->guarded) {
			r->guarded = 1;
			(*stops)++;
			fcr_redirect_install_noted(rt, id, r->state);
		}
	}
	return found;
}

void
fcr_tables_guard(struct fcr_tables *t, int drop)
{
	unsigned int stops;

	t->st.cleartext_alarms += fcr_redirect_guard_tick(t->redirects, drop, &stops);
	t->st.cleartext_stops += stops;
}

int
fcr_redirect_resume(struct fcr_redirect_table *rt, uint16_t vlan, uint64_t host,
		    uint64_t target)
{
	int id = fcr_redirect_find(rt, vlan, host, target);
	struct fcr_redirect *r;

	if (id < 0)
		return -ENOENT;
	r = &rt->r[id];
	if (!r->guarded)
		return -EALREADY;
	r->guarded = 0;
	fcr_redirect_install_noted(rt, (uint32_t)id, r->state);
	return 0;
}
