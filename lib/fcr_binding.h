/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Bindings: (VLAN, WWPN) <-> FCID, configured or learned from logins. Each
 * (VLAN, WWPN) a redirect or a binding mentions is one "name"; a name keeps
 * the list of redirects that refer to it, so a rebinding or a logout touches
 * exactly those redirects (no scan of all redirects). Writer only.
 */
#ifndef FCR_BINDING_H
#define FCR_BINDING_H

#include <stdint.h>

struct fcr_change_log;

#define FCR_FCID_NONE UINT32_MAX
#define FCR_NAME_NONE UINT32_MAX

enum fcr_bind_origin {
	FCR_BIND_NONE = 0, /* known only because a redirect names it */
	FCR_BIND_STATIC,
	FCR_BIND_LEARNED,
};

const char *fcr_bind_origin_name(enum fcr_bind_origin o);

struct fcr_name {
	uint64_t wwpn;
	uint16_t vlan;
	uint8_t origin;      /* enum fcr_bind_origin */
	uint8_t in_use;
	uint32_t fcid;       /* FCR_FCID_NONE when unbound */
	uint8_t sflags;      /* replication: FCR_SF_* */
	uint32_t nb_refs;
	uint32_t cap_refs;
	uint32_t *refs;      /* redirect ids that name this port */
	uint64_t version;    /* replication: version of the binding */
};

struct fcr_binding_table {
	struct rte_hash *by_wwpn; /* (vlan, wwpn) -> name index */
	struct rte_hash *by_fcid; /* (vlan, fcid) -> name index, bound names only */
	struct fcr_name *names;
	uint32_t *free_idx;
	uint32_t nb_free;
	uint32_t capacity;
	uint32_t nb_bound;
	struct fcr_change_log *log; /* replication, when attached */
};

struct fcr_binding_table *fcr_binding_table_create(const char *name,
						   uint32_t capacity, int socket);
void fcr_binding_table_free(struct fcr_binding_table *bt);

/* Name index for (vlan, wwpn), created unbound when `create`; FCR_NAME_NONE
 * when absent (or no room). */
uint32_t fcr_name_get(struct fcr_binding_table *bt, uint16_t vlan,
		      uint64_t wwpn, int create);
/* Name bound to (vlan, fcid), or FCR_NAME_NONE. */
uint32_t fcr_name_by_fcid(const struct fcr_binding_table *bt, uint16_t vlan,
			  uint32_t fcid);

/*
 * Bind a name to an FCID. An FCID held by another name is taken from it
 * (the fabric gave it to this port): *evicted is that name, or
 * FCR_NAME_NONE. Returns 1 if the binding changed, 0 if it was already so.
 */
int fcr_name_bind(struct fcr_binding_table *bt, uint32_t n, uint32_t fcid,
		  enum fcr_bind_origin origin, uint32_t *evicted);
/* Remove the FCID; returns 1 if it was bound. */
int fcr_name_unbind(struct fcr_binding_table *bt, uint32_t n);

int fcr_name_ref_add(struct fcr_binding_table *bt, uint32_t n, uint32_t redirect);
void fcr_name_ref_del(struct fcr_binding_table *bt, uint32_t n, uint32_t redirect);
/* Drop the name if nothing refers to it and it is not bound. */
void fcr_name_maybe_free(struct fcr_binding_table *bt, uint32_t n);

#endif /* FCR_BINDING_H */
