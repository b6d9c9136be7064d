/* embers-top-model.c
 *
 * A list model over the top table's rows array. A profile of millions of
 * nodes has tens or hundreds of thousands of functions: one GObject per
 * row, sorted and filtered by GTK through property lookups, cost the main
 * loop 60 ms and more when a profile was shown. Here the rows stay one
 * C array; sorting compares them directly, the search's filter picks row
 * numbers, and a row becomes an EmbersTopItem only when it is asked for.
 *
 * The rows on screen still cost GTK a widget each, and a column view
 * makes all it can show when the model grows (with accessibility, 80 ms
 * and more for a window's worth): new rows are shown a few at a time,
 * one batch per idle main loop (after each frame), until a screenful is
 * there, then larger batches up to the ~200 rows GTK builds anyway; the
 * rest, off screen, come in one go.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "embers-fill.h"
#include "embers-top-item.h"
#include "embers-top-model.h"

struct _EmbersTopModel
{
  GObject         parent_instance;

  EmbersProfile  *profile;
  GArray         *rows;      /* EmbersTopRow, sorted by sort/descending */
  EmbersSearch   *search;
  EmbersTopSort   sort;
  gboolean        descending;
  /* The row of the `other` frames (work a node limit cut), no function */
  guint32         cut_name;    /* its string id, or NO_CUT */
  guint           n_cut;       /* how many places were cut */

  /* The rows shown, in order: indexes into rows; the first n_exposed of
   * them are in the model so far */
  guint32        *visible;
  guint           n_visible;
  guint           n_exposed;
  guint           grow_id;
};

#define NO_CUT G_MAXUINT32

/* Rows shown at once, per batch up to a screenful, per batch beyond it,
 * and before the rest come in one go. A GtkListView keeps about 200 rows
 * built whatever it shows (GTK_LIST_VIEW_MAX_LIST_ITEMS): rows up to
 * BUILT_ROWS each cost their widgets (0.3-0.5 ms a row with its cells),
 * so they come a batch per idle too; past them the model grows in one go
 * without a widget made. Exposing the 130 off screen at once was a 40-58 ms
 * pause once after each load on 1M nodes (bench-call-tree-window). */
#define FIRST_ROWS        12
#define BATCH_ROWS        10
#define SCREEN_ROWS       72
#define OFF_SCREEN_BATCH  24
#define BUILT_ROWS        256

static void embers_top_model_list_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (EmbersTopModel, embers_top_model, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, embers_top_model_list_model_init))

static GType
get_item_type (GListModel *model)
{
  return EMBERS_TYPE_TOP_ITEM;
}

static guint
get_n_items (GListModel *model)
{
  return EMBERS_TOP_MODEL (model)->n_exposed;
}

static gpointer
get_item (GListModel *model,
          guint       position)
{
  EmbersTopModel *self = EMBERS_TOP_MODEL (model);
  const EmbersTopRow *row;

  if (position >= self->n_exposed)
    return NULL;

  row = &g_array_index (self->rows, EmbersTopRow, self->visible[position]);
  return embers_top_item_new (embers_profile_get_string (self->profile, row->name),
                              row->name, row->self, row->total);
}

static void
embers_top_model_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = get_item_type;
  iface->get_n_items = get_n_items;
  iface->get_item = get_item;
}

static void
embers_top_model_finalize (GObject *object)
{
  EmbersTopModel *self = EMBERS_TOP_MODEL (object);

  g_clear_object (&self->profile);
  g_clear_pointer (&self->rows, g_array_unref);
  g_clear_pointer (&self->search, embers_search_unref);
  g_free (self->visible);
  g_clear_handle_id (&self->grow_id, g_source_remove);

  G_OBJECT_CLASS (embers_top_model_parent_class)->finalize (object);
}

static void
embers_top_model_class_init (EmbersTopModelClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = embers_top_model_finalize;
}

static void
embers_top_model_init (EmbersTopModel *self)
{
  self->sort = EMBERS_TOP_SORT_SELF;
  self->descending = TRUE;
  self->cut_name = NO_CUT;
}

EmbersTopModel *
embers_top_model_new (void)
{
  return g_object_new (EMBERS_TYPE_TOP_MODEL, NULL);
}

/* Shows rows up to @n (of the visible ones) */
static void
expose (EmbersTopModel *self,
        guint           n)
{
  guint before = self->n_exposed;

  n = MIN (n, self->n_visible);
  if (n <= before)
    return;
  self->n_exposed = n;
  g_list_model_items_changed (G_LIST_MODEL (self), before, 0, n - before);
}

static gboolean
grow (gpointer data)
{
  EmbersTopModel *self = data;

  if (self->n_exposed >= BUILT_ROWS)
    expose (self, self->n_visible);
  else if (self->n_exposed >= SCREEN_ROWS)
    expose (self, self->n_exposed + OFF_SCREEN_BATCH);
  else
    expose (self, MIN (self->n_exposed + BATCH_ROWS, SCREEN_ROWS));

  if (self->n_exposed < self->n_visible)
    return G_SOURCE_CONTINUE;
  self->grow_id = 0;
  return G_SOURCE_REMOVE;
}

/* The visible rows again, and the view told that all of them changed */
static void
refilter (EmbersTopModel *self)
{
  guint before = self->n_exposed;
  guint n = self->rows != NULL ? self->rows->len : 0;
  gboolean filter = self->search != NULL && embers_search_is_active (self->search);

  g_free (self->visible);
  self->visible = g_new (guint32, MAX (n, 1));
  self->n_visible = 0;
  for (guint i = 0; i < n; i++)
    {
      const EmbersTopRow *row = &g_array_index (self->rows, EmbersTopRow, i);

      /* The cut row is no function a search could find */
      if (!filter || (row->name != self->cut_name && embers_search_name_matches (self->search, row->name)))
        self->visible[self->n_visible++] = i;
    }

  /* As many rows as before at once, up to a screenful (a new search or
   * order on a table already shown costs no new widgets), at least the
   * first few; the rest, off screen, follow in batches (grow ()) after the next
   * frame. Replacing every row of a long table at once made the column
   * view take 70-135 ms in one pause after each transform. */
  self->n_exposed = MIN (self->n_visible, MAX (MIN (before, SCREEN_ROWS), FIRST_ROWS));
  if (before > 0 || self->n_exposed > 0)
    g_list_model_items_changed (G_LIST_MODEL (self), 0, before, self->n_exposed);
  if (self->n_exposed < self->n_visible && self->grow_id == 0)
    self->grow_id = g_idle_add_full (G_PRIORITY_LOW, grow, self, NULL);
}

static void
resort (EmbersTopModel *self)
{
  if (self->rows != NULL && self->profile != NULL)
    embers_top_sort (self->rows, self->profile, self->sort, self->descending);
}

/* Whether a row holds the `other` frames of an answer a node limit cut
 * (embers-fill.h): named `other`, each frame of that name a leaf below
 * the root. A function that is called `other` and calls others is not. */
static void
find_cut (EmbersTopModel *self)
{
  guint32 id = NO_CUT;
  guint n_nodes, n = 0;

  self->cut_name = NO_CUT;
  self->n_cut = 0;
  if (self->rows == NULL)
    return;
  for (guint i = 0; i < self->rows->len && id == NO_CUT; i++)
    {
      guint32 name = g_array_index (self->rows, EmbersTopRow, i).name;

      if (g_str_equal (embers_profile_get_string (self->profile, name), EMBERS_FILL_OTHER))
        id = name;
    }
  if (id == NO_CUT)
    return;
  /* Only where there is such a row (a server's cut answer: its nodes
   * are within the limit) are the frames walked */
  n_nodes = embers_profile_get_n_nodes (self->profile);
  for (guint32 i = 1; i < n_nodes; i++)
    if (embers_profile_node_name (self->profile, i) == id)
      {
        if (!embers_fill_is_other (self->profile, i))
          return;
        n++;
      }
  self->cut_name = id;
  self->n_cut = n;
}

guint32
embers_top_model_get_cut_name (EmbersTopModel *self)
{
  g_return_val_if_fail (EMBERS_IS_TOP_MODEL (self), NO_CUT);
  return self->cut_name;
}

guint
embers_top_model_get_n_cut (EmbersTopModel *self)
{
  g_return_val_if_fail (EMBERS_IS_TOP_MODEL (self), 0);
  return self->n_cut;
}

void
embers_top_model_set_rows (EmbersTopModel *self,
                           EmbersProfile  *profile,
                           GArray         *rows)
{
  g_return_if_fail (EMBERS_IS_TOP_MODEL (self));
  g_return_if_fail (profile == NULL || EMBERS_IS_PROFILE (profile));

  g_set_object (&self->profile, profile);
  g_clear_pointer (&self->rows, g_array_unref);
  if (profile != NULL && rows != NULL)
    {
      /* A copy: the rows are reordered here, and the caller may keep its own */
      self->rows = g_array_sized_new (FALSE, FALSE, sizeof (EmbersTopRow), rows->len);
      g_array_append_vals (self->rows, rows->data, rows->len);
    }
  if (self->search != NULL && embers_search_get_profile (self->search) != profile)
    g_clear_pointer (&self->search, embers_search_unref);
  find_cut (self);

  /* embers_top_compute() gives them by self, largest first */
  if (self->sort != EMBERS_TOP_SORT_SELF || !self->descending)
    resort (self);
  refilter (self);
}

void
embers_top_model_set_sort (EmbersTopModel *self,
                           EmbersTopSort   column,
                           gboolean        descending)
{
  g_return_if_fail (EMBERS_IS_TOP_MODEL (self));

  descending = !!descending;
  if (column == self->sort && descending == self->descending)
    return;

  self->sort = column;
  self->descending = descending;
  resort (self);
  refilter (self);
}

void
embers_top_model_set_search (EmbersTopModel *self,
                             EmbersSearch   *search)
{
  g_return_if_fail (EMBERS_IS_TOP_MODEL (self));

  if (search != NULL && embers_search_get_profile (search) != self->profile)
    search = NULL;
  if (search == self->search)
    return;

  if (search != NULL)
    embers_search_ref (search);
  g_clear_pointer (&self->search, embers_search_unref);
  self->search = search;
  refilter (self);
}

guint
embers_top_model_find_name (EmbersTopModel *self,
                            const char     *name)
{
  g_return_val_if_fail (EMBERS_IS_TOP_MODEL (self), G_MAXUINT);

  if (name == NULL || self->rows == NULL)
    return G_MAXUINT;

  for (guint i = 0; i < self->n_visible; i++)
    {
      const EmbersTopRow *row = &g_array_index (self->rows, EmbersTopRow, self->visible[i]);

      if (g_str_equal (embers_profile_get_string (self->profile, row->name), name))
        {
          /* A row not shown yet is shown now, to be selected */
          expose (self, i + 1);
          return i;
        }
    }

  return G_MAXUINT;
}

guint
embers_top_model_get_n_rows (EmbersTopModel *self)
{
  g_return_val_if_fail (EMBERS_IS_TOP_MODEL (self), 0);

  return self->n_visible;
}
