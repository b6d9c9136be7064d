/* embers-cli.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "embers-cli.h"

gboolean
embers_cli_wants (int    argc,
                  char **argv)
{
  return FALSE;
}

int
embers_cli_run (int    argc,
                char **argv)
{
  return 1;
}
