/* embers-window-session.c: Save View… and opening a saved view
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A view file (.embers, docs/session-format.md) names where the profile
 * comes from (a file, two files compared, or a server's workspace) and
 * what the person did to it (embers-session.h). Saving writes one for the
 * tab shown; opening one (the Open dialog, `embers FILE.embers`, a drop)
 * reads it off the main thread and opens its source in a tab with that
 * view restored. A server's workspace reopens whole: one workspace tab
 * on the saved query and view, its flame graph's view, picked profile
 * and comparison (two queries, two files, or a file and a query),
 * connected with the credentials saved in the keyring for that server.
 * A server that wants credentials it was not given (401) gets the Connect
 * dialog, filled in with its address and tenant; once connected the view
 * opens, and Cancel leaves a tab that says what is missing and can ask
 * again.
 */

#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "embers-compare-page.h"
#include "embers-connect-client.h"
#include "embers-connect-dialog.h"
#include "embers-credentials.h"
#include "embers-explore-profiles.h"
#include "embers-labels-page.h"
#include "embers-location.h"
#include "embers-pyroscope-source.h"
#include "embers-query-url.h"
#include "embers-selector.h"
#include "embers-services-page.h"
#include "embers-session.h"
#include "embers-window-private.h"
#include "embers-workspace.h"

/* Saving */

/* A server's query into @session: its service and filters apart */
static void
session_set_query (EmbersSession     *session,
                   const EmbersQuery *query)
{
  g_clear_pointer (&session->profile_type, g_free);
  g_clear_pointer (&session->selector, g_free);
  g_clear_pointer (&session->service, g_free);
  g_clear_pointer (&session->filters, g_free);
  session->profile_type = g_strdup (query->profile_type);
  session->selector = g_strdup (query->label_selector != NULL && query->label_selector[0] != '\0'
                                ? query->label_selector : "{}");
  if (!embers_session_split_selector (session->selector, &session->service, &session->filters, NULL))
    session->filters = g_strdup ("{}");
  session->from_ms = query->start_ms;
  session->until_ms = query->end_ms;
}

static EmbersSessionSide *
side_for_query (const EmbersQuery *query)
{
  EmbersSessionSide *side = embers_session_side_new ();

  side->profile_type = g_strdup (query->profile_type);
  side->selector = g_strdup (query->label_selector != NULL && query->label_selector[0] != '\0'
                             ? query->label_selector : "{}");
  side->from_ms = query->start_ms;
  side->until_ms = query->end_ms;
  return side;
}

static EmbersSessionSide *
side_for_file (GFile *file)
{
  EmbersSessionSide *side = embers_session_side_new ();

  side->file = g_strdup (g_file_peek_path (file));
  return side;
}

/* One side of a compare page: a query on its source, or a local file
 * with its sample type; NULL for anything else (a query URL, unset) */
static EmbersSessionSide *
side_for_page (EmbersComparePage *compare,
               gboolean           comparison)
{
  g_autoptr(EmbersQuery) query = embers_compare_page_dup_query (compare, comparison);
  GFile *file = embers_compare_page_get_side_file (compare, comparison);
  EmbersSessionSide *side;

  if (query != NULL)
    return side_for_query (query);
  if (file == NULL || g_file_peek_path (file) == NULL)
    return NULL;
  side = side_for_file (file);
  side->sample_type = g_strdup (embers_compare_page_get_sample_type (compare, comparison));
  return side;
}

/* The comparison a compare page shows, both sides (each a query or a
 * local file) and its diff's view; FALSE when it has compared nothing it
 * can name (a side that is no query on its source and no local file) */
static gboolean
save_compare (EmbersComparePage *compare,
              EmbersSession     *session)
{
  g_autoptr(EmbersSessionSide) baseline = NULL;
  g_autoptr(EmbersSessionSide) comparison = NULL;
  EmbersProfilePage *page = embers_compare_page_get_profile_page (compare);

  if (embers_compare_page_get_diff (compare) == NULL)
    return FALSE;
  baseline = side_for_page (compare, FALSE);
  comparison = side_for_page (compare, TRUE);
  if (baseline == NULL || comparison == NULL)
    return FALSE;
  session->compare_baseline = g_steal_pointer (&baseline);
  session->compare_comparison = g_steal_pointer (&comparison);

  session->diff_mode = g_strdup (embers_compare_page_get_mode (compare) == EMBERS_DIFF_MODE_ABSOLUTE
                                 ? "absolute" : "share");
  session->diff = embers_session_new ();
  if (embers_profile_page_get_state (page) == EMBERS_PAGE_STATE_READY)
    embers_profile_page_save_view (page, session->diff);
  return TRUE;
}

/* The server of a source, without credentials; FALSE for another source */
static gboolean
save_server (EmbersSource  *source,
             EmbersSession *session)
{
  EmbersConnectClient *client;
  const char *tenant;

  if (!EMBERS_IS_PYROSCOPE_SOURCE (source))
    return FALSE;
  client = embers_pyroscope_source_get_client (EMBERS_PYROSCOPE_SOURCE (source));
  session->server = embers_session_clean_url (embers_connect_client_get_base_url (client));
  tenant = embers_connect_client_get_tenant (client);
  session->tenant = tenant != NULL && tenant[0] != '\0' ? g_strdup (tenant) : NULL;
  return session->server != NULL;
}

/* The names of the Labels view's views in a view file */
static const char * const labels_views[] = {
  [EMBERS_LABELS_VIEW_SERIES] = "series",
  [EMBERS_LABELS_VIEW_TOTAL] = "total",
  [EMBERS_LABELS_VIEW_MAXIMUM] = "maximum",
  [EMBERS_LABELS_VIEW_HISTOGRAM] = "histogram",
  [EMBERS_LABELS_VIEW_TABLE] = "table",
};

/* The Labels view's state, when it has been shown for this query (its
 * page is not made for saving), and the Services view's */
static void
save_labels_services (EmbersWorkspace *workspace,
                      EmbersSession   *session)
{
  GtkWidget *bin = adw_view_stack_get_child_by_name (embers_workspace_get_stack (workspace),
                                                     EMBERS_WORKSPACE_VIEW_LABELS);
  GtkWidget *child = ADW_IS_BIN (bin) ? adw_bin_get_child (ADW_BIN (bin)) : NULL;
  EmbersServicesPage *services = embers_workspace_get_services_page (workspace);

  if (EMBERS_IS_LABELS_PAGE (child))
    {
      EmbersLabelsPage *labels = EMBERS_LABELS_PAGE (child);
      EmbersLabelsView view = embers_labels_page_get_view (labels);
      const char *bl, *bv, *cl, *cv;

      session->has_labels = TRUE;
      session->labels_label = g_strdup (embers_labels_page_get_label (labels));
      session->labels_view = g_strdup (view < G_N_ELEMENTS (labels_views) ? labels_views[view] : NULL);
      session->labels_same_scale = embers_labels_page_get_same_scale (labels);
      embers_labels_page_get_marks (labels, &bl, &bv, &cl, &cv);
      session->labels_baseline_label = g_strdup (bl);
      session->labels_baseline_value = g_strdup (bv);
      session->labels_comparison_label = g_strdup (cl);
      session->labels_comparison_value = g_strdup (cv);
    }

  if (services != NULL)
    {
      const char *filter = embers_services_page_get_filter (services, &session->services_filter_regex);

      session->has_services = TRUE;
      session->services_filter = filter != NULL && filter[0] != '\0' ? g_strdup (filter) : NULL;
      session->services_sort = g_strdup (embers_services_page_get_sort (services) == EMBERS_SERVICE_SORT_TOTAL
                                         ? "total" : "name");
    }
}

/* A server's workspace: the query, the view shown, the flame graph's
 * view and picked profile, the comparison */
static gboolean
save_workspace (EmbersWorkspace *workspace,
                EmbersSession   *session,
                char           **stem)
{
  EmbersQueryModel *model = embers_workspace_get_query (workspace);
  EmbersExplorePage *explore = embers_workspace_get_explore_page (workspace);
  EmbersProfilePage *page = embers_explore_page_get_profile_page (explore);
  EmbersProfilesBar *bar = embers_explore_page_get_profiles_bar (explore);
  const EmbersExemplar *picked = bar != NULL ? embers_profiles_bar_get_picked (bar) : NULL;

  if (!save_server (embers_workspace_get_source (workspace), session))
    return FALSE;

  session->workspace_view = g_strdup (embers_workspace_get_view (workspace));
  session->service = g_strdup (embers_query_model_get_service (model));
  session->profile_type = g_strdup (embers_query_model_get_profile_type (model));
  session->filters = embers_selector_to_string (embers_query_model_get_filters (model));
  session->selector = embers_query_model_dup_selector (model);
  session->from_ms = embers_query_model_get_start_ms (model);
  session->until_ms = embers_query_model_get_end_ms (model);
  if (session->from_ms < 0 || session->until_ms <= session->from_ms)
    session->from_ms = session->until_ms = 0;

  if (embers_profile_page_get_state (page) == EMBERS_PAGE_STATE_READY)
    embers_profile_page_save_view (page, session);
  if (picked != NULL)
    {
      session->profile_id = g_strdup (picked->profile_id);
      session->profile_time_ms = MAX (picked->timestamp_ms, 0);
      session->profile_value = picked->value;
    }
  save_compare (embers_workspace_get_compare_page (workspace), session);
  save_labels_services (workspace, session);

  *stem = embers_query_model_dup_file_stem (model);
  if (*stem == NULL)
    *stem = embers_file_name_make_safe (embers_workspace_get_title (workspace));
  return TRUE;
}

/* The tab shown as a view file, and a name for the file; NULL (and
 * @error) when the tab cannot be saved */
static EmbersSession *
session_for_tab (EmbersWindow  *self,
                 char         **stem_out,
                 GError       **error)
{
  AdwTabView *tab_view = self->tab_view;
  AdwTabPage *tab = adw_tab_view_get_selected_page (tab_view);
  GtkWidget *child = tab != NULL ? adw_tab_page_get_child (tab) : NULL;
  g_autoptr(EmbersSession) session = embers_session_new ();
  EmbersProfilePage *page = NULL;
  g_autofree char *stem = NULL;
  gboolean ok = FALSE;

  if (EMBERS_IS_WORKSPACE (child))
    ok = save_workspace (EMBERS_WORKSPACE (child), session, &stem);
  else if (EMBERS_IS_COMPARE_PAGE (child))
    {
      EmbersComparePage *compare = EMBERS_COMPARE_PAGE (child);
      GFile *baseline = NULL, *comparison = NULL;

      page = embers_compare_page_get_profile_page (compare);
      if (embers_compare_page_get_files (compare, &baseline, &comparison) &&
          g_file_peek_path (baseline) != NULL && g_file_peek_path (comparison) != NULL)
        {
          /* Two files compared (version 1's comparison) */
          session->baseline_file = g_strdup (g_file_peek_path (baseline));
          session->file = g_strdup (g_file_peek_path (comparison));
          stem = g_file_get_basename (comparison);
          ok = embers_profile_page_get_state (page) == EMBERS_PAGE_STATE_READY;
          if (ok)
            embers_profile_page_save_view (page, session);
        }
      else if (save_server (embers_compare_page_get_source (compare), session) &&
               save_compare (compare, session))
        {
          /* Two queries on one server, or a file and a query: that
           * server's workspace, on its Compare view, the comparison's
           * query the workspace's (else the baseline's) */
          g_autoptr(EmbersQuery) query = embers_compare_page_dup_query (compare, TRUE);

          if (query == NULL)
            query = embers_compare_page_dup_query (compare, FALSE);
          if (query != NULL)
            session_set_query (session, query);
          session->workspace_view = g_strdup (EMBERS_WORKSPACE_VIEW_COMPARE);
          stem = g_strdup (session->service != NULL ? session->service : "comparison");
          ok = TRUE;
        }
    }
  else if (EMBERS_IS_PROFILE_PAGE (child))
    {
      GFile *file = embers_profile_page_get_file (EMBERS_PROFILE_PAGE (child));

      page = EMBERS_PROFILE_PAGE (child);
      if (embers_profile_page_get_state (page) != EMBERS_PAGE_STATE_READY)
        ok = FALSE;
      else if (file != NULL && g_file_peek_path (file) != NULL)
        {
          session->file = g_strdup (g_file_peek_path (file));
          stem = g_file_get_basename (file);
          embers_profile_page_save_view (page, session);
          ok = TRUE;
        }
      else if (file != NULL)
        {
          g_autofree char *uri = g_file_get_uri (file);
          g_autoptr(EmbersQueryUrl) url = embers_query_url_is_url (uri)
            ? embers_query_url_parse (uri, g_get_real_time () / 1000, NULL) : NULL;

          if (url != NULL && url->span_ids == NULL && url->trace_ids == NULL)
            {
              /* A query URL: its server's workspace on the Flame Graph
               * view. The base URL only: the user and password stay
               * behind. */
              session->server = embers_session_clean_url (url->base_url);
              session_set_query (session, url->query);
              session->workspace_view = g_strdup (EMBERS_WORKSPACE_VIEW_FLAME_GRAPH);
              stem = g_strdup (embers_profile_page_get_title (page));
              embers_profile_page_save_view (page, session);
              ok = session->server != NULL;
            }
        }
    }

  if (!ok)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                           _("Only a loaded profile file, a comparison or a server’s tab can be saved as a view"));
      return NULL;
    }

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
  EmbersSession *session;

  g_return_if_fail (EMBERS_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));

  session = session_for_tab (self, &stem, &error);
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

  /* Say at once when this tab cannot be saved, before any dialog */
  session = session_for_tab (self, &stem, &error);
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
  EmbersWindow          *window;
  EmbersProfilePage     *page;     /* the tab that shows it, or its error */
  GtkWidget             *waiting;  /* else the tab that waits for credentials
                                    * (not a reference: it owns this) */
  GFile                 *file;
  EmbersSession         *session;  /* once read */
  EmbersPyroscopeSource *source;   /* a server's, while it is probed */
  GCancellable          *cancellable;
  /* A server that wants credentials: what was tried (the user name, never
   * the secret), and the Connect dialog while it asks */
  EmbersAuthKind         tried_kind;
  char                  *tried_user;
  EmbersConnectDialog   *dialog;
} Open;

static void
forget_dialog (Open *open)
{
  if (open->dialog == NULL)
    return;
  g_signal_handlers_disconnect_by_data (open->dialog, open);
  g_clear_object (&open->dialog);
}

static void
open_free (Open *open)
{
  /* The dialog asks for nothing any more (its tab was closed) */
  if (open->dialog != NULL)
    {
      EmbersConnectDialog *dialog = g_object_ref (open->dialog);

      forget_dialog (open);
      adw_dialog_force_close (ADW_DIALOG (dialog));
      g_object_unref (dialog);
    }
  g_clear_object (&open->window);
  g_clear_object (&open->page);
  g_clear_object (&open->file);
  g_clear_pointer (&open->session, embers_session_free);
  g_clear_object (&open->source);
  g_clear_object (&open->cancellable);
  g_free (open->tried_user);
  g_free (open);
}

/* The widget of the tab that stands for the view while it opens */
static GtkWidget *
open_tab_child (Open *open)
{
  return open->waiting != NULL ? open->waiting : GTK_WIDGET (open->page);
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

/* The placeholder tab says why the view could not open */
static void
open_failed (Open       *open,
             const char *message)
{
  g_autofree char *name = g_file_get_basename (open->file);

  if (gtk_widget_get_parent (GTK_WIDGET (open->page)) != NULL)
    embers_profile_page_show_error (open->page, name, message);
}

static EmbersQuery *
query_for_side (const EmbersSessionSide *side)
{
  return embers_query_new (side->profile_type, side->selector, side->from_ms, side->until_ms);
}

/* A server's workspace in the saved state: the query as one change,
 * the flame graph's view and picked profile (applied once loaded), the
 * comparison (run again), then the view that was shown */
static void
restore_workspace (EmbersWorkspace     *workspace,
                   const EmbersSession *session)
{
  EmbersQueryModel *model = embers_workspace_get_query (workspace);
  EmbersExplorePage *explore = embers_workspace_get_explore_page (workspace);
  EmbersComparePage *compare = embers_workspace_get_compare_page (workspace);
  g_autoptr(EmbersSelector) filters = NULL;

  filters = session->filters != NULL ? embers_selector_parse (session->filters, NULL, NULL) : NULL;
  embers_query_model_begin_update (model);
  if (session->service != NULL)
    embers_query_model_set_service (model, session->service);
  if (session->profile_type != NULL)
    embers_query_model_set_profile_type (model, session->profile_type);
  embers_query_model_set_filters (model, filters);
  if (session->until_ms > session->from_ms)
    embers_query_model_set_time_range (model, session->from_ms, session->until_ms);
  embers_query_model_end_update (model);

  embers_profile_page_restore_view (embers_explore_page_get_profile_page (explore), session);
  if (session->profile_id != NULL)
    {
      g_autoptr(EmbersExemplar) picked = embers_exemplar_new (0, session->profile_time_ms, session->profile_id,
                                                              session->profile_value);

      embers_profiles_bar_restore_pick (embers_explore_page_get_profiles_bar (explore), picked);
    }

  if (session->compare_baseline != NULL && session->compare_comparison != NULL)
    {
      embers_compare_page_set_mode (compare, g_strcmp0 (session->diff_mode, "absolute") == 0
                                             ? EMBERS_DIFF_MODE_ABSOLUTE : EMBERS_DIFF_MODE_SHARE);
      if (session->diff != NULL)
        embers_profile_page_restore_view (embers_compare_page_get_profile_page (compare), session->diff);
      if (session->compare_baseline->file == NULL && session->compare_comparison->file == NULL)
        {
          g_autoptr(EmbersQuery) baseline = query_for_side (session->compare_baseline);
          g_autoptr(EmbersQuery) comparison = query_for_side (session->compare_comparison);

          embers_workspace_compare (workspace, baseline, comparison, TRUE);
        }
      else
        {
          /* Files, or a file and a query (either way round): the query
           * side as the workspace prefills it, the file side with its
           * sample type, then compared */
          const EmbersSessionSide *sides[2] = { session->compare_baseline, session->compare_comparison };
          g_autoptr(EmbersQuery) baseline = sides[0]->file == NULL ? query_for_side (sides[0]) : NULL;
          g_autoptr(EmbersQuery) comparison = sides[1]->file == NULL ? query_for_side (sides[1]) : NULL;

          embers_workspace_compare (workspace, baseline, comparison, FALSE);
          for (guint i = 0; i < 2; i++)
            if (sides[i]->file != NULL)
              {
                g_autoptr(GFile) file = g_file_new_for_path (sides[i]->file);

                embers_compare_page_set_side_file (compare, i == 1, file, sides[i]->sample_type);
              }
          embers_compare_page_compare (compare);
        }
    }

  if (session->has_services)
    {
      EmbersServicesPage *services = embers_workspace_get_services_page (workspace);

      embers_services_page_set_filter (services, session->services_filter, session->services_filter_regex);
      if (session->services_sort != NULL)
        embers_services_page_set_sort (services, g_str_equal (session->services_sort, "total")
                                                 ? EMBERS_SERVICE_SORT_TOTAL : EMBERS_SERVICE_SORT_NAME);
    }

  if (!embers_workspace_show_view (workspace, session->workspace_view != NULL
                                              ? session->workspace_view : EMBERS_WORKSPACE_VIEW_FLAME_GRAPH))
    embers_workspace_show_view (workspace, EMBERS_WORKSPACE_VIEW_FLAME_GRAPH);

  /* The Labels view's state, on the page made for the query (none
   * without a service and a type picked) */
  if (session->has_labels)
    {
      EmbersLabelsPage *labels = embers_workspace_get_labels_page (workspace);

      if (labels != NULL)
        {
          if (session->labels_label != NULL)
            embers_labels_page_prefer_label (labels, session->labels_label);
          for (guint i = 0; session->labels_view != NULL && i < G_N_ELEMENTS (labels_views); i++)
            if (g_str_equal (session->labels_view, labels_views[i]))
              embers_labels_page_set_view (labels, (EmbersLabelsView)i);
          embers_labels_page_set_same_scale (labels, session->labels_same_scale);
          embers_labels_page_restore_marks (labels, session->labels_baseline_label, session->labels_baseline_value,
                                            session->labels_comparison_label, session->labels_comparison_value);
        }
    }
  /* Back does not go to the empty tab the view was restored in */
  embers_workspace_restart_history (workspace);
}

/* The server is connected: one workspace tab in the saved state, where
 * the placeholder (or the tab waiting for credentials) was. Frees @open. */
static void
open_workspace_tab (Open *open)
{
  EmbersWindow *self = open->window;
  AdwTabPage *tab = adw_tab_view_get_page (self->tab_view, open_tab_child (open));
  GtkWidget *explore;
  int position;

  if (tab == NULL)
    {
      /* Closed meanwhile */
      open_free (open);
      return;
    }

  position = adw_tab_view_get_page_position (self->tab_view, tab);
  explore = embers_window_open_explore (self, EMBERS_SOURCE (open->source), NULL);
  adw_tab_view_close_page (self->tab_view, tab);
  adw_tab_view_reorder_page (self->tab_view,
                             adw_tab_view_get_page (self->tab_view,
                                                    gtk_widget_get_ancestor (explore, EMBERS_TYPE_WORKSPACE)),
                             position);
  restore_workspace (EMBERS_WORKSPACE (gtk_widget_get_ancestor (explore, EMBERS_TYPE_WORKSPACE)), open->session);
  open_free (open);
}

static void ask_credentials (Open *open);

static void
connect_again_clicked (GtkButton *button,
                       GtkWidget *waiting)
{
  Open *open = g_object_get_data (G_OBJECT (waiting), "embers-open");

  if (open != NULL && open->dialog == NULL)
    ask_credentials (open);
}

/* Cancel in the Connect dialog: the tab keeps the view, says what it
 * lacks and offers to connect again */
static void
show_waiting (Open *open)
{
  EmbersWindow *self = open->window;
  AdwTabPage *tab = adw_tab_view_get_page (self->tab_view, open_tab_child (open));
  g_autofree char *name = g_file_get_basename (open->file);
  g_autofree char *description = NULL;
  GtkWidget *status, *button;
  AdwTabPage *waiting_tab;
  int position;

  if (gtk_widget_in_destruction (GTK_WIDGET (self)))
    tab = NULL;
  if (tab == NULL || open->waiting != NULL)
    {
      /* Closed meanwhile, or already waiting (its tab owns @open) */
      if (tab == NULL && open->waiting == NULL)
        open_free (open);
      return;
    }

  status = adw_status_page_new ();
  adw_status_page_set_icon_name (ADW_STATUS_PAGE (status), "dialog-password-symbolic");
  adw_status_page_set_title (ADW_STATUS_PAGE (status), _("Credentials Needed"));
  if (open->tried_kind == EMBERS_AUTH_NONE)
    /* Translators: on the tab of a saved view whose server asks for a
     * password; the first %s is the server's address (without any
     * credentials), the second the view file's name */
    description = g_markup_printf_escaped (_("The server %s needs a user name and password or a token to open “%s”, "
                                            "and none is saved in the keyring. Connect to open the view."),
                                          open->session->server, name);
  else
    /* Translators: on the tab of a saved view whose server refused the
     * credentials from the keyring or the environment; the first %s is
     * the server's address (without any credentials), the second the
     * view file's name */
    description = g_markup_printf_escaped (_("The server %s refused the credentials it was given for “%s”. "
                                            "Connect with others to open the view."),
                                          open->session->server, name);
  adw_status_page_set_description (ADW_STATUS_PAGE (status), description);
  button = gtk_button_new_with_mnemonic (_("_Connect…"));
  gtk_widget_set_halign (button, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (button, "pill");
  gtk_widget_add_css_class (button, "suggested-action");
  gtk_widget_set_name (button, "session-connect");
  adw_status_page_set_child (ADW_STATUS_PAGE (status), button);

  position = adw_tab_view_get_page_position (self->tab_view, tab);
  waiting_tab = adw_tab_view_insert (self->tab_view, status, position);
  adw_tab_page_set_title (waiting_tab, name);
  adw_tab_page_set_tooltip (waiting_tab, open->session->server);
  adw_tab_page_set_icon (waiting_tab, NULL);
  adw_tab_view_set_selected_page (self->tab_view, waiting_tab);
  adw_tab_view_close_page (self->tab_view, tab);

  open->waiting = status;
  g_clear_object (&open->page);
  /* The tab owns the view until it opens, or is closed */
  g_object_set_data_full (G_OBJECT (status), "embers-open", open, (GDestroyNotify)open_free);
  g_signal_connect (button, "clicked", G_CALLBACK (connect_again_clicked), status);
  gtk_widget_grab_focus (button);
}

static void
dialog_connected (EmbersConnectDialog *dialog,
                  EmbersSource        *source,
                  const char          *url,
                  Open                *open)
{
  forget_dialog (open);
  g_clear_object (&open->source);
  open->source = g_object_ref (EMBERS_PYROSCOPE_SOURCE (source));
  /* The waiting tab gives @open back: it is closed for the workspace */
  if (open->waiting != NULL)
    g_object_steal_data (G_OBJECT (open->waiting), "embers-open");
  open_workspace_tab (open);
}

static void
dialog_closed (EmbersConnectDialog *dialog,
               Open                *open)
{
  forget_dialog (open);
  show_waiting (open);
}

/* The server wants credentials that neither the keyring nor the
 * environment had (or refused them): the Connect dialog, filled in with
 * the server and tenant; the person types the secret, which the dialog
 * keeps in the keyring. Connected, the view opens; Cancel leaves a tab
 * that can ask again. */
static void
ask_credentials (Open *open)
{
  EmbersConnectDialog *dialog = embers_connect_dialog_new ();

  open->dialog = g_object_ref_sink (dialog);
  embers_connect_dialog_set_url (dialog, open->session->server);
  embers_connect_dialog_set_tenant (dialog, open->session->tenant);
  /* A password behind a proxy is the usual case; a refused user's name
   * is kept, never a secret */
  embers_connect_dialog_set_auth (dialog, open->tried_kind != EMBERS_AUTH_NONE ? open->tried_kind : EMBERS_AUTH_BASIC,
                                  open->tried_user, NULL);
  g_signal_connect (dialog, "connected", G_CALLBACK (dialog_connected), open);
  g_signal_connect (dialog, "closed", G_CALLBACK (dialog_closed), open);
  adw_dialog_present (ADW_DIALOG (dialog), GTK_WIDGET (open->window));
}

static void
probe_done (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  Open *open = user_data;
  g_autoptr(GError) error = NULL;

  if (!embers_pyroscope_source_probe_finish (EMBERS_PYROSCOPE_SOURCE (object), result, &error))
    {
      if (g_error_matches (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_UNAUTHENTICATED) &&
          adw_tab_view_get_page (open->window->tab_view, open_tab_child (open)) != NULL)
        {
          ask_credentials (open);
          return;
        }
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        open_failed (open, error->message);
      open_free (open);
      return;
    }
  open_workspace_tab (open);
}

/* The timeout Connect to Server keeps for @url (GSettings, by the
 * normalised URL), else the default */
static guint
saved_timeout (const char *url)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = source != NULL ? g_settings_schema_source_lookup (source, APP_ID, TRUE) : NULL;
  g_autoptr(GSettings) settings = NULL;
  g_autoptr(GVariant) saved = NULL;
  g_autofree char *key = embers_connect_normalize_base_url (url, NULL);
  guint seconds = EMBERS_CONNECT_DEFAULT_TIMEOUT_S;

  if (schema == NULL || key == NULL || !g_settings_schema_has_key (schema, "server-timeouts"))
    return seconds;
  settings = g_settings_new (APP_ID);
  saved = g_settings_get_value (settings, "server-timeouts");
  if (!g_variant_lookup (saved, key, "u", &seconds))
    seconds = EMBERS_CONNECT_DEFAULT_TIMEOUT_S;
  return seconds;
}

/* The server's credentials: as a query URL takes them, from the
 * environment, else from the keyring entry saved for that server */
static void
lookup_done (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  Open *open = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersCredentials) credentials = embers_credentials_lookup_finish (result, &error);
  g_autoptr(EmbersConnectClient) client = NULL;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      open_free (open);
      return;
    }
  client = embers_connect_client_new (open->session->server, &error);
  if (client == NULL)
    {
      open_failed (open, error->message);
      open_free (open);
      return;
    }
  if (credentials == NULL)
    credentials = embers_credentials_from_environment ();
  if (credentials != NULL)
    {
      embers_credentials_apply (credentials, client);
      open->tried_kind = credentials->kind;
      open->tried_user = g_strdup (credentials->user);
    }
  /* The file's tenant is the one the view was saved in */
  if (open->session->tenant != NULL)
    embers_connect_client_set_tenant (client, open->session->tenant);
  /* The timeout as Connect to Server keeps it for this server */
  embers_connect_client_set_timeout (client, saved_timeout (open->session->server));
  /* Translators: names the setting in “… raise the timeout (%s)” */
  embers_connect_client_set_timeout_setting (client, _("Timeout in Connect to Server"));
  open->source = embers_pyroscope_source_new (client);
  embers_pyroscope_source_probe_async (open->source, open->cancellable, probe_done, open);
}

static void
load_done (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  Open *open = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersSession) session = g_task_propagate_pointer (G_TASK (result), &error);
  EmbersWindow *self = open->window;
  AdwTabPage *tab;

  if (session == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        open_failed (open, error != NULL ? error->message : "");
      open_free (open);
      return;
    }

  tab = adw_tab_view_get_page (self->tab_view, GTK_WIDGET (open->page));
  if (tab == NULL)
    {
      open_free (open);
      return;  /* closed meanwhile */
    }

  if (session->server != NULL)
    {
      /* A server's workspace: connect (credentials from the keyring),
       * then one workspace tab in this one's place */
      open->session = g_steal_pointer (&session);
      embers_credentials_lookup_async (open->session->server, NULL, open->cancellable, lookup_done, open);
      return;
    }

  if (session->baseline_file != NULL)
    {
      /* Two files compared: a comparison tab instead of this one */
      g_autoptr(GFile) baseline = g_file_new_for_path (session->baseline_file);
      g_autoptr(GFile) comparison = g_file_new_for_path (session->file);
      GtkWidget *compare = embers_window_open_comparison (self, baseline, comparison);

      embers_profile_page_restore_view (embers_compare_page_get_profile_page (EMBERS_COMPARE_PAGE (compare)),
                                        session);
      adw_tab_view_close_page (self->tab_view, tab);
      open_free (open);
      return;
    }

  {
    g_autoptr(GFile) file = g_file_new_for_path (session->file);

    embers_profile_page_restore_view (open->page, session);
    embers_profile_page_load (open->page, file, NULL);
  }
  open_free (open);
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
  open->cancellable = g_object_ref (self->file_cancellable);
  task = g_task_new (self, self->file_cancellable, load_done, open);
  g_task_set_source_tag (task, embers_window_load_session);
  g_task_set_task_data (task, open, NULL);
  g_task_run_in_thread (task, load_thread);
}
