/* embers-over-time.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>

#include "embers-over-time.h"

void
embers_over_time_free (EmbersOverTime *self)
{
  if (self == NULL)
    return;
  g_clear_pointer (&self->value, g_ptr_array_unref);
  g_clear_pointer (&self->total, g_ptr_array_unref);
  g_clear_pointer (&self->share, g_ptr_array_unref);
  g_free (self);
}

static double
value_at (const EmbersSeries *series,
          gint64              t,
          gboolean           *found)
{
  *found = FALSE;
  for (guint i = 0; series != NULL && i < series->n_points; i++)
    if (series->timestamps[i] == t)
      {
        *found = TRUE;
        return series->values[i];
      }
  return 0;
}

EmbersSeries *
embers_over_time_share (const EmbersSeries *part,
                        const EmbersSeries *whole)
{
  EmbersSeries *share = embers_series_new ();
  guint n = 0;

  if (whole == NULL)
    return share;
  share->timestamps = g_new (gint64, MAX (whole->n_points, 1));
  share->values = g_new (double, MAX (whole->n_points, 1));
  for (guint i = 0; i < whole->n_points; i++)
    {
      gboolean found;
      double v = value_at (part, whole->timestamps[i], &found);

      if (!(whole->values[i] > 0))
        continue;
      share->timestamps[n] = whole->timestamps[i];
      share->values[n] = 100.0 * v / whole->values[i];
      n++;
    }
  share->n_points = n;
  return share;
}

/* Both requests; the task returns when both have answered */
typedef struct
{
  GPtrArray *value;
  GPtrArray *total;
  GError    *error;
  guint      pending;
} Fetch;

static void
fetch_free (Fetch *f)
{
  g_clear_pointer (&f->value, g_ptr_array_unref);
  g_clear_pointer (&f->total, g_ptr_array_unref);
  g_clear_error (&f->error);
  g_free (f);
}

/* The one series of an answer without group-by (all summed, should a
 * source split it) */
static const EmbersSeries *
only_series (GPtrArray *array)
{
  return array != NULL && array->len > 0 ? g_ptr_array_index (array, 0) : NULL;
}

static void
fetch_finish_one (GTask *task)
{
  Fetch *f = g_task_get_task_data (task);
  EmbersOverTime *answer;
  const EmbersSeries *value, *total;
  double sum_value = 0, sum_total = 0;

  if (--f->pending > 0)
    return;
  if (f->error != NULL)
    {
      g_task_return_error (task, g_steal_pointer (&f->error));
      g_object_unref (task);
      return;
    }

  answer = g_new0 (EmbersOverTime, 1);
  answer->value = g_steal_pointer (&f->value);
  answer->total = g_steal_pointer (&f->total);
  answer->share = g_ptr_array_new_with_free_func ((GDestroyNotify) embers_series_free);
  value = only_series (answer->value);
  total = only_series (answer->total);
  answer->mean_share = NAN;
  answer->peak_share = NAN;
  if (total != NULL)
    {
      EmbersSeries *share = embers_over_time_share (value, total);

      for (guint i = 0; i < total->n_points; i++)
        sum_total += total->values[i];
      for (guint i = 0; value != NULL && i < value->n_points; i++)
        sum_value += value->values[i];
      if (sum_total > 0)
        answer->mean_share = 100.0 * sum_value / sum_total;
      for (guint i = 0; i < share->n_points; i++)
        if (isnan (answer->peak_share) || share->values[i] > answer->peak_share)
          {
            answer->peak_share = share->values[i];
            answer->peak_ms = share->timestamps[i];
          }
      g_ptr_array_add (answer->share, share);
    }
  g_task_return_pointer (task, answer, (GDestroyNotify) embers_over_time_free);
  g_object_unref (task);
}

static void
value_done (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  GTask *task = user_data;
  Fetch *f = g_task_get_task_data (task);
  GError *error = NULL;

  f->value = embers_source_select_call_site_series_finish (EMBERS_SOURCE (object), result, &error);
  if (error != NULL && f->error == NULL)
    f->error = error;
  else
    g_clear_error (&error);
  fetch_finish_one (task);
}

static void
total_done (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  GTask *task = user_data;
  Fetch *f = g_task_get_task_data (task);
  GError *error = NULL;

  f->total = embers_source_select_series_finish (EMBERS_SOURCE (object), result, &error);
  if (error != NULL && f->error == NULL)
    f->error = error;
  else
    g_clear_error (&error);
  fetch_finish_one (task);
}

void
embers_over_time_fetch_async (EmbersSource        *source,
                              const EmbersQuery   *query,
                              const char * const  *call_site,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  GTask *task;
  Fetch *f;

  g_return_if_fail (EMBERS_IS_SOURCE (source));
  g_return_if_fail (query != NULL);
  g_return_if_fail (call_site != NULL && call_site[0] != NULL);

  task = g_task_new (source, cancellable, callback, user_data);
  g_task_set_source_tag (task, embers_over_time_fetch_async);
  f = g_new0 (Fetch, 1);
  f->pending = 2;
  g_task_set_task_data (task, f, (GDestroyNotify) fetch_free);

  /* Each callback holds the task once; the last one returns it */
  embers_source_select_call_site_series (source, query, call_site, NULL, cancellable, value_done, task);
  embers_source_select_chart_series (source, query, NULL, EMBERS_AGGREGATION_SUM, 0,
                                     cancellable, total_done, task);
}

EmbersOverTime *
embers_over_time_fetch_finish (EmbersSource  *source,
                               GAsyncResult  *result,
                               GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, source), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == embers_over_time_fetch_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
