/* embers-chart.h: display-free charts (time series, bars, histograms)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <cairo.h>
#include <glib-object.h>

#include "embers-source.h"

G_BEGIN_DECLS

/*
 * EmbersChart computes the geometry of a small chart (plot area, axis ticks,
 * point positions, hit testing, time <-> x) and paints it with cairo. The
 * GTK widgets only forward sizes and pointer events; everything here is
 * tested headless. Times are Unix ms.
 */

typedef enum
{
  EMBERS_CHART_KIND_LINES,      /* time series */
  EMBERS_CHART_KIND_BARS,       /* one bar per category (totals, maxima) */
  EMBERS_CHART_KIND_HISTOGRAM,  /* counts per value bin */
} EmbersChartKind;

typedef struct
{
  double value;
  char  *label;
} EmbersChartTick;

typedef struct
{
  double fg[4];          /* text and axes */
  double grid[4];
  double selection[4];
  double accent[4];      /* hover marker */
  const char *font;      /* Pango font description, e.g. "Sans 9" */
  gboolean dark;
  double background[4];  /* what the chart is drawn on (alpha 0: unknown,
                          * white or a dark grey by @dark) */
} EmbersChartStyle;

void embers_chart_style_init (EmbersChartStyle *style,
                              gboolean          dark);

/* The colour of series i (a qualitative, colour-blind friendly palette) */
void embers_chart_series_color (guint   index,
                                double  rgba[4]);

/* Series i's colour made clear (at least 3:1, WCAG's ratio for
 * graphics) against @background (sRGB) */
void   embers_chart_series_color_on (guint         index,
                                     const double  background[3],
                                     double        rgba[4]);
/* The WCAG contrast ratio of two sRGB colours (1 to 21) */
double embers_chart_contrast_ratio  (const double  a[3],
                                     const double  b[3]);

typedef struct _EmbersChart EmbersChart;

/* The unit of values that are shares in percent (0 to 100): "12.5%" */
#define EMBERS_CHART_UNIT_PERCENT "percent"

EmbersChart *embers_chart_new               (EmbersChartKind   kind);
EmbersChart *embers_chart_ref               (EmbersChart      *self);
void         embers_chart_unref             (EmbersChart      *self);
EmbersChartKind embers_chart_get_kind       (EmbersChart      *self);

/* Data */
void         embers_chart_set_unit          (EmbersChart      *self,
                                             const char       *unit);
/* A value in the chart's unit, as its labels show it */
char        *embers_chart_format_value      (EmbersChart      *self,
                                             double            value);
void         embers_chart_set_series        (EmbersChart      *self,
                                             GPtrArray        *series,  /* EmbersSeries, copied */
                                             const char       *label_name);
void         embers_chart_set_time_range    (EmbersChart      *self,
                                             gint64            start_ms,
                                             gint64            end_ms);
void         embers_chart_set_bars          (EmbersChart      *self,
                                             const char * const *labels,
                                             const double     *values,
                                             guint             n);
void         embers_chart_set_histogram     (EmbersChart      *self,
                                             const guint      *counts,
                                             guint             n_bins,
                                             double            lo,
                                             double            hi);
/* Every value equal (hi <= lo) is drawn as one bar with one label */
guint        embers_chart_get_n_series      (EmbersChart      *self);
/* Lines and histograms: the value axis reaches at least @max (several
 * charts on one scale); 0 for the data's own maximum */
void         embers_chart_set_value_max     (EmbersChart      *self,
                                             double            max);
/* The largest value drawn (lines: in the time range), for a scale
 * shared by several charts */
double       embers_chart_get_data_max      (EmbersChart      *self);
/* Highlights one series (others dimmed); -1 for none */
void         embers_chart_set_highlight     (EmbersChart      *self,
                                             int               series);

/* Geometry */
void         embers_chart_set_size          (EmbersChart      *self,
                                             double            width,
                                             double            height);
/* The plot area starts at least @left px from the left edge: charts
 * stacked over one time axis line up (0: only as far as the value labels
 * need) */
void         embers_chart_set_min_plot_left (EmbersChart      *self,
                                             double            left);
/* Where the plot area would start for this chart's value labels alone */
double       embers_chart_get_natural_plot_left (EmbersChart  *self);
void         embers_chart_get_plot_area     (EmbersChart      *self,
                                             double           *x,
                                             double           *y,
                                             double           *width,
                                             double           *height);
double       embers_chart_get_y_max         (EmbersChart      *self);
double       embers_chart_x_for_time        (EmbersChart      *self,
                                             gint64            time_ms);
/* A time series point T holds the profiles in (T − step, T] (Pyroscope's
 * SelectSeries): it is drawn in the middle of that step. The step is
 * embers_source_step_for_range() of the time range unless set here (0:
 * points drawn at their stamps). */
void         embers_chart_set_step          (EmbersChart      *self,
                                             gint64            step_ms);
gint64       embers_chart_get_step          (EmbersChart      *self);
/* SelectSeries omits steps without data: between two points more than a
 * step and a half apart the line breaks (TRUE: a gap) */
gboolean     embers_chart_is_gap            (EmbersChart      *self,
                                             gint64            before_ms,
                                             gint64            after_ms);
/* "Now" for the partial step (0: the clock's; tests set it) */
void         embers_chart_set_now           (EmbersChart      *self,
                                             gint64            now_ms);
/* The last step, when it is partial: the range's end is not on a step
 * (points are stamped T = start + k·step, so (last T, end] is in none),
 * or now is inside it (its profiles are still coming). It is drawn
 * hatched, the line into it dashed, and its point's description says so. */
gboolean     embers_chart_get_partial_step  (EmbersChart      *self,
                                             gint64           *from_ms,
                                             gint64           *to_ms);
double       embers_chart_x_for_point       (EmbersChart      *self,
                                             gint64            time_ms);
/* Widens a time range to the whole steps it touches, on the grid of a
 * chart's points (T = end − k·step): from just after the first step's
 * start (its profiles at exactly T − step are the step before's) to its
 * last T, so that a selection holds exactly the profiles its points count.
 * FALSE (and nothing changed) without a step. */
gboolean     embers_chart_snap_to_steps     (EmbersChart      *self,
                                             gint64           *from_ms,
                                             gint64           *to_ms);
gint64       embers_chart_time_for_x        (EmbersChart      *self,
                                             double            x);
double       embers_chart_y_for_value       (EmbersChart      *self,
                                             double            value);
/* Ticks, as computed for the current size (owned by the chart) */
const EmbersChartTick *embers_chart_get_x_ticks (EmbersChart  *self,
                                                 guint        *n);
const EmbersChartTick *embers_chart_get_y_ticks (EmbersChart  *self,
                                                 guint        *n);

/* The nearest point (lines: by time, then by value) or bar under x, y.
 * Returns FALSE when nothing is near. */
gboolean     embers_chart_hit               (EmbersChart      *self,
                                             double            x,
                                             double            y,
                                             guint            *series,
                                             guint            *index);
/* "eu — 12.3 ms at 14:05:00" style text for a hit */
char        *embers_chart_describe          (EmbersChart      *self,
                                             guint             series,
                                             guint             index);
/* A one-line summary for screen readers */
char        *embers_chart_accessible_text   (EmbersChart      *self);

/* Selection (lines only): a time range drawn shaded */
void         embers_chart_set_selection     (EmbersChart      *self,
                                             gint64            from_ms,
                                             gint64            to_ms);
gboolean     embers_chart_get_selection     (EmbersChart      *self,
                                             gint64           *from_ms,
                                             gint64           *to_ms);
void         embers_chart_clear_selection   (EmbersChart      *self);
/* Individual profiles as markers on the lines, each on its point's step
 * (found among the series' exemplars; else at its own time) at its own
 * value: @exemplars (EmbersExemplar) are copied; NULL for none. Set the
 * series first. */
void         embers_chart_set_markers       (EmbersChart      *self,
                                             GPtrArray        *exemplars);
guint        embers_chart_get_n_markers     (EmbersChart      *self);
const EmbersExemplar *embers_chart_get_marker (EmbersChart    *self,
                                             guint             index);
/* Where marker @index is drawn (kept inside the plot area) */
gboolean     embers_chart_get_marker_position (EmbersChart    *self,
                                             guint             index,
                                             double           *x,
                                             double           *y);
/* The nearest marker within the hit radius of x, y */
gboolean     embers_chart_marker_hit        (EmbersChart      *self,
                                             double            x,
                                             double            y,
                                             guint            *index);
/* The picked one drawn larger with a ring; -1 for none */
void         embers_chart_set_marker_selected (EmbersChart    *self,
                                             int               index);
/* The marker the keyboard is on (a dashed ring), or -1 */
void         embers_chart_set_marker_focus  (EmbersChart      *self,
                                             int               index);
int          embers_chart_get_marker_focus  (EmbersChart      *self);
void         embers_chart_set_marker_hover  (EmbersChart      *self,
                                             int               index);
/* Its value, time and labels, for a tooltip and screen readers */
char        *embers_chart_describe_marker   (EmbersChart      *self,
                                             guint             index);

/* Hover marker at a hit, or (guint)-1 to clear */
void         embers_chart_set_hover         (EmbersChart      *self,
                                             guint             series,
                                             guint             index);

void         embers_chart_paint             (EmbersChart            *self,
                                             cairo_t                *cr,
                                             const EmbersChartStyle *style);

/* Nice axis helpers (exposed for tests) */
double       embers_chart_nice_step         (double            range,
                                             guint             max_ticks);
/* A step for a value axis in @unit (a profile's sample unit): durations
 * of 10 s and more step in seconds, minutes and hours (30 s, 1 min, 5 min…),
 * sizes in 1-2-5 multiples of B, KiB, MiB…, other units as
 * embers_chart_nice_step() */
double       embers_chart_nice_value_step   (double            range,
                                             guint             max_ticks,
                                             const char       *unit);
gint64       embers_chart_nice_time_step    (gint64            range_ms,
                                             guint             max_ticks);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EmbersChart, embers_chart_unref)

G_END_DECLS
