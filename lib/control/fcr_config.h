/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The commands of every kind of object (lib/kind/): `<kind> add`, `del`
 * and `list`, a configuration file applied all or nothing, `save config`.
 * One path for each, whatever the kind: the generic code loops over the
 * kinds' operations. Runs on the thread that changes the tables (the tables
 * lcore); fcr_config_check also at the door, on the command-line thread.
 */
#ifndef FCR_CONFIG_H
#define FCR_CONFIG_H

#include <stdio.h>

#include "fcr_cmd.h"

struct fcr_tables;
struct fcr_kind;

/* A line of a configuration file, parsed. */
struct fcr_config_line {
	struct fcr_cmd cmd;
	unsigned int lineno;
};

/* Whether a kind's add or del command can be applied (the checks the
 * grammar cannot make: a port that exists, four distinct redirect
 * ports). 0, or -1 and msg. */
int fcr_config_check(const struct fcr_tables *t, const struct fcr_cmd *c,
		     char msg[FCR_CMD_MSG_LEN]);

/* Run a kind's command (c->def->kind set); errors as "error: ..." lines
 * on out. 0 or -1. */
int fcr_config_run(struct fcr_tables *t, const struct fcr_cmd *c, FILE *out);

/* Apply n kind commands as one step: when one fails, the ones before are
 * undone and nothing of them stays. 0 or -1 (said on out, with where and
 * the line number). */
int fcr_config_apply(struct fcr_tables *t, const struct fcr_config_line *lines,
		     unsigned int n, const char *where, FILE *out);

struct fcr_rec;

/*
 * Records from the configuration store, each checked and set as its
 * command would be (deletions: the object's gone, if it was there). With
 * replace, every object of configuration that is not among them is
 * deleted first: the tables then hold what the store holds. Returns how
 * many records were refused; each refusal is an "error: ..." line on out
 * and, when refused is not NULL, refused[i] = 1 (else 0).
 */
unsigned int fcr_config_set_recs(struct fcr_tables *t, const struct fcr_rec *recs,
				 unsigned int n, int replace, FILE *out, uint8_t *refused);
/* The first half of a replace: every object of configuration not among
 * recs deleted (the store's thread then sets recs a part at a time, so the
 * tables lcore serves the workers between). 0, or -1 when out of memory. */
int fcr_config_keep_only(struct fcr_tables *t, const struct fcr_rec *recs, unsigned int n);

/* Every object that is configuration, as the add commands that make it. */
void fcr_config_save(struct fcr_tables *t, FILE *f);

struct fcr_field;

/* An object's fields as a table's row (their widths), or the table's
 * header (their names), ending the line. */
void fcr_fields_row(FILE *out, const struct fcr_field *f, int n, int header);

/* `<kind> list`: a line per object, then the counts. */
void fcr_config_list(struct fcr_tables *t, const struct fcr_kind *k, FILE *out);

#endif /* FCR_CONFIG_H */
