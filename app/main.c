/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fcredirect: an FCoE forwarder that does FC-Redirect on DPDK ports.
 * Worker lcores forward; the tables lcore (its own lcore, or the main lcore)
 * changes the tables; the command line hands it table commands.
 */
#include <pthread.h>
#include <signal.h>
#include <sys/prctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_pdump.h>
#include <rte_rcu_qsbr.h>
#include <rte_ring_elem.h>

#include "cli.h"
#include "cutover.h"
#include "commands.h"
#include "fcr_crc.h"
#include "fcr_state.h"
#include "fcr_tables.h"
#include "fcr_text.h"
#include "fwd.h"
#include "log.h"
#include "options.h"
#include "ports.h"
#include "profile_apply.h"
#include "show.h"
#include "state_file.h"
#include "store.h"
#include "sync_io.h"
#include "telemetry.h"
#include "tables_lcore.h"
#include "wake.h"

struct fcr_fwd fcr_fwd;

static void
on_signal(int sig)
{
	(void)sig;
	fcr_cli_signal = 1;
}

static void *
cli_thread(void *conf)
{
	fcr_cli_main(conf);
	/* the store's thread may be handing the tables lcore a change: first */
	fcr_store_stop();
	fcr_tables_lcore_exit();
	return NULL;
}

/*
 * The tables lcore's lcore: --tables-lcore, or by default the last lcore EAL gave
 * when neither the main lcore nor a worker has it; otherwise the main lcore
 * runs it and the command line gets a control thread of its own.
 */
static unsigned int
choose_tables_lcore(int requested)
{
	unsigned int lc, last = RTE_MAX_LCORE, w;

	if (requested >= 0)
		return (unsigned int)requested;
	RTE_LCORE_FOREACH_WORKER(lc)
		last = lc;
	if (last == RTE_MAX_LCORE)
		return rte_get_main_lcore();
	for (w = 0; w < fcr_fwd.nb_workers; w++)
		if (fcr_fwd.workers[w]->lcore == last)
			return rte_get_main_lcore();
	for (w = 0; w < fcr_fwd.nb_distributors; w++)
		if (fcr_fwd.distributors[w]->lcore == last)
			return rte_get_main_lcore();
	return last;
}

static int
is_distributor_lcore(const struct fcr_options *o, unsigned int lc)
{
	unsigned int i;

	for (i = 0; i < o->nb_distributor; i++)
		if (o->distributor[i].lcore == lc)
			return 1;
	return 0;
}

static int
is_distributed(const struct fcr_options *o, uint16_t port, uint16_t queue)
{
	unsigned int i;

	for (i = 0; i < o->nb_distributor; i++)
		if (o->distributor[i].port == port && o->distributor[i].queue == queue)
			return 1;
	return 0;
}

/* The worker of an lcore, made on first use; NULL (logged) when not. */
static struct fcr_worker *
worker_of(unsigned int lc)
{
	struct fcr_worker *wk;
	unsigned int w;

	for (w = 0; w < fcr_fwd.nb_workers; w++)
		if (fcr_fwd.workers[w]->lcore == lc)
			return fcr_fwd.workers[w];
	if (fcr_fwd.nb_workers == FCR_MAX_WORKERS) {
		FCR_LOG(ERR, main, "more than %d worker lcores; give fewer "
			"with -l or --config", FCR_MAX_WORKERS);
		return NULL;
	}
	wk = rte_zmalloc_socket("worker", sizeof(*wk), RTE_CACHE_LINE_SIZE,
				(int)rte_lcore_to_socket_id(lc));
	if (wk == NULL) {
		FCR_LOG(ERR, main, "no memory for worker %u (lcore %u)",
			fcr_fwd.nb_workers, lc);
		return NULL;
	}
	wk->id = fcr_fwd.nb_workers;
	wk->lcore = lc;
	wk->txq = (uint16_t)wk->id;
	fcr_fwd.workers[fcr_fwd.nb_workers++] = wk;
	return wk;
}

/* An lcore map entry's queue added to an lcore's list; the port's queue
 * count grown to hold it. */
static int
add_rxq(struct fcr_rxq *rxq, uint16_t *nb, const struct fcr_lcore_rxq *c,
	struct fcr_port_conf *pc, const char *opt)
{
	if (*nb == FCR_MAX_RXQ_PER_WORKER) {
		FCR_LOG(ERR, main, "%s: lcore %u polls more than %d queues", opt,
			c->lcore, FCR_MAX_RXQ_PER_WORKER);
		return -1;
	}
	rxq[*nb].port = c->port;
	rxq[*nb].queue = c->queue;
	(*nb)++;
	if (c->queue + 1 > pc->rxq[c->port])
		pc->rxq[c->port] = (uint16_t)(c->queue + 1);
	return 0;
}

/* Distributors from --distributor, one per lcore named, each with the
 * queues it receives. */
static int
assign_distributors(const struct fcr_options *o, uint16_t nb_ports, struct fcr_port_conf *pc)
{
	unsigned int i, d;

	for (i = 0; i < o->nb_distributor; i++) {
		const struct fcr_lcore_rxq *c = &o->distributor[i];
		struct fcr_distributor *dist = NULL;

		if (c->port >= nb_ports) {
			FCR_LOG(ERR, main, "--distributor: port %u does not exist (%u ports)",
				c->port, nb_ports);
			return -1;
		}
		if (c->lcore == rte_get_main_lcore() || !rte_lcore_is_enabled(c->lcore) ||
		    (int)c->lcore == o->tables_lcore) {
			FCR_LOG(ERR, main, "--distributor: lcore %u is not an enabled lcore free "
				"of the main lcore (%u) and the tables lcore", c->lcore,
				rte_get_main_lcore());
			return -1;
		}
		for (d = 0; d < fcr_fwd.nb_distributors; d++)
			if (fcr_fwd.distributors[d]->lcore == c->lcore)
				dist = fcr_fwd.distributors[d];
		if (dist == NULL) {
			if (fcr_fwd.nb_distributors == FCR_MAX_DISTRIBUTORS) {
				FCR_LOG(ERR, main, "--distributor: more than %d lcores",
					FCR_MAX_DISTRIBUTORS);
				return -1;
			}
			dist = rte_zmalloc_socket("distributor", sizeof(*dist), RTE_CACHE_LINE_SIZE,
						  (int)rte_lcore_to_socket_id(c->lcore));
			if (dist == NULL)
				return -1;
			dist->id = fcr_fwd.nb_distributors;
			dist->lcore = c->lcore;
			fcr_fwd.distributors[fcr_fwd.nb_distributors++] = dist;
		}
		if (add_rxq(dist->rxq, &dist->nb_rxq, c, pc, "--distributor") < 0)
			return -1;
	}
	return 0;
}

/* Workers from --config, or the default: the first worker lcore polls
 * queue 0 of every port (with distributors: every lcore free of them and
 * of the tables lcore is a worker, and the queues they do not receive are
 * dealt over the workers). Fills the per-port RX queue counts. */
static int
assign_workers(const struct fcr_options *o, uint16_t nb_ports,
	       struct fcr_port_conf *pc)
{
	struct fcr_lcore_rxq def[FCR_MAX_PORTS * 2];
	const struct fcr_lcore_rxq *cfg = o->config;
	unsigned int n = o->nb_config, i;

	if (n == 0) {
		unsigned int lcs[RTE_MAX_LCORE], nl = 0, lc, q;

		/* queues 0..rxq-1 of every port, dealt over the worker lcores
		 * (all but the main lcore, a --tables-lcore and distributors) */
		RTE_LCORE_FOREACH_WORKER(lc)
			if ((int)lc != o->tables_lcore && !is_distributor_lcore(o, lc))
				lcs[nl++] = lc;
		if (nl == 0) {
			FCR_LOG(ERR, main, "no worker lcore: give EAL at least two, e.g. -l 0,1%s",
				o->nb_distributor ? ", besides the distributors'" : "");
			return -1;
		}
		if (nb_ports * o->rxq > FCR_MAX_PORTS * 2) {
			FCR_LOG(ERR, main, "--rxq: %u queues on %u ports is more than the "
				"default map handles; give --config", o->rxq, nb_ports);
			return -1;
		}
		for (q = 0; q < o->rxq; q++)
			for (i = 0; i < nb_ports; i++) {
				if (is_distributed(o, (uint16_t)i, (uint16_t)q))
					continue;
				def[n].port = (uint16_t)i;
				def[n].queue = (uint16_t)q;
				def[n].lcore = (uint16_t)lcs[(q * nb_ports + i) %
							     (o->rxq > 1 || o->nb_distributor ? nl : 1)];
				n++;
			}
		cfg = def;
		if (o->nb_distributor)
			for (i = 0; i < nl; i++)
				if (worker_of(lcs[i]) == NULL)
					return -1;
	}
	for (i = 0; i < n; i++) {
		const struct fcr_lcore_rxq *c = &cfg[i];
		struct fcr_worker *wk;

		if (c->port >= nb_ports) {
			FCR_LOG(ERR, main, "--config: port %u does not exist (%u ports)",
				c->port, nb_ports);
			return -1;
		}
		if (c->lcore == rte_get_main_lcore() || !rte_lcore_is_enabled(c->lcore) ||
		    is_distributor_lcore(o, c->lcore)) {
			FCR_LOG(ERR, main, "--config: lcore %u is not an enabled worker lcore "
				"(the main lcore %u runs the command line; distributors deal)",
				c->lcore, rte_get_main_lcore());
			return -1;
		}
		if (is_distributed(o, c->port, c->queue)) {
			FCR_LOG(ERR, main, "--config: queue %u of port %u is a distributor's",
				c->queue, c->port);
			return -1;
		}
		wk = worker_of(c->lcore);
		if (wk == NULL)
			return -1;
		if (add_rxq(wk->rxq, &wk->nb_rxq, c, pc, "--config") < 0)
			return -1;
	}
	for (i = 0; i < nb_ports; i++)
		if (pc->rxq[i] == 0)
			pc->rxq[i] = 1; /* a port nobody polls still needs a queue */
	return 0;
}

/* A ring from each distributor queue to each worker, which dequeues it as
 * one of its sources. */
static int
setup_distributors(void)
{
	char name[RTE_RING_NAMESIZE];
	unsigned int d, q, w;

	for (d = 0; d < fcr_fwd.nb_distributors; d++) {
		struct fcr_distributor *dist = fcr_fwd.distributors[d];

		for (q = 0; q < dist->nb_rxq; q++)
			for (w = 0; w < fcr_fwd.nb_workers; w++) {
				struct fcr_worker *wk = fcr_fwd.workers[w];
				struct rte_ring *r;

				if (wk->nb_rxq == FCR_MAX_RXQ_PER_WORKER) {
					FCR_LOG(ERR, main, "worker %u: more than %d sources",
						w, FCR_MAX_RXQ_PER_WORKER);
					return -1;
				}
				/* fits: under 64 distributors, queues and workers */
				snprintf(name, sizeof(name), "fcr_dist%u_%u_%u", d & 63, q & 63, w & 63);
				r = rte_ring_create(name, FCR_DIST_RING_SIZE,
						    (int)rte_lcore_to_socket_id(wk->lcore),
						    RING_F_SP_ENQ | RING_F_SC_DEQ);
				if (r == NULL) {
					FCR_LOG(ERR, main, "distributor ring %s: %s", name,
						rte_strerror(rte_errno));
					return -1;
				}
				dist->ring[q][w] = r;
				wk->rxq[wk->nb_rxq] = (struct fcr_rxq){
					.port = dist->rxq[q].port,
					.queue = dist->rxq[q].queue,
					.ring = r,
				};
				wk->nb_rxq++;
			}
	}
	return 0;
}

static int
setup_workers(uint16_t nb_ports, uint16_t burst)
{
	char name[64];
	unsigned int w;
	uint16_t p;

	for (w = 0; w < fcr_fwd.nb_workers; w++) {
		struct fcr_worker *wk = fcr_fwd.workers[w];
		int socket = (int)rte_lcore_to_socket_id(wk->lcore);

		snprintf(name, sizeof(name), "fcr_ev%u", w);
		wk->events = rte_ring_create_elem(name, sizeof(struct fcr_event),
						  FCR_EVENT_RING_SIZE, socket,
						  RING_F_SP_ENQ | RING_F_SC_DEQ);
		if (wk->events == NULL)
			return -1;
		if (w == 0 && fcr_cutover_init() != 0)
			return -1;
		for (p = 0; p < nb_ports; p++) {
			wk->txb[p] = rte_zmalloc_socket("txb", RTE_ETH_TX_BUFFER_SIZE(burst),
							0, socket);
			if (wk->txb[p] == NULL)
				return -1;
			rte_eth_tx_buffer_init(wk->txb[p], burst);
			rte_eth_tx_buffer_set_err_callback(wk->txb[p],
				rte_eth_tx_buffer_count_callback, &wk->st.tx_fail[p]);
		}
	}
	return 0;
}

static int
run(int argc, char **argv, struct fcr_profile *prof)
{
	struct fcr_port_conf pc;
	struct fcr_options opt;
	struct fcr_tables_params tp;
	struct fcr_cli_conf cli_conf;
	char why[FCR_CMD_MSG_LEN];
	unsigned int w, tables_lcore;
	uint16_t nb_ports, p;
	size_t qsize;
	int ret, rc = 0;

	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		FCR_LOG(ERR, main, "EAL initialisation failed: %s",
			rte_strerror(rte_errno));
		return 1;
	}
	fcr_log_init();
	if (fcr_commands_init(why) < 0) {
		FCR_LOG(ERR, main, "the command table: %s", why);
		rte_eal_cleanup();
		return 1;
	}
	argc -= ret;
	argv += ret;
	argv[0] = (char *)"fcredirect";
	ret = fcr_options_parse(argc, argv, &opt, prof);
	if (ret != 0) {
		rte_eal_cleanup();
		return ret > 0 ? 0 : 2;
	}
	fcr_crc_init();
	/* the tables lcore sleeps 100 us when idle; the kernel's default 50 us timer
	 * slack would stretch every login's wait by half again (threads
	 * created later inherit the setting) */
	prctl(PR_SET_TIMERSLACK, 1000UL);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);

	nb_ports = rte_eth_dev_count_avail();
	if (nb_ports == 0 || nb_ports > FCR_MAX_PORTS) {
		FCR_LOG(ERR, main, "%u ports; give 1 to %d with -a or --vdev "
			"(e.g. --vdev net_pcap0,rx_pcap=in.pcap,tx_pcap=out.pcap)",
			nb_ports, FCR_MAX_PORTS);
		rte_eal_cleanup();
		return 1;
	}
	if (opt.fabric_mask >> nb_ports != 0 || opt.series_mask >> nb_ports != 0) {
		int fabric = opt.fabric_mask >> nb_ports != 0;
		uint32_t mask = fabric ? opt.fabric_mask : opt.series_mask;

		FCR_LOG(ERR, main, "%s: port %u does not exist (%u ports)",
			fabric ? "--fabric-ports" : "--series-ports",
			31 - (unsigned int)__builtin_clz(mask), nb_ports);
		rte_eal_cleanup();
		return 2;
	}
	/* an explicit map replaces the default one: a port it names that is
	 * not there would leave FIP going nowhere */
	for (p = 0; opt.passthrough_set && p < FCR_MAX_PORTS; p++)
		if (opt.passthrough[p] != FCR_PORT_NONE &&
		    (p >= nb_ports || opt.passthrough[p] >= nb_ports)) {
			FCR_LOG(ERR, main, "--passthrough %u:%u: port %u does not exist (ports 0..%u "
				"here)", p, opt.passthrough[p], p >= nb_ports ? p : opt.passthrough[p],
				nb_ports - 1);
			rte_eal_cleanup();
			return 2;
		}
	memset(&pc, 0, sizeof(pc));
	pc.rxd = opt.rxd;
	pc.txd = opt.txd;
	pc.mtu = prof != NULL && prof->mtu ? prof->mtu : 2500;
	pc.vlan_strip = opt.vlan_strip;
	if (assign_distributors(&opt, nb_ports, &pc) < 0 ||
	    assign_workers(&opt, nb_ports, &pc) < 0) {
		rte_eal_cleanup();
		return 2;
	}
	tables_lcore = choose_tables_lcore(opt.tables_lcore);
	fcr_fwd.tables_lcore = tables_lcore;
	fcr_fwd.opt = &opt;
	fcr_fwd.profile = prof;
	if (tables_lcore != rte_get_main_lcore()) {
		for (w = 0; w < fcr_fwd.nb_workers; w++)
			if (fcr_fwd.workers[w]->lcore == tables_lcore)
				break;
		if (!rte_lcore_is_enabled(tables_lcore) || w < fcr_fwd.nb_workers ||
		    is_distributor_lcore(&opt, tables_lcore)) {
			FCR_LOG(ERR, main, "--tables-lcore: lcore %u is not an enabled lcore "
				"free of workers and distributors", tables_lcore);
			rte_eal_cleanup();
			return 2;
		}
	}
	pc.txq = (uint16_t)fcr_fwd.nb_workers;
	if (opt.txq != 0) {
		if (opt.txq < fcr_fwd.nb_workers) {
			FCR_LOG(ERR, main, "--txq: %u TX queues for %u workers; each worker "
				"needs its own", opt.txq, fcr_fwd.nb_workers);
			rte_eal_cleanup();
			return 2;
		}
		pc.txq = opt.txq;
	}

	fcr_fwd.nb_ports = nb_ports;
	fcr_fwd.burst = opt.burst;
	fcr_fwd.fabric_mask = opt.fabric_mask;
	fcr_fwd.series_mask = opt.series_mask;
	fcr_fwd.guard_every = opt.guard != FCR_GUARD_OFF ? opt.guard_sample : 0;
	fcr_fwd.guard_drop = opt.guard == FCR_GUARD_DROP;
	fcr_fwd.drain_tsc = (rte_get_tsc_hz() + 9999) / 10000; /* 100 us */
	for (p = 0; p < FCR_MAX_PORTS; p++)
		fcr_fwd.passthrough[p] = opt.passthrough[p];
	/* several edge ports peered with one fabric port: its FIP goes to all */
	for (p = 0; p < nb_ports; p++)
		if (!(opt.fabric_mask >> p & 1) && opt.passthrough[p] < nb_ports &&
		    (opt.fabric_mask >> opt.passthrough[p] & 1))
			fcr_fwd.flood[opt.passthrough[p]] |= 1u << p;

	qsize = rte_rcu_qsbr_get_memsize(fcr_fwd.nb_workers);
	fcr_fwd.qsbr = rte_zmalloc("fcr_qsbr", qsize, RTE_CACHE_LINE_SIZE);
	if (fcr_fwd.qsbr == NULL || rte_rcu_qsbr_init(fcr_fwd.qsbr, fcr_fwd.nb_workers) != 0) {
		FCR_LOG(ERR, main, "cannot set up RCU");
		rc = 1;
		goto out;
	}
	tp = (struct fcr_tables_params){
		.max_flows = opt.max_flows,
		.max_routes = opt.max_routes,
		.max_bindings = opt.max_bindings,
		.max_redirects = opt.max_redirects,
		.nb_workers = fcr_fwd.nb_workers,
		.nb_ports = nb_ports,
		.qsbr = fcr_fwd.qsbr,
		.socket = (int)rte_socket_id(),
	};
	fcr_fwd.tables = fcr_tables_create("fcr", &tp);
	if (fcr_fwd.tables == NULL) {
		struct rte_malloc_socket_stats ms = { 0 };

		/* the options check counted the reserve: what fails here is
		 * memory (EAL's rte_errno then names whatever failed last) */
		rte_malloc_get_socket_stats(tp.socket, &ms);
		FCR_LOG(ERR, main, "cannot allocate tables for %u flows, %u redirects, "
			"%u bindings: not enough memory (EAL's heap had %.0f MB free of %.0f MB; "
			"the tables take about 290 bytes a flow): give EAL more with -m or "
			"hugepages, or lower --max-flows", opt.max_flows, opt.max_redirects,
			opt.max_bindings, (double)ms.heap_freesz_bytes / 1048576.0,
			(double)ms.heap_totalsz_bytes / 1048576.0);
		rc = 1;
		goto out;
	}
	fcr_tables_set_fc_map(fcr_fwd.tables, opt.fc_map);
	for (w = 0; w < opt.nb_vlan_fc_maps; w++)
		fcr_tables_fix_fc_map(fcr_fwd.tables, opt.vlan_fc_map[w].vlan,
				      opt.vlan_fc_map[w].fc_map);
	fcr_fwd.tables->fabric_mask = opt.fabric_mask;
	fcr_fwd.tables->peers_same_ports = (uint8_t)opt.sync.same_ports;
	opt.sync.config_elsewhere = opt.store.url != NULL;
	if (fcr_sync_io_init(&opt.sync, fcr_fwd.tables) < 0) {
		rc = 2;
		goto out;
	}
	/* the learned state of the last run, before a port starts or a frame
	 * is forwarded (and after the change log: a peer hears of it) */
	if (opt.state_file != NULL) {
		char node[FCR_STATE_NODE_MAX + 1];

		fcr_state_file_node(node, sizeof(node), nb_ports);
		fcr_state_file_load(opt.state_file, node, fcr_fwd.tables, nb_ports,
				    opt.fabric_mask, opt.max_bindings, opt.max_redirects);
		if (fcr_state_file_start(opt.state_file, node, fcr_fwd.tables) < 0) {
			rc = 1;
			goto out;
		}
	}
	/* without it the tables lcore polls every 100 us, as it used to */
	if (fcr_wake_init() < 0 || (fcr_sync_io_fd() >= 0 && fcr_wake_watch(fcr_sync_io_fd()) < 0))
		FCR_LOG(WARNING, main, "no eventfd or epoll: the tables lcore polls when idle");

	pc.burst = opt.burst;
	if (setup_workers(nb_ports, opt.burst) < 0 || setup_distributors() < 0 ||
	    fcr_ports_start(&pc) != 0) {
		FCR_LOG(ERR, main, "port or worker setup failed");
		rc = 1;
		goto out;
	}
	fcr_fwd.start_tsc = rte_get_tsc_cycles();
	for (p = 0; p < nb_ports; p++) {
		rte_eth_macaddr_get(p, &fcr_fwd.port_mac[p]);
		if (prof != NULL)
			fcr_profile_steer(p, prof, pc.rxq[p]);
	}
	if (fcr_telemetry_register() != 0)
		FCR_LOG(WARNING, main, "telemetry commands not registered");
	if (fcr_store_start(&opt.store) < 0) {
		rc = 2;
		goto out;
	}
	/* lets dpdk-dumpcap (a secondary process) capture our ports live */
	if (rte_pdump_init() != 0) {
		fcr_fwd.pdump_error = rte_strerror(rte_errno);
		FCR_LOG(WARNING, main, "live capture (pdump) not available: %s",
			fcr_fwd.pdump_error);
	}
	{
		/* the runtime folder is /var/run/dpdk/<file prefix> */
		const char *rd = rte_eal_get_runtime_dir(), *slash = strrchr(rd, '/');

		fcr_fwd.file_prefix = slash != NULL ? slash + 1 : rd;
	}
	printf("fcredirect: %u port(s), %u worker(s), %u distributor(s), tables lcore on lcore %u%s, "
	       "FC CRC %s, incremental update %s\n",
	       nb_ports, fcr_fwd.nb_workers, fcr_fwd.nb_distributors, tables_lcore,
	       tables_lcore == rte_get_main_lcore() ? " (main)" : "", fcr_crc_impl(),
	       fcr_crc_update_uses_clmul() ? "pclmulqdq" : "scalar");
	fcr_ports_print(stdout);
	fflush(stdout);

	for (w = 0; w < fcr_fwd.nb_workers; w++)
		rte_eal_remote_launch(fcr_worker_main, fcr_fwd.workers[w],
				      fcr_fwd.workers[w]->lcore);
	for (w = 0; w < fcr_fwd.nb_distributors; w++)
		rte_eal_remote_launch(fcr_distributor_main, fcr_fwd.distributors[w],
				      fcr_fwd.distributors[w]->lcore);

	cli_conf.interactive = opt.interactive;
	cli_conf.cmdline_file = opt.cmdline_file;
	cli_conf.cmdline_file_optional = opt.cmdline_file_optional;
	cli_conf.stats_period = opt.stats_period;
	if (tables_lcore != rte_get_main_lcore()) {
		rte_eal_remote_launch(fcr_tables_lcore_main, NULL, tables_lcore);
		cli_thread(&cli_conf);
		rte_eal_wait_lcore(tables_lcore);
	} else {
		pthread_t cli;

		if (rte_ctrl_thread_create(&cli, "fcr-cli", NULL, cli_thread,
					   &cli_conf) != 0) {
			FCR_LOG(ERR, main, "cannot start the command line thread");
			fcr_tables_lcore_exit();
		}
		fcr_tables_lcore_main(NULL);
		pthread_join(cli, NULL);
	}
	/* the last snapshot written (its counters in the statistics below) */
	fcr_state_file_stop();
	/* a command file that failed: nothing was forwarded, nothing to report */
	if (fcr_cli_exit_status != 0)
		rc = fcr_cli_exit_status;
	else
		fcr_show_fwd_stats(stdout);
	fflush(stdout);
	__atomic_store_n(&fcr_fwd.quit, 1, __ATOMIC_RELEASE);
	rte_eal_mp_wait_lcore();
	rte_pdump_uninit();
	fcr_ports_close(); /* closing a pcap port completes its capture file */
	fcr_ports_free_pools();
out:
	fcr_state_file_stop();
	fcr_sync_io_close();
	fcr_wake_close();
	fcr_tables_free(fcr_fwd.tables);
	rte_eal_cleanup();
	return rc;
}

int
main(int argc, char **argv)
{
	struct fcr_profile prof;
	char **given = argv;
	int have_prof, rc, i;

	if (fcr_version_asked(argc, argv, "fcredirect"))
		return 0;
	/* fcredirect's own help needs no EAL (no hugepages, no ports) */
	for (i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
		;
	for (i++; i < argc; i++)
		if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			fcr_options_usage(argv[0]);
			return 0;
		}
	memset(&prof, 0, sizeof(prof));
	have_prof = fcr_profile_prepare(&argc, &argv, &prof);
	if (have_prof < 0)
		return 2;
	rc = run(argc, argv, have_prof > 0 ? &prof : NULL);
	/* the argument vector a profile's EAL arguments went into, and those */
	if (argv != given)
		free(argv);
	fcr_profile_free(&prof);
	return rc;
}
