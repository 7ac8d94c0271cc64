/* SPDX-License-Identifier: BSD-3-Clause */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_byteorder.h>
#include <rte_flow.h>

#include "fcr_fcoe.h"
#include "log.h"
#include "profile_apply.h"

/* NAME or FILE: a name is looked up in $FCR_PMD_CONFIG_DIR, next to the
 * program in the source tree (build/app/../../pmd-config), in the source
 * tree it was built from, then where it is installed. The folders tried go
 * to tried (for the error). */
static int
resolve(const char *arg, char *path, size_t cap, char *tried, size_t tcap)
{
	char exe[PATH_MAX], dir[PATH_MAX + 32], *slash;
	const char *dirs[6];
	size_t tl = 0;
	ssize_t n;
	int i, nd = 0;

	tried[0] = '\0';
	if (strchr(arg, '/') != NULL || strstr(arg, ".conf") != NULL) {
		snprintf(path, cap, "%s", arg);
		return access(path, R_OK);
	}
	dirs[nd++] = getenv("FCR_PMD_CONFIG_DIR");
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash)
			*slash = '\0';
		snprintf(dir, sizeof(dir), "%s/../../pmd-config", exe);
		dirs[nd++] = dir;
	}
	dirs[nd++] = FCR_SOURCE_PROFILE_DIR;
	dirs[nd++] = FCR_PROFILE_DIR;
	dirs[nd++] = "/usr/local/share/fcredirect/pmd-config";
	dirs[nd++] = "/usr/share/fcredirect/pmd-config";
	for (i = 0; i < nd; i++) {
		int w, j, seen = 0;

		/* the install prefix may be one of the usual folders: each once */
		for (j = 0; j < i && dirs[i] != NULL; j++)
			seen |= dirs[j] != NULL && strcmp(dirs[j], dirs[i]) == 0;
		if (dirs[i] == NULL || seen)
			continue;
		w = snprintf(path, cap, "%s/%s.conf", dirs[i], arg);
		if (w > 0 && (size_t)w < cap && access(path, R_OK) == 0)
			return 0;
		if (tl < tcap)
			tl += (size_t)snprintf(tried + tl, tcap - tl, "%s%s", tl ? ", " : "", dirs[i]);
	}
	return -1;
}

int
fcr_profile_prepare(int *argc, char ***argv, struct fcr_profile *p)
{
	char path[PATH_MAX], err[512], tried[2048];
	const char *arg = NULL;
	char **nv;
	int i, dd = -1, n = 0;

	for (i = 1; i < *argc; i++) {
		if (dd < 0 && strcmp((*argv)[i], "--") == 0) {
			dd = i;
			continue;
		}
		if (dd < 0)
			continue;
		if (strncmp((*argv)[i], "--pmd-config=", 13) == 0)
			arg = (*argv)[i] + 13;
		else if (strcmp((*argv)[i], "--pmd-config") == 0 && i + 1 < *argc)
			arg = (*argv)[i + 1];
	}
	if (arg == NULL)
		return 0;
	if (resolve(arg, path, sizeof(path), tried, sizeof(tried)) < 0) {
		if (tried[0] == '\0')
			fprintf(stderr, "error: --pmd-config: cannot read the profile file %s\n", arg);
		else
			fprintf(stderr, "error: --pmd-config: no profile '%s': no %s.conf in %s "
				"(the repository's pmd-config/ has pcap, memif, null, tap, i40e, "
				"ice, mlx5; set FCR_PMD_CONFIG_DIR to the folder that holds "
				"NAME.conf, or give a file: --pmd-config ./my.conf)\n", arg, arg,
				tried);
		return -1;
	}
	if (fcr_profile_load(path, p, err, sizeof(err)) < 0) {
		fprintf(stderr, "error: --pmd-config: %s\n", err);
		return -1;
	}
	nv = calloc((size_t)(*argc + p->nb_eal + 1), sizeof(*nv));
	if (nv == NULL)
		return -1;
	nv[n++] = (*argv)[0];
	for (i = 0; i < p->nb_eal; i++)
		nv[n++] = p->eal[i];
	for (i = 1; i < *argc; i++)
		nv[n++] = (*argv)[i];
	*argc = n;
	*argv = nv;
	return 1;
}

/* One rule: frames of `type` (untagged, or inside one 802.1Q tag) go to
 * `queues` (RSS among them, or the one queue). */
static int
steer(uint16_t port, uint16_t type, int tagged, const uint16_t *queues,
      uint16_t nq, struct rte_flow_error *e)
{
	struct rte_flow_attr attr = { .ingress = 1 };
	struct rte_flow_item_eth eth = { 0 }, eth_mask = { 0 };
	struct rte_flow_item_vlan vlan = { 0 }, vlan_mask = { 0 };
	struct rte_flow_item pattern[3];
	struct rte_flow_action_queue q = { .index = queues[0] };
	struct rte_flow_action_rss rss = {
		.func = RTE_ETH_HASH_FUNCTION_DEFAULT, .queue_num = nq, .queue = queues,
	};
	struct rte_flow_action actions[2];

	memset(pattern, 0, sizeof(pattern));
	memset(actions, 0, sizeof(actions));
	pattern[0].type = RTE_FLOW_ITEM_TYPE_ETH;
	pattern[0].spec = &eth;
	pattern[0].mask = &eth_mask;
	if (tagged) {
		eth.type = RTE_BE16(FCR_ETHERTYPE_VLAN);
		eth_mask.type = RTE_BE16(0xFFFF);
		vlan.inner_type = rte_cpu_to_be_16(type);
		vlan_mask.inner_type = RTE_BE16(0xFFFF);
		pattern[1].type = RTE_FLOW_ITEM_TYPE_VLAN;
		pattern[1].spec = &vlan;
		pattern[1].mask = &vlan_mask;
		pattern[2].type = RTE_FLOW_ITEM_TYPE_END;
	} else {
		eth.type = rte_cpu_to_be_16(type);
		eth_mask.type = RTE_BE16(0xFFFF);
		pattern[1].type = RTE_FLOW_ITEM_TYPE_END;
	}
	if (nq > 1) {
		actions[0].type = RTE_FLOW_ACTION_TYPE_RSS;
		actions[0].conf = &rss;
	} else {
		actions[0].type = RTE_FLOW_ACTION_TYPE_QUEUE;
		actions[0].conf = &q;
	}
	actions[1].type = RTE_FLOW_ACTION_TYPE_END;
	if (rte_flow_validate(port, &attr, pattern, actions, e) != 0)
		return -1;
	return rte_flow_create(port, &attr, pattern, actions, e) != NULL ? 0 : -1;
}

void
fcr_profile_steer(uint16_t port, const struct fcr_profile *p, uint16_t nb_rxq)
{
	uint16_t all[FCR_PROFILE_MAX_QUEUES], nq = p->nb_fcoe_queues, i;
	const uint16_t *q = p->fcoe_queues;
	struct rte_flow_error e;
	int tagged;

	if (!p->steering)
		return;
	if (nq == 0) {
		for (i = 0; i < nb_rxq && i < FCR_PROFILE_MAX_QUEUES; i++)
			all[i] = i;
		q = all;
		nq = i;
	}
	for (tagged = 0; tagged <= 1; tagged++) {
		memset(&e, 0, sizeof(e));
		if (steer(port, FCR_ETHERTYPE_FCOE, tagged, q, nq, &e) != 0) {
			if (nq > 1 && steer(port, FCR_ETHERTYPE_FCOE, tagged, q, 1, &e) == 0)
				FCR_LOG(NOTICE, port, "port %u: FCoE%s steered to queue %u only (RSS refused)",
				       port, tagged ? " (tagged)" : "", q[0]);
			else
				FCR_LOG(WARNING, port, "port %u: FCoE%s steering refused: %s", port,
				       tagged ? " (tagged)" : "",
				       e.message ? e.message : "unsupported");
		}
		if (steer(port, FCR_ETHERTYPE_FIP, tagged, &p->fip_queue, 1, &e) != 0)
			FCR_LOG(WARNING, port, "port %u: FIP%s steering refused: %s", port,
			       tagged ? " (tagged)" : "", e.message ? e.message : "unsupported");
	}
}
