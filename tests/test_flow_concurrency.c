/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The flow table under the tables lcore and a worker at once, as fcredirect runs
 * them: the tables lcore adds, changes and deletes entries (deleted slots reused
 * for other keys once the worker has passed a quiescent point, RCU); the
 * worker looks keys up through its flow cache and the rte_hash and reads
 * the action. Every action names the key it was written for, so a lookup
 * that answers with another key's entry (a stale cache way, a slot reused
 * too early, an action read before it was written) is caught.
 * Runs EAL on two lcores without hugepages or devices.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_rcu_qsbr.h>

#include "fcr_flow.h"
#include "test_util.h"

#define KEYS 768          /* keys in play: many share cache buckets and slots */
#define CAPACITY 512      /* fewer slots than keys: slots are reused often */
/* The run goes on until both sides did this much, however the machine
 * shares its cores: a state, not a time */
#define OPS_MIN 5000
#define LOOKUPS_MIN 2000000ull
/* and until the worker found entries, from the table and from its cache:
 * however the lookups and the changes interleaved, it ran into both */
#define HITS_MIN 10000ull
#define CACHE_HITS_MIN 1000ull

struct shared {
	struct fcr_flow_table *ft;
	struct rte_rcu_qsbr *qsbr;
	volatile int stop;
	uint64_t lookups, hits, wrong, cache_hits;
	uint64_t first_wrong_key, first_wrong_action;
};

static uint64_t
key_of(uint32_t i)
{
	return fcr_flow_key(7, 0x010000 | i, 0x410000 | (i * 7 % KEYS));
}

/* The action names its key (S_ID and D_ID fields) and a generation, so a
 * change in place is told from the entry of another key. */
static uint64_t
action_for(uint64_t key, uint32_t gen)
{
	return fcr_action(fcr_flow_key_sid(key), fcr_flow_key_did(key),
			  (enum fcr_leg)(gen % FCR_LEG_COUNT));
}

static int
worker(void *arg)
{
	struct shared *sh = arg;
	struct fcr_flow_cache *c = rte_zmalloc(NULL, sizeof(*c), 64);
	struct tu_rng r;
	uint64_t keys[32];
	uint32_t idx[32], i;

	if (c == NULL)
		return -1;
	tu_rng_seed(&r, 5);
	rte_rcu_qsbr_thread_register(sh->qsbr, 0);
	rte_rcu_qsbr_thread_online(sh->qsbr, 0);
	while (!sh->stop) {
		/* bursts with repeats, so the cache has something to hit */
		for (i = 0; i < 32; i++)
			keys[i] = key_of(tu_rand32(&r) % (i & 1 ? 64 : KEYS));
		__atomic_store_n(&sh->hits, sh->hits + fcr_flow_lookup_cached(sh->ft, c, keys, 32, idx),
				 __ATOMIC_RELAXED);
		for (i = 0; i < 32; i++) {
			uint64_t a;

			if (idx[i] == FCR_FLOW_NONE)
				continue;
			a = fcr_flow_action_load(sh->ft, idx[i]);
			if (fcr_action_sid(a) != fcr_flow_key_sid(keys[i]) ||
			    fcr_action_did(a) != fcr_flow_key_did(keys[i])) {
				if (sh->wrong++ == 0) {
					sh->first_wrong_key = keys[i];
					sh->first_wrong_action = a;
				}
			}
		}
		__atomic_store_n(&sh->lookups, sh->lookups + 32, __ATOMIC_RELAXED);
		__atomic_store_n(&sh->cache_hits, c->hits, __ATOMIC_RELAXED);
		rte_rcu_qsbr_quiescent(sh->qsbr, 0);
	}
	rte_rcu_qsbr_thread_offline(sh->qsbr, 0);
	rte_rcu_qsbr_thread_unregister(sh->qsbr, 0);
	rte_free(c);
	return 0;
}

static void
lookups_never_answer_with_another_keys_entry(void **state)
{
	static struct shared sh;
	size_t qs = rte_rcu_qsbr_get_memsize(1);
	unsigned int lc = rte_get_next_lcore(-1, 1, 0);
	uint64_t sets = 0, dels = 0, changes = 0;
	uint32_t gen = 0;
	struct tu_rng r;

	(void)state;
	assert_true(lc < RTE_MAX_LCORE);
	memset(&sh, 0, sizeof(sh));
	sh.qsbr = rte_zmalloc(NULL, qs, 64);
	assert_non_null(sh.qsbr);
	assert_int_equal(rte_rcu_qsbr_init(sh.qsbr, 1), 0);
	sh.ft = fcr_flow_table_create("cc", CAPACITY, 1, sh.qsbr, 0);
	assert_non_null(sh.ft);
	tu_rng_seed(&r, 9);
	assert_int_equal(rte_eal_remote_launch(worker, &sh, lc), 0);

	while (sets < OPS_MIN || dels < OPS_MIN || changes < OPS_MIN ||
	       __atomic_load_n(&sh.lookups, __ATOMIC_RELAXED) < LOOKUPS_MIN ||
	       __atomic_load_n(&sh.hits, __ATOMIC_RELAXED) < HITS_MIN ||
	       __atomic_load_n(&sh.cache_hits, __ATOMIC_RELAXED) < CACHE_HITS_MIN) {
		uint64_t k = key_of(tu_rand32(&r) % KEYS);
		uint32_t op = tu_rand32(&r) % 8;

		if (op < 3) {
			if (fcr_flow_del(sh.ft, k) == 0)
				dels++;
		} else {
			int had = fcr_flow_find(sh.ft, k) >= 0;

			if (fcr_flow_set(sh.ft, k, action_for(k, ++gen), FCR_NO_OWNER) >= 0)
				*(had ? &changes : &sets) += 1;
		}
	}
	sh.stop = 1;
	assert_int_equal(rte_eal_wait_lcore(lc), 0);
	printf("tables lcore: %" PRIu64 " adds, %" PRIu64 " changes in place, %" PRIu64
	       " deletes; worker: %" PRIu64 " lookups, %" PRIu64 " found (%" PRIu64
	       " from its flow cache), %" PRIu64 " wrong\n", sets, changes, dels,
	       sh.lookups, sh.hits, sh.cache_hits, sh.wrong);
	if (sh.wrong != 0)
		printf("first wrong: key %016" PRIx64 " got action %016" PRIx64 "\n",
		       sh.first_wrong_key, sh.first_wrong_action);
	assert_int_equal(sh.wrong, 0);
	/* the run exercised what it claims to */
	assert_true(sets > 1000 && dels > 1000 && changes > 1000);
	assert_true(sh.hits > 10000 && sh.cache_hits > 1000);
	assert_true(sh.cache_hits < sh.hits);
	fcr_flow_table_free(sh.ft);
	rte_free(sh.qsbr);
}

static int
eal_up(void **state)
{
	(void)state;
	return tu_eal_init("test_flow_concurrency", "256", "0,1");
}

static int
eal_down(void **state)
{
	(void)state;
	rte_eal_cleanup();
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(lookups_never_answer_with_another_keys_entry),
	};

	return cmocka_run_group_tests(tests, eal_up, eal_down);
}
