/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Fuzz target "state": the state file's decoder (lib/forward/fcr_state.c,
 * what `--state-file` loads at start). Whatever the file holds: refused
 * with a reason, or taken whole, and then every record within the checks
 * and the file made again from them decodes to the same records.
 *
 * One input: the file's bytes (under libFuzzer, its length field and CRC
 * made to agree first).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fcr_binding.h"
#include "fcr_state.h"
#include "fuzz.h"

#define SZ_NODE "fuzz ports net_pcap0,net_pcap1,net_pcap2,net_pcap3"
#define SZ_MAX (1u << 16)

static const struct fcr_state_expect sz_exp = {
	.node = SZ_NODE, .max_bindings = 1024, .nb_ports = 4, .fabric_mask = 1u << 3,
	.max_paths = 64,
};

static struct {
	long taken, refused;
} tally;

static struct fcr_state_binding sz_b[1024], sz_b2[1024];
static struct fcr_state_fcf sz_f[FCR_STATE_MAX_FCFS], sz_f2[FCR_STATE_MAX_FCFS];
static struct fcr_state_path sz_p[64], sz_p2[64];
static uint8_t sz_again[SZ_MAX + 1024 * FCR_STATE_NAME_LEN];

static int
state_one(const uint8_t *data, size_t size)
{
	struct fcr_state_info info, info2;
	struct fcr_state_enc e;
	char why[256];
	uint32_t i;
	size_t len;

	if (size > SZ_MAX)
		return -1;
	why[0] = '\0';
	if (fcr_state_header(data, size, &sz_exp, &info, why, sizeof(why)) < 0 ||
	    fcr_state_records(data, size, &sz_exp, &info, sz_b, sz_f, why, sizeof(why)) < 0 ||
	    fcr_state_paths(data, size, &info, sz_p, why, sizeof(why)) < 0) {
		tally.refused++;
		FZ_CHECK(why[0] != '\0', "refused without a reason");
		return 0;
	}
	tally.taken++;
	FZ_CHECK(info.nb_bindings <= sz_exp.max_bindings, "%u bindings", info.nb_bindings);
	for (i = 0; i < info.nb_bindings; i++) {
		unsigned int port = (unsigned int)(sz_b[i].vn >> 48);

		FZ_CHECK(sz_b[i].vlan < 4096 && sz_b[i].fcid != 0 && sz_b[i].fcid <= 0xFFFFFF &&
			 sz_b[i].wwpn != 0 && port < 3, "binding %u taken out of range", i);
		FZ_CHECK(i == 0 || sz_b[i - 1].vlan != sz_b[i].vlan || sz_b[i - 1].fcid != sz_b[i].fcid,
			 "two bindings of one FCID taken");
	}
	/* made again, it decodes to the same */
	FZ_CHECK(fcr_state_begin(&e, sz_again, sizeof(sz_again), info.node, info.written,
				 info.fka_ms) == 0, "begin");
	for (i = 0; i < info.nb_bindings; i++)
		FZ_CHECK(fcr_state_put_binding(&e, &sz_b[i]) == 0, "put binding");
	for (i = 0; i < info.nb_fcfs; i++)
		FZ_CHECK(fcr_state_put_fcf(&e, &sz_f[i]) == 0, "put FCF");
	for (i = 0; i < info.nb_paths; i++) {
		const struct fcr_state_path *x = &sz_p[i];

		FZ_CHECK(x->vlan < 4096 && x->cutover <= 1 && x->host && x->target && x->vi &&
			 x->vt && x->vi != x->vt && x->host != x->target, "path %u taken out of range",
			 i);
		FZ_CHECK(fcr_state_put_path(&e, x) == 0, "put path");
	}
	for (i = 0; i < info.nb_bindings; i++)
		FZ_CHECK(fcr_state_put_name(&e, sz_b[i].wwnn) == 0, "put node name");
	len = fcr_state_end(&e);
	/* made again in this version: an older file gains the node names */
	FZ_CHECK(len == size + (info.version < 3 ? (size_t)info.nb_bindings * FCR_STATE_NAME_LEN
						 : 0), "made again in %zu bytes, not %zu", len, size);
	FZ_CHECK(fcr_state_header(sz_again, len, &sz_exp, &info2, why, sizeof(why)) == 0 &&
		 fcr_state_records(sz_again, len, &sz_exp, &info2, sz_b2, sz_f2, why,
				   sizeof(why)) == 0 &&
		 fcr_state_paths(sz_again, len, &info2, sz_p2, why, sizeof(why)) == 0,
		 "made again, refused: %s", why);
	FZ_CHECK(memcmp(sz_b, sz_b2, sizeof(sz_b[0]) * info.nb_bindings) == 0 &&
		 memcmp(sz_f, sz_f2, sizeof(sz_f[0]) * info.nb_fcfs) == 0 &&
		 memcmp(sz_p, sz_p2, sizeof(sz_p[0]) * info.nb_paths) == 0,
		 "made again, other records");
	return 0;
}

/* What libFuzzer calls: the fuzzer's bytes with the length field and the
 * CRC made to agree, so its mutations reach the checks behind them. */
static int
state_fuzz_one(const uint8_t *data, size_t size)
{
	static uint8_t f[SZ_MAX];
	uint32_t crc;
	uint64_t n = size;
	int i;

	if (size > SZ_MAX)
		return -1;
	memcpy(f, data, size);
	if (size >= FCR_STATE_HDR_LEN + 4) {
		for (i = 0; i < 8; i++)
			f[40 + i] = (uint8_t)(n >> (8 * i));
		crc = fcr_state_crc(f, size - 4);
		for (i = 0; i < 4; i++)
			f[size - 4 + i] = (uint8_t)(crc >> (8 * i));
	}
	return state_one(f, size);
}

/* ------------------------------------------------------------------ */

/* A good file of up to 40 bindings and 4 FCFs, then its mutations. */
static size_t
sz_make(struct tu_rng *r, void *buf, size_t cap)
{
	uint8_t *out = buf;
	struct fcr_state_enc e;
	uint32_t nb = tu_below(r, 40), nf = tu_below(r, 5), i;
	size_t len;

	fcr_state_begin(&e, out, cap, tu_below(r, 50) ? SZ_NODE : "another", 1700000000, 8000);
	for (i = 0; i < nb; i++) {
		uint8_t mac[6] = { 0x0e, 0xfc, 0x00, 0x01, 0x00, (uint8_t)i };
		struct fcr_state_binding b = {
			.wwpn = 0x2100000000000000ull | (tu_below(r, 30) ? i : tu_below(r, 64)),
			.vlan = (uint16_t)(100 + tu_below(r, 2)),
			.fcid = 0x010000 | (tu_below(r, 30) ? i : tu_below(r, 64)),
			/* now and then the fabric port (3) */
			.vn = fcr_vn_pack(mac, tu_below(r, 30) ? tu_below(r, 3) : 3),
		};

		if (tu_below(r, 2))
			b.enode = (uint64_t)b.vlan << 48 | 0x020000000000ull | tu_below(r, 16);
		fcr_state_put_binding(&e, &b);
	}
	for (i = 0; i < nf; i++) {
		struct fcr_state_fcf f = {
			.vlan = (uint16_t)(100 + tu_below(r, 3)), .map_known = (uint8_t)tu_below(r, 2),
			.fc_map = 0x0efc00, .mac = { 0x0e, 0xfc, 0x00, 0xff, 0xff, 0xfe }, .name = 7,
		};

		fcr_state_put_fcf(&e, &f);
	}
	for (i = tu_below(r, 4); i > 0; i--) {
		struct fcr_state_path p = {
			.vlan = (uint16_t)(100 + tu_below(r, 2)), .host = 0x21 + tu_below(r, 3),
			.target = 0x50, .vi = 0x2f1, .vt = tu_below(r, 20) ? 0x2f2 : 0x2f1,
			.cutover = (uint8_t)tu_below(r, 2),
		};

		fcr_state_put_path(&e, &p);
	}
	len = fcr_state_end(&e);
	switch (tu_below(r, 6)) {
	case 0: /* as made */
		break;
	case 1: /* bits flipped */
		for (i = tu_below(r, 4) + 1; i > 0 && len > 0; i--)
			out[tu_below(r, (uint32_t)len)] ^= (uint8_t)(1u << tu_below(r, 8));
		break;
	case 2: /* cut short */
		len = tu_below(r, (uint32_t)len + 1);
		break;
	case 3: /* extended */
		for (i = tu_below(r, 64); i > 0 && len < cap; i--)
			out[len++] = (uint8_t)tu_below(r, 256);
		break;
	case 4: /* a header field set, the length and CRC made to agree */
		if (len >= FCR_STATE_HDR_LEN + 4) {
			uint32_t off = 8 + 4 * tu_below(r, 14);
			uint32_t crc;

			out[off] = (uint8_t)tu_below(r, 256);
			crc = fcr_state_crc(out, len - 4);
			memcpy(out + len - 4, &crc, 4);
		}
		break;
	default: /* a record's byte set, the CRC made to agree */
		if (len > FCR_STATE_HDR_LEN + 4) {
			uint32_t crc;

			out[FCR_STATE_HDR_LEN + tu_below(r, (uint32_t)(len - FCR_STATE_HDR_LEN - 4))] =
				(uint8_t)tu_below(r, 256);
			crc = fcr_state_crc(out, len - 4);
			memcpy(out + len - 4, &crc, 4);
		}
		break;
	}
	return len;
}

static void
fuzz_state_files(void **state)
{
	static uint8_t in[8192];
	long n = fz_iters_or(100000);
	char extra[100];
	double t0 = fz_now();

	(void)state;
	fz_run_made(7, n, sz_make, in, sizeof(in));
	snprintf(extra, sizeof(extra), "%ld taken, %ld refused", tally.taken, tally.refused);
	fz_report(n, "files", t0, extra);
	assert_true(tally.taken > 0 && tally.refused > 0);
}

static int
state_init(void)
{
	return 0;
}

static void
state_fini(void)
{
}

const struct fz_target fz_this = {
	.name = "state",
	.init = state_init,
	.fini = state_fini,
	.one = state_one,
	.fuzz_one = state_fuzz_one,
	.test = cmocka_unit_test(fuzz_state_files),
};
