/* embers-cli.h: headless command line (no display needed)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* TRUE when argv asks for headless work (--top, --export, --diff ...). */
gboolean embers_cli_wants (int    argc,
                           char **argv);
/* TRUE when argv asks for --help (-h, -?): print embers_cli_help() */
gboolean embers_cli_wants_help (int    argc,
                                char **argv);
/* Every option, window and headless, grouped, with the exit statuses */
char    *embers_cli_help  (void);

/* The exit status of --top on a profile without samples */
#define EMBERS_CLI_EXIT_NO_SAMPLES 2

/* Runs it and returns the process exit status. */
int      embers_cli_run   (int    argc,
                           char **argv);

G_END_DECLS
