/* SPDX-License-Identifier: BSD-3-Clause */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <sodium.h>

#include "fcr_etcd.h"

#define B64 sodium_base64_VARIANT_ORIGINAL

void
fcr_etcd_prefix_end(const char *prefix, char *end)
{
	size_t n = strlen(prefix);

	memcpy(end, prefix, n + 1);
	/* a prefix of text never ends in 0xff: its last byte + 1 is the end */
	if (n > 0)
		end[n - 1] = (char)((unsigned char)end[n - 1] + 1);
}

static json_t *
b64(const char *s)
{
	size_t n = strlen(s), cap = sodium_base64_encoded_len(n, B64);
	char *out = malloc(cap);
	json_t *j;

	if (out == NULL)
		return NULL;
	sodium_bin2base64(out, cap, (const unsigned char *)s, n, B64);
	j = json_string(out);
	free(out);
	return j;
}

/* The text of j, base64-decoded (malloc'd, NUL-terminated); "" when j is
 * absent (the gateway leaves out empty values); NULL when malformed. */
static char *
unb64(const json_t *j)
{
	const char *s = j != NULL ? json_string_value(j) : "";
	size_t n, len;
	char *out;

	if (s == NULL)
		return NULL;
	n = strlen(s);
	out = malloc(n + 1);
	if (out == NULL)
		return NULL;
	if (sodium_base642bin((unsigned char *)out, n, s, n, NULL, &len, NULL, B64) != 0 ||
	    memchr(out, '\0', len) != NULL) {
		free(out);
		return NULL;
	}
	out[len] = '\0';
	return out;
}

/* A 64-bit number: a string of digits (how the gateway writes int64), a
 * JSON integer, or absent (0). -1 when malformed. */
static int
num(const json_t *j, int64_t *v)
{
	const char *s;
	char *e;

	*v = 0;
	if (j == NULL)
		return 0;
	if (json_is_integer(j)) {
		*v = json_integer_value(j);
		return 0;
	}
	s = json_string_value(j);
	if (s == NULL || *s == '\0')
		return -1;
	*v = (int64_t)strtoull(s, &e, 10);
	return *e == '\0' ? 0 : -1;
}

static char *
dump(json_t *req)
{
	char *s = req != NULL ? json_dumps(req, JSON_COMPACT) : NULL;

	json_decref(req);
	return s;
}

char *
fcr_etcd_range_req(const char *key, const char *range_end, int64_t revision, int64_t limit)
{
	json_t *r = json_object();

	json_object_set_new(r, "key", b64(key));
	if (range_end != NULL)
		json_object_set_new(r, "range_end", b64(range_end));
	if (revision > 0)
		json_object_set_new(r, "revision", json_integer(revision));
	if (limit > 0)
		json_object_set_new(r, "limit", json_integer(limit));
	return dump(r);
}

char *
fcr_etcd_txn_req(const struct fcr_etcd_op *ops, size_t n)
{
	json_t *r = json_object(), *cmp = json_array(), *ok = json_array(), *no = json_array();
	size_t i;

	for (i = 0; i < n; i++) {
		json_t *c = json_object(), *w = json_object(), *op = json_object(),
		       *rd = json_object(), *rop = json_object();

		json_object_set_new(c, "key", b64(ops[i].key));
		json_object_set_new(c, "result", json_string("EQUAL"));
		if (ops[i].expect_mod_rev > 0) {
			json_object_set_new(c, "target", json_string("MOD"));
			json_object_set_new(c, "mod_revision", json_integer(ops[i].expect_mod_rev));
		} else {
			/* absent: created at revision 0 */
			json_object_set_new(c, "target", json_string("CREATE"));
			json_object_set_new(c, "create_revision", json_integer(0));
		}
		json_array_append_new(cmp, c);
		json_object_set_new(op, "key", b64(ops[i].key));
		if (ops[i].value != NULL) {
			json_object_set_new(op, "value", b64(ops[i].value));
			json_object_set_new(w, "request_put", op);
		} else {
			json_object_set_new(w, "request_delete_range", op);
		}
		json_array_append_new(ok, w);
		json_object_set_new(rd, "key", b64(ops[i].key));
		json_object_set_new(rop, "request_range", rd);
		json_array_append_new(no, rop);
	}
	json_object_set_new(r, "compare", cmp);
	json_object_set_new(r, "success", ok);
	json_object_set_new(r, "failure", no);
	return dump(r);
}

char *
fcr_etcd_watch_req(const char *key, const char *range_end, int64_t start_revision)
{
	json_t *r = json_object(), *c = json_object();

	json_object_set_new(c, "key", b64(key));
	if (range_end != NULL)
		json_object_set_new(c, "range_end", b64(range_end));
	if (start_revision > 0)
		json_object_set_new(c, "start_revision", json_integer(start_revision));
	json_object_set_new(r, "create_request", c);
	return dump(r);
}

char *
fcr_etcd_auth_req(const char *user, const char *password)
{
	json_t *r = json_object();

	json_object_set_new(r, "name", json_string(user));
	json_object_set_new(r, "password", json_string(password));
	return dump(r);
}

char *
fcr_etcd_put_req(const char *key, const char *value, int64_t lease_id)
{
	json_t *r = json_object();

	json_object_set_new(r, "key", b64(key));
	json_object_set_new(r, "value", b64(value));
	if (lease_id != 0)
		json_object_set_new(r, "lease", json_integer(lease_id));
	return dump(r);
}

char *
fcr_etcd_lease_grant_req(int64_t ttl)
{
	json_t *r = json_object();

	json_object_set_new(r, "TTL", json_integer(ttl));
	return dump(r);
}

char *
fcr_etcd_lease_req(int64_t lease_id)
{
	json_t *r = json_object();

	json_object_set_new(r, "ID", json_integer(lease_id));
	return dump(r);
}

static int
fail(struct fcr_etcd_reply *r, const char *why)
{
	snprintf(r->error, sizeof(r->error), "%s", why);
	return -1;
}

static int
kv(const json_t *j, struct fcr_etcd_kv *o)
{
	if (!json_is_object(j))
		return -1;
	o->key = unb64(json_object_get(j, "key"));
	o->value = unb64(json_object_get(j, "value"));
	if (o->key == NULL || o->value == NULL || o->key[0] == '\0' ||
	    num(json_object_get(j, "create_revision"), &o->create_rev) < 0 ||
	    num(json_object_get(j, "mod_revision"), &o->mod_rev) < 0)
		return -1;
	return 0;
}

/* Append the array kvs of j to r->kvs. */
static int
kvs(const json_t *j, struct fcr_etcd_reply *r)
{
	size_t i, n;
	struct fcr_etcd_kv *v;

	if (j == NULL)
		return 0;
	if (!json_is_array(j))
		return -1;
	n = json_array_size(j);
	if (n == 0)
		return 0;
	v = realloc(r->kvs, (r->nb_kvs + n) * sizeof(*v));
	if (v == NULL)
		return -1;
	r->kvs = v;
	for (i = 0; i < n; i++) {
		memset(&v[r->nb_kvs], 0, sizeof(*v));
		r->nb_kvs++;
		if (kv(json_array_get(j, i), &v[r->nb_kvs - 1]) < 0)
			return -1;
	}
	return 0;
}

static int
header(const json_t *o, struct fcr_etcd_reply *r)
{
	const json_t *h = json_object_get(o, "header");
	int64_t m;

	if (h == NULL)
		return 0;
	if (!json_is_object(h) || num(json_object_get(h, "revision"), &r->revision) < 0 ||
	    num(json_object_get(h, "member_id"), &m) < 0)
		return -1;
	r->member_id = (uint64_t)m;
	return 0;
}

/* {"error": "text"} or {"error": {"message": ...}}: the store said no. */
static int
error_of(const json_t *o, struct fcr_etcd_reply *r)
{
	const json_t *e = json_object_get(o, "error");
	const char *s;

	if (e == NULL)
		return 0;
	s = json_is_string(e) ? json_string_value(e)
			      : json_string_value(json_object_get(e, "message"));
	if (s == NULL)
		s = json_string_value(json_object_get(o, "message"));
	snprintf(r->error, sizeof(r->error), "%s", s != NULL ? s : "an error without a message");
	return -1;
}

static int
events(const json_t *j, struct fcr_etcd_reply *r)
{
	size_t i, n;

	if (j == NULL)
		return 0;
	if (!json_is_array(j))
		return -1;
	n = json_array_size(j);
	if (n == 0)
		return 0;
	r->events = calloc(n, sizeof(*r->events));
	if (r->events == NULL)
		return -1;
	for (i = 0; i < n; i++) {
		const json_t *e = json_array_get(j, i);
		const char *type;

		if (!json_is_object(e))
			return -1;
		type = json_string_value(json_object_get(e, "type"));
		r->nb_events++;
		if (type != NULL && strcmp(type, "DELETE") != 0 && strcmp(type, "PUT") != 0)
			return -1;
		r->events[i].del = type != NULL && strcmp(type, "DELETE") == 0;
		if (kv(json_object_get(e, "kv"), &r->events[i].kv) < 0)
			return -1;
	}
	return 0;
}

static int
reply_of(const json_t *o, struct fcr_etcd_reply *r)
{
	const json_t *res, *tok;
	size_t i;

	if (!json_is_object(o))
		return fail(r, "a reply that is not a JSON object");
	if (error_of(o, r) < 0)
		return -1;
	res = json_object_get(o, "result"); /* a watch message */
	if (res != NULL) {
		if (!json_is_object(res))
			return fail(r, "a watch message whose result is not an object");
		if (error_of(res, r) < 0)
			return -1;
		o = res;
	}
	if (header(o, r) < 0 || kvs(json_object_get(o, "kvs"), r) < 0 ||
	    events(json_object_get(o, "events"), r) < 0 ||
	    num(json_object_get(o, "compact_revision"), &r->compact_revision) < 0 ||
	    num(json_object_get(o, "ID"), &r->lease_id) < 0 ||
	    num(json_object_get(o, "TTL"), &r->ttl) < 0)
		return fail(r, "a malformed field (header, kvs, events, a revision or a lease)");
	r->more = json_is_true(json_object_get(o, "more"));
	r->succeeded = json_is_true(json_object_get(o, "succeeded"));
	r->created = json_is_true(json_object_get(o, "created"));
	r->canceled = json_is_true(json_object_get(o, "canceled"));
	tok = json_object_get(o, "token");
	if (tok != NULL) {
		if (!json_is_string(tok))
			return fail(r, "a token that is not text");
		r->token = strdup(json_string_value(tok));
		if (r->token == NULL)
			return fail(r, "out of memory");
	}
	/* a txn's responses: the failure branch's ranges */
	res = json_object_get(o, "responses");
	for (i = 0; json_is_array(res) && i < json_array_size(res); i++) {
		const json_t *rr = json_object_get(json_array_get(res, i), "response_range");

		if (rr != NULL && kvs(json_object_get(rr, "kvs"), r) < 0)
			return fail(r, "a malformed range in a transaction's reply");
	}
	return 0;
}

int
fcr_etcd_parse(const char *json, size_t len, struct fcr_etcd_reply *r)
{
	json_error_t e;
	json_t *o = json_loadb(json, len, JSON_REJECT_DUPLICATES, &e);
	int rc;

	if (o == NULL) {
		snprintf(r->error, sizeof(r->error), "not JSON: %s at byte %d", e.text,
			 e.position);
		return -1;
	}
	rc = reply_of(o, r);
	json_decref(o);
	return rc;
}

int
fcr_etcd_parse_stream(const char *buf, size_t len, size_t *used, struct fcr_etcd_reply *r)
{
	json_error_t e;
	size_t skip = 0;
	json_t *o;
	int rc;

	while (skip < len && strchr(" \t\r\n", buf[skip]) != NULL)
		skip++;
	if (skip == len)
		return 0;
	o = json_loadb(buf + skip, len - skip, JSON_DISABLE_EOF_CHECK | JSON_REJECT_DUPLICATES,
		       &e);
	if (o == NULL) {
		/* cut short, in a string or a word ("tr"): wait for the rest */
		if (json_error_code(&e) == json_error_premature_end_of_input ||
		    (size_t)e.position >= len - skip)
			return 0;
		snprintf(r->error, sizeof(r->error), "not JSON: %s at byte %zu", e.text,
			 skip + (size_t)e.position);
		return -1;
	}
	*used = skip + (size_t)e.position;
	rc = reply_of(o, r);
	json_decref(o);
	return rc < 0 ? -1 : 1;
}

static void
kv_free(struct fcr_etcd_kv *v)
{
	free(v->key);
	free(v->value);
}

void
fcr_etcd_reply_free(struct fcr_etcd_reply *r)
{
	size_t i;

	for (i = 0; i < r->nb_kvs; i++)
		kv_free(&r->kvs[i]);
	for (i = 0; i < r->nb_events; i++)
		kv_free(&r->events[i].kv);
	free(r->kvs);
	free(r->events);
	free(r->token);
	memset(r, 0, sizeof(*r));
}
