/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdio.h>

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
	et->last = rte_zmalloc_socket(NULL, sizeof(uint64_t) * et->capacity, 0, socket);
	if (et->by_key == NULL || et->last == NULL) {
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
	rte_free(et->last);
	rte_free(et);
}

int
fcr_enode_alive(struct fcr_enode_table *et, uint64_t key, uint64_t now)
{
	int32_t pos = rte_hash_add_key(et->by_key, &key);

	if (pos < 0 || (uint32_t)pos >= et->capacity)
		return -ENOSPC;
	et->last[pos] = now;
	return 0;
}

unsigned int
fcr_enode_expired(struct fcr_enode_table *et, uint64_t now, uint64_t timeout,
		  uint64_t *out, unsigned int max)
{
	const void *k;
	void *data;
	uint32_t iter = 0;
	unsigned int n = 0;
	int32_t pos;

	while (n < max && (pos = rte_hash_iterate(et->by_key, &k, &data, &iter)) >= 0) {
		uint64_t key = *(const uint64_t *)k;

		/* signed: a keep-alive stamped on another core may be a little ahead */
		if ((int64_t)(now - et->last[pos]) <= (int64_t)timeout)
			continue;
		out[n++] = key;
		/* deleting the key just returned leaves the iteration valid */
		rte_hash_del_key(et->by_key, &key);
	}
	return n;
}
