/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Fuzz target "sync": the sync engine's record decoder, behind a valid MAC
 * (datagrams sealed with the shared key after they were mutated), and
 * unsealed bytes, another key's, a stranger's, oversized ones. Whatever
 * comes in: each datagram counted once and applied or dropped whole, every
 * record accounted for, nothing taken from a dropped datagram, what the
 * engine sends well-formed and sealed, the tables' views agreeing, a
 * bounded backlog.
 *
 * One input is one datagram: a byte whose bit 0 says it comes from a
 * stranger rather than the peer, then the datagram (at most SZ_MAX bytes).
 * The engine and its tables live on from datagram to datagram.
 */
#include <string.h>

#include "fcr_change.h"
#include "fcr_kind.h"
#include "fcr_kind_binding.h"
#include "fcr_kind_flow.h"
#include "fcr_kind_redirect.h"
#include "fcr_kind_route.h"
#include "fcr_kind_sn.h"
#include "fcr_sync.h"
#include "fcr_tables.h"
#include "fuzz.h"
#include "fuzz_input.h"
#include "fuzz_tables.h"

#define SZ_MTU 1400
#define SZ_ENGINE_BOOT 0x1000
#define SZ_PEER_NODE 7
#define SZ_MAX 2048 /* a datagram in an input: past the MTU, to be oversize */

static const uint8_t sz_key[FCR_SYNC_KEY_LEN] = "fcredirect fuzz key, 32 bytes..";
static const struct fcr_sync_addr sz_peer = { 0x7F000001, 2 };
static const struct fcr_sync_addr sz_stranger = { 0x7F000001, 99 };

static const struct fcr_tables_params sz_tp = {
	.max_flows = 256, .max_routes = 16, .max_bindings = 64,
	.max_redirects = 16, .nb_workers = 1, .socket = 0,
};
static struct fcr_tables *sz_t;
static struct fcr_sync *sz_s;
static const struct fcr_sync_stats *sz_st;
static uint64_t sz_now = 1;
/* The engine's challenge for the peer, read from what it sends, as a peer
 * does; and the peer's boot the engine was last seen to accept. */
static uint64_t sz_challenge, sz_accepted;

/* what the datagrams were, for the report */
static struct {
	long out, out_bytes;            /* sent by the engine */
	long accepted, unsealed, malformed;
} tally;

/* What the engine sends must itself be well-formed and sealed. */
static void
sz_send(void *ctx, const struct fcr_sync_addr *to, const uint8_t *p, size_t len)
{
	struct fcr_sync_hdr h;
	enum fcr_sync_drop why;
	struct fcr_rec rec;
	size_t off = FCR_SYNC_HDR_LEN;
	int rc;

	(void)ctx;
	FZ_CHECK(to->ip == sz_peer.ip && to->port == sz_peer.port, "sent elsewhere");
	FZ_CHECK(len <= SZ_MTU, "sent %zu bytes", len);
	FZ_CHECK(fcr_sync_open(p, len, SZ_MTU, sz_key, &h, &why) == 0,
		 "sent a datagram that does not open (%s)", fcr_sync_drop_name(why));
	FZ_CHECK(h.boot == SZ_ENGINE_BOOT, "boot");
	FZ_CHECK(h.challenge != 0, "a datagram without a challenge");
	sz_challenge = h.challenge;
	while ((rc = fcr_rec_next(p, len - FCR_SYNC_TAG_LEN, &off, &rec)) > 0)
		FZ_CHECK(fcr_kind_of_rec(rec.type) != NULL,
			 "sent record of type %u", rec.type);
	FZ_CHECK(rc == 0, "sent malformed records");
	tally.out++;
	tally.out_bytes += (long)len;
}

static uint16_t
sz_vlan(struct tu_rng *r)
{
	return tu_below(r, 10) ? (uint16_t)(10 + tu_below(r, 2)) : (uint16_t)tu_rand32(r);
}

static uint64_t
sz_wwpn(struct tu_rng *r)
{
	return tu_below(r, 16) ? 0x2000000000000000ull | tu_below(r, 10)
			       : fz_rand_u64_interesting(r);
}

static uint32_t
sz_fcid(struct tu_rng *r)
{
	static const uint32_t f[] = { 0x010001, 0x010002, 0x410001, 0x410002,
				      0x810001, 0x810002, 0x810003 };

	return tu_below(r, 5) ? f[tu_below(r, RTE_DIM(f))] : tu_rand32(r) & 0xFFFFFF;
}

/* A record from a small key space, so records meet the same objects. */
static void
sz_record(struct tu_rng *r, uint64_t *clock, struct fcr_rec *rec)
{
	static const uint8_t bit_choice[] = { 8, 16, 24 };
	uint8_t type = (uint8_t)(1 + tu_below(r, 10)), mac[6], bits, flags;
	struct fcr_flow_val *fv;
	uint64_t w[4], key;
	uint32_t fcid;
	uint16_t vlan, port;
	unsigned int i;

	memset(rec, 0, sizeof(*rec));
	rec->type = type;
	switch (tu_below(r, 20)) {
	case 0:
		rec->version = 0;
		break;
	case 1:
		rec->version = fz_rand_u64_interesting(r);
		break;
	case 2:
	case 3:
		rec->version = ((*clock - tu_below(r, 50)) << 16) | SZ_PEER_NODE;
		break;
	default:
		rec->version = (++*clock << 16) | SZ_PEER_NODE;
		break;
	}
	/* the same draws, in the same order, for every type */
	vlan = sz_vlan(r);
	for (i = 0; i < 4; i++)
		w[i] = sz_wwpn(r);
	switch (type) {
	case FCR_REC_FLOW:
	case FCR_REC_FLOW_DEL:
		key = tu_below(r, 4) ? fcr_flow_key(vlan, sz_fcid(r), sz_fcid(r))
				     : fz_rand_u64_interesting(r);
		*rec = fcr_flow_rec(key, (uint8_t)tu_below(r, 4), rec->version);
		fv = fcr_flow_val(rec);
		fv->frames = fz_rand_u64_interesting(r);
		fv->bytes = fz_rand_u64_interesting(r);
		fv->first_age_ms = fz_rand_u64_interesting(r);
		fv->last_age_ms = tu_below(r, 1000);
		break;
	case FCR_REC_BINDING:
	case FCR_REC_BINDING_DEL:
		fcid = sz_fcid(r);
		*rec = fcr_binding_rec(vlan, w[0], fcid, (uint8_t)tu_below(r, 4), rec->version);
		break;
	case FCR_REC_ROUTE:
	case FCR_REC_ROUTE_DEL:
		fcid = sz_fcid(r);
		bits = tu_below(r, 5) ? bit_choice[tu_below(r, 3)] : (uint8_t)tu_rand32(r);
		port = (uint16_t)(tu_below(r, 5) ? tu_below(r, 4) : tu_rand32(r));
		flags = (uint8_t)tu_rand32(r);
		tu_fill_random(r, mac, 6);
		*rec = fcr_route_rec(tu_below(r, 2) ? FCR_VLAN_ANY : vlan, fcid, bits, port, mac,
				     rec->version);
		fcr_route_val(rec)->flags = flags;
		break;
	case FCR_REC_SN:
	case FCR_REC_SN_DEL:
		*rec = fcr_sn_rec(vlan, w[0], w[1], w[2], rec->version);
		break;
	default:
		*rec = fcr_redirect_rec(vlan, w[0], w[1], w[2], w[3], rec->version);
		/* a redirect of a cluster, now and then (its cluster: a word) */
		if (tu_below(r, 4) == 0) {
			fcr_redirect_val(rec)->cluster = w[0] ^ w[3];
			fcr_redirect_val(rec)->restartable = (uint8_t)tu_below(r, 2);
		}
		break;
	}
	rec->type = type; /* a deletion's state fields go unread */
}

/* A cheap digest of everything a record can change. */
static uint64_t
tables_digest(const struct fcr_tables *t)
{
	uint64_t h = 0xcbf29ce484222325ull;
	uint32_t i;

#define MIX(v) (h = (h ^ (uint64_t)(v)) * 0x100000001b3ull)
	for (i = 0; i < t->flows->capacity; i++) {
		MIX(t->flows->key[i]);
		MIX(t->flows->action[i]);
		MIX(t->flows->version[i]);
		MIX(t->flows->remote[i].frames);
	}
	for (i = 0; i < t->bindings->capacity; i++) {
		const struct fcr_binding *n = &t->bindings->entry[i];

		MIX(n->in_use);
		MIX(n->wwpn);
		MIX((uint64_t)n->fcid << 16 | n->vlan);
		MIX(n->version);
	}
	for (i = 0; i < t->redirects->capacity; i++) {
		const struct fcr_redirect *x = &t->redirects->r[i];

		MIX(x->in_use);
		MIX(x->state);
		MIX(x->version);
		MIX((uint64_t)x->binding[0] << 32 | x->binding[1]);
		MIX((uint64_t)x->binding[2] << 32 | x->binding[3]);
	}
	MIX(t->routes->nb_routes);
	for (i = 0; i < t->routes->nb_routes; i++) {
		MIX((uint64_t)t->routes->routes[i].vlan << 32 |
		    t->routes->routes[i].prefix << 8 | t->routes->routes[i].bits);
		MIX(t->routes->routes[i].version);
		MIX(t->routes->nexthop[t->routes->routes[i].nh].port);
	}
#undef MIX
	return h;
}

/* A local change, as the command line makes them. */
static void
sz_local_change(struct tu_rng *r, struct fcr_tables *t)
{
	uint16_t vlan = (uint16_t)(10 + tu_below(r, 2));
	uint64_t w[4];
	unsigned int i;

	for (i = 0; i < 4; i++)
		w[i] = 0x2000000000000000ull | tu_below(r, 10);
	switch (tu_below(r, 6)) {
	case 0:
		fcr_tables_binding_add(t, vlan, w[0], sz_fcid(r), FCR_BIND_STATIC);
		break;
	case 1:
		fcr_tables_binding_del(t, vlan, w[0]);
		break;
	case 2:
		fcr_redirect_add(t->redirects, vlan, w[0], w[1], w[2], w[3]);
		break;
	case 3:
		fcr_redirect_del(t->redirects, vlan, w[0], w[1]);
		break;
	case 4:
		fcr_route_add(t->routes, tu_below(r, 2) ? FCR_VLAN_ANY : vlan, sz_fcid(r),
			      tu_below(r, 2) ? 8 : 16, (uint16_t)tu_below(r, 3), NULL);
		break;
	default:
		fcr_route_del(t->routes, tu_below(r, 2) ? FCR_VLAN_ANY : vlan, sz_fcid(r), 8);
		break;
	}
}

/* What the generator made: each kind but sealed has its own drop. */
enum sz_kind { SZ_SEALED, SZ_UNSEALED, SZ_WRONG_KEY, SZ_STRANGER, SZ_OVERSIZE };

/* What the generator knows of a datagram it made, for the checks only it
 * can make; a fuzzer's bytes come with none. */
struct sz_claim {
	enum sz_kind kind;
	uint8_t type;       /* the header's, when sealed */
	uint8_t intact;     /* the records as written */
	uint32_t nrec;      /* records, of unknown types too */
	uint32_t nunknown;
	uint64_t boot;      /* the header's, when sealed */
	uint8_t unproven;   /* neither the boot accepted nor the challenge echoed */
};

/* One datagram, and what is known of it (c may be NULL). */
static int
sync_datagram(const uint8_t *data, size_t size, const struct sz_claim *c)
{
	const struct fcr_sync_stats *st = sz_st;
	struct fcr_sync_stats before = *st;
	struct fcr_tables *t = sz_t;
	uint64_t dg, dsum = 0, acc;
	const uint8_t *d;
	size_t len;
	uint32_t j;

	if (size < 1 || size - 1 > SZ_MAX)
		return -1;
	d = data + 1;
	len = size - 1;
	dg = tables_digest(t);
	fcr_sync_input(sz_s, data[0] & 1 ? &sz_stranger : &sz_peer, d, len,
		       sz_now, sz_now);

	/* each datagram: counted once, applied or dropped whole */
	FZ_CHECK(st->datagrams_received == before.datagrams_received + 1,
		 "datagrams_received");
	for (j = 0; j < FCR_SD_COUNT; j++)
		dsum += st->drop[j] - before.drop[j];
	acc = (st->records_applied - before.records_applied) +
	      (st->records_stale - before.records_stale) +
	      (st->records_unknown - before.records_unknown) +
	      (st->records_refused - before.records_refused);
	FZ_CHECK(dsum <= 1, "%llu drop counters for one datagram",
		 (unsigned long long)dsum);
	FZ_CHECK(acc == st->records_received - before.records_received,
		 "%llu records received, %llu accounted for",
		 (unsigned long long)(st->records_received -
				      before.records_received),
		 (unsigned long long)acc);
	FZ_CHECK(acc <= (len > FCR_SYNC_OVERHEAD ? (len - FCR_SYNC_OVERHEAD) / 2 : 0),
		 "%llu records in %zu bytes", (unsigned long long)acc, len);
	switch (c != NULL ? c->kind : SZ_SEALED) {
	case SZ_UNSEALED:
		tally.unsealed++;
		FZ_CHECK(dsum == 1 && st->drop[FCR_SD_REPLAY] == before.drop[FCR_SD_REPLAY] &&
			 st->drop[FCR_SD_MALFORMED] == before.drop[FCR_SD_MALFORMED],
			 "unsealed bytes of length %zu not dropped before "
			 "authentication", len);
		break;
	case SZ_WRONG_KEY:
		FZ_CHECK(st->drop[FCR_SD_AUTH] == before.drop[FCR_SD_AUTH] + 1,
			 "another key's datagram not dropped as bad_auth");
		break;
	case SZ_STRANGER:
		FZ_CHECK(st->drop[FCR_SD_UNKNOWN_PEER] ==
			 before.drop[FCR_SD_UNKNOWN_PEER] + 1, "stranger");
		break;
	case SZ_OVERSIZE:
		FZ_CHECK(st->drop[FCR_SD_OVERSIZE] == before.drop[FCR_SD_OVERSIZE] + 1,
			 "%zu bytes not dropped as oversize", len);
		break;
	default:
		if (c == NULL)
			break;
		FZ_CHECK(!c->intact || st->drop[FCR_SD_MALFORMED] ==
			 before.drop[FCR_SD_MALFORMED], "well-formed records "
			 "refused as malformed");
		tally.malformed += st->drop[FCR_SD_MALFORMED] != before.drop[FCR_SD_MALFORMED];
		/* the restart rule: a boot other than the one accepted is
		 * refused unless it echoes the engine's challenge */
		FZ_CHECK(!c->unproven || dsum == 1,
			 "a datagram of boot %llx (accepted: %llx) that does not echo "
			 "the challenge was taken", (unsigned long long)c->boot,
			 (unsigned long long)sz_accepted);
		if (dsum == 0)
			sz_accepted = c->boot;
		if (dsum == 0 && c->type == FCR_SYNC_UPDATE) {
			tally.accepted++;
			if (c->intact) {
				FZ_CHECK(acc == c->nrec, "%llu of %u records accounted",
					 (unsigned long long)acc, c->nrec);
				FZ_CHECK(st->records_unknown - before.records_unknown ==
					 c->nunknown, "%llu records counted unknown, %u "
					 "of unknown types", (unsigned long long)
					 (st->records_unknown - before.records_unknown),
					 c->nunknown);
			}
		}
		break;
	}
	if (dsum != 0 || (c != NULL && (c->kind != SZ_SEALED ||
					c->type != FCR_SYNC_UPDATE))) {
		FZ_CHECK(acc == 0, "records taken from a dropped datagram");
		FZ_CHECK(tables_digest(t) == dg, "tables changed by a datagram "
			 "that was dropped or carried no update");
	}
	fz_check_tables(t);
	return 0;
}

/* The changes waiting to go out stay bounded. */
static uint64_t
check_pending(void)
{
	uint64_t p = fcr_sync_pending(sz_s);

	FZ_CHECK(p <= (uint64_t)sz_tp.max_flows + sz_tp.max_bindings +
		 sz_tp.max_redirects + 1 + 65536 + 1, "%llu changes pending",
		 (unsigned long long)p);
	return p;
}

/* One input: see the top of this file. Time does not pass. */
static int
sync_one(const uint8_t *data, size_t size)
{
	if (sync_datagram(data, size, NULL) < 0)
		return -1;
	check_pending();
	return 0;
}

/*
 * libFuzzer's input, sealed: the fuzzer's first FCR_SYNC_HDR_LEN bytes
 * give the header's type, flags, record count and acknowledgements, the
 * records follow as on the wire; the harness makes the peer's node,
 * boot and next sequence number true and seals it with the key, so
 * mutations land in the record decoder and the engine, not in a tag no
 * mutation ever matches. One byte in 64 (the first's low bits) also lets
 * the sequence go back, a replay.
 */
static int
sync_fuzz_one(const uint8_t *data, size_t size)
{
	static uint8_t d[SZ_MAX];
	static uint32_t seq;
	struct fcr_sync_hdr h;
	size_t len;

	if (size < FCR_SYNC_HDR_LEN || size > SZ_MTU - FCR_SYNC_TAG_LEN)
		return -1;
	memcpy(d + 1, data, size);
	memset(&h, 0, sizeof(h));
	h.type = data[0] >> 6 ? FCR_SYNC_UPDATE : data[1] & 7;
	h.flags = data[2];
	h.nb_records = (uint16_t)(data[3] | data[4] << 8);
	memcpy(&h.ack_base, data + 5, sizeof(h.ack_base));
	memcpy(&h.ack_bits, data + 9, sizeof(h.ack_bits));
	h.peer_boot = data[17] & 1 ? SZ_ENGINE_BOOT : data[18];
	/* the challenge echoed, as a running peer does, but in one of 64 */
	h.echo = (data[17] & 0x7E) ? sz_challenge : data[19];
	h.challenge = 0x5eed;
	h.node = SZ_PEER_NODE;
	h.boot = 0x5000;
	h.seq = (data[0] & 63) == 0 && seq > 8 ? seq - 8 : ++seq;
	fcr_sync_hdr_put(d + 1, &h);
	len = fcr_sync_seal(d + 1, size, sz_key);
	d[0] = 0;
	if (sync_datagram(d, 1 + len, NULL) < 0)
		return -1;
	if ((h.seq & 7) == 7) {
		sz_now += 40;
		fcr_sync_tick(sz_s, sz_now, sz_now);
		fz_check_tables(sz_t);
	}
	check_pending();
	return 0;
}

/* The peer as the generator plays it: its clock, boot and sequence. */
struct sz_gen {
	uint64_t clock, boot;
	uint32_t seq;
};

/* A datagram into d: of which kind, from a peer that restarts, replays,
 * skips and acks, its records mutated and lying about themselves. */
static size_t
sz_make(struct tu_rng *r, struct sz_gen *g, uint8_t *d, struct sz_claim *c)
{
	struct fcr_sync_hdr h;
	enum sz_kind kind;
	struct fcr_rec rec;
	size_t len = FCR_SYNC_HDR_LEN, recs_end;
	uint32_t nrec = 0, nunknown = 0, k, j;
	int intact = 1;

	memset(c, 0, sizeof(*c));
	k = tu_below(r, 100);
	kind = k < 10 ? SZ_UNSEALED : k < 13 ? SZ_WRONG_KEY :
	       k < 16 ? SZ_STRANGER : k < 19 ? SZ_OVERSIZE : SZ_SEALED;
	if (kind == SZ_UNSEALED) {
		/* random bytes, some dressed as ours up to the tag */
		len = tu_below(r, 2001);
		tu_fill_random(r, d, len);
		if (len >= 5 && tu_below(r, 2)) {
			memcpy(d, FCR_SYNC_MAGIC, 4);
			d[4] = FCR_SYNC_VERSION;
		}
		c->kind = kind;
		return len;
	}

	/* header: a peer that restarts, replays, skips, acks */
	memset(&h, 0, sizeof(h));
	h.type = tu_below(r, 8) ? FCR_SYNC_UPDATE : (uint8_t)tu_below(r, 8);
	h.flags = (uint8_t)(tu_below(r, 4) ? tu_below(r, 4) : tu_rand32(r));
	if (tu_below(r, 500) == 0)
		g->boot++;
	h.boot = tu_below(r, 100) ? g->boot : g->boot - 1;
	h.node = SZ_PEER_NODE;
	k = tu_below(r, 50);
	h.seq = k == 0 ? 0 : k < 3 ? g->seq - tu_below(r, 80) :
		k == 3 ? (g->seq += tu_below(r, 100000)) : ++g->seq;
	h.ack_base = tu_below(r, 2) ? 0 : tu_below(r, 4) ? tu_below(r, 64)
							 : tu_rand32(r);
	h.ack_bits = tu_rand64(r);
	h.peer_boot = tu_below(r, 2) ? SZ_ENGINE_BOOT : tu_rand64(r);
	h.challenge = tu_below(r, 20) ? 0x5eed : tu_rand64(r);
	h.echo = tu_below(r, 10) ? sz_challenge : tu_below(r, 2) ? 0 : tu_rand64(r);

	/* records, then lies about them */
	for (k = tu_below(r, 4) ? tu_below(r, 12) : tu_below(r, 120); k > 0; k--) {
		size_t w;

		sz_record(r, &g->clock, &rec);
		w = fcr_rec_put(d + len, SZ_MTU - FCR_SYNC_TAG_LEN - len, &rec);
		if (w == 0)
			break;
		len += w;
		nrec++;
	}
	h.nb_records = (uint16_t)(tu_below(r, 5) ? nrec : tu_rand32(r));
	recs_end = len;
	for (k = tu_below(r, 2) ? 0 : 1 + tu_below(r, 4); k > 0; k--) {
		size_t p = FCR_SYNC_HDR_LEN + (len > FCR_SYNC_HDR_LEN ?
			   tu_below(r, (uint32_t)(len - FCR_SYNC_HDR_LEN)) : 0);

		switch (tu_below(r, 6)) {
		case 0: /* a bit of a record */
			if (len > FCR_SYNC_HDR_LEN) {
				d[p] ^= (uint8_t)(1u << tu_below(r, 8));
				intact = 0;
			}
			break;
		case 1: /* a byte: a type or a length, often */
			if (len > FCR_SYNC_HDR_LEN) {
				d[p] = tu_below(r, 2) ? (uint8_t)tu_below(r, 12)
						      : (uint8_t)tu_rand32(r);
				intact = 0;
			}
			break;
		case 2: /* cut */
			len = FCR_SYNC_HDR_LEN + (len > FCR_SYNC_HDR_LEN ?
				tu_below(r, (uint32_t)(len - FCR_SYNC_HDR_LEN)) : 0);
			intact = 0;
			break;
		case 3: /* trailing garbage */
			j = tu_below(r, 40);
			j = (uint32_t)RTE_MIN((size_t)j, SZ_MTU - FCR_SYNC_TAG_LEN - len);
			tu_fill_random(r, d + len, j);
			len += j;
			intact &= j == 0;
			break;
		case 4: /* a record of a type this version does not know */
			j = tu_below(r, 40);
			if (len + 2 + j <= SZ_MTU - FCR_SYNC_TAG_LEN && len == recs_end) {
				d[len] = (uint8_t)(11 + tu_below(r, 245));
				d[len + 1] = (uint8_t)j;
				tu_fill_random(r, d + len + 2, j);
				len += 2 + j;
				recs_end = len;
				nrec++;
				nunknown++;
			}
			break;
		default: /* a body length that lies */
			if (len > FCR_SYNC_HDR_LEN + 1) {
				d[FCR_SYNC_HDR_LEN + 1] = (uint8_t)tu_rand32(r);
				intact = 0;
			}
			break;
		}
	}
	if (kind == SZ_OVERSIZE) {
		j = SZ_MTU + 1 + tu_below(r, 600) - FCR_SYNC_TAG_LEN;
		if (len < j) {
			tu_fill_random(r, d + len, j - len);
			len = j;
		}
	}
	fcr_sync_hdr_put(d, &h);
	if (kind == SZ_WRONG_KEY) {
		uint8_t other[FCR_SYNC_KEY_LEN];

		memcpy(other, sz_key, sizeof(other));
		other[tu_below(r, FCR_SYNC_KEY_LEN)] ^= 1;
		len = fcr_sync_seal(d, len, other);
	} else {
		len = fcr_sync_seal(d, len, sz_key);
	}
	c->kind = kind;
	c->type = h.type;
	c->boot = h.boot;
	c->unproven = h.boot != sz_accepted && h.echo != sz_challenge;
	c->intact = (uint8_t)intact;
	c->nrec = nrec;
	c->nunknown = nunknown;
	return len;
}

/* A seed of libFuzzer's sealed format (sync_fuzz_one) from a datagram's
 * header and records: its type as an update, its records as written. */
static void
sz_dump_seed(const uint8_t *wire, size_t len)
{
	static uint8_t seed[SZ_MAX];

	memcpy(seed, wire, len);
	seed[0] = 0xC0; /* an update (sync_fuzz_one) */
	fz_dump(seed, len);
}

/* Random datagrams from the peer and others; local changes and time in
 * between. */
static void
fuzz_sync_datagrams(void **state)
{
	static uint8_t in[1 + SZ_MAX];
	struct sz_gen g = { .clock = 1000, .boot = 0x5000, .seq = 0 };
	long n = fz_iters_or(40000), i;
	uint64_t max_pending = 0;
	char extra[300];
	double t0 = fz_now();

	(void)state;
	for (i = 0; i < n; i++) {
		struct sz_claim c;
		struct tu_rng r;
		size_t len;

		fz_rng(&r, 4, (uint64_t)i);
		len = sz_make(&r, &g, in + 1, &c);
		in[0] = c.kind == SZ_STRANGER;
		if (getenv("FCR_FUZZ_DUMP") != NULL && c.kind == SZ_SEALED &&
		    len >= FCR_SYNC_OVERHEAD)
			sz_dump_seed(in + 1, len - FCR_SYNC_TAG_LEN);
		FZ_CHECK(sync_datagram(in, 1 + len, &c) == 0, "input refused");

		/* time passes; local changes meet remote ones */
		if (tu_below(&r, 50) == 0)
			sz_local_change(&r, sz_t);
		if (i % 8 == 7) {
			sz_now += tu_below(&r, 120);
			fcr_sync_tick(sz_s, sz_now, sz_now);
			fz_check_tables(sz_t);
		}
		max_pending = RTE_MAX(max_pending, check_pending());
	}
	snprintf(extra, sizeof(extra), "%ld updates accepted, %ld unsealed dropped, "
		 "%ld malformed; records applied %llu stale %llu unknown %llu refused "
		 "%llu; %ld datagrams sent back (%ld bytes), pending at most %llu",
		 tally.accepted, tally.unsealed, tally.malformed,
		 (unsigned long long)sz_st->records_applied,
		 (unsigned long long)sz_st->records_stale,
		 (unsigned long long)sz_st->records_unknown,
		 (unsigned long long)sz_st->records_refused, tally.out,
		 tally.out_bytes, (unsigned long long)max_pending);
	fz_report(n, "datagrams", t0, extra);
	assert_true(sz_st->records_applied > 0);
}

static int
sync_init(void)
{
	struct fcr_sync_params sp = {
		.boot = SZ_ENGINE_BOOT, .node = 1, .mtu = SZ_MTU, .window_ms = 50,
		.tsc_hz = 1000, .send = sz_send,
	};

	sz_t = fcr_tables_create("fzsy", &sz_tp);
	if (sz_t == NULL || fcr_tables_attach_log(sz_t, 0) != 0)
		return -1;
	memcpy(sp.key, sz_key, sizeof(sz_key));
	sz_s = fcr_sync_create(&sp, sz_t, sz_now);
	if (sz_s == NULL || fcr_sync_peer_add(sz_s, &sz_peer) < 0)
		return -1;
	sz_st = fcr_sync_stats(sz_s);
	/* its first HELLO gives the peer the challenge to echo */
	fcr_sync_tick(sz_s, sz_now, sz_now);
	return 0;
}

static void
sync_fini(void)
{
	fcr_sync_free(sz_s);
	fcr_tables_free(sz_t);
}

const struct fz_target fz_this = {
	.name = "sync",
	.init = sync_init,
	.fini = sync_fini,
	.one = sync_one,
	.fuzz_one = sync_fuzz_one,
	.test = cmocka_unit_test(fuzz_sync_datagrams),
};
