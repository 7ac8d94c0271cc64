/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The synthetic fabric fcoe-gen writes traffic for: hosts, targets and a
 * service node's virtual initiators (one VI per redirected host) and virtual
 * targets (one VT per redirected target). Every address is a closed-form
 * function of (role, index), so the fabric costs no memory per port or per
 * flow and a million flows cost nothing to describe.
 *
 * FCIDs: hosts from domain 0x01, targets from 0x41, service node from 0x81,
 * 65,536 ports per domain, never reaching the reserved domains F0-FF (and so
 * never a well-known FFFFxx address).
 */
#ifndef FCR_GEN_FABRIC_H
#define FCR_GEN_FABRIC_H

#include <stddef.h>
#include <stdint.h>

enum fcr_gen_role {
	FCR_GEN_HOST,
	FCR_GEN_TARGET,
	FCR_GEN_VI,
	FCR_GEN_VT,
	FCR_GEN_ROLES
};

#define FCR_GEN_DOMAIN_HOST 0x01u
#define FCR_GEN_DOMAIN_TARGET 0x41u
#define FCR_GEN_DOMAIN_SN 0x81u
#define FCR_GEN_DOMAIN_END 0xF0u /* first reserved domain */
#define FCR_GEN_PORTS_PER_DOMAIN 0x10000u
#define FCR_GEN_MAX_HOSTS \
	((FCR_GEN_DOMAIN_TARGET - FCR_GEN_DOMAIN_HOST) * FCR_GEN_PORTS_PER_DOMAIN)
#define FCR_GEN_MAX_TARGETS \
	((FCR_GEN_DOMAIN_SN - FCR_GEN_DOMAIN_TARGET) * FCR_GEN_PORTS_PER_DOMAIN)
#define FCR_GEN_MAX_SN_PORTS \
	((FCR_GEN_DOMAIN_END - FCR_GEN_DOMAIN_SN) * FCR_GEN_PORTS_PER_DOMAIN)

/* The FCF / appliance every ingress frame is addressed to. */
extern const uint8_t fcr_gen_fcf_mac[6];
/* The fabric's own names, carried in the LS_ACC of a FLOGI. */
#define FCR_GEN_FABRIC_WWPN 0x2001000dec000001ull
#define FCR_GEN_FABRIC_WWNN 0x2064000dec000001ull

struct fcr_gen_fabric {
	uint32_t n[FCR_GEN_ROLES]; /* ports of each role */
	uint64_t flows;            /* host/target pairs carrying traffic */
	uint64_t redirects;        /* the first `redirects` flows are redirected */
	uint32_t relogins;         /* hosts 0..relogins-1 log in again and get
				    * a new FCID (fcr_gen_relogin_fcid) */
};

/*
 * Size the fabric. Flow k pairs host k % hosts with target
 * (k / hosts) % targets, so distinct k < hosts * targets are distinct pairs.
 * Returns 0, or -1 with a message naming the option at fault in err.
 */
int fcr_gen_fabric_init(struct fcr_gen_fabric *fab, uint32_t hosts,
			uint32_t targets, uint64_t flows, uint64_t redirects,
			char *err, size_t errlen);

static inline uint32_t
fcr_gen_flow_host(const struct fcr_gen_fabric *fab, uint64_t k)
{
	return (uint32_t)(k % fab->n[FCR_GEN_HOST]);
}

static inline uint32_t
fcr_gen_flow_target(const struct fcr_gen_fabric *fab, uint64_t k)
{
	return (uint32_t)((k / fab->n[FCR_GEN_HOST]) % fab->n[FCR_GEN_TARGET]);
}

static inline int
fcr_gen_flow_redirected(const struct fcr_gen_fabric *fab, uint64_t k)
{
	return k < fab->redirects;
}

/* Index of a port among all ports (hosts, then targets, VIs, VTs). */
uint64_t fcr_gen_port_index(const struct fcr_gen_fabric *fab,
			    enum fcr_gen_role role, uint32_t idx);
uint64_t fcr_gen_port_count(const struct fcr_gen_fabric *fab);

uint32_t fcr_gen_fcid(const struct fcr_gen_fabric *fab, enum fcr_gen_role role,
		      uint32_t idx);
/* The FCID host idx (< relogins) gets at its second login: the host FCIDs
 * right after the last host's, so the hosts' routes cover them. */
uint32_t fcr_gen_relogin_fcid(const struct fcr_gen_fabric *fab, uint32_t idx);
/*
 * Hosts 0..min(n, hosts)-1 are the hosts of the first n redirected flows
 * (flow k uses host k % hosts). Sets fab->relogins; -1 with a message in err
 * when the new FCIDs would run into the targets' domains.
 */
int fcr_gen_set_relogins(struct fcr_gen_fabric *fab, uint64_t n, char *err,
			 size_t errlen);
uint64_t fcr_gen_wwpn(enum fcr_gen_role role, uint32_t idx);
uint64_t fcr_gen_wwnn(enum fcr_gen_role role, uint32_t idx);
/* The ENode MAC a port logs in from (before it has an FPMA MAC). */
void fcr_gen_enode_mac(enum fcr_gen_role role, uint32_t idx, uint8_t mac[6]);

/* Domains a role's FCIDs occupy: [*first, *last]. 0 when the role is empty.
 * The hosts' include the FCIDs of second logins. */
int fcr_gen_domains(const struct fcr_gen_fabric *fab, enum fcr_gen_role role,
		    uint32_t *first, uint32_t *last);

const char *fcr_gen_role_name(enum fcr_gen_role role);

#endif /* FCR_GEN_FABRIC_H */
