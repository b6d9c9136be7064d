/* test-workspace.c: one server tab, four views on one query (under Xvfb)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A local source with two services (shop: 3 regions; web) and the
 * Pyroscope test server for the recording rules view.
 */

#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>

#include "embers-local-source.h"
#include "embers-profile-builder.h"
#include "embers-pyroscope-source.h"
#include "embers-test-gtk-utils.h"
#include "embers-test-utils.h"
#include "embers-test-server-spawn.h"
#include "embers-window-private.h"
#include "embers-workspace.h"

#define CPU_TYPE "process_cpu:cpu:nanoseconds:cpu:nanoseconds"

static const char *regions[] = { "eu", "us", "ap" };

static EmbersSource *
make_source (void)
{
  EmbersLocalSource *local = embers_local_source_new ();
  gint64 now_ms = g_get_real_time () / 1000;

  for (int i = 0; i < 6; i++)
    {
      g_autofree char *pod = g_strdup_printf ("shop-%02d", i);
      const char *labels[] = { "service_name", "shop", "region", regions[i % 3], "pod", pod, NULL };

      for (int k = 0; k < 4; k++)
        {
          g_autoptr(EmbersProfile) p = embers_test_cpu_profile (now_ms - (50 - k * 10) * 60000, "regexp/syntax.(*compiler).compile", 100 * (i + 1) + k);

          embers_local_source_add_profile (local, pod, p, 0, labels);
        }
    }
  {
    g_autoptr(EmbersProfile) p = embers_test_cpu_profile (now_ms - 10 * 60000, "regexp/syntax.(*compiler).compile", 5);
    const char *labels[] = { "service_name", "web", "region", "eu", NULL };

    embers_local_source_add_profile (local, "web", p, 0, labels);
  }
  return EMBERS_SOURCE (local);
}

static gboolean
explore_idle (gpointer data)
{
  EmbersExplorePage *page = data;

  return !embers_explore_page_get_loading (page) &&
         !embers_profile_page_get_busy (embers_explore_page_get_profile_page (page));
}

static gboolean
workspace_idle (gpointer data)
{
  return !embers_workspace_get_loading (data);
}

static gboolean
rules_idle (gpointer data)
{
  return !embers_rules_page_get_loading (data);
}

static gboolean
has_services (gpointer data)
{
  return g_list_model_get_n_items (embers_explore_page_get_services (data)) > 0 && explore_idle (data);
}

static EmbersWorkspace *
workspace_of (EmbersExplorePage *page)
{
  return EMBERS_WORKSPACE (gtk_widget_get_ancestor (GTK_WIDGET (page), EMBERS_TYPE_WORKSPACE));
}

/* The view switcher's button of a view, by its label: the toggle button
 * around a label that says it */
static GtkWidget *
switcher_button (GtkWidget  *root,
                 const char *label)
{
  GtkWidget *switcher = embers_test_find_widget (root, ADW_TYPE_VIEW_SWITCHER, NULL);
  g_autoptr(GPtrArray) stack = g_ptr_array_new ();

  g_assert_nonnull (switcher);
  g_ptr_array_add (stack, switcher);
  while (stack->len > 0)
    {
      GtkWidget *w = g_ptr_array_steal_index (stack, stack->len - 1);

      if (GTK_IS_LABEL (w) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (w)), label) == 0)
        {
          GtkWidget *button = gtk_widget_get_ancestor (w, GTK_TYPE_TOGGLE_BUTTON);

          if (button != NULL)
            return button;
        }
      for (GtkWidget *c = gtk_widget_get_first_child (w); c != NULL; c = gtk_widget_get_next_sibling (c))
        g_ptr_array_add (stack, c);
    }
  return NULL;
}

/* A tab per service, named by service and type, the server in its
 * tooltip; the four jobs' views on the switcher, at 1200 × 800, with no
 * ⋮ menu needed */
static void
test_one_tab (void)
{
  g_autoptr(EmbersSource) source = make_source ();
  EmbersWindow *window = embers_window_new (NULL);
  EmbersExplorePage *explore;
  EmbersWorkspace *workspace;
  AdwTabPage *tab;
  const char *views[] = { "Flame Graph", "Labels", "Compare" };
  const char *names[] = { EMBERS_WORKSPACE_VIEW_FLAME_GRAPH, EMBERS_WORKSPACE_VIEW_LABELS,
                          EMBERS_WORKSPACE_VIEW_COMPARE };

  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 800);
  gtk_window_present (GTK_WINDOW (window));
  explore = EMBERS_EXPLORE_PAGE (embers_window_open_explore (window, source, NULL));
  workspace = workspace_of (explore);
  g_assert_nonnull (workspace);
  tab = adw_tab_view_get_selected_page (window->tab_view);
  g_assert_true (adw_tab_page_get_child (tab) == GTK_WIDGET (workspace));
  embers_test_wait_until (has_services, explore, "the services");

  /* Before a service: the source's name */
  g_assert_cmpstr (adw_tab_page_get_title (tab), ==, embers_workspace_get_tooltip (workspace));
  g_assert_true (embers_explore_page_select_service (explore, "shop"));
  embers_test_wait_until (explore_idle, explore, "the flame graph");
  g_assert_cmpstr (adw_tab_page_get_title (tab), ==, "shop · cpu");
  g_assert_cmpstr (adw_tab_page_get_tooltip (tab), ==, embers_workspace_get_tooltip (workspace));
  g_assert_cmpstr (embers_query_model_get_service (embers_workspace_get_query (workspace)), ==, "shop");
  g_assert_cmpstr (embers_query_model_get_profile_type (embers_workspace_get_query (workspace)), ==, CPU_TYPE);

  /* Each view's button is on screen, and shows its view */
  embers_test_wait_frame (GTK_WIDGET (window));
  for (guint i = G_N_ELEMENTS (views); i-- > 0;)
    {
      GtkWidget *button = switcher_button (GTK_WIDGET (window), views[i]);
      graphene_rect_t bounds;

      g_assert_nonnull (button);
      g_assert_true (gtk_widget_get_mapped (button));
      bounds = embers_test_bounds (button, GTK_WIDGET (window));
      g_assert_cmpfloat (bounds.size.width, >, 40);
      g_assert_cmpfloat (bounds.origin.x + bounds.size.width, <=, 1200);
      /* A click shows its view */
      g_signal_emit_by_name (button, "clicked");
      g_assert_cmpstr (embers_workspace_get_view (workspace), ==, names[i]);
      g_assert_true (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (button)));
    }
  /* A local source keeps no recording rules: no such view */
  g_assert_null (switcher_button (GTK_WIDGET (window), "Recording Rules"));
  g_assert_false (embers_workspace_show_view (workspace, EMBERS_WORKSPACE_VIEW_RULES));
  g_assert_cmpuint (embers_window_get_n_pages (window), ==, 1);

  gtk_window_destroy (GTK_WINDOW (window));
}

/* One query for all views: a filter added in one is in the others, and
 * each view keeps its own state while another is shown */
static void
test_shared_query (void)
{
  g_autoptr(EmbersSource) source = make_source ();
  EmbersWindow *window = embers_window_new (NULL);
  EmbersExplorePage *explore;
  EmbersWorkspace *workspace;
  EmbersQueryModel *query;
  EmbersLabelsPage *labels;
  EmbersLabelsPage *labels_again;
  g_autoptr(GError) error = NULL;
  g_autofree char *selector = NULL;

  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 800);
  gtk_window_present (GTK_WINDOW (window));
  explore = EMBERS_EXPLORE_PAGE (embers_window_open_explore (window, source, NULL));
  workspace = workspace_of (explore);
  query = embers_workspace_get_query (workspace);
  embers_test_wait_until (has_services, explore, "the services");
  g_assert_true (embers_explore_page_select_service (explore, "shop"));
  embers_test_wait_until (explore_idle, explore, "the flame graph");

  /* Labels: of the query on screen */
  g_assert_true (embers_workspace_show_view (workspace, EMBERS_WORKSPACE_VIEW_LABELS));
  labels = embers_workspace_get_labels_page (workspace);
  g_assert_nonnull (labels);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (labels)));
  g_assert_cmpstr (embers_labels_page_get_query (labels)->label_selector, ==, "{service_name=\"shop\"}");
  embers_test_wait_until (workspace_idle, workspace, "the labels");
  g_assert_true (embers_labels_page_select_label (labels, "region"));
  embers_test_wait_until (workspace_idle, workspace, "the region's values");

  /* Switching back and forth keeps the labels page and its label */
  embers_workspace_show_view (workspace, EMBERS_WORKSPACE_VIEW_FLAME_GRAPH);
  embers_workspace_show_view (workspace, EMBERS_WORKSPACE_VIEW_LABELS);
  g_assert_true (embers_workspace_get_labels_page (workspace) == labels);
  g_assert_cmpstr (embers_labels_page_get_label (labels), ==, "region");

  /* A filter set on the query reaches the flame graph view's filter bar
   * and its query, and the labels follow */
  g_assert_true (embers_query_model_add_filter (query, "region", EMBERS_MATCH_EQUAL, "eu", &error));
  g_assert_no_error (error);
  selector = embers_explore_page_dup_selector (explore);
  g_assert_cmpstr (selector, ==, "{region=\"eu\",service_name=\"shop\"}");
  /* ... and the flame graph asked again: eu's pods 0 and 3 only
   * (4 profiles each of 100 (i + 1) + k) */
  embers_test_wait_until (explore_idle, explore, "the filtered flame graph");
  {
    EmbersFlameGraph *graph = embers_profile_page_get_flame_graph (embers_explore_page_get_profile_page (explore));

    g_assert_cmpint (embers_profile_get_total (embers_flame_graph_get_profile (graph), 0), ==, 406 + 1606);
  }
  /* the same page, its old values dimmed while the new ones load */
  labels_again = embers_workspace_get_labels_page (workspace);
  g_assert_true (labels_again == labels);
  g_assert_cmpstr (embers_labels_page_get_query (labels_again)->label_selector, ==,
                   "{service_name=\"shop\",region=\"eu\"}");
  /* the label picked carries over */
  embers_test_wait_until (workspace_idle, workspace, "the new labels");
  g_assert_cmpstr (embers_labels_page_get_label (labels_again), ==, "region");

  /* The flame graph view's own change (another service) is the model's */
  embers_workspace_show_view (workspace, EMBERS_WORKSPACE_VIEW_FLAME_GRAPH);
  g_assert_true (embers_explore_page_select_service (explore, "web"));
  embers_test_wait_until (explore_idle, explore, "web's flame graph");
  g_assert_cmpstr (embers_query_model_get_service (query), ==, "web");
  g_assert_cmpstr (adw_tab_page_get_title (adw_tab_view_get_selected_page (window->tab_view)), ==, "web · cpu");

  gtk_window_destroy (GTK_WINDOW (window));
}

/* Compare… opens the Compare view of the same tab, prefilled; the first
 * visit to Compare prefills it too; Back and Forward walk views and
 * queries */
static void
test_compare_and_history (void)
{
  g_autoptr(EmbersSource) source = make_source ();
  EmbersWindow *window = embers_window_new (NULL);
  EmbersExplorePage *explore;
  EmbersWorkspace *workspace;
  EmbersQueryModel *query;
  EmbersComparePage *compare;
  g_autoptr(EmbersQuery) current = NULL;
  g_autoptr(EmbersQuery) comparison = NULL;

  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 800);
  gtk_window_present (GTK_WINDOW (window));
  explore = EMBERS_EXPLORE_PAGE (embers_window_open_explore (window, source, NULL));
  workspace = workspace_of (explore);
  query = embers_workspace_get_query (workspace);
  embers_test_wait_until (has_services, explore, "the services");
  g_assert_false (embers_workspace_get_can_go_back (workspace));

  g_assert_true (embers_explore_page_select_service (explore, "shop"));
  embers_test_wait_until (explore_idle, explore, "the flame graph");
  g_assert_true (embers_workspace_get_can_go_back (workspace));
  current = embers_query_model_dup_query (query);

  /* Ctrl+D's action: the Compare view, this tab */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (explore), "explore.compare", NULL));
  g_assert_cmpuint (embers_window_get_n_pages (window), ==, 1);
  g_assert_cmpstr (embers_workspace_get_view (workspace), ==, EMBERS_WORKSPACE_VIEW_COMPARE);
  compare = embers_workspace_get_compare_page (workspace);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (compare)));
  comparison = embers_compare_page_dup_query (compare, TRUE);
  g_assert_cmpstr (comparison->label_selector, ==, current->label_selector);
  /* Its profile type reads as the flame graph view's does, not as an id */
  {
    GtkDropDown *types = embers_compare_page_get_type_dropdown (compare, TRUE);
    g_auto(GValue) shown = G_VALUE_INIT;

    g_assert_true (gtk_expression_evaluate (gtk_drop_down_get_expression (types),
                                            gtk_drop_down_get_selected_item (types), &shown));
    g_assert_cmpstr (g_value_get_string (&shown), ==, "process_cpu · cpu (nanoseconds)");
  }
  g_assert_cmpint (comparison->start_ms, ==, current->start_ms);

  /* Back: the flame graph view of shop; back again: no service yet */
  g_assert_true (embers_workspace_go_back (workspace));
  g_assert_cmpstr (embers_workspace_get_view (workspace), ==, EMBERS_WORKSPACE_VIEW_FLAME_GRAPH);
  g_assert_cmpstr (embers_query_model_get_service (query), ==, "shop");
  g_assert_true (embers_workspace_get_can_go_forward (workspace));
  /* Forward: Compare again, its sides as they were */
  g_assert_true (embers_workspace_go_forward (workspace));
  g_assert_cmpstr (embers_workspace_get_view (workspace), ==, EMBERS_WORKSPACE_VIEW_COMPARE);
  g_assert_false (embers_workspace_get_can_go_forward (workspace));
  {
    g_autoptr(EmbersQuery) again = embers_compare_page_dup_query (compare, TRUE);

    g_assert_cmpstr (again->label_selector, ==, comparison->label_selector);
  }

  /* A query changed in one step is one step back */
  embers_workspace_show_view (workspace, EMBERS_WORKSPACE_VIEW_FLAME_GRAPH);
  g_assert_true (embers_explore_page_select_service (explore, "web"));
  embers_test_wait_until (explore_idle, explore, "web's flame graph");
  g_assert_true (embers_workspace_go_back (workspace));
  g_assert_cmpstr (embers_query_model_get_service (query), ==, "shop");
  embers_test_wait_until (explore_idle, explore, "shop's flame graph again");
  g_assert_cmpstr (embers_explore_page_get_service (explore), ==, "shop");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (workspace), "workspace.forward", NULL));
  g_assert_cmpstr (embers_query_model_get_service (query), ==, "web");

  gtk_window_destroy (GTK_WINDOW (window));
}

/* A Pyroscope server: the Recording Rules view, named with the server in
 * the bar; Show Recording Rules opens it in the same tab */
static void
test_rules_view (void)
{
  const char *args[] = { "--recording-rules", NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersTestServer) server = embers_test_server_start (args, &error);
  g_autoptr(EmbersConnectClient) client = NULL;
  g_autoptr(EmbersPyroscopeSource) source = NULL;
  EmbersWindow *window = embers_window_new (NULL);
  EmbersExplorePage *explore;
  EmbersWorkspace *workspace;
  EmbersRulesPage *rules;

  g_assert_no_error (error);
  client = embers_connect_client_new (embers_test_server_get_url (server), &error);
  g_assert_no_error (error);
  source = embers_pyroscope_source_new (client);

  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 800);
  gtk_window_present (GTK_WINDOW (window));
  explore = EMBERS_EXPLORE_PAGE (embers_window_open_explore (window, EMBERS_SOURCE (source), NULL));
  workspace = workspace_of (explore);
  embers_test_wait_until (has_services, explore, "the services");
  embers_test_wait_frame (GTK_WIDGET (window));
  g_assert_nonnull (switcher_button (GTK_WIDGET (window), "Recording Rules"));
  g_assert_true (gtk_widget_get_mapped (switcher_button (GTK_WIDGET (window), "Recording Rules")));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (explore), "explore.show-rules", NULL));
  g_assert_cmpstr (embers_workspace_get_view (workspace), ==, EMBERS_WORKSPACE_VIEW_RULES);
  rules = embers_workspace_get_rules_page (workspace);
  g_assert_nonnull (rules);
  embers_test_wait_until (rules_idle, rules, "the rules");
  g_assert_nonnull (embers_rules_page_get_rules (rules));
  g_assert_cmpuint (embers_window_get_n_pages (window), ==, 1);
  g_assert_nonnull (strstr (embers_workspace_get_tooltip (workspace), "127.0.0.1"));

  /* The "rule created" toast's Show: the window's action shows this
   * tab's Recording Rules view */
  embers_workspace_show_view (workspace, EMBERS_WORKSPACE_VIEW_FLAME_GRAPH);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-rules", NULL));
  g_assert_cmpstr (embers_workspace_get_view (workspace), ==, EMBERS_WORKSPACE_VIEW_RULES);

  gtk_window_destroy (GTK_WINDOW (window));
}

/* A folder with no profiles: a toast, and no tab left behind */
static void
test_failed_open (void)
{
  g_autofree char *dir = g_dir_make_tmp ("embers-empty-XXXXXX", NULL);
  g_autofree char *junk = g_build_filename (dir, "notes.txt", NULL);
  g_autoptr(GFile) folder = g_file_new_for_path (dir);
  EmbersWindow *window = embers_window_new (NULL);

  g_assert_true (g_file_set_contents (junk, "not a profile\n", -1, NULL));
  gtk_window_present (GTK_WINDOW (window));
  embers_window_open_folder (window, folder);
  embers_test_wait_property (window->tab_view, "n-pages", 0);
  g_assert_cmpuint (embers_window_get_n_pages (window), ==, 0);

  gtk_window_destroy (GTK_WINDOW (window));
  g_unlink (junk);
  g_rmdir (dir);
}

int
main (int    argc,
      char **argv)
{
  embers_test_gtk_init (&argc, &argv);

  g_test_add_func ("/embers/workspace/one-tab", test_one_tab);
  g_test_add_func ("/embers/workspace/shared-query", test_shared_query);
  g_test_add_func ("/embers/workspace/compare-and-history", test_compare_and_history);
  g_test_add_func ("/embers/workspace/rules-view", test_rules_view);
  g_test_add_func ("/embers/workspace/failed-open", test_failed_open);

  return g_test_run ();
}
