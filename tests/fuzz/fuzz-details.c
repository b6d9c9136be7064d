/* fuzz-details.c: libFuzzer target for embers_function_details_new_from_pprof(),
 * the second reader of pprof bytes (a function's lines, read on demand).
 *
 * Hostile bytes either fail with a GError or give details whose lines add
 * up; when the main reader accepts the same bytes, the details of its
 * functions agree with what the tree says of them.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "fuzz-common.h"
#include "embers-function-details.h"

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  fuzz_init ();
  return 0;
}

static void
check_details (EmbersFunctionDetails *d)
{
  for (guint i = 0; i < d->lines->len; i++)
    {
      const EmbersLineCost *l = &g_array_index (d->lines, EmbersLineCost, i);

      if (l->line <= 0)
        fuzz_fail ("details: line %" G_GINT64_FORMAT " listed", l->line);
      if (i > 0 && g_array_index (d->lines, EmbersLineCost, i - 1).line >= l->line)
        fuzz_fail ("details: lines out of order");
    }
  if (d->file == NULL || !g_utf8_validate (d->name, -1, NULL))
    fuzz_fail ("details: no file or a bad name");
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersProfile) profile = NULL;
  g_autoptr(EmbersFunctionDetails) d = NULL;

  /* A name that may or may not be there */
  d = embers_function_details_new_from_pprof (data, size, "main", 0, NULL, &error);
  if (d == NULL)
    fuzz_check_error ("embers_function_details_new_from_pprof", error);
  else
    check_details (d);
  g_clear_pointer (&d, embers_function_details_unref);
  g_clear_error (&error);

  /* Over a view: every kind of step the stack knows */
  {
    g_autoptr(EmbersTransformStack) view = embers_transform_stack_new ();

    embers_transform_stack_push (view, EMBERS_TRANSFORM_DROP_FUNCTION, (const char *[]) { "drop", NULL }, NULL);
    embers_transform_stack_push (view, EMBERS_TRANSFORM_MERGE_FUNCTION, (const char *[]) { "merge", NULL }, NULL);
    embers_transform_stack_push (view, EMBERS_TRANSFORM_HIDE, (const char *[]) { "main", "hide", NULL }, NULL);
    embers_transform_stack_push (view, EMBERS_TRANSFORM_COLLAPSE_PACKAGE, (const char *[]) { "main", NULL }, NULL);
    embers_transform_stack_push (view, EMBERS_TRANSFORM_COLLAPSE_RECURSION, NULL, NULL);
    embers_transform_stack_push (view, EMBERS_TRANSFORM_COLLAPSE_RECURSION, (const char *[]) { "main", NULL }, NULL);
    d = embers_function_details_new_from_pprof_view (data, size, "main", 0, view, NULL, &error);
    if (d == NULL)
      fuzz_check_error ("embers_function_details_new_from_pprof_view", error);
    else
      check_details (d);
    g_clear_pointer (&d, embers_function_details_unref);
    g_clear_error (&error);
    embers_transform_stack_clear (view);
    embers_transform_stack_push (view, EMBERS_TRANSFORM_FOCUS_SUBTREE, (const char *[]) { "main", NULL }, NULL);
    embers_transform_stack_push (view, EMBERS_TRANSFORM_FOCUS_FUNCTION, (const char *[]) { "main", NULL }, NULL);
    d = embers_function_details_new_from_pprof_view (data, size, "main", 0, view, NULL, &error);
    if (d == NULL)
      fuzz_check_error ("embers_function_details_new_from_pprof_view", error);
    else
      check_details (d);
    g_clear_pointer (&d, embers_function_details_unref);
    g_clear_error (&error);
  }

  profile = embers_pprof_parse (data, size, NULL);
  if (profile == NULL || embers_profile_is_diff (profile))
    return 0;

  /* The first few functions of an accepted profile: the same totals as
   * the tree's, for every sample type */
  for (guint32 node = 1; node < MIN (embers_profile_get_n_nodes (profile), 4); node++)
    for (guint t = 0; t < embers_profile_get_n_sample_types (profile); t++)
      {
        const char *name = embers_profile_node_name_str (profile, node);
        g_autoptr(EmbersFunctionDetails) tree = embers_function_details_new_from_profile (profile, name, t);

        d = embers_function_details_new_from_pprof (data, size, name, t, NULL, &error);
        if (d == NULL)
          fuzz_fail ("details of %s failed on a profile the reader accepts: %s", name, error->message);
        check_details (d);
        if (d->total != tree->total || d->self != tree->self)
          fuzz_fail ("details of %s: self %" G_GINT64_FORMAT " total %" G_GINT64_FORMAT
                     ", the tree says %" G_GINT64_FORMAT " %" G_GINT64_FORMAT,
                     name, d->self, d->total, tree->self, tree->total);
        g_clear_pointer (&d, embers_function_details_unref);
      }
  return 0;
}
