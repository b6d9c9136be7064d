/* embers-chart.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n.h>
#include <pango/pangocairo.h>

#include "embers-chart.h"
#include "embers-time.h"
#include "embers-source.h"
#include "embers-units.h"

#define CHAR_WIDTH   7.0   /* estimate for the 9 pt UI font, for margins */
#define LABEL_HEIGHT 16.0
#define HIT_RADIUS   14.0
#define MARKER_RADIUS 6.0

struct _EmbersChart
{
  gatomicrefcount  ref_count;
  EmbersChartKind  kind;
  char            *unit;

  /* Lines */
  GPtrArray       *series;      /* EmbersSeries */
  char            *label_name;
  gint64           start_ms;
  gint64           end_ms;
  gint64           step_ms;     /* > 0: a point T holds (T − step, T] */
  gboolean         step_given;  /* set by embers_chart_set_step() */
  gint64           now_ms;      /* "now", for a step still filling; 0: the clock's */

  /* Bars / histogram */
  GStrv            bar_labels;
  double          *bar_values;
  guint            n_bars;
  double           hist_lo;
  double           hist_hi;
  gboolean         hist_single;  /* every value was the same: one bar, one label */
  double           value_max;    /* > 0: the value axis ends here (shared scales) */

  /* Markers: individual profiles (EmbersExemplar) on the lines */
  GPtrArray       *markers;
  GArray          *marker_points; /* gint64: the stamp of each one's point, 0: unknown */
  int              marker_selected;
  int              marker_hover;
  int              marker_focus;   /* the keyboard's, or -1 */

  int              highlight;
  guint            hover_series;
  guint            hover_index;
  gboolean         has_selection;
  gint64           sel_from;
  gint64           sel_to;

  /* Geometry */
  double           width;
  double           height;
  double           px, py, pw, ph;
  double           natural_px;     /* px for this chart's own labels */
  double           min_px;         /* px at least this (charts lined up) */
  double           y_max;
  GArray          *x_ticks;     /* EmbersChartTick */
  GArray          *y_ticks;
  gboolean         dirty;
};

static double data_max (EmbersChart *self);

static void
clear_tick (gpointer data)
{
  g_free (((EmbersChartTick *)data)->label);
}

void
embers_chart_style_init (EmbersChartStyle *style,
                         gboolean          dark)
{
  double fg = dark ? 1.0 : 0.0;

  memset (style, 0, sizeof *style);
  style->fg[0] = style->fg[1] = style->fg[2] = fg;
  style->fg[3] = 0.8;
  style->grid[0] = style->grid[1] = style->grid[2] = fg;
  style->grid[3] = 0.12;
  /* GNOME accent blue */
  style->selection[0] = 0.21;
  style->selection[1] = 0.52;
  style->selection[2] = 0.89;
  style->selection[3] = 0.22;
  style->accent[0] = 0.21;
  style->accent[1] = 0.52;
  style->accent[2] = 0.89;
  style->accent[3] = 1.0;
  style->font = "Sans 9";
  style->dark = dark;
}

void
embers_chart_series_color (guint   index,
                           double  rgba[4])
{
  /* Okabe–Ito: distinguishable with the common colour vision deficiencies */
  static const guint8 palette[][3] = {
    {   0, 114, 178 },
    { 230, 159,   0 },
    {   0, 158, 115 },
    { 204, 121, 167 },
    {  86, 180, 233 },
    { 213,  94,   0 },
    { 240, 228,  66 },
    { 120, 120, 120 },
  };
  const guint8 *c = palette[index % G_N_ELEMENTS (palette)];

  rgba[0] = c[0] / 255.0;
  rgba[1] = c[1] / 255.0;
  rgba[2] = c[2] / 255.0;
  rgba[3] = 1.0;
}

EmbersChart *
embers_chart_new (EmbersChartKind kind)
{
  EmbersChart *self = g_new0 (EmbersChart, 1);

  g_atomic_ref_count_init (&self->ref_count);
  self->kind = kind;
  self->series = g_ptr_array_new_with_free_func ((GDestroyNotify)embers_series_free);
  self->x_ticks = g_array_new (FALSE, FALSE, sizeof (EmbersChartTick));
  self->y_ticks = g_array_new (FALSE, FALSE, sizeof (EmbersChartTick));
  g_array_set_clear_func (self->x_ticks, clear_tick);
  g_array_set_clear_func (self->y_ticks, clear_tick);
  self->highlight = -1;
  self->marker_selected = -1;
  self->marker_hover = -1;
  self->marker_focus = -1;
  self->hover_series = G_MAXUINT;
  self->dirty = TRUE;

  return self;
}

EmbersChart *
embers_chart_ref (EmbersChart *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
embers_chart_unref (EmbersChart *self)
{
  if (self == NULL || !g_atomic_ref_count_dec (&self->ref_count))
    return;

  g_free (self->unit);
  g_ptr_array_unref (self->series);
  g_clear_pointer (&self->markers, g_ptr_array_unref);
  g_clear_pointer (&self->marker_points, g_array_unref);
  g_free (self->label_name);
  g_strfreev (self->bar_labels);
  g_free (self->bar_values);
  g_array_unref (self->x_ticks);
  g_array_unref (self->y_ticks);
  g_free (self);
}

EmbersChartKind
embers_chart_get_kind (EmbersChart *self)
{
  g_return_val_if_fail (self != NULL, EMBERS_CHART_KIND_LINES);

  return self->kind;
}

void
embers_chart_set_unit (EmbersChart *self,
                       const char  *unit)
{
  g_return_if_fail (self != NULL);

  g_free (self->unit);
  self->unit = g_strdup (unit);
  self->dirty = TRUE;
}

void
embers_chart_set_series (EmbersChart *self,
                         GPtrArray   *series,
                         const char  *label_name)
{
  g_return_if_fail (self != NULL);

  g_ptr_array_set_size (self->series, 0);
  for (guint i = 0; series && i < series->len; i++)
    g_ptr_array_add (self->series, embers_series_copy (g_ptr_array_index (series, i)));
  g_free (self->label_name);
  self->label_name = g_strdup (label_name);
  self->hover_series = G_MAXUINT;
  self->dirty = TRUE;

  /* Without an explicit range, cover the points */
  if (self->start_ms == 0 && self->end_ms == 0)
    {
      gint64 lo = G_MAXINT64, hi = G_MININT64;

      for (guint i = 0; i < self->series->len; i++)
        {
          const EmbersSeries *s = g_ptr_array_index (self->series, i);

          for (guint k = 0; k < s->n_points; k++)
            {
              lo = MIN (lo, s->timestamps[k]);
              hi = MAX (hi, s->timestamps[k]);
            }
        }
      if (lo <= hi)
        {
          self->start_ms = lo;
          self->end_ms = hi > lo ? hi : lo + 1000;
        }
    }
}

void
embers_chart_set_time_range (EmbersChart *self,
                             gint64       start_ms,
                             gint64       end_ms)
{
  g_return_if_fail (self != NULL);

  self->start_ms = start_ms;
  self->end_ms = MAX (end_ms, start_ms + 1);
  /* The step charts ask SelectSeries for (embers_source_select_chart_series) */
  if (!self->step_given)
    self->step_ms = end_ms > start_ms
                    ? (gint64)llround (embers_source_step_for_range (start_ms, end_ms) * 1000.0)
                    : 0;
  self->dirty = TRUE;
}

void
embers_chart_set_step (EmbersChart *self,
                       gint64       step_ms)
{
  g_return_if_fail (self != NULL);

  self->step_ms = MAX (step_ms, 0);
  self->step_given = TRUE;
  self->dirty = TRUE;
}

gint64
embers_chart_get_step (EmbersChart *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->step_ms;
}

void
embers_chart_set_now (EmbersChart *self,
                      gint64       now_ms)
{
  g_return_if_fail (self != NULL);

  self->now_ms = now_ms;
  self->dirty = TRUE;
}

gboolean
embers_chart_get_partial_step (EmbersChart *self,
                               gint64      *from_ms,
                               gint64      *to_ms)
{
  gint64 now, last;

  g_return_val_if_fail (self != NULL, FALSE);

  if (self->kind != EMBERS_CHART_KIND_LINES || self->step_ms <= 0 || self->end_ms <= self->start_ms)
    return FALSE;
  now = self->now_ms != 0 ? self->now_ms : g_get_real_time () / 1000;
  /* SelectSeries stamps T = start + k·step up to the end: the last T */
  last = self->start_ms + ((self->end_ms - self->start_ms) / self->step_ms) * self->step_ms;
  if (last < self->end_ms)
    {
      /* The end is not on a step: (last, end] is in no point */
      if (from_ms != NULL)
        *from_ms = last;
      if (to_ms != NULL)
        *to_ms = self->end_ms;
      return TRUE;
    }
  if (now <= last && now > last - self->step_ms)
    {
      /* Now is inside the last step: its profiles are still coming */
      if (from_ms != NULL)
        *from_ms = last - self->step_ms;
      if (to_ms != NULL)
        *to_ms = last;
      return TRUE;
    }
  return FALSE;
}

gboolean
embers_chart_is_gap (EmbersChart *self,
                     gint64       before_ms,
                     gint64       after_ms)
{
  g_return_val_if_fail (self != NULL, FALSE);

  /* Sparse points: a step between two points had no data */
  return self->step_ms > 0 && after_ms - before_ms > self->step_ms + self->step_ms / 2;
}

static gboolean
point_is_partial (EmbersChart *self,
                  gint64       time_ms)
{
  gint64 from, to;

  return embers_chart_get_partial_step (self, &from, &to) && time_ms > from && time_ms <= to;
}

double
embers_chart_get_data_max (EmbersChart *self)
{
  g_return_val_if_fail (self != NULL, 0.0);

  return data_max (self);
}

static double
relative_luminance (const double rgb[3])
{
  double l[3];

  for (guint i = 0; i < 3; i++)
    l[i] = rgb[i] <= 0.04045 ? rgb[i] / 12.92 : pow ((rgb[i] + 0.055) / 1.055, 2.4);
  return 0.2126 * l[0] + 0.7152 * l[1] + 0.0722 * l[2];
}

double
embers_chart_contrast_ratio (const double a[3],
                             const double b[3])
{
  double la = relative_luminance (a), lb = relative_luminance (b);

  return (MAX (la, lb) + 0.05) / (MIN (la, lb) + 0.05);
}

void
embers_chart_series_color_on (guint         index,
                              const double  background[3],
                              double        rgba[4])
{
  embers_chart_series_color (index, rgba);
  /* A line is read against what is behind it (WCAG 1.4.11: 3:1 for
   * graphics); the palette's dark blue is 2.9:1 on a dark card, so it
   * moves toward white (or black) until it is clear of 3:1 */
  for (guint i = 0; i < 20 && embers_chart_contrast_ratio (rgba, background) < 3.3; i++)
    {
      double target = relative_luminance (background) < 0.18 ? 1.0 : 0.0;

      for (guint c = 0; c < 3; c++)
        rgba[c] += (target - rgba[c]) * 0.1;
    }
}

/* Where a point is drawn: in the middle of the step it holds, so a spike
 * stands over the time of its profiles, not a step after them */
double
embers_chart_x_for_point (EmbersChart *self,
                          gint64       time_ms)
{
  return embers_chart_x_for_time (self, time_ms - self->step_ms / 2);
}

/* The stamp T = end − k·step of the step that holds time_ms ((T − step, T]) */
static gint64
step_for_time (EmbersChart *self,
               gint64       time_ms)
{
  if (time_ms >= self->end_ms)
    return self->end_ms;
  return self->end_ms - ((self->end_ms - time_ms) / self->step_ms) * self->step_ms;
}

gboolean
embers_chart_snap_to_steps (EmbersChart *self,
                            gint64      *from_ms,
                            gint64      *to_ms)
{
  gint64 a, b;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (from_ms != NULL && to_ms != NULL, FALSE);

  if (self->step_ms <= 0 || self->end_ms <= self->start_ms)
    return FALSE;
  a = step_for_time (self, MIN (*from_ms, *to_ms));
  b = step_for_time (self, MAX (*from_ms, *to_ms));
  /* The first step holds (a − step, a]: a profile at a − step is the
   * step before's */
  *from_ms = MAX (a - self->step_ms + 1, self->start_ms);
  *to_ms = b;
  return TRUE;
}

void
embers_chart_set_bars (EmbersChart        *self,
                       const char * const *labels,
                       const double       *values,
                       guint               n)
{
  g_return_if_fail (self != NULL);

  g_strfreev (self->bar_labels);
  g_free (self->bar_values);
  self->bar_labels = g_new0 (char *, n + 1);
  for (guint i = 0; i < n; i++)
    self->bar_labels[i] = g_strdup (labels && labels[i] ? labels[i] : "");
  self->bar_values = g_memdup2 (values, sizeof (double) * MAX (n, 1u));
  self->n_bars = n;
  self->hover_series = G_MAXUINT;
  self->dirty = TRUE;
}

void
embers_chart_set_histogram (EmbersChart *self,
                            const guint *counts,
                            guint        n_bins,
                            double       lo,
                            double       hi)
{
  g_autofree double *values = g_new0 (double, MAX (n_bins, 1u));

  g_return_if_fail (self != NULL);

  for (guint i = 0; i < n_bins; i++)
    values[i] = counts[i];
  /* Every value the same (lo == hi): one bar of them all, not n_bins bars
   * of an empty range with their labels drawn over each other */
  self->hist_single = !(hi > lo);
  if (self->hist_single && n_bins > 0)
    {
      for (guint i = 1; i < n_bins; i++)
        values[0] += values[i];
      n_bins = 1;
    }
  embers_chart_set_bars (self, NULL, values, n_bins);
  self->hist_lo = lo;
  self->hist_hi = self->hist_single ? lo : hi;
}

void
embers_chart_set_value_max (EmbersChart *self,
                            double       max)
{
  g_return_if_fail (self != NULL);

  self->value_max = max > 0 ? max : 0;
  self->dirty = TRUE;
}

guint
embers_chart_get_n_series (EmbersChart *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->kind == EMBERS_CHART_KIND_LINES ? self->series->len : self->n_bars;
}

void
embers_chart_set_highlight (EmbersChart *self,
                            int          series)
{
  g_return_if_fail (self != NULL);

  self->highlight = series;
}

void
embers_chart_set_size (EmbersChart *self,
                       double       width,
                       double       height)
{
  g_return_if_fail (self != NULL);

  if (self->width != width || self->height != height)
    {
      self->width = width;
      self->height = height;
      self->dirty = TRUE;
    }
}

double
embers_chart_nice_step (double range,
                        guint  max_ticks)
{
  double raw, magnitude, residual;

  if (!(range > 0) || max_ticks == 0)
    return 1.0;

  raw = range / max_ticks;
  magnitude = pow (10.0, floor (log10 (raw)));
  residual = raw / magnitude;

  if (residual > 5.0)
    return 10.0 * magnitude;
  if (residual > 2.0)
    return 5.0 * magnitude;
  if (residual > 1.0)
    return 2.0 * magnitude;
  return magnitude;
}

double
embers_chart_nice_value_step (double      range,
                              guint       max_ticks,
                              const char *unit)
{
  static const double seconds[] = {
    10, 15, 20, 30, 60, 2 * 60, 5 * 60, 10 * 60, 15 * 60, 20 * 60, 30 * 60,
    3600, 2 * 3600, 3 * 3600, 6 * 3600, 12 * 3600, 86400,
  };
  gint64 multiplier = 1;
  double raw;

  if (!(range > 0) || max_ticks == 0)
    return 1.0;
  raw = range / max_ticks;

  switch (embers_unit_kind (unit, &multiplier))
    {
    case EMBERS_UNIT_KIND_NANOSECONDS:
      {
        double raw_s = raw * (double)multiplier / 1e9;

        if (raw_s < 10.0)
          break;
        for (guint i = 0; i < G_N_ELEMENTS (seconds); i++)
          if (seconds[i] >= raw_s)
            return seconds[i] * 1e9 / (double)multiplier;
        return embers_chart_nice_step (range * (double)multiplier / 86400e9, max_ticks) * 86400e9 / (double)multiplier;
      }

    case EMBERS_UNIT_KIND_BYTES:
      {
        double raw_b = raw * (double)multiplier;
        double base = 1.0;

        while (raw_b / base >= 1024.0 && base < 1e18)
          base *= 1024.0;
        return embers_chart_nice_step (range * (double)multiplier / base, max_ticks) * base / (double)multiplier;
      }

    case EMBERS_UNIT_KIND_COUNT:
    default:
      break;
    }

  return embers_chart_nice_step (range, max_ticks);
}

gint64
embers_chart_nice_time_step (gint64 range_ms,
                             guint  max_ticks)
{
  static const gint64 steps[] = {
    1000, 5000, 15000, 30000,
    60000, 5 * 60000, 15 * 60000, 30 * 60000,
    3600000, 3 * 3600000, 6 * 3600000, 12 * 3600000,
    86400000, 2 * 86400000, 7 * 86400000, 30LL * 86400000,
  };

  if (max_ticks == 0)
    max_ticks = 1;

  for (guint i = 0; i < G_N_ELEMENTS (steps); i++)
    if (range_ms / steps[i] <= (gint64)max_ticks)
      return steps[i];

  return steps[G_N_ELEMENTS (steps) - 1] * ((range_ms / max_ticks) / steps[G_N_ELEMENTS (steps) - 1] + 1);
}

static gboolean
is_percent (EmbersChart *self)
{
  return g_strcmp0 (self->unit, EMBERS_CHART_UNIT_PERCENT) == 0;
}

static char *
format_number (EmbersChart *self,
               double       value)
{
  /* Shares, 0 to 100: "12.3%", "2.50%" */
  if (is_percent (self))
    return embers_format_percent (value / 100.0);
  return embers_format_value ((gint64)llround (value), self->unit);
}

char *
embers_chart_format_value (EmbersChart *self,
                           double       value)
{
  g_return_val_if_fail (self != NULL, NULL);

  return format_number (self, value);
}

/* An axis label: the value in its unit without trailing zeros
 * ("15 s", "2.5 min", not "15.00 s") */
static char *
format_axis_number (EmbersChart *self,
                    double       value)
{
  char *text;
  char *end;
  char *sep = NULL;
  char *last;

  /* Zero needs no unit (and "0 ns" under "5 s" reads oddly), but a
   * share says it is one all the way down */
  if (llround (value) == 0 && !is_percent (self))
    return g_strdup ("0");
  if (is_percent (self) && fabs (value) < 1e-9)
    return g_strdup ("0%");
  text = format_number (self, value);
  /* Counts carry thousands separators, not decimals */
  if (!is_percent (self) && embers_unit_kind (self->unit, NULL) == EMBERS_UNIT_KIND_COUNT)
    return text;

  /* The number ends at the first character that is no digit or separator */
  end = text;
  while (*end != '\0' && (g_ascii_isdigit (*end) || *end == '.' || *end == ',' || *end == '-'))
    {
      if (*end == '.' || *end == ',')
        sep = end;
      end++;
    }
  if (sep == NULL)
    return text;
  last = end - 1;
  while (last > sep && *last == '0')
    last--;
  if (last == sep)
    last--;
  memmove (last + 1, end, strlen (end) + 1);
  return text;
}

static char *
format_time (gint64 time_ms,
             gint64 step_ms)
{
  g_autoptr(GDateTime) utc = g_date_time_new_from_unix_utc (time_ms / 1000);
  g_autoptr(GDateTime) local = utc ? g_date_time_to_local (utc) : NULL;

  if (local == NULL)
    return g_strdup ("?");
  if (step_ms >= 86400000)
    /* Translators: a short date on a chart axis, see g_date_time_format() */
    /* xgettext:no-c-format */
    return g_date_time_format (local, _("%b %d"));
  /* The desktop's 12 or 24 hours */
  return embers_time_format_time (local, step_ms < 60000);
}

static double
data_max (EmbersChart *self)
{
  double max = 0.0;

  if (self->kind == EMBERS_CHART_KIND_LINES)
    {
      for (guint i = 0; i < self->series->len; i++)
        {
          const EmbersSeries *s = g_ptr_array_index (self->series, i);

          for (guint k = 0; k < s->n_points; k++)
            if (s->timestamps[k] >= self->start_ms && s->timestamps[k] <= self->end_ms)
              max = MAX (max, s->values[k]);
        }
    }
  else
    {
      for (guint i = 0; i < self->n_bars; i++)
        max = MAX (max, self->bar_values[i]);
    }

  return max;
}

static void
add_tick (GArray *ticks,
          double  value,
          char   *label)
{
  EmbersChartTick tick = { value, label };

  g_array_append_val (ticks, tick);
}

static void
ensure_layout (EmbersChart *self)
{
  double max, step, label_chars = 4;
  guint n_y;

  if (!self->dirty)
    return;
  self->dirty = FALSE;

  g_array_set_size (self->x_ticks, 0);
  g_array_set_size (self->y_ticks, 0);

  /* Value axis: about one tick per 40 px, in whole units (values are
   * whole numbers of the unit: a step of 0.5 ns printed "1 ns" twice) */
  max = MAX (data_max (self), self->kind != EMBERS_CHART_KIND_BARS ? self->value_max : 0);
  n_y = (guint)CLAMP (self->height / 40.0, 2, 6);
  if (self->kind == EMBERS_CHART_KIND_HISTOGRAM)
    step = MAX (1.0, embers_chart_nice_step (max, n_y));
  else
    step = MAX (1.0, embers_chart_nice_value_step (max > 0 ? max : 1.0, n_y, self->unit));

  if (self->kind != EMBERS_CHART_KIND_BARS)
    {
      /* Fewer ticks until no two labels read the same */
      for (guint attempt = 0; ; attempt++)
        {
          gboolean repeated = FALSE;

          g_array_set_size (self->y_ticks, 0);
          label_chars = 4;
          self->y_max = max > 0 ? ceil (max / step) * step : step * n_y;
          for (double v = 0; v <= self->y_max + step / 2; v += step)
            {
              char *label = self->kind == EMBERS_CHART_KIND_HISTOGRAM
                            ? g_strdup_printf ("%.0f", v) : format_axis_number (self, v);

              if (self->y_ticks->len > 0 &&
                  g_str_equal (g_array_index (self->y_ticks, EmbersChartTick, self->y_ticks->len - 1).label, label))
                repeated = TRUE;
              label_chars = MAX (label_chars, g_utf8_strlen (label, -1));
              add_tick (self->y_ticks, v, label);
            }
          if (!repeated || attempt >= 8)
            break;
          step *= 2;
        }
    }
  else
    {
      self->y_max = max > 0 ? ceil (max / step) * step : step * n_y;
      /* Category labels on the left, at most 18 characters */
      for (guint i = 0; i < self->n_bars; i++)
        label_chars = MAX (label_chars, MIN (18, g_utf8_strlen (self->bar_labels[i], -1)));
    }

  self->natural_px = 6 + label_chars * CHAR_WIDTH + 6;
  self->px = MAX (self->natural_px, self->min_px);
  self->py = 6;
  self->pw = MAX (1.0, self->width - self->px - 10);
  self->ph = MAX (1.0, self->height - self->py - (self->kind == EMBERS_CHART_KIND_BARS ? 6 : LABEL_HEIGHT + 6));

  if (self->kind == EMBERS_CHART_KIND_LINES)
    {
      gint64 range = MAX ((gint64)1, self->end_ms - self->start_ms);
      guint max_ticks = (guint)CLAMP (self->pw / 90.0, 2, 10);
      gint64 tstep = embers_chart_nice_time_step (range, max_ticks);
      g_autoptr(GDateTime) now = g_date_time_new_now_local ();
      gint64 offset = g_date_time_get_utc_offset (now) / 1000;
      gint64 t;

      /* Ticks on local round times */
      t = ((self->start_ms + offset) / tstep) * tstep - offset;
      if (t < self->start_ms)
        t += tstep;
      for (; t <= self->end_ms; t += tstep)
        add_tick (self->x_ticks, (double)t, format_time (t, tstep));
    }
  else if (self->kind == EMBERS_CHART_KIND_HISTOGRAM && self->n_bars > 0 && self->hist_single)
    {
      /* One value: its label under its one bar */
      if (data_max (self) > 0)
        add_tick (self->x_ticks, self->hist_lo, format_axis_number (self, self->hist_lo));
    }
  else if (self->kind == EMBERS_CHART_KIND_HISTOGRAM && self->n_bars > 0)
    {
      /* Nice values (1 min, 2 min…; 500 MiB…) where they fall, not the
       * bins' edges (1.37 s, 1.52 s…); no two labels alike */
      double range = self->hist_hi - self->hist_lo;
      guint max_ticks = (guint)CLAMP (self->pw / 80.0, 2, 8);

      /* The coarsest nice step that puts two ticks or more in the range */
      for (guint want = max_ticks; want <= max_ticks + 6; want++)
        {
          double tstep = MAX (1.0, embers_chart_nice_value_step (range, want, self->unit));
          gboolean repeated = FALSE;

          g_array_set_size (self->x_ticks, 0);
          for (double v = ceil (self->hist_lo / tstep - 1e-9) * tstep; v <= self->hist_hi + tstep * 1e-9; v += tstep)
            {
              char *label = format_axis_number (self, v);

              if (self->x_ticks->len > 0 &&
                  g_str_equal (g_array_index (self->x_ticks, EmbersChartTick, self->x_ticks->len - 1).label, label))
                repeated = TRUE;
              add_tick (self->x_ticks, v, label);
            }
          if (repeated)
            {
              /* Finer steps only repeat more: the last good one */
              g_array_set_size (self->x_ticks, 0);
              if (want > max_ticks)
                {
                  tstep = MAX (1.0, embers_chart_nice_value_step (range, want - 1, self->unit));
                  for (double v = ceil (self->hist_lo / tstep - 1e-9) * tstep; v <= self->hist_hi + tstep * 1e-9; v += tstep)
                    add_tick (self->x_ticks, v, format_axis_number (self, v));
                }
              else
                add_tick (self->x_ticks, self->hist_lo, format_axis_number (self, self->hist_lo));
              break;
            }
          if (self->x_ticks->len >= 2)
            break;
        }
    }
}

/* Where a histogram's value (on its x axis) is */
static double
hist_x (EmbersChart *self,
        double       value)
{
  if (self->hist_single)
    return self->px + self->pw / 2;
  return self->px + (value - self->hist_lo) / MAX (1e-12, self->hist_hi - self->hist_lo) * self->pw;
}

void
embers_chart_get_plot_area (EmbersChart *self,
                            double      *x,
                            double      *y,
                            double      *width,
                            double      *height)
{
  g_return_if_fail (self != NULL);

  ensure_layout (self);
  if (x) *x = self->px;
  if (y) *y = self->py;
  if (width) *width = self->pw;
  if (height) *height = self->ph;
}

double
embers_chart_get_y_max (EmbersChart *self)
{
  g_return_val_if_fail (self != NULL, 0);

  ensure_layout (self);
  return self->y_max;
}

double
embers_chart_x_for_time (EmbersChart *self,
                         gint64       time_ms)
{
  double range;

  g_return_val_if_fail (self != NULL, 0);

  ensure_layout (self);
  range = MAX (1.0, (double)(self->end_ms - self->start_ms));
  return self->px + (double)(time_ms - self->start_ms) / range * self->pw;
}

gint64
embers_chart_time_for_x (EmbersChart *self,
                         double       x)
{
  double f;

  g_return_val_if_fail (self != NULL, 0);

  ensure_layout (self);
  f = CLAMP ((x - self->px) / self->pw, 0.0, 1.0);
  return self->start_ms + (gint64)llround (f * (double)(self->end_ms - self->start_ms));
}

double
embers_chart_y_for_value (EmbersChart *self,
                          double       value)
{
  g_return_val_if_fail (self != NULL, 0);

  ensure_layout (self);
  if (self->y_max <= 0)
    return self->py + self->ph;
  return self->py + self->ph - value / self->y_max * self->ph;
}

const EmbersChartTick *
embers_chart_get_x_ticks (EmbersChart *self,
                          guint       *n)
{
  g_return_val_if_fail (self != NULL, NULL);

  ensure_layout (self);
  *n = self->x_ticks->len;
  return (const EmbersChartTick *)(gpointer)self->x_ticks->data;
}

const EmbersChartTick *
embers_chart_get_y_ticks (EmbersChart *self,
                          guint       *n)
{
  g_return_val_if_fail (self != NULL, NULL);

  ensure_layout (self);
  *n = self->y_ticks->len;
  return (const EmbersChartTick *)(gpointer)self->y_ticks->data;
}

/* Bars: horizontal rows; histogram: vertical columns */
static void
bar_rect (EmbersChart *self,
          guint        i,
          double      *x,
          double      *y,
          double      *w,
          double      *h)
{
  if (self->kind == EMBERS_CHART_KIND_BARS)
    {
      double row = self->ph / MAX (1u, self->n_bars);

      *x = self->px;
      *y = self->py + row * i + row * 0.15;
      *h = row * 0.7;
      *w = self->y_max > 0 ? self->bar_values[i] / self->y_max * self->pw : 0;
    }
  else if (self->hist_single)
    {
      /* One bar in the middle, as wide as a bar of a few bins */
      *w = MAX (1.0, MIN (self->pw, MAX (24.0, self->pw / 6)) - 2);
      *x = self->px + (self->pw - *w) / 2;
      *y = embers_chart_y_for_value (self, self->bar_values[i]);
      *h = self->py + self->ph - *y;
    }
  else
    {
      double col = self->pw / MAX (1u, self->n_bars);

      *x = self->px + col * i + 1;
      *w = MAX (1.0, col - 2);
      *y = embers_chart_y_for_value (self, self->bar_values[i]);
      *h = self->py + self->ph - *y;
    }
}

gboolean
embers_chart_hit (EmbersChart *self,
                  double       x,
                  double       y,
                  guint       *series,
                  guint       *index)
{
  double best = HIT_RADIUS;
  gboolean found = FALSE;

  g_return_val_if_fail (self != NULL, FALSE);

  ensure_layout (self);

  if (self->kind != EMBERS_CHART_KIND_LINES)
    {
      for (guint i = 0; i < self->n_bars; i++)
        {
          double bx, by, bw, bh;

          bar_rect (self, i, &bx, &by, &bw, &bh);
          if (self->kind == EMBERS_CHART_KIND_BARS)
            {
              double row = self->ph / MAX (1u, self->n_bars);

              if (y >= self->py + row * i && y < self->py + row * (i + 1) && x >= 0 && x <= self->width)
                found = TRUE;
            }
          else if (x >= bx - 1 && x < bx + bw + 1 && y >= self->py && y <= self->py + self->ph)
            found = TRUE;

          if (found)
            {
              if (series) *series = 0;
              if (index) *index = i;
              return TRUE;
            }
        }
      return FALSE;
    }

  for (guint i = 0; i < self->series->len; i++)
    {
      const EmbersSeries *s = g_ptr_array_index (self->series, i);

      for (guint k = 0; k < s->n_points; k++)
        {
          double dx = embers_chart_x_for_point (self, s->timestamps[k]) - x;
          double dy = embers_chart_y_for_value (self, s->values[k]) - y;
          /* Time matters more than value: a column under the pointer */
          double d = sqrt (dx * dx * 4 + dy * dy * 0.25);

          if (fabs (dx) <= HIT_RADIUS && d < best)
            {
              best = d;
              if (series) *series = i;
              if (index) *index = k;
              found = TRUE;
            }
        }
    }

  return found;
}

static const char *
series_name (EmbersChart        *self,
             const EmbersSeries *s)
{
  const char *value = NULL;

  if (self->label_name)
    value = embers_series_get_label (s, self->label_name);
  if (value == NULL && s->label_values && s->label_values[0])
    value = s->label_values[0];
  if (value == NULL || value[0] == '\0')
    /* Translators: the legend name of a series that has no label value (all of the profile) */
    value = _("total");

  return value;
}

char *
embers_chart_describe (EmbersChart *self,
                       guint        series,
                       guint        index)
{
  g_return_val_if_fail (self != NULL, NULL);

  if (self->kind == EMBERS_CHART_KIND_LINES)
    {
      const EmbersSeries *s;
      g_autofree char *value = NULL;
      g_autoptr(GDateTime) utc = NULL;
      g_autoptr(GDateTime) local = NULL;
      g_autofree char *when = NULL;

      if (series >= self->series->len)
        return NULL;
      s = g_ptr_array_index (self->series, series);
      if (index >= s->n_points)
        return NULL;

      value = format_number (self, s->values[index]);
      utc = g_date_time_new_from_unix_utc (s->timestamps[index] / 1000);
      local = g_date_time_to_local (utc);
      when = embers_time_format_date_time (local, TRUE);
      if (self->step_ms > 0)
        {
          /* The point holds its step, (T − step, T]: say which */
          g_autoptr(GDateTime) from_utc = g_date_time_new_from_unix_utc ((s->timestamps[index] - self->step_ms) / 1000);
          g_autoptr(GDateTime) from_local = g_date_time_to_local (from_utc);
          g_autofree char *from = embers_time_format_date_time (from_local, TRUE);
          g_autofree char *to = embers_time_format_time (local, TRUE);

          g_free (when);
          when = g_strdup_printf ("%s–%s", from, to);
        }
      if (point_is_partial (self, s->timestamps[index]))
        /* Translators: series name, value, and a date and time such as
         * 2026-11-24 07:43:00, for a step that is not over */
        return g_strdup_printf (_("%s — %s at %s (partial: the step is not over, more may come)"),
                                series_name (self, s), value, when);
      /* Translators: series name, value, and a date and time such as
       * 2026-11-24 07:43:00 */
      return g_strdup_printf (_("%s — %s at %s"), series_name (self, s), value, when);
    }

  if (index >= self->n_bars)
    return NULL;

  if (self->kind == EMBERS_CHART_KIND_BARS)
    {
      g_autofree char *value = format_number (self, self->bar_values[index]);

      return g_strdup_printf (_("%s — %s"), self->bar_labels[index], value);
    }
  else
    {
      double w = (self->hist_hi - self->hist_lo) / MAX (1u, self->n_bars);
      g_autofree char *lo = format_number (self, self->hist_lo + w * index);
      g_autofree char *hi = format_number (self, self->hist_lo + w * (index + 1));
      guint count = (guint)self->bar_values[index];

      if (self->hist_single)
        {
          if (count == 0)
            return NULL;
          /* Translators: a histogram whose steps all have one value: how
           * many steps, the value */
          return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u step: %s", "All %u steps: %s", count),
                                  count, lo);
        }
      /* Translators: a histogram bin: from, to, how many steps fell in it */
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s to %s: %u step", "%s to %s: %u steps", count),
                              lo, hi, count);
    }
}

char *
embers_chart_accessible_text (EmbersChart *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  ensure_layout (self);

  switch (self->kind)
    {
    case EMBERS_CHART_KIND_LINES:
      {
        g_autofree char *max = format_number (self, data_max (self));
        g_autofree char *text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                              "Time series chart, %u series, highest value %s",
                                                              "Time series chart, %u series, highest value %s",
                                                              self->series->len),
                                                 self->series->len, max);
        guint n = embers_chart_get_n_markers (self);

        if (n == 0)
          return g_steal_pointer (&text);
        /* Translators: after the chart's summary: how many individual
         * profiles are marked on it (the Profiles menu lists them) */
        return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s; %u profile marked", "%s; %u profiles marked", n),
                                text, n);
      }
    case EMBERS_CHART_KIND_BARS:
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Bar chart, %u bar", "Bar chart, %u bars", self->n_bars),
                              self->n_bars);
    case EMBERS_CHART_KIND_HISTOGRAM:
    default:
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Histogram, %u bin", "Histogram, %u bins", self->n_bars),
                              self->n_bars);
    }
}

void
embers_chart_set_selection (EmbersChart *self,
                            gint64       from_ms,
                            gint64       to_ms)
{
  g_return_if_fail (self != NULL);

  self->has_selection = TRUE;
  self->sel_from = MIN (from_ms, to_ms);
  self->sel_to = MAX (from_ms, to_ms);
}

gboolean
embers_chart_get_selection (EmbersChart *self,
                            gint64      *from_ms,
                            gint64      *to_ms)
{
  g_return_val_if_fail (self != NULL, FALSE);

  if (!self->has_selection)
    return FALSE;
  if (from_ms) *from_ms = self->sel_from;
  if (to_ms) *to_ms = self->sel_to;
  return TRUE;
}

void
embers_chart_clear_selection (EmbersChart *self)
{
  g_return_if_fail (self != NULL);

  self->has_selection = FALSE;
}

/**
 * embers_chart_set_markers:
 * @exemplars: (nullable) (element-type EmbersExemplar): copied
 *
 * Individual profiles drawn as markers on the lines: each at its own time
 * and value.
 */
void
embers_chart_set_markers (EmbersChart *self,
                          GPtrArray   *exemplars)
{
  g_return_if_fail (self != NULL);

  g_clear_pointer (&self->markers, g_ptr_array_unref);
  g_clear_pointer (&self->marker_points, g_array_unref);
  self->marker_selected = -1;
  self->marker_hover = -1;
  self->marker_focus = -1;
  if (exemplars == NULL || exemplars->len == 0)
    return;
  self->markers = g_ptr_array_new_with_free_func ((GDestroyNotify) embers_exemplar_free);
  self->marker_points = g_array_sized_new (FALSE, TRUE, sizeof (gint64), exemplars->len);
  for (guint i = 0; i < exemplars->len; i++)
    {
      const EmbersExemplar *e = g_ptr_array_index (exemplars, i);
      gint64 stamp = 0;

      g_ptr_array_add (self->markers, embers_exemplar_copy (e));
      /* Its point: the series that holds it */
      for (guint j = 0; stamp == 0 && j < self->series->len; j++)
        {
          const EmbersSeries *s = g_ptr_array_index (self->series, j);

          for (guint k = 0; s->exemplars != NULL && k < s->exemplars->len; k++)
            {
              const EmbersExemplar *x = g_ptr_array_index (s->exemplars, k);

              if (x->point == e->point && e->point < s->n_points && g_str_equal (x->profile_id, e->profile_id))
                {
                  stamp = s->timestamps[e->point];
                  break;
                }
            }
        }
      g_array_append_val (self->marker_points, stamp);
    }
}

guint
embers_chart_get_n_markers (EmbersChart *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->markers != NULL ? self->markers->len : 0;
}

const EmbersExemplar *
embers_chart_get_marker (EmbersChart *self,
                         guint        index)
{
  g_return_val_if_fail (self != NULL, NULL);

  if (self->markers == NULL || index >= self->markers->len)
    return NULL;
  return g_ptr_array_index (self->markers, index);
}

gboolean
embers_chart_get_marker_position (EmbersChart *self,
                                  guint        index,
                                  double      *x,
                                  double      *y)
{
  const EmbersExemplar *e = embers_chart_get_marker (self, index);
  gint64 stamp;

  if (e == NULL)
    return FALSE;
  ensure_layout (self);
  /* On its point's step (where the line is), at its own value; inside the
   * plot, so that one at the range's edge shows whole */
  stamp = g_array_index (self->marker_points, gint64, index);
  *x = CLAMP (stamp != 0 ? embers_chart_x_for_point (self, stamp) : embers_chart_x_for_time (self, e->timestamp_ms),
              self->px + MARKER_RADIUS,
              self->px + MAX (self->pw - MARKER_RADIUS, MARKER_RADIUS));
  *y = CLAMP (embers_chart_y_for_value (self, (double) e->value), self->py + MARKER_RADIUS,
              self->py + MAX (self->ph - MARKER_RADIUS, MARKER_RADIUS));
  return TRUE;
}

gboolean
embers_chart_marker_hit (EmbersChart *self,
                         double       x,
                         double       y,
                         guint       *index)
{
  double best = HIT_RADIUS * HIT_RADIUS;
  gboolean found = FALSE;

  g_return_val_if_fail (self != NULL, FALSE);

  for (guint m = 0; m < embers_chart_get_n_markers (self); m++)
    {
      double mx, my, d;

      embers_chart_get_marker_position (self, m, &mx, &my);
      d = (mx - x) * (mx - x) + (my - y) * (my - y);
      if (d <= best)
        {
          best = d;
          found = TRUE;
          if (index != NULL)
            *index = m;
        }
    }
  return found;
}

void
embers_chart_set_marker_selected (EmbersChart *self,
                                  int          index)
{
  g_return_if_fail (self != NULL);

  self->marker_selected = index >= 0 && (guint) index < embers_chart_get_n_markers (self) ? index : -1;
}

void
embers_chart_set_marker_hover (EmbersChart *self,
                               int          index)
{
  g_return_if_fail (self != NULL);

  self->marker_hover = index >= 0 && (guint) index < embers_chart_get_n_markers (self) ? index : -1;
}

void
embers_chart_set_marker_focus (EmbersChart *self,
                               int          index)
{
  g_return_if_fail (self != NULL);

  self->marker_focus = index >= 0 && (guint) index < embers_chart_get_n_markers (self) ? index : -1;
}

int
embers_chart_get_marker_focus (EmbersChart *self)
{
  g_return_val_if_fail (self != NULL, -1);

  return self->marker_focus;
}

void
embers_chart_set_min_plot_left (EmbersChart *self,
                                double       left)
{
  g_return_if_fail (self != NULL);

  if (self->min_px != left)
    {
      self->min_px = left;
      self->dirty = TRUE;
    }
}

double
embers_chart_get_natural_plot_left (EmbersChart *self)
{
  g_return_val_if_fail (self != NULL, 0.0);

  ensure_layout (self);
  return self->natural_px;
}

/* "A profile: 12.3 ms at 2026-11-24 07:43:05 (pod=a, region=eu)": its
 * value, time and labels (not the internal __name__ ones) */
char *
embers_chart_describe_marker (EmbersChart *self,
                              guint        index)
{
  const EmbersExemplar *e = embers_chart_get_marker (self, index);
  g_autofree char *value = NULL;
  g_autofree char *when = NULL;
  g_autoptr(GDateTime) utc = NULL;
  g_autoptr(GDateTime) local = NULL;
  g_autoptr(GString) labels = g_string_new (NULL);

  if (e == NULL)
    return NULL;
  value = format_number (self, (double) e->value);
  utc = g_date_time_new_from_unix_utc (e->timestamp_ms / 1000);
  local = utc != NULL ? g_date_time_to_local (utc) : NULL;
  when = local != NULL ? embers_time_format_date_time (local, TRUE) : g_strdup ("?");
  for (guint i = 0; e->label_names != NULL && e->label_names[i] != NULL; i++)
    {
      if (g_str_has_prefix (e->label_names[i], "__"))
        continue;
      g_string_append_printf (labels, "%s%s=%s", labels->len > 0 ? ", " : "", e->label_names[i], e->label_values[i]);
    }
  if (labels->len == 0)
    /* Translators: an individual profile on a chart: its value and time */
    return g_strdup_printf (_("A profile: %s at %s"), value, when);
  /* Translators: an individual profile on a chart: its value, time and
   * labels (name=value, …) */
  return g_strdup_printf (_("A profile: %s at %s (%s)"), value, when, labels->str);
}

void
embers_chart_set_hover (EmbersChart *self,
                        guint        series,
                        guint        index)
{
  g_return_if_fail (self != NULL);

  self->hover_series = series;
  self->hover_index = index;
}

static void
set_rgba (cairo_t      *cr,
          const double *c,
          double        alpha_scale)
{
  cairo_set_source_rgba (cr, c[0], c[1], c[2], c[3] * alpha_scale);
}

/* @within: when > 0, the text is moved to lie inside [0, @within] */
static void
draw_text (cairo_t     *cr,
           PangoLayout *layout,
           const char  *text,
           double       x,
           double       y,
           double       max_width,
           double       align,  /* 0 left, 0.5 centre, 1 right of x */
           double       within)
{
  int w, h;
  double left;

  pango_layout_set_text (layout, text, -1);
  pango_layout_set_width (layout, max_width > 0 ? (int)(max_width * PANGO_SCALE) : -1);
  pango_layout_get_pixel_size (layout, &w, &h);
  left = x - w * align;
  if (within > 0)
    left = MAX (0, MIN (left, within - w));
  cairo_move_to (cr, left, y - h / 2.0);
  pango_cairo_show_layout (cr, layout);
}

void
embers_chart_paint (EmbersChart            *self,
                    cairo_t                *cr,
                    const EmbersChartStyle *style)
{
  g_autoptr(PangoLayout) layout = NULL;
  PangoFontDescription *font;
  EmbersChartStyle fallback;
  double rgba[4];
  double background[3];
  gint64 partial_from, partial_to;

  g_return_if_fail (self != NULL);
  g_return_if_fail (cr != NULL);

  if (style == NULL)
    {
      embers_chart_style_init (&fallback, FALSE);
      style = &fallback;
    }

  ensure_layout (self);
  memcpy (background, style->background, sizeof background);
  if (style->background[3] <= 0)
    background[0] = background[1] = background[2] = style->dark ? 0.19 : 1.0;  /* a card in the dark style */

  layout = pango_cairo_create_layout (cr);
  font = pango_font_description_from_string (style->font ? style->font : "Sans 9");
  pango_layout_set_font_description (layout, font);
  pango_font_description_free (font);
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);

  cairo_save (cr);
  cairo_set_line_width (cr, 1.0);

  /* Grid and value labels */
  for (guint i = 0; i < self->y_ticks->len; i++)
    {
      const EmbersChartTick *t = &g_array_index (self->y_ticks, EmbersChartTick, i);
      double y = floor (embers_chart_y_for_value (self, t->value)) + 0.5;

      set_rgba (cr, style->grid, 1.0);
      cairo_move_to (cr, self->px, y);
      cairo_line_to (cr, self->px + self->pw, y);
      cairo_stroke (cr);
      set_rgba (cr, style->fg, 1.0);
      draw_text (cr, layout, t->label, self->px - 6, y, self->px - 8, 1.0, 0);
    }

  /* Time or bin labels */
  for (guint i = 0; i < self->x_ticks->len; i++)
    {
      const EmbersChartTick *t = &g_array_index (self->x_ticks, EmbersChartTick, i);
      double x;

      if (self->kind == EMBERS_CHART_KIND_LINES)
        x = embers_chart_x_for_time (self, (gint64)t->value);
      else
        x = hist_x (self, t->value);
      set_rgba (cr, style->grid, 1.0);
      cairo_move_to (cr, floor (x) + 0.5, self->py + self->ph);
      cairo_line_to (cr, floor (x) + 0.5, self->py + self->ph + 4);
      cairo_stroke (cr);
      set_rgba (cr, style->fg, 1.0);
      /* Centred under its tick, but kept inside the chart at both ends */
      draw_text (cr, layout, t->label, x, self->py + self->ph + 4 + LABEL_HEIGHT / 2, 0, 0.5, self->width);
    }

  if (self->kind == EMBERS_CHART_KIND_LINES)
    {
      if (self->has_selection)
        {
          double x1 = embers_chart_x_for_time (self, self->sel_from);
          double x2 = embers_chart_x_for_time (self, self->sel_to);

          set_rgba (cr, style->selection, 1.0);
          cairo_rectangle (cr, x1, self->py, MAX (1.0, x2 - x1), self->ph);
          cairo_fill (cr);
        }

      /* A partial last step, hatched: its profiles are not all in */
      if (embers_chart_get_partial_step (self, &partial_from, &partial_to))
        {
          double x1 = MAX (embers_chart_x_for_time (self, partial_from), self->px);
          double x2 = MIN (embers_chart_x_for_time (self, partial_to), self->px + self->pw);

          cairo_save (cr);
          cairo_rectangle (cr, x1, self->py, MAX (1.0, x2 - x1), self->ph);
          cairo_clip (cr);
          set_rgba (cr, style->fg, 0.18);
          for (double d = x1 - self->ph; d < x2; d += 5.0)
            {
              cairo_move_to (cr, d, self->py + self->ph);
              cairo_line_to (cr, d + self->ph, self->py);
            }
          cairo_stroke (cr);
          cairo_restore (cr);
        }

      cairo_rectangle (cr, self->px, self->py - 2, self->pw, self->ph + 4);
      cairo_clip (cr);
      cairo_set_line_width (cr, 1.5);
      cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
      for (guint i = 0; i < self->series->len; i++)
        {
          const EmbersSeries *s = g_ptr_array_index (self->series, i);
          double alpha = self->highlight < 0 || (guint)self->highlight == i ? 1.0 : 0.25;

          embers_chart_series_color_on (i, background, rgba);
          cairo_set_source_rgba (cr, rgba[0], rgba[1], rgba[2], alpha);
          /* Steps without data are gaps, not lines; the line into a step
           * still filling is dashed */
          for (guint k = 0; k < s->n_points; k++)
            {
              double x = embers_chart_x_for_point (self, s->timestamps[k]);
              double y = embers_chart_y_for_value (self, s->values[k]);
              gboolean partial = point_is_partial (self, s->timestamps[k]);

              if (k > 0 && !embers_chart_is_gap (self, s->timestamps[k - 1], s->timestamps[k]))
                {
                  if (partial)
                    {
                      static const double dash[] = { 3.0, 3.0 };

                      cairo_stroke (cr);
                      cairo_move_to (cr, embers_chart_x_for_point (self, s->timestamps[k - 1]),
                                     embers_chart_y_for_value (self, s->values[k - 1]));
                      cairo_set_dash (cr, dash, 2, 0);
                      cairo_line_to (cr, x, y);
                      cairo_stroke (cr);
                      cairo_set_dash (cr, NULL, 0, 0);
                    }
                  else
                    cairo_line_to (cr, x, y);
                }
              else
                {
                  cairo_stroke (cr);
                  cairo_move_to (cr, x, y);
                }
            }
          cairo_stroke (cr);

          /* Single points, and points alone between gaps, would be
           * invisible as a line */
          for (guint k = 0; k < s->n_points; k++)
            {
              gboolean alone = (k == 0 || embers_chart_is_gap (self, s->timestamps[k - 1], s->timestamps[k])) &&
                               (k + 1 == s->n_points || embers_chart_is_gap (self, s->timestamps[k], s->timestamps[k + 1]));

              if (alone || s->n_points * 6 < self->pw)
                {
                  cairo_arc (cr, embers_chart_x_for_point (self, s->timestamps[k]),
                             embers_chart_y_for_value (self, s->values[k]), alone ? 2.5 : 2.0, 0, 2 * G_PI);
                  cairo_fill (cr);
                }
            }
        }
      cairo_reset_clip (cr);

      /* Individual profiles: diamonds in the accent colour, outlined in
       * the background's so that they stand out from the lines; the one
       * picked larger, with a ring */
      for (guint m = 0; self->markers != NULL && m < self->markers->len; m++)
        {
          double x, y;
          gboolean picked = (int) m == self->marker_selected;
          double r = picked ? MARKER_RADIUS + 2 : (int) m == self->marker_hover ? MARKER_RADIUS + 1 : MARKER_RADIUS;

          embers_chart_get_marker_position (self, m, &x, &y);
          cairo_move_to (cr, x, y - r);
          cairo_line_to (cr, x + r, y);
          cairo_line_to (cr, x, y + r);
          cairo_line_to (cr, x - r, y);
          cairo_close_path (cr);
          set_rgba (cr, style->accent, 1.0);
          cairo_fill_preserve (cr);
          cairo_set_source_rgb (cr, background[0], background[1], background[2]);
          cairo_set_line_width (cr, 1.5);
          cairo_stroke (cr);
          if (picked)
            {
              set_rgba (cr, style->accent, 1.0);
              cairo_set_line_width (cr, 2.0);
              cairo_arc (cr, x, y, r + 3, 0, 2 * G_PI);
              cairo_stroke (cr);
            }
          /* The keyboard's marker: a dashed ring in the text colour
           * around it, as GTK draws focus */
          if ((int) m == self->marker_focus)
            {
              static const double dash[] = { 3.0, 2.0 };

              set_rgba (cr, style->fg, 1.0);
              cairo_set_line_width (cr, 2.0);
              cairo_set_dash (cr, dash, G_N_ELEMENTS (dash), 0);
              cairo_arc (cr, x, y, r + 6, 0, 2 * G_PI);
              cairo_stroke (cr);
              cairo_set_dash (cr, NULL, 0, 0);
            }
        }

      if (self->hover_series < self->series->len)
        {
          const EmbersSeries *s = g_ptr_array_index (self->series, self->hover_series);

          if (self->hover_index < s->n_points)
            {
              double x = embers_chart_x_for_point (self, s->timestamps[self->hover_index]);
              double y = embers_chart_y_for_value (self, s->values[self->hover_index]);

              set_rgba (cr, style->fg, 0.4);
              cairo_set_line_width (cr, 1.0);
              cairo_move_to (cr, floor (x) + 0.5, self->py);
              cairo_line_to (cr, floor (x) + 0.5, self->py + self->ph);
              cairo_stroke (cr);
              set_rgba (cr, style->accent, 1.0);
              cairo_arc (cr, x, y, 4.0, 0, 2 * G_PI);
              cairo_fill (cr);
            }
        }
    }
  else
    {
      for (guint i = 0; i < self->n_bars; i++)
        {
          double x, y, w, h;
          gboolean hovered = self->hover_series != G_MAXUINT && self->hover_index == i;
          double alpha = self->highlight < 0 || (guint)self->highlight == i || hovered ? 1.0 : 0.35;

          bar_rect (self, i, &x, &y, &w, &h);
          if (self->kind == EMBERS_CHART_KIND_BARS)
            embers_chart_series_color (i, rgba);
          else
            memcpy (rgba, style->accent, sizeof rgba);
          cairo_set_source_rgba (cr, rgba[0], rgba[1], rgba[2], alpha * (hovered ? 1.0 : 0.85));
          cairo_rectangle (cr, x, y, MAX (w, 1.0), h);
          cairo_fill (cr);

          if (self->kind == EMBERS_CHART_KIND_BARS)
            {
              g_autofree char *value = format_number (self, self->bar_values[i]);

              set_rgba (cr, style->fg, 1.0);
              draw_text (cr, layout, self->bar_labels[i], self->px - 6, y + h / 2, self->px - 10, 1.0, 0);
              if (w + 80 < self->pw)
                draw_text (cr, layout, value, x + w + 4, y + h / 2, 0, 0.0, 0);
            }
        }
    }

  /* Baseline */
  set_rgba (cr, style->fg, 0.5);
  cairo_set_line_width (cr, 1.0);
  cairo_move_to (cr, self->px, floor (self->py + self->ph) + 0.5);
  cairo_line_to (cr, self->px + self->pw, floor (self->py + self->ph) + 0.5);
  cairo_stroke (cr);

  cairo_restore (cr);
}
