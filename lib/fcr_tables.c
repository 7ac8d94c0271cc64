/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_hash.h>
#include <rte_hash_crc.h>
#include <rte_malloc.h>
#include <rte_prefetch.h>

#include "fcr_change.h"
#include "fcr_tables.h"

/*
 * A login in flight. An accept does not say which request it answers, and a
 * fabric accept names the new FCID but not the port, so requests wait here:
 * fabric logins (FLOGI/FDISC) by the requester's MAC and exchange, since
 * they have no FCID yet; port logins (PLOGI) by exchange and FC addresses.
 */
enum { PEND_FABRIC = 1, PEND_PLOGI = 2 };

struct pending_key {
	uint8_t kind;
	uint8_t zero;
	uint16_t vlan;
	uint16_t ox_id;
	uint8_t mac[6];
	uint32_t requester; /* PLOGI: requester's and responder's FCIDs */
	uint32_t responder;
};

#define PENDING_MAX 4096

struct fcr_tables *
fcr_tables_create(const char *name, const struct fcr_tables_params *p)
{
	char n[64];
	struct rte_hash_parameters hp = {
		.name = n,
		.entries = PENDING_MAX,
		.key_len = sizeof(struct pending_key),
		.hash_func = rte_hash_crc,
		.socket_id = p->socket,
	};
	struct fcr_tables *t;

	t = rte_zmalloc_socket(name, sizeof(*t), 0, p->socket);
	if (t == NULL) {
		rte_errno = ENOMEM;
		return NULL;
	}
	snprintf(n, sizeof(n), "%s_fl", name);
	t->flows = fcr_flow_table_create(n, p->max_flows, p->nb_workers,
					 p->qsbr, p->socket);
	snprintf(n, sizeof(n), "%s_rt", name);
	t->routes = fcr_route_table_create(n, p->max_routes, p->qsbr, p->socket);
	snprintf(n, sizeof(n), "%s_nm", name);
	t->names = fcr_binding_table_create(n, p->max_names, p->socket);
	snprintf(n, sizeof(n), "%s_rd", name);
	if (t->flows && t->names)
		t->redirects = fcr_redirect_table_create(n, p->max_redirects,
							 t->flows, t->names,
							 p->socket);
	snprintf(n, sizeof(n), "%s_pl", name);
	t->pending = rte_hash_create(&hp);
	if (!t->flows || !t->routes || !t->names || !t->redirects || !t->pending) {
		fcr_tables_free(t);
		return NULL;
	}
	t->redirects->notify = &t->notify;
	return t;
}

int
fcr_dirty_list_init(struct fcr_dirty_list *l, uint32_t cap, int socket)
{
	l->idx = rte_malloc_socket(NULL, sizeof(uint32_t) * cap, 0, socket);
	l->cap = cap;
	l->n = 0;
	l->overflow = 0;
	return l->idx == NULL ? -ENOMEM : 0;
}

void
fcr_dirty_list_free(struct fcr_dirty_list *l)
{
	rte_free(l->idx);
	l->idx = NULL;
}

int
fcr_tables_attach_log(struct fcr_tables *t, int socket)
{
	struct fcr_change_log *log;

	log = rte_zmalloc_socket("fcr_log", sizeof(*log), 0, socket);
	if (log == NULL)
		return -ENOMEM;
	t->log = log;
	log->cap_tomb = 65536;
	log->tomb = rte_malloc_socket(NULL, sizeof(struct fcr_rec) * log->cap_tomb,
				      0, socket);
	if (log->tomb == NULL ||
	    fcr_dirty_list_init(&log->flows, t->flows->capacity, socket) < 0 ||
	    fcr_dirty_list_init(&log->names, t->names->capacity, socket) < 0 ||
	    fcr_dirty_list_init(&log->redirects, t->redirects->capacity, socket) < 0 ||
	    fcr_flow_table_attach_log(t->flows, log, socket) < 0)
		return -ENOMEM;
	t->names->log = log;
	t->redirects->log = log;
	t->routes->log = log;
	return 0;
}

void
fcr_tables_free(struct fcr_tables *t)
{
	if (t == NULL)
		return;
	if (t->log != NULL) {
		fcr_dirty_list_free(&t->log->flows);
		fcr_dirty_list_free(&t->log->names);
		fcr_dirty_list_free(&t->log->redirects);
		rte_free(t->log->tomb);
		rte_free(t->log);
	}
	fcr_redirect_table_free(t->redirects);
	fcr_binding_table_free(t->names);
	fcr_route_table_free(t->routes);
	fcr_flow_table_free(t->flows);
	rte_hash_free(t->pending);
	rte_free(t);
}

static void
note_binding(struct fcr_tables *t, enum fcr_note_kind kind, uint32_t n,
	     uint32_t old_fcid)
{
	const struct fcr_name *nm = &t->names->names[n];
	struct fcr_note note = {
		.kind = kind, .vlan = nm->vlan, .origin = nm->origin,
		.wwpn = nm->wwpn, .fcid = nm->fcid, .old_fcid = old_fcid,
	};

	fcr_notify(&t->notify, &note);
}

/* Bind and rebuild the redirects of both the name and the one it evicted. */
static int
bind(struct fcr_tables *t, uint16_t vlan, uint64_t wwpn, uint32_t fcid,
     enum fcr_bind_origin origin)
{
	uint32_t n = fcr_name_get(t->names, vlan, wwpn, 1), evicted, old;
	int rc;

	if (n == FCR_NAME_NONE)
		return -ENOSPC;
	/* a login that confirms a configured binding leaves it configured */
	if (origin == FCR_BIND_LEARNED && t->names->names[n].origin == FCR_BIND_STATIC &&
	    t->names->names[n].fcid == (fcid & FCR_FCID_MASK))
		return 0;
	old = t->names->names[n].fcid;
	rc = fcr_name_bind(t->names, n, fcid & FCR_FCID_MASK, origin, &evicted);
	if (rc < 0)
		return rc;
	if (evicted != FCR_NAME_NONE) {
		t->st.bindings_evicted++;
		note_binding(t, FCR_NOTE_UNBOUND, evicted, fcid & FCR_FCID_MASK);
		fcr_redirect_name_changed(t->redirects, evicted);
		fcr_name_maybe_free(t->names, evicted);
	}
	if (rc > 0) {
		note_binding(t, FCR_NOTE_BOUND, n, old);
		fcr_redirect_name_changed(t->redirects, n);
		if (origin == FCR_BIND_LEARNED)
			t->st.bindings_learned++;
	}
	return 0;
}

int
fcr_tables_binding_add(struct fcr_tables *t, uint16_t vlan, uint64_t wwpn,
		       uint32_t fcid, enum fcr_bind_origin origin)
{
	return bind(t, vlan, wwpn, fcid, origin);
}

static int
unbind(struct fcr_tables *t, uint32_t n)
{
	uint32_t old = t->names->names[n].fcid;

	if (!fcr_name_unbind(t->names, n))
		return -ENOENT;
	note_binding(t, FCR_NOTE_UNBOUND, n, old);
	fcr_redirect_name_changed(t->redirects, n);
	fcr_name_maybe_free(t->names, n);
	return 0;
}

int
fcr_tables_binding_del(struct fcr_tables *t, uint16_t vlan, uint64_t wwpn)
{
	uint32_t n = fcr_name_get(t->names, vlan, wwpn, 0);

	if (n == FCR_NAME_NONE)
		return -ENOENT;
	return unbind(t, n);
}

static void
pending_add(struct fcr_tables *t, const struct pending_key *k, uint64_t wwpn)
{
	if (rte_hash_add_key_data(t->pending, k, (void *)(uintptr_t)wwpn) < 0) {
		/* Thousands of logins with no reply: forget them all
		 * rather than refuse new ones. */
		t->st.pending_overflow += (uint64_t)rte_hash_count(t->pending);
		rte_hash_reset(t->pending);
		rte_hash_add_key_data(t->pending, k, (void *)(uintptr_t)wwpn);
	}
}

static int
pending_take(struct fcr_tables *t, const struct pending_key *k, uint64_t *wwpn)
{
	void *data;

	if (rte_hash_lookup_data(t->pending, k, &data) < 0)
		return -ENOENT;
	rte_hash_del_key(t->pending, k);
	*wwpn = (uint64_t)(uintptr_t)data;
	return 0;
}

static void
fabric_key(struct pending_key *k, const struct fcr_event *ev)
{
	memset(k, 0, sizeof(*k));
	k->kind = PEND_FABRIC;
	k->vlan = ev->vlan;
	k->ox_id = ev->ox_id;
	memcpy(k->mac, ev->enode, 6);
}

static void
plogi_key(struct pending_key *k, const struct fcr_event *ev, uint32_t requester,
	  uint32_t responder)
{
	memset(k, 0, sizeof(*k));
	k->kind = PEND_PLOGI;
	k->vlan = ev->vlan;
	k->ox_id = ev->ox_id;
	k->requester = requester;
	k->responder = responder;
}

/* An accept to FLOGI/FDISC: FIP says which request it answers; in FCoE it
 * comes from the login server and carries service parameters (an accept to
 * a LOGO is 4 bytes). */
static int
is_fabric_reply(const struct fcr_event *ev)
{
	if (ev->via_fip)
		return ev->answers == FCR_LOGIN_FLOGI || ev->answers == FCR_LOGIN_FDISC;
	return ev->s_id == FCR_FCID_FLOGI && ev->has_wwpn;
}

/* Accepts wait here too, marked, when they overtake their request (two
 * workers draining in turn): the pairing does not depend on the order. */
#define PENDING_ACCEPT (1ull << 63)

static void
login_event(struct fcr_tables *t, const struct fcr_event *ev)
{
	struct pending_key k;
	uint64_t wwpn;
	uint32_t n;

	t->st.logins_seen++;
	switch (ev->kind) {
	case FCR_LOGIN_FLOGI:
	case FCR_LOGIN_FDISC:
		fabric_key(&k, ev);
		if (pending_take(t, &k, &wwpn) == 0 && (wwpn & PENDING_ACCEPT)) {
			t->st.acc_unmatched--; /* its accept came first */
			bind(t, ev->vlan, ev->wwpn, (uint32_t)wwpn & FCR_FCID_MASK,
			     FCR_BIND_LEARNED);
			break;
		}
		pending_add(t, &k, ev->wwpn);
		break;
	case FCR_LOGIN_PLOGI:
		/* the sender's own WWPN and FCID; the accept will bind the
		 * responder, once paired with this request */
		if (!ev->has_wwpn || ev->s_id == 0)
			break;
		bind(t, ev->vlan, ev->wwpn, ev->s_id, FCR_BIND_LEARNED);
		plogi_key(&k, ev, ev->s_id, ev->d_id);
		pending_add(t, &k, ev->wwpn);
		break;
	case FCR_LOGIN_ACC:
		if (is_fabric_reply(ev)) {
			/* the fabric grants its D_ID to the requester */
			fabric_key(&k, ev);
			if (pending_take(t, &k, &wwpn) == 0 && !(wwpn & PENDING_ACCEPT)) {
				bind(t, ev->vlan, wwpn, ev->d_id, FCR_BIND_LEARNED);
			} else {
				/* no request yet: counted until one pairs with it */
				t->st.acc_unmatched++;
				pending_add(t, &k, PENDING_ACCEPT | ev->d_id);
			}
			break;
		}
		/* an accept to our PLOGI carries the responder's WWPN; an
		 * accept to anything else (PRLI, RNID, ...) is not read */
		plogi_key(&k, ev, ev->d_id, ev->s_id);
		if (ev->has_wwpn && pending_take(t, &k, &wwpn) == 0)
			bind(t, ev->vlan, ev->wwpn, ev->s_id, FCR_BIND_LEARNED);
		break;
	case FCR_LOGIN_RJT:
		/* the login failed: forget it */
		if (is_fabric_reply(ev))
			fabric_key(&k, ev);
		else
			plogi_key(&k, ev, ev->d_id, ev->s_id);
		pending_take(t, &k, &wwpn);
		break;
	case FCR_LOGIN_LOGO:
		/* only the port that holds the FCID can log it out */
		n = fcr_name_get(t->names, ev->vlan, ev->wwpn, 0);
		if (n != FCR_NAME_NONE &&
		    t->names->names[n].fcid == (ev->port_id & FCR_FCID_MASK) &&
		    unbind(t, n) == 0)
			t->st.logouts++;
		break;
	default:
		break;
	}
}

/* A frame of a flow that has entry idx reached a worker that found none:
 * the rule came after the worker looked, so its frames went plain before
 * their rule existed. */
static inline void
flow_known(struct fcr_tables *t, const struct fcr_event *ev, uint32_t idx)
{
	uint32_t owner = t->flows->owner[idx];

	if (owner != FCR_NO_OWNER)
		t->redirects->r[owner].frames_before += ev->count;
}

/* A flow event whose key is not in the table (as of its lookup). */
static void
flow_unknown(struct fcr_tables *t, const struct fcr_event *ev)
{
	uint64_t key = ev->flow_key;

	if (ev->type == FCR_EV_FLOW_MISSES)
		return; /* plain frames of a flow still being added */
	if (fcr_flow_set(t->flows, key,
			 fcr_action(fcr_flow_key_sid(key), fcr_flow_key_did(key),
				    FCR_LEG_PLAIN),
			 FCR_NO_OWNER) < 0)
		t->st.flow_table_full++;
	else
		t->st.flows_added++;
}

void
fcr_tables_event(struct fcr_tables *t, const struct fcr_event *ev)
{
	int idx;

	switch (ev->type) {
	case FCR_EV_FLOW_FIRST:
	case FCR_EV_FLOW_MISSES:
		idx = fcr_flow_find(t->flows, ev->flow_key);
		if (idx >= 0)
			flow_known(t, ev, (uint32_t)idx);
		else
			flow_unknown(t, ev);
		break;
	case FCR_EV_LOGIN:
		login_event(t, ev);
		break;
	}
}

static inline int
is_flow_event(const struct fcr_event *ev)
{
	return ev->type == FCR_EV_FLOW_FIRST || ev->type == FCR_EV_FLOW_MISSES;
}

/*
 * Flow events ev[0..n) (n <= FCR_TABLES_BURST, no login among them), their
 * keys looked up together. Nothing a flow event does removes an entry or
 * moves it to another index (only a login, through a redirect, can), so an
 * entry found here is still the key's entry when its event's turn comes.
 * A key not found may have been added by an earlier event of the run: those
 * are looked up again, in cache by now, as fcr_tables_event would.
 */
static void
flow_run(struct fcr_tables *t, const struct fcr_event *ev, unsigned int n)
{
	uint64_t keys[FCR_TABLES_BURST];
	uint32_t idx[FCR_TABLES_BURST];
	unsigned int i = 0;

	do /* n >= 1 */
		keys[i] = ev[i].flow_key;
	while (++i < n);
	fcr_flow_lookup_bulk(t->flows, keys, n, idx);
	for (i = 0; i < n; i++)
		if (idx[i] != FCR_FLOW_NONE)
			rte_prefetch0(&t->flows->owner[idx[i]]);
	for (i = 0; i < n; i++) {
		if (idx[i] != FCR_FLOW_NONE)
			flow_known(t, &ev[i], idx[i]);
		else
			fcr_tables_event(t, &ev[i]);
	}
}

void
fcr_tables_events(struct fcr_tables *t, const struct fcr_event *ev,
		  unsigned int n)
{
	unsigned int i = 0, j;

	while (i < n) {
		if (!is_flow_event(&ev[i])) {
			fcr_tables_event(t, &ev[i++]);
			continue;
		}
		for (j = i + 1; j < n && j - i < FCR_TABLES_BURST &&
		     is_flow_event(&ev[j]); j++)
			;
		flow_run(t, &ev[i], j - i);
		i = j;
	}
}

void
fcr_tables_expire(struct fcr_tables *t, uint32_t n, uint32_t max_deleted)
{
	t->st.flows_expired += fcr_flow_expire(t->flows, n, max_deleted);
}
