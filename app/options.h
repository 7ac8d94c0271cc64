/* SPDX-License-Identifier: BSD-3-Clause */
/* The options after `--`, testpmd-style. */
#ifndef FCR_APP_OPTIONS_H
#define FCR_APP_OPTIONS_H

#include <stdint.h>

#include "fwd.h"
#include "sync_io.h"

#define FCR_MAX_CONFIG 256

struct fcr_lcore_rxq {
	uint16_t port;
	uint16_t queue;
	uint16_t lcore;
};

struct fcr_options {
	int interactive;
	const char *cmdline_file;
	uint16_t nb_config;                  /* 0: the default map */
	struct fcr_lcore_rxq config[FCR_MAX_CONFIG];
	uint16_t nb_distributor;             /* --distributor: 0, none */
	struct fcr_lcore_rxq distributor[FCR_MAX_CONFIG];
	uint32_t max_flows;
	uint32_t flow_idle_s;     /* plain entries with no frame this long go; 0: never */
	uint32_t max_redirects;
	uint32_t max_bindings;
	uint32_t max_routes;
	uint16_t rxd;
	uint16_t txd;
	uint16_t burst;
	uint32_t fc_map;
	uint32_t fabric_mask;     /* --fabric-ports, a bit per port */
	uint32_t series_mask;     /* --series-ports, a bit per port */
	uint32_t sync_delay_us; /* testing: the sync lcore's wait before each burst */
	int sync_lcore;                      /* -1: default */
	struct fcr_sync_conf sync;
	int passthrough_set;
	const char *pmd_config;               /* applied before EAL: see profile_apply.c */
	int vlan_strip;
	uint32_t stats_period;                /* seconds; 0: off */
	uint16_t rxq;                         /* default map: queues per port */
	uint16_t txq;                         /* 0: one per worker */
	uint16_t passthrough[FCR_MAX_PORTS];
};

/* Defaults, then argv. 0; 1 after --help; -1 with a message on stderr
 * naming the option. */
struct fcr_profile;
/* prof (may be NULL): a --pmd-config profile whose values come before argv's. */
int fcr_options_parse(int argc, char **argv, struct fcr_options *o,
		      const struct fcr_profile *prof);
void fcr_options_usage(const char *prog);

#endif /* FCR_APP_OPTIONS_H */
