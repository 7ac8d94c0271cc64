/* SPDX-License-Identifier: BSD-3-Clause */
#include "fcr_reason.h"

static const char *const reason_names[FCR_R_COUNT] = {
#define FCR_REASON_NAME(id, name, text) [FCR_R_##id] = name,
	FCR_REASON_LIST(FCR_REASON_NAME)
#undef FCR_REASON_NAME
};

static const char *const reason_texts[FCR_R_COUNT] = {
#define FCR_REASON_TEXT(id, name, text) [FCR_R_##id] = text,
	FCR_REASON_LIST(FCR_REASON_TEXT)
#undef FCR_REASON_TEXT
};

const char *
fcr_reason_name(enum fcr_reason r)
{
	return (unsigned)r < FCR_R_COUNT ? reason_names[r] : "?";
}

const char *
fcr_reason_text(enum fcr_reason r)
{
	return (unsigned)r < FCR_R_COUNT ? reason_texts[r] : "?";
}
