/* SPDX-License-Identifier: BSD-3-Clause */
/* --pmd-config: find the profile, put its EAL arguments before EAL starts,
 * and steer FCoE to queues with rte_flow where the profile asks. */
#ifndef FCR_APP_PROFILE_APPLY_H
#define FCR_APP_PROFILE_APPLY_H

#include <stdint.h>

#include "fcr_profile.h"

/*
 * Look for --pmd-config after "--" in argv; when present, load the profile
 * and return a new argv with its EAL arguments first. 0 (no profile: argv
 * unchanged), 1 (profile loaded), -1 (message printed).
 */
int fcr_profile_prepare(int *argc, char ***argv, struct fcr_profile *p);

/* Install the profile's FCoE/FIP steering rules on a started port; a port
 * that cannot is reported and left on its default (queue 0 / RSS). */
void fcr_profile_steer(uint16_t port, const struct fcr_profile *p,
		       uint16_t nb_rxq);

#endif /* FCR_APP_PROFILE_APPLY_H */
