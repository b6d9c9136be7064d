/* test-explore-profiles.c: individual profiles on the explore chart (under
 * Xvfb)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A local source whose files are the individual profiles: the heaviest
 * are markers on the chart and entries of the Profiles menu; picking one
 * narrows the flame graph to that file (a chip says so), removing the
 * chip gives the merged view back. The same against the test server,
 * whose profiles are UUIDs (SelectSeries with exemplars, then merges with
 * profile_id_selector).
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include <adwaita.h>

#include "embers-chart.h"
#include "embers-explore-page.h"
#include "embers-explore-profiles.h"
#include "embers-local-source.h"
#include "embers-profile-builder.h"
#include "embers-pyroscope-source.h"
#include "embers-shortcuts.h"
#include "embers-test-server-spawn.h"
#include "embers-theme.h"
#include "embers-test-gtk-utils.h"

#define N_FILES 6

static EmbersProfile *
make_profile (gint64 time_ms,
              gint64 value)
{
  g_autoptr(EmbersProfileBuilder) b = embers_profile_builder_new ();
  g_autoptr(GError) error = NULL;
  guint32 frames[3];
  gint64 other = 7;
  EmbersProfile *p;

  embers_profile_builder_add_sample_type (b, "cpu", "nanoseconds");
  embers_profile_builder_set_period (b, "cpu", "nanoseconds", 10000000);
  embers_profile_builder_set_time (b, time_ms * 1000000, 10000000000);
  frames[0] = embers_profile_builder_intern (b, "main", -1);
  frames[1] = embers_profile_builder_intern (b, "serve", -1);
  frames[2] = embers_profile_builder_intern (b, "parse", -1);
  embers_profile_builder_add_stack (b, frames, 3, &value, 0);
  embers_profile_builder_add_stack (b, frames, 2, &other, 0);
  p = embers_profile_builder_finish (b, &error);
  g_assert_no_error (error);
  return p;
}

/* api-0 … api-5, 8 minutes apart in the last hour, each heavier than the
 * one before: api-i's total is 1000 ms × (i + 1) + 7 ns */
static EmbersLocalSource *
make_source (gint64 *merged_total)
{
  EmbersLocalSource *local = embers_local_source_new ();
  gint64 now_ms = g_get_real_time () / 1000;
  const char *api[] = { "service_name", "api", "pod", "api-7f9c", NULL };

  *merged_total = 0;
  for (int i = 0; i < N_FILES; i++)
    {
      g_autofree char *name = g_strdup_printf ("api-%d.pb.gz", i);
      gint64 value = G_GINT64_CONSTANT (1000000000) * (i + 1);
      g_autoptr(EmbersProfile) p = make_profile (now_ms - (50 - i * 8) * 60000, value);

      embers_local_source_add_profile (local, name, p, 0, api);
      *merged_total += value + 7;
    }
  return local;
}

static void
wait_idle (EmbersExplorePage *page)
{
  embers_test_drain ();
  embers_test_wait_while (embers_explore_page_get_loading (page) ||
                          embers_profile_page_get_busy (embers_explore_page_get_profile_page (page)));
  embers_test_drain ();
}

static gint64
flame_total (EmbersExplorePage *page)
{
  EmbersProfile *profile = embers_profile_page_get_profile (embers_explore_page_get_profile_page (page));

  g_assert_nonnull (profile);
  return embers_profile_get_total (profile, 0);
}

static GtkWidget *
chart_area (EmbersExplorePage *page)
{
  GtkWidget *area = embers_test_find_widget (GTK_WIDGET (page), GTK_TYPE_DRAWING_AREA, NULL);

  g_assert_nonnull (area);
  return area;
}

static guint32
rgb_of (const double c[4])
{
  return ((guint32) lround (c[0] * 255) << 16) | ((guint32) lround (c[1] * 255) << 8) | (guint32) lround (c[2] * 255);
}

static gboolean
near_color (guint32 a,
            guint32 b)
{
  for (int shift = 0; shift <= 16; shift += 8)
    if (ABS ((int) ((a >> shift) & 0xff) - (int) ((b >> shift) & 0xff)) > 8)
      return FALSE;
  return TRUE;
}

static EmbersExplorePage *
open_page (gpointer    source,
           GtkWindow **window)
{
  EmbersExplorePage *page = embers_explore_page_new (EMBERS_SOURCE (source));

  *window = GTK_WINDOW (gtk_window_new ());
  gtk_window_set_default_size (*window, 1200, 800);
  gtk_window_set_child (*window, GTK_WIDGET (page));
  gtk_window_present (*window);
  wait_idle (page);
  g_assert_true (embers_explore_page_select_service (page, "api"));
  wait_idle (page);
  embers_test_wait_mapped (chart_area (page));
  return page;
}

static void
test_pick_and_remove (void)
{
  gint64 merged = 0;
  g_autoptr(EmbersLocalSource) source = make_source (&merged);
  GtkWindow *window;
  EmbersExplorePage *page = open_page (source, &window);
  EmbersProfilesBar *bar = embers_explore_page_get_profiles_bar (page);
  GtkWidget *area = chart_area (page);
  GtkWidget *button = embers_profiles_bar_get_menu_button (bar);
  EmbersChartStyle style;
  EmbersTestPixels *pixels;
  GtkListBox *list;
  GtkWidget *chip;
  double x, y;
  g_autofree char *tip = NULL;

  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (bar)));
  g_assert_cmpint (flame_total (page), ==, merged);
  /* Every file is one profile, each its own step: the heaviest first */
  embers_test_wait_for (embers_profiles_bar_get_n_profiles (bar) == N_FILES);
  g_assert_null (embers_profiles_bar_get_chip (bar));

  /* The markers are drawn: each centre in the accent colour (the chart's
   * lines are the series' palette colours) */
  embers_theme_chart_style (area, &style);
  pixels = embers_test_render_frame (area);
  for (guint i = 0; i < N_FILES; i++)
    {
      guint32 got;

      g_assert_true (embers_profiles_bar_get_marker_position (bar, i, &x, &y));
      got = embers_test_pixels_get (pixels, (int) x, (int) y);
      if (!near_color (got, rgb_of (style.accent)))
        {
          embers_test_pixels_save (pixels, "pixels-profile-markers.png");
          g_error ("marker %u at %.0f, %.0f is #%06x, not the accent #%06x", i, x, y, got, rgb_of (style.accent));
        }
    }
  embers_test_pixels_free (pixels);

  /* Hovering a marker says the profile's time, value and labels */
  g_assert_true (embers_profiles_bar_get_marker_position (bar, 1, &x, &y));
  tip = embers_profiles_bar_describe_at (bar, x, y);
  g_assert_nonnull (tip);
  g_assert_nonnull (strstr (tip, "5.00 s"));
  g_assert_nonnull (strstr (tip, "pod=api-7f9c"));
  g_clear_pointer (&tip, g_free);

  /* A click on a marker: that profile alone, the marker ringed */
  g_assert_true (embers_profiles_bar_click (bar, x, y));
  wait_idle (page);
  g_assert_cmpstr (embers_profiles_bar_get_picked_id (bar), ==, "api-4.pb.gz");
  g_assert_cmpint (flame_total (page), ==, 5000000007);
  g_assert_nonnull (embers_profiles_bar_get_chip (bar));

  /* The keyboard route: the Profiles menu, its first entry */
  embers_test_press (button);
  list = GTK_LIST_BOX (embers_test_find_widget (GTK_WIDGET (gtk_menu_button_get_popover (GTK_MENU_BUTTON (button))),
                                                GTK_TYPE_LIST_BOX, NULL));
  g_assert_nonnull (list);
  embers_test_wait_mapped (GTK_WIDGET (list));
  tip = g_strdup (gtk_widget_get_tooltip_text (gtk_widget_get_first_child (GTK_WIDGET (gtk_list_box_get_row_at_index (list, 0)))));
  g_assert_nonnull (strstr (tip, "pod=api-7f9c"));
  gtk_widget_activate (GTK_WIDGET (gtk_list_box_get_row_at_index (list, 0)));
  wait_idle (page);
  g_assert_cmpstr (embers_profiles_bar_get_picked_id (bar), ==, "api-5.pb.gz");
  g_assert_cmpint (flame_total (page), ==, 6000000007);
  /* Its entry has the check */
  {
    GtkWidget *row0 = gtk_list_box_row_get_child (gtk_list_box_get_row_at_index (list, 0));
    GtkWidget *row1 = gtk_list_box_row_get_child (gtk_list_box_get_row_at_index (list, 1));

    g_assert_cmpfloat (gtk_widget_get_opacity (gtk_widget_get_last_child (row0)), ==, 1.0);
    g_assert_cmpfloat (gtk_widget_get_opacity (gtk_widget_get_last_child (row1)), ==, 0.0);
  }
  chip = embers_profiles_bar_get_chip (bar);
  g_assert_nonnull (chip);
  embers_test_wait_mapped (chip);
  pixels = embers_test_render_frame (chip);
  {
    graphene_rect_t all = GRAPHENE_RECT_INIT (0, 0, gtk_widget_get_width (chip), gtk_widget_get_height (chip));

    embers_test_assert_not_blank (pixels, &all, 3, "profile-chip");
  }
  embers_test_pixels_free (pixels);

  /* Removing the chip: the merged view again */
  embers_test_press (chip);
  wait_idle (page);
  g_assert_null (embers_profiles_bar_get_chip (bar));
  g_assert_null (embers_profiles_bar_get_picked_id (bar));
  g_assert_cmpint (flame_total (page), ==, merged);

  gtk_window_destroy (window);
}

/* Against the test server: each point's heaviest profile is a UUID, and
 * the flame graph of one is that profile's value */
static void
test_server_profiles (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersTestServer) server = embers_test_server_start (NULL, &error);
  g_autoptr(EmbersConnectClient) client = NULL;
  g_autoptr(EmbersPyroscopeSource) source = NULL;
  EmbersExplorePage *page;
  EmbersProfilesBar *bar;
  GtkWindow *window;
  const EmbersExemplar *heaviest;
  gint64 merged, value;

  g_assert_no_error (error);
  client = embers_connect_client_new (embers_test_server_get_url (server), &error);
  g_assert_no_error (error);
  source = embers_pyroscope_source_new (client);
  page = embers_explore_page_new (EMBERS_SOURCE (source));
  window = GTK_WINDOW (gtk_window_new ());
  gtk_window_set_default_size (window, 1200, 800);
  gtk_window_set_child (window, GTK_WIDGET (page));
  gtk_window_present (window);
  wait_idle (page);
  g_assert_true (embers_explore_page_select_service (page, "api"));
  wait_idle (page);
  bar = embers_explore_page_get_profiles_bar (page);
  merged = flame_total (page);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (bar)));
  g_assert_cmpuint (embers_profiles_bar_get_n_profiles (bar), ==, EMBERS_PROFILES_BAR_MAX);
  heaviest = embers_profiles_bar_get_profile (bar, 0);
  g_assert_true (g_uuid_string_is_valid (heaviest->profile_id));
  value = heaviest->value;
  g_assert_cmpint (value, >, 0);
  g_assert_cmpint (value, <, merged);

  g_assert_true (embers_profiles_bar_pick (bar, 0));
  wait_idle (page);
  g_assert_null (embers_explore_page_get_error (page));
  g_assert_cmpint (flame_total (page), ==, value);
  g_assert_nonnull (embers_profiles_bar_get_chip (bar));

  embers_test_press (embers_profiles_bar_get_chip (bar));
  wait_idle (page);
  g_assert_cmpint (flame_total (page), ==, merged);

  gtk_window_destroy (window);
}

/* How many pixels on the circle of radius @r around x, y are drawn (the
 * chart's area has no background of its own: what is not drawn is
 * transparent) */
static guint
ring_pixels (EmbersTestPixels *pixels,
             double            x,
             double            y,
             double            r)
{
  guint n = 0;

  for (int a = 0; a < 72; a++)
    {
      double t = a * G_PI / 36.0;
      int px = (int) lround (x + r * cos (t)) - pixels->origin_x;
      int py = (int) lround (y + r * sin (t)) - pixels->origin_y;

      if (px >= 0 && py >= 0 && px < pixels->width && py < pixels->height &&
          pixels->data[py * pixels->stride + px * 4 + 3] >= 128)
        n++;
    }
  return n;
}

/* The keyboard on the chart itself: ] and [ move between the markers in
 * time order, the one reached drawn with a ring and said to screen
 * readers; Enter picks it. The keys are in the shortcuts window. */
static void
test_keyboard (void)
{
  gint64 merged = 0;
  g_autoptr(EmbersLocalSource) source = make_source (&merged);
  GtkWindow *window;
  EmbersExplorePage *page = open_page (source, &window);
  EmbersProfilesBar *bar = embers_explore_page_get_profiles_bar (page);
  GtkWidget *area = chart_area (page);
  EmbersChartStyle style;
  EmbersTestPixels *pixels;
  const EmbersShortcutGroup *groups;
  gboolean listed = FALSE;
  guint n_groups = 0;
  double x, y, ox, oy;
  int focus;

  embers_test_wait_for (embers_profiles_bar_get_n_profiles (bar) == N_FILES);
  g_assert_true (gtk_widget_get_focusable (area));
  gtk_widget_grab_focus (area);
  embers_test_wait_for (gtk_widget_has_focus (area));
  g_assert_cmpint (embers_profiles_bar_get_focused_marker (bar), ==, -1);
  /* Coming to the chart says how many there are and the keys */
  g_assert_cmpstr (embers_profiles_bar_get_announcement (bar), ==,
                   "6 individual profiles on the chart: [ and ] move between them");

  /* ]: the earliest profile, api-0 (the lightest: the last marker) */
  g_assert_true (embers_test_press_key (area, GDK_KEY_bracketright, 0));
  focus = embers_profiles_bar_get_focused_marker (bar);
  g_assert_cmpint (focus, >=, 0);
  g_assert_cmpstr (embers_profiles_bar_get_profile (bar, focus)->profile_id, ==, "api-0.pb.gz");
  g_assert_nonnull (strstr (embers_profiles_bar_get_announcement (bar), "Profile 1 of 6"));
  g_assert_nonnull (strstr (embers_profiles_bar_get_announcement (bar), "1.00 s"));
  /* ] ] [: api-1 */
  g_assert_true (embers_test_press_key (area, GDK_KEY_bracketright, 0));
  g_assert_true (embers_test_press_key (area, GDK_KEY_bracketright, 0));
  g_assert_true (embers_test_press_key (area, GDK_KEY_bracketleft, 0));
  focus = embers_profiles_bar_get_focused_marker (bar);
  g_assert_cmpstr (embers_profiles_bar_get_profile (bar, focus)->profile_id, ==, "api-1.pb.gz");
  g_assert_nonnull (strstr (embers_profiles_bar_get_announcement (bar), "Profile 2 of 6"));
  g_assert_null (embers_profiles_bar_get_picked_id (bar));

  /* What is drawn: a ring in the text colour around that marker, none
   * around the others */
  embers_theme_chart_style (area, &style);
  pixels = embers_test_render_frame (area);
  g_assert_true (embers_profiles_bar_get_marker_position (bar, (guint) focus, &x, &y));
  if (ring_pixels (pixels, x, y, 12.0) < 24 || !near_color (embers_test_pixels_get (pixels, (int) x + 12, (int) y), rgb_of (style.fg)))
    {
      embers_test_pixels_save (pixels, "pixels-profile-focus.png");
      g_error ("no focus ring around the marker at %.0f, %.0f", x, y);
    }
  g_assert_true (embers_profiles_bar_get_marker_position (bar, (guint) (focus == 0 ? 1 : 0), &ox, &oy));
  if (ring_pixels (pixels, ox, oy, 12.0) >= 8)
    {
      embers_test_pixels_save (pixels, "pixels-profile-focus.png");
      g_error ("a ring (#%06x) around the marker at %.0f, %.0f too (focused: %.0f, %.0f)", rgb_of (style.fg), ox, oy, x, y);
    }
  embers_test_pixels_free (pixels);

  /* Enter: that profile alone */
  g_assert_true (embers_test_press_key (area, GDK_KEY_Return, 0));
  wait_idle (page);
  g_assert_cmpstr (embers_profiles_bar_get_picked_id (bar), ==, "api-1.pb.gz");
  g_assert_cmpint (flame_total (page), ==, 2000000007);
  g_assert_nonnull (embers_profiles_bar_get_chip (bar));

  /* Listed in the shortcuts window */
  groups = embers_shortcuts_get_groups (&n_groups);
  for (guint g = 0; g < n_groups; g++)
    for (guint i = 0; i < groups[g].n_shortcuts; i++)
      if (g_strcmp0 (groups[g].shortcuts[i].accelerators, "bracketleft bracketright") == 0)
        listed = TRUE;
  g_assert_true (listed);

  gtk_window_destroy (window);
}

/* EMBERS_PROFILES_SHOT=light|dark|light-menu|dark-menu|light-server|light-keys keeps the page on screen with the
 * heaviest profile picked, for screenshots (not a test) */
static int
run_shot (const char *state)
{
  gint64 merged;
  EmbersLocalSource *source = make_source (&merged);
  GtkWindow *window;
  EmbersExplorePage *page;

  adw_style_manager_set_color_scheme (adw_style_manager_get_default (),
                                      g_str_has_prefix (state, "dark") ? ADW_COLOR_SCHEME_FORCE_DARK
                                                                  : ADW_COLOR_SCHEME_FORCE_LIGHT);
  if (strstr (state, "server") != NULL)
    {
      /* The test server's demo data (leaked: the shot runs until killed) */
      EmbersTestServer *server = embers_test_server_start (NULL, NULL);
      EmbersConnectClient *client = embers_connect_client_new (embers_test_server_get_url (server), NULL);

      page = open_page ((gpointer) embers_pyroscope_source_new (client), &window);
    }
  else
    page = open_page (source, &window);
  embers_profiles_bar_pick (embers_explore_page_get_profiles_bar (page), 1);
  wait_idle (page);
  {
    /* Where the heaviest marker is in the window, to hover it */
    graphene_point_t at;
    double x, y;

    embers_test_settle ();
    embers_profiles_bar_get_marker_position (embers_explore_page_get_profiles_bar (page), 0, &x, &y);
    if (gtk_widget_compute_point (chart_area (page), GTK_WIDGET (window), &GRAPHENE_POINT_INIT (x, y), &at))
      g_print ("marker %.0f %.0f\n", at.x, at.y);
  }
  if (strstr (state, "-keys") != NULL)
    {
      /* The keyboard on the chart: the second profile in time ringed */
      gtk_widget_grab_focus (chart_area (page));
      gtk_window_set_focus_visible (window, TRUE);
      embers_profiles_bar_move_focus (embers_explore_page_get_profiles_bar (page), +1);
      embers_profiles_bar_move_focus (embers_explore_page_get_profiles_bar (page), +1);
    }
  if (g_str_has_suffix (state, "-menu"))
    gtk_menu_button_popup (GTK_MENU_BUTTON (embers_profiles_bar_get_menu_button (embers_explore_page_get_profiles_bar (page))));
  while (TRUE)
    g_main_context_iteration (NULL, TRUE);
  return 0;
}

int
main (int   argc,
      char *argv[])
{
  if (g_getenv ("EMBERS_PROFILES_SHOT") != NULL)
    {
      gtk_init ();
      adw_init ();
      return run_shot (g_getenv ("EMBERS_PROFILES_SHOT"));
    }

  embers_test_gtk_init (&argc, &argv);

  g_test_add_func ("/embers/explore/profiles/pick-and-remove", test_pick_and_remove);
  g_test_add_func ("/embers/explore/profiles/server", test_server_profiles);
  g_test_add_func ("/embers/explore/profiles/keyboard", test_keyboard);

  return g_test_run ();
}
