/* test-hostile-files.c: files that never end or are not what they seem,
 * opened in the window (issue 15, failures 6 and 7)
 *
 * A FIFO without a writer keeps its tab loading while the window works,
 * and Cancel really ends the read (the reader lets go of the FIFO);
 * closing the window does the same. /dev/zero and a gzip bomb end in a
 * clear error.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <adwaita.h>
#include <glib/gstdio.h>

#include "embers-format.h"
#include "embers-window.h"
#include "embers-test-gtk-utils.h"

/* Whether some process has @fifo open for reading: a non-blocking open
 * for writing succeeds only then */
static gboolean
fifo_has_reader (const char *fifo)
{
  int fd = open (fifo, O_WRONLY | O_NONBLOCK);

  if (fd < 0)
    {
      g_assert_cmpint (errno, ==, ENXIO);
      return FALSE;
    }
  close (fd);
  return TRUE;
}

/* Runs the main loop until the FIFO's reader state is @want (the reader
 * is a thread of this process: the wait's own wake-ups look again) */
static void
wait_fifo_reader (const char *fifo,
                  gboolean    want)
{
  embers_test_wait_while (fifo_has_reader (fifo) != want);
}

static void
wait_not_loading (EmbersProfilePage *page)
{
  embers_test_wait_while (embers_profile_page_get_state (page) == EMBERS_PAGE_STATE_LOADING);
}

static void
test_fifo_cancel (void)
{
  g_autofree char *dir = g_dir_make_tmp ("embers-hostile-XXXXXX", NULL);
  g_autofree char *fifo = g_build_filename (dir, "profile.fifo", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (fifo);
  EmbersWindow *window = embers_window_new (NULL);
  EmbersProfilePage *page;

  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);

  /* The tab loads; the window goes on (the read waits on a thread) */
  page = g_object_ref (embers_window_open_file (window, file));
  wait_fifo_reader (fifo, TRUE);
  g_assert_cmpuint (embers_profile_page_get_state (page), ==, EMBERS_PAGE_STATE_LOADING);
  g_assert_cmpuint (embers_window_get_n_pages (window), ==, 1);

  /* Cancel: the page says so (and its tab closes), and the read has let
   * go of the FIFO */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "page.cancel", NULL));
  wait_not_loading (page);
  g_assert_cmpuint (embers_profile_page_get_state (page), ==, EMBERS_PAGE_STATE_CANCELLED);
  g_assert_cmpuint (embers_window_get_n_pages (window), ==, 0);
  g_object_unref (page);
  wait_fifo_reader (fifo, FALSE);

  /* Closing the window while it waits ends the read too */
  page = embers_window_open_file (window, file);
  wait_fifo_reader (fifo, TRUE);
  gtk_window_destroy (GTK_WINDOW (window));
  wait_fifo_reader (fifo, FALSE);

  g_unlink (fifo);
  g_rmdir (dir);
}

static GtkWidget *
find_action_button (GtkWidget  *widget,
                    const char *action)
{
  if (GTK_IS_BUTTON (widget) && g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)), action) == 0)
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_action_button (c, action);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static void
test_not_profiles (void)
{
  g_autofree char *dir = g_dir_make_tmp ("embers-hostile-XXXXXX", NULL);
  g_autofree char *bomb_path = g_build_filename (dir, "bomb.pb.gz", NULL);
  g_autoptr(GFile) zero = g_file_new_for_path ("/dev/zero");
  g_autoptr(GFile) bomb = g_file_new_for_path (bomb_path);
  EmbersWindow *window = embers_window_new (NULL);
  EmbersProfilePage *page;

  /* 256 MiB of zeros, gzipped */
  {
    gsize big = 256 * 1024 * 1024;
    g_autofree guint8 *zeros = g_malloc0 (big);
    g_autoptr(GBytes) gz = embers_gzip (zeros, big, NULL);

    g_assert_true (g_file_set_contents (bomb_path, g_bytes_get_data (gz, NULL), g_bytes_get_size (gz), NULL));
  }

  gtk_window_present (GTK_WINDOW (window));
  page = embers_window_open_file (window, zero);
  wait_not_loading (page);
  embers_test_wait_frame (GTK_WIDGET (page));
  g_assert_cmpuint (embers_profile_page_get_state (page), ==, EMBERS_PAGE_STATE_FAILED);
  g_assert_nonnull (strstr (embers_profile_page_get_error (page), "not a profile"));

  /* The page says why, with Reload (a file is read again, not "tried"),
   * and no toast repeats it */
  {
    GtkWidget *reload = find_action_button (GTK_WIDGET (page), "page.reload");

    g_assert_nonnull (reload);
    g_assert_true (gtk_widget_is_drawable (reload));
    g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (reload)), ==, "_Reload");
    embers_test_drain ();
    g_assert_null (embers_test_find_widget (GTK_WIDGET (window), GTK_TYPE_WIDGET, "toast"));
  }

  page = embers_window_open_file (window, bomb);
  wait_not_loading (page);
  g_assert_cmpuint (embers_profile_page_get_state (page), ==, EMBERS_PAGE_STATE_FAILED);
  g_assert_nonnull (strstr (embers_profile_page_get_error (page), "not a profile"));

  gtk_window_destroy (GTK_WINDOW (window));
  g_unlink (bomb_path);
  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  embers_test_gtk_init (&argc, &argv);

  g_test_add_func ("/embers/hostile-files/fifo-cancel", test_fifo_cancel);
  g_test_add_func ("/embers/hostile-files/not-profiles", test_not_profiles);

  return g_test_run ();
}
