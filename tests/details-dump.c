/* details-dump.c: every function's lines, as the details panel reads them,
 * for the live oracle (tests/oracle/live-details-oracle.sh)
 *
 * Usage: embers-details-dump FILE SAMPLE_INDEX
 * Prints "function<TAB>file<TAB>line<TAB>self<TAB>total" per line with
 * samples, and "function<TAB>file<TAB>*<TAB>self<TAB>total" per function.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdlib.h>

#include "embers-function-details.h"
#include "embers-input.h"
#include "embers-readers.h"

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(EmbersProfile) profile = NULL;
  g_autoptr(GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GError) error = NULL;
  EmbersFormat format = EMBERS_FORMAT_UNKNOWN;
  guint sample_type;

  if (argc != 3)
    {
      g_printerr ("usage: %s FILE SAMPLE_INDEX\n", argv[0]);
      return 2;
    }
  file = g_file_new_for_commandline_arg (argv[1]);
  sample_type = (guint) strtoul (argv[2], NULL, 10);
  bytes = embers_input_read_file (file, NULL, &format, NULL, &error);
  if (bytes != NULL)
    profile = embers_pprof_parse (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error);
  if (profile == NULL)
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }

  for (guint32 i = 1; i < embers_profile_get_n_nodes (profile); i++)
    {
      const char *name = embers_profile_node_name_str (profile, i);
      g_autoptr(EmbersFunctionDetails) d = NULL;

      if (!g_hash_table_add (names, (gpointer) name))
        continue;
      d = embers_function_details_new_from_pprof (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                                                  name, sample_type, NULL, &error);
      if (d == NULL)
        {
          g_printerr ("%s: %s\n", name, error->message);
          return 1;
        }
      g_print ("%s\t%s\t*\t%" G_GINT64_FORMAT "\t%" G_GINT64_FORMAT "\n", d->name, d->file, d->self, d->total);
      for (guint k = 0; k < d->lines->len; k++)
        {
          const EmbersLineCost *l = &g_array_index (d->lines, EmbersLineCost, k);

          g_print ("%s\t%s\t%" G_GINT64_FORMAT "\t%" G_GINT64_FORMAT "\t%" G_GINT64_FORMAT "\n",
                   d->name, d->file, l->line, l->self, l->total);
        }
    }
  return 0;
}
