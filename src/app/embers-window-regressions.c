/* embers-window-regressions.c: the window's part of regressions across many
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * win.compare-across("values" | "time"): on a labels tab, the selected
 * label's values (in natural order: v2 before v10) or equal time ranges
 * of its range (as many as the "time-ranges" setting says, ten at first;
 * the tab's Time Ranges changes it), lined up in a new tab. win.compare-across-files
 * and win.compare-across-folder: files, or a folder (its subfolders or
 * files), from a file dialog. Open Diff in that tab opens a compare tab.
 */

#include "config.h"

#include <glib/gi18n.h>

#include "embers-file-filters.h"
#include "embers-labels-page.h"
#include "embers-regressions-page.h"
#include "embers-workspace.h"
#include "embers-window-private.h"

static void
regressions_compare_requested (EmbersRegressionsPage *page,
                               EmbersQuery           *baseline,
                               EmbersQuery           *comparison,
                               EmbersWindow          *self)
{
  embers_window_open_compare_queries (self, embers_regressions_page_get_source (page), baseline, comparison, TRUE);
}

GtkWidget *
embers_window_open_regressions (EmbersWindow          *self,
                                EmbersRegressionsPage *page)
{
  AdwTabPage *tab;

  g_return_val_if_fail (EMBERS_IS_WINDOW (self), NULL);
  g_return_val_if_fail (EMBERS_IS_REGRESSIONS_PAGE (page), NULL);

  g_signal_connect_object (page, "compare-requested", G_CALLBACK (regressions_compare_requested), self, 0);
  tab = adw_tab_view_append (self->tab_view, GTK_WIDGET (page));
  g_object_bind_property (page, "title", tab, "title", G_BINDING_SYNC_CREATE);
  g_object_bind_property (page, "loading", tab, "loading", G_BINDING_SYNC_CREATE);
  adw_tab_view_set_selected_page (self->tab_view, tab);
  return GTK_WIDGET (page);
}

static int
compare_values (gconstpointer a,
                gconstpointer b)
{
  return embers_snapshots_compare_names (*(char * const *)a, *(char * const *)b);
}

static void
across_labels (EmbersWindow     *self,
               EmbersLabelsPage *labels,
               gboolean          time)
{
  const EmbersQuery *query = embers_labels_page_get_query (labels);
  const char *label = embers_labels_page_get_label (labels);
  GPtrArray *stats = embers_labels_page_get_stats (labels);
  g_autoptr(GPtrArray) values = NULL;

  if (time)
    {
      embers_window_open_regressions (self, embers_regressions_page_new_for_ranges (embers_labels_page_get_source (labels),
                                                                                   query, 0));
      return;
    }
  if (label == NULL || stats == NULL || stats->len < 2)
    {
      embers_window_add_toast (self, _("Pick a label with two values or more to line them up"));
      return;
    }
  values = g_ptr_array_new ();
  for (guint i = 0; i < stats->len; i++)
    {
      EmbersLabelValueStats *s = g_ptr_array_index (stats, i);

      if (s->value != NULL && s->value[0] != '\0')
        g_ptr_array_add (values, s->value);
    }
  g_ptr_array_sort (values, compare_values);
  g_ptr_array_add (values, NULL);
  embers_window_open_regressions (self, embers_regressions_page_new_for_label (embers_labels_page_get_source (labels),
                                                                              query, label,
                                                                              (const char * const *)values->pdata));
}

static void
on_files (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(EmbersWindow) self = user_data;
  g_autoptr(GListModel) files = gtk_file_dialog_open_multiple_finish (GTK_FILE_DIALOG (object), result, NULL);
  g_autoptr(GPtrArray) list = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; files != NULL && i < g_list_model_get_n_items (files); i++)
    g_ptr_array_add (list, g_list_model_get_item (files, i));
  if (list->len == 0)
    return;
  if (list->len < 2)
    {
      embers_window_add_toast (self, _("Pick two profiles or more to line them up"));
      return;
    }
  embers_window_open_regressions (self, embers_regressions_page_new_for_files ((GFile * const *)list->pdata, list->len));
}

static void
on_folder (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(EmbersWindow) self = user_data;
  g_autoptr(GFile) folder = gtk_file_dialog_select_folder_finish (GTK_FILE_DIALOG (object), result, NULL);

  if (folder != NULL)
    embers_window_open_regressions (self, embers_regressions_page_new_for_files (&folder, 1));
}

static void
regressions_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *param)
{
  EmbersWindow *self = EMBERS_WINDOW (widget);

  if (g_str_equal (action_name, "win.compare-across"))
    {
      AdwTabPage *tab = adw_tab_view_get_selected_page (self->tab_view);
      GtkWidget *child = tab != NULL ? adw_tab_page_get_child (tab) : NULL;

      /* A server tab's Labels view */
      if (EMBERS_IS_WORKSPACE (child) &&
          g_strcmp0 (embers_workspace_get_view (EMBERS_WORKSPACE (child)), EMBERS_WORKSPACE_VIEW_LABELS) == 0)
        child = GTK_WIDGET (embers_workspace_get_labels_page (EMBERS_WORKSPACE (child)));

      if (EMBERS_IS_LABELS_PAGE (child))
        across_labels (self, EMBERS_LABELS_PAGE (child), g_str_equal (g_variant_get_string (param, NULL), "time"));
      else
        embers_window_add_toast (self, _("Open the labels of a service to line up its versions"));
    }
  else if (g_str_equal (action_name, "win.compare-across-files"))
    {
      g_autoptr(GtkFileDialog) dialog = gtk_file_dialog_new ();

      gtk_file_dialog_set_title (dialog, _("Line Up Profiles, the Baseline First"));
      gtk_file_dialog_set_accept_label (dialog, _("_Line Up"));
      gtk_file_dialog_set_filters (dialog, embers_file_filters_profiles ());
      gtk_file_dialog_open_multiple (dialog, GTK_WINDOW (self), self->file_cancellable,
                                     on_files, g_object_ref (self));
    }
  else if (g_str_equal (action_name, "win.compare-across-folder"))
    {
      g_autoptr(GtkFileDialog) dialog = gtk_file_dialog_new ();

      gtk_file_dialog_set_title (dialog, _("Line Up a Folder of Versions"));
      gtk_file_dialog_set_accept_label (dialog, _("_Line Up"));
      gtk_file_dialog_select_folder (dialog, GTK_WINDOW (self), self->file_cancellable,
                                     on_folder, g_object_ref (self));
    }
}

void
embers_window_regressions_class_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.compare-across", "s", regressions_action);
  gtk_widget_class_install_action (widget_class, "win.compare-across-files", NULL, regressions_action);
  gtk_widget_class_install_action (widget_class, "win.compare-across-folder", NULL, regressions_action);
}
