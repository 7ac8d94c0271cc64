/* SPDX-License-Identifier: BSD-3-Clause */
/* The command grammar: what matches, what each argument accepts, and that a
 * wrong line says what is wrong. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fcr_cmd.h"

enum { C_START, C_SHOW_FWD, C_ROUTE_MAC, C_ROUTE_FPMA, C_BIND, C_REDIR, C_SLEEP, C_LOAD };

static const struct fcr_cmd_def defs[] = {
	[C_START] = { .syntax = "start", .help = "" },
	[C_SHOW_FWD] = { .syntax = "show fwd stats", .help = "" },
	[C_ROUTE_MAC] = { .syntax = "route add <prefix> port <port> mac <mac>", .help = "" },
	[C_ROUTE_FPMA] = { .syntax = "route add <prefix> port <port> fpma", .help = "" },
	[C_BIND] = { .syntax = "binding add vlan <vlan> wwpn <wwpn> fcid <fcid>", .help = "" },
	[C_REDIR] = { .syntax = "redirect add vlan <vlan> host <wwpn> target <wwpn> vi <wwpn> vt <wwpn>", .help = "" },
	[C_SLEEP] = { .syntax = "sleep <ms>", .help = "" },
	[C_LOAD] = { .syntax = "load config <file>", .help = "" },
};
#define NDEFS (sizeof(defs) / sizeof(defs[0]))

static int
parse(const char *text, struct fcr_cmd *c, char *msg)
{
	return fcr_cmd_parse(defs, NDEFS, text, c, msg);
}

static void
literal_commands_match_with_any_spacing(void **state)
{
	struct fcr_cmd c;
	char msg[FCR_CMD_MSG_LEN];

	(void)state;
	assert_int_equal(parse("start", &c, msg), 1);
	assert_ptr_equal(c.def, &defs[C_START]);
	assert_int_equal(parse("  show   fwd\tstats  \n", &c, msg), 1);
	assert_ptr_equal(c.def, &defs[C_SHOW_FWD]);
	assert_int_equal(c.nb_args, 0);
}

static void
blank_lines_and_comments_are_not_commands(void **state)
{
	struct fcr_cmd c;
	char msg[FCR_CMD_MSG_LEN];

	(void)state;
	assert_int_equal(parse("", &c, msg), 0);
	assert_int_equal(parse("   \t\n", &c, msg), 0);
	assert_int_equal(parse("# route add 1", &c, msg), 0);
	assert_int_equal(parse("start # go", &c, msg), 1);
}

static void
route_alternatives_pick_the_right_form(void **state)
{
	struct fcr_cmd c;
	char msg[FCR_CMD_MSG_LEN];

	(void)state;
	assert_int_equal(parse("route add 0x010000/8 port 2 fpma", &c, msg), 1);
	assert_ptr_equal(c.def, &defs[C_ROUTE_FPMA]);
	assert_int_equal(c.arg[0].prefix.fcid, 0x010000);
	assert_int_equal(c.arg[0].prefix.bits, 8);
	assert_int_equal(c.arg[1].u32, 2);
	assert_int_equal(parse("route add 01.02.03/24 port 0 mac 0e:fc:00:01:02:03", &c, msg), 1);
	assert_ptr_equal(c.def, &defs[C_ROUTE_MAC]);
	assert_int_equal(c.arg[0].prefix.fcid, 0x010203);
	assert_int_equal(c.arg[0].prefix.bits, 24);
	assert_memory_equal(c.arg[2].mac, "\x0e\xfc\x00\x01\x02\x03", 6);
}

static void
typed_arguments_are_parsed(void **state)
{
	struct fcr_cmd c;
	char msg[FCR_CMD_MSG_LEN];

	(void)state;
	assert_int_equal(parse("redirect add vlan 100 host 21:00:00:24:ff:3a:5b:01 "
			       "target 50:06:01:60:00:00:00:01 vi 2f:00:00:00:00:00:00:01 "
			       "vt 2f:00:00:00:00:00:00:02", &c, msg), 1);
	assert_int_equal(c.nb_args, 5);
	assert_int_equal(c.arg[0].u32, 100);
	assert_true(c.arg[1].wwpn == 0x21000024ff3a5b01ull);
	assert_true(c.arg[4].wwpn == 0x2f00000000000002ull);
	assert_int_equal(parse("binding add vlan 0 wwpn 21:00:00:24:ff:3a:5b:01 fcid 0x1", &c, msg), 1);
	assert_int_equal(c.arg[2].fcid, 1);
	assert_int_equal(parse("load config /tmp/x.cmds", &c, msg), 1);
	assert_string_equal(fcr_cmd_word(&c, 0), "/tmp/x.cmds");
}

/* A parsed command goes to another thread: it holds its words itself, not
 * pointers into the line, which is gone by then. */
static void
a_parsed_command_holds_its_words(void **state)
{
	char line[64], msg[FCR_CMD_MSG_LEN];
	struct fcr_cmd c, copy;

	(void)state;
	strcpy(line, "load config /tmp/x.cmds");
	assert_int_equal(fcr_cmd_parse(defs, NDEFS, line, &c, msg), 1);
	memset(line, 'x', sizeof(line) - 1);
	copy = c;
	memset(&c, 0, sizeof(c));
	assert_string_equal(fcr_cmd_word(&copy, 0), "/tmp/x.cmds");
	assert_ptr_equal(copy.def, &defs[C_LOAD]);
}

/* What the terminal checks each word with. */
static void
one_argument_is_checked_alone(void **state)
{
	union fcr_cmd_arg a;
	const char *why;

	(void)state;

	assert_int_equal(fcr_cmd_arg_parse("<port>", 6, "3", &a, &why), 0);
	assert_int_equal(a.u32, 3);
	assert_int_equal(fcr_cmd_arg_parse("<port>", 6, "all", &a, &why), -1);
	assert_non_null(strstr(why, "port"));
	assert_int_equal(fcr_cmd_arg_parse("<vlan>", 6, "4096", &a, &why), -1);
	assert_int_equal(fcr_cmd_arg_parse("<wwpn>", 6, "21:00:00:24:ff:3a:5b:01", &a, &why), 0);
	assert_true(a.wwpn == 0x21000024ff3a5b01ull);
	assert_int_equal(fcr_cmd_arg_parse("<word>", 6, "anything", &a, &why), 0);
}

static void
bad_arguments_name_the_argument(void **state)
{
	static const struct {
		const char *line;
		const char *must_contain;
	} cases[] = {
		{ "binding add vlan 4096 wwpn 21:00:00:24:ff:3a:5b:01 fcid 0x1", "<vlan>" },
		{ "binding add vlan 1 wwpn 21:00:00:24:ff:3a:5b fcid 0x1", "<wwpn>" },
		{ "binding add vlan 1 wwpn 21:00:00:24:ff:3a:5b:01 fcid 0x1000000", "<fcid>" },
		{ "route add 0x010000/25 port 0 fpma", "<prefix>" },
		{ "route add 0x010000/0 port 0 fpma", "<prefix>" },
		{ "route add 0x010000 port 0 fpma", "<prefix>" },
		{ "route add 0x010000/8 port 1024 fpma", "<port>" },
		{ "route add 0x010000/8 port 0 mac 0e:fc:00:01:02", "<mac>" },
		{ "sleep -1", "<ms>" },
		{ "sleep 10x", "<ms>" },
	};
	struct fcr_cmd c;
	char msg[FCR_CMD_MSG_LEN];
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		msg[0] = '\0';
		assert_int_equal(parse(cases[i].line, &c, msg), -1);
		if (strstr(msg, cases[i].must_contain) == NULL)
			fail_msg("'%s' gave '%s', which does not name %s", cases[i].line,
				 msg, cases[i].must_contain);
	}
}

static void
wrong_words_and_lengths_are_refused_with_usage(void **state)
{
	struct fcr_cmd c;
	char msg[FCR_CMD_MSG_LEN];

	(void)state;
	assert_int_equal(parse("frobnicate", &c, msg), -1);
	assert_non_null(strstr(msg, "unknown command 'frobnicate'"));
	assert_int_equal(parse("route add 0x010000/8 port 0", &c, msg), -1);
	assert_non_null(strstr(msg, "incomplete"));
	assert_int_equal(parse("route add 0x010000/8 port 0 both", &c, msg), -1);
	assert_non_null(strstr(msg, "unexpected 'both'"));
	assert_non_null(strstr(msg, "fpma"));
	assert_non_null(strstr(msg, "mac <mac>"));
	assert_int_equal(parse("start now", &c, msg), -1);
	assert_non_null(strstr(msg, "unexpected 'now'"));
	assert_int_equal(parse("show fwd", &c, msg), -1);
	assert_non_null(strstr(msg, "incomplete"));
}

static void
too_many_words_is_an_error_not_an_overflow(void **state)
{
	char line[2048] = "";
	struct fcr_cmd c;
	char msg[FCR_CMD_MSG_LEN];
	int i;

	(void)state;
	for (i = 0; i < 200; i++)
		strcat(line, "w ");
	assert_int_equal(fcr_cmd_parse(defs, NDEFS, line, &c, msg), -1);
	assert_non_null(strstr(msg, "too many words"));
}

static void
lines_with_control_bytes_or_too_long_are_refused_whole(void **state)
{
	char line[FCR_CMD_LINE_LEN + 10], why[128];

	(void)state;
	assert_int_equal(fcr_cmd_line_check("route list", 10, why, sizeof(why)), 0);
	assert_int_equal(fcr_cmd_line_check("route\tlist\r", 11, why, sizeof(why)), 0);
	assert_int_equal(fcr_cmd_line_check("route\0add x", 12, why, sizeof(why)), -1);
	assert_string_equal(why, "control byte 0x00 at column 6: line refused");
	assert_int_equal(fcr_cmd_line_check("show\x1b[A", 8, why, sizeof(why)), -1);
	assert_string_equal(why, "control byte 0x1b at column 5: line refused");
	assert_int_equal(fcr_cmd_line_check("a\rb", 3, why, sizeof(why)), -1);
	assert_int_equal(fcr_cmd_line_check("quit\x7f", 5, why, sizeof(why)), -1);
	memset(line, 'x', sizeof(line));
	assert_int_equal(fcr_cmd_line_check(line, FCR_CMD_LINE_LEN - 1, why, sizeof(why)), 0);
	assert_int_equal(fcr_cmd_line_check(line, FCR_CMD_LINE_LEN, why, sizeof(why)), -1);
	assert_string_equal(why, "line of 1024 characters, longer than 1023: refused whole");
}

/* Any spelling of a command has one text that parses back to the same. */
static void
a_command_has_one_spelling(void **state)
{
	static const char *const in[][2] = {
		{ "route  add 0x01000A/8 port 01 mac 0E:FC:00:00:00:0A",
		  "route add 0x01000a/8 port 1 mac 0e:fc:00:00:00:0a" },
		{ "binding add vlan 0x0a wwpn 21:00:00:00:00:00:00:0A fcid 0x10001",
		  "binding add vlan 10 wwpn 21:00:00:00:00:00:00:0a fcid 0x010001" },
		{ "load config /tmp/a.cmds\r", "load config /tmp/a.cmds" },
		{ "sleep 0010", "sleep 10" },
	};
	char msg[FCR_CMD_MSG_LEN], out[FCR_CMD_LINE_LEN];
	struct fcr_cmd c, back;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
		assert_int_equal(parse(in[i][0], &c, msg), 1);
		assert_int_equal(fcr_cmd_format(&c, out, sizeof(out)), 0);
		assert_string_equal(out, in[i][1]);
		assert_int_equal(parse(out, &back, msg), 1);
		assert_ptr_equal(back.def, c.def);
		assert_memory_equal(back.arg, c.arg, sizeof(c.arg[0]) * (size_t)c.nb_args);
	}
	assert_int_equal(fcr_cmd_format(&c, out, 5), -1);
}

static int
run_a(const struct fcr_cmd *c, FILE *out)
{
	(void)c;
	(void)out;
	return 0;
}

static int
run_b(const struct fcr_cmd *c, FILE *out)
{
	(void)c;
	(void)out;
	return -1;
}

/* Rows registered by three files: the table is by help's section, in a
 * section in the order registered, and a row without a handler takes the
 * one its registration gives, with its thread. */
static void
the_table_orders_rows_by_section_and_registration(void **state)
{
	static const struct fcr_cmd_def f1[] = {
		{ .syntax = "show a", .help = "", .run = run_a, .section = FCR_SEC_DISPLAY },
		{ .syntax = "quit", .help = "", .run = run_a },
	};
	static const struct fcr_cmd_def f2[] = {
		{ .syntax = "thing add <n>", .help = "", .section = FCR_SEC_CONFIG },
		{ .syntax = "thing list", .help = "", .section = FCR_SEC_CONFIG },
	};
	static const struct fcr_cmd_def f3[] = {
		{ .syntax = "show b", .help = "", .run = run_b, .thread = FCR_CMD_ON_TABLES,
		  .section = FCR_SEC_DISPLAY },
		{ .syntax = "help", .help = "", .run = run_a, .section = FCR_SEC_CONTROL },
	};
	const struct fcr_cmd_rows regs[] = {
		{ f1, 2, NULL, FCR_CMD_ON_CLI },
		{ f2, 2, run_b, FCR_CMD_ON_TABLES },
		{ f3, 2, NULL, FCR_CMD_ON_CLI },
	};
	static const char *const order[] = {
		"quit", "help", "show a", "show b", "thing add <n>", "thing list",
	};
	char why[FCR_CMD_MSG_LEN], msg[FCR_CMD_MSG_LEN];
	struct fcr_cmd_def *t;
	struct fcr_cmd c;
	size_t n, i;

	(void)state;
	t = fcr_cmd_table(regs, 3, &n, why);
	assert_non_null(t);
	assert_int_equal(n, 6);
	for (i = 0; i < n; i++)
		assert_string_equal(t[i].syntax, order[i]);
	assert_ptr_equal(t[4].run, run_b);
	assert_int_equal(t[4].thread, FCR_CMD_ON_TABLES);
	assert_ptr_equal(t[3].run, run_b);
	assert_int_equal(t[0].thread, FCR_CMD_ON_CLI);
	/* a line reaches its row's handler */
	assert_int_equal(fcr_cmd_parse(t, n, "thing add 7", &c, msg), 1);
	assert_int_equal(c.def->run(&c, NULL), -1);
	assert_int_equal(c.arg[0].u32, 7);
	assert_string_equal(fcr_cmd_section_name(t[2].section), "Display");
	free(t);
}

/* What would make a command unreachable or unrunnable stops the program
 * at start, saying which. */
static void
the_table_refuses_rows_it_cannot_run(void **state)
{
	static const struct fcr_cmd_def nohandler[] = {
		{ .syntax = "show a", .help = "", .section = FCR_SEC_DISPLAY },
	};
	static const struct fcr_cmd_def twice[] = {
		{ .syntax = "show a", .help = "", .run = run_a, .section = FCR_SEC_DISPLAY },
		{ .syntax = "show a", .help = "", .run = run_b, .section = FCR_SEC_PORTS },
	};
	static const struct fcr_cmd_def nosection[] = {
		{ .syntax = "show a", .help = "", .run = run_a, .section = FCR_SEC_COUNT },
	};
	const struct fcr_cmd_rows r1[] = { { nohandler, 1, NULL, FCR_CMD_ON_CLI } };
	const struct fcr_cmd_rows r2[] = { { twice, 2, NULL, FCR_CMD_ON_CLI } };
	const struct fcr_cmd_rows r3[] = { { nosection, 1, NULL, FCR_CMD_ON_CLI } };
	char why[FCR_CMD_MSG_LEN];
	size_t n = 99;

	(void)state;
	assert_null(fcr_cmd_table(r1, 1, &n, why));
	assert_string_equal(why, "command 'show a' has no handler");
	assert_int_equal(n, 0);
	assert_null(fcr_cmd_table(r2, 1, &n, why));
	assert_string_equal(why, "command 'show a' is registered twice");
	assert_null(fcr_cmd_table(r3, 1, &n, why));
	assert_string_equal(why, "command 'show a' names no section of help");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(literal_commands_match_with_any_spacing),
		cmocka_unit_test(the_table_orders_rows_by_section_and_registration),
		cmocka_unit_test(the_table_refuses_rows_it_cannot_run),
		cmocka_unit_test(a_command_has_one_spelling),
		cmocka_unit_test(a_parsed_command_holds_its_words),
		cmocka_unit_test(one_argument_is_checked_alone),
		cmocka_unit_test(blank_lines_and_comments_are_not_commands),
		cmocka_unit_test(route_alternatives_pick_the_right_form),
		cmocka_unit_test(typed_arguments_are_parsed),
		cmocka_unit_test(bad_arguments_name_the_argument),
		cmocka_unit_test(wrong_words_and_lengths_are_refused_with_usage),
		cmocka_unit_test(too_many_words_is_an_error_not_an_overflow),
		cmocka_unit_test(lines_with_control_bytes_or_too_long_are_refused_whole),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
