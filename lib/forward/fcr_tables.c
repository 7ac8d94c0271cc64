/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_hash.h>
#include <rte_hash_crc.h>
#include <rte_malloc.h>
#include <rte_cycles.h>
#include <rte_prefetch.h>

#include "fcr_build.h"
#include "fcr_change.h"
#include "fcr_fcoe.h"
#include "fcr_enode.h"
#include "fcr_paths.h"
#include "fcr_sn.h"
#include "fcr_tables.h"

/*
 * A fabric login or logout in flight, keyed by exchange and ENode: a reply
 * does not say which request it answers, and a fabric accept names the new
 * FCID but not the port, so requests wait here for their reply. A reply
 * that overtakes its request (two workers) waits here for it.
 */
enum { PEND_LOGIN = 1, PEND_LOGO = 2, PEND_ACCEPT = 3 };

struct pending_key {
	uint16_t vlan;
	uint16_t ox_id;
	uint8_t mac[6];     /* the ENode's: source of the request, destination of the reply */
	uint8_t zero[6];
};

struct fcr_pending {
	uint64_t wwpn;      /* LOGIN: the requester; LOGO: the port logging out */
	uint64_t wwnn;      /* LOGIN: the requester's node name (0: not said) */
	uint64_t vn;        /* ACCEPT: the MAC granted (port filled from the request) */
	uint32_t fcid;      /* LOGO: the N_Port ID logging out; ACCEPT: the FCID granted */
	uint8_t kind;
	uint8_t port;       /* LOGIN, LOGO: the port the request came in on */
};

#define PENDING_MAX 4096
/* ENodes watched for keep-alives: far more than one fabric puts behind a
 * forwarder */
#define ENODES_MAX 65536u

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
	t->bindings = fcr_binding_table_create(n, p->max_bindings, p->qsbr, p->socket);
	snprintf(n, sizeof(n), "%s_rd", name);
	if (t->flows && t->bindings)
		t->redirects = fcr_redirect_table_create(n, p->max_redirects,
							 t->flows, t->bindings,
							 p->socket);
	snprintf(n, sizeof(n), "%s_en", name);
	t->enodes = fcr_enode_table_create(n, RTE_MIN(p->max_bindings, ENODES_MAX), p->socket);
	snprintf(n, sizeof(n), "%s_pl", name);
	t->pending = rte_hash_create(&hp);
	t->pend = rte_zmalloc_socket(NULL, sizeof(*t->pend) * PENDING_MAX, 0, p->socket);
	t->fcf = rte_zmalloc_socket(NULL, sizeof(*t->fcf) * 4096, 0, p->socket);
	t->offered = rte_zmalloc_socket(NULL, sizeof(*t->offered) * FCR_OFFERED_PORTS, 0,
					p->socket);
	t->vlan_fc_map = rte_zmalloc_socket(NULL, sizeof(uint32_t) * 4096, 0, p->socket);
	t->vlan_fc_map_fixed = rte_zmalloc_socket(NULL, sizeof(uint32_t) * 4096, 0, p->socket);
	if (!t->flows || !t->routes || !t->bindings || !t->redirects || !t->pending ||
	    !t->pend || !t->enodes || !t->fcf || !t->offered || !t->vlan_fc_map ||
	    !t->vlan_fc_map_fixed) {
		fcr_tables_free(t);
		return NULL;
	}
	t->redirects->note_hook = &t->note_hook;
	fcr_tables_set_fc_map(t, FCR_FC_MAP_DEFAULT);
	t->fka_ms = FCR_FKA_DEFAULT_MS;
	t->ticks_per_ms = rte_get_tsc_hz() / 1000;
	t->nb_ports = p->nb_ports;
	return t;
}

void
fcr_tables_set_fc_map(struct fcr_tables *t, uint32_t fc_map)
{
	uint32_t v;

	t->fc_map = fc_map & 0xFFFFFF;
	for (v = 0; v < 4096; v++)
		if (!t->fcf[v].map_known && t->vlan_fc_map_fixed[v] == 0)
			__atomic_store_n(&t->vlan_fc_map[v], t->fc_map, __ATOMIC_RELAXED);
}

void
fcr_tables_fix_fc_map(struct fcr_tables *t, uint16_t vlan, uint32_t fc_map)
{
	vlan &= 0xFFF;
	__atomic_store_n(&t->vlan_fc_map_fixed[vlan], (fc_map & 0xFFFFFF) | FCR_FC_MAP_FIXED,
			 __ATOMIC_RELAXED);
	__atomic_store_n(&t->vlan_fc_map[vlan], fc_map & 0xFFFFFF, __ATOMIC_RELAXED);
}

int
fcr_dirty_list_init(struct fcr_dirty_list *l, uint32_t cap, int socket)
{
	l->idx = cap ? rte_malloc_socket(NULL, sizeof(uint32_t) * cap, 0, socket) : NULL;
	l->cap = cap;
	l->n = 0;
	l->overflow = 0;
	return cap && l->idx == NULL ? -ENOMEM : 0;
}

void
fcr_dirty_list_free(struct fcr_dirty_list *l)
{
	rte_free(l->idx);
	l->idx = NULL;
}

/* The room of a kind's list of changed objects: its table's capacity, or
 * 0 for a kind scanned whole (routes: few, and their places move; and a
 * kind not named here). */
static uint32_t
dirty_cap(const struct fcr_tables *t, enum fcr_kind_id kind)
{
	switch (kind) {
	case FCR_KIND_BINDING:
		return t->bindings->capacity;
	case FCR_KIND_REDIRECT:
		return t->redirects->capacity;
	case FCR_KIND_SN:
		return FCR_SN_MAX;
	case FCR_KIND_FLOW:
		return t->flows->capacity;
	default:
		return 0;
	}
}

int
fcr_tables_attach_log(struct fcr_tables *t, int socket)
{
	struct fcr_change_log *log;
	int k;

	log = rte_zmalloc_socket("fcr_log", sizeof(*log), 0, socket);
	if (log == NULL)
		return -ENOMEM;
	t->log = log;
	log->cap_tomb = 65536;
	log->tomb = rte_malloc_socket(NULL, sizeof(log->tomb[0]) * log->cap_tomb,
				      0, socket);
	if (log->tomb == NULL)
		return -ENOMEM;
	for (k = 0; k < FCR_KIND_COUNT; k++)
		if (fcr_dirty_list_init(&log->dirty[k], dirty_cap(t, (enum fcr_kind_id)k),
					socket) < 0)
			return -ENOMEM;
	if (fcr_flow_table_attach_log(t->flows, log, socket) < 0)
		return -ENOMEM;
	t->bindings->log = log;
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
		int k;

		for (k = 0; k < FCR_KIND_COUNT; k++)
			fcr_dirty_list_free(&t->log->dirty[k]);
		rte_free(t->log->tomb);
		rte_free(t->log);
	}
	fcr_redirect_table_free(t->redirects);
	fcr_binding_table_free(t->bindings);
	fcr_route_table_free(t->routes);
	fcr_flow_table_free(t->flows);
	fcr_enode_table_free(t->enodes);
	rte_free(t->fcf);
	rte_free(t->offered);
	rte_free(t->vlan_fc_map);
	rte_free(t->vlan_fc_map_fixed);
	rte_hash_free(t->pending);
	rte_free(t->pend);
	rte_free(t);
}

static void
note_binding(struct fcr_tables *t, enum fcr_note_kind kind, uint32_t n,
	     uint32_t old_fcid)
{
	const struct fcr_binding *nm = &t->bindings->entry[n];
	struct fcr_note note = {
		.kind = kind, .vlan = nm->vlan, .origin = nm->origin,
		.wwpn = nm->wwpn, .fcid = nm->fcid, .old_fcid = old_fcid,
	};

	fcr_note_tell(&t->note_hook, &note);
}

/* Bind binding n (other: the one holding fcid now, or FCR_BINDING_NONE)
 * and rebuild the redirects of both it and the one it evicted. 1 if the
 * binding changed, 0 if it was already so, -ENOSPC. */
static int
bind_at(struct fcr_tables *t, uint32_t n, uint32_t fcid, enum fcr_bind_origin origin,
	uint64_t vn, uint32_t other)
{
	uint32_t evicted, old = t->bindings->entry[n].fcid;
	int rc;

	rc = fcr_binding_bind(t->bindings, n, fcid & FCR_FCID_MASK, origin, vn, other, &evicted);
	if (rc < 0)
		return rc;
	if (evicted != FCR_BINDING_NONE) {
		t->st.bindings_evicted++;
		note_binding(t, FCR_NOTE_UNBOUND, evicted, fcid & FCR_FCID_MASK);
		fcr_redirect_binding_changed(t->redirects, evicted);
		fcr_binding_maybe_free(t->bindings, evicted);
	}
	if (rc > 0) {
		note_binding(t, FCR_NOTE_BOUND, n, old);
		fcr_redirect_binding_changed(t->redirects, n);
	}
	if (rc > 0 || evicted != FCR_BINDING_NONE)
		t->state_gen++;
	return rc;
}

static int
bind(struct fcr_tables *t, uint16_t vlan, uint64_t wwpn, uint32_t fcid,
     enum fcr_bind_origin origin, uint64_t vn)
{
	uint32_t n = fcr_binding_get(t->bindings, vlan, wwpn, 1);

	int rc;

	if (n == FCR_BINDING_NONE)
		return -ENOSPC;
	rc = bind_at(t, n, fcid, origin, vn,
		     fcr_binding_by_fcid(t->bindings, vlan, fcid & FCR_FCID_MASK));
	if (rc > 0 && origin == FCR_BIND_LEARNED)
		t->st.bindings_learned++;
	return rc < 0 ? rc : 0;
}

int
fcr_tables_binding_add(struct fcr_tables *t, uint16_t vlan, uint64_t wwpn,
		       uint32_t fcid, enum fcr_bind_origin origin)
{
	uint32_t n = fcr_binding_get(t->bindings, vlan, wwpn, 0);
	uint8_t fpma[6];

	/* a peer's login confirming a static binding leaves it static */
	if (origin == FCR_BIND_LEARNED && n != FCR_BINDING_NONE &&
	    t->bindings->entry[n].origin == FCR_BIND_STATIC &&
	    t->bindings->entry[n].fcid == (fcid & FCR_FCID_MASK))
		return 0;
	if (origin == FCR_BIND_STATIC)
		return bind(t, vlan, wwpn, fcid, origin, FCR_VN_ANY);
	/* learned at a sync peer: its port there says nothing here */
	fcr_fpma(fpma, fcr_tables_fc_map(t, vlan), fcid & FCR_FCID_MASK);
	return bind(t, vlan, wwpn, fcid, origin, fcr_vn_pack(fpma, FCR_VN_ANY_PORT));
}

static int
unbind(struct fcr_tables *t, uint32_t n)
{
	uint32_t old = t->bindings->entry[n].fcid;

	if (!fcr_binding_unbind(t->bindings, n))
		return -ENOENT;
	t->state_gen++;
	note_binding(t, FCR_NOTE_UNBOUND, n, old);
	fcr_redirect_binding_changed(t->redirects, n);
	fcr_binding_maybe_free(t->bindings, n);
	return 0;
}

int
fcr_tables_binding_del(struct fcr_tables *t, uint16_t vlan, uint64_t wwpn)
{
	uint32_t n = fcr_binding_get(t->bindings, vlan, wwpn, 0);

	if (n == FCR_BINDING_NONE)
		return -ENOENT;
	return unbind(t, n);
}

/* A new entry for k (its callers have just taken k's out), zeroed: NULL
 * only if the hash refuses even after it was emptied. */
static struct fcr_pending *
pending_new(struct fcr_tables *t, const struct pending_key *k)
{
	int32_t pos = rte_hash_add_key(t->pending, k);

	if (pos < 0) {
		/* Thousands of logins with no reply: forget them all
		 * rather than refuse new ones. */
		t->st.pending_overflow += (uint64_t)rte_hash_count(t->pending);
		rte_hash_reset(t->pending);
		pos = rte_hash_add_key(t->pending, k);
		if (pos < 0)
			return NULL;
	}
	memset(&t->pend[pos], 0, sizeof(t->pend[pos]));
	return &t->pend[pos];
}

/* Take k's entry out (copied to *out); -ENOENT when there is none. */
static int
pending_take(struct fcr_tables *t, const struct pending_key *k,
	     struct fcr_pending *out)
{
	/* the slot's data stays ours until the next add: one writer */
	int32_t pos = rte_hash_del_key(t->pending, k);

	if (pos < 0)
		return -ENOENT;
	*out = t->pend[pos];
	return 0;
}

static void
pending_key_of(struct pending_key *k, const struct fcr_event *ev)
{
	memset(k, 0, sizeof(*k));
	k->vlan = ev->vlan;
	k->ox_id = ev->ox_id;
	memcpy(k->mac, ev->enode, 6);
}

/* A reply of the fabric's login server: FIP says which request it answers;
 * in FCoE it comes from FFFFFE (service parameters for a login, 4 bytes
 * for a logout). */
static int
is_fabric_reply(const struct fcr_event *ev)
{
	if (ev->via_fip)
		return ev->answers != FCR_LOGIN_NONE;
	return ev->s_id == FCR_FCID_FLOGI;
}

static int
from_fabric_port(const struct fcr_tables *t, unsigned int port)
{
	return port < 32 && (t->fabric_mask >> port & 1);
}

static int
from_fabric(const struct fcr_tables *t, const struct fcr_event *ev)
{
	return from_fabric_port(t, ev->port);
}

/*
 * A login request (ev) that must not be paired with the fabric's reply: a
 * request with the same key (VLAN, OX_ID, ENode MAC) waits from another
 * port, or the ENode logged in through another edge port. Replacing it
 * would bind the VN_Port the fabric grants behind the wrong port (a
 * station taking a service node's login as it logs in again). Refused,
 * counted by port, noted.
 */
static int
request_conflicts(struct fcr_tables *t, const struct pending_key *k,
		  const struct fcr_event *ev)
{
	int32_t pos = rte_hash_lookup(t->pending, k);
	unsigned int other = FCR_VN_ANY_PORT;
	struct fcr_note note;

	if (pos >= 0 && t->pend[pos].kind != PEND_ACCEPT && t->pend[pos].port != ev->port)
		other = t->pend[pos].port;
	else if (!from_fabric(t, ev))
		other = fcr_binding_enode_port(t->bindings, fcr_enode_key(ev->vlan, ev->enode));
	if (other == FCR_VN_ANY_PORT || other == ev->port)
		return 0;
	t->st.login_conflicts++;
	if (ev->port < FCR_COUNTED_PORTS)
		t->login_conflict[ev->port]++;
	memset(&note, 0, sizeof(note));
	note.kind = FCR_NOTE_LOGIN_CONFLICT;
	note.vlan = ev->vlan;
	note.wwpn = ev->wwpn;
	note.port = ev->port;
	note.other_port = (uint16_t)other;
	note.enode = fcr_enode_key(ev->vlan, ev->enode);
	fcr_note_tell(&t->note_hook, &note);
	return 1;
}

static void
note_static_kept(struct fcr_tables *t, uint16_t vlan, uint64_t wwpn, uint32_t fcid,
		 uint32_t old_fcid, uint64_t other)
{
	struct fcr_note note = {
		.kind = FCR_NOTE_STATIC_KEPT, .vlan = vlan, .wwpn = wwpn, .fcid = fcid,
		.old_fcid = old_fcid, .other_wwpn = other,
	};

	t->st.logins_static_kept++;
	fcr_note_tell(&t->note_hook, &note);
}

/* A redirect names nm and its last login came through another port or
 * ENode than this one (vn: MAC | port, enode: 0 over FCoE). */
static int
pinned_elsewhere(const struct fcr_binding *nm, uint64_t vn, uint64_t enode)
{
	unsigned int port = (unsigned int)(vn >> 48) & 0xFF;

	if (!nm->pinned || nm->nb_refs == 0 || port == FCR_VN_ANY_PORT)
		return 0;
	return port != nm->pin_port || (nm->pin_enode != 0 && enode != nm->pin_enode);
}

static void
login_pinned(struct fcr_tables *t, uint32_t n, uint32_t fcid, uint64_t vn, uint64_t enode)
{
	struct fcr_binding *nm = &t->bindings->entry[n];
	struct fcr_note note = {
		.kind = FCR_NOTE_LOGIN_PINNED, .vlan = nm->vlan, .wwpn = nm->wwpn,
		.fcid = fcid, .port = (uint16_t)(vn >> 48 & 0xFF), .other_port = nm->pin_port,
		.enode = enode,
	};

	t->st.logins_pinned++;
	nm->pin_refused++;
	fcr_note_tell(&t->note_hook, &note);
}

int
fcr_tables_binding_pin(struct fcr_tables *t, uint16_t vlan, uint64_t wwpn, int port)
{
	uint32_t n = fcr_binding_get(t->bindings, vlan, wwpn, 0);
	struct fcr_binding *nm;

	if (n == FCR_BINDING_NONE)
		return -ENOENT;
	nm = &t->bindings->entry[n];
	nm->pinned = port >= 0;
	nm->pin_port = (uint8_t)(port >= 0 ? port : 0);
	nm->pin_enode = 0;
	nm->pin_refused = 0;
	return 0;
}

/* The fabric granted fcid to wwpn, whose request came in on `port`; its
 * frames come from the MAC in vn. A static binding is the operator's word:
 * a login never changes it, nor takes its FCID. restored: from the state
 * file at start, not a login (not counted as one); now: when the login was
 * seen (the session's start, show fip sessions). 0 when it is bound so,
 * -EEXIST (a static binding stands), -ENOSPC. */
static int
learn(struct fcr_tables *t, uint16_t vlan, uint64_t wwpn, uint32_t fcid,
      uint64_t vn, uint64_t enode, int restored, uint64_t now)
{
	struct fcr_binding_table *bt = t->bindings;
	uint32_t n = fcr_binding_get(bt, vlan, wwpn, 0);
	uint32_t o = fcr_binding_by_fcid(bt, vlan, fcid);
	const struct fcr_binding *nm = n != FCR_BINDING_NONE ? &bt->entry[n] : NULL;
	unsigned int vn_port;
	uint64_t old_vn;
	int rc;

	if (nm != NULL && nm->origin == FCR_BIND_STATIC) {
		if (nm->fcid != fcid)
			note_static_kept(t, vlan, wwpn, fcid, nm->fcid, 0);
		return -EEXIST;
	}
	if (o != FCR_BINDING_NONE && o != n && bt->entry[o].origin == FCR_BIND_STATIC) {
		note_static_kept(t, vlan, wwpn, fcid, FCR_FCID_NONE, bt->entry[o].wwpn);
		return -EEXIST;
	}
	if (nm != NULL && !restored && pinned_elsewhere(nm, vn, enode)) {
		login_pinned(t, n, fcid, vn, enode);
		return -EPERM;
	}
	if (n == FCR_BINDING_NONE)
		n = fcr_binding_new(bt, vlan, wwpn);
	if (n == FCR_BINDING_NONE)
		return -ENOSPC;
	old_vn = bt->entry[n].vn;
	rc = bind_at(t, n, fcid, FCR_BIND_LEARNED, vn, o);
	if (rc < 0)
		return rc;
	if (rc > 0 && !restored)
		t->st.bindings_learned++;
	/* the same FCID again, through another port or from another MAC */
	if (bt->entry[n].enode != enode || old_vn != bt->entry[n].vn)
		t->state_gen++;
	bt->entry[n].enode = enode;
	vn_port = (unsigned int)(vn >> 48) & 0xFF;
	if (vn_port != FCR_VN_ANY_PORT) {
		/* pinned where it logged in; its ENode owns that port */
		bt->entry[n].pinned = 1;
		bt->entry[n].pin_port = (uint8_t)vn_port;
		bt->entry[n].pin_enode = enode;
		/* room for one per binding: it cannot fail while this one fits */
		if (enode != 0 && !(t->fabric_mask >> vn_port & 1))
			(void)fcr_binding_enode_own(bt, enode, vn_port);
	}
	bt->entry[n].since = restored ? 0 : now;
	if (restored)
		return 0;
	bt->entry[n].logins++;
	/* a cutover may have waited for this login */
	if (t->redirects->nb_cutover != 0)
		fcr_redirect_binding_changed(t->redirects, n);
	return 0;
}

void
fcr_tables_binding_node(struct fcr_tables *t, uint16_t vlan, uint64_t wwpn, uint64_t wwnn,
			int replicate)
{
	uint32_t n = fcr_binding_get(t->bindings, vlan, wwpn, 0);
	struct fcr_binding *nm;

	if (n == FCR_BINDING_NONE || wwnn == 0)
		return;
	nm = &t->bindings->entry[n];
	if (nm->wwnn == wwnn)
		return;
	nm->wwnn = wwnn;
	t->state_gen++;
	if (replicate && t->log != NULL)
		fcr_change_mark(t->log, FCR_KIND_BINDING, &nm->sflags, n);
	fcr_redirect_node_changed(t->redirects, n);
}

/* A fabric login the fabric accepted (its event ev, whichever of request
 * and reply came last): wwpn bound to fcid, and its node name, replicated. */
static void
learn_login(struct fcr_tables *t, const struct fcr_event *ev, uint64_t wwpn, uint32_t fcid,
	    uint64_t vn, uint64_t wwnn)
{
	if (learn(t, ev->vlan, wwpn, fcid, vn,
		  ev->via_fip ? fcr_enode_key(ev->vlan, ev->enode) : 0, 0, ev->tsc) == 0)
		fcr_tables_binding_node(t, ev->vlan, wwpn, wwnn, 1);
}

int
fcr_tables_binding_restore(struct fcr_tables *t, uint16_t vlan, uint64_t wwpn,
			   uint32_t fcid, uint64_t vn, uint64_t enode, uint64_t now,
			   uint64_t ticks_per_ms)
{
	/* Kept alive, as far as anyone here knows, one keep-alive period
	 * ago: an ENode that does not keep alive within 1.5 periods more is
	 * timed out by fcr_tables_keepalive (2.5 periods) and its bindings
	 * go. That is how restored state is checked against the fabric. */
	uint64_t then = now - (uint64_t)t->fka_ms * ticks_per_ms;
	struct fcr_change_log *log = t->log;
	int rc, muted = 0;

	/* In an HA pair the peer heard the same fabric while this node was
	 * down: its newer state wins over the restored one, which is not
	 * replicated (as a peer's update is not), and a restored ENode is not
	 * timed out here (a standby hears no keep-alive: its timeouts would
	 * unbind every station at the active node; the active node times out
	 * what the fabric lost, and replicates it). */
	if (t->peers_same_ports && log != NULL) {
		muted = log->muted;
		log->muted = 1;
	}
	rc = learn(t, vlan, wwpn, fcid & FCR_FCID_MASK, vn, enode, 1, 0);
	if (t->peers_same_ports && log != NULL)
		log->muted = muted;
	if (rc == 0 && enode != 0) {
		if (!t->peers_same_ports)
			fcr_enode_alive(t->enodes, enode, then);
		fcr_enode_logged_in(t->enodes, enode, then, fcr_tables_vn_fcf(t, vn),
				    (unsigned int)(vn >> 48) & 0xFF);
	}
	return rc;
}

int
fcr_tables_binding_twin(struct fcr_tables *t, uint16_t vlan, uint64_t wwpn,
			uint32_t fcid, uint64_t vn, uint64_t enode, uint64_t now)
{
	unsigned int port = (unsigned int)(vn >> 48) & 0xFF;
	int rc;

	if (port >= FCR_VN_ANY_PORT || (t->nb_ports != 0 && port >= t->nb_ports) ||
	    (port < 32 && (t->fabric_mask >> port & 1)))
		return fcr_tables_binding_add(t, vlan, wwpn, fcid, FCR_BIND_LEARNED);
	rc = learn(t, vlan, wwpn, fcid & FCR_FCID_MASK, vn & (FCR_VN_SOURCE | FCR_VN_FCF_MASK),
		   enode, 1, 0);
	if (rc == 0 && enode != 0)
		fcr_enode_logged_in(t->enodes, enode, now,
				    fcr_tables_vn_fcf(t, vn), port);
	return rc;
}

void
fcr_tables_fcf_set(struct fcr_tables *t, uint16_t vlan, const uint8_t mac[6],
		   uint64_t name, int map_known, uint32_t fc_map)
{
	struct fcr_fcf *f = &t->fcf[vlan & 0xFFF];

	if (!f->known || memcmp(f->mac, mac, 6) != 0 || f->name != name ||
	    (map_known && (!f->map_known ||
			   fcr_tables_fc_map(t, vlan) != (fc_map & 0xFFFFFF))))
		t->state_gen++;
	memcpy(f->mac, mac, 6);
	f->name = name;
	f->known = 1;
	/* the configured FC-MAP stands (a state file from before it was) */
	if (map_known && t->vlan_fc_map_fixed[vlan & 0xFFF] != 0)
		map_known = (fc_map & 0xFFFFFF) == (t->vlan_fc_map_fixed[vlan & 0xFFF] & 0xFFFFFF);
	if (map_known) {
		/* the VLAN's VN_Port MACs are FC-MAP || FCID with the FCF's */
		f->map_known = 1;
		__atomic_store_n(&t->vlan_fc_map[vlan & 0xFFF], fc_map & 0xFFFFFF,
				 __ATOMIC_RELAXED);
	}
}

/* The fabric accepted a logout of wwpn at fcid, asked through req_port: a
 * learned binding goes, if the port that logged in asked (FCR_VN_ANY_PORT:
 * the FCF itself ended it, Clear Virtual Links). */
static void
logout(struct fcr_tables *t, uint16_t vlan, uint64_t wwpn, uint32_t fcid,
       unsigned int req_port, uint64_t req_enode)
{
	uint32_t n = fcr_binding_get(t->bindings, vlan, wwpn, 0);
	const struct fcr_binding *nm;
	unsigned int vn_port;

	if (n == FCR_BINDING_NONE || t->bindings->entry[n].fcid != (fcid & FCR_FCID_MASK))
		return;
	nm = &t->bindings->entry[n];
	vn_port = (unsigned int)(nm->vn >> 48) & 0xFF;
	if (vn_port != FCR_VN_ANY_PORT && req_port != FCR_VN_ANY_PORT && vn_port != req_port)
		return;
	/* over FIP, only the ENode that logged it in logs it out: another
	 * ENode on the same port naming it is refused, whatever the FCF says */
	if (req_enode != 0 && nm->enode != 0 && req_enode != nm->enode) {
		struct fcr_note note = {
			.kind = FCR_NOTE_LOGOUT_REFUSED, .vlan = vlan, .wwpn = wwpn,
			.fcid = nm->fcid, .enode = req_enode, .port = (uint16_t)req_port,
		};

		t->st.logouts_refused++;
		fcr_note_tell(&t->note_hook, &note);
		return;
	}
	if (t->bindings->entry[n].origin == FCR_BIND_STATIC) {
		note_static_kept(t, vlan, wwpn, FCR_FCID_NONE, fcid, 0);
		return;
	}
	if (unbind(t, n) == 0)
		t->st.logouts++;
}

/* A station on an edge port posing as the fabric. */
static void
untrusted(struct fcr_tables *t, const struct fcr_event *ev)
{
	struct fcr_note note = {
		.kind = FCR_NOTE_UNTRUSTED, .vlan = ev->vlan, .port = ev->port,
		.fcid = ev->kind == FCR_LOGIN_CVL ? ev->port_id : ev->d_id,
	};

	t->st.logins_untrusted++;
	fcr_note_tell(&t->note_hook, &note);
}

/* The MAC the fabric granted: a FIP reply's MAC descriptor, else FPMA. */
static uint64_t
granted_vn(const struct fcr_tables *t, const struct fcr_event *ev)
{
	uint8_t mac[6];

	if (ev->via_fip && ev->has_mac)
		return fcr_vn_pack(ev->mac, 0);
	fcr_fpma(mac, fcr_tables_fc_map(t, ev->vlan), ev->d_id);
	return fcr_vn_pack(mac, 0);
}

/* The FCF that accepted a login (the accept's source MAC), as a VN_Port's
 * source word names it; 0 when it never advertised here. */
static uint64_t
accepted_by(const struct fcr_tables *t, const struct fcr_event *ev)
{
	int i = fcr_tables_fcf_slot(t, ev->vlan, ev->fcf);

	return i < 0 ? 0 : (uint64_t)(i + 1) << FCR_VN_FCF_SHIFT;
}

/* A login over FIP through an ENode, asked on port, was accepted (ev: the
 * request or the accept): its keep-alive clock starts again, its FCF is
 * the one that accepted, its port the one it asked through (an edge port). */
static void
enode_logged_in(struct fcr_tables *t, const struct fcr_event *ev, unsigned int port)
{
	if (ev->via_fip && ev->kind != FCR_LOGIN_LOGO)
		fcr_enode_logged_in(t->enodes, fcr_enode_key(ev->vlan, ev->enode), ev->tsc,
				    ev->fcf, from_fabric_port(t, port) ? FCR_VN_ANY_PORT : port);
}

int
fcr_tables_fcf_slot(const struct fcr_tables *t, uint16_t vlan, uint64_t mac)
{
	unsigned int i;

	for (i = 0; i < t->nb_fcfs; i++)
		if (t->fcfs[i].vlan == vlan && t->fcfs[i].mac == mac)
			return (int)i;
	return -ENOENT;
}

int
fcr_tables_fcf_register(struct fcr_tables *t, uint16_t vlan, uint64_t mac, uint64_t name)
{
	int i = fcr_tables_fcf_slot(t, vlan, mac);

	if (i >= 0) {
		/* 0: a peer's word for an FCF, whose name only it says */
		if (name != 0 && t->fcfs[i].name != name) {
			t->state_gen++;
			t->fcfs[i].name = name;
		}
		return i;
	}
	if (t->nb_fcfs >= FCR_FCFS_MAX) {
		t->st.fcfs_untracked++;
		return -ENOSPC;
	}
	/* the slot is whole before a VN_Port's word names it: that word is
	 * published through the VN_Port table, after this store */
	i = (int)t->nb_fcfs;
	t->fcfs[i] = (struct fcr_fcf_seen){ .mac = mac, .name = name, .vlan = vlan };
	__atomic_store_n(&t->nb_fcfs, t->nb_fcfs + 1, __ATOMIC_RELEASE);
	t->state_gen++;
	return i;
}

void
fcr_tables_fcf_map_seen(struct fcr_tables *t, int slot, uint32_t fc_map)
{
	struct fcr_fcf_seen *f;
	unsigned int i;

	if (slot < 0 || (unsigned int)slot >= t->nb_fcfs)
		return;
	f = &t->fcfs[slot];
	f->fc_map = fc_map & 0xFFFFFF;
	if (f->fc_map == 0)
		return;
	for (i = 0; i < t->nb_fcfs; i++) {
		const struct fcr_fcf_seen *o = &t->fcfs[i];
		struct fcr_note note;

		if (o == f || o->vlan != f->vlan || o->fc_map == 0 || o->fc_map == f->fc_map)
			continue;
		t->st.fcf_fc_map_conflicts++;
		if (f->conflict_noted)
			return;
		f->conflict_noted = 1;
		memset(&note, 0, sizeof(note));
		note.kind = FCR_NOTE_FC_MAP_CONFLICT;
		note.vlan = f->vlan;
		note.fcf_mac = f->mac;
		note.fcid = f->fc_map;
		note.enode = o->mac;      /* the other FCF */
		note.old_fcid = o->fc_map;
		fcr_note_tell(&t->note_hook, &note);
		return;
	}
}

int
fcr_tables_fcf_name(const struct fcr_tables *t, uint16_t vlan, uint64_t mac, uint64_t *name)
{
	int i = fcr_tables_fcf_slot(t, vlan, mac);

	/* a slot a peer's binding gave, the FCF not heard here yet: nobody
	 * speaks in its name (a Clear Virtual Link names it) */
	if (i < 0 || t->fcfs[i].name == 0)
		return -ENOENT;
	*name = t->fcfs[i].name;
	return 0;
}

int
fcr_tables_enode_fcf(const struct fcr_tables *t, uint16_t vlan, uint64_t enode,
		     uint8_t mac[6], uint64_t *name)
{
	const struct fcr_enode *e = enode != 0 ? fcr_enode_find(t->enodes, enode) : NULL;
	const struct fcr_fcf *f = &t->fcf[vlan & 0xFFF];

	if (e != NULL && e->fcf != 0 && fcr_tables_fcf_name(t, vlan, e->fcf, name) == 0) {
		fcr_vn_mac(e->fcf, mac);
		return 0;
	}
	if (!f->known)
		return -ENOENT;
	memcpy(mac, f->mac, 6);
	*name = f->name;
	return 0;
}

uint64_t
fcr_tables_relogin_wait(const struct fcr_tables *t)
{
	return (uint64_t)RTE_MAX(t->fka_ms, 5000u) * t->ticks_per_ms;
}

/* Tell whoever runs the tables to make an ENode log in again whole. */
static void
relogin(struct fcr_tables *t, uint16_t vlan, uint64_t key, const struct fcr_enode *e,
	uint64_t fcf_name, int by_operator)
{
	struct fcr_note n = {
		.kind = FCR_NOTE_RELOGIN, .vlan = vlan, .port = e->port, .enode = key,
		.fcf_mac = e->fcf, .fcf_name = fcf_name, .by_operator = (uint8_t)by_operator,
	};

	t->st.enode_relogins++;
	fcr_note_tell(&t->note_hook, &n);
}

unsigned int
fcr_tables_enode_relogin(struct fcr_tables *t, const uint8_t *mac, uint64_t now,
			 unsigned int *unknown_fcf)
{
	const void *k;
	void *data;
	uint32_t iter = 0;
	unsigned int n = 0;
	int32_t pos;

	*unknown_fcf = 0;
	while ((pos = rte_hash_iterate(t->enodes->by_key, &k, &data, &iter)) >= 0) {
		uint64_t key = *(const uint64_t *)k, name;
		uint16_t vlan = (uint16_t)(key >> 48 & 0xFFF);
		struct fcr_enode *e = &t->enodes->e[pos];

		if (mac != NULL && (key & 0xFFFFFFFFFFFFull) != fcr_vn_pack(mac, 0))
			continue;
		if (e->fcf == 0 || fcr_tables_fcf_name(t, vlan, e->fcf, &name) < 0) {
			(*unknown_fcf)++;
			continue;
		}
		fcr_enode_told(t->enodes, pos, now);
		relogin(t, vlan, key, e, name, 1);
		n++;
	}
	return n;
}

/*
 * The trust model (FC-BB-5 Annex D, a FIP snooping bridge's): a request
 * (FLOGI, FDISC, LOGO to the fabric) from any port waits for its reply; only
 * the fabric's reply, arriving on a fabric port, binds or unbinds, and only
 * the port that asked; or the FCF's Clear Virtual Links unbind. A reply or
 * a CVL on an edge port is a station pretending to be the fabric: ignored
 * and counted. PLOGI, N_Port LOGO and their replies never reach here: they
 * teach nothing.
 */
static void
login_event(struct fcr_tables *t, const struct fcr_event *ev)
{
	struct fcr_pending *p, got;
	struct pending_key k;
	unsigned int i;
	uint64_t vn;

	t->st.logins_seen++;
	pending_key_of(&k, ev);
	switch (ev->kind) {
	case FCR_LOGIN_FLOGI:
	case FCR_LOGIN_FDISC:
	case FCR_LOGIN_LOGO:
		if (is_fabric_reply(ev))
			break; /* not a request */
		/* a port logs out only itself */
		if (ev->kind == FCR_LOGIN_LOGO && !ev->via_fip &&
		    (ev->port_id & FCR_FCID_MASK) != ev->s_id)
			break;
		if (request_conflicts(t, &k, ev))
			break;
		if (pending_take(t, &k, &got) == 0 && got.kind == PEND_ACCEPT) {
			/* its accept came first */
			t->st.acc_unmatched--;
			if (ev->kind == FCR_LOGIN_LOGO)
				logout(t, ev->vlan, ev->wwpn, ev->port_id, ev->port,
				       ev->via_fip ? fcr_enode_key(ev->vlan, ev->enode) : 0);
			else
			{
				learn_login(t, ev, ev->wwpn, got.fcid,
					    got.vn | (uint64_t)ev->port << 48, ev->node);
				enode_logged_in(t, ev, ev->port);
			}
			break;
		}
		/* an ENode asking to log in is given a keep-alive period more
		 * before it is told to log in again */
		if (ev->via_fip && ev->kind != FCR_LOGIN_LOGO && !from_fabric(t, ev))
			fcr_enode_asking(t->enodes, fcr_enode_key(ev->vlan, ev->enode), ev->tsc);
		p = pending_new(t, &k);
		if (p == NULL)
			break;
		p->kind = ev->kind == FCR_LOGIN_LOGO ? PEND_LOGO : PEND_LOGIN;
		p->wwpn = ev->wwpn;
		if (ev->kind == FCR_LOGIN_LOGO)
			p->fcid = ev->port_id & FCR_FCID_MASK;
		else
			p->wwnn = ev->node;
		p->port = ev->port;
		break;
	case FCR_LOGIN_CVL:
		/* the FCF ends a VN_Port's virtual link: it has left */
		if (!from_fabric(t, ev)) {
			untrusted(t, ev);
			break;
		}
		logout(t, ev->vlan, ev->wwpn, ev->port_id, FCR_VN_ANY_PORT, 0);
		break;
	case FCR_LOGIN_ACC:
	case FCR_LOGIN_RJT:
		if (!is_fabric_reply(ev))
			break;
		if (!from_fabric(t, ev)) {
			untrusted(t, ev);
			break;
		}
		if (pending_take(t, &k, &got) < 0 || got.kind == PEND_ACCEPT) {
			/* no request yet: counted until one pairs with it */
			if (ev->kind == FCR_LOGIN_RJT)
				break;
			t->st.acc_unmatched++;
			p = pending_new(t, &k);
			if (p == NULL)
				break;
			p->kind = PEND_ACCEPT;
			p->fcid = ev->d_id;
			p->vn = granted_vn(t, ev) | accepted_by(t, ev);
			break;
		}
		if (ev->kind == FCR_LOGIN_RJT)
			break; /* the login failed: forgotten */
		if (got.kind == PEND_LOGO) {
			logout(t, ev->vlan, got.wwpn, got.fcid, got.port,
			       ev->via_fip ? fcr_enode_key(ev->vlan, ev->enode) : 0);
			break;
		}
		/* a login's accept carries service parameters; one without is
		 * no answer to a login */
		if (!ev->via_fip && !ev->has_wwpn)
			break;
		vn = granted_vn(t, ev) | (uint64_t)got.port << 48 | accepted_by(t, ev);
		learn_login(t, ev, got.wwpn, ev->d_id, vn, got.wwnn);
		enode_logged_in(t, ev, got.port);
		break;
	case FCR_LOGIN_KA: {
		/* an ENode behind an edge port is alive; watched from now on */
		uint64_t key = fcr_enode_key(ev->vlan, ev->mac), name;
		int slot;

		if (from_fabric(t, ev))
			break;
		slot = fcr_enode_seen(t->enodes, key, ev->tsc, ev->fcf, ev->port);
		/* one whose login was never seen here (logged in before
		 * fcredirect knew) is made to log in again, so that its
		 * VN_Ports are learned: with a trust model only */
		if (t->fabric_mask != 0 && slot >= 0 &&
		    fcr_tables_fcf_name(t, ev->vlan, ev->fcf, &name) == 0 &&
		    fcr_enode_needs_relogin(t->enodes, slot, ev->tsc, fcr_tables_relogin_wait(t)))
			relogin(t, ev->vlan, key, &t->enodes->e[slot], name, 0);
		break;
	}
	case FCR_LOGIN_ADV:
		if (!from_fabric(t, ev))
			break;
		if (ev->port_id != UINT32_MAX && t->fka_ms != ev->port_id) {
			t->fka_ms = ev->port_id;
			t->state_gen++;
		}
		fcr_tables_fcf_set(t, ev->vlan, ev->mac, ev->name, ev->s_id != 0, ev->s_id);
		fcr_tables_fcf_map_seen(t, fcr_tables_fcf_register(t, ev->vlan,
								     fcr_vn_pack(ev->mac, 0),
								     ev->name), ev->s_id);
		break;
	case FCR_LOGIN_VLANS:
		/* what an ENode's VLAN discovery was told: shown, not acted on */
		if (!from_fabric(t, ev) || ev->port >= FCR_OFFERED_PORTS)
			break;
		for (i = 0; i < ev->port_id && i < FCR_VLANS_MAX; i++) {
			uint16_t v = fcr_event_vlan(ev, i);

			t->offered[ev->port][v >> 6] |= 1ull << (v & 63);
		}
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

	/* exchanges its frames began (a command the entry did not see) are
	 * open on it as much as those the workers counted */
	t->flows->xmissed[idx].cmnds += ev->cmnds;
	t->flows->xmissed[idx].ends += ev->ends;
	if (owner != FCR_NO_OWNER)
		t->redirects->r[owner].frames_before += ev->count;
	else
		t->flows->missed[idx] += ev->count;
}

/* A flow event whose key is not in the table (as of its lookup). */
static void
flow_unknown(struct fcr_tables *t, const struct fcr_event *ev)
{
	uint64_t key = ev->flow_key;

	if (ev->type == FCR_EV_FLOW_MISSES)
		return; /* plain frames of a flow still being added */
	int idx = fcr_flow_set(t->flows, key,
			       fcr_action(fcr_flow_key_sid(key), fcr_flow_key_did(key),
					  FCR_LEG_PLAIN),
			       FCR_NO_OWNER);

	if (idx < 0) {
		t->st.flow_table_full++;
		return;
	}
	t->st.flows_added++;
	t->flows->missed[idx] = ev->count; /* the frames it stands for */
	t->flows->xmissed[idx].cmnds = ev->cmnds;
	t->flows->xmissed[idx].ends = ev->ends;
	fcr_paths_flow_added(t, key);
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

unsigned int
fcr_tables_keepalive(struct fcr_tables *t, uint64_t now, uint64_t ticks_per_ms)
{
	uint64_t gone[16];
	unsigned int n, i;
	uint32_t b;

	if (t->fka_ms == 0)
		return 0;
	n = fcr_enode_expired(t->enodes, now, (uint64_t)t->fka_ms * 5 / 2 * ticks_per_ms,
			      FCR_ENODE_RESET_GRACE_MS * ticks_per_ms, gone, RTE_DIM(gone));
	/* rare (an ENode lost): a scan of the bindings is cheap enough */
	for (i = 0; i < n; i++) {
		t->st.keepalive_timeouts++;
		/* gone: its MAC may log in through another port */
		fcr_binding_enode_free(t->bindings, gone[i]);
		for (b = 0; b < t->bindings->capacity; b++) {
			const struct fcr_binding *e = &t->bindings->entry[b];

			if (e->in_use && e->origin == FCR_BIND_LEARNED &&
			    e->fcid != FCR_FCID_NONE && e->enode == gone[i] &&
			    unbind(t, b) == 0)
				t->st.keepalive_unbound++;
		}
	}
	return n;
}
