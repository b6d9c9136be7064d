/* test-spans.c: traces to profiles from the connect dialog (under Xvfb)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Go CPU profile with OpenTelemetry span labels (tests/fixtures/spans,
 * as tests/test-span-profiles.c uses it) is ingested into the test server,
 * which keeps span_id and trace_id with each sample as Pyroscope does.
 * The connect dialog with a span id opens the explore tab and, next to
 * it, the profile of that span: the API handler's frames, not the static
 * files'. A trace id opens the trace's; an id that is neither is refused
 * before connecting, in the dialog.
 */

#include "config.h"

#include <string.h>
#include <libsoup/soup.h>

#include "embers-connect-dialog.h"
#include "embers-profile-page.h"
#include "embers-test-gtk-utils.h"
#include "embers-test-server-spawn.h"
#include "embers-window.h"

#define SPAN_API "9a517183f26a089d"
#define TRACE_API "7c9e66797425440de944be07fc1f90ae"

static EmbersTestServer *server;

static void
ingest (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fixtures", "spans", "cpu-spans.pb.gz", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(SoupSession) session = soup_session_new ();
  g_autoptr(SoupMessage) msg = NULL;
  g_autoptr(GBytes) answer = NULL;
  g_autofree char *url = NULL;
  char *data = NULL;
  gsize len = 0;

  g_file_get_contents (path, &data, &len, &error);
  g_assert_no_error (error);
  url = g_strdup_printf ("%singest?name=spans-app&format=pprof&from=%" G_GINT64_FORMAT,
                         embers_test_server_get_url (server), g_get_real_time () / G_USEC_PER_SEC - 60);
  msg = soup_message_new ("POST", url);
  soup_message_set_request_body_from_bytes (msg, "application/octet-stream", g_bytes_new_take (data, len));
  answer = soup_session_send_and_read (session, msg, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (soup_message_get_status (msg), ==, 200);
}

typedef struct
{
  EmbersWindow *window;
  const char   *title;
} Want;

static gboolean
span_tab_ready (gpointer data)
{
  Want *want = data;
  EmbersProfilePage *page = embers_window_get_current_page (want->window);

  return page != NULL && g_strcmp0 (embers_profile_page_get_title (page), want->title) == 0 &&
         embers_profile_page_get_state (page) == EMBERS_PAGE_STATE_READY && !embers_profile_page_get_busy (page);
}

static gboolean
has_name (EmbersProfile *profile,
          const char    *name)
{
  for (guint32 i = 0; i < embers_profile_get_n_nodes (profile); i++)
    if (g_str_equal (embers_profile_node_name_str (profile, i), name))
      return TRUE;
  return FALSE;
}

static void
open_id (const char *id,
         const char *title)
{
  EmbersWindow *window = embers_window_new (NULL);
  EmbersConnectDialog *dialog;
  EmbersProfilePage *page;
  EmbersProfile *profile;
  Want want = { window, title };

  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 800);
  gtk_window_present (GTK_WINDOW (window));
  dialog = embers_window_connect (window, NULL);
  embers_connect_dialog_set_url (dialog, embers_test_server_get_url (server));
  embers_connect_dialog_set_span_id (dialog, id);
  g_assert_cmpstr (embers_connect_dialog_get_span_id (dialog), ==, id);
  embers_connect_dialog_connect (dialog);
  embers_test_wait_until (span_tab_ready, &want, title);

  page = embers_window_get_current_page (window);
  profile = embers_profile_page_get_profile (page);
  g_assert_true (has_name (profile, "main.handleAPI"));
  g_assert_false (has_name (profile, "main.serveStatic"));
  /* The explore tab as well */
  g_assert_cmpuint (embers_window_get_n_pages (window), ==, 2);
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_span (void)
{
  open_id (SPAN_API, "Span " SPAN_API);
}

static void
test_trace (void)
{
  open_id (TRACE_API, "Trace " TRACE_API);
}

static void
test_not_an_id (void)
{
  EmbersWindow *window = embers_window_new (NULL);
  EmbersConnectDialog *dialog;

  gtk_window_present (GTK_WINDOW (window));
  dialog = embers_window_connect (window, NULL);
  embers_connect_dialog_set_url (dialog, embers_test_server_get_url (server));
  embers_connect_dialog_set_span_id (dialog, "9a51");
  embers_connect_dialog_connect (dialog);
  /* Refused at once, in words, nothing asked */
  g_assert_false (embers_connect_dialog_get_busy (dialog));
  g_assert_nonnull (strstr (embers_connect_dialog_get_status (dialog), "is not a span id"));
  g_assert_cmpuint (embers_window_get_n_pages (window), ==, 0);
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  int status;

  embers_test_gtk_init (&argc, &argv);
  server = embers_test_server_start (NULL, &error);
  g_assert_no_error (error);
  ingest ();

  g_test_add_func ("/embers/spans/span", test_span);
  g_test_add_func ("/embers/spans/trace", test_trace);
  g_test_add_func ("/embers/spans/not-an-id", test_not_an_id);

  status = g_test_run ();
  embers_test_server_stop (server);
  return status;
}
