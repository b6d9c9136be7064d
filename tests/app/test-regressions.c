/* test-regressions.c: regressions across many, in the window (under Xvfb)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A local source whose service "shop" ran ten versions, six profiles
 * each; "parse" takes 60 % more from v6 on. From the labels tab, Line Up →
 * the label's values opens a tab: the versions in natural order with v1
 * as the baseline, "parse" first with its jump at v5 → v6 drawn red in its
 * sparkline (pixels), Open Diff opens the comparison of v5 with v6;
 * Reverse makes v10 the baseline and the jump blue. Line Up → time ranges
 * makes ten (the setting), Time Ranges four, kept in the setting. Three
 * single files:
 * not enough steps, said in a banner, nothing flagged.
 *
 * The noise of a comparison: two versions of six files each, "parse"
 * grows by half, "log" only varies (40 % from file to file). Hide noise
 * is on (six steps a side): log is drawn in the neutral grey, parse in
 * red (pixels), the diff table shows "± …" and "6 | 6"; off, log has its
 * colour again. Two single files: too few steps, said, the switch off.
 * On the test server, the steps come from SelectSeries per call site.
 * A file against a query (local and server): one step, said plainly with
 * the query's steps, nothing greyed.
 */

#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gstdio.h>

#include "embers-compare-page.h"
#include "embers-explore-page.h"
#include "embers-labels-page.h"
#include "embers-diff-table.h"
#include "embers-flame-graph.h"
#include "embers-local-source.h"
#include "embers-noise-controls.h"
#include "embers-profile-builder.h"
#include "embers-readers.h"
#include "embers-regressions-page.h"
#include "embers-sparkline.h"
#include "embers-pyroscope-source.h"
#include "embers-test-gtk-utils.h"
#include "embers-test-server-spawn.h"
#include <libsoup/soup.h>
#include "embers-window.h"

/* The diff palette's red (grew) and blue (shrank), colour-blind safe */
#define RED 0xdc3220
#define BLUE 0x1a85ff

static double
normal (GRand *rand)
{
  double u1 = g_rand_double_range (rand, 1e-300, 1);
  double u2 = g_rand_double (rand);

  return sqrt (-2 * log (u1)) * cos (2 * G_PI * u2);
}

static EmbersProfile *
folded_profile (const char *text,
                gint64      time_ms)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersProfile) parsed = embers_folded_parse (text, strlen (text), &error);
  g_autoptr(EmbersProfileBuilder) b = embers_profile_builder_new ();
  EmbersProfile *p;

  g_assert_no_error (error);
  embers_profile_builder_add_sample_type (b, "cpu", "nanoseconds");
  embers_profile_builder_set_period (b, "cpu", "nanoseconds", 1);
  embers_profile_builder_set_time (b, time_ms * 1000000, 10 * G_GINT64_CONSTANT (1000000000));
  embers_profile_builder_add_profile (b, parsed, 0, 0, NULL);
  p = embers_profile_builder_finish (b, &error);
  g_assert_no_error (error);
  return p;
}

static EmbersSource *
make_source (void)
{
  EmbersLocalSource *local = embers_local_source_new ();
  g_autoptr(GRand) rand = g_rand_new_with_seed (31);
  gint64 now_ms = g_get_real_time () / 1000;

  for (guint v = 0; v < 10; v++)
    for (guint i = 0; i < 6; i++)
      {
        g_autofree char *version = g_strdup_printf ("v%u", v + 1);
        g_autofree char *text = g_strdup_printf ("main;parse %d\nmain;render %d\nmain;idle %d\n",
                                                 (int)(1000 * (v >= 5 ? 1.6 : 1) * (1 + 0.05 * normal (rand))),
                                                 (int)(3000 * (1 + 0.05 * normal (rand))),
                                                 (int)(3000 * (1 + 0.05 * normal (rand))));
        const char *labels[] = { "service_name", "shop", "version", version, NULL };
        g_autoptr(EmbersProfile) p = folded_profile (text, now_ms - (59 - (v * 6 + i)) * 60000);

        embers_local_source_add_profile (local, version, p, 0, labels);
      }
  return EMBERS_SOURCE (local);
}

static gboolean
explore_idle (gpointer data)
{
  EmbersExplorePage *page = data;

  return !embers_explore_page_get_loading (page) &&
         !embers_profile_page_get_busy (embers_explore_page_get_profile_page (page));
}

static GtkWidget *
selected_tab (EmbersWindow *window)
{
  AdwTabView *view = ADW_TAB_VIEW (embers_test_find_widget (GTK_WIDGET (window), ADW_TYPE_TAB_VIEW, NULL));
  AdwTabPage *tab = adw_tab_view_get_selected_page (view);

  return tab != NULL ? adw_tab_page_get_child (tab) : NULL;
}

static gboolean
tab_is_regressions (gpointer data)
{
  return EMBERS_IS_REGRESSIONS_PAGE (selected_tab (data));
}

static gboolean
tab_is_compare (gpointer data)
{
  return EMBERS_IS_COMPARE_PAGE (selected_tab (data));
}

typedef struct
{
  GtkWidget *root;
  GType      type;
  GtkWidget *found;
} Find;

/* The first mapped widget of @type under @root, in drawing order */
static void
find_mapped (GtkWidget *widget,
             Find      *find)
{
  if (find->found != NULL)
    return;
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, find->type) && gtk_widget_get_mapped (widget))
    {
      find->found = widget;
      return;
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    find_mapped (child, find);
}

static gboolean
first_sparkline_drawn (gpointer data)
{
  Find find = { data, EMBERS_TYPE_SPARKLINE, NULL };

  find_mapped (data, &find);
  return find.found != NULL && embers_sparkline_get_n_values (EMBERS_SPARKLINE (find.found)) > 0 &&
         gtk_widget_get_width (find.found) > 0;
}

static EmbersSparkline *
first_sparkline (GtkWidget *page)
{
  Find find = { page, EMBERS_TYPE_SPARKLINE, NULL };

  embers_test_wait_until (first_sparkline_drawn, page, "a sparkline in the table");
  find_mapped (page, &find);
  return EMBERS_SPARKLINE (find.found);
}

/* The share of the sparkline's pixels in exactly @color, as the page
 * draws it (the thick segment's core; its edges are blended) */
static double
sparkline_share (GtkWidget       *page,
                 EmbersSparkline *spark,
                 guint32          color)
{
  g_autoptr(EmbersTestPixels) pixels = embers_test_render_frame (page);
  graphene_rect_t area = embers_test_bounds (GTK_WIDGET (spark), page);

  embers_test_assert_not_blank (pixels, &area, 2, "regressions-sparkline");
  return embers_test_pixels_share (pixels, &area, color);
}

static GtkWidget *
find_button (GtkWidget  *widget,
             const char *label)
{
  if (GTK_IS_BUTTON (widget) && gtk_widget_get_mapped (widget) &&
      g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), label) == 0)
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_button (child, label);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static void
select_tab_of (EmbersWindow *window,
               GtkWidget    *widget)
{
  AdwTabView *view = ADW_TAB_VIEW (embers_test_find_widget (GTK_WIDGET (window), ADW_TYPE_TAB_VIEW, NULL));

  for (int i = 0; i < adw_tab_view_get_n_pages (view); i++)
    {
      AdwTabPage *tab = adw_tab_view_get_nth_page (view, i);
      GtkWidget *child = adw_tab_page_get_child (tab);

      if (child == widget || gtk_widget_is_ancestor (widget, child))
        {
          adw_tab_view_set_selected_page (view, tab);
          return;
        }
    }
  g_assert_not_reached ();
}

static EmbersRegressionsPage *
line_up_time (EmbersWindow     *window,
              EmbersLabelsPage *labels)
{
  EmbersRegressionsPage *page;

  select_tab_of (window, GTK_WIDGET (labels));
  g_assert_false (tab_is_regressions (window));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (labels), "win.compare-across", "s", "time"));
  embers_test_wait_until (tab_is_regressions, window, "the time ranges tab");
  page = EMBERS_REGRESSIONS_PAGE (selected_tab (window));
  embers_test_wait_property (page, "loading", FALSE);
  g_assert_null (embers_regressions_page_get_error (page));
  return page;
}

/* Pixels of @area that differ between two pictures */
static guint
pixels_differ (const EmbersTestPixels *a,
               const EmbersTestPixels *b,
               const graphene_rect_t  *area)
{
  guint n = 0;

  for (int y = (int)area->origin.y; y < (int)(area->origin.y + area->size.height); y++)
    for (int x = (int)area->origin.x; x < (int)(area->origin.x + area->size.width); x++)
      n += embers_test_pixels_get (a, x, y) != embers_test_pixels_get (b, x, y);
  return n;
}

/* Line Up → time ranges: as many as the "time-ranges" setting says (ten
 * at first); the Time Ranges spin button (2 to 50) lines up four instead,
 * drawn, and keeps four for the next time */
static void
check_time_ranges (EmbersWindow     *window,
                   EmbersLabelsPage *labels)
{
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  g_autoptr(EmbersTestPixels) ten = NULL;
  g_autoptr(EmbersTestPixels) four = NULL;
  EmbersRegressionsPage *page;
  GtkSpinButton *spin;
  graphene_rect_t area;
  double lower, upper;

  g_assert_cmpint (g_settings_get_int (settings, "time-ranges"), ==, 10);
  page = line_up_time (window, labels);
  g_assert_cmpstr (embers_regressions_page_get_title (page), ==, "10 time ranges");
  g_assert_cmpuint (embers_snapshots_get_n_snapshots (embers_regressions_page_get_snapshots (page)), ==, 10);
  spin = GTK_SPIN_BUTTON (embers_test_find_widget (GTK_WIDGET (page), GTK_TYPE_SPIN_BUTTON, "ranges_spin"));
  embers_test_wait_mapped (GTK_WIDGET (spin));
  g_assert_cmpint (gtk_spin_button_get_value_as_int (spin), ==, 10);
  gtk_spin_button_get_range (spin, &lower, &upper);
  g_assert_cmpfloat (lower, ==, 2);
  g_assert_cmpfloat (upper, ==, 50);
  g_assert_true (gtk_widget_get_focusable (GTK_WIDGET (embers_test_find_widget (GTK_WIDGET (spin), GTK_TYPE_TEXT, NULL))));
  ten = embers_test_render_frame (GTK_WIDGET (page));
  area = embers_test_bounds (GTK_WIDGET (spin), GTK_WIDGET (page));
  embers_test_assert_not_blank (ten, &area, 3, "regressions-ranges-spin");

  /* Four, as a person sets it; the bounds hold */
  gtk_spin_button_set_value (spin, 4);
  embers_test_wait_property (page, "loading", FALSE);
  g_assert_cmpuint (embers_regressions_page_get_n_ranges (page), ==, 4);
  g_assert_cmpuint (embers_snapshots_get_n_snapshots (embers_regressions_page_get_snapshots (page)), ==, 4);
  g_assert_cmpstr (embers_regressions_page_get_title (page), ==, "4 time ranges");
  g_assert_cmpint (g_settings_get_int (settings, "time-ranges"), ==, 4);
  four = embers_test_render_frame (GTK_WIDGET (page));
  g_assert_cmpuint (pixels_differ (ten, four, &area), >, 10);
  embers_regressions_page_set_n_ranges (page, 500);
  embers_test_wait_property (page, "loading", FALSE);
  g_assert_cmpuint (embers_regressions_page_get_n_ranges (page), ==, 50);
  g_assert_cmpint (gtk_spin_button_get_value_as_int (spin), ==, 50);
  gtk_spin_button_set_value (spin, 4);
  embers_test_wait_property (page, "loading", FALSE);

  /* The next Line Up → time ranges takes the four kept */
  page = line_up_time (window, labels);
  g_assert_cmpuint (embers_regressions_page_get_n_ranges (page), ==, 4);
  g_assert_cmpstr (embers_regressions_page_get_title (page), ==, "4 time ranges");
}

static void
test_labels (void)
{
  g_autoptr(EmbersSource) source = make_source ();
  EmbersWindow *window = embers_window_new (NULL);
  EmbersExplorePage *explore;
  EmbersLabelsPage *labels;
  EmbersRegressionsPage *page;
  EmbersSnapshots *snapshots;
  const EmbersSnapshotRow *row;
  EmbersSparkline *spark;
  EmbersComparePage *compare;
  g_autoptr(EmbersQuery) baseline = NULL;
  g_autoptr(EmbersQuery) comparison = NULL;
  GtkWidget *button;

  gtk_window_set_default_size (GTK_WINDOW (window), 1300, 850);
  gtk_window_present (GTK_WINDOW (window));

  explore = EMBERS_EXPLORE_PAGE (embers_window_open_explore (window, source, NULL));
  embers_test_wait_until (explore_idle, explore, "the explore tab");
  g_assert_true (embers_explore_page_select_service (explore, "shop"));
  embers_test_wait_until (explore_idle, explore, "the explore tab on shop");
  labels = EMBERS_LABELS_PAGE (embers_window_open_labels (window, explore));
  embers_test_wait_property (labels, "loading", FALSE);
  g_assert_true (embers_labels_page_select_label (labels, "version"));
  embers_test_wait_property (labels, "loading", FALSE);
  g_assert_cmpuint (embers_labels_page_get_stats (labels)->len, ==, 10);

  /* Line Up → the label's values */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (labels), "win.compare-across", "s", "values"));
  embers_test_wait_until (tab_is_regressions, window, "the regressions tab");
  page = EMBERS_REGRESSIONS_PAGE (selected_tab (window));
  embers_test_wait_property (page, "loading", FALSE);
  g_assert_null (embers_regressions_page_get_error (page));
  g_assert_cmpstr (embers_regressions_page_get_title (page), ==, "version across 10 values");

  snapshots = embers_regressions_page_get_snapshots (page);
  g_assert_cmpuint (embers_snapshots_get_n_snapshots (snapshots), ==, 10);
  g_assert_cmpstr (embers_snapshots_get_name (snapshots, 0), ==, "v1");
  g_assert_cmpstr (embers_snapshots_get_name (snapshots, 1), ==, "v2");
  g_assert_cmpstr (embers_snapshots_get_name (snapshots, 9), ==, "v10");
  g_assert_true (embers_snapshots_has_enough_steps (snapshots));
  row = embers_snapshots_get_row (snapshots, 0);
  g_assert_cmpstr (row->key, ==, "parse");
  g_assert_cmpint (row->jump, ==, 4);
  g_assert_cmpint (row->steps[4].verdict, ==, EMBERS_CHANGE_GREW);
  {
    GtkLabel *order = GTK_LABEL (embers_test_find_widget (GTK_WIDGET (page), GTK_TYPE_LABEL, "order_label"));

    g_assert_true (g_str_has_prefix (gtk_label_get_text (order), "Order: v1 (baseline) → v2 → v3"));
  }

  /* The jump, drawn in the palette's red in the first row's sparkline */
  spark = first_sparkline (GTK_WIDGET (page));
  g_assert_cmpint (embers_sparkline_get_jump (spark), ==, 4);
  g_assert_cmpfloat (sparkline_share (GTK_WIDGET (page), spark, RED), >, 0.004);
  g_assert_cmpfloat (sparkline_share (GTK_WIDGET (page), spark, BLUE), ==, 0);

  /* One click: the diff of v5 and v6 */
  button = find_button (GTK_WIDGET (page), "Open Diff");
  g_assert_nonnull (button);
  g_assert_true (gtk_widget_get_sensitive (button));
  g_signal_emit_by_name (button, "clicked");
  embers_test_wait_until (tab_is_compare, window, "the compare tab");
  compare = EMBERS_COMPARE_PAGE (selected_tab (window));
  embers_test_wait_property (compare, "busy", FALSE);
  g_assert_null (embers_compare_page_get_error (compare));
  g_assert_nonnull (embers_compare_page_get_diff (compare));
  baseline = embers_compare_page_dup_query (compare, FALSE);
  comparison = embers_compare_page_dup_query (compare, TRUE);
  g_assert_nonnull (strstr (baseline->label_selector, "version=\"v5\""));
  g_assert_nonnull (strstr (comparison->label_selector, "version=\"v6\""));

  /* Reverse: v10 is the baseline, the jump v6 → v5 shrinks, in blue */
  {
    AdwTabView *view = ADW_TAB_VIEW (embers_test_find_widget (GTK_WIDGET (window), ADW_TYPE_TAB_VIEW, NULL));

    adw_tab_view_set_selected_page (view, adw_tab_view_get_page (view, GTK_WIDGET (page)));
  }
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "regressions.reverse", NULL));
  embers_test_wait_property (page, "loading", FALSE);
  snapshots = embers_regressions_page_get_snapshots (page);
  g_assert_cmpstr (embers_snapshots_get_name (snapshots, 0), ==, "v10");
  row = embers_snapshots_get_row (snapshots, 0);
  g_assert_cmpstr (row->key, ==, "parse");
  g_assert_cmpint (row->jump, ==, 4);
  g_assert_cmpint (row->steps[4].verdict, ==, EMBERS_CHANGE_SHRANK);
  spark = first_sparkline (GTK_WIDGET (page));
  g_assert_cmpfloat (sparkline_share (GTK_WIDGET (page), spark, BLUE), >, 0.004);
  g_assert_cmpfloat (sparkline_share (GTK_WIDGET (page), spark, RED), ==, 0);

  /* Make v1 the baseline again, by moving it */
  embers_regressions_page_move (page, 9, 0);
  embers_test_wait_property (page, "loading", FALSE);
  snapshots = embers_regressions_page_get_snapshots (page);
  g_assert_cmpstr (embers_snapshots_get_name (snapshots, 0), ==, "v1");
  g_assert_cmpstr (embers_snapshots_get_name (snapshots, 1), ==, "v10");
  /* Label values are not time ranges: no Time Ranges */
  g_assert_cmpuint (embers_regressions_page_get_n_ranges (page), ==, 0);
  g_assert_false (gtk_widget_get_mapped (embers_test_find_widget (GTK_WIDGET (page), GTK_TYPE_SPIN_BUTTON, "ranges_spin")));

  check_time_ranges (window, labels);

  gtk_window_destroy (GTK_WINDOW (window));
}

static void
write_file (const char *path,
            const char *text)
{
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);
}

static void
test_files (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *root = g_dir_make_tmp ("embers-regressions-XXXXXX", &error);
  g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func (g_object_unref);
  EmbersWindow *window = embers_window_new (NULL);
  EmbersRegressionsPage *page;
  EmbersSnapshots *snapshots;
  AdwBanner *banner;

  g_assert_no_error (error);
  for (guint i = 0; i < 3; i++)
    {
      g_autofree char *path = g_strdup_printf ("%s/build-%u.folded", root, i + 1);
      g_autofree char *text = g_strdup_printf ("main;parse %u\nmain;render 300\n", 100 * (i + 1));

      write_file (path, text);
      g_ptr_array_add (files, g_file_new_for_path (path));
    }

  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 700);
  gtk_window_present (GTK_WINDOW (window));
  page = EMBERS_REGRESSIONS_PAGE (embers_window_open_regressions (
    window, embers_regressions_page_new_for_files ((GFile * const *)files->pdata, files->len)));
  embers_test_wait_property (page, "loading", FALSE);
  g_assert_null (embers_regressions_page_get_error (page));
  snapshots = embers_regressions_page_get_snapshots (page);
  g_assert_cmpuint (embers_snapshots_get_n_snapshots (snapshots), ==, 3);
  g_assert_false (embers_snapshots_has_enough_steps (snapshots));
  g_assert_cmpuint (embers_snapshots_get_n_flagged (snapshots), ==, 0);

  /* Said, not pretended */
  banner = ADW_BANNER (embers_test_find_widget (GTK_WIDGET (page), ADW_TYPE_BANNER, NULL));
  g_assert_true (adw_banner_get_revealed (banner));
  g_assert_nonnull (strstr (adw_banner_get_title (banner), "Not enough steps"));
  /* The sparkline draws the shares, with no jump coloured */
  {
    EmbersSparkline *spark = first_sparkline (GTK_WIDGET (page));

    g_assert_cmpint (embers_sparkline_get_jump (spark), ==, -1);
    g_assert_cmpfloat (sparkline_share (GTK_WIDGET (page), spark, RED), ==, 0);
  }

  gtk_window_destroy (GTK_WINDOW (window));
  for (guint i = 0; i < files->len; i++)
    g_file_delete (g_ptr_array_index (files, i), NULL, NULL);
  g_rmdir (root);
}

#define NEUTRAL 0x948e8e

static guint32
find_node (EmbersProfile *profile,
           const char    *name)
{
  for (guint32 i = 1; i < embers_profile_get_n_nodes (profile); i++)
    if (g_str_equal (embers_profile_node_name_str (profile, i), name))
      return i;
  g_assert_not_reached ();
}

static gboolean
graph_painted (gpointer data)
{
  return embers_flame_graph_has_paint_cache (data);
}

/* The most common colour of @name's frame as the graph draws it now */
static guint32
frame_color (EmbersFlameGraph *graph,
             const char       *name)
{
  g_autoptr(EmbersTestPixels) pixels = NULL;
  graphene_rect_t area;

  embers_test_wait_until (graph_painted, graph, "the flame graph painted");
  pixels = embers_test_render_frame (GTK_WIDGET (graph));
  g_assert_true (embers_flame_graph_get_node_area (graph, find_node (embers_flame_graph_get_profile (graph), name),
                                                   &area));
  return embers_test_pixels_dominant (pixels, &area);
}

static gboolean
graph_has_profile (gpointer data)
{
  return embers_flame_graph_get_profile (data) != NULL;
}

static gboolean
noise_done (gpointer data)
{
  return !embers_noise_controls_get_busy (data) && embers_noise_controls_get_stats (data) != NULL;
}

static gboolean
one_file_said (gpointer data)
{
  const char *status = embers_noise_controls_get_status (data);

  return !embers_noise_controls_get_busy (data) && status != NULL &&
         g_str_has_prefix (status, "The baseline is one file");
}

/* A file against a query: the file is one step, so nothing is tested and
 * it is said plainly, with the query's real steps; every frame keeps the
 * colour of its change, none is greyed as noise */
static void
check_file_vs_query (EmbersComparePage *compare,
                     const EmbersQuery *query,
                     guint              query_steps)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *root = g_dir_make_tmp ("embers-noise-XXXXXX", &error);
  g_autofree char *path = g_build_filename (root, "base.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autofree char *steps = g_strdup_printf ("against %u steps of the query", query_steps);
  g_autofree char *tip_steps = g_strdup_printf ("1 and %u steps", query_steps);
  g_autofree char *tip = NULL;
  g_autoptr(EmbersTestPixels) pixels = NULL;
  EmbersNoiseControls *noise;
  EmbersFlameGraph *graph;
  EmbersDiffStats *stats;
  GtkWidget *status_label, *hide;
  graphene_rect_t area;

  g_assert_no_error (error);
  /* CPU time, as the query's: Pyroscope's JSON (flamebearer) keeps it */
  {
    g_autoptr(EmbersProfile) p = folded_profile ("main;parse 100\nmain;log 100\nmain;render 300\n",
                                                 g_get_real_time () / 1000);
    g_autoptr(GBytes) json = embers_flamebearer_write (p, 0, &error);

    g_assert_no_error (error);
    g_file_set_contents (path, g_bytes_get_data (json, NULL), (gssize)g_bytes_get_size (json), &error);
    g_assert_no_error (error);
  }
  embers_compare_page_set_files (compare, file, file);
  embers_compare_page_set_queries (compare, NULL, query);
  embers_compare_page_compare (compare);
  embers_test_wait_property (compare, "busy", FALSE);
  g_assert_cmpstr (embers_compare_page_get_error (compare), ==, NULL);
  g_assert_null (embers_compare_page_dup_query (compare, FALSE));

  noise = EMBERS_NOISE_CONTROLS (embers_test_find_widget (GTK_WIDGET (compare), EMBERS_TYPE_NOISE_CONTROLS, NULL));
  embers_test_wait_until (one_file_said, noise, "the file's one step said");
  g_assert_nonnull (strstr (embers_noise_controls_get_status (noise), steps));
  g_assert_true (g_str_has_suffix (embers_noise_controls_get_status (noise), "Compare two queries to test the changes."));
  stats = embers_noise_controls_get_stats (noise);
  g_assert_nonnull (stats);
  g_assert_cmpuint (embers_diff_stats_get_n_used_steps (stats, EMBERS_DIFF_SIDE_BASELINE), ==, 1);
  g_assert_cmpuint (embers_diff_stats_get_n_used_steps (stats, EMBERS_DIFF_SIDE_COMPARISON), ==, query_steps);
  g_assert_false (embers_diff_stats_has_enough_steps (stats));
  g_assert_false (embers_noise_controls_get_hide_noise (noise));
  hide = embers_test_find_widget (GTK_WIDGET (noise), GTK_TYPE_CHECK_BUTTON, "hide_check");
  g_assert_false (gtk_widget_get_sensitive (hide));

  /* Each frame's tooltip says why, with both sides' steps */
  graph = embers_profile_page_get_flame_graph (embers_compare_page_get_profile_page (compare));
  embers_test_wait_until (graph_has_profile, graph, "the diff in the graph");
  tip = embers_diff_stats_node_describe (stats, embers_flame_graph_get_profile (graph),
                                         find_node (embers_flame_graph_get_profile (graph), "log"));
  g_assert_true (g_str_has_prefix (tip, "Not enough steps"));
  g_assert_nonnull (strstr (tip, tip_steps));
  g_assert_false (embers_flame_graph_node_is_noise (graph, find_node (embers_flame_graph_get_profile (graph), "log")));
  g_assert_cmphex (frame_color (graph, "parse"), !=, NEUTRAL);

  /* The sentence is on screen, in the form (folded after a comparison;
   * opened as a click on its summary does) */
  embers_compare_page_set_folded (compare, FALSE);
  status_label = embers_test_find_widget (GTK_WIDGET (noise), GTK_TYPE_LABEL, "status_label");
  embers_test_wait_mapped (status_label);
  pixels = embers_test_render_frame (GTK_WIDGET (noise));
  area = embers_test_bounds (status_label, GTK_WIDGET (noise));
  embers_test_assert_not_blank (pixels, &area, 2, "noise-one-file");

  g_unlink (path);
  g_rmdir (root);
}

static void
test_noise (void)
{
  g_autoptr(EmbersLocalSource) source = embers_local_source_new ();
  g_autoptr(GRand) rand = g_rand_new_with_seed (41);
  g_autoptr(EmbersQuery) qa = NULL;
  g_autoptr(EmbersQuery) qb = NULL;
  g_autofree char *type = NULL;
  g_autofree char *parse_text = NULL;
  EmbersWindow *window = embers_window_new (NULL);
  EmbersComparePage *compare;
  EmbersNoiseControls *noise;
  EmbersFlameGraph *graph;
  EmbersDiffTable *table;
  EmbersDiffStats *stats;
  gint64 now_ms = g_get_real_time () / 1000;
  gboolean log_row = FALSE;

  for (guint v = 0; v < 2; v++)
    for (guint i = 0; i < 6; i++)
      {
        g_autofree char *text = g_strdup_printf ("main;parse %d\nmain;log %d\nmain;render %d\n",
                                                 (int)(1000 * (v ? 1.5 : 1) * (1 + 0.03 * normal (rand))),
                                                 (int)(1000 * MAX (0.1, 1 + 0.4 * normal (rand))),
                                                 (int)(3000 * (1 + 0.03 * normal (rand))));
        const char *labels[] = { "service_name", "shop", "version", v ? "b" : "a", NULL };
        g_autoptr(EmbersProfile) p = folded_profile (text, now_ms - (30 - v * 12 - i) * 60000);

        if (type == NULL)
          type = embers_local_source_profile_type_id (p, 0);
        embers_local_source_add_profile (source, "shop", p, 0, labels);
      }
  qa = embers_query_new (type, "{service_name=\"shop\",version=\"a\"}", now_ms - 3600000, now_ms);
  qb = embers_query_new (type, "{service_name=\"shop\",version=\"b\"}", now_ms - 3600000, now_ms);

  gtk_window_set_default_size (GTK_WINDOW (window), 1300, 850);
  gtk_window_present (GTK_WINDOW (window));
  compare = EMBERS_COMPARE_PAGE (embers_window_open_compare_queries (window, EMBERS_SOURCE (source), qa, qb, TRUE));
  embers_test_wait_property (compare, "busy", FALSE);
  g_assert_null (embers_compare_page_get_error (compare));
  noise = EMBERS_NOISE_CONTROLS (embers_test_find_widget (GTK_WIDGET (compare), EMBERS_TYPE_NOISE_CONTROLS, NULL));
  embers_test_wait_until (noise_done, noise, "the noise test");
  stats = embers_noise_controls_get_stats (noise);
  g_assert_true (embers_diff_stats_has_enough_steps (stats));
  g_assert_true (embers_noise_controls_get_hide_noise (noise));
  g_assert_cmpint (embers_diff_stats_lookup (stats, "parse")->verdict, ==, EMBERS_CHANGE_GREW);
  g_assert_cmpint (embers_diff_stats_lookup (stats, "log")->verdict, ==, EMBERS_CHANGE_WITHIN_NOISE);
  g_assert_nonnull (strstr (embers_noise_controls_get_status (noise), "6 and 6 steps"));

  /* The graph: log neutral, parse red; the tooltip's sentence from core */
  graph = embers_profile_page_get_flame_graph (embers_compare_page_get_profile_page (compare));
  embers_test_wait_until (graph_has_profile, graph, "the diff in the graph");
  embers_test_wait_size (GTK_WIDGET (graph), 200, 100);
  g_assert_true (embers_flame_graph_node_is_noise (graph, find_node (embers_flame_graph_get_profile (graph), "log")));
  g_assert_false (embers_flame_graph_node_is_noise (graph, find_node (embers_flame_graph_get_profile (graph), "parse")));
  g_assert_cmphex (frame_color (graph, "log"), ==, NEUTRAL);
  g_assert_cmphex (frame_color (graph, "parse"), !=, NEUTRAL);
  g_assert_cmpuint (frame_color (graph, "parse") >> 16, >, (frame_color (graph, "parse") & 0xff) + 40);
  parse_text = embers_diff_stats_node_describe (stats, embers_flame_graph_get_profile (graph),
                                                find_node (embers_flame_graph_get_profile (graph), "parse"));
  g_assert_true (g_str_has_suffix (parse_text, "beyond the noise (6 and 6 steps)"));

  /* The table: the interval and the steps; log faint */
  table = embers_profile_page_get_diff_table (embers_compare_page_get_profile_page (compare));
  for (guint i = 0; i < embers_diff_table_get_n_rows (table); i++)
    {
      g_autofree char *change = embers_diff_table_get_cell_text (table, i, 7);
      g_autofree char *steps = embers_diff_table_get_cell_text (table, i, 8);

      if (g_strcmp0 (embers_diff_table_get_row_name (table, i), "log") != 0)
        continue;
      log_row = TRUE;
      g_assert_true (embers_diff_table_row_is_noise (table, i));
      g_assert_nonnull (strstr (change, "±"));
      g_assert_cmpstr (steps, ==, "6 | 6");
    }
  g_assert_true (log_row);

  /* Shown: log has the colour of its change again */
  embers_noise_controls_set_hide_noise (noise, FALSE);
  g_assert_false (embers_flame_graph_node_is_noise (graph, find_node (embers_flame_graph_get_profile (graph), "log")));
  g_assert_cmphex (frame_color (graph, "log"), !=, NEUTRAL);

  /* Per second: tested again, each file's ten seconds the step's length */
  embers_noise_controls_set_per_second (noise, TRUE);
  embers_test_wait_until (noise_done, noise, "the per-second test");
  g_assert_cmpint (embers_diff_stats_get_mode (embers_noise_controls_get_stats (noise)), ==,
                   EMBERS_DIFF_STATS_PER_SECOND);
  g_assert_cmpint (embers_diff_stats_lookup (embers_noise_controls_get_stats (noise), "parse")->verdict, ==,
                   EMBERS_CHANGE_GREW);

  /* A file against version b: its six files are six steps */
  check_file_vs_query (compare, qb, 6);

  gtk_window_destroy (GTK_WINDOW (window));
}

/* Two files: one step a side, said, nothing hidden */
static void
test_noise_files (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *root = g_dir_make_tmp ("embers-noise-XXXXXX", &error);
  g_autofree char *a = g_build_filename (root, "a.folded", NULL);
  g_autofree char *b = g_build_filename (root, "b.folded", NULL);
  g_autoptr(GFile) fa = g_file_new_for_path (a);
  g_autoptr(GFile) fb = g_file_new_for_path (b);
  EmbersWindow *window = embers_window_new (NULL);
  EmbersComparePage *compare;
  EmbersNoiseControls *noise;
  EmbersFlameGraph *graph;
  g_autofree char *tip = NULL;

  g_assert_no_error (error);
  write_file (a, "main;parse 100\nmain;render 300\n");
  write_file (b, "main;parse 200\nmain;render 300\n");
  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 700);
  gtk_window_present (GTK_WINDOW (window));
  compare = EMBERS_COMPARE_PAGE (embers_window_open_comparison (window, fa, fb));
  embers_test_wait_property (compare, "busy", FALSE);
  noise = EMBERS_NOISE_CONTROLS (embers_test_find_widget (GTK_WIDGET (compare), EMBERS_TYPE_NOISE_CONTROLS, NULL));
  embers_test_wait_until (noise_done, noise, "the noise test");
  g_assert_false (embers_diff_stats_has_enough_steps (embers_noise_controls_get_stats (noise)));
  g_assert_false (embers_noise_controls_get_hide_noise (noise));
  g_assert_nonnull (strstr (embers_noise_controls_get_status (noise), "too few"));
  graph = embers_profile_page_get_flame_graph (embers_compare_page_get_profile_page (compare));
  embers_test_wait_until (graph_has_profile, graph, "the diff in the graph");
  g_assert_false (embers_flame_graph_node_is_noise (graph, find_node (embers_flame_graph_get_profile (graph), "parse")));
  tip = embers_diff_stats_node_describe (embers_noise_controls_get_stats (noise), embers_flame_graph_get_profile (graph),
                                         find_node (embers_flame_graph_get_profile (graph), "parse"));
  g_assert_true (g_str_has_prefix (tip, "Not enough steps"));

  gtk_window_destroy (GTK_WINDOW (window));
  g_unlink (a);
  g_unlink (b);
  g_rmdir (root);
}

/* The same on a server: two versions, eight profiles each a minute apart */
static void
test_noise_server (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersTestServer) server = embers_test_server_start (NULL, &error);
  g_autoptr(SoupSession) session = soup_session_new ();
  g_autoptr(GRand) rand = g_rand_new_with_seed (43);
  g_autoptr(EmbersConnectClient) client = NULL;
  g_autoptr(EmbersPyroscopeSource) source = NULL;
  g_autoptr(EmbersQuery) qa = NULL;
  g_autoptr(EmbersQuery) qb = NULL;
  gint64 hour_ms = (g_get_real_time () / 1000 / 3600000 - 2) * 3600000;
  EmbersWindow *window = embers_window_new (NULL);
  EmbersComparePage *compare;
  EmbersNoiseControls *noise;
  EmbersFlameGraph *graph;
  EmbersDiffStats *stats;

  g_assert_no_error (error);
  for (guint v = 0; v < 2; v++)
    for (guint i = 0; i < 8; i++)
      {
        g_autofree char *body = g_strdup_printf ("main;parse %d\nmain;log %d\nmain;render %d\n",
                                                 (int)(100 * (v ? 1.5 : 1) * (1 + 0.03 * normal (rand))),
                                                 (int)(100 * MAX (0.1, 1 + 0.4 * normal (rand))),
                                                 (int)(300 * (1 + 0.03 * normal (rand))));
        g_autofree char *url = g_strdup_printf ("%singest?name=shop.cpu%%7Bversion%%3D%s%%7D&from=%" G_GINT64_FORMAT,
                                                embers_test_server_get_url (server), v ? "b" : "a",
                                                hour_ms / 1000 + i * 60 + 30);
        g_autoptr(SoupMessage) msg = soup_message_new ("POST", url);
        g_autoptr(GBytes) answer = NULL;

        soup_message_set_request_body_from_bytes (msg, "text/plain", g_bytes_new (body, strlen (body)));
        answer = soup_session_send_and_read (session, msg, NULL, &error);
        g_assert_no_error (error);
        g_assert_cmpuint (soup_message_get_status (msg), ==, 200);
      }
  client = embers_connect_client_new (embers_test_server_get_url (server), &error);
  g_assert_no_error (error);
  source = embers_pyroscope_source_new (client);
  qa = embers_query_new ("process_cpu:cpu:nanoseconds:cpu:nanoseconds", "{service_name=\"shop\",version=\"a\"}",
                         hour_ms, hour_ms + 900000);
  qb = embers_query_new ("process_cpu:cpu:nanoseconds:cpu:nanoseconds", "{service_name=\"shop\",version=\"b\"}",
                         hour_ms, hour_ms + 900000);

  gtk_window_set_default_size (GTK_WINDOW (window), 1300, 850);
  gtk_window_present (GTK_WINDOW (window));
  compare = EMBERS_COMPARE_PAGE (embers_window_open_compare_queries (window, EMBERS_SOURCE (source), qa, qb, TRUE));
  embers_test_wait_property (compare, "busy", FALSE);
  g_assert_null (embers_compare_page_get_error (compare));
  noise = EMBERS_NOISE_CONTROLS (embers_test_find_widget (GTK_WIDGET (compare), EMBERS_TYPE_NOISE_CONTROLS, NULL));
  embers_test_wait_until (noise_done, noise, "the noise test on the server");
  stats = embers_noise_controls_get_stats (noise);
  g_assert_cmpint (embers_diff_stats_get_key (stats), ==, EMBERS_DIFF_STATS_KEY_STACK);
  g_assert_true (embers_diff_stats_has_enough_steps (stats));
  g_assert_true (embers_noise_controls_get_hide_noise (noise));
  g_assert_cmpint (embers_diff_stats_lookup (stats, "main;parse")->verdict, ==, EMBERS_CHANGE_GREW);
  g_assert_nonnull (strstr (embers_noise_controls_get_status (noise), "8 and 8 steps"));

  graph = embers_profile_page_get_flame_graph (embers_compare_page_get_profile_page (compare));
  embers_test_wait_until (graph_has_profile, graph, "the diff in the graph");
  embers_test_wait_size (GTK_WIDGET (graph), 200, 100);
  g_assert_false (embers_flame_graph_node_is_noise (graph, find_node (embers_flame_graph_get_profile (graph), "parse")));
  g_assert_cmphex (frame_color (graph, "parse"), !=, NEUTRAL);
  if (embers_diff_stats_lookup (stats, "main;log")->verdict == EMBERS_CHANGE_WITHIN_NOISE)
    g_assert_cmphex (frame_color (graph, "log"), ==, NEUTRAL);

  /* A file against version b: its SelectSeries points are its steps */
  check_file_vs_query (compare, qb, 8);

  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  embers_test_gtk_init (&argc, &argv);

  g_test_add_func ("/embers/regressions/labels", test_labels);
  g_test_add_func ("/embers/regressions/files", test_files);
  g_test_add_func ("/embers/regressions/noise", test_noise);
  g_test_add_func ("/embers/regressions/noise-files", test_noise_files);
  g_test_add_func ("/embers/regressions/noise-server", test_noise_server);

  return g_test_run ();
}
