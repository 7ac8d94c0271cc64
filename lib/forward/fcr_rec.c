/* SPDX-License-Identifier: BSD-3-Clause */
#include "fcr_rec.h"

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
