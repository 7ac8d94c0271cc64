/* SPDX-License-Identifier: BSD-3-Clause */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_hash_crc.h>

#include "fcr_kind.h"
#include "fcr_route.h"
#include "fcr_store.h"

int
fcr_store_url_parse(const char *s, struct fcr_store_url *u, char why[FCR_CMD_MSG_LEN])
{
	static const char scheme[] = "etcd://";
	const char *p, *slash;
	size_t plen;

	memset(u, 0, sizeof(*u));
	if (strncmp(s, scheme, sizeof(scheme) - 1) != 0) {
		snprintf(why, FCR_CMD_MSG_LEN, "'%.64s': a store is etcd://HOST:PORT[,HOST:PORT...]"
			 "/PREFIX", s);
		return -1;
	}
	p = s + sizeof(scheme) - 1;
	slash = strchr(p, '/');
	if (slash == NULL || slash[1] == '\0') {
		snprintf(why, FCR_CMD_MSG_LEN, "'%.64s': no /PREFIX after the endpoints "
			 "(e.g. etcd://127.0.0.1:2379/fcredirect)", s);
		return -1;
	}
	while (p < slash) {
		const char *end = memchr(p, ',', (size_t)(slash - p));
		const char *colon;
		char *e;
		unsigned long port;
		size_t hlen;

		if (end == NULL)
			end = slash;
		colon = NULL;
		for (const char *q = p; q < end; q++)
			if (*q == ':')
				colon = q;
		hlen = colon != NULL ? (size_t)(colon - p) : 0;
		if (colon == NULL || hlen == 0 || hlen >= sizeof(u->host[0])) {
			snprintf(why, FCR_CMD_MSG_LEN, "'%.*s': an endpoint is HOST:PORT",
				 (int)(end - p), p);
			return -1;
		}
		port = strtoul(colon + 1, &e, 10);
		if (e != end || port == 0 || port > 65535) {
			snprintf(why, FCR_CMD_MSG_LEN, "'%.*s': a port is a number from 1 to 65535",
				 (int)(end - p), p);
			return -1;
		}
		if (u->nb_endpoints == FCR_STORE_ENDPOINTS_MAX) {
			snprintf(why, FCR_CMD_MSG_LEN, "more than %d endpoints",
				 FCR_STORE_ENDPOINTS_MAX);
			return -1;
		}
		memcpy(u->host[u->nb_endpoints], p, hlen);
		u->port[u->nb_endpoints++] = (uint16_t)port;
		p = end + (end < slash);
		if (end < slash && p == slash) {
			snprintf(why, FCR_CMD_MSG_LEN, "'%.64s': an empty endpoint after ','", s);
			return -1;
		}
	}
	if (u->nb_endpoints == 0) {
		snprintf(why, FCR_CMD_MSG_LEN, "'%.64s': no endpoint", s);
		return -1;
	}
	plen = strlen(slash);
	if (plen + 2 > sizeof(u->prefix) || strpbrk(slash, " \t\r\n") != NULL) {
		snprintf(why, FCR_CMD_MSG_LEN, "the prefix: at most %d bytes, no blanks",
			 FCR_STORE_PREFIX_MAX - 2);
		return -1;
	}
	memcpy(u->prefix, slash, plen + 1);
	if (u->prefix[plen - 1] != '/')
		strcat(u->prefix, "/");
	return 0;
}

void
fcr_store_key(const char *prefix, const struct fcr_key *k, char *buf)
{
	char vlan[8];

	if (k->vlan == FCR_VLAN_ANY)
		strcpy(vlan, "any");
	else
		snprintf(vlan, sizeof(vlan), "%u", k->vlan);
	snprintf(buf, FCR_STORE_KEY_MAX, "%s%s/%s/%" PRIx64 "/%" PRIx64, prefix,
		 fcr_kinds[k->kind]->name, vlan, k->k1, k->k2);
}

/* A hex word of a key: digits only, no sign, no 0x, at most 16. */
static int
hex(const char *s, const char *end, uint64_t *v)
{
	char buf[17];
	char *e;
	size_t n = (size_t)(end - s);

	if (n == 0 || n > 16 || strspn(s, "0123456789abcdef") < n)
		return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	*v = strtoull(buf, &e, 16);
	return 0;
}

int
fcr_store_key_parse(const char *prefix, const char *text, struct fcr_key *k)
{
	size_t plen = strlen(prefix);
	const char *p = text + plen, *s1, *s2, *s3;
	unsigned int kind;
	char canon[FCR_STORE_KEY_MAX];

	memset(k, 0, sizeof(*k));
	if (strncmp(text, prefix, plen) != 0)
		return -1;
	s1 = strchr(p, '/');
	if (s1 == NULL)
		return -1;
	for (kind = 0; kind < FCR_KIND_COUNT; kind++)
		if (fcr_kinds[kind]->cmds != NULL &&
		    strlen(fcr_kinds[kind]->name) == (size_t)(s1 - p) &&
		    memcmp(fcr_kinds[kind]->name, p, (size_t)(s1 - p)) == 0)
			break;
	if (kind == FCR_KIND_COUNT)
		return -1;
	k->kind = (uint8_t)kind;
	s2 = strchr(s1 + 1, '/');
	s3 = s2 != NULL ? strchr(s2 + 1, '/') : NULL;
	if (s3 == NULL || hex(s2 + 1, s3, &k->k1) < 0 ||
	    hex(s3 + 1, s3 + 1 + strlen(s3 + 1), &k->k2) < 0)
		return -1;
	if (s2 - s1 == 4 && memcmp(s1 + 1, "any", 3) == 0) {
		k->vlan = FCR_VLAN_ANY;
	} else {
		uint64_t v = 0;

		for (p = s1 + 1; p < s2; p++) {
			if (*p < '0' || *p > '9' || v > 4095)
				return -1;
			v = v * 10 + (uint64_t)(*p - '0');
		}
		if (s2 == s1 + 1 || v > 4095)
			return -1;
		k->vlan = (uint16_t)v;
	}
	if (!fcr_kinds[kind]->key_valid(k))
		return -1;
	/* one spelling per object: what fcr_store_key writes, no other */
	fcr_store_key(prefix, k, canon);
	return strcmp(canon, text) == 0 ? 0 : -1;
}

int
fcr_store_event_rec(const struct fcr_cmd_def *defs, size_t nb_defs, const char *prefix,
		    const struct fcr_etcd_event *e, struct fcr_rec *r, char why[FCR_CMD_MSG_LEN])
{
	char msg[FCR_CMD_MSG_LEN];
	const struct fcr_kind *kind;
	struct fcr_key k;
	struct fcr_cmd c;

	if (fcr_store_key_parse(prefix, e->kv.key, &k) < 0) {
		snprintf(why, FCR_CMD_MSG_LEN, "key '%.120s' names no object (<kind>/<vlan>/<hex>/"
			 "<hex>)", e->kv.key);
		return -1;
	}
	kind = fcr_kinds[k.kind];
	if (e->del) {
		memset(r, 0, sizeof(*r));
		r->type = (uint8_t)(kind->rec_type + 1);
		r->key = k;
		return 0;
	}
	if (fcr_cmd_parse(defs, nb_defs, e->kv.value, &c, msg) != 1) {
		snprintf(why, FCR_CMD_MSG_LEN, "key '%.80s': %.160s", e->kv.key,
			 msg[0] ? msg : "an empty value");
		return -1;
	}
	if (c.def->kind != kind || c.def->op != FCR_OP_ADD) {
		snprintf(why, FCR_CMD_MSG_LEN, "key '%.80s': its value is not a %s add line",
			 e->kv.key, kind->name);
		return -1;
	}
	kind->cmd_rec(&c, r);
	if (memcmp(&r->key, &k, sizeof(k)) != 0) {
		snprintf(why, FCR_CMD_MSG_LEN, "key '%.80s': its value names another %s",
			 e->kv.key, kind->name);
		return -1;
	}
	return 0;
}

static size_t
rev_slot(const struct fcr_store_revs *m, const struct fcr_key *k)
{
	size_t i = rte_hash_crc(k, sizeof(*k), 0) & (m->cap - 1);

	while (m->slot[i].rev != 0 && memcmp(&m->slot[i].key, k, sizeof(*k)) != 0)
		i = (i + 1) & (m->cap - 1);
	return i;
}

static int
revs_grow(struct fcr_store_revs *m)
{
	struct fcr_store_revs bigger = { .cap = m->cap ? m->cap * 2 : 1024 };
	size_t i;

	bigger.slot = calloc(bigger.cap, sizeof(*bigger.slot));
	if (bigger.slot == NULL)
		return -1;
	for (i = 0; i < m->cap; i++)
		if (m->slot[i].rev != 0)
			bigger.slot[rev_slot(&bigger, &m->slot[i].key)] = m->slot[i];
	bigger.count = m->count;
	bigger.refused_closed = m->refused_closed;
	bigger.kinds = m->kinds;
	free(m->slot);
	*m = bigger;
	return 0;
}

uint64_t
fcr_store_value_hash(const char *value)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (; *value != '\0'; value++)
		h = (h ^ (unsigned char)*value) * 0x100000001b3ull;
	return h;
}

static int
fail_closed(const struct fcr_store_revs *m, const struct fcr_key *k)
{
	return fcr_key_fail_closed(m->kinds != NULL ? m->kinds : fcr_kinds, k);
}

static void
unrefuse(struct fcr_store_revs *m, struct fcr_store_rev *e)
{
	if (e->rev != 0 && e->refused && fail_closed(m, &e->key))
		m->refused_closed--;
	e->refused = 0;
}

void
fcr_store_revs_refuse(struct fcr_store_revs *m, const struct fcr_key *k)
{
	struct fcr_store_rev *e = m->cap ? &m->slot[rev_slot(m, k)] : NULL;

	if (e == NULL || e->rev == 0 || e->refused)
		return;
	e->refused = 1;
	if (fail_closed(m, k))
		m->refused_closed++;
}

int
fcr_store_revs_set(struct fcr_store_revs *m, const struct fcr_key *k, int64_t rev,
		   uint64_t value_hash)
{
	size_t i, j, h;

	if (rev == 0) {
		if (m->cap == 0)
			return 0;
		i = rev_slot(m, k);
		if (m->slot[i].rev == 0)
			return 0;
		/* linear probing: move up what the hole would cut off */
		unrefuse(m, &m->slot[i]);
		m->slot[i].rev = 0;
		m->count--;
		for (j = (i + 1) & (m->cap - 1); m->slot[j].rev != 0; j = (j + 1) & (m->cap - 1)) {
			h = rte_hash_crc(&m->slot[j].key, sizeof(*k), 0) & (m->cap - 1);
			if ((j > i && (h <= i || h > j)) || (j < i && h <= i && h > j)) {
				m->slot[i] = m->slot[j];
				m->slot[j].rev = 0;
				i = j;
			}
		}
		return 0;
	}
	if ((m->count + 1) * 2 > m->cap && revs_grow(m) < 0)
		return -1;
	i = rev_slot(m, k);
	if (m->slot[i].rev == 0)
		m->count++;
	unrefuse(m, &m->slot[i]); /* a free slot's flag may be a moved key's */
	m->slot[i].key = *k;
	m->slot[i].rev = rev;
	m->slot[i].value = value_hash;
	return 0;
}

int64_t
fcr_store_revs_get(const struct fcr_store_revs *m, const struct fcr_key *k,
		   uint64_t *value_hash)
{
	const struct fcr_store_rev *e = m->cap ? &m->slot[rev_slot(m, k)] : NULL;

	if (value_hash != NULL)
		*value_hash = e != NULL && e->rev != 0 ? e->value : 0;
	return e != NULL ? e->rev : 0;
}

void
fcr_store_revs_clear(struct fcr_store_revs *m)
{
	if (m->cap)
		memset(m->slot, 0, m->cap * sizeof(*m->slot));
	m->count = 0;
	m->refused_closed = 0;
}

void
fcr_store_revs_free(struct fcr_store_revs *m)
{
	free(m->slot);
	memset(m, 0, sizeof(*m));
}

/* ---- the nodes of a store ---------------------------------------------- */

#define NODE_DIR "node/"

int
fcr_store_node_name_valid(const char *name)
{
	size_t i, n = strlen(name);

	if (n == 0 || n >= FCR_STORE_NODE_NAME_MAX)
		return 0;
	for (i = 0; i < n; i++)
		if (!((name[i] >= 'a' && name[i] <= 'z') || (name[i] >= 'A' && name[i] <= 'Z') ||
		      (name[i] >= '0' && name[i] <= '9') || strchr("._:-", name[i]) != NULL))
			return 0;
	return 1;
}

void
fcr_store_node_key(const char *prefix, const char *name, char *buf)
{
	snprintf(buf, FCR_STORE_KEY_MAX, "%s" NODE_DIR "%s", prefix, name);
}

int
fcr_store_node_key_parse(const char *prefix, const char *text, char *name)
{
	size_t plen = strlen(prefix), dlen = strlen(NODE_DIR);

	if (strncmp(text, prefix, plen) != 0 || strncmp(text + plen, NODE_DIR, dlen) != 0 ||
	    !fcr_store_node_name_valid(text + plen + dlen))
		return -1;
	snprintf(name, FCR_STORE_NODE_NAME_MAX, "%s", text + plen + dlen);
	return 0;
}

int
fcr_store_node_value_parse(const char *value, int64_t *rev)
{
	char *end;

	if (strncmp(value, "applied ", 8) != 0 || value[8] < '0' || value[8] > '9')
		return -1;
	*rev = (int64_t)strtoll(value + 8, &end, 10);
	return *end == '\0' && *rev >= 0 ? 0 : -1;
}

int
fcr_store_nodes_set(struct fcr_store_nodes *t, const char *name, int64_t applied)
{
	unsigned int i;

	for (i = 0; i < t->count; i++)
		if (strcmp(t->n[i].name, name) == 0) {
			t->n[i].applied = applied;
			return 0;
		}
	if (t->count == FCR_STORE_NODES_MAX)
		return -1;
	snprintf(t->n[t->count].name, sizeof(t->n[0].name), "%s", name);
	t->n[t->count++].applied = applied;
	return 0;
}

void
fcr_store_nodes_del(struct fcr_store_nodes *t, const char *name)
{
	unsigned int i;

	for (i = 0; i < t->count; i++)
		if (strcmp(t->n[i].name, name) == 0) {
			t->n[i] = t->n[--t->count];
			return;
		}
}

unsigned int
fcr_store_nodes_behind(const struct fcr_store_nodes *t, int64_t rev)
{
	unsigned int i, n = 0;

	for (i = 0; i < t->count; i++)
		n += t->n[i].applied < rev;
	return n;
}
