/* embers-labels-page-table.c: the values as a table
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <glib/gi18n.h>

#include "embers-column-keys.h"
#include "embers-labels-page-private.h"

/* A row of the table: one value's statistics (the array is shared) */

struct _EmbersLabelValueRow
{
  GObject                parent_instance;
  GPtrArray             *all;     /* keeps stats alive */
  EmbersLabelValueStats *stats;
};

G_DEFINE_FINAL_TYPE (EmbersLabelValueRow, embers_label_value_row, G_TYPE_OBJECT)

static void
embers_label_value_row_finalize (GObject *object)
{
  g_clear_pointer (&EMBERS_LABEL_VALUE_ROW (object)->all, g_ptr_array_unref);
  G_OBJECT_CLASS (embers_label_value_row_parent_class)->finalize (object);
}

static void
embers_label_value_row_class_init (EmbersLabelValueRowClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = embers_label_value_row_finalize;
}

static void
embers_label_value_row_init (EmbersLabelValueRow *self)
{
}

EmbersLabelValueRow *
embers_label_value_row_new (GPtrArray *all,
                            guint      index)
{
  EmbersLabelValueRow *row = g_object_new (EMBERS_TYPE_LABEL_VALUE_ROW, NULL);

  row->all = g_ptr_array_ref (all);
  row->stats = g_ptr_array_index (all, index);
  return row;
}

/* Table */

static void
setup_cell (GtkSignalListItemFactory *factory,
            GtkListItem              *item,
            gpointer                  user_data)
{
  Column column = GPOINTER_TO_UINT (user_data);
  GtkWidget *label;

  if (column == COL_ACTIONS)
    {
      gtk_list_item_set_child (item, gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0));
      return;
    }
  label = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (label), column == COL_VALUE || column == COL_MARK ? 0 : 1);
  if (column == COL_VALUE)
    gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
  else
    gtk_widget_add_css_class (label, "numeric");
  if (column == COL_MARK)
    gtk_widget_add_css_class (label, "caption-heading");
  gtk_list_item_set_child (item, label);
}

static void
bind_cell (GtkSignalListItemFactory *factory,
           GtkListItem              *item,
           gpointer                  user_data)
{
  Column column = GPOINTER_TO_UINT (user_data);
  EmbersLabelValueRow *row = gtk_list_item_get_item (item);
  EmbersLabelsPage *self = g_object_get_data (G_OBJECT (factory), "page");
  const EmbersLabelValueStats *s = row->stats;
  g_autofree char *text = NULL;

  switch (column)
    {
    case COL_VALUE:
      text = g_strdup (embers_labels_display_value (s->value));
      break;
    case COL_TOTAL:
      text = embers_labels_format_value (self, s->total);
      break;
    case COL_SHARE:
      text = embers_format_percent (s->share);
      break;
    case COL_MEAN:
      text = embers_labels_format_value (self, s->mean);
      break;
    case COL_STDDEV:
      text = embers_labels_format_value (self, s->stddev);
      break;
    case COL_MAX:
      text = embers_labels_format_value (self, s->max);
      break;
    case COL_STEPS:
      /* Translators: steps that have data, of the steps in the range */
      text = g_strdup_printf (_("%u of %u"), s->n_data_steps, s->n_steps);
      break;
    case COL_MARK:
      {
        GtkWidget *label = gtk_list_item_get_child (item);
        gboolean is_b = self->baseline_name != NULL && g_strcmp0 (self->baseline_name, self->label) == 0 &&
                        g_strcmp0 (self->baseline_value, s->value) == 0;
        gboolean is_c = self->comparison_name != NULL && g_strcmp0 (self->comparison_name, self->label) == 0 &&
                        g_strcmp0 (self->comparison_value, s->value) == 0;

        text = g_strdup (is_b ? _("Baseline") : is_c ? _("Comparison") : "");
        if (is_b)
          gtk_widget_add_css_class (label, "labels-baseline-text");
        else
          gtk_widget_remove_css_class (label, "labels-baseline-text");
        if (is_c)
          gtk_widget_add_css_class (label, "labels-comparison-text");
        else
          gtk_widget_remove_css_class (label, "labels-comparison-text");
      }
      break;
    case COL_ACTIONS:
    default:
      {
        GtkWidget *box = gtk_list_item_get_child (item);
        GtkWidget *old = gtk_widget_get_first_child (box);

        if (old != NULL)
          gtk_box_remove (GTK_BOX (box), old);
        gtk_box_append (GTK_BOX (box), embers_labels_value_menu_button (s->value));
        return;
      }
    }
  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (item)), text);
}

typedef struct
{
  EmbersLabelsPage *page;
  Column            column;
} SortKey;

static int
compare_rows (gconstpointer a,
              gconstpointer b,
              gpointer      user_data)
{
  const EmbersLabelValueStats *sa = EMBERS_LABEL_VALUE_ROW ((gpointer)a)->stats;
  const EmbersLabelValueStats *sb = EMBERS_LABEL_VALUE_ROW ((gpointer)b)->stats;
  SortKey *key = user_data;
  double ka = 0, kb = 0;

  /* Values differ, so this never returns "equal" */
  switch (key->column)
    {
    case COL_TOTAL:  ka = sa->total;  kb = sb->total;  break;
    case COL_SHARE:  ka = sa->share;  kb = sb->share;  break;
    case COL_MEAN:   ka = sa->mean;   kb = sb->mean;   break;
    case COL_STDDEV: ka = sa->stddev; kb = sb->stddev; break;
    case COL_MAX:    ka = sa->max;    kb = sb->max;    break;
    case COL_STEPS:  ka = sa->n_data_steps; kb = sb->n_data_steps; break;
    case COL_VALUE:
    case COL_MARK:
    case COL_ACTIONS:
    default:
      return g_strcmp0 (sa->value, sb->value);
    }
  if (ka != kb)
    return ka < kb ? -1 : 1;
  return g_strcmp0 (sa->value, sb->value);
}

static void
table_sorted (EmbersLabelsPage *self)
{
  GtkColumnViewSorter *sorter = GTK_COLUMN_VIEW_SORTER (gtk_column_view_get_sorter (self->table));
  GtkColumnViewColumn *primary = gtk_column_view_sorter_get_primary_sort_column (sorter);
  GListModel *columns = gtk_column_view_get_columns (self->table);

  self->sort_column = -1;
  for (guint i = 0; primary != NULL && i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, i);

      if (column == primary)
        self->sort_column = (int)i;
    }
  embers_labels_update_heading (self);
}

/* The template has the columns (in Column order) with their titles; here
 * their cells, sorters and the sorted model */
void
embers_labels_build_table (EmbersLabelsPage *self)
{
  GListModel *columns = gtk_column_view_get_columns (self->table);
  g_autoptr(GtkSortListModel) sorted = NULL;
  g_autoptr(GtkColumnViewColumn) total_column = NULL;

  g_assert (g_list_model_get_n_items (columns) == COL_ACTIONS + 1);
  self->table_store = g_list_store_new (EMBERS_TYPE_LABEL_VALUE_ROW);
  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, i);
      g_autoptr(GtkListItemFactory) factory = gtk_signal_list_item_factory_new ();

      g_object_set_data (G_OBJECT (factory), "page", self);
      g_signal_connect (factory, "setup", G_CALLBACK (setup_cell), GUINT_TO_POINTER (i));
      g_signal_connect (factory, "bind", G_CALLBACK (bind_cell), GUINT_TO_POINTER (i));
      gtk_column_view_column_set_factory (column, factory);
      if (i != COL_MARK && i != COL_ACTIONS)
        {
          SortKey *key = g_new0 (SortKey, 1);
          g_autoptr(GtkCustomSorter) sorter = NULL;

          key->page = self;
          key->column = i;
          sorter = gtk_custom_sorter_new (compare_rows, key, g_free);
          gtk_column_view_column_set_sorter (column, GTK_SORTER (sorter));
        }
    }

  sorted = gtk_sort_list_model_new (G_LIST_MODEL (g_object_ref (self->table_store)),
                                    g_object_ref (gtk_column_view_get_sorter (self->table)));
  self->sorted = G_LIST_MODEL (sorted);
  g_signal_connect_object (sorted, "items-changed", G_CALLBACK (table_sorted), self, G_CONNECT_SWAPPED);
  {
    GtkNoSelection *selection = gtk_no_selection_new (G_LIST_MODEL (g_steal_pointer (&sorted)));

    gtk_column_view_set_model (self->table, GTK_SELECTION_MODEL (selection));
    g_object_unref (selection);
  }
  total_column = g_list_model_get_item (columns, COL_TOTAL);
  gtk_column_view_sort_by_column (self->table, total_column, GTK_SORT_DESCENDING);
  embers_column_view_add_sort_keys (self->table);
  self->sort_column = COL_TOTAL;
}

GtkColumnView *
embers_labels_page_get_table (EmbersLabelsPage *self)
{
  g_return_val_if_fail (EMBERS_IS_LABELS_PAGE (self), NULL);
  return self->table;
}

const char *
embers_labels_page_get_table_value (EmbersLabelsPage *self,
                                    guint             position)
{
  GListModel *model;
  g_autoptr(EmbersLabelValueRow) row = NULL;

  g_return_val_if_fail (EMBERS_IS_LABELS_PAGE (self), NULL);

  model = G_LIST_MODEL (gtk_column_view_get_model (self->table));
  row = g_list_model_get_item (model, position);
  return row != NULL ? row->stats->value : NULL;
}
