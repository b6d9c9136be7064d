/* embers-window-actions.c: the win.* actions
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "embers-file-filters.h"
#include "embers-location.h"
#include "embers-shortcuts.h"
#include "embers-workspace.h"
#include "embers-window-private.h"

/* Open */

/* Open Location…: a file path, a file URI or a Pyroscope query URL */
static void
on_location_response (AdwAlertDialog *dialog,
                      const char     *response,
                      EmbersWindow   *self)
{
  GtkEditable *entry = g_object_get_data (G_OBJECT (dialog), "entry");
  const char *text = gtk_editable_get_text (entry);

  if (g_str_equal (response, "open") && text != NULL && text[0] != '\0')
    {
      g_autofree char *stripped = g_strstrip (g_strdup (text));
      g_autoptr(GFile) file = embers_location_new_for_arg (stripped);

      embers_window_open_file (self, file);
    }
}

static void
open_location_dialog (EmbersWindow *self)
{
  AdwDialog *dialog;
  GtkWidget *entry;

  dialog = adw_alert_dialog_new (_("Open Location"),
                                 _("A profile file, or a Pyroscope query URL such as "
                                   "http://localhost:4040/?query=process_cpu:cpu:nanoseconds:cpu:nanoseconds"
                                   "{service_name=\"api\"}&from=now-1h&until=now"));
  entry = gtk_entry_new ();
  gtk_entry_set_activates_default (GTK_ENTRY (entry), TRUE);
  gtk_entry_set_placeholder_text (GTK_ENTRY (entry), _("Path or URL"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (entry), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Location"), -1);
  adw_alert_dialog_set_extra_child (ADW_ALERT_DIALOG (dialog), entry);
  g_object_set_data (G_OBJECT (dialog), "entry", entry);
  adw_alert_dialog_add_responses (ADW_ALERT_DIALOG (dialog), "cancel", _("_Cancel"), "open", _("_Open"), NULL);
  adw_alert_dialog_set_response_appearance (ADW_ALERT_DIALOG (dialog), "open", ADW_RESPONSE_SUGGESTED);
  adw_alert_dialog_set_default_response (ADW_ALERT_DIALOG (dialog), "open");
  adw_alert_dialog_set_close_response (ADW_ALERT_DIALOG (dialog), "cancel");
  g_signal_connect_object (dialog, "response", G_CALLBACK (on_location_response), self, 0);
  adw_dialog_set_focus (dialog, entry);
  adw_dialog_present (dialog, GTK_WIDGET (self));
}

static GtkFileFilter *
new_filter (const char         *name,
            const char * const *patterns)
{
  GtkFileFilter *filter = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, name);
  for (guint i = 0; patterns[i] != NULL; i++)
    gtk_file_filter_add_pattern (filter, patterns[i]);
  return filter;
}

/* A file dialog's answer: the files, or nothing when dismissed (or when
 * the window closed meanwhile: it cancels its dialogs) */
static void
on_open_response (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(EmbersWindow) self = user_data;
  g_autoptr(GListModel) files = gtk_file_dialog_open_multiple_finish (GTK_FILE_DIALOG (object), result, NULL);

  for (guint i = 0; files != NULL && i < g_list_model_get_n_items (files); i++)
    {
      g_autoptr(GFile) file = g_list_model_get_item (files, i);

      embers_window_open_file (self, file);
    }
}

static void
open_dialog (EmbersWindow *self)
{
  g_autoptr(GtkFileDialog) dialog = gtk_file_dialog_new ();

  gtk_file_dialog_set_title (dialog, _("Open a Profile"));
  gtk_file_dialog_set_accept_label (dialog, _("_Open"));
  gtk_file_dialog_set_filters (dialog, embers_file_filters_profiles ());
  gtk_file_dialog_open_multiple (dialog, GTK_WINDOW (self), self->file_cancellable,
                                 on_open_response, g_object_ref (self));
}

/* Export */

typedef struct
{
  EmbersWindow *window;
  GFile        *file;
} Export;

static void
export_done (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  Export *export = user_data;
  g_autoptr(EmbersWindow) self = export->window;
  g_autoptr(GFile) file = export->file;
  g_autoptr(GError) error = NULL;
  g_autofree char *message = NULL;

  g_free (export);

  if (embers_profile_page_export_finish (EMBERS_PROFILE_PAGE (source), result, &error))
    {
      g_autofree char *name = g_file_get_basename (file);

      /* Translators: a toast; %s is a file name */
      message = g_strdup_printf (_("Exported “%s”"), name);
    }
  else
    {
      /* Translators: a toast; %s is the reason */
      message = g_strdup_printf (_("Could not export: %s"), error->message);
    }
  embers_window_add_toast (self, message);
}

static void
on_export_response (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(EmbersWindow) self = user_data;
  g_autoptr(GFile) file = gtk_file_dialog_save_finish (GTK_FILE_DIALOG (object), result, NULL);
  EmbersProfilePage *page;
  g_autofree char *name = NULL;
  Export *export;

  page = file != NULL ? embers_window_get_current_page (self) : NULL;
  if (page == NULL)
    return;

  /* The format comes from the name; a name without a known extension is
   * a PNG image, as the dialog suggested */
  name = g_file_get_basename (file);
  if (embers_format_for_filename (name) == EMBERS_FORMAT_UNKNOWN)
    {
      g_autoptr(GFile) parent = g_file_get_parent (file);
      g_autofree char *with_ext = g_strconcat (name, ".png", NULL);

      GFile *named = g_file_get_child (parent, with_ext);

      g_object_unref (file);
      file = named;
    }

  export = g_new0 (Export, 1);
  export->window = g_object_ref (self);
  export->file = g_object_ref (file);
  embers_profile_page_export_async (page, file, NULL, export_done, export);
}

static void
choose_export_file (EmbersWindow *self)
{
  static const struct {
    const char *name;
    const char *pattern;
  } formats[] = {
    { N_("PNG Image"), "*.png" },
    { N_("SVG Image"), "*.svg" },
    { N_("PDF Document"), "*.pdf" },
    { N_("pprof Profile"), "*.pb.gz" },
    { N_("Folded Stacks"), "*.folded" },
    { N_("Pyroscope Flame Graph JSON"), "*.json" },
  };
  EmbersProfilePage *page = embers_window_get_current_page (self);
  g_autoptr(GtkFileDialog) dialog = NULL;
  g_autoptr(GListStore) filters = NULL;
  g_autofree char *suggestion = NULL;

  if (page == NULL || embers_profile_page_get_state (page) != EMBERS_PAGE_STATE_READY)
    return;

  dialog = gtk_file_dialog_new ();
  gtk_file_dialog_set_title (dialog, _("Export"));
  gtk_file_dialog_set_accept_label (dialog, _("_Export"));
  filters = g_list_store_new (GTK_TYPE_FILE_FILTER);
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      const char *patterns[] = { formats[i].pattern, NULL };
      g_autoptr(GtkFileFilter) filter = new_filter (_(formats[i].name), patterns);

      g_list_store_append (filters, filter);
    }
  gtk_file_dialog_set_filters (dialog, G_LIST_MODEL (filters));
  /* A server's view: service, type and time; a file's: its name */
  {
    AdwTabPage *tab = adw_tab_view_get_selected_page (self->tab_view);
    GtkWidget *child = tab != NULL ? adw_tab_page_get_child (tab) : NULL;
    g_autofree char *stem = EMBERS_IS_WORKSPACE (child)
      ? embers_query_model_dup_file_stem (embers_workspace_get_query (EMBERS_WORKSPACE (child))) : NULL;

    suggestion = stem != NULL ? g_strconcat (stem, ".png", NULL) : embers_profile_page_suggest_name (page, "png");
  }
  gtk_file_dialog_set_initial_name (dialog, suggestion);
  gtk_file_dialog_save (dialog, GTK_WINDOW (self), self->file_cancellable,
                        on_export_response, g_object_ref (self));
}

/* Export: first the width images are drawn at (1920 px by default, kept
 * in the settings), then the file */

static void
on_export_width_response (AdwAlertDialog *dialog,
                          const char     *response,
                          EmbersWindow   *self)
{
  GtkSpinButton *spin = g_object_get_data (G_OBJECT (dialog), "spin");
  EmbersProfilePage *page = embers_window_get_current_page (self);
  int width = gtk_spin_button_get_value_as_int (spin);

  if (!g_str_equal (response, "choose") || page == NULL)
    return;
  if (self->settings != NULL)
    g_settings_set_int (self->settings, "export-width", width);
  embers_profile_page_set_export_width (page, width);
  choose_export_file (self);
}

static void
export_dialog (EmbersWindow *self)
{
  EmbersProfilePage *page = embers_window_get_current_page (self);
  AdwDialog *dialog;
  GtkWidget *box, *label, *spin;
  int width = self->settings != NULL ? g_settings_get_int (self->settings, "export-width") : 1920;

  if (page == NULL || embers_profile_page_get_state (page) != EMBERS_PAGE_STATE_READY)
    return;

  dialog = adw_alert_dialog_new (_("Export"),
                                 _("Images (PNG, SVG, PDF) are drawn this wide, whatever the window’s size; "
                                   "their height follows from the graph. Data formats keep every frame."));
  box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  gtk_widget_set_halign (box, GTK_ALIGN_CENTER);
  label = gtk_label_new_with_mnemonic (_("Image _width (pixels)"));
  spin = gtk_spin_button_new_with_range (100, 20000, 10);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (spin), width);
  gtk_spin_button_set_activates_default (GTK_SPIN_BUTTON (spin), TRUE);
  gtk_label_set_mnemonic_widget (GTK_LABEL (label), spin);
  gtk_box_append (GTK_BOX (box), label);
  gtk_box_append (GTK_BOX (box), spin);
  adw_alert_dialog_set_extra_child (ADW_ALERT_DIALOG (dialog), box);
  adw_alert_dialog_add_responses (ADW_ALERT_DIALOG (dialog), "cancel", _("_Cancel"),
                                  "choose", _("_Choose File…"), NULL);
  adw_alert_dialog_set_response_appearance (ADW_ALERT_DIALOG (dialog), "choose", ADW_RESPONSE_SUGGESTED);
  adw_alert_dialog_set_default_response (ADW_ALERT_DIALOG (dialog), "choose");
  adw_alert_dialog_set_close_response (ADW_ALERT_DIALOG (dialog), "cancel");
  g_object_set_data (G_OBJECT (dialog), "spin", spin);
  g_signal_connect_object (dialog, "response", G_CALLBACK (on_export_width_response), self, 0);
  adw_dialog_present (dialog, GTK_WIDGET (self));
}

/* Actions */

/* Open Folder…: every profile in a folder as a local source */
static void
on_folder_response (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(EmbersWindow) self = user_data;
  g_autoptr(GFile) folder = gtk_file_dialog_select_folder_finish (GTK_FILE_DIALOG (object), result, NULL);

  if (folder != NULL)
    embers_window_open_folder (self, folder);
}

static void
open_folder_dialog (EmbersWindow *self)
{
  g_autoptr(GtkFileDialog) dialog = gtk_file_dialog_new ();

  gtk_file_dialog_set_title (dialog, _("Open a Folder of Profiles"));
  gtk_file_dialog_set_accept_label (dialog, _("_Open"));
  gtk_file_dialog_select_folder (dialog, GTK_WINDOW (self), self->file_cancellable,
                                 on_folder_response, g_object_ref (self));
}

static void
window_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *param)
{
  EmbersWindow *self = EMBERS_WINDOW (widget);
  EmbersProfilePage *page = embers_window_get_current_page (self);

  if (g_str_equal (action_name, "win.open"))
    open_dialog (self);
  else if (g_str_equal (action_name, "win.open-folder"))
    open_folder_dialog (self);
  else if (g_str_equal (action_name, "win.open-location"))
    open_location_dialog (self);
  else if (g_str_equal (action_name, "win.connect"))
    embers_window_connect (self, NULL);
  else if (g_str_equal (action_name, "win.new-comparison"))
    embers_window_open_compare (self);
  else if (g_str_equal (action_name, "win.open-sample"))
    embers_window_open_sample (self);
  else if (g_str_equal (action_name, "win.open-uri"))
    {
      g_autoptr(GFile) file = g_file_new_for_uri (g_variant_get_string (param, NULL));

      embers_window_open_file (self, file);
    }
  else if (g_str_equal (action_name, "win.export"))
    export_dialog (self);
  else if (g_str_equal (action_name, "win.save-view"))
    embers_window_save_view (self);
  else if (g_str_equal (action_name, "win.show-shortcuts"))
    adw_dialog_present (embers_shortcuts_dialog_new (), GTK_WIDGET (self));
  else if (g_str_equal (action_name, "win.close-tab"))
    {
      AdwTabPage *tab = adw_tab_view_get_selected_page (self->tab_view);

      if (tab != NULL)
        adw_tab_view_close_page (self->tab_view, tab);
      else
        gtk_window_close (GTK_WINDOW (self));
    }
  else if (g_str_equal (action_name, "win.find"))
    {
      if (page != NULL)
        embers_profile_page_begin_search (page);
    }
  else if (g_str_equal (action_name, "win.show-toast"))
    embers_window_add_toast (self, g_variant_get_string (param, NULL));
  else if (g_str_equal (action_name, "win.show-toast-action"))
    {
      /* A message with a button: (message, button label, window action) */
      const char *message, *label, *action;
      AdwToast *toast;

      g_variant_get (param, "(&s&s&s)", &message, &label, &action);
      toast = adw_toast_new (message);
      adw_toast_set_timeout (toast, 8);
      adw_toast_set_button_label (toast, label);
      adw_toast_set_action_name (toast, action);
      adw_toast_overlay_add_toast (self->toast_overlay, toast);
    }
  else if (g_str_equal (action_name, "win.show-rules"))
    {
      /* The current tab's Recording Rules view */
      AdwTabPage *tab = adw_tab_view_get_selected_page (self->tab_view);
      GtkWidget *child = tab != NULL ? adw_tab_page_get_child (tab) : NULL;

      if (EMBERS_IS_WORKSPACE (child))
        embers_workspace_show_view (EMBERS_WORKSPACE (child), EMBERS_WORKSPACE_VIEW_RULES);
    }
  else if (g_str_equal (action_name, "win.add-recent"))
    embers_window_add_recent (self, g_variant_get_string (param, NULL));
  else if (g_str_equal (action_name, "win.clear-recent"))
    {
      if (self->settings != NULL)
        g_settings_reset (self->settings, "recent-files");
    }
}

void
embers_window_update_actions (EmbersWindow *self)
{
  EmbersProfilePage *page = embers_window_get_current_page (self);
  gboolean ready = page != NULL && embers_profile_page_get_state (page) == EMBERS_PAGE_STATE_READY;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.export", ready);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.save-view", ready);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.find", ready);
}

void
embers_window_class_actions_init (GtkWidgetClass *widget_class)
{
  embers_window_regressions_class_init (widget_class);
  gtk_widget_class_install_action (widget_class, "win.open", NULL, window_action);
  gtk_widget_class_install_action (widget_class, "win.open-sample", NULL, window_action);
  gtk_widget_class_install_action (widget_class, "win.open-folder", NULL, window_action);
  gtk_widget_class_install_action (widget_class, "win.connect", NULL, window_action);
  gtk_widget_class_install_action (widget_class, "win.new-comparison", NULL, window_action);
  gtk_widget_class_install_action (widget_class, "win.open-location", NULL, window_action);
  gtk_widget_class_install_action (widget_class, "win.open-uri", "s", window_action);
  gtk_widget_class_install_action (widget_class, "win.export", NULL, window_action);
  gtk_widget_class_install_action (widget_class, "win.save-view", NULL, window_action);
  gtk_widget_class_install_action (widget_class, "win.close-tab", NULL, window_action);
  gtk_widget_class_install_action (widget_class, "win.find", NULL, window_action);
  gtk_widget_class_install_action (widget_class, "win.show-toast", "s", window_action);
  gtk_widget_class_install_action (widget_class, "win.show-toast-action", "(sss)", window_action);
  gtk_widget_class_install_action (widget_class, "win.show-rules", NULL, window_action);
  gtk_widget_class_install_action (widget_class, "win.add-recent", "s", window_action);
  gtk_widget_class_install_action (widget_class, "win.clear-recent", NULL, window_action);
  gtk_widget_class_install_action (widget_class, "win.show-shortcuts", NULL, window_action);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_o, GDK_CONTROL_MASK, "win.open", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_e, GDK_CONTROL_MASK, "win.export", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_s, GDK_CONTROL_MASK, "win.save-view", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, GDK_CONTROL_MASK, "win.close-tab", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, GDK_CONTROL_MASK, "win.find", NULL);
  /* Not Ctrl+Shift+D (or Ctrl+Shift+I): GTK's Inspector has them where
   * it is enabled */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_n, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "win.new-comparison", NULL);
}
