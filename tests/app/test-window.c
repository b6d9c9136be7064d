/* test-window.c: the window with real fixture profiles on a display
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <adwaita.h>
#include <glib/gstdio.h>

#include "embers-compare-page.h"
#include "embers-details-panel.h"
#include "embers-query-url.h"
#include "embers-explore-page.h"
#include "embers-local-source.h"
#include "embers-window-private.h"
#include "embers-workspace.h"
#include "embers-test-gtk-utils.h"

/* Until the page has loaded and its transforms are done */
static void
wait_page (EmbersProfilePage *page)
{
  embers_test_wait_while (embers_profile_page_get_state (page) == EMBERS_PAGE_STATE_LOADING ||
                          embers_profile_page_get_busy (page) ||
                          embers_profile_page_get_search_pending (page));
  embers_test_settle ();
  g_assert_false (embers_profile_page_get_busy (page));
}

static EmbersWindow *
new_window (void)
{
  EmbersWindow *window = embers_window_new (NULL);

  embers_test_present_window (GTK_WINDOW (window), 1200, 700);
  return window;
}
static EmbersProfilePage *
open_fixture (EmbersWindow *window,
              const char   *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fixtures", "go", name, NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  EmbersProfilePage *page = embers_window_open_file (window, file);

  wait_page (page);
  g_assert_cmpuint (embers_profile_page_get_state (page), ==, EMBERS_PAGE_STATE_READY);
  return page;
}

static guint32
find_node (EmbersProfile *profile,
           const char    *name)
{
  for (guint32 i = 0; i < embers_profile_get_n_nodes (profile); i++)
    if (g_str_equal (embers_profile_node_name_str (profile, i), name))
      return i;
  g_assert_not_reached ();
}
/* Whether the button for an action is sensitive: what the user sees of
 * the action's enabled state */
static gboolean
action_enabled (GtkWidget  *widget,
                const char *name)
{
  GtkWidget *button = embers_test_find_actionable (widget, name);

  g_assert_nonnull (button);
  return gtk_widget_get_sensitive (button);
}

static void
test_empty (void)
{
  EmbersWindow *window = new_window ();

  g_assert_cmpuint (embers_window_get_n_pages (window), ==, 0);
  g_assert_null (embers_window_get_current_page (window));
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "Embers");

  embers_test_destroy_window (GTK_WINDOW (window));
}

/* After its first frame the window has the GPU renderer make its shader
 * programs off screen (embers-window-warm.c), so that a profile's first
 * frame need not: it ends, and changes nothing a person sees */
static void
test_warm_renderer (void)
{
  EmbersWindow *window = new_window ();
  EmbersTestPixels *before = embers_test_render_frame (GTK_WIDGET (window));
  EmbersTestPixels *after = NULL;
  EmbersProfilePage *page, *spare;
  EmbersFlameGraph *graph;
  EmbersTestPixels *drawn;

  embers_test_wait_while (!embers_window_get_renderer_warm (window));
  after = embers_test_render_frame (GTK_WIDGET (window));
  g_assert_cmpint (before->width, ==, after->width);
  g_assert_cmpint (before->height, ==, after->height);
  for (int y = 0; y < before->height; y++)
    g_assert_cmpmem (before->data + y * before->stride, before->width * 4,
                     after->data + y * after->stride, after->width * 4);

  /* Then a page made ahead, which the first file opened goes into; a new
   * one is made once that load is over */
  spare = window->spare_page;
  g_assert_nonnull (spare);
  g_assert_null (gtk_widget_get_parent (GTK_WIDGET (spare)));

  /* and a profile is drawn as ever */
  page = open_fixture (window, "cpu-recursion.pb.gz");
  g_assert_true (page == spare);
  embers_test_wait_while (window->spare_page == NULL);
  g_assert_true (window->spare_page != page);
  graph = embers_profile_page_get_flame_graph (page);
  embers_test_wait_while (!embers_flame_graph_has_paint_cache (graph));
  drawn = embers_test_render_frame (GTK_WIDGET (graph));
  g_assert_cmpuint (embers_test_pixels_count_colors (drawn, &GRAPHENE_RECT_INIT (0, 0, drawn->width, 60), 64),
                    >=, 4);

  embers_test_pixels_free (drawn);
  embers_test_pixels_free (after);
  embers_test_pixels_free (before);

  /* The tab that was the spare, closed: nothing else keeps the page */
  g_object_add_weak_pointer (G_OBJECT (page), (gpointer *)&page);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.close-tab", NULL));
  embers_test_wait_while (page != NULL);
  embers_test_destroy_window (GTK_WINDOW (window));
}

static void
test_open_fixture (void)
{
  EmbersWindow *window = new_window ();
  EmbersProfilePage *page = open_fixture (window, "cpu-recursion.pb.gz");
  EmbersFlameGraph *graph = embers_profile_page_get_flame_graph (page);
  EmbersTopTable *table = embers_profile_page_get_top_table (page);
  EmbersProfile *profile = embers_profile_page_get_profile (page);
  EmbersLayout *layout;

  g_assert_cmpuint (embers_window_get_n_pages (window), ==, 1);
  g_assert_cmpstr (embers_profile_page_get_title (page), ==, "cpu-recursion.pb.gz");
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "cpu-recursion.pb.gz — Embers");

  /* The default sample type of a Go CPU profile is cpu */
  g_assert_cmpstr (embers_profile_get_sample_type (profile, embers_profile_page_get_sample_type (page)),
                   ==, "cpu");
  g_assert_true (embers_flame_graph_get_profile (graph) == profile);

  /* Laid out and painted */
  embers_test_settle ();
  layout = embers_flame_graph_get_layout (graph);
  g_assert_nonnull (layout);
  g_assert_cmpuint (embers_layout_get_n_rects (layout), >, 10);
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (graph)), >, 300);
  /* Painted on a worker thread, then shown */
  embers_test_wait_while (!embers_flame_graph_has_paint_cache (graph));
  g_assert_true (embers_flame_graph_has_paint_cache (graph));

  /* The top table lists the functions, hottest first */
  g_assert_cmpuint (embers_top_table_get_n_rows (table), >=, 10);

  g_assert_true (action_enabled (GTK_WIDGET (window), "win.export"));

  /* Remembered as a recent file */
  {
    g_autoptr(GSettings) settings = g_settings_new (APP_ID);
    g_auto(GStrv) recent = g_settings_get_strv (settings, "recent-files");
    g_autofree char *uri = g_file_get_uri (embers_profile_page_get_file (page));

    g_assert_nonnull (recent[0]);
    g_assert_cmpstr (recent[0], ==, uri);
  }

  embers_test_destroy_window (GTK_WINDOW (window));
}

/* A tab's opening does not build what it does not show: the details
 * panel comes when first shown (and is then drawn), a menu's popover
 * when first opened (and then holds the menu's rows) */
static void
test_lazy_parts (void)
{
  EmbersWindow *window = new_window ();
  EmbersProfilePage *page = open_fixture (window, "cpu-recursion.pb.gz");
  GtkWidget *colors = embers_test_find_widget (GTK_WIDGET (page), GTK_TYPE_MENU_BUTTON, "colors_button");
  GtkWidget *panel;
  EmbersTestPixels *before, *after;
  graphene_point_t at;
  int width, height, changed = 0;

  embers_test_settle ();
  g_assert_null (embers_test_find_widget (GTK_WIDGET (page), EMBERS_TYPE_DETAILS_PANEL, NULL));
  g_assert_nonnull (colors);
  g_assert_null (gtk_menu_button_get_popover (GTK_MENU_BUTTON (colors)));
  g_assert_true (gtk_widget_get_sensitive (colors));

  before = embers_test_render_frame (GTK_WIDGET (page));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "page.details", NULL));
  embers_test_settle ();
  panel = embers_test_find_widget (GTK_WIDGET (page), EMBERS_TYPE_DETAILS_PANEL, NULL);
  g_assert_nonnull (panel);
  g_assert_true (panel == GTK_WIDGET (embers_profile_page_get_details_panel (page)));
  embers_test_wait_for (gtk_widget_get_mapped (panel) && gtk_widget_get_width (panel) > 0);
  g_assert_cmpstr (embers_details_panel_get_function (EMBERS_DETAILS_PANEL (panel)), !=, NULL);
  /* Drawn where the graph was: most of the panel's area changed */
  after = embers_test_render_frame (GTK_WIDGET (page));
  g_assert_true (gtk_widget_compute_point (panel, GTK_WIDGET (page), &GRAPHENE_POINT_INIT (0, 0), &at));
  width = gtk_widget_get_width (panel);
  height = gtk_widget_get_height (panel);
  for (int y = 0; y < height; y += 8)
    for (int x = 0; x < width; x += 8)
      changed += embers_test_pixels_get (before, at.x + x, at.y + y) != embers_test_pixels_get (after, at.x + x, at.y + y);
  g_assert_cmpint (changed, >, (width / 8) * (height / 8) / 4);
  embers_test_pixels_free (before);
  embers_test_pixels_free (after);

  /* The colours menu, opened: its popover now, with the menu's rows */
  gtk_menu_button_popup (GTK_MENU_BUTTON (colors));
  embers_test_settle ();
  g_assert_nonnull (gtk_menu_button_get_popover (GTK_MENU_BUTTON (colors)));
  g_assert_true (GTK_IS_POPOVER_MENU (gtk_menu_button_get_popover (GTK_MENU_BUTTON (colors))));
  embers_test_wait_for (gtk_widget_get_mapped (GTK_WIDGET (gtk_menu_button_get_popover (GTK_MENU_BUTTON (colors)))));
  g_assert_cmpuint (embers_test_count_shown_text (GTK_WIDGET (gtk_menu_button_get_popover (GTK_MENU_BUTTON (colors))),
                                                  ""), >, 2);
  gtk_menu_button_popdown (GTK_MENU_BUTTON (colors));

  embers_test_destroy_window (GTK_WINDOW (window));
}

static void
test_click_and_keyboard (void)
{
  EmbersWindow *window = new_window ();
  EmbersProfilePage *page = open_fixture (window, "cpu-recursion.pb.gz");
  EmbersFlameGraph *graph = embers_profile_page_get_flame_graph (page);
  EmbersProfile *profile = embers_profile_page_get_profile (page);
  EmbersTopTable *table = embers_profile_page_get_top_table (page);
  guint32 walk = find_node (profile, "main.walkTree");
  EmbersLayout *layout;
  const EmbersRect *r;
  double x, y;

  embers_test_settle ();
  layout = embers_flame_graph_get_layout (graph);
  r = embers_layout_get_rect (layout, embers_layout_find_node (layout, walk));
  x = r->x + r->width / 2;
  y = embers_layout_rect_y (layout, r) + 5;

  /* Click focuses */
  g_assert_true (embers_flame_graph_activate_at (graph, x, y));
  g_assert_cmpuint (embers_flame_graph_get_focus_node (graph), ==, walk);
  g_assert_true (action_enabled (GTK_WIDGET (page), "page.back"));
  /* Selecting a frame selects its row in the table */
  g_assert_cmpstr (embers_top_table_get_selected_name (table), ==, "main.walkTree");

  /* Keyboard moves the selection down the hot path */
  gtk_widget_grab_focus (GTK_WIDGET (graph));
  g_assert_true (embers_flame_graph_move_selection (graph, EMBERS_NEIGHBOR_CHILD));
  g_assert_cmpuint (embers_profile_node_parent (profile, embers_flame_graph_get_selected_node (graph)),
                    ==, walk);
  g_assert_true (embers_flame_graph_move_selection (graph, EMBERS_NEIGHBOR_PARENT));
  g_assert_cmpuint (embers_flame_graph_get_selected_node (graph), ==, walk);

  /* The page's back button goes back */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "page.back", NULL));
  g_assert_cmpuint (embers_flame_graph_get_focus_node (graph), ==, 0);

  embers_test_destroy_window (GTK_WINDOW (window));
}

static void
test_search (void)
{
  EmbersWindow *window = new_window ();
  EmbersProfilePage *page = open_fixture (window, "cpu-recursion.pb.gz");
  EmbersFlameGraph *graph = embers_profile_page_get_flame_graph (page);
  EmbersProfile *profile = embers_profile_page_get_profile (page);
  EmbersTopTable *table = embers_profile_page_get_top_table (page);
  EmbersSearch *search;
  guint32 node;

  embers_profile_page_set_search (page, "main\\.is(Even|Odd)", TRUE, FALSE);
  /* Matching runs off the main thread */
  g_assert_true (embers_profile_page_get_search_pending (page));
  wait_page (page);
  search = embers_flame_graph_get_search (graph);
  g_assert_nonnull (search);
  g_assert_true (embers_search_is_active (search));
  g_assert_cmpuint (embers_search_get_n_matches (search), >, 0);
  g_assert_true (g_str_has_suffix (embers_profile_page_get_search_summary (page), "of total"));
  /* The table shows the two matching functions */
  g_assert_cmpuint (embers_top_table_get_n_rows (table), ==, 2);
  g_assert_true (action_enabled (GTK_WIDGET (page), "page.search-next"));

  /* Next match selects a matching frame and makes it visible */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "page.search-next", NULL));
  node = embers_flame_graph_get_selected_node (graph);
  g_assert_cmpuint (node, !=, EMBERS_NODE_NONE);
  g_assert_true (g_str_has_prefix (embers_profile_node_name_str (profile, node), "main.is"));
  g_assert_cmpint (embers_layout_find_node (embers_flame_graph_get_layout (graph), node), >=, 0);

  /* A bad regex is an error in the entry, not a crash */
  embers_profile_page_set_search (page, "main.(", TRUE, FALSE);
  wait_page (page);
  g_assert_null (embers_flame_graph_get_search (graph));
  g_assert_cmpstr (embers_profile_page_get_search_summary (page), ==, "Invalid regular expression");

  embers_profile_page_set_search (page, "", FALSE, FALSE);
  wait_page (page);
  g_assert_cmpstr (embers_profile_page_get_search_summary (page), ==, "");
  g_assert_cmpuint (embers_top_table_get_n_rows (table), >=, 10);

  embers_test_destroy_window (GTK_WINDOW (window));
}


/* The tooltip of the first frame down the middle of a graph */
static char *
tooltip_somewhere (EmbersFlameGraph *graph)
{
  int width, height;

  embers_test_wait_frame (GTK_WIDGET (graph));
  width = gtk_widget_get_width (GTK_WIDGET (graph));
  height = gtk_widget_get_height (GTK_WIDGET (graph));
  for (int y = 0; y < height; y += 2)
    {
      char *tip = embers_flame_graph_dup_tooltip_at (graph, width / 2.0, y);

      if (tip != NULL)
        return tip;
    }
  return NULL;
}

static void
test_views (void)
{
  EmbersWindow *window = new_window ();
  EmbersProfilePage *page = open_fixture (window, "cpu-recursion.pb.gz");
  EmbersFlameGraph *graph;
  EmbersProfile *shown;
  guint n_rows;

  /* Sandwich of one function: its callers above, its callees below */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "page.sandwich", "s", "main.walkTree"));
  wait_page (page);
  g_assert_cmpuint (embers_profile_page_get_view (page), ==, EMBERS_VIEW_SANDWICH);
  graph = embers_profile_page_get_flame_graph (page);
  shown = embers_flame_graph_get_profile (graph);
  g_assert_cmpstr (embers_profile_node_name_str (shown, 1), ==, "main.walkTree");
  /* Its halves' tooltips give shares of the function, not of the total */
  {
    g_autofree char *tip = tooltip_somewhere (graph);

    g_assert_nonnull (tip);
    g_assert_nonnull (strstr (tip, "of the function"));
    g_assert_null (strstr (tip, "of total"));
  }

  /* `i` inverts: bottom-up, then back */
  embers_profile_page_set_view (page, EMBERS_VIEW_ICICLE);
  wait_page (page);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "page.invert", NULL));
  wait_page (page);
  g_assert_cmpuint (embers_profile_page_get_view (page), ==, EMBERS_VIEW_BOTTOM_UP);
  graph = embers_profile_page_get_flame_graph (page);
  shown = embers_flame_graph_get_profile (graph);
  g_assert_true (shown != embers_profile_page_get_profile (page));
  /* the first row below the root holds the functions with self time */
  g_assert_cmpstr (embers_profile_node_name_str (shown, 1), !=, "runtime.main");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "page.invert", NULL));
  wait_page (page);
  g_assert_cmpuint (embers_profile_page_get_view (page), ==, EMBERS_VIEW_ICICLE);

  /* The whole profile's tooltips: of the total */
  {
    g_autofree char *tip = tooltip_somewhere (embers_profile_page_get_flame_graph (page));

    g_assert_nonnull (tip);
    g_assert_nonnull (strstr (tip, "of total"));
  }

  /* Flame graph: same frames, root at the bottom */
  embers_profile_page_set_view (page, EMBERS_VIEW_FLAME);
  wait_page (page);
  graph = embers_profile_page_get_flame_graph (page);
  g_assert_cmpuint (embers_flame_graph_get_direction (graph), ==, EMBERS_LAYOUT_FLAME);

  /* Hiding a frame removes it from the table; removing the chip restores it */
  embers_profile_page_set_view (page, EMBERS_VIEW_ICICLE);
  wait_page (page);
  n_rows = embers_top_table_get_n_rows (embers_profile_page_get_top_table (page));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "page.hide-frame", "s", "main.walkTree"));
  wait_page (page);
  g_assert_cmpuint (embers_top_table_get_n_rows (embers_profile_page_get_top_table (page)), ==, n_rows - 1);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "page.remove-transform", "u", 0));
  wait_page (page);
  g_assert_cmpuint (embers_top_table_get_n_rows (embers_profile_page_get_top_table (page)), ==, n_rows);

  /* Focus on a function everywhere */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "page.focus-function", "s", "main.isOdd"));
  wait_page (page);
  shown = embers_flame_graph_get_profile (embers_profile_page_get_flame_graph (page));
  g_assert_cmpstr (embers_profile_node_name_str (shown, 1), ==, "main.isOdd");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "page.remove-transform", "u", 0));
  wait_page (page);
  g_assert_true (embers_flame_graph_get_profile (embers_profile_page_get_flame_graph (page))
                 == embers_profile_page_get_profile (page));

  embers_test_destroy_window (GTK_WINDOW (window));
}

static void
test_sample_types (void)
{
  EmbersWindow *window = new_window ();
  EmbersProfilePage *page = open_fixture (window, "heap.pb.gz");
  EmbersProfile *profile = embers_profile_page_get_profile (page);
  guint first = embers_profile_page_get_sample_type (page);
  guint other = first == 0 ? 1 : 0;

  g_assert_cmpuint (embers_profile_get_n_sample_types (profile), ==, 4);
  embers_profile_page_set_sample_type (page, other);
  wait_page (page);
  g_assert_cmpuint (embers_flame_graph_get_sample_type (embers_profile_page_get_flame_graph (page)), ==, other);

  embers_test_destroy_window (GTK_WINDOW (window));
}

static void
export_done (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  GError **error = user_data;

  if (!embers_profile_page_export_finish (EMBERS_PROFILE_PAGE (source), result, error) && *error == NULL)
    g_assert_not_reached ();
  if (*error == NULL)
    *error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_EXISTS, "done");
}

static void
export_to (EmbersProfilePage *page,
           const char        *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  GError *error = NULL;

  embers_profile_page_export_async (page, file, NULL, export_done, &error);
  embers_test_wait_while (error == NULL);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS);
  g_error_free (error);
}

static void
test_export (void)
{
  EmbersWindow *window = new_window ();
  EmbersProfilePage *page = open_fixture (window, "cpu-recursion.pb.gz");
  EmbersFlameGraph *graph = embers_profile_page_get_flame_graph (page);
  g_autofree char *dir = g_dir_make_tmp ("embers-test-XXXXXX", NULL);
  g_autofree char *png = g_build_filename (dir, "graph.png", NULL);
  g_autofree char *svg = g_build_filename (dir, "graph.svg", NULL);
  g_autofree char *sandwich = g_build_filename (dir, "sandwich.png", NULL);
  g_autofree char *pprof = g_build_filename (dir, "shown.pb.gz", NULL);
  g_autofree char *contents = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  g_autoptr(GdkTexture) texture2 = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersProfile) reloaded = NULL;
  g_autoptr(GFile) pprof_file = NULL;
  EmbersLayout *layout;
  gsize len;

  embers_test_settle ();
  layout = embers_flame_graph_get_layout (graph);

  /* PNG: the width on screen, every row */
  export_to (page, png);
  texture = gdk_texture_new_from_filename (png, &error);
  g_assert_no_error (error);
  g_assert_cmpint (gdk_texture_get_width (texture), ==,
                   gtk_widget_get_width (GTK_WIDGET (graph)) * gtk_widget_get_scale_factor (GTK_WIDGET (graph)));
  g_assert_cmpint (gdk_texture_get_height (texture), ==, (int)embers_layout_get_height (layout));

  /* SVG with the search highlighted */
  embers_profile_page_set_search (page, "walkTree", FALSE, FALSE);
  wait_page (page);
  export_to (page, svg);
  g_assert_true (g_file_get_contents (svg, &contents, &len, NULL));
  g_assert_nonnull (g_strstr_len (contents, len, "<svg"));

  /* The sandwich view stacks both graphs in one image */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "page.sandwich", "s", "main.walkTree"));
  wait_page (page);
  embers_test_settle ();
  export_to (page, sandwich);
  texture2 = gdk_texture_new_from_filename (sandwich, &error);
  g_assert_no_error (error);
  g_assert_cmpint (gdk_texture_get_height (texture2), >, 4 * EMBERS_LAYOUT_ROW_HEIGHT);

  /* pprof of what is shown loads back with the same total */
  export_to (page, pprof);
  pprof_file = g_file_new_for_path (pprof);
  reloaded = embers_profile_load_file (pprof_file, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (embers_profile_get_total (reloaded, embers_profile_find_sample_type (reloaded, "cpu")),
                   ==, embers_profile_get_total (embers_profile_page_get_profile (page),
                                                 embers_profile_page_get_sample_type (page)));

  g_unlink (png);
  g_unlink (svg);
  g_unlink (sandwich);
  g_unlink (pprof);
  g_rmdir (dir);
  embers_test_destroy_window (GTK_WINDOW (window));
}

static GtkWidget *
find_widget_of_type (GtkWidget *widget,
                     GType      type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_widget_of_type (child, type);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The drop-down whose tooltip starts with @label */
static GtkWidget *
find_accessible_dropdown (GtkWidget  *widget,
                          const char *label)
{
  const char *tooltip = gtk_widget_get_tooltip_text (widget);

  if (GTK_IS_DROP_DOWN (widget) && tooltip != NULL && g_str_has_prefix (tooltip, label))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_accessible_dropdown (child, label);

      if (found != NULL)
        return found;
    }
  return NULL;
}
/* Comparisons: two Go CPU profiles of the same requests, main.checksum
 * doing twice the work in the second (tests/fixtures/go/cpu-diff.go) */

static GtkWidget *
open_go_comparison (EmbersWindow *window)
{
  g_autofree char *base_path = g_test_build_filename (G_TEST_DIST, "fixtures", "go", "cpu-before.pb.gz", NULL);
  g_autofree char *comp_path = g_test_build_filename (G_TEST_DIST, "fixtures", "go", "cpu-after.pb.gz", NULL);
  g_autoptr(GFile) base = g_file_new_for_path (base_path);
  g_autoptr(GFile) comp = g_file_new_for_path (comp_path);
  GtkWidget *compare = embers_window_open_comparison (window, base, comp);
  EmbersProfilePage *page;
  g_assert_true (EMBERS_IS_COMPARE_PAGE (compare));
  page = embers_compare_page_get_profile_page (EMBERS_COMPARE_PAGE (compare));
  embers_test_wait_while (embers_compare_page_get_busy (EMBERS_COMPARE_PAGE (compare)) ||
                          embers_profile_page_get_state (page) != EMBERS_PAGE_STATE_READY);
  g_assert_null (embers_compare_page_get_error (EMBERS_COMPARE_PAGE (compare)));
  wait_page (page);
  return compare;
}

static gboolean
graph_painted (gpointer graph)
{
  return embers_flame_graph_has_paint_cache (graph);
}

/* Colour of the pixel at x, y of a widget as painted. A flame graph
 * paints on a worker thread: its paint for what it shows now, then a
 * frame that draws it (a widget paintable of a widget waiting for its
 * frame is empty) */
static void
widget_pixel (GtkWidget *widget,
              int        x,
              int        y,
              guint8     rgb[3])
{
  if (EMBERS_IS_FLAME_GRAPH (widget))
    {
      embers_test_wait_until (graph_painted, widget, "the flame graph's paint");
      embers_test_wait_frame (GTK_WIDGET (gtk_widget_get_root (widget)));
    }
  {
    /* The next frame, as the window draws it (a widget paintable taken
     * between frames, while a newer paint has queued a draw, is empty) */
    g_autoptr(EmbersTestPixels) pixels = NULL;
    guint32 pixel;

    g_assert_cmpint (gtk_widget_get_width (widget), >, x);
    g_assert_cmpint (gtk_widget_get_height (widget), >, y);
    pixels = embers_test_render_frame (widget);
    pixel = embers_test_pixels_get (pixels, x, y);
    rgb[0] = (pixel >> 16) & 0xff;
    rgb[1] = (pixel >> 8) & 0xff;
    rgb[2] = pixel & 0xff;
  }
}

/* The middle of the first frame of @name, in the graph's coordinates */
static void
frame_point (EmbersFlameGraph *graph,
             const char       *name,
             int              *x,
             int              *y)
{
  EmbersProfile *profile = embers_flame_graph_get_profile (graph);
  EmbersLayout *layout = embers_flame_graph_get_layout (graph);
  const EmbersRect *r;

  r = embers_layout_get_rect (layout, embers_layout_find_node (layout, find_node (profile, name)));
  g_assert_nonnull (r);
  g_assert_cmpfloat (r->width, >, 4);
  *x = (int) (r->x + r->width / 2);
  *y = (int) (embers_layout_rect_y (layout, r) + 4);
}

static void
test_compare_files (void)
{
  EmbersWindow *window = new_window ();
  GtkWidget *compare = open_go_comparison (window);
  EmbersProfilePage *page = embers_compare_page_get_profile_page (EMBERS_COMPARE_PAGE (compare));
  GtkWidget *graph = embers_compare_page_get_graph (EMBERS_COMPARE_PAGE (compare));
  EmbersDiffTable *table = embers_compare_page_get_table (EMBERS_COMPARE_PAGE (compare));
  EmbersDiffLegend *legend = embers_compare_page_get_legend (EMBERS_COMPARE_PAGE (compare));
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  const EmbersDiffRow *row;
  guint8 rgb[3];
  int x, y, sx, sy;

  /* A compare tab whose diff is the window's current page */
  g_assert_cmpuint (embers_window_get_n_pages (window), ==, 1);
  g_assert_true (embers_window_get_current_page (window) == page);
  g_assert_true (embers_profile_is_diff (embers_profile_page_get_profile (page)));
  g_assert_cmpstr (embers_profile_page_get_title (page), ==, "cpu-before.pb.gz vs cpu-after.pb.gz");

  /* The real flame graph, the legend and the diff table */
  g_assert_true (EMBERS_IS_FLAME_GRAPH (graph));
  g_assert_true (gtk_widget_get_mapped (graph));
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (legend)));
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (table)));
  g_assert_false (gtk_widget_get_mapped (GTK_WIDGET (embers_profile_page_get_top_table (page))));
  row = embers_diff_table_get_row (table, 0);
  g_assert_cmpstr (embers_diff_table_get_row_name (table, 0), ==, "main.checksum");
  g_assert_cmpint (row->kind, ==, EMBERS_DIFF_KIND_CHANGED);
  g_assert_cmpfloat (row->change, >, 50.0);
  g_assert_cmpint (row->comparison_total, >, row->baseline_total);

  /* Red/blue by default: the slowed function red, the one that lost
   * most share (main.encode, -15.5%) bluish, one whose share held
   * (main.tokenize, -0.9%) the neutral gray */
  g_assert_cmpuint (embers_diff_legend_get_palette (legend), ==, EMBERS_DIFF_PALETTE_RED_BLUE);
  embers_test_settle ();
  frame_point (EMBERS_FLAME_GRAPH (graph), "main.checksum", &sx, &sy);
  widget_pixel (graph, sx, sy, rgb);
  g_assert_cmpint (rgb[0], >, rgb[1] + 40);
  g_assert_cmpint (rgb[0], >, rgb[2] + 40);
  {
    int neutral_x, neutral_y;

    frame_point (EMBERS_FLAME_GRAPH (graph), "main.tokenize", &neutral_x, &neutral_y);
    widget_pixel (graph, neutral_x, neutral_y, rgb);
    g_assert_cmpint (ABS (rgb[0] - rgb[2]), <, 12);
    g_assert_cmpint (ABS (rgb[0] - rgb[1]), <, 12);
  }
  frame_point (EMBERS_FLAME_GRAPH (graph), "main.encode", &x, &y);
  widget_pixel (graph, x, y, rgb);
  g_assert_cmpint (rgb[2], >, rgb[1]);
  g_assert_cmpint (rgb[2], >, rgb[0]);

  /* The palette switch: legend, graph and the setting follow */
  gtk_drop_down_set_selected (GTK_DROP_DOWN (find_accessible_dropdown (GTK_WIDGET (page), "Diff colors")), 1);
  g_assert_cmpuint (embers_diff_legend_get_palette (legend), ==, EMBERS_DIFF_PALETTE_RED_GREEN);
  g_assert_cmpuint (embers_flame_graph_get_diff_palette (EMBERS_FLAME_GRAPH (graph)), ==,
                    EMBERS_DIFF_PALETTE_RED_GREEN);
  g_assert_cmpstr (g_settings_get_string (settings, "diff-palette"), ==, "red-green");
  embers_test_settle ();
  widget_pixel (graph, x, y, rgb);
  g_assert_cmpint (rgb[1], >, rgb[2]);
  g_assert_cmpint (rgb[1], >, rgb[0]);
  widget_pixel (graph, sx, sy, rgb);
  g_assert_cmpint (rgb[0], >, rgb[1] + 40);

  /* Every diff view uses the setting: a second comparison opens in it,
   * and follows when it changes */
  {
    GtkWidget *second = open_go_comparison (window);

    g_assert_cmpuint (embers_compare_page_get_palette (EMBERS_COMPARE_PAGE (second)), ==,
                      EMBERS_DIFF_PALETTE_RED_GREEN);
    g_settings_set_string (settings, "diff-palette", "red-blue");
    g_assert_cmpuint (embers_compare_page_get_palette (EMBERS_COMPARE_PAGE (second)), ==,
                      EMBERS_DIFF_PALETTE_RED_BLUE);
    g_assert_cmpuint (embers_diff_legend_get_palette (legend), ==, EMBERS_DIFF_PALETTE_RED_BLUE);
  }

  embers_test_destroy_window (GTK_WINDOW (window));
}

static void
test_compare_keyboard_and_table (void)
{
  EmbersWindow *window = new_window ();
  GtkWidget *compare = open_go_comparison (window);
  EmbersProfilePage *page = embers_compare_page_get_profile_page (EMBERS_COMPARE_PAGE (compare));
  EmbersFlameGraph *graph = EMBERS_FLAME_GRAPH (embers_compare_page_get_graph (EMBERS_COMPARE_PAGE (compare)));
  EmbersDiffTable *table = embers_compare_page_get_table (EMBERS_COMPARE_PAGE (compare));
  EmbersProfile *diff = embers_flame_graph_get_profile (graph);
  guint32 selected;

  /* Arrows move the selection, Enter focuses it, Backspace goes back */
  gtk_widget_grab_focus (GTK_WIDGET (graph));
  g_assert_true (gtk_widget_has_focus (GTK_WIDGET (graph)));
  g_assert_true (embers_flame_graph_move_selection (graph, EMBERS_NEIGHBOR_CHILD));
  while (embers_flame_graph_move_selection (graph, EMBERS_NEIGHBOR_CHILD) &&
         !g_str_equal (embers_profile_node_name_str (diff, embers_flame_graph_get_selected_node (graph)),
                       "main.handle"))
    ;
  selected = embers_flame_graph_get_selected_node (graph);
  g_assert_cmpstr (embers_profile_node_name_str (diff, selected), ==, "main.handle");
  /* A selected frame selects its row */
  g_assert_cmpstr (embers_diff_table_get_selected_name (table), ==, "main.handle");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (graph), "flame.focus-selected", NULL));
  g_assert_cmpuint (embers_flame_graph_get_focus_node (graph), ==, selected);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "page.back", NULL));
  g_assert_cmpuint (embers_flame_graph_get_focus_node (graph), ==, 0);

  /* A selected row outlines the function's frames; an activated one
   * focuses its frame */
  embers_diff_table_select_name (table, "main.encode");
  g_assert_cmpstr (embers_flame_graph_get_highlight_name (graph), ==, "main.encode");
  g_signal_emit_by_name (table, "row-activated", "main.encode");
  g_assert_cmpstr (embers_profile_node_name_str (diff, embers_flame_graph_get_focus_node (graph)), ==,
                   "main.encode");
  g_assert_cmpstr (embers_profile_node_name_str (diff, embers_flame_graph_get_selected_node (graph)), ==,
                   "main.encode");

  /* Screen readers hear the change */
  {
    g_autofree char *text = embers_render_accessible_text (diff, EMBERS_DIFF_COMPARISON,
                                                           embers_flame_graph_get_selected_node (graph));

    g_assert_nonnull (text);
    g_assert_nonnull (strstr (text, "main.encode"));
  }

  /* Search: matches in the diff, next match selects one */
  embers_profile_page_set_search (page, "checksum", FALSE, FALSE);
  wait_page (page);
  g_assert_nonnull (embers_flame_graph_get_search (graph));
  g_assert_cmpuint (embers_search_get_n_matches (embers_flame_graph_get_search (graph)), >, 0);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "page.search-next", NULL));
  g_assert_cmpstr (embers_profile_node_name_str (diff, embers_flame_graph_get_selected_node (graph)), ==,
                   "main.checksum");
  g_assert_cmpstr (embers_diff_table_get_selected_name (table), ==, "main.checksum");

  /* Sandwich of a diff is still a diff, with the diff table */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "page.sandwich", "s", "main.checksum"));
  wait_page (page);
  g_assert_true (embers_profile_is_diff (embers_flame_graph_get_profile (embers_profile_page_get_flame_graph (page))));
  g_assert_cmpuint (embers_diff_table_get_n_rows (table), >, 0);

  embers_test_destroy_window (GTK_WINDOW (window));
}

static void
test_compare_export (void)
{
  EmbersWindow *window = new_window ();
  GtkWidget *compare = open_go_comparison (window);
  EmbersProfilePage *page = embers_window_get_current_page (window);
  g_autofree char *dir = g_dir_make_tmp ("embers-test-XXXXXX", NULL);
  g_autofree char *svg = g_build_filename (dir, "diff.svg", NULL);
  g_autofree char *json = g_build_filename (dir, "diff.json", NULL);
  g_autofree char *contents = NULL;
  g_autoptr(GFile) json_file = NULL;
  g_autoptr(EmbersProfile) reloaded = NULL;
  g_autoptr(GError) error = NULL;
  gsize len;

  /* What the window's Export… writes: the current page, the diff */
  g_assert_true (page == embers_compare_page_get_profile_page (EMBERS_COMPARE_PAGE (compare)));
  g_assert_true (gtk_widget_is_sensitive (GTK_WIDGET (window)));
  export_to (page, svg);
  g_assert_true (g_file_get_contents (svg, &contents, &len, NULL));
  g_assert_nonnull (g_strstr_len (contents, len, "<svg"));
  g_assert_nonnull (g_strstr_len (contents, len, "<title>Diff flame graph</title>"));
  g_assert_nonnull (g_strstr_len (contents, len, "blue: shrank, gray: unchanged, red: grew"));

  /* JSON: the diff, as Pyroscope's diff levels */
  export_to (page, json);
  json_file = g_file_new_for_path (json);
  reloaded = embers_profile_load_file (json_file, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (embers_profile_is_diff (reloaded));
  g_assert_cmpint (embers_profile_get_total (reloaded, EMBERS_DIFF_BASELINE), ==,
                   embers_profile_get_total (embers_profile_page_get_profile (page), EMBERS_DIFF_BASELINE));
  g_assert_cmpint (embers_profile_get_total (reloaded, EMBERS_DIFF_COMPARISON), ==,
                   embers_profile_get_total (embers_profile_page_get_profile (page), EMBERS_DIFF_COMPARISON));

  g_unlink (svg);
  g_unlink (json);
  g_rmdir (dir);
  embers_test_destroy_window (GTK_WINDOW (window));
}

static void
wait_explore (EmbersExplorePage *page)
{
  embers_test_wait_while (embers_explore_page_get_loading (page) ||
                          embers_profile_page_get_busy (embers_explore_page_get_profile_page (page)));
  embers_test_settle ();
}

/* The explore page's Compare…: a compare tab with the current query and
 * the period before it, not started until the user presses Compare */
static void
test_compare_from_explore (void)
{
  EmbersWindow *window = new_window ();
  g_autoptr(EmbersLocalSource) source = embers_local_source_new ();
  g_autofree char *base_path = g_test_build_filename (G_TEST_DIST, "fixtures", "go", "cpu-before.pb.gz", NULL);
  g_autofree char *comp_path = g_test_build_filename (G_TEST_DIST, "fixtures", "go", "cpu-after.pb.gz", NULL);
  g_autoptr(GFile) base_file = g_file_new_for_path (base_path);
  g_autoptr(GFile) comp_file = g_file_new_for_path (comp_path);
  g_autoptr(EmbersProfile) before = embers_profile_load_file (base_file, NULL, NULL);
  g_autoptr(EmbersProfile) after = embers_profile_load_file (comp_file, NULL, NULL);
  const char *labels[] = { "service_name", "api", NULL };
  gint64 now = g_get_real_time () / 1000;
  EmbersExplorePage *explore;
  g_autoptr(EmbersQuery) current = NULL;
  g_autoptr(EmbersQuery) baseline = NULL;
  g_autoptr(EmbersQuery) comparison = NULL;
  EmbersComparePage *compare;
  AdwTabView *view;

  g_assert_nonnull (before);
  g_assert_nonnull (after);
  embers_local_source_add_profile (source, "before", before, now - 90 * 60000, labels);
  embers_local_source_add_profile (source, "after", after, now - 20 * 60000, labels);

  explore = EMBERS_EXPLORE_PAGE (embers_window_open_explore (window, EMBERS_SOURCE (source), NULL));
  wait_explore (explore);
  embers_explore_page_select_service (explore, "api");
  wait_explore (explore);
  embers_explore_page_set_time_range (explore, now - 60 * 60000, now);
  wait_explore (explore);
  current = embers_explore_page_dup_query (explore);
  g_assert_nonnull (current);

  /* The Compare view of the same tab (a workspace), not a new tab */
  embers_explore_page_request_compare (explore);
  g_assert_cmpuint (embers_window_get_n_pages (window), ==, 1);
  view = ADW_TAB_VIEW (find_widget_of_type (GTK_WIDGET (window), ADW_TYPE_TAB_VIEW));
  g_assert_true (EMBERS_IS_WORKSPACE (adw_tab_page_get_child (adw_tab_view_get_selected_page (view))));
  compare = embers_workspace_get_compare_page (EMBERS_WORKSPACE (adw_tab_page_get_child (adw_tab_view_get_selected_page (view))));
  g_assert_true (EMBERS_IS_COMPARE_PAGE (compare));
  g_assert_cmpstr (embers_workspace_get_view (EMBERS_WORKSPACE (adw_tab_page_get_child (adw_tab_view_get_selected_page (view)))),
                   ==, "compare");
  g_assert_true (embers_compare_page_get_source (compare) == EMBERS_SOURCE (source));
  g_assert_false (embers_compare_page_get_busy (compare));
  g_assert_null (embers_compare_page_get_diff (compare));

  /* Both sides prefilled: the current query, and the hour before it */
  comparison = embers_compare_page_dup_query (compare, TRUE);
  baseline = embers_compare_page_dup_query (compare, FALSE);
  g_assert_nonnull (comparison);
  g_assert_nonnull (baseline);
  g_assert_cmpstr (comparison->profile_type, ==, current->profile_type);
  g_assert_cmpstr (comparison->label_selector, ==, current->label_selector);
  g_assert_cmpstr (baseline->label_selector, ==, current->label_selector);
  g_assert_cmpint (comparison->start_ms, ==, current->start_ms);
  g_assert_cmpint (comparison->end_ms, ==, current->end_ms);
  g_assert_cmpint (baseline->end_ms, ==, current->start_ms);
  g_assert_cmpint (baseline->start_ms, ==, current->start_ms - (current->end_ms - current->start_ms));

  /* The user presses Compare: the slowed function tops the table */
  embers_compare_page_compare (compare);
  embers_test_wait_while (embers_compare_page_get_busy (compare) ||
                          embers_profile_page_get_busy (embers_compare_page_get_profile_page (compare)) ||
                          embers_diff_table_get_n_rows (embers_compare_page_get_table (compare)) == 0);
  g_assert_null (embers_compare_page_get_error (compare));
  g_assert_cmpstr (embers_diff_table_get_row_name (embers_compare_page_get_table (compare), 0), ==,
                   "main.checksum");

  embers_test_destroy_window (GTK_WINDOW (window));
}

static void
test_new_comparison (void)
{
  EmbersWindow *window = new_window ();
  AdwTabView *view = ADW_TAB_VIEW (find_widget_of_type (GTK_WIDGET (window), ADW_TYPE_TAB_VIEW));
  GtkWidget *child;

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.new-comparison", NULL));
  g_assert_cmpuint (embers_window_get_n_pages (window), ==, 1);
  child = adw_tab_page_get_child (adw_tab_view_get_selected_page (view));
  g_assert_true (EMBERS_IS_COMPARE_PAGE (child));
  g_assert_null (embers_compare_page_get_diff (EMBERS_COMPARE_PAGE (child)));
  g_assert_cmpstr (adw_tab_page_get_title (adw_tab_view_get_selected_page (view)), ==, "Comparison");
  /* Nothing chosen: Compare says what is missing */
  embers_compare_page_compare (EMBERS_COMPARE_PAGE (child));
  g_assert_cmpstr (embers_compare_page_get_error (EMBERS_COMPARE_PAGE (child)), ==, "Choose a baseline profile");

  embers_test_destroy_window (GTK_WINDOW (window));
}

static void
test_errors (void)
{
  EmbersWindow *window = new_window ();
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fixtures", "go", "heap.meta.txt", NULL);
  g_autoptr(GFile) missing = g_file_new_for_path ("/nonexistent/profile.pb.gz");
  g_autoptr(GFile) garbage = g_file_new_for_path (path);
  EmbersProfilePage *page;

  page = embers_window_open_file (window, missing);
  wait_page (page);
  g_assert_cmpuint (embers_profile_page_get_state (page), ==, EMBERS_PAGE_STATE_FAILED);
  g_assert_nonnull (embers_profile_page_get_error (page));
  g_assert_false (action_enabled (GTK_WIDGET (window), "win.export"));

  page = embers_window_open_file (window, garbage);
  wait_page (page);
  g_assert_cmpuint (embers_profile_page_get_state (page), ==, EMBERS_PAGE_STATE_FAILED);
  g_assert_cmpuint (embers_window_get_n_pages (window), ==, 2);

  /* Cancelling a load closes its tab */
  page = embers_window_open_sample (window);
  g_assert_cmpuint (embers_window_get_n_pages (window), ==, 3);
  g_object_add_weak_pointer (G_OBJECT (page), (gpointer *)&page);
  embers_profile_page_cancel (page);
  {
    embers_test_wait_while (page != NULL);
  }
  g_assert_null (page);
  g_assert_cmpuint (embers_window_get_n_pages (window), ==, 2);

  embers_test_destroy_window (GTK_WINDOW (window));
}

static void
test_close_while_busy (void)
{
  EmbersWindow *window = new_window ();
  EmbersProfilePage *page = open_fixture (window, "cpu-recursion.pb.gz");
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fixtures", "go", "heap.pb.gz", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  EmbersProfilePage *loading;

  /* A transform and a load still running when their tabs close: their
   * results must be dropped quietly */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "page.invert", NULL));
  g_assert_true (embers_profile_page_get_busy (page));
  /* (the running work holds the page: it is gone once its results came
   * back and were dropped, warnings being fatal) */
  g_object_add_weak_pointer (G_OBJECT (page), (gpointer *)&page);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.close-tab", NULL));
  loading = embers_window_open_file (window, file);
  g_object_add_weak_pointer (G_OBJECT (loading), (gpointer *)&loading);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.close-tab", NULL));
  embers_test_wait_while (page != NULL || loading != NULL);
  g_assert_cmpuint (embers_window_get_n_pages (window), ==, 0);

  embers_test_destroy_window (GTK_WINDOW (window));
}

static void
test_sample (void)
{
  EmbersWindow *window = new_window ();
  EmbersProfilePage *page;
  g_autoptr(GFile) sample = embers_window_get_sample_file ();

  g_assert_true (g_file_query_exists (sample, NULL));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.open-sample", NULL));
  page = embers_window_get_current_page (window);
  g_assert_nonnull (page);
  wait_page (page);
  g_assert_cmpuint (embers_profile_page_get_state (page), ==, EMBERS_PAGE_STATE_READY);
  g_assert_cmpstr (embers_profile_page_get_title (page), ==, "Sample CPU Profile");
  g_assert_cmpuint (embers_profile_get_n_nodes (embers_profile_page_get_profile (page)), >, 10);

  /* The Sandwich button with nothing selected takes the hottest function */
  embers_profile_page_set_view (page, EMBERS_VIEW_SANDWICH);
  wait_page (page);
  g_assert_cmpuint (embers_profile_page_get_view (page), ==, EMBERS_VIEW_SANDWICH);
  g_assert_cmpstr (embers_profile_node_name_str (embers_flame_graph_get_profile (embers_profile_page_get_flame_graph (page)), 1),
                   ==, "main.compress");

  /* Closing the last tab shows the empty state again */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.close-tab", NULL));
  embers_test_settle ();
  g_assert_cmpuint (embers_window_get_n_pages (window), ==, 0);

  embers_test_destroy_window (GTK_WINDOW (window));
}

/* A long load's coarse flame graph (embers_profile_page_set_interim_every
 * makes any load offer one every n stacks, and wait until it is shown):
 * drawn dimmed under a banner that says how much of the profile it holds,
 * updated in place, nothing enabled that would act on it as the whole
 * profile; then replaced by the whole profile; and a load cancelled while
 * partial stops and closes its tab */
static void
on_partial (EmbersProfilePage *page,
            GParamSpec        *pspec,
            guint             *n_shown)
{
  if (embers_profile_page_get_partial (page))
    (*n_shown)++;
}

static gboolean
partial_and_painted (gpointer data)
{
  EmbersProfilePage *page = data;
  EmbersFlameGraph *graph = embers_profile_page_get_flame_graph (page);

  return embers_profile_page_get_partial (page) && embers_flame_graph_has_paint_cache (graph) &&
         embers_test_count_shown_text (gtk_widget_get_ancestor (GTK_WIDGET (page), GTK_TYPE_WINDOW), "Partial:") > 0;
}

static void
test_partial (void)
{
  const char *gen = g_getenv ("EMBERS_GEN_PPROF");
  g_autofree char *dir = g_dir_make_tmp ("embers-partial-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "random.pb", NULL);
  g_autofree char *samples = g_strdup ("--samples=20000");
  char *argv[] = { (char *)gen, (char *)"--shape=random", samples, (char *)"--functions=2000", path, NULL };
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersProfile) plain = NULL;
  EmbersWindow *window;
  EmbersProfilePage *page;
  EmbersFlameGraph *graph;
  g_autoptr(EmbersProfile) coarse = NULL;
  EmbersTestPixels *pixels;
  graphene_rect_t area;
  guint n_shown = 0;
  int status = 0;

  if (gen == NULL)
    {
      g_test_skip ("EMBERS_GEN_PPROF is not set");
      return;
    }
  g_assert_true (g_spawn_sync (NULL, argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));

  window = new_window ();
  page = embers_window_open_file (window, file);
  wait_page (page);
  g_assert_false (embers_profile_page_get_partial (page));
  plain = g_object_ref (embers_profile_page_get_profile (page));
  g_assert_cmpuint (embers_profile_get_n_nodes (plain), >, 100000);

  /* Loaded again, with a coarse profile every 4000 stacks */
  embers_profile_page_set_interim_every (page, 4000);
  g_signal_connect (page, "notify::partial", G_CALLBACK (on_partial), &n_shown);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "page.reload", NULL));
  embers_test_wait_until (partial_and_painted, page, "a coarse profile drawn under its banner");
  g_assert_cmpuint (embers_profile_page_get_state (page), ==, EMBERS_PAGE_STATE_LOADING);
  graph = embers_profile_page_get_flame_graph (page);
  /* Held: the next coarse profile replaces it in the graph while the
   * test looks (a use after free once, on the busy machine) */
  coarse = g_object_ref (embers_flame_graph_get_profile (graph));
  g_assert_nonnull (coarse);
  g_assert_true (coarse != plain);
  g_assert_cmpuint (embers_profile_get_n_nodes (coarse), <=, 16384);
  g_assert_cmpint (embers_profile_node_total (coarse, 0, 0), <=, embers_profile_node_total (plain, 0, 0));
  /* Nothing acts on it as if it were whole */
  g_assert_false (action_enabled (GTK_WIDGET (page), "page.collapse-recursion"));
  g_assert_false (action_enabled (GTK_WIDGET (page), "page.view"));
  g_assert_false (action_enabled (GTK_WIDGET (page), "page.reset"));
  g_assert_true (action_enabled (GTK_WIDGET (page), "page.cancel"));
  /* The table is of a whole profile only */
  g_assert_cmpuint (embers_top_table_get_n_rows (embers_profile_page_get_top_table (page)), ==, 0);
  /* and says so in its place, drawn */
  embers_test_settle ();
  g_assert_nonnull (embers_top_table_get_placeholder (embers_profile_page_get_top_table (page)));
  g_assert_cmpuint (embers_test_count_shown_text (GTK_WIDGET (embers_profile_page_get_top_table (page)),
                                                  "fills in once the whole profile is read"), ==, 1);
  {
    GtkWidget *table = GTK_WIDGET (embers_profile_page_get_top_table (page));
    EmbersTestPixels *shot = embers_test_render_frame (table);

    embers_test_assert_not_blank (shot, &GRAPHENE_RECT_INIT (0, gtk_widget_get_height (table) / 3.0,
                                                             gtk_widget_get_width (table),
                                                             gtk_widget_get_height (table) / 3.0),
                                  3, "the table's status");
    embers_test_pixels_free (shot);
    if (g_getenv ("EMBERS_TEST_SHOTS") != NULL)
      {
        g_autofree char *where = g_build_filename (g_getenv ("EMBERS_TEST_SHOTS"), "partial-table.png", NULL);

        shot = embers_test_render_frame (GTK_WIDGET (window));
        embers_test_pixels_save (shot, where);
        embers_test_pixels_free (shot);
      }
  }
  gtk_widget_activate_action (GTK_WIDGET (page), "page.transform", "(s^as)", "merge-function",
                              (const char *[]) { embers_profile_node_name_str (coarse, 1), NULL });
  gtk_widget_activate_action (GTK_WIDGET (page), "page.sandwich", "s", embers_profile_node_name_str (coarse, 1));
  g_assert_cmpuint (embers_transform_stack_get_length (embers_profile_page_get_transforms (page)), ==, 0);
  g_assert_cmpuint (embers_profile_page_get_view (page), ==, EMBERS_VIEW_ICICLE);
  {
    g_autofree char *out = g_build_filename (dir, "partial.folded", NULL);
    g_autoptr(GFile) out_file = g_file_new_for_path (out);
    GError *export_error = NULL;

    embers_profile_page_export_async (page, out_file, NULL, export_done, &export_error);
    embers_test_wait_while (export_error == NULL);
    g_assert_error (export_error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED);
    g_error_free (export_error);
    g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
  }
  /* What a person sees: the coarse frames, drawn */
  pixels = embers_test_render_frame (GTK_WIDGET (graph));
  area = GRAPHENE_RECT_INIT (0, 0, gtk_widget_get_width (GTK_WIDGET (graph)), 60);
  embers_test_assert_not_blank (pixels, &area, 3, "partial");
  embers_test_pixels_free (pixels);

  /* Updated in place, then the whole profile, the banner gone */
  embers_test_wait_while (embers_profile_page_get_partial (page) ||
                          embers_profile_page_get_state (page) != EMBERS_PAGE_STATE_READY);
  wait_page (page);
  g_assert_cmpuint (n_shown, >=, 3);
  g_assert_cmpuint (embers_profile_get_n_nodes (embers_profile_page_get_profile (page)), ==,
                    embers_profile_get_n_nodes (plain));
  g_assert_cmpint (embers_profile_node_total (embers_profile_page_get_profile (page), 0, 0), ==,
                   embers_profile_node_total (plain, 0, 0));
  g_assert_cmpuint (embers_profile_get_n_nodes (embers_flame_graph_get_profile (graph)), ==,
                    embers_profile_get_n_nodes (plain));
  embers_test_wait_while (embers_test_count_shown_text (GTK_WIDGET (window), "Partial:") > 0);
  g_assert_cmpuint (embers_top_table_get_n_rows (embers_profile_page_get_top_table (page)), >, 10);
  g_assert_null (embers_top_table_get_placeholder (embers_profile_page_get_top_table (page)));
  g_assert_cmpuint (embers_test_count_shown_text (GTK_WIDGET (window), "fills in once the whole profile is read"), ==, 0);
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (embers_profile_page_get_top_table (page))), >, 200);
  g_assert_true (action_enabled (GTK_WIDGET (page), "page.collapse-recursion"));

  /* Cancelled while partial: the load stops, the tab goes */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "page.reload", NULL));
  embers_test_wait_until (partial_and_painted, page, "a coarse profile drawn under its banner");
  g_object_add_weak_pointer (G_OBJECT (page), (gpointer *)&page);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "page.cancel", NULL));
  embers_test_wait_while (page != NULL);
  g_assert_cmpuint (embers_window_get_n_pages (window), ==, 0);

  embers_test_destroy_window (GTK_WINDOW (window));
  g_unlink (path);
  g_rmdir (dir);
}

/* The window's drop target, wherever it sits */
static GtkDropTarget *
find_drop_target (GtkWidget *widget)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_DROP_TARGET (controller))
        return GTK_DROP_TARGET (controller);
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkDropTarget *found = find_drop_target (child);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* Files dropped on the window, as GTK hands them to its drop target */
static gboolean
drop_files (EmbersWindow *window,
            GSList       *files)
{
  GtkDropTarget *target = find_drop_target (GTK_WIDGET (window));
  GValue value = G_VALUE_INIT;
  gboolean handled = FALSE;

  g_assert_nonnull (target);
  g_value_init (&value, GDK_TYPE_FILE_LIST);
  g_value_take_boxed (&value, gdk_file_list_new_from_list (files));
  g_signal_emit_by_name (target, "drop", &value, 20.0, 20.0, &handled);
  g_value_unset (&value);
  return handled;
}

/* Files dropped: each its own tab, in the order dropped; never a
 * comparison (which side is the baseline is the user's explicit choice) */
static void
test_drop (void)
{
  EmbersWindow *window = new_window ();
  AdwTabView *view = ADW_TAB_VIEW (find_widget_of_type (GTK_WIDGET (window), ADW_TYPE_TAB_VIEW));
  g_autofree char *before = g_test_build_filename (G_TEST_DIST, "fixtures", "go", "cpu-before.pb.gz", NULL);
  g_autofree char *after = g_test_build_filename (G_TEST_DIST, "fixtures", "go", "cpu-after.pb.gz", NULL);
  g_autoptr(GFile) before_file = g_file_new_for_path (before);
  g_autoptr(GFile) after_file = g_file_new_for_path (after);
  GSList *two = g_slist_append (g_slist_append (NULL, before_file), after_file);
  const char *names[] = { "cpu-before.pb.gz", "cpu-after.pb.gz" };

  g_assert_true (drop_files (window, two));
  g_assert_cmpuint (embers_window_get_n_pages (window), ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      GtkWidget *child = adw_tab_page_get_child (adw_tab_view_get_nth_page (view, (int) i));
      g_autofree char *basename = NULL;

      g_assert_true (EMBERS_IS_PROFILE_PAGE (child));
      basename = g_file_get_basename (embers_profile_page_get_file (EMBERS_PROFILE_PAGE (child)));
      g_assert_cmpstr (basename, ==, names[i]);
      wait_page (EMBERS_PROFILE_PAGE (child));
      g_assert_false (embers_profile_is_diff (embers_profile_page_get_profile (EMBERS_PROFILE_PAGE (child))));
    }

  g_slist_free (two);
  embers_test_destroy_window (GTK_WINDOW (window));
}

static void open_urls (EmbersApplication *app);

static gboolean
page_loaded (gpointer data)
{
  EmbersProfilePage *page = data;

  return embers_profile_page_get_profile (page) != NULL &&
         embers_profile_page_get_state (page) != EMBERS_PAGE_STATE_LOADING &&
         !embers_profile_page_get_busy (page);
}

static void
test_application (void)
{
  g_autoptr(EmbersApplication) app = embers_application_new ();
  g_autofree char *path1 = g_test_build_filename (G_TEST_DIST, "fixtures", "go", "cpu-labels.pb.gz", NULL);
  g_autofree char *path2 = g_test_build_filename (G_TEST_DIST, "fixtures", "go", "cpu-recursion.pb.gz", NULL);
  GFile *files[2];
  GtkWindow *window;
  gboolean about = FALSE;
  g_autoptr(GError) error = NULL;

  g_application_set_flags (G_APPLICATION (app),
                           g_application_get_flags (G_APPLICATION (app)) | G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, &error));
  g_assert_no_error (error);

  /* embers A B opens two tabs; a comparison only on request (app.compare,
   * embers --diff BASE COMP) */
  files[0] = g_file_new_for_path (path1);
  files[1] = g_file_new_for_path (path2);
  g_application_open (G_APPLICATION (app), files, 2, "");

  window = gtk_application_get_active_window (GTK_APPLICATION (app));
  g_assert_true (EMBERS_IS_WINDOW (window));
  g_assert_cmpuint (embers_window_get_n_pages (EMBERS_WINDOW (window)), ==, 2);
  embers_test_wait_until (page_loaded, embers_window_get_current_page (EMBERS_WINDOW (window)), "the tab to load");
  g_assert_false (embers_profile_is_diff (embers_profile_page_get_profile (embers_window_get_current_page (EMBERS_WINDOW (window)))));

  {
    g_autofree char *uri1 = g_file_get_uri (files[0]);
    g_autofree char *uri2 = g_file_get_uri (files[1]);
    const char *uris[] = { uri1, uri2, NULL };

    g_action_group_activate_action (G_ACTION_GROUP (app), "compare", g_variant_new_strv (uris, 2));
  }
  g_object_unref (files[0]);
  g_object_unref (files[1]);
  g_assert_cmpuint (embers_window_get_n_pages (EMBERS_WINDOW (window)), ==, 3);
  embers_test_wait_until (page_loaded, embers_window_get_current_page (EMBERS_WINDOW (window)), "the comparison to load");
  g_assert_true (embers_profile_is_diff (embers_profile_page_get_profile (embers_window_get_current_page (EMBERS_WINDOW (window)))));

  /* Ctrl+? shows the keyboard shortcuts over the window */
  {
    g_auto(GStrv) accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app), "win.show-shortcuts");
    AdwDialog *shortcuts;

    g_assert_cmpstr (accels[0], ==, "<Control>question");
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-shortcuts", NULL));
    shortcuts = adw_application_window_get_visible_dialog (ADW_APPLICATION_WINDOW (window));
    g_assert_nonnull (shortcuts);
    g_assert_true (adw_dialog_close (shortcuts));
  }
  g_assert_true (g_action_group_has_action (G_ACTION_GROUP (app), "color-scheme"));
  g_action_group_activate_action (G_ACTION_GROUP (app), "color-scheme", g_variant_new_string ("dark"));
  g_assert_true (adw_style_manager_get_dark (adw_style_manager_get_default ()));
  g_action_group_activate_action (G_ACTION_GROUP (app), "color-scheme", g_variant_new_string ("light"));
  g_assert_false (adw_style_manager_get_dark (adw_style_manager_get_default ()));

  g_action_group_activate_action (G_ACTION_GROUP (app), "about", NULL);
  {
    AdwDialog *dialog = adw_application_window_get_visible_dialog (ADW_APPLICATION_WINDOW (window));

    g_assert_true (ADW_IS_ABOUT_DIALOG (dialog));
    if (ADW_IS_ABOUT_DIALOG (dialog))
      {
        AdwAboutDialog *dialog_about = ADW_ABOUT_DIALOG (dialog);

        /* The version from meson, its release notes from the metainfo */
        about = TRUE;
        g_assert_cmpstr (adw_about_dialog_get_version (dialog_about), ==, PACKAGE_VERSION);
        g_assert_cmpstr (adw_about_dialog_get_release_notes_version (dialog_about), ==, PACKAGE_VERSION);
        {
          /* AppStream keeps the metainfo's line breaks between the tags */
          g_autoptr(GRegex) space = g_regex_new (">\\s+<", 0, 0, NULL);
          g_autofree char *notes = g_regex_replace_literal (space, adw_about_dialog_get_release_notes (dialog_about),
                                                            -1, 0, "><", 0, NULL);

          g_assert_nonnull (strstr (notes, "<p>Pyroscope servers, comparisons and a complete GNOME application.</p><ul><li>"));
        }
        g_assert_cmpint (adw_about_dialog_get_license_type (dialog_about), ==, GTK_LICENSE_GPL_3_0);
        g_assert_cmpstr (adw_about_dialog_get_application_icon (dialog_about), ==, APP_ID);
        /* No made-up links: the metainfo names no tracker yet */
        g_assert_true (adw_about_dialog_get_issue_url (dialog_about) == NULL ||
                       adw_about_dialog_get_issue_url (dialog_about)[0] == '\0');
        g_assert_true (adw_about_dialog_get_website (dialog_about) == NULL ||
                       adw_about_dialog_get_website (dialog_about)[0] == '\0');
        g_assert_nonnull (strstr (adw_about_dialog_get_debug_info (dialog_about), PACKAGE_VERSION));
        g_assert_true (adw_dialog_close (dialog));
      }
  }
  g_assert_true (about);

  open_urls (app);

  /* Quit closes the windows, which saves their size */
  g_action_group_activate_action (G_ACTION_GROUP (app), "quit", NULL);
  embers_test_wait_while (gtk_application_get_windows (GTK_APPLICATION (app)) != NULL);
  g_assert_null (gtk_application_get_windows (GTK_APPLICATION (app)));
}

/* embers URL1 URL2: two Pyroscope query URLs open as a comparison whose
 * sides say which query (not "/"); nobody listens here, so it fails in
 * words, on the page (in the application of test_application: one
 * registration per process) */
static void
open_urls (EmbersApplication *app)
{
  g_autoptr(EmbersQuery) eu = embers_query_new ("process_cpu:cpu:nanoseconds:cpu:nanoseconds",
                                                "{service_name=\"api\",region=\"eu\"}", 1700000000000, 1700003600000);
  g_autoptr(EmbersQuery) us = embers_query_new ("process_cpu:cpu:nanoseconds:cpu:nanoseconds",
                                                "{service_name=\"api\",region=\"us\"}", 1700000000000, 1700003600000);
  g_autofree char *eu_url = embers_query_url_build ("http://u:p@127.0.0.1:9/", eu);
  g_autofree char *us_url = embers_query_url_build ("http://u:p@127.0.0.1:9/", us);
  AdwTabView *view;
  EmbersComparePage *compare;
  GtkWindow *window;
  GFile *files[2];

  /* As `embers --diff URL1 URL2` makes them */
  files[0] = g_file_new_for_commandline_arg (eu_url);
  files[1] = g_file_new_for_commandline_arg (us_url);
  {
    g_autofree char *uri1 = g_file_get_uri (files[0]);
    g_autofree char *uri2 = g_file_get_uri (files[1]);
    const char *uris[] = { uri1, uri2, NULL };

    g_action_group_activate_action (G_ACTION_GROUP (app), "compare", g_variant_new_strv (uris, 2));
  }
  g_object_unref (files[0]);
  g_object_unref (files[1]);

  window = gtk_application_get_active_window (GTK_APPLICATION (app));
  g_assert_true (EMBERS_IS_WINDOW (window));
  view = ADW_TAB_VIEW (find_widget_of_type (GTK_WIDGET (window), ADW_TYPE_TAB_VIEW));
  compare = EMBERS_COMPARE_PAGE (adw_tab_page_get_child (adw_tab_view_get_selected_page (view)));
  g_assert_true (EMBERS_IS_COMPARE_PAGE (compare));
  g_assert_cmpstr (embers_compare_page_get_file_label (compare, FALSE), ==,
                   "process_cpu:cpu {service_name=\"api\",region=\"eu\"} on 127.0.0.1:9");
  g_assert_cmpstr (embers_compare_page_get_file_label (compare, TRUE), ==,
                   "process_cpu:cpu {service_name=\"api\",region=\"us\"} on 127.0.0.1:9");
  embers_test_wait_while (embers_compare_page_get_busy (compare));
  g_assert_nonnull (embers_compare_page_get_error (compare));
  g_assert_nonnull (strstr (embers_compare_page_get_error (compare), "refused"));
  g_assert_null (strstr (embers_compare_page_get_error (compare), "Could not open"));
}

int
main (int   argc,
      char *argv[])
{
  embers_test_gtk_init (&argc, &argv);

  g_test_add_func ("/embers/window/empty", test_empty);
  g_test_add_func ("/embers/window/warm-renderer", test_warm_renderer);
  g_test_add_func ("/embers/window/open-fixture", test_open_fixture);
  g_test_add_func ("/embers/window/lazy-parts", test_lazy_parts);
  g_test_add_func ("/embers/window/click-and-keyboard", test_click_and_keyboard);
  g_test_add_func ("/embers/window/search", test_search);
  g_test_add_func ("/embers/window/views", test_views);
  g_test_add_func ("/embers/window/sample-types", test_sample_types);
  g_test_add_func ("/embers/window/export", test_export);
  g_test_add_func ("/embers/window/errors", test_errors);
  g_test_add_func ("/embers/window/compare-files", test_compare_files);
  g_test_add_func ("/embers/window/compare-keyboard-and-table", test_compare_keyboard_and_table);
  g_test_add_func ("/embers/window/compare-export", test_compare_export);
  g_test_add_func ("/embers/window/compare-from-explore", test_compare_from_explore);
  g_test_add_func ("/embers/window/new-comparison", test_new_comparison);
  g_test_add_func ("/embers/window/close-while-busy", test_close_while_busy);
  g_test_add_func ("/embers/window/sample", test_sample);
  g_test_add_func ("/embers/window/partial", test_partial);
  g_test_add_func ("/embers/window/drop", test_drop);
  g_test_add_func ("/embers/application/open-files", test_application);

  return g_test_run ();
}
