/* test-top.c: per-function self and total
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "embers-profile-builder.h"
#include "embers-top.h"

static EmbersProfile *
build (const char * const *stacks,
       const gint64       *values,
       guint               n)
{
  g_autoptr(EmbersProfileBuilder) b = embers_profile_builder_new ();
  g_autoptr(GError) error = NULL;
  EmbersProfile *p;

  embers_profile_builder_add_sample_type (b, "samples", "count");
  for (guint i = 0; i < n; i++)
    {
      g_auto(GStrv) frames = g_strsplit (stacks[i], ";", -1);
      guint depth = g_strv_length (frames);
      g_autofree guint32 *ids = g_new (guint32, depth);

      for (guint d = 0; d < depth; d++)
        ids[d] = embers_profile_builder_intern (b, frames[d], -1);
      embers_profile_builder_add_stack (b, ids, depth, &values[i], 0);
    }

  p = embers_profile_builder_finish (b, &error);
  g_assert_no_error (error);
  return p;
}

static const EmbersTopRow *
find_row (GArray        *rows,
          EmbersProfile *p,
          const char    *name)
{
  for (guint i = 0; i < rows->len; i++)
    {
      const EmbersTopRow *row = &g_array_index (rows, EmbersTopRow, i);

      if (g_str_equal (embers_profile_get_string (p, row->name), name))
        return row;
    }

  return NULL;
}

static void
test_top_recursion_once (void)
{
  /* f recurses directly and through g; its total counts each stack once. */
  const char *stacks[] = {
    "main;f;f;f",
    "main;f;g;f;h",
    "main;h",
    "main;g",
  };
  const gint64 values[] = { 10, 5, 3, 2 };
  g_autoptr(EmbersProfile) p = build (stacks, values, G_N_ELEMENTS (stacks));
  g_autoptr(GArray) rows = embers_top_compute (p, 0);
  const EmbersTopRow *row;

  g_assert_cmpuint (rows->len, ==, 4);

  row = find_row (rows, p, "main");
  g_assert_cmpint (row->self, ==, 0);
  g_assert_cmpint (row->total, ==, 20);

  row = find_row (rows, p, "f");
  g_assert_cmpint (row->self, ==, 10);
  g_assert_cmpint (row->total, ==, 15);

  row = find_row (rows, p, "g");
  g_assert_cmpint (row->self, ==, 2);
  g_assert_cmpint (row->total, ==, 7);

  row = find_row (rows, p, "h");
  g_assert_cmpint (row->self, ==, 8);
  g_assert_cmpint (row->total, ==, 8);

  /* Sorted by self descending, then total */
  g_assert_cmpstr (embers_profile_get_string (p, g_array_index (rows, EmbersTopRow, 0).name), ==, "f");
  g_assert_cmpstr (embers_profile_get_string (p, g_array_index (rows, EmbersTopRow, 1).name), ==, "h");
  g_assert_cmpstr (embers_profile_get_string (p, g_array_index (rows, EmbersTopRow, 2).name), ==, "g");
  g_assert_cmpstr (embers_profile_get_string (p, g_array_index (rows, EmbersTopRow, 3).name), ==, "main");
}

static void
test_top_sort_and_print (void)
{
  const char *stacks[] = { "a;b", "a;c", "a" };
  const gint64 values[] = { 5, 5, 1 };
  g_autoptr(EmbersProfile) p = build (stacks, values, G_N_ELEMENTS (stacks));
  g_autoptr(GArray) rows = embers_top_compute (p, 0);
  g_autoptr(GString) out = g_string_new (NULL);

  /* Equal self and total: names break the tie, ascending */
  embers_top_print (rows, p, 0, out);
  g_assert_cmpstr (out->str, ==, "5\t5\tb\n5\t5\tc\n1\t11\ta\n");

  g_string_truncate (out, 0);
  embers_top_sort (rows, p, EMBERS_TOP_SORT_TOTAL, TRUE);
  embers_top_print (rows, p, 1, out);
  g_assert_cmpstr (out->str, ==, "1\t11\ta\n");

  g_string_truncate (out, 0);
  embers_top_sort (rows, p, EMBERS_TOP_SORT_NAME, FALSE);
  embers_top_print (rows, p, 0, out);
  g_assert_cmpstr (out->str, ==, "1\t11\ta\n5\t5\tb\n5\t5\tc\n");

  g_string_truncate (out, 0);
  embers_top_sort (rows, p, EMBERS_TOP_SORT_NAME, TRUE);
  embers_top_print (rows, p, 0, out);
  g_assert_cmpstr (out->str, ==, "5\t5\tc\n5\t5\tb\n1\t11\ta\n");

  g_string_truncate (out, 0);
  embers_top_sort (rows, p, EMBERS_TOP_SORT_SELF, FALSE);
  embers_top_print (rows, p, 0, out);
  g_assert_cmpstr (out->str, ==, "1\t11\ta\n5\t5\tb\n5\t5\tc\n");
}

static void
test_top_empty (void)
{
  g_autoptr(EmbersProfile) p = build (NULL, NULL, 0);
  g_autoptr(GArray) rows = embers_top_compute (p, 0);

  g_assert_cmpuint (rows->len, ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/embers/top/recursion-once", test_top_recursion_once);
  g_test_add_func ("/embers/top/sort-and-print", test_top_sort_and_print);
  g_test_add_func ("/embers/top/empty", test_top_empty);

  return g_test_run ();
}
