/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The FC CRC: full computation against an independent bit-by-bit CRC-32,
 * the incremental update against full recomputation at every FC frame size,
 * the carry-less multiply against its reference, and frame verification over
 * flat buffers and mbuf chains.
 */
#include "test_util.h"

#define X0 0x80000000u /* the polynomial 1, reflected representation */

/* One frame for the incremental tests: the FC bytes (what the CRC covers). */
struct fc_case {
	uint8_t fc[FCR_FC_MAX_LEN];
	uint32_t fc_len;
};

static void
random_fc(struct tu_rng *r, struct fc_case *c, uint32_t payload_len)
{
	uint32_t fill = (4 - (payload_len & 3)) & 3;

	c->fc_len = FCR_FC_HLEN + payload_len + fill;
	tu_fill_random(r, c->fc, c->fc_len);
	/* a real frame: F_CTL fill bits say how many fill bytes, fill zero */
	c->fc[FCR_FC_F_CTL + 2] = (uint8_t)((c->fc[FCR_FC_F_CTL + 2] & ~3u) | fill);
	memset(c->fc + FCR_FC_HLEN + payload_len, 0, fill);
}

/* -------------------------------------------------- full computation */

static void
test_reference_crc_matches_known_vector(void **state)
{
	(void)state;
	/* the reference itself must be right, or every comparison is moot */
	assert_int_equal(tu_crc32_ref("123456789", 9), 0xCBF43926u);
	assert_int_equal(tu_crc32_ref("", 0), 0);
	assert_int_equal(tu_crc32_ref("a", 1), 0xE8B7BE43u);
}

static void
test_calc_matches_known_vector(void **state)
{
	uint8_t wire[4];

	(void)state;
	assert_int_equal(fcr_crc_calc("123456789", 9), 0xCBF43926u);
	/* stored LSB first, as struct.pack('<I', zlib.crc32(...)) */
	fcr_crc_store(wire, fcr_crc_calc("123456789", 9));
	assert_int_equal(wire[0], 0x26);
	assert_int_equal(wire[1], 0x39);
	assert_int_equal(wire[2], 0xF4);
	assert_int_equal(wire[3], 0xCB);
}

static void
test_calc_matches_bitwise_reference_every_length_0_to_2136(void **state)
{
	static uint8_t buf[FCR_FC_MAX_LEN + 64];
	struct tu_rng r;
	uint32_t len, align;

	(void)state;
	tu_rng_seed(&r, 1);
	for (len = 0; len <= FCR_FC_MAX_LEN; len++) {
		/* fresh random data each length, and a varying start alignment
		 * so the SIMD paths see unaligned and aligned starts */
		align = len % 17;
		tu_fill_random(&r, buf, sizeof(buf));
		if (fcr_crc_calc(buf + align, len) != tu_crc32_ref(buf + align, len))
			fail_msg("len %u align %u: calc %08x ref %08x", len, align,
				 fcr_crc_calc(buf + align, len),
				 tu_crc32_ref(buf + align, len));
	}
}

static void
test_calc_matches_reference_on_constant_data(void **state)
{
	static uint8_t buf[FCR_FC_MAX_LEN];
	static const uint8_t fills[] = { 0x00, 0xFF, 0x55 };
	uint32_t len;
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(fills); i++) {
		memset(buf, fills[i], sizeof(buf));
		for (len = 0; len <= FCR_FC_MAX_LEN; len += 4)
			if (fcr_crc_calc(buf, len) != tu_crc32_ref(buf, len))
				fail_msg("byte %02x len %u", fills[i], len);
	}
}

static void
test_impl_name_is_known_and_init_idempotent(void **state)
{
	const char *impl;

	(void)state;
	fcr_crc_init();
	impl = fcr_crc_impl();
	assert_true(strcmp(impl, "sse42-pclmulqdq") == 0 ||
		    strcmp(impl, "avx512") == 0 || strcmp(impl, "scalar") == 0);
	fcr_crc_init();
	assert_string_equal(fcr_crc_impl(), impl);
	print_message("full CRC path: %s, incremental update %s PCLMULQDQ\n",
		      impl, fcr_crc_update_uses_clmul() ? "uses" : "without");
	assert_int_equal(fcr_crc_calc("123456789", 9), 0xCBF43926u);
}

/* ------------------------------------------------------------ mulmod */

/* x^(8n) mod P, computed as "feed n zero bytes into the register 1" with
 * the bit-by-bit shift register: independent of the library's tables. */
static uint32_t
xpow8n_bitwise(uint32_t n)
{
	uint32_t c = X0;
	uint32_t i;
	int k;

	for (i = 0; i < n; i++)
		for (k = 0; k < 8; k++)
			c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
	return c;
}

/* register a fed with n zero bytes, bit by bit */
static uint32_t
feed_zeros_bitwise(uint32_t c, uint32_t n)
{
	uint32_t i;
	int k;

	for (i = 0; i < n; i++)
		for (k = 0; k < 8; k++)
			c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
	return c;
}

static void
test_mulmod_matches_ref_on_random_inputs(void **state)
{
	static const uint32_t edge[] = {
		0, 1, X0, 0xFFFFFFFFu, 0xEDB88320u, 0x7FFFFFFFu, 0x00000002u,
		0x40000000u, 0xDEADBEEFu, 0x12345678u,
	};
	struct tu_rng r;
	uint32_t a, b, i, j;

	(void)state;
	for (i = 0; i < sizeof(edge) / sizeof(edge[0]); i++)
		for (j = 0; j < sizeof(edge) / sizeof(edge[0]); j++)
			assert_int_equal(fcr_crc_mulmod(edge[i], edge[j]),
					 fcr_crc_mulmod_ref(edge[i], edge[j]));
	tu_rng_seed(&r, 2);
	for (i = 0; i < 2000000; i++) {
		a = tu_rand32(&r);
		b = tu_rand32(&r);
		if (fcr_crc_mulmod(a, b) != fcr_crc_mulmod_ref(a, b))
			fail_msg("mulmod(%08x, %08x) = %08x, ref %08x", a, b,
				 fcr_crc_mulmod(a, b), fcr_crc_mulmod_ref(a, b));
	}
}

static void
test_mulmod_ref_is_polynomial_multiplication_mod_p(void **state)
{
	struct tu_rng r;
	uint32_t a, b, c, i, n;

	(void)state;
	tu_rng_seed(&r, 3);
	for (i = 0; i < 20000; i++) {
		a = tu_rand32(&r);
		b = tu_rand32(&r);
		c = tu_rand32(&r);
		/* 1 is the identity, 0 absorbs */
		assert_int_equal(fcr_crc_mulmod_ref(a, X0), a);
		assert_int_equal(fcr_crc_mulmod_ref(X0, a), a);
		assert_int_equal(fcr_crc_mulmod_ref(a, 0), 0);
		/* commutative, distributive over XOR */
		assert_int_equal(fcr_crc_mulmod_ref(a, b), fcr_crc_mulmod_ref(b, a));
		assert_int_equal(fcr_crc_mulmod_ref(a, b ^ c),
				 fcr_crc_mulmod_ref(a, b) ^ fcr_crc_mulmod_ref(a, c));
	}
	/* multiplying by x^(8n) is feeding n zero bytes (what the update
	 * relies on), checked against the shift register */
	for (n = 0; n <= 40; n++) {
		uint32_t p = xpow8n_bitwise(n);

		for (i = 0; i < 200; i++) {
			a = tu_rand32(&r);
			assert_int_equal(fcr_crc_mulmod_ref(a, p),
					 feed_zeros_bitwise(a, n));
			assert_int_equal(fcr_crc_mulmod(a, p),
					 feed_zeros_bitwise(a, n));
		}
	}
}

/* ------------------------------------------------- incremental update */

static void
rewrite_ids(uint8_t *fc, uint32_t did, uint32_t sid)
{
	fcr_put_be24(fc + FCR_FC_D_ID, did);
	fcr_put_be24(fc + FCR_FC_S_ID, sid);
}

/* For every payload size 0..2112: rewrite D_ID only, S_ID only, both, and
 * neither; the folded CRC equals the CRC computed from scratch. */
static void
test_update_ids_equals_recompute_every_payload_size(void **state)
{
	static struct fc_case c;
	struct tu_rng r;
	uint32_t plen, crc, upd, od, os, nd, ns;
	int kind;

	(void)state;
	tu_rng_seed(&r, 4);
	for (plen = 0; plen <= FCR_FC_MAX_PAYLOAD; plen++) {
		random_fc(&r, &c, plen);
		for (kind = 0; kind < 4; kind++) {
			crc = fcr_crc_calc(c.fc, c.fc_len);
			od = fcr_get_be24(c.fc + FCR_FC_D_ID);
			os = fcr_get_be24(c.fc + FCR_FC_S_ID);
			nd = (kind & 1) ? tu_rand32(&r) & FCR_FCID_MASK : od;
			ns = (kind & 2) ? tu_rand32(&r) & FCR_FCID_MASK : os;
			if ((kind & 1) && nd == od)
				nd ^= 0x000001u;
			if ((kind & 2) && ns == os)
				ns ^= 0x800000u;
			upd = fcr_crc_update_ids(crc, c.fc_len, od, nd, os, ns);
			rewrite_ids(c.fc, nd, ns);
			if (upd != tu_crc32_ref(c.fc, c.fc_len))
				fail_msg("payload %u kind %d: update %08x recompute %08x",
					 plen, kind, upd,
					 tu_crc32_ref(c.fc, c.fc_len));
			if (kind == 0)
				assert_int_equal(upd, crc);
			else
				assert_int_not_equal(upd, crc);
		}
	}
}

/* The typical redirect values: well-known and single-bit changes. */
static void
test_update_ids_single_bit_and_well_known_ids(void **state)
{
	static struct fc_case c;
	static const uint32_t ids[] = {
		0x000000, 0xFFFFFF, FCR_FCID_FLOGI, FCR_FCID_DIR, 0x010203,
		0x800000, 0x000001, 0x0000FF, 0xFF0000,
	};
	struct tu_rng r;
	uint32_t plen, crc, i, j, bit;

	(void)state;
	tu_rng_seed(&r, 5);
	for (plen = 0; plen <= FCR_FC_MAX_PAYLOAD; plen += 211) {
		random_fc(&r, &c, plen);
		for (i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
			for (j = 0; j < sizeof(ids) / sizeof(ids[0]); j++) {
				rewrite_ids(c.fc, ids[i], ids[j]);
				crc = fcr_crc_calc(c.fc, c.fc_len);
				rewrite_ids(c.fc, ids[j], ids[i]);
				assert_int_equal(fcr_crc_update_ids(crc, c.fc_len,
								    ids[i], ids[j],
								    ids[j], ids[i]),
						 tu_crc32_ref(c.fc, c.fc_len));
			}
		}
		for (bit = 0; bit < 24; bit++) {
			rewrite_ids(c.fc, 0, 0);
			crc = fcr_crc_calc(c.fc, c.fc_len);
			rewrite_ids(c.fc, 1u << bit, 0);
			assert_int_equal(fcr_crc_update_ids(crc, c.fc_len, 0,
							    1u << bit, 0, 0),
					 tu_crc32_ref(c.fc, c.fc_len));
			rewrite_ids(c.fc, 0, 1u << bit);
			assert_int_equal(fcr_crc_update_ids(crc, c.fc_len, 0, 0,
							    0, 1u << bit),
					 tu_crc32_ref(c.fc, c.fc_len));
		}
	}
}

/* Change bytes [at, at+n) of c to random new values and check the generic
 * update against recomputation. */
static void
check_generic(struct tu_rng *r, struct fc_case *c, uint32_t at, uint32_t n,
	      uint32_t plen)
{
	uint8_t old[64], nw[64];
	uint32_t crc, upd;

	assert_true(n <= sizeof(old) && at + n <= c->fc_len);
	crc = fcr_crc_calc(c->fc, c->fc_len);
	memcpy(old, c->fc + at, n);
	tu_fill_random(r, nw, n);
	if (n)
		nw[0] = (uint8_t)(old[0] ^ 0x5A); /* make sure it changes */
	upd = fcr_crc_update(crc, c->fc_len, at, old, nw, n);
	memcpy(c->fc + at, nw, n);
	if (upd != tu_crc32_ref(c->fc, c->fc_len))
		fail_msg("payload %u fc_len %u at %u n %u: update %08x recompute %08x",
			 plen, c->fc_len, at, n, upd, tu_crc32_ref(c->fc, c->fc_len));
}

static void
test_update_generic_equals_recompute_every_payload_size(void **state)
{
	static struct fc_case c;
	struct tu_rng r;
	uint32_t plen, at, n;

	(void)state;
	tu_rng_seed(&r, 6);
	for (plen = 0; plen <= FCR_FC_MAX_PAYLOAD; plen++) {
		random_fc(&r, &c, plen);
		check_generic(&r, &c, FCR_FC_D_ID, 3, plen);   /* D_ID */
		check_generic(&r, &c, FCR_FC_S_ID, 3, plen);   /* S_ID */
		check_generic(&r, &c, FCR_FC_D_ID, 7, plen);   /* D_ID..S_ID */
		check_generic(&r, &c, FCR_FC_OX_ID, 2, plen);  /* OX_ID */
		check_generic(&r, &c, FCR_FC_RX_ID, 2, plen);  /* RX_ID */
		check_generic(&r, &c, FCR_FC_R_CTL, 1, plen);  /* first byte */
		check_generic(&r, &c, FCR_FC_PARAM, 4, plen);  /* aligned word */
		check_generic(&r, &c, 0, FCR_FC_HLEN, plen);   /* whole header */
		check_generic(&r, &c, c.fc_len - 1, 1, plen);  /* last byte */
		check_generic(&r, &c, c.fc_len - 3, 3, plen);  /* unaligned end */
		check_generic(&r, &c, c.fc_len, 0, plen);      /* nothing */
		/* two random unaligned spots anywhere in the frame */
		n = 1 + tu_below(&r, c.fc_len < 37 ? c.fc_len : 37);
		at = tu_below(&r, c.fc_len - n + 1);
		check_generic(&r, &c, at, n, plen);
		n = 1 + tu_below(&r, 5);
		at = tu_below(&r, c.fc_len - n + 1);
		check_generic(&r, &c, at, n, plen);
	}
}

static void
test_update_generic_agrees_with_update_ids(void **state)
{
	static struct fc_case c;
	struct tu_rng r;
	uint8_t od[3], nd[3], os[3], ns[3];
	uint32_t plen, crc, a, b;

	(void)state;
	tu_rng_seed(&r, 7);
	for (plen = 0; plen <= FCR_FC_MAX_PAYLOAD; plen += 7) {
		random_fc(&r, &c, plen);
		crc = fcr_crc_calc(c.fc, c.fc_len);
		memcpy(od, c.fc + FCR_FC_D_ID, 3);
		memcpy(os, c.fc + FCR_FC_S_ID, 3);
		tu_fill_random(&r, nd, 3);
		tu_fill_random(&r, ns, 3);
		a = fcr_crc_update(crc, c.fc_len, FCR_FC_D_ID, od, nd, 3);
		a = fcr_crc_update(a, c.fc_len, FCR_FC_S_ID, os, ns, 3);
		b = fcr_crc_update_ids(crc, c.fc_len, fcr_get_be24(od),
				       fcr_get_be24(nd), fcr_get_be24(os),
				       fcr_get_be24(ns));
		assert_int_equal(a, b);
	}
}

/* A frame that arrived with a bad CRC keeps it: after any update its CRC
 * differs from the correct one by exactly the same XOR as before. */
static void
test_update_never_launders_a_bad_crc(void **state)
{
	static struct fc_case c;
	struct tu_rng r;
	uint32_t plen, good, bad, err, upd, nd, ns;
	uint8_t old[2], nw[2];

	(void)state;
	tu_rng_seed(&r, 8);
	for (plen = 0; plen <= FCR_FC_MAX_PAYLOAD; plen++) {
		random_fc(&r, &c, plen);
		good = tu_crc32_ref(c.fc, c.fc_len);
		err = tu_rand32(&r) | 1u; /* non-zero */
		if (plen % 3 == 0)
			err = 1u << (plen % 32); /* single-bit corruption */
		bad = good ^ err;

		nd = tu_rand32(&r) & FCR_FCID_MASK;
		ns = tu_rand32(&r) & FCR_FCID_MASK;
		upd = fcr_crc_update_ids(bad, c.fc_len,
					 fcr_get_be24(c.fc + FCR_FC_D_ID), nd,
					 fcr_get_be24(c.fc + FCR_FC_S_ID), ns);
		rewrite_ids(c.fc, nd, ns);
		good = tu_crc32_ref(c.fc, c.fc_len);
		assert_int_not_equal(upd, good);
		assert_int_equal(upd ^ good, err);

		/* and through the generic update, at OX_ID */
		memcpy(old, c.fc + FCR_FC_OX_ID, 2);
		nw[0] = (uint8_t)~old[0];
		nw[1] = old[1];
		upd = fcr_crc_update(upd, c.fc_len, FCR_FC_OX_ID, old, nw, 2);
		memcpy(c.fc + FCR_FC_OX_ID, nw, 2);
		good = tu_crc32_ref(c.fc, c.fc_len);
		assert_int_equal(upd ^ good, err);
	}
}

/* ------------------------------------------------------- verification */

static void
test_verify_accepts_built_frames_of_every_payload_size(void **state)
{
	static uint8_t buf[FCR_FCOE_MAX_FRAME], payload[FCR_FC_MAX_PAYLOAD];
	struct fcr_frame f;
	struct tu_rng r;
	uint32_t plen, len;

	(void)state;
	tu_rng_seed(&r, 9);
	tu_fill_random(&r, payload, sizeof(payload));
	for (plen = 0; plen <= FCR_FC_MAX_PAYLOAD; plen++) {
		len = tu_std_frame(buf, sizeof(buf), plen & 1, payload, (uint16_t)plen);
		expect_reason(fcr_frame_parse(buf, len, &f), FCR_R_OK, "ok");
		expect_reason(fcr_frame_verify_crc(buf, &f), FCR_R_OK, "ok");
		assert_int_equal(f.crc, tu_crc32_ref(buf + f.fc_off, f.fc_len));
	}
}

/* Flip each bit of the FC frame (header, payload, fill) and of the stored
 * CRC in turn: every single flip is caught. Bits outside what the CRC covers
 * (Ethernet and FCoE headers) do not change its verdict. */
static void
test_verify_detects_a_flipped_bit_anywhere_in_the_fc_frame(void **state)
{
	static uint8_t buf[FCR_FCOE_MAX_FRAME], payload[FCR_FC_MAX_PAYLOAD];
	static const uint16_t sizes[] = { 0, 1, 3, 4, 37, 512, 2111, 2112 };
	struct fcr_frame f, g;
	struct tu_rng r;
	uint32_t len, i, bit, end;
	unsigned int s;

	(void)state;
	tu_rng_seed(&r, 10);
	tu_fill_random(&r, payload, sizeof(payload));
	for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		len = tu_std_frame(buf, sizeof(buf), s & 1, payload, sizes[s]);
		expect_reason(fcr_frame_parse(buf, len, &f), FCR_R_OK, "ok");
		end = f.fc_off + f.fc_len + 4; /* through the stored CRC */
		for (i = f.fc_off; i < end; i++) {
			for (bit = 0; bit < 8; bit++) {
				enum fcr_reason pr;

				buf[i] ^= (uint8_t)(1u << bit);
				pr = fcr_frame_parse(buf, len, &g);
				if (pr != FCR_R_OK) {
					/* only a fill count the payload cannot
					 * hold is caught before the CRC */
					expect_reason(pr, FCR_R_BAD_FILL, "bad_fill");
					assert_int_equal(i, f.fc_off + FCR_FC_F_CTL + 2);
					assert_true(bit < 2);
					assert_int_equal(f.payload_len, 0);
				} else if (fcr_frame_verify_crc(buf, &g) != FCR_R_BAD_CRC)
					fail_msg("payload %u: flip of byte %u bit %u not detected",
						 sizes[s], i, bit);
				buf[i] ^= (uint8_t)(1u << bit);
			}
		}
		/* the MAC addresses are not covered by the FC CRC */
		buf[0] ^= 0x01;
		buf[11] ^= 0x80;
		expect_reason(fcr_frame_parse(buf, len, &g), FCR_R_OK, "ok");
		expect_reason(fcr_frame_verify_crc(buf, &g), FCR_R_OK, "ok");
		buf[0] ^= 0x01;
		buf[11] ^= 0x80;
		expect_reason(fcr_frame_verify_crc(buf, &f), FCR_R_OK, "ok");
	}
}

/* ------------------------------------------------------------- mbufs */

static void
test_fake_mbuf_chain_reads_like_a_real_one(void **state)
{
	uint8_t buf[200], copy[200];
	const uint8_t *p;
	struct tu_mchain c;
	struct rte_mbuf *m;
	uint32_t segs[4] = { 10, 1, 89, 100 };
	uint32_t i, off, n;

	(void)state;
	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)(i * 7 + 1);
	m = tu_mchain_build(&c, buf, sizeof(buf), segs, 4);
	assert_int_equal(rte_pktmbuf_pkt_len(m), 200);
	assert_int_equal(m->nb_segs, 4);
	assert_true(rte_pktmbuf_is_contiguous(m) == 0);
	/* every sub-range, within or across segments */
	for (off = 0; off < sizeof(buf); off += 3) {
		for (n = 0; off + n <= sizeof(buf); n += 5) {
			memset(copy, 0, sizeof(copy));
			p = rte_pktmbuf_read(m, off, n, copy);
			assert_non_null(p);
			if (n)
				assert_memory_equal(p, buf + off, n);
		}
	}
	/* within one segment: a pointer into the segment, not the copy */
	p = rte_pktmbuf_read(m, 11, 50, copy);
	assert_ptr_equal(p, rte_pktmbuf_mtod_offset(&c.m[2], const uint8_t *, 0));
	/* across segments: the copy */
	p = rte_pktmbuf_read(m, 5, 10, copy);
	assert_ptr_equal(p, copy);
	/* past the end: NULL */
	assert_null(rte_pktmbuf_read(m, 195, 6, copy));
	tu_mchain_free(&c);
}

static void
test_verify_mbuf_multi_segment_every_split(void **state)
{
	static uint8_t buf[FCR_FCOE_MAX_FRAME], payload[FCR_FC_MAX_PAYLOAD];
	static const uint16_t sizes[] = { 0, 5, 100, 2112 };
	struct fcr_frame f, fm;
	struct tu_mchain c;
	struct rte_mbuf *m;
	struct tu_rng r;
	uint32_t len, split, step;
	unsigned int s;

	(void)state;
	tu_rng_seed(&r, 11);
	tu_fill_random(&r, payload, sizeof(payload));
	for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		len = tu_std_frame(buf, sizeof(buf), 1, payload, sizes[s]);
		step = len > 200 ? 7 : 1;
		for (split = 1; split < len; split += step) {
			m = tu_mchain_split(&c, buf, len, split);
			expect_reason(fcr_frame_parse_mbuf(m, &fm), FCR_R_OK, "ok");
			expect_reason(fcr_frame_verify_crc_mbuf(m, &fm), FCR_R_OK, "ok");
			tu_mchain_free(&c);
		}
		/* now corrupt one payload-or-header bit and split again */
		expect_reason(fcr_frame_parse(buf, len, &f), FCR_R_OK, "ok");
		buf[f.fc_off + f.fc_len - 1] ^= 0x10;
		for (split = 1; split < len; split += step) {
			m = tu_mchain_split(&c, buf, len, split);
			expect_reason(fcr_frame_parse_mbuf(m, &fm), FCR_R_OK, "ok");
			expect_reason(fcr_frame_verify_crc_mbuf(m, &fm),
				      FCR_R_BAD_CRC, "bad_crc");
			tu_mchain_free(&c);
		}
	}
}

static void
test_verify_mbuf_one_byte_segments_and_random_chains(void **state)
{
	static uint8_t buf[FCR_FCOE_MAX_FRAME], payload[FCR_FC_MAX_PAYLOAD];
	static uint32_t segs[FCR_FCOE_MAX_FRAME];
	struct fcr_frame f;
	struct tu_mchain c;
	struct rte_mbuf *m;
	struct tu_rng r;
	uint32_t len, i, n, left, iter;

	(void)state;
	tu_rng_seed(&r, 12);
	tu_fill_random(&r, payload, sizeof(payload));
	/* every byte in its own segment */
	len = tu_std_frame(buf, sizeof(buf), 1, payload, 300);
	for (i = 0; i < len; i++)
		segs[i] = 1;
	m = tu_mchain_build(&c, buf, len, segs, len);
	expect_reason(fcr_frame_parse_mbuf(m, &f), FCR_R_OK, "ok");
	expect_reason(fcr_frame_verify_crc_mbuf(m, &f), FCR_R_OK, "ok");
	((uint8_t *)c.m[f.fc_off + 40].buf_addr)[TU_HEADROOM] ^= 0x01;
	expect_reason(fcr_frame_verify_crc_mbuf(m, &f), FCR_R_BAD_CRC, "bad_crc");
	tu_mchain_free(&c);

	/* random chains of random frames */
	for (iter = 0; iter < 500; iter++) {
		uint16_t plen = (uint16_t)tu_below(&r, FCR_FC_MAX_PAYLOAD + 1);

		len = tu_std_frame(buf, sizeof(buf), iter & 1, payload, plen);
		for (n = 0, left = len; left; n++) {
			segs[n] = 1 + tu_below(&r, left < 300 ? left : 300);
			left -= segs[n];
		}
		m = tu_mchain_build(&c, buf, len, segs, n);
		expect_reason(fcr_frame_parse_mbuf(m, &f), FCR_R_OK, "ok");
		expect_reason(fcr_frame_verify_crc_mbuf(m, &f), FCR_R_OK, "ok");
		tu_mchain_free(&c);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reference_crc_matches_known_vector),
		cmocka_unit_test(test_calc_matches_known_vector),
		cmocka_unit_test(test_calc_matches_bitwise_reference_every_length_0_to_2136),
		cmocka_unit_test(test_calc_matches_reference_on_constant_data),
		cmocka_unit_test(test_impl_name_is_known_and_init_idempotent),
		cmocka_unit_test(test_mulmod_matches_ref_on_random_inputs),
		cmocka_unit_test(test_mulmod_ref_is_polynomial_multiplication_mod_p),
		cmocka_unit_test(test_update_ids_equals_recompute_every_payload_size),
		cmocka_unit_test(test_update_ids_single_bit_and_well_known_ids),
		cmocka_unit_test(test_update_generic_equals_recompute_every_payload_size),
		cmocka_unit_test(test_update_generic_agrees_with_update_ids),
		cmocka_unit_test(test_update_never_launders_a_bad_crc),
		cmocka_unit_test(test_verify_accepts_built_frames_of_every_payload_size),
		cmocka_unit_test(test_verify_detects_a_flipped_bit_anywhere_in_the_fc_frame),
		cmocka_unit_test(test_fake_mbuf_chain_reads_like_a_real_one),
		cmocka_unit_test(test_verify_mbuf_multi_segment_every_split),
		cmocka_unit_test(test_verify_mbuf_one_byte_segments_and_random_chains),
	};

	fcr_crc_init();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
