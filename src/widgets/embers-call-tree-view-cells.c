/* embers-call-tree-view-cells.c: the call tree view's rows: their cells
 * bound to the rows, the search's marks, a comparison's colours, and what
 * a screen reader says for a row
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "embers-call-tree-view-private.h"
#include "embers-call-tree-cells.h"
#include "embers-units.h"

EmbersCallTreeRow *
_embers_call_tree_view_row_item (GtkTreeListRow *row)
{
  /* gtk_tree_list_row_get_item() is transfer full; the row keeps it */
  GObject *item = gtk_tree_list_row_get_item (row);

  if (item != NULL)
    g_object_unref (item);
  return EMBERS_CALL_TREE_ROW (item);
}

static double
share (EmbersCallTreeView *self,
       gint64              value)
{
  return self->root_total > 0 ? (double)value / self->root_total : 0;
}

static double
base_share (EmbersCallTreeView *self,
            gint64              value)
{
  return self->base_root_total > 0 ? (double)value / self->base_root_total : 0;
}

/* A diff row's change of share as said and shown: "new", "removed" or a
 * signed percentage */
static char *
change_text (EmbersCallTreeRow *item)
{
  EmbersDiffKind kind;
  double change = embers_call_tree_row_get_change (item, &kind);

  if (kind == EMBERS_DIFF_KIND_NEW)
    return g_strdup (C_("diff", "new"));
  if (kind == EMBERS_DIFF_KIND_REMOVED)
    return g_strdup (C_("diff", "removed"));
  return embers_diff_format_percent (change, TRUE);
}

/* Search marks */

void
_embers_call_tree_view_update_name_marks (EmbersCallTreeView *self,
                   GtkListItem        *list_item)
{
  GtkTreeListRow *row = gtk_list_item_get_item (list_item);
  GtkWidget *expander = gtk_list_item_get_child (list_item);
  GtkWidget *label = embers_call_tree_expander_get_child (EMBERS_CALL_TREE_EXPANDER (expander));
  EmbersCallTreeRow *item;
  gboolean match = FALSE;
  gboolean below = FALSE;

  if (row != NULL && self->search != NULL && embers_search_is_active (self->search) &&
      embers_search_get_profile (self->search) == self->profile)
    {
      guint32 node;

      item = _embers_call_tree_view_row_item (row);
      node = embers_call_tree_row_get_node (item);
      if (self->inverted || node == EMBERS_NODE_NONE)
        match = embers_search_name_matches (self->search, embers_call_tree_row_get_name_id (item));
      else
        {
          match = embers_search_node_matches (self->search, node);
          below = !match && !gtk_tree_list_row_get_expanded (row) &&
                  embers_search_range_has_match (self->search, node + 1,
                                                 embers_profile_node_end (self->profile, node));
        }
    }
  if (match)
    gtk_widget_add_css_class (label, "search-match");
  else
    gtk_widget_remove_css_class (label, "search-match");
  if (below)
    gtk_widget_add_css_class (label, "search-below");
  else
    gtk_widget_remove_css_class (label, "search-below");
}

/* Cells */

/* Spare cells: a row the column view lets go of (all of them, for a new
 * tree) gives its cells here, and a row it builds takes them back, bound
 * anew: a new tree's rows are neither torn down nor made again. Kept for
 * a window's rows, no more. */
#define SPARE_CELLS 256

static GtkWidget *
spare_take (GPtrArray *spares)
{
  for (guint i = spares->len; i > 0; i--)
    {
      GtkWidget *child = g_ptr_array_index (spares, i - 1);

      /* Out of its old cell by now (the column view drops the cell after
       * its teardown) */
      if (gtk_widget_get_parent (child) == NULL)
        return g_ptr_array_steal_index_fast (spares, i - 1);
    }
  return NULL;
}

static void
spare_give (GPtrArray   *spares,
            GtkListItem *list_item,
            guint        max)
{
  GtkWidget *child = gtk_list_item_get_child (list_item);

  if (child != NULL && spares->len < max)
    g_ptr_array_add (spares, g_object_ref (child));
}

/* A spare cell, or @fresh */
static void
set_cell (GtkListItem *list_item,
          GPtrArray   *spares,
          GtkWidget *(*fresh) (void))
{
  g_autoptr(GtkWidget) child = spare_take (spares);

  gtk_list_item_set_child (list_item, child != NULL ? child : fresh ());
}

static GtkWidget *
new_name_cell (void)
{
  /* Deep rows are indented: their names are cut to fit, never clipped */
  return embers_call_tree_expander_new (embers_call_tree_text_new (TRUE));
}

static GtkWidget *
new_value_cell (void)
{
  return embers_call_tree_text_new (FALSE);
}

static GtkWidget *
new_bar_cell (void)
{
  return g_object_new (EMBERS_TYPE_CALL_TREE_BAR, NULL);
}

static void
setup_name (GtkSignalListItemFactory *factory,
            GtkListItem              *list_item,
            EmbersCallTreeView       *self)
{
  set_cell (list_item, self->spare_names, new_name_cell);
}

static void
teardown_name (GtkSignalListItemFactory *factory,
               GtkListItem              *list_item,
               EmbersCallTreeView       *self)
{
  spare_give (self->spare_names, list_item, SPARE_CELLS);
}

static void
bind_name (GtkSignalListItemFactory *factory,
           GtkListItem              *list_item,
           EmbersCallTreeView       *self)
{
  GtkTreeListRow *row = gtk_list_item_get_item (list_item);
  EmbersCallTreeExpander *expander = EMBERS_CALL_TREE_EXPANDER (gtk_list_item_get_child (list_item));
  EmbersCallTreeRow *item = _embers_call_tree_view_row_item (row);

  embers_call_tree_expander_set_list_row (expander, row);
  if (self->diff)
    {
      EmbersColor color;

      /* The diff flame graph's colour of the row's change */
      embers_palette_diff_color (base_share (self, embers_call_tree_row_get_baseline_total (item)),
                                 share (self, embers_call_tree_row_get_total (item)),
                                 self->diff_palette, &color);
      embers_call_tree_expander_set_mark (expander, (const GdkRGBA *) &color);
    }
  else
    embers_call_tree_expander_set_mark (expander, NULL);
  embers_call_tree_text_set_text (EMBERS_CALL_TREE_TEXT (embers_call_tree_expander_get_child (expander)),
                                  embers_call_tree_row_get_name (item));
  g_signal_connect_object (row, "notify::expanded", G_CALLBACK (_embers_call_tree_view_on_row_expanded), self, 0);
  g_ptr_array_add (self->bound_names, list_item);
  _embers_call_tree_view_update_name_marks (self, list_item);
}

static void
unbind_name (GtkSignalListItemFactory *factory,
             GtkListItem              *list_item,
             EmbersCallTreeView       *self)
{
  GtkTreeListRow *row = gtk_list_item_get_item (list_item);

  if (row != NULL)
    g_signal_handlers_disconnect_by_func (row, _embers_call_tree_view_on_row_expanded, self);
  embers_call_tree_expander_set_list_row (EMBERS_CALL_TREE_EXPANDER (gtk_list_item_get_child (list_item)), NULL);
  g_ptr_array_remove_fast (self->bound_names, list_item);
}

static void
setup_value (GtkSignalListItemFactory *factory,
             GtkListItem              *list_item,
             EmbersCallTreeView       *self)
{
  set_cell (list_item, self->spare_values, new_value_cell);
}

static void
teardown_value (GtkSignalListItemFactory *factory,
                GtkListItem              *list_item,
                EmbersCallTreeView       *self)
{
  /* Four values a row at the most */
  spare_give (self->spare_values, list_item, 4 * SPARE_CELLS);
}

static EmbersCallTreeRow *
cell_item (GtkListItem *list_item)
{
  return _embers_call_tree_view_row_item (gtk_list_item_get_item (list_item));
}

static void
set_value (GtkListItem        *list_item,
           EmbersCallTreeView *self,
           gint64              value)
{
  g_autofree char *text = embers_format_value (value, self->unit);

  embers_call_tree_text_set_text (EMBERS_CALL_TREE_TEXT (gtk_list_item_get_child (list_item)), text);
}

/* A value and its share of the root's, in one cell */
static void
set_value_share (GtkListItem        *list_item,
                 EmbersCallTreeView *self,
                 gint64              value)
{
  EmbersCallTreeText *cell = EMBERS_CALL_TREE_TEXT (gtk_list_item_get_child (list_item));
  g_autofree char *text = embers_format_value (value, self->unit);
  g_autofree char *percent = embers_format_percent (share (self, value));

  embers_call_tree_text_set_text (cell, text);
  embers_call_tree_text_set_second (cell, percent);
}

static void
bind_self (GtkSignalListItemFactory *factory,
           GtkListItem              *list_item,
           EmbersCallTreeView       *self)
{
  set_value_share (list_item, self, embers_call_tree_row_get_self (cell_item (list_item)));
}

static void
bind_total (GtkSignalListItemFactory *factory,
            GtkListItem              *list_item,
            EmbersCallTreeView       *self)
{
  set_value_share (list_item, self, embers_call_tree_row_get_total (cell_item (list_item)));
}

static void
unbind_bar (GtkSignalListItemFactory *factory,
            GtkListItem              *list_item,
            EmbersCallTreeView       *self)
{
  g_ptr_array_remove_fast (self->bound_bars, list_item);
}

static void
bind_baseline (GtkSignalListItemFactory *factory,
               GtkListItem              *list_item,
               EmbersCallTreeView       *self)
{
  set_value (list_item, self, embers_call_tree_row_get_baseline_total (cell_item (list_item)));
}

static void
bind_comparison (GtkSignalListItemFactory *factory,
                 GtkListItem              *list_item,
                 EmbersCallTreeView       *self)
{
  set_value (list_item, self, embers_call_tree_row_get_total (cell_item (list_item)));
}

static void
bind_change (GtkSignalListItemFactory *factory,
             GtkListItem              *list_item,
             EmbersCallTreeView       *self)
{
  EmbersCallTreeRow *item = cell_item (list_item);
  g_autofree char *text = embers_diff_format_delta (embers_call_tree_row_get_baseline_total (item),
                                                    embers_call_tree_row_get_total (item), self->unit);

  embers_call_tree_text_set_text (EMBERS_CALL_TREE_TEXT (gtk_list_item_get_child (list_item)), text);
}

static void
bind_change_percent (GtkSignalListItemFactory *factory,
                     GtkListItem              *list_item,
                     EmbersCallTreeView       *self)
{
  g_autofree char *text = change_text (cell_item (list_item));

  embers_call_tree_text_set_text (EMBERS_CALL_TREE_TEXT (gtk_list_item_get_child (list_item)), text);
}

static void
setup_bar (GtkSignalListItemFactory *factory,
           GtkListItem              *list_item,
           EmbersCallTreeView       *self)
{
  set_cell (list_item, self->spare_bars, new_bar_cell);
}

static void
teardown_bar (GtkSignalListItemFactory *factory,
              GtkListItem              *list_item,
              EmbersCallTreeView       *self)
{
  spare_give (self->spare_bars, list_item, SPARE_CELLS);
}

static void
bind_bar (GtkSignalListItemFactory *factory,
          GtkListItem              *list_item,
          EmbersCallTreeView       *self)
{
  EmbersCallTreeRow *item = cell_item (list_item);
  EmbersCallTreeBar *bar = EMBERS_CALL_TREE_BAR (gtk_list_item_get_child (list_item));

  if (factory != NULL)
    g_ptr_array_add (self->bound_bars, list_item);

  if (self->diff)
    {
      /* The diff flame graph's colour for the change, over the larger
       * share */
      double left = base_share (self, embers_call_tree_row_get_baseline_total (item));
      double right = share (self, embers_call_tree_row_get_total (item));
      EmbersColor color;

      embers_palette_diff_color (left, right, self->diff_palette, &color);
      embers_call_tree_bar_set_diff (bar, MAX (left, right), &color);
      return;
    }
  embers_call_tree_bar_set (bar,
                            share (self, embers_call_tree_row_get_total (item)),
                            share (self, embers_call_tree_row_get_self (item)));
}

/* What a screen reader says for a row (the row factory's bind; the level
 * and the expanded state are on the expander, the tree's focusable part) */
static void
bind_row (GtkSignalListItemFactory *factory,
          GObject                  *object,
          EmbersCallTreeView       *self)
{
  GtkColumnViewRow *row = GTK_COLUMN_VIEW_ROW (object);
  GtkTreeListRow *tree_row = gtk_column_view_row_get_item (row);
  EmbersCallTreeRow *item;
  g_autofree char *self_value = NULL;
  g_autofree char *self_percent = NULL;
  g_autofree char *total_value = NULL;
  g_autofree char *total_percent = NULL;
  g_autofree char *text = NULL;

  if (tree_row == NULL)
    return;
  item = _embers_call_tree_view_row_item (tree_row);
  if (self->diff)
    {
      g_autofree char *base = embers_format_value (embers_call_tree_row_get_baseline_total (item), self->unit);
      g_autofree char *comp = embers_format_value (embers_call_tree_row_get_total (item), self->unit);
      g_autofree char *delta = embers_diff_format_delta (embers_call_tree_row_get_baseline_total (item),
                                                         embers_call_tree_row_get_total (item), self->unit);
      g_autofree char *change = change_text (item);

      /* Translators: what a screen reader says for a row of the call tree
       * of a comparison: the function, its level (1 for the root), its
       * total in the baseline and in the comparison, the difference and
       * the change of its share, e.g. "runtime.mallocgc, level 4,
       * baseline 300 ms, comparison 450 ms, change +150 ms (+42.0%)"; the
       * change may be "new" or "removed" */
      text = g_strdup_printf (_("%s, level %u, baseline %s, comparison %s, change %s (%s)"),
                              embers_call_tree_row_get_name (item),
                              embers_call_tree_row_get_depth (item) + 1,
                              base, comp, delta, change);
      gtk_column_view_row_set_accessible_label (row, text);
      return;
    }
  self_value = embers_format_value (embers_call_tree_row_get_self (item), self->unit);
  total_value = embers_format_value (embers_call_tree_row_get_total (item), self->unit);
  self_percent = embers_format_percent (share (self, embers_call_tree_row_get_self (item)));
  total_percent = embers_format_percent (share (self, embers_call_tree_row_get_total (item)));
  /* Translators: what a screen reader says for a row of the call tree:
   * the function, its level in the tree (1 for the root), its total and
   * share of all, its self value and share, e.g. "runtime.mallocgc,
   * level 4, total 300 ms (10.0%), self 120 ms (4.00%)" */
  text = g_strdup_printf (_("%s, level %u, total %s (%s), self %s (%s)"),
                          embers_call_tree_row_get_name (item),
                          embers_call_tree_row_get_depth (item) + 1,
                          total_value, total_percent, self_value, self_percent);
  gtk_column_view_row_set_accessible_label (row, text);
}

void
_embers_call_tree_view_refresh_colors (EmbersCallTreeView *self)
{
  /* The rows in sight take the new colours */
  for (guint i = 0; i < self->bound_bars->len; i++)
    bind_bar (NULL, g_ptr_array_index (self->bound_bars, i), self);
  for (guint i = 0; i < self->bound_names->len; i++)
    {
      GtkListItem *list_item = g_ptr_array_index (self->bound_names, i);
      EmbersCallTreeRow *item = cell_item (list_item);
      EmbersColor color;

      embers_palette_diff_color (base_share (self, embers_call_tree_row_get_baseline_total (item)),
                                 share (self, embers_call_tree_row_get_total (item)),
                                 self->diff_palette, &color);
      embers_call_tree_expander_set_mark (EMBERS_CALL_TREE_EXPANDER (gtk_list_item_get_child (list_item)),
                                          (const GdkRGBA *) &color);
    }
}

void
_embers_call_tree_view_bind_cell_callbacks (GtkWidgetClass *widget_class)
{
  gtk_widget_class_bind_template_callback (widget_class, setup_name);
  gtk_widget_class_bind_template_callback (widget_class, teardown_name);
  gtk_widget_class_bind_template_callback (widget_class, teardown_value);
  gtk_widget_class_bind_template_callback (widget_class, teardown_bar);
  gtk_widget_class_bind_template_callback (widget_class, bind_name);
  gtk_widget_class_bind_template_callback (widget_class, unbind_name);
  gtk_widget_class_bind_template_callback (widget_class, setup_value);
  gtk_widget_class_bind_template_callback (widget_class, bind_self);
  gtk_widget_class_bind_template_callback (widget_class, bind_total);
  gtk_widget_class_bind_template_callback (widget_class, setup_bar);
  gtk_widget_class_bind_template_callback (widget_class, bind_bar);
  gtk_widget_class_bind_template_callback (widget_class, unbind_bar);
  gtk_widget_class_bind_template_callback (widget_class, bind_baseline);
  gtk_widget_class_bind_template_callback (widget_class, bind_comparison);
  gtk_widget_class_bind_template_callback (widget_class, bind_change);
  gtk_widget_class_bind_template_callback (widget_class, bind_change_percent);
  gtk_widget_class_bind_template_callback (widget_class, bind_row);
}
