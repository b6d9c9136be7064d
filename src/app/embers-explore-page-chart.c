/* embers-explore-page-chart.c: the time-series chart and its drag
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "embers-explore-page-private.h"

static void
chart_draw (GtkDrawingArea *area,
            cairo_t        *cr,
            int             width,
            int             height,
            gpointer        user_data)
{
  EmbersExplorePage *self = user_data;
  EmbersChartStyle style;

  /* Text, axes and accent from the chart's CSS */
  embers_theme_chart_style (GTK_WIDGET (area), &style);
  embers_chart_set_size (self->chart, width, height);
  embers_chart_paint (self->chart, cr, &style);
}

static void
chart_resize (EmbersExplorePage *self,
              int                width,
              int                height)
{
  embers_chart_set_size (self->chart, width, height);
}

static void
drag_begin (GtkGestureDrag    *gesture,
            double             x,
            double             y,
            EmbersExplorePage *self)
{
  self->drag_x = x;
  self->dragging = TRUE;
}

static void
drag_update (GtkGestureDrag    *gesture,
             double             dx,
             double             dy,
             EmbersExplorePage *self)
{
  gint64 a = embers_chart_time_for_x (self->chart, self->drag_x);
  gint64 b = embers_chart_time_for_x (self->chart, self->drag_x + dx);

  /* Whole steps: what is shaded is what the flame graph will hold */
  embers_chart_snap_to_steps (self->chart, &a, &b);
  embers_chart_set_selection (self->chart, MIN (a, b), MAX (a, b));
  gtk_widget_queue_draw (GTK_WIDGET (self->chart_area));
}

static void
drag_end (GtkGestureDrag    *gesture,
          double             dx,
          double             dy,
          EmbersExplorePage *self)
{
  self->dragging = FALSE;
  embers_chart_clear_selection (self->chart);
  gtk_widget_queue_draw (GTK_WIDGET (self->chart_area));
  if (ABS (dx) >= 4)
    embers_explore_page_drag_chart (self, self->drag_x, self->drag_x + dx);
}

void
embers_explore_chart_show_status (EmbersExplorePage *self,
                   const char        *title,
                   const char        *description,
                   gboolean           retry)
{
  embers_status_show_message (self->chart_stack, retry ? "dialog-error-symbolic" : NULL, title, description, retry);
}

static void
chart_done (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(EmbersRequest) req = user_data;
  EmbersExplorePage *self = req->owner;
  g_autoptr(GPtrArray) series = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersProfileTypeInfo) info = NULL;

  series = embers_source_select_series_finish (EMBERS_SOURCE (object), result, &error);
  if (!embers_explore_request_finish (req))
    return;
  if (series == NULL)
    {
      embers_explore_set_error (self, REQ_CHART, error);
      embers_explore_chart_show_status (self, _("Could Not Load the Time Series"), error->message, TRUE);
      return;
    }

  g_clear_pointer (&self->series, g_ptr_array_unref);
  self->series = g_ptr_array_ref (series);
  info = self->profile_type != NULL ? embers_profile_type_info_new (self->profile_type) : NULL;
  embers_chart_set_unit (self->chart, info != NULL ? info->sample_unit : NULL);
  embers_chart_set_series (self->chart, series, NULL);
  embers_chart_set_time_range (self->chart, self->start_ms, self->end_ms);
  if (series->len == 0)
    {
      embers_explore_chart_show_status (self, _("No Data"), _("Nothing matches in this time range."), FALSE);
      return;
    }
  embers_status_show_content (self->chart_stack);
  {
    g_autofree char *text = embers_chart_accessible_text (self->chart);

    gtk_accessible_update_property (GTK_ACCESSIBLE (self->chart_area),
                                    GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text, -1);
  }
  gtk_widget_queue_draw (GTK_WIDGET (self->chart_area));
}

void
embers_explore_load_chart (EmbersExplorePage *self)
{
  g_autoptr(EmbersQuery) query = embers_explore_page_dup_query (self);
  EmbersRequest *req;

  embers_explore_push_model (self);
  if (query == NULL)
    {
      embers_explore_request_cancel (self, REQ_CHART);
      embers_explore_update_loading (self);
      return;
    }
  req = embers_explore_request_start (self, REQ_CHART);
  /* Nothing stale: the old chart dims under what is being loaded */
  embers_explore_show_loading (self, self->chart_stack);
  embers_source_select_chart_series (self->source, query, NULL, EMBERS_AGGREGATION_SUM, 0,
                                     req->cancellable, chart_done, req);
}

void
embers_explore_build_chart (EmbersExplorePage *self)
{
  GtkGesture *drag;

  self->chart = embers_chart_new (EMBERS_CHART_KIND_LINES);
  self->chart_area = GTK_DRAWING_AREA (gtk_drawing_area_new ());
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->chart_area), _("Drag to pick a time range"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->chart_area),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Time series"), -1);
  gtk_drawing_area_set_draw_func (self->chart_area, chart_draw, self, NULL);
  g_signal_connect_swapped (self->chart_area, "resize", G_CALLBACK (chart_resize), self);
  drag = gtk_gesture_drag_new ();
  g_signal_connect (drag, "drag-begin", G_CALLBACK (drag_begin), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (drag_update), self);
  g_signal_connect (drag, "drag-end", G_CALLBACK (drag_end), self);
  gtk_widget_add_controller (GTK_WIDGET (self->chart_area), GTK_EVENT_CONTROLLER (drag));

  embers_status_set_content (self->chart_stack, GTK_WIDGET (self->chart_area));
  g_signal_connect_object (self->chart_stack, "retry", G_CALLBACK (embers_explore_page_retry), self,
                           G_CONNECT_SWAPPED);
  embers_status_show_message (self->chart_stack, NULL, NULL, NULL, FALSE);
}

guint
embers_explore_page_get_n_series (EmbersExplorePage *self)
{
  g_return_val_if_fail (EMBERS_IS_EXPLORE_PAGE (self), 0);
  return self->series != NULL ? self->series->len : 0;
}

gboolean
embers_explore_page_drag_chart (EmbersExplorePage *self,
                                double             x_from,
                                double             x_to)
{
  gint64 a, b;

  g_return_val_if_fail (EMBERS_IS_EXPLORE_PAGE (self), FALSE);

  if (gtk_widget_get_width (GTK_WIDGET (self->chart_area)) <= 0)
    return FALSE;
  a = embers_chart_time_for_x (self->chart, MIN (x_from, x_to));
  b = embers_chart_time_for_x (self->chart, MAX (x_from, x_to));
  if (b - a < 1000)
    return FALSE;
  /* The whole steps the drag touches: the flame graph of the new range
   * holds exactly the profiles the selected points count */
  embers_chart_snap_to_steps (self->chart, &a, &b);
  embers_explore_page_set_time_range (self, a, b);
  return TRUE;
}

GPtrArray *
embers_explore_page_get_series (EmbersExplorePage *self)
{
  g_return_val_if_fail (EMBERS_IS_EXPLORE_PAGE (self), NULL);

  return self->series;
}
