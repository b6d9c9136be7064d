/* test-looks.c: what the current widgets draw, read back as pixels: the
 * theme's colours from CSS in light and dark style, dialogs over the
 * window, the sidebar over a narrow page
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>

#include "embers-explore-page.h"
#include "embers-local-source.h"
#include "embers-profile-page.h"
#include "embers-theme.h"
#include "embers-test-gtk-utils.h"
#include "embers-window.h"

static double
luminance (const GdkRGBA *c)
{
  return 0.2126 * c->red + 0.7152 * c->green + 0.0722 * c->blue;
}

static double
pixel_luminance (guint32 rgb)
{
  return (0.2126 * ((rgb >> 16) & 0xff) + 0.7152 * ((rgb >> 8) & 0xff) + 0.0722 * (rgb & 0xff)) / 255.0;
}

static void
set_dark (gboolean dark)
{
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (),
                                      dark ? ADW_COLOR_SCHEME_FORCE_DARK : ADW_COLOR_SCHEME_FORCE_LIGHT);
  embers_test_drain ();
}

static gboolean
page_ready (gpointer data)
{
  EmbersProfilePage *page = data;

  return embers_profile_page_get_state (page) == EMBERS_PAGE_STATE_READY &&
         !embers_profile_page_get_busy (page) && !embers_profile_page_get_search_pending (page);
}

static EmbersWindow *
new_window (int width,
            int height)
{
  EmbersWindow *window = embers_window_new (NULL);

  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  gtk_window_present (GTK_WINDOW (window));
  embers_test_wait_size (GTK_WIDGET (window), width - 20, height - 20);
  return window;
}

static void
destroy_window (EmbersWindow *window)
{
  g_object_add_weak_pointer (G_OBJECT (window), (gpointer *)&window);
  gtk_window_destroy (GTK_WINDOW (window));
  embers_test_drain ();
  g_assert_null (window);
}

/* The colours a widget that draws itself reads from CSS follow the style:
 * the view's background and text, the accent, the widget's own colour */
static void
test_colors (void)
{
  GtkWidget *window = adw_window_new ();
  GtkWidget *label = gtk_label_new ("Embers");
  GdkRGBA bg, fg, accent, own, want;

  adw_window_set_content (ADW_WINDOW (window), label);
  gtk_window_present (GTK_WINDOW (window));
  embers_test_wait_frame (window);

  for (int dark = 0; dark < 2; dark++)
    {
      AdwStyleManager *manager = adw_style_manager_get_default ();
      g_autoptr(GdkRGBA) accent_bg = NULL;

      set_dark (dark);
      embers_test_wait_frame (window);
      g_assert_cmpint (adw_style_manager_get_dark (manager), ==, dark);
      embers_theme_get_color (label, EMBERS_THEME_VIEW_BACKGROUND, &bg);
      embers_theme_get_color (label, EMBERS_THEME_VIEW_FOREGROUND, &fg);
      embers_theme_get_color (label, EMBERS_THEME_ACCENT, &accent);
      embers_theme_get_color (label, EMBERS_THEME_FOREGROUND, &own);
      g_test_message ("%s: view %s on %s, accent %s", dark ? "dark" : "light",
                      gdk_rgba_to_string (&fg), gdk_rgba_to_string (&bg), gdk_rgba_to_string (&accent));
      if (dark)
        {
          g_assert_cmpfloat (luminance (&bg), <, 0.2);
          g_assert_cmpfloat (luminance (&fg), >, 0.8);
        }
      else
        {
          g_assert_cmpfloat (luminance (&bg), >, 0.95);
          g_assert_cmpfloat (luminance (&fg), <, 0.3);
        }
      g_assert_cmpint (embers_theme_is_dark (label), ==, dark);
      gtk_widget_get_color (label, &want);
      g_assert_true (gdk_rgba_equal (&own, &want));
      /* The accent as libadwaita makes it for text on the view */
      accent_bg = adw_style_manager_get_accent_color_rgba (manager);
      adw_accent_color_to_standalone_rgba (adw_style_manager_get_accent_color (manager), dark, &want);
      g_assert_cmpfloat_with_epsilon (accent.red, want.red, 0.02);
      g_assert_cmpfloat_with_epsilon (accent.green, want.green, 0.02);
      g_assert_cmpfloat_with_epsilon (accent.blue, want.blue, 0.02);
    }
  set_dark (FALSE);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The flame graph in light and dark style: its background is the view's,
 * its frames are drawn, its text is legible on them */
static void
test_dark_flame_graph (void)
{
  EmbersWindow *window = new_window (1200, 800);
  EmbersProfilePage *page = embers_window_open_sample (window);
  GtkWidget *graph;

  embers_test_wait_until (page_ready, page, "the sample profile");
  graph = GTK_WIDGET (embers_profile_page_get_flame_graph (page));
  for (int dark = 0; dark < 2; dark++)
    {
      g_autoptr(EmbersTestPixels) pixels = NULL;
      graphene_rect_t area, frames;
      /* Below the deepest frame: the graph's background */
      guint32 empty;

      set_dark (dark);
      embers_test_wait_frame (GTK_WIDGET (window));
      area = embers_test_bounds (graph, GTK_WIDGET (window));
      g_assert_cmpfloat (area.size.width, >, 300);
      g_assert_cmpfloat (area.size.height, >, 300);
      frames = GRAPHENE_RECT_INIT (area.origin.x, area.origin.y, area.size.width, 40);
      pixels = embers_test_render (GTK_WIDGET (window));
      empty = embers_test_pixels_get (pixels, area.origin.x + area.size.width / 2,
                                      area.origin.y + area.size.height - 4);
      g_test_message ("%s: background %06x", dark ? "dark" : "light", empty);
      if (dark)
        g_assert_cmpfloat (pixel_luminance (empty), <, 0.2);
      else
        g_assert_cmpfloat (pixel_luminance (empty), >, 0.95);
      /* The top rows: frames with labels, not one flat colour */
      embers_test_assert_not_blank (pixels, &frames, 4, dark ? "dark-frames" : "light-frames");
    }
  set_dark (FALSE);
  destroy_window (window);
}

/* A dialog is drawn over the window, and the window below it is drawn
 * too (dimmed, not blank) */
static void
test_dialog_drawn (void)
{
  EmbersWindow *window = new_window (1000, 760);
  g_autoptr(EmbersTestPixels) pixels = NULL;
  EmbersConnectDialog *dialog;
  graphene_rect_t box, header;

  dialog = embers_window_connect (window, NULL);
  embers_test_wait_new_dialog (EMBERS_TYPE_CONNECT_DIALOG, NULL);
  embers_test_wait_frame (GTK_WIDGET (window));
  pixels = embers_test_render (GTK_WIDGET (window));
  box = embers_test_bounds (adw_dialog_get_child (ADW_DIALOG (dialog)), GTK_WIDGET (window));
  g_assert_cmpfloat (box.size.width, >=, 400);
  g_assert_cmpfloat (box.size.height, >=, 400);
  embers_test_assert_not_blank (pixels, &box, 6, "connect-dialog");
  /* Outside the dialog: the window's own content */
  header = GRAPHENE_RECT_INIT (0, 0, gtk_widget_get_width (GTK_WIDGET (window)), 40);
  embers_test_assert_not_blank (pixels, &header, 2, "connect-dialog-window");
  adw_dialog_force_close (ADW_DIALOG (dialog));
  destroy_window (window);
}

/* A narrow explore page: the services lie over the content when shown
 * (F9), drawn there, and go when a service is picked */
static void
test_sidebar_over_content (void)
{
  g_autoptr(EmbersLocalSource) source = embers_local_source_new ();
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fixtures", "go", "cpu-labels.pb.gz", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(EmbersProfile) profile = embers_profile_load_file (file, NULL, NULL);
  const char *labels[] = { "service_name", "api", NULL };
  gint64 now = g_get_real_time () / 1000;
  EmbersWindow *window = new_window (700, 600);
  EmbersExplorePage *page;
  AdwOverlaySplitView *split;
  g_autoptr(EmbersTestPixels) shown = NULL;
  graphene_rect_t sidebar;

  g_assert_nonnull (profile);
  embers_local_source_add_profile (source, "api", profile, now - 60000, labels);
  page = EMBERS_EXPLORE_PAGE (embers_window_open_explore (window, EMBERS_SOURCE (source), NULL));
  split = ADW_OVERLAY_SPLIT_VIEW (embers_test_find_widget (GTK_WIDGET (page), ADW_TYPE_OVERLAY_SPLIT_VIEW, NULL));
  g_assert_nonnull (split);
  embers_test_wait_frame (GTK_WIDGET (window));
  g_assert_true (adw_overlay_split_view_get_collapsed (split));
  g_assert_false (adw_overlay_split_view_get_show_sidebar (split));

  g_assert_false (gtk_widget_get_mapped (adw_overlay_split_view_get_sidebar (split)));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "explore.services", NULL));
  embers_test_wait_property (split, "show-sidebar", TRUE);
  embers_test_wait_frame (GTK_WIDGET (window));
  g_assert_true (gtk_widget_get_mapped (adw_overlay_split_view_get_sidebar (split)));
  sidebar = embers_test_bounds (adw_overlay_split_view_get_sidebar (split), GTK_WIDGET (window));
  g_assert_cmpfloat (sidebar.size.width, >=, 180);
  g_assert_cmpfloat (sidebar.origin.x, >=, -0.5);
  shown = embers_test_render (GTK_WIDGET (window));
  /* The heading and the service: text on the sidebar's colour */
  embers_test_assert_not_blank (shown, &sidebar, 3, "sidebar-shown");

  /* Picking a service puts it away */
  g_assert_true (embers_explore_page_select_service (page, "api"));
  embers_test_wait_property (split, "show-sidebar", FALSE);
  destroy_window (window);
}

int
main (int   argc,
      char *argv[])
{
  embers_test_gtk_init (&argc, &argv);

  g_test_add_func ("/embers/looks/colors", test_colors);
  g_test_add_func ("/embers/looks/dark-flame-graph", test_dark_flame_graph);
  g_test_add_func ("/embers/looks/dialog", test_dialog_drawn);
  g_test_add_func ("/embers/looks/sidebar", test_sidebar_over_content);

  return g_test_run ();
}
