/* SPDX-License-Identifier: BSD-3-Clause */
#include <string.h>

#include <rte_cpuflags.h>
#include <rte_mbuf.h>
#include <rte_net_crc.h>
#include <rte_vect.h>

#ifdef RTE_ARCH_X86
#include <x86intrin.h>
#endif

#include "fcr_crc.h"

#define CRC32_POLY_REFLECTED 0xEDB88320u
#define X0 0x80000000u /* the polynomial 1 in the reflected representation */
#define SHIFT_ENTRIES (FCR_FC_MAX_LEN / 4 + 1)

/*
 * slice[k][v]: the CRC register after feeding byte v and then k zero bytes
 * into a zero register. slice[0] is the classic byte table.
 */
static uint32_t slice[8][256];
/* x_pow[q] = x^(32q) mod P: shifts a raw CRC across 4q zero bytes. */
static uint32_t x_pow[SHIFT_ENTRIES];
static int initialised;
static int use_clmul;
static const char *full_impl = "scalar";

static inline uint32_t
feed4zeros(uint32_t r)
{
	return slice[3][r & 0xFF] ^ slice[2][(r >> 8) & 0xFF] ^
	       slice[1][(r >> 16) & 0xFF] ^ slice[0][r >> 24];
}

uint32_t
fcr_crc_mulmod_ref(uint32_t a, uint32_t b)
{
	uint32_t m = X0, p = 0;

	/* zlib's multmodp: walk a's coefficients from x^0 up while b is
	 * multiplied by x each step. */
	while (m != 0) {
		if (a & m)
			p ^= b;
		m >>= 1;
		b = (b & 1) ? (b >> 1) ^ CRC32_POLY_REFLECTED : b >> 1;
	}
	return p;
}

#ifdef RTE_ARCH_X86
/*
 * Carry-less product of two reflected 32-bit polynomials: bit k of the raw
 * product is x^(62-k); shifted left once, the upper half is already reduced
 * (x^31..x^0) and the lower half holds x^63..x^32, i.e. L * x^32, which is
 * "feed L with four zero bytes".
 */
__attribute__((target("pclmul")))
static inline uint32_t
mulmod_clmul(uint32_t a, uint32_t b)
{
	__m128i p = _mm_clmulepi64_si128(_mm_cvtsi32_si128((int)a),
					 _mm_cvtsi32_si128((int)b), 0);
	uint64_t v = (uint64_t)_mm_cvtsi128_si64(p) << 1;

	return (uint32_t)(v >> 32) ^ feed4zeros((uint32_t)v);
}
#endif

uint32_t
fcr_crc_mulmod(uint32_t a, uint32_t b)
{
#ifdef RTE_ARCH_X86
	if (use_clmul)
		return mulmod_clmul(a, b);
#endif
	return fcr_crc_mulmod_ref(a, b);
}

static void
build_tables(void)
{
	uint32_t i, k, c;

	for (i = 0; i < 256; i++) {
		c = i;
		for (k = 0; k < 8; k++)
			c = (c & 1) ? (c >> 1) ^ CRC32_POLY_REFLECTED : c >> 1;
		slice[0][i] = c;
	}
	for (k = 1; k < 8; k++)
		for (i = 0; i < 256; i++)
			slice[k][i] = (slice[k - 1][i] >> 8) ^
				      slice[0][slice[k - 1][i] & 0xFF];
	x_pow[0] = X0;
	for (i = 1; i < SHIFT_ENTRIES; i++)
		x_pow[i] = feed4zeros(x_pow[i - 1]);
}

void
fcr_crc_init(void)
{
	uint16_t simd;

	if (initialised)
		return;
	build_tables();
#ifdef RTE_ARCH_X86
	use_clmul = rte_cpu_get_flag_enabled(RTE_CPUFLAG_PCLMULQDQ) > 0;
#endif
	/* Before rte_eal_init the SIMD limit reads 0 and rte_net_crc would fall
	 * back to its scalar path; EAL resets the limit when it starts, so
	 * setting it here only affects programs without EAL (tests, tools). */
	simd = rte_vect_get_max_simd_bitwidth();
	if (simd == 0) {
		rte_vect_set_max_simd_bitwidth(RTE_VECT_SIMD_256);
		simd = RTE_VECT_SIMD_256;
	}
	/* Ask rte_net_crc only for what this CPU and SIMD limit allow (it logs
	 * a complaint for every path it has to refuse), and remember the
	 * choice so we can report it. */
#ifdef RTE_ARCH_X86
	if (simd >= RTE_VECT_SIMD_512 &&
	    rte_cpu_get_flag_enabled(RTE_CPUFLAG_AVX512F) > 0 &&
	    rte_cpu_get_flag_enabled(RTE_CPUFLAG_VPCLMULQDQ) > 0) {
		rte_net_crc_set_alg(RTE_NET_CRC_AVX512);
		full_impl = "avx512";
	} else if (simd >= RTE_VECT_SIMD_128 && use_clmul) {
		rte_net_crc_set_alg(RTE_NET_CRC_SSE42);
		full_impl = "sse42-pclmulqdq";
	} else {
		rte_net_crc_set_alg(RTE_NET_CRC_SCALAR);
	}
#else
	rte_net_crc_set_alg(RTE_NET_CRC_SCALAR);
#endif
	initialised = 1;
}

const char *
fcr_crc_impl(void)
{
	fcr_crc_init();
	return full_impl;
}

int
fcr_crc_update_uses_clmul(void)
{
	fcr_crc_init();
	return use_clmul;
}

uint32_t
fcr_crc_calc(const void *fc, uint32_t len)
{
	if (unlikely(!initialised))
		fcr_crc_init();
	return rte_net_crc_calc(fc, len, RTE_NET_CRC32_ETH);
}

enum fcr_reason
fcr_frame_verify_crc(const uint8_t *buf, const struct fcr_frame *f)
{
	return fcr_crc_calc(buf + f->fc_off, f->fc_len) == f->crc ?
	       FCR_R_OK : FCR_R_BAD_CRC;
}

enum fcr_reason
fcr_frame_verify_crc_mbuf(const struct rte_mbuf *m, const struct fcr_frame *f)
{
	uint8_t copy[FCR_FC_MAX_LEN];
	const uint8_t *fc;

	if (f->fc_len > FCR_FC_MAX_LEN)
		return FCR_R_TOO_LONG;
	fc = rte_pktmbuf_read(m, f->fc_off, f->fc_len, copy);
	if (fc == NULL)
		return FCR_R_NO_TRAILER;
	return fcr_crc_calc(fc, f->fc_len) == f->crc ? FCR_R_OK : FCR_R_BAD_CRC;
}

uint32_t
fcr_crc_update(uint32_t crc, uint32_t fc_len, uint32_t at,
	       const uint8_t *old, const uint8_t *new, uint32_t n)
{
	uint32_t r = 0, i, tail;

	if (unlikely(!initialised))
		fcr_crc_init();
	for (i = 0; i < n; i++)
		r = (r >> 8) ^ slice[0][(r ^ old[i] ^ new[i]) & 0xFF];
	tail = fc_len - at - n;
	for (i = 0; i < (tail & 3); i++)
		r = (r >> 8) ^ slice[0][r & 0xFF];
	return crc ^ fcr_crc_mulmod(r, x_pow[tail >> 2]);
}

/* Cold path of the first call before fcr_crc_init: keeps the hot function
 * free of the set-up it would otherwise have to save registers for. */
__attribute__((noinline, cold)) static uint32_t
update_ids_first_use(uint32_t crc, uint32_t fc_len, uint32_t old_did,
		     uint32_t new_did, uint32_t old_sid, uint32_t new_sid)
{
	fcr_crc_init();
	return fcr_crc_update_ids(crc, fc_len, old_did, new_did, old_sid, new_sid);
}

#ifdef RTE_ARCH_X86
/* Compiled for PCLMULQDQ so mulmod_clmul inlines; only reached through the
 * use_clmul branch on CPUs that have it. */
__attribute__((target("pclmul")))
#endif
uint32_t
fcr_crc_update_ids(uint32_t crc, uint32_t fc_len, uint32_t old_did,
		   uint32_t new_did, uint32_t old_sid, uint32_t new_sid)
{
	uint32_t dd = (old_did ^ new_did) & FCR_FCID_MASK;
	uint32_t sd = (old_sid ^ new_sid) & FCR_FCID_MASK;
	uint32_t r, shift;

	if (unlikely(!initialised))
		return update_ids_first_use(crc, fc_len, old_did, new_did,
					    old_sid, new_sid);
	/* Raw CRC of the 8-byte difference R_CTL..S_ID (bytes 0 and 4 are
	 * zero); D_ID's last byte is followed by 4 more bytes, S_ID's by none. */
	r = slice[6][dd >> 16] ^ slice[5][(dd >> 8) & 0xFF] ^
	    slice[4][dd & 0xFF] ^ slice[2][sd >> 16] ^
	    slice[1][(sd >> 8) & 0xFF] ^ slice[0][sd & 0xFF];
	shift = x_pow[(fc_len - 8) >> 2];
#ifdef RTE_ARCH_X86
	if (likely(use_clmul))
		return crc ^ mulmod_clmul(r, shift);
#endif
	return crc ^ fcr_crc_mulmod_ref(r, shift);
}
