/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The state file's format (`--state-file`): what a restart must not lose,
 * the learned bindings, the FCFs and the redirected pairs' paths, as bytes. Pure: encoding into a
 * caller's flat buffer and decoding from one; the program reads and
 * writes the file (app/state_file.c).
 *
 * Little-endian, fixed-width fields:
 *
 *   header, 64 bytes
 *     0   8  magic "FCRSTATE"
 *     8   4  format version (FCR_STATE_VERSION)
 *    12   4  node identity's length N (1..FCR_STATE_NODE_MAX)
 *    16   8  when written: wall clock, Unix seconds
 *    24   4  learned bindings B
 *    28   4  FCFs F
 *    32   4  the FCF's keep-alive period, ms (fka_ms; 0: none)
 *    36   4  redirect paths P (version 2; 0 in version 1)
 *    40   8  the file's length: 64 + N + B * 32 + F * 24 + P * 40
 *            (+ B * 8 in version 3) + 4
 *    48  16  0
 *   node identity, N bytes (no NUL): the node that wrote it
 *   B binding records, 32 bytes each
 *     0   8  WWPN (not 0)
 *     8   8  VN_Port source word: MAC in bits 0-47 (unicast), the edge
 *            port it logged in through in bits 48-55, nothing above
 *    16   8  its ENode (fcr_enode_key: MAC, VLAN in 48-59), 0: none
 *    24   4  FCID (24 bits, not 0)
 *    28   2  VLAN (< 4096)
 *    30   2  version 3: its FCF, the FCF record's index + 1 (an FCF of its
 *            VLAN; 0: not known); 0 before
 *   F FCF records, 24 bytes each
 *     0   2  VLAN (< 4096)
 *     2   1  map_known: the VLAN's FC-MAP is from its advertisements (0, 1)
 *     3   1  version 3: 1 the VLAN's FCF (its last advertiser, one a VLAN
 *            at most), 0 another FCF of the VLAN; 0 before (every record
 *            is its VLAN's FCF)
 *     4   4  the VLAN's FC-MAP (24 bits)
 *     8   6  the FCF's MAC (unicast)
 *    14   2  0
 *    16   8  the FCF's name (switch name)
 *   P redirect path records, 40 bytes each (version 2): a redirect whose
 *   pair went through its service node (active), or was in a cutover
 *     0   8  host WWPN
 *     8   8  target WWPN
 *    16   8  VI WWPN
 *    24   8  VT WWPN (the four not 0, no two alike)
 *    32   2  VLAN (< 4096)
 *    34   1  1: in a cutover (or a removed redirect's, still draining), 0: not
 *    35   5  0
 *   version 3: B node names, 8 bytes each, the bindings' in their order
 *   (the node name its login request gave; 0: not known)
 *   CRC32C (Castagnoli, as rte_hash_crc computes it: initial value
 *   0xFFFFFFFF, the result inverted) of every byte before it, 4 bytes.
 *
 * A decoder takes a file whole or not at all: every field above is
 * checked, and no two bindings share a (VLAN, WWPN) or a (VLAN, FCID), no
 * two paths a (VLAN, host, target), no two FCFs a (VLAN, MAC), before the
 * caller applies any of it. Versions 1 (no paths) and 2 (one FCF a VLAN)
 * are read as well.
 */
#ifndef FCR_STATE_H
#define FCR_STATE_H

#include <stddef.h>
#include <stdint.h>

#define FCR_STATE_MAGIC "FCRSTATE"
#define FCR_STATE_VERSION 3u
#define FCR_STATE_PATH_LEN 40u
#define FCR_STATE_HDR_LEN 64u
#define FCR_STATE_BINDING_LEN 32u
#define FCR_STATE_FCF_LEN 24u
#define FCR_STATE_NODE_MAX 255u
/* one a VLAN, and the registry's others */
#define FCR_STATE_MAX_FCFS (4096u + 64u)

struct fcr_state_binding {
	uint64_t wwpn;
	uint64_t vn;      /* MAC | port << 48 */
	uint64_t enode;   /* fcr_enode_key, or 0 */
	uint32_t fcid;
	uint16_t vlan;
	uint16_t fcf;     /* its FCF: the FCF record's index + 1, or 0 */
	uint64_t wwnn;    /* its node name, or 0 (version 3) */
};

struct fcr_state_fcf {
	uint64_t name;
	uint32_t fc_map;
	uint16_t vlan;
	uint8_t map_known;
	uint8_t current;  /* the VLAN's FCF (every record before version 3) */
	uint8_t mac[6];
};

struct fcr_state_path {
	uint64_t host, target, vi, vt;
	uint16_t vlan;
	uint8_t cutover;
};

/* What a header says. */
struct fcr_state_info {
	uint32_t version;
	uint64_t written;         /* Unix seconds */
	uint32_t nb_bindings;
	uint32_t nb_fcfs;
	uint32_t fka_ms;
	uint32_t nb_paths;
	uint32_t node_len;
	char node[FCR_STATE_NODE_MAX + 1]; /* NUL-terminated copy */
};

/* What a file must agree with to be taken. */
struct fcr_state_expect {
	const char *node;         /* this node's identity */
	uint32_t max_bindings;    /* more is refused before anything is read */
	uint16_t nb_ports;        /* a binding's port is below it ... */
	uint32_t fabric_mask;     /* ... and not a fabric port */
	uint32_t max_paths;       /* more is refused (--max-redirects) */
};

/* The bytes a file of nb_bindings and nb_fcfs written by `node` takes,
 * without paths (FCR_STATE_PATH_LEN each) and node names (8 bytes a
 * binding, version 3: FCR_STATE_NAME_LEN). */
#define FCR_STATE_NAME_LEN 8u
size_t fcr_state_size(uint32_t nb_bindings, uint32_t nb_fcfs, size_t node_len);

/*
 * Encoding into buf (cap bytes, at least fcr_state_size of what goes in):
 * begin writes the header and the node, put_* append records (the
 * bindings first, then the FCFs, then the paths, then the bindings' node
 * names in their order), end fills in the counts and the length and
 * appends the CRC. begin returns 0 or -1 (a node of 1 to
 * FCR_STATE_NODE_MAX bytes, the header does not fit); put_* -1 when the
 * record does not fit or comes out of order; end returns the file's
 * length, or 0 when the CRC does not fit.
 */
struct fcr_state_enc {
	uint8_t *buf;
	size_t cap;
	size_t len;
	uint32_t nb_bindings;
	uint32_t nb_fcfs;
	uint32_t nb_paths;
	uint32_t nb_names;
};
int fcr_state_begin(struct fcr_state_enc *e, uint8_t *buf, size_t cap, const char *node,
		    uint64_t written, uint32_t fka_ms);
int fcr_state_put_binding(struct fcr_state_enc *e, const struct fcr_state_binding *b);
int fcr_state_put_fcf(struct fcr_state_enc *e, const struct fcr_state_fcf *f);
/* After the FCFs. */
int fcr_state_put_path(struct fcr_state_enc *e, const struct fcr_state_path *p);
/* After the paths, one a binding, in their order (wwnn: 0 not known); end
 * puts 0 for those not put. */
int fcr_state_put_name(struct fcr_state_enc *e, uint64_t wwnn);
size_t fcr_state_end(struct fcr_state_enc *e);

/*
 * Decoding, whole or not at all. fcr_state_header checks the magic, the
 * version, the node (exp->node), the length against len and the counts,
 * the bound on bindings, and the CRC; fills *info. Then the caller, who
 * knows the counts, gives arrays of info->nb_bindings and info->nb_fcfs
 * to fcr_state_records, which checks every record and that no two
 * bindings share a (VLAN, WWPN) or a (VLAN, FCID) (b comes back sorted
 * by (VLAN, FCID), each with its node name). Each returns 0, or -1 with
 * the reason in why (one line, no path).
 */
int fcr_state_header(const uint8_t *buf, size_t len, const struct fcr_state_expect *exp,
		     struct fcr_state_info *info, char *why, size_t why_len);
int fcr_state_records(const uint8_t *buf, size_t len, const struct fcr_state_expect *exp,
		      const struct fcr_state_info *info, struct fcr_state_binding *b,
		      struct fcr_state_fcf *f, char *why, size_t why_len);
/* Then the paths, into p[info->nb_paths], each checked. */
int fcr_state_paths(const uint8_t *buf, size_t len, const struct fcr_state_info *info,
		    struct fcr_state_path *p, char *why, size_t why_len);

/* CRC32C of len bytes (rte_hash_crc, standard form: 0xE3069283 for "123456789"). */
uint32_t fcr_state_crc(const uint8_t *p, size_t len);

#endif /* FCR_STATE_H */
