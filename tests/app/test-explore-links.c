/* test-explore-links.c: the explore and labels pages' widgets and the
 * workspace's EmbersQueryModel follow each other both ways, once, without
 * syncing flags: a change of the model reaches the widgets, a change made
 * in a widget reaches the model, and neither loops back (counted in the
 * model's "changed" emissions, the widgets' notifications and the
 * requests the test server answered)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include <adwaita.h>

#include "embers-connect-client.h"
#include "embers-filter-bar.h"
#include "embers-pyroscope-source.h"
#include "embers-test-gtk-utils.h"
#include "embers-test-server-spawn.h"
#include "embers-window-private.h"
#include "embers-workspace.h"

#define CPU_TYPE "process_cpu:cpu:nanoseconds:cpu:nanoseconds"
#define ALLOC_TYPE "memory:alloc_space:bytes:space:bytes"

#define RPC_MERGE "/querier.v1.QuerierService/SelectMergeStacktraces"
#define RPC_SERIES "/querier.v1.QuerierService/SelectSeries"
#define RPC_LIST "/querier.v1.QuerierService/Series"
#define RPC_NAMES "/querier.v1.QuerierService/LabelNames"
#define RPC_VALUES "/querier.v1.QuerierService/LabelValues"

static const char * const rpcs[] = { RPC_MERGE, RPC_SERIES, RPC_LIST, RPC_NAMES, RPC_VALUES };

typedef struct
{
  EmbersTestServer *server;
  gint64            counts[G_N_ELEMENTS (rpcs)];
} Requests;

static void
requests_take (Requests *requests)
{
  for (guint i = 0; i < G_N_ELEMENTS (rpcs); i++)
    requests->counts[i] = embers_test_server_stat (requests->server, "requests", rpcs[i]);
}

/* How many more of @rpc were answered since requests_take () */
static gint64
requests_new (Requests   *requests,
              const char *rpc)
{
  for (guint i = 0; i < G_N_ELEMENTS (rpcs); i++)
    if (g_str_equal (rpcs[i], rpc))
      return embers_test_server_stat (requests->server, "requests", rpc) - requests->counts[i];
  g_assert_not_reached ();
}

/* Any filter bar under @widget asking (the explore page's, and the
 * Compare view's panes', which ask for their own suggestions) */
static gboolean
bars_loading (GtkWidget *widget)
{
  if (EMBERS_IS_FILTER_BAR (widget) && embers_filter_bar_get_loading (EMBERS_FILTER_BAR (widget)))
    return TRUE;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    if (bars_loading (child))
      return TRUE;
  return FALSE;
}

static gboolean
explore_idle (gpointer data)
{
  EmbersExplorePage *page = data;

  return !embers_explore_page_get_loading (page) &&
         !embers_profile_page_get_busy (embers_explore_page_get_profile_page (page)) &&
         !bars_loading (GTK_WIDGET (gtk_widget_get_root (GTK_WIDGET (page))));
}

static gboolean
has_services (gpointer data)
{
  return g_list_model_get_n_items (embers_explore_page_get_services (data)) > 0 && explore_idle (data);
}

static void
count_changed (gpointer  object,
               guint    *counter)
{
  (*counter)++;
}

static void
count (gpointer    object,
       GParamSpec *pspec,
       guint      *counter)
{
  (*counter)++;
}

/* The toggle button labelled @label (its mnemonic's underscore left in) */
static GtkToggleButton *
find_toggle (GtkWidget  *root,
             const char *label)
{
  if (GTK_IS_TOGGLE_BUTTON (root) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (root)), label) == 0)
    return GTK_TOGGLE_BUTTON (root);
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkToggleButton *found = find_toggle (child, label);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static const char *
selected_string (GtkDropDown *drop_down)
{
  GtkStringObject *item = gtk_drop_down_get_selected_item (drop_down);

  return item != NULL ? gtk_string_object_get_string (item) : NULL;
}

/* What a drop-down shows, each time it shows something else (its
 * selection's position may move while the item stays) */
typedef struct
{
  char  *shown;
  guint  changes;
} Shown;

static void
shown_changed (GtkDropDown *drop_down,
               GParamSpec  *pspec,
               Shown       *shown)
{
  const char *now = selected_string (drop_down);

  if (g_strcmp0 (now, shown->shown) == 0)
    return;
  g_free (shown->shown);
  shown->shown = g_strdup (now);
  shown->changes++;
}

static guint
find_string (GtkDropDown *drop_down,
             const char  *prefix)
{
  GListModel *model = gtk_drop_down_get_model (drop_down);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(GtkStringObject) item = g_list_model_get_item (model, i);

      if (g_str_has_prefix (gtk_string_object_get_string (item), prefix))
        return i;
    }
  return GTK_INVALID_LIST_POSITION;
}

static void
test_links (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersTestServer) server = embers_test_server_start (NULL, &error);
  g_autoptr(EmbersConnectClient) client = NULL;
  g_autoptr(EmbersSource) source = NULL;
  Requests requests = { 0 };
  EmbersWindow *window;
  EmbersExplorePage *explore;
  EmbersWorkspace *workspace;
  EmbersQueryModel *model;
  EmbersFilterBar *bar;
  EmbersLabelsPage *labels;
  GtkDropDown *types;
  GtkToggleButton *six_hours, *one_day, *table_button, *series_button, *show_all_button;
  GtkDropDown *views;
  guint changed = 0, view_notify = 0, show_all_notify = 0;
  Shown type_shown = { NULL, 0 };
  gint64 start = g_get_monotonic_time ();

  g_assert_no_error (error);
  requests.server = server;
  client = embers_connect_client_new (embers_test_server_get_url (server), &error);
  g_assert_no_error (error);
  source = EMBERS_SOURCE (embers_pyroscope_source_new (client));

  window = embers_window_new (NULL);
  embers_test_present_window (GTK_WINDOW (window), 1200, 800);
  explore = EMBERS_EXPLORE_PAGE (embers_window_open_explore (window, source, NULL));
  workspace = EMBERS_WORKSPACE (gtk_widget_get_ancestor (GTK_WIDGET (explore), EMBERS_TYPE_WORKSPACE));
  model = embers_workspace_get_query (workspace);
  bar = EMBERS_FILTER_BAR (embers_test_find_widget (GTK_WIDGET (explore), EMBERS_TYPE_FILTER_BAR, NULL));
  /* The toolbar's first drop-down is the profile type's */
  types = GTK_DROP_DOWN (embers_test_find_widget (GTK_WIDGET (explore), GTK_TYPE_DROP_DOWN, NULL));
  six_hours = find_toggle (GTK_WIDGET (explore), "6h");
  one_day = find_toggle (GTK_WIDGET (explore), "24h");
  g_assert_nonnull (types);
  g_assert_nonnull (six_hours);
  g_assert_nonnull (one_day);
  g_signal_connect (model, "changed", G_CALLBACK (count_changed), &changed);
  g_signal_connect (types, "notify::selected-item", G_CALLBACK (shown_changed), &type_shown);
  embers_test_wait_until (has_services, explore, "the services");

  /* A widget: the service picked in the list is the model's, in one
   * change; the page asks for the flame graph once */
  requests_take (&requests);
  changed = 0;
  g_assert_true (embers_explore_page_select_service (explore, "api"));
  embers_test_wait_until (explore_idle, explore, "api's flame graph");
  g_assert_cmpstr (embers_query_model_get_service (model), ==, "api");
  g_assert_cmpstr (embers_query_model_get_profile_type (model), ==, CPU_TYPE);
  g_assert_cmpuint (changed, ==, 1);
  g_assert_cmpint (requests_new (&requests, RPC_MERGE), ==, 1);
  g_assert_true (g_str_has_prefix (selected_string (types), "process_cpu"));
  /* The filter bar asked for api's label names once, and for the values
   * of the name it shows once */
  g_assert_cmpint (requests_new (&requests, RPC_NAMES), ==, 1);
  g_assert_cmpint (requests_new (&requests, RPC_VALUES), ==, 1);

  /* At 1200 px the toolbar is one row: the type, the presets, the filter
   * controls and Refresh side by side */
  {
    GtkWidget *entry = GTK_WIDGET (embers_filter_bar_get_value_entry (bar));
    /* below 1500 sp Refresh is the narrow box's (the rest in its menu) */
    GtkWidget *narrow = embers_test_find_widget (GTK_WIDGET (explore), GTK_TYPE_BOX, "narrow_box");
    GtkWidget *refresh = narrow != NULL ? embers_test_find_actionable (narrow, "explore.refresh") : NULL;
    graphene_rect_t a, b, c, d;

    g_assert_nonnull (refresh);
    g_assert_true (gtk_widget_is_drawable (refresh));
    a = embers_test_bounds (GTK_WIDGET (types), GTK_WIDGET (explore));
    b = embers_test_bounds (GTK_WIDGET (six_hours), GTK_WIDGET (explore));
    c = embers_test_bounds (entry, GTK_WIDGET (explore));
    d = embers_test_bounds (refresh, GTK_WIDGET (explore));
    g_test_message ("toolbar at 1200 px: type at y %g, presets %g, value %g, refresh %g",
                    a.origin.y, b.origin.y, c.origin.y, d.origin.y);
    g_assert_cmpfloat (fabs ((a.origin.y + a.size.height / 2) - (c.origin.y + c.size.height / 2)), <, 4);
    g_assert_cmpfloat (fabs ((a.origin.y + a.size.height / 2) - (b.origin.y + b.size.height / 2)), <, 4);
    g_assert_cmpfloat (fabs ((a.origin.y + a.size.height / 2) - (d.origin.y + d.size.height / 2)), <, 4);
  }

  /* The model: another type reaches the drop-down (its selection moves
   * once) and the page asks once, the list of services not again */
  requests_take (&requests);
  changed = type_shown.changes = 0;
  embers_query_model_set_profile_type (model, ALLOC_TYPE);
  embers_test_wait_until (explore_idle, explore, "alloc_space's flame graph");
  g_assert_true (g_str_has_prefix (selected_string (types), "memory"));
  g_test_message ("a type from the model: %u changes, the drop-down showed %u types, %" G_GINT64_FORMAT
                  " merges", changed, type_shown.changes, requests_new (&requests, RPC_MERGE));
  /* the drop-down went straight to the new type */
  g_assert_cmpuint (changed, ==, 1);
  g_assert_cmpuint (type_shown.changes, ==, 1);
  g_assert_cmpint (requests_new (&requests, RPC_MERGE), ==, 1);
  g_assert_cmpint (requests_new (&requests, RPC_LIST), ==, 0);

  /* A widget: the drop-down's pick is the model's, once */
  requests_take (&requests);
  changed = type_shown.changes = 0;
  gtk_drop_down_set_selected (types, find_string (types, "process_cpu"));
  embers_test_wait_until (explore_idle, explore, "cpu's flame graph again");
  g_assert_cmpstr (embers_query_model_get_profile_type (model), ==, CPU_TYPE);
  g_assert_cmpuint (changed, ==, 1);
  g_assert_cmpuint (type_shown.changes, ==, 1);
  g_assert_cmpint (requests_new (&requests, RPC_MERGE), ==, 1);

  /* The model: a preset reaches the buttons; a button's preset is the
   * model's; each once */
  requests_take (&requests);
  changed = 0;
  embers_query_model_set_preset (model, 6 * 60 * 60);
  embers_test_wait_until (explore_idle, explore, "the last 6 hours");
  g_assert_true (gtk_toggle_button_get_active (six_hours));
  g_assert_false (gtk_toggle_button_get_active (one_day));
  g_assert_cmpuint (changed, ==, 1);
  g_assert_cmpint (requests_new (&requests, RPC_MERGE), ==, 1);
  g_assert_cmpint (requests_new (&requests, RPC_LIST), ==, 1);

  requests_take (&requests);
  changed = 0;
  gtk_toggle_button_set_active (one_day, TRUE);
  embers_test_wait_until (explore_idle, explore, "the last day");
  g_assert_cmpint (embers_query_model_get_preset (model), ==, 24 * 60 * 60);
  g_assert_false (gtk_toggle_button_get_active (six_hours));
  g_assert_cmpuint (changed, ==, 1);
  g_assert_cmpint (requests_new (&requests, RPC_MERGE), ==, 1);
  g_assert_cmpint (requests_new (&requests, RPC_LIST), ==, 1);

  /* The model: a filter reaches the filter bar; the bar's is the model's */
  requests_take (&requests);
  changed = 0;
  g_assert_true (embers_query_model_add_filter (model, "region", EMBERS_MATCH_EQUAL, "eu-west-1", &error));
  g_assert_no_error (error);
  embers_test_wait_until (explore_idle, explore, "the filtered flame graph");
  {
    g_autofree char *shown = embers_selector_to_string (embers_filter_bar_get_filters (bar));

    g_assert_cmpstr (shown, ==, "{region=\"eu-west-1\"}");
  }
  g_assert_cmpuint (changed, ==, 1);
  g_assert_cmpint (requests_new (&requests, RPC_MERGE), ==, 1);

  requests_take (&requests);
  changed = 0;
  g_assert_true (embers_filter_bar_add_filter (bar, "pod", EMBERS_MATCH_EQUAL, "api-7d9f8-0", &error));
  g_assert_no_error (error);
  embers_test_wait_until (explore_idle, explore, "the flame graph of one pod");
  {
    g_autofree char *selector = embers_query_model_dup_selector (model);

    g_assert_nonnull (strstr (selector, "pod=\"api-7d9f8-0\""));
    g_assert_nonnull (strstr (selector, "region=\"eu-west-1\""));
  }
  g_assert_cmpuint (changed, ==, 1);
  g_assert_cmpint (requests_new (&requests, RPC_MERGE), ==, 1);

  /* The labels view: its view, Show All and Same Scale are properties the
   * toolbar's buttons, list and check follow and set, once each, asking
   * the server nothing */
  g_assert_true (embers_workspace_show_view (workspace, EMBERS_WORKSPACE_VIEW_LABELS));
  labels = embers_workspace_get_labels_page (workspace);
  g_assert_nonnull (labels);
  embers_test_wait_while (embers_workspace_get_loading (workspace));
  table_button = find_toggle (GTK_WIDGET (labels), "T_able");
  series_button = find_toggle (GTK_WIDGET (labels), "_Series");
  show_all_button = find_toggle (GTK_WIDGET (labels), "Show A_ll");
  views = GTK_DROP_DOWN (embers_test_find_widget (GTK_WIDGET (labels), GTK_TYPE_DROP_DOWN, "view_dropdown"));
  g_assert_nonnull (table_button);
  g_assert_nonnull (series_button);
  g_assert_nonnull (show_all_button);
  g_assert_nonnull (views);
  g_signal_connect (labels, "notify::view", G_CALLBACK (count), &view_notify);
  g_signal_connect (labels, "notify::show-all", G_CALLBACK (count), &show_all_notify);
  requests_take (&requests);

  embers_labels_page_set_view (labels, EMBERS_LABELS_VIEW_TABLE);
  g_assert_true (gtk_toggle_button_get_active (table_button));
  g_assert_false (gtk_toggle_button_get_active (series_button));
  g_assert_cmpuint (gtk_drop_down_get_selected (views), ==, EMBERS_LABELS_VIEW_TABLE);
  g_assert_cmpuint (view_notify, ==, 1);
  gtk_toggle_button_set_active (series_button, TRUE);
  g_assert_cmpuint (embers_labels_page_get_view (labels), ==, EMBERS_LABELS_VIEW_SERIES);
  g_assert_false (gtk_toggle_button_get_active (table_button));
  g_assert_cmpuint (gtk_drop_down_get_selected (views), ==, EMBERS_LABELS_VIEW_SERIES);
  g_assert_cmpuint (view_notify, ==, 2);
  gtk_drop_down_set_selected (views, EMBERS_LABELS_VIEW_HISTOGRAM);
  g_assert_cmpuint (embers_labels_page_get_view (labels), ==, EMBERS_LABELS_VIEW_HISTOGRAM);
  g_assert_false (gtk_toggle_button_get_active (series_button));
  g_assert_cmpuint (view_notify, ==, 3);
  /* the same view again: nothing */
  embers_labels_page_set_view (labels, EMBERS_LABELS_VIEW_HISTOGRAM);
  g_assert_cmpuint (view_notify, ==, 3);

  gtk_toggle_button_set_active (show_all_button, TRUE);
  g_assert_true (embers_labels_page_get_show_all (labels));
  g_assert_cmpuint (show_all_notify, ==, 1);
  embers_labels_page_set_show_all (labels, FALSE);
  g_assert_false (gtk_toggle_button_get_active (show_all_button));
  g_assert_cmpuint (show_all_notify, ==, 2);

  embers_labels_page_set_same_scale (labels, FALSE);
  g_assert_false (gtk_check_button_get_active (GTK_CHECK_BUTTON (embers_test_find_widget (GTK_WIDGET (labels),
                                                                                          GTK_TYPE_CHECK_BUTTON,
                                                                                          "same_scale_check"))));
  for (guint i = 0; i < G_N_ELEMENTS (rpcs); i++)
    g_assert_cmpint (requests_new (&requests, rpcs[i]), ==, 0);

  /* Marks made while the cards show are in the table's Mark column once
   * the table shows (its rows are bound again) */
  g_assert_true (embers_labels_page_select_label (labels, "span_name"));
  embers_test_wait_while (embers_workspace_get_loading (workspace) ||
                          embers_labels_page_get_stats (labels) == NULL);
  embers_labels_page_set_view (labels, EMBERS_LABELS_VIEW_SERIES);
  embers_labels_page_mark_baseline (labels, "GET /users");
  embers_labels_page_mark_comparison (labels, "POST /orders");
  embers_labels_page_set_view (labels, EMBERS_LABELS_VIEW_TABLE);
  embers_test_wait_frame (GTK_WIDGET (labels));
  {
    GtkWidget *table = GTK_WIDGET (embers_labels_page_get_table (labels));

    embers_test_wait_while (embers_test_count_shown_text (table, "Baseline") == 0 ||
                            embers_test_count_shown_text (table, "Comparison") == 0);
    g_assert_cmpuint (embers_test_count_shown_text (table, "Baseline"), ==, 1);
    g_assert_cmpuint (embers_test_count_shown_text (table, "Comparison"), ==, 1);
  }

  g_test_message ("%.1f s", (g_get_monotonic_time () - start) / 1e6);
  g_free (type_shown.shown);
  embers_test_destroy_window (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  embers_test_gtk_init (&argc, &argv);

  g_test_add_func ("/embers/explore-links/both-ways", test_links);

  return g_test_run ();
}
