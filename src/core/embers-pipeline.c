/* embers-pipeline.c: what a profile view shows
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "embers-diff.h"
#include "embers-layout.h"
#include "embers-pipeline.h"
#include "embers-top.h"
#include "embers-transforms.h"

EmbersPipelineParams *
embers_pipeline_params_new (void)
{
  EmbersPipelineParams *params = g_new0 (EmbersPipelineParams, 1);

  params->stack = embers_transform_stack_new ();
  return params;
}

EmbersPipelineParams *
embers_pipeline_params_copy (const EmbersPipelineParams *params)
{
  EmbersPipelineParams *copy;

  g_return_val_if_fail (params != NULL, NULL);

  copy = g_new0 (EmbersPipelineParams, 1);
  copy->stack = embers_transform_stack_copy (params->stack);
  copy->base = params->base != NULL ? g_object_ref (params->base) : NULL;
  copy->base_steps = params->base_steps;
  copy->view = params->view;
  copy->sandwich_function = g_strdup (params->sandwich_function);
  copy->sample_type = params->sample_type;
  return copy;
}

void
embers_pipeline_params_free (EmbersPipelineParams *params)
{
  if (params == NULL)
    return;
  embers_transform_stack_free (params->stack);
  g_clear_object (&params->base);
  g_free (params->sandwich_function);
  g_free (params);
}

void
embers_pipeline_result_free (EmbersPipelineResult *result)
{
  if (result == NULL)
    return;
  g_clear_object (&result->table_profile);
  g_clear_object (&result->view_profile);
  g_clear_object (&result->callers);
  g_clear_object (&result->callees);
  g_clear_pointer (&result->rows, g_array_unref);
  g_clear_pointer (&result->diff_rows, g_array_unref);
  g_free (result->hottest_function);
  g_free (result);
}

EmbersPipelineResult *
embers_pipeline_run (EmbersProfile               *profile,
                     const EmbersPipelineParams  *params,
                     GCancellable                *cancellable,
                     GError                     **error)
{
  g_autoptr(EmbersPipelineResult) r = NULL;
  g_autoptr(EmbersProfile) p = NULL;

  g_return_val_if_fail (EMBERS_IS_PROFILE (profile), NULL);
  g_return_val_if_fail (params != NULL, NULL);

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;

  if (params->base != NULL && params->base_steps <= embers_transform_stack_get_length (params->stack))
    p = embers_transform_stack_apply_from (params->stack, params->base_steps, params->base, cancellable, error);
  else
    p = embers_transform_stack_apply (params->stack, profile, cancellable, error);
  if (p == NULL)
    return NULL;
  r = g_new0 (EmbersPipelineResult, 1);

  r->table_profile = g_object_ref (p);
  /* A diff gets the diff table (baseline, comparison, change) instead */
  if (embers_profile_is_diff (p))
    {
      r->diff_rows = embers_diff_top_compute (p);
      if (r->diff_rows->len > 0)
        r->hottest_function = g_strdup (embers_profile_get_string (p, g_array_index (r->diff_rows,
                                                                                     EmbersDiffRow, 0).name));
    }
  else
    {
      r->rows = embers_top_compute (p, params->sample_type);
      if (r->rows->len > 0)
        r->hottest_function = g_strdup (embers_profile_get_string (p, g_array_index (r->rows,
                                                                                     EmbersTopRow, 0).name));
    }
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;

  switch (params->view)
    {
    case EMBERS_VIEW_BOTTOM_UP:
      r->view_profile = embers_transform_invert (p, error);
      if (r->view_profile == NULL)
        return NULL;
      break;
    case EMBERS_VIEW_SANDWICH:
      r->view_profile = g_object_ref (p);
      r->callers = embers_transform_sandwich_callers (p, params->sandwich_function, error);
      if (r->callers == NULL)
        return NULL;
      r->callees = embers_transform_sandwich_callees (p, params->sandwich_function, error);
      if (r->callees == NULL)
        return NULL;
      break;
    case EMBERS_VIEW_ICICLE:
    case EMBERS_VIEW_FLAME:
    default:
      r->view_profile = g_object_ref (p);
      break;
    }
  /* The graph's first layout then reads the big sibling lists made here */
  embers_layout_prepare (r->view_profile, params->sample_type);

  return g_steal_pointer (&r);
}

typedef struct
{
  EmbersProfile        *profile;
  EmbersPipelineParams *params;
} Job;

static void
job_free (Job *job)
{
  g_clear_object (&job->profile);
  embers_pipeline_params_free (job->params);
  g_free (job);
}

static void
run_thread (GTask        *task,
            gpointer      source_object,
            gpointer      task_data,
            GCancellable *cancellable)
{
  Job *job = task_data;
  GError *error = NULL;
  EmbersPipelineResult *result = embers_pipeline_run (job->profile, job->params, cancellable, &error);

  if (result == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, result, (GDestroyNotify) embers_pipeline_result_free);
}

void
embers_pipeline_run_async (EmbersProfile              *profile,
                           const EmbersPipelineParams *params,
                           GCancellable               *cancellable,
                           GAsyncReadyCallback         callback,
                           gpointer                    user_data)
{
  g_autoptr(GTask) task = NULL;
  Job *job;

  g_return_if_fail (EMBERS_IS_PROFILE (profile));
  g_return_if_fail (params != NULL);

  job = g_new0 (Job, 1);
  job->profile = g_object_ref (profile);
  job->params = embers_pipeline_params_copy (params);
  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, embers_pipeline_run_async);
  g_task_set_name (task, "[embers] view pipeline");
  g_task_set_task_data (task, job, (GDestroyNotify) job_free);
  g_task_run_in_thread (task, run_thread);
}

EmbersPipelineResult *
embers_pipeline_run_finish (GAsyncResult  *result,
                            GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_async_result_is_tagged (result, embers_pipeline_run_async), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
