/* test-fill.c: Load More on an `other` frame of a server's cut answer, and
 * the fill-in after a focus, against the Pyroscope test server (under Xvfb)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>
#include <adwaita.h>
#include <libsoup/soup.h>

#include "embers-accessible.h"
#include "embers-compare-page.h"
#include "embers-explore-page.h"
#include "embers-fill.h"
#include "embers-filler.h"
#include "embers-flame-graph.h"
#include "embers-profile-page.h"
#include "embers-pyroscope-source.h"
#include "embers-status.h"
#include "embers-test-gtk-utils.h"
#include "embers-test-server-spawn.h"
#include "embers-window-private.h"

#define CPU "process_cpu:cpu:nanoseconds:cpu:nanoseconds"

/*
 * One service: main's children are hot 50, parse 18 (a 10, b 8), and
 * json 12, kafka 9, log 6. With max_nodes 3 (Pyroscope keeps the frames
 * whose total reaches the 3rd largest, pkg/model/tree.go) the answer keeps
 * main, hot and parse: json, kafka and log become main's `other` (27),
 * drawn between hot and parse (siblings in name order), and a and b
 * parse's `other` (18).
 */
static const char stacks[] =
  "main;hot 50\n"
  "main;parse;a 10\n"
  "main;parse;b 8\n"
  "main;json 12\n"
  "main;kafka 9\n"
  "main;log 6\n";

#define wait_for(done, data) \
  G_STMT_START { embers_test_wait_until ((done), (data), #done); embers_test_drain (); } G_STMT_END

static gboolean
page_idle (gpointer data)
{
  EmbersExplorePage *page = data;

  return !embers_explore_page_get_loading (page) &&
         !embers_profile_page_get_busy (embers_explore_page_get_profile_page (page)) &&
         !embers_filler_get_busy (embers_explore_page_get_filler (page));
}

static gboolean
is_mapped (gpointer widget)
{
  return gtk_widget_get_mapped (widget);
}

static gboolean
filler_busy (gpointer data)
{
  return embers_filler_get_busy (data);
}

static guint n_filled_before;

static gboolean
filled_more (gpointer data)
{
  return embers_filler_get_n_filled (data) > n_filled_before && !embers_filler_get_busy (data);
}

static GtkWidget *
find_model_button (GtkWidget  *widget,
                   const char *label)
{
  if (g_str_equal (G_OBJECT_TYPE_NAME (widget), "GtkModelButton"))
    {
      g_autofree char *text = NULL;

      g_object_get (widget, "text", &text, NULL);
      if (g_strcmp0 (text, label) == 0)
        return widget;
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_model_button (child, label);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static guint32
view_node (EmbersFlameGraph *graph,
           const char       *path)
{
  g_auto(GStrv) site = g_strsplit (path, ";", -1);

  return embers_fill_find (embers_flame_graph_get_profile (graph), (const char * const *) site);
}

static gint64
view_total (EmbersFlameGraph *graph,
            const char       *path)
{
  guint32 node = view_node (graph, path);

  g_assert_cmpuint (node, !=, EMBERS_NODE_NONE);
  return embers_profile_node_total (embers_flame_graph_get_profile (graph), 0, node);
}

static void
shot (GtkWidget  *window,
      const char *name)
{
  const char *dir = g_getenv ("EMBERS_SHOT_DIR");
  g_autofree char *path = NULL;
  EmbersTestPixels *pixels;

  if (dir == NULL)
    return;
  path = g_build_filename (dir, name, NULL);
  pixels = embers_test_render_frame (window);
  embers_test_pixels_save (pixels, path);
  embers_test_pixels_free (pixels);
}

/* The comparison's side: every frame of `stacks` there, in other amounts */
static const char stacks2[] =
  "main;hot 40\n"
  "main;parse;a 12\n"
  "main;parse;b 6\n"
  "main;json 20\n"
  "main;kafka 6\n"
  "main;log 4\n";

static void
ingest_as (EmbersTestServer *server,
           const char       *name,
           const char       *text)
{
  g_autoptr(SoupSession) session = soup_session_new ();
  g_autofree char *url = g_strdup_printf ("%singest?name=%s.cpu&from=now", embers_test_server_get_url (server), name);
  g_autoptr(SoupMessage) msg = soup_message_new ("POST", url);
  g_autoptr(GBytes) body = g_bytes_new_static (text, strlen (text));
  g_autoptr(GBytes) answer = NULL;
  g_autoptr(GError) error = NULL;

  soup_message_set_request_body_from_bytes (msg, "text/plain", body);
  answer = soup_session_send_and_read (session, msg, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (soup_message_get_status (msg), ==, 200);
}

static void
ingest (EmbersTestServer *server)
{
  ingest_as (server, "fill", stacks);
}

static void
test_load_more (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersTestServer) server = embers_test_server_start (NULL, &error);
  g_autoptr(EmbersConnectClient) client = NULL;
  g_autoptr(EmbersPyroscopeSource) source = NULL;
  EmbersWindow *window;
  EmbersExplorePage *page;
  EmbersProfilePage *profile_page;
  EmbersFlameGraph *graph;
  EmbersFiller *filler;
  EmbersStatus *status;
  EmbersTestPixels *before, *after;
  GtkWidget *popover, *item;
  graphene_rect_t other_area, hot_area, hot_after, json_area;
  guint32 other, json;
  gint64 root_total, main_total, hot_total, parse_total;
  guint32 other_color;
  int px, py;

  g_assert_no_error (error);
  ingest (server);
  client = embers_connect_client_new (embers_test_server_get_url (server), &error);
  g_assert_no_error (error);
  source = embers_pyroscope_source_new (client);

  window = embers_window_new (NULL);
  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 800);
  gtk_window_present (GTK_WINDOW (window));
  page = EMBERS_EXPLORE_PAGE (embers_window_open_explore (window, EMBERS_SOURCE (source), NULL));
  wait_for (page_idle, page);
  /* Fewer nodes than the Nodes field offers (16 at least), for a small
   * example: set on the source the field sets */
  embers_pyroscope_source_set_max_nodes (source, 3);
  g_assert_true (embers_explore_page_select_service (page, "fill"));
  wait_for (page_idle, page);
  g_assert_true (embers_explore_page_set_profile_type (page, CPU));
  wait_for (page_idle, page);
  profile_page = embers_explore_page_get_profile_page (page);
  graph = embers_profile_page_get_flame_graph (profile_page);
  filler = embers_explore_page_get_filler (page);
  status = EMBERS_STATUS (gtk_widget_get_ancestor (GTK_WIDGET (profile_page), EMBERS_TYPE_STATUS));
  embers_test_wait_mapped (GTK_WIDGET (graph));
  embers_test_settle ();

  /* Before: the cut answer, main's `other` drawn between hot and parse */
  other = view_node (graph, "main;other");
  g_assert_cmpuint (other, !=, EMBERS_NODE_NONE);
  g_assert_cmpuint (view_node (graph, "main;json"), ==, EMBERS_NODE_NONE);
  root_total = embers_profile_get_total (embers_flame_graph_get_profile (graph), 0);
  main_total = view_total (graph, "main");
  hot_total = view_total (graph, "main;hot");
  parse_total = view_total (graph, "main;parse");
  g_assert_cmpint (view_total (graph, "main;other"), ==, root_total * 27 / 95);
  g_assert_true (embers_flame_graph_get_node_area (graph, other, &other_area));
  g_assert_true (embers_flame_graph_get_node_area (graph, view_node (graph, "main;hot"), &hot_area));
  g_assert_cmpfloat (other_area.size.width, >, 60);
  /* A point in the left part of `other` (where json will be) */
  px = (int) (other_area.origin.x + other_area.size.width * 0.2);
  py = (int) (other_area.origin.y + other_area.size.height / 2);
  before = embers_test_render_frame (GTK_WIDGET (graph));
  other_color = embers_test_pixels_get (before, px, py);
  g_assert_cmpuint (embers_test_pixels_count_colors (before, &other_area, 8), >=, 2);  /* a frame with a label */
  shot (GTK_WIDGET (window), "fill-before.png");

  /* Select it; the frame menu has Load More; the next answer is slow */
  embers_flame_graph_set_selected_node (graph, other);
  g_free (embers_test_server_control (server, "POST", "embers-test/faults", "{\"delay_ms\":1500,\"count\":1}"));
  gtk_widget_grab_focus (GTK_WIDGET (graph));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (graph), "flame.context-menu", NULL));
  embers_test_drain ();
  popover = embers_test_find_widget (GTK_WIDGET (graph), GTK_TYPE_POPOVER_MENU, NULL);
  g_assert_nonnull (popover);
  embers_test_wait_until (is_mapped, popover, "the frame menu on screen");
  item = find_model_button (popover, "Load More");
  g_assert_nonnull (item);
  /* (a popover is a surface of its own: the screen, as X has it) */
  if (g_getenv ("EMBERS_SHOT_DIR") != NULL)
    {
      g_autofree char *path = g_build_filename (g_getenv ("EMBERS_SHOT_DIR"), "fill-menu.png", NULL);
      g_autofree char *command = g_strdup_printf ("import -window root %s", path);

      embers_test_wait_frame (popover);
      g_spawn_command_line_sync (command, NULL, NULL, NULL, NULL);
    }
  n_filled_before = embers_filler_get_n_filled (filler);
  embers_test_press (item);

  /* Loading: the old graph dimmed under what is asked for, never a part */
  wait_for (filler_busy, filler);
  g_assert_cmpint (embers_status_get_state (status), ==, EMBERS_STATUS_LOADING);
  g_assert_true (embers_status_get_content_dimmed (status));
  g_assert_cmpstr (embers_status_get_loading_text (status), ==, "Loading more under “main”…");
  g_assert_cmpuint (view_node (graph, "main;json"), ==, EMBERS_NODE_NONE);
  shot (GTK_WIDGET (window), "fill-loading.png");
  wait_for (filled_more, filler);
  wait_for (page_idle, page);
  g_assert_cmpint (embers_status_get_state (status), ==, EMBERS_STATUS_CONTENT);
  g_assert_cmpuint (embers_test_server_stat (server, "requests", "/querier.v1.QuerierService/SelectMergeStacktraces"),
                    >=, 2);

  /* After: json (12) came in where `other` was; kafka and log (15) stay
   * in a smaller `other`; no total moved */
  json = view_node (graph, "main;json");
  g_assert_cmpuint (json, !=, EMBERS_NODE_NONE);
  g_assert_cmpint (view_total (graph, "main;json"), ==, root_total * 12 / 95);
  g_assert_cmpint (view_total (graph, "main;other"), ==, root_total * 15 / 95);
  g_assert_cmpint (embers_profile_get_total (embers_flame_graph_get_profile (graph), 0), ==, root_total);
  g_assert_cmpint (view_total (graph, "main"), ==, main_total);
  g_assert_cmpint (view_total (graph, "main;hot"), ==, hot_total);
  g_assert_cmpint (view_total (graph, "main;parse"), ==, parse_total);
  g_assert_cmpstr (embers_filler_get_message (filler), ==, "1 more frame under “main”");
  /* Said to screen readers: here (GTK_A11Y=test) the AT context cannot
   * take it, and nothing crashes */
  {
    gboolean delivered = TRUE;

    g_assert_cmpstr (embers_filler_get_announcement (filler, &delivered), ==, "1 more frame under “main”");
    g_assert_false (delivered);
  }
  /* The selection stays on what is left of `other` */
  g_assert_cmpstr (embers_profile_node_name_str (embers_flame_graph_get_profile (graph),
                                                 embers_flame_graph_get_selected_node (graph)), ==, "other");

  /* Pixels: json is drawn where `other` was; hot did not move */
  embers_test_settle ();
  g_assert_true (embers_flame_graph_get_node_area (graph, json, &json_area));
  g_assert_true (graphene_rect_contains_point (&json_area, &GRAPHENE_POINT_INIT (px, py)));
  g_assert_true (embers_flame_graph_get_node_area (graph, view_node (graph, "main;hot"), &hot_after));
  g_assert_cmpfloat_with_epsilon (hot_after.origin.x, hot_area.origin.x, 0.5);
  g_assert_cmpfloat_with_epsilon (hot_after.size.width, hot_area.size.width, 0.5);
  after = embers_test_render_frame (GTK_WIDGET (graph));
  g_assert_cmpuint (embers_test_pixels_get (after, px, py), !=, other_color);
  g_assert_cmpuint (embers_test_pixels_get (after, (int) (hot_area.origin.x + hot_area.size.width / 2), py), ==,
                    embers_test_pixels_get (before, (int) (hot_area.origin.x + hot_area.size.width / 2), py));
  embers_test_assert_not_blank (after, &json_area, 2, "json");
  shot (GTK_WIDGET (window), "fill-after.png");
  embers_test_pixels_free (before);
  embers_test_pixels_free (after);

  /* A focus on parse makes its `other` wide: filled in by itself */
  n_filled_before = embers_filler_get_n_filled (filler);
  embers_flame_graph_set_focus_node (graph, view_node (graph, "main;parse"));
  wait_for (filled_more, filler);
  wait_for (page_idle, page);
  g_assert_cmpuint (view_node (graph, "main;parse;a"), !=, EMBERS_NODE_NONE);
  g_assert_cmpuint (view_node (graph, "main;parse;b"), !=, EMBERS_NODE_NONE);
  g_assert_cmpint (view_total (graph, "main;parse"), ==, parse_total);
  /* The focus stayed */
  g_assert_cmpuint (embers_flame_graph_get_focus_node (graph), ==, view_node (graph, "main;parse"));

  /* The same again: a larger budget (doubled), all of main's cut frames */
  n_filled_before = embers_filler_get_n_filled (filler);
  /* (the selection is still on main's `other`; L from the graph) */
  g_assert_cmpstr (embers_profile_node_name_str (embers_flame_graph_get_profile (graph),
                                                 embers_flame_graph_get_selected_node (graph)), ==, "other");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (graph), "explore.load-more", NULL));
  wait_for (filled_more, filler);
  wait_for (page_idle, page);
  g_assert_cmpuint (view_node (graph, "main;kafka"), !=, EMBERS_NODE_NONE);
  g_assert_cmpuint (view_node (graph, "main;log"), !=, EMBERS_NODE_NONE);
  g_assert_cmpuint (view_node (graph, "main;other"), ==, EMBERS_NODE_NONE);
  g_assert_cmpint (view_total (graph, "main"), ==, main_total);
  g_assert_cmpuint (embers_fill_count_other (embers_flame_graph_get_profile (graph), NULL), ==, 0);

  /* A frame with nothing cut under it: said so, nothing asked */
  embers_flame_graph_set_selected_node (graph, view_node (graph, "main;hot"));
  g_assert_false (embers_filler_load_more (filler, embers_flame_graph_get_selected_node (graph)));
  g_assert_cmpstr (embers_filler_get_message (filler), ==, "Nothing was cut under “hot”");

  /* A zoom: the answer again (cut as before, nothing filled), zoomed in
   * twice around main's `other`: the wide `other` frames on screen are
   * filled in; the zoom stays */
  embers_flame_graph_reset (graph);
  embers_explore_page_refresh (page);
  wait_for (page_idle, page);
  g_assert_cmpuint (view_node (graph, "main;json"), ==, EMBERS_NODE_NONE);
  g_assert_cmpuint (embers_filler_get_n_filled (filler), ==, 0);
  n_filled_before = 0;
  {
    double start, end, start2, end2;

    embers_test_settle ();
    g_assert_true (embers_flame_graph_get_node_area (graph, view_node (graph, "main;other"), &other_area));
    embers_flame_graph_zoom (graph, 2.0, (other_area.origin.x + other_area.size.width / 2) /
                                         gtk_widget_get_width (GTK_WIDGET (graph)));
    embers_flame_graph_get_visible_range (graph, &start, &end);
    g_assert_cmpfloat (end - start, <, 0.6);
    wait_for (filled_more, filler);
    wait_for (page_idle, page);
    g_assert_cmpuint (view_node (graph, "main;json"), !=, EMBERS_NODE_NONE);
    /* parse's `other`, at the right edge, shows too little of itself
     * (under EMBERS_FILLER_MIN_WIDTH): left alone */
    g_assert_cmpuint (view_node (graph, "main;parse;a"), ==, EMBERS_NODE_NONE);
    g_assert_cmpstr (embers_filler_get_message (filler), ==, "1 more frame on screen");
    embers_flame_graph_get_visible_range (graph, &start2, &end2);
    g_assert_cmpfloat_with_epsilon (start2, start, 1e-9);
    g_assert_cmpfloat_with_epsilon (end2, end, 1e-9);
    g_assert_cmpint (view_total (graph, "main"), ==, main_total);
  }

  /* Newest wins: a slow Load More under main, then one under parse at
   * once; the first is cancelled (its request with it) */
  g_free (embers_test_server_control (server, "POST", "embers-test/faults", "{\"delay_ms\":500,\"count\":1}"));
  n_filled_before = embers_filler_get_n_filled (filler);
  g_assert_true (embers_filler_load_more (filler, view_node (graph, "main;other")));
  g_assert_true (embers_filler_get_busy (filler));
  g_assert_true (embers_filler_load_more (filler, view_node (graph, "main;parse;other")));
  wait_for (filled_more, filler);
  wait_for (page_idle, page);
  g_assert_cmpstr (embers_filler_get_message (filler), ==, "2 more frames under “parse”");
  g_assert_cmpuint (view_node (graph, "main;parse;a"), !=, EMBERS_NODE_NONE);
  g_assert_cmpuint (view_node (graph, "main;kafka"), ==, EMBERS_NODE_NONE);
  g_assert_cmpint (embers_status_get_state (status), ==, EMBERS_STATUS_CONTENT);

  /* The view's transforms stay: with hot hidden (a step of the transform
   * stack), Load More under main brings kafka and log in, hot stays hidden */
  {
    g_autoptr(EmbersTransformStack) stack = embers_transform_stack_new ();
    const char *hot[] = { "main", "hot", NULL };

    g_assert_true (embers_transform_stack_push (stack, EMBERS_TRANSFORM_HIDE, hot, NULL));
    embers_profile_page_set_transforms (profile_page, stack);
    wait_for (page_idle, page);
    g_assert_cmpuint (view_node (graph, "main;hot"), ==, EMBERS_NODE_NONE);
    n_filled_before = embers_filler_get_n_filled (filler);
    g_assert_true (embers_filler_load_more (filler, view_node (graph, "main;other")));
    wait_for (filled_more, filler);
    wait_for (page_idle, page);
    g_assert_cmpuint (view_node (graph, "main;kafka"), !=, EMBERS_NODE_NONE);
    g_assert_cmpuint (view_node (graph, "main;log"), !=, EMBERS_NODE_NONE);
    g_assert_cmpuint (view_node (graph, "main;hot"), ==, EMBERS_NODE_NONE);
    g_assert_cmpuint (embers_transform_stack_get_length (embers_profile_page_get_transforms (profile_page)), ==, 1);
  }

  gtk_window_destroy (GTK_WINDOW (window));
  embers_test_drain ();
}

static gboolean
compare_idle (gpointer data)
{
  EmbersComparePage *page = data;
  EmbersFiller *filler = embers_compare_page_get_filler (page);

  return !embers_compare_page_get_busy (page) &&
         !embers_profile_page_get_busy (embers_compare_page_get_profile_page (page)) &&
         (filler == NULL || !embers_filler_get_busy (filler));
}

static gint64
diff_total (EmbersFlameGraph *graph,
            const char       *path,
            guint             side)
{
  guint32 node = view_node (graph, path);

  g_assert_cmpuint (node, !=, EMBERS_NODE_NONE);
  return embers_profile_node_total (embers_flame_graph_get_profile (graph), side, node);
}

/*
 * A comparison of two cut answers ("fill" against "fill2", max_nodes 3):
 * the server's Diff keeps main, hot and json (ranked by the larger side,
 * pkg/model/flamegraph_diff.go), so parse, kafka and log are main's
 * `other` on both sides: 33 of 95 and 28 of 88. Load More asks each side
 * for main alone and merges both: parse (18 and 18) comes in, kafka and
 * log stay `other` (15 and 10); no total of either side moves. A focus on
 * parse then fills its `other` by itself: a and b.
 */
static void
test_compare (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersTestServer) server = embers_test_server_start (NULL, &error);
  g_autoptr(EmbersConnectClient) client = NULL;
  g_autoptr(EmbersPyroscopeSource) source = NULL;
  g_autoptr(EmbersQuery) base = NULL;
  g_autoptr(EmbersQuery) comp = NULL;
  GtkWidget *window = gtk_window_new ();
  EmbersComparePage *page = EMBERS_COMPARE_PAGE (embers_compare_page_new ());
  EmbersFlameGraph *graph;
  EmbersFiller *filler;
  EmbersTestPixels *pixels;
  graphene_rect_t area;
  gint64 now = g_get_real_time () / 1000;
  gint64 totals[2], main_totals[2], hot_totals[2], json_totals[2];
  gint64 sides[2] = { 95, 88 };
  guint stacktraces;
  const char *merges = "/querier.v1.QuerierService/SelectMergeStacktraces";

  g_assert_no_error (error);
  ingest_as (server, "fill", stacks);
  ingest_as (server, "fill2", stacks2);
  client = embers_connect_client_new (embers_test_server_get_url (server), &error);
  g_assert_no_error (error);
  source = embers_pyroscope_source_new (client);
  embers_pyroscope_source_set_max_nodes (source, 3);

  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (page));
  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 800);
  gtk_window_present (GTK_WINDOW (window));
  embers_compare_page_set_source (page, EMBERS_SOURCE (source));
  base = embers_query_new (CPU, "{service_name=\"fill\"}", now - 3600 * 1000, now + 60 * 1000);
  comp = embers_query_new (CPU, "{service_name=\"fill2\"}", now - 3600 * 1000, now + 60 * 1000);
  embers_compare_page_set_queries (page, base, comp);
  embers_compare_page_compare (page);
  wait_for (compare_idle, page);
  g_assert_null (embers_compare_page_get_error (page));
  filler = embers_compare_page_get_filler (page);
  g_assert_nonnull (filler);
  graph = EMBERS_FLAME_GRAPH (embers_compare_page_get_graph (page));
  embers_test_wait_mapped (GTK_WIDGET (graph));
  embers_test_settle ();

  /* The cut diff */
  g_assert_true (embers_profile_is_diff (embers_flame_graph_get_profile (graph)));
  g_assert_cmpuint (view_node (graph, "main;parse"), ==, EMBERS_NODE_NONE);
  for (guint s = 0; s < 2; s++)
    {
      totals[s] = embers_profile_get_total (embers_flame_graph_get_profile (graph), s);
      main_totals[s] = diff_total (graph, "main", s);
      hot_totals[s] = diff_total (graph, "main;hot", s);
      json_totals[s] = diff_total (graph, "main;json", s);
    }
  g_assert_cmpint (diff_total (graph, "main;other", 0), ==, totals[0] * 33 / sides[0]);
  g_assert_cmpint (diff_total (graph, "main;other", 1), ==, totals[1] * 28 / sides[1]);
  shot (window, "fill-compare-before.png");

  /* Load More on main's `other`: the frame menu's action (L) */
  stacktraces = embers_test_server_stat (server, "requests", merges);
  n_filled_before = embers_filler_get_n_filled (filler);
  embers_flame_graph_set_selected_node (graph, view_node (graph, "main;other"));
  gtk_widget_grab_focus (GTK_WIDGET (graph));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (graph), "explore.load-more", NULL));
  wait_for (filled_more, filler);
  wait_for (compare_idle, page);
  /* Both sides asked for the call site */
  g_assert_cmpuint (embers_test_server_stat (server, "requests", merges), ==, stacktraces + 2);
  g_assert_cmpstr (embers_filler_get_message (filler), ==, "2 more frames under “main”");

  /* parse came in with both sides; the rest stays `other`; no total moved */
  g_assert_cmpint (diff_total (graph, "main;parse", 0), ==, totals[0] * 18 / sides[0]);
  g_assert_cmpint (diff_total (graph, "main;parse", 1), ==, totals[1] * 18 / sides[1]);
  g_assert_cmpint (diff_total (graph, "main;other", 0), ==, totals[0] * 15 / sides[0]);
  g_assert_cmpint (diff_total (graph, "main;other", 1), ==, totals[1] * 10 / sides[1]);
  for (guint s = 0; s < 2; s++)
    {
      g_assert_cmpint (embers_profile_get_total (embers_flame_graph_get_profile (graph), s), ==, totals[s]);
      g_assert_cmpint (diff_total (graph, "main", s), ==, main_totals[s]);
      g_assert_cmpint (diff_total (graph, "main;hot", s), ==, hot_totals[s]);
      g_assert_cmpint (diff_total (graph, "main;json", s), ==, json_totals[s]);
    }
  /* Drawn: parse is on screen, with its label */
  embers_test_settle ();
  g_assert_true (embers_flame_graph_get_node_area (graph, view_node (graph, "main;parse"), &area));
  pixels = embers_test_render_frame (GTK_WIDGET (graph));
  embers_test_assert_not_blank (pixels, &area, 2, "parse");
  embers_test_pixels_free (pixels);
  shot (window, "fill-compare-after.png");

  /* A focus on parse: its `other` (all of it) is filled in by itself */
  n_filled_before = embers_filler_get_n_filled (filler);
  embers_flame_graph_set_focus_node (graph, view_node (graph, "main;parse"));
  wait_for (filled_more, filler);
  wait_for (compare_idle, page);
  g_assert_cmpint (diff_total (graph, "main;parse;a", 0), ==, totals[0] * 10 / sides[0]);
  g_assert_cmpint (diff_total (graph, "main;parse;a", 1), ==, totals[1] * 12 / sides[1]);
  g_assert_cmpint (diff_total (graph, "main;parse;b", 1), ==, totals[1] * 6 / sides[1]);
  g_assert_cmpint (diff_total (graph, "main;parse", 0), ==, totals[0] * 18 / sides[0]);
  g_assert_cmpuint (embers_flame_graph_get_focus_node (graph), ==, view_node (graph, "main;parse"));

  gtk_window_destroy (GTK_WINDOW (window));
  embers_test_drain ();
}

/* A window with a focused button: its AT context is realized */
static GtkWidget *
realized_button (GtkWidget **window_out)
{
  GtkWidget *window = gtk_window_new ();
  GtkWidget *button = gtk_button_new_with_label ("Load More");

  gtk_window_set_child (GTK_WINDOW (window), button);
  gtk_window_present (GTK_WINDOW (window));
  embers_test_wait_mapped (button);
  gtk_widget_grab_focus (button);
  embers_test_drain ();
  *window_out = window;
  return button;
}

/* Why the fill-in is not announced under GTK_A11Y=test: GTK's test AT
 * context has no announce (a NULL vfunc, gtk/gtkatcontext.c), and
 * gtk_accessible_announce() on it crashes. The filler asks first. */
static void
test_announce (void)
{
  GtkWidget *window = NULL;
  GtkWidget *button;

  if (g_test_subprocess ())
    {
      const char *mode = g_getenv ("EMBERS_ANNOUNCE_MODE");

      button = realized_button (&window);
      if (g_strcmp0 (mode, "raw") == 0)
        gtk_accessible_announce (GTK_ACCESSIBLE (button), "1 more frame", GTK_ACCESSIBLE_ANNOUNCEMENT_PRIORITY_MEDIUM);
      else
        /* AT-SPI (no bus here): announced, ignored by a context that
         * could not realize, no crash */
        g_assert_true (embers_accessible_announce (button, "1 more frame"));
      gtk_window_destroy (GTK_WINDOW (window));
      return;
    }

  button = realized_button (&window);
  {
    g_autoptr(GtkATContext) context = gtk_accessible_get_at_context (GTK_ACCESSIBLE (button));

    g_assert_cmpstr (G_OBJECT_TYPE_NAME (context), ==, "GtkTestATContext");
  }
  /* The filler's way: nothing announced, no crash */
  g_assert_false (embers_accessible_announce (button, "1 more frame"));
  g_assert_false (embers_accessible_announce (button, ""));

  /* GTK's own call on the same context */
  {
    g_auto(GStrv) envp = g_get_environ ();

    envp = g_environ_setenv (envp, "EMBERS_ANNOUNCE_MODE", "raw", TRUE);
    g_test_trap_subprocess_with_envp (NULL, (const char * const *) envp, 0, G_TEST_SUBPROCESS_DEFAULT);
    if (g_test_trap_has_passed ())
      g_test_message ("this GTK announces on its test context: the check is no longer needed");
    else
      g_test_message ("GTK %u.%u crashes announcing on its test AT context, as expected",
                      gtk_get_major_version (), gtk_get_minor_version ());
  }
  /* With AT-SPI, the filler announces */
  {
    g_auto(GStrv) envp = g_get_environ ();

    envp = g_environ_setenv (envp, "GTK_A11Y", "atspi", TRUE);
    envp = g_environ_setenv (envp, "EMBERS_ANNOUNCE_MODE", "atspi", TRUE);
    envp = g_environ_unsetenv (envp, "NO_AT_BRIDGE");
    g_test_trap_subprocess_with_envp (NULL, (const char * const *) envp, 0, G_TEST_SUBPROCESS_DEFAULT);
    g_test_trap_assert_passed ();
  }
  gtk_window_destroy (GTK_WINDOW (window));
  embers_test_drain ();
}

int
main (int   argc,
      char *argv[])
{
  embers_test_gtk_init (&argc, &argv);

  g_test_add_func ("/embers/fill/load-more", test_load_more);
  g_test_add_func ("/embers/fill/announce", test_announce);
  g_test_add_func ("/embers/fill/compare", test_compare);

  return g_test_run ();
}
