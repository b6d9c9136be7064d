/* test-stack.c: the frame actions' transform stack on a window: keys,
 * chips, removing any chip, and what the graph draws; a view saved to a
 * .embers file and opened again
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <adwaita.h>
#include <glib/gstdio.h>

#include "embers-window.h"
#include "embers-test-gtk-utils.h"

/* Until the page has loaded and its transforms are done */
static void
wait_page (EmbersProfilePage *page)
{
  embers_test_wait_while (embers_profile_page_get_state (page) == EMBERS_PAGE_STATE_LOADING ||
                          embers_profile_page_get_busy (page) ||
                          embers_profile_page_get_search_pending (page));
  embers_test_settle ();
  g_assert_false (embers_profile_page_get_busy (page));
}

static guint32
find_node (EmbersProfile *profile,
           const char    *name)
{
  for (guint32 i = 0; i < embers_profile_get_n_nodes (profile); i++)
    if (g_str_equal (embers_profile_node_name_str (profile, i), name))
      return i;
  g_assert_not_reached ();
}

/* Selects the first frame of @name in the graph and presses @keyval */
static void
act_on (EmbersProfilePage *page,
        const char        *name,
        guint              keyval,
        GdkModifierType    modifiers)
{
  EmbersFlameGraph *graph = embers_profile_page_get_flame_graph (page);
  EmbersProfile *shown = embers_flame_graph_get_profile (graph);

  embers_flame_graph_set_selected_node (graph, find_node (shown, name));
  gtk_widget_grab_focus (GTK_WIDGET (graph));
  g_assert_true (embers_test_press_key (GTK_WIDGET (graph), keyval, modifiers));
  wait_page (page);
}

/* How many pixels differ between two pictures, over the part both have
 * (the chip bar takes some of the graph's height) */
static gsize
n_different (const EmbersTestPixels *a,
             const EmbersTestPixels *b)
{
  gsize n = 0;

  g_assert_cmpint (a->width, ==, b->width);
  for (int y = 0; y < MIN (a->height, b->height); y++)
    for (int x = 0; x < a->width; x++)
      n += memcmp (a->data + y * a->stride + x * 4, b->data + y * b->stride + x * 4, 4) != 0;
  return n;
}

static GtkWidget *
find_actionable (GtkWidget  *widget,
                 const char *action_name)
{
  if (GTK_IS_ACTIONABLE (widget) &&
      g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)), action_name) == 0)
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_actionable (child, action_name);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static const char *
chip_text (EmbersTransformBar *bar,
           guint               index)
{
  GtkWidget *chip = embers_transform_bar_get_chip (bar, index);
  GtkWidget *label = embers_test_find_widget (chip, GTK_TYPE_LABEL, NULL);

  /* The first label is the step's number, the second what it does */
  g_assert_nonnull (label);
  g_assert_cmpint (atoi (gtk_label_get_text (GTK_LABEL (label))), ==, index + 1);
  return gtk_label_get_text (GTK_LABEL (gtk_widget_get_next_sibling (label)));
}

static void
test_stack_keys_chips_pixels (void)
{
  EmbersWindow *window = embers_window_new (NULL);
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fixtures", "go", "cpu-recursion.pb.gz", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  EmbersProfilePage *page;
  EmbersFlameGraph *graph;
  EmbersTransformBar *bar;
  const EmbersTransformStack *stack;
  g_autoptr(EmbersTestPixels) before = NULL;
  g_autoptr(EmbersTestPixels) dropped = NULL;
  g_autoptr(EmbersTestPixels) three = NULL;
  g_autoptr(EmbersTestPixels) two = NULL;
  g_autoptr(EmbersTestPixels) after = NULL;
  GtkWidget *clear;

  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 700);
  gtk_window_present (GTK_WINDOW (window));
  embers_test_wait_mapped (GTK_WIDGET (window));
  page = embers_window_open_file (window, file);
  wait_page (page);
  g_assert_cmpuint (embers_profile_page_get_state (page), ==, EMBERS_PAGE_STATE_READY);
  graph = embers_profile_page_get_flame_graph (page);
  bar = embers_profile_page_get_transform_bar (page);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (bar)));
  before = embers_test_render_frame (GTK_WIDGET (graph));

  /* d: the samples through main.walkTree go (113 of 300); a chip says so */
  act_on (page, "main.walkTree", GDK_KEY_d, 0);
  g_assert_cmpint (embers_profile_get_total (embers_flame_graph_get_profile (graph), 0), ==, 300 - 113);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (bar)));
  g_assert_cmpuint (embers_transform_bar_get_n_chips (bar), ==, 1);
  g_assert_true (gtk_widget_get_mapped (embers_transform_bar_get_chip (bar, 0)));
  g_assert_cmpstr (chip_text (bar, 0), ==, "Drop samples with main.walkTree");
  dropped = embers_test_render_frame (GTK_WIDGET (graph));
  g_assert_cmpuint (n_different (before, dropped), >, 1000);

  /* m, then p: merged and collapsed, in that order */
  act_on (page, "main.isOdd", GDK_KEY_m, 0);
  g_assert_cmpint (find_node (embers_flame_graph_get_profile (graph), "main.isEven"), >, 0);
  act_on (page, "main.fib", GDK_KEY_p, 0);
  g_assert_cmpuint (embers_transform_bar_get_n_chips (bar), ==, 3);
  g_assert_cmpstr (chip_text (bar, 1), ==, "Merge main.isOdd");
  g_assert_cmpstr (chip_text (bar, 2), ==, "Collapse package main");
  stack = embers_profile_page_get_transforms (page);
  g_assert_cmpuint (embers_transform_stack_get_kind (stack, 0), ==, EMBERS_TRANSFORM_DROP_FUNCTION);
  g_assert_cmpuint (embers_transform_stack_get_kind (stack, 2), ==, EMBERS_TRANSFORM_COLLAPSE_PACKAGE);
  /* Every main.* frame is one "main" frame now: the root's child */
  g_assert_cmpstr (embers_profile_node_name_str (embers_flame_graph_get_profile (graph), 1), ==, "main");
  three = embers_test_render_frame (GTK_WIDGET (graph));
  g_assert_cmpuint (n_different (dropped, three), >, 1000);

  /* The same key on the same function again changes nothing */
  act_on (page, "main", GDK_KEY_d, 0);
  g_assert_cmpuint (embers_transform_bar_get_n_chips (bar), ==, 4);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "page.remove-transform", "u", 3));
  wait_page (page);

  /* Removing the first chip: the others apply again, in their order */
  embers_test_press (embers_transform_bar_get_chip (bar, 0));
  wait_page (page);
  g_assert_cmpuint (embers_transform_bar_get_n_chips (bar), ==, 2);
  g_assert_cmpstr (chip_text (bar, 0), ==, "Merge main.isOdd");
  g_assert_cmpstr (chip_text (bar, 1), ==, "Collapse package main");
  g_assert_cmpint (embers_profile_get_total (embers_flame_graph_get_profile (graph), 0), ==, 300);
  g_assert_cmpstr (embers_profile_node_name_str (embers_flame_graph_get_profile (graph), 1), ==, "main");
  two = embers_test_render_frame (GTK_WIDGET (graph));
  g_assert_cmpuint (n_different (three, two), >, 1000);

  /* Remove All: the first drawing again, pixel for pixel */
  clear = find_actionable (GTK_WIDGET (bar), "page.clear-transforms");
  g_assert_nonnull (clear);
  embers_test_press (clear);
  wait_page (page);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (bar)));
  g_assert_true (embers_flame_graph_get_profile (graph) == embers_profile_page_get_profile (page));
  after = embers_test_render_frame (GTK_WIDGET (graph));
  g_assert_cmpint (after->height, ==, before->height);
  g_assert_cmpuint (n_different (before, after), ==, 0);

  /* Hide names a call path of the call tree: the inverted tree's frames
   * are not one, so Delete there adds no step (a toast says why) */
  embers_profile_page_set_view (page, EMBERS_VIEW_BOTTOM_UP);
  wait_page (page);
  act_on (page, "main.fib", GDK_KEY_Delete, 0);
  g_assert_cmpuint (embers_transform_stack_get_length (embers_profile_page_get_transforms (page)), ==, 0);
  /* …while m, which names a function, works there too */
  act_on (page, "main.fib", GDK_KEY_m, 0);
  g_assert_cmpuint (embers_transform_bar_get_n_chips (bar), ==, 1);

  g_object_ref (window);
  gtk_window_destroy (GTK_WINDOW (window));
  embers_test_assert_finalize (window);
}

static gboolean
file_exists (gpointer data)
{
  return g_file_test (data, G_FILE_TEST_IS_REGULAR);
}

/* The page in the selected tab has a profile, its transforms done */
static gboolean
page_ready (gpointer data)
{
  EmbersWindow *window = data;
  EmbersProfilePage *page = embers_window_get_current_page (window);

  return page != NULL &&
         (embers_profile_page_get_state (page) == EMBERS_PAGE_STATE_READY ||
          embers_profile_page_get_state (page) == EMBERS_PAGE_STATE_FAILED) &&
         !embers_profile_page_get_busy (page) && !embers_profile_page_get_search_pending (page);
}

static void
test_session_save_reopen (void)
{
  EmbersWindow *window = embers_window_new (NULL);
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fixtures", "go", "cpu-recursion.pb.gz", NULL);
  g_autofree char *dir = g_dir_make_tmp ("embers-view-XXXXXX", NULL);
  g_autofree char *view_path = g_build_filename (dir, "saved.embers", NULL);
  g_autofree char *missing_path = g_build_filename (dir, "missing.embers", NULL);
  g_autofree char *data = NULL;
  g_autofree char *missing_text = NULL;
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFile) view_file = g_file_new_for_path (view_path);
  g_autoptr(GFile) missing_file = g_file_new_for_path (missing_path);
  g_autoptr(EmbersTestPixels) saved = NULL;
  g_autoptr(EmbersTestPixels) reopened = NULL;
  g_autofree char *summary = NULL;
  EmbersProfilePage *page, *again;
  EmbersFlameGraph *graph;
  EmbersProfile *shown;
  guint32 focus;

  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 700);
  gtk_window_present (GTK_WINDOW (window));
  embers_test_wait_mapped (GTK_WIDGET (window));
  page = embers_window_open_file (window, file);
  wait_page (page);
  graph = embers_profile_page_get_flame_graph (page);

  /* A view: flame graph, two frame actions, a search, a zoomed frame */
  embers_profile_page_set_view (page, EMBERS_VIEW_FLAME);
  wait_page (page);
  act_on (page, "main.burn", GDK_KEY_d, 0);
  act_on (page, "main.isOdd", GDK_KEY_m, 0);
  embers_profile_page_set_search (page, "fib", FALSE, FALSE);
  wait_page (page);
  shown = embers_flame_graph_get_profile (graph);
  embers_flame_graph_set_focus_node (graph, find_node (shown, "main.walkTree"));
  embers_test_settle ();
  summary = g_strdup (embers_profile_page_get_search_summary (page));

  embers_window_save_view_to (window, view_file);
  embers_test_wait_until (file_exists, view_path, "the view file written");
  g_assert_true (g_file_get_contents (view_path, &data, NULL, NULL));
  g_assert_nonnull (strstr (data, "\"mode\" : \"flame\""));
  g_assert_nonnull (strstr (data, "drop-function"));

  /* Opened again (as from the command line or a drop): the same view */
  again = embers_window_open_file (window, view_file);
  g_assert_true (again != page);
  embers_test_wait_until (page_ready, window, "the saved view restored");
  g_assert_true (embers_window_get_current_page (window) == again);
  g_assert_cmpuint (embers_profile_page_get_state (again), ==, EMBERS_PAGE_STATE_READY);
  g_assert_cmpuint (embers_profile_page_get_view (again), ==, EMBERS_VIEW_FLAME);
  g_assert_true (embers_transform_stack_equal (embers_profile_page_get_transforms (again),
                                               embers_profile_page_get_transforms (page)));
  g_assert_cmpstr (embers_profile_page_get_search_summary (again), ==, summary);
  graph = embers_profile_page_get_flame_graph (again);
  focus = embers_flame_graph_get_focus_node (graph);
  g_assert_cmpstr (embers_profile_node_name_str (embers_flame_graph_get_profile (graph), focus), ==, "main.walkTree");
  /* Drawn once its paint (made on a worker) is the view's */
  embers_test_wait_until ((EmbersTestCondition) embers_flame_graph_has_paint_cache, graph, "the reopened view painted");
  reopened = embers_test_render_frame (GTK_WIDGET (graph));
  /* The first tab, drawn as it is now (with the tab bar two tabs bring) */
  {
    AdwTabView *tabs = ADW_TAB_VIEW (embers_test_find_widget (GTK_WIDGET (window), ADW_TYPE_TAB_VIEW, NULL));

    adw_tab_view_set_selected_page (tabs, adw_tab_view_get_page (tabs, GTK_WIDGET (page)));
    embers_test_settle ();
    /* Shown again, its paint made anew for its size (on a worker) */
    embers_test_wait_until ((EmbersTestCondition) embers_flame_graph_has_paint_cache,
                            embers_profile_page_get_flame_graph (page), "the first view painted");
    saved = embers_test_render_frame (GTK_WIDGET (embers_profile_page_get_flame_graph (page)));
    adw_tab_view_set_selected_page (tabs, adw_tab_view_get_page (tabs, GTK_WIDGET (again)));
  }
  g_assert_cmpint (reopened->height, ==, saved->height);
  g_assert_cmpuint (n_different (saved, reopened), ==, 0);

  /* A view whose profile is gone says which */
  missing_text = g_strdup_printf ("{\"format\": \"embers-view\", \"version\": 1,"
                                  " \"source\": {\"file\": \"%s/gone.pb.gz\"}}", dir);
  g_assert_true (g_file_set_contents (missing_path, missing_text, -1, NULL));
  again = embers_window_open_file (window, missing_file);
  embers_test_wait_property (again, "state", EMBERS_PAGE_STATE_FAILED);
  g_assert_nonnull (strstr (embers_profile_page_get_error (again), "gone.pb.gz"));

  g_unlink (view_path);
  g_unlink (missing_path);
  g_rmdir (dir);
  g_object_ref (window);
  gtk_window_destroy (GTK_WINDOW (window));
  embers_test_assert_finalize (window);
}

/* A comparison with its transforms done, in the selected tab */
static gboolean
comparison_shown (gpointer data)
{
  EmbersProfilePage *page = embers_window_get_current_page (data);
  EmbersProfile *shown;

  if (page == NULL || !page_ready (data))
    return FALSE;
  shown = embers_flame_graph_get_profile (embers_profile_page_get_flame_graph (page));
  return shown != NULL && embers_profile_is_diff (shown) &&
         embers_transform_stack_get_length (embers_profile_page_get_transforms (page)) > 0;
}

/* The same stack on a comparison: both sides lose what is dropped */
static void
test_stack_on_diff (void)
{
  EmbersWindow *window = embers_window_new (NULL);
  g_autofree char *base_path = g_test_build_filename (G_TEST_DIST, "fixtures", "go", "cpu-before.pb.gz", NULL);
  g_autofree char *comp_path = g_test_build_filename (G_TEST_DIST, "fixtures", "go", "cpu-after.pb.gz", NULL);
  g_autoptr(GFile) base = g_file_new_for_path (base_path);
  g_autoptr(GFile) comp = g_file_new_for_path (comp_path);
  g_autoptr(EmbersTestPixels) before = NULL;
  g_autoptr(EmbersTestPixels) dropped = NULL;
  g_autoptr(EmbersTestPixels) after = NULL;
  EmbersProfilePage *page;
  EmbersFlameGraph *graph;
  EmbersProfile *diff, *shown;
  const char *name;
  gint64 base_total, comp_total, name_base, name_comp;
  guint32 node;

  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 700);
  gtk_window_present (GTK_WINDOW (window));
  embers_test_wait_mapped (GTK_WIDGET (window));
  embers_window_open_comparison (window, base, comp);
  embers_test_wait_until (page_ready, window, "the comparison shown");
  page = embers_window_get_current_page (window);
  wait_page (page);
  graph = embers_profile_page_get_flame_graph (page);
  diff = embers_flame_graph_get_profile (graph);
  g_assert_true (embers_profile_is_diff (diff));
  before = embers_test_render_frame (GTK_WIDGET (graph));

  /* The root's first child: its totals on each side leave both sides */
  base_total = embers_profile_get_total (diff, 0);
  comp_total = embers_profile_get_total (diff, 1);
  node = embers_profile_node_end (diff, 1) < embers_profile_get_n_nodes (diff) ? 1 : 2;
  name = embers_profile_node_name_str (diff, node);
  name_base = embers_profile_node_total (diff, 0, node);
  name_comp = embers_profile_node_total (diff, 1, node);
  act_on (page, name, GDK_KEY_d, 0);
  shown = embers_flame_graph_get_profile (graph);
  g_assert_true (embers_profile_is_diff (shown));
  g_assert_cmpint (embers_profile_get_total (shown, 0), ==, base_total - name_base);
  g_assert_cmpint (embers_profile_get_total (shown, 1), ==, comp_total - name_comp);
  g_assert_cmpuint (embers_transform_bar_get_n_chips (embers_profile_page_get_transform_bar (page)), ==, 1);
  dropped = embers_test_render_frame (GTK_WIDGET (graph));
  g_assert_cmpuint (n_different (before, dropped), >, 1000);

  /* Saved and opened again: a comparison of the same two files, with
   * the step */
  {
    g_autofree char *dir = g_dir_make_tmp ("embers-view-XXXXXX", NULL);
    g_autofree char *view_path = g_build_filename (dir, "diff.embers", NULL);
    g_autoptr(GFile) view_file = g_file_new_for_path (view_path);
    g_autofree char *text = NULL;
    EmbersProfilePage *again;

    embers_window_save_view_to (window, view_file);
    embers_test_wait_until (file_exists, view_path, "the view file written");
    g_assert_true (g_file_get_contents (view_path, &text, NULL, NULL));
    g_assert_nonnull (strstr (text, "cpu-before.pb.gz"));
    embers_window_open_file (window, view_file);
    embers_test_wait_until (comparison_shown, window, "the saved comparison shown");
    again = embers_window_get_current_page (window);
    g_assert_true (again != page);
    wait_page (again);
    g_assert_true (embers_transform_stack_equal (embers_profile_page_get_transforms (again),
                                                 embers_profile_page_get_transforms (page)));
    shown = embers_flame_graph_get_profile (embers_profile_page_get_flame_graph (again));
    g_assert_true (embers_profile_is_diff (shown));
    g_assert_cmpint (embers_profile_get_total (shown, 0), ==, base_total - name_base);
    g_assert_cmpint (embers_profile_get_total (shown, 1), ==, comp_total - name_comp);
    /* Back to the first comparison */
    {
      AdwTabView *tabs = ADW_TAB_VIEW (embers_test_find_widget (GTK_WIDGET (window), ADW_TYPE_TAB_VIEW, NULL));

      adw_tab_view_close_page (tabs, adw_tab_view_get_selected_page (tabs));
      embers_test_settle ();
    }
    g_assert_true (embers_window_get_current_page (window) == page);
    g_unlink (view_path);
    g_rmdir (dir);
  }

  /* Its chip removed: the comparison as it was */
  embers_test_press (embers_transform_bar_get_chip (embers_profile_page_get_transform_bar (page), 0));
  wait_page (page);
  after = embers_test_render_frame (GTK_WIDGET (graph));
  g_assert_cmpint (after->height, ==, before->height);
  g_assert_cmpuint (n_different (before, after), ==, 0);

  g_object_ref (window);
  gtk_window_destroy (GTK_WINDOW (window));
  embers_test_assert_finalize (window);
}

int
main (int   argc,
      char *argv[])
{
  embers_test_gtk_init (&argc, &argv);

  g_test_add_func ("/embers/stack/keys-chips-pixels", test_stack_keys_chips_pixels);
  g_test_add_func ("/embers/stack/session-save-reopen", test_session_save_reopen);
  g_test_add_func ("/embers/stack/diff", test_stack_on_diff);

  return g_test_run ();
}
