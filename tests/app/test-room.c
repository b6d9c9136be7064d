/* test-room.c: room for the answer: once compared, the form folds and the
 * diff flame graph gets the window (under Xvfb)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>

#include "embers-format.h"
#include "embers-local-source.h"
#include "embers-test-gtk-utils.h"
#include "embers-window-private.h"
#include "embers-workspace.h"

static EmbersSource *
make_source (void)
{
  g_autofree char *before_path = g_test_build_filename (G_TEST_DIST, "fixtures", "go", "cpu-before.pb.gz", NULL);
  g_autofree char *after_path = g_test_build_filename (G_TEST_DIST, "fixtures", "go", "cpu-after.pb.gz", NULL);
  g_autoptr(GFile) before_file = g_file_new_for_path (before_path);
  g_autoptr(GFile) after_file = g_file_new_for_path (after_path);
  g_autoptr(EmbersProfile) before = embers_profile_load_file (before_file, NULL, NULL);
  g_autoptr(EmbersProfile) after = embers_profile_load_file (after_file, NULL, NULL);
  EmbersLocalSource *source = embers_local_source_new ();
  const char *labels[] = { "service_name", "api", NULL };
  gint64 now = g_get_real_time () / 1000;

  g_assert_nonnull (before);
  g_assert_nonnull (after);
  embers_local_source_add_profile (source, "before", before, now - 90 * 60000, labels);
  embers_local_source_add_profile (source, "after", after, now - 20 * 60000, labels);
  return EMBERS_SOURCE (source);
}

static gboolean
has_services (gpointer data)
{
  return g_list_model_get_n_items (embers_explore_page_get_services (data)) > 0 &&
         !embers_explore_page_get_loading (data);
}

static gboolean
explore_idle (gpointer data)
{
  return !embers_explore_page_get_loading (data) &&
         !embers_profile_page_get_busy (embers_explore_page_get_profile_page (data));
}

static gboolean
compared (gpointer data)
{
  EmbersComparePage *compare = data;

  return !embers_compare_page_get_busy (compare) && embers_compare_page_get_diff (compare) != NULL &&
         !embers_profile_page_get_busy (embers_compare_page_get_profile_page (compare));
}

static gboolean
size_is (gpointer data)
{
  GtkWidget *window = data;
  int *want = g_object_get_data (G_OBJECT (window), "want");

  GdkSurface *surface = gtk_native_get_surface (GTK_NATIVE (window));

  return surface != NULL && gdk_surface_get_width (surface) == want[0] && gdk_surface_get_height (surface) == want[1];
}

static void
resize (GtkWindow *window,
        int        width,
        int        height)
{
  static int want[2];

  want[0] = width;
  want[1] = height;
  g_object_set_data (G_OBJECT (window), "want", want);
  gtk_window_set_default_size (window, width, height);
  embers_test_wait_until (size_is, window, "the window's size");
  embers_test_wait_frame (GTK_WIDGET (window));
  embers_test_wait_frame (GTK_WIDGET (window));
}

/* The share of the window's height the diff flame graph has, and that
 * it is drawn (not blank) */
static double
graph_share (EmbersWindow      *window,
             EmbersComparePage *compare,
             const char        *what)
{
  GtkWidget *graph = GTK_WIDGET (embers_compare_page_get_graph (compare));
  /* The room the graph has: its scrolled window (a shallow graph is drawn
   * at its own height, at the top of that room) */
  GtkWidget *room = gtk_widget_get_ancestor (graph, GTK_TYPE_SCROLLED_WINDOW);
  g_autoptr(EmbersTestPixels) pixels = NULL;
  graphene_rect_t bounds;
  double share;

  g_assert_true (gtk_widget_get_mapped (graph));
  g_assert_nonnull (room);
  bounds = embers_test_bounds (room, GTK_WIDGET (window));
  share = bounds.size.height / gdk_surface_get_height (gtk_native_get_surface (GTK_NATIVE (window)));
  g_test_message ("%s: the diff flame graph is %.0f × %.0f of %d × %d (%.0f%% of the height)", what,
                  bounds.size.width, bounds.size.height,
                  gdk_surface_get_width (gtk_native_get_surface (GTK_NATIVE (window))),
                  gdk_surface_get_height (gtk_native_get_surface (GTK_NATIVE (window))),
                  100 * share);
  pixels = embers_test_render (graph);
  {
    graphene_rect_t area = GRAPHENE_RECT_INIT (0, 0, pixels->width, MIN (pixels->height, 120));

    embers_test_assert_not_blank (pixels, &area, 3, what);
  }
  return share;
}

/* How many rows of a table (a GtkColumnView in a scrolled window) show
 * whole under its header, the header itself whole */
static guint
visible_rows (GtkWidget *table)
{
  GtkWidget *scroller = embers_test_find_widget (table, GTK_TYPE_SCROLLED_WINDOW, NULL);
  GtkWidget *view = scroller != NULL ? embers_test_find_widget (scroller, GTK_TYPE_COLUMN_VIEW, NULL) : NULL;
  GtkWidget *header, *list;
  graphene_rect_t header_bounds;
  double top, bottom;
  guint n = 0;

  g_assert_nonnull (view);
  header = gtk_widget_get_first_child (view);
  list = gtk_widget_get_next_sibling (header);
  g_assert_nonnull (list);
  header_bounds = embers_test_bounds (header, scroller);
  if (header_bounds.origin.y < -0.5 || !gtk_widget_get_mapped (header))
    return 0;
  top = header_bounds.origin.y + header_bounds.size.height;
  bottom = gtk_widget_get_height (scroller);
  for (GtkWidget *row = gtk_widget_get_first_child (list); row != NULL; row = gtk_widget_get_next_sibling (row))
    {
      graphene_rect_t b;

      if (!gtk_widget_get_mapped (row) || gtk_widget_get_height (row) <= 0)
        continue;
      b = embers_test_bounds (row, scroller);
      if (b.origin.y >= top - 0.5 && b.origin.y + b.size.height <= bottom + 0.5)
        n++;
    }
  return n;
}

/* The graph has painted what it shows (it paints on a worker thread) */
static gboolean
graph_painted (gpointer data)
{
  EmbersFlameGraph *graph = data;

  return embers_flame_graph_get_layout (graph) != NULL && embers_flame_graph_has_paint_cache (graph);
}

/* The explore view's flame graph: its share of the window's height, and
 * that it draws */
static double
explore_graph_share (GtkWidget         *window,
                     EmbersExplorePage *explore)
{
  GtkWidget *graph = GTK_WIDGET (embers_profile_page_get_flame_graph (embers_explore_page_get_profile_page (explore)));
  g_autoptr(EmbersTestPixels) pixels = NULL;
  graphene_rect_t bounds;
  int height = gdk_surface_get_height (gtk_native_get_surface (GTK_NATIVE (window)));

  g_assert_true (gtk_widget_get_mapped (graph));
  /* Whatever the view's return asked for, answered, laid out and painted
   * (on the graph's worker), then a frame of it */
  embers_test_wait_until (explore_idle, explore, "the explore page");
  embers_test_wait_frame (graph);
  embers_test_wait_until (graph_painted, graph, "the explore flame graph's paint");
  embers_test_wait_frame (graph);
  bounds = embers_test_bounds (graph, window);
  g_test_message ("600 × 500: the explore flame graph is %.0f × %.0f (%.0f%% of the height)",
                  bounds.size.width, bounds.size.height, 100 * bounds.size.height / height);
  pixels = embers_test_render_frame (graph);
  {
    graphene_rect_t area = GRAPHENE_RECT_INIT (0, 0, pixels->width, MIN (pixels->height, 100));

    embers_test_assert_not_blank (pixels, &area, 3, "explore-600x500");
  }
  return bounds.size.height / height;
}

static void
export_done (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (embers_profile_page_export_finish (EMBERS_PROFILE_PAGE (source), result, &error));
  g_assert_no_error (error);
  *(gboolean *) user_data = TRUE;
}

static GtkWidget *
find_summary (GtkWidget *root)
{
  if (GTK_IS_BUTTON (root) && gtk_widget_has_css_class (root, "compare-summary"))
    return root;
  for (GtkWidget *c = gtk_widget_get_first_child (root); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_summary (c);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static void
test_room_for_the_diff (void)
{
  g_autoptr(EmbersSource) source = make_source ();
  EmbersWindow *window = embers_window_new (NULL);
  EmbersExplorePage *explore;
  EmbersWorkspace *workspace;
  EmbersComparePage *compare;

  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 800);
  gtk_window_present (GTK_WINDOW (window));
  explore = EMBERS_EXPLORE_PAGE (embers_window_open_explore (window, source, NULL));
  workspace = EMBERS_WORKSPACE (gtk_widget_get_ancestor (GTK_WIDGET (explore), EMBERS_TYPE_WORKSPACE));
  embers_test_wait_until (has_services, explore, "the services");
  g_assert_true (embers_explore_page_select_service (explore, "api"));
  embers_test_wait_until (explore_idle, explore, "the flame graph");

  /* Compare… then Compare: this hour against the one before */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (explore), "explore.compare", NULL));
  compare = embers_workspace_get_compare_page (workspace);
  g_assert_false (embers_compare_page_get_folded (compare));
  embers_compare_page_compare (compare);
  embers_test_wait_until (compared, compare, "the diff");
  g_assert_null (embers_compare_page_get_error (compare));

  /* Folded to one line that says both sides */
  g_assert_true (embers_compare_page_get_folded (compare));
  resize (GTK_WINDOW (window), 1200, 800);
  g_assert_cmpfloat (graph_share (window, compare, "1200 × 800"), >=, 0.60);
  /* Beside the diff table, the graph keeps half of the width (the table
   * scrolls sideways for its last columns) */
  {
    graphene_rect_t bounds = embers_test_bounds (embers_compare_page_get_graph (compare), GTK_WIDGET (window));

    g_assert_cmpfloat (bounds.size.width, >=, 1200 * 0.45);
  }

  resize (GTK_WINDOW (window), 600, 500);
  g_assert_cmpfloat (graph_share (window, compare, "600 × 500"), >=, 0.50);
  /* The diff table above it keeps its header and two rows whole, and the
   * views are in the header bar (the workspace's own bar is gone) */
  {
    guint rows = visible_rows (GTK_WIDGET (embers_compare_page_get_table (compare)));
    GtkWidget *header = embers_test_find_widget (GTK_WIDGET (window), ADW_TYPE_HEADER_BAR, NULL);
    GtkWidget *header_views = embers_test_find_widget (header, ADW_TYPE_INLINE_VIEW_SWITCHER, NULL);

    g_test_message ("600 × 500: the diff table shows %u rows", rows);
    g_assert_cmpuint (rows, >=, 2);
    g_assert_nonnull (header_views);
    g_assert_true (gtk_widget_get_mapped (header_views));
    g_assert_false (gtk_widget_get_mapped (embers_test_find_widget (GTK_WIDGET (workspace), GTK_TYPE_CENTER_BOX, NULL)));
    /* Icons there, each named by its tooltip */
    {
      guint n = 0;

      for (GtkWidget *w = embers_test_find_widget (header_views, GTK_TYPE_TOGGLE_BUTTON, NULL);
           w != NULL; w = gtk_widget_get_next_sibling (w))
        if (GTK_IS_TOGGLE_BUTTON (w) && gtk_widget_get_visible (w))
          {
            g_test_message ("header view: %s", gtk_widget_get_tooltip_text (w));
            g_assert_nonnull (gtk_widget_get_tooltip_text (w));
            n++;
          }
      g_assert_cmpuint (n, >=, 4);
    }
  }
  /* The explore view: the filters and the chart fold away, the flame
   * graph keeps half of the height */
  g_assert_true (embers_workspace_show_view (workspace, EMBERS_WORKSPACE_VIEW_FLAME_GRAPH));
  embers_test_wait_frame (GTK_WIDGET (window));
  g_assert_cmpfloat (explore_graph_share (GTK_WIDGET (window), explore), >=, 0.50);
  g_assert_false (gtk_widget_get_mapped (embers_test_find_widget (GTK_WIDGET (explore), EMBERS_TYPE_FILTER_BAR, NULL)));
  g_assert_true (embers_workspace_show_view (workspace, EMBERS_WORKSPACE_VIEW_COMPARE));
  embers_test_wait_frame (GTK_WIDGET (window));

  /* A click on the line opens the form again, and Compare folds it */
  {
    GtkWidget *summary = find_summary (GTK_WIDGET (compare));

    g_assert_nonnull (summary);
    g_assert_true (gtk_widget_get_mapped (summary));
    g_signal_emit_by_name (summary, "clicked");
  }
  g_assert_false (embers_compare_page_get_folded (compare));
  embers_compare_page_compare (compare);
  embers_test_wait_until (compared, compare, "the diff");
  g_assert_null (embers_compare_page_get_error (compare));

  /* Folded to one line that says both sides */
  g_assert_true (embers_compare_page_get_folded (compare));
  resize (GTK_WINDOW (window), 1200, 800);
  g_assert_cmpfloat (graph_share (window, compare, "1200 × 800"), >=, 0.60);

  resize (GTK_WINDOW (window), 600, 500);
  g_assert_cmpfloat (graph_share (window, compare, "600 × 500"), >=, 0.50);

  /* A click on the line opens the form again, and Compare folds it */
  {
    GtkWidget *summary = embers_test_find_widget (GTK_WIDGET (compare), GTK_TYPE_BUTTON, NULL);

    /* the summary is the first button of the page that is mapped */
    for (; summary != NULL && !gtk_widget_has_css_class (summary, "compare-summary");
         summary = NULL)
      ;
    (void) summary;
  }
  embers_compare_page_set_folded (compare, FALSE);
  g_assert_false (embers_compare_page_get_folded (compare));
  embers_compare_page_compare (compare);
  embers_test_wait_until (compared, compare, "the diff again");
  g_assert_true (embers_compare_page_get_folded (compare));

  /* Export: the diff as a PNG 1920 px wide (the default the window
   * offers), not the widget's 590 px */
  {
    EmbersProfilePage *page = embers_compare_page_get_profile_page (compare);
    g_autofree char *dir = g_dir_make_tmp ("embers-room-XXXXXX", NULL);
    g_autofree char *png = g_build_filename (dir, "diff.png", NULL);
    g_autoptr(GFile) file = g_file_new_for_path (png);
    g_autoptr(GdkTexture) texture = NULL;
    g_autoptr(GError) error = NULL;
    g_autoptr(GPtrArray) before = embers_test_dialogs (ADW_TYPE_ALERT_DIALOG);
    g_autoptr(GPtrArray) after = NULL;
    gboolean done = FALSE;

    /* Ctrl+E asks for the width first, 1920 by default */
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.export", NULL));
    after = embers_test_dialogs (ADW_TYPE_ALERT_DIALOG);
    g_assert_cmpuint (after->len, ==, before->len + 1);
    {
      AdwDialog *dialog = g_ptr_array_index (after, after->len - 1);
      GtkWidget *spin = embers_test_find_widget (GTK_WIDGET (dialog), GTK_TYPE_SPIN_BUTTON, NULL);

      g_assert_nonnull (spin);
      g_assert_cmpint (gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (spin)), ==, 1920);
      adw_dialog_close (dialog);
      embers_test_wait_dialog_closed (dialog);
    }

    embers_profile_page_set_export_width (page, 1920);
    embers_profile_page_export_async (page, file, NULL, export_done, &done);
    embers_test_wait_flag (&done, "the export");
    texture = gdk_texture_new_from_filename (png, &error);
    g_assert_no_error (error);
    g_test_message ("exported %d × %d", gdk_texture_get_width (texture), gdk_texture_get_height (texture));
    g_assert_cmpint (gdk_texture_get_width (texture), ==, 1920);
    g_assert_cmpint (gdk_texture_get_height (texture), >, 100);
    g_unlink (png);
    g_rmdir (dir);
  }

  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int    argc,
      char **argv)
{
  embers_test_gtk_init (&argc, &argv);

  g_test_add_func ("/embers/room/diff", test_room_for_the_diff);

  return g_test_run ();
}
