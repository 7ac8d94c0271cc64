/* SPDX-License-Identifier: BSD-3-Clause */
#include <string.h>

#include <sodium.h>

#include "fcr_fcoe.h"
#include "fcr_kind.h"
#include "fcr_sync_wire.h"

const char *
fcr_sync_drop_name(enum fcr_sync_drop d)
{
	static const char *const names[FCR_SD_COUNT] = {
		[FCR_SD_SHORT] = "short", [FCR_SD_OVERSIZE] = "oversize",
		[FCR_SD_MAGIC] = "bad_magic", [FCR_SD_VERSION] = "bad_version",
		[FCR_SD_AUTH] = "bad_auth", [FCR_SD_REPLAY] = "replay",
		[FCR_SD_MALFORMED] = "malformed", [FCR_SD_UNKNOWN_PEER] = "unknown_peer",
		[FCR_SD_UNPROVEN] = "unproven",
	};

	return (unsigned)d < FCR_SD_COUNT ? names[d] : "?";
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
	fcr_put_be64(p + 36, h->peer_boot);
	fcr_put_be64(p + 44, h->challenge);
	fcr_put_be64(p + 52, h->echo);
	return FCR_SYNC_HDR_LEN;
}

/* The body into a scratch buffer first: its length goes before it. */
size_t
fcr_rec_put(uint8_t *p, size_t cap, const struct fcr_rec *r)
{
	const struct fcr_kind *k = fcr_kind_of_rec(r->type);
	uint8_t b[FCR_SYNC_MAX_RECORD];
	size_t n;

	if (k == NULL)
		return 0;
	n = k->put(b, r);
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
	h->peer_boot = fcr_get_be64(p + 36);
	h->challenge = fcr_get_be64(p + 44);
	h->echo = fcr_get_be64(p + 52);
	return 0;
}

int
fcr_rec_next(const uint8_t *p, size_t end, size_t *off, struct fcr_rec *r)
{
	const struct fcr_kind *k;
	size_t body_end;

	if (*off == end)
		return 0;
	if (*off + 2 > end)
		return -1;
	memset(r, 0, sizeof(*r));
	r->type = p[*off];
	body_end = *off + 2 + p[*off + 1];
	if (body_end > end)
		return -1;
	k = fcr_kind_of_rec(r->type);
	/* unknown: skipped whole */
	if (k != NULL && k->get(p, *off + 2, body_end, r) < 0)
		return -1;
	*off = body_end;
	return 1;
}
