/* SPDX-License-Identifier: BSD-3-Clause */
/* The options after `--`, testpmd-style. */
#ifndef FCR_APP_OPTIONS_H
#define FCR_APP_OPTIONS_H

#include <limits.h>
#include <stdint.h>

#include "fwd.h"
#include "store.h"
#include "sync_io.h"

#define FCR_MAX_CONFIG 256

/* --cleartext-guard (lib/forward/fcr_guard.h) */
enum { FCR_GUARD_OFF = 0, FCR_GUARD_ALARM, FCR_GUARD_DROP };

struct fcr_lcore_rxq {
	uint16_t port;
	uint16_t queue;
	uint16_t lcore;
};

struct fcr_options {
	int interactive;
	const char *cmdline_file;
	int cmdline_file_optional; /* --cmdline-file-optional */
	/* the folder save config and load config use (--config-dir; default
	 * the working directory at start), resolved */
	char config_dir[PATH_MAX];
	uint16_t nb_config;                  /* 0: the default map */
	struct fcr_lcore_rxq config[FCR_MAX_CONFIG];
	uint16_t nb_distributor;             /* --distributor: 0, none */
	struct fcr_lcore_rxq distributor[FCR_MAX_CONFIG];
	uint32_t max_flows;
	uint32_t flow_idle_s;     /* plain entries with no frame this long go; 0: never */
	uint32_t sn_stall_ms;     /* a service node ending nothing this long is stalled; 0: off */
	uint32_t sn_recover;      /* ends that make a stalled one answering again */
	uint32_t sn_failover_ms;  /* a service node down this long: its restartable pairs move */
	uint8_t guard;            /* --cleartext-guard: FCR_GUARD_* */
	uint32_t guard_sample;    /* one data frame in this many judged */
	uint32_t max_redirects;
	uint32_t max_bindings;
	uint32_t max_routes;
	uint16_t rxd;
	uint16_t txd;
	uint16_t burst;
	uint32_t fc_map;
	/* --vlan-fc-map: VLANs whose fabric's FC-MAP is given */
#define FCR_MAX_VLAN_FC_MAPS 64
	struct {
		uint16_t vlan;
		uint32_t fc_map;
	} vlan_fc_map[FCR_MAX_VLAN_FC_MAPS];
	uint16_t nb_vlan_fc_maps;
	uint32_t fabric_mask;     /* --fabric-ports, a bit per port */
	uint32_t series_mask;     /* --series-ports, a bit per port */
	uint32_t tables_delay_us; /* testing: the tables lcore's wait before each burst */
	int tables_lcore;                      /* -1: default */
	struct fcr_sync_conf sync;
	struct fcr_store_conf store;         /* --config-store*; url NULL: none */
	int passthrough_set;
	const char *pmd_config;               /* applied before EAL: see profile_apply.c */
	int vlan_strip;
	uint32_t stats_period;                /* seconds; 0: off */
	const char *state_file;               /* --state-file; NULL: none */
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

/*
 * The file `save config`/`load config` FILE names: relative to the
 * configuration folder, or an absolute path inside it (after symbolic links
 * and ".." are resolved). to_read: it must exist and be a regular file.
 * 0 and the path in out, or -1 and why (for "error: <cmd>: <why>").
 */
int fcr_options_config_path(const struct fcr_options *o, const char *file, int to_read,
			    char out[PATH_MAX], char *why, size_t why_len);

#endif /* FCR_APP_OPTIONS_H */
