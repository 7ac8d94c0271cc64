/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fcoe-gen: write a pcap of a synthetic FCoE fabric as it arrives at an
 * fcredirect appliance, and the fcredirect commands (routes, bindings,
 * redirects) that match it. This file: options, the command lines, the
 * summary. fabric.c names the ports, traffic.c builds the frames,
 * pcap_out.c writes them.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fcr_fcoe.h"
#include "fcr_text.h"
#include "fabric.h"
#include "pcap_out.h"
#include "traffic.h"

#define EXIT_USAGE 2

#define DEF_HOSTS 8u
#define DEF_TARGETS 4u
#define DEF_FLOWS 16u
#define DEF_EXCHANGES 20u
#define DEF_VLAN 100u
#define DEF_PCP 3u
#define DEF_READ_PCT 50u
#define DEF_MAX_PAYLOAD 2048u
#define DEF_IO_SIZES "512,4096,16384"
#define DEF_SEED 1u

struct opts {
	const char *out;
	const char *commands;
	const char *list;
	int quiet;
	uint32_t hosts, targets;
	uint64_t flows, redirects;
	uint64_t relogin, logout;
	int hosts_set, targets_set, flows_set, redirects_set;
	uint16_t host_port, target_port, sn_port;
	struct fcr_gen_traffic_conf traffic;
};

enum {
	O_OUT = 256, O_COMMANDS, O_LIST, O_QUIET, O_SEED, O_HOSTS, O_TARGETS,
	O_FLOWS, O_REDIRECTS, O_EXCHANGES, O_IO_SIZES, O_READ_PCT,
	O_MAX_PAYLOAD, O_VLAN, O_UNTAGGED, O_PCP, O_LOGINS, O_HOST_PORT,
	O_TARGET_PORT, O_SN_PORT, O_HELP, O_LOGIN_GAP, O_RELOGIN, O_RELOGIN_FDISC,
	O_LOGOUT, O_BAD_CRC, O_MALFORMED,
};

#define MAX_LOGIN_GAP 100000000ull

static void
usage(FILE *f)
{
	fprintf(f,
"Usage: fcoe-gen --out FILE [options]\n"
"Write a pcap of a synthetic FCoE fabric (hosts, targets, a service node's\n"
"VI and VT ports) as an fcredirect appliance receives it: fabric logins,\n"
"PLOGI/PRLI, then FCP exchanges round-robin across flows. Redirected flows\n"
"also carry the service node's legs (VI->target, VT->host). Prints the\n"
"matching fcredirect commands (route, binding, redirect).\n"
"\n"
"Output:\n"
"  --out FILE          capture to write (\"-\": standard output); required\n"
"  --commands FILE     write the fcredirect commands here (default: stdout)\n"
"  --list FILE         one line per frame: <no> <kind> <vlan> <s_id> <d_id> <ox_id>,\n"
"                      IDs as tshark prints them (vlan \"-\" when untagged, IDs\n"
"                      \"-\" when the frame has no whole FC header);\n"
"                      kinds: fip_flogi fip_flogi_acc els_flogi els_flogi_acc\n"
"                      plogi plogi_acc prli prli_acc fcp_cmnd xfer_rdy fcp_data\n"
"                      fcp_rsp; with the options below also fip_fdisc\n"
"                      fip_fdisc_acc els_fdisc els_fdisc_acc fip_logo\n"
"                      fip_logo_acc els_logo els_logo_acc fcp_data_badcrc gap\n"
"                      malformed_<reason>\n"
"  --quiet, -q         no commands on stdout (--commands still written)\n"
"Fabric:\n"
"  --hosts N           hosts (default %u; grown to fit --flows if not given)\n"
"  --targets N         targets (default %u; grown to fit --flows if not given)\n"
"  --flows N           host/target pairs with traffic, flow k = host k %% hosts,\n"
"                      target (k / hosts) %% targets; at most hosts x targets\n"
"                      (default %u, or hosts x targets if fewer)\n"
"  --redirects N       the first N flows go through the service node\n"
"                      (default flows / 4)\n"
"  --vlan V            FCoE VLAN, 1..4094; 0 means untagged (default %u)\n"
"  --untagged          same as --vlan 0\n"
"  --pcp P             802.1p priority in the tag, 0..7 (default %u)\n"
"  --logins MODE       fabric logins: fip, els or none (default fip)\n"
"Traffic:\n"
"  --exchanges N       FCP exchanges per flow (default %u)\n"
"  --io-sizes LIST     comma list of I/O sizes in bytes, suffix k or m allowed,\n"
"                      1..16m each, one picked per exchange (default %s)\n"
"  --read-pct P        percentage of READs, 0..100 (default %u)\n"
"  --max-payload N     FCP_DATA payload per frame, multiple of 4, 4..2112\n"
"                      (default %u)\n"
"  --seed N            PRNG seed: same options and seed, same bytes (default %u)\n"
"Events (all deterministic):\n"
"  --login-gap N       N filler frames after each login phase (the fabric\n"
"                      logins, or the PLOGI/PRLI phase with --logins none;\n"
"                      the second logins; the LOGOs): EtherType 0x88b5, 60\n"
"                      bytes untagged (64 tagged), kind gap, no FC header: a\n"
"                      forwarder passes them through unchanged, and a test\n"
"                      cuts the capture after them to replay the next phase\n"
"                      once the forwarder has applied what it learned\n"
"                      (default 0)\n"
"  --relogin N         halfway through the exchanges (before round\n"
"                      exchanges/2), the hosts of the first N redirected flows\n"
"                      (hosts 0..min(N,hosts)-1) log in again (FLOGI over FIP\n"
"                      or ELS as --logins says, and the fabric's accept) and\n"
"                      get a new FCID, the first free host FCIDs after the\n"
"                      last host's; all their later frames use it. The\n"
"                      commands keep the first FCIDs (a forwarder must learn\n"
"                      the change). Needs fabric logins; N <= --redirects\n"
"  --relogin-fdisc     log in again with FDISC instead of FLOGI\n"
"  --logout N          after the exchanges, the hosts of the first N redirected\n"
"                      flows send LOGO (FIP LOGO with --logins fip, else an ELS\n"
"                      LOGO to FFFFFE naming their FCID and WWPN) and get the\n"
"                      fabric's accept; then one more round of exchanges of\n"
"                      every flow, those hosts' flows without service node legs\n"
"                      (they fall back to plain forwarding). N <= --redirects\n"
"  --bad-crc N         every Nth FCP_DATA frame (counting the service node's\n"
"                      too) carries its FC CRC with every bit flipped; kind\n"
"                      fcp_data_badcrc\n"
"  --malformed         after the PLOGI/PRLI phase, one frame of each malformed\n"
"                      kind a parser names (lib/frame/fcr_reason.h), kinds\n"
"                      malformed_runt, _trunc_vlan, _vlan_stacked,\n"
"                      _trunc_fcoe_hdr, _bad_version, _bad_reserved, _bad_sof,\n"
"                      _trunc_fc_hdr, _no_trailer, _bad_eof, _bad_trailer,\n"
"                      _bad_length, _too_long (2116-byte payload, a 2180-byte\n"
"                      frame), _bad_fill: each a good frame from host 0 to\n"
"                      target 0 with exactly that defect\n"
"Commands:\n"
"  --host-port P       fcredirect port of the hosts' domains (default 0)\n"
"  --target-port P     fcredirect port of the targets' domains (default 1)\n"
"  --sn-port P         fcredirect port of the service node's domain (default 2)\n"
"  --help, -h          this text\n"
"\n"
"FCIDs: hosts from domain 01, targets from 41, service node from 81.\n"
"A one-line summary (frames, bytes, frames of each kind) goes to stderr.\n"
"Exit status: 0 done, 1 I/O error, 2 bad option.\n",
		DEF_HOSTS, DEF_TARGETS, DEF_FLOWS, DEF_VLAN, DEF_PCP,
		DEF_EXCHANGES, DEF_IO_SIZES, DEF_READ_PCT, DEF_MAX_PAYLOAD,
		DEF_SEED);
}

static int
bad(const char *opt, const char *val, const char *what)
{
	fprintf(stderr, "fcoe-gen: %s: '%s' %s\nTry 'fcoe-gen --help'.\n",
		opt, val, what);
	return -1;
}

/* Decimal, or hex with 0x; no sign, no spaces: strtoull would quietly turn
 * "-3" into a huge number. */
static int
parse_u64(const char *opt, const char *s, uint64_t min, uint64_t max,
	  uint64_t *out)
{
	char msg[96], *end;
	unsigned long long v;
	int hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');

	snprintf(msg, sizeof(msg), "is not a whole number between %llu and %llu",
		 (unsigned long long)min, (unsigned long long)max);
	if (!(hex ? isxdigit((unsigned char)s[2]) : isdigit((unsigned char)s[0])))
		return bad(opt, s, msg);
	errno = 0;
	v = strtoull(hex ? s + 2 : s, &end, hex ? 16 : 10);
	if (errno != 0 || *end != '\0' || v < min || v > max)
		return bad(opt, s, msg);
	*out = v;
	return 0;
}

static int
parse_u32(const char *opt, const char *s, uint32_t min, uint32_t max,
	  uint32_t *out)
{
	uint64_t v;

	if (parse_u64(opt, s, min, max, &v) < 0)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

static int
parse_u16(const char *opt, const char *s, uint16_t max, uint16_t *out)
{
	uint64_t v;

	if (parse_u64(opt, s, 0, max, &v) < 0)
		return -1;
	*out = (uint16_t)v;
	return 0;
}

static int
parse_io_sizes(const char *s, struct fcr_gen_traffic_conf *t)
{
	static const char *what =
		"is not a comma list of sizes from 1 to 16m bytes (e.g. 512,4k,64k)";
	const char *p = s;
	unsigned long long v;
	char *end;

	t->n_io_sizes = 0;
	for (;;) {
		if (!isdigit((unsigned char)*p))
			return bad("--io-sizes", s, what);
		errno = 0;
		v = strtoull(p, &end, 10);
		/* bound before the suffix multiplies it */
		if (errno != 0 || v > FCR_GEN_MAX_IO_SIZE)
			return bad("--io-sizes", s, what);
		if (*end == 'k' || *end == 'K') {
			v *= 1024;
			end++;
		} else if (*end == 'm' || *end == 'M') {
			v *= 1024 * 1024;
			end++;
		}
		if (v == 0 || v > FCR_GEN_MAX_IO_SIZE)
			return bad("--io-sizes", s, what);
		if (t->n_io_sizes == FCR_GEN_MAX_IO_SIZES)
			return bad("--io-sizes", s, "has more than 64 sizes");
		t->io_sizes[t->n_io_sizes++] = (uint32_t)v;
		if (*end == '\0')
			return 0;
		if (*end != ',')
			return bad("--io-sizes", s, what);
		p = end + 1;
	}
}

static int
parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{ "out", required_argument, NULL, O_OUT },
		{ "commands", required_argument, NULL, O_COMMANDS },
		{ "list", required_argument, NULL, O_LIST },
		{ "quiet", no_argument, NULL, O_QUIET },
		{ "seed", required_argument, NULL, O_SEED },
		{ "hosts", required_argument, NULL, O_HOSTS },
		{ "targets", required_argument, NULL, O_TARGETS },
		{ "flows", required_argument, NULL, O_FLOWS },
		{ "redirects", required_argument, NULL, O_REDIRECTS },
		{ "exchanges", required_argument, NULL, O_EXCHANGES },
		{ "io-sizes", required_argument, NULL, O_IO_SIZES },
		{ "read-pct", required_argument, NULL, O_READ_PCT },
		{ "max-payload", required_argument, NULL, O_MAX_PAYLOAD },
		{ "vlan", required_argument, NULL, O_VLAN },
		{ "untagged", no_argument, NULL, O_UNTAGGED },
		{ "pcp", required_argument, NULL, O_PCP },
		{ "logins", required_argument, NULL, O_LOGINS },
		{ "host-port", required_argument, NULL, O_HOST_PORT },
		{ "target-port", required_argument, NULL, O_TARGET_PORT },
		{ "sn-port", required_argument, NULL, O_SN_PORT },
		{ "login-gap", required_argument, NULL, O_LOGIN_GAP },
		{ "relogin", required_argument, NULL, O_RELOGIN },
		{ "relogin-fdisc", no_argument, NULL, O_RELOGIN_FDISC },
		{ "logout", required_argument, NULL, O_LOGOUT },
		{ "bad-crc", required_argument, NULL, O_BAD_CRC },
		{ "malformed", no_argument, NULL, O_MALFORMED },
		{ "help", no_argument, NULL, O_HELP },
		{ NULL, 0, NULL, 0 },
	};
	struct fcr_gen_traffic_conf *t = &o->traffic;
	uint32_t u32;
	uint16_t u16;
	int c, rc = 0;

	while (rc == 0 &&
	       (c = getopt_long(argc, argv, "hq", longopts, NULL)) != -1) {
		switch (c) {
		case O_OUT:
			o->out = optarg;
			break;
		case O_COMMANDS:
			o->commands = optarg;
			break;
		case O_LIST:
			o->list = optarg;
			break;
		case 'q':
		case O_QUIET:
			o->quiet = 1;
			break;
		case O_SEED:
			rc = parse_u64("--seed", optarg, 0, UINT64_MAX, &t->seed);
			break;
		case O_HOSTS:
			rc = parse_u32("--hosts", optarg, 1, FCR_GEN_MAX_HOSTS,
				       &o->hosts);
			o->hosts_set = 1;
			break;
		case O_TARGETS:
			rc = parse_u32("--targets", optarg, 1,
				       FCR_GEN_MAX_TARGETS, &o->targets);
			o->targets_set = 1;
			break;
		case O_FLOWS:
			rc = parse_u64("--flows", optarg, 1, UINT32_MAX, &o->flows);
			o->flows_set = 1;
			break;
		case O_REDIRECTS:
			rc = parse_u64("--redirects", optarg, 0, UINT32_MAX,
				       &o->redirects);
			o->redirects_set = 1;
			break;
		case O_EXCHANGES:
			rc = parse_u32("--exchanges", optarg, 0, UINT32_MAX,
				       &t->exchanges);
			break;
		case O_IO_SIZES:
			rc = parse_io_sizes(optarg, t);
			break;
		case O_READ_PCT:
			rc = parse_u32("--read-pct", optarg, 0, 100, &t->read_pct);
			break;
		case O_MAX_PAYLOAD:
			rc = parse_u32("--max-payload", optarg, 4,
				       FCR_FC_MAX_PAYLOAD, &u32);
			if (rc == 0 && u32 % 4 != 0)
				rc = bad("--max-payload", optarg,
					 "is not a multiple of 4 (only the last frame of a sequence may carry fill bytes)");
			t->max_payload = u32;
			break;
		case O_VLAN:
			rc = parse_u16("--vlan", optarg, 4094, &t->vlan);
			break;
		case O_UNTAGGED:
			t->vlan = 0;
			break;
		case O_PCP:
			rc = parse_u16("--pcp", optarg, 7, &u16);
			t->pcp = (uint8_t)u16;
			break;
		case O_LOGINS:
			if (strcmp(optarg, "fip") == 0)
				t->logins = FCR_GEN_LOGINS_FIP;
			else if (strcmp(optarg, "els") == 0)
				t->logins = FCR_GEN_LOGINS_ELS;
			else if (strcmp(optarg, "none") == 0)
				t->logins = FCR_GEN_LOGINS_NONE;
			else
				rc = bad("--logins", optarg,
					 "is not one of fip, els, none");
			break;
		case O_HOST_PORT:
			rc = parse_u16("--host-port", optarg, UINT16_MAX,
				       &o->host_port);
			break;
		case O_TARGET_PORT:
			rc = parse_u16("--target-port", optarg, UINT16_MAX,
				       &o->target_port);
			break;
		case O_SN_PORT:
			rc = parse_u16("--sn-port", optarg, UINT16_MAX,
				       &o->sn_port);
			break;
		case O_LOGIN_GAP:
			rc = parse_u64("--login-gap", optarg, 0, MAX_LOGIN_GAP,
				       &t->login_gap);
			break;
		case O_RELOGIN:
			rc = parse_u64("--relogin", optarg, 0, UINT32_MAX, &o->relogin);
			break;
		case O_RELOGIN_FDISC:
			t->relogin_fdisc = 1;
			break;
		case O_LOGOUT:
			rc = parse_u64("--logout", optarg, 0, UINT32_MAX, &o->logout);
			break;
		case O_BAD_CRC:
			rc = parse_u32("--bad-crc", optarg, 1, UINT32_MAX, &t->bad_crc);
			break;
		case O_MALFORMED:
			t->malformed = 1;
			break;
		case 'h':
		case O_HELP:
			usage(stdout);
			exit(0);
		default:
			/* getopt already said what was wrong */
			fprintf(stderr, "Try 'fcoe-gen --help'.\n");
			return -1;
		}
	}
	if (rc != 0)
		return -1;
	if (optind < argc) {
		fprintf(stderr, "fcoe-gen: unexpected argument '%s'\nTry 'fcoe-gen --help'.\n",
			argv[optind]);
		return -1;
	}
	if (o->out == NULL) {
		fprintf(stderr, "fcoe-gen: --out FILE is required\nTry 'fcoe-gen --help'.\n");
		return -1;
	}
	return 0;
}

/* Smallest x with x * x >= n. */
static uint64_t
isqrt_ceil(uint64_t n)
{
	uint64_t lo = 0, hi = 1ull << 32, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (mid * mid >= n)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/*
 * --flows beyond hosts x targets grows whichever of the two was not given
 * (both: keeping the default 2:1 ratio), so `--flows 1000000` alone works.
 */
static int
size_fabric(struct opts *o)
{
	uint64_t pairs = (uint64_t)o->hosts * o->targets, h, t;

	if (!o->flows_set) {
		o->flows = pairs < DEF_FLOWS ? pairs : DEF_FLOWS;
	} else if (o->flows > pairs) {
		h = o->hosts;
		t = o->targets;
		if (!o->hosts_set && !o->targets_set) {
			h = isqrt_ceil(2 * o->flows);
			if (h < DEF_HOSTS)
				h = DEF_HOSTS;
			t = (o->flows + h - 1) / h;
		} else if (!o->hosts_set) {
			h = (o->flows + t - 1) / t;
		} else if (!o->targets_set) {
			t = (o->flows + h - 1) / h;
		}
		if (h > FCR_GEN_MAX_HOSTS || t > FCR_GEN_MAX_TARGETS) {
			fprintf(stderr,
				"fcoe-gen: --flows %llu needs %llu hosts x %llu targets, more than %u x %u\n",
				(unsigned long long)o->flows,
				(unsigned long long)h, (unsigned long long)t,
				FCR_GEN_MAX_HOSTS, FCR_GEN_MAX_TARGETS);
			return -1;
		}
		o->hosts = (uint32_t)h;
		o->targets = (uint32_t)t;
	}
	if (!o->redirects_set)
		o->redirects = o->flows / 4;
	return 0;
}

/* --relogin and --logout name redirected flows' hosts. */
static int
check_events(struct opts *o, struct fcr_gen_fabric *fab, char *err,
	     size_t errlen)
{
	uint32_t hosts = fab->n[FCR_GEN_HOST];

	if (o->relogin > fab->redirects) {
		snprintf(err, errlen, "--relogin %llu exceeds --redirects %llu",
			 (unsigned long long)o->relogin,
			 (unsigned long long)fab->redirects);
		return -1;
	}
	if (o->relogin > 0 && o->traffic.logins == FCR_GEN_LOGINS_NONE) {
		snprintf(err, errlen, "--relogin needs fabric logins (--logins fip or els)");
		return -1;
	}
	if (o->logout > fab->redirects) {
		snprintf(err, errlen, "--logout %llu exceeds --redirects %llu",
			 (unsigned long long)o->logout,
			 (unsigned long long)fab->redirects);
		return -1;
	}
	o->traffic.logouts = o->logout < hosts ? (uint32_t)o->logout : hosts;
	return fcr_gen_set_relogins(fab, o->relogin, err, errlen);
}

static void
print_routes(FILE *f, uint32_t first, uint32_t last, uint16_t port)
{
	char id[FCR_FCID_STRLEN];
	uint32_t d;

	for (d = first; d <= last; d++)
		fprintf(f, "route add %s/8 port %u fpma\n",
			fcr_fcid_format(d << 16, id), port);
}

static int
write_commands(FILE *f, const struct fcr_gen_fabric *fab, const struct opts *o)
{
	uint16_t vlan = o->traffic.vlan;
	char w1[FCR_WWPN_STRLEN], w2[FCR_WWPN_STRLEN], w3[FCR_WWPN_STRLEN],
		w4[FCR_WWPN_STRLEN], id[FCR_FCID_STRLEN];
	uint32_t first, last, sn_first, sn_last, idx, h, t;
	uint64_t k;
	int role;

	if (fcr_gen_domains(fab, FCR_GEN_HOST, &first, &last))
		print_routes(f, first, last, o->host_port);
	if (fcr_gen_domains(fab, FCR_GEN_TARGET, &first, &last))
		print_routes(f, first, last, o->target_port);
	/* VIs and VTs share the service node's domains, VTs after VIs */
	if (fcr_gen_domains(fab, FCR_GEN_VI, &sn_first, &sn_last)) {
		if (fcr_gen_domains(fab, FCR_GEN_VT, &first, &last))
			sn_last = last;
		print_routes(f, sn_first, sn_last, o->sn_port);
	}

	for (role = 0; role < FCR_GEN_ROLES; role++)
		for (idx = 0; idx < fab->n[role]; idx++)
			fprintf(f, "binding add vlan %u wwpn %s fcid %s\n", vlan,
				fcr_wwpn_format(fcr_gen_wwpn((enum fcr_gen_role)role, idx), w1),
				fcr_fcid_format(fcr_gen_fcid(fab, (enum fcr_gen_role)role, idx), id));

	for (k = 0; k < fab->redirects; k++) {
		h = fcr_gen_flow_host(fab, k);
		t = fcr_gen_flow_target(fab, k);
		fprintf(f, "redirect add vlan %u host %s target %s vi %s vt %s\n",
			vlan, fcr_wwpn_format(fcr_gen_wwpn(FCR_GEN_HOST, h), w1),
			fcr_wwpn_format(fcr_gen_wwpn(FCR_GEN_TARGET, t), w2),
			fcr_wwpn_format(fcr_gen_wwpn(FCR_GEN_VI, h), w3),
			fcr_wwpn_format(fcr_gen_wwpn(FCR_GEN_VT, t), w4));
	}
	return ferror(f) ? -1 : 0;
}

static void
summary(FILE *f, const struct fcr_gen_out *out)
{
	int k;

	fprintf(f, "fcoe-gen: frames=%llu bytes=%llu",
		(unsigned long long)out->frames, (unsigned long long)out->bytes);
	for (k = 0; k < FCR_GEN_KINDS; k++)
		if (k < FCR_GEN_K_BASE_KINDS || out->kinds[k] != 0)
			fprintf(f, " %s=%llu", fcr_gen_kind_name((enum fcr_gen_kind)k),
				(unsigned long long)out->kinds[k]);
	fprintf(f, " file=%s\n", out->path);
}

int
main(int argc, char **argv)
{
	struct opts o = {
		.hosts = DEF_HOSTS,
		.targets = DEF_TARGETS,
		.host_port = 0,
		.target_port = 1,
		.sn_port = 2,
		.traffic = {
			.vlan = DEF_VLAN,
			.pcp = DEF_PCP,
			.logins = FCR_GEN_LOGINS_FIP,
			.exchanges = DEF_EXCHANGES,
			.read_pct = DEF_READ_PCT,
			.max_payload = DEF_MAX_PAYLOAD,
			.seed = DEF_SEED,
		},
	};
	struct fcr_gen_fabric fab;
	struct fcr_gen_out out;
	FILE *cmds = NULL;
	char err[160];
	int rc = 0;

	if (fcr_version_asked(argc, argv, "fcoe-gen"))
		return 0;
	parse_io_sizes(DEF_IO_SIZES, &o.traffic);
	if (parse_args(argc, argv, &o) < 0 || size_fabric(&o) < 0)
		return EXIT_USAGE;
	if (fcr_gen_fabric_init(&fab, o.hosts, o.targets, o.flows, o.redirects,
				err, sizeof(err)) < 0 ||
	    check_events(&o, &fab, err, sizeof(err)) < 0) {
		fprintf(stderr, "fcoe-gen: %s\nTry 'fcoe-gen --help'.\n", err);
		return EXIT_USAGE;
	}
	if (o.commands != NULL) {
		cmds = fopen(o.commands, "w");
		if (cmds == NULL) {
			fprintf(stderr, "fcoe-gen: --commands %s: %s\n",
				o.commands, strerror(errno));
			return 1;
		}
	} else if (!o.quiet) {
		if (strcmp(o.out, "-") == 0) {
			fprintf(stderr, "fcoe-gen: --out - needs --commands FILE or --quiet: the capture takes stdout\n");
			return EXIT_USAGE;
		}
		cmds = stdout;
	}

	/* Open the capture before any command is printed, so a bad --out
	 * leaves no half-done output behind; then the commands, so a reader
	 * can configure fcredirect while the capture is still being written. */
	if (fcr_gen_out_open(&out, o.out, o.list) < 0) {
		if (cmds != NULL && cmds != stdout)
			fclose(cmds);
		return 1;
	}
	if (cmds != NULL) {
		if (write_commands(cmds, &fab, &o) < 0 || fflush(cmds) != 0) {
			fprintf(stderr, "fcoe-gen: writing commands: %s\n",
				strerror(errno));
			rc = 1;
		}
		if (cmds != stdout && fclose(cmds) != 0)
			rc = 1;
	}
	if (rc == 0 && fcr_gen_traffic_run(&fab, &o.traffic, &out) < 0)
		rc = 1;
	if (fcr_gen_out_close(&out) < 0)
		rc = 1;
	summary(stderr, &out);
	return rc;
}
