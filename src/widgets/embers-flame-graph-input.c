/* embers-flame-graph-input.c: the flame graph's input: pointer, drag, scroll and
 * zoom gestures, keys, the flame.* actions and the context menu
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>

#include "embers-flame-graph-private.h"

enum {
  MOVE_UP,
  MOVE_DOWN,
  MOVE_LEFT,
  MOVE_RIGHT,
};

/* Input */

gboolean
embers_flame_graph_activate_at (EmbersFlameGraph *self,
                                double            x,
                                double            y)
{
  int index;
  const EmbersRect *r;

  g_return_val_if_fail (EMBERS_IS_FLAME_GRAPH (self), FALSE);

  index = embers_flame_graph_hit_test (self, x, y);
  r = embers_flame_graph_get_rect (self, index);
  if (r == NULL)
    return FALSE;

  if (r->flags & EMBERS_RECT_MERGED)
    {
      /* Zoom so that the block of small frames fills the width */
      double width = embers_layout_get_viewport (self->layout)->width;
      double range = self->x_end - self->x_start;
      double start = self->x_start + r->x / width * range;

      embers_flame_graph_set_range (self, start, start + r->width / width * range);
      return TRUE;
    }

  embers_flame_graph_set_selected_node (self, r->node);
  embers_flame_graph_set_focus_node (self, r->node);
  return TRUE;
}

static void
on_motion (GtkEventControllerMotion *controller,
           double                    x,
           double                    y,
           EmbersFlameGraph         *self)
{
  self->pointer_x = x;
  self->pointer_y = y;
  self->has_pointer = TRUE;
  embers_flame_graph_update_hover (self);
}

static void
on_leave (GtkEventControllerMotion *controller,
          EmbersFlameGraph         *self)
{
  self->has_pointer = FALSE;
  embers_flame_graph_update_hover (self);
}

static void
on_drag_begin (GtkGestureDrag   *gesture,
               double            x,
               double            y,
               EmbersFlameGraph *self)
{
  self->dragging = FALSE;
  self->drag_hvalue = self->hadjustment != NULL ? gtk_adjustment_get_value (self->hadjustment) : 0;
  self->drag_vvalue = self->vadjustment != NULL ? gtk_adjustment_get_value (self->vadjustment) : 0;
  if (gtk_widget_get_focusable (GTK_WIDGET (self)))
    gtk_widget_grab_focus (GTK_WIDGET (self));
}

static void
on_drag_update (GtkGestureDrag   *gesture,
                double            dx,
                double            dy,
                EmbersFlameGraph *self)
{
  double sx, sy;

  gtk_gesture_drag_get_start_point (gesture, &sx, &sy);
  if (!self->dragging)
    {
      if (!gtk_drag_check_threshold (GTK_WIDGET (self), sx, sy, sx + dx, sy + dy))
        return;
      self->dragging = TRUE;
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
      gtk_widget_set_cursor_from_name (GTK_WIDGET (self), "grabbing");
      embers_flame_graph_update_hover (self);
    }

  if (self->hadjustment != NULL)
    gtk_adjustment_set_value (self->hadjustment, self->drag_hvalue - dx);
  if (self->vadjustment != NULL)
    gtk_adjustment_set_value (self->vadjustment, self->drag_vvalue - dy);
}

static void
on_drag_end (GtkGestureDrag   *gesture,
             double            dx,
             double            dy,
             EmbersFlameGraph *self)
{
  double sx, sy;

  if (self->dragging)
    {
      self->dragging = FALSE;
      gtk_widget_set_cursor (GTK_WIDGET (self), NULL);
      embers_flame_graph_update_hover (self);
      return;
    }

  gtk_gesture_drag_get_start_point (gesture, &sx, &sy);
  embers_flame_graph_activate_at (self, sx, sy);
}

static void
on_popover_closed (EmbersFlameGraph *self)
{
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
}

/* The context menu, from the template's model, made when first opened:
 * a popover menu builds a button per item up front, which cost each new
 * flame graph (each page opened) several milliseconds of the main loop */
static void
ensure_popover (EmbersFlameGraph *self)
{
  if (self->popover != NULL)
    return;
  self->popover = gtk_popover_menu_new_from_model (self->context_menu);
  gtk_popover_set_has_arrow (GTK_POPOVER (self->popover), FALSE);
  gtk_widget_set_halign (self->popover, GTK_ALIGN_START);
  gtk_widget_set_parent (self->popover, GTK_WIDGET (self));
  g_signal_connect_object (self->popover, "closed",
                           G_CALLBACK (on_popover_closed), self, G_CONNECT_SWAPPED);
}

static void
popup_menu_at (EmbersFlameGraph *self,
               double            x,
               double            y)
{
  GdkRectangle rect = { (int)x, (int)y, 1, 1 };

  ensure_popover (self);
  gtk_popover_set_pointing_to (GTK_POPOVER (self->popover), &rect);
  /* No tooltip over the menu */
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), FALSE);
  gtk_popover_popup (GTK_POPOVER (self->popover));
}

static void
on_secondary_pressed (GtkGestureClick  *gesture,
                      int               n_press,
                      double            x,
                      double            y,
                      EmbersFlameGraph *self)
{
  int index = embers_flame_graph_hit_test (self, x, y);
  const EmbersRect *r = embers_flame_graph_get_rect (self, index);

  if (r == NULL || (r->flags & EMBERS_RECT_MERGED))
    return;

  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
  if (gtk_widget_get_focusable (GTK_WIDGET (self)))
    gtk_widget_grab_focus (GTK_WIDGET (self));
  embers_flame_graph_set_selected_node (self, r->node);
  popup_menu_at (self, x, y);
}

static gboolean
on_scroll (GtkEventControllerScroll *controller,
           double                    dx,
           double                    dy,
           EmbersFlameGraph         *self)
{
  GdkModifierType state;
  double width = gtk_widget_get_width (GTK_WIDGET (self));

  state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));
  if (!(state & GDK_CONTROL_MASK) || dy == 0 || width <= 0)
    return FALSE;

  embers_flame_graph_zoom (self, pow (ZOOM_STEP, -dy),
                           self->has_pointer ? self->pointer_x / width : 0.5);
  return TRUE;
}

static void
on_zoom_begin (GtkGesture       *gesture,
               GdkEventSequence *sequence,
               EmbersFlameGraph *self)
{
  self->zoom_scale = 1.0;
}

static void
on_zoom_scale_changed (GtkGestureZoom   *gesture,
                       double            scale,
                       EmbersFlameGraph *self)
{
  double cx, cy;
  double width = gtk_widget_get_width (GTK_WIDGET (self));

  if (scale <= 0 || self->zoom_scale <= 0 || width <= 0)
    return;
  if (!gtk_gesture_get_bounding_box_center (GTK_GESTURE (gesture), &cx, &cy))
    cx = width / 2;
  embers_flame_graph_zoom (self, scale / self->zoom_scale, cx / width);
  self->zoom_scale = scale;
}

static gboolean
move_binding (GtkWidget *widget,
              GVariant  *args,
              gpointer   user_data)
{
  EmbersFlameGraph *self = EMBERS_FLAME_GRAPH (widget);
  gboolean icicle = self->direction == EMBERS_LAYOUT_ICICLE;
  EmbersNeighbor which;

  switch (g_variant_get_int32 (args))
    {
    case MOVE_UP:
      which = icicle ? EMBERS_NEIGHBOR_PARENT : EMBERS_NEIGHBOR_CHILD;
      break;
    case MOVE_DOWN:
      which = icicle ? EMBERS_NEIGHBOR_CHILD : EMBERS_NEIGHBOR_PARENT;
      break;
    case MOVE_LEFT:
      which = EMBERS_NEIGHBOR_PREVIOUS;
      break;
    case MOVE_RIGHT:
    default:
      which = EMBERS_NEIGHBOR_NEXT;
      break;
    }

  if (!embers_flame_graph_move_selection (self, which))
    gtk_widget_error_bell (widget);
  return TRUE;
}

static gboolean
forward_binding (GtkWidget *widget,
                 GVariant  *args,
                 gpointer   user_data)
{
  return gtk_widget_activate_action (widget, g_variant_get_string (args, NULL), NULL);
}

/* Actions */

static const char *
selected_name (EmbersFlameGraph *self)
{
  if (!embers_flame_graph_selected_is_frame (self))
    return NULL;
  return embers_profile_node_name_str (self->profile, self->selected);
}

static void
forward_with_name (EmbersFlameGraph *self,
                   const char       *action)
{
  const char *name = selected_name (self);

  if (name != NULL)
    gtk_widget_activate_action (GTK_WIDGET (self), action, "s", name);
}

/* "page.transform" with the selected call node's path (its names from the
 * root's child down) */
static void
forward_with_path (EmbersFlameGraph *self,
                   const char       *kind)
{
  g_autoptr(GPtrArray) path = NULL;

  if (!embers_flame_graph_selected_is_frame (self))
    return;

  path = g_ptr_array_new ();
  for (guint32 n = self->selected; n != 0 && n != EMBERS_NODE_NONE;
       n = embers_profile_node_parent (self->profile, n))
    g_ptr_array_insert (path, 0, (gpointer)embers_profile_node_name_str (self->profile, n));
  g_ptr_array_add (path, NULL);

  gtk_widget_activate_action_variant (GTK_WIDGET (self), "page.transform",
                                      g_variant_new ("(s^as)", kind, (char **)path->pdata));
}

static void
flame_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *param)
{
  EmbersFlameGraph *self = EMBERS_FLAME_GRAPH (widget);
  double width = gtk_widget_get_width (widget);
  double anchor = self->has_pointer && width > 0 ? self->pointer_x / width : 0.5;

  if (g_str_equal (action_name, "flame.back"))
    embers_flame_graph_go_back (self);
  else if (g_str_equal (action_name, "flame.forward"))
    embers_flame_graph_go_forward (self);
  else if (g_str_equal (action_name, "flame.reset"))
    embers_flame_graph_reset (self);
  else if (g_str_equal (action_name, "flame.zoom-in"))
    embers_flame_graph_zoom (self, ZOOM_STEP, anchor);
  else if (g_str_equal (action_name, "flame.zoom-out"))
    embers_flame_graph_zoom (self, 1 / ZOOM_STEP, anchor);
  else if (g_str_equal (action_name, "flame.zoom-reset"))
    embers_flame_graph_set_range (self, 0, 1);
  else if (g_str_equal (action_name, "flame.focus-selected"))
    {
      if (self->selected != EMBERS_NODE_NONE)
        embers_flame_graph_set_focus_node (self, self->selected);
    }
  else if (g_str_equal (action_name, "flame.sandwich"))
    forward_with_name (self, "page.sandwich");
  else if (g_str_equal (action_name, "flame.hide-frame"))
    forward_with_path (self, "hide");
  else if (g_str_equal (action_name, "flame.focus-subtree"))
    forward_with_path (self, "focus-subtree");
  else if (g_str_equal (action_name, "flame.merge-function"))
    forward_with_name (self, "page.merge-function");
  else if (g_str_equal (action_name, "flame.drop-function"))
    forward_with_name (self, "page.drop-function");
  else if (g_str_equal (action_name, "flame.collapse-package"))
    forward_with_name (self, "page.collapse-package");
  else if (g_str_equal (action_name, "flame.collapse-function-recursion"))
    forward_with_name (self, "page.collapse-function-recursion");
  else if (g_str_equal (action_name, "flame.focus-function"))
    forward_with_name (self, "page.focus-function");
  else if (g_str_equal (action_name, "flame.copy-name"))
    {
      const char *name = selected_name (self);

      if (name != NULL)
        gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), name);
    }
  else if (g_str_equal (action_name, "flame.copy-stack"))
    {
      if (embers_flame_graph_selected_is_frame (self))
        {
          g_autofree char *stack = embers_profile_node_stack (self->profile, self->selected, "\n");

          gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), stack);
        }
    }
  else if (g_str_equal (action_name, "flame.context-menu"))
    {
      int index = embers_flame_graph_find_node (self, self->selected);
      const EmbersRect *r = embers_flame_graph_get_rect (self, index);

      if (r != NULL)
        popup_menu_at (self, r->x + MIN (r->width / 2, 20),
                       embers_layout_rect_y (self->layout, r) + embers_flame_graph_get_y_offset (self)
                       + embers_layout_get_viewport (self->layout)->row_height / 2);
    }
}

static void
add_move_binding (GtkWidgetClass  *widget_class,
                  guint            keyval,
                  guint            kp_keyval,
                  int              move)
{
  gtk_widget_class_add_binding (widget_class, keyval, 0, move_binding, "i", move);
  gtk_widget_class_add_binding (widget_class, kp_keyval, 0, move_binding, "i", move);
}

/* The template's input callbacks, the flame.* actions and the keys */
void
embers_flame_graph_class_init_input (GtkWidgetClass *widget_class)
{
  static const char * const actions[] = {
    "flame.back", "flame.forward", "flame.reset",
    "flame.zoom-in", "flame.zoom-out", "flame.zoom-reset",
    "flame.focus-selected", "flame.sandwich", "flame.hide-frame",
    "flame.focus-function", "flame.copy-name", "flame.copy-stack",
    "flame.context-menu", "flame.focus-subtree", "flame.merge-function",
    "flame.drop-function", "flame.collapse-package", "flame.collapse-function-recursion",
  };

  gtk_widget_class_bind_template_callback (widget_class, on_motion);
  gtk_widget_class_bind_template_callback (widget_class, on_leave);
  gtk_widget_class_bind_template_callback (widget_class, on_drag_begin);
  gtk_widget_class_bind_template_callback (widget_class, on_drag_update);
  gtk_widget_class_bind_template_callback (widget_class, on_drag_end);
  gtk_widget_class_bind_template_callback (widget_class, on_secondary_pressed);
  gtk_widget_class_bind_template_callback (widget_class, on_scroll);
  gtk_widget_class_bind_template_callback (widget_class, on_zoom_begin);
  gtk_widget_class_bind_template_callback (widget_class, on_zoom_scale_changed);

  for (guint i = 0; i < G_N_ELEMENTS (actions); i++)
    gtk_widget_class_install_action (widget_class, actions[i], NULL, flame_action);

  add_move_binding (widget_class, GDK_KEY_Up, GDK_KEY_KP_Up, MOVE_UP);
  add_move_binding (widget_class, GDK_KEY_Down, GDK_KEY_KP_Down, MOVE_DOWN);
  add_move_binding (widget_class, GDK_KEY_Left, GDK_KEY_KP_Left, MOVE_LEFT);
  add_move_binding (widget_class, GDK_KEY_Right, GDK_KEY_KP_Right, MOVE_RIGHT);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Return, 0, "flame.focus-selected", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Enter, 0, "flame.focus-selected", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_space, 0, "flame.focus-selected", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_BackSpace, 0, "flame.back", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, GDK_ALT_MASK, "flame.back", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Right, GDK_ALT_MASK, "flame.forward", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "flame.reset", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_plus, GDK_CONTROL_MASK, "flame.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_equal, GDK_CONTROL_MASK, "flame.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Add, GDK_CONTROL_MASK, "flame.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_minus, GDK_CONTROL_MASK, "flame.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Subtract, GDK_CONTROL_MASK, "flame.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_0, GDK_CONTROL_MASK, "flame.zoom-reset", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_s, 0, "flame.sandwich", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_c, GDK_CONTROL_MASK, "flame.copy-name", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_c, GDK_CONTROL_MASK | GDK_SHIFT_MASK, "flame.copy-stack", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Delete, 0, "flame.hide-frame", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Delete, 0, "flame.hide-frame", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, 0, "flame.focus-function", NULL);
  /* The other frame actions, with the Firefox Profiler's letters where
   * they were free (f and Delete were Embers' before) */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F, GDK_SHIFT_MASK, "flame.focus-subtree", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_m, 0, "flame.merge-function", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_d, 0, "flame.drop-function", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_p, 0, "flame.collapse-package", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_R, GDK_SHIFT_MASK, "flame.collapse-function-recursion", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Menu, 0, "flame.context-menu", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F10, GDK_SHIFT_MASK, "flame.context-menu", NULL);
  gtk_widget_class_add_binding (widget_class, GDK_KEY_i, 0, forward_binding, "s", "page.invert");
  gtk_widget_class_add_binding (widget_class, GDK_KEY_r, 0, forward_binding, "s", "page.collapse-recursion");
  gtk_widget_class_add_binding (widget_class, GDK_KEY_l, 0, forward_binding, "s", "explore.load-more");
  gtk_widget_class_add_binding (widget_class, GDK_KEY_slash, 0, forward_binding, "s", "page.search");
  gtk_widget_class_add_binding (widget_class, GDK_KEY_KP_Divide, 0, forward_binding, "s", "page.search");
  gtk_widget_class_add_binding (widget_class, GDK_KEY_f, GDK_CONTROL_MASK, forward_binding, "s", "page.search");
}
