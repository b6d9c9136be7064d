/* test-details-editor.c: "Open in Editor" launches the desktop's editor
 * for the source file, at the line (issue 18.2)
 *
 * The desktop is made up for the test: a private XDG_DATA_HOME with two
 * .desktop files whose Exec is a small script that writes its arguments
 * to a file, and a private XDG_CONFIG_HOME whose mimeapps.list makes one
 * of them the default handler for Go source. One script is called
 * gnome-text-editor, so the panel passes the line as GNOME Text Editor
 * reads it (FILE +LINE, see its editor_application_command_line); the
 * other is an editor the panel knows nothing of, given the file through
 * the desktop's handler (GtkFileLauncher; outside Flatpak, without the
 * OpenURI portal, which the panel uses only inside Flatpak).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>
#include <gio/gdesktopappinfo.h>
#include <adwaita.h>

#include "embers-details-panel.h"
#include "embers-profile-page.h"
#include "embers-window.h"
#include "embers-test-gtk-utils.h"

static char *desktop_dir;   /* the made-up desktop's files */

static char *
desktop_path (const char *name)
{
  return g_build_filename (desktop_dir, name, NULL);
}

/* An executable script @name that writes its arguments, one a line, to
 * @name.args (whole: written aside, then renamed) */
static char *
write_editor (const char *name)
{
  g_autofree char *bin = desktop_path ("bin");
  g_autofree char *out = g_strdup_printf ("%s/%s.args", desktop_dir, name);
  g_autofree char *quoted = g_shell_quote (out);
  g_autofree char *script = g_strdup_printf ("#!/bin/sh\nprintf '%%s\\n' \"$@\" > %s.part && mv %s.part %s\n",
                                             quoted, quoted, quoted);
  char *path = g_build_filename (bin, name, NULL);
  g_autoptr(GError) error = NULL;

  g_assert_true (g_mkdir_with_parents (bin, 0700) == 0);
  g_assert_true (g_file_set_contents (path, script, -1, &error));
  g_assert_no_error (error);
  g_assert_true (g_chmod (path, 0700) == 0);
  return path;
}

static void
write_desktop_file (const char *id,
                    const char *name,
                    const char *exe)
{
  g_autofree char *apps = g_build_filename (desktop_dir, "data", "applications", NULL);
  g_autofree char *path = g_build_filename (apps, id, NULL);
  g_autofree char *text = g_strdup_printf ("[Desktop Entry]\nType=Application\nName=%s\nExec=%s %%F\n"
                                           "MimeType=text/x-go;text/plain;\n", name, exe);
  g_autoptr(GError) error = NULL;

  g_assert_true (g_mkdir_with_parents (apps, 0700) == 0);
  g_assert_true (g_file_set_contents (path, text, -1, &error));
  g_assert_no_error (error);
}

/* Before GIO reads the user's folders: a desktop of our own */
static void
make_desktop (void)
{
  g_autofree char *config = NULL;
  g_autofree char *mimeapps = NULL;
  g_autofree char *data = NULL;
  g_autofree char *text_editor = NULL;
  g_autofree char *viewer = NULL;
  g_autoptr(GError) error = NULL;

  desktop_dir = g_dir_make_tmp ("embers-editor-XXXXXX", &error);
  g_assert_no_error (error);
  text_editor = write_editor ("gnome-text-editor");
  viewer = write_editor ("embers-test-viewer");
  write_desktop_file ("embers-test-text-editor.desktop", "Text Editor (test)", text_editor);
  write_desktop_file ("embers-test-viewer.desktop", "Viewer (test)", viewer);

  config = desktop_path ("config");
  g_assert_true (g_mkdir_with_parents (config, 0700) == 0);
  mimeapps = g_build_filename (config, "mimeapps.list", NULL);
  g_assert_true (g_file_set_contents (mimeapps,
                                      "[Default Applications]\n"
                                      "text/x-go=embers-test-text-editor.desktop\n"
                                      "text/plain=embers-test-text-editor.desktop\n", -1, &error));
  g_assert_no_error (error);
  data = desktop_path ("data");
  g_setenv ("XDG_DATA_HOME", data, TRUE);
  g_setenv ("XDG_CONFIG_HOME", config, TRUE);
  /* Never a portal: this is the path outside Flatpak */
  g_setenv ("GDK_DEBUG", "no-portals", TRUE);
}

static void
wait_page (EmbersProfilePage *page)
{
  embers_test_wait_while (embers_profile_page_get_state (page) == EMBERS_PAGE_STATE_LOADING ||
                          embers_profile_page_get_busy (page));
  embers_test_settle ();
}

/* What the editor @name was started with, once it has written it */
static GStrv
wait_arguments (const char *name)
{
  g_autofree char *base = g_strdup_printf ("%s.args", name);
  g_autofree char *path = desktop_path (base);
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;

  embers_test_wait_while (!g_file_test (path, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_get_contents (path, &text, NULL, &error));
  g_assert_no_error (error);
  g_unlink (path);
  g_strchomp (text);
  return g_strsplit (text, "\n", -1);
}

static gint64
cursor_line (GtkSourceView *view)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (view));
  GtkTextIter iter;

  gtk_text_buffer_get_iter_at_mark (buffer, &iter, gtk_text_buffer_get_insert (buffer));
  return gtk_text_iter_get_line (&iter) + 1;
}

static void
test_open_in_editor (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fixtures", "go", "cpu-inlined.pb.gz", NULL);
  g_autofree char *root = g_test_build_filename (G_TEST_DIST, "go", NULL);
  g_autofree char *source = g_build_filename (root, "main.go", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  g_autoptr(GAppInfo) handler = NULL;
  g_autoptr(GDesktopAppInfo) viewer = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) args = NULL;
  const char *roots[] = { root, NULL };
  g_autofree char *line_arg = NULL;
  g_autofree char *content_type = g_content_type_guess (source, NULL, 0, NULL);
  EmbersWindow *window;
  EmbersProfilePage *page;
  EmbersDetailsPanel *panel;
  EmbersFlameGraph *graph;
  EmbersProfile *profile;
  GtkWidget *button;
  gint64 line;

  /* The made-up desktop is the one GIO sees */
  handler = g_app_info_get_default_for_type (content_type, FALSE);
  g_assert_nonnull (handler);
  g_assert_cmpstr (g_app_info_get_id (handler), ==, "embers-test-text-editor.desktop");

  /* The source of the Go program that wrote the profile, under a root */
  g_settings_set_value (settings, "source-roots", g_variant_new_parsed ("{'': %^as}", roots));
  window = embers_window_new (NULL);
  embers_test_present_window (GTK_WINDOW (window), 1200, 800);
  page = embers_window_open_file (window, file);
  wait_page (page);
  graph = embers_profile_page_get_flame_graph (page);
  profile = embers_flame_graph_get_profile (graph);
  for (guint32 i = 1; i < embers_profile_get_n_nodes (profile); i++)
    if (g_str_equal (embers_profile_node_name_str (profile, i), "main.finalize"))
      {
        embers_flame_graph_set_selected_node (graph, i);
        break;
      }
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "page.details", NULL));
  panel = embers_profile_page_get_details_panel (page);
  embers_test_wait_while (embers_details_panel_get_busy (panel) ||
                          embers_details_panel_get_source_path (panel) == NULL);
  g_assert_cmpstr (embers_details_panel_get_source_path (panel), ==, source);
  embers_test_settle ();

  /* The cursor sits on the hottest line (187, see test-details.c) */
  line = cursor_line (embers_details_panel_get_source_view (panel));
  g_assert_cmpint (line, ==, 187);

  /* The button, as the keyboard presses it: GNOME Text Editor is given
   * the file, then +LINE */
  button = embers_test_find_actionable (GTK_WIDGET (panel), "details.open-editor");
  g_assert_nonnull (button);
  g_assert_true (gtk_widget_is_sensitive (button));
  embers_test_press (button);
  args = wait_arguments ("gnome-text-editor");
  line_arg = g_strdup_printf ("+%" G_GINT64_FORMAT, line);
  g_assert_cmpuint (g_strv_length (args), ==, 2);
  g_assert_cmpstr (args[0], ==, source);
  g_assert_cmpstr (args[1], ==, line_arg);
  g_clear_pointer (&args, g_strfreev);

  /* Another line: the cursor's */
  {
    GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (embers_details_panel_get_source_view (panel)));
    GtkTextIter iter;

    gtk_text_buffer_get_iter_at_line (buffer, &iter, 9);
    gtk_text_buffer_place_cursor (buffer, &iter);
  }
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (panel), "details.open-editor", NULL));
  args = wait_arguments ("gnome-text-editor");
  g_assert_cmpstr (args[0], ==, source);
  g_assert_cmpstr (args[1], ==, "+10");
  g_clear_pointer (&args, g_strfreev);

  /* An editor the panel has no recipe for: the file through the
   * desktop's handler, which gives no line */
  viewer = g_desktop_app_info_new ("embers-test-viewer.desktop");
  g_assert_nonnull (viewer);
  g_assert_true (g_app_info_set_as_default_for_type (G_APP_INFO (viewer), content_type, &error));
  g_assert_no_error (error);
  g_clear_object (&handler);
  handler = g_app_info_get_default_for_type (content_type, FALSE);
  g_assert_cmpstr (g_app_info_get_id (handler), ==, "embers-test-viewer.desktop");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (panel), "details.open-editor", NULL));
  args = wait_arguments ("embers-test-viewer");
  g_assert_cmpuint (g_strv_length (args), ==, 1);
  g_assert_cmpstr (args[0], ==, source);

  embers_test_destroy_window (GTK_WINDOW (window));
  g_settings_reset (settings, "source-roots");
}

/* The made-up desktop goes when the test ends */
static void
remove_tree (const char *path)
{
  if (g_file_test (path, G_FILE_TEST_IS_DIR) && !g_file_test (path, G_FILE_TEST_IS_SYMLINK))
    {
      g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
      const char *name;

      while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);

          remove_tree (child);
        }
      g_rmdir (path);
    }
  else
    g_unlink (path);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  make_desktop ();
  embers_test_gtk_init (&argc, &argv);

  g_test_add_func ("/embers/app/details-editor/open", test_open_in_editor);

  status = g_test_run ();
  remove_tree (desktop_dir);
  g_free (desktop_dir);
  return status;
}
