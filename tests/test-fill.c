/* test-fill.c: filling in `other` frames with a call site's sub-answer
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "embers-diff.h"
#include "embers-fill.h"
#include "embers-profile-builder.h"
#include "embers-readers.h"

static EmbersProfile *
folded (const char *text)
{
  g_autoptr(GError) error = NULL;
  EmbersProfile *p = embers_folded_parse (text, strlen (text), &error);

  g_assert_no_error (error);
  g_assert_nonnull (p);
  return p;
}

/* Every node as "path total/self", in the profile's order */
static char *
dump (EmbersProfile *p)
{
  GString *out = g_string_new (NULL);

  for (guint32 i = 1; i < embers_profile_get_n_nodes (p); i++)
    {
      g_autofree char *stack = embers_profile_node_stack (p, i, ";");

      g_string_append_printf (out, "%s %" G_GINT64_FORMAT "/%" G_GINT64_FORMAT "\n", stack,
                              embers_profile_node_total (p, 0, i), embers_profile_node_self (p, 0, i));
    }
  return g_string_free (out, FALSE);
}

static int
compare_lines (const void *a,
               const void *b)
{
  return strcmp (*(char * const *) a, *(char * const *) b);
}

/* The same, sorted: equal trees whatever the order of siblings */
static char *
dump_sorted (EmbersProfile *p)
{
  g_autofree char *text = dump (p);
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);

  qsort (lines, g_strv_length (lines), sizeof (char *), compare_lines);
  return g_strjoinv ("\n", lines);
}

/* The children of the node at @path, in order, joined by "," */
static char *
children (EmbersProfile *p,
          const char    *path)
{
  g_auto(GStrv) site = path != NULL ? g_strsplit (path, ";", -1) : NULL;
  guint32 node = embers_fill_find (p, (const char * const *) site);
  g_autoptr(GPtrArray) names = g_ptr_array_new_null_terminated (0, NULL, TRUE);

  g_assert_cmpuint (node, !=, EMBERS_NODE_NONE);
  for (guint32 c = node + 1; c < embers_profile_node_end (p, node); c = embers_profile_node_end (p, c))
    g_ptr_array_add (names, (gpointer) embers_profile_node_name_str (p, c));
  return g_strjoinv (",", (char **) names->pdata);
}

/* Every frame's total in @before is the same in @after */
static void
assert_totals_kept (EmbersProfile *before,
                    EmbersProfile *after)
{
  for (guint32 i = 0; i < embers_profile_get_n_nodes (before); i++)
    {
      g_auto(GStrv) site = embers_fill_call_site (before, i);
      guint32 j;

      if (embers_fill_is_other (before, i))
        continue;
      j = embers_fill_find (after, (const char * const *) site);
      g_assert_cmpuint (j, !=, EMBERS_NODE_NONE);
      g_assert_cmpint (embers_profile_node_total (after, 0, j), ==, embers_profile_node_total (before, 0, i));
      g_assert_cmpint (embers_profile_node_self (after, 0, j), ==, embers_profile_node_self (before, 0, i));
    }
  g_assert_cmpint (embers_profile_get_total (after, 0), ==, embers_profile_get_total (before, 0));
}

static EmbersProfile *
merge (EmbersProfile *p,
       EmbersProfile *sub,
       guint          expect_added)
{
  g_autoptr(GError) error = NULL;
  guint added = G_MAXUINT;
  EmbersProfile *merged = embers_fill_merge (p, sub, &added, &error);

  g_assert_no_error (error);
  g_assert_nonnull (merged);
  g_assert_cmpuint (added, ==, expect_added);
  if (added == 0)
    g_assert_true (merged == p);
  assert_totals_kept (p, merged);
  return merged;
}

static void
test_call_site (void)
{
  g_autoptr(EmbersProfile) p = folded ("main;a;b 3\nmain;other 2\n");
  guint32 b, other;
  g_auto(GStrv) site = NULL;
  g_auto(GStrv) root = NULL;
  const char *path[] = { "main", "a", "b", NULL };
  const char *missing[] = { "main", "zz", NULL };
  gint64 value = 0;

  b = embers_fill_find (p, path);
  g_assert_cmpstr (embers_profile_node_name_str (p, b), ==, "b");
  site = embers_fill_call_site (p, b);
  g_assert_cmpstrv (site, path);
  root = embers_fill_call_site (p, 0);
  g_assert_cmpuint (g_strv_length (root), ==, 0);
  g_assert_cmpuint (embers_fill_find (p, NULL), ==, 0);
  g_assert_cmpuint (embers_fill_find (p, missing), ==, EMBERS_NODE_NONE);

  other = embers_fill_find (p, (const char *[]) { "main", "other", NULL });
  g_assert_true (embers_fill_is_other (p, other));
  g_assert_false (embers_fill_is_other (p, b));
  g_assert_false (embers_fill_is_other (p, 0));
  g_assert_cmpuint (embers_fill_count_other (p, &value), ==, 1);
  g_assert_cmpint (value, ==, 2);
}

/* The cut children come in where `other` was; what the sub-answer cut
 * too stays in a smaller `other` */
static void
test_basic (void)
{
  g_autoptr(EmbersProfile) p = folded ("main;a 30\nmain;other 20\nmain;z 1\nmain 5\n");
  /* Stacks through main, with more nodes: b and c;d were in other; the
   * sub-answer's own cut is 2 */
  g_autoptr(EmbersProfile) sub = folded ("main;a 30\nmain;b 12\nmain;c;d 6\nmain;other 2\nmain;z 1\nmain 5\n");
  g_autoptr(EmbersProfile) m = merge (p, sub, 3);
  g_autofree char *kids = children (m, "main");
  g_autofree char *text = dump_sorted (m);
  gint64 value = 0;

  g_assert_cmpstr (kids, ==, "a,b,c,other,z");
  g_assert_cmpstr (text, ==,
                   "\n"
                   "main 56/5\n"
                   "main;a 30/30\n"
                   "main;b 12/12\n"
                   "main;c 6/0\n"
                   "main;c;d 6/6\n"
                   "main;other 2/2\n"
                   "main;z 1/1");
  g_assert_cmpuint (embers_fill_count_other (m, &value), ==, 1);
  g_assert_cmpint (value, ==, 2);
}

/* All of it fits: no `other` is left */
static void
test_complete (void)
{
  g_autoptr(EmbersProfile) p = folded ("main;a 30\nmain;other 20\n");
  g_autoptr(EmbersProfile) sub = folded ("main;a 30\nmain;b 12\nmain;c 8\n");
  g_autoptr(EmbersProfile) m = merge (p, sub, 2);
  g_autofree char *kids = children (m, "main");

  g_assert_cmpstr (kids, ==, "a,b,c");
  g_assert_cmpuint (embers_fill_count_other (m, NULL), ==, 0);
}

/* An `other` below the root: the sub-answer is the whole query with a
 * larger budget (no call site) */
static void
test_root (void)
{
  g_autoptr(EmbersProfile) p = folded ("a 10\nother 5\n");
  g_autoptr(EmbersProfile) sub = folded ("a 10\nb 3\nc;d 2\n");
  g_autoptr(EmbersProfile) m = merge (p, sub, 3);
  g_autofree char *kids = children (m, NULL);

  g_assert_cmpstr (kids, ==, "a,b,c");
}

/* Nested: the sub-answer's own `other` deeper down comes in as it is and
 * can be filled by the next sub-answer, for its own call site */
static void
test_nested (void)
{
  g_autoptr(EmbersProfile) p = folded ("main;a 30\nmain;other 20\n");
  g_autoptr(EmbersProfile) sub1 = folded ("main;a 30\nmain;b;x 8\nmain;b;other 4\nmain;c 8\n");
  g_autoptr(EmbersProfile) m1 = merge (p, sub1, 4);
  g_autoptr(EmbersProfile) sub2 = folded ("main;b;x 8\nmain;b;y 3\nmain;b;w 1\n");
  g_autoptr(EmbersProfile) m2 = merge (m1, sub2, 2);
  g_autofree char *kids1 = children (m1, "main;b");
  g_autofree char *kids2 = children (m2, "main;b");
  g_autofree char *main2 = children (m2, "main");

  g_assert_cmpstr (kids1, ==, "other,x");
  /* siblings in name order, as the profile lays them out */
  g_assert_cmpstr (kids2, ==, "w,x,y");
  g_assert_cmpstr (main2, ==, "a,b,c");
  g_assert_cmpuint (embers_fill_count_other (m2, NULL), ==, 0);
  assert_totals_kept (p, m2);
}

/* The same sub-answer twice: nothing more; and a fill-in of a filled
 * profile leaves every total */
static void
test_idempotent (void)
{
  g_autoptr(EmbersProfile) p = folded ("main;a 30\nmain;other 20\nmain;q;other 7\nmain;q;r 1\n");
  g_autoptr(EmbersProfile) sub = folded ("main;a 30\nmain;b 12\nmain;c;other 6\nmain;other 2\n");
  g_autoptr(EmbersProfile) m1 = merge (p, sub, 3);
  g_autoptr(EmbersProfile) m2 = merge (m1, sub, 0);
  g_autofree char *d1 = dump (m1);
  g_autofree char *d2 = dump (m2);
  g_autofree char *q = children (m1, "main;q");

  g_assert_cmpstr (d1, ==, d2);
  /* main;q's other: the sub-answer has no q (it was cut there too) */
  g_assert_cmpstr (q, ==, "other,r");
}

/* A later answer with more than `other` held (the data moved on): only
 * what fits comes in, heaviest first; totals never change */
static void
test_drift (void)
{
  g_autoptr(EmbersProfile) p = folded ("main;a 30\nmain;other 20\n");
  g_autoptr(EmbersProfile) sub = folded ("main;a 31\nmain;b 25\nmain;c 10\nmain;d 8\nmain;e 1\n");
  g_autoptr(EmbersProfile) m = merge (p, sub, 3);
  g_autofree char *kids = children (m, "main");
  g_autofree char *text = dump_sorted (m);

  g_assert_cmpstr (kids, ==, "a,c,d,e,other");
  g_assert_true (strstr (text, "main;other 1/1") != NULL);
  g_assert_true (strstr (text, "main;a 30/30") != NULL);
}

/* A sub-answer through one call site leaves other branches alone */
static void
test_other_branch (void)
{
  g_autoptr(EmbersProfile) p = folded ("main;x;k 5\nmain;x;other 4\nmain;y;k 5\nmain;y;other 4\n");
  g_autoptr(EmbersProfile) sub = folded ("main;x;k 5\nmain;x;n 4\n");
  g_autoptr(EmbersProfile) m = merge (p, sub, 1);
  g_autofree char *x = children (m, "main;x");
  g_autofree char *y = children (m, "main;y");

  g_assert_cmpstr (x, ==, "k,n");
  g_assert_cmpstr (y, ==, "k,other");
}

static void
test_unlike (void)
{
  g_autoptr(EmbersProfile) p = folded ("main;other 2\n");
  g_autoptr(EmbersProfile) elsewhere = folded ("lib;x 1\n");
  g_autoptr(EmbersProfile) same = NULL;
  g_autoptr(EmbersProfile) two = NULL;
  g_autoptr(EmbersProfile) none = NULL;
  g_autoptr(EmbersProfileBuilder) b = embers_profile_builder_new ();
  g_autoptr(GError) error = NULL;
  gint64 values[2] = { 1, 2 };
  guint32 name;
  guint added = 7;

  /* Nothing of it is under a cut frame: the same profile */
  same = embers_fill_merge (p, elsewhere, &added, &error);
  g_assert_no_error (error);
  g_assert_true (same == p);
  g_assert_cmpuint (added, ==, 0);

  /* Other sample types: refused, nothing made */
  embers_profile_builder_add_sample_type (b, "cpu", "nanoseconds");
  embers_profile_builder_add_sample_type (b, "samples", "count");
  name = embers_profile_builder_intern (b, "main", -1);
  embers_profile_builder_add_stack (b, &name, 1, values, 0);
  two = embers_profile_builder_finish (b, &error);
  g_assert_no_error (error);
  none = embers_fill_merge (p, two, &added, &error);
  g_assert_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_INVALID);
  g_assert_null (none);
}

/* Folded text of @full as a server cuts it: the frames whose total is
 * under @threshold go, each cut subtree into `other` under its kept
 * parent (pkg/model/tree.go); with @site, only the stacks through it */
static char *
cut (EmbersProfile      *full,
     gint64              threshold,
     const char * const *site)
{
  GString *out = g_string_new (NULL);
  guint site_len = site != NULL ? g_strv_length ((char **) site) : 0;

  for (guint32 i = 1; i < embers_profile_get_n_nodes (full); i++)
    {
      g_auto(GStrv) path = NULL;
      gint64 self = embers_profile_node_self (full, 0, i);
      guint keep = 0, n;
      guint32 node;

      if (self == 0)
        continue;
      path = embers_fill_call_site (full, i);
      n = g_strv_length (path);
      if (n < site_len)
        continue;
      for (guint d = 0; d < site_len; d++)
        if (strcmp (path[d], site[d]) != 0)
          goto next;
      /* the kept prefix: frames down to the first one under the threshold
       * (the call site's own frames always stay) */
      for (guint d = 0; d < n; d++)
        {
          g_auto(GStrv) sub = g_new0 (char *, d + 2);

          for (guint k = 0; k <= d; k++)
            sub[k] = g_strdup (path[k]);
          node = embers_fill_find (full, (const char * const *) sub);
          if (embers_profile_node_total (full, 0, node) < threshold && d >= site_len)
            break;
          keep = d + 1;
        }
      for (guint d = 0; d < keep; d++)
        g_string_append_printf (out, "%s%s", d > 0 ? ";" : "", path[d]);
      if (keep < n)
        g_string_append_printf (out, "%s" EMBERS_FILL_OTHER, keep > 0 ? ";" : "");
      g_string_append_printf (out, " %" G_GINT64_FORMAT "\n", self);
    next:
      ;
    }
  return g_string_free (out, FALSE);
}

/* Random trees cut as a server cuts them, filled in from the answer under
 * one call site with a lower threshold: no total moves, every frame that
 * came in has its uncut total, and a second merge changes nothing */
static void
test_random (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (18);
  guint filled = 0;

  for (guint round = 0; round < 40; round++)
    {
      GString *text = g_string_new (NULL);
      g_autofree char *full_text = NULL, *main_text = NULL, *sub_text = NULL;
      g_autoptr(EmbersProfile) full = NULL, p = NULL, sub = NULL, m = NULL, again = NULL;
      g_autoptr(GError) error = NULL;
      g_auto(GStrv) site = NULL;
      guint32 other = EMBERS_NODE_NONE;
      gint64 total;
      guint added = 0;

      for (guint i = 0; i < 60; i++)
        {
          guint depth = g_rand_int_range (rand, 1, 6);

          for (guint d = 0; d < depth; d++)
            g_string_append_printf (text, "%sf%d", d > 0 ? ";" : "", g_rand_int_range (rand, 0, 4));
          g_string_append_printf (text, " %d\n", g_rand_int_range (rand, 1, 100));
        }
      full_text = g_string_free (text, FALSE);
      full = folded (full_text);
      total = embers_profile_get_total (full, 0);
      main_text = cut (full, total / 6, NULL);
      p = folded (main_text);
      g_assert_cmpint (embers_profile_get_total (p, 0), ==, total);

      /* The widest `other`, filled from its parent's call site */
      for (guint32 i = 1; i < embers_profile_get_n_nodes (p); i++)
        if (embers_fill_is_other (p, i) &&
            (other == EMBERS_NODE_NONE ||
             embers_profile_node_total (p, 0, i) > embers_profile_node_total (p, 0, other)))
          other = i;
      if (other == EMBERS_NODE_NONE)
        continue;
      site = embers_fill_call_site (p, embers_profile_node_parent (p, other));
      sub_text = cut (full, total / 40, (const char * const *) site);
      sub = folded (sub_text);

      m = embers_fill_merge (p, sub, &added, &error);
      g_assert_no_error (error);
      assert_totals_kept (p, m);
      filled += added > 0;
      for (guint32 i = 1; i < embers_profile_get_n_nodes (m); i++)
        {
          g_auto(GStrv) path = embers_fill_call_site (m, i);
          guint32 there;

          if (embers_fill_is_other (m, i))
            continue;
          there = embers_fill_find (full, (const char * const *) path);
          g_assert_cmpuint (there, !=, EMBERS_NODE_NONE);
          g_assert_cmpint (embers_profile_node_total (m, 0, i), ==, embers_profile_node_total (full, 0, there));
        }
      again = embers_fill_merge (m, sub, &added, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (added, ==, 0);
      g_assert_true (again == m);
    }
  g_test_message ("%u of 40 rounds filled something", filled);
  g_assert_cmpuint (filled, >=, 20);
}

static void
merged_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  EmbersProfile **out = user_data;
  g_autoptr(GError) error = NULL;
  guint added = 0;

  *out = embers_fill_merge_finish (result, &added, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (added, ==, 1);
}

static void
test_async (void)
{
  g_autoptr(EmbersProfile) p = folded ("main;a 3\nmain;other 2\n");
  g_autoptr(EmbersProfile) sub = folded ("main;a 3\nmain;b 2\n");
  g_autoptr(EmbersProfile) m = NULL;
  g_autofree char *kids = NULL;

  embers_fill_merge_async (p, sub, NULL, merged_cb, &m);
  while (m == NULL)
    g_main_context_iteration (NULL, TRUE);
  kids = children (m, "main");
  g_assert_cmpstr (kids, ==, "a,b");
}

static void
on_merged (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

static EmbersProfile *
merge_diff (EmbersProfile *diff,
            EmbersProfile *left,
            EmbersProfile *right,
            guint         *added)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  EmbersProfile *merged;

  embers_fill_merge_diff_async (diff, left, right, NULL, on_merged, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  merged = embers_fill_merge_finish (result, added, &error);
  g_assert_no_error (error);
  g_assert_nonnull (merged);
  return merged;
}

static gint64
column (EmbersProfile *p,
        const char    *path,
        guint          type)
{
  g_auto(GStrv) site = g_strsplit (path, ";", -1);
  guint32 node = embers_fill_find (p, (const char * const *) site);

  g_assert_cmpuint (node, !=, EMBERS_NODE_NONE);
  return embers_profile_node_total (p, type, node);
}

/* A comparison of two cut answers: each side's call-site answer fills its
 * column of `other`; both columns keep every total; a frame cut again on
 * one side leaves that side's `other` */
static void
test_diff (void)
{
  g_autoptr(EmbersProfile) left_cut = folded ("main;hot 50\nmain;other 27\n");
  g_autoptr(EmbersProfile) right_cut = folded ("main;hot 40\nmain;other 30\n");
  g_autoptr(EmbersProfile) left_site = folded ("main;hot 50\nmain;json 12\nmain;kafka 9\nmain;log 6\n");
  g_autoptr(EmbersProfile) right_site = folded ("main;hot 40\nmain;json 20\nmain;kafka 6\nmain;log 4\n");
  g_autoptr(EmbersProfile) right_cut_site = folded ("main;hot 40\nmain;json 20\nmain;other 10\n");
  g_autoptr(EmbersProfile) diff = NULL, filled = NULL, partly = NULL, again = NULL, refused = NULL;
  g_autoptr(GError) error = NULL;
  guint added = 0;

  diff = embers_diff_profiles (left_cut, 0, right_cut, 0, &error);
  g_assert_no_error (error);
  g_assert_true (embers_profile_is_diff (diff));

  filled = merge_diff (diff, left_site, right_site, &added);
  g_assert_cmpuint (added, ==, 3);
  g_assert_true (embers_profile_is_diff (filled));
  g_autofree char *kids = children (filled, "main");
  g_assert_true (strstr (kids, "json") != NULL && strstr (kids, "kafka") != NULL && strstr (kids, "log") != NULL);
  g_assert_null (strstr (kids, "other"));
  g_assert_cmpint (column (filled, "main;json", EMBERS_DIFF_BASELINE), ==, 12);
  g_assert_cmpint (column (filled, "main;json", EMBERS_DIFF_COMPARISON), ==, 20);
  g_assert_cmpint (column (filled, "main;log", EMBERS_DIFF_COMPARISON), ==, 4);
  for (guint t = 0; t < 2; t++)
    {
      g_assert_cmpint (embers_profile_get_total (filled, t), ==, embers_profile_get_total (diff, t));
      g_assert_cmpint (column (filled, "main", t), ==, column (diff, "main", t));
      g_assert_cmpint (column (filled, "main;hot", t), ==, column (diff, "main;hot", t));
    }

  /* The comparison's answer cut again: kafka and log come in with what
   * the baseline has of them; 10 of the comparison stays `other` */
  partly = merge_diff (diff, left_site, right_cut_site, &added);
  g_assert_cmpuint (added, ==, 3);
  g_assert_cmpint (column (partly, "main;other", EMBERS_DIFF_BASELINE), ==, 0);
  g_assert_cmpint (column (partly, "main;other", EMBERS_DIFF_COMPARISON), ==, 10);
  g_assert_cmpint (column (partly, "main;kafka", EMBERS_DIFF_BASELINE), ==, 9);
  g_assert_cmpint (column (partly, "main;kafka", EMBERS_DIFF_COMPARISON), ==, 0);
  for (guint t = 0; t < 2; t++)
    g_assert_cmpint (column (partly, "main", t), ==, column (diff, "main", t));

  /* Idempotent: the same answers again bring nothing */
  again = merge_diff (filled, left_site, right_site, &added);
  g_assert_cmpuint (added, ==, 0);
  g_assert_true (again == filled);

  /* A plain answer is no comparison's */
  refused = embers_fill_merge (diff, left_site, &added, &error);
  g_assert_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_UNSUPPORTED);
  g_assert_null (refused);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/embers/fill/call-site", test_call_site);
  g_test_add_func ("/embers/fill/basic", test_basic);
  g_test_add_func ("/embers/fill/complete", test_complete);
  g_test_add_func ("/embers/fill/root", test_root);
  g_test_add_func ("/embers/fill/nested", test_nested);
  g_test_add_func ("/embers/fill/idempotent", test_idempotent);
  g_test_add_func ("/embers/fill/drift", test_drift);
  g_test_add_func ("/embers/fill/other-branch", test_other_branch);
  g_test_add_func ("/embers/fill/unlike", test_unlike);
  g_test_add_func ("/embers/fill/random", test_random);
  g_test_add_func ("/embers/fill/async", test_async);
  g_test_add_func ("/embers/fill/diff", test_diff);

  return g_test_run ();
}
