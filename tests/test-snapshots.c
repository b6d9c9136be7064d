/* test-snapshots.c: regressions across many snapshots
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Synthetic snapshots with known noise (a seeded generator, so every run
 * sees the same numbers): a function whose share jumps at one snapshot is
 * flagged at that step and sorted first; pure noise stays unflagged at the
 * stated rate (printed as a TAP comment); snapshots of one step each are
 * not tested, and say so; another order is another table; folders and
 * files, and a folder of files labelled by version as a local source.
 */

#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <glib/gstdio.h>

#include "embers-local-source.h"
#include "embers-profile-builder.h"
#include "embers-readers.h"
#include "embers-snapshots.h"
#include "embers-test-wait.h"

static double
normal (GRand *rand)
{
  /* Box–Muller */
  double u1 = g_rand_double_range (rand, 1e-300, 1);
  double u2 = g_rand_double (rand);

  return sqrt (-2 * log (u1)) * cos (2 * G_PI * u2);
}

/* K snapshots of @steps steps; @n functions with shares 1..n % of a
 * total of 1e6, each with @noise relative noise per step; with @jump_at
 * > 0, "regressed" grows from 5 % to 5 % × @factor from snapshot @jump_at on */
static EmbersSnapshots *
synthetic (GRand  *rand,
           guint   K,
           guint   steps,
           guint   n,
           double  noise,
           guint   jump_at,
           double  factor)
{
  EmbersSnapshots *s = embers_snapshots_new (EMBERS_DIFF_STATS_SHARE, 0);

  embers_snapshots_set_max_rows (s, 0);
  for (guint k = 0; k < K; k++)
    {
      g_autofree char *name = g_strdup_printf ("v%u", k + 1);
      guint index = embers_snapshots_add_snapshot (s, name, NULL, NULL);

      for (guint i = 0; i < steps; i++)
        {
          guint step = embers_snapshots_add_step (s, index, 1e6, 15);

          for (guint f = 0; f < n; f++)
            {
              g_autofree char *fn = g_strdup_printf ("f%02u", f);

              embers_snapshots_add_value (s, index, step, fn, 1e4 * (f + 1) * (1 + noise * normal (rand)));
            }
          if (jump_at > 0)
            embers_snapshots_add_value (s, index, step, "regressed",
                                        5e4 * (k >= jump_at ? factor : 1) * (1 + noise * normal (rand)));
        }
    }
  return s;
}

static void
test_names (void)
{
  g_assert_cmpint (embers_snapshots_compare_names ("v2", "v10"), <, 0);
  g_assert_cmpint (embers_snapshots_compare_names ("v1.10.0", "v1.9.3"), >, 0);
  g_assert_cmpint (embers_snapshots_compare_names ("v01", "v1"), ==, 0);
  g_assert_cmpint (embers_snapshots_compare_names ("a", "ab"), <, 0);
  g_assert_cmpint (embers_snapshots_compare_names ("2026-11-02", "2026-11-10"), <, 0);
  g_assert_cmpint (embers_snapshots_compare_names ("b", "a"), >, 0);
}

static void
test_sparkline (void)
{
  const double values[] = { 0, 0.5, NAN, 1 };
  double x[4], y[4];

  embers_snapshots_sparkline (values, 4, 62, 22, 1, x, y);
  g_assert_cmpfloat (x[0], ==, 1);
  g_assert_cmpfloat (x[3], ==, 61);
  g_assert_cmpfloat (y[0], ==, 21);
  g_assert_cmpfloat (y[1], ==, 11);
  g_assert_true (isnan (x[2]) && isnan (y[2]));
  g_assert_cmpfloat (y[3], ==, 1);
  embers_snapshots_sparkline (values, 1, 62, 22, 1, x, y);
  g_assert_cmpfloat (x[0], ==, 31);
  g_assert_cmpfloat (y[0], ==, 21);
}

/* Ten versions: "regressed" grows by 60 % at v6; it is flagged there, at
 * that step only, and is the first row */
static void
test_jump (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);
  g_autoptr(EmbersSnapshots) s = synthetic (rand, 10, 12, 20, 0.1, 5, 1.6);
  const EmbersSnapshotRow *row;
  g_autofree char *text = NULL;
  g_autofree char *order = NULL;

  embers_snapshots_compute (s);
  g_assert_true (embers_snapshots_has_enough_steps (s));
  g_assert_cmpuint (embers_snapshots_get_n_rows (s), ==, 21);
  g_assert_cmpuint (embers_snapshots_get_n_tested (s), ==, 21 * 9);

  row = embers_snapshots_get_row (s, 0);
  g_assert_cmpstr (row->key, ==, "regressed");
  g_assert_cmpint (row->jump, ==, 4);   /* v5 → v6 */
  g_assert_cmpint (row->steps[4].verdict, ==, EMBERS_CHANGE_GREW);
  g_assert_cmpfloat_with_epsilon (row->shares[0], 0.05, 0.01);
  g_assert_cmpfloat_with_epsilon (row->shares[9], 0.08, 0.01);
  /* The interval holds the true change (+60 %) */
  g_assert_cmpfloat (fabs (row->steps[4].change - 60), <=, row->steps[4].interval);
  for (guint step = 0; step < 9; step++)
    if (step != 4)
      g_assert_cmpint (row->steps[step].verdict, ==, EMBERS_CHANGE_WITHIN_NOISE);

  /* Nothing else jumps */
  g_assert_cmpuint (embers_snapshots_get_n_flagged (s), ==, 1);
  g_assert_cmpuint (embers_snapshots_get_n_flagged_steps (s), ==, 1);
  for (guint i = 1; i < embers_snapshots_get_n_rows (s); i++)
    g_assert_cmpint (embers_snapshots_get_row (s, i)->jump, ==, -1);

  text = embers_snapshots_describe_step (s, 0, 4);
  g_assert_nonnull (strstr (text, "v5 → v6"));
  g_assert_nonnull (strstr (text, "beyond the noise (12 and 12 steps)"));
  g_assert_nonnull (strstr (text, "±"));
  order = embers_snapshots_describe_order (s);
  g_assert_true (g_str_has_prefix (order, "v1 (baseline) → v2 → v3"));
  g_assert_true (g_str_has_suffix (order, "→ v10"));
}

/* The same data, newest first: the jump is at the mirrored step and shrinks */
static void
test_reorder (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);
  g_autoptr(EmbersSnapshots) s = synthetic (rand, 10, 12, 20, 0.1, 5, 1.6);
  g_autoptr(EmbersSnapshots) reversed = NULL;
  guint order[10];
  const EmbersSnapshotRow *row;

  embers_snapshots_compute (s);
  for (guint i = 0; i < 10; i++)
    order[i] = 9 - i;
  reversed = embers_snapshots_reorder (s, order, 10);
  g_assert_false (embers_snapshots_is_computed (reversed));
  embers_snapshots_compute (reversed);
  g_assert_cmpstr (embers_snapshots_get_name (reversed, 0), ==, "v10");
  g_assert_cmpuint (embers_snapshots_get_index (reversed, 0), ==, 9);
  row = embers_snapshots_get_row (reversed, 0);
  g_assert_cmpstr (row->key, ==, "regressed");
  g_assert_cmpint (row->jump, ==, 4);   /* v6 → v5 */
  g_assert_cmpint (row->steps[4].verdict, ==, EMBERS_CHANGE_SHRANK);
  g_assert_cmpstr (embers_snapshots_get_name (reversed, 5), ==, "v5");
  /* The first table is unchanged */
  g_assert_cmpstr (embers_snapshots_get_name (s, 0), ==, "v1");

}

static void
computed (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  gboolean *done = user_data;

  g_assert_true (embers_snapshots_compute_finish (EMBERS_SNAPSHOTS (object), result, NULL));
  *done = TRUE;
}

static void
test_async (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (3);
  g_autoptr(EmbersSnapshots) s = synthetic (rand, 4, 6, 5, 0.05, 2, 2);
  gboolean done = FALSE;

  embers_snapshots_compute_async (s, NULL, computed, &done);
  embers_test_wait_while (!done);
  g_assert_true (embers_snapshots_is_computed (s));
  g_assert_cmpstr (embers_snapshots_get_row (s, 0)->key, ==, "regressed");
  g_assert_cmpint (embers_snapshots_get_row (s, 0)->jump, ==, 1);
}

/* Pure noise: 200 tables of 10 snapshots × 30 functions, nothing changes.
 * Benjamini–Hochberg over each whole table: with every step a null, a
 * table flags anything at all in at most about 5 % of trials */
static void
test_false_positives (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (11);
  guint trials = 200, tables_flagged = 0;
  guint64 cells = 0, flagged = 0;
  g_autofree char *figure = NULL;

  for (guint t = 0; t < trials; t++)
    {
      g_autoptr(EmbersSnapshots) s = synthetic (rand, 10, 8, 30, 0.2, 0, 1);

      embers_snapshots_compute (s);
      cells += embers_snapshots_get_n_tested (s);
      flagged += embers_snapshots_get_n_flagged_steps (s);
      if (embers_snapshots_get_n_flagged_steps (s) > 0)
        tables_flagged++;
    }
  figure = g_strdup_printf ("false positives on pure noise: %u of %u tables flag a step (%.1f%%); "
                            "%" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " steps (%.3f%%)",
                            tables_flagged, trials, 100.0 * tables_flagged / trials,
                            flagged, cells, 100.0 * flagged / cells);
  g_test_message ("%s", figure);
  g_assert_cmpuint (cells, ==, (guint64)trials * 30 * 9);
  g_assert_cmpfloat ((double)tables_flagged / trials, <=, 0.08);
}

/* One step per snapshot (a file each): nothing is tested, nothing is
 * claimed, rows sort by their largest change */
static void
test_not_enough_steps (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (5);
  g_autoptr(EmbersSnapshots) s = synthetic (rand, 5, 1, 4, 0.01, 3, 3);
  const EmbersSnapshotRow *row;
  g_autofree char *text = NULL;

  embers_snapshots_compute (s);
  g_assert_false (embers_snapshots_has_enough_steps (s));
  g_assert_cmpuint (embers_snapshots_get_n_tested (s), ==, 0);
  g_assert_cmpuint (embers_snapshots_get_n_flagged (s), ==, 0);
  row = embers_snapshots_get_row (s, 0);
  g_assert_cmpstr (row->key, ==, "regressed");
  g_assert_cmpint (row->jump, ==, -1);
  g_assert_cmpint (row->largest, ==, 2);
  g_assert_cmpint (row->steps[2].verdict, ==, EMBERS_CHANGE_NOT_ENOUGH_STEPS);
  text = embers_snapshots_describe_step (s, 0, 2);
  g_assert_nonnull (strstr (text, "Not enough steps"));
}

/* Rows kept: the largest shares */
static void
test_max_rows (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (5);
  g_autoptr(EmbersSnapshots) s = embers_snapshots_new (EMBERS_DIFF_STATS_SHARE, 0);

  for (guint k = 0; k < 3; k++)
    {
      guint index = embers_snapshots_add_snapshot (s, k == 0 ? "a" : k == 1 ? "b" : "c", NULL, NULL);

      for (guint i = 0; i < 4; i++)
        {
          guint step = embers_snapshots_add_step (s, index, 1000, 0);

          for (guint f = 0; f < 300; f++)
            {
              g_autofree char *fn = g_strdup_printf ("f%03u", f);

              embers_snapshots_add_value (s, index, step, fn, f * (1 + 0.01 * normal (rand)) / 50);
            }
        }
    }
  embers_snapshots_compute (s);
  g_assert_cmpuint (embers_snapshots_get_n_rows (s), ==, EMBERS_SNAPSHOTS_MAX_ROWS_DEFAULT);
  g_assert_cmpint (embers_snapshots_find_row (s, "f299"), >=, 0);
  g_assert_cmpint (embers_snapshots_find_row (s, "f000"), ==, -1);
}

/* Folders and files */

static void
write_file (const char *dir,
            const char *name,
            const char *text)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);
}

static void
loaded (GObject      *object,
        GAsyncResult *result,
        gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

static EmbersSnapshots *
load (GFile  **files,
      guint    n,
      GError **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  embers_snapshots_load_files_async (files, n, 0, NULL, loaded, &result);
  embers_test_wait_while (result == NULL);
  return embers_snapshots_load_files_finish (result, error);
}

static void
remove_tree (GFile *file)
{
  g_autoptr(GFileEnumerator) e = g_file_enumerate_children (file, G_FILE_ATTRIBUTE_STANDARD_NAME,
                                                            G_FILE_QUERY_INFO_NOFOLLOW_SYMLINKS, NULL, NULL);

  if (e != NULL)
    {
      GFile *child;

      while (g_file_enumerator_iterate (e, NULL, &child, NULL, NULL) && child != NULL)
        remove_tree (child);
    }
  g_file_delete (file, NULL, NULL);
}

static void
test_folders (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *root = g_dir_make_tmp ("embers-snapshots-XXXXXX", &error);
  g_autoptr(GRand) rand = g_rand_new_with_seed (13);
  g_autoptr(GFile) folder = NULL;
  g_autoptr(EmbersSnapshots) s = NULL;
  g_autoptr(EmbersSnapshots) files = NULL;
  g_autoptr(GPtrArray) list = g_ptr_array_new_with_free_func (g_object_unref);
  const EmbersSnapshotRow *row;

  g_assert_no_error (error);
  /* v1, v2, v10 (in that order, not v1, v10, v2), six files each; parse
   * doubles at v10 */
  for (guint v = 0; v < 3; v++)
    {
      const char *names[] = { "v1", "v2", "v10" };
      g_autofree char *dir = g_build_filename (root, names[v], NULL);

      g_assert_cmpint (g_mkdir (dir, 0700), ==, 0);
      for (guint i = 0; i < 6; i++)
        {
          g_autofree char *name = g_strdup_printf ("cpu-%u.folded", i);
          g_autofree char *text = g_strdup_printf ("main;parse %d\nmain;render %d\nmain;idle %d\n",
                                                   (int)(100 * (v == 2 ? 2 : 1) * (1 + 0.05 * normal (rand))),
                                                   (int)(300 * (1 + 0.05 * normal (rand))),
                                                   (int)(300 * (1 + 0.05 * normal (rand))));

          write_file (dir, name, text);
        }
    }
  folder = g_file_new_for_path (root);
  s = load (&folder, 1, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (embers_snapshots_get_n_snapshots (s), ==, 3);
  g_assert_cmpstr (embers_snapshots_get_name (s, 0), ==, "v1");
  g_assert_cmpstr (embers_snapshots_get_name (s, 1), ==, "v2");
  g_assert_cmpstr (embers_snapshots_get_name (s, 2), ==, "v10");
  g_assert_cmpuint (embers_snapshots_get_n_steps (s, 0), ==, 6);
  g_assert_nonnull (embers_snapshots_get_file (s, 2));
  /* Each snapshot a query on the local source that holds the files */
  g_assert_true (EMBERS_IS_LOCAL_SOURCE (embers_snapshots_get_source (s)));
  g_assert_cmpuint (embers_local_source_get_n_profiles (EMBERS_LOCAL_SOURCE (embers_snapshots_get_source (s))), ==, 18);
  g_assert_cmpstr (embers_snapshots_get_query (s, 2)->label_selector, ==, "{snapshot=\"v10\"}");
  g_assert_nonnull (embers_snapshots_get_query (s, 2)->profile_type);
  g_assert_cmpint (embers_snapshots_get_query (s, 2)->end_ms - embers_snapshots_get_query (s, 2)->start_ms, >=, 120000);
  g_assert_true (embers_snapshots_has_enough_steps (s));
  row = embers_snapshots_get_row (s, 0);
  g_assert_cmpstr (row->key, ==, "parse");
  g_assert_cmpint (row->jump, ==, 1);
  g_assert_cmpint (row->steps[1].verdict, ==, EMBERS_CHANGE_GREW);
  /* main is 100 % everywhere: no row (it says nothing, and its cells would
   * only widen the false-discovery family), as on a server */
  g_assert_cmpint (embers_snapshots_find_row (s, "main"), ==, -1);
  g_assert_cmpuint (embers_snapshots_get_n_rows (s), ==, 3);
  g_assert_cmpuint (embers_snapshots_get_n_tested (s), ==, 3 * 2);

  /* Files given one by one: one step each, not tested */
  for (guint v = 0; v < 3; v++)
    {
      const char *names[] = { "v1", "v2", "v10" };

      g_ptr_array_add (list, g_file_new_build_filename (root, names[v], "cpu-0.folded", NULL));
    }
  files = load ((GFile **)list->pdata, list->len, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (embers_snapshots_get_n_snapshots (files), ==, 3);
  g_assert_cmpstr (embers_snapshots_get_name (files, 0), ==, "cpu-0.folded");
  g_assert_false (embers_snapshots_has_enough_steps (files));
  g_assert_cmpstr (embers_snapshots_get_row (files, 0)->key, ==, "parse");

  /* A file that is no profile: the whole load fails, with its name */
  {
    g_autofree char *dir = g_build_filename (root, "v2", NULL);
    g_autoptr(EmbersSnapshots) bad = NULL;

    write_file (dir, "notes.txt", "not a profile at all\n");
    bad = load (&folder, 1, &error);
    g_assert_null (bad);
    g_assert_nonnull (error);
    g_assert_nonnull (strstr (error->message, "notes.txt"));
    g_clear_error (&error);
  }

  /* One thing only */
  {
    g_autoptr(EmbersSnapshots) one = load ((GFile **)list->pdata, 1, &error);

    g_assert_null (one);
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
    g_clear_error (&error);
  }

  remove_tree (folder);
}

/* A folder of files labelled by version, as a local source: each file of
 * a version is one step of its snapshot */
static EmbersProfile *
folded_profile (const char *text)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersProfile) parsed = embers_folded_parse (text, strlen (text), &error);
  g_autoptr(EmbersProfileBuilder) b = embers_profile_builder_new ();

  g_assert_no_error (error);
  embers_profile_builder_add_sample_type (b, "cpu", "nanoseconds");
  embers_profile_builder_set_time (b, 0, 10 * G_GINT64_CONSTANT (1000000000));
  embers_profile_builder_add_profile (b, parsed, 0, 0, NULL);
  return embers_profile_builder_finish (b, NULL);
}

static void
local_done (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  EmbersSnapshots **out = user_data;
  g_autoptr(GError) error = NULL;

  *out = embers_local_source_snapshots_finish (EMBERS_LOCAL_SOURCE (object), result, &error);
  g_assert_no_error (error);
}

static void
test_local_source (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (17);
  g_autoptr(EmbersLocalSource) source = embers_local_source_new ();
  g_autoptr(EmbersSnapshots) s = embers_snapshots_new (EMBERS_DIFF_STATS_SHARE, 0);
  g_autoptr(EmbersSnapshots) result = NULL;
  g_autoptr(EmbersQuery) base = NULL;
  g_autofree char *type = NULL;
  const char *versions[] = { "v1", "v2", "v3", "v4" };
  const EmbersSnapshotRow *row;

  for (guint v = 0; v < 4; v++)
    for (guint i = 0; i < 8; i++)
      {
        gint64 parse = (gint64)(100 * (v >= 2 ? 1.5 : 1.0) * (1 + 0.05 * normal (rand)));
        gint64 render = (gint64)(300 * (1 + 0.05 * normal (rand)));
        g_autofree char *text = g_strdup_printf ("main;parse %" G_GINT64_FORMAT "\nmain;render %" G_GINT64_FORMAT
                                                 "\nmain;idle %" G_GINT64_FORMAT "\n", parse, render, render);
        g_autoptr(EmbersProfile) p = folded_profile (text);
        const char *labels[] = { "service_name", "app", "version", versions[v], NULL };
        g_autofree char *name = g_strdup_printf ("%s-%u.pb", versions[v], i);

        if (type == NULL)
          type = embers_local_source_profile_type_id (p, 0);
        embers_local_source_add_profile (source, name, p, 1000000 + (v * 8 + i) * 60000, labels);
      }

  base = embers_query_new (type, "{service_name=\"app\"}", 0, 0);
  for (guint v = 0; v < 4; v++)
    {
      g_autoptr(EmbersQuery) q = embers_snapshots_query_with_label (base, "version", versions[v]);

      g_assert_nonnull (strstr (q->label_selector, "version=\""));
      embers_snapshots_add_snapshot (s, versions[v], q, NULL);
    }
  embers_local_source_snapshots_async (source, s, NULL, local_done, &result);
  embers_test_wait_while (result == NULL);
  g_assert_true (result == s);
  g_assert_cmpstr (embers_snapshots_get_sample_type (s), ==, "cpu");
  g_assert_cmpuint (embers_snapshots_get_n_steps (s, 0), ==, 8);
  row = embers_snapshots_get_row (s, 0);
  g_assert_cmpstr (row->key, ==, "parse");
  g_assert_cmpint (row->jump, ==, 1);   /* v2 → v3 */
  g_assert_cmpint (row->steps[1].verdict, ==, EMBERS_CHANGE_GREW);
  g_assert_nonnull (embers_snapshots_get_query (s, 2));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/embers/snapshots/names", test_names);
  g_test_add_func ("/embers/snapshots/sparkline", test_sparkline);
  g_test_add_func ("/embers/snapshots/jump", test_jump);
  g_test_add_func ("/embers/snapshots/reorder", test_reorder);
  g_test_add_func ("/embers/snapshots/async", test_async);
  g_test_add_func ("/embers/snapshots/false-positives", test_false_positives);
  g_test_add_func ("/embers/snapshots/not-enough-steps", test_not_enough_steps);
  g_test_add_func ("/embers/snapshots/max-rows", test_max_rows);
  g_test_add_func ("/embers/snapshots/folders", test_folders);
  g_test_add_func ("/embers/snapshots/local-source", test_local_source);

  return g_test_run ();
}
