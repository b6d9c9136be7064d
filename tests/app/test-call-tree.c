/* test-call-tree.c: the call tree view in a window: the heaviest path
 * opened, rows and bars drawn, the keys, the screen reader's tree, the
 * link with the flame graph and the search, the inverted tree, a big
 * tree's rows given to the column view a few a frame (issue 18.1)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>
#include <gtk/gtk.h>

#include "embers-call-tree-cells.h"
#include "embers-call-tree-view.h"
#include "embers-compare-page.h"
#include "embers-flame-graph.h"
#include "embers-name-label.h"
#include "embers-transform-stack.h"
#include "embers-window.h"
#include "embers-test-gtk-utils.h"

static void
wait_page (EmbersProfilePage *page)
{
  embers_test_wait_while (embers_profile_page_get_state (page) == EMBERS_PAGE_STATE_LOADING ||
                          embers_profile_page_get_busy (page) ||
                          embers_profile_page_get_search_pending (page));
  embers_test_settle ();
}

static void
wait_tree (EmbersCallTreeView *tree)
{
  embers_test_wait_while (!embers_call_tree_view_is_settled (tree));
  embers_test_settle ();
}

/* The row at @position of the tree */
static EmbersCallTreeRow *
row_at (EmbersCallTreeView *tree,
        guint               position)
{
  g_autoptr(GtkTreeListRow) row = g_list_model_get_item (G_LIST_MODEL (embers_call_tree_view_get_model (tree)),
                                                          position);

  GObject *item;

  g_assert_nonnull (row);
  /* The tree list row keeps its item */
  item = gtk_tree_list_row_get_item (row);
  g_object_unref (item);
  return EMBERS_CALL_TREE_ROW (item);
}

static guint
selected_position (EmbersCallTreeView *tree)
{
  return gtk_single_selection_get_selected (GTK_SINGLE_SELECTION (embers_call_tree_view_get_model (tree)));
}

/* The name cell (an EmbersCallTreeExpander) showing @name, or NULL */
static GtkWidget *
find_expander (GtkWidget  *root,
               const char *name)
{
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found;

      if (EMBERS_IS_CALL_TREE_EXPANDER (child))
        {
          GtkTreeListRow *row = embers_call_tree_expander_get_list_row (EMBERS_CALL_TREE_EXPANDER (child));
          g_autoptr(GObject) item = row != NULL ? gtk_tree_list_row_get_item (row) : NULL;

          if (item != NULL && g_str_equal (embers_call_tree_row_get_name (EMBERS_CALL_TREE_ROW (item)), name))
            return child;
          continue;
        }
      found = find_expander (child, name);
      if (found != NULL)
        return found;
    }
  return NULL;
}


/* The text a tooltip was given. No API reads it back: a GtkTooltip keeps
 * its window (a GtkTooltipWindow, whose label shows the text) as its
 * first member, as every GTK 4 has */
static const char *
tooltip_text (GtkTooltip *tooltip)
{
  GtkWidget *window = *(GtkWidget **) (gpointer) ((char *) tooltip + sizeof (GObject));
  GtkWidget *label;

  g_assert_true (GTK_IS_WIDGET (window));
  label = embers_test_find_widget (window, GTK_TYPE_LABEL, NULL);
  g_assert_nonnull (label);
  return gtk_label_get_text (GTK_LABEL (label));
}

/* A bound name label (the top table's) sets no tooltip text, which would
 * ask the display server where the pointer is at every bind: its tooltip
 * is the whole name, worked out when asked */
static void
assert_lazy_tooltip (GtkWidget *label)
{
  g_autoptr(GtkTooltip) tooltip = g_object_new (GTK_TYPE_TOOLTIP, NULL);
  const char *text;
  gboolean shown = FALSE;

  text = EMBERS_IS_NAME_LABEL (label) ? embers_name_label_get_text (EMBERS_NAME_LABEL (label))
                                      : embers_call_tree_text_get_text (EMBERS_CALL_TREE_TEXT (label));
  g_assert_nonnull (text);
  g_assert_true (gtk_widget_get_has_tooltip (label));
  g_assert_null (gtk_widget_get_tooltip_text (label));
  g_signal_emit_by_name (label, "query-tooltip", 1, 1, FALSE, tooltip, &shown);
  g_assert_true (shown);
  g_assert_cmpstr (tooltip_text (tooltip), ==, text);
  g_assert_null (gtk_widget_get_tooltip_text (label));
}

static void
test_call_tree (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fixtures", "go", "cpu-labels.pb.gz", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  EmbersWindow *window = embers_window_new (NULL);
  EmbersProfilePage *page;
  EmbersCallTreeView *tree;
  EmbersFlameGraph *graph;
  GtkWidget *column_view, *expander, *bar, *label;
  g_autoptr(EmbersTestPixels) pixels = NULL;
  graphene_rect_t area;
  EmbersProfile *profile;
  guint n_open, n_all;
  guint32 node;
  int y;

  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 800);
  gtk_window_present (GTK_WINDOW (window));
  embers_test_wait_mapped (GTK_WIDGET (window));
  page = embers_window_open_file (window, file);
  wait_page (page);
  graph = embers_profile_page_get_flame_graph (page);
  profile = embers_flame_graph_get_profile (graph);
  embers_test_wait_frame (GTK_WIDGET (page));
  label = embers_test_find_widget (GTK_WIDGET (page), EMBERS_TYPE_NAME_LABEL, NULL);
  g_assert_nonnull (label);
  assert_lazy_tooltip (label);
  /* The name label's accessible label stays the whole name */
  gtk_test_accessible_assert_property (GTK_ACCESSIBLE (label), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                       embers_name_label_get_text (EMBERS_NAME_LABEL (label)));

  /* Ctrl+5 shows it, with the heaviest path open: total, then the
   * heaviest child at each level down to a leaf */
  g_assert_true (embers_test_press_key (GTK_WIDGET (page), GDK_KEY_5, GDK_CONTROL_MASK));
  wait_page (page);
  g_assert_cmpint (embers_profile_page_get_view (page), ==, EMBERS_VIEW_CALL_TREE);
  tree = EMBERS_CALL_TREE_VIEW (embers_test_find_widget (GTK_WIDGET (page), EMBERS_TYPE_CALL_TREE_VIEW, NULL));
  embers_test_wait_mapped (GTK_WIDGET (tree));
  wait_tree (tree);
  g_assert_cmpstr (embers_call_tree_row_get_name (row_at (tree, 0)), ==, "total");
  g_assert_cmpstr (embers_call_tree_row_get_name (row_at (tree, 1)), ==, "main.writeCPULabels.func1.1");
  for (guint i = 1; i < 7; i++)
    g_assert_cmpuint (embers_call_tree_row_get_depth (row_at (tree, i)), ==, i);
  n_open = embers_call_tree_view_get_n_rows (tree);
  g_assert_cmpuint (n_open, >, 10);
  /* Within a level, heaviest first */
  {
    EmbersCallTreeRow *a = row_at (tree, 1);
    guint i = 2;

    while (embers_call_tree_row_get_depth (row_at (tree, i)) != 1)
      i++;
    g_assert_cmpint (embers_call_tree_row_get_total (a), >=, embers_call_tree_row_get_total (row_at (tree, i)));
  }

  /* What is drawn: the names, and a bar per row as long as its share */
  column_view = embers_test_find_widget (GTK_WIDGET (tree), GTK_TYPE_COLUMN_VIEW, NULL);
  embers_test_wait_frame (GTK_WIDGET (tree));
  pixels = embers_test_render_frame (GTK_WIDGET (tree));
  expander = find_expander (GTK_WIDGET (tree), "main.writeCPULabels.func2");
  g_assert_nonnull (expander);
  /* The call tree's names answer the same way */
  assert_lazy_tooltip (embers_call_tree_expander_get_child (EMBERS_CALL_TREE_EXPANDER (expander)));
  area = embers_test_bounds (expander, GTK_WIDGET (tree));
  embers_test_assert_not_blank (pixels, &area, 3, "call-tree-name");
  bar = embers_test_find_widget (gtk_widget_get_parent (gtk_widget_get_parent (expander)),
                                 GTK_TYPE_WIDGET, "call-tree-bar");
  g_assert_nonnull (bar);
  area = embers_test_bounds (bar, GTK_WIDGET (tree));
  g_assert_cmpfloat (area.size.width, >, 40);
  y = area.origin.y + area.size.height / 2;
  /* func2 holds about 20% of the total: filled on the left, the trough
   * on the right, and the two differ from the row's background above */
  g_assert_cmpuint (embers_test_pixels_get (pixels, area.origin.x + 2, y), !=,
                    embers_test_pixels_get (pixels, area.origin.x + area.size.width - 3, y));
  g_assert_cmpuint (embers_test_pixels_get (pixels, area.origin.x + area.size.width - 3, y), !=,
                    embers_test_pixels_get (pixels, area.origin.x + area.size.width - 3, area.origin.y));

  /* A screen reader reads a tree: the role, each row's level and state */
  gtk_test_accessible_assert_role (GTK_ACCESSIBLE (column_view), GTK_ACCESSIBLE_ROLE_TREE_GRID);
  gtk_test_accessible_assert_property (GTK_ACCESSIBLE (expander), GTK_ACCESSIBLE_PROPERTY_LEVEL, 6);
  gtk_test_accessible_assert_state (GTK_ACCESSIBLE (expander), GTK_ACCESSIBLE_STATE_EXPANDED, TRUE);
  expander = find_expander (GTK_WIDGET (tree), "main.writeCPULabels.func3");
  gtk_test_accessible_assert_state (GTK_ACCESSIBLE (expander), GTK_ACCESSIBLE_STATE_EXPANDED, FALSE);

  /* Keys: on the root, Left closes, Right opens the heaviest path again,
   * * opens everything */
  gtk_widget_grab_focus (GTK_WIDGET (tree));
  g_assert_cmpuint (selected_position (tree), ==, 0);
  g_assert_true (embers_test_press_key (column_view, GDK_KEY_Left, 0));
  g_assert_cmpuint (embers_call_tree_view_get_n_rows (tree), ==, 1);
  g_assert_true (embers_test_press_key (column_view, GDK_KEY_Right, 0));
  wait_tree (tree);
  g_assert_cmpuint (embers_call_tree_view_get_n_rows (tree), ==, n_open);
  /* Right on an open row goes to its first child, Left back */
  g_assert_true (embers_test_press_key (column_view, GDK_KEY_Right, 0));
  g_assert_cmpuint (selected_position (tree), ==, 1);
  g_assert_true (embers_test_press_key (column_view, GDK_KEY_Left, 0));
  g_assert_true (embers_test_press_key (column_view, GDK_KEY_Left, 0));
  g_assert_cmpuint (selected_position (tree), ==, 0);
  g_assert_true (embers_test_press_key (column_view, GDK_KEY_asterisk, 0));
  wait_tree (tree);
  n_all = embers_call_tree_view_get_n_rows (tree);
  {
    guint visible = 0;

    for (guint32 i = 0; i < embers_profile_get_n_nodes (profile); i++)
      if (embers_profile_node_total (profile, 0, i) > 0)
        visible++;
    g_assert_cmpuint (n_all, ==, visible);
  }

  /* Linked with the graph: a row picked here is the graph's selection */
  embers_call_tree_view_reveal_node (tree, embers_flame_graph_get_selected_node (graph) == 5 ? 6 : 5);
  wait_tree (tree);
  node = embers_call_tree_view_get_selected_node (tree);
  g_assert_true (node == 5 || node == 6);
  g_assert_cmpuint (embers_flame_graph_get_selected_node (graph), ==, node);
  /* ... and the graph's selection opens here when the tree comes back */
  embers_profile_page_set_view (page, EMBERS_VIEW_ICICLE);
  wait_page (page);
  node = embers_profile_get_n_nodes (profile) - 1;
  embers_flame_graph_set_selected_node (graph, node);
  embers_profile_page_set_view (page, EMBERS_VIEW_CALL_TREE);
  wait_page (page);
  wait_tree (tree);
  g_assert_cmpuint (embers_call_tree_view_get_selected_node (tree), ==, node);

  /* The search: matches marked, Ctrl+G goes from one to the next */
  embers_profile_page_set_search (page, "main.burn", FALSE, TRUE);
  wait_page (page);
  g_assert_true (embers_test_press_key (GTK_WIDGET (page), GDK_KEY_g, GDK_CONTROL_MASK));
  wait_tree (tree);
  g_assert_cmpstr (embers_call_tree_view_get_selected_name (tree), ==, "main.burn");
  node = embers_call_tree_view_get_selected_node (tree);
  g_assert_true (embers_test_press_key (GTK_WIDGET (page), GDK_KEY_g, GDK_CONTROL_MASK));
  wait_tree (tree);
  g_assert_cmpstr (embers_call_tree_view_get_selected_name (tree), ==, "main.burn");
  g_assert_cmpuint (embers_call_tree_view_get_selected_node (tree), !=, node);
  embers_test_wait_frame (GTK_WIDGET (tree));
  expander = find_expander (GTK_WIDGET (tree), "main.burn");
  g_assert_nonnull (expander);
  label = embers_call_tree_expander_get_child (EMBERS_CALL_TREE_EXPANDER (expander));
  g_assert_true (gtk_widget_has_css_class (label, "search-match"));

  /* i turns the tree over: the functions with self time first */
  embers_profile_page_set_search (page, NULL, FALSE, FALSE);
  wait_page (page);
  g_assert_true (embers_test_press_key (column_view, GDK_KEY_i, 0));
  g_assert_true (embers_call_tree_view_get_inverted (tree));
  g_assert_cmpint (embers_profile_page_get_view (page), ==, EMBERS_VIEW_CALL_TREE);
  wait_tree (tree);
  g_assert_cmpstr (embers_call_tree_row_get_name (row_at (tree, 1)), ==, "main.compress");
  {
    guint type = embers_call_tree_get_sample_type (embers_call_tree_row_get_tree (row_at (tree, 1)));
    gint64 self_time = 0;

    for (guint32 i = 0; i < embers_profile_get_n_nodes (profile); i++)
      if (g_str_equal (embers_profile_node_name_str (profile, i), "main.compress"))
        self_time += embers_profile_node_self (profile, type, i);
    g_assert_cmpint (embers_call_tree_row_get_total (row_at (tree, 1)), ==, self_time);
  }

  /* An inverted row is a function, not a node: picking it highlights
   * that function's frames in the graph, as the search does, and the
   * frame actions' keys act on it */
  gtk_single_selection_set_selected (GTK_SINGLE_SELECTION (embers_call_tree_view_get_model (tree)), 1);
  g_assert_cmpuint (embers_call_tree_view_get_selected_node (tree), ==, EMBERS_NODE_NONE);
  g_assert_cmpstr (embers_call_tree_view_get_selected_name (tree), ==, "main.compress");
  g_assert_cmpstr (embers_flame_graph_get_highlight_name (graph), ==, "main.compress");
  gtk_single_selection_set_selected (GTK_SINGLE_SELECTION (embers_call_tree_view_get_model (tree)), 2);
  {
    const char *second = embers_call_tree_row_get_name (row_at (tree, 2));

    g_assert_cmpstr (embers_flame_graph_get_highlight_name (graph), ==, second);
    gtk_widget_grab_focus (column_view);
    g_assert_true (embers_test_press_key (column_view, GDK_KEY_m, 0));
    wait_page (page);
    {
      const EmbersTransformStack *stack = embers_profile_page_get_transforms (page);

      g_assert_cmpuint (embers_transform_stack_get_length (stack), ==, 1);
      g_assert_cmpint (embers_transform_stack_get_kind (stack, 0), ==, EMBERS_TRANSFORM_MERGE_FUNCTION);
      g_assert_cmpstr (embers_transform_stack_get_args (stack, 0)[0], ==, second);
    }
  }

  g_object_ref (window);
  gtk_window_destroy (GTK_WINDOW (window));
  embers_test_assert_finalize (window);
}

/* The first row named @name below @from (in the open rows), or G_MAXUINT */
static guint
find_row (EmbersCallTreeView *tree,
          const char         *name)
{
  guint n = embers_call_tree_view_get_n_rows (tree);

  for (guint i = 0; i < n; i++)
    if (g_str_equal (embers_call_tree_row_get_name (row_at (tree, i)), name))
      return i;
  return G_MAXUINT;
}

/* Makes the call tree @width px wide (the page's paned gives the table
 * the rest) */
static void
set_tree_width (EmbersProfilePage  *page,
                EmbersCallTreeView *tree,
                int                 width)
{
  GtkPaned *paned = GTK_PANED (embers_test_find_widget (GTK_WIDGET (page), GTK_TYPE_PANED, "paned"));

  g_assert_nonnull (paned);
  gtk_paned_set_position (paned, gtk_paned_get_position (paned) + gtk_widget_get_width (GTK_WIDGET (tree)) - width);
  embers_test_wait_while (gtk_widget_get_width (GTK_WIDGET (tree)) != width);
  embers_test_wait_frame (GTK_WIDGET (tree));
}

/* Every shown column's header lies inside the tree (state), and the last
 * one's title is drawn (pixels); returns how many are shown */
static guint
assert_headers_inside (EmbersCallTreeView *tree)
{
  GtkWidget *column_view = embers_test_find_widget (GTK_WIDGET (tree), GTK_TYPE_COLUMN_VIEW, NULL);
  GtkWidget *header = embers_test_find_widget (column_view, GTK_TYPE_WIDGET, "header");
  g_autoptr(EmbersTestPixels) pixels = NULL;
  int width = gtk_widget_get_width (GTK_WIDGET (tree));
  GtkWidget *last = NULL;
  graphene_rect_t area;
  guint n = 0;

  g_assert_nonnull (header);
  for (GtkWidget *title = gtk_widget_get_first_child (header); title != NULL;
       title = gtk_widget_get_next_sibling (title))
    {
      if (!gtk_widget_get_mapped (title))
        continue;
      area = embers_test_bounds (title, GTK_WIDGET (tree));
      g_test_message ("header %u: %.0f to %.0f of %d px", n, area.origin.x, area.origin.x + area.size.width, width);
      g_assert_cmpfloat (area.origin.x, >=, 0);
      g_assert_cmpfloat (area.origin.x + area.size.width, <=, width);
      g_assert_cmpfloat (area.size.width, >, 0);
      last = title;
      n++;
    }
  g_assert_nonnull (last);
  pixels = embers_test_render_frame (GTK_WIDGET (tree));
  area = embers_test_bounds (last, GTK_WIDGET (tree));
  embers_test_assert_not_blank (pixels, &area, 2, "the last column's title");
  return n;
}

/* The comparison of two files (tests/fixtures/go/cpu-diff.go made them:
 * main.checksum grew from 690 ms to 1.37 s, main.encode's share shrank):
 * both sides and the change as columns, rows marked in the diff palette's
 * colours, the change in the screen reader's label, sorting by a column */
static void
test_call_tree_diff (void)
{
  g_autofree char *base_path = g_test_build_filename (G_TEST_DIST, "fixtures", "go", "cpu-before.pb.gz", NULL);
  g_autofree char *comp_path = g_test_build_filename (G_TEST_DIST, "fixtures", "go", "cpu-after.pb.gz", NULL);
  g_autoptr(GFile) base = g_file_new_for_path (base_path);
  g_autoptr(GFile) comp = g_file_new_for_path (comp_path);
  EmbersWindow *window = embers_window_new (NULL);
  g_autoptr(EmbersTestPixels) pixels = NULL;
  EmbersComparePage *compare;
  EmbersProfilePage *page;
  EmbersCallTreeView *tree;
  GtkWidget *column_view, *expander, *row_widget;
  GListModel *columns;
  GtkColumnViewColumn *change_percent = NULL;
  graphene_rect_t area;
  EmbersCallTreeRow *row;
  guint checksum, encode;
  guint32 grew, shrank;
  int y;

  gtk_window_set_default_size (GTK_WINDOW (window), 1400, 800);
  gtk_window_present (GTK_WINDOW (window));
  embers_test_wait_mapped (GTK_WIDGET (window));
  compare = EMBERS_COMPARE_PAGE (embers_window_open_comparison (window, base, comp));
  embers_test_wait_while (embers_compare_page_get_busy (compare));
  page = embers_compare_page_get_profile_page (compare);
  wait_page (page);
  embers_profile_page_set_view (page, EMBERS_VIEW_CALL_TREE);
  wait_page (page);
  tree = EMBERS_CALL_TREE_VIEW (embers_test_find_widget (GTK_WIDGET (page), EMBERS_TYPE_CALL_TREE_VIEW, NULL));
  embers_test_wait_mapped (GTK_WIDGET (tree));
  wait_tree (tree);

  /* Both sides' totals, and the change */
  row = row_at (tree, 0);
  g_assert_true (embers_call_tree_is_diff (embers_call_tree_row_get_tree (row)));
  g_assert_cmpint (embers_call_tree_row_get_baseline_total (row), ==, 5040000000);
  g_assert_cmpint (embers_call_tree_row_get_total (row), ==, 5700000000);
  column_view = embers_test_find_widget (GTK_WIDGET (tree), GTK_TYPE_COLUMN_VIEW, NULL);
  columns = gtk_column_view_get_columns (GTK_COLUMN_VIEW (column_view));
  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, i);
      const char *id = gtk_column_view_column_get_id (column);
      gboolean diff_column = g_str_equal (id, "baseline") || g_str_equal (id, "comparison") ||
                             g_str_equal (id, "change") || g_str_equal (id, "change-percent");

      if (g_str_equal (id, "self") || g_str_equal (id, "total"))
        g_assert_false (gtk_column_view_column_get_visible (column));
      if (diff_column)
        g_assert_true (gtk_column_view_column_get_visible (column));
      if (g_str_equal (id, "change-percent"))
        change_percent = column;
    }
  g_assert_nonnull (change_percent);
  /* The other mode's columns are not in the column view at all: their
   * cells would be built in every row */
  g_assert_cmpuint (g_list_model_get_n_items (columns), ==, 6);

  /* In a 600 px pane every column fits (the names take what is left);
   * at 450 px the least needed values give way, and what is shown fits */
  set_tree_width (page, tree, 600);
  g_assert_cmpuint (assert_headers_inside (tree), ==, 6);
  set_tree_width (page, tree, 450);
  {
    guint shown = assert_headers_inside (tree);

    g_assert_cmpuint (shown, >=, 3);
    g_assert_cmpuint (shown, <, 6);
    g_assert_true (gtk_column_view_column_get_visible (change_percent));
  }
  set_tree_width (page, tree, 600);
  g_assert_cmpuint (assert_headers_inside (tree), ==, 6);

  checksum = find_row (tree, "main.checksum");
  encode = find_row (tree, "main.encode");
  g_assert_cmpuint (checksum, !=, G_MAXUINT);
  g_assert_cmpuint (encode, !=, G_MAXUINT);
  /* Heaviest first: encode (both sides' totals) above checksum */
  g_assert_cmpuint (encode, <, checksum);
  g_assert_cmpint (embers_call_tree_row_get_baseline_total (row_at (tree, checksum)), ==, 690000000);
  g_assert_cmpint (embers_call_tree_row_get_total (row_at (tree, checksum)), ==, 1370000000);

  /* What is drawn: each row's mark in the diff palette's colour, red for
   * what grew, blue for what shrank (red/blue, the default) */
  embers_test_wait_frame (GTK_WIDGET (tree));
  pixels = embers_test_render_frame (GTK_WIDGET (tree));
  expander = find_expander (GTK_WIDGET (tree), "main.checksum");
  g_assert_nonnull (expander);
  area = embers_test_bounds (expander, GTK_WIDGET (tree));
  y = area.origin.y + area.size.height / 2;
  grew = embers_test_pixels_get (pixels, area.origin.x + 2, y);
  g_assert_cmpuint ((grew >> 16) & 0xff, >, (grew & 0xff) + 80);
  expander = find_expander (GTK_WIDGET (tree), "main.encode");
  area = embers_test_bounds (expander, GTK_WIDGET (tree));
  y = area.origin.y + area.size.height / 2;
  shrank = embers_test_pixels_get (pixels, area.origin.x + 2, y);
  g_assert_cmpuint (shrank & 0xff, >, ((shrank >> 16) & 0xff) + 10);

  /* A screen reader hears the change */
  {
    const char *label = "main.checksum, level 6, baseline 690.00 ms, comparison 1.37 s, "
                        "change +680.00 ms (+75.6%)";

    row_widget = gtk_widget_get_parent (gtk_widget_get_parent (find_expander (GTK_WIDGET (tree), "main.checksum")));
    gtk_test_accessible_assert_property (GTK_ACCESSIBLE (row_widget), GTK_ACCESSIBLE_PROPERTY_LABEL, label);
  }

  /* Sorted by the change of share, largest first: checksum grew most */
  gtk_column_view_sort_by_column (GTK_COLUMN_VIEW (column_view), change_percent, GTK_SORT_DESCENDING);
  wait_tree (tree);
  checksum = find_row (tree, "main.checksum");
  encode = find_row (tree, "main.encode");
  g_assert_cmpuint (checksum, <, encode);
  {
    gboolean descending;

    g_assert_cmpint (embers_call_tree_get_sort (embers_call_tree_row_get_tree (row_at (tree, 0)), &descending), ==,
                     EMBERS_CALL_TREE_SORT_CHANGE_PERCENT);
    g_assert_true (descending);
  }

  g_object_ref (window);
  gtk_window_destroy (GTK_WINDOW (window));
  embers_test_assert_finalize (window);
}

/* A key as GTK delivers it to @focus inside @column_view: the column
 * view's capture-phase shortcuts first, then (embers_test_press_key) the
 * focus's and its ancestors' own */
static gboolean
press_key_in_list (GtkWidget *column_view,
                   GtkWidget *focus,
                   guint      keyval)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (column_view);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) controller = g_list_model_get_item (controllers, i);

      if (!GTK_IS_SHORTCUT_CONTROLLER (controller) ||
          gtk_event_controller_get_propagation_phase (controller) != GTK_PHASE_CAPTURE)
        continue;
      for (guint j = 0; j < g_list_model_get_n_items (G_LIST_MODEL (controller)); j++)
        {
          g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), j);
          GtkShortcutTrigger *trigger = gtk_shortcut_get_trigger (shortcut);

          if (GTK_IS_KEYVAL_TRIGGER (trigger) &&
              gtk_keyval_trigger_get_keyval (GTK_KEYVAL_TRIGGER (trigger)) == keyval &&
              gtk_keyval_trigger_get_modifiers (GTK_KEYVAL_TRIGGER (trigger)) == 0 &&
              gtk_shortcut_action_activate (gtk_shortcut_get_action (shortcut), GTK_SHORTCUT_ACTION_EXCLUSIVE,
                                            column_view, gtk_shortcut_get_arguments (shortcut)))
            return TRUE;
        }
    }
  return embers_test_press_key (focus, keyval, 0);
}

static gboolean
model_whole (gpointer data)
{
  EmbersCallTreeView *tree = data;

  return g_list_model_get_n_items (G_LIST_MODEL (embers_call_tree_view_get_model (tree))) ==
         embers_call_tree_view_get_n_rows (tree);
}

/* A tree of a few hundred rows: the column view gets a few first and the
 * rest a few a frame, and ends with all of them; what
 * goes to a row further down (the heaviest path's last row, End) gets the
 * rows up to it at once */
static void
test_call_tree_grow (void)
{
  g_autofree char *dir = g_dir_make_tmp ("embers-call-tree-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "deep.folded", NULL);
  g_autoptr(GString) text = g_string_new ("main");
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;
  EmbersWindow *window = embers_window_new (NULL);
  EmbersProfilePage *page;
  EmbersCallTreeView *tree;
  EmbersProfile *profile;
  GtkWidget *column_view, *focus;
  guint32 leaf = EMBERS_NODE_NONE;
  guint n_rows;

  /* The heaviest path 120 frames deep, and 400 light siblings of its top */
  for (guint i = 1; i <= 120; i++)
    g_string_append_printf (text, ";deep%u", i);
  g_string_append (text, " 1000\n");
  for (guint i = 0; i < 400; i++)
    g_string_append_printf (text, "main;light%u 1\n", i);
  g_file_set_contents (path, text->str, -1, &error);
  g_assert_no_error (error);
  file = g_file_new_for_path (path);

  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 800);
  gtk_window_present (GTK_WINDOW (window));
  embers_test_wait_mapped (GTK_WIDGET (window));
  page = embers_window_open_file (window, file);
  wait_page (page);
  profile = embers_flame_graph_get_profile (embers_profile_page_get_flame_graph (page));
  for (guint32 i = 0; i < embers_profile_get_n_nodes (profile); i++)
    if (g_str_equal (embers_profile_node_name_str (profile, i), "deep120"))
      leaf = i;
  g_assert_cmpuint (leaf, !=, EMBERS_NODE_NONE);

  /* Right after the switch: the path's last row (at 121, past the first
   * rows) is picked and shown */
  embers_profile_page_set_view (page, EMBERS_VIEW_CALL_TREE);
  tree = EMBERS_CALL_TREE_VIEW (embers_test_find_widget (GTK_WIDGET (page), EMBERS_TYPE_CALL_TREE_VIEW, NULL));
  embers_test_wait_while (embers_profile_page_get_busy (page) || embers_call_tree_view_get_n_rows (tree) == 0 ||
                          !embers_call_tree_view_is_settled (tree));
  /* (main's children are announced in chunks: the path and some) */
  g_assert_cmpuint (embers_call_tree_view_get_n_rows (tree), >, 122);
  embers_call_tree_view_reveal_node (tree, leaf);
  embers_test_wait_while (!embers_call_tree_view_is_settled (tree));
  g_assert_cmpuint (embers_call_tree_view_get_selected_node (tree), ==, leaf);
  g_assert_cmpuint (selected_position (tree), ==, 121);
  g_assert_cmpstr (embers_call_tree_row_get_name (row_at (tree, 121)), ==, "deep120");

  /* All the rows in the end, the picked one in sight */
  embers_test_wait_until (model_whole, tree, "all the rows in the column view");
  g_assert_cmpuint (selected_position (tree), ==, 121);
  embers_test_wait_frame (GTK_WIDGET (tree));
  g_assert_nonnull (find_expander (GTK_WIDGET (tree), "deep120"));
  n_rows = 2 + 120 + 400;
  embers_test_wait_while (embers_call_tree_view_get_n_rows (tree) != n_rows);

  /* * on the root: a few rows again, then all; End goes to the last row
   * while they come */
  column_view = embers_test_find_widget (GTK_WIDGET (tree), GTK_TYPE_COLUMN_VIEW, NULL);
  gtk_single_selection_set_selected (GTK_SINGLE_SELECTION (embers_call_tree_view_get_model (tree)), 0);
  gtk_widget_grab_focus (column_view);
  /* * on the closed root opens all of it over a few frames (main's 401
   * children, more than a list announces at a time, at once), and all
   * that is open then is in the column view: exactly the rows below */
  g_assert_true (embers_test_press_key (column_view, GDK_KEY_minus, 0));
  g_assert_cmpuint (embers_call_tree_view_get_n_rows (tree), ==, 1);
  g_assert_true (embers_test_press_key (column_view, GDK_KEY_asterisk, 0));
  wait_tree (tree);
  g_assert_cmpuint (embers_call_tree_view_get_n_rows (tree), ==, n_rows);
  g_assert_true (model_whole (tree));
  g_assert_cmpuint (selected_position (tree), ==, 0);
  g_assert_true (embers_test_press_key (column_view, GDK_KEY_asterisk, 0));
  g_assert_cmpuint (embers_call_tree_view_get_n_rows (tree), ==, n_rows);
  focus = gtk_root_get_focus (GTK_ROOT (window));
  g_assert_true (focus != NULL && gtk_widget_is_ancestor (focus, column_view));
  g_assert_true (press_key_in_list (column_view, focus, GDK_KEY_End));
  g_assert_cmpuint (selected_position (tree), ==, n_rows - 1);
  g_assert_true (model_whole (tree));
  embers_test_wait_frame (GTK_WIDGET (tree));
  g_assert_nonnull (find_expander (GTK_WIDGET (tree),
                                   embers_call_tree_row_get_name (row_at (tree, n_rows - 1))));

  g_object_ref (window);
  gtk_window_destroy (GTK_WINDOW (window));
  embers_test_assert_finalize (window);
  g_remove (path);
  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  embers_test_gtk_init (&argc, &argv);

  g_test_add_func ("/embers/call-tree/window", test_call_tree);
  g_test_add_func ("/embers/call-tree/diff", test_call_tree_diff);
  g_test_add_func ("/embers/call-tree/grow", test_call_tree_grow);

  return g_test_run ();
}
