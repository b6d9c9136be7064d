/* test-compare.c: the compare page and its widgets on a display
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <libsoup/soup.h>

#include "embers-compare-page.h"
#include "embers-status.h"
#include "embers-diff-legend.h"
#include "embers-diff-table.h"
#include "embers-format.h"
#include "embers-local-source.h"
#include "embers-pyroscope-source.h"
#include "embers-query-url.h"
#include "embers-series-chart.h"
#include "embers-test-gtk-utils.h"
#include "embers-test-server-spawn.h"

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

/* For a screenshot (not a test): keeps the window up for a person to
 * take its picture */
static void
hold_for_shot (guint ms)
{
  gboolean done = FALSE;

  g_timeout_add (ms, timeout_cb, &done);
  embers_test_wait_flag (&done, "done");
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
  /* The next frame, as the window draws it (a widget paintable taken
   * between frames, while a newer paint has queued a draw, is empty) */
  g_autoptr(EmbersTestPixels) pixels = NULL;
  guint32 pixel;

  g_assert_cmpint (gtk_widget_get_width (widget), >, x);
  g_assert_cmpint (gtk_widget_get_height (widget), >, y);
  pixels = embers_test_render_frame (widget);
  pixel = embers_test_pixels_get (pixels, x, y);
  rgb[0] = (pixel >> 16) & 0xff;
  rgb[1] = (pixel >> 8) & 0xff;
  rgb[2] = pixel & 0xff;
}

/* The flame graph paints on a worker thread: its paint for what it
 * shows now, then a frame that draws it (a widget paintable of a widget
 * waiting for its frame is empty) */
static gboolean
graph_painted (gpointer graph)
{
  return embers_flame_graph_has_paint_cache (graph);
}

static void
wait_painted (GtkWidget *graph)
{
  embers_test_wait_until (graph_painted, graph, "the flame graph's paint");
  embers_test_wait_frame (GTK_WIDGET (gtk_widget_get_root (graph)));
}

/* The diff's profile page computes its table and views off the main
 * thread: wait until it shows them */
static gboolean
diff_shown (gpointer data)
{
  EmbersComparePage *page = data;

  return !embers_profile_page_get_busy (embers_compare_page_get_profile_page (page)) &&
         embers_diff_table_get_n_rows (embers_compare_page_get_table (page)) > 0;
}

static void
wait_shown (EmbersComparePage *page)
{
  embers_test_wait_until (diff_shown, page, "the diff's table and views");
  embers_test_settle ();
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
  embers_test_wait_flag (&done, "done");
  g_assert_null (embers_compare_page_get_error (page));
  g_assert_false (embers_compare_page_get_busy (page));
  g_assert_nonnull (embers_compare_page_get_diff (page));
  g_assert_true (embers_profile_is_diff (embers_compare_page_get_diff (page)));
  wait_shown (page);
  embers_test_settle ();

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

  /* Beside the graph, the table takes at most half of the page: the name
   * and the shares (the first four columns) are on screen, the rest
   * scrolls sideways into view */
  {
    GtkWidget *view = GTK_WIDGET (embers_diff_table_get_column_view (table));
    GtkWidget *scroller = gtk_widget_get_parent (view);
    GtkWidget *diff_graph = embers_compare_page_get_graph (page);
    GtkWidget *header = gtk_widget_get_first_child (view);
    GtkWidget *title = gtk_widget_get_first_child (header);
    GtkAdjustment *h = gtk_scrolled_window_get_hadjustment (GTK_SCROLLED_WINDOW (scroller));
    int min = 0;

    gtk_widget_measure (view, GTK_ORIENTATION_HORIZONTAL, -1, &min, NULL, NULL, NULL);
    g_assert_cmpint (min, >, 300);
    g_assert_cmpint (gtk_widget_get_width (diff_graph) + 2, >=, gtk_widget_get_width (scroller));
    for (int i = 0; i < 3 && title != NULL; i++)
      title = gtk_widget_get_next_sibling (title);
    g_assert_nonnull (title);
    {
      graphene_rect_t bounds = embers_test_bounds (title, scroller);

      g_assert_cmpfloat (bounds.origin.x + bounds.size.width, <=, gtk_widget_get_width (scroller) + 0.5);
    }
    g_assert_cmpfloat (gtk_adjustment_get_upper (h), >=, min);
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

    /* Seven, and the noise test's two, hidden: two files have no steps */
    g_assert_cmpuint (g_list_model_get_n_items (columns), ==, 9);
    for (guint c = 7; c < 9; c++)
      {
        g_autoptr(GtkColumnViewColumn) noise_column = g_list_model_get_item (columns, c);

        g_assert_false (gtk_column_view_column_get_visible (noise_column));
      }
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
    embers_test_settle ();
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
  wait_painted (graph);
  widget_pixel (graph, slow_x, slow_y, blue);
  g_assert_cmpint (blue[2], >, blue[1]);  /* bluish */

  embers_compare_page_set_palette (page, EMBERS_DIFF_PALETTE_RED_GREEN);
  g_assert_cmpuint (embers_diff_legend_get_palette (legend), ==, EMBERS_DIFF_PALETTE_RED_GREEN);
  embers_test_settle ();
  wait_painted (graph);
  widget_pixel (graph, slow_x, slow_y, green);
  g_assert_cmpint (green[1], >, green[2]);  /* greenish */
  g_assert_cmpint (green[1], >, green[0]);

  if (g_getenv ("EMBERS_COMPARE_SHOT") != NULL)
    {
      embers_compare_page_set_palette (page, g_str_equal (g_getenv ("EMBERS_COMPARE_SHOT"), "red-green")
                                             ? EMBERS_DIFF_PALETTE_RED_GREEN
                                             : EMBERS_DIFF_PALETTE_RED_BLUE);
      hold_for_shot (20000);
    }

  g_object_ref (page);
  gtk_window_destroy (GTK_WINDOW (window));
  embers_test_assert_finalize (page);

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
  embers_test_wait_mapped (GTK_WIDGET (chart));

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

  /* The keyboard: focusable; arrows move the selection by a twentieth of
   * the range (3 min of an hour), Shift+arrows its end; nothing is emitted
   * until Enter; Escape goes back to the applied selection */
  g_assert_true (gtk_widget_get_focusable (GTK_WIDGET (chart)));
  embers_series_chart_set_selection (chart, start + 10 * 60000, start + 20 * 60000);
  got[0] = got[1] = 0;
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (chart), "chart.move", "(ib)", 1, FALSE));
  g_assert_true (embers_series_chart_get_selection (chart, &from, &to));
  g_assert_cmpint (from, ==, start + 13 * 60000);
  g_assert_cmpint (to, ==, start + 23 * 60000);
  g_assert_cmpint (got[0], ==, 0);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (chart), "chart.move", "(ib)", 2, TRUE));
  g_assert_true (embers_series_chart_get_selection (chart, &from, &to));
  g_assert_cmpint (from, ==, start + 13 * 60000);
  g_assert_cmpint (to, ==, start + 29 * 60000);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (chart), "chart.revert", NULL));
  g_assert_true (embers_series_chart_get_selection (chart, &from, &to));
  g_assert_cmpint (from, ==, start + 10 * 60000);
  g_assert_cmpint (to, ==, start + 20 * 60000);
  /* Left past the start stops there; the end cannot pass the start */
  embers_series_chart_move_selection (chart, -100, FALSE);
  embers_series_chart_move_selection (chart, -100, TRUE);
  g_assert_true (embers_series_chart_get_selection (chart, &from, &to));
  g_assert_cmpint (from, ==, start);
  g_assert_cmpint (to, ==, start + 3 * 60000);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (chart), "chart.apply", NULL));
  g_assert_cmpint (got[0], ==, start);
  g_assert_cmpint (got[1], ==, start + 3 * 60000);
  /* Right past the end stops there, keeping the length */
  embers_series_chart_move_selection (chart, 100, FALSE);
  g_assert_true (embers_series_chart_get_selection (chart, &from, &to));
  g_assert_cmpint (to, ==, end);
  g_assert_cmpint (from, ==, end - 3 * 60000);
  /* Without a selection, an arrow selects the middle fifth */
  embers_series_chart_clear_selection (chart);
  g_assert_false (embers_series_chart_apply_selection (chart));
  embers_series_chart_move_selection (chart, 1, FALSE);
  g_assert_true (embers_series_chart_get_selection (chart, &from, &to));
  g_assert_cmpint (from, ==, start + 24 * 60000);
  g_assert_cmpint (to, ==, start + 36 * 60000);

  g_object_ref (chart);
  gtk_window_destroy (GTK_WINDOW (window));
  embers_test_assert_finalize (chart);
}

/* Each chart shows a window around its own selection: half its length
 * either side, so the selection is half the chart */
static void
assert_window (EmbersComparePage *page,
               gboolean           comparison,
               gint64             start,
               gint64             end)
{
  EmbersSeriesChart *chart = embers_compare_page_get_chart (page, comparison);
  gint64 win_start, win_end, from, to;
  gint64 len = MAX (end - start, 60 * 1000);  /* a minute at least */

  embers_series_chart_get_time_range (chart, &win_start, &win_end);
  g_assert_cmpint (win_start, ==, start - len / 2);
  g_assert_cmpint (win_end, ==, end + len / 2);
  g_assert_true (embers_series_chart_get_selection (chart, &from, &to));
  g_assert_cmpint (from, ==, start);
  g_assert_cmpint (to, ==, end);
}

static void
assert_ranges (EmbersComparePage *page,
               gint64             base_start,
               gint64             base_end,
               gint64             comp_start,
               gint64             comp_end)
{
  g_autoptr(EmbersQuery) b = embers_compare_page_dup_query (page, FALSE);
  g_autoptr(EmbersQuery) c = embers_compare_page_dup_query (page, TRUE);

  g_assert_nonnull (b);
  g_assert_nonnull (c);
  g_assert_cmpint (b->start_ms, ==, base_start);
  g_assert_cmpint (b->end_ms, ==, base_end);
  g_assert_cmpint (c->start_ms, ==, comp_start);
  g_assert_cmpint (c->end_ms, ==, comp_end);
  assert_window (page, FALSE, base_start, base_end);
  assert_window (page, TRUE, comp_start, comp_end);
}

#define CPU_TYPE "process_cpu:cpu:nanoseconds:cpu:nanoseconds"
#define MIN_MS ((gint64) 60 * 1000)
#define HOUR_MS ((gint64) 3600 * 1000)

static void
test_presets (void)
{
  g_autoptr(EmbersComparePage) page = g_object_ref_sink (EMBERS_COMPARE_PAGE (embers_compare_page_new ()));
  g_autoptr(EmbersQuery) base = embers_query_new (CPU_TYPE, "{service_name=\"api\"}", 1000, 2000);
  g_autoptr(EmbersQuery) comp = embers_query_new (CPU_TYPE, "{service_name=\"api\"}", 5000, 9000);
  g_autoptr(EmbersQuery) c = NULL;
  gint64 now = 1700000000000;
  gint64 day = 24 * HOUR_MS;

  embers_compare_page_set_queries (page, base, comp);
  assert_ranges (page, 1000, 2000, 5000, 9000);
  c = embers_compare_page_dup_query (page, TRUE);
  g_assert_cmpstr (c->label_selector, ==, "{service_name=\"api\"}");

  /* The period of equal length before the comparison's */
  embers_compare_page_apply_preset (page, EMBERS_COMPARE_PRESET_PREVIOUS_PERIOD, now);
  assert_ranges (page, 1000, 5000, 5000, 9000);

  /* The last hour vs the hour before */
  embers_compare_page_apply_preset (page, EMBERS_COMPARE_PRESET_HOUR_BEFORE, now);
  assert_ranges (page, now - 2 * HOUR_MS, now - HOUR_MS, now - HOUR_MS, now);

  /* The same hour 24 hours ago vs now: each chart two hours around its
   * own hour, not one 25-hour chart with two slivers */
  embers_compare_page_apply_preset (page, EMBERS_COMPARE_PRESET_DAY_AGO, now);
  assert_ranges (page, now - day - HOUR_MS, now - day, now - HOUR_MS, now);

  /* A week ago vs now */
  embers_compare_page_apply_preset (page, EMBERS_COMPARE_PRESET_WEEK_AGO, now);
  assert_ranges (page, now - 7 * day - HOUR_MS, now - 7 * day, now - HOUR_MS, now);

  /* With sync off, the presets set both all the same */
  embers_compare_page_set_sync_ranges (page, FALSE);
  embers_compare_page_apply_preset (page, EMBERS_COMPARE_PRESET_HOUR_BEFORE, now);
  assert_ranges (page, now - 2 * HOUR_MS, now - HOUR_MS, now - HOUR_MS, now);
  embers_compare_page_set_sync_ranges (page, TRUE);

  /* The From and To entries show the ranges (local time, to the second) */
  {
    g_autofree char *from = embers_query_url_format_local_time (now - HOUR_MS);

    g_assert_cmpstr (gtk_editable_get_text (embers_compare_page_get_from_entry (page, TRUE)), ==, from);
  }

  /* Without a source, queries cannot run: an error, no work */
  embers_compare_page_compare (page);
  g_assert_false (embers_compare_page_get_busy (page));
  g_assert_nonnull (embers_compare_page_get_error (page));
}

/* Sync: both ranges the same length, one moved moves the other by as much */
static void
test_sync (void)
{
  g_autoptr(EmbersComparePage) page = g_object_ref_sink (EMBERS_COMPARE_PAGE (embers_compare_page_new ()));
  gint64 t = 1700000000000;
  gint64 day = 24 * HOUR_MS;
  g_autoptr(EmbersQuery) base = embers_query_new (CPU_TYPE, "{}", t, t + HOUR_MS);
  g_autoptr(EmbersQuery) comp = embers_query_new (CPU_TYPE, "{}", t + day, t + day + HOUR_MS);
  g_autofree char *from_text = NULL;
  g_autofree char *to_text = NULL;

  embers_compare_page_set_queries (page, base, comp);
  g_assert_true (embers_compare_page_get_sync_ranges (page));
  assert_ranges (page, t, t + HOUR_MS, t + day, t + day + HOUR_MS);

  /* A shorter, later comparison: the baseline follows, a day apart */
  embers_compare_page_set_time_range (page, TRUE, t + day + 10 * MIN_MS, t + day + 40 * MIN_MS);
  assert_ranges (page, t + 10 * MIN_MS, t + 40 * MIN_MS, t + day + 10 * MIN_MS, t + day + 40 * MIN_MS);

  /* A drag on the baseline's chart (its signal, as the chart emits it) */
  g_signal_emit_by_name (embers_compare_page_get_chart (page, FALSE), "range-selected",
                         t - 20 * MIN_MS, t + 40 * MIN_MS);
  assert_ranges (page, t - 20 * MIN_MS, t + 40 * MIN_MS, t + day - 20 * MIN_MS, t + day + 40 * MIN_MS);

  /* The keyboard on the comparison's chart: right by 3 min (a twentieth
   * of its two-hour window), Enter */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (embers_compare_page_get_chart (page, TRUE)),
                                             "chart.move", "(ib)", 1, FALSE));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (embers_compare_page_get_chart (page, TRUE)),
                                             "chart.apply", NULL));
  assert_ranges (page, t - 14 * MIN_MS, t + 46 * MIN_MS, t + day - 14 * MIN_MS, t + day + 46 * MIN_MS);

  /* Typed times (Enter on To) move the other side too */
  from_text = embers_query_url_format_local_time (t);
  to_text = embers_query_url_format_local_time (t + 30 * MIN_MS);
  gtk_editable_set_text (embers_compare_page_get_from_entry (page, FALSE), from_text);
  gtk_editable_set_text (embers_compare_page_get_to_entry (page, FALSE), to_text);
  g_signal_emit_by_name (embers_compare_page_get_to_entry (page, FALSE), "activate");
  assert_ranges (page, t, t + 30 * MIN_MS, t + day, t + day + 30 * MIN_MS);

  /* Off: each side on its own */
  embers_compare_page_set_sync_ranges (page, FALSE);
  embers_compare_page_set_time_range (page, FALSE, t - HOUR_MS, t + HOUR_MS);
  assert_ranges (page, t - HOUR_MS, t + HOUR_MS, t + day, t + day + 30 * MIN_MS);

  /* On again: the baseline takes the comparison's length, keeping its end */
  embers_compare_page_set_sync_ranges (page, TRUE);
  assert_ranges (page, t + HOUR_MS - 30 * MIN_MS, t + HOUR_MS, t + day, t + day + 30 * MIN_MS);

  /* Typed on both sides and not applied: Compare takes both as typed (no
   * source here, so it stops at the queries, with the ranges applied) */
  g_clear_pointer (&from_text, g_free);
  g_clear_pointer (&to_text, g_free);
  from_text = embers_query_url_format_local_time (t + 2 * day);
  to_text = embers_query_url_format_local_time (t + 2 * day + 20 * MIN_MS);
  gtk_editable_set_text (embers_compare_page_get_from_entry (page, TRUE), from_text);
  gtk_editable_set_text (embers_compare_page_get_to_entry (page, TRUE), to_text);
  gtk_editable_set_text (embers_compare_page_get_to_entry (page, FALSE), "now-5h");
  gtk_editable_set_text (embers_compare_page_get_from_entry (page, FALSE), "nonsense");
  embers_compare_page_compare (page);
  g_assert_cmpstr (embers_compare_page_get_error (page), ==,
                   "The baseline’s time range: “nonsense” is not a time: use Unix seconds or milliseconds, "
                   "RFC 3339 (2024-05-01T12:00:00Z), now, or now-1h (units ms, s, m, h, d, w)");
  g_clear_pointer (&from_text, g_free);
  from_text = embers_query_url_format_local_time (t + 2 * HOUR_MS);
  gtk_editable_set_text (embers_compare_page_get_from_entry (page, FALSE), from_text);
  /* t + 2 h 40 min in RFC 3339 */
  gtk_editable_set_text (embers_compare_page_get_to_entry (page, FALSE), "2023-11-15T00:53:20Z");
  embers_compare_page_compare (page);
  assert_ranges (page, t + 2 * HOUR_MS, t + 2 * HOUR_MS + 40 * MIN_MS,
                 t + 2 * day, t + 2 * day + 20 * MIN_MS);
}

/* Compare uses what is on screen: typed selectors and a typed filter
 * value count without Enter */
static EmbersLocalSource *
regions_source (gint64  t,
                char  **type)
{
  EmbersLocalSource *source = embers_local_source_new ();
  g_autoptr(GBytes) b1 = g_bytes_new_static (baseline_folded, sizeof baseline_folded - 1);
  g_autoptr(GBytes) b2 = g_bytes_new_static (comparison_folded, sizeof comparison_folded - 1);
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersProfile) p1 = embers_profile_load_bytes (b1, NULL, &error);
  g_autoptr(EmbersProfile) p2 = embers_profile_load_bytes (b2, NULL, &error);
  const char *eu[] = { "service_name", "shop", "region", "eu", NULL };
  const char *us[] = { "service_name", "shop", "region", "us", NULL };

  g_assert_no_error (error);
  /* eu: 1000 in total (slow 100), us: 1100 (slow 200) */
  embers_local_source_add_profile (source, "eu", p1, t, eu);
  embers_local_source_add_profile (source, "us", p2, t, us);
  *type = embers_local_source_profile_type_id (p1, embers_profile_get_default_sample_type (p1));
  return source;
}

static gboolean
compare_idle (gpointer data)
{
  return !embers_compare_page_get_busy (data);
}

static gboolean
bar_has_names (gpointer data)
{
  return !embers_filter_bar_get_loading (data) && g_list_model_get_n_items (embers_filter_bar_get_names (data)) > 0;
}

static gboolean
bar_has_values (gpointer data)
{
  return !embers_filter_bar_get_loading (data) && g_list_model_get_n_items (embers_filter_bar_get_values (data)) >= 2;
}

static void
wait_compared (EmbersComparePage *page)
{
  embers_test_wait_until (compare_idle, page, "the comparison");
}

static void
test_on_screen (void)
{
  gint64 t = 1700000000000;
  g_autofree char *type = NULL;
  g_autoptr(EmbersLocalSource) source = regions_source (t, &type);
  g_autoptr(EmbersQuery) q = NULL;
  g_autoptr(EmbersQuery) b = NULL;
  g_autoptr(EmbersQuery) c = NULL;
  GtkWidget *window = gtk_window_new ();
  EmbersComparePage *page = EMBERS_COMPARE_PAGE (embers_compare_page_new ());
  EmbersFilterBar *bar;
  GtkDropDown *names;
  g_autofree char *chips = NULL;

  q = embers_query_new (type, "{}", t - 1000, t + 1000);
  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 800);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (page));
  gtk_window_present (GTK_WINDOW (window));
  embers_compare_page_set_source (page, EMBERS_SOURCE (source));
  embers_compare_page_set_queries (page, q, q);

  /* Different selectors per side, typed and not applied (no Enter) */
  gtk_editable_set_text (embers_compare_page_get_selector_entry (page, FALSE), "{region=\"eu\"}");
  gtk_editable_set_text (embers_compare_page_get_selector_entry (page, TRUE), "{region = 'us'}");
  embers_compare_page_compare (page);
  wait_compared (page);
  g_assert_null (embers_compare_page_get_error (page));
  b = embers_compare_page_dup_query (page, FALSE);
  c = embers_compare_page_dup_query (page, TRUE);
  g_assert_cmpstr (b->label_selector, ==, "{region=\"eu\"}");
  g_assert_cmpstr (c->label_selector, ==, "{region=\"us\"}");
  g_assert_cmpint (embers_profile_get_total (embers_compare_page_get_diff (page), 0), ==, 1000);
  g_assert_cmpint (embers_profile_get_total (embers_compare_page_get_diff (page), 1), ==, 1100);
  /* ... and shown as chips, the entry in the canonical form */
  bar = embers_compare_page_get_filter_bar (page, TRUE);
  chips = embers_selector_to_string (embers_filter_bar_get_filters (bar));
  g_assert_cmpstr (chips, ==, "{region=\"us\"}");
  g_assert_cmpstr (gtk_editable_get_text (embers_compare_page_get_selector_entry (page, TRUE)), ==,
                   "{region=\"us\"}");

  /* Compared, the form is folded to one line; opened again to edit */
  g_assert_true (embers_compare_page_get_folded (page));
  embers_compare_page_set_folded (page, FALSE);

  /* The filter bar: label names of this type come from the source; a
   * value typed but not added counts at Compare, replacing eu */
  bar = embers_compare_page_get_filter_bar (page, FALSE);
  names = embers_filter_bar_get_name_dropdown (bar);
  embers_test_wait_until (bar_has_names, bar, "the filter bar's label names");
  {
    GListModel *model = embers_filter_bar_get_names (bar);
    guint region = G_MAXUINT;

    for (guint i = 0; i < g_list_model_get_n_items (model); i++)
      if (g_str_equal (gtk_string_list_get_string (GTK_STRING_LIST (model), i), "region"))
        region = i;
    g_assert_cmpuint (region, !=, G_MAXUINT);
    gtk_drop_down_set_selected (names, region);
  }
  /* The value entry suggests region's values that hold what is typed, in
   * a list under it while it has the focus; Down picks one, Enter takes
   * it (and Enter again would add the filter) */
  {
    GtkEditable *value = embers_filter_bar_get_value_entry (bar);
    GListModel *suggested = embers_filter_bar_get_suggestions (bar);
    GtkPopover *popover = embers_filter_bar_get_suggestions_popover (bar);
    g_autoptr(GtkStringObject) first = NULL;

    embers_test_wait_until (bar_has_values, bar, "region's values");
    g_assert_cmpuint (g_list_model_get_n_items (embers_filter_bar_get_values (bar)), >=, 2);
    g_assert_true (gtk_widget_grab_focus (GTK_WIDGET (value)));
    gtk_editable_set_text (value, "S");
    g_assert_cmpuint (g_list_model_get_n_items (suggested), ==, 1);
    first = g_list_model_get_item (suggested, 0);
    g_assert_cmpstr (gtk_string_object_get_string (first), ==, "us");
    g_assert_true (gtk_widget_get_visible (GTK_WIDGET (popover)));
    g_assert_true (embers_test_press_key (GTK_WIDGET (value), GDK_KEY_Down, 0));
    g_assert_cmpuint (gtk_single_selection_get_selected (GTK_SINGLE_SELECTION (suggested)), ==, 0);
    g_assert_true (embers_test_press_key (GTK_WIDGET (value), GDK_KEY_Return, 0));
    g_assert_cmpstr (gtk_editable_get_text (value), ==, "us");
    g_assert_false (gtk_widget_get_visible (GTK_WIDGET (popover)));
    /* Typed away from the entry: no list left behind */
    gtk_editable_set_text (value, "e");
    g_assert_true (gtk_widget_get_visible (GTK_WIDGET (popover)));
    gtk_widget_grab_focus (GTK_WIDGET (embers_compare_page_get_selector_entry (page, FALSE)));
    g_assert_false (gtk_widget_get_visible (GTK_WIDGET (popover)));
  }
  gtk_editable_set_text (embers_filter_bar_get_value_entry (bar), "us");
  embers_compare_page_compare (page);
  wait_compared (page);
  g_assert_null (embers_compare_page_get_error (page));
  g_clear_pointer (&b, embers_query_free);
  b = embers_compare_page_dup_query (page, FALSE);
  g_assert_cmpstr (b->label_selector, ==, "{region=\"us\"}");
  g_assert_cmpstr (gtk_editable_get_text (embers_filter_bar_get_value_entry (bar)), ==, "");
  g_assert_cmpint (embers_profile_get_total (embers_compare_page_get_diff (page), 0), ==, 1100);

  /* A chip removed: the selector follows at once */
  g_assert_true (embers_filter_bar_remove_filter (bar, "region"));
  g_assert_cmpstr (gtk_editable_get_text (embers_compare_page_get_selector_entry (page, FALSE)), ==, "{}");

  /* A typed selector that does not parse: said, nothing runs */
  gtk_editable_set_text (embers_compare_page_get_selector_entry (page, FALSE), "{region=");
  embers_compare_page_compare (page);
  g_assert_false (embers_compare_page_get_busy (page));
  g_assert_true (g_str_has_prefix (embers_compare_page_get_error (page),
                                   "The baseline’s label selector is not valid: "));

  g_object_ref (page);
  gtk_window_destroy (GTK_WINDOW (window));
  embers_test_assert_finalize (page);
}

/* A file against a query of the source: the query merged, diffed locally */
static void
test_file_vs_query (void)
{
  gint64 t = 1700000000000;
  g_autofree char *type = NULL;
  g_autoptr(EmbersLocalSource) source = regions_source (t, &type);
  g_autofree char *dir = g_dir_make_tmp ("embers-compare-XXXXXX", NULL);
  g_autoptr(GFile) base = write_file (dir, "base.folded", baseline_folded);
  g_autoptr(EmbersQuery) q = embers_query_new (type, "{region=\"us\"}", t - 1000, t + 1000);
  g_autoptr(EmbersComparePage) page = g_object_ref_sink (EMBERS_COMPARE_PAGE (embers_compare_page_new ()));

  embers_compare_page_set_source (page, EMBERS_SOURCE (source));
  embers_compare_page_set_queries (page, NULL, q);
  embers_compare_page_set_files (page, base, base);
  /* set_files made both files; the comparison back to its query */
  embers_compare_page_set_queries (page, NULL, q);
  embers_compare_page_compare (page);
  wait_compared (page);
  g_assert_null (embers_compare_page_get_error (page));
  g_assert_null (embers_compare_page_dup_query (page, FALSE));
  g_assert_cmpint (embers_profile_get_total (embers_compare_page_get_diff (page), 0), ==, 1000);
  g_assert_cmpint (embers_profile_get_total (embers_compare_page_get_diff (page), 1), ==, 1100);

  g_remove (g_file_peek_path (base));
  g_rmdir (dir);
}

/* Files: each side's sample type, the default first; the other follows a
 * type of the same name; types whose units differ are refused in words */
static void
test_sample_types (void)
{
  g_autofree char *before = g_test_build_filename (G_TEST_DIST, "fixtures", "go", "cpu-before.pb.gz", NULL);
  g_autofree char *after = g_test_build_filename (G_TEST_DIST, "fixtures", "go", "cpu-after.pb.gz", NULL);
  g_autofree char *heap = g_test_build_filename (G_TEST_DIST, "fixtures", "go", "heap.pb.gz", NULL);
  g_autoptr(GFile) before_file = g_file_new_for_path (before);
  g_autoptr(GFile) after_file = g_file_new_for_path (after);
  g_autoptr(GFile) heap_file = g_file_new_for_path (heap);
  g_autoptr(EmbersComparePage) page = g_object_ref_sink (EMBERS_COMPARE_PAGE (embers_compare_page_new ()));
  GtkDropDown *base_types, *comp_types;

  embers_compare_page_set_files (page, before_file, after_file);
  wait_compared (page);
  g_assert_null (embers_compare_page_get_error (page));
  g_assert_cmpstr (embers_profile_get_sample_unit (embers_compare_page_get_diff (page), 1), ==, "nanoseconds");
  base_types = embers_compare_page_get_sample_type_dropdown (page, FALSE);
  comp_types = embers_compare_page_get_sample_type_dropdown (page, TRUE);
  g_assert_true (gtk_widget_get_visible (gtk_widget_get_parent (GTK_WIDGET (base_types))));
  g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (base_types)), ==, 2);
  g_assert_cmpstr (gtk_string_object_get_string (gtk_drop_down_get_selected_item (base_types)), ==,
                   "cpu (nanoseconds)");
  g_assert_null (embers_compare_page_get_sample_type (page, FALSE));

  /* samples on the baseline: the comparison follows, compared again */
  g_assert_true (embers_compare_page_set_sample_type (page, FALSE, "samples"));
  g_assert_cmpstr (embers_compare_page_get_sample_type (page, TRUE), ==, "samples");
  g_assert_cmpstr (gtk_string_object_get_string (gtk_drop_down_get_selected_item (comp_types)), ==,
                   "samples (count)");
  g_assert_true (embers_compare_page_get_busy (page));
  wait_compared (page);
  g_assert_null (embers_compare_page_get_error (page));
  g_assert_cmpstr (embers_profile_get_sample_unit (embers_compare_page_get_diff (page), 1), ==, "count");

  /* A heap profile against CPU: each file's default, bytes vs time */
  embers_compare_page_set_files (page, heap_file, after_file);
  wait_compared (page);
  g_assert_cmpstr (embers_compare_page_get_error (page), ==,
                   "Cannot compare “inuse_space” in bytes with “cpu” in nanoseconds: the units differ");
  /* ... their types on offer all the same: counts compare */
  g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (base_types)), ==, 4);
  g_assert_false (embers_compare_page_set_sample_type (page, FALSE, "cpu"));
  g_assert_true (embers_compare_page_set_sample_type (page, FALSE, "inuse_objects"));
  g_assert_true (embers_compare_page_set_sample_type (page, TRUE, "samples"));
  embers_compare_page_compare (page);
  wait_compared (page);
  g_assert_null (embers_compare_page_get_error (page));
  g_assert_cmpstr (embers_profile_get_sample_unit (embers_compare_page_get_diff (page), 1), ==, "count");
}

/* Every access key of the page is its own: the two file buttons and the
 * two sample type labels do not share one */
static void
collect_mnemonics (GtkWidget *widget,
                   GArray    *keys)
{
  if (GTK_IS_LABEL (widget) && gtk_label_get_use_underline (GTK_LABEL (widget)))
    {
      guint key = gdk_keyval_to_lower (gtk_label_get_mnemonic_keyval (GTK_LABEL (widget)));

      if (key != GDK_KEY_VoidSymbol && key != 0)
        g_array_append_val (keys, key);
    }
  /* A panel's Retry shows only in place of its content, after an error */
  if (EMBERS_IS_STATUS (widget))
    {
      if (embers_status_get_content (EMBERS_STATUS (widget)) != NULL &&
          !EMBERS_IS_PROFILE_PAGE (embers_status_get_content (EMBERS_STATUS (widget))))
        collect_mnemonics (embers_status_get_content (EMBERS_STATUS (widget)), keys);
      return;
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (!EMBERS_IS_PROFILE_PAGE (child))
      collect_mnemonics (child, keys);
}

static void
test_mnemonics (void)
{
  g_autoptr(EmbersComparePage) page = g_object_ref_sink (EMBERS_COMPARE_PAGE (embers_compare_page_new ()));
  g_autoptr(GArray) keys = g_array_new (FALSE, FALSE, sizeof (guint));

  collect_mnemonics (GTK_WIDGET (page), keys);
  /* Base_line, Compa_rison, Sample _type, Sample t_ype, _Sync, _Presets,
   * _Cancel, C_ompare */
  g_assert_cmpuint (keys->len, >=, 8);
  for (guint i = 0; i < keys->len; i++)
    for (guint j = i + 1; j < keys->len; j++)
      if (g_array_index (keys, guint, i) == g_array_index (keys, guint, j))
        g_error ("two access keys %s", gdk_keyval_name (g_array_index (keys, guint, i)));
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
  embers_test_wait_flag (&done, "done");
  g_assert_null (embers_compare_page_get_error (page));
  wait_shown (page);
  g_assert_cmpstr (embers_diff_table_get_row_name (embers_compare_page_get_table (page), 0), ==, "slow");
  embers_test_settle ();

  g_object_ref (page);
  gtk_window_destroy (GTK_WINDOW (window));
  embers_test_assert_finalize (page);
}

/* Against the Pyroscope test server, through the real client */

#define DIFF_PATH  "/querier.v1.QuerierService/Diff"
#define MERGE_PATH "/querier.v1.QuerierService/SelectMergeStacktraces"
#define ALLOC_TYPE "memory:alloc_space:bytes:space:bytes"
#define EU "{service_name=\"api\",region=\"eu-west-1\"}"
#define US "{service_name=\"api\",region=\"us-east-1\"}"

static EmbersPyroscopeSource *
server_source (EmbersTestServer *server)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersConnectClient) client = embers_connect_client_new (embers_test_server_get_url (server), &error);

  g_assert_no_error (error);
  return embers_pyroscope_source_new (client);
}

/* Whole minutes well inside the server's data */
static void
server_range (gint64 *start,
              gint64 *end)
{
  *end = g_get_real_time () / 1000;
  *end -= *end % MIN_MS + 5 * MIN_MS;
  *start = *end - 30 * MIN_MS;
}

/* A query URL with credentials in it (no keyring is asked) */
static GFile *
query_file (EmbersTestServer *server,
            const char       *type,
            const char       *selector,
            gint64            start,
            gint64            end)
{
  g_autoptr(EmbersQuery) query = embers_query_new (type, selector, start, end);
  const char *base = embers_test_server_get_url (server);
  g_autofree char *with_user = g_strconcat ("http://embers:secret@", base + strlen ("http://"), NULL);
  g_autofree char *url = embers_query_url_build (with_user, query);

  return g_file_new_for_uri (url);
}

static void
compare_queries (EmbersComparePage *page,
                 const char        *left_type,
                 const char        *left,
                 const char        *right_type,
                 const char        *right,
                 gint64             start,
                 gint64             end)
{
  g_autoptr(EmbersQuery) b = embers_query_new (left_type, left, start, end);
  g_autoptr(EmbersQuery) c = embers_query_new (right_type, right, start, end);

  embers_compare_page_set_queries (page, b, c);
  embers_compare_page_compare (page);
  wait_compared (page);
}

static void
test_server_diff (void)
{
  const char *args[] = { NULL };
  const char *no_diff_args[] = { "--no-diff", NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersTestServer) server = embers_test_server_start (args, &error);
  g_autoptr(EmbersTestServer) old = NULL;
  g_autoptr(EmbersPyroscopeSource) pyro = NULL;
  g_autoptr(EmbersPyroscopeSource) old_pyro = NULL;
  g_autoptr(EmbersComparePage) page = g_object_ref_sink (EMBERS_COMPARE_PAGE (embers_compare_page_new ()));
  g_autoptr(EmbersComparePage) old_page = g_object_ref_sink (EMBERS_COMPARE_PAGE (embers_compare_page_new ()));
  g_autoptr(EmbersProfile) server_diff = NULL;
  gint64 start, end;

  g_assert_no_error (error);
  old = embers_test_server_start (no_diff_args, &error);
  g_assert_no_error (error);
  pyro = server_source (server);
  old_pyro = server_source (old);
  server_range (&start, &end);

  /* Two queries on one server: its Diff RPC, nothing merged here */
  embers_compare_page_set_source (page, EMBERS_SOURCE (pyro));
  g_free (embers_test_server_control (server, "DELETE", "embers-test/stats", NULL));
  compare_queries (page, CPU_TYPE, EU, CPU_TYPE, US, start, end);
  g_assert_null (embers_compare_page_get_error (page));
  server_diff = g_object_ref (embers_compare_page_get_diff (page));
  g_assert_cmpint (embers_profile_get_total (server_diff, 0), >, 0);
  g_assert_cmpint (embers_profile_get_total (server_diff, 1), >, 0);
  g_assert_cmpint (embers_test_server_stat (server, "requests", DIFF_PATH), ==, 1);
  g_assert_cmpint (embers_test_server_stat (server, "requests", MERGE_PATH), ==, 0);

  /* CPU time against allocated bytes: refused in words, nothing asked */
  compare_queries (page, CPU_TYPE, EU, ALLOC_TYPE, US, start, end);
  g_assert_cmpstr (embers_compare_page_get_error (page), ==,
                   "Cannot compare “cpu” in nanoseconds with “alloc_space” in bytes: the units differ");
  g_assert_cmpint (embers_test_server_stat (server, "requests", DIFF_PATH), ==, 1);

  /* A server without Diff: two merges and a local diff, the same diff;
   * the next comparison goes straight to the merges */
  embers_compare_page_set_source (old_page, EMBERS_SOURCE (old_pyro));
  compare_queries (old_page, CPU_TYPE, EU, CPU_TYPE, US, start, end);
  g_assert_null (embers_compare_page_get_error (old_page));
  g_assert_cmpint (embers_test_server_stat (old, "requests", DIFF_PATH), ==, 1);
  g_assert_cmpint (embers_test_server_stat (old, "requests", MERGE_PATH), ==, 2);
  {
    EmbersProfile *local = embers_compare_page_get_diff (old_page);

    g_assert_cmpint (embers_profile_get_total (local, 0), ==, embers_profile_get_total (server_diff, 0));
    g_assert_cmpint (embers_profile_get_total (local, 1), ==, embers_profile_get_total (server_diff, 1));
    g_assert_cmpuint (embers_profile_get_n_nodes (local), ==, embers_profile_get_n_nodes (server_diff));
  }
  compare_queries (old_page, CPU_TYPE, EU, CPU_TYPE, US, start, end);
  g_assert_null (embers_compare_page_get_error (old_page));
  g_assert_cmpint (embers_test_server_stat (old, "requests", DIFF_PATH), ==, 1);
  g_assert_cmpint (embers_test_server_stat (old, "requests", MERGE_PATH), ==, 4);
}

/* embers URL1 URL2: query URLs through the Pyroscope client (two on one
 * server by its Diff), a URL against a file, said in words when it fails */
static void
test_server_urls (void)
{
  const char *args[] = { NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersTestServer) server = embers_test_server_start (args, &error);
  g_autofree char *after = g_test_build_filename (G_TEST_DIST, "fixtures", "go", "cpu-after.pb.gz", NULL);
  g_autoptr(GFile) after_file = g_file_new_for_path (after);
  g_autoptr(GFile) eu = NULL;
  g_autoptr(GFile) us = NULL;
  g_autoptr(GFile) refused = NULL;
  GtkWidget *window = gtk_window_new ();
  EmbersComparePage *page = EMBERS_COMPARE_PAGE (embers_compare_page_new ());
  g_autofree char *expected = NULL;
  gint64 start, end;

  g_assert_no_error (error);
  server_range (&start, &end);
  eu = query_file (server, CPU_TYPE, EU, start, end);
  us = query_file (server, CPU_TYPE, US, start, end);
  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 800);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (page));
  gtk_window_present (GTK_WINDOW (window));

  g_free (embers_test_server_control (server, "DELETE", "embers-test/stats", NULL));
  embers_compare_page_set_files (page, eu, us);
  g_assert_true (embers_compare_page_get_busy (page));
  wait_compared (page);
  g_assert_null (embers_compare_page_get_error (page));
  g_assert_true (embers_profile_is_diff (embers_compare_page_get_diff (page)));
  g_assert_cmpint (embers_test_server_stat (server, "requests", DIFF_PATH), ==, 1);
  g_assert_cmpint (embers_test_server_stat (server, "requests", MERGE_PATH), ==, 0);
  /* Each side says which query, not "/" */
  expected = g_strdup_printf ("process_cpu:cpu " EU " on %s",
                              embers_test_server_get_url (server) + strlen ("http://"));
  expected[strlen (expected) - 1] = '\0';  /* the URL's trailing "/" */
  g_assert_cmpstr (embers_compare_page_get_file_label (page, FALSE), ==, expected);
  wait_shown (page);

  /* A URL against a file: the URL merged by the server, diffed here */
  embers_compare_page_set_files (page, eu, after_file);
  wait_compared (page);
  g_assert_null (embers_compare_page_get_error (page));
  g_assert_cmpint (embers_test_server_stat (server, "requests", DIFF_PATH), ==, 1);
  g_assert_cmpint (embers_test_server_stat (server, "requests", MERGE_PATH), ==, 1);
  g_assert_cmpstr (embers_compare_page_get_file_label (page, TRUE), ==, "cpu-after.pb.gz");
  wait_shown (page);

  /* Nobody there: an error that names the side */
  {
    g_autoptr(EmbersQuery) query = embers_query_new (CPU_TYPE, EU, start, end);
    g_autofree char *url = embers_query_url_build ("http://u:p@127.0.0.1:9/", query);

    refused = g_file_new_for_uri (url);
  }
  embers_compare_page_set_files (page, after_file, refused);
  wait_compared (page);
  g_assert_nonnull (embers_compare_page_get_error (page));
  g_assert_true (g_str_has_prefix (embers_compare_page_get_error (page), "Comparison: "));

  g_object_ref (page);
  gtk_window_destroy (GTK_WINDOW (window));
  embers_test_assert_finalize (page);
}

int
main (int   argc,
      char *argv[])
{
  embers_test_gtk_init (&argc, &argv);

  g_test_add_func ("/embers/compare/files", test_compare_files);
  g_test_add_func ("/embers/compare/series-chart-drag", test_series_chart_drag);
  g_test_add_func ("/embers/compare/presets", test_presets);
  g_test_add_func ("/embers/compare/mnemonics", test_mnemonics);
  g_test_add_func ("/embers/compare/sync", test_sync);
  g_test_add_func ("/embers/compare/on-screen", test_on_screen);
  g_test_add_func ("/embers/compare/file-vs-query", test_file_vs_query);
  g_test_add_func ("/embers/compare/sample-types", test_sample_types);
  g_test_add_func ("/embers/compare/queries", test_compare_queries);
  g_test_add_func ("/embers/compare/server-diff", test_server_diff);
  g_test_add_func ("/embers/compare/server-urls", test_server_urls);

  return g_test_run ();
}
