/* test-server-errors.c: the connect dialog against servers that are slow
 * or hostile: each ends in a clear error within a bounded time, and the
 * timeout is the user's
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <adwaita.h>

#include "embers-connect-dialog.h"
#include "embers-connect-client.h"
#include "embers-test-server-spawn.h"
#include "embers-test-gtk-utils.h"

#define wait_for(done, data) embers_test_wait_until ((done), (data), #done)

static gboolean
dialog_idle (gpointer data)
{
  return !embers_connect_dialog_get_busy (data) &&
         embers_connect_dialog_get_status (data)[0] != '\0';
}

/* The connect dialog over a window of its own, as a person sees it */
static EmbersConnectDialog *
present_dialog (void)
{
  GtkWidget *window = adw_window_new ();
  EmbersConnectDialog *dialog = embers_connect_dialog_new ();

  gtk_window_set_default_size (GTK_WINDOW (window), 800, 700);
  gtk_window_present (GTK_WINDOW (window));
  adw_dialog_present (ADW_DIALOG (dialog), window);
  return dialog;
}

/* Closes it and its window */
static void
close_dialog (EmbersConnectDialog *dialog)
{
  GtkRoot *window = gtk_widget_get_root (GTK_WIDGET (dialog));

  adw_dialog_force_close (ADW_DIALOG (dialog));
  if (window != NULL)
    gtk_window_destroy (GTK_WINDOW (window));
}

typedef struct
{
  GSettings  *settings;
  const char *key;
  guint      *saved;
} SavedWait;

static gboolean
timeout_saved (gpointer data)
{
  SavedWait *wait = data;
  g_autoptr(GVariant) timeouts = g_settings_get_value (wait->settings, "server-timeouts");

  return g_variant_lookup (timeouts, wait->key, "u", wait->saved);
}

/* The timeout is the user's: a row in the dialog, used for the server's
 * requests, named in the message when it runs out, and saved with the
 * server on connecting */
static void
test_connect_timeout (void)
{
  /* A proxy that answers after 10 minutes (a 502 page: no Connect
   * deadline), long after any timeout here */
  const char *slow_args[] = { "--fault-delay-ms", "600000", "--fault-http", "502", NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersTestServer) slow = embers_test_server_start (slow_args, &error);
  g_autoptr(EmbersTestServer) good = NULL;
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  EmbersConnectDialog *dialog;
  GtkWindow *window;
  gint64 t0;
  double waited;
  guint saved = 0;

  g_assert_no_error (error);
  good = embers_test_server_start (NULL, &error);
  g_assert_no_error (error);

  dialog = present_dialog ();
  g_assert_cmpuint (embers_connect_dialog_get_timeout (dialog), ==, 60);
  embers_connect_dialog_set_url (dialog, embers_test_server_get_url (slow));
  embers_connect_dialog_set_timeout (dialog, 1);
  t0 = g_get_monotonic_time ();
  embers_connect_dialog_test_connection (dialog);
  wait_for (dialog_idle, dialog);
  waited = (g_get_monotonic_time () - t0) / 1e6;
  g_test_message ("timeout 1 s: the dialog said why after %.2f s: %s", waited,
                  embers_connect_dialog_get_status (dialog));
  g_assert_nonnull (strstr (embers_connect_dialog_get_status (dialog), "deadline exceeded"));
  g_assert_nonnull (strstr (embers_connect_dialog_get_status (dialog), "Timeout in Connect to Server"));
  /* The user's timeout, not the default 60 s: the message names it (the
   * time it took is a figure above, not checked: a busy machine may take
   * longer to say so) */
  g_assert_nonnull (strstr (embers_connect_dialog_get_status (dialog), "within 1 s"));

  /* Saved with the server it connected to, restored with its URL */
  embers_connect_dialog_set_url (dialog, embers_test_server_get_url (good));
  embers_connect_dialog_set_timeout (dialog, 7);
  window = GTK_WINDOW (gtk_widget_get_root (GTK_WIDGET (dialog)));
  embers_connect_dialog_connect (dialog);
  {
    g_autofree char *key = embers_connect_normalize_base_url (embers_test_server_get_url (good), NULL);
    SavedWait wait = { settings, key, &saved };

    embers_test_wait_until (timeout_saved, &wait, "the timeout saved with the server");
    g_assert_cmpuint (saved, ==, 7);
  }
  /* (connected, it closed itself) */
  gtk_window_destroy (window);
  dialog = g_object_ref_sink (embers_connect_dialog_new ());
  embers_connect_dialog_set_url (dialog, embers_test_server_get_url (good));
  g_assert_cmpuint (embers_connect_dialog_get_timeout (dialog), ==, 7);
  embers_connect_dialog_set_url (dialog, embers_test_server_get_url (slow));
  g_assert_cmpuint (embers_connect_dialog_get_timeout (dialog), ==, 60);
  g_object_unref (dialog);
}


typedef struct
{
  const char *mode;
  const char *words[3];   /* any of them, in lower case */
} Hostile;

static const Hostile hostile_modes[] = {
  { "deep-json", { "nested more than 128 levels deep", NULL } },
  { "chunked-cut", { "closed before the whole answer arrived", "cut short", NULL } },
  { "empty-200", { "not a pyroscope answer", NULL } },
  { "no-content", { "answered 204 with no body", NULL } },
  { "foreign-json", { "not a pyroscope answer", "answered something", NULL } },
  { "slowloris", { "deadline exceeded", NULL } },
  { "endless", { "larger than", "deadline exceeded", NULL } },
  { "length-lie", { "cut short", "closed before the whole answer arrived", NULL } },
  { "gzip-bomb", { "does not begin like a pyroscope answer", NULL } },
  { "redirect-loop", { "redirects the request", NULL } },
};

static EmbersTestServer *hostile;

/* Test Connection on a hostile server: a clear error, in bounded time, and
 * the dialog ready for the next try */
static void
test_hostile (gconstpointer data)
{
  const Hostile *h = data;
  g_autofree char *url = g_strconcat (embers_test_server_get_url (hostile), h->mode, NULL);
  EmbersConnectDialog *dialog = present_dialog ();
  g_autofree char *status = NULL;
  gboolean found = FALSE;
  gint64 t0;
  double waited;

  embers_connect_dialog_set_url (dialog, url);
  embers_connect_dialog_set_timeout (dialog, 5);
  t0 = g_get_monotonic_time ();
  embers_connect_dialog_test_connection (dialog);
  wait_for (dialog_idle, dialog);
  waited = (g_get_monotonic_time () - t0) / 1e6;
  status = g_utf8_strdown (embers_connect_dialog_get_status (dialog), -1);
  g_test_message ("%s: after %.2f s: %s", h->mode, waited, embers_connect_dialog_get_status (dialog));
  g_assert_true (g_str_has_prefix (status, "connection failed: "));
  for (guint i = 0; h->words[i] != NULL; i++)
    found = found || strstr (status, h->words[i]) != NULL;
  g_assert_true (found);
  /* Bounded by the user's timeout, which the message names when it ran
   * out (the time it took is a figure above: a busy machine takes longer
   * to say so, and a hang fails the wait above) */
  if (strstr (status, "deadline exceeded") != NULL)
    g_assert_nonnull (strstr (status, "within 5 s"));
  g_assert_false (embers_connect_dialog_get_busy (dialog));
  close_dialog (dialog);
}

/* A self-signed server: refused with a clear word on what to do */
static void
test_tls (void)
{
  g_autofree char *cert = g_build_filename (TEST_FIXTURES, "tls", "cert.pem", NULL);
  g_autofree char *key = g_build_filename (TEST_FIXTURES, "tls", "key.pem", NULL);
  const char *args[] = { "--tls-cert", cert, "--tls-key", key, NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersTestServer) secure = embers_test_server_start (args, &error);
  EmbersConnectDialog *dialog;

  g_assert_no_error (error);
  dialog = present_dialog ();
  embers_connect_dialog_set_url (dialog, embers_test_server_get_url (secure));
  embers_connect_dialog_test_connection (dialog);
  wait_for (dialog_idle, dialog);
  g_test_message ("self-signed: %s", embers_connect_dialog_get_status (dialog));
  g_assert_nonnull (strstr (embers_connect_dialog_get_status (dialog), "certificate is not trusted"));
  close_dialog (dialog);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  int ret;

  embers_test_gtk_init (&argc, &argv);

  hostile = embers_hostile_server_start (&error);
  g_assert_no_error (error);

  g_test_add_func ("/embers/app/server-errors/timeout", test_connect_timeout);
  g_test_add_func ("/embers/app/server-errors/tls", test_tls);
  for (guint i = 0; i < G_N_ELEMENTS (hostile_modes); i++)
    {
      g_autofree char *name = g_strdup_printf ("/embers/app/server-errors/hostile/%s", hostile_modes[i].mode);
      g_test_add_data_func (name, &hostile_modes[i], test_hostile);
    }

  ret = g_test_run ();
  embers_test_server_stop (hostile);
  return ret;
}
