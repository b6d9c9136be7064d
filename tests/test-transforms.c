/* test-transforms.c: focus, hide, collapse recursion, invert, sandwich,
 * label filter, with hand-made stacks and known answers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "embers-diff.h"
#include "embers-layout.h"
#include "embers-profile-builder.h"
#include "embers-transform-stack.h"
#include "embers-transforms.h"

/* "a;b;c 10" lines; "a;b 10 3" gives two columns when n_types == 2 */
static EmbersProfile *
profile_from_lines (const char *text,
                    guint       n_types)
{
  g_autoptr(EmbersProfileBuilder) b = embers_profile_builder_new ();
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  GError *error = NULL;
  EmbersProfile *profile;

  embers_profile_builder_add_sample_type (b, "cpu", "nanoseconds");
  if (n_types > 1)
    embers_profile_builder_add_sample_type (b, "alloc_space", "bytes");

  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto(GStrv) parts = NULL;
      g_auto(GStrv) frames = NULL;
      guint32 ids[64];
      gint64 values[2] = { 0, 0 };
      guint n;

      if (lines[i][0] == '\0')
        continue;
      parts = g_strsplit (lines[i], " ", -1);
      frames = g_strsplit (parts[0], ";", -1);
      n = g_strv_length (frames);
      for (guint f = 0; f < n; f++)
        ids[f] = embers_profile_builder_intern (b, frames[f], -1);
      for (guint t = 0; t < n_types; t++)
        values[t] = g_ascii_strtoll (parts[1 + t], NULL, 10);
      embers_profile_builder_add_stack (b, ids, n, values, 0);
    }

  profile = embers_profile_builder_finish (b, &error);
  g_assert_no_error (error);
  return profile;
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char * const *)a, *(const char * const *)b);
}

/* Every node with a self value as "path v0[ v1]", sorted, "\n"-joined;
 * the root's own self value as "(root) v". Checks totals on the way. */
static char *
to_folded (EmbersProfile *p)
{
  g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);
  guint n_types = embers_profile_get_n_sample_types (p);
  GString *out = g_string_new (NULL);

  for (guint32 i = 0; i < embers_profile_get_n_nodes (p); i++)
    {
      gboolean any = FALSE;
      GString *line;

      /* Totals are self + children totals */
      for (guint t = 0; t < n_types; t++)
        {
          gint64 sum = embers_profile_node_self (p, t, i);
          guint32 end = embers_profile_node_end (p, i);

          for (guint32 c = i + 1; c < end; c = embers_profile_node_end (p, c))
            sum += embers_profile_node_total (p, t, c);
          g_assert_cmpint (sum, ==, embers_profile_node_total (p, t, i));
          any |= embers_profile_node_self (p, t, i) != 0;
        }
      if (!any)
        continue;

      if (i == 0)
        line = g_string_new ("(root)");
      else
        {
          char *stack = embers_profile_node_stack (p, i, ";");

          line = g_string_new (stack);
          g_free (stack);
        }
      for (guint t = 0; t < n_types; t++)
        g_string_append_printf (line, " %" G_GINT64_FORMAT, embers_profile_node_self (p, t, i));
      g_ptr_array_add (lines, g_string_free (line, FALSE));
    }

  g_ptr_array_sort (lines, compare_strings);
  for (guint i = 0; i < lines->len; i++)
    {
      if (i > 0)
        g_string_append_c (out, '\n');
      g_string_append (out, g_ptr_array_index (lines, i));
    }

  return g_string_free (out, FALSE);
}

static void
check_no_empty_nodes (EmbersProfile *p)
{
  /* Transforms create no frames without value */
  for (guint32 i = 1; i < embers_profile_get_n_nodes (p); i++)
    {
      gint64 sum = 0;

      for (guint t = 0; t < embers_profile_get_n_sample_types (p); t++)
        sum += embers_profile_node_total (p, t, i);
      g_assert_cmpint (sum, >, 0);
    }
}

#define ASSERT_FOLDED(profile, expected) \
  G_STMT_START { \
    g_autofree char *folded_ = to_folded (profile); \
    g_assert_cmpstr (folded_, ==, expected); \
    check_no_empty_nodes (profile); \
  } G_STMT_END

static void
test_root_stack_helper (void)
{
  /* The helper itself: a profile reads back as its input */
  g_autoptr(EmbersProfile) p = profile_from_lines ("a;b 1\na 2\nc 3\n", 1);

  ASSERT_FOLDED (p, "a 2\na;b 1\nc 3");
}

static void
test_focus (void)
{
  g_autoptr(EmbersProfile) p = profile_from_lines ("a;b;c 1\n"
                                                   "x;b;d 2\n"
                                                   "b 3\n"
                                                   "a;c 4\n"
                                                   "a;b;b;e 5\n", 1);
  g_autoptr(EmbersProfile) f = NULL;
  g_autoptr(EmbersProfile) g = NULL;
  g_autoptr(EmbersProfile) none = NULL;
  GError *error = NULL;

  f = embers_transform_focus (p, "b", &error);
  g_assert_no_error (error);
  /* Re-rooted at the outermost b, merged across occurrences */
  ASSERT_FOLDED (f, "b 3\nb;b;e 5\nb;c 1\nb;d 2");
  g_assert_cmpint (embers_profile_get_total (f, 0), ==, 11);
  g_assert_cmpstr (embers_profile_get_sample_type (f, 0), ==, "cpu");
  g_assert_cmpstr (embers_profile_get_sample_unit (f, 0), ==, "nanoseconds");

  /* Callees are the same tree */
  g = embers_transform_sandwich_callees (p, "b", &error);
  g_assert_no_error (error);
  ASSERT_FOLDED (g, "b 3\nb;b;e 5\nb;c 1\nb;d 2");

  /* An unknown function: only a zero root */
  none = embers_transform_focus (p, "nope", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (embers_profile_get_n_nodes (none), ==, 1);
  g_assert_cmpint (embers_profile_get_total (none, 0), ==, 0);
}

static void
test_hide (void)
{
  g_autoptr(EmbersProfile) p = profile_from_lines ("a;b;c 1\n"
                                                   "x;b;d 2\n"
                                                   "b 3\n"
                                                   "a;c 4\n"
                                                   "a;b;b;e 5\n", 1);
  g_autoptr(EmbersProfile) h = NULL;
  g_autoptr(EmbersProfile) h2 = NULL;
  g_autoptr(GRegex) only_b = g_regex_new ("^b$", 0, 0, NULL);
  g_autoptr(GRegex) runtime = g_regex_new ("^runtime\\.", 0, 0, NULL);
  GError *error = NULL;

  h = embers_transform_hide (p, only_b, &error);
  g_assert_no_error (error);
  /* Children lifted and merged by name: a;c gets 1 + 4; b's self goes to the root */
  ASSERT_FOLDED (h, "(root) 3\na;c 5\na;e 5\nx;d 2");
  g_assert_cmpint (embers_profile_get_total (h, 0), ==, embers_profile_get_total (p, 0));

  {
    g_autoptr(EmbersProfile) q = profile_from_lines ("main;runtime.mallocgc;runtime.memclr 7\n"
                                                     "main;runtime.gcStart 3\n"
                                                     "main;work 10\n", 1);

    h2 = embers_transform_hide (q, runtime, &error);
    g_assert_no_error (error);
    ASSERT_FOLDED (h2, "main 10\nmain;work 10");
  }
}

static void
test_collapse_recursion (void)
{
  g_autoptr(EmbersProfile) p = profile_from_lines ("a;b;b;b;c 1\n"
                                                   "a;b;c;b 2\n"
                                                   "b;b 3\n"
                                                   "a;b;b 4\n"
                                                   "a;a 5\n", 1);
  g_autoptr(EmbersProfile) c = NULL;
  GError *error = NULL;

  c = embers_transform_collapse_recursion (p, &error);
  g_assert_no_error (error);
  ASSERT_FOLDED (c, "a 5\na;b 4\na;b;c 1\na;b;c;b 2\nb 3");
}

static void
test_invert (void)
{
  g_autoptr(EmbersProfile) p = profile_from_lines ("a;b;c 1\n"
                                                   "x;c 2\n"
                                                   "a;b 3\n"
                                                   "a 4\n", 1);
  g_autoptr(EmbersProfile) inv = NULL;
  g_autoptr(EmbersProfile) back = NULL;
  GError *error = NULL;

  inv = embers_transform_invert (p, &error);
  g_assert_no_error (error);
  ASSERT_FOLDED (inv, "a 4\nb;a 3\nc;b;a 1\nc;x 2");
  g_assert_cmpint (embers_profile_get_total (inv, 0), ==, 10);

  /* Inverting twice gives the original */
  back = embers_transform_invert (inv, &error);
  g_assert_no_error (error);
  ASSERT_FOLDED (back, "a 4\na;b 3\na;b;c 1\nx;c 2");
}

static void
test_sandwich_callers (void)
{
  g_autoptr(EmbersProfile) p = profile_from_lines ("a;b;c 1\n"
                                                   "x;b 2\n"
                                                   "b 3\n"
                                                   "a;b;b 4\n"
                                                   "q 5\n", 1);
  g_autoptr(EmbersProfile) callers = NULL;
  GError *error = NULL;

  callers = embers_transform_sandwich_callers (p, "b", &error);
  g_assert_no_error (error);
  /* Outermost b's paths, reversed, weighted by their totals:
   * a;b (1 + 4), x;b (2), b (3); recursion counted once */
  ASSERT_FOLDED (callers, "b 3\nb;a 5\nb;x 2");
  g_assert_cmpint (embers_profile_get_total (callers, 0), ==, 10);
}

static void
test_multiple_types_and_metadata (void)
{
  g_autoptr(EmbersProfileBuilder) bld = embers_profile_builder_new ();
  g_autoptr(EmbersProfile) p = NULL;
  g_autoptr(EmbersProfile) inv = NULL;
  g_autoptr(EmbersProfile) f = NULL;
  guint32 ids[2];
  gint64 v1[2] = { 10, 100 }, v2[2] = { 0, 50 };
  guint32 name;
  GError *error = NULL;

  embers_profile_builder_add_sample_type (bld, "cpu", "nanoseconds");
  embers_profile_builder_add_sample_type (bld, "alloc_space", "bytes");
  embers_profile_builder_set_default_sample_type (bld, 1);
  embers_profile_builder_set_period (bld, "cpu", "nanoseconds", 10000000);
  embers_profile_builder_set_time (bld, 1700000000000000000, 60000000000);
  ids[0] = embers_profile_builder_intern (bld, "main", -1);
  ids[1] = embers_profile_builder_intern (bld, "work", -1);
  embers_profile_builder_set_name_location (bld, ids[1], embers_profile_builder_intern (bld, "work.go", -1), 42);
  embers_profile_builder_add_stack (bld, ids, 2, v1, 0);
  embers_profile_builder_add_stack (bld, ids, 1, v2, 0);
  p = embers_profile_builder_finish (bld, &error);
  g_assert_no_error (error);

  inv = embers_transform_invert (p, &error);
  g_assert_no_error (error);
  ASSERT_FOLDED (inv, "main 0 50\nwork;main 10 100");
  g_assert_cmpuint (embers_profile_get_n_sample_types (inv), ==, 2);
  g_assert_cmpstr (embers_profile_get_sample_type (inv, 1), ==, "alloc_space");
  g_assert_cmpstr (embers_profile_get_sample_unit (inv, 1), ==, "bytes");
  g_assert_cmpuint (embers_profile_get_default_sample_type (inv), ==, 1);
  g_assert_cmpstr (embers_profile_get_period_type (inv), ==, "cpu");
  g_assert_cmpint (embers_profile_get_period (inv), ==, 10000000);
  g_assert_cmpint (embers_profile_get_time_nanos (inv), ==, 1700000000000000000);
  g_assert_cmpint (embers_profile_get_duration_nanos (inv), ==, 60000000000);

  name = embers_transform_find_name (inv, "work");
  g_assert_cmpuint (name, !=, 0);
  g_assert_cmpstr (embers_profile_get_string (inv, embers_profile_get_name_file (inv, name)), ==, "work.go");
  g_assert_cmpint (embers_profile_get_name_line (inv, name), ==, 42);
  g_assert_cmpuint (embers_transform_find_name (inv, "no such name"), ==, 0);

  f = embers_transform_focus (p, "work", &error);
  g_assert_no_error (error);
  ASSERT_FOLDED (f, "work 10 100");
}

/* Label samples: env=prod / env=dev / none, plus a numeric label */
static EmbersProfile *
labelled_profile (void)
{
  g_autoptr(EmbersProfileBuilder) b = embers_profile_builder_new ();
  EmbersLabel prod[2] = { { 0, }, };
  EmbersLabel dev[1] = { { 0, }, };
  guint32 set_prod, set_dev, ids[3];
  gint64 v;
  GError *error = NULL;
  EmbersProfile *p;

  embers_profile_builder_add_sample_type (b, "samples", "count");
  prod[0].key = embers_profile_builder_intern (b, "env", -1);
  prod[0].str = embers_profile_builder_intern (b, "prod", -1);
  prod[1].key = embers_profile_builder_intern (b, "thread", -1);
  prod[1].num = 7;
  dev[0].key = prod[0].key;
  dev[0].str = embers_profile_builder_intern (b, "dev", -1);
  set_prod = embers_profile_builder_add_label_set (b, prod, 2);
  set_dev = embers_profile_builder_add_label_set (b, dev, 1);

  ids[0] = embers_profile_builder_intern (b, "main", -1);
  ids[1] = embers_profile_builder_intern (b, "a", -1);
  ids[2] = embers_profile_builder_intern (b, "b", -1);
  v = 10;
  embers_profile_builder_add_stack (b, ids, 3, &v, set_prod);      /* main;a;b prod 10 */
  v = 20;
  embers_profile_builder_add_stack (b, ids, 2, &v, set_dev);       /* main;a dev 20 */
  v = 5;
  embers_profile_builder_add_stack (b, ids, 3, &v, 0);             /* main;a;b none 5 */
  v = 1;
  embers_profile_builder_add_stack (b, ids, 3, &v, set_dev);       /* main;a;b dev 1 */

  p = embers_profile_builder_finish (b, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (embers_profile_get_n_samples (p), ==, 4);
  return p;
}

static const char *
label_value (EmbersProfile *p,
             guint32        set,
             const char    *key)
{
  guint n;
  const EmbersLabel *labels = embers_profile_get_label_set (p, set, &n);

  for (guint i = 0; i < n; i++)
    if (g_str_equal (embers_profile_get_string (p, labels[i].key), key))
      return labels[i].str != 0 ? embers_profile_get_string (p, labels[i].str) : "(num)";
  return NULL;
}

static EmbersProfile *
filter (EmbersProfile *p,
        const char    *selector_text)
{
  GError *error = NULL;
  g_autoptr(EmbersSelector) selector = embers_selector_parse (selector_text, NULL, &error);
  EmbersProfile *result;

  g_assert_no_error (error);
  result = embers_transform_filter_labels (p, selector, &error);
  g_assert_no_error (error);
  g_assert_nonnull (result);
  return result;
}

static void
test_filter_labels (void)
{
  g_autoptr(EmbersProfile) p = labelled_profile ();
  g_autoptr(EmbersProfile) prod = filter (p, "{env=\"prod\"}");
  g_autoptr(EmbersProfile) not_prod = filter (p, "{env!=\"prod\"}");
  g_autoptr(EmbersProfile) dev_re = filter (p, "{env=~\"d.*\"}");
  g_autoptr(EmbersProfile) thread = filter (p, "{thread=\"7\"}");
  g_autoptr(EmbersProfile) all = filter (p, "{}");
  g_autoptr(EmbersProfile) unlabelled = filter (p, "{env=\"\"}");
  g_autoptr(EmbersProfile) nothing = filter (p, "{env=\"staging\"}");

  ASSERT_FOLDED (prod, "main;a;b 10");
  ASSERT_FOLDED (not_prod, "main;a 20\nmain;a;b 6");
  ASSERT_FOLDED (dev_re, "main;a 20\nmain;a;b 1");
  ASSERT_FOLDED (thread, "main;a;b 10");
  ASSERT_FOLDED (all, "main;a 20\nmain;a;b 16");
  ASSERT_FOLDED (unlabelled, "main;a;b 5");
  g_assert_cmpint (embers_profile_get_total (nothing, 0), ==, 0);
  g_assert_cmpuint (embers_profile_get_n_nodes (nothing), ==, 1);

  /* Label samples survive with their label sets */
  g_assert_cmpuint (embers_profile_get_n_samples (prod), ==, 1);
  g_assert_cmpstr (label_value (prod, embers_profile_sample_label_set (prod, 0), "env"), ==, "prod");
  g_assert_cmpstr (label_value (prod, embers_profile_sample_label_set (prod, 0), "thread"), ==, "(num)");
  g_assert_cmpuint (embers_profile_get_n_samples (all), ==, 4);

  /* Filters compose: not prod, then dev */
  {
    g_autoptr(EmbersProfile) twice = filter (not_prod, "{env=\"dev\"}");

    ASSERT_FOLDED (twice, "main;a 20\nmain;a;b 1");
  }
}

static void
test_labels_survive_transforms (void)
{
  g_autoptr(EmbersProfile) p = labelled_profile ();
  g_autoptr(EmbersProfile) inv = NULL;
  g_autoptr(EmbersProfile) inv_dev = NULL;
  g_autoptr(EmbersProfile) focus = NULL;
  g_autoptr(EmbersProfile) focus_prod = NULL;
  GError *error = NULL;

  inv = embers_transform_invert (p, &error);
  g_assert_no_error (error);
  ASSERT_FOLDED (inv, "a;main 20\nb;a;main 16");
  g_assert_cmpuint (embers_profile_get_n_samples (inv), ==, 4);

  /* Filtering after inverting equals inverting after filtering */
  inv_dev = filter (inv, "{env=\"dev\"}");
  ASSERT_FOLDED (inv_dev, "a;main 20\nb;a;main 1");

  focus = embers_transform_focus (p, "a", &error);
  g_assert_no_error (error);
  ASSERT_FOLDED (focus, "a 20\na;b 16");
  focus_prod = filter (focus, "{env=\"prod\"}");
  ASSERT_FOLDED (focus_prod, "a;b 10");
}

static void
test_mixed_samples_and_self (void)
{
  /* Values added without a sample (add_self) count as unlabelled */
  g_autoptr(EmbersProfileBuilder) b = embers_profile_builder_new ();
  g_autoptr(EmbersProfile) p = NULL;
  g_autoptr(EmbersProfile) inv = NULL;
  g_autoptr(EmbersProfile) prod = NULL;
  EmbersLabel l = { 0, };
  guint32 ids[2], set, node;
  gint64 v = 4;
  GError *error = NULL;

  embers_profile_builder_add_sample_type (b, "samples", "count");
  l.key = embers_profile_builder_intern (b, "env", -1);
  l.str = embers_profile_builder_intern (b, "prod", -1);
  set = embers_profile_builder_add_label_set (b, &l, 1);
  ids[0] = embers_profile_builder_intern (b, "x", -1);
  ids[1] = embers_profile_builder_intern (b, "y", -1);
  embers_profile_builder_add_stack (b, ids, 2, &v, set);
  node = embers_profile_builder_get_child (b, 0, ids[0]);
  node = embers_profile_builder_get_child (b, node, ids[1]);
  embers_profile_builder_add_self (b, node, 0, 6);
  p = embers_profile_builder_finish (b, &error);
  g_assert_no_error (error);

  inv = embers_transform_invert (p, &error);
  g_assert_no_error (error);
  ASSERT_FOLDED (inv, "y;x 10");
  prod = filter (p, "{env=\"prod\"}");
  ASSERT_FOLDED (prod, "x;y 4");
}

static void
test_deep_stack (void)
{
  /* 20000 frames deep, alternating: transforms walk iteratively */
  g_autoptr(EmbersProfileBuilder) b = embers_profile_builder_new ();
  g_autoptr(EmbersProfile) p = NULL;
  g_autoptr(EmbersProfile) c = NULL;
  g_autoptr(EmbersProfile) inv = NULL;
  g_autoptr(EmbersProfile) f = NULL;
  g_autofree guint32 *ids = g_new (guint32, 20000);
  gint64 v = 1;
  GError *error = NULL;

  embers_profile_builder_add_sample_type (b, "samples", "count");
  for (guint i = 0; i < 20000; i++)
    ids[i] = embers_profile_builder_intern (b, i < 10000 ? "same" : (i % 2 ? "odd" : "even"), -1);
  embers_profile_builder_add_stack (b, ids, 20000, &v, 0);
  p = embers_profile_builder_finish (b, &error);
  g_assert_no_error (error);

  c = embers_transform_collapse_recursion (p, &error);
  g_assert_no_error (error);
  /* "same" x10000 -> 1, then 10000 alternating frames */
  g_assert_cmpuint (embers_profile_get_max_depth (c), ==, 10001);

  inv = embers_transform_invert (p, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (embers_profile_get_n_nodes (inv), ==, 20001);

  f = embers_transform_focus (p, "odd", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (embers_profile_get_n_nodes (f), ==, 10000);
  g_assert_cmpint (embers_profile_get_total (f, 0), ==, 1);
}

/* Diff profiles: every transform keeps both value columns and the flag */

static void
assert_diff (EmbersProfile *p)
{
  g_assert_true (embers_profile_is_diff (p));
  g_assert_cmpuint (embers_profile_get_n_sample_types (p), ==, 2);
  g_assert_cmpstr (embers_profile_get_sample_type (p, EMBERS_DIFF_BASELINE), ==, "baseline");
  g_assert_cmpstr (embers_profile_get_sample_type (p, EMBERS_DIFF_COMPARISON), ==, "comparison");
  g_assert_cmpstr (embers_profile_get_sample_unit (p, EMBERS_DIFF_COMPARISON), ==, "nanoseconds");
}

static void
test_diff (void)
{
  g_autoptr(EmbersProfile) base = profile_from_lines ("main;f;g 10\nmain;f;f;h 5\nmain;x 20\n", 1);
  g_autoptr(EmbersProfile) comp = profile_from_lines ("main;f;g 30\nmain;f;f;k 7\nmain;y 3\n", 1);
  g_autoptr(EmbersProfile) d = NULL;
  g_autoptr(EmbersProfile) focused = NULL;
  g_autoptr(EmbersProfile) collapsed = NULL;
  g_autoptr(EmbersProfile) inverted = NULL;
  g_autoptr(EmbersProfile) callers = NULL;
  g_autoptr(EmbersProfile) callees = NULL;
  g_autoptr(EmbersProfile) hidden = NULL;
  g_autoptr(GRegex) regex = g_regex_new ("^f$", 0, 0, NULL);
  GError *error = NULL;

  d = embers_diff_profiles (base, 0, comp, 0, &error);
  g_assert_no_error (error);
  assert_diff (d);
  ASSERT_FOLDED (d, "main;f;f;h 5 0\nmain;f;f;k 0 7\nmain;f;g 10 30\nmain;x 20 0\nmain;y 0 3");

  focused = embers_transform_focus (d, "f", &error);
  g_assert_no_error (error);
  assert_diff (focused);
  ASSERT_FOLDED (focused, "f;f;h 5 0\nf;f;k 0 7\nf;g 10 30");

  collapsed = embers_transform_collapse_recursion (d, &error);
  g_assert_no_error (error);
  assert_diff (collapsed);
  ASSERT_FOLDED (collapsed, "main;f;g 10 30\nmain;f;h 5 0\nmain;f;k 0 7\nmain;x 20 0\nmain;y 0 3");

  inverted = embers_transform_invert (d, &error);
  g_assert_no_error (error);
  assert_diff (inverted);
  ASSERT_FOLDED (inverted, "g;f;main 10 30\nh;f;f;main 5 0\nk;f;f;main 0 7\nx;main 20 0\ny;main 0 3");

  callers = embers_transform_sandwich_callers (d, "f", &error);
  g_assert_no_error (error);
  assert_diff (callers);
  ASSERT_FOLDED (callers, "f;main 15 37");

  callees = embers_transform_sandwich_callees (d, "f", &error);
  g_assert_no_error (error);
  assert_diff (callees);
  ASSERT_FOLDED (callees, "f;f;h 5 0\nf;f;k 0 7\nf;g 10 30");

  hidden = embers_transform_hide (d, regex, &error);
  g_assert_no_error (error);
  assert_diff (hidden);
  ASSERT_FOLDED (hidden, "main;g 10 30\nmain;h 5 0\nmain;k 0 7\nmain;x 20 0\nmain;y 0 3");

  /* The transformed diffs lay out on both columns and keep their changes:
   * in the focused view, g is 10 of 15 and 30 of 37 */
  {
    g_autoptr(EmbersLayout) layout = embers_layout_new (focused, 0, 0, NULL);
    guint32 f = 1, g = EMBERS_NODE_NONE;
    EmbersDiffKind kind;

    g_assert_true (embers_layout_is_diff (layout));
    g_assert_cmpint (embers_layout_get_focus_total (layout), ==, 52);
    for (guint32 c = f + 1; c < embers_profile_node_end (focused, f); c = embers_profile_node_end (focused, c))
      if (g_str_equal (embers_profile_node_name_str (focused, c), "g"))
        g = c;
    g_assert_cmpuint (g, !=, EMBERS_NODE_NONE);
    g_assert_cmpint (embers_layout_node_value (layout, g), ==, 40);
    g_assert_cmpfloat_with_epsilon (embers_diff_node_change (focused, g, EMBERS_DIFF_MODE_SHARE, &kind),
                                    (30.0 / 37 - 10.0 / 15) / (10.0 / 15) * 100, 1e-9);
    g_assert_cmpint (kind, ==, EMBERS_DIFF_KIND_CHANGED);
    g_assert_cmpfloat_with_epsilon (embers_diff_node_change (focused, g, EMBERS_DIFF_MODE_ABSOLUTE, &kind),
                                    200, 1e-9);
  }
}

/* Random stacks over a few names (recursion and merges everywhere), some
 * with labels: each transform equals the same edit made to every stack's
 * text, and label samples survive it (filtering after the transform
 * equals filtering before). Covers the fast paths: children added without
 * lookups until a node merges, inverted stacks through the sorting
 * builder, labelled parts put on nodes. */
typedef char *(*EditFunc) (char **frames, guint n);

static char *
join_frames (char **frames,
             guint  n)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < n; i++)
    {
      if (s->len > 0)
        g_string_append_c (s, ';');
      g_string_append (s, frames[i]);
    }
  return g_string_free (s, FALSE);
}

static char *
edit_collapse (char **frames,
               guint  n)
{
  g_autoptr(GPtrArray) out = g_ptr_array_new ();

  for (guint i = 0; i < n; i++)
    if (i == 0 || !g_str_equal (frames[i], frames[i - 1]))
      g_ptr_array_add (out, frames[i]);
  return join_frames ((char **)out->pdata, out->len);
}

static char *
edit_hide_c (char **frames,
             guint  n)
{
  g_autoptr(GPtrArray) out = g_ptr_array_new ();

  for (guint i = 0; i < n; i++)
    if (!g_str_equal (frames[i], "c"))
      g_ptr_array_add (out, frames[i]);
  return join_frames ((char **)out->pdata, out->len);
}

static char *
edit_focus_b (char **frames,
              guint  n)
{
  for (guint i = 0; i < n; i++)
    if (g_str_equal (frames[i], "b"))
      return join_frames (frames + i, n - i);
  return NULL;
}

static char *
edit_drop_d (char **frames,
             guint  n)
{
  for (guint i = 0; i < n; i++)
    if (g_str_equal (frames[i], "d"))
      return NULL;
  return join_frames (frames, n);
}

/* Indirect recursion of a: an inner a goes back to the outermost one */
static char *
edit_collapse_a (char **frames,
                 guint  n)
{
  g_autoptr(GPtrArray) out = g_ptr_array_new ();
  int first_a = -1;

  for (guint i = 0; i < n; i++)
    {
      if (g_str_equal (frames[i], "a") && first_a >= 0)
        {
          g_ptr_array_set_size (out, first_a + 1);
          continue;
        }
      if (g_str_equal (frames[i], "a"))
        first_a = out->len;
      g_ptr_array_add (out, frames[i]);
    }
  return join_frames ((char **)out->pdata, out->len);
}

static char *
edit_focus_subtree_ab (char **frames,
                       guint  n)
{
  if (n >= 2 && g_str_equal (frames[0], "a") && g_str_equal (frames[1], "b"))
    return join_frames (frames + 1, n - 1);
  return NULL;
}

static char *
edit_hide_ab (char **frames,
              guint  n)
{
  g_autoptr(GPtrArray) out = g_ptr_array_new ();

  for (guint i = 0; i < n; i++)
    if (i != 1 || !g_str_equal (frames[0], "a") || !g_str_equal (frames[1], "b"))
      g_ptr_array_add (out, frames[i]);
  return join_frames ((char **)out->pdata, out->len);
}

static char *
edit_invert (char **frames,
             guint  n)
{
  g_autoptr(GPtrArray) out = g_ptr_array_new ();

  for (guint i = n; i-- > 0; )
    g_ptr_array_add (out, frames[i]);
  return join_frames ((char **)out->pdata, out->len);
}

/* The folded text of stacks after an edit: "path v0 v1" per distinct path,
 * "(root) v0 v1" for the empty one, sorted */
static char *
edited_folded (GPtrArray *stacks,
               GArray    *values,
               EditFunc   edit)
{
  g_autoptr(GHashTable) sums = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);
  GHashTableIter iter;
  gpointer key, value;
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < stacks->len; i++)
    {
      g_auto(GStrv) frames = g_strsplit (g_ptr_array_index (stacks, i), ";", -1);
      char *path = edit (frames, g_strv_length (frames));
      gint64 *sum;

      if (path == NULL)
        continue;
      if (path[0] == '\0')
        {
          g_free (path);
          path = g_strdup ("(root)");
        }
      sum = g_hash_table_lookup (sums, path);
      if (sum == NULL)
        {
          sum = g_new0 (gint64, 2);
          g_hash_table_insert (sums, path, sum);
        }
      else
        g_free (path);
      sum[0] += g_array_index (values, gint64, 2 * i);
      sum[1] += g_array_index (values, gint64, 2 * i + 1);
    }

  g_hash_table_iter_init (&iter, sums);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      const gint64 *sum = value;

      g_ptr_array_add (lines, g_strdup_printf ("%s %" G_GINT64_FORMAT " %" G_GINT64_FORMAT,
                                               (char *)key, sum[0], sum[1]));
    }
  g_ptr_array_sort (lines, compare_strings);
  for (guint i = 0; i < lines->len; i++)
    {
      if (i > 0)
        g_string_append_c (out, '\n');
      g_string_append (out, g_ptr_array_index (lines, i));
    }
  return g_string_free (out, FALSE);
}

static void
test_random_against_text (void)
{
  static const char *names[] = { "a", "b", "c", "d", "e" };

  for (guint seed = 1; seed <= 20; seed++)
    {
      g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
      g_autoptr(EmbersProfileBuilder) b = embers_profile_builder_new ();
      g_autoptr(GPtrArray) stacks = g_ptr_array_new_with_free_func (g_free);
      g_autoptr(GArray) values = g_array_new (FALSE, FALSE, sizeof (gint64));
      g_autoptr(GPtrArray) prod_stacks = g_ptr_array_new_with_free_func (g_free);
      g_autoptr(GArray) prod_values = g_array_new (FALSE, FALSE, sizeof (gint64));
      g_autoptr(EmbersProfile) p = NULL;
      g_autoptr(GRegex) hide_c = g_regex_new ("^c$", 0, 0, NULL);
      EmbersLabel prod = { 0, };
      guint32 set_prod;
      GError *error = NULL;
      struct {
        EditFunc edit;
        int      kind;
      } cases[] = { { edit_collapse, 0 }, { edit_hide_c, 1 }, { edit_focus_b, 2 }, { edit_invert, 3 },
                    { edit_drop_d, 4 }, { edit_collapse_a, 5 }, { edit_focus_subtree_ab, 6 }, { edit_hide_ab, 7 } };

      embers_profile_builder_add_sample_type (b, "cpu", "nanoseconds");
      embers_profile_builder_add_sample_type (b, "alloc_space", "bytes");
      prod.key = embers_profile_builder_intern (b, "env", -1);
      prod.str = embers_profile_builder_intern (b, "prod", -1);
      set_prod = embers_profile_builder_add_label_set (b, &prod, 1);

      for (guint s = 0; s < 300; s++)
        {
          guint n = g_rand_int_range (rand, 0, 9);
          guint32 ids[8];
          const char *frames[9];
          gint64 v[2];
          gboolean labelled = g_rand_int_range (rand, 0, 3) == 0;

          for (guint f = 0; f < n; f++)
            {
              frames[f] = names[g_rand_int_range (rand, 0, G_N_ELEMENTS (names))];
              ids[f] = embers_profile_builder_intern (b, frames[f], -1);
            }
          frames[n] = NULL;
          v[0] = g_rand_int_range (rand, 1, 100);
          v[1] = g_rand_int_range (rand, 0, 3) == 0 ? 0 : g_rand_int_range (rand, 1, 1000);
          embers_profile_builder_add_stack (b, ids, n, v, labelled ? set_prod : 0);
          g_ptr_array_add (stacks, g_strjoinv (";", (char **)frames));
          g_array_append_vals (values, v, 2);
          if (labelled)
            {
              g_ptr_array_add (prod_stacks, g_strjoinv (";", (char **)frames));
              g_array_append_vals (prod_values, v, 2);
            }
        }
      p = embers_profile_builder_finish (b, &error);
      g_assert_no_error (error);

      for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
        {
          g_autoptr(EmbersProfile) out = NULL;
          g_autoptr(EmbersProfile) out_prod = NULL;
          g_autofree char *expected = edited_folded (stacks, values, cases[c].edit);
          g_autofree char *expected_prod = edited_folded (prod_stacks, prod_values, cases[c].edit);
          g_autofree char *got = NULL;
          g_autofree char *got_prod = NULL;

          switch (cases[c].kind)
            {
            case 0: out = embers_transform_collapse_recursion (p, &error); break;
            case 1: out = embers_transform_hide (p, hide_c, &error); break;
            case 2: out = embers_transform_focus (p, "b", &error); break;
            case 4: out = embers_transform_drop_function (p, "d", &error); break;
            case 5: out = embers_transform_collapse_function_recursion (p, "a", &error); break;
            case 6: out = embers_transform_focus_subtree (p, (const char *[]) { "a", "b", NULL }, &error); break;
            case 7: out = embers_transform_merge_node (p, (const char *[]) { "a", "b", NULL }, &error); break;
            default: out = embers_transform_invert (p, &error); break;
            }
          g_assert_no_error (error);
          got = to_folded (out);
          g_assert_cmpstr (got, ==, expected);
          if (cases[c].kind != 2 && cases[c].kind != 6)
            check_no_empty_nodes (out);

          out_prod = filter (out, "{env=\"prod\"}");
          got_prod = to_folded (out_prod);
          g_assert_cmpstr (got_prod, ==, expected_prod);
        }
    }
}

/* Frame actions (the transform stack's) */

#define FIVE_STACKS "a;b;c 1\nx;b;d 2\nb 3\na;c 4\na;b;b;e 5\n"

static void
test_focus_subtree (void)
{
  g_autoptr(EmbersProfile) p = profile_from_lines (FIVE_STACKS, 1);
  g_autoptr(EmbersProfile) f = NULL;
  g_autoptr(EmbersProfile) none = NULL;
  g_autoptr(EmbersProfile) empty = NULL;
  GError *error = NULL;

  /* Only the stacks through the call node a;b, rooted at it: not x;b, not b */
  f = embers_transform_focus_subtree (p, (const char *[]) { "a", "b", NULL }, &error);
  g_assert_no_error (error);
  ASSERT_FOLDED (f, "b;b;e 5\nb;c 1");
  g_assert_cmpint (embers_profile_get_total (f, 0), ==, 6);

  none = embers_transform_focus_subtree (p, (const char *[]) { "a", "nope", NULL }, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (embers_profile_get_n_nodes (none), ==, 1);
  empty = embers_transform_focus_subtree (p, (const char *[]) { NULL }, &error);
  g_assert_no_error (error);
  g_assert_cmpint (embers_profile_get_total (empty, 0), ==, 0);
}

static void
test_merge_node (void)
{
  g_autoptr(EmbersProfile) p = profile_from_lines (FIVE_STACKS, 1);
  g_autoptr(EmbersProfile) h = NULL;
  GError *error = NULL;

  /* Only the call node a;b goes: its c merges with a's own c, the inner b
   * of a;b;b stays, and so do x;b and b */
  h = embers_transform_merge_node (p, (const char *[]) { "a", "b", NULL }, &error);
  g_assert_no_error (error);
  ASSERT_FOLDED (h, "a;b;e 5\na;c 5\nb 3\nx;b;d 2");
  g_assert_cmpint (embers_profile_get_total (h, 0), ==, 15);

  /* A path the profile lacks hides nothing */
  {
    g_autoptr(EmbersProfile) same = embers_transform_merge_node (p, (const char *[]) { "a", "nope", NULL }, &error);

    g_assert_no_error (error);
    ASSERT_FOLDED (same, "a;b;b;e 5\na;b;c 1\na;c 4\nb 3\nx;b;d 2");
  }
}

static void
test_merge_function (void)
{
  g_autoptr(EmbersProfile) p = profile_from_lines (FIVE_STACKS, 1);
  g_autoptr(EmbersProfile) m = NULL;
  g_autoptr(EmbersProfile) same = NULL;
  GError *error = NULL;

  /* Every b goes, recursion included; its self value goes to its caller
   * (here the root) */
  m = embers_transform_merge_function (p, "b", &error);
  g_assert_no_error (error);
  ASSERT_FOLDED (m, "(root) 3\na;c 5\na;e 5\nx;d 2");
  g_assert_cmpint (embers_profile_get_total (m, 0), ==, 15);

  same = embers_transform_merge_function (p, "nope", &error);
  g_assert_no_error (error);
  ASSERT_FOLDED (same, "a;b;b;e 5\na;b;c 1\na;c 4\nb 3\nx;b;d 2");
}

static void
test_drop_function (void)
{
  g_autoptr(EmbersProfile) p = profile_from_lines (FIVE_STACKS, 1);
  g_autoptr(EmbersProfile) d = NULL;
  g_autoptr(EmbersProfile) two = profile_from_lines ("a;b 10 3\na;c 5 7\nb;b 1 1\n", 2);
  g_autoptr(EmbersProfile) d2 = NULL;
  GError *error = NULL;

  /* The root loses b's total, 11, once although b recurses */
  d = embers_transform_drop_function (p, "b", &error);
  g_assert_no_error (error);
  ASSERT_FOLDED (d, "a;c 4");
  g_assert_cmpint (embers_profile_get_total (d, 0), ==, 15 - 11);

  /* Every column alike (a diff's two sides are two columns) */
  d2 = embers_transform_drop_function (two, "b", &error);
  g_assert_no_error (error);
  ASSERT_FOLDED (d2, "a;c 5 7");
}

static void
test_collapse_package (void)
{
  g_autoptr(EmbersProfile) p = profile_from_lines ("main.main;runtime.mallocgc;runtime.memclr 7\n"
                                                   "main.main;runtime.gcStart;main.cb;runtime.x 2\n"
                                                   "main.main 1\n"
                                                   "runtime.goexit;main.f 3\n", 1);
  g_autoptr(EmbersProfile) c = NULL;
  g_autoptr(EmbersProfile) m = NULL;
  GError *error = NULL;

  /* Each run of runtime frames is one "runtime" frame holding their self
   * values; main.cb between two runs keeps them apart */
  c = embers_transform_collapse_package (p, "runtime", &error);
  g_assert_no_error (error);
  ASSERT_FOLDED (c, "main.main 1\nmain.main;runtime 7\nmain.main;runtime;main.cb;runtime 2\nruntime;main.f 3");
  g_assert_cmpint (embers_profile_get_total (c, 0), ==, 13);

  /* main: the outermost frames, the callback between runtime frames */
  m = embers_transform_collapse_package (p, "main", &error);
  g_assert_no_error (error);
  ASSERT_FOLDED (m, "main 1\nmain;runtime.gcStart;main;runtime.x 2\nmain;runtime.mallocgc;runtime.memclr 7\n"
                    "runtime.goexit;main 3");
}

static void
test_collapse_function_recursion (void)
{
  g_autoptr(EmbersProfile) p = profile_from_lines ("f;g;f;h 1\nf;g 2\nf;f 3\na;f;g;f 4\n", 1);
  g_autoptr(EmbersProfile) c = NULL;
  GError *error = NULL;

  /* Inner f merges into the outermost f, indirect recursion too */
  c = embers_transform_collapse_function_recursion (p, "f", &error);
  g_assert_no_error (error);
  ASSERT_FOLDED (c, "a;f 4\nf 3\nf;g 2\nf;h 1");
  g_assert_cmpint (embers_profile_get_total (c, 0), ==, 10);
}

static EmbersProfile *
apply (EmbersTransformStack *stack,
       EmbersProfile        *p)
{
  GError *error = NULL;
  EmbersProfile *out = embers_transform_stack_apply (stack, p, NULL, &error);

  g_assert_no_error (error);
  return out;
}

static void
test_stack_order (void)
{
  g_autoptr(EmbersProfile) p = profile_from_lines (FIVE_STACKS, 1);
  g_autoptr(EmbersTransformStack) merge_first = embers_transform_stack_new ();
  g_autoptr(EmbersTransformStack) focus_first = embers_transform_stack_new ();
  g_autoptr(EmbersProfile) a = NULL;
  g_autoptr(EmbersProfile) b = NULL;
  g_autoptr(EmbersProfile) same = NULL;
  const char *merge_b[] = { "b", NULL };
  const char *path_ac[] = { "a", "c", NULL };

  /* Merging b first makes a;b;c part of a;c, so the focus holds 5; the
   * other way round it holds a;c's own 4 */
  g_assert_true (embers_transform_stack_push (merge_first, EMBERS_TRANSFORM_MERGE_FUNCTION, merge_b, NULL));
  g_assert_true (embers_transform_stack_push (merge_first, EMBERS_TRANSFORM_FOCUS_SUBTREE, path_ac, NULL));
  g_assert_true (embers_transform_stack_push (focus_first, EMBERS_TRANSFORM_FOCUS_SUBTREE, path_ac, NULL));
  g_assert_true (embers_transform_stack_push (focus_first, EMBERS_TRANSFORM_MERGE_FUNCTION, merge_b, NULL));
  a = apply (merge_first, p);
  b = apply (focus_first, p);
  ASSERT_FOLDED (a, "c 5");
  ASSERT_FOLDED (b, "c 4");
  g_assert_false (embers_transform_stack_equal (merge_first, focus_first));

  /* The empty stack is the profile itself */
  embers_transform_stack_clear (merge_first);
  same = apply (merge_first, p);
  g_assert_true (same == p);
}

static void
test_stack_remove_any (void)
{
  g_autoptr(EmbersProfile) p = profile_from_lines (FIVE_STACKS, 1);
  g_autoptr(EmbersTransformStack) three = embers_transform_stack_new ();
  g_autoptr(EmbersTransformStack) two = embers_transform_stack_new ();
  g_autoptr(EmbersProfile) x = NULL;
  g_autoptr(EmbersProfile) y = NULL;
  g_autofree char *fx = NULL;
  g_autofree char *fy = NULL;
  GError *error = NULL;

  g_assert_true (embers_transform_stack_push (three, EMBERS_TRANSFORM_DROP_FUNCTION, (const char *[]) { "d", NULL }, NULL));
  g_assert_true (embers_transform_stack_push (three, EMBERS_TRANSFORM_MERGE_FUNCTION, (const char *[]) { "a", NULL }, NULL));
  g_assert_true (embers_transform_stack_push (three, EMBERS_TRANSFORM_COLLAPSE_RECURSION, NULL, NULL));
  /* An equal step is refused */
  g_assert_false (embers_transform_stack_push (three, EMBERS_TRANSFORM_COLLAPSE_RECURSION, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS);
  g_clear_error (&error);
  g_assert_cmpint (embers_transform_stack_find (three, EMBERS_TRANSFORM_MERGE_FUNCTION,
                                                (const char *[]) { "a", NULL }), ==, 1);

  /* Removing the middle step: the others re-apply in their order */
  embers_transform_stack_remove (three, 1);
  g_assert_true (embers_transform_stack_push (two, EMBERS_TRANSFORM_DROP_FUNCTION, (const char *[]) { "d", NULL }, NULL));
  g_assert_true (embers_transform_stack_push (two, EMBERS_TRANSFORM_COLLAPSE_RECURSION, NULL, NULL));
  g_assert_true (embers_transform_stack_equal (three, two));
  x = apply (three, p);
  ASSERT_FOLDED (x, "a;b;c 1\na;b;e 5\na;c 4\nb 3");
  y = apply (two, p);
  fx = to_folded (x);
  fy = to_folded (y);
  g_assert_cmpstr (fx, ==, fy);

  /* A step pushed applies to the result so far alone: the same answer */
  {
    g_autoptr(EmbersTransformStack) one = embers_transform_stack_new ();
    g_autoptr(EmbersProfile) first = NULL;
    g_autoptr(EmbersProfile) rest = NULL;
    g_autofree char *frest = NULL;

    g_assert_true (embers_transform_stack_push (one, EMBERS_TRANSFORM_DROP_FUNCTION, (const char *[]) { "d", NULL }, NULL));
    g_assert_true (embers_transform_stack_is_prefix (one, two));
    g_assert_false (embers_transform_stack_is_prefix (two, one));
    g_assert_true (embers_transform_stack_is_prefix (two, two));
    first = apply (one, p);
    rest = embers_transform_stack_apply_from (two, 1, first, NULL, &error);
    g_assert_no_error (error);
    frest = to_folded (rest);
    g_assert_cmpstr (frest, ==, fy);
  }
}

static void
test_stack_serialize (void)
{
  g_autoptr(EmbersTransformStack) stack = embers_transform_stack_new ();
  g_autoptr(EmbersTransformStack) back = NULL;
  g_autoptr(EmbersTransformStack) from_variant = embers_transform_stack_new ();
  g_autoptr(JsonNode) json = NULL;
  GError *error = NULL;
  struct { const char *text; } bad[] = {
    { "{}" },
    { "[1]" },
    { "[{\"kind\": \"explode\", \"args\": [\"a\"]}]" },
    { "[{\"kind\": \"merge-function\"}]" },
    { "[{\"kind\": \"merge-function\", \"args\": [\"a\", \"b\"]}]" },
    { "[{\"kind\": \"merge-function\", \"args\": [\"\"]}]" },
    { "[{\"kind\": \"merge-function\", \"args\": [3]}]" },
    { "[{\"kind\": \"hide\", \"args\": []}]" },
    { "[{\"kind\": \"hide\", \"args\": \"a\"}]" },
    { "[{\"kind\": 7, \"args\": [\"a\"]}]" },
    { "[{\"kind\": \"drop-function\", \"args\": [\"a\"]}, {\"kind\": \"drop-function\", \"args\": [\"a\"]}]" },
  };

  g_assert_true (embers_transform_stack_push (stack, EMBERS_TRANSFORM_FOCUS_SUBTREE, (const char *[]) { "main", "a;b", NULL }, NULL));
  g_assert_true (embers_transform_stack_push (stack, EMBERS_TRANSFORM_COLLAPSE_PACKAGE, (const char *[]) { "net/http", NULL }, NULL));
  g_assert_true (embers_transform_stack_push (stack, EMBERS_TRANSFORM_COLLAPSE_RECURSION, (const char *[]) { "f", NULL }, NULL));
  g_assert_true (embers_transform_stack_push (stack, EMBERS_TRANSFORM_COLLAPSE_RECURSION, NULL, NULL));
  g_assert_true (embers_transform_stack_push (stack, EMBERS_TRANSFORM_HIDE, (const char *[]) { "é \"quoted\"", NULL }, NULL));

  json = embers_transform_stack_to_json (stack);
  back = embers_transform_stack_from_json (json, &error);
  g_assert_no_error (error);
  g_assert_true (embers_transform_stack_equal (stack, back));

  for (guint i = 0; i < embers_transform_stack_get_length (stack); i++)
    {
      g_autoptr(GVariant) v = g_variant_ref_sink (embers_transform_stack_step_to_variant (stack, i));

      g_assert_true (embers_transform_stack_push_variant (from_variant, v, &error));
      g_assert_no_error (error);
    }
  g_assert_true (embers_transform_stack_equal (stack, from_variant));

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(JsonNode) node = json_from_string (bad[i].text, NULL);
      g_autoptr(EmbersTransformStack) none = embers_transform_stack_from_json (node, &error);

      g_assert_null (none);
      g_assert_nonnull (error);
      g_clear_error (&error);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/embers/transforms/helper", test_root_stack_helper);
  g_test_add_func ("/embers/transforms/diff", test_diff);
  g_test_add_func ("/embers/transforms/focus", test_focus);
  g_test_add_func ("/embers/transforms/hide", test_hide);
  g_test_add_func ("/embers/transforms/collapse-recursion", test_collapse_recursion);
  g_test_add_func ("/embers/transforms/invert", test_invert);
  g_test_add_func ("/embers/transforms/focus-subtree", test_focus_subtree);
  g_test_add_func ("/embers/transforms/merge-node", test_merge_node);
  g_test_add_func ("/embers/transforms/merge-function", test_merge_function);
  g_test_add_func ("/embers/transforms/drop-function", test_drop_function);
  g_test_add_func ("/embers/transforms/collapse-package", test_collapse_package);
  g_test_add_func ("/embers/transforms/collapse-function-recursion", test_collapse_function_recursion);
  g_test_add_func ("/embers/transforms/stack-order", test_stack_order);
  g_test_add_func ("/embers/transforms/stack-remove-any", test_stack_remove_any);
  g_test_add_func ("/embers/transforms/stack-serialize", test_stack_serialize);
  g_test_add_func ("/embers/transforms/sandwich-callers", test_sandwich_callers);
  g_test_add_func ("/embers/transforms/types-and-metadata", test_multiple_types_and_metadata);
  g_test_add_func ("/embers/transforms/filter-labels", test_filter_labels);
  g_test_add_func ("/embers/transforms/labels-survive", test_labels_survive_transforms);
  g_test_add_func ("/embers/transforms/mixed-samples-and-self", test_mixed_samples_and_self);
  g_test_add_func ("/embers/transforms/deep-stack", test_deep_stack);
  g_test_add_func ("/embers/transforms/random-against-text", test_random_against_text);

  return g_test_run ();
}
