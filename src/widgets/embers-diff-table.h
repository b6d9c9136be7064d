/* embers-diff-table.h: per-function baseline vs comparison
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "embers-diff.h"
#include "embers-diff-stats.h"

G_BEGIN_DECLS

#define EMBERS_TYPE_DIFF_TABLE (embers_diff_table_get_type ())

G_DECLARE_FINAL_TYPE (EmbersDiffTable, embers_diff_table, EMBERS, DIFF_TABLE, GtkWidget)

/*
 * EmbersDiffTable: a GtkColumnView (in its own scroller) with one row per
 * function of a diff profile: Function, Baseline %, Comparison %, Diff
 * (the signed change in percent by the colour mode: "Share Diff", the
 * change of its share of its side's total, or "Value Diff", of its value;
 * "new" / "removed" in words), Baseline and Comparison values and Change
 * (comparison - baseline, "+550.00 ms"), values in the profile's unit.
 * Percentages have three significant digits (embers_diff_format_percent()).
 * Every column sorts both ways; initially by Diff, descending (what grew
 * most first).
 *
 * Signal "row-activated" (const char *name): a row was activated (double
 * click, Enter).
 */

GtkWidget     *embers_diff_table_new             (void);

/* @rows: EmbersDiffRow from embers_diff_top_compute() on @diff (copied);
 * NULL rows computes them here. NULL @diff clears the table. */
void           embers_diff_table_set_data        (EmbersDiffTable *self,
                                                  EmbersProfile   *diff,
                                                  GArray          *rows);
EmbersProfile *embers_diff_table_get_profile     (EmbersDiffTable *self);
guint          embers_diff_table_get_n_rows      (EmbersDiffTable *self);
/* Sorts by the Diff column: descending = what grew most first */
void           embers_diff_table_sort_by_change  (EmbersDiffTable *self,
                                                  gboolean         descending);
/* The row at @position in the current (sorted) order, or NULL */
const EmbersDiffRow *embers_diff_table_get_row   (EmbersDiffTable *self,
                                                  guint            position);
const char    *embers_diff_table_get_row_name    (EmbersDiffTable *self,
                                                  guint            position);
/* Texts of the cells of a row as shown: column 0..6, and with a noise
 * test 7 (the change with its interval, "+12% ± 3%") and 8 (the steps
 * of each side, "10 | 12") */
char          *embers_diff_table_get_cell_text   (EmbersDiffTable *self,
                                                  guint            position,
                                                  guint            column);
/* The function of the selected row (property "selected-name"), or NULL */
const char    *embers_diff_table_get_selected_name (EmbersDiffTable *self);
/* Selects and scrolls to the row of @name; NULL or an unknown name
 * clears the selection */
void           embers_diff_table_select_name     (EmbersDiffTable *self,
                                                  const char      *name);
/* The same, scrolled to only when @scroll: a pointer hovering the graph
 * selects the row without moving the table under it */
void embers_diff_table_mark_name (EmbersDiffTable *self,
                          const char *name,
                          gboolean    scroll);
GtkColumnView *embers_diff_table_get_column_view (EmbersDiffTable *self);
/* Which change the Diff column shows and sorts by (the colour mode) */
EmbersDiffMode embers_diff_table_get_mode        (EmbersDiffTable *self);
void           embers_diff_table_set_mode        (EmbersDiffTable *self,
                                                  EmbersDiffMode   mode);

GVariant        *embers_diff_table_dup_column_widths (EmbersDiffTable *self);
void             embers_diff_table_set_column_widths (EmbersDiffTable *self,
                                                      GVariant        *widths);

/* A noise test of the comparison (NULL: none; embers-diff-stats.h): the
 * columns "Change ± Noise" and "Steps" appear, each row's screen reader
 * text ends with its verdict, and with @hide_noise the rows whose change
 * is within the noise are shown faintly */
void             embers_diff_table_set_noise     (EmbersDiffTable *self,
                                                  EmbersDiffStats *noise,
                                                  gboolean         hide_noise);
EmbersDiffStats *embers_diff_table_get_noise     (EmbersDiffTable *self);
gboolean         embers_diff_table_row_is_noise  (EmbersDiffTable *self,
                                                  guint            position);

/* The height of the header and @n_rows rows, whatever the scrollbars
 * (0 before the table is shown) */
int          embers_diff_table_get_least_height (EmbersDiffTable *self,
                                                 guint            n_rows);

G_END_DECLS
