/* embers-label-stats.h: per label value statistics from time series
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "embers-source.h"

G_BEGIN_DECLS

typedef struct
{
  char         *value;       /* the label value ("" when absent) */
  EmbersSeries *series;      /* its points, owned */
  double        total;       /* sum over the range */
  double        share;       /* total / sum of all values' totals, 0..1 */
  double        max;         /* largest step value */
  gint64        max_time_ms; /* when it was reached */
  double        mean;        /* average per step over the range, gaps as 0 */
  double        stddev;      /* population standard deviation per step */
  guint         n_steps;     /* steps in the range */
} EmbersLabelValueStats;

void embers_label_value_stats_free (EmbersLabelValueStats *stats);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (EmbersLabelValueStats, embers_label_value_stats_free)

/**
 * embers_label_stats_compute:
 * @series: (element-type EmbersSeries): SelectSeries grouped by @label
 * @label: the label name
 * @start_ms: the range start
 * @end_ms: the range end
 * @step_s: the step the series were computed with
 *
 * Series with the same value are merged. Steps without a point count as 0
 * for the mean and standard deviation; with an empty range (end <= start)
 * only the points present count.
 *
 * Returns: (transfer full) (element-type EmbersLabelValueStats): sorted by
 *   total, descending, then by value
 */
GPtrArray *embers_label_stats_compute (GPtrArray  *series,
                                       const char *label,
                                       gint64      start_ms,
                                       gint64      end_ms,
                                       double      step_s);

typedef enum
{
  EMBERS_LABEL_STATS_SORT_VALUE,
  EMBERS_LABEL_STATS_SORT_TOTAL,
  EMBERS_LABEL_STATS_SORT_SHARE,
  EMBERS_LABEL_STATS_SORT_MEAN,
  EMBERS_LABEL_STATS_SORT_STDDEV,
  EMBERS_LABEL_STATS_SORT_MAX,
} EmbersLabelStatsSort;

void       embers_label_stats_sort    (GPtrArray            *stats,
                                       EmbersLabelStatsSort  column,
                                       gboolean              descending);

/* The first n by total; the rest summed into *rest (NULL when none). */
GPtrArray *embers_label_stats_top     (GPtrArray              *stats,
                                       guint                   n,
                                       EmbersLabelValueStats **rest);

/**
 * embers_histogram_compute:
 * @values: the per-step values
 * @n_values: how many
 * @n_bins: bins wanted (>= 1)
 * @lo: (out): lower edge of the first bin
 * @hi: (out): upper edge of the last bin
 *
 * Equal-width bins over [min, max]; the last bin includes max. All values
 * equal: one bin holds them all (lo = hi = the value). No values: all
 * counts 0, lo = hi = 0.
 *
 * Returns: (transfer full): n_bins counts
 */
guint     *embers_histogram_compute   (const double *values,
                                       guint         n_values,
                                       guint         n_bins,
                                       double       *lo,
                                       double       *hi);

/* Per-step values of one series over the range, gaps as 0 */
double    *embers_series_steps        (const EmbersSeries *series,
                                       gint64              start_ms,
                                       gint64              end_ms,
                                       double              step_s,
                                       guint              *n_steps);

G_END_DECLS
