/* embers-series-chart.c: a time-series chart with a selectable range
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "embers-series-chart.h"
#include "embers-theme.h"
#include "embers-time.h"

#define MIN_DRAG_PX 3.0
/* The keyboard moves a selection by this fraction of the time range */
#define KEY_STEPS 20

struct _EmbersSeriesChart
{
  GtkWidget    parent_instance;

  EmbersChart *chart;
  gint64       start_ms;
  gint64       end_ms;

  double       drag_x;
  gboolean     dragging;
  gboolean     had_selection;
  gint64       old_from_ms;
  gint64       old_to_ms;

  /* The selection as last applied (dragged, Enter or set): Escape goes
   * back to it */
  gboolean     applied;
  gint64       applied_from_ms;
  gint64       applied_to_ms;

  /* A chart over the same time axis (weak): both plots start where the
   * wider value labels need */
  EmbersSeriesChart *aligned;
};

G_DEFINE_FINAL_TYPE (EmbersSeriesChart, embers_series_chart, GTK_TYPE_WIDGET)

enum {
  SIGNAL_RANGE_SELECTED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
update_accessible (EmbersSeriesChart *self)
{
  g_autofree char *text = embers_chart_accessible_text (self->chart);
  gint64 from, to;
  g_autofree char *full = NULL;

  if (embers_chart_get_selection (self->chart, &from, &to))
    {
      g_autoptr(GDateTime) a = g_date_time_new_from_unix_local (from / 1000);
      g_autoptr(GDateTime) b = g_date_time_new_from_unix_local (to / 1000);
      g_autofree char *sa = a != NULL ? embers_time_format_date_time (a, TRUE) : g_strdup ("?");
      g_autofree char *sb = b != NULL ? embers_time_format_date_time (b, TRUE) : g_strdup ("?");

      /* Translators: chart summary, then the selected time range */
      full = g_strdup_printf (_("%s; selected %s to %s"), text != NULL ? text : "", sa, sb);
    }

  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  full != NULL ? full : (text != NULL ? text : ""),
                                  -1);
}

/* The plot starts where this chart's or the aligned one's value labels
 * need, whichever is wider, so that one time is one x in both */
static void
align_plot (EmbersSeriesChart *self)
{
  double left;

  embers_chart_set_min_plot_left (self->chart, 0.0);
  if (self->aligned == NULL)
    return;
  left = MAX (embers_chart_get_natural_plot_left (self->chart),
              embers_chart_get_natural_plot_left (self->aligned->chart));
  embers_chart_set_min_plot_left (self->chart, left);
}

static void
embers_series_chart_snapshot (GtkWidget   *widget,
                              GtkSnapshot *snapshot)
{
  EmbersSeriesChart *self = EMBERS_SERIES_CHART (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  EmbersChartStyle style;
  GdkRGBA fg;
  cairo_t *cr;

  if (width <= 0 || height <= 0)
    return;

  /* Text, axes and accent from the widget's CSS */
  gtk_widget_get_color (widget, &fg);
  embers_theme_chart_style (widget, &style);

  embers_chart_set_size (self->chart, width, height);
  align_plot (self);
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  embers_chart_paint (self->chart, cr, &style);

  /* Keyboard focus: an outline in the text colour, dashed */
  if (gtk_widget_has_visible_focus (widget))
    {
      static const double dash[] = { 3.0, 2.0 };

      cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.7);
      cairo_set_line_width (cr, 1.0);
      cairo_set_dash (cr, dash, G_N_ELEMENTS (dash), 0);
      cairo_rectangle (cr, 0.5, 0.5, width - 1.0, height - 1.0);
      cairo_stroke (cr);
    }
  cairo_destroy (cr);
}

static void
embers_series_chart_measure (GtkWidget      *widget,
                             GtkOrientation  orientation,
                             int             for_size,
                             int            *minimum,
                             int            *natural,
                             int            *minimum_baseline,
                             int            *natural_baseline)
{
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = 120;
      *natural = 400;
    }
  else
    {
      *minimum = 80;
      *natural = 140;
    }
}

static void
embers_series_chart_size_allocate (GtkWidget *widget,
                                   int        width,
                                   int        height,
                                   int        baseline)
{
  EmbersSeriesChart *self = EMBERS_SERIES_CHART (widget);

  embers_chart_set_size (self->chart, width, height);
  align_plot (self);
  /* The other chart's plot may start elsewhere now */
  if (self->aligned != NULL)
    gtk_widget_queue_draw (GTK_WIDGET (self->aligned));
}

/* Pointer */

static void
drag_begin (GtkGestureDrag    *gesture,
            double             x,
            double             y,
            EmbersSeriesChart *self)
{
  if (self->end_ms <= self->start_ms)
    {
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_DENIED);
      return;
    }
  self->drag_x = x;
  self->dragging = TRUE;
  self->had_selection = embers_chart_get_selection (self->chart, &self->old_from_ms, &self->old_to_ms);
}

static void
drag_update (GtkGestureDrag    *gesture,
             double             dx,
             double             dy,
             EmbersSeriesChart *self)
{
  gint64 a, b;

  if (!self->dragging || ABS (dx) < MIN_DRAG_PX)
    return;
  a = embers_chart_time_for_x (self->chart, self->drag_x);
  b = embers_chart_time_for_x (self->chart, self->drag_x + dx);
  embers_chart_snap_to_steps (self->chart, &a, &b);
  embers_chart_set_selection (self->chart, MIN (a, b), MAX (a, b));
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
drag_end (GtkGestureDrag    *gesture,
          double             dx,
          double             dy,
          EmbersSeriesChart *self)
{
  if (!self->dragging)
    return;
  self->dragging = FALSE;

  if (!embers_series_chart_drag (self, self->drag_x, self->drag_x + dx))
    {
      /* A click: the previous selection stays */
      if (self->had_selection)
        embers_chart_set_selection (self->chart, self->old_from_ms, self->old_to_ms);
      else
        embers_chart_clear_selection (self->chart);
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
}

static void
motion (GtkEventControllerMotion *controller,
        double                    x,
        double                    y,
        EmbersSeriesChart        *self)
{
  guint series, index;

  if (embers_chart_hit (self->chart, x, y, &series, &index))
    embers_chart_set_hover (self->chart, series, index);
  else
    embers_chart_set_hover (self->chart, (guint) -1, (guint) -1);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
leave (GtkEventControllerMotion *controller,
       EmbersSeriesChart        *self)
{
  embers_chart_set_hover (self->chart, (guint) -1, (guint) -1);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static gboolean
embers_series_chart_query_tooltip (GtkWidget  *widget,
                                   int         x,
                                   int         y,
                                   gboolean    keyboard,
                                   GtkTooltip *tooltip)
{
  EmbersSeriesChart *self = EMBERS_SERIES_CHART (widget);
  guint series, index;
  g_autofree char *text = NULL;

  if (keyboard || !embers_chart_hit (self->chart, x, y, &series, &index))
    return FALSE;
  text = embers_chart_describe (self->chart, series, index);
  if (text == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

/* Keyboard */

static void
remember_applied (EmbersSeriesChart *self)
{
  self->applied = embers_chart_get_selection (self->chart, &self->applied_from_ms, &self->applied_to_ms);
}

static void
move_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  int steps;
  gboolean resize;

  g_variant_get (parameter, "(ib)", &steps, &resize);
  embers_series_chart_move_selection (EMBERS_SERIES_CHART (widget), steps, resize);
}

static void
apply_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  embers_series_chart_apply_selection (EMBERS_SERIES_CHART (widget));
}

static void
revert_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  EmbersSeriesChart *self = EMBERS_SERIES_CHART (widget);

  if (self->applied)
    embers_chart_set_selection (self->chart, self->applied_from_ms, self->applied_to_ms);
  else
    embers_chart_clear_selection (self->chart);
  update_accessible (self);
  gtk_widget_queue_draw (widget);
}

static void
embers_series_chart_finalize (GObject *object)
{
  EmbersSeriesChart *self = EMBERS_SERIES_CHART (object);

  g_clear_weak_pointer (&self->aligned);
  g_clear_pointer (&self->chart, embers_chart_unref);
  G_OBJECT_CLASS (embers_series_chart_parent_class)->finalize (object);
}

static void
embers_series_chart_class_init (EmbersSeriesChartClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = embers_series_chart_finalize;

  widget_class->snapshot = embers_series_chart_snapshot;
  widget_class->measure = embers_series_chart_measure;
  widget_class->size_allocate = embers_series_chart_size_allocate;
  widget_class->query_tooltip = embers_series_chart_query_tooltip;

  /**
   * EmbersSeriesChart::range-selected:
   * @from_ms: start of the range, Unix ms
   * @to_ms: end of the range, Unix ms (> @from_ms)
   *
   * A time range was selected by dragging.
   */
  signals[SIGNAL_RANGE_SELECTED] =
    g_signal_new ("range-selected",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, G_TYPE_INT64, G_TYPE_INT64);

  /* Arrows move the selection, Shift+arrows move its end, Enter applies
   * it as a drag would, Escape goes back to the applied one */
  gtk_widget_class_install_action (widget_class, "chart.move", "(ib)", move_action);
  gtk_widget_class_install_action (widget_class, "chart.apply", NULL, apply_action);
  gtk_widget_class_install_action (widget_class, "chart.revert", NULL, revert_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, 0, "chart.move", "(ib)", -1, FALSE);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Right, 0, "chart.move", "(ib)", 1, FALSE);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, GDK_SHIFT_MASK, "chart.move", "(ib)", -1, TRUE);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Right, GDK_SHIFT_MASK, "chart.move", "(ib)", 1, TRUE);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Return, 0, "chart.apply", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Enter, 0, "chart.apply", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_space, 0, "chart.apply", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "chart.revert", NULL);

  gtk_widget_class_set_css_name (widget_class, "embers-series-chart");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
embers_series_chart_init (EmbersSeriesChart *self)
{
  GtkGesture *drag;
  GtkEventController *controller;

  self->chart = embers_chart_new (EMBERS_CHART_KIND_LINES);

  drag = gtk_gesture_drag_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (drag), GDK_BUTTON_PRIMARY);
  g_signal_connect (drag, "drag-begin", G_CALLBACK (drag_begin), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (drag_update), self);
  g_signal_connect (drag, "drag-end", G_CALLBACK (drag_end), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));

  controller = gtk_event_controller_motion_new ();
  g_signal_connect (controller, "motion", G_CALLBACK (motion), self);
  g_signal_connect (controller, "leave", G_CALLBACK (leave), self);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);

  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Time series; drag, or use the arrow keys and Enter, to select a time range"),
                                  -1);
  update_accessible (self);
}

GtkWidget *
embers_series_chart_new (void)
{
  return g_object_new (EMBERS_TYPE_SERIES_CHART, NULL);
}

void
embers_series_chart_set_series (EmbersSeriesChart *self,
                                GPtrArray         *series,
                                const char        *label_name,
                                const char        *unit)
{
  g_autoptr(GPtrArray) empty = NULL;

  g_return_if_fail (EMBERS_IS_SERIES_CHART (self));

  if (series == NULL)
    series = empty = g_ptr_array_new ();
  embers_chart_set_unit (self->chart, unit);
  embers_chart_set_series (self->chart, series, label_name);
  if (self->end_ms > self->start_ms)
    embers_chart_set_time_range (self->chart, self->start_ms, self->end_ms);
  align_plot (self);
  update_accessible (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  /* New value labels: the other chart lines up again */
  if (self->aligned != NULL)
    {
      align_plot (self->aligned);
      gtk_widget_queue_draw (GTK_WIDGET (self->aligned));
    }
}

void
embers_series_chart_align_with (EmbersSeriesChart *self,
                                EmbersSeriesChart *other)
{
  g_return_if_fail (EMBERS_IS_SERIES_CHART (self));
  g_return_if_fail (other == NULL || EMBERS_IS_SERIES_CHART (other));

  if (self->aligned != NULL)
    {
      EmbersSeriesChart *old = self->aligned;

      g_clear_weak_pointer (&self->aligned);
      g_clear_weak_pointer (&old->aligned);
      align_plot (old);
      gtk_widget_queue_draw (GTK_WIDGET (old));
    }
  if (other != NULL)
    {
      g_set_weak_pointer (&self->aligned, other);
      g_set_weak_pointer (&other->aligned, self);
      align_plot (other);
      gtk_widget_queue_draw (GTK_WIDGET (other));
    }
  align_plot (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
embers_series_chart_set_time_range (EmbersSeriesChart *self,
                                    gint64             start_ms,
                                    gint64             end_ms)
{
  g_return_if_fail (EMBERS_IS_SERIES_CHART (self));
  g_return_if_fail (end_ms >= start_ms);

  self->start_ms = start_ms;
  self->end_ms = end_ms;
  embers_chart_set_time_range (self->chart, start_ms, end_ms);
  update_accessible (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
embers_series_chart_get_time_range (EmbersSeriesChart *self,
                                    gint64            *start_ms,
                                    gint64            *end_ms)
{
  g_return_if_fail (EMBERS_IS_SERIES_CHART (self));
  if (start_ms != NULL)
    *start_ms = self->start_ms;
  if (end_ms != NULL)
    *end_ms = self->end_ms;
}

void
embers_series_chart_set_selection (EmbersSeriesChart *self,
                                   gint64             from_ms,
                                   gint64             to_ms)
{
  g_return_if_fail (EMBERS_IS_SERIES_CHART (self));

  embers_chart_set_selection (self->chart, MIN (from_ms, to_ms), MAX (from_ms, to_ms));
  remember_applied (self);
  update_accessible (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

gboolean
embers_series_chart_get_selection (EmbersSeriesChart *self,
                                   gint64            *from_ms,
                                   gint64            *to_ms)
{
  g_return_val_if_fail (EMBERS_IS_SERIES_CHART (self), FALSE);
  return embers_chart_get_selection (self->chart, from_ms, to_ms);
}

void
embers_series_chart_clear_selection (EmbersSeriesChart *self)
{
  g_return_if_fail (EMBERS_IS_SERIES_CHART (self));

  embers_chart_clear_selection (self->chart);
  self->applied = FALSE;
  update_accessible (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

gboolean
embers_series_chart_drag (EmbersSeriesChart *self,
                          double             x_from,
                          double             x_to)
{
  double px, py, pw, ph;
  double lo, hi;
  gint64 from, to;

  g_return_val_if_fail (EMBERS_IS_SERIES_CHART (self), FALSE);

  if (ABS (x_to - x_from) < MIN_DRAG_PX || self->end_ms <= self->start_ms)
    return FALSE;

  /* Clamp to the plot area, so a drag past the edge ends at the edge */
  embers_chart_get_plot_area (self->chart, &px, &py, &pw, &ph);
  lo = CLAMP (MIN (x_from, x_to), px, px + pw);
  hi = CLAMP (MAX (x_from, x_to), px, px + pw);
  from = embers_chart_time_for_x (self->chart, lo);
  to = embers_chart_time_for_x (self->chart, hi);
  from = CLAMP (from, self->start_ms, self->end_ms);
  to = CLAMP (to, self->start_ms, self->end_ms);
  /* Whole steps: the selected points' profiles, no more, no fewer */
  embers_chart_snap_to_steps (self->chart, &from, &to);
  if (to <= from)
    return FALSE;

  embers_chart_set_selection (self->chart, from, to);
  remember_applied (self);
  update_accessible (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_signal_emit (self, signals[SIGNAL_RANGE_SELECTED], 0, from, to);
  return TRUE;
}

gboolean
embers_series_chart_move_selection (EmbersSeriesChart *self,
                                    int                steps,
                                    gboolean           resize)
{
  gint64 range, step, from, to, min_len;

  g_return_val_if_fail (EMBERS_IS_SERIES_CHART (self), FALSE);

  range = self->end_ms - self->start_ms;
  if (range <= 0)
    return FALSE;
  step = MAX (range / KEY_STEPS, 1);
  min_len = step;

  if (!embers_chart_get_selection (self->chart, &from, &to) || to <= from)
    {
      /* Nothing selected yet: the middle fifth, then the step */
      from = self->start_ms + range * 2 / 5;
      to = self->start_ms + range * 3 / 5;
    }
  else if (resize)
    to = CLAMP (to + steps * step, from + min_len, self->end_ms);
  else
    {
      gint64 len = to - from;

      from = CLAMP (from + steps * step, self->start_ms, self->end_ms - len);
      to = from + len;
    }

  embers_chart_set_selection (self->chart, from, to);
  update_accessible (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  return TRUE;
}

gboolean
embers_series_chart_apply_selection (EmbersSeriesChart *self)
{
  gint64 from, to;

  g_return_val_if_fail (EMBERS_IS_SERIES_CHART (self), FALSE);

  if (!embers_chart_get_selection (self->chart, &from, &to) || to <= from)
    return FALSE;
  remember_applied (self);
  g_signal_emit (self, signals[SIGNAL_RANGE_SELECTED], 0, from, to);
  return TRUE;
}

EmbersChart *
embers_series_chart_get_chart (EmbersSeriesChart *self)
{
  g_return_val_if_fail (EMBERS_IS_SERIES_CHART (self), NULL);
  return self->chart;
}
