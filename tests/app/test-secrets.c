/* test-secrets.c: a password typed into a URL is never on screen (issue 15,
 * failure 10): the tab's tooltip, the window title, the page's error, the
 * connect dialog's address field
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <adwaita.h>

#include "embers-connect-dialog.h"
#include "embers-window.h"
#include "embers-test-gtk-utils.h"

#define CPU "process_cpu:cpu:nanoseconds:cpu:nanoseconds"

static GtkWidget *
find_type (GtkWidget *widget,
           GType      type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_type (child, type);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* A port nobody listens on: bound, then closed */
static guint16
free_port (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) any = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GSocket) socket = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM,
                                            G_SOCKET_PROTOCOL_TCP, &error);
  g_autoptr(GSocketAddress) bound = NULL;
  guint16 port;

  g_assert_no_error (error);
  g_socket_bind (socket, any, FALSE, &error);
  g_assert_no_error (error);
  bound = g_socket_get_local_address (socket, &error);
  g_assert_no_error (error);
  port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
  g_socket_close (socket, NULL);
  return port;
}

static void
test_query_url_tab (void)
{
  g_autofree char *url = g_strdup_printf ("http://user:hunter2@127.0.0.1:%u/?query=" CPU, free_port ());
  g_autoptr(GFile) file = g_file_new_for_uri (url);
  EmbersWindow *window = embers_window_new (NULL);
  EmbersProfilePage *page;
  AdwTabView *view;
  AdwTabPage *tab;
  const char *tooltip;

  page = embers_window_open_file (window, file);
  view = ADW_TAB_VIEW (find_type (GTK_WIDGET (window), ADW_TYPE_TAB_VIEW));
  tab = adw_tab_view_get_page (view, GTK_WIDGET (page));
  tooltip = adw_tab_page_get_tooltip (tab);
  g_test_message ("tooltip: %s", tooltip);
  g_assert_null (strstr (tooltip, "hunter2"));
  g_assert_nonnull (strstr (tooltip, "user:***@127.0.0.1"));

  /* Nobody listens: the page fails, and neither its error nor the title
   * holds the password */
  embers_test_wait_while (embers_profile_page_get_state (page) == EMBERS_PAGE_STATE_LOADING);
  g_assert_cmpuint (embers_profile_page_get_state (page), ==, EMBERS_PAGE_STATE_FAILED);
  g_test_message ("error: %s", embers_profile_page_get_error (page));
  g_assert_null (strstr (embers_profile_page_get_error (page), "hunter2"));
  g_assert_null (strstr (gtk_window_get_title (GTK_WINDOW (window)), "hunter2"));
  g_assert_null (strstr (adw_tab_page_get_title (tab), "hunter2"));

  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_comparison_tab (void)
{
  g_autoptr(GFile) base = g_file_new_for_uri ("http://user:hunter2@127.0.0.1:1/?query=" CPU "&from=now-2h&until=now-1h");
  g_autoptr(GFile) comp = g_file_new_for_uri ("http://user:hunter2@127.0.0.1:1/?query=" CPU);
  EmbersWindow *window = embers_window_new (NULL);
  GtkWidget *page;
  AdwTabView *view;
  const char *tooltip;

  page = embers_window_open_comparison (window, base, comp);
  view = ADW_TAB_VIEW (find_type (GTK_WIDGET (window), ADW_TYPE_TAB_VIEW));
  tooltip = adw_tab_page_get_tooltip (adw_tab_view_get_page (view, page));
  g_test_message ("tooltip: %s", tooltip);
  g_assert_null (strstr (tooltip, "hunter2"));
  g_assert_nonnull (strstr (tooltip, "user:***@"));
  g_assert_null (strstr (gtk_window_get_title (GTK_WINDOW (window)), "hunter2"));

  gtk_window_destroy (GTK_WINDOW (window));
}

/* embers --server http://user:password@host: the password goes to the
 * hidden password field, the address field shows the server */
static void
test_connect_dialog_url (void)
{
  EmbersWindow *window = embers_window_new (NULL);
  EmbersConnectDialog *dialog = embers_connect_dialog_new ();
  g_autoptr(EmbersCredentials) credentials = NULL;

  adw_dialog_present (ADW_DIALOG (dialog), GTK_WIDGET (window));
  embers_connect_dialog_set_url (dialog, "http://admin:hunter2@localhost:4040/pyroscope");
  g_assert_cmpstr (embers_connect_dialog_get_url (dialog), ==, "http://localhost:4040/pyroscope");
  g_assert_true (embers_connect_dialog_get_url_valid (dialog));
  credentials = embers_connect_dialog_dup_credentials (dialog);
  g_assert_cmpint (credentials->kind, ==, EMBERS_AUTH_BASIC);
  g_assert_cmpstr (credentials->user, ==, "admin");
  g_assert_cmpstr (credentials->secret, ==, "hunter2");

  /* An address without credentials stays as it is */
  embers_connect_dialog_set_url (dialog, "https://profiles.example.com");
  g_assert_cmpstr (embers_connect_dialog_get_url (dialog), ==, "https://profiles.example.com");

  adw_dialog_force_close (ADW_DIALOG (dialog));
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  embers_test_gtk_init (&argc, &argv);

  g_test_add_func ("/embers/secrets/query-url-tab", test_query_url_tab);
  g_test_add_func ("/embers/secrets/comparison-tab", test_comparison_tab);
  g_test_add_func ("/embers/secrets/connect-dialog-url", test_connect_dialog_url);

  return g_test_run ();
}
