/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Multipath: the other paths of a redirected pair. A host reaches a LUN
 * through several ports of its own and of the target's (two fabrics, a
 * port each); a redirect steers one (host port, target port). The
 * multipath software spreads the host's I/O over every path it has, so a
 * path of the same two nodes left plain carries the host's data to the
 * target past the service node: in cleartext, in front of an encrypting
 * one. fcredirect groups its active redirects by (VLAN, host node name,
 * target node name), the node names each VN_Port gave at its fabric login,
 * and looks for plain flows between a port of one node and a port of the
 * other: at each new flow, and in a pass over the flow table every 10 s.
 * Each redirect of a group shows how many such flows there are (`redirect
 * list`); a group's first one is logged and counted. Ports whose login
 * fcredirect did not see have no node name here: their paths are not
 * recognised. The tables lcore's only.
 */
#ifndef FCR_PATHS_H
#define FCR_PATHS_H

#include <stdint.h>

struct fcr_redirect_table;
struct fcr_tables;

/* A group of redirects: its members, and the plain flows between its
 * nodes' ports (unredirected: as of the last pass, and those found since;
 * counting: the pass under way). */
struct fcr_path_group {
	uint32_t members;
	uint32_t unredirected;
	uint32_t counting;
	uint64_t example;    /* one such flow's key (fcr_flow_key) */
};

struct fcr_paths {
	struct rte_hash *h;        /* (vlan, host node, target node) -> group */
	struct fcr_path_group *g;  /* by the hash's key position */
	uint32_t entries;          /* g[]'s */
	/* the groups' nodes, host's and target's, counted by a hash of the
	 * node name (FCR_PATHS_NODE_BITS): a flow whose S_ID's node has 0
	 * here joins no group, found with one binding lookup */
	uint8_t *node_refs;
	uint32_t iter;             /* the pass's place in the flow table */
};

#define FCR_PATHS_NODE_BITS 16

struct fcr_paths *fcr_paths_create(const char *name, uint32_t capacity, int socket);
void fcr_paths_free(struct fcr_paths *p);

/* A redirect's group as its state says now: a member while it is active
 * and both its host's and its target's node names are known. */
void fcr_paths_update(struct fcr_redirect_table *rt, uint32_t id);

/* A plain flow added (vlan, S_ID, D_ID; key): 1 when it joins the ports
 * of a group's two nodes (counted with the group; a group's first noted:
 * FCR_NOTE_MULTIPATH). */
int fcr_paths_flow_added(struct fcr_tables *t, uint64_t key);

/* Look at up to `budget` flow entries of the pass; a pass's end sets each
 * group's count. */
void fcr_paths_tick(struct fcr_tables *t, uint32_t budget);

/* The redirects of the same VLAN, host node and target node as redirect
 * id (itself first; by its members' node names now, active or not): up to
 * max ids in ids[]; returns how many. Only itself when a node name is not
 * known. */
unsigned int fcr_paths_members(const struct fcr_redirect_table *rt, uint32_t id, uint32_t *ids,
			       unsigned int max);

/* The unredirected flows of a redirect's group (0: none, or in none), and
 * one of them in *example. */
uint32_t fcr_paths_unredirected(const struct fcr_redirect_table *rt, uint32_t id,
				uint64_t *example);

#endif /* FCR_PATHS_H */
