/* embers-focus.h: lists and tables that are one Tab stop
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* A GtkListBox takes Tab to its next row, so Tab walks every row before
 * it reaches the control after the list (list and column views have
 * GTK_LIST_TAB_ITEM for this). A widget's focus vfunc asks this first: TRUE when @direction is Tab or
 * Shift+Tab and the focus is inside @list, that is, when the focus
 * should leave the list rather than move within it (arrows still do). */
gboolean embers_focus_is_tab_out_of (GtkWidget        *list,
                                     GtkDirectionType  direction);

G_END_DECLS
