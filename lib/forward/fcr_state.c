/* SPDX-License-Identifier: BSD-3-Clause */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_hash_crc.h>

#include "fcr_state.h"

static void
put_le(uint8_t *p, uint64_t v, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++, v >>= 8)
		p[i] = (uint8_t)v;
}

static uint64_t
get_le(const uint8_t *p, unsigned int n)
{
	uint64_t v = 0;

	while (n-- > 0)
		v = v << 8 | p[n];
	return v;
}

uint32_t
fcr_state_crc(const uint8_t *p, size_t len)
{
	uint32_t crc = 0xFFFFFFFFu;

	/* rte_hash_crc takes a 32-bit length: large buffers in pieces */
	while (len > 0) {
		uint32_t n = len > (1u << 30) ? 1u << 30 : (uint32_t)len;

		crc = rte_hash_crc(p, n, crc);
		p += n;
		len -= n;
	}
	return ~crc;
}

size_t
fcr_state_size(uint32_t nb_bindings, uint32_t nb_fcfs, size_t node_len)
{
	return FCR_STATE_HDR_LEN + node_len + (size_t)nb_bindings * FCR_STATE_BINDING_LEN +
	       (size_t)nb_fcfs * FCR_STATE_FCF_LEN + 4;
}

int
fcr_state_begin(struct fcr_state_enc *e, uint8_t *buf, size_t cap, const char *node,
		uint64_t written, uint32_t fka_ms)
{
	size_t n = strlen(node);

	memset(e, 0, sizeof(*e));
	if (n == 0 || n > FCR_STATE_NODE_MAX || cap < FCR_STATE_HDR_LEN + n)
		return -1;
	e->buf = buf;
	e->cap = cap;
	memset(buf, 0, FCR_STATE_HDR_LEN);
	memcpy(buf, FCR_STATE_MAGIC, 8);
	put_le(buf + 8, FCR_STATE_VERSION, 4);
	put_le(buf + 12, n, 4);
	put_le(buf + 16, written, 8);
	put_le(buf + 32, fka_ms, 4);
	memcpy(buf + FCR_STATE_HDR_LEN, node, n);
	e->len = FCR_STATE_HDR_LEN + n;
	return 0;
}

int
fcr_state_put_binding(struct fcr_state_enc *e, const struct fcr_state_binding *b)
{
	uint8_t *p;

	if (e->buf == NULL || e->nb_fcfs != 0 || e->nb_paths != 0 || e->nb_names != 0 ||
	    e->cap - e->len < FCR_STATE_BINDING_LEN)
		return -1;
	p = e->buf + e->len;
	put_le(p, b->wwpn, 8);
	put_le(p + 8, b->vn, 8);
	put_le(p + 16, b->enode, 8);
	put_le(p + 24, b->fcid, 4);
	put_le(p + 28, b->vlan, 2);
	put_le(p + 30, b->fcf, 2);
	e->len += FCR_STATE_BINDING_LEN;
	e->nb_bindings++;
	return 0;
}

int
fcr_state_put_fcf(struct fcr_state_enc *e, const struct fcr_state_fcf *f)
{
	uint8_t *p;

	if (e->buf == NULL || e->nb_paths != 0 || e->nb_names != 0 ||
	    e->cap - e->len < FCR_STATE_FCF_LEN)
		return -1;
	p = e->buf + e->len;
	memset(p, 0, FCR_STATE_FCF_LEN);
	put_le(p, f->vlan, 2);
	p[2] = f->map_known;
	p[3] = f->current;
	put_le(p + 4, f->fc_map, 4);
	memcpy(p + 8, f->mac, 6);
	put_le(p + 16, f->name, 8);
	e->len += FCR_STATE_FCF_LEN;
	e->nb_fcfs++;
	return 0;
}

int
fcr_state_put_path(struct fcr_state_enc *e, const struct fcr_state_path *x)
{
	uint8_t *p;

	if (e->buf == NULL || e->nb_names != 0 || e->cap - e->len < FCR_STATE_PATH_LEN)
		return -1;
	p = e->buf + e->len;
	memset(p, 0, FCR_STATE_PATH_LEN);
	put_le(p, x->host, 8);
	put_le(p + 8, x->target, 8);
	put_le(p + 16, x->vi, 8);
	put_le(p + 24, x->vt, 8);
	put_le(p + 32, x->vlan, 2);
	p[34] = x->cutover;
	e->len += FCR_STATE_PATH_LEN;
	e->nb_paths++;
	return 0;
}

int
fcr_state_put_name(struct fcr_state_enc *e, uint64_t wwnn)
{
	if (e->buf == NULL || e->nb_names >= e->nb_bindings || e->cap - e->len < 8)
		return -1;
	put_le(e->buf + e->len, wwnn, 8);
	e->len += 8;
	e->nb_names++;
	return 0;
}

size_t
fcr_state_end(struct fcr_state_enc *e)
{
	/* the node names not put: not known */
	while (e->buf != NULL && e->nb_names < e->nb_bindings)
		if (fcr_state_put_name(e, 0) < 0)
			return 0;
	if (e->buf == NULL || e->cap - e->len < 4)
		return 0;
	put_le(e->buf + 24, e->nb_bindings, 4);
	put_le(e->buf + 28, e->nb_fcfs, 4);
	put_le(e->buf + 36, e->nb_paths, 4);
	put_le(e->buf + 40, e->len + 4, 8);
	put_le(e->buf + e->len, fcr_state_crc(e->buf, e->len), 4);
	e->len += 4;
	return e->len;
}

static int
zeros(const uint8_t *p, size_t n)
{
	while (n-- > 0)
		if (*p++ != 0)
			return 0;
	return 1;
}

#define WHY(...) do { snprintf(why, why_len, __VA_ARGS__); return -1; } while (0)

/* The node names' bytes (version 3: 8 a binding, after the paths). */
static uint64_t
names_len(const struct fcr_state_info *info)
{
	return info->version >= 3 ? (uint64_t)info->nb_bindings * 8 : 0;
}

int
fcr_state_header(const uint8_t *buf, size_t len, const struct fcr_state_expect *exp,
		 struct fcr_state_info *info, char *why, size_t why_len)
{
	uint64_t flen;
	uint32_t crc, want;

	memset(info, 0, sizeof(*info));
	if (len < 12)
		WHY("truncated: %zu bytes, less than a header", len);
	if (memcmp(buf, FCR_STATE_MAGIC, 8) != 0)
		WHY("not a state file (no FCRSTATE magic)");
	info->version = (uint32_t)get_le(buf + 8, 4);
	/* another version may lay out its fields otherwise: nothing more is read */
	if (info->version < 1 || info->version > FCR_STATE_VERSION)
		WHY("format version %" PRIu32 ", this program reads versions 1 to %u",
		    info->version, FCR_STATE_VERSION);
	if (len < FCR_STATE_HDR_LEN + 4)
		WHY("truncated: %zu bytes, less than a header", len);
	flen = get_le(buf + 40, 8);
	if (flen != len)
		WHY("truncated or extended: its header says %" PRIu64 " bytes, the file has %zu",
		    flen, len);
	crc = (uint32_t)get_le(buf + len - 4, 4);
	want = fcr_state_crc(buf, len - 4);
	if (crc != want)
		WHY("checksum mismatch: CRC32C 0x%08" PRIx32 " stored, 0x%08" PRIx32 " computed",
		    crc, want);
	info->node_len = (uint32_t)get_le(buf + 12, 4);
	info->written = get_le(buf + 16, 8);
	info->nb_bindings = (uint32_t)get_le(buf + 24, 4);
	info->nb_fcfs = (uint32_t)get_le(buf + 28, 4);
	info->fka_ms = (uint32_t)get_le(buf + 32, 4);
	info->nb_paths = (uint32_t)get_le(buf + 36, 4);
	if ((info->version == 1 && info->nb_paths != 0) || !zeros(buf + 48, 16))
		WHY("reserved header bytes not zero");
	if (info->node_len == 0 || info->node_len > FCR_STATE_NODE_MAX)
		WHY("node identity of %" PRIu32 " bytes (1 to %u)", info->node_len,
		    FCR_STATE_NODE_MAX);
	if (info->nb_bindings > exp->max_bindings)
		WHY("%" PRIu32 " bindings, more than this node's --max-bindings %" PRIu32,
		    info->nb_bindings, exp->max_bindings);
	if (info->nb_fcfs > FCR_STATE_MAX_FCFS)
		WHY("%" PRIu32 " FCFs, more than one a VLAN and %u others", info->nb_fcfs,
		    FCR_STATE_MAX_FCFS - 4096);
	if (info->nb_paths > exp->max_paths)
		WHY("%" PRIu32 " redirect paths, more than this node's --max-redirects %" PRIu32,
		    info->nb_paths, exp->max_paths);
	if (fcr_state_size(info->nb_bindings, info->nb_fcfs, info->node_len) +
	    (uint64_t)info->nb_paths * FCR_STATE_PATH_LEN + names_len(info) != len)
		WHY("%" PRIu32 " bindings, %" PRIu32 " FCFs and %" PRIu32 " paths do not make "
		    "%zu bytes", info->nb_bindings, info->nb_fcfs, info->nb_paths, len);
	memcpy(info->node, buf + FCR_STATE_HDR_LEN, info->node_len);
	info->node[info->node_len] = '\0';
	if (strlen(info->node) != info->node_len || strcmp(info->node, exp->node) != 0)
		WHY("written by another node ('%.80s'; this node is '%.80s')", info->node,
		    exp->node);
	return 0;
}

static int
mac_ok(uint64_t mac48)
{
	/* not multicast (the first byte's low bit), not all zeros */
	return mac48 != 0 && !(mac48 >> 40 & 1);
}

/* A MAC as fcr_vn_pack lays it: its first byte in bits 40-47. */
static uint64_t
mac48(const uint8_t mac[6])
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < 6; i++)
		v = v << 8 | mac[i];
	return v;
}

static int
by_wwpn(const void *a, const void *b)
{
	const struct fcr_state_binding *x = a, *y = b;

	if (x->vlan != y->vlan)
		return x->vlan < y->vlan ? -1 : 1;
	return x->wwpn < y->wwpn ? -1 : x->wwpn > y->wwpn;
}

static int
by_fcid(const void *a, const void *b)
{
	const struct fcr_state_binding *x = a, *y = b;

	if (x->vlan != y->vlan)
		return x->vlan < y->vlan ? -1 : 1;
	return x->fcid < y->fcid ? -1 : x->fcid > y->fcid;
}

/* b sorted by cmp: the second of the first two equal, or NULL. */
static const struct fcr_state_binding *
first_twin(struct fcr_state_binding *b, uint32_t n, int (*cmp)(const void *, const void *))
{
	uint32_t i;

	if (n < 2)
		return NULL;
	qsort(b, n, sizeof(*b), cmp);
	for (i = 1; i < n; i++)
		if (cmp(&b[i - 1], &b[i]) == 0)
			return &b[i];
	return NULL;
}

static int
binding_check(const uint8_t *p, const struct fcr_state_expect *exp,
	      const struct fcr_state_info *info, uint32_t i, struct fcr_state_binding *b,
	      char *why, size_t why_len)
{
	unsigned int port;

	b->wwpn = get_le(p, 8);
	b->vn = get_le(p + 8, 8);
	b->enode = get_le(p + 16, 8);
	b->fcid = (uint32_t)get_le(p + 24, 4);
	b->vlan = (uint16_t)get_le(p + 28, 2);
	b->fcf = (uint16_t)get_le(p + 30, 2);
	port = (unsigned int)(b->vn >> 48) & 0xFF;
	if (info->version < 3 && b->fcf != 0)
		WHY("binding %" PRIu32 ": reserved bytes not zero", i);
	if (b->fcf > info->nb_fcfs)
		WHY("binding %" PRIu32 ": FCF %u (the file has %" PRIu32 ")", i, b->fcf,
		    info->nb_fcfs);
	if (b->vlan >= 4096)
		WHY("binding %" PRIu32 ": VLAN %u (not below 4096)", i, b->vlan);
	if (b->fcid == 0 || b->fcid > 0xFFFFFF)
		WHY("binding %" PRIu32 ": FCID 0x%" PRIx32 " (not a 24-bit FCID other than 0)",
		    i, b->fcid);
	if (b->wwpn == 0)
		WHY("binding %" PRIu32 ": WWPN 0", i);
	if (b->vn >> 56 != 0)
		WHY("binding %" PRIu32 ": flags in its source word", i);
	if (port >= exp->nb_ports)
		WHY("binding %" PRIu32 ": port %u (this node has %u)", i, port, exp->nb_ports);
	if (port < 32 && (exp->fabric_mask >> port & 1))
		WHY("binding %" PRIu32 ": port %u is a fabric port (--fabric-ports)", i, port);
	if (!mac_ok(b->vn & 0xFFFFFFFFFFFFull))
		WHY("binding %" PRIu32 ": MAC multicast or zero", i);
	if (b->enode != 0 && (b->enode >> 60 != 0 || (b->enode >> 48 & 0xFFF) != b->vlan ||
			      !mac_ok(b->enode & 0xFFFFFFFFFFFFull)))
		WHY("binding %" PRIu32 ": ENode key not of its VLAN or of a unicast MAC", i);
	return 0;
}

int
fcr_state_records(const uint8_t *buf, size_t len, const struct fcr_state_expect *exp,
		  const struct fcr_state_info *info, struct fcr_state_binding *b,
		  struct fcr_state_fcf *f, char *why, size_t why_len)
{
	uint64_t vlans[4096 / 64] = { 0 };
	struct fcr_state_fcf *x, *y;
	const uint8_t *p = buf + FCR_STATE_HDR_LEN + info->node_len;
	const struct fcr_state_binding *t;
	uint32_t i;

	const uint8_t *names = buf + fcr_state_size(info->nb_bindings, info->nb_fcfs,
						     info->node_len) - 4 +
			       (size_t)info->nb_paths * FCR_STATE_PATH_LEN;

	if (fcr_state_size(info->nb_bindings, info->nb_fcfs, info->node_len) +
	    (uint64_t)info->nb_paths * FCR_STATE_PATH_LEN + names_len(info) != len)
		WHY("%zu bytes, not what its header counts", len);
	for (i = 0; i < info->nb_bindings; i++, p += FCR_STATE_BINDING_LEN) {
		if (binding_check(p, exp, info, i, &b[i], why, why_len) < 0)
			return -1;
		b[i].wwnn = info->version >= 3 ? get_le(names + (size_t)i * 8, 8) : 0;
	}
	for (i = 0; i < info->nb_fcfs; i++, p += FCR_STATE_FCF_LEN) {
		x = &f[i];
		x->vlan = (uint16_t)get_le(p, 2);
		x->map_known = p[2];
		/* before version 3 every FCF is its VLAN's */
		x->current = info->version < 3 ? (p[3] == 0) : p[3];
		x->fc_map = (uint32_t)get_le(p + 4, 4);
		memcpy(x->mac, p + 8, 6);
		x->name = get_le(p + 16, 8);
		if (x->vlan >= 4096 || x->current > 1 || !zeros(p + 14, 2) || x->map_known > 1 ||
		    x->fc_map > 0xFFFFFF || !mac_ok(mac48(x->mac)))
			WHY("FCF %" PRIu32 ": VLAN, FC-MAP, MAC or reserved bytes out of range", i);
		if (!x->current)
			continue;
		if (vlans[x->vlan >> 6] >> (x->vlan & 63) & 1)
			WHY("FCF %" PRIu32 ": a second FCF of VLAN %u's own", i, x->vlan);
		vlans[x->vlan >> 6] |= 1ull << (x->vlan & 63);
	}
	/* at most some thousands: every pair is cheap enough once at start */
	for (x = f; x < f + info->nb_fcfs; x++)
		for (y = f; y < x; y++)
			if (x->vlan == y->vlan && memcmp(x->mac, y->mac, 6) == 0)
				WHY("FCF %u: a second record of VLAN %u FCF %02x:%02x:%02x:%02x:%02x:%02x",
				    (unsigned int)(x - f), x->vlan, x->mac[0], x->mac[1], x->mac[2],
				    x->mac[3], x->mac[4], x->mac[5]);
	for (i = 0; i < info->nb_bindings; i++)
		if (b[i].fcf != 0 && f[b[i].fcf - 1].vlan != b[i].vlan)
			WHY("binding %" PRIu32 ": its FCF is of VLAN %u, it of VLAN %u", i,
			    f[b[i].fcf - 1].vlan, b[i].vlan);
	if ((t = first_twin(b, info->nb_bindings, by_wwpn)) != NULL)
		WHY("two bindings of VLAN %u WWPN %016" PRIx64, t->vlan, t->wwpn);
	if ((t = first_twin(b, info->nb_bindings, by_fcid)) != NULL)
		WHY("two bindings of VLAN %u FCID 0x%06" PRIx32, t->vlan, t->fcid);
	return 0;
}

static int
by_pair(const void *a, const void *b)
{
	const struct fcr_state_path *x = a, *y = b;

	if (x->vlan != y->vlan)
		return x->vlan < y->vlan ? -1 : 1;
	if (x->host != y->host)
		return x->host < y->host ? -1 : 1;
	return x->target < y->target ? -1 : x->target > y->target;
}

int
fcr_state_paths(const uint8_t *buf, size_t len, const struct fcr_state_info *info,
		struct fcr_state_path *p, char *why, size_t why_len)
{
	size_t off = fcr_state_size(info->nb_bindings, info->nb_fcfs, info->node_len) - 4;
	uint32_t i;

	if (off + (uint64_t)info->nb_paths * FCR_STATE_PATH_LEN + names_len(info) + 4 != len)
		WHY("%zu bytes, not what its header counts", len);
	for (i = 0; i < info->nb_paths; i++) {
		const uint8_t *q = buf + off + (size_t)i * FCR_STATE_PATH_LEN;
		struct fcr_state_path *x = &p[i];

		x->host = get_le(q, 8);
		x->target = get_le(q + 8, 8);
		x->vi = get_le(q + 16, 8);
		x->vt = get_le(q + 24, 8);
		x->vlan = (uint16_t)get_le(q + 32, 2);
		x->cutover = q[34];
		if (x->vlan >= 4096 || x->cutover > 1 || !zeros(q + 35, 5))
			WHY("path %" PRIu32 ": VLAN, flags or reserved bytes out of range", i);
		if (x->host == 0 || x->target == 0 || x->vi == 0 || x->vt == 0 ||
		    x->host == x->target || x->host == x->vi || x->host == x->vt ||
		    x->target == x->vi || x->target == x->vt || x->vi == x->vt)
			WHY("path %" PRIu32 ": a WWPN 0, or two members alike", i);
	}
	if (info->nb_paths > 1) {
		qsort(p, info->nb_paths, sizeof(*p), by_pair);
		for (i = 1; i < info->nb_paths; i++)
			if (by_pair(&p[i - 1], &p[i]) == 0)
				WHY("two paths of VLAN %u host %016" PRIx64 " target %016" PRIx64,
				    p[i].vlan, p[i].host, p[i].target);
	}
	return 0;
}
