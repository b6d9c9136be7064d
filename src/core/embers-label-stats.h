/* embers-label-stats.h: per label value statistics from time series
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "embers-selector.h"
#include "embers-source.h"

G_BEGIN_DECLS

typedef struct
{
  char         *value;       /* the label value ("" when absent) */
  EmbersSeries *series;      /* its points, owned */
  double        total;       /* sum over the range */
  double        share;       /* total / sum of all values' totals, 0..1 */
  double        max;         /* largest step value */
  gint64        max_time_ms; /* the point with the largest value: its step is (T − step, T] */
  double        mean;        /* average of the steps that have data */
  double        stddev;      /* population standard deviation of those steps */
  guint         n_steps;     /* steps in the range */
  guint         n_data_steps; /* steps with data (mean and stddev are over these) */
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
 * Series with the same value are merged; points are stamped T = end −
 * k·step (embers_source_select_chart_series()), each holding the profiles
 * in (T − step, T], as Pyroscope's SelectSeries makes them. The mean and standard deviation are over
 * the steps that have data (a point), not over the whole range: a value
 * seen in 3 steps of 60 averages those 3 (n_data_steps says how many), as
 * gaps would otherwise read as zeros. With an empty range (end <= start)
 * every point is a step.
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

/* The first n by total; the rest summed into *rest (NULL when none).
 * EMBERS_LABEL_STATS_ALL (or any n >= len) is "show all": no rest. */
#define EMBERS_LABEL_STATS_ALL G_MAXUINT
GPtrArray *embers_label_stats_top     (GPtrArray              *stats,
                                       guint                   n,
                                       EmbersLabelValueStats **rest);

/* How many values "top N" shows before "Show all" */
#define EMBERS_LABEL_STATS_DEFAULT_TOP 8

/* The largest max of any value (scales the maximum bars alike), 0 if none */
double     embers_label_stats_max_of_max (GPtrArray           *stats);

/* The index of value in stats, or -1 */
int        embers_label_stats_find    (GPtrArray              *stats,
                                       const char             *value);

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
/* The same over a given [lo, hi] (values outside are left out; lo == hi:
 * one bin, the first, holds the values equal to lo) */
guint     *embers_histogram_compute_range (const double *values,
                                           guint         n_values,
                                           guint         n_bins,
                                           double        lo,
                                           double        hi);

/**
 * embers_label_value_stats_histogram:
 * @stats: one value's statistics
 * @start_ms, @end_ms, @step_s: as given to embers_label_stats_compute()
 * @n_bins: bins wanted (>= 1)
 * @lo: (out): lower edge of the first bin
 * @hi: (out): upper edge of the last bin
 * @n_steps: (out) (optional): how many step values were binned
 *
 * The histogram of the value's per-step values over the range: the steps
 * that have data (with an empty range, all its points), as for the mean:
 * sparse data (a few local files over an hour) would otherwise show one
 * bar of zeros and hide the shape.
 * Counts add up to *n_steps, the number of steps binned.
 *
 * Returns: (transfer full): n_bins counts
 */
guint     *embers_label_value_stats_histogram (const EmbersLabelValueStats *stats,
                                               gint64                       start_ms,
                                               gint64                       end_ms,
                                               double                       step_s,
                                               guint                        n_bins,
                                               double                      *lo,
                                               double                      *hi,
                                               guint                       *n_steps);

/* The same over [lo, hi], e.g. the range of every value of a label
 * (embers_label_stats_step_range()), so that histograms share one axis */
guint     *embers_label_value_stats_histogram_range (const EmbersLabelValueStats *stats,
                                                     gint64                       start_ms,
                                                     gint64                       end_ms,
                                                     double                       step_s,
                                                     guint                        n_bins,
                                                     double                       lo,
                                                     double                       hi,
                                                     guint                       *n_steps);

/* The smallest and largest per-step value (of steps with data) of all
 * values; 0, 0 when there is none */
void       embers_label_stats_step_range (GPtrArray *stats,
                                          gint64     start_ms,
                                          gint64     end_ms,
                                          double     step_s,
                                          double    *lo,
                                          double    *hi);

/* FALSE when every point of every value has the same time (one profile,
 * or local files without time): time series and histograms say nothing */
gboolean   embers_label_stats_has_time (GPtrArray *stats);

/* Per-step values of one series over the range, gaps as 0 */
double    *embers_series_steps        (const EmbersSeries *series,
                                       gint64              start_ms,
                                       gint64              end_ms,
                                       double              step_s,
                                       guint              *n_steps);

/**
 * embers_label_filter_merge:
 * @existing: (nullable): the filter already on the label (one matcher)
 * @value: the value to include or exclude
 * @exclude: TRUE to leave the value out, FALSE to keep only it
 * @op: (out): the label's new operator
 * @merged: (out): the label's new value (a regex for =~ and !~)
 * @error: when the two cannot be combined
 *
 * How including or excluding one value combines with the label's filter,
 * so that they stack instead of replacing each other: excluding eu then us
 * is !~"eu|us"; including a second value is =~"eu|us" (either); including
 * replaces an exclusion; excluding a value of an include takes it out of
 * the set (all of it out: !=value). Values are regex-escaped. Fails only
 * for excluding from a regex include that is not a set of values.
 */
gboolean   embers_label_filter_merge  (const EmbersMatcher  *existing,
                                       const char           *value,
                                       gboolean              exclude,
                                       EmbersMatchOp        *op,
                                       char                **merged,
                                       GError              **error);

G_END_DECLS
