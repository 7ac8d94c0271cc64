/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdlib.h>

#include "commands.h"
#include "fcr_kind.h"

#define ROW(id, syntax, help, group, flags) { id, syntax, help, group, flags, NULL }

static const struct fcr_cmd_def own[] = {
	ROW(CMD_HELP, "help", "list the commands", "Control", FCR_CMD_LOCAL),
	ROW(CMD_START, "start", "start forwarding", NULL, FCR_CMD_LOCAL | FCR_CMD_CHANGES),
	ROW(CMD_STOP, "stop", "stop forwarding and print the forward statistics (they then add up: rx == tx + dropped)", NULL, FCR_CMD_LOCAL | FCR_CMD_CHANGES),
	ROW(CMD_SET_FWD, "set fwd <word>", "testpmd's forwarding modes: fcredirect has one (FC-Redirect rules, then routes)", NULL, FCR_CMD_LOCAL),
	ROW(CMD_QUIT, "quit", "stop, print the forward statistics, close the ports, exit", NULL, FCR_CMD_LOCAL),
	ROW(CMD_SLEEP, "sleep <ms>", "wait (for command files and scripts)", NULL, FCR_CMD_LOCAL),
	ROW(CMD_WAIT_IDLE, "wait idle <ms>", "wait until no frame has arrived for <ms> ms (at most 60 s)", NULL, FCR_CMD_LOCAL),
	ROW(CMD_WAIT_RX, "wait rx <n> <ms>", "wait until the ports have received <n> frames in all since start (an error after <ms> ms)", NULL, FCR_CMD_LOCAL),
	ROW(CMD_SET_LOG_LEVEL, "set log level <word> <word>", "log type (or pattern, e.g. fcr.*) and level: emerg alert crit err warning notice info debug", NULL, FCR_CMD_CHANGES),
	ROW(CMD_SHOW_LOG, "show log levels", "every log type (fcr.main, fcr.port, fcr.tables, fcr.sync, fcr.cli and DPDK's) with its level", NULL, 0),

	ROW(CMD_SHOW_FWD, "show fwd stats", "frames by port, by redirect leg, drops by reason, per worker", "Display", 0),
	ROW(CMD_SHOW_FWD, "show fwd stats all", "the same (testpmd's form)", NULL, 0),
	ROW(CMD_SHOW_FWD_RATES, "show fwd rates", "frames/s and bits/s per port and per leg, drops/s by reason, since the last show fwd rates (timestamped)", NULL, 0),
	ROW(CMD_CLEAR_FWD, "clear fwd stats", "start show fwd stats from zero (telemetry keeps counting since start)", NULL, FCR_CMD_CHANGES),
	ROW(CMD_SHOW_PORT_STATS_ALL, "show port stats all", "the ports' own counters, with rates since the last show", NULL, 0),
	ROW(CMD_SHOW_PORT_STATS, "show port stats <port>", "one port's counters and rates", NULL, 0),
	ROW(CMD_CLEAR_PORT_STATS, "clear port stats all", "zero the ports' own counters", NULL, FCR_CMD_CHANGES),
	ROW(CMD_SHOW_PORT_INFO_ALL, "show port info all", "driver, MAC, link, MTU, queues, offloads", NULL, 0),
	ROW(CMD_SHOW_PORT_INFO, "show port info <port>", "one port's information", NULL, 0),
	ROW(CMD_SHOW_PORT_XSTATS, "show port xstats <port>", "the driver's extended counters (non-zero)", NULL, 0),
	ROW(CMD_SHOW_PORT_SUMMARY, "show port summary all", "one line a port: name, driver, MAC, started or stopped, link", NULL, 0),
	ROW(CMD_SHOW_REDIRECT_PATHS, "show redirect paths", "each redirect as a path: host -> VT -> service node -> VI -> target, by WWPN and FCID, and the frames of each of its legs", NULL, 0),
	ROW(CMD_SHOW_FLOWS, "show flows", "flow entries: key, leg, rewrite, frames, bytes, rate (first 1000)", NULL, 0),
	ROW(CMD_SHOW_FLOWS_VLAN, "show flows vlan <vlan>", "flow entries of one VLAN", NULL, 0),
	ROW(CMD_SHOW_FLOWS_TOP, "show flows top <n>", "the n busiest flows", NULL, 0),
	ROW(CMD_SHOW_FLOWS_VLAN_TOP, "show flows vlan <vlan> top <n>", "the n busiest flows of one VLAN", NULL, 0),
	ROW(CMD_SHOW_LCORES, "show lcores", "each lcore's role, busy share and cycles per frame", NULL, 0),
	ROW(CMD_SHOW_MEMPOOL, "show mempool", "each mbuf pool: its size, mbufs in use (ports' queues, rings, workers) and free", NULL, 0),
	ROW(CMD_SHOW_FCF, "show fcf", "the FCF advertising on each VLAN's fabric ports: its MAC, switch name and FC-MAP", NULL, 0),
	ROW(CMD_SHOW_CONFIG, "show config", "options, ports, the lcore map, profile and sync settings in effect", NULL, 0),
	ROW(CMD_SHOW_CONFIG_STORE, "show config store", "the configuration store: member, applied revision, lag, last error", NULL, 0),
	ROW(CMD_SHOW_CONFIG_FWD, "show config fwd", "the forwarding set-up: which lcore polls which queue, sends on which", NULL, 0),

	ROW(CMD_PORT_STOP, "port stop <port>", "stop a port (forwarding stopped first, as testpmd asks)", "Ports", FCR_CMD_LOCAL | FCR_CMD_CHANGES),
	ROW(CMD_PORT_STOP_ALL, "port stop all", "stop every port", NULL, FCR_CMD_LOCAL | FCR_CMD_CHANGES),
	ROW(CMD_PORT_START, "port start <port>", "start a stopped port", NULL, FCR_CMD_LOCAL | FCR_CMD_CHANGES),
	ROW(CMD_PORT_START_ALL, "port start all", "start every stopped port", NULL, FCR_CMD_LOCAL | FCR_CMD_CHANGES),
	ROW(CMD_PORT_RESET, "port reset <port>", "stop, reset (where the driver can) and set up a port again as at start", NULL, FCR_CMD_LOCAL | FCR_CMD_CHANGES),
	ROW(CMD_PORT_RESET_ALL, "port reset all", "the same for every port", NULL, FCR_CMD_LOCAL | FCR_CMD_CHANGES),
	ROW(CMD_SET_PROMISC, "set promisc <port> <word>", "on or off: a port takes frames for any MAC (on by default: FPMA MACs are many)", NULL, FCR_CMD_LOCAL | FCR_CMD_CHANGES),
	ROW(CMD_SET_PROMISC_ALL, "set promisc all <word>", "on or off for every port", NULL, FCR_CMD_LOCAL | FCR_CMD_CHANGES),

	ROW(CMD_KINDS, "", "", "Configuration", 0),
	ROW(CMD_SAVE_CONFIG, "save config <word>", "write routes, static bindings and redirects as a command file", NULL, 0),
	ROW(CMD_LOAD_CONFIG, "load config <word>", "apply a command file of routes, bindings, redirects: all or nothing", NULL, FCR_CMD_LOCAL),

	ROW(CMD_SHOW_SYNC, "show sync stats", "replication: readiness, changes, updates, datagrams, losses, peers", "Replication", 0),
	ROW(CMD_SET_SYNC_WINDOW, "set sync window <ms>", "coalescing window: changes inside it go out once, as of its end", NULL, FCR_CMD_CHANGES),
	ROW(CMD_SYNC_PEER_ADD, "sync peer add <addr>", "replicate with another fcredirect at IPv4:port", NULL, FCR_CMD_CHANGES),
};

const struct fcr_cmd_def *fcr_commands;
size_t fcr_nb_commands;

int
fcr_commands_init(void)
{
	size_t n = 0, i, total = sizeof(own) / sizeof(own[0]);
	struct fcr_cmd_def *t;
	int k, first = 1;
	unsigned int c;

	for (k = 0; k < FCR_KIND_COUNT; k++)
		total += fcr_kinds[k]->nb_cmds;
	t = calloc(total, sizeof(*t));
	if (t == NULL)
		return -1;
	for (i = 0; i < sizeof(own) / sizeof(own[0]); i++) {
		if (own[i].id != CMD_KINDS) {
			t[n++] = own[i];
			continue;
		}
		for (k = 0; k < FCR_KIND_COUNT; k++)
			for (c = 0; c < fcr_kinds[k]->nb_cmds; c++) {
				t[n] = fcr_kinds[k]->cmds[c];
				if (first)
					t[n].group = own[i].group;
				first = 0;
				n++;
			}
	}
	fcr_commands = t;
	fcr_nb_commands = n;
	return 0;
}
