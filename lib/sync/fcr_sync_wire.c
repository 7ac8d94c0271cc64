/* SPDX-License-Identifier: BSD-3-Clause */
#include <string.h>

#include <sodium.h>

#include "fcr_fcoe.h"
#include "fcr_sync_wire.h"

const char *
fcr_sync_drop_name(enum fcr_sync_drop d)
{
	static const char *const names[FCR_SD_COUNT] = {
		[FCR_SD_SHORT] = "short", [FCR_SD_OVERSIZE] = "oversize",
		[FCR_SD_MAGIC] = "bad_magic", [FCR_SD_VERSION] = "bad_version",
		[FCR_SD_AUTH] = "bad_auth", [FCR_SD_REPLAY] = "replay",
		[FCR_SD_MALFORMED] = "malformed", [FCR_SD_UNKNOWN_PEER] = "unknown_peer",
	};

	return (unsigned)d < FCR_SD_COUNT ? names[d] : "?";
}

size_t
fcr_varint_put(uint8_t *p, uint64_t v)
{
	size_t n = 0;

	while (v >= 0x80) {
		p[n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	p[n++] = (uint8_t)v;
	return n;
}

int
fcr_varint_get(const uint8_t *p, size_t len, size_t *off, uint64_t *v)
{
	uint64_t r = 0;
	unsigned int shift = 0;

	while (*off < len && shift < 64) {
		uint8_t b = p[(*off)++];

		r |= (uint64_t)(b & 0x7F) << shift;
		if (!(b & 0x80)) {
			*v = r;
			return 0;
		}
		shift += 7;
	}
	return -1;
}

size_t
fcr_sync_hdr_put(uint8_t *p, const struct fcr_sync_hdr *h)
{
	memcpy(p, FCR_SYNC_MAGIC, 4);
	p[4] = FCR_SYNC_VERSION;
	p[5] = h->type;
	p[6] = h->flags;
	p[7] = 0;
	fcr_put_be64(p + 8, h->boot);
	fcr_put_be16(p + 16, h->node);
	fcr_put_be16(p + 18, h->nb_records);
	fcr_put_be32(p + 20, h->seq);
	fcr_put_be32(p + 24, h->ack_base);
	fcr_put_be64(p + 28, h->ack_bits);
	fcr_put_be32(p + 36, h->peer_boot32);
	return FCR_SYNC_HDR_LEN;
}

/* The body into a scratch buffer first: its length goes before it. */
size_t
fcr_rec_put(uint8_t *p, size_t cap, const struct fcr_rec *r)
{
	uint8_t b[255 + 16];
	size_t n = 0;
	int i;

	switch (r->type) {
	case FCR_REC_FLOW:
		fcr_put_be64(b, r->key);
		n = 8;
		n += fcr_varint_put(b + n, r->version);
		b[n++] = r->state;
		n += fcr_varint_put(b + n, r->frames);
		n += fcr_varint_put(b + n, r->bytes);
		n += fcr_varint_put(b + n, r->first_age_ms);
		n += fcr_varint_put(b + n, r->last_age_ms);
		break;
	case FCR_REC_FLOW_DEL:
		fcr_put_be64(b, r->key);
		n = 8;
		n += fcr_varint_put(b + n, r->version);
		break;
	case FCR_REC_BINDING:
	case FCR_REC_BINDING_DEL:
		fcr_put_be16(b, r->vlan);
		fcr_put_be64(b + 2, r->wwpn[0]);
		n = 10;
		if (r->type == FCR_REC_BINDING) {
			fcr_put_be24(b + n, r->fcid);
			b[n + 3] = r->origin;
			n += 4;
		}
		n += fcr_varint_put(b + n, r->version);
		break;
	case FCR_REC_ROUTE:
	case FCR_REC_ROUTE_DEL:
		fcr_put_be24(b, r->fcid);
		b[3] = r->bits;
		n = 4;
		if (r->type == FCR_REC_ROUTE) {
			fcr_put_be16(b + 4, r->port);
			b[6] = r->flags;
			memcpy(b + 7, r->mac, 6);
			n = 13;
		}
		n += fcr_varint_put(b + n, r->version);
		break;
	case FCR_REC_REDIRECT:
	case FCR_REC_REDIRECT_DEL:
		fcr_put_be16(b, r->vlan);
		n = 2;
		for (i = 0; i < (r->type == FCR_REC_REDIRECT ? 4 : 2); i++, n += 8)
			fcr_put_be64(b + n, r->wwpn[i]);
		n += fcr_varint_put(b + n, r->version);
		break;
	default:
		return 0;
	}
	if (n + 2 > cap)
		return 0;
	p[0] = r->type;
	p[1] = (uint8_t)n;
	memcpy(p + 2, b, n);
	return n + 2;
}

size_t
fcr_sync_seal(uint8_t *p, size_t len, const uint8_t key[FCR_SYNC_KEY_LEN])
{
	crypto_auth(p + len, p, len, key);
	return len + FCR_SYNC_TAG_LEN;
}

int
fcr_sync_open(const uint8_t *p, size_t len, size_t max_len,
	      const uint8_t key[FCR_SYNC_KEY_LEN], struct fcr_sync_hdr *h,
	      enum fcr_sync_drop *why)
{
	if (len < FCR_SYNC_OVERHEAD) {
		*why = FCR_SD_SHORT;
		return -1;
	}
	if (len > max_len) {
		*why = FCR_SD_OVERSIZE;
		return -1;
	}
	if (memcmp(p, FCR_SYNC_MAGIC, 4) != 0) {
		*why = FCR_SD_MAGIC;
		return -1;
	}
	if (p[4] != FCR_SYNC_VERSION) {
		*why = FCR_SD_VERSION;
		return -1;
	}
	/* nothing else is read from a datagram that does not authenticate */
	if (crypto_auth_verify(p + len - FCR_SYNC_TAG_LEN, p,
			       len - FCR_SYNC_TAG_LEN, key) != 0) {
		*why = FCR_SD_AUTH;
		return -1;
	}
	h->type = p[5];
	h->flags = p[6];
	h->boot = fcr_get_be64(p + 8);
	h->node = fcr_get_be16(p + 16);
	h->nb_records = fcr_get_be16(p + 18);
	h->seq = fcr_get_be32(p + 20);
	h->ack_base = fcr_get_be32(p + 24);
	h->ack_bits = fcr_get_be64(p + 28);
	h->peer_boot32 = fcr_get_be32(p + 36);
	return 0;
}

int
fcr_rec_next(const uint8_t *p, size_t end, size_t *off, struct fcr_rec *r)
{
	size_t o, body_end;
	int i;

	if (*off == end)
		return 0;
	if (*off + 2 > end)
		return -1;
	memset(r, 0, sizeof(*r));
	r->type = p[*off];
	body_end = *off + 2 + p[*off + 1];
	if (body_end > end)
		return -1;
	o = *off + 2;
#define NEED(n) do { if (o + (n) > body_end) return -1; } while (0)
#define VARINT(v) do { if (fcr_varint_get(p, body_end, &o, &(v)) < 0) return -1; } while (0)
	switch (r->type) {
	case FCR_REC_FLOW:
	case FCR_REC_FLOW_DEL:
		NEED(8);
		r->key = fcr_get_be64(p + o);
		o += 8;
		VARINT(r->version);
		if (r->type == FCR_REC_FLOW_DEL)
			break;
		NEED(1);
		r->state = p[o++];
		VARINT(r->frames);
		VARINT(r->bytes);
		VARINT(r->first_age_ms);
		VARINT(r->last_age_ms);
		break;
	case FCR_REC_BINDING:
	case FCR_REC_BINDING_DEL:
		NEED(10);
		r->vlan = fcr_get_be16(p + o);
		r->wwpn[0] = fcr_get_be64(p + o + 2);
		o += 10;
		if (r->type == FCR_REC_BINDING) {
			NEED(4);
			r->fcid = fcr_get_be24(p + o);
			r->origin = p[o + 3];
			o += 4;
		}
		VARINT(r->version);
		break;
	case FCR_REC_ROUTE:
	case FCR_REC_ROUTE_DEL:
		NEED(4);
		r->fcid = fcr_get_be24(p + o);
		r->bits = p[o + 3];
		o += 4;
		if (r->type == FCR_REC_ROUTE) {
			NEED(9);
			r->port = fcr_get_be16(p + o);
			r->flags = p[o + 2];
			memcpy(r->mac, p + o + 3, 6);
			o += 9;
		}
		VARINT(r->version);
		break;
	case FCR_REC_REDIRECT:
	case FCR_REC_REDIRECT_DEL:
		NEED(2);
		r->vlan = fcr_get_be16(p + o);
		o += 2;
		for (i = 0; i < (r->type == FCR_REC_REDIRECT ? 4 : 2); i++) {
			NEED(8);
			r->wwpn[i] = fcr_get_be64(p + o);
			o += 8;
		}
		VARINT(r->version);
		break;
	default:
		break; /* unknown: skipped whole */
	}
#undef NEED
#undef VARINT
	*off = body_end;
	return 1;
}
