/* embers-column-keys.h: a table's columns sorted from the keyboard
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* GTK's column headers sort on a click but take no keyboard focus. With
 * this, Ctrl+Alt+1 … Ctrl+Alt+9 in @view sort by its first … ninth shown
 * column, as a click on that header does (the sorted column again: the
 * other way), and a screen reader hears "Sorted by Self, descending" */
void         embers_column_view_add_sort_keys   (GtkColumnView *view);

/* The same as the key for column @n (from 1): FALSE if @view has no such
 * shown column or it does not sort */
gboolean     embers_column_view_sort_nth        (GtkColumnView *view,
                                                 guint          n);

/* What was last announced for @view's sorting (NULL before any) */
const char  *embers_column_view_get_sort_announcement (GtkColumnView *view);

G_END_DECLS
