/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pcap/pcap.h>

#include "fcr_build.h"
#include "fcr_crc.h"
#include "fcr_fcoe.h"
#include "fcr_frame.h"
#include "fabric.h"
#include "source.h"

/* F_CTL of the last data frame of a write, as fcoe-gen sends it: end of
 * sequence, initiative handed over, relative offset in Parameter; of a
 * read's (target -> host): exchange responder, end of sequence. */
#define PG_F_CTL_DATA 0x090008u
#define PG_F_CTL_DATA_RESP 0x880008u
#define PG_DEF_HOSTS 8u
#define PG_DEF_TARGETS 4u

static size_t
l2_len(uint16_t vlan)
{
	return FCR_ETH_HLEN + (vlan ? FCR_VLAN_HLEN : 0);
}

size_t
pg_fabric_min_size(uint16_t vlan)
{
	return l2_len(vlan) + FCR_FCOE_HLEN + FCR_FC_HLEN + FCR_FCOE_TLEN;
}

size_t
pg_fabric_max_size(uint16_t vlan)
{
	return pg_fabric_min_size(vlan) + FCR_FC_MAX_PAYLOAD;
}

/* Stamp the template when it is an FCP_DATA frame with room for a stamp
 * (a built-in fabric's frame always: the short stamp when the payload has
 * no room). */
static void
classify(struct pg_source *s, struct pg_tmpl *t)
{
	struct fcr_frame f;

	t->stamp_off = 0;
	t->stamp_short = 0;
	if (fcr_frame_parse(t->data, t->len, &f) != FCR_R_OK)
		return;
	if (f.r_ctl != FCR_RCTL_FCP_DATA || f.type != FCR_TYPE_FCP)
		return;
	if (f.payload_len < PG_STAMP_LEN && !s->short_stamps)
		return;
	t->fc_off = f.fc_off;
	t->fc_len = f.fc_len;
	t->crc_off = (uint16_t)fcr_frame_crc_off(&f);
	t->stamp_short = f.payload_len < PG_STAMP_LEN;
	t->stamp_off = t->stamp_short ? f.fc_off : (uint16_t)(f.fc_off + FCR_FC_HLEN);
	s->n_stamped++;
	if (fcr_frame_verify_crc(t->data, &f) != FCR_R_OK)
		s->n_bad_crc++;
}

/* fcoe-gen's sizing: --flows beyond hosts x targets grows the side not
 * given (both: about two hosts per target). */
static void
size_fabric(const struct pg_fabric_conf *c, uint32_t *hp, uint32_t *tp)
{
	uint64_t h = c->hosts ? c->hosts : PG_DEF_HOSTS;
	uint64_t t = c->targets ? c->targets : PG_DEF_TARGETS;

	if (c->flows > h * t) {
		if (!c->hosts && !c->targets) {
			uint64_t want = 2 * c->flows, r = 1;

			while (r * r < want)
				r++;
			h = r < PG_DEF_HOSTS ? PG_DEF_HOSTS : r;
			t = (c->flows + h - 1) / h;
		} else if (!c->hosts) {
			h = (c->flows + t - 1) / t;
		} else if (!c->targets) {
			t = (c->flows + h - 1) / h;
		}
	}
	*hp = h > UINT32_MAX ? UINT32_MAX : (uint32_t)h;
	*tp = t > UINT32_MAX ? UINT32_MAX : (uint32_t)t;
}

int
pg_source_fabric(struct pg_source *s, const struct pg_fabric_conf *c,
		 char *err, size_t errlen)
{
	struct fcr_gen_fabric fab;
	struct fcr_l2_spec l2 = { 0 };
	struct fcr_fc_spec fc = { 0 };
	uint8_t payload[FCR_FC_MAX_PAYLOAD];
	size_t min = pg_fabric_min_size(c->vlan), max = pg_fabric_max_size(c->vlan);
	uint32_t hosts, targets, plen, i;
	uint8_t *arena;
	uint64_t k;

	memset(s, 0, sizeof(*s));
	if (c->size < min || c->size > max || (c->size - min) % 4 != 0) {
		snprintf(err, errlen,
			 "--size %u: FCoE frames%s are %zu..%zu bytes (without FCS) in steps of 4",
			 c->size, c->vlan ? " with a VLAN tag" : " untagged", min, max);
		return -1;
	}
	if (c->flows == 0 || c->flows > 16u * 1024 * 1024) {
		snprintf(err, errlen, "--flows must be between 1 and %u", 16u * 1024 * 1024);
		return -1;
	}
	size_fabric(c, &hosts, &targets);
	if (fcr_gen_fabric_init(&fab, hosts, targets, c->flows, 0, err, errlen) != 0)
		return -1;
	plen = c->size - (uint32_t)min;
	s->short_stamps = 1;
	s->n = (uint32_t)c->flows;
	s->t = calloc(s->n, sizeof(*s->t));
	arena = malloc((size_t)s->n * c->size);
	if (s->t == NULL || arena == NULL) {
		free(s->t);
		free(arena);
		snprintf(err, errlen, "out of memory for %u frames of %u bytes", s->n, c->size);
		return -1;
	}
	/* the payload past the stamp: a byte pattern a capture shows plainly */
	for (i = 0; i < plen; i++)
		payload[i] = (uint8_t)i;
	l2.tagged = c->vlan != 0;
	l2.vlan = c->vlan;
	l2.pcp = c->pcp;
	memcpy(l2.dst, fcr_gen_fcf_mac, 6);
	fc.r_ctl = FCR_RCTL_FCP_DATA;
	fc.type = FCR_TYPE_FCP;
	fc.sof = FCR_SOF_I3;
	fc.eof = FCR_EOF_T;
	fc.f_ctl = c->reverse ? PG_F_CTL_DATA_RESP : PG_F_CTL_DATA;
	fc.payload = payload;
	fc.payload_len = (uint16_t)plen;
	for (k = 0; k < c->flows; k++) {
		struct pg_tmpl *t = &s->t[k];
		uint32_t h = fcr_gen_fcid(&fab, FCR_GEN_HOST, fcr_gen_flow_host(&fab, k));
		uint32_t tg = fcr_gen_fcid(&fab, FCR_GEN_TARGET, fcr_gen_flow_target(&fab, k));
		size_t len;

		fc.s_id = c->reverse ? tg : h;
		fc.d_id = c->reverse ? h : tg;
		fc.ox_id = (uint16_t)(k % 0xFFFF);
		fc.rx_id = c->reverse ? (uint16_t)(k % 0xFFFF) : 0xFFFF;
		fcr_fpma(l2.src, FCR_FC_MAP_DEFAULT, fc.s_id);
		t->data = arena + k * c->size;
		len = fcr_build_fcoe(t->data, c->size, &l2, &fc);
		if (len != c->size) {
			snprintf(err, errlen, "internal error: built %zu bytes, wanted %u",
				 len, c->size);
			pg_source_free(s);
			return -1;
		}
		t->len = (uint16_t)len;
		classify(s, t);
		s->bytes += len;
	}
	snprintf(s->desc, sizeof(s->desc),
		 "fabric: %llu flows (%u hosts 01.xx.xx, %u targets 41.xx.xx, %s), FCP_DATA %u bytes, %s",
		 (unsigned long long)c->flows, hosts, targets,
		 c->reverse ? "target->host" : "host->target", c->size,
		 c->vlan ? "VLAN tagged" : "untagged");
	if (c->vlan) {
		size_t n = strlen(s->desc);

		snprintf(s->desc + n, sizeof(s->desc) - n, " %u", c->vlan);
	}
	return 0;
}

int
pg_source_pcap(struct pg_source *s, const char *path, char *err, size_t errlen)
{
	char perr[PCAP_ERRBUF_SIZE];
	struct pcap_pkthdr *ph;
	const u_char *pkt;
	size_t cap = 0, used = 0, ncap = 0;
	uint8_t *arena = NULL;
	size_t *offs = NULL;
	pcap_t *p;
	int rc;
	uint32_t i;

	memset(s, 0, sizeof(*s));
	p = pcap_open_offline(path, perr);
	if (p == NULL) {
		snprintf(err, errlen, "--pcap %s: %s", path, perr);
		return -1;
	}
	if (pcap_datalink(p) != DLT_EN10MB) {
		snprintf(err, errlen, "--pcap %s: link type %s, not Ethernet", path,
			 pcap_datalink_val_to_name(pcap_datalink(p)) ?
				 pcap_datalink_val_to_name(pcap_datalink(p)) : "?");
		pcap_close(p);
		return -1;
	}
	while ((rc = pcap_next_ex(p, &ph, &pkt)) == 1) {
		if (ph->caplen > PG_MAX_FRAME) {
			s->skipped_long++;
			continue;
		}
		if (ph->caplen == 0)
			continue;
		if (s->n == PG_MAX_PCAP_FRAMES) {
			snprintf(err, errlen, "--pcap %s: more than %u frames", path,
				 PG_MAX_PCAP_FRAMES);
			goto fail;
		}
		if (used + ph->caplen > cap) {
			size_t ncap2 = cap ? cap * 2 : 1u << 20;
			uint8_t *a;

			while (ncap2 < used + ph->caplen)
				ncap2 *= 2;
			a = realloc(arena, ncap2);
			if (a == NULL)
				goto oom;
			arena = a;
			cap = ncap2;
		}
		if (s->n == ncap) {
			size_t n2 = ncap ? ncap * 2 : 1024;
			size_t *o = realloc(offs, n2 * sizeof(*o));
			struct pg_tmpl *t = realloc(s->t, n2 * sizeof(*t));

			if (o != NULL)
				offs = o;
			if (t != NULL)
				s->t = t;
			if (o == NULL || t == NULL)
				goto oom;
			ncap = n2;
		}
		memcpy(arena + used, pkt, ph->caplen);
		offs[s->n] = used;
		s->t[s->n].len = (uint16_t)ph->caplen;
		used += ph->caplen;
		s->bytes += ph->caplen;
		s->n++;
	}
	if (rc == -1) {
		snprintf(err, errlen, "--pcap %s: %s", path, pcap_geterr(p));
		goto fail;
	}
	pcap_close(p);
	p = NULL;
	if (s->n == 0) {
		snprintf(err, errlen, "--pcap %s: no frame to send%s", path,
			 s->skipped_long ? " (all longer than 2560 bytes)" : "");
		goto fail;
	}
	for (i = 0; i < s->n; i++) {
		s->t[i].data = arena + offs[i];
		classify(s, &s->t[i]);
	}
	free(offs);
	snprintf(s->desc, sizeof(s->desc), "capture %s: %u frames, %u stamped (FCP_DATA, payload >= 16)",
		 path, s->n, s->n_stamped);
	return 0;
oom:
	snprintf(err, errlen, "--pcap %s: out of memory after %u frames", path, s->n);
fail:
	if (p != NULL)
		pcap_close(p);
	free(arena);
	free(offs);
	free(s->t);
	s->t = NULL;
	s->n = 0;
	return -1;
}

void
pg_source_free(struct pg_source *s)
{
	/* every template lives in one arena that starts with the first */
	if (s->t != NULL && s->n > 0)
		free(s->t[0].data);
	free(s->t);
	s->t = NULL;
	s->n = 0;
}
