/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The per-burst forwarding decision on real mbufs: every redirect leg
 * rewritten with a good CRC and the right MACs, plain frames unchanged, a bad
 * CRC kept bad, pass-through and snooping, drops under their reasons, first
 * frames reported once, chained mbufs. EAL without hugepages or devices.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <rte_eal.h>
#include <rte_mbuf.h>

#include "fcr_build.h"
#include "fcr_cleartext.h"
#include "fcr_crc.h"
#include "fcr_guard.h"
#include "fcr_pipeline.h"
#include "fcr_tables.h"
#include "test_util.h"

#define VLAN 100
#define H 0x2100000000000001ull
#define T 0x5000000000000001ull
#define VI 0x2f00000000000001ull
#define VT 0x2f00000000000002ull
#define FH 0x010001u
#define FT 0x410001u
#define FVI 0x810001u
#define FVT 0x810002u
/* a host that logs in during a test (and is unbound at its end) */
#define LH 0x2100000000000042ull
#define FLH 0x010042u

static struct rte_mempool *mp;
static struct fcr_tables *tables;
static const uint8_t port_mac[3][6] = {
	{ 2, 0, 0, 0, 0, 0 }, { 2, 0, 0, 0, 0, 1 }, { 2, 0, 0, 0, 0, 2 },
};
static const uint8_t sn_mac[6] = { 0x02, 0x5e, 0x00, 0x00, 0x00, 0x99 };
/* port 2's pass-through peer (3) does not exist */
static const uint16_t passthrough[4] = { 1, 0, 3, 2 };
static struct fcr_pipeline pl;
/* the exchange of the frames frame_in makes: OX_ID, F_CTL */
static uint16_t fc_ox = 0x1234;
static uint32_t fc_fctl;

static struct rte_mbuf *
frame_in(uint16_t vlan, uint32_t s, uint32_t d, uint16_t payload_len, int tagged,
	 uint8_t r_ctl, uint8_t type)
{
	static uint8_t payload[FCR_FC_MAX_PAYLOAD], buf[FCR_FCOE_MAX_FRAME];
	struct fcr_l2_spec l2 = { .tagged = (uint8_t)tagged, .vlan = vlan, .pcp = 3 };
	struct fcr_fc_spec fc = {
		.r_ctl = r_ctl, .type = type, .d_id = d, .s_id = s, .ox_id = fc_ox, .f_ctl = fc_fctl,
		.rx_id = 0xFFFF, .payload = payload, .payload_len = payload_len,
	};
	struct rte_mbuf *m = rte_pktmbuf_alloc(mp);
	size_t len, i;

	assert_non_null(m);
	for (i = 0; i < payload_len; i++)
		payload[i] = (uint8_t)(i * 7 + 3);
	if (type == FCR_TYPE_ELS && payload_len >= FCR_ELS_SPARM_LEN)
		fcr_els_sparm(payload, r_ctl == FCR_RCTL_ELS_REQ ? FCR_ELS_PLOGI :
				       FCR_ELS_LS_ACC, VT, VT + 1);
	memcpy(l2.dst, sn_mac, 6);
	fcr_fpma(l2.src, FCR_FC_MAP_DEFAULT, s);
	len = fcr_build_fcoe(buf, sizeof(buf), &l2, &fc);
	assert_true(len > 0);
	memcpy(rte_pktmbuf_append(m, (uint16_t)len), buf, len);
	return m;
}

static struct rte_mbuf *
frame(uint32_t s, uint32_t d, uint16_t payload_len, int tagged, uint8_t r_ctl,
      uint8_t type)
{
	return frame_in(VLAN, s, d, payload_len, tagged, r_ctl, type);
}

static struct rte_mbuf *
fcp(uint32_t s, uint32_t d)
{
	return frame(s, d, 512, 1, FCR_RCTL_FCP_DATA, FCR_TYPE_FCP);
}

static void
parse(struct rte_mbuf *m, struct fcr_frame *f)
{
	assert_int_equal(fcr_frame_parse_mbuf(m, f), FCR_R_OK);
}

/* A fabric login frame: frame()'s PLOGI (or its accept) to or from FFFFFE,
 * made an FLOGI naming wwpn (an accept is the fabric's: left as it is). */
static struct rte_mbuf *
flogi(uint32_t s, uint32_t d, uint8_t r_ctl, uint64_t wwpn)
{
	struct rte_mbuf *m = frame(s, d, FCR_ELS_SPARM_LEN, 1, r_ctl, FCR_TYPE_ELS);
	struct fcr_frame f;
	uint8_t *els;

	parse(m, &f);
	els = rte_pktmbuf_mtod_offset(m, uint8_t *, f.fc_off + FCR_FC_HLEN);
	if (r_ctl == FCR_RCTL_ELS_REQ) {
		els[0] = FCR_ELS_FLOGI;
		fcr_put_be64(els + 20, wwpn);
	}
	fcr_put_crc_mbuf(m, fcr_frame_crc_off(&f),
			 tu_crc32_ref(rte_pktmbuf_mtod_offset(m, uint8_t *, f.fc_off),
				      f.fc_len));
	return m;
}

/* The mark, as an fcredirect upstream that rewrote the frame sets it. */
static struct rte_mbuf *
marked(struct rte_mbuf *m)
{
	struct fcr_frame f;

	parse(m, &f);
	*rte_pktmbuf_mtod_offset(m, uint8_t *, f.fcoe_off + FCR_FCOE_MARK_OFF) |=
		FCR_FCOE_MARK;
	return m;
}

static int
has_mark(struct rte_mbuf *m)
{
	struct fcr_frame f;

	parse(m, &f);
	return f.mark;
}

static void
assert_forwarded(struct rte_mbuf *m, uint32_t s, uint32_t d, const uint8_t *dst,
		 uint16_t port)
{
	const uint8_t *eth = rte_pktmbuf_mtod(m, const uint8_t *);
	struct fcr_frame f;

	parse(m, &f);
	assert_int_equal(f.s_id, s);
	assert_int_equal(f.d_id, d);
	assert_int_equal(f.vlan, VLAN);
	assert_int_equal(fcr_frame_verify_crc_mbuf(m, &f), FCR_R_OK);
	assert_memory_equal(eth, dst, 6);
	assert_memory_equal(eth + 6, port_mac[port], 6);
}

static unsigned int
run(struct rte_mbuf **m, uint16_t n, uint16_t in_port, uint16_t *out,
    struct fcr_pipeline_stats *st, struct fcr_event *ev)
{
	memset(st, 0, sizeof(*st));
	return fcr_pipeline_burst(&pl, in_port, m, n, out, st, ev, 1);
}

/* One frame through another pipeline than pl. */
static void
run_on(struct fcr_pipeline *p, struct rte_mbuf **m, uint16_t in_port, uint16_t *out,
       struct fcr_pipeline_stats *st, struct fcr_event *ev)
{
	memset(st, 0, sizeof(*st));
	fcr_pipeline_burst(p, in_port, m, 1, out, st, ev, 1);
}

/* What the tables lcore learns when wwpn logs in through edge port `port` and
 * the fabric (port 1) grants it fcid: an FLOGI and its accept. */
static void
log_in(uint64_t wwpn, uint32_t fcid, uint16_t port)
{
	struct fcr_event le;

	memset(&le, 0, sizeof(le));
	le.type = FCR_EV_LOGIN;
	le.kind = FCR_LOGIN_FLOGI;
	le.vlan = VLAN;
	le.ox_id = (uint16_t)fcid;
	le.has_wwpn = 1;
	le.wwpn = wwpn;
	le.d_id = FCR_FCID_FLOGI;
	le.enode[5] = (uint8_t)fcid;
	le.port = (uint8_t)port;
	fcr_tables_event(tables, &le);
	le.kind = FCR_LOGIN_ACC;
	le.s_id = FCR_FCID_FLOGI;
	le.d_id = fcid;
	le.port = 1;
	fcr_tables_event(tables, &le);
}

static void
free_all(struct rte_mbuf **m, unsigned int n)
{
	while (n--)
		rte_pktmbuf_free(m[n]);
}

static void
every_redirect_leg_is_rewritten_and_routed(void **state)
{
	struct rte_mbuf *m[4] = { fcp(FH, FT), fcp(FVI, FT), fcp(FT, FH), fcp(FVT, FH) };
	struct fcr_event ev[FCR_PIPELINE_EVENTS_MAX];
	struct fcr_pipeline_stats st;
	uint8_t fpma_h[6], fpma_t[6];
	uint16_t out[4];

	(void)state;
	assert_int_equal(run(m, 4, 0, out, &st, ev), 0);
	fcr_fpma(fpma_h, FCR_FC_MAP_DEFAULT, FH);
	fcr_fpma(fpma_t, FCR_FC_MAP_DEFAULT, FT);
	/* host -> target: D_ID := VT, to the service node's next hop */
	assert_int_equal(out[0], 2);
	assert_forwarded(m[0], FH, FVT, sn_mac, 2);
	/* VI -> target: S_ID := host, to the target's VN_Port */
	assert_int_equal(out[1], 1);
	assert_forwarded(m[1], FH, FT, fpma_t, 1);
	/* target -> host: D_ID := VI */
	assert_int_equal(out[2], 2);
	assert_forwarded(m[2], FT, FVI, sn_mac, 2);
	/* VT -> host: S_ID := target */
	assert_int_equal(out[3], 0);
	assert_forwarded(m[3], FT, FH, fpma_h, 0);
	assert_int_equal(st.leg[FCR_LEG_HOST_TO_TARGET], 1);
	assert_int_equal(st.leg[FCR_LEG_VI_TO_TARGET], 1);
	assert_int_equal(st.leg[FCR_LEG_TARGET_TO_HOST], 1);
	assert_int_equal(st.leg[FCR_LEG_VT_TO_HOST], 1);
	free_all(m, 4);
}

/* The VT logs out: the host and the target are still bound, so their
 * frames are dropped and counted under the redirect, never sent directly;
 * the VT back, the same flows go through the service node again. */
static void
a_redirect_that_is_not_active_drops_its_pair_and_counts_it(void **state)
{
	struct rte_mbuf *m[4] = { fcp(FH, FT), fcp(FT, FH), fcp(FH, FT), fcp(FH, 0x410002) };
	struct fcr_event ev[FCR_PIPELINE_EVENTS_MAX];
	struct fcr_pipeline_stats st;
	uint16_t out[4];

	(void)state;
	assert_int_equal(fcr_tables_binding_del(tables, VLAN, VT), 0);
	assert_int_equal(tables->redirects->r[0].state, FCR_RS_WAITING);
	run(m, 4, 0, out, &st, ev);
	assert_int_equal(out[0], FCR_OUT_DROP);
	assert_int_equal(out[1], FCR_OUT_DROP);
	assert_int_equal(out[2], FCR_OUT_DROP);
	assert_int_equal(out[3], 1); /* another target: not the redirect's pair */
	assert_int_equal(st.drop[FCR_R_REDIRECT_NOT_READY], 3);
	assert_int_equal(st.leg[FCR_LEG_PLAIN], 1);
	assert_int_equal(fcr_redirect_dropped(tables->redirects, 0), 3);
	free_all(m, 4);

	assert_int_equal(fcr_tables_binding_add(tables, VLAN, VT, FVT, FCR_BIND_STATIC), 0);
	assert_int_equal(tables->redirects->r[0].state, FCR_RS_ACTIVE);
	m[0] = fcp(FH, FT);
	run(m, 1, 0, out, &st, ev);
	assert_int_equal(out[0], 2);
	assert_int_equal(st.leg[FCR_LEG_HOST_TO_TARGET], 1);
	/* the count stays what it was while blocked */
	assert_int_equal(fcr_redirect_dropped(tables->redirects, 0), 3);
	free_all(m, 1);
}

/* The sum of every worker's exchange counts on the entry (s, d). */
static void
exchanges_of(uint32_t s, uint32_t d, uint32_t *cmnds, uint32_t *ends)
{
	int idx = fcr_flow_find(tables->flows, fcr_flow_key(VLAN, s, d));
	struct fcr_flow_exchanges c;

	assert_true(idx >= 0);
	fcr_flow_exchanges_sum(tables->flows, (uint32_t)idx, &c);
	*cmnds = c.cmnds;
	*ends = c.ends;
}

/* A cutover's drain: on an entry held, FCP and FC-NVMe commands are dropped
 * (cutover_held) and the rest of the exchange goes on; a worker counts the
 * commands it sends and what ends their exchanges (FCP_RSP, BA_ACC; not a
 * BA_RJT, which answers an exchange never open). */
static void
a_held_entry_drops_new_commands_and_counts_exchanges(void **state)
{
	uint64_t key = fcr_flow_key(VLAN, FH, FT);
	int idx = fcr_flow_find(tables->flows, key);
	uint64_t a = tables->flows->action[idx];
	struct rte_mbuf *m[5] = {
		frame(FH, FT, 32, 1, FCR_RCTL_FCP_CMND, FCR_TYPE_FCP),
		fcp(FH, FT),
		frame(FVT, FH, 24, 1, FCR_RCTL_FCP_RSP, FCR_TYPE_FCP),
		frame(FVT, FH, 12, 1, FCR_RCTL_BA_ACC, FCR_TYPE_BLS),
		frame(FVT, FH, 4, 1, FCR_RCTL_BA_RJT, FCR_TYPE_BLS),
	};
	struct fcr_event ev[FCR_PIPELINE_EVENTS_MAX];
	struct fcr_pipeline_stats st;
	uint32_t c0, e0, c, e, vc0, ve0;
	uint16_t out[5];

	(void)state;
	exchanges_of(FH, FT, &c0, &e0);
	exchanges_of(FVT, FH, &vc0, &ve0);
	fcr_flow_set(tables->flows, key, a | FCR_ACTION_HOLD, tables->flows->owner[idx]);
	run(m, 5, 0, out, &st, ev);
	assert_int_equal(out[0], FCR_OUT_DROP);
	assert_int_equal(st.drop[FCR_R_CUTOVER_HELD], 1);
	assert_int_equal(out[1], 2);            /* its data: to the service node */
	assert_forwarded(m[1], FH, FVT, sn_mac, 2);
	assert_int_equal(out[2], 0);
	assert_int_equal(out[3], 0);
	assert_int_equal(out[4], 0);
	exchanges_of(FH, FT, &c, &e);
	assert_int_equal(c, c0);                /* the held command began nothing */
	exchanges_of(FVT, FH, &c, &e);
	assert_int_equal(e, ve0 + 2);           /* FCP_RSP and BA_ACC */
	free_all(m, 5);

	fcr_flow_set(tables->flows, key, a, tables->flows->owner[idx]);
	m[0] = frame(FH, FT, 32, 1, FCR_RCTL_FCP_CMND, FCR_TYPE_FCP);
	run(m, 1, 0, out, &st, ev);
	assert_int_equal(out[0], 2);
	assert_forwarded(m[0], FH, FVT, sn_mac, 2);
	exchanges_of(FH, FT, &c, &e);
	assert_int_equal(c, c0 + 1);
	free_all(m, 1);

	/* FC-NVMe (TYPE 0x28) the same: its command held while draining and
	 * counted after, its response (RSP or ERSP, 0x07) an end; a frame of
	 * another FC-4 in those categories neither */
	exchanges_of(FVT, FH, &vc0, &ve0);
	fcr_flow_set(tables->flows, key, a | FCR_ACTION_HOLD, tables->flows->owner[idx]);
	m[0] = frame(FH, FT, 64, 1, FCR_RCTL_FCP_CMND, FCR_TYPE_NVME);
	run(m, 1, 0, out, &st, ev);
	assert_int_equal(out[0], FCR_OUT_DROP);
	assert_int_equal(st.drop[FCR_R_CUTOVER_HELD], 1);
	free_all(m, 1);
	fcr_flow_set(tables->flows, key, a, tables->flows->owner[idx]);
	m[0] = frame(FH, FT, 64, 1, FCR_RCTL_FCP_CMND, FCR_TYPE_NVME);
	m[1] = frame(FH, FT, 64, 1, FCR_RCTL_FCP_CMND, 0x05);   /* not an FC-4 of commands */
	run(m, 2, 0, out, &st, ev);
	assert_int_equal(out[0], 2);
	exchanges_of(FH, FT, &c, &e);
	assert_int_equal(c, c0 + 2);
	free_all(m, 2);
	m[0] = frame(FVT, FH, 32, 1, FCR_RCTL_FCP_RSP, FCR_TYPE_NVME);
	run(m, 1, 2, out, &st, ev);
	assert_int_equal(out[0], 0);
	exchanges_of(FVT, FH, &c, &e);
	assert_int_equal(e, ve0 + 1);
	free_all(m, 1);
}

/* Between two edge ports a plain pair's frames go out to the FCF and come
 * back on the same entry: a held entry holds the commands coming in from
 * an edge port (their initiator's side), and lets by those coming back
 * from the fabric, whose first pass it counted. */
static void
a_held_entry_holds_commands_from_edge_ports_only(void **state)
{
	uint64_t key = fcr_flow_key(VLAN, 0x010005, 0x010007);
	struct fcr_event ev[FCR_PIPELINE_EVENTS_MAX];
	struct fcr_pipeline_stats st;
	uint32_t c0, e0, c, e;
	struct rte_mbuf *m[1];
	uint16_t out[1];

	(void)state;
	tables->fabric_mask = pl.fabric_mask = 1u << 1;
	log_in(0x2100000000000005ull, 0x010005, 0);
	assert_true(fcr_flow_set(tables->flows, key,
				 fcr_action(0x010005, 0x010007, FCR_LEG_PLAIN) | FCR_ACTION_HOLD,
				 FCR_NO_OWNER) >= 0);
	exchanges_of(0x010005, 0x010007, &c0, &e0);
	m[0] = frame(0x010005, 0x010007, 32, 1, FCR_RCTL_FCP_CMND, FCR_TYPE_FCP);
	run(m, 1, 0, out, &st, ev);             /* from the host's edge port */
	assert_int_equal(out[0], FCR_OUT_DROP);
	assert_int_equal(st.drop[FCR_R_CUTOVER_HELD], 1);
	exchanges_of(0x010005, 0x010007, &c, &e);
	assert_int_equal(c, c0);
	free_all(m, 1);
	m[0] = frame(0x010005, 0x010007, 32, 1, FCR_RCTL_FCP_CMND, FCR_TYPE_FCP);
	run(m, 1, 1, out, &st, ev);             /* back from the FCF */
	assert_int_equal(out[0], 0);
	assert_int_equal(st.drop[FCR_R_CUTOVER_HELD], 0);
	exchanges_of(0x010005, 0x010007, &c, &e);
	assert_int_equal(c, c0 + 1);
	free_all(m, 1);
	fcr_flow_del(tables->flows, key);
	tables->fabric_mask = pl.fabric_mask = 0;
}

/* frame() of exchange ox, sent by its originator or its responder */
static struct rte_mbuf *
xframe(uint32_t s, uint32_t d, uint8_t r_ctl, uint16_t ox, int responder)
{
	struct rte_mbuf *m;

	fc_ox = ox;
	fc_fctl = responder ? FCR_F_CTL_EXCH_CTX : 0;
	m = frame(s, d, r_ctl == FCR_RCTL_FCP_DATA ? 512 : 32, 1, r_ctl, FCR_TYPE_FCP);
	fc_ox = 0x1234;
	fc_fctl = 0;
	return m;
}

/* A pair draining per exchange (FCR_ACTION_DRAIN): the host's command
 * held on host -> target puts its OX_ID in the drain's set, and every
 * other frame of that exchange, either way, is dropped
 * (cutover_new_exchange); the exchanges open at the change go on by their
 * rules, and so do the exchanges the other side began. */
static void
a_draining_pair_drops_the_exchanges_begun_after_the_change(void **state)
{
	uint64_t kh = fcr_flow_key(VLAN, FH, FT), kv = fcr_flow_key(VLAN, FVT, FH);
	int ih = fcr_flow_find(tables->flows, kh), iv = fcr_flow_find(tables->flows, kv);
	uint64_t ah = tables->flows->action[ih], av = tables->flows->action[iv];
	uint64_t set = FCR_ACTION_DRAIN | 3ull << FCR_ACTION_DRAIN_SHIFT;
	struct rte_mbuf *m[7] = {
		xframe(FH, FT, FCR_RCTL_FCP_DATA, 0x10, 0), /* open at the change */
		xframe(FH, FT, FCR_RCTL_FCP_CMND, 0x20, 0), /* begun after: held */
		xframe(FH, FT, FCR_RCTL_FCP_DATA, 0x20, 0), /* its data */
		xframe(FVT, FH, FCR_RCTL_FCP_RSP, 0x10, 1), /* the old one ends */
		xframe(FVT, FH, FCR_RCTL_FCP_XFER_RDY, 0x20, 1), /* the new one's */
		xframe(FVT, FH, FCR_RCTL_FCP_DATA, 0x20, 0), /* one the VT began */
		xframe(FH, FT, FCR_RCTL_FCP_DATA, 0x21, 0), /* of no held command */
	};
	struct fcr_event ev[FCR_PIPELINE_EVENTS_MAX];
	struct fcr_pipeline_stats st;
	uint32_t c0, e0, c, e;
	uint16_t out[7];

	(void)state;
	memset(tables->redirects->xsets[3], 0, sizeof(tables->redirects->xsets[3]));
	exchanges_of(FVT, FH, &c0, &e0);
	fcr_flow_set(tables->flows, kh, ah | FCR_ACTION_HOLD | set, tables->flows->owner[ih]);
	fcr_flow_set(tables->flows, kv, av | set | FCR_ACTION_DRAIN_TO, tables->flows->owner[iv]);
	run(m, 7, 0, out, &st, ev);
	assert_int_equal(out[0], 2);
	assert_forwarded(m[0], FH, FVT, sn_mac, 2);
	assert_int_equal(out[1], FCR_OUT_DROP);
	assert_int_equal(out[2], FCR_OUT_DROP);
	assert_int_equal(out[3], 0);
	assert_int_equal(out[4], FCR_OUT_DROP);
	assert_int_equal(out[5], 0);
	assert_int_equal(out[6], 2);
	assert_int_equal(st.drop[FCR_R_CUTOVER_HELD], 1);
	assert_int_equal(st.drop[FCR_R_CUTOVER_NEW_EXCHANGE], 2);
	assert_true(tables->redirects->xsets[3][0][0x20 >> 6] == 1ull << (0x20 & 63));
	exchanges_of(FVT, FH, &c, &e);
	assert_int_equal(e, e0 + 1);
	free_all(m, 7);
	fcr_flow_set(tables->flows, kh, ah, tables->flows->owner[ih]);
	fcr_flow_set(tables->flows, kv, av, tables->flows->owner[iv]);
	/* no longer draining: the same frame goes */
	m[0] = xframe(FH, FT, FCR_RCTL_FCP_DATA, 0x20, 0);
	run(m, 1, 0, out, &st, ev);
	assert_int_equal(out[0], 2);
	free_all(m, 1);
}

static void
unknown_flow_goes_plain_and_is_reported_once(void **state)
{
	struct rte_mbuf *m[3] = { fcp(0x010009, 0x410009), fcp(0x010009, 0x410009),
				  fcp(0x010009, 0x410009) };
	struct fcr_event ev[FCR_PIPELINE_EVENTS_MAX];
	struct fcr_pipeline_stats st;
	uint8_t dst[6];
	uint16_t out[3];

	(void)state;
	fcr_pipeline_forget(&pl, NULL, 0);
	assert_int_equal(run(m, 3, 0, out, &st, ev), 1);
	assert_int_equal(ev[0].type, FCR_EV_FLOW_FIRST);
	assert_true(ev[0].flow_key == fcr_flow_key(VLAN, 0x010009, 0x410009));
	assert_int_equal(ev[0].count, 1);
	assert_int_equal(st.flow_miss, 3);
	assert_int_equal(st.leg[FCR_LEG_PLAIN], 3);
	/* the two frames after the report are told at the next forget */
	assert_int_equal(fcr_pipeline_forget(&pl, ev, 2), 1);
	assert_int_equal(ev[0].type, FCR_EV_FLOW_MISSES);
	assert_int_equal(ev[0].count, 2);
	assert_true(ev[0].flow_key == fcr_flow_key(VLAN, 0x010009, 0x410009));
	assert_int_equal(fcr_pipeline_forget(&pl, ev, 3), 0);
	fcr_fpma(dst, FCR_FC_MAP_DEFAULT, 0x410009);
	assert_int_equal(out[2], 1);
	assert_forwarded(m[2], 0x010009, 0x410009, dst, 1);
	free_all(m, 3);
}

/* An FCP command that is its flow's first frame: its exchange goes with
 * the report (and with the frames missed after it), for the entry the
 * tables lcore makes to count it open. */
static void
a_first_frame_command_is_reported_with_its_exchange(void **state)
{
	struct rte_mbuf *m[3] = {
		frame(0x01000a, 0x41000a, 32, 1, FCR_RCTL_FCP_CMND, FCR_TYPE_FCP),
		fcp(0x01000a, 0x41000a),
		frame(0x01000a, 0x41000a, 32, 1, FCR_RCTL_FCP_CMND, FCR_TYPE_FCP),
	};
	struct fcr_event ev[FCR_PIPELINE_EVENTS_MAX];
	struct fcr_pipeline_stats st;
	uint16_t out[3];

	(void)state;
	fcr_pipeline_forget(&pl, NULL, 0);
	assert_int_equal(run(m, 3, 0, out, &st, ev), 1);
	assert_int_equal(ev[0].type, FCR_EV_FLOW_FIRST);
	assert_int_equal(ev[0].cmnds, 1);
	assert_int_equal(ev[0].ends, 0);
	assert_int_equal(fcr_pipeline_forget(&pl, ev, 2), 1);
	assert_int_equal(ev[0].type, FCR_EV_FLOW_MISSES);
	assert_int_equal(ev[0].count, 2);
	assert_int_equal(ev[0].cmnds, 1);
	free_all(m, 3);
}

static void
a_bad_crc_stays_exactly_as_bad(void **state)
{
	struct rte_mbuf *m[1] = { fcp(FH, FT) };
	struct fcr_event ev[FCR_PIPELINE_EVENTS_MAX];
	struct fcr_pipeline_stats st;
	struct fcr_frame f;
	uint8_t *crc;
	uint16_t out[1];

	(void)state;
	parse(m[0], &f);
	crc = rte_pktmbuf_mtod_offset(m[0], uint8_t *, fcr_frame_crc_off(&f));
	crc[1] ^= 0x40;
	run(m, 1, 0, out, &st, ev);
	parse(m[0], &f);
	assert_int_equal(f.d_id, FVT);
	assert_int_equal(fcr_frame_verify_crc_mbuf(m[0], &f), FCR_R_BAD_CRC);
	/* the error is the one it arrived with, not a new one */
	assert_int_equal(f.crc ^ fcr_crc_calc(rte_pktmbuf_mtod_offset(m[0], uint8_t *,
								     f.fc_off), f.fc_len),
			 0x40u << 8);
	free_all(m, 1);
}

static void
crc_in_a_second_segment_is_updated(void **state)
{
	struct rte_mbuf *m[1] = { fcp(FT, FH) }, *tail = rte_pktmbuf_alloc(mp);
	struct fcr_event ev[FCR_PIPELINE_EVENTS_MAX];
	struct fcr_pipeline_stats st;
	uint16_t out[1], keep = 100, len = rte_pktmbuf_data_len(m[0]);
	uint8_t dst[6];

	(void)state;
	/* move all but the first 100 bytes (so the CRC too) into a second
	 * segment, the way a scattered RX delivers a long frame */
	memcpy(rte_pktmbuf_append(tail, (uint16_t)(len - keep)),
	       rte_pktmbuf_mtod_offset(m[0], uint8_t *, keep), len - keep);
	rte_pktmbuf_trim(m[0], (uint16_t)(len - keep));
	assert_int_equal(rte_pktmbuf_chain(m[0], tail), 0);
	run(m, 1, 1, out, &st, ev);
	assert_int_equal(out[0], 2);
	assert_forwarded(m[0], FT, FVI, sn_mac, 2);
	(void)dst;
	free_all(m, 1);
}

static void
largest_payload_forwards_with_a_good_crc(void **state)
{
	struct rte_mbuf *m[1] = { frame(FH, FT, FCR_FC_MAX_PAYLOAD, 0,
					FCR_RCTL_FCP_DATA, FCR_TYPE_FCP) };
	struct fcr_event ev[FCR_PIPELINE_EVENTS_MAX];
	struct fcr_pipeline_stats st;
	struct fcr_frame f;
	uint16_t out[1];

	(void)state;
	/* untagged frames are VLAN 0: no redirect there, plain */
	run(m, 1, 0, out, &st, ev);
	parse(m[0], &f);
	assert_int_equal(f.payload_len, FCR_FC_MAX_PAYLOAD);
	assert_int_equal(f.d_id, FT);
	assert_int_equal(fcr_frame_verify_crc_mbuf(m[0], &f), FCR_R_OK);
	assert_int_equal(out[0], 1);
	free_all(m, 1);
}

/* With fabric ports, fabric login frames (to and from FFFFFE) are held and
 * reported, numbered by their frame; a PLOGI teaches nothing and passes,
 * and a login with a bad CRC is not learned from. */
static void
fabric_logins_are_held_and_reported_and_plogi_and_bad_crc_are_not(void **state)
{
	struct rte_mbuf *m[3] = {
		frame(FVT, FT, FCR_ELS_SPARM_LEN, 1, FCR_RCTL_ELS_REQ, FCR_TYPE_ELS),
		flogi(0, FCR_FCID_FLOGI, FCR_RCTL_ELS_REQ, VT),
		flogi(0, FCR_FCID_FLOGI, FCR_RCTL_ELS_REQ, VT),
	};
	struct fcr_event ev[FCR_PIPELINE_EVENTS_MAX];
	struct fcr_pipeline_stats st;
	struct fcr_frame f;
	unsigned int n, i, logins = 0;
	uint16_t out[3];

	(void)state;
	parse(m[2], &f);
	rte_pktmbuf_mtod_offset(m[2], uint8_t *, fcr_frame_crc_off(&f))[0] ^= 1;
	pl.fabric_mask = 1u << 1;
	n = run(m, 3, 2, out, &st, ev);
	for (i = 0; i < n; i++)
		if (ev[i].type == FCR_EV_LOGIN) {
			logins++;
			assert_int_equal(ev[i].kind, FCR_LOGIN_FLOGI);
			assert_true(ev[i].wwpn == VT);
			assert_int_equal(ev[i].seq, 1);  /* its frame */
			assert_int_equal(ev[i].port, 2); /* where it came in */
		}
	assert_int_equal(logins, 1);
	assert_int_equal(st.logins, 1);
	assert_int_equal(st.logins_bad_crc, 1);
	/* the PLOGI and the corrupted FLOGI go on; the FLOGI waits */
	assert_int_equal(out[0], 1);
	assert_int_equal(out[1], 1 | FCR_OUT_HOLD);
	assert_int_equal(out[2], 1);
	/* without fabric ports nothing is snooped or held */
	pl.fabric_mask = 0;
	free_all(m, 3);
	m[0] = frame(0, FCR_FCID_FLOGI, FCR_ELS_SPARM_LEN, 1, FCR_RCTL_ELS_REQ, FCR_TYPE_ELS);
	assert_int_equal(run(m, 1, 1, out, &st, ev), 0);
	assert_int_equal(out[0], 1);
	free_all(m, 1);
}

/* An ELS request of the fabric controller (FFFFFD), its first payload
 * byte `cmd`, to d. */
static struct rte_mbuf *
fctrl_request(uint32_t d, uint8_t cmd)
{
	struct rte_mbuf *m = frame(FCR_FCID_FCTRL, d, 8, 1, FCR_RCTL_ELS_REQ, FCR_TYPE_ELS);
	struct fcr_frame f;

	parse(m, &f);
	rte_pktmbuf_mtod_offset(m, uint8_t *, f.fc_off + FCR_FC_HLEN)[0] = cmd;
	fcr_put_crc_mbuf(m, fcr_frame_crc_off(&f),
			 tu_crc32_ref(rte_pktmbuf_mtod_offset(m, uint8_t *, f.fc_off),
				      f.fc_len));
	return m;
}

/* The fabric's RSCN from a fabric port is held with no event of its own
 * (the worker sends it once the logins before it are applied, so no port
 * hears of a host's new FCID before the rules follow it); the fabric
 * controller's other requests are not, nor is anything without fabric
 * ports; from an edge port it is a station posing as the fabric. */
static void
an_rscn_from_the_fabric_is_held_with_no_event(void **state)
{
	struct rte_mbuf *m[2] = {
		fctrl_request(0x010009, FCR_ELS_RSCN),
		fctrl_request(0x010009, 0x62),
	};
	struct fcr_event ev[FCR_PIPELINE_EVENTS_MAX];
	struct fcr_pipeline_stats st;
	unsigned int n, i;
	uint16_t out[2];

	(void)state;
	pl.fabric_mask = 1u << 1;
	n = run(m, 2, 1, out, &st, ev);
	for (i = 0; i < n; i++)
		assert_int_not_equal(ev[i].type, FCR_EV_LOGIN);
	assert_int_equal(out[0], 0 | FCR_OUT_HOLD);
	assert_int_equal(out[1], 0);
	free_all(m, 2);
	m[0] = fctrl_request(0x010009, FCR_ELS_RSCN);
	run(m, 1, 2, out, &st, ev);
	assert_int_equal(out[0], FCR_OUT_DROP);
	assert_int_equal(st.drop[FCR_R_NOT_LOGGED_IN], 1);
	pl.fabric_mask = 0;
	run(m, 1, 1, out, &st, ev);
	assert_int_equal(out[0], 0);
	free_all(m, 1);
}

/* An edge port passes an FCoE frame only from a VN_Port that logged in
 * through it, from the MAC it was granted; a static binding from anywhere;
 * a fabric login request (S_ID 0) to ask. Fabric ports pass everything. */
static void
edge_ports_pass_only_logged_in_vn_ports(void **state)
{
	struct fcr_event ev[FCR_PIPELINE_EVENTS_MAX];
	struct fcr_pipeline_stats st;
	struct rte_mbuf *m[6];
	uint16_t out[6];

	(void)state;
	/* 0x010005 logs in through port 0, the fabric is on port 1 */
	tables->fabric_mask = pl.fabric_mask = 1u << 1;
	log_in(0x2100000000000005ull, 0x010005, 0);

	m[0] = fcp(0x010005, FT);  /* logged in through port 0: passes */
	m[1] = fcp(0x010005, FT);  /* the same S_ID from another MAC */
	m[2] = fcp(0x010006, FT);  /* never logged in */
	m[3] = fcp(FH, FT);        /* static binding: the operator vouches */
	m[4] = frame(0, FCR_FCID_FLOGI, FCR_ELS_SPARM_LEN, 1, FCR_RCTL_ELS_REQ,
		     FCR_TYPE_ELS);  /* asking to log in */
	m[5] = fcp(0x010005, FT);
	rte_pktmbuf_mtod(m[1], uint8_t *)[11] ^= 0x40;
	run(m, 5, 0, out, &st, ev);
	assert_int_equal(out[0], 1);
	assert_int_equal(out[1], FCR_OUT_DROP);
	assert_int_equal(out[2], FCR_OUT_DROP);
	assert_int_equal(out[3], 2); /* the redirect's host -> target leg */
	assert_int_equal(out[4] & ~FCR_OUT_HOLD, 1);
	assert_int_equal(st.drop[FCR_R_NOT_LOGGED_IN], 2);
	/* through another edge port: dropped; through the fabric port: passes */
	run(&m[5], 1, 2, out, &st, ev);
	assert_int_equal(out[0], FCR_OUT_DROP);
	assert_int_equal(st.drop[FCR_R_NOT_LOGGED_IN], 1);
	free_all(m, 6);
	m[0] = fcp(0x010006, FT);
	run(m, 1, 1, out, &st, ev);
	assert_int_equal(out[0], FCR_OUT_DROP); /* its route is the fabric port again */
	assert_int_equal(st.drop[FCR_R_FABRIC_LOOP], 1);
	free_all(m, 1);
	m[0] = fcp(0x410006, 0x010007);
	run(m, 1, 1, out, &st, ev);
	assert_int_equal(out[0], 0);
	free_all(m, 1);
	/* told to log in again (a cutover): what comes for it is dropped,
	 * and what it still sends (its ENode is resetting those sessions) */
	assert_int_equal(fcr_binding_leaving(tables->bindings,
			 fcr_binding_get(tables->bindings, VLAN, 0x2100000000000005ull, 0)), 0);
	m[0] = fcp(FT, 0x010005);
	run(m, 1, 1, out, &st, ev);
	assert_int_equal(out[0], FCR_OUT_DROP);
	assert_int_equal(st.drop[FCR_R_VN_PORT_GONE], 1);
	m[1] = fcp(0x010005, FT);
	run(&m[1], 1, 0, out, &st, ev);
	assert_int_equal(out[0], FCR_OUT_DROP);
	assert_int_equal(st.drop[FCR_R_VN_PORT_GONE], 1);
	assert_int_equal(st.drop[FCR_R_NOT_LOGGED_IN], 0);
	/* its new login (same FCID) rebinds it: its frames pass again */
	log_in(0x2100000000000005ull, 0x010005, 0);
	free_all(m, 2);
	m[0] = fcp(0x010005, FT);
	run(m, 1, 0, out, &st, ev);
	assert_int_equal(out[0], 1);
	free_all(m, 1);
	tables->fabric_mask = pl.fabric_mask = 0;
}

/* The owner key of the ENode that sent m (its source MAC, on VLAN). */
static uint64_t
sender_enode(struct rte_mbuf *m)
{
	return fcr_enode_key(VLAN, rte_pktmbuf_mtod(m, const uint8_t *) + 6);
}

/*
 * An ENode that logged in over FIP owns its edge port: its FIP frames and
 * its fabric logins over FCoE on any other edge port are dropped as
 * enode_wrong_port (no event: nothing of it reaches the tables), on its
 * own port and from the fabric they pass; once it is gone, anywhere.
 */
static void
an_enode_sends_only_through_the_port_it_logged_in_from(void **state)
{
	static uint8_t buf[512], payload[FCR_ELS_SPARM_LEN];
	struct fcr_l2_spec l2 = { .tagged = 1, .vlan = VLAN,
				  .src = { 0x0e, 0, 0, 0, 0, 0x44 } };
	struct fcr_fip_spec fip = { .subcode = FCR_FIP_SC_REQ,
				    .desc_type = FCR_FIP_DT_FLOGI };
	struct fcr_fc_spec fc = { .r_ctl = FCR_RCTL_ELS_REQ, .type = FCR_TYPE_ELS,
				  .d_id = FCR_FCID_FLOGI, .ox_id = 9,
				  .payload = payload, .payload_len = FCR_ELS_SPARM_LEN };
	struct fcr_event ev[FCR_PIPELINE_EVENTS_MAX];
	struct fcr_pipeline_stats st;
	struct rte_mbuf *m[2];
	uint16_t out[2];
	uint64_t owner;
	size_t len;
	unsigned int nev;

	(void)state;
	tables->fabric_mask = pl.fabric_mask = 1u << 1;
	fcr_els_sparm(payload, FCR_ELS_FLOGI, H, H + 1);
	len = fcr_build_fip_ls(buf, sizeof(buf), &l2, &fip, &fc);
	m[0] = rte_pktmbuf_alloc(mp);
	memcpy(rte_pktmbuf_append(m[0], (uint16_t)len), buf, len);
	m[1] = frame(0, FCR_FCID_FLOGI, FCR_ELS_SPARM_LEN, 1, FCR_RCTL_ELS_REQ, FCR_TYPE_ELS);
	/* both ENodes logged in through port 0 */
	owner = sender_enode(m[0]);
	assert_int_equal(fcr_binding_enode_own(tables->bindings, owner, 0), 0);
	assert_int_equal(fcr_binding_enode_own(tables->bindings, sender_enode(m[1]), 0), 0);
	nev = run(m, 2, 2, out, &st, ev);
	assert_int_equal(out[0], FCR_OUT_DROP);
	assert_int_equal(out[1], FCR_OUT_DROP);
	assert_int_equal(st.drop[FCR_R_ENODE_WRONG_PORT], 2);
	assert_int_equal(nev, 0);
	nev = run(m, 2, 0, out, &st, ev);
	assert_int_equal(out[0], 1 | FCR_OUT_HOLD);
	assert_int_equal(out[1] & ~FCR_OUT_HOLD, 1);
	assert_int_equal(st.drop[FCR_R_ENODE_WRONG_PORT], 0);
	assert_int_equal(nev, 2);
	/* another ENode on port 2 is its own */
	rte_pktmbuf_mtod(m[1], uint8_t *)[11] ^= 0x01;
	run(&m[1], 1, 2, out, &st, ev);
	assert_int_equal(out[0] & ~FCR_OUT_HOLD, 1);
	rte_pktmbuf_mtod(m[1], uint8_t *)[11] ^= 0x01;
	/* gone (timed out): its MAC may log in through another port */
	fcr_binding_enode_free(tables->bindings, owner);
	fcr_binding_enode_free(tables->bindings, sender_enode(m[1]));
	run(m, 2, 2, out, &st, ev);
	assert_int_equal(st.drop[FCR_R_ENODE_WRONG_PORT], 0);
	assert_int_equal(st.drop[FCR_R_NO_PASSTHROUGH], 1); /* port 2 has no FIP peer */
	assert_int_equal(out[1] & ~FCR_OUT_HOLD, 1);
	free_all(m, 2);
	tables->fabric_mask = pl.fabric_mask = 0;
}

/*
 * A fabric login reply goes where its request came from: once applied, a
 * login's accept to the port its granted VN_Port is bound behind (not
 * learned: dropped), another FIP reply to its ENode's port; a reply over
 * FCoE that grants nothing, and anything whose word says nothing, where it
 * was routed, never back out of the port it came in on.
 */
static void
a_login_reply_goes_where_its_request_came_from(void **state)
{
	const uint8_t enode[6] = { 0x0e, 0, 0, 0, 0, 0x44 };
	uint64_t grant = fcr_vn_key(VLAN, FH), own = fcr_vn_enode_key(fcr_enode_key(VLAN, enode));
	struct fcr_event ev;

	(void)state;
	memset(&ev, 0, sizeof(ev));
	ev.type = FCR_EV_LOGIN;
	ev.kind = FCR_LOGIN_ACC;
	ev.vlan = VLAN;
	ev.s_id = FCR_FCID_FLOGI;
	ev.d_id = FH;
	ev.has_wwpn = 1;
	memcpy(ev.enode, enode, 6);
	assert_true(fcr_pipeline_reply_key(&ev) == grant);      /* FLOGI/FDISC accept, FCoE */
	ev.has_wwpn = 0;
	assert_true(fcr_pipeline_reply_key(&ev) == 0);          /* a LOGO's accept, FCoE */
	ev.has_wwpn = 1;
	ev.s_id = FT;
	assert_true(fcr_pipeline_reply_key(&ev) == 0);          /* not the login server's */
	ev.kind = FCR_LOGIN_RJT;
	ev.s_id = FCR_FCID_FLOGI;
	assert_true(fcr_pipeline_reply_key(&ev) == 0);
	ev.via_fip = 1;
	ev.answers = FCR_LOGIN_FLOGI;
	assert_true(fcr_pipeline_reply_key(&ev) == own);        /* a reject, FIP */
	ev.kind = FCR_LOGIN_ACC;
	assert_true(fcr_pipeline_reply_key(&ev) == grant);
	ev.answers = FCR_LOGIN_FDISC;
	assert_true(fcr_pipeline_reply_key(&ev) == grant);
	ev.answers = FCR_LOGIN_LOGO;
	assert_true(fcr_pipeline_reply_key(&ev) == own);
	ev.answers = FCR_LOGIN_NONE;
	assert_true(fcr_pipeline_reply_key(&ev) == 0);
	ev.answers = FCR_LOGIN_FLOGI;
	ev.kind = FCR_LOGIN_CVL;
	assert_true(fcr_pipeline_reply_key(&ev) == 0);
	/* routed back out of the fabric port (1) it came in on: where the
	 * word says, else dropped; routed elsewhere: there unless the word
	 * names a port */
	assert_int_equal(fcr_pipeline_reply_port(fcr_vn_pack(enode, 0), 1, 1), 0);
	assert_int_equal(fcr_pipeline_reply_port(0, 1, 1), FCR_OUT_DROP);
	assert_int_equal(fcr_pipeline_reply_port(fcr_vn_pack(enode, 0) | FCR_VN_LEAVING, 1, 1),
			 FCR_OUT_DROP);
	assert_int_equal(fcr_pipeline_reply_port(FCR_VN_ANY, 1, 1), FCR_OUT_DROP);
	assert_int_equal(fcr_pipeline_reply_port(FCR_VN_ANY, 2, 1), 2);
	assert_int_equal(fcr_pipeline_reply_port(0, 2, 1), 2);
	assert_int_equal(fcr_pipeline_reply_port(fcr_vn_pack(enode, 1), 2, 1), 2);
	assert_int_equal(fcr_pipeline_reply_port(fcr_vn_pack(enode, 3), 2, 1), 3);
	assert_int_equal(fcr_pipeline_reply_port(0, 1 | FCR_OUT_FLOOD, 1), 1 | FCR_OUT_FLOOD);
	assert_int_equal(fcr_pipeline_reply_port(fcr_vn_pack(enode, 3), 1 | FCR_OUT_FLOOD, 1), 3);
}

/* The login server's accept of a new FCID whose route leads back into the
 * fabric port it came in on (the deployment's routes) is held, not dropped
 * as a loop, its MACs as the FCF addressed them: the worker sends it where
 * its request came from once applied. Any other frame to that FCID is a
 * loop. */
static void
a_login_accept_routed_into_the_fabric_waits_for_its_port(void **state)
{
	struct fcr_event ev[FCR_PIPELINE_EVENTS_MAX];
	struct fcr_pipeline_stats st;
	struct rte_mbuf *m[2];
	uint8_t eth[12];
	uint16_t out[2];
	unsigned int nev, i;

	(void)state;
	tables->fabric_mask = pl.fabric_mask = 1u << 1;
	m[0] = flogi(FCR_FCID_FLOGI, 0x410077, FCR_RCTL_ELS_REP, 0x2000000000000077ull);
	m[1] = fcp(FCR_FCID_FLOGI, 0x410077);
	memcpy(eth, rte_pktmbuf_mtod(m[0], uint8_t *), 12);
	nev = run(m, 2, 1, out, &st, ev);
	for (i = 0; i < nev && ev[i].type != FCR_EV_LOGIN; i++)
		;
	assert_true(i < nev);
	assert_int_equal(ev[i].kind, FCR_LOGIN_ACC);
	assert_true(fcr_pipeline_reply_key(&ev[i]) == fcr_vn_key(VLAN, 0x410077));
	assert_int_equal(out[0], 1 | FCR_OUT_HOLD | FCR_OUT_REPLY);
	assert_int_equal(st.leg[FCR_LEG_PLAIN], 0); /* counted when sent */
	assert_memory_equal(rte_pktmbuf_mtod(m[0], uint8_t *), eth, 12);
	assert_int_equal(out[1], FCR_OUT_DROP);
	assert_int_equal(st.drop[FCR_R_FABRIC_LOOP], 1);
	free_all(m, 2);
	tables->fabric_mask = pl.fabric_mask = 0;
}

/* With fabric ports fcredirect never sends its own MAC: to an ENode the
 * FCF's MAC (as the ENode addressed it, or as the FCF sent it) and the
 * route's destination; to the FCF its MAC kept and the S_ID's VN_Port MAC
 * (FPMA of a rewritten S_ID). FIP from a fabric port peered with several
 * edge ports goes to all of them. */
static void
fabric_macs_are_the_fcf_s_and_the_vn_port_s(void **state)
{
	static const uint8_t fcf[6] = { 0x0e, 0xfc, 0xf0, 0, 0, 1 };
	static const uint32_t flood[4] = { 0, 1u << 0 | 1u << 2, 0, 0 };
	struct fcr_event ev[FCR_PIPELINE_EVENTS_MAX];
	struct fcr_pipeline_stats st;
	struct rte_mbuf *m[5];
	uint16_t out[5];
	uint8_t mac[6];
	const uint8_t *e;
	int i;

	(void)state;
	tables->fabric_mask = pl.fabric_mask = 1u << 1;
	pl.flood = flood;
	m[0] = fcp(FH, FT);        /* host -> VT leg, edge to edge */
	m[1] = fcp(FH, 0x410009);  /* plain, edge to the fabric */
	m[2] = fcp(FVI, FT);       /* VI -> target leg (S_ID := host), to the fabric */
	for (i = 0; i < 3; i++)
		memcpy(rte_pktmbuf_mtod(m[i], uint8_t *), fcf, 6);
	run(m, 2, 0, out, &st, ev);
	run(&m[2], 1, 2, &out[2], &st, ev);
	assert_int_equal(out[0], 2);
	e = rte_pktmbuf_mtod(m[0], const uint8_t *);
	assert_memory_equal(e, sn_mac, 6);        /* the route's MAC */
	assert_memory_equal(e + 6, fcf, 6);       /* from the FCF */
	assert_int_equal(out[1], 1);
	e = rte_pktmbuf_mtod(m[1], const uint8_t *);
	fcr_fpma(mac, FCR_FC_MAP_DEFAULT, FH);
	assert_memory_equal(e, fcf, 6);
	assert_memory_equal(e + 6, mac, 6);
	assert_int_equal(out[2], 1);
	e = rte_pktmbuf_mtod(m[2], const uint8_t *);
	assert_memory_equal(e, fcf, 6);
	assert_memory_equal(e + 6, mac, 6);       /* FPMA of the host, its new S_ID */
	free_all(m, 3);

	/* the FCF advertises another FC-MAP on the VLAN: the VN_Port MACs
	 * fcredirect writes there are made with it (an S_ID rewritten toward
	 * the FCF, an FPMA route's destination); other VLANs keep --fc-map */
	{
		struct fcr_event adv = { .type = FCR_EV_LOGIN, .kind = FCR_LOGIN_ADV,
					 .vlan = VLAN, .port = 1, .via_fip = 1, .has_mac = 1,
					 .s_id = 0x0efc05, .port_id = UINT32_MAX };
		uint8_t mac5[6];

		memcpy(adv.mac, fcf, 6);
		fcr_tables_event(tables, &adv);
		assert_int_equal(fcr_tables_fc_map(tables, VLAN), 0x0efc05);
		assert_int_equal(fcr_tables_fc_map(tables, VLAN + 1), FCR_FC_MAP_DEFAULT);
		m[0] = fcp(FVI, FT);
		m[1] = fcp(0x410009, 0x010099);
		memcpy(rte_pktmbuf_mtod(m[0], uint8_t *), fcf, 6);
		memcpy(rte_pktmbuf_mtod(m[1], uint8_t *) + 6, fcf, 6);
		run(m, 1, 2, out, &st, ev);
		run(&m[1], 1, 1, &out[1], &st, ev);
		assert_int_equal(out[0], 1);
		fcr_fpma(mac5, 0x0efc05, FH);
		assert_memory_equal(rte_pktmbuf_mtod(m[0], const uint8_t *) + 6, mac5, 6);
		assert_int_equal(out[1], 0);
		fcr_fpma(mac5, 0x0efc05, 0x010099);
		assert_memory_equal(rte_pktmbuf_mtod(m[1], const uint8_t *), mac5, 6);
		free_all(m, 2);
		/* --fc-map does not override what the FCF said */
		fcr_tables_set_fc_map(tables, FCR_FC_MAP_DEFAULT);
		assert_int_equal(fcr_tables_fc_map(tables, VLAN), 0x0efc05);
		tables->fcf[VLAN].map_known = 0;
		fcr_tables_set_fc_map(tables, FCR_FC_MAP_DEFAULT);
	}

	/* from the FCF to an ENode: still from the FCF, to the VN_Port */
	m[0] = fcp(0x410009, FH);
	memcpy(rte_pktmbuf_mtod(m[0], uint8_t *) + 6, fcf, 6);
	run(m, 1, 1, out, &st, ev);
	assert_int_equal(out[0], 0);
	e = rte_pktmbuf_mtod(m[0], const uint8_t *);
	assert_memory_equal(e, mac, 6);
	assert_memory_equal(e + 6, fcf, 6);
	free_all(m, 1);

	/* a VN_Port that logged in through port 2: what the FCF sends it
	 * goes there, to its granted MAC, whatever the route says; what an
	 * edge station sends it follows the route (to the FCF) */
	{
		struct fcr_event le = { .type = FCR_EV_LOGIN, .kind = FCR_LOGIN_FDISC,
					.vlan = VLAN, .ox_id = 91, .has_wwpn = 1,
					.wwpn = 0x2100000000000077ull, .port = 2,
					.d_id = FCR_FCID_FLOGI, .via_fip = 1 };
		static const uint8_t spma[6] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 };

		le.enode[5] = 0x77;
		fcr_tables_event(tables, &le);
		le.kind = FCR_LOGIN_ACC;
		le.answers = FCR_LOGIN_FDISC;
		le.s_id = FCR_FCID_FLOGI;
		le.d_id = 0x010077;    /* the route says port 0 */
		le.port = 1;
		le.has_mac = 1;
		memcpy(le.mac, spma, 6);
		fcr_tables_event(tables, &le);
		m[0] = fcp(0x410009, 0x010077);
		m[1] = fcp(FH, 0x010077);
		run(m, 1, 1, out, &st, ev);
		run(&m[1], 1, 0, &out[1], &st, ev);
		assert_int_equal(out[0], 2);
		assert_memory_equal(rte_pktmbuf_mtod(m[0], const uint8_t *), spma, 6);
		assert_int_equal(out[1], 0);
		free_all(m, 2);
	}

	/* FIP: from the fabric port to both of its edge ports; back to it */
	for (i = 0; i < 2; i++) {
		struct rte_mbuf *f = fcp(FH, FT);

		rte_pktmbuf_mtod(f, uint8_t *)[16] = 0x89;  /* 0x8914 under the tag */
		rte_pktmbuf_mtod(f, uint8_t *)[17] = 0x14;
		m[i] = f;
	}
	run(m, 1, 1, out, &st, ev);
	run(&m[1], 1, 0, &out[1], &st, ev);
	assert_int_equal(out[0], 1 | FCR_OUT_FLOOD);
	assert_int_equal(out[1], 1);
	free_all(m, 2);
	pl.flood = NULL;
	tables->fabric_mask = pl.fabric_mask = 0;
}

/* Two FCFs on the VLAN (FC-BB-5 lets an ENode choose): the host logged in
 * through FCF A, the service node's VI and VT through FCF B, the target is
 * in the fabric. Each redirect leg joins VN_Ports of different FCFs, and
 * each frame must meet the FCF of the VN_Port it is for or from, as a real
 * ENode and FCF check: to an ENode, from its own FCF's MAC; to the fabric
 * with a rewritten S_ID, from that VN_Port's MAC to its FCF's. */
static const uint8_t fcf_a[6] = { 0x0e, 0xfc, 0xf0, 0, 0, 0xa }, fcf_b[6] = { 0x0e, 0xfc, 0xf0, 0, 0, 0xb };

/* A pipeline over t with port 1 the fabric port, its FIP to ports 0 and 2. */
static struct fcr_pipeline
fabric_pipeline(struct fcr_tables *t)
{
	static const uint32_t flood[3] = { 0, 1u << 0 | 1u << 2, 0 };
	struct fcr_pipeline p = {
		.tables = t, .port_mac = port_mac, .passthrough = passthrough,
		.nb_ports = 3, .worker = 0, .fabric_mask = 1u << 1, .flood = flood,
	};

	fcr_pipeline_forget(&p, NULL, 0);
	return p;
}

static void
fip_log_in(struct fcr_tables *t, uint64_t wwpn, uint32_t fcid, uint16_t port,
	   const uint8_t *fcf)
{
	const uint8_t enode[6] = { 0x0e, 0, 0, 0, (uint8_t)(fcid >> 16), (uint8_t)fcid };

	tu_fip_login(t, VLAN, wwpn, 0, fcid, port, 1, enode, fcf);
	assert_true(fcr_binding_by_fcid(t->bindings, VLAN, fcid) != FCR_BINDING_NONE);
}

static void
each_leg_meets_the_fcf_its_vn_port_chose(void **state)
{
	struct fcr_tables *t = tu_tables(1, 1u << 1);
	struct fcr_pipeline p = fabric_pipeline(t);
	struct fcr_event ev[FCR_PIPELINE_EVENTS_MAX];
	struct fcr_pipeline_stats st;
	struct {
		uint32_t s, d;           /* as sent */
		uint16_t in;
		const uint8_t *l2;       /* the FCF MAC it comes with */
		uint16_t out;
		uint32_t s_out, d_out;
		const uint8_t *src, *dst; /* NULL: FPMA of s_out / d_out */
	} c[] = {
		/* host -> target, to the VT: from the VT's FCF */
		{ FH, FT, 0, fcf_a, 2, FH, FVT, fcf_b, NULL },
		/* VT -> host, as the target: from the host's FCF */
		{ FVT, FH, 2, fcf_b, 0, FT, FH, fcf_a, NULL },
		/* VI -> target, as the host: the host's MAC to the host's FCF */
		{ FVI, FT, 2, fcf_b, 1, FH, FT, NULL, fcf_a },
		/* target -> host, from the fabric to the VI: from the VI's FCF */
		{ FT, FH, 1, fcf_a, 2, FT, FVI, fcf_b, NULL },
		/* plain host -> fabric: untouched, to the host's own FCF */
		{ FH, 0x410009, 0, fcf_a, 1, FH, 0x410009, NULL, fcf_a },
	};
	unsigned int i;
	uint16_t out;
	uint8_t a[6], b[6];
	int id;

	(void)state;
	fcr_route_add(t->routes, FCR_VLAN_ANY, 0x010000, 8, 0, NULL);
	fcr_route_add(t->routes, FCR_VLAN_ANY, 0x410000, 8, 1, NULL);
	fcr_route_add(t->routes, FCR_VLAN_ANY, 0x810000, 8, 2, NULL);
	for (i = 0; i < 2; i++) {
		struct fcr_event adv = { .type = FCR_EV_LOGIN, .kind = FCR_LOGIN_ADV,
					 .vlan = VLAN, .port = 1, .via_fip = 1, .has_mac = 1,
					 .name = 0x1000000000000000ull + i, .port_id = UINT32_MAX };

		memcpy(adv.mac, i == 0 ? fcf_a : fcf_b, 6);
		fcr_tables_event(t, &adv);
	}
	/* configured first: no cutover when its members log in */
	id = fcr_redirect_add(t->redirects, VLAN, H, T, VI, VT);
	assert_true(id >= 0);
	assert_int_equal(fcr_tables_binding_add(t, VLAN, T, FT, FCR_BIND_STATIC), 0);
	fip_log_in(t, H, FH, 0, fcf_a);
	fip_log_in(t, VI, FVI, 2, fcf_b);
	fip_log_in(t, VT, FVT, 2, fcf_b);
	assert_int_equal(t->redirects->r[id].state, FCR_RS_ACTIVE);
	/* each binding names the FCF that accepted its login */
	assert_int_equal(fcr_tables_vn_fcf_mac(t, t->bindings->entry[fcr_binding_get(
		t->bindings, VLAN, H, 0)].vn, a), 0);
	assert_memory_equal(a, fcf_a, 6);
	assert_int_equal(fcr_tables_vn_fcf_mac(t, t->bindings->entry[fcr_binding_get(
		t->bindings, VLAN, VT, 0)].vn, b), 0);
	assert_memory_equal(b, fcf_b, 6);

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct rte_mbuf *m = fcp(c[i].s, c[i].d);
		uint8_t *e = rte_pktmbuf_mtod(m, uint8_t *);
		uint8_t want[6];
		struct fcr_frame f;

		/* as its sender addressed it: an ENode to its FCF, the FCF from itself */
		if (c[i].in == 1) {
			memcpy(e + 6, c[i].l2, 6);
			fcr_fpma(e, FCR_FC_MAP_DEFAULT, c[i].d);
		} else {
			memcpy(e, c[i].l2, 6);
			fcr_fpma(e + 6, FCR_FC_MAP_DEFAULT, c[i].s);
		}
		run_on(&p, &m, c[i].in, &out, &st, ev);
		assert_int_equal(out, c[i].out);
		parse(m, &f);
		assert_int_equal(f.s_id, c[i].s_out);
		assert_int_equal(f.d_id, c[i].d_out);
		fcr_fpma(want, FCR_FC_MAP_DEFAULT, c[i].s_out);
		assert_memory_equal(e + 6, c[i].src != NULL ? c[i].src : want, 6);
		fcr_fpma(want, FCR_FC_MAP_DEFAULT, c[i].d_out);
		assert_memory_equal(e, c[i].dst != NULL ? c[i].dst : want, 6);
		rte_pktmbuf_free(m);
	}
	fcr_tables_free(t);
}

/* An FCF's advertisement (FC-BB-5) on VLAN, from fcf, naming fc_map. */
static struct rte_mbuf *
adv_frame(const uint8_t fcf[6], uint32_t fc_map)
{
	static const uint8_t all_enodes[6] = { 0x01, 0x10, 0x18, 0x01, 0x00, 0x01 };
	uint8_t d[] = {
		1, 1, 0, 128,                                    /* priority */
		2, 2, 0, 0, 0, 0, 0, 0,                          /* MAC */
		4, 3, 0, 0, 0x10, 0, 0, 0, 0, 0, 0, 0x0a,        /* name */
		5, 4, 0, 0, 0, (uint8_t)(fc_map >> 16), (uint8_t)(fc_map >> 8),
		(uint8_t)fc_map, 0x20, 0, 0, 0, 0, 0, 0, 0x01,  /* fabric: FC-MAP */
		12, 2, 0, 0, 0, 0, 0x03, 0xe8,                   /* FKA_ADV_Period */
	};
	struct rte_mbuf *m = rte_pktmbuf_alloc(mp);
	uint8_t *b;

	assert_non_null(m);
	memcpy(d + 6, fcf, 6);
	b = (uint8_t *)rte_pktmbuf_append(m, (uint16_t)(28 + sizeof(d)));
	memcpy(b, all_enodes, 6);
	memcpy(b + 6, fcf, 6);
	b[12] = 0x81, b[13] = 0x00, b[14] = VLAN >> 8, b[15] = VLAN & 0xFF;
	b[16] = 0x89, b[17] = 0x14;
	memset(b + 18, 0, 10);
	b[18] = 0x10;                     /* FIP version 1 */
	b[21] = 0x01;                     /* discovery */
	b[23] = 0x02;                     /* advertisement */
	b[25] = sizeof(d) / 4;            /* descriptor list, words */
	b[26] = 0x80, b[27] = 0x04;       /* FPMA, available */
	memcpy(b + 28, d, sizeof(d));
	return m;
}

/* --vlan-fc-map: on a VLAN whose fabric's FC-MAP is given, an FCF
 * advertising another on a fabric port is dropped (fcf_fc_map) and
 * teaches nothing, so no ENode hears it; one naming that FC-MAP goes on
 * as always. */
static void
an_fcf_of_another_fc_map_is_refused_where_the_vlan_s_is_given(void **state)
{
	struct fcr_tables *t = tu_tables(1, 1u << 1);
	struct fcr_pipeline p = fabric_pipeline(t);
	struct fcr_event ev[FCR_PIPELINE_EVENTS_MAX];
	struct fcr_pipeline_stats st;
	struct rte_mbuf *m;
	uint16_t out;

	(void)state;
	fcr_tables_fix_fc_map(t, VLAN, 0x0efc00);
	assert_int_equal(fcr_tables_fc_map(t, VLAN), 0x0efc00);
	m = adv_frame(fcf_a, 0x0efc05);
	run_on(&p, &m, 1, &out, &st, ev);
	assert_int_equal(out, FCR_OUT_DROP);
	assert_int_equal(st.drop[FCR_R_FCF_FC_MAP], 1);
	assert_int_equal(st.logins, 0);
	rte_pktmbuf_free(m);
	/* the given FC-MAP: to every ENode, an event for the tables */
	m = adv_frame(fcf_b, 0x0efc00);
	run_on(&p, &m, 1, &out, &st, ev);
	assert_int_equal(out & ~FCR_OUT_HOLD, 1 | FCR_OUT_FLOOD);
	assert_int_equal(st.drop[FCR_R_FCF_FC_MAP], 0);
	assert_int_equal(st.logins, 1);
	rte_pktmbuf_free(m);
	/* a state file's FCF of another FC-MAP does not undo it */
	fcr_tables_fcf_set(t, VLAN, fcf_a, 1, 1, 0x0efc05);
	assert_int_equal(fcr_tables_fc_map(t, VLAN), 0x0efc00);
	fcr_tables_free(t);
}

/* The VT's PLOGI accept reaches the host as the target's: its port name
 * and node name too, with a good CRC; the counters say so. The members'
 * node names become known after the rules are in (a login's). */
static void
an_els_on_a_leg_names_the_members_the_header_names(void **state)
{
	struct rte_mbuf *m[2] = {
		frame(FVT, FH, FCR_ELS_SPARM_LEN, 1, FCR_RCTL_ELS_REP, FCR_TYPE_ELS),
		frame(FVI, FT, FCR_ELS_SPARM_LEN, 1, FCR_RCTL_ELS_REQ, FCR_TYPE_ELS),
	};
	struct fcr_event ev[FCR_PIPELINE_EVENTS_MAX];
	struct fcr_pipeline_stats st;
	struct fcr_frame f;
	uint16_t out[2];
	int i;

	(void)state;
	fcr_tables_binding_node(tables, VLAN, VT, VT + 1, 0);   /* frame()'s */
	fcr_tables_binding_node(tables, VLAN, VI, VT + 1, 0);
	fcr_tables_binding_node(tables, VLAN, T, 0x1000000000000077ull, 0);
	fcr_tables_binding_node(tables, VLAN, H, 0x2000000000000066ull, 0);
	/* the VI's PLOGI names the VI; make it so (frame() names the VT) */
	parse(m[1], &f);
	fcr_put_be64(rte_pktmbuf_mtod_offset(m[1], uint8_t *, f.fc_off + FCR_FC_HLEN + 20), VI);
	fcr_put_crc_mbuf(m[1], fcr_frame_crc_off(&f),
			 fcr_crc_calc(rte_pktmbuf_mtod_offset(m[1], uint8_t *, f.fc_off), f.fc_len));
	run(m, 1, 2, out, &st, ev);
	run(&m[1], 1, 2, &out[1], &st, ev);
	assert_int_equal(out[0], 0);
	assert_int_equal(out[1], 1);
	assert_int_equal(st.els_ids, 1);
	for (i = 0; i < 2; i++) {
		const uint8_t *els;

		parse(m[i], &f);
		els = rte_pktmbuf_mtod_offset(m[i], const uint8_t *, f.fc_off + FCR_FC_HLEN);
		/* the host sees the target's names; the target the host's */
		assert_true(fcr_get_be64(els + 20) == (i == 0 ? T : H));
		assert_true(fcr_get_be64(els + 28) ==
			    (i == 0 ? 0x1000000000000077ull : 0x2000000000000066ull));
		assert_int_equal(fcr_frame_verify_crc_mbuf(m[i], &f), FCR_R_OK);
	}
	free_all(m, 2);
}

/* While the redirect is active the target never reaches the VI, nor the
 * host the VT, directly: the VI's answers to the target are the host's, so
 * an exchange the target began with the VI itself could never complete. */
static void
the_ends_never_reach_the_service_node(void **state)
{
	struct rte_mbuf *m[2] = { fcp(FT, FVI), fcp(FH, FVT) };
	struct fcr_event ev[FCR_PIPELINE_EVENTS_MAX];
	struct fcr_pipeline_stats st;
	uint16_t out[2];

	(void)state;
	run(m, 2, 0, out, &st, ev);
	assert_int_equal(out[0], FCR_OUT_DROP);
	assert_int_equal(out[1], FCR_OUT_DROP);
	assert_int_equal(st.drop[FCR_R_REDIRECT_HIDDEN], 2);
	free_all(m, 2);
}

/* Every frame a redirect leg rewrote carries the mark, in a lab and in a
 * fabric; a plain frame does not. */
static void
a_rewritten_frame_carries_the_mark_and_a_plain_one_does_not(void **state)
{
	struct fcr_event ev[FCR_PIPELINE_EVENTS_MAX];
	struct fcr_pipeline_stats st;
	struct rte_mbuf *m[5];
	uint16_t out[5];
	int fabric, i;

	(void)state;
	for (fabric = 0; fabric < 2; fabric++) {
		tables->fabric_mask = pl.fabric_mask = fabric ? 1u << 1 : 0;
		m[0] = fcp(FH, FT);
		m[1] = fcp(FVI, FT);
		m[2] = fcp(FT, FH);
		m[3] = fcp(FVT, FH);
		m[4] = fcp(FH, 0x410009);
		/* the legs from the ENodes' ports (0 and 2), in a fabric the
		 * target's from the fabric port */
		run(m, 1, 0, out, &st, ev);
		run(&m[1], 1, 2, &out[1], &st, ev);
		run(&m[2], 1, fabric ? 1 : 0, &out[2], &st, ev);
		run(&m[3], 2, fabric ? 2 : 0, &out[3], &st, ev);
		for (i = 0; i < 4; i++) {
			assert_int_not_equal(out[i], FCR_OUT_DROP);
			assert_true(has_mark(m[i]));
		}
		assert_int_not_equal(out[4], FCR_OUT_DROP);
		assert_false(has_mark(m[4]));
		free_all(m, 5);
	}
	tables->fabric_mask = pl.fabric_mask = 0;
}

/* A frame with the mark that arrives from the fabric or from a series port
 * goes on plain: no redirect rule (the host's frame stays the target's, its
 * bytes as they came but for the MACs), counted under series, no flow
 * reported, the mark kept; as a rewritten frame, to the edge port its
 * D_ID's VN_Port logged in through. The same frame without the mark, on the
 * same port, still goes to the VT; a series port still checks who sends. */
static void
a_marked_frame_from_the_fabric_or_a_series_port_goes_plain(void **state)
{
	struct fcr_event ev[FCR_PIPELINE_EVENTS_MAX];
	struct fcr_pipeline_stats st;
	uint8_t before[FCR_FCOE_MAX_FRAME];
	struct rte_mbuf *m[3];
	struct fcr_frame f;
	uint16_t out[3], len, in_port;

	(void)state;
	tables->fabric_mask = pl.fabric_mask = 1u << 1 | 1u << 3;
	pl.series_mask = 1u << 0;
	pl.nb_ports = 4;
	/* a host that logged in through edge port 2; its route says port 0 */
	log_in(LH, FLH, 2);
	/* ports 1 and 3 are the fabric's (the target behind 1), port 0 a
	 * series port */
	for (in_port = 0; in_port < 4; in_port += 3) {
		fcr_pipeline_forget(&pl, NULL, 0);
		m[0] = marked(fcp(FH, FT));
		m[1] = fcp(FH, FT);
		m[2] = marked(fcp(FT, FLH));
		len = rte_pktmbuf_data_len(m[0]);
		memcpy(before, rte_pktmbuf_mtod(m[0], uint8_t *), len);
		assert_int_equal(run(m, 3, in_port, out, &st, ev), 0);
		assert_int_equal(out[0], 1); /* the target's route */
		assert_memory_equal(rte_pktmbuf_mtod_offset(m[0], uint8_t *, 12),
				    before + 12, len - 12u);
		assert_true(has_mark(m[0]));
		assert_int_equal(out[2], 2);
		assert_int_equal(st.series, 2);
		assert_int_equal(st.flow_miss, 0);
		assert_int_equal(st.leg[FCR_LEG_PLAIN], 2);
		assert_int_equal(out[1], 2); /* unmarked: the host -> target leg */
		parse(m[1], &f);
		assert_int_equal(f.d_id, FVT);
		assert_true(f.mark);
		assert_int_equal(st.leg[FCR_LEG_HOST_TO_TARGET], 1);
		free_all(m, 3);
	}
	/* a series port is an edge port: only VN_Ports that logged in
	 * through it, the mark or not */
	m[0] = marked(fcp(0x010006, FT));
	run(m, 1, 0, out, &st, ev);
	assert_int_equal(out[0], FCR_OUT_DROP);
	assert_int_equal(st.drop[FCR_R_NOT_LOGGED_IN], 1);
	free_all(m, 1);
	assert_int_equal(fcr_tables_binding_del(tables, VLAN, LH), 0);
	pl.series_mask = 0;
	pl.nb_ports = 3;
	tables->fabric_mask = pl.fabric_mask = 0;
}

/* A node upstream redirected the target's frame to the VI: the target ->
 * VI pair, hidden here too, must still reach the VI (to the VI's port). */
static void
a_marked_frame_of_a_hidden_pair_reaches_the_service_node(void **state)
{
	struct fcr_event ev[FCR_PIPELINE_EVENTS_MAX];
	struct fcr_pipeline_stats st;
	struct rte_mbuf *m[2] = { marked(fcp(FT, FVI)), fcp(FT, FVI) };
	uint16_t out[2];

	(void)state;
	tables->fabric_mask = pl.fabric_mask = 1u << 1;
	run(m, 2, 1, out, &st, ev);
	assert_int_equal(out[0], 2);
	assert_int_equal(st.series, 1);
	/* without the mark: the end never meets the service node */
	assert_int_equal(out[1], FCR_OUT_DROP);
	assert_int_equal(st.drop[FCR_R_REDIRECT_HIDDEN], 1);
	free_all(m, 2);
	tables->fabric_mask = pl.fabric_mask = 0;
}

/* The tables lcore's side of the login events (not the first frames: a plain
 * entry would outlive the test). */
static void
apply_logins(const struct fcr_event *ev, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (ev[i].type == FCR_EV_LOGIN)
			fcr_tables_event(tables, &ev[i]);
}

/* A frame with the mark teaches no binding: the fabric's FLOGI accept with
 * it is neither reported nor held; the same accept without it binds. */
static void
a_marked_login_accept_teaches_nothing(void **state)
{
	struct fcr_event ev[FCR_PIPELINE_EVENTS_MAX];
	struct fcr_pipeline_stats st;
	struct rte_mbuf *m[3];
	unsigned int n, i;
	uint16_t out[3];

	(void)state;
	tables->fabric_mask = pl.fabric_mask = 1u << 1;
	m[0] = flogi(0, FCR_FCID_FLOGI, FCR_RCTL_ELS_REQ, LH);
	m[1] = marked(flogi(FCR_FCID_FLOGI, FLH, FCR_RCTL_ELS_REP, 0));
	m[2] = flogi(FCR_FCID_FLOGI, FLH, FCR_RCTL_ELS_REP, 0);
	/* each accept to the requester's MAC, so it answers the request */
	for (i = 1; i < 3; i++)
		memcpy(rte_pktmbuf_mtod(m[i], uint8_t *),
		       rte_pktmbuf_mtod(m[0], uint8_t *) + 6, 6);
	n = run(m, 1, 0, out, &st, ev);
	assert_int_equal(st.logins, 1);
	apply_logins(ev, n);
	n = run(&m[1], 1, 1, &out[1], &st, ev);
	assert_int_equal(n, 0);
	assert_int_equal(st.logins, 0);
	assert_int_equal(out[1], 0); /* sent at once: nothing to wait for */
	assert_int_equal(st.series, 1);
	assert_int_equal(fcr_binding_by_fcid(tables->bindings, VLAN, FLH),
			 FCR_BINDING_NONE);
	/* the control: the fabric's own accept binds the port */
	n = run(&m[2], 1, 1, &out[2], &st, ev);
	assert_int_equal(st.logins, 1);
	/* to a new FCID: its port decided once applied */
	assert_int_equal(out[2], 0 | FCR_OUT_HOLD | FCR_OUT_REPLY);
	apply_logins(ev, n);
	assert_int_not_equal(fcr_binding_by_fcid(tables->bindings, VLAN, FLH),
			     FCR_BINDING_NONE);
	assert_int_equal(fcr_tables_binding_del(tables, VLAN, LH), 0);
	free_all(m, 3);
	tables->fabric_mask = pl.fabric_mask = 0;
}

/* The mark from any other port is a station posing as a redirect upstream
 * to slip past one here: dropped, in a fabric (an edge port) and in a lab
 * (a port not named a series port). */
static void
a_marked_frame_from_another_port_is_dropped_as_mark_untrusted(void **state)
{
	struct fcr_event ev[FCR_PIPELINE_EVENTS_MAX];
	struct fcr_pipeline_stats st;
	struct rte_mbuf *m[1] = { marked(fcp(FH, FT)) };
	uint16_t out[1];

	(void)state;
	tables->fabric_mask = pl.fabric_mask = 1u << 1;
	pl.series_mask = 1u << 2;
	run(m, 1, 0, out, &st, ev);
	assert_int_equal(out[0], FCR_OUT_DROP);
	assert_int_equal(st.drop[FCR_R_MARK_UNTRUSTED], 1);
	assert_int_equal(st.series, 0);
	tables->fabric_mask = pl.fabric_mask = 0;
	run(m, 1, 0, out, &st, ev);
	assert_int_equal(out[0], FCR_OUT_DROP);
	assert_int_equal(st.drop[FCR_R_MARK_UNTRUSTED], 1);
	/* a lab's series port takes it, plain */
	pl.series_mask = 1u << 0;
	run(m, 1, 0, out, &st, ev);
	assert_int_equal(out[0], 1);
	assert_int_equal(st.series, 1);
	pl.series_mask = 0;
	free_all(m, 1);
}

static void
fip_and_other_ethertypes_pass_through(void **state)
{
	static uint8_t buf[512], payload[FCR_ELS_SPARM_LEN];
	struct fcr_l2_spec l2 = { .tagged = 1, .vlan = VLAN };
	struct fcr_fip_spec fip = { .subcode = FCR_FIP_SC_REQ,
				    .desc_type = FCR_FIP_DT_FLOGI };
	struct fcr_fc_spec fc = { .r_ctl = FCR_RCTL_ELS_REQ, .type = FCR_TYPE_ELS,
				  .d_id = FCR_FCID_FLOGI, .ox_id = 9,
				  .payload = payload,
				  .payload_len = FCR_ELS_SPARM_LEN };
	struct rte_mbuf *m[3];
	struct fcr_event ev[FCR_PIPELINE_EVENTS_MAX];
	struct fcr_pipeline_stats st;
	uint16_t out[3];
	size_t len;
	int i;

	(void)state;
	fcr_els_sparm(payload, FCR_ELS_FLOGI, H, H + 1);
	len = fcr_build_fip_ls(buf, sizeof(buf), &l2, &fip, &fc);
	for (i = 0; i < 3; i++) {
		m[i] = rte_pktmbuf_alloc(mp);
		memcpy(rte_pktmbuf_append(m[i], (uint16_t)len), buf, len);
	}
	/* the third is an LLDP-like frame of another EtherType */
	rte_pktmbuf_mtod(m[2], uint8_t *)[16] = 0x88;
	rte_pktmbuf_mtod(m[2], uint8_t *)[17] = 0xcc;
	/* without fabric ports FIP only passes through */
	assert_int_equal(run(m, 1, 0, out, &st, ev), 0);
	assert_int_equal(out[0], 1);
	pl.fabric_mask = 1u << 1;
	assert_int_equal(run(m, 2, 0, out, &st, ev), 2);
	pl.fabric_mask = 0;
	assert_int_equal(ev[0].kind, FCR_LOGIN_FLOGI);
	assert_true(ev[0].via_fip);
	assert_true(ev[0].wwpn == H);
	assert_int_equal(out[0], 1 | FCR_OUT_HOLD);
	assert_int_equal(out[1], 1 | FCR_OUT_HOLD);
	assert_int_equal(st.passthrough, 2);
	/* port 2's peer does not exist */
	assert_int_equal(run(&m[2], 1, 2, out, &st, ev), 0);
	assert_int_equal(out[0], FCR_OUT_DROP);
	assert_int_equal(st.drop[FCR_R_NO_PASSTHROUGH], 1);
	free_all(m, 3);
}

/* A NIC that strips the tag leaves no VLAN in the bytes: a FIP login is
 * still learned on the frame's VLAN (from the mbuf), as an FCoE one is. */
static void
fip_login_with_the_tag_stripped_by_the_nic_is_on_the_frames_vlan(void **state)
{
	static uint8_t buf[512], payload[FCR_ELS_SPARM_LEN];
	struct fcr_l2_spec l2 = { .tagged = 0 };
	struct fcr_fip_spec fip = { .subcode = FCR_FIP_SC_REQ,
				    .desc_type = FCR_FIP_DT_FLOGI };
	struct fcr_fc_spec fc = { .r_ctl = FCR_RCTL_ELS_REQ, .type = FCR_TYPE_ELS,
				  .d_id = FCR_FCID_FLOGI, .ox_id = 9,
				  .payload = payload,
				  .payload_len = FCR_ELS_SPARM_LEN };
	struct fcr_event ev[FCR_PIPELINE_EVENTS_MAX];
	struct fcr_pipeline_stats st;
	struct rte_mbuf *m[2];
	uint16_t out[2];
	size_t len;

	(void)state;
	fcr_els_sparm(payload, FCR_ELS_FLOGI, H, H + 1);
	len = fcr_build_fip_ls(buf, sizeof(buf), &l2, &fip, &fc);
	m[0] = rte_pktmbuf_alloc(mp);
	memcpy(rte_pktmbuf_append(m[0], (uint16_t)len), buf, len);
	m[0]->ol_flags |= RTE_MBUF_F_RX_VLAN_STRIPPED;
	m[0]->vlan_tci = 3 << 13 | VLAN;
	/* the same login in FCoE, tag stripped too */
	m[1] = frame(0, FCR_FCID_FLOGI, FCR_ELS_SPARM_LEN, 0, FCR_RCTL_ELS_REQ,
		     FCR_TYPE_ELS);
	m[1]->ol_flags |= RTE_MBUF_F_RX_VLAN_STRIPPED;
	m[1]->vlan_tci = 3 << 13 | VLAN;
	pl.fabric_mask = 1u << 1;
	fcr_pipeline_forget(&pl, NULL, 0); /* the flow's first frame is reported */
	assert_int_equal(run(m, 2, 0, out, &st, ev), 3);
	pl.fabric_mask = 0;
	assert_int_equal(ev[0].type, FCR_EV_LOGIN);
	assert_int_equal(ev[0].kind, FCR_LOGIN_FLOGI);
	assert_true(ev[0].via_fip);
	assert_int_equal(ev[0].vlan, VLAN);
	assert_int_equal(ev[1].type, FCR_EV_LOGIN);
	assert_false(ev[1].via_fip);
	assert_int_equal(ev[1].vlan, VLAN);
	assert_int_equal(out[0], 1 | FCR_OUT_HOLD);
	free_all(m, 2);
}

static void
drops_are_counted_under_their_reason(void **state)
{
	struct rte_mbuf *m[4] = { fcp(FH, 0x210001), fcp(FH, 0x610001), fcp(FH, FT),
				  fcp(FH, FT) };
	struct fcr_event ev[FCR_PIPELINE_EVENTS_MAX];
	struct fcr_pipeline_stats st;
	uint16_t out[4];

	(void)state;
	/* no route for domain 0x21; domain 0x61 routes to port 7 */
	rte_pktmbuf_mtod(m[2], uint8_t *)[18 + 13] = 0x77; /* bad SOF */
	rte_pktmbuf_trim(m[3], 20);                       /* cut short */
	run(m, 4, 0, out, &st, ev);
	assert_int_equal(out[0], FCR_OUT_DROP);
	assert_int_equal(out[1], FCR_OUT_DROP);
	assert_int_equal(out[2], FCR_OUT_DROP);
	assert_int_equal(out[3], FCR_OUT_DROP);
	assert_int_equal(st.drop[FCR_R_NO_ROUTE], 1);
	assert_int_equal(st.drop[FCR_R_NO_PORT], 1);
	assert_int_equal(st.drop[FCR_R_BAD_SOF], 1);
	assert_true(st.drop[FCR_R_BAD_EOF] + st.drop[FCR_R_BAD_LENGTH] +
		    st.drop[FCR_R_BAD_TRAILER] == 1);
	/* dropped frames are not counted as sent plain with no entry */
	assert_int_equal(st.flow_miss, 0);
	free_all(m, 4);
}

/* VLANs are separate fabrics: frames to the same D_ID in VLANs 100, 200
 * and 0 (untagged) leave by their VLAN's routes; a VLAN with no matching
 * route of its own takes the routes for every VLAN. */
static void
frames_to_one_d_id_in_two_vlans_leave_by_their_vlans_routes(void **state)
{
	static const struct {
		uint16_t vlan;
		int tagged;
		uint32_t d;
		uint16_t out;
	} c[] = {
		{ 100, 1, 0x210001, 1 },            /* VLAN 100's /8 */
		{ 200, 1, 0x210001, 2 },            /* VLAN 200's /8 */
		{ 200, 1, 0x210005, 0 },            /* VLAN 200's /24 */
		{ 100, 1, 0x210005, 1 },
		{ 200, 1, FT, 1 },                  /* the route for every VLAN */
		{ 300, 1, 0x210001, FCR_OUT_DROP }, /* no route of its own, none for all */
		{ 0, 0, 0x210001, 0 },              /* untagged: VLAN 0's */
		{ 0, 1, 0x210001, 0 },              /* priority-tagged: the same */
	};
	struct rte_mbuf *m[RTE_DIM(c)];
	struct fcr_event ev[FCR_PIPELINE_EVENTS_MAX];
	struct fcr_pipeline_stats st;
	uint16_t out[RTE_DIM(c)];
	uint8_t fpma[6];
	struct fcr_frame f;
	unsigned int i;

	(void)state;
	assert_int_equal(fcr_route_add(tables->routes, 100, 0x210000, 8, 1, NULL), 0);
	assert_int_equal(fcr_route_add(tables->routes, 200, 0x210000, 8, 2, sn_mac), 0);
	assert_int_equal(fcr_route_add(tables->routes, 200, 0x210005, 24, 0, NULL), 0);
	assert_int_equal(fcr_route_add(tables->routes, 0, 0x210000, 8, 0, NULL), 0);
	for (i = 0; i < RTE_DIM(c); i++)
		m[i] = frame_in(c[i].vlan, FH, c[i].d, 64, c[i].tagged, FCR_RCTL_FCP_DATA,
				FCR_TYPE_FCP);
	run(m, RTE_DIM(c), 0, out, &st, ev);
	for (i = 0; i < RTE_DIM(c); i++) {
		if (out[i] != c[i].out)
			fail_msg("frame %u (vlan %u to %06x): out %u, want %u", i, c[i].vlan,
				 c[i].d, out[i], c[i].out);
		if (out[i] == FCR_OUT_DROP)
			continue;
		parse(m[i], &f);
		assert_int_equal(f.vlan, c[i].vlan);
		assert_int_equal(f.d_id, c[i].d);
		fcr_fpma(fpma, FCR_FC_MAP_DEFAULT, c[i].d);
		assert_memory_equal(rte_pktmbuf_mtod(m[i], uint8_t *),
				    out[i] == 2 ? sn_mac : fpma, 6);
	}
	assert_int_equal(st.drop[FCR_R_NO_ROUTE], 1);
	free_all(m, RTE_DIM(c));
	assert_int_equal(fcr_route_del(tables->routes, 100, 0x210000, 8), 0);
	assert_int_equal(fcr_route_del(tables->routes, 200, 0x210000, 8), 0);
	assert_int_equal(fcr_route_del(tables->routes, 200, 0x210005, 24), 0);
	assert_int_equal(fcr_route_del(tables->routes, 0, 0x210000, 8), 0);
}

/* The latency the service node adds: the host's command to the VT's
 * response of its OX_ID on the host's side, the VI's command to the
 * target's response on the node's own. */
static void
the_service_node_s_latency_is_timed_on_both_sides(void **state)
{
	struct fcr_redirect_table *rd = tables->redirects;
	struct fcr_event ev[FCR_PIPELINE_EVENTS_MAX];
	struct fcr_pipeline_stats st;
	const struct fcr_latency *l;
	struct rte_mbuf *m;
	uint16_t out;
	int id = fcr_redirect_find(rd, VLAN, H, T);
	const struct {
		uint32_t s, d;
		uint8_t r_ctl;
		uint64_t at_us;
	} seq[] = {
		{ FH, FT, FCR_RCTL_FCP_CMND, 1000 },   /* host_to_target */
		{ FVI, FT, FCR_RCTL_FCP_CMND, 1010 },  /* vi_to_target */
		{ FT, FH, FCR_RCTL_FCP_RSP, 1050 },    /* target_to_host: to the VI */
		{ FVT, FH, FCR_RCTL_FCP_RSP, 1200 },   /* vt_to_host */
	};
	unsigned int i;

	(void)state;
	assert_true(id >= 0);
	l = &rd->lat[id];
	pl.lat_tsc_per_us = 1000;
	pl.lat_stale = 2000000ull * 1000;
	for (i = 0; i < 4; i++) {
		m = frame(seq[i].s, seq[i].d, 32, 1, seq[i].r_ctl, FCR_TYPE_FCP);
		memset(&st, 0, sizeof(st));
		fcr_pipeline_burst(&pl, seq[i].s == FT ? 1 : seq[i].s == FH ? 0 : 2, &m, 1, &out,
				   &st, ev, seq[i].at_us * 1000);
		assert_int_not_equal(out, FCR_OUT_DROP);
		rte_pktmbuf_free(m);
	}
	assert_int_equal(fcr_latency_total(l, FCR_LAT_HOST), 1);
	assert_int_equal(l->count[FCR_LAT_HOST][fcr_lat_bin(200)], 1);
	assert_int_equal(fcr_latency_total(l, FCR_LAT_VI), 1);
	assert_int_equal(l->count[FCR_LAT_VI][fcr_lat_bin(40)], 1);
	pl.lat_stale = 0;
}

/* A VI -> target FCP data frame of 2048 bytes: random (ciphertext) or
 * frame_in's counting pattern (cleartext). */
static struct rte_mbuf *
vi_data(int random)
{
	struct rte_mbuf *m = frame(FVI, FT, 2048, 1, FCR_RCTL_FCP_DATA, FCR_TYPE_FCP);
	uint64_t x = 0x9E3779B97F4A7C15ull;
	struct fcr_frame f;
	uint8_t *p;
	int i;

	parse(m, &f);
	p = rte_pktmbuf_mtod_offset(m, uint8_t *, f.fc_off + FCR_FC_HLEN);
	for (i = 0; random && i < 2048; i++) {
		x ^= x >> 12, x ^= x << 25, x ^= x >> 27;
		p[i] = (uint8_t)((x * 0x2545F4914F6CDD1Dull) >> 56);
	}
	fcr_put_crc_mbuf(m, fcr_frame_crc_off(&f),
			 tu_crc32_ref(rte_pktmbuf_mtod_offset(m, uint8_t *, f.fc_off), f.fc_len));
	return m;
}

/* --cleartext-guard: every guard_every-th data frame on a VI -> target
 * leg is judged; one that does not look encrypted is counted (for its
 * redirect too) and, with drop, dropped (cleartext). The tables' look
 * then logs it and, with drop, stops the redirect: its pair and its VI's
 * way to the target fail closed until `redirect resume`. */
static void
the_cleartext_guard_finds_a_service_node_that_does_not_encrypt(void **state)
{
	struct fcr_redirect_table *rd = tables->redirects;
	struct fcr_event ev[FCR_PIPELINE_EVENTS_MAX];
	struct fcr_pipeline_stats st;
	struct fcr_redirect *r;
	struct rte_mbuf *m[2];
	unsigned int stops;
	uint8_t fpma_t[6];
	uint16_t out[2];
	int id = fcr_redirect_find(rd, VLAN, H, T);

	(void)state;
	assert_true(id >= 0);
	r = &rd->r[id];
	assert_int_equal(r->state, FCR_RS_ACTIVE);
	pl.guard_every = 2;
	pl.guard_count = 0;
	/* alarm: the second of two clear frames judged, both sent */
	m[0] = vi_data(0);
	m[1] = vi_data(0);
	run(m, 2, 2, out, &st, ev);
	assert_int_equal(out[0], 1);
	assert_int_equal(out[1], 1);
	assert_int_equal(st.guard_judged, 1);
	assert_int_equal(st.guard_clear, 1);
	assert_int_equal(fcr_redirect_cleartext(rd, (uint32_t)id), 1);
	fcr_fpma(fpma_t, FCR_FC_MAP_DEFAULT, FT);
	assert_forwarded(m[1], FH, FT, fpma_t, 1);
	free_all(m, 2);
	/* ciphertext: judged, passes */
	m[0] = vi_data(1);
	m[1] = vi_data(1);
	run(m, 2, 2, out, &st, ev);
	assert_int_equal(st.guard_judged, 1);
	assert_int_equal(st.guard_clear, 0);
	free_all(m, 2);
	/* the look without drop: found, logged, nothing stopped */
	assert_int_equal(fcr_redirect_guard_tick(rd, 0, &stops), 1);
	assert_int_equal(stops, 0);
	assert_int_equal(fcr_redirect_guard_tick(rd, 0, &stops), 0);
	assert_int_equal(r->state, FCR_RS_ACTIVE);
	/* drop: the frame judged clear goes nowhere */
	pl.guard_drop = 1;
	pl.guard_every = 1;
	m[0] = vi_data(0);
	run(m, 1, 2, out, &st, ev);
	assert_int_equal(out[0], FCR_OUT_DROP);
	assert_int_equal(st.drop[FCR_R_CLEARTEXT], 1);
	rte_pktmbuf_free(m[0]);
	/* a short frame is not judged */
	m[0] = frame(FVI, FT, FCR_CLEARTEXT_MIN - 4, 1, FCR_RCTL_FCP_DATA, FCR_TYPE_FCP);
	run(m, 1, 2, out, &st, ev);
	assert_int_equal(out[0], 1);
	assert_int_equal(st.guard_judged, 0);
	rte_pktmbuf_free(m[0]);
	/* the look with drop stops the redirect: the host's frames and the
	 * VI's to the target are dropped, never plain */
	assert_int_equal(fcr_redirect_guard_tick(rd, 1, &stops), 1);
	assert_int_equal(stops, 1);
	assert_int_equal(r->state, FCR_RS_CLEARTEXT);
	assert_string_equal(fcr_redirect_state_name(r->state), "cleartext");
	m[0] = fcp(FH, FT);
	m[1] = fcp(FVI, FT);
	run(m, 2, 0, out, &st, ev);
	assert_int_equal(out[0], FCR_OUT_DROP);
	assert_int_equal(out[1], FCR_OUT_DROP);
	assert_int_equal(st.drop[FCR_R_REDIRECT_NOT_READY], 2);
	free_all(m, 2);
	/* a configuration's add again does not undo it; resume does */
	assert_int_equal(fcr_redirect_add(rd, VLAN, H, T, VI, VT), id);
	assert_int_equal(r->state, FCR_RS_CLEARTEXT);
	assert_int_equal(fcr_redirect_resume(rd, VLAN, H, T), 0);
	assert_int_equal(fcr_redirect_resume(rd, VLAN, H, T), -EALREADY);
	assert_int_equal(fcr_redirect_resume(rd, VLAN, H, VT), -ENOENT);
	assert_int_equal(r->state, FCR_RS_ACTIVE);
	m[0] = fcp(FH, FT);
	run(m, 1, 0, out, &st, ev);
	assert_int_equal(out[0], 2);
	assert_forwarded(m[0], FH, FVT, sn_mac, 2);
	rte_pktmbuf_free(m[0]);
	pl.guard_every = 0;
	pl.guard_drop = 0;
}

static int
setup(void **state)
{
	struct fcr_tables_params p = {
		.max_flows = 1024, .max_routes = 16, .max_bindings = 64,
		.max_redirects = 16, .nb_workers = 1, .socket = 0,
	};

	(void)state;
	if (tu_eal_init("test_pipeline", "256", "0") < 0)
		return -1;
	fcr_crc_init();
	mp = rte_pktmbuf_pool_create("tp", 1024, 0, 0, 2432 + 128, 0);
	tables = fcr_tables_create("tp", &p);
	if (mp == NULL || tables == NULL)
		return -1;
	fcr_route_add(tables->routes, FCR_VLAN_ANY, 0x010000, 8, 0, NULL);
	fcr_route_add(tables->routes, FCR_VLAN_ANY, 0x410000, 8, 1, NULL);
	fcr_route_add(tables->routes, FCR_VLAN_ANY, 0x810000, 8, 2, sn_mac);
	fcr_route_add(tables->routes, FCR_VLAN_ANY, 0x610000, 8, 7, NULL);
	fcr_route_add(tables->routes, FCR_VLAN_ANY, 0xFF0000, 8, 1, NULL); /* the fabric's services */
	fcr_tables_binding_add(tables, VLAN, H, FH, FCR_BIND_STATIC);
	fcr_tables_binding_add(tables, VLAN, T, FT, FCR_BIND_STATIC);
	fcr_tables_binding_add(tables, VLAN, VI, FVI, FCR_BIND_STATIC);
	fcr_tables_binding_add(tables, VLAN, VT, FVT, FCR_BIND_STATIC);
	if (fcr_redirect_add(tables->redirects, VLAN, H, T, VI, VT) < 0)
		return -1;
	pl = (struct fcr_pipeline){
		.tables = tables, .port_mac = port_mac, .passthrough = passthrough,
		.nb_ports = 3, .worker = 0,
	};
	fcr_pipeline_forget(&pl, NULL, 0);
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	fcr_tables_free(tables);
	rte_mempool_free(mp);
	rte_eal_cleanup();
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_redirect_leg_is_rewritten_and_routed),
		cmocka_unit_test(a_redirect_that_is_not_active_drops_its_pair_and_counts_it),
		cmocka_unit_test(a_held_entry_drops_new_commands_and_counts_exchanges),
		cmocka_unit_test(a_held_entry_holds_commands_from_edge_ports_only),
		cmocka_unit_test(a_draining_pair_drops_the_exchanges_begun_after_the_change),
		cmocka_unit_test(unknown_flow_goes_plain_and_is_reported_once),
		cmocka_unit_test(a_first_frame_command_is_reported_with_its_exchange),
		cmocka_unit_test(a_bad_crc_stays_exactly_as_bad),
		cmocka_unit_test(crc_in_a_second_segment_is_updated),
		cmocka_unit_test(largest_payload_forwards_with_a_good_crc),
		cmocka_unit_test(fabric_logins_are_held_and_reported_and_plogi_and_bad_crc_are_not),
		cmocka_unit_test(an_rscn_from_the_fabric_is_held_with_no_event),
		cmocka_unit_test(edge_ports_pass_only_logged_in_vn_ports),
		cmocka_unit_test(an_enode_sends_only_through_the_port_it_logged_in_from),
		cmocka_unit_test(a_login_reply_goes_where_its_request_came_from),
		cmocka_unit_test(a_login_accept_routed_into_the_fabric_waits_for_its_port),
		cmocka_unit_test(fabric_macs_are_the_fcf_s_and_the_vn_port_s),
		cmocka_unit_test(each_leg_meets_the_fcf_its_vn_port_chose),
		cmocka_unit_test(an_fcf_of_another_fc_map_is_refused_where_the_vlan_s_is_given),
		cmocka_unit_test(an_els_on_a_leg_names_the_members_the_header_names),
		cmocka_unit_test(the_ends_never_reach_the_service_node),
		cmocka_unit_test(a_rewritten_frame_carries_the_mark_and_a_plain_one_does_not),
		cmocka_unit_test(a_marked_frame_from_the_fabric_or_a_series_port_goes_plain),
		cmocka_unit_test(a_marked_frame_of_a_hidden_pair_reaches_the_service_node),
		cmocka_unit_test(a_marked_login_accept_teaches_nothing),
		cmocka_unit_test(a_marked_frame_from_another_port_is_dropped_as_mark_untrusted),
		cmocka_unit_test(fip_and_other_ethertypes_pass_through),
		cmocka_unit_test(fip_login_with_the_tag_stripped_by_the_nic_is_on_the_frames_vlan),
		cmocka_unit_test(frames_to_one_d_id_in_two_vlans_leave_by_their_vlans_routes),
		cmocka_unit_test(drops_are_counted_under_their_reason),
		cmocka_unit_test(the_service_node_s_latency_is_timed_on_both_sides),
		/* last: its drops count on the redirect the tests before it read */
		cmocka_unit_test(the_cleartext_guard_finds_a_service_node_that_does_not_encrypt),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
