/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Fuzz target "config": the command grammar of every kind of object and a
 * configuration applied all or nothing, as `load config` does (parse each
 * line, check it, apply them as one step). Whatever comes in: every
 * refusal says why, a file refused anywhere changes nothing, and what
 * `save config` then writes parses again line by line.
 *
 * One input: text, lines ending in '\n' (at most CZ_LINES of them; a NUL
 * ends the text, as it ends a C string read from a file).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fcr_config.h"
#include "fcr_kind.h"
#include "fcr_tables.h"
#include "fuzz.h"
#include "fuzz_tables.h"

#define CZ_LINES 64
#define CZ_MAX (CZ_LINES * (FCR_CMD_LINE_LEN + 1))

static const struct fcr_tables_params cz_tp = {
	.max_flows = 1024, .max_routes = 64, .max_bindings = 64,
	.max_redirects = 8, .nb_workers = 1, .nb_ports = 4, .socket = 0,
};
static struct fcr_tables *cz_t;
static struct fcr_cmd_def defs[64];
static size_t nb_defs;
static FILE *devnull;
static unsigned long cz_inputs;

static struct {
	long applied, refused_parse, refused_check, refused_apply, lines;
} tally;

/* save config's text (malloc'd). */
static char *
saved(const struct fcr_tables *t)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	FZ_CHECK(f != NULL, "open_memstream");
	fcr_config_save((struct fcr_tables *)(uintptr_t)t, f);
	fclose(f);
	return buf;
}

/* What save config wrote is configuration the grammar takes, line by line. */
static void
check_saved_parses(const char *text)
{
	char line[FCR_CMD_LINE_LEN + 1], msg[FCR_CMD_MSG_LEN];
	const char *p = text;

	while (*p != '\0') {
		size_t n = strcspn(p, "\n");
		struct fcr_cmd c;

		FZ_CHECK(n < FCR_CMD_LINE_LEN, "save config wrote a line of %zu bytes", n);
		memcpy(line, p, n);
		line[n] = '\0';
		FZ_CHECK(fcr_cmd_parse(defs, nb_defs, line, &c, msg) >= 0,
			 "save config wrote '%.80s', which does not parse: %.80s", line, msg);
		p += n + (p[n] == '\n');
	}
}

/* save config's lines in byte order, in place: a refused file must leave
 * the same objects, which need not be listed in the same order (an object
 * taken back may take another slot of its table). */
static int
line_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void
sort_lines(char *text)
{
	size_t len = strlen(text), n = 0, i, at = 0;
	char **v, *copy;

	for (i = 0; i < len; i++)
		n += text[i] == '\n';
	v = malloc((n + 1) * sizeof(*v));
	copy = strdup(text);
	FZ_CHECK(v != NULL && copy != NULL, "malloc");
	n = 0;
	for (char *p = strtok(copy, "\n"); p != NULL; p = strtok(NULL, "\n"))
		v[n++] = p;
	qsort(v, n, sizeof(*v), line_cmp);
	for (i = 0; i < n; i++)
		at += (size_t)sprintf(text + at, "%s\n", v[i]);
	text[at] = '\0';
	free(copy);
	free(v);
}

static int
config_one(const uint8_t *data, size_t size)
{
	static struct fcr_config_line lines[CZ_LINES];
	static char text[CZ_MAX + 1];
	char msg[FCR_CMD_MSG_LEN], *before, *after, *p;
	unsigned int n = 0, lineno = 0;
	int bad = 0, rc;

	if (size > CZ_MAX)
		return -1;
	/* a fresh table now and then: a full one only refuses */
	if (++cz_inputs % 512 == 0) {
		fcr_tables_free(cz_t);
		cz_t = fcr_tables_create("fzcf", &cz_tp);
		FZ_CHECK(cz_t != NULL, "tables");
	}
	memcpy(text, data, size);
	text[size] = '\0';
	for (p = text; *p != '\0' && !bad; ) {
		size_t len = strcspn(p, "\n");
		char line[FCR_CMD_LINE_LEN + 1];
		struct fcr_cmd c;
		int r;

		lineno++;
		if (len >= FCR_CMD_LINE_LEN || lineno > CZ_LINES)
			return -1;
		memcpy(line, p, len);
		line[len] = '\0';
		p += len + (p[len] == '\n');
		tally.lines++;
		msg[0] = '\0';
		r = fcr_cmd_parse(defs, nb_defs, line, &c, msg);
		FZ_CHECK(r >= -1 && r <= 1, "fcr_cmd_parse returned %d", r);
		if (r < 0) {
			FZ_CHECK(msg[0] != '\0', "'%.200s' refused without a reason", line);
			tally.refused_parse++;
			bad = 1;
		} else if (r > 0 && !(c.def->flags & FCR_CMD_CONFIG)) {
			bad = 1; /* a list command: not configuration */
		} else if (r > 0 && fcr_config_check(cz_t, &c, msg) < 0) {
			FZ_CHECK(msg[0] != '\0', "'%.200s' refused by the check without a "
				 "reason", line);
			tally.refused_check++;
			bad = 1;
		} else if (r > 0) {
			lines[n].cmd = c;
			lines[n].lineno = lineno;
			n++;
		}
	}
	if (bad || n == 0)
		return 0;
	before = saved(cz_t);
	rc = fcr_config_apply(cz_t, lines, n, "fuzz", devnull);
	after = saved(cz_t);
	if (rc < 0) {
		tally.refused_apply++;
		sort_lines(before);
		sort_lines(after);
		if (strcmp(before, after) != 0) {
			size_t at = 0;

			while (before[at] == after[at])
				at++;
			while (at > 0 && before[at - 1] != '\n')
				at--;
			FZ_CHECK(0, "a file refused at apply left changes, from:\n%.100s---\n"
				 "%.100s", before + at, after + at);
		}
	} else {
		tally.applied++;
	}
	check_saved_parses(after);
	fz_check_tables(cz_t);
	free(before);
	free(after);
	return 0;
}

/* ------------------------------------------------------------------ */

/* A word for placeholder ph: mostly what it takes, sometimes near it. */
static void
cz_word(struct tu_rng *r, const char *ph, size_t phlen, char *out, size_t cap)
{
	static const char *junk[] = { "", "x", "-1", "0x", "4096", "99999999999",
				      "::", "0/0", "ff:ff", "1e3", "\t", "#" };

	if (tu_below(r, 12) == 0) {
		snprintf(out, cap, "%s", junk[tu_below(r, RTE_DIM(junk))]);
		return;
	}
	if (strncmp(ph, "<vlan>", phlen) == 0)
		snprintf(out, cap, "%u", tu_below(r, 8) ? tu_below(r, 4) : tu_below(r, 5000));
	else if (strncmp(ph, "<wwpn>", phlen) == 0)
		snprintf(out, cap, "2%u:00:00:00:00:00:00:%02x", tu_below(r, 2),
			 tu_below(r, 12));
	else if (strncmp(ph, "<fcid>", phlen) == 0)
		snprintf(out, cap, "0x%02x00%02x", 1 + tu_below(r, 3), tu_below(r, 12));
	else if (strncmp(ph, "<prefix>", phlen) == 0)
		snprintf(out, cap, "0x%02x0000/%u", 1 + tu_below(r, 3),
			 tu_below(r, 4) ? 8 : tu_below(r, 30));
	else if (strncmp(ph, "<port>", phlen) == 0)
		snprintf(out, cap, "%u", tu_below(r, 6));
	else if (strncmp(ph, "<mac>", phlen) == 0)
		snprintf(out, cap, "0e:fc:00:%02x:%02x:%02x", tu_below(r, 4),
			 tu_below(r, 4), tu_below(r, 256));
	else
		snprintf(out, cap, "%u", tu_below(r, 100));
}

/* A file of lines made from the kinds' syntax, with words cut, swapped,
 * doubled and replaced, and now and then bytes flipped. */
static size_t
cz_make(struct tu_rng *r, void *buf, size_t cap)
{
	char *out = buf;
	size_t len = 0;
	unsigned int k, nl = 1 + tu_below(r, 6);

	for (k = 0; k < nl; k++) {
		const char *w = defs[tu_below(r, (uint32_t)nb_defs)].syntax;
		char line[FCR_CMD_LINE_LEN];
		size_t l = 0;

		while (*w != '\0' && l + 64 < sizeof(line)) {
			size_t wl = strcspn(w, " ");
			char word[64];

			if (fcr_cmd_is_placeholder(w))
				cz_word(r, w, wl, word, sizeof(word));
			else
				snprintf(word, sizeof(word), "%.*s", (int)wl, w);
			if (tu_below(r, 40) != 0) /* a word dropped */
				l += (size_t)snprintf(line + l, sizeof(line) - l, "%s%s",
						      l ? " " : "", word);
			if (tu_below(r, 60) == 0) /* or doubled */
				l += (size_t)snprintf(line + l, sizeof(line) - l, " %s", word);
			w += wl;
			while (*w == ' ')
				w++;
		}
		if (tu_below(r, 10) == 0 && l > 0)
			line[tu_below(r, (uint32_t)l)] ^= (char)(1u << tu_below(r, 7));
		if (tu_below(r, 15) == 0)
			l = (size_t)snprintf(line, sizeof(line), "# %s", "a comment");
		if (len + l + 1 >= cap)
			break;
		memcpy(out + len, line, l);
		len += l;
		out[len++] = '\n';
	}
	return len;
}

static void
fuzz_config_files(void **state)
{
	static char in[CZ_MAX];
	long n = fz_iters_or(20000);
	char extra[200];
	double t0 = fz_now();

	(void)state;
	fz_run_made(5, n, cz_make, in, sizeof(in));
	snprintf(extra, sizeof(extra), "%ld lines; files applied %ld, refused: parse %ld, "
		 "check %ld, apply %ld", tally.lines, tally.applied, tally.refused_parse,
		 tally.refused_check, tally.refused_apply);
	fz_report(n, "files", t0, extra);
	assert_true(tally.applied > 0 && tally.refused_parse > 0 && tally.refused_check > 0);
}

static int
config_init(void)
{
	nb_defs = fcr_kind_cmds(defs, RTE_DIM(defs));
	devnull = fopen("/dev/null", "w");
	cz_t = fcr_tables_create("fzcf", &cz_tp);
	return cz_t != NULL && devnull != NULL ? 0 : -1;
}

static void
config_fini(void)
{
	fcr_tables_free(cz_t);
	if (devnull != NULL)
		fclose(devnull);
}

const struct fz_target fz_this = {
	.name = "config",
	.init = config_init,
	.fini = config_fini,
	.one = config_one,
	.test = cmocka_unit_test(fuzz_config_files),
};
