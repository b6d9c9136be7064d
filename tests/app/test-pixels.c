/* test-pixels.c: what the window draws after each interaction with the
 * flame graph, read back as pixels
 *
 * After each interaction the test waits for the frame that follows it,
 * renders the whole window the way GTK draws it (a child that GTK would
 * skip is missing from the picture too) and checks the flame graph's area:
 * it is not blank, every frame wide enough to sample is painted in the
 * colour the display list gives it, and the focused frame's colour fills
 * the width where it should.
 *
 * It also checks the cause of the blank-after-click that GTK 4.8 showed:
 * nothing may change the graph's adjustments while GTK lays the window out
 * (a scrollbar that comes or goes there queues a resize in the middle of
 * the allocation), and no frame needs a second layout pass.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <adwaita.h>
#include <glib/gstdio.h>

#include "embers-compare-page.h"
#include "embers-profile-page.h"
#include "embers-render.h"
#include "embers-test-gtk-utils.h"
#include "embers-window.h"

typedef struct
{
  EmbersWindow      *window;
  EmbersProfilePage *page;
  GdkFrameClock     *clock;
  gulong             clock_ids[3];
  guint              layouts;            /* layout passes in this frame */
  guint              max_layouts;        /* most in one frame since reset */
  gboolean           in_layout;
  guint              changed_in_layout;  /* graph adjustments changed there */
  GPtrArray         *watched;            /* adjustments being watched */
  char              *tmp_path;
} Fixture;

/* Layout phases and adjustment changes */

static Fixture *current;

static gboolean
layout_begins (GSignalInvocationHint *hint,
               guint                  n_params,
               const GValue          *params,
               gpointer               data)
{
  /* An emission hook runs before the handlers: before GTK lays out */
  if (current != NULL && g_value_get_object (&params[0]) == (GObject *)current->clock)
    {
      current->in_layout = TRUE;
      current->layouts++;
      current->max_layouts = MAX (current->max_layouts, current->layouts);
    }
  return TRUE;
}

static void
on_layout_done (GdkFrameClock *clock,
                Fixture       *f)
{
  f->in_layout = FALSE;
}

static void
on_frame_begins (GdkFrameClock *clock,
                 Fixture       *f)
{
  f->layouts = 0;
}

/* A change of an adjustment while GTK lays out is wrong unless the page
 * size changed with it: a new size is what an allocation gives */
static void
on_adjustment_changed (GtkAdjustment *adjustment,
                       Fixture       *f)
{
  double *page = g_object_get_data (G_OBJECT (adjustment), "embers-test-page");
  double now = gtk_adjustment_get_page_size (adjustment);

  if (f->in_layout && *page == now)
    f->changed_in_layout++;
  *page = now;
}

static void
watch_adjustments (Fixture          *f,
                   EmbersFlameGraph *g)
{
  GtkAdjustment *adjustments[] = {
    gtk_scrollable_get_hadjustment (GTK_SCROLLABLE (g)),
    gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (g)),
  };

  for (guint i = 0; i < G_N_ELEMENTS (adjustments); i++)
    {
      if (adjustments[i] == NULL || g_ptr_array_find (f->watched, adjustments[i], NULL))
        continue;
      g_object_set_data_full (G_OBJECT (adjustments[i]), "embers-test-page",
                              g_memdup2 (&(double) { gtk_adjustment_get_page_size (adjustments[i]) }, sizeof (double)),
                              g_free);
      g_signal_connect (adjustments[i], "changed", G_CALLBACK (on_adjustment_changed), f);
      g_signal_connect (adjustments[i], "value-changed", G_CALLBACK (on_adjustment_changed), f);
      g_ptr_array_add (f->watched, g_object_ref (adjustments[i]));
    }
}

static void
reset_counts (Fixture *f)
{
  f->max_layouts = 0;
  f->changed_in_layout = 0;
}

/* Since the last reset_counts(): one layout pass per frame, and the
 * graph's adjustments left alone while GTK laid the window out */
static void
assert_calm_layout (Fixture    *f,
                    const char *label)
{
  if (f->changed_in_layout != 0)
    g_error ("%s: the flame graph's adjustments changed %u time%s while GTK laid the window out",
             label, f->changed_in_layout, f->changed_in_layout == 1 ? "" : "s");
  if (f->max_layouts > 1)
    g_test_message ("%s: a frame needed %u layout passes (the top table scrolling to a row does that)",
                    label, f->max_layouts);
}

/* Set-up */

static gboolean
page_settled (gpointer data)
{
  EmbersProfilePage *page = data;

  return embers_profile_page_get_state (page) != EMBERS_PAGE_STATE_LOADING &&
         !embers_profile_page_get_busy (page) &&
         !embers_profile_page_get_search_pending (page);
}

/* Every flame graph on screen has painted the view it shows (the graphs
 * paint on a worker thread; until then a frame shows the last paint) */
static gboolean
graphs_painted_in (GtkWidget *widget)
{
  if (!gtk_widget_get_mapped (widget))
    return TRUE;
  if (EMBERS_IS_FLAME_GRAPH (widget) &&
      embers_flame_graph_get_layout (EMBERS_FLAME_GRAPH (widget)) != NULL &&
      !embers_flame_graph_has_paint_cache (EMBERS_FLAME_GRAPH (widget)))
    return FALSE;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (!graphs_painted_in (child))
      return FALSE;
  return TRUE;
}

static gboolean
graphs_painted (gpointer data)
{
  Fixture *f = data;

  return graphs_painted_in (GTK_WIDGET (f->window));
}

/* The frame after a change, and the graphs' paint of it on screen */
static void
wait_drawn (Fixture *f)
{
  embers_test_wait_frame (GTK_WIDGET (f->window));
  embers_test_wait_until (graphs_painted, f, "the flame graphs to paint");
  embers_test_wait_frame (GTK_WIDGET (f->window));
}

static void
wait_page (Fixture           *f,
           EmbersProfilePage *page)
{
  embers_test_wait_until (page_settled, page, "the page to load and finish its transforms");
  wait_drawn (f);
}

static char *
write_deep_profile (void)
{
  /* One branch 60 frames deep (more rows than the window shows) and wide
   * shallow ones: focusing a shallow frame leaves a few rows, and the
   * vertical scrollbar the root needed goes away */
  g_autoptr(GString) folded = g_string_new ("main;deep0");
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("embers-pixels-XXXXXX", &error);
  char *path;

  g_assert_no_error (error);
  for (int i = 1; i < 60; i++)
    g_string_append_printf (folded, ";deep%d", i);
  g_string_append (folded, " 30\n"
                           "main;wide;leaf 40\n"
                           "main;wide;other 20\n"
                           "main;side 10\n");
  path = g_build_filename (dir, "deep.folded", NULL);
  g_assert_true (g_file_set_contents (path, folded->str, folded->len, &error));
  g_assert_no_error (error);
  return path;
}

static GFile *
fixture_file (Fixture    *f,
              const char *name)
{
  g_autofree char *path = NULL;

  if (g_str_equal (name, "deep"))
    {
      f->tmp_path = write_deep_profile ();
      return g_file_new_for_path (f->tmp_path);
    }
  path = g_test_build_filename (G_TEST_DIST, "fixtures", "go", name, NULL);
  return g_file_new_for_path (path);
}

static void
open_window (Fixture *f)
{
  f->watched = g_ptr_array_new_with_free_func (g_object_unref);
  f->window = embers_window_new (NULL);
  gtk_window_set_default_size (GTK_WINDOW (f->window), 1200, 640);
  gtk_window_present (GTK_WINDOW (f->window));
  embers_test_wait_size (GTK_WIDGET (f->window), 1000, 500);

  current = f;
  f->clock = gtk_widget_get_frame_clock (GTK_WIDGET (f->window));
  f->clock_ids[0] = g_signal_connect (f->clock, "update", G_CALLBACK (on_frame_begins), f);
  f->clock_ids[1] = g_signal_connect_after (f->clock, "layout", G_CALLBACK (on_layout_done), f);
  f->clock_ids[2] = g_signal_add_emission_hook (g_signal_lookup ("layout", GDK_TYPE_FRAME_CLOCK), 0,
                                                layout_begins, NULL, NULL);
}

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(GFile) file = NULL;

  open_window (f);
  file = fixture_file (f, data != NULL ? data : "cpu-labels.pb.gz");
  f->page = embers_window_open_file (f->window, file);
  wait_page (f, f->page);
  g_assert_cmpuint (embers_profile_page_get_state (f->page), ==, EMBERS_PAGE_STATE_READY);
  watch_adjustments (f, embers_profile_page_get_flame_graph (f->page));
}

/* A window with no tab */
static void
window_setup (Fixture       *f,
              gconstpointer  data)
{
  open_window (f);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  GtkWidget *window = GTK_WIDGET (f->window);

  g_signal_handler_disconnect (f->clock, f->clock_ids[0]);
  g_signal_handler_disconnect (f->clock, f->clock_ids[1]);
  g_signal_remove_emission_hook (g_signal_lookup ("layout", GDK_TYPE_FRAME_CLOCK), f->clock_ids[2]);
  current = NULL;
  for (guint i = 0; i < f->watched->len; i++)
    g_signal_handlers_disconnect_by_data (g_ptr_array_index (f->watched, i), f);
  g_clear_pointer (&f->watched, g_ptr_array_unref);

  g_object_add_weak_pointer (G_OBJECT (window), (gpointer *)&window);
  gtk_window_destroy (GTK_WINDOW (f->window));
  embers_test_drain ();
  g_assert_null (window);

  if (f->tmp_path != NULL)
    {
      g_autofree char *dir = g_path_get_dirname (f->tmp_path);

      g_remove (f->tmp_path);
      g_rmdir (dir);
      g_free (f->tmp_path);
    }
}

/* Reading the picture */

static guint32
find_node (EmbersProfile *profile,
           const char    *name)
{
  for (guint32 i = 0; i < embers_profile_get_n_nodes (profile); i++)
    if (g_str_equal (embers_profile_node_name_str (profile, i), name))
      return i;
  g_error ("no frame %s", name);
}

/* The node @depth levels down the hot path from the root */
static guint32
hot_node (EmbersProfile *profile,
          guint          depth)
{
  guint32 node = 0;

  for (guint i = 0; i < depth; i++)
    {
      guint32 best = EMBERS_NODE_NONE;
      gint64 best_value = -1;

      for (guint32 c = node + 1; c < embers_profile_node_end (profile, node); c = embers_profile_node_end (profile, c))
        if (embers_profile_node_total (profile, 0, c) > best_value)
          {
            best = c;
            best_value = embers_profile_node_total (profile, 0, c);
          }
      if (best == EMBERS_NODE_NONE)
        break;
      node = best;
    }
  return node;
}

/* What can be seen of @g: its scrolled window's area, in the window */
static graphene_rect_t
visible_area (Fixture          *f,
              EmbersFlameGraph *g)
{
  GtkWidget *scroller = gtk_widget_get_ancestor (GTK_WIDGET (g), GTK_TYPE_SCROLLED_WINDOW);

  return embers_test_bounds (scroller != NULL ? scroller : GTK_WIDGET (g), GTK_WIDGET (f->window));
}

/* @node's rectangle in the window, when laid out */
static gboolean
node_area (Fixture          *f,
           EmbersFlameGraph *g,
           guint32           node,
           graphene_rect_t  *out)
{
  graphene_rect_t r;
  graphene_point_t p;

  if (!embers_flame_graph_get_node_area (g, node, &r))
    return FALSE;
  g_assert_true (gtk_widget_compute_point (GTK_WIDGET (g), GTK_WIDGET (f->window), &r.origin, &p));
  *out = GRAPHENE_RECT_INIT (p.x, p.y, r.size.width, r.size.height);
  return TRUE;
}

static void
save_failure (const EmbersTestPixels *pixels,
              const char             *label,
              char                  **path)
{
  g_autofree char *name = g_strdup_printf ("pixels-%s.png", label);

  *path = g_build_filename (g_getenv ("G_TEST_BUILDDIR") ? g_getenv ("G_TEST_BUILDDIR") : ".", name, NULL);
  embers_test_pixels_save (pixels, *path);
}

static gboolean
close_color (guint32 a,
             guint32 b)
{
  for (int shift = 0; shift <= 16; shift += 8)
    if (ABS ((int)((a >> shift) & 0xff) - (int)((b >> shift) & 0xff)) > 3)
      return FALSE;
  return TRUE;
}

static guint32
item_color (const EmbersRenderItem *item)
{
  guint8 r, g, b;

  embers_color_to_rgb8 (&item->fill, &r, &g, &b);
  return (guint32)r << 16 | (guint32)g << 8 | b;
}

/* The graph's visible area is drawn, and every frame at least 12 px wide
 * inside it (not the selected one, which has an outline) shows the fill
 * the display list gives it, along the band above its label. Returns how
 * many frames were compared. */
static guint
assert_graph_drawn_colors (Fixture                *f,
                           EmbersFlameGraph       *g,
                           const EmbersTestPixels *pixels,
                           const char             *label,
                           GArray                 *colors)
{
  graphene_rect_t area = visible_area (f, g);
  EmbersRender *render = embers_flame_graph_get_render (g);
  EmbersLayout *layout = embers_flame_graph_get_layout (g);
  guint n_items, compared = 0;
  const EmbersRenderItem *items = embers_render_get_items (render, &n_items);

  embers_test_assert_not_blank (pixels, &area, 3, label);
  g_assert_nonnull (layout);

  for (guint i = 0; i < n_items; i++)
    {
      const EmbersRect *r = embers_layout_get_rect (layout, items[i].rect);
      graphene_rect_t box, band;
      guint32 want, got;

      if (r->width < 12 || (r->flags & EMBERS_RECT_MERGED) || r->node == embers_flame_graph_get_selected_node (g) ||
          !node_area (f, g, r->node, &box))
        continue;
      /* Inside the visible area, clear of its edges (scrollbars) */
      band = GRAPHENE_RECT_INIT (MAX (box.origin.x, area.origin.x) + 2, box.origin.y + 2,
                                 MIN (box.origin.x + box.size.width, area.origin.x + area.size.width - 14)
                                 - MAX (box.origin.x, area.origin.x) - 4, 2);
      if (band.size.width < 4 || band.origin.y < area.origin.y || band.origin.y + 4 > area.origin.y + area.size.height - 14)
        continue;
      want = item_color (&items[i]);
      got = embers_test_pixels_dominant (pixels, &band);
      if (!close_color (want, got) || embers_test_pixels_share (pixels, &band, got) < 0.9)
        {
          g_autofree char *path = NULL;

          save_failure (pixels, label, &path);
          g_error ("%s: %s is drawn #%06x where the display list says #%06x (picture in %s)", label,
                   embers_profile_node_name_str (embers_flame_graph_get_profile (g), r->node), got, want, path);
        }
      if (colors != NULL)
        g_array_append_val (colors, got);
      compared++;
    }
  return compared;
}

static guint
assert_graph_drawn (Fixture                *f,
                    EmbersFlameGraph       *g,
                    const EmbersTestPixels *pixels,
                    const char             *label)
{
  return assert_graph_drawn_colors (f, g, pixels, label, NULL);
}

/* @node's frame spans the visible width: its band is one colour from edge
 * to edge, and it is not the background's */
static void
assert_fills_width (Fixture                *f,
                    EmbersFlameGraph       *g,
                    const EmbersTestPixels *pixels,
                    guint32                 node,
                    const char             *label)
{
  graphene_rect_t area = visible_area (f, g);
  graphene_rect_t r, band, bottom;
  guint32 color, background;
  double share;

  g_assert_true (node_area (f, g, node, &r));
  band = GRAPHENE_RECT_INIT (area.origin.x + 3, r.origin.y + 3, area.size.width - 6 - 12, 1);
  color = embers_test_pixels_dominant (pixels, &band);
  share = embers_test_pixels_share (pixels, &band, color);
  bottom = GRAPHENE_RECT_INIT (area.origin.x, area.origin.y + area.size.height - 3, area.size.width, 2);
  background = embers_test_pixels_dominant (pixels, &bottom);
  if (share < 0.99 || (color == background && embers_flame_graph_get_direction (g) == EMBERS_LAYOUT_ICICLE))
    {
      g_autofree char *path = NULL;

      save_failure (pixels, label, &path);
      g_error ("%s: the focused frame covers %.1f%% of the width in #%06x (picture in %s)",
               label, share * 100, color, path);
    }
}

/* Waits for the frame after an interaction and checks what it drew */
static EmbersTestPixels *
check_after (Fixture          *f,
             EmbersFlameGraph *g,
             const char       *label)
{
  EmbersTestPixels *pixels;

  wait_drawn (f);
  pixels = embers_test_render_frame (GTK_WIDGET (f->window));
  assert_calm_layout (f, label);
  g_assert_cmpuint (assert_graph_drawn (f, g, pixels, label), >, 0);
  return pixels;
}

/* Clicks the middle of @node's frame */
static void
click_node (Fixture          *f,
            EmbersFlameGraph *g,
            guint32           node)
{
  graphene_rect_t r;

  embers_flame_graph_reveal_node (g, node);
  wait_drawn (f);
  g_assert_true (embers_flame_graph_get_node_area (g, node, &r));
  reset_counts (f);
  g_assert_true (embers_flame_graph_activate_at (g, r.origin.x + r.size.width / 2, r.origin.y + r.size.height / 2));
  g_assert_cmpuint (embers_flame_graph_get_focus_node (g), ==, node);
}

/* The interactions */

static void
test_click_focus (Fixture       *f,
                  gconstpointer  data)
{
  EmbersFlameGraph *g = embers_profile_page_get_flame_graph (f->page);
  EmbersProfile *profile = embers_flame_graph_get_profile (g);

  /* Down the hot path, several depths */
  for (guint depth = 1; depth <= 6; depth++)
    {
      g_autofree char *label = g_strdup_printf ("click-depth-%u", depth);
      g_autoptr(EmbersTestPixels) pixels = NULL;
      guint32 node = hot_node (profile, depth);

      click_node (f, g, node);
      pixels = check_after (f, g, label);
      assert_fills_width (f, g, pixels, node, label);
    }
}

static void
test_click_scrollbar (Fixture       *f,
                      gconstpointer  data)
{
  EmbersFlameGraph *g = embers_profile_page_get_flame_graph (f->page);
  EmbersProfile *profile = embers_flame_graph_get_profile (g);
  const char *names[] = { "wide", "leaf", "main", "deep3", "side", "deep50", "wide", "deep10" };
  GtkAdjustment *vadj = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (g));

  /* The root needs a vertical scrollbar: more rows than fit */
  g_assert_cmpfloat (gtk_adjustment_get_upper (vadj), >, gtk_adjustment_get_page_size (vadj));

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *label = g_strdup_printf ("click-%s", names[i]);
      g_autoptr(EmbersTestPixels) pixels = NULL;
      guint32 node = find_node (profile, names[i]);

      click_node (f, g, node);
      pixels = check_after (f, g, label);
      assert_fills_width (f, g, pixels, node, label);
    }
}

/* Both halves of a sandwich: the graph with keyboard focus (callees) and
 * the other one (callers) */
static EmbersFlameGraph *
other_sandwich_half (EmbersFlameGraph *g)
{
  GtkWidget *paned = gtk_widget_get_ancestor (GTK_WIDGET (g), GTK_TYPE_PANED);
  GtkWidget *halves[2];

  g_assert_nonnull (paned);
  halves[0] = embers_test_find_widget (gtk_paned_get_start_child (GTK_PANED (paned)), EMBERS_TYPE_FLAME_GRAPH, NULL);
  halves[1] = embers_test_find_widget (gtk_paned_get_end_child (GTK_PANED (paned)), EMBERS_TYPE_FLAME_GRAPH, NULL);
  g_assert_true (halves[0] == GTK_WIDGET (g) || halves[1] == GTK_WIDGET (g));
  return EMBERS_FLAME_GRAPH (halves[0] == GTK_WIDGET (g) ? halves[1] : halves[0]);
}

static void
assert_sandwich_drawn (Fixture    *f,
                       const char *name,
                       const char *label)
{
  EmbersFlameGraph *callees = embers_profile_page_get_flame_graph (f->page);
  EmbersFlameGraph *callers = other_sandwich_half (callees);
  g_autoptr(EmbersTestPixels) pixels = NULL;
  g_autofree char *callers_label = g_strdup_printf ("%s-callers", label);

  watch_adjustments (f, callees);
  watch_adjustments (f, callers);
  pixels = check_after (f, callees, label);
  g_assert_cmpuint (assert_graph_drawn (f, callers, pixels, callers_label), >, 0);
  /* The function is the one frame under the total of both halves, across
   * the whole width */
  g_assert_cmpstr (embers_profile_node_name_str (embers_flame_graph_get_profile (callees), 1), ==, name);
  g_assert_cmpstr (embers_profile_node_name_str (embers_flame_graph_get_profile (callers), 1), ==, name);
  assert_fills_width (f, callees, pixels, 1, label);
  assert_fills_width (f, callers, pixels, 1, callers_label);
}

static void
test_table_enter (Fixture       *f,
                  gconstpointer  data)
{
  EmbersTopTable *table = embers_profile_page_get_top_table (f->page);
  GtkColumnView *view = GTK_COLUMN_VIEW (embers_test_find_widget (GTK_WIDGET (table), GTK_TYPE_COLUMN_VIEW, NULL));
  GtkSelectionModel *model = gtk_column_view_get_model (view);
  const char *names[] = { "main.renderPage", "main.compress", "runtime/pprof.Do", "main.lookupUser" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *label = g_strdup_printf ("enter-%s", names[i]);
      guint position;

      embers_top_table_select_name (table, names[i]);
      g_assert_cmpstr (embers_top_table_get_selected_name (table), ==, names[i]);
      position = gtk_single_selection_get_selected (GTK_SINGLE_SELECTION (model));
      wait_drawn (f);
      reset_counts (f);
      /* What Enter on the row does: the function's sandwich */
      g_signal_emit_by_name (view, "activate", position);
      wait_page (f, f->page);
      g_assert_cmpint (embers_profile_page_get_view (f->page), ==, EMBERS_VIEW_SANDWICH);
      assert_sandwich_drawn (f, names[i], label);
    }
}

static void
test_zoom_burst (Fixture       *f,
                 gconstpointer  data)
{
  EmbersFlameGraph *g = embers_profile_page_get_flame_graph (f->page);
  double x0, x1;

  for (guint round = 0; round < 3; round++)
    {
      g_autofree char *in_label = g_strdup_printf ("zoom-in-%u", round);
      g_autofree char *out_label = g_strdup_printf ("zoom-out-%u", round);
      g_autoptr(EmbersTestPixels) zoomed = NULL;
      g_autoptr(EmbersTestPixels) whole = NULL;

      /* A burst: many steps before GTK draws a frame (Ctrl+wheel) */
      reset_counts (f);
      for (guint i = 0; i < 12; i++)
        embers_flame_graph_zoom (g, 1.25, 0.3 + 0.2 * round);
      embers_flame_graph_get_visible_range (g, &x0, &x1);
      g_assert_cmpfloat (x1 - x0, <, 0.1);
      zoomed = check_after (f, g, in_label);
      /* The root spans the whole view when zoomed in */
      assert_fills_width (f, g, zoomed, 0, in_label);

      /* Steps with frames in between, back out */
      for (guint i = 0; i < 12; i++)
        {
          g_autoptr(EmbersTestPixels) step = NULL;

          reset_counts (f);
          embers_flame_graph_zoom (g, 0.8, 0.5);
          step = check_after (f, g, out_label);
        }
      embers_flame_graph_zoom (g, 0.1, 0.5);
      embers_flame_graph_get_visible_range (g, &x0, &x1);
      g_assert_cmpfloat (x0, ==, 0);
      g_assert_cmpfloat (x1, ==, 1);
      whole = check_after (f, g, out_label);
      assert_fills_width (f, g, whole, 0, out_label);
    }
}

static void
test_pan (Fixture       *f,
          gconstpointer  data)
{
  EmbersFlameGraph *g = embers_profile_page_get_flame_graph (f->page);
  GtkAdjustment *hadj = gtk_scrollable_get_hadjustment (GTK_SCROLLABLE (g));
  g_autoptr(EmbersTestPixels) first = NULL;
  double x0, x1;

  reset_counts (f);
  embers_flame_graph_zoom (g, 4.0, 0.0);
  first = check_after (f, g, "pan-zoomed");
  g_assert_cmpfloat (gtk_adjustment_get_upper (hadj), >, gtk_adjustment_get_page_size (hadj) * 3.9);

  for (guint i = 1; i <= 6; i++)
    {
      g_autofree char *label = g_strdup_printf ("pan-%u", i);
      g_autoptr(EmbersTestPixels) pixels = NULL;
      double value = (gtk_adjustment_get_upper (hadj) - gtk_adjustment_get_page_size (hadj)) * i / 6.0;

      reset_counts (f);
      gtk_adjustment_set_value (hadj, value);
      embers_flame_graph_get_visible_range (g, &x0, &x1);
      g_assert_cmpfloat_with_epsilon (x0, value / gtk_adjustment_get_upper (hadj), 1e-9);
      pixels = check_after (f, g, label);
      assert_fills_width (f, g, pixels, 0, label);
    }
}

static void
test_search (Fixture       *f,
             gconstpointer  data)
{
  EmbersFlameGraph *g = embers_profile_page_get_flame_graph (f->page);
  EmbersRender *render;
  const EmbersRenderItem *items;
  guint n_items, matches = 0, dimmed = 0;
  g_autoptr(EmbersTestPixels) pixels = NULL;

  reset_counts (f);
  embers_profile_page_set_search (f->page, "main\\.(compress|burn)", TRUE, FALSE);
  wait_page (f, f->page);
  pixels = check_after (f, g, "search");

  /* Matches and dimmed frames both drawn, as the display list says
   * (checked above, frame by frame) */
  render = embers_flame_graph_get_render (g);
  items = embers_render_get_items (render, &n_items);
  for (guint i = 0; i < n_items; i++)
    {
      matches += (items[i].flags & EMBERS_RENDER_ITEM_MATCH) != 0;
      dimmed += (items[i].flags & EMBERS_RENDER_ITEM_DIMMED) != 0;
    }
  g_assert_cmpuint (matches, >=, 2);
  g_assert_cmpuint (dimmed, >, matches);

  reset_counts (f);
  embers_profile_page_set_search (f->page, "", FALSE, FALSE);
  wait_page (f, f->page);
  g_clear_pointer (&pixels, embers_test_pixels_free);
  pixels = check_after (f, g, "search-cleared");
}

static void
test_views (Fixture       *f,
            gconstpointer  data)
{
  static const struct { EmbersView view; const char *label; } views[] = {
    { EMBERS_VIEW_FLAME, "view-flame" },
    { EMBERS_VIEW_BOTTOM_UP, "view-bottom-up" },
    { EMBERS_VIEW_ICICLE, "view-icicle" },
    { EMBERS_VIEW_SANDWICH, "view-sandwich" },
    { EMBERS_VIEW_ICICLE, "view-icicle-again" },
  };
  EmbersFlameGraph *main_graph = embers_profile_page_get_flame_graph (f->page);

  embers_flame_graph_set_selected_node (main_graph, find_node (embers_flame_graph_get_profile (main_graph), "main.handleAPI"));
  for (guint i = 0; i < G_N_ELEMENTS (views); i++)
    {
      g_autoptr(EmbersTestPixels) pixels = NULL;
      EmbersFlameGraph *g;

      reset_counts (f);
      embers_profile_page_set_view (f->page, views[i].view);
      wait_page (f, f->page);
      g = embers_profile_page_get_flame_graph (f->page);
      watch_adjustments (f, g);
      g_assert_true (gtk_widget_is_drawable (GTK_WIDGET (g)));
      pixels = check_after (f, g, views[i].label);
      /* The root fills the width in every view: at the top in an icicle,
       * at the bottom in a flame graph */
      assert_fills_width (f, g, pixels, 0, views[i].label);

      if (views[i].view == EMBERS_VIEW_SANDWICH)
        assert_sandwich_drawn (f, "main.handleAPI", views[i].label);
    }
}

static void
test_resize (Fixture       *f,
             gconstpointer  data)
{
  static const int sizes[][2] = { { 900, 520 }, { 1380, 860 }, { 700, 480 }, { 1200, 640 } };
  EmbersFlameGraph *g = embers_profile_page_get_flame_graph (f->page);
  guint32 node = hot_node (embers_flame_graph_get_profile (g), 3);

  click_node (f, g, node);
  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      g_autofree char *label = g_strdup_printf ("resize-%dx%d", sizes[i][0], sizes[i][1]);
      g_autoptr(EmbersTestPixels) pixels = NULL;
      graphene_rect_t area;

      reset_counts (f);
      gtk_window_set_default_size (GTK_WINDOW (f->window), sizes[i][0], sizes[i][1]);
      embers_test_wait_size (GTK_WIDGET (f->window), sizes[i][0] - 20, sizes[i][1] - 20);
      reset_counts (f);
      pixels = check_after (f, g, label);
      area = visible_area (f, g);
      g_assert_cmpfloat (area.size.width, >, 100);
      assert_fills_width (f, g, pixels, node, label);
    }
}

static gboolean
compare_settled (gpointer data)
{
  EmbersComparePage *page = data;

  return !embers_compare_page_get_busy (page) && embers_compare_page_get_diff (page) != NULL;
}

static void
test_diff_palettes (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(GFile) before = NULL;
  g_autoptr(GFile) after = NULL;
  EmbersComparePage *compare;
  EmbersProfilePage *page;
  EmbersFlameGraph *g;
  g_autofree char *before_path = g_test_build_filename (G_TEST_DIST, "fixtures", "go", "cpu-before.pb.gz", NULL);
  g_autofree char *after_path = g_test_build_filename (G_TEST_DIST, "fixtures", "go", "cpu-after.pb.gz", NULL);

  before = g_file_new_for_path (before_path);
  after = g_file_new_for_path (after_path);
  compare = EMBERS_COMPARE_PAGE (embers_window_open_comparison (f->window, before, after));
  embers_test_wait_until (compare_settled, compare, "the comparison");
  page = embers_compare_page_get_profile_page (compare);
  wait_page (f, page);
  g = embers_profile_page_get_flame_graph (page);
  watch_adjustments (f, g);

  for (guint p = 0; p < 2; p++)
    {
      EmbersDiffPalette palette = p == 0 ? EMBERS_DIFF_PALETTE_RED_GREEN : EMBERS_DIFF_PALETTE_RED_BLUE;
      const char *label = p == 0 ? "diff-red-green" : "diff-red-blue";
      g_autoptr(EmbersTestPixels) pixels = NULL;
      g_autoptr(GArray) colors = g_array_new (FALSE, FALSE, sizeof (guint32));
      guint grew = 0, blue = 0, green = 0;

      reset_counts (f);
      embers_compare_page_set_palette (compare, palette);
      wait_drawn (f);
      pixels = embers_test_render_frame (GTK_WIDGET (f->window));
      assert_calm_layout (f, label);
      /* Every frame is drawn in its display-list colour ... */
      g_assert_cmpuint (assert_graph_drawn_colors (f, g, pixels, label, colors), >, 5);

      /* ... and those colours lean the palette's ways from the neutral
       * grey rgb(148,142,142): grew is red in both, shrank is blue in
       * one and green in the other */
      for (guint i = 0; i < colors->len; i++)
        {
          guint32 c = g_array_index (colors, guint32, i);
          int r = c >> 16, gr = (c >> 8) & 0xff, b = c & 0xff;

          grew += r > gr + 20 && r > b + 20;
          blue += b > r + 10 && b > gr;
          green += gr > r + 10 && gr > b + 10;
        }
      g_test_message ("%s: of %u frames, %u red, %u blue, %u green", label, colors->len, grew, blue, green);
      g_assert_cmpuint (grew, >, 0);
      if (palette == EMBERS_DIFF_PALETTE_RED_BLUE)
        {
          g_assert_cmpuint (blue, >, 0);
          g_assert_cmpuint (green, ==, 0);
        }
      else
        {
          g_assert_cmpuint (green, >, 0);
          g_assert_cmpuint (blue, ==, 0);
        }
    }
}

int
main (int   argc,
      char *argv[])
{
  embers_test_gtk_init (&argc, &argv);

  g_test_add ("/embers/pixels/click-focus", Fixture, NULL, fixture_setup, test_click_focus, fixture_teardown);
  g_test_add ("/embers/pixels/click-scrollbar", Fixture, "deep", fixture_setup, test_click_scrollbar, fixture_teardown);
  g_test_add ("/embers/pixels/table-enter", Fixture, NULL, fixture_setup, test_table_enter, fixture_teardown);
  g_test_add ("/embers/pixels/zoom-burst", Fixture, NULL, fixture_setup, test_zoom_burst, fixture_teardown);
  g_test_add ("/embers/pixels/pan", Fixture, NULL, fixture_setup, test_pan, fixture_teardown);
  g_test_add ("/embers/pixels/search", Fixture, NULL, fixture_setup, test_search, fixture_teardown);
  g_test_add ("/embers/pixels/views", Fixture, NULL, fixture_setup, test_views, fixture_teardown);
  g_test_add ("/embers/pixels/resize", Fixture, NULL, fixture_setup, test_resize, fixture_teardown);
  g_test_add ("/embers/pixels/diff-palettes", Fixture, NULL, window_setup, test_diff_palettes, fixture_teardown);

  return g_test_run ();
}
