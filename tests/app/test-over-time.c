/* test-over-time.c: Show Over Time on a folder's frame: t opens the
 * charts of the frame's call site (value and share, drawn), a range
 * dragged on them becomes the tab's; no chart for a frame without a
 * recorded stack (issue 18.3)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <adwaita.h>

#include "embers-call-tree.h"
#include "embers-explore-page.h"
#include "embers-flame-graph.h"
#include "embers-local-source.h"
#include "embers-over-time-dialog.h"
#include "embers-profile-page.h"
#include "embers-series-chart.h"
#include "embers-theme.h"
#include "embers-window.h"
#include "embers-test-gtk-utils.h"

/* The leftmost column holding @color (within 24 a channel), or -1 */
static int
leftmost_color (const EmbersTestPixels *pixels,
                guint32                 color)
{
  for (int x = 0; x < pixels->width; x++)
    for (int y = 0; y < pixels->height; y++)
      {
        guint32 got = embers_test_pixels_get (pixels, x + pixels->origin_x, y + pixels->origin_y);
        gboolean near = TRUE;

        for (int shift = 0; shift <= 16; shift += 8)
          if (ABS ((int) ((got >> shift) & 0xff) - (int) ((color >> shift) & 0xff)) > 24)
            near = FALSE;
        if (near)
          return x + pixels->origin_x;
      }
  return -1;
}

/* Both charts' plots start at the same x, and their first points (the
 * same time) are drawn at the same x */
static void
assert_lined_up (EmbersSeriesChart *value,
                 EmbersSeriesChart *share)
{
  g_autoptr(EmbersTestPixels) value_pixels = embers_test_render_frame (GTK_WIDGET (value));
  g_autoptr(EmbersTestPixels) share_pixels = embers_test_render_frame (GTK_WIDGET (share));
  EmbersChartStyle style;
  double bg[3], rgba[4], vx, sx, unused;
  guint32 line;
  int first_value, first_share;

  embers_chart_get_plot_area (embers_series_chart_get_chart (value), &vx, &unused, &unused, &unused);
  embers_chart_get_plot_area (embers_series_chart_get_chart (share), &sx, &unused, &unused, &unused);
  g_test_message ("plot left: %.0f px and %.0f px (value labels need %.0f, share labels %.0f)", vx, sx,
                  embers_chart_get_natural_plot_left (embers_series_chart_get_chart (value)),
                  embers_chart_get_natural_plot_left (embers_series_chart_get_chart (share)));
  g_assert_cmpfloat (vx, ==, sx);

  /* What is drawn: the leftmost pixel of the series' colour */
  embers_theme_chart_style (GTK_WIDGET (share), &style);
  for (int k = 0; k < 3; k++)
    bg[k] = style.background[3] > 0 ? style.background[k] : (style.dark ? 0.19 : 1.0);
  embers_chart_series_color_on (0, bg, rgba);
  line = ((guint32) lround (rgba[0] * 255) << 16) | ((guint32) lround (rgba[1] * 255) << 8) |
         (guint32) lround (rgba[2] * 255);
  first_value = leftmost_color (value_pixels, line);
  first_share = leftmost_color (share_pixels, line);
  if (first_value < 0 || first_share < 0 || ABS (first_value - first_share) > 1)
    {
      embers_test_pixels_save (value_pixels, "pixels-over-time-value.png");
      embers_test_pixels_save (share_pixels, "pixels-over-time-share.png");
      g_error ("the first point is at x %d in the value chart, %d in the share chart", first_value, first_share);
    }
}

static gboolean
page_idle (gpointer data)
{
  return !embers_explore_page_get_loading (data) &&
         !embers_profile_page_get_busy (embers_explore_page_get_profile_page (data));
}

static gboolean
dialog_idle (gpointer data)
{
  return !embers_over_time_dialog_get_loading (data);
}

static EmbersProfile *
load (const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fixtures", "go", name, NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  EmbersProfile *profile = embers_profile_load_file (file, NULL, &error);

  g_assert_no_error (error);
  return profile;
}

static void
test_over_time (void)
{
  g_autoptr(EmbersLocalSource) source = embers_local_source_new ();
  g_autoptr(EmbersProfile) before = load ("cpu-before.pb.gz");
  g_autoptr(EmbersProfile) after = load ("cpu-after.pb.gz");
  const char *labels[] = { "service_name", "api", NULL };
  gint64 now = g_get_real_time () / 1000;
  EmbersWindow *window;
  EmbersExplorePage *page;
  EmbersProfilePage *profile_page;
  EmbersFlameGraph *graph;
  EmbersProfile *profile;
  EmbersOverTimeDialog *dialog;
  EmbersSeriesChart *chart;
  const EmbersOverTime *over;
  const EmbersSeries *value;
  g_autoptr(GPtrArray) dialogs = NULL;
  g_autoptr(EmbersTestPixels) pixels = NULL;
  graphene_rect_t area;
  guint32 path[3];
  gint64 start, end, tab_start, tab_end;
  double width;

  /* Twelve profiles over the last hour, five minutes apart: the first
   * six one program, the last six another */
  for (int i = 0; i < 12; i++)
    embers_local_source_add_profile (source, i < 6 ? "before" : "after", i < 6 ? before : after,
                                     now - (57 - i * 5) * 60000, labels);

  window = embers_window_new (NULL);
  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 800);
  gtk_window_present (GTK_WINDOW (window));
  page = EMBERS_EXPLORE_PAGE (embers_window_open_explore (window, EMBERS_SOURCE (source), NULL));
  embers_test_wait_until (page_idle, page, "the page");
  g_assert_true (embers_explore_page_select_service (page, "api"));
  embers_test_wait_until (page_idle, page, "the service");
  embers_explore_page_set_preset (page, 3600);
  embers_test_wait_until (page_idle, page, "the hour");
  profile_page = embers_explore_page_get_profile_page (page);
  graph = embers_profile_page_get_flame_graph (profile_page);
  profile = embers_flame_graph_get_profile (graph);
  embers_test_wait_frame (GTK_WIDGET (window));

  /* Three frames down the heaviest path; t on the graph */
  g_assert_cmpuint (embers_call_tree_heaviest_path (profile, embers_flame_graph_get_sample_type (graph), 0, path, 3), ==, 3);
  embers_flame_graph_set_selected_node (graph, path[2]);
  gtk_widget_grab_focus (GTK_WIDGET (graph));
  dialogs = embers_test_dialogs (EMBERS_TYPE_OVER_TIME_DIALOG);
  g_assert_true (embers_test_press_key (GTK_WIDGET (graph), GDK_KEY_t, 0));
  dialog = EMBERS_OVER_TIME_DIALOG (embers_test_wait_new_dialog (EMBERS_TYPE_OVER_TIME_DIALOG, dialogs));
  {
    g_autofree char *title = g_strdup_printf ("%s Over Time", embers_profile_node_name_str (profile, path[2]));

    g_assert_cmpstr (adw_dialog_get_title (ADW_DIALOG (dialog)), ==, title);
  }
  embers_test_wait_until (dialog_idle, dialog, "the series");
  over = embers_over_time_dialog_get_result (dialog);
  g_assert_nonnull (over);
  g_assert_cmpuint (over->value->len, ==, 1);
  value = g_ptr_array_index (over->value, 0);
  /* A point per profile (one a step), each the call site's total */
  g_assert_cmpuint (value->n_points, ==, 12);
  {
    const char *type = embers_profile_get_sample_type (profile, embers_flame_graph_get_sample_type (graph));
    int t = embers_profile_find_sample_type (before, type);
    guint32 node = 0;

    /* The same call site in the first file */
    g_assert_cmpint (t, >=, 0);
    for (guint d = 0; d < 3; d++)
      {
        const char *want = embers_profile_node_name_str (profile, path[d]);
        guint32 found = EMBERS_NODE_NONE;

        for (guint32 c = node + 1; c < embers_profile_node_end (before, node); c = embers_profile_node_end (before, c))
          if (g_str_equal (embers_profile_node_name_str (before, c), want))
            found = c;
        g_assert_cmpuint (found, !=, EMBERS_NODE_NONE);
        node = found;
      }
    g_assert_cmpfloat (value->values[0], ==, (double) embers_profile_node_total (before, t, node));
  }
  g_assert_false (isnan (over->mean_share));
  g_assert_cmpfloat (over->mean_share, >, 0);
  g_assert_cmpfloat (over->mean_share, <=, 100);
  g_assert_cmpuint (((EmbersSeries *) g_ptr_array_index (over->share, 0))->n_points, ==, 12);

  /* What is drawn: the points of both charts */
  chart = EMBERS_SERIES_CHART (embers_test_find_widget (GTK_WIDGET (dialog), EMBERS_TYPE_SERIES_CHART, NULL));
  embers_test_wait_size (GTK_WIDGET (chart), 200, 100);
  embers_test_wait_frame (GTK_WIDGET (chart));
  pixels = embers_test_render_frame (GTK_WIDGET (chart));
  area = GRAPHENE_RECT_INIT (gtk_widget_get_width (GTK_WIDGET (chart)) * 0.2, 0,
                             gtk_widget_get_width (GTK_WIDGET (chart)) * 0.75,
                             gtk_widget_get_height (GTK_WIDGET (chart)) * 0.8);
  embers_test_assert_not_blank (pixels, &area, 3, "over-time-value");

  /* The share chart: a percentage on its axis, its time axis lined up
   * with the value chart's (the same first point at the same x) */
  {
    GtkWidget *share = NULL;
    EmbersChart *value_chart = embers_series_chart_get_chart (chart);
    EmbersChart *share_chart;
    const EmbersChartTick *ticks;
    guint n_ticks = 0;
    double vx, sx, unused;

    for (GtkWidget *w = gtk_widget_get_parent (GTK_WIDGET (chart)); w != NULL && share == NULL; w = gtk_widget_get_parent (w))
      {
        g_autoptr(GPtrArray) stack = g_ptr_array_new ();

        g_ptr_array_add (stack, w);
        while (stack->len > 0 && share == NULL)
          {
            GtkWidget *c = g_ptr_array_steal_index (stack, stack->len - 1);

            if (EMBERS_IS_SERIES_CHART (c) && c != GTK_WIDGET (chart))
              share = c;
            for (GtkWidget *k = gtk_widget_get_first_child (c); k != NULL; k = gtk_widget_get_next_sibling (k))
              g_ptr_array_add (stack, k);
          }
      }
    g_assert_nonnull (share);
    share_chart = embers_series_chart_get_chart (EMBERS_SERIES_CHART (share));
    embers_test_wait_frame (share);
    ticks = embers_chart_get_y_ticks (share_chart, &n_ticks);
    g_assert_cmpuint (n_ticks, >=, 2);
    for (guint i = 0; i < n_ticks; i++)
      if (!g_str_has_suffix (ticks[i].label, "%"))
        g_error ("share axis label “%s” is not a percentage", ticks[i].label);
    {
      g_autofree char *hover = embers_chart_format_value (share_chart, 12.5);

      g_assert_cmpstr (hover, ==, "12.5%");
    }
    embers_chart_get_plot_area (value_chart, &vx, &unused, &unused, &unused);
    embers_chart_get_plot_area (share_chart, &sx, &unused, &unused, &unused);
    g_assert_cmpfloat (vx, ==, sx);
    g_assert_cmpint (gtk_widget_get_width (share), ==, gtk_widget_get_width (GTK_WIDGET (chart)));

    assert_lined_up (chart, EMBERS_SERIES_CHART (share));

    /* Wider value labels (a unit that needs them): the share chart's
     * plot starts where the value chart's does, not at its own labels */
    embers_series_chart_set_series (chart, over->value, NULL, "bytes");
    embers_test_wait_frame (GTK_WIDGET (chart));
    embers_test_wait_frame (share);
    g_assert_cmpfloat (embers_chart_get_natural_plot_left (value_chart), >, embers_chart_get_natural_plot_left (share_chart));
    assert_lined_up (chart, EMBERS_SERIES_CHART (share));
    embers_series_chart_set_series (chart, over->value, NULL, "nanoseconds");
  }

  /* A drag across the chart: the dialog shows that range, and so does
   * the tab */
  width = gtk_widget_get_width (GTK_WIDGET (chart));
  g_assert_true (embers_series_chart_drag (chart, width * 0.4, width * 0.9));
  embers_test_wait_until (dialog_idle, dialog, "the dragged range");
  start = embers_over_time_dialog_get_query (dialog)->start_ms;
  end = embers_over_time_dialog_get_query (dialog)->end_ms;
  g_assert_cmpint (end - start, <, 3600 * 1000);
  embers_explore_page_get_time_range (page, &tab_start, &tab_end);
  g_assert_cmpint (tab_start, ==, start);
  g_assert_cmpint (tab_end, ==, end);
  over = embers_over_time_dialog_get_result (dialog);
  g_assert_nonnull (over);
  value = g_ptr_array_index (over->value, 0);
  g_assert_cmpuint (value->n_points, <, 12);
  g_assert_cmpuint (value->n_points, >, 0);

  adw_dialog_close (ADW_DIALOG (dialog));
  embers_test_wait_dialog_closed (dialog);
  embers_test_wait_until (page_idle, page, "the tab's range");

  /* In the bottom-up view a frame has no recorded stack: no dialog */
  embers_profile_page_set_view (profile_page, EMBERS_VIEW_BOTTOM_UP);
  embers_test_wait_while (embers_profile_page_get_busy (profile_page));
  embers_flame_graph_set_selected_node (graph, 2);
  g_assert_null (embers_explore_page_show_over_time (page));

  gtk_window_destroy (GTK_WINDOW (window));
  embers_test_drain ();
}

int
main (int   argc,
      char *argv[])
{
  embers_test_gtk_init (&argc, &argv);

  g_test_add_func ("/embers/over-time/folder", test_over_time);

  return g_test_run ();
}
