/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The configuration store without a network (lib/store/fcr_store.c): the
 * --config-store address, an object's key and back, and what a watch event
 * asks of the tables.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fcr_kind.h"
#include "fcr_route.h"
#include "fcr_store.h"

static struct fcr_cmd_def defs[64];
static size_t nb_defs;


static void
urls(void **state)
{
	static const char *const bad[] = {
		"http://127.0.0.1:2379/fcr", "etcd://127.0.0.1:2379", "etcd://127.0.0.1:2379/",
		"etcd://127.0.0.1/fcr", "etcd://:2379/fcr", "etcd://a:0/fcr", "etcd://a:70000/fcr",
		"etcd://a:1,/fcr", "etcd://a:12x/fcr", "etcd://a:1/f r",
	};
	char why[FCR_CMD_MSG_LEN];
	struct fcr_store_url u;
	size_t i;

	(void)state;
	assert_int_equal(fcr_store_url_parse("etcd://127.0.0.1:2379,10.0.0.2:2380,h:1/fab/a",
					     &u, why), 0);
	assert_int_equal(u.nb_endpoints, 3);
	assert_string_equal(u.host[1], "10.0.0.2");
	assert_int_equal(u.port[1], 2380);
	assert_string_equal(u.host[2], "h");
	assert_string_equal(u.prefix, "/fab/a/");
	assert_int_equal(fcr_store_url_parse("etcd://[::1]:2379/x/", &u, why), 0);
	assert_string_equal(u.host[0], "[::1]");
	assert_string_equal(u.prefix, "/x/");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why[0] = '\0';
		assert_int_equal(fcr_store_url_parse(bad[i], &u, why), -1);
		assert_true(why[0] != '\0');
	}
}

/* The nodes' keys and values, and the table a write waits on. */
static void
nodes(void **state)
{
	static const char *const bad_keys[] = {
		"/fab/node/", "/fab/node/a b", "/fab/node/a/b", "/fab/nodes/a", "/other/node/a",
		"/fab/route/any/10000/8",
	};
	static const char *const bad_values[] = {
		"", "applied", "applied ", "applied x", "applied 12x", "applied -1", "applied12",
	};
	struct fcr_store_nodes *t = calloc(1, sizeof(*t));
	char key[FCR_STORE_KEY_MAX], name[FCR_STORE_NODE_NAME_MAX], longname[80];
	int64_t rev;
	unsigned int i;

	(void)state;
	assert_non_null(t);
	fcr_store_node_key("/fab/", "host-1:fcredirect", key);
	assert_string_equal(key, "/fab/node/host-1:fcredirect");
	assert_int_equal(fcr_store_node_key_parse("/fab/", key, name), 0);
	assert_string_equal(name, "host-1:fcredirect");
	for (i = 0; i < sizeof(bad_keys) / sizeof(bad_keys[0]); i++)
		assert_int_equal(fcr_store_node_key_parse("/fab/", bad_keys[i], name), -1);
	memset(longname, 'a', 64);
	longname[64] = '\0';
	assert_false(fcr_store_node_name_valid(longname));
	longname[63] = '\0';
	assert_true(fcr_store_node_name_valid(longname));
	assert_int_equal(fcr_store_node_value_parse("applied 57", &rev), 0);
	assert_int_equal(rev, 57);
	for (i = 0; i < sizeof(bad_values) / sizeof(bad_values[0]); i++)
		assert_int_equal(fcr_store_node_value_parse(bad_values[i], &rev), -1);

	assert_int_equal(fcr_store_nodes_set(t, "a", 10), 0);
	assert_int_equal(fcr_store_nodes_set(t, "b", 12), 0);
	assert_int_equal(fcr_store_nodes_set(t, "c", 9), 0);
	assert_int_equal(fcr_store_nodes_behind(t, 10), 1);  /* c */
	assert_int_equal(fcr_store_nodes_set(t, "c", 11), 0); /* set again, not added */
	assert_int_equal(t->count, 3);
	assert_int_equal(fcr_store_nodes_behind(t, 11), 1);  /* a */
	fcr_store_nodes_del(t, "a");                          /* its lease expired */
	assert_int_equal(fcr_store_nodes_behind(t, 11), 0);
	assert_int_equal(t->count, 2);
	for (i = 0; t->count < FCR_STORE_NODES_MAX; i++) {
		snprintf(name, sizeof(name), "n%u", i);
		assert_int_equal(fcr_store_nodes_set(t, name, 1), 0);
	}
	assert_int_equal(fcr_store_nodes_set(t, "one-too-many", 1), -1);
	assert_int_equal(fcr_store_nodes_set(t, "b", 13), 0); /* a known one still is */
	free(t);
}

static void
keys_and_back(void **state)
{
	const struct fcr_key ks[] = {
		{ .kind = FCR_KIND_ROUTE, .vlan = FCR_VLAN_ANY, .k1 = 0x010000, .k2 = 8 },
		{ .kind = FCR_KIND_ROUTE, .vlan = 4095, .k1 = 0x020000, .k2 = 16 },
		{ .kind = FCR_KIND_BINDING, .vlan = 10, .k1 = 0x2100000000000001ull },
		{ .kind = FCR_KIND_REDIRECT, .vlan = 0, .k1 = 0x21, .k2 = 0x50 },
	};
	static const char *const bad[] = {
		"/f/route/any/10000/8x", "/f/route/any/10000/19", "/f/flow/1/1/1",
		"/f/binding/4096/1/0", "/f/binding/01/1/0", "/f/binding/1/0x1/0",
		"/f/binding/1/1", "/g/binding/1/1/0", "/f/binding//1/0", "/f/route/any/A/8",
		"/f/binding/1/00001/0",
	};
	char buf[FCR_STORE_KEY_MAX];
	struct fcr_key k;
	size_t i;

	(void)state;
	fcr_store_key("/f/", &ks[0], buf);
	assert_string_equal(buf, "/f/route/any/10000/8");
	fcr_store_key("/f/", &ks[2], buf);
	assert_string_equal(buf, "/f/binding/10/2100000000000001/0");
	for (i = 0; i < sizeof(ks) / sizeof(ks[0]); i++) {
		fcr_store_key("/f/", &ks[i], buf);
		assert_int_equal(fcr_store_key_parse("/f/", buf, &k), 0);
		assert_memory_equal(&k, &ks[i], sizeof(k));
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(fcr_store_key_parse("/f/", bad[i], &k), -1);
}

static void
events(void **state)
{
	struct fcr_etcd_event e = { 0 };
	char why[FCR_CMD_MSG_LEN];
	struct fcr_rec r;

	(void)state;
	e.kv.key = "/f/route/any/10000/8";
	e.kv.value = "route add 0x010000/8 port 1 fpma";
	assert_int_equal(fcr_store_event_rec(defs, nb_defs, "/f/", &e, &r, why), 0);
	assert_int_equal(r.type, fcr_kinds[FCR_KIND_ROUTE]->rec_type);
	assert_int_equal(r.key.k1, 0x010000);
	/* a value naming another object than its key */
	e.kv.value = "route add 0x020000/8 port 1 fpma";
	assert_int_equal(fcr_store_event_rec(defs, nb_defs, "/f/", &e, &r, why), -1);
	assert_non_null(strstr(why, "names another route"));
	/* not an add line; not a line of the grammar; another kind's */
	e.kv.value = "route del 0x010000/8";
	assert_int_equal(fcr_store_event_rec(defs, nb_defs, "/f/", &e, &r, why), -1);
	e.kv.value = "route add 0x010000/8 port x fpma";
	assert_int_equal(fcr_store_event_rec(defs, nb_defs, "/f/", &e, &r, why), -1);
	assert_non_null(strstr(why, "<port>"));
	e.kv.value = "binding add vlan 1 wwpn 21:00:00:00:00:00:00:01 fcid 0x010001";
	assert_int_equal(fcr_store_event_rec(defs, nb_defs, "/f/", &e, &r, why), -1);
	e.kv.value = "";
	assert_int_equal(fcr_store_event_rec(defs, nb_defs, "/f/", &e, &r, why), -1);
	/* a deletion: the key alone */
	e.del = 1;
	e.kv.value = "";
	assert_int_equal(fcr_store_event_rec(defs, nb_defs, "/f/", &e, &r, why), 0);
	assert_int_equal(r.type, fcr_kinds[FCR_KIND_ROUTE]->rec_type + 1);
	e.kv.key = "/f/nothing";
	assert_int_equal(fcr_store_event_rec(defs, nb_defs, "/f/", &e, &r, why), -1);
}

/* The revisions map against a plain array, through growth and deletions. */
static void
revisions_of_keys(void **state)
{
	enum { N = 5000 };
	static int64_t model[N];
	struct fcr_store_revs m = { 0 };
	uint64_t x = 88172645463325252ull;
	struct fcr_key k = { .kind = FCR_KIND_ROUTE };
	unsigned int i, step, live = 0;

	(void)state;
	for (step = 0; step < 200000; step++) {
		int64_t rev;

		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		i = (unsigned int)(x % N);
		rev = (x >> 32) % 3 == 0 ? 0 : (int64_t)step + 1;
		k.k1 = i;
		assert_int_equal(fcr_store_revs_set(&m, &k, rev, (uint64_t)rev * 7), 0);
		model[i] = rev;
		if (step % 997 == 0)
			for (i = 0; i < N; i++) {
				k.k1 = i;
				uint64_t h;

				assert_int_equal(fcr_store_revs_get(&m, &k, &h), model[i]);
				assert_true(h == (uint64_t)model[i] * 7);
			}
	}
	for (i = 0; i < N; i++)
		live += model[i] != 0;
	assert_int_equal(m.count, live);
	fcr_store_revs_clear(&m);
	k.k1 = 1;
	assert_int_equal(fcr_store_revs_get(&m, &k, NULL), 0);
	assert_int_equal(m.count, 0);
	assert_true(fcr_store_value_hash("route add 0x010000/8 port 0 fpma") !=
		    fcr_store_value_hash("route add 0x010000/8 port 1 fpma"));
	fcr_store_revs_free(&m);
}

/* Refused redirect keys counted through new values, deletions (which move
 * other slots up), growth and a clear, against a plain array. */
static void
refused_redirect_keys(void **state)
{
	enum { N = 4000 };
	static uint8_t live[N], bad[N];
	struct fcr_store_revs m = { 0 };
	uint64_t x = 2463534242ull;
	struct fcr_key k = { 0 };
	unsigned int i, step;
	size_t want;

	(void)state;
	for (step = 0; step < 100000; step++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		i = (unsigned int)(x % N);
		/* even keys redirects, odd ones routes (never counted) */
		k.kind = i % 2 ? FCR_KIND_ROUTE : FCR_KIND_REDIRECT;
		k.k1 = i;
		switch ((x >> 32) % 4) {
		case 0: /* deleted */
			fcr_store_revs_set(&m, &k, 0, 0);
			live[i] = bad[i] = 0;
			break;
		case 1: /* a new value: not refused until said */
			assert_int_equal(fcr_store_revs_set(&m, &k, (int64_t)step + 1, step), 0);
			live[i] = 1;
			bad[i] = 0;
			break;
		default: /* refused (twice counts once; absent: nothing) */
			fcr_store_revs_refuse(&m, &k);
			bad[i] = live[i];
			break;
		}
		if (step % 499 == 0) {
			for (want = 0, i = 0; i < N; i += 2)
				want += bad[i];
			assert_int_equal(m.refused_closed, want);
		}
	}
	fcr_store_revs_clear(&m);
	assert_int_equal(m.refused_closed, 0);
	fcr_store_revs_free(&m);
}

/* Which refused keys stop forwarding is each kind's fail_closed, not its
 * name: the redirect kind is; a table that flags routes instead counts
 * routes and not redirects. */
static void
fail_closed_goes_by_the_kind(void **state)
{
	const struct fcr_kind *swapped[FCR_KIND_COUNT];
	struct fcr_kind route, redirect;
	struct fcr_store_revs m = { 0 };
	struct fcr_key rk = { .kind = FCR_KIND_REDIRECT, .k1 = 1, .k2 = 2 };
	struct fcr_key ro = { .kind = FCR_KIND_ROUTE, .k1 = 0x010000, .k2 = 8 };
	int k;

	(void)state;
	assert_true(fcr_kinds[FCR_KIND_REDIRECT]->fail_closed);
	for (k = 0; k < FCR_KIND_COUNT; k++)
		if (k != FCR_KIND_REDIRECT)
			assert_false(fcr_kinds[k]->fail_closed);
	assert_int_equal(fcr_store_revs_set(&m, &rk, 5, 1), 0);
	assert_int_equal(fcr_store_revs_set(&m, &ro, 6, 2), 0);
	fcr_store_revs_refuse(&m, &rk);
	fcr_store_revs_refuse(&m, &ro);
	assert_int_equal(m.refused_closed, 1);
	fcr_store_revs_free(&m);

	memcpy(swapped, fcr_kinds, sizeof(swapped));
	route = *fcr_kinds[FCR_KIND_ROUTE];
	redirect = *fcr_kinds[FCR_KIND_REDIRECT];
	route.fail_closed = 1;
	redirect.fail_closed = 0;
	swapped[FCR_KIND_ROUTE] = &route;
	swapped[FCR_KIND_REDIRECT] = &redirect;
	m.kinds = swapped;
	assert_int_equal(fcr_store_revs_set(&m, &rk, 5, 1), 0);
	assert_int_equal(fcr_store_revs_set(&m, &ro, 6, 2), 0);
	fcr_store_revs_refuse(&m, &rk);
	assert_int_equal(m.refused_closed, 0);
	fcr_store_revs_refuse(&m, &ro);
	assert_int_equal(m.refused_closed, 1);
	/* the route deleted: forwarding may come back */
	assert_int_equal(fcr_store_revs_set(&m, &ro, 0, 0), 0);
	assert_int_equal(m.refused_closed, 0);
	fcr_store_revs_free(&m);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(urls),
		cmocka_unit_test(nodes),
		cmocka_unit_test(keys_and_back),
		cmocka_unit_test(events),
		cmocka_unit_test(revisions_of_keys),
		cmocka_unit_test(refused_redirect_keys),
		cmocka_unit_test(fail_closed_goes_by_the_kind),
	};

	nb_defs = fcr_kind_cmds(defs, RTE_DIM(defs));
	return cmocka_run_group_tests(tests, NULL, NULL);
}
