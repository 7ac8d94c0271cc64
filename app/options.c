/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <rte_lcore.h>

#include "fcr_cmd.h"
#include "fcr_profile.h"
#include "fcr_redirect.h"
#include "fcr_store.h"
#include "options.h"

void
fcr_options_usage(const char *prog)
{
	printf("Usage: %s [EAL options] -- [options]\n"
	       "  -i                      read commands from standard input (a prompt on a terminal);\n"
	       "                          forwarding begins at 'start'\n"
	       "  --cmdline-file=FILE     run the commands in FILE first, all or nothing: one bad\n"
	       "                          line (or no such file) and the program does not start\n"
	       "                          (exit 2); without -i forwarding begins right after it\n"
	       "                          and runs until SIGINT/SIGTERM\n"
	       "  --cmdline-file-optional=FILE  the same, but a FILE that does not exist is no\n"
	       "                          error (empty tables)\n"
	       "  --version               print the version and exit\n"
	       "  --state-file=PATH       keep the learned bindings and FCFs in PATH (written at\n"
	       "                          most every 200 ms while they change, and at quit) and\n"
	       "                          restore them from it at start (default: none)\n"
	       "  --config-dir=DIR        the folder save config and load config read and write\n"
	       "                          (default: the working directory); paths outside it are refused\n"
	       "  --config=(p,q,l),...    worker lcore l polls RX queue q of port p\n"
	       "                          (default: the first worker lcore polls queue 0 of every port)\n"
	       "  --distributor=(p,q,l),...  lcore l receives RX queue q of port p and deals its\n"
	       "                          frames over the workers by flow (VLAN, S_ID, D_ID), for\n"
	       "                          NICs that cannot spread FCoE; the workers are then every\n"
	       "                          other lcore but the main and sync ones (or --config's);\n"
	       "                          none: a profile's distributors off\n"
	       "  --rxq=N                 RX queues per port for the default map, spread over the\n"
	       "                          worker lcores (default 1)\n"
	       "  --txq=N                 TX queues per port, at least one per worker (default: one per worker)\n"
	       "  --stats-period=S        without -i, print the forward statistics every S seconds\n"
	       "  --max-flows=N           flow table capacity (default 1048576)\n"
	       "  --flow-idle=S           remove plain flow entries S seconds without a frame,\n"
	       "                          0 never (default 300)\n"
	       "  --sn-stall-ms=MS        a redirect's service node is not answering when its\n"
	       "                          host began a command since the VT's last end and the\n"
	       "                          VT ends nothing for MS (logged, counted: sn_stalls);\n"
	       "                          0 off (default 10000)\n"
	       "  --sn-recover=N          and answers again after N ends (default 1)\n"
	       "  --sn-failover-ms=MS     a service node down (VI or VT logged out, not\n"
	       "                          answering) for MS moves its restartable pairs to\n"
	       "                          another node of its cluster (default 3000)\n"
	       "  --cleartext-guard=MODE  judge data the VI sends the target: alarm (log, count)\n"
	       "                          or drop (also stop the redirect until `redirect resume`)\n"
	       "  --cleartext-sample=N    judge one data frame in N on each worker (default 64)\n"
	       "  --max-redirects=N       redirect capacity; the flow table keeps 6 entries for\n"
	       "                          each, and 6 more (default 65536, at most --max-flows / 8)\n"
	       "  --max-bindings=N        port names (VLAN, WWPN) capacity (default 262144)\n"
	       "  --max-routes=N          route capacity (default 4096)\n"
	       "  --rxd=N, --txd=N        descriptors per RX / TX queue (default 1024)\n"
	       "  --burst=N               frames per RX burst, 1..64 (default 32)\n"
	       "  --passthrough=P:Q,...   where FIP and other EtherTypes go: P->Q and Q->P\n"
	       "                          (default 0:1,2:3,...); a fabric port several edge\n"
	       "                          ports name sends to all of them\n"
	       "  --fc-map=0xHHHHHH       FC-MAP of FPMA MACs (default 0x0efc00)\n"
	       "  --vlan-fc-map=V:0xHHHHHH,...\n"
	       "                          VLAN V's fabric has that FC-MAP: an FCF advertising\n"
	       "                          another there is refused (drops fcf_fc_map)\n"
	       "  --fabric-ports=P,...    ports toward the FCF: bindings are learned only from the\n"
	       "                          fabric's login replies on them, and FCoE frames on the\n"
	       "                          other (edge) ports pass only from VN_Ports that logged in\n"
	       "                          through them (default: none; static bindings only)\n"
	       "  --series-ports=P,...    edge ports cabled to another fcredirect's fabric port:\n"
	       "                          frames with the mark (a redirect there rewrote them)\n"
	       "                          pass plain from them, as from fabric ports, and are\n"
	       "                          dropped from any other port (default: none)\n"
	       "  --pmd-config=NAME|FILE  a port profile from pmd-config/ (pcap, memif, null, tap,\n"
	       "                          i40e, ice, mlx5) or a file: EAL ports, queues, descriptors,\n"
	       "                          MTU, lcore map, FCoE steering; options given here win\n"
	       "  --tables-delay-us=N     testing: the tables lcore waits N us before each burst\n"
	       "                          of worker events, as one starved by other work\n"
	       "                          would (default 0; --sync-delay-us, its former name)\n"
	       "  --tables-lcore=N        the tables lcore: changes the tables, runs commands,\n"
	       "                          drives replication (default: the last lcore when no\n"
	       "                          worker uses it, else the main lcore; --sync-lcore, its\n"
	       "                          former name)\n"
	       "  --sync-bind=IP:PORT     replicate state over UDP from this address\n"
	       "  --sync-peer=IP:PORT     a peer to replicate with (repeatable, up to 16)\n"
	       "  --sync-key-file=FILE    shared secret (16 bytes or more) authenticating datagrams\n"
	       "  --sync-window-ms=N      coalescing window, 1..60000 (default 50)\n"
	       "  --sync-mtu=N            largest sync datagram payload, 512..1472 (default 1400)\n"
	       "  --sync-same-ports       every peer is cabled as this node is (an HA pair: port N\n"
	       "                          of each reaches the same station): a peer's learned\n"
	       "                          bindings keep their port and MACs here, so a standby\n"
	       "                          delivers to the stations from its first frame\n"
	       "  --config-store=etcd://HOST:PORT[,HOST:PORT...]/PREFIX\n"
	       "                          the configuration lives in etcd under PREFIX, shared by\n"
	       "                          every node given it; commands write it there\n"
	       "  --config-store-cacert=FILE  TLS to the store: its members' CA (https)\n"
	       "  --config-store-cert=FILE --config-store-key=FILE  TLS: this node's certificate\n"
	       "  --config-store-user=USER:PASSWORD  the store's authentication\n"
	       "  --config-store-node=NAME  this node's name among the store's nodes\n"
	       "                          (default HOST:FILE-PREFIX)\n"
	       "  --config-store-stall-ms=MS  a watched member that does not prove it is current\n"
	       "                          within MS is left for another, 0: never asked\n"
	       "                          (200..60000, default 2000)\n"
	       "  -h, --help              this text\n", prog);
}

static int
num(const char *opt, const char *s, unsigned long min, unsigned long max,
    unsigned long *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (*s == '\0' || *s == '-' || *end != '\0' || errno || v < min || v > max) {
		fprintf(stderr, "error: %s: '%s' is not a number from %lu to %lu\n",
			opt, s, min, max);
		return -1;
	}
	*out = v;
	return 0;
}

/* "(port,queue,lcore),(port,queue,lcore)" as l3fwd takes it (--config,
 * --distributor: `opt` names it in errors). */
static int
parse_lcore_map(const char *opt, const char *s, struct fcr_lcore_rxq *map, uint16_t *nb)
{
	const char *p = s;

	*nb = 0;
	while (*p) {
		unsigned int port, queue, lcore;
		int used = 0;

		if (*nb == FCR_MAX_CONFIG) {
			fprintf(stderr, "error: %s: more than %d entries\n", opt, FCR_MAX_CONFIG);
			return -1;
		}
		if (sscanf(p, " (%u , %u , %u )%n", &port, &queue, &lcore, &used) != 3 ||
		    used == 0) {
			fprintf(stderr, "error: %s: expected (port,queue,lcore),... at '%s'\n",
				opt, p);
			return -1;
		}
		if (port >= FCR_MAX_PORTS || queue > 1023 || lcore >= 1024) {
			fprintf(stderr, "error: %s: (%u,%u,%u) out of range\n", opt,
				port, queue, lcore);
			return -1;
		}
		map[*nb].port = (uint16_t)port;
		map[*nb].queue = (uint16_t)queue;
		map[*nb].lcore = (uint16_t)lcore;
		(*nb)++;
		p += used;
		while (*p == ' ')
			p++;
		if (*p == ',')
			p++;
		else if (*p != '\0') {
			fprintf(stderr, "error: %s: expected ',' at '%s'\n", opt, p);
			return -1;
		}
	}
	if (*nb == 0) {
		fprintf(stderr, "error: %s: empty\n", opt);
		return -1;
	}
	return 0;
}

/* V:0xHHHHHH,...: each VLAN's FC-MAP (a VLAN named again takes the last). */
static int
parse_vlan_fc_maps(const char *s, struct fcr_options *o)
{
	const char *p = s;
	unsigned int v, i;
	unsigned long m;
	char *end;

	while (*p) {
		errno = 0;
		v = (unsigned int)strtoul(p, &end, 10);
		if (end == p || *end != ':' || v >= 4096) {
			fprintf(stderr, "error: --vlan-fc-map: expected VLAN:0xHHHHHH (VLAN below "
				"4096) at '%s'\n", p);
			return -1;
		}
		p = end + 1;
		m = strtoul(p, &end, 0);
		if (end == p || errno != 0 || m > 0xFFFFFF || (*end != ',' && *end != '\0')) {
			fprintf(stderr, "error: --vlan-fc-map: expected a 24-bit FC-MAP (0xHHHHHH) "
				"at '%s'\n", p);
			return -1;
		}
		for (i = 0; i < o->nb_vlan_fc_maps && o->vlan_fc_map[i].vlan != v; i++)
			;
		if (i == FCR_MAX_VLAN_FC_MAPS) {
			fprintf(stderr, "error: --vlan-fc-map: more than %d VLANs\n",
				FCR_MAX_VLAN_FC_MAPS);
			return -1;
		}
		o->vlan_fc_map[i].vlan = (uint16_t)v;
		o->vlan_fc_map[i].fc_map = (uint32_t)m;
		if (i == o->nb_vlan_fc_maps)
			o->nb_vlan_fc_maps++;
		p = *end == ',' ? end + 1 : end;
	}
	return 0;
}

static int
parse_passthrough(const char *s, struct fcr_options *o)
{
	const char *p = s;
	unsigned int a, b;
	int used;

	for (a = 0; a < FCR_MAX_PORTS; a++)
		o->passthrough[a] = FCR_PORT_NONE;
	while (*p) {
		used = 0;
		if (sscanf(p, "%u:%u%n", &a, &b, &used) != 2 || used == 0 ||
		    a >= FCR_MAX_PORTS || b >= FCR_MAX_PORTS) {
			fprintf(stderr, "error: --passthrough: expected P:Q pairs of ports below %d at '%s'\n",
				FCR_MAX_PORTS, p);
			return -1;
		}
		o->passthrough[a] = (uint16_t)b;
		o->passthrough[b] = (uint16_t)a;
		p += used;
		if (*p == ',')
			p++;
		else if (*p != '\0') {
			fprintf(stderr, "error: --passthrough: expected ',' at '%s'\n", p);
			return -1;
		}
	}
	o->passthrough_set = 1;
	return 0;
}

/* "P,P,...": a bit per port in *mask (--fabric-ports, --series-ports). */
static int
parse_ports(const char *opt, const char *s, uint32_t *mask)
{
	const char *p = s;
	unsigned int a;
	int used;

	*mask = 0;
	while (*p) {
		used = 0;
		if (sscanf(p, "%u%n", &a, &used) != 1 || used == 0 || a >= FCR_MAX_PORTS ||
		    *p == '-' || *p == '+') {
			fprintf(stderr, "error: %s: expected ports 0..%d, comma-separated, "
				"at '%s'\n", opt, FCR_MAX_PORTS - 1, p);
			return -1;
		}
		*mask |= 1u << a;
		p += used;
		if (*p == ',' && p[1] != '\0')
			p++;
		else if (*p != '\0') {
			fprintf(stderr, "error: %s: expected ',' and a port at '%s'\n", opt, p);
			return -1;
		}
	}
	if (*mask == 0) {
		fprintf(stderr, "error: %s: no port given\n", opt);
		return -1;
	}
	return 0;
}

/* --state-file: a file name in a folder that exists. */
static int
state_file_ok(const char *path)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');
	struct stat sb;

	if (path[0] == '\0' || (slash != NULL && slash[1] == '\0') ||
	    strlen(path) > PATH_MAX - 32) {
		fprintf(stderr, "error: --state-file: '%s' is no file name\n", path);
		return 0;
	}
	snprintf(dir, sizeof(dir), "%.*s", slash == NULL ? 1 : slash == path ? 1 :
		 (int)(slash - path), slash == NULL ? "." : path);
	if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
		fprintf(stderr, "error: --state-file: the folder %s does not exist\n", dir);
		return 0;
	}
	return 1;
}

int
fcr_options_parse(int argc, char **argv, struct fcr_options *o,
		  const struct fcr_profile *prof)
{
	enum { O_CMDFILE = 256, O_CMDFILE_OPT, O_CONFDIR, O_CONFIG, O_DISTRIBUTOR, O_MAXFLOWS, O_FLOWIDLE, O_MAXREDIR, O_MAXBIND,
	       O_MAXROUTES, O_RXD, O_TXD, O_BURST, O_PASS, O_FCMAP, O_TABLESLCORE, O_SYNCBIND, O_SYNCPEER, O_SYNCKEY,
	       O_SYNCWIN, O_SYNCMTU, O_SYNCSAME, O_PMDCONFIG, O_RXQ, O_TXQ, O_STATSP, O_FABRIC,
	       O_SERIES, O_WDELAY, O_STORE, O_STORE_CA, O_STORE_CERT, O_STORE_KEY, O_STORE_USER, O_STORE_STALL, O_STORE_NODE,
	       O_STATEFILE, O_SNSTALL, O_SNRECOVER, O_VLANFCMAP, O_GUARD, O_GUARDSAMPLE, O_SNFAILOVER };
	static const struct option longopts[] = {
		{ "cmdline-file", required_argument, NULL, O_CMDFILE },
		{ "cmdline-file-optional", required_argument, NULL, O_CMDFILE_OPT },
		{ "config-dir", required_argument, NULL, O_CONFDIR },
		{ "config", required_argument, NULL, O_CONFIG },
		{ "distributor", required_argument, NULL, O_DISTRIBUTOR },
		{ "max-flows", required_argument, NULL, O_MAXFLOWS },
		{ "flow-idle", required_argument, NULL, O_FLOWIDLE },
		{ "sn-stall-ms", required_argument, NULL, O_SNSTALL },
		{ "cleartext-guard", required_argument, NULL, O_GUARD },
		{ "cleartext-sample", required_argument, NULL, O_GUARDSAMPLE },
		{ "sn-recover", required_argument, NULL, O_SNRECOVER },
		{ "sn-failover-ms", required_argument, NULL, O_SNFAILOVER },
		{ "max-redirects", required_argument, NULL, O_MAXREDIR },
		{ "max-bindings", required_argument, NULL, O_MAXBIND },
		{ "max-routes", required_argument, NULL, O_MAXROUTES },
		{ "rxd", required_argument, NULL, O_RXD },
		{ "txd", required_argument, NULL, O_TXD },
		{ "burst", required_argument, NULL, O_BURST },
		{ "passthrough", required_argument, NULL, O_PASS },
		{ "fc-map", required_argument, NULL, O_FCMAP },
		{ "vlan-fc-map", required_argument, NULL, O_VLANFCMAP },
		{ "fabric-ports", required_argument, NULL, O_FABRIC },
		{ "series-ports", required_argument, NULL, O_SERIES },
		{ "tables-delay-us", required_argument, NULL, O_WDELAY },
		{ "tables-lcore", required_argument, NULL, O_TABLESLCORE },
		/* their former names: scripts and unit files written before */
		{ "sync-delay-us", required_argument, NULL, O_WDELAY },
		{ "sync-lcore", required_argument, NULL, O_TABLESLCORE },
		{ "sync-bind", required_argument, NULL, O_SYNCBIND },
		{ "sync-peer", required_argument, NULL, O_SYNCPEER },
		{ "sync-key-file", required_argument, NULL, O_SYNCKEY },
		{ "sync-window-ms", required_argument, NULL, O_SYNCWIN },
		{ "sync-mtu", required_argument, NULL, O_SYNCMTU },
		{ "sync-same-ports", no_argument, NULL, O_SYNCSAME },
		{ "config-store", required_argument, NULL, O_STORE },
		{ "config-store-cacert", required_argument, NULL, O_STORE_CA },
		{ "config-store-cert", required_argument, NULL, O_STORE_CERT },
		{ "config-store-key", required_argument, NULL, O_STORE_KEY },
		{ "config-store-user", required_argument, NULL, O_STORE_USER },
		{ "config-store-stall-ms", required_argument, NULL, O_STORE_STALL },
		{ "config-store-node", required_argument, NULL, O_STORE_NODE },
		{ "pmd-config", required_argument, NULL, O_PMDCONFIG },
		{ "rxq", required_argument, NULL, O_RXQ },
		{ "txq", required_argument, NULL, O_TXQ },
		{ "stats-period", required_argument, NULL, O_STATSP },
		{ "state-file", required_argument, NULL, O_STATEFILE },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *confdir = ".";
	struct stat sb;
	unsigned long v;
	unsigned int i;
	int c, redirects_given = 0;

	memset(o, 0, sizeof(*o));
	o->max_flows = 1u << 20;
	o->flow_idle_s = 300;
	o->sn_stall_ms = 10000;
	o->sn_recover = 1;
	o->sn_failover_ms = 3000;
	o->guard_sample = 64;
	o->max_redirects = 1u << 16;
	o->max_bindings = 1u << 18;
	o->max_routes = 4096;
	o->rxd = 1024;
	o->txd = 1024;
	o->burst = 32;
	o->fc_map = 0x0EFC00;
	o->tables_lcore = -1;
	o->rxq = 1;
	o->sync.window_ms = 50;
	o->store.stall_ms = 2000;
	o->sync.mtu = 1400;
	for (i = 0; i < FCR_MAX_PORTS; i++)
		o->passthrough[i] = (uint16_t)(i ^ 1);

	if (prof != NULL) {
		if (prof->rxd)
			o->rxd = prof->rxd;
		if (prof->txd)
			o->txd = prof->txd;
		if (prof->burst)
			o->burst = prof->burst;
		if (prof->rxq)
			o->rxq = prof->rxq;
		if (prof->distributor[0] != '\0' &&
		    parse_lcore_map("--distributor", prof->distributor, o->distributor,
				    &o->nb_distributor) < 0)
			return -1;
		if (prof->config[0] != '\0' &&
		    parse_lcore_map("--config", prof->config, o->config, &o->nb_config) < 0)
			return -1;
		o->vlan_strip = prof->vlan_strip;
	}
	optind = 1;
	opterr = 0; /* our own messages, naming the option */
	while ((c = getopt_long(argc, argv, ":ih", longopts, NULL)) != -1) {
		switch (c) {
		case 'i':
			o->interactive = 1;
			break;
		case 'h':
			fcr_options_usage(argv[0]);
			return 1;
		case O_CMDFILE:
		case O_CMDFILE_OPT:
			o->cmdline_file = optarg;
			o->cmdline_file_optional = c == O_CMDFILE_OPT;
			break;
		case O_CONFDIR:
			confdir = optarg;
			break;
		case O_DISTRIBUTOR:
			/* none: a profile's distributors off */
			if (strcmp(optarg, "none") == 0)
				o->nb_distributor = 0;
			else if (parse_lcore_map("--distributor", optarg, o->distributor,
						 &o->nb_distributor) < 0)
				return -1;
			break;
		case O_CONFIG:
			if (parse_lcore_map("--config", optarg, o->config, &o->nb_config) < 0)
				return -1;
			break;
		case O_MAXFLOWS:
			if (num("--max-flows", optarg, 16, 1u << 28, &v) < 0)
				return -1;
			o->max_flows = (uint32_t)v;
			break;
		case O_FLOWIDLE:
			if (num("--flow-idle", optarg, 0, 86400, &v) < 0)
				return -1;
			o->flow_idle_s = (uint32_t)v;
			break;
		case O_SNSTALL:
			if (num("--sn-stall-ms", optarg, 0, 3600000, &v) < 0)
				return -1;
			o->sn_stall_ms = (uint32_t)v;
			break;
		case O_GUARD:
			if (strcmp(optarg, "alarm") == 0) {
				o->guard = FCR_GUARD_ALARM;
			} else if (strcmp(optarg, "drop") == 0) {
				o->guard = FCR_GUARD_DROP;
			} else if (strcmp(optarg, "off") == 0) {
				o->guard = FCR_GUARD_OFF;
			} else {
				fprintf(stderr, "error: --cleartext-guard: '%s': alarm, drop or off\n",
					optarg);
				return -1;
			}
			break;
		case O_GUARDSAMPLE:
			if (num("--cleartext-sample", optarg, 1, 1u << 20, &v) < 0)
				return -1;
			o->guard_sample = (uint32_t)v;
			break;
		case O_SNFAILOVER:
			if (num("--sn-failover-ms", optarg, 0, 3600000, &v) < 0)
				return -1;
			o->sn_failover_ms = (uint32_t)v;
			break;
		case O_SNRECOVER:
			if (num("--sn-recover", optarg, 1, 1000000, &v) < 0)
				return -1;
			o->sn_recover = (uint32_t)v;
			break;
		case O_MAXREDIR:
			if (num("--max-redirects", optarg, 1, 1u << 24, &v) < 0)
				return -1;
			o->max_redirects = (uint32_t)v;
			redirects_given = 1;
			break;
		case O_MAXBIND:
			if (num("--max-bindings", optarg, 16, 1u << 26, &v) < 0)
				return -1;
			o->max_bindings = (uint32_t)v;
			break;
		case O_MAXROUTES:
			if (num("--max-routes", optarg, 1, 1u << 20, &v) < 0)
				return -1;
			o->max_routes = (uint32_t)v;
			break;
		case O_RXD:
			if (num("--rxd", optarg, 32, 16384, &v) < 0)
				return -1;
			o->rxd = (uint16_t)v;
			break;
		case O_TXD:
			if (num("--txd", optarg, 32, 16384, &v) < 0)
				return -1;
			o->txd = (uint16_t)v;
			break;
		case O_BURST:
			if (num("--burst", optarg, 1, 64, &v) < 0)
				return -1;
			o->burst = (uint16_t)v;
			break;
		case O_PASS:
			if (parse_passthrough(optarg, o) < 0)
				return -1;
			break;
		case O_WDELAY:
			if (num("--tables-delay-us", optarg, 0, 1000000, &v) < 0)
				return -1;
			o->tables_delay_us = (uint32_t)v;
			break;
		case O_FABRIC:
			if (parse_ports("--fabric-ports", optarg, &o->fabric_mask) < 0)
				return -1;
			break;
		case O_SERIES:
			if (parse_ports("--series-ports", optarg, &o->series_mask) < 0)
				return -1;
			break;
		case O_FCMAP:
			if (num("--fc-map", optarg, 0, 0xFFFFFF, &v) < 0)
				return -1;
			o->fc_map = (uint32_t)v;
			break;
		case O_VLANFCMAP:
			if (parse_vlan_fc_maps(optarg, o) < 0)
				return -1;
			break;
		case O_TABLESLCORE:
			if (num("--tables-lcore", optarg, 0, RTE_MAX_LCORE - 1, &v) < 0)
				return -1;
			o->tables_lcore = (int)v;
			break;
		case O_RXQ:
			if (num("--rxq", optarg, 1, 64, &v) < 0)
				return -1;
			o->rxq = (uint16_t)v;
			break;
		case O_TXQ:
			if (num("--txq", optarg, 1, 64, &v) < 0)
				return -1;
			o->txq = (uint16_t)v;
			break;
		case O_STATSP:
			if (num("--stats-period", optarg, 1, 86400, &v) < 0)
				return -1;
			o->stats_period = (uint32_t)v;
			break;
		case O_STATEFILE:
			o->state_file = optarg;
			break;
		case O_PMDCONFIG:
			o->pmd_config = optarg; /* loaded before EAL started */
			break;
		case O_SYNCBIND:
			if (fcr_addr_parse(optarg, &o->sync.bind_ip, &o->sync.bind_port) < 0) {
				fprintf(stderr, "error: --sync-bind: '%s' is not IPv4:port\n", optarg);
				return -1;
			}
			o->sync.enabled = 1;
			break;
		case O_SYNCPEER:
			if (o->sync.nb_peers == FCR_SYNC_CONF_PEERS ||
			    fcr_addr_parse(optarg, &o->sync.peer[o->sync.nb_peers].ip,
					   &o->sync.peer[o->sync.nb_peers].port) < 0) {
				fprintf(stderr, "error: --sync-peer: '%s' is not IPv4:port "
					"(or more than %d peers)\n", optarg, FCR_SYNC_CONF_PEERS);
				return -1;
			}
			o->sync.nb_peers++;
			break;
		case O_SYNCKEY:
			o->sync.key_file = optarg;
			break;
		case O_STORE:
			o->store.url = optarg;
			break;
		case O_STORE_CA:
			o->store.cacert = optarg;
			break;
		case O_STORE_CERT:
			o->store.cert = optarg;
			break;
		case O_STORE_KEY:
			o->store.key = optarg;
			break;
		case O_STORE_USER:
			o->store.user = optarg;
			break;
		case O_STORE_NODE:
			o->store.node = optarg;
			break;
		case O_STORE_STALL:
			if (strcmp(optarg, "0") == 0) {
				o->store.stall_ms = 0;
				break;
			}
			if (num("--config-store-stall-ms", optarg, 200, 60000, &v) < 0)
				return -1;
			o->store.stall_ms = (unsigned int)v;
			break;
		case O_SYNCWIN:
			if (num("--sync-window-ms", optarg, 1, 60000, &v) < 0)
				return -1;
			o->sync.window_ms = (uint32_t)v;
			break;
		case O_SYNCSAME:
			o->sync.same_ports = 1;
			break;
		case O_SYNCMTU:
			if (num("--sync-mtu", optarg, 512, 1472, &v) < 0)
				return -1;
			o->sync.mtu = (uint32_t)v;
			break;
		case ':':
			if (optopt > 0 && optopt < 128) /* a short option */
				fprintf(stderr, "error: -%c needs a value; see --help\n", optopt);
			else
				fprintf(stderr, "error: %s needs a value; see --help\n",
					argv[optind - 1]);
			return -1;
		default:
			if (optopt > 0 && optopt < 128) /* a short option */
				fprintf(stderr, "error: unknown option -%c; see --help\n", optopt);
			else
				fprintf(stderr, "error: unknown option %s; see --help\n",
					argv[optind - 1]);
			return -1;
		}
	}
	/* the flow table keeps fcr_redirect_reserve() entries for the
	 * redirects (6 each, 6 spare): by default at most an eighth of the
	 * flow table's size in redirects */
	if (!redirects_given)
		o->max_redirects = RTE_MIN(o->max_redirects, o->max_flows / 8);
	if (o->max_redirects == 0)
		o->max_redirects = 1;
	if ((uint64_t)fcr_redirect_reserve(o->max_redirects) > o->max_flows) {
		fprintf(stderr, "error: --max-redirects: %u redirects keep %llu flow entries for "
			"their rules (%u each, and %u more), more than --max-flows %u: raise "
			"--max-flows to %llu or more, or lower --max-redirects to %u or fewer\n",
			o->max_redirects, (unsigned long long)fcr_redirect_reserve(o->max_redirects),
			FCR_REDIRECT_KEYS, FCR_REDIRECT_KEYS, o->max_flows,
			(unsigned long long)fcr_redirect_reserve(o->max_redirects),
			o->max_flows / FCR_REDIRECT_KEYS - 1);
		return -1;
	}
	/* a series port is an edge port: one kind of edge port, not a fabric one */
	if (o->fabric_mask & o->series_mask) {
		fprintf(stderr, "error: --series-ports: port %u is a fabric port; a series "
			"port is an edge port cabled to another fcredirect's fabric port\n",
			(unsigned int)__builtin_ctz(o->fabric_mask & o->series_mask));
		return -1;
	}
	if (realpath(confdir, o->config_dir) == NULL || stat(o->config_dir, &sb) != 0 ||
	    !S_ISDIR(sb.st_mode)) {
		fprintf(stderr, "error: --config-dir: %s is not a folder\n", confdir);
		return -1;
	}
	if (o->state_file != NULL && !state_file_ok(o->state_file))
		return -1;
	if (o->sync.nb_peers > 0 && !o->sync.enabled) {
		fprintf(stderr, "error: --sync-peer needs --sync-bind (the address to replicate from)\n");
		return -1;
	}
	if (o->sync.same_ports && !o->sync.enabled) {
		fprintf(stderr, "error: --sync-same-ports needs --sync-bind and --sync-peer "
			"(it says how the peers are cabled)\n");
		return -1;
	}
	if (o->sync.same_ports && o->series_mask != 0) {
		fprintf(stderr, "error: --sync-same-ports with --series-ports: nodes in series "
			"are cabled differently (port N of each reaches another station)\n");
		return -1;
	}
	if (o->sync.enabled && o->sync.key_file == NULL) {
		fprintf(stderr, "error: --sync-bind needs --sync-key-file: sync datagrams are "
			"authenticated with a shared secret\n");
		return -1;
	}
	/* a peer reports an active flow's frames every 5 s (the sync rescan):
	 * a shorter idle time would expire flows forwarding at the peer */
	if (o->sync.enabled && o->flow_idle_s != 0 && o->flow_idle_s < 10) {
		fprintf(stderr, "error: --flow-idle: at least 10 s with --sync-bind (peers "
			"report a flow's frames every 5 s), or 0\n");
		return -1;
	}
	if (optind < argc) {
		fprintf(stderr, "error: unexpected argument '%s'; see --help\n",
			argv[optind]);
		return -1;
	}
	if (o->store.url != NULL) {
		char why[FCR_CMD_MSG_LEN];
		struct fcr_store_url u;

		if (fcr_store_url_parse(o->store.url, &u, why) < 0) {
			fprintf(stderr, "error: --config-store %s\n", why);
			return -1;
		}
	}
	return 0;
}

/* Whether path is dir or inside it. */
static int
inside(const char *dir, const char *path)
{
	size_t n = strlen(dir);

	if (strcmp(dir, "/") == 0)
		return 1;
	return strncmp(path, dir, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

int
fcr_options_config_path(const struct fcr_options *o, const char *file, int to_read,
			char out[PATH_MAX], char *why, size_t why_len)
{
	char full[PATH_MAX], parent[PATH_MAX], real[PATH_MAX], *slash;
	const char *base;
	struct stat sb;

	if (file[0] == '\0' ||
	    (size_t)snprintf(full, sizeof(full), "%s%s%s", file[0] == '/' ? "" : o->config_dir,
			     file[0] == '/' ? "" : "/", file) >= sizeof(full)) {
		snprintf(why, why_len, "a file name of 1 to %d characters", PATH_MAX - 1);
		return -1;
	}
	/* its folder resolved (links, ".."), then the name in it */
	snprintf(parent, sizeof(parent), "%s", full);
	slash = strrchr(parent, '/');
	base = full + (slash - parent) + 1;
	if (slash == parent)
		parent[1] = '\0';
	else
		*slash = '\0';
	if (*base == '\0' || strcmp(base, ".") == 0 || strcmp(base, "..") == 0) {
		snprintf(why, why_len, "%s names a folder, not a file", file);
		return -1;
	}
	if (realpath(parent, real) == NULL) {
		snprintf(why, why_len, "cannot open %s: %s", file, strerror(errno));
		return -1;
	}
	if ((size_t)snprintf(out, PATH_MAX, "%s%s%s", real, strcmp(real, "/") ? "/" : "",
			     base) >= PATH_MAX) {
		snprintf(why, why_len, "%s: path too long", file);
		return -1;
	}
	/* a link in the folder may point out of it */
	if (realpath(out, real) != NULL)
		snprintf(out, PATH_MAX, "%s", real);
	else if (to_read) {
		snprintf(why, why_len, "cannot open %s: %s", file, strerror(errno));
		return -1;
	}
	if (!inside(o->config_dir, out)) {
		snprintf(why, why_len, "%s is outside the configuration folder %s "
			 "(--config-dir)", file, o->config_dir);
		return -1;
	}
	if (to_read && (stat(out, &sb) != 0 || !S_ISREG(sb.st_mode))) {
		snprintf(why, why_len, "%s is not a regular file", file);
		return -1;
	}
	return 0;
}
