/* embers-label-chart.c: one label value's data as a chart
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <glib/gi18n.h>
#include <pango/pangocairo.h>

#include "embers-chart.h"
#include "embers-label-chart.h"
#include "embers-theme.h"
#include "embers-time.h"
#include "embers-units.h"

#define PAD       8.0
#define BAR_H     18.0
/* Room on the right for the histogram's last axis label */
#define HIST_END  24

struct _EmbersLabelChart
{
  GtkWidget        parent_instance;

  EmbersLabelView  view;

  char            *label_name;
  char            *value;
  char            *unit;
  EmbersSeries    *series;
  gint64           start_ms;
  gint64           end_ms;
  double           step_s;
  double           total;
  double           share;
  double           grand_total;
  double           max;
  gint64           max_time_ms;
  double           mean;
  guint            n_data_steps;
  double           max_of_max;
  /* One scale for every value of the label (0, 0, 0: the chart's own) */
  double           value_max;
  double           hist_lo;
  double           hist_hi;
  gboolean         has_time;

  EmbersChart     *lines;
  EmbersChart     *histogram;
};

G_DEFINE_FINAL_TYPE (EmbersLabelChart, embers_label_chart, GTK_TYPE_WIDGET)

enum
{
  PROP_0,
  PROP_VIEW,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

GType
embers_label_view_get_type (void)
{
  static gsize type_id = 0;

  if (g_once_init_enter (&type_id))
    {
      static const GEnumValue values[] = {
        { EMBERS_LABEL_VIEW_SERIES, "EMBERS_LABEL_VIEW_SERIES", "series" },
        { EMBERS_LABEL_VIEW_TOTAL, "EMBERS_LABEL_VIEW_TOTAL", "total" },
        { EMBERS_LABEL_VIEW_MAXIMUM, "EMBERS_LABEL_VIEW_MAXIMUM", "maximum" },
        { EMBERS_LABEL_VIEW_HISTOGRAM, "EMBERS_LABEL_VIEW_HISTOGRAM", "histogram" },
        { 0, NULL, NULL }
      };
      GType type = g_enum_register_static (g_intern_static_string ("EmbersLabelView"), values);

      g_once_init_leave (&type_id, type);
    }
  return type_id;
}

static char *
format_value (EmbersLabelChart *self,
              double            value)
{
  return embers_format_value ((gint64)llround (value), self->unit);
}

static char *
format_when (gint64 time_ms)
{
  g_autoptr(GDateTime) utc = g_date_time_new_from_unix_utc (time_ms / 1000);
  g_autoptr(GDateTime) local = utc != NULL ? g_date_time_to_local (utc) : NULL;

  return local != NULL ? embers_time_format_date_time (local, TRUE) : g_strdup ("?");
}

/* The step that holds the largest value. A point stamped T holds the
 * profiles in (T − step, T] (Pyroscope's SelectSeries buckets), so the
 * step is shown as its span, not as the time the point is stamped with. */
static char *
format_max_step (EmbersLabelChart *self,
                 gboolean          with_date)
{
  gint64 step_ms = (gint64) llround (self->step_s * 1000.0);
  g_autoptr(GDateTime) end_utc = g_date_time_new_from_unix_utc (self->max_time_ms / 1000);
  g_autoptr(GDateTime) start_utc = g_date_time_new_from_unix_utc ((self->max_time_ms - step_ms) / 1000);
  g_autoptr(GDateTime) end = end_utc != NULL ? g_date_time_to_local (end_utc) : NULL;
  g_autoptr(GDateTime) start = start_utc != NULL ? g_date_time_to_local (start_utc) : NULL;
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;

  if (!self->has_time || step_ms <= 0 || start == NULL || end == NULL)
    return with_date ? format_when (self->max_time_ms)
                     : end != NULL ? embers_time_format_time (end, TRUE) : NULL;

  a = with_date ? embers_time_format_date_time (start, TRUE) : embers_time_format_time (start, TRUE);
  b = embers_time_format_time (end, TRUE);
  return g_strdup_printf ("%s–%s", a, b);
}

static const char *
display_value (EmbersLabelChart *self)
{
  /* Translators: a label value that is absent */
  return self->value != NULL && self->value[0] != '\0' ? self->value : _("(none)");
}

char *
embers_label_chart_dup_summary (EmbersLabelChart *self)
{
  g_return_val_if_fail (EMBERS_IS_LABEL_CHART (self), NULL);

  if (self->value == NULL)
    return g_strdup (_("No data"));

  switch (self->view)
    {
    case EMBERS_LABEL_VIEW_SERIES:
      {
        g_autofree char *max = format_value (self, self->max);
        guint n = self->series != NULL ? self->series->n_points : 0;

        /* Translators: value, number of points, highest value */
        return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                             "Time series of %s, %u point, highest %s",
                                             "Time series of %s, %u points, highest %s", n),
                                display_value (self), n, max);
      }
    case EMBERS_LABEL_VIEW_TOTAL:
      {
        g_autofree char *total = format_value (self, self->total);
        g_autofree char *share = embers_format_percent (self->share);
        g_autofree char *all = format_value (self, self->grand_total);

        /* Translators: value, its total, its share, the total of all values */
        return g_strdup_printf (_("Total of %s: %s, %s of %s"), display_value (self), total, share, all);
      }
    case EMBERS_LABEL_VIEW_MAXIMUM:
      {
        g_autofree char *max = format_value (self, self->max);
        g_autofree char *mean = format_value (self, self->mean);
        g_autofree char *when = format_max_step (self, TRUE);

        if (!self->has_time)
          /* Translators: value, its largest value, when (the profiles
           * have one time, so there is no average over time) */
          return g_strdup_printf (_("Maximum of %s: %s at %s"), display_value (self), max, when);
        /* Translators: value, its largest step value, when, the average
         * of its steps that have data, how many steps have data */
        return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                             "Maximum of %s: %s at %s; average %s over the %u step with data",
                                             "Maximum of %s: %s at %s; average %s over the %u steps with data",
                                             self->n_data_steps),
                                display_value (self), max, when, mean, self->n_data_steps);
      }
    case EMBERS_LABEL_VIEW_HISTOGRAM:
    default:
      {
        g_autofree char *text = embers_chart_accessible_text (self->histogram);

        /* Translators: value, then a histogram's summary */
        return g_strdup_printf (_("Per-step values of %s: %s"), display_value (self), text);
      }
    }
}

static void
update_accessible (EmbersLabelChart *self)
{
  g_autofree char *text = embers_label_chart_dup_summary (self);
  g_autofree char *name = NULL;

  if (self->value != NULL)
    /* Translators: the accessible name of a label value's chart; the
     * first %s is a label name, the second its value ("region eu") */
    name = g_strdup_printf (_("Chart of %s %s"), self->label_name != NULL ? self->label_name : "",
                            display_value (self));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, name != NULL ? name : _("Chart"),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text,
                                  -1);
}

/* The series on the label's one scale or its own; the histogram over
 * the range of every value's steps or its own */
static void
update_scale (EmbersLabelChart *self)
{
  EmbersLabelValueStats one = { 0 };
  g_autofree guint *counts = NULL;
  double lo = 0, hi = 0;

  if (self->series == NULL)
    return;
  embers_chart_set_value_max (self->lines, self->value_max);
  one.series = self->series;
  if (self->hist_hi > self->hist_lo)
    {
      lo = self->hist_lo;
      hi = self->hist_hi;
      counts = embers_label_value_stats_histogram_range (&one, self->start_ms, self->end_ms, self->step_s,
                                                         EMBERS_LABEL_CHART_HISTOGRAM_BINS, lo, hi, NULL);
    }
  else
    counts = embers_label_value_stats_histogram (&one, self->start_ms, self->end_ms, self->step_s,
                                                 EMBERS_LABEL_CHART_HISTOGRAM_BINS, &lo, &hi, NULL);
  embers_chart_set_histogram (self->histogram, counts, EMBERS_LABEL_CHART_HISTOGRAM_BINS, lo, hi);
}

/* Painting */

static void
get_style (EmbersLabelChart *self,
           EmbersChartStyle *style)
{
  /* Text, axes and accent from the card's CSS */
  embers_theme_chart_style (GTK_WIDGET (self), style);
}

static void
draw_text (cairo_t                *cr,
           PangoLayout            *layout,
           const char             *text,
           double                  x,
           double                  y,
           gboolean                right,
           const double            rgba[4],
           double                  alpha)
{
  int w, h;

  pango_layout_set_text (layout, text, -1);
  pango_layout_get_pixel_size (layout, &w, &h);
  cairo_set_source_rgba (cr, rgba[0], rgba[1], rgba[2], rgba[3] * alpha);
  cairo_move_to (cr, right ? x - w : x, y);
  pango_cairo_show_layout (cr, layout);
}

static void
rounded_rect (cairo_t *cr,
              double   x,
              double   y,
              double   w,
              double   h,
              double   r)
{
  r = MIN (r, MIN (w, h) / 2);
  cairo_new_sub_path (cr);
  cairo_arc (cr, x + w - r, y + r, r, -G_PI / 2, 0);
  cairo_arc (cr, x + w - r, y + h - r, r, 0, G_PI / 2);
  cairo_arc (cr, x + r, y + h - r, r, G_PI / 2, G_PI);
  cairo_arc (cr, x + r, y + r, r, G_PI, 3 * G_PI / 2);
  cairo_close_path (cr);
}

/* Where the bar of the total and maximum views is */
static void
bar_geometry (EmbersLabelChart *self,
              double           *x,
              double           *y,
              double           *w)
{
  int width = gtk_widget_get_width (GTK_WIDGET (self));
  int height = gtk_widget_get_height (GTK_WIDGET (self));

  *x = PAD;
  *w = MAX (1.0, width - 2 * PAD);
  *y = floor ((height - BAR_H) / 2);
}

static void
paint_bar (EmbersLabelChart       *self,
           cairo_t                *cr,
           const EmbersChartStyle *style)
{
  g_autoptr(PangoLayout) layout = pango_cairo_create_layout (cr);
  g_autoptr(PangoFontDescription) font = pango_font_description_from_string (style->font ? style->font : "Sans 9");
  double color[4];
  double x, y, w, fraction;
  g_autofree char *top_left = NULL;
  g_autofree char *top_right = NULL;
  g_autofree char *bottom = NULL;
  int th;

  pango_layout_set_font_description (layout, font);
  bar_geometry (self, &x, &y, &w);
  {
    /* Clear against the card, as the lines are */
    double bg = style->dark ? 0.19 : 1.0;
    const double background[3] = { bg, bg, bg };

    embers_chart_series_color_on (0, style->background[3] > 0 ? style->background : background, color);
  }

  if (self->view == EMBERS_LABEL_VIEW_TOTAL)
    {
      g_autofree char *all = format_value (self, self->grand_total);

      fraction = self->share;
      top_left = format_value (self, self->total);
      top_right = embers_format_percent (self->share);
      /* Translators: under the bar of a value's total */
      bottom = g_strdup_printf (_("of %s in all"), all);
    }
  else
    {
      g_autofree char *max = format_value (self, self->max);
      g_autofree char *mean = format_value (self, self->mean);
      fraction = self->max_of_max > 0 ? self->max / self->max_of_max : 0;
      /* Translators: the largest per-step value of a label value */
      top_left = g_strdup_printf (_("Maximum %s"), max);
      top_right = format_max_step (self, FALSE);
      if (self->has_time)
        /* Translators: the marker on the bar of a value's maximum: the
         * average of the steps that have data (empty steps left out) */
        bottom = g_strdup_printf (_("┃ average of steps with data %s"), mean);
      else
        /* Translators: under the bar of a value's maximum when every
         * profile has the same time */
        bottom = g_strdup (_("of the largest of all values"));
    }
  fraction = CLAMP (fraction, 0.0, 1.0);

  /* Track, then the filled part */
  rounded_rect (cr, x, y, w, BAR_H, 4);
  cairo_set_source_rgba (cr, style->fg[0], style->fg[1], style->fg[2], 0.10);
  cairo_fill (cr);
  if (fraction > 0)
    {
      rounded_rect (cr, x, y, MAX (3.0, w * fraction), BAR_H, 4);
      cairo_set_source_rgba (cr, color[0], color[1], color[2], 0.85);
      cairo_fill (cr);
    }

  if (self->view == EMBERS_LABEL_VIEW_MAXIMUM && self->max_of_max > 0 && self->has_time)
    {
      double mx = x + w * CLAMP (self->mean / self->max_of_max, 0.0, 1.0);

      cairo_set_source_rgba (cr, style->fg[0], style->fg[1], style->fg[2], 0.9);
      cairo_rectangle (cr, floor (mx) - 1, y - 3, 2, BAR_H + 6);
      cairo_fill (cr);
    }

  pango_layout_set_text (layout, "Xg", -1);
  pango_layout_get_pixel_size (layout, NULL, &th);
  draw_text (cr, layout, top_left, x, y - th - 4, FALSE, style->fg, 1.0);
  if (top_right != NULL)
    draw_text (cr, layout, top_right, x + w, y - th - 4, TRUE, style->fg, 0.7);
  draw_text (cr, layout, bottom, x, y + BAR_H + 4, FALSE, style->fg, 0.6);
}

static void
embers_label_chart_snapshot (GtkWidget   *widget,
                             GtkSnapshot *snapshot)
{
  EmbersLabelChart *self = EMBERS_LABEL_CHART (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  EmbersChartStyle style;
  cairo_t *cr;

  if (width <= 0 || height <= 0 || self->value == NULL)
    return;

  get_style (self, &style);
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  switch (self->view)
    {
    case EMBERS_LABEL_VIEW_SERIES:
      embers_chart_set_size (self->lines, width, height);
      embers_chart_paint (self->lines, cr, &style);
      break;
    case EMBERS_LABEL_VIEW_HISTOGRAM:
      embers_chart_set_size (self->histogram, MAX (1, width - HIST_END), height);
      embers_chart_paint (self->histogram, cr, &style);
      break;
    case EMBERS_LABEL_VIEW_TOTAL:
    case EMBERS_LABEL_VIEW_MAXIMUM:
    default:
      paint_bar (self, cr, &style);
      break;
    }
  cairo_destroy (cr);
}

static void
embers_label_chart_measure (GtkWidget      *widget,
                            GtkOrientation  orientation,
                            int             for_size,
                            int            *minimum,
                            int            *natural,
                            int            *minimum_baseline,
                            int            *natural_baseline)
{
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = 160;
      *natural = 320;
    }
  else
    {
      *minimum = 80;
      *natural = 120;
    }
}

static void
embers_label_chart_size_allocate (GtkWidget *widget,
                                  int        width,
                                  int        height,
                                  int        baseline)
{
  EmbersLabelChart *self = EMBERS_LABEL_CHART (widget);

  embers_chart_set_size (self->lines, width, height);
  embers_chart_set_size (self->histogram, MAX (1, width - HIST_END), height);
}

/* Pointer */

char *
embers_label_chart_describe_at (EmbersLabelChart *self,
                                double            x,
                                double            y)
{
  guint series, index;

  g_return_val_if_fail (EMBERS_IS_LABEL_CHART (self), NULL);

  if (self->value == NULL)
    return NULL;

  switch (self->view)
    {
    case EMBERS_LABEL_VIEW_SERIES:
      if (!embers_chart_hit (self->lines, x, y, &series, &index))
        return NULL;
      return embers_chart_describe (self->lines, series, index);
    case EMBERS_LABEL_VIEW_HISTOGRAM:
      if (!embers_chart_hit (self->histogram, x, y, &series, &index))
        return NULL;
      return embers_chart_describe (self->histogram, series, index);
    case EMBERS_LABEL_VIEW_TOTAL:
    case EMBERS_LABEL_VIEW_MAXIMUM:
    default:
      {
        double bx, by, bw;

        bar_geometry (self, &bx, &by, &bw);
        if (y < by - 24 || y > by + BAR_H + 24)
          return NULL;
        return embers_label_chart_dup_summary (self);
      }
    }
}

static void
motion (GtkEventControllerMotion *controller,
        double                    x,
        double                    y,
        EmbersLabelChart         *self)
{
  EmbersChart *chart = self->view == EMBERS_LABEL_VIEW_SERIES ? self->lines
                     : self->view == EMBERS_LABEL_VIEW_HISTOGRAM ? self->histogram
                     : NULL;
  guint series, index;

  if (chart == NULL)
    return;
  if (embers_chart_hit (chart, x, y, &series, &index))
    embers_chart_set_hover (chart, series, index);
  else
    embers_chart_set_hover (chart, (guint)-1, (guint)-1);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
leave (GtkEventControllerMotion *controller,
       EmbersLabelChart         *self)
{
  embers_chart_set_hover (self->lines, (guint)-1, (guint)-1);
  embers_chart_set_hover (self->histogram, (guint)-1, (guint)-1);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static gboolean
embers_label_chart_query_tooltip (GtkWidget  *widget,
                                  int         x,
                                  int         y,
                                  gboolean    keyboard,
                                  GtkTooltip *tooltip)
{
  EmbersLabelChart *self = EMBERS_LABEL_CHART (widget);
  g_autofree char *text = NULL;

  text = keyboard ? embers_label_chart_dup_summary (self)
                  : embers_label_chart_describe_at (self, x, y);
  if (text == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

/* GObject */

static void
embers_label_chart_finalize (GObject *object)
{
  EmbersLabelChart *self = EMBERS_LABEL_CHART (object);

  g_clear_pointer (&self->label_name, g_free);
  g_clear_pointer (&self->value, g_free);
  g_clear_pointer (&self->unit, g_free);
  g_clear_pointer (&self->series, embers_series_free);
  g_clear_pointer (&self->lines, embers_chart_unref);
  g_clear_pointer (&self->histogram, embers_chart_unref);
  G_OBJECT_CLASS (embers_label_chart_parent_class)->finalize (object);
}

static void
embers_label_chart_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  EmbersLabelChart *self = EMBERS_LABEL_CHART (object);

  switch (prop_id)
    {
    case PROP_VIEW:
      g_value_set_enum (value, self->view);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
embers_label_chart_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  EmbersLabelChart *self = EMBERS_LABEL_CHART (object);

  switch (prop_id)
    {
    case PROP_VIEW:
      embers_label_chart_set_view (self, g_value_get_enum (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
embers_label_chart_class_init (EmbersLabelChartClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = embers_label_chart_finalize;
  object_class->get_property = embers_label_chart_get_property;
  object_class->set_property = embers_label_chart_set_property;

  widget_class->snapshot = embers_label_chart_snapshot;
  widget_class->measure = embers_label_chart_measure;
  widget_class->size_allocate = embers_label_chart_size_allocate;
  widget_class->query_tooltip = embers_label_chart_query_tooltip;

  properties[PROP_VIEW] =
    g_param_spec_enum ("view", NULL, NULL,
                       EMBERS_TYPE_LABEL_VIEW, EMBERS_LABEL_VIEW_SERIES,
                       G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_css_name (widget_class, "embers-label-chart");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
embers_label_chart_init (EmbersLabelChart *self)
{
  GtkEventController *controller;

  self->lines = embers_chart_new (EMBERS_CHART_KIND_LINES);
  self->histogram = embers_chart_new (EMBERS_CHART_KIND_HISTOGRAM);

  controller = gtk_event_controller_motion_new ();
  g_signal_connect (controller, "motion", G_CALLBACK (motion), self);
  g_signal_connect (controller, "leave", G_CALLBACK (leave), self);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);

  self->has_time = TRUE;
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  update_accessible (self);
}

GtkWidget *
embers_label_chart_new (void)
{
  return g_object_new (EMBERS_TYPE_LABEL_CHART, NULL);
}

void
embers_label_chart_set_data (EmbersLabelChart            *self,
                             const EmbersLabelValueStats *stats,
                             const char                  *label_name,
                             const char                  *unit,
                             gint64                       start_ms,
                             gint64                       end_ms,
                             double                       step_s,
                             double                       grand_total,
                             double                       max_of_max)
{
  g_autoptr(GPtrArray) one = g_ptr_array_new ();

  g_return_if_fail (EMBERS_IS_LABEL_CHART (self));
  g_return_if_fail (stats != NULL);

  g_free (self->label_name);
  self->label_name = g_strdup (label_name);
  g_free (self->value);
  self->value = g_strdup (stats->value);
  g_free (self->unit);
  self->unit = g_strdup (unit);
  g_clear_pointer (&self->series, embers_series_free);
  self->series = stats->series != NULL ? embers_series_copy (stats->series) : embers_series_new ();
  self->start_ms = start_ms;
  self->end_ms = end_ms;
  self->step_s = step_s;
  self->total = stats->total;
  self->share = stats->share;
  self->grand_total = grand_total;
  self->max = stats->max;
  self->max_time_ms = stats->max_time_ms;
  self->mean = stats->mean;
  self->n_data_steps = stats->n_data_steps;
  self->max_of_max = max_of_max;

  g_ptr_array_add (one, self->series);
  embers_chart_set_unit (self->lines, unit);
  embers_chart_set_series (self->lines, one, label_name);
  embers_chart_set_time_range (self->lines, start_ms, end_ms);
  embers_chart_set_unit (self->histogram, unit);
  update_scale (self);

  update_accessible (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
embers_label_chart_set_scale (EmbersLabelChart *self,
                              double            value_max,
                              double            hist_lo,
                              double            hist_hi)
{
  g_return_if_fail (EMBERS_IS_LABEL_CHART (self));

  if (self->value_max == value_max && self->hist_lo == hist_lo && self->hist_hi == hist_hi)
    return;
  self->value_max = value_max;
  self->hist_lo = hist_lo;
  self->hist_hi = hist_hi;
  update_scale (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
embers_label_chart_set_has_time (EmbersLabelChart *self,
                                 gboolean          has_time)
{
  g_return_if_fail (EMBERS_IS_LABEL_CHART (self));

  has_time = !!has_time;
  if (self->has_time == has_time)
    return;
  self->has_time = has_time;
  update_accessible (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
embers_label_chart_set_view (EmbersLabelChart *self,
                             EmbersLabelView   view)
{
  g_return_if_fail (EMBERS_IS_LABEL_CHART (self));
  g_return_if_fail (view <= EMBERS_LABEL_VIEW_HISTOGRAM);

  if (self->view == view)
    return;
  self->view = view;
  update_accessible (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VIEW]);
}

EmbersLabelView
embers_label_chart_get_view (EmbersLabelChart *self)
{
  g_return_val_if_fail (EMBERS_IS_LABEL_CHART (self), EMBERS_LABEL_VIEW_SERIES);
  return self->view;
}
