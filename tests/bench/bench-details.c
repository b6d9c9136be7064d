/* bench-details.c: what a function's details cost (issue 18.2): the lines
 * read again from the pprof bytes, and the totals, callers and callees
 * from the tree, for the heaviest functions of each profile (median of
 * --runs). Figures only: it asserts nothing about time.
 *
 *   bench-details [--runs N] FILE...
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdlib.h>

#include "embers-function-details.h"
#include "embers-input.h"
#include "embers-readers.h"

static int
cmp_double (const void *a,
            const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;

  return x < y ? -1 : x > y;
}

static double
median (double *v,
        guint   n)
{
  qsort (v, n, sizeof *v, cmp_double);
  return v[n / 2];
}

int
main (int   argc,
      char *argv[])
{
  guint runs = 5;
  int first = 1;

  if (argc > 2 && g_str_equal (argv[1], "--runs"))
    {
      runs = MAX (1, (guint) strtoul (argv[2], NULL, 10));
      first = 3;
    }
  if (first >= argc)
    {
      g_printerr ("usage: %s [--runs N] FILE...\n", argv[0]);
      return 2;
    }

  for (int f = first; f < argc; f++)
    {
      g_autoptr(GFile) file = g_file_new_for_commandline_arg (argv[f]);
      g_autoptr(GBytes) bytes = NULL;
      g_autoptr(EmbersProfile) profile = NULL;
      g_autoptr(GError) error = NULL;
      guint type;
      const char *names[3] = { NULL };
      gint64 best[3] = { -1, -1, -1 };

      bytes = embers_input_read_file (file, NULL, NULL, NULL, &error);
      if (bytes != NULL)
        profile = embers_pprof_parse (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error);
      if (profile == NULL)
        {
          g_printerr ("%s: %s\n", argv[f], error->message);
          return 1;
        }
      type = embers_profile_get_default_sample_type (profile);

      /* The three heaviest distinct functions below the root's children */
      for (guint32 i = 1; i < embers_profile_get_n_nodes (profile); i++)
        {
          const char *name = embers_profile_node_name_str (profile, i);
          gint64 total = embers_profile_node_total (profile, type, i);
          gboolean dup = FALSE;

          if (embers_profile_node_depth (profile, i) < 2)
            continue;
          for (guint k = 0; k < 3; k++)
            dup |= g_strcmp0 (names[k], name) == 0;
          if (dup)
            continue;
          for (guint k = 0; k < 3; k++)
            if (total > best[k])
              {
                for (guint m = 2; m > k; m--)
                  {
                    best[m] = best[m - 1];
                    names[m] = names[m - 1];
                  }
                best[k] = total;
                names[k] = name;
                break;
              }
        }

      g_print ("%s: %.1f MB of pprof, %u nodes\n", argv[f], g_bytes_get_size (bytes) / 1e6,
               embers_profile_get_n_nodes (profile));
      for (guint k = 0; k < 3 && names[k] != NULL; k++)
        {
          g_autofree double *lines_ms = g_new (double, runs);
          g_autofree double *tree_ms = g_new (double, runs);
          guint n_lines = 0;

          for (guint r = 0; r < runs; r++)
            {
              gint64 t0 = g_get_monotonic_time ();
              g_autoptr(EmbersFunctionDetails) d = NULL;
              g_autoptr(EmbersFunctionDetails) t = NULL;

              d = embers_function_details_new_from_pprof (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                                                          names[k], type, NULL, &error);
              g_assert_no_error (error);
              lines_ms[r] = (g_get_monotonic_time () - t0) / 1000.0;
              n_lines = d->lines->len;
              t0 = g_get_monotonic_time ();
              t = embers_function_details_new_from_profile (profile, names[k], type);
              tree_ms[r] = (g_get_monotonic_time () - t0) / 1000.0;
            }
          g_print ("  %-60.60s lines from pprof %7.1f ms (%u lines), from the tree %6.1f ms\n",
                   names[k], median (lines_ms, runs), n_lines, median (tree_ms, runs));
        }
    }
  return 0;
}
