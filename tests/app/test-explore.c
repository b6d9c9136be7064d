/* test-explore.c: the explore page and the connect dialog (under Xvfb)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The source is an EmbersLocalSource with a few labelled profiles, behind
 * a wrapper that can fail merges on demand (no network needed).
 */

#include "config.h"

#include <string.h>

#include <adwaita.h>
#include <glib/gstdio.h>

#include "embers-connect-dialog.h"
#include "embers-explore-page.h"
#include "embers-filter-bar.h"
#include "embers-local-source.h"
#include "embers-format.h"
#include "embers-profile-builder.h"
#include "embers-window.h"
#include "embers-test-gtk-utils.h"

/* A source that forwards to a local source and can fail merges */

#define TEST_TYPE_FLAKY_SOURCE (test_flaky_source_get_type ())
G_DECLARE_FINAL_TYPE (TestFlakySource, test_flaky_source, TEST, FLAKY_SOURCE, GObject)

struct _TestFlakySource
{
  GObject       parent_instance;
  EmbersSource *inner;
  gboolean      fail_merge;
  guint         n_merges;
  guint         n_select_series;
};

static void test_flaky_source_iface_init (EmbersSourceInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TestFlakySource, test_flaky_source, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (EMBERS_TYPE_SOURCE, test_flaky_source_iface_init))

static EmbersSourceCapabilities
flaky_get_capabilities (EmbersSource *source)
{
  return embers_source_get_capabilities (TEST_FLAKY_SOURCE (source)->inner);
}

static char *
flaky_dup_display_name (EmbersSource *source)
{
  return g_strdup ("test source");
}

static void
flaky_list_series (EmbersSource *source, const char * const *matchers, const char * const *label_names,
                   gint64 start_ms, gint64 end_ms, GCancellable *cancellable,
                   GAsyncReadyCallback callback, gpointer user_data)
{
  embers_source_list_series (TEST_FLAKY_SOURCE (source)->inner, matchers, label_names,
                             start_ms, end_ms, cancellable, callback, user_data);
}

static void
flaky_list_label_names (EmbersSource *source, const char * const *matchers, gint64 start_ms, gint64 end_ms,
                        GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
  embers_source_list_label_names (TEST_FLAKY_SOURCE (source)->inner, matchers, start_ms, end_ms,
                                  cancellable, callback, user_data);
}

static void
flaky_list_label_values (EmbersSource *source, const char *name, const char * const *matchers,
                         gint64 start_ms, gint64 end_ms, GCancellable *cancellable,
                         GAsyncReadyCallback callback, gpointer user_data)
{
  embers_source_list_label_values (TEST_FLAKY_SOURCE (source)->inner, name, matchers, start_ms, end_ms,
                                   cancellable, callback, user_data);
}

static void
flaky_select_series (EmbersSource *source, const EmbersQuery *query, const char * const *group_by,
                     double step_s, EmbersAggregation aggregation, gint64 limit,
                     GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
  TestFlakySource *self = TEST_FLAKY_SOURCE (source);

  self->n_select_series++;
  embers_source_select_series (self->inner, query, group_by, step_s, aggregation, limit,
                               cancellable, callback, user_data);
}

static void
flaky_merge_profile (EmbersSource *source, const EmbersQuery *query, GCancellable *cancellable,
                     GAsyncReadyCallback callback, gpointer user_data)
{
  TestFlakySource *self = TEST_FLAKY_SOURCE (source);

  self->n_merges++;
  if (self->fail_merge)
    {
      g_task_report_new_error (self, callback, user_data, flaky_merge_profile,
                               EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_UNAVAILABLE,
                               "unavailable: the server is not reachable (test)");
      return;
    }
  embers_source_merge_profile (self->inner, query, cancellable, callback, user_data);
}

static EmbersProfile *
flaky_merge_profile_finish (EmbersSource *source, GAsyncResult *result, GError **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
test_flaky_source_iface_init (EmbersSourceInterface *iface)
{
  iface->get_capabilities = flaky_get_capabilities;
  iface->dup_display_name = flaky_dup_display_name;
  iface->list_series = flaky_list_series;
  iface->list_label_names = flaky_list_label_names;
  iface->list_label_values = flaky_list_label_values;
  iface->select_series = flaky_select_series;
  iface->merge_profile = flaky_merge_profile;
  iface->merge_profile_finish = flaky_merge_profile_finish;
}

static void
test_flaky_source_dispose (GObject *object)
{
  g_clear_object (&TEST_FLAKY_SOURCE (object)->inner);
  G_OBJECT_CLASS (test_flaky_source_parent_class)->dispose (object);
}

static void
test_flaky_source_class_init (TestFlakySourceClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = test_flaky_source_dispose;
}

static void
test_flaky_source_init (TestFlakySource *self)
{
}

/* Data */

static EmbersProfile *
make_profile (gint64      time_ms,
              const char *leaf,
              gint64      value)
{
  g_autoptr(EmbersProfileBuilder) b = embers_profile_builder_new ();
  g_autoptr(GError) error = NULL;
  guint32 frames[3];
  gint64 other = value / 2 + 1;
  EmbersProfile *p;

  embers_profile_builder_add_sample_type (b, "cpu", "nanoseconds");
  embers_profile_builder_set_period (b, "cpu", "nanoseconds", 10000000);
  embers_profile_builder_set_time (b, time_ms * 1000000, 10000000000);
  frames[0] = embers_profile_builder_intern (b, "main", -1);
  frames[1] = embers_profile_builder_intern (b, "serve", -1);
  frames[2] = embers_profile_builder_intern (b, leaf, -1);
  embers_profile_builder_add_stack (b, frames, 3, &value, 0);
  embers_profile_builder_add_stack (b, frames, 2, &other, 0);
  p = embers_profile_builder_finish (b, &error);
  g_assert_no_error (error);
  return p;
}

static TestFlakySource *
make_source (void)
{
  TestFlakySource *flaky = g_object_new (TEST_TYPE_FLAKY_SOURCE, NULL);
  EmbersLocalSource *local = embers_local_source_new ();
  gint64 now_ms = g_get_real_time () / 1000;
  const char *api_eu[] = { "service_name", "api", "region", "eu", NULL };
  const char *api_us[] = { "service_name", "api", "region", "us", NULL };
  const char *web[] = { "service_name", "web", NULL };

  for (int i = 0; i < 6; i++)
    {
      g_autoptr(EmbersProfile) a = make_profile (now_ms - (50 - i * 8) * 60000, "parse", 100 + i * 10);
      g_autoptr(EmbersProfile) b = make_profile (now_ms - (48 - i * 8) * 60000, "encode", 50 + i * 20);
      g_autoptr(EmbersProfile) c = make_profile (now_ms - (45 - i * 8) * 60000, "render", 30);

      embers_local_source_add_profile (local, "api-eu", a, 0, api_eu);
      embers_local_source_add_profile (local, "api-us", b, 0, api_us);
      embers_local_source_add_profile (local, "web", c, 0, web);
    }
  flaky->inner = EMBERS_SOURCE (local);
  return flaky;
}

/* Helpers */

static void
wait_idle (EmbersExplorePage *page)
{
  /* (what is ready runs first: a load may be about to start) */
  embers_test_drain ();
  embers_test_wait_while (embers_explore_page_get_loading (page) ||
                          embers_profile_page_get_busy (embers_explore_page_get_profile_page (page)));
  embers_test_drain ();
}

static GtkWindow *
show_page (EmbersExplorePage *page)
{
  GtkWindow *window = GTK_WINDOW (gtk_window_new ());

  gtk_window_set_default_size (window, 1200, 800);
  gtk_window_set_child (window, GTK_WIDGET (page));
  gtk_window_present (window);
  return window;
}

static gboolean
has_service (EmbersExplorePage *page,
             const char        *name)
{
  GListModel *model = embers_explore_page_get_services (page);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(GtkStringObject) item = g_list_model_get_item (model, i);

      if (g_str_equal (gtk_string_object_get_string (item), name))
        return TRUE;
    }
  return FALSE;
}

static gint64
flame_total (EmbersExplorePage *page)
{
  EmbersProfilePage *inner = embers_explore_page_get_profile_page (page);
  EmbersProfile *profile = embers_profile_page_get_profile (inner);

  g_assert_nonnull (profile);
  return embers_profile_get_total (profile, 0);
}

/* Drags once the chart has its size (the window maps asynchronously) */
static gboolean
drag_chart (EmbersExplorePage *page,
            double             x_from,
            double             x_to)
{
  embers_test_wait_for (embers_explore_page_drag_chart (page, x_from, x_to));
  return TRUE;
}

/* The folder is read (services, or no longer loading), and until then
 * the title never said "0 local profiles" */
static gboolean
folder_read_without_zero (gpointer data)
{
  EmbersExplorePage *page = data;

  g_assert_null (strstr (embers_explore_page_get_title (page), "0 local"));
  return !embers_explore_page_get_loading (page) ||
         g_list_model_get_n_items (embers_explore_page_get_services (page)) > 0;
}

/* Tests */

static void
test_services_and_profile (void)
{
  g_autoptr(TestFlakySource) source = make_source ();
  EmbersExplorePage *page = embers_explore_page_new (EMBERS_SOURCE (source));
  GtkWindow *window = show_page (page);
  const char * const *types;
  g_autofree char *selector = NULL;

  wait_idle (page);
  g_assert_cmpuint (g_list_model_get_n_items (embers_explore_page_get_services (page)), ==, 2);
  g_assert_true (has_service (page, "api"));
  g_assert_true (has_service (page, "web"));
  types = embers_explore_page_get_service_types (page, "api");
  g_assert_nonnull (types);
  g_assert_cmpstr (types[0], ==, "process_cpu:cpu:nanoseconds:cpu:nanoseconds");
  g_assert_null (embers_explore_page_dup_query (page));
  g_assert_cmpuint (source->n_merges, ==, 0);

  /* Picking a service loads its chart and flame graph */
  g_assert_true (embers_explore_page_select_service (page, "api"));
  wait_idle (page);
  g_assert_cmpstr (embers_explore_page_get_service (page), ==, "api");
  g_assert_cmpstr (embers_explore_page_get_profile_type (page), ==, "process_cpu:cpu:nanoseconds:cpu:nanoseconds");
  g_assert_null (embers_explore_page_get_error (page));
  g_assert_cmpint (embers_profile_page_get_state (embers_explore_page_get_profile_page (page)), ==,
                   EMBERS_PAGE_STATE_READY);
  g_assert_cmpuint (embers_explore_page_get_n_series (page), ==, 1);
  g_assert_true (g_str_has_prefix (embers_explore_page_get_title (page), "api"));
  /* api: (100..150 + 51..76) + (50..150 + 26..76) per profile: all positive */
  g_assert_cmpint (flame_total (page), >, 0);

  selector = embers_explore_page_dup_selector (page);
  g_assert_cmpstr (selector, ==, "{service_name=\"api\"}");

  gtk_window_destroy (window);
}

static void
test_filter (void)
{
  g_autoptr(TestFlakySource) source = make_source ();
  EmbersExplorePage *page = embers_explore_page_new (EMBERS_SOURCE (source));
  GtkWindow *window = show_page (page);
  g_autofree char *selector = NULL;
  g_autoptr(GError) error = NULL;
  gint64 all, eu;

  wait_idle (page);
  embers_explore_page_select_service (page, "api");
  wait_idle (page);
  all = flame_total (page);

  g_assert_true (embers_explore_page_add_filter (page, "region", EMBERS_MATCH_EQUAL, "eu", &error));
  g_assert_no_error (error);
  wait_idle (page);
  selector = embers_explore_page_dup_selector (page);
  g_assert_cmpstr (selector, ==, "{region=\"eu\",service_name=\"api\"}");
  eu = flame_total (page);
  g_assert_cmpint (eu, >, 0);
  g_assert_cmpint (eu, <, all);

  /* A bad regex is refused with a reason and changes nothing */
  g_assert_false (embers_explore_page_add_filter (page, "region", EMBERS_MATCH_REGEX, "(", &error));
  g_assert_nonnull (error);
  g_clear_error (&error);

  embers_explore_page_remove_filter (page, "region");
  wait_idle (page);
  g_assert_cmpint (flame_total (page), ==, all);

  gtk_window_destroy (window);
}

static void
test_drag_range (void)
{
  g_autoptr(TestFlakySource) source = make_source ();
  EmbersExplorePage *page = embers_explore_page_new (EMBERS_SOURCE (source));
  GtkWindow *window = show_page (page);
  gint64 start0, end0, start1, end1;
  guint merges;
  gint64 total0;

  wait_idle (page);
  embers_explore_page_select_service (page, "api");
  wait_idle (page);
  embers_explore_page_get_time_range (page, &start0, &end0);
  g_assert_cmpint (end0 - start0, ==, 3600 * 1000);
  total0 = flame_total (page);
  merges = source->n_merges;

  /* Drag over the middle of the chart: a narrower absolute range */
  g_assert_true (drag_chart (page, 500, 800));
  wait_idle (page);
  embers_explore_page_get_time_range (page, &start1, &end1);
  g_assert_cmpint (start1, >, start0);
  g_assert_cmpint (end1, <, end0);
  g_assert_cmpint (end1 - start1, <, end0 - start0);
  g_assert_cmpuint (source->n_merges, >, merges);
  g_assert_cmpstr (embers_explore_page_get_service (page), ==, "api");
  g_assert_null (embers_explore_page_get_error (page));
  g_assert_cmpint (flame_total (page), <, total0);

  /* A preset follows now again */
  embers_explore_page_set_preset (page, 15 * 60);
  wait_idle (page);
  embers_explore_page_get_time_range (page, &start1, &end1);
  g_assert_cmpint (end1 - start1, ==, 15 * 60 * 1000);

  gtk_window_destroy (window);
}

static void
test_error_retry (void)
{
  g_autoptr(TestFlakySource) source = make_source ();
  EmbersExplorePage *page = embers_explore_page_new (EMBERS_SOURCE (source));
  GtkWindow *window = show_page (page);
  const char *error;

  wait_idle (page);
  source->fail_merge = TRUE;
  embers_explore_page_select_service (page, "web");
  wait_idle (page);
  error = embers_explore_page_get_error (page);
  g_assert_nonnull (error);
  g_assert_true (strstr (error, "not reachable") != NULL);
  /* The chart still loaded */
  g_assert_cmpuint (embers_explore_page_get_n_series (page), ==, 1);

  source->fail_merge = FALSE;
  embers_explore_page_retry (page);
  wait_idle (page);
  g_assert_null (embers_explore_page_get_error (page));
  g_assert_cmpint (flame_total (page), >, 0);

  gtk_window_destroy (window);
}

static void
test_newer_cancels_older (void)
{
  g_autoptr(TestFlakySource) source = make_source ();
  EmbersExplorePage *page = embers_explore_page_new (EMBERS_SOURCE (source));
  GtkWindow *window = show_page (page);
  gint64 web_total;

  wait_idle (page);
  embers_explore_page_select_service (page, "web");
  wait_idle (page);
  web_total = flame_total (page);

  /* Pick api then web at once: only web's answer may show */
  embers_explore_page_select_service (page, "api");
  embers_explore_page_select_service (page, "web");
  wait_idle (page);
  g_assert_cmpstr (embers_explore_page_get_service (page), ==, "web");
  g_assert_cmpint (flame_total (page), ==, web_total);

  gtk_window_destroy (window);
}

static void
compare_cb (EmbersExplorePage *page,
            EmbersQuery       *baseline,
            EmbersQuery       *comparison,
            gpointer           user_data)
{
  EmbersQuery **out = user_data;

  out[0] = embers_query_copy (baseline);
  out[1] = embers_query_copy (comparison);
}

static void
test_compare (void)
{
  g_autoptr(TestFlakySource) source = make_source ();
  EmbersExplorePage *page = embers_explore_page_new (EMBERS_SOURCE (source));
  GtkWindow *window = show_page (page);
  EmbersQuery *queries[2] = { NULL, NULL };

  g_signal_connect (page, "compare-requested", G_CALLBACK (compare_cb), queries);
  wait_idle (page);
  embers_explore_page_select_service (page, "api");
  wait_idle (page);
  embers_explore_page_request_compare (page);
  g_assert_nonnull (queries[0]);
  g_assert_nonnull (queries[1]);
  g_assert_cmpint (queries[0]->end_ms, ==, queries[1]->start_ms);
  g_assert_cmpint (queries[0]->end_ms - queries[0]->start_ms, ==, queries[1]->end_ms - queries[1]->start_ms);
  g_assert_cmpstr (queries[0]->label_selector, ==, "{service_name=\"api\"}");
  g_assert_cmpstr (queries[1]->profile_type, ==, "process_cpu:cpu:nanoseconds:cpu:nanoseconds");
  embers_query_free (queries[0]);
  embers_query_free (queries[1]);

  gtk_window_destroy (window);
}

static void
test_connect_dialog (void)
{
  GtkWidget *window = adw_window_new ();
  EmbersConnectDialog *dialog = embers_connect_dialog_new ();
  g_autoptr(EmbersCredentials) credentials = NULL;

  gtk_window_present (GTK_WINDOW (window));
  adw_dialog_present (ADW_DIALOG (dialog), window);
  embers_connect_dialog_set_url (dialog, "ftp://example.com");
  g_assert_false (embers_connect_dialog_get_url_valid (dialog));
  embers_connect_dialog_set_url (dialog, "not a url");
  g_assert_false (embers_connect_dialog_get_url_valid (dialog));
  embers_connect_dialog_set_url (dialog, "http://127.0.0.1:1/prefix/");
  g_assert_true (embers_connect_dialog_get_url_valid (dialog));

  embers_connect_dialog_set_tenant (dialog, "team-a");
  embers_connect_dialog_set_auth (dialog, EMBERS_AUTH_BEARER, NULL, "s3cret");
  credentials = embers_connect_dialog_dup_credentials (dialog);
  g_assert_cmpint (credentials->kind, ==, EMBERS_AUTH_BEARER);
  g_assert_cmpstr (credentials->secret, ==, "s3cret");
  g_assert_cmpstr (credentials->tenant, ==, "team-a");

  /* Nothing listens on port 1: the test fails in words */
  embers_connect_dialog_test_connection (dialog);
  g_assert_true (embers_connect_dialog_get_busy (dialog));
  embers_test_wait_while (embers_connect_dialog_get_busy (dialog));
  g_assert_false (embers_connect_dialog_get_busy (dialog));
  g_assert_true (g_str_has_prefix (embers_connect_dialog_get_status (dialog), "Connection failed: "));

  /* The secret is in no setting */
  {
    g_autoptr(GSettings) settings = g_settings_new (APP_ID);
    g_autoptr(GSettingsSchema) schema = NULL;
    g_auto(GStrv) keys = NULL;

    g_object_get (settings, "settings-schema", &schema, NULL);
    keys = g_settings_schema_list_keys (schema);
    for (guint i = 0; keys[i] != NULL; i++)
      {
        g_autoptr(GVariant) value = g_settings_get_value (settings, keys[i]);
        g_autofree char *text = g_variant_print (value, FALSE);

        g_assert_null (strstr (text, "s3cret"));
      }
  }

  g_assert_true (adw_dialog_close (ADW_DIALOG (dialog)));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* EMBERS_EXPLORE_SHOT=page|error|dialog|dialog-error keeps one state on
 * screen for screenshots (not a test) */
static int
run_shot (const char *state)
{
  TestFlakySource *source = make_source ();
  GtkWindow *window;

  if (g_str_has_prefix (state, "dialog"))
    {
      EmbersConnectDialog *dialog = embers_connect_dialog_new ();

      window = GTK_WINDOW (adw_window_new ());
      gtk_window_set_default_size (window, 800, 760);
      gtk_window_present (window);
      adw_dialog_present (ADW_DIALOG (dialog), GTK_WIDGET (window));
      embers_connect_dialog_set_url (dialog, "http://127.0.0.1:1/pyroscope");
      embers_connect_dialog_set_tenant (dialog, "team-a");
      embers_connect_dialog_set_auth (dialog, EMBERS_AUTH_BASIC, "admin", "password");
      if (g_str_equal (state, "dialog-error"))
        embers_connect_dialog_test_connection (dialog);
      else if (g_str_equal (state, "dialog-bad"))
        embers_connect_dialog_set_url (dialog, "localhost:4040");
    }
  else
    {
      EmbersExplorePage *page = embers_explore_page_new (EMBERS_SOURCE (source));

      window = show_page (page);
      gtk_window_set_default_size (window, 1360, 860);
      wait_idle (page);
      source->fail_merge = g_str_equal (state, "error");
      embers_explore_page_select_service (page, "api");
      wait_idle (page);
      if (g_str_equal (state, "filter"))
        {
          embers_explore_page_add_filter (page, "region", EMBERS_MATCH_EQUAL, "eu", NULL);
          wait_idle (page);
        }
    }
  while (TRUE)
    g_main_context_iteration (NULL, TRUE);
  return 0;
}

/* Open Folder…: the folder's profiles as a local source in an explore
 * tab, with the files' own time span as the range */
static void
test_open_folder (void)
{
  g_autofree char *dir = g_dir_make_tmp ("embers-folder-XXXXXX", NULL);
  const char *names[] = { "cpu-labels.pb.gz", "heap.pb.gz" };
  EmbersWindow *window = embers_window_new (NULL);
  g_autoptr(GFile) folder = g_file_new_for_path (dir);
  EmbersExplorePage *page;
  GListModel *services;
  gint64 start = 0, end = 0;
  gboolean found = FALSE;

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *from = g_test_build_filename (G_TEST_DIST, "fixtures", "go", names[i], NULL);
      g_autofree char *to = g_build_filename (dir, names[i], NULL);
      g_autofree char *data = NULL;
      gsize len = 0;

      g_assert_true (g_file_get_contents (from, &data, &len, NULL));
      g_assert_true (g_file_set_contents (to, data, len, NULL));
    }

  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 800);
  gtk_window_present (GTK_WINDOW (window));
  page = EMBERS_EXPLORE_PAGE (embers_window_open_folder (window, folder));
  g_assert_nonnull (page);
  /* Not "0 local profiles" before or while the folder is read */
  g_assert_null (strstr (embers_explore_page_get_title (page), "0 local"));
  embers_test_wait_until (folder_read_without_zero, page, "the folder to be read");

  /* Loaded off the main thread; then the range covers the files */
  embers_test_wait_while (g_list_model_get_n_items (embers_explore_page_get_services (page)) == 0);
  wait_idle (page);
  services = embers_explore_page_get_services (page);
  g_assert_cmpuint (g_list_model_get_n_items (services), >=, 1);
  for (guint i = 0; i < g_list_model_get_n_items (services); i++)
    {
      g_autoptr(GtkStringObject) item = g_list_model_get_item (services, i);

      if (strstr (gtk_string_object_get_string (item), "cpu-labels") != NULL)
        found = TRUE;
    }
  g_assert_true (found);
  /* The tab counts the profiles once they are read */
  g_assert_nonnull (strstr (embers_explore_page_get_title (page), "2 local profiles"));
  /* The header names the tab (not just "Embers") */
  g_assert_true (g_str_has_suffix (gtk_window_get_title (GTK_WINDOW (window)), "— Embers"));
  embers_explore_page_get_time_range (page, &start, &end);
  g_assert_cmpint (end - start, >, 0);
  /* The profiles' own times are inside the range (not "the last hour") */
  {
    g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fixtures", "go", "cpu-labels.pb.gz", NULL);
    g_autoptr(GFile) file = g_file_new_for_path (path);
    g_autoptr(GError) error = NULL;
    g_autoptr(EmbersProfile) profile = embers_profile_load_file (file, NULL, &error);
    gint64 when_ms;

    g_assert_no_error (error);
    when_ms = embers_profile_get_time_nanos (profile) / 1000000;
    g_assert_cmpint (when_ms, >, 0);
    g_assert_cmpint (start, <=, when_ms);
    g_assert_cmpint (end, >=, when_ms);
  }

  gtk_window_destroy (GTK_WINDOW (window));
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *to = g_build_filename (dir, names[i], NULL);

      g_unlink (to);
    }
  g_rmdir (dir);
}

/* A filter chip shows the whole name=value where there is room, and cuts
 * it (the tooltip whole) only where there is not */
static GtkWidget *
find_chip (GtkWidget *widget)
{
  if (GTK_IS_BUTTON (widget) && gtk_widget_has_css_class (widget, "chip"))
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_chip (c);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static void
test_filter_chips (void)
{
  GtkWidget *window = gtk_window_new ();
  GtkWidget *bar = embers_filter_bar_new ();
  const char *value = "checkout-7d9f8b6c5d-x2x9q-eu-west-1-canary";
  g_autofree char *whole = g_strdup_printf ("pod=\"%s\"", value);
  GtkWidget *button, *label;
  g_autoptr(GError) error = NULL;
  int min, nat;

  gtk_window_set_child (GTK_WINDOW (window), bar);
  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 60);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (embers_filter_bar_add_filter (EMBERS_FILTER_BAR (bar), "pod", EMBERS_MATCH_EQUAL, value, &error));
  g_assert_no_error (error);
  button = find_chip (bar);
  g_assert_nonnull (button);
  label = embers_test_find_widget (button, GTK_TYPE_LABEL, NULL);
  embers_test_wait_frame (label);
  /* At 1200 px: whole (it was cut at 32 characters before) */
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (label)), ==, whole);
  g_assert_cmpuint (strlen (whole), >, 32);
  g_assert_false (pango_layout_is_ellipsized (gtk_label_get_layout (GTK_LABEL (label))));
  /* Narrower, it may be cut (its minimum is less than the whole), and
   * the tooltip says the whole filter */
  gtk_widget_measure (label, GTK_ORIENTATION_HORIZONTAL, -1, &min, &nat, NULL, NULL);
  g_test_message ("chip label: %d px at least, %d px whole, %d px shown", min, nat, gtk_widget_get_width (label));
  g_assert_cmpint (min, <, nat);
  g_assert_cmpint (gtk_widget_get_width (label), >=, nat);
  g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (button), whole));

  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  if (g_getenv ("EMBERS_EXPLORE_SHOT") != NULL)
    {
      gtk_init ();
      adw_init ();
      return run_shot (g_getenv ("EMBERS_EXPLORE_SHOT"));
    }

  embers_test_gtk_init (&argc, &argv);

  g_test_add_func ("/embers/explore/services-and-profile", test_services_and_profile);
  g_test_add_func ("/embers/explore/filter", test_filter);
  g_test_add_func ("/embers/explore/filter-chips", test_filter_chips);
  g_test_add_func ("/embers/explore/drag-range", test_drag_range);
  g_test_add_func ("/embers/explore/error-retry", test_error_retry);
  g_test_add_func ("/embers/explore/newer-cancels-older", test_newer_cancels_older);
  g_test_add_func ("/embers/explore/compare", test_compare);
  g_test_add_func ("/embers/explore/connect-dialog", test_connect_dialog);
  g_test_add_func ("/embers/explore/open-folder", test_open_folder);

  return g_test_run ();
}
