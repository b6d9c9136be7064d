/* bench-transforms.c: the view's interactions on profiles of millions of
 * nodes (issue 17): invert, collapse recursion, focus, sandwich callers,
 * hide and search, and the frame actions' transform stack (merge, drop,
 * collapse a package, and a 4-step stack re-applied), each timed (wall and CPU, median of --runs) on the
 * same profile in the same run. Goal: < 100 ms each, else the app runs it
 * off the main thread with its progress shown while the old view stays.
 *
 *   bench-transforms [--runs N] [--gen PATH] [--dir DIR] [FILE...]
 *
 * Without files, makes big100k (gen-pprof --shape big, 2.5 million nodes)
 * and s100k (--shape random, 2.1 million) next to itself, or in --dir.
 * Figures only: it asserts nothing about time.
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

#include "embers-format.h"
#include "embers-profile.h"
#include "embers-palette.h"
#include "embers-search.h"
#include "embers-transform-stack.h"
#include "embers-transforms.h"

#define GOAL_MS 100.0

static double
cpu_ms (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int
compare_double (gconstpointer a,
                gconstpointer b)
{
  double x = *(const double *)a, y = *(const double *)b;

  return x < y ? -1 : x > y;
}

typedef enum
{
  INVERT,
  COLLAPSE,
  FOCUS,
  CALLERS,
  HIDE,
  SEARCH,
  MERGE,
  DROP,
  PACKAGE,
  STACK4,
  N_KINDS
} Kind;

static const char *kind_names[] = {
  "invert", "collapse recursion", "focus", "sandwich callers", "hide", "search",
  "merge function", "drop function", "collapse package", "stack of 4",
};

/* What the frame actions act on */
typedef struct
{
  const char           *merged;    /* the hidden function */
  const char           *dropped;   /* a light function at depth 2 */
  char                 *package;   /* the busy function's package */
  EmbersTransformStack *stack;     /* drop, merge, package, recursion */
} Actions;

/* A busy function some levels down: the heaviest node at depth 3 */
static guint32
busy_node (EmbersProfile *profile)
{
  const gint64 *total = embers_profile_get_total_column (profile, embers_profile_get_default_sample_type (profile));
  guint n = embers_profile_get_n_nodes (profile);
  guint32 best = 0;

  for (guint i = 1; i < n; i++)
    if (embers_profile_node_depth (profile, i) == 3 && (best == 0 || total[i] > total[best]))
      best = i;

  return best;
}

static void
run_one (EmbersProfile *profile,
         Kind           kind,
         const char    *name,
         GRegex        *regex,
         const Actions *actions,
         guint          runs)
{
  g_autofree double *wall = g_new (double, runs);
  g_autofree double *cpu = g_new (double, runs);
  guint result_nodes = 0;

  for (guint r = 0; r < runs; r++)
    {
      g_autoptr(GError) error = NULL;
      gint64 t0 = g_get_monotonic_time ();
      double c0 = cpu_ms ();
      EmbersProfile *out = NULL;
      EmbersSearch *search = NULL;

      switch (kind)
        {
        case INVERT:
          out = embers_transform_invert (profile, &error);
          break;
        case COLLAPSE:
          out = embers_transform_collapse_recursion (profile, &error);
          break;
        case FOCUS:
          out = embers_transform_focus (profile, name, &error);
          break;
        case CALLERS:
          out = embers_transform_sandwich_callers (profile, name, &error);
          break;
        case HIDE:
          out = embers_transform_hide (profile, regex, &error);
          break;
        case SEARCH:
          search = embers_search_new (profile, name, EMBERS_SEARCH_DEFAULT, &error);
          break;
        case MERGE:
          out = embers_transform_merge_function (profile, actions->merged, &error);
          break;
        case DROP:
          out = embers_transform_drop_function (profile, actions->dropped, &error);
          break;
        case PACKAGE:
          out = embers_transform_collapse_package (profile, actions->package, &error);
          break;
        case STACK4:
          out = embers_transform_stack_apply (actions->stack, profile, NULL, &error);
          break;
        case N_KINDS:
        default:
          g_assert_not_reached ();
        }
      wall[r] = (g_get_monotonic_time () - t0) / 1000.0;
      cpu[r] = cpu_ms () - c0;
      g_assert_no_error (error);
      if (out != NULL)
        result_nodes = embers_profile_get_n_nodes (out);
      else if (search != NULL)
        result_nodes = embers_search_get_n_matches (search);
      g_clear_object (&out);
      g_clear_pointer (&search, embers_search_unref);
    }

  qsort (wall, runs, sizeof (double), (GCompareFunc)compare_double);
  qsort (cpu, runs, sizeof (double), (GCompareFunc)compare_double);
  printf ("%-20s %7.1f ms wall, %7.1f ms CPU (median of %u), %9u %s  %s\n",
          kind_names[kind], wall[runs / 2], cpu[runs / 2], runs, result_nodes,
          kind == SEARCH ? "matches" : "nodes",
          wall[runs / 2] < GOAL_MS ? "(< 100 ms)" : "(> 100 ms: off the main thread, with progress)");
}

static gboolean
make_profile (const char  *gen,
              const char  *dir,
              const char  *name,
              const char  *shape,
              char       **path,
              GError     **error)
{
  g_autofree char *raw = g_strdup_printf ("%s/%s.pb", dir, name);
  const char *argv[] = { gen, raw, "--shape", shape, "--samples", "100000", "--gzip", NULL };
  int status = 0;

  *path = g_strconcat (raw, ".gz", NULL);
  if (g_file_test (*path, G_FILE_TEST_EXISTS))
    return TRUE;
  printf ("# generating %s\n", *path);
  if (!g_spawn_sync (NULL, (char **)argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, &status, error) ||
      !g_spawn_check_wait_status (status, error))
    return FALSE;
  g_unlink (raw);
  return TRUE;
}

int
main (int    argc,
      char **argv)
{
  gint64 runs = 5;
  g_autofree char *gen = NULL, *dir = NULL;
  GOptionEntry entries[] = {
    { "runs", 0, 0, G_OPTION_ARG_INT64, &runs, "Runs of each (5)", "N" },
    { "gen", 0, 0, G_OPTION_ARG_FILENAME, &gen, "The gen-pprof program", "PATH" },
    { "dir", 0, 0, G_OPTION_ARG_FILENAME, &dir, "Where generated profiles go", "DIR" },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new ("[FILE...] - the view's transforms on big profiles");
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *self = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *here = self ? g_path_get_dirname (self) : g_get_current_dir ();
  g_autofree char *loadavg = NULL;

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    {
      fprintf (stderr, "%s\n", error->message);
      return 2;
    }
  runs = CLAMP (runs, 1, 1000);
  if (gen == NULL)
    gen = g_build_filename (here, "gen-pprof", NULL);
  if (dir == NULL)
    dir = g_strdup (here);

  for (int i = 1; i < argc; i++)
    g_ptr_array_add (files, g_strdup (argv[i]));
  if (files->len == 0)
    {
      const char *names[] = { "big100k", "s100k" };
      const char *shapes[] = { "big", "random" };

      for (guint i = 0; i < G_N_ELEMENTS (names); i++)
        {
          char *path = NULL;

          if (!make_profile (gen, dir, names[i], shapes[i], &path, &error))
            {
              fprintf (stderr, "%s\n", error->message);
              g_free (path);
              return 1;
            }
          g_ptr_array_add (files, path);
        }
    }

  g_file_get_contents ("/proc/loadavg", &loadavg, NULL, NULL);
  printf ("# bench-transforms: %" G_GINT64_FORMAT " runs each, %ld CPUs, load average %s",
          runs, sysconf (_SC_NPROCESSORS_ONLN), loadavg ? loadavg : "?\n");

  for (guint f = 0; f < files->len; f++)
    {
      g_autoptr(GFile) file = g_file_new_for_path (files->pdata[f]);
      g_autoptr(EmbersProfile) profile = NULL;
      g_autoptr(GRegex) regex = NULL;
      g_autofree char *escaped = NULL;
      gint64 t0 = g_get_monotonic_time ();
      const char *name, *hidden;
      guint32 busy;

      profile = embers_profile_load_file (file, NULL, &error);
      if (profile == NULL)
        {
          fprintf (stderr, "%s: %s\n", (char *)files->pdata[f], error->message);
          return 1;
        }
      busy = busy_node (profile);
      name = embers_profile_node_name_str (profile, busy);
      /* hide the busy node's parent's function: many frames to take out */
      hidden = embers_profile_node_name_str (profile, embers_profile_node_parent (profile, busy));
      escaped = g_regex_escape_string (hidden, -1);
      regex = g_regex_new (escaped, 0, 0, &error);
      g_assert_no_error (error);

      printf ("\n# %s: %u nodes, depth up to %u, %u names, loaded in %.0f ms\n",
              (char *)files->pdata[f], embers_profile_get_n_nodes (profile),
              embers_profile_get_max_depth (profile), embers_profile_get_n_strings (profile),
              (g_get_monotonic_time () - t0) / 1000.0);
      printf ("# focus, callers and search on %s; hide %s\n", name, hidden);
      {
        Actions actions = { hidden, NULL, NULL, embers_transform_stack_new () };
        const gint64 *total = embers_profile_get_total_column (profile, embers_profile_get_default_sample_type (profile));
        guint32 light = 0;
        gsize len = 0;
        const char *package = embers_palette_package (name, &len);

        /* The lightest function at depth 2 that is not the busy one's */
        for (guint i = 1; i < embers_profile_get_n_nodes (profile); i++)
          if (embers_profile_node_depth (profile, i) == 2 && total[i] > 0 &&
              (light == 0 || total[i] < total[light]))
            light = i;
        actions.dropped = embers_profile_node_name_str (profile, light != 0 ? light : busy);
        actions.package = g_strndup (package, len);
        embers_transform_stack_push (actions.stack, EMBERS_TRANSFORM_DROP_FUNCTION,
                                     (const char *[]) { actions.dropped, NULL }, NULL);
        embers_transform_stack_push (actions.stack, EMBERS_TRANSFORM_MERGE_FUNCTION,
                                     (const char *[]) { actions.merged, NULL }, NULL);
        embers_transform_stack_push (actions.stack, EMBERS_TRANSFORM_COLLAPSE_PACKAGE,
                                     (const char *[]) { actions.package, NULL }, NULL);
        embers_transform_stack_push (actions.stack, EMBERS_TRANSFORM_COLLAPSE_RECURSION, NULL, NULL);
        printf ("# merge %s, drop %s, collapse package %s; the stack of 4: those and collapse recursion\n",
                actions.merged, actions.dropped, actions.package);
        for (Kind k = 0; k < N_KINDS; k++)
          run_one (profile, k, name, regex, &actions, (guint)runs);
        g_free (actions.package);
        embers_transform_stack_free (actions.stack);
      }
    }

  printf ("# goal: each < %.0f ms on a million nodes, or off the main thread with progress\n", GOAL_MS);
  return 0;
}
