/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The cleartext guard's judge: random bytes (what a cipher writes) pass,
 * every kind of disk cleartext does not, and short payloads are not judged.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "fcr_cleartext.h"

/* xorshift64*: reproducible bytes that are random for the statistic */
static uint64_t seed = 0x9E3779B97F4A7C15ull;

static void
random_bytes(uint8_t *p, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		seed ^= seed >> 12;
		seed ^= seed << 25;
		seed ^= seed >> 27;
		p[i] = (uint8_t)((seed * 0x2545F4914F6CDD1Dull) >> 56);
	}
}

static void
random_payloads_look_encrypted(void **state)
{
	static const uint32_t sizes[] = { 512, 1024, 2048, 2112 };
	uint8_t p[2112];
	unsigned int i, k;

	(void)state;
	for (k = 0; k < 4; k++)
		for (i = 0; i < 20000; i++) {
			random_bytes(p, sizes[k]);
			assert_int_equal(fcr_cleartext_judge(p, sizes[k]), FCR_CT_RANDOM);
		}
}

static void
disk_cleartext_does_not(void **state)
{
	uint8_t p[2048];
	unsigned int i;

	(void)state;
	/* zeros (a fresh disk) */
	memset(p, 0, sizeof(p));
	assert_int_equal(fcr_cleartext_judge(p, sizeof(p)), FCR_CT_CLEAR);
	/* text */
	for (i = 0; i < sizeof(p); i++)
		p[i] = (uint8_t)"fcredirect steers a host's storage through a service node. "[i % 60];
	assert_int_equal(fcr_cleartext_judge(p, sizeof(p)), FCR_CT_CLEAR);
	/* a counting pattern: every byte value as often, too even */
	for (i = 0; i < sizeof(p); i++)
		p[i] = (uint8_t)i;
	assert_int_equal(fcr_cleartext_judge(p, sizeof(p)), FCR_CT_CLEAR);
	/* a 512-byte sector of records: a header and small integers */
	for (i = 0; i < 512; i++)
		p[i] = (uint8_t)(i % 16 < 4 ? 0xA5 : (i * 7) % 40);
	assert_int_equal(fcr_cleartext_judge(p, 512), FCR_CT_CLEAR);
	/* random data with one block in the clear: a quarter of zeros */
	random_bytes(p, sizeof(p));
	memset(p + 1024, 0, 512);
	assert_int_equal(fcr_cleartext_judge(p, sizeof(p)), FCR_CT_CLEAR);
	/* the same random data whole: encrypted-looking */
	random_bytes(p, sizeof(p));
	assert_int_equal(fcr_cleartext_judge(p, sizeof(p)), FCR_CT_RANDOM);
}

static void
short_payloads_are_not_judged(void **state)
{
	uint8_t p[FCR_CLEARTEXT_MIN] = { 0 };

	(void)state;
	assert_int_equal(fcr_cleartext_judge(p, FCR_CLEARTEXT_MIN - 1), FCR_CT_SHORT);
	assert_int_equal(fcr_cleartext_judge(p, 0), FCR_CT_SHORT);
	assert_int_equal(fcr_cleartext_judge(p, FCR_CLEARTEXT_MIN), FCR_CT_CLEAR);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(random_payloads_look_encrypted),
		cmocka_unit_test(disk_cleartext_does_not),
		cmocka_unit_test(short_payloads_are_not_judged),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
