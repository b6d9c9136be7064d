/* embers-window.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "embers-compare-page.h"
#include "embers-connect-dialog.h"
#include "embers-accessible.h"
#include "embers-explore-page.h"
#include "embers-local-source.h"
#include "embers-pyroscope-source.h"
#include "embers-rules-page.h"
#include "embers-text.h"
#include "embers-workspace.h"
#include "embers-session.h"
#include "embers-window-private.h"

G_DEFINE_FINAL_TYPE (EmbersWindow, embers_window, ADW_TYPE_APPLICATION_WINDOW)

#define SAMPLE_RESOURCE "resource:///io/github/emberslab/Embers/samples/sample-cpu.pb.gz"

GFile *
embers_window_get_sample_file (void)
{
  g_autofree char *path = g_build_filename (PKGDATADIR, "samples", "sample-cpu.pb.gz", NULL);

  /* The installed copy when there is one, else the one in our resources
   * (an uninstalled build) */
  if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
    return g_file_new_for_path (path);
  return g_file_new_for_uri (SAMPLE_RESOURCE);
}

static GSettings *
settings_new (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;

  if (source != NULL)
    schema = g_settings_schema_source_lookup (source, APP_ID, TRUE);
  if (schema == NULL)
    {
      g_debug ("The settings schema %s is not installed; settings are not kept", APP_ID);
      return NULL;
    }
  return g_settings_new (APP_ID);
}

/* Pages: a tab holds a profile page, or an explore or compare page
 * around one */

static EmbersProfilePage *
profile_page_of (GtkWidget *child)
{
  if (EMBERS_IS_WORKSPACE (child))
    return embers_workspace_get_profile_page (EMBERS_WORKSPACE (child));
  if (EMBERS_IS_EXPLORE_PAGE (child))
    return embers_explore_page_get_profile_page (EMBERS_EXPLORE_PAGE (child));
  if (EMBERS_IS_COMPARE_PAGE (child))
    return embers_compare_page_get_profile_page (EMBERS_COMPARE_PAGE (child));
  if (EMBERS_IS_PROFILE_PAGE (child))
    return EMBERS_PROFILE_PAGE (child);
  return NULL;
}

EmbersProfilePage *
embers_window_get_current_page (EmbersWindow *self)
{
  AdwTabPage *page;

  g_return_val_if_fail (EMBERS_IS_WINDOW (self), NULL);

  page = adw_tab_view_get_selected_page (self->tab_view);
  if (page == NULL)
    return NULL;
  return profile_page_of (adw_tab_page_get_child (page));
}

guint
embers_window_get_n_pages (EmbersWindow *self)
{
  g_return_val_if_fail (EMBERS_IS_WINDOW (self), 0);
  return adw_tab_view_get_n_pages (self->tab_view);
}

static void
update_title (EmbersWindow *self)
{
  EmbersProfilePage *page = embers_window_get_current_page (self);
  const char *title = page != NULL ? embers_profile_page_get_title (page) : NULL;
  AdwTabPage *tab = adw_tab_view_get_selected_page (self->tab_view);

  /* A server's Services view: the server, not the service behind it */
  if (tab != NULL && EMBERS_IS_WORKSPACE (adw_tab_page_get_child (tab)) &&
      g_strcmp0 (embers_workspace_get_view (EMBERS_WORKSPACE (adw_tab_page_get_child (tab))),
                 EMBERS_WORKSPACE_VIEW_SERVICES) == 0)
    title = embers_workspace_get_tooltip (EMBERS_WORKSPACE (adw_tab_page_get_child (tab)));
  /* Explore, labels and rules tabs: what their tab says */
  if ((title == NULL || title[0] == '\0') && tab != NULL)
    title = adw_tab_page_get_title (tab);
  if (title != NULL && title[0] == '\0')
    title = NULL;

  adw_window_title_set_subtitle (self->window_title, title != NULL ? title : "");
  if (title != NULL)
    {
      /* Translators: window title; %s is a file name */
      g_autofree char *full = g_strdup_printf (_("%s — Embers"), title);

      gtk_window_set_title (GTK_WINDOW (self), full);
    }
  else
    {
      gtk_window_set_title (GTK_WINDOW (self), _("Embers"));
    }
}

/* A compact workspace (narrow: its own bar hidden) has its back, forward
 * and views in the header, in place of the title; the header follows the
 * selected workspace through a binding group */
static EmbersWorkspace *
selected_workspace (EmbersWindow *self)
{
  AdwTabPage *tab = adw_tab_view_get_selected_page (self->tab_view);
  GtkWidget *child = tab != NULL ? adw_tab_page_get_child (tab) : NULL;

  return EMBERS_IS_WORKSPACE (child) ? EMBERS_WORKSPACE (child) : NULL;
}

static gboolean
compact_to_title (GBinding     *binding,
                  const GValue *from,
                  GValue       *to,
                  gpointer      user_data)
{
  g_value_set_string (to, g_value_get_boolean (from) ? "views" : "title");
  return TRUE;
}

static void
update_header (EmbersWindow *self)
{
  EmbersWorkspace *workspace = selected_workspace (self);

  adw_inline_view_switcher_set_stack (self->header_switcher,
                                      workspace != NULL ? embers_workspace_get_stack (workspace) : NULL);
  g_binding_group_set_source (self->workspace_bindings, workspace);
  if (workspace == NULL)
    gtk_stack_set_visible_child_name (self->title_stack, "title");
}

static void
view_back_clicked (EmbersWindow *self)
{
  EmbersWorkspace *workspace = selected_workspace (self);

  if (workspace != NULL)
    embers_workspace_go_back (workspace);
}

static void
view_forward_clicked (EmbersWindow *self)
{
  EmbersWorkspace *workspace = selected_workspace (self);

  if (workspace != NULL)
    embers_workspace_go_forward (workspace);
}

static void
on_selected_page_changed (EmbersWindow *self)
{
  AdwTabPage *tab = adw_tab_view_get_selected_page (self->tab_view);

  update_header (self);

  /* Follow the selected tab's title (a service picked, a comparison run) */
  if (self->titled_tab != NULL)
    g_signal_handlers_disconnect_by_func (self->titled_tab, update_title, self);
  g_set_weak_pointer (&self->titled_tab, tab);
  if (tab != NULL)
    g_signal_connect_object (tab, "notify::title", G_CALLBACK (update_title), self, G_CONNECT_SWAPPED);
  update_title (self);
  embers_window_update_actions (self);
}

static void
on_n_pages_changed (EmbersWindow *self)
{
  gboolean empty = adw_tab_view_get_n_pages (self->tab_view) == 0;

  gtk_stack_set_visible_child_name (self->stack, empty ? "empty" : "tabs");
  if (empty)
    gtk_widget_grab_focus (GTK_WIDGET (self->open_button));
  embers_window_update_actions (self);
}

static void
on_page_state_changed (EmbersWindow      *self,
                       GParamSpec        *pspec,
                       EmbersProfilePage *page);
static void
on_page_title_changed (EmbersWindow      *self,
                       GParamSpec        *pspec,
                       EmbersProfilePage *page);

static void
on_page_attached (EmbersWindow *self,
                  AdwTabPage   *tab,
                  int           position)
{
  GtkWidget *child = adw_tab_page_get_child (tab);
  EmbersProfilePage *page;

  /* A compare page's diff names the window */
  if (EMBERS_IS_COMPARE_PAGE (child))
    {
      page = embers_compare_page_get_profile_page (EMBERS_COMPARE_PAGE (child));
      g_signal_connect_object (page, "notify::title",
                               G_CALLBACK (on_page_title_changed), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (page, "notify::state",
                               G_CALLBACK (embers_window_update_actions), self, G_CONNECT_SWAPPED);
      return;
    }

  /* A workspace: the flame graph's and the diff's pages name the window
   * and enable its actions, whichever view shows */
  if (EMBERS_IS_WORKSPACE (child))
    {
      EmbersProfilePage *pages[2] = {
        embers_explore_page_get_profile_page (embers_workspace_get_explore_page (EMBERS_WORKSPACE (child))),
        embers_compare_page_get_profile_page (embers_workspace_get_compare_page (EMBERS_WORKSPACE (child))),
      };

      for (guint i = 0; i < 2; i++)
        {
          g_signal_connect_object (pages[i], "notify::title",
                                   G_CALLBACK (on_page_title_changed), self, G_CONNECT_SWAPPED);
          g_signal_connect_object (pages[i], "notify::state",
                                   G_CALLBACK (embers_window_update_actions), self, G_CONNECT_SWAPPED);
        }
      g_signal_connect_object (child, "notify::view",
                               G_CALLBACK (embers_window_update_actions), self, G_CONNECT_SWAPPED);
      return;
    }

  /* An explore page keeps its own tab title and loading state */
  if (!EMBERS_IS_PROFILE_PAGE (child))
    return;

  page = EMBERS_PROFILE_PAGE (child);
  g_signal_connect_object (page, "notify::state",
                           G_CALLBACK (on_page_state_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (page, "notify::title",
                           G_CALLBACK (on_page_title_changed), self, G_CONNECT_SWAPPED);
}

static void
on_page_detached (EmbersWindow *self,
                  AdwTabPage   *tab,
                  int           position)
{
  GtkWidget *child = adw_tab_page_get_child (tab);

  /* Closed, or moved to another window: it no longer talks to this one */
  g_signal_handlers_disconnect_by_data (child, self);
  if (EMBERS_IS_COMPARE_PAGE (child))
    g_signal_handlers_disconnect_by_data (embers_compare_page_get_profile_page (EMBERS_COMPARE_PAGE (child)),
                                          self);
}

static gboolean
on_close_page (EmbersWindow *self,
               AdwTabPage   *tab)
{
  /* A closed tab stops its work; the default handler closes it */
  GtkWidget *child = adw_tab_page_get_child (tab);
  EmbersProfilePage *page = profile_page_of (child);

  if (EMBERS_IS_COMPARE_PAGE (child))
    embers_compare_page_cancel (EMBERS_COMPARE_PAGE (child));
  if (page != NULL)
    embers_profile_page_cancel (page);
  return GDK_EVENT_PROPAGATE;
}

static void
on_page_state_changed (EmbersWindow      *self,
                       GParamSpec        *pspec,
                       EmbersProfilePage *page)
{
  AdwTabPage *tab = adw_tab_view_get_page (self->tab_view, GTK_WIDGET (page));

  /* A cancelled load leaves nothing to show */
  if (embers_profile_page_get_state (page) == EMBERS_PAGE_STATE_CANCELLED && tab != NULL)
    adw_tab_view_close_page (self->tab_view, tab);
  embers_window_update_actions (self);
}

static void
on_page_title_changed (EmbersWindow      *self,
                       GParamSpec        *pspec,
                       EmbersProfilePage *page)
{
  if (page == embers_window_get_current_page (self))
    update_title (self);
}

/* A new tab for @page */
static EmbersProfilePage *
append_page (EmbersWindow      *self,
             EmbersProfilePage *page)
{
  AdwTabPage *tab;

  tab = adw_tab_view_append (self->tab_view, GTK_WIDGET (page));
  g_object_bind_property (page, "title", tab, "title", G_BINDING_SYNC_CREATE);
  g_object_bind_property (page, "busy", tab, "loading", G_BINDING_SYNC_CREATE);
  adw_tab_view_set_selected_page (self->tab_view, tab);
  return page;
}

static EmbersProfilePage *
add_page (EmbersWindow *self)
{
  return append_page (self, embers_profile_page_new ());
}

/* A file's name for people: a URL's password masked */
static char *
mask_parse_name (GFile *file)
{
  g_autofree char *name = g_file_get_parse_name (file);

  return embers_text_mask_credentials (name);
}

EmbersProfilePage *
embers_window_open_file (EmbersWindow *self,
                         GFile        *file)
{
  EmbersProfilePage *page;
  AdwTabPage *tab;
  g_autofree char *name = NULL;
  g_autofree char *tooltip = NULL;

  g_return_val_if_fail (EMBERS_IS_WINDOW (self), NULL);
  g_return_val_if_fail (G_IS_FILE (file), NULL);

  /* A profile starts loading before its page is built */
  if (embers_session_is_session_file (file))
    page = add_page (self);
  else
    {
      /* The spare page made ahead, if there is one: the tab holds it,
       * this reference goes */
      g_autoptr(EmbersProfilePage) spare = embers_window_take_spare_page (self);

      page = append_page (self, embers_profile_page_new_for_file_in (file, spare));
    }
  tab = adw_tab_view_get_page (self->tab_view, GTK_WIDGET (page));
  /* A query URL's password is never shown */
  name = mask_parse_name (file);
  /* The tooltip is markup: file names and URLs may hold & and < */
  tooltip = g_markup_escape_text (name, -1);
  adw_tab_page_set_tooltip (tab, tooltip);
  /* A saved view: its source opens in this tab (or a comparison's) */
  if (embers_session_is_session_file (file))
    embers_window_load_session (self, page, file);
  update_title (self);
  return page;
}

/* Explore a Pyroscope server (or any source) in a new tab: a workspace
 * of four views on one query; the flame graph view is returned */
GtkWidget *
embers_window_open_explore (EmbersWindow *self,
                            EmbersSource *source,
                            const char   *url)
{
  EmbersWorkspace *workspace;
  AdwTabPage *tab;

  g_return_val_if_fail (EMBERS_IS_WINDOW (self), NULL);
  g_return_val_if_fail (EMBERS_IS_SOURCE (source), NULL);

  workspace = embers_workspace_new (source);
  tab = adw_tab_view_append (self->tab_view, GTK_WIDGET (workspace));
  g_object_bind_property (workspace, "title", tab, "title", G_BINDING_SYNC_CREATE);
  g_object_bind_property (workspace, "loading", tab, "loading", G_BINDING_SYNC_CREATE);
  if (url != NULL)
    {
      g_autofree char *shown = embers_text_mask_credentials (url);
      g_autofree char *tooltip = g_markup_escape_text (shown, -1);

      adw_tab_page_set_tooltip (tab, tooltip);
    }
  else
    g_object_bind_property (workspace, "tooltip", tab, "tooltip", G_BINDING_SYNC_CREATE);
  /* The window's title follows the view shown (the diff's title) */
  g_signal_connect_object (workspace, "notify::view", G_CALLBACK (update_title), self, G_CONNECT_SWAPPED);
  adw_tab_view_set_selected_page (self->tab_view, tab);
  update_title (self);
  return GTK_WIDGET (embers_workspace_get_explore_page (workspace));
}

/* The tab a page is in (a workspace's view, or the tab's own child) */
static AdwTabPage *
tab_of (EmbersWindow *self,
        GtkWidget    *page)
{
  GtkWidget *child = gtk_widget_get_ancestor (page, EMBERS_TYPE_WORKSPACE);

  return adw_tab_view_get_page (self->tab_view, child != NULL ? child : page);
}

/* A folder of profiles (or one file) as a local source in an explore
 * tab: services, profile types, labels and time from the files */
static void
folder_loaded (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  EmbersLocalSource *source = EMBERS_LOCAL_SOURCE (object);
  g_autoptr(GtkWidget) page = user_data;
  g_autoptr(GError) error = NULL;
  GtkRoot *root = gtk_widget_get_root (page);
  guint n = embers_local_source_add_file_finish (source, result, &error);
  gint64 start = 0, end = 0;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) || !EMBERS_IS_WINDOW (root))
    return;

  if (n == 0)
    {
      g_autofree char *text = error != NULL
        ? g_strdup_printf (_("Could not open the folder: %s"), error->message)
        : g_strdup (_("The folder holds no profiles Embers can read"));
      EmbersWindow *window = EMBERS_WINDOW (root);

      /* A failed open leaves no dead tab behind: the toast says why */
      adw_tab_view_close_page (window->tab_view, tab_of (window, page));
      embers_window_add_toast (window, text);
      return;
    }
  if (embers_local_source_get_n_skipped (source) > 0)
    {
      guint skipped = embers_local_source_get_n_skipped (source);
      g_autofree char *text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                            "%u file in the folder is not a profile Embers can read",
                                                            "%u files in the folder are not profiles Embers can read",
                                                            skipped),
                                               skipped);

      embers_window_add_toast (EMBERS_WINDOW (root), text);
    }

  /* The files' own span, not "the last hour": a minute of margin on both
   * sides so that the first and last profiles are inside */
  embers_local_source_get_time_range (source, &start, &end);
  embers_explore_page_set_time_range (EMBERS_EXPLORE_PAGE (page), start - 60000, end + 60000);
  embers_explore_page_refresh (EMBERS_EXPLORE_PAGE (page));
}

GtkWidget *
embers_window_open_folder (EmbersWindow *self,
                           GFile        *folder)
{
  g_autoptr(EmbersLocalSource) source = NULL;
  g_autofree char *name = NULL;
  GtkWidget *page;

  g_return_val_if_fail (EMBERS_IS_WINDOW (self), NULL);
  g_return_val_if_fail (G_IS_FILE (folder), NULL);

  source = embers_local_source_new ();
  name = g_file_get_parse_name (folder);
  page = embers_window_open_explore (self, EMBERS_SOURCE (source), name);
  embers_local_source_add_file_async (source, folder, NULL, folder_loaded, g_object_ref (page));
  return page;
}

/* The rules tab of the same server and tenant, if there is one */
static AdwTabPage *
find_rules_tab (EmbersWindow *self,
                EmbersSource *source)
{
  g_autofree char *location = embers_source_dup_location (source);

  for (int i = 0; i < adw_tab_view_get_n_pages (self->tab_view); i++)
    {
      AdwTabPage *tab = adw_tab_view_get_nth_page (self->tab_view, i);
      GtkWidget *child = adw_tab_page_get_child (tab);
      EmbersSource *other;
      g_autofree char *other_location = NULL;

      if (!EMBERS_IS_RULES_PAGE (child))
        continue;
      other = embers_rules_page_get_source (EMBERS_RULES_PAGE (child));
      if (other == source)
        return tab;
      other_location = embers_source_dup_location (other);
      if (location != NULL && g_strcmp0 (location, other_location) == 0)
        return tab;
    }
  return NULL;
}

/* A server's recording rules: its tab if one is open (reloaded), else a
 * new tab */
GtkWidget *
embers_window_show_rules (EmbersWindow *self,
                          EmbersSource *source)
{
  EmbersRulesPage *page;
  AdwTabPage *tab;
  g_autofree char *title = NULL;
  g_autofree char *name = NULL;

  g_return_val_if_fail (EMBERS_IS_WINDOW (self), NULL);
  g_return_val_if_fail (EMBERS_IS_SOURCE (source), NULL);

  tab = find_rules_tab (self, source);
  if (tab != NULL)
    {
      page = EMBERS_RULES_PAGE (adw_tab_page_get_child (tab));
      embers_rules_page_reload (page);
      adw_tab_view_set_selected_page (self->tab_view, tab);
      return GTK_WIDGET (page);
    }

  page = embers_rules_page_new_for_source (source);
  tab = adw_tab_view_append (self->tab_view, GTK_WIDGET (page));
  name = embers_source_dup_display_name (source);
  /* Translators: a tab title; %s is a server address */
  title = g_strdup_printf (_("Recording Rules — %s"), name);
  adw_tab_page_set_title (tab, title);
  adw_tab_page_set_tooltip (tab, title);
  adw_tab_view_set_selected_page (self->tab_view, tab);
  return GTK_WIDGET (page);
}

GtkWidget *
embers_window_open_rules (EmbersWindow        *self,
                          EmbersConnectClient *client)
{
  g_autoptr(EmbersPyroscopeSource) source = NULL;

  g_return_val_if_fail (EMBERS_IS_WINDOW (self), NULL);
  g_return_val_if_fail (EMBERS_IS_CONNECT_CLIENT (client), NULL);

  source = embers_pyroscope_source_new (client);
  return embers_window_show_rules (self, EMBERS_SOURCE (source));
}

void
embers_window_reload_rules (EmbersWindow *self,
                            EmbersSource *source)
{
  AdwTabPage *tab;

  g_return_if_fail (EMBERS_IS_WINDOW (self));

  tab = source != NULL ? find_rules_tab (self, source) : NULL;
  if (tab != NULL)
    embers_rules_page_reload (EMBERS_RULES_PAGE (adw_tab_page_get_child (tab)));
}

static void
on_connected (EmbersConnectDialog *dialog,
              EmbersSource        *source,
              const char          *url,
              EmbersWindow        *self)
{
  GtkWidget *explore = embers_window_open_explore (self, source, url);

  /* Traces to profiles (embers-window-spans.c) */
  if (embers_connect_dialog_get_span_id (dialog) != NULL && EMBERS_IS_PYROSCOPE_SOURCE (source))
    embers_window_open_span (self, EMBERS_PYROSCOPE_SOURCE (source), embers_connect_dialog_get_span_id (dialog));
  else
    /* A new server: every service first */
    embers_workspace_show_view (EMBERS_WORKSPACE (gtk_widget_get_ancestor (explore, EMBERS_TYPE_WORKSPACE)),
                                EMBERS_WORKSPACE_VIEW_SERVICES);
}

/* The connect dialog; with a URL it starts connecting right away */
EmbersConnectDialog *
embers_window_connect (EmbersWindow *self,
                       const char   *url)
{
  EmbersConnectDialog *dialog;

  g_return_val_if_fail (EMBERS_IS_WINDOW (self), NULL);

  dialog = embers_connect_dialog_new ();
  g_signal_connect_object (dialog, "connected", G_CALLBACK (on_connected), self, 0);
  adw_dialog_present (ADW_DIALOG (dialog), GTK_WIDGET (self));
  if (url != NULL)
    {
      embers_connect_dialog_set_url (dialog, url);
      if (embers_connect_dialog_get_url_valid (dialog))
        embers_connect_dialog_connect (dialog);
    }
  return dialog;
}

/* Compare tabs */

static gboolean
compare_title (GBinding     *binding,
               const GValue *from,
               GValue       *to,
               gpointer      user_data)
{
  const char *title = g_value_get_string (from);

  g_value_set_string (to, title != NULL ? title : _("Comparison"));
  return TRUE;
}

static EmbersComparePage *
add_compare_page (EmbersWindow *self)
{
  GtkWidget *page = embers_compare_page_new ();
  EmbersProfilePage *profile_page = embers_compare_page_get_profile_page (EMBERS_COMPARE_PAGE (page));
  AdwTabPage *tab;

  tab = adw_tab_view_append (self->tab_view, page);
  g_object_bind_property_full (profile_page, "title", tab, "title", G_BINDING_SYNC_CREATE,
                               compare_title, NULL, NULL, NULL);
  g_object_bind_property (page, "busy", tab, "loading", G_BINDING_SYNC_CREATE);
  adw_tab_view_set_selected_page (self->tab_view, tab);
  update_title (self);
  return EMBERS_COMPARE_PAGE (page);
}

/* An empty compare tab: the user picks two files (or queries) */
GtkWidget *
embers_window_open_compare (EmbersWindow *self)
{
  g_return_val_if_fail (EMBERS_IS_WINDOW (self), NULL);
  return GTK_WIDGET (add_compare_page (self));
}

/* Baseline and comparison files in a compare tab, compared at once */
GtkWidget *
embers_window_open_comparison (EmbersWindow *self,
                               GFile        *baseline,
                               GFile        *comparison)
{
  EmbersComparePage *page;
  AdwTabPage *tab;
  g_autofree char *base = NULL;
  g_autofree char *comp = NULL;
  g_autofree char *text = NULL;
  g_autofree char *tooltip = NULL;

  g_return_val_if_fail (EMBERS_IS_WINDOW (self), NULL);
  g_return_val_if_fail (G_IS_FILE (baseline), NULL);
  g_return_val_if_fail (G_IS_FILE (comparison), NULL);

  page = add_compare_page (self);
  tab = adw_tab_view_get_page (self->tab_view, GTK_WIDGET (page));
  base = mask_parse_name (baseline);
  comp = mask_parse_name (comparison);
  /* Translators: a tab tooltip: baseline file, then comparison file */
  text = g_strdup_printf (_("%s vs %s"), base, comp);
  tooltip = g_markup_escape_text (text, -1);
  adw_tab_page_set_tooltip (tab, tooltip);
  embers_compare_page_set_files (page, baseline, comparison);
  return GTK_WIDGET (page);
}

/* A compare tab on @source with both sides as queries (the explore
 * page's Compare…, the labels page) */
GtkWidget *
embers_window_open_compare_queries (EmbersWindow      *self,
                                    EmbersSource      *source,
                                    const EmbersQuery *baseline,
                                    const EmbersQuery *comparison,
                                    gboolean           start)
{
  EmbersComparePage *page;

  g_return_val_if_fail (EMBERS_IS_WINDOW (self), NULL);
  g_return_val_if_fail (EMBERS_IS_SOURCE (source), NULL);

  page = add_compare_page (self);
  embers_compare_page_set_source (page, source);
  embers_compare_page_set_queries (page, baseline, comparison);
  if (start && baseline != NULL && comparison != NULL)
    embers_compare_page_compare (page);
  return GTK_WIDGET (page);
}

EmbersProfilePage *
embers_window_open_sample (EmbersWindow *self)
{
  g_autoptr(GFile) file = embers_window_get_sample_file ();
  EmbersProfilePage *page;
  AdwTabPage *tab;

  g_return_val_if_fail (EMBERS_IS_WINDOW (self), NULL);

  page = add_page (self);
  tab = adw_tab_view_get_page (self->tab_view, GTK_WIDGET (page));
  adw_tab_page_set_tooltip (tab, _("A CPU profile of a small Go program"));
  embers_profile_page_load (page, file, _("Sample CPU Profile"));
  update_title (self);
  return page;
}

void
embers_window_add_toast (EmbersWindow *self,
                         const char   *message)
{
  AdwToast *toast;

  g_return_if_fail (EMBERS_IS_WINDOW (self));

  toast = adw_toast_new (message);
  adw_toast_set_timeout (toast, 6);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

/* Recent files */

static GtkWidget *
recent_row (const char *uri)
{
  g_autoptr(GFile) file = g_file_new_for_uri (uri);
  g_autoptr(GFile) parent = g_file_get_parent (file);
  g_autofree char *name = g_file_get_basename (file);
  g_autofree char *where = parent != NULL ? g_file_get_parse_name (parent) : NULL;
  GtkWidget *row = adw_action_row_new ();

  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), name);
  if (where != NULL)
    adw_action_row_set_subtitle (ADW_ACTION_ROW (row), where);
  adw_action_row_add_prefix (ADW_ACTION_ROW (row),
                             gtk_image_new_from_icon_name ("document-open-recent-symbolic"));
  adw_action_row_add_suffix (ADW_ACTION_ROW (row),
                             gtk_image_new_from_icon_name ("go-next-symbolic"));
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
  gtk_actionable_set_action_target (GTK_ACTIONABLE (row), "s", uri);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (row), "win.open-uri");
  return row;
}

static void
update_recent (EmbersWindow *self)
{
  g_auto(GStrv) uris = NULL;
  GtkWidget *child;
  guint n = 0;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->recent_list))) != NULL)
    gtk_list_box_remove (self->recent_list, child);

  if (self->settings != NULL)
    uris = g_settings_get_strv (self->settings, "recent-files");

  for (guint i = 0; uris != NULL && uris[i] != NULL && n < EMBERS_MAX_RECENT_FILES; i++)
    {
      gtk_list_box_append (self->recent_list, recent_row (uris[i]));
      n++;
    }

  gtk_widget_set_visible (GTK_WIDGET (self->recent_group), n > 0);
  embers_window_update_actions (self);
}

void
embers_window_add_recent (EmbersWindow *self,
                          const char   *uri)
{
  g_auto(GStrv) old = NULL;
  g_autoptr(GStrvBuilder) builder = NULL;
  g_auto(GStrv) uris = NULL;
  guint n = 1;

  if (uri == NULL || uri[0] == '\0')
    return;

  {
    GtkRecentData data = {
      .mime_type = (char *)"application/octet-stream",
      .app_name = (char *)"Embers",
      .app_exec = (char *)"embers %u",
    };

    gtk_recent_manager_add_full (gtk_recent_manager_get_default (), uri, &data);
  }

  if (self->settings == NULL)
    return;

  builder = g_strv_builder_new ();
  g_strv_builder_add (builder, uri);
  old = g_settings_get_strv (self->settings, "recent-files");
  for (guint i = 0; old[i] != NULL && n < EMBERS_MAX_RECENT_FILES; i++)
    {
      if (g_str_equal (old[i], uri))
        continue;
      g_strv_builder_add (builder, old[i]);
      n++;
    }
  uris = g_strv_builder_end (builder);
  g_settings_set_strv (self->settings, "recent-files", (const char * const *)uris);
}

/* Drag and drop */

static gboolean
on_drop (GtkDropTarget *target,
         const GValue  *value,
         double         x,
         double         y,
         EmbersWindow  *self)
{
  GSList *files;

  if (!G_VALUE_HOLDS (value, GDK_TYPE_FILE_LIST))
    return FALSE;

  files = gdk_file_list_get_files (g_value_get_boxed (value));
  if (files == NULL)
    return FALSE;

  /* Each file its own tab, as from the file manager or the command line:
   * a comparison only ever comes from an explicit action (which side is
   * the baseline is the user's choice, never the order of a drop) */
  for (GSList *l = files; l != NULL; l = l->next)
    embers_window_open_file (self, l->data);
  g_slist_free (files);
  return TRUE;
}

/* Window state */

static void
save_window_state (EmbersWindow *self)
{
  int width, height;

  if (self->settings == NULL)
    return;

  gtk_window_get_default_size (GTK_WINDOW (self), &width, &height);
  g_settings_set_boolean (self->settings, "window-maximized", gtk_window_is_maximized (GTK_WINDOW (self)));
  if (!gtk_window_is_maximized (GTK_WINDOW (self)) && width > 0 && height > 0)
    {
      g_settings_set_int (self->settings, "window-width", width);
      g_settings_set_int (self->settings, "window-height", height);
    }
}

static gboolean
embers_window_close_request (GtkWindow *window)
{
  EmbersWindow *self = EMBERS_WINDOW (window);

  save_window_state (self);

  /* Stop loads and transforms of every page */
  for (guint i = 0; i < (guint)adw_tab_view_get_n_pages (self->tab_view); i++)
    {
      AdwTabPage *tab = adw_tab_view_get_nth_page (self->tab_view, i);
      EmbersProfilePage *page = profile_page_of (adw_tab_page_get_child (tab));

      if (EMBERS_IS_COMPARE_PAGE (adw_tab_page_get_child (tab)))
        embers_compare_page_cancel (EMBERS_COMPARE_PAGE (adw_tab_page_get_child (tab)));
      if (page != NULL)
        embers_profile_page_cancel (page);
    }

  return GTK_WINDOW_CLASS (embers_window_parent_class)->close_request (window);
}

/* GObject */

static void
embers_window_dispose (GObject *object)
{
  EmbersWindow *self = EMBERS_WINDOW (object);

  g_cancellable_cancel (self->file_cancellable);
  g_clear_object (&self->file_cancellable);
  embers_window_clear_spare_page (self);
  if (self->titled_tab != NULL)
    g_signal_handlers_disconnect_by_func (self->titled_tab, update_title, self);
  g_clear_weak_pointer (&self->titled_tab);
  if (self->workspace_bindings != NULL)
    g_binding_group_set_source (self->workspace_bindings, NULL);
  g_clear_object (&self->workspace_bindings);
  gtk_widget_dispose_template (GTK_WIDGET (self), EMBERS_TYPE_WINDOW);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (embers_window_parent_class)->dispose (object);
}

static void
embers_window_class_init (EmbersWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = embers_window_dispose;
  window_class->close_request = embers_window_close_request;

  g_type_ensure (EMBERS_TYPE_PROFILE_PAGE);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/emberslab/Embers/embers-window.ui");
  gtk_widget_class_bind_template_child (widget_class, EmbersWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, EmbersWindow, header_bar);
  gtk_widget_class_bind_template_child (widget_class, EmbersWindow, window_title);
  gtk_widget_class_bind_template_child (widget_class, EmbersWindow, title_stack);
  gtk_widget_class_bind_template_child (widget_class, EmbersWindow, header_switcher);
  gtk_widget_class_bind_template_child (widget_class, EmbersWindow, view_back_button);
  gtk_widget_class_bind_template_child (widget_class, EmbersWindow, view_forward_button);
  gtk_widget_class_bind_template_callback (widget_class, view_back_clicked);
  gtk_widget_class_bind_template_callback (widget_class, view_forward_clicked);
  gtk_widget_class_bind_template_child (widget_class, EmbersWindow, menu_button);
  gtk_widget_class_bind_template_child (widget_class, EmbersWindow, tab_bar);
  gtk_widget_class_bind_template_child (widget_class, EmbersWindow, tab_view);
  gtk_widget_class_bind_template_child (widget_class, EmbersWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, EmbersWindow, empty_page);
  gtk_widget_class_bind_template_child (widget_class, EmbersWindow, open_button);
  gtk_widget_class_bind_template_child (widget_class, EmbersWindow, recent_group);
  gtk_widget_class_bind_template_child (widget_class, EmbersWindow, recent_list);
  gtk_widget_class_bind_template_callback (widget_class, on_selected_page_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_n_pages_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_page_attached);
  gtk_widget_class_bind_template_callback (widget_class, on_page_detached);
  gtk_widget_class_bind_template_callback (widget_class, on_close_page);

  embers_window_class_actions_init (widget_class);
}

static void
embers_window_init (EmbersWindow *self)
{
  static const char *icons = "/io/github/emberslab/Embers/icons";
  g_autoptr(GtkBuilder) builder = NULL;
  GtkIconTheme *theme;
  g_auto(GStrv) paths = NULL;
  GtkDropTarget *drop;

  /* Our icons, also without a GtkApplication to add them (tests, tools) */
  theme = gtk_icon_theme_get_for_display (gtk_widget_get_display (GTK_WIDGET (self)));
  paths = gtk_icon_theme_get_resource_path (theme);
  if (paths == NULL || !g_strv_contains ((const char * const *)paths, icons))
    gtk_icon_theme_add_resource_path (theme, icons);

  self->file_cancellable = g_cancellable_new ();
  gtk_widget_init_template (GTK_WIDGET (self));
  self->workspace_bindings = g_binding_group_new ();
  g_binding_group_bind (self->workspace_bindings, "can-go-back", self->view_back_button, "sensitive",
                        G_BINDING_SYNC_CREATE);
  g_binding_group_bind (self->workspace_bindings, "can-go-forward", self->view_forward_button, "sensitive",
                        G_BINDING_SYNC_CREATE);
  g_binding_group_bind_full (self->workspace_bindings, "compact", self->title_stack, "visible-child-name",
                             G_BINDING_SYNC_CREATE, compact_to_title, NULL, NULL, NULL);

  builder = gtk_builder_new_from_resource ("/io/github/emberslab/Embers/gtk/menus.ui");
  gtk_menu_button_set_menu_model (self->menu_button,
                                  G_MENU_MODEL (gtk_builder_get_object (builder, "primary-menu")));

#if DEVELOPMENT_BUILD
  gtk_widget_add_css_class (GTK_WIDGET (self), "devel");
#endif

  self->settings = settings_new ();
  if (self->settings != NULL)
    {
      gtk_window_set_default_size (GTK_WINDOW (self),
                                   g_settings_get_int (self->settings, "window-width"),
                                   g_settings_get_int (self->settings, "window-height"));
      if (g_settings_get_boolean (self->settings, "window-maximized"))
        gtk_window_maximize (GTK_WINDOW (self));
      g_signal_connect_object (self->settings, "changed::recent-files",
                               G_CALLBACK (update_recent), self, G_CONNECT_SWAPPED);
    }

  drop = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);
  g_signal_connect_object (drop, "drop", G_CALLBACK (on_drop), self, 0);
  gtk_widget_add_controller (GTK_WIDGET (self->toast_overlay), GTK_EVENT_CONTROLLER (drop));

  embers_window_warm_renderer (self);
  update_recent (self);
  on_n_pages_changed (self);
  update_title (self);
  update_header (self);
}

EmbersWindow *
embers_window_new (EmbersApplication *application)
{
  return g_object_new (EMBERS_TYPE_WINDOW,
                       "application", application,
                       NULL);
}

/* ---- Labels tabs (label explorer) ---- */

#include "embers-labels-page.h"

GtkWidget *
embers_window_open_labels (EmbersWindow      *self,
                           EmbersExplorePage *from)
{
  GtkWidget *workspace;

  g_return_val_if_fail (EMBERS_IS_WINDOW (self), NULL);
  g_return_val_if_fail (EMBERS_IS_EXPLORE_PAGE (from), NULL);

  workspace = gtk_widget_get_ancestor (GTK_WIDGET (from), EMBERS_TYPE_WORKSPACE);
  if (workspace == NULL || !embers_query_model_get_complete (embers_workspace_get_query (EMBERS_WORKSPACE (workspace))))
    {
      embers_window_add_toast (self, _("Pick a service and a profile type to see their labels"));
      return NULL;
    }
  embers_workspace_show_view (EMBERS_WORKSPACE (workspace), EMBERS_WORKSPACE_VIEW_LABELS);
  return GTK_WIDGET (embers_workspace_get_labels_page (EMBERS_WORKSPACE (workspace)));
}
