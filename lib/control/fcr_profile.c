/* SPDX-License-Identifier: BSD-3-Clause */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fcr_profile.h"

static int
fail(char *err, unsigned int len, const char *path, unsigned int line,
     const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(err, len, "%s:%u: ", path, line);

	va_start(ap, fmt);
	if (n > 0 && (unsigned int)n < len)
		vsnprintf(err + n, len - (unsigned int)n, fmt, ap);
	va_end(ap);
	return -1;
}

static char *
trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/* ${NAME} from the environment; an unset variable is an error. */
static int
expand(const char *in, char *out, size_t cap, const char **missing)
{
	static char name[128];
	size_t o = 0;

	while (*in) {
		if (in[0] == '$' && in[1] == '{') {
			const char *end = strchr(in, '}'), *v;
			size_t n;

			if (end == NULL || (size_t)(end - in - 2) >= sizeof(name))
				return -1;
			n = (size_t)(end - in - 2);
			memcpy(name, in + 2, n);
			name[n] = '\0';
			v = getenv(name);
			if (v == NULL) {
				*missing = name;
				return -2;
			}
			if (o + strlen(v) >= cap)
				return -1;
			memcpy(out + o, v, strlen(v));
			o += strlen(v);
			in = end + 1;
			continue;
		}
		if (o + 1 >= cap)
			return -1;
		out[o++] = *in++;
	}
	out[o] = '\0';
	return 0;
}

static int
number(const char *s, unsigned long min, unsigned long max, unsigned long *v)
{
	char *end;

	errno = 0;
	*v = strtoul(s, &end, 0);
	return *s == '\0' || *s == '-' || *end != '\0' || errno || *v < min ||
	       *v > max ? -1 : 0;
}

void
fcr_profile_free(struct fcr_profile *p)
{
	int i;

	for (i = 0; i < p->nb_eal; i++)
		free(p->eal[i]);
	p->nb_eal = 0;
}

int
fcr_profile_load(const char *path, struct fcr_profile *p, char *err,
		 unsigned int err_len)
{
	char raw[1024], line[2048];
	unsigned int lineno = 0;
	const char *base, *missing;
	unsigned long v;
	FILE *f;

	memset(p, 0, sizeof(*p));
	p->lossless_priority = -1;
	base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	snprintf(p->name, sizeof(p->name), "%.*s", (int)strcspn(base, "."), base);
	f = fopen(path, "r");
	if (f == NULL)
		return fail(err, err_len, path, 0, "cannot open: %s", strerror(errno));
	/* every error: what earlier lines allocated is freed (nb_eal 0) */
#define BAD(...) do { fclose(f); fcr_profile_free(p); \
		return fail(err, err_len, path, lineno, __VA_ARGS__); } while (0)
	while (fgets(raw, sizeof(raw), f) != NULL) {
		char *hash, *eq, *key, *val;
		int rc;

		lineno++;
		if (strchr(raw, '\n') == NULL && !feof(f))
			BAD("line too long");
		hash = strchr(raw, '#');
		if (hash)
			*hash = '\0';
		key = trim(raw);
		if (*key == '\0')
			continue;
		eq = strchr(key, '=');
		if (eq == NULL)
			BAD("expected 'key = value'");
		*eq = '\0';
		key = trim(key);
		rc = expand(trim(eq + 1), line, sizeof(line), &missing);
		if (rc == -2)
			BAD("environment variable %s is not set", missing);
		if (rc < 0)
			BAD("bad ${...} or value too long");
		val = line;
		if (*val == '\0')
			BAD("%s: empty value", key);
		if (strcmp(key, "eal") == 0) {
			char *save = NULL, *w;

			for (w = strtok_r(val, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
				if (p->nb_eal == FCR_PROFILE_MAX_EAL)
					BAD("eal: more than %d arguments", FCR_PROFILE_MAX_EAL);
				p->eal[p->nb_eal++] = strdup(w);
			}
		} else if (strcmp(key, "rxq") == 0) {
			if (number(val, 1, 64, &v) < 0)
				BAD("rxq: '%s' is not 1..64", val);
			p->rxq = (uint16_t)v;
		} else if (strcmp(key, "rxd") == 0 || strcmp(key, "txd") == 0) {
			if (number(val, 32, 16384, &v) < 0)
				BAD("%s: '%s' is not 32..16384", key, val);
			*(key[0] == 'r' ? &p->rxd : &p->txd) = (uint16_t)v;
		} else if (strcmp(key, "mtu") == 0) {
			if (number(val, 1500, 9600, &v) < 0)
				BAD("mtu: '%s' is not 1500..9600", val);
			p->mtu = (uint16_t)v;
		} else if (strcmp(key, "burst") == 0) {
			if (number(val, 1, 64, &v) < 0)
				BAD("burst: '%s' is not 1..64", val);
			p->burst = (uint16_t)v;
		} else if (strcmp(key, "config") == 0) {
			if (strlen(val) >= sizeof(p->config) || val[0] != '(')
				BAD("config: expected (port,queue,lcore),...");
			strcpy(p->config, val);
		} else if (strcmp(key, "distributor") == 0) {
			if (strlen(val) >= sizeof(p->distributor) || val[0] != '(')
				BAD("distributor: expected (port,queue,lcore),...");
			strcpy(p->distributor, val);
		} else if (strcmp(key, "offloads") == 0) {
			if (strcmp(val, "none") == 0)
				p->vlan_strip = 0;
			else if (strcmp(val, "vlan_strip") == 0)
				p->vlan_strip = 1;
			else
				BAD("offloads: '%s' is not none or vlan_strip", val);
		} else if (strcmp(key, "fcoe_steering") == 0) {
			if (strcmp(val, "none") == 0)
				p->steering = 0;
			else if (strcmp(val, "rte_flow") == 0)
				p->steering = 1;
			else
				BAD("fcoe_steering: '%s' is not none or rte_flow", val);
		} else if (strcmp(key, "fcoe_queues") == 0) {
			char *save = NULL, *w;

			p->nb_fcoe_queues = 0;
			for (w = strtok_r(val, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
				if (p->nb_fcoe_queues == FCR_PROFILE_MAX_QUEUES ||
				    number(trim(w), 0, 63, &v) < 0)
					BAD("fcoe_queues: '%s' is not a queue 0..63", w);
				p->fcoe_queues[p->nb_fcoe_queues++] = (uint16_t)v;
			}
		} else if (strcmp(key, "fip_queue") == 0) {
			if (number(val, 0, 63, &v) < 0)
				BAD("fip_queue: '%s' is not 0..63", val);
			p->fip_queue = (uint16_t)v;
		} else if (strcmp(key, "lossless_priority") == 0) {
			if (number(val, 0, 7, &v) < 0)
				BAD("lossless_priority: '%s' is not 0..7", val);
			p->lossless_priority = (int)v;
		} else if (strcmp(key, "description") == 0) {
			snprintf(p->description, sizeof(p->description), "%.159s", val);
		} else {
			BAD("unknown key '%s'", key);
		}
#undef BAD
	}
	fclose(f);
	if (p->rxq) {
		unsigned int i;

		for (i = 0; i < p->nb_fcoe_queues; i++)
			if (p->fcoe_queues[i] >= p->rxq)
				return fcr_profile_free(p),
				       fail(err, err_len, path, lineno,
					    "fcoe_queues: queue %u but rxq = %u",
					    p->fcoe_queues[i], p->rxq);
		if (p->fip_queue >= p->rxq)
			return fcr_profile_free(p),
			       fail(err, err_len, path, lineno,
				    "fip_queue: queue %u but rxq = %u", p->fip_queue, p->rxq);
	}
	return 0;
}
