/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_hash.h>
#include <rte_hash_crc.h>
#include <rte_malloc.h>

#include "fcr_enode.h"

struct fcr_enode_table *
fcr_enode_table_create(const char *name, uint32_t capacity, int socket)
{
	char hname[RTE_HASH_NAMESIZE];
	struct rte_hash_parameters hp = {
		.name = hname,
		.entries = capacity < 8 ? 8 : capacity,
		.key_len = sizeof(uint64_t),
		.hash_func = rte_hash_crc,
		.socket_id = socket,
	};
	struct fcr_enode_table *et;

	et = rte_zmalloc_socket(name, sizeof(*et), 0, socket);
	if (et == NULL)
		return NULL;
	snprintf(hname, sizeof(hname), "%s_h", name);
	et->capacity = hp.entries;
	et->by_key = rte_hash_create(&hp);
	et->e = rte_zmalloc_socket(NULL, sizeof(*et->e) * et->capacity, 0, socket);
	if (et->by_key == NULL || et->e == NULL) {
		fcr_enode_table_free(et);
		rte_errno = ENOMEM;
		return NULL;
	}
	return et;
}

void
fcr_enode_table_free(struct fcr_enode_table *et)
{
	if (et == NULL)
		return;
	rte_hash_free(et->by_key);
	rte_free(et->e);
	rte_free(et);
}

/* key's slot, a fresh record when it is new. */
static int
slot_of(struct fcr_enode_table *et, uint64_t key, uint64_t now)
{
	int32_t pos = rte_hash_lookup(et->by_key, &key);

	if (pos >= 0)
		return (uint32_t)pos < et->capacity ? pos : -ENOSPC;
	pos = rte_hash_add_key(et->by_key, &key);
	if (pos < 0 || (uint32_t)pos >= et->capacity)
		return -ENOSPC;
	memset(&et->e[pos], 0, sizeof(et->e[pos]));
	et->e[pos].first = now;
	return pos;
}

int
fcr_enode_alive(struct fcr_enode_table *et, uint64_t key, uint64_t now)
{
	int pos = slot_of(et, key, now);

	if (pos >= 0) {
		et->e[pos].last = now;
		et->e[pos].watched = 1;
		et->e[pos].resetting = 0;
	}
	return pos;
}

int
fcr_enode_seen(struct fcr_enode_table *et, uint64_t key, uint64_t now, uint64_t fcf,
	       unsigned int port)
{
	int pos = fcr_enode_alive(et, key, now);

	if (pos >= 0) {
		et->e[pos].fcf = fcf;
		et->e[pos].port = (uint8_t)port;
	}
	return pos;
}

int
fcr_enode_logged_in(struct fcr_enode_table *et, uint64_t key, uint64_t now, uint64_t fcf,
		    unsigned int port)
{
	int pos = slot_of(et, key, now);

	if (pos >= 0) {
		et->e[pos].last = now;
		et->e[pos].logged_in = 1;
		et->e[pos].resetting = 0;
		if (fcf != 0)
			et->e[pos].fcf = fcf;
		/* where a Clear Virtual Link finds it before its first keep-alive */
		if (port < FCR_VN_ANY_PORT)
			et->e[pos].port = (uint8_t)port;
	}
	return pos;
}

void
fcr_enode_asking(struct fcr_enode_table *et, uint64_t key, uint64_t now)
{
	int pos = slot_of(et, key, now);

	if (pos >= 0)
		et->e[pos].first = now;
}

const struct fcr_enode *
fcr_enode_find(const struct fcr_enode_table *et, uint64_t key)
{
	int32_t pos = rte_hash_lookup(et->by_key, &key);

	return pos >= 0 && (uint32_t)pos < et->capacity ? &et->e[pos] : NULL;
}

int
fcr_enode_needs_relogin(struct fcr_enode_table *et, int slot, uint64_t now, uint64_t period)
{
	struct fcr_enode *e;

	if (slot < 0 || (uint32_t)slot >= et->capacity)
		return 0;
	e = &et->e[slot];
	if (e->logged_in || e->fcf == 0 || (int64_t)(now - e->first) < (int64_t)period ||
	    (e->told != 0 && (int64_t)(now - e->told) < (int64_t)(2 * period)))
		return 0;
	e->told = now;
	e->resetting = 1;
	return 1;
}

void
fcr_enode_told(struct fcr_enode_table *et, int slot, uint64_t now)
{
	if (slot >= 0 && (uint32_t)slot < et->capacity) {
		et->e[slot].told = now;
		et->e[slot].resetting = 1;
	}
}

void
fcr_enode_resetting(struct fcr_enode_table *et, uint64_t key)
{
	int32_t pos = rte_hash_lookup(et->by_key, &key);

	if (pos >= 0 && (uint32_t)pos < et->capacity)
		et->e[pos].resetting = 1;
}

unsigned int
fcr_enode_expired(struct fcr_enode_table *et, uint64_t now, uint64_t timeout,
		  uint64_t grace, uint64_t *out, unsigned int max)
{
	const void *k;
	void *data;
	uint32_t iter = 0;
	unsigned int n = 0;
	int32_t pos;

	while (n < max && (pos = rte_hash_iterate(et->by_key, &k, &data, &iter)) >= 0) {
		uint64_t key = *(const uint64_t *)k;

		/* signed: a keep-alive stamped on another core may be a little ahead */
		if (!et->e[pos].watched ||
		    (int64_t)(now - et->e[pos].last) <=
		    (int64_t)(timeout + (et->e[pos].resetting ? grace : 0)))
			continue;
		out[n++] = key;
		/* deleting the key just returned leaves the iteration valid */
		rte_hash_del_key(et->by_key, &key);
	}
	return n;
}
