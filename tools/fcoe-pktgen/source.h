/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What fcoe-pktgen sends: a list of frame templates, sent in order and
 * looping. Either a built-in fabric (one FCP_DATA frame per host/target
 * pair, addressed as fcoe-gen addresses its fabric) or the frames of a
 * capture file. A template that is an FCP_DATA frame with at least 16
 * payload bytes and a whole FC frame gets a stamp: the send TSC and a
 * sequence number in its first 16 payload bytes, the FC CRC brought up to
 * date (stamp.h); a built-in fabric's frame with a shorter payload gets
 * the short stamp, in its FC header. Every other frame goes out byte for
 * byte as it is.
 */
#ifndef FCR_PG_SOURCE_H
#define FCR_PG_SOURCE_H

#include <stddef.h>
#include <stdint.h>

#define PG_STAMP_LEN 16u
/* largest frame fcoe-pktgen sends: the memif buffers both ends ask for */
#define PG_MAX_FRAME 2560u
/* a capture longer than this is refused: its templates live in memory */
#define PG_MAX_PCAP_FRAMES 4000000u

struct pg_tmpl {
	uint8_t *data;
	uint16_t len;
	uint16_t stamp_off; /* offset of the 16 stamp bytes; 0: no stamp */
	uint8_t stamp_short; /* the short stamp, in the FC header at fc_off */
	uint16_t fc_off;    /* R_CTL (stamped frames) */
	uint16_t fc_len;    /* what the FC CRC covers */
	uint16_t crc_off;   /* stored CRC */
};

struct pg_source {
	struct pg_tmpl *t;
	uint32_t n;
	uint32_t n_stamped;
	int short_stamps;        /* built-in fabric: short stamps allowed */
	uint32_t n_bad_crc;      /* stamped templates whose CRC was already bad */
	uint64_t bytes;          /* of one pass over the templates */
	uint64_t skipped_long;   /* capture frames longer than PG_MAX_FRAME */
	char desc[160];
};

struct pg_fabric_conf {
	uint64_t flows;
	uint32_t hosts, targets; /* 0: sized from flows as fcoe-gen does */
	uint32_t size;           /* frame bytes without Ethernet FCS */
	uint16_t vlan;           /* 0: untagged */
	uint8_t pcp;
	int reverse;             /* target -> host instead of host -> target */
};

/* Smallest and largest --size: tagged, payloads 0 and 2112 (untagged
 * frames are 4 bytes shorter). */
size_t pg_fabric_min_size(uint16_t vlan);
size_t pg_fabric_max_size(uint16_t vlan);

/* 0, or -1 with a message in err. */
int pg_source_fabric(struct pg_source *s, const struct pg_fabric_conf *c,
		     char *err, size_t errlen);
int pg_source_pcap(struct pg_source *s, const char *path, char *err,
		   size_t errlen);
void pg_source_free(struct pg_source *s);

#endif /* FCR_PG_SOURCE_H */
