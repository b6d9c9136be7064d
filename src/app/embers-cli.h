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
/* Runs it and returns the process exit status. */
int      embers_cli_run   (int    argc,
                           char **argv);

G_END_DECLS
