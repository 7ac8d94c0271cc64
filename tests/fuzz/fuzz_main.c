/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The cmocka runner of one fuzz target: FCR_FUZZ_SEED and FCR_FUZZ_ITERS,
 * EAL with its own file prefix, the target's test. Kept apart from the
 * targets so a libFuzzer harness can link them without this main.
 */
#include <stdio.h>
#include <stdlib.h>

#include "fcr_crc.h"
#include "fuzz.h"

static int
setup(void **state)
{
	char prog[32];

	(void)state;
	snprintf(prog, sizeof(prog), "test_fuzz_%s", fz_this.name);
	if (tu_eal_init(prog, "256", "0") < 0)
		return -1;
	fcr_crc_init();
	return fz_this.init();
}

static int
teardown(void **state)
{
	(void)state;
	fz_this.fini();
	rte_eal_cleanup();
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = { fz_this.test };
	const char *v;

	if ((v = getenv("FCR_FUZZ_SEED")) != NULL)
		fz_seed = strtoull(v, NULL, 0);
	if ((v = getenv("FCR_FUZZ_ITERS")) != NULL)
		fz_iters = strtol(v, NULL, 0);
	printf("fuzz: FCR_FUZZ_SEED=0x%llx FCR_FUZZ_ITERS=%s\n",
	       (unsigned long long)fz_seed, fz_iters > 0 ? v : "(defaults)");
	return cmocka_run_group_tests(tests, setup, teardown);
}
