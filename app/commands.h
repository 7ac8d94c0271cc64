/* SPDX-License-Identifier: BSD-3-Clause */
/* The command table: the program's own commands and every kind's (routes,
 * bindings, redirects: lib/kind/), shared by the command line (which runs
 * the local ones), the terminal's completion and `help`, and the sync
 * lcore (which runs the rest). */
#ifndef FCR_APP_COMMANDS_H
#define FCR_APP_COMMANDS_H

#include <stddef.h>

#include "fcr_cmd.h"

enum fcr_cmd_id {
	/* run by the command line itself */
	CMD_HELP = 100, CMD_QUIT, CMD_START, CMD_STOP, CMD_SLEEP, CMD_WAIT_IDLE, CMD_WAIT_RX,
	CMD_LOAD_CONFIG, CMD_PORT_STOP, CMD_PORT_STOP_ALL, CMD_PORT_START, CMD_PORT_START_ALL,
	CMD_PORT_RESET, CMD_PORT_RESET_ALL, CMD_SET_PROMISC, CMD_SET_PROMISC_ALL, CMD_SET_FWD, CMD_SHOW_CONFIG_STORE,
	/* run by the sync lcore */
	CMD_SHOW_FWD, CMD_CLEAR_FWD, CMD_SHOW_PORT_STATS_ALL, CMD_SHOW_PORT_STATS,
	CMD_CLEAR_PORT_STATS, CMD_SHOW_PORT_INFO_ALL, CMD_SHOW_PORT_INFO,
	CMD_SHOW_PORT_XSTATS, CMD_SHOW_FLOWS, CMD_SHOW_FLOWS_VLAN,
	CMD_SHOW_FLOWS_TOP, CMD_SHOW_FLOWS_VLAN_TOP, CMD_SHOW_LCORES,
	CMD_SHOW_CONFIG, CMD_SHOW_FCF, CMD_SHOW_MEMPOOL, CMD_SET_LOG_LEVEL, CMD_SHOW_LOG, CMD_SAVE_CONFIG,
	CMD_SHOW_SYNC, CMD_SET_SYNC_WINDOW, CMD_SYNC_PEER_ADD, CMD_SHOW_PORT_SUMMARY,
	CMD_SHOW_CONFIG_FWD, CMD_SHOW_FWD_RATES, CMD_SHOW_REDIRECT_PATHS,
	CMD_KINDS, /* in the table: where the kinds' commands go */
};

/* Built by fcr_commands_init() from the program's rows and the kinds'. */
extern const struct fcr_cmd_def *fcr_commands;
extern size_t fcr_nb_commands;

/* 0, or -1 when out of memory. */
int fcr_commands_init(void);

#endif /* FCR_APP_COMMANDS_H */
