/* test-diff.c: merged diff trees, share change, diff top table
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "embers-diff.h"
#include "embers-profile-builder.h"

static EmbersProfile *
build (const char *unit,
       const char *spec)
{
  g_autoptr(EmbersProfileBuilder) b = embers_profile_builder_new ();
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) lines = g_strsplit (spec, "\n", -1);
  EmbersProfile *p;

  embers_profile_builder_add_sample_type (b, "cpu", unit);
  for (guint i = 0; lines[i]; i++)
    {
      g_auto(GStrv) parts = NULL;
      g_auto(GStrv) frames = NULL;
      g_autofree guint32 *ids = NULL;
      gint64 value;
      guint n;

      if (lines[i][0] == '\0')
        continue;
      parts = g_strsplit (lines[i], " ", 2);
      frames = g_strsplit (parts[0], ";", -1);
      n = g_strv_length (frames);
      ids = g_new (guint32, n);
      for (guint d = 0; d < n; d++)
        ids[d] = embers_profile_builder_intern (b, frames[d], -1);
      value = g_ascii_strtoll (parts[1], NULL, 10);
      embers_profile_builder_add_stack (b, ids, n, &value, 0);
    }

  p = embers_profile_builder_finish (b, &error);
  g_assert_no_error (error);
  return p;
}

static guint32
find_node (EmbersProfile *p,
           const char    *stack)
{
  for (guint i = 0; i < embers_profile_get_n_nodes (p); i++)
    {
      g_autofree char *s = embers_profile_node_stack (p, i, ";");

      if (g_str_equal (s, stack))
        return i;
    }

  g_error ("no node %s", stack);
  return 0;
}

static void
test_diff_tree (void)
{
  g_autoptr(EmbersProfile) left = build ("nanoseconds", "a;b 1\na;c 2");
  g_autoptr(EmbersProfile) right = build ("nanoseconds", "a;b 4\na;c 8\na;d;e 3");
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersProfile) d = embers_diff_profiles (left, 0, right, 0, &error);
  guint32 n;

  g_assert_no_error (error);
  g_assert_true (embers_profile_is_diff (d));
  g_assert_cmpuint (embers_profile_get_n_sample_types (d), ==, 2);
  g_assert_cmpstr (embers_profile_get_sample_type (d, 0), ==, "baseline");
  g_assert_cmpstr (embers_profile_get_sample_type (d, 1), ==, "comparison");
  g_assert_cmpstr (embers_profile_get_sample_unit (d, 1), ==, "nanoseconds");
  g_assert_cmpint (embers_profile_get_total (d, 0), ==, 3);
  g_assert_cmpint (embers_profile_get_total (d, 1), ==, 15);
  /* total, a, b, c, d, e */
  g_assert_cmpuint (embers_profile_get_n_nodes (d), ==, 6);

  n = find_node (d, "a;c");
  g_assert_cmpint (embers_profile_node_self (d, 0, n), ==, 2);
  g_assert_cmpint (embers_profile_node_self (d, 1, n), ==, 8);
  n = find_node (d, "a;d;e");
  g_assert_cmpint (embers_profile_node_total (d, 0, n), ==, 0);
  g_assert_cmpint (embers_profile_node_total (d, 1, n), ==, 3);
  n = find_node (d, "a");
  g_assert_cmpint (embers_profile_node_total (d, 0, n), ==, 3);
  g_assert_cmpint (embers_profile_node_total (d, 1, n), ==, 15);

  /* Sides swapped: the removed frame is on the baseline only */
  {
    g_autoptr(EmbersProfile) r = embers_diff_profiles (right, 0, left, 0, &error);

    g_assert_no_error (error);
    n = find_node (r, "a;d;e");
    g_assert_cmpint (embers_profile_node_total (r, 0, n), ==, 3);
    g_assert_cmpint (embers_profile_node_total (r, 1, n), ==, 0);
  }
}

static void
test_diff_units (void)
{
  g_autoptr(EmbersProfile) left = build ("nanoseconds", "a 1");
  g_autoptr(EmbersProfile) right = build ("bytes", "a 1");
  g_autoptr(EmbersProfile) compatible = build ("seconds", "a 1");
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersProfile) d = embers_diff_profiles (left, 0, right, 0, &error);

  g_assert_null (d);
  g_assert_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_UNSUPPORTED);
  g_assert_cmpstr (error->message, ==, "Cannot compare “cpu” in nanoseconds with “cpu” in bytes: the units differ");
  g_clear_error (&error);

  d = embers_diff_profiles (left, 0, compatible, 0, &error);
  g_assert_no_error (error);

  /* The same check for callers that only know the types (server queries) */
  g_assert_false (embers_diff_check_units ("cpu", "nanoseconds", "alloc_space", "bytes", &error));
  g_assert_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_UNSUPPORTED);
  g_assert_cmpstr (error->message, ==, "Cannot compare “cpu” in nanoseconds with “alloc_space” in bytes: the units differ");
  g_clear_error (&error);
  g_assert_true (embers_diff_check_units ("cpu", "nanoseconds", "wall", "seconds", &error));
  g_assert_true (embers_diff_check_units ("samples", "count", "goroutine", "count", &error));
  g_assert_false (embers_diff_check_units ("samples", "count", "cpu", "nanoseconds", &error));
  g_assert_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_UNSUPPORTED);
}

static void
test_diff_share_change (void)
{
  EmbersDiffKind kind;

  /* Same share: 0 */
  g_assert_cmpfloat (embers_diff_share_change (1, 3, 4, 12, &kind), ==, 0.0);
  g_assert_cmpint (kind, ==, EMBERS_DIFF_KIND_CHANGED);
  /* 50% -> 75%: +50 */
  g_assert_cmpfloat_with_epsilon (embers_diff_share_change (50, 100, 150, 200, &kind), 50.0, 1e-9);
  /* 50% -> 25%: -50 */
  g_assert_cmpfloat_with_epsilon (embers_diff_share_change (50, 100, 50, 200, &kind), -50.0, 1e-9);
  /* New: +100 and said so */
  g_assert_cmpfloat (embers_diff_share_change (0, 100, 5, 200, &kind), ==, 100.0);
  g_assert_cmpint (kind, ==, EMBERS_DIFF_KIND_NEW);
  /* Removed: -100 */
  g_assert_cmpfloat (embers_diff_share_change (5, 100, 0, 200, &kind), ==, -100.0);
  g_assert_cmpint (kind, ==, EMBERS_DIFF_KIND_REMOVED);
  /* Both zero: 0, no NaN */
  g_assert_cmpfloat (embers_diff_share_change (0, 0, 0, 0, &kind), ==, 0.0);
  /* Not clamped: 10% -> 50% is +400 */
  g_assert_cmpfloat_with_epsilon (embers_diff_share_change (10, 100, 50, 100, NULL), 400.0, 1e-9);
}

static void
test_diff_top (void)
{
  /* Equal load would hide nothing; here the comparison has 3x the samples. */
  g_autoptr(EmbersProfile) left = build ("nanoseconds", "main;a 50\nmain;b 50\nmain;gone 0\nmain;old 10");
  g_autoptr(EmbersProfile) right = build ("nanoseconds", "main;a 50\nmain;b 160\nmain;c 90");
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersProfile) d = embers_diff_profiles (left, 0, right, 0, &error);
  g_autoptr(GArray) rows = NULL;
  g_autoptr(GString) out = g_string_new (NULL);

  g_assert_no_error (error);
  rows = embers_diff_top_compute (d);
  /* main, a, b, c, old */
  g_assert_cmpuint (rows->len, ==, 5);

  embers_diff_top_print (rows, d, EMBERS_DIFF_MODE_SHARE, 0, out);
  g_assert_cmpstr (out->str, ==,
                   "0\t90\t0.00\t30.00\tnew\tc\n"
                   "50\t160\t45.45\t53.33\t+17.33\tb\n"
                   "110\t300\t100.00\t100.00\t+0.00\tmain\n"
                   "50\t50\t45.45\t16.67\t-63.33\ta\n"
                   "10\t0\t9.09\t0.00\tremoved\told\n");

  g_string_truncate (out, 0);
  embers_diff_top_sort (rows, d, EMBERS_DIFF_MODE_SHARE, FALSE);
  embers_diff_top_print (rows, d, EMBERS_DIFF_MODE_SHARE, 1, out);
  g_assert_cmpstr (out->str, ==, "10\t0\t9.09\t0.00\tremoved\told\n");

  /* By the absolute change: "a" stayed (0), "main" grew by 190/110 */
  g_string_truncate (out, 0);
  embers_diff_top_sort (rows, d, EMBERS_DIFF_MODE_ABSOLUTE, TRUE);
  embers_diff_top_print (rows, d, EMBERS_DIFF_MODE_ABSOLUTE, 0, out);
  g_assert_cmpstr (out->str, ==,
                   "0\t90\t0.00\t30.00\tnew\tc\n"
                   "50\t160\t45.45\t53.33\t+220.00\tb\n"
                   "110\t300\t100.00\t100.00\t+172.73\tmain\n"
                   "50\t50\t45.45\t16.67\t+0.00\ta\n"
                   "10\t0\t9.09\t0.00\tremoved\told\n");
  for (guint i = 0; i < rows->len; i++)
    {
      const EmbersDiffRow *row = &g_array_index (rows, EmbersDiffRow, i);

      g_assert_cmpfloat (embers_diff_row_change (row, EMBERS_DIFF_MODE_SHARE), ==, row->change);
      g_assert_cmpfloat (embers_diff_row_change (row, EMBERS_DIFF_MODE_ABSOLUTE), ==, row->absolute_change);
    }
}

static void
test_diff_format (void)
{
  static const struct {
    double      percent;
    gboolean    sign;
    const char *text;
  } percents[] = {
    { 0, FALSE, "0%" },
    { 0, TRUE, "0%" },
    { 0.001, FALSE, "<0.01%" },
    { 0.05, FALSE, "0.05%" },
    { 1.234, FALSE, "1.23%" },
    { 9.999, FALSE, "10.0%" },
    { 12.34, FALSE, "12.3%" },
    { 99.97, FALSE, "100%" },
    { 100, FALSE, "100%" },
    { 123.4, TRUE, "+123%" },
    { 1234.5, TRUE, "+1234%" },
    { -63.333, TRUE, "\xe2\x88\x92" "63.3%" },
    { -0.5, TRUE, "\xe2\x88\x92" "0.50%" },
    { 17.33, TRUE, "+17.3%" },
  };
  static const struct {
    gint64      baseline, comparison;
    const char *unit;
    const char *text;
  } deltas[] = {
    { 100000000, 650000000, "nanoseconds", "+550.00 ms" },
    { 650000000, 100000000, "nanoseconds", "\xe2\x88\x92" "550.00 ms" },
    { 5, 5, "nanoseconds", "0 ns" },
    { 0, 3 * 1024 * 1024, "bytes", "+3.00 MiB" },
    { 7, 0, "count", "\xe2\x88\x92" "7" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (percents); i++)
    {
      g_autofree char *text = embers_diff_format_percent (percents[i].percent, percents[i].sign);

      g_assert_cmpstr (text, ==, percents[i].text);
    }
  for (guint i = 0; i < G_N_ELEMENTS (deltas); i++)
    {
      g_autofree char *text = embers_diff_format_delta (deltas[i].baseline, deltas[i].comparison, deltas[i].unit);

      g_assert_cmpstr (text, ==, deltas[i].text);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/embers/diff/tree", test_diff_tree);
  g_test_add_func ("/embers/diff/units", test_diff_units);
  g_test_add_func ("/embers/diff/share-change", test_diff_share_change);
  g_test_add_func ("/embers/diff/top", test_diff_top);
  g_test_add_func ("/embers/diff/format", test_diff_format);

  return g_test_run ();
}
