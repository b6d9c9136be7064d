/* embers-call-tree-view.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "embers-call-tree-view-private.h"
#include "embers-call-tree-cells.h"
#include "embers-column-keys.h"
#include "embers-widgets.h"
#include "embers-top-table.h"
#include "embers-units.h"

/* The view */


enum {
  PROP_0,
  PROP_INVERTED,
  PROP_SELECTED_NODE,
  PROP_SELECTED_NAME,
  PROP_SETTLED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (EmbersCallTreeView, embers_call_tree_view, GTK_TYPE_WIDGET)

static void reveal_name_id (EmbersCallTreeView *self,
                            guint32             name_id);
static void start_walk (EmbersCallTreeView *self,
                        GtkTreeListRow     *from,
                        const guint32      *path,
                        guint               n_path,
                        gboolean            heaviest);

/* Holding the rows' changes: the tree list model announces each row that
 * opens on its own, and the column view takes each announcement at a cost
 * that grows with the rows it has. Between the two, while held, the
 * changes are gathered and go on as one when let go: one announcement for
 * a step of * that opened hundreds of rows, the rows in sight that stay
 * keeping their widgets. Nothing reads the rows between holding and
 * letting go (both in one call): what is in the changed range then is
 * the model's own. */

#define EMBERS_TYPE_ROWS_HOLD (embers_rows_hold_get_type ())
G_DECLARE_FINAL_TYPE (EmbersRowsHold, embers_rows_hold, EMBERS, ROWS_HOLD, GObject)

struct _EmbersRowsHold
{
  GObject     parent_instance;

  GListModel *model;
  gulong      changed_id;
  gboolean    held;
  guint       n_shown;    /* the number of items announced */
  guint       start;      /* the first changed position while held */
  guint       tail;       /* items at the end no change touched */
};

static GType
embers_rows_hold_get_item_type (GListModel *list)
{
  return G_TYPE_OBJECT;
}

static guint
embers_rows_hold_get_n_items (GListModel *list)
{
  return EMBERS_ROWS_HOLD (list)->n_shown;
}

static gpointer
embers_rows_hold_get_item (GListModel *list,
                           guint       position)
{
  EmbersRowsHold *self = EMBERS_ROWS_HOLD (list);
  guint n;

  if (self->model == NULL || position >= self->n_shown)
    return NULL;
  /* Held: the untouched end where it is now */
  n = g_list_model_get_n_items (self->model);
  if (self->held && position >= self->n_shown - self->tail)
    position = position + n - self->n_shown;
  return g_list_model_get_item (self->model, position);
}

static void
embers_rows_hold_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = embers_rows_hold_get_item_type;
  iface->get_n_items = embers_rows_hold_get_n_items;
  iface->get_item = embers_rows_hold_get_item;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (EmbersRowsHold, embers_rows_hold, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, embers_rows_hold_list_model_init))

static void
on_hold_items_changed (EmbersRowsHold *self,
                       guint           position,
                       guint           removed,
                       guint           added)
{
  guint n_before;

  if (!self->held)
    {
      self->n_shown = g_list_model_get_n_items (self->model);
      g_list_model_items_changed (G_LIST_MODEL (self), position, removed, added);
      return;
    }
  /* The list as it was before this change */
  n_before = g_list_model_get_n_items (self->model) - added + removed;
  self->start = MIN (self->start, position);
  self->tail = MIN (self->tail, n_before - position - removed);
}

static void
embers_rows_hold_release (EmbersRowsHold *self)
{
  guint n, n_shown;

  if (!self->held)
    return;
  self->held = FALSE;
  n = self->model != NULL ? g_list_model_get_n_items (self->model) : 0;
  n_shown = self->n_shown;
  self->n_shown = n;
  if (self->start < n_shown || self->start < n)
    g_list_model_items_changed (G_LIST_MODEL (self), self->start,
                                n_shown - self->start - self->tail, n - self->start - self->tail);
}

static void
embers_rows_hold_hold (EmbersRowsHold *self)
{
  if (self->held)
    return;
  self->held = TRUE;
  self->start = G_MAXUINT;
  self->tail = self->n_shown;
}

static void
embers_rows_hold_set_model (EmbersRowsHold *self,
                            GListModel     *model)
{
  guint n_shown = self->n_shown;

  embers_rows_hold_release (self);
  if (self->model != NULL)
    {
      g_clear_signal_handler (&self->changed_id, self->model);
      g_clear_object (&self->model);
    }
  if (model != NULL)
    {
      self->model = g_object_ref (model);
      self->changed_id = g_signal_connect_swapped (model, "items-changed",
                                                   G_CALLBACK (on_hold_items_changed), self);
    }
  self->n_shown = model != NULL ? g_list_model_get_n_items (model) : 0;
  if (n_shown > 0 || self->n_shown > 0)
    g_list_model_items_changed (G_LIST_MODEL (self), 0, n_shown, self->n_shown);
}

static void
embers_rows_hold_dispose (GObject *object)
{
  EmbersRowsHold *self = EMBERS_ROWS_HOLD (object);

  if (self->model != NULL)
    g_clear_signal_handler (&self->changed_id, self->model);
  g_clear_object (&self->model);

  G_OBJECT_CLASS (embers_rows_hold_parent_class)->dispose (object);
}

static void
embers_rows_hold_class_init (EmbersRowsHoldClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = embers_rows_hold_dispose;
}

static void
embers_rows_hold_init (EmbersRowsHold *self)
{
}

/* Growing the rows: a few a frame */

/* Rows a frame adds, and the size past which the column view builds no
 * more rows for what it is given (it keeps about 200 around what is in
 * sight) so that the rest can come at once. Each row built costs about
 * 0.5-1 ms of a frame under software GL (bench-call-tree-window): 16 a
 * frame keeps * and inverting near 20 ms a frame and fills a window in
 * two or three frames (48 a frame saved next to nothing, 8 a frame little
 * more than 16 for twice the frames) */
#define GROW_ROWS 16
#define WHOLE_AFTER_ROWS 250

static gboolean
grow_tick (GtkWidget     *widget,
           GdkFrameClock *clock,
           gpointer       user_data)
{
  EmbersCallTreeView *self = EMBERS_CALL_TREE_VIEW (widget);
  guint size = gtk_slice_list_model_get_size (self->slice);

  /* Hidden, nothing is built: it goes on when shown (a tick callback
   * would keep the frame clock running) */
  if (!gtk_widget_get_mapped (widget))
    {
      self->grow_id = 0;
      return G_SOURCE_REMOVE;
    }
  if (size < WHOLE_AFTER_ROWS)
    {
      gtk_slice_list_model_set_size (self->slice, size + GROW_ROWS);
      return G_SOURCE_CONTINUE;
    }
  gtk_slice_list_model_set_size (self->slice, G_MAXUINT);
  self->grow_id = 0;
  return G_SOURCE_REMOVE;
}

static void
grow_start (EmbersCallTreeView *self)
{
  if (self->grow_id == 0 && gtk_slice_list_model_get_size (self->slice) != G_MAXUINT &&
      gtk_widget_get_mapped (GTK_WIDGET (self)))
    self->grow_id = gtk_widget_add_tick_callback (GTK_WIDGET (self), grow_tick, NULL, NULL);
}

/* Before the column view takes a model: a few rows, and the selected
 * row, to begin with */
static void
rows_restart (EmbersCallTreeView *self,
              guint               needed)
{
  gtk_slice_list_model_set_size (self->slice, MAX (GROW_ROWS, needed));
  grow_start (self);
}

/* Before anything goes to @position: the rows cover it */
static void
rows_cover (EmbersCallTreeView *self,
            guint               position)
{
  guint size = gtk_slice_list_model_get_size (self->slice);

  if (position == G_MAXUINT)
    gtk_slice_list_model_set_size (self->slice, G_MAXUINT);
  else if (position >= size)
    gtk_slice_list_model_set_size (self->slice, position + GROW_ROWS);
  grow_start (self);
}

/* Selection */

static void
on_selection_changed (EmbersCallTreeView *self)
{
  GtkTreeListRow *row = gtk_single_selection_get_selected_item (self->selection);
  EmbersCallTreeRow *item = row != NULL ? _embers_call_tree_view_row_item (row) : NULL;
  guint32 node = item != NULL ? embers_call_tree_row_get_node (item) : EMBERS_NODE_NONE;

  if (item == self->selected_row)
    return;

  g_set_object (&self->selected_row, item);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_NAME]);
  if (node != self->selected_node)
    {
      self->selected_node = node;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_NODE]);
    }
}

static void
select_position (EmbersCallTreeView *self,
                 guint               position)
{
  rows_cover (self, position);
  gtk_column_view_scroll_to (self->column_view, position, NULL,
                             GTK_LIST_SCROLL_FOCUS | GTK_LIST_SCROLL_SELECT, NULL);
}

/* Walks */

static void
attach (EmbersCallTreeView *self)
{
  if (!self->detached)
    return;
  self->detached = FALSE;
  rows_restart (self, gtk_single_selection_get_selected (self->selection) + 1);
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (self->selection));
}

static void expand_all_cancel (EmbersCallTreeView *self);

static void
walk_stop (EmbersCallTreeView *self)
{
  gboolean was_walking = self->walk_row != NULL;

  expand_all_cancel (self);
  attach (self);

  if (self->walk_wait != NULL)
    {
      g_clear_signal_handler (&self->walk_wait_id, self->walk_wait);
      g_clear_object (&self->walk_wait);
    }
  g_clear_object (&self->walk_row);
  g_array_set_size (self->walk_path, 0);
  self->walk_index = 0;
  if (was_walking)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SETTLED]);
}

static void
expand (EmbersCallTreeView *self,
        GtkTreeListRow     *row)
{
  self->expanding = TRUE;
  gtk_tree_list_row_set_expanded (row, TRUE);
  self->expanding = FALSE;
}

static void walk_continue (EmbersCallTreeView *self);

static void
on_walk_list_ready (EmbersCallTreeView *self)
{
  g_clear_signal_handler (&self->walk_wait_id, self->walk_wait);
  g_clear_object (&self->walk_wait);
  walk_continue (self);
}

static void
walk_continue (EmbersCallTreeView *self)
{
  while (self->walk_row != NULL)
    {
      GtkTreeListRow *row = self->walk_row;
      GListModel *kids;
      GtkTreeListRow *child;
      guint index;

      if (!gtk_tree_list_row_is_expandable (row))
        break;
      expand (self, row);
      kids = gtk_tree_list_row_get_children (row);
      if (kids == NULL)
        break;
      if (EMBERS_IS_CALL_TREE_LIST (kids) && !embers_call_tree_list_is_ready (EMBERS_CALL_TREE_LIST (kids)))
        {
          /* Computed on a thread: go on when it is there */
          self->walk_wait = g_object_ref (kids);
          self->walk_wait_id = g_signal_connect_swapped (kids, "notify::ready",
                                                         G_CALLBACK (on_walk_list_ready), self);
          return;
        }

      if (self->walk_heaviest)
        {
          if (!EMBERS_IS_CALL_TREE_LIST (kids))
            break;
          index = embers_call_tree_list_find_heaviest (EMBERS_CALL_TREE_LIST (kids));
          if (index == G_MAXUINT)
            break;
          embers_call_tree_list_show_upto (EMBERS_CALL_TREE_LIST (kids), index);
        }
      else
        {
          if (self->walk_index >= self->walk_path->len)
            break;
          index = embers_call_tree_list_find_node (EMBERS_CALL_TREE_LIST (kids),
                                                  g_array_index (self->walk_path, guint32, self->walk_index++));
          if (index == G_MAXUINT)
            break;
          /* Further down than the rows announced yet */
          embers_call_tree_list_show_upto (EMBERS_CALL_TREE_LIST (kids), index);
        }

      child = gtk_tree_list_row_get_child_row (row, index);
      if (child == NULL)
        break;
      g_set_object (&self->walk_row, child);
      g_object_unref (child);

      if (!self->walk_heaviest && self->walk_index == self->walk_path->len)
        {
          attach (self);
          select_position (self, gtk_tree_list_row_get_position (child));
          break;
        }
      if (self->walk_heaviest && !embers_call_tree_row_has_children (_embers_call_tree_view_row_item (child)))
        break;
    }
  walk_stop (self);
}

static void
start_walk (EmbersCallTreeView *self,
            GtkTreeListRow     *from,
            const guint32      *path,
            guint               n_path,
            gboolean            heaviest)
{
  gboolean was_settled = self->walk_row == NULL;
  gboolean detached = self->detached;

  /* A tree still opening stays detached until this walk ends */
  self->detached = FALSE;
  walk_stop (self);
  self->detached = detached;
  self->walk_row = g_object_ref (from);
  self->walk_heaviest = heaviest;
  if (path != NULL)
    g_array_append_vals (self->walk_path, path, n_path);
  if (was_settled)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SETTLED]);
  walk_continue (self);
}

/* *: everything below a row opens, breadth first (a limit cuts the
 * deepest rows), a step a frame. Each step's rows reach the column view
 * as one change (the hold); any other walk, a new tree or a row closed
 * stops it. Lists not ready yet open when they are, without their
 * children. */

/* Rows a step opens at the most (before the last list it opens) */
#define EXPAND_ALL_STEP_ROWS 400

static void
expand_all_cancel (EmbersCallTreeView *self)
{
  gboolean was_running = !g_queue_is_empty (&self->all_queue);

  g_queue_clear_full (&self->all_queue, g_object_unref);
  if (self->all_wait != NULL)
    {
      g_clear_signal_handler (&self->all_wait_id, self->all_wait);
      g_clear_object (&self->all_wait);
    }
  if (self->all_tick_id != 0)
    {
      gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->all_tick_id);
      self->all_tick_id = 0;
    }
  if (was_running && self->walk_row == NULL)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SETTLED]);
}

static gboolean expand_all_tick (GtkWidget     *widget,
                                 GdkFrameClock *clock,
                                 gpointer       user_data);

static void
expand_all_go_on (EmbersCallTreeView *self)
{
  if (self->all_tick_id == 0 && self->all_wait == NULL && !g_queue_is_empty (&self->all_queue))
    self->all_tick_id = gtk_widget_add_tick_callback (GTK_WIDGET (self), expand_all_tick, NULL, NULL);
}

static void
on_all_list_ready (EmbersCallTreeView *self)
{
  g_clear_signal_handler (&self->all_wait_id, self->all_wait);
  g_clear_object (&self->all_wait);
  expand_all_go_on (self);
}

/* Opens up to about @budget rows; TRUE while rows remain. A row's list
 * computed on a thread is waited for (the row stays first in line), and
 * a list's rows are all announced at once (not a chunk at a time): what
 * opens does not depend on how fast lists come */
static gboolean
expand_all_step (EmbersCallTreeView *self,
                 guint               budget)
{
  guint step = 0;

  embers_rows_hold_hold (EMBERS_ROWS_HOLD (self->hold));
  while (step < budget && self->all_wait == NULL && !g_queue_is_empty (&self->all_queue))
    {
      GtkTreeListRow *r = g_queue_peek_head (&self->all_queue);
      GListModel *kids;
      guint n;

      if (self->all_added >= EMBERS_CALL_TREE_VIEW_EXPAND_ALL_ROWS)
        {
          g_queue_clear_full (&self->all_queue, g_object_unref);
          break;
        }
      if (gtk_tree_list_row_is_expandable (r))
        {
          expand (self, r);
          kids = gtk_tree_list_row_get_children (r);
        }
      else
        kids = NULL;
      if (kids != NULL && EMBERS_IS_CALL_TREE_LIST (kids))
        {
          EmbersCallTreeList *list = EMBERS_CALL_TREE_LIST (kids);

          if (!embers_call_tree_list_is_ready (list))
            {
              self->all_wait = g_object_ref (kids);
              self->all_wait_id = g_signal_connect_swapped (kids, "notify::ready",
                                                            G_CALLBACK (on_all_list_ready), self);
              break;
            }
          n = embers_call_tree_list_get_n_rows (list);
          if (n > 0)
            embers_call_tree_list_show_upto (list, n - 1);
        }
      n = kids != NULL ? g_list_model_get_n_items (kids) : 0;
      g_queue_pop_head (&self->all_queue);
      self->all_added += n;
      step += n + 1;
      for (guint i = 0; i < n; i++)
        {
          GtkTreeListRow *child = gtk_tree_list_row_get_child_row (r, i);

          if (child != NULL)
            g_queue_push_tail (&self->all_queue, child);
        }
      g_object_unref (r);
    }
  embers_rows_hold_release (EMBERS_ROWS_HOLD (self->hold));

  if (!g_queue_is_empty (&self->all_queue))
    return TRUE;
  if (self->walk_row == NULL)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SETTLED]);
  return FALSE;
}

static gboolean
expand_all_tick (GtkWidget     *widget,
                 GdkFrameClock *clock,
                 gpointer       user_data)
{
  EmbersCallTreeView *self = EMBERS_CALL_TREE_VIEW (widget);

  /* Out of sight, nothing is drawn between steps: the rest at once */
  if (expand_all_step (self, gtk_widget_get_mapped (widget) ? EXPAND_ALL_STEP_ROWS : G_MAXUINT) &&
      self->all_wait == NULL)
    return G_SOURCE_CONTINUE;
  /* Done, or a list to wait for (on_all_list_ready goes on) */
  self->all_tick_id = 0;
  return G_SOURCE_REMOVE;
}

/* Opening a row by its expander (or by any other hand) opens its heaviest
 * path too */
void
_embers_call_tree_view_on_row_expanded (GtkTreeListRow     *row,
                 GParamSpec         *pspec,
                 EmbersCallTreeView *self)
{
  if (self->expanding || !gtk_tree_list_row_get_expanded (row))
    return;
  start_walk (self, row, NULL, 0, TRUE);
}

static GListModel *
create_children (gpointer item,
                 gpointer user_data)
{
  EmbersCallTreeView *self = user_data;
  GListModel *kids = embers_call_tree_row_create_children (EMBERS_CALL_TREE_ROW (item));

  (void) self;
  return kids;
}

/* The columns */

/* The names' width at the least: narrower, the values give way, the least
 * needed first */
#define NAME_MIN_WIDTH 140

/* A mode's value columns, the most needed first, NULL-terminated */
static void
mode_columns (EmbersCallTreeView   *self,
              gboolean              diff,
              GtkColumnViewColumn **columns)
{
  guint i = 0;

  if (diff)
    {
      /* The change of share (what the diff flame graph colours by), the
       * change, the comparison, the baseline */
      columns[i++] = self->change_percent_column;
      columns[i++] = self->change_column;
      columns[i++] = self->comparison_column;
      columns[i++] = self->baseline_column;
    }
  else
    {
      columns[i++] = self->total_column;
      columns[i++] = self->self_column;
    }
  columns[i++] = self->bar_column;
  columns[i] = NULL;
}

static gboolean
has_column (EmbersCallTreeView  *self,
            GtkColumnViewColumn *column)
{
  return gtk_column_view_column_get_column_view (column) == self->column_view;
}

/* A comparison shows both sides and the change instead of self and total:
 * the other mode's columns leave the column view */
static void
set_mode_columns (EmbersCallTreeView *self,
                  gboolean            diff)
{
  GtkColumnViewColumn *order[] = {
    self->self_column, self->total_column, self->baseline_column, self->comparison_column,
    self->change_percent_column, self->change_column,
  };
  GtkColumnViewColumn *wanted[8];
  guint position = 1;

  if (self->columns_diff == diff)
    return;
  self->columns_diff = diff;
  mode_columns (self, diff, wanted);
  /* The sorter forgets a column that goes: no new tree for that */
  self->fitting = TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (order); i++)
    {
      gboolean want = FALSE;

      for (guint j = 0; wanted[j] != NULL; j++)
        want |= wanted[j] == order[i];
      if (!want && has_column (self, order[i]))
        gtk_column_view_remove_column (self->column_view, order[i]);
      else if (want)
        {
          if (!has_column (self, order[i]))
            gtk_column_view_insert_column (self->column_view, position, order[i]);
          position++;
        }
    }
  self->fitting = FALSE;
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

/* The value columns that fit @width beside the names (at least
 * NAME_MIN_WIDTH) are shown, the most needed first; the names take the
 * rest (the name column expands) */
static void
fit_columns (EmbersCallTreeView *self,
             int                 width)
{
  GtkColumnViewColumn *columns[8];
  int used = NAME_MIN_WIDTH;
  int name_width;
  gboolean room = TRUE;

  if (self->columns_diff < 0 || width <= 0)
    return;
  mode_columns (self, self->columns_diff, columns);
  self->fitting = TRUE;
  for (guint i = 0; columns[i] != NULL; i++)
    {
      int w = gtk_column_view_column_get_fixed_width (columns[i]);

      room = room && used + w <= width;
      if (room)
        used += w;
      if (gtk_column_view_column_get_visible (columns[i]) != room)
        gtk_column_view_column_set_visible (columns[i], room);
    }
  name_width = CLAMP (width - (used - NAME_MIN_WIDTH), NAME_MIN_WIDTH, self->name_width);
  if (gtk_column_view_column_get_fixed_width (self->name_column) != name_width)
    gtk_column_view_column_set_fixed_width (self->name_column, name_width);
  self->fitting = FALSE;
}

/* A name column dragged wider or narrower keeps that width where there
 * is room */
static void
on_name_width (EmbersCallTreeView *self)
{
  if (!self->fitting)
    self->name_width = MAX (NAME_MIN_WIDTH, gtk_column_view_column_get_fixed_width (self->name_column));
}

static void
update_columns (EmbersCallTreeView *self)
{
  gboolean diff = self->tree != NULL && embers_call_tree_is_diff (self->tree);

  self->diff = diff;
  self->root_total = self->tree != NULL ? embers_call_tree_get_total (self->tree) : 0;
  self->base_root_total = self->tree != NULL ? embers_call_tree_get_baseline_total (self->tree) : 0;
  set_mode_columns (self, diff);
}

static void
embers_call_tree_view_measure (GtkWidget      *widget,
                               GtkOrientation  orientation,
                               int             for_size,
                               int            *minimum,
                               int            *natural,
                               int            *minimum_baseline,
                               int            *natural_baseline)
{
  gtk_widget_measure (GTK_WIDGET (EMBERS_CALL_TREE_VIEW (widget)->scroller), orientation, for_size,
                      minimum, natural, minimum_baseline, natural_baseline);
}

static void
embers_call_tree_view_size_allocate (GtkWidget *widget,
                                     int        width,
                                     int        height,
                                     int        baseline)
{
  EmbersCallTreeView *self = EMBERS_CALL_TREE_VIEW (widget);

  /* Before the column view is given the width: what it shows fits it */
  fit_columns (self, width);
  gtk_widget_allocate (GTK_WIDGET (self->scroller), width, height, baseline, NULL);
}

static void
rebuild (EmbersCallTreeView *self)
{
  g_autoptr(GtkTreeListModel) model = NULL;
  GtkTreeListRow *root;

  walk_stop (self);
  /* The column view lets go of the old rows first: the new ones come to it
   * a few a frame, once the heaviest path is open */
  gtk_column_view_set_model (self->column_view, NULL);
  self->detached = TRUE;
  g_clear_pointer (&self->tree, embers_call_tree_unref);
  g_clear_object (&self->selected_row);
  self->selected_node = EMBERS_NODE_NONE;

  if (self->profile != NULL)
    {
      self->tree = embers_call_tree_new (self->profile, self->sample_type, self->inverted);
      embers_call_tree_set_sort (self->tree, self->sort, self->descending);
      model = gtk_tree_list_model_new (embers_call_tree_create_roots (self->tree), FALSE, FALSE,
                                       create_children, self, NULL);
    }
  else
    {
      model = gtk_tree_list_model_new (G_LIST_MODEL (g_list_store_new (EMBERS_TYPE_CALL_TREE_ROW)), FALSE, FALSE,
                                       create_children, self, NULL);
    }
  embers_rows_hold_set_model (EMBERS_ROWS_HOLD (self->hold), G_LIST_MODEL (model));
  g_set_object (&self->tree_model, model);
  update_columns (self);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_NODE]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_NAME]);

  root = gtk_tree_list_model_get_row (model, 0);
  if (root != NULL)
    {
      gtk_single_selection_set_selected (self->selection, 0);
      /* The path opens with nothing shown; the rows in sight are built
       * at the end */
      start_walk (self, root, NULL, 0, TRUE);
      g_object_unref (root);
    }
  else
    attach (self);
}

/* Inverted: selects the function's row among the roots' children */
static void
reveal_name_id (EmbersCallTreeView *self,
                guint32             name_id)
{
  g_autoptr(GtkTreeListRow) root = gtk_tree_list_model_get_row (self->tree_model, 0);
  GListModel *kids;
  guint index;

  if (root == NULL)
    return;
  expand (self, root);
  kids = gtk_tree_list_row_get_children (root);
  if (kids == NULL || !embers_call_tree_list_is_ready (EMBERS_CALL_TREE_LIST (kids)))
    return;
  index = embers_call_tree_list_find_name (EMBERS_CALL_TREE_LIST (kids), name_id);
  if (index != G_MAXUINT)
    {
      g_autoptr(GtkTreeListRow) child = NULL;

      embers_call_tree_list_show_upto (EMBERS_CALL_TREE_LIST (kids), index);
      child = gtk_tree_list_row_get_child_row (root, index);
      if (child != NULL)
        {
          walk_stop (self);
          select_position (self, gtk_tree_list_row_get_position (child));
        }
    }
}

/* Sorting: a header's click orders every level by its column (a new
 * tree, the selected row opened again) */

static EmbersCallTreeSort
column_sort (EmbersCallTreeView  *self,
             GtkColumnViewColumn *column)
{
  if (column == self->name_column)
    return EMBERS_CALL_TREE_SORT_NAME;
  if (column == self->self_column)
    return EMBERS_CALL_TREE_SORT_SELF;
  if (column == self->total_column || column == self->comparison_column)
    return EMBERS_CALL_TREE_SORT_TOTAL;
  if (column == self->baseline_column)
    return EMBERS_CALL_TREE_SORT_BASELINE;
  if (column == self->change_column)
    return EMBERS_CALL_TREE_SORT_CHANGE;
  if (column == self->change_percent_column)
    return EMBERS_CALL_TREE_SORT_CHANGE_PERCENT;
  return EMBERS_CALL_TREE_SORT_HEAVIEST;
}

static void
on_sorter_changed (EmbersCallTreeView *self)
{
  if (self->fitting)
    return;

  GtkColumnViewSorter *sorter = GTK_COLUMN_VIEW_SORTER (gtk_column_view_get_sorter (self->column_view));
  GtkColumnViewColumn *column = gtk_column_view_sorter_get_primary_sort_column (sorter);
  EmbersCallTreeSort sort = column_sort (self, column);
  gboolean descending = gtk_column_view_sorter_get_primary_sort_order (sorter) == GTK_SORT_DESCENDING;
  guint32 node = self->selected_node;
  guint32 name_id = G_MAXUINT32;

  if (column != NULL && column != self->sort_column && column != self->name_column && !descending)
    {
      /* A number's column sorts largest first at its first click (GTK
       * starts with ascending); the next click turns it */
      self->sort_column = column;
      gtk_column_view_sort_by_column (self->column_view, column, GTK_SORT_DESCENDING);
      return;
    }
  self->sort_column = column;
  if (sort == self->sort && (descending == self->descending || sort == EMBERS_CALL_TREE_SORT_HEAVIEST))
    return;
  self->sort = sort;
  self->descending = descending;
  if (self->selected_row != NULL && embers_call_tree_row_get_depth (self->selected_row) > 0)
    name_id = embers_call_tree_row_get_name_id (self->selected_row);
  rebuild (self);
  if (!self->inverted && node != EMBERS_NODE_NONE && node != 0)
    embers_call_tree_view_reveal_node (self, node);
  else if (self->inverted && name_id != G_MAXUINT32)
    reveal_name_id (self, name_id);
}

/* Keys */

static GtkTreeListRow *
selected_tree_row (EmbersCallTreeView *self)
{
  return gtk_single_selection_get_selected_item (self->selection);
}

/* The tree's keys: a shortcut controller in the capture phase of the
 * column view, ahead of its own use of the arrows. A key that does
 * nothing here (Right on a leaf) goes on to the column view. */
static gboolean
tree_key (GtkWidget *widget,
          GVariant  *args,
          gpointer   user_data)
{
  EmbersCallTreeView *self = user_data;
  GtkTreeListRow *row = selected_tree_row (self);
  const char *what = g_variant_get_string (args, NULL);

  /* End goes to the last row: all of them there first (and the column
   * view goes on with the key) */
  if (g_str_equal (what, "end"))
    {
      rows_cover (self, G_MAXUINT);
      return FALSE;
    }
  if (row == NULL)
    return FALSE;

  if (g_str_equal (what, "open") || g_str_equal (what, "open-or-child"))
    {
      if (!gtk_tree_list_row_is_expandable (row))
        return FALSE;
      if (!gtk_tree_list_row_get_expanded (row))
        embers_call_tree_view_expand_selected (self);
      else if (g_str_equal (what, "open-or-child"))
        {
          g_autoptr(GtkTreeListRow) child = gtk_tree_list_row_get_child_row (row, 0);

          if (child != NULL)
            select_position (self, gtk_tree_list_row_get_position (child));
        }
      return TRUE;
    }
  if (g_str_equal (what, "close") || g_str_equal (what, "close-or-parent"))
    {
      if (gtk_tree_list_row_get_expanded (row))
        {
          walk_stop (self);
          gtk_tree_list_row_set_expanded (row, FALSE);
        }
      else if (g_str_equal (what, "close-or-parent"))
        {
          g_autoptr(GtkTreeListRow) parent = gtk_tree_list_row_get_parent (row);

          if (parent == NULL)
            return FALSE;
          select_position (self, gtk_tree_list_row_get_position (parent));
        }
      return TRUE;
    }
  if (g_str_equal (what, "all"))
    {
      embers_call_tree_view_expand_all_selected (self);
      return TRUE;
    }
  return FALSE;
}

static void
add_tree_key (GtkShortcutController *controller,
              guint                  keyval,
              const char            *what,
              EmbersCallTreeView    *self)
{
  GtkShortcut *shortcut = gtk_shortcut_new (gtk_keyval_trigger_new (keyval, 0),
                                            gtk_callback_action_new (tree_key, self, NULL));

  gtk_shortcut_set_arguments (shortcut, g_variant_new_string (what));
  gtk_shortcut_controller_add_shortcut (controller, shortcut);
}

static void
on_activate (GtkColumnView      *column_view,
             guint               position,
             EmbersCallTreeView *self)
{
  g_autoptr(GtkTreeListRow) row = g_list_model_get_item (G_LIST_MODEL (self->selection), position);

  if (row == NULL || !gtk_tree_list_row_is_expandable (row))
    return;
  if (gtk_tree_list_row_get_expanded (row))
    {
      walk_stop (self);
      gtk_tree_list_row_set_expanded (row, FALSE);
    }
  else
    start_walk (self, row, NULL, 0, TRUE);
}

/* The flame graph's single keys act on the selected row's function */
static gboolean
name_key (GtkWidget *widget,
          GVariant  *args,
          gpointer   user_data)
{
  EmbersCallTreeView *self = EMBERS_CALL_TREE_VIEW (widget);
  const char *name = embers_call_tree_view_get_selected_name (self);

  if (name == NULL)
    return FALSE;
  return gtk_widget_activate_action (widget, g_variant_get_string (args, NULL), "s", name);
}

/* API */

GtkWidget *
embers_call_tree_view_new (void)
{
  return g_object_new (EMBERS_TYPE_CALL_TREE_VIEW, NULL);
}

void
embers_call_tree_view_set_profile (EmbersCallTreeView *self,
                                   EmbersProfile      *profile,
                                   guint               sample_type)
{
  g_return_if_fail (EMBERS_IS_CALL_TREE_VIEW (self));
  g_return_if_fail (profile == NULL || EMBERS_IS_PROFILE (profile));

  if (profile != NULL && sample_type >= embers_profile_get_n_sample_types (profile))
    sample_type = 0;
  if (profile == self->profile && sample_type == self->sample_type && self->tree != NULL)
    return;

  g_set_object (&self->profile, profile);
  self->sample_type = sample_type;
  g_clear_pointer (&self->unit, g_free);
  self->root_total = 0;
  if (profile != NULL && embers_profile_get_n_nodes (profile) > 0)
    {
      self->unit = g_strdup (embers_profile_get_sample_unit (profile, sample_type));
      self->root_total = embers_profile_node_total (profile, sample_type, 0);
    }
  rebuild (self);
}

EmbersProfile *
embers_call_tree_view_get_profile (EmbersCallTreeView *self)
{
  g_return_val_if_fail (EMBERS_IS_CALL_TREE_VIEW (self), NULL);
  return self->profile;
}

gboolean
embers_call_tree_view_get_inverted (EmbersCallTreeView *self)
{
  g_return_val_if_fail (EMBERS_IS_CALL_TREE_VIEW (self), FALSE);
  return self->inverted;
}

void
embers_call_tree_view_set_inverted (EmbersCallTreeView *self,
                                    gboolean            inverted)
{
  g_return_if_fail (EMBERS_IS_CALL_TREE_VIEW (self));

  inverted = !!inverted;
  if (inverted == self->inverted)
    return;
  self->inverted = inverted;
  rebuild (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_INVERTED]);
}

void
embers_call_tree_view_set_search (EmbersCallTreeView *self,
                                  EmbersSearch       *search)
{
  g_return_if_fail (EMBERS_IS_CALL_TREE_VIEW (self));

  if (search == self->search)
    return;
  g_clear_pointer (&self->search, embers_search_unref);
  if (search != NULL)
    self->search = embers_search_ref (search);
  for (guint i = 0; i < self->bound_names->len; i++)
    _embers_call_tree_view_update_name_marks (self, g_ptr_array_index (self->bound_names, i));
}

void
embers_call_tree_view_set_diff_palette (EmbersCallTreeView *self,
                                        EmbersDiffPalette   palette)
{
  g_return_if_fail (EMBERS_IS_CALL_TREE_VIEW (self));

  if (palette == self->diff_palette)
    return;
  self->diff_palette = palette;
  if (!self->diff)
    return;
  _embers_call_tree_view_refresh_colors (self);
}

EmbersDiffPalette
embers_call_tree_view_get_diff_palette (EmbersCallTreeView *self)
{
  g_return_val_if_fail (EMBERS_IS_CALL_TREE_VIEW (self), EMBERS_DIFF_PALETTE_RED_BLUE);
  return self->diff_palette;
}

guint32
embers_call_tree_view_get_selected_node (EmbersCallTreeView *self)
{
  g_return_val_if_fail (EMBERS_IS_CALL_TREE_VIEW (self), EMBERS_NODE_NONE);
  return self->selected_node;
}

const char *
embers_call_tree_view_get_selected_name (EmbersCallTreeView *self)
{
  g_return_val_if_fail (EMBERS_IS_CALL_TREE_VIEW (self), NULL);
  if (self->selected_row == NULL)
    return NULL;
  /* The root row is no function */
  if (embers_call_tree_row_get_depth (self->selected_row) == 0)
    return NULL;
  return embers_call_tree_row_get_name (self->selected_row);
}

void
embers_call_tree_view_reveal_node (EmbersCallTreeView *self,
                                   guint32             node)
{
  g_autoptr(GtkTreeListRow) root = NULL;
  g_autoptr(GArray) path = NULL;

  g_return_if_fail (EMBERS_IS_CALL_TREE_VIEW (self));

  if (self->profile == NULL || node >= embers_profile_get_n_nodes (self->profile) ||
      node == self->selected_node)
    return;
  root = gtk_tree_list_model_get_row (self->tree_model, 0);
  if (root == NULL)
    return;
  if (node == 0)
    {
      walk_stop (self);
      select_position (self, 0);
      return;
    }

  if (self->inverted)
    {
      reveal_name_id (self, embers_profile_node_name (self->profile, node));
      return;
    }

  path = g_array_new (FALSE, FALSE, sizeof (guint32));
  for (guint32 n = node; n != 0 && n != EMBERS_NODE_NONE; n = embers_profile_node_parent (self->profile, n))
    g_array_prepend_val (path, n);
  start_walk (self, root, (const guint32 *) path->data, path->len, FALSE);
}

void
embers_call_tree_view_expand_selected (EmbersCallTreeView *self)
{
  GtkTreeListRow *row;

  g_return_if_fail (EMBERS_IS_CALL_TREE_VIEW (self));

  row = selected_tree_row (self);
  if (row != NULL && gtk_tree_list_row_is_expandable (row))
    start_walk (self, row, NULL, 0, TRUE);
}

void
embers_call_tree_view_expand_all_selected (EmbersCallTreeView *self)
{
  GtkTreeListRow *row;
  gboolean was_settled;

  g_return_if_fail (EMBERS_IS_CALL_TREE_VIEW (self));

  row = selected_tree_row (self);
  if (row == NULL)
    return;
  walk_stop (self);
  was_settled = embers_call_tree_view_is_settled (self);
  self->all_added = 0;
  g_queue_push_tail (&self->all_queue, g_object_ref (row));
  if (was_settled)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SETTLED]);
  /* A small tree opens at once; a big one goes on a step a frame */
  if (expand_all_step (self, EXPAND_ALL_STEP_ROWS))
    expand_all_go_on (self);
}

guint
embers_call_tree_view_get_n_rows (EmbersCallTreeView *self)
{
  g_return_val_if_fail (EMBERS_IS_CALL_TREE_VIEW (self), 0);
  return self->tree_model != NULL ? g_list_model_get_n_items (G_LIST_MODEL (self->tree_model)) : 0;
}

gboolean
embers_call_tree_view_is_settled (EmbersCallTreeView *self)
{
  g_return_val_if_fail (EMBERS_IS_CALL_TREE_VIEW (self), TRUE);
  return self->walk_row == NULL && g_queue_is_empty (&self->all_queue);
}

GtkSelectionModel *
embers_call_tree_view_get_model (EmbersCallTreeView *self)
{
  g_return_val_if_fail (EMBERS_IS_CALL_TREE_VIEW (self), NULL);
  return GTK_SELECTION_MODEL (self->selection);
}

/* GObject */

static void
embers_call_tree_view_dispose (GObject *object)
{
  EmbersCallTreeView *self = EMBERS_CALL_TREE_VIEW (object);

  walk_stop (self);
  if (self->grow_id != 0)
    {
      gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->grow_id);
      self->grow_id = 0;
    }
  if (self->column_view != NULL)
    g_signal_handlers_disconnect_by_func (gtk_column_view_get_sorter (self->column_view), on_sorter_changed, self);
  if (self->columns_diff >= 0)
    {
      /* The columns out of the column view are this view's to drop */
      GtkColumnViewColumn *all[] = {
        self->self_column, self->total_column, self->baseline_column, self->comparison_column,
        self->change_percent_column, self->change_column,
      };

      for (guint i = 0; i < G_N_ELEMENTS (all); i++)
        g_object_unref (all[i]);
      self->columns_diff = -1;
    }
  gtk_widget_dispose_template (GTK_WIDGET (self), EMBERS_TYPE_CALL_TREE_VIEW);
  /* The rows' teardown gave their cells */
  g_ptr_array_set_size (self->spare_names, 0);
  g_ptr_array_set_size (self->spare_values, 0);
  g_ptr_array_set_size (self->spare_bars, 0);
  g_clear_object (&self->selection);
  g_clear_object (&self->slice);
  if (self->hold != NULL)
    embers_rows_hold_set_model (EMBERS_ROWS_HOLD (self->hold), NULL);
  g_clear_object (&self->hold);
  g_clear_object (&self->tree_model);
  g_clear_object (&self->selected_row);
  g_clear_object (&self->profile);
  g_clear_pointer (&self->tree, embers_call_tree_unref);
  g_clear_pointer (&self->search, embers_search_unref);

  G_OBJECT_CLASS (embers_call_tree_view_parent_class)->dispose (object);
}

static void
embers_call_tree_view_finalize (GObject *object)
{
  EmbersCallTreeView *self = EMBERS_CALL_TREE_VIEW (object);

  g_ptr_array_unref (self->bound_names);
  g_ptr_array_unref (self->bound_bars);
  g_ptr_array_unref (self->spare_names);
  g_ptr_array_unref (self->spare_values);
  g_ptr_array_unref (self->spare_bars);
  g_array_unref (self->walk_path);
  g_free (self->unit);

  G_OBJECT_CLASS (embers_call_tree_view_parent_class)->finalize (object);
}

static void
embers_call_tree_view_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  EmbersCallTreeView *self = EMBERS_CALL_TREE_VIEW (object);

  switch (prop_id)
    {
    case PROP_INVERTED:
      g_value_set_boolean (value, self->inverted);
      break;
    case PROP_SELECTED_NODE:
      g_value_set_uint (value, self->selected_node);
      break;
    case PROP_SELECTED_NAME:
      g_value_set_string (value, embers_call_tree_view_get_selected_name (self));
      break;
    case PROP_SETTLED:
      g_value_set_boolean (value, embers_call_tree_view_is_settled (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
embers_call_tree_view_set_property (GObject      *object,
                                    guint         prop_id,
                                    const GValue *value,
                                    GParamSpec   *pspec)
{
  EmbersCallTreeView *self = EMBERS_CALL_TREE_VIEW (object);

  switch (prop_id)
    {
    case PROP_INVERTED:
      embers_call_tree_view_set_inverted (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
embers_call_tree_view_class_init (EmbersCallTreeViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = embers_call_tree_view_dispose;
  object_class->finalize = embers_call_tree_view_finalize;
  object_class->get_property = embers_call_tree_view_get_property;
  object_class->set_property = embers_call_tree_view_set_property;
  widget_class->measure = embers_call_tree_view_measure;
  widget_class->size_allocate = embers_call_tree_view_size_allocate;

  properties[PROP_INVERTED] =
    g_param_spec_boolean ("inverted", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SELECTED_NODE] =
    g_param_spec_uint ("selected-node", NULL, NULL, 0, G_MAXUINT32, EMBERS_NODE_NONE,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SELECTED_NAME] =
    g_param_spec_string ("selected-name", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SETTLED] =
    g_param_spec_boolean ("settled", NULL, NULL, TRUE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  embers_table_add_key_bindings (widget_class, name_key);

  embers_widgets_ensure_resources ();
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/emberslab/Embers/embers-call-tree-view.ui");
  gtk_widget_class_bind_template_child (widget_class, EmbersCallTreeView, scroller);
  gtk_widget_class_bind_template_child (widget_class, EmbersCallTreeView, column_view);
  gtk_widget_class_bind_template_child (widget_class, EmbersCallTreeView, name_column);
  gtk_widget_class_bind_template_child (widget_class, EmbersCallTreeView, self_column);
  gtk_widget_class_bind_template_child (widget_class, EmbersCallTreeView, total_column);
  gtk_widget_class_bind_template_child (widget_class, EmbersCallTreeView, baseline_column);
  gtk_widget_class_bind_template_child (widget_class, EmbersCallTreeView, comparison_column);
  gtk_widget_class_bind_template_child (widget_class, EmbersCallTreeView, change_column);
  gtk_widget_class_bind_template_child (widget_class, EmbersCallTreeView, change_percent_column);
  gtk_widget_class_bind_template_child (widget_class, EmbersCallTreeView, bar_column);
  _embers_call_tree_view_bind_cell_callbacks (widget_class);
  gtk_widget_class_bind_template_callback (widget_class, on_activate);
  gtk_widget_class_set_css_name (widget_class, "call-tree-view");
}

static void
embers_call_tree_view_init (EmbersCallTreeView *self)
{
  GtkEventController *keys;

  self->bound_names = g_ptr_array_new ();
  self->bound_bars = g_ptr_array_new ();
  self->spare_names = g_ptr_array_new_with_free_func (g_object_unref);
  self->spare_values = g_ptr_array_new_with_free_func (g_object_unref);
  self->spare_bars = g_ptr_array_new_with_free_func (g_object_unref);
  self->walk_path = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->selected_node = EMBERS_NODE_NONE;

  gtk_widget_init_template (GTK_WIDGET (self));
  {
    /* Kept while out of the column view (see set_mode_columns()) */
    GtkColumnViewColumn *all[] = {
      self->self_column, self->total_column, self->baseline_column, self->comparison_column,
      self->change_percent_column, self->change_column,
    };

    for (guint i = 0; i < G_N_ELEMENTS (all); i++)
      g_object_ref (all[i]);
    self->columns_diff = -1;
    self->name_width = gtk_column_view_column_get_fixed_width (self->name_column);
    g_signal_connect_swapped (self->name_column, "notify::fixed-width", G_CALLBACK (on_name_width), self);
  }

  self->hold = g_object_new (EMBERS_TYPE_ROWS_HOLD, NULL);
  self->slice = gtk_slice_list_model_new (G_LIST_MODEL (g_object_ref (self->hold)), 0, G_MAXUINT);
  self->selection = gtk_single_selection_new (G_LIST_MODEL (g_object_ref (self->slice)));
  g_signal_connect_swapped (self, "map", G_CALLBACK (grow_start), self);
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  g_signal_connect_swapped (self->selection, "notify::selected-item", G_CALLBACK (on_selection_changed), self);
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (self->selection));
  self->descending = TRUE;
  g_signal_connect_swapped (gtk_column_view_get_sorter (self->column_view), "changed",
                            G_CALLBACK (on_sorter_changed), self);
  embers_column_view_add_sort_keys (self->column_view);

  keys = gtk_shortcut_controller_new ();
  gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
  add_tree_key (GTK_SHORTCUT_CONTROLLER (keys), GDK_KEY_Right, "open-or-child", self);
  add_tree_key (GTK_SHORTCUT_CONTROLLER (keys), GDK_KEY_KP_Right, "open-or-child", self);
  add_tree_key (GTK_SHORTCUT_CONTROLLER (keys), GDK_KEY_plus, "open", self);
  add_tree_key (GTK_SHORTCUT_CONTROLLER (keys), GDK_KEY_KP_Add, "open", self);
  add_tree_key (GTK_SHORTCUT_CONTROLLER (keys), GDK_KEY_Left, "close-or-parent", self);
  add_tree_key (GTK_SHORTCUT_CONTROLLER (keys), GDK_KEY_KP_Left, "close-or-parent", self);
  add_tree_key (GTK_SHORTCUT_CONTROLLER (keys), GDK_KEY_minus, "close", self);
  add_tree_key (GTK_SHORTCUT_CONTROLLER (keys), GDK_KEY_KP_Subtract, "close", self);
  add_tree_key (GTK_SHORTCUT_CONTROLLER (keys), GDK_KEY_asterisk, "all", self);
  add_tree_key (GTK_SHORTCUT_CONTROLLER (keys), GDK_KEY_KP_Multiply, "all", self);
  add_tree_key (GTK_SHORTCUT_CONTROLLER (keys), GDK_KEY_End, "end", self);
  add_tree_key (GTK_SHORTCUT_CONTROLLER (keys), GDK_KEY_KP_End, "end", self);
  gtk_widget_add_controller (GTK_WIDGET (self->column_view), keys);

  rebuild (self);
}
