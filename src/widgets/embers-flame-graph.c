/* embers-flame-graph.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <glib/gi18n.h>
#include <adwaita.h>

#include "embers-widgets.h"
#include "embers-flame-graph.h"
#include "embers-theme.h"
#include "embers-transforms.h"

/* Smallest visible part of the focused frame's width (free zoom limit) */
#define MIN_RANGE 1e-9
#define ZOOM_STEP 1.25

struct _EmbersFlameGraph
{
  GtkWidget              parent_instance;

  EmbersProfile         *profile;
  char                  *share_of;   /* the whole the tooltip's shares are of (NULL: the total) */
  EmbersSearch          *search;
  EmbersLayout          *layout;
  EmbersRender          *render;

  /* A diff's noise test and its verdicts for self->profile */
  EmbersDiffStats       *noise;
  EmbersChangeVerdict   *verdicts;
  gboolean               hide_noise;

  /* The graph is painted on a worker thread into a texture, which is
   * reused until data, size, scroll or style change; hover and selection
   * are drawn on top of it. Until the texture for the view is there, the
   * last one is shown: moved and scaled to where it belongs after a zoom
   * or pan step, as it was after other changes. */
  struct _Paint         *shown;        /* the last finished paint */
  struct _Paint         *pending;      /* the paint on the worker */
  guint                  generation;   /* bumped by what a paint key cannot see */
  EmbersRender          *worker_render; /* used by one paint at a time */
  /* Outlines of the frames of the highlighted function */
  GskRenderNode         *highlight_cache;

  GtkAdjustment         *hadjustment;
  GtkAdjustment         *vadjustment;

  GMenuModel            *context_menu;
  GtkWidget             *popover;

  EmbersRenderStyle      style;
  char                  *font;

  guint                  sample_type;
  EmbersLayoutDirection  direction;
  EmbersColorScheme      color_scheme;
  EmbersDiffPalette      diff_palette;
  EmbersDiffMode         diff_mode;
  EmbersDiffWidth        diff_width;

  guint32                focus;
  guint32                selected;
  int                    hover_rect;
  guint32                hover_node;
  double                 x_start;
  double                 x_end;
  /* flame direction: how far the view is scrolled up from the bottom */
  double                 v_from_bottom;

  GArray                *back;
  GArray                *forward;

  char                  *highlight_name;
  guint32                highlight_id;

  double                 pointer_x;
  double                 pointer_y;
  double                 drag_hvalue;
  double                 drag_vvalue;
  double                 zoom_scale;

  int                    alloc_width;
  int                    alloc_height;

  guint                  hscroll_policy : 1;
  guint                  vscroll_policy : 1;
  guint                  style_valid : 1;
  guint                  in_configure : 1;
  int                    configured_width;    /* the size the adjustments */
  int                    configured_height;   /* were last set up for */
  guint                  dragging : 1;
  guint                  has_pointer : 1;
  guint                  disposed : 1;
  guint                  measured_zoomed : 1;  /* as measure() last said */
};

enum {
  PROP_0,
  PROP_PROFILE,
  PROP_SAMPLE_TYPE,
  PROP_DIRECTION,
  PROP_COLOR_SCHEME,
  PROP_DIFF_PALETTE,
  PROP_DIFF_MODE,
  PROP_DIFF_WIDTH,
  PROP_SEARCH,
  PROP_FOCUS_NODE,
  PROP_SELECTED_NODE,
  PROP_HOVER_NODE,
  PROP_HIGHLIGHT_NAME,
  PROP_CAN_GO_BACK,
  PROP_CAN_GO_FORWARD,
  PROP_ZOOMED,
  N_PROPS,

  PROP_HADJUSTMENT = N_PROPS,
  PROP_VADJUSTMENT,
  PROP_HSCROLL_POLICY,
  PROP_VSCROLL_POLICY,
};

static GParamSpec *properties[N_PROPS];

enum {
  MOVE_UP,
  MOVE_DOWN,
  MOVE_LEFT,
  MOVE_RIGHT,
};

G_DEFINE_FINAL_TYPE_WITH_CODE (EmbersFlameGraph, embers_flame_graph, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (GTK_TYPE_SCROLLABLE, NULL))

/* Invalidation */

/* A paint of the graph: what it shows, and the result */
typedef struct _Paint
{
  EmbersLayout      *layout;
  EmbersSearch      *search;
  EmbersRenderStyle  style;
  char              *font;
  double             offset;
  int                width;
  int                height;
  int                scale;
  guint              generation;
  EmbersProfile     *noise_profile;   /* the diff the verdicts are for */
  EmbersChangeVerdict *verdicts;
  gboolean           hide_noise;
  gboolean           opaque;          /* the texture may say it is opaque */
  GdkTexture        *texture;
  gint64             started;
  gint64             finished;
} Paint;

static void
paint_free (Paint *paint)
{
  if (paint == NULL)
    return;
  g_clear_pointer (&paint->layout, embers_layout_unref);
  g_clear_pointer (&paint->search, embers_search_unref);
  g_clear_object (&paint->noise_profile);
  g_free (paint->verdicts);
  g_clear_object (&paint->texture);
  g_free (paint->font);
  g_free (paint);
}

static void
clear_paint (EmbersFlameGraph *self)
{
  /* The shown texture stays until a new one replaces it */
  self->generation++;
  g_clear_pointer (&self->highlight_cache, gsk_render_node_unref);
}

static void configure_adjustments (EmbersFlameGraph *self);
static gboolean is_zoomed (EmbersFlameGraph *self);
static double get_y_offset (EmbersFlameGraph *self);
static void request_paint (EmbersFlameGraph *self,
                           double            offset);

static void
drop_layout (EmbersFlameGraph *self)
{
  g_clear_pointer (&self->layout, embers_layout_unref);
  if (self->render != NULL)
    embers_render_set_layout (self->render, NULL);
  self->hover_rect = -1;
  clear_paint (self);
}

/* The layout for @width px: the current one when it was made for that
 * width, else a new one (measure makes it for the width the allocation
 * will give, so size_allocate finds it made) */
static void
ensure_layout_for_width (EmbersFlameGraph *self,
                         int               width)
{
  EmbersViewport vp;

  if (self->profile == NULL || width <= 0)
    return;
  if (self->layout != NULL && embers_layout_get_viewport (self->layout)->width == width)
    return;

  drop_layout (self);
  embers_viewport_init (&vp, width);
  vp.x_start = self->x_start;
  vp.x_end = self->x_end;
  vp.direction = self->direction;
  vp.diff_width = self->diff_width;
  self->layout = embers_layout_new (self->profile, self->sample_type, self->focus, &vp);
  embers_render_set_layout (self->render, self->layout);
}

static void
ensure_layout (EmbersFlameGraph *self)
{
  ensure_layout_for_width (self, gtk_widget_get_width (GTK_WIDGET (self)));
}

/* What is shown changed (focus, zoom, data, direction…): a new layout at
 * the current width, and the adjustments set for it now, from the event
 * that changed it. Never from inside size_allocate: an adjustment whose
 * range changes there makes the scrolled window show or hide a scrollbar
 * and queue a resize in the middle of the allocation (GTK 4.8 then
 * skipped drawing the page until the next resize; newer GTK lays out the
 * whole window twice in that frame). measure() reports the new content
 * size, so the scrolled window's own choice of scrollbars agrees. */
static void
invalidate_layout (EmbersFlameGraph *self)
{
  double old_height = self->layout != NULL ? embers_layout_get_height (self->layout) : -1;
  gboolean old_zoomed = self->measured_zoomed;

  drop_layout (self);
  if (gtk_widget_get_width (GTK_WIDGET (self)) > 0)
    {
      ensure_layout (self);
      configure_adjustments (self);
    }

  /* What measure() reports (the content's height, the zoomed natural
   * width) is the same after most zoom and pan steps: then the window
   * needs no new layout, which costs 10-20 ms with a big table beside */
  if (self->layout != NULL && old_height >= 0 &&
      embers_layout_get_height (self->layout) == old_height &&
      is_zoomed (self) == old_zoomed)
    {
      /* The size stays: the worker can paint the new view now rather
       * than from the next frame's snapshot, a frame sooner. That frame
       * shows the last paint moved and scaled meanwhile. */
      if (self->style_valid && gtk_widget_get_mapped (GTK_WIDGET (self)))
        request_paint (self, get_y_offset (self));
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
  else
    gtk_widget_queue_resize (GTK_WIDGET (self));
}

/* The theme's colours from CSS (embers-theme.h): view_bg_color,
 * view_fg_color and accent_color; FALSE for any other name */
static gboolean
lookup_color (GtkWidget   *widget,
              const char  *name,
              EmbersColor *color)
{
  GdkRGBA rgba;

  if (g_str_equal (name, "view_bg_color"))
    embers_theme_get_color (widget, EMBERS_THEME_VIEW_BACKGROUND, &rgba);
  else if (g_str_equal (name, "view_fg_color"))
    embers_theme_get_color (widget, EMBERS_THEME_VIEW_FOREGROUND, &rgba);
  else if (g_str_equal (name, "accent_color"))
    embers_theme_get_color (widget, EMBERS_THEME_ACCENT, &rgba);
  else
    return FALSE;

  color->red = rgba.red;
  color->green = rgba.green;
  color->blue = rgba.blue;
  color->alpha = 1.0;
  return TRUE;
}

static void
ensure_style (EmbersFlameGraph *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  EmbersColor background;
  gboolean dark = FALSE;
  PangoFontDescription *desc;

  if (self->style_valid)
    return;

  if (lookup_color (widget, "view_bg_color", &background) ||
      lookup_color (widget, "theme_base_color", &background))
    dark = embers_color_luminance (&background) < 0.4;

  embers_render_style_init (&self->style, dark);
  if (lookup_color (widget, "view_bg_color", &background) ||
      lookup_color (widget, "theme_base_color", &background))
    self->style.background = background;
  if (!lookup_color (widget, "view_fg_color", &self->style.foreground))
    lookup_color (widget, "theme_text_color", &self->style.foreground);
  if (!lookup_color (widget, "accent_color", &self->style.accent))
    lookup_color (widget, "theme_selected_bg_color", &self->style.accent);
  self->style.scheme = self->color_scheme;
  self->style.high_contrast = adw_is_initialized () &&
                              adw_style_manager_get_high_contrast (adw_style_manager_get_default ());
  self->style.diff_palette = self->diff_palette;
  self->style.diff_mode = self->diff_mode;

  /* The interface font family at the painter's pixel size */
  desc = pango_context_get_font_description (gtk_widget_get_pango_context (widget));
  g_free (self->font);
  self->font = g_strdup (desc != NULL && pango_font_description_get_family (desc) != NULL
                         ? pango_font_description_get_family (desc)
                         : "Sans");
  self->style.font = self->font;
  self->style.font_size = 12.0;

  embers_render_set_style (self->render, &self->style);
  self->style_valid = TRUE;
}

/* Geometry */

static double
get_y_offset (EmbersFlameGraph *self)
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

static int
hit_test (EmbersFlameGraph *self,
          double            x,
          double            y)
{
  ensure_layout (self);
  if (self->layout == NULL)
    return -1;
  return embers_layout_hit_test (self->layout, x, y - get_y_offset (self));
}

static const EmbersRect *
get_rect (EmbersFlameGraph *self,
          int               index)
{
  if (self->layout == NULL || index < 0)
    return NULL;
  return embers_layout_get_rect (self->layout, index);
}

static int
find_node (EmbersFlameGraph *self,
           guint32           node)
{
  ensure_layout (self);
  if (self->layout == NULL || node == EMBERS_NODE_NONE)
    return -1;
  return embers_layout_find_node (self->layout, node);
}

/* Actions and accessibility */

static gboolean
selected_is_frame (EmbersFlameGraph *self)
{
  return self->profile != NULL && self->selected != EMBERS_NODE_NONE && self->selected != 0;
}

static void
update_actions (EmbersFlameGraph *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  gboolean frame = selected_is_frame (self);

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

static void
update_accessible (EmbersFlameGraph *self)
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

static void
configure_adjustments (EmbersFlameGraph *self)
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

static void
update_hover (EmbersFlameGraph *self)
{
  int rect = -1;
  guint32 node = EMBERS_NODE_NONE;

  if (self->has_pointer && !self->dragging)
    rect = hit_test (self, self->pointer_x, self->pointer_y);

  if (rect == self->hover_rect)
    return;

  self->hover_rect = rect;
  if (rect >= 0 && !(get_rect (self, rect)->flags & EMBERS_RECT_MERGED))
    node = get_rect (self, rect)->node;
  gtk_widget_queue_draw (GTK_WIDGET (self));

  if (node != self->hover_node)
    {
      self->hover_node = node;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HOVER_NODE]);
    }
}

static void
on_vadjustment_changed (EmbersFlameGraph *self,
                        GtkAdjustment    *adjustment)
{
  if (!self->in_configure)
    self->v_from_bottom = gtk_adjustment_get_upper (adjustment)
                          - gtk_adjustment_get_page_size (adjustment)
                          - gtk_adjustment_get_value (adjustment);
  clear_paint (self);
  self->hover_rect = -2;
  update_hover (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static gboolean
is_zoomed (EmbersFlameGraph *self)
{
  return self->x_start > 0 || self->x_end < 1;
}

static void
set_range (EmbersFlameGraph *self,
           double            x_start,
           double            x_end)
{
  double range = CLAMP (x_end - x_start, MIN_RANGE, 1.0);
  gboolean was_zoomed = is_zoomed (self);

  x_start = CLAMP (x_start, 0.0, 1.0 - range);
  x_end = x_start + range;
  if (x_end > 1.0)
    x_end = 1.0;
  if (x_start == self->x_start && x_end == self->x_end)
    return;

  self->x_start = x_start;
  self->x_end = x_end;
  invalidate_layout (self);
  update_actions (self);
  if (was_zoomed != is_zoomed (self))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ZOOMED]);
}

static void
on_hadjustment_changed (EmbersFlameGraph *self,
                        GtkAdjustment    *adjustment)
{
  double upper, range;

  if (self->in_configure)
    return;

  upper = gtk_adjustment_get_upper (adjustment);
  if (upper <= 0)
    return;
  range = self->x_end - self->x_start;
  set_range (self, gtk_adjustment_get_value (adjustment) / upper,
             gtk_adjustment_get_value (adjustment) / upper + range);
}

static void
set_adjustment (EmbersFlameGraph  *self,
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
  configure_adjustments (self);
}

static void
scroll_to_rect (EmbersFlameGraph *self,
                int               index)
{
  const EmbersRect *r = get_rect (self, index);
  double height = gtk_widget_get_height (GTK_WIDGET (self));
  double y, rh, value;

  if (r == NULL || self->vadjustment == NULL)
    return;

  rh = embers_layout_get_viewport (self->layout)->row_height;
  y = embers_layout_rect_y (self->layout, r) + get_y_offset (self);
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
  gboolean was_zoomed = is_zoomed (self);

  self->focus = node;
  self->x_start = 0;
  self->x_end = 1;
  invalidate_layout (self);
  update_actions (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FOCUS_NODE]);
  if (was_zoomed)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ZOOMED]);
}

static void
notify_history (EmbersFlameGraph *self,
                gboolean          could_go_back,
                gboolean          could_go_forward)
{
  if (could_go_back != (self->back->len > 0))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_GO_BACK]);
  if (could_go_forward != (self->forward->len > 0))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_GO_FORWARD]);
  update_actions (self);
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
      set_range (self, 0, 1);
      return;
    }

  back = self->back->len > 0;
  forward = self->forward->len > 0;
  g_array_append_val (self->back, self->focus);
  g_array_set_size (self->forward, 0);
  apply_focus (self, node);
  notify_history (self, back, forward);
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
  notify_history (self, TRUE, self->forward->len > 1);
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
  notify_history (self, self->back->len > 1, TRUE);
}

void
embers_flame_graph_reset (EmbersFlameGraph *self)
{
  g_return_if_fail (EMBERS_IS_FLAME_GRAPH (self));

  embers_flame_graph_set_focus_node (self, 0);
  set_range (self, 0, 1);
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
  set_range (self, start, start + new_range);
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
  update_actions (self);
  update_accessible (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_NODE]);
}

static gboolean
node_shown (EmbersFlameGraph *self,
            guint32           node)
{
  int index = find_node (self, node);
  const EmbersRect *r = get_rect (self, index);

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
      set_range (self, 0, 1);
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
      ensure_layout (self);
      scroll_to_rect (self, find_node (self, node));
    }
}

gboolean
embers_flame_graph_move_selection (EmbersFlameGraph *self,
                                   EmbersNeighbor    which)
{
  int index, next;
  const EmbersRect *r;

  g_return_val_if_fail (EMBERS_IS_FLAME_GRAPH (self), FALSE);

  ensure_layout (self);
  if (self->layout == NULL || embers_layout_get_n_rects (self->layout) == 0)
    return FALSE;

  index = find_node (self, self->selected);
  if (index < 0)
    {
      index = find_node (self, self->focus);
      if (index < 0)
        index = 0;
      embers_flame_graph_set_selected_node (self, get_rect (self, index)->node);
      scroll_to_rect (self, index);
      return TRUE;
    }

  next = embers_layout_get_neighbor (self->layout, index, which);
  if (next < 0)
    return FALSE;

  r = get_rect (self, next);
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

/* Data */

EmbersProfile *
embers_flame_graph_get_profile (EmbersFlameGraph *self)
{
  g_return_val_if_fail (EMBERS_IS_FLAME_GRAPH (self), NULL);
  return self->profile;
}

static void
update_highlight_id (EmbersFlameGraph *self)
{
  self->highlight_id = 0;
  if (self->profile != NULL && self->highlight_name != NULL && self->highlight_name[0] != '\0')
    self->highlight_id = embers_transform_find_name (self->profile, self->highlight_name);
  g_clear_pointer (&self->highlight_cache, gsk_render_node_unref);
}

/* The noise test's verdict per node of the diff shown, for both renders */
static void
update_verdicts (EmbersFlameGraph *self)
{
  g_clear_pointer (&self->verdicts, g_free);
  if (self->noise != NULL && self->profile != NULL && embers_profile_is_diff (self->profile))
    self->verdicts = embers_diff_stats_node_verdicts (self->noise, self->profile);
  embers_render_set_noise (self->render, self->verdicts != NULL ? self->profile : NULL, self->verdicts,
                           self->hide_noise);
}

void
embers_flame_graph_set_noise (EmbersFlameGraph *self,
                              EmbersDiffStats  *noise,
                              gboolean          hide_noise)
{
  gboolean drawn_before;

  g_return_if_fail (EMBERS_IS_FLAME_GRAPH (self));
  g_return_if_fail (noise == NULL || EMBERS_IS_DIFF_STATS (noise));

  drawn_before = self->verdicts != NULL && self->hide_noise;

  g_set_object (&self->noise, noise);
  self->hide_noise = hide_noise;
  update_verdicts (self);
  /* The verdicts change the picture only when noise is hidden */
  if (drawn_before || (self->verdicts != NULL && self->hide_noise))
    {
      clear_paint (self);
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
}

EmbersDiffStats *
embers_flame_graph_get_noise (EmbersFlameGraph *self)
{
  g_return_val_if_fail (EMBERS_IS_FLAME_GRAPH (self), NULL);
  return self->noise;
}

gboolean
embers_flame_graph_node_is_noise (EmbersFlameGraph *self,
                                  guint32           node)
{
  g_return_val_if_fail (EMBERS_IS_FLAME_GRAPH (self), FALSE);
  return self->profile != NULL && embers_render_node_is_noise (self->render, self->profile, node);
}

void
embers_flame_graph_set_share_of (EmbersFlameGraph *self,
                                 const char       *share_of)
{
  g_return_if_fail (EMBERS_IS_FLAME_GRAPH (self));

  g_free (self->share_of);
  self->share_of = g_strdup (share_of);
}

const char *
embers_flame_graph_get_share_of (EmbersFlameGraph *self)
{
  g_return_val_if_fail (EMBERS_IS_FLAME_GRAPH (self), NULL);

  return self->share_of;
}

/* The tooltip's text for the frame at x, y (widget px); NULL when none */
char *
embers_flame_graph_dup_tooltip_at (EmbersFlameGraph *self,
                                   double            x,
                                   double            y)
{
  const EmbersRect *r;

  g_return_val_if_fail (EMBERS_IS_FLAME_GRAPH (self), NULL);

  r = get_rect (self, hit_test (self, x, y));
  return r != NULL ? embers_render_rect_tooltip_text_of (self->layout, r, self->share_of) : NULL;
}

void
embers_flame_graph_set_profile (EmbersFlameGraph *self,
                                EmbersProfile    *profile)
{
  gboolean back, forward;

  g_return_if_fail (EMBERS_IS_FLAME_GRAPH (self));
  g_return_if_fail (profile == NULL || EMBERS_IS_PROFILE (profile));

  if (!g_set_object (&self->profile, profile))
    return;

  g_object_freeze_notify (G_OBJECT (self));

  back = self->back->len > 0;
  forward = self->forward->len > 0;
  g_array_set_size (self->back, 0);
  g_array_set_size (self->forward, 0);

  if (self->search != NULL && (profile == NULL || embers_search_get_profile (self->search) != profile))
    {
      g_clear_pointer (&self->search, embers_search_unref);
      embers_render_set_search (self->render, NULL);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SEARCH]);
    }
  if (profile != NULL && self->sample_type >= embers_profile_get_n_sample_types (profile))
    {
      self->sample_type = embers_profile_get_default_sample_type (profile);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SAMPLE_TYPE]);
    }

  if (is_zoomed (self))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ZOOMED]);
  self->focus = 0;
  self->selected = EMBERS_NODE_NONE;
  self->hover_node = EMBERS_NODE_NONE;
  self->x_start = 0;
  self->x_end = 1;
  self->v_from_bottom = 0;
  if (self->vadjustment != NULL)
    {
      self->in_configure = TRUE;
      gtk_adjustment_set_value (self->vadjustment, 0);
      self->in_configure = FALSE;
    }
  update_highlight_id (self);
  update_verdicts (self);
  invalidate_layout (self);

  update_actions (self);
  update_accessible (self);
  notify_history (self, back, forward);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROFILE]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FOCUS_NODE]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_NODE]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HOVER_NODE]);
  g_object_thaw_notify (G_OBJECT (self));
}

guint
embers_flame_graph_get_sample_type (EmbersFlameGraph *self)
{
  g_return_val_if_fail (EMBERS_IS_FLAME_GRAPH (self), 0);
  return self->sample_type;
}

void
embers_flame_graph_set_sample_type (EmbersFlameGraph *self,
                                    guint             sample_type)
{
  g_return_if_fail (EMBERS_IS_FLAME_GRAPH (self));

  if (self->profile != NULL && sample_type >= embers_profile_get_n_sample_types (self->profile))
    return;
  if (sample_type == self->sample_type)
    return;

  self->sample_type = sample_type;
  invalidate_layout (self);
  update_accessible (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SAMPLE_TYPE]);
}

EmbersLayoutDirection
embers_flame_graph_get_direction (EmbersFlameGraph *self)
{
  g_return_val_if_fail (EMBERS_IS_FLAME_GRAPH (self), EMBERS_LAYOUT_ICICLE);
  return self->direction;
}

void
embers_flame_graph_set_direction (EmbersFlameGraph      *self,
                                  EmbersLayoutDirection  direction)
{
  g_return_if_fail (EMBERS_IS_FLAME_GRAPH (self));

  if (direction == self->direction)
    return;

  self->direction = direction;
  self->v_from_bottom = 0;
  if (self->vadjustment != NULL)
    {
      self->in_configure = TRUE;
      gtk_adjustment_set_value (self->vadjustment, 0);
      self->in_configure = FALSE;
    }
  invalidate_layout (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DIRECTION]);
}

EmbersColorScheme
embers_flame_graph_get_color_scheme (EmbersFlameGraph *self)
{
  g_return_val_if_fail (EMBERS_IS_FLAME_GRAPH (self), EMBERS_COLOR_SCHEME_PACKAGE);
  return self->color_scheme;
}

void
embers_flame_graph_set_color_scheme (EmbersFlameGraph  *self,
                                     EmbersColorScheme  scheme)
{
  g_return_if_fail (EMBERS_IS_FLAME_GRAPH (self));

  if (scheme == self->color_scheme)
    return;

  self->color_scheme = scheme;
  self->style_valid = FALSE;
  clear_paint (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COLOR_SCHEME]);
}

EmbersDiffPalette
embers_flame_graph_get_diff_palette (EmbersFlameGraph *self)
{
  g_return_val_if_fail (EMBERS_IS_FLAME_GRAPH (self), EMBERS_DIFF_PALETTE_RED_BLUE);
  return self->diff_palette;
}

void
embers_flame_graph_set_diff_palette (EmbersFlameGraph  *self,
                                     EmbersDiffPalette  palette)
{
  g_return_if_fail (EMBERS_IS_FLAME_GRAPH (self));
  g_return_if_fail (palette <= EMBERS_DIFF_PALETTE_RED_GREEN);

  if (palette == self->diff_palette)
    return;

  self->diff_palette = palette;
  self->style_valid = FALSE;
  clear_paint (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DIFF_PALETTE]);
}

EmbersDiffMode
embers_flame_graph_get_diff_mode (EmbersFlameGraph *self)
{
  g_return_val_if_fail (EMBERS_IS_FLAME_GRAPH (self), EMBERS_DIFF_MODE_SHARE);
  return self->diff_mode;
}

void
embers_flame_graph_set_diff_mode (EmbersFlameGraph *self,
                                  EmbersDiffMode    mode)
{
  g_return_if_fail (EMBERS_IS_FLAME_GRAPH (self));
  g_return_if_fail (mode <= EMBERS_DIFF_MODE_ABSOLUTE);

  if (mode == self->diff_mode)
    return;

  self->diff_mode = mode;
  self->style_valid = FALSE;
  clear_paint (self);
  update_accessible (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DIFF_MODE]);
}

EmbersDiffWidth
embers_flame_graph_get_diff_width (EmbersFlameGraph *self)
{
  g_return_val_if_fail (EMBERS_IS_FLAME_GRAPH (self), EMBERS_DIFF_WIDTH_SUM);
  return self->diff_width;
}

void
embers_flame_graph_set_diff_width (EmbersFlameGraph *self,
                                   EmbersDiffWidth   width)
{
  g_return_if_fail (EMBERS_IS_FLAME_GRAPH (self));

  if (width == self->diff_width)
    return;

  self->diff_width = width;
  invalidate_layout (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DIFF_WIDTH]);
}

EmbersSearch *
embers_flame_graph_get_search (EmbersFlameGraph *self)
{
  g_return_val_if_fail (EMBERS_IS_FLAME_GRAPH (self), NULL);
  return self->search;
}

void
embers_flame_graph_set_search (EmbersFlameGraph *self,
                               EmbersSearch     *search)
{
  g_return_if_fail (EMBERS_IS_FLAME_GRAPH (self));

  if (search != NULL && embers_search_get_profile (search) != self->profile)
    search = NULL;
  if (search == self->search)
    return;

  if (search != NULL)
    embers_search_ref (search);
  g_clear_pointer (&self->search, embers_search_unref);
  self->search = search;
  embers_render_set_search (self->render, search);
  clear_paint (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SEARCH]);
}

const char *
embers_flame_graph_get_highlight_name (EmbersFlameGraph *self)
{
  g_return_val_if_fail (EMBERS_IS_FLAME_GRAPH (self), NULL);
  return self->highlight_name;
}

void
embers_flame_graph_set_highlight_name (EmbersFlameGraph *self,
                                       const char       *name)
{
  g_return_if_fail (EMBERS_IS_FLAME_GRAPH (self));

  if (g_strcmp0 (name, self->highlight_name) == 0)
    return;

  g_free (self->highlight_name);
  self->highlight_name = g_strdup (name);

  update_highlight_id (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HIGHLIGHT_NAME]);
}

EmbersLayout *
embers_flame_graph_get_layout (EmbersFlameGraph *self)
{
  g_return_val_if_fail (EMBERS_IS_FLAME_GRAPH (self), NULL);

  ensure_layout (self);
  return self->layout;
}

EmbersRender *
embers_flame_graph_get_render (EmbersFlameGraph *self)
{
  g_return_val_if_fail (EMBERS_IS_FLAME_GRAPH (self), NULL);

  ensure_style (self);
  ensure_layout (self);
  return self->render;
}

gboolean
embers_flame_graph_get_node_area (EmbersFlameGraph *self,
                                  guint32           node,
                                  graphene_rect_t  *area)
{
  const EmbersRect *r;
  int index;

  g_return_val_if_fail (EMBERS_IS_FLAME_GRAPH (self), FALSE);
  g_return_val_if_fail (area != NULL, FALSE);

  ensure_layout (self);
  index = self->layout != NULL ? embers_layout_find_node (self->layout, node) : -1;
  if (index < 0)
    return FALSE;
  r = embers_layout_get_rect (self->layout, index);
  graphene_rect_init (area, r->x, embers_layout_rect_y (self->layout, r) + get_y_offset (self),
                      r->width, embers_layout_get_viewport (self->layout)->row_height);
  return TRUE;
}

static gboolean paint_is_current (EmbersFlameGraph *self,
                                  Paint            *paint);

gboolean
embers_flame_graph_has_paint_cache (EmbersFlameGraph *self)
{
  g_return_val_if_fail (EMBERS_IS_FLAME_GRAPH (self), FALSE);
  return self->shown != NULL && paint_is_current (self, self->shown);
}

void
embers_flame_graph_get_export_options (EmbersFlameGraph    *self,
                                       EmbersExportOptions *options)
{
  int width;

  g_return_if_fail (EMBERS_IS_FLAME_GRAPH (self));
  g_return_if_fail (options != NULL);

  ensure_style (self);
  embers_export_options_init (options);
  width = gtk_widget_get_width (GTK_WIDGET (self));
  options->width = width > 0 ? width : 1200;
  options->scale = gtk_widget_get_scale_factor (GTK_WIDGET (self));
  options->focus = self->focus;
  options->direction = self->direction;
  options->diff_width = self->diff_width;
  options->style = self->style;
  options->x_start = self->x_start;
  options->x_end = self->x_end;
  if (self->search != NULL && embers_search_is_active (self->search))
    {
      options->search = embers_search_get_pattern (self->search);
      options->search_flags = embers_search_get_flags (self->search);
    }
}

/* Input */

gboolean
embers_flame_graph_activate_at (EmbersFlameGraph *self,
                                double            x,
                                double            y)
{
  int index;
  const EmbersRect *r;

  g_return_val_if_fail (EMBERS_IS_FLAME_GRAPH (self), FALSE);

  index = hit_test (self, x, y);
  r = get_rect (self, index);
  if (r == NULL)
    return FALSE;

  if (r->flags & EMBERS_RECT_MERGED)
    {
      /* Zoom so that the block of small frames fills the width */
      double width = embers_layout_get_viewport (self->layout)->width;
      double range = self->x_end - self->x_start;
      double start = self->x_start + r->x / width * range;

      set_range (self, start, start + r->width / width * range);
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
  update_hover (self);
}

static void
on_leave (GtkEventControllerMotion *controller,
          EmbersFlameGraph         *self)
{
  self->has_pointer = FALSE;
  update_hover (self);
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
      update_hover (self);
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
      update_hover (self);
      return;
    }

  gtk_gesture_drag_get_start_point (gesture, &sx, &sy);
  embers_flame_graph_activate_at (self, sx, sy);
}

static void
popup_menu_at (EmbersFlameGraph *self,
               double            x,
               double            y)
{
  GdkRectangle rect = { (int)x, (int)y, 1, 1 };

  gtk_popover_set_pointing_to (GTK_POPOVER (self->popover), &rect);
  /* No tooltip over the menu */
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), FALSE);
  gtk_popover_popup (GTK_POPOVER (self->popover));
}

static void
on_popover_closed (EmbersFlameGraph *self)
{
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
}

static void
on_secondary_pressed (GtkGestureClick  *gesture,
                      int               n_press,
                      double            x,
                      double            y,
                      EmbersFlameGraph *self)
{
  int index = hit_test (self, x, y);
  const EmbersRect *r = get_rect (self, index);

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
  if (!selected_is_frame (self))
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

  if (!selected_is_frame (self))
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
    set_range (self, 0, 1);
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
      if (selected_is_frame (self))
        {
          g_autofree char *stack = embers_profile_node_stack (self->profile, self->selected, "\n");

          gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), stack);
        }
    }
  else if (g_str_equal (action_name, "flame.context-menu"))
    {
      int index = find_node (self, self->selected);
      const EmbersRect *r = get_rect (self, index);

      if (r != NULL)
        popup_menu_at (self, r->x + MIN (r->width / 2, 20),
                       embers_layout_rect_y (self->layout, r) + get_y_offset (self)
                       + embers_layout_get_viewport (self->layout)->row_height / 2);
    }
}

/* GtkWidget */

static GtkSizeRequestMode
embers_flame_graph_get_request_mode (GtkWidget *widget)
{
  return GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH;
}

/* A zoomed graph is wider than any viewport: the natural width the
 * scrolled window compares with its width to show the horizontal
 * scrollbar (the graph's scroll policies are natural) */
#define ZOOMED_NATURAL_WIDTH (1 << 24)

static void
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
      self->measured_zoomed = is_zoomed (self);
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
        ensure_layout_for_width (self, width);
      if (self->layout != NULL && width < ZOOMED_NATURAL_WIDTH)
        height = embers_layout_get_height (self->layout);
      else
        height = (self->profile != NULL ? embers_profile_get_max_depth (self->profile) + 1 : 1)
                 * EMBERS_LAYOUT_ROW_HEIGHT;

      *minimum = EMBERS_LAYOUT_ROW_HEIGHT;
      *natural = MAX (*minimum, (int)ceil (height));
    }
}

static void
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
      clear_paint (self);
    }

  ensure_layout (self);
  /* The page sizes follow the allocation. Changes of what is shown set
   * the adjustments when they happen (invalidate_layout()); only a new
   * size is taken here, and measure() gave the scrolled window the
   * content size for it, so no scrollbar comes or goes because of it. */
  if (width != self->configured_width || height != self->configured_height)
    configure_adjustments (self);

  if (self->popover != NULL)
    gtk_popover_present (GTK_POPOVER (self->popover));
}

/* The outline of a highlighted frame (embers_render_paint_highlight()'s,
 * snapped alike) as a GSK border node, not as cairo: a GL renderer draws
 * a border node's few pixels, where a cairo node is painted on the CPU
 * and uploaded as a texture of its whole bounds each frame (the outlines
 * of a highlighted function's frames spread over the whole graph) */
static void
append_outline (EmbersFlameGraph *self,
                GtkSnapshot      *snapshot,
                int               index,
                EmbersHighlight   kind,
                double            offset)
{
  double x, y, w, h, lw;
  EmbersColor c;
  GdkRGBA rgba;

  if (index < 0 ||
      !embers_render_get_highlight (self->render, index, kind, gtk_widget_get_scale_factor (GTK_WIDGET (self)),
                                    offset, &x, &y, &w, &h, &lw, &c))
    return;

  rgba = (GdkRGBA) { c.red, c.green, c.blue, c.alpha };
  y += offset;
  if (w <= 2 * lw || h <= 2 * lw)
    {
      /* Narrower than the two lines: cairo's stroke fills it */
      gtk_snapshot_append_color (snapshot, &rgba, &GRAPHENE_RECT_INIT (x, y, w, h));
      return;
    }
  {
    GskRoundedRect outline;
    const float widths[4] = { lw, lw, lw, lw };
    const GdkRGBA colors[4] = { rgba, rgba, rgba, rgba };

    gsk_rounded_rect_init_from_rect (&outline, &GRAPHENE_RECT_INIT (x, y, w, h), 0);
    gtk_snapshot_append_border (snapshot, &outline, widths, colors);
  }
}

static GskRenderNode *
paint_function_highlight (EmbersFlameGraph *self,
                          double            offset,
                          double            height)
{
  const EmbersRect *rects;
  double rh = embers_layout_get_viewport (self->layout)->row_height;
  guint n_rects, n = 0;
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  GskRenderNode *node;

  rects = embers_layout_get_rects (self->layout, &n_rects);
  for (guint i = 0; i < n_rects; i++)
    {
      const EmbersRect *r = &rects[i];
      double y;

      if (r->flags & EMBERS_RECT_MERGED)
        continue;
      if (embers_profile_node_name (self->profile, r->node) != self->highlight_id)
        continue;
      y = embers_layout_rect_y (self->layout, r) + offset;
      if (y + rh < 0 || y > height)
        continue;
      append_outline (self, snapshot, i, EMBERS_HIGHLIGHT_HOVER, offset);
      n++;
    }

  node = gtk_snapshot_free_to_node (snapshot);
  if (n == 0)
    g_clear_pointer (&node, gsk_render_node_unref);
  return node;
}

/* Painting on a worker */

static gboolean
paint_is_current (EmbersFlameGraph *self,
                  Paint            *paint)
{
  GtkWidget *widget = GTK_WIDGET (self);

  return paint->layout == self->layout &&
         paint->search == self->search &&
         paint->generation == self->generation &&
         paint->width == gtk_widget_get_width (widget) &&
         paint->height == gtk_widget_get_height (widget) &&
         paint->scale == gtk_widget_get_scale_factor (widget) &&
         paint->offset == get_y_offset (self);
}

/* Cairo's ARGB32 with its alpha byte ignored */
#if G_BYTE_ORDER == G_LITTLE_ENDIAN
#define OPAQUE_FORMAT GDK_MEMORY_B8G8R8X8
#else
#define OPAQUE_FORMAT GDK_MEMORY_X8R8G8B8
#endif

static void
paint_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  EmbersFlameGraph *self = source_object;
  Paint *paint = task_data;
  EmbersRender *render = self->worker_render;
  cairo_surface_t *surface;
  cairo_t *cr;
  GBytes *bytes;

  paint->style.font = paint->font;
  embers_render_set_style (render, &paint->style);
  embers_render_set_layout (render, paint->layout);
  embers_render_set_search (render, paint->search);
  embers_render_set_noise (render, paint->noise_profile, paint->verdicts, paint->hide_noise);

  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, paint->width * paint->scale,
                                        paint->height * paint->scale);
  cairo_surface_set_device_scale (surface, paint->scale, paint->scale);
  cr = cairo_create (surface);
  cairo_translate (cr, 0, paint->offset);
  embers_render_paint (render, cr);
  cairo_destroy (cr);
  cairo_surface_flush (surface);

  /* Cairo's ARGB32 is GDK's default memory format. The painter fills
   * the background first: with an opaque background the texture is
   * opaque, and saying so lets a GL or Vulkan renderer skip what lies
   * beneath and draw without blending (a third less work per frame with
   * software GL, llvmpipe). Not for GSK's cairo renderer: it would
   * convert such a texture to cairo's format each frame it draws it. */
  bytes = g_bytes_new_with_free_func (cairo_image_surface_get_data (surface),
                                      (gsize)cairo_image_surface_get_stride (surface) *
                                      cairo_image_surface_get_height (surface),
                                      (GDestroyNotify)cairo_surface_destroy, surface);
  paint->texture = gdk_memory_texture_new (cairo_image_surface_get_width (surface),
                                           cairo_image_surface_get_height (surface),
                                           paint->opaque ? OPAQUE_FORMAT : GDK_MEMORY_DEFAULT,
                                           bytes, cairo_image_surface_get_stride (surface));
  g_bytes_unref (bytes);

  /* The worker's render keeps no layout alive between paints */
  embers_render_set_layout (render, NULL);
  embers_render_set_search (render, NULL);
  embers_render_set_noise (render, NULL, NULL, FALSE);
  paint->finished = g_get_monotonic_time ();
  g_task_return_boolean (task, TRUE);
}

static void
paint_done (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  EmbersFlameGraph *self = EMBERS_FLAME_GRAPH (source);
  Paint *paint = g_task_get_task_data (G_TASK (result));

  g_assert (paint == self->pending);
  self->pending = NULL;
  if (self->disposed)
    {
      paint_free (paint);
      return;
    }

  paint_free (self->shown);
  self->shown = paint;
  /* The view moved on while it was painted (a zoom or pan step): the
   * next paint starts now, and the next frame shows this one moved and
   * scaled meanwhile */
  if (!paint_is_current (self, paint) && self->layout != NULL && self->style_valid &&
      gtk_widget_get_mapped (GTK_WIDGET (self)))
    request_paint (self, get_y_offset (self));
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* GSK's cairo renderer draws the window (GSK_RENDERER=cairo) */
static gboolean
renders_with_cairo (GtkWidget *widget)
{
  GtkNative *native = gtk_widget_get_native (widget);
  GskRenderer *renderer = native != NULL ? gtk_native_get_renderer (native) : NULL;

  return renderer != NULL && GSK_IS_CAIRO_RENDERER (renderer);
}

static void
request_paint (EmbersFlameGraph *self,
               double            offset)
{
  GtkWidget *widget = GTK_WIDGET (self);
  g_autoptr(GTask) task = NULL;
  Paint *paint;

  if (self->pending != NULL || self->layout == NULL)
    return;   /* when it is done, the next frame asks again */

  paint = g_new0 (Paint, 1);
  paint->layout = embers_layout_ref (self->layout);
  paint->search = self->search != NULL ? embers_search_ref (self->search) : NULL;
  paint->style = self->style;
  paint->font = g_strdup (self->style.font);
  paint->offset = offset;
  paint->width = gtk_widget_get_width (widget);
  paint->height = gtk_widget_get_height (widget);
  paint->scale = gtk_widget_get_scale_factor (widget);
  paint->generation = self->generation;
  paint->opaque = self->style.background.alpha >= 1.0 && !renders_with_cairo (widget);
  if (self->verdicts != NULL)
    {
      paint->noise_profile = g_object_ref (self->profile);
      paint->verdicts = g_memdup2 (self->verdicts, sizeof (EmbersChangeVerdict) *
                                   MAX (embers_profile_get_n_nodes (self->profile), 1u));
      paint->hide_noise = self->hide_noise;
    }
  paint->started = g_get_monotonic_time ();
  self->pending = paint;

  task = g_task_new (self, NULL, paint_done, NULL);
  g_task_set_source_tag (task, request_paint);
  /* The task owns the paint until paint_done takes it */
  g_task_set_task_data (task, paint, NULL);
  g_task_set_priority (task, G_PRIORITY_HIGH_IDLE);
  g_task_run_in_thread (task, paint_thread);
}

/* The shown texture where the current view puts it: after a zoom or pan
 * step of the same frames, moved and scaled; else where it was. The
 * scale goes into the texture's bounds, not into a transform: GSK's GL
 * renderer draws a texture under a scaling transform at about twice the
 * cost of the same texture in wider bounds. */
static void
append_shown (EmbersFlameGraph *self,
              GtkSnapshot      *snapshot,
              double            offset)
{
  Paint *paint = self->shown;
  const EmbersViewport *then, *now;
  graphene_rect_t bounds = GRAPHENE_RECT_INIT (0, 0, paint->width, paint->height);
  gboolean same_frames;

  if (paint_is_current (self, paint) || self->layout == NULL)
    {
      gtk_snapshot_append_texture (snapshot, paint->texture, &bounds);
      return;
    }

  then = embers_layout_get_viewport (paint->layout);
  now = embers_layout_get_viewport (self->layout);
  same_frames = embers_layout_get_profile (paint->layout) == embers_layout_get_profile (self->layout) &&
                embers_layout_get_focus (paint->layout) == embers_layout_get_focus (self->layout) &&
                embers_layout_get_sample_type (paint->layout) == embers_layout_get_sample_type (self->layout) &&
                then->direction == now->direction && then->diff_width == now->diff_width &&
                then->width == now->width && paint->width == gtk_widget_get_width (GTK_WIDGET (self));

  if (same_frames)
    {
      double span = now->x_end - now->x_start;
      double scale = (then->x_end - then->x_start) / span;
      double dx = (then->x_start - now->x_start) / span * now->width;
      double dy = offset - paint->offset;

      if (fabs (scale - 1.0) < 1e-9)
        {
          /* A pan: whole device pixels, so the texture is not blurred */
          double s = paint->scale;

          graphene_rect_offset (&bounds, round (dx * s) / s, round (dy * s) / s);
          gtk_snapshot_append_texture (snapshot, paint->texture, &bounds);
          return;
        }
      graphene_rect_init (&bounds, dx, dy, paint->width * scale, paint->height);
    }
  gtk_snapshot_append_scaled_texture (snapshot, paint->texture, GSK_SCALING_FILTER_LINEAR, &bounds);
}

static void
embers_flame_graph_snapshot (GtkWidget   *widget,
                             GtkSnapshot *snapshot)
{
  EmbersFlameGraph *self = EMBERS_FLAME_GRAPH (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  double offset;

  if (width <= 0 || height <= 0)
    return;

  ensure_style (self);
  ensure_layout (self);
  offset = get_y_offset (self);

  if (self->shown == NULL || !paint_is_current (self, self->shown))
    request_paint (self, offset);

  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  if (self->shown == NULL || self->shown->texture == NULL)
    {
      /* Nothing painted yet: the background */
      GdkRGBA bg = { self->style.background.red, self->style.background.green,
                     self->style.background.blue, self->style.background.alpha };

      gtk_snapshot_append_color (snapshot, &bg, &GRAPHENE_RECT_INIT (0, 0, width, height));
    }
  else
    append_shown (self, snapshot, offset);
  gtk_snapshot_pop (snapshot);

  if (self->layout == NULL)
    return;

  /* Overlays: they never repaint the graph */
  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  if (self->highlight_id != 0)
    {
      if (self->highlight_cache == NULL)
        self->highlight_cache = paint_function_highlight (self, offset, height);
      if (self->highlight_cache != NULL)
        gtk_snapshot_append_node (snapshot, self->highlight_cache);
    }

  if (self->hover_rect >= 0)
    append_outline (self, snapshot, self->hover_rect, EMBERS_HIGHLIGHT_HOVER, offset);
  if (self->selected != EMBERS_NODE_NONE)
    append_outline (self, snapshot, find_node (self, self->selected), EMBERS_HIGHLIGHT_SELECTED, offset);
  gtk_snapshot_pop (snapshot);
}

static gboolean
set_diff_tooltip (EmbersFlameGraph *self,
                  GtkTooltip       *tooltip,
                  guint32           node)
{
  g_auto(GStrv) cells = NULL;
  const char *name = embers_profile_node_name_str (self->profile, node);
  GtkWidget *box, *title, *grid;
  guint n_rows = 0;

  cells = embers_render_diff_tooltip_cells (self->profile, node, &n_rows);
  if (cells == NULL || n_rows == 0)
    return FALSE;

  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  title = gtk_label_new (name != NULL ? name : "");
  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_label_set_wrap (GTK_LABEL (title), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (title), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_max_width_chars (GTK_LABEL (title), 60);
  gtk_widget_add_css_class (title, "heading");
  gtk_box_append (GTK_BOX (box), title);

  grid = gtk_grid_new ();
  gtk_grid_set_column_spacing (GTK_GRID (grid), 12);
  gtk_grid_set_row_spacing (GTK_GRID (grid), 2);
  for (guint row = 0; row < n_rows; row++)
    for (guint col = 0; col < 4; col++)
      {
        GtkWidget *cell = gtk_label_new (cells[row * 4 + col]);

        gtk_label_set_xalign (GTK_LABEL (cell), col == 0 ? 0.0 : 1.0);
        if (row == 0 || col == 0)
          gtk_widget_add_css_class (cell, "dim-label");
        if (col > 0)
          gtk_widget_add_css_class (cell, "numeric");
        if (row > 0 && col == 3)
          gtk_widget_add_css_class (cell, "heading");
        gtk_grid_attach (GTK_GRID (grid), cell, col, row, 1, 1);
      }
  gtk_box_append (GTK_BOX (box), grid);
  if (self->noise != NULL)
    {
      g_autofree char *noise = embers_diff_stats_node_describe (self->noise, self->profile, node);

      if (noise != NULL)
        {
          GtkWidget *line = gtk_label_new (noise);

          gtk_label_set_xalign (GTK_LABEL (line), 0);
          gtk_label_set_wrap (GTK_LABEL (line), TRUE);
          gtk_label_set_max_width_chars (GTK_LABEL (line), 60);
          gtk_box_append (GTK_BOX (box), line);
        }
    }
  gtk_tooltip_set_custom (tooltip, box);
  return TRUE;
}

static gboolean
embers_flame_graph_query_tooltip (GtkWidget  *widget,
                                  int         x,
                                  int         y,
                                  gboolean    keyboard_mode,
                                  GtkTooltip *tooltip)
{
  EmbersFlameGraph *self = EMBERS_FLAME_GRAPH (widget);
  g_autofree char *text = NULL;
  const EmbersRect *r;
  GdkRectangle area;
  int index;

  if (keyboard_mode)
    index = find_node (self, self->selected);
  else
    index = hit_test (self, x, y);
  r = get_rect (self, index);
  if (r == NULL)
    return FALSE;

  if (embers_layout_is_diff (self->layout) && !(r->flags & EMBERS_RECT_MERGED))
    {
      /* A diff frame: its name over a small table of baseline,
       * comparison and diff */
      if (!set_diff_tooltip (self, tooltip, r->node))
        return FALSE;
    }
  else
    {
      text = embers_render_rect_tooltip_text_of (self->layout, r, self->share_of);
      if (text == NULL)
        return FALSE;
      gtk_tooltip_set_text (tooltip, text);
    }

  area.x = (int)floor (r->x);
  area.y = (int)floor (embers_layout_rect_y (self->layout, r) + get_y_offset (self));
  area.width = MAX (1, (int)ceil (r->width));
  area.height = (int)embers_layout_get_viewport (self->layout)->row_height;
  gtk_tooltip_set_tip_area (tooltip, &area);
  return TRUE;
}

static void
embers_flame_graph_css_changed (GtkWidget         *widget,
                                GtkCssStyleChange *change)
{
  EmbersFlameGraph *self = EMBERS_FLAME_GRAPH (widget);

  GTK_WIDGET_CLASS (embers_flame_graph_parent_class)->css_changed (widget, change);

  self->style_valid = FALSE;
  clear_paint (self);
  gtk_widget_queue_draw (widget);
}

static gboolean
embers_flame_graph_focus (GtkWidget        *widget,
                          GtkDirectionType  direction)
{
  /* One tab stop; arrows move inside */
  if (gtk_widget_is_focus (widget))
    return FALSE;
  return gtk_widget_grab_focus (widget);
}

/* GObject */

static void
embers_flame_graph_dispose (GObject *object)
{
  EmbersFlameGraph *self = EMBERS_FLAME_GRAPH (object);

  g_clear_pointer (&self->popover, gtk_widget_unparent);
  gtk_widget_dispose_template (GTK_WIDGET (self), EMBERS_TYPE_FLAME_GRAPH);

  if (self->hadjustment != NULL)
    g_signal_handlers_disconnect_by_func (self->hadjustment, on_hadjustment_changed, self);
  if (self->vadjustment != NULL)
    g_signal_handlers_disconnect_by_func (self->vadjustment, on_vadjustment_changed, self);
  g_clear_object (&self->hadjustment);
  g_clear_object (&self->vadjustment);

  clear_paint (self);
  g_clear_pointer (&self->shown, paint_free);
  /* A paint still running holds the widget (its task's source): the
   * worker's render goes in finalize, the paint in paint_done */
  self->disposed = TRUE;
  g_clear_pointer (&self->layout, embers_layout_unref);
  g_clear_pointer (&self->search, embers_search_unref);
  g_clear_pointer (&self->render, embers_render_unref);
  g_clear_object (&self->profile);

  G_OBJECT_CLASS (embers_flame_graph_parent_class)->dispose (object);
}

static void
embers_flame_graph_finalize (GObject *object)
{
  EmbersFlameGraph *self = EMBERS_FLAME_GRAPH (object);

  g_clear_pointer (&self->worker_render, embers_render_unref);
  g_clear_pointer (&self->share_of, g_free);
  g_clear_object (&self->noise);
  g_clear_pointer (&self->verdicts, g_free);
  g_clear_pointer (&self->back, g_array_unref);
  g_clear_pointer (&self->forward, g_array_unref);
  g_free (self->highlight_name);
  g_free (self->font);

  G_OBJECT_CLASS (embers_flame_graph_parent_class)->finalize (object);
}

static void
embers_flame_graph_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  EmbersFlameGraph *self = EMBERS_FLAME_GRAPH (object);

  switch (prop_id)
    {
    case PROP_PROFILE:
      g_value_set_object (value, self->profile);
      break;
    case PROP_SAMPLE_TYPE:
      g_value_set_uint (value, self->sample_type);
      break;
    case PROP_DIRECTION:
      g_value_set_uint (value, self->direction);
      break;
    case PROP_COLOR_SCHEME:
      g_value_set_uint (value, self->color_scheme);
      break;
    case PROP_DIFF_PALETTE:
      g_value_set_uint (value, self->diff_palette);
      break;
    case PROP_DIFF_MODE:
      g_value_set_uint (value, self->diff_mode);
      break;
    case PROP_DIFF_WIDTH:
      g_value_set_uint (value, self->diff_width);
      break;
    case PROP_SEARCH:
      g_value_set_boxed (value, self->search);
      break;
    case PROP_FOCUS_NODE:
      g_value_set_uint (value, self->focus);
      break;
    case PROP_SELECTED_NODE:
      g_value_set_uint (value, self->selected);
      break;
    case PROP_HOVER_NODE:
      g_value_set_uint (value, self->hover_node);
      break;
    case PROP_HIGHLIGHT_NAME:
      g_value_set_string (value, self->highlight_name);
      break;
    case PROP_CAN_GO_BACK:
      g_value_set_boolean (value, self->back->len > 0);
      break;
    case PROP_CAN_GO_FORWARD:
      g_value_set_boolean (value, self->forward->len > 0);
      break;
    case PROP_ZOOMED:
      g_value_set_boolean (value, is_zoomed (self));
      break;
    case PROP_HADJUSTMENT:
      g_value_set_object (value, self->hadjustment);
      break;
    case PROP_VADJUSTMENT:
      g_value_set_object (value, self->vadjustment);
      break;
    case PROP_HSCROLL_POLICY:
      g_value_set_enum (value, self->hscroll_policy);
      break;
    case PROP_VSCROLL_POLICY:
      g_value_set_enum (value, self->vscroll_policy);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
embers_flame_graph_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  EmbersFlameGraph *self = EMBERS_FLAME_GRAPH (object);

  switch (prop_id)
    {
    case PROP_PROFILE:
      embers_flame_graph_set_profile (self, g_value_get_object (value));
      break;
    case PROP_SAMPLE_TYPE:
      embers_flame_graph_set_sample_type (self, g_value_get_uint (value));
      break;
    case PROP_DIRECTION:
      embers_flame_graph_set_direction (self, g_value_get_uint (value));
      break;
    case PROP_COLOR_SCHEME:
      embers_flame_graph_set_color_scheme (self, g_value_get_uint (value));
      break;
    case PROP_DIFF_PALETTE:
      embers_flame_graph_set_diff_palette (self, g_value_get_uint (value));
      break;
    case PROP_DIFF_MODE:
      embers_flame_graph_set_diff_mode (self, g_value_get_uint (value));
      break;
    case PROP_DIFF_WIDTH:
      embers_flame_graph_set_diff_width (self, g_value_get_uint (value));
      break;
    case PROP_SEARCH:
      embers_flame_graph_set_search (self, g_value_get_boxed (value));
      break;
    case PROP_FOCUS_NODE:
      embers_flame_graph_set_focus_node (self, g_value_get_uint (value));
      break;
    case PROP_SELECTED_NODE:
      embers_flame_graph_set_selected_node (self, g_value_get_uint (value));
      break;
    case PROP_HIGHLIGHT_NAME:
      embers_flame_graph_set_highlight_name (self, g_value_get_string (value));
      break;
    case PROP_HADJUSTMENT:
      set_adjustment (self, &self->hadjustment, g_value_get_object (value),
                      G_CALLBACK (on_hadjustment_changed));
      break;
    case PROP_VADJUSTMENT:
      set_adjustment (self, &self->vadjustment, g_value_get_object (value),
                      G_CALLBACK (on_vadjustment_changed));
      break;
    case PROP_HSCROLL_POLICY:
      self->hscroll_policy = g_value_get_enum (value);
      gtk_widget_queue_resize (GTK_WIDGET (self));
      break;
    case PROP_VSCROLL_POLICY:
      self->vscroll_policy = g_value_get_enum (value);
      gtk_widget_queue_resize (GTK_WIDGET (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
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

static void
embers_flame_graph_class_init (EmbersFlameGraphClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  static const char * const actions[] = {
    "flame.back", "flame.forward", "flame.reset",
    "flame.zoom-in", "flame.zoom-out", "flame.zoom-reset",
    "flame.focus-selected", "flame.sandwich", "flame.hide-frame",
    "flame.focus-function", "flame.copy-name", "flame.copy-stack",
    "flame.context-menu", "flame.focus-subtree", "flame.merge-function",
    "flame.drop-function", "flame.collapse-package", "flame.collapse-function-recursion",
  };

  object_class->dispose = embers_flame_graph_dispose;
  object_class->finalize = embers_flame_graph_finalize;
  object_class->get_property = embers_flame_graph_get_property;
  object_class->set_property = embers_flame_graph_set_property;

  widget_class->measure = embers_flame_graph_measure;
  widget_class->size_allocate = embers_flame_graph_size_allocate;
  widget_class->get_request_mode = embers_flame_graph_get_request_mode;
  widget_class->snapshot = embers_flame_graph_snapshot;
  widget_class->query_tooltip = embers_flame_graph_query_tooltip;
  widget_class->css_changed = embers_flame_graph_css_changed;
  widget_class->focus = embers_flame_graph_focus;

  properties[PROP_PROFILE] =
    g_param_spec_object ("profile", NULL, NULL,
                         EMBERS_TYPE_PROFILE,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_SAMPLE_TYPE] =
    g_param_spec_uint ("sample-type", NULL, NULL,
                       0, G_MAXUINT, 0,
                       (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_DIRECTION] =
    g_param_spec_uint ("direction", NULL, NULL,
                       EMBERS_LAYOUT_ICICLE, EMBERS_LAYOUT_FLAME, EMBERS_LAYOUT_ICICLE,
                       (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_COLOR_SCHEME] =
    g_param_spec_uint ("color-scheme", NULL, NULL,
                       EMBERS_COLOR_SCHEME_PACKAGE, EMBERS_COLOR_SCHEME_PLAIN,
                       EMBERS_COLOR_SCHEME_PACKAGE,
                       (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  /* For diff profiles: the palette (EmbersDiffPalette), what the colours
   * show (EmbersDiffMode) and which columns give the widths
   * (EmbersDiffWidth: both sides summed as Pyroscope draws them, or the
   * comparison only) */
  properties[PROP_DIFF_PALETTE] =
    g_param_spec_uint ("diff-palette", NULL, NULL,
                       EMBERS_DIFF_PALETTE_RED_BLUE, EMBERS_DIFF_PALETTE_RED_GREEN,
                       EMBERS_DIFF_PALETTE_RED_BLUE,
                       (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_DIFF_MODE] =
    g_param_spec_uint ("diff-mode", NULL, NULL,
                       EMBERS_DIFF_MODE_SHARE, EMBERS_DIFF_MODE_ABSOLUTE,
                       EMBERS_DIFF_MODE_SHARE,
                       (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_DIFF_WIDTH] =
    g_param_spec_uint ("diff-width", NULL, NULL,
                       EMBERS_DIFF_WIDTH_SUM, EMBERS_DIFF_WIDTH_BASELINE,
                       EMBERS_DIFF_WIDTH_SUM,
                       (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_SEARCH] =
    g_param_spec_boxed ("search", NULL, NULL,
                        EMBERS_TYPE_SEARCH,
                        (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_FOCUS_NODE] =
    g_param_spec_uint ("focus-node", NULL, NULL,
                       0, G_MAXUINT32, 0,
                       (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_SELECTED_NODE] =
    g_param_spec_uint ("selected-node", NULL, NULL,
                       0, G_MAXUINT32, EMBERS_NODE_NONE,
                       (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_HOVER_NODE] =
    g_param_spec_uint ("hover-node", NULL, NULL,
                       0, G_MAXUINT32, EMBERS_NODE_NONE,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_HIGHLIGHT_NAME] =
    g_param_spec_string ("highlight-name", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_CAN_GO_BACK] =
    g_param_spec_boolean ("can-go-back", NULL, NULL,
                          FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_CAN_GO_FORWARD] =
    g_param_spec_boolean ("can-go-forward", NULL, NULL,
                          FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_ZOOMED] =
    g_param_spec_boolean ("zoomed", NULL, NULL,
                          FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
  g_object_class_override_property (object_class, PROP_HADJUSTMENT, "hadjustment");
  g_object_class_override_property (object_class, PROP_VADJUSTMENT, "vadjustment");
  g_object_class_override_property (object_class, PROP_HSCROLL_POLICY, "hscroll-policy");
  g_object_class_override_property (object_class, PROP_VSCROLL_POLICY, "vscroll-policy");

  embers_widgets_ensure_resources ();
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/emberslab/Embers/embers-flame-graph.ui");
  gtk_widget_class_bind_template_child (widget_class, EmbersFlameGraph, context_menu);
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

  gtk_widget_class_set_css_name (widget_class, "flamegraph");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
embers_flame_graph_init (EmbersFlameGraph *self)
{
  self->selected = EMBERS_NODE_NONE;
  self->hover_node = EMBERS_NODE_NONE;
  self->hover_rect = -1;
  self->x_start = 0;
  self->x_end = 1;
  /* measure() gives the content size: the scrolled window compares its
   * natural size with the viewport to choose scrollbars */
  self->hscroll_policy = GTK_SCROLL_NATURAL;
  self->vscroll_policy = GTK_SCROLL_NATURAL;
  self->back = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->forward = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->render = embers_render_new (NULL, NULL, NULL);
  self->worker_render = embers_render_new (NULL, NULL, NULL);

  gtk_widget_init_template (GTK_WIDGET (self));

  self->popover = gtk_popover_menu_new_from_model (self->context_menu);
  gtk_popover_set_has_arrow (GTK_POPOVER (self->popover), FALSE);
  gtk_widget_set_halign (self->popover, GTK_ALIGN_START);
  gtk_widget_set_parent (self->popover, GTK_WIDGET (self));
  g_signal_connect_object (self->popover, "closed",
                           G_CALLBACK (on_popover_closed), self, G_CONNECT_SWAPPED);

  set_adjustment (self, &self->hadjustment, NULL, G_CALLBACK (on_hadjustment_changed));
  set_adjustment (self, &self->vadjustment, NULL, G_CALLBACK (on_vadjustment_changed));

  update_actions (self);
  update_accessible (self);
}

GtkWidget *
embers_flame_graph_new (void)
{
  return g_object_new (EMBERS_TYPE_FLAME_GRAPH, NULL);
}
