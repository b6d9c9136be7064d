/* main.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <locale.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <glib/gi18n.h>

#include "embers-application.h"
#include "embers-cli.h"

int
main (int   argc,
      char *argv[])
{
  g_autoptr(EmbersApplication) app = NULL;

#ifdef __GLIBC__
  /* Big buffers (a profile's columns, a load's tables) come from mmap and
   * go back to the system when freed. By default glibc raises this
   * threshold after each such free, so the next load's buffers come from
   * a thread's heap and stay resident after a closed tab or a cancelled
   * load. */
  mallopt (M_MMAP_THRESHOLD, 256 * 1024);
#endif

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  /* One help for the window's options and the headless ones */
  if (embers_cli_wants_help (argc, argv))
    {
      g_autofree char *help = embers_cli_help ();

      g_print ("%s", help);
      return 0;
    }

  /* Headless work needs no display: never initialize GTK for it. */
  if (embers_cli_wants (argc, argv))
    return embers_cli_run (argc, argv);

  app = embers_application_new ();

  return g_application_run (G_APPLICATION (app), argc, argv);
}
