/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_config.h>

#include "options.h"
#include "source.h"
#include "stamp.h"

#define PG_DEF_BURST 32u
#define PG_DEF_DURATION 5.0
#define PG_DEF_FLOWS 1024u
#define PG_DEF_SIZE 128u
#define PG_DEF_VLAN 100u
#define PG_DEF_PCP 3u
#define PG_DEF_DESC 1024u

static void
usage(FILE *f)
{
	fprintf(f,
"Usage: fcoe-pktgen [EAL options] -- [options]\n"
"Send FCoE frames out of one DPDK port, receive them on another (after a\n"
"forwarder), report rates, loss and latency. Each FCP_DATA frame with a\n"
"payload of 16 bytes or more carries its send TSC and a sequence number in\n"
"its first 16 payload bytes (the FC CRC updated to match).\n"
"\n"
"Ports and timing:\n"
"  --tx-port P         port to send on (default 0)\n"
"  --rx-port P         port to receive on (default 1; may equal --tx-port);\n"
"                      frames arriving on the --tx-port are counted too\n"
"                      (rx_other)\n"
"  --rate PPS          frames per second, paced by the TSC; 0 = as fast as\n"
"                      the port takes them (default 0). Time lost (lcore\n"
"                      descheduled, port pushing back) is made up at full\n"
"                      speed, at most 100 ms worth of frames\n"
"  --duration S        seconds to measure, after the warm-up (default %.0f\n"
"                      unless --count is given)\n"
"  --count N           frames to measure, after the warm-up (with\n"
"                      --duration: whichever comes first)\n"
"  --warmup S          seconds of traffic before measuring (default 0); its\n"
"                      frames are counted apart (rx_warmup)\n"
"  --burst N           frames per tx/rx burst, 1..%u (default %u)\n"
"  --stats-period S    a progress line every S seconds; 0 = none (default 1)\n"
"  --drain S           after the last frame, wait up to S seconds for frames\n"
"                      in flight, less when all are back (default 1)\n"
"  --link-wait S       wait up to S seconds for the ports' links (default 10);\n"
"                      a port that does not start or come up is restarted\n"
"                      every second meanwhile (a memif server not ready yet)\n"
"  --linger S          after the summary, keep the ports up S seconds (frames\n"
"                      received are dropped), e.g. to read a memif peer's\n"
"                      port counters, which memif resets at disconnection\n"
"  --rxd N, --txd N    descriptors per queue (default %u)\n"
"  --rxq N             RX queues on each port, all polled (default 1): a\n"
"                      forwarder with N workers sends on N TX queues, and a\n"
"                      memif server's TX queue reaches only a client's RX queue\n"
"  --check-crc         verify the FC CRC of every frame received (rx_crc_*)\n"
"Source (one of):\n"
"  --pcap FILE         replay a capture (e.g. from fcoe-gen) in a loop, frames\n"
"                      of up to %u bytes; FCP_DATA frames with 16 payload bytes\n"
"                      or more are stamped, every other frame goes out as is\n"
"  built-in fabric (the default): one FCP_DATA frame per host/target pair,\n"
"  round-robin; FCIDs as fcoe-gen gives them: hosts 01.xx.xx, targets\n"
"  41.xx.xx; source MAC the sender's FPMA, destination the FCF's\n"
"  --flows N           host/target pairs (default %u)\n"
"  --hosts N, --targets N  fabric size (default as fcoe-gen: 8 and 4, grown\n"
"                      to fit --flows)\n"
"  --size BYTES        frame length without Ethernet FCS (default %u): %zu..%zu\n"
"                      tagged, in steps of 4; every frame stamped: in its\n"
"                      payload from %zu bytes, in its FC header below\n"
"  --vlan V            VLAN ID, 0 = untagged (default %u)\n"
"  --pcp P             802.1p priority (default %u)\n"
"  --reverse           target -> host frames instead of host -> target\n"
"  --csv PREFIX        also write PREFIX-latency.csv (the histogram's buckets:\n"
"                      lo_ns,hi_ns,frames) and PREFIX-rates.csv (one row a\n"
"                      progress period: t_s,tx_pps,rx_pps,lat_p50_ns,lat_p99_ns,\n"
"                      lat_max_ns); perf/plot-latency draws them\n"
"  --version           print the version and exit\n"
"  -h, --help          this text\n"
"\n"
"Output: progress lines `period ...`, then summary lines of key=value, then\n"
"the latency histogram as text (`hist` lines: a range in ns, a bar, frames):\n"
"  summary tx_frames= tx_bytes= tx_pps= tx_mbps= duration_s= ...\n"
"  summary rx_frames= rx_other= rx_timed= rx_untimed= rx_warmup= lost= loss_pct= rx_pps= ...\n"
"  summary lat_samples= lat_min_ns= lat_mean_ns= lat_p50_ns= lat_p90_ns=\n"
"          lat_p99_ns= lat_p999_ns= lat_max_ns=\n"
"lost = tx_frames - rx_frames - rx_other (negative: duplicates). Latency is\n"
"receive TSC - send TSC of each stamped frame; percentiles are the upper bound\n"
"of their histogram bucket (buckets at most 3.1%% wide), never above the max.\n"
"Frames without a stamp are told from the warm-up's by arrival order.\n"
"Lcores: with one (-l 0) transmit and receive share it; with two or more,\n"
"the main lcore transmits and the next receives and prints progress.\n"
"Exit status: 0 run done (whatever the loss), 1 run-time error, 2 bad option.\n",
		PG_DEF_DURATION, PG_MAX_BURST, PG_DEF_BURST,
		PG_DEF_DESC, PG_MAX_FRAME, PG_DEF_FLOWS, PG_DEF_SIZE,
		pg_fabric_min_size(1), pg_fabric_max_size(1),
		pg_fabric_min_size(1) + PG_STAMP_LEN, PG_DEF_VLAN, PG_DEF_PCP);
}

static int
bad(const char *opt, const char *arg, const char *what)
{
	fprintf(stderr, "fcoe-pktgen: %s %s: %s\n", opt, arg ? arg : "", what);
	return -1;
}

static int
parse_u64(const char *opt, const char *arg, uint64_t min, uint64_t max,
	  uint64_t *v)
{
	char *end;
	unsigned long long x;

	errno = 0;
	if (arg[0] == '-' || arg[0] == '\0')
		return bad(opt, arg, "not a number");
	x = strtoull(arg, &end, 0);
	if (errno != 0 || *end != '\0')
		return bad(opt, arg, "not a number");
	if (x < min || x > max) {
		char m[96];

		snprintf(m, sizeof(m), "must be between %" PRIu64 " and %" PRIu64, min, max);
		return bad(opt, arg, m);
	}
	*v = x;
	return 0;
}

static int
parse_double(const char *opt, const char *arg, double min, double max,
	     double *v)
{
	char *end;
	double x;

	errno = 0;
	x = strtod(arg, &end);
	if (errno != 0 || *end != '\0' || end == arg || !isfinite(x))
		return bad(opt, arg, "not a number");
	if (x < min || x > max) {
		char m[96];

		snprintf(m, sizeof(m), "must be between %g and %g", min, max);
		return bad(opt, arg, m);
	}
	*v = x;
	return 0;
}

enum {
	O_TX_PORT = 256, O_RX_PORT, O_RATE, O_DURATION, O_COUNT, O_BURST,
	O_WARMUP, O_STATS, O_PCAP, O_FLOWS, O_SIZE, O_HOSTS, O_TARGETS,
	O_VLAN, O_PCP, O_REVERSE, O_DRAIN, O_LINK_WAIT, O_RXQ, O_RXD, O_TXD,
	O_CHECK_CRC, O_LINGER, O_CSV,
};

static const struct option longopts[] = {
	{ "tx-port", required_argument, NULL, O_TX_PORT },
	{ "rx-port", required_argument, NULL, O_RX_PORT },
	{ "rate", required_argument, NULL, O_RATE },
	{ "duration", required_argument, NULL, O_DURATION },
	{ "count", required_argument, NULL, O_COUNT },
	{ "burst", required_argument, NULL, O_BURST },
	{ "warmup", required_argument, NULL, O_WARMUP },
	{ "stats-period", required_argument, NULL, O_STATS },
	{ "pcap", required_argument, NULL, O_PCAP },
	{ "flows", required_argument, NULL, O_FLOWS },
	{ "size", required_argument, NULL, O_SIZE },
	{ "hosts", required_argument, NULL, O_HOSTS },
	{ "targets", required_argument, NULL, O_TARGETS },
	{ "vlan", required_argument, NULL, O_VLAN },
	{ "pcp", required_argument, NULL, O_PCP },
	{ "reverse", no_argument, NULL, O_REVERSE },
	{ "drain", required_argument, NULL, O_DRAIN },
	{ "link-wait", required_argument, NULL, O_LINK_WAIT },
	{ "rxd", required_argument, NULL, O_RXD },
	{ "rxq", required_argument, NULL, O_RXQ },
	{ "txd", required_argument, NULL, O_TXD },
	{ "check-crc", no_argument, NULL, O_CHECK_CRC },
	{ "linger", required_argument, NULL, O_LINGER },
	{ "csv", required_argument, NULL, O_CSV },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

int
pg_opts_parse(int argc, char **argv, struct pg_opts *o)
{
	uint64_t v;
	int c, count_set = 0;
	const char *name;

	memset(o, 0, sizeof(*o));
	o->tx_port = 0;
	o->rx_port = 1;
	o->burst = PG_DEF_BURST;
	o->stats_period = 1.0;
	o->drain = 1.0;
	o->link_wait = 10.0;
	o->rxd = o->txd = PG_DEF_DESC;
	o->rxq = 1;
	o->fab.flows = PG_DEF_FLOWS;
	o->fab.size = PG_DEF_SIZE;
	o->fab.vlan = PG_DEF_VLAN;
	o->fab.pcp = PG_DEF_PCP;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		/* for '?': the word getopt_long stopped at */
		name = optind > 1 && optind - 1 < argc ? argv[optind - 1] : "";
		switch (c) {
		case 'h':
			usage(stdout);
			return 1;
		case O_TX_PORT:
			if (parse_u64("--tx-port", optarg, 0, RTE_MAX_ETHPORTS - 1, &v))
				return -1;
			o->tx_port = (uint16_t)v;
			break;
		case O_RX_PORT:
			if (parse_u64("--rx-port", optarg, 0, RTE_MAX_ETHPORTS - 1, &v))
				return -1;
			o->rx_port = (uint16_t)v;
			break;
		case O_RATE:
			if (parse_double("--rate", optarg, 0, 1e10, &o->rate))
				return -1;
			break;
		case O_DURATION:
			if (parse_double("--duration", optarg, 0.001, 86400.0 * 365, &o->duration))
				return -1;
			o->duration_set = 1;
			break;
		case O_COUNT:
			if (parse_u64("--count", optarg, 1, PG_SEQ_MASK / 2, &o->count))
				return -1;
			count_set = 1;
			break;
		case O_BURST:
			if (parse_u64("--burst", optarg, 1, PG_MAX_BURST, &v))
				return -1;
			o->burst = (uint32_t)v;
			break;
		case O_WARMUP:
			if (parse_double("--warmup", optarg, 0, 3600, &o->warmup))
				return -1;
			break;
		case O_STATS:
			if (parse_double("--stats-period", optarg, 0, 3600, &o->stats_period))
				return -1;
			if (o->stats_period > 0 && o->stats_period < 0.01)
				return bad("--stats-period", optarg, "0, or 0.01 or more");
			break;
		case O_DRAIN:
			if (parse_double("--drain", optarg, 0, 600, &o->drain))
				return -1;
			break;
		case O_LINGER:
			if (parse_double("--linger", optarg, 0, 86400, &o->linger))
				return -1;
			break;
		case O_LINK_WAIT:
			if (parse_double("--link-wait", optarg, 0, 600, &o->link_wait))
				return -1;
			break;
		case O_RXD:
		case O_TXD:
			if (parse_u64(c == O_RXD ? "--rxd" : "--txd", optarg, 32, 16384, &v))
				return -1;
			if (c == O_RXD)
				o->rxd = (uint16_t)v;
			else
				o->txd = (uint16_t)v;
			break;
		case O_RXQ:
			if (parse_u64("--rxq", optarg, 1, PG_MAX_RXQ, &v))
				return -1;
			o->rxq = (uint16_t)v;
			break;
		case O_CHECK_CRC:
			o->check_crc = 1;
			break;
		case O_CSV:
			o->csv = optarg;
			break;
		case O_PCAP:
			o->pcap = optarg;
			break;
		case O_FLOWS:
			if (parse_u64("--flows", optarg, 1, 16u * 1024 * 1024, &o->fab.flows))
				return -1;
			o->fabric_opt = 1;
			break;
		case O_SIZE:
			if (parse_u64("--size", optarg, 1, 65535, &v))
				return -1;
			o->fab.size = (uint32_t)v;
			o->fabric_opt = 1;
			break;
		case O_HOSTS:
		case O_TARGETS:
			if (parse_u64(c == O_HOSTS ? "--hosts" : "--targets", optarg, 1,
				      0x400000, &v))
				return -1;
			if (c == O_HOSTS)
				o->fab.hosts = (uint32_t)v;
			else
				o->fab.targets = (uint32_t)v;
			o->fabric_opt = 1;
			break;
		case O_VLAN:
			if (parse_u64("--vlan", optarg, 0, 4094, &v))
				return -1;
			o->fab.vlan = (uint16_t)v;
			o->fabric_opt = 1;
			break;
		case O_PCP:
			if (parse_u64("--pcp", optarg, 0, 7, &v))
				return -1;
			o->fab.pcp = (uint8_t)v;
			o->fabric_opt = 1;
			break;
		case O_REVERSE:
			o->fab.reverse = 1;
			o->fabric_opt = 1;
			break;
		case '?':
		default:
			if (optopt >= O_TX_PORT) {
				const struct option *lo = longopts;

				while (lo->name != NULL && lo->val != optopt)
					lo++;
				fprintf(stderr, "fcoe-pktgen: %s: %s\n", name,
					lo->has_arg == no_argument ? "takes no value" :
								     "needs a value");
			} else {
				fprintf(stderr, "fcoe-pktgen: %s: unknown option (--help lists them)\n",
					name);
			}
			return -1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "fcoe-pktgen: %s: unexpected argument\n", argv[optind]);
		return -1;
	}
	if (o->pcap != NULL && o->fabric_opt) {
		fprintf(stderr, "fcoe-pktgen: --pcap replays a capture; --flows, --size, --hosts, --targets, --vlan, --pcp and --reverse describe the built-in fabric: give one or the other\n");
		return -1;
	}
	if (!o->duration_set && !count_set)
		o->duration = PG_DEF_DURATION;
	if (!count_set)
		o->count = 0;
	return 0;
}
