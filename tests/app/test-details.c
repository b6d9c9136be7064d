/* test-details.c: the function details panel on a display: the lines of a
 * pprof profile's function, its source found under a source root, the
 * cost drawn in the gutter and the hottest line in view (issue 18.2)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <adwaita.h>

#include "embers-details-panel.h"
#include "embers-input.h"
#include "embers-profile-builder.h"
#include "embers-readers.h"
#include "embers-theme.h"
#include "embers-transform-stack.h"
#include "embers-profile-page.h"
#include "embers-window.h"
#include "embers-test-gtk-utils.h"

static void
wait_page (EmbersProfilePage *page)
{
  embers_test_wait_while (embers_profile_page_get_state (page) == EMBERS_PAGE_STATE_LOADING ||
                          embers_profile_page_get_busy (page));
  embers_test_settle ();
}

/* The node of the first frame named @name */
static guint32
find_node (EmbersProfile *profile,
           const char    *name)
{
  for (guint32 i = 1; i < embers_profile_get_n_nodes (profile); i++)
    if (g_strcmp0 (embers_profile_node_name_str (profile, i), name) == 0)
      return i;
  g_assert_not_reached ();
}

/* The window coordinates of source line @line's middle, and whether the
 * view shows it */
static gboolean
line_in_view (GtkSourceView *view,
              GtkWidget     *window,
              int            line,
              graphene_point_t *out)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (view));
  GtkTextIter iter;
  GdkRectangle location, visible;
  int wx, wy;

  gtk_text_buffer_get_iter_at_line (buffer, &iter, line - 1);
  gtk_text_view_get_iter_location (GTK_TEXT_VIEW (view), &iter, &location);
  gtk_text_view_get_visible_rect (GTK_TEXT_VIEW (view), &visible);
  if (location.y < visible.y || location.y + location.height > visible.y + visible.height)
    return FALSE;
  gtk_text_view_buffer_to_window_coords (GTK_TEXT_VIEW (view), GTK_TEXT_WINDOW_WIDGET,
                                         location.x, location.y + location.height / 2, &wx, &wy);
  g_assert_true (gtk_widget_compute_point (GTK_WIDGET (view), window,
                                           &GRAPHENE_POINT_INIT (wx, wy), out));
  return TRUE;
}

static gboolean
is_heat (guint32 pixel)
{
  int r = (pixel >> 16) & 0xff, g = (pixel >> 8) & 0xff, b = pixel & 0xff;

  /* The gutter's orange over a light or a dark background */
  return r > g && g > b && r - b > 45;
}

static gboolean
close_colour (guint32 a,
              guint32 b)
{
  for (int shift = 0; shift <= 16; shift += 8)
    if (ABS ((int)((a >> shift) & 0xff) - (int)((b >> shift) & 0xff)) > 6)
      return FALSE;
  return TRUE;
}

static void
save_shot (GtkWidget  *window,
           const char *name)
{
  const char *dir = g_getenv ("EMBERS_TEST_SHOTS");
  g_autofree char *path = NULL;
  EmbersTestPixels *pixels;

  if (dir == NULL)
    return;
  path = g_build_filename (dir, name, NULL);
  pixels = embers_test_render (window);
  embers_test_pixels_save (pixels, path);
  embers_test_pixels_free (pixels);
}

static void
check_panel (EmbersWindow      *window,
             EmbersProfilePage *page,
             const char        *shot)
{
  EmbersDetailsPanel *panel = embers_profile_page_get_details_panel (page);
  GtkSourceView *view = embers_details_panel_get_source_view (panel);
  GtkWidget *gutter = GTK_WIDGET (embers_details_panel_get_gutter (panel));
  EmbersTestPixels *pixels;
  graphene_rect_t gutter_box, panel_box;
  graphene_point_t hot, cold;
  guint n_heat = 0, n_cold_heat = 0;

  /* Beside the graph, not over it, at this width */
  panel_box = embers_test_bounds (GTK_WIDGET (panel), GTK_WIDGET (window));
  g_assert_cmpfloat (panel_box.size.width, >=, 320);
  g_assert_cmpfloat (panel_box.origin.x + panel_box.size.width, <=, 1200 + 1);
  g_assert_cmpfloat (panel_box.origin.x, >, 600);

  /* The hottest line, 187 (13 self, 50 total), is in view; line 189 has
   * no samples */
  embers_test_wait_while (!line_in_view (view, GTK_WIDGET (window), 187, &hot));
  g_assert_true (line_in_view (view, GTK_WIDGET (window), 189, &cold));

  embers_test_wait_frame (GTK_WIDGET (view));
  pixels = embers_test_render (GTK_WIDGET (window));
  gutter_box = embers_test_bounds (gutter, GTK_WIDGET (window));
  g_assert_cmpfloat (gutter_box.size.width, >, 10);
  for (int x = (int)gutter_box.origin.x; x < gutter_box.origin.x + gutter_box.size.width; x++)
    {
      n_heat += is_heat (embers_test_pixels_get (pixels, x, (int)hot.y));
      n_cold_heat += is_heat (embers_test_pixels_get (pixels, x, (int)cold.y));
    }
  /* The bar of the hottest line is the gutter's whole width */
  g_assert_cmpuint (n_heat, >, gutter_box.size.width / 2);
  g_assert_cmpuint (n_cold_heat, ==, 0);
  /* The source is drawn: more than a background */
  embers_test_assert_not_blank (pixels, &GRAPHENE_RECT_INIT (panel_box.origin.x, hot.y - 80,
                                                             panel_box.size.width, 160), 4, "source");
  embers_test_pixels_free (pixels);

  save_shot (GTK_WIDGET (window), shot);
}

/* The selected frame's outline, in the accent colour, along its top edge
 * and left edge, in @pixels of @window */
static void
assert_selected_outline (EmbersTestPixels *pixels,
                         EmbersFlameGraph *graph,
                         GtkWidget        *window)
{
  graphene_rect_t area;
  graphene_point_t origin;
  GdkRGBA accent;
  guint32 want;
  guint top = 0, left = 0;
  int n_top = 0, n_left = 0;

  g_assert_true (embers_flame_graph_get_node_area (graph, embers_flame_graph_get_selected_node (graph), &area));
  g_assert_true (gtk_widget_compute_point (GTK_WIDGET (graph), window,
                                           &GRAPHENE_POINT_INIT (area.origin.x, area.origin.y), &origin));
  embers_theme_get_color (GTK_WIDGET (graph), EMBERS_THEME_ACCENT, &accent);
  want = (guint32)(accent.red * 255 + 0.5) << 16 | (guint32)(accent.green * 255 + 0.5) << 8 |
         (guint32)(accent.blue * 255 + 0.5);
  g_assert_cmpfloat (area.size.width, >, 20);
  for (int x = (int)origin.x + 4; x < origin.x + area.size.width - 4; x++, n_top++)
    for (int dy = 0; dy < 2; dy++)
      if (close_colour (embers_test_pixels_get (pixels, x, (int)origin.y + dy), want))
        {
          top++;
          break;
        }
  for (int y = (int)origin.y + 3; y < origin.y + area.size.height - 3; y++, n_left++)
    for (int dx = 0; dx < 2; dx++)
      if (close_colour (embers_test_pixels_get (pixels, (int)origin.x + dx, y), want))
        {
          left++;
          break;
        }
  /* The whole edge, not a stray pixel */
  g_assert_cmpint (top, >=, n_top * 9 / 10);
  g_assert_cmpint (left, >=, n_left * 9 / 10);
}

/* Choosing a caller or callee in the Calls tab selects its frame in the
 * graph (outlined), and the graph's selection shows in the panel */
static void
check_calls_link (EmbersWindow      *window,
                  EmbersProfilePage *page)
{
  EmbersDetailsPanel *panel = embers_profile_page_get_details_panel (page);
  EmbersFlameGraph *graph = embers_profile_page_get_flame_graph (page);
  EmbersProfile *profile = embers_flame_graph_get_profile (graph);
  GtkStack *stack = GTK_STACK (embers_test_find_widget (GTK_WIDGET (panel), GTK_TYPE_STACK, "stack"));
  GtkListBox *callees = GTK_LIST_BOX (embers_test_find_widget (GTK_WIDGET (panel), GTK_TYPE_LIST_BOX, "callees_list"));
  GtkListBox *callers = GTK_LIST_BOX (embers_test_find_widget (GTK_WIDGET (panel), GTK_TYPE_LIST_BOX, "callers_list"));
  guint32 from = embers_flame_graph_get_selected_node (graph), to;
  g_autofree char *from_name = g_strdup (embers_profile_node_name_str (profile, from));
  g_autofree char *callee = NULL;
  EmbersTestPixels *pixels;

  gtk_stack_set_visible_child_name (stack, "calls");
  embers_test_settle ();
  callee = g_strdup (g_object_get_data (G_OBJECT (gtk_list_box_get_row_at_index (callees, 0)), "function"));
  g_assert_nonnull (callee);
  gtk_widget_activate (GTK_WIDGET (gtk_list_box_get_row_at_index (callees, 0)));

  /* The callee's frame under the selected one */
  to = embers_flame_graph_get_selected_node (graph);
  g_assert_cmpuint (to, !=, from);
  g_assert_cmpstr (embers_profile_node_name_str (profile, to), ==, callee);
  g_assert_cmpuint (embers_profile_node_parent (profile, to), ==, from);
  g_assert_cmpstr (embers_details_panel_get_function (panel), ==, callee);
  embers_test_wait_while (embers_details_panel_get_busy (panel));
  pixels = embers_test_render_frame (GTK_WIDGET (window));
  assert_selected_outline (pixels, graph, GTK_WIDGET (window));
  embers_test_pixels_free (pixels);

  /* And back up through its callers: the very frame it came from */
  embers_test_wait_for (gtk_list_box_get_row_at_index (callers, 0) != NULL);
  for (int i = 0; gtk_list_box_get_row_at_index (callers, i) != NULL; i++)
    {
      GtkListBoxRow *row = gtk_list_box_get_row_at_index (callers, i);

      if (g_strcmp0 (g_object_get_data (G_OBJECT (row), "function"), from_name) == 0)
        {
          gtk_widget_activate (GTK_WIDGET (row));
          break;
        }
    }
  g_assert_cmpuint (embers_flame_graph_get_selected_node (graph), ==, from);
  g_assert_cmpstr (embers_details_panel_get_function (panel), ==, from_name);
  embers_test_wait_while (embers_details_panel_get_busy (panel));
  pixels = embers_test_render_frame (GTK_WIDGET (window));
  assert_selected_outline (pixels, graph, GTK_WIDGET (window));
  embers_test_pixels_free (pixels);

  /* The other way: the graph's selection is the panel's function */
  embers_flame_graph_set_selected_node (graph, to);
  g_assert_cmpstr (embers_details_panel_get_function (panel), ==, callee);
  embers_flame_graph_set_selected_node (graph, from);
  g_assert_cmpstr (embers_details_panel_get_function (panel), ==, from_name);
  embers_test_wait_while (embers_details_panel_get_busy (panel));
  gtk_stack_set_visible_child_name (stack, "source");
}

/* The graph's selection on function @name again (a new view may have
 * reset it) */
static void
reselect (EmbersProfilePage *page,
          const char        *name)
{
  EmbersFlameGraph *graph = embers_profile_page_get_flame_graph (page);

  if (g_strcmp0 (embers_details_panel_get_function (embers_profile_page_get_details_panel (page)), name) != 0)
    embers_flame_graph_set_selected_node (graph, find_node (embers_flame_graph_get_profile (graph), name));
}

/* A transform: the panel's figures are the view's, counted over the
 * stacks it keeps, and it says so; without it, the file's again */
static void
check_transformed (EmbersProfilePage *page,
                   GFile             *file)
{
  EmbersDetailsPanel *panel = embers_profile_page_get_details_panel (page);
  EmbersFunctionDetails *d = embers_details_panel_get_details (panel);
  g_autofree char *name = g_strdup (d->name);
  g_autofree char *dropped = g_strdup (g_array_index (d->callees, EmbersFunctionEdge, 0).name);
  gint64 whole = d->total;
  g_autoptr(EmbersTransformStack) stack = embers_transform_stack_new ();
  g_autoptr(EmbersFunctionDetails) expected = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;

  embers_transform_stack_push (stack, EMBERS_TRANSFORM_DROP_FUNCTION, (const char *[]) { dropped, NULL }, NULL);
  bytes = embers_input_read_file (file, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  expected = embers_function_details_new_from_pprof_view (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                                                          name, embers_profile_page_get_sample_type (page),
                                                          stack, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (expected->total, <, whole);

  g_assert_true (gtk_widget_activate_action_variant (GTK_WIDGET (page), "page.transform",
                                                     g_variant_new ("(s^as)", "drop-function",
                                                                    (const char *[]) { dropped, NULL })));
  wait_page (page);
  reselect (page, name);
  embers_test_wait_for (!embers_details_panel_get_busy (panel) &&
                        g_strcmp0 (embers_details_panel_get_function (panel), name) == 0 &&
                        embers_details_panel_get_details (panel)->total == expected->total);
  d = embers_details_panel_get_details (panel);
  g_assert_true (d->has_lines);
  g_assert_cmpuint (d->lines->len, ==, expected->lines->len);
  for (guint i = 0; i < d->lines->len; i++)
    {
      g_assert_cmpint (g_array_index (d->lines, EmbersLineCost, i).line, ==,
                       g_array_index (expected->lines, EmbersLineCost, i).line);
      g_assert_cmpint (g_array_index (d->lines, EmbersLineCost, i).total, ==,
                       g_array_index (expected->lines, EmbersLineCost, i).total);
    }
  /* The dropped callee is gone from its calls, and the panel says why */
  for (guint i = 0; i < d->callees->len; i++)
    g_assert_cmpstr (g_array_index (d->callees, EmbersFunctionEdge, i).name, !=, dropped);
  g_assert_nonnull (embers_details_panel_get_view_note (panel));
  embers_test_settle ();
  g_assert_cmpuint (embers_test_count_shown_text (GTK_WIDGET (panel), "Counted over the view"), ==, 1);
  save_shot (gtk_widget_get_ancestor (GTK_WIDGET (panel), GTK_TYPE_WINDOW), "details-transformed.png");

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "page.clear-transforms", NULL));
  wait_page (page);
  reselect (page, name);
  embers_test_wait_for (!embers_details_panel_get_busy (panel) &&
                        embers_details_panel_get_details (panel)->total == whole);
  g_assert_null (embers_details_panel_get_view_note (panel));
}

static void
test_details_panel (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fixtures", "go", "cpu-inlined.pb.gz", NULL);
  g_autofree char *root = g_test_build_filename (G_TEST_DIST, "go", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  const char *roots[] = { root, NULL };
  EmbersWindow *window;
  EmbersProfilePage *page;
  EmbersDetailsPanel *panel;
  EmbersFlameGraph *graph;
  EmbersFunctionDetails *d;
  g_autofree char *expected = NULL;

  /* The checkout of the Go program that wrote the profile: the profile
   * names /work/main/tests/go/main.go, found here as tests/go/main.go */
  g_settings_set_value (settings, "source-roots",
                        g_variant_new_parsed ("{'': %^as}", roots));

  window = embers_window_new (NULL);
  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 800);
  gtk_window_present (GTK_WINDOW (window));
  embers_test_wait_mapped (GTK_WIDGET (window));

  page = embers_window_open_file (window, file);
  wait_page (page);
  g_assert_cmpuint (embers_profile_page_get_state (page), ==, EMBERS_PAGE_STATE_READY);
  panel = embers_profile_page_get_details_panel (page);
  g_assert_false (embers_profile_page_get_details_shown (page));
  g_assert_false (gtk_widget_get_mapped (GTK_WIDGET (panel)));

  /* Select main.finalize, then open the panel with its key */
  graph = embers_profile_page_get_flame_graph (page);
  embers_flame_graph_set_selected_node (graph, find_node (embers_flame_graph_get_profile (graph), "main.finalize"));
  gtk_widget_grab_focus (GTK_WIDGET (graph));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "page.details", NULL));
  g_assert_true (embers_profile_page_get_details_shown (page));
  embers_test_wait_mapped (GTK_WIDGET (panel));
  embers_test_wait_while (embers_details_panel_get_busy (panel) ||
                          embers_details_panel_get_source_path (panel) == NULL);

  /* go tool pprof -list's figures (see tests/test-function-details.c) */
  d = embers_details_panel_get_details (panel);
  g_assert_cmpstr (d->name, ==, "main.finalize");
  g_assert_true (d->has_lines);
  /* the default sample type, cpu nanoseconds: 137 samples of 10 ms */
  g_assert_cmpint (d->total, ==, (gint64)137 * 10000000);
  g_assert_cmpuint (d->lines->len, ==, 4);
  g_assert_cmpuint (d->callers->len, ==, 1);
  g_assert_cmpuint (d->callees->len, ==, 2);
  expected = g_build_filename (root, "main.go", NULL);
  g_assert_cmpstr (embers_details_panel_get_source_path (panel), ==, expected);
  embers_test_settle ();

  check_panel (window, page, "details-light.png");
  /* A file's lines are the function's, from every caller, whichever of
   * its frames is selected; the panel says so */
  g_assert_null (embers_details_panel_get_shown_call_site (panel));
  g_assert_cmpuint (embers_test_count_shown_text (GTK_WIDGET (panel), "All calls of this function"), ==, 1);
  check_calls_link (window, page);
  check_transformed (page, file);
  g_assert_cmpstr (embers_details_panel_get_function (panel), ==, "main.finalize");

  /* Dark: the gutter's bar still shows */
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_DARK);
  embers_test_settle ();
  check_panel (window, page, "details-dark.png");
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_DEFAULT);

  /* Narrow: the panel lies over the views, inside the window */
  gtk_window_set_default_size (GTK_WINDOW (window), 720, 800);
  embers_test_wait_while (gtk_widget_get_width (GTK_WIDGET (window)) > 720);
  embers_test_wait_frame (GTK_WIDGET (window));
  embers_test_wait_for (gtk_widget_get_mapped (GTK_WIDGET (panel)) &&
                        embers_test_bounds (GTK_WIDGET (panel), GTK_WIDGET (window)).origin.x +
                        embers_test_bounds (GTK_WIDGET (panel), GTK_WIDGET (window)).size.width <= 721);
  {
    graphene_rect_t box = embers_test_bounds (GTK_WIDGET (panel), GTK_WIDGET (window));

    g_assert_cmpfloat (box.origin.x, >=, 0);
    g_assert_cmpfloat (box.size.width, >=, 300);
  }
  embers_test_settle ();
  save_shot (GTK_WIDGET (window), "details-narrow.png");

  /* The close button hides it and gives the graph the keys back */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (panel), "details.close", NULL));
  g_assert_false (embers_profile_page_get_details_shown (page));

  g_object_ref (window);
  gtk_window_destroy (GTK_WINDOW (window));
  embers_test_assert_finalize (window);
  g_settings_reset (settings, "source-roots");
}

/* A profile of one function in @file, taken at @ref */
static EmbersProfile *
profile_at (const char *file,
            const char *ref)
{
  g_autoptr(EmbersProfileBuilder) b = embers_profile_builder_new ();
  g_autoptr(GError) error = NULL;
  EmbersLabel label;
  guint32 stack[2];
  guint32 set;
  gint64 value = 10;
  EmbersProfile *p;

  embers_profile_builder_add_sample_type (b, "samples", "count");
  stack[0] = embers_profile_builder_intern (b, "main", -1);
  stack[1] = embers_profile_builder_intern (b, "work", -1);
  embers_profile_builder_set_name_location (b, stack[1], embers_profile_builder_intern (b, file, -1), 2);
  label.key = embers_profile_builder_intern (b, "service_git_ref", -1);
  label.str = embers_profile_builder_intern (b, ref, -1);
  label.num = 0;
  label.num_unit = 0;
  set = embers_profile_builder_add_label_set (b, &label, 1);
  embers_profile_builder_add_stack (b, stack, 2, &value, set);
  p = embers_profile_builder_finish (b, &error);
  g_assert_no_error (error);
  return p;
}

static char *
git (const char *dir,
     const char *args)
{
  g_autofree char *command = g_strdup_printf ("git -C '%s' -c user.email=t@example.com -c user.name=t "
                                              "-c init.defaultBranch=main %s", dir, args);
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  int status = 0;

  g_spawn_command_line_sync (command, &out, NULL, &status, &error);
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  return g_strstrip (g_steal_pointer (&out));
}

typedef struct
{
  const char *ref;
  gboolean    warns;
} RefCase;

static void
check_refs (EmbersDetailsPanel *panel,
            const char         *source,
            const RefCase      *cases,
            guint               n)
{
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(EmbersProfile) p = profile_at ("/build/work.c", cases[i].ref);

      embers_details_panel_show_function (panel, p, 0, "work", NULL);
      embers_test_wait_while (embers_details_panel_get_busy (panel));
      g_assert_cmpstr (embers_details_panel_get_source_path (panel), ==, source);
      if (cases[i].warns)
        g_assert_nonnull (embers_details_panel_get_git_warning (panel));
      else
        g_assert_null (embers_details_panel_get_git_warning (panel));
    }
}

/* The profile's git ref against the checkout's */
static void
test_git_ref (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("embers-git-XXXXXX", &error);
  g_autofree char *source = NULL;
  g_autofree char *head = NULL;
  g_autofree char *init = NULL, *add = NULL, *commit = NULL;
  EmbersDetailsPanel *panel = g_object_ref_sink (embers_details_panel_new ());
  RefCase cases[] = {
    { "0123456789abcdef0123", TRUE },   /* another commit */
    { NULL, FALSE },                    /* HEAD itself, set below */
    { "main", FALSE },                  /* a branch at HEAD */
    { "--output=/tmp/x", TRUE },        /* no option, and no such ref */
  };

  g_assert_no_error (error);
  source = g_build_filename (dir, "work.c", NULL);
  g_file_set_contents (source, "int\nwork (void)\n{\n  return 0;\n}\n", -1, &error);
  g_assert_no_error (error);
  init = git (dir, "init -q");
  add = git (dir, "add work.c");
  commit = git (dir, "commit -q -m work");
  head = git (dir, "rev-parse HEAD");
  cases[1].ref = head;

  embers_details_panel_set_source_key (panel, "test");
  embers_details_panel_add_root (panel, dir);
  /* As inside Flatpak: no git program to run (the checkout is read) */
  {
    g_autofree char *old_path = g_strdup (g_getenv ("PATH"));

    g_setenv ("PATH", "/nonexistent", TRUE);
    g_assert_null (g_find_program_in_path ("git"));
    check_refs (panel, source, cases, G_N_ELEMENTS (cases));
    g_setenv ("PATH", old_path, TRUE);
  }


  /* Without the root, no source */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (panel), "details.remove-root", "s", dir));
  embers_test_wait_while (embers_details_panel_get_busy (panel));
  g_assert_null (embers_details_panel_get_source_path (panel));
  g_assert_null (embers_details_panel_get_git_warning (panel));

  g_object_unref (panel);
  {
    g_autoptr(GSettings) settings = g_settings_new (APP_ID);

    g_settings_reset (settings, "source-roots");
  }
  {
    g_autofree char *rm = g_strdup_printf ("rm -rf '%s'", dir);

    g_assert_cmpint (system (rm), ==, 0);
  }
}

/* Server data: the tree's details first, then the lines from the merged
 * pprof of the function's stacks (what the explore page fetches) */
static void
test_server_pprof (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fixtures", "go", "cpu-inlined.pb.gz", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autofree char *root = g_test_build_filename (G_TEST_DIST, "go", NULL);
  g_autofree char *expected = g_build_filename (root, "main.go", NULL);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(EmbersProfile) profile = NULL;
  g_autoptr(GError) error = NULL;
  EmbersDetailsPanel *panel = g_object_ref_sink (embers_details_panel_new ());
  EmbersFunctionDetails *d;

  bytes = embers_input_read_file (file, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  profile = embers_pprof_parse (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error);
  g_assert_no_error (error);

  embers_details_panel_show_function (panel, profile, 0, "main.finalize", NULL);
  embers_test_wait_while (embers_details_panel_get_busy (panel));
  d = embers_details_panel_get_details (panel);
  g_assert_false (d->has_lines);
  g_assert_cmpint (d->total, ==, 137);

  /* Late bytes for another function are dropped */
  embers_details_panel_set_pprof (panel, "main.mix", bytes, 0);
  g_assert_false (embers_details_panel_get_busy (panel));

  embers_details_panel_set_pprof (panel, "main.finalize", bytes, 0);
  g_assert_true (embers_details_panel_get_busy (panel));
  /* A source root added while the lines are read is searched after */
  embers_details_panel_set_source_key (panel, "server-pprof");
  embers_details_panel_add_root (panel, root);
  embers_test_wait_while (embers_details_panel_get_busy (panel));
  d = embers_details_panel_get_details (panel);
  g_assert_true (d->has_lines);
  g_assert_cmpint (d->total, ==, 137);
  g_assert_cmpuint (d->lines->len, ==, 4);
  g_assert_cmpstr (embers_details_panel_get_source_path (panel), ==, expected);

  g_object_unref (panel);
  {
    g_autoptr(GSettings) settings = g_settings_new (APP_ID);

    g_settings_reset (settings, "source-roots");
  }
}

int
main (int   argc,
      char *argv[])
{
  embers_test_gtk_init (&argc, &argv);

  g_test_add_func ("/embers/app/details/panel", test_details_panel);
  g_test_add_func ("/embers/app/details/git-ref", test_git_ref);
  g_test_add_func ("/embers/app/details/server-pprof", test_server_pprof);

  return g_test_run ();
}
