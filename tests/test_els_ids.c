/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Identities inside ELS payloads on a redirect leg: each field that names
 * the old N_Port names the new one, nothing else changes, and what is not
 * read is told apart from what names nobody.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "fcr_build.h"
#include "fcr_els_ids.h"
#include "fcr_fcoe.h"

#define OLD_ID 0x810002u
#define NEW_ID 0x410001u
#define OLD_WWPN 0x2f00000000000002ull
#define NEW_WWPN 0x5000000000000001ull

static const struct fcr_els_subst sub = {
	.fcid_old = OLD_ID, .fcid_new = NEW_ID,
	.wwpn_old = OLD_WWPN, .wwpn_new = NEW_WWPN,
};

/* Rewrite pl and check that exactly the fields at off[] (3-byte N_Port
 * IDs, or 8-byte names when the size is 8) changed to the new values. */
static void
expect(uint8_t *pl, uint32_t len, uint8_t r_ctl, enum fcr_els_shape shape,
       const uint32_t *off, const uint8_t *size, unsigned int n)
{
	uint8_t before[256];
	unsigned int changed, i;
	uint32_t b;

	memcpy(before, pl, len);
	assert_int_equal(fcr_els_ids_rewrite(pl, len, r_ctl, &sub, &changed), shape);
	assert_int_equal(changed, n);
	for (i = 0; i < n; i++) {
		if (size[i] == 8)
			assert_true(fcr_get_be64(pl + off[i]) == NEW_WWPN);
		else
			assert_int_equal(fcr_get_be24(pl + off[i]), NEW_ID);
		memcpy(pl + off[i], before + off[i], size[i]);
	}
	for (b = 0; b < len; b++)
		assert_int_equal(pl[b], before[b]);
}

static void
plogi_and_its_accept_name_the_new_port(void **state)
{
	uint8_t pl[FCR_ELS_SPARM_LEN];
	const uint32_t off[] = { 20 };
	const uint8_t size[] = { 8 };

	(void)state;
	fcr_els_sparm(pl, FCR_ELS_PLOGI, OLD_WWPN, OLD_WWPN + 1);
	expect(pl, sizeof(pl), FCR_RCTL_ELS_REQ, FCR_ELS_IDS, off, size, 1);
	fcr_els_sparm(pl, FCR_ELS_LS_ACC, OLD_WWPN, OLD_WWPN + 1);
	expect(pl, sizeof(pl), FCR_RCTL_ELS_REP, FCR_ELS_IDS, off, size, 1);
	/* another port's PLOGI: not this leg's name, left alone */
	fcr_els_sparm(pl, FCR_ELS_PLOGI, 0x2100000000000009ull, 1);
	expect(pl, sizeof(pl), FCR_RCTL_ELS_REQ, FCR_ELS_IDS, off, size, 0);
}

static void
adisc_and_its_accept_name_the_new_port(void **state)
{
	uint8_t pl[28] = { 0x52 };
	const uint32_t off[] = { 8, 25 };
	const uint8_t size[] = { 8, 3 };

	(void)state;
	fcr_put_be64(pl + 8, OLD_WWPN);
	fcr_put_be64(pl + 16, OLD_WWPN + 1);   /* node name: kept */
	fcr_put_be24(pl + 25, OLD_ID);
	expect(pl, sizeof(pl), FCR_RCTL_ELS_REQ, FCR_ELS_IDS, off, size, 2);
	pl[0] = FCR_ELS_LS_ACC;
	expect(pl, sizeof(pl), FCR_RCTL_ELS_REP, FCR_ELS_IDS, off, size, 2);
}

/* With both ports' node names known, the node name beside a port name
 * rewritten is rewritten too (PLOGI, PDISC, ADISC and their accepts): the
 * receiver sees one node, the member the header names. A node name beside
 * another port's name, or one not the old port's, stays; so does every
 * node name while either is not known. */
static void
node_names_follow_the_port_name(void **state)
{
	const uint64_t old_nn = 0x1f00000000000002ull, new_nn = 0x1000000000000001ull;
	struct fcr_els_subst s = sub;
	uint8_t pl[FCR_ELS_SPARM_LEN], ad[28] = { 0x52 };
	unsigned int n;

	(void)state;
	s.wwnn_old = old_nn;
	s.wwnn_new = new_nn;
	fcr_els_sparm(pl, FCR_ELS_PLOGI, OLD_WWPN, old_nn);
	assert_int_equal(fcr_els_ids_rewrite(pl, sizeof(pl), FCR_RCTL_ELS_REQ, &s, &n), FCR_ELS_IDS);
	assert_true(n == 2 && fcr_get_be64(pl + 20) == NEW_WWPN && fcr_get_be64(pl + 28) == new_nn);
	fcr_els_sparm(pl, FCR_ELS_LS_ACC, OLD_WWPN, old_nn);
	assert_int_equal(fcr_els_ids_rewrite(pl, sizeof(pl), FCR_RCTL_ELS_REP, &s, &n), FCR_ELS_IDS);
	assert_true(n == 2 && fcr_get_be64(pl + 28) == new_nn);
	fcr_put_be64(ad + 8, OLD_WWPN);
	fcr_put_be64(ad + 16, old_nn);
	fcr_put_be24(ad + 25, OLD_ID);
	assert_int_equal(fcr_els_ids_rewrite(ad, sizeof(ad), FCR_RCTL_ELS_REQ, &s, &n), FCR_ELS_IDS);
	assert_true(n == 3 && fcr_get_be64(ad + 16) == new_nn);
	fcr_put_be64(ad + 8, OLD_WWPN);
	fcr_put_be64(ad + 16, old_nn);
	fcr_put_be24(ad + 25, OLD_ID);
	ad[0] = FCR_ELS_LS_ACC;
	assert_int_equal(fcr_els_ids_rewrite(ad, sizeof(ad), FCR_RCTL_ELS_REP, &s, &n), FCR_ELS_IDS);
	assert_true(n == 3 && fcr_get_be64(ad + 16) == new_nn);
	/* another port's PLOGI with the old node name: left alone */
	fcr_els_sparm(pl, FCR_ELS_PLOGI, 0x2100000000000009ull, old_nn);
	assert_int_equal(fcr_els_ids_rewrite(pl, sizeof(pl), FCR_RCTL_ELS_REQ, &s, &n), FCR_ELS_IDS);
	assert_true(n == 0 && fcr_get_be64(pl + 28) == old_nn);
	/* the port's, with another node name than its login gave: kept */
	fcr_els_sparm(pl, FCR_ELS_PLOGI, OLD_WWPN, 0x1f00000000000009ull);
	assert_int_equal(fcr_els_ids_rewrite(pl, sizeof(pl), FCR_RCTL_ELS_REQ, &s, &n), FCR_ELS_IDS);
	assert_true(n == 1 && fcr_get_be64(pl + 28) == 0x1f00000000000009ull);
	/* the new port's node name not known: the old one stays */
	s.wwnn_new = 0;
	fcr_els_sparm(pl, FCR_ELS_PLOGI, OLD_WWPN, old_nn);
	assert_int_equal(fcr_els_ids_rewrite(pl, sizeof(pl), FCR_RCTL_ELS_REQ, &s, &n), FCR_ELS_IDS);
	assert_true(n == 1 && fcr_get_be64(pl + 28) == old_nn);
}

/* An RLS accept is 28 bytes too: counters where an ADISC accept has the
 * port name; even a counter equal to the old N_Port ID is left alone. */
static void
a_28_byte_accept_without_the_port_name_is_left_alone(void **state)
{
	uint8_t pl[28] = { FCR_ELS_LS_ACC };

	(void)state;
	fcr_put_be24(pl + 25, OLD_ID);
	expect(pl, sizeof(pl), FCR_RCTL_ELS_REP, FCR_ELS_IDS, NULL, NULL, 0);
}

static void
logo_rrq_rec_and_rls_name_the_new_n_port(void **state)
{
	uint8_t logo[FCR_ELS_LOGO_LEN] = { FCR_ELS_LOGO }, rrq[12] = { 0x12 },
		rec[12] = { 0x13 }, rls[8] = { 0x0F }, acc[24] = { FCR_ELS_LS_ACC };
	const uint32_t off_logo[] = { 5, 8 }, off_5[] = { 5 }, off_acc[] = { 9, 13 };
	const uint8_t size_logo[] = { 3, 8 }, size_3[] = { 3 }, size_acc[] = { 3, 3 };

	(void)state;
	fcr_put_be24(logo + 5, OLD_ID);
	fcr_put_be64(logo + 8, OLD_WWPN);
	expect(logo, sizeof(logo), FCR_RCTL_ELS_REQ, FCR_ELS_IDS, off_logo, size_logo, 2);
	fcr_put_be24(rrq + 5, OLD_ID);
	expect(rrq, sizeof(rrq), FCR_RCTL_ELS_REQ, FCR_ELS_IDS, off_5, size_3, 1);
	fcr_put_be24(rec + 5, OLD_ID);
	expect(rec, sizeof(rec), FCR_RCTL_ELS_REQ, FCR_ELS_IDS, off_5, size_3, 1);
	fcr_put_be24(rls + 5, OLD_ID);
	expect(rls, sizeof(rls), FCR_RCTL_ELS_REQ, FCR_ELS_IDS, off_5, size_3, 1);
	/* REC accept: originator and responder */
	fcr_put_be24(acc + 9, OLD_ID);
	fcr_put_be24(acc + 13, OLD_ID);
	expect(acc, sizeof(acc), FCR_RCTL_ELS_REP, FCR_ELS_IDS, off_acc, size_acc, 2);
}

/* FARP-REQ and FARP-REPLY (both requests) name the requester and the
 * responder by N_Port ID and by port and node name. */
static void
farp_names_the_new_port(void **state)
{
	const uint32_t off[] = { 5, 12 }, off_resp[] = { 9, 28 };
	const uint8_t size[] = { 3, 8 };
	uint8_t pl[76] = { 0x54 };

	(void)state;
	fcr_put_be24(pl + 5, OLD_ID);
	fcr_put_be24(pl + 9, 0x010203);
	fcr_put_be64(pl + 12, OLD_WWPN);
	fcr_put_be64(pl + 20, OLD_WWPN + 1);
	fcr_put_be64(pl + 28, 0x2100000000000009ull);
	expect(pl, sizeof(pl), FCR_RCTL_ELS_REQ, FCR_ELS_IDS, off, size, 2);
	/* the reply: the old port is the responder now */
	memset(pl, 0, sizeof(pl));
	pl[0] = 0x55;
	fcr_put_be24(pl + 5, 0x010203);
	fcr_put_be24(pl + 9, OLD_ID);
	fcr_put_be64(pl + 28, OLD_WWPN);
	expect(pl, sizeof(pl), FCR_RCTL_ELS_REQ, FCR_ELS_IDS, off_resp, size, 2);
	/* node names beside the port names rewritten, when both are known */
	{
		struct fcr_els_subst s = sub;
		unsigned int n;

		s.wwnn_old = 0x1f00000000000002ull;
		s.wwnn_new = 0x1000000000000001ull;
		fcr_put_be64(pl + 36, s.wwnn_old);
		assert_int_equal(fcr_els_ids_rewrite(pl, sizeof(pl), FCR_RCTL_ELS_REQ, &s, &n),
				 FCR_ELS_IDS);
		assert_true(n == 3 && fcr_get_be64(pl + 36) == s.wwnn_new);
	}
}

/* RNID's accept carries the port's names as its common identification
 * data (port name at 8, node name at 16), with or without the topology
 * discovery data after them. */
static void
rnid_accept_names_the_new_port(void **state)
{
	const uint64_t old_nn = 0x1f00000000000002ull, new_nn = 0x1000000000000001ull;
	const uint32_t off[] = { 8 };
	const uint8_t size[] = { 8 };
	struct fcr_els_subst s = sub;
	uint8_t pl[76] = { FCR_ELS_LS_ACC, 0, 0, 0, 0xdf, 16, 0, 52 };
	unsigned int n;

	(void)state;
	fcr_put_be64(pl + 8, OLD_WWPN);
	fcr_put_be64(pl + 16, old_nn);
	expect(pl, sizeof(pl), FCR_RCTL_ELS_REP, FCR_ELS_IDS, off, size, 1);
	pl[4] = 0;
	pl[7] = 0;
	expect(pl, 24, FCR_RCTL_ELS_REP, FCR_ELS_IDS, off, size, 1);
	s.wwnn_old = old_nn;
	s.wwnn_new = new_nn;
	assert_int_equal(fcr_els_ids_rewrite(pl, 24, FCR_RCTL_ELS_REP, &s, &n), FCR_ELS_IDS);
	assert_true(n == 2 && fcr_get_be64(pl + 8) == NEW_WWPN && fcr_get_be64(pl + 16) == new_nn);
	/* a 24-byte REC accept is still read as one */
	{
		uint8_t rec[24] = { FCR_ELS_LS_ACC, 0, 0, 0, 0x12, 0x10 };
		const uint32_t off_rec[] = { 9, 13 };
		const uint8_t size_rec[] = { 3, 3 };

		fcr_put_be24(rec + 9, OLD_ID);
		fcr_put_be24(rec + 13, OLD_ID);
		expect(rec, sizeof(rec), FCR_RCTL_ELS_REP, FCR_ELS_IDS, off_rec, size_rec, 2);
	}
}

/* TPRLO's pages name a third party originator where their flag says so;
 * its accept's pages too. A PRLI accept's service parameters sit where
 * the N_Port ID would be and are never one. */
static void
tprlo_names_the_new_third_party(void **state)
{
	uint8_t pl[36] = { 0x24, 16, 0, 36 }, prli_acc[20] = { FCR_ELS_LS_ACC, 16, 0, 20 };
	const uint32_t off[] = { 4 + 13 }, off2[] = { 20 + 13 };
	const uint8_t size[] = { 3 };

	(void)state;
	pl[4] = 0x08;
	pl[4 + 2] = 0x20;
	fcr_put_be24(pl + 4 + 13, OLD_ID);
	pl[20] = 0x08;
	fcr_put_be24(pl + 20 + 13, OLD_ID);    /* not flagged valid: kept */
	expect(pl, sizeof(pl), FCR_RCTL_ELS_REQ, FCR_ELS_IDS, off, size, 1);
	pl[20 + 2] = 0x20;
	pl[4 + 2] = 0;
	expect(pl, sizeof(pl), FCR_RCTL_ELS_REQ, FCR_ELS_IDS, off2, size, 1);
	/* the payload length bounds the pages read */
	pl[3] = 20;
	expect(pl, sizeof(pl), FCR_RCTL_ELS_REQ, FCR_ELS_IDS, NULL, NULL, 0);
	pl[3] = 36;
	pl[0] = FCR_ELS_LS_ACC;
	expect(pl, sizeof(pl), FCR_RCTL_ELS_REP, FCR_ELS_IDS, off2, size, 1);
	/* a TPRLO whose page length is not 16: not read */
	pl[0] = 0x24;
	pl[1] = 20;
	expect(pl, sizeof(pl), FCR_RCTL_ELS_REQ, FCR_ELS_UNKNOWN, NULL, NULL, 0);
	prli_acc[4] = 0x08;
	prli_acc[6] = 0x21;
	fcr_put_be32(prli_acc + 16, 0x12);
	expect(prli_acc, sizeof(prli_acc), FCR_RCTL_ELS_REP, FCR_ELS_IDS, NULL, NULL, 0);
}

static void
what_names_nobody_and_what_is_not_read_are_told_apart(void **state)
{
	uint8_t prli[20] = { FCR_ELS_PRLI }, rjt[8] = { FCR_ELS_LS_RJT },
		acc[4] = { FCR_ELS_LS_ACC }, rnid[8] = { 0x78 }, rpl[16] = { 0x57 },
		tiny[2] = { 0x52 };
	unsigned int changed;

	(void)state;
	expect(prli, sizeof(prli), FCR_RCTL_ELS_REQ, FCR_ELS_NO_IDS, NULL, NULL, 0);
	expect(rjt, sizeof(rjt), FCR_RCTL_ELS_REP, FCR_ELS_NO_IDS, NULL, NULL, 0);
	expect(acc, sizeof(acc), FCR_RCTL_ELS_REP, FCR_ELS_NO_IDS, NULL, NULL, 0);
	/* an RNID request asks, naming nobody; an RPL is not read */
	fcr_put_be24(rnid + 5, OLD_ID);
	expect(rnid, sizeof(rnid), FCR_RCTL_ELS_REQ, FCR_ELS_NO_IDS, NULL, NULL, 0);
	fcr_put_be24(rpl + 5, OLD_ID);
	expect(rpl, sizeof(rpl), FCR_RCTL_ELS_REQ, FCR_ELS_UNKNOWN, NULL, NULL, 0);
	assert_int_equal(fcr_els_ids_rewrite(tiny, sizeof(tiny), FCR_RCTL_ELS_REQ, &sub,
					     &changed), FCR_ELS_UNKNOWN);
	/* a truncated ADISC: nothing past its end is touched */
	{
		uint8_t adisc[12] = { 0x52 };

		fcr_put_be64(adisc + 8 - 4, OLD_WWPN >> 32);
		expect(adisc, sizeof(adisc), FCR_RCTL_ELS_REQ, FCR_ELS_IDS, NULL, NULL, 0);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(plogi_and_its_accept_name_the_new_port),
		cmocka_unit_test(adisc_and_its_accept_name_the_new_port),
		cmocka_unit_test(node_names_follow_the_port_name),
		cmocka_unit_test(a_28_byte_accept_without_the_port_name_is_left_alone),
		cmocka_unit_test(logo_rrq_rec_and_rls_name_the_new_n_port),
		cmocka_unit_test(farp_names_the_new_port),
		cmocka_unit_test(rnid_accept_names_the_new_port),
		cmocka_unit_test(tprlo_names_the_new_third_party),
		cmocka_unit_test(what_names_nobody_and_what_is_not_read_are_told_apart),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
