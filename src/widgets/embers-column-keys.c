/* embers-column-keys.c: a table's columns sorted from the keyboard
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "embers-accessible.h"
#include "embers-column-keys.h"

#define ANNOUNCEMENT_KEY "embers-sort-announcement"

const char *
embers_column_view_get_sort_announcement (GtkColumnView *view)
{
  g_return_val_if_fail (GTK_IS_COLUMN_VIEW (view), NULL);
  return g_object_get_data (G_OBJECT (view), ANNOUNCEMENT_KEY);
}

gboolean
embers_column_view_sort_nth (GtkColumnView *view,
                             guint          n)
{
  GListModel *columns;
  GtkColumnViewColumn *column = NULL;
  GtkSorter *sorter;
  GtkSortType order = GTK_SORT_ASCENDING;
  const char *title;
  char *message;
  guint shown = 0;

  g_return_val_if_fail (GTK_IS_COLUMN_VIEW (view), FALSE);

  columns = gtk_column_view_get_columns (view);
  for (guint i = 0; i < g_list_model_get_n_items (columns) && column == NULL; i++)
    {
      g_autoptr(GtkColumnViewColumn) c = g_list_model_get_item (columns, i);

      if (gtk_column_view_column_get_visible (c) && ++shown == n)
        column = c;
    }
  if (column == NULL || gtk_column_view_column_get_sorter (column) == NULL)
    return FALSE;

  /* As a click on the header: the sorted column turns round, another
   * starts ascending (GtkColumnViewSorter's own rule) */
  sorter = gtk_column_view_get_sorter (view);
  if (GTK_IS_COLUMN_VIEW_SORTER (sorter)
      && gtk_column_view_sorter_get_primary_sort_column (GTK_COLUMN_VIEW_SORTER (sorter)) == column)
    order = gtk_column_view_sorter_get_primary_sort_order (GTK_COLUMN_VIEW_SORTER (sorter)) == GTK_SORT_ASCENDING
              ? GTK_SORT_DESCENDING : GTK_SORT_ASCENDING;
  gtk_column_view_sort_by_column (view, column, order);

  title = gtk_column_view_column_get_title (column);
  if (title == NULL || title[0] == '\0')
    title = _("this column");
  message = g_strdup_printf (order == GTK_SORT_ASCENDING
                               /* Translators: said to a screen reader; %s is a column's title */
                               ? _("Sorted by %s, ascending")
                               : _("Sorted by %s, descending"),
                             title);
  g_object_set_data_full (G_OBJECT (view), ANNOUNCEMENT_KEY, message, g_free);
  embers_accessible_announce (GTK_WIDGET (view), message);
  return TRUE;
}

static gboolean
on_sort_key (GtkWidget *widget,
             GVariant  *args,
             gpointer   user_data)
{
  return embers_column_view_sort_nth (GTK_COLUMN_VIEW (widget), g_variant_get_uint32 (args));
}

void
embers_column_view_add_sort_keys (GtkColumnView *view)
{
  GtkEventController *controller;

  g_return_if_fail (GTK_IS_COLUMN_VIEW (view));

  controller = gtk_shortcut_controller_new ();
  for (guint n = 1; n <= 9; n++)
    {
      GtkShortcut *shortcut = gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_0 + n, GDK_CONTROL_MASK | GDK_ALT_MASK),
                                                gtk_callback_action_new (on_sort_key, NULL, NULL));

      gtk_shortcut_set_arguments (shortcut, g_variant_new_uint32 (n));
      gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (controller), shortcut);
    }
  gtk_widget_add_controller (GTK_WIDGET (view), controller);
}
