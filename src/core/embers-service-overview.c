/* embers-service-overview.c: every service of a source at a glance
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "embers-query-model.h"
#include "embers-service-overview.h"
#include "embers-snapshots.h"

EmbersServiceRow *
embers_service_row_copy (const EmbersServiceRow *row)
{
  EmbersServiceRow *copy = g_new0 (EmbersServiceRow, 1);

  *copy = *row;
  copy->name = g_strdup (row->name);
  copy->values = g_memdup2 (row->values, sizeof (double) * row->n_values);
  return copy;
}

void
embers_service_row_free (EmbersServiceRow *row)
{
  if (row == NULL)
    return;
  g_free (row->name);
  g_free (row->values);
  g_free (row);
}

G_DEFINE_BOXED_TYPE (EmbersServiceRow, embers_service_row, embers_service_row_copy, embers_service_row_free)

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char * const *)a, *(const char * const *)b);
}

GHashTable *
embers_service_overview_types (GPtrArray *label_series)
{
  g_autoptr(GHashTable) sets = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                      (GDestroyNotify)g_hash_table_unref);
  GHashTable *types = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify)g_strfreev);
  GHashTableIter iter;
  gpointer key, value;

  for (guint i = 0; label_series != NULL && i < label_series->len; i++)
    {
      EmbersSeries *s = g_ptr_array_index (label_series, i);
      const char *service = embers_series_get_label (s, EMBERS_SERVICE_LABEL);
      const char *type = embers_series_get_label (s, EMBERS_PROFILE_TYPE_LABEL);
      GHashTable *set;

      if (service == NULL || service[0] == '\0')
        continue;
      set = g_hash_table_lookup (sets, service);
      if (set == NULL)
        {
          set = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
          g_hash_table_insert (sets, g_strdup (service), set);
        }
      if (type != NULL && type[0] != '\0')
        g_hash_table_add (set, g_strdup (type));
    }

  g_hash_table_iter_init (&iter, sets);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      guint n = 0;
      g_autofree gpointer *ids = g_hash_table_get_keys_as_array (value, &n);
      GStrv copy = g_new0 (char *, n + 1);

      qsort (ids, n, sizeof (gpointer), compare_strings);
      for (guint i = 0; i < n; i++)
        copy[i] = g_strdup (ids[i]);
      g_hash_table_insert (types, g_strdup (key), copy);
    }
  return types;
}

/* How many services have each type */
static GHashTable *
count_types (GHashTable *types)
{
  GHashTable *counts = g_hash_table_new (g_str_hash, g_str_equal);
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, types);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    for (GStrv t = value; *t != NULL; t++)
      g_hash_table_insert (counts, *t,
                           GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (counts, *t)) + 1));
  return counts;
}

static gboolean
is_cpu_type (const char *id)
{
  g_autoptr(EmbersProfileTypeInfo) info = embers_profile_type_info_new (id);

  return info != NULL && g_strcmp0 (info->sample_type, "cpu") == 0;
}

char *
embers_service_overview_default_type (GHashTable *types,
                                      const char *preferred)
{
  g_autoptr(GHashTable) counts = NULL;
  g_auto(GStrv) all = NULL;
  const char *best = NULL;
  guint best_count = 0;
  gboolean best_cpu = FALSE;

  g_return_val_if_fail (types != NULL, NULL);

  counts = count_types (types);
  if (preferred != NULL && g_hash_table_contains (counts, preferred))
    return g_strdup (preferred);

  /* In sorted order, so that ties go the same way every time */
  all = embers_service_overview_all_types (types);
  for (GStrv t = all; *t != NULL; t++)
    {
      guint count = GPOINTER_TO_UINT (g_hash_table_lookup (counts, *t));
      gboolean cpu = is_cpu_type (*t);

      if (best == NULL || (cpu && !best_cpu) || (cpu == best_cpu && count > best_count))
        {
          best = *t;
          best_count = count;
          best_cpu = cpu;
        }
    }
  return g_strdup (best);
}

GStrv
embers_service_overview_all_types (GHashTable *types)
{
  g_autoptr(GHashTable) counts = NULL;
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  guint n = 0;
  g_autofree gpointer *ids = NULL;

  g_return_val_if_fail (types != NULL, NULL);

  counts = count_types (types);
  ids = g_hash_table_get_keys_as_array (counts, &n);
  qsort (ids, n, sizeof (gpointer), compare_strings);
  for (guint i = 0; i < n; i++)
    g_strv_builder_add (builder, ids[i]);
  return g_strv_builder_end (builder);
}

GPtrArray *
embers_service_overview_rows (GHashTable *types,
                              const char *profile_type,
                              GPtrArray  *series,
                              gint64      first_ms,
                              gint64      step_ms,
                              guint       n_points)
{
  GPtrArray *rows = g_ptr_array_new_with_free_func ((GDestroyNotify)embers_service_row_free);
  g_autoptr(GHashTable) by_name = g_hash_table_new (g_str_hash, g_str_equal);
  GHashTableIter iter;
  gpointer key, value;

  g_return_val_if_fail (types != NULL, rows);
  g_return_val_if_fail (step_ms > 0, rows);

  g_hash_table_iter_init (&iter, types);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      EmbersServiceRow *row = g_new0 (EmbersServiceRow, 1);

      row->name = g_strdup (key);
      row->has_type = profile_type != NULL && g_strv_contains ((const char * const *)value, profile_type);
      row->n_values = n_points;
      row->values = g_new (double, MAX (n_points, 1));
      for (guint i = 0; i < n_points; i++)
        row->values[i] = NAN;
      g_ptr_array_add (rows, row);
      g_hash_table_insert (by_name, row->name, row);
    }

  for (guint i = 0; series != NULL && i < series->len; i++)
    {
      EmbersSeries *s = g_ptr_array_index (series, i);
      const char *service = embers_series_get_label (s, EMBERS_SERVICE_LABEL);
      EmbersServiceRow *row = service != NULL ? g_hash_table_lookup (by_name, service) : NULL;

      /* A series of a service ListSeries did not name (it came in between
       * the two answers) waits for the next load */
      if (row == NULL)
        continue;
      for (guint k = 0; k < s->n_points; k++)
        {
          gint64 offset = s->timestamps[k] - first_ms;
          gint64 index;

          if (!isfinite (s->values[k]) || offset < 0 || offset % step_ms != 0)
            continue;
          index = offset / step_ms;
          if (index >= n_points)
            continue;
          row->values[index] = isnan (row->values[index]) ? s->values[k] : row->values[index] + s->values[k];
        }
    }

  for (guint i = 0; i < rows->len; i++)
    {
      EmbersServiceRow *row = g_ptr_array_index (rows, i);

      for (guint k = 0; k < row->n_values; k++)
        if (!isnan (row->values[k]))
          {
            row->total += row->values[k];
            row->max = MAX (row->max, row->values[k]);
            /* Points of a type the label answer had not listed yet */
            row->has_type = TRUE;
          }
    }
  return rows;
}

static int
compare_by_name (gconstpointer a,
                 gconstpointer b)
{
  const EmbersServiceRow *ra = *(EmbersServiceRow * const *)a;
  const EmbersServiceRow *rb = *(EmbersServiceRow * const *)b;

  if (ra->favourite != rb->favourite)
    return ra->favourite ? -1 : 1;
  return embers_snapshots_compare_names (ra->name, rb->name);
}

static int
compare_by_total (gconstpointer a,
                  gconstpointer b)
{
  const EmbersServiceRow *ra = *(EmbersServiceRow * const *)a;
  const EmbersServiceRow *rb = *(EmbersServiceRow * const *)b;

  if (ra->favourite != rb->favourite)
    return ra->favourite ? -1 : 1;
  if (ra->has_type != rb->has_type)
    return ra->has_type ? -1 : 1;
  if (ra->total != rb->total)
    return ra->total > rb->total ? -1 : 1;
  return embers_snapshots_compare_names (ra->name, rb->name);
}

void
embers_service_overview_sort (GPtrArray         *rows,
                              EmbersServiceSort  sort)
{
  g_return_if_fail (rows != NULL);

  g_ptr_array_sort (rows, sort == EMBERS_SERVICE_SORT_TOTAL ? compare_by_total : compare_by_name);
}
