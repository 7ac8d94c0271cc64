/* SPDX-License-Identifier: BSD-3-Clause */
#include "commands.h"

const struct fcr_cmd_def fcr_commands[] = {
	{ CMD_HELP, "help", "list the commands", "Control" },
	{ CMD_START, "start", "start forwarding", NULL },
	{ CMD_STOP, "stop", "stop forwarding (counters then add up: rx == tx + dropped)", NULL },
	{ CMD_QUIT, "quit", "stop, print the forward statistics, close the ports, exit", NULL },
	{ CMD_SLEEP, "sleep <ms>", "wait (for command files and scripts)", NULL },
	{ CMD_WAIT_IDLE, "wait idle <ms>", "wait until no frame has arrived for <ms> ms (at most 60 s)", NULL },
	{ CMD_SET_LOG_LEVEL, "set log level <word> <word>", "log type (or pattern, e.g. fcr.*) and level: emerg alert crit err warning notice info debug", NULL },
	{ CMD_SHOW_LOG, "show log levels", "every log type (fcr.main, fcr.port, fcr.tables, fcr.sync, fcr.cli and DPDK's) with its level", NULL },

	{ CMD_SHOW_FWD, "show fwd stats", "frames by port, by redirect leg, drops by reason, per worker", "Display" },
	{ CMD_CLEAR_FWD, "clear fwd stats", "start show fwd stats from zero (telemetry keeps counting since start)", NULL },
	{ CMD_SHOW_PORT_STATS_ALL, "show port stats all", "the ports' own counters, with rates since the last show", NULL },
	{ CMD_SHOW_PORT_STATS, "show port stats <port>", "one port's counters and rates", NULL },
	{ CMD_CLEAR_PORT_STATS, "clear port stats all", "zero the ports' own counters", NULL },
	{ CMD_SHOW_PORT_INFO_ALL, "show port info all", "driver, MAC, link, MTU, queues, offloads", NULL },
	{ CMD_SHOW_PORT_INFO, "show port info <port>", "one port's information", NULL },
	{ CMD_SHOW_PORT_XSTATS, "show port xstats <port>", "the driver's extended counters (non-zero)", NULL },
	{ CMD_SHOW_FLOWS, "show flows", "flow entries: key, leg, rewrite, frames, bytes, rate (first 1000)", NULL },
	{ CMD_SHOW_FLOWS_VLAN, "show flows vlan <vlan>", "flow entries of one VLAN", NULL },
	{ CMD_SHOW_FLOWS_TOP, "show flows top <n>", "the n busiest flows", NULL },
	{ CMD_SHOW_FLOWS_VLAN_TOP, "show flows vlan <vlan> top <n>", "the n busiest flows of one VLAN", NULL },
	{ CMD_SHOW_LCORES, "show lcores", "each lcore's role, busy share and cycles per frame", NULL },
	{ CMD_SHOW_CONFIG, "show config", "options, ports, the lcore map, profile and sync settings in effect", NULL },

	{ CMD_ROUTE_ADD_MAC, "route add <prefix> port <port> mac <mac>", "route an FCID prefix to a next-hop MAC", "Configuration" },
	{ CMD_ROUTE_ADD_FPMA, "route add <prefix> port <port> fpma", "route an FCID prefix to its VN_Ports (MAC = FC-MAP || D_ID)", NULL },
	{ CMD_ROUTE_DEL, "route del <prefix>", "remove a route", NULL },
	{ CMD_ROUTE_LIST, "route list", "list the routes", NULL },
	{ CMD_BIND_ADD, "binding add vlan <vlan> wwpn <wwpn> fcid <fcid>", "bind a port name to an FCID (static)", NULL },
	{ CMD_BIND_DEL, "binding del vlan <vlan> wwpn <wwpn>", "remove a binding", NULL },
	{ CMD_BIND_LIST, "binding list", "list bound port names (static or learned)", NULL },
	{ CMD_REDIR_ADD, "redirect add vlan <vlan> host <wwpn> target <wwpn> vi <wwpn> vt <wwpn>", "steer host<->target through the service node's VI/VT", NULL },
	{ CMD_REDIR_DEL, "redirect del vlan <vlan> host <wwpn> target <wwpn>", "remove a redirect (its flows fall back to plain forwarding)", NULL },
	{ CMD_REDIR_LIST, "redirect list", "list redirects: active, or which port they wait for", NULL },
	{ CMD_SAVE_CONFIG, "save config <word>", "write routes, static bindings and redirects as a command file", NULL },
	{ CMD_LOAD_CONFIG, "load config <word>", "apply a command file of routes, bindings, redirects: all or nothing", NULL },

	{ CMD_SHOW_SYNC, "show sync stats", "replication: readiness, changes, updates, datagrams, losses, peers", "Replication" },
	{ CMD_SET_SYNC_WINDOW, "set sync window <ms>", "coalescing window: changes inside it go out once, as of its end", NULL },
	{ CMD_SYNC_PEER_ADD, "sync peer add <addr>", "replicate with another fcredirect at IPv4:port", NULL },
};

const size_t fcr_nb_commands = sizeof(fcr_commands) / sizeof(fcr_commands[0]);
