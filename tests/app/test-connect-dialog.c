/* test-connect-dialog.c: the connect dialog's recent servers (under Xvfb,
 * no server)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The recent servers' row and the address field show one server both
 * ways without a syncing flag: filling the list puts its first server in
 * the field once, a person's choice puts that server there once (with
 * its saved timeout), and choosing it again changes nothing.
 */

#include "config.h"

#include <adwaita.h>

#include "embers-connect-client.h"
#include "embers-connect-dialog.h"
#include "embers-test-gtk-utils.h"

#define SERVER_A "http://a.example.test:4040"
#define SERVER_B "http://b.example.test:4040"

typedef struct
{
  guint  n;
  char  *last;
} Changes;

/* Notifications of "text" that brought a new value (an entry notifies
 * twice per gtk_editable_set_text, with the same value: GTK's own) */
static void
count_changes (GObject    *object,
               GParamSpec *pspec,
               Changes    *changes)
{
  g_autofree char *text = NULL;

  g_object_get (object, "text", &text, NULL);
  if (g_strcmp0 (text, changes->last) == 0)
    return;
  g_free (changes->last);
  changes->last = g_steal_pointer (&text);
  changes->n++;
}

static void
count (guint *counter)
{
  (*counter)++;
}

static void
test_recent (void)
{
  const char *recent[] = { SERVER_A, SERVER_B, NULL };
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  g_autofree char *key_b = embers_connect_normalize_base_url (SERVER_B, NULL);
  GtkWindow *window = GTK_WINDOW (adw_window_new ());
  EmbersConnectDialog *dialog;
  AdwComboRow *row;
  GtkWidget *url;
  Changes url_changes = { 0, NULL };
  guint selections = 0;
  GVariantBuilder timeouts;

  g_assert_nonnull (key_b);
  g_settings_set_strv (settings, "recent-servers", recent);
  g_variant_builder_init (&timeouts, G_VARIANT_TYPE ("a{su}"));
  g_variant_builder_add (&timeouts, "{su}", key_b, 90);
  g_settings_set_value (settings, "server-timeouts", g_variant_builder_end (&timeouts));

  embers_test_present_window (window, 1200, 800);
  dialog = embers_connect_dialog_new ();
  adw_dialog_present (ADW_DIALOG (dialog), GTK_WIDGET (window));
  row = ADW_COMBO_ROW (embers_test_find_widget (GTK_WIDGET (dialog), ADW_TYPE_COMBO_ROW, "recent_row"));
  url = embers_test_find_widget (GTK_WIDGET (dialog), ADW_TYPE_ENTRY_ROW, "url_row");
  g_assert_nonnull (row);
  g_assert_nonnull (url);
  embers_test_wait_mapped (url);

  /* Filled: the newest server in the field, the list showing it */
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (row)));
  g_assert_cmpuint (adw_combo_row_get_selected (row), ==, 0);
  g_assert_cmpstr (embers_connect_dialog_get_url (dialog), ==, SERVER_A);
  g_assert_cmpuint (embers_connect_dialog_get_timeout (dialog), ==, EMBERS_CONNECT_DEFAULT_TIMEOUT_S);

  url_changes.last = g_strdup (gtk_editable_get_text (GTK_EDITABLE (url)));
  g_signal_connect (url, "notify::text", G_CALLBACK (count_changes), &url_changes);
  g_signal_connect_swapped (row, "notify::selected", G_CALLBACK (count), &selections);

  /* A person's choice: the field once, with the server's timeout */
  adw_combo_row_set_selected (row, 1);
  g_assert_cmpstr (embers_connect_dialog_get_url (dialog), ==, SERVER_B);
  g_assert_cmpuint (embers_connect_dialog_get_timeout (dialog), ==, 90);
  g_assert_cmpuint (url_changes.n, ==, 1);
  g_assert_cmpuint (selections, ==, 1);

  /* The same again: nothing */
  adw_combo_row_set_selected (row, 1);
  g_assert_cmpuint (url_changes.n, ==, 1);
  g_assert_cmpuint (selections, ==, 1);

  /* Typing an address leaves the list alone; choosing back restores */
  gtk_editable_set_text (GTK_EDITABLE (url), "http://typed.example.test:4040");
  g_assert_cmpuint (selections, ==, 1);
  adw_combo_row_set_selected (row, 0);
  g_assert_cmpstr (embers_connect_dialog_get_url (dialog), ==, SERVER_A);
  g_assert_cmpuint (embers_connect_dialog_get_timeout (dialog), ==, EMBERS_CONNECT_DEFAULT_TIMEOUT_S);
  g_assert_cmpuint (url_changes.n, ==, 3);
  g_assert_cmpuint (selections, ==, 2);

  g_signal_handlers_disconnect_by_data (url, &url_changes);
  g_signal_handlers_disconnect_by_data (row, &selections);
  g_free (url_changes.last);
  adw_dialog_force_close (ADW_DIALOG (dialog));
  embers_test_destroy_window (window);
  g_settings_reset (settings, "recent-servers");
  g_settings_reset (settings, "server-timeouts");
}

int
main (int    argc,
      char **argv)
{
  /* No keyring: the dialog looks up a chosen server's credentials, and a
   * test must not reach the session's (the lookup fails, as without one) */
  g_setenv ("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/embers-test-bus", TRUE);
  embers_test_gtk_init (&argc, &argv);

  g_test_add_func ("/embers/connect-dialog/recent", test_recent);

  return g_test_run ();
}
