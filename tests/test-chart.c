/* test-chart.c: chart geometry, ticks, hit testing and painting
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include <pango/pangocairo.h>

#include "embers-chart.h"

static EmbersSeries *
series_new (const char   *region,
            const gint64 *ts,
            const double *vs,
            guint         n)
{
  EmbersSeries *s = embers_series_new ();

  g_strfreev (s->label_names);
  g_strfreev (s->label_values);
  s->label_names = g_strdupv ((char *[]) { (char *)"region", NULL });
  s->label_values = g_strdupv ((char *[]) { (char *)region, NULL });
  s->n_points = n;
  s->timestamps = g_memdup2 (ts, sizeof (gint64) * n);
  s->values = g_memdup2 (vs, sizeof (double) * n);

  return s;
}

static GPtrArray *
two_series (void)
{
  GPtrArray *series = g_ptr_array_new_with_free_func ((GDestroyNotify)embers_series_free);

  g_ptr_array_add (series, series_new ("eu", (gint64[]) { 0, 60000, 120000 },
                                       (double[]) { 1e9, 3e9, 2e9 }, 3));
  g_ptr_array_add (series, series_new ("us", (gint64[]) { 0, 60000, 120000 },
                                       (double[]) { 5e8, 5e8, 7.5e9 }, 3));
  return series;
}

static void
test_chart_nice_steps (void)
{
  g_assert_cmpfloat (embers_chart_nice_step (10, 5), ==, 2);
  g_assert_cmpfloat (embers_chart_nice_step (100, 4), ==, 50);
  g_assert_cmpfloat (embers_chart_nice_step (7.5e9, 4), ==, 2e9);
  g_assert_cmpfloat (embers_chart_nice_step (0, 4), ==, 1);
  g_assert_cmpint (embers_chart_nice_time_step (3600000, 6), ==, 15 * 60000);
  g_assert_cmpint (embers_chart_nice_time_step (60000, 4), ==, 15000);
  g_assert_cmpint (embers_chart_nice_time_step (7 * 86400000LL, 7), ==, 86400000);

  /* Durations: below 10 s per step decimal, then seconds, minutes, hours */
  g_assert_cmpfloat (embers_chart_nice_value_step (7.5e9, 4, "nanoseconds"), ==, 2e9);
  g_assert_cmpfloat (embers_chart_nice_value_step (3e11, 6, "nanoseconds"), ==, 60e9);     /* 5 min: 1 min, not 50 s */
  g_assert_cmpfloat (embers_chart_nice_value_step (1e11, 4, "nanoseconds"), ==, 30e9);     /* 100 s: 30 s */
  g_assert_cmpfloat (embers_chart_nice_value_step (7200e9, 4, "nanoseconds"), ==, 1800e9); /* 2 h: 30 min */
  g_assert_cmpfloat (embers_chart_nice_value_step (300, 6, "seconds"), ==, 60);
  g_assert_cmpfloat (embers_chart_nice_value_step (10 * 86400e9, 5, "nanoseconds"), ==, 2 * 86400e9);
  /* Sizes: 1-2-5 multiples of the binary unit */
  g_assert_cmpfloat (embers_chart_nice_value_step (1024.0 * 1024 * 1024, 4, "bytes"), ==, 500.0 * 1024 * 1024);
  g_assert_cmpfloat (embers_chart_nice_value_step (10 * 1024, 5, "bytes"), ==, 2 * 1024);
  g_assert_cmpfloat (embers_chart_nice_value_step (4096, 4, "kilobytes"), ==, 1024);
  g_assert_cmpfloat (embers_chart_nice_value_step (800, 4, "bytes"), ==, 200);
  /* Counts as before */
  g_assert_cmpfloat (embers_chart_nice_value_step (100, 4, "count"), ==, 50);
  g_assert_cmpfloat (embers_chart_nice_value_step (0, 4, "nanoseconds"), ==, 1);
}

/* Value axis labels: whole units of time without trailing zeros */
static void
test_chart_axis_labels (void)
{
  g_autoptr(GPtrArray) series = g_ptr_array_new_with_free_func ((GDestroyNotify) embers_series_free);
  g_autoptr(EmbersChart) chart = embers_chart_new (EMBERS_CHART_KIND_LINES);
  g_autoptr(EmbersChart) counts = embers_chart_new (EMBERS_CHART_KIND_LINES);
  g_autoptr(GPtrArray) count_series = g_ptr_array_new_with_free_func ((GDestroyNotify) embers_series_free);
  const EmbersChartTick *ticks;
  guint n;

  /* Up to 5 minutes of CPU per step */
  g_ptr_array_add (series, series_new ("a", (gint64[]) { 0, 60000 }, (double[]) { 1e11, 3e11 }, 2));
  embers_chart_set_unit (chart, "nanoseconds");
  embers_chart_set_series (chart, series, NULL);
  embers_chart_set_time_range (chart, 0, 60000);
  embers_chart_set_size (chart, 600, 280);
  ticks = embers_chart_get_y_ticks (chart, &n);
  g_assert_cmpuint (n, >=, 3);
  g_assert_cmpstr (ticks[0].label, ==, "0");
  g_assert_cmpfloat (ticks[1].value, ==, 60e9);
  g_assert_cmpstr (ticks[1].label, ==, "1 min");
  g_assert_cmpstr (ticks[n - 1].label, ==, "5 min");
  for (guint k = 0; k < n; k++)
    g_assert_null (strstr (ticks[k].label, ".00"));

  /* Counts keep their thousands separators */
  g_ptr_array_add (count_series, series_new ("a", (gint64[]) { 0, 60000 }, (double[]) { 10, 30000 }, 2));
  embers_chart_set_unit (counts, "count");
  embers_chart_set_series (counts, count_series, NULL);
  embers_chart_set_time_range (counts, 0, 60000);
  embers_chart_set_size (counts, 600, 280);
  ticks = embers_chart_get_y_ticks (counts, &n);
  g_assert_cmpuint (n, >=, 3);
  g_assert_cmpfloat (ticks[1].value, ==, 5000);
  g_assert_true (g_str_has_prefix (ticks[1].label, "5"));
  g_assert_true (g_str_has_suffix (ticks[1].label, "000"));
}

static void
test_chart_lines_geometry (void)
{
  g_autoptr(GPtrArray) series = two_series ();
  g_autoptr(EmbersChart) chart = embers_chart_new (EMBERS_CHART_KIND_LINES);
  const EmbersChartTick *ticks;
  double px, py, pw, ph;
  guint n, s, i;

  embers_chart_set_unit (chart, "nanoseconds");
  embers_chart_set_series (chart, series, "region");
  embers_chart_set_time_range (chart, 0, 120000);
  embers_chart_set_size (chart, 600, 200);
  embers_chart_get_plot_area (chart, &px, &py, &pw, &ph);

  g_assert_cmpuint (embers_chart_get_n_series (chart), ==, 2);
  g_assert_cmpfloat (px, >, 0);
  g_assert_cmpfloat (px + pw, <=, 600);
  g_assert_cmpfloat (py + ph, <=, 200);

  /* The y axis covers the maximum on a nice boundary */
  g_assert_cmpfloat (embers_chart_get_y_max (chart), >=, 7.5e9);
  ticks = embers_chart_get_y_ticks (chart, &n);
  g_assert_cmpuint (n, >=, 2);
  g_assert_cmpfloat (ticks[0].value, ==, 0);
  g_assert_cmpstr (ticks[0].label, ==, "0");
  g_assert_cmpfloat (ticks[n - 1].value, ==, embers_chart_get_y_max (chart));

  /* Time <-> x both ways */
  g_assert_cmpfloat_with_epsilon (embers_chart_x_for_time (chart, 0), px, 1e-9);
  g_assert_cmpfloat_with_epsilon (embers_chart_x_for_time (chart, 120000), px + pw, 1e-9);
  g_assert_cmpint (embers_chart_time_for_x (chart, px + pw / 2), ==, 60000);
  g_assert_cmpint (embers_chart_time_for_x (chart, -50), ==, 0);
  g_assert_cmpint (embers_chart_time_for_x (chart, 10000), ==, 120000);
  g_assert_cmpfloat_with_epsilon (embers_chart_y_for_value (chart, 0), py + ph, 1e-9);

  ticks = embers_chart_get_x_ticks (chart, &n);
  g_assert_cmpuint (n, >=, 2);
  for (guint k = 0; k < n; k++)
    {
      g_assert_cmpfloat (ticks[k].value, >=, 0);
      g_assert_cmpfloat (ticks[k].value, <=, 120000);
      g_assert_cmpuint (strlen (ticks[k].label), >, 0);
    }

  /* Hit testing picks the point under the pointer (points are drawn in
   * the middle of the step they hold) */
  embers_chart_set_step (chart, 0);
  g_assert_true (embers_chart_hit (chart, embers_chart_x_for_time (chart, 120000),
                                   embers_chart_y_for_value (chart, 7.5e9) + 2, &s, &i));
  g_assert_cmpuint (s, ==, 1);
  g_assert_cmpuint (i, ==, 2);
  g_assert_true (embers_chart_hit (chart, embers_chart_x_for_time (chart, 60000) + 3,
                                   embers_chart_y_for_value (chart, 3e9), &s, &i));
  g_assert_cmpuint (s, ==, 0);
  g_assert_cmpuint (i, ==, 1);
  /* Far from every point in time: nothing */
  g_assert_false (embers_chart_hit (chart, embers_chart_x_for_time (chart, 30000), py + ph / 2, &s, &i));

  {
    g_autofree char *text = embers_chart_describe (chart, 1, 2);
    g_autofree char *a11y = embers_chart_accessible_text (chart);

    g_assert_nonnull (strstr (text, "us — 7.50 s at "));
    g_assert_nonnull (strstr (a11y, "2 series"));
    g_assert_null (embers_chart_describe (chart, 5, 0));
  }

  /* Selection is normalized */
  embers_chart_set_selection (chart, 90000, 30000);
  {
    gint64 from, to;

    g_assert_true (embers_chart_get_selection (chart, &from, &to));
    g_assert_cmpint (from, ==, 30000);
    g_assert_cmpint (to, ==, 90000);
    embers_chart_clear_selection (chart);
    g_assert_false (embers_chart_get_selection (chart, &from, &to));
  }
}

static void
test_chart_bars_histogram (void)
{
  g_autoptr(EmbersChart) bars = embers_chart_new (EMBERS_CHART_KIND_BARS);
  g_autoptr(EmbersChart) hist = embers_chart_new (EMBERS_CHART_KIND_HISTOGRAM);
  const char *labels[] = { "eu-west-1", "us-east-1", "ap-south-1" };
  double values[] = { 300, 100, 50 };
  guint counts[] = { 5, 0, 2, 1 };
  double px, py, pw, ph;
  guint s, i;
  const EmbersChartTick *ticks;
  guint n;

  embers_chart_set_unit (bars, "bytes");
  embers_chart_set_bars (bars, labels, values, 3);
  embers_chart_set_size (bars, 400, 90);
  embers_chart_get_plot_area (bars, &px, &py, &pw, &ph);
  /* Rows of 30 px: y = 45 is the second bar */
  g_assert_true (embers_chart_hit (bars, px + 5, py + ph / 2, &s, &i));
  g_assert_cmpuint (i, ==, 1);
  {
    g_autofree char *text = embers_chart_describe (bars, 0, 0);
    g_assert_cmpstr (text, ==, "eu-west-1 — 300 B");
  }

  embers_chart_set_histogram (hist, counts, 4, 0, 100);
  embers_chart_set_size (hist, 400, 200);
  embers_chart_get_plot_area (hist, &px, &py, &pw, &ph);
  g_assert_cmpfloat (embers_chart_get_y_max (hist), >=, 5);
  g_assert_true (embers_chart_hit (hist, px + pw * 0.6, py + ph - 1, &s, &i));
  g_assert_cmpuint (i, ==, 2);
  /* Ticks at nice values (0, 50, 100 for about 4 ticks' room), not at the
   * edges of the 4 bins */
  ticks = embers_chart_get_x_ticks (hist, &n);
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpfloat (ticks[0].value, ==, 0);
  g_assert_cmpfloat (ticks[1].value, ==, 50);
  g_assert_cmpfloat (ticks[2].value, ==, 100);
  {
    g_autofree char *text = embers_chart_describe (hist, 0, 0);
    g_assert_cmpstr (text, ==, "0 to 25: 5 steps");
  }
}

/* No label twice on an axis; histogram ticks at round values */
static void
assert_unique_labels (const EmbersChartTick *ticks,
                      guint                  n)
{
  for (guint i = 1; i < n; i++)
    g_assert_cmpstr (ticks[i].label, !=, ticks[i - 1].label);
}

static void
test_chart_ticks_unique (void)
{
  g_autoptr(GPtrArray) series = g_ptr_array_new_with_free_func ((GDestroyNotify) embers_series_free);
  g_autoptr(EmbersChart) tiny = embers_chart_new (EMBERS_CHART_KIND_LINES);
  g_autoptr(EmbersChart) hist = embers_chart_new (EMBERS_CHART_KIND_HISTOGRAM);
  const EmbersChartTick *ticks;
  guint counts[12] = { 1, 2, 5, 3, 0, 0, 1, 0, 2, 4, 1, 1 };
  guint n;

  /* Values of 1 and 2 ns on a tall chart: 0, 1 ns, 2 ns, not "1 ns" twice */
  g_ptr_array_add (series, series_new ("a", (gint64[]) { 0, 60000 }, (double[]) { 1, 2 }, 2));
  embers_chart_set_unit (tiny, "nanoseconds");
  embers_chart_set_series (tiny, series, NULL);
  embers_chart_set_time_range (tiny, 0, 60000);
  embers_chart_set_size (tiny, 300, 240);
  ticks = embers_chart_get_y_ticks (tiny, &n);
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpstr (ticks[0].label, ==, "0");
  g_assert_cmpstr (ticks[1].label, ==, "1 ns");
  g_assert_cmpstr (ticks[2].label, ==, "2 ns");
  assert_unique_labels (ticks, n);

  /* A histogram of per-step CPU from 1.37 s to 2.9 s: ticks on round
   * tenths of a second inside the range, each label once */
  embers_chart_set_unit (hist, "nanoseconds");
  embers_chart_set_histogram (hist, counts, 12, 1.37e9, 2.9e9);
  embers_chart_set_size (hist, 300, 120);
  ticks = embers_chart_get_x_ticks (hist, &n);
  g_assert_cmpuint (n, >=, 2);
  for (guint i = 0; i < n; i++)
    {
      g_assert_cmpfloat (ticks[i].value, >=, 1.37e9);
      g_assert_cmpfloat (ticks[i].value, <=, 2.9e9);
      g_assert_cmpfloat (fmod (ticks[i].value, 1e8), ==, 0);
    }
  g_assert_cmpstr (ticks[0].label, ==, "1.5 s");
  assert_unique_labels (ticks, n);
  ticks = embers_chart_get_y_ticks (hist, &n);
  assert_unique_labels (ticks, n);
}

/* Every step the same value: one bar, one label, a tooltip that says so */
static void
test_chart_histogram_degenerate (void)
{
  g_autoptr(EmbersChart) hist = embers_chart_new (EMBERS_CHART_KIND_HISTOGRAM);
  g_autoptr(EmbersChart) empty = embers_chart_new (EMBERS_CHART_KIND_HISTOGRAM);
  guint counts[12] = { 3 };
  guint none[12] = { 0 };
  const EmbersChartTick *ticks;
  double px, py, pw, ph;
  guint n, s, i;

  embers_chart_set_unit (hist, "nanoseconds");
  embers_chart_set_histogram (hist, counts, 12, 1.22e9, 1.22e9);
  embers_chart_set_size (hist, 300, 120);
  g_assert_cmpuint (embers_chart_get_n_series (hist), ==, 1);
  ticks = embers_chart_get_x_ticks (hist, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpstr (ticks[0].label, ==, "1.22 s");
  embers_chart_get_plot_area (hist, &px, &py, &pw, &ph);
  /* The bar stands in the middle; hovering it says what it holds */
  g_assert_true (embers_chart_hit (hist, px + pw / 2, py + ph - 2, &s, &i));
  g_assert_cmpuint (i, ==, 0);
  g_assert_false (embers_chart_hit (hist, px + 2, py + ph - 2, &s, &i));
  {
    g_autofree char *text = embers_chart_describe (hist, 0, 0);

    g_assert_cmpstr (text, ==, "All 3 steps: 1.22 s");
  }
  {
    cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 300, 120);
    cairo_t *cr = cairo_create (surface);

    embers_chart_paint (hist, cr, NULL);
    cairo_destroy (cr);
    cairo_surface_destroy (surface);
  }

  /* No data at all: no label, nothing to hover */
  embers_chart_set_histogram (empty, none, 12, 0, 0);
  embers_chart_set_size (empty, 300, 120);
  ticks = embers_chart_get_x_ticks (empty, &n);
  g_assert_cmpuint (n, ==, 0);
  g_assert_null (embers_chart_describe (empty, 0, 0));
}

/* Charts on one scale: the value axis reaches the shared maximum */
static void
test_chart_value_max (void)
{
  g_autoptr(GPtrArray) series = two_series ();
  g_autoptr(GPtrArray) one = g_ptr_array_new ();
  g_autoptr(EmbersChart) own = embers_chart_new (EMBERS_CHART_KIND_LINES);
  g_autoptr(EmbersChart) shared = embers_chart_new (EMBERS_CHART_KIND_LINES);

  /* eu alone peaks at 3 s; us reaches 7.5 s */
  g_ptr_array_add (one, g_ptr_array_index (series, 0));
  embers_chart_set_unit (own, "nanoseconds");
  embers_chart_set_series (own, one, "region");
  embers_chart_set_size (own, 300, 160);
  embers_chart_set_unit (shared, "nanoseconds");
  embers_chart_set_series (shared, one, "region");
  embers_chart_set_size (shared, 300, 160);
  embers_chart_set_value_max (shared, 7.5e9);
  g_assert_cmpfloat (embers_chart_get_y_max (own), <, 5e9);
  g_assert_cmpfloat (embers_chart_get_y_max (shared), >=, 7.5e9);
  /* eu's 3 s sits lower on the shared scale */
  g_assert_cmpfloat (embers_chart_y_for_value (shared, 3e9), >, embers_chart_y_for_value (own, 3e9));
  embers_chart_set_value_max (shared, 0);
  g_assert_cmpfloat (embers_chart_get_y_max (shared), ==, embers_chart_get_y_max (own));
}

static void
test_chart_paint (void)
{
  g_autoptr(GPtrArray) series = two_series ();
  g_autoptr(EmbersChart) chart = embers_chart_new (EMBERS_CHART_KIND_LINES);
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 300, 120);
  cairo_t *cr = cairo_create (surface);
  EmbersChartStyle style;
  guint8 *data;
  int stride;
  guint painted = 0;
  double sel_x;

  embers_chart_style_init (&style, FALSE);
  embers_chart_set_series (chart, series, "region");
  embers_chart_set_time_range (chart, 0, 120000);
  embers_chart_set_size (chart, 300, 120);
  embers_chart_set_selection (chart, 0, 30000);
  embers_chart_set_hover (chart, 0, 1);
  embers_chart_paint (chart, cr, &style);
  cairo_surface_flush (surface);

  data = cairo_image_surface_get_data (surface);
  stride = cairo_image_surface_get_stride (surface);
  for (int y = 0; y < 120; y++)
    for (int x = 0; x < 300; x++)
      if (data[y * stride + x * 4 + 3] != 0)
        painted++;
  g_assert_cmpuint (painted, >, 500);

  /* The selection is shaded in the accent colour (blue dominates) */
  sel_x = embers_chart_x_for_time (chart, 15000);
  {
    guint8 *px = data + 60 * stride + (int)sel_x * 4;   /* BGRA premultiplied */
    g_assert_cmpuint (px[3], >, 0);
    g_assert_cmpuint (px[0], >, px[2]);
  }

  cairo_destroy (cr);
  cairo_surface_destroy (surface);

  /* Empty charts paint without trouble */
  {
    g_autoptr(EmbersChart) empty = embers_chart_new (EMBERS_CHART_KIND_BARS);
    cairo_surface_t *s2 = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 10, 10);
    cairo_t *cr2 = cairo_create (s2);

    embers_chart_set_size (empty, 10, 10);
    embers_chart_paint (empty, cr2, NULL);
    g_assert_false (embers_chart_hit (empty, 5, 5, NULL, NULL));
    cairo_destroy (cr2);
    cairo_surface_destroy (s2);
  }
}

/* As in test-render.c: fontconfig's configuration, loaded by Pango, lives
 * as long as the process; everything of ours is still checked. */
const char *__lsan_default_suppressions (void);

const char *
__lsan_default_suppressions (void)
{
  return "leak:libfontconfig.so\n";
}

/* A point T holds (T - step, T] (Pyroscope's SelectSeries,
 * pkg/model/timeseries/range.go): it is drawn in the middle of its step,
 * and a dragged range widens to the whole steps it touches, from just
 * after the first step's start to its last T, so that the flame graph of
 * the selection holds exactly the profiles the selected points count */
static void
test_chart_steps (void)
{
  g_autoptr(EmbersChart) chart = embers_chart_new (EMBERS_CHART_KIND_LINES);
  gint64 from, to;

  embers_chart_set_time_range (chart, 0, 120000);
  embers_chart_set_size (chart, 600, 200);
  /* the chart's step is the one charts ask for: 15 s over 2 min */
  g_assert_cmpint (embers_chart_get_step (chart), ==, 15000);
  g_assert_cmpfloat_with_epsilon (embers_chart_x_for_point (chart, 30000),
                                  embers_chart_x_for_time (chart, 22500), 1e-9);

  /* 20 s is in the step stamped 30 s, (15, 30]; 50 s in (45, 60] */
  from = 20000;
  to = 50000;
  g_assert_true (embers_chart_snap_to_steps (chart, &from, &to));
  g_assert_cmpint (from, ==, 15001);
  g_assert_cmpint (to, ==, 60000);
  /* A range on step boundaries stays put: (30, 60] is the points 45 and 60 */
  from = 30001;
  to = 60000;
  g_assert_true (embers_chart_snap_to_steps (chart, &from, &to));
  g_assert_cmpint (from, ==, 30001);
  g_assert_cmpint (to, ==, 60000);
  /* Within one step: that step */
  from = 61000;
  to = 62000;
  g_assert_true (embers_chart_snap_to_steps (chart, &from, &to));
  g_assert_cmpint (from, ==, 60001);
  g_assert_cmpint (to, ==, 75000);

  /* No step: nothing snaps */
  embers_chart_set_step (chart, 0);
  g_assert_false (embers_chart_snap_to_steps (chart, &from, &to));
}

/* Counts the pixels in column x (from y0 to y1) of a series' colour (the
 * grid and text are grey, the lines coloured) */
static guint
count_colored (cairo_surface_t *surface,
               int              x,
               int              y0,
               int              y1)
{
  guint8 *data = cairo_image_surface_get_data (surface);
  int stride = cairo_image_surface_get_stride (surface);
  guint n = 0;

  cairo_surface_flush (surface);
  for (int y = y0; y < y1; y++)
    {
      guint8 *px = data + y * stride + x * 4;   /* BGRA, opaque here */

      if (MAX (px[0], MAX (px[1], px[2])) - MIN (px[0], MIN (px[1], px[2])) > 50)
        n++;
    }
  return n;
}

static cairo_surface_t *
paint_on (EmbersChart *chart,
          gboolean     dark,
          int          width,
          int          height)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, width, height);
  cairo_t *cr = cairo_create (surface);
  EmbersChartStyle style;

  embers_chart_style_init (&style, dark);
  /* The card behind the chart, as the widgets paint it */
  style.background[0] = style.background[1] = style.background[2] = dark ? 0.19 : 1.0;
  style.background[3] = 1.0;
  cairo_set_source_rgb (cr, style.background[0], style.background[1], style.background[2]);
  cairo_paint (cr);
  embers_chart_set_size (chart, width, height);
  embers_chart_paint (chart, cr, &style);
  cairo_destroy (cr);
  return surface;
}

/* SelectSeries omits the steps without data (points are sparse,
 * /work/shared/PYROSCOPE-API.md; pkg/model/timeseries/range.go): a step
 * with no point is a gap in the line, not a line across it */
static void
test_chart_gaps (void)
{
  g_autoptr(GPtrArray) series = g_ptr_array_new_with_free_func ((GDestroyNotify)embers_series_free);
  g_autoptr(EmbersChart) chart = embers_chart_new (EMBERS_CHART_KIND_LINES);
  cairo_surface_t *surface;
  double x_gap, x_line;
  double y0, y1;

  /* 15 s steps over 2 min: data at 15-45 s and 90-120 s, none at 60 and 75 s */
  g_ptr_array_add (series, series_new ("eu", (gint64[]) { 15000, 30000, 45000, 90000, 105000, 120000 },
                                       (double[]) { 5, 5, 5, 5, 5, 5 }, 6));
  embers_chart_set_series (chart, series, "region");
  embers_chart_set_time_range (chart, 0, 120000);
  embers_chart_set_now (chart, 10 * 120000);
  g_assert_false (embers_chart_is_gap (chart, 15000, 30000));
  g_assert_true (embers_chart_is_gap (chart, 45000, 90000));
  g_assert_false (embers_chart_get_partial_step (chart, NULL, NULL));

  surface = paint_on (chart, FALSE, 600, 200);
  embers_chart_get_plot_area (chart, NULL, &y0, NULL, &y1);
  y1 += y0;
  /* Between the points at 45 and 90 s: no line; between 15 and 30 s: the line */
  x_gap = (embers_chart_x_for_point (chart, 45000) + embers_chart_x_for_point (chart, 90000)) / 2;
  x_line = (embers_chart_x_for_point (chart, 15000) + embers_chart_x_for_point (chart, 30000)) / 2;
  g_assert_cmpuint (count_colored (surface, (int)x_line, (int)y0, (int)y1), >, 0);
  g_assert_cmpuint (count_colored (surface, (int)x_gap, (int)y0, (int)y1), ==, 0);
  cairo_surface_destroy (surface);
}

/* A last step that is not over: the range's end off the step grid
 * (points are stamped start + k·step up to the end), or now inside it */
static void
test_chart_partial_step (void)
{
  g_autoptr(GPtrArray) series = g_ptr_array_new_with_free_func ((GDestroyNotify)embers_series_free);
  g_autoptr(EmbersChart) chart = embers_chart_new (EMBERS_CHART_KIND_LINES);
  g_autofree char *whole = NULL;
  g_autofree char *partial = NULL;
  gint64 from, to;

  g_ptr_array_add (series, series_new ("eu", (gint64[]) { 105000, 120000 }, (double[]) { 4, 8 }, 2));
  embers_chart_set_series (chart, series, "region");
  embers_chart_set_size (chart, 600, 200);

  /* On the grid, long past: whole */
  embers_chart_set_time_range (chart, 0, 120000);
  embers_chart_set_now (chart, 3600000);
  g_assert_false (embers_chart_get_partial_step (chart, &from, &to));
  whole = embers_chart_describe (chart, 0, 1);
  g_assert_null (strstr (whole, "partial"));

  /* Now inside the last step (115 s): (105, 120] is partial */
  embers_chart_set_now (chart, 115000);
  g_assert_true (embers_chart_get_partial_step (chart, &from, &to));
  g_assert_cmpint (from, ==, 105000);
  g_assert_cmpint (to, ==, 120000);
  partial = embers_chart_describe (chart, 0, 1);
  g_assert_nonnull (strstr (partial, "partial"));
  g_clear_pointer (&partial, g_free);
  /* the point before is whole */
  partial = embers_chart_describe (chart, 0, 0);
  g_assert_null (strstr (partial, "partial"));

  /* An end off the grid: 0 to 127 s in 15 s steps, (120, 127] is in no point */
  embers_chart_set_step (chart, 15000);
  embers_chart_set_time_range (chart, 0, 127000);
  embers_chart_set_now (chart, 3600000);
  g_assert_true (embers_chart_get_partial_step (chart, &from, &to));
  g_assert_cmpint (from, ==, 120000);
  g_assert_cmpint (to, ==, 127000);

  /* Drawn hatched: the partial part has the grid's strokes, the rest not */
  {
    cairo_surface_t *surface = paint_on (chart, FALSE, 600, 200);
    double x1 = embers_chart_x_for_time (chart, 120000), x2 = embers_chart_x_for_time (chart, 127000);
    double y, h;

    embers_chart_get_plot_area (chart, NULL, &y, NULL, &h);
    /* (the hatching is faint: anything darker than the card) */
    {
      guint8 *data = cairo_image_surface_get_data (surface);
      int stride = cairo_image_surface_get_stride (surface);
      guint grey_in = 0, grey_out = 0;

      for (int yy = (int)y + 2; yy < (int)(y + h) - 2; yy++)
        {
          guint8 *in = data + yy * stride + ((int)((x1 + x2) / 2)) * 4;
          guint8 *out = data + yy * stride + ((int)embers_chart_x_for_time (chart, 50000)) * 4;

          grey_in += in[1] < 250;
          grey_out += out[1] < 250;
        }
      g_test_message ("partial step: %u hatched pixels in a column, %u outside", grey_in, grey_out);
      g_assert_cmpuint (grey_in, >, 3);
      g_assert_cmpuint (grey_out, <, grey_in);
    }
    cairo_surface_destroy (surface);
  }
}

/* The series line against the dark style's card: at least 3:1 (WCAG's
 * ratio for graphics), measured on the painted pixels */
static void
test_chart_contrast (void)
{
  g_autoptr(GPtrArray) series = g_ptr_array_new_with_free_func ((GDestroyNotify)embers_series_free);
  g_autoptr(EmbersChart) chart = embers_chart_new (EMBERS_CHART_KIND_LINES);
  double dark_bg[3] = { 0.19, 0.19, 0.19 };
  double light_bg[3] = { 1, 1, 1 };
  double raw[4], on_dark[4], on_light[4];
  cairo_surface_t *surface;

  /* The palette's first colour alone is too dark on a dark card */
  embers_chart_series_color (0, raw);
  g_test_message ("series 0 on the dark card: %.2f:1 raw", embers_chart_contrast_ratio (raw, dark_bg));
  for (guint i = 0; i < 8; i++)
    {
      embers_chart_series_color_on (i, dark_bg, on_dark);
      embers_chart_series_color_on (i, light_bg, on_light);
      g_assert_cmpfloat (embers_chart_contrast_ratio (on_dark, dark_bg), >=, 3.0);
      g_assert_cmpfloat (embers_chart_contrast_ratio (on_light, light_bg), >=, 3.0);
    }
  g_assert_cmpfloat_with_epsilon (embers_chart_contrast_ratio (light_bg, (double[]) { 0, 0, 0 }), 21.0, 1e-9);

  /* The pixels painted: the line's darkest-to-card ratio in the middle */
  g_ptr_array_add (series, series_new ("eu", (gint64[]) { 15000, 30000, 45000, 60000, 75000, 90000, 105000, 120000 },
                                       (double[]) { 5, 5, 5, 5, 5, 5, 5, 5 }, 8));
  embers_chart_set_series (chart, series, "region");
  embers_chart_set_time_range (chart, 0, 120000);
  embers_chart_set_now (chart, 3600000);
  surface = paint_on (chart, TRUE, 600, 200);
  {
    guint8 *data = cairo_image_surface_get_data (surface);
    int stride = cairo_image_surface_get_stride (surface);
    int x = (int)embers_chart_x_for_time (chart, 60000);
    double best = 1.0;

    for (int y = 0; y < 200; y++)
      {
        guint8 *px = data + y * stride + x * 4;
        double rgb[3] = { px[2] / 255.0, px[1] / 255.0, px[0] / 255.0 };

        best = MAX (best, embers_chart_contrast_ratio (rgb, dark_bg));
      }
    g_test_message ("the line on the dark card, as painted: %.2f:1", best);
    g_assert_cmpfloat (best, >=, 3.0);
  }
  cairo_surface_destroy (surface);
}

/* Two charts on one scale: each reaches the larger one's maximum */
static void
test_chart_shared_scale (void)
{
  g_autoptr(GPtrArray) small = g_ptr_array_new_with_free_func ((GDestroyNotify)embers_series_free);
  g_autoptr(GPtrArray) large = g_ptr_array_new_with_free_func ((GDestroyNotify)embers_series_free);
  g_autoptr(EmbersChart) a = embers_chart_new (EMBERS_CHART_KIND_LINES);
  g_autoptr(EmbersChart) b = embers_chart_new (EMBERS_CHART_KIND_LINES);
  double max;

  g_ptr_array_add (small, series_new ("a", (gint64[]) { 15000, 30000 }, (double[]) { 2, 3 }, 2));
  g_ptr_array_add (large, series_new ("b", (gint64[]) { 15000, 30000 }, (double[]) { 20, 30 }, 2));
  embers_chart_set_series (a, small, NULL);
  embers_chart_set_series (b, large, NULL);
  embers_chart_set_time_range (a, 0, 30000);
  embers_chart_set_time_range (b, 0, 30000);
  embers_chart_set_size (a, 300, 100);
  embers_chart_set_size (b, 300, 100);
  g_assert_cmpfloat (embers_chart_get_data_max (a), ==, 3);
  max = MAX (embers_chart_get_data_max (a), embers_chart_get_data_max (b));
  embers_chart_set_value_max (a, max);
  embers_chart_set_value_max (b, max);
  g_assert_cmpfloat (embers_chart_get_y_max (a), ==, embers_chart_get_y_max (b));
  g_assert_cmpfloat_with_epsilon (embers_chart_y_for_value (a, 30), embers_chart_y_for_value (b, 30), 1e-9);
}

/* Individual profiles as markers: on their point's step at their own
 * value, hit within the radius, described with time, value and labels
 * (not the internal __ ones); the heaviest first across points */
static void
test_chart_markers (void)
{
  g_autoptr(EmbersChart) chart = embers_chart_new (EMBERS_CHART_KIND_LINES);
  g_autoptr(GPtrArray) series = g_ptr_array_new_with_free_func ((GDestroyNotify)embers_series_free);
  g_autoptr(GPtrArray) top = NULL;
  EmbersSeries *s = series_new ("eu", (gint64[]) { 60000, 120000, 180000 }, (double[]) { 4e9, 8e9, 2e9 }, 3);
  EmbersExemplar *e;
  g_autofree char *text = NULL;
  double x, y;
  guint index;

  s->exemplars = g_ptr_array_new_with_free_func ((GDestroyNotify) embers_exemplar_free);
  g_ptr_array_add (s->exemplars, embers_exemplar_new (0, 30000, "a", 1000000000));
  e = embers_exemplar_new (1, 100000, "b", 5000000000);
  g_strfreev (e->label_names);
  g_strfreev (e->label_values);
  e->label_names = g_strdupv ((char *[]) { (char *) "__profile_type__", (char *) "pod", NULL });
  e->label_values = g_strdupv ((char *[]) { (char *) "cpu", (char *) "api-1", NULL });
  g_ptr_array_add (s->exemplars, e);
  g_ptr_array_add (series, s);

  top = embers_source_top_exemplars (series, 10);
  g_assert_cmpuint (top->len, ==, 2);
  g_assert_cmpstr (((EmbersExemplar *) g_ptr_array_index (top, 0))->profile_id, ==, "b");

  embers_chart_set_unit (chart, "nanoseconds");
  embers_chart_set_series (chart, series, NULL);
  embers_chart_set_time_range (chart, 0, 180000);
  embers_chart_set_step (chart, 60000);
  embers_chart_set_size (chart, 600, 200);
  embers_chart_set_markers (chart, top);
  g_assert_cmpuint (embers_chart_get_n_markers (chart), ==, 2);

  g_assert_true (embers_chart_get_marker_position (chart, 0, &x, &y));
  g_assert_cmpfloat_with_epsilon (x, embers_chart_x_for_point (chart, 120000), 0.01);
  g_assert_cmpfloat_with_epsilon (y, embers_chart_y_for_value (chart, 5e9), 0.01);
  g_assert_true (embers_chart_marker_hit (chart, x + 3, y - 3, &index));
  g_assert_cmpuint (index, ==, 0);
  g_assert_false (embers_chart_marker_hit (chart, x + 40, y, &index));

  text = embers_chart_describe_marker (chart, 0);
  g_assert_nonnull (strstr (text, "5.00 s"));
  g_assert_nonnull (strstr (text, "pod=api-1"));
  g_assert_null (strstr (text, "__profile_type__"));

  /* Drawn: the accent at the marker's centre */
  {
    cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 600, 200);
    cairo_t *cr = cairo_create (surface);
    EmbersChartStyle style;
    guint32 *data;

    embers_chart_style_init (&style, FALSE);
    style.accent[0] = 1; style.accent[1] = 0; style.accent[2] = 0; style.accent[3] = 1;
    cairo_set_source_rgb (cr, 1, 1, 1);
    cairo_paint (cr);
    embers_chart_paint (chart, cr, &style);
    cairo_surface_flush (surface);
    data = (guint32 *) cairo_image_surface_get_data (surface);
    g_assert_cmphex (data[(int) y * (cairo_image_surface_get_stride (surface) / 4) + (int) x] & 0xffffff, ==, 0xff0000);
    cairo_destroy (cr);
    cairo_surface_destroy (surface);
  }

  g_free (text);
  text = embers_chart_accessible_text (chart);
  g_assert_nonnull (strstr (text, "2 profiles marked"));

  embers_chart_set_markers (chart, NULL);
  g_assert_cmpuint (embers_chart_get_n_markers (chart), ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  int ret;

  g_setenv ("TZ", "UTC", TRUE);
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/embers/chart/nice-steps", test_chart_nice_steps);
  g_test_add_func ("/embers/chart/axis-labels", test_chart_axis_labels);
  g_test_add_func ("/embers/chart/lines-geometry", test_chart_lines_geometry);
  g_test_add_func ("/embers/chart/steps", test_chart_steps);
  g_test_add_func ("/embers/chart/bars-histogram", test_chart_bars_histogram);
  g_test_add_func ("/embers/chart/paint", test_chart_paint);
  g_test_add_func ("/embers/chart/ticks-unique", test_chart_ticks_unique);
  g_test_add_func ("/embers/chart/histogram-degenerate", test_chart_histogram_degenerate);
  g_test_add_func ("/embers/chart/value-max", test_chart_value_max);
  g_test_add_func ("/embers/chart/gaps", test_chart_gaps);
  g_test_add_func ("/embers/chart/partial-step", test_chart_partial_step);
  g_test_add_func ("/embers/chart/contrast", test_chart_contrast);
  g_test_add_func ("/embers/chart/shared-scale", test_chart_shared_scale);
  g_test_add_func ("/embers/chart/markers", test_chart_markers);

  ret = g_test_run ();
  pango_cairo_font_map_set_default (NULL);

  return ret;
}
