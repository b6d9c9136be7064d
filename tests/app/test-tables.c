/* test-tables.c: the top and diff tables on a display: readable names,
 * resizable and remembered columns, calm linking with the flame graph,
 * the graph's single keys on a table row (issue 16.4 and 16.5)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <adwaita.h>
#include <glib/gstdio.h>

#include "embers-compare-page.h"
#include "embers-name-label.h"
#include "embers-shortcuts.h"
#include "embers-top-item.h"
#include "embers-transform-stack.h"
#include "embers-units.h"
#include "embers-window.h"
#include "embers-test-gtk-utils.h"

/* In tests/fixtures/folded/go-names-*.folded, the name of issue 16's
 * "regexp/… ompile" */
#define REGEXP_NAME "regexp/syntax.(*compiler).compile"
#define PUSH_NAME "regexp/syntax.(*parser).push"
#define LONG_NAME "github.com/emberslab/shop/internal/checkout.(*Receipt).MarshalJSON"

static void
wait_page (EmbersProfilePage *page)
{
  embers_test_wait_while (embers_profile_page_get_state (page) == EMBERS_PAGE_STATE_LOADING ||
                          embers_profile_page_get_busy (page) ||
                          embers_profile_page_get_search_pending (page));
  embers_test_settle ();
}

static EmbersWindow *
new_window (void)
{
  EmbersWindow *window = embers_window_new (NULL);

  embers_test_present_window (GTK_WINDOW (window), 1200, 800);
  return window;
}
static GFile *
fixture (const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fixtures", "folded", name, NULL);

  return g_file_new_for_path (path);
}

static EmbersProfilePage *
open_names (EmbersWindow *window)
{
  g_autoptr(GFile) file = fixture ("go-names-before.folded");
  EmbersProfilePage *page = embers_window_open_file (window, file);

  wait_page (page);
  g_assert_cmpuint (embers_profile_page_get_state (page), ==, EMBERS_PAGE_STATE_READY);
  return page;
}

static GtkWidget *
open_names_comparison (EmbersWindow *window)
{
  g_autoptr(GFile) base = fixture ("go-names-before.folded");
  g_autoptr(GFile) comp = fixture ("go-names-after.folded");
  GtkWidget *compare = embers_window_open_comparison (window, base, comp);
  EmbersProfilePage *page;

  g_assert_true (EMBERS_IS_COMPARE_PAGE (compare));
  page = embers_compare_page_get_profile_page (EMBERS_COMPARE_PAGE (compare));
  embers_test_wait_while (embers_compare_page_get_busy (EMBERS_COMPARE_PAGE (compare)) ||
                          embers_profile_page_get_state (page) != EMBERS_PAGE_STATE_READY);
  g_assert_null (embers_compare_page_get_error (EMBERS_COMPARE_PAGE (compare)));
  wait_page (page);
  return compare;
}

/* The name cell showing @name, among the rows on screen */
static EmbersNameLabel *
find_name_label (GtkWidget  *widget,
                 const char *name)
{
  if (EMBERS_IS_NAME_LABEL (widget) && gtk_widget_get_mapped (widget) &&
      g_strcmp0 (embers_name_label_get_text (EMBERS_NAME_LABEL (widget)), name) == 0)
    return EMBERS_NAME_LABEL (widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      EmbersNameLabel *found = find_name_label (child, name);

      if (found != NULL)
        return found;
    }
  return NULL;
}

typedef struct
{
  GtkWidget  *table;
  const char *name;
} Cell;

static gboolean
cell_shown (gpointer data)
{
  Cell *cell = data;

  return find_name_label (cell->table, cell->name) != NULL;
}

static EmbersNameLabel *
wait_name_label (GtkWidget  *table,
                 const char *name)
{
  Cell cell = { table, name };

  embers_test_wait_until (cell_shown, &cell, "the name's cell on screen");
  return find_name_label (table, name);
}

/* The cell shows its whole name (state), and draws it (pixels): ink from
 * its start to past where the shortened form would end */
static void
assert_shown_whole (EmbersNameLabel *label,
                    const char      *name)
{
  g_autoptr(EmbersTestPixels) pixels = NULL;
  int width = gtk_widget_get_width (GTK_WIDGET (label));
  int height = gtk_widget_get_height (GTK_WIDGET (label));
  int natural;
  graphene_rect_t bounds;
  GtkWidget *root;

  embers_test_wait_frame (GTK_WIDGET (gtk_widget_get_root (GTK_WIDGET (label))));
  gtk_widget_measure (GTK_WIDGET (label), GTK_ORIENTATION_HORIZONTAL, -1, NULL, &natural, NULL, NULL);
  g_test_message ("%s: %d px wide, needs %d", name, width, natural);
  g_assert_cmpint (width, >=, natural);
  g_assert_cmpstr (embers_name_label_get_shown_text (label), ==, name);
  /* The whole name is its tooltip, worked out only when the pointer
   * rests on it (test-call-tree asks for it): no tooltip text is set */
  g_assert_true (gtk_widget_get_has_tooltip (GTK_WIDGET (label)));
  g_assert_null (gtk_widget_get_tooltip_text (GTK_WIDGET (label)));

  /* The window as drawn (the cell alone has no background to tell dark
   * text from): text in the first and in the last fifth of the name */
  root = GTK_WIDGET (gtk_widget_get_root (GTK_WIDGET (label)));
  bounds = embers_test_bounds (GTK_WIDGET (label), root);
  pixels = embers_test_render (root);
  embers_test_assert_not_blank (pixels, &GRAPHENE_RECT_INIT (bounds.origin.x, bounds.origin.y, natural / 5, height),
                                2, "the name's start");
  embers_test_assert_not_blank (pixels, &GRAPHENE_RECT_INIT (bounds.origin.x + natural * 4 / 5, bounds.origin.y,
                                                             natural / 5, height),
                                2, "the name's end");
}

static void
test_names_whole (void)
{
  EmbersWindow *window = new_window ();
  EmbersProfilePage *page = open_names (window);
  GtkWidget *top = GTK_WIDGET (embers_profile_page_get_top_table (page));
  GtkWidget *compare;
  EmbersDiffTable *diff;

  /* At 1200 px both tables show the name whole */
  assert_shown_whole (wait_name_label (top, REGEXP_NAME), REGEXP_NAME);

  compare = open_names_comparison (window);
  diff = embers_compare_page_get_table (EMBERS_COMPARE_PAGE (compare));
  assert_shown_whole (wait_name_label (GTK_WIDGET (diff), REGEXP_NAME), REGEXP_NAME);

  embers_test_destroy_window (GTK_WINDOW (window));
}

typedef struct
{
  EmbersNameLabel *label;
  int              width;
} Narrow;

static gboolean
label_narrower (gpointer data)
{
  Narrow *narrow = data;

  return gtk_widget_get_width (GTK_WIDGET (narrow->label)) < narrow->width;
}

/* Columns keep the widths they were dragged to, in the settings; a name
 * that no longer fits loses its package path, never its function name */
static void
test_widths_remembered (void)
{
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  EmbersWindow *window = new_window ();
  EmbersProfilePage *page = open_names (window);
  EmbersTopTable *top = embers_profile_page_get_top_table (page);
  EmbersNameLabel *label = wait_name_label (GTK_WIDGET (top), LONG_NAME);
  g_autoptr(GVariant) widths = NULL;
  g_autoptr(GVariant) stored = NULL;
  Narrow narrow = { label, 0 };
  const char *shown;
  gint32 width = 0;

  g_settings_reset (settings, "top-table-columns");
  narrow.width = gtk_widget_get_width (GTK_WIDGET (label));

  /* What dragging the headers' edges does: fixed widths on the columns */
  widths = g_variant_ref_sink (g_variant_new_parsed ("{'name': 150, 'self': 250, 'self-percent': 250, "
                                                     "'total': 250, 'total-percent': 250}"));
  g_object_set (top, "column-widths", widths, NULL);
  stored = g_settings_get_value (settings, "top-table-columns");
  g_assert_true (g_variant_lookup (stored, "name", "i", &width));
  g_assert_cmpint (width, ==, 150);

  embers_test_wait_until (label_narrower, &narrow, "the name column narrower");
  embers_test_wait_frame (GTK_WIDGET (window));
  shown = embers_name_label_get_shown_text (label);
  g_test_message ("shown in %d px: %s", gtk_widget_get_width (GTK_WIDGET (label)), shown);
  g_assert_true (g_str_has_prefix (shown, "\xe2\x80\xa6"));
  /* The package path went, the function name stayed whole */
  g_assert_true (g_str_has_suffix (shown, "(*Receipt).MarshalJSON"));
  g_assert_true (g_str_has_suffix (LONG_NAME, shown + strlen ("\xe2\x80\xa6")));
  {
    g_autoptr(EmbersTestPixels) pixels = embers_test_render (GTK_WIDGET (window));
    graphene_rect_t bounds = embers_test_bounds (GTK_WIDGET (label), GTK_WIDGET (window));

    embers_test_assert_not_blank (pixels, &bounds,
                                  2, "the shortened name");
  }

  /* A new window's table starts with them */
  {
    EmbersWindow *other = new_window ();
    EmbersProfilePage *other_page = open_names (other);
    g_autoptr(GVariant) got = embers_top_table_dup_column_widths (embers_profile_page_get_top_table (other_page));

    g_assert_true (g_variant_lookup (got, "self", "i", &width));
    g_assert_cmpint (width, ==, 250);
    embers_test_destroy_window (GTK_WINDOW (other));
  }

  /* Hostile settings: widths no one could drag are clamped */
  g_settings_set_value (settings, "top-table-columns", g_variant_new_parsed ("{'name': -5, 'self': 999999}"));
  {
    g_autoptr(GVariant) got = embers_top_table_dup_column_widths (top);

    g_assert_false (g_variant_lookup (got, "name", "i", &width));
    g_assert_true (g_variant_lookup (got, "self", "i", &width));
    g_assert_cmpint (width, ==, 4000);
  }

  /* The diff table's too */
  {
    GtkWidget *compare = open_names_comparison (window);
    EmbersDiffTable *diff = embers_compare_page_get_table (EMBERS_COMPARE_PAGE (compare));
    g_autoptr(GVariant) got = NULL;

    g_settings_set_value (settings, "diff-table-columns", g_variant_new_parsed ("{'change': 133}"));
    got = embers_diff_table_dup_column_widths (diff);
    g_assert_true (g_variant_lookup (got, "change", "i", &width));
    g_assert_cmpint (width, ==, 133);
    g_object_set (diff, "column-widths", g_variant_new_parsed ("{'name': 321}"), NULL);
    g_clear_pointer (&stored, g_variant_unref);
    stored = g_settings_get_value (settings, "diff-table-columns");
    g_assert_true (g_variant_lookup (stored, "name", "i", &width));
    g_assert_cmpint (width, ==, 321);
  }

  g_settings_reset (settings, "top-table-columns");
  g_settings_reset (settings, "diff-table-columns");
  embers_test_destroy_window (GTK_WINDOW (window));
}

static guint32
find_node (EmbersProfile *profile,
           const char    *name)
{
  for (guint32 i = 1; i < embers_profile_get_n_nodes (profile); i++)
    if (g_strcmp0 (embers_profile_node_name_str (profile, i), name) == 0)
      return i;
  g_assert_not_reached ();
}

static GtkAdjustment *
table_vadjustment (GtkWidget *table)
{
  GtkWidget *scroller = embers_test_find_widget (table, GTK_TYPE_SCROLLED_WINDOW, NULL);

  g_assert_nonnull (scroller);
  return gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller));
}

static gboolean
scrolled_down (gpointer adjustment)
{
  return gtk_adjustment_get_value (adjustment) > 0;
}

static gboolean
graph_laid_out (gpointer graph)
{
  return embers_flame_graph_get_layout (graph) != NULL && embers_flame_graph_has_paint_cache (graph);
}

/* Hovering the graph marks the row and never scrolls; selecting a frame
 * (a click, the keyboard) scrolls the table to it */
static void
test_calm_hover (void)
{
  EmbersWindow *window = new_window ();
  EmbersProfilePage *page = open_names (window);
  EmbersFlameGraph *graph = embers_profile_page_get_flame_graph (page);
  EmbersTopTable *top = embers_profile_page_get_top_table (page);
  EmbersProfile *profile = embers_flame_graph_get_profile (graph);
  GtkAdjustment *vadj = table_vadjustment (GTK_WIDGET (top));
  GtkEventController *motion = NULL;
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (GTK_WIDGET (graph));
  EmbersLayout *layout;
  const EmbersRect *r;
  guint32 worker = find_node (profile, "main.worker");

  embers_test_wait_until (graph_laid_out, graph, "the flame graph's layout and paint");
  layout = embers_flame_graph_get_layout (graph);
  /* main.worker has no self time: its row is at the bottom, off screen */
  g_assert_cmpfloat (gtk_adjustment_get_upper (vadj), >, gtk_adjustment_get_page_size (vadj) * 2);
  g_assert_cmpfloat (gtk_adjustment_get_value (vadj), ==, 0);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) c = g_list_model_get_item (controllers, i);

      if (GTK_IS_EVENT_CONTROLLER_MOTION (c))
        motion = c;
    }
  g_assert_nonnull (motion);

  r = embers_layout_get_rect (layout, embers_layout_find_node (layout, worker));
  g_assert_nonnull (r);
  g_signal_emit_by_name (motion, "enter", r->x + r->width / 2, embers_layout_rect_y (layout, r) + 4);
  g_signal_emit_by_name (motion, "motion", r->x + r->width / 2, embers_layout_rect_y (layout, r) + 4);
  g_assert_cmpuint (embers_flame_graph_get_hover_node (graph), ==, worker);
  g_assert_cmpstr (embers_top_table_get_selected_name (top), ==, "main.worker");
  embers_test_wait_frame (GTK_WIDGET (window));
  embers_test_settle ();
  g_assert_cmpfloat (gtk_adjustment_get_value (vadj), ==, 0);
  /* Hovering left the graph's selection alone */
  g_assert_cmpuint (embers_flame_graph_get_selected_node (graph), ==, EMBERS_NODE_NONE);

  /* A click (or the keyboard) selects the frame: now the table scrolls */
  embers_flame_graph_set_selected_node (graph, worker);
  embers_test_wait_until (scrolled_down, vadj, "the table scrolled to the row");
  g_assert_cmpstr (embers_top_table_get_selected_name (top), ==, "main.worker");

  embers_test_destroy_window (GTK_WINDOW (window));
}

static GtkWidget *
find_label_text (GtkWidget  *widget,
                 const char *text)
{
  if (GTK_IS_LABEL (widget) && gtk_widget_get_mapped (widget) &&
      g_strcmp0 (gtk_label_get_label (GTK_LABEL (widget)), text) == 0)
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_label_text (child, text);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The row's widget inside the column view, focused as a click does; no
 * key controller between it and the table may eat a letter (no
 * type-ahead) */
static GtkWidget *
focus_row (GtkWidget  *table,
           const char *name)
{
  EmbersNameLabel *label = wait_name_label (table, name);
  GtkWidget *row = GTK_WIDGET (label);

  while (row != NULL && g_strcmp0 (gtk_widget_get_css_name (row), "row") != 0)
    row = gtk_widget_get_parent (row);
  g_assert_nonnull (row);
  g_assert_true (gtk_widget_grab_focus (row));
  for (GtkWidget *w = row; w != table; w = gtk_widget_get_parent (w))
    {
      g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (w);

      for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
        {
          g_autoptr(GtkEventController) c = g_list_model_get_item (controllers, i);

          /* The column view's own only cancels a header drag on Escape */
          if (GTK_IS_EVENT_CONTROLLER_KEY (c))
            g_assert_cmpstr (G_OBJECT_TYPE_NAME (w), ==, "GtkColumnView");
        }
    }
  return row;
}

/* A click on a row replaces the graph's selection; s, f, i, r and Delete
 * work from a focused row as they do on the graph */
static void
test_table_keys (void)
{
  EmbersWindow *window = new_window ();
  EmbersProfilePage *page = open_names (window);
  EmbersFlameGraph *graph = embers_profile_page_get_flame_graph (page);
  GtkWidget *top = GTK_WIDGET (embers_profile_page_get_top_table (page));
  EmbersProfile *profile = embers_flame_graph_get_profile (graph);
  GtkWidget *row;

  embers_test_wait_until (graph_laid_out, graph, "the flame graph's layout and paint");
  embers_flame_graph_set_selected_node (graph, find_node (profile, REGEXP_NAME));
  g_assert_cmpstr (embers_top_table_get_selected_name (EMBERS_TOP_TABLE (top)), ==, REGEXP_NAME);

  /* The click: the row is selected, the graph's selection replaced */
  row = focus_row (top, PUSH_NAME);
  embers_top_table_select_name (EMBERS_TOP_TABLE (top), PUSH_NAME);
  g_assert_cmpuint (embers_flame_graph_get_selected_node (graph), ==, EMBERS_NODE_NONE);
  g_assert_cmpstr (embers_flame_graph_get_highlight_name (graph), ==, PUSH_NAME);

  /* s: Sandwich of the row's function, not of the old selection */
  g_assert_true (embers_test_press_key (row, GDK_KEY_s, 0));
  wait_page (page);
  g_assert_cmpuint (embers_profile_page_get_view (page), ==, EMBERS_VIEW_SANDWICH);
  g_assert_nonnull (find_label_text (GTK_WIDGET (page), "Callers of " PUSH_NAME));
  embers_profile_page_set_view (page, EMBERS_VIEW_ICICLE);
  wait_page (page);

  /* i: inverted, and back */
  row = focus_row (top, PUSH_NAME);
  g_assert_true (embers_test_press_key (row, GDK_KEY_i, 0));
  wait_page (page);
  g_assert_cmpuint (embers_profile_page_get_view (page), ==, EMBERS_VIEW_BOTTOM_UP);
  row = focus_row (top, PUSH_NAME);
  g_assert_true (embers_test_press_key (row, GDK_KEY_i, 0));
  wait_page (page);
  g_assert_cmpuint (embers_profile_page_get_view (page), ==, EMBERS_VIEW_ICICLE);

  /* f: focus on the function everywhere: the graph's root total is the
   * function's */
  row = focus_row (top, PUSH_NAME);
  embers_top_table_select_name (EMBERS_TOP_TABLE (top), PUSH_NAME);
  g_assert_true (embers_test_press_key (row, GDK_KEY_f, 0));
  wait_page (page);
  profile = embers_flame_graph_get_profile (graph);
  g_assert_cmpint (embers_profile_get_total (profile, 0), ==, 150);

  /* Delete: hides the function */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "page.remove-transform", "u", 0));
  wait_page (page);
  row = focus_row (top, PUSH_NAME);
  embers_top_table_select_name (EMBERS_TOP_TABLE (top), PUSH_NAME);
  g_assert_true (embers_test_press_key (row, GDK_KEY_Delete, 0));
  wait_page (page);
  profile = embers_flame_graph_get_profile (graph);
  for (guint32 i = 1; i < embers_profile_get_n_nodes (profile); i++)
    g_assert_cmpstr (embers_profile_node_name_str (profile, i), !=, PUSH_NAME);

  /* r reaches the page's collapse-recursion too */
  row = focus_row (top, REGEXP_NAME);
  g_assert_true (embers_test_press_key (row, GDK_KEY_r, 0));
  wait_page (page);

  embers_test_destroy_window (GTK_WINDOW (window));
}

static gboolean
is_reserved (guint           keyval,
             GdkModifierType mods)
{
  keyval = gdk_keyval_to_lower (keyval);
  mods &= gtk_accelerator_get_default_mod_mask ();
  /* GTK's own: Ctrl+Shift+D and Ctrl+Shift+I open the Inspector */
  return (keyval == GDK_KEY_d || keyval == GDK_KEY_i) && mods == (GDK_CONTROL_MASK | GDK_SHIFT_MASK);
}

static guint
assert_no_reserved_trigger (GtkShortcutTrigger *trigger,
                            const char         *where)
{
  if (GTK_IS_KEYVAL_TRIGGER (trigger))
    {
      guint keyval = gtk_keyval_trigger_get_keyval (GTK_KEYVAL_TRIGGER (trigger));
      GdkModifierType mods = gtk_keyval_trigger_get_modifiers (GTK_KEYVAL_TRIGGER (trigger));

      if (is_reserved (keyval, mods))
        g_error ("%s takes GTK's %s", where, gtk_accelerator_name (keyval, mods));
      return 1;
    }
  if (GTK_IS_ALTERNATIVE_TRIGGER (trigger))
    return assert_no_reserved_trigger (gtk_alternative_trigger_get_first (GTK_ALTERNATIVE_TRIGGER (trigger)), where) +
           assert_no_reserved_trigger (gtk_alternative_trigger_get_second (GTK_ALTERNATIVE_TRIGGER (trigger)), where);
  return 0;
}

/* How many of GTK's own Inspector bindings the walk saw */
static guint gtk_own;

/* Every shortcut of every widget under @widget (class key bindings
 * included); returns how many keys were checked */
static guint
assert_no_reserved (GtkWidget *widget)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);
  guint n = 0;

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) c = g_list_model_get_item (controllers, i);

      if (!GTK_IS_SHORTCUT_CONTROLLER (c))
        continue;
      for (guint j = 0; j < g_list_model_get_n_items (G_LIST_MODEL (c)); j++)
        {
          g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (c), j);

          GtkShortcutAction *action = gtk_shortcut_get_action (shortcut);

          /* GtkWindow's own binding of them: the Inspector */
          if (GTK_IS_SIGNAL_ACTION (action) &&
              g_str_equal (gtk_signal_action_get_signal_name (GTK_SIGNAL_ACTION (action)), "enable-debugging"))
            {
              gtk_own++;
              continue;
            }
          n += assert_no_reserved_trigger (gtk_shortcut_get_trigger (shortcut), G_OBJECT_TYPE_NAME (widget));
        }
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    n += assert_no_reserved (child);
  return n;
}

static void
test_no_reserved_shortcuts (void)
{
  EmbersWindow *window = new_window ();
  EmbersProfilePage *page = open_names (window);
  GtkWidget *compare = open_names_comparison (window);
  const EmbersShortcutGroup *groups;
  guint n_groups;

  /* The tables themselves (their class bindings) */
  g_assert_cmpuint (assert_no_reserved (GTK_WIDGET (embers_profile_page_get_top_table (page))), >, 0);
  g_assert_cmpuint (assert_no_reserved (GTK_WIDGET (embers_compare_page_get_table (EMBERS_COMPARE_PAGE (compare)))), >, 0);
  /* Everything else in the window */
  gtk_own = 0;
  g_assert_cmpuint (assert_no_reserved (GTK_WIDGET (window)), >, 20);
  /* The walk sees class bindings: GtkWindow's Ctrl+Shift+D and I */
  g_assert_cmpuint (gtk_own, >=, 2);

  /* And every accelerator the shortcuts dialog lists */
  groups = embers_shortcuts_get_groups (&n_groups);
  for (guint g = 0; g < n_groups; g++)
    for (guint i = 0; i < groups[g].n_shortcuts; i++)
      {
        g_auto(GStrv) keys = NULL;

        if (groups[g].shortcuts[i].accelerators == NULL)
          continue;
        keys = g_strsplit (groups[g].shortcuts[i].accelerators, " ", -1);
        for (guint k = 0; keys[k] != NULL; k++)
          {
            guint keyval;
            GdkModifierType mods;

            g_assert_true (gtk_accelerator_parse (keys[k], &keyval, &mods));
            g_assert_false (is_reserved (keyval, mods));
          }
      }

  embers_test_destroy_window (GTK_WINDOW (window));
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

/* Dragging a header's edge with the real pointer (xdotool, through the X
 * server the test runs on, so GTK's own gestures see a press, a motion
 * and a release) resizes that column and never sorts the table */
static void
test_header_drag (void)
{
  g_autofree char *xdotool = g_find_program_in_path ("xdotool");
  EmbersWindow *window;
  EmbersProfilePage *page;
  GtkColumnView *view;
  GtkColumnViewSorter *sorter;
  GtkColumnViewColumn *sort_column;
  GtkSortType sort_order;
  g_autoptr(GtkColumnViewColumn) column = NULL;
  GtkWidget *title;
  graphene_point_t point;
  double sx, sy;
  int width;
  gboolean done = FALSE;
  g_autoptr(GSubprocess) drag = NULL;
  g_autofree char *title_pattern = NULL, *x0 = NULL, *x1 = NULL, *xm = NULL, *y = NULL;
  g_autoptr(GError) error = NULL;

  /* X's pointer (GDK's X11 calls are deprecated: the window is found by
   * its title, as xdotool finds it) */
  if (xdotool == NULL || !g_str_equal (G_OBJECT_TYPE_NAME (gdk_display_get_default ()), "GdkX11Display"))
    {
      g_test_skip ("needs xdotool and an X11 display");
      return;
    }
  window = new_window ();
  page = open_names (window);
  view = GTK_COLUMN_VIEW (embers_test_find_widget (GTK_WIDGET (embers_profile_page_get_top_table (page)),
                                                   GTK_TYPE_COLUMN_VIEW, NULL));
  g_assert_nonnull (view);
  embers_test_wait_frame (GTK_WIDGET (window));
  sorter = GTK_COLUMN_VIEW_SORTER (gtk_column_view_get_sorter (view));
  sort_column = gtk_column_view_sorter_get_primary_sort_column (sorter);
  sort_order = gtk_column_view_sorter_get_primary_sort_order (sorter);
  g_assert_nonnull (sort_column);

  /* The first column's title; the resize handle is the column's right
   * edge, between its title and the next one's */
  column = g_list_model_get_item (gtk_column_view_get_columns (view), 0);
  g_assert_true (column != sort_column);
  title = gtk_widget_get_first_child (gtk_widget_get_first_child (GTK_WIDGET (view)));
  g_assert_nonnull (title);
  g_assert_nonnull (gtk_widget_get_next_sibling (title));
  width = gtk_widget_get_width (title);
  {
    graphene_rect_t next = embers_test_bounds (gtk_widget_get_next_sibling (title), title);

    g_assert_true (gtk_widget_compute_point (title, GTK_WIDGET (window),
                                             &GRAPHENE_POINT_INIT ((width + next.origin.x) / 2,
                                                                   gtk_widget_get_height (title) / 2),
                                             &point));
  }
  gtk_native_get_surface_transform (GTK_NATIVE (window), &sx, &sy);
  title_pattern = g_strdup_printf ("^%s$", gtk_window_get_title (GTK_WINDOW (window)));
  x0 = g_strdup_printf ("%d", (int) (point.x + sx));
  x1 = g_strdup_printf ("%d", (int) (point.x + sx) + 90);
  xm = g_strdup_printf ("%d", (int) (point.x + sx) + 30);
  y = g_strdup_printf ("%d", (int) (point.y + sy));
  g_test_message ("dragging the edge of a %d px column at %s,%s by 90 px", width, x0, y);

  /* At a hand's pace (xdotool's sleeps pace the pointer, the test waits
   * for conditions): press on the edge, move in two steps, release */
  drag = g_subprocess_new (G_SUBPROCESS_FLAGS_NONE, &error, xdotool,
                           "search", "--sync", "--name", title_pattern,
                           "mousemove", "--window", "%1", x0, y, "sleep", "0.2", "mousedown", "1", "sleep", "0.2",
                           "mousemove", "--window", "%1", xm, y, "sleep", "0.2",
                           "mousemove", "--window", "%1", x1, y, "sleep", "0.2", "mouseup", "1", NULL);
  g_assert_no_error (error);
  g_subprocess_wait_check_async (drag, NULL, subprocess_done, &done);
  embers_test_wait_flag (&done, "xdotool's drag");
  /* The column took the drag ... */
  embers_test_wait_while (gtk_widget_get_width (title) < width + 45);
  g_test_message ("the column is %d px now", gtk_widget_get_width (title));
  g_assert_cmpint (gtk_column_view_column_get_fixed_width (column), >, width);
  /* ... and the table is sorted as it was */
  embers_test_settle ();
  g_assert_true (gtk_column_view_sorter_get_primary_sort_column (sorter) == sort_column);
  g_assert_cmpint (gtk_column_view_sorter_get_primary_sort_order (sorter), ==, sort_order);

  {
    g_autoptr(GSettings) settings = g_settings_new (APP_ID);

    g_settings_reset (settings, "top-table-columns");
  }
  embers_test_destroy_window (GTK_WINDOW (window));
}

/* The shown label of the cut row (its cell's slanted line), or NULL */
static GtkWidget *
find_cut_label (GtkWidget *widget)
{
  if (GTK_IS_LABEL (widget) && gtk_widget_has_css_class (widget, "cut-off") && gtk_widget_get_mapped (widget))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_cut_label (child);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static gboolean
cut_label_shown (gpointer table)
{
  return find_cut_label (table) != NULL;
}

/* The darkest pixel's brightness (0-255) in @area: how strongly its text
 * is drawn */
static int
darkest (EmbersTestPixels      *pixels,
         const graphene_rect_t *area)
{
  int least = 255;

  for (int y = (int)area->origin.y; y < area->origin.y + area->size.height; y++)
    for (int x = (int)area->origin.x; x < area->origin.x + area->size.width; x++)
      {
        guint32 p = embers_test_pixels_get (pixels, x, y);
        int v = (((p >> 16) & 0xff) * 3 + ((p >> 8) & 0xff) * 6 + (p & 0xff)) / 10;

        least = MIN (least, v);
      }
  return least;
}

/* The labels' texts in @widget, joined */
static void
collect_texts (GtkWidget *widget,
               GString   *out)
{
  if (GTK_IS_LABEL (widget) && gtk_widget_get_visible (widget))
    g_string_append_printf (out, "[%s]", gtk_label_get_label (GTK_LABEL (widget)));
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_texts (child, out);
}

/* An answer cut by a node limit has an `other` frame under each parent
 * it cut below (Pyroscope's truncation, see tests/server/ets-flamegraph.c):
 * the table shows them as one row of cut-off work, not as a function */
static void
test_cut_off_row (void)
{
  const char *stacks =
    "main;serve;handle;other 7\n"
    "main;serve;handle;work 20\n"
    "main;serve;parse;other 5\n"
    "main;serve;parse 10\n"
    "main;gc;other 3\n"
    "main;idle 40\n";
  g_autofree char *dir = g_dir_make_tmp ("embers-cut-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "cut.folded", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) texts = g_string_new (NULL);
  g_autoptr(EmbersTestPixels) pixels = NULL;
  g_autofree char *sum = NULL;
  EmbersWindow *window;
  EmbersProfilePage *page;
  EmbersTopTable *top;
  GtkColumnView *view;
  GListModel *model;
  GtkWidget *cut, *row, *name;
  guint cut_position = G_MAXUINT;
  graphene_rect_t cut_box, name_box;
  int cut_dark, name_dark;

  g_assert_true (g_file_set_contents (path, stacks, -1, &error));
  g_assert_no_error (error);
  window = new_window ();
  page = embers_window_open_file (window, file);
  wait_page (page);
  top = embers_profile_page_get_top_table (page);
  g_assert_cmpuint (embers_top_table_get_n_cut (top), ==, 3);

  /* One row, its value the sum of the three `other` frames, exactly */
  view = GTK_COLUMN_VIEW (embers_test_find_widget (GTK_WIDGET (top), GTK_TYPE_COLUMN_VIEW, "column_view"));
  model = G_LIST_MODEL (gtk_column_view_get_model (view));
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(EmbersTopItem) item = g_list_model_get_item (model, i);

      if (g_str_equal (embers_top_item_get_name (item), "other"))
        {
          g_assert_cmpuint (cut_position, ==, G_MAXUINT);
          cut_position = i;
          g_assert_cmpint (embers_top_item_get_total (item), ==, 7 + 5 + 3);
          g_assert_cmpint (embers_top_item_get_self (item), ==, 7 + 5 + 3);
        }
    }
  g_assert_cmpuint (cut_position, !=, G_MAXUINT);

  /* What a person reads: no function's name, what was cut and where,
   * the sum in the Total column */
  embers_test_wait_until (cut_label_shown, top, "the cut row drawn");
  cut = find_cut_label (GTK_WIDGET (top));
  g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (cut)), ==, "Cut off by the node limit, in 3 places");
  g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (cut), "Load More"));
  g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (cut), "Nodes"));
  row = cut;
  while (row != NULL && g_strcmp0 (gtk_widget_get_css_name (row), "row") != 0)
    row = gtk_widget_get_parent (row);
  g_assert_nonnull (row);
  collect_texts (row, texts);
  sum = embers_format_value (15, embers_profile_get_sample_unit (embers_profile_page_get_profile (page), 0));
  g_test_message ("the cut row: %s", texts->str);
  g_assert_nonnull (strstr (texts->str, sum));
  g_assert_null (strstr (texts->str, "[other]"));
  g_assert_null (find_name_label (GTK_WIDGET (top), "other"));

  /* Its distinct look: dimmed, lighter than a function's name */
  name = GTK_WIDGET (wait_name_label (GTK_WIDGET (top), "main"));
  embers_test_settle ();
  pixels = embers_test_render (GTK_WIDGET (window));
  cut_box = embers_test_bounds (cut, GTK_WIDGET (window));
  name_box = embers_test_bounds (name, GTK_WIDGET (window));
  cut_dark = darkest (pixels, &cut_box);
  name_dark = darkest (pixels, &name_box);
  g_test_message ("darkest text: %d in the cut row, %d in a function's", cut_dark, name_dark);
  g_assert_cmpint (cut_dark, >, name_dark + 40);
  embers_test_assert_not_blank (pixels, &cut_box, 3, "the cut row's text");
  if (g_getenv ("EMBERS_TEST_SHOTS") != NULL)
    {
      g_autofree char *where = g_build_filename (g_getenv ("EMBERS_TEST_SHOTS"), "top-table-cut.png", NULL);

      embers_test_pixels_save (pixels, where);
    }

  /* Not a function: a search never finds it */
  embers_profile_page_set_search (page, "oth", FALSE, FALSE);
  wait_page (page);
  g_assert_cmpuint (embers_top_table_get_n_rows (top), ==, 0);
  embers_profile_page_set_search (page, "", FALSE, FALSE);
  wait_page (page);

  /* Selected (as the graph's `other` frame selects it), it names no
   * function, and the frame actions' keys and activation do nothing */
  embers_top_table_select_name (top, "other");
  g_assert_true (embers_top_table_get_cut_selected (top));
  g_assert_null (embers_top_table_get_selected_name (top));
  embers_test_wait_until (cut_label_shown, top, "the cut row drawn");
  row = find_cut_label (GTK_WIDGET (top));
  while (row != NULL && g_strcmp0 (gtk_widget_get_css_name (row), "row") != 0)
    row = gtk_widget_get_parent (row);
  g_assert_true (gtk_widget_grab_focus (row));
  for (guint i = 0; i < 6; i++)
    {
      const guint keys[] = { GDK_KEY_f, GDK_KEY_m, GDK_KEY_d, GDK_KEY_p, GDK_KEY_Delete, GDK_KEY_s };

      /* taken by the table (and nowhere else), with the error bell */
      g_assert_true (embers_test_press_key (row, keys[i], 0));
    }
  g_signal_emit_by_name (view, "activate", cut_position);
  wait_page (page);
  g_assert_cmpuint (embers_transform_stack_get_length (embers_profile_page_get_transforms (page)), ==, 0);
  g_assert_cmpuint (embers_profile_page_get_view (page), ==, EMBERS_VIEW_ICICLE);
  g_assert_true (embers_top_table_get_cut_selected (top));

  /* From the graph (its keys name the selected frame's function): the
   * function actions refuse `other` and take a function */
  {
    const char * const actions[] = { "page.focus-function", "page.merge-function", "page.drop-function",
                                     "page.collapse-package", "page.collapse-function-recursion",
                                     "page.hide-frame" };

    for (guint i = 0; i < G_N_ELEMENTS (actions); i++)
      g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), actions[i], "s", "other"));
    wait_page (page);
    g_assert_cmpuint (embers_transform_stack_get_length (embers_profile_page_get_transforms (page)), ==, 0);
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "page.merge-function", "s", "work"));
    wait_page (page);
    g_assert_cmpuint (embers_transform_stack_get_length (embers_profile_page_get_transforms (page)), ==, 1);
  }

  /* An `other` frame selected with the details shown: said to be no
   * function, where a function's scope line would be */
  {
    EmbersFlameGraph *graph = embers_profile_page_get_flame_graph (page);
    EmbersProfile *shown = embers_flame_graph_get_profile (graph);
    GtkWidget *panel;
    guint32 other = EMBERS_NODE_NONE;

    for (guint32 i = 1; i < embers_profile_get_n_nodes (shown) && other == EMBERS_NODE_NONE; i++)
      if (g_str_equal (embers_profile_node_name_str (shown, i), "other"))
        other = i;
    g_assert_cmpuint (other, !=, EMBERS_NODE_NONE);
    embers_flame_graph_set_selected_node (graph, other);
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "page.details", NULL));
    panel = GTK_WIDGET (embers_profile_page_get_details_panel (page));
    embers_test_wait_for (gtk_widget_get_mapped (panel) &&
                          embers_test_count_shown_text (panel, "Not a function: the work the server’s answer cut at its node limit, in 3 places.") == 1);
    g_assert_cmpuint (embers_test_count_shown_text (panel, "All calls of this function"), ==, 0);
    /* and a function again */
    embers_flame_graph_set_selected_node (graph, 1);
    embers_test_wait_for (embers_test_count_shown_text (panel, "All calls of this function") == 1);
  }

  embers_test_destroy_window (GTK_WINDOW (window));
  g_unlink (path);
  g_rmdir (dir);
}

static void
count_changes (GListModel *model,
               guint       position,
               guint       removed,
               guint       added,
               guint      *n)
{
  (*n)++;
}

/* Switching views with the transforms unchanged keeps the table as it is:
 * no row made again, the scroll and the selected row where they were, the
 * rows on screen drawn the same */
static void
test_view_switch_keeps_rows (void)
{
  EmbersWindow *window = new_window ();
  EmbersProfilePage *page = open_names (window);
  EmbersTopTable *table = embers_profile_page_get_top_table (page);
  GtkColumnView *view = GTK_COLUMN_VIEW (embers_test_find_widget (GTK_WIDGET (table), GTK_TYPE_COLUMN_VIEW, NULL));
  GListModel *model = G_LIST_MODEL (gtk_column_view_get_model (view));
  GtkAdjustment *vadj = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (view));
  EmbersTestPixels *before, *after;
  g_autoptr(GObject) first = NULL;
  g_autoptr(GObject) again = NULL;
  const EmbersView views[] = { EMBERS_VIEW_FLAME, EMBERS_VIEW_CALL_TREE, EMBERS_VIEW_ICICLE };
  guint changes = 0;
  double scrolled;

  embers_test_wait_for (g_list_model_get_n_items (model) == embers_top_table_get_n_rows (table));
  embers_top_table_select_name (table, PUSH_NAME);
  gtk_adjustment_set_value (vadj, MIN (60, gtk_adjustment_get_upper (vadj) - gtk_adjustment_get_page_size (vadj)));
  embers_test_settle ();
  scrolled = gtk_adjustment_get_value (vadj);
  first = g_list_model_get_item (model, 0);
  before = embers_test_render_frame (GTK_WIDGET (table));
  g_signal_connect (model, "items-changed", G_CALLBACK (count_changes), &changes);

  for (guint i = 0; i < G_N_ELEMENTS (views); i++)
    {
      embers_profile_page_set_view (page, views[i]);
      /* In place: nothing computed again */
      g_assert_false (embers_profile_page_get_busy (page));
      wait_page (page);
      g_assert_cmpint (embers_profile_page_get_view (page), ==, views[i]);
    }

  g_assert_cmpuint (changes, ==, 0);
  again = g_list_model_get_item (model, 0);
  g_assert_cmpstr (embers_top_item_get_name (EMBERS_TOP_ITEM (again)), ==, embers_top_item_get_name (EMBERS_TOP_ITEM (first)));
  g_assert_cmpfloat (gtk_adjustment_get_value (vadj), ==, scrolled);
  g_assert_cmpstr (embers_top_table_get_selected_name (table), ==, PUSH_NAME);
  after = embers_test_render_frame (GTK_WIDGET (table));
  g_assert_cmpint (before->width, ==, after->width);
  g_assert_cmpint (before->height, ==, after->height);
  g_assert_cmpmem (before->data, before->stride * before->height, after->data, after->stride * after->height);
  embers_test_pixels_free (before);
  embers_test_pixels_free (after);
  g_signal_handlers_disconnect_by_func (model, count_changes, &changes);

  embers_test_destroy_window (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  embers_test_gtk_init (&argc, &argv);

  g_test_add_func ("/embers/tables/names-whole", test_names_whole);
  g_test_add_func ("/embers/tables/widths-remembered", test_widths_remembered);
  g_test_add_func ("/embers/tables/calm-hover", test_calm_hover);
  g_test_add_func ("/embers/tables/keys", test_table_keys);
  g_test_add_func ("/embers/tables/no-reserved-shortcuts", test_no_reserved_shortcuts);
  g_test_add_func ("/embers/tables/header-drag", test_header_drag);
  g_test_add_func ("/embers/tables/cut-off", test_cut_off_row);
  g_test_add_func ("/embers/tables/view-switch-keeps-rows", test_view_switch_keeps_rows);

  return g_test_run ();
}
