/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Text forms users type and read: WWPNs (21:00:00:24:ff:3a:5b:01), FCIDs
 * (0x010203 or 01.02.03), MACs (0e:fc:00:01:02:03), times (ISO 8601, UTC)
 * and ages (1h02m03s). Parsers return 0 or -1; on -1 *err (when err is not
 * NULL) says what was expected.
 */
#ifndef FCR_TEXT_H
#define FCR_TEXT_H

#include <stdint.h>

#define FCR_WWPN_STRLEN 24 /* "xx:xx:xx:xx:xx:xx:xx:xx" + NUL */
#define FCR_FCID_STRLEN 9  /* "0x010203" + NUL */
#define FCR_MAC_STRLEN 18  /* "xx:xx:xx:xx:xx:xx" + NUL */
#define FCR_TIME_STRLEN 32 /* "2026-12-07T10:13:03.123Z" + NUL, with room */
#define FCR_AGE_STRLEN 24  /* "106751991167d07h" + NUL, with room */

int fcr_wwpn_parse(const char *s, uint64_t *out, const char **err);
const char *fcr_wwpn_format(uint64_t wwpn, char buf[FCR_WWPN_STRLEN]);

/* Accepts 0x followed by 1-6 hex digits, or dd.aa.pp (two hex digits each). */
int fcr_fcid_parse(const char *s, uint32_t *out, const char **err);
const char *fcr_fcid_format(uint32_t fcid, char buf[FCR_FCID_STRLEN]);
const char *fcr_fcid_format_dotted(uint32_t fcid, char buf[FCR_FCID_STRLEN]);

/* Six two-digit hex bytes separated by ':' or '-'. */
int fcr_mac_parse(const char *s, uint8_t mac[6], const char **err);
const char *fcr_mac_format(const uint8_t mac[6], char buf[FCR_MAC_STRLEN]);

/* The one time format of every display: ISO 8601 in UTC, to the second
 * ("2026-12-07T10:13:03Z") or, given ms since the epoch, to the ms
 * ("2026-12-07T10:13:03.123Z"). */
const char *fcr_time_format(int64_t seconds, char buf[FCR_TIME_STRLEN]);
const char *fcr_time_format_ms(uint64_t ms, char buf[FCR_TIME_STRLEN]);
/* The same in ISO 8601's basic form, for a file name (no colons):
 * "20261207T101303Z". */
const char *fcr_time_format_basic(int64_t seconds, char buf[FCR_TIME_STRLEN]);

/* A duration in seconds as its two largest units: "45s", "2m05s",
 * "1h02m", "3d04h". */
const char *fcr_age_format(uint64_t seconds, char buf[FCR_AGE_STRLEN]);

/* Whether argv asks for `--version`: then "<prog> <version>" is printed
 * (the meson project's version) and the caller exits 0. */
int fcr_version_asked(int argc, char **argv, const char *prog);

#endif /* FCR_TEXT_H */
