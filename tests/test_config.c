/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The kinds' commands through the handlers the program runs them with
 * (lib/control/fcr_config.c): a line parsed, checked, applied; a file all
 * or nothing; `list` and `save config` lines; and one check for a command
 * and for a peer's record alike.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <rte_eal.h>

#include "fcr_config.h"
#include "fcr_kind.h"
#include "fcr_kind_route.h"
#include "fcr_tables.h"
#include "test_util.h"

#define H "21:00:00:00:00:00:00:01"
#define T "50:00:00:00:00:00:00:01"
#define VI "2f:01:00:00:00:00:00:01"
#define VT "2f:02:00:00:00:00:00:01"

static struct fcr_cmd_def defs[64];
static size_t nb_defs;


static struct fcr_tables *
mk(uint32_t max_routes)
{
	struct fcr_tables_params p = {
		.max_flows = 1024, .max_routes = max_routes, .max_bindings = 256,
		.max_redirects = 8, .nb_workers = 1, .nb_ports = 2, .socket = 0,
	};
	static int seq;
	char name[32];
	struct fcr_tables *t;

	snprintf(name, sizeof(name), "c%d", seq++);
	t = fcr_tables_create(name, &p);
	assert_non_null(t);
	return t;
}

static struct fcr_cmd
cmd(const char *line)
{
	char msg[FCR_CMD_MSG_LEN];
	struct fcr_cmd c;

	if (fcr_cmd_parse(defs, nb_defs, line, &c, msg) != 1)
		fail_msg("'%s': %s", line, msg);
	return c;
}

/* Run a line; what it printed (static buffer). */
static const char *
run(struct fcr_tables *t, const char *line, int want_rc)
{
	static char buf[4096];
	struct fcr_cmd c = cmd(line);
	FILE *f;
	int rc;

	memset(buf, 0, sizeof(buf));
	f = fmemopen(buf, sizeof(buf), "w");
	assert_non_null(f);
	rc = fcr_config_run(t, &c, f);
	fclose(f);
	if (rc != want_rc)
		fail_msg("'%s' returned %d: %s", line, rc, buf);
	return buf;
}

static const char *
saved(struct fcr_tables *t)
{
	static char buf[4096];
	FILE *f;

	memset(buf, 0, sizeof(buf));
	f = fmemopen(buf, sizeof(buf), "w");
	assert_non_null(f);
	fcr_config_save(t, f);
	fclose(f);
	return buf;
}

/* An object of each kind, routes for every VLAN and for one. */
static const char *const example[] = {
	"route add 0x010000/8 port 0 fpma",
	"route add 0x410000/8 port 1 mac 0e:fc:00:41:00:01",
	"route add vlan 20 0x010000/8 port 1 fpma",
	"route add vlan 0 0x010203/24 port 1 mac 0e:fc:00:41:00:02",
	"binding add vlan 10 wwpn " H " fcid 0x010001",
	"redirect add vlan 10 host " H " target " T " vi " VI " vt " VT,
};

static void
run_example(struct fcr_tables *t)
{
	size_t i;

	for (i = 0; i < sizeof(example) / sizeof(example[0]); i++)
		run(t, example[i], 0);
}

static void
add_list_save_and_del_through_the_handlers(void **state)
{
	struct fcr_tables *t = mk(16);

	(void)state;
	run_example(t);
	assert_string_equal(run(t, "route list", 0),
			    "route vlan any 0x010000/8 port 0 fpma\n"
			    "route vlan any 0x410000/8 port 1 mac 0e:fc:00:41:00:01\n"
			    "route vlan 20 0x010000/8 port 1 fpma\n"
			    "route vlan 0 0x010203/24 port 1 mac 0e:fc:00:41:00:02\n"
			    "4 routes\n");
	assert_string_equal(run(t, "binding list", 0),
			    "binding vlan 10 wwpn " H " fcid 0x010001 static\n1 bindings\n");
	assert_string_equal(run(t, "redirect list", 0),
			    "redirect vlan 10 host " H " target " T " vi " VI " vt " VT
			    " waiting (waiting for target " T ") id 0 before_rule 0 not_ready 0\n"
			    "1 redirects, 0 active\n");
	assert_string_equal(saved(t),
			    "route add 0x010000/8 port 0 fpma\n"
			    "route add 0x410000/8 port 1 mac 0e:fc:00:41:00:01\n"
			    "route add vlan 20 0x010000/8 port 1 fpma\n"
			    "route add vlan 0 0x010203/24 port 1 mac 0e:fc:00:41:00:02\n"
			    "binding add vlan 10 wwpn " H " fcid 0x010001\n"
			    "redirect add vlan 10 host " H " target " T " vi " VI " vt " VT "\n");
	/* a route is deleted in its VLAN, or for every VLAN, and nowhere else */
	assert_non_null(strstr(run(t, "route del vlan 30 0x010000/8", -1),
			       "error: route del vlan 30 0x010000/8: no such route"));
	run(t, "route del vlan 20 0x010000/8", 0);
	run(t, "route del vlan 0 0x010203/24", 0);
	assert_non_null(strstr(run(t, "route del vlan 0 0x410000/8", -1),
			       "error: route del vlan 0 0x410000/8: no such route"));
	run(t, "route del 0x010000/8", 0);
	run(t, "binding del vlan 10 wwpn " H, 0);
	run(t, "redirect del vlan 10 host " H " target " T, 0);
	assert_string_equal(saved(t), "route add 0x410000/8 port 1 mac 0e:fc:00:41:00:01\n");
	assert_non_null(strstr(run(t, "route del 0x990000/8", -1),
			       "error: route del 0x990000/8: no such route"));
	assert_non_null(strstr(run(t, "binding del vlan 10 wwpn 21:00:00:24:FF:00:00:09", -1),
			       "error: binding del vlan 10 wwpn 21:00:00:24:ff:00:00:09: no such "
			       "binding"));
	assert_non_null(strstr(run(t, "redirect del vlan 10 host " H " target " T, -1),
			       "error: redirect del vlan 10 host " H " target " T ": no such "
			       "redirect"));
	fcr_tables_free(t);
}

/* A learned binding is listed, not saved: it comes back by itself. */
static void
learned_bindings_are_not_configuration(void **state)
{
	struct fcr_tables *t = mk(16);

	(void)state;
	assert_int_equal(fcr_tables_binding_add(t, 10, 0x2100000000000009ull, 0x010009,
						FCR_BIND_LEARNED), 0);
	assert_non_null(strstr(run(t, "binding list", 0), "fcid 0x010009 learned"));
	assert_string_equal(saved(t), "");
	fcr_tables_free(t);
}

/* The command line and a peer go through the same check: a route to a
 * port this node does not have is refused from either. */
static void
one_check_for_a_command_and_a_peers_record(void **state)
{
	struct fcr_tables *t = mk(16);
	char msg[FCR_CMD_MSG_LEN];
	struct fcr_cmd c = cmd("route add 0x010000/8 port 5 fpma");
	struct fcr_rec r = fcr_route_rec(FCR_VLAN_ANY, 0x010000, 8, 5, NULL, 1ull << 20);
	struct fcr_rec_ctx ctx = { 0 };

	(void)state;
	assert_int_equal(fcr_config_check(t, &c, msg), -1);
	assert_non_null(strstr(msg, "port 5 does not exist"));
	assert_non_null(strstr(run(t, "route add 0x010000/8 port 5 fpma", -1), "port 5"));
	assert_int_equal(fcr_kinds[FCR_KIND_ROUTE]->apply(t, &r, &ctx), FCR_APPLY_REFUSED);
	assert_int_equal(t->routes->nb_routes, 0);
	c = cmd("redirect add vlan 10 host " H " target " T " vi " H " vt " VT);
	assert_int_equal(fcr_config_check(t, &c, msg), -1);
	assert_non_null(strstr(msg, "four different"));
	fcr_tables_free(t);
}

static void
parse_file(const char *const *text, unsigned int n, struct fcr_config_line *lines)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		lines[i].cmd = cmd(text[i]);
		lines[i].lineno = i + 1;
	}
}

/* A file whose fourth line finds the route table full: the routes and
 * bindings it added are gone and those it replaced are as they were. */
static void
a_file_applies_all_or_nothing(void **state)
{
	static const char *const file[] = {
		"route add 0x010000/8 port 1 mac 0e:fc:00:00:00:09",  /* replaces */
		"binding add vlan 10 wwpn " H " fcid 0x010002",       /* replaces a learned one */
		"route add 0x020000/8 port 0 fpma",                   /* new: the table is full */
		"route add 0x030000/8 port 0 fpma",                   /* no room */
	};
	struct fcr_config_line lines[4];
	struct fcr_tables *t = mk(2);
	char before_routes[4096], before_bindings[4096], out[1024];
	FILE *f;

	(void)state;
	run(t, "route add 0x010000/8 port 0 fpma", 0);
	assert_int_equal(fcr_tables_binding_add(t, 10, 0x2100000000000001ull, 0x010001,
						FCR_BIND_LEARNED), 0);
	strcpy(before_routes, run(t, "route list", 0));
	strcpy(before_bindings, run(t, "binding list", 0));
	parse_file(file, 4, lines);
	f = fmemopen(out, sizeof(out), "w");
	assert_int_equal(fcr_config_apply(t, lines, 4, "f.cmds", f), -1);
	fclose(f);
	assert_non_null(strstr(out, "f.cmds:4"));
	assert_non_null(strstr(out, "nothing of the file was applied"));
	assert_string_equal(run(t, "route list", 0), before_routes);
	assert_string_equal(run(t, "binding list", 0), before_bindings);
	/* and a file that fits goes in whole */
	f = fmemopen(out, sizeof(out), "w");
	assert_int_equal(fcr_config_apply(t, lines, 3, "f.cmds", f), 0);
	fclose(f);
	assert_string_equal(run(t, "route list", 0),
			    "route vlan any 0x010000/8 port 1 mac 0e:fc:00:00:00:09\n"
			    "route vlan any 0x020000/8 port 0 fpma\n2 routes\n");
	assert_non_null(strstr(run(t, "binding list", 0), "fcid 0x010002 static"));
	fcr_tables_free(t);
}

/* A binding given an FCID another WWPN holds takes it from that one: a
 * file refused later gives it back (the line did not name that binding). */
static void
a_refused_file_gives_back_an_fcid_it_took(void **state)
{
	static const char *const file[] = {
		"binding add vlan 10 wwpn " H " fcid 0x010001", /* takes it from T */
		"route add 0x020000/8 port 0 fpma",             /* new: the table is full */
		"route add 0x030000/8 port 0 fpma",             /* no room */
	};
	struct fcr_config_line lines[3];
	struct fcr_tables *t = mk(2);
	char out[1024];
	const char *list;
	FILE *f;

	(void)state;
	run(t, "route add 0x010000/8 port 0 fpma", 0);
	run(t, "binding add vlan 10 wwpn " T " fcid 0x010001", 0);
	parse_file(file, 3, lines);
	f = fmemopen(out, sizeof(out), "w");
	assert_int_equal(fcr_config_apply(t, lines, 3, "f.cmds", f), -1);
	fclose(f);
	list = run(t, "binding list", 0);
	assert_non_null(strstr(list, "vlan 10 wwpn " T " fcid 0x010001 static"));
	assert_null(strstr(list, H));
	assert_non_null(strstr(list, "1 bindings"));
	fcr_tables_free(t);
}

static struct fcr_rec
rec_of(const char *line)
{
	struct fcr_cmd c = cmd(line);
	struct fcr_rec r;

	c.def->kind->cmd_rec(&c, &r);
	return r;
}

/* The store's whole configuration replaces the tables' (learned bindings
 * stay); a record the tables refuse is counted and said, the others go in. */
static void
the_stores_records_replace_the_configuration(void **state)
{
	struct fcr_tables *t = mk(16);
	struct fcr_rec recs[4];
	uint8_t refused[4];
	char out[1024];
	FILE *f;

	(void)state;
	run(t, "route add 0x010000/8 port 0 fpma", 0);
	run(t, "route add 0x020000/8 port 1 fpma", 0);
	run(t, "binding add vlan 10 wwpn " VI " fcid 0x010009", 0);
	assert_int_equal(fcr_tables_binding_add(t, 10, 0x2100000000000001ull, 0x010001,
						FCR_BIND_LEARNED), 0);
	recs[0] = rec_of("route add 0x020000/8 port 0 mac 0e:fc:00:00:00:02"); /* changed */
	recs[1] = rec_of("route add 0x030000/8 port 1 fpma");                  /* new */
	recs[2] = rec_of("binding add vlan 10 wwpn " VT " fcid 0x01000a");
	recs[3] = rec_of("route add 0x040000/8 port 7 fpma");                  /* no port 7 */
	f = fmemopen(out, sizeof(out), "w");
	assert_int_equal(fcr_config_set_recs(t, recs, 4, 1, f, refused), 1);
	fclose(f);
	assert_non_null(strstr(out, "error: route: "));
	/* the store's thread learns which: a refused redirect holds forwarding */
	assert_memory_equal(refused, ((uint8_t[]){ 0, 0, 0, 1 }), 4);
	assert_string_equal(saved(t),
			    "route add 0x020000/8 port 0 mac 0e:fc:00:00:00:02\n"
			    "route add 0x030000/8 port 1 fpma\n"
			    "binding add vlan 10 wwpn " VT " fcid 0x01000a\n");
	assert_non_null(strstr(run(t, "binding list", 0), "fcid 0x010001 learned"));
	/* then a change and a deletion, without replace */
	recs[0] = rec_of("route del 0x030000/8");
	recs[1] = rec_of("route add 0x010000/8 port 1 fpma");
	f = fmemopen(out, sizeof(out), "w");
	assert_int_equal(fcr_config_set_recs(t, recs, 2, 0, f, NULL), 0);
	fclose(f);
	assert_string_equal(run(t, "route list", 0),
			    "route vlan any 0x020000/8 port 0 mac 0e:fc:00:00:00:02\n"
			    "route vlan any 0x010000/8 port 1 fpma\n2 routes\n");
	fcr_tables_free(t);
}

/* What `save config` writes, `load config` reads back: the same routes in
 * the same VLANs, the same bindings and redirects. */
static void
saved_config_loads_back_as_it_was(void **state)
{
	struct fcr_tables *a = mk(16), *b = mk(16);
	struct fcr_config_line lines[16];
	char text[4096], list_a[4096], *line, *save;
	unsigned int n = 0;
	FILE *f;

	(void)state;
	run_example(a);
	run(a, "route add vlan 4095 0x010203/24 port 0 fpma", 0);
	strcpy(text, saved(a));
	strcpy(list_a, run(a, "route list", 0));
	for (line = strtok_r(text, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
		assert_true(n < 16);
		lines[n].cmd = cmd(line);
		lines[n].lineno = n + 1;
		n++;
	}
	assert_int_equal(n, 7);
	f = fopen("/dev/null", "w");
	assert_int_equal(fcr_config_apply(b, lines, n, "saved.cmds", f), 0);
	fclose(f);
	assert_string_equal(run(b, "route list", 0), list_a);
	assert_string_equal(saved(b), saved(a));
	fcr_tables_free(a);
	fcr_tables_free(b);
}

/* Service-node clusters through the handlers: a redirect naming a cluster
 * with no member is refused, saying why; the file that adds the member
 * first goes in whole; `service-node list` and `redirect list` show them,
 * `save config` writes the cluster (not the member) and loads back alike;
 * the store's records go in kinds' order whatever order they come in;
 * bad names and shared ports are refused; a replication record of a
 * cluster redirect keeps its cluster and placement across the wire. */
static void
cluster_redirects_through_the_handlers(void **state)
{
	static const char *const file[] = {
		"service-node add cluster sme-1 vlan 10 vi " VI " vt " VT,
		"redirect add vlan 10 host " H " target " T " cluster sme-1 restartable",
	};
	struct fcr_tables *t = mk(16), *b = mk(16);
	struct fcr_config_line lines[2];
	struct fcr_rec recs[2], back;
	uint8_t wire[FCR_REC_MAX_BODY];
	char out[2048], text[4096];
	const char *o;
	size_t len;
	FILE *f;

	(void)state;
	o = run(t, "redirect add vlan 10 host " H " target " T " cluster sme-1", -1);
	assert_non_null(strstr(o, "cluster sme-1 has no service node on vlan 10"));
	o = run(t, "service-node add cluster sme-12345 vlan 10 vi " VI " vt " VT, -1);
	assert_non_null(strstr(o, "a cluster's name is 1 to 8"));
	o = run(t, "redirect add vlan 10 host " H " target " T " cluster sme/1", -1);
	assert_non_null(strstr(o, "a cluster's name is 1 to 8"));
	parse_file(file, 2, lines);
	f = fmemopen(out, sizeof(out), "w");
	assert_int_equal(fcr_config_apply(t, lines, 2, "c.cmds", f), 0);
	fclose(f);
	o = run(t, "service-node list", 0);
	assert_non_null(strstr(o, "service-node cluster sme-1 vlan 10 vi " VI " vt " VT
			       " unbound pairs 1 frames_per_s 0 moved_in 0 moved_out 0 id 0\n"));
	assert_non_null(strstr(o, "1 service_nodes, 0 up, 0 pairs_moved, 0 pairs_stuck"));
	o = run(t, "redirect list", 0);
	assert_non_null(strstr(o, " vi " VI " vt " VT " cluster sme-1 restartable waiting"));
	/* another cluster may not take its VI, nor its VT */
	o = run(t, "service-node add cluster dmm vlan 10 vi " VT " vt 2f:03:00:00:00:00:00:01", -1);
	assert_non_null(strstr(o, "a port of it is a port of another service node on vlan 10 "
			       "(cluster sme-1)"));
	o = run(t, "service-node add cluster dmm vlan 10 vi 2f:03:00:00:00:00:00:01 vt " VT, -1);
	assert_non_null(strstr(o, "(cluster sme-1)"));
	strcpy(text, saved(t));
	assert_string_equal(text, "service-node add cluster sme-1 vlan 10 vi " VI " vt " VT "\n"
			    "redirect add vlan 10 host " H " target " T
			    " cluster sme-1 restartable\n");
	/* the store's records, the redirect's first: put in the kinds' order
	 * by the store's reader; here in that order they go in */
	recs[0] = rec_of(file[0]);
	recs[1] = rec_of(file[1]);
	f = fmemopen(out, sizeof(out), "w");
	assert_int_equal(fcr_config_set_recs(b, recs, 2, 1, f, NULL), 0);
	fclose(f);
	assert_string_equal(saved(b), text);
	/* a replication record: the cluster and the member it is on, both ways */
	fcr_kinds[FCR_KIND_REDIRECT]->rec(t, 0, NULL, &back);
	assert_true(back.val.u64[2] != 0);
	len = fcr_kinds[FCR_KIND_REDIRECT]->put(wire, &back);
	memset(&recs[0], 0, sizeof(recs[0]));
	recs[0].type = back.type;
	assert_int_equal(fcr_kinds[FCR_KIND_REDIRECT]->get(wire, 0, len, &recs[0]), 0);
	assert_memory_equal(&recs[0].val, &back.val, sizeof(back.val));
	/* a record of a peer that reads no cluster: the same VI and VT */
	memset(&recs[1], 0, sizeof(recs[1]));
	recs[1].type = back.type;
	assert_int_equal(fcr_kinds[FCR_KIND_REDIRECT]->get(wire, 0, len - 9, &recs[1]), 0);
	assert_true(recs[1].val.u64[0] == back.val.u64[0] && recs[1].val.u64[2] == 0);
	fcr_tables_free(t);
	fcr_tables_free(b);
}

/* 255 VLANs can have routes of their own: the command for a 256th says so
 * and changes nothing; routes for every VLAN and in those VLANs still go
 * in. */
static void
a_256th_vlan_with_routes_is_refused(void **state)
{
	struct fcr_tables *t = mk(300);
	char line[128];
	unsigned int v;

	(void)state;
	for (v = 1; v <= 255; v++) {
		snprintf(line, sizeof(line), "route add vlan %u 0x010000/8 port 1 fpma", v);
		run(t, line, 0);
	}
	assert_non_null(strstr(run(t, "route add vlan 256 0x010000/8 port 1 fpma", -1),
			       "255 VLANs have routes of their own"));
	assert_int_equal(t->routes->nb_routes, 255);
	run(t, "route add vlan 255 0x020000/8 port 1 fpma", 0);
	run(t, "route add 0x020000/8 port 0 fpma", 0);
	run(t, "route del vlan 7 0x010000/8", 0);
	run(t, "route add vlan 256 0x010000/8 port 1 fpma", 0);
	fcr_tables_free(t);
}

static int
eal_up(void **state)
{
	(void)state;
	nb_defs = fcr_kind_cmds(defs, RTE_DIM(defs));
	return tu_eal_init("test_config", "256", "0");
}

static int
eal_down(void **state)
{
	(void)state;
	rte_eal_cleanup();
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(add_list_save_and_del_through_the_handlers),
		cmocka_unit_test(learned_bindings_are_not_configuration),
		cmocka_unit_test(one_check_for_a_command_and_a_peers_record),
		cmocka_unit_test(a_file_applies_all_or_nothing),
		cmocka_unit_test(a_refused_file_gives_back_an_fcid_it_took),
		cmocka_unit_test(the_stores_records_replace_the_configuration),
		cmocka_unit_test(saved_config_loads_back_as_it_was),
		cmocka_unit_test(a_256th_vlan_with_routes_is_refused),
		cmocka_unit_test(cluster_redirects_through_the_handlers),
	};

	return cmocka_run_group_tests(tests, eal_up, eal_down);
}
