/* test-comparison.c: the comparison job, "file or query URL", and
 * recording rules through EmbersSource, against the test server
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "embers-comparison.h"
#include "embers-diff.h"
#include "embers-format.h"
#include "embers-location.h"
#include "embers-pyroscope-source.h"
#include "embers-query-url.h"
#include "embers-test-server-spawn.h"

#define CPU "process_cpu:cpu:nanoseconds:cpu:nanoseconds"
#define ALLOC "memory:alloc_space:bytes:space:bytes"
#define EU "{service_name=\"api\",region=\"eu-west-1\"}"
#define US "{service_name=\"api\",region=\"us-east-1\"}"
#define DIFF_PATH "/querier.v1.QuerierService/Diff"
#define MERGE_PATH "/querier.v1.QuerierService/SelectMergeStacktraces"
#define NOW_MS G_GINT64_CONSTANT (1700000000000)

typedef struct
{
  GAsyncResult *result;
} Wait;

static void
on_done (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Wait *wait = user_data;

  g_set_object (&wait->result, result);
}

static GAsyncResult *
wait_for (Wait *wait)
{
  while (wait->result == NULL)
    g_main_context_iteration (NULL, TRUE);
  return wait->result;
}

static EmbersTestServer *
start_server (const char *extra)
{
  const char *args[] = { "--now", "1700000000000", extra, NULL };
  g_autoptr(GError) error = NULL;
  EmbersTestServer *server = embers_test_server_start (args, &error);

  g_assert_no_error (error);
  return server;
}

static EmbersSource *
make_source (EmbersTestServer *server)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersConnectClient) client = embers_connect_client_new (embers_test_server_get_url (server), &error);

  g_assert_no_error (error);
  return EMBERS_SOURCE (embers_pyroscope_source_new (client));
}

static EmbersProfile *
run (const EmbersCompareSide *baseline,
     const EmbersCompareSide *comparison,
     GCancellable            *cancellable,
     EmbersProfile          **loaded,
     GError                 **error)
{
  Wait wait = { NULL };
  EmbersProfile *diff;

  embers_comparison_run_async (baseline, comparison, cancellable, on_done, &wait);
  diff = embers_comparison_run_finish (wait_for (&wait), loaded, loaded != NULL ? loaded + 1 : NULL, error);
  g_clear_object (&wait.result);
  return diff;
}

static GFile *
fixture (const char *name)
{
  return g_file_new_build_filename (g_getenv ("G_TEST_SRCDIR"), "fixtures", "go", name, NULL);
}

/* "Is this a file or a query URL", for every way one arrives */
static void
test_location (void)
{
  g_autoptr(GFile) url = embers_location_new_for_arg ("http://localhost:4040/?query=" CPU "{}");
  g_autoptr(GFile) https = g_file_new_for_uri ("HTTPS://example.com/explore?query=" CPU "{}");
  g_autoptr(GFile) path = embers_location_new_for_arg ("profile.pb.gz");
  g_autoptr(GFile) odd = embers_location_new_for_arg ("http-notes.txt");
  g_autoptr(GFile) uri = g_file_new_for_uri ("file:///tmp/http%3A.pb");
  g_autofree char *back = embers_location_dup_query_url (url);
  g_autofree char *back_https = embers_location_dup_query_url (https);

  g_assert_cmpint (embers_location_classify ("http://localhost:4040/?query=x"), ==, EMBERS_LOCATION_QUERY_URL);
  g_assert_cmpint (embers_location_classify ("https://grafana.example/a/grafana-pyroscope-app/x"), ==,
                   EMBERS_LOCATION_QUERY_URL);
  g_assert_cmpint (embers_location_classify ("/tmp/cpu.pb.gz"), ==, EMBERS_LOCATION_FILE);
  g_assert_cmpint (embers_location_classify ("file:///tmp/cpu.pb.gz"), ==, EMBERS_LOCATION_FILE);
  g_assert_cmpint (embers_location_classify ("http-notes.txt"), ==, EMBERS_LOCATION_FILE);

  g_assert_cmpstr (back, ==, "http://localhost:4040/?query=" CPU "{}");
  g_assert_nonnull (back_https);
  g_assert_null (embers_location_dup_query_url (path));
  g_assert_null (embers_location_dup_query_url (odd));
  g_assert_null (embers_location_dup_query_url (uri));
  g_assert_true (g_file_is_native (path));
}

/* Loading through the one place: a file, and a query URL's merged graph */
static void
test_location_load (void)
{
  g_autoptr(EmbersTestServer) server = start_server (NULL);
  g_autoptr(GFile) file = fixture ("cpu-before.pb.gz");
  g_autoptr(EmbersQuery) query = embers_query_new (CPU, EU, NOW_MS - 3600000, NOW_MS);
  g_autofree char *url = embers_query_url_build (embers_test_server_get_url (server), query);
  g_autoptr(GFile) url_file = embers_location_new_for_arg (url);
  g_autoptr(GFile) missing = fixture ("no-such-profile.pb.gz");
  g_autoptr(EmbersProfile) from_file = NULL;
  g_autoptr(EmbersProfile) from_url = NULL;
  g_autoptr(GError) error = NULL;
  Wait wait = { NULL };

  embers_location_load_async (file, NULL, on_done, &wait);
  from_file = embers_location_load_finish (wait_for (&wait), &error);
  g_clear_object (&wait.result);
  g_assert_no_error (error);
  g_assert_cmpint (embers_profile_get_total (from_file, 0), >, 0);

  embers_location_load_async (url_file, NULL, on_done, &wait);
  from_url = embers_location_load_finish (wait_for (&wait), &error);
  g_clear_object (&wait.result);
  g_assert_no_error (error);
  g_assert_cmpint (embers_profile_get_total (from_url, 0), >, 0);
  g_assert_cmpint (embers_test_server_stat (server, "requests", MERGE_PATH), ==, 1);

  embers_location_load_async (missing, NULL, on_done, &wait);
  g_assert_null (embers_location_load_finish (wait_for (&wait), &error));
  g_clear_object (&wait.result);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
}

/* Two queries on one source: the server's Diff, one request, nothing
 * merged here; the same numbers as two merges diffed locally */
static void
test_queries_server_diff (void)
{
  g_autoptr(EmbersTestServer) server = start_server (NULL);
  g_autoptr(EmbersSource) source = make_source (server);
  g_autoptr(EmbersQuery) left = embers_query_new (CPU, EU, NOW_MS - 3600000, NOW_MS);
  g_autoptr(EmbersQuery) right = embers_query_new (CPU, US, NOW_MS - 3600000, NOW_MS);
  g_autoptr(EmbersCompareSide) a = embers_compare_side_new_query (source, left);
  g_autoptr(EmbersCompareSide) b = embers_compare_side_new_query (source, right);
  g_autoptr(EmbersProfile) diff = NULL;
  g_autoptr(GError) error = NULL;
  EmbersProfile *loaded[2] = { NULL, NULL };

  diff = run (a, b, NULL, loaded, &error);
  g_assert_no_error (error);
  g_assert_true (embers_profile_is_diff (diff));
  g_assert_null (loaded[0]);
  g_assert_null (loaded[1]);
  g_assert_cmpint (embers_test_server_stat (server, "requests", DIFF_PATH), ==, 1);
  g_assert_cmpint (embers_test_server_stat (server, "requests", MERGE_PATH), ==, 0);
  g_assert_cmpint (embers_profile_get_total (diff, EMBERS_DIFF_BASELINE), >, 0);
  g_assert_cmpint (embers_profile_get_total (diff, EMBERS_DIFF_COMPARISON), >, 0);
}

/* A server without Diff (404 behind a proxy): two merges, diffed here,
 * with the same totals the server's Diff gives */
static void
test_queries_fallback (void)
{
  g_autoptr(EmbersTestServer) old = start_server ("--no-diff");
  g_autoptr(EmbersTestServer) server = start_server (NULL);
  g_autoptr(EmbersSource) old_source = make_source (old);
  g_autoptr(EmbersSource) source = make_source (server);
  g_autoptr(EmbersQuery) left = embers_query_new (CPU, EU, NOW_MS - 3600000, NOW_MS);
  g_autoptr(EmbersQuery) right = embers_query_new (CPU, US, NOW_MS - 3600000, NOW_MS);
  g_autoptr(EmbersCompareSide) a = embers_compare_side_new_query (old_source, left);
  g_autoptr(EmbersCompareSide) b = embers_compare_side_new_query (old_source, right);
  g_autoptr(EmbersCompareSide) sa = embers_compare_side_new_query (source, left);
  g_autoptr(EmbersCompareSide) sb = embers_compare_side_new_query (source, right);
  g_autoptr(EmbersProfile) fallback = NULL;
  g_autoptr(EmbersProfile) served = NULL;
  g_autoptr(GError) error = NULL;

  fallback = run (a, b, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (embers_profile_is_diff (fallback));
  g_assert_cmpint (embers_test_server_stat (old, "requests", DIFF_PATH), ==, 1);
  g_assert_cmpint (embers_test_server_stat (old, "requests", MERGE_PATH), ==, 2);

  served = run (sa, sb, NULL, NULL, &error);
  g_assert_no_error (error);
  for (guint t = 0; t < 2; t++)
    g_assert_cmpint (embers_profile_get_total (fallback, t), ==, embers_profile_get_total (served, t));
  g_assert_cmpuint (embers_profile_get_n_nodes (fallback), ==, embers_profile_get_n_nodes (served));
}

/* CPU time against bytes: refused before the server is asked */
static void
test_units_refused (void)
{
  g_autoptr(EmbersTestServer) server = start_server (NULL);
  g_autoptr(EmbersSource) source = make_source (server);
  g_autoptr(EmbersQuery) left = embers_query_new (CPU, EU, NOW_MS - 3600000, NOW_MS);
  g_autoptr(EmbersQuery) right = embers_query_new (ALLOC, EU, NOW_MS - 3600000, NOW_MS);
  g_autoptr(EmbersCompareSide) a = embers_compare_side_new_query (source, left);
  g_autoptr(EmbersCompareSide) b = embers_compare_side_new_query (source, right);
  g_autoptr(GError) error = NULL;

  g_assert_null (run (a, b, NULL, NULL, &error));
  g_assert_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_UNSUPPORTED);
  g_assert_cmpint (embers_test_server_stat (server, "requests", DIFF_PATH), ==, 0);
  g_assert_cmpint (embers_test_server_stat (server, "requests", MERGE_PATH), ==, 0);
}

/* A file against a server query: the query merged by its source, the file
 * loaded on a thread (and handed back for its sample types), diffed here */
static void
test_file_against_query (void)
{
  g_autoptr(EmbersTestServer) server = start_server (NULL);
  g_autoptr(EmbersSource) source = make_source (server);
  g_autoptr(EmbersQuery) right = embers_query_new (CPU, US, NOW_MS - 3600000, NOW_MS);
  g_autoptr(GFile) file = fixture ("cpu-before.pb.gz");
  g_autoptr(EmbersCompareSide) a = embers_compare_side_new_location (file);
  g_autoptr(EmbersCompareSide) b = embers_compare_side_new_query (source, right);
  g_autoptr(EmbersProfile) diff = NULL;
  g_autoptr(EmbersProfile) before = NULL;
  g_autoptr(GError) error = NULL;
  EmbersProfile *loaded[2] = { NULL, NULL };

  embers_compare_side_set_sample_type (a, "cpu");
  diff = run (a, b, NULL, loaded, &error);
  g_assert_no_error (error);
  g_assert_true (embers_profile_is_diff (diff));
  g_assert_nonnull (loaded[0]);
  g_assert_null (loaded[1]);
  g_assert_cmpint (embers_test_server_stat (server, "requests", MERGE_PATH), ==, 1);
  g_assert_cmpint (embers_test_server_stat (server, "requests", DIFF_PATH), ==, 0);

  /* The baseline's total is the file's cpu column */
  before = embers_profile_load_file (file, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (embers_profile_get_total (diff, EMBERS_DIFF_BASELINE), ==,
                   embers_profile_get_total (before, (guint) embers_profile_find_sample_type (before, "cpu")));

  /* A profile loaded before is not loaded again */
  {
    g_autoptr(EmbersCompareSide) held = embers_compare_side_new_profile (loaded[0], file);
    g_autoptr(EmbersProfile) again = NULL;

    again = run (held, b, NULL, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpint (embers_profile_get_total (again, EMBERS_DIFF_BASELINE), ==,
                     embers_profile_get_total (diff, EMBERS_DIFF_BASELINE));
  }
  g_clear_object (&loaded[0]);
}

/* Two files: no server at all; a missing file names itself, and the other
 * side's file still comes back loaded */
static void
test_files (void)
{
  g_autoptr(GFile) before = fixture ("cpu-before.pb.gz");
  g_autoptr(GFile) after = fixture ("cpu-after.pb.gz");
  g_autoptr(GFile) missing = fixture ("gone.pb.gz");
  g_autoptr(EmbersCompareSide) a = embers_compare_side_new_location (before);
  g_autoptr(EmbersCompareSide) b = embers_compare_side_new_location (after);
  g_autoptr(EmbersCompareSide) m = embers_compare_side_new_location (missing);
  g_autoptr(EmbersProfile) diff = NULL;
  g_autoptr(GError) error = NULL;
  EmbersProfile *loaded[2] = { NULL, NULL };

  diff = run (a, b, NULL, loaded, &error);
  g_assert_no_error (error);
  g_assert_true (embers_profile_is_diff (diff));
  g_assert_nonnull (loaded[0]);
  g_assert_nonnull (loaded[1]);
  g_clear_object (&loaded[0]);
  g_clear_object (&loaded[1]);

  g_assert_null (run (a, m, NULL, loaded, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_assert_true (g_str_has_prefix (error->message, "gone.pb.gz: "));
  g_assert_nonnull (loaded[0]);
  g_assert_null (loaded[1]);
  g_clear_object (&loaded[0]);
}

/* Two query URLs on one server: its Diff */
static void
test_urls (void)
{
  g_autoptr(EmbersTestServer) server = start_server (NULL);
  g_autoptr(EmbersQuery) left = embers_query_new (CPU, EU, NOW_MS - 3600000, NOW_MS);
  g_autoptr(EmbersQuery) right = embers_query_new (CPU, US, NOW_MS - 3600000, NOW_MS);
  g_autofree char *left_url = embers_query_url_build (embers_test_server_get_url (server), left);
  g_autofree char *right_url = embers_query_url_build (embers_test_server_get_url (server), right);
  g_autoptr(GFile) lf = embers_location_new_for_arg (left_url);
  g_autoptr(GFile) rf = embers_location_new_for_arg (right_url);
  g_autoptr(EmbersCompareSide) a = embers_compare_side_new_location (lf);
  g_autoptr(EmbersCompareSide) b = embers_compare_side_new_location (rf);
  g_autoptr(EmbersProfile) diff = NULL;
  g_autoptr(GError) error = NULL;

  diff = run (a, b, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (embers_profile_is_diff (diff));
  g_assert_cmpint (embers_test_server_stat (server, "requests", DIFF_PATH), ==, 1);
}

/* Cancelled before the answer: a cancelled error, no diff */
static void
test_cancel (void)
{
  g_autoptr(EmbersTestServer) server = start_server (NULL);
  g_autoptr(EmbersSource) source = make_source (server);
  g_autoptr(EmbersQuery) left = embers_query_new (CPU, EU, NOW_MS - 3600000, NOW_MS);
  g_autoptr(EmbersQuery) right = embers_query_new (CPU, US, NOW_MS - 3600000, NOW_MS);
  g_autoptr(EmbersCompareSide) a = embers_compare_side_new_query (source, left);
  g_autoptr(EmbersCompareSide) b = embers_compare_side_new_query (source, right);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;

  g_cancellable_cancel (cancellable);
  g_assert_null (run (a, b, cancellable, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

/* Recording rules through EmbersSource: no caller needs to know it is a
 * Pyroscope source */
static void
on_capabilities (GObject    *object,
                 GParamSpec *pspec,
                 guint      *count)
{
  (*count)++;
}

static void
test_rules_on_source (void)
{
  g_autoptr(EmbersTestServer) server = start_server ("--recording-rules");
  g_autoptr(EmbersSource) source = make_source (server);
  g_autoptr(EmbersRecordingRule) rule = embers_recording_rule_new ();
  g_autoptr(EmbersRecordingRule) created = NULL;
  g_autoptr(EmbersRecordingRule) fetched = NULL;
  g_autoptr(GPtrArray) rules = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *location = embers_source_dup_location (source);
  Wait wait = { NULL };

  g_assert_true (embers_source_offers_recording_rules (source));
  g_assert_null (embers_source_dup_unavailable_reason (source, EMBERS_SOURCE_CAN_RECORDING_RULES));
  g_assert_null (embers_source_dup_tenant (source));
  g_assert_true (g_str_has_prefix (location, "http://127.0.0.1:"));

  rule->metric_name = g_strdup ("profiles_recorded_api_cpu");
  rule->matchers = g_strdupv ((char *[]) { (char *) "{__profile_type__=\"" CPU "\"}",
                                           (char *) "{service_name=\"api\"}", NULL });
  rule->group_by = g_strdupv ((char *[]) { (char *) "region", NULL });
  embers_source_upsert_recording_rule (source, rule, NULL, on_done, &wait);
  created = embers_source_upsert_recording_rule_finish (source, wait_for (&wait), &error);
  g_clear_object (&wait.result);
  g_assert_no_error (error);
  g_assert_nonnull (created->id);
  g_assert_cmpstr (created->metric_name, ==, "profiles_recorded_api_cpu");
  g_assert_true (embers_source_get_capabilities (source) & EMBERS_SOURCE_CAN_RECORDING_RULES);

  embers_source_list_recording_rules (source, NULL, on_done, &wait);
  rules = embers_source_list_recording_rules_finish (source, wait_for (&wait), &error);
  g_clear_object (&wait.result);
  g_assert_no_error (error);
  g_assert_cmpuint (rules->len, ==, 1);

  embers_source_get_recording_rule (source, created->id, NULL, on_done, &wait);
  fetched = embers_source_get_recording_rule_finish (source, wait_for (&wait), &error);
  g_clear_object (&wait.result);
  g_assert_no_error (error);
  g_assert_cmpstr (fetched->metric_name, ==, created->metric_name);

  embers_source_delete_recording_rule (source, created->id, NULL, on_done, &wait);
  g_assert_true (embers_source_delete_recording_rule_finish (source, wait_for (&wait), &error));
  g_clear_object (&wait.result);
  g_assert_no_error (error);
}

/* A server without the rules API: the source learns it from the answer,
 * says why, and notifies its capabilities */
static void
test_rules_off (void)
{
  g_autoptr(EmbersTestServer) server = start_server (NULL);
  g_autoptr(EmbersSource) source = make_source (server);
  g_autoptr(GPtrArray) rules = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *reason = NULL;
  guint notified = 0;
  Wait wait = { NULL };

  g_signal_connect (source, "notify::capabilities", G_CALLBACK (on_capabilities), &notified);
  embers_source_list_recording_rules (source, NULL, on_done, &wait);
  rules = embers_source_list_recording_rules_finish (source, wait_for (&wait), &error);
  g_clear_object (&wait.result);
  g_assert_null (rules);
  g_assert_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_UNIMPLEMENTED);
  reason = embers_source_dup_unavailable_reason (source, EMBERS_SOURCE_CAN_RECORDING_RULES);
  g_assert_nonnull (reason);
  g_assert_cmpuint (notified, >=, 1);
  g_assert_false (embers_source_get_capabilities (source) & EMBERS_SOURCE_CAN_RECORDING_RULES);
  g_signal_handlers_disconnect_by_data (source, &notified);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/embers/comparison/location", test_location);
  g_test_add_func ("/embers/comparison/location-load", test_location_load);
  g_test_add_func ("/embers/comparison/queries-server-diff", test_queries_server_diff);
  g_test_add_func ("/embers/comparison/queries-fallback", test_queries_fallback);
  g_test_add_func ("/embers/comparison/units-refused", test_units_refused);
  g_test_add_func ("/embers/comparison/file-against-query", test_file_against_query);
  g_test_add_func ("/embers/comparison/files", test_files);
  g_test_add_func ("/embers/comparison/urls", test_urls);
  g_test_add_func ("/embers/comparison/cancel", test_cancel);
  g_test_add_func ("/embers/comparison/rules-on-source", test_rules_on_source);
  g_test_add_func ("/embers/comparison/rules-off", test_rules_off);

  return g_test_run ();
}
