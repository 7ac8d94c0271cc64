/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Text forms of WWPNs, FCIDs and MACs: round trips, accepted spellings, and
 * every malformed input rejected with a message and the output untouched.
 */
#include "fcr_text.h"
#include "test_util.h"

#define SENTINEL64 0x5A5A5A5A5A5A5A5Aull
#define SENTINEL32 0x5A5A5A5Au

/* ------------------------------------------------------------ WWPN */

static void
test_wwpn_parses_lower_upper_and_mixed_case(void **state)
{
	static const char *const ok[] = {
		"21:00:00:24:ff:3a:5b:01",
		"21:00:00:24:FF:3A:5B:01",
		"21:00:00:24:Ff:3a:5B:01",
	};
	const char *err = NULL;
	uint64_t w;
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		w = SENTINEL64;
		assert_int_equal(fcr_wwpn_parse(ok[i], &w, &err), 0);
		assert_int_equal(w, 0x21000024ff3a5b01ull);
	}
	assert_int_equal(fcr_wwpn_parse("00:00:00:00:00:00:00:00", &w, NULL), 0);
	assert_int_equal(w, 0);
	assert_int_equal(fcr_wwpn_parse("ff:ff:ff:ff:ff:ff:ff:ff", &w, NULL), 0);
	assert_int_equal(w, UINT64_MAX);
	assert_int_equal(fcr_wwpn_parse("10:00:00:00:c9:12:34:56", &w, NULL), 0);
	assert_int_equal(w, 0x10000000c9123456ull);
}

static void
test_wwpn_format_parse_round_trip(void **state)
{
	char buf[FCR_WWPN_STRLEN + 8];
	struct tu_rng r;
	uint64_t w, back;
	int i;

	(void)state;
	memset(buf, 'Z', sizeof(buf));
	assert_ptr_equal(fcr_wwpn_format(0x21000024ff3a5b01ull, buf), buf);
	assert_string_equal(buf, "21:00:00:24:ff:3a:5b:01");
	assert_int_equal(strlen(buf), FCR_WWPN_STRLEN - 1);
	assert_int_equal(buf[FCR_WWPN_STRLEN], 'Z'); /* nothing past the size */
	assert_string_equal(fcr_wwpn_format(0, buf), "00:00:00:00:00:00:00:00");
	assert_string_equal(fcr_wwpn_format(UINT64_MAX, buf), "ff:ff:ff:ff:ff:ff:ff:ff");
	tu_rng_seed(&r, 31);
	for (i = 0; i < 100000; i++) {
		w = tu_rand64(&r);
		fcr_wwpn_format(w, buf);
		back = ~w;
		assert_int_equal(fcr_wwpn_parse(buf, &back, NULL), 0);
		assert_int_equal(back, w);
	}
}

static void
test_wwpn_malformed_gives_minus_1_message_and_untouched_output(void **state)
{
	static const char *const bad[] = {
		"",
		"21",
		"21:00:00:24:ff:3a:5b",             /* 7 groups */
		"21:00:00:24:ff:3a:5b:01:02",       /* 9 groups */
		"1:00:00:24:ff:3a:5b:01",           /* 1-digit group */
		"21:00:00:24:ff:3a:5b:1",
		"21:00:0:24:ff:3a:5b:01",
		"210:00:00:24:ff:3a:5b:01",         /* 3-digit group */
		"21:00:00:24:ff:3a:5b:011",
		"21:00:00:24:fg:3a:5b:01",          /* non-hex */
		"z1:00:00:24:ff:3a:5b:01",
		"21:00:00:24:ff:3a:5b:0x",
		"21:00:00:24:ff:3a:5b:01:",         /* trailing garbage */
		"21:00:00:24:ff:3a:5b:01 ",
		"21:00:00:24:ff:3a:5b:01x",
		"21:00:00:24:ff:3a:5b:01\n",
		" 21:00:00:24:ff:3a:5b:01",         /* leading space */
		"21-00-00-24-ff-3a-5b-01",          /* not a WWPN separator */
		"21:00:00:24-ff:3a:5b:01",          /* mixed */
		"21.00.00.24.ff.3a.5b.01",
		"2100:0024:ff3a:5b01",
		"21000024ff3a5b01",
		"0x21000024ff3a5b01",
		"21::00:00:24:ff:3a:5b:01",
		":21:00:00:24:ff:3a:5b:01",
	};
	const char *err;
	uint64_t w;
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		w = SENTINEL64;
		err = NULL;
		if (fcr_wwpn_parse(bad[i], &w, &err) != -1)
			fail_msg("accepted \"%s\"", bad[i]);
		assert_non_null(err);
		assert_true(strlen(err) > 0);
		assert_int_equal(w, SENTINEL64);
		/* and without an err pointer */
		assert_int_equal(fcr_wwpn_parse(bad[i], &w, NULL), -1);
		assert_int_equal(w, SENTINEL64);
	}
	w = SENTINEL64;
	err = NULL;
	assert_int_equal(fcr_wwpn_parse(NULL, &w, &err), -1);
	assert_non_null(err);
	assert_int_equal(w, SENTINEL64);
	assert_int_equal(fcr_wwpn_parse(NULL, &w, NULL), -1);
}

/* ------------------------------------------------------------ FCID */

static void
test_fcid_parses_hex_and_dotted_forms(void **state)
{
	static const struct {
		const char *s;
		uint32_t v;
	} ok[] = {
		{ "0x010203", 0x010203 }, { "0X010203", 0x010203 },
		{ "0x1", 0x000001 }, { "0x0", 0 }, { "0x10", 0x10 },
		{ "0x12345", 0x012345 }, { "0xabcdef", 0xabcdef },
		{ "0xABCDEF", 0xabcdef }, { "0xFfFfFe", 0xfffffe },
		{ "0x000000", 0 },
		{ "01.02.03", 0x010203 }, { "ff.ff.fe", 0xfffffe },
		{ "FF.FF.FC", 0xfffffc }, { "0a.Bc.0D", 0x0abc0d },
		{ "00.00.00", 0 },
	};
	const char *err = NULL;
	uint32_t v;
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		v = SENTINEL32;
		if (fcr_fcid_parse(ok[i].s, &v, &err) != 0)
			fail_msg("rejected \"%s\": %s", ok[i].s, err);
		assert_int_equal(v, ok[i].v);
	}
}

static void
test_fcid_format_both_forms_and_round_trip(void **state)
{
	char buf[FCR_FCID_STRLEN + 8];
	uint32_t v, back;

	(void)state;
	memset(buf, 'Z', sizeof(buf));
	assert_ptr_equal(fcr_fcid_format(0x010203, buf), buf);
	assert_string_equal(buf, "0x010203");
	assert_int_equal(buf[FCR_FCID_STRLEN], 'Z');
	assert_string_equal(fcr_fcid_format(0x1, buf), "0x000001");
	assert_string_equal(fcr_fcid_format(0xABCDEF, buf), "0xabcdef");
	assert_ptr_equal(fcr_fcid_format_dotted(0x010203, buf), buf);
	assert_string_equal(buf, "01.02.03");
	assert_string_equal(fcr_fcid_format_dotted(0xfffffe, buf), "ff.ff.fe");
	/* only the 24 bits of an FCID */
	assert_string_equal(fcr_fcid_format(0xFF010203u, buf), "0x010203");
	assert_string_equal(fcr_fcid_format_dotted(0xFF010203u, buf), "01.02.03");
	assert_int_equal(buf[FCR_FCID_STRLEN], 'Z');
	for (v = 0; v <= 0xFFFFFF; v += 0x1011) {
		back = ~v;
		assert_int_equal(fcr_fcid_parse(fcr_fcid_format(v, buf), &back, NULL), 0);
		assert_int_equal(back, v);
		back = ~v;
		assert_int_equal(fcr_fcid_parse(fcr_fcid_format_dotted(v, buf), &back,
						NULL), 0);
		assert_int_equal(back, v);
	}
}

static void
test_fcid_malformed_gives_minus_1_message_and_untouched_output(void **state)
{
	static const char *const bad[] = {
		"",
		"0x",                 /* no digits */
		"0X",
		"0x1234567",          /* 7 digits */
		"0x0000001",
		"0x01020g",           /* non-hex */
		"0xg",
		"0x-1",
		"0x 1",
		"0x010203 ",          /* trailing space / garbage */
		"0x010203\n",
		"0x010203h",
		" 0x010203",          /* leading space */
		"x010203",
		"010203",             /* neither form */
		"0",
		"1",
		"01.02",              /* too few groups */
		"01.02.03.04",        /* too many */
		"1.2.3",              /* 1-digit groups */
		"01.2.03",
		"001.02.03",          /* 3-digit group */
		"01.02.003",
		"01.02.03.",          /* trailing garbage */
		"01.02.03 ",
		"01.02.0g",
		"01:02:03",           /* wrong separator */
		"01.02:03",           /* mixed */
		"01-02-03",
		".01.02.03",
		"01..02.03",
	};
	const char *err;
	uint32_t v;
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		v = SENTINEL32;
		err = NULL;
		if (fcr_fcid_parse(bad[i], &v, &err) != -1)
			fail_msg("accepted \"%s\" as %06x", bad[i], v);
		assert_non_null(err);
		assert_true(strlen(err) > 0);
		assert_int_equal(v, SENTINEL32);
		assert_int_equal(fcr_fcid_parse(bad[i], &v, NULL), -1);
		assert_int_equal(v, SENTINEL32);
	}
	v = SENTINEL32;
	err = NULL;
	assert_int_equal(fcr_fcid_parse(NULL, &v, &err), -1);
	assert_non_null(err);
	assert_int_equal(v, SENTINEL32);
	assert_int_equal(fcr_fcid_parse(NULL, &v, NULL), -1);
}

/* ------------------------------------------------------------- MAC */

static void
test_mac_parses_colon_and_dash_any_case(void **state)
{
	static const char *const ok[] = {
		"0e:fc:00:01:02:03", "0E:FC:00:01:02:03", "0e-fc-00-01-02-03",
		"0E-Fc-00-01-02-03",
	};
	static const uint8_t want[6] = { 0x0e, 0xfc, 0x00, 0x01, 0x02, 0x03 };
	const char *err = NULL;
	uint8_t mac[8];
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		memset(mac, 0x5A, sizeof(mac));
		if (fcr_mac_parse(ok[i], mac, &err) != 0)
			fail_msg("rejected \"%s\": %s", ok[i], err);
		assert_memory_equal(mac, want, 6);
		assert_int_equal(mac[6], 0x5A); /* exactly 6 bytes written */
	}
}

static void
test_mac_format_parse_round_trip(void **state)
{
	static const uint8_t m1[6] = { 0x0e, 0xfc, 0x00, 0xab, 0xcd, 0xef };
	char buf[FCR_MAC_STRLEN + 8];
	uint8_t m[6], back[6];
	struct tu_rng r;
	int i;

	(void)state;
	memset(buf, 'Z', sizeof(buf));
	assert_ptr_equal(fcr_mac_format(m1, buf), buf);
	assert_string_equal(buf, "0e:fc:00:ab:cd:ef");
	assert_int_equal(strlen(buf), FCR_MAC_STRLEN - 1);
	assert_int_equal(buf[FCR_MAC_STRLEN], 'Z');
	tu_rng_seed(&r, 32);
	for (i = 0; i < 100000; i++) {
		tu_fill_random(&r, m, 6);
		fcr_mac_format(m, buf);
		memset(back, 0x5A, 6);
		assert_int_equal(fcr_mac_parse(buf, back, NULL), 0);
		assert_memory_equal(back, m, 6);
	}
}

static void
test_mac_malformed_gives_minus_1_message_and_untouched_output(void **state)
{
	static const char *const bad[] = {
		"",
		"0e:fc:00:01:02",             /* 5 groups */
		"0e:fc:00:01:02:03:04",       /* 7 groups */
		"0e:fc:00:01:02:3",           /* 1-digit group */
		"e:fc:00:01:02:03",
		"0e:fc:00:01:02:003",         /* 3-digit group */
		"0e:fc:000:01:02:03",
		"0e:fc:00:01:02:0g",          /* non-hex */
		"0e:fc:00:01:02:03:",         /* trailing garbage */
		"0e:fc:00:01:02:03 ",
		"0e:fc:00:01:02:03x",
		" 0e:fc:00:01:02:03",
		"0e:fc-00:01:02:03",          /* mixed separators */
		"0e-fc-00-01-02:03",
		"0e.fc.00.01.02.03",          /* other separator */
		"0efc00010203",
		"0efc.0001.0203",
		"0e::fc:00:01:02",
		"0e:fc:00:01:02:03-",
	};
	const char *err;
	uint8_t mac[6];
	static const uint8_t untouched[6] = { 0x5A, 0x5A, 0x5A, 0x5A, 0x5A, 0x5A };
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(mac, 0x5A, sizeof(mac));
		err = NULL;
		if (fcr_mac_parse(bad[i], mac, &err) != -1)
			fail_msg("accepted \"%s\"", bad[i]);
		assert_non_null(err);
		assert_true(strlen(err) > 0);
		assert_memory_equal(mac, untouched, 6);
		assert_int_equal(fcr_mac_parse(bad[i], mac, NULL), -1);
		assert_memory_equal(mac, untouched, 6);
	}
	err = NULL;
	assert_int_equal(fcr_mac_parse(NULL, mac, &err), -1);
	assert_non_null(err);
	assert_memory_equal(mac, untouched, 6);
	assert_int_equal(fcr_mac_parse(NULL, mac, NULL), -1);
}

/* A string that ends right at a guard page: the parsers stop at the NUL. */
static void
test_parsers_never_read_past_the_terminating_nul(void **state)
{
	static const char *const s[] = {
		"21:00:00:24:ff:3a:5b:01", "21:00:00:24:ff:3a:5b:0", "21:",
		"2", "", "0x010203", "0x", "0", "01.02.03", "01.0",
		"0e:fc:00:01:02:03", "0e-fc-00-01-02-0", "0e:",
	};
	struct tu_guard g;
	const char *p;
	uint64_t w;
	uint32_t v;
	uint8_t mac[6];
	unsigned int i;

	(void)state;
	tu_guard_init(&g);
	for (i = 0; i < sizeof(s) / sizeof(s[0]); i++) {
		p = (const char *)tu_guard_place(&g, (const uint8_t *)s[i],
						 (uint32_t)strlen(s[i]) + 1);
		(void)fcr_wwpn_parse(p, &w, NULL);
		(void)fcr_fcid_parse(p, &v, NULL);
		(void)fcr_mac_parse(p, mac, NULL);
	}
	tu_guard_fini(&g);
}

static void
test_time_is_iso_8601_utc_to_the_second_or_ms(void **state)
{
	char b[FCR_TIME_STRLEN];

	(void)state;
	assert_string_equal(fcr_time_format(0, b), "1970-01-01T00:00:00Z");
	assert_string_equal(fcr_time_format(1796638383, b), "2026-12-07T10:13:03Z");
	assert_string_equal(fcr_time_format_ms(1796638383123ull, b), "2026-12-07T10:13:03.123Z");
	assert_string_equal(fcr_time_format_ms(1796638383007ull, b), "2026-12-07T10:13:03.007Z");
	assert_string_equal(fcr_time_format_basic(1796638383, b), "20261207T101303Z");
}

static void
test_age_is_its_two_largest_units(void **state)
{
	char b[FCR_AGE_STRLEN];

	(void)state;
	assert_string_equal(fcr_age_format(0, b), "0s");
	assert_string_equal(fcr_age_format(59, b), "59s");
	assert_string_equal(fcr_age_format(60, b), "1m00s");
	assert_string_equal(fcr_age_format(125, b), "2m05s");
	assert_string_equal(fcr_age_format(3599, b), "59m59s");
	assert_string_equal(fcr_age_format(3720, b), "1h02m");
	assert_string_equal(fcr_age_format(86399, b), "23h59m");
	assert_string_equal(fcr_age_format(3 * 86400 + 4 * 3600 + 59, b), "3d04h");
	assert_string_equal(fcr_age_format(UINT64_MAX, b), "213503982334601d07h");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wwpn_parses_lower_upper_and_mixed_case),
		cmocka_unit_test(test_wwpn_format_parse_round_trip),
		cmocka_unit_test(test_wwpn_malformed_gives_minus_1_message_and_untouched_output),
		cmocka_unit_test(test_fcid_parses_hex_and_dotted_forms),
		cmocka_unit_test(test_fcid_format_both_forms_and_round_trip),
		cmocka_unit_test(test_fcid_malformed_gives_minus_1_message_and_untouched_output),
		cmocka_unit_test(test_mac_parses_colon_and_dash_any_case),
		cmocka_unit_test(test_mac_format_parse_round_trip),
		cmocka_unit_test(test_mac_malformed_gives_minus_1_message_and_untouched_output),
		cmocka_unit_test(test_parsers_never_read_past_the_terminating_nul),
		cmocka_unit_test(test_time_is_iso_8601_utc_to_the_second_or_ms),
		cmocka_unit_test(test_age_is_its_two_largest_units),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
