/* SPDX-License-Identifier: BSD-3-Clause */
/* The command table: syntax and help of every command, shared by the command
 * line (which runs the local ones) and the writer (which runs the rest). */
#ifndef FCR_APP_COMMANDS_H
#define FCR_APP_COMMANDS_H

#include <stddef.h>

#include "fcr_cmd.h"

enum fcr_cmd_id {
	/* run by the command line itself */
	CMD_HELP, CMD_QUIT, CMD_START, CMD_STOP, CMD_SLEEP, CMD_WAIT_IDLE,
	CMD_LOAD_CONFIG,
	/* run by the tables' writer */
	CMD_SHOW_FWD, CMD_CLEAR_FWD, CMD_SHOW_PORT_STATS_ALL, CMD_SHOW_PORT_STATS,
	CMD_CLEAR_PORT_STATS, CMD_SHOW_PORT_INFO_ALL, CMD_SHOW_PORT_INFO,
	CMD_SHOW_PORT_XSTATS, CMD_SHOW_FLOWS, CMD_SHOW_FLOWS_VLAN,
	CMD_SHOW_FLOWS_TOP, CMD_SHOW_FLOWS_VLAN_TOP, CMD_SHOW_LCORES,
	CMD_SHOW_CONFIG, CMD_SET_LOG_LEVEL, CMD_SHOW_LOG, CMD_SAVE_CONFIG,
	CMD_ROUTE_ADD_MAC, CMD_ROUTE_ADD_FPMA, CMD_ROUTE_DEL, CMD_ROUTE_LIST,
	CMD_BIND_ADD, CMD_BIND_DEL, CMD_BIND_LIST, CMD_REDIR_ADD, CMD_REDIR_DEL,
	CMD_REDIR_LIST, CMD_SHOW_SYNC, CMD_SET_SYNC_WINDOW, CMD_SYNC_PEER_ADD,
	CMD_APPLY, /* internal: a validated config file, applied whole */
};

extern const struct fcr_cmd_def fcr_commands[];
extern const size_t fcr_nb_commands;

static inline int
fcr_cmd_is_local(int id)
{
	return id <= CMD_LOAD_CONFIG;
}

/* The commands a config file (load config, save config) may hold. */
static inline int
fcr_cmd_is_config(int id)
{
	return id == CMD_ROUTE_ADD_MAC || id == CMD_ROUTE_ADD_FPMA ||
	       id == CMD_BIND_ADD || id == CMD_REDIR_ADD;
}

#endif /* FCR_APP_COMMANDS_H */
