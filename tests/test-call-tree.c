/* test-call-tree.c: the call tree's rows, order, heaviest path, inverted
 * children and lazy lists
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "embers-call-tree.h"
#include "embers-diff.h"
#include "embers-layout.h"
#include "embers-profile-builder.h"
#include "embers-transforms.h"
#include "embers-test-utils.h"

/* total 100 */
static const char *tree_text =
  "main;foo;bar 10\n"
  "main;foo;foo;baz 5\n"
  "main;foo 5\n"
  "main;alpha 10\n"
  "main;qux;foo 20\n"
  "main 30\n"
  "other;bar 20\n";

static EmbersCallTreeList *
children (EmbersCallTreeRow *row)
{
  GListModel *model = embers_call_tree_row_create_children (row);

  g_assert_nonnull (model);
  embers_call_tree_list_load_sync (EMBERS_CALL_TREE_LIST (model));
  return EMBERS_CALL_TREE_LIST (model);
}

static EmbersCallTreeRow *
root_row (EmbersCallTree *tree,
          GListModel    **roots)
{
  *roots = embers_call_tree_create_roots (tree);
  g_assert_cmpuint (g_list_model_get_n_items (*roots), ==, 1);
  return embers_call_tree_list_get_row (EMBERS_CALL_TREE_LIST (*roots), 0);
}

/* "name total self; ..." of a list */
static char *
describe (EmbersCallTreeList *list)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (list)); i++)
    {
      EmbersCallTreeRow *row = embers_call_tree_list_get_row (list, i);

      g_string_append_printf (s, "%s%s %" G_GINT64_FORMAT " %" G_GINT64_FORMAT, i ? "; " : "",
                              embers_call_tree_row_get_name (row),
                              embers_call_tree_row_get_total (row),
                              embers_call_tree_row_get_self (row));
    }
  return g_string_free (s, FALSE);
}

static void
test_top_down (void)
{
  g_autoptr(EmbersProfile) p = embers_test_profile_from_lines (tree_text);
  g_autoptr(EmbersCallTree) tree = embers_call_tree_new (p, 0, FALSE);
  g_autoptr(GListModel) roots = NULL;
  g_autoptr(EmbersCallTreeList) top = NULL;
  g_autoptr(EmbersCallTreeList) below_main = NULL;
  g_autoptr(EmbersCallTreeList) below_foo = NULL;
  g_autofree char *top_text = NULL;
  g_autofree char *main_text = NULL;
  g_autofree char *foo_text = NULL;
  EmbersCallTreeRow *root = root_row (tree, &roots);
  EmbersCallTreeRow *main_row, *foo_row, *bar_row;
  g_autoptr(GListModel) leaf = NULL;

  g_assert_cmpstr (embers_call_tree_row_get_name (root), ==, "total");
  g_assert_cmpint (embers_call_tree_row_get_total (root), ==, 100);
  g_assert_cmpint (embers_call_tree_get_total (tree), ==, 100);
  g_assert_cmpuint (embers_call_tree_row_get_node (root), ==, 0);
  g_assert_cmpuint (embers_call_tree_row_get_depth (root), ==, 0);

  top = children (root);
  top_text = describe (top);
  g_assert_cmpstr (top_text, ==, "main 80 30; other 20 0");

  main_row = embers_call_tree_list_get_row (top, 0);
  g_assert_cmpuint (embers_call_tree_row_get_depth (main_row), ==, 1);
  g_assert_true (embers_call_tree_row_get_parent (main_row) == root);
  below_main = children (main_row);
  main_text = describe (below_main);
  /* Heaviest first; equal totals in name order */
  g_assert_cmpstr (main_text, ==, "foo 20 5; qux 20 0; alpha 10 10");

  foo_row = embers_call_tree_list_get_row (below_main, 0);
  g_assert_cmpuint (embers_call_tree_list_find_node (below_main, embers_call_tree_row_get_node (foo_row)), ==, 0);
  g_assert_cmpuint (embers_call_tree_list_find_name (below_main, embers_call_tree_row_get_name_id (foo_row)), ==, 0);
  below_foo = children (foo_row);
  foo_text = describe (below_foo);
  g_assert_cmpstr (foo_text, ==, "bar 10 10; foo 5 0");

  /* A leaf has no list at all */
  bar_row = embers_call_tree_list_get_row (below_foo, 0);
  g_assert_false (embers_call_tree_row_has_children (bar_row));
  leaf = embers_call_tree_row_create_children (bar_row);
  g_assert_null (leaf);
  g_assert_cmpuint (embers_call_tree_row_get_depth (bar_row), ==, 3);
}

static void
test_heaviest_path (void)
{
  g_autoptr(EmbersProfile) p = embers_test_profile_from_lines (tree_text);
  guint32 path[16];
  guint n = embers_call_tree_heaviest_path (p, 0, 0, path, G_N_ELEMENTS (path));
  g_autoptr(GString) names = g_string_new (NULL);

  for (guint i = 0; i < n; i++)
    g_string_append_printf (names, "%s%s", i ? ";" : "", embers_profile_node_name_str (p, path[i]));
  /* main (80) > other; foo and qux tie at 20: the first in name order,
   * as the tree lists them; then bar (10) over foo (5) */
  g_assert_cmpstr (names->str, ==, "main;foo;bar");

  /* A leaf has none */
  g_assert_cmpuint (embers_call_tree_heaviest_child (p, 0, path[n - 1]), ==, EMBERS_NODE_NONE);
  /* The limit holds */
  g_assert_cmpuint (embers_call_tree_heaviest_path (p, 0, 0, path, 2), ==, 2);
}

/* Every row of the inverted tree, fully expanded, equals the node at the
 * same path in embers_transform_invert()'s profile */
static void
compare_inverted (EmbersProfile     *inverted,
                  guint32            node,
                  EmbersCallTreeRow *row,
                  guint             *n_rows)
{
  g_autoptr(GListModel) kids = embers_call_tree_row_create_children (row);
  guint n_kids = 0;
  gint64 sum = 0;

  (*n_rows)++;
  g_assert_cmpstr (embers_call_tree_row_get_name (row), ==, embers_profile_node_name_str (inverted, node));
  g_assert_cmpint (embers_call_tree_row_get_total (row), ==, embers_profile_node_total (inverted, 0, node));
  if (node != 0)
    g_assert_cmpint (embers_call_tree_row_get_self (row), ==, embers_profile_node_self (inverted, 0, node));

  for (guint32 c = node + 1; c < embers_profile_node_end (inverted, node); c = embers_profile_node_end (inverted, c))
    if (embers_profile_node_total (inverted, 0, c) > 0)
      n_kids++;
  if (kids == NULL)
    {
      g_assert_cmpuint (n_kids, ==, 0);
      return;
    }
  embers_call_tree_list_load_sync (EMBERS_CALL_TREE_LIST (kids));
  g_assert_cmpuint (g_list_model_get_n_items (kids), ==, n_kids);

  for (guint i = 0; i < n_kids; i++)
    {
      EmbersCallTreeRow *kid = embers_call_tree_list_get_row (EMBERS_CALL_TREE_LIST (kids), i);
      guint32 found = EMBERS_NODE_NONE;

      g_assert_cmpuint (embers_call_tree_row_get_node (kid), ==, EMBERS_NODE_NONE);
      if (i > 0)
        g_assert_cmpint (embers_call_tree_row_get_total (kid), <=,
                         embers_call_tree_row_get_total (embers_call_tree_list_get_row (EMBERS_CALL_TREE_LIST (kids), i - 1)));
      for (guint32 c = node + 1; c < embers_profile_node_end (inverted, node); c = embers_profile_node_end (inverted, c))
        if (g_str_equal (embers_profile_node_name_str (inverted, c), embers_call_tree_row_get_name (kid)))
          found = c;
      g_assert_cmpuint (found, !=, EMBERS_NODE_NONE);
      sum += embers_call_tree_row_get_total (kid);
      compare_inverted (inverted, found, kid, n_rows);
    }
  /* Children and self make up the total */
  if (node != 0)
    g_assert_cmpint (sum + embers_call_tree_row_get_self (row), ==, embers_call_tree_row_get_total (row));
}

static void
test_inverted (void)
{
  g_autoptr(EmbersProfile) p = embers_test_profile_from_lines (tree_text);
  g_autoptr(EmbersProfile) oracle = embers_transform_invert (p, NULL);
  g_autoptr(EmbersCallTree) tree = embers_call_tree_new (p, 0, TRUE);
  g_autoptr(GListModel) roots = NULL;
  g_autoptr(EmbersCallTreeList) top = NULL;
  g_autofree char *top_text = NULL;
  EmbersCallTreeRow *root = root_row (tree, &roots);
  guint n_rows = 0;

  g_assert_true (embers_call_tree_get_inverted (tree));
  top = children (root);
  top_text = describe (top);
  /* The functions with self time, by it (bar 10 + 20; its stacks all have callers, so no self) */
  g_assert_cmpstr (top_text, ==, "bar 30 0; main 30 30; foo 25 0; alpha 10 0; baz 5 0");
  g_assert_cmpuint (embers_call_tree_row_get_node (embers_call_tree_list_get_row (top, 0)), ==, EMBERS_NODE_NONE);

  compare_inverted (oracle, 0, root, &n_rows);
  g_assert_cmpuint (n_rows, >, 10);
}

/* A larger profile with recursion, against the invert transform */
static void
test_inverted_recursive (void)
{
  g_autoptr(EmbersProfile) p = embers_test_profile_from_lines (
    "a;b;a;b;c 7\n"
    "a;b;a 3\n"
    "a;c;a;c 4\n"
    "b;a;b 2\n"
    "c 1\n"
    "a;b;a;b;c;a 6\n");
  g_autoptr(EmbersProfile) oracle = embers_transform_invert (p, NULL);
  g_autoptr(EmbersCallTree) tree = embers_call_tree_new (p, 0, TRUE);
  g_autoptr(GListModel) roots = NULL;
  EmbersCallTreeRow *root = root_row (tree, &roots);
  guint n_rows = 0;

  compare_inverted (oracle, 0, root, &n_rows);
  g_assert_cmpuint (n_rows, ==, embers_profile_get_n_nodes (oracle));
}

static void
on_items_changed (GListModel *model,
                  guint       position,
                  guint       removed,
                  guint       added,
                  guint      *n_added)
{
  /* Appended in order, never more than a chunk at a time */
  g_assert_cmpuint (position, ==, *n_added);
  g_assert_cmpuint (removed, ==, 0);
  g_assert_cmpuint (added, <=, EMBERS_CALL_TREE_CHUNK);
  *n_added += added;
}

/* A row with many children computes them on a thread: the list is empty
 * and not ready until it says so, then holds them all, in order */
static void
test_lazy_big (gconstpointer data)
{
  gboolean inverted = GPOINTER_TO_INT (data);
  g_autoptr(EmbersProfileBuilder) b = embers_profile_builder_new ();
  g_autoptr(EmbersProfile) p = NULL;
  g_autoptr(EmbersCallTree) tree = NULL;
  g_autoptr(GListModel) roots = NULL;
  g_autoptr(GListModel) kids = NULL;
  g_autoptr(EmbersCallTreeList) below_main = NULL;
  EmbersCallTreeRow *root;
  guint n = EMBERS_CALL_TREE_SYNC_LIMIT * 3;
  guint n_added = 0;
  GError *error = NULL;

  embers_profile_builder_add_sample_type (b, "samples", "count");
  for (guint i = 0; i < n; i++)
    {
      char name[32];
      guint32 ids[2];
      gint64 value = 1 + i % 97;

      g_snprintf (name, sizeof name, "f%05u", i);
      ids[0] = embers_profile_builder_intern (b, "main", -1);
      ids[1] = embers_profile_builder_intern (b, name, -1);
      embers_profile_builder_add_stack (b, ids, 2, &value, 0);
    }
  p = embers_profile_builder_finish (b, &error);
  g_assert_no_error (error);
  tree = embers_call_tree_new (p, 0, inverted);
  root = root_row (tree, &roots);

  kids = embers_call_tree_row_create_children (root);
  if (!inverted)
    {
      /* total has one child, main: small */
      g_assert_cmpuint (g_list_model_get_n_items (kids), ==, 1);
      below_main = EMBERS_CALL_TREE_LIST (embers_call_tree_row_create_children (
        embers_call_tree_list_get_row (EMBERS_CALL_TREE_LIST (kids), 0)));
    }
  else
    {
      below_main = EMBERS_CALL_TREE_LIST (g_object_ref (kids));
    }

  g_signal_connect (below_main, "items-changed", G_CALLBACK (on_items_changed), &n_added);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (below_main)), ==, 0);
  g_assert_false (embers_call_tree_list_is_ready (below_main));
  while (!embers_call_tree_list_is_ready (below_main))
    g_main_context_iteration (NULL, TRUE);
  /* The heaviest chunk first, the rest a chunk per idle */
  g_assert_cmpuint (embers_call_tree_list_get_n_rows (below_main), ==, n);
  g_assert_cmpuint (n_added, >=, EMBERS_CALL_TREE_CHUNK);
  g_assert_cmpuint (n_added, <, n);
  while (g_list_model_get_n_items (G_LIST_MODEL (below_main)) < n)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (n_added, ==, n);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (below_main)), ==, n);
  for (guint i = 1; i < n; i++)
    g_assert_cmpint (embers_call_tree_row_get_total (embers_call_tree_list_get_row (below_main, i - 1)), >=,
                     embers_call_tree_row_get_total (embers_call_tree_list_get_row (below_main, i)));
  g_assert_cmpint (embers_call_tree_row_get_total (embers_call_tree_list_get_row (below_main, 0)), ==, 97);

  /* After a layout noted main's children, the list reads them instead */
  if (!inverted)
    {
      g_autoptr(GListModel) again = NULL;
      EmbersCallTreeRow *main_row = embers_call_tree_list_get_row (EMBERS_CALL_TREE_LIST (kids), 0);

      embers_layout_prepare (p, 0);
      again = embers_call_tree_row_create_children (main_row);
      embers_call_tree_list_load_sync (EMBERS_CALL_TREE_LIST (again));
      g_assert_cmpuint (g_list_model_get_n_items (again), ==, n);
      g_assert_cmpuint (embers_call_tree_heaviest_child (p, 0, embers_call_tree_row_get_node (main_row)), ==,
                        embers_call_tree_row_get_node (embers_call_tree_list_get_row (EMBERS_CALL_TREE_LIST (again), 0)));
    }
}

/* "name baseline comparison; ..." of a diff tree's list */
static char *
describe_diff (EmbersCallTreeList *list)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (list)); i++)
    {
      EmbersCallTreeRow *row = embers_call_tree_list_get_row (list, i);

      g_string_append_printf (s, "%s%s %" G_GINT64_FORMAT " %" G_GINT64_FORMAT, i ? "; " : "",
                              embers_call_tree_row_get_name (row),
                              embers_call_tree_row_get_baseline_total (row),
                              embers_call_tree_row_get_total (row));
    }
  return g_string_free (s, FALSE);
}

/* A comparison's tree: both sides' values, rows on one side only kept,
 * heaviest by both sides, top-down and inverted */
static void
test_diff (void)
{
  g_autoptr(EmbersProfile) base = embers_test_profile_from_lines ("main;foo 30\nmain;bar 10\nmain 10\n");
  g_autoptr(EmbersProfile) comp = embers_test_profile_from_lines ("main;foo 30\nmain;baz 20\nmain 10\n");
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersProfile) diff = embers_diff_profiles (base, 0, comp, 0, &error);
  g_autoptr(EmbersCallTree) tree = NULL;
  g_autoptr(EmbersCallTree) inverted = NULL;
  g_autoptr(GListModel) roots = NULL;
  g_autoptr(GListModel) inverted_roots = NULL;
  g_autoptr(EmbersCallTreeList) top = NULL;
  g_autoptr(EmbersCallTreeList) below_main = NULL;
  g_autoptr(EmbersCallTreeList) functions = NULL;
  g_autofree char *text = NULL;
  g_autofree char *inverted_text = NULL;
  EmbersCallTreeRow *root, *row;
  EmbersDiffKind kind;

  g_assert_no_error (error);
  tree = embers_call_tree_new (diff, EMBERS_DIFF_BASELINE, FALSE);
  g_assert_true (embers_call_tree_is_diff (tree));
  /* The comparison's column, whatever was asked */
  g_assert_cmpuint (embers_call_tree_get_sample_type (tree), ==, EMBERS_DIFF_COMPARISON);
  g_assert_cmpint (embers_call_tree_get_total (tree), ==, 60);
  g_assert_cmpint (embers_call_tree_get_baseline_total (tree), ==, 50);
  root = root_row (tree, &roots);
  g_assert_cmpint (embers_call_tree_row_get_baseline_total (root), ==, 50);
  g_assert_cmpint (embers_call_tree_row_get_total (root), ==, 60);

  top = children (root);
  below_main = children (embers_call_tree_list_get_row (top, 0));
  text = describe_diff (below_main);
  /* bar only in the baseline, baz only in the comparison: both kept */
  g_assert_cmpstr (text, ==, "foo 30 30; baz 0 20; bar 10 0");
  row = embers_call_tree_list_get_row (below_main, 0);
  /* 30 of 50 to 30 of 60: the share fell by a sixth */
  g_assert_cmpfloat_with_epsilon (embers_call_tree_row_get_change (row, &kind), -100.0 / 6, 1e-9);
  g_assert_cmpint (kind, ==, EMBERS_DIFF_KIND_CHANGED);
  embers_call_tree_row_get_change (embers_call_tree_list_get_row (below_main, 1), &kind);
  g_assert_cmpint (kind, ==, EMBERS_DIFF_KIND_NEW);
  embers_call_tree_row_get_change (embers_call_tree_list_get_row (below_main, 2), &kind);
  g_assert_cmpint (kind, ==, EMBERS_DIFF_KIND_REMOVED);
  g_assert_cmpint (embers_call_tree_row_get_baseline_self (embers_call_tree_list_get_row (below_main, 2)), ==, 10);

  /* Inverted: the functions with self time on either side */
  inverted = embers_call_tree_new (diff, 0, TRUE);
  functions = children (root_row (inverted, &inverted_roots));
  inverted_text = describe_diff (functions);
  g_assert_cmpstr (inverted_text, ==, "foo 30 30; baz 0 20; main 10 10; bar 10 0");
}

/* Sorted by a column at every level, then heaviest first; the heaviest
 * row is found in any order */
static void
test_sort (void)
{
  g_autoptr(EmbersProfile) p = embers_test_profile_from_lines (tree_text);
  g_autoptr(EmbersCallTree) by_name = embers_call_tree_new (p, 0, FALSE);
  g_autoptr(EmbersCallTree) by_self = embers_call_tree_new (p, 0, FALSE);
  g_autoptr(EmbersCallTree) by_total = embers_call_tree_new (p, 0, FALSE);
  g_autoptr(GListModel) roots1 = NULL, roots2 = NULL, roots3 = NULL;
  g_autoptr(EmbersCallTreeList) top1 = NULL, top2 = NULL, top3 = NULL;
  g_autoptr(EmbersCallTreeList) main1 = NULL, main2 = NULL, main3 = NULL;
  g_autofree char *text1 = NULL, *text2 = NULL, *text3 = NULL;
  gboolean descending = TRUE;

  embers_call_tree_set_sort (by_name, EMBERS_CALL_TREE_SORT_NAME, FALSE);
  g_assert_cmpint (embers_call_tree_get_sort (by_name, &descending), ==, EMBERS_CALL_TREE_SORT_NAME);
  g_assert_false (descending);
  top1 = children (root_row (by_name, &roots1));
  main1 = children (embers_call_tree_list_get_row (top1, 0));
  text1 = describe (main1);
  g_assert_cmpstr (text1, ==, "alpha 10 10; foo 20 5; qux 20 0");
  /* foo and qux tie at 20: the first of them */
  g_assert_cmpuint (embers_call_tree_list_find_heaviest (main1), ==, 1);

  embers_call_tree_set_sort (by_self, EMBERS_CALL_TREE_SORT_SELF, TRUE);
  top2 = children (root_row (by_self, &roots2));
  /* main (self 30) above other (0) */
  main2 = children (embers_call_tree_list_get_row (top2, 0));
  text2 = describe (main2);
  g_assert_cmpstr (text2, ==, "alpha 10 10; foo 20 5; qux 20 0");

  embers_call_tree_set_sort (by_total, EMBERS_CALL_TREE_SORT_TOTAL, FALSE);
  top3 = children (root_row (by_total, &roots3));
  g_assert_cmpstr (embers_call_tree_row_get_name (embers_call_tree_list_get_row (top3, 0)), ==, "other");
  main3 = children (embers_call_tree_list_get_row (top3, 1));
  text3 = describe (main3);
  g_assert_cmpstr (text3, ==, "alpha 10 10; foo 20 5; qux 20 0");
  g_assert_cmpuint (embers_call_tree_list_find_heaviest (main3), ==, 1);
}


int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/embers/call-tree/top-down", test_top_down);
  g_test_add_func ("/embers/call-tree/heaviest-path", test_heaviest_path);
  g_test_add_func ("/embers/call-tree/inverted", test_inverted);
  g_test_add_func ("/embers/call-tree/diff", test_diff);
  g_test_add_func ("/embers/call-tree/sort", test_sort);
  g_test_add_func ("/embers/call-tree/inverted-recursive", test_inverted_recursive);
  g_test_add_data_func ("/embers/call-tree/lazy-big", GINT_TO_POINTER (FALSE), test_lazy_big);
  g_test_add_data_func ("/embers/call-tree/lazy-big-inverted", GINT_TO_POINTER (TRUE), test_lazy_big);

  return g_test_run ();
}
