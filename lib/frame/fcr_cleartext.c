/* SPDX-License-Identifier: BSD-3-Clause */
#include "fcr_cleartext.h"

#include <string.h>

/*
 * chi2 = 256/n * sum(c^2) - n, with mean 255 and variance about 510 for
 * random bytes (2(k-1)(1-1/n)); compared in integers: 256 * sum(c^2)
 * against n * (n + bound). Above: 255 + 12 sd (22.58 each); below: 255 - 8
 * sd, as chi2 cannot go under 0 and its left tail is the thinner (Wilson-
 * Hilferty puts both beyond 9 sd of a normal). 200,000 random payloads of
 * each of 512, 1024 and 2048 bytes gave 165 to 385.
 */
#define CHI2_LOW 75u
#define CHI2_HIGH 526u

enum fcr_cleartext
fcr_cleartext_judge(const uint8_t *p, uint32_t len)
{
	/* four histograms: consecutive bytes never wait on one counter */
	uint16_t h[4][256];
	uint64_t sum = 0, n, lo, hi;
	uint32_t i;

	if (len < FCR_CLEARTEXT_MIN)
		return FCR_CT_SHORT;
	if (len > FCR_CLEARTEXT_MAX)
		len = FCR_CLEARTEXT_MAX;
	len &= ~3u;
	memset(h, 0, sizeof(h));
	for (i = 0; i < len; i += 4) {
		h[0][p[i]]++;
		h[1][p[i + 1]]++;
		h[2][p[i + 2]]++;
		h[3][p[i + 3]]++;
	}
	for (i = 0; i < 256; i++) {
		uint64_t c = (uint64_t)h[0][i] + h[1][i] + h[2][i] + h[3][i];

		sum += c * c;
	}
	n = len;
	sum *= 256;
	lo = n * (n + CHI2_LOW);
	hi = n * (n + CHI2_HIGH);
	return sum < lo || sum > hi ? FCR_CT_CLEAR : FCR_CT_RANDOM;
}
