/* SPDX-License-Identifier: BSD-3-Clause */
/* The prompt on a terminal: typed completion and '?' help. */
#ifndef FCR_APP_TERMINAL_H
#define FCR_APP_TERMINAL_H

/* Until quit, end of input or a signal. */
void fcr_terminal_loop(void);

#endif /* FCR_APP_TERMINAL_H */
