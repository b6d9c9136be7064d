/* embers-file-filters.c: the file filters of the open dialogs
 *
 * Pages, panes and the window all open profiles; they share these
 * filters here rather than ask the window for them.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "embers-file-filters.h"

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

GListModel *
embers_file_filters_profiles (void)
{
  static GListStore *filters;

  if (g_once_init_enter_pointer (&filters))
    {
      static const char * const profiles[] = {
        "*.pb", "*.pb.gz", "*.pprof", "*.pprof.gz", "*.prof", "*.gz",
        "*.folded", "*.collapsed", "*.txt", "*.json", "*.embers", NULL,
      };
      static const char * const all[] = { "*", NULL };
      g_autoptr(GtkFileFilter) profile_filter = new_filter (_("Profiles"), profiles);
      g_autoptr(GtkFileFilter) all_filter = new_filter (_("All Files"), all);
      GListStore *store = g_list_store_new (GTK_TYPE_FILE_FILTER);

      g_list_store_append (store, profile_filter);
      g_list_store_append (store, all_filter);
      g_once_init_leave_pointer (&filters, store);
    }
  return G_LIST_MODEL (filters);
}
