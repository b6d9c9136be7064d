/* test-label-stats.c: totals, maxima, histograms and top N per label value
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>

#include "embers-label-stats.h"

static EmbersSeries *
series_new (const char   *region,
            const char   *pod,
            const gint64 *ts,
            const double *vs,
            guint         n)
{
  EmbersSeries *s = embers_series_new ();

  g_strfreev (s->label_names);
  g_strfreev (s->label_values);
  s->label_names = g_strdupv ((char *[]) { (char *)"region", (char *)"pod", NULL });
  s->label_values = g_strdupv ((char *[]) { (char *)region, (char *)pod, NULL });
  s->n_points = n;
  s->timestamps = g_memdup2 (ts, sizeof (gint64) * n);
  s->values = g_memdup2 (vs, sizeof (double) * n);

  return s;
}

static void
test_stats_empty (void)
{
  g_autoptr(GPtrArray) series = g_ptr_array_new_with_free_func ((GDestroyNotify)embers_series_free);
  g_autoptr(GPtrArray) stats = embers_label_stats_compute (series, "region", 0, 60000, 15);
  EmbersLabelValueStats *rest = NULL;
  g_autoptr(GPtrArray) top = embers_label_stats_top (stats, 5, &rest);

  g_assert_cmpuint (stats->len, ==, 0);
  g_assert_cmpuint (top->len, ==, 0);
  g_assert_null (rest);

  /* A series with no points */
  g_ptr_array_add (series, series_new ("eu", "a", NULL, NULL, 0));
  g_clear_pointer (&stats, g_ptr_array_unref);
  stats = embers_label_stats_compute (series, "region", 0, 60000, 15);
  g_assert_cmpuint (stats->len, ==, 1);
  g_assert_cmpfloat (((EmbersLabelValueStats *)stats->pdata[0])->total, ==, 0);
  g_assert_cmpfloat (((EmbersLabelValueStats *)stats->pdata[0])->share, ==, 0);
  g_assert_cmpfloat (((EmbersLabelValueStats *)stats->pdata[0])->mean, ==, 0);
}

static void
test_stats_gaps (void)
{
  g_autoptr(GPtrArray) series = g_ptr_array_new_with_free_func ((GDestroyNotify)embers_series_free);
  g_autoptr(GPtrArray) stats = NULL;
  EmbersLabelValueStats *eu, *us;

  /* eu: two pods, merged; steps of 15 s over (0, 60 s] = 4 steps, the
   * points stamped at their ends (15, 30, 45, 60 s), as SelectSeries
   * stamps (T - step, T] */
  g_ptr_array_add (series, series_new ("eu", "a", (gint64[]) { 15000, 45000 }, (double[]) { 4, 20 }, 2));
  g_ptr_array_add (series, series_new ("eu", "b", (gint64[]) { 15000 }, (double[]) { 6 }, 1));
  /* us: one point */
  g_ptr_array_add (series, series_new ("us", "c", (gint64[]) { 60000 }, (double[]) { 70 }, 1));

  stats = embers_label_stats_compute (series, "region", 0, 60000, 15);
  g_assert_cmpuint (stats->len, ==, 2);

  /* sorted by total: us (70) before eu (30) */
  us = g_ptr_array_index (stats, 0);
  eu = g_ptr_array_index (stats, 1);
  g_assert_cmpstr (us->value, ==, "us");
  g_assert_cmpstr (eu->value, ==, "eu");

  g_assert_cmpfloat (eu->total, ==, 30);
  g_assert_cmpuint (eu->series->n_points, ==, 2);
  g_assert_cmpfloat (eu->series->values[0], ==, 10);
  g_assert_cmpfloat (eu->max, ==, 20);
  g_assert_cmpint (eu->max_time_ms, ==, 45000);
  g_assert_cmpuint (eu->n_steps, ==, 4);
  /* steps [10, -, 20, -]: the two with data average 15, deviate by 5
   * (not 6 and 8, as if the empty steps were zeros) */
  g_assert_cmpuint (eu->n_data_steps, ==, 2);
  g_assert_cmpfloat_with_epsilon (eu->mean, 15.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (eu->stddev, 5.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (eu->share, 0.3, 1e-9);

  /* One step of four has data: its average is that step */
  g_assert_cmpfloat (us->total, ==, 70);
  g_assert_cmpfloat (us->max, ==, 70);
  g_assert_cmpuint (us->n_data_steps, ==, 1);
  g_assert_cmpfloat_with_epsilon (us->mean, 70.0, 1e-9);
  g_assert_cmpfloat (us->stddev, ==, 0);
  g_assert_cmpfloat_with_epsilon (us->share, 0.7, 1e-9);

  /* Sorting */
  embers_label_stats_sort (stats, EMBERS_LABEL_STATS_SORT_VALUE, FALSE);
  g_assert_cmpstr (((EmbersLabelValueStats *)stats->pdata[0])->value, ==, "eu");
  embers_label_stats_sort (stats, EMBERS_LABEL_STATS_SORT_STDDEV, TRUE);
  g_assert_cmpstr (((EmbersLabelValueStats *)stats->pdata[0])->value, ==, "eu");
  embers_label_stats_sort (stats, EMBERS_LABEL_STATS_SORT_MEAN, TRUE);
  g_assert_cmpstr (((EmbersLabelValueStats *)stats->pdata[0])->value, ==, "us");
  embers_label_stats_sort (stats, EMBERS_LABEL_STATS_SORT_MAX, FALSE);
  g_assert_cmpstr (((EmbersLabelValueStats *)stats->pdata[0])->value, ==, "eu");

  /* Top 1 plus the rest */
  embers_label_stats_sort (stats, EMBERS_LABEL_STATS_SORT_TOTAL, TRUE);
  {
    EmbersLabelValueStats *rest = NULL;
    g_autoptr(GPtrArray) top = embers_label_stats_top (stats, 1, &rest);

    g_assert_cmpuint (top->len, ==, 1);
    g_assert_cmpstr (((EmbersLabelValueStats *)top->pdata[0])->value, ==, "us");
    g_assert_nonnull (rest);
    g_assert_cmpfloat (rest->total, ==, 30);
    g_assert_cmpfloat_with_epsilon (rest->share, 0.3, 1e-9);
    embers_label_value_stats_free (rest);
  }
}

static void
test_stats_one_point_no_range (void)
{
  g_autoptr(GPtrArray) series = g_ptr_array_new_with_free_func ((GDestroyNotify)embers_series_free);
  g_autoptr(GPtrArray) stats = NULL;
  EmbersLabelValueStats *s;

  g_ptr_array_add (series, series_new ("eu", "a", (gint64[]) { 15000 }, (double[]) { 5 }, 1));
  stats = embers_label_stats_compute (series, "region", 0, 0, 15);
  s = g_ptr_array_index (stats, 0);
  g_assert_cmpuint (s->n_steps, ==, 1);
  g_assert_cmpfloat (s->mean, ==, 5);
  g_assert_cmpfloat (s->stddev, ==, 0);
  g_assert_cmpfloat (s->share, ==, 1);

  /* A label the series lack groups under "" */
  g_clear_pointer (&stats, g_ptr_array_unref);
  stats = embers_label_stats_compute (series, "version", 0, 0, 15);
  g_assert_cmpuint (stats->len, ==, 1);
  g_assert_cmpstr (((EmbersLabelValueStats *)stats->pdata[0])->value, ==, "");
}

static void
test_histogram (void)
{
  double lo, hi;
  g_autofree guint *empty = embers_histogram_compute (NULL, 0, 4, &lo, &hi);
  g_autofree guint *equal = embers_histogram_compute ((double[]) { 3, 3, 3 }, 3, 4, &lo, &hi);
  g_autofree guint *spread = NULL;

  g_assert_cmpuint (empty[0] + empty[1] + empty[2] + empty[3], ==, 0);
  g_assert_cmpuint (equal[0], ==, 3);
  g_assert_cmpuint (equal[1] + equal[2] + equal[3], ==, 0);
  g_assert_cmpfloat (lo, ==, 3);
  g_assert_cmpfloat (hi, ==, 3);

  /* [0, 10] in 4 bins of 2.5: 0,1,2 | 3 | 5,7 | 9,10 */
  spread = embers_histogram_compute ((double[]) { 0, 1, 2, 3, 5, 7, 9, 10 }, 8, 4, &lo, &hi);
  g_assert_cmpfloat (lo, ==, 0);
  g_assert_cmpfloat (hi, ==, 10);
  g_assert_cmpuint (spread[0], ==, 3);
  g_assert_cmpuint (spread[1], ==, 1);
  g_assert_cmpuint (spread[2], ==, 2);
  g_assert_cmpuint (spread[3], ==, 2);
}

static void
test_series_steps (void)
{
  g_autoptr(EmbersSeries) s = series_new ("eu", "a", (gint64[]) { 30000, 45000, 120000 }, (double[]) { 1, 2, 3 }, 3);
  g_autofree double *steps = NULL;
  guint n;

  /* A chart of (0, 60 s] has the points 15, 30, 45, 60 s, each holding
   * (T - 15 s, T] (embers_source_select_chart_series) */
  steps = embers_series_steps (s, 0, 60000, 15, &n);
  g_assert_cmpuint (n, ==, 4);
  g_assert_cmpfloat (steps[0], ==, 0);
  g_assert_cmpfloat (steps[1], ==, 1);
  g_assert_cmpfloat (steps[2], ==, 2);
  g_assert_cmpfloat (steps[3], ==, 0);
  g_clear_pointer (&steps, g_free);

  /* A range that is no whole number of steps: (20 s, 65 s] is 3 steps on
   * the grid of the end (35, 50, 65 s), the first reaching back to 20 s;
   * the point stamped 30 s is in (20, 35], 45 s in (35, 50] */
  steps = embers_series_steps (s, 20000, 65000, 15, &n);
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpfloat (steps[0], ==, 1);
  g_assert_cmpfloat (steps[1], ==, 2);
  g_assert_cmpfloat (steps[2], ==, 0);
  g_clear_pointer (&steps, g_free);

  /* (25 s, 65 s]: ⌈40 / 15⌉ = 3 steps, the first (20, 35] */
  steps = embers_series_steps (s, 25000, 65000, 15, &n);
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpfloat (steps[0], ==, 1);
}

/* A label whose points all have one time (local files without time) */
static void
test_has_time (void)
{
  g_autoptr(GPtrArray) series = g_ptr_array_new_with_free_func ((GDestroyNotify)embers_series_free);
  g_autoptr(GPtrArray) stats = NULL;
  double lo, hi;

  stats = embers_label_stats_compute (series, "region", 0, 60000, 15);
  g_assert_false (embers_label_stats_has_time (stats));
  g_clear_pointer (&stats, g_ptr_array_unref);

  g_ptr_array_add (series, series_new ("eu", "a", (gint64[]) { 15000 }, (double[]) { 3 }, 1));
  g_ptr_array_add (series, series_new ("us", "b", (gint64[]) { 15000 }, (double[]) { 9 }, 1));
  stats = embers_label_stats_compute (series, "region", 0, 60000, 15);
  g_assert_false (embers_label_stats_has_time (stats));
  /* Per-step values across the values: 3 to 9 */
  embers_label_stats_step_range (stats, 0, 60000, 15, &lo, &hi);
  g_assert_cmpfloat (lo, ==, 3);
  g_assert_cmpfloat (hi, ==, 9);
  g_clear_pointer (&stats, g_ptr_array_unref);

  g_ptr_array_add (series, series_new ("us", "c", (gint64[]) { 30000 }, (double[]) { 1 }, 1));
  stats = embers_label_stats_compute (series, "region", 0, 60000, 15);
  g_assert_true (embers_label_stats_has_time (stats));
  embers_label_stats_step_range (stats, 0, 60000, 15, &lo, &hi);
  g_assert_cmpfloat (lo, ==, 1);
  g_assert_cmpfloat (hi, ==, 9);
}

/* Include and exclude stack on the label's one filter */
static void
check_merge (EmbersMatchOp  op,
             const char    *value,
             const char    *add,
             gboolean       exclude,
             EmbersMatchOp  want_op,
             const char    *want_value)
{
  EmbersMatcher existing = { (char *)"region", op, (char *)value };
  g_autofree char *merged = NULL;
  g_autoptr(GError) error = NULL;
  EmbersMatchOp got;

  g_assert_true (embers_label_filter_merge (value != NULL ? &existing : NULL, add, exclude,
                                            &got, &merged, &error));
  g_assert_no_error (error);
  g_assert_cmpint (got, ==, want_op);
  g_assert_cmpstr (merged, ==, want_value);
}

static void
test_filter_merge (void)
{
  g_autofree char *merged = NULL;
  g_autoptr(GError) error = NULL;
  EmbersMatchOp op;

  /* Nothing yet */
  check_merge (0, NULL, "eu", FALSE, EMBERS_MATCH_EQUAL, "eu");
  check_merge (0, NULL, "eu", TRUE, EMBERS_MATCH_NOT_EQUAL, "eu");
  /* Excludes stack: neither eu nor us (nor ap) */
  check_merge (EMBERS_MATCH_NOT_EQUAL, "eu", "us", TRUE, EMBERS_MATCH_NOT_REGEX, "eu|us");
  check_merge (EMBERS_MATCH_NOT_REGEX, "eu|us", "ap", TRUE, EMBERS_MATCH_NOT_REGEX, "eu|us|ap");
  check_merge (EMBERS_MATCH_NOT_REGEX, "eu|us", "us", TRUE, EMBERS_MATCH_NOT_REGEX, "eu|us");
  check_merge (EMBERS_MATCH_NOT_EQUAL, "eu", "eu", TRUE, EMBERS_MATCH_NOT_EQUAL, "eu");
  /* Includes stack too: either */
  check_merge (EMBERS_MATCH_EQUAL, "eu", "us", FALSE, EMBERS_MATCH_REGEX, "eu|us");
  check_merge (EMBERS_MATCH_EQUAL, "eu", "eu", FALSE, EMBERS_MATCH_EQUAL, "eu");
  check_merge (EMBERS_MATCH_REGEX, "eu|us", "ap", FALSE, EMBERS_MATCH_REGEX, "eu|us|ap");
  /* Values are escaped, and read back */
  check_merge (EMBERS_MATCH_EQUAL, "eu-west-1", "us.east", FALSE, EMBERS_MATCH_REGEX, "eu-west-1|us\\.east");
  check_merge (EMBERS_MATCH_REGEX, "eu-west-1|us\\.east", "us.east", TRUE, EMBERS_MATCH_EQUAL, "eu-west-1");
  check_merge (EMBERS_MATCH_NOT_EQUAL, "a|b", "(c)", TRUE, EMBERS_MATCH_NOT_REGEX, "a\\|b|\\(c\\)");
  /* The missing value "" in a set */
  check_merge (EMBERS_MATCH_NOT_EQUAL, "", "eu", TRUE, EMBERS_MATCH_NOT_REGEX, "|eu");
  check_merge (EMBERS_MATCH_NOT_REGEX, "|eu", "us", TRUE, EMBERS_MATCH_NOT_REGEX, "|eu|us");
  /* An include replaces an exclusion */
  check_merge (EMBERS_MATCH_NOT_REGEX, "eu|us", "us", FALSE, EMBERS_MATCH_EQUAL, "us");
  /* Excluding from an include takes the value out; all of it: != */
  check_merge (EMBERS_MATCH_REGEX, "eu|us|ap", "us", TRUE, EMBERS_MATCH_REGEX, "eu|ap");
  check_merge (EMBERS_MATCH_REGEX, "eu|us", "us", TRUE, EMBERS_MATCH_EQUAL, "eu");
  check_merge (EMBERS_MATCH_EQUAL, "eu", "eu", TRUE, EMBERS_MATCH_NOT_EQUAL, "eu");
  /* ...and a value that is not included stays out */
  check_merge (EMBERS_MATCH_EQUAL, "eu", "us", TRUE, EMBERS_MATCH_EQUAL, "eu");
  /* A regex of the user's own gets one more alternative */
  check_merge (EMBERS_MATCH_REGEX, "eu.*", "us", FALSE, EMBERS_MATCH_REGEX, "eu.*|us");
  check_merge (EMBERS_MATCH_NOT_REGEX, "eu.*", "us", TRUE, EMBERS_MATCH_NOT_REGEX, "eu.*|us");
  /* ...but cannot lose one: said so */
  {
    EmbersMatcher existing = { (char *)"region", EMBERS_MATCH_REGEX, (char *)"eu.*" };

    g_assert_false (embers_label_filter_merge (&existing, "eu-west-1", TRUE, &op, &merged, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED);
    g_assert_null (merged);
  }
}

/* Histograms of a value's per-step values, ties, top N and "show all" */

static void
test_value_histogram_empty (void)
{
  g_autoptr(GPtrArray) series = g_ptr_array_new_with_free_func ((GDestroyNotify)embers_series_free);
  g_autoptr(GPtrArray) stats = NULL;
  g_autofree guint *counts = NULL;
  double lo = -1, hi = -1;
  guint n = 99;

  /* A series with no points over [0, 60 s]: no step has data, nothing binned */
  g_ptr_array_add (series, series_new ("eu", "a", NULL, NULL, 0));
  stats = embers_label_stats_compute (series, "region", 0, 60000, 15);
  counts = embers_label_value_stats_histogram (stats->pdata[0], 0, 60000, 15, 4, &lo, &hi, &n);
  g_assert_cmpuint (n, ==, 0);
  g_assert_cmpuint (counts[0] + counts[1] + counts[2] + counts[3], ==, 0);
  g_assert_cmpfloat (lo, ==, 0);
  g_assert_cmpfloat (hi, ==, 0);
  /* Four steps in the range, none with data */
  g_assert_cmpuint (((EmbersLabelValueStats *)stats->pdata[0])->n_steps, ==, 4);
  g_assert_cmpuint (((EmbersLabelValueStats *)stats->pdata[0])->n_data_steps, ==, 0);
  g_clear_pointer (&counts, g_free);

  /* No range and no points: nothing binned */
  counts = embers_label_value_stats_histogram (stats->pdata[0], 0, 0, 15, 4, &lo, &hi, &n);
  g_assert_cmpuint (n, ==, 0);
  g_assert_cmpuint (counts[0] + counts[1] + counts[2] + counts[3], ==, 0);
  g_assert_cmpfloat (embers_label_stats_max_of_max (stats), ==, 0);
}

static void
test_value_histogram_one_point (void)
{
  g_autoptr(GPtrArray) series = g_ptr_array_new_with_free_func ((GDestroyNotify)embers_series_free);
  g_autoptr(GPtrArray) stats = NULL;
  g_autofree guint *counts = NULL;
  double lo, hi;
  guint n;

  g_ptr_array_add (series, series_new ("eu", "a", (gint64[]) { 30000 }, (double[]) { 8 }, 1));
  /* No range: the point alone, one bin holds it */
  stats = embers_label_stats_compute (series, "region", 0, 0, 15);
  counts = embers_label_value_stats_histogram (stats->pdata[0], 0, 0, 15, 3, &lo, &hi, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpuint (counts[0], ==, 1);
  g_assert_cmpfloat (lo, ==, 8);
  g_assert_cmpfloat (hi, ==, 8);
  g_clear_pointer (&counts, g_free);

  /* Over (0, 60 s]: steps [0, 8, 0, 0]; only the step with data is binned */
  counts = embers_label_value_stats_histogram (stats->pdata[0], 0, 60000, 15, 4, &lo, &hi, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpfloat (lo, ==, 8);
  g_assert_cmpfloat (hi, ==, 8);
  g_assert_cmpuint (counts[0], ==, 1);
  g_assert_cmpuint (counts[1] + counts[2] + counts[3], ==, 0);
  g_clear_pointer (&counts, g_free);

  /* A point outside the range is left out */
  counts = embers_label_value_stats_histogram (stats->pdata[0], 45000, 90000, 15, 4, &lo, &hi, &n);
  g_assert_cmpuint (n, ==, 0);
  g_assert_cmpfloat (embers_label_stats_max_of_max (stats), ==, 8);
}

static void
test_value_histogram_gaps (void)
{
  g_autoptr(GPtrArray) series = g_ptr_array_new_with_free_func ((GDestroyNotify)embers_series_free);
  g_autoptr(GPtrArray) stats = NULL;
  g_autofree guint *counts = NULL;
  double lo, hi;
  guint n, sum = 0;

  /* Steps over (0, 90 s], stamped 15 … 90 s: [2, 4, -, -, 6, 4] (two pods
   * add up at 15 s; the gaps are left out) */
  g_ptr_array_add (series, series_new ("eu", "a", (gint64[]) { 15000, 30000, 75000 }, (double[]) { 1, 4, 6 }, 3));
  g_ptr_array_add (series, series_new ("eu", "b", (gint64[]) { 15000, 90000 }, (double[]) { 1, 4 }, 2));
  stats = embers_label_stats_compute (series, "region", 0, 90000, 15);
  g_assert_cmpuint (stats->len, ==, 1);
  counts = embers_label_value_stats_histogram (stats->pdata[0], 0, 90000, 15, 3, &lo, &hi, &n);
  g_assert_cmpuint (n, ==, 4);
  g_assert_cmpfloat (lo, ==, 2);
  g_assert_cmpfloat (hi, ==, 6);
  /* bins [2, 3.33) [3.33, 4.67) [4.67, 6]: 2 | 4,4 | 6 */
  g_assert_cmpuint (counts[0], ==, 1);
  g_assert_cmpuint (counts[1], ==, 2);
  g_assert_cmpuint (counts[2], ==, 1);
  for (guint i = 0; i < 3; i++)
    sum += counts[i];
  g_assert_cmpuint (sum, ==, n);
  /* The mean and deviation are of the same four steps */
  g_assert_cmpuint (((EmbersLabelValueStats *)stats->pdata[0])->n_data_steps, ==, 4);
  g_assert_cmpfloat_with_epsilon (((EmbersLabelValueStats *)stats->pdata[0])->mean, 4.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (((EmbersLabelValueStats *)stats->pdata[0])->stddev, sqrt (2.0), 1e-9);
  g_clear_pointer (&counts, g_free);

  /* On a shared axis [0, 12] in 3 bins of 4: 2 | 4,4,6 | none (not its own [2, 6]) */
  counts = embers_label_value_stats_histogram_range (stats->pdata[0], 0, 90000, 15, 3, 0, 12, &n);
  g_assert_cmpuint (n, ==, 4);
  g_assert_cmpuint (counts[0], ==, 1);
  g_assert_cmpuint (counts[1], ==, 3);
  g_assert_cmpuint (counts[2], ==, 0);
}

static void
test_equal_values_and_top (void)
{
  g_autoptr(GPtrArray) series = g_ptr_array_new_with_free_func ((GDestroyNotify)embers_series_free);
  g_autoptr(GPtrArray) stats = NULL;
  g_autofree guint *counts = NULL;
  EmbersLabelValueStats *rest = NULL;
  double lo, hi;
  guint n;

  /* Three values with the same total: ordered by value; steps all equal
   * (a chart of (0, 45 s]: points at 15, 30, 45 s) */
  g_ptr_array_add (series, series_new ("us", "a", (gint64[]) { 15000, 30000, 45000 }, (double[]) { 5, 5, 5 }, 3));
  g_ptr_array_add (series, series_new ("ap", "b", (gint64[]) { 15000, 30000, 45000 }, (double[]) { 5, 5, 5 }, 3));
  g_ptr_array_add (series, series_new ("eu", "c", (gint64[]) { 15000, 30000, 45000 }, (double[]) { 5, 5, 5 }, 3));
  g_ptr_array_add (series, series_new ("sa", "d", (gint64[]) { 15000 }, (double[]) { 60 }, 1));
  stats = embers_label_stats_compute (series, "region", 0, 45000, 15);
  g_assert_cmpuint (stats->len, ==, 4);
  g_assert_cmpstr (((EmbersLabelValueStats *)stats->pdata[0])->value, ==, "sa");
  g_assert_cmpstr (((EmbersLabelValueStats *)stats->pdata[1])->value, ==, "ap");
  g_assert_cmpstr (((EmbersLabelValueStats *)stats->pdata[2])->value, ==, "eu");
  g_assert_cmpstr (((EmbersLabelValueStats *)stats->pdata[3])->value, ==, "us");
  g_assert_cmpfloat_with_epsilon (((EmbersLabelValueStats *)stats->pdata[1])->share, 15.0 / 105.0, 1e-9);
  g_assert_cmpfloat (((EmbersLabelValueStats *)stats->pdata[1])->stddev, ==, 0);
  g_assert_cmpint (embers_label_stats_find (stats, "eu"), ==, 2);
  g_assert_cmpint (embers_label_stats_find (stats, "nowhere"), ==, -1);

  /* Equal steps: one bin holds all three */
  counts = embers_label_value_stats_histogram (stats->pdata[2], 0, 45000, 15, 5, &lo, &hi, &n);
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpuint (counts[0], ==, 3);
  g_assert_cmpfloat (lo, ==, 5);
  g_assert_cmpfloat (hi, ==, 5);

  /* Top 2: sa, ap; the rest (eu, us) summed */
  {
    g_autoptr(GPtrArray) top = embers_label_stats_top (stats, 2, &rest);

    g_assert_cmpuint (top->len, ==, 2);
    g_assert_cmpstr (((EmbersLabelValueStats *)top->pdata[1])->value, ==, "ap");
    g_assert_nonnull (rest);
    g_assert_cmpfloat (rest->total, ==, 30);
    g_assert_cmpfloat (rest->max, ==, 5);
    g_assert_cmpfloat_with_epsilon (rest->share, 30.0 / 105.0, 1e-9);
    g_clear_pointer (&rest, embers_label_value_stats_free);
  }

  /* Show all: every value, no rest; exactly as many as there are: no rest */
  {
    g_autoptr(GPtrArray) all = embers_label_stats_top (stats, EMBERS_LABEL_STATS_ALL, &rest);
    g_autoptr(GPtrArray) four = NULL;

    g_assert_cmpuint (all->len, ==, 4);
    g_assert_null (rest);
    four = embers_label_stats_top (stats, 4, &rest);
    g_assert_cmpuint (four->len, ==, 4);
    g_assert_null (rest);
  }

  /* Top 0: everything is the rest */
  {
    g_autoptr(GPtrArray) none = embers_label_stats_top (stats, 0, &rest);

    g_assert_cmpuint (none->len, ==, 0);
    g_assert_nonnull (rest);
    g_assert_cmpfloat (rest->total, ==, 105);
    g_assert_cmpfloat_with_epsilon (rest->share, 1.0, 1e-9);
    g_clear_pointer (&rest, embers_label_value_stats_free);
  }
  g_assert_cmpfloat (embers_label_stats_max_of_max (stats), ==, 60);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/embers/label-stats/empty", test_stats_empty);
  g_test_add_func ("/embers/label-stats/gaps", test_stats_gaps);
  g_test_add_func ("/embers/label-stats/one-point-no-range", test_stats_one_point_no_range);
  g_test_add_func ("/embers/label-stats/histogram", test_histogram);
  g_test_add_func ("/embers/label-stats/series-steps", test_series_steps);
  g_test_add_func ("/embers/label-stats/value-histogram/empty", test_value_histogram_empty);
  g_test_add_func ("/embers/label-stats/value-histogram/one-point", test_value_histogram_one_point);
  g_test_add_func ("/embers/label-stats/value-histogram/gaps", test_value_histogram_gaps);
  g_test_add_func ("/embers/label-stats/equal-values-and-top", test_equal_values_and_top);
  g_test_add_func ("/embers/label-stats/has-time", test_has_time);
  g_test_add_func ("/embers/label-stats/filter-merge", test_filter_merge);

  return g_test_run ();
}
