/* embers-file-filters.h: the file filters of the open dialogs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* GtkFileFilters for the dialogs that open profiles (the window's Open,
 * the compare pane's file side, the regressions' folder): "Profiles" (the
 * formats Embers reads), then "All Files". One shared list, owned by
 * this module: callers do not unref it. */
GListModel *embers_file_filters_profiles (void);

G_END_DECLS
