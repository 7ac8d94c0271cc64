/* SPDX-License-Identifier: BSD-3-Clause */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "fcr_text.h"

static int
hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* n groups of exactly two hex digits separated by one of `seps` (the same
 * separator throughout), nothing before or after. */
static int
parse_groups(const char *s, uint8_t *out, int n, const char *seps)
{
	char sep = 0;
	int i, hi, lo;

	if (s == NULL)
		return -1;
	for (i = 0; i < n; i++) {
		hi = hexval(s[0]);
		lo = hi < 0 ? -1 : hexval(s[1]);
		if (lo < 0)
			return -1;
		out[i] = (uint8_t)(hi << 4 | lo);
		s += 2;
		if (i == n - 1)
			break;
		if (*s == '\0' || strchr(seps, *s) == NULL)
			return -1;
		if (sep == 0)
			sep = *s;
		else if (*s != sep)
			return -1;
		s++;
	}
	return *s == '\0' ? 0 : -1;
}

static int
fail(const char **err, const char *msg)
{
	if (err)
		*err = msg;
	return -1;
}

int
fcr_wwpn_parse(const char *s, uint64_t *out, const char **err)
{
	uint8_t b[8];
	uint64_t v = 0;
	int i;

	if (parse_groups(s, b, 8, ":") < 0)
		return fail(err, "a WWPN is 8 colon-separated hex bytes, e.g. 21:00:00:24:ff:3a:5b:01");
	for (i = 0; i < 8; i++)
		v = v << 8 | b[i];
	*out = v;
	return 0;
}

const char *
fcr_wwpn_format(uint64_t w, char buf[FCR_WWPN_STRLEN])
{
	snprintf(buf, FCR_WWPN_STRLEN, "%02x:%02x:%02x:%02x:%02x:%02x:%02x:%02x",
		 (unsigned)(w >> 56) & 0xFF, (unsigned)(w >> 48) & 0xFF,
		 (unsigned)(w >> 40) & 0xFF, (unsigned)(w >> 32) & 0xFF,
		 (unsigned)(w >> 24) & 0xFF, (unsigned)(w >> 16) & 0xFF,
		 (unsigned)(w >> 8) & 0xFF, (unsigned)w & 0xFF);
	return buf;
}

int
fcr_fcid_parse(const char *s, uint32_t *out, const char **err)
{
	static const char *msg =
		"an FCID is 0x followed by up to 6 hex digits (0x010203) or domain.area.port (01.02.03)";
	uint8_t b[3];
	uint32_t v = 0;
	int i, d;

	if (s == NULL)
		return fail(err, msg);
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		for (i = 2; s[i] != '\0'; i++) {
			d = hexval(s[i]);
			if (d < 0 || i > 7)
				return fail(err, msg);
			v = v << 4 | (uint32_t)d;
		}
		if (i == 2)
			return fail(err, msg);
		*out = v;
		return 0;
	}
	if (parse_groups(s, b, 3, ".") < 0)
		return fail(err, msg);
	*out = (uint32_t)b[0] << 16 | (uint32_t)b[1] << 8 | b[2];
	return 0;
}

const char *
fcr_fcid_format(uint32_t fcid, char buf[FCR_FCID_STRLEN])
{
	snprintf(buf, FCR_FCID_STRLEN, "0x%06x", fcid & 0xFFFFFFu);
	return buf;
}

const char *
fcr_fcid_format_dotted(uint32_t fcid, char buf[FCR_FCID_STRLEN])
{
	snprintf(buf, FCR_FCID_STRLEN, "%02x.%02x.%02x", (fcid >> 16) & 0xFF,
		 (fcid >> 8) & 0xFF, fcid & 0xFF);
	return buf;
}

int
fcr_mac_parse(const char *s, uint8_t mac[6], const char **err)
{
	uint8_t b[6];

	if (parse_groups(s, b, 6, ":-") < 0)
		return fail(err, "a MAC is 6 hex bytes separated by ':' or '-', e.g. 0e:fc:00:01:02:03");
	memcpy(mac, b, 6);
	return 0;
}

const char *
fcr_mac_format(const uint8_t m[6], char buf[FCR_MAC_STRLEN])
{
	snprintf(buf, FCR_MAC_STRLEN, "%02x:%02x:%02x:%02x:%02x:%02x",
		 m[0], m[1], m[2], m[3], m[4], m[5]);
	return buf;
}

static const char *
time_format(int64_t seconds, const char *form, char buf[FCR_TIME_STRLEN])
{
	time_t t = (time_t)seconds;
	struct tm tm;

	if (gmtime_r(&t, &tm) == NULL || strftime(buf, FCR_TIME_STRLEN, form, &tm) == 0)
		snprintf(buf, FCR_TIME_STRLEN, "?");
	return buf;
}

const char *
fcr_time_format(int64_t seconds, char buf[FCR_TIME_STRLEN])
{
	return time_format(seconds, "%Y-%m-%dT%H:%M:%SZ", buf);
}

const char *
fcr_time_format_basic(int64_t seconds, char buf[FCR_TIME_STRLEN])
{
	return time_format(seconds, "%Y%m%dT%H%M%SZ", buf);
}

const char *
fcr_time_format_ms(uint64_t ms, char buf[FCR_TIME_STRLEN])
{
	size_t n;

	fcr_time_format((int64_t)(ms / 1000), buf);
	n = strlen(buf);
	if (n > 1 && buf[n - 1] == 'Z')
		snprintf(buf + n - 1, FCR_TIME_STRLEN - (n - 1), ".%03uZ",
			 (unsigned int)(ms % 1000));
	return buf;
}

const char *
fcr_age_format(uint64_t s, char buf[FCR_AGE_STRLEN])
{
	if (s < 60)
		snprintf(buf, FCR_AGE_STRLEN, "%us", (unsigned int)s);
	else if (s < 3600)
		snprintf(buf, FCR_AGE_STRLEN, "%um%02us", (unsigned int)(s / 60),
			 (unsigned int)(s % 60));
	else if (s < 86400)
		snprintf(buf, FCR_AGE_STRLEN, "%uh%02um", (unsigned int)(s / 3600),
			 (unsigned int)(s % 3600 / 60));
	else
		snprintf(buf, FCR_AGE_STRLEN, "%" PRIu64 "d%02uh", s / 86400,
			 (unsigned int)(s % 86400 / 3600));
	return buf;
}

int
fcr_version_asked(int argc, char **argv, const char *prog)
{
	int i;

	for (i = 1; i < argc; i++)
		if (strcmp(argv[i], "--version") == 0) {
			printf("%s %s\n", prog, FCR_VERSION);
			return 1;
		}
	return 0;
}
