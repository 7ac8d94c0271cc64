/* SPDX-License-Identifier: BSD-3-Clause */
/* The prompt on a terminal: typed completion and '?' help. */
#ifndef FCR_APP_TERMINAL_H
#define FCR_APP_TERMINAL_H

/* Until quit, end of input or *signalled. */
void fcr_terminal_loop(volatile int *signalled);

#endif /* FCR_APP_TERMINAL_H */
