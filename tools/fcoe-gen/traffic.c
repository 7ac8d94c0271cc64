/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_byteorder.h>

#include "fcr_build.h"
#include "fcr_crc.h"
#include "fcr_fcoe.h"
#include "traffic.h"

/* F_CTL values (FC-FS): exchange context (responder), last sequence,
 * end sequence, sequence initiative, first sequence, relative offset. */
#define F_EX_CTX 0x800000u
#define F_FIRST_SEQ 0x200000u
#define F_LAST_SEQ 0x100000u
#define F_END_SEQ 0x080000u
#define F_SEQ_INIT 0x010000u
#define F_REL_OFF 0x000008u
#define F_REQ (F_FIRST_SEQ | F_END_SEQ | F_SEQ_INIT)
#define F_RESP (F_EX_CTX | F_LAST_SEQ | F_END_SEQ | F_SEQ_INIT)

#define FIP_FL_FPMA 0x8000u
#define UNASSIGNED 0xFFFFu

#define FCP_CMND_LEN 32
#define FCP_XFER_RDY_LEN 12
#define FCP_RSP_LEN 24
#define FCP_RESID_OVER 0x04
#define PRLI_LEN 20
#define SCSI_READ10 0x28
#define SCSI_WRITE10 0x2A
#define BLOCK 512u

struct gen {
	const struct fcr_gen_fabric *fab;
	const struct fcr_gen_traffic_conf *conf;
	struct fcr_gen_out *out;
	struct fcr_l2_spec l2;
	uint16_t *ox_next;      /* per port (fcr_gen_port_index) */
	uint16_t *rx_next;      /* per target */
	uint16_t fabric_rx;
	uint64_t rng;           /* per-exchange choices */
	uint64_t data_key;      /* FCP_DATA content */
	uint32_t relogged;      /* hosts 0..relogged-1 use their second FCID */
	uint32_t logged_out;    /* hosts 0..logged_out-1 have sent LOGO */
	uint64_t data_frames;   /* FCP_DATA frames so far (for --bad-crc) */
	uint64_t gap_seq;       /* filler frames so far */
	uint8_t payload[FCR_FC_MAX_PAYLOAD];
	/* room for the malformed too_long frame, 4 bytes past the largest */
	uint8_t buf[FCR_FCOE_MAX_FRAME + 64];
};

/* One flow's ports, resolved once per exchange. */
struct pair {
	uint32_t host, target;
	int redirected;
	uint32_t h_fcid, t_fcid, vi_fcid, vt_fcid;
};

enum dir { H2T, T2H };

static inline uint64_t
mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

/* splitmix64: tiny, and the same sequence on every platform */
static inline uint64_t
rng_next(uint64_t *s)
{
	*s += 0x9E3779B97F4A7C15ull;
	return mix64(*s);
}

/* Exchange IDs count up per port and skip 0xFFFF, which means unassigned. */
static inline uint16_t
next_id(uint16_t *ctr)
{
	uint16_t v = *ctr;

	*ctr = v >= 0xFFFE ? 0 : (uint16_t)(v + 1);
	return v;
}

static void
put_frame(struct gen *g, size_t len, enum fcr_gen_kind kind,
	  const struct fcr_fc_spec *fc)
{
	struct fcr_gen_ids ids = {
		.vlan = g->l2.tagged ? g->l2.vlan : -1,
		.s_id = fc->s_id,
		.d_id = fc->d_id,
		.ox_id = fc->ox_id,
	};

	if (len == 0) {
		/* only a bug here can make a frame not fit */
		fprintf(stderr, "fcoe-gen: internal error building a %s frame\n",
			fcr_gen_kind_name(kind));
		exit(1);
	}
	fcr_gen_out_frame(g->out, g->buf, len, kind, &ids);
}

/* An FCoE frame from a VN_Port to the FCF: FPMA source, FCF destination.
 * Every conf->bad_crc-th FCP_DATA frame leaves with its CRC bits flipped. */
static void
emit(struct gen *g, enum fcr_gen_kind kind, uint32_t s_id, uint32_t d_id,
     struct fcr_fc_spec *fc)
{
	size_t len, i;

	fc->s_id = s_id;
	fc->d_id = d_id;
	fcr_fpma(g->l2.src, FCR_FC_MAP_DEFAULT, s_id);
	memcpy(g->l2.dst, fcr_gen_fcf_mac, 6);
	len = fcr_build_fcoe(g->buf, sizeof(g->buf), &g->l2, fc);
	if (len != 0 && kind == FCR_GEN_K_FCP_DATA && g->conf->bad_crc != 0 &&
	    ++g->data_frames % g->conf->bad_crc == 0) {
		/* the CRC is the 4 bytes before EOF and its 3 reserved bytes */
		for (i = 0; i < 4; i++)
			g->buf[len - FCR_FCOE_TLEN + i] ^=
				(uint8_t)(FCR_GEN_BAD_CRC_XOR >> (8 * i));
		kind = FCR_GEN_K_FCP_DATA_BADCRC;
	}
	put_frame(g, len, kind, fc);
}

/* The FCID a host uses now: its second one once it has logged in again. */
static inline uint32_t
host_fcid(const struct gen *g, uint32_t host)
{
	return host < g->relogged ? fcr_gen_relogin_fcid(g->fab, host) :
				    fcr_gen_fcid(g->fab, FCR_GEN_HOST, host);
}

/* Ethernet header for the frames built here by hand; returns its length. */
static size_t
put_l2(uint8_t *b, const uint8_t dst[6], const uint8_t src[6], int tagged,
       uint8_t pcp, uint16_t vlan, uint16_t ethertype)
{
	size_t off = 12;

	memcpy(b, dst, 6);
	memcpy(b + 6, src, 6);
	if (tagged) {
		fcr_put_be16(b + 12, FCR_ETHERTYPE_VLAN);
		fcr_put_be16(b + 14, (uint16_t)((pcp & 7) << 13 | (vlan & 0x0FFF)));
		off += FCR_VLAN_HLEN;
	}
	fcr_put_be16(b + off, ethertype);
	return off + 2;
}

/* n filler frames of EtherType 0x88B5 from the generator's own MAC to the
 * FCF, minimum size, each carrying its sequence number: neither FCoE nor
 * FIP, they pass through a forwarder and give it time. */
static void
gap(struct gen *g, uint64_t n)
{
	static const uint8_t src[6] = { 0x02, 0xfc, 0x00, 0x00, 0x00, 0x00 };
	static const char tag[] = "fcoe-gen gap";
	struct fcr_gen_ids ids = {
		.vlan = g->l2.tagged ? g->l2.vlan : -1,
		.no_fc = 1,
	};
	size_t off, len;
	uint64_t i;

	for (i = 0; i < n; i++) {
		off = put_l2(g->buf, fcr_gen_fcf_mac, src, g->l2.tagged, g->l2.pcp,
			     g->l2.vlan, FCR_GEN_GAP_ETHERTYPE);
		len = off + 46; /* 60 bytes untagged, 64 tagged */
		memset(g->buf + off, 0, len - off);
		memcpy(g->buf + off, tag, sizeof(tag) - 1);
		fcr_put_be64(g->buf + off + 16, g->gap_seq++);
		fcr_gen_out_frame(g->out, g->buf, len, FCR_GEN_K_GAP, &ids);
	}
}

/*
 * A frame of a flow, with its service-node leg when the flow is redirected.
 * sparm_cmd != 0: the payload is service parameters of the sender, rebuilt
 * for each leg so every login names the port that sends it.
 */
static void
send(struct gen *g, const struct pair *p, enum dir dir, enum fcr_gen_kind kind,
     struct fcr_fc_spec *fc, uint8_t sparm_cmd)
{
	enum fcr_gen_role role = dir == H2T ? FCR_GEN_HOST : FCR_GEN_TARGET;
	enum fcr_gen_role leg = dir == H2T ? FCR_GEN_VI : FCR_GEN_VT;
	uint32_t idx = dir == H2T ? p->host : p->target;
	uint32_t d_id = dir == H2T ? p->t_fcid : p->h_fcid;

	if (sparm_cmd) {
		fc->payload = g->payload;
		fc->payload_len = (uint16_t)fcr_els_sparm(g->payload, sparm_cmd,
			fcr_gen_wwpn(role, idx), fcr_gen_wwnn(role, idx));
	}
	emit(g, kind, dir == H2T ? p->h_fcid : p->t_fcid, d_id, fc);
	if (!p->redirected)
		return;
	if (sparm_cmd)
		fcr_els_sparm(g->payload, sparm_cmd, fcr_gen_wwpn(leg, idx),
			      fcr_gen_wwnn(leg, idx));
	emit(g, kind, dir == H2T ? p->vi_fcid : p->vt_fcid, d_id, fc);
}

/* Fabric login of one port: FLOGI (or FDISC) to FFFFFE and the LS_ACC that
 * gives the port the FCID `fcid`, over FIP or as plain FCoE ELS. */
static void
flogi(struct gen *g, enum fcr_gen_role role, uint32_t idx, uint32_t fcid,
      int fdisc)
{
	uint8_t enode[6];
	struct fcr_fc_spec fc = {
		.r_ctl = FCR_RCTL_ELS_REQ,
		.type = FCR_TYPE_ELS,
		.d_id = FCR_FCID_FLOGI,
		.s_id = 0,
		.f_ctl = F_REQ,
		.ox_id = next_id(&g->ox_next[fcr_gen_port_index(g->fab, role, idx)]),
		.rx_id = UNASSIGNED,
		.payload = g->payload,
	};
	struct fcr_fip_spec fip = {
		.subcode = FCR_FIP_SC_REQ,
		.desc_type = fdisc ? FCR_FIP_DT_FDISC : FCR_FIP_DT_FLOGI,
		.flags = FIP_FL_FPMA,
		/* an FPMA-only ENode proposes no MAC */
	};
	int via_fip = g->conf->logins == FCR_GEN_LOGINS_FIP;
	size_t len;

	fcr_gen_enode_mac(role, idx, enode);
	memcpy(g->l2.src, enode, 6);
	memcpy(g->l2.dst, fcr_gen_fcf_mac, 6);
	fc.payload_len = (uint16_t)fcr_els_sparm(g->payload,
		fdisc ? FCR_ELS_FDISC : FCR_ELS_FLOGI,
		fcr_gen_wwpn(role, idx), fcr_gen_wwnn(role, idx));
	len = via_fip ? fcr_build_fip_ls(g->buf, sizeof(g->buf), &g->l2, &fip, &fc) :
			fcr_build_fcoe(g->buf, sizeof(g->buf), &g->l2, &fc);
	put_frame(g, len, fdisc ? (via_fip ? FCR_GEN_K_FIP_FDISC : FCR_GEN_K_ELS_FDISC) :
				  (via_fip ? FCR_GEN_K_FIP_FLOGI : FCR_GEN_K_ELS_FLOGI),
		  &fc);

	/* The accept comes from the fabric, so it carries the fabric's names. */
	memcpy(g->l2.src, fcr_gen_fcf_mac, 6);
	memcpy(g->l2.dst, enode, 6);
	fc.r_ctl = FCR_RCTL_ELS_REP;
	fc.d_id = fcid;
	fc.s_id = FCR_FCID_FLOGI;
	fc.f_ctl = F_RESP;
	fc.rx_id = next_id(&g->fabric_rx);
	fcr_els_sparm(g->payload, FCR_ELS_LS_ACC, FCR_GEN_FABRIC_WWPN,
		      FCR_GEN_FABRIC_WWNN);
	fip.subcode = FCR_FIP_SC_REP;
	fcr_fpma(fip.mac, FCR_FC_MAP_DEFAULT, fcid);
	len = via_fip ? fcr_build_fip_ls(g->buf, sizeof(g->buf), &g->l2, &fip, &fc) :
			fcr_build_fcoe(g->buf, sizeof(g->buf), &g->l2, &fc);
	put_frame(g, len, fdisc ? (via_fip ? FCR_GEN_K_FIP_FDISC_ACC : FCR_GEN_K_ELS_FDISC_ACC) :
				  (via_fip ? FCR_GEN_K_FIP_FLOGI_ACC : FCR_GEN_K_ELS_FLOGI_ACC),
		  &fc);
}

/* A host logs out of the fabric: LOGO to FFFFFE naming its FCID and WWPN,
 * and the fabric's LS_ACC; over FIP (from the ENode, the VN_Port's MAC in
 * a descriptor) with FIP logins, else as plain FCoE ELS from the VN_Port. */
static void
logo(struct gen *g, uint32_t idx)
{
	uint32_t fcid = host_fcid(g, idx);
	uint8_t enode[6], vn[6];
	struct fcr_fc_spec fc = {
		.r_ctl = FCR_RCTL_ELS_REQ,
		.type = FCR_TYPE_ELS,
		.d_id = FCR_FCID_FLOGI,
		.s_id = fcid,
		.f_ctl = F_REQ,
		.ox_id = next_id(&g->ox_next[fcr_gen_port_index(g->fab, FCR_GEN_HOST, idx)]),
		.rx_id = UNASSIGNED,
		.payload = g->payload,
	};
	struct fcr_fip_spec fip = {
		.subcode = FCR_FIP_SC_REQ,
		.desc_type = FCR_FIP_DT_LOGO,
		.flags = FIP_FL_FPMA,
	};
	int via_fip = g->conf->logins == FCR_GEN_LOGINS_FIP;
	size_t len;

	fcr_gen_enode_mac(FCR_GEN_HOST, idx, enode);
	fcr_fpma(vn, FCR_FC_MAP_DEFAULT, fcid);
	memcpy(fip.mac, vn, 6);
	memcpy(g->l2.src, via_fip ? enode : vn, 6);
	memcpy(g->l2.dst, fcr_gen_fcf_mac, 6);
	fc.payload_len = (uint16_t)fcr_els_logo(g->payload, fcid,
						fcr_gen_wwpn(FCR_GEN_HOST, idx));
	len = via_fip ? fcr_build_fip_ls(g->buf, sizeof(g->buf), &g->l2, &fip, &fc) :
			fcr_build_fcoe(g->buf, sizeof(g->buf), &g->l2, &fc);
	put_frame(g, len, via_fip ? FCR_GEN_K_FIP_LOGO : FCR_GEN_K_ELS_LOGO, &fc);

	memcpy(g->l2.src, fcr_gen_fcf_mac, 6);
	memcpy(g->l2.dst, via_fip ? enode : vn, 6);
	fc.r_ctl = FCR_RCTL_ELS_REP;
	fc.d_id = fcid;
	fc.s_id = FCR_FCID_FLOGI;
	fc.f_ctl = F_RESP;
	fc.rx_id = next_id(&g->fabric_rx);
	memset(g->payload, 0, 4);
	g->payload[0] = FCR_ELS_LS_ACC;
	fc.payload_len = 4;
	fip.subcode = FCR_FIP_SC_REP;
	len = via_fip ? fcr_build_fip_ls(g->buf, sizeof(g->buf), &g->l2, &fip, &fc) :
			fcr_build_fcoe(g->buf, sizeof(g->buf), &g->l2, &fc);
	put_frame(g, len, via_fip ? FCR_GEN_K_FIP_LOGO_ACC : FCR_GEN_K_ELS_LOGO_ACC,
		  &fc);
}

static void
resolve(const struct gen *g, uint64_t k, struct pair *p)
{
	const struct fcr_gen_fabric *fab = g->fab;

	p->host = fcr_gen_flow_host(fab, k);
	p->target = fcr_gen_flow_target(fab, k);
	/* a host that logged out is no longer steered: no service node legs */
	p->redirected = fcr_gen_flow_redirected(fab, k) && p->host >= g->logged_out;
	p->h_fcid = host_fcid(g, p->host);
	p->t_fcid = fcr_gen_fcid(fab, FCR_GEN_TARGET, p->target);
	if (p->redirected) {
		p->vi_fcid = fcr_gen_fcid(fab, FCR_GEN_VI, p->host);
		p->vt_fcid = fcr_gen_fcid(fab, FCR_GEN_VT, p->target);
	}
}

static void
start_exchange(struct gen *g, const struct pair *p, struct fcr_fc_spec *fc)
{
	memset(fc, 0, sizeof(*fc));
	fc->ox_id = next_id(&g->ox_next[fcr_gen_port_index(g->fab, FCR_GEN_HOST,
							   p->host)]);
	fc->rx_id = UNASSIGNED;
	fc->payload = g->payload;
}

static inline uint16_t
target_rx(struct gen *g, const struct pair *p)
{
	return next_id(&g->rx_next[p->target]);
}

/* PRLI request (initiator) or its accept (target), FCP service page. */
static uint16_t
prli_payload(uint8_t *pl, int accept)
{
	memset(pl, 0, PRLI_LEN);
	pl[0] = accept ? FCR_ELS_LS_ACC : FCR_ELS_PRLI;
	pl[1] = 0x10;                  /* page length */
	fcr_put_be16(pl + 2, PRLI_LEN);
	pl[4] = FCR_TYPE_FCP;
	pl[6] = accept ? 0x21 : 0x20;  /* image pair; accept: request executed */
	/* initiator / target function, read XFER_RDY disabled */
	fcr_put_be32(pl + 16, accept ? 0x12 : 0x22);
	return PRLI_LEN;
}

static void
port_login(struct gen *g, const struct pair *p)
{
	struct fcr_fc_spec fc;

	start_exchange(g, p, &fc);
	fc.r_ctl = FCR_RCTL_ELS_REQ;
	fc.type = FCR_TYPE_ELS;
	fc.f_ctl = F_REQ;
	send(g, p, H2T, FCR_GEN_K_PLOGI, &fc, FCR_ELS_PLOGI);
	fc.r_ctl = FCR_RCTL_ELS_REP;
	fc.f_ctl = F_RESP;
	fc.rx_id = target_rx(g, p);
	send(g, p, T2H, FCR_GEN_K_PLOGI_ACC, &fc, FCR_ELS_LS_ACC);

	start_exchange(g, p, &fc);
	fc.r_ctl = FCR_RCTL_ELS_REQ;
	fc.type = FCR_TYPE_ELS;
	fc.f_ctl = F_REQ;
	fc.payload_len = prli_payload(g->payload, 0);
	send(g, p, H2T, FCR_GEN_K_PRLI, &fc, 0);
	fc.r_ctl = FCR_RCTL_ELS_REP;
	fc.f_ctl = F_RESP;
	fc.rx_id = target_rx(g, p);
	fc.payload_len = prli_payload(g->payload, 1);
	send(g, p, T2H, FCR_GEN_K_PRLI_ACC, &fc, 0);
}

/* Data bytes are a function of (seed, exchange, offset) alone: byte i of
 * the I/O is byte i % 8 (little-endian, by arithmetic, so the same on any
 * host) of mix64(xkey + (i / 8) * golden). */
static inline uint64_t
data_word(uint64_t xkey, uint64_t w)
{
	return mix64(xkey + w * 0x9E3779B97F4A7C15ull);
}

static void
fill_data(uint64_t xkey, uint32_t off, uint8_t *dst, uint32_t len)
{
	uint64_t w = off / 8, v;
	uint32_t b = off % 8, i;

	if (b != 0) {
		v = data_word(xkey, w++) >> (8 * b);
		for (; b < 8 && len > 0; b++, len--, v >>= 8)
			*dst++ = (uint8_t)v;
	}
	for (; len >= 8; len -= 8, dst += 8) {
		v = rte_cpu_to_le_64(data_word(xkey, w++));
		memcpy(dst, &v, 8);
	}
	if (len > 0) {
		v = data_word(xkey, w);
		for (i = 0; i < len; i++)
			dst[i] = (uint8_t)(v >> (8 * i));
	}
}

/* One data sequence of `size` bytes in frames of at most max_payload. */
static void
data_sequence(struct gen *g, const struct pair *p, enum dir dir,
	      struct fcr_fc_spec *fc, uint32_t size, uint64_t xkey)
{
	uint32_t max = g->conf->max_payload, off, n;
	/* the initiator's write data hands the initiative back to the
	 * target; the target keeps it after read data to send FCP_RSP */
	uint32_t ctx = dir == H2T ? 0 : F_EX_CTX;
	uint32_t end = dir == H2T ? F_END_SEQ | F_SEQ_INIT : F_END_SEQ;

	fc->r_ctl = FCR_RCTL_FCP_DATA;
	fc->seq_cnt = 0;
	for (off = 0; off < size; off += n) {
		n = size - off < max ? size - off : max;
		fill_data(xkey, off, g->payload, n);
		fc->payload_len = (uint16_t)n;
		fc->sof = off == 0 ? FCR_SOF_I3 : FCR_SOF_N3;
		fc->eof = off + n == size ? FCR_EOF_T : FCR_EOF_N;
		fc->f_ctl = ctx | F_REL_OFF | (off + n == size ? end : 0);
		fc->param = off;
		send(g, p, dir, FCR_GEN_K_FCP_DATA, fc, 0);
		fc->seq_cnt++;
	}
	fc->seq_id++;
	fc->seq_cnt = 0;
	fc->param = 0;
	fc->sof = 0;
	fc->eof = 0;
}

/* One SCSI READ(10) or WRITE(10): command, transfer ready for writes, data,
 * good status. */
static void
exchange(struct gen *g, const struct pair *p, uint64_t xno)
{
	const struct fcr_gen_traffic_conf *c = g->conf;
	uint64_t r = rng_next(&g->rng);
	uint32_t size = c->io_sizes[(r >> 32) % c->n_io_sizes];
	int is_read = (uint32_t)(r & 0xFFFFFFFFu) % 100 < c->read_pct;
	uint32_t blocks = (size + BLOCK - 1) / BLOCK;
	uint32_t lba = (uint32_t)rng_next(&g->rng) & 0x0FFFFFF8u;
	uint8_t *pl = g->payload;
	struct fcr_fc_spec fc;

	start_exchange(g, p, &fc);
	fc.type = FCR_TYPE_FCP;

	memset(pl, 0, FCP_CMND_LEN);
	/* LUN 0, CRN 0, simple task; RDDATA or WRDATA */
	pl[11] = is_read ? 0x02 : 0x01;
	pl[12] = is_read ? SCSI_READ10 : SCSI_WRITE10;
	fcr_put_be32(pl + 14, lba);
	fcr_put_be16(pl + 19, (uint16_t)blocks);
	fcr_put_be32(pl + 28, size); /* FCP_DL */
	fc.r_ctl = FCR_RCTL_FCP_CMND;
	fc.f_ctl = F_REQ;
	fc.payload_len = FCP_CMND_LEN;
	send(g, p, H2T, FCR_GEN_K_FCP_CMND, &fc, 0);
	fc.seq_id++;
	fc.rx_id = target_rx(g, p);

	if (is_read) {
		data_sequence(g, p, T2H, &fc, size, mix64(g->data_key ^ xno));
	} else {
		memset(pl, 0, FCP_XFER_RDY_LEN);
		fcr_put_be32(pl + 4, size); /* offset 0, one burst */
		fc.r_ctl = FCR_RCTL_FCP_XFER_RDY;
		fc.f_ctl = F_EX_CTX | F_END_SEQ | F_SEQ_INIT;
		fc.payload_len = FCP_XFER_RDY_LEN;
		send(g, p, T2H, FCR_GEN_K_XFER_RDY, &fc, 0);
		fc.seq_id++;
		data_sequence(g, p, H2T, &fc, size, mix64(g->data_key ^ xno));
	}

	memset(pl, 0, FCP_RSP_LEN);
	/* GOOD status; FCP_DL short of whole blocks reads as a residual
	 * overrun, as a real target reports it */
	if (blocks * BLOCK != size) {
		pl[10] = FCP_RESID_OVER;
		fcr_put_be32(pl + 12, blocks * BLOCK - size);
	}
	fc.r_ctl = FCR_RCTL_FCP_RSP;
	fc.f_ctl = F_RESP;
	fc.payload_len = FCP_RSP_LEN;
	send(g, p, T2H, FCR_GEN_K_FCP_RSP, &fc, 0);
}

/* Insert n bytes of zeros at `at` in a frame of *len bytes. */
static void
insert_bytes(uint8_t *b, size_t *len, size_t at, size_t n)
{
	memmove(b + at + n, b + at, *len - at);
	memset(b + at, 0, n);
	*len += n;
}

/* The FC CRC of a frame whose FC bytes were changed by hand. */
static void
recrc(uint8_t *b, size_t len, size_t fc_off)
{
	fcr_crc_store(b + len - FCR_FCOE_TLEN,
		      fcr_crc_calc(b + fc_off, (uint32_t)(len - FCR_FCOE_TLEN - fc_off)));
}

/*
 * One frame of each way an FCoE frame can be malformed, in the order of
 * lib/frame/fcr_reason.h: each is a good FCP_CMND-like frame from host 0 to
 * target 0 with exactly one defect, so a parser names exactly that reason.
 * Frames that need a tag (trunc_vlan, vlan_stacked) have one even when the
 * fabric is untagged.
 */
static void
malformed(struct gen *g)
{
	uint32_t t_fcid = fcr_gen_fcid(g->fab, FCR_GEN_TARGET, 0);
	uint32_t h_fcid = host_fcid(g, 0);
	struct fcr_l2_spec l2 = g->l2;
	struct fcr_fc_spec fc;
	struct fcr_gen_ids ids;
	size_t len, eoff, fc_off;
	int k;

	for (k = FCR_GEN_K_MALFORMED_RUNT; k <= FCR_GEN_K_MALFORMED_BAD_FILL; k++) {
		int need_tag = k == FCR_GEN_K_MALFORMED_TRUNC_VLAN ||
			       k == FCR_GEN_K_MALFORMED_VLAN_STACKED;

		memset(&fc, 0, sizeof(fc));
		fc.r_ctl = FCR_RCTL_FCP_CMND;
		fc.type = FCR_TYPE_FCP;
		fc.f_ctl = F_REQ;
		fc.s_id = h_fcid;
		fc.d_id = t_fcid;
		fc.ox_id = (uint16_t)(0xBAD0 + (k - FCR_GEN_K_MALFORMED_RUNT));
		fc.rx_id = UNASSIGNED;
		fc.payload = g->payload;
		memset(g->payload, 0, FCR_FC_MAX_PAYLOAD);
		fc.payload_len = k == FCR_GEN_K_MALFORMED_TOO_LONG ? FCR_FC_MAX_PAYLOAD :
				 k == FCR_GEN_K_MALFORMED_BAD_FILL ? 0 : FCP_CMND_LEN;
		l2.tagged = g->l2.tagged || need_tag;
		fcr_fpma(l2.src, FCR_FC_MAP_DEFAULT, h_fcid);
		memcpy(l2.dst, fcr_gen_fcf_mac, 6);
		len = fcr_build_fcoe(g->buf, sizeof(g->buf), &l2, &fc);
		eoff = FCR_ETH_HLEN + (l2.tagged ? FCR_VLAN_HLEN : 0);
		fc_off = eoff + FCR_FCOE_HLEN;
		memset(&ids, 0, sizeof(ids));
		ids.vlan = l2.tagged ? l2.vlan : -1;
		ids.s_id = fc.s_id;
		ids.d_id = fc.d_id;
		ids.ox_id = fc.ox_id;

		switch (k) {
		case FCR_GEN_K_MALFORMED_RUNT:
			len = 10; /* not even the source MAC whole */
			ids.vlan = -1;
			ids.no_fc = 1;
			break;
		case FCR_GEN_K_MALFORMED_TRUNC_VLAN:
			len = FCR_ETH_HLEN + 2; /* half a tag */
			ids.no_fc = 1;
			break;
		case FCR_GEN_K_MALFORMED_VLAN_STACKED:
			/* a second 802.1Q tag inside the first */
			insert_bytes(g->buf, &len, FCR_ETH_HLEN - 2 + FCR_VLAN_HLEN,
				     FCR_VLAN_HLEN);
			memcpy(g->buf + FCR_ETH_HLEN - 2 + FCR_VLAN_HLEN,
			       g->buf + FCR_ETH_HLEN - 2, FCR_VLAN_HLEN);
			break;
		case FCR_GEN_K_MALFORMED_TRUNC_FCOE_HDR:
			len = eoff + 6;
			ids.no_fc = 1;
			break;
		case FCR_GEN_K_MALFORMED_BAD_VERSION:
			g->buf[eoff] = 0x10;
			break;
		case FCR_GEN_K_MALFORMED_BAD_RESERVED:
			g->buf[eoff + 6] = 0x01;
			break;
		case FCR_GEN_K_MALFORMED_BAD_SOF:
			g->buf[eoff + 13] = 0x00;
			break;
		case FCR_GEN_K_MALFORMED_TRUNC_FC_HDR:
			len = fc_off + 12;
			ids.no_fc = 1;
			break;
		case FCR_GEN_K_MALFORMED_NO_TRAILER:
			len = fc_off + FCR_FC_HLEN + 4; /* the CRC, no EOF */
			break;
		case FCR_GEN_K_MALFORMED_BAD_EOF:
			g->buf[len - 4] = 0x00;
			break;
		case FCR_GEN_K_MALFORMED_BAD_TRAILER:
			g->buf[len - 2] = 0x01;
			break;
		case FCR_GEN_K_MALFORMED_BAD_LENGTH:
			/* two bytes more than whole words before the trailer */
			insert_bytes(g->buf, &len, len - FCR_FCOE_TLEN, 2);
			break;
		case FCR_GEN_K_MALFORMED_TOO_LONG:
			/* 2116 bytes of payload, 4 more than FC allows */
			insert_bytes(g->buf, &len, len - FCR_FCOE_TLEN, 4);
			recrc(g->buf, len, fc_off);
			break;
		case FCR_GEN_K_MALFORMED_BAD_FILL:
			/* three fill bytes claimed in an empty payload */
			g->buf[fc_off + FCR_FC_F_CTL + 2] |= FCR_F_CTL_FILL_MASK;
			recrc(g->buf, len, fc_off);
			break;
		}
		fcr_gen_out_frame(g->out, g->buf, len, (enum fcr_gen_kind)k, &ids);
	}
}

/* Hosts 0..fab->relogins-1 log in again and take their second FCID. */
static void
relogin(struct gen *g)
{
	uint32_t idx;

	for (idx = 0; idx < g->fab->relogins; idx++)
		flogi(g, FCR_GEN_HOST, idx, fcr_gen_relogin_fcid(g->fab, idx),
		      g->conf->relogin_fdisc);
	g->relogged = g->fab->relogins;
	gap(g, g->conf->login_gap);
}

int
fcr_gen_traffic_run(const struct fcr_gen_fabric *fab,
		    const struct fcr_gen_traffic_conf *conf,
		    struct fcr_gen_out *out)
{
	struct gen *g;
	struct pair p;
	uint64_t ports = fcr_gen_port_count(fab), i, k, r;
	uint32_t idx;
	int role;

	g = calloc(1, sizeof(*g));
	if (g != NULL) {
		g->ox_next = calloc(ports, sizeof(*g->ox_next));
		g->rx_next = calloc(fab->n[FCR_GEN_TARGET], sizeof(*g->rx_next));
	}
	if (g == NULL || g->ox_next == NULL || g->rx_next == NULL) {
		fprintf(stderr, "fcoe-gen: out of memory for %llu ports\n",
			(unsigned long long)ports);
		if (g != NULL) {
			free(g->ox_next);
			free(g->rx_next);
			free(g);
		}
		return -1;
	}
	g->fab = fab;
	g->conf = conf;
	g->out = out;
	g->l2.tagged = conf->vlan != 0;
	g->l2.vlan = conf->vlan;
	g->l2.pcp = conf->pcp;
	g->rng = conf->seed;
	g->data_key = mix64(conf->seed ^ 0xDA7A5EEDDA7A5EEDull);
	/* IDs start at 1: 0 is valid but reads like "unset" in a capture */
	for (i = 0; i < ports; i++)
		g->ox_next[i] = 1;
	for (i = 0; i < fab->n[FCR_GEN_TARGET]; i++)
		g->rx_next[i] = 1;
	g->fabric_rx = 1;

	if (conf->logins != FCR_GEN_LOGINS_NONE) {
		for (role = 0; role < FCR_GEN_ROLES; role++)
			for (idx = 0; idx < fab->n[role]; idx++)
				flogi(g, (enum fcr_gen_role)role, idx,
				      fcr_gen_fcid(fab, (enum fcr_gen_role)role, idx), 0);
		gap(g, conf->login_gap);
	}

	for (k = 0; k < fab->flows; k++) {
		resolve(g, k, &p);
		port_login(g, &p);
	}
	if (conf->logins == FCR_GEN_LOGINS_NONE)
		gap(g, conf->login_gap);
	if (conf->malformed)
		malformed(g);

	for (r = 0; r < conf->exchanges; r++) {
		if (r == conf->exchanges / 2 && fab->relogins > 0)
			relogin(g);
		for (k = 0; k < fab->flows; k++) {
			resolve(g, k, &p);
			exchange(g, &p, r * fab->flows + k);
		}
	}
	if (conf->exchanges == 0 && fab->relogins > 0)
		relogin(g);

	if (conf->logouts > 0) {
		for (idx = 0; idx < conf->logouts; idx++)
			logo(g, idx);
		g->logged_out = conf->logouts;
		gap(g, conf->login_gap);
		for (k = 0; k < fab->flows; k++) {
			resolve(g, k, &p);
			exchange(g, &p, (uint64_t)conf->exchanges * fab->flows + k);
		}
	}

	free(g->ox_next);
	free(g->rx_next);
	free(g);
	return 0;
}
