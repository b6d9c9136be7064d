/* embers-source.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <glib/gi18n.h>

#include "embers-source.h"

G_DEFINE_QUARK (embers-source-error-quark, embers_source_error)

G_DEFINE_INTERFACE (EmbersSource, embers_source, G_TYPE_OBJECT)

G_DEFINE_BOXED_TYPE (EmbersProfileTypeInfo, embers_profile_type_info,
                     embers_profile_type_info_copy, embers_profile_type_info_free)
G_DEFINE_BOXED_TYPE (EmbersQuery, embers_query, embers_query_copy, embers_query_free)
G_DEFINE_BOXED_TYPE (EmbersSeries, embers_series, embers_series_copy, embers_series_free)

static void
embers_source_default_init (EmbersSourceInterface *iface)
{
}

/**
 * embers_profile_type_info_new:
 * @id: "name:sample_type:sample_unit:period_type:period_unit"
 *
 * Returns: (nullable): the parsed type, or %NULL when @id does not have
 *   five (or six) colon-separated parts with a name, sample type and unit
 */
EmbersProfileTypeInfo *
embers_profile_type_info_new (const char *id)
{
  g_auto(GStrv) parts = NULL;
  EmbersProfileTypeInfo *info;
  guint n;

  g_return_val_if_fail (id != NULL, NULL);

  parts = g_strsplit (id, ":", -1);
  n = g_strv_length (parts);
  if (n != 5 && n != 6)
    return NULL;
  if (parts[0][0] == '\0' || parts[1][0] == '\0' || parts[2][0] == '\0')
    return NULL;

  info = g_new0 (EmbersProfileTypeInfo, 1);
  info->id = g_strdup (id);
  info->name = g_strdup (parts[0]);
  info->sample_type = g_strdup (parts[1]);
  info->sample_unit = g_strdup (parts[2]);
  info->period_type = g_strdup (parts[3]);
  info->period_unit = g_strdup (parts[4]);

  return info;
}

EmbersProfileTypeInfo *
embers_profile_type_info_copy (const EmbersProfileTypeInfo *info)
{
  EmbersProfileTypeInfo *copy;

  g_return_val_if_fail (info != NULL, NULL);

  copy = g_new0 (EmbersProfileTypeInfo, 1);
  copy->id = g_strdup (info->id);
  copy->name = g_strdup (info->name);
  copy->sample_type = g_strdup (info->sample_type);
  copy->sample_unit = g_strdup (info->sample_unit);
  copy->period_type = g_strdup (info->period_type);
  copy->period_unit = g_strdup (info->period_unit);

  return copy;
}

void
embers_profile_type_info_free (EmbersProfileTypeInfo *info)
{
  if (info == NULL)
    return;

  g_free (info->id);
  g_free (info->name);
  g_free (info->sample_type);
  g_free (info->sample_unit);
  g_free (info->period_type);
  g_free (info->period_unit);
  g_free (info);
}

EmbersQuery *
embers_query_new (const char *profile_type,
                  const char *label_selector,
                  gint64      start_ms,
                  gint64      end_ms)
{
  EmbersQuery *query = g_new0 (EmbersQuery, 1);

  query->profile_type = g_strdup (profile_type);
  query->label_selector = g_strdup (label_selector != NULL && label_selector[0] ? label_selector : "{}");
  query->start_ms = start_ms;
  query->end_ms = end_ms;

  return query;
}

EmbersQuery *
embers_query_copy (const EmbersQuery *query)
{
  EmbersQuery *copy;

  g_return_val_if_fail (query != NULL, NULL);

  copy = embers_query_new (query->profile_type, query->label_selector, query->start_ms, query->end_ms);
  copy->max_nodes = query->max_nodes;
  copy->profile_ids = g_strdupv (query->profile_ids);

  return copy;
}

void
embers_query_free (EmbersQuery *query)
{
  if (query == NULL)
    return;

  g_free (query->profile_type);
  g_free (query->label_selector);
  g_strfreev (query->profile_ids);
  g_free (query);
}

EmbersSeries *
embers_series_new (void)
{
  EmbersSeries *series = g_new0 (EmbersSeries, 1);

  series->label_names = g_new0 (char *, 1);
  series->label_values = g_new0 (char *, 1);

  return series;
}

static gpointer
copy_exemplar (gconstpointer src,
               gpointer      user_data)
{
  return embers_exemplar_copy (src);
}

EmbersSeries *
embers_series_copy (const EmbersSeries *series)
{
  EmbersSeries *copy;

  g_return_val_if_fail (series != NULL, NULL);

  copy = g_new0 (EmbersSeries, 1);
  copy->label_names = g_strdupv (series->label_names);
  copy->label_values = g_strdupv (series->label_values);
  copy->n_points = series->n_points;
  copy->timestamps = g_memdup2 (series->timestamps, sizeof (gint64) * series->n_points);
  copy->values = g_memdup2 (series->values, sizeof (double) * series->n_points);
  if (series->exemplars != NULL)
    copy->exemplars = g_ptr_array_copy (series->exemplars, copy_exemplar, NULL);

  return copy;
}

void
embers_series_free (EmbersSeries *series)
{
  if (series == NULL)
    return;

  g_strfreev (series->label_names);
  g_strfreev (series->label_values);
  g_free (series->timestamps);
  g_free (series->values);
  g_clear_pointer (&series->exemplars, g_ptr_array_unref);
  g_free (series);
}

EmbersExemplar *
embers_exemplar_new (guint       point,
                     gint64      timestamp_ms,
                     const char *profile_id,
                     gint64      value)
{
  EmbersExemplar *exemplar = g_new0 (EmbersExemplar, 1);

  exemplar->point = point;
  exemplar->timestamp_ms = timestamp_ms;
  exemplar->profile_id = g_strdup (profile_id != NULL ? profile_id : "");
  exemplar->value = value;
  exemplar->label_names = g_new0 (char *, 1);
  exemplar->label_values = g_new0 (char *, 1);

  return exemplar;
}

EmbersExemplar *
embers_exemplar_copy (const EmbersExemplar *exemplar)
{
  EmbersExemplar *copy;

  g_return_val_if_fail (exemplar != NULL, NULL);

  copy = embers_exemplar_new (exemplar->point, exemplar->timestamp_ms, exemplar->profile_id, exemplar->value);
  g_strfreev (copy->label_names);
  g_strfreev (copy->label_values);
  copy->label_names = g_strdupv (exemplar->label_names);
  copy->label_values = g_strdupv (exemplar->label_values);

  return copy;
}

void
embers_exemplar_free (EmbersExemplar *exemplar)
{
  if (exemplar == NULL)
    return;

  g_free (exemplar->profile_id);
  g_strfreev (exemplar->label_names);
  g_strfreev (exemplar->label_values);
  g_free (exemplar);
}

static int
compare_exemplars_by_weight (gconstpointer a,
                             gconstpointer b)
{
  const EmbersExemplar *x = *(EmbersExemplar * const *) a;
  const EmbersExemplar *y = *(EmbersExemplar * const *) b;

  if (x->value != y->value)
    return x->value > y->value ? -1 : 1;
  if (x->timestamp_ms != y->timestamp_ms)
    return x->timestamp_ms < y->timestamp_ms ? -1 : 1;
  return g_strcmp0 (x->profile_id, y->profile_id);
}

/**
 * embers_source_top_exemplars:
 * @series: (element-type EmbersSeries): series with exemplars
 * @max: how many at most
 *
 * Returns: (transfer container) (element-type EmbersExemplar): the
 *   heaviest exemplars of all points, heaviest first, borrowed from @series
 */
GPtrArray *
embers_source_top_exemplars (GPtrArray *series,
                             guint      max)
{
  GPtrArray *all = g_ptr_array_new ();

  for (guint i = 0; series != NULL && i < series->len; i++)
    {
      EmbersSeries *s = g_ptr_array_index (series, i);

      for (guint j = 0; s->exemplars != NULL && j < s->exemplars->len; j++)
        g_ptr_array_add (all, g_ptr_array_index (s->exemplars, j));
    }
  g_ptr_array_sort (all, compare_exemplars_by_weight);
  if (all->len > max)
    g_ptr_array_set_size (all, max);

  return all;
}

const char *
embers_series_get_label (const EmbersSeries *series,
                         const char         *name)
{
  g_return_val_if_fail (series != NULL, NULL);
  g_return_val_if_fail (name != NULL, NULL);

  for (guint i = 0; series->label_names && series->label_names[i]; i++)
    {
      if (g_str_equal (series->label_names[i], name))
        return series->label_values[i];
    }

  return NULL;
}

EmbersSourceCapabilities
embers_source_get_capabilities (EmbersSource *self)
{
  EmbersSourceInterface *iface;

  g_return_val_if_fail (EMBERS_IS_SOURCE (self), 0);

  iface = EMBERS_SOURCE_GET_IFACE (self);
  return iface->get_capabilities ? iface->get_capabilities (self) : 0;
}

char *
embers_source_dup_display_name (EmbersSource *self)
{
  EmbersSourceInterface *iface;

  g_return_val_if_fail (EMBERS_IS_SOURCE (self), NULL);

  iface = EMBERS_SOURCE_GET_IFACE (self);
  return iface->dup_display_name ? iface->dup_display_name (self) : g_strdup (G_OBJECT_TYPE_NAME (self));
}

static void
report_not_supported (EmbersSource        *self,
                      gpointer             source_tag,
                      GAsyncReadyCallback  callback,
                      gpointer             user_data)
{
  g_autofree char *name = embers_source_dup_display_name (self);

  g_task_report_new_error (self, callback, user_data, source_tag,
                           EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_NOT_SUPPORTED,
                           _("%s cannot answer this query"), name);
}

/* Pyroscope's UI asks for max(15, ⌈range_s / 100⌉) seconds; that step is
 * rounded up to the next of these, so that a step holds the same number
 * of 15 s scrape intervals everywhere (36 s steps held 2 or 3 profiles in
 * turn and every chart zigzagged) and lands on round times */
static const guint nice_steps_s[] = {
  15, 30, 60, 2 * 60, 5 * 60, 10 * 60, 15 * 60, 30 * 60,
  3600, 2 * 3600, 3 * 3600, 6 * 3600, 12 * 3600, 86400,
};

double
embers_source_step_for_range (gint64 start_ms,
                              gint64 end_ms)
{
  double range_s = (double)MAX (0, end_ms - start_ms) / 1000.0;
  double raw = MAX (15.0, ceil (range_s / 100.0));

  for (guint i = 0; i < G_N_ELEMENTS (nice_steps_s); i++)
    if (raw <= nice_steps_s[i])
      return nice_steps_s[i];
  /* Whole days beyond */
  return ceil (raw / 86400.0) * 86400.0;
}

static gint64
step_ms_of (double step_s)
{
  return MAX ((gint64)1, (gint64)llround (step_s * 1000.0));
}

guint
embers_source_series_n_points (gint64 start_ms,
                               gint64 end_ms,
                               double step_s)
{
  gint64 step_ms = step_ms_of (step_s);

  if (end_ms <= start_ms)
    return 1;
  return (guint)MIN ((end_ms - start_ms + step_ms - 1) / step_ms, (gint64)G_MAXINT32);
}

gint64
embers_source_series_first_point (gint64 start_ms,
                                  gint64 end_ms,
                                  double step_s)
{
  return end_ms - (gint64)(embers_source_series_n_points (start_ms, end_ms, step_s) - 1) * step_ms_of (step_s);
}

void
embers_source_select_chart_series (EmbersSource        *self,
                                   const EmbersQuery   *query,
                                   const char * const  *group_by,
                                   EmbersAggregation    aggregation,
                                   gint64               limit,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  g_autoptr(EmbersQuery) copy = NULL;
  double step_s;

  g_return_if_fail (EMBERS_IS_SOURCE (self));
  g_return_if_fail (query != NULL);

  step_s = embers_source_step_for_range (query->start_ms, query->end_ms);
  copy = embers_query_copy (query);
  if (query->end_ms > query->start_ms)
    copy->start_ms = embers_source_series_first_point (query->start_ms, query->end_ms, step_s);
  /* Every source reads the query before this returns */
  embers_source_select_series (self, copy, group_by, step_s, aggregation, limit,
                               cancellable, callback, user_data);
}

void
embers_source_select_exemplars (EmbersSource        *self,
                                const EmbersQuery   *query,
                                const char * const  *group_by,
                                double               step_s,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  EmbersSourceInterface *iface;

  g_return_if_fail (EMBERS_IS_SOURCE (self));
  g_return_if_fail (query != NULL);

  iface = EMBERS_SOURCE_GET_IFACE (self);
  if (iface->select_exemplars == NULL)
    {
      report_not_supported (self, embers_source_select_exemplars, callback, user_data);
      return;
    }
  iface->select_exemplars (self, query, group_by, step_s, cancellable, callback, user_data);
}

void
embers_source_select_chart_exemplars (EmbersSource        *self,
                                      const EmbersQuery   *query,
                                      GCancellable        *cancellable,
                                      GAsyncReadyCallback  callback,
                                      gpointer             user_data)
{
  g_autoptr(EmbersQuery) copy = NULL;
  double step_s;

  g_return_if_fail (EMBERS_IS_SOURCE (self));
  g_return_if_fail (query != NULL);

  step_s = embers_source_step_for_range (query->start_ms, query->end_ms);
  copy = embers_query_copy (query);
  if (query->end_ms > query->start_ms)
    copy->start_ms = embers_source_series_first_point (query->start_ms, query->end_ms, step_s);
  /* Every source reads the query before this returns */
  embers_source_select_exemplars (self, copy, NULL, step_s, cancellable, callback, user_data);
}

GPtrArray *
embers_source_select_exemplars_finish (EmbersSource  *self,
                                       GAsyncResult  *result,
                                       GError       **error)
{
  g_return_val_if_fail (EMBERS_IS_SOURCE (self), NULL);

  if (g_async_result_is_tagged (result, embers_source_select_exemplars))
    return g_task_propagate_pointer (G_TASK (result), error);

  return EMBERS_SOURCE_GET_IFACE (self)->select_exemplars_finish (self, result, error);
}

void
embers_source_list_profile_types (EmbersSource *self,
                      gint64 start_ms,
                      gint64 end_ms,
                      GCancellable *cancellable,
                      GAsyncReadyCallback callback,
                      gpointer user_data)
{
  EmbersSourceInterface *iface;

  g_return_if_fail (EMBERS_IS_SOURCE (self));

  iface = EMBERS_SOURCE_GET_IFACE (self);
  if (iface->list_profile_types == NULL)
    {
      report_not_supported (self, embers_source_list_profile_types, callback, user_data);
      return;
    }

  iface->list_profile_types (self, start_ms, end_ms, cancellable, callback, user_data);
}

GPtrArray *
embers_source_list_profile_types_finish (EmbersSource *self,
                      GAsyncResult *result,
                      GError **error)
{
  g_return_val_if_fail (EMBERS_IS_SOURCE (self), NULL);

  if (g_async_result_is_tagged (result, embers_source_list_profile_types))
    return g_task_propagate_pointer (G_TASK (result), error);

  return EMBERS_SOURCE_GET_IFACE (self)->list_profile_types_finish (self, result, error);
}

void
embers_source_list_label_names (EmbersSource *self,
                      const char * const *matchers,
                      gint64 start_ms,
                      gint64 end_ms,
                      GCancellable *cancellable,
                      GAsyncReadyCallback callback,
                      gpointer user_data)
{
  EmbersSourceInterface *iface;

  g_return_if_fail (EMBERS_IS_SOURCE (self));

  iface = EMBERS_SOURCE_GET_IFACE (self);
  if (iface->list_label_names == NULL)
    {
      report_not_supported (self, embers_source_list_label_names, callback, user_data);
      return;
    }

  iface->list_label_names (self, matchers, start_ms, end_ms, cancellable, callback, user_data);
}

GStrv
embers_source_list_label_names_finish (EmbersSource *self,
                      GAsyncResult *result,
                      GError **error)
{
  g_return_val_if_fail (EMBERS_IS_SOURCE (self), NULL);

  if (g_async_result_is_tagged (result, embers_source_list_label_names))
    return g_task_propagate_pointer (G_TASK (result), error);

  return EMBERS_SOURCE_GET_IFACE (self)->list_label_names_finish (self, result, error);
}

void
embers_source_list_label_values (EmbersSource *self,
                      const char *name,
                      const char * const *matchers,
                      gint64 start_ms,
                      gint64 end_ms,
                      GCancellable *cancellable,
                      GAsyncReadyCallback callback,
                      gpointer user_data)
{
  EmbersSourceInterface *iface;

  g_return_if_fail (EMBERS_IS_SOURCE (self));

  iface = EMBERS_SOURCE_GET_IFACE (self);
  if (iface->list_label_values == NULL)
    {
      report_not_supported (self, embers_source_list_label_values, callback, user_data);
      return;
    }

  iface->list_label_values (self, name, matchers, start_ms, end_ms, cancellable, callback, user_data);
}

GStrv
embers_source_list_label_values_finish (EmbersSource *self,
                      GAsyncResult *result,
                      GError **error)
{
  g_return_val_if_fail (EMBERS_IS_SOURCE (self), NULL);

  if (g_async_result_is_tagged (result, embers_source_list_label_values))
    return g_task_propagate_pointer (G_TASK (result), error);

  return EMBERS_SOURCE_GET_IFACE (self)->list_label_values_finish (self, result, error);
}

void
embers_source_list_series (EmbersSource *self,
                      const char * const *matchers,
                      const char * const *label_names,
                      gint64 start_ms,
                      gint64 end_ms,
                      GCancellable *cancellable,
                      GAsyncReadyCallback callback,
                      gpointer user_data)
{
  EmbersSourceInterface *iface;

  g_return_if_fail (EMBERS_IS_SOURCE (self));

  iface = EMBERS_SOURCE_GET_IFACE (self);
  if (iface->list_series == NULL)
    {
      report_not_supported (self, embers_source_list_series, callback, user_data);
      return;
    }

  iface->list_series (self, matchers, label_names, start_ms, end_ms, cancellable, callback, user_data);
}

GPtrArray *
embers_source_list_series_finish (EmbersSource *self,
                      GAsyncResult *result,
                      GError **error)
{
  g_return_val_if_fail (EMBERS_IS_SOURCE (self), NULL);

  if (g_async_result_is_tagged (result, embers_source_list_series))
    return g_task_propagate_pointer (G_TASK (result), error);

  return EMBERS_SOURCE_GET_IFACE (self)->list_series_finish (self, result, error);
}

void
embers_source_select_series (EmbersSource *self,
                      const EmbersQuery *query,
                      const char * const *group_by,
                      double step_s,
                      EmbersAggregation aggregation,
                      gint64 limit,
                      GCancellable *cancellable,
                      GAsyncReadyCallback callback,
                      gpointer user_data)
{
  EmbersSourceInterface *iface;

  g_return_if_fail (EMBERS_IS_SOURCE (self));

  iface = EMBERS_SOURCE_GET_IFACE (self);
  if (iface->select_series == NULL)
    {
      report_not_supported (self, embers_source_select_series, callback, user_data);
      return;
    }

  iface->select_series (self, query, group_by, step_s, aggregation, limit, cancellable, callback, user_data);
}

GPtrArray *
embers_source_select_series_finish (EmbersSource *self,
                      GAsyncResult *result,
                      GError **error)
{
  g_return_val_if_fail (EMBERS_IS_SOURCE (self), NULL);

  if (g_async_result_is_tagged (result, embers_source_select_series))
    return g_task_propagate_pointer (G_TASK (result), error);

  return EMBERS_SOURCE_GET_IFACE (self)->select_series_finish (self, result, error);
}

void
embers_source_select_call_site_series (EmbersSource        *self,
                                       const EmbersQuery   *query,
                                       const char * const  *call_site,
                                       const char * const  *group_by,
                                       GCancellable        *cancellable,
                                       GAsyncReadyCallback  callback,
                                       gpointer             user_data)
{
  EmbersSourceInterface *iface;
  g_autoptr(EmbersQuery) copy = NULL;
  double step_s;

  g_return_if_fail (EMBERS_IS_SOURCE (self));
  g_return_if_fail (query != NULL);
  g_return_if_fail (call_site != NULL && call_site[0] != NULL);

  iface = EMBERS_SOURCE_GET_IFACE (self);
  if (iface->select_call_site_series == NULL)
    {
      report_not_supported (self, embers_source_select_call_site_series, callback, user_data);
      return;
    }

  /* The points of a chart, as embers_source_select_chart_series() */
  step_s = embers_source_step_for_range (query->start_ms, query->end_ms);
  copy = embers_query_copy (query);
  if (query->end_ms > query->start_ms)
    copy->start_ms = embers_source_series_first_point (query->start_ms, query->end_ms, step_s);
  iface->select_call_site_series (self, copy, call_site, group_by, step_s, cancellable, callback, user_data);
}

GPtrArray *
embers_source_select_call_site_series_finish (EmbersSource  *self,
                                              GAsyncResult  *result,
                                              GError       **error)
{
  g_return_val_if_fail (EMBERS_IS_SOURCE (self), NULL);

  if (g_async_result_is_tagged (result, embers_source_select_call_site_series))
    return g_task_propagate_pointer (G_TASK (result), error);

  return EMBERS_SOURCE_GET_IFACE (self)->select_call_site_series_finish (self, result, error);
}

void
embers_source_merge_profile (EmbersSource *self,
                      const EmbersQuery *query,
                      GCancellable *cancellable,
                      GAsyncReadyCallback callback,
                      gpointer user_data)
{
  EmbersSourceInterface *iface;

  g_return_if_fail (EMBERS_IS_SOURCE (self));

  iface = EMBERS_SOURCE_GET_IFACE (self);
  if (iface->merge_profile == NULL)
    {
      report_not_supported (self, embers_source_merge_profile, callback, user_data);
      return;
    }

  iface->merge_profile (self, query, cancellable, callback, user_data);
}

EmbersProfile *
embers_source_merge_profile_finish (EmbersSource *self,
                      GAsyncResult *result,
                      GError **error)
{
  g_return_val_if_fail (EMBERS_IS_SOURCE (self), NULL);

  if (g_async_result_is_tagged (result, embers_source_merge_profile))
    return g_task_propagate_pointer (G_TASK (result), error);

  return EMBERS_SOURCE_GET_IFACE (self)->merge_profile_finish (self, result, error);
}

void
embers_source_merge_call_site (EmbersSource        *self,
                               const EmbersQuery   *query,
                               const char * const  *call_site,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  EmbersSourceInterface *iface;

  g_return_if_fail (EMBERS_IS_SOURCE (self));
  g_return_if_fail (query != NULL);

  iface = EMBERS_SOURCE_GET_IFACE (self);
  if (iface->merge_call_site == NULL)
    {
      report_not_supported (self, embers_source_merge_call_site, callback, user_data);
      return;
    }

  iface->merge_call_site (self, query, call_site, cancellable, callback, user_data);
}

EmbersProfile *
embers_source_merge_call_site_finish (EmbersSource  *self,
                                      GAsyncResult  *result,
                                      GError       **error)
{
  g_return_val_if_fail (EMBERS_IS_SOURCE (self), NULL);

  if (g_async_result_is_tagged (result, embers_source_merge_call_site))
    return g_task_propagate_pointer (G_TASK (result), error);

  return EMBERS_SOURCE_GET_IFACE (self)->merge_call_site_finish (self, result, error);
}

void
embers_source_diff (EmbersSource *self,
                      const EmbersQuery *left,
                      const EmbersQuery *right,
                      GCancellable *cancellable,
                      GAsyncReadyCallback callback,
                      gpointer user_data)
{
  EmbersSourceInterface *iface;

  g_return_if_fail (EMBERS_IS_SOURCE (self));

  iface = EMBERS_SOURCE_GET_IFACE (self);
  if (iface->diff == NULL)
    {
      report_not_supported (self, embers_source_diff, callback, user_data);
      return;
    }

  iface->diff (self, left, right, cancellable, callback, user_data);
}

EmbersProfile *
embers_source_diff_finish (EmbersSource *self,
                      GAsyncResult *result,
                      GError **error)
{
  g_return_val_if_fail (EMBERS_IS_SOURCE (self), NULL);

  if (g_async_result_is_tagged (result, embers_source_diff))
    return g_task_propagate_pointer (G_TASK (result), error);

  return EMBERS_SOURCE_GET_IFACE (self)->diff_finish (self, result, error);
}

/* Recording rules */

void
embers_source_list_recording_rules (EmbersSource        *self,
                                    GCancellable        *cancellable,
                                    GAsyncReadyCallback  callback,
                                    gpointer             user_data)
{
  EmbersSourceInterface *iface;

  g_return_if_fail (EMBERS_IS_SOURCE (self));

  iface = EMBERS_SOURCE_GET_IFACE (self);
  if (iface->list_recording_rules == NULL)
    {
      report_not_supported (self, embers_source_list_recording_rules, callback, user_data);
      return;
    }
  iface->list_recording_rules (self, cancellable, callback, user_data);
}

GPtrArray *
embers_source_list_recording_rules_finish (EmbersSource  *self,
                                           GAsyncResult  *result,
                                           GError       **error)
{
  g_return_val_if_fail (EMBERS_IS_SOURCE (self), NULL);

  if (g_async_result_is_tagged (result, embers_source_list_recording_rules))
    return g_task_propagate_pointer (G_TASK (result), error);
  return EMBERS_SOURCE_GET_IFACE (self)->list_recording_rules_finish (self, result, error);
}

void
embers_source_get_recording_rule (EmbersSource        *self,
                                  const char          *id,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  EmbersSourceInterface *iface;

  g_return_if_fail (EMBERS_IS_SOURCE (self));
  g_return_if_fail (id != NULL);

  iface = EMBERS_SOURCE_GET_IFACE (self);
  if (iface->get_recording_rule == NULL)
    {
      report_not_supported (self, embers_source_get_recording_rule, callback, user_data);
      return;
    }
  iface->get_recording_rule (self, id, cancellable, callback, user_data);
}

EmbersRecordingRule *
embers_source_get_recording_rule_finish (EmbersSource  *self,
                                         GAsyncResult  *result,
                                         GError       **error)
{
  g_return_val_if_fail (EMBERS_IS_SOURCE (self), NULL);

  if (g_async_result_is_tagged (result, embers_source_get_recording_rule))
    return g_task_propagate_pointer (G_TASK (result), error);
  return EMBERS_SOURCE_GET_IFACE (self)->get_recording_rule_finish (self, result, error);
}

void
embers_source_upsert_recording_rule (EmbersSource              *self,
                                     const EmbersRecordingRule *rule,
                                     GCancellable              *cancellable,
                                     GAsyncReadyCallback        callback,
                                     gpointer                   user_data)
{
  EmbersSourceInterface *iface;

  g_return_if_fail (EMBERS_IS_SOURCE (self));
  g_return_if_fail (rule != NULL);

  iface = EMBERS_SOURCE_GET_IFACE (self);
  if (iface->upsert_recording_rule == NULL)
    {
      report_not_supported (self, embers_source_upsert_recording_rule, callback, user_data);
      return;
    }
  iface->upsert_recording_rule (self, rule, cancellable, callback, user_data);
}

EmbersRecordingRule *
embers_source_upsert_recording_rule_finish (EmbersSource  *self,
                                            GAsyncResult  *result,
                                            GError       **error)
{
  g_return_val_if_fail (EMBERS_IS_SOURCE (self), NULL);

  if (g_async_result_is_tagged (result, embers_source_upsert_recording_rule))
    return g_task_propagate_pointer (G_TASK (result), error);
  return EMBERS_SOURCE_GET_IFACE (self)->upsert_recording_rule_finish (self, result, error);
}

void
embers_source_delete_recording_rule (EmbersSource        *self,
                                     const char          *id,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data)
{
  EmbersSourceInterface *iface;

  g_return_if_fail (EMBERS_IS_SOURCE (self));
  g_return_if_fail (id != NULL);

  iface = EMBERS_SOURCE_GET_IFACE (self);
  if (iface->delete_recording_rule == NULL)
    {
      report_not_supported (self, embers_source_delete_recording_rule, callback, user_data);
      return;
    }
  iface->delete_recording_rule (self, id, cancellable, callback, user_data);
}

gboolean
embers_source_delete_recording_rule_finish (EmbersSource  *self,
                                            GAsyncResult  *result,
                                            GError       **error)
{
  g_return_val_if_fail (EMBERS_IS_SOURCE (self), FALSE);

  if (g_async_result_is_tagged (result, embers_source_delete_recording_rule))
    return g_task_propagate_boolean (G_TASK (result), error);
  return EMBERS_SOURCE_GET_IFACE (self)->delete_recording_rule_finish (self, result, error);
}

gboolean
embers_source_offers_recording_rules (EmbersSource *self)
{
  g_return_val_if_fail (EMBERS_IS_SOURCE (self), FALSE);

  return EMBERS_SOURCE_GET_IFACE (self)->upsert_recording_rule != NULL;
}

char *
embers_source_dup_unavailable_reason (EmbersSource             *self,
                                      EmbersSourceCapabilities  capability)
{
  EmbersSourceInterface *iface;

  g_return_val_if_fail (EMBERS_IS_SOURCE (self), NULL);

  iface = EMBERS_SOURCE_GET_IFACE (self);
  return iface->dup_unavailable_reason != NULL ? iface->dup_unavailable_reason (self, capability) : NULL;
}

char *
embers_source_dup_tenant (EmbersSource *self)
{
  EmbersSourceInterface *iface;

  g_return_val_if_fail (EMBERS_IS_SOURCE (self), NULL);

  iface = EMBERS_SOURCE_GET_IFACE (self);
  return iface->dup_tenant != NULL ? iface->dup_tenant (self) : NULL;
}

char *
embers_source_dup_location (EmbersSource *self)
{
  EmbersSourceInterface *iface;

  g_return_val_if_fail (EMBERS_IS_SOURCE (self), NULL);

  iface = EMBERS_SOURCE_GET_IFACE (self);
  return iface->dup_location != NULL ? iface->dup_location (self) : NULL;
}
