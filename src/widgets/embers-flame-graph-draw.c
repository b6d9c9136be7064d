/* embers-flame-graph-draw.c: what the flame graph draws: the graph painted
 * on a worker into a texture, the snapshot with its overlays, tooltips
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>

#include "embers-flame-graph-private.h"

void
embers_flame_graph_paint_free (Paint *paint)
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

gboolean
embers_flame_graph_paint_is_current (EmbersFlameGraph *self,
                                     Paint            *paint)
{
  GtkWidget *widget = GTK_WIDGET (self);

  return paint->layout == self->layout &&
         paint->search == self->search &&
         paint->generation == self->generation &&
         paint->width == gtk_widget_get_width (widget) &&
         paint->height == gtk_widget_get_height (widget) &&
         paint->scale == gtk_widget_get_scale_factor (widget) &&
         paint->offset == embers_flame_graph_get_y_offset (self);
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
      embers_flame_graph_paint_free (paint);
      return;
    }

  embers_flame_graph_paint_free (self->shown);
  self->shown = paint;
  /* The view moved on while it was painted (a zoom or pan step): the
   * next paint starts now, and the next frame shows this one moved and
   * scaled meanwhile */
  if (!embers_flame_graph_paint_is_current (self, paint) && self->layout != NULL && self->style_valid &&
      gtk_widget_get_mapped (GTK_WIDGET (self)))
    embers_flame_graph_request_paint (self, embers_flame_graph_get_y_offset (self));
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

void
embers_flame_graph_request_paint (EmbersFlameGraph *self,
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
  g_task_set_source_tag (task, embers_flame_graph_request_paint);
  /* The task owns the paint until paint_done takes it */
  g_task_set_task_data (task, paint, NULL);
  g_task_set_priority (task, G_PRIORITY_HIGH_IDLE);
  g_task_run_in_thread (task, paint_thread);
}

/* How the graph's texture is sampled. GSK's GL renderer samples a
 * texture node with the linear filter; with software GL (llvmpipe) that
 * costs a third more per pixel than the nearest filter, most of a frame
 * (bench-window --floor: 13-15 ms of CPU against 9-10 ms for the
 * texture of a 1369 x 978 graph). Drawn at one texel per device pixel,
 * as the current paint and a pan's are, both filters give the same
 * picture; a zoom step's interim frame, scaled, is blockier for the few
 * frames until the sharp paint replaces it. Linear where the surface's
 * scale is not the widget's (fractional scaling resamples the texture
 * anyway) and with GSK's cairo renderer, which draws a texture node
 * from a surface it keeps. */
static GskScalingFilter
texture_filter (EmbersFlameGraph *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  GtkNative *native = gtk_widget_get_native (widget);
  GdkSurface *surface = native != NULL ? gtk_native_get_surface (native) : NULL;

  if (surface == NULL || renders_with_cairo (widget) ||
      gdk_surface_get_scale (surface) != gtk_widget_get_scale_factor (widget))
    return GSK_SCALING_FILTER_LINEAR;
  return GSK_SCALING_FILTER_NEAREST;
}

static void
append_texture (GtkSnapshot           *snapshot,
                GdkTexture            *texture,
                GskScalingFilter       filter,
                const graphene_rect_t *bounds)
{
  if (filter == GSK_SCALING_FILTER_LINEAR)
    gtk_snapshot_append_texture (snapshot, texture, bounds);
  else
    gtk_snapshot_append_scaled_texture (snapshot, texture, filter, bounds);
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
  GskScalingFilter filter = texture_filter (self);
  gboolean same_frames;

  if (embers_flame_graph_paint_is_current (self, paint) || self->layout == NULL)
    {
      append_texture (snapshot, paint->texture, filter, &bounds);
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
          append_texture (snapshot, paint->texture, filter, &bounds);
          return;
        }
      graphene_rect_init (&bounds, dx, dy, paint->width * scale, paint->height);
      gtk_snapshot_append_scaled_texture (snapshot, paint->texture, filter, &bounds);
      return;
    }
  /* Other frames: the last paint where it was, until the new one is there */
  append_texture (snapshot, paint->texture, filter, &bounds);
}

void
embers_flame_graph_snapshot (GtkWidget   *widget,
                             GtkSnapshot *snapshot)
{
  EmbersFlameGraph *self = EMBERS_FLAME_GRAPH (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  double offset;

  if (width <= 0 || height <= 0)
    return;

  embers_flame_graph_ensure_style (self);
  embers_flame_graph_ensure_layout (self);
  offset = embers_flame_graph_get_y_offset (self);

  if (self->shown == NULL || !embers_flame_graph_paint_is_current (self, self->shown))
    embers_flame_graph_request_paint (self, offset);

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
    append_outline (self, snapshot, embers_flame_graph_find_node (self, self->selected), EMBERS_HIGHLIGHT_SELECTED, offset);
  gtk_snapshot_pop (snapshot);
}

/* Tooltips */

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

gboolean
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
    index = embers_flame_graph_find_node (self, self->selected);
  else
    index = embers_flame_graph_hit_test (self, x, y);
  r = embers_flame_graph_get_rect (self, index);
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
  area.y = (int)floor (embers_layout_rect_y (self->layout, r) + embers_flame_graph_get_y_offset (self));
  area.width = MAX (1, (int)ceil (r->width));
  area.height = (int)embers_layout_get_viewport (self->layout)->row_height;
  gtk_tooltip_set_tip_area (tooltip, &area);
  return TRUE;
}
