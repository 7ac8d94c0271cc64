/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The libFuzzer entry of one fuzz target (meson -Dlibfuzzer=true, clang):
 * EAL with its own file prefix and the target's state once, then each
 * input to the target's core, the same one its cmocka test feeds.
 * Coverage-guided where the cmocka test is random.
 */
#include <stdio.h>
#include <stdlib.h>

#include "fcr_crc.h"
#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
fini(void)
{
	fz_this.fini();
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char prog[32];

	(void)argc;
	(void)argv;
	snprintf(prog, sizeof(prog), "fuzz_%s", fz_this.name);
	if (tu_eal_init(prog, "256", "0") < 0) {
		fprintf(stderr, "%s: EAL set-up failed\n", prog);
		exit(2);
	}
	fcr_crc_init();
	if (fz_this.init() < 0) {
		fprintf(stderr, "%s: set-up failed\n", prog);
		exit(2);
	}
	/* the target's state freed before LeakSanitizer looks (its own exit
	 * handler was registered first, so runs last) */
	atexit(fini);
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* -1: not an input of this target, kept out of the corpus */
	return (fz_this.fuzz_one != NULL ? fz_this.fuzz_one : fz_this.one)(data, size) < 0
		? -1 : 0;
}
