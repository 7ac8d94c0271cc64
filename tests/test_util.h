/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Helpers shared by the cmocka unit tests of libfcr: a deterministic PRNG, an
 * independent bit-by-bit CRC-32, standard frames, hand-made mbuf chains (no
 * EAL, no mempool: only the fields rte_pktmbuf_read looks at) and a buffer
 * that ends exactly at a PROT_NONE guard page.
 *
 * Everything is static inline so each test program uses what it needs.
 */
#ifndef FCR_TEST_UTIL_H
#define FCR_TEST_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include <rte_eal.h>
#include <rte_mbuf.h>

#include "fcr_build.h"
#include "fcr_crc.h"
#include "fcr_fcoe.h"
#include "fcr_frame.h"
#include "fcr_reason.h"
#include "fcr_tables.h"

/* Small tables for a test (1,024 flows, 256 bindings, 64 routes and
 * redirects), no RCU (no worker reads them concurrently), the fabric
 * ports in fabric_mask; each with a name of its own. */
static inline struct fcr_tables *
tu_tables(uint32_t nb_workers, uint32_t fabric_mask)
{
	struct fcr_tables_params p = {
		.max_flows = 1024, .max_routes = 64, .max_bindings = 256,
		.max_redirects = 64, .nb_workers = nb_workers, .qsbr = NULL, .socket = 0,
	};
	static int seq;
	char name[32];
	struct fcr_tables *t;

	snprintf(name, sizeof(name), "tu%d", seq++);
	t = fcr_tables_create(name, &p);
	assert_non_null(t);
	t->fabric_mask = fabric_mask;
	return t;
}

/* A login over FIP of wwpn (node name wwnn) through an ENode (its MAC
 * enode) on edge_port, the FCF of MAC fcf granting fcid from fabric_port:
 * the request and the accept, as the workers report them. The OX_ID is
 * fcid's low 16 bits. */
static inline void
tu_fip_login(struct fcr_tables *t, uint16_t vlan, uint64_t wwpn, uint64_t wwnn, uint32_t fcid,
	     uint16_t edge_port, uint16_t fabric_port, const uint8_t enode[6],
	     const uint8_t fcf[6])
{
	struct fcr_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.type = FCR_EV_LOGIN;
	ev.kind = FCR_LOGIN_FLOGI;
	ev.via_fip = 1;
	ev.vlan = vlan;
	ev.ox_id = (uint16_t)fcid;
	ev.has_wwpn = 1;
	ev.wwpn = wwpn;
	memcpy(ev.enode, enode, 6);
	ev.fcf = fcr_vn_pack(fcf, 0);
	ev.port = (uint8_t)edge_port;
	ev.node = wwnn;       /* a request's */
	fcr_tables_event(t, &ev);
	ev.kind = FCR_LOGIN_ACC;
	ev.answers = FCR_LOGIN_FLOGI;
	ev.port_id = 0;
	ev.s_id = FCR_FCID_FLOGI;
	ev.d_id = fcid;
	ev.port = (uint8_t)fabric_port;
	fcr_tables_event(t, &ev);
}

/* ---------------------------------------------------------------- PRNG */

/* xorshift64*: deterministic, so a failure reproduces. */
static char tu_runtime_dir[256];

/* EAL's runtime directory holds files only (config, sockets, fbarrays) */
static inline void
tu_runtime_dir_remove(void)
{
	char path[512];
	struct dirent *e;
	DIR *d;

	if (tu_runtime_dir[0] == '\0' || (d = opendir(tu_runtime_dir)) == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", tu_runtime_dir, e->d_name);
		unlink(path);
	}
	closedir(d);
	rmdir(tu_runtime_dir);
}

/* EAL for a unit test program: no hugepages, no devices, its own file
 * prefix (the program's name and process id, so two builds' tests can run
 * at once), memory in MB as a string, the lcores. */
static inline int
tu_eal_init(const char *prog, const char *mem_mb, const char *lcores)
{
	static char prefix[64];
	char *argv[] = { (char *)prog, "--no-huge", "-m", (char *)mem_mb, "--no-pci",
			 "--file-prefix", prefix, "-l", (char *)lcores,
			 "--log-level", "lib.eal:error", "--log-level", "fcr.*:error",
			 NULL };

	snprintf(prefix, sizeof(prefix), "%s-%d", prog, (int)getpid());
	if (rte_eal_init((int)RTE_DIM(argv) - 1, argv) < 0)
		return -1;
	/* the runtime directory is this process's alone: gone with it */
	snprintf(tu_runtime_dir, sizeof(tu_runtime_dir), "%s", rte_eal_get_runtime_dir());
	atexit(tu_runtime_dir_remove);
	return 0;
}

struct tu_rng {
	uint64_t s;
};

static inline void
tu_rng_seed(struct tu_rng *r, uint64_t seed)
{
	r->s = seed ? seed : 0x9E3779B97F4A7C15ull;
}

static inline uint64_t
tu_rand64(struct tu_rng *r)
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return r->s * 0x2545F4914F6CDD1Dull;
}

static inline uint32_t
tu_rand32(struct tu_rng *r)
{
	return (uint32_t)(tu_rand64(r) >> 32);
}

/* uniform enough in [0, n) for test purposes; n > 0 */
static inline uint32_t
tu_below(struct tu_rng *r, uint32_t n)
{
	return (uint32_t)(((tu_rand64(r) >> 32) * (uint64_t)n) >> 32);
}

static inline void
tu_fill_random(struct tu_rng *r, uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(tu_rand64(r) >> 56);
}

/* ------------------------------------------------- independent CRC-32 */

/*
 * IEEE 802.3 CRC-32, reflected, bit by bit: init 0xFFFFFFFF, polynomial
 * 0xEDB88320, final complement. No table, nothing shared with the library.
 */
static inline uint32_t
tu_crc32_ref(const void *data, size_t len)
{
	const uint8_t *p = data;
	uint32_t c = 0xFFFFFFFFu;
	size_t i;
	int k;

	for (i = 0; i < len; i++) {
		c ^= p[i];
		for (k = 0; k < 8; k++)
			c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
	}
	return ~c;
}

/* ------------------------------------------------------- reason checks */

/* The reason and its counter name: both are part of the contract. */
#define expect_reason(got, want, name) do { \
		enum fcr_reason got_ = (got); \
		enum fcr_reason want_ = (want); \
		if (got_ != want_) \
			fail_msg("reason %s (%d), expected %s (%d)", \
				 fcr_reason_name(got_), (int)got_, \
				 fcr_reason_name(want_), (int)want_); \
		assert_string_equal(fcr_reason_name(got_), (name)); \
	} while (0)

/* --------------------------------------------------------- std frames */

static const uint8_t tu_mac_dst[6] = { 0x0e, 0xfc, 0x00, 0x01, 0x02, 0x03 };
static const uint8_t tu_mac_src[6] = { 0x0e, 0xfc, 0x00, 0x0a, 0x0b, 0x0c };

#define TU_VLAN 1002
#define TU_PCP 3
#define TU_D_ID 0x010203u
#define TU_S_ID 0x0a0b0cu

static inline void
tu_l2(struct fcr_l2_spec *l2, int tagged)
{
	memset(l2, 0, sizeof(*l2));
	memcpy(l2->dst, tu_mac_dst, 6);
	memcpy(l2->src, tu_mac_src, 6);
	l2->tagged = (uint8_t)(tagged != 0);
	l2->pcp = TU_PCP;
	l2->vlan = TU_VLAN;
}

/* FCP data frame with every header field distinct and non-zero. */
static inline void
tu_fc(struct fcr_fc_spec *fc, const uint8_t *payload, uint16_t plen)
{
	memset(fc, 0, sizeof(*fc));
	fc->sof = FCR_SOF_N3;
	fc->eof = FCR_EOF_N;
	fc->r_ctl = FCR_RCTL_FCP_DATA;
	fc->cs_ctl = 0x5a;
	fc->type = FCR_TYPE_FCP;
	fc->seq_id = 0x17;
	fc->df_ctl = 0x40;
	fc->d_id = TU_D_ID;
	fc->s_id = TU_S_ID;
	fc->f_ctl = 0x290008u; /* fill bits set by the builder */
	fc->seq_cnt = 0x1234;
	fc->ox_id = 0xbeef;
	fc->rx_id = 0xcafe;
	fc->param = 0xdeadb00fu;
	fc->payload = payload;
	fc->payload_len = plen;
}

/* Build the standard frame; asserts it was built. Returns its length. */
static inline uint32_t
tu_std_frame(uint8_t *buf, size_t cap, int tagged, const uint8_t *payload,
	     uint16_t plen)
{
	struct fcr_l2_spec l2;
	struct fcr_fc_spec fc;
	size_t n;

	tu_l2(&l2, tagged);
	tu_fc(&fc, payload, plen);
	n = fcr_build_fcoe(buf, cap, &l2, &fc);
	assert_true(n > 0);
	return (uint32_t)n;
}

/* Recompute the stored CRC of a frame after the test edited its FC bytes
 * (uses the independent reference CRC). */
static inline void
tu_fix_crc(uint8_t *buf, uint32_t fc_off, uint32_t fc_len)
{
	fcr_crc_store(buf + fc_off + fc_len, tu_crc32_ref(buf + fc_off, fc_len));
}

/* ------------------------------------------------------ fake mbufs */

/*
 * An mbuf chain built by hand. Every segment gets its own region of the
 * arena with 64 bytes of headroom before and 64 bytes of 0xEE poison after
 * it, so bytes of two segments are never accidentally contiguous.
 */
#define TU_HEADROOM 64
#define TU_POISON 64

struct tu_mchain {
	struct rte_mbuf *m;
	uint8_t *arena;
	unsigned int nsegs;
};

static inline struct rte_mbuf *
tu_mchain_build(struct tu_mchain *c, const uint8_t *buf, uint32_t len,
		const uint32_t *seg_lens, unsigned int nsegs)
{
	size_t arena_len = 0, off = 0;
	uint32_t done = 0;
	unsigned int i;

	assert_true(nsegs >= 1);
	for (i = 0; i < nsegs; i++)
		arena_len += TU_HEADROOM + seg_lens[i] + TU_POISON;
	c->m = aligned_alloc(RTE_CACHE_LINE_SIZE,
			     RTE_ALIGN_CEIL(nsegs * sizeof(struct rte_mbuf),
					    RTE_CACHE_LINE_SIZE));
	c->arena = malloc(arena_len);
	assert_non_null(c->m);
	assert_non_null(c->arena);
	memset(c->m, 0, nsegs * sizeof(struct rte_mbuf));
	memset(c->arena, 0xEE, arena_len);
	c->nsegs = nsegs;
	for (i = 0; i < nsegs; i++) {
		struct rte_mbuf *m = &c->m[i];

		m->buf_addr = c->arena + off;
		m->buf_len = (uint16_t)(TU_HEADROOM + seg_lens[i]);
		m->data_off = TU_HEADROOM;
		m->data_len = (uint16_t)seg_lens[i];
		m->next = i + 1 < nsegs ? &c->m[i + 1] : NULL;
		m->nb_segs = 1;
		rte_mbuf_refcnt_set(m, 1);
		memcpy(c->arena + off + TU_HEADROOM, buf + done, seg_lens[i]);
		done += seg_lens[i];
		off += TU_HEADROOM + seg_lens[i] + TU_POISON;
	}
	assert_int_equal(done, len);
	c->m[0].nb_segs = (uint16_t)nsegs;
	c->m[0].pkt_len = len;
	return &c->m[0];
}

/* One segment holding the whole frame. */
static inline struct rte_mbuf *
tu_mchain_flat(struct tu_mchain *c, const uint8_t *buf, uint32_t len)
{
	return tu_mchain_build(c, buf, len, &len, 1);
}

/* Two segments: [0, split) and [split, len). */
static inline struct rte_mbuf *
tu_mchain_split(struct tu_mchain *c, const uint8_t *buf, uint32_t len,
		uint32_t split)
{
	uint32_t l[2] = { split, len - split };

	return tu_mchain_build(c, buf, len, l, 2);
}

static inline void
tu_mchain_free(struct tu_mchain *c)
{
	free(c->m);
	free(c->arena);
	c->m = NULL;
	c->arena = NULL;
}

/* ---------------------------------------------------------- guard page */

/*
 * One read-write page followed by a PROT_NONE page: data placed with
 * tu_guard_place() ends exactly where the guard page starts, so reading one
 * byte past it raises SIGSEGV.
 */
struct tu_guard {
	uint8_t *base;
	size_t page;
};

static inline void
tu_guard_init(struct tu_guard *g)
{
	void *p;

	g->page = (size_t)sysconf(_SC_PAGESIZE);
	p = mmap(NULL, 2 * g->page, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(p != MAP_FAILED);
	g->base = p;
	assert_int_equal(mprotect(g->base + g->page, g->page, PROT_NONE), 0);
}

static inline uint8_t *
tu_guard_place(struct tu_guard *g, const uint8_t *src, uint32_t len)
{
	uint8_t *dst;

	assert_true(len <= g->page);
	dst = g->base + g->page - len;
	if (len)
		memcpy(dst, src, len);
	return dst;
}

static inline void
tu_guard_fini(struct tu_guard *g)
{
	munmap(g->base, 2 * g->page);
	g->base = NULL;
}

#endif /* FCR_TEST_UTIL_H */
