/* embers-window-session.c: Save View… and opening a saved view
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A view file (.embers, docs/session-format.md) names where the profile
 * comes from (a file, two files compared, or a server's query) and what
 * the person did to it (embers-session.h). Saving writes one for the tab
 * shown; opening one (the Open dialog, `embers FILE.embers`, a drop)
 * reads it off the main thread and opens its source in a tab with that
 * view restored.
 */

#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "embers-compare-page.h"
#include "embers-connect-client.h"
#include "embers-location.h"
#include "embers-pyroscope-source.h"
#include "embers-query-url.h"
#include "embers-session.h"
#include "embers-window-private.h"
#include "embers-workspace.h"

/* Saving */

/* The tab shown as a view file, with the page whose view it keeps and a
 * name for the file; NULL (and @error) when the tab cannot be saved */
static EmbersSession *
session_for_tab (EmbersWindow       *self,
                 EmbersProfilePage **page_out,
                 char              **stem_out,
                 GError            **error)
{
  AdwTabView *tab_view = self->tab_view;
  AdwTabPage *tab = adw_tab_view_get_selected_page (tab_view);
  GtkWidget *child = tab != NULL ? adw_tab_page_get_child (tab) : NULL;
  g_autoptr(EmbersSession) session = embers_session_new ();
  EmbersProfilePage *page = NULL;
  g_autofree char *stem = NULL;

  if (EMBERS_IS_WORKSPACE (child))
    {
      EmbersWorkspace *workspace = EMBERS_WORKSPACE (child);
      EmbersSource *source = embers_workspace_get_source (workspace);
      g_autoptr(EmbersQuery) query = embers_query_model_dup_query (embers_workspace_get_query (workspace));

      if (EMBERS_IS_PYROSCOPE_SOURCE (source) && query != NULL && query->profile_type != NULL)
        {
          EmbersConnectClient *client = embers_pyroscope_source_get_client (EMBERS_PYROSCOPE_SOURCE (source));

          session->server = embers_session_clean_url (embers_connect_client_get_base_url (client));
          session->profile_type = g_strdup (query->profile_type);
          session->selector = g_strdup (query->label_selector != NULL && query->label_selector[0] != '\0'
                                        ? query->label_selector : "{}");
          session->from_ms = query->start_ms;
          session->until_ms = query->end_ms;
          page = embers_explore_page_get_profile_page (embers_workspace_get_explore_page (workspace));
          stem = embers_query_model_dup_file_stem (embers_workspace_get_query (workspace));
        }
    }
  else if (EMBERS_IS_COMPARE_PAGE (child))
    {
      GFile *baseline = NULL, *comparison = NULL;

      if (embers_compare_page_get_files (EMBERS_COMPARE_PAGE (child), &baseline, &comparison) &&
          g_file_peek_path (baseline) != NULL && g_file_peek_path (comparison) != NULL)
        {
          session->baseline_file = g_strdup (g_file_peek_path (baseline));
          session->file = g_strdup (g_file_peek_path (comparison));
          page = embers_compare_page_get_profile_page (EMBERS_COMPARE_PAGE (child));
          stem = g_file_get_basename (comparison);
        }
    }
  else if (EMBERS_IS_PROFILE_PAGE (child))
    {
      GFile *file = embers_profile_page_get_file (EMBERS_PROFILE_PAGE (child));

      if (file != NULL && g_file_peek_path (file) != NULL)
        {
          session->file = g_strdup (g_file_peek_path (file));
          page = EMBERS_PROFILE_PAGE (child);
          stem = g_file_get_basename (file);
        }
      else if (file != NULL)
        {
          g_autofree char *uri = g_file_get_uri (file);
          g_autoptr(EmbersQueryUrl) url = embers_query_url_is_url (uri)
            ? embers_query_url_parse (uri, g_get_real_time () / 1000, NULL) : NULL;

          if (url != NULL && url->span_ids == NULL && url->trace_ids == NULL)
            {
              /* The base URL only: the user and password stay behind */
              session->server = embers_session_clean_url (url->base_url);
              session->profile_type = g_strdup (url->query->profile_type);
              session->selector = g_strdup (url->query->label_selector != NULL ? url->query->label_selector : "{}");
              session->from_ms = url->query->start_ms;
              session->until_ms = url->query->end_ms;
              page = EMBERS_PROFILE_PAGE (child);
              stem = g_strdup (embers_profile_page_get_title (page));
            }
        }
    }

  if (page == NULL || (session->file == NULL && session->server == NULL) ||
      embers_profile_page_get_state (page) != EMBERS_PAGE_STATE_READY)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                           _("Only a loaded profile file, a comparison of two files or a server’s query can be "
                             "saved as a view"));
      return NULL;
    }

  embers_profile_page_save_view (page, session);
  *page_out = page;
  *stem_out = g_steal_pointer (&stem);
  return g_steal_pointer (&session);
}

static void
save_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  EmbersSession *session = task_data;
  GFile *file = g_object_get_data (G_OBJECT (task), "file");
  GError *error = NULL;

  if (embers_session_save (session, file, cancellable, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

static void
save_done (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  EmbersWindow *self = EMBERS_WINDOW (source);
  GFile *file = g_object_get_data (G_OBJECT (result), "file");
  g_autoptr(GError) error = NULL;
  g_autofree char *message = NULL;

  if (g_task_propagate_boolean (G_TASK (result), &error))
    {
      g_autofree char *name = g_file_get_basename (file);

      /* Translators: a toast; %s is a file name */
      message = g_strdup_printf (_("Saved the view as “%s”"), name);
    }
  else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  else
    /* Translators: a toast; %s is the reason */
    message = g_strdup_printf (_("Could not save the view: %s"), error->message);
  embers_window_add_toast (self, message);
}

void
embers_window_save_view_to (EmbersWindow *self,
                            GFile        *file)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GTask) task = NULL;
  g_autoptr(GFile) named = NULL;
  g_autofree char *stem = NULL;
  g_autofree char *name = NULL;
  EmbersProfilePage *page = NULL;
  EmbersSession *session;

  g_return_if_fail (EMBERS_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));

  session = session_for_tab (self, &page, &stem, &error);
  if (session == NULL)
    {
      embers_window_add_toast (self, error->message);
      return;
    }

  /* A name without the extension gets it, as the dialog suggested */
  name = g_file_get_basename (file);
  if (!g_str_has_suffix (name, ".embers"))
    {
      g_autoptr(GFile) parent = g_file_get_parent (file);
      g_autofree char *with_ext = g_strconcat (name, ".embers", NULL);

      named = g_file_get_child (parent, with_ext);
    }
  else
    named = g_object_ref (file);

  task = g_task_new (self, self->file_cancellable, save_done, NULL);
  g_task_set_source_tag (task, embers_window_save_view_to);
  g_task_set_task_data (task, session, (GDestroyNotify)embers_session_free);
  g_object_set_data_full (G_OBJECT (task), "file", g_object_ref (named), g_object_unref);
  g_task_run_in_thread (task, save_thread);
}

static void
on_save_response (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(EmbersWindow) self = user_data;
  g_autoptr(GFile) file = gtk_file_dialog_save_finish (GTK_FILE_DIALOG (object), result, NULL);

  if (file != NULL)
    embers_window_save_view_to (self, file);
}

void
embers_window_save_view (EmbersWindow *self)
{
  static const char * const patterns[] = { "*.embers", NULL };
  g_autoptr(GtkFileDialog) dialog = NULL;
  g_autoptr(GListStore) filters = NULL;
  g_autoptr(GtkFileFilter) filter = NULL;
  g_autoptr(EmbersSession) session = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *stem = NULL;
  g_autofree char *suggestion = NULL;
  EmbersProfilePage *page = NULL;

  /* Say at once when this tab cannot be saved, before any dialog */
  session = session_for_tab (self, &page, &stem, &error);
  if (session == NULL)
    {
      embers_window_add_toast (self, error->message);
      return;
    }

  dialog = gtk_file_dialog_new ();
  gtk_file_dialog_set_title (dialog, _("Save View"));
  gtk_file_dialog_set_accept_label (dialog, _("_Save"));
  filters = g_list_store_new (GTK_TYPE_FILE_FILTER);
  filter = gtk_file_filter_new ();
  gtk_file_filter_set_name (filter, _("Embers Views"));
  for (guint i = 0; patterns[i] != NULL; i++)
    gtk_file_filter_add_pattern (filter, patterns[i]);
  g_list_store_append (filters, filter);
  gtk_file_dialog_set_filters (dialog, G_LIST_MODEL (filters));
  /* "cpu.pb.gz" becomes "cpu.embers" */
  if (stem != NULL)
    {
      char *dot = strstr (stem, ".pb");

      if (dot == NULL)
        dot = strrchr (stem, '.');
      if (dot != NULL && dot != stem)
        *dot = '\0';
    }
  suggestion = g_strconcat (stem != NULL && stem[0] != '\0' ? stem : "view", ".embers", NULL);
  gtk_file_dialog_set_initial_name (dialog, suggestion);
  gtk_file_dialog_save (dialog, GTK_WINDOW (self), self->file_cancellable,
                        on_save_response, g_object_ref (self));
}

/* Opening */

typedef struct
{
  EmbersWindow      *window;
  EmbersProfilePage *page;   /* the tab that shows it, or its error */
  GFile             *file;
} Open;

static void
open_free (Open *open)
{
  g_clear_object (&open->window);
  g_clear_object (&open->page);
  g_clear_object (&open->file);
  g_free (open);
}

static void
load_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  Open *open = task_data;
  GError *error = NULL;
  EmbersSession *session = embers_session_load (open->file, cancellable, &error);

  if (session == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, session, (GDestroyNotify)embers_session_free);
}

static void
load_done (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  Open *open = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersSession) session = g_task_propagate_pointer (G_TASK (result), &error);
  g_autofree char *name = g_file_get_basename (open->file);
  EmbersWindow *self = open->window;
  AdwTabPage *tab;

  if (session == NULL)
    {
      if (gtk_widget_get_parent (GTK_WIDGET (open->page)) != NULL &&
          !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        embers_profile_page_show_error (open->page, name, error != NULL ? error->message : "");
      return;
    }

  tab = adw_tab_view_get_page (self->tab_view, GTK_WIDGET (open->page));
  if (tab == NULL)
    return;  /* closed meanwhile */

  if (session->baseline_file != NULL)
    {
      /* Two files compared: a comparison tab instead of this one */
      g_autoptr(GFile) baseline = g_file_new_for_path (session->baseline_file);
      g_autoptr(GFile) comparison = g_file_new_for_path (session->file);
      GtkWidget *compare = embers_window_open_comparison (self, baseline, comparison);

      embers_profile_page_restore_view (embers_compare_page_get_profile_page (EMBERS_COMPARE_PAGE (compare)),
                                        session);
      adw_tab_view_close_page (self->tab_view, tab);
      return;
    }

  embers_profile_page_restore_view (open->page, session);
  if (session->file != NULL)
    {
      g_autoptr(GFile) file = g_file_new_for_path (session->file);

      embers_profile_page_load (open->page, file, NULL);
    }
  else
    {
      /* A server's query: a query URL, its credentials from the keyring */
      g_autoptr(EmbersQuery) query = embers_query_new (session->profile_type, session->selector,
                                                      session->from_ms, session->until_ms);
      g_autofree char *url = embers_query_url_build (session->server, query);
      g_autoptr(GFile) location = embers_location_new_for_arg (url);

      embers_profile_page_load (open->page, location, NULL);
    }
}

void
embers_window_load_session (EmbersWindow      *self,
                            EmbersProfilePage *page,
                            GFile             *file)
{
  g_autoptr(GTask) task = NULL;
  Open *open;

  g_return_if_fail (EMBERS_IS_WINDOW (self));
  g_return_if_fail (EMBERS_IS_PROFILE_PAGE (page));
  g_return_if_fail (G_IS_FILE (file));

  open = g_new0 (Open, 1);
  open->window = g_object_ref (self);
  open->page = g_object_ref (page);
  open->file = g_object_ref (file);
  task = g_task_new (self, self->file_cancellable, load_done, NULL);
  g_task_set_source_tag (task, embers_window_load_session);
  g_task_set_task_data (task, open, (GDestroyNotify)open_free);
  g_task_run_in_thread (task, load_thread);
}
