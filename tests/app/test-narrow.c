/* test-narrow.c: every page of the window fits 600 × 500 px (its content's
 * minimum size), and the key controls stay reachable there
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <locale.h>
#include <glib/gi18n.h>
#include <adwaita.h>
#include <glib/gstdio.h>

#include "embers-compare-page.h"
#include "embers-connect-dialog.h"
#include "embers-explore-page.h"
#include "embers-labels-page.h"
#include "embers-local-source.h"
#include "embers-pyroscope-source.h"
#include "embers-rule-dialog.h"
#include "embers-rules-page.h"
#include "embers-test-gtk-utils.h"
#include "embers-test-server-spawn.h"
#include "embers-window.h"

#define NARROW_WIDTH 600
#define NARROW_HEIGHT 500

/* Until @done holds, then whatever that made ready to run */
#define wait_for(done, data) \
  G_STMT_START { embers_test_wait_until ((done), (data), #done); embers_test_drain (); } G_STMT_END

static gboolean
page_idle (gpointer data)
{
  EmbersProfilePage *page = data;

  return embers_profile_page_get_state (page) != EMBERS_PAGE_STATE_LOADING &&
         !embers_profile_page_get_busy (page) &&
         !embers_profile_page_get_search_pending (page);
}

static gboolean
explore_idle (gpointer data)
{
  EmbersExplorePage *page = data;

  return !embers_explore_page_get_loading (page) &&
         !embers_profile_page_get_busy (embers_explore_page_get_profile_page (page));
}

static gboolean
has_services (gpointer data)
{
  return g_list_model_get_n_items (embers_explore_page_get_services (data)) > 0;
}

static gboolean
labels_idle (gpointer data)
{
  return !embers_labels_page_get_loading (data) &&
         g_list_model_get_n_items (embers_labels_page_get_names (data)) > 0;
}

static gboolean
rules_idle (gpointer data)
{
  return !embers_rules_page_get_loading (data);
}

static gboolean
compare_idle (gpointer data)
{
  return !embers_compare_page_get_busy (data);
}

/* The window's content, as the window lays it out (header bar included) */
static GtkWidget *
window_content (GtkWindow *window)
{
  if (ADW_IS_APPLICATION_WINDOW (window))
    return adw_application_window_get_content (ADW_APPLICATION_WINDOW (window));
  if (ADW_IS_WINDOW (window))
    return adw_window_get_content (ADW_WINDOW (window));
  return gtk_window_get_child (window);
}

/* The widget deepest in the tree whose minimum width is above @limit: the
 * one to blame in a failure message */
static GtkWidget *
widest_descendant (GtkWidget *widget,
                   int        limit)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      int min = 0;

      if (!gtk_widget_get_visible (child))
        continue;
      gtk_widget_measure (child, GTK_ORIENTATION_HORIZONTAL, -1, &min, NULL, NULL, NULL);
      if (min > limit)
        return widest_descendant (child, limit);
    }
  return widget;
}

static void
assert_fits (GtkWindow  *window,
             const char *state)
{
  GtkWidget *content = window_content (window);
  int min_width = 0, min_height = 0;

  /* Laid out as a frame shows it */
  embers_test_wait_frame (GTK_WIDGET (window));
  gtk_widget_measure (content, GTK_ORIENTATION_HORIZONTAL, -1, &min_width, NULL, NULL, NULL);
  gtk_widget_measure (content, GTK_ORIENTATION_VERTICAL, NARROW_WIDTH, &min_height, NULL, NULL, NULL);
  g_test_message ("%s: minimum %d x %d px", state, min_width, min_height);
  if (min_width > NARROW_WIDTH)
    {
      GtkWidget *culprit = widest_descendant (content, NARROW_WIDTH);

      g_test_message ("%s: the widest part is a %s (%s)", state,
                      G_OBJECT_TYPE_NAME (culprit),
                      gtk_widget_get_name (culprit));
    }
  g_assert_cmpint (min_width, <=, NARROW_WIDTH);
  g_assert_cmpint (min_height, <=, NARROW_HEIGHT);
}

/* The window's size on screen (its surface: the frame included) */
static void
surface_size (GtkWindow *window,
              int       *width,
              int       *height)
{
  GdkSurface *surface = gtk_native_get_surface (GTK_NATIVE (window));

  *width = gdk_surface_get_width (surface);
  *height = gdk_surface_get_height (surface);
}

typedef struct
{
  GtkWindow *window;
  int        width;
  int        height;
} SizeWait;

static gboolean
window_has_size (gpointer data)
{
  SizeWait *wait = data;
  int w = 0, h = 0;

  surface_size (wait->window, &w, &h);
  return w == wait->width && h == wait->height &&
         gtk_widget_get_width (GTK_WIDGET (wait->window)) > 0 &&
         gtk_widget_get_width (GTK_WIDGET (wait->window)) <= wait->width;
}

/* Resizes the window to @width × @height and waits until it is laid out so */
static void
resize (GtkWindow *window,
        int        width,
        int        height)
{
  SizeWait wanted = { window, width, height };
  int w = 0, h = 0;

  gtk_window_set_default_size (window, width, height);
  embers_test_wait_until (window_has_size, &wanted, "the window's surface at its new size");
  /* and a frame at that size: the content laid out in it */
  embers_test_wait_frame (GTK_WIDGET (window));
  surface_size (window, &w, &h);
  g_test_message ("window %d x %d (%d x %d inside), content %d x %d", w, h,
                  gtk_widget_get_width (GTK_WIDGET (window)), gtk_widget_get_height (GTK_WIDGET (window)),
                  gtk_widget_get_width (window_content (window)),
                  gtk_widget_get_height (window_content (window)));
  g_assert_cmpint (w, ==, width);
  g_assert_cmpint (h, ==, height);
  /* and the content fits in it (not cut off at the bottom or the right) */
  g_assert_cmpint (gtk_widget_get_width (window_content (window)), <=, gtk_widget_get_width (GTK_WIDGET (window)));
  g_assert_cmpint (gtk_widget_get_height (window_content (window)), <=, gtk_widget_get_height (GTK_WIDGET (window)));
}

/* Every breakpoint bin on screen holds its content: not narrower or
 * lower than its child's minimum (libadwaita would warn and cut it off) */
static void
assert_bins_fit (GtkWidget  *widget,
                 const char *state,
                 int         window_width)
{
  if (!gtk_widget_get_mapped (widget))
    return;
  if (ADW_IS_BREAKPOINT_BIN (widget))
    {
      GtkWidget *child = adw_breakpoint_bin_get_child (ADW_BREAKPOINT_BIN (widget));
      int width = gtk_widget_get_width (widget);
      int height = gtk_widget_get_height (widget);
      int min_width = 0, min_height = 0;

      gtk_widget_measure (child, GTK_ORIENTATION_HORIZONTAL, -1, &min_width, NULL, NULL, NULL);
      gtk_widget_measure (child, GTK_ORIENTATION_VERTICAL, width, &min_height, NULL, NULL, NULL);
      if (min_width > width || min_height > height)
        g_test_message ("%s, window %d px wide: %s needs %d x %d px, has %d x %d; the widest part is a %s",
                        state, window_width, G_OBJECT_TYPE_NAME (widget), min_width, min_height, width, height,
                        G_OBJECT_TYPE_NAME (widest_descendant (child, width)));
      g_assert_cmpint (min_width, <=, width);
      g_assert_cmpint (min_height, <=, height);
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    assert_bins_fit (child, state, window_width);
}

/* Every window width from 1400 px down to 600 px, 40 px apart: nothing is
 * measured below its minimum or overflows a breakpoint bin (both warn, and
 * warnings are fatal here), so each breakpoint switches the layout before
 * the wider one stops fitting. Ends at 1400 × 900 again. */
static void
sweep_widths (GtkWindow  *window,
              const char *state)
{
  for (int width = 1400; width >= NARROW_WIDTH; width -= 40)
    {
      SizeWait wait = { window, width, 900 };
      g_autofree char *what = g_strdup_printf ("%s: the window %d px wide", state, width);

      gtk_window_set_default_size (window, width, 900);
      embers_test_wait_until (window_has_size, &wait, what);
      embers_test_wait_frame (GTK_WIDGET (window));
      assert_bins_fit (GTK_WIDGET (window), state, width);
    }
  {
    SizeWait wait = { window, 1400, 900 };

    gtk_window_set_default_size (window, 1400, 900);
    embers_test_wait_until (window_has_size, &wait, "the window back at 1400 x 900 px");
    embers_test_wait_frame (GTK_WIDGET (window));
  }
}

static void assert_inside (GtkWidget *widget);

/* A dialog over the window at 600 × 500 px: all of it inside the window
 * (it is no window of its own), its content at least its minimum */
static void
assert_dialog_fits (GtkWindow  *window,
                    AdwDialog  *dialog,
                    const char *state)
{
  GtkWidget *child = adw_dialog_get_child (dialog);
  int min_width = 0, min_height = 0;

  resize (window, NARROW_WIDTH, NARROW_HEIGHT);
  embers_test_wait_frame (GTK_WIDGET (window));
  g_assert_true (gtk_widget_get_mapped (child));
  gtk_widget_measure (child, GTK_ORIENTATION_HORIZONTAL, -1, &min_width, NULL, NULL, NULL);
  gtk_widget_measure (child, GTK_ORIENTATION_VERTICAL, gtk_widget_get_width (child), &min_height, NULL, NULL, NULL);
  g_test_message ("%s: minimum %d x %d px, shown %d x %d", state, min_width, min_height,
                  gtk_widget_get_width (child), gtk_widget_get_height (child));
  g_assert_cmpint (min_width, <=, gtk_widget_get_width (child));
  g_assert_cmpint (min_height, <=, gtk_widget_get_height (child));
  assert_inside (child);
  {
    graphene_rect_t bounds;

    g_assert_true (gtk_widget_compute_bounds (child, GTK_WIDGET (window), &bounds));
    g_assert_cmpfloat (bounds.origin.y, >=, -0.5);
    g_assert_cmpfloat (bounds.origin.y + bounds.size.height, <=, gtk_widget_get_height (GTK_WIDGET (window)) + 0.5);
  }
}

static EmbersWindow *
new_window (void)
{
  EmbersWindow *window = embers_window_new (NULL);

  embers_test_present_window (GTK_WINDOW (window), 1400, 900);
  return window;
}
/* A widget is on screen with room to use: mapped and some pixels wide
 * and high inside the window */
static void
assert_usable (GtkWidget *widget,
               int        min_width,
               int        min_height)
{
  graphene_rect_t bounds;

  g_assert_true (gtk_widget_get_mapped (widget));
  g_assert_true (gtk_widget_compute_bounds (widget, GTK_WIDGET (gtk_widget_get_root (widget)), &bounds));
  g_assert_cmpfloat (bounds.size.width, >=, min_width);
  g_assert_cmpfloat (bounds.size.height, >=, min_height);
}

/* A widget lies inside the window horizontally (not cut off at the right) */
static void
assert_inside (GtkWidget *widget)
{
  GtkWidget *root = GTK_WIDGET (gtk_widget_get_root (widget));
  GtkWidget *content = window_content (GTK_WINDOW (root));
  graphene_rect_t bounds, area;

  g_assert_true (gtk_widget_get_mapped (widget));
  g_assert_true (gtk_widget_compute_bounds (widget, root, &bounds));
  g_assert_true (gtk_widget_compute_bounds (content, root, &area));
  g_assert_cmpfloat (bounds.origin.x, >=, area.origin.x - 0.5);
  g_assert_cmpfloat (bounds.origin.x + bounds.size.width, <=, area.origin.x + area.size.width + 0.5);
}
static GtkWidget *
find_type (GtkWidget *widget,
           GType      type)
{
  if (g_type_is_a (G_OBJECT_TYPE (widget), type))
    return widget;

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_type (child, type);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* A visible (mapped) widget of @type under @widget */
static GtkWidget *
find_visible_type (GtkWidget *widget,
                   GType      type)
{
  if (!gtk_widget_get_mapped (widget))
    return NULL;
  if (g_type_is_a (G_OBJECT_TYPE (widget), type))
    return widget;

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_visible_type (child, type);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The explore page at 600 × 500: its flame graph has room, its toolbar is
 * on screen, the actions that moved into its menu work by their keys */
static void
assert_explore_narrow (EmbersExplorePage *explore)
{
  EmbersProfilePage *page = embers_explore_page_get_profile_page (explore);
  GtkWidget *more;

  assert_usable (GTK_WIDGET (embers_profile_page_get_flame_graph (page)), 300, 40);
  more = find_visible_type (GTK_WIDGET (explore), GTK_TYPE_MENU_BUTTON);
  g_assert_nonnull (more);
  assert_inside (more);
  assert_inside (GTK_WIDGET (gtk_widget_get_parent (more)));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (explore), "explore.refresh", NULL));
  wait_for (explore_idle, explore);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (explore), "explore.services", NULL));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (explore), "explore.services", NULL));
  embers_test_wait_frame (GTK_WIDGET (explore));
}

/* The page's search: Ctrl+F (win.find) opens the bar and focuses its entry */
static void
assert_search_reachable (EmbersWindow      *window,
                         EmbersProfilePage *page)
{
  GtkWidget *bar = find_type (GTK_WIDGET (page), GTK_TYPE_SEARCH_BAR);
  GtkWidget *entry, *focus;

  g_assert_nonnull (bar);
  entry = find_type (bar, GTK_TYPE_SEARCH_ENTRY);
  g_assert_nonnull (entry);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.find", NULL));
  embers_test_wait_property (bar, "search-mode-enabled", TRUE);
  embers_test_wait_mapped (entry);
  assert_usable (entry, 120, 16);
  assert_inside (entry);
  focus = gtk_root_get_focus (GTK_ROOT (window));
  g_assert_true (focus != NULL && (focus == entry || gtk_widget_is_ancestor (focus, entry)));
  embers_profile_page_set_search (page, "main", FALSE, FALSE);
  wait_for (page_idle, page);
  g_assert_nonnull (embers_profile_page_get_search_summary (page));
}

static void
test_empty (void)
{
  EmbersWindow *window = new_window ();

  assert_fits (GTK_WINDOW (window), "empty");
  resize (GTK_WINDOW (window), NARROW_WIDTH, NARROW_HEIGHT);
  assert_inside (embers_test_find_actionable (GTK_WIDGET (window), "win.open-sample"));
  assert_inside (embers_test_find_actionable (GTK_WIDGET (window), "win.connect"));
  embers_test_destroy_window (GTK_WINDOW (window));
}

static void
test_loaded (void)
{
  EmbersWindow *window = new_window ();
  EmbersProfilePage *page = embers_window_open_sample (window);
  EmbersFlameGraph *graph;

  wait_for (page_idle, page);
  g_assert_cmpint (embers_profile_page_get_state (page), ==, EMBERS_PAGE_STATE_READY);
  assert_fits (GTK_WINDOW (window), "loaded");
  sweep_widths (GTK_WINDOW (window), "loaded");

  resize (GTK_WINDOW (window), NARROW_WIDTH, NARROW_HEIGHT);
  graph = embers_profile_page_get_flame_graph (page);
  assert_usable (GTK_WIDGET (graph), 300, 150);
  assert_usable (GTK_WIDGET (embers_profile_page_get_top_table (page)), 200, 80);
  assert_inside (embers_test_find_actionable (GTK_WIDGET (page), "page.reset"));

  /* The view switch stays reachable by its keys and its action */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "page.view", "s", "flame"));
  wait_for (page_idle, page);
  g_assert_cmpint (embers_profile_page_get_view (page), ==, EMBERS_VIEW_FLAME);

  /* The search bar fits too */
  assert_search_reachable (window, page);
  assert_fits (GTK_WINDOW (window), "loaded, searching");

  /* Sandwich: two graphs stacked */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "page.sandwich", "s", "main.compress"));
  wait_for (page_idle, page);
  assert_fits (GTK_WINDOW (window), "loaded, sandwich");

  /* Wide again: the table and graph side by side as before */
  embers_profile_page_set_view (page, EMBERS_VIEW_ICICLE);
  wait_for (page_idle, page);
  resize (GTK_WINDOW (window), 1400, 900);
  assert_usable (GTK_WIDGET (graph), 700, 300);
  assert_usable (GTK_WIDGET (embers_profile_page_get_top_table (page)), 400, 300);
  embers_test_destroy_window (GTK_WINDOW (window));
}

static void
test_diff (void)
{
  g_autofree char *before = g_test_build_filename (G_TEST_DIST, "fixtures", "go", "cpu-before.pb.gz", NULL);
  g_autofree char *after = g_test_build_filename (G_TEST_DIST, "fixtures", "go", "cpu-after.pb.gz", NULL);
  g_autoptr(GFile) base = g_file_new_for_path (before);
  g_autoptr(GFile) comp = g_file_new_for_path (after);
  EmbersWindow *window = new_window ();
  GtkWidget *compare = embers_window_open_comparison (window, base, comp);
  EmbersProfilePage *page = embers_compare_page_get_profile_page (EMBERS_COMPARE_PAGE (compare));

  wait_for (compare_idle, compare);
  wait_for (page_idle, page);
  g_assert_nonnull (embers_compare_page_get_diff (EMBERS_COMPARE_PAGE (compare)));
  assert_fits (GTK_WINDOW (window), "diff");
  sweep_widths (GTK_WINDOW (window), "diff");

  resize (GTK_WINDOW (window), NARROW_WIDTH, NARROW_HEIGHT);
  assert_usable (embers_compare_page_get_graph (EMBERS_COMPARE_PAGE (compare)), 300, 100);
  assert_usable (GTK_WIDGET (embers_compare_page_get_legend (EMBERS_COMPARE_PAGE (compare))), 150, 10);
  assert_inside (GTK_WIDGET (embers_compare_page_get_legend (EMBERS_COMPARE_PAGE (compare))));
  assert_search_reachable (window, page);
  embers_test_destroy_window (GTK_WINDOW (window));
}

static void
test_compare_empty (void)
{
  EmbersWindow *window = new_window ();
  GtkWidget *compare = embers_window_open_compare (window);

  assert_fits (GTK_WINDOW (window), "empty comparison");
  resize (GTK_WINDOW (window), NARROW_WIDTH, NARROW_HEIGHT);
  assert_inside (embers_test_find_actionable (compare, "compare.run"));
  embers_test_destroy_window (GTK_WINDOW (window));
}

/* Both sides as queries: type, typed selector, filter bar, chart and
 * From/To of each still fit and stay reachable */
static void
test_compare_queries (void)
{
  g_autofree char *before_path = g_test_build_filename (G_TEST_DIST, "fixtures", "go", "cpu-before.pb.gz", NULL);
  g_autoptr(GFile) before_file = g_file_new_for_path (before_path);
  g_autoptr(EmbersProfile) before = embers_profile_load_file (before_file, NULL, NULL);
  g_autoptr(EmbersLocalSource) source = embers_local_source_new ();
  const char *labels[] = { "service_name", "api", "region", "eu-west", NULL };
  gint64 now = g_get_real_time () / 1000;
  g_autofree char *type = NULL;
  g_autoptr(EmbersQuery) q1 = NULL;
  g_autoptr(EmbersQuery) q2 = NULL;
  EmbersWindow *window = new_window ();
  EmbersComparePage *compare;

  g_assert_nonnull (before);
  embers_local_source_add_profile (source, "before", before, now - 90 * 60000, labels);
  embers_local_source_add_profile (source, "after", before, now - 30 * 60000, labels);
  type = embers_local_source_profile_type_id (before, embers_profile_get_default_sample_type (before));
  q1 = embers_query_new (type, "{service_name=\"api\",region=\"eu-west\"}", now - 2 * 3600000, now - 3600000);
  q2 = embers_query_new (type, "{service_name=\"api\",region=\"eu-west\"}", now - 3600000, now);
  compare = EMBERS_COMPARE_PAGE (embers_window_open_compare_queries (window, EMBERS_SOURCE (source), q1, q2, TRUE));
  wait_for (compare_idle, compare);
  wait_for (page_idle, embers_compare_page_get_profile_page (compare));
  g_assert_null (embers_compare_page_get_error (compare));
  assert_fits (GTK_WINDOW (window), "compared queries");
  sweep_widths (GTK_WINDOW (window), "compared queries");

  resize (GTK_WINDOW (window), NARROW_WIDTH, NARROW_HEIGHT);
  /* Compared, the form is one line; opened, all of it fits */
  g_assert_true (embers_compare_page_get_folded (compare));
  embers_compare_page_set_folded (compare, FALSE);
  embers_test_wait_frame (GTK_WIDGET (window));
  embers_test_wait_frame (GTK_WIDGET (window));
  for (guint i = 0; i < 2; i++)
    {
      assert_inside (GTK_WIDGET (embers_compare_page_get_filter_bar (compare, i)));
      assert_inside (GTK_WIDGET (embers_compare_page_get_to_entry (compare, i)));
      assert_inside (GTK_WIDGET (embers_compare_page_get_selector_entry (compare, i)));
    }
  assert_inside (embers_test_find_actionable (GTK_WIDGET (compare), "compare.run"));
  assert_usable (embers_compare_page_get_graph (compare), 300, 100);
  embers_test_destroy_window (GTK_WINDOW (window));
}

static void
test_explore_folder (void)
{
  const char *names[] = { "cpu-labels.pb.gz", "cpu-before.pb.gz", "heap.pb.gz" };
  g_autofree char *dir = g_dir_make_tmp ("embers-narrow-XXXXXX", NULL);
  g_autoptr(GFile) folder = g_file_new_for_path (dir);
  g_autoptr(GtkStringObject) first = NULL;
  EmbersExplorePage *explore;
  EmbersWindow *window;

  /* A folder of profiles only (other files would add a toast) */
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *from = g_test_build_filename (G_TEST_DIST, "fixtures", "go", names[i], NULL);
      g_autofree char *to = g_build_filename (dir, names[i], NULL);
      g_autofree char *data = NULL;
      gsize len = 0;

      g_assert_true (g_file_get_contents (from, &data, &len, NULL));
      g_assert_true (g_file_set_contents (to, data, len, NULL));
    }
  window = new_window ();
  explore = EMBERS_EXPLORE_PAGE (embers_window_open_folder (window, folder));

  wait_for (has_services, explore);
  first = g_list_model_get_item (embers_explore_page_get_services (explore), 0);
  g_assert_true (embers_explore_page_select_service (explore, gtk_string_object_get_string (first)));
  wait_for (explore_idle, explore);
  assert_fits (GTK_WINDOW (window), "explore (folder)");
  sweep_widths (GTK_WINDOW (window), "explore (folder)");

  resize (GTK_WINDOW (window), NARROW_WIDTH, NARROW_HEIGHT);
  assert_explore_narrow (explore);

  embers_test_destroy_window (GTK_WINDOW (window));
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *to = g_build_filename (dir, names[i], NULL);

      g_assert_cmpint (g_unlink (to), ==, 0);
    }
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

static void
test_server (void)
{
  const char *args[] = { "--recording-rules", NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersTestServer) server = embers_test_server_start (args, &error);
  g_autoptr(EmbersConnectClient) client = NULL;
  g_autoptr(EmbersPyroscopeSource) source = NULL;
  EmbersWindow *window;
  EmbersExplorePage *explore;
  g_autoptr(GtkStringObject) label = NULL;
  EmbersLabelsPage *labels;
  EmbersRuleDialog *rule_dialog;
  EmbersRulesPage *rules;
  EmbersConnectDialog *dialog;

  g_assert_no_error (error);
  client = embers_connect_client_new (embers_test_server_get_url (server), &error);
  g_assert_no_error (error);
  source = embers_pyroscope_source_new (client);

  window = new_window ();

  /* The connect dialog, before it connects */
  dialog = embers_window_connect (window, NULL);
  g_assert_true (EMBERS_IS_CONNECT_DIALOG (dialog));
  assert_dialog_fits (GTK_WINDOW (window), ADW_DIALOG (dialog), "connect dialog");
  adw_dialog_force_close (ADW_DIALOG (dialog));
  resize (GTK_WINDOW (window), 1400, 900);

  explore = EMBERS_EXPLORE_PAGE (embers_window_open_explore (window, EMBERS_SOURCE (source), NULL));
  wait_for (has_services, explore);
  g_assert_true (embers_explore_page_select_service (explore, "api"));
  wait_for (explore_idle, explore);
  assert_fits (GTK_WINDOW (window), "explore (server)");
  sweep_widths (GTK_WINDOW (window), "explore (server)");
  resize (GTK_WINDOW (window), NARROW_WIDTH, NARROW_HEIGHT);
  assert_explore_narrow (explore);

  labels = EMBERS_LABELS_PAGE (embers_window_open_labels (window, explore));
  g_assert_nonnull (labels);
  wait_for (labels_idle, labels);
  label = g_list_model_get_item (embers_labels_page_get_names (labels), 0);
  g_assert_true (embers_labels_page_select_label (labels, gtk_string_object_get_string (label)));
  wait_for (labels_idle, labels);
  assert_fits (GTK_WINDOW (window), "labels");
  sweep_widths (GTK_WINDOW (window), "labels");
  g_assert_cmpuint (embers_labels_page_get_n_cards (labels), >, 0);
  resize (GTK_WINDOW (window), NARROW_WIDTH, NARROW_HEIGHT);
  /* Its refresh, Compare and the views (a list when narrow) are on screen */
  assert_inside (embers_test_find_actionable (GTK_WIDGET (labels), "labels.refresh"));
  {
    GtkWidget *views = find_visible_type (GTK_WIDGET (labels), GTK_TYPE_DROP_DOWN);

    g_assert_nonnull (views);
    assert_inside (views);
    gtk_drop_down_set_selected (GTK_DROP_DOWN (views), EMBERS_LABELS_VIEW_TABLE);
    g_assert_cmpint (embers_labels_page_get_view (labels), ==, EMBERS_LABELS_VIEW_TABLE);
    embers_labels_page_set_view (labels, EMBERS_LABELS_VIEW_SERIES);
    g_assert_cmpuint (gtk_drop_down_get_selected (GTK_DROP_DOWN (views)), ==, EMBERS_LABELS_VIEW_SERIES);
  }
  /* The marks read in full: they wrap rather than lose their middle */
  {
    GPtrArray *stats = embers_labels_page_get_stats (labels);
    guint n_marks = 0;

    g_assert_cmpuint (stats->len, >=, 2);
    embers_labels_page_mark_baseline (labels, ((EmbersLabelValueStats *)g_ptr_array_index (stats, 0))->value);
    embers_labels_page_mark_comparison (labels, ((EmbersLabelValueStats *)g_ptr_array_index (stats, 1))->value);
    embers_test_wait_frame (GTK_WIDGET (labels));
    {
      GPtrArray *todo = g_ptr_array_new ();

      g_ptr_array_add (todo, labels);
      while (todo->len > 0)
        {
          GtkWidget *w = g_ptr_array_steal_index (todo, todo->len - 1);

          if (!gtk_widget_get_mapped (w))
            continue;
          if (GTK_IS_LABEL (w) && gtk_widget_has_css_class (w, "labels-baseline-text"))
            {
              g_assert_false (pango_layout_is_ellipsized (gtk_label_get_layout (GTK_LABEL (w))));
              assert_inside (w);
              n_marks++;
            }
          for (GtkWidget *c = gtk_widget_get_first_child (w); c != NULL; c = gtk_widget_get_next_sibling (c))
            g_ptr_array_add (todo, c);
        }
      g_ptr_array_unref (todo);
    }
    g_assert_cmpuint (n_marks, ==, 1);
  }
  /* The label names stay reachable by F9 */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (labels), "labels.names", NULL));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (labels), "labels.names", NULL));

  rule_dialog = embers_explore_page_create_rule (explore);
  g_assert_nonnull (rule_dialog);
  assert_dialog_fits (GTK_WINDOW (window), ADW_DIALOG (rule_dialog), "rule dialog");
  adw_dialog_force_close (ADW_DIALOG (rule_dialog));

  rules = EMBERS_RULES_PAGE (embers_window_open_rules (window, client));
  wait_for (rules_idle, rules);
  g_assert_null (embers_rules_page_get_error (rules));
  assert_fits (GTK_WINDOW (window), "rules");
  sweep_widths (GTK_WINDOW (window), "rules");
  embers_test_destroy_window (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  /* EMBERS_TEST_LANGUAGE=de: the same in German, whose words are longer */
  const char *language = g_getenv ("EMBERS_TEST_LANGUAGE");

  if (language != NULL)
    g_setenv ("LANGUAGE", language, TRUE);
  embers_test_gtk_init (&argc, &argv);
  if (language != NULL)
    {
      /* gtk_test_init() pins the locale; follow the environment again */
      setlocale (LC_ALL, "");
      bindtextdomain (GETTEXT_PACKAGE, PO_BUILDDIR);
      bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
      textdomain (GETTEXT_PACKAGE);
    }
  adw_init ();

  g_test_add_func ("/embers/narrow/empty", test_empty);
  g_test_add_func ("/embers/narrow/loaded", test_loaded);
  g_test_add_func ("/embers/narrow/diff", test_diff);
  g_test_add_func ("/embers/narrow/compare-empty", test_compare_empty);
  g_test_add_func ("/embers/narrow/compare-queries", test_compare_queries);
  g_test_add_func ("/embers/narrow/explore-folder", test_explore_folder);
  g_test_add_func ("/embers/narrow/server", test_server);

  return g_test_run ();
}
