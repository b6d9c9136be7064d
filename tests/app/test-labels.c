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
#include "embers-test-gtk-utils.h"
#include "embers-test-utils.h"

#define CPU_TYPE "process_cpu:cpu:nanoseconds:cpu:nanoseconds"

static const char *regions[] = { "eu", "us", "ap" };

/* Data: pod i (0..11) in region i % 3, version 1.5.0 when i % 4 == 3;
 * six profiles each in the last hour, pod i's k-th worth 100 (i + 1) + 10 k
 * ns, and 500 more for k = 3 in ap (a spike: the regions differ in shape).
 * Per pod: 600 (i + 1) + 150 (+ 500 in ap), so eu (pods 0 3 6 9) 13800,
 * us 16200, ap 18600 + 4 × 500 = 20600. */

/* A profile of main → work (values that are multiples of 20) or wait */
static EmbersProfile *
make_profile (gint64 time_ms,
              gint64 value)
{
  return embers_test_cpu_profile (time_ms, value % 20 == 0 ? "work" : "wait", value);
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
          gint64 spike = i % 3 == 2 && k == 3 ? 500 : 0;
          g_autoptr(EmbersProfile) p = make_profile (now_ms - (50 - k * 8) * 60000, 100 * (i + 1) + 10 * k + spike);

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

static gboolean
explore_idle (gpointer data)
{
  return !embers_explore_page_get_loading (data) &&
         !embers_profile_page_get_busy (embers_explore_page_get_profile_page (data));
}

static void
wait_explore (EmbersExplorePage *page)
{
  embers_test_wait_until (explore_idle, page, "the explore page to load");
  embers_test_settle ();
}

static gboolean
labels_idle (gpointer data)
{
  return !embers_labels_page_get_loading (data);
}

static void
wait_labels (EmbersLabelsPage *page)
{
  embers_test_wait_until (labels_idle, page, "the labels page to load");
  embers_test_settle ();
}

/* The comparison has run and has its diff */
static gboolean
compared (gpointer data)
{
  return !embers_compare_page_get_busy (data) && embers_compare_page_get_diff (data) != NULL;
}

static gboolean
clock_past (gpointer data)
{
  return g_get_real_time () / 1000 >= *(gint64 *)data;
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

/* The button whose label is @label, shown or not (the view buttons give
 * way to a drop-down when narrow) */
static GtkWidget *
find_button_in (GtkWidget  *widget,
                const char *label)
{
  if (GTK_IS_BUTTON (widget) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), label) == 0)
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_button_in (child, label);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static GtkWidget *
find_button (GtkWidget  *root,
             const char *label)
{
  GtkWidget *button = find_button_in (root, label);

  g_assert_nonnull (button);
  return button;
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

/* The explore page's flame graph total once it has loaded */
static gint64
explore_total (EmbersExplorePage *explore)
{
  wait_explore (explore);
  return embers_profile_get_total (embers_profile_page_get_profile (embers_explore_page_get_profile_page (explore)), 0);
}

static void
assert_selector (EmbersExplorePage *explore,
                 const char        *want)
{
  g_autofree char *selector = embers_explore_page_dup_selector (explore);

  g_assert_cmpstr (selector, ==, want);
}

/* Whether a menu (or one of its sections) has an item for @action */
static gboolean
menu_has_action (GMenuModel *menu,
                 const char *action)
{
  if (menu == NULL)
    return FALSE;
  for (int i = 0; i < g_menu_model_get_n_items (menu); i++)
    {
      g_autofree char *name = NULL;
      g_autoptr(GMenuModel) section = g_menu_model_get_item_link (menu, i, G_MENU_LINK_SECTION);

      if (g_menu_model_get_item_attribute (menu, i, G_MENU_ATTRIBUTE_ACTION, "s", &name) &&
          g_str_equal (name, action))
        return TRUE;
      if (section != NULL && menu_has_action (section, action))
        return TRUE;
    }
  return FALSE;
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
  g_assert_cmpfloat (stats_at (page, 0)->total, ==, 20600);
  g_assert_cmpfloat (stats_at (page, 1)->total, ==, 16200);
  g_assert_cmpfloat (stats_at (page, 2)->total, ==, 13800);
  g_assert_cmpfloat_with_epsilon (stats_at (page, 0)->share, 20600.0 / 50600.0, 1e-9);
  /* ap's largest step: its spike, four pods' k = 3 profiles,
   * 100 (3 + 6 + 9 + 12) + 4 · 30 + 4 · 500; us's: its last, 100 (2 + 5 + 8 + 11) + 4 · 50 */
  g_assert_cmpfloat (stats_at (page, 0)->max, ==, 5120);
  g_assert_cmpfloat (stats_at (page, 1)->max, ==, 2800);
  /* Six steps with data (one per profile time) of the hour's sixty 60 s
   * steps (T - 60 s, T], T = end - k · 60 s; us averages 16200 / 6 over
   * them */
  g_assert_cmpuint (stats_at (page, 1)->n_data_steps, ==, 6);
  g_assert_cmpuint (stats_at (page, 1)->n_steps, ==, 60);
  g_assert_cmpfloat_with_epsilon (stats_at (page, 1)->mean, 16200.0 / 6, 1e-9);
  g_assert_true (embers_labels_page_get_has_time (page));
  g_assert_cmpuint (embers_labels_page_get_n_cards (page), ==, 3);
  g_assert_cmpstr (embers_labels_page_get_heading (page), ==, "region: 3 values, by total");

  /* The four views: every card's chart follows, and says what it shows */
  charts = find_all (GTK_WIDGET (page), EMBERS_TYPE_LABEL_CHART);
  g_assert_cmpuint (charts->len, ==, 3);
  for (EmbersLabelsView v = EMBERS_LABELS_VIEW_SERIES; v <= EMBERS_LABELS_VIEW_HISTOGRAM; v++)
    {
      g_autofree char *summary = NULL;

      embers_labels_page_set_view (page, v);
      embers_test_settle ();
      g_assert_cmpint (embers_labels_page_get_view (page), ==, v);
      for (guint i = 0; i < charts->len; i++)
        g_assert_cmpint (embers_label_chart_get_view (g_ptr_array_index (charts, i)), ==, (EmbersLabelView)v);
      summary = embers_label_chart_dup_summary (g_ptr_array_index (charts, 0));
      g_assert_nonnull (strstr (summary, "ap"));
      if (v == EMBERS_LABELS_VIEW_TOTAL)
        g_assert_nonnull (strstr (summary, "40.7%"));
      if (v == EMBERS_LABELS_VIEW_MAXIMUM)
        g_assert_nonnull (strstr (summary, "over the 6 steps with data"));
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
  embers_test_settle ();
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
    /* The heading says how the table is sorted */
    g_assert_cmpstr (embers_labels_page_get_heading (page), ==, "region: 3 values, by Total, largest first");
    gtk_column_view_sort_by_column (table, total_col, GTK_SORT_ASCENDING);
    g_assert_cmpstr (embers_labels_page_get_table_value (page, 0), ==, "eu");
    g_assert_cmpstr (embers_labels_page_get_heading (page), ==, "region: 3 values, by Total, smallest first");
    gtk_column_view_sort_by_column (table, value_col, GTK_SORT_DESCENDING);
    g_assert_cmpstr (embers_labels_page_get_table_value (page, 0), ==, "us");
    g_assert_cmpstr (embers_labels_page_get_heading (page), ==, "region: 3 values, by name, Z to A");
    gtk_column_view_sort_by_column (table, max_col, GTK_SORT_DESCENDING);
    g_assert_cmpstr (embers_labels_page_get_table_value (page, 0), ==, "ap");
    g_assert_cmpstr (embers_labels_page_get_heading (page), ==, "region: 3 values, by Maximum, largest first");
    /* The average is of the steps with data, and says so */
    {
      g_autoptr(GtkColumnViewColumn) mean_col = g_list_model_get_item (columns, 3);
      g_autoptr(GtkColumnViewColumn) steps_col = g_list_model_get_item (columns, 6);

      g_assert_cmpstr (gtk_column_view_column_get_title (mean_col), ==, "Average per Step with Data");
      g_assert_cmpstr (gtk_column_view_column_get_title (steps_col), ==, "Steps with Data");
      g_assert_true (gtk_column_view_column_get_visible (mean_col));
    }
    /* Show All has nothing to do in the table */
    g_assert_false (gtk_widget_get_sensitive (find_button (GTK_WIDGET (page), "Show A_ll")));
  }
  embers_labels_page_set_view (page, EMBERS_LABELS_VIEW_SERIES);
  g_assert_cmpstr (embers_labels_page_get_heading (page), ==, "region: 3 values, by total");

  /* pod: top 8 by total, Show All for the other 4 */
  g_assert_true (embers_labels_page_select_label (page, "pod"));
  wait_labels (page);
  g_assert_cmpuint (embers_labels_page_get_stats (page)->len, ==, 12);
  g_assert_cmpstr (stats_at (page, 0)->value, ==, "shop-11");
  g_assert_cmpfloat (stats_at (page, 0)->total, ==, 600 * 12 + 150 + 500);
  g_assert_cmpstr (stats_at (page, 11)->value, ==, "shop-00");
  g_assert_cmpuint (embers_labels_page_get_n_cards (page), ==, 8);
  g_assert_true (gtk_widget_get_sensitive (find_button (GTK_WIDGET (page), "Show A_ll")));
  embers_labels_page_set_show_all (page, TRUE);
  /* The cards after the first few are built at idle */
  wait_labels (page);
  g_assert_cmpuint (embers_labels_page_get_n_cards (page), ==, 12);

  /* version: 2 values */
  g_assert_true (embers_labels_page_select_label (page, "version"));
  wait_labels (page);
  g_assert_cmpuint (embers_labels_page_get_stats (page)->len, ==, 2);
  g_assert_cmpstr (stats_at (page, 0)->value, ==, "1.4.2");
  /* 1.5.0: pods 3, 7, 11 = 600 (4 + 8 + 12) + 3·150, and pod 11's spike (ap) */
  g_assert_cmpfloat (stats_at (page, 1)->total, ==, 600 * 24 + 450 + 500);

  /* Refresh: "the last hour" (the explore page's preset) is the last hour now */
  {
    gint64 old_end = embers_labels_page_get_query (page)->end_ms;
    gint64 later = old_end + 1000;

    /* (the condition itself: the clock has moved on by a second) */
    embers_test_wait_until (clock_past, &later, "the clock to move on by a second");
    embers_labels_page_refresh (page);
    wait_labels (page);
    g_assert_cmpint (embers_labels_page_get_query (page)->end_ms, >=, old_end + 1000);
    g_assert_cmpint (embers_labels_page_get_query (page)->end_ms - embers_labels_page_get_query (page)->start_ms,
                     ==, 3600000);
    g_assert_cmpstr (embers_labels_page_get_label (page), ==, "version");
    g_assert_cmpuint (embers_labels_page_get_stats (page)->len, ==, 2);
  }

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

  /* A screen reader hears each card (the focusable flow box child) by its
   * value, total, share and mark, and each chart by its value */
  {
    g_autoptr(GPtrArray) children = find_all (GTK_WIDGET (page), GTK_TYPE_FLOW_BOX_CHILD);
    g_autoptr(GPtrArray) charts = find_all (GTK_WIDGET (page), EMBERS_TYPE_LABEL_CHART);
    guint checked = 0;

    g_assert_cmpuint (children->len, ==, 3);
    for (guint i = 0; i < children->len; i++)
      {
        GtkWidget *card = gtk_flow_box_child_get_child (children->pdata[i]);
        const char *value = g_object_get_data (G_OBJECT (card), "value");
        g_autofree char *mismatch = NULL;

        if (g_strcmp0 (value, "eu") == 0)
          mismatch = gtk_test_accessible_check_property (children->pdata[i], GTK_ACCESSIBLE_PROPERTY_LABEL,
                                                         "region eu: 13.80 µs, 27.3%, baseline");
        else if (g_strcmp0 (value, "ap") == 0)
          mismatch = gtk_test_accessible_check_property (children->pdata[i], GTK_ACCESSIBLE_PROPERTY_LABEL,
                                                         "region ap: 20.60 µs, 40.7%, comparison");
        else
          mismatch = gtk_test_accessible_check_property (children->pdata[i], GTK_ACCESSIBLE_PROPERTY_LABEL,
                                                         "region us: 16.20 µs, 32.0%");
        g_assert_null (mismatch);
        checked++;
      }
    g_assert_cmpuint (checked, ==, 3);
    for (guint i = 0; i < charts->len; i++)
      {
        g_autofree char *a = gtk_test_accessible_check_property (charts->pdata[i], GTK_ACCESSIBLE_PROPERTY_LABEL,
                                                                 "Chart of region ap");
        g_autofree char *b = gtk_test_accessible_check_property (charts->pdata[i], GTK_ACCESSIBLE_PROPERTY_LABEL,
                                                                 "Chart of region us");
        g_autofree char *c = gtk_test_accessible_check_property (charts->pdata[i], GTK_ACCESSIBLE_PROPERTY_LABEL,
                                                                 "Chart of region eu");

        g_assert_true (a == NULL || b == NULL || c == NULL);
      }
  }

  /* Compare: the Compare view of the same tab, with both label filters
   * and the same range */
  n_pages = embers_window_get_n_pages (window);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "labels.compare", NULL));
  g_assert_cmpuint (embers_window_get_n_pages (window), ==, n_pages);
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
  embers_test_wait_until (compared, compare, "the comparison's diff");
  g_assert_null (embers_compare_page_get_error (compare));
  g_assert_nonnull (embers_compare_page_get_diff (compare));
  g_assert_cmpint (embers_profile_get_total (embers_compare_page_get_diff (compare), 0), ==, 13800);
  g_assert_cmpint (embers_profile_get_total (embers_compare_page_get_diff (compare), 1), ==, 20600);

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
  g_assert_cmpint (explore_total (explore), ==, 13800);

  /* A second include keeps both: either value */
  g_assert_true (embers_labels_page_include_value (page, "us", FALSE, NULL));
  assert_selector (explore, "{region=~\"eu|us\",service_name=\"shop\"}");
  g_assert_cmpint (explore_total (explore), ==, 13800 + 16200);
  /* Excluding one of them leaves the other */
  g_assert_true (embers_labels_page_include_value (page, "eu", TRUE, NULL));
  assert_selector (explore, "{region=\"us\",service_name=\"shop\"}");
  g_assert_cmpint (explore_total (explore), ==, 16200);

  /* Excludes stack: neither eu nor us */
  embers_explore_page_remove_filter (explore, "region");
  g_assert_true (embers_labels_page_include_value (page, "eu", TRUE, NULL));
  assert_selector (explore, "{region!=\"eu\",service_name=\"shop\"}");
  g_assert_cmpint (explore_total (explore), ==, 16200 + 20600);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "labels.exclude", "s", "us"));
  assert_selector (explore, "{region!~\"eu|us\",service_name=\"shop\"}");
  g_assert_cmpint (explore_total (explore), ==, 20600);

  gtk_window_destroy (GTK_WINDOW (window));
}

/* Two clicks to a comparison: a value's ⋮ menu compares it with the
 * baseline once one is marked, or with the rest of the values */
static void
test_compare_shortcuts (void)
{
  g_autoptr(EmbersSource) source = make_source ();
  EmbersWindow *window = embers_window_new (NULL);
  EmbersExplorePage *explore;
  EmbersLabelsPage *page;
  EmbersComparePage *compare;
  g_autoptr(EmbersQuery) left = NULL;
  g_autoptr(EmbersQuery) right = NULL;
  GtkMenuButton *us_menu = NULL;
  guint n_pages;

  gtk_window_set_default_size (GTK_WINDOW (window), 1300, 850);
  gtk_window_present (GTK_WINDOW (window));
  explore = open_explore (window, source);
  page = EMBERS_LABELS_PAGE (embers_window_open_labels (window, explore));
  wait_labels (page);
  g_assert_true (embers_labels_page_select_label (page, "region"));
  wait_labels (page);

  {
    g_autoptr(GPtrArray) buttons = find_all (GTK_WIDGET (page), GTK_TYPE_MENU_BUTTON);

    for (guint i = 0; i < buttons->len; i++)
      if (g_strcmp0 (g_object_get_data (G_OBJECT (buttons->pdata[i]), "value"), "us") == 0)
        us_menu = buttons->pdata[i];
  }
  g_assert_nonnull (us_menu);

  /* Without a baseline: compare with the rest only */
  gtk_menu_button_popup (us_menu);
  embers_test_settle ();
  g_assert_true (menu_has_action (gtk_menu_button_get_menu_model (us_menu), "labels.include"));
  g_assert_true (menu_has_action (gtk_menu_button_get_menu_model (us_menu), "labels.exclude"));
  g_assert_true (menu_has_action (gtk_menu_button_get_menu_model (us_menu), "labels.mark-baseline"));
  g_assert_true (menu_has_action (gtk_menu_button_get_menu_model (us_menu), "labels.mark-comparison"));
  g_assert_true (menu_has_action (gtk_menu_button_get_menu_model (us_menu), "labels.compare-with-rest"));
  g_assert_false (menu_has_action (gtk_menu_button_get_menu_model (us_menu), "labels.compare-with-baseline"));
  gtk_menu_button_popdown (us_menu);
  g_assert_false (embers_labels_page_compare_with_baseline (page, "us"));

  /* Click one: the baseline; the next value's menu offers the comparison */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "labels.mark-baseline", "s", "eu"));
  gtk_menu_button_popup (us_menu);
  embers_test_settle ();
  g_assert_true (menu_has_action (gtk_menu_button_get_menu_model (us_menu), "labels.compare-with-baseline"));
  gtk_menu_button_popdown (us_menu);

  /* Click two: the comparison opens, eu against us, over the same range */
  n_pages = embers_window_get_n_pages (window);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "labels.compare-with-baseline", "s", "us"));
  g_assert_cmpuint (embers_window_get_n_pages (window), ==, n_pages);
  compare = EMBERS_COMPARE_PAGE (find_one (GTK_WIDGET (window), EMBERS_TYPE_COMPARE_PAGE));
  left = embers_compare_page_dup_query (compare, FALSE);
  right = embers_compare_page_dup_query (compare, TRUE);
  g_assert_cmpstr (left->label_selector, ==, "{service_name=\"shop\",region=\"eu\"}");
  g_assert_cmpstr (right->label_selector, ==, "{service_name=\"shop\",region=\"us\"}");
  g_assert_cmpint (right->start_ms, ==, embers_labels_page_get_query (page)->start_ms);
  {
    g_autofree char *comparison = embers_labels_page_dup_comparison (page);

    g_assert_cmpstr (comparison, ==, "region=\"us\"");
  }
  /* The baseline's own menu does not offer it */
  g_assert_false (embers_labels_page_compare_with_baseline (page, "eu"));
  g_clear_pointer (&left, embers_query_free);
  g_clear_pointer (&right, embers_query_free);

  /* With the rest: every other value as the baseline */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "labels.compare-with-rest", "s", "ap"));
  g_assert_cmpuint (embers_window_get_n_pages (window), ==, n_pages);
  {
    g_autoptr(GPtrArray) pages = find_all (GTK_WIDGET (window), EMBERS_TYPE_COMPARE_PAGE);

    compare = g_ptr_array_index (pages, pages->len - 1);
    left = embers_compare_page_dup_query (compare, FALSE);
    right = embers_compare_page_dup_query (compare, TRUE);
    g_assert_cmpstr (left->label_selector, ==, "{service_name=\"shop\",region!=\"ap\"}");
    g_assert_cmpstr (right->label_selector, ==, "{service_name=\"shop\",region=\"ap\"}");
    embers_test_wait_until (compared, compare, "the comparison's diff");
    g_assert_nonnull (embers_compare_page_get_diff (compare));
    g_assert_cmpint (embers_profile_get_total (embers_compare_page_get_diff (compare), 0), ==, 13800 + 16200);
    g_assert_cmpint (embers_profile_get_total (embers_compare_page_get_diff (compare), 1), ==, 20600);
  }

  gtk_window_destroy (GTK_WINDOW (window));
}

/* The keyboard: Enter on a label name shows it; Tab leaves the names
 * without changing the label and reaches every card's ⋮ menu (which holds
 * mark, include and exclude) and Compare; Shift+Tab comes back */
static GtkWidget *
focus_widget (EmbersWindow *window)
{
  return gtk_root_get_focus (GTK_ROOT (window));
}

static void
test_keyboard (void)
{
  g_autoptr(EmbersSource) source = make_source ();
  EmbersWindow *window = embers_window_new (NULL);
  EmbersExplorePage *explore;
  EmbersLabelsPage *page;
  GtkListBoxRow *pod_row = NULL;
  GtkWidget *names;
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GPtrArray) menus = NULL;
  g_autoptr(GHashTable) reached = g_hash_table_new (NULL, NULL);
  GtkWidget *compare;
  guint tabs_in_names = 0;

  gtk_window_set_default_size (GTK_WINDOW (window), 1300, 850);
  gtk_window_present (GTK_WINDOW (window));
  explore = open_explore (window, source);
  page = EMBERS_LABELS_PAGE (embers_window_open_labels (window, explore));
  wait_labels (page);
  g_assert_null (embers_labels_page_get_label (page));

  /* The names: the arrows' way through them is focus, not a choice */
  rows = find_all (GTK_WIDGET (page), GTK_TYPE_LIST_BOX_ROW);
  g_assert_cmpuint (rows->len, ==, 3);
  names = gtk_widget_get_parent (g_ptr_array_index (rows, 0));
  for (guint i = 0; i < rows->len; i++)
    if (g_strcmp0 (g_object_get_data (G_OBJECT (rows->pdata[i]), "name"), "pod") == 0)
      pod_row = rows->pdata[i];
  g_assert_nonnull (pod_row);
  g_assert_true (gtk_widget_grab_focus (g_ptr_array_index (rows, 0)));
  /* Down, as its key binding does */
  g_signal_emit_by_name (names, "move-cursor", GTK_MOVEMENT_DISPLAY_LINES, 1, FALSE, FALSE);
  embers_test_settle ();
  g_assert_true (focus_widget (window) == g_ptr_array_index (rows, 1));
  g_assert_null (embers_labels_page_get_label (page));
  /* Enter (a row's activation) shows the label under the focus */
  gtk_widget_grab_focus (GTK_WIDGET (pod_row));
  gtk_widget_activate (GTK_WIDGET (pod_row));
  wait_labels (page);
  g_assert_cmpstr (embers_labels_page_get_label (page), ==, "pod");
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (pod_row), "labels-current"));

  /* Baseline and comparison, so that Compare takes the focus */
  embers_labels_page_mark_baseline (page, "shop-11");
  embers_labels_page_mark_comparison (page, "shop-10");
  embers_test_settle ();

  /* Tab from the name: out of the list at once, then through the page
   * (as GtkWindow moves the focus on Tab); the label stays */
  gtk_widget_grab_focus (GTK_WIDGET (pod_row));
  for (guint i = 0; i < 200; i++)
    {
      GtkWidget *focus;

      g_assert_true (gtk_widget_child_focus (GTK_WIDGET (window), GTK_DIR_TAB_FORWARD));
      embers_test_drain ();
      focus = focus_widget (window);
      g_assert_nonnull (focus);
      g_assert_cmpstr (embers_labels_page_get_label (page), ==, "pod");
      if (gtk_widget_is_ancestor (focus, names))
        {
          tabs_in_names++;
          /* Back at the names: round the whole window */
          if (i > 0)
            break;
        }
      g_hash_table_add (reached, focus);
    }
  /* One stop in the names, and only on the way round */
  g_assert_cmpuint (tabs_in_names, <=, 1);

  /* Every card's ⋮ menu, Line Up and Compare were reached */
  menus = find_all (GTK_WIDGET (page), GTK_TYPE_MENU_BUTTON);
  g_assert_cmpuint (menus->len, ==, 9);
  for (guint i = 0; i < menus->len; i++)
    {
      GtkWidget *menu = g_ptr_array_index (menus, i);
      gboolean found = g_hash_table_contains (reached, menu);
      GHashTableIter iter;
      gpointer key;

      /* (the focus lands on the menu button's inner toggle button) */
      g_hash_table_iter_init (&iter, reached);
      while (!found && g_hash_table_iter_next (&iter, &key, NULL))
        found = gtk_widget_is_ancestor (key, menu);
      g_assert_true (found);
    }
  compare = find_button (GTK_WIDGET (page), "_Compare");
  g_assert_true (g_hash_table_contains (reached, compare));

  /* Shift+Tab from a name leaves the list backwards, label unchanged */
  gtk_widget_grab_focus (GTK_WIDGET (pod_row));
  g_assert_true (gtk_widget_child_focus (GTK_WIDGET (window), GTK_DIR_TAB_BACKWARD));
  embers_test_drain ();
  g_assert_false (gtk_widget_is_ancestor (focus_widget (window), names));
  g_assert_cmpstr (embers_labels_page_get_label (page), ==, "pod");
  /* ...and Tab comes back to the list, on the label shown */
  g_assert_true (gtk_widget_child_focus (GTK_WIDGET (window), GTK_DIR_TAB_FORWARD));
  embers_test_drain ();
  g_assert_true (gtk_widget_is_ancestor (focus_widget (window), names) || focus_widget (window) == names);

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
  embers_test_wait_while (n == 0);
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
  /* One profile: one point in time, inside the range (it was stamped on
   * a step boundary before the range's start, and cut off) */
  g_assert_cmpuint (stats_at (page, 0)->series->n_points, ==, 1);
  g_assert_cmpint (stats_at (page, 0)->series->timestamps[0], >=, start - 60000);
  g_assert_cmpint (stats_at (page, 0)->max_time_ms, >=, start - 60000);

  /* No time views for one time: Series and Histogram are off and say why,
   * the cards show totals, the table leaves out the averages */
  g_assert_false (embers_labels_page_get_has_time (page));
  g_assert_false (gtk_widget_get_sensitive (find_button (GTK_WIDGET (page), "_Series")));
  g_assert_false (gtk_widget_get_sensitive (find_button (GTK_WIDGET (page), "_Histogram")));
  g_assert_true (gtk_widget_get_sensitive (find_button (GTK_WIDGET (page), "T_otal")));
  g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (find_button (GTK_WIDGET (page), "_Series")), "same time"));
  embers_labels_page_set_view (page, EMBERS_LABELS_VIEW_HISTOGRAM);
  {
    g_autoptr(GPtrArray) charts = find_all (GTK_WIDGET (page), EMBERS_TYPE_LABEL_CHART);
    g_autofree char *summary = NULL;

    g_assert_cmpuint (charts->len, ==, embers_labels_page_get_stats (page)->len);
    for (guint i = 0; i < charts->len; i++)
      g_assert_cmpint (embers_label_chart_get_view (charts->pdata[i]), ==, EMBERS_LABEL_VIEW_TOTAL);
    embers_labels_page_set_view (page, EMBERS_LABELS_VIEW_MAXIMUM);
    summary = embers_label_chart_dup_summary (charts->pdata[0]);
    g_assert_null (strstr (summary, "average"));
  }
  embers_labels_page_set_view (page, EMBERS_LABELS_VIEW_TABLE);
  {
    GListModel *columns = gtk_column_view_get_columns (embers_labels_page_get_table (page));
    g_autoptr(GtkColumnViewColumn) mean_col = g_list_model_get_item (columns, 3);
    g_autoptr(GtkColumnViewColumn) max_col = g_list_model_get_item (columns, 5);

    g_assert_false (gtk_column_view_column_get_visible (mean_col));
    g_assert_true (gtk_column_view_column_get_visible (max_col));
  }
  embers_labels_page_set_view (page, EMBERS_LABELS_VIEW_SERIES);

  /* cache: only some samples carry it; the rest have no value */
  g_assert_true (embers_labels_page_select_label (page, "cache"));
  wait_labels (page);
  g_assert_cmpstr (stats_at (page, 0)->value, ==, "");
  g_assert_cmpfloat (stats_at (page, 1)->total, ==, 64);
  g_assert_cmpstr (stats_at (page, 1)->value, ==, "miss");
  /* The heading counts values as the sidebar does, and names (none) */
  g_assert_cmpint (embers_labels_page_get_cardinality (page, "cache"), ==, 1);
  g_assert_cmpstr (embers_labels_page_get_heading (page), ==, "cache: 1 value and (none), by total");

  gtk_window_destroy (window);
}

/* The Pyroscope test server with tests/fixtures/labels: store's 12 pods in
 * 3 regions, 2 versions; a profile every 15 s worth 600 for 1.0.0, 1000
 * for 1.1.0 (pods 7 and 10, in us-east-1), times its region's shape: 4 in
 * eu-west-1 (flat); 4 in us-east-1 but 12 in the hour's 11th five minutes
 * (a spike); in ap-south-1 2, 3, 3, 4, 4 … 7, 7, 8 per five minutes (rising).
 * The hour starts at --now minus one hour, so the last 10 minutes are its
 * 11th and 12th five minutes: 20 steps each. */

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
  g_free (embers_test_server_control (server, "DELETE", "embers-test/stats", NULL));
  g_free (embers_test_server_control (server, "POST", "embers-test/faults", "{\"delay_ms\":50}"));
  page = EMBERS_LABELS_PAGE (embers_window_open_labels (window, explore));
  g_assert_nonnull (page);
  wait_labels (page);
  g_free (embers_test_server_control (server, "DELETE", "embers-test/faults", NULL));
  g_assert_null (embers_labels_page_get_error (page));
  g_assert_cmpint (embers_test_server_stat (server, "requests", "/querier.v1.QuerierService/LabelValues"), >=, 8);
  g_assert_cmpint (embers_test_server_stat (server, "maxInFlight", "/querier.v1.QuerierService/LabelValues"), <=, 4);
  g_assert_cmpint (embers_test_server_stat (server, "maxInFlight", "/querier.v1.QuerierService/LabelValues"), >=, 2);
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
  /* Per step: us-east-1 (2 × 600 + 2 × 1000) × 12 = 38400 for 20 steps,
   * then × 4 = 12800; ap-south-1 4 × 600 × 7 = 16800, then × 8 = 19200;
   * eu-west-1 4 × 600 × 4 = 9600. Totals: 3200 × (20 × 12 + 20 × 4),
   * 2400 × (20 × 7 + 20 × 8), 9600 × 40. */
  g_assert_cmpstr (stats_at (page, 0)->value, ==, "us-east-1");
  g_assert_cmpstr (stats_at (page, 1)->value, ==, "ap-south-1");
  g_assert_cmpstr (stats_at (page, 2)->value, ==, "eu-west-1");
  g_assert_cmpfloat (stats_at (page, 0)->total, ==, 1024000);
  g_assert_cmpfloat (stats_at (page, 1)->total, ==, 720000);
  g_assert_cmpfloat (stats_at (page, 2)->total, ==, 384000);
  g_assert_cmpfloat_with_epsilon (stats_at (page, 0)->share, 1024000.0 / 2128000.0, 1e-9);
  /* Their shapes differ: one point per 15 s step, the spike, the rise,
   * flat. A point is stamped with its step's end: T holds (T - 15 s, T] */
  g_assert_true (embers_labels_page_get_has_time (page));
  for (guint i = 0; i < 3; i++)
    {
      g_assert_cmpuint (stats_at (page, i)->series->n_points, ==, 40);
      g_assert_cmpuint (stats_at (page, i)->n_data_steps, ==, 40);
      for (guint k = 0; k < 40; k++)
        g_assert_cmpint (stats_at (page, i)->series->timestamps[k], ==, SERVER_NOW_MS - 600000 + (k + 1) * 15000);
    }
  g_assert_cmpfloat (stats_at (page, 0)->max, ==, 38400);
  g_assert_cmpint (stats_at (page, 0)->max_time_ms, ==, SERVER_NOW_MS - 600000 + 15000);
  g_assert_cmpfloat (stats_at (page, 0)->series->values[19], ==, 38400);
  g_assert_cmpfloat (stats_at (page, 0)->series->values[20], ==, 12800);
  g_assert_cmpfloat (stats_at (page, 0)->mean, ==, 25600);
  g_assert_cmpfloat (stats_at (page, 0)->stddev, ==, 12800);
  g_assert_cmpfloat (stats_at (page, 1)->series->values[0], ==, 16800);
  g_assert_cmpfloat (stats_at (page, 1)->series->values[39], ==, 19200);
  g_assert_cmpfloat (stats_at (page, 1)->mean, ==, 18000);
  g_assert_cmpfloat (stats_at (page, 1)->stddev, ==, 1200);
  g_assert_cmpfloat (stats_at (page, 2)->max, ==, 9600);
  g_assert_cmpfloat (stats_at (page, 2)->stddev, ==, 0);

  g_assert_true (embers_labels_page_select_label (page, "pod"));
  wait_labels (page);
  g_assert_cmpuint (embers_labels_page_get_stats (page)->len, ==, 12);
  g_assert_cmpuint (embers_labels_page_get_n_cards (page), ==, 8);
  /* 1000 × (20 × 12 + 20 × 4) each */
  g_assert_cmpstr (stats_at (page, 0)->value, ==, "store-07");
  g_assert_cmpstr (stats_at (page, 1)->value, ==, "store-10");
  g_assert_cmpfloat (stats_at (page, 0)->total, ==, 320000);

  g_assert_true (embers_labels_page_select_label (page, "version"));
  wait_labels (page);
  /* 1.0.0: eu 4 × 600 × 4 × 40, us 2 × 600 × 320, ap 4 × 600 × 300 */
  g_assert_cmpstr (stats_at (page, 0)->value, ==, "1.0.0");
  g_assert_cmpstr (stats_at (page, 1)->value, ==, "1.1.0");
  g_assert_cmpfloat (stats_at (page, 0)->total, ==, 384000 + 384000 + 720000);
  g_assert_cmpfloat (stats_at (page, 1)->total, ==, 640000);
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
  embers_test_wait_until (compared, compare, "the comparison's diff");
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

typedef struct
{
  EmbersLabelsPage *page;
  gint64            last;     /* when the condition was last checked */
  gint64            longest;  /* the longest main loop iteration between */
} CardsWait;

static gboolean
all_cards_built (gpointer data)
{
  CardsWait *wait = data;
  gint64 now = g_get_monotonic_time ();

  if (wait->last != 0)
    wait->longest = MAX (wait->longest, now - wait->last);
  wait->last = now;
  return !embers_labels_page_get_loading (wait->page) &&
         embers_labels_page_get_n_cards (wait->page) >= EMBERS_LABELS_MAX_CARDS;
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

  /* Show All: how long the call holds the main loop, the longest main
   * loop iteration until every card is built and drawn (what a person
   * waits for a key press or a frame), and the whole time */
  {
    CardsWait wait = { page, 0, 0 };
    gint64 call;

    t0 = g_get_monotonic_time ();
    embers_labels_page_set_show_all (page, TRUE);
    call = g_get_monotonic_time () - t0;
    /* However long that takes (the cards are built a few at a time) */
    embers_test_wait_until (all_cards_built, &wait, "every card to be built");
    /* and drawn */
    embers_test_wait_frame (GTK_WIDGET (page));
    g_test_message ("Show All with %u values: the call %.1f ms, longest main loop iteration %.1f ms, "
                    "all %u cards built and drawn in %.1f ms (figures, not limits)",
                    n_pods, call / 1000.0, wait.longest / 1000.0, embers_labels_page_get_n_cards (page),
                    (g_get_monotonic_time () - t0) / 1000.0);
  }
  g_assert_cmpuint (embers_labels_page_get_n_cards (page), ==, EMBERS_LABELS_MAX_CARDS);

  t0 = g_get_monotonic_time ();
  embers_labels_page_set_view (page, EMBERS_LABELS_VIEW_TABLE);
  embers_test_wait_mapped (GTK_WIDGET (embers_labels_page_get_table (page)));
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

  embers_test_gtk_init (&argc, &argv);

  g_test_add_func ("/embers/labels/local-values", test_local_values);
  g_test_add_func ("/embers/labels/local-actions", test_local_actions);
  g_test_add_func ("/embers/labels/compare-shortcuts", test_compare_shortcuts);
  g_test_add_func ("/embers/labels/keyboard", test_keyboard);
  g_test_add_func ("/embers/labels/error-retry", test_error_retry);
  g_test_add_func ("/embers/labels/local-go-file", test_local_go_file);
  g_test_add_func ("/embers/labels/server", test_server);
  g_test_add_func ("/embers/labels/high-cardinality", test_high_cardinality);

  return g_test_run ();
}
