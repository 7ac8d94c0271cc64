/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Bindings: (VLAN, WWPN) <-> FCID, configured or learned from logins. Each
 * (VLAN, WWPN) a redirect or a binding mentions has one entry, bound to an
 * FCID or not yet; an entry keeps the list of redirects that refer to it,
 * so a rebinding or a logout touches exactly those redirects (no scan of
 * all redirects). The tables lcore's only, but for
 * the VN_Port table: each bound (VLAN, FCID) with where its frames may come
 * from, which the workers read lock-free to check the frames of edge ports
 * (the FIP snooping bridge's ACL, FC-BB-5 Annex D).
 */
#ifndef FCR_BINDING_H
#define FCR_BINDING_H

#include <stdint.h>

struct fcr_change_log;

#define FCR_FCID_NONE UINT32_MAX
#define FCR_BINDING_NONE UINT32_MAX

struct rte_rcu_qsbr;

/*
 * A VN_Port's source, one word the workers read atomically: its MAC in
 * bits 0-47, the port it logged in through in bits 48-55 (FCR_VN_ANY_PORT:
 * any), bit 56 set for any MAC. A static binding allows any port and MAC
 * (the operator vouches for it); a login, the port and MAC the fabric
 * granted.
 */
#define FCR_VN_ANY_PORT 0xFFu
#define FCR_VN_ANY_MAC (1ull << 56)
/* told to log in again (a cutover) and not yet back: nothing goes to it,
 * nothing it still sends goes on */
#define FCR_VN_LEAVING (1ull << 57)
/* bits 58-63: the FCF its login was accepted by, as its slot in the
 * tables' FCF registry plus one (fcr_tables.h; 0: not known): the MAC a
 * frame to it comes from, and one from it goes to, when the frame was not
 * the FCF's own (a redirect's leg). Local to this node: never written to
 * the state file or sent to a peer as such. */
#define FCR_VN_FCF_SHIFT 58
#define FCR_VN_FCF_MASK (0x3Full << FCR_VN_FCF_SHIFT)
/* what a VN_Port's source is without the FCF and the flags */
#define FCR_VN_SOURCE ((1ull << 56) - 1)

static inline unsigned int
fcr_vn_fcf(uint64_t vn)
{
	return (unsigned int)(vn >> FCR_VN_FCF_SHIFT);
}
#define FCR_VN_ANY (FCR_VN_ANY_MAC | (uint64_t)FCR_VN_ANY_PORT << 48)

static inline uint64_t
fcr_vn_pack(const uint8_t mac[6], unsigned int port)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < 6; i++)
		v = v << 8 | mac[i];
	return v | (uint64_t)(port & 0xFF) << 48;
}

/* The MAC in bits 0-47 of a packed word (a VN_Port's source word, an
 * ENode key). */
static inline void
fcr_vn_mac(uint64_t w, uint8_t mac[6])
{
	int i;

	for (i = 5; i >= 0; i--, w >>= 8)
		mac[i] = (uint8_t)w;
}

/* May a frame from src_mac on in_port carry this VN_Port's S_ID? */
static inline int
fcr_vn_allows(uint64_t vn, const uint8_t *src_mac, uint16_t in_port)
{
	unsigned int port = (unsigned int)(vn >> 48) & 0xFF;

	if (vn == 0 || (port != FCR_VN_ANY_PORT && port != in_port))
		return 0;
	if (vn & FCR_VN_ANY_MAC)
		return 1;
	return fcr_vn_pack(src_mac, 0) == (vn & 0xFFFFFFFFFFFFull);
}

/* The VN_Port table's key. */
static inline uint64_t
fcr_vn_key(uint16_t vlan, uint32_t fcid)
{
	return (uint64_t)vlan << 32 | fcid;
}

/*
 * An ENode's edge port, in the VN_Port table under a key of its own (bit
 * 63, which no (VLAN, FCID) key has; enode: fcr_enode_key), its word the
 * ENode's MAC and port (fcr_vn_pack). An ENode MAC belongs to the edge
 * port it logged in through over FIP until it times out (FC-BB-5 Annex D:
 * a snooping bridge's dynamic filters do the same): the workers drop its
 * FIP frames and fabric logins arriving on any other port.
 */
#define FCR_VN_ENODE_BIT (1ull << 63)

static inline uint64_t
fcr_vn_enode_key(uint64_t enode)
{
	return enode | FCR_VN_ENODE_BIT;
}

/* May the ENode whose owner word is `own` (0: none) send on in_port? */
static inline int
fcr_vn_enode_allows(uint64_t own, uint16_t in_port)
{
	return own == 0 || ((unsigned int)(own >> 48) & 0xFF) == in_port;
}
enum fcr_bind_origin {
	FCR_BIND_NONE = 0, /* known only because a redirect names it */
	FCR_BIND_STATIC,
	FCR_BIND_LEARNED,
};

const char *fcr_bind_origin_name(enum fcr_bind_origin o);

struct fcr_binding {
	uint64_t wwpn;
	uint64_t wwnn;       /* its node name, from its login request; 0: not known */
	uint16_t vlan;
	uint8_t origin;      /* enum fcr_bind_origin */
	uint8_t in_use;
	uint32_t fcid;       /* FCR_FCID_NONE when unbound */
	uint8_t sflags;      /* replication: FCR_SF_* */
	uint32_t nb_refs;
	uint32_t cap_refs;
	uint32_t *refs;      /* redirect ids that name this port */
	uint64_t version;    /* replication: version of the binding */
	uint64_t vn;         /* bound: where its frames may come from (fcr_vn_pack) */
	uint64_t enode;      /* learned over FIP: its ENode (fcr_enode_key); 0 */
	uint32_t logins;     /* fabric logins learned from: a cutover waits for one */
	uint64_t since;      /* when the login that bound it was seen (the workers'
			      * TSC); 0: not a login seen here (static, restored,
			      * a peer's) */
	/* Where its last login came from, kept when it is unbound: while a
	 * redirect names it, a login through another port or ENode does not
	 * move it (fcr_tables: logins_pinned). Cleared by `binding unpin`. */
	uint8_t pinned;
	uint8_t pin_port;
	uint64_t pin_enode;  /* 0: any ENode (a login over FCoE, an operator's pin) */
	uint32_t pin_refused; /* logins of it refused so */
};

/* Learned from a login through a port of this node: one port, one MAC (a
 * static binding, or one a peer learned with no port here, has neither).
 * What the state file keeps and what a peer cabled alike can use. */
static inline int
fcr_binding_learned_here(const struct fcr_binding *nm)
{
	return nm->origin == FCR_BIND_LEARNED && !(nm->vn & FCR_VN_ANY_MAC) &&
	       ((nm->vn >> 48) & 0xFF) != FCR_VN_ANY_PORT;
}

struct fcr_binding_table {
	struct rte_hash *by_wwpn; /* (vlan, wwpn) -> binding index */
	struct rte_hash *by_fcid; /* (vlan, fcid) -> binding index, bound ones only */
	struct rte_hash *vn_ports; /* (vlan, fcid) -> vn word; workers read it */
	struct fcr_binding *entry;
	uint32_t *free_idx;
	uint32_t nb_free;
	uint32_t capacity;
	uint32_t nb_bound;
	int socket;               /* where the table and its refs live */
	/* bumped after every change to vn_ports (release), read by the
	 * workers before they look up (acquire): a worker's cached vn word
	 * is good while the generation it was read in is the current one */
	uint64_t vn_gen;
	struct fcr_change_log *log; /* replication, when attached */
};

/*
 * A worker's cache in front of vn_ports: VN_Ports are few (thousands in a
 * fabric) against flows (millions), and every frame from the fabric, every
 * redirect leg and every frame on an edge port looks one up. Direct-mapped
 * by key; an entry counts only in the generation it was filled in, so any
 * bind, unbind or leaving mark empties every worker's cache at once.
 */
#define FCR_VN_CACHE_SIZE 1024
struct fcr_vn_cache_entry {
	uint64_t key;
	uint64_t vn;
	uint64_t gen;   /* 0: empty (the table's generations start at 1) */
};
struct fcr_vn_cache {
	struct fcr_vn_cache_entry e[FCR_VN_CACHE_SIZE];
};

/* qsbr: the workers' RCU variable (NULL when no worker reads concurrently). */
struct fcr_binding_table *fcr_binding_table_create(const char *name,
						   uint32_t capacity,
						   struct rte_rcu_qsbr *qsbr,
						   int socket);
void fcr_binding_table_free(struct fcr_binding_table *bt);

/* Name index for (vlan, wwpn), created unbound when `create`; FCR_BINDING_NONE
 * when absent (or no room). */
uint32_t fcr_binding_get(struct fcr_binding_table *bt, uint16_t vlan,
		      uint64_t wwpn, int create);
/* A new unbound binding for (vlan, wwpn), which the caller knows has none
 * (fcr_binding_get without create just said so); FCR_BINDING_NONE when no
 * room. */
uint32_t fcr_binding_new(struct fcr_binding_table *bt, uint16_t vlan, uint64_t wwpn);
/* Name bound to (vlan, fcid), or FCR_BINDING_NONE. */
uint32_t fcr_binding_by_fcid(const struct fcr_binding_table *bt, uint16_t vlan,
			  uint32_t fcid);

/*
 * Bind a (VLAN, WWPN) to an FCID, its frames allowed from `vn`. other: the
 * binding that holds the FCID on n's VLAN now (fcr_binding_by_fcid; the
 * caller has it at hand), or FCR_BINDING_NONE. An FCID held by another
 * binding is taken from it (the fabric gave it to this port): *evicted is
 * that binding, or FCR_BINDING_NONE. Returns 1 if the binding changed, 0 if
 * it was already so (its origin and vn updated), -ENOSPC.
 */
int fcr_binding_bind(struct fcr_binding_table *bt, uint32_t n, uint32_t fcid,
		  enum fcr_bind_origin origin, uint64_t vn, uint32_t other,
		  uint32_t *evicted);

/*
 * Worker side: the vn words of n (<= 64) VN_Port keys (fcr_vn_key); 0
 * where none is bound (fcr_vn_allows refuses 0).
 */
void fcr_vn_lookup_bulk(const struct fcr_binding_table *bt, const uint64_t *keys,
			unsigned int n, uint64_t *vn);
/* fcr_vn_lookup_bulk through a worker's cache: same results. */
void fcr_vn_lookup_cached(const struct fcr_binding_table *bt, struct fcr_vn_cache *c,
			  const uint64_t *keys, unsigned int n, uint64_t *vn);
/* Remove the FCID; returns 1 if it was bound. */
int fcr_binding_unbind(struct fcr_binding_table *bt, uint32_t n);
/* Mark a bound VN_Port FCR_VN_LEAVING until its next login rebinds it.
 * 0, -ENOENT (not bound). */
int fcr_binding_leaving(struct fcr_binding_table *bt, uint32_t n);

/* Own the ENode (fcr_enode_key) to edge port `port` (0, -ENOSPC), or
 * free it. */
int fcr_binding_enode_own(struct fcr_binding_table *bt, uint64_t enode, unsigned int port);
void fcr_binding_enode_free(struct fcr_binding_table *bt, uint64_t enode);
/* The edge port that owns the ENode, or FCR_VN_ANY_PORT. */
unsigned int fcr_binding_enode_port(const struct fcr_binding_table *bt, uint64_t enode);

int fcr_binding_ref_add(struct fcr_binding_table *bt, uint32_t n, uint32_t redirect);
void fcr_binding_ref_del(struct fcr_binding_table *bt, uint32_t n, uint32_t redirect);
/* Drop the entry if nothing refers to it and it is not bound. */
void fcr_binding_maybe_free(struct fcr_binding_table *bt, uint32_t n);

#endif /* FCR_BINDING_H */
