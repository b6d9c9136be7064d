/* test-column-keys.c: tables sorted from the keyboard (Ctrl+Alt+1 … 9,
 * embers-column-keys.c), as a click on a header sorts them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdlib.h>
#include <adwaita.h>

#include "embers-call-tree-view.h"
#include "embers-column-keys.h"
#include "embers-diff-table.h"
#include "embers-top-table.h"
#include "embers-test-gtk-utils.h"

static void
setup_label (GtkSignalListItemFactory *factory,
             GtkListItem              *item,
             gpointer                  user_data)
{
  gtk_list_item_set_child (item, gtk_label_new (NULL));
}

/* Rows are "name:value"; a column shows one half */
static void
bind_half (GtkSignalListItemFactory *factory,
           GtkListItem              *item,
           gpointer                  half)
{
  const char *row = gtk_string_object_get_string (gtk_list_item_get_item (item));
  g_auto(GStrv) parts = g_strsplit (row, ":", 2);

  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (item)), parts[GPOINTER_TO_INT (half)]);
}

static int
compare_half (gconstpointer a,
              gconstpointer b,
              gpointer      half)
{
  g_auto(GStrv) pa = g_strsplit (gtk_string_object_get_string ((GtkStringObject *)a), ":", 2);
  g_auto(GStrv) pb = g_strsplit (gtk_string_object_get_string ((GtkStringObject *)b), ":", 2);

  if (GPOINTER_TO_INT (half) == 1)
    return atoi (pa[1]) - atoi (pb[1]);
  return g_strcmp0 (pa[0], pb[0]);
}

static GtkColumnViewColumn *
add_column (GtkColumnView *view,
            const char    *title,
            int            half,
            gboolean       sorts,
            gboolean       shown)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkColumnViewColumn *column;

  g_signal_connect (factory, "setup", G_CALLBACK (setup_label), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_half), GINT_TO_POINTER (half));
  column = gtk_column_view_column_new (title, factory);
  if (sorts)
    {
      g_autoptr(GtkSorter) sorter = GTK_SORTER (gtk_custom_sorter_new (compare_half, GINT_TO_POINTER (half), NULL));

      gtk_column_view_column_set_sorter (column, sorter);
    }
  gtk_column_view_column_set_visible (column, shown);
  gtk_column_view_column_set_expand (column, TRUE);
  gtk_column_view_append_column (view, column);
  g_object_unref (column);
  return column;
}

static const char *
row (GListModel *model,
     guint       i)
{
  g_autoptr(GtkStringObject) item = g_list_model_get_item (model, i);

  return g_intern_string (gtk_string_object_get_string (item));
}

static void
test_keys (void)
{
  const char * const rows[] = { "beta:2", "alpha:3", "gamma:1", NULL };
  GtkWidget *window = gtk_window_new ();
  GtkColumnView *view = GTK_COLUMN_VIEW (gtk_column_view_new (NULL));
  g_autoptr(GtkSortListModel) sorted = NULL;
  g_autoptr(GtkNoSelection) selection = NULL;
  GtkColumnViewColumn *name, *value;
  GtkColumnViewSorter *sorter;
  EmbersTestPixels *before, *after;
  graphene_rect_t header, first_row;
  int changed;

  name = add_column (view, "Name", 0, TRUE, TRUE);
  add_column (view, "Hidden", 0, TRUE, FALSE);
  value = add_column (view, "Value", 1, TRUE, TRUE);
  add_column (view, "Plain", 0, FALSE, TRUE);
  sorted = gtk_sort_list_model_new (G_LIST_MODEL (gtk_string_list_new (rows)),
                                    g_object_ref (gtk_column_view_get_sorter (view)));
  selection = gtk_no_selection_new (g_object_ref (G_LIST_MODEL (sorted)));
  gtk_column_view_set_model (view, GTK_SELECTION_MODEL (selection));
  embers_column_view_add_sort_keys (view);
  sorter = GTK_COLUMN_VIEW_SORTER (gtk_column_view_get_sorter (view));
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (view));
  embers_test_present_window (GTK_WINDOW (window), 400, 300);
  embers_test_settle ();
  g_assert_null (embers_column_view_get_sort_announcement (view));
  g_assert_cmpstr (row (G_LIST_MODEL (sorted), 0), ==, "beta:2");

  /* Ctrl+Alt+1: the first shown column, ascending, as a first click */
  before = embers_test_render_frame (GTK_WIDGET (view));
  g_assert_true (embers_test_press_key (GTK_WIDGET (view), GDK_KEY_1, GDK_CONTROL_MASK | GDK_ALT_MASK));
  g_assert_true (gtk_column_view_sorter_get_primary_sort_column (sorter) == name);
  g_assert_cmpint (gtk_column_view_sorter_get_primary_sort_order (sorter), ==, GTK_SORT_ASCENDING);
  g_assert_cmpstr (row (G_LIST_MODEL (sorted), 0), ==, "alpha:3");
  g_assert_cmpstr (embers_column_view_get_sort_announcement (view), ==, "Sorted by Name, ascending");
  /* What is drawn: the header shows the order, the first row another
   * name */
  embers_test_settle ();
  after = embers_test_render_frame (GTK_WIDGET (view));
  header = GRAPHENE_RECT_INIT (0, 0, gtk_widget_get_width (GTK_WIDGET (view)) / 3, 20);
  first_row = GRAPHENE_RECT_INIT (0, 32, gtk_widget_get_width (GTK_WIDGET (view)), 20);
  changed = 0;
  for (int y = (int) header.origin.y; y < header.origin.y + header.size.height; y++)
    for (int x = (int) header.origin.x; x < header.origin.x + header.size.width; x++)
      changed += embers_test_pixels_get (before, x, y) != embers_test_pixels_get (after, x, y);
  g_assert_cmpint (changed, >, 10);
  changed = 0;
  for (int y = (int) first_row.origin.y; y < first_row.origin.y + first_row.size.height; y++)
    for (int x = 0; x < first_row.size.width; x++)
      changed += embers_test_pixels_get (before, x, y) != embers_test_pixels_get (after, x, y);
  g_assert_cmpint (changed, >, 10);
  embers_test_pixels_free (before);
  embers_test_pixels_free (after);

  /* Again: the other way */
  g_assert_true (embers_test_press_key (GTK_WIDGET (view), GDK_KEY_1, GDK_CONTROL_MASK | GDK_ALT_MASK));
  g_assert_cmpint (gtk_column_view_sorter_get_primary_sort_order (sorter), ==, GTK_SORT_DESCENDING);
  g_assert_cmpstr (row (G_LIST_MODEL (sorted), 0), ==, "gamma:1");
  g_assert_cmpstr (embers_column_view_get_sort_announcement (view), ==, "Sorted by Name, descending");

  /* Ctrl+Alt+2: the second shown column (the hidden one is not counted) */
  g_assert_true (embers_test_press_key (GTK_WIDGET (view), GDK_KEY_2, GDK_CONTROL_MASK | GDK_ALT_MASK));
  g_assert_true (gtk_column_view_sorter_get_primary_sort_column (sorter) == value);
  g_assert_cmpint (gtk_column_view_sorter_get_primary_sort_order (sorter), ==, GTK_SORT_ASCENDING);
  g_assert_cmpstr (row (G_LIST_MODEL (sorted), 0), ==, "gamma:1");
  g_assert_cmpstr (row (G_LIST_MODEL (sorted), 2), ==, "alpha:3");

  /* A column that does not sort, and one that is not there: nothing */
  g_assert_false (embers_test_press_key (GTK_WIDGET (view), GDK_KEY_3, GDK_CONTROL_MASK | GDK_ALT_MASK));
  g_assert_false (embers_test_press_key (GTK_WIDGET (view), GDK_KEY_9, GDK_CONTROL_MASK | GDK_ALT_MASK));
  g_assert_true (gtk_column_view_sorter_get_primary_sort_column (sorter) == value);
  g_assert_cmpstr (embers_column_view_get_sort_announcement (view), ==, "Sorted by Value, ascending");

  embers_test_destroy_window (GTK_WINDOW (window));
}

/* The app's tables have the keys: their first column */
static void
check_table (GtkWidget     *table,
             GtkColumnView *view)
{
  GtkWidget *window = gtk_window_new ();
  GtkColumnViewSorter *sorter = GTK_COLUMN_VIEW_SORTER (gtk_column_view_get_sorter (view));
  g_autoptr(GtkColumnViewColumn) first = g_list_model_get_item (gtk_column_view_get_columns (view), 0);

  gtk_window_set_child (GTK_WINDOW (window), table);
  embers_test_present_window (GTK_WINDOW (window), 600, 300);
  g_assert_true (embers_test_press_key (GTK_WIDGET (view), GDK_KEY_1, GDK_CONTROL_MASK | GDK_ALT_MASK));
  g_assert_true (gtk_column_view_sorter_get_primary_sort_column (sorter) == first);
  g_assert_nonnull (embers_column_view_get_sort_announcement (view));
  embers_test_destroy_window (GTK_WINDOW (window));
}

static void
test_tables (void)
{
  GtkWidget *diff = embers_diff_table_new ();
  GtkWidget *top = embers_top_table_new ();

  check_table (diff, embers_diff_table_get_column_view (EMBERS_DIFF_TABLE (diff)));
  check_table (top, GTK_COLUMN_VIEW (embers_test_find_widget (top, GTK_TYPE_COLUMN_VIEW, NULL)));
  {
    GtkWidget *tree = embers_call_tree_view_new ();

    check_table (tree, GTK_COLUMN_VIEW (embers_test_find_widget (tree, GTK_TYPE_COLUMN_VIEW, NULL)));
  }
}

int
main (int   argc,
      char *argv[])
{
  embers_test_gtk_init (&argc, &argv);

  g_test_add_func ("/embers/column-keys/keys", test_keys);
  g_test_add_func ("/embers/column-keys/tables", test_tables);
  return g_test_run ();
}
