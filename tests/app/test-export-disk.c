/* test-export-disk.c: the window's exports on a full disk (issue 15,
 * failures 4 and 5)
 *
 * A profile page exports each format (images of the flame graph and of the
 * sandwich view, pprof, folded, JSON) onto a small tmpfs that is full (or
 * under the ENOSPC shim, see full-disk.h): the export fails with the
 * reason, the old file stays byte for byte, no temporary file is left;
 * with room it succeeds.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define _GNU_SOURCE  /* unshare() */

#include "config.h"

#include <string.h>

#include <adwaita.h>

#include "../full-disk.h"
#include "embers-window.h"
#include "embers-test-gtk-utils.h"

static const char old_contents[] = "the old file, which must survive\n";

typedef struct
{
  gboolean  done;
  gboolean  ok;
  GError   *error;
} Result;

static void
export_done (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  Result *r = user_data;

  r->ok = embers_profile_page_export_finish (EMBERS_PROFILE_PAGE (source), result, &r->error);
  r->done = TRUE;
}

/* The window's export of @page to @path; the error, or NULL */
static GError *
export_to (EmbersProfilePage *page,
           const char        *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  Result r = { FALSE, FALSE, NULL };

  embers_profile_page_export_async (page, file, NULL, export_done, &r);
  embers_test_wait_while (!r.done);
  g_assert_true (r.ok == (r.error == NULL));
  return r.error;
}

static void
wait_ready (EmbersProfilePage *page)
{
  embers_test_wait_while (embers_profile_page_get_state (page) == EMBERS_PAGE_STATE_LOADING ||
                          embers_profile_page_get_busy (page));
  g_assert_cmpuint (embers_profile_page_get_state (page), ==, EMBERS_PAGE_STATE_READY);
}

static char *
make_input (void)
{
  g_autoptr(GString) text = g_string_new (NULL);
  char *path = NULL;
  int fd;

  /* Frames wide enough for labels: every image is well over the shim's
   * 4096-byte cap (labels lose their package path first: "…Handler") */
  for (guint i = 0; i < 3000; i++)
    g_string_append_printf (text, "main;pkg%u.Handler;pkg%u.step%u;leaf.%08x %u\n",
                            i % 7, i % 7, i % 23, g_str_hash (text->str) ^ i, 1 + i % 13);
  fd = g_file_open_tmp ("embers-export-disk-XXXXXX.folded", &path, NULL);
  g_assert_cmpint (fd, >=, 0);
  g_close (fd, NULL);
  g_assert_true (g_file_set_contents (path, text->str, text->len, NULL));
  return path;
}

static void
check_exports (EmbersProfilePage *page,
               const char        *what)
{
  static const char *formats[] = { "png", "svg", "pdf", "folded", "pb.gz", "json" };

  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      g_autofree char *name = g_strdup_printf ("%s.%s", what, formats[i]);
      g_autofree char *path = g_build_filename (full_disk_dir, name, NULL);
      g_autofree char *contents = NULL;
      g_autofree char *listing = NULL;
      g_autoptr(GError) error = NULL;

      g_test_message ("%s", name);
      g_assert_true (g_file_set_contents (path, old_contents, -1, NULL));
      full_disk_fill (4096);

      error = export_to (page, path);
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE);
      if (strstr (error->message, g_strerror (ENOSPC)) == NULL || strstr (error->message, name) == NULL)
        g_error ("%s: “%s” lacks the reason or the file", name, error->message);

      g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
      g_assert_cmpstr (contents, ==, old_contents);
      listing = full_disk_list ();
      g_assert_cmpstr (listing, ==, name);
      g_unlink (path);
    }
}

static void
test_export_full_disk (void)
{
  g_autofree char *input = make_input ();
  g_autoptr(GFile) file = g_file_new_for_path (input);
  EmbersWindow *window = embers_window_new (NULL);
  EmbersProfilePage *page;

  /* Not shown: what is exported is computed off screen, at the graph's
   * default width */
  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 700);
  page = embers_window_open_file (window, file);
  wait_ready (page);

  check_exports (page, "graph");

  /* The sandwich view: two graphs stacked in one image */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "page.sandwich", "s", "main"));
  wait_ready (page);
  check_exports (page, "sandwich");

  /* With room (a tmpfs; the shim caps every file) they are written whole */
  if (full_disk_kind == FULL_DISK_TMPFS)
    {
      g_autofree char *filler = g_build_filename (full_disk_dir, "filler", NULL);
      g_autofree char *png = g_build_filename (full_disk_dir, "whole.png", NULL);
      g_autoptr(GError) error = NULL;
      g_autoptr(GdkTexture) texture = NULL;

      g_unlink (filler);
      g_assert_true (g_file_set_contents (png, old_contents, -1, NULL));
      g_assert_no_error (export_to (page, png));
      texture = gdk_texture_new_from_filename (png, &error);
      g_assert_no_error (error);
      g_assert_cmpint (gdk_texture_get_height (texture), >, 0);
      g_unlink (png);
    }

  gtk_window_destroy (GTK_WINDOW (window));
  g_unlink (input);
}

int
main (int   argc,
      char *argv[])
{
  int ret;

  full_disk_setup (argv, ENOSPC_SHIM);
  embers_test_gtk_init (&argc, &argv);
  g_test_message ("full disk: %s in %s",
                  full_disk_kind == FULL_DISK_TMPFS ? "a tmpfs" : "the ENOSPC shim", full_disk_dir);

  g_test_add_func ("/embers/export/full-disk", test_export_full_disk);

  ret = g_test_run ();
  full_disk_teardown ();
  return ret;
}
