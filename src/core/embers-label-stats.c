/* embers-label-stats.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "embers-label-stats.h"

void
embers_label_value_stats_free (EmbersLabelValueStats *stats)
{
  if (stats == NULL)
    return;

  g_free (stats->value);
  g_clear_pointer (&stats->series, embers_series_free);
  g_free (stats);
}

static gint64
step_ms_for (double step_s)
{
  return MAX ((gint64)1, (gint64)llround (step_s * 1000.0));
}

double *
embers_series_steps (const EmbersSeries *series,
                     gint64              start_ms,
                     gint64              end_ms,
                     double              step_s,
                     guint              *n_steps)
{
  gint64 step_ms = step_ms_for (step_s);
  gint64 first;
  double *steps;
  guint n;

  g_return_val_if_fail (series != NULL, NULL);
  g_return_val_if_fail (n_steps != NULL, NULL);

  if (end_ms <= start_ms)
    {
      /* No range: the points themselves */
      *n_steps = series->n_points;
      return g_memdup2 (series->values, sizeof (double) * MAX (1u, series->n_points));
    }

  /* Points are stamped at step boundaries */
  first = start_ms - (start_ms % step_ms);
  n = (guint)MIN ((end_ms - first) / step_ms + 1, (gint64)G_MAXINT32);
  steps = g_new0 (double, n);

  for (guint i = 0; i < series->n_points; i++)
    {
      gint64 idx = (series->timestamps[i] - first) / step_ms;

      if (series->timestamps[i] < first || idx >= n)
        continue;
      steps[idx] += series->values[i];
    }

  *n_steps = n;
  return steps;
}

static int
compare_by_total (gconstpointer a,
                  gconstpointer b)
{
  const EmbersLabelValueStats *sa = *(EmbersLabelValueStats * const *)a;
  const EmbersLabelValueStats *sb = *(EmbersLabelValueStats * const *)b;

  if (sa->total != sb->total)
    return sa->total > sb->total ? -1 : 1;
  return g_strcmp0 (sa->value, sb->value);
}

GPtrArray *
embers_label_stats_compute (GPtrArray  *series,
                            const char *label,
                            gint64      start_ms,
                            gint64      end_ms,
                            double      step_s)
{
  g_autoptr(GHashTable) by_value = NULL;
  GPtrArray *out;
  double grand_total = 0.0;

  g_return_val_if_fail (series != NULL, NULL);
  g_return_val_if_fail (label != NULL, NULL);

  by_value = g_hash_table_new (g_str_hash, g_str_equal);
  out = g_ptr_array_new_with_free_func ((GDestroyNotify)embers_label_value_stats_free);

  /* Merge series that share a value (other labels may differ) */
  for (guint i = 0; i < series->len; i++)
    {
      const EmbersSeries *s = g_ptr_array_index (series, i);
      const char *value = embers_series_get_label (s, label);
      EmbersLabelValueStats *stats;

      if (value == NULL)
        value = "";

      stats = g_hash_table_lookup (by_value, value);
      if (stats == NULL)
        {
          stats = g_new0 (EmbersLabelValueStats, 1);
          stats->value = g_strdup (value);
          stats->series = embers_series_new ();
          g_strfreev (stats->series->label_names);
          g_strfreev (stats->series->label_values);
          stats->series->label_names = g_strdupv ((char *[]) { (char *)label, NULL });
          stats->series->label_values = g_strdupv ((char *[]) { (char *)value, NULL });
          g_hash_table_insert (by_value, stats->value, stats);
          g_ptr_array_add (out, stats);
        }

      /* Merge points by timestamp (both sorted) */
      {
        EmbersSeries *m = stats->series;
        guint n = m->n_points + s->n_points;
        gint64 *ts = g_new (gint64, MAX (n, 1u));
        double *vs = g_new (double, MAX (n, 1u));
        guint a = 0, b = 0, k = 0;

        while (a < m->n_points || b < s->n_points)
          {
            if (b >= s->n_points || (a < m->n_points && m->timestamps[a] < s->timestamps[b]))
              {
                ts[k] = m->timestamps[a];
                vs[k++] = m->values[a++];
              }
            else if (a >= m->n_points || s->timestamps[b] < m->timestamps[a])
              {
                ts[k] = s->timestamps[b];
                vs[k++] = s->values[b++];
              }
            else
              {
                ts[k] = m->timestamps[a];
                vs[k++] = m->values[a++] + s->values[b++];
              }
          }

        g_free (m->timestamps);
        g_free (m->values);
        m->timestamps = ts;
        m->values = vs;
        m->n_points = k;
      }
    }

  for (guint i = 0; i < out->len; i++)
    {
      EmbersLabelValueStats *stats = g_ptr_array_index (out, i);
      const EmbersSeries *s = stats->series;
      g_autofree double *steps = NULL;
      double sum = 0.0, sq = 0.0;
      guint n_steps = 0;

      stats->max = 0.0;
      stats->max_time_ms = 0;
      for (guint k = 0; k < s->n_points; k++)
        {
          stats->total += s->values[k];
          if (k == 0 || s->values[k] > stats->max)
            {
              stats->max = s->values[k];
              stats->max_time_ms = s->timestamps[k];
            }
        }

      steps = embers_series_steps (s, start_ms, end_ms, step_s, &n_steps);
      stats->n_steps = n_steps;
      for (guint k = 0; k < n_steps; k++)
        sum += steps[k];
      stats->mean = n_steps > 0 ? sum / n_steps : 0.0;
      for (guint k = 0; k < n_steps; k++)
        sq += (steps[k] - stats->mean) * (steps[k] - stats->mean);
      stats->stddev = n_steps > 0 ? sqrt (sq / n_steps) : 0.0;

      grand_total += stats->total;
    }

  for (guint i = 0; i < out->len; i++)
    {
      EmbersLabelValueStats *stats = g_ptr_array_index (out, i);

      stats->share = grand_total > 0 ? stats->total / grand_total : 0.0;
    }

  g_ptr_array_sort (out, compare_by_total);

  return out;
}

static double
stats_key (const EmbersLabelValueStats *s,
           EmbersLabelStatsSort         column)
{
  switch (column)
    {
    case EMBERS_LABEL_STATS_SORT_TOTAL:  return s->total;
    case EMBERS_LABEL_STATS_SORT_SHARE:  return s->share;
    case EMBERS_LABEL_STATS_SORT_MEAN:   return s->mean;
    case EMBERS_LABEL_STATS_SORT_STDDEV: return s->stddev;
    case EMBERS_LABEL_STATS_SORT_MAX:    return s->max;
    case EMBERS_LABEL_STATS_SORT_VALUE:
    default:                             return 0.0;
    }
}

static int
compare_stats (gconstpointer a,
               gconstpointer b,
               gpointer      user_data)
{
  const EmbersLabelValueStats *sa = *(EmbersLabelValueStats * const *)a;
  const EmbersLabelValueStats *sb = *(EmbersLabelValueStats * const *)b;
  gint *args = user_data;
  EmbersLabelStatsSort column = args[0];
  int sign = args[1];
  double ka = stats_key (sa, column), kb = stats_key (sb, column);

  if (column != EMBERS_LABEL_STATS_SORT_VALUE && ka != kb)
    return (ka < kb ? -1 : 1) * sign;
  if (column == EMBERS_LABEL_STATS_SORT_VALUE)
    return g_strcmp0 (sa->value, sb->value) * sign;
  return g_strcmp0 (sa->value, sb->value);
}

void
embers_label_stats_sort (GPtrArray            *stats,
                         EmbersLabelStatsSort  column,
                         gboolean              descending)
{
  gint args[2] = { column, descending ? -1 : 1 };

  g_return_if_fail (stats != NULL);

  g_qsort_with_data (stats->pdata, (gint)stats->len, sizeof (gpointer), compare_stats, args);
}

GPtrArray *
embers_label_stats_top (GPtrArray              *stats,
                        guint                   n,
                        EmbersLabelValueStats **rest)
{
  GPtrArray *top;

  g_return_val_if_fail (stats != NULL, NULL);

  top = g_ptr_array_new ();
  for (guint i = 0; i < stats->len && i < n; i++)
    g_ptr_array_add (top, g_ptr_array_index (stats, i));

  if (rest != NULL)
    {
      *rest = NULL;
      for (guint i = n; i < stats->len; i++)
        {
          const EmbersLabelValueStats *s = g_ptr_array_index (stats, i);

          if (*rest == NULL)
            {
              *rest = g_new0 (EmbersLabelValueStats, 1);
              (*rest)->value = g_strdup ("");
            }
          (*rest)->total += s->total;
          (*rest)->share += s->share;
          (*rest)->max = MAX ((*rest)->max, s->max);
        }
    }

  return top;
}

guint *
embers_histogram_compute (const double *values,
                          guint         n_values,
                          guint         n_bins,
                          double       *lo,
                          double       *hi)
{
  guint *counts;
  double min = 0.0, max = 0.0;

  g_return_val_if_fail (n_bins >= 1, NULL);

  counts = g_new0 (guint, n_bins);

  for (guint i = 0; i < n_values; i++)
    {
      if (i == 0 || values[i] < min)
        min = values[i];
      if (i == 0 || values[i] > max)
        max = values[i];
    }

  if (lo)
    *lo = min;
  if (hi)
    *hi = max;

  if (n_values == 0)
    return counts;

  if (max == min)
    {
      counts[0] = n_values;
      return counts;
    }

  for (guint i = 0; i < n_values; i++)
    {
      double pos = (values[i] - min) / (max - min) * n_bins;
      guint bin = pos >= n_bins ? n_bins - 1 : (guint)pos;

      counts[bin]++;
    }

  return counts;
}

guint *
embers_label_value_stats_histogram (const EmbersLabelValueStats *stats,
                                    gint64                       start_ms,
                                    gint64                       end_ms,
                                    double                       step_s,
                                    guint                        n_bins,
                                    double                      *lo,
                                    double                      *hi,
                                    guint                       *n_steps)
{
  g_autofree double *steps = NULL;
  guint n = 0;

  g_return_val_if_fail (stats != NULL, NULL);
  g_return_val_if_fail (n_bins >= 1, NULL);

  if (stats->series != NULL && stats->series->n_points > 0)
    {
      const EmbersSeries *s = stats->series;
      gint64 step_ms = step_ms_for (step_s);
      gint64 first = start_ms - (start_ms % step_ms);

      /* The points in the range, merged per step as embers_series_steps() does */
      steps = g_new0 (double, s->n_points);
      for (guint i = 0; i < s->n_points; i++)
        {
          if (end_ms > start_ms && (s->timestamps[i] < first || s->timestamps[i] > end_ms))
            continue;
          if (n > 0 && end_ms > start_ms &&
              (s->timestamps[i] - first) / step_ms == (s->timestamps[i - 1] - first) / step_ms &&
              s->timestamps[i - 1] >= first)
            steps[n - 1] += s->values[i];
          else
            steps[n++] = s->values[i];
        }
    }
  if (n_steps != NULL)
    *n_steps = n;
  return embers_histogram_compute (steps, n, n_bins, lo, hi);
}

double
embers_label_stats_max_of_max (GPtrArray *stats)
{
  double max = 0.0;

  g_return_val_if_fail (stats != NULL, 0.0);

  for (guint i = 0; i < stats->len; i++)
    {
      const EmbersLabelValueStats *s = g_ptr_array_index (stats, i);

      max = MAX (max, s->max);
    }
  return max;
}

int
embers_label_stats_find (GPtrArray  *stats,
                         const char *value)
{
  g_return_val_if_fail (stats != NULL, -1);

  for (guint i = 0; i < stats->len; i++)
    {
      const EmbersLabelValueStats *s = g_ptr_array_index (stats, i);

      if (g_strcmp0 (s->value, value) == 0)
        return (int)i;
    }
  return -1;
}
