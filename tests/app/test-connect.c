/* test-connect.c: the window against the Pyroscope test server: connect,
 * list services, pick one, drag a range on the chart, read its flame graph
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <gtk/gtk.h>
#include <glib/gstdio.h>

#include "embers-connect-dialog.h"
#include "embers-explore-page.h"
#include "embers-profile-page.h"
#include "embers-pyroscope-source.h"
#include "embers-test-server-spawn.h"
#include "embers-compare-page.h"
#include "embers-window.h"
#include "embers-window-private.h"
#include "embers-workspace.h"
#include "embers-test-gtk-utils.h"

/* Until @done holds, then whatever that made ready to run */
#define wait_for(done, data) \
  G_STMT_START { embers_test_wait_until ((done), (data), #done); embers_test_drain (); } G_STMT_END

static gboolean
page_idle (gpointer data)
{
  EmbersExplorePage *page = data;

  return !embers_explore_page_get_loading (page) &&
         !embers_profile_page_get_busy (embers_explore_page_get_profile_page (page));
}

static gboolean
has_explore_tab (gpointer data)
{
  EmbersProfilePage *page = embers_window_get_current_page (data);

  return page != NULL && EMBERS_IS_EXPLORE_PAGE (gtk_widget_get_ancestor (GTK_WIDGET (page), EMBERS_TYPE_EXPLORE_PAGE));
}

static gboolean
drag_done (gpointer data)
{
  gpointer *args = data;

  return embers_explore_page_drag_chart (args[0], 400, 700);
}

static void
test_connect_explore (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersTestServer) server = embers_test_server_start (NULL, &error);
  EmbersWindow *window;
  EmbersExplorePage *page;
  EmbersConnectDialog *dialog;
  gint64 start, end, new_start, new_end, total_before;
  gpointer args[1];

  g_assert_no_error (error);

  window = embers_window_new (NULL);
  gtk_window_set_default_size (GTK_WINDOW (window), 1300, 850);
  gtk_window_present (GTK_WINDOW (window));

  /* The connect dialog with a URL connects right away, and the window
   * opens an explore tab for the server */
  dialog = embers_window_connect (window, embers_test_server_get_url (server));
  g_assert_true (EMBERS_IS_CONNECT_DIALOG (dialog));
  /* over the window */
  g_assert_true (adw_application_window_get_visible_dialog (ADW_APPLICATION_WINDOW (window)) == ADW_DIALOG (dialog));
  wait_for (has_explore_tab, window);
  /* and closes once connected */
  g_assert_null (adw_application_window_get_visible_dialog (ADW_APPLICATION_WINDOW (window)));

  page = EMBERS_EXPLORE_PAGE (gtk_widget_get_ancestor (GTK_WIDGET (embers_window_get_current_page (window)),
                                                       EMBERS_TYPE_EXPLORE_PAGE));
  /* A new server shows every service first; the flame graph is a view
   * away (test-services.c opens one from its card) */
  {
    EmbersWorkspace *workspace = EMBERS_WORKSPACE (gtk_widget_get_ancestor (GTK_WIDGET (page), EMBERS_TYPE_WORKSPACE));

    g_assert_cmpstr (embers_workspace_get_view (workspace), ==, EMBERS_WORKSPACE_VIEW_SERVICES);
    g_assert_true (embers_workspace_show_view (workspace, EMBERS_WORKSPACE_VIEW_FLAME_GRAPH));
  }
  wait_for (page_idle, page);
  g_assert_null (embers_explore_page_get_error (page));
  g_assert_cmpuint (g_list_model_get_n_items (embers_explore_page_get_services (page)), >=, 3);
  /* The node limit comes from the max-nodes setting (server default 8192) */
  g_assert_cmpint (embers_pyroscope_source_get_max_nodes (EMBERS_PYROSCOPE_SOURCE (embers_explore_page_get_source (page))),
                   ==, 8192);

  /* Pick a service: its chart and flame graph load from the server */
  g_assert_true (embers_explore_page_select_service (page, "api"));
  wait_for (page_idle, page);
  g_assert_null (embers_explore_page_get_error (page));
  g_assert_cmpuint (embers_explore_page_get_n_series (page), >=, 1);
  g_assert_cmpint (embers_profile_page_get_state (embers_explore_page_get_profile_page (page)), ==,
                   EMBERS_PAGE_STATE_READY);
  total_before = embers_profile_get_total (embers_profile_page_get_profile (embers_explore_page_get_profile_page (page)), 0);
  g_assert_cmpint (total_before, >, 0);

  /* Drag a range on the chart: a narrower range of whole steps, reloaded;
   * its flame graph holds exactly what the selected points count (a point
   * T holds (T - step, T], as Pyroscope's SelectSeries makes them). The
   * range ends 7 ms past a 15 s multiple, so that no step boundary falls
   * on a profile (the data has one every 15 s; Pyroscope's first point
   * also takes a profile at exactly its start) */
  end = (g_get_real_time () / 1000 / 15000) * 15000 - 60000 + 7;
  start = end - 3600 * 1000;
  embers_explore_page_set_time_range (page, start, end);
  wait_for (page_idle, page);
  g_assert_null (embers_explore_page_get_error (page));
  total_before = embers_profile_get_total (embers_profile_page_get_profile (embers_explore_page_get_profile_page (page)), 0);
  embers_explore_page_get_time_range (page, &start, &end);
  {
    g_autoptr(GPtrArray) before = g_ptr_array_ref (embers_explore_page_get_series (page));
    double selected = 0;

    args[0] = page;
    wait_for (drag_done, args);
    wait_for (page_idle, page);
    embers_explore_page_get_time_range (page, &new_start, &new_end);
    g_assert_cmpint (new_start, >, start);
    g_assert_cmpint (new_end, <, end);
    g_assert_null (embers_explore_page_get_error (page));
    for (guint i = 0; i < before->len; i++)
      {
        EmbersSeries *s = g_ptr_array_index (before, i);

        for (guint k = 0; k < s->n_points; k++)
          if (s->timestamps[k] >= new_start && s->timestamps[k] <= new_end)
            selected += s->values[k];
      }
    g_assert_cmpfloat (selected, >, 0);
    g_assert_cmpfloat (selected, ==,
                       (double) embers_profile_get_total (embers_profile_page_get_profile (embers_explore_page_get_profile_page (page)), 0));
    /* The new chart counts the same profiles */
    {
      GPtrArray *after = embers_explore_page_get_series (page);
      double sum = 0;

      for (guint i = 0; i < after->len; i++)
        {
          EmbersSeries *s = g_ptr_array_index (after, i);

          for (guint k = 0; k < s->n_points; k++)
            sum += s->values[k];
        }
      g_assert_cmpfloat (sum, ==, selected);
    }
  }
  g_assert_cmpint (embers_profile_get_total (embers_profile_page_get_profile (embers_explore_page_get_profile_page (page)), 0),
                   <, total_before);

  /* A filter narrows it further */
  g_assert_true (embers_explore_page_add_filter (page, "region", EMBERS_MATCH_EQUAL, "eu-west-1", &error));
  g_assert_no_error (error);
  wait_for (page_idle, page);
  g_assert_null (embers_explore_page_get_error (page));

  /* For screenshots: EMBERS_CONNECT_SHOT=1 keeps the window up a while */
  if (g_getenv ("EMBERS_CONNECT_SHOT") != NULL)
    {
      gint64 until = g_get_monotonic_time () + 8 * G_USEC_PER_SEC;

      embers_explore_page_remove_filter (page, "region");
      while (g_get_monotonic_time () < until)
        g_main_context_iteration (NULL, FALSE);
    }

  gtk_window_destroy (GTK_WINDOW (window));
}

static gboolean
page_settled (gpointer data)
{
  EmbersPageState state = embers_profile_page_get_state (data);

  return state == EMBERS_PAGE_STATE_READY || state == EMBERS_PAGE_STATE_FAILED;
}

/* A query URL opens like a file (command line, Open Location…) */
static void
test_open_query_url (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersTestServer) server = embers_test_server_start (NULL, &error);
  g_autofree char *url = NULL;
  g_autofree char *bad = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GFile) bad_file = NULL;
  EmbersWindow *window;
  EmbersProfilePage *page;

  g_assert_no_error (error);
  url = g_strdup_printf ("%s?query=process_cpu:cpu:nanoseconds:cpu:nanoseconds{service_name=\"api\"}&from=now-1h&until=now",
                         embers_test_server_get_url (server));
  bad = g_strdup_printf ("%s?query=process_cpu:cpu:nanoseconds:cpu:nanoseconds{service_name=}&from=now-1h&until=now",
                         embers_test_server_get_url (server));

  window = embers_window_new (NULL);
  gtk_window_present (GTK_WINDOW (window));

  file = g_file_new_for_commandline_arg (url);
  page = embers_window_open_file (window, file);
  wait_for (page_settled, page);
  g_assert_cmpint (embers_profile_page_get_state (page), ==, EMBERS_PAGE_STATE_READY);
  g_assert_cmpint (embers_profile_get_total (embers_profile_page_get_profile (page), 0), >, 0);

  /* A query the server refuses: the page says why */
  bad_file = g_file_new_for_commandline_arg (bad);
  page = embers_window_open_file (window, bad_file);
  wait_for (page_settled, page);
  g_assert_cmpint (embers_profile_page_get_state (page), ==, EMBERS_PAGE_STATE_FAILED);

  gtk_window_destroy (GTK_WINDOW (window));
}

static gboolean
page_done (gpointer data)
{
  return page_settled (data) && !embers_profile_page_get_busy (data);
}

static gboolean
file_written (gpointer data)
{
  return g_file_test (data, G_FILE_TEST_IS_REGULAR);
}

/* A server's view saved (Save View…) holds its address and query but no
 * credential, and opens again as that server's workspace with its frame
 * actions */
static void
test_save_query_view (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersTestServer) server = embers_test_server_start (NULL, &error);
  g_autofree char *dir = g_dir_make_tmp ("embers-view-XXXXXX", NULL);
  g_autofree char *view_path = g_build_filename (dir, "server.embers", NULL);
  g_autoptr(GFile) view_file = g_file_new_for_path (view_path);
  g_autofree char *url = NULL;
  g_autofree char *text = NULL;
  g_autofree char *uri = NULL;
  g_autofree char *expected_server = NULL;
  g_autoptr(GFile) file = NULL;
  const char *secrets[] = { "alice", "s3cr3t", "@" };
  EmbersWindow *window;
  EmbersProfilePage *page, *again;
  EmbersProfile *shown;
  const char *first;

  g_assert_no_error (error);
  /* The credentials in the URL are what a person may have typed */
  url = g_strdup_printf ("http://alice:s3cr3t@%s?query=process_cpu:cpu:nanoseconds:cpu:nanoseconds"
                         "{service_name=\"api\"}&from=now-1h&until=now",
                         embers_test_server_get_url (server) + strlen ("http://"));
  window = embers_window_new (NULL);
  gtk_window_present (GTK_WINDOW (window));
  file = g_file_new_for_commandline_arg (url);
  page = embers_window_open_file (window, file);
  wait_for (page_done, page);
  g_assert_cmpint (embers_profile_page_get_state (page), ==, EMBERS_PAGE_STATE_READY);

  /* One frame action: the first function merged away */
  shown = embers_flame_graph_get_profile (embers_profile_page_get_flame_graph (page));
  first = embers_profile_node_name_str (shown, 1);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "page.merge-function", "s", first));
  wait_for (page_done, page);
  g_assert_cmpuint (embers_transform_stack_get_length (embers_profile_page_get_transforms (page)), ==, 1);

  embers_window_save_view_to (window, view_file);
  wait_for (file_written, view_path);
  g_assert_true (g_file_get_contents (view_path, &text, NULL, NULL));
  for (guint i = 0; i < G_N_ELEMENTS (secrets); i++)
    if (strstr (text, secrets[i]) != NULL)
      g_error ("the view file holds “%s”:\n%s", secrets[i], text);
  /* The base URL as Embers normalises it: no trailing slash */
  expected_server = g_strdup_printf ("\"server\" : \"%.*s\"", (int)strlen (embers_test_server_get_url (server)) - 1,
                                     embers_test_server_get_url (server));
  if (strstr (text, expected_server) == NULL)
    g_error ("no %s in:\n%s", expected_server, text);
  g_assert_nonnull (strstr (text, "\"profile-type\" : \"process_cpu:cpu:nanoseconds:cpu:nanoseconds\""));
  g_assert_nonnull (strstr (text, "\"service\" : \"api\""));

  /* Opened again: the server's workspace on its Flame Graph view, the
   * same query without the credentials, the action back */
  embers_window_open_file (window, view_file);
  {
    AdwTabPage *tab;
    GtkWidget *child;
    EmbersWorkspace *workspace;
    EmbersConnectClient *client;

    embers_test_wait_for ((tab = adw_tab_view_get_selected_page (window->tab_view)) != NULL &&
                          EMBERS_IS_WORKSPACE (child = adw_tab_page_get_child (tab)));
    workspace = EMBERS_WORKSPACE (child);
    g_assert_cmpstr (embers_workspace_get_view (workspace), ==, EMBERS_WORKSPACE_VIEW_FLAME_GRAPH);
    g_assert_cmpstr (embers_query_model_get_service (embers_workspace_get_query (workspace)), ==, "api");
    client = embers_pyroscope_source_get_client (EMBERS_PYROSCOPE_SOURCE (embers_workspace_get_source (workspace)));
    uri = g_strdup (embers_connect_client_get_base_url (client));
    g_assert_null (strstr (uri, "s3cr3t"));
    again = embers_explore_page_get_profile_page (embers_workspace_get_explore_page (workspace));
    wait_for (page_idle, embers_workspace_get_explore_page (workspace));
    embers_test_wait_for (embers_profile_page_get_profile (again) != NULL);
    g_assert_true (embers_transform_stack_equal (embers_profile_page_get_transforms (again),
                                                 embers_profile_page_get_transforms (page)));
    g_assert_cmpint (embers_profile_get_total (embers_profile_page_get_profile (again), 0), ==,
                     embers_profile_get_total (embers_profile_page_get_profile (page), 0));
  }

  g_unlink (view_path);
  g_rmdir (dir);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* embers BASE COMP: one diff tab */
static void
test_open_comparison (void)
{
  g_autofree char *dir = g_dir_make_tmp ("embers-compare-XXXXXX", NULL);
  g_autofree char *base = g_build_filename (dir, "base.folded", NULL);
  g_autofree char *comp = g_build_filename (dir, "comp.folded", NULL);
  g_autoptr(GFile) fb = NULL;
  g_autoptr(GFile) fc = NULL;
  EmbersWindow *window;
  GtkWidget *compare;
  EmbersProfilePage *page;
  EmbersProfile *diff;

  g_assert_true (g_file_set_contents (base, "main;slow 10\nmain;fast 90\n", -1, NULL));
  g_assert_true (g_file_set_contents (comp, "main;slow 40\nmain;fast 90\n", -1, NULL));
  fb = g_file_new_for_path (base);
  fc = g_file_new_for_path (comp);

  window = embers_window_new (NULL);
  gtk_window_present (GTK_WINDOW (window));
  compare = embers_window_open_comparison (window, fb, fc);
  g_assert_true (EMBERS_IS_COMPARE_PAGE (compare));
  page = embers_compare_page_get_profile_page (EMBERS_COMPARE_PAGE (compare));
  g_assert_true (embers_window_get_current_page (window) == page);
  wait_for (page_settled, page);
  g_assert_cmpint (embers_profile_page_get_state (page), ==, EMBERS_PAGE_STATE_READY);
  diff = embers_profile_page_get_profile (page);
  g_assert_true (embers_profile_is_diff (diff));
  g_assert_cmpint (embers_profile_get_total (diff, 0), ==, 100);
  g_assert_cmpint (embers_profile_get_total (diff, 1), ==, 130);
  g_assert_cmpstr (embers_profile_page_get_title (page), ==, "base.folded vs comp.folded");

  gtk_window_destroy (GTK_WINDOW (window));
  g_unlink (base);
  g_unlink (comp);
  g_rmdir (dir);
}

/* A keyring that cannot save the credentials is told in the window, not
 * only logged: here there is no session bus, so no Secret Service */
static gboolean
has_keyring_toast (gpointer data)
{
  GtkWidget *toast = embers_test_find_widget (GTK_WIDGET (data), GTK_TYPE_WIDGET, "toast");
  GtkWidget *label = toast != NULL ? embers_test_find_widget (toast, GTK_TYPE_LABEL, NULL) : NULL;

  return label != NULL && strstr (gtk_label_get_text (GTK_LABEL (label)), "keyring") != NULL;
}

static void
test_keyring_fails (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersTestServer) server = embers_test_server_start (NULL, &error);
  g_autofree char *old_bus = g_strdup (g_getenv ("DBUS_SESSION_BUS_ADDRESS"));
  g_autoptr(GUri) base = NULL;
  g_autofree char *url = NULL;
  EmbersWindow *window;
  GtkWidget *toast, *label;

  g_assert_no_error (error);
  g_setenv ("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/embers-test-bus", TRUE);
  base = g_uri_parse (embers_test_server_get_url (server), G_URI_FLAGS_NONE, &error);
  g_assert_no_error (error);
  url = g_strdup_printf ("http://admin:hunter2@%s:%d", g_uri_get_host (base), g_uri_get_port (base));

  window = embers_window_new (NULL);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (EMBERS_IS_CONNECT_DIALOG (embers_window_connect (window, url)));
  wait_for (has_explore_tab, window);
  embers_test_wait_until (has_keyring_toast, window, "the keyring's toast");
  toast = embers_test_find_widget (GTK_WIDGET (window), GTK_TYPE_WIDGET, "toast");
  label = embers_test_find_widget (toast, GTK_TYPE_LABEL, NULL);
  g_test_message ("%s", gtk_label_get_text (GTK_LABEL (label)));
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (label)), "127.0.0.1"));
  /* never the password */
  g_assert_null (strstr (gtk_label_get_text (GTK_LABEL (label)), "hunter2"));

  gtk_window_destroy (GTK_WINDOW (window));
  if (old_bus != NULL)
    g_setenv ("DBUS_SESSION_BUS_ADDRESS", old_bus, TRUE);
  else
    g_unsetenv ("DBUS_SESSION_BUS_ADDRESS");
}

int
main (int   argc,
      char *argv[])
{
  embers_test_gtk_init (&argc, &argv);

  g_test_add_func ("/embers/app/keyring-fails", test_keyring_fails);
  g_test_add_func ("/embers/app/connect-explore", test_connect_explore);
  g_test_add_func ("/embers/app/open-query-url", test_open_query_url);
  g_test_add_func ("/embers/app/save-query-view", test_save_query_view);
  g_test_add_func ("/embers/app/open-comparison", test_open_comparison);

  return g_test_run ();
}
