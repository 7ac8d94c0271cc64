/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * LD_PRELOAD shim for the replication tests: the wall clock
 * (CLOCK_REALTIME, gettimeofday, time) of the process it is loaded into
 * runs FCR_CLOCK_SHIFT_S seconds off (negative: behind); every other clock
 * is left alone. The first shifted reading appends one line to
 * FCR_CLOCK_SHIFT_LOG, when set, so a test knows the shim was in effect.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>

static long long
shift_s(void)
{
	static int said;
	const char *v = getenv("FCR_CLOCK_SHIFT_S");
	long long s = v != NULL ? strtoll(v, NULL, 10) : 0;

	if (!said) {
		const char *log = getenv("FCR_CLOCK_SHIFT_LOG");
		FILE *f = log != NULL ? fopen(log, "a") : NULL;

		said = 1;
		if (f != NULL) {
			fprintf(f, "wall clock shifted by %lld s\n", s);
			fclose(f);
		}
	}
	return s;
}

int
clock_gettime(clockid_t id, struct timespec *ts)
{
	static int (*real)(clockid_t, struct timespec *);
	int rc;

	if (real == NULL)
		real = (int (*)(clockid_t, struct timespec *))dlsym(RTLD_NEXT, "clock_gettime");
	rc = real(id, ts);
	if (rc == 0 && (id == CLOCK_REALTIME || id == CLOCK_REALTIME_COARSE))
		ts->tv_sec += shift_s();
	return rc;
}

int
gettimeofday(struct timeval *restrict tv, void *restrict tz)
{
	struct timespec ts;

	(void)tz;
	if (clock_gettime(CLOCK_REALTIME, &ts) != 0)
		return -1;
	tv->tv_sec = ts.tv_sec;
	tv->tv_usec = ts.tv_nsec / 1000;
	return 0;
}

time_t
time(time_t *t)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	if (t != NULL)
		*t = ts.tv_sec;
	return ts.tv_sec;
}
