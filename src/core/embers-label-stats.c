/* embers-label-stats.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n.h>

#include "embers-label-stats.h"
#include "embers-source.h"

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

/* The step k whose point T = start + k·step holds time t ∈ (T − step, T];
 * -1 before the first one (t ≤ start − step) */
static gint64
step_index (gint64 t,
            gint64 start_ms,
            gint64 step_ms)
{
  if (t <= start_ms - step_ms)
    return -1;
  if (t <= start_ms)
    return 0;
  return (t - start_ms + step_ms - 1) / step_ms;
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

  /* Points are stamped T = end − k·step, each holding (T − step, T]
   * (embers_source_select_chart_series); a point stamped between two
   * steps belongs to the next one */
  first = embers_source_series_first_point (start_ms, end_ms, step_s);
  n = embers_source_series_n_points (start_ms, end_ms, step_s);
  steps = g_new0 (double, n);

  for (guint i = 0; i < series->n_points; i++)
    {
      gint64 idx = step_index (series->timestamps[i], first, step_ms);

      if (idx < 0 || idx >= n)
        continue;
      steps[idx] += series->values[i];
    }

  *n_steps = n;
  return steps;
}

/* The per-step values of the steps that have data, in time order: the
 * points of a chart of (start, end] summed per step (with no range, the
 * points) */
static double *
data_steps (const EmbersSeries *s,
            gint64              start_ms,
            gint64              end_ms,
            double              step_s,
            guint              *n_out)
{
  gint64 step_ms = step_ms_for (step_s);
  double *steps = g_new0 (double, MAX (1u, s->n_points));
  gint64 first = end_ms > start_ms ? embers_source_series_first_point (start_ms, end_ms, step_s) : start_ms;
  gint64 last_idx = -1;
  guint n = 0;

  for (guint i = 0; i < s->n_points; i++)
    {
      gint64 idx;

      if (end_ms <= start_ms)
        {
          steps[n++] = s->values[i];
          continue;
        }
      if (s->timestamps[i] <= first - step_ms || s->timestamps[i] > end_ms)
        continue;
      idx = step_index (s->timestamps[i], first, step_ms);
      if (n > 0 && idx == last_idx)
        steps[n - 1] += s->values[i];
      else
        steps[n++] = s->values[i];
      last_idx = idx;
    }
  *n_out = n;
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
      guint n_data = 0;

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

      /* Over the steps that have data: sparse data (a few files in an
       * hour) would otherwise average mostly zeros */
      steps = data_steps (s, start_ms, end_ms, step_s, &n_data);
      stats->n_steps = end_ms > start_ms
                       ? embers_source_series_n_points (start_ms, end_ms, step_s)
                       : n_data;
      stats->n_data_steps = n_data;
      for (guint k = 0; k < n_data; k++)
        sum += steps[k];
      stats->mean = n_data > 0 ? sum / n_data : 0.0;
      for (guint k = 0; k < n_data; k++)
        sq += (steps[k] - stats->mean) * (steps[k] - stats->mean);
      stats->stddev = n_data > 0 ? sqrt (sq / n_data) : 0.0;

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

  g_sort_array (stats->pdata, stats->len, sizeof (gpointer), compare_stats, args);
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
embers_histogram_compute_range (const double *values,
                                guint         n_values,
                                guint         n_bins,
                                double        lo,
                                double        hi)
{
  guint *counts;

  g_return_val_if_fail (n_bins >= 1, NULL);

  counts = g_new0 (guint, n_bins);
  for (guint i = 0; i < n_values; i++)
    {
      double pos;
      guint bin;

      if (values[i] < lo || values[i] > hi)
        continue;
      pos = hi > lo ? (values[i] - lo) / (hi - lo) * n_bins : 0;
      bin = pos >= n_bins ? n_bins - 1 : (guint)pos;
      counts[bin]++;
    }
  return counts;
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

  if (stats->series != NULL)
    steps = data_steps (stats->series, start_ms, end_ms, step_s, &n);
  if (n_steps != NULL)
    *n_steps = n;
  return embers_histogram_compute (steps, n, n_bins, lo, hi);
}

guint *
embers_label_value_stats_histogram_range (const EmbersLabelValueStats *stats,
                                          gint64                       start_ms,
                                          gint64                       end_ms,
                                          double                       step_s,
                                          guint                        n_bins,
                                          double                       lo,
                                          double                       hi,
                                          guint                       *n_steps)
{
  g_autofree double *steps = NULL;
  guint n = 0;

  g_return_val_if_fail (stats != NULL, NULL);
  g_return_val_if_fail (n_bins >= 1, NULL);

  if (stats->series != NULL)
    steps = data_steps (stats->series, start_ms, end_ms, step_s, &n);
  if (n_steps != NULL)
    *n_steps = n;
  return embers_histogram_compute_range (steps, n, n_bins, lo, hi);
}

void
embers_label_stats_step_range (GPtrArray *stats,
                               gint64     start_ms,
                               gint64     end_ms,
                               double     step_s,
                               double    *lo,
                               double    *hi)
{
  gboolean any = FALSE;

  g_return_if_fail (stats != NULL);

  *lo = *hi = 0.0;
  for (guint i = 0; i < stats->len; i++)
    {
      const EmbersLabelValueStats *s = g_ptr_array_index (stats, i);
      g_autofree double *steps = NULL;
      guint n = 0;

      if (s->series == NULL)
        continue;
      steps = data_steps (s->series, start_ms, end_ms, step_s, &n);
      for (guint k = 0; k < n; k++)
        {
          if (!any || steps[k] < *lo)
            *lo = steps[k];
          if (!any || steps[k] > *hi)
            *hi = steps[k];
          any = TRUE;
        }
    }
}

gboolean
embers_label_stats_has_time (GPtrArray *stats)
{
  gboolean any = FALSE;
  gint64 first = 0;

  g_return_val_if_fail (stats != NULL, FALSE);

  for (guint i = 0; i < stats->len; i++)
    {
      const EmbersLabelValueStats *s = g_ptr_array_index (stats, i);

      for (guint k = 0; s->series != NULL && k < s->series->n_points; k++)
        {
          if (any && s->series->timestamps[k] != first)
            return TRUE;
          first = s->series->timestamps[k];
          any = TRUE;
        }
    }
  return FALSE;
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

/* Filters from the label explorer */

static const char regex_specials[] = "\\|()[]{}^$*+?.";

/* The values of a regex that is a plain alternation of escaped literals
 * ("eu|us\\.east"), or NULL when it is any other regex */
static GPtrArray *
parse_literal_set (const char *regex)
{
  g_autoptr(GPtrArray) set = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GString) item = g_string_new (NULL);

  for (const char *p = regex; ; p++)
    {
      if (*p == '\0' || *p == '|')
        {
          if (!g_ptr_array_find_with_equal_func (set, item->str, g_str_equal, NULL))
            g_ptr_array_add (set, g_strdup (item->str));
          g_string_truncate (item, 0);
          if (*p == '\0')
            break;
        }
      else if (*p == '\\')
        {
          if (p[1] == '\0' || strchr (regex_specials, p[1]) == NULL)
            return NULL;
          g_string_append_c (item, p[1]);
          p++;
        }
      else if (strchr (regex_specials, *p) != NULL)
        return NULL;
      else
        g_string_append_c (item, *p);
    }
  return g_steal_pointer (&set);
}

static char *
literal_set_to_regex (GPtrArray *set)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < set->len; i++)
    {
      g_autofree char *escaped = g_regex_escape_string (g_ptr_array_index (set, i), -1);

      if (i > 0)
        g_string_append_c (out, '|');
      g_string_append (out, escaped);
    }
  return g_string_free (out, FALSE);
}

/* A set of values as one matcher: = or != for one, =~ or !~ for more */
static void
set_to_matcher (GPtrArray     *set,
                gboolean       negative,
                EmbersMatchOp *op,
                char         **value)
{
  if (set->len == 1)
    {
      *op = negative ? EMBERS_MATCH_NOT_EQUAL : EMBERS_MATCH_EQUAL;
      *value = g_strdup (g_ptr_array_index (set, 0));
    }
  else
    {
      *op = negative ? EMBERS_MATCH_NOT_REGEX : EMBERS_MATCH_REGEX;
      *value = literal_set_to_regex (set);
    }
}

gboolean
embers_label_filter_merge (const EmbersMatcher  *existing,
                           const char           *value,
                           gboolean              exclude,
                           EmbersMatchOp        *op,
                           char                **merged,
                           GError              **error)
{
  g_autoptr(GPtrArray) set = NULL;
  gboolean existing_negative;

  g_return_val_if_fail (value != NULL, FALSE);
  g_return_val_if_fail (op != NULL && merged != NULL, FALSE);

  *merged = NULL;
  existing_negative = existing != NULL &&
                      (existing->op == EMBERS_MATCH_NOT_EQUAL || existing->op == EMBERS_MATCH_NOT_REGEX);

  /* Nothing on this label yet, or the other kind: the value alone (an
   * include is narrower than any exclusion, so it replaces it) */
  if (existing == NULL || (!exclude && existing_negative))
    {
      *op = exclude ? EMBERS_MATCH_NOT_EQUAL : EMBERS_MATCH_EQUAL;
      *merged = g_strdup (value);
      return TRUE;
    }

  if (existing->op == EMBERS_MATCH_EQUAL || existing->op == EMBERS_MATCH_NOT_EQUAL)
    {
      set = g_ptr_array_new_with_free_func (g_free);
      g_ptr_array_add (set, g_strdup (existing->value != NULL ? existing->value : ""));
    }
  else
    set = parse_literal_set (existing->value != NULL ? existing->value : "");

  if (exclude == existing_negative)
    {
      /* Same kind: one more value in the set (include: any of them;
       * exclude: none of them) */
      if (set == NULL)
        {
          /* A regex of the user's own: one more alternative */
          g_autofree char *escaped = g_regex_escape_string (value, -1);

          *op = existing->op;
          *merged = g_strdup_printf ("%s|%s", existing->value, escaped);
          return TRUE;
        }
      if (!g_ptr_array_find_with_equal_func (set, value, g_str_equal, NULL))
        g_ptr_array_add (set, g_strdup (value));
      set_to_matcher (set, exclude, op, merged);
      return TRUE;
    }

  /* Excluding a value from an include */
  if (set == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   _("The filter %s=~\"%s\" cannot also leave out “%s”: remove it first"),
                   existing->name, existing->value, value);
      return FALSE;
    }
  {
    guint index;

    if (!g_ptr_array_find_with_equal_func (set, value, g_str_equal, &index))
      {
        /* Not included anyway: the filter stays as it is */
        set_to_matcher (set, FALSE, op, merged);
        return TRUE;
      }
    g_ptr_array_remove_index (set, index);
    if (set->len == 0)
      {
        *op = EMBERS_MATCH_NOT_EQUAL;
        *merged = g_strdup (value);
        return TRUE;
      }
    set_to_matcher (set, FALSE, op, merged);
  }
  return TRUE;
}
