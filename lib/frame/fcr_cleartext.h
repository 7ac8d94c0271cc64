/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Whether a data payload looks encrypted. Ciphertext (AES-XTS, GCM, ...)
 * is indistinguishable from uniformly random bytes; the disk data of a host
 * (file systems, databases, text, zeros) is not. The test is Pearson's
 * chi-square over the 256 byte values, two-sided: far too uneven (text,
 * zeros, any structure) or far too even (a counting pattern) is not random.
 * Random data stays within 12 standard deviations above the statistic's
 * mean (255; sd sqrt(510)) and 8 below it; cleartext of a few hundred bytes
 * is thousands away. Data already random in the clear
 * (compressed, or encrypted by the host) passes: the guard finds a service
 * node that stopped encrypting, not every clear byte. Pure.
 */
#ifndef FCR_CLEARTEXT_H
#define FCR_CLEARTEXT_H

#include <stdint.h>

/* Payloads shorter are not judged: too few bytes for the statistic. */
#define FCR_CLEARTEXT_MIN 512
/* At most this much of a payload is read (an FCP data frame's most). */
#define FCR_CLEARTEXT_MAX 2048

enum fcr_cleartext {
	FCR_CT_SHORT = 0,  /* not judged */
	FCR_CT_RANDOM,     /* looks encrypted */
	FCR_CT_CLEAR,      /* does not */
};

enum fcr_cleartext fcr_cleartext_judge(const uint8_t *p, uint32_t len);

#endif /* FCR_CLEARTEXT_H */
