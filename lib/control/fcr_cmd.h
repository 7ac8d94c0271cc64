/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Command grammar: each command is a syntax string of literal words and
 * typed <placeholders>, e.g. "route add <prefix> port <port> fpma". A line
 * is matched against the table; the result is the command's id and its typed
 * arguments, or a message saying what is wrong. Pure: the program binds ids
 * to handlers, and the same table feeds `help`.
 *
 * Placeholders and what they accept:
 *   <fcid>    0x010203 or 01.02.03          <prefix> <fcid>/<bits>, bits 1..24
 *   <wwpn>    21:00:00:24:ff:3a:5b:01        <mac>    0e:fc:00:01:02:03
 *   <vlan>    0..4095                        <port>   0..1023
 *   <n>, <ms> unsigned 32-bit numbers        <word>   any one token
 *   <addr>    IPv4 address and UDP port, 127.0.0.1:7000
 */
#ifndef FCR_CMD_H
#define FCR_CMD_H

#include <stddef.h>
#include <stdint.h>

#define FCR_CMD_MAX_ARGS 8
#define FCR_CMD_MAX_TOKENS 24
#define FCR_CMD_MSG_LEN 256

struct fcr_cmd_def {
	int id;
	const char *syntax;
	const char *help;
	const char *group;  /* heading in `help`; NULL: the previous one's */
};

union fcr_cmd_arg {
	uint64_t wwpn;
	uint32_t u32;
	uint32_t fcid;
	struct {
		uint32_t fcid;
		uint8_t bits;
	} prefix;
	uint8_t mac[6];
	struct {
		uint32_t ip;   /* host order */
		uint16_t port;
	} addr;
	const char *word; /* points into the caller's line buffer */
};

struct fcr_cmd {
	const struct fcr_cmd_def *def;
	int nb_args;
	union fcr_cmd_arg arg[FCR_CMD_MAX_ARGS];
};

/*
 * Parse `line` (modified in place: tokens are NUL-terminated there, so
 * <word> arguments stay valid while the line does). Returns
 *   1  a command matched: *out filled
 *   0  blank line or comment (# ...)
 *  -1  no match: msg explains (unknown command, or which argument is wrong
 *      and what it should look like)
 */
/* "a.b.c.d:port" -> host-order address and port. 0 or -1. */
int fcr_addr_parse(const char *s, uint32_t *ip, uint16_t *port);

int fcr_cmd_parse(const struct fcr_cmd_def *defs, size_t nb_defs, char *line,
		  struct fcr_cmd *out, char msg[FCR_CMD_MSG_LEN]);

#endif /* FCR_CMD_H */
