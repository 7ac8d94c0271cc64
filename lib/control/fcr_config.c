/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "fcr_config.h"
#include "fcr_kind.h"
#include "fcr_tables.h"

static const char *
err_text(int rc)
{
	switch (rc) {
	case -ENOSPC: return "table full";
	case -ENOENT: return "no such entry";
	case -EINVAL: return "invalid value";
	default: return strerror(-rc);
	}
}

int
fcr_config_check(const struct fcr_tables *t, const struct fcr_cmd *c,
		 char msg[FCR_CMD_MSG_LEN])
{
	const struct fcr_kind *k = c->def->kind;
	struct fcr_rec r;

	if (k == NULL || c->def->op == FCR_OP_LIST)
		return 0;
	k->cmd_rec(c, &r);
	return k->check(t, &r, msg);
}

/* An object, or the counts under a list, as a line of text. */
static void
print_fields(FILE *out, const struct fcr_field *f, int n, unsigned int only)
{
	int i;

	for (i = 0; i < n; i++) {
		if ((only && !(f[i].flags & only)) || (f[i].flags & FCR_FIELD_DATA))
			continue;
		if (!(f[i].flags & FCR_FIELD_BARE))
			fprintf(out, " %s", f[i].name);
		if (f[i].flags & FCR_FIELD_NUM)
			fprintf(out, " %" PRIu64, f[i].num);
		else
			fprintf(out, " %s", f[i].value);
	}
}

void
fcr_fields_row(FILE *out, const struct fcr_field *f, int n, int header)
{
	int i;

	for (i = 0; i < n; i++) {
		const char *sep = i + 1 < n ? " " : "\n";

		if (header)
			fprintf(out, "%-*s%s", i + 1 < n ? f[i].width : 0, f[i].name, sep);
		else if (f[i].flags & FCR_FIELD_NUM)
			fprintf(out, "%-*" PRIu64 "%s", i + 1 < n ? f[i].width : 0, f[i].num, sep);
		else
			fprintf(out, "%-*s%s", i + 1 < n ? f[i].width : 0, f[i].value, sep);
	}
}

void
fcr_config_list(struct fcr_tables *t, const struct fcr_kind *k, FILE *out)
{
	struct fcr_field f[FCR_FIELDS_MAX];
	uint32_t i, slots = k->slots(t);
	struct fcr_sync_meta m;
	int n, config;

	for (i = 0; i < slots; i++) {
		if (!k->slot(t, i, &m))
			continue;
		n = k->fields(t, i, f, &config);
		fputs(k->name, out);
		print_fields(out, f, n, 0);
		fputc('\n', out);
	}
	/* "3 routes", "2 redirects, 1 active" */
	n = k->counts(t, f);
	for (i = 0; i < (uint32_t)n; i++)
		fprintf(out, "%s%" PRIu64 " %s", i ? ", " : "", f[i].num, f[i].name);
	fputc('\n', out);
}

void
fcr_config_save(struct fcr_tables *t, FILE *f)
{
	struct fcr_field fl[FCR_FIELDS_MAX];
	struct fcr_sync_meta m;
	int k, n, config;
	uint32_t i;

	for (k = 0; k < FCR_KIND_COUNT; k++) {
		const struct fcr_kind *kind = fcr_kinds[k];

		if (kind->cmds == NULL)
			continue;
		for (i = 0; i < kind->slots(t); i++) {
			if (!kind->slot(t, i, &m))
				continue;
			n = kind->fields(t, i, fl, &config);
			if (!config)
				continue;
			fprintf(f, "%s add", kind->name);
			print_fields(f, fl, n, FCR_FIELD_CONFIG);
			fputc('\n', f);
		}
	}
}

/* Add or delete what c says; 0, or -1 said on out. */
static int
change(struct fcr_tables *t, const struct fcr_cmd *c, FILE *out)
{
	const struct fcr_kind *k = c->def->kind;
	char msg[FCR_CMD_MSG_LEN];
	struct fcr_rec r;
	int rc;

	k->cmd_rec(c, &r);
	if (k->check(t, &r, msg) < 0) {
		fprintf(out, "error: %s\n", msg);
		return -1;
	}
	rc = k->set(t, &r);
	if (rc < 0) {
		char line[FCR_CMD_LINE_LEN];

		/* the values as typed (canonical), not the syntax */
		if (fcr_cmd_format(c, line, sizeof(line)) < 0)
			snprintf(line, sizeof(line), "%s", c->def->syntax);
		if (k->refused != NULL && k->refused(t, &r, rc, msg))
			fprintf(out, "error: %s: %s\n", line, msg);
		else if (rc == -ENOENT)
			fprintf(out, "error: %s: no such %s\n", line, k->name);
		else
			fprintf(out, "error: %s: %s\n", line, err_text(rc));
		return -1;
	}
	return 0;
}

int
fcr_config_run(struct fcr_tables *t, const struct fcr_cmd *c, FILE *out)
{
	if (c->def->op == FCR_OP_LIST) {
		fcr_config_list(t, c->def->kind, out);
		return 0;
	}
	return change(t, c, out);
}

/* What a line changes, as it was: the object's record, or its deletion
 * when there was none; and the object it takes from, as it was (has_other). */
static void
before(struct fcr_tables *t, const struct fcr_cmd *c, struct fcr_rec *old,
       struct fcr_rec *other, uint8_t *has_other)
{
	const struct fcr_kind *k = c->def->kind;
	struct fcr_rec_ctx ctx = { 0 };
	struct fcr_rec r;
	int i;

	k->cmd_rec(c, &r);
	i = k->find(t, &r.key);
	if (i >= 0) {
		k->rec(t, (uint32_t)i, &ctx, old);
	} else {
		*old = r;
		old->type = (uint8_t)(k->rec_type + 1);
	}
	*has_other = k->displaces != NULL && k->displaces(t, &r, other) == 1;
}

int
fcr_config_apply(struct fcr_tables *t, const struct fcr_config_line *lines,
		 unsigned int n, const char *where, FILE *out)
{
	/* per line: the object as it was, then the one it took from */
	struct fcr_rec *undo = calloc(2 * (n ? n : 1), sizeof(*undo));
	uint8_t *has_other = calloc(n ? n : 1, 1);
	FILE *quiet;
	unsigned int i;
	int rc = 0;

	if (undo == NULL || has_other == NULL) {
		free(undo);
		free(has_other);
		fprintf(out, "error: %s: out of memory\n", where);
		return -1;
	}
	quiet = fopen("/dev/null", "w");
	for (i = 0; i < n; i++) {
		const struct fcr_cmd *c = &lines[i].cmd;

		before(t, c, &undo[2 * i], &undo[2 * i + 1], &has_other[i]);
		if (change(t, c, quiet ? quiet : out) < 0) {
			fprintf(out, "error: %s:%u: %s could not be applied (a table is full?)\n",
				where, lines[i].lineno, c->def->syntax);
			rc = -1;
			break;
		}
	}
	if (quiet)
		fclose(quiet);
	if (rc != 0) {
		/* the refused line too: it may have got half way */
		for (i++; i > 0; i--) {
			const struct fcr_kind *k = lines[i - 1].cmd.def->kind;

			k->set(t, &undo[2 * (i - 1)]);
			if (has_other[i - 1])
				k->set(t, &undo[2 * (i - 1) + 1]);
		}
		fprintf(out, "error: %s: nothing of the file was applied\n", where);
	}
	free(undo);
	free(has_other);
	return rc;
}

static int
key_cmp(const void *a, const void *b)
{
	return memcmp(a, b, sizeof(struct fcr_key));
}

/* Delete each object of configuration whose key is not in keys (sorted). */
static void
delete_others(struct fcr_tables *t, const struct fcr_key *keys, unsigned int n)
{
	struct fcr_rec_ctx ctx = { 0 };
	struct fcr_field fl[FCR_FIELDS_MAX];
	struct fcr_sync_meta m;
	unsigned int k;
	uint32_t i;
	int config;

	for (k = 0; k < FCR_KIND_COUNT; k++) {
		const struct fcr_kind *kind = fcr_kinds[k];

		if (kind->cmds == NULL)
			continue;
		for (i = 0; i < kind->slots(t); i++) {
			struct fcr_rec r;

			if (!kind->slot(t, i, &m))
				continue;
			kind->fields(t, i, fl, &config);
			if (!config)
				continue;
			kind->rec(t, i, &ctx, &r);
			if (bsearch(&r.key, keys, n, sizeof(*keys), key_cmp) != NULL)
				continue;
			r.type = (uint8_t)(kind->rec_type + 1);
			kind->set(t, &r);
		}
	}
}

int
fcr_config_keep_only(struct fcr_tables *t, const struct fcr_rec *recs, unsigned int n)
{
	struct fcr_key *keys = malloc((n ? n : 1) * sizeof(*keys));
	unsigned int i;

	if (keys == NULL)
		return -1;
	for (i = 0; i < n; i++)
		keys[i] = recs[i].key;
	qsort(keys, n, sizeof(*keys), key_cmp);
	delete_others(t, keys, n);
	free(keys);
	return 0;
}

unsigned int
fcr_config_set_recs(struct fcr_tables *t, const struct fcr_rec *recs, unsigned int n,
		    int replace, FILE *out, uint8_t *refused)
{
	char msg[FCR_CMD_MSG_LEN];
	unsigned int i, nb_refused = 0;
	int rc;

	if (refused != NULL)
		memset(refused, replace, n);
	if (replace && fcr_config_keep_only(t, recs, n) < 0) {
		fprintf(out, "error: out of memory: the configuration was not replaced\n");
		return n;
	}
	for (i = 0; i < n; i++) {
		const struct fcr_kind *k = fcr_kinds[recs[i].key.kind];

		rc = 0;
		if (fcr_rec_is_del(k, &recs[i])) {
			k->set(t, &recs[i]); /* gone either way */
		} else {
			msg[0] = '\0';
			rc = k->check(t, &recs[i], msg);
			if (rc == 0) {
				rc = k->set(t, &recs[i]);
				if (rc < 0 && !(k->refused != NULL && k->refused(t, &recs[i], rc, msg)))
					msg[0] = '\0';
			}
			if (rc < 0) {
				nb_refused++;
				fprintf(out, "error: %s: %s\n", k->name,
					msg[0] ? msg : err_text(rc));
			}
		}
		if (refused != NULL)
			refused[i] = rc < 0;
	}
	return nb_refused;
}
