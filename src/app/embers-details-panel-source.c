/* embers-details-panel-source.c: the details panel's source file: found
 * under the source roots, shown with its cost gutter, its checkout's
 * commit checked against the profile's, opened in an editor
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "embers-details-panel-private.h"
#include "embers-git-checkout.h"
#include "embers-source-files.h"

#define ROOTS_KEY "source-roots"
#define MAX_CANDIDATES 20

/* ---- Git ---- */

const char *
embers_details_panel_profile_git_ref (EmbersProfile *profile)
{
  guint n_sets = embers_profile_get_n_label_sets (profile);

  for (guint s = 0; s < n_sets; s++)
    {
      guint n = 0;
      const EmbersLabel *labels = embers_profile_get_label_set (profile, s, &n);

      for (guint i = 0; i < n; i++)
        {
          const char *key = embers_profile_get_string (profile, labels[i].key);

          if (labels[i].str != 0 && (g_strcmp0 (key, "service_git_ref") == 0 || g_strcmp0 (key, "git_ref") == 0))
            return embers_profile_get_string (profile, labels[i].str);
        }
    }
  return NULL;
}


void
embers_details_panel_set_git_warning (EmbersDetailsPanel *self,
                                      const char         *warning)
{
  if (g_strcmp0 (self->git_warning, warning) == 0)
    return;
  g_free (self->git_warning);
  self->git_warning = g_strdup (warning);
  gtk_label_set_label (self->ref_warning, warning != NULL ? warning : "");
  gtk_widget_set_visible (GTK_WIDGET (self->ref_warning), warning != NULL);
  embers_details_panel_notify (self, EMBERS_DETAILS_PANEL_PROP_GIT_WARNING);
}

/* The checkout's commit is read from its files (embers-git-checkout.h),
 * not by running git: the GNOME runtime has none */
static void
on_git_compared (GObject      *source,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  EmbersDetailsPanel *self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *head = NULL;
  g_autofree char *warning = NULL;
  EmbersGitMatch match = embers_git_compare_finish (result, &head, &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_object_unref (self);
      return;
    }

  switch (match)
    {
    case EMBERS_GIT_MATCH_NO_CHECKOUT:
    case EMBERS_GIT_MATCH_SAME:
      break;
    case EMBERS_GIT_MATCH_OTHER:
      if (head != NULL)
        {
          g_autofree char *shown = g_strndup (head, 12);

          /* Translators: %s is a commit id */
          warning = g_strdup_printf (_("The checkout is at %s, not at the profile's commit: lines may have moved"), shown);
        }
      else
        warning = g_strdup (_("The checkout has no commit yet, so it is not at the profile's: lines may have moved"));
      break;
    case EMBERS_GIT_MATCH_UNKNOWN:
    default:
      /* Translators: %s says why (an error message) */
      warning = g_strdup_printf (_("Cannot tell whether the checkout is at the profile's commit: %s"),
                                 error != NULL ? error->message : "");
      break;
    }
  embers_details_panel_set_git_warning (self, warning);
  embers_details_panel_end (self);
  g_object_unref (self);
}

static void
check_git (EmbersDetailsPanel *self)
{
  embers_details_panel_set_git_warning (self, NULL);
  if (self->git_ref == NULL || self->source_path == NULL)
    return;
  embers_details_panel_begin (self);
  embers_git_compare_async (self->source_path, self->git_ref, self->cancellable,
                            on_git_compared, g_object_ref (self));
}

/* ---- Source ---- */

void
embers_details_panel_show_no_source (EmbersDetailsPanel *self,
                                     const char         *title,
                                     const char         *description)
{
  adw_status_page_set_title (self->source_status, title);
  adw_status_page_set_description (self->source_status, description);
  gtk_stack_set_visible_child_name (self->source_stack, "none");
  if (self->source_path != NULL)
    {
      g_clear_pointer (&self->source_path, g_free);
      embers_details_panel_notify (self, EMBERS_DETAILS_PANEL_PROP_SOURCE_PATH);
    }
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "details.open-editor", FALSE);
  /* No checkout to compare with */
  embers_details_panel_set_git_warning (self, NULL);
}

/* The view scrolls once it is mapped and its lines are measured: the
 * panel may have been hidden, or the file just loaded */
static gboolean
scroll_tick (GtkWidget     *widget,
             GdkFrameClock *clock,
             gpointer       data)
{
  EmbersDetailsPanel *self = data;
  GtkTextView *view = GTK_TEXT_VIEW (self->source_view);
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (view);
  GtkTextIter iter;
  GdkRectangle location, visible;

  if (!gtk_widget_get_mapped (widget) || gtk_widget_get_height (widget) <= 0)
    return G_SOURCE_CONTINUE;

  gtk_text_buffer_get_iter_at_line (buffer, &iter, (int)MIN (self->scroll_line - 1, G_MAXINT));
  gtk_text_view_scroll_to_iter (view, &iter, 0.0, TRUE, 0.0, 0.3);
  gtk_text_view_get_iter_location (view, &iter, &location);
  gtk_text_view_get_visible_rect (view, &visible);
  if (location.y < visible.y || location.y + location.height > visible.y + visible.height)
    return G_SOURCE_CONTINUE;

  self->scroll_tick_id = 0;
  return G_SOURCE_REMOVE;
}

void
embers_details_panel_scroll_to_line (EmbersDetailsPanel *self,
                                     gint64              line)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->source_view));
  GtkTextIter iter;

  if (line <= 0)
    return;
  gtk_text_buffer_get_iter_at_line (buffer, &iter, (int)MIN (line - 1, G_MAXINT));
  gtk_text_buffer_place_cursor (buffer, &iter);
  self->scroll_line = line;
  if (self->scroll_tick_id == 0)
    self->scroll_tick_id = gtk_widget_add_tick_callback (GTK_WIDGET (self->source_view), scroll_tick, self, NULL);
}

void
embers_details_panel_update_scheme (EmbersDetailsPanel *self)
{
  GtkSourceStyleSchemeManager *schemes = gtk_source_style_scheme_manager_get_default ();
  GtkSourceBuffer *buffer = GTK_SOURCE_BUFFER (gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->source_view)));
  gboolean dark = adw_style_manager_get_dark (adw_style_manager_get_default ());
  GtkSourceStyleScheme *scheme;

  scheme = gtk_source_style_scheme_manager_get_scheme (schemes, dark ? "Adwaita-dark" : "Adwaita");
  if (scheme != NULL)
    gtk_source_buffer_set_style_scheme (buffer, scheme);
}

typedef struct
{
  EmbersDetailsPanel *self;
  char               *path;
} LoadSource;

static void
on_source_loaded (GObject      *source,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  LoadSource *ls = user_data;
  EmbersDetailsPanel *self = ls->self;
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  gsize length = 0;

  if (!g_file_load_contents_finish (G_FILE (source), result, &contents, &length, NULL, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          embers_details_panel_show_no_source (self, _("Cannot Read the Source"), error->message);
          embers_details_panel_end (self);
        }
    }
  else
    {
      GtkSourceBuffer *buffer = GTK_SOURCE_BUFFER (gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->source_view)));
      GtkSourceLanguageManager *languages = gtk_source_language_manager_get_default ();
      g_autofree char *text = g_utf8_make_valid (contents, length);
      const EmbersLineCost *hot = embers_function_details_get_hottest_line (self->details);

      gtk_text_buffer_set_text (GTK_TEXT_BUFFER (buffer), text, -1);
      gtk_source_buffer_set_language (buffer, gtk_source_language_manager_guess_language (languages, ls->path, NULL));
      embers_details_panel_update_scheme (self);
      gtk_stack_set_visible_child_name (self->source_stack, "view");
      gtk_widget_action_set_enabled (GTK_WIDGET (self), "details.open-editor", TRUE);

      g_free (self->source_path);
      self->source_path = g_strdup (ls->path);
      embers_details_panel_notify (self, EMBERS_DETAILS_PANEL_PROP_SOURCE_PATH);

      if (hot != NULL)
        embers_details_panel_scroll_to_line (self, hot->line);
      else if (self->details->start_line > 0)
        embers_details_panel_scroll_to_line (self, self->details->start_line);
      check_git (self);
      embers_details_panel_end (self);
    }

  g_object_unref (ls->self);
  g_free (ls->path);
  g_free (ls);
}

static void
load_candidate (EmbersDetailsPanel *self,
                guint               index)
{
  EmbersSourceCandidate *c;
  g_autoptr(GFile) file = NULL;
  LoadSource *ls;

  if (self->found == NULL || index >= self->found->len)
    return;
  c = g_ptr_array_index (self->found, index);
  file = g_file_new_for_path (c->path);
  ls = g_new0 (LoadSource, 1);
  ls->self = g_object_ref (self);
  ls->path = g_strdup (c->path);
  embers_details_panel_begin (self);
  g_file_load_contents_async (file, self->cancellable, on_source_loaded, ls);
}

void
embers_details_panel_candidate_selected (EmbersDetailsPanel *self)
{
  guint selected = gtk_drop_down_get_selected (self->candidates_dropdown);

  if (!self->filling && selected != GTK_INVALID_LIST_POSITION)
    load_candidate (self, selected);
}

static void
on_found (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  EmbersDetailsPanel *self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) found = embers_source_find_finish (result, &error);

  if (found == NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_object_unref (self);
      return;
    }

  g_clear_pointer (&self->found, g_ptr_array_unref);
  if (found == NULL || found->len == 0)
    {
      g_autofree char *description = NULL;

      /* Translators: %s is a file path from the profile */
      description = g_strdup_printf (_("No file under the source folders matches “%s”. Add the folder of a checkout of this program."),
                                     self->details->file[0] != '\0' ? self->details->file : self->details->name);
      embers_details_panel_show_no_source (self, _("Source Not Found"), error != NULL ? error->message : description);
      embers_details_panel_end (self);
      g_object_unref (self);
      return;
    }

  self->found = g_steal_pointer (&found);
  self->filling = TRUE;
  {
    g_autoptr(GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);

    for (guint i = 0; i < self->found->len; i++)
      {
        EmbersSourceCandidate *c = g_ptr_array_index (self->found, i);
        g_autofree char *root_name = g_path_get_basename (c->root);
        const char *rel = c->path + strlen (c->root);

        while (*rel == '/')
          rel++;
        g_ptr_array_add (labels, g_build_filename (root_name, rel, NULL));
      }
    g_ptr_array_add (labels, NULL);
    gtk_string_list_splice (self->candidates, 0, g_list_model_get_n_items (G_LIST_MODEL (self->candidates)),
                            (const char * const *)labels->pdata);
  }
  gtk_drop_down_set_selected (self->candidates_dropdown, 0);
  gtk_widget_set_sensitive (GTK_WIDGET (self->candidates_dropdown), self->found->len > 1);
  self->filling = FALSE;
  load_candidate (self, 0);
  embers_details_panel_end (self);
  g_object_unref (self);
}

/* The saved roots; without the app's schema (a test of the core widget
 * alone) they live as long as the panel */
static GSettings *
settings (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;

  if (source != NULL)
    schema = g_settings_schema_source_lookup (source, APP_ID, TRUE);
  return schema != NULL ? g_settings_new (APP_ID) : NULL;
}

static GVariant *
dup_roots_map (EmbersDetailsPanel *self)
{
  g_autoptr(GSettings) s = settings ();

  if (s != NULL)
    return g_settings_get_value (s, ROOTS_KEY);
  return self->roots_map != NULL ? g_variant_ref (self->roots_map) : NULL;
}

/* The roots' menu: each to remove, and Add */
void
embers_details_panel_update_roots_menu (EmbersDetailsPanel *self,
                                        const char * const *roots)
{
  g_autoptr(GMenu) menu = g_menu_new ();
  g_autoptr(GMenu) listed = g_menu_new ();
  g_autoptr(GMenu) add = g_menu_new ();

  for (guint i = 0; roots[i] != NULL; i++)
    {
      g_autoptr(GMenuItem) item = NULL;
      /* Translators: a menu item; %s is a folder */
      g_autofree char *label = g_strdup_printf (_("Remove “%s”"), roots[i]);

      item = g_menu_item_new (label, NULL);
      g_menu_item_set_action_and_target_value (item, "details.remove-root", g_variant_new_string (roots[i]));
      g_menu_append_item (listed, item);
    }
  g_menu_append (add, _("_Add Source Folder…"), "details.add-root");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (listed));
  g_menu_append_section (menu, NULL, G_MENU_MODEL (add));
  gtk_menu_button_set_menu_model (self->roots_button, G_MENU_MODEL (menu));
  gtk_menu_button_set_menu_model (self->status_roots_button, G_MENU_MODEL (menu));
  gtk_widget_set_visible (GTK_WIDGET (self->status_roots_button), roots[0] != NULL);
}

void
embers_details_panel_find_source (EmbersDetailsPanel *self)
{
  g_autoptr(GVariant) map = dup_roots_map (self);
  g_auto(GStrv) roots = embers_source_roots_lookup (map, self->source_key);
  g_autofree char *java = embers_source_java_path (self->details->name, self->details->file);

  embers_details_panel_update_roots_menu (self, (const char * const *)roots);
  if (self->details->file[0] == '\0' && java == NULL)
    {
      embers_details_panel_show_no_source (self, _("No Source File"), _("The profile names no file for this function."));
      return;
    }
  if (roots[0] == NULL)
    {
      embers_details_panel_show_no_source (self, _("Source Not Found"),
                      _("Add the folder of a checkout of this program: Embers finds the file there by its path."));
      return;
    }

  embers_details_panel_begin (self);
  embers_source_find_async (self->details->file, self->details->name, (const char * const *)roots,
                            MAX_CANDIDATES, self->cancellable, on_found, g_object_ref (self));
}


/* ---- Roots ---- */

void
embers_details_panel_set_source_key (EmbersDetailsPanel *self,
                                     const char         *key)
{
  g_return_if_fail (EMBERS_IS_DETAILS_PANEL (self));
  g_free (self->source_key);
  self->source_key = g_strdup (key != NULL ? key : "");
}

/* This service's source roots become @roots (in the settings, or kept
 * here without them), and the function's file is looked for again */
static void
store_roots (EmbersDetailsPanel *self,
             GSettings          *s,
             GVariant           *map,
             const char * const *roots)
{
  g_autoptr(GVariant) replaced = embers_source_roots_replace (map, self->source_key, roots);

  if (s != NULL)
    g_settings_set_value (s, ROOTS_KEY, replaced);
  else
    {
      g_clear_pointer (&self->roots_map, g_variant_unref);
      self->roots_map = g_variant_ref (replaced);
    }

  if (self->details == NULL)
    embers_details_panel_update_roots_menu (self, roots);
  else if (self->pending == 0)
    embers_details_panel_find_source (self);
  else
    self->find_again = TRUE;
}

void
embers_details_panel_add_root (EmbersDetailsPanel *self,
                               const char         *path)
{
  g_autoptr(GSettings) s = settings ();
  g_autoptr(GVariant) map = dup_roots_map (self);
  g_auto(GStrv) roots = embers_source_roots_lookup (map, self->source_key);
  g_autoptr(GStrvBuilder) b = g_strv_builder_new ();
  g_auto(GStrv) next = NULL;

  g_return_if_fail (EMBERS_IS_DETAILS_PANEL (self));
  g_return_if_fail (path != NULL);

  /* The newest root first; each once */
  g_strv_builder_add (b, path);
  for (guint i = 0; roots[i] != NULL; i++)
    if (!g_str_equal (roots[i], path))
      g_strv_builder_add (b, roots[i]);
  next = g_strv_builder_end (b);
  store_roots (self, s, map, (const char * const *)next);
}

void
embers_details_panel_remove_root (EmbersDetailsPanel *self,
                                  const char         *path)
{
  g_autoptr(GSettings) s = settings ();
  g_autoptr(GVariant) map = dup_roots_map (self);
  g_auto(GStrv) roots = embers_source_roots_lookup (map, self->source_key);
  g_autoptr(GStrvBuilder) b = g_strv_builder_new ();
  g_auto(GStrv) next = NULL;

  g_return_if_fail (EMBERS_IS_DETAILS_PANEL (self));
  g_return_if_fail (path != NULL);

  for (guint i = 0; roots[i] != NULL; i++)
    if (!g_str_equal (roots[i], path))
      g_strv_builder_add (b, roots[i]);
  next = g_strv_builder_end (b);
  store_roots (self, s, map, (const char * const *)next);
}


/* ---- Editor ---- */

static void
on_folder_chosen (GObject      *source,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  EmbersDetailsPanel *self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) folder = gtk_file_dialog_select_folder_finish (GTK_FILE_DIALOG (source), result, &error);

  if (folder != NULL)
    {
      g_autofree char *path = g_file_get_path (folder);

      if (path != NULL)
        embers_details_panel_add_root (self, path);
    }
  g_object_unref (self);
}

/* Editors that open a file at a line, by their command's name, and how
 * (each as its own command line parser reads it). Inside Flatpak (or for
 * any other editor, or one run through `flatpak run`) the file opens
 * through the desktop's handler, the OpenURI portal, at its start. */
typedef enum
{
  LINE_PLUS,       /* editor +LINE FILE (gedit, vim: a +N applies to the files after it) */
  LINE_AFTER,      /* editor FILE +LINE (GNOME Text Editor: a +N[:COL] after its file) */
  LINE_OPTION,     /* editor --line LINE FILE (Kate) */
  LINE_GOTO,       /* editor --goto FILE:LINE (Visual Studio Code and its builds) */
} LineStyle;

typedef struct
{
  const char *command;
  LineStyle   style;
} EditorRecipe;

static const EditorRecipe editors[] = {
  { "gnome-text-editor", LINE_AFTER },
  { "gedit",             LINE_PLUS },
  { "gvim",              LINE_PLUS },
  { "kate",              LINE_OPTION },
  { "kwrite",            LINE_OPTION },
  { "code",              LINE_GOTO },
  { "code-oss",          LINE_GOTO },
  { "codium",            LINE_GOTO },
};

/* The arguments after the command: @path opened at @line */
static char *
editor_arguments (LineStyle   style,
                  const char *path,
                  gint64      line)
{
  g_autofree char *quoted = g_shell_quote (path);

  switch (style)
    {
    case LINE_PLUS:
      return g_strdup_printf ("+%" G_GINT64_FORMAT " %s", line, quoted);
    case LINE_AFTER:
      return g_strdup_printf ("%s +%" G_GINT64_FORMAT, quoted, line);
    case LINE_OPTION:
      return g_strdup_printf ("--line %" G_GINT64_FORMAT " %s", line, quoted);
    case LINE_GOTO:
      {
        g_autofree char *at = g_strdup_printf ("%s:%" G_GINT64_FORMAT, path, line);
        g_autofree char *quoted_at = g_shell_quote (at);

        return g_strdup_printf ("--goto %s", quoted_at);
      }
    default:
      g_assert_not_reached ();
    }
}

static gboolean
open_at_line (EmbersDetailsPanel *self,
              const char         *path,
              gint64              line)
{
  g_autofree char *type = NULL;
  g_autoptr(GAppInfo) app = NULL;
  g_autofree char *command = NULL;
  const char *exe;

  if (line <= 0 || g_file_test ("/.flatpak-info", G_FILE_TEST_EXISTS))
    return FALSE;
  type = g_content_type_guess (path, NULL, 0, NULL);
  app = g_app_info_get_default_for_type (type, FALSE);
  if (app == NULL)
    app = g_app_info_get_default_for_type ("text/plain", FALSE);
  if (app == NULL || (exe = g_app_info_get_executable (app)) == NULL)
    return FALSE;

  for (guint i = 0; i < G_N_ELEMENTS (editors); i++)
    {
      g_autofree char *base = g_path_get_basename (exe);

      if (g_str_equal (base, editors[i].command))
        {
          g_autofree char *args = editor_arguments (editors[i].style, path, line);
          g_autofree char *quoted_exe = g_shell_quote (exe);
          g_autoptr(GAppInfo) launch = NULL;
          g_autoptr(GdkAppLaunchContext) context = NULL;

          command = g_strdup_printf ("%s %s", quoted_exe, args);
          /* An Exec line: a % in a path is no field code */
          {
            g_auto(GStrv) parts = g_strsplit (command, "%", -1);

            g_free (command);
            command = g_strjoinv ("%%", parts);
          }
          launch = g_app_info_create_from_commandline (command, NULL, G_APP_INFO_CREATE_NONE, NULL);
          if (launch == NULL)
            return FALSE;
          context = gdk_display_get_app_launch_context (gtk_widget_get_display (GTK_WIDGET (self)));
          return g_app_info_launch (launch, NULL, G_APP_LAUNCH_CONTEXT (context), NULL);
        }
    }
  return FALSE;
}

static gint64
current_line (EmbersDetailsPanel *self)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->source_view));
  GtkTextIter iter;

  gtk_text_buffer_get_iter_at_mark (buffer, &iter, gtk_text_buffer_get_insert (buffer));
  return gtk_text_iter_get_line (&iter) + 1;
}

static void
on_launched (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  if (!gtk_file_launcher_launch_finish (GTK_FILE_LAUNCHER (source), result, &error)
      && !g_error_matches (error, GTK_DIALOG_ERROR, GTK_DIALOG_ERROR_DISMISSED))
    g_warning ("Could not open the source file: %s", error->message);
}


void
embers_details_panel_choose_root (EmbersDetailsPanel *self)
{
  g_autoptr(GtkFileDialog) dialog = gtk_file_dialog_new ();
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));

  gtk_file_dialog_set_title (dialog, _("Add Source Folder"));
  gtk_file_dialog_set_accept_label (dialog, _("_Add"));
  gtk_file_dialog_select_folder (dialog, GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                 NULL, on_folder_chosen, g_object_ref (self));
}

void
embers_details_panel_open_editor (EmbersDetailsPanel *self)
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(GtkFileLauncher) launcher = NULL;
  GtkRoot *root;

  if (self->source_path == NULL || open_at_line (self, self->source_path, current_line (self)))
    return;
  file = g_file_new_for_path (self->source_path);
  launcher = gtk_file_launcher_new (file);
  root = gtk_widget_get_root (GTK_WIDGET (self));
  gtk_file_launcher_launch (launcher, GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                            NULL, on_launched, NULL);
}
