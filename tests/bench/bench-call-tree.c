/* bench-call-tree.c: the call tree on a profile of about a million nodes
 * (issue 18): the cost of opening the heaviest path from the root, as the
 * call tree view does when it is shown, top-down and inverted; beside it,
 * in the same run, the cost of loading that profile (what a person waits
 * for before any view) and of `go tool pprof -tree` on the same file.
 *
 *   bench-call-tree [--runs N] [--gen PATH] [--dir DIR] [--no-go] [FILE]
 *
 * Without a file, makes s50k (gen-pprof --shape random --samples 50000,
 * about 1.05 million nodes) next to itself, or in --dir. For each list on
 * the path it notes what the main thread spends (making the list, and
 * computing it when it is small) apart from the time until a list computed
 * on a worker thread is ready. Figures only: it asserts nothing about
 * time.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <gio/gio.h>

#include "embers-call-tree.h"
#include "embers-format.h"
#include "embers-layout.h"
#include "embers-profile.h"

static int
compare_double (gconstpointer a,
                gconstpointer b)
{
  double x = *(const double *)a, y = *(const double *)b;

  return x < y ? -1 : x > y;
}

static double
median (GArray *values)
{
  g_array_sort (values, compare_double);
  return g_array_index (values, double, values->len / 2);
}

typedef struct
{
  double main_ms;      /* on the calling thread, blocking */
  double wall_ms;      /* until the last list was ready */
  double worst_ms;     /* the longest single blocking step */
  guint  levels;
  guint  async_lists;
  guint  widest;       /* most rows in one list on the path */
} PathCost;

/* Opens the heaviest path from the root the way the view does: make a
 * row's list, ask its size (which computes a small list at once or starts
 * a worker thread), wait for "ready" in the main loop, take row 0 */
static PathCost
open_heaviest_path (EmbersProfile *profile,
                    guint          type,
                    gboolean       inverted)
{
  g_autoptr(EmbersCallTree) tree = NULL;
  g_autoptr(GListModel) roots = NULL;
  g_autoptr(EmbersCallTreeRow) row = NULL;
  PathCost cost = { 0 };
  gint64 start = g_get_monotonic_time ();
  gint64 t;

  t = g_get_monotonic_time ();
  tree = embers_call_tree_new (profile, type, inverted);
  roots = embers_call_tree_create_roots (tree);
  row = g_object_ref (embers_call_tree_list_get_row (EMBERS_CALL_TREE_LIST (roots), 0));
  cost.main_ms += (g_get_monotonic_time () - t) / 1e3;

  while (embers_call_tree_row_has_children (row))
    {
      g_autoptr(GListModel) kids = NULL;
      double step;
      guint n;

      t = g_get_monotonic_time ();
      kids = embers_call_tree_row_create_children (row);
      n = g_list_model_get_n_items (kids);
      step = (g_get_monotonic_time () - t) / 1e3;
      cost.main_ms += step;
      cost.worst_ms = MAX (cost.worst_ms, step);
      if (!embers_call_tree_list_is_ready (EMBERS_CALL_TREE_LIST (kids)))
        {
          cost.async_lists++;
          while (!embers_call_tree_list_is_ready (EMBERS_CALL_TREE_LIST (kids)))
            g_main_context_iteration (NULL, TRUE);
          n = g_list_model_get_n_items (kids);
        }
      cost.widest = MAX (cost.widest, n);
      if (n == 0)
        break;
      g_set_object (&row, embers_call_tree_list_get_row (EMBERS_CALL_TREE_LIST (kids), 0));
      cost.levels++;
    }
  cost.wall_ms = (g_get_monotonic_time () - start) / 1e3;
  return cost;
}

static gboolean
make_profile (const char  *gen,
              const char  *dir,
              char       **path,
              GError     **error)
{
  g_autofree char *raw = g_build_filename (dir, "s50k.pb", NULL);
  const char *argv[] = { gen, raw, "--shape", "random", "--samples", "50000", "--gzip", NULL };
  int status;

  *path = g_strconcat (raw, ".gz", NULL);
  if (g_file_test (*path, G_FILE_TEST_EXISTS))
    return TRUE;
  g_print ("making %s ...\n", *path);
  if (!g_spawn_sync (NULL, (char **)argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, &status, error) ||
      !g_spawn_check_wait_status (status, error))
    return FALSE;
  return g_file_test (*path, G_FILE_TEST_EXISTS);
}

/* `go tool pprof -tree` on @path, its wall time (median), or < 0 */
static double
go_pprof_tree (const char *go,
               const char *path,
               guint       runs)
{
  g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (double));
  const char *argv[] = { go, "tool", "pprof", "-tree", path, NULL };
  g_auto(GStrv) env = g_environ_setenv (g_get_environ (), "GOTOOLCHAIN", "local", TRUE);

  env = g_environ_setenv (env, "GOFLAGS", "-mod=mod", TRUE);
  for (guint r = 0; r < runs; r++)
    {
      g_autoptr(GError) error = NULL;
      gint64 t = g_get_monotonic_time ();
      int status;
      double ms;

      if (!g_spawn_sync (NULL, (char **)argv, env, G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                         NULL, NULL, NULL, NULL, &status, &error) ||
          !g_spawn_check_wait_status (status, NULL))
        return -1;
      ms = (g_get_monotonic_time () - t) / 1e3;
      g_array_append_val (times, ms);
    }
  return median (times);
}

static void
print_path (const char *what,
            GArray     *costs)
{
  g_autoptr(GArray) main_ms = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) wall_ms = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) worst_ms = g_array_new (FALSE, FALSE, sizeof (double));
  PathCost *first = &g_array_index (costs, PathCost, 0);

  for (guint i = 0; i < costs->len; i++)
    {
      PathCost *c = &g_array_index (costs, PathCost, i);

      g_array_append_val (main_ms, c->main_ms);
      g_array_append_val (wall_ms, c->wall_ms);
      g_array_append_val (worst_ms, c->worst_ms);
    }
  g_print ("  %-34s %3u levels, widest list %7u rows, %u on a thread: main thread %7.3f ms "
           "(longest step %6.3f ms), ready after %8.3f ms\n",
           what, first->levels, first->widest, first->async_lists,
           median (main_ms), median (worst_ms), median (wall_ms));
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *gen = NULL, *dir = NULL, *go = NULL;
  gint64 runs = 5;
  gboolean no_go = FALSE;
  GOptionEntry entries[] = {
    { "runs", 0, 0, G_OPTION_ARG_INT64, &runs, "Runs per figure (median; 5)", "N" },
    { "gen", 0, 0, G_OPTION_ARG_FILENAME, &gen, "The gen-pprof program", "PATH" },
    { "dir", 0, 0, G_OPTION_ARG_FILENAME, &dir, "Where to make the profile", "DIR" },
    { "no-go", 0, 0, G_OPTION_ARG_NONE, &no_go, "Do not run go tool pprof", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new ("[FILE] - open the call tree's heaviest path");
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) load_ms = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) prepare_ms = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(EmbersProfile) profile = NULL;
  g_autofree char *path = NULL;
  g_autofree char *here = g_path_get_dirname (argv[0]);
  guint type;
  double go_ms = -1;

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return 2;
    }
  runs = CLAMP (runs, 1, 100);
  if (gen == NULL)
    gen = g_build_filename (here, "gen-pprof", NULL);
  if (dir == NULL)
    dir = g_strdup (here);

  if (argc > 1)
    path = g_strdup (argv[1]);
  else if (!make_profile (gen, dir, &path, &error))
    {
      g_printerr ("cannot make the profile: %s\n", error->message);
      return 1;
    }

  /* The peer: loading the same file, as every view waits for */
  for (gint64 r = 0; r < runs; r++)
    {
      g_autoptr(GFile) file = g_file_new_for_path (path);
      gint64 t = g_get_monotonic_time ();
      double ms;

      g_clear_object (&profile);
      profile = embers_profile_load_file (file, NULL, &error);
      if (profile == NULL)
        {
          g_printerr ("%s: %s\n", path, error->message);
          return 1;
        }
      ms = (g_get_monotonic_time () - t) / 1e3;
      g_array_append_val (load_ms, ms);
    }
  type = embers_profile_get_default_sample_type (profile);

  g_print ("call tree: %s, %u nodes, depth %u, sample type %s (median of %" G_GINT64_FORMAT " runs)\n",
           path, embers_profile_get_n_nodes (profile), embers_profile_get_max_depth (profile),
           embers_profile_get_sample_type (profile, type), runs);

  for (guint pass = 0; pass < 2; pass++)
    {
      g_autoptr(GArray) top_down = g_array_new (FALSE, FALSE, sizeof (PathCost));
      g_autoptr(GArray) inverted = g_array_new (FALSE, FALSE, sizeof (PathCost));

      for (gint64 r = 0; r < runs; r++)
        {
          PathCost c;

          if (pass == 1 && r == 0)
            {
              /* What the app's pipeline does before a view shows */
              gint64 t = g_get_monotonic_time ();
              double ms;

              embers_layout_prepare (profile, type);
              ms = (g_get_monotonic_time () - t) / 1e3;
              g_array_append_val (prepare_ms, ms);
            }
          c = open_heaviest_path (profile, type, FALSE);
          g_array_append_val (top_down, c);
          c = open_heaviest_path (profile, type, TRUE);
          g_array_append_val (inverted, c);
        }
      g_print (pass == 0 ? " before embers_layout_prepare (children walked through the ends column):\n"
                         : " after embers_layout_prepare (%.1f ms, once, on the pipeline's thread):\n",
               pass == 1 ? g_array_index (prepare_ms, double, 0) : 0.0);
      print_path ("heaviest path, top-down", top_down);
      print_path ("heaviest path, inverted", inverted);
    }

  g_print (" peers on the same file:\n");
  g_print ("  %-34s %8.3f ms\n", "embers load (parse + build)", median (load_ms));
  if (!no_go && (go = g_find_program_in_path ("go")) != NULL)
    go_ms = go_pprof_tree (go, path, MIN (runs, 3));
  if (go_ms >= 0)
    g_print ("  %-34s %8.3f ms (whole tree printed, median of %u)\n", "go tool pprof -tree", go_ms,
             (guint) MIN (runs, 3));
  else
    g_print ("  go tool pprof -tree: not run%s\n", no_go ? "" : " (no go, or it failed)");

  return 0;
}
