/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the tables lcore and the workers share: the tables, the port facts
 * workers need per frame, and each worker's queues, buffers and counters.
 */
#ifndef FCR_APP_FWD_H
#define FCR_APP_FWD_H

#include <stdint.h>

#include <rte_common.h>
#include <rte_ether.h>

#include "fcr_flow.h"
#include "fcr_pipeline.h"
#include "fcr_reason.h"

struct rte_eth_dev_tx_buffer;
struct rte_rcu_qsbr;
struct rte_ring;
struct fcr_tables;
struct fcr_options;
struct fcr_profile;

#define FCR_MAX_PORTS 32
#define FCR_MAX_RXQ_PER_WORKER 32
#define FCR_PORT_NONE UINT16_MAX
/* Fabric login frames a worker holds while the tables lcore applies them: a
 * fabric-wide relogin brings a few per ENode, and the tables lcore takes each in
 * about a microsecond. */
#define FCR_HELD_MAX 1024
/* Hold times histogram: 10 us buckets up to 10 ms, the last one beyond. */
#define FCR_HOLD_BUCKETS 1001
#define FCR_HOLD_BUCKET_US 10

/* A worker's source of frames: an RX queue, or a distributor's ring of
 * that queue's frames dealt to this worker (app/distributor.c). */
struct fcr_rxq {
	uint16_t port;
	uint16_t queue;
	struct rte_ring *ring;  /* NULL: the port's RX queue itself */
};

/* Distributor lcores (--distributor) and the ring from each of their
 * queues to each worker. */
#define FCR_MAX_DISTRIBUTORS 16
#define FCR_DIST_RING_SIZE 1024

/* Written by one worker only; read by the tables lcore for display. */
struct fcr_worker_stats {
	uint64_t rx[FCR_MAX_PORTS];
	uint64_t tx[FCR_MAX_PORTS];      /* handed to the port's TX buffer */
	uint64_t tx_fail[FCR_MAX_PORTS]; /* of those, refused by the port */
	struct fcr_pipeline_stats pl;    /* drops by reason, legs, ... */
	uint64_t events_lost;            /* events dropped: ring full */
	uint64_t made;                   /* frames sent that no port received: a fabric
					  * port's FIP copied to one more edge port,
					  * a cutover's Clear Virtual Links */
	uint64_t frames;                 /* frames processed */
	uint64_t busy_cycles;            /* cycles in polls that found frames */
	uint64_t polls;
	uint64_t busy_polls;
	uint64_t hold_us[FCR_HOLD_BUCKETS]; /* fabric login frames by time held */
	uint64_t hold_max_tsc;
} __rte_cache_aligned;

/* A fabric login frame waiting for the tables lcore. */
struct fcr_held {
	struct rte_mbuf *m;
	uint64_t tsc;     /* received */
	uint64_t reply;   /* a fabric login reply: where its request came from
			   * (fcr_pipeline_reply_key); 0: none */
	uint32_t seq;     /* its event's number */
	uint16_t port;    /* where it goes (as routed) */
	uint16_t in_port;
	uint8_t deferred; /* FCR_OUT_REPLY: its egress and its leg's count wait */
};

struct fcr_worker {
	unsigned int id;          /* 0..nb_workers-1: counters and RCU id */
	unsigned int lcore;
	uint16_t nb_rxq;
	struct fcr_rxq rxq[FCR_MAX_RXQ_PER_WORKER];
	uint16_t txq;             /* this worker's TX queue on every port */
	struct rte_ring *events;  /* to the tables lcore */
	struct rte_ring *inject;  /* worker 0: frames the tables lcore sends (app/cutover.c) */
	struct rte_eth_dev_tx_buffer *txb[FCR_MAX_PORTS];
	volatile int paused;      /* acknowledges a stop */
	int shares_core;          /* another lcore runs on its CPU: yield it when idle */
	uint32_t login_seq;       /* login events numbered so far */
	uint32_t login_sent;      /* the last of them in the ring (not lost) */
	uint32_t login_applied;   /* the tables lcore has applied logins up to this (atomic) */
	uint32_t held_head, held_tail;
	struct fcr_held held[FCR_HELD_MAX];
	struct fcr_pipeline pipeline;
	struct fcr_event forget_ev[256];
	struct fcr_worker_stats st;
} __rte_cache_aligned;

/* Written by one distributor only; read by the tables lcore. Every field
 * is a uint64_t counter (`clear fwd stats`). */
struct fcr_distributor_stats {
	uint64_t frames;                    /* received */
	uint64_t ring_full[FCR_MAX_PORTS];  /* dropped, by port: a worker's ring full */
	uint64_t busy_cycles;               /* cycles in polls that found frames */
	uint64_t polls;
	uint64_t busy_polls;
} __rte_cache_aligned;

/* An lcore that receives RX queues and deals their frames over the
 * workers by flow (lib/frame/fcr_spread.h). */
struct fcr_distributor {
	unsigned int id;
	unsigned int lcore;
	uint16_t nb_rxq;
	struct fcr_rxq rxq[FCR_MAX_RXQ_PER_WORKER];
	/* ring[q][w]: queue rxq[q]'s frames for worker w */
	struct rte_ring *ring[FCR_MAX_RXQ_PER_WORKER][FCR_MAX_WORKERS];
	volatile int paused;      /* acknowledges a stop */
	int shares_core;          /* another lcore runs on its CPU: yield it */
	struct fcr_distributor_stats st;
} __rte_cache_aligned;

struct fcr_fwd {
	struct fcr_tables *tables;
	struct rte_rcu_qsbr *qsbr;
	uint16_t nb_ports;
	struct rte_ether_addr port_mac[FCR_MAX_PORTS];
	uint16_t passthrough[FCR_MAX_PORTS];
	uint32_t flood[FCR_MAX_PORTS]; /* fabric port -> edge ports peered with it */
	uint32_t fabric_mask;     /* --fabric-ports */
	uint32_t series_mask;     /* --series-ports */
	uint32_t guard_every;     /* --cleartext-sample, 0: --cleartext-guard off */
	uint8_t guard_drop;       /* --cleartext-guard=drop */
	uint16_t burst;
	uint64_t drain_tsc;       /* TX buffers are flushed at least this often */
	unsigned int nb_workers;
	struct fcr_worker *workers[FCR_MAX_WORKERS];
	unsigned int nb_distributors;
	struct fcr_distributor *distributors[FCR_MAX_DISTRIBUTORS];
	unsigned int tables_lcore;
	const struct fcr_options *opt;      /* for `show config` */
	const struct fcr_profile *profile;  /* NULL without --pmd-config */
	uint64_t start_tsc;       /* the ports started: rates since start count from it */
	const char *pdump_error;  /* why live capture could not be set up, or NULL */
	const char *file_prefix;  /* EAL's, for dpdk-dumpcap */
	volatile int forwarding;  /* workers poll only while set */
	volatile int quit;
	/* a redirect of the configuration store these tables refused: the
	 * workers drop every frame (store_refused), never steer it plain */
	volatile int store_refused;
};

/* Does another enabled lcore run on one of lc's CPUs (--lcores '1@1,2@1')? */
int fcr_lcore_shares_core(unsigned int lc);
/* lcore entry points; arg is the struct fcr_worker, fcr_distributor. */
int fcr_worker_main(void *arg);
int fcr_distributor_main(void *arg);
/* The shared state workers read. */
extern struct fcr_fwd fcr_fwd;

#endif /* FCR_APP_FWD_H */
