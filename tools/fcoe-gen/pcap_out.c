/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <string.h>

#include <pcap/pcap.h>

#include "fcr_text.h"
#include "pcap_out.h"

/* 2023-11-14 22:13:20 UTC: fixed, so the output depends only on options. */
#define FCR_GEN_EPOCH 1700000000u
/* Spacing between frames: a 2 KB FCoE frame takes about 1.7 us at 10G. */
#define FCR_GEN_GAP_US 2u
#define FCR_GEN_SNAPLEN 65535
#define FCR_GEN_STDIO_BUF (1u << 20)

static const char *const kind_names[FCR_GEN_KINDS] = {
#define FCR_GEN_KIND_NAME(id, name) name,
	FCR_GEN_KIND_LIST(FCR_GEN_KIND_NAME)
#undef FCR_GEN_KIND_NAME
};

const char *
fcr_gen_kind_name(enum fcr_gen_kind k)
{
	return (unsigned)k < FCR_GEN_KINDS ? kind_names[k] : "?";
}

int
fcr_gen_out_open(struct fcr_gen_out *out, const char *path,
		 const char *list_path)
{
	pcap_t *p;
	pcap_dumper_t *d;
	FILE *f;

	memset(out, 0, sizeof(*out));
	out->path = path;
	out->list_path = list_path;
	if (strcmp(path, "-") == 0) {
		f = stdout;
	} else {
		f = fopen(path, "wb");
		if (f == NULL) {
			fprintf(stderr, "fcoe-gen: --out %s: %s\n", path,
				strerror(errno));
			return -1;
		}
	}
	/* Big buffer before the first write: frames are small and many. */
	setvbuf(f, NULL, _IOFBF, FCR_GEN_STDIO_BUF);
	p = pcap_open_dead(DLT_EN10MB, FCR_GEN_SNAPLEN);
	if (p == NULL) {
		fprintf(stderr, "fcoe-gen: pcap_open_dead failed\n");
		goto fail;
	}
	d = pcap_dump_fopen(p, f);
	if (d == NULL) {
		fprintf(stderr, "fcoe-gen: --out %s: %s\n", path, pcap_geterr(p));
		pcap_close(p);
		goto fail;
	}
	out->pcap = p;
	out->dumper = d;
	out->file = f;
	if (list_path != NULL) {
		out->list = fopen(list_path, "w");
		if (out->list == NULL) {
			fprintf(stderr, "fcoe-gen: --list %s: %s\n", list_path,
				strerror(errno));
			pcap_dump_close(d);
			pcap_close(p);
			return -1;
		}
		setvbuf(out->list, NULL, _IOFBF, FCR_GEN_STDIO_BUF);
	}
	return 0;
fail:
	if (f != stdout)
		fclose(f);
	return -1;
}

void
fcr_gen_out_frame(struct fcr_gen_out *out, const uint8_t *frame, size_t len,
		  enum fcr_gen_kind kind, const struct fcr_gen_ids *ids)
{
	struct pcap_pkthdr h;
	uint64_t us = out->frames * FCR_GEN_GAP_US;
	char s[FCR_FCID_STRLEN], d[FCR_FCID_STRLEN];

	memset(&h, 0, sizeof(h));
	h.ts.tv_sec = (time_t)(FCR_GEN_EPOCH + us / 1000000u);
	h.ts.tv_usec = (suseconds_t)(us % 1000000u);
	h.caplen = (bpf_u_int32)len;
	h.len = (bpf_u_int32)len;
	pcap_dump((u_char *)out->dumper, &h, frame);
	out->frames++;
	out->bytes += len;
	out->kinds[kind]++;
	if (out->list == NULL)
		return;
	/* frame numbers from 1 and IDs as tshark's -T fields prints them;
	 * "-" for what the frame does not carry */
	fprintf(out->list, "%llu %s ", (unsigned long long)out->frames,
		kind_names[kind]);
	if (ids->vlan >= 0)
		fprintf(out->list, "%d ", ids->vlan);
	else
		fputs("- ", out->list);
	if (ids->no_fc)
		fputs("- - -\n", out->list);
	else
		fprintf(out->list, "%s %s 0x%04x\n",
			fcr_fcid_format_dotted(ids->s_id, s),
			fcr_fcid_format_dotted(ids->d_id, d), ids->ox_id);
}

int
fcr_gen_out_close(struct fcr_gen_out *out)
{
	int rc = 0;

	/* pcap_dump has no error return: the stream's error flag tells. */
	if (fflush(out->file) != 0 || ferror(out->file)) {
		fprintf(stderr, "fcoe-gen: --out %s: write error: %s\n",
			out->path, strerror(errno));
		rc = -1;
	}
	/* pcap_dump_close would fclose stdout, which still has a use */
	if (out->file != stdout)
		pcap_dump_close(out->dumper);
	pcap_close(out->pcap);
	if (out->list != NULL &&
	    (fflush(out->list) != 0 || ferror(out->list) || fclose(out->list) != 0)) {
		fprintf(stderr, "fcoe-gen: --list %s: write error: %s\n",
			out->list_path, strerror(errno));
		rc = -1;
	}
	return rc;
}
