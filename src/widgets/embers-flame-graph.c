/* embers-flame-graph.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <adwaita.h>

#include "embers-widgets.h"
#include "embers-flame-graph-private.h"
#include "embers-theme.h"
#include "embers-transforms.h"

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE_WITH_CODE (EmbersFlameGraph, embers_flame_graph, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (GTK_TYPE_SCROLLABLE, NULL))

/* A property's notification, for the other files of the widget */
void
embers_flame_graph_notify (EmbersFlameGraph *self,
                           guint             prop_id)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop_id]);
}

/* Invalidation */

void
embers_flame_graph_clear_paint (EmbersFlameGraph *self)
{
  /* The shown texture stays until a new one replaces it */
  self->generation++;
  g_clear_pointer (&self->highlight_cache, gsk_render_node_unref);
}

static void
drop_layout (EmbersFlameGraph *self)
{
  g_clear_pointer (&self->layout, embers_layout_unref);
  if (self->render != NULL)
    embers_render_set_layout (self->render, NULL);
  self->hover_rect = -1;
  embers_flame_graph_clear_paint (self);
}

/* The layout for @width px: the current one when it was made for that
 * width, else a new one (measure makes it for the width the allocation
 * will give, so size_allocate finds it made) */
void
embers_flame_graph_ensure_layout_for_width (EmbersFlameGraph *self,
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

void
embers_flame_graph_ensure_layout (EmbersFlameGraph *self)
{
  embers_flame_graph_ensure_layout_for_width (self, gtk_widget_get_width (GTK_WIDGET (self)));
}

/* What is shown changed (focus, zoom, data, direction…): a new layout at
 * the current width, and the adjustments set for it now, from the event
 * that changed it. Never from inside size_allocate: an adjustment whose
 * range changes there makes the scrolled window show or hide a scrollbar
 * and queue a resize in the middle of the allocation (GTK 4.8 then
 * skipped drawing the page until the next resize; newer GTK lays out the
 * whole window twice in that frame). measure() reports the new content
 * size, so the scrolled window's own choice of scrollbars agrees. */
void
embers_flame_graph_invalidate_layout (EmbersFlameGraph *self)
{
  double old_height = self->layout != NULL ? embers_layout_get_height (self->layout) : -1;
  gboolean old_zoomed = self->measured_zoomed;

  drop_layout (self);
  if (gtk_widget_get_width (GTK_WIDGET (self)) > 0)
    {
      embers_flame_graph_ensure_layout (self);
      embers_flame_graph_configure_adjustments (self);
    }

  /* What measure() reports (the content's height, the zoomed natural
   * width) is the same after most zoom and pan steps: then the window
   * needs no new layout, which costs 10-20 ms with a big table beside */
  if (self->layout != NULL && old_height >= 0 &&
      embers_layout_get_height (self->layout) == old_height &&
      embers_flame_graph_is_zoomed (self) == old_zoomed)
    {
      /* The size stays: the worker can paint the new view now rather
       * than from the next frame's snapshot, a frame sooner. That frame
       * shows the last paint moved and scaled meanwhile. */
      if (self->style_valid && gtk_widget_get_mapped (GTK_WIDGET (self)))
        embers_flame_graph_request_paint (self, embers_flame_graph_get_y_offset (self));
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

void
embers_flame_graph_ensure_style (EmbersFlameGraph *self)
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
      embers_flame_graph_clear_paint (self);
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

  r = embers_flame_graph_get_rect (self, embers_flame_graph_hit_test (self, x, y));
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

  if (embers_flame_graph_is_zoomed (self))
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
  embers_flame_graph_invalidate_layout (self);

  embers_flame_graph_update_actions (self);
  embers_flame_graph_update_accessible (self);
  embers_flame_graph_notify_history (self, back, forward);

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
  embers_flame_graph_invalidate_layout (self);
  embers_flame_graph_update_accessible (self);
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
  embers_flame_graph_invalidate_layout (self);
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
  embers_flame_graph_clear_paint (self);
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
  embers_flame_graph_clear_paint (self);
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
  embers_flame_graph_clear_paint (self);
  embers_flame_graph_update_accessible (self);
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
  embers_flame_graph_invalidate_layout (self);
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
  embers_flame_graph_clear_paint (self);
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

  embers_flame_graph_ensure_layout (self);
  return self->layout;
}

EmbersRender *
embers_flame_graph_get_render (EmbersFlameGraph *self)
{
  g_return_val_if_fail (EMBERS_IS_FLAME_GRAPH (self), NULL);

  embers_flame_graph_ensure_style (self);
  embers_flame_graph_ensure_layout (self);
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

  embers_flame_graph_ensure_layout (self);
  index = self->layout != NULL ? embers_layout_find_node (self->layout, node) : -1;
  if (index < 0)
    return FALSE;
  r = embers_layout_get_rect (self->layout, index);
  graphene_rect_init (area, r->x, embers_layout_rect_y (self->layout, r) + embers_flame_graph_get_y_offset (self),
                      r->width, embers_layout_get_viewport (self->layout)->row_height);
  return TRUE;
}


gboolean
embers_flame_graph_has_paint_cache (EmbersFlameGraph *self)
{
  g_return_val_if_fail (EMBERS_IS_FLAME_GRAPH (self), FALSE);
  return self->shown != NULL && embers_flame_graph_paint_is_current (self, self->shown);
}

void
embers_flame_graph_get_export_options (EmbersFlameGraph    *self,
                                       EmbersExportOptions *options)
{
  int width;

  g_return_if_fail (EMBERS_IS_FLAME_GRAPH (self));
  g_return_if_fail (options != NULL);

  embers_flame_graph_ensure_style (self);
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

static void
embers_flame_graph_css_changed (GtkWidget         *widget,
                                GtkCssStyleChange *change)
{
  EmbersFlameGraph *self = EMBERS_FLAME_GRAPH (widget);

  GTK_WIDGET_CLASS (embers_flame_graph_parent_class)->css_changed (widget, change);

  self->style_valid = FALSE;
  embers_flame_graph_clear_paint (self);
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
    g_signal_handlers_disconnect_by_func (self->hadjustment, embers_flame_graph_on_hadjustment_changed, self);
  if (self->vadjustment != NULL)
    g_signal_handlers_disconnect_by_func (self->vadjustment, embers_flame_graph_on_vadjustment_changed, self);
  g_clear_object (&self->hadjustment);
  g_clear_object (&self->vadjustment);

  embers_flame_graph_clear_paint (self);
  g_clear_pointer (&self->shown, embers_flame_graph_paint_free);
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
      g_value_set_boolean (value, embers_flame_graph_is_zoomed (self));
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
      embers_flame_graph_set_adjustment (self, &self->hadjustment, g_value_get_object (value),
                                         G_CALLBACK (embers_flame_graph_on_hadjustment_changed));
      break;
    case PROP_VADJUSTMENT:
      embers_flame_graph_set_adjustment (self, &self->vadjustment, g_value_get_object (value),
                                         G_CALLBACK (embers_flame_graph_on_vadjustment_changed));
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
embers_flame_graph_class_init (EmbersFlameGraphClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

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
  embers_flame_graph_class_init_input (widget_class);

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

  embers_flame_graph_set_adjustment (self, &self->hadjustment, NULL, G_CALLBACK (embers_flame_graph_on_hadjustment_changed));
  embers_flame_graph_set_adjustment (self, &self->vadjustment, NULL, G_CALLBACK (embers_flame_graph_on_vadjustment_changed));

  embers_flame_graph_update_actions (self);
  embers_flame_graph_update_accessible (self);
}

GtkWidget *
embers_flame_graph_new (void)
{
  return g_object_new (EMBERS_TYPE_FLAME_GRAPH, NULL);
}
