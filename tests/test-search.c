/* test-search.c: frame search, match share, next/previous
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "embers-profile-builder.h"
#include "embers-diff.h"
#include "embers-search.h"
#include "embers-test-utils.h"

static guint32
find_path (EmbersProfile *profile,
           const char    *path)
{
  g_auto(GStrv) frames = g_strsplit (path, ";", -1);
  guint32 node = 0;

  for (guint f = 0; frames[f] != NULL; f++)
    {
      guint32 end = embers_profile_node_end (profile, node);
      guint32 found = EMBERS_NODE_NONE;

      for (guint32 c = node + 1; c < end; c = embers_profile_node_end (profile, c))
        if (g_str_equal (embers_profile_node_name_str (profile, c), frames[f]))
          found = c;
      g_assert_true (found != EMBERS_NODE_NONE);
      node = found;
    }

  return node;
}

/* total 100 */
static const char *tree =
  "main;foo;bar 10\n"
  "main;foo;foo;baz 5\n"
  "main;foo 5\n"
  "main;Foo 10\n"
  "main;qux;foo 20\n"
  "main 30\n"
  "other;FOO_BAR 20\n";

static EmbersSearch *
search (EmbersProfile     *p,
        const char        *pattern,
        EmbersSearchFlags  flags)
{
  GError *error = NULL;
  EmbersSearch *s = embers_search_new (p, pattern, flags, &error);

  g_assert_no_error (error);
  g_assert_nonnull (s);
  return s;
}

static void
test_plain_caseless (void)
{
  g_autoptr(EmbersProfile) p = embers_test_profile_from_lines (tree);
  g_autoptr(EmbersSearch) s = search (p, "foo", EMBERS_SEARCH_DEFAULT);
  g_autofree char *summary = NULL;

  g_assert_true (embers_search_is_active (s));
  /* foo (twice on main;foo;foo, once under qux), Foo, FOO_BAR */
  g_assert_cmpuint (embers_search_get_n_matches (s), ==, 5);
  g_assert_cmpuint (embers_search_get_n_names (s), ==, 3);
  g_assert_true (embers_search_node_matches (s, find_path (p, "main;foo")));
  g_assert_true (embers_search_node_matches (s, find_path (p, "main;foo;foo")));
  g_assert_true (embers_search_node_matches (s, find_path (p, "main;Foo")));
  g_assert_true (embers_search_node_matches (s, find_path (p, "other;FOO_BAR")));
  g_assert_false (embers_search_node_matches (s, find_path (p, "main")));
  g_assert_false (embers_search_node_matches (s, find_path (p, "main;foo;bar")));
  g_assert_false (embers_search_node_matches (s, 0));

  /* main;foo 20 (its nested foo not again) + Foo 10 + qux;foo 20 + FOO_BAR 20 */
  g_assert_cmpint (embers_search_get_matched_total (s, 0), ==, 70);
  g_assert_cmpfloat_with_epsilon (embers_search_get_matched_fraction (s, 0), 0.70, 1e-12);

  summary = embers_search_summary (s, 0);
  g_assert_cmpstr (summary, ==, "5 matching frames, 70.00% of total");
}

static void
test_case_sensitive (void)
{
  g_autoptr(EmbersProfile) p = embers_test_profile_from_lines (tree);
  g_autoptr(EmbersSearch) s = search (p, "foo", EMBERS_SEARCH_CASE_SENSITIVE);
  g_autoptr(EmbersSearch) upper = search (p, "FOO", EMBERS_SEARCH_CASE_SENSITIVE);

  g_assert_cmpuint (embers_search_get_n_matches (s), ==, 3);
  g_assert_cmpuint (embers_search_get_n_names (s), ==, 1);
  g_assert_false (embers_search_node_matches (s, find_path (p, "main;Foo")));
  g_assert_cmpint (embers_search_get_matched_total (s, 0), ==, 40);

  g_assert_cmpuint (embers_search_get_n_matches (upper), ==, 1);
  g_assert_cmpint (embers_search_get_matched_total (upper, 0), ==, 20);
}

static void
test_regex (void)
{
  g_autoptr(EmbersProfile) p = embers_test_profile_from_lines (tree);
  g_autoptr(EmbersSearch) exact = search (p, "^foo$", EMBERS_SEARCH_REGEX);
  g_autoptr(EmbersSearch) exact_cs = search (p, "^foo$", EMBERS_SEARCH_REGEX | EMBERS_SEARCH_CASE_SENSITIVE);
  g_autoptr(EmbersSearch) alt = search (p, "^(bar|baz)$", EMBERS_SEARCH_REGEX);
  g_autoptr(EmbersSearch) plain_dot = search (p, "f.o", EMBERS_SEARCH_DEFAULT);
  g_autoptr(EmbersSearch) regex_dot = search (p, "f.o", EMBERS_SEARCH_REGEX);
  GError *error = NULL;
  EmbersSearch *bad;

  /* Caseless regex: foo x3 and Foo, not FOO_BAR */
  g_assert_cmpuint (embers_search_get_n_matches (exact), ==, 4);
  g_assert_cmpint (embers_search_get_matched_total (exact, 0), ==, 50);
  g_assert_cmpuint (embers_search_get_n_matches (exact_cs), ==, 3);

  g_assert_cmpuint (embers_search_get_n_matches (alt), ==, 2);
  g_assert_cmpint (embers_search_get_matched_total (alt, 0), ==, 15);

  /* A plain search takes "." literally */
  g_assert_cmpuint (embers_search_get_n_matches (plain_dot), ==, 0);
  g_assert_cmpuint (embers_search_get_n_matches (regex_dot), ==, 5);

  bad = embers_search_new (p, "(unclosed", EMBERS_SEARCH_REGEX, &error);
  g_assert_null (bad);
  g_assert_nonnull (error);
  g_assert_true (error->domain == G_REGEX_ERROR);
  g_clear_error (&error);

  /* The same text as a plain search is fine */
  bad = embers_search_new (p, "(unclosed", EMBERS_SEARCH_DEFAULT, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (embers_search_get_n_matches (bad), ==, 0);
  embers_search_unref (bad);
}

static void
test_nested_not_double_counted (void)
{
  /* Pure recursion: a;a;a 10, a 5 -> a matches three times, total once */
  g_autoptr(EmbersProfile) p = embers_test_profile_from_lines ("a;a;a 10\na 5\nb;a 5\n");
  g_autoptr(EmbersSearch) s = search (p, "a", EMBERS_SEARCH_DEFAULT);

  g_assert_cmpuint (embers_search_get_n_matches (s), ==, 4);
  g_assert_cmpint (embers_search_get_matched_total (s, 0), ==, 20);
  g_assert_cmpfloat_with_epsilon (embers_search_get_matched_fraction (s, 0), 1.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (embers_search_get_focus_fraction (s, 0, find_path (p, "b")), 1.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (embers_search_get_focus_fraction (s, 0, find_path (p, "a;a")), 1.0, 1e-12);
}

static void
test_focus_fraction (void)
{
  g_autoptr(EmbersProfile) p = embers_test_profile_from_lines (tree);
  g_autoptr(EmbersSearch) s = search (p, "baz", EMBERS_SEARCH_DEFAULT);
  g_autoptr(EmbersSearch) none = search (p, "nothing", EMBERS_SEARCH_DEFAULT);
  g_autofree char *summary = NULL;

  /* baz 5 in main;foo (20) */
  g_assert_cmpfloat_with_epsilon (embers_search_get_focus_fraction (s, 0, find_path (p, "main;foo")), 0.25, 1e-12);
  g_assert_cmpfloat_with_epsilon (embers_search_get_focus_fraction (s, 0, find_path (p, "main")), 5.0 / 80, 1e-12);
  g_assert_cmpfloat_with_epsilon (embers_search_get_focus_fraction (s, 0, EMBERS_NODE_NONE), 0.05, 1e-12);
  g_assert_cmpfloat (embers_search_get_focus_fraction (s, 0, find_path (p, "other")), ==, 0);

  g_assert_cmpuint (embers_search_get_n_matches (none), ==, 0);
  g_assert_cmpint (embers_search_get_matched_total (none, 0), ==, 0);
  summary = embers_search_summary (none, 0);
  g_assert_cmpstr (summary, ==, "No matches");
}

static void
test_range (void)
{
  g_autoptr(EmbersProfile) p = embers_test_profile_from_lines (tree);
  g_autoptr(EmbersSearch) s = search (p, "baz", EMBERS_SEARCH_DEFAULT);
  guint32 foo = find_path (p, "main;foo");
  guint32 qux = find_path (p, "main;qux");

  g_assert_true (embers_search_range_has_match (s, foo, embers_profile_node_end (p, foo)));
  g_assert_false (embers_search_range_has_match (s, qux, embers_profile_node_end (p, qux)));
  g_assert_false (embers_search_range_has_match (s, foo, foo));
  g_assert_true (embers_search_range_has_match (s, 0, 100000));
}

static void
test_next_previous (void)
{
  g_autoptr(EmbersProfile) p = embers_test_profile_from_lines (tree);
  g_autoptr(EmbersSearch) s = search (p, "foo", EMBERS_SEARCH_CASE_SENSITIVE);
  g_autoptr(EmbersSearch) none = search (p, "zzz", EMBERS_SEARCH_DEFAULT);
  guint32 f1 = find_path (p, "main;foo");
  guint32 f2 = find_path (p, "main;foo;foo");
  guint32 f3 = find_path (p, "main;qux;foo");

  /* DFS order: main;foo < main;foo;foo < main;qux;foo */
  g_assert_cmpuint (f1, <, f2);
  g_assert_cmpuint (f2, <, f3);

  g_assert_cmpuint (embers_search_next (s, 0, EMBERS_NODE_NONE), ==, f1);
  g_assert_cmpuint (embers_search_next (s, 0, f1), ==, f2);
  g_assert_cmpuint (embers_search_next (s, 0, f2), ==, f3);
  g_assert_cmpuint (embers_search_next (s, 0, f3), ==, f1);   /* wraps */
  g_assert_cmpuint (embers_search_next (s, 0, 0), ==, f1);

  g_assert_cmpuint (embers_search_previous (s, 0, EMBERS_NODE_NONE), ==, f3);
  g_assert_cmpuint (embers_search_previous (s, 0, f3), ==, f2);
  g_assert_cmpuint (embers_search_previous (s, 0, f2), ==, f1);
  g_assert_cmpuint (embers_search_previous (s, 0, f1), ==, f3);   /* wraps */

  g_assert_cmpuint (embers_search_next (none, 0, EMBERS_NODE_NONE), ==, EMBERS_NODE_NONE);
  g_assert_cmpuint (embers_search_previous (none, 0, 3), ==, EMBERS_NODE_NONE);
}

static void
test_next_skips_zero (void)
{
  g_autoptr(EmbersProfileBuilder) b = embers_profile_builder_new ();
  g_autoptr(EmbersProfile) p = NULL;
  g_autoptr(EmbersSearch) s = NULL;
  guint32 ids[2];
  gint64 v1[2] = { 5, 0 }, v2[2] = { 5, 7 };
  guint32 hot, cold;

  embers_profile_builder_add_sample_type (b, "cpu", "nanoseconds");
  embers_profile_builder_add_sample_type (b, "alloc", "bytes");
  ids[0] = embers_profile_builder_intern (b, "a", -1);
  ids[1] = embers_profile_builder_intern (b, "target", -1);
  embers_profile_builder_add_stack (b, ids, 2, v1, 0);
  ids[0] = embers_profile_builder_intern (b, "b", -1);
  embers_profile_builder_add_stack (b, ids, 2, v2, 0);
  p = embers_profile_builder_finish (b, NULL);
  s = search (p, "target", EMBERS_SEARCH_DEFAULT);
  cold = find_path (p, "a;target");
  hot = find_path (p, "b;target");

  g_assert_cmpuint (embers_search_next (s, 0, EMBERS_NODE_NONE), ==, cold);
  g_assert_cmpuint (embers_search_next (s, 1, EMBERS_NODE_NONE), ==, hot);
  g_assert_cmpuint (embers_search_next (s, 1, hot), ==, hot);
  g_assert_cmpuint (embers_search_previous (s, 1, hot), ==, hot);
  g_assert_cmpint (embers_search_get_matched_total (s, 1), ==, 7);
}

static void
test_empty_pattern (void)
{
  g_autoptr(EmbersProfile) p = embers_test_profile_from_lines (tree);
  g_autoptr(EmbersSearch) s = search (p, "", EMBERS_SEARCH_REGEX);
  g_autoptr(EmbersSearch) n = search (p, NULL, EMBERS_SEARCH_DEFAULT);

  g_assert_false (embers_search_is_active (s));
  g_assert_false (embers_search_is_active (n));
  g_assert_cmpuint (embers_search_get_n_matches (s), ==, 0);
  g_assert_cmpstr (embers_search_get_pattern (n), ==, "");
  g_assert_true (embers_search_get_profile (s) == p);
}

static void
test_unicode_caseless (void)
{
  g_autoptr(EmbersProfile) p = embers_test_profile_from_lines ("Ärger;x 3\närger 2\nplain 5\n");
  g_autoptr(EmbersSearch) s = search (p, "ärg", EMBERS_SEARCH_DEFAULT);
  g_autoptr(EmbersSearch) cs = search (p, "ärg", EMBERS_SEARCH_CASE_SENSITIVE);

  g_assert_cmpuint (embers_search_get_n_matches (s), ==, 2);
  g_assert_cmpint (embers_search_get_matched_total (s, 0), ==, 5);
  g_assert_cmpuint (embers_search_get_n_matches (cs), ==, 1);
}

static void
test_diff (void)
{
  /* Baseline 100: main;foo 40 (of which main;foo;bar 10), main;old;foo 20,
   * main 40. Comparison 200: main;foo 120, main;new;foo 30, main 50 */
  g_autoptr(EmbersProfile) base = embers_test_profile_from_lines ("main;foo;bar 10\nmain;foo 30\nmain;old;foo 20\nmain 40\n");
  g_autoptr(EmbersProfile) comp = embers_test_profile_from_lines ("main;foo 120\nmain;new;foo 30\nmain 50\n");
  g_autoptr(EmbersProfile) d = NULL;
  g_autoptr(EmbersSearch) s = NULL;
  g_autofree char *summary = NULL;
  GError *error = NULL;
  guint32 f1, f_new, f_old, bar;

  d = embers_diff_profiles (base, 0, comp, 0, &error);
  g_assert_no_error (error);
  s = search (d, "foo", EMBERS_SEARCH_DEFAULT);
  f1 = find_path (d, "main;foo");
  f_new = find_path (d, "main;new;foo");
  f_old = find_path (d, "main;old;foo");
  bar = find_path (d, "main;foo;bar");
  g_assert_cmpuint (f1, <, f_new);
  g_assert_cmpuint (f_new, <, f_old);

  g_assert_cmpuint (embers_search_get_n_matches (s), ==, 3);
  g_assert_true (embers_search_node_matches (s, f_new));
  g_assert_false (embers_search_node_matches (s, bar));

  /* Matched totals per side */
  g_assert_cmpint (embers_search_get_matched_total (s, EMBERS_DIFF_BASELINE), ==, 60);
  g_assert_cmpint (embers_search_get_matched_total (s, EMBERS_DIFF_COMPARISON), ==, 150);
  g_assert_cmpfloat_with_epsilon (embers_search_get_matched_fraction (s, EMBERS_DIFF_BASELINE), 0.6, 1e-12);
  g_assert_cmpfloat_with_epsilon (embers_search_get_matched_fraction (s, EMBERS_DIFF_COMPARISON), 0.75, 1e-12);
  summary = embers_search_summary (s, EMBERS_DIFF_COMPARISON);
  g_assert_cmpstr (summary, ==, "3 matching frames, 60.00% of baseline, 75.00% of comparison");

  /* Next / previous visit the frames of both sides: the new one (zero in
   * the baseline) and the removed one (zero in the comparison), whichever
   * column is passed */
  for (guint type = 0; type < 2; type++)
    {
      g_assert_cmpuint (embers_search_next (s, type, EMBERS_NODE_NONE), ==, f1);
      g_assert_cmpuint (embers_search_next (s, type, f1), ==, f_new);
      g_assert_cmpuint (embers_search_next (s, type, f_new), ==, f_old);
      g_assert_cmpuint (embers_search_next (s, type, f_old), ==, f1);
      g_assert_cmpuint (embers_search_previous (s, type, f1), ==, f_old);
      g_assert_cmpuint (embers_search_previous (s, type, f_old), ==, f_new);
    }

  /* Match ranges for merged blocks */
  g_assert_true (embers_search_range_has_match (s, f_new, embers_profile_node_end (d, f_new)));
  g_assert_false (embers_search_range_has_match (s, bar, bar + 1));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/embers/search/plain-caseless", test_plain_caseless);
  g_test_add_func ("/embers/search/case-sensitive", test_case_sensitive);
  g_test_add_func ("/embers/search/regex", test_regex);
  g_test_add_func ("/embers/search/nested-not-double-counted", test_nested_not_double_counted);
  g_test_add_func ("/embers/search/focus-fraction", test_focus_fraction);
  g_test_add_func ("/embers/search/range", test_range);
  g_test_add_func ("/embers/search/next-previous", test_next_previous);
  g_test_add_func ("/embers/search/next-skips-zero", test_next_skips_zero);
  g_test_add_func ("/embers/search/empty-pattern", test_empty_pattern);
  g_test_add_func ("/embers/search/unicode-caseless", test_unicode_caseless);
  g_test_add_func ("/embers/search/diff", test_diff);

  return g_test_run ();
}
