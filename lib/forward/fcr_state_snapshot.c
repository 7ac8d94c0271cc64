/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdlib.h>
#include <string.h>

#include "fcr_state.h"
#include "fcr_state_snapshot.h"
#include "fcr_tables.h"

/* Redirect id's path, when its pair went through the service node or was
 * in a cutover: 0 when there is none to put, -1 when it does not fit. */
static int
put_path(struct fcr_state_enc *e, const struct fcr_redirect_table *rt, uint32_t id)
{
	const struct fcr_redirect *r = &rt->r[id];
	const struct fcr_binding *b = rt->bindings->entry;
	struct fcr_state_path p;
	int m;

	if (!r->in_use && !r->ghost)
		return 0;
	if (!r->cutover && r->state != FCR_RS_ACTIVE && !(r->restored & FCR_RESTORED_CUTOVER))
		return 0;
	for (m = 0; m < FCR_M_COUNT; m++)
		if (r->binding[m] == FCR_BINDING_NONE)
			return 0;
	p = (struct fcr_state_path){
		.vlan = r->vlan, .host = b[r->binding[FCR_M_HOST]].wwpn,
		.target = b[r->binding[FCR_M_TARGET]].wwpn, .vi = b[r->binding[FCR_M_VI]].wwpn,
		.vt = b[r->binding[FCR_M_VT]].wwpn,
		.cutover = r->cutover || (r->restored & FCR_RESTORED_CUTOVER),
	};
	/* a ghost whose pair has a redirect again: that one's path is the
	 * pair's (in the same cutover) */
	if (!r->in_use && fcr_redirect_find(rt, p.vlan, p.host, p.target) >= 0)
		return 0;
	return fcr_state_put_path(e, &p);
}

/* A binding the file keeps: learned here (a sync peer's with no port here
 * the peer resends to a node that restarted). */
static int
kept(const struct fcr_binding *nm)
{
	return nm->in_use && nm->fcid != FCR_FCID_NONE && fcr_binding_learned_here(nm);
}

size_t
fcr_state_snapshot(const struct fcr_tables *t, const char *node, uint64_t written,
		   uint8_t **buf, size_t *cap)
{
	const struct fcr_binding_table *bt = t->bindings;
	const struct fcr_redirect_table *rt = t->redirects;
	size_t need = fcr_state_size(bt->nb_bound, 4096 + FCR_FCFS_MAX, strlen(node)) +
		      (size_t)rt->capacity * FCR_STATE_PATH_LEN +
		      (size_t)bt->nb_bound * FCR_STATE_NAME_LEN;
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

		if (!kept(nm))
			continue;
		r = (struct fcr_state_binding){
			.wwpn = nm->wwpn, .vlan = nm->vlan, .fcid = nm->fcid,
			/* a VN_Port told to log in again is restored as logged in */
			.vn = nm->vn & FCR_VN_SOURCE, .enode = nm->enode,
			/* the FCF records begin with the registry's slots, in order */
			.fcf = (uint16_t)fcr_vn_fcf(nm->vn),
		};
		if (fcr_state_put_binding(&e, &r) < 0)
			return 0;
	}
	/* the registry, slot by slot (a binding names its FCF so), each marked
	 * when it is its VLAN's own; then the VLANs' own the registry had no
	 * room for */
	for (n = 0; n < t->nb_fcfs; n++) {
		const struct fcr_fcf_seen *s = &t->fcfs[n];
		const struct fcr_fcf *fc = &t->fcf[s->vlan];
		struct fcr_state_fcf r = {
			.vlan = s->vlan, .name = s->name, .map_known = fc->map_known,
			.fc_map = fcr_tables_fc_map(t, s->vlan),
		};

		fcr_vn_mac(s->mac, r.mac);
		r.current = fc->known && memcmp(fc->mac, r.mac, 6) == 0;
		if (fcr_state_put_fcf(&e, &r) < 0)
			return 0;
	}
	for (v = 0; v < 4096; v++) {
		const struct fcr_fcf *fc = &t->fcf[v];
		struct fcr_state_fcf r;

		if (!fc->known || fcr_tables_fcf_slot(t, v, fcr_vn_pack(fc->mac, 0)) >= 0)
			continue;
		r = (struct fcr_state_fcf){
			.vlan = v, .map_known = fc->map_known, .name = fc->name,
			.fc_map = fcr_tables_fc_map(t, v), .current = 1,
		};
		memcpy(r.mac, fc->mac, 6);
		if (fcr_state_put_fcf(&e, &r) < 0)
			return 0;
	}
	for (n = 0; n < rt->capacity; n++)
		if (put_path(&e, rt, n) < 0)
			return 0;
	/* the node names, the bindings' in the same order */
	for (n = 0; n < bt->capacity; n++)
		if (kept(&bt->entry[n]) && fcr_state_put_name(&e, bt->entry[n].wwnn) < 0)
			return 0;
	return fcr_state_end(&e);
}

uint32_t
fcr_state_restore(struct fcr_tables *t, const struct fcr_state_binding *b,
		  uint32_t nb_bindings, const struct fcr_state_fcf *f, uint32_t nb_fcfs,
		  uint64_t now, uint64_t ticks_per_ms)
{
	/* a file's record -> the registry slot it has here (+1; 0: none) */
	uint8_t *slot = calloc(nb_fcfs ? nb_fcfs : 1, 1);
	uint32_t i, restored = 0;

	for (i = 0; i < nb_fcfs; i++) {
		int s;

		if (f[i].current)
			fcr_tables_fcf_set(t, f[i].vlan, f[i].mac, f[i].name, f[i].map_known,
					   f[i].fc_map);
		s = fcr_tables_fcf_register(t, f[i].vlan, fcr_vn_pack(f[i].mac, 0), f[i].name);
		if (slot != NULL && s >= 0)
			slot[i] = (uint8_t)(s + 1);
	}
	for (i = 0; i < nb_bindings; i++) {
		uint64_t vn = b[i].vn & FCR_VN_SOURCE;

		/* no memory for the map: the frames' own FCF MACs, as before */
		if (slot != NULL && b[i].fcf != 0 && b[i].fcf <= nb_fcfs)
			vn |= (uint64_t)slot[b[i].fcf - 1] << FCR_VN_FCF_SHIFT;
		if (fcr_tables_binding_restore(t, b[i].vlan, b[i].wwpn, b[i].fcid, vn,
					       b[i].enode, now, ticks_per_ms) == 0) {
			/* before the paths: a restored redirect's rules carry it */
			fcr_tables_binding_node(t, b[i].vlan, b[i].wwpn, b[i].wwnn, 0);
			restored++;
		}
	}
	free(slot);
	return restored;
}
