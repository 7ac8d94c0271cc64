/* SPDX-License-Identifier: BSD-3-Clause */
/* What must hold of the tables whatever came in: the pipeline's events and
 * the sync engine's records both end up in them. */
#ifndef FCR_FUZZ_TABLES_H
#define FCR_FUZZ_TABLES_H

#include "fcr_tables.h"

/*
 * Everything the tables API lets us cross-check: each hash agrees with the
 * array it indexes, by-FCID and by-WWPN views of the bindings agree, counts
 * match, every name is bound or named by a redirect (nothing leaks), rules
 * exist only for active redirects and active ones have their four.
 */
void fz_check_tables(const struct fcr_tables *t);

#endif /* FCR_FUZZ_TABLES_H */
