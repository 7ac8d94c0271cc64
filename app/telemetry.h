/* SPDX-License-Identifier: BSD-3-Clause */
/* Stats through DPDK telemetry: /fcr/stats, /fcr/flows, /fcr/redirects,
 * /fcr/lcores, /fcr/sync (dpdk-telemetry.py shows them). */
#ifndef FCR_APP_TELEMETRY_H
#define FCR_APP_TELEMETRY_H

int fcr_telemetry_register(void);

#endif /* FCR_APP_TELEMETRY_H */
