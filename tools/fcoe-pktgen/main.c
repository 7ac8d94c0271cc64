/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fcoe-pktgen: a live FCoE traffic generator on DPDK ports. It sends the
 * frames of a source (a built-in fabric or a capture, looping) out of one
 * port, at full speed or paced by the TSC to a rate, receives on another
 * (or the same) port and reports transmit and receive rates, loss and
 * latency percentiles. The latency comes from a stamp (stamp.h) carried in
 * the payload of FCP_DATA frames, which a forwarder rewriting FC or
 * Ethernet addresses leaves alone.
 *
 * With one lcore, transmit and receive share it; with two (-l 0,1), the
 * main lcore transmits and the second receives and prints.
 *
 * Frames are sent from "slots": one mbuf per template position, kept with
 * an extra reference. A slot whose mbuf the driver has released (reference
 * count back to 1) is stamped again in place and sent again: no copy, no
 * allocation. A slot still in flight (a NIC that has not completed it yet)
 * is sent as a fresh copy of its template instead.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_log.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <rte_random.h>

#include "fcr_crc.h"
#include "fcr_frame.h"
#include "hist.h"
#include "source.h"
#include "stamp.h"

#define EXIT_RUNTIME 1
#define EXIT_USAGE 2

#define PG_MAX_BURST 512u
#define PG_DEF_BURST 32u
#define PG_DEF_DURATION 5.0
#define PG_DEF_FLOWS 1024u
#define PG_DEF_SIZE 128u
#define PG_DEF_VLAN 100u
#define PG_DEF_PCP 3u
#define PG_DEF_DESC 1024u
#define PG_MIN_SLOTS 2048u
#define PG_MAX_SLOTS 8192u
#define PG_MTU 2500u
#define PG_FLUSH_MS 1000u
#define PG_MAX_RX_PORTS 2

struct opts {
	uint16_t tx_port, rx_port;
	double rate;            /* frames per second; 0: as fast as possible */
	double duration;        /* measured seconds (after the warm-up) */
	uint64_t count;         /* measured frames; 0: no limit */
	int duration_set;
	uint32_t burst;
	double warmup;
	double stats_period;
	double drain;
	double link_wait;
	double linger;
	uint16_t rxd, txd;
	int check_crc;
	const char *pcap;
	int fabric_opt;         /* --flows/--size/... given */
	struct pg_fabric_conf fab;
};

/* Counters the transmit side writes and the receive side reads. */
struct pg_shared {
	uint64_t tx_sent;       /* every frame sent, warm-up included */
	uint64_t seq0;          /* first measured sequence number */
	uint64_t t_meas;        /* TSC when measurement began; 0 before */
	uint64_t t_tx_end;      /* TSC of the end of transmission */
	int tx_done;
};

struct pg_tx_stats {
	uint64_t frames, bytes;    /* measured (sequence >= seq0) */
	uint64_t refused;          /* frames tx_burst handed back (retried) */
	uint64_t copies;           /* slot still in flight: sent a copy */
	uint64_t alloc_fail;
	uint64_t unsent;           /* still refused when the run ended */
	uint64_t t_last;           /* TSC of the last measured frame sent */
};

struct pg_rx_stats {
	uint64_t total;            /* every frame received, every class */
	uint64_t frames, bytes;    /* measured, on --rx-port */
	uint64_t other;            /* measured, on --tx-port (when distinct) */
	uint64_t timed, untimed;   /* measured, by stamp */
	uint64_t warmup;           /* sent before measurement began */
	uint64_t reordered;        /* stamp sequence below one already seen on the port */
	uint64_t crc_ok, crc_bad, crc_na; /* --check-crc; na: not a valid FCoE frame */
	uint64_t max_seq[PG_MAX_RX_PORTS]; /* per port: frames of one port keep order */
	int any_seq[PG_MAX_RX_PORTS];
	uint64_t t_last;           /* TSC of the last frame received */
	struct pg_hist hist;       /* measured latency, ticks */
	struct pg_hist ihist;      /* since the last periodic line */
};

static struct opts o;
static struct pg_source src;
static struct pg_shared sh;
static struct pg_tx_stats txs;
static struct pg_rx_stats rxs;
static struct rte_mempool *pool;
static struct rte_mbuf **slots;
static uint32_t n_slots;
static uint32_t run_tag;
static uint64_t hz, t_start;
static uint16_t rx_ports[PG_MAX_RX_PORTS];
static unsigned int nb_rx_ports;
static volatile int quit;

/* periodic lines */
static uint64_t per_next, per_ticks, per_tx_prev, per_rx_prev, per_t_prev;

static void
on_signal(int sig)
{
	(void)sig;
	quit = 1;
}

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
"                      tagged, in steps of 4; stamped when %zu or more\n"
"  --vlan V            VLAN ID, 0 = untagged (default %u)\n"
"  --pcp P             802.1p priority (default %u)\n"
"  --reverse           target -> host frames instead of host -> target\n"
"  -h, --help          this text\n"
"\n"
"Output: progress lines `period ...`, then summary lines of key=value:\n"
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
	O_VLAN, O_PCP, O_REVERSE, O_DRAIN, O_LINK_WAIT, O_RXD, O_TXD,
	O_CHECK_CRC, O_LINGER,
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
	{ "txd", required_argument, NULL, O_TXD },
	{ "check-crc", no_argument, NULL, O_CHECK_CRC },
	{ "linger", required_argument, NULL, O_LINGER },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* 0 ok, 1 help shown, -1 bad option */
static int
parse_opts(int argc, char **argv)
{
	uint64_t v;
	int c, count_set = 0;
	const char *name;

	o.tx_port = 0;
	o.rx_port = 1;
	o.burst = PG_DEF_BURST;
	o.stats_period = 1.0;
	o.drain = 1.0;
	o.link_wait = 10.0;
	o.rxd = o.txd = PG_DEF_DESC;
	o.fab.flows = PG_DEF_FLOWS;
	o.fab.size = PG_DEF_SIZE;
	o.fab.vlan = PG_DEF_VLAN;
	o.fab.pcp = PG_DEF_PCP;
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
			o.tx_port = (uint16_t)v;
			break;
		case O_RX_PORT:
			if (parse_u64("--rx-port", optarg, 0, RTE_MAX_ETHPORTS - 1, &v))
				return -1;
			o.rx_port = (uint16_t)v;
			break;
		case O_RATE:
			if (parse_double("--rate", optarg, 0, 1e10, &o.rate))
				return -1;
			break;
		case O_DURATION:
			if (parse_double("--duration", optarg, 0.001, 86400.0 * 365, &o.duration))
				return -1;
			o.duration_set = 1;
			break;
		case O_COUNT:
			if (parse_u64("--count", optarg, 1, PG_SEQ_MASK / 2, &o.count))
				return -1;
			count_set = 1;
			break;
		case O_BURST:
			if (parse_u64("--burst", optarg, 1, PG_MAX_BURST, &v))
				return -1;
			o.burst = (uint32_t)v;
			break;
		case O_WARMUP:
			if (parse_double("--warmup", optarg, 0, 3600, &o.warmup))
				return -1;
			break;
		case O_STATS:
			if (parse_double("--stats-period", optarg, 0, 3600, &o.stats_period))
				return -1;
			if (o.stats_period > 0 && o.stats_period < 0.01)
				return bad("--stats-period", optarg, "0, or 0.01 or more");
			break;
		case O_DRAIN:
			if (parse_double("--drain", optarg, 0, 600, &o.drain))
				return -1;
			break;
		case O_LINGER:
			if (parse_double("--linger", optarg, 0, 86400, &o.linger))
				return -1;
			break;
		case O_LINK_WAIT:
			if (parse_double("--link-wait", optarg, 0, 600, &o.link_wait))
				return -1;
			break;
		case O_RXD:
		case O_TXD:
			if (parse_u64(c == O_RXD ? "--rxd" : "--txd", optarg, 32, 16384, &v))
				return -1;
			if (c == O_RXD)
				o.rxd = (uint16_t)v;
			else
				o.txd = (uint16_t)v;
			break;
		case O_CHECK_CRC:
			o.check_crc = 1;
			break;
		case O_PCAP:
			o.pcap = optarg;
			break;
		case O_FLOWS:
			if (parse_u64("--flows", optarg, 1, 16u * 1024 * 1024, &o.fab.flows))
				return -1;
			o.fabric_opt = 1;
			break;
		case O_SIZE:
			if (parse_u64("--size", optarg, 1, 65535, &v))
				return -1;
			o.fab.size = (uint32_t)v;
			o.fabric_opt = 1;
			break;
		case O_HOSTS:
		case O_TARGETS:
			if (parse_u64(c == O_HOSTS ? "--hosts" : "--targets", optarg, 1,
				      0x400000, &v))
				return -1;
			if (c == O_HOSTS)
				o.fab.hosts = (uint32_t)v;
			else
				o.fab.targets = (uint32_t)v;
			o.fabric_opt = 1;
			break;
		case O_VLAN:
			if (parse_u64("--vlan", optarg, 0, 4094, &v))
				return -1;
			o.fab.vlan = (uint16_t)v;
			o.fabric_opt = 1;
			break;
		case O_PCP:
			if (parse_u64("--pcp", optarg, 0, 7, &v))
				return -1;
			o.fab.pcp = (uint8_t)v;
			o.fabric_opt = 1;
			break;
		case O_REVERSE:
			o.fab.reverse = 1;
			o.fabric_opt = 1;
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
	if (o.pcap != NULL && o.fabric_opt) {
		fprintf(stderr, "fcoe-pktgen: --pcap replays a capture; --flows, --size, --hosts, --targets, --vlan, --pcp and --reverse describe the built-in fabric: give one or the other\n");
		return -1;
	}
	if (!o.duration_set && !count_set)
		o.duration = PG_DEF_DURATION;
	if (!count_set)
		o.count = 0;
	return 0;
}

/* ---- ports ---- */

static const char *
driver(uint16_t port)
{
	static struct rte_eth_dev_info info[2];
	static int k;
	struct rte_eth_dev_info *i = &info[k++ & 1];

	if (rte_eth_dev_info_get(port, i) != 0 || i->driver_name == NULL)
		return "?";
	return i->driver_name;
}

static uint16_t used_ports[2];
static unsigned int nb_used_ports;
static int port_started[2];

static int
port_config(uint16_t port, uint32_t max_len)
{
	struct rte_eth_conf conf;
	struct rte_eth_dev_info info;
	uint16_t rxd = o.rxd, txd = o.txd;
	int sock = rte_eth_dev_socket_id(port), rc;

	memset(&conf, 0, sizeof(conf));
	rc = rte_eth_dev_info_get(port, &info);
	if (rc != 0) {
		fprintf(stderr, "fcoe-pktgen: port %u: no device info (%s)\n", port,
			rte_strerror(-rc));
		return -1;
	}
	if (sock < 0)
		sock = (int)rte_socket_id();
	rc = rte_eth_dev_configure(port, 1, 1, &conf);
	if (rc == 0)
		rc = rte_eth_dev_adjust_nb_rx_tx_desc(port, &rxd, &txd);
	if (rc == 0)
		rc = rte_eth_rx_queue_setup(port, 0, rxd, (unsigned int)sock, NULL, pool);
	if (rc == 0)
		rc = rte_eth_tx_queue_setup(port, 0, txd, (unsigned int)sock, NULL);
	if (rc != 0) {
		fprintf(stderr, "fcoe-pktgen: port %u (%s): set-up failed: %s\n", port,
			info.driver_name, rte_strerror(-rc));
		return -1;
	}
	/* FCoE frames reach 2180 bytes: ask for the MTU FCoE needs. Virtual
	 * ports (memif, pcap) cannot set one and carry such frames anyway. */
	rc = rte_eth_dev_set_mtu(port, PG_MTU);
	if (rc != 0 && max_len > RTE_ETHER_MAX_LEN - RTE_ETHER_CRC_LEN &&
	    rc != -ENOTSUP)
		fprintf(stderr, "fcoe-pktgen: port %u (%s): MTU %u refused (%s); frames of up to %u bytes are sent\n",
			port, info.driver_name, PG_MTU, rte_strerror(-rc), max_len);
	return 0;
}

static int
link_up(uint16_t port)
{
	struct rte_eth_link link;

	memset(&link, 0, sizeof(link));
	return rte_eth_link_get_nowait(port, &link) == 0 &&
	       link.link_status == RTE_ETH_LINK_UP;
}

/*
 * Start the ports and wait for their links. A memif client cannot start
 * before its server's socket exists, and a server that is not started yet
 * turns the client away without retrying: so a port that does not start,
 * or whose link is still down a second after it started, is started again,
 * until --link-wait runs out.
 */
static int
ports_up(void)
{
	uint64_t thz = rte_get_timer_hz(), now = rte_get_timer_cycles();
	uint64_t deadline = now + (uint64_t)(o.link_wait * (double)thz);
	uint64_t t_try[2] = { 0, 0 };
	int last_rc[2] = { 0, 0 };
	unsigned int i, up, tries = 0;
	/* a retried memif start logs an error each time: once is enough */
	int lt = rte_log_register("pmd.net.memif");
	int lvl = lt >= 0 ? rte_log_get_level((uint32_t)lt) : -1;

	for (;;) {
		now = rte_get_timer_cycles();
		if (tries++ == 1 && lvl > (int)RTE_LOG_CRIT)
			rte_log_set_level((uint32_t)lt, RTE_LOG_CRIT);
		up = 0;
		for (i = 0; i < nb_used_ports; i++) {
			uint16_t port = used_ports[i];

			if (!port_started[i]) {
				if (t_try[i] == 0 || now - t_try[i] >= thz / 2) {
					t_try[i] = now;
					last_rc[i] = rte_eth_dev_start(port);
					if (last_rc[i] == 0) {
						port_started[i] = 1;
						/* a forwarder sends to FPMA MACs, not ours */
						rte_eth_promiscuous_enable(port);
					}
				}
				continue;
			}
			if (link_up(port)) {
				up++;
				continue;
			}
			if (now - t_try[i] >= thz) {
				rte_eth_dev_stop(port);
				port_started[i] = 0;
				t_try[i] = 0;
			}
		}
		if (up == nb_used_ports || quit || now >= deadline)
			break;
		rte_delay_us_sleep(10000);
	}
	if (lvl >= 0)
		rte_log_set_level((uint32_t)lt, (uint32_t)lvl);
	if (up == nb_used_ports)
		return 0;
	for (i = 0; i < nb_used_ports; i++) {
		if (!port_started[i])
			fprintf(stderr, "fcoe-pktgen: port %u (%s): does not start (%d) within %.1f s (--link-wait)%s\n",
				used_ports[i], driver(used_ports[i]), last_rc[i], o.link_wait,
				strcmp(driver(used_ports[i]), "net_memif") == 0 ?
					" (a memif client needs its server's socket)" : "");
		else if (!link_up(used_ports[i]))
			fprintf(stderr, "fcoe-pktgen: port %u (%s): link down after %.1f s (--link-wait)%s\n",
				used_ports[i], driver(used_ports[i]), o.link_wait,
				strcmp(driver(used_ports[i]), "net_memif") == 0 ?
					" (memif: is the server on the same socket started?)" : "");
	}
	return -1;
}

static void
ports_close(void)
{
	unsigned int i;

	for (i = 0; i < nb_used_ports; i++) {
		if (port_started[i])
			rte_eth_dev_stop(used_ports[i]);
		port_started[i] = 0;
	}
	for (i = 0; i < nb_used_ports; i++)
		rte_eth_dev_close(used_ports[i]);
	nb_used_ports = 0;
}

/* ---- transmit ---- */

static inline uint64_t
load64(const uint64_t *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static inline void
store64(uint64_t *p, uint64_t v)
{
	__atomic_store_n(p, v, __ATOMIC_RELEASE);
}

struct txq {
	struct rte_mbuf *pkts[PG_MAX_BURST];
	const struct pg_tmpl *tm[PG_MAX_BURST];
	uint64_t seq[PG_MAX_BURST];
	uint32_t n;
	uint32_t cur;      /* next slot (or template when there are no slots) */
	uint64_t next_seq;
	uint64_t granted;  /* frames the pacing has allowed so far */
	uint64_t max_debt; /* frames behind schedule that are made up */
	uint32_t min_chunk; /* fewest frames worth a tx burst when paced */
	uint64_t t0;
	uint64_t warm_end;
	uint64_t meas_end; /* 0 when only --count ends the run */
	int building;
	uint64_t t_stop;
};

/* One more frame at the end of q; 0 when no mbuf could be had. */
static inline int
tx_build_one(struct txq *q)
{
	const struct pg_tmpl *tm;
	struct rte_mbuf *m = NULL;

	if (n_slots != 0) {
		tm = &src.t[q->cur % src.n];
		m = slots[q->cur];
		if (rte_mbuf_refcnt_read(m) == 1)
			rte_mbuf_refcnt_update(m, 1);
		else
			m = NULL;
		q->cur = q->cur + 1 == n_slots ? 0 : q->cur + 1;
	} else {
		tm = &src.t[q->cur];
		q->cur = q->cur + 1 == src.n ? 0 : q->cur + 1;
	}
	if (m == NULL) {
		m = rte_pktmbuf_alloc(pool);
		if (unlikely(m == NULL)) {
			txs.alloc_fail++;
			/* try this template again next time */
			if (n_slots != 0)
				q->cur = q->cur == 0 ? n_slots - 1 : q->cur - 1;
			else
				q->cur = q->cur == 0 ? src.n - 1 : q->cur - 1;
			return 0;
		}
		rte_memcpy(rte_pktmbuf_mtod(m, void *), tm->data, tm->len);
		m->data_len = tm->len;
		m->pkt_len = tm->len;
		if (n_slots != 0)
			txs.copies++;
	}
	q->pkts[q->n] = m;
	q->tm[q->n] = tm;
	q->seq[q->n] = q->next_seq++;
	q->n++;
	return 1;
}

static void
tx_init(struct txq *q)
{
	memset(q, 0, sizeof(*q));
	q->t0 = rte_rdtsc();
	q->warm_end = q->t0 + (uint64_t)(o.warmup * (double)hz);
	q->building = 1;
	q->max_debt = (uint64_t)(o.rate / 10);
	if (q->max_debt < o.burst)
		q->max_debt = o.burst;
	q->min_chunk = (uint32_t)ceil(o.rate / 100000.0);
	if (q->min_chunk < 1)
		q->min_chunk = 1;
	if (q->min_chunk > o.burst)
		q->min_chunk = o.burst;
	store64(&sh.seq0, o.warmup > 0 ? UINT64_MAX : 0);
	if (o.warmup <= 0) {
		store64(&sh.t_meas, q->t0);
		if (o.duration_set || o.count == 0)
			q->meas_end = q->t0 + (uint64_t)(o.duration * (double)hz);
	}
}

/* One pass of the transmit side: build what pacing allows, stamp, send.
 * Returns 0 when transmission is over. */
static int
tx_poll(struct txq *q)
{
	uint64_t now = rte_rdtsc(), seq0 = sh.seq0, tsc;
	uint32_t want, i, sent;

	if (q->building) {
		if (seq0 == UINT64_MAX && now >= q->warm_end) {
			seq0 = q->next_seq;
			store64(&sh.seq0, seq0);
			store64(&sh.t_meas, now);
			if (o.duration_set || o.count == 0)
				q->meas_end = now + (uint64_t)(o.duration * (double)hz);
		}
		if (quit || (q->meas_end != 0 && now >= q->meas_end) ||
		    (o.count != 0 && seq0 != UINT64_MAX && q->next_seq - seq0 >= o.count)) {
			q->building = 0;
			q->t_stop = now;
		}
	}
	if (q->building) {
		want = o.burst - q->n;
		if (o.rate > 0) {
			uint64_t expected = (uint64_t)((double)(now - q->t0) * o.rate / (double)hz);

			/* behind (the lcore was descheduled, the port pushed
			 * back): made up at full speed, up to 100 ms worth */
			if (expected > q->granted + q->max_debt)
				q->granted = expected - q->max_debt;
			if (expected - q->granted < want)
				want = (uint32_t)(expected - q->granted);
			/* no call for less than 10 us of traffic: tiny bursts
			 * cost a port more per frame than the rate allows */
			if (q->n == 0 && want < q->min_chunk)
				want = 0;
		}
		if (o.count != 0 && seq0 != UINT64_MAX &&
		    o.count - (q->next_seq - seq0) < want)
			want = (uint32_t)(o.count - (q->next_seq - seq0));
		for (i = 0; i < want; i++)
			if (!tx_build_one(q))
				break;
		q->granted += i;
	} else if (q->n != 0 &&
		   now - q->t_stop > (uint64_t)PG_FLUSH_MS * hz / 1000) {
		/* the port has refused these for a second: give up */
		txs.unsent += q->n;
		rte_pktmbuf_free_bulk(q->pkts, q->n);
		q->n = 0;
	}
	if (q->n == 0)
		return q->building;
	tsc = rte_rdtsc();
	for (i = 0; i < q->n; i++)
		if (q->tm[i]->stamp_off != 0)
			pg_stamp(rte_pktmbuf_mtod(q->pkts[i], uint8_t *), q->tm[i],
				 tsc, run_tag, q->seq[i]);
	sent = rte_eth_tx_burst(o.tx_port, 0, q->pkts, (uint16_t)q->n);
	for (i = 0; i < sent; i++) {
		if (q->seq[i] >= seq0) {
			txs.frames++;
			txs.bytes += q->tm[i]->len;
			txs.t_last = tsc;
		}
	}
	if (sent != 0)
		__atomic_store_n(&sh.tx_sent, sh.tx_sent + sent, __ATOMIC_RELAXED);
	if (sent < q->n) {
		txs.refused += q->n - sent;
		memmove(q->pkts, q->pkts + sent, (q->n - sent) * sizeof(q->pkts[0]));
		memmove(q->tm, q->tm + sent, (q->n - sent) * sizeof(q->tm[0]));
		memmove(q->seq, q->seq + sent, (q->n - sent) * sizeof(q->seq[0]));
	}
	q->n -= sent;
	return q->building || q->n != 0;
}

/* ---- receive ---- */

static inline void
rx_one(struct rte_mbuf *m, unsigned int pi, uint64_t now, uint64_t seq0)
{
	uint8_t buf[PG_STAMP_PEEK];
	uint32_t len = m->pkt_len, peek = len < PG_STAMP_PEEK ? len : PG_STAMP_PEEK;
	const uint8_t *h = rte_pktmbuf_read(m, 0, peek, buf);
	uint32_t off = h ? pg_stamp_offset(h, len) : 0;
	uint64_t tsc, w, seq, idx = rxs.total;
	int measured;

	rxs.total++;
	if (o.check_crc) {
		struct fcr_frame f;

		if (fcr_frame_parse_mbuf(m, &f) == FCR_R_OK) {
			if (fcr_frame_verify_crc_mbuf(m, &f) == FCR_R_OK)
				rxs.crc_ok++;
			else
				rxs.crc_bad++;
		} else {
			rxs.crc_na++;
		}
	}
	if (off != 0) {
		memcpy(&tsc, h + off, 8);
		memcpy(&w, h + off + 8, 8);
		if ((w >> PG_SEQ_BITS) == run_tag && tsc >= t_start && tsc <= now) {
			seq = w & PG_SEQ_MASK;
			if (seq < seq0) {
				rxs.warmup++;
				return;
			}
			if (rxs.any_seq[pi] && seq < rxs.max_seq[pi])
				rxs.reordered++;
			else
				rxs.max_seq[pi] = seq;
			rxs.any_seq[pi] = 1;
			rxs.timed++;
			pg_hist_add(&rxs.ihist, now - tsc);
			goto counted;
		}
	}
	/* no stamp: frames come back in the order they were sent (one path),
	 * so the first seq0 frames received are the warm-up's */
	measured = idx >= seq0;
	if (!measured) {
		rxs.warmup++;
		return;
	}
	rxs.untimed++;
counted:
	if (pi == 0) {
		rxs.frames++;
		rxs.bytes += len;
	} else {
		rxs.other++;
	}
}

/* Poll every receiving port once; returns frames received. */
static uint32_t
rx_poll(void)
{
	struct rte_mbuf *pkts[PG_MAX_BURST];
	uint64_t seq0 = load64(&sh.seq0), now;
	uint32_t total = 0;
	unsigned int p;
	uint16_t n, i;

	for (p = 0; p < nb_rx_ports; p++) {
		n = rte_eth_rx_burst(rx_ports[p], 0, pkts, (uint16_t)o.burst);
		if (n == 0)
			continue;
		now = rte_rdtsc();
		for (i = 0; i < n; i++)
			rx_one(pkts[i], p, now, seq0);
		rte_pktmbuf_free_bulk(pkts, n);
		rxs.t_last = now;
		total += n;
	}
	return total;
}

static double
ns(uint64_t ticks)
{
	return (double)ticks * 1e9 / (double)hz;
}

static void
period_init(void)
{
	per_ticks = (uint64_t)(o.stats_period * (double)hz);
	per_t_prev = t_start;
	per_next = o.stats_period > 0 ? t_start + per_ticks : UINT64_MAX;
	per_tx_prev = per_rx_prev = 0;
}

/* A progress line when the period is over; the interval's latency goes
 * into the run's histogram either way. */
static void
period_check(uint64_t now, int force)
{
	uint64_t tx, rx, t_meas;
	double dt;

	if (!force && now < per_next)
		return;
	t_meas = load64(&sh.t_meas);
	if (per_next != UINT64_MAX) {
		tx = __atomic_load_n(&sh.tx_sent, __ATOMIC_RELAXED);
		rx = rxs.total;
		dt = (double)(now - per_t_prev) / (double)hz;
		if (dt > 0 && !force) {
			printf("period t=%.2f tx_pps=%.0f rx_pps=%.0f tx_total=%" PRIu64
			       " rx_total=%" PRIu64 " rx_untimed=%" PRIu64,
			       (double)(now - t_start) / (double)hz,
			       (double)(tx - per_tx_prev) / dt,
			       (double)(rx - per_rx_prev) / dt, tx, rx, rxs.untimed);
			if (rxs.ihist.count != 0)
				printf(" lat_p50_ns=%.0f lat_p99_ns=%.0f lat_max_ns=%.0f",
				       ns(pg_hist_quantile(&rxs.ihist, 0.5)),
				       ns(pg_hist_quantile(&rxs.ihist, 0.99)),
				       ns(rxs.ihist.max));
			printf("%s\n", t_meas == 0 ? " (warm-up)" : "");
			fflush(stdout);
		}
		per_tx_prev = tx;
		per_rx_prev = rx;
		per_t_prev = now;
		while (per_next <= now)
			per_next += per_ticks;
	}
	pg_hist_merge(&rxs.hist, &rxs.ihist);
	pg_hist_reset(&rxs.ihist);
}

/* After transmission: frames still in flight, until every frame sent is
 * back or --drain runs out (a forwarder descheduled for a while still
 * delivers what sits in its rings). */
static void
rx_drain(void)
{
	uint64_t end = sh.t_tx_end + (uint64_t)(o.drain * (double)hz), now;

	for (;;) {
		now = rte_rdtsc();
		rx_poll();
		if (rxs.total >= __atomic_load_n(&sh.tx_sent, __ATOMIC_RELAXED) ||
		    now >= end)
			break;
		period_check(now, 0);
	}
}

/* ---- lcore roles ---- */

static void
tx_finish(struct txq *q)
{
	if (q->n != 0) {
		txs.unsent += q->n;
		rte_pktmbuf_free_bulk(q->pkts, q->n);
		q->n = 0;
	}
	store64(&sh.t_tx_end, rte_rdtsc());
	__atomic_store_n(&sh.tx_done, 1, __ATOMIC_RELEASE);
}

static int
rx_lcore(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&sh.tx_done, __ATOMIC_ACQUIRE)) {
		rx_poll();
		period_check(rte_rdtsc(), 0);
	}
	rx_drain();
	period_check(rte_rdtsc(), 1);
	return 0;
}

static void
run_single(void)
{
	struct txq q;

	tx_init(&q);
	while (tx_poll(&q)) {
		rx_poll();
		period_check(rte_rdtsc(), 0);
	}
	tx_finish(&q);
	rx_drain();
	period_check(rte_rdtsc(), 1);
}

static int
run_dual(unsigned int lcore)
{
	struct txq q;
	int rc;

	rc = rte_eal_remote_launch(rx_lcore, NULL, lcore);
	if (rc != 0) {
		fprintf(stderr, "fcoe-pktgen: lcore %u: launch failed (%s)\n", lcore,
			rte_strerror(-rc));
		return -1;
	}
	tx_init(&q);
	while (tx_poll(&q))
		;
	tx_finish(&q);
	rte_eal_wait_lcore(lcore);
	return 0;
}

/* ---- set-up and summary ---- */

/* --linger: links up, frames dropped, until the time is up or a signal. */
static void
linger(void)
{
	struct rte_mbuf *pkts[PG_MAX_BURST];
	uint64_t end = rte_rdtsc() + (uint64_t)(o.linger * (double)hz);
	unsigned int p;
	uint16_t n;

	while (!quit && rte_rdtsc() < end) {
		for (p = 0; p < nb_rx_ports; p++) {
			n = rte_eth_rx_burst(rx_ports[p], 0, pkts, (uint16_t)o.burst);
			if (n != 0)
				rte_pktmbuf_free_bulk(pkts, n);
		}
		rte_delay_us_sleep(1000);
	}
}

static int
make_slots(void)
{
	uint32_t i;

	n_slots = 0;
	if (src.n > PG_MAX_SLOTS)
		return 0;
	n_slots = src.n * ((PG_MIN_SLOTS + src.n - 1) / src.n);
	slots = calloc(n_slots, sizeof(*slots));
	if (slots == NULL)
		return -1;
	for (i = 0; i < n_slots; i++) {
		const struct pg_tmpl *tm = &src.t[i % src.n];
		struct rte_mbuf *m = rte_pktmbuf_alloc(pool);

		if (m == NULL)
			return -1;
		rte_memcpy(rte_pktmbuf_mtod(m, void *), tm->data, tm->len);
		m->data_len = tm->len;
		m->pkt_len = tm->len;
		slots[i] = m;
	}
	return 0;
}

static void
print_summary(void)
{
	uint64_t t_meas = sh.t_meas;
	double tx_s = 0, rx_s = 0, loss_pct = 0;
	int64_t lost = (int64_t)txs.frames - (int64_t)rxs.frames - (int64_t)rxs.other;
	const struct pg_hist *h = &rxs.hist;

	if (t_meas != 0 && txs.frames != 0 && txs.t_last > t_meas)
		tx_s = (double)(txs.t_last - t_meas) / (double)hz;
	if (t_meas != 0 && rxs.t_last > t_meas)
		rx_s = (double)(rxs.t_last - t_meas) / (double)hz;
	if (txs.frames != 0)
		loss_pct = 100.0 * (double)lost / (double)txs.frames;
	printf("summary tx_frames=%" PRIu64 " tx_bytes=%" PRIu64 " tx_pps=%.0f tx_mbps=%.1f"
	       " duration_s=%.3f rate_pps=%.0f tx_refused=%" PRIu64 " tx_unsent=%" PRIu64
	       " tx_copies=%" PRIu64 " tx_alloc_fail=%" PRIu64 "\n",
	       txs.frames, txs.bytes, tx_s > 0 ? (double)txs.frames / tx_s : 0.0,
	       tx_s > 0 ? (double)txs.bytes * 8 / tx_s / 1e6 : 0.0, tx_s, o.rate,
	       txs.refused, txs.unsent, txs.copies, txs.alloc_fail);
	printf("summary rx_frames=%" PRIu64 " rx_bytes=%" PRIu64 " rx_other=%" PRIu64
	       " rx_timed=%" PRIu64 " rx_untimed=%" PRIu64 " rx_warmup=%" PRIu64
	       " rx_reordered=%" PRIu64 " lost=%" PRId64 " loss_pct=%.4f rx_pps=%.0f",
	       rxs.frames, rxs.bytes, rxs.other, rxs.timed, rxs.untimed, rxs.warmup,
	       rxs.reordered, lost, loss_pct,
	       rx_s > 0 ? (double)(rxs.frames + rxs.other) / rx_s : 0.0);
	if (o.check_crc)
		printf(" rx_crc_ok=%" PRIu64 " rx_crc_bad=%" PRIu64 " rx_not_fcoe=%" PRIu64,
		       rxs.crc_ok, rxs.crc_bad, rxs.crc_na);
	printf("\n");
	if (h->count == 0) {
		printf("summary lat_samples=0 lat_min_ns=- lat_mean_ns=- lat_p50_ns=- lat_p90_ns=-"
		       " lat_p99_ns=- lat_p999_ns=- lat_max_ns=-\n");
	} else {
		printf("summary lat_samples=%" PRIu64 " lat_min_ns=%.0f lat_mean_ns=%.0f"
		       " lat_p50_ns=%.0f lat_p90_ns=%.0f lat_p99_ns=%.0f lat_p999_ns=%.0f"
		       " lat_max_ns=%.0f\n", h->count, ns(h->min),
		       ns(h->sum) / (double)h->count, ns(pg_hist_quantile(h, 0.5)),
		       ns(pg_hist_quantile(h, 0.9)), ns(pg_hist_quantile(h, 0.99)),
		       ns(pg_hist_quantile(h, 0.999)), ns(h->max));
	}
	fflush(stdout);
}

int
main(int argc, char **argv)
{
	char err[256];
	unsigned int lcore, nb_lcores;
	uint32_t i, max_len = 0, n_mbufs;
	int rc;

	rc = rte_eal_init(argc, argv);
	if (rc < 0) {
		fprintf(stderr, "fcoe-pktgen: EAL initialisation failed: %s\n",
			rte_strerror(rte_errno));
		return EXIT_USAGE;
	}
	argc -= rc;
	argv += rc;
	argv[0] = (char *)"fcoe-pktgen";
	rc = parse_opts(argc, argv);
	if (rc != 0) {
		rte_eal_cleanup();
		return rc > 0 ? 0 : EXIT_USAGE;
	}
	if (!rte_eth_dev_is_valid_port(o.tx_port) || !rte_eth_dev_is_valid_port(o.rx_port)) {
		fprintf(stderr, "fcoe-pktgen: --tx-port %u / --rx-port %u: EAL has %u port(s) (give them with --vdev or a PCI device)\n",
			o.tx_port, o.rx_port, rte_eth_dev_count_avail());
		rte_eal_cleanup();
		return EXIT_USAGE;
	}
	fcr_crc_init();
	if (o.pcap != NULL)
		rc = pg_source_pcap(&src, o.pcap, err, sizeof(err));
	else
		rc = pg_source_fabric(&src, &o.fab, err, sizeof(err));
	if (rc != 0) {
		fprintf(stderr, "fcoe-pktgen: %s\n", err);
		rte_eal_cleanup();
		return EXIT_USAGE;
	}
	if (src.skipped_long != 0)
		fprintf(stderr, "fcoe-pktgen: %" PRIu64 " capture frame(s) longer than %u bytes left out\n",
			src.skipped_long, PG_MAX_FRAME);
	if (src.n_bad_crc != 0)
		fprintf(stderr, "fcoe-pktgen: %u stamped frame(s) of the capture have a bad FC CRC; it stays bad\n",
			src.n_bad_crc);
	for (i = 0; i < src.n; i++)
		if (src.t[i].len > max_len)
			max_len = src.t[i].len;

	nb_lcores = rte_lcore_count();
	n_mbufs = (src.n <= PG_MAX_SLOTS ?
		   src.n * ((PG_MIN_SLOTS + src.n - 1) / src.n) : 0) +
		  2u * ((uint32_t)o.rxd + o.txd) + 4u * o.burst + 512u * nb_lcores + 1024u;
	pool = rte_pktmbuf_pool_create("pg_pool", n_mbufs, 256, 0,
				       RTE_PKTMBUF_HEADROOM + PG_MAX_FRAME,
				       (int)rte_socket_id());
	if (pool == NULL) {
		fprintf(stderr, "fcoe-pktgen: no memory for %u mbufs of %u bytes (%s): give EAL more (-m)\n",
			n_mbufs, RTE_PKTMBUF_HEADROOM + PG_MAX_FRAME, rte_strerror(rte_errno));
		rte_eal_cleanup();
		return EXIT_RUNTIME;
	}
	if (make_slots() != 0) {
		fprintf(stderr, "fcoe-pktgen: no memory for the frame slots\n");
		rte_eal_cleanup();
		return EXIT_RUNTIME;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	used_ports[nb_used_ports++] = o.tx_port;
	if (o.rx_port != o.tx_port)
		used_ports[nb_used_ports++] = o.rx_port;
	for (i = 0; i < nb_used_ports; i++) {
		if (port_config(used_ports[i], max_len) != 0) {
			rte_eal_cleanup();
			return EXIT_RUNTIME;
		}
	}
	rx_ports[0] = o.rx_port;
	nb_rx_ports = 1;
	if (o.tx_port != o.rx_port)
		rx_ports[nb_rx_ports++] = o.tx_port;

	printf("fcoe-pktgen: tx port %u (%s), rx port %u (%s); %s\n", o.tx_port,
	       driver(o.tx_port), o.rx_port, driver(o.rx_port), src.desc);
	lcore = rte_get_next_lcore(-1, 1, 0);
	{
		char rate[48], meas[96];

		if (o.rate > 0)
			snprintf(rate, sizeof(rate), "%.0f frames/s", o.rate);
		else
			snprintf(rate, sizeof(rate), "as fast as possible");
		if (o.count != 0 && o.duration_set)
			snprintf(meas, sizeof(meas), "%" PRIu64 " frames or %.3f s, whichever first",
				 o.count, o.duration);
		else if (o.count != 0)
			snprintf(meas, sizeof(meas), "%" PRIu64 " frames", o.count);
		else
			snprintf(meas, sizeof(meas), "%.3f s", o.duration);
		printf("fcoe-pktgen: %s, burst %u, warm-up %.1f s, then measure %s; %s\n",
		       rate, o.burst, o.warmup, meas,
		       lcore < RTE_MAX_LCORE ? "tx on the main lcore, rx on the next" :
					      "tx and rx on one lcore");
	}
	fflush(stdout);

	if (ports_up() != 0) {
		ports_close();
		rte_eal_cleanup();
		return EXIT_RUNTIME;
	}
	hz = rte_get_tsc_hz();
	run_tag = (uint32_t)(rte_rand() & PG_TAG_MASK);
	pg_hist_reset(&rxs.hist);
	pg_hist_reset(&rxs.ihist);
	t_start = rte_rdtsc();
	period_init();
	if (lcore < RTE_MAX_LCORE) {
		if (run_dual(lcore) != 0) {
			ports_close();
			rte_eal_cleanup();
			return EXIT_RUNTIME;
		}
	} else {
		run_single();
	}
	print_summary();
	if (o.linger > 0)
		linger();

	ports_close();
	for (i = 0; i < n_slots; i++)
		rte_pktmbuf_free(slots[i]);
	free(slots);
	pg_source_free(&src);
	rte_eal_cleanup();
	return 0;
}
