/* test-labels.c: the label explorer (under Xvfb)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A local source with one service whose 12 pods sit in 3 regions and run 2
 * versions (known values, so known totals), the Go CPU profile with
 * pprof.Labels from tests/fixtures/go, and the Pyroscope test server with
 * tests/fixtures/labels (region 3, pod 12, version 2, zone 6, node 6, team 1,
 * tier 1).
 */

#include "config.h"

#include <adwaita.h>
#include <json-glib/json-glib.h>
#include <libsoup/soup.h>

#include "embers-compare-page.h"
#include "embers-explore-page.h"
#include "embers-label-chart.h"
#include "embers-labels-page.h"
#include "embers-local-source.h"
#include "embers-profile-builder.h"
#include "embers-pyroscope-source.h"
#include "embers-test-server-spawn.h"
#include "embers-window.h"

#define CPU_TYPE "process_cpu:cpu:nanoseconds:cpu:nanoseconds"

static const char *regions[] = { "eu", "us", "ap" };

/* Data: pod i (0..11) in region i % 3, version 1.5.0 when i % 4 == 3;
 * six profiles each in the last hour, pod i's k-th worth 100 (i + 1) + 10 k
 * ns. Per pod: 600 (i + 1) + 150, so eu (pods 0 3 6 9) 13800, us 16200,
 * ap 18600. */

static EmbersProfile *
make_profile (gint64 time_ms,
              gint64 value)
{
  g_autoptr(EmbersProfileBuilder) b = embers_profile_builder_new ();
  g_autoptr(GError) error = NULL;
  guint32 frames[2];
  EmbersProfile *p;

  embers_profile_builder_add_sample_type (b, "cpu", "nanoseconds");
  embers_profile_builder_set_period (b, "cpu", "nanoseconds", 1);
  embers_profile_builder_set_time (b, time_ms * 1000000, 10000000000);
  frames[0] = embers_profile_builder_intern (b, "main", -1);
  frames[1] = embers_profile_builder_intern (b, value % 20 == 0 ? "work" : "wait", -1);
  embers_profile_builder_add_stack (b, frames, 2, &value, 0);
  p = embers_profile_builder_finish (b, &error);
  g_assert_no_error (error);
  return p;
}

static EmbersSource *
make_source (void)
{
  EmbersLocalSource *local = embers_local_source_new ();
  gint64 now_ms = g_get_real_time () / 1000;

  for (int i = 0; i < 12; i++)
    {
      g_autofree char *pod = g_strdup_printf ("shop-%02d", i);
      const char *labels[] = { "service_name", "shop", "region", regions[i % 3],
                               "pod", pod, "version", i % 4 == 3 ? "1.5.0" : "1.4.2", NULL };

      for (int k = 0; k < 6; k++)
        {
          g_autoptr(EmbersProfile) p = make_profile (now_ms - (50 - k * 8) * 60000, 100 * (i + 1) + 10 * k);

          embers_local_source_add_profile (local, pod, p, 0, labels);
        }
    }
  {
    g_autoptr(EmbersProfile) p = make_profile (now_ms - 10 * 60000, 5);
    const char *labels[] = { "service_name", "web", "region", "eu", NULL };

    embers_local_source_add_profile (local, "web", p, 0, labels);
  }
  return EMBERS_SOURCE (local);
}

/* Helpers */

static void
spin (guint ms)
{
  gint64 end = g_get_monotonic_time () + ms * 1000;

  while (g_get_monotonic_time () < end)
    {
      while (g_main_context_pending (NULL))
        g_main_context_iteration (NULL, FALSE);
      g_usleep (2000);
    }
}

static void
wait_explore (EmbersExplorePage *page)
{
  gint64 end = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;

  while (g_get_monotonic_time () < end &&
         (embers_explore_page_get_loading (page) ||
          embers_profile_page_get_busy (embers_explore_page_get_profile_page (page))))
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (embers_explore_page_get_loading (page));
  spin (20);
}

static void
wait_labels (EmbersLabelsPage *page)
{
  gint64 end = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;

  while (g_get_monotonic_time () < end && embers_labels_page_get_loading (page))
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (embers_labels_page_get_loading (page));
  spin (20);
}

static void
collect (GtkWidget *widget,
         GType      type,
         GPtrArray *out)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type) && gtk_widget_get_mapped (widget))
    g_ptr_array_add (out, widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    collect (child, type, out);
}

/* Mapped widgets of a type under root */
static GPtrArray *
find_all (GtkWidget *root,
          GType      type)
{
  GPtrArray *out = g_ptr_array_new ();

  collect (root, type, out);
  return out;
}

static GtkWidget *
find_one (GtkWidget *root,
          GType      type)
{
  g_autoptr(GPtrArray) all = find_all (root, type);

  return all->len > 0 ? g_ptr_array_index (all, all->len - 1) : NULL;
}

static const EmbersLabelValueStats *
stats_at (EmbersLabelsPage *page,
          guint             i)
{
  GPtrArray *stats = embers_labels_page_get_stats (page);

  g_assert_nonnull (stats);
  g_assert_cmpuint (i, <, stats->len);
  return g_ptr_array_index (stats, i);
}

static EmbersExplorePage *
open_explore (EmbersWindow *window,
              EmbersSource *source)
{
  EmbersExplorePage *explore = EMBERS_EXPLORE_PAGE (embers_window_open_explore (window, source, NULL));

  wait_explore (explore);
  g_assert_true (embers_explore_page_select_service (explore, "shop"));
  wait_explore (explore);
  return explore;
}

/* Tests */

static void
test_local_values (void)
{
  g_autoptr(EmbersSource) source = make_source ();
  EmbersWindow *window = embers_window_new (NULL);
  EmbersExplorePage *explore;
  EmbersLabelsPage *page;
  GListModel *names;
  const EmbersQuery *query;
  gint64 start, end;
  g_autoptr(GPtrArray) charts = NULL;

  gtk_window_set_default_size (GTK_WINDOW (window), 1300, 850);
  gtk_window_present (GTK_WINDOW (window));

  /* Before a service is picked there is nothing to break down */
  explore = EMBERS_EXPLORE_PAGE (embers_window_open_explore (window, source, NULL));
  wait_explore (explore);
  g_assert_null (embers_window_open_labels (window, explore));
  g_assert_true (embers_explore_page_select_service (explore, "shop"));
  wait_explore (explore);

  /* The explore page's Labels action opens the tab */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (explore), "explore.labels", NULL));
  page = EMBERS_LABELS_PAGE (find_one (GTK_WIDGET (window), EMBERS_TYPE_LABELS_PAGE));
  g_assert_nonnull (page);
  g_assert_true (embers_labels_page_get_explore_page (page) == explore);
  wait_labels (page);
  g_assert_null (embers_labels_page_get_error (page));
  g_assert_cmpstr (embers_labels_page_get_title (page), ==, "Labels — shop");

  query = embers_labels_page_get_query (page);
  embers_explore_page_get_time_range (explore, &start, &end);
  g_assert_cmpstr (query->profile_type, ==, CPU_TYPE);
  g_assert_cmpstr (query->label_selector, ==, "{service_name=\"shop\"}");
  g_assert_cmpint (query->start_ms, ==, start);
  g_assert_cmpint (query->end_ms, ==, end);

  /* Names without internals and service_name, with their cardinality */
  names = embers_labels_page_get_names (page);
  g_assert_cmpuint (g_list_model_get_n_items (names), ==, 3);
  for (guint i = 0; i < 3; i++)
    {
      g_autoptr(GtkStringObject) item = g_list_model_get_item (names, i);
      const char *name = gtk_string_object_get_string (item);

      g_assert_false (g_str_has_prefix (name, "__"));
      g_assert_cmpstr (name, !=, "service_name");
    }
  g_assert_cmpint (embers_labels_page_get_cardinality (page, "region"), ==, 3);
  g_assert_cmpint (embers_labels_page_get_cardinality (page, "pod"), ==, 12);
  g_assert_cmpint (embers_labels_page_get_cardinality (page, "version"), ==, 2);
  g_assert_cmpint (embers_labels_page_get_cardinality (page, "service_name"), ==, -1);

  /* region: sorted by total, with the right totals and shares */
  g_assert_false (embers_labels_page_select_label (page, "nope"));
  g_assert_true (embers_labels_page_select_label (page, "region"));
  wait_labels (page);
  g_assert_cmpstr (embers_labels_page_get_label (page), ==, "region");
  g_assert_cmpuint (embers_labels_page_get_stats (page)->len, ==, 3);
  g_assert_cmpstr (stats_at (page, 0)->value, ==, "ap");
  g_assert_cmpstr (stats_at (page, 1)->value, ==, "us");
  g_assert_cmpstr (stats_at (page, 2)->value, ==, "eu");
  g_assert_cmpfloat (stats_at (page, 0)->total, ==, 18600);
  g_assert_cmpfloat (stats_at (page, 1)->total, ==, 16200);
  g_assert_cmpfloat (stats_at (page, 2)->total, ==, 13800);
  g_assert_cmpfloat_with_epsilon (stats_at (page, 0)->share, 18600.0 / 48600.0, 1e-9);
  /* ap's largest step: its four pods' last profiles, 100 (3+6+9+12) + 4·50 */
  g_assert_cmpfloat (stats_at (page, 0)->max, ==, 3200);
  g_assert_cmpuint (embers_labels_page_get_n_cards (page), ==, 3);

  /* The four views: every card's chart follows, and says what it shows */
  charts = find_all (GTK_WIDGET (page), EMBERS_TYPE_LABEL_CHART);
  g_assert_cmpuint (charts->len, ==, 3);
  for (EmbersLabelsView v = EMBERS_LABELS_VIEW_SERIES; v <= EMBERS_LABELS_VIEW_HISTOGRAM; v++)
    {
      g_autofree char *summary = NULL;

      embers_labels_page_set_view (page, v);
      spin (30);
      g_assert_cmpint (embers_labels_page_get_view (page), ==, v);
      for (guint i = 0; i < charts->len; i++)
        g_assert_cmpint (embers_label_chart_get_view (g_ptr_array_index (charts, i)), ==, (EmbersLabelView)v);
      summary = embers_label_chart_dup_summary (g_ptr_array_index (charts, 0));
      g_assert_nonnull (strstr (summary, "ap"));
      if (v == EMBERS_LABELS_VIEW_TOTAL)
        g_assert_nonnull (strstr (summary, "38.3%"));
      if (v == EMBERS_LABELS_VIEW_HISTOGRAM)
        g_assert_nonnull (strstr (summary, "12 bins"));
      {
        GtkWidget *chart = g_ptr_array_index (charts, 0);
        int w = gtk_widget_get_width (chart), h = gtk_widget_get_height (chart);
        g_autofree char *hover = NULL;

        g_assert_cmpint (w, >, 100);
        /* Hovering the middle of a bar, or the plot, says something */
        for (int x = w / 8; hover == NULL && x < w; x += 4)
          for (int y = 4; hover == NULL && y < h; y += 4)
            hover = embers_label_chart_describe_at (EMBERS_LABEL_CHART (chart), x, y);
        g_assert_nonnull (hover);
      }
    }

  /* The table: each value's statistics, sortable */
  embers_labels_page_set_view (page, EMBERS_LABELS_VIEW_TABLE);
  spin (50);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (embers_labels_page_get_table (page))));
  g_assert_cmpstr (embers_labels_page_get_table_value (page, 0), ==, "ap");
  g_assert_cmpstr (embers_labels_page_get_table_value (page, 2), ==, "eu");
  {
    GtkColumnView *table = embers_labels_page_get_table (page);
    GListModel *columns = gtk_column_view_get_columns (table);
    g_autoptr(GtkColumnViewColumn) value_col = g_list_model_get_item (columns, 0);
    g_autoptr(GtkColumnViewColumn) total_col = g_list_model_get_item (columns, 1);
    g_autoptr(GtkColumnViewColumn) max_col = g_list_model_get_item (columns, 5);

    g_assert_cmpstr (gtk_column_view_column_get_title (max_col), ==, "Maximum");
    gtk_column_view_sort_by_column (table, total_col, GTK_SORT_ASCENDING);
    g_assert_cmpstr (embers_labels_page_get_table_value (page, 0), ==, "eu");
    gtk_column_view_sort_by_column (table, value_col, GTK_SORT_DESCENDING);
    g_assert_cmpstr (embers_labels_page_get_table_value (page, 0), ==, "us");
    gtk_column_view_sort_by_column (table, max_col, GTK_SORT_DESCENDING);
    g_assert_cmpstr (embers_labels_page_get_table_value (page, 0), ==, "ap");
  }
  embers_labels_page_set_view (page, EMBERS_LABELS_VIEW_SERIES);

  /* pod: top 8 by total, Show All for the other 4 */
  g_assert_true (embers_labels_page_select_label (page, "pod"));
  wait_labels (page);
  g_assert_cmpuint (embers_labels_page_get_stats (page)->len, ==, 12);
  g_assert_cmpstr (stats_at (page, 0)->value, ==, "shop-11");
  g_assert_cmpfloat (stats_at (page, 0)->total, ==, 600 * 12 + 150);
  g_assert_cmpstr (stats_at (page, 11)->value, ==, "shop-00");
  g_assert_cmpuint (embers_labels_page_get_n_cards (page), ==, 8);
  embers_labels_page_set_show_all (page, TRUE);
  g_assert_cmpuint (embers_labels_page_get_n_cards (page), ==, 12);

  /* version: 2 values */
  g_assert_true (embers_labels_page_select_label (page, "version"));
  wait_labels (page);
  g_assert_cmpuint (embers_labels_page_get_stats (page)->len, ==, 2);
  g_assert_cmpstr (stats_at (page, 0)->value, ==, "1.4.2");
  /* 1.5.0: pods 3, 7, 11 = 600 (4 + 8 + 12) + 3·150 */
  g_assert_cmpfloat (stats_at (page, 1)->total, ==, 600 * 24 + 450);

  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_local_actions (void)
{
  g_autoptr(EmbersSource) source = make_source ();
  EmbersWindow *window = embers_window_new (NULL);
  EmbersExplorePage *explore;
  EmbersLabelsPage *page;
  EmbersComparePage *compare;
  g_autofree char *selector = NULL;
  g_autofree char *baseline = NULL;
  g_autoptr(EmbersQuery) left = NULL;
  g_autoptr(EmbersQuery) right = NULL;
  guint n_pages;
  gint64 end;

  gtk_window_set_default_size (GTK_WINDOW (window), 1300, 850);
  gtk_window_present (GTK_WINDOW (window));
  explore = open_explore (window, source);
  page = EMBERS_LABELS_PAGE (embers_window_open_labels (window, explore));
  wait_labels (page);
  g_assert_true (embers_labels_page_select_label (page, "region"));
  wait_labels (page);

  /* Compare needs both marks */
  g_assert_false (embers_labels_page_get_can_compare (page));
  g_assert_false (embers_labels_page_compare (page));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "labels.mark-baseline", "s", "eu"));
  g_assert_false (embers_labels_page_get_can_compare (page));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "labels.mark-comparison", "s", "ap"));
  g_assert_true (embers_labels_page_get_can_compare (page));
  baseline = embers_labels_page_dup_baseline (page);
  g_assert_cmpstr (baseline, ==, "region=\"eu\"");

  /* Marked visibly: a tag in words and an outline on those cards */
  {
    g_autoptr(GPtrArray) cards = find_all (GTK_WIDGET (page), GTK_TYPE_BOX);
    guint n_baseline = 0, n_comparison = 0;

    for (guint i = 0; i < cards->len; i++)
      {
        GtkWidget *card = g_ptr_array_index (cards, i);
        GtkLabel *tag = g_object_get_data (G_OBJECT (card), "tag");

        if (gtk_widget_has_css_class (card, "labels-baseline"))
          {
            n_baseline++;
            g_assert_cmpstr (g_object_get_data (G_OBJECT (card), "value"), ==, "eu");
            g_assert_cmpstr (gtk_label_get_text (tag), ==, "Baseline");
            g_assert_true (gtk_widget_get_visible (GTK_WIDGET (tag)));
          }
        if (gtk_widget_has_css_class (card, "labels-comparison"))
          {
            n_comparison++;
            g_assert_cmpstr (gtk_label_get_text (tag), ==, "Comparison");
          }
      }
    g_assert_cmpuint (n_baseline, ==, 1);
    g_assert_cmpuint (n_comparison, ==, 1);
  }

  /* Compare: a compare tab with both label filters and the same range */
  n_pages = embers_window_get_n_pages (window);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "labels.compare", NULL));
  g_assert_cmpuint (embers_window_get_n_pages (window), ==, n_pages + 1);
  compare = EMBERS_COMPARE_PAGE (find_one (GTK_WIDGET (window), EMBERS_TYPE_COMPARE_PAGE));
  g_assert_nonnull (compare);
  g_assert_true (embers_compare_page_get_source (compare) == source);
  left = embers_compare_page_dup_query (compare, FALSE);
  right = embers_compare_page_dup_query (compare, TRUE);
  g_assert_nonnull (left);
  g_assert_nonnull (right);
  g_assert_cmpstr (left->label_selector, ==, "{service_name=\"shop\",region=\"eu\"}");
  g_assert_cmpstr (right->label_selector, ==, "{service_name=\"shop\",region=\"ap\"}");
  g_assert_cmpstr (left->profile_type, ==, CPU_TYPE);
  g_assert_cmpstr (right->profile_type, ==, CPU_TYPE);
  g_assert_cmpint (left->start_ms, ==, embers_labels_page_get_query (page)->start_ms);
  g_assert_cmpint (left->end_ms, ==, embers_labels_page_get_query (page)->end_ms);
  g_assert_cmpint (right->start_ms, ==, embers_labels_page_get_query (page)->start_ms);
  g_assert_cmpint (right->end_ms, ==, embers_labels_page_get_query (page)->end_ms);
  /* It runs; the diff has both sides' totals */
  end = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  while (g_get_monotonic_time () < end &&
         (embers_compare_page_get_busy (compare) || embers_compare_page_get_diff (compare) == NULL))
    g_main_context_iteration (NULL, TRUE);
  g_assert_null (embers_compare_page_get_error (compare));
  g_assert_nonnull (embers_compare_page_get_diff (compare));
  g_assert_cmpint (embers_profile_get_total (embers_compare_page_get_diff (compare), 0), ==, 13800);
  g_assert_cmpint (embers_profile_get_total (embers_compare_page_get_diff (compare), 1), ==, 18600);

  /* Marking the baseline value as comparison moves the mark */
  embers_labels_page_mark_comparison (page, "eu");
  g_assert_false (embers_labels_page_get_can_compare (page));
  g_assert_null (embers_labels_page_dup_baseline (page));
  embers_labels_page_mark_baseline (page, "us");

  /* Include as filter: on the explore page's filter bar, which shows */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "labels.include", "s", "eu"));
  selector = embers_explore_page_dup_selector (explore);
  g_assert_cmpstr (selector, ==, "{region=\"eu\",service_name=\"shop\"}");
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (explore)));
  wait_explore (explore);
  g_assert_cmpint (embers_profile_get_total (embers_profile_page_get_profile (embers_explore_page_get_profile_page (explore)), 0),
                   ==, 13800);

  /* Exclude replaces it */
  g_clear_pointer (&selector, g_free);
  g_assert_true (embers_labels_page_include_value (page, "us", TRUE, NULL));
  selector = embers_explore_page_dup_selector (explore);
  g_assert_cmpstr (selector, ==, "{region!=\"us\",service_name=\"shop\"}");
  wait_explore (explore);
  g_assert_cmpint (embers_profile_get_total (embers_profile_page_get_profile (embers_explore_page_get_profile_page (explore)), 0),
                   ==, 13800 + 18600);

  gtk_window_destroy (GTK_WINDOW (window));
}

/* A newer label cancels the older; an error shows in place and Retry works */

#define TEST_TYPE_FAILING_SOURCE (test_failing_source_get_type ())
G_DECLARE_FINAL_TYPE (TestFailingSource, test_failing_source, TEST, FAILING_SOURCE, GObject)

struct _TestFailingSource
{
  GObject       parent_instance;
  EmbersSource *inner;
  gboolean      fail;
  guint         n_select;
};

static void test_failing_source_iface_init (EmbersSourceInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TestFailingSource, test_failing_source, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (EMBERS_TYPE_SOURCE, test_failing_source_iface_init))

static void
failing_list_label_names (EmbersSource *source, const char * const *m, gint64 start_ms, gint64 end_ms,
                          GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
  embers_source_list_label_names (TEST_FAILING_SOURCE (source)->inner, m, start_ms, end_ms,
                                  cancellable, callback, user_data);
}

static void
failing_list_label_values (EmbersSource *source, const char *name, const char * const *m,
                           gint64 start_ms, gint64 end_ms, GCancellable *cancellable,
                           GAsyncReadyCallback callback, gpointer user_data)
{
  embers_source_list_label_values (TEST_FAILING_SOURCE (source)->inner, name, m, start_ms, end_ms,
                                   cancellable, callback, user_data);
}

static void
failing_select_series (EmbersSource *source, const EmbersQuery *query, const char * const *group_by,
                       double step_s, EmbersAggregation aggregation, gint64 limit,
                       GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
  TestFailingSource *self = TEST_FAILING_SOURCE (source);

  self->n_select++;
  if (self->fail)
    {
      g_task_report_new_error (self, callback, user_data, failing_select_series,
                               EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_UNAVAILABLE,
                               "unavailable: the server is not reachable (test)");
      return;
    }
  embers_source_select_series (self->inner, query, group_by, step_s, aggregation, limit,
                               cancellable, callback, user_data);
}

static GPtrArray *
failing_select_series_finish (EmbersSource *source, GAsyncResult *result, GError **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
test_failing_source_iface_init (EmbersSourceInterface *iface)
{
  iface->list_label_names = failing_list_label_names;
  iface->list_label_values = failing_list_label_values;
  iface->select_series = failing_select_series;
  iface->select_series_finish = failing_select_series_finish;
}

static void
test_failing_source_dispose (GObject *object)
{
  g_clear_object (&TEST_FAILING_SOURCE (object)->inner);
  G_OBJECT_CLASS (test_failing_source_parent_class)->dispose (object);
}

static void
test_failing_source_class_init (TestFailingSourceClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = test_failing_source_dispose;
}

static void
test_failing_source_init (TestFailingSource *self)
{
}

static void
test_error_retry (void)
{
  g_autoptr(TestFailingSource) source = g_object_new (TEST_TYPE_FAILING_SOURCE, NULL);
  gint64 now_ms = g_get_real_time () / 1000;
  g_autoptr(EmbersQuery) query = embers_query_new (CPU_TYPE, "{service_name=\"shop\"}", now_ms - 3600000, now_ms);
  EmbersLabelsPage *page;
  GtkWindow *window = GTK_WINDOW (gtk_window_new ());

  source->inner = make_source ();
  page = embers_labels_page_new (EMBERS_SOURCE (source), query, "shop");
  gtk_window_set_default_size (window, 1100, 700);
  gtk_window_set_child (window, GTK_WIDGET (page));
  gtk_window_present (window);
  wait_labels (page);

  /* Two labels in a row: only the newer one's answer is shown */
  g_assert_true (embers_labels_page_select_label (page, "pod"));
  g_assert_true (embers_labels_page_select_label (page, "region"));
  wait_labels (page);
  g_assert_cmpuint (source->n_select, ==, 2);
  g_assert_cmpuint (embers_labels_page_get_stats (page)->len, ==, 3);

  /* A failure shows in place; Retry loads again */
  source->fail = TRUE;
  g_assert_true (embers_labels_page_select_label (page, "version"));
  wait_labels (page);
  g_assert_nonnull (embers_labels_page_get_error (page));
  g_assert_nonnull (strstr (embers_labels_page_get_error (page), "not reachable"));
  g_assert_null (embers_labels_page_get_stats (page));
  source->fail = FALSE;
  embers_labels_page_retry (page);
  wait_labels (page);
  g_assert_null (embers_labels_page_get_error (page));
  g_assert_cmpuint (embers_labels_page_get_stats (page)->len, ==, 2);

  /* Include without an explore page says why */
  {
    g_autoptr(GError) error = NULL;

    g_assert_false (embers_labels_page_include_value (page, "1.4.2", FALSE, &error));
    g_assert_nonnull (error);
  }

  gtk_window_destroy (window);
}

/* The Go CPU profile with pprof.Labels: totals per value (go tool pprof -tags) */
static void
add_done (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  guint *n = user_data;
  g_autoptr(GError) error = NULL;

  *n = embers_local_source_add_file_finish (EMBERS_LOCAL_SOURCE (object), result, &error);
  g_assert_no_error (error);
}

static void
test_local_go_file (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fixtures", "go", "cpu-labels.pb.gz", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(EmbersLocalSource) local = embers_local_source_new ();
  g_autoptr(EmbersQuery) query = NULL;
  GtkWindow *window = GTK_WINDOW (gtk_window_new ());
  EmbersLabelsPage *page;
  gint64 start, end;
  guint n = 0;

  embers_local_source_add_file_async (local, file, NULL, add_done, &n);
  while (n == 0)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (n, ==, 1);
  embers_local_source_get_time_range (local, &start, &end);

  /* Sample type 0 is samples/count (as go tool pprof -tags shows) */
  query = embers_query_new ("process_cpu:samples:count:cpu:nanoseconds", "{service_name=\"cpu-labels\"}",
                            start - 60000, end + 60000);
  page = embers_labels_page_new (EMBERS_SOURCE (local), query, "cpu-labels");
  gtk_window_set_default_size (window, 1100, 700);
  gtk_window_set_child (window, GTK_WIDGET (page));
  gtk_window_present (window);
  wait_labels (page);
  g_assert_null (embers_labels_page_get_error (page));
  g_assert_cmpint (embers_labels_page_get_cardinality (page, "region"), ==, 2);
  g_assert_cmpint (embers_labels_page_get_cardinality (page, "endpoint"), ==, 2);

  g_assert_true (embers_labels_page_select_label (page, "region"));
  wait_labels (page);
  g_assert_null (embers_labels_page_get_error (page));
  g_assert_cmpstr (stats_at (page, 0)->value, ==, "us");
  g_assert_cmpfloat (stats_at (page, 0)->total, ==, 122);
  g_assert_cmpstr (stats_at (page, 1)->value, ==, "eu");
  g_assert_cmpfloat (stats_at (page, 1)->total, ==, 118);
  /* One profile: one point in time */
  g_assert_cmpuint (stats_at (page, 0)->series->n_points, ==, 1);

  /* cache: only some samples carry it; the rest have no value */
  g_assert_true (embers_labels_page_select_label (page, "cache"));
  wait_labels (page);
  g_assert_cmpstr (stats_at (page, 0)->value, ==, "");
  g_assert_cmpfloat (stats_at (page, 1)->total, ==, 64);
  g_assert_cmpstr (stats_at (page, 1)->value, ==, "miss");

  gtk_window_destroy (window);
}

/* A request to the test server's control paths (faults, stats); its body */
static char *
server_control (EmbersTestServer *server,
                const char       *method,
                const char       *path,
                const char       *json)
{
  g_autofree char *url = g_strconcat (embers_test_server_get_url (server), path, NULL);
  g_autoptr(SoupSession) session = soup_session_new ();
  g_autoptr(SoupMessage) msg = soup_message_new (method, url);
  g_autoptr(GBytes) body = NULL;
  g_autoptr(GError) error = NULL;

  if (json != NULL)
    {
      g_autoptr(GBytes) request = g_bytes_new (json, strlen (json));

      soup_message_set_request_body_from_bytes (msg, "application/json", request);
    }
  body = soup_session_send_and_read (session, msg, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (soup_message_get_status (msg), ==, 200);
  return g_strndup (g_bytes_get_data (body, NULL), g_bytes_get_size (body));
}

/* One figure of GET /embers-test/stats: @table is "requests" or "maxInFlight" */
static gint64
server_stat (EmbersTestServer *server,
             const char       *table,
             const char       *path)
{
  g_autofree char *text = server_control (server, "GET", "embers-test/stats", NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *o;

  json_parser_load_from_data (parser, text, -1, &error);
  g_assert_no_error (error);
  o = json_object_get_object_member (json_node_get_object (json_parser_get_root (parser)), table);
  return json_object_get_int_member_with_default (o, path, 0);
}

/* The Pyroscope test server with tests/fixtures/labels: store's 12 pods in
 * 3 regions, 2 versions; constant values (wave 0): 600 per step for 1.0.0,
 * 1000 for 1.1.0 (pods 7 and 10, in us-east-1) */

#define SERVER_NOW_MS G_GINT64_CONSTANT (1700000000000)

static void
test_server (void)
{
  g_autofree char *data = g_test_build_filename (G_TEST_DIST, "fixtures", "labels", NULL);
  const char *args[] = { "--now", "1700000000000", "--data", data, NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersTestServer) server = embers_test_server_start (args, &error);
  g_autoptr(EmbersConnectClient) client = NULL;
  g_autoptr(EmbersPyroscopeSource) source = NULL;
  g_autoptr(EmbersQuery) left = NULL;
  g_autoptr(EmbersQuery) right = NULL;
  EmbersWindow *window;
  EmbersExplorePage *explore;
  EmbersLabelsPage *page;
  EmbersComparePage *compare;
  double step;

  g_assert_no_error (error);
  client = embers_connect_client_new (embers_test_server_get_url (server), &error);
  g_assert_no_error (error);
  source = embers_pyroscope_source_new (client);

  window = embers_window_new (NULL);
  gtk_window_set_default_size (GTK_WINDOW (window), 1300, 850);
  gtk_window_present (GTK_WINDOW (window));
  explore = EMBERS_EXPLORE_PAGE (embers_window_open_explore (window, EMBERS_SOURCE (source), NULL));
  /* The last 10 minutes before --now: 40 profiles of 15 s per series */
  embers_explore_page_set_time_range (explore, SERVER_NOW_MS - 600000, SERVER_NOW_MS);
  wait_explore (explore);
  g_assert_true (embers_explore_page_select_service (explore, "store"));
  wait_explore (explore);
  g_assert_null (embers_explore_page_get_error (explore));

  /* Slow answers: the page asks for its 8 labels' values a few at a time */
  g_free (server_control (server, "DELETE", "embers-test/stats", NULL));
  g_free (server_control (server, "POST", "embers-test/faults", "{\"delay_ms\":50}"));
  page = EMBERS_LABELS_PAGE (embers_window_open_labels (window, explore));
  g_assert_nonnull (page);
  wait_labels (page);
  g_free (server_control (server, "DELETE", "embers-test/faults", NULL));
  g_assert_null (embers_labels_page_get_error (page));
  g_assert_cmpint (server_stat (server, "requests", "/querier.v1.QuerierService/LabelValues"), >=, 8);
  g_assert_cmpint (server_stat (server, "maxInFlight", "/querier.v1.QuerierService/LabelValues"), <=, 4);
  g_assert_cmpint (server_stat (server, "maxInFlight", "/querier.v1.QuerierService/LabelValues"), >=, 2);
  g_assert_cmpint (embers_labels_page_get_cardinality (page, "zone"), ==, 6);
  g_assert_cmpint (embers_labels_page_get_cardinality (page, "node"), ==, 6);
  g_assert_cmpint (embers_labels_page_get_cardinality (page, "tier"), ==, 1);
  g_assert_cmpint (embers_labels_page_get_cardinality (page, "region"), ==, 3);
  g_assert_cmpint (embers_labels_page_get_cardinality (page, "pod"), ==, 12);
  g_assert_cmpint (embers_labels_page_get_cardinality (page, "version"), ==, 2);
  /* pyroscope_spy is a label like any other; __*__ and service_name are not shown */
  g_assert_cmpint (embers_labels_page_get_cardinality (page, "service_name"), ==, -1);
  g_assert_cmpint (embers_labels_page_get_cardinality (page, "__profile_type__"), ==, -1);

  g_assert_true (embers_labels_page_select_label (page, "region"));
  wait_labels (page);
  g_assert_null (embers_labels_page_get_error (page));
  g_assert_cmpuint (embers_labels_page_get_stats (page)->len, ==, 3);
  /* us-east-1: 2 × 600 + 2 × 1000 per step; the others 4 × 600 (a tie, by name) */
  g_assert_cmpstr (stats_at (page, 0)->value, ==, "us-east-1");
  g_assert_cmpstr (stats_at (page, 1)->value, ==, "ap-south-1");
  g_assert_cmpstr (stats_at (page, 2)->value, ==, "eu-west-1");
  step = stats_at (page, 1)->total / 2400.0;
  g_assert_cmpfloat (step, >, 0);
  g_assert_cmpfloat_with_epsilon (stats_at (page, 0)->total, 3200.0 * step, 1e-6 * stats_at (page, 0)->total);
  g_assert_cmpfloat_with_epsilon (stats_at (page, 2)->total, 2400.0 * step, 1e-6 * stats_at (page, 2)->total);
  g_assert_cmpfloat_with_epsilon (stats_at (page, 0)->share, 3200.0 / 8000.0, 1e-9);

  g_assert_true (embers_labels_page_select_label (page, "pod"));
  wait_labels (page);
  g_assert_cmpuint (embers_labels_page_get_stats (page)->len, ==, 12);
  g_assert_cmpuint (embers_labels_page_get_n_cards (page), ==, 8);
  g_assert_cmpstr (stats_at (page, 0)->value, ==, "store-07");
  g_assert_cmpstr (stats_at (page, 1)->value, ==, "store-10");

  g_assert_true (embers_labels_page_select_label (page, "version"));
  wait_labels (page);
  g_assert_cmpstr (stats_at (page, 0)->value, ==, "1.0.0");
  g_assert_cmpstr (stats_at (page, 1)->value, ==, "1.1.0");
  embers_labels_page_mark_baseline (page, "1.0.0");
  embers_labels_page_mark_comparison (page, "1.1.0");
  g_assert_true (embers_labels_page_compare (page));
  compare = EMBERS_COMPARE_PAGE (find_one (GTK_WIDGET (window), EMBERS_TYPE_COMPARE_PAGE));
  g_assert_nonnull (compare);
  left = embers_compare_page_dup_query (compare, FALSE);
  right = embers_compare_page_dup_query (compare, TRUE);
  g_assert_cmpstr (left->label_selector, ==, "{service_name=\"store\",version=\"1.0.0\"}");
  g_assert_cmpstr (right->label_selector, ==, "{service_name=\"store\",version=\"1.1.0\"}");
  g_assert_cmpint (left->start_ms, ==, SERVER_NOW_MS - 600000);
  g_assert_cmpint (right->end_ms, ==, SERVER_NOW_MS);
  {
    gint64 until = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;

    while (g_get_monotonic_time () < until &&
           (embers_compare_page_get_busy (compare) || embers_compare_page_get_diff (compare) == NULL))
      g_main_context_iteration (NULL, TRUE);
  }
  g_assert_null (embers_compare_page_get_error (compare));
  g_assert_nonnull (embers_compare_page_get_diff (compare));

  gtk_window_destroy (GTK_WINDOW (window));
}

/* Not a test: EMBERS_LABELS_SHOT=VIEW keeps a window up for screenshots */
static int
run_shot (const char *view)
{
  g_autoptr(EmbersSource) source = make_source ();
  EmbersWindow *window = embers_window_new (NULL);
  EmbersExplorePage *explore;
  EmbersLabelsPage *page;
  gint64 until;

  if (g_getenv ("EMBERS_LABELS_DARK") != NULL)
    adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_DARK);
  gtk_window_set_default_size (GTK_WINDOW (window), 1400, 900);
  gtk_window_present (GTK_WINDOW (window));
  explore = open_explore (window, source);
  page = EMBERS_LABELS_PAGE (embers_window_open_labels (window, explore));
  wait_labels (page);
  embers_labels_page_select_label (page, g_getenv ("EMBERS_LABELS_LABEL") ? g_getenv ("EMBERS_LABELS_LABEL") : "region");
  wait_labels (page);
  if (g_strcmp0 (embers_labels_page_get_label (page), "region") == 0)
    {
      embers_labels_page_mark_baseline (page, "eu");
      embers_labels_page_mark_comparison (page, "ap");
    }
  if (g_str_equal (view, "total"))
    embers_labels_page_set_view (page, EMBERS_LABELS_VIEW_TOTAL);
  else if (g_str_equal (view, "maximum"))
    embers_labels_page_set_view (page, EMBERS_LABELS_VIEW_MAXIMUM);
  else if (g_str_equal (view, "histogram"))
    embers_labels_page_set_view (page, EMBERS_LABELS_VIEW_HISTOGRAM);
  else if (g_str_equal (view, "table"))
    embers_labels_page_set_view (page, EMBERS_LABELS_VIEW_TABLE);
  else if (g_str_equal (view, "compare"))
    embers_labels_page_compare (page);
  else if (g_str_equal (view, "explore"))
    {
      AdwTabView *tabs = ADW_TAB_VIEW (gtk_widget_get_ancestor (GTK_WIDGET (explore), ADW_TYPE_TAB_VIEW));

      adw_tab_view_set_selected_page (tabs, adw_tab_view_get_page (tabs, GTK_WIDGET (explore)));
    }
  until = g_get_monotonic_time () + 6 * G_USEC_PER_SEC;
  while (g_get_monotonic_time () < until)
    g_main_context_iteration (NULL, FALSE);
  gtk_window_destroy (GTK_WINDOW (window));
  return 0;
}

/* A label with thousands of values (pods): Show All stops at
 * EMBERS_LABELS_MAX_CARDS cards and says the table lists the rest; the
 * statistics cover every value */
static void
test_high_cardinality (void)
{
  EmbersLocalSource *local = embers_local_source_new ();
  g_autoptr(EmbersSource) source = EMBERS_SOURCE (local);
  EmbersWindow *window = embers_window_new (NULL);
  gint64 now_ms = g_get_real_time () / 1000;
  EmbersExplorePage *explore;
  EmbersLabelsPage *page;
  guint n_pods = g_getenv ("EMBERS_PODS") ? atoi (g_getenv ("EMBERS_PODS")) : 2000;
  gint64 t0;

  for (guint i = 0; i < n_pods; i++)
    {
      g_autofree char *pod = g_strdup_printf ("shop-%04u", i);
      const char *labels[] = { "service_name", "shop", "pod", pod, NULL };
      g_autoptr(EmbersProfile) p = make_profile (now_ms - (i % 50 + 1) * 60000, 10 + i);

      embers_local_source_add_profile (local, pod, p, 0, labels);
    }

  gtk_window_set_default_size (GTK_WINDOW (window), 1300, 850);
  gtk_window_present (GTK_WINDOW (window));
  t0 = g_get_monotonic_time ();
  explore = open_explore (window, source);
  g_test_message ("explore: %.1f ms", (g_get_monotonic_time () - t0) / 1000.0);
  t0 = g_get_monotonic_time ();
  page = EMBERS_LABELS_PAGE (embers_window_open_labels (window, explore));
  g_assert_nonnull (page);
  wait_labels (page);
  g_test_message ("labels page: %.1f ms", (g_get_monotonic_time () - t0) / 1000.0);
  g_assert_cmpint (embers_labels_page_get_cardinality (page, "pod"), ==, n_pods);

  t0 = g_get_monotonic_time ();
  g_assert_true (embers_labels_page_select_label (page, "pod"));
  wait_labels (page);
  g_test_message ("select pod: %.1f ms", (g_get_monotonic_time () - t0) / 1000.0);
  g_assert_cmpuint (embers_labels_page_get_stats (page)->len, ==, n_pods);
  g_assert_cmpuint (embers_labels_page_get_n_cards (page), ==, EMBERS_LABEL_STATS_DEFAULT_TOP);
  /* Sorted by total: the heaviest pod first */
  {
    g_autofree char *heaviest = g_strdup_printf ("shop-%04u", n_pods - 1);

    g_assert_cmpstr (stats_at (page, 0)->value, ==, heaviest);
  }

  t0 = g_get_monotonic_time ();
  embers_labels_page_set_show_all (page, TRUE);
  spin (30);
  g_test_message ("Show All with %u values: %.1f ms", n_pods, (g_get_monotonic_time () - t0) / 1000.0);
  g_assert_cmpuint (embers_labels_page_get_n_cards (page), ==, EMBERS_LABELS_MAX_CARDS);

  t0 = g_get_monotonic_time ();
  embers_labels_page_set_view (page, EMBERS_LABELS_VIEW_TABLE);
  spin (30);
  g_test_message ("Table with %u values: %.1f ms", n_pods, (g_get_monotonic_time () - t0) / 1000.0);
  g_assert_cmpint (embers_labels_page_get_view (page), ==, EMBERS_LABELS_VIEW_TABLE);

  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  if (g_getenv ("EMBERS_LABELS_SHOT") != NULL)
    {
      gtk_init ();
      adw_init ();
      return run_shot (g_getenv ("EMBERS_LABELS_SHOT"));
    }

  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add_func ("/embers/labels/local-values", test_local_values);
  g_test_add_func ("/embers/labels/local-actions", test_local_actions);
  g_test_add_func ("/embers/labels/error-retry", test_error_retry);
  g_test_add_func ("/embers/labels/local-go-file", test_local_go_file);
  g_test_add_func ("/embers/labels/server", test_server);
  g_test_add_func ("/embers/labels/high-cardinality", test_high_cardinality);

  return g_test_run ();
}
