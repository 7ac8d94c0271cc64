/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * etcd's JSON gateway messages (lib/store/fcr_etcd.c): the replies are
 * what etcd 3.4 (Debian 12's) sent to curl, kept verbatim; the requests
 * are read back with jansson and checked field by field.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "fcr_etcd.h"

#define HDR "{\"cluster_id\":\"324952591200643719\",\"member_id\":\"3319814642761637952\"," \
	"\"revision\":\"2\",\"raft_term\":\"2\"}"
/* "/fcr/route/a" and "route add 0x010000/8 port 0 fpma" */
#define KV "{\"key\":\"L2Zjci9yb3V0ZS9h\",\"create_revision\":\"2\",\"mod_revision\":\"2\"," \
	"\"version\":\"1\",\"value\":\"cm91dGUgYWRkIDB4MDEwMDAwLzggcG9ydCAwIGZwbWE=\"}"

/* A lease granted, kept alive, kept alive after it expired (no TTL), and a
 * put under a lease that is gone (as etcd 3.4 answers them). */
static void
leases(void **state)
{
	static const char grant[] = "{\"header\":" HDR ",\"ID\":\"7587899406163953157\","
		"\"TTL\":\"10\"}";
	static const char alive[] = "{\"result\":{\"header\":" HDR ",\"ID\":"
		"\"7587899406163953159\",\"TTL\":\"10\"}}\n";
	static const char expired[] = "{\"result\":{\"header\":" HDR ",\"ID\":"
		"\"7587899406163953159\"}}";
	static const char gone[] = "{\"error\":\"etcdserver: requested lease not found\","
		"\"message\":\"etcdserver: requested lease not found\",\"code\":5}";
	struct fcr_etcd_reply r = { 0 };
	char *s;

	(void)state;
	assert_int_equal(fcr_etcd_parse(grant, strlen(grant), &r), 0);
	assert_true(r.lease_id == 7587899406163953157ll);
	assert_int_equal(r.ttl, 10);
	fcr_etcd_reply_free(&r);
	assert_int_equal(fcr_etcd_parse(alive, strlen(alive), &r), 0);
	assert_true(r.lease_id == 7587899406163953159ll);
	assert_int_equal(r.ttl, 10);
	fcr_etcd_reply_free(&r);
	assert_int_equal(fcr_etcd_parse(expired, strlen(expired), &r), 0);
	assert_int_equal(r.ttl, 0);
	fcr_etcd_reply_free(&r);
	assert_int_equal(fcr_etcd_parse(gone, strlen(gone), &r), -1);
	assert_string_equal(r.error, "etcdserver: requested lease not found");
	fcr_etcd_reply_free(&r);

	s = fcr_etcd_put_req("a", "b", 7587899406163953157ll);
	assert_string_equal(s, "{\"key\":\"YQ==\",\"value\":\"Yg==\",\"lease\":7587899406163953157}");
	free(s);
	s = fcr_etcd_put_req("a", "b", 0);
	assert_string_equal(s, "{\"key\":\"YQ==\",\"value\":\"Yg==\"}");
	free(s);
	s = fcr_etcd_lease_grant_req(10);
	assert_string_equal(s, "{\"TTL\":10}");
	free(s);
	s = fcr_etcd_lease_req(42);
	assert_string_equal(s, "{\"ID\":42}");
	free(s);
}

static void
a_range_reply(void **state)
{
	static const char j[] = "{\"header\":" HDR ",\"kvs\":[" KV "],\"count\":\"1\"}";
	struct fcr_etcd_reply r = { 0 };

	(void)state;
	assert_int_equal(fcr_etcd_parse(j, strlen(j), &r), 0);
	assert_int_equal(r.revision, 2);
	assert_true(r.member_id == 3319814642761637952ull);
	assert_int_equal(r.nb_kvs, 1);
	assert_string_equal(r.kvs[0].key, "/fcr/route/a");
	assert_string_equal(r.kvs[0].value, "route add 0x010000/8 port 0 fpma");
	assert_int_equal(r.kvs[0].mod_rev, 2);
	assert_int_equal(r.more, 0);
	fcr_etcd_reply_free(&r);
}

static void
txn_replies_held_and_failed(void **state)
{
	/* a compare that failed: no "succeeded", the failure branch's range */
	static const char no[] = "{\"header\":" HDR ",\"responses\":[{\"response_range\":"
		"{\"header\":{\"revision\":\"2\"},\"kvs\":[" KV "],\"count\":\"1\"}}]}";
	static const char yes[] = "{\"header\":" HDR ",\"succeeded\":true,\"responses\":"
		"[{\"response_put\":{\"header\":{\"revision\":\"3\"}}}]}";
	struct fcr_etcd_reply r = { 0 };

	(void)state;
	assert_int_equal(fcr_etcd_parse(no, strlen(no), &r), 0);
	assert_int_equal(r.succeeded, 0);
	assert_int_equal(r.nb_kvs, 1);
	assert_string_equal(r.kvs[0].value, "route add 0x010000/8 port 0 fpma");
	fcr_etcd_reply_free(&r);
	assert_int_equal(fcr_etcd_parse(yes, strlen(yes), &r), 0);
	assert_int_equal(r.succeeded, 1);
	assert_int_equal(r.nb_kvs, 0);
	fcr_etcd_reply_free(&r);
}

static void
errors_are_said(void **state)
{
	static const char e[] = "{\"error\":\"etcdserver: mvcc: required revision is a future "
		"revision\",\"message\":\"etcdserver: mvcc: required revision is a future "
		"revision\",\"code\":11}";
	static const char bad[][64] = {
		"{\"header\":{\"revision\":\"x\"}}",
		"{\"kvs\":[{\"key\":\"!!\"}]}",
		"{\"kvs\":[{\"value\":\"aGVsbG8=\"}]}",       /* no key */
		"{\"kvs\":[{\"key\":\"AGE=\"}]}",             /* a NUL in the key */
		"{\"result\":{\"events\":[{\"type\":\"X\",\"kv\":{\"key\":\"YQ==\"}}]}}",
		"[1]",
		"{\"header\":",
	};
	struct fcr_etcd_reply r = { 0 };
	size_t i;

	(void)state;
	assert_int_equal(fcr_etcd_parse(e, strlen(e), &r), -1);
	assert_string_equal(r.error, "etcdserver: mvcc: required revision is a future revision");
	fcr_etcd_reply_free(&r);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(fcr_etcd_parse(bad[i], strlen(bad[i]), &r), -1);
		assert_true(r.error[0] != '\0');
		fcr_etcd_reply_free(&r);
	}
}

/* A watch stream as etcd sent it: created, a PUT, a DELETE, cut anywhere. */
static void
a_watch_stream_in_pieces(void **state)
{
	static const char s[] =
		"{\"result\":{\"header\":" HDR ",\"created\":true}}\n"
		"{\"result\":{\"header\":" HDR ",\"events\":[{\"kv\":" KV "}]}}\n"
		"{\"result\":{\"header\":{\"revision\":\"5\"},\"events\":[{\"type\":\"DELETE\","
		"\"kv\":{\"key\":\"L2Zjci9i\",\"mod_revision\":\"5\"}}]}}\n";
	size_t cut;

	(void)state;
	for (cut = 0; cut <= sizeof(s) - 1; cut++) {
		char buf[sizeof(s)];
		size_t len = 0, off = 0, used;
		int seen = 0, rc;
		struct fcr_etcd_reply r = { 0 };

		/* first the bytes up to cut, then the rest */
		memcpy(buf, s, cut);
		len = cut;
		for (;;) {
			rc = fcr_etcd_parse_stream(buf + off, len - off, &used, &r);
			assert_true(rc >= 0);
			if (rc == 0) {
				if (len == sizeof(s) - 1)
					break;
				memcpy(buf + len, s + len, sizeof(s) - 1 - len);
				len = sizeof(s) - 1;
				continue;
			}
			off += used;
			if (seen == 0)
				assert_true(r.created);
			if (seen == 1) {
				assert_int_equal(r.nb_events, 1);
				assert_false(r.events[0].del);
				assert_string_equal(r.events[0].kv.key, "/fcr/route/a");
			}
			if (seen == 2) {
				assert_int_equal(r.revision, 5);
				assert_true(r.events[0].del);
				assert_string_equal(r.events[0].kv.key, "/fcr/b");
				assert_string_equal(r.events[0].kv.value, "");
			}
			seen++;
			fcr_etcd_reply_free(&r);
		}
		assert_int_equal(seen, 3);
	}
}

static void
a_compacted_watch(void **state)
{
	static const char s[] = "{\"result\":{\"header\":{\"raft_term\":\"2\"},\"canceled\":true,"
		"\"compact_revision\":\"4\"}}";
	struct fcr_etcd_reply r = { 0 };
	size_t used;

	(void)state;
	assert_int_equal(fcr_etcd_parse_stream(s, strlen(s), &used, &r), 1);
	assert_int_equal(used, strlen(s));
	assert_true(r.canceled);
	assert_int_equal(r.compact_revision, 4);
	fcr_etcd_reply_free(&r);
}

static const char *
b64_of(json_t *o, const char *k)
{
	return json_string_value(json_object_get(o, k));
}

static void
requests(void **state)
{
	struct fcr_etcd_op ops[2] = {
		{ .key = "/fcr/a", .value = "x", .expect_mod_rev = 7 },
		{ .key = "/fcr/b", .value = NULL, .expect_mod_rev = 0 },
	};
	char end[8], *s;
	json_t *o, *c;

	(void)state;
	fcr_etcd_prefix_end("/fcr/", end);
	assert_string_equal(end, "/fcr0");
	s = fcr_etcd_range_req("/fcr/", end, 0, 500);
	o = json_loads(s, 0, NULL);
	assert_string_equal(b64_of(o, "key"), "L2Zjci8=");
	assert_string_equal(b64_of(o, "range_end"), "L2ZjcjA=");
	assert_int_equal(json_integer_value(json_object_get(o, "limit")), 500);
	assert_null(json_object_get(o, "revision"));
	json_decref(o);
	free(s);
	s = fcr_etcd_txn_req(ops, 2);
	o = json_loads(s, 0, NULL);
	c = json_object_get(o, "compare");
	assert_int_equal(json_array_size(c), 2);
	assert_string_equal(b64_of(json_array_get(c, 0), "target"), "MOD");
	assert_int_equal(json_integer_value(json_object_get(json_array_get(c, 0),
							    "mod_revision")), 7);
	assert_string_equal(b64_of(json_array_get(c, 1), "target"), "CREATE");
	assert_non_null(json_object_get(json_array_get(json_object_get(o, "success"), 0),
					"request_put"));
	assert_non_null(json_object_get(json_array_get(json_object_get(o, "success"), 1),
					"request_delete_range"));
	assert_int_equal(json_array_size(json_object_get(o, "failure")), 2);
	json_decref(o);
	free(s);
	s = fcr_etcd_watch_req("/fcr/", end, 9);
	o = json_loads(s, 0, NULL);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(o, "create_request"),
							    "start_revision")), 9);
	json_decref(o);
	free(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_range_reply),
		cmocka_unit_test(txn_replies_held_and_failed),
		cmocka_unit_test(errors_are_said),
		cmocka_unit_test(a_watch_stream_in_pieces),
		cmocka_unit_test(a_compacted_watch),
		cmocka_unit_test(requests),
		cmocka_unit_test(leases),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
