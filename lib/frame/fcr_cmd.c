/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fcr_cmd.h"
#include "fcr_text.h"

static int
tokenize(char *line, char **tok, int max)
{
	char *p = line, *hash = strchr(line, '#');
	int n = 0;

	if (hash)
		*hash = '\0';
	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
			p++;
		if (*p == '\0')
			return n;
		if (n == max)
			return -1;
		tok[n++] = p;
		while (*p && *p != ' ' && *p != '\t' && *p != '\r' && *p != '\n')
			p++;
		if (*p)
			*p++ = '\0';
	}
}

static int
parse_u32(const char *s, uint32_t max, uint32_t *out)
{
	char *end;
	unsigned long long v;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	/* decimal, or hex after 0x; never octal (a VLAN typed 010 is 10) */
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		v = strtoull(s + 2, &end, 16);
	else
		v = strtoull(s, &end, 10);
	if (end == s + 2 && s[1] != '\0' && (s[1] == 'x' || s[1] == 'X'))
		return -1;
	if (errno || *end || v > max)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

int
fcr_addr_parse(const char *s, uint32_t *ip, uint16_t *port)
{
	unsigned int a, b, c, d, p;
	int used = 0;

	if (sscanf(s, "%3u.%3u.%3u.%3u:%5u%n", &a, &b, &c, &d, &p, &used) != 5 ||
	    s[used] != '\0' || a > 255 || b > 255 || c > 255 || d > 255 ||
	    p == 0 || p > 65535)
		return -1;
	*ip = a << 24 | b << 16 | c << 8 | d;
	*port = (uint16_t)p;
	return 0;
}

static int
arg_fcid(const char *tok, union fcr_cmd_arg *a, const char **why)
{
	return fcr_fcid_parse(tok, &a->fcid, why);
}

static int
arg_wwpn(const char *tok, union fcr_cmd_arg *a, const char **why)
{
	return fcr_wwpn_parse(tok, &a->wwpn, why);
}

static int
arg_mac(const char *tok, union fcr_cmd_arg *a, const char **why)
{
	return fcr_mac_parse(tok, a->mac, why);
}

static int
arg_vlan(const char *tok, union fcr_cmd_arg *a, const char **why)
{
	*why = "a VLAN is a number from 0 to 4095";
	return parse_u32(tok, 4095, &a->u32);
}

static int
arg_port(const char *tok, union fcr_cmd_arg *a, const char **why)
{
	*why = "a port is a number from 0 to 1023";
	return parse_u32(tok, 1023, &a->u32);
}

static int
arg_addr(const char *tok, union fcr_cmd_arg *a, const char **why)
{
	*why = "an address is IPv4:port, e.g. 127.0.0.1:7000";
	return fcr_addr_parse(tok, &a->addr.ip, &a->addr.port);
}

static int
arg_number(const char *tok, union fcr_cmd_arg *a, const char **why)
{
	*why = "expected an unsigned number";
	return parse_u32(tok, UINT32_MAX, &a->u32);
}

static int
arg_prefix(const char *tok, union fcr_cmd_arg *a, const char **why)
{
	char buf[32];
	const char *slash = strchr(tok, '/');
	uint32_t bits;

	*why = "a prefix is <fcid>/<bits>, bits 1 to 24, e.g. 0x010000/8";
	if (slash == NULL || (size_t)(slash - tok) >= sizeof(buf))
		return -1;
	memcpy(buf, tok, (size_t)(slash - tok));
	buf[slash - tok] = '\0';
	if (fcr_fcid_parse(buf, &a->prefix.fcid, NULL) < 0 ||
	    parse_u32(slash + 1, 24, &bits) < 0 || bits == 0)
		return -1;
	a->prefix.bits = (uint8_t)bits;
	return 0;
}

/* An argument's text as the grammar reads it back: the one spelling. */
static void
fmt_fcid(const union fcr_cmd_arg *a, char *buf, size_t cap)
{
	char f[FCR_FCID_STRLEN];

	snprintf(buf, cap, "%s", fcr_fcid_format(a->fcid, f));
}

static void
fmt_wwpn(const union fcr_cmd_arg *a, char *buf, size_t cap)
{
	char w[FCR_WWPN_STRLEN];

	snprintf(buf, cap, "%s", fcr_wwpn_format(a->wwpn, w));
}

static void
fmt_mac(const union fcr_cmd_arg *a, char *buf, size_t cap)
{
	char m[FCR_MAC_STRLEN];

	snprintf(buf, cap, "%s", fcr_mac_format(a->mac, m));
}

static void
fmt_number(const union fcr_cmd_arg *a, char *buf, size_t cap)
{
	snprintf(buf, cap, "%u", a->u32);
}

static void
fmt_addr(const union fcr_cmd_arg *a, char *buf, size_t cap)
{
	uint32_t ip = a->addr.ip;

	snprintf(buf, cap, "%u.%u.%u.%u:%u", ip >> 24, ip >> 16 & 0xFF, ip >> 8 & 0xFF,
		 ip & 0xFF, a->addr.port);
}

static void
fmt_prefix(const union fcr_cmd_arg *a, char *buf, size_t cap)
{
	char f[FCR_FCID_STRLEN];

	snprintf(buf, cap, "%s/%u", fcr_fcid_format(a->prefix.fcid, f), a->prefix.bits);
}

/* The typed placeholders; any other is a <word>. */
static const struct {
	const char *ph;
	int (*parse)(const char *tok, union fcr_cmd_arg *a, const char **why);
	void (*format)(const union fcr_cmd_arg *a, char *buf, size_t cap);
} typed[] = {
	{ "<fcid>", arg_fcid, fmt_fcid }, { "<wwpn>", arg_wwpn, fmt_wwpn },
	{ "<mac>", arg_mac, fmt_mac }, { "<vlan>", arg_vlan, fmt_number },
	{ "<port>", arg_port, fmt_number }, { "<addr>", arg_addr, fmt_addr },
	{ "<n>", arg_number, fmt_number }, { "<ms>", arg_number, fmt_number },
	{ "<prefix>", arg_prefix, fmt_prefix },
};

static int
typed_index(const char *ph, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(typed) / sizeof(typed[0]); i++)
		if (len == strlen(typed[i].ph) && memcmp(ph, typed[i].ph, len) == 0)
			return (int)i;
	return -1;
}

int
fcr_cmd_placeholder_is_word(const char *ph, size_t len)
{
	return typed_index(ph, len) < 0;
}

/* Parse one token as placeholder `ph` (e.g. "<vlan>"). 0 or -1 with why. */
static int
parse_arg(const char *ph, size_t phlen, const char *tok, union fcr_cmd_arg *a,
	  const char **why, struct fcr_cmd *out)
{
	int t = typed_index(ph, phlen);

	if (t >= 0)
		return typed[t].parse(tok, a, why);
	/* <word>, <file>, <type>, ...: copied, so the command holds its words */
	*why = "too long";
	if (out == NULL)
		return 0;
	return fcr_cmd_add_word(out, (int)(a - out->arg), tok);
}

/*
 * Match one definition. Returns 1 on a full match, otherwise the number of
 * leading tokens that matched (negated) and a message when an argument or
 * the length was wrong.
 */
static int
match(const struct fcr_cmd_def *d, char **tok, int n, struct fcr_cmd *out,
      char *msg)
{
	const char *s = d->syntax;
	int i = 0, nargs = 0;

	while (*s) {
		const char *w = s;
		size_t wl;
		const char *why = NULL;

		while (*s && *s != ' ')
			s++;
		wl = (size_t)(s - w);
		while (*s == ' ')
			s++;
		if (i == n) {
			snprintf(msg, FCR_CMD_MSG_LEN, "incomplete command: usage: %s",
				 d->syntax);
			return -(i + 1);
		}
		if (w[0] == '<') {
			if (nargs == FCR_CMD_MAX_ARGS ||
			    parse_arg(w, wl, tok[i], &out->arg[nargs], &why, out) < 0) {
				snprintf(msg, FCR_CMD_MSG_LEN,
					 "bad %.*s '%s': %s (usage: %s)", (int)wl, w,
					 tok[i], why ? why : "invalid", d->syntax);
				return -(i + 1);
			}
			nargs++;
		} else if (strlen(tok[i]) != wl || memcmp(tok[i], w, wl) != 0) {
			if (i > 0)
				snprintf(msg, FCR_CMD_MSG_LEN,
					 "unexpected '%s': usage: %s", tok[i],
					 d->syntax);
			return -i;
		}
		i++;
	}
	if (i != n) {
		snprintf(msg, FCR_CMD_MSG_LEN, "unexpected '%s' after '%s'", tok[i],
			 d->syntax);
		return -(i + 1);
	}
	out->def = d;
	out->nb_args = nargs;
	return 1;
}

int
fcr_cmd_parse(const struct fcr_cmd_def *defs, size_t nb_defs, const char *text,
	      struct fcr_cmd *out, char msg[FCR_CMD_MSG_LEN])
{
	char *tok[FCR_CMD_MAX_TOKENS], line[FCR_CMD_LINE_LEN];
	char best_msg[FCR_CMD_MSG_LEN] = "";
	int n, best = 0, r;
	size_t i;

	if (strlen(text) >= sizeof(line)) {
		snprintf(msg, FCR_CMD_MSG_LEN, "line longer than %zu characters",
			 sizeof(line) - 1);
		return -1;
	}
	strcpy(line, text);
	n = tokenize(line, tok, FCR_CMD_MAX_TOKENS);

	if (n < 0) {
		snprintf(msg, FCR_CMD_MSG_LEN, "too many words (at most %d)",
			 FCR_CMD_MAX_TOKENS);
		return -1;
	}
	if (n == 0)
		return 0;
	for (i = 0; i < nb_defs; i++) {
		char m[FCR_CMD_MSG_LEN] = "";

		/* not the words' text: it is as long as the words copied */
		out->def = NULL;
		out->nb_args = 0;
		out->text_used = 0;
		memset(out->arg, 0, sizeof(out->arg));
		r = match(&defs[i], tok, n, out, m);
		if (r == 1)
			return 1;
		/* keep the message of the definition that got furthest; on a
		 * tie between usages, show the alternatives */
		if (-r > best && m[0]) {
			best = -r;
			memcpy(best_msg, m, sizeof(best_msg));
		} else if (-r == best && best > 0 && m[0] &&
			   strstr(m, "usage: ") != NULL &&
			   strstr(best_msg, "usage: ") != NULL) {
			size_t l = strlen(best_msg);

			snprintf(best_msg + l, sizeof(best_msg) - l, " | %s",
				 defs[i].syntax);
		}
	}
	if (best > 0)
		snprintf(msg, FCR_CMD_MSG_LEN, "%s", best_msg);
	else
		snprintf(msg, FCR_CMD_MSG_LEN, "unknown command '%s': try 'help'",
			 tok[0]);
	return -1;
}

int
fcr_cmd_arg_parse(const char *ph, size_t phlen, const char *tok, union fcr_cmd_arg *a,
		  const char **why)
{
	*why = NULL;
	return parse_arg(ph, phlen, tok, a, why, NULL);
}

int
fcr_cmd_add_word(struct fcr_cmd *c, int i, const char *w)
{
	size_t len = strlen(w) + 1;

	if (c->text_used + len > sizeof(c->text))
		return -1;
	memcpy(c->text + c->text_used, w, len);
	c->arg[i].word = c->text_used;
	c->text_used = (uint16_t)(c->text_used + len);
	return 0;
}

int
fcr_cmd_line_check(const char *line, size_t len, char *why, size_t cap)
{
	size_t i;

	if (len > 0 && line[len - 1] == '\r')
		len--;
	if (len >= FCR_CMD_LINE_LEN) {
		snprintf(why, cap, "line of %zu characters, longer than %d: refused whole",
			 len, FCR_CMD_LINE_LEN - 1);
		return -1;
	}
	for (i = 0; i < len; i++) {
		unsigned char b = (unsigned char)line[i];

		if ((b < 0x20 && b != '\t') || b == 0x7F) {
			snprintf(why, cap, "control byte 0x%02x at column %zu: line refused",
				 b, i + 1);
			return -1;
		}
	}
	return 0;
}

int
fcr_cmd_format(const struct fcr_cmd *c, char *buf, size_t cap)
{
	const char *s = c->def->syntax;
	size_t len = 0;
	int nargs = 0;

	buf[0] = '\0';
	while (*s) {
		const char *w = s;
		size_t wl;
		char arg[FCR_CMD_LINE_LEN];
		int t, n;

		while (*s && *s != ' ')
			s++;
		wl = (size_t)(s - w);
		while (*s == ' ')
			s++;
		if (w[0] != '<') {
			n = snprintf(buf + len, cap - len, "%s%.*s", len ? " " : "", (int)wl, w);
		} else {
			t = typed_index(w, wl);
			if (t >= 0)
				typed[t].format(&c->arg[nargs], arg, sizeof(arg));
			else
				snprintf(arg, sizeof(arg), "%s", fcr_cmd_word(c, nargs));
			nargs++;
			n = snprintf(buf + len, cap - len, "%s%s", len ? " " : "", arg);
		}
		if (n < 0 || (size_t)n >= cap - len)
			return -1;
		len += (size_t)n;
	}
	return 0;
}

const char *
fcr_cmd_section_name(enum fcr_cmd_section s)
{
	static const char *const names[FCR_SEC_COUNT] = {
		[FCR_SEC_CONTROL] = "Control",
		[FCR_SEC_DISPLAY] = "Display",
		[FCR_SEC_PORTS] = "Ports",
		[FCR_SEC_CONFIG] = "Configuration",
		[FCR_SEC_REPLICATION] = "Replication",
	};

	return (unsigned int)s < FCR_SEC_COUNT ? names[s] : "Other";
}

struct fcr_cmd_def *
fcr_cmd_table(const struct fcr_cmd_rows *regs, size_t nb_regs, size_t *n,
	      char why[FCR_CMD_MSG_LEN])
{
	struct fcr_cmd_def *t;
	size_t total = 0, i, j, r;
	int s;

	*n = 0;
	for (r = 0; r < nb_regs; r++)
		total += regs[r].n;
	t = calloc(total ? total : 1, sizeof(*t));
	if (t == NULL) {
		snprintf(why, FCR_CMD_MSG_LEN, "out of memory");
		return NULL;
	}
	for (s = 0; s < FCR_SEC_COUNT; s++)
		for (r = 0; r < nb_regs; r++)
			for (i = 0; i < regs[r].n; i++) {
				const struct fcr_cmd_def *d = &regs[r].rows[i];

				if (d->section != (enum fcr_cmd_section)s)
					continue;
				t[*n] = *d;
				if (d->run == NULL) {
					t[*n].run = regs[r].run;
					t[*n].thread = regs[r].thread;
				}
				if (t[*n].run == NULL) {
					snprintf(why, FCR_CMD_MSG_LEN, "command '%s' has no handler",
						 d->syntax);
					goto refused;
				}
				for (j = 0; j < *n; j++)
					if (strcmp(t[j].syntax, d->syntax) == 0) {
						snprintf(why, FCR_CMD_MSG_LEN,
							 "command '%s' is registered twice",
							 d->syntax);
						goto refused;
					}
				(*n)++;
			}
	if (*n == total)
		return t;
	for (r = 0; r < nb_regs; r++)
		for (i = 0; i < regs[r].n; i++)
			if ((unsigned int)regs[r].rows[i].section >= FCR_SEC_COUNT)
				snprintf(why, FCR_CMD_MSG_LEN, "command '%s' names no section of help",
					 regs[r].rows[i].syntax);
refused:
	free(t);
	*n = 0;
	return NULL;
}
