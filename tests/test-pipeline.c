/* test-pipeline.c: hide, collapse, focus, top table, invert, sandwich, as
 * the profile view runs them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "embers-diff.h"
#include "embers-format.h"
#include "embers-pipeline.h"
#include "embers-top.h"

/* main → a → a → b (recursion), main → c → b, main → log */
#define FOLDED \
  "main;a;a;b 30\n" \
  "main;a 10\n" \
  "main;c;b 40\n" \
  "main;log 20\n"

static EmbersProfile *
load (const char *text)
{
  g_autoptr(GBytes) bytes = g_bytes_new (text, strlen (text));
  g_autoptr(GError) error = NULL;
  EmbersProfile *profile = embers_profile_load_bytes (bytes, NULL, &error);

  g_assert_no_error (error);
  return profile;
}

/* The node of a root-first path ("main;a;b"), or -1 */
static int
find_path (EmbersProfile *profile,
           const char    *path)
{
  g_auto(GStrv) parts = g_strsplit (path, ";", -1);
  guint n = embers_profile_get_n_nodes (profile);
  int parent = 0;  /* the root */

  for (guint p = 0; parts[p] != NULL; p++)
    {
      int found = -1;

      for (guint i = (guint) parent + 1; i < n; i++)
        if (embers_profile_node_parent (profile, i) == (guint32) parent &&
            g_str_equal (embers_profile_node_name_str (profile, i), parts[p]))
          {
            found = (int) i;
            break;
          }
      if (found < 0)
        return -1;
      parent = found;
    }
  return parent;
}

static const EmbersTopRow *
row_of (EmbersPipelineResult *r,
        const char           *name)
{
  for (guint i = 0; i < r->rows->len; i++)
    {
      const EmbersTopRow *row = &g_array_index (r->rows, EmbersTopRow, i);

      if (g_str_equal (embers_profile_get_string (r->table_profile, row->name), name))
        return row;
    }
  return NULL;
}

static EmbersPipelineResult *
run (EmbersProfile        *profile,
     EmbersPipelineParams *params)
{
  g_autoptr(GError) error = NULL;
  EmbersPipelineResult *r = embers_pipeline_run (profile, params, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (r);
  return r;
}

/* Nothing chosen: the profile as it is, its top table, the hottest */
static void
test_plain (void)
{
  g_autoptr(EmbersProfile) profile = load (FOLDED);
  g_autoptr(EmbersPipelineParams) params = embers_pipeline_params_new ();
  g_autoptr(EmbersPipelineResult) r = run (profile, params);

  g_assert_true (r->table_profile == profile);
  g_assert_true (r->view_profile == profile);
  g_assert_null (r->callers);
  g_assert_null (r->diff_rows);
  g_assert_nonnull (r->rows);
  /* b has the most self (70), and is the hottest */
  g_assert_cmpstr (r->hottest_function, ==, "b");
  g_assert_cmpint (row_of (r, "b")->self, ==, 70);
  g_assert_cmpint (row_of (r, "main")->total, ==, 100);
  /* recursion counted once */
  g_assert_cmpint (row_of (r, "a")->total, ==, 40);
}

/* Merge, then collapse, then focus: each on the one before; the table
 * follows them, the view too */
static void
test_hide_collapse_focus (void)
{
  g_autoptr(EmbersProfile) profile = load (FOLDED);
  g_autoptr(EmbersPipelineParams) params = embers_pipeline_params_new ();
  g_autoptr(EmbersPipelineResult) hidden = NULL;
  g_autoptr(EmbersPipelineResult) collapsed = NULL;
  g_autoptr(EmbersPipelineResult) focused = NULL;

  /* Merging "log" away (exact names: "lo" would merge nothing) */
  g_assert_true (embers_transform_stack_push (params->stack, EMBERS_TRANSFORM_MERGE_FUNCTION,
                                              (const char *[]) { "log", NULL }, NULL));
  g_assert_true (embers_transform_stack_push (params->stack, EMBERS_TRANSFORM_MERGE_FUNCTION,
                                              (const char *[]) { "lo", NULL }, NULL));
  hidden = run (profile, params);
  g_assert_null (row_of (hidden, "log"));
  g_assert_cmpint (find_path (hidden->view_profile, "main;log"), ==, -1);
  g_assert_cmpint (find_path (hidden->view_profile, "main;a;a;b"), >=, 0);

  g_assert_true (embers_transform_stack_push (params->stack, EMBERS_TRANSFORM_COLLAPSE_RECURSION, NULL, NULL));
  collapsed = run (profile, params);
  g_assert_cmpint (find_path (collapsed->view_profile, "main;a;a"), ==, -1);
  g_assert_cmpint (find_path (collapsed->view_profile, "main;a;b"), >=, 0);
  g_assert_cmpint (embers_profile_node_total (collapsed->view_profile, 0,
                                              (guint) find_path (collapsed->view_profile, "main;a;b")), ==, 30);

  g_assert_true (embers_transform_stack_push (params->stack, EMBERS_TRANSFORM_FOCUS_FUNCTION,
                                              (const char *[]) { "c", NULL }, NULL));
  focused = run (profile, params);
  g_assert_null (row_of (focused, "a"));
  g_assert_cmpint (row_of (focused, "b")->self, ==, 40);
  g_assert_cmpstr (focused->hottest_function, ==, "b");
}

/* Bottom-up: the view inverted, the table not */
static void
test_invert (void)
{
  g_autoptr(EmbersProfile) profile = load (FOLDED);
  g_autoptr(EmbersPipelineParams) params = embers_pipeline_params_new ();
  g_autoptr(EmbersPipelineResult) r = NULL;

  params->view = EMBERS_VIEW_BOTTOM_UP;
  r = run (profile, params);
  g_assert_true (r->table_profile == profile);
  g_assert_true (r->view_profile != profile);
  /* b's callers hang below it: b ← c ← main */
  g_assert_cmpint (find_path (r->view_profile, "b;c;main"), >=, 0);
  g_assert_cmpint (embers_profile_node_total (r->view_profile, 0, (guint) find_path (r->view_profile, "b")), ==, 70);
}

/* Sandwich: callers and callees of one function */
static void
test_sandwich (void)
{
  g_autoptr(EmbersProfile) profile = load (FOLDED);
  g_autoptr(EmbersPipelineParams) params = embers_pipeline_params_new ();
  g_autoptr(EmbersPipelineParams) copy = NULL;
  g_autoptr(EmbersPipelineResult) r = NULL;

  params->view = EMBERS_VIEW_SANDWICH;
  params->sandwich_function = g_strdup ("a");
  copy = embers_pipeline_params_copy (params);
  r = run (profile, copy);
  g_assert_nonnull (r->callers);
  g_assert_nonnull (r->callees);
  g_assert_true (r->view_profile == profile);
  /* a's callees, as focus gives them: the recursion kept, its total once */
  g_assert_cmpint (find_path (r->callees, "a;a;b"), >=, 0);
  g_assert_cmpint (embers_profile_node_total (r->callees, 0, (guint) find_path (r->callees, "a")), ==, 40);
  /* a's callers: main */
  g_assert_cmpint (find_path (r->callers, "a;main"), >=, 0);
}

/* A diff gets the diff table, and the function that grew most */
static void
test_diff (void)
{
  g_autoptr(EmbersProfile) before = load ("main;a 50\nmain;b 50\n");
  g_autoptr(EmbersProfile) after = load ("main;a 20\nmain;b 80\n");
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersProfile) diff = embers_diff_profiles (before, 0, after, 0, &error);
  g_autoptr(EmbersPipelineParams) params = embers_pipeline_params_new ();
  g_autoptr(EmbersPipelineResult) r = NULL;

  g_assert_no_error (error);
  r = run (diff, params);
  g_assert_null (r->rows);
  g_assert_nonnull (r->diff_rows);
  g_assert_cmpstr (r->hottest_function, ==, "b");
}

/* Errors and cancellation: a focus on a function that is not there, a
 * cancelled run, both on the worker thread too */
static void
on_done (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static void
test_errors (void)
{
  g_autoptr(EmbersProfile) profile = load (FOLDED);
  g_autoptr(EmbersPipelineParams) params = embers_pipeline_params_new ();
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  GAsyncResult *result = NULL;
  EmbersPipelineResult *r;

  /* Async, on the thread */
  embers_pipeline_run_async (profile, params, NULL, on_done, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  r = embers_pipeline_run_finish (result, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (r->hottest_function, ==, "b");
  embers_pipeline_result_free (r);
  g_clear_object (&result);

  g_cancellable_cancel (cancellable);
  embers_pipeline_run_async (profile, params, cancellable, on_done, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_null (embers_pipeline_run_finish (result, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);
  g_clear_object (&result);

  params->view = EMBERS_VIEW_SANDWICH;
  params->sandwich_function = g_strdup ("no-such-function");
  r = embers_pipeline_run (profile, params, NULL, &error);
  if (r == NULL)
    g_assert_nonnull (error);
  else
    {
      /* a function that is not there sandwiches nothing */
      g_assert_cmpint (embers_profile_get_total (r->callees, 0), ==, 0);
      embers_pipeline_result_free (r);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/embers/pipeline/plain", test_plain);
  g_test_add_func ("/embers/pipeline/hide-collapse-focus", test_hide_collapse_focus);
  g_test_add_func ("/embers/pipeline/invert", test_invert);
  g_test_add_func ("/embers/pipeline/sandwich", test_sandwich);
  g_test_add_func ("/embers/pipeline/diff", test_diff);
  g_test_add_func ("/embers/pipeline/errors", test_errors);

  return g_test_run ();
}
