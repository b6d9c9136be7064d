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
  self->drag_y = y;
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
  else
    /* A click: on a profile's marker, that profile alone */
    embers_profiles_bar_click (self->profiles_bar, self->drag_x, self->drag_y);
}

void
embers_explore_chart_show_status (EmbersExplorePage *self,
                   const char        *title,
                   const char        *description,
                   gboolean           retry)
{
  embers_status_show_message (self->chart_stack, retry ? "dialog-error-symbolic" : NULL, title, description, retry);
}

static void chart_loaded (EmbersRequest *req,
                          GPtrArray     *series,
                          GError        *error);

static void
chart_done (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  GError *error = NULL;
  GPtrArray *series = embers_source_select_series_finish (EMBERS_SOURCE (object), result, &error);

  chart_loaded (user_data, series, error);
}

/* The chart's series with their heaviest profiles (exemplars) */
static void
chart_exemplars_done (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  EmbersRequest *req = user_data;
  EmbersExplorePage *self = req->owner;
  GError *error = NULL;
  GPtrArray *series = embers_source_select_exemplars_finish (EMBERS_SOURCE (object), result, &error);

  /* A server without them (a v1 querier: unimplemented; it turned them
   * off) or a source that cannot: the plain series instead */
  if (series == NULL &&
      (g_error_matches (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_UNIMPLEMENTED) ||
       g_error_matches (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_NOT_SUPPORTED)) &&
      !g_cancellable_is_cancelled (req->cancellable))
    {
      g_autoptr(EmbersQuery) query = embers_explore_page_dup_query (self);

      g_clear_error (&error);
      if (query != NULL)
        {
          embers_profiles_bar_set_available (self->profiles_bar, FALSE);
          embers_source_select_chart_series (EMBERS_SOURCE (object), query, NULL, EMBERS_AGGREGATION_SUM, 0,
                                             req->cancellable, chart_done, req);
          return;
        }
      error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED, "no query");
    }
  chart_loaded (req, series, error);
}

static void
chart_loaded (EmbersRequest *req_owned,
              GPtrArray     *series_owned,
              GError        *error_owned)
{
  g_autoptr(EmbersRequest) req = req_owned;
  EmbersExplorePage *self = req->owner;
  g_autoptr(GPtrArray) series = series_owned;
  g_autoptr(GError) error = error_owned;
  g_autoptr(EmbersProfileTypeInfo) info = NULL;

  if (!embers_explore_request_finish (req))
    return;
  if (series == NULL)
    {
      embers_explore_set_error (self, REQ_CHART, error);
      /* No markers nor a menu of profiles from a range not shown */
      embers_profiles_bar_set_series (self->profiles_bar, NULL);
      embers_explore_chart_show_status (self, _("Could Not Load the Time Series"), error->message, TRUE);
      return;
    }

  g_clear_pointer (&self->series, g_ptr_array_unref);
  g_clear_pointer (&self->picked_scope, g_free);
  self->series = g_ptr_array_ref (series);
  info = self->profile_type != NULL ? embers_profile_type_info_new (self->profile_type) : NULL;
  embers_chart_set_unit (self->chart, info != NULL ? info->sample_unit : NULL);
  embers_chart_set_series (self->chart, series, NULL);
  embers_chart_set_time_range (self->chart, self->start_ms, self->end_ms);
  embers_profiles_bar_set_series (self->profiles_bar, series);
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
  /* A profile picked in another query (service, type, filters, range)
   * is not one of this one's: back to the merged view */
  {
    g_autofree char *selector = embers_selector_to_string (embers_filter_bar_get_filters (self->filter_bar));
    g_autofree char *scope = g_strdup_printf ("%s\x1e%s\x1e%s\x1e%" G_GINT64_FORMAT "\x1e%" G_GINT64_FORMAT,
                                              query->profile_type ? query->profile_type : "",
                                              query->label_selector ? query->label_selector : "",
                                              selector ? selector : "",
                                              self->start_ms, self->end_ms);

    if (g_strcmp0 (scope, self->picked_scope) != 0)
      {
        g_free (self->picked_scope);
        self->picked_scope = g_steal_pointer (&scope);
        embers_profiles_bar_clear (self->profiles_bar);
      }
  }
  /* The old range's profiles are not offered while the new one loads */
  embers_profiles_bar_set_series (self->profiles_bar, NULL);
  if (embers_source_get_capabilities (self->source) & EMBERS_SOURCE_CAN_PROFILE_IDS)
    {
      embers_profiles_bar_set_available (self->profiles_bar, TRUE);
      embers_source_select_chart_exemplars (self->source, query, req->cancellable, chart_exemplars_done, req);
      return;
    }
  embers_profiles_bar_set_available (self->profiles_bar, FALSE);
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

  /* The heaviest profiles under the chart (embers-explore-profiles.c) */
  self->profiles_bar = embers_profiles_bar_new (self->chart, GTK_WIDGET (self->chart_area));
  gtk_widget_set_margin_start (GTK_WIDGET (self->profiles_bar), 8);
  gtk_widget_set_margin_end (GTK_WIDGET (self->profiles_bar), 8);
  gtk_widget_set_margin_bottom (GTK_WIDGET (self->profiles_bar), 4);
  gtk_box_insert_child_after (GTK_BOX (gtk_widget_get_parent (GTK_WIDGET (self->chart_stack))),
                              GTK_WIDGET (self->profiles_bar), GTK_WIDGET (self->chart_stack));
  g_signal_connect_object (self->profiles_bar, "changed", G_CALLBACK (embers_explore_load_profile), self, G_CONNECT_SWAPPED);
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
