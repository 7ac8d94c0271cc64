/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The state file's format (lib/forward/fcr_state.c) and the restore of what
 * it holds into the tables (fcr_tables_binding_restore): a round trip of
 * many bindings and FCFs; every truncation and every flipped bit of a small
 * file refused; each record check; a restored redirect active at once and a
 * restored ENode that does not keep alive timed out after 1.5 periods.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <rte_eal.h>

#include "fcr_state.h"
#include "fcr_state_snapshot.h"
#include "fcr_tables.h"
#include "test_util.h"

#define NODE "node-a ports net_pcap0,net_pcap1,net_pcap2,net_pcap3"
#define FABRIC 3

static const struct fcr_state_expect expect = {
	.node = NODE, .max_bindings = 200000, .nb_ports = 4, .fabric_mask = 1u << FABRIC,
	.max_paths = 16,
};

static struct fcr_state_binding
mkb(uint32_t i)
{
	uint8_t mac[6] = { 0x0e, 0xfc, 0x00, (uint8_t)(i >> 16), (uint8_t)(i >> 8), (uint8_t)i };
	uint8_t en[6] = { 0x02, 0x00, 0x00, (uint8_t)(i >> 18), (uint8_t)(i >> 10), (uint8_t)(i >> 2) };
	uint16_t vlan = (uint16_t)(100 + i % 3);

	return (struct fcr_state_binding){
		.wwpn = 0x2100000000000000ull | i, .vlan = vlan, .fcid = 0x010000 + i,
		.vn = fcr_vn_pack(mac, i % 3), /* ports 0-2: edge */
		.enode = i % 5 == 0 ? 0 : fcr_enode_key(vlan, en),
	};
}

static struct fcr_state_fcf
mkf(uint16_t vlan)
{
	struct fcr_state_fcf f = {
		.vlan = vlan, .map_known = vlan & 1, .fc_map = 0x0efc00 + vlan,
		.name = 0x1000000000000000ull | vlan, .mac = { 0x0e, 0xfc, 0x00, 0xff, 0xff, (uint8_t)vlan },
	};

	return f;
}

/* A file of nb bindings (mkb) and nf FCFs (mkf), in *len bytes. */
static uint8_t *
encode(uint32_t nb, uint32_t nf, size_t *len)
{
	size_t cap = fcr_state_size(nb, nf, strlen(NODE)) + (size_t)nb * FCR_STATE_NAME_LEN;
	uint8_t *buf = malloc(cap);
	struct fcr_state_enc e;
	uint32_t i;

	assert_non_null(buf);
	assert_int_equal(fcr_state_begin(&e, buf, cap, NODE, 1700000000, 8000), 0);
	for (i = 0; i < nb; i++) {
		struct fcr_state_binding b = mkb(i);

		assert_int_equal(fcr_state_put_binding(&e, &b), 0);
	}
	for (i = 0; i < nf; i++) {
		struct fcr_state_fcf f = mkf((uint16_t)(100 + i));

		assert_int_equal(fcr_state_put_fcf(&e, &f), 0);
	}
	*len = fcr_state_end(&e);
	assert_int_equal(*len, cap);
	return buf;
}

/* 0 when the file decodes whole, else -1 (why filled); the records out. */
static int
decode(const uint8_t *buf, size_t len, const struct fcr_state_expect *exp,
       struct fcr_state_info *info, struct fcr_state_binding **b,
       struct fcr_state_fcf **f, char *why)
{
	*b = NULL;
	*f = NULL;
	why[0] = '\0';
	if (fcr_state_header(buf, len, exp, info, why, 256) < 0)
		return -1;
	*b = malloc(sizeof(**b) * (info->nb_bindings + 1));
	*f = malloc(sizeof(**f) * (info->nb_fcfs + 1));
	assert_non_null(*b);
	assert_non_null(*f);
	return fcr_state_records(buf, len, exp, info, *b, *f, why, 256);
}

static void
crc_is_crc32c(void **state)
{
	(void)state;
	assert_int_equal(fcr_state_crc((const uint8_t *)"123456789", 9), 0xE3069283u);
}

static void
round_trip_of_many_bindings_and_fcfs(void **state)
{
	const uint32_t nb = 100000, nf = 40;
	struct fcr_state_binding *b;
	struct fcr_state_fcf *f;
	struct fcr_state_info info;
	char why[256];
	size_t len;
	uint8_t *buf = encode(nb, nf, &len);
	uint32_t i;

	(void)state;
	assert_int_equal(decode(buf, len, &expect, &info, &b, &f, why), 0);
	assert_int_equal(info.version, FCR_STATE_VERSION);
	assert_int_equal(info.nb_bindings, nb);
	assert_int_equal(info.nb_fcfs, nf);
	assert_int_equal(info.fka_ms, 8000);
	assert_int_equal(info.written, 1700000000);
	assert_string_equal(info.node, NODE);
	/* b comes back sorted by (VLAN, FCID): find each by its FCID */
	for (i = 0; i < nb; i++) {
		struct fcr_state_binding want = mkb(b[i].fcid - 0x010000);

		assert_true(b[i].fcid >= 0x010000 && b[i].fcid < 0x010000 + nb);
		assert_int_equal(b[i].wwpn, want.wwpn);
		assert_int_equal(b[i].vlan, want.vlan);
		assert_int_equal(b[i].vn, want.vn);
		assert_int_equal(b[i].enode, want.enode);
	}
	for (i = 0; i < nf; i++) {
		struct fcr_state_fcf want = mkf((uint16_t)(100 + i));

		assert_int_equal(f[i].vlan, want.vlan);
		assert_int_equal(f[i].map_known, want.map_known);
		assert_int_equal(f[i].fc_map, want.fc_map);
		assert_int_equal(f[i].name, want.name);
		assert_memory_equal(f[i].mac, want.mac, 6);
	}
	free(b);
	free(f);
	free(buf);
}

static void
every_truncation_and_every_flipped_bit_is_refused(void **state)
{
	struct fcr_state_binding *b;
	struct fcr_state_fcf *f;
	struct fcr_state_info info;
	char why[256];
	size_t len, n, bit;
	uint8_t *buf = encode(3, 2, &len);
	uint8_t *copy = malloc(len);

	(void)state;
	assert_non_null(copy);
	assert_int_equal(decode(buf, len, &expect, &info, &b, &f, why), 0);
	free(b);
	free(f);
	for (n = 0; n < len; n++) {
		/* a copy of exactly n bytes: a read past them is ASan's to see */
		uint8_t *cut = malloc(n ? n : 1);

		memcpy(cut, buf, n);
		assert_int_equal(decode(cut, n, &expect, &info, &b, &f, why), -1);
		assert_true(why[0] != '\0');
		free(b);
		free(f);
		free(cut);
	}
	for (n = 0; n < len; n++)
		for (bit = 0; bit < 8; bit++) {
			memcpy(copy, buf, len);
			copy[n] ^= (uint8_t)(1u << bit);
			assert_int_equal(decode(copy, len, &expect, &info, &b, &f, why), -1);
			assert_true(why[0] != '\0');
			free(b);
			free(f);
		}
	free(copy);
	free(buf);
}

/* One binding of a 2-binding file made bad by set(), the file's CRC
 * right: refused, the reason naming `says`. */
static void
refused_record(void (*set)(struct fcr_state_binding *b), const char *says)
{
	struct fcr_state_binding one = mkb(0), two = mkb(1), *b;
	struct fcr_state_fcf *f;
	struct fcr_state_info info;
	struct fcr_state_enc e;
	uint8_t buf[512];
	char why[256];
	size_t len;

	set(&two);
	assert_int_equal(fcr_state_begin(&e, buf, sizeof(buf), NODE, 1, 8000), 0);
	assert_int_equal(fcr_state_put_binding(&e, &one), 0);
	assert_int_equal(fcr_state_put_binding(&e, &two), 0);
	len = fcr_state_end(&e);
	assert_true(len > 0);
	assert_int_equal(decode(buf, len, &expect, &info, &b, &f, why), -1);
	if (strstr(why, says) == NULL)
		fail_msg("'%s' does not say '%s'", why, says);
	free(b);
	free(f);
}

static void set_fabric_port(struct fcr_state_binding *b) { b->vn = (b->vn & 0xFFFFFFFFFFFFull) | (uint64_t)FABRIC << 48; }
static void set_no_port(struct fcr_state_binding *b) { b->vn = (b->vn & 0xFFFFFFFFFFFFull) | 4ull << 48; }
static void set_multicast(struct fcr_state_binding *b) { b->vn |= 1ull << 40; }
static void set_zero_mac(struct fcr_state_binding *b) { b->vn &= ~0xFFFFFFFFFFFFull; }
static void set_flags(struct fcr_state_binding *b) { b->vn |= FCR_VN_LEAVING; }
static void set_wwpn0(struct fcr_state_binding *b) { b->wwpn = 0; }
static void set_fcid0(struct fcr_state_binding *b) { b->fcid = 0; }
static void set_fcid25(struct fcr_state_binding *b) { b->fcid = 0x1000000; }
static void set_vlan(struct fcr_state_binding *b) { b->vlan = 4096; }
static void set_enode_vlan(struct fcr_state_binding *b) { b->enode ^= 1ull << 48; }
static void set_dup_wwpn(struct fcr_state_binding *b) { b->wwpn = mkb(0).wwpn; b->vlan = mkb(0).vlan; b->enode = 0; }
static void set_dup_fcid(struct fcr_state_binding *b) { b->fcid = mkb(0).fcid; b->vlan = mkb(0).vlan; b->enode = 0; }
static void set_no_fcf(struct fcr_state_binding *b) { b->fcf = 1; }

static void
each_bad_record_is_refused(void **state)
{
	(void)state;
	refused_record(set_fabric_port, "is a fabric port");
	refused_record(set_no_port, "port 4 (this node has 4)");
	refused_record(set_multicast, "MAC multicast or zero");
	refused_record(set_zero_mac, "MAC multicast or zero");
	refused_record(set_flags, "flags in its source word");
	refused_record(set_wwpn0, "WWPN 0");
	refused_record(set_fcid0, "FCID 0x0");
	refused_record(set_fcid25, "FCID 0x1000000");
	refused_record(set_vlan, "VLAN 4096");
	refused_record(set_enode_vlan, "ENode key");
	refused_record(set_no_fcf, "FCF 1 (the file has 0)");
	refused_record(set_dup_wwpn, "two bindings of VLAN 100 WWPN 2100000000000000");
	refused_record(set_dup_fcid, "two bindings of VLAN 100 FCID 0x010000");
}

static void
another_node_version_or_size_is_refused(void **state)
{
	struct fcr_state_expect other = expect, small = expect;
	struct fcr_state_binding *b;
	struct fcr_state_fcf *f;
	struct fcr_state_info info;
	char why[256];
	size_t len;
	uint8_t *buf = encode(10, 1, &len);

	(void)state;
	other.node = "node-b ports net_pcap0,net_pcap1,net_pcap2,net_pcap3";
	assert_int_equal(decode(buf, len, &other, &info, &b, &f, why), -1);
	assert_non_null(strstr(why, "written by another node ('node-a"));
	small.max_bindings = 9;
	assert_int_equal(decode(buf, len, &small, &info, &b, &f, why), -1);
	assert_non_null(strstr(why, "10 bindings, more than this node's --max-bindings 9"));
	buf[8] = 4;
	assert_int_equal(decode(buf, len, &expect, &info, &b, &f, why), -1);
	assert_non_null(strstr(why, "format version 4, this program reads versions 1 to 3"));
	memcpy(buf, "FCRSTATX", 8);
	assert_int_equal(decode(buf, len, &expect, &info, &b, &f, why), -1);
	assert_non_null(strstr(why, "not a state file"));
	free(buf);
}

/* FCF records (version 3): several on a VLAN, one of them its own; a
 * binding names its FCF by record. A file whose FCF records or binding's
 * FCF contradict is refused; a version 2 file's FCFs are each its VLAN's
 * own, and a version 2 binding naming an FCF is no version 2 binding. */
static void restamp(uint8_t *buf, size_t len);

/* The file as a program of format version v (1 or 2) wrote it: no node
 * names after the paths; *len shrinks. */
static void
as_version(uint8_t *buf, size_t *len, uint32_t v)
{
	uint32_t nb = buf[24] | buf[25] << 8 | (uint32_t)buf[26] << 16 | (uint32_t)buf[27] << 24;
	uint64_t flen;

	*len -= (size_t)nb * FCR_STATE_NAME_LEN;
	buf[8] = (uint8_t)v;
	flen = *len;
	memcpy(buf + 40, &flen, 8); /* little-endian host */
	restamp(buf, *len);
}

static size_t
fcf_file(uint8_t *buf, size_t cap, const struct fcr_state_fcf *f, unsigned int nf,
	 uint16_t bind_fcf, uint16_t bind_vlan)
{
	struct fcr_state_binding one = mkb(0);
	struct fcr_state_enc e;
	unsigned int i;

	one.fcf = bind_fcf;
	one.vlan = bind_vlan;
	one.enode = 0;
	assert_int_equal(fcr_state_begin(&e, buf, cap, NODE, 1, 8000), 0);
	assert_int_equal(fcr_state_put_binding(&e, &one), 0);
	for (i = 0; i < nf; i++)
		assert_int_equal(fcr_state_put_fcf(&e, &f[i]), 0);
	return fcr_state_end(&e);
}

/* A file of one binding of VLAN 100 naming FCF record bind_fcf and the
 * FCFs f[0..nf): refused, the reason naming `says`. */
static void
fcf_file_refused(const struct fcr_state_fcf *f, unsigned int nf, uint16_t bind_fcf,
		 const char *says)
{
	struct fcr_state_binding *b;
	struct fcr_state_fcf *g;
	struct fcr_state_info info;
	uint8_t buf[512];
	char why[256];
	size_t len = fcf_file(buf, sizeof(buf), f, nf, bind_fcf, 100);

	assert_int_equal(decode(buf, len, &expect, &info, &b, &g, why), -1);
	if (strstr(why, says) == NULL)
		fail_msg("'%s' does not say '%s'", why, says);
	free(b);
	free(g);
}

static void
fcf_records_name_several_fcfs_of_a_vlan(void **state)
{
	struct fcr_state_fcf two[3] = { mkf(100), mkf(100), mkf(101) };
	struct fcr_state_binding *b;
	struct fcr_state_fcf *f;
	struct fcr_state_info info;
	uint8_t buf[512];
	char why[256];
	size_t len;

	(void)state;
	two[1].mac[5] = 0x42;
	two[1].current = 1;
	two[2].current = 1;
	len = fcf_file(buf, sizeof(buf), two, 3, 2, 100);
	assert_int_equal(decode(buf, len, &expect, &info, &b, &f, why), 0);
	assert_int_equal(info.nb_fcfs, 3);
	assert_true(f[0].current == 0 && f[1].current == 1 && f[1].mac[5] == 0x42);
	assert_int_equal(b[0].fcf, 2);
	free(b);
	free(f);

	/* the binding's FCF is of another VLAN; two of a VLAN's own; one FCF
	 * twice; flags other than 0 and 1 */
	fcf_file_refused(two, 3, 3, "binding 0: its FCF is of VLAN 101, it of VLAN 100");
	two[0].current = 1;
	fcf_file_refused(two, 3, 1, "FCF 1: a second FCF of VLAN 100's own");
	two[0].current = 0;
	two[1].mac[5] = two[0].mac[5];
	fcf_file_refused(two, 3, 1, "FCF 1: a second record of VLAN 100 FCF 0e:fc:00:ff:ff:64");
	two[1].mac[5] = 0x42;
	two[0].current = 2;
	fcf_file_refused(two, 3, 1, "FCF 0: VLAN, FC-MAP, MAC or reserved");

	/* version 2: one FCF a VLAN, its own; a binding names none */
	two[0].current = 0;
	len = fcf_file(buf, sizeof(buf), &two[0], 1, 0, 100);
	as_version(buf, &len, 2);
	assert_int_equal(decode(buf, len, &expect, &info, &b, &f, why), 0);
	assert_true(f[0].current == 1 && b[0].fcf == 0);
	free(b);
	free(f);
	len = fcf_file(buf, sizeof(buf), &two[0], 1, 1, 100);
	as_version(buf, &len, 2);
	assert_int_equal(decode(buf, len, &expect, &info, &b, &f, why), -1);
	assert_non_null(strstr(why, "binding 0: reserved bytes not zero"));
	free(b);
	free(f);
}

static void
an_encoder_without_room_says_so(void **state)
{
	struct fcr_state_binding one = mkb(0);
	struct fcr_state_fcf fc = mkf(1);
	struct fcr_state_enc e;
	uint8_t buf[FCR_STATE_HDR_LEN + sizeof(NODE) + FCR_STATE_BINDING_LEN + 2];

	(void)state;
	assert_int_equal(fcr_state_begin(&e, buf, sizeof(buf), "", 1, 0), -1);
	assert_int_equal(fcr_state_begin(&e, buf, sizeof(buf), NODE, 1, 0), 0);
	assert_int_equal(fcr_state_put_binding(&e, &one), 0);
	assert_int_equal(fcr_state_put_binding(&e, &one), -1);
	assert_int_equal(fcr_state_put_fcf(&e, &fc), -1);
	assert_int_equal(fcr_state_end(&e), 0);
}

/* Redirect paths (version 2): written after the FCFs, read back whole;
 * a version 1 file (none) is read too; a bad one refuses the file. */
static const struct fcr_state_path paths3[3] = {
	{ .host = 0x21, .target = 0x50, .vi = 0x2f1, .vt = 0x2f2, .vlan = 100 },
	{ .host = 0x22, .target = 0x50, .vi = 0x2f1, .vt = 0x2f2, .vlan = 100, .cutover = 1 },
	{ .host = 0x21, .target = 0x50, .vi = 0x2f3, .vt = 0x2f4, .vlan = 7 },
};

/* A file of 10 bindings, 1 FCF and the paths p[0..n), in *len bytes. */
static uint8_t *
encode_paths(const struct fcr_state_path *p, uint32_t n, size_t *len)
{
	size_t cap = fcr_state_size(10, 1, strlen(NODE)) + n * FCR_STATE_PATH_LEN +
		     10 * FCR_STATE_NAME_LEN;
	uint8_t *buf = malloc(cap);
	struct fcr_state_fcf f = mkf(100);
	struct fcr_state_enc e;
	uint32_t i;

	assert_non_null(buf);
	assert_int_equal(fcr_state_begin(&e, buf, cap, NODE, 1700000000, 8000), 0);
	for (i = 0; i < 10; i++) {
		struct fcr_state_binding b = mkb(i);

		assert_int_equal(fcr_state_put_binding(&e, &b), 0);
	}
	assert_int_equal(fcr_state_put_fcf(&e, &f), 0);
	for (i = 0; i < n; i++)
		assert_int_equal(fcr_state_put_path(&e, &p[i]), 0);
	/* in order: no binding or FCF after a path */
	if (n > 0)
		assert_int_equal(fcr_state_put_fcf(&e, &f), -1);
	*len = fcr_state_end(&e);
	assert_int_equal(*len, cap);
	return buf;
}

/* 0 when header, records and paths decode; the paths into p (16 at most). */
static int
decode_paths(const uint8_t *buf, size_t len, const struct fcr_state_expect *exp,
	     struct fcr_state_path *p, uint32_t *n, char *why)
{
	struct fcr_state_binding *b;
	struct fcr_state_fcf *f;
	struct fcr_state_info info;
	int rc = decode(buf, len, exp, &info, &b, &f, why);

	free(b);
	free(f);
	if (rc < 0)
		return -1;
	*n = info.nb_paths;
	return fcr_state_paths(buf, len, &info, p, why, 256);
}

static void
restamp(uint8_t *buf, size_t len)
{
	uint32_t crc = fcr_state_crc(buf, len - 4);

	memcpy(buf + len - 4, &crc, 4); /* little-endian host */
}

static void
paths_round_trip_and_bad_ones_are_refused(void **state)
{
	struct fcr_state_path p[16];
	struct fcr_state_expect few = expect;
	char why[256];
	size_t len, off;
	uint32_t n, i;
	uint8_t *buf = encode_paths(paths3, 3, &len);

	(void)state;
	assert_int_equal(buf[8], FCR_STATE_VERSION);
	assert_int_equal(decode_paths(buf, len, &expect, p, &n, why), 0);
	assert_int_equal(n, 3);
	/* sorted by (VLAN, host, target) */
	assert_true(p[0].vlan == 7 && p[0].vi == 0x2f3 && p[0].vt == 0x2f4 && !p[0].cutover);
	assert_true(p[1].host == 0x21 && p[1].target == 0x50 && !p[1].cutover);
	assert_true(p[2].host == 0x22 && p[2].cutover == 1);
	few.max_paths = 2;
	assert_int_equal(decode_paths(buf, len, &few, p, &n, why), -1);
	assert_non_null(strstr(why, "3 redirect paths, more than this node's --max-redirects 2"));
	/* each bad record refuses the whole file */
	off = len - 4 - 10 * FCR_STATE_NAME_LEN - 3 * FCR_STATE_PATH_LEN;
	for (i = 0; i < 4; i++) {
		uint8_t *bad = malloc(len);

		memcpy(bad, buf, len);
		switch (i) {
		case 0: memcpy(bad + off + 16, bad + off + 24, 8); break;  /* VI = VT */
		case 1: bad[off + 34] = 2; break;                          /* flags */
		case 2: bad[off + 32] = 0xff; bad[off + 33] = 0xff; break; /* VLAN */
		case 3: memcpy(bad + off + FCR_STATE_PATH_LEN, bad + off, 40); break; /* twice */
		}
		restamp(bad, len);
		assert_int_equal(decode_paths(bad, len, &expect, p, &n, why), -1);
		assert_non_null(strstr(why, i == 3 ? "two paths of VLAN 100" : "path 0: "));
		free(bad);
	}
	free(buf);
	/* a version 1 file: no paths, read as before */
	buf = encode_paths(NULL, 0, &len);
	as_version(buf, &len, 1);
	assert_int_equal(decode_paths(buf, len, &expect, p, &n, why), 0);
	assert_int_equal(n, 0);
	/* one that counts paths in its reserved bytes is not one */
	buf[36] = 1;
	restamp(buf, len);
	assert_int_equal(decode_paths(buf, len, &expect, p, &n, why), -1);
	free(buf);
}

/* ------------------------------------------------------------------ */
/* Restored into the tables */

#define VLAN 100
#define H 0x2100000000000001ull
#define T 0x5000000000000001ull
#define VI 0x2f00000000000001ull
#define VT 0x2f00000000000002ull

static struct fcr_tables *
mk(void)
{
	return tu_tables(1, 1u << FABRIC);
}

static uint64_t
enode_of(unsigned int i)
{
	uint8_t mac[6] = { 0x02, 0, 0, 0, 0, (uint8_t)(i + 1) };

	return fcr_enode_key(VLAN, mac);
}

static uint64_t
vn_of(uint32_t fcid, unsigned int port)
{
	uint8_t mac[6];

	fcr_fpma(mac, 0x0efc00, fcid);
	return fcr_vn_pack(mac, port);
}

static void
restored_bindings_activate_a_redirect_and_silent_enodes_time_out(void **state)
{
	const uint64_t tpm = 1000; /* ticks per ms */
	const uint64_t now = 1000000000;
	struct fcr_tables *t = mk();
	uint64_t gen0, k;
	uint8_t mac[6];
	int id;

	(void)state;
	id = fcr_redirect_add(t->redirects, VLAN, H, T, VI, VT);
	assert_true(id >= 0);
	assert_int_equal(t->redirects->r[id].state, FCR_RS_WAITING);
	gen0 = t->state_gen;
	t->fka_ms = 8000;
	assert_int_equal(fcr_tables_binding_restore(t, VLAN, H, 0x010001, vn_of(0x010001, 0),
						    enode_of(0), now, tpm), 0);
	assert_int_equal(fcr_tables_binding_restore(t, VLAN, T, 0x410001, vn_of(0x410001, 0),
						    enode_of(1), now, tpm), 0);
	assert_int_equal(fcr_tables_binding_restore(t, VLAN, VI, 0x810001, vn_of(0x810001, 1),
						    enode_of(2), now, tpm), 0);
	/* learned over ELS: no ENode, never timed out */
	assert_int_equal(fcr_tables_binding_restore(t, VLAN, VT, 0x810002, vn_of(0x810002, 1),
						    0, now, tpm), 0);
	assert_int_equal(t->redirects->r[id].state, FCR_RS_ACTIVE);
	assert_int_equal(t->bindings->nb_bound, 4);
	assert_int_equal(t->st.bindings_learned, 0); /* restored, not learned */
	assert_true(t->state_gen > gen0);
	/* the edge ports' check allows the VN_Port from its MAC on its port only */
	k = fcr_vn_key(VLAN, 0x010001);
	{
		uint64_t vn;

		fcr_vn_lookup_bulk(t->bindings, &k, 1, &vn);
		fcr_fpma(mac, 0x0efc00, 0x010001);
		assert_true(fcr_vn_allows(vn, mac, 0));
		assert_false(fcr_vn_allows(vn, mac, 1));
	}
	/* a static binding stands against a restored one */
	assert_int_equal(fcr_tables_binding_add(t, VLAN, 0x2100000000000099ull, 0x010099,
						FCR_BIND_STATIC), 0);
	assert_int_equal(fcr_tables_binding_restore(t, VLAN, 0x2100000000000099ull, 0x010098,
						    vn_of(0x010098, 0), 0, now, tpm), -EEXIST);
	/* stamped one period back: alive until 1.5 periods from now */
	assert_int_equal(fcr_tables_keepalive(t, now + 12000 * tpm - tpm, tpm), 0);
	assert_int_equal(t->bindings->nb_bound, 5);
	/* the host's ENode keeps alive; the target's and the VI's do not */
	fcr_enode_alive(t->enodes, enode_of(0), now + 11000 * tpm);
	assert_int_equal(fcr_tables_keepalive(t, now + 12000 * tpm + tpm, tpm), 2);
	assert_int_equal(t->st.keepalive_unbound, 2);
	assert_int_equal(t->bindings->nb_bound, 3); /* host, VT (ELS), the static one */
	assert_int_equal(t->redirects->r[id].state, FCR_RS_WAITING);
	fcr_tables_free(t);
}

static void
fcf_records_restore_the_vlans_fc_map(void **state)
{
	struct fcr_tables *t = mk();
	uint8_t mac[6] = { 0x0e, 0xfc, 0x00, 0xff, 0xff, 0xfe };
	uint64_t gen0 = t->state_gen;

	(void)state;
	fcr_tables_fcf_set(t, 7, mac, 0x10, 1, 0x0efc07);
	assert_int_equal(fcr_tables_fc_map(t, 7), 0x0efc07);
	assert_int_equal(fcr_tables_fc_map(t, 8), 0x0efc00);
	assert_true(t->fcf[7].known && t->fcf[7].map_known);
	assert_true(t->state_gen > gen0);
	gen0 = t->state_gen;
	fcr_tables_fcf_set(t, 7, mac, 0x10, 1, 0x0efc07); /* the same: no change */
	assert_int_equal(t->state_gen, gen0);
	fcr_tables_free(t);
}

/* The snapshot keeps what a login through this node taught (port, MAC,
 * ENode; a VN_Port told to log in again as logged in) and each VLAN's FCF;
 * not the operator's static bindings nor a peer's with no port here. Read
 * back into fresh tables it gives the same bindings. */
#define NB_SNAP 200 /* of the 256 bindings tu_tables holds */

static void
a_snapshot_keeps_the_learned_bindings_and_fcfs_alone(void **state)
{
	const uint64_t tpm = 1000, now = 1000000000;
	struct fcr_tables *t = mk(), *u = mk();
	uint8_t fcf[6] = { 0x0e, 0xfc, 0x00, 0xff, 0xff, 0xfe };
	struct fcr_state_binding *b = NULL;
	struct fcr_state_fcf *f = NULL;
	struct fcr_state_info info;
	uint8_t *buf = NULL;
	size_t cap = 0, len;
	char why[256];
	uint32_t i, n;

	(void)state;
	t->fka_ms = 8000;
	for (i = 0; i < NB_SNAP; i++)
		assert_int_equal(fcr_tables_binding_restore(t, VLAN, 0x2200000000000000ull | i,
							    0x010000 | i, vn_of(0x010000 | i, i % 3),
							    enode_of(i % 7), now, tpm), 0);
	assert_int_equal(fcr_tables_binding_add(t, VLAN, H, 0x020001, FCR_BIND_STATIC), 0);
	assert_int_equal(fcr_tables_binding_add(t, VLAN, T, 0x020002, FCR_BIND_LEARNED), 0);
	/* told to log in again (a cutover): kept as logged in */
	n = fcr_binding_get(t->bindings, VLAN, 0x2200000000000005ull, 0);
	t->bindings->entry[n].vn |= FCR_VN_LEAVING;
	fcr_tables_fcf_set(t, VLAN, fcf, 0x10000efc00fffffeull, 1, 0x0efc05);

	len = fcr_state_snapshot(t, NODE, 1700000000, &buf, &cap);
	assert_true(len > 0 && len <= cap);
	assert_int_equal(decode(buf, len, &expect, &info, &b, &f, why), 0);
	assert_int_equal(info.nb_bindings, NB_SNAP);
	assert_int_equal(info.nb_fcfs, 1);
	assert_int_equal(info.fka_ms, 8000);
	assert_int_equal(f[0].vlan, VLAN);
	assert_int_equal(f[0].fc_map, 0x0efc05);
	for (i = 0; i < info.nb_bindings; i++) {
		uint32_t k = b[i].fcid & 0xFFFF;

		assert_true(b[i].wwpn == (0x2200000000000000ull | k));
		assert_true(b[i].vn == vn_of(b[i].fcid, k % 3));
		assert_true(b[i].enode == enode_of(k % 7));
		assert_int_equal(fcr_tables_binding_restore(u, b[i].vlan, b[i].wwpn, b[i].fcid,
							    b[i].vn, b[i].enode, now, tpm), 0);
	}
	assert_int_equal(u->bindings->nb_bound, NB_SNAP);
	/* a second snapshot into the same buffer: no growth, same bytes but the time */
	assert_int_equal(fcr_state_snapshot(t, NODE, 1700000000, &buf, &cap), len);
	free(b);
	free(f);
	free(buf);
	fcr_tables_free(t);
	fcr_tables_free(u);
}

/* Two FCFs on a VLAN: each binding keeps the FCF that accepted its login
 * across a snapshot and a restore into tables whose registry gives the
 * FCFs other slots; the VLAN's own FCF stays its last advertiser. Each
 * binding keeps its node name (0 where none was known). */
static void
a_bindings_fcf_survives_a_snapshot_and_a_restore(void **state)
{
	static const uint8_t a[6] = { 0x0e, 0xfc, 0x00, 0, 0, 0xa }, bm[6] = { 0x0e, 0xfc, 0x00, 0, 0, 0xb };
	static const uint8_t other[6] = { 0x0e, 0xfc, 0x00, 0, 0, 0xc };
	struct fcr_tables *t = mk(), *u = mk();
	const uint64_t tpm = 1000, now = 1000000000;
	struct fcr_state_binding *b;
	struct fcr_state_fcf *f;
	struct fcr_state_info info;
	uint8_t *buf = NULL, mac[6];
	size_t cap = 0, len;
	char why[256];
	int sa, sb;
	uint32_t i;

	(void)state;
	fcr_tables_fcf_set(t, VLAN, a, 0x10000000000000aull, 1, 0x0efc00);
	sa = fcr_tables_fcf_register(t, VLAN, fcr_vn_pack(a, 0), 0x10000000000000aull);
	fcr_tables_fcf_set(t, VLAN, bm, 0x10000000000000bull, 1, 0x0efc00);
	sb = fcr_tables_fcf_register(t, VLAN, fcr_vn_pack(bm, 0), 0x10000000000000bull);
	assert_true(sa == 0 && sb == 1);
	for (i = 0; i < 4; i++)
		assert_int_equal(fcr_tables_binding_restore(t, VLAN, 0x2200000000000000ull | i,
			0x010000 | i, vn_of(0x010000 | i, 0) |
			(uint64_t)((i & 1 ? sb : sa) + 1) << FCR_VN_FCF_SHIFT, enode_of(i), now, tpm), 0);
	for (i = 1; i < 4; i++)
		fcr_tables_binding_node(t, VLAN, 0x2200000000000000ull | i, 0x1200000000000000ull | i, 0);
	len = fcr_state_snapshot(t, NODE, 1700000000, &buf, &cap);
	assert_true(len > 0);
	assert_int_equal(decode(buf, len, &expect, &info, &b, &f, why), 0);
	assert_int_equal(info.nb_fcfs, 2);
	assert_true(f[0].current == 0 && f[1].current == 1);

	/* another node's registry: C first, so A and B take slots 1 and 2 */
	assert_int_equal(fcr_tables_fcf_register(u, VLAN, fcr_vn_pack(other, 0), 1), 0);
	u->fka_ms = info.fka_ms;
	assert_int_equal(fcr_state_restore(u, b, info.nb_bindings, f, info.nb_fcfs, now, tpm), 4);
	for (i = 0; i < 4; i++) {
		uint32_t n = fcr_binding_get(u->bindings, VLAN, 0x2200000000000000ull | i, 0);

		assert_true(n != FCR_BINDING_NONE);
		assert_int_equal(fcr_tables_vn_fcf_mac(u, u->bindings->entry[n].vn, mac), 0);
		assert_memory_equal(mac, i & 1 ? bm : a, 6);
		assert_int_equal(fcr_vn_fcf(u->bindings->entry[n].vn), i & 1 ? 3 : 2);
		assert_true(u->bindings->entry[n].wwnn == (i == 0 ? 0 : 0x1200000000000000ull | i));
	}
	assert_memory_equal(u->fcf[VLAN].mac, bm, 6);
	free(b);
	free(f);
	free(buf);
	fcr_tables_free(t);
	fcr_tables_free(u);
}

/* What the cutover's notes say: how many pairs' paths changed. */
static void
count_cutovers(void *ctx, const struct fcr_note *n)
{
	if (n->kind == FCR_NOTE_CUTOVER)
		(*(unsigned int *)ctx)++;
}

/* The four ports restored as learned through edge ports, over FIP. */
static void
restore4(struct fcr_tables *t)
{
	const uint64_t tpm = 1000, now = 1000000000;
	const uint64_t w[4] = { H, T, VI, VT };
	const uint32_t f[4] = { 0x010001, 0x410001, 0x810001, 0x810002 };
	int i;

	for (i = 0; i < 4; i++)
		assert_int_equal(fcr_tables_binding_restore(t, VLAN, w[i], f[i], vn_of(f[i], i % 3),
							    enode_of((unsigned int)i), now, tpm), 0);
}

/* A restart (docs/restart.md): a redirect restored with its pair's path
 * is active before the configuration is read, and the configuration naming
 * it again changes nothing (no cutover: the ends' open exchanges began on
 * this path). One that was in a cutover begins one again when forwarding
 * starts; one the configuration no longer names is removed through a
 * cutover then; another VI/VT is an ordinary change. The snapshot writes
 * each active or cutting-over redirect's path, and its generation moves
 * when a path does. */
static void
a_restored_path_needs_no_cutover_unless_it_changed(void **state)
{
	unsigned int cuts = 0, kept, recut, removed, i;
	struct fcr_tables *t;
	int id;

	(void)state;
	for (i = 0; i < 4; i++) {
		t = mk();
		restore4(t);
		t->note_hook = (struct fcr_note_hook){ .fn = count_cutovers, .ctx = &cuts };
		cuts = 0;
		id = fcr_redirect_restore(t->redirects, VLAN, H, T, VI, VT, i == 1);
		assert_true(id >= 0);
		assert_int_equal(t->redirects->r[id].state, FCR_RS_ACTIVE);
		assert_int_equal(cuts, 0);
		assert_int_equal(fcr_redirect_restore(t->redirects, VLAN, H, T, VI, VT, 0), -EEXIST);
		if (i == 0 || i == 1) /* the configuration names it again */
			assert_int_equal(fcr_redirect_add(t->redirects, VLAN, H, T, VI, VT), id);
		if (i == 3) { /* with another VT: a cutover at once */
			assert_true(fcr_tables_binding_add(t, VLAN, 0x2f00000000000003ull, 0x810003,
							   FCR_BIND_STATIC) == 0);
			assert_int_equal(fcr_redirect_add(t->redirects, VLAN, H, T, VI,
							  0x2f00000000000003ull), id);
			assert_int_equal(cuts, 1);
		}
		fcr_redirect_settle_restored(t->redirects, &kept, &recut, &removed);
		switch (i) {
		case 0: /* the same path: nothing */
			assert_true(kept == 1 && recut == 0 && removed == 0 && cuts == 0);
			assert_int_equal(t->redirects->r[id].state, FCR_RS_ACTIVE);
			break;
		case 1: /* it was in a cutover: one again */
			assert_true(kept == 0 && recut == 1 && removed == 0 && cuts == 1);
			break;
		case 2: /* no longer configured: removed through a cutover */
			assert_true(kept == 0 && recut == 0 && removed == 1 && cuts == 1);
			assert_int_equal(fcr_redirect_find(t->redirects, VLAN, H, T), -ENOENT);
			break;
		case 3: /* changed by the configuration: settled already */
			assert_true(kept == 0 && recut == 0 && removed == 0 && cuts == 1);
			break;
		}
		/* settled once: a later add or del is the operator's own */
		fcr_redirect_settle_restored(t->redirects, &kept, &recut, &removed);
		assert_true(kept + recut + removed == 0);
		fcr_tables_free(t);
	}
}

static void
a_snapshot_writes_the_paths_of_active_redirects(void **state)
{
	struct fcr_tables *t = mk();
	struct fcr_state_path p[16];
	struct fcr_state_expect exp = expect;
	uint8_t *buf = NULL;
	size_t cap = 0, len;
	char why[256];
	uint64_t gen;
	uint32_t n;
	int id;

	(void)state;
	exp.nb_ports = 4;
	id = fcr_redirect_add(t->redirects, VLAN, H, T, VI, VT);
	assert_true(id >= 0);
	/* waiting: no path of its own yet */
	len = fcr_state_snapshot(t, NODE, 1700000000, &buf, &cap);
	assert_int_equal(decode_paths(buf, len, &exp, p, &n, why), 0);
	assert_int_equal(n, 0);
	gen = fcr_tables_state_gen(t);
	restore4(t);
	assert_int_equal(t->redirects->r[id].state, FCR_RS_ACTIVE);
	assert_true(fcr_tables_state_gen(t) > gen);
	len = fcr_state_snapshot(t, NODE, 1700000000, &buf, &cap);
	assert_int_equal(decode_paths(buf, len, &exp, p, &n, why), 0);
	assert_int_equal(n, 1);
	assert_true(p[0].vlan == VLAN && p[0].host == H && p[0].target == T && p[0].vi == VI &&
		    p[0].vt == VT && p[0].cutover == 0);
	/* removed: no path */
	gen = fcr_tables_state_gen(t);
	assert_int_equal(fcr_redirect_del(t->redirects, VLAN, H, T), 0);
	assert_true(fcr_tables_state_gen(t) > gen);
	len = fcr_state_snapshot(t, NODE, 1700000000, &buf, &cap);
	assert_int_equal(decode_paths(buf, len, &exp, p, &n, why), 0);
	assert_int_equal(n, 0);
	free(buf);
	fcr_tables_free(t);
}

static int
setup(void **state)
{
	(void)state;
	return tu_eal_init("test_state", "256", "0");
}

static int
teardown(void **state)
{
	(void)state;
	rte_eal_cleanup();
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(crc_is_crc32c),
		cmocka_unit_test(round_trip_of_many_bindings_and_fcfs),
		cmocka_unit_test(every_truncation_and_every_flipped_bit_is_refused),
		cmocka_unit_test(each_bad_record_is_refused),
		cmocka_unit_test(another_node_version_or_size_is_refused),
		cmocka_unit_test(fcf_records_name_several_fcfs_of_a_vlan),
		cmocka_unit_test(a_bindings_fcf_survives_a_snapshot_and_a_restore),
		cmocka_unit_test(an_encoder_without_room_says_so),
		cmocka_unit_test(restored_bindings_activate_a_redirect_and_silent_enodes_time_out),
		cmocka_unit_test(fcf_records_restore_the_vlans_fc_map),
		cmocka_unit_test(a_snapshot_keeps_the_learned_bindings_and_fcfs_alone),
		cmocka_unit_test(paths_round_trip_and_bad_ones_are_refused),
		cmocka_unit_test(a_restored_path_needs_no_cutover_unless_it_changed),
		cmocka_unit_test(a_snapshot_writes_the_paths_of_active_redirects),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
