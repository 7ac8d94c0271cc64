/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The ports a run uses: --tx-port and, when distinct, --rx-port; one
 * queue each way, promiscuous (a forwarder sends to FPMA MACs, not ours).
 */
#ifndef FCR_PG_PORTS_H
#define FCR_PG_PORTS_H

#include <stdint.h>

/* Set the ports up (queues, descriptors, the MTU FCoE needs) for frames of
 * up to max_len bytes. 0, or -1 with a message on stderr. */
int pg_ports_config(uint32_t max_len);
/* Start the ports and wait for their links (--link-wait). 0, or -1 with a
 * message on stderr naming the port. */
int pg_ports_up(void);
void pg_ports_close(void);
/* The port's driver name, "?" when unknown; good until the call after
 * next, so that two fit in one printf. */
const char *pg_port_driver(uint16_t port);

#endif /* FCR_PG_PORTS_H */
