/* test-flame-graph.c: the flame graph and top table widgets on a display
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <adwaita.h>

#include "embers-flame-graph.h"
#include "embers-format.h"
#include "embers-render.h"
#include "embers-top.h"
#include "embers-theme.h"
#include "embers-top-table.h"
#include "embers-test-gtk-utils.h"

/* DFS order (children sorted by name):
 *   0 total 40, 1 main 40, 2 a 30, 3 b 20, 4 c 10, 5 d 10 */
static const char folded[] =
  "main;a;b 20\n"
  "main;a;c 10\n"
  "main;d 10\n";

enum { N_TOTAL, N_MAIN, N_A, N_B, N_C, N_D };

typedef struct
{
  GtkWidget        *window;
  EmbersFlameGraph *graph;
  EmbersProfile    *profile;
} Fixture;

static EmbersProfile *
load_folded (void)
{
  g_autoptr(GBytes) bytes = g_bytes_new_static (folded, sizeof folded - 1);
  g_autoptr(GError) error = NULL;
  EmbersProfile *profile = embers_profile_load_bytes (bytes, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (profile);
  g_assert_cmpuint (embers_profile_get_n_nodes (profile), ==, 6);
  g_assert_cmpstr (embers_profile_node_name_str (profile, N_B), ==, "b");
  g_assert_cmpstr (embers_profile_node_name_str (profile, N_D), ==, "d");
  return profile;
}

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  GtkWidget *scroller = gtk_scrolled_window_new ();

  f->profile = load_folded ();
  f->window = gtk_window_new ();
  f->graph = EMBERS_FLAME_GRAPH (embers_flame_graph_new ());
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), GTK_WIDGET (f->graph));
  gtk_window_set_child (GTK_WINDOW (f->window), scroller);
  gtk_window_set_default_size (GTK_WINDOW (f->window), 800, 300);
  embers_flame_graph_set_profile (f->graph, f->profile);
  gtk_window_present (GTK_WINDOW (f->window));

  embers_test_wait_size (GTK_WIDGET (f->graph), 700, 1);
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (f->graph)), >=, 700);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  GtkWidget *graph = GTK_WIDGET (f->graph);

  /* Nothing keeps it once what it left to run has run (a paint still on
   * the worker holds the graph until it is done): then it is gone */
  g_object_ref (graph);
  gtk_window_destroy (GTK_WINDOW (f->window));
  embers_test_assert_finalize (graph);
  g_assert_finalize_object (f->profile);
}

/* The graph has its paint of what it shows now; if not, asks a frame for
 * it (the paint is started by a frame) */
static gboolean
painted (gpointer widget)
{
  if (embers_flame_graph_has_paint_cache (EMBERS_FLAME_GRAPH (widget)))
    return TRUE;
  gtk_widget_queue_draw (widget);
  return FALSE;
}

/* Centre of the rect showing @node, in widget coordinates */
static void
node_center (Fixture *f,
             guint32  node,
             double  *x,
             double  *y)
{
  EmbersLayout *layout = embers_flame_graph_get_layout (f->graph);
  int index = embers_layout_find_node (layout, node);
  const EmbersRect *r;

  g_assert_cmpint (index, >=, 0);
  r = embers_layout_get_rect (layout, index);
  *x = r->x + r->width / 2;
  *y = embers_layout_rect_y (layout, r) + embers_layout_get_viewport (layout)->row_height / 2;
}

typedef struct
{
  guint8 *data;
  gsize   stride;
  int     width;
  int     height;
} Pixels;

static void
pixels_clear (Pixels *p)
{
  g_free (p->data);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Pixels, pixels_clear)

/* Renders the widget's snapshot with the window's renderer and reads the
 * pixels back */
static void
render (GtkWidget *widget,
        Pixels    *pixels)
{
  g_autoptr(GdkTexture) texture = NULL;
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  GskRenderNode *node;
  GskRenderer *renderer;
  int w = gtk_widget_get_width (widget);
  int h = gtk_widget_get_height (widget);

  /* A flame graph paints on a worker thread: wait for its paint of what
   * it shows now (a frame asks for it) */
  if (EMBERS_IS_FLAME_GRAPH (widget))
    embers_test_wait_until (painted, widget, "the flame graph's paint of what it shows");

  /* What the widget gives GTK to draw */
  GTK_WIDGET_GET_CLASS (widget)->snapshot (widget, snapshot);
  node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);
  renderer = gtk_native_get_renderer (gtk_widget_get_native (widget));
  texture = gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, w, h));
  gsk_render_node_unref (node);

  pixels->width = gdk_texture_get_width (texture);
  pixels->height = gdk_texture_get_height (texture);
  pixels->stride = pixels->width * 4;
  pixels->data = g_malloc (pixels->stride * pixels->height);
  gdk_texture_download (texture, pixels->data, pixels->stride);
}

/* Renders what the widget shows now, without waiting for a paint: after a
 * zoom or pan step, the last paint moved and scaled (the paint of the new
 * view is on the worker, and its result can only arrive in a main loop
 * iteration) */
static void
render_now (GtkWidget *widget,
            Pixels    *pixels)
{
  g_autoptr(GdkTexture) texture = NULL;
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  GskRenderNode *node;
  GskRenderer *renderer;

  GTK_WIDGET_GET_CLASS (widget)->snapshot (widget, snapshot);
  node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);
  renderer = gtk_native_get_renderer (gtk_widget_get_native (widget));
  texture = gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, gtk_widget_get_width (widget),
                                                                             gtk_widget_get_height (widget)));
  gsk_render_node_unref (node);

  pixels->width = gdk_texture_get_width (texture);
  pixels->height = gdk_texture_get_height (texture);
  pixels->stride = pixels->width * 4;
  pixels->data = g_malloc (pixels->stride * pixels->height);
  gdk_texture_download (texture, pixels->data, pixels->stride);
}

static guint32
pixel (const Pixels *p,
       double        x,
       double        y)
{
  int px = CLAMP ((int)x, 0, p->width - 1);
  int py = CLAMP ((int)y, 0, p->height - 1);
  const guint8 *d = p->data + py * p->stride + px * 4;

  return (guint32)d[0] << 24 | (guint32)d[1] << 16 | (guint32)d[2] << 8 | d[3];
}

static void
test_paint (Fixture       *f,
            gconstpointer  data)
{
  g_auto(Pixels) pixels = { 0 };
  g_autoptr(GHashTable) colours = g_hash_table_new (NULL, NULL);
  EmbersLayout *layout = embers_flame_graph_get_layout (f->graph);
  double x, y, below;

  g_assert_nonnull (layout);
  g_assert_cmpuint (embers_layout_get_n_rows (layout), ==, 4);
  /* the vertical adjustment covers every row */
  g_assert_cmpfloat (gtk_adjustment_get_upper (gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (f->graph))),
                     >=, embers_layout_get_height (layout));

  render (GTK_WIDGET (f->graph), &pixels);
  g_assert_true (embers_flame_graph_has_paint_cache (f->graph));

  /* Frames are painted in several colours, over a background */
  for (int px = 0; px < pixels.width; px += 3)
    for (int row = 0; row < 4; row++)
      g_hash_table_add (colours, GUINT_TO_POINTER (pixel (&pixels, px, row * EMBERS_LAYOUT_ROW_HEIGHT + 3)));
  g_assert_cmpuint (g_hash_table_size (colours), >=, 3);

  node_center (f, N_B, &x, &y);
  below = 4 * EMBERS_LAYOUT_ROW_HEIGHT + 20;
  g_assert_cmpuint (pixel (&pixels, x, y), !=, pixel (&pixels, x, below));

  /* The cache survives hover and selection (overlays) ... */
  embers_flame_graph_set_selected_node (f->graph, N_B);
  g_assert_true (embers_flame_graph_has_paint_cache (f->graph));
  /* ... but not a new colour scheme */
  embers_flame_graph_set_color_scheme (f->graph, EMBERS_COLOR_SCHEME_PLAIN);
  g_assert_false (embers_flame_graph_has_paint_cache (f->graph));
}

/* The first texture or texture-scale node in @node's tree */
static GskRenderNode *
find_texture_node (GskRenderNode *node)
{
  switch (gsk_render_node_get_node_type (node))
    {
    case GSK_TEXTURE_NODE:
    case GSK_TEXTURE_SCALE_NODE:
      return node;
    case GSK_CONTAINER_NODE:
      for (guint i = 0; i < gsk_container_node_get_n_children (node); i++)
        {
          GskRenderNode *found = find_texture_node (gsk_container_node_get_child (node, i));

          if (found != NULL)
            return found;
        }
      return NULL;
    case GSK_CLIP_NODE:
      return find_texture_node (gsk_clip_node_get_child (node));
    case GSK_TRANSFORM_NODE:
      return find_texture_node (gsk_transform_node_get_child (node));
    default:
      return NULL;
    }
}

/* The paint is drawn at one texel per device pixel. A GL or Vulkan
 * renderer samples it with the nearest filter there, which gives the
 * same picture as the linear one at a third less work for software GL
 * (bench-window --floor); GSK's cairo renderer, and a surface whose
 * scale is not the widget's, get the plain texture node. The pixels are
 * test_paint()'s. */
static void
test_texture_filter (Fixture       *f,
                     gconstpointer  data)
{
  GtkWidget *widget = GTK_WIDGET (f->graph);
  GtkNative *native = gtk_widget_get_native (widget);
  GtkSnapshot *snapshot;
  g_autoptr(GskRenderNode) node = NULL;
  GskRenderNode *texture_node;
  graphene_rect_t bounds;
  gboolean nearest;

  embers_test_wait_until (painted, widget, "the flame graph's paint of what it shows");
  snapshot = gtk_snapshot_new ();
  GTK_WIDGET_GET_CLASS (widget)->snapshot (widget, snapshot);
  node = gtk_snapshot_free_to_node (snapshot);
  texture_node = find_texture_node (node);
  g_assert_nonnull (texture_node);
  gsk_render_node_get_bounds (texture_node, &bounds);
  g_assert_cmpfloat (bounds.origin.x, ==, 0);
  g_assert_cmpfloat (bounds.size.width, ==, gtk_widget_get_width (widget));

  nearest = !GSK_IS_CAIRO_RENDERER (gtk_native_get_renderer (native)) &&
            gdk_surface_get_scale (gtk_native_get_surface (native)) == gtk_widget_get_scale_factor (widget);
  g_test_message ("renderer %s, %s", G_OBJECT_TYPE_NAME (gtk_native_get_renderer (native)),
                  nearest ? "nearest filter" : "texture node");
  if (nearest)
    {
      g_assert_cmpint (gsk_render_node_get_node_type (texture_node), ==, GSK_TEXTURE_SCALE_NODE);
      g_assert_cmpint (gsk_texture_scale_node_get_filter (texture_node), ==, GSK_SCALING_FILTER_NEAREST);
    }
  else
    g_assert_cmpint (gsk_render_node_get_node_type (texture_node), ==, GSK_TEXTURE_NODE);
}

static gboolean
same_colour (guint32 a,
             guint32 b,
             int     tolerance)
{
  for (int shift = 0; shift < 32; shift += 8)
    if (ABS ((int)((a >> shift) & 0xff) - (int)((b >> shift) & 0xff)) > tolerance)
      return FALSE;
  return TRUE;
}

/* After a zoom or pan step, the first frame shows the last paint moved
 * and scaled to where the new view puts it (a pan by whole pixels, not
 * blurred), and the sharp paint that follows looks like it */
static void
test_interim (Fixture       *f,
              gconstpointer  data)
{
  g_auto(Pixels) zoomed = { 0 };
  g_auto(Pixels) panned = { 0 };
  g_auto(Pixels) sharp = { 0 };
  g_auto(Pixels) scaled = { 0 };
  GtkAdjustment *hadj = gtk_scrollable_get_hadjustment (GTK_SCROLLABLE (f->graph));
  double rh = EMBERS_LAYOUT_ROW_HEIGHT;
  int w = gtk_widget_get_width (GTK_WIDGET (f->graph));
  guint checked = 0, differ = 0;

  embers_flame_graph_zoom (f->graph, 4.0, 0.0);
  render (GTK_WIDGET (f->graph), &zoomed);

  /* A pan of 100 px: the paint moved left by exactly 100 px */
  gtk_adjustment_set_value (hadj, gtk_adjustment_get_value (hadj) + 100);
  g_assert_false (embers_flame_graph_has_paint_cache (f->graph));
  render_now (GTK_WIDGET (f->graph), &panned);
  for (int row = 0; row < 3; row++)
    for (int x = 0; x < w - 100; x++)
      {
        double y = row * rh + rh / 2;

        if (!same_colour (pixel (&panned, x, y), pixel (&zoomed, x + 100, y), 2))
          g_error ("the panned paint differs at %d,%g: %08x, was %08x at %d", x, y,
                   pixel (&panned, x, y), pixel (&zoomed, x + 100, y), x + 100);
      }

  /* The sharp paint of the panned view shows the same frames (above the
   * labels, which move to stay in view) */
  render (GTK_WIDGET (f->graph), &sharp);
  for (int row = 0; row < 3; row++)
    for (int x = 0; x < w - 100; x++)
      {
        double y = row * rh + 3;

        checked++;
        if (!same_colour (pixel (&panned, x, y), pixel (&sharp, x, y), 2))
          differ++;
      }
  g_assert_cmpuint (differ, <, checked / 50);

  /* A zoom step around the middle: the paint scaled by 1.25 around it.
   * Checked where the sharp paint is one colour two pixels around, away
   * from edges that the scaling blurs */
  embers_flame_graph_zoom (f->graph, 1.25, 0.5);
  g_assert_false (embers_flame_graph_has_paint_cache (f->graph));
  render_now (GTK_WIDGET (f->graph), &scaled);
  checked = differ = 0;
  for (int row = 0; row < 3; row++)
    for (int x = 4; x < w - 4; x++)
      {
        double y = row * rh + rh / 2;
        double from = w / 2.0 + (x + 0.5 - w / 2.0) / 1.25;
        guint32 c = pixel (&sharp, from, y);

        if (!same_colour (pixel (&sharp, from - 2, y), c, 0) || !same_colour (pixel (&sharp, from + 2, y), c, 0))
          continue;
        checked++;
        if (!same_colour (pixel (&scaled, x, y), c, 8))
          differ++;
      }
  g_assert_cmpuint (checked, >, (guint)w);
  g_assert_cmpuint (differ, <, checked / 100);
}

static guint32
rgba_pixel (const GdkRGBA *c)
{
  /* As gdk_texture_download() gives it: B, G, R, A in memory */
  return (guint32)lround (c->blue * 255) << 24 | (guint32)lround (c->green * 255) << 16 |
         (guint32)lround (c->red * 255) << 8 | (guint32)lround (c->alpha * 255);
}

/* @after differs from @plain only on the outline of @node's frame, in
 * @colour: within 3 px of its edges, and on some pixels of each edge */
static void
assert_outline (Fixture       *f,
                const Pixels  *plain,
                const Pixels  *after,
                guint32        node,
                const GdkRGBA *colour)
{
  EmbersLayout *layout = embers_flame_graph_get_layout (f->graph);
  const EmbersRect *r = embers_layout_get_rect (layout, embers_layout_find_node (layout, node));
  double x0 = r->x, x1 = r->x + r->width;
  double y0 = embers_layout_rect_y (layout, r), y1 = y0 + embers_layout_get_viewport (layout)->row_height;
  guint changed = 0, left = 0, right = 0, top = 0, bottom = 0;

  g_assert_cmpint (plain->width, ==, after->width);
  g_assert_cmpint (plain->height, ==, after->height);
  for (int y = 0; y < after->height; y++)
    for (int x = 0; x < after->width; x++)
      {
        gboolean near_left = fabs (x + 0.5 - x0) < 3, near_right = fabs (x + 0.5 - x1) < 3;
        gboolean near_top = fabs (y + 0.5 - y0) < 3, near_bottom = fabs (y + 0.5 - y1) < 3;
        gboolean inside_x = x + 0.5 > x0 - 3 && x + 0.5 < x1 + 3;
        gboolean inside_y = y + 0.5 > y0 - 3 && y + 0.5 < y1 + 3;

        if (same_colour (pixel (plain, x, y), pixel (after, x, y), 2))
          continue;
        changed++;
        if (!((inside_y && (near_left || near_right)) || (inside_x && (near_top || near_bottom))))
          g_error ("a pixel off the outline changed at %d,%d: %08x, was %08x", x, y,
                   pixel (after, x, y), pixel (plain, x, y));
        if (!same_colour (pixel (after, x, y), rgba_pixel (colour), 2))
          g_error ("the outline at %d,%d is %08x, not %08x", x, y, pixel (after, x, y), rgba_pixel (colour));
        left += near_left && inside_y;
        right += near_right && inside_y;
        top += near_top && inside_x;
        bottom += near_bottom && inside_x;
      }
  g_assert_cmpuint (changed, >, 0);
  g_assert_cmpuint (left, >, 0);
  g_assert_cmpuint (right, >, 0);
  g_assert_cmpuint (top, >, 0);
  g_assert_cmpuint (bottom, >, 0);
}

/* The overlays: the selection outlined in the accent colour, the hovered
 * frame and a highlighted function's frames in the text colour; nothing
 * else changes, and the graph is not repainted for them */
static void
test_outlines (Fixture       *f,
               gconstpointer  data)
{
  g_auto(Pixels) plain = { 0 };
  g_auto(Pixels) selected = { 0 };
  g_auto(Pixels) highlighted = { 0 };
  g_auto(Pixels) hovered = { 0 };
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (GTK_WIDGET (f->graph));
  GtkEventController *motion = NULL;
  GdkRGBA accent, fg;
  double x, y;

  embers_theme_get_color (GTK_WIDGET (f->graph), EMBERS_THEME_ACCENT, &accent);
  embers_theme_get_color (GTK_WIDGET (f->graph), EMBERS_THEME_VIEW_FOREGROUND, &fg);
  render (GTK_WIDGET (f->graph), &plain);

  embers_flame_graph_set_selected_node (f->graph, N_B);
  render (GTK_WIDGET (f->graph), &selected);
  assert_outline (f, &plain, &selected, N_B, &accent);
  embers_flame_graph_set_selected_node (f->graph, EMBERS_NODE_NONE);

  embers_flame_graph_set_highlight_name (f->graph, "c");
  render (GTK_WIDGET (f->graph), &highlighted);
  assert_outline (f, &plain, &highlighted, N_C, &fg);
  embers_flame_graph_set_highlight_name (f->graph, NULL);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) c = g_list_model_get_item (controllers, i);

      if (GTK_IS_EVENT_CONTROLLER_MOTION (c))
        motion = GTK_EVENT_CONTROLLER (c);
    }
  g_assert_nonnull (motion);
  node_center (f, N_D, &x, &y);
  g_signal_emit_by_name (motion, "motion", x, y);
  g_assert_cmpuint (embers_flame_graph_get_hover_node (f->graph), ==, N_D);
  render (GTK_WIDGET (f->graph), &hovered);
  assert_outline (f, &plain, &hovered, N_D, &fg);
  /* The overlays never repaint the graph */
  g_assert_true (embers_flame_graph_has_paint_cache (f->graph));
}

static void
test_click_focus (Fixture       *f,
                  gconstpointer  data)
{
  double x, y;

  g_assert_cmpuint (embers_flame_graph_get_focus_node (f->graph), ==, 0);
  g_assert_false (embers_flame_graph_get_can_go_back (f->graph));

  node_center (f, N_A, &x, &y);
  g_assert_true (embers_flame_graph_activate_at (f->graph, x, y));
  g_assert_cmpuint (embers_flame_graph_get_focus_node (f->graph), ==, N_A);
  g_assert_cmpuint (embers_flame_graph_get_selected_node (f->graph), ==, N_A);
  g_assert_true (embers_flame_graph_get_can_go_back (f->graph));

  /* The focused frame now spans the width; its ancestors stay above */
  {
    EmbersLayout *layout = embers_flame_graph_get_layout (f->graph);
    const EmbersRect *r = embers_layout_get_rect (layout, embers_layout_find_node (layout, N_A));

    g_assert_cmpfloat (r->x, ==, 0);
    g_assert_cmpfloat (r->width, ==, gtk_widget_get_width (GTK_WIDGET (f->graph)));
    g_assert_cmpint (embers_layout_find_node (layout, N_MAIN), >=, 0);
    g_assert_cmpint (embers_layout_find_node (layout, N_D), <, 0);
  }

  /* Nothing under the pointer: nothing happens */
  g_assert_false (embers_flame_graph_activate_at (f->graph, 10, 280));
  g_assert_cmpuint (embers_flame_graph_get_focus_node (f->graph), ==, N_A);

  /* History */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->graph), "flame.back", NULL));
  g_assert_cmpuint (embers_flame_graph_get_focus_node (f->graph), ==, 0);
  g_assert_true (embers_flame_graph_get_can_go_forward (f->graph));
  embers_flame_graph_go_forward (f->graph);
  g_assert_cmpuint (embers_flame_graph_get_focus_node (f->graph), ==, N_A);

  /* Clicking an ancestor row zooms out to it */
  node_center (f, N_MAIN, &x, &y);
  g_assert_true (embers_flame_graph_activate_at (f->graph, x, y));
  g_assert_cmpuint (embers_flame_graph_get_focus_node (f->graph), ==, N_MAIN);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->graph), "flame.reset", NULL));
  g_assert_cmpuint (embers_flame_graph_get_focus_node (f->graph), ==, 0);
}

static void
assert_announced (Fixture *f,
                  guint32  node)
{
  g_autofree char *expected = embers_render_accessible_text (f->profile, 0, node);
  g_autofree char *failure = NULL;

  failure = gtk_test_accessible_check_property (GTK_ACCESSIBLE (f->graph),
                                                GTK_ACCESSIBLE_PROPERTY_LABEL, expected);
  g_assert_null (failure);
}

static void
test_keyboard (Fixture       *f,
               gconstpointer  data)
{
  g_assert_true (gtk_widget_get_focusable (GTK_WIDGET (f->graph)));
  g_assert_true (gtk_accessible_get_accessible_role (GTK_ACCESSIBLE (f->graph)) == GTK_ACCESSIBLE_ROLE_GROUP);
  g_assert_null (gtk_test_accessible_check_property (GTK_ACCESSIBLE (f->graph),
                                                     GTK_ACCESSIBLE_PROPERTY_LABEL, "Flame graph"));

  /* The first move selects the focused frame */
  g_assert_true (embers_flame_graph_move_selection (f->graph, EMBERS_NEIGHBOR_CHILD));
  g_assert_cmpuint (embers_flame_graph_get_selected_node (f->graph), ==, N_TOTAL);
  g_assert_true (embers_flame_graph_move_selection (f->graph, EMBERS_NEIGHBOR_CHILD));
  g_assert_cmpuint (embers_flame_graph_get_selected_node (f->graph), ==, N_MAIN);
  /* Down follows the widest child: the hot path */
  g_assert_true (embers_flame_graph_move_selection (f->graph, EMBERS_NEIGHBOR_CHILD));
  g_assert_cmpuint (embers_flame_graph_get_selected_node (f->graph), ==, N_A);
  g_assert_true (embers_flame_graph_move_selection (f->graph, EMBERS_NEIGHBOR_CHILD));
  g_assert_cmpuint (embers_flame_graph_get_selected_node (f->graph), ==, N_B);
  assert_announced (f, N_B);
  g_assert_false (embers_flame_graph_move_selection (f->graph, EMBERS_NEIGHBOR_CHILD));

  g_assert_true (embers_flame_graph_move_selection (f->graph, EMBERS_NEIGHBOR_NEXT));
  g_assert_cmpuint (embers_flame_graph_get_selected_node (f->graph), ==, N_C);
  assert_announced (f, N_C);
  g_assert_true (embers_flame_graph_move_selection (f->graph, EMBERS_NEIGHBOR_PREVIOUS));
  g_assert_cmpuint (embers_flame_graph_get_selected_node (f->graph), ==, N_B);
  g_assert_true (embers_flame_graph_move_selection (f->graph, EMBERS_NEIGHBOR_PARENT));
  g_assert_cmpuint (embers_flame_graph_get_selected_node (f->graph), ==, N_A);
  g_assert_true (embers_flame_graph_move_selection (f->graph, EMBERS_NEIGHBOR_NEXT));
  g_assert_cmpuint (embers_flame_graph_get_selected_node (f->graph), ==, N_D);

  /* Enter focuses the selection */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->graph), "flame.focus-selected", NULL));
  g_assert_cmpuint (embers_flame_graph_get_focus_node (f->graph), ==, N_D);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->graph), "flame.back", NULL));
  g_assert_cmpuint (embers_flame_graph_get_focus_node (f->graph), ==, 0);
}

static void
test_zoom (Fixture       *f,
           gconstpointer  data)
{
  GtkAdjustment *hadj = gtk_scrollable_get_hadjustment (GTK_SCROLLABLE (f->graph));
  double width = gtk_widget_get_width (GTK_WIDGET (f->graph));
  double x0, x1;
  gboolean zoomed;

  embers_flame_graph_zoom (f->graph, 2.0, 0.5);
  g_object_get (f->graph, "zoomed", &zoomed, NULL);
  g_assert_true (zoomed);
  embers_flame_graph_get_visible_range (f->graph, &x0, &x1);
  g_assert_cmpfloat_with_epsilon (x0, 0.25, 1e-9);
  g_assert_cmpfloat_with_epsilon (x1, 0.75, 1e-9);
  embers_test_settle ();
  g_assert_cmpfloat_with_epsilon (gtk_adjustment_get_upper (hadj), width * 2, 1e-6);
  g_assert_cmpfloat_with_epsilon (gtk_adjustment_get_value (hadj), width * 0.5, 1e-6);

  /* Panning is scrolling the horizontal adjustment */
  gtk_adjustment_set_value (hadj, 0);
  embers_flame_graph_get_visible_range (f->graph, &x0, &x1);
  g_assert_cmpfloat_with_epsilon (x0, 0.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (x1, 0.5, 1e-9);

  /* Zooming out never leaves [0, 1] */
  embers_flame_graph_zoom (f->graph, 0.1, 1.0);
  embers_flame_graph_get_visible_range (f->graph, &x0, &x1);
  g_assert_cmpfloat (x0, ==, 0.0);
  g_assert_cmpfloat (x1, ==, 1.0);
  g_object_get (f->graph, "zoomed", &zoomed, NULL);
  g_assert_false (zoomed);

  /* A node hidden by the focus is revealed by focusing up */
  embers_flame_graph_set_focus_node (f->graph, N_D);
  g_assert_cmpint (embers_layout_find_node (embers_flame_graph_get_layout (f->graph), N_C), <, 0);
  embers_flame_graph_reveal_node (f->graph, N_C);
  g_assert_cmpuint (embers_flame_graph_get_selected_node (f->graph), ==, N_C);
  g_assert_cmpint (embers_layout_find_node (embers_flame_graph_get_layout (f->graph), N_C), >=, 0);
}

static void
test_search (Fixture       *f,
             gconstpointer  data)
{
  g_auto(Pixels) before = { 0 };
  g_auto(Pixels) after = { 0 };
  g_autoptr(EmbersSearch) search = NULL;
  g_autoptr(EmbersSearch) other = NULL;
  g_autoptr(EmbersProfile) other_profile = load_folded ();
  double bx, by, dx, dy;

  render (GTK_WIDGET (f->graph), &before);

  search = embers_search_new (f->profile, "b", EMBERS_SEARCH_DEFAULT, NULL);
  embers_flame_graph_set_search (f->graph, search);
  g_assert_true (embers_flame_graph_get_search (f->graph) == search);
  g_assert_false (embers_flame_graph_has_paint_cache (f->graph));
  render (GTK_WIDGET (f->graph), &after);

  /* The match keeps its colour, the others are dimmed */
  node_center (f, N_B, &bx, &by);
  node_center (f, N_D, &dx, &dy);
  g_assert_cmpuint (pixel (&before, dx + 5, dy - 5), !=, pixel (&after, dx + 5, dy - 5));
  g_assert_cmpuint (pixel (&before, bx + 5, by - 5), ==, pixel (&after, bx + 5, by - 5));

  /* A search over another profile is refused */
  other = embers_search_new (other_profile, "b", EMBERS_SEARCH_DEFAULT, NULL);
  embers_flame_graph_set_search (f->graph, other);
  g_assert_null (embers_flame_graph_get_search (f->graph));
}

static void
on_page_action (GSimpleAction *action,
                GVariant      *param,
                gpointer       user_data)
{
  char **received = user_data;

  g_free (*received);
  if (param != NULL && !g_variant_is_of_type (param, G_VARIANT_TYPE_STRING))
    {
      g_autofree char *printed = g_variant_print (param, FALSE);

      *received = g_strdup_printf ("%s%s", g_action_get_name (G_ACTION (action)), printed);
      return;
    }
  *received = g_strdup_printf ("%s(%s)", g_action_get_name (G_ACTION (action)),
                               param != NULL ? g_variant_get_string (param, NULL) : "");
}

static void
test_context_actions (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(GSimpleActionGroup) group = g_simple_action_group_new ();
  g_autofree char *received = NULL;
  g_autoptr(GSimpleAction) sandwich = g_simple_action_new ("sandwich", G_VARIANT_TYPE_STRING);
  g_autoptr(GSimpleAction) hide = g_simple_action_new ("transform", G_VARIANT_TYPE ("(sas)"));
  g_autoptr(GSimpleAction) merge = g_simple_action_new ("merge-function", G_VARIANT_TYPE_STRING);
  g_autoptr(GSimpleAction) invert = g_simple_action_new ("invert", NULL);
  GdkContentProvider *content;
  GValue value = G_VALUE_INIT;

  g_signal_connect (sandwich, "activate", G_CALLBACK (on_page_action), &received);
  g_signal_connect (hide, "activate", G_CALLBACK (on_page_action), &received);
  g_signal_connect (merge, "activate", G_CALLBACK (on_page_action), &received);
  g_action_map_add_action (G_ACTION_MAP (group), G_ACTION (merge));
  g_signal_connect (invert, "activate", G_CALLBACK (on_page_action), &received);
  g_action_map_add_action (G_ACTION_MAP (group), G_ACTION (sandwich));
  g_action_map_add_action (G_ACTION_MAP (group), G_ACTION (hide));
  g_action_map_add_action (G_ACTION_MAP (group), G_ACTION (invert));
  gtk_widget_insert_action_group (f->window, "page", G_ACTION_GROUP (group));

  /* Nothing selected: the frame actions are off */
  gtk_widget_activate_action (GTK_WIDGET (f->graph), "flame.sandwich", NULL);
  g_assert_null (received);

  embers_flame_graph_set_selected_node (f->graph, N_C);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->graph), "flame.sandwich", NULL));
  g_assert_cmpstr (received, ==, "sandwich(c)");
  /* Hide and Focus on Subtree name the call node by its path */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->graph), "flame.hide-frame", NULL));
  g_assert_cmpstr (received, ==, "transform('hide', ['main', 'a', 'c'])");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->graph), "flame.focus-subtree", NULL));
  g_assert_cmpstr (received, ==, "transform('focus-subtree', ['main', 'a', 'c'])");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->graph), "flame.merge-function", NULL));
  g_assert_cmpstr (received, ==, "merge-function(c)");

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->graph), "flame.copy-name", NULL));
  content = gdk_clipboard_get_content (gtk_widget_get_clipboard (GTK_WIDGET (f->graph)));
  g_assert_nonnull (content);
  g_value_init (&value, G_TYPE_STRING);
  g_assert_true (gdk_content_provider_get_value (content, &value, NULL));
  g_assert_cmpstr (g_value_get_string (&value), ==, "c");
  g_value_unset (&value);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->graph), "flame.copy-stack", NULL));
  content = gdk_clipboard_get_content (gtk_widget_get_clipboard (GTK_WIDGET (f->graph)));
  g_value_init (&value, G_TYPE_STRING);
  g_assert_true (gdk_content_provider_get_value (content, &value, NULL));
  g_assert_cmpstr (g_value_get_string (&value), ==, "main\na\nc");
  g_value_unset (&value);

  gtk_widget_insert_action_group (f->window, "page", NULL);
}

static void
test_top_table (void)
{
  g_autoptr(EmbersProfile) profile = load_folded ();
  g_autoptr(GArray) rows = embers_top_compute (profile, 0);
  g_autoptr(EmbersSearch) search = embers_search_new (profile, "^[bc]$", EMBERS_SEARCH_REGEX, NULL);
  GtkWidget *window = gtk_window_new ();
  GtkWidget *table = embers_top_table_new ();

  gtk_window_set_child (GTK_WINDOW (window), table);
  gtk_window_present (GTK_WINDOW (window));

  embers_top_table_set_data (EMBERS_TOP_TABLE (table), profile, 0, rows);
  /* main, a, b, c, d */
  g_assert_cmpuint (embers_top_table_get_n_rows (EMBERS_TOP_TABLE (table)), ==, 5);

  embers_top_table_select_name (EMBERS_TOP_TABLE (table), "a");
  g_assert_cmpstr (embers_top_table_get_selected_name (EMBERS_TOP_TABLE (table)), ==, "a");

  embers_top_table_set_search (EMBERS_TOP_TABLE (table), search);
  g_assert_cmpuint (embers_top_table_get_n_rows (EMBERS_TOP_TABLE (table)), ==, 2);
  /* The selected row was filtered out */
  g_assert_null (embers_top_table_get_selected_name (EMBERS_TOP_TABLE (table)));
  embers_top_table_select_name (EMBERS_TOP_TABLE (table), "c");
  g_assert_cmpstr (embers_top_table_get_selected_name (EMBERS_TOP_TABLE (table)), ==, "c");

  embers_top_table_set_search (EMBERS_TOP_TABLE (table), NULL);
  g_assert_cmpuint (embers_top_table_get_n_rows (EMBERS_TOP_TABLE (table)), ==, 5);
  embers_test_settle ();

  gtk_window_destroy (GTK_WINDOW (window));
  embers_test_drain ();
}

int
main (int   argc,
      char *argv[])
{
  embers_test_gtk_init (&argc, &argv);

  g_test_add ("/embers/flame-graph/paint", Fixture, NULL, fixture_setup, test_paint, fixture_teardown);
  g_test_add ("/embers/flame-graph/texture-filter", Fixture, NULL, fixture_setup, test_texture_filter, fixture_teardown);
  g_test_add ("/embers/flame-graph/outlines", Fixture, NULL, fixture_setup, test_outlines, fixture_teardown);
  g_test_add ("/embers/flame-graph/interim", Fixture, NULL, fixture_setup, test_interim, fixture_teardown);
  g_test_add ("/embers/flame-graph/click-focus", Fixture, NULL, fixture_setup, test_click_focus, fixture_teardown);
  g_test_add ("/embers/flame-graph/keyboard", Fixture, NULL, fixture_setup, test_keyboard, fixture_teardown);
  g_test_add ("/embers/flame-graph/zoom", Fixture, NULL, fixture_setup, test_zoom, fixture_teardown);
  g_test_add ("/embers/flame-graph/search", Fixture, NULL, fixture_setup, test_search, fixture_teardown);
  g_test_add ("/embers/flame-graph/context-actions", Fixture, NULL, fixture_setup, test_context_actions, fixture_teardown);
  g_test_add_func ("/embers/top-table/filter-select", test_top_table);

  return g_test_run ();
}
