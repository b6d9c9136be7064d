/* test-honest-loading.c: each panel says what it is loading, and never
 * shows an answer under a query it does not belong to (under Xvfb,
 * against a test server that is slowed, then killed)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <adwaita.h>

#include "embers-pyroscope-source.h"
#include "embers-query-url.h"
#include "embers-status.h"
#include "embers-test-gtk-utils.h"
#include "embers-test-server-spawn.h"
#include "embers-window-private.h"
#include "embers-workspace.h"

#define SERIES_PATH "/querier.v1.QuerierService/Series"

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

int
main (int    argc,
      char **argv)
{
  embers_test_gtk_init (&argc, &argv);

  g_test_add_func ("/embers/honest-loading/slow-then-dead", test_slow_then_dead);

  return g_test_run ();
}
