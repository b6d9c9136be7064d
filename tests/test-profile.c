/* test-profile.c: EmbersProfile and EmbersProfileBuilder
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "embers-profile-builder.h"
#include "embers-tree-build.h"

static void
add_folded (EmbersProfileBuilder *b,
            const char           *stack,
            gint64                value)
{
  g_auto(GStrv) frames = g_strsplit (stack, ";", -1);
  guint n = g_strv_length (frames);
  g_autofree guint32 *ids = g_new (guint32, n);

  for (guint i = 0; i < n; i++)
    ids[i] = embers_profile_builder_intern (b, frames[i], -1);
  embers_profile_builder_add_stack (b, ids, n, &value, 0);
}

static EmbersProfile *
build_example (void)
{
  g_autoptr(EmbersProfileBuilder) b = embers_profile_builder_new ();
  g_autoptr(GError) error = NULL;
  EmbersProfile *profile;

  embers_profile_builder_add_sample_type (b, "cpu", "nanoseconds");
  /* PYROSCOPE-API.md's example: main;a 3, main;b;c 2, main 1 */
  add_folded (b, "main;b;c", 2);
  add_folded (b, "main;a", 3);
  add_folded (b, "main", 1);
  profile = embers_profile_builder_finish (b, &error);
  g_assert_no_error (error);
  g_assert_nonnull (profile);

  return profile;
}

static void
test_profile_tree (void)
{
  g_autoptr(EmbersProfile) p = build_example ();
  static const char *names[] = { "total", "main", "a", "b", "c" };
  static const guint32 parents[] = { EMBERS_NODE_NONE, 0, 1, 1, 3 };
  static const guint32 ends[] = { 5, 5, 3, 5, 5 };
  static const gint64 self[] = { 0, 1, 3, 0, 2 };
  static const gint64 total[] = { 6, 6, 3, 2, 2 };
  static const guint depth[] = { 0, 1, 2, 2, 3 };

  g_assert_cmpuint (embers_profile_get_n_nodes (p), ==, 5);
  g_assert_cmpuint (embers_profile_get_n_sample_types (p), ==, 1);
  g_assert_cmpstr (embers_profile_get_sample_type (p, 0), ==, "cpu");
  g_assert_cmpstr (embers_profile_get_sample_unit (p, 0), ==, "nanoseconds");
  g_assert_cmpint (embers_profile_get_total (p, 0), ==, 6);
  g_assert_cmpuint (embers_profile_get_max_depth (p), ==, 3);

  for (guint i = 0; i < 5; i++)
    {
      g_assert_cmpstr (embers_profile_node_name_str (p, i), ==, names[i]);
      g_assert_cmpuint (embers_profile_node_parent (p, i), ==, parents[i]);
      g_assert_cmpuint (embers_profile_node_end (p, i), ==, ends[i]);
      g_assert_cmpint (embers_profile_node_self (p, 0, i), ==, self[i]);
      g_assert_cmpint (embers_profile_node_total (p, 0, i), ==, total[i]);
      g_assert_cmpuint (embers_profile_node_depth (p, i), ==, depth[i]);
    }

  {
    g_autofree char *stack = embers_profile_node_stack (p, 4, ";");
    g_autofree char *root = embers_profile_node_stack (p, 0, ";");

    g_assert_cmpstr (stack, ==, "main;b;c");
    g_assert_cmpstr (root, ==, "");
  }

  /* No labels: no samples kept */
  g_assert_cmpuint (embers_profile_get_n_samples (p), ==, 0);
  g_assert_cmpuint (embers_profile_get_memory_size (p), >, 0);
}

static void
test_profile_children_sorted (void)
{
  g_autoptr(EmbersProfileBuilder) b = embers_profile_builder_new ();
  g_autoptr(EmbersProfile) p = NULL;
  g_autoptr(GError) error = NULL;
  const char *order[] = { "zeta", "alpha", "Mid", "beta", "alpha" };

  for (guint i = 0; i < G_N_ELEMENTS (order); i++)
    {
      g_autofree char *stack = g_strdup_printf ("root;%s", order[i]);
      add_folded (b, stack, i + 1);
    }
  p = embers_profile_builder_finish (b, &error);
  g_assert_no_error (error);

  /* strcmp order: "Mid" < "alpha" < "beta" < "zeta" */
  g_assert_cmpuint (embers_profile_get_n_nodes (p), ==, 6);
  g_assert_cmpstr (embers_profile_node_name_str (p, 2), ==, "Mid");
  g_assert_cmpstr (embers_profile_node_name_str (p, 3), ==, "alpha");
  g_assert_cmpint (embers_profile_node_self (p, 0, 3), ==, 2 + 5);
  g_assert_cmpstr (embers_profile_node_name_str (p, 4), ==, "beta");
  g_assert_cmpstr (embers_profile_node_name_str (p, 5), ==, "zeta");
  g_assert_cmpint (embers_profile_get_total (p, 0), ==, 15);
}

static void
test_profile_multi_type_labels (void)
{
  g_autoptr(EmbersProfileBuilder) b = embers_profile_builder_new ();
  g_autoptr(EmbersProfile) p = NULL;
  g_autoptr(GError) error = NULL;
  guint32 f[2];
  gint64 v1[2] = { 1, 100 };
  gint64 v2[2] = { 2, 200 };
  EmbersLabel eu[2], us[1];
  guint32 set_eu, set_eu2, set_us;
  const EmbersLabel *labels;
  guint n_labels;

  embers_profile_builder_add_sample_type (b, "alloc_objects", "count");
  embers_profile_builder_add_sample_type (b, "alloc_space", "bytes");
  embers_profile_builder_set_default_sample_type (b, 1);
  embers_profile_builder_set_period (b, "space", "bytes", 524288);
  embers_profile_builder_set_time (b, 1700000000000000000, 10000000000);

  f[0] = embers_profile_builder_intern (b, "main", -1);
  f[1] = embers_profile_builder_intern (b, "alloc", -1);

  eu[0] = (EmbersLabel) { embers_profile_builder_intern (b, "region", -1), embers_profile_builder_intern (b, "eu", -1), 0, 0 };
  eu[1] = (EmbersLabel) { embers_profile_builder_intern (b, "bytes", -1), 0, 4096, embers_profile_builder_intern (b, "bytes", -1) };
  us[0] = (EmbersLabel) { eu[0].key, embers_profile_builder_intern (b, "us", -1), 0, 0 };

  set_eu = embers_profile_builder_add_label_set (b, eu, 2);
  /* Same set in another order is the same id */
  {
    EmbersLabel swapped[2] = { eu[1], eu[0] };
    set_eu2 = embers_profile_builder_add_label_set (b, swapped, 2);
  }
  set_us = embers_profile_builder_add_label_set (b, us, 1);
  g_assert_cmpuint (set_eu, ==, set_eu2);
  g_assert_cmpuint (set_eu, !=, set_us);
  g_assert_cmpuint (set_eu, !=, 0);
  g_assert_cmpuint (embers_profile_builder_add_label_set (b, NULL, 0), ==, 0);

  embers_profile_builder_add_stack (b, f, 2, v1, set_eu);
  embers_profile_builder_add_stack (b, f, 2, v2, set_eu);
  embers_profile_builder_add_stack (b, f, 2, v1, set_us);
  embers_profile_builder_add_stack (b, f, 1, v2, 0);

  p = embers_profile_builder_finish (b, &error);
  g_assert_no_error (error);

  g_assert_cmpuint (embers_profile_get_n_sample_types (p), ==, 2);
  g_assert_cmpuint (embers_profile_get_default_sample_type (p), ==, 1);
  g_assert_cmpint (embers_profile_find_sample_type (p, "alloc_space"), ==, 1);
  g_assert_cmpint (embers_profile_find_sample_type (p, "0"), ==, 0);
  g_assert_cmpint (embers_profile_find_sample_type (p, "nope"), ==, -1);
  g_assert_cmpstr (embers_profile_get_period_type (p), ==, "space");
  g_assert_cmpint (embers_profile_get_period (p), ==, 524288);
  g_assert_cmpint (embers_profile_get_time_nanos (p), ==, 1700000000000000000);
  g_assert_cmpint (embers_profile_get_duration_nanos (p), ==, 10000000000);

  g_assert_cmpint (embers_profile_get_total (p, 0), ==, 6);
  g_assert_cmpint (embers_profile_get_total (p, 1), ==, 600);

  /* Samples: (alloc, eu), (alloc, us), (main, none) */
  g_assert_cmpuint (embers_profile_get_n_samples (p), ==, 3);
  for (guint i = 0; i < 3; i++)
    {
      guint32 node = embers_profile_sample_node (p, i);
      guint32 set = embers_profile_sample_label_set (p, i);

      if (set == set_eu)
        {
          g_assert_cmpstr (embers_profile_node_name_str (p, node), ==, "alloc");
          g_assert_cmpint (embers_profile_sample_value (p, i, 0), ==, 3);
          g_assert_cmpint (embers_profile_sample_value (p, i, 1), ==, 300);
        }
      else if (set == set_us)
        g_assert_cmpint (embers_profile_sample_value (p, i, 1), ==, 100);
      else
        {
          g_assert_cmpuint (set, ==, 0);
          g_assert_cmpstr (embers_profile_node_name_str (p, node), ==, "main");
        }
    }

  labels = embers_profile_get_label_set (p, set_eu, &n_labels);
  g_assert_cmpuint (n_labels, ==, 2);
  for (guint i = 0; i < n_labels; i++)
    {
      const char *key = embers_profile_get_string (p, labels[i].key);

      if (g_str_equal (key, "region"))
        g_assert_cmpstr (embers_profile_get_string (p, labels[i].str), ==, "eu");
      else
        {
          g_assert_cmpstr (key, ==, "bytes");
          g_assert_cmpint (labels[i].num, ==, 4096);
          g_assert_cmpstr (embers_profile_get_string (p, labels[i].num_unit), ==, "bytes");
        }
    }
  labels = embers_profile_get_label_set (p, 0, &n_labels);
  g_assert_cmpuint (n_labels, ==, 0);
}

static void
test_profile_errors (void)
{
  g_autoptr(GError) error = NULL;

  /* Negative value */
  {
    g_autoptr(EmbersProfileBuilder) b = embers_profile_builder_new ();
    g_autoptr(EmbersProfile) p = NULL;
    guint32 id;
    gint64 v = -5;

    embers_profile_builder_add_sample_type (b, "samples", "count");
    id = embers_profile_builder_intern (b, "f", -1);
    embers_profile_builder_add_stack (b, &id, 1, &v, 0);
    p = embers_profile_builder_finish (b, &error);
    g_assert_null (p);
    g_assert_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_INVALID);
    g_assert_nonnull (strstr (error->message, "negative"));
    g_clear_error (&error);
  }

  /* Overflow */
  {
    g_autoptr(EmbersProfileBuilder) b = embers_profile_builder_new ();
    g_autoptr(EmbersProfile) p = NULL;
    guint32 ids[2];
    gint64 v = G_MAXINT64 - 1;

    embers_profile_builder_add_sample_type (b, "samples", "count");
    ids[0] = embers_profile_builder_intern (b, "f", -1);
    ids[1] = embers_profile_builder_intern (b, "g", -1);
    embers_profile_builder_add_stack (b, ids, 1, &v, 0);
    embers_profile_builder_add_stack (b, ids + 1, 1, &v, 0);
    p = embers_profile_builder_finish (b, &error);
    g_assert_null (p);
    g_assert_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_TOO_LARGE);
    g_clear_error (&error);
  }

  /* Too deep */
  {
    g_autoptr(EmbersProfileBuilder) b = embers_profile_builder_new ();
    g_autoptr(EmbersProfile) p = NULL;
    g_autofree guint32 *ids = g_new0 (guint32, EMBERS_PROFILE_MAX_DEPTH + 1);
    gint64 v = 1;

    embers_profile_builder_add_stack (b, ids, EMBERS_PROFILE_MAX_DEPTH + 1, &v, 0);
    g_assert_false (embers_profile_builder_check (b, &error));
    g_assert_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_TOO_LARGE);
    g_clear_error (&error);
    p = embers_profile_builder_finish (b, &error);
    g_assert_null (p);
    g_assert_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_TOO_LARGE);
    g_clear_error (&error);
  }
}

static void
test_profile_empty_and_tree_api (void)
{
  g_autoptr(EmbersProfileBuilder) b = embers_profile_builder_new ();
  g_autoptr(EmbersProfile) p = NULL;
  g_autoptr(GError) error = NULL;
  guint32 main_id, a_id, n_main, n_a;

  /* No sample type given: defaults to samples/count */
  main_id = embers_profile_builder_intern (b, "main", 4);
  a_id = embers_profile_builder_intern (b, "a\0ignored", 9);
  g_assert_cmpuint (a_id, ==, embers_profile_builder_intern (b, "a", -1));
  g_assert_cmpuint (embers_profile_builder_intern (b, "", 0), ==, 0);
  g_assert_cmpstr (embers_profile_builder_get_string (b, main_id), ==, "main");

  p = embers_profile_builder_finish (b, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (embers_profile_get_n_nodes (p), ==, 1);
  g_assert_cmpint (embers_profile_get_total (p, 0), ==, 0);
  g_assert_cmpstr (embers_profile_get_sample_type (p, 0), ==, "samples");
  g_clear_object (&p);

  /* Tree-shaped input */
  embers_profile_builder_free (g_steal_pointer (&b));
  b = embers_profile_builder_new ();
  embers_profile_builder_add_sample_type (b, "baseline", "count");
  embers_profile_builder_add_sample_type (b, "comparison", "count");
  embers_profile_builder_set_diff (b, TRUE);
  main_id = embers_profile_builder_intern (b, "main", -1);
  a_id = embers_profile_builder_intern (b, "a", -1);
  n_main = embers_profile_builder_get_child (b, 0, main_id);
  n_a = embers_profile_builder_get_child (b, n_main, a_id);
  g_assert_cmpuint (embers_profile_builder_get_child (b, 0, main_id), ==, n_main);
  embers_profile_builder_add_self (b, n_a, 0, 5);
  embers_profile_builder_add_self (b, n_a, 1, 7);
  embers_profile_builder_add_self (b, n_main, 1, 1);
  embers_profile_builder_set_name_location (b, main_id, embers_profile_builder_intern (b, "main.go", -1), 42);
  g_assert_cmpuint (embers_profile_builder_get_n_nodes (b), ==, 3);
  p = embers_profile_builder_finish (b, &error);
  g_assert_no_error (error);
  g_assert_true (embers_profile_is_diff (p));
  g_assert_cmpint (embers_profile_get_total (p, 0), ==, 5);
  g_assert_cmpint (embers_profile_get_total (p, 1), ==, 8);
  g_assert_cmpstr (embers_profile_get_string (p, embers_profile_get_name_file (p, embers_profile_node_name (p, 1))), ==, "main.go");
  g_assert_cmpint (embers_profile_get_name_line (p, embers_profile_node_name (p, 1)), ==, 42);
  g_assert_cmpint (embers_profile_get_name_line (p, embers_profile_node_name (p, 2)), ==, 0);
}

static void
test_profile_large_random (void)
{
  g_autoptr(EmbersProfileBuilder) b = embers_profile_builder_new ();
  g_autoptr(EmbersProfile) p = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GRand) rand = g_rand_new_with_seed (42);
  guint32 names[64];
  gint64 expected = 0;
  const guint32 *parents, *ends;
  const gint64 *self, *total;
  guint n;

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *name = g_strdup_printf ("fn%u", i);
      names[i] = embers_profile_builder_intern (b, name, -1);
    }

  for (guint s = 0; s < 20000; s++)
    {
      guint32 stack[32];
      guint depth = g_rand_int_range (rand, 1, 32);
      gint64 v = g_rand_int_range (rand, 1, 1000);

      for (guint d = 0; d < depth; d++)
        stack[d] = names[g_rand_int_range (rand, 0, 8 + d)];
      embers_profile_builder_add_stack (b, stack, depth, &v, 0);
      expected += v;
    }

  p = embers_profile_builder_finish (b, &error);
  g_assert_no_error (error);
  g_assert_cmpint (embers_profile_get_total (p, 0), ==, expected);

  /* Invariants: pre-order, parents before children, totals = self + children,
   * subtree ends nest, siblings sorted by name. */
  n = embers_profile_get_n_nodes (p);
  parents = embers_profile_get_parent_column (p);
  ends = embers_profile_get_end_column (p);
  self = embers_profile_get_self_column (p, 0);
  total = embers_profile_get_total_column (p, 0);
  g_assert_cmpuint (ends[0], ==, n);
  for (guint i = 0; i < n; i++)
    {
      gint64 sum = self[i];
      guint32 prev_child = EMBERS_NODE_NONE;

      for (guint c = i + 1; c < ends[i]; c = ends[c])
        {
          g_assert_cmpuint (parents[c], ==, i);
          g_assert_cmpuint (ends[c], <=, ends[i]);
          sum += total[c];
          if (prev_child != EMBERS_NODE_NONE)
            g_assert_cmpint (strcmp (embers_profile_node_name_str (p, prev_child),
                                     embers_profile_node_name_str (p, c)), <, 0);
          prev_child = c;
        }
      g_assert_cmpint (sum, ==, total[i]);
      if (i > 0)
        g_assert_cmpuint (parents[i], <, i);
    }
}

/* The tree laid out by sorting the stacks equals the one a node map
 * builds frame by frame (the builder takes that way as soon as a node is
 * asked for): same nodes in the same order, same values, same samples */
static void
fill_random (EmbersProfileBuilder *b,
             gboolean              tree_mode,
             guint                 seed)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  guint32 names[40];
  guint32 sets[3];
  EmbersLabel labels[3];

  embers_profile_builder_add_sample_type (b, "samples", "count");
  embers_profile_builder_add_sample_type (b, "cpu", "nanoseconds");
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *name = g_strdup_printf ("%c%u", 'a' + (char)(i % 7), i * 37 % 101);

      names[i] = embers_profile_builder_intern (b, name, -1);
    }
  for (guint i = 0; i < G_N_ELEMENTS (sets); i++)
    {
      g_autofree char *value = g_strdup_printf ("v%u", i);

      labels[i] = (EmbersLabel) { embers_profile_builder_intern (b, "key", -1),
                                  embers_profile_builder_intern (b, value, -1), 0, 0 };
      sets[i] = embers_profile_builder_add_label_set (b, &labels[i], 1);
    }
  if (tree_mode)
    embers_profile_builder_get_child (b, 0, names[0]);

  for (guint s = 0; s < 5000; s++)
    {
      guint32 stack[64];
      guint depth = g_rand_int_range (rand, 0, 50);
      gint64 v[2] = { g_rand_int_range (rand, 0, 3), g_rand_int_range (rand, 0, 100000) };
      guint32 set = g_rand_int_range (rand, 0, 4) == 0 ? 0 : sets[g_rand_int_range (rand, 0, 3)];

      /* Shared prefixes, recursion, repeats and long unique tails */
      for (guint d = 0; d < depth; d++)
        stack[d] = names[d < 6 ? g_rand_int_range (rand, 0, 3) : g_rand_int_range (rand, 0, G_N_ELEMENTS (names))];
      embers_profile_builder_add_stack (b, stack, depth, v, set);
    }
}

static void
test_profile_sorted_equals_tree (void)
{
  g_autoptr(EmbersProfileBuilder) sb = embers_profile_builder_new ();
  g_autoptr(EmbersProfileBuilder) tb = embers_profile_builder_new ();
  g_autoptr(EmbersProfile) sp = NULL;
  g_autoptr(EmbersProfile) tp = NULL;
  g_autoptr(GError) error = NULL;
  guint n;

  fill_random (sb, FALSE, 17);
  fill_random (tb, TRUE, 17);
  sp = embers_profile_builder_finish (sb, &error);
  g_assert_no_error (error);
  tp = embers_profile_builder_finish (tb, &error);
  g_assert_no_error (error);

  /* The node map made one node more (asked for without a value): drop
   * the comparison of that one by comparing paths */
  n = embers_profile_get_n_nodes (sp);
  g_assert_cmpuint (n, >, 1000);
  g_assert_cmpuint (embers_profile_get_max_depth (sp), ==, embers_profile_get_max_depth (tp));
  for (guint t = 0; t < 2; t++)
    g_assert_cmpint (embers_profile_get_total (sp, t), ==, embers_profile_get_total (tp, t));

  {
    guint32 j = 0;
    guint tn = embers_profile_get_n_nodes (tp);

    for (guint32 i = 0; i < n; i++, j++)
      {
        /* skip nodes of the map's tree with no value */
        while (j < tn && embers_profile_node_total (tp, 0, j) == 0 && embers_profile_node_total (tp, 1, j) == 0 && i > 0)
          j = embers_profile_node_end (tp, j);
        g_assert_cmpuint (j, <, tn);
        g_assert_cmpstr (embers_profile_node_name_str (sp, i), ==, embers_profile_node_name_str (tp, j));
        g_assert_cmpuint (embers_profile_node_depth (sp, i), ==, embers_profile_node_depth (tp, j));
        for (guint t = 0; t < 2; t++)
          {
            g_assert_cmpint (embers_profile_node_total (sp, t, i), ==, embers_profile_node_total (tp, t, j));
            g_assert_cmpint (embers_profile_node_self (sp, t, i), ==, embers_profile_node_self (tp, t, j));
            g_assert_cmpint (embers_profile_get_self_column (sp, t)[i], ==, embers_profile_node_self (tp, t, j));
          }
      }
  }

  /* Label samples: the same (node path, set) with the same values */
  g_assert_cmpuint (embers_profile_get_n_samples (sp), ==, embers_profile_get_n_samples (tp));
  for (guint k = 0; k < embers_profile_get_n_samples (sp); k++)
    {
      g_autofree char *path = embers_profile_node_stack (sp, embers_profile_sample_node (sp, k), ";");
      gboolean found = FALSE;

      for (guint m = 0; m < embers_profile_get_n_samples (tp) && !found; m++)
        {
          g_autofree char *other = embers_profile_node_stack (tp, embers_profile_sample_node (tp, m), ";");

          if (g_str_equal (path, other) &&
              embers_profile_sample_label_set (sp, k) == embers_profile_sample_label_set (tp, m))
            {
              for (guint t = 0; t < 2; t++)
                g_assert_cmpint (embers_profile_sample_value (sp, k, t), ==, embers_profile_sample_value (tp, m, t));
              found = TRUE;
            }
        }
      g_assert_true (found);
    }
}

/* Stacks given as unique (a reader that merged them), with their labelled
 * parts, give what add_stack gives */
static void
test_profile_unique_stacks (void)
{
  g_autoptr(EmbersProfileBuilder) a = embers_profile_builder_new ();
  g_autoptr(EmbersProfileBuilder) u = embers_profile_builder_new ();
  g_autoptr(EmbersProfile) pa = NULL;
  g_autoptr(EmbersProfile) pu = NULL;
  g_autoptr(GError) error = NULL;
  EmbersProfileBuilder *both[2] = { a, u };
  guint32 ids[2][3], sets[2];

  for (guint k = 0; k < 2; k++)
    {
      EmbersLabel l;

      ids[k][0] = embers_profile_builder_intern (both[k], "main", -1);
      ids[k][1] = embers_profile_builder_intern (both[k], "work", -1);
      ids[k][2] = embers_profile_builder_intern (both[k], "io", -1);
      l = (EmbersLabel) { embers_profile_builder_intern (both[k], "region", -1),
                          embers_profile_builder_intern (both[k], "eu", -1), 0, 0 };
      sets[k] = embers_profile_builder_add_label_set (both[k], &l, 1);
    }

  /* main;work 7 (3 of it in eu), main;work;io 5, main;work again 2 */
  embers_profile_builder_add_stack (a, ids[0], 2, (gint64[]) { 3 }, sets[0]);
  embers_profile_builder_add_stack (a, ids[0], 2, (gint64[]) { 4 }, 0);
  embers_profile_builder_add_stack (a, ids[0], 3, (gint64[]) { 5 }, 0);
  embers_profile_builder_add_stack (a, ids[0], 2, (gint64[]) { 2 }, 0);
  {
    guint32 st = embers_profile_builder_add_unique_stack (u, ids[1], 2, (gint64[]) { 7 });

    g_assert_cmpuint (st, !=, G_MAXUINT32);
    embers_profile_builder_add_stack_labels (u, st, (gint64[]) { 3 }, sets[1]);
    embers_profile_builder_add_unique_stack (u, ids[1], 3, (gint64[]) { 5 });
    /* The same names again: they end at the same node */
    embers_profile_builder_add_unique_stack (u, ids[1], 2, (gint64[]) { 2 });
    /* No value: no stack */
    g_assert_cmpuint (embers_profile_builder_add_unique_stack (u, ids[1], 1, (gint64[]) { 0 }), ==, G_MAXUINT32);
  }

  pa = embers_profile_builder_finish (a, &error);
  g_assert_no_error (error);
  pu = embers_profile_builder_finish (u, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (embers_profile_get_n_nodes (pa), ==, 4);
  g_assert_cmpuint (embers_profile_get_n_nodes (pu), ==, 4);
  for (guint32 i = 0; i < 4; i++)
    {
      g_assert_cmpstr (embers_profile_node_name_str (pa, i), ==, embers_profile_node_name_str (pu, i));
      g_assert_cmpint (embers_profile_node_total (pa, 0, i), ==, embers_profile_node_total (pu, 0, i));
    }
  /* (main;work, eu) 3, (main;work, none) 6, (main;work;io, none) 5: the
   * unlabelled rest of the first unique stack and the repeated one merge */
  g_assert_cmpuint (embers_profile_get_n_samples (pa), ==, 3);
  g_assert_cmpuint (embers_profile_get_n_samples (pu), ==, 3);
  for (guint k = 0; k < 3; k++)
    {
      g_assert_cmpuint (embers_profile_sample_node (pa, k), ==, embers_profile_sample_node (pu, k));
      g_assert_cmpint (embers_profile_sample_value (pa, k, 0), ==, embers_profile_sample_value (pu, k, 0));
      g_assert_cmpuint (embers_profile_sample_label_set (pa, k) != 0, ==, embers_profile_sample_label_set (pu, k) != 0);
    }
}

/* Parents and ends found from the depths of a pre-order (the sorted
 * build's last step) against a direct reading of the definition: random
 * trees, a single node, and chains at the deepest stack the builder
 * takes, with the pre-order stepping back to the root after them. */
static void
check_link (const guint16 *depths,
            guint          n,
            guint          max_depth)
{
  g_autofree guint32 *parents = g_new (guint32, n);
  g_autofree guint32 *ends = g_new (guint32, n);

  embers_tree_link (depths, n, max_depth, parents, ends);
  g_assert_cmpuint (parents[0], ==, EMBERS_NODE_NONE);
  g_assert_cmpuint (ends[0], ==, n);
  for (guint i = 1; i < n; i++)
    {
      guint32 p = i - 1, e = i + 1;

      while (depths[p] != depths[i] - 1)
        p--;
      g_assert_cmpuint (parents[i], ==, p);
      while (e < n && depths[e] > depths[i])
        e++;
      g_assert_cmpuint (ends[i], ==, e);
    }
}

static void
test_profile_tree_link (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (17);
  g_autofree guint16 *depths = g_new (guint16, 3 * EMBERS_PROFILE_MAX_DEPTH + 10);
  guint16 root = 0;
  guint n, max_depth;

  check_link (&root, 1, 0);

  for (guint round = 0; round < 200; round++)
    {
      n = g_rand_int_range (rand, 1, 400);
      depths[0] = 0;
      max_depth = 0;
      for (guint i = 1; i < n; i++)
        {
          depths[i] = g_rand_int_range (rand, 1, depths[i - 1] + 2);
          max_depth = MAX (max_depth, depths[i]);
        }
      check_link (depths, n, max_depth);
    }

  /* Two chains of the deepest stack, the second sharing half of the first,
   * then a node under the root */
  n = 0;
  depths[n++] = 0;
  for (guint d = 1; d <= EMBERS_PROFILE_MAX_DEPTH; d++)
    depths[n++] = d;
  for (guint d = EMBERS_PROFILE_MAX_DEPTH / 2; d <= EMBERS_PROFILE_MAX_DEPTH; d++)
    depths[n++] = d;
  depths[n++] = 1;
  {
    g_autofree guint32 *parents = g_new (guint32, n);
    g_autofree guint32 *ends = g_new (guint32, n);
    guint second = EMBERS_PROFILE_MAX_DEPTH + 1;

    embers_tree_link (depths, n, EMBERS_PROFILE_MAX_DEPTH, parents, ends);
    g_assert_cmpuint (ends[0], ==, n);
    g_assert_cmpuint (ends[1], ==, n - 1);
    g_assert_cmpuint (ends[EMBERS_PROFILE_MAX_DEPTH / 2 - 1], ==, n - 1);
    g_assert_cmpuint (ends[EMBERS_PROFILE_MAX_DEPTH / 2], ==, second);
    g_assert_cmpuint (ends[EMBERS_PROFILE_MAX_DEPTH], ==, second);
    g_assert_cmpuint (parents[second], ==, EMBERS_PROFILE_MAX_DEPTH / 2 - 1);
    g_assert_cmpuint (ends[second], ==, n - 1);
    g_assert_cmpuint (parents[n - 2], ==, n - 3);
    g_assert_cmpuint (ends[n - 2], ==, n - 1);
    g_assert_cmpuint (parents[n - 1], ==, 0);
    g_assert_cmpuint (ends[n - 1], ==, n);
  }
}

/* The deepest stacks the builder takes, through the sorted build: depths,
 * parents and ends; one frame more is refused */
static void
test_profile_deepest_stacks (void)
{
  g_autoptr(EmbersProfileBuilder) b = embers_profile_builder_new ();
  g_autoptr(EmbersProfile) p = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree guint32 *stack = g_new (guint32, EMBERS_PROFILE_MAX_DEPTH + 1);
  guint32 names[3];
  gint64 v = 1;
  guint n;

  embers_profile_builder_add_sample_type (b, "samples", "count");
  names[0] = embers_profile_builder_intern (b, "a", -1);
  names[1] = embers_profile_builder_intern (b, "b", -1);
  names[2] = embers_profile_builder_intern (b, "c", -1);
  for (guint d = 0; d < EMBERS_PROFILE_MAX_DEPTH; d++)
    stack[d] = names[d % 2];
  embers_profile_builder_add_stack (b, stack, EMBERS_PROFILE_MAX_DEPTH, &v, 0);
  stack[EMBERS_PROFILE_MAX_DEPTH - 1] = names[2];
  embers_profile_builder_add_stack (b, stack, EMBERS_PROFILE_MAX_DEPTH, &v, 0);
  embers_profile_builder_add_stack (b, stack, 1, &v, 0);
  p = embers_profile_builder_finish (b, &error);
  g_assert_no_error (error);

  n = embers_profile_get_n_nodes (p);
  g_assert_cmpuint (n, ==, EMBERS_PROFILE_MAX_DEPTH + 2);
  g_assert_cmpuint (embers_profile_get_max_depth (p), ==, EMBERS_PROFILE_MAX_DEPTH);
  for (guint i = 1; i < EMBERS_PROFILE_MAX_DEPTH; i++)
    {
      g_assert_cmpuint (embers_profile_node_depth (p, i), ==, i);
      g_assert_cmpuint (embers_profile_node_parent (p, i), ==, i - 1);
      g_assert_cmpuint (embers_profile_node_end (p, i), ==, n);
    }
  /* The two leaves, b before c */
  g_assert_cmpuint (embers_profile_node_parent (p, n - 2), ==, n - 3);
  g_assert_cmpuint (embers_profile_node_parent (p, n - 1), ==, n - 3);
  g_assert_cmpuint (embers_profile_node_end (p, n - 2), ==, n - 1);
  g_assert_cmpuint (embers_profile_node_end (p, n - 1), ==, n);
  g_assert_cmpuint (embers_profile_node_depth (p, n - 1), ==, EMBERS_PROFILE_MAX_DEPTH);
  g_assert_cmpint (embers_profile_node_total (p, 0, 1), ==, 3);
  g_assert_cmpint (embers_profile_node_self (p, 0, 1), ==, 1);
  g_assert_cmpstr (embers_profile_node_name_str (p, n - 1), ==, "c");

  {
    g_autoptr(EmbersProfileBuilder) deeper = embers_profile_builder_new ();
    g_autoptr(EmbersProfile) none = NULL;

    embers_profile_builder_add_sample_type (deeper, "samples", "count");
    stack[EMBERS_PROFILE_MAX_DEPTH] = embers_profile_builder_intern (deeper, "d", -1);
    for (guint d = 0; d < EMBERS_PROFILE_MAX_DEPTH; d++)
      stack[d] = stack[EMBERS_PROFILE_MAX_DEPTH];
    embers_profile_builder_add_stack (deeper, stack, EMBERS_PROFILE_MAX_DEPTH + 1, &v, 0);
    none = embers_profile_builder_finish (deeper, &error);
    g_assert_null (none);
    g_assert_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_TOO_LARGE);
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/embers/profile/tree", test_profile_tree);
  g_test_add_func ("/embers/profile/children-sorted", test_profile_children_sorted);
  g_test_add_func ("/embers/profile/multi-type-labels", test_profile_multi_type_labels);
  g_test_add_func ("/embers/profile/errors", test_profile_errors);
  g_test_add_func ("/embers/profile/empty-and-tree-api", test_profile_empty_and_tree_api);
  g_test_add_func ("/embers/profile/large-random", test_profile_large_random);
  g_test_add_func ("/embers/profile/sorted-equals-tree", test_profile_sorted_equals_tree);
  g_test_add_func ("/embers/profile/unique-stacks", test_profile_unique_stacks);
  g_test_add_func ("/embers/profile/tree-link", test_profile_tree_link);
  g_test_add_func ("/embers/profile/deepest-stacks", test_profile_deepest_stacks);

  return g_test_run ();
}
