/* test-details-server.c: a function's details in a server tab: the lines
 * come from the merged pprof of the stacks through its call site, asked
 * of the test server (issue 18.2)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

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

/* A window exploring the test server's api service, its flame graph shown */
static EmbersExplorePage *
open_api (EmbersTestServer  *server,
          EmbersWindow     **window)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersConnectClient) client = embers_connect_client_new (embers_test_server_get_url (server), &error);
  g_autoptr(EmbersPyroscopeSource) source = NULL;
  EmbersExplorePage *explore;

  g_assert_no_error (error);
  source = embers_pyroscope_source_new (client);
  *window = embers_window_new (NULL);
  gtk_window_set_default_size (GTK_WINDOW (*window), 1200, 800);
  gtk_window_present (GTK_WINDOW (*window));
  explore = EMBERS_EXPLORE_PAGE (embers_window_open_explore (*window, EMBERS_SOURCE (source), NULL));
  wait_idle (explore);
  g_assert_true (embers_explore_page_select_service (explore, "api"));
  wait_idle (explore);
  return explore;
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

/* The graph's selection on @name's heaviest frame, unless the panel
 * shows it already */
static void
select_name (EmbersProfilePage *page,
             const char        *name)
{
  EmbersFlameGraph *graph = embers_profile_page_get_flame_graph (page);
  EmbersProfile *profile = embers_flame_graph_get_profile (graph);
  guint32 best = EMBERS_NODE_NONE;

  if (g_strcmp0 (embers_details_panel_get_function (embers_profile_page_get_details_panel (page)), name) == 0)
    return;
  for (guint32 i = 1; i < embers_profile_get_n_nodes (profile); i++)
    if (g_str_equal (embers_profile_node_name_str (profile, i), name) &&
        (best == EMBERS_NODE_NONE || embers_profile_node_total (profile, 0, i) > embers_profile_node_total (profile, 0, best)))
      best = i;
  g_assert_cmpuint (best, !=, EMBERS_NODE_NONE);
  embers_flame_graph_set_selected_node (graph, best);
}

static void
test_server_lines (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersTestServer) server = embers_test_server_start (NULL, &error);
  EmbersWindow *window;
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
  explore = open_api (server, &window);
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

  /* A view that rewrote the stacks (focus on the function): its paths are
   * no call site of the server's; the panel says so and asks nothing */
  g_assert_true (gtk_widget_activate_action_variant (GTK_WIDGET (page), "page.transform",
                                                     g_variant_new ("(s^as)", "focus-function",
                                                                    (const char *[]) { name, NULL })));
  wait_idle (explore);
  select_name (page, name);
  embers_test_wait_for (!embers_details_panel_get_busy (panel) &&
                        embers_details_panel_get_view_note (panel) != NULL &&
                        strstr (embers_details_panel_get_view_note (panel), "server") != NULL);
  embers_test_drain ();
  g_assert_cmpint (embers_test_server_stat (server, "requests", MERGE_PATH), ==, 1);
  /* The figures are the focused tree's: the function's total in all */
  g_assert_cmpint (embers_details_panel_get_details (panel)->total, ==, function_total);
  embers_test_settle ();
  g_assert_cmpuint (embers_test_count_shown_text (GTK_WIDGET (panel), "not the server's"), ==, 1);

  /* Dropping samples keeps the recorded stacks: the call site is asked
   * for, and its answer seen through the drop */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "page.clear-transforms", NULL));
  wait_idle (explore);
  {
    EmbersProfile *now = embers_flame_graph_get_profile (graph);
    guint32 site = EMBERS_NODE_NONE;
    const char *other = NULL;

    /* The same call site, and a function elsewhere to drop */
    for (guint32 i = 1; i < embers_profile_get_n_nodes (now); i++)
      if (g_str_equal (embers_profile_node_name_str (now, i), name) &&
          embers_profile_node_total (now, 0, i) == site_total && site == EMBERS_NODE_NONE)
        site = i;
    g_assert_cmpuint (site, !=, EMBERS_NODE_NONE);
    for (guint32 i = 1; i < embers_profile_get_n_nodes (now) && other == NULL; i++)
      if (i < site || i >= embers_profile_node_end (now, site))
        {
          gboolean on_path = FALSE;

          for (guint32 n = site; n != 0 && n != EMBERS_NODE_NONE; n = embers_profile_node_parent (now, n))
            on_path |= g_str_equal (embers_profile_node_name_str (now, n), embers_profile_node_name_str (now, i));
          if (!on_path && !g_str_equal (embers_profile_node_name_str (now, i), name))
            other = embers_profile_node_name_str (now, i);
        }
    g_assert_nonnull (other);
    g_assert_true (gtk_widget_activate_action_variant (GTK_WIDGET (page), "page.transform",
                                                       g_variant_new ("(s^as)", "drop-function",
                                                                      (const char *[]) { other, NULL })));
  }
  wait_idle (explore);
  embers_test_wait_for (!embers_details_panel_get_busy (panel) &&
                        embers_test_server_stat (server, "requests", MERGE_PATH) >= 2);
  {
    EmbersProfile *now = embers_flame_graph_get_profile (graph);
    gint64 total = embers_details_panel_get_details (panel)->total;
    gboolean found = FALSE;

    /* The server's answer for the call site, seen through the drop, is
     * that call site's total in the dropped view */
    g_test_message ("dropped %s: panel total %" G_GINT64_FORMAT, name, total);
    for (guint32 i = 1; i < embers_profile_get_n_nodes (now); i++)
      found |= g_str_equal (embers_profile_node_name_str (now, i), name) &&
               embers_profile_node_total (now, 0, i) == total;
    g_assert_true (found);
    g_assert_cmpint (total, <, function_total);
  }
  g_assert_cmpstr (embers_details_panel_get_view_note (panel), !=, NULL);
  g_assert_null (strstr (embers_details_panel_get_view_note (panel), "server"));

  g_object_ref (window);
  gtk_window_destroy (GTK_WINDOW (window));
  embers_test_assert_finalize (window);
}

/* In the bottom-up view the graph's paths run from a function to its
 * callers: no call site of the server's. The call site asked for is the
 * function's heaviest frame in the profile as recorded */
static void
test_server_lines_bottom_up (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersTestServer) server = embers_test_server_start (NULL, &error);
  EmbersWindow *window;
  EmbersExplorePage *explore;
  EmbersProfilePage *page;
  EmbersDetailsPanel *panel;
  EmbersFlameGraph *graph;
  EmbersProfile *recorded;
  EmbersProfile *inverted;
  const char *name;
  guint32 heaviest = EMBERS_NODE_NONE;
  guint32 leaf = EMBERS_NODE_NONE;

  g_assert_no_error (error);
  explore = open_api (server, &window);
  page = embers_explore_page_get_profile_page (explore);
  recorded = embers_profile_page_get_profile (page);
  name = embers_profile_node_name_str (recorded, shared_function_node (recorded));
  for (guint32 i = 1; i < embers_profile_get_n_nodes (recorded); i++)
    if (g_str_equal (embers_profile_node_name_str (recorded, i), name) &&
        (heaviest == EMBERS_NODE_NONE ||
         embers_profile_node_total (recorded, 0, i) > embers_profile_node_total (recorded, 0, heaviest)))
      heaviest = i;

  embers_profile_page_set_view (page, EMBERS_VIEW_BOTTOM_UP);
  wait_idle (explore);
  graph = embers_profile_page_get_flame_graph (page);
  inverted = embers_flame_graph_get_profile (graph);
  g_assert_true (inverted != recorded);
  /* a frame of the function below another's: its path is of callers */
  for (guint32 i = 1; i < embers_profile_get_n_nodes (inverted) && leaf == EMBERS_NODE_NONE; i++)
    if (embers_profile_node_parent (inverted, i) != 0 && g_str_equal (embers_profile_node_name_str (inverted, i), name))
      leaf = i;
  g_assert_cmpuint (leaf, !=, EMBERS_NODE_NONE);
  embers_flame_graph_set_selected_node (graph, leaf);

  g_free (embers_test_server_control (server, "DELETE", "embers-test/stats", NULL));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "page.details", NULL));
  panel = embers_profile_page_get_details_panel (page);
  g_assert_cmpstr (embers_details_panel_get_function (panel), ==, name);
  embers_test_wait_for (!embers_details_panel_get_busy (panel) &&
                        embers_test_server_stat (server, "requests", MERGE_PATH) >= 1);
  g_assert_cmpint (embers_test_server_stat (server, "requests", MERGE_PATH), ==, 1);
  g_assert_cmpint (embers_details_panel_get_details (panel)->total, ==,
                   embers_profile_node_total (recorded, 0, heaviest));

  g_object_ref (window);
  gtk_window_destroy (GTK_WINDOW (window));
  embers_test_assert_finalize (window);
}

/* Two frames of one function whose callers differ, heavier first */
static void
two_frames (EmbersProfile *profile,
            guint32       *a,
            guint32       *b)
{
  for (guint32 i = 1; i < embers_profile_get_n_nodes (profile); i++)
    for (guint32 j = i + 1; j < embers_profile_get_n_nodes (profile); j++)
      if (g_str_equal (embers_profile_node_name_str (profile, i), embers_profile_node_name_str (profile, j)) &&
          embers_profile_node_parent (profile, i) != 0 && embers_profile_node_parent (profile, j) != 0 &&
          !g_str_equal (embers_profile_node_name_str (profile, embers_profile_node_parent (profile, i)),
                        embers_profile_node_name_str (profile, embers_profile_node_parent (profile, j))) &&
          embers_profile_node_total (profile, 0, i) != embers_profile_node_total (profile, 0, j))
        {
          gboolean first = embers_profile_node_total (profile, 0, i) > embers_profile_node_total (profile, 0, j);

          *a = first ? i : j;
          *b = first ? j : i;
          return;
        }
  g_assert_not_reached ();
}

/* The panel shows @node's call site's figures from the server: its total,
 * and its one caller, the frame's parent */
static void
wait_frame_figures (EmbersDetailsPanel *panel,
                    EmbersProfile      *profile,
                    guint32             node)
{
  const char *parent = embers_profile_node_name_str (profile, embers_profile_node_parent (profile, node));
  EmbersFunctionDetails *d;

  embers_test_wait_for (!embers_details_panel_get_busy (panel) &&
                        embers_details_panel_get_shown_call_site (panel) != NULL &&
                        embers_details_panel_get_details (panel)->total == embers_profile_node_total (profile, 0, node));
  d = embers_details_panel_get_details (panel);
  /* Its share is of the whole profile, not of the answer (the site) */
  g_assert_cmpint (d->profile_total, ==, embers_profile_get_total (profile, 0));
  g_assert_cmpint (d->profile_total, >, d->total);
  g_assert_cmpuint (d->callers->len, ==, 1);
  g_assert_cmpstr (g_array_index (d->callers, EmbersFunctionEdge, 0).name, ==, parent);
}

/* Two frames of one function are two call sites: moving the selection
 * from one to the other asks the server for the other's stack, and the
 * figures become its own; the very same frame is not asked for again */
static void
test_server_frames (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersTestServer) server = embers_test_server_start (NULL, &error);
  EmbersWindow *window;
  EmbersExplorePage *explore;
  EmbersProfilePage *page;
  EmbersDetailsPanel *panel;
  EmbersFlameGraph *graph;
  EmbersProfile *shown;
  const char * const *site;
  guint32 a, b;

  g_assert_no_error (error);
  explore = open_api (server, &window);
  page = embers_explore_page_get_profile_page (explore);
  graph = embers_profile_page_get_flame_graph (page);
  shown = embers_flame_graph_get_profile (graph);
  two_frames (shown, &a, &b);
  g_test_message ("%s: %" G_GINT64_FORMAT " under %s, %" G_GINT64_FORMAT " under %s",
                  embers_profile_node_name_str (shown, a),
                  embers_profile_node_total (shown, 0, a),
                  embers_profile_node_name_str (shown, embers_profile_node_parent (shown, a)),
                  embers_profile_node_total (shown, 0, b),
                  embers_profile_node_name_str (shown, embers_profile_node_parent (shown, b)));

  /* Frame A */
  embers_flame_graph_set_selected_node (graph, a);
  g_free (embers_test_server_control (server, "DELETE", "embers-test/stats", NULL));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "page.details", NULL));
  panel = embers_profile_page_get_details_panel (page);
  wait_frame_figures (panel, shown, a);
  g_assert_cmpint (embers_test_server_stat (server, "requests", MERGE_PATH), ==, 1);
  site = embers_details_panel_get_shown_call_site (panel);
  g_assert_cmpuint (g_strv_length ((char **)site), ==, embers_profile_node_depth (shown, a));
  g_assert_cmpstr (site[g_strv_length ((char **)site) - 2], ==,
                   embers_profile_node_name_str (shown, embers_profile_node_parent (shown, a)));
  /* Said on screen: the call site, by its nearest caller */
  embers_test_settle ();
  g_assert_cmpuint (embers_test_count_shown_text (GTK_WIDGET (panel), "At the selected call site"), ==, 1);
  if (g_getenv ("EMBERS_TEST_SHOTS") != NULL)
    {
      g_autofree char *where = g_build_filename (g_getenv ("EMBERS_TEST_SHOTS"), "details-call-site.png", NULL);
      EmbersTestPixels *shot = embers_test_render (GTK_WIDGET (window));

      embers_test_pixels_save (shot, where);
      embers_test_pixels_free (shot);
    }

  /* Frame B of the same function: asked for with B's stack, B's figures */
  embers_flame_graph_set_selected_node (graph, b);
  g_assert_cmpstr (embers_details_panel_get_function (panel), ==, embers_profile_node_name_str (shown, b));
  wait_frame_figures (panel, shown, b);
  g_assert_cmpint (embers_test_server_stat (server, "requests", MERGE_PATH), ==, 2);
  site = embers_details_panel_get_shown_call_site (panel);
  g_assert_cmpstr (site[g_strv_length ((char **)site) - 2], ==,
                   embers_profile_node_name_str (shown, embers_profile_node_parent (shown, b)));

  /* The same frame again (the panel hidden and shown): nothing asked */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "page.details", NULL));
  g_assert_false (embers_profile_page_get_details_shown (page));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "page.details", NULL));
  g_assert_true (embers_profile_page_get_details_shown (page));
  embers_test_drain ();
  g_assert_false (embers_details_panel_get_busy (panel));
  g_assert_cmpint (embers_test_server_stat (server, "requests", MERGE_PATH), ==, 2);
  g_assert_cmpint (embers_details_panel_get_details (panel)->total, ==, embers_profile_node_total (shown, 0, b));

  /* And back to A, quickly through B's parent: only A's answer is shown */
  embers_flame_graph_set_selected_node (graph, embers_profile_node_parent (shown, b));
  embers_flame_graph_set_selected_node (graph, a);
  wait_frame_figures (panel, shown, a);

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
  g_test_add_func ("/embers/app/details-server/bottom-up", test_server_lines_bottom_up);
  g_test_add_func ("/embers/app/details-server/frames", test_server_frames);

  return g_test_run ();
}
