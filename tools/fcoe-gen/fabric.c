/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdio.h>

#include "fcr_fcoe.h"
#include "fabric.h"

const uint8_t fcr_gen_fcf_mac[6] = { 0x0e, 0xfc, 0x00, 0xff, 0xff, 0xfe };

/*
 * WWPN prefixes, chosen so a port's role is plain to see in any capture:
 * hosts 21:00:00:24:ff:xx:xx:xx (NAA 2, a common HBA OUI), targets
 * 50:06:01:60:xx:xx:xx:xx (NAA 5, an array vendor), service node VIs
 * 2f:01:00:0d:ec:xx:xx:xx and VTs 2f:02:00:0d:ec:xx:xx:xx (NAA 2, vendor
 * bits f01 / f02, a switch vendor's OUI).
 */
static const uint64_t wwpn_base[FCR_GEN_ROLES] = {
	[FCR_GEN_HOST] = 0x21000024ff000000ull,
	[FCR_GEN_TARGET] = 0x5006016000000000ull,
	[FCR_GEN_VI] = 0x2f01000dec000000ull,
	[FCR_GEN_VT] = 0x2f02000dec000000ull,
};

int
fcr_gen_fabric_init(struct fcr_gen_fabric *fab, uint32_t hosts,
		    uint32_t targets, uint64_t flows, uint64_t redirects,
		    char *err, size_t errlen)
{
	uint64_t pairs = (uint64_t)hosts * targets;
	uint64_t vts;

	if (hosts == 0 || hosts > FCR_GEN_MAX_HOSTS) {
		snprintf(err, errlen, "--hosts must be between 1 and %u",
			 FCR_GEN_MAX_HOSTS);
		return -1;
	}
	if (targets == 0 || targets > FCR_GEN_MAX_TARGETS) {
		snprintf(err, errlen, "--targets must be between 1 and %u",
			 FCR_GEN_MAX_TARGETS);
		return -1;
	}
	if (flows > pairs) {
		snprintf(err, errlen,
			 "--flows %llu exceeds --hosts x --targets = %llu host/target pairs",
			 (unsigned long long)flows, (unsigned long long)pairs);
		return -1;
	}
	if (redirects > flows) {
		snprintf(err, errlen, "--redirects %llu exceeds --flows %llu",
			 (unsigned long long)redirects,
			 (unsigned long long)flows);
		return -1;
	}
	fab->n[FCR_GEN_HOST] = hosts;
	fab->n[FCR_GEN_TARGET] = targets;
	/* The redirected flows are 0..redirects-1: they use hosts
	 * 0..min(redirects, hosts)-1 and targets 0..ceil(redirects/hosts)-1. */
	fab->n[FCR_GEN_VI] = redirects < hosts ? (uint32_t)redirects : hosts;
	vts = (redirects + hosts - 1) / hosts;
	fab->n[FCR_GEN_VT] = vts < targets ? (uint32_t)vts : targets;
	fab->flows = flows;
	fab->redirects = redirects;
	fab->relogins = 0;
	if ((uint64_t)fab->n[FCR_GEN_VI] + fab->n[FCR_GEN_VT] > FCR_GEN_MAX_SN_PORTS) {
		snprintf(err, errlen,
			 "--redirects %llu needs more than %u service node ports",
			 (unsigned long long)redirects, FCR_GEN_MAX_SN_PORTS);
		return -1;
	}
	return 0;
}

uint64_t
fcr_gen_port_index(const struct fcr_gen_fabric *fab, enum fcr_gen_role role,
		   uint32_t idx)
{
	uint64_t base = 0;
	int r;

	for (r = 0; r < (int)role; r++)
		base += fab->n[r];
	return base + idx;
}

uint64_t
fcr_gen_port_count(const struct fcr_gen_fabric *fab)
{
	return fcr_gen_port_index(fab, FCR_GEN_ROLES, 0);
}

uint32_t
fcr_gen_fcid(const struct fcr_gen_fabric *fab, enum fcr_gen_role role,
	     uint32_t idx)
{
	switch (role) {
	case FCR_GEN_HOST:
		return (FCR_GEN_DOMAIN_HOST << 16) + idx;
	case FCR_GEN_TARGET:
		return (FCR_GEN_DOMAIN_TARGET << 16) + idx;
	case FCR_GEN_VI:
		return (FCR_GEN_DOMAIN_SN << 16) + idx;
	case FCR_GEN_VT:
	default:
		return (FCR_GEN_DOMAIN_SN << 16) + fab->n[FCR_GEN_VI] + idx;
	}
}

uint32_t
fcr_gen_relogin_fcid(const struct fcr_gen_fabric *fab, uint32_t idx)
{
	return (FCR_GEN_DOMAIN_HOST << 16) + fab->n[FCR_GEN_HOST] + idx;
}

int
fcr_gen_set_relogins(struct fcr_gen_fabric *fab, uint64_t n, char *err,
		     size_t errlen)
{
	uint32_t hosts = fab->n[FCR_GEN_HOST];
	uint32_t r = n < hosts ? (uint32_t)n : hosts;

	if ((uint64_t)hosts + r > FCR_GEN_MAX_HOSTS) {
		snprintf(err, errlen,
			 "--relogin %llu: %u hosts leave no room for %u new host FCIDs (at most %u in all)",
			 (unsigned long long)n, hosts, r, FCR_GEN_MAX_HOSTS);
		return -1;
	}
	fab->relogins = r;
	return 0;
}

uint64_t
fcr_gen_wwpn(enum fcr_gen_role role, uint32_t idx)
{
	return wwpn_base[role] | idx;
}

uint64_t
fcr_gen_wwnn(enum fcr_gen_role role, uint32_t idx)
{
	switch (role) {
	case FCR_GEN_HOST:
		/* 20:00:... node name of the HBA whose port is 21:00:... */
		return (wwpn_base[role] ^ 0x0100000000000000ull) | idx;
	case FCR_GEN_TARGET:
		/* one array per target port, node name 50:06:01:68:... */
		return 0x5006016800000000ull | idx;
	default:
		/* all VIs and VTs live on one service node */
		return 0x2000000dec000001ull;
	}
}

void
fcr_gen_enode_mac(enum fcr_gen_role role, uint32_t idx, uint8_t mac[6])
{
	/* locally administered unicast 02:fc:<role>:<index> */
	mac[0] = 0x02;
	mac[1] = 0xfc;
	mac[2] = (uint8_t)(role + 1);
	fcr_put_be24(mac + 3, idx);
}

int
fcr_gen_domains(const struct fcr_gen_fabric *fab, enum fcr_gen_role role,
		uint32_t *first, uint32_t *last)
{
	if (fab->n[role] == 0)
		return 0;
	*first = fcr_gen_fcid(fab, role, 0) >> 16;
	*last = fcr_gen_fcid(fab, role, fab->n[role] - 1) >> 16;
	if (role == FCR_GEN_HOST && fab->relogins > 0)
		*last = fcr_gen_relogin_fcid(fab, fab->relogins - 1) >> 16;
	return 1;
}

const char *
fcr_gen_role_name(enum fcr_gen_role role)
{
	static const char *const names[FCR_GEN_ROLES] = {
		"host", "target", "vi", "vt",
	};

	return (unsigned)role < FCR_GEN_ROLES ? names[role] : "?";
}
