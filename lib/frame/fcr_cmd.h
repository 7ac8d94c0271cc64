/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Command grammar: each command is a syntax string of literal words and
 * typed <placeholders>, e.g. "route add <prefix> port <port> fpma". A line
 * is matched against the table; the result is a typed command (which
 * definition, its arguments) that holds no pointer into the line, so it
 * can be handed to another thread, or a message saying what is wrong. Pure:
 * a row names its handler and the thread it runs on; the program gathers
 * the rows (app/commands.c) into the one table that the command line,
 * `help` and the terminal's completion use.
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
#include <stdio.h>

#define FCR_CMD_MAX_ARGS 8
#define FCR_CMD_MAX_TOKENS 24
#define FCR_CMD_MSG_LEN 1024 /* room for every usage of a command word */
#define FCR_CMD_TEXT_LEN 512  /* the <word> arguments of one command */
#define FCR_CMD_LINE_LEN 1024

struct fcr_kind;
struct fcr_cmd;

/* Flags of a command */
#define FCR_CMD_CONFIG 0x02  /* may be a line of a configuration file */
#define FCR_CMD_CHANGES 0x04 /* changes something: the audit trail records it */

/* The thread a command runs on. */
enum fcr_cmd_thread {
	FCR_CMD_ON_CLI,    /* the command line's own: waits, ports, files, the store */
	FCR_CMD_ON_TABLES, /* the lcore that owns the tables: it reads or changes them */
};

/* `help`'s sections, in its order. */
enum fcr_cmd_section {
	FCR_SEC_CONTROL,
	FCR_SEC_DISPLAY,
	FCR_SEC_PORTS,
	FCR_SEC_CONFIG,
	FCR_SEC_REPLICATION,
	FCR_SEC_COUNT
};

const char *fcr_cmd_section_name(enum fcr_cmd_section s);

/* What runs a command: 0, or -1 with the reason written to out. */
typedef int fcr_cmd_fn(const struct fcr_cmd *c, FILE *out);

/* One command: its row, beside its handler in the file that owns it. */
struct fcr_cmd_def {
	const char *syntax;
	const char *help;
	fcr_cmd_fn *run;
	enum fcr_cmd_thread thread;
	enum fcr_cmd_section section;
	unsigned int flags;
	/* a kind's command (lib/kind/): the kind, what it does (FCR_OP_*)
	 * and, among rows of one op, which form (the kind's own bits) */
	const struct fcr_kind *kind;
	uint8_t op;
	uint8_t form;
};

/* Rows as a file registered them: a row without a handler takes run and
 * thread (the kinds' rows: one handler for all). */
struct fcr_cmd_rows {
	const struct fcr_cmd_def *rows;
	size_t n;
	fcr_cmd_fn *run;
	enum fcr_cmd_thread thread;
};

/*
 * The one table of every registered row: by help's section, and within a
 * section in the order given. NULL and why when a row has no handler, no
 * section of help, or the syntax of another row (or memory is short).
 * *n: its rows. Freed with free().
 */
struct fcr_cmd_def *fcr_cmd_table(const struct fcr_cmd_rows *regs, size_t nb_regs, size_t *n,
				  char why[FCR_CMD_MSG_LEN]);

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
	uint16_t word;    /* offset of the word in fcr_cmd.text */
};

struct fcr_cmd {
	const struct fcr_cmd_def *def;
	int nb_args;
	union fcr_cmd_arg arg[FCR_CMD_MAX_ARGS];
	uint16_t text_used;
	char text[FCR_CMD_TEXT_LEN];
};

/* The <word> argument i. */
static inline const char *
fcr_cmd_word(const struct fcr_cmd *c, int i)
{
	return c->text + c->arg[i].word;
}

/*
 * Parse `line` (at most FCR_CMD_LINE_LEN - 1 characters). Returns
 *   1  a command matched: *out filled
 *   0  blank line or comment (# ...)
 *  -1  no match: msg explains (unknown command, or which argument is wrong
 *      and what it should look like)
 */
/*
 * Whether a line as read (len bytes, its newline excluded, NUL bytes
 * counted) can be a command line: shorter than FCR_CMD_LINE_LEN and with
 * no control byte but tab (a carriage return only at its end, from a file
 * written on Windows). 0, or -1 and why ("control byte 0x00 at column 12":
 * the whole line is refused, never cut where the byte is).
 */
int fcr_cmd_line_check(const char *line, size_t len, char *why, size_t cap);

/* "a.b.c.d:port" -> host-order address and port. 0 or -1. */
int fcr_addr_parse(const char *s, uint32_t *ip, uint16_t *port);

int fcr_cmd_parse(const struct fcr_cmd_def *defs, size_t nb_defs, const char *line,
		  struct fcr_cmd *out, char msg[FCR_CMD_MSG_LEN]);

/* c as the one line of text that parses back to it (hex FCIDs, lower-case
 * names, single blanks): 0, or -1 when cap is too small. */
int fcr_cmd_format(const struct fcr_cmd *c, char *buf, size_t cap);

/*
 * One placeholder's argument, for the terminal, which matches a word at a
 * time: 0 when `tok` is what `ph` (e.g. "<vlan>", its length phlen)
 * accepts, *a set (not for a <word>: see fcr_cmd_add_word), else -1 and
 * *why.
 */
int fcr_cmd_arg_parse(const char *ph, size_t phlen, const char *tok,
		      union fcr_cmd_arg *a, const char **why);

/* Put word w in c as its argument i. 0, or -1 when c has no room left. */
int fcr_cmd_add_word(struct fcr_cmd *c, int i, const char *w);

/* Whether placeholder ph (its length len) is a <word>: any one token, kept
 * as text in the command. */
int fcr_cmd_placeholder_is_word(const char *ph, size_t len);

/* Whether a syntax word is a placeholder ("<vlan>"). */
static inline int
fcr_cmd_is_placeholder(const char *w)
{
	return w[0] == '<';
}

#endif /* FCR_CMD_H */
