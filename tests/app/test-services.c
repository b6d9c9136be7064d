/* test-services.c: a server tab's Services view (under Xvfb)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Against the Pyroscope test server (tests/server, its default data: api,
 * checkout, worker and example, with different profile types): every
 * service from two requests whatever their number, as Grafana's "All
 * services" asks (ListSeries over service_name and __profile_type__, then
 * SelectSeries grouped by service_name; upstream grafana/pyroscope
 * pkg/querier/querier.go SelectSeries groups by any label of group_by).
 */

#include "config.h"

#include <adwaita.h>

#include "embers-local-source.h"
#include "embers-profile-builder.h"
#include "embers-pyroscope-source.h"
#include "embers-sparkline.h"
#include "embers-status.h"
#include "embers-test-gtk-utils.h"
#include "embers-test-utils.h"
#include "embers-test-server-spawn.h"
#include "embers-window-private.h"
#include "embers-workspace.h"

#define CPU_TYPE    "process_cpu:cpu:nanoseconds:cpu:nanoseconds"
#define SERIES_PATH "/querier.v1.QuerierService/Series"
#define SELECT_PATH "/querier.v1.QuerierService/SelectSeries"

static gboolean
services_idle (gpointer data)
{
  return !embers_services_page_get_loading (data) && embers_services_page_get_n_shown (data) > 0;
}

static gboolean
services_settled (gpointer data)
{
  return !embers_services_page_get_loading (data);
}

static gboolean
explore_idle (gpointer data)
{
  EmbersExplorePage *page = data;

  return !embers_explore_page_get_loading (page) &&
         !embers_profile_page_get_busy (embers_explore_page_get_profile_page (page));
}

static gboolean
two_shown (gpointer data)
{
  return embers_services_page_get_n_shown (data) == 2;
}

static const EmbersServiceRow *
shown_named (EmbersServicesPage *page,
             const char         *name)
{
  for (guint i = 0; i < embers_services_page_get_n_shown (page); i++)
    {
      const EmbersServiceRow *row = embers_services_page_get_shown (page, i);

      if (g_str_equal (row->name, name))
        return row;
    }
  return NULL;
}

static char *
shown_names (EmbersServicesPage *page)
{
  GString *names = g_string_new (NULL);

  for (guint i = 0; i < embers_services_page_get_n_shown (page); i++)
    g_string_append_printf (names, "%s%s", i > 0 ? " " : "", embers_services_page_get_shown (page, i)->name);
  return g_string_free (names, FALSE);
}

/* The card on screen that shows @name: the grid's child whose name label
 * says it */
static GtkWidget *
card_of (EmbersServicesPage *page,
         const char         *name)
{
  GtkWidget *grid = embers_test_find_widget (GTK_WIDGET (page), GTK_TYPE_GRID_VIEW, NULL);
  g_autoptr(GPtrArray) stack = g_ptr_array_new ();

  g_ptr_array_add (stack, grid);
  while (stack->len > 0)
    {
      GtkWidget *w = g_ptr_array_steal_index (stack, stack->len - 1);

      if (GTK_IS_LABEL (w) && gtk_widget_has_css_class (w, "heading") &&
          g_strcmp0 (gtk_label_get_text (GTK_LABEL (w)), name) == 0)
        return gtk_widget_get_ancestor (w, GTK_TYPE_BOX) != NULL
               ? gtk_widget_get_parent (gtk_widget_get_parent (w)) : NULL;
      for (GtkWidget *c = gtk_widget_get_first_child (w); c != NULL; c = gtk_widget_get_next_sibling (c))
        g_ptr_array_add (stack, c);
    }
  return NULL;
}

/* Every service from the server, two requests for all of them; a chart on
 * each card; Enter on a card opens its flame graph in the same tab */
static void
test_server (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersTestServer) server = embers_test_server_start (NULL, &error);
  g_autoptr(EmbersConnectClient) client = NULL;
  g_autoptr(EmbersPyroscopeSource) source = NULL;
  g_autoptr(EmbersTestPixels) pixels = NULL;
  g_autofree char *names = NULL;
  EmbersWindow *window = embers_window_new (NULL);
  EmbersExplorePage *explore;
  EmbersWorkspace *workspace;
  EmbersServicesPage *page;
  const EmbersServiceRow *api, *checkout;
  GtkWidget *card, *chart, *item;
  graphene_rect_t bounds;

  g_assert_no_error (error);
  client = embers_connect_client_new (embers_test_server_get_url (server), &error);
  g_assert_no_error (error);
  source = embers_pyroscope_source_new (client);

  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 800);
  gtk_window_present (GTK_WINDOW (window));
  explore = EMBERS_EXPLORE_PAGE (embers_window_open_explore (window, EMBERS_SOURCE (source), NULL));
  workspace = EMBERS_WORKSPACE (gtk_widget_get_ancestor (GTK_WIDGET (explore), EMBERS_TYPE_WORKSPACE));
  page = embers_workspace_get_services_page (workspace);
  g_assert_true (embers_workspace_show_view (workspace, EMBERS_WORKSPACE_VIEW_SERVICES));
  embers_test_wait_until (services_idle, page, "the services");

  /* Every service, by name, the CPU type charted */
  names = shown_names (page);
  g_assert_cmpstr (names, ==, "api checkout example worker");
  g_assert_cmpstr (embers_services_page_get_profile_type (page), ==, CPU_TYPE);
  api = shown_named (page, "api");
  checkout = shown_named (page, "checkout");
  g_assert_true (api->has_type);
  g_assert_cmpfloat (api->total, >, 0);
  g_assert_cmpfloat (api->max, >, 0);
  g_assert_cmpfloat (checkout->total, >, 0);

  /* The window says which server, not the service behind the view */
  g_assert_nonnull (strstr (gtk_window_get_title (GTK_WINDOW (window)), "127.0.0.1"));

  /* Ctrl+F goes to the filter, as it goes to the search elsewhere */
  {
    GtkWidget *grid = embers_test_find_widget (GTK_WIDGET (page), GTK_TYPE_GRID_VIEW, NULL);
    GtkWidget *entry = embers_test_find_widget (GTK_WIDGET (page), GTK_TYPE_SEARCH_ENTRY, NULL);

    gtk_widget_grab_focus (grid);
    g_assert_false (gtk_widget_is_focus (gtk_widget_get_first_child (entry)) || gtk_widget_has_focus (entry));
    g_assert_true (embers_test_press_key (grid, GDK_KEY_f, GDK_CONTROL_MASK));
    g_assert_true (gtk_widget_is_ancestor (gtk_root_get_focus (GTK_ROOT (window)), entry));
  }

  /* Asked again: one ListSeries and one SelectSeries for all of them */
  g_free (embers_test_server_control (server, "DELETE", "embers-test/stats", NULL));
  embers_services_page_reload (page);
  g_assert_true (embers_services_page_get_loading (page));
  embers_test_wait_until (services_idle, page, "the services again");
  g_assert_cmpint (embers_test_server_stat (server, "requests", SERIES_PATH), ==, 1);
  g_assert_cmpint (embers_test_server_stat (server, "requests", SELECT_PATH), ==, 1);

  /* Another type: the services without it say so, none is dropped */
  g_assert_true (embers_services_page_set_profile_type (page, "wall:wall:nanoseconds:wall:nanoseconds"));
  embers_test_wait_until (services_idle, page, "the wall series");
  g_assert_cmpuint (embers_services_page_get_n_shown (page), ==, 4);
  g_assert_true (shown_named (page, "checkout")->has_type);
  g_assert_false (shown_named (page, "api")->has_type);
  g_assert_true (embers_services_page_set_profile_type (page, CPU_TYPE));
  embers_test_wait_until (services_idle, page, "the CPU series");

  /* What is drawn: the card's chart has bars on the card's background */
  embers_test_wait_frame (GTK_WIDGET (window));
  card = card_of (page, "api");
  g_assert_nonnull (card);
  chart = embers_test_find_widget (card, EMBERS_TYPE_SPARKLINE, NULL);
  g_assert_nonnull (chart);
  g_assert_true (gtk_widget_get_mapped (chart));
  g_assert_cmpint (gtk_widget_get_width (chart), >=, 96);
  pixels = embers_test_render_frame (GTK_WIDGET (page));
  bounds = embers_test_bounds (chart, GTK_WIDGET (page));
  embers_test_assert_not_blank (pixels, &bounds, 2, "services-chart");
  /* Bars cover part of the chart, not none and not all */
  {
    guint32 background = embers_test_pixels_dominant (pixels, &bounds);
    double share = embers_test_pixels_share (pixels, &bounds, background);

    g_assert_cmpfloat (share, <, 0.95);
    g_assert_cmpfloat (share, >, 0.2);
  }

  /* The keyboard: the card in focus, Enter opens the service's graph */
  item = gtk_widget_get_parent (card);
  g_assert_true (gtk_widget_grab_focus (item));
  g_assert_true (embers_test_press_key (item, GDK_KEY_Return, 0));
  g_assert_cmpstr (embers_workspace_get_view (workspace), ==, EMBERS_WORKSPACE_VIEW_FLAME_GRAPH);
  g_assert_cmpstr (embers_query_model_get_service (embers_workspace_get_query (workspace)), ==, "api");
  embers_test_wait_until (explore_idle, explore, "api's flame graph");
  g_assert_true (g_str_has_prefix (embers_workspace_get_title (workspace), "api"));

  gtk_window_destroy (GTK_WINDOW (window));
}

/* A server that fails: the error with Retry in place of the cards, and
 * Retry brings them back */
static void
test_error (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersTestServer) server = embers_test_server_start (NULL, &error);
  g_autoptr(EmbersConnectClient) client = NULL;
  g_autoptr(EmbersPyroscopeSource) source = NULL;
  EmbersWindow *window = embers_window_new (NULL);
  EmbersWorkspace *workspace;
  EmbersServicesPage *page;
  EmbersStatus *status;

  g_assert_no_error (error);
  client = embers_connect_client_new (embers_test_server_get_url (server), &error);
  g_assert_no_error (error);
  source = embers_pyroscope_source_new (client);
  g_free (embers_test_server_control (server, "POST", "embers-test/faults",
                                      "{\"code\":\"unavailable\",\"message\":\"store is down\"}"));

  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 800);
  gtk_window_present (GTK_WINDOW (window));
  workspace = EMBERS_WORKSPACE (gtk_widget_get_ancestor (
    embers_window_open_explore (window, EMBERS_SOURCE (source), NULL), EMBERS_TYPE_WORKSPACE));
  page = embers_workspace_get_services_page (workspace);
  embers_workspace_show_view (workspace, EMBERS_WORKSPACE_VIEW_SERVICES);
  status = EMBERS_STATUS (embers_test_find_widget (GTK_WIDGET (page), EMBERS_TYPE_STATUS, NULL));
  embers_test_wait_property (status, "state", EMBERS_STATUS_MESSAGE);
  embers_test_wait_until (services_settled, page, "the error");
  g_assert_cmpstr (embers_status_get_title (status), ==, "Could Not Load Services");
  g_assert_nonnull (strstr (embers_status_get_description (status), "store is down"));
  g_assert_true (embers_status_get_can_retry (status));
  g_assert_cmpuint (embers_services_page_get_n_shown (page), ==, 0);

  g_free (embers_test_server_control (server, "DELETE", "embers-test/faults", NULL));
  g_signal_emit_by_name (status, "retry");
  embers_test_wait_until (services_idle, page, "the services after Retry");
  g_assert_cmpint (embers_status_get_state (status), ==, EMBERS_STATUS_CONTENT);
  g_assert_cmpuint (embers_services_page_get_n_shown (page), ==, 4);

  gtk_window_destroy (GTK_WINDOW (window));
}

/* Local services: shop-2 and shop-10 (sorted as people sort), web the
 * largest, batch the smallest */
static EmbersSource *
make_local (void)
{
  EmbersLocalSource *local = embers_local_source_new ();
  gint64 now_ms = g_get_real_time () / 1000;
  const char *services[] = { "shop-10", "shop-2", "web", "batch" };
  const gint64 values[] = { 200, 300, 5000, 10 };

  for (guint s = 0; s < G_N_ELEMENTS (services); s++)
    for (int k = 0; k < 3; k++)
      {
        g_autoptr(EmbersProfile) p = embers_test_cpu_profile (now_ms - (40 - k * 10) * 60000, "work", values[s]);
        const char *labels[] = { "service_name", services[s], NULL };

        embers_local_source_add_profile (local, services[s], p, 0, labels);
      }
  return EMBERS_SOURCE (local);
}

/* Filter by text and by expression (a bad one is said, and changes
 * nothing), order by name or total, favourites first and remembered */
static void
test_filter_sort_favourites (void)
{
  g_autoptr(EmbersSource) source = make_local ();
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  g_autoptr(GVariant) saved = NULL;
  g_autofree char *by_name = NULL, *by_total = NULL, *filtered = NULL, *regex = NULL, *after_bad = NULL;
  g_autofree char *favourites = NULL, *again = NULL;
  g_autofree const char **names = NULL;
  EmbersWindow *window = embers_window_new (NULL);
  EmbersWorkspace *workspace;
  EmbersServicesPage *page, *other;
  GtkWidget *entry;

  g_settings_reset (settings, "favourite-services");
  g_settings_reset (settings, "services-sort");
  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 800);
  gtk_window_present (GTK_WINDOW (window));
  workspace = EMBERS_WORKSPACE (gtk_widget_get_ancestor (embers_window_open_explore (window, source, NULL),
                                                         EMBERS_TYPE_WORKSPACE));
  page = embers_workspace_get_services_page (workspace);
  embers_workspace_show_view (workspace, EMBERS_WORKSPACE_VIEW_SERVICES);
  embers_test_wait_until (services_idle, page, "the local services");

  by_name = shown_names (page);
  g_assert_cmpstr (by_name, ==, "batch shop-2 shop-10 web");
  embers_services_page_set_sort (page, EMBERS_SERVICE_SORT_TOTAL);
  by_total = shown_names (page);
  g_assert_cmpstr (by_total, ==, "web shop-2 shop-10 batch");
  g_assert_cmpfloat (embers_services_page_get_shown (page, 0)->total, ==, 15000);

  /* Typed into the entry, as a person does */
  entry = embers_test_find_widget (GTK_WIDGET (page), GTK_TYPE_SEARCH_ENTRY, NULL);
  gtk_editable_set_text (GTK_EDITABLE (entry), "SHOP");
  /* The entry tells after its search delay */
  embers_test_wait_until (two_shown, page, "the filter");
  filtered = shown_names (page);
  g_assert_cmpstr (filtered, ==, "shop-2 shop-10");

  embers_services_page_set_filter (page, "^(web|batch)$", TRUE);
  regex = shown_names (page);
  g_assert_cmpstr (regex, ==, "web batch");
  g_assert_false (gtk_widget_has_css_class (entry, "error"));
  embers_services_page_set_filter (page, "(web", TRUE);
  g_assert_true (gtk_widget_has_css_class (entry, "error"));
  g_assert_nonnull (gtk_widget_get_tooltip_text (entry));
  after_bad = shown_names (page);
  g_assert_cmpstr (after_bad, ==, "web batch");
  embers_services_page_set_filter (page, "", FALSE);
  g_assert_false (gtk_widget_has_css_class (entry, "error"));
  g_assert_cmpuint (embers_services_page_get_n_shown (page), ==, 4);

  /* A favourite comes first, with its star drawn filled */
  embers_services_page_set_favourite (page, "batch", TRUE);
  favourites = shown_names (page);
  g_assert_cmpstr (favourites, ==, "batch web shop-2 shop-10");
  embers_test_wait_frame (GTK_WIDGET (window));
  {
    GtkWidget *card = card_of (page, "batch");
    GtkWidget *star = embers_test_find_widget (card, GTK_TYPE_TOGGLE_BUTTON, NULL);

    g_assert_true (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (star)));
    g_assert_cmpstr (gtk_button_get_icon_name (GTK_BUTTON (star)), ==, "starred-symbolic");
    /* Unstarred by its button, then starred again by it */
    embers_test_press (star);
    g_assert_false (embers_services_page_get_shown (page, 0)->favourite);
    embers_test_wait_frame (GTK_WIDGET (window));
    star = embers_test_find_widget (card_of (page, "batch"), GTK_TYPE_TOGGLE_BUTTON, NULL);
    embers_test_press (star);
    g_assert_true (shown_named (page, "batch")->favourite);
  }

  /* Saved for local sources under "", and read by the next overview */
  saved = g_settings_get_value (settings, "favourite-services");
  g_assert_true (g_variant_lookup (saved, "", "^a&s", &names));
  g_assert_cmpuint (g_strv_length ((GStrv)names), ==, 1);
  g_assert_cmpstr (names[0], ==, "batch");
  g_assert_cmpstr (g_settings_get_string (settings, "services-sort"), ==, "total");
  other = EMBERS_SERVICES_PAGE (embers_services_page_new (embers_workspace_get_query (workspace)));
  g_object_ref_sink (other);
  embers_services_page_reload (other);
  embers_test_wait_until (services_idle, other, "a second overview");
  again = shown_names (other);
  g_assert_cmpstr (again, ==, "batch web shop-2 shop-10");
  g_object_unref (other);

  g_settings_reset (settings, "favourite-services");
  g_settings_reset (settings, "services-sort");
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A range picked in the overview is the tab's: the model follows, and
 * the overview asks again */
static void
test_range (void)
{
  g_autoptr(EmbersSource) source = make_local ();
  EmbersWindow *window = embers_window_new (NULL);
  EmbersWorkspace *workspace;
  EmbersServicesPage *page;
  EmbersQueryModel *model;
  GtkDropDown *range;

  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 800);
  gtk_window_present (GTK_WINDOW (window));
  workspace = EMBERS_WORKSPACE (gtk_widget_get_ancestor (embers_window_open_explore (window, source, NULL),
                                                         EMBERS_TYPE_WORKSPACE));
  model = embers_workspace_get_query (workspace);
  page = embers_workspace_get_services_page (workspace);
  embers_workspace_show_view (workspace, EMBERS_WORKSPACE_VIEW_SERVICES);
  embers_test_wait_until (services_idle, page, "the services");

  range = GTK_DROP_DOWN (embers_test_find_widget (GTK_WIDGET (page), GTK_TYPE_DROP_DOWN, "range_dropdown"));
  g_assert_nonnull (range);
  g_assert_cmpuint (gtk_drop_down_get_selected (range), ==, 1);   /* the last hour */
  gtk_drop_down_set_selected (range, 3);
  g_assert_cmpint (embers_query_model_get_preset (model), ==, 24 * 3600);
  g_assert_true (embers_services_page_get_loading (page));
  embers_test_wait_until (services_idle, page, "the 24 hours");
  /* Another view's range shows here too */
  embers_query_model_set_preset (model, 6 * 3600);
  g_assert_cmpuint (gtk_drop_down_get_selected (range), ==, 2);
  embers_test_wait_until (services_idle, page, "the 6 hours");

  gtk_window_destroy (GTK_WINDOW (window));
}

static void
count (guint *counter)
{
  (*counter)++;
}

static void
count_loads (EmbersServicesPage *page,
             GParamSpec         *pspec,
             guint              *loads)
{
  if (embers_services_page_get_loading (page))
    (*loads)++;
}

/* The controls and the page show one state both ways without loops
 * (no syncing flags): a setter that finds its value set does nothing,
 * and a control set by the page changes nothing when its handler runs.
 * Counted: refills of the grid, loads, the settings written, the
 * model's changes. */
static void
test_links (void)
{
  g_autoptr(EmbersSource) source = make_local ();
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  EmbersWindow *window = embers_window_new (NULL);
  EmbersWorkspace *workspace;
  EmbersServicesPage *page;
  EmbersQueryModel *model;
  GtkDropDown *range, *sort, *types;
  GtkWidget *entry, *regex;
  GListModel *shown;
  EmbersTestSignal *searched;
  guint refills = 0, loads = 0, model_changes = 0, sort_saves = 0, favourite_saves = 0;
  guint sort_notifies = 0;
  const char *type;

  g_settings_reset (settings, "favourite-services");
  g_settings_reset (settings, "services-sort");
  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 800);
  gtk_window_present (GTK_WINDOW (window));
  workspace = EMBERS_WORKSPACE (gtk_widget_get_ancestor (embers_window_open_explore (window, source, NULL),
                                                         EMBERS_TYPE_WORKSPACE));
  model = embers_workspace_get_query (workspace);
  page = embers_workspace_get_services_page (workspace);
  embers_workspace_show_view (workspace, EMBERS_WORKSPACE_VIEW_SERVICES);
  embers_test_wait_until (services_idle, page, "the services");

  range = GTK_DROP_DOWN (embers_test_find_widget (GTK_WIDGET (page), GTK_TYPE_DROP_DOWN, "range_dropdown"));
  sort = GTK_DROP_DOWN (embers_test_find_widget (GTK_WIDGET (page), GTK_TYPE_DROP_DOWN, "sort_dropdown"));
  types = GTK_DROP_DOWN (embers_test_find_widget (GTK_WIDGET (page), GTK_TYPE_DROP_DOWN, "type_dropdown"));
  entry = embers_test_find_widget (GTK_WIDGET (page), GTK_TYPE_SEARCH_ENTRY, NULL);
  regex = embers_test_find_widget (GTK_WIDGET (page), GTK_TYPE_TOGGLE_BUTTON, "regex_button");
  shown = (GListModel *)gtk_grid_view_get_model (GTK_GRID_VIEW (embers_test_find_widget (GTK_WIDGET (page), GTK_TYPE_GRID_VIEW, NULL)));
  g_assert_nonnull (range);
  g_assert_nonnull (sort);
  g_assert_nonnull (types);
  g_assert_nonnull (regex);
  g_signal_connect_swapped (shown, "items-changed", G_CALLBACK (count), &refills);
  g_signal_connect (page, "notify::loading", G_CALLBACK (count_loads), &loads);
  g_signal_connect_swapped (model, "changed", G_CALLBACK (count), &model_changes);
  g_signal_connect_swapped (settings, "changed::services-sort", G_CALLBACK (count), &sort_saves);
  g_signal_connect_swapped (settings, "changed::favourite-services", G_CALLBACK (count), &favourite_saves);
  g_signal_connect_swapped (sort, "notify::selected", G_CALLBACK (count), &sort_notifies);

  /* The drop-downs' handlers run with what the page shows: nothing */
  g_object_notify (G_OBJECT (range), "selected");
  g_object_notify (G_OBJECT (types), "selected");
  g_object_notify (G_OBJECT (sort), "selected");
  type = embers_services_page_get_profile_type (page);
  g_assert_true (embers_services_page_set_profile_type (page, type));
  embers_services_page_set_sort (page, EMBERS_SERVICE_SORT_NAME);
  embers_services_page_set_filter (page, "", FALSE);
  g_assert_cmpuint (model_changes, ==, 0);
  g_assert_cmpuint (loads, ==, 0);
  g_assert_cmpuint (refills, ==, 0);
  g_assert_cmpuint (sort_saves, ==, 0);

  /* Page to control: one refill, one save, the drop-down moved once */
  sort_notifies = 0;
  embers_services_page_set_sort (page, EMBERS_SERVICE_SORT_TOTAL);
  g_assert_cmpuint (gtk_drop_down_get_selected (sort), ==, 1);
  g_assert_cmpuint (sort_notifies, ==, 1);
  g_assert_cmpuint (refills, ==, 1);
  g_assert_cmpuint (sort_saves, ==, 1);
  /* Control to page, as a person picks: the same */
  gtk_drop_down_set_selected (sort, 0);
  g_assert_cmpuint (refills, ==, 2);
  g_assert_cmpuint (sort_saves, ==, 2);
  g_assert_cmpstr (g_settings_get_string (settings, "services-sort"), ==, "name");

  /* The filter set by the page: the entry shows it, and its (delayed)
   * search-changed finds it set */
  refills = 0;
  searched = embers_test_expect_signal (entry, "search-changed");
  embers_services_page_set_filter (page, "shop", FALSE);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (entry)), ==, "shop");
  g_assert_cmpuint (refills, ==, 1);
  g_assert_cmpuint (embers_services_page_get_n_shown (page), ==, 2);
  embers_test_wait_signal (searched);
  g_assert_cmpuint (refills, ==, 1);
  /* The regex button set by the page: its toggled finds it set */
  embers_services_page_set_filter (page, "^web$", TRUE);
  g_assert_true (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (regex)));
  g_assert_cmpuint (refills, ==, 2);
  g_assert_cmpuint (embers_services_page_get_n_shown (page), ==, 1);
  /* Typed (into the emptied entry) and toggled by a person: each once */
  embers_services_page_set_filter (page, "", TRUE);
  g_assert_cmpuint (refills, ==, 3);
  searched = embers_test_expect_signal (entry, "search-changed");
  {
    int position = 0;

    gtk_editable_insert_text (GTK_EDITABLE (entry), "^(web|batch)$", -1, &position);
  }
  embers_test_wait_signal (searched);
  g_assert_cmpuint (refills, ==, 4);
  g_assert_cmpuint (embers_services_page_get_n_shown (page), ==, 2);
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (regex), FALSE);
  g_assert_cmpuint (refills, ==, 5);
  g_assert_cmpuint (embers_services_page_get_n_shown (page), ==, 0);
  embers_services_page_set_filter (page, "", FALSE);

  /* A favourite saved once: binding the cards again sets their stars to
   * what is saved, which changes nothing */
  embers_services_page_set_favourite (page, "batch", TRUE);
  embers_test_wait_frame (GTK_WIDGET (window));
  embers_services_page_set_favourite (page, "batch", TRUE);
  g_assert_cmpuint (favourite_saves, ==, 1);
  g_assert_true (shown_named (page, "batch")->favourite);

  /* The range picked by a person: the model once, one load */
  gtk_drop_down_set_selected (range, 2);
  g_assert_cmpuint (model_changes, ==, 1);
  embers_test_wait_until (services_idle, page, "the 6 hours");
  g_assert_cmpuint (loads, ==, 1);

  g_signal_handlers_disconnect_by_data (settings, &sort_saves);
  g_signal_handlers_disconnect_by_data (settings, &favourite_saves);
  g_settings_reset (settings, "favourite-services");
  g_settings_reset (settings, "services-sort");
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int    argc,
      char **argv)
{
  embers_test_gtk_init (&argc, &argv);

  g_test_add_func ("/embers/services/server", test_server);
  g_test_add_func ("/embers/services/error", test_error);
  g_test_add_func ("/embers/services/filter-sort-favourites", test_filter_sort_favourites);
  g_test_add_func ("/embers/services/range", test_range);
  g_test_add_func ("/embers/services/links", test_links);

  return g_test_run ();
}
