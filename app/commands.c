/* SPDX-License-Identifier: BSD-3-Clause */
#include "commands.h"

const struct fcr_cmd_def fcr_commands[] = {
	{ CMD_HELP, "help", "list the commands" },
	{ CMD_START, "start", "start forwarding" },
	{ CMD_STOP, "stop", "stop forwarding (counters then add up: rx == tx + dropped)" },
	{ CMD_QUIT, "quit", "stop, print the forward statistics, close the ports, exit" },
	{ CMD_SHOW_FWD, "show fwd stats", "frames by port, by redirect leg, drops by reason, per worker" },
	{ CMD_SHOW_PORT, "show port stats all", "the ports' own counters" },
	{ CMD_SHOW_FLOWS, "show flows", "flow table entries with their counters (first 1000)" },
	{ CMD_ROUTE_ADD_MAC, "route add <prefix> port <port> mac <mac>", "route an FCID prefix to a next-hop MAC" },
	{ CMD_ROUTE_ADD_FPMA, "route add <prefix> port <port> fpma", "route an FCID prefix to its VN_Ports (MAC = FC-MAP || D_ID)" },
	{ CMD_ROUTE_DEL, "route del <prefix>", "remove a route" },
	{ CMD_ROUTE_LIST, "route list", "list the routes" },
	{ CMD_BIND_ADD, "binding add vlan <vlan> wwpn <wwpn> fcid <fcid>", "bind a port name to an FCID (static)" },
	{ CMD_BIND_DEL, "binding del vlan <vlan> wwpn <wwpn>", "remove a binding" },
	{ CMD_BIND_LIST, "binding list", "list bound port names (static or learned)" },
	{ CMD_REDIR_ADD, "redirect add vlan <vlan> host <wwpn> target <wwpn> vi <wwpn> vt <wwpn>", "steer host<->target through the service node's VI/VT" },
	{ CMD_REDIR_DEL, "redirect del vlan <vlan> host <wwpn> target <wwpn>", "remove a redirect (its flows fall back to plain forwarding)" },
	{ CMD_REDIR_LIST, "redirect list", "list redirects: active, or which port they wait for" },
	{ CMD_SHOW_SYNC, "show sync stats", "replication: readiness, changes, updates, datagrams, losses, peers" },
	{ CMD_SET_SYNC_WINDOW, "set sync window <ms>", "coalescing window: changes inside it go out once, as of its end" },
	{ CMD_SYNC_PEER_ADD, "sync peer add <addr>", "replicate with another fcredirect at IPv4:port" },
	{ CMD_SLEEP, "sleep <ms>", "wait (for command files and scripts)" },
	{ CMD_WAIT_IDLE, "wait idle <ms>", "wait until no frame has arrived for <ms> ms (at most 60 s)" },
};

const size_t fcr_nb_commands = sizeof(fcr_commands) / sizeof(fcr_commands[0]);
