/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Text forms users type and read: WWPNs (21:00:00:24:ff:3a:5b:01), FCIDs
 * (0x010203 or 01.02.03) and MACs (0e:fc:00:01:02:03). Parsers return 0 or
 * -1; on -1 *err (when err is not NULL) says what was expected.
 */
#ifndef FCR_TEXT_H
#define FCR_TEXT_H

#include <stdint.h>

#define FCR_WWPN_STRLEN 24 /* "xx:xx:xx:xx:xx:xx:xx:xx" + NUL */
#define FCR_FCID_STRLEN 9  /* "0x010203" + NUL */
#define FCR_MAC_STRLEN 18  /* "xx:xx:xx:xx:xx:xx" + NUL */

int fcr_wwpn_parse(const char *s, uint64_t *out, const char **err);
const char *fcr_wwpn_format(uint64_t wwpn, char buf[FCR_WWPN_STRLEN]);

/* Accepts 0x followed by 1-6 hex digits, or dd.aa.pp (two hex digits each). */
int fcr_fcid_parse(const char *s, uint32_t *out, const char **err);
const char *fcr_fcid_format(uint32_t fcid, char buf[FCR_FCID_STRLEN]);
const char *fcr_fcid_format_dotted(uint32_t fcid, char buf[FCR_FCID_STRLEN]);

/* Six two-digit hex bytes separated by ':' or '-'. */
int fcr_mac_parse(const char *s, uint8_t mac[6], const char **err);
const char *fcr_mac_format(const uint8_t mac[6], char buf[FCR_MAC_STRLEN]);

/* Whether argv asks for `--version`: then "<prog> <version>" is printed
 * (the meson project's version) and the caller exits 0. */
int fcr_version_asked(int argc, char **argv, const char *prog);

#endif /* FCR_TEXT_H */
