/* SPDX-License-Identifier: BSD-3-Clause */
#define _GNU_SOURCE /* fopencookie */
#include <fnmatch.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "commands.h"
#include "log.h"

/* Defaults: notices and worse; `set log level fcr.* info` adds the
 * binding changes and the audit trail, debug adds the rest. */
RTE_LOG_REGISTER(fcr_logtype_main, fcr.main, NOTICE);
RTE_LOG_REGISTER(fcr_logtype_port, fcr.port, NOTICE);
RTE_LOG_REGISTER(fcr_logtype_tables, fcr.tables, NOTICE);
RTE_LOG_REGISTER(fcr_logtype_sync, fcr.sync, NOTICE);
RTE_LOG_REGISTER(fcr_logtype_cli, fcr.cli, NOTICE);
RTE_LOG_REGISTER(fcr_logtype_store, fcr.store, NOTICE);

#define MAX_LIMITS 16
static struct fcr_log_limit *limits[MAX_LIMITS];
static unsigned int nb_limits;

uint64_t
fcr_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static void
report(struct fcr_log_limit *l, uint64_t now_ms)
{
	if (l->held == 0 || now_ms / 1000 == l->second)
		return;
	rte_log(l->level, (uint32_t)l->type, "%s: %" PRIu64 " more %s in that second "
		"not shown (at most %d a second)\n", l->name, l->held, l->what,
		FCR_LOG_BURST);
	l->held = 0;
}

void
fcr_log_limits_report(uint64_t now_ms)
{
	unsigned int i;

	for (i = 0; i < nb_limits; i++)
		report(limits[i], now_ms);
}

int
fcr_log_limit_take(struct fcr_log_limit *l, uint64_t now_ms)
{
	if (!l->listed && nb_limits < MAX_LIMITS) {
		limits[nb_limits++] = l;
		l->listed = 1;
	}
	report(l, now_ms);
	if (now_ms / 1000 != l->second) {
		l->second = now_ms / 1000;
		l->shown = 0;
	}
	if (l->shown < FCR_LOG_BURST) {
		l->shown++;
		return 1;
	}
	l->held++;
	return 0;
}

/* Under systemd, standard error is the journal already: EAL's own stream
 * would send every line twice (stderr and syslog). One copy, with the
 * level as an sd-daemon "<N>" prefix, so `journalctl -p warning` works. */
static ssize_t
journal_write(void *cookie, const char *buf, size_t size)
{
	int lv = rte_log_cur_msg_loglevel();

	(void)cookie;
	/* one write per line, so lines of two threads do not mix */
	if (lv < (int)RTE_LOG_EMERG || lv > (int)RTE_LOG_DEBUG)
		lv = (int)RTE_LOG_INFO;
	fprintf(stderr, "<%d>%.*s", lv - 1, (int)size, buf);
	fflush(stderr);
	return (ssize_t)size;
}

void
fcr_log_init(void)
{
	static cookie_io_functions_t io = { .write = journal_write };
	FILE *f;

	if (getenv("JOURNAL_STREAM") == NULL)
		return;
	f = fopencookie(NULL, "w+", io);
	if (f != NULL) {
		setvbuf(f, NULL, _IONBF, 0);
		rte_openlog_stream(f);
	}
}

/* Whether a registered log type matches pattern (as EAL's own
 * rte_log_set_level_pattern does, with fnmatch): EAL lists its types only
 * as text (rte_log_dump's "id N: NAME, level is ..." lines). */
static int
log_types_match(const char *pattern)
{
	char *text = NULL, *line, *save = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int found = 0;

	if (f == NULL)
		return 1; /* cannot tell: let EAL decide */
	rte_log_dump(f);
	fclose(f);
	for (line = strtok_r(text, "\n", &save); line != NULL && !found;
	     line = strtok_r(NULL, "\n", &save)) {
		char name[128];

		if (sscanf(line, " id %*d: %127[^,],", name) == 1)
			found = fnmatch(pattern, name, 0) == 0;
	}
	free(text);
	return found;
}

static int
set_log_level(const struct fcr_cmd *c, FILE *out)
{
	static const char *const names[] = {
		NULL, "emerg", "alert", "crit", "err", "warning", "notice", "info", "debug",
	};
	const char *type = fcr_cmd_word(c, 0), *level = fcr_cmd_word(c, 1);
	char *end;
	long lv = strtol(level, &end, 10);
	unsigned int i;

	if (*end != '\0' || lv < RTE_LOG_EMERG || lv > RTE_LOG_DEBUG) {
		lv = 0;
		for (i = 1; i < sizeof(names) / sizeof(names[0]); i++)
			if (strcmp(level, names[i]) == 0)
				lv = (long)i;
	}
	if (lv == 0) {
		fprintf(out, "error: set log level: '%s' is not a level (emerg alert crit err "
			"warning notice info debug, or 1-8)\n", level);
		return -1;
	}
	if (!log_types_match(type)) {
		fprintf(out, "error: set log level: no log type matches '%s' (fcredirect's: "
			"fcr.main fcr.port fcr.tables fcr.sync fcr.cli fcr.store, or a pattern "
			"such as fcr.*; show log levels lists DPDK's too)\n", type);
		return -1;
	}
	if (rte_log_set_level_pattern(type, (uint32_t)lv) != 0) {
		fprintf(out, "error: set log level: cannot set '%s'\n", type);
		return -1;
	}
	return 0;
}

FCR_CMD_PRINTER(show_log_levels, rte_log_dump)

/* testpmd's set verbose, in fcredirect's terms: how much its own log types
 * say. Frames themselves are dpdk-dumpcap's (docs/operations.md). */
static int
set_verbose(const struct fcr_cmd *c, FILE *out)
{
	static const char *const names[] = { "notice", "info", "debug" };
	static const uint32_t levels[] = { RTE_LOG_NOTICE, RTE_LOG_INFO, RTE_LOG_DEBUG };
	uint32_t v = c->arg[0].u32;

	if (v > 2) {
		fprintf(out, "error: set verbose %u: 0 (notice, the default), 1 (info: each "
			"login, binding and cutover step) or 2 (debug)\n", v);
		return -1;
	}
	if (rte_log_set_level_pattern("fcr.*", levels[v]) != 0) {
		fprintf(out, "error: set verbose: cannot set fcr.*\n");
		return -1;
	}
	fprintf(out, "verbose %u: fcredirect's log types (fcr.*) at %s\n", v, names[v]);
	return 0;
}

static const struct fcr_cmd_def rows[] = {
	{ .syntax = "set log level <type> <level>", .help = "log type (or pattern, e.g. fcr.*) and level: emerg alert crit err warning notice info debug", .run = set_log_level, .thread = FCR_CMD_ON_TABLES, .flags = FCR_CMD_CHANGES },
	{ .syntax = "set verbose <n>", .help = "testpmd's verbosity for fcredirect's log types (fcr.*): 0 notice (the default), 1 info (each login, binding and cutover step), 2 debug", .run = set_verbose, .thread = FCR_CMD_ON_TABLES, .flags = FCR_CMD_CHANGES },
	{ .syntax = "show log levels", .help = "every log type (fcr.main, fcr.port, fcr.tables, fcr.sync, fcr.cli and DPDK's) with its level", .run = show_log_levels, .thread = FCR_CMD_ON_TABLES },
};
FCR_COMMANDS(rows)
