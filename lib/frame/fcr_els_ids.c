/* SPDX-License-Identifier: BSD-3-Clause */
#include "fcr_els_ids.h"

#include "fcr_fcoe.h"

/* ELS command codes read here beyond fcr_fcoe.h's (FC-LS) */
#define ELS_ABTX 0x06
#define ELS_RES 0x08
#define ELS_RLS 0x0F
#define ELS_ECHO 0x10
#define ELS_RRQ 0x12
#define ELS_REC 0x13
#define ELS_PRLO 0x21
#define ELS_TPRLO 0x24
#define ELS_PDISC 0x50
#define ELS_ADISC 0x52
#define ELS_FARP_REQ 0x54
#define ELS_FARP_REPLY 0x55
#define ELS_RNID 0x78

/* payload offsets (FC-LS) */
#define SPARM_WWPN 20  /* PLOGI, PDISC and their accepts */
#define SPARM_WWNN 28
#define ADISC_WWPN 8
#define ADISC_WWNN 16
#define ADISC_NPORT 25
#define LOGO_NPORT 5
#define LOGO_WWPN 8
#define ORIG_SID 5     /* RRQ, REC, ABTX, RES, RLS: an N_Port ID */
#define REC_ACC_ORIG 9
#define REC_ACC_RESP 13
#define FARP_REQUESTER 5   /* FARP-REQ, FARP-REPLY: N_Port IDs and names */
#define FARP_RESPONDER 9
#define FARP_REQ_WWPN 12
#define FARP_REQ_WWNN 20
#define FARP_RESP_WWPN 28
#define FARP_RESP_WWNN 36
#define RNID_ACC_IDLEN 5   /* RNID accept: common identification data */
#define RNID_ACC_WWPN 8
#define RNID_ACC_WWNN 16
#define RNID_COMMON_LEN 16
#define PAGE_LEN 16        /* TPRLO and its accept: logout parameter pages */
#define PAGE_FLAGS 2
#define PAGE_THIRD_PARTY_VALID 0x20
#define PAGE_THIRD_PARTY 13
#define SPARM_LEN 116
#define ADISC_LEN 28
#define REC_ACC_LEN 24

static unsigned int
fcid_at(uint8_t *p, uint32_t len, uint32_t off, const struct fcr_els_subst *s)
{
	if (off + 3 > len || fcr_get_be24(p + off) != s->fcid_old)
		return 0;
	fcr_put_be24(p + off, s->fcid_new);
	return 1;
}

static unsigned int
wwpn_at(uint8_t *p, uint32_t len, uint32_t off, const struct fcr_els_subst *s)
{
	if (s->wwpn_old == 0 || off + 8 > len || fcr_get_be64(p + off) != s->wwpn_old)
		return 0;
	fcr_put_be64(p + off, s->wwpn_new);
	return 1;
}

/* The node name beside a port name rewritten (the same VN_Port's): when
 * both node names are known and it is the old one's. */
static unsigned int
wwnn_at(uint8_t *p, uint32_t len, uint32_t off, const struct fcr_els_subst *s)
{
	if (s->wwnn_old == 0 || s->wwnn_new == 0 || off + 8 > len ||
	    fcr_get_be64(p + off) != s->wwnn_old)
		return 0;
	fcr_put_be64(p + off, s->wwnn_new);
	return 1;
}

/* A port name and, when it was rewritten, the node name of that port. */
static unsigned int
names_at(uint8_t *p, uint32_t len, uint32_t port_off, uint32_t node_off,
	 const struct fcr_els_subst *s)
{
	unsigned int w = wwpn_at(p, len, port_off, s);

	return w ? w + wwnn_at(p, len, node_off, s) : 0;
}

/* TPRLO's pages (and its accept's, which are a PRLI accept's shape: there
 * the word holds FCP's service parameters, never an N_Port ID, and the
 * flag is the image pair's): each third party originator named valid. */
static unsigned int
third_parties(uint8_t *p, uint32_t len, const struct fcr_els_subst *s)
{
	uint32_t end = fcr_get_be16(p + 2), off;
	unsigned int n = 0;

	if (end > len)
		end = len;
	for (off = 4; off + PAGE_LEN <= end; off += PAGE_LEN)
		if (p[off + PAGE_FLAGS] & PAGE_THIRD_PARTY_VALID)
			n += fcid_at(p, len, off + PAGE_THIRD_PARTY, s);
	return n;
}

static enum fcr_els_shape
request(uint8_t *pl, uint32_t len, const struct fcr_els_subst *s, unsigned int *n)
{
	switch (pl[0]) {
	case FCR_ELS_PLOGI:
	case ELS_PDISC:
		*n += names_at(pl, len, SPARM_WWPN, SPARM_WWNN, s);
		return FCR_ELS_IDS;
	case ELS_ADISC:
		*n += names_at(pl, len, ADISC_WWPN, ADISC_WWNN, s);
		*n += fcid_at(pl, len, ADISC_NPORT, s);
		return FCR_ELS_IDS;
	case FCR_ELS_LOGO:
		*n += fcid_at(pl, len, LOGO_NPORT, s);
		*n += wwpn_at(pl, len, LOGO_WWPN, s);
		return FCR_ELS_IDS;
	case ELS_RRQ:
	case ELS_REC:
	case ELS_ABTX:
	case ELS_RES:
	case ELS_RLS:
		*n += fcid_at(pl, len, ORIG_SID, s);
		return FCR_ELS_IDS;
	case ELS_FARP_REQ:
	case ELS_FARP_REPLY:
		*n += fcid_at(pl, len, FARP_REQUESTER, s);
		*n += fcid_at(pl, len, FARP_RESPONDER, s);
		*n += names_at(pl, len, FARP_REQ_WWPN, FARP_REQ_WWNN, s);
		*n += names_at(pl, len, FARP_RESP_WWPN, FARP_RESP_WWNN, s);
		return FCR_ELS_IDS;
	case ELS_TPRLO:
		if (pl[1] != PAGE_LEN)
			return FCR_ELS_UNKNOWN;
		*n += third_parties(pl, len, s);
		return FCR_ELS_IDS;
	case FCR_ELS_PRLI:
	case ELS_PRLO:
	case ELS_ECHO:
	case ELS_RNID:
		return FCR_ELS_NO_IDS;
	default:
		return FCR_ELS_UNKNOWN;
	}
}

static enum fcr_els_shape
accept(uint8_t *pl, uint32_t len, const struct fcr_els_subst *s, unsigned int *n)
{
	if (len >= SPARM_LEN) {
		*n += names_at(pl, len, SPARM_WWPN, SPARM_WWNN, s);
		return FCR_ELS_IDS;
	}
	/* an ADISC accept, or an RLS accept (28 bytes too: its counters
	 * where the port name would be, which no WWPN matches) */
	if (len == ADISC_LEN) {
		unsigned int w = names_at(pl, len, ADISC_WWPN, ADISC_WWNN, s);

		*n += w;
		if (w)
			*n += fcid_at(pl, len, ADISC_NPORT, s);
		return FCR_ELS_IDS;
	}
	/* a TPRLO's or a PRLI's accept: logout or login parameter pages */
	if (pl[1] == PAGE_LEN) {
		*n += third_parties(pl, len, s);
		return FCR_ELS_IDS;
	}
	/* an RNID accept: its common identification data are the port's
	 * names (a REC accept has an exchange ID at 4-5 and 0 at 8) */
	if (len >= RNID_ACC_WWNN + 8 && pl[RNID_ACC_IDLEN] == RNID_COMMON_LEN &&
	    wwpn_at(pl, len, RNID_ACC_WWPN, s)) {
		*n += 1 + wwnn_at(pl, len, RNID_ACC_WWNN, s);
		return FCR_ELS_IDS;
	}
	if (len >= REC_ACC_LEN) {
		*n += fcid_at(pl, len, REC_ACC_ORIG, s);
		*n += fcid_at(pl, len, REC_ACC_RESP, s);
		return FCR_ELS_IDS;
	}
	/* LOGO, PRLO, RRQ, ECHO accepts (4 bytes): no N_Port */
	return FCR_ELS_NO_IDS;
}

enum fcr_els_shape
fcr_els_ids_rewrite(uint8_t *pl, uint32_t len, uint8_t r_ctl,
		    const struct fcr_els_subst *s, unsigned int *changed)
{
	*changed = 0;
	if (len < 4)
		return FCR_ELS_UNKNOWN;
	if (r_ctl == FCR_RCTL_ELS_REQ)
		return request(pl, len, s, changed);
	if (r_ctl == FCR_RCTL_ELS_REP && pl[0] == FCR_ELS_LS_ACC)
		return accept(pl, len, s, changed);
	if (r_ctl == FCR_RCTL_ELS_REP && pl[0] == FCR_ELS_LS_RJT)
		return FCR_ELS_NO_IDS;
	return FCR_ELS_UNKNOWN;
}
