/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Running a command: parsed once, where it is typed or read, it reaches its
 * row's handler on the thread the row names, as a typed command, never as
 * text. From the command line's thread (app/cli.c, app/terminal.c).
 */
#ifndef FCR_APP_DISPATCH_H
#define FCR_APP_DISPATCH_H

#include "fcr_cmd.h"

/*
 * Run a parsed command on its thread and print what it says (text: the
 * line as typed, for the audit trail; where: the file and line it came
 * from, or NULL, said before its error). From the command line's thread.
 * 0 or -1.
 */
int fcr_command_run(const struct fcr_cmd *c, const char *text, const char *where);
/* Parse and run one line (a blank line or a comment: 0). 0 or -1. */
int fcr_command_line(const char *text, const char *where);

/* `quit` was given: the command line stops reading. */
void fcr_quit(void);
int fcr_quitting(void);

#endif /* FCR_APP_DISPATCH_H */
