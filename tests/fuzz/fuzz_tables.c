/* SPDX-License-Identifier: BSD-3-Clause */
/* The tables' views of each other, after whatever a fuzz input did. */
#include <string.h>

#include <rte_hash.h>
#include <rte_lpm.h>

#include "fuzz.h"
#include "fuzz_tables.h"

static uint64_t
fcid_key(uint16_t vlan, uint32_t fcid)
{
	return (uint64_t)vlan << 32 | fcid; /* fcr_binding.c's by-FCID key */
}

static void
rule_keys(const struct fcr_redirect *r, uint64_t key[FCR_REDIRECT_KEYS])
{
	const uint32_t *f = r->fcid;

	key[0] = fcr_flow_key(r->vlan, f[FCR_M_HOST], f[FCR_M_TARGET]);
	key[1] = fcr_flow_key(r->vlan, f[FCR_M_VI], f[FCR_M_TARGET]);
	key[2] = fcr_flow_key(r->vlan, f[FCR_M_TARGET], f[FCR_M_HOST]);
	key[3] = fcr_flow_key(r->vlan, f[FCR_M_VT], f[FCR_M_HOST]);
	/* kept hidden: the ends never reach the service node */
	key[4] = fcr_flow_key(r->vlan, f[FCR_M_TARGET], f[FCR_M_VI]);
	key[5] = fcr_flow_key(r->vlan, f[FCR_M_HOST], f[FCR_M_VT]);
}

void
fz_check_tables(const struct fcr_tables *t)
{
	const struct fcr_flow_table *ft = t->flows;
	const struct fcr_binding_table *bt = t->bindings;
	const struct fcr_redirect_table *rd = t->redirects;
	const struct fcr_route_table *rt = t->routes;
	uint32_t used_slots[FCR_ROUTE_SLOTS] = { 0 };
	uint16_t slot_vlan[FCR_ROUTE_SLOTS];
	uint32_t i, j, m, live = 0, bound = 0, used = 0, active = 0, it;
	const void *kp;
	void *data;
	int32_t rc;

	/* flows */
	for (i = 0; i < ft->capacity; i++) {
		uint64_t k = ft->key[i];

		if (k == UINT64_MAX)
			continue;
		live++;
		FZ_CHECK(k >> 60 == 0, "flow %u: key 0x%llx no frame can have", i,
			 (unsigned long long)k);
		FZ_CHECK(fcr_flow_find(ft, k) == (int)i, "flow %u not found by key", i);
		if (ft->owner[i] != FCR_NO_OWNER) {
			const struct fcr_redirect *x;
			uint64_t rk[FCR_REDIRECT_KEYS];

			FZ_CHECK(ft->owner[i] < rd->capacity, "owner %u", ft->owner[i]);
			x = &rd->r[ft->owner[i]];
			FZ_CHECK(x->in_use, "entry of a deleted redirect %u", ft->owner[i]);
			if (fcr_action_leg(ft->action[i]) == FCR_LEG_BLOCKED) {
				/* fail closed: only the pair's two keys, and
				 * only while the redirect is not active */
				uint32_t h = bt->entry[x->binding[FCR_M_HOST]].fcid;
				uint32_t tg = bt->entry[x->binding[FCR_M_TARGET]].fcid;

				FZ_CHECK(x->state != FCR_RS_ACTIVE && x->blocking,
					 "blocking entry of redirect %u in state %u",
					 ft->owner[i], x->state);
				FZ_CHECK(k == fcr_flow_key(x->vlan, h, tg) ||
					 k == fcr_flow_key(x->vlan, tg, h),
					 "blocking key not the redirect's pair");
				continue;
			}
			FZ_CHECK(x->state == FCR_RS_ACTIVE,
				 "rule of redirect %u in state %u", ft->owner[i], x->state);
			rule_keys(x, rk);
			FZ_CHECK(k == rk[0] || k == rk[1] || k == rk[2] || k == rk[3] ||
				 k == rk[4] || k == rk[5], "rule key not the redirect's");
			FZ_CHECK((fcr_action_leg(ft->action[i]) == FCR_LEG_HIDDEN) ==
				 (k == rk[4] || k == rk[5]), "hidden pair's leg");
		}
	}
	FZ_CHECK(live == ft->count, "flows: %u live, count %u", live, ft->count);
	for (i = 0, j = 0; i < ft->capacity; i++)
		j += ft->key[i] != UINT64_MAX && ft->owner[i] == FCR_NO_OWNER;
	FZ_CHECK(j == ft->nb_plain, "flows: %u plain, nb_plain %u", j, ft->nb_plain);
	FZ_CHECK((uint64_t)ft->nb_plain + ft->reserve <= ft->capacity,
		 "flows: %u plain + reserve %u > %u", ft->nb_plain, ft->reserve,
		 ft->capacity);
	FZ_CHECK(ft->nb_free + ft->count == ft->capacity, "flows: %u free + %u",
		 ft->nb_free, ft->count);
	it = 0;
	while ((rc = rte_hash_iterate(ft->hash, &kp, &data, &it)) >= 0) {
		uint32_t idx = (uint32_t)(uintptr_t)data;

		FZ_CHECK(idx < ft->capacity && ft->key[idx] == *(const uint64_t *)kp,
			 "flow hash entry -> %u", idx);
	}
	FZ_CHECK((uint32_t)rte_hash_count(ft->hash) == ft->count, "flow hash count");

	/* names: by (VLAN, WWPN) and by (VLAN, FCID) */
	for (i = 0; i < bt->capacity; i++) {
		const struct fcr_binding *nm = &bt->entry[i];

		if (!nm->in_use)
			continue;
		used++;
		FZ_CHECK(nm->vlan <= 0x0FFF, "name %u on VLAN %u", i, nm->vlan);
		FZ_CHECK(fcr_binding_get((struct fcr_binding_table *)bt, nm->vlan,
				      nm->wwpn, 0) == i, "name %u by wwpn", i);
		if (nm->fcid != FCR_FCID_NONE) {
			bound++;
			FZ_CHECK(nm->fcid <= FCR_FCID_MASK, "fcid 0x%x", nm->fcid);
			FZ_CHECK(fcr_binding_by_fcid(bt, nm->vlan, nm->fcid) == i,
				 "name %u by fcid", i);
			FZ_CHECK(nm->origin == FCR_BIND_STATIC ||
				 nm->origin == FCR_BIND_LEARNED, "origin %u", nm->origin);
		} else {
			FZ_CHECK(nm->origin == FCR_BIND_NONE, "unbound origin %u",
				 nm->origin);
			FZ_CHECK(nm->nb_refs > 0, "name %u (vlan %u wwpn %016llx) neither "
				 "bound nor named by a redirect", i, nm->vlan,
				 (unsigned long long)nm->wwpn);
		}
		for (j = 0; j < nm->nb_refs; j++) {
			const struct fcr_redirect *x = &rd->r[nm->refs[j]];

			FZ_CHECK(nm->refs[j] < rd->capacity && x->in_use, "ref");
			for (m = 0; m < FCR_M_COUNT && x->binding[m] != i; m++)
				;
			FZ_CHECK(m < FCR_M_COUNT, "name %u refers to redirect %u "
				 "that does not name it", i, nm->refs[j]);
		}
	}
	FZ_CHECK(bound == bt->nb_bound, "names: %u bound, nb_bound %u", bound,
		 bt->nb_bound);
	FZ_CHECK(used + bt->nb_free == bt->capacity, "names: %u used + %u free",
		 used, bt->nb_free);
	FZ_CHECK((uint32_t)rte_hash_count(bt->by_wwpn) == used, "by_wwpn count");
	FZ_CHECK((uint32_t)rte_hash_count(bt->by_fcid) == bound, "by_fcid count");
	it = 0;
	while ((rc = rte_hash_iterate(bt->by_fcid, &kp, &data, &it)) >= 0) {
		const struct fcr_binding *nm = &bt->entry[(uintptr_t)data];

		FZ_CHECK((uintptr_t)data < bt->capacity && nm->in_use &&
			 nm->fcid != FCR_FCID_NONE &&
			 fcid_key(nm->vlan, nm->fcid) == *(const uint64_t *)kp,
			 "by_fcid entry -> name %u", (unsigned)(uintptr_t)data);
	}

	/* redirects */
	used = 0;
	for (i = 0; i < rd->capacity; i++) {
		const struct fcr_redirect *x = &rd->r[i];
		uint64_t rk[FCR_REDIRECT_KEYS];
		int idx;

		if (!x->in_use)
			continue;
		used++;
		FZ_CHECK(x->vlan <= 0x0FFF, "redirect %u on VLAN %u", i, x->vlan);
		for (m = 0; m < FCR_M_COUNT; m++) {
			const struct fcr_binding *nm;

			FZ_CHECK(x->binding[m] < bt->capacity, "member %u", m);
			nm = &bt->entry[x->binding[m]];
			FZ_CHECK(nm->in_use && nm->vlan == x->vlan, "member %u name", m);
			for (j = 0; j < nm->nb_refs && nm->refs[j] != i; j++)
				;
			FZ_CHECK(j < nm->nb_refs, "redirect %u not in its member's refs", i);
		}
		FZ_CHECK(fcr_redirect_find(rd, x->vlan, bt->entry[x->binding[0]].wwpn,
					   bt->entry[x->binding[1]].wwpn) == (int)i,
			 "redirect %u by key", i);
		if (x->state != FCR_RS_ACTIVE) {
			/* fail closed: a bound pair never has a plain entry */
			uint32_t h = bt->entry[x->binding[FCR_M_HOST]].fcid;
			uint32_t tg = bt->entry[x->binding[FCR_M_TARGET]].fcid;
			uint64_t pk[2];

			FZ_CHECK(x->state != FCR_RS_NO_ROOM,
				 "redirect %u no_room despite the reserve", i);
			if (h == FCR_FCID_NONE || tg == FCR_FCID_NONE)
				continue;
			pk[0] = fcr_flow_key(x->vlan, h, tg);
			pk[1] = fcr_flow_key(x->vlan, tg, h);
			for (m = 0; m < 2; m++) {
				idx = fcr_flow_find(ft, pk[m]);
				FZ_CHECK(idx >= 0 && ft->owner[idx] != FCR_NO_OWNER,
					 "redirect %u (%s): its bound pair %06x/%06x has no "
					 "blocking entry (key %u: entry %d, owner %u; it holds "
					 "%u keys, blocking %u; host %06x target %06x vi %06x "
					 "vt %06x)", i, fcr_redirect_state_name(x->state), h, tg,
					 m, idx, idx >= 0 ? ft->owner[idx] : 0, x->nb_keys,
					 x->blocking, h, tg,
					 bt->entry[x->binding[FCR_M_VI]].fcid,
					 bt->entry[x->binding[FCR_M_VT]].fcid);
			}
			continue;
		}
		active++;
		for (m = 0; m < FCR_M_COUNT; m++)
			FZ_CHECK(bt->entry[x->binding[m]].fcid == x->fcid[m],
				 "active redirect %u: member %u moved", i, m);
		rule_keys(x, rk);
		for (m = 0; m < FCR_REDIRECT_KEYS; m++) {
			idx = fcr_flow_find(ft, rk[m]);
			FZ_CHECK(idx >= 0 && ft->owner[idx] == i,
				 "active redirect %u lacks rule %u", i, m);
		}
	}
	FZ_CHECK(used == rd->count && rd->count + rd->nb_free == rd->capacity,
		 "redirects: %u used, count %u, free %u", used, rd->count, rd->nb_free);
	FZ_CHECK(active == rd->nb_active, "redirects: %u active, nb_active %u",
		 active, rd->nb_active);
	FZ_CHECK((uint32_t)rte_hash_count(rd->by_key) == used, "redirect hash count");

	/* routes */
	memset(slot_vlan, 0xFF, sizeof(slot_vlan));
	FZ_CHECK(rt->nb_routes <= rt->max_routes &&
		 rt->nb_routes + rt->nb_nh_free == rt->max_routes,
		 "routes: %u + %u free next hops", rt->nb_routes, rt->nb_nh_free);
	for (i = 0; i < rt->nb_routes; i++) {
		const struct fcr_route *ro = &rt->routes[i];
		uint32_t nh, slot;

		FZ_CHECK(ro->bits >= 1 && ro->bits <= 24, "bits %u", ro->bits);
		FZ_CHECK((ro->prefix & ~(0xFFFFFFu << (24 - ro->bits))) == 0 &&
			 ro->prefix <= FCR_FCID_MASK, "prefix 0x%x/%u", ro->prefix,
			 ro->bits);
		FZ_CHECK(ro->vlan < FCR_VLANS || ro->vlan == FCR_VLAN_ANY, "vlan %u", ro->vlan);
		FZ_CHECK(ro->nh < rt->max_routes && rt->nexthop[ro->nh].in_use, "nh");
		/* a VLAN's routes in its own slot, the others in slot 0 */
		slot = ro->vlan == FCR_VLAN_ANY ? 0 : rt->slot_of[ro->vlan];
		FZ_CHECK(ro->vlan == FCR_VLAN_ANY || slot != 0, "vlan %u has no slot", ro->vlan);
		used_slots[slot]++;
		FZ_CHECK(rte_lpm_is_rule_present(rt->lpm, slot << 24 | ro->prefix, 8 + ro->bits,
						 &nh) == 1 && nh == ro->nh,
			 "route vlan %u 0x%x/%u not in the LPM", ro->vlan, ro->prefix, ro->bits);
		for (j = 0; j < i; j++)
			FZ_CHECK(rt->routes[j].nh != ro->nh &&
				 (rt->routes[j].prefix != ro->prefix ||
				  rt->routes[j].bits != ro->bits ||
				  rt->routes[j].vlan != ro->vlan), "route twice");
	}
	/* a slot counts its routes and is one VLAN's */
	for (i = 1; i < FCR_ROUTE_SLOTS; i++)
		FZ_CHECK(rt->slot_routes[i] == used_slots[i], "slot %u: %u routes counted, %u held",
			 i, rt->slot_routes[i], used_slots[i]);
	for (i = 0; i < FCR_VLANS; i++) {
		uint8_t s = rt->slot_of[i];

		if (s == 0)
			continue;
		FZ_CHECK(used_slots[s] != 0, "vlan %u: slot %u of no route", i, s);
		FZ_CHECK(slot_vlan[s] == FCR_VLAN_ANY, "vlans %u and %u: slot %u",
			 slot_vlan[s], i, s);
		slot_vlan[s] = (uint16_t)i;
	}
}
