/* test-honest-loading.c: each panel says what it is loading, and never
 * shows an answer under a query it does not belong to (under Xvfb,
 * against a test server that is slowed, then killed)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdlib.h>

#include <adwaita.h>

#include "embers-compare-page.h"
#include "embers-labels-page.h"
#include "embers-pyroscope-source.h"
#include "embers-query-url.h"
#include "embers-status.h"
#include "embers-test-gtk-utils.h"
#include "embers-test-server-spawn.h"
#include "embers-window-private.h"
#include "embers-workspace.h"

#define SERIES_PATH "/querier.v1.QuerierService/Series"
#define CPU_TYPE    "process_cpu:cpu:nanoseconds:cpu:nanoseconds"

typedef struct
{
  EmbersExplorePage *explore;
  EmbersStatus      *chart;
  EmbersStatus      *graph;
} Panels;

static void
collect_status (GtkWidget *widget,
                GPtrArray *found)
{
  if (EMBERS_IS_STATUS (widget))
    g_ptr_array_add (found, widget);
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    collect_status (c, found);
}

static gboolean
explore_idle (gpointer data)
{
  Panels *p = data;

  return !embers_explore_page_get_loading (p->explore) &&
         !embers_profile_page_get_busy (embers_explore_page_get_profile_page (p->explore));
}

static gboolean
has_services (gpointer data)
{
  Panels *p = data;

  return g_list_model_get_n_items (embers_explore_page_get_services (p->explore)) > 0 && explore_idle (data);
}

static gboolean
both_failed (gpointer data)
{
  Panels *p = data;

  return embers_status_get_state (p->chart) == EMBERS_STATUS_MESSAGE &&
         embers_status_get_state (p->graph) == EMBERS_STATUS_MESSAGE;
}

static gboolean
both_shown (gpointer data)
{
  Panels *p = data;

  return embers_status_get_state (p->chart) == EMBERS_STATUS_CONTENT &&
         embers_status_get_state (p->graph) == EMBERS_STATUS_CONTENT && explore_idle (data);
}

typedef struct
{
  EmbersTestServer *server;
  gint64            answered;
} Answered;

static gboolean
series_answered (gpointer data)
{
  Answered *a = data;

  return embers_test_server_stat (a->server, "requests", SERIES_PATH) >= a->answered;
}

/* The dominant colour of a panel as painted */
static guint32
panel_color (GtkWidget *panel)
{
  g_autoptr(EmbersTestPixels) pixels = NULL;
  graphene_rect_t area;

  embers_test_wait_frame (panel);
  pixels = embers_test_render (panel);
  area = GRAPHENE_RECT_INIT (0, 0, pixels->width, pixels->height);
  return embers_test_pixels_dominant (pixels, &area);
}

static void
test_slow_then_dead (void)
{
  g_autoptr(GError) error = NULL;
  EmbersTestServer *server = embers_test_server_start (NULL, &error);
  g_autoptr(EmbersConnectClient) client = NULL;
  g_autoptr(EmbersPyroscopeSource) source = NULL;
  g_autoptr(GPtrArray) panels = g_ptr_array_new ();
  EmbersWindow *window = embers_window_new (NULL);
  Panels p = { NULL };
  g_autofree char *from = NULL;
  guint32 shown_color, dimmed_color;
  gint64 start, end;
  Answered answered;

  g_assert_no_error (error);
  client = embers_connect_client_new (embers_test_server_get_url (server), &error);
  g_assert_no_error (error);
  source = embers_pyroscope_source_new (client);

  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 800);
  gtk_window_present (GTK_WINDOW (window));
  p.explore = EMBERS_EXPLORE_PAGE (embers_window_open_explore (window, EMBERS_SOURCE (source), NULL));
  collect_status (GTK_WIDGET (p.explore), panels);
  g_assert_cmpuint (panels->len, ==, 2);
  p.chart = panels->pdata[0];
  p.graph = panels->pdata[1];
  embers_test_wait_until (has_services, &p, "the services");
  g_assert_true (embers_explore_page_select_service (p.explore, "api"));
  embers_test_wait_until (both_shown, &p, "the chart and the flame graph");
  shown_color = panel_color (GTK_WIDGET (p.graph));

  /* Slow: the next request waits 2 s. 6h: both panels say they load the
   * new range at once, over their old answer, dimmed */
  g_free (embers_test_server_control (server, "POST", "embers-test/faults",
                                      "{\"delay_ms\":2000,\"count\":1}"));
  answered.server = server;
  answered.answered = embers_test_server_stat (server, "requests", SERIES_PATH) + 1;
  embers_explore_page_set_preset (p.explore, 6 * 3600);
  embers_explore_page_get_time_range (p.explore, &start, &end);
  from = embers_query_url_format_local_time (start);
  for (guint i = 0; i < 2; i++)
    {
      EmbersStatus *panel = i == 0 ? p.chart : p.graph;

      g_assert_cmpint (embers_status_get_state (panel), ==, EMBERS_STATUS_LOADING);
      g_assert_true (embers_status_get_content_dimmed (panel));
      g_assert_nonnull (strstr (embers_status_get_loading_text (panel), from));
      g_assert_false (gtk_widget_get_can_target (embers_status_get_content (panel)));
    }
  /* What a person sees: the graph paler than it was, and the line that
   * says what loads */
  dimmed_color = panel_color (GTK_WIDGET (p.graph));
  g_test_message ("the flame graph panel: 0x%08x shown, 0x%08x loading", shown_color, dimmed_color);
  g_assert_cmpuint (dimmed_color, !=, shown_color);

  /* 24h before the slow answer comes: the fast one is shown, the slow
   * one (for 6h) never */
  embers_explore_page_set_preset (p.explore, 24 * 3600);
  embers_test_wait_until (both_shown, &p, "the 24 h answer");
  embers_test_wait_until (series_answered, &answered, "the slow 6 h answer");
  embers_test_drain ();
  g_assert_cmpint (embers_explore_page_get_preset (p.explore), ==, 24 * 3600);
  g_assert_cmpint (embers_status_get_state (p.chart), ==, EMBERS_STATUS_CONTENT);
  g_assert_cmpint (embers_status_get_state (p.graph), ==, EMBERS_STATUS_CONTENT);
  {
    g_autoptr(EmbersQuery) query = embers_query_model_dup_query (
      embers_workspace_get_query (EMBERS_WORKSPACE (gtk_widget_get_ancestor (GTK_WIDGET (p.explore),
                                                                             EMBERS_TYPE_WORKSPACE))));

    g_assert_cmpint (query->end_ms - query->start_ms, ==, 24 * 3600 * 1000);
  }

  /* Dead: 1h asks a server that is gone. Each panel says so, with Retry,
   * in place of the old answer */
  embers_test_server_stop (server);
  embers_explore_page_set_preset (p.explore, 3600);
  embers_test_wait_until (both_failed, &p, "both panels' errors");
  for (guint i = 0; i < 2; i++)
    {
      EmbersStatus *panel = i == 0 ? p.chart : p.graph;

      g_assert_true (embers_status_get_can_retry (panel));
      g_assert_nonnull (embers_status_get_title (panel));
      g_assert_false (gtk_widget_get_mapped (embers_status_get_content (panel)));
    }
  g_assert_cmpstr (embers_status_get_title (p.graph), ==, "Could Not Load the Flame Graph");
  g_assert_cmpstr (embers_status_get_title (p.chart), ==, "Could Not Load the Time Series");
  /* On screen: the message, not the graph */
  g_assert_cmpuint (panel_color (GTK_WIDGET (p.graph)), !=, shown_color);

  gtk_window_destroy (GTK_WINDOW (window));
}

/* The label cards and the compare page's panels */

typedef struct
{
  EmbersExplorePage *explore;
  EmbersLabelsPage  *labels;
  EmbersStatus      *values;
  EmbersComparePage *compare;
  EmbersStatus      *charts[2];
  EmbersStatus      *diff;
} Views;

static EmbersStatus *
only_status (GtkWidget *widget,
             guint      expected,
             guint      index)
{
  g_autoptr(GPtrArray) found = g_ptr_array_new ();

  collect_status (widget, found);
  g_assert_cmpuint (found->len, ==, expected);
  return found->pdata[index];
}

static gboolean
values_shown (gpointer data)
{
  Views *v = data;

  return !embers_labels_page_get_loading (v->labels) && embers_labels_page_get_stats (v->labels) != NULL &&
         embers_status_get_state (v->values) == EMBERS_STATUS_CONTENT;
}

static gboolean
values_failed (gpointer data)
{
  Views *v = data;

  return embers_status_get_state (v->values) == EMBERS_STATUS_MESSAGE;
}

static gboolean
compare_shown (gpointer data)
{
  Views *v = data;

  return !embers_compare_page_get_busy (v->compare) && embers_compare_page_get_diff (v->compare) != NULL &&
         embers_status_get_state (v->diff) == EMBERS_STATUS_CONTENT &&
         embers_status_get_state (v->charts[0]) == EMBERS_STATUS_CONTENT &&
         embers_status_get_state (v->charts[1]) == EMBERS_STATUS_CONTENT &&
         !embers_profile_page_get_busy (embers_compare_page_get_profile_page (v->compare));
}

static gboolean
compare_failed (gpointer data)
{
  Views *v = data;

  return embers_status_get_state (v->diff) == EMBERS_STATUS_MESSAGE &&
         embers_status_get_state (v->charts[0]) == EMBERS_STATUS_MESSAGE &&
         embers_status_get_state (v->charts[1]) == EMBERS_STATUS_MESSAGE;
}

static void
assert_loading (EmbersStatus *panel,
                gint64        start_ms)
{
  g_autofree char *from = embers_query_url_format_local_time (start_ms);

  g_assert_cmpint (embers_status_get_state (panel), ==, EMBERS_STATUS_LOADING);
  g_assert_true (embers_status_get_content_dimmed (panel));
  g_assert_nonnull (strstr (embers_status_get_loading_text (panel), from));
  g_assert_false (gtk_widget_get_can_target (embers_status_get_content (panel)));
}

static GtkWidget *
find_class (GtkWidget  *widget,
            const char *css_class)
{
  if (gtk_widget_has_css_class (widget, css_class))
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_class (c, css_class);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* How much a panel's content shows, as a person sees it in the window:
 * the summed difference of its pixels from its background, outside the
 * line that says what loads (dimmed content shows less) */
static double
panel_ink (GtkWidget *panel)
{
  GtkWidget *osd = find_class (panel, "embers-loading");
  graphene_rect_t skip = GRAPHENE_RECT_INIT (0, 0, 0, 0);
  GtkWidget *window = GTK_WIDGET (gtk_widget_get_root (panel));
  g_autoptr(EmbersTestPixels) pixels = NULL;
  graphene_rect_t area;
  guint32 bg;
  double ink = 0;

  embers_test_wait_frame (panel);
  pixels = embers_test_render (window);
  area = embers_test_bounds (panel, window);
  bg = embers_test_pixels_dominant (pixels, &area);
  if (g_getenv ("EMBERS_TEST_SAVE") != NULL)
    {
      static guint n;
      g_autofree char *path = g_strdup_printf ("%s/ink-%u.png", g_getenv ("EMBERS_TEST_SAVE"), n++);

      embers_test_pixels_save (pixels, path);
    }
  if (osd != NULL && gtk_widget_get_mapped (osd))
    skip = embers_test_bounds (osd, window);
  for (int y = (int)area.origin.y; y < (int)(area.origin.y + area.size.height); y += 2)
    for (int x = (int)area.origin.x; x < (int)(area.origin.x + area.size.width); x += 2)
      {
        guint32 c = embers_test_pixels_get (pixels, x, y);

        if (graphene_rect_contains_point (&skip, &GRAPHENE_POINT_INIT (x, y)))
          continue;

        for (int shift = 0; shift < 24; shift += 8)
          ink += abs ((int)((c >> shift) & 0xff) - (int)((bg >> shift) & 0xff));
      }
  return ink;
}

static void
test_labels_and_compare (void)
{
  g_autoptr(GError) error = NULL;
  EmbersTestServer *server = embers_test_server_start (NULL, &error);
  g_autoptr(EmbersConnectClient) client = NULL;
  g_autoptr(EmbersPyroscopeSource) source = NULL;
  EmbersWindow *window = embers_window_new (NULL);
  EmbersWorkspace *workspace;
  Panels p = { NULL };
  Views v = { NULL };
  double shown_ink, dimmed_ink;
  gint64 start, end, now_ms;

  g_assert_no_error (error);
  client = embers_connect_client_new (embers_test_server_get_url (server), &error);
  g_assert_no_error (error);
  source = embers_pyroscope_source_new (client);

  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 800);
  gtk_window_present (GTK_WINDOW (window));
  v.explore = p.explore = EMBERS_EXPLORE_PAGE (embers_window_open_explore (window, EMBERS_SOURCE (source), NULL));
  embers_test_wait_until (has_services, &p, "the services");
  g_assert_true (embers_explore_page_select_service (p.explore, "api"));
  workspace = EMBERS_WORKSPACE (gtk_widget_get_ancestor (GTK_WIDGET (p.explore), EMBERS_TYPE_WORKSPACE));

  /* Labels: region's cards */
  v.labels = EMBERS_LABELS_PAGE (embers_window_open_labels (window, p.explore));
  g_assert_nonnull (v.labels);
  v.values = only_status (GTK_WIDGET (v.labels), 1, 0);
  embers_test_wait_property (v.labels, "loading", FALSE);
  g_assert_true (embers_labels_page_select_label (v.labels, "region"));
  embers_test_wait_until (values_shown, &v, "region's cards");
  g_assert_cmpuint (embers_labels_page_get_n_cards (v.labels), >, 0);
  shown_ink = panel_ink (GTK_WIDGET (v.values));

  /* Slow, then 6h: the same page, its cards dimmed under the new range */
  g_free (embers_test_server_control (server, "POST", "embers-test/faults",
                                      "{\"delay_ms\":1500,\"count\":10}"));
  embers_explore_page_set_preset (p.explore, 6 * 3600);
  g_assert_true (embers_workspace_get_labels_page (workspace) == v.labels);
  embers_explore_page_get_time_range (p.explore, &start, &end);
  assert_loading (v.values, start);
  g_assert_cmpuint (embers_labels_page_get_n_cards (v.labels), >, 0);
  dimmed_ink = panel_ink (GTK_WIDGET (v.values));
  g_test_message ("the label cards' ink: %.0f shown, %.0f loading", shown_ink, dimmed_ink);
  g_assert_cmpfloat (dimmed_ink, <, shown_ink * 0.8);

  /* 24h before a slow answer comes: 24h's values, never 6h's (whose
   * requests are cancelled, or answered and dropped) */
  embers_explore_page_set_preset (p.explore, 24 * 3600);
  embers_test_wait_until (values_shown, &v, "the 24 h values");
  embers_test_wait_until (explore_idle, &p, "the flame graph view's 24 h answers");
  embers_test_wait_until (values_shown, &v, "the 24 h values, still");
  g_free (embers_test_server_control (server, "DELETE", "embers-test/faults", NULL));
  embers_test_drain ();
  g_assert_cmpint (embers_labels_page_get_query (v.labels)->end_ms - embers_labels_page_get_query (v.labels)->start_ms,
                   ==, 24 * 3600 * 1000);
  g_assert_cmpint (embers_status_get_state (v.values), ==, EMBERS_STATUS_CONTENT);
  g_assert_cmpstr (embers_labels_page_get_label (v.labels), ==, "region");

  /* Compare: both charts and the diff, each on its own */
  g_assert_true (embers_workspace_show_view (workspace, EMBERS_WORKSPACE_VIEW_COMPARE));
  v.compare = embers_workspace_get_compare_page (workspace);
  v.charts[0] = only_status (GTK_WIDGET (v.compare), 3, 0);
  v.charts[1] = only_status (GTK_WIDGET (v.compare), 3, 1);
  v.diff = only_status (GTK_WIDGET (v.compare), 3, 2);
  g_assert_true (embers_status_get_content (v.charts[0]) == GTK_WIDGET (embers_compare_page_get_chart (v.compare, FALSE)));
  g_assert_true (embers_status_get_content (v.diff) == GTK_WIDGET (embers_compare_page_get_profile_page (v.compare)));
  now_ms = g_get_real_time () / 1000;
  {
    g_autoptr(EmbersQuery) base = embers_query_new (CPU_TYPE, "{service_name=\"api\"}", now_ms - 4 * 3600000, now_ms - 3 * 3600000);
    g_autoptr(EmbersQuery) comp = embers_query_new (CPU_TYPE, "{service_name=\"api\"}", now_ms - 3600000, now_ms);

    embers_workspace_compare (workspace, base, comp, TRUE);
  }
  embers_test_wait_until (compare_shown, &v, "the first comparison");
  shown_ink = panel_ink (GTK_WIDGET (v.diff));
  /* One value scale for both sides */
  g_assert_cmpfloat (embers_chart_get_y_max (embers_series_chart_get_chart (embers_compare_page_get_chart (v.compare, FALSE))),
                     ==,
                     embers_chart_get_y_max (embers_series_chart_get_chart (embers_compare_page_get_chart (v.compare, TRUE))));

  /* Slow: every panel says what it loads over its old answer */
  g_free (embers_test_server_control (server, "POST", "embers-test/faults",
                                      "{\"delay_ms\":1500,\"count\":10}"));
  {
    g_autoptr(EmbersQuery) base = embers_query_new (CPU_TYPE, "{service_name=\"api\"}", now_ms - 5 * 3600000, now_ms - 4 * 3600000);
    g_autoptr(EmbersQuery) comp = embers_query_new (CPU_TYPE, "{service_name=\"api\"}", now_ms - 2 * 3600000, now_ms - 3600000);

    embers_workspace_compare (workspace, base, comp, TRUE);
  }
  assert_loading (v.diff, now_ms - 5 * 3600000);
  g_assert_cmpint (embers_status_get_state (v.charts[0]), ==, EMBERS_STATUS_LOADING);
  g_assert_cmpint (embers_status_get_state (v.charts[1]), ==, EMBERS_STATUS_LOADING);
  g_assert_true (embers_status_get_content_dimmed (v.charts[0]));
  dimmed_ink = panel_ink (GTK_WIDGET (v.diff));
  g_test_message ("the diff's ink: %.0f shown, %.0f loading", shown_ink, dimmed_ink);
  g_assert_cmpfloat (dimmed_ink, <, shown_ink * 0.8);
  embers_test_wait_until (compare_shown, &v, "the second comparison");
  g_free (embers_test_server_control (server, "DELETE", "embers-test/faults", NULL));
  {
    g_autoptr(EmbersQuery) base = embers_compare_page_dup_query (v.compare, FALSE);

    g_assert_nonnull (base);
    g_assert_cmpint (base->start_ms / 1000, ==, (now_ms - 5 * 3600000) / 1000);
  }

  /* Dead: each panel's error with Retry, in place of its old answer */
  embers_test_server_stop (server);
  {
    g_autoptr(EmbersQuery) base = embers_query_new (CPU_TYPE, "{service_name=\"api\"}", now_ms - 6 * 3600000, now_ms - 5 * 3600000);
    g_autoptr(EmbersQuery) comp = embers_query_new (CPU_TYPE, "{service_name=\"api\"}", now_ms - 3 * 3600000, now_ms - 2 * 3600000);

    embers_workspace_compare (workspace, base, comp, TRUE);
  }
  embers_test_wait_until (compare_failed, &v, "the compare page's errors");
  g_assert_cmpstr (embers_status_get_title (v.diff), ==, "Could Not Compare");
  g_assert_cmpstr (embers_status_get_title (v.charts[0]), ==, "Could Not Load the Time Series");
  for (guint i = 0; i < 2; i++)
    {
      g_assert_true (embers_status_get_can_retry (v.charts[i]));
      g_assert_false (gtk_widget_get_mapped (embers_status_get_content (v.charts[i])));
    }
  g_assert_true (embers_status_get_can_retry (v.diff));
  g_assert_false (gtk_widget_get_mapped (embers_status_get_content (v.diff)));
  /* On screen: the message, not the diff */
  g_assert_cmpfloat (panel_ink (GTK_WIDGET (v.diff)), <, shown_ink * 0.5);
  /* Said once: in place of the diff, not again on the form's error line */
  {
    g_autofree char *form_error = NULL;
    const char *message = embers_status_get_description (v.diff);

    g_object_get (v.compare, "form-error", &form_error, NULL);
    g_assert_null (form_error);
    g_assert_nonnull (message);
    embers_test_wait_frame (GTK_WIDGET (v.compare));
    g_assert_cmpuint (embers_test_count_shown_text (GTK_WIDGET (v.compare), message), ==, 1);
  }

  /* And the labels: 1h, an error with Retry in place of the cards */
  g_assert_true (embers_workspace_show_view (workspace, EMBERS_WORKSPACE_VIEW_LABELS));
  embers_explore_page_set_preset (p.explore, 3600);
  embers_test_wait_until (values_failed, &v, "the labels' error");
  g_assert_true (embers_status_get_can_retry (v.values));
  g_assert_false (gtk_widget_get_mapped (embers_status_get_content (v.values)));
  g_assert_nonnull (embers_test_find_widget (GTK_WIDGET (v.values), ADW_TYPE_STATUS_PAGE, NULL));
  g_assert_true (gtk_widget_get_mapped (embers_test_find_widget (GTK_WIDGET (v.values), ADW_TYPE_STATUS_PAGE, NULL)));

  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int    argc,
      char **argv)
{
  embers_test_gtk_init (&argc, &argv);

  g_test_add_func ("/embers/honest-loading/slow-then-dead", test_slow_then_dead);
  g_test_add_func ("/embers/honest-loading/labels-and-compare", test_labels_and_compare);

  return g_test_run ();
}
