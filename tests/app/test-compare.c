/* test-compare.c: the compare page and its widgets on a display
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>

#include "embers-compare-page.h"
#include "embers-diff-legend.h"
#include "embers-diff-table.h"
#include "embers-format.h"
#include "embers-local-source.h"
#include "embers-series-chart.h"

/* "slow" doubles from baseline to comparison; the rest stays */
static const char baseline_folded[] =
  "main;work;slow 100\n"
  "main;work;fast 300\n"
  "main;idle 600\n";
static const char comparison_folded[] =
  "main;work;slow 200\n"
  "main;work;fast 300\n"
  "main;idle 600\n";

static gboolean
timeout_cb (gpointer data)
{
  gboolean *done = data;

  *done = TRUE;
  return G_SOURCE_REMOVE;
}

static void
spin (guint ms)
{
  gboolean done = FALSE;

  g_timeout_add (ms, timeout_cb, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
}

static GFile *
write_file (const char *dir,
            const char *name,
            const char *contents)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, contents, -1, &error);
  g_assert_no_error (error);
  return g_file_new_for_path (path);
}

/* Colour of the pixel at x, y of a widget as painted */
static void
widget_pixel (GtkWidget *widget,
              int        x,
              int        y,
              guint8     rgb[3])
{
  GdkPaintable *paintable = gtk_widget_paintable_new (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  GskRenderer *renderer = gtk_native_get_renderer (gtk_widget_get_native (widget));
  g_autoptr(GdkTexture) texture = NULL;
  g_autofree guint32 *pixels = NULL;
  guint32 pixel;

  g_assert_cmpint (width, >, x);
  g_assert_cmpint (height, >, y);
  gdk_paintable_snapshot (paintable, snapshot, width, height);
  node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);
  texture = gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, width, height));
  pixels = g_new (guint32, (gsize) width * height);
  gdk_texture_download (texture, (guchar *) pixels, width * 4);
  pixel = pixels[y * width + x];  /* ARGB32 premultiplied, native endian */
  rgb[0] = (pixel >> 16) & 0xff;
  rgb[1] = (pixel >> 8) & 0xff;
  rgb[2] = pixel & 0xff;
  g_object_unref (paintable);
}

/* The diff's profile page computes its table and views off the main
 * thread: wait until it shows them */
static void
wait_shown (EmbersComparePage *page)
{
  EmbersProfilePage *profile_page = embers_compare_page_get_profile_page (page);
  gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

  while ((embers_profile_page_get_busy (profile_page) ||
          embers_diff_table_get_n_rows (embers_compare_page_get_table (page)) == 0) &&
         g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (embers_profile_page_get_busy (profile_page));
  spin (50);
}

static void
on_compared (EmbersComparePage *page,
             gboolean          *done)
{
  *done = TRUE;
}

static void
test_compare_files (void)
{
  g_autofree char *dir = g_dir_make_tmp ("embers-compare-XXXXXX", NULL);
  g_autoptr(GFile) base = write_file (dir, "base.folded", baseline_folded);
  g_autoptr(GFile) comp = write_file (dir, "comp.folded", comparison_folded);
  GtkWidget *window = gtk_window_new ();
  EmbersComparePage *page = EMBERS_COMPARE_PAGE (embers_compare_page_new ());
  EmbersDiffTable *table;
  EmbersDiffLegend *legend;
  GtkWidget *graph;
  const EmbersDiffRow *row;
  g_autofree char *diff_text = NULL;
  g_autofree char *label = NULL;
  gboolean done = FALSE;
  guint8 blue[3], green[3];
  EmbersLayout *layout = NULL;
  int slow_x = -1, slow_y = -1;
  guint n_rows;

  /* Wide enough for the table beside the graph */
  gtk_window_set_default_size (GTK_WINDOW (window), 1300, 700);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (page));
  gtk_window_present (GTK_WINDOW (window));

  g_signal_connect (page, "compared", G_CALLBACK (on_compared), &done);
  embers_compare_page_set_files (page, base, comp);
  g_assert_true (embers_compare_page_get_busy (page));
  while (!done)
    g_main_context_iteration (NULL, TRUE);
  g_assert_null (embers_compare_page_get_error (page));
  g_assert_false (embers_compare_page_get_busy (page));
  g_assert_nonnull (embers_compare_page_get_diff (page));
  g_assert_true (embers_profile_is_diff (embers_compare_page_get_diff (page)));
  wait_shown (page);
  spin (200);

  /* The table: the slowed function first, with a positive change */
  table = embers_compare_page_get_table (page);
  n_rows = embers_diff_table_get_n_rows (table);
  g_assert_cmpuint (n_rows, >=, 4);
  g_assert_cmpstr (embers_diff_table_get_row_name (table, 0), ==, "slow");
  row = embers_diff_table_get_row (table, 0);
  g_assert_cmpint (row->kind, ==, EMBERS_DIFF_KIND_CHANGED);
  g_assert_cmpfloat (row->change, >, 50.0);
  g_assert_cmpint (row->baseline_total, ==, 100);
  g_assert_cmpint (row->comparison_total, ==, 200);
  diff_text = embers_diff_table_get_cell_text (table, 0, 3);
  g_assert_true (g_str_has_prefix (diff_text, "+"));

  /* Beside the graph, every column of the table is on screen */
  {
    GtkWidget *view = GTK_WIDGET (embers_diff_table_get_column_view (table));
    GtkWidget *scroller = gtk_widget_get_parent (view);
    int min = 0;

    gtk_widget_measure (view, GTK_ORIENTATION_HORIZONTAL, -1, &min, NULL, NULL, NULL);
    g_assert_cmpint (min, >, 300);
    g_assert_cmpint (gtk_widget_get_width (scroller), >=, min);
  }

  /* Both ways: what shrank most first */
  embers_diff_table_sort_by_change (table, FALSE);
  g_assert_cmpstr (embers_diff_table_get_row_name (table, n_rows - 1), ==, "slow");
  row = embers_diff_table_get_row (table, 0);
  g_assert_cmpfloat (row->change, <, 0.0);
  embers_diff_table_sort_by_change (table, TRUE);
  g_assert_cmpstr (embers_diff_table_get_row_name (table, 0), ==, "slow");

  /* The cells: shares with three digits, the change of share, the values
   * and their difference in the unit */
  {
    static const char *slow_share[] = { "slow", "10.0%", "18.2%", "+81.8%", "100", "200", "+100" };
    static const char *slow_value[] = { "slow", "10.0%", "18.2%", "+100%", "100", "200", "+100" };
    GtkColumnView *view = embers_diff_table_get_column_view (table);
    GListModel *columns = gtk_column_view_get_columns (view);
    g_autoptr(GtkColumnViewColumn) diff_column = g_list_model_get_item (columns, 3);
    g_autoptr(GtkColumnViewColumn) change_column = g_list_model_get_item (columns, 6);
    guint idle = G_MAXUINT;

    g_assert_cmpuint (g_list_model_get_n_items (columns), ==, 7);
    g_assert_cmpstr (gtk_column_view_column_get_title (diff_column), ==, "Share Diff");
    g_assert_cmpstr (gtk_column_view_column_get_title (change_column), ==, "Change");
    for (guint c = 0; c < G_N_ELEMENTS (slow_share); c++)
      {
        g_autofree char *text = embers_diff_table_get_cell_text (table, 0, c);

        g_assert_cmpstr (text, ==, slow_share[c]);
      }
    for (guint i = 0; i < n_rows; i++)
      if (g_str_equal (embers_diff_table_get_row_name (table, i), "idle"))
        idle = i;
    g_assert_cmpuint (idle, <, n_rows);
    {
      g_autofree char *share = embers_diff_table_get_cell_text (table, idle, 3);
      g_autofree char *delta = embers_diff_table_get_cell_text (table, idle, 6);

      g_assert_cmpstr (share, ==, "\xe2\x88\x92" "9.09%");  /* 60% of 1000 -> 54.5% of 1100 */
      g_assert_cmpstr (delta, ==, "0");
    }

    /* The colour mode "absolute": the Diff column follows it, title,
     * cells and order; "idle" did not change */
    embers_compare_page_set_mode (page, EMBERS_DIFF_MODE_ABSOLUTE);
    g_assert_cmpuint (embers_diff_table_get_mode (table), ==, EMBERS_DIFF_MODE_ABSOLUTE);
    g_assert_cmpstr (gtk_column_view_column_get_title (diff_column), ==, "Value Diff");
    g_assert_cmpstr (embers_diff_table_get_row_name (table, 0), ==, "slow");
    for (guint c = 0; c < G_N_ELEMENTS (slow_value); c++)
      {
        g_autofree char *text = embers_diff_table_get_cell_text (table, 0, c);

        g_assert_cmpstr (text, ==, slow_value[c]);
      }
    for (guint i = 0; i < n_rows; i++)
      if (g_str_equal (embers_diff_table_get_row_name (table, i), "idle"))
        {
          g_autofree char *text = embers_diff_table_get_cell_text (table, i, 3);

          g_assert_cmpstr (text, ==, "0%");
        }
    /* Sorted both ways by the absolute change: "slow" (+100 %) first,
     * then "main" and "work" (+10 %, +25 %), "idle" and "fast" (0) last */
    embers_diff_table_sort_by_change (table, FALSE);
    {
      const EmbersDiffRow *last = embers_diff_table_get_row (table, n_rows - 1);

      g_assert_cmpstr (embers_diff_table_get_row_name (table, n_rows - 1), ==, "slow");
      g_assert_cmpfloat (last->absolute_change, ==, 100.0);
      g_assert_cmpfloat (embers_diff_table_get_row (table, 0)->absolute_change, ==, 0.0);
    }
    embers_diff_table_sort_by_change (table, TRUE);
    embers_compare_page_set_mode (page, EMBERS_DIFF_MODE_SHARE);
    g_assert_cmpstr (gtk_column_view_column_get_title (diff_column), ==, "Share Diff");
    wait_shown (page);
    spin (200);
  }

  /* The legend follows the palette and says what it means */
  legend = embers_compare_page_get_legend (page);
  g_assert_cmpuint (embers_diff_legend_get_palette (legend), ==, EMBERS_DIFF_PALETTE_RED_BLUE);
  label = embers_diff_legend_describe (EMBERS_DIFF_PALETTE_RED_BLUE, EMBERS_DIFF_MODE_SHARE);
  g_assert_nonnull (strstr (label, "red = grew, blue = shrank"));
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (legend)));

  /* A frame that shrank ("idle" lost share): its pixel in both palettes */
  graph = embers_compare_page_get_graph (page);
  /* The real flame graph, with its diff palette */
  g_assert_true (EMBERS_IS_FLAME_GRAPH (graph));
  g_assert_true (gtk_widget_get_mapped (graph));
  {
    EmbersProfile *diff = embers_compare_page_get_diff (page);
    EmbersViewport viewport;
    guint n;
    const EmbersRect *rects;

    embers_viewport_init (&viewport, gtk_widget_get_width (graph));
    layout = embers_layout_new (diff, EMBERS_DIFF_COMPARISON, 0, &viewport);
    rects = embers_layout_get_rects (layout, &n);
    for (guint i = 0; i < n; i++)
      if (g_strcmp0 (embers_profile_node_name_str (diff, rects[i].node), "idle") == 0)
        {
          slow_x = (int) (rects[i].x + rects[i].width / 2);
          slow_y = (int) (embers_layout_rect_y (layout, &rects[i]) + 3);
        }
    embers_layout_unref (layout);
  }
  g_assert_cmpint (slow_x, >=, 0);
  widget_pixel (graph, slow_x, slow_y, blue);
  g_assert_cmpint (blue[2], >, blue[1]);  /* bluish */

  embers_compare_page_set_palette (page, EMBERS_DIFF_PALETTE_RED_GREEN);
  g_assert_cmpuint (embers_diff_legend_get_palette (legend), ==, EMBERS_DIFF_PALETTE_RED_GREEN);
  spin (100);
  widget_pixel (graph, slow_x, slow_y, green);
  g_assert_cmpint (green[1], >, green[2]);  /* greenish */
  g_assert_cmpint (green[1], >, green[0]);

  if (g_getenv ("EMBERS_COMPARE_SHOT") != NULL)
    {
      embers_compare_page_set_palette (page, g_str_equal (g_getenv ("EMBERS_COMPARE_SHOT"), "red-green")
                                             ? EMBERS_DIFF_PALETTE_RED_GREEN
                                             : EMBERS_DIFF_PALETTE_RED_BLUE);
      spin (20000);
    }

  g_object_ref (page);
  gtk_window_destroy (GTK_WINDOW (window));
  spin (50);
  g_assert_finalize_object (page);

  g_remove (g_file_peek_path (base));
  g_remove (g_file_peek_path (comp));
  g_rmdir (dir);
}

static void
on_range (EmbersSeriesChart *chart,
          gint64             from_ms,
          gint64             to_ms,
          gint64            *out)
{
  out[0] = from_ms;
  out[1] = to_ms;
}

static void
test_series_chart_drag (void)
{
  GtkWidget *window = gtk_window_new ();
  EmbersSeriesChart *chart = EMBERS_SERIES_CHART (embers_series_chart_new ());
  g_autoptr(GPtrArray) series = g_ptr_array_new_with_free_func ((GDestroyNotify) embers_series_free);
  EmbersSeries *s = embers_series_new ();
  gint64 start = 1700000000000, end = start + 3600 * 1000;
  gint64 got[2] = { 0, 0 };
  gint64 from, to;
  double px, py, pw, ph;

  s->n_points = 4;
  s->timestamps = g_new (gint64, 4);
  s->values = g_new (double, 4);
  for (guint i = 0; i < 4; i++)
    {
      s->timestamps[i] = start + i * 1200 * 1000;
      s->values[i] = 10 + i;
    }
  g_ptr_array_add (series, s);

  gtk_window_set_default_size (GTK_WINDOW (window), 600, 200);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (chart));
  gtk_window_present (GTK_WINDOW (window));
  embers_series_chart_set_time_range (chart, start, end);
  embers_series_chart_set_series (chart, series, NULL, "nanoseconds");
  spin (200);

  g_signal_connect (chart, "range-selected", G_CALLBACK (on_range), got);
  embers_chart_get_plot_area (embers_series_chart_get_chart (chart), &px, &py, &pw, &ph);
  g_assert_cmpfloat (pw, >, 100);

  /* A click selects nothing */
  g_assert_false (embers_series_chart_drag (chart, px + 10, px + 11));
  g_assert_cmpint (got[0], ==, 0);

  /* A drag from a quarter to three quarters, right to left */
  g_assert_true (embers_series_chart_drag (chart, px + pw * 0.75, px + pw * 0.25));
  g_assert_cmpint (got[0], >, start);
  g_assert_cmpint (got[1], <, end);
  g_assert_cmpint (got[1] - got[0], >, 1500 * 1000);
  g_assert_cmpint (got[1] - got[0], <, 2100 * 1000);
  g_assert_true (embers_series_chart_get_selection (chart, &from, &to));
  g_assert_cmpint (from, ==, got[0]);
  g_assert_cmpint (to, ==, got[1]);

  /* Past the edge ends at the edge */
  g_assert_true (embers_series_chart_drag (chart, px - 50, px + pw * 0.5));
  g_assert_cmpint (got[0], ==, start);

  g_object_ref (chart);
  gtk_window_destroy (GTK_WINDOW (window));
  spin (50);
  g_assert_finalize_object (chart);
}

static void
test_presets (void)
{
  g_autoptr(EmbersComparePage) page = g_object_ref_sink (EMBERS_COMPARE_PAGE (embers_compare_page_new ()));
  g_autoptr(EmbersQuery) base = embers_query_new ("process_cpu:cpu:nanoseconds:cpu:nanoseconds",
                                                  "{service_name=\"api\"}", 1000, 2000);
  g_autoptr(EmbersQuery) comp = embers_query_new ("process_cpu:cpu:nanoseconds:cpu:nanoseconds",
                                                  "{service_name=\"api\"}", 5000, 9000);
  g_autoptr(EmbersQuery) b = NULL;
  g_autoptr(EmbersQuery) c = NULL;
  gint64 now = 1700000000000;
  gint64 hour = 3600 * 1000;

  embers_compare_page_set_queries (page, base, comp);
  b = embers_compare_page_dup_query (page, FALSE);
  c = embers_compare_page_dup_query (page, TRUE);
  g_assert_nonnull (b);
  g_assert_cmpint (b->start_ms, ==, 1000);
  g_assert_cmpstr (c->label_selector, ==, "{service_name=\"api\"}");
  g_clear_pointer (&b, embers_query_free);
  g_clear_pointer (&c, embers_query_free);

  /* The period of equal length before the comparison's */
  embers_compare_page_apply_preset (page, EMBERS_COMPARE_PRESET_PREVIOUS_PERIOD, now);
  b = embers_compare_page_dup_query (page, FALSE);
  c = embers_compare_page_dup_query (page, TRUE);
  g_assert_cmpint (c->start_ms, ==, 5000);
  g_assert_cmpint (b->start_ms, ==, 1000);
  g_assert_cmpint (b->end_ms, ==, 5000);
  g_clear_pointer (&b, embers_query_free);
  g_clear_pointer (&c, embers_query_free);

  embers_compare_page_apply_preset (page, EMBERS_COMPARE_PRESET_HOUR_BEFORE, now);
  b = embers_compare_page_dup_query (page, FALSE);
  c = embers_compare_page_dup_query (page, TRUE);
  g_assert_cmpint (c->start_ms, ==, now - hour);
  g_assert_cmpint (c->end_ms, ==, now);
  g_assert_cmpint (b->start_ms, ==, now - 2 * hour);
  g_assert_cmpint (b->end_ms, ==, now - hour);
  g_clear_pointer (&b, embers_query_free);
  g_clear_pointer (&c, embers_query_free);

  embers_compare_page_apply_preset (page, EMBERS_COMPARE_PRESET_WEEK_AGO, now);
  b = embers_compare_page_dup_query (page, FALSE);
  g_assert_cmpint (b->end_ms, ==, now - 7 * 24 * hour);

  /* Without a source, queries cannot run: an error, no work */
  embers_compare_page_compare (page);
  g_assert_false (embers_compare_page_get_busy (page));
  g_assert_nonnull (embers_compare_page_get_error (page));
}

/* Two queries on one source: the source's diff */
static void
test_compare_queries (void)
{
  g_autoptr(EmbersLocalSource) source = embers_local_source_new ();
  g_autoptr(GBytes) b1 = g_bytes_new_static (baseline_folded, sizeof baseline_folded - 1);
  g_autoptr(GBytes) b2 = g_bytes_new_static (comparison_folded, sizeof comparison_folded - 1);
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersProfile) p1 = embers_profile_load_bytes (b1, NULL, &error);
  g_autoptr(EmbersProfile) p2 = embers_profile_load_bytes (b2, NULL, &error);
  g_autofree char *type = NULL;
  g_autoptr(EmbersQuery) q1 = NULL;
  g_autoptr(EmbersQuery) q2 = NULL;
  GtkWidget *window = gtk_window_new ();
  EmbersComparePage *page = EMBERS_COMPARE_PAGE (embers_compare_page_new ());
  gint64 t = 1700000000000;
  gboolean done = FALSE;

  g_assert_no_error (error);
  embers_local_source_add_profile (source, "base", p1, t, NULL);
  embers_local_source_add_profile (source, "comp", p2, t + 3600 * 1000, NULL);
  type = embers_local_source_profile_type_id (p1, embers_profile_get_default_sample_type (p1));
  q1 = embers_query_new (type, "{}", t - 1000, t + 1000);
  q2 = embers_query_new (type, "{}", t + 3600 * 1000 - 1000, t + 3600 * 1000 + 1000);

  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 700);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (page));
  gtk_window_present (GTK_WINDOW (window));
  embers_compare_page_set_source (page, EMBERS_SOURCE (source));
  embers_compare_page_set_queries (page, q1, q2);
  g_signal_connect (page, "compared", G_CALLBACK (on_compared), &done);
  embers_compare_page_compare (page);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
  g_assert_null (embers_compare_page_get_error (page));
  wait_shown (page);
  g_assert_cmpstr (embers_diff_table_get_row_name (embers_compare_page_get_table (page), 0), ==, "slow");
  spin (100);

  g_object_ref (page);
  gtk_window_destroy (GTK_WINDOW (window));
  spin (50);
  g_assert_finalize_object (page);
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add_func ("/embers/compare/files", test_compare_files);
  g_test_add_func ("/embers/compare/series-chart-drag", test_series_chart_drag);
  g_test_add_func ("/embers/compare/presets", test_presets);
  g_test_add_func ("/embers/compare/queries", test_compare_queries);

  return g_test_run ();
}
