/* test-details-server.c: a function's details in a server tab: the lines
 * come from the merged pprof of the stacks through its call site, asked
 * of the test server (issue 18.2)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <adwaita.h>

#include "embers-details-panel.h"
#include "embers-explore-page.h"
#include "embers-pyroscope-source.h"
#include "embers-test-gtk-utils.h"
#include "embers-test-server-spawn.h"
#include "embers-window.h"

#define MERGE_PATH "/querier.v1.QuerierService/SelectMergeProfile"

static void
wait_idle (EmbersExplorePage *page)
{
  embers_test_drain ();
  embers_test_wait_while (embers_explore_page_get_loading (page) ||
                          embers_profile_page_get_busy (embers_explore_page_get_profile_page (page)));
  embers_test_drain ();
}

/* A frame whose function is called from more than one place: its call
 * site holds less than the function's total */
static guint32
shared_function_node (EmbersProfile *profile)
{
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint32 i = 1; i < embers_profile_get_n_nodes (profile); i++)
    {
      const char *name = embers_profile_node_name_str (profile, i);
      gpointer first = g_hash_table_lookup (seen, name);

      if (first != NULL && embers_profile_node_parent (profile, i) != embers_profile_node_parent (profile, GPOINTER_TO_UINT (first)))
        return GPOINTER_TO_UINT (first);
      if (first == NULL)
        g_hash_table_insert (seen, (gpointer)name, GUINT_TO_POINTER (i));
    }
  g_assert_not_reached ();
}

static void
test_server_lines (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersTestServer) server = embers_test_server_start (NULL, &error);
  g_autoptr(EmbersConnectClient) client = NULL;
  g_autoptr(EmbersPyroscopeSource) source = NULL;
  EmbersWindow *window = embers_window_new (NULL);
  EmbersExplorePage *explore;
  EmbersProfilePage *page;
  EmbersDetailsPanel *panel;
  EmbersFlameGraph *graph;
  EmbersProfile *shown;
  EmbersFunctionDetails *d;
  g_autofree char *name = NULL;
  guint32 node;
  gint64 site_total, function_total;

  g_assert_no_error (error);
  client = embers_connect_client_new (embers_test_server_get_url (server), &error);
  g_assert_no_error (error);
  source = embers_pyroscope_source_new (client);

  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 800);
  gtk_window_present (GTK_WINDOW (window));
  explore = EMBERS_EXPLORE_PAGE (embers_window_open_explore (window, EMBERS_SOURCE (source), NULL));
  wait_idle (explore);
  g_assert_true (embers_explore_page_select_service (explore, "api"));
  wait_idle (explore);
  page = embers_explore_page_get_profile_page (explore);
  g_assert_cmpint (embers_profile_page_get_state (page), ==, EMBERS_PAGE_STATE_READY);

  graph = embers_profile_page_get_flame_graph (page);
  shown = embers_flame_graph_get_profile (graph);
  node = shared_function_node (shown);
  name = g_strdup (embers_profile_node_name_str (shown, node));
  site_total = embers_profile_node_total (shown, 0, node);
  embers_flame_graph_set_selected_node (graph, node);

  g_free (embers_test_server_control (server, "DELETE", "embers-test/stats", NULL));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "page.details", NULL));
  panel = embers_profile_page_get_details_panel (page);
  g_assert_cmpstr (embers_details_panel_get_function (panel), ==, name);

  /* First what the flame graph knows: every call site of the function */
  function_total = embers_details_panel_get_details (panel)->total;
  g_test_message ("%s: %" G_GINT64_FORMAT " at the call site, %" G_GINT64_FORMAT " in all",
                  name, site_total, function_total);
  g_assert_cmpint (function_total, >, site_total);

  /* Then the server's pprof of this call site's stacks */
  embers_test_wait_for (!embers_details_panel_get_busy (panel) &&
                        embers_details_panel_get_details (panel)->total == site_total);
  g_assert_cmpint (embers_test_server_stat (server, "requests", MERGE_PATH), ==, 1);
  d = embers_details_panel_get_details (panel);
  g_assert_cmpstr (d->name, ==, name);
  /* The test server keeps names only, as a server without symbols */
  g_assert_false (d->has_lines);

  g_object_ref (window);
  gtk_window_destroy (GTK_WINDOW (window));
  embers_test_assert_finalize (window);
}

int
main (int   argc,
      char *argv[])
{
  embers_test_gtk_init (&argc, &argv);

  g_test_add_func ("/embers/app/details-server/lines", test_server_lines);

  return g_test_run ();
}
