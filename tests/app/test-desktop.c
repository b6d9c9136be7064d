/* test-desktop.c: Embers among other programs: a second `embers …` hands
 * its files and options to the running one, over a private session bus
 *
 * This process is the running Embers (the primary instance, registered on
 * a private bus of its own); the real `embers` binary, started as a user
 * starts it, is the second one. Relative file names are resolved in the
 * second one's folder.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>
#include <adwaita.h>

#include "embers-application.h"
#include "embers-compare-page.h"
#include "embers-connect-dialog.h"
#include "embers-profile-page.h"
#include "embers-window.h"
#include "embers-test-gtk-utils.h"

static EmbersApplication *app;

typedef struct
{
  gboolean  done;
  int       status;
  char     *out;
  char     *err;
} Run;

static void
on_communicated (GObject      *source,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  Run *run = user_data;
  g_autoptr(GError) error = NULL;

  g_subprocess_communicate_utf8_finish (G_SUBPROCESS (source), result, &run->out, &run->err, &error);
  g_assert_no_error (error);
  run->status = g_subprocess_get_exit_status (G_SUBPROCESS (source));
  run->done = TRUE;
}

/* Runs `embers ARGS` in the fixtures' folder while this process answers
 * it (the main loop turns); returns its exit status */
static int
run_embers (const char * const *args,
            char              **err)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                                                        G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *cwd = g_test_build_filename (G_TEST_DIST, "fixtures", "go", NULL);
  Run run = { 0, };

  g_ptr_array_add (argv, (gpointer) EMBERS_BINARY);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);

  g_subprocess_launcher_set_cwd (launcher, cwd);
  proc = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8_async (proc, NULL, NULL, on_communicated, &run);
  embers_test_wait_flag (&run.done, "the second embers to exit");

  g_test_message ("embers %s: exit %d, %s", args[0], run.status, run.err);
  if (err != NULL)
    *err = g_steal_pointer (&run.err);
  g_free (run.out);
  g_free (run.err);
  return run.status;
}

static EmbersWindow *
active_window (void)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (app));

  return EMBERS_IS_WINDOW (window) ? EMBERS_WINDOW (window) : NULL;
}

static gboolean
has_pages (gpointer data)
{
  EmbersWindow *window = active_window ();

  return window != NULL && embers_window_get_n_pages (window) >= GPOINTER_TO_UINT (data);
}

static GtkWidget *
page_child (guint n)
{
  AdwTabView *view = ADW_TAB_VIEW (embers_test_find_widget (GTK_WIDGET (active_window ()), ADW_TYPE_TAB_VIEW, NULL));

  return adw_tab_page_get_child (adw_tab_view_get_nth_page (view, (int) n));
}

/* `embers A B` while Embers runs: A and B each in a tab of the running
 * window, in that order, and no comparison */
static void
test_two_files_two_tabs (void)
{
  g_assert_cmpint (run_embers ((const char *[]) { "cpu-labels.pb.gz", "cpu-recursion.pb.gz", NULL }, NULL), ==, 0);
  embers_test_wait_until (has_pages, GUINT_TO_POINTER (2), "two tabs");
  g_assert_cmpuint (embers_window_get_n_pages (active_window ()), ==, 2);

  for (guint i = 0; i < 2; i++)
    {
      const char *names[] = { "cpu-labels.pb.gz", "cpu-recursion.pb.gz" };
      GtkWidget *child = page_child (i);
      g_autofree char *basename = NULL;

      g_assert_true (EMBERS_IS_PROFILE_PAGE (child));
      basename = g_file_get_basename (embers_profile_page_get_file (EMBERS_PROFILE_PAGE (child)));
      g_assert_cmpstr (basename, ==, names[i]);
    }
}

/* `embers --diff BASE COMP`: the comparison, baseline first */
static void
test_diff (void)
{
  g_autofree char *err = NULL;
  EmbersComparePage *compare;

  g_assert_cmpint (run_embers ((const char *[]) { "--diff", "cpu-before.pb.gz", "cpu-after.pb.gz", NULL }, NULL), ==, 0);
  embers_test_wait_until (has_pages, GUINT_TO_POINTER (3), "the comparison's tab");
  compare = EMBERS_COMPARE_PAGE (page_child (2));
  g_assert_true (EMBERS_IS_COMPARE_PAGE (compare));
  g_assert_cmpstr (embers_compare_page_get_file_label (compare, FALSE), ==, "cpu-before.pb.gz");
  g_assert_cmpstr (embers_compare_page_get_file_label (compare, TRUE), ==, "cpu-after.pb.gz");

  /* One file is no comparison: the second embers says so, nothing opens */
  g_assert_cmpint (run_embers ((const char *[]) { "--diff", "cpu-before.pb.gz", NULL }, &err), ==, 1);
  g_assert_nonnull (strstr (err, "--diff takes exactly two profiles"));
  g_assert_cmpuint (embers_window_get_n_pages (active_window ()), ==, 3);
}

static gboolean
has_connect_dialog (gpointer data)
{
  EmbersWindow *window = active_window ();
  AdwDialog *dialog = window ? adw_application_window_get_visible_dialog (ADW_APPLICATION_WINDOW (window)) : NULL;

  return EMBERS_IS_CONNECT_DIALOG (dialog);
}

/* `embers --server URL` while Embers runs: the running one connects */
static void
test_server (void)
{
  AdwDialog *dialog;

  g_assert_false (has_connect_dialog (NULL));
  g_assert_cmpint (run_embers ((const char *[]) { "--server", "http://127.0.0.1:9/", NULL }, NULL), ==, 0);
  embers_test_wait_until (has_connect_dialog, NULL, "the connect dialog in the running window");
  dialog = adw_application_window_get_visible_dialog (ADW_APPLICATION_WINDOW (active_window ()));
  g_assert_cmpstr (embers_connect_dialog_get_url (EMBERS_CONNECT_DIALOG (dialog)), ==, "http://127.0.0.1:9/");
  adw_dialog_force_close (dialog);
}

/* --version and --help need nothing from the running one */
static void
test_version (void)
{
  guint pages = embers_window_get_n_pages (active_window ());

  g_assert_cmpint (run_embers ((const char *[]) { "--version", NULL }, NULL), ==, 0);
  g_assert_cmpint (run_embers ((const char *[]) { "--help", NULL }, NULL), ==, 0);
  g_assert_cmpuint (embers_window_get_n_pages (active_window ()), ==, pages);
}

int
main (int   argc,
      char *argv[])
{
  GTestDBus *bus;
  g_autoptr(GError) error = NULL;
  g_autofree char *display = NULL;
  int ret;

  /* A session bus of our own before anything talks to one (GTestDBus
   * unsets DISPLAY, which the window needs) */
  display = g_strdup (g_getenv ("DISPLAY"));
  bus = g_test_dbus_new (G_TEST_DBUS_NONE);
  g_test_dbus_up (bus);
  if (display != NULL)
    g_setenv ("DISPLAY", display, TRUE);

  embers_test_gtk_init (&argc, &argv);

  app = embers_application_new ();
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, &error));
  g_assert_no_error (error);
  g_assert_false (g_application_get_is_remote (G_APPLICATION (app)));
  g_application_hold (G_APPLICATION (app));

  g_test_add_func ("/embers/desktop/two-files-two-tabs", test_two_files_two_tabs);
  g_test_add_func ("/embers/desktop/diff", test_diff);
  g_test_add_func ("/embers/desktop/server", test_server);
  g_test_add_func ("/embers/desktop/version", test_version);

  ret = g_test_run ();

  g_application_release (G_APPLICATION (app));
  {
    GList *windows = g_list_copy (gtk_application_get_windows (GTK_APPLICATION (app)));

    for (GList *l = windows; l != NULL; l = l->next)
      gtk_window_destroy (l->data);
    g_list_free (windows);
  }
  embers_test_drain ();
  g_clear_object (&app);
  /* GTK keeps the bus connection to the end: the daemon is stopped without
   * waiting for the connection to go (g_test_dbus_down() would, and
   * finalizing @bus calls it) */
  g_test_dbus_stop (bus);

  return ret;
}
