/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Fuzz target "pipeline": the whole worker decision (fcr_pipeline_burst)
 * on real mbufs, bursts of redirect legs, plain traffic, logins, FIP and
 * other EtherTypes, mutated, chained, their tags stripped; its events then
 * applied by the tables lcore. Every frame must get the one outcome a model
 * of the worker works out before the burst (rx == tx + drops), a sent frame
 * change only in its MACs, IDs and CRC (a bad CRC staying exactly as bad),
 * every login be reported, and the tables' views agree after each burst.
 *
 * One input is one burst: a byte naming the port it came in on (modulo
 * PL_PORTS), then each frame as FZ_RX_LEN bytes of how it arrives, its
 * length (2 bytes, big endian) and its bytes. The tables live on from burst
 * to burst, as a worker's do.
 */
#include <stddef.h>
#include <string.h>

#include <rte_mbuf.h>

#include "fcr_build.h"
#include "fcr_frame.h"
#include "fcr_login.h"
#include "fcr_els_ids.h"
#include "fcr_pipeline.h"
#include "fcr_tables.h"
#include "fuzz.h"
#include "fuzz_input.h"
#include "fuzz_tables.h"

#define PL_VLAN 100
#define PL_H 0x2100000000000001ull
#define PL_T 0x5000000000000001ull
#define PL_VI 0x2f00000000000001ull
#define PL_VT 0x2f00000000000002ull
#define PL_FH 0x010001u
#define PL_FT 0x410001u
#define PL_FVI 0x810001u
#define PL_FVT 0x810002u
#define PL_PORTS 3

static const uint8_t pl_port_mac[PL_PORTS][6] = {
	{ 2, 0, 0, 0, 0, 0 }, { 2, 0, 0, 0, 0, 1 }, { 2, 0, 0, 0, 0, 2 },
};
static const uint8_t pl_sn_mac[6] = { 0x02, 0x5e, 0x00, 0x00, 0x00, 0x99 };
static const uint16_t pl_passthrough[4] = { 1, 0, 3, 2 }; /* port 2's is none */
#define PL_MAX_SEGS 4
/* The fuzzed pipeline's fabric port: bursts on the other ports are checked
 * against the VN_Port table. */
#define PL_FABRIC_MASK (1u << 0)
/* Its series port: an edge port that takes frames with the mark too. */
#define PL_SERIES_MASK (1u << 2)

static struct rte_mempool *pl_mp;
static struct fcr_tables *pl_t;
static struct fcr_pipeline pl_worker;
static uint64_t pl_now = 1;

/* what the bursts were, for the report */
static struct {
	long bursts, frames, sent, split, stripped, logins, series;
} tally;

static struct fcr_tables *
pipeline_tables(void)
{
	struct fcr_tables_params p = {
		.max_flows = 512, .max_routes = 16, .max_bindings = 64,
		.max_redirects = 16, .nb_workers = 1, .socket = 0,
	};
	struct fcr_tables *t = fcr_tables_create("fzpl", &p);

	assert_non_null(t);
	assert_int_equal(fcr_route_add(t->routes, FCR_VLAN_ANY, 0x010000, 8, 0, NULL), 0);
	assert_int_equal(fcr_route_add(t->routes, FCR_VLAN_ANY, 0x410000, 8, 1, NULL), 0);
	assert_int_equal(fcr_route_add(t->routes, FCR_VLAN_ANY, 0x810000, 8, 2, pl_sn_mac), 0);
	assert_int_equal(fcr_route_add(t->routes, FCR_VLAN_ANY, 0x610000, 8, 7, NULL), 0);
	assert_int_equal(fcr_route_add(t->routes, FCR_VLAN_ANY, 0xFFFFFE, 24, 1, pl_sn_mac), 0);
	/* the frames' VLAN has routes of its own: the targets' domain goes
	 * elsewhere, one host has a route of its own; the rest fall back */
	assert_int_equal(fcr_route_add(t->routes, PL_VLAN, 0x410000, 8, 0, pl_sn_mac), 0);
	assert_int_equal(fcr_route_add(t->routes, PL_VLAN, PL_FH, 24, 2, NULL), 0);
	assert_int_equal(fcr_route_add(t->routes, 7, 0x010000, 8, 1, NULL), 0);
	assert_int_equal(fcr_tables_binding_add(t, PL_VLAN, PL_H, PL_FH, FCR_BIND_STATIC), 0);
	assert_int_equal(fcr_tables_binding_add(t, PL_VLAN, PL_T, PL_FT, FCR_BIND_STATIC), 0);
	assert_int_equal(fcr_tables_binding_add(t, PL_VLAN, PL_VI, PL_FVI, FCR_BIND_STATIC), 0);
	assert_int_equal(fcr_tables_binding_add(t, PL_VLAN, PL_VT, PL_FVT, FCR_BIND_STATIC), 0);
	assert_true(fcr_redirect_add(t->redirects, PL_VLAN, PL_H, PL_T, PL_VI, PL_VT) >= 0);
	/* a second one whose members logins may bind */
	assert_true(fcr_redirect_add(t->redirects, PL_VLAN, 0x2100000000000002ull,
				     0x2100000000000003ull, 0x2100000000000004ull,
				     0x2100000000000005ull) >= 0);
	fz_check_tables(t);
	return t;
}

/* A frame a worker meets: a redirect leg, plain traffic, no route, a
 * login, FIP, another EtherType. */
static uint32_t
base_wire(struct tu_rng *r, uint8_t *b)
{
	static const uint32_t legs[4][2] = {
		{ PL_FH, PL_FT }, { PL_FVI, PL_FT }, { PL_FT, PL_FH }, { PL_FVT, PL_FH },
	};
	static const uint32_t domains[] = { 0x01, 0x41, 0x81, 0x61, 0x21 };
	static uint8_t payload[FCR_FC_MAX_PAYLOAD];
	struct fcr_l2_spec l2;
	struct fcr_fc_spec fc;
	uint32_t k = tu_below(r, 10), len;
	uint16_t vlan = tu_below(r, 4) ? PL_VLAN : (uint16_t)tu_below(r, 4096);
	int tagged = tu_below(r, 5) != 0;

	if (k < 3) {
		len = fz_base_login(r, b, tagged, vlan, fz_rand_wwpn(r),
				    (domains[tu_below(r, 3)] << 16) | tu_below(r, 8));
		fz_fix_crc(b, len);
		fz_maybe_mark(b, len);
		return len;
	}
	tu_l2(&l2, tagged);
	l2.vlan = vlan;
	l2.pcp = 3;
	memset(&fc, 0, sizeof(fc));
	fc.r_ctl = FCR_RCTL_FCP_DATA;
	fc.type = FCR_TYPE_FCP;
	fc.f_ctl = 0x290000;
	fc.ox_id = (uint16_t)tu_rand32(r);
	if (k < 6) {
		fc.s_id = legs[k - 3 + tu_below(r, 2)][0];
		fc.d_id = legs[k - 3 + tu_below(r, 2)][1];
	} else {
		fc.s_id = (domains[tu_below(r, 5)] << 16) | tu_below(r, 4);
		fc.d_id = (domains[tu_below(r, 5)] << 16) | tu_below(r, 4);
	}
	fc.payload = payload;
	fc.payload_len = tu_below(r, 8) ? (uint16_t)tu_below(r, 256)
					: fz_rand_plen(r, FCR_FC_MAX_PAYLOAD);
	tu_fill_random(r, payload, fc.payload_len);
	len = (uint32_t)fcr_build_fcoe(b, FZ_CAP, &l2, &fc);
	assert_true(len > 0);
	fz_maybe_mark(b, len);
	if (k == 9 && tu_below(r, 2)) /* another EtherType */
		fcr_put_be16(b + (tagged ? 16 : 12), 0x88cc);
	return len;
}

/* An mbuf chain of real mbufs from the pool, cut as rx says. */
static struct rte_mbuf *
wire_mbuf(const uint8_t *b, uint32_t len, const struct fz_rx *rx)
{
	uint32_t from = 0, to;
	struct rte_mbuf *head = NULL;
	unsigned int i;

	for (i = 0; i < rx->nsegs; i++) {
		struct rte_mbuf *m = rte_pktmbuf_alloc(pl_mp);
		char *d;

		assert_non_null(m);
		to = i + 1 < rx->nsegs ? rx->cut[i] : len;
		d = rte_pktmbuf_append(m, (uint16_t)(to - from));
		assert_true(d != NULL || to == from);
		if (to > from)
			memcpy(d, b + from, to - from);
		from = to;
		if (head == NULL)
			head = m;
		else
			assert_int_equal(rte_pktmbuf_chain(head, m), 0);
	}
	return head;
}

struct expect {
	enum fcr_reason rc;       /* parse of the mbuf as received */
	struct fcr_frame f;
	uint16_t out;
	uint8_t drop;             /* reason counted when out is DROP */
	uint8_t leg;
	uint8_t miss;
	uint8_t login;            /* a login event is due */
	uint8_t reply;            /* a login server's reply to an FCID with no
				   * VN_Port hop: its egress decided once
				   * applied (FCR_OUT_REPLY), sent as it came */
	uint8_t notice;           /* an RSCN from the fabric: held, no event */
	uint32_t sid, did;        /* after rewrite */
	uint32_t crc_err;         /* stored CRC xor computed, on arrival */
	struct fcr_login l;
	uint32_t len;
	uint8_t bytes[FZ_CAP];
};

/* The route of a frame in vlan to did, as docs/forwarding.md says it is chosen: the
 * longest prefix of the VLAN's own routes, else of those for every VLAN
 * (an independent look at the route table's list, not its LPM). */
static uint16_t
route_port(const struct fcr_tables *t, uint16_t vlan, uint32_t did,
	   const struct fcr_nexthop **hop, uint8_t *drop)
{
	const struct fcr_route_table *rt = t->routes;
	unsigned int best = 0, rank, i;

	for (i = 0; i < rt->nb_routes; i++) {
		const struct fcr_route *ro = &rt->routes[i];

		if ((ro->vlan != vlan && ro->vlan != FCR_VLAN_ANY) ||
		    (did & (0xFFFFFFu << (24 - ro->bits) & 0xFFFFFF)) != ro->prefix)
			continue;
		rank = (ro->vlan == vlan) << 8 | ro->bits;
		if (rank > best) {
			best = rank;
			*hop = &rt->nexthop[ro->nh];
		}
	}
	if (best == 0) {
		*drop = FCR_R_NO_ROUTE;
		return FCR_OUT_DROP;
	}
	if ((*hop)->port >= PL_PORTS) {
		*drop = FCR_R_NO_PORT;
		return FCR_OUT_DROP;
	}
	return (*hop)->port;
}

/* Did the ENode of MAC src log in over FIP through another edge port than
 * in_port (it owns its port)? */
static int
enode_elsewhere(const struct fcr_tables *t, uint16_t vlan, const uint8_t *src,
		uint16_t in_port)
{
	unsigned int port = fcr_binding_enode_port(t->bindings, fcr_enode_key(vlan, src));

	return port != FCR_VN_ANY_PORT && port != in_port;
}

/* Does a frame from the fabric to (vlan, did) go where did's VN_Port
 * logged in (bound behind an edge port, with its MAC)? */
static int
vn_hop(const struct fcr_tables *t, uint16_t vlan, uint32_t did)
{
	uint64_t vk = fcr_vn_key(vlan, did), vn;
	unsigned int port;

	fcr_vn_lookup_bulk(t->bindings, &vk, 1, &vn);
	port = (unsigned int)(vn >> 48) & 0xFF;
	return vn != 0 && !(vn & (FCR_VN_ANY_MAC | FCR_VN_LEAVING)) && port < PL_PORTS &&
	       !(PL_FABRIC_MASK >> port & 1);
}

/* A frame that snooped as a login is held when it goes out. */
static void
expect_hold(struct expect *e)
{
	if ((e->login || e->notice) && e->out != FCR_OUT_DROP)
		e->out |= FCR_OUT_HOLD;
}

/* What the pipeline must decide for one frame, worked out before it runs. */
static void
expect_frame(const struct fcr_tables *t, struct rte_mbuf *m, uint16_t in_port,
	     struct expect *e)
{
	const struct fcr_nexthop *hop;
	uint8_t pl[FCR_ELS_SPARM_LEN];
	struct fcr_frame *f = &e->f;
	const uint8_t *p;
	uint32_t n;
	int idx;

	memset(e, 0, offsetof(struct expect, bytes));
	e->len = rte_pktmbuf_pkt_len(m);
	p = rte_pktmbuf_read(m, 0, e->len, e->bytes);
	assert_non_null(p);
	if (p != e->bytes)
		memcpy(e->bytes, p, e->len);
	e->rc = fcr_frame_parse_mbuf(m, f);
	if (e->rc == FCR_R_NOT_FCOE) {
		/* FIP on an edge port from an ENode that owns another */
		if (f->ethertype == FCR_ETHERTYPE_FIP && !(PL_FABRIC_MASK >> in_port & 1) &&
		    enode_elsewhere(t, f->vlan, e->bytes + 6, in_port)) {
			e->out = FCR_OUT_DROP;
			e->drop = FCR_R_ENODE_WRONG_PORT;
			return;
		}
		e->out = pl_passthrough[in_port] < PL_PORTS ? pl_passthrough[in_port]
							     : FCR_OUT_DROP;
		e->drop = FCR_R_NO_PASSTHROUGH;
		if (f->ethertype == FCR_ETHERTYPE_FIP &&
		    fcr_login_parse(e->bytes, RTE_MIN(e->len, 2560u), &e->l) == FCR_R_OK &&
		    e->l.kind != FCR_LOGIN_NONE) {
			e->login = 1;
			e->l.vlan = f->vlan; /* the frame's VLAN, tag stripped or not */
		}
		expect_hold(e);
		return;
	}
	if (e->rc != FCR_R_OK) {
		e->out = FCR_OUT_DROP;
		e->drop = (uint8_t)e->rc;
		return;
	}
	if (rte_pktmbuf_data_len(m) < (uint32_t)f->fc_off + FCR_FC_HLEN) {
		e->out = FCR_OUT_DROP;
		e->drop = FCR_R_SPLIT_HEADER;
		return;
	}
	/* the mark: only from the fabric or a series port */
	if (f->mark && !((PL_FABRIC_MASK | PL_SERIES_MASK) >> in_port & 1)) {
		e->out = FCR_OUT_DROP;
		e->drop = FCR_R_MARK_UNTRUSTED;
		return;
	}
	e->crc_err = f->crc ^ tu_crc32_ref(e->bytes + f->fc_off, f->fc_len);
	if (!(PL_FABRIC_MASK >> in_port & 1)) {
		/* an edge port: only VN_Ports that logged in through it */
		uint64_t vk = fcr_vn_key(f->vlan, f->s_id), vn;

		if (f->s_id == 0 && f->d_id == FCR_FCID_FLOGI) {
			/* asking to log in: its ENode's port, if it has one */
			if (enode_elsewhere(t, f->vlan, e->bytes + 6, in_port)) {
				e->out = FCR_OUT_DROP;
				e->drop = FCR_R_ENODE_WRONG_PORT;
				return;
			}
			vn = 0;
		} else {
			fcr_vn_lookup_bulk(t->bindings, &vk, 1, &vn);
			if (!fcr_vn_allows(vn, e->bytes + 6, in_port)) {
				e->out = FCR_OUT_DROP;
				e->drop = FCR_R_NOT_LOGGED_IN;
				return;
			}
		}
		/* told to log in again: what it still sends is dropped */
		if (vn & FCR_VN_LEAVING) {
			e->out = FCR_OUT_DROP;
			e->drop = FCR_R_VN_PORT_GONE;
			return;
		}
	}
	if (f->type == FCR_TYPE_ELS && e->crc_err == 0 && !f->mark &&
	    (f->d_id == FCR_FCID_FLOGI || f->s_id == FCR_FCID_FLOGI) &&
	    (f->r_ctl == FCR_RCTL_ELS_REQ || f->r_ctl == FCR_RCTL_ELS_REP)) {
		n = RTE_MIN((uint32_t)f->payload_len, (uint32_t)sizeof(pl));
		memcpy(pl, e->bytes + f->fc_off + FCR_FC_HLEN, n);
		if (fcr_login_from_els(f, pl, n, &e->l) == FCR_R_OK &&
		    e->l.kind != FCR_LOGIN_NONE) {
			e->login = 1;
			memcpy(e->l.eth_dst, e->bytes, 6);
			memcpy(e->l.eth_src, e->bytes + 6, 6);
		}
	}
	/* the fabric controller's RSCN from a fabric port: held behind the
	 * events before it */
	if (f->type == FCR_TYPE_ELS && !f->mark && f->r_ctl == FCR_RCTL_ELS_REQ &&
	    f->s_id == FCR_FCID_FCTRL && f->payload_len >= 1 &&
	    (PL_FABRIC_MASK >> in_port & 1) &&
	    e->bytes[f->fc_off + FCR_FC_HLEN] == FCR_ELS_RSCN)
		e->notice = 1;
	/* a frame with the mark matches no entry: plain, not reported */
	idx = f->mark ? -1 : fcr_flow_find(t->flows, fcr_flow_key(f->vlan, f->s_id,
								  f->d_id));
	e->miss = idx < 0 && !f->mark;
	e->sid = idx < 0 ? f->s_id : fcr_action_sid(t->flows->action[idx]);
	e->did = idx < 0 ? f->d_id : fcr_action_did(t->flows->action[idx]);
	e->leg = idx < 0 ? FCR_LEG_PLAIN : (uint8_t)fcr_action_leg(t->flows->action[idx]);
	if (e->leg == FCR_LEG_HIDDEN) {
		e->out = FCR_OUT_DROP;
		e->drop = FCR_R_REDIRECT_HIDDEN;
		return;
	}
	if (e->leg == FCR_LEG_BLOCKED) {
		e->out = FCR_OUT_DROP;
		e->drop = FCR_R_REDIRECT_NOT_READY;
		return;
	}
	e->out = route_port(t, f->vlan, e->did, &hop, &e->drop);
	/* never back out of the fabric port it came in on */
	if (e->out == in_port && (PL_FABRIC_MASK >> in_port & 1)) {
		e->out = FCR_OUT_DROP;
		e->drop = FCR_R_FABRIC_LOOP;
	}
	/* the login server's reply to an FCID not bound behind an edge port:
	 * as routed or its port in, until applied; as it came */
	if (e->login && (PL_FABRIC_MASK >> in_port & 1) && f->s_id == FCR_FCID_FLOGI &&
	    !vn_hop(t, f->vlan, f->d_id)) {
		e->reply = 1;
		e->out = (uint16_t)((e->out == FCR_OUT_DROP ? in_port : e->out) |
				    FCR_OUT_HOLD | FCR_OUT_REPLY);
		return;
	}
	expect_hold(e);
	/* an ELS on a leg names the members the header names now, when its
	 * payload is in the first segment (lib/frame/fcr_els_ids.h) */
	if (e->out != FCR_OUT_DROP && e->leg != FCR_LEG_PLAIN && f->type == FCR_TYPE_ELS &&
	    f->payload_len > 0 &&
	    (uint32_t)f->fc_off + FCR_FC_HLEN + f->payload_len + 4 <= rte_pktmbuf_data_len(m) &&
	    fcr_frame_crc_off(f) + 4 <= rte_pktmbuf_data_len(m)) {
		static const uint8_t mem[FCR_LEG_COUNT][2] = {
			[FCR_LEG_HOST_TO_TARGET] = { FCR_M_TARGET, FCR_M_VT },
			[FCR_LEG_VI_TO_TARGET] = { FCR_M_VI, FCR_M_HOST },
			[FCR_LEG_TARGET_TO_HOST] = { FCR_M_HOST, FCR_M_VI },
			[FCR_LEG_VT_TO_HOST] = { FCR_M_VT, FCR_M_TARGET },
		};
		uint32_t o = t->flows->owner[idx];
		struct fcr_els_subst sub = {
			.fcid_old = e->did != f->d_id ? f->d_id : f->s_id,
			.fcid_new = e->did != f->d_id ? e->did : e->sid,
			.wwpn_old = t->redirects->wwpn[o][mem[e->leg][0]],
			.wwpn_new = t->redirects->wwpn[o][mem[e->leg][1]],
		};
		unsigned int changed;

		fcr_els_ids_rewrite(e->bytes + f->fc_off + FCR_FC_HLEN, f->payload_len,
				    f->r_ctl, &sub, &changed);
	}
}

/* A frame sent on: the pipeline changed only the MACs, S_ID, D_ID and CRC,
 * and the CRC is exactly as right or wrong as it arrived; it carries the
 * mark when rewritten (and kept it if it came with it). */
static void
check_sent(const struct fcr_tables *t, struct rte_mbuf *m, const struct expect *e,
	   uint16_t in_port, uint16_t out)
{
	static uint8_t a[FZ_CAP];
	const struct fcr_nexthop *hop = NULL;
	const uint8_t *p;
	struct fcr_frame f;
	uint32_t fo = e->f.fc_off, co, i;
	uint32_t mo = e->f.fcoe_off + FCR_FCOE_MARK_OFF;
	int rewritten = e->sid != e->f.s_id || e->did != e->f.d_id;
	uint8_t drop, mac[6];

	FZ_CHECK(rte_pktmbuf_pkt_len(m) == e->len, "length changed");
	p = rte_pktmbuf_read(m, 0, e->len, a);
	assert_non_null(p);
	if (e->rc == FCR_R_NOT_FCOE || e->reply) {
		FZ_CHECK(memcmp(p, e->bytes, e->len) == 0, "%s changed",
			 e->reply ? "login reply" : "pass-through frame");
		return;
	}
	co = fcr_frame_crc_off(&e->f);
	for (i = 12; i < e->len; i++) {
		if ((i > fo && i < fo + 8 && i != fo + 4) || (i >= co && i < co + 4))
			continue;
		FZ_CHECK(p[i] == (i == mo && rewritten ? e->bytes[i] | FCR_FCOE_MARK :
				  e->bytes[i]), "byte %u changed", i);
	}
	FZ_CHECK(fcr_frame_parse(p, e->len, &f) == FCR_R_OK, "sent frame invalid");
	FZ_CHECK(f.s_id == e->sid && f.d_id == e->did, "ids %06x>%06x, expected "
		 "%06x>%06x", f.s_id, f.d_id, e->sid, e->did);
	FZ_CHECK((f.crc ^ tu_crc32_ref(p + fo, f.fc_len)) == e->crc_err,
		 "CRC error changed from %08x", e->crc_err);
	route_port(t, e->f.vlan, e->did, &hop, &drop);
	/* a fabric's MACs (docs/trust.md): toward the FCF its MAC as addressed, from
	 * the S_ID's VN_Port MAC; toward an ENode from the FCF's MAC */
	if (PL_FABRIC_MASK >> out & 1) {
		FZ_CHECK(memcmp(p, e->bytes, 6) == 0, "destination MAC (the FCF's)");
		if (e->sid == e->f.s_id)
			memcpy(mac, e->bytes + 6, 6);
		else
			fcr_fpma(mac, fcr_tables_fc_map(t, e->f.vlan), e->sid);
		FZ_CHECK(memcmp(p + 6, mac, 6) == 0, "source MAC (the S_ID's VN_Port)");
		return;
	}
	if (hop->flags & FCR_NH_FPMA)
		fcr_fpma(mac, fcr_tables_fc_map(t, e->f.vlan), e->did);
	else
		memcpy(mac, hop->mac, 6);
	FZ_CHECK(memcmp(p, mac, 6) == 0, "destination MAC");
	FZ_CHECK(memcmp(p + 6, PL_FABRIC_MASK >> in_port & 1 ? e->bytes + 6 : e->bytes,
			6) == 0, "source MAC (the FCF's)");
}

static void
check_login_event(const struct fcr_event *ev, const struct fcr_login *l)
{
	if (l->kind == FCR_LOGIN_CVL) {
		/* an event per VN_Port cleared; the first one is checked */
		FZ_CHECK(ev->kind == FCR_LOGIN_CVL && ev->via_fip &&
			 ev->port_id == l->cvl[0].fcid && ev->wwpn == l->cvl[0].wwpn &&
			 ev->vlan == l->vlan, "clear virtual links event");
		return;
	}
	FZ_CHECK(ev->kind == l->kind && ev->answers == l->answers &&
		 ev->via_fip == l->via_fip && ev->has_wwpn == l->has_wwpn &&
		 ev->has_mac == l->has_mac, "login event kind/flags");
	FZ_CHECK(ev->vlan == l->vlan, "login event on VLAN %u, frame's is %u",
		 ev->vlan, l->vlan);
	/* an advertisement's event carries its FC-MAP where an S_ID would be */
	if (l->kind == FCR_LOGIN_VLANS) {
		unsigned int i;

		FZ_CHECK(ev->port_id == l->nb_vlans, "VLANs in the event");
		for (i = 0; i < l->nb_vlans; i++)
			FZ_CHECK(fcr_event_vlan(ev, i) == l->vlans[i], "VLAN %u of the event", i);
		return;
	}
	/* a login request's carries its node name where D_ID and N_Port ID would be */
	if ((l->kind == FCR_LOGIN_FLOGI || l->kind == FCR_LOGIN_FDISC) &&
	    l->answers == FCR_LOGIN_NONE)
		FZ_CHECK(ev->node == l->wwnn && ev->s_id == l->s_id && ev->ox_id == l->ox_id &&
			 ev->wwpn == l->wwpn, "login request event fields");
	else
		FZ_CHECK(ev->s_id == (l->kind == FCR_LOGIN_ADV ? l->fc_map : l->s_id) &&
			 ev->d_id == l->d_id &&
			 ev->port_id == l->port_id && ev->ox_id == l->ox_id &&
			 ev->wwpn == l->wwpn, "login event fields");
	FZ_CHECK(memcmp(ev->enode, l->kind == FCR_LOGIN_ACC || l->kind == FCR_LOGIN_RJT ?
			l->eth_dst : l->eth_src, 6) == 0, "login event enode");
	FZ_CHECK(ev->kind >= FCR_LOGIN_FLOGI && ev->kind <= FCR_LOGIN_ADV &&
		 ev->kind != FCR_LOGIN_CVL &&
		 ev->vlan <= 0xFFF && ev->s_id <= FCR_FCID_MASK &&
		 ((ev->d_id <= FCR_FCID_MASK &&
		   (ev->port_id <= FCR_FCID_MASK || ev->kind == FCR_LOGIN_ADV)) ||
		  ((ev->kind == FCR_LOGIN_FLOGI || ev->kind == FCR_LOGIN_FDISC) &&
		   ev->answers == FCR_LOGIN_NONE)),
		 "login event ranges");
}

/* One burst: see the top of this file. */
static int
pipeline_one(const uint8_t *data, size_t size)
{
	static struct expect e[FCR_PIPELINE_BURST_MAX];
	struct fcr_event ev[FCR_PIPELINE_EVENTS_MAX], fev[256];
	struct rte_mbuf *pkts[FCR_PIPELINE_BURST_MAX];
	uint16_t out[FCR_PIPELINE_BURST_MAX];
	struct {
		struct fz_rx rx;
		const uint8_t *b;
		uint32_t len;
	} in[FCR_PIPELINE_BURST_MAX];
	struct fcr_tables *t = pl_t;
	struct fcr_pipeline_stats st;
	uint64_t dsum = 0, want_drop[FCR_R_COUNT] = { 0 };
	uint64_t want_leg[FCR_LEG_COUNT] = { 0 }, want_pass = 0, want_miss = 0;
	uint64_t want_series = 0;
	uint64_t legs = 0, replies = 0;
	uint16_t n, in_port, i;
	unsigned int nev, j, k, want_logins = 0, firsts = 0, misses = 0;
	size_t off;

	if (size < 1)
		return -1;
	in_port = data[0] % PL_PORTS;
	for (off = 1, n = 0; off < size; n++) {
		const uint8_t *h = data + off;
		uint32_t len;

		if (n == FCR_PIPELINE_BURST_MAX || size - off < FZ_RX_LEN + 2)
			return -1;
		len = fcr_get_be16(h + FZ_RX_LEN);
		if (len > FZ_CAP || size - off - FZ_RX_LEN - 2 < len ||
		    fz_rx_get(h, len, PL_MAX_SEGS, &in[n].rx) < 0)
			return -1;
		in[n].b = h + FZ_RX_LEN + 2;
		in[n].len = len;
		/* a tag taken out of the bytes: one segment, and a tag */
		if (in[n].rx.untag && (!in[n].rx.stripped || in[n].rx.nsegs != 1 ||
				       len < 18 ||
				       fcr_get_be16(in[n].b + 12) != FCR_ETHERTYPE_VLAN))
			return -1;
		off += FZ_RX_LEN + 2 + len;
	}
	if (n == 0)
		return -1;
	for (i = 0; i < n; i++) {
		pkts[i] = wire_mbuf(in[i].b, in[i].len, &in[i].rx);
		tally.split += pkts[i]->nb_segs > 1;
		if (in[i].rx.stripped) {
			/* the NIC took the tag off (or there was none) */
			pkts[i]->ol_flags |= RTE_MBUF_F_RX_VLAN_STRIPPED;
			pkts[i]->vlan_tci = in[i].rx.vlan_tci;
			if (in[i].rx.untag) {
				uint8_t *d = rte_pktmbuf_mtod(pkts[i], uint8_t *);

				pkts[i]->vlan_tci = fcr_get_be16(d + 14);
				memmove(d + 4, d, 12);
				rte_pktmbuf_adj(pkts[i], 4);
			}
			tally.stripped++;
		}
		expect_frame(t, pkts[i], in_port, &e[i]);
		misses += e[i].rc == FCR_R_OK && e[i].miss;
	}
	memset(&st, 0, sizeof(st));
	memset(out, 0xEE, sizeof(out));
	nev = fcr_pipeline_burst(&pl_worker, in_port, pkts, n, out, &st, ev, pl_now);

	/* every frame exactly one outcome, as worked out */
	FZ_CHECK(nev <= FCR_PIPELINE_EVENTS_MAX, "%u events", nev);
	for (i = 0; i < n; i++) {
		FZ_CHECK(out[i] == e[i].out, "frame %u (%s): out %u, expected %u",
			 i, fcr_reason_name(e[i].rc), out[i], e[i].out);
		if (out[i] == FCR_OUT_DROP) {
			want_drop[e[i].drop]++;
			continue;
		}
		tally.sent++;
		if (e[i].rc == FCR_R_NOT_FCOE) {
			want_pass++;
		} else if (e[i].reply) {
			/* its leg counted when the worker sends it */
			want_miss += e[i].miss;
			replies++;
		} else {
			want_leg[e[i].leg]++;
			want_miss += e[i].miss;
			want_series += e[i].f.mark;
		}
		check_sent(t, pkts[i], &e[i], in_port,
			   (uint16_t)(out[i] & ~(FCR_OUT_HOLD | FCR_OUT_REPLY)));
	}
	for (j = 0; j < FCR_R_COUNT; j++) {
		FZ_CHECK(st.drop[j] == want_drop[j], "drop[%s] %llu, expected %llu",
			 fcr_reason_name((enum fcr_reason)j),
			 (unsigned long long)st.drop[j],
			 (unsigned long long)want_drop[j]);
		dsum += st.drop[j];
	}
	for (j = 0; j < FCR_LEG_COUNT; j++) {
		FZ_CHECK(st.leg[j] == want_leg[j], "leg[%u]", j);
		legs += st.leg[j];
	}
	FZ_CHECK(st.drop[FCR_R_OK] == 0, "dropped as ok");
	FZ_CHECK(st.passthrough == want_pass && st.flow_miss == want_miss &&
		 st.series == want_series, "passthrough/flow_miss/series");
	tally.series += (long)want_series;
	FZ_CHECK(n == legs + replies + st.passthrough + dsum, "rx %u != tx %llu + drops %llu",
		 n, (unsigned long long)(legs + replies + st.passthrough),
		 (unsigned long long)dsum);

	/* events: the logins (a held frame's names it), then first frames */
	for (j = 0; j < nev && ev[j].type == FCR_EV_LOGIN; j++)
		FZ_CHECK(ev[j].port == in_port, "login event from port %u", ev[j].port);
	for (i = 0; i < n; i++) {
		if (!e[i].login)
			continue;
		want_logins += e[i].l.kind == FCR_LOGIN_CVL ? e[i].l.nb_cvl : 1;
		if (out[i] == FCR_OUT_DROP)
			continue;
		for (k = 0; k < j && ev[k].seq != i; k++)
			;
		FZ_CHECK(k < j, "no login event for held frame %u", i);
		check_login_event(&ev[k], &e[i].l);
	}
	FZ_CHECK(st.logins == want_logins && j == want_logins,
		 "logins %llu (%u events), expected %u",
		 (unsigned long long)st.logins, j, want_logins);
	for (; j < nev; j++) {
		if (ev[j].type == FCR_EV_FLOW_MISSES) {
			/* a flow displaced from the recent reports */
			FZ_CHECK(ev[j].count > 0 && ev[j].flow_key >> 60 == 0,
				 "misses event %u", j);
			continue;
		}
		FZ_CHECK(ev[j].type == FCR_EV_FLOW_FIRST && ev[j].count == 1 &&
			 ev[j].flow_key >> 60 == 0 && ev[j].worker == 0,
			 "event %u of type %u", j, ev[j].type);
		firsts++;
	}
	FZ_CHECK(firsts <= misses, "%u first-frame reports for %u misses",
		 firsts, misses);
	tally.logins += want_logins;

	/* the tables lcore applies them, as the tables lcore would */
	for (j = 0; j < nev; j++)
		fcr_tables_event(t, &ev[j]);
	if (tally.bursts % 16 == 15) {
		k = fcr_pipeline_forget(&pl_worker, fev, pl_now);
		for (j = 0; j < k; j++) {
			FZ_CHECK(fev[j].type == FCR_EV_FLOW_MISSES &&
				 fev[j].count > 0 && fev[j].flow_key >> 60 == 0,
				 "forget event");
			fcr_tables_event(t, &fev[j]);
		}
	}
	if (tally.bursts % 64 == 63) {
		/* plain entries age out, so new flows keep arriving */
		uint32_t it = 0;
		int idx;

		while ((idx = fcr_flow_next(t->flows, &it)) >= 0)
			if (t->flows->owner[idx] == FCR_NO_OWNER)
				fcr_flow_del(t->flows, t->flows->key[idx]);
	}
	fz_check_tables(t);
	for (i = 0; i < n; i++)
		rte_pktmbuf_free(pkts[i]);
	tally.frames += n;
	tally.bursts++;
	pl_now += 1000;
	return 0;
}

/* How a frame reaches the worker: now and then in 2 to 4 segments, now and
 * then with its tag taken off by the NIC (in one segment, really out of
 * the bytes). Drawn as this test always drew them. */
static void
wire_arrival(struct tu_rng *r, const uint8_t *b, uint32_t len, struct fz_rx *rx)
{
	uint32_t cut[FZ_MAX_SEGS];
	unsigned int nsegs, k;

	memset(rx, 0, sizeof(*rx));
	nsegs = len >= 2 && tu_below(r, 4) == 0 ? fz_random_cuts(r, len, cut) : 1;
	rx->nsegs = (uint8_t)RTE_MIN(nsegs, (unsigned int)PL_MAX_SEGS);
	for (k = 0; k + 1 < rx->nsegs; k++)
		rx->cut[k] = (uint16_t)cut[k];
	if (tu_below(r, 10) == 0 && len >= 18) {
		rx->stripped = 1;
		rx->vlan_tci = (uint16_t)(tu_below(r, 2) ? PL_VLAN : tu_rand32(r));
		rx->untag = fcr_get_be16(b + 12) == FCR_ETHERTYPE_VLAN &&
			    rx->nsegs == 1 && tu_below(r, 4);
	}
}

/* Random bursts of frames a worker meets, most of them mutated. */
static void
fuzz_pipeline_bursts(void **state)
{
	static uint8_t in[1 + FCR_PIPELINE_BURST_MAX * (FZ_RX_LEN + 2 + FZ_CAP)];
	static uint8_t b[FZ_CAP];
	long frames = fz_iters_or(200000);
	char extra[200];
	double t0 = fz_now();

	(void)state;
	while (tally.frames < frames) {
		struct fz_rx rx;
		struct tu_rng r;
		uint16_t n, i;
		size_t off = 1;

		fz_rng(&r, 3, (uint64_t)tally.bursts);
		n = (uint16_t)(1 + tu_below(&r, FCR_PIPELINE_BURST_MAX));
		in[0] = (uint8_t)tu_below(&r, PL_PORTS);
		for (i = 0; i < n; i++) {
			uint32_t len = base_wire(&r, b);

			if (tu_below(&r, 5) < 3)
				fz_mutate(&r, b, &len);
			wire_arrival(&r, b, len, &rx);
			fz_rx_put(in + off, &rx);
			fcr_put_be16(in + off + FZ_RX_LEN, (uint16_t)len);
			memcpy(in + off + FZ_RX_LEN + 2, b, len);
			off += FZ_RX_LEN + 2 + len;
		}
		FZ_CHECK(fz_run_one(in, off) == 0, "input refused");
	}
	FZ_CHECK(rte_mempool_in_use_count(pl_mp) == 0, "mbufs leaked");
	snprintf(extra, sizeof(extra), "%ld bursts, %ld sent (%ld with the mark, "
		 "plain), %ld chained, %ld tag-stripped, %ld logins; tables lcore: %llu "
		 "bindings learned, %llu flows added", tally.bursts, tally.sent,
		 tally.series, tally.split, tally.stripped,
		 tally.logins, (unsigned long long)pl_t->st.bindings_learned,
		 (unsigned long long)pl_t->st.flows_added);
	fz_report(tally.frames, "frames", t0, extra);
}

static int
pipeline_init(void)
{
	pl_mp = rte_pktmbuf_pool_create("fz", 1024, 0, 0,
					RTE_PKTMBUF_HEADROOM + FZ_CAP, 0);
	if (pl_mp == NULL)
		return -1;
	pl_t = pipeline_tables();
	pl_worker = (struct fcr_pipeline){
		.tables = pl_t, .port_mac = pl_port_mac, .passthrough = pl_passthrough,
		.nb_ports = PL_PORTS, .worker = 0,
		.fabric_mask = PL_FABRIC_MASK,
		.series_mask = PL_SERIES_MASK,
		/* every data frame judged, every exchange timed: neither changes
		 * where a frame goes (the guard without drop), both read it */
		.guard_every = 1,
		.lat_tsc_per_us = 1,
		.lat_stale = 1000,
	};
	pl_t->fabric_mask = PL_FABRIC_MASK;
	fcr_pipeline_forget(&pl_worker, NULL, 0);
	return 0;
}

static void
pipeline_fini(void)
{
	fcr_tables_free(pl_t);
	rte_mempool_free(pl_mp);
}

const struct fz_target fz_this = {
	.name = "pipeline",
	.init = pipeline_init,
	.fini = pipeline_fini,
	.one = pipeline_one,
	.test = cmocka_unit_test(fuzz_pipeline_bursts),
};
