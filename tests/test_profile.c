/* SPDX-License-Identifier: BSD-3-Clause */
/* Port profiles: every shipped profile parses; a broken one is refused with
 * file:line and what is wrong. argv[1] is the pmd-config folder. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fcr_profile.h"

static const char *dir;

static void
every_shipped_profile_parses(void **state)
{
	struct fcr_profile p;
	struct dirent *e;
	char path[1024], err[512];
	int n = 0;
	DIR *d = opendir(dir);

	(void)state;
	assert_non_null(d);
	setenv("FCR_PCAP_IN", "/tmp/in.pcap", 1);
	setenv("FCR_PCAP_OUT", "/tmp", 1);
	setenv("FCR_MEMIF_DIR", "/tmp", 1);
	setenv("FCR_PCI0", "0000:01:00.0", 1);
	setenv("FCR_PCI1", "0000:01:00.1", 1);
	while ((e = readdir(d)) != NULL) {
		size_t l = strlen(e->d_name);

		if (l < 6 || strcmp(e->d_name + l - 5, ".conf") != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (fcr_profile_load(path, &p, err, sizeof(err)) != 0)
			fail_msg("%s", err);
		assert_true(p.nb_eal > 0);
		assert_true(p.description[0] != '\0');
		fcr_profile_free(&p);
		n++;
	}
	closedir(d);
	/* pcap, memif, null, tap and three NICs */
	assert_true(n >= 7);
}

static void
nic_profiles_spread_fcoe_and_carry_a_lossless_class(void **state)
{
	static const char *const nics[] = { "i40e", "ice", "mlx5" };
	struct fcr_profile p;
	char path[1024], err[512];
	unsigned int i;

	(void)state;
	for (i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "%s/%s.conf", dir, nics[i]);
		assert_int_equal(fcr_profile_load(path, &p, err, sizeof(err)), 0);
		/* RSS cannot be trusted to hash FCoE: one queue per port, a
		 * distributor lcore deals it to the workers */
		assert_int_equal(p.steering, 0);
		assert_string_equal(p.distributor, "(0,0,1),(1,0,1)");
		assert_int_equal(p.rxq, 1);
		assert_int_equal(p.lossless_priority, 3);
		assert_true(p.mtu >= 2500);
		assert_string_equal(p.eal[1], "0000:01:00.0");
		fcr_profile_free(&p);
	}
	snprintf(path, sizeof(path), "%s/pcap.conf", dir);
	assert_int_equal(fcr_profile_load(path, &p, err, sizeof(err)), 0);
	assert_int_equal(p.steering, 0);
	assert_string_equal(p.name, "pcap");
	assert_string_equal(p.eal[4], "--vdev");
	assert_non_null(strstr(p.eal[5], "rx_pcap=/tmp/in.pcap"));
	fcr_profile_free(&p);
}

#define LONG_COMMENT_16 "0123456789abcdef"
#define LONG_COMMENT_256 LONG_COMMENT_16 LONG_COMMENT_16 LONG_COMMENT_16 LONG_COMMENT_16 \
	LONG_COMMENT_16 LONG_COMMENT_16 LONG_COMMENT_16 LONG_COMMENT_16 LONG_COMMENT_16 \
	LONG_COMMENT_16 LONG_COMMENT_16 LONG_COMMENT_16 LONG_COMMENT_16 LONG_COMMENT_16 \
	LONG_COMMENT_16 LONG_COMMENT_16
#define LONG_COMMENT LONG_COMMENT_256 LONG_COMMENT_256 LONG_COMMENT_256 LONG_COMMENT_256

static void
broken_profiles_say_where_and_what(void **state)
{
	static const struct {
		const char *text;
		const char *expect;
	} cases[] = {
		{ "rxd = 1024\ncolour = blue\n", ":2: unknown key 'colour'" },
		{ "rxd = 10\n", ":1: rxd: '10' is not 32..16384" },
		{ "# c\n\nmtu = 900\n", ":3: mtu: '900' is not 1500..9600" },
		{ "burst = -1\n", ":1: burst: '-1' is not 1..64" },
		{ "fcoe_steering = magic\n", ":1: fcoe_steering: 'magic'" },
		{ "offloads = tso\n", ":1: offloads: 'tso'" },
		{ "lossless_priority = 8\n", ":1: lossless_priority" },
		{ "just words\n", ":1: expected 'key = value'" },
		{ "eal = ${FCR_SURELY_NOT_SET}\n", ":1: environment variable FCR_SURELY_NOT_SET is not set" },
		{ "rxq = \n", ":1: rxq: empty value" },
		{ "config = 0,0,1\n", ":1: config: expected" },
		{ "distributor = 0,0,1\n", ":1: distributor: expected" },
		{ "rxq = 2\nfcoe_queues = 0,1,2\n", "fcoe_queues: queue 2 but rxq = 2" },
		{ "fcoe_queues = 0,x\n", ":1: fcoe_queues: 'x'" },
		/* errors after an eal line: what it allocated is freed */
		{ "eal = -l 0,1\njust words\n", ":2: expected 'key = value'" },
		{ "eal = -l 0,1\neal = ${FCR_SURELY_NOT_SET}\n", ":2: environment variable" },
		{ "eal = -l 0,1\nrxq = ${FCR_\n", ":2: bad ${...}" },
		{ "eal = -l 0,1\nrxq = 1 # " LONG_COMMENT "\n", ":2: line too long" },
	};
	struct fcr_profile p;
	char err[512];
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char path[] = "/tmp/fcr-profile-XXXXXX";
		int fd = mkstemp(path);
		FILE *f = fdopen(fd, "w");

		assert_non_null(f);
		fputs(cases[i].text, f);
		fclose(f);
		err[0] = '\0';
		assert_int_equal(fcr_profile_load(path, &p, err, sizeof(err)), -1);
		assert_int_equal(p.nb_eal, 0);
		remove(path);
		if (strstr(err, cases[i].expect) == NULL || strstr(err, path) != err)
			fail_msg("case %u: got '%s', want '%s'", i, err, cases[i].expect);
	}
	assert_int_equal(fcr_profile_load("/nonexistent/x.conf", &p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "cannot open"));
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_shipped_profile_parses),
		cmocka_unit_test(nic_profiles_spread_fcoe_and_carry_a_lossless_class),
		cmocka_unit_test(broken_profiles_say_where_and_what),
	};

	dir = argc > 1 ? argv[1] : "pmd-config";
	return cmocka_run_group_tests(tests, NULL, NULL);
}
