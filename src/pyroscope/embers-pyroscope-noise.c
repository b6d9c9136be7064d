/* embers-pyroscope-noise.c: the noise test of a comparison on a server
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "embers-diff.h"
#include "embers-pyroscope-noise.h"

typedef struct
{
  EmbersPyroscopeSource *source;
  EmbersDiffStats       *stats;
  EmbersQuery           *queries[2];
  double                 step_s[2];
  GHashTable            *steps[2];    /* timestamp -> step + 1 */
  GPtrArray             *call_sites;  /* GStrv */
  GPtrArray             *keys;        /* "a;b;c" */
  guint                  totals_left;
  guint                  next;        /* call site × side, as 2 i + side */
  guint                  in_flight;
  GError                *error;
} Job;

static void
job_free (Job *job)
{
  g_clear_object (&job->source);
  g_clear_object (&job->stats);
  for (guint s = 0; s < 2; s++)
    {
      g_clear_pointer (&job->queries[s], embers_query_free);
      g_clear_pointer (&job->steps[s], g_hash_table_unref);
    }
  g_clear_pointer (&job->call_sites, g_ptr_array_unref);
  g_clear_pointer (&job->keys, g_ptr_array_unref);
  g_clear_error (&job->error);
  g_free (job);
}

static void
keep_error (Job    *job,
            GError *error)
{
  if (job->error == NULL)
    job->error = error;
  else
    g_error_free (error);
}

static void
finish (GTask *task)
{
  Job *job = g_task_get_task_data (task);

  if (job->error != NULL)
    g_task_return_error (task, g_steal_pointer (&job->error));
  else
    g_task_return_pointer (task, g_object_ref (job->stats), g_object_unref);
  g_object_unref (task);
}

static void
compute_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  embers_diff_stats_compute (task_data);
  g_task_return_boolean (task, TRUE);
}

static void
computed (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  finish (user_data);
}

static void launch (GTask *task);

typedef struct
{
  GTask *task;
  guint  index;   /* 2 × call site + side */
} Call;

static void
site_done (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  Call *call = user_data;
  GTask *task = call->task;
  Job *job = g_task_get_task_data (task);
  guint side = call->index % 2;
  const char *key = g_ptr_array_index (job->keys, call->index / 2);
  g_autoptr(GPtrArray) series = NULL;
  GError *error = NULL;

  g_free (call);
  job->in_flight--;
  series = embers_source_select_series_finish (EMBERS_SOURCE (object), result, &error);
  if (series == NULL)
    keep_error (job, error);
  else if (job->error == NULL)
    for (guint i = 0; i < series->len; i++)
      {
        const EmbersSeries *s = g_ptr_array_index (series, i);

        for (guint j = 0; j < s->n_points; j++)
          {
            gpointer step = g_hash_table_lookup (job->steps[side], &s->timestamps[j]);

            if (step != NULL && isfinite (s->values[j]))
              embers_diff_stats_add_value (job->stats, side, GPOINTER_TO_UINT (step) - 1, key, s->values[j]);
          }
      }
  launch (task);
}

static void
launch (GTask *task)
{
  Job *job = g_task_get_task_data (task);
  guint n = job->call_sites->len * 2;

  if (job->error == NULL)
    g_cancellable_set_error_if_cancelled (g_task_get_cancellable (task), &job->error);
  while (job->error == NULL && job->in_flight < EMBERS_PYROSCOPE_SNAPSHOTS_IN_FLIGHT && job->next < n)
    {
      Call *call = g_new0 (Call, 1);

      call->task = task;
      call->index = job->next++;
      job->in_flight++;
      embers_pyroscope_source_select_call_site_series_async (job->source, job->queries[call->index % 2],
                                                             g_ptr_array_index (job->call_sites, call->index / 2),
                                                             NULL, job->step_s[call->index % 2],
                                                             g_task_get_cancellable (task), site_done, call);
    }
  if (job->in_flight > 0)
    return;
  if (job->error != NULL)
    {
      finish (task);
      return;
    }
  if (job->next < n)
    return;
  {
    GTask *thread = g_task_new (NULL, g_task_get_cancellable (task), computed, task);

    g_task_set_task_data (thread, g_object_ref (job->stats), g_object_unref);
    g_task_run_in_thread (thread, compute_thread);
    g_object_unref (thread);
  }
}

/* The call sites whose share changed most */
static void
pick_call_sites (Job           *job,
                 EmbersProfile *diff,
                 guint          max_sites)
{
  guint n = embers_profile_get_n_nodes (diff);
  double lt = (double)embers_profile_get_total (diff, EMBERS_DIFF_BASELINE);
  double rt = (double)embers_profile_get_total (diff, EMBERS_DIFF_COMPARISON);
  g_autoptr(GArray) candidates = g_array_new (FALSE, FALSE, sizeof (EmbersPyroscopeCandidate));

  for (guint32 i = 1; i < n; i++)
    {
      guint32 parent = embers_profile_node_parent (diff, i);
      gint64 l = embers_profile_node_total (diff, EMBERS_DIFF_BASELINE, i);
      gint64 r = embers_profile_node_total (diff, EMBERS_DIFF_COMPARISON, i);
      EmbersPyroscopeCandidate c = { i, fabs ((rt > 0 ? r / rt : 0) - (lt > 0 ? l / lt : 0)) };

      if (embers_profile_node_total (diff, EMBERS_DIFF_BASELINE, parent) == l &&
          embers_profile_node_total (diff, EMBERS_DIFF_COMPARISON, parent) == r)
        continue;
      g_array_append_val (candidates, c);
    }
  embers_pyroscope_candidates_sort (candidates, max_sites);

  for (guint i = 0; i < candidates->len; i++)
    {
      char *key = NULL;

      g_ptr_array_add (job->call_sites,
                       embers_pyroscope_call_site (diff, g_array_index (candidates, EmbersPyroscopeCandidate, i).node, &key));
      g_ptr_array_add (job->keys, key);
    }
}

typedef struct
{
  GTask *task;
  guint  side;
} Totals;

static void
totals_done (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  Totals *totals = user_data;
  GTask *task = totals->task;
  guint side = totals->side;
  Job *job = g_task_get_task_data (task);
  g_autoptr(GPtrArray) series = NULL;
  g_autoptr(GArray) points = NULL;
  GError *error = NULL;

  g_free (totals);
  series = embers_source_select_series_finish (EMBERS_SOURCE (object), result, &error);
  if (series == NULL)
    keep_error (job, error);
  else
    {
      /* One series without group_by: its points, in time order */
      for (guint i = 0; i < series->len; i++)
        {
          const EmbersSeries *s = g_ptr_array_index (series, i);

          for (guint j = 0; j < s->n_points; j++)
            {
              gint64 *key;
              guint step;

              if (!isfinite (s->values[j]) || g_hash_table_contains (job->steps[side], &s->timestamps[j]))
                continue;
              step = embers_diff_stats_add_step (job->stats, side, s->values[j], job->step_s[side]);
              key = g_new (gint64, 1);
              *key = s->timestamps[j];
              g_hash_table_insert (job->steps[side], key, GUINT_TO_POINTER (step + 1));
            }
        }
    }
  if (--job->totals_left > 0)
    return;
  if (job->error != NULL)
    {
      finish (task);
      return;
    }
  launch (task);
}

void
embers_pyroscope_diff_stats_async (EmbersPyroscopeSource *source,
                                   const EmbersQuery     *left,
                                   const EmbersQuery     *right,
                                   EmbersProfile         *diff,
                                   EmbersDiffStatsMode    mode,
                                   guint                  max_sites,
                                   GCancellable          *cancellable,
                                   GAsyncReadyCallback    callback,
                                   gpointer               user_data)
{
  GTask *task;
  Job *job;

  g_return_if_fail (EMBERS_IS_PYROSCOPE_SOURCE (source));
  g_return_if_fail (left != NULL && right != NULL);
  g_return_if_fail (EMBERS_IS_PROFILE (diff) && embers_profile_is_diff (diff));

  task = g_task_new (source, cancellable, callback, user_data);
  g_task_set_source_tag (task, embers_pyroscope_diff_stats_async);
  job = g_new0 (Job, 1);
  g_task_set_task_data (task, job, (GDestroyNotify)job_free);
  job->source = g_object_ref (source);
  job->stats = embers_diff_stats_new (mode, 0);
  embers_diff_stats_set_key (job->stats, EMBERS_DIFF_STATS_KEY_STACK);
  job->queries[0] = embers_query_copy (left);
  job->queries[1] = embers_query_copy (right);
  job->call_sites = g_ptr_array_new_with_free_func ((GDestroyNotify)g_strfreev);
  job->keys = g_ptr_array_new_with_free_func (g_free);
  pick_call_sites (job, diff, max_sites > 0 ? max_sites : EMBERS_PYROSCOPE_NOISE_DEFAULT_SITES);

  job->totals_left = 2;
  for (guint s = 0; s < 2; s++)
    {
      Totals *totals = g_new0 (Totals, 1);

      job->steps[s] = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
      job->step_s[s] = embers_source_step_for_range (job->queries[s]->start_ms, job->queries[s]->end_ms);
      totals->task = task;
      totals->side = s;
      embers_source_select_series (EMBERS_SOURCE (source), job->queries[s], NULL, job->step_s[s],
                                   EMBERS_AGGREGATION_SUM, 0, cancellable, totals_done, totals);
    }
}

EmbersDiffStats *
embers_pyroscope_diff_stats_finish (EmbersPyroscopeSource  *source,
                                    GAsyncResult           *result,
                                    GError                **error)
{
  g_return_val_if_fail (g_task_is_valid (result, source), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == embers_pyroscope_diff_stats_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
