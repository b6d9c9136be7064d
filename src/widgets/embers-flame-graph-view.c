/* embers-flame-graph-view.c: where the flame graph looks: geometry, scrolling,
 * zoom, focus history, selection and size
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <glib/gi18n.h>

#include "embers-flame-graph-private.h"

/* Geometry */

double
embers_flame_graph_get_y_offset (EmbersFlameGraph *self)
{
  double height = gtk_widget_get_height (GTK_WIDGET (self));
  double pad = 0;
  double value = 0;

  if (self->layout != NULL && self->direction == EMBERS_LAYOUT_FLAME)
    {
      double lh = embers_layout_get_height (self->layout);

      if (lh < height)
        pad = height - lh;
    }
  if (self->vadjustment != NULL)
    value = gtk_adjustment_get_value (self->vadjustment);

  return pad - value;
}

int
embers_flame_graph_hit_test (EmbersFlameGraph *self,
                             double            x,
                             double            y)
{
  embers_flame_graph_ensure_layout (self);
  if (self->layout == NULL)
    return -1;
  return embers_layout_hit_test (self->layout, x, y - embers_flame_graph_get_y_offset (self));
}

const EmbersRect *
embers_flame_graph_get_rect (EmbersFlameGraph *self,
                             int               index)
{
  if (self->layout == NULL || index < 0)
    return NULL;
  return embers_layout_get_rect (self->layout, index);
}

int
embers_flame_graph_find_node (EmbersFlameGraph *self,
                              guint32           node)
{
  embers_flame_graph_ensure_layout (self);
  if (self->layout == NULL || node == EMBERS_NODE_NONE)
    return -1;
  return embers_layout_find_node (self->layout, node);
}

/* Actions and accessibility */

gboolean
embers_flame_graph_selected_is_frame (EmbersFlameGraph *self)
{
  return self->profile != NULL && self->selected != EMBERS_NODE_NONE && self->selected != 0;
}

void
embers_flame_graph_update_actions (EmbersFlameGraph *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  gboolean frame = embers_flame_graph_selected_is_frame (self);

  gtk_widget_action_set_enabled (widget, "flame.back", self->back->len > 0);
  gtk_widget_action_set_enabled (widget, "flame.forward", self->forward->len > 0);
  gtk_widget_action_set_enabled (widget, "flame.reset",
                                 self->focus != 0 || self->x_start > 0 || self->x_end < 1);
  gtk_widget_action_set_enabled (widget, "flame.zoom-reset", self->x_start > 0 || self->x_end < 1);
  gtk_widget_action_set_enabled (widget, "flame.zoom-in", self->profile != NULL);
  gtk_widget_action_set_enabled (widget, "flame.zoom-out", self->x_start > 0 || self->x_end < 1);
  gtk_widget_action_set_enabled (widget, "flame.focus-selected",
                                 self->profile != NULL && self->selected != EMBERS_NODE_NONE);
  gtk_widget_action_set_enabled (widget, "flame.sandwich", frame);
  gtk_widget_action_set_enabled (widget, "flame.copy-name", frame);
  gtk_widget_action_set_enabled (widget, "flame.copy-stack", frame);
  gtk_widget_action_set_enabled (widget, "flame.hide-frame", frame);
  gtk_widget_action_set_enabled (widget, "flame.focus-function", frame);
  gtk_widget_action_set_enabled (widget, "flame.focus-subtree", frame);
  gtk_widget_action_set_enabled (widget, "flame.merge-function", frame);
  gtk_widget_action_set_enabled (widget, "flame.drop-function", frame);
  gtk_widget_action_set_enabled (widget, "flame.collapse-package", frame);
  gtk_widget_action_set_enabled (widget, "flame.collapse-function-recursion", frame);
}

void
embers_flame_graph_update_accessible (EmbersFlameGraph *self)
{
  g_autofree char *text = NULL;

  if (self->profile != NULL && self->selected != EMBERS_NODE_NONE)
    text = embers_render_accessible_text (self->profile, self->sample_type, self->selected);

  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  text != NULL ? text : _("Flame graph"),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  _("Flame graph. Arrow keys move between frames, Enter zooms into a frame, Backspace goes back."),
                                  -1);
}

/* Scrolling */

void
embers_flame_graph_configure_adjustments (EmbersFlameGraph *self)
{
  double width = gtk_widget_get_width (GTK_WIDGET (self));
  double height = gtk_widget_get_height (GTK_WIDGET (self));

  self->configured_width = width;
  self->configured_height = height;
  self->in_configure = TRUE;

  if (self->vadjustment != NULL)
    {
      double lh = self->layout != NULL ? embers_layout_get_height (self->layout) : 0;
      double upper = MAX (lh, height);
      double value;

      if (self->direction == EMBERS_LAYOUT_FLAME)
        value = upper - height - self->v_from_bottom;
      else
        value = gtk_adjustment_get_value (self->vadjustment);
      value = CLAMP (value, 0, MAX (upper - height, 0));
      gtk_adjustment_configure (self->vadjustment, value, 0, upper,
                                EMBERS_LAYOUT_ROW_HEIGHT * 3, height * 0.9, height);
    }

  if (self->hadjustment != NULL && width > 0)
    {
      double upper = width / (self->x_end - self->x_start);

      gtk_adjustment_configure (self->hadjustment, self->x_start * upper, 0, upper,
                                width * 0.1, width * 0.9, width);
    }

  self->in_configure = FALSE;
}

void
embers_flame_graph_update_hover (EmbersFlameGraph *self)
{
  int rect = -1;
  guint32 node = EMBERS_NODE_NONE;

  if (self->has_pointer && !self->dragging)
    rect = embers_flame_graph_hit_test (self, self->pointer_x, self->pointer_y);

  if (rect == self->hover_rect)
    return;

  self->hover_rect = rect;
  if (rect >= 0 && !(embers_flame_graph_get_rect (self, rect)->flags & EMBERS_RECT_MERGED))
    node = embers_flame_graph_get_rect (self, rect)->node;
  gtk_widget_queue_draw (GTK_WIDGET (self));

  if (node != self->hover_node)
    {
      self->hover_node = node;
      embers_flame_graph_notify (self, PROP_HOVER_NODE);
    }
}

void
embers_flame_graph_on_vadjustment_changed (EmbersFlameGraph *self,
                                           GtkAdjustment    *adjustment)
{
  if (!self->in_configure)
    self->v_from_bottom = gtk_adjustment_get_upper (adjustment)
                          - gtk_adjustment_get_page_size (adjustment)
                          - gtk_adjustment_get_value (adjustment);
  embers_flame_graph_clear_paint (self);
  self->hover_rect = -2;
  embers_flame_graph_update_hover (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

gboolean
embers_flame_graph_is_zoomed (EmbersFlameGraph *self)
{
  return self->x_start > 0 || self->x_end < 1;
}

void
embers_flame_graph_set_range (EmbersFlameGraph *self,
                              double            x_start,
                              double            x_end)
{
  double range = CLAMP (x_end - x_start, MIN_RANGE, 1.0);
  gboolean was_zoomed = embers_flame_graph_is_zoomed (self);

  x_start = CLAMP (x_start, 0.0, 1.0 - range);
  x_end = x_start + range;
  if (x_end > 1.0)
    x_end = 1.0;
  if (x_start == self->x_start && x_end == self->x_end)
    return;

  self->x_start = x_start;
  self->x_end = x_end;
  embers_flame_graph_invalidate_layout (self);
  embers_flame_graph_update_actions (self);
  if (was_zoomed != embers_flame_graph_is_zoomed (self))
    embers_flame_graph_notify (self, PROP_ZOOMED);
}

void
embers_flame_graph_on_hadjustment_changed (EmbersFlameGraph *self,
                                           GtkAdjustment    *adjustment)
{
  double upper, range;

  if (self->in_configure)
    return;

  upper = gtk_adjustment_get_upper (adjustment);
  if (upper <= 0)
    return;
  range = self->x_end - self->x_start;
  embers_flame_graph_set_range (self, gtk_adjustment_get_value (adjustment) / upper,
                                gtk_adjustment_get_value (adjustment) / upper + range);
}

void
embers_flame_graph_set_adjustment (EmbersFlameGraph  *self,
                                   GtkAdjustment    **slot,
                                   GtkAdjustment     *adjustment,
                                   GCallback          callback)
{
  if (adjustment == *slot && adjustment != NULL)
    return;

  if (*slot != NULL)
    {
      g_signal_handlers_disconnect_by_func (*slot, callback, self);
      g_clear_object (slot);
    }

  if (adjustment == NULL)
    adjustment = gtk_adjustment_new (0, 0, 0, 0, 0, 0);

  *slot = g_object_ref_sink (adjustment);
  g_signal_connect_object (adjustment, "value-changed", callback, self, G_CONNECT_SWAPPED);
  embers_flame_graph_configure_adjustments (self);
}

static void
scroll_to_rect (EmbersFlameGraph *self,
                int               index)
{
  const EmbersRect *r = embers_flame_graph_get_rect (self, index);
  double height = gtk_widget_get_height (GTK_WIDGET (self));
  double y, rh, value;

  if (r == NULL || self->vadjustment == NULL)
    return;

  rh = embers_layout_get_viewport (self->layout)->row_height;
  y = embers_layout_rect_y (self->layout, r) + embers_flame_graph_get_y_offset (self);
  value = gtk_adjustment_get_value (self->vadjustment);
  if (y < 0)
    gtk_adjustment_set_value (self->vadjustment, value + y);
  else if (y + rh > height)
    gtk_adjustment_set_value (self->vadjustment, value + (y + rh - height));
}

/* Focus and history */

static void
apply_focus (EmbersFlameGraph *self,
             guint32           node)
{
  gboolean was_zoomed = embers_flame_graph_is_zoomed (self);

  self->focus = node;
  self->x_start = 0;
  self->x_end = 1;
  embers_flame_graph_invalidate_layout (self);
  embers_flame_graph_update_actions (self);
  embers_flame_graph_notify (self, PROP_FOCUS_NODE);
  if (was_zoomed)
    embers_flame_graph_notify (self, PROP_ZOOMED);
}

void
embers_flame_graph_notify_history (EmbersFlameGraph *self,
                                   gboolean          could_go_back,
                                   gboolean          could_go_forward)
{
  if (could_go_back != (self->back->len > 0))
    embers_flame_graph_notify (self, PROP_CAN_GO_BACK);
  if (could_go_forward != (self->forward->len > 0))
    embers_flame_graph_notify (self, PROP_CAN_GO_FORWARD);
  embers_flame_graph_update_actions (self);
}

void
embers_flame_graph_set_focus_node (EmbersFlameGraph *self,
                                   guint32           node)
{
  gboolean back, forward;

  g_return_if_fail (EMBERS_IS_FLAME_GRAPH (self));

  if (self->profile == NULL)
    return;
  if (node == EMBERS_NODE_NONE || node >= embers_profile_get_n_nodes (self->profile))
    node = 0;

  if (node == self->focus)
    {
      embers_flame_graph_set_range (self, 0, 1);
      return;
    }

  back = self->back->len > 0;
  forward = self->forward->len > 0;
  g_array_append_val (self->back, self->focus);
  g_array_set_size (self->forward, 0);
  apply_focus (self, node);
  embers_flame_graph_notify_history (self, back, forward);
}

guint32
embers_flame_graph_get_focus_node (EmbersFlameGraph *self)
{
  g_return_val_if_fail (EMBERS_IS_FLAME_GRAPH (self), 0);
  return self->focus;
}

gboolean
embers_flame_graph_get_can_go_back (EmbersFlameGraph *self)
{
  g_return_val_if_fail (EMBERS_IS_FLAME_GRAPH (self), FALSE);
  return self->back->len > 0;
}

gboolean
embers_flame_graph_get_can_go_forward (EmbersFlameGraph *self)
{
  g_return_val_if_fail (EMBERS_IS_FLAME_GRAPH (self), FALSE);
  return self->forward->len > 0;
}

void
embers_flame_graph_go_back (EmbersFlameGraph *self)
{
  guint32 node;

  g_return_if_fail (EMBERS_IS_FLAME_GRAPH (self));

  if (self->back->len == 0)
    return;
  node = g_array_index (self->back, guint32, self->back->len - 1);
  g_array_set_size (self->back, self->back->len - 1);
  g_array_append_val (self->forward, self->focus);
  apply_focus (self, node);
  embers_flame_graph_notify_history (self, TRUE, self->forward->len > 1);
}

void
embers_flame_graph_go_forward (EmbersFlameGraph *self)
{
  guint32 node;

  g_return_if_fail (EMBERS_IS_FLAME_GRAPH (self));

  if (self->forward->len == 0)
    return;
  node = g_array_index (self->forward, guint32, self->forward->len - 1);
  g_array_set_size (self->forward, self->forward->len - 1);
  g_array_append_val (self->back, self->focus);
  apply_focus (self, node);
  embers_flame_graph_notify_history (self, self->back->len > 1, TRUE);
}

void
embers_flame_graph_reset (EmbersFlameGraph *self)
{
  g_return_if_fail (EMBERS_IS_FLAME_GRAPH (self));

  embers_flame_graph_set_focus_node (self, 0);
  embers_flame_graph_set_range (self, 0, 1);
}

void
embers_flame_graph_zoom (EmbersFlameGraph *self,
                         double            factor,
                         double            anchor)
{
  double range, pivot, new_range, start;

  g_return_if_fail (EMBERS_IS_FLAME_GRAPH (self));
  g_return_if_fail (factor > 0);

  anchor = CLAMP (anchor, 0.0, 1.0);
  range = self->x_end - self->x_start;
  pivot = self->x_start + anchor * range;
  new_range = CLAMP (range / factor, MIN_RANGE, 1.0);
  start = pivot - anchor * new_range;
  embers_flame_graph_set_range (self, start, start + new_range);
}

void
embers_flame_graph_get_visible_range (EmbersFlameGraph *self,
                                      double           *x_start,
                                      double           *x_end)
{
  g_return_if_fail (EMBERS_IS_FLAME_GRAPH (self));

  if (x_start != NULL)
    *x_start = self->x_start;
  if (x_end != NULL)
    *x_end = self->x_end;
}

/* Selection */

guint32
embers_flame_graph_get_selected_node (EmbersFlameGraph *self)
{
  g_return_val_if_fail (EMBERS_IS_FLAME_GRAPH (self), EMBERS_NODE_NONE);
  return self->selected;
}

void
embers_flame_graph_set_selected_node (EmbersFlameGraph *self,
                                      guint32           node)
{
  g_return_if_fail (EMBERS_IS_FLAME_GRAPH (self));

  if (self->profile == NULL || node >= embers_profile_get_n_nodes (self->profile))
    node = EMBERS_NODE_NONE;
  if (node == self->selected)
    return;

  self->selected = node;
  embers_flame_graph_update_actions (self);
  embers_flame_graph_update_accessible (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  embers_flame_graph_notify (self, PROP_SELECTED_NODE);
}

static gboolean
node_shown (EmbersFlameGraph *self,
            guint32           node)
{
  int index = embers_flame_graph_find_node (self, node);
  const EmbersRect *r = embers_flame_graph_get_rect (self, index);

  return r != NULL && r->node == node && !(r->flags & EMBERS_RECT_MERGED);
}

static gboolean
is_ancestor (EmbersProfile *profile,
             guint32        ancestor,
             guint32        node)
{
  return ancestor <= node && node < embers_profile_node_end (profile, ancestor);
}

void
embers_flame_graph_reveal_node (EmbersFlameGraph *self,
                                guint32           node)
{
  g_return_if_fail (EMBERS_IS_FLAME_GRAPH (self));

  if (self->profile == NULL || node >= embers_profile_get_n_nodes (self->profile))
    return;

  embers_flame_graph_set_selected_node (self, node);
  if (!node_shown (self, node))
    {
      /* Zoomed out first; then the parent, then the frame itself */
      embers_flame_graph_set_range (self, 0, 1);
      if (!is_ancestor (self->profile, self->focus, node))
        embers_flame_graph_set_focus_node (self, 0);
      if (!node_shown (self, node))
        {
          guint32 parent = embers_profile_node_parent (self->profile, node);

          embers_flame_graph_set_focus_node (self, parent != EMBERS_NODE_NONE ? parent : 0);
          if (!node_shown (self, node))
            embers_flame_graph_set_focus_node (self, node);
        }
    }

  if (gtk_widget_get_width (GTK_WIDGET (self)) > 0)
    {
      embers_flame_graph_ensure_layout (self);
      scroll_to_rect (self, embers_flame_graph_find_node (self, node));
    }
}

gboolean
embers_flame_graph_move_selection (EmbersFlameGraph *self,
                                   EmbersNeighbor    which)
{
  int index, next;
  const EmbersRect *r;

  g_return_val_if_fail (EMBERS_IS_FLAME_GRAPH (self), FALSE);

  embers_flame_graph_ensure_layout (self);
  if (self->layout == NULL || embers_layout_get_n_rects (self->layout) == 0)
    return FALSE;

  index = embers_flame_graph_find_node (self, self->selected);
  if (index < 0)
    {
      index = embers_flame_graph_find_node (self, self->focus);
      if (index < 0)
        index = 0;
      embers_flame_graph_set_selected_node (self, embers_flame_graph_get_rect (self, index)->node);
      scroll_to_rect (self, index);
      return TRUE;
    }

  next = embers_layout_get_neighbor (self->layout, index, which);
  if (next < 0)
    return FALSE;

  r = embers_flame_graph_get_rect (self, next);
  embers_flame_graph_set_selected_node (self, r->node);
  scroll_to_rect (self, next);
  return TRUE;
}

guint32
embers_flame_graph_get_hover_node (EmbersFlameGraph *self)
{
  g_return_val_if_fail (EMBERS_IS_FLAME_GRAPH (self), EMBERS_NODE_NONE);
  return self->hover_node;
}
/* Size */

GtkSizeRequestMode
embers_flame_graph_get_request_mode (GtkWidget *widget)
{
  return GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH;
}

/* A zoomed graph is wider than any viewport: the natural width the
 * scrolled window compares with its width to show the horizontal
 * scrollbar (the graph's scroll policies are natural) */
#define ZOOMED_NATURAL_WIDTH (1 << 24)

void
embers_flame_graph_measure (GtkWidget      *widget,
                            GtkOrientation  orientation,
                            int             for_size,
                            int            *minimum,
                            int            *natural,
                            int            *minimum_baseline,
                            int            *natural_baseline)
{
  EmbersFlameGraph *self = EMBERS_FLAME_GRAPH (widget);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      self->measured_zoomed = embers_flame_graph_is_zoomed (self);
      *minimum = 100;
      *natural = self->measured_zoomed ? ZOOMED_NATURAL_WIDTH : 100;
    }
  else
    {
      int width = for_size > 0 ? for_size : gtk_widget_get_width (widget);
      double height;

      /* The rows laid out at that width: what the vertical adjustment
       * will cover once allocated. The zoomed natural width is no width
       * the graph is given: laying millions of frames out for it took
       * 60-400 ms per zoom step on a big profile. There every row shows. */
      /* A scrolled window asks for widths a scrollbar apart too: the rows
       * barely differ, and a second layout of a big profile cost a frame
       * 5-10 ms each time. The allocation lays out at its width and sets
       * the adjustments for it. */
      if (width < ZOOMED_NATURAL_WIDTH &&
          (self->layout == NULL || fabs (embers_layout_get_viewport (self->layout)->width - width) > 32))
        embers_flame_graph_ensure_layout_for_width (self, width);
      if (self->layout != NULL && width < ZOOMED_NATURAL_WIDTH)
        height = embers_layout_get_height (self->layout);
      else
        height = (self->profile != NULL ? embers_profile_get_max_depth (self->profile) + 1 : 1)
                 * EMBERS_LAYOUT_ROW_HEIGHT;

      *minimum = EMBERS_LAYOUT_ROW_HEIGHT;
      *natural = MAX (*minimum, (int)ceil (height));
    }
}

void
embers_flame_graph_size_allocate (GtkWidget *widget,
                                  int        width,
                                  int        height,
                                  int        baseline)
{
  EmbersFlameGraph *self = EMBERS_FLAME_GRAPH (widget);

  if (width != self->alloc_width || height != self->alloc_height)
    {
      self->alloc_width = width;
      self->alloc_height = height;
      embers_flame_graph_clear_paint (self);
    }

  embers_flame_graph_ensure_layout (self);
  /* The page sizes follow the allocation. Changes of what is shown set
   * the adjustments when they happen (embers_flame_graph_invalidate_layout()); only a new
   * size is taken here, and measure() gave the scrolled window the
   * content size for it, so no scrollbar comes or goes because of it. */
  if (width != self->configured_width || height != self->configured_height)
    embers_flame_graph_configure_adjustments (self);

  if (self->popover != NULL)
    gtk_popover_present (GTK_POPOVER (self->popover));
}
