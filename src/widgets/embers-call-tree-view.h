/* embers-call-tree-view.h: the call tree as an expandable table
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "embers-call-tree.h"
#include "embers-palette.h"
#include "embers-search.h"

G_BEGIN_DECLS

#define EMBERS_TYPE_CALL_TREE_VIEW (embers_call_tree_view_get_type ())

G_DECLARE_FINAL_TYPE (EmbersCallTreeView, embers_call_tree_view, EMBERS, CALL_TREE_VIEW, GtkWidget)

/*
 * A GtkColumnView over a GtkTreeListModel of an EmbersCallTree: the
 * function with an expander, self, self %, total, total % and a bar of
 * the total (its self part darker). Opening a row opens its heaviest path
 * down to a leaf; * opens everything below the selected row (breadth
 * first, up to EMBERS_CALL_TREE_VIEW_EXPAND_ALL_ROWS rows, a few hundred
 * a frame; not settled until done, stopped by any other walk or a new
 * tree). Rows whose lists are computed on a thread open when they are
 * ready: nothing waits.
 *
 * Keys: Up/Down/Home/End/Page Up/Down move; Right or + opens (or goes to
 * the first child), Left or - closes (or goes to the parent), *
 * opens all below, Enter opens or closes; s, f, Delete, i, r and / as on
 * the flame graph (embers_table_add_key_bindings()).
 */
#define EMBERS_CALL_TREE_VIEW_EXPAND_ALL_ROWS 5000

GtkWidget     *embers_call_tree_view_new               (void);

/* Shows @profile (top-down, or inverted per the inverted property); opens
 * the root's heaviest path. NULL clears. */
void           embers_call_tree_view_set_profile       (EmbersCallTreeView *self,
                                                        EmbersProfile      *profile,
                                                        guint               sample_type);
EmbersProfile *embers_call_tree_view_get_profile       (EmbersCallTreeView *self);
gboolean       embers_call_tree_view_get_inverted      (EmbersCallTreeView *self);
void           embers_call_tree_view_set_inverted      (EmbersCallTreeView *self,
                                                        gboolean            inverted);
/* Marks the rows @search matches (a search over the view's profile) */
void           embers_call_tree_view_set_search        (EmbersCallTreeView *self,
                                                        EmbersSearch       *search);

/* The colours of a comparison's rows (the diff flame graph's palette) */
void           embers_call_tree_view_set_diff_palette  (EmbersCallTreeView *self,
                                                        EmbersDiffPalette   palette);
EmbersDiffPalette embers_call_tree_view_get_diff_palette (EmbersCallTreeView *self);

/* The selected row's profile node (top-down), 0 for the root, or
 * EMBERS_NODE_NONE (nothing selected, or an inverted row) */
guint32        embers_call_tree_view_get_selected_node (EmbersCallTreeView *self);
/* The selected row's function name, or NULL */
const char    *embers_call_tree_view_get_selected_name (EmbersCallTreeView *self);
/* Opens the rows down to @node and selects it (top-down); inverted, the
 * row of its function at the first level. Finishes when the lists on the
 * way are ready. */
void           embers_call_tree_view_reveal_node       (EmbersCallTreeView *self,
                                                        guint32             node);
/* Opens the selected row along its heaviest path */
void           embers_call_tree_view_expand_selected   (EmbersCallTreeView *self);
/* Opens everything below the selected row, up to the row limit: a step
 * now, the rest a step a frame (settled when done) */
void           embers_call_tree_view_expand_all_selected (EmbersCallTreeView *self);
/* Rows open (open ones' children included), whether or not the column
 * view has them all yet */
guint          embers_call_tree_view_get_n_rows        (EmbersCallTreeView *self);
/* FALSE while rows wait for their lists to open */
gboolean       embers_call_tree_view_is_settled        (EmbersCallTreeView *self);
/* The model (GtkSingleSelection of GtkTreeListRow), for tests: the
 * column view's, which after a new tree holds a few rows and
 * grows by a few a frame until it has all
 * embers_call_tree_view_get_n_rows() */
GtkSelectionModel *embers_call_tree_view_get_model     (EmbersCallTreeView *self);

G_END_DECLS
