/* test-header-resize.c: a column's edge dragged as a person drags it
 * resizes the column and never sorts the table (issue 16.4: "dragging a
 * header sorts it"), in the top table and in the diff table
 *
 * The press lands 2 px inside the right edge of the column's title (where a
 * person aims at the edge they see), and the pointer is the X server's own
 * (xdotool), so that GTK's gestures on the header see a real press, motion
 * and release.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <adwaita.h>

#include "embers-compare-page.h"
#include "embers-diff-table.h"
#include "embers-window.h"
#include "embers-test-gtk-utils.h"

static GFile *
fixture (const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fixtures", "folded", name, NULL);

  return g_file_new_for_path (path);
}

static void
wait_page (EmbersProfilePage *page)
{
  embers_test_wait_while (embers_profile_page_get_state (page) == EMBERS_PAGE_STATE_LOADING ||
                          embers_profile_page_get_busy (page) ||
                          embers_profile_page_get_search_pending (page));
  embers_test_settle ();
}

static void
subprocess_done (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  g_subprocess_wait_check_finish (G_SUBPROCESS (object), result, &error);
  g_assert_no_error (error);
  *(gboolean *) user_data = TRUE;
}

/* The names of the first rows, in order */
static char *
first_rows (GtkColumnView *view,
            const char    *(*row_name) (gpointer table, guint position),
            gpointer        table)
{
  GString *names = g_string_new (NULL);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (gtk_column_view_get_model (view)));

  for (guint i = 0; i < MIN (n, 5); i++)
    g_string_append_printf (names, "%s\n", row_name (table, i));
  return g_string_free (names, FALSE);
}

static const char *
top_row_name (gpointer table,
              guint    position)
{
  g_autoptr(GObject) item = g_list_model_get_item (G_LIST_MODEL (gtk_column_view_get_model (table)), position);
  g_autofree char *name = NULL;

  if (item == NULL)
    return NULL;
  g_object_get (item, "name", &name, NULL);
  return g_intern_string (name);
}

static const char *
diff_row_name (gpointer table,
               guint    position)
{
  return embers_diff_table_get_row_name (table, position);
}

/* Drags the right edge of @view's first column by 90 px, pressing 2 px
 * inside its title; the column is wider, and the table is sorted as it
 * was (the same column, order and rows) */
static void
drag_first_edge (GtkWindow     *window,
                 GtkColumnView *view,
                 const char    *(*row_name) (gpointer table, guint position),
                 gpointer        table,
                 const char    *what)
{
  g_autofree char *xdotool = g_find_program_in_path ("xdotool");
  GtkColumnViewSorter *sorter = GTK_COLUMN_VIEW_SORTER (gtk_column_view_get_sorter (view));
  GtkColumnViewColumn *sort_column = gtk_column_view_sorter_get_primary_sort_column (sorter);
  GtkSortType sort_order = gtk_column_view_sorter_get_primary_sort_order (sorter);
  g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (gtk_column_view_get_columns (view), 0);
  g_autofree char *rows_before = first_rows (view, row_name, table);
  g_autofree char *rows_after = NULL;
  g_autofree char *title_pattern = NULL, *x0 = NULL, *x1 = NULL, *xm = NULL, *y = NULL;
  g_autoptr(GSubprocess) drag = NULL;
  g_autoptr(GError) error = NULL;
  graphene_point_t point;
  graphene_rect_t bounds;
  gboolean done = FALSE;
  GtkWidget *title;
  double sx, sy;
  int width;

  g_assert_nonnull (sort_column);
  g_assert_true (column != sort_column);
  embers_test_wait_frame (GTK_WIDGET (window));
  /* The header's first title is the first column's */
  title = gtk_widget_get_first_child (gtk_widget_get_first_child (GTK_WIDGET (view)));
  g_assert_nonnull (title);
  /* Its box as drawn (gtk_widget_get_width () leaves out its padding) */
  bounds = embers_test_bounds (title, GTK_WIDGET (window));
  width = (int) bounds.size.width;
  point = GRAPHENE_POINT_INIT (bounds.origin.x + bounds.size.width - 2, bounds.origin.y + bounds.size.height / 2);
  gtk_native_get_surface_transform (GTK_NATIVE (window), &sx, &sy);
  title_pattern = g_strdup_printf ("^%s$", gtk_window_get_title (window));
  x0 = g_strdup_printf ("%d", (int) (point.x + sx));
  xm = g_strdup_printf ("%d", (int) (point.x + sx) + 30);
  x1 = g_strdup_printf ("%d", (int) (point.x + sx) + 90);
  y = g_strdup_printf ("%d", (int) (point.y + sy));
  g_test_message ("%s: pressing 2 px inside the edge of a %d px title at %s,%s, dragging by 90 px",
                  what, width, x0, y);

  /* At a hand's pace (xdotool's sleeps pace the pointer; the test waits
   * for conditions): press, move in two steps, release */
  drag = g_subprocess_new (G_SUBPROCESS_FLAGS_NONE, &error, xdotool,
                           "search", "--sync", "--name", title_pattern,
                           "mousemove", "--window", "%1", x0, y, "sleep", "0.2", "mousedown", "1", "sleep", "0.2",
                           "mousemove", "--window", "%1", xm, y, "sleep", "0.2",
                           "mousemove", "--window", "%1", x1, y, "sleep", "0.2", "mouseup", "1",
                           /* off the header, so that no hover stays */
                           "mousemove", "--window", "%1", "1", "1", NULL);
  g_assert_no_error (error);
  g_subprocess_wait_check_async (drag, NULL, subprocess_done, &done);
  embers_test_wait_flag (&done, "xdotool's drag");

  /* The column took the drag (or the table was sorted: what the issue
   * saw, and what must not happen) ... */
  embers_test_wait_while (embers_test_bounds (title, GTK_WIDGET (window)).size.width < width + 45 &&
                          gtk_column_view_sorter_get_primary_sort_column (sorter) == sort_column &&
                          gtk_column_view_sorter_get_primary_sort_order (sorter) == sort_order);
  g_test_message ("%s: the column is %d px now (fixed width %d); sorted by %s, %s", what,
                  (int) embers_test_bounds (title, GTK_WIDGET (window)).size.width,
                  gtk_column_view_column_get_fixed_width (column),
                  gtk_column_view_column_get_title (gtk_column_view_sorter_get_primary_sort_column (sorter)),
                  gtk_column_view_sorter_get_primary_sort_order (sorter) == sort_order ? "as before" : "the other way");
  g_assert_cmpint (gtk_column_view_column_get_fixed_width (column), >, width);
  /* ... and the table is sorted as it was */
  embers_test_settle ();
  g_assert_true (gtk_column_view_sorter_get_primary_sort_column (sorter) == sort_column);
  g_assert_cmpint (gtk_column_view_sorter_get_primary_sort_order (sorter), ==, sort_order);
  rows_after = first_rows (view, row_name, table);
  g_assert_cmpstr (rows_after, ==, rows_before);
}

static void
test_header_resize (void)
{
  g_autofree char *xdotool = g_find_program_in_path ("xdotool");
  g_autoptr(GFile) before = fixture ("go-names-before.folded");
  g_autoptr(GFile) after = fixture ("go-names-after.folded");
  EmbersWindow *window;
  EmbersProfilePage *page;
  GtkWidget *compare;
  EmbersDiffTable *diff;
  GtkColumnView *view;

  if (xdotool == NULL || !g_str_equal (G_OBJECT_TYPE_NAME (gdk_display_get_default ()), "GdkX11Display"))
    {
      g_test_skip ("needs xdotool and an X11 display");
      return;
    }
  window = embers_window_new (NULL);
  embers_test_present_window (GTK_WINDOW (window), 1200, 800);

  /* The top table of a profile */
  page = embers_window_open_file (window, before);
  wait_page (page);
  g_assert_cmpuint (embers_profile_page_get_state (page), ==, EMBERS_PAGE_STATE_READY);
  view = GTK_COLUMN_VIEW (embers_test_find_widget (GTK_WIDGET (embers_profile_page_get_top_table (page)),
                                                   GTK_TYPE_COLUMN_VIEW, NULL));
  g_assert_nonnull (view);
  drag_first_edge (GTK_WINDOW (window), view, top_row_name, view, "top table");

  /* The diff table of a comparison */
  compare = embers_window_open_comparison (window, before, after);
  g_assert_true (EMBERS_IS_COMPARE_PAGE (compare));
  page = embers_compare_page_get_profile_page (EMBERS_COMPARE_PAGE (compare));
  embers_test_wait_while (embers_compare_page_get_busy (EMBERS_COMPARE_PAGE (compare)) ||
                          embers_profile_page_get_state (page) != EMBERS_PAGE_STATE_READY);
  wait_page (page);
  diff = embers_compare_page_get_table (EMBERS_COMPARE_PAGE (compare));
  embers_test_wait_mapped (GTK_WIDGET (diff));
  view = GTK_COLUMN_VIEW (embers_test_find_widget (GTK_WIDGET (diff), GTK_TYPE_COLUMN_VIEW, NULL));
  g_assert_nonnull (view);
  drag_first_edge (GTK_WINDOW (window), view, diff_row_name, diff, "diff table");

  {
    g_autoptr(GSettings) settings = g_settings_new (APP_ID);

    g_settings_reset (settings, "top-table-columns");
    g_settings_reset (settings, "diff-table-columns");
  }
  embers_test_destroy_window (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  embers_test_gtk_init (&argc, &argv);

  g_test_add_func ("/embers/header-resize/top-and-diff", test_header_resize);

  return g_test_run ();
}
