/* embers-call-tree-view-private.h: what the call tree view's files share
 * (embers-call-tree-view.c: the model, walks, keys and API;
 * embers-call-tree-view-cells.c: the rows' cells)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "embers-call-tree-view.h"

G_BEGIN_DECLS

struct _EmbersCallTreeView
{
  GtkWidget           parent_instance;

  /* Template */
  GtkScrolledWindow  *scroller;
  GtkColumnView      *column_view;
  GtkColumnViewColumn *name_column;
  GtkColumnViewColumn *self_column;
  GtkColumnViewColumn *total_column;
  GtkColumnViewColumn *baseline_column;
  GtkColumnViewColumn *comparison_column;
  GtkColumnViewColumn *change_column;
  GtkColumnViewColumn *change_percent_column;
  GtkColumnViewColumn *bar_column;

  /* The columns: only the mode's are in the column view (a hidden
   * column's cells would be built and bound in every row all the same),
   * and of those, the ones that fit the width beside the names */
  int                 columns_diff;   /* the mode they are for, -1 none yet */
  gboolean            fitting;        /* changing them (sorter, widths) */
  int                 name_width;     /* the names' width when there is room */

  GtkTreeListModel   *tree_model;
  GtkSingleSelection *selection;
  EmbersCallTree     *tree;
  EmbersProfile      *profile;
  guint               sample_type;
  gboolean            inverted;
  gint64              root_total;
  gint64              base_root_total;   /* a diff's baseline */
  gboolean            diff;
  EmbersDiffPalette   diff_palette;
  EmbersCallTreeSort  sort;
  gboolean            descending;
  GtkColumnViewColumn *sort_column;
  char               *unit;
  EmbersSearch       *search;
  GPtrArray          *bound_names;   /* GtkListItem of the name cells */
  GPtrArray          *bound_bars;    /* GtkListItem of the bars */
  /* Cells of rows let go of, for rows to come (embers-call-tree-view-cells.c) */
  GPtrArray          *spare_names;
  GPtrArray          *spare_values;
  GPtrArray          *spare_bars;

  guint32             selected_node;
  EmbersCallTreeRow  *selected_row;

  /* A walk down the tree: opening the heaviest path, or a path to a node,
   * one list at a time, waiting for lists computed on a thread */
  GtkTreeListRow     *walk_row;
  GArray             *walk_path;     /* guint32 nodes, top-down */
  guint               walk_index;
  gboolean            walk_heaviest;
  GListModel         *walk_wait;
  gulong              walk_wait_id;

  gboolean            expanding;
  /* The column view let go of the model while a new tree opens its
   * heaviest path (it would build rows for every step) */
  gboolean            detached;

  /* Between the tree list model and the selection: a column view given a
   * model builds rows for a couple of hundred positions in one frame, so
   * a new model shows a few rows first and grows by a few a frame (a
   * tick callback) until it is whole */
  GtkSliceListModel  *slice;
  guint               grow_id;
  /* Between the tree list model and the slice: holds the changes of a
   * step of * to pass them on as one */
  GObject            *hold;

  /* *: the rows still to open (GtkTreeListRow, breadth first), the rows
   * opened so far, the tick that opens a step a frame, and the list it
   * waits for */
  GQueue              all_queue;
  guint               all_added;
  guint               all_tick_id;
  GListModel         *all_wait;      /* the first row's list, computed on a thread */
  gulong              all_wait_id;
};

/* The row's EmbersCallTreeRow (the tree list row keeps it) */
EmbersCallTreeRow *_embers_call_tree_view_row_item          (GtkTreeListRow     *row);
/* Marks a bound name cell's search match */
void               _embers_call_tree_view_update_name_marks (EmbersCallTreeView *self,
                                                             GtkListItem        *list_item);
/* A comparison's rows in sight take the palette's colours again */
void               _embers_call_tree_view_refresh_colors    (EmbersCallTreeView *self);
/* The cells' factory callbacks, for the template */
void               _embers_call_tree_view_bind_cell_callbacks (GtkWidgetClass   *widget_class);
/* A row opened by any hand opens its heaviest path */
void               _embers_call_tree_view_on_row_expanded   (GtkTreeListRow     *row,
                                                             GParamSpec         *pspec,
                                                             EmbersCallTreeView *self);

G_END_DECLS
