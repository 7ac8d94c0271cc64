/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Fuzz target "profile": the port profile parser (the files of
 * pmd-config/, `--pmd-config`). Whatever the file holds: loaded, or refused with the
 * file's name and a line number first and nothing left allocated.
 *
 * One input: the file's bytes.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fcr_profile.h"
#include "fuzz.h"

#define PZ_MAX 8192

static int pz_fd = -1;
static char pz_path[64];

static struct {
	long loaded, refused;
} tally;

static int
profile_one(const uint8_t *data, size_t size)
{
	struct fcr_profile p;
	char err[512];
	int rc;

	if (size > PZ_MAX)
		return -1;
	FZ_CHECK(ftruncate(pz_fd, 0) == 0 && pwrite(pz_fd, data, size, 0) == (ssize_t)size,
		 "writing the profile");
	err[0] = '\0';
	rc = fcr_profile_load(pz_path, &p, err, sizeof(err));
	FZ_CHECK(rc == 0 || rc == -1, "fcr_profile_load returned %d", rc);
	if (rc == 0) {
		tally.loaded++;
		FZ_CHECK(p.nb_eal >= 0 && p.nb_eal <= FCR_PROFILE_MAX_EAL, "%d EAL words",
			 p.nb_eal);
		fcr_profile_free(&p);
	} else {
		tally.refused++;
		FZ_CHECK(strncmp(err, pz_path, strlen(pz_path)) == 0 && err[strlen(pz_path)] == ':',
			 "refused without the file's name first: '%s'", err);
		FZ_CHECK(p.nb_eal == 0, "a refused profile holds %d EAL words", p.nb_eal);
	}
	return 0;
}

/* ------------------------------------------------------------------ */

static const char *const pz_keys[] = {
	"eal", "rxq", "rxd", "txd", "mtu", "burst", "config", "distributor", "offloads",
	"fcoe_steering", "fcoe_queues", "fip_queue", "lossless_priority", "description",
};

static const char *const pz_values[] = {
	"1", "2", "64", "1024", "2500", "9600", "0", "-1", "x", "(0,0,1)", "(0,0,1),(1,0,1)",
	"(9,9,9)", "none", "rss", "queue", "0,1", "0,x", "3", "-l 0,1 --no-huge",
	"${HOME}", "${FCR_SURELY_NOT_SET}", "${", "vlan_strip", "a b c d e f g h i j k l m",
};

/* A file of key = value lines, some broken, some long. */
static size_t
pz_make(struct tu_rng *r, void *buf, size_t cap)
{
	char *out = buf;
	size_t len = 0;
	unsigned int k, n = tu_below(r, 12);

	for (k = 0; k < n && len + 200 < cap; k++) {
		switch (tu_below(r, 12)) {
		case 0: /* a comment or a blank line */
			len += (size_t)snprintf(out + len, cap - len, tu_below(r, 2) ? "# c\n" : "\n");
			break;
		case 1: /* no '=' */
			len += (size_t)snprintf(out + len, cap - len, "%s\n",
						pz_keys[tu_below(r, RTE_DIM(pz_keys))]);
			break;
		case 2: /* many EAL words */
			len += (size_t)snprintf(out + len, cap - len, "eal = ");
			for (unsigned int w = tu_below(r, 40); w > 0 && len + 8 < cap - 100; w--)
				len += (size_t)snprintf(out + len, cap - len, "-w%u ", w);
			out[len++] = '\n';
			break;
		default:
			len += (size_t)snprintf(out + len, cap - len, "%s%s=%s%s\n",
						pz_keys[tu_below(r, RTE_DIM(pz_keys))],
						tu_below(r, 2) ? " " : "",
						tu_below(r, 2) ? " " : "",
						pz_values[tu_below(r, RTE_DIM(pz_values))]);
			break;
		}
	}
	if (tu_below(r, 8) == 0 && len > 0) /* a byte flipped */
		out[tu_below(r, (uint32_t)len)] ^= (char)(1u << tu_below(r, 8));
	if (tu_below(r, 20) == 0 && len + 1100 < cap) { /* a line too long */
		memset(out + len, 'a', 1100);
		len += 1100;
	}
	return len;
}

static void
fuzz_profile_files(void **state)
{
	static char in[PZ_MAX];
	long n = fz_iters_or(20000);
	char extra[100];
	double t0 = fz_now();

	(void)state;
	fz_run_made(6, n, pz_make, in, sizeof(in));
	snprintf(extra, sizeof(extra), "%ld loaded, %ld refused", tally.loaded, tally.refused);
	fz_report(n, "profiles", t0, extra);
	assert_true(tally.loaded > 0 && tally.refused > 0);
}

static int
profile_init(void)
{
	pz_fd = memfd_create("fcr-fuzz-profile", 0);
	if (pz_fd < 0)
		return -1;
	snprintf(pz_path, sizeof(pz_path), "/proc/self/fd/%d", pz_fd);
	return 0;
}

static void
profile_fini(void)
{
	if (pz_fd >= 0)
		close(pz_fd);
}

const struct fz_target fz_this = {
	.name = "profile",
	.init = profile_init,
	.fini = profile_fini,
	.one = profile_one,
	.test = cmocka_unit_test(fuzz_profile_files),
};
