/* embers-top-table.h: self/total per function, linked to the flame graph
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "embers-search.h"

G_BEGIN_DECLS

#define EMBERS_TYPE_TOP_TABLE (embers_top_table_get_type ())

G_DECLARE_FINAL_TYPE (EmbersTopTable, embers_top_table, EMBERS, TOP_TABLE, GtkWidget)

GtkWidget     *embers_top_table_new               (void);

/* @rows: EmbersTopRow from embers_top_compute() on @profile (copied) */
void           embers_top_table_set_data          (EmbersTopTable *self,
                                                   EmbersProfile  *profile,
                                                   guint           sample_type,
                                                   GArray         *rows);
EmbersProfile *embers_top_table_get_profile       (EmbersTopTable *self);
/* A line over the empty table saying why it is empty (NULL: none); gone
 * when rows of a profile are set */
void           embers_top_table_set_placeholder   (EmbersTopTable *self,
                                                   const char     *text);
const char    *embers_top_table_get_placeholder   (EmbersTopTable *self);
/* Shows only the functions @search matches (a search over the table's
 * profile; NULL or inactive: all) */
void           embers_top_table_set_search        (EmbersTopTable *self,
                                                   EmbersSearch   *search);
/* Rows shown after filtering */
guint          embers_top_table_get_n_rows        (EmbersTopTable *self);

/* The selected row's function; NULL for none, and for the row of work a
 * node limit cut off (`other` frames, one row, no function: no search
 * finds it, no frame action or activation takes it) */
const char    *embers_top_table_get_selected_name (EmbersTopTable *self);
gboolean       embers_top_table_get_cut_selected  (EmbersTopTable *self);
/* How many places the node limit cut (the cut row's `other` frames), or 0 */
guint          embers_top_table_get_n_cut         (EmbersTopTable *self);
/* Selects and scrolls to the row of @name; NULL or an unknown name
 * clears the selection */
void           embers_top_table_select_name       (EmbersTopTable *self,
                                                   const char     *name);
/* The same, scrolled to only when @scroll: a pointer hovering the graph
 * selects the row without moving the table under it */
void embers_top_table_mark_name (EmbersTopTable *self,
                          const char *name,
                          gboolean    scroll);

GVariant      *embers_top_table_dup_column_widths (EmbersTopTable *self);
void           embers_top_table_set_column_widths (EmbersTopTable *self,
                                                   GVariant       *widths);

/* The flame graph's single keys on a table of functions: s (Sandwich),
 * f (Focus on the function), m (Merge), d (Drop samples), p (Collapse
 * its package), Shift+R (Collapse its recursion) and Delete (Hide: a row
 * is a function, so it is merged everywhere) act on the selected row's
 * name through @name_func, which activates the "page." action given as
 * its argument with the name; i, r and / activate page.invert,
 * page.collapse-recursion and page.search. Shared by the top and diff
 * tables. */
void           embers_table_add_key_bindings      (GtkWidgetClass  *widget_class,
                                                   GtkShortcutFunc  name_func);

G_END_DECLS
