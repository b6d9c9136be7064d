/* test-pyroscope-snapshots.c: regressions across many, on the test server
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Ten versions of a service deployed one after another over an hour, six
 * profiles each, ingested as folded stacks; "parse" takes 60 % more from
 * v6 on. Lined up by the label "version" and by ten time ranges, the jump
 * is flagged at v5 → v6 and only there. The server is asked as the header
 * of embers-pyroscope-snapshots.h says: one SelectSeries for the totals,
 * one SelectMergeStacktraces for the functions, and one SelectSeries per
 * call site for all ten snapshots at once (counted by the server). Rows
 * are functions: one called from twelve places is one row.
 *
 * The noise test of a comparison on the server (v1–v5 against v6–v10):
 * one SelectSeries per side for its steps, one per call site and side;
 * parse grew beyond the noise, by its stack.
 *
 * SelectSeries with a stack_trace_selector is the call site's total per
 * profile, a point for every profile (0 where the call site has no
 * samples), as upstream's mergeByLabelsWithStackTraceSelector makes it
 * (pkg/phlaredb/sample_merge.go: seriesBuilder.Add(…, v.Total) per row;
 * the call site's Total from pkg/phlaredb/symdb/stacktrace_selection.go).
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include <libsoup/soup.h>

#include "embers-pyroscope-noise.h"
#include "embers-pyroscope-snapshots.h"
#include "embers-test-server-spawn.h"
#include "embers-test-wait.h"

#define CPU "process_cpu:cpu:nanoseconds:cpu:nanoseconds"
#define QUERIER "/querier.v1.QuerierService/"

static EmbersTestServer *server;
static gint64 hour_ms;   /* the start of the hour that holds the data */

static double
normal (GRand *rand)
{
  double u1 = g_rand_double_range (rand, 1e-300, 1);
  double u2 = g_rand_double (rand);

  return sqrt (-2 * log (u1)) * cos (2 * G_PI * u2);
}

static void
ingest_service (SoupSession *session,
                const char  *service,
                const char  *version,
                gint64       time_s,
                const char  *body)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SoupMessage) msg = NULL;
  g_autoptr(GBytes) answer = NULL;
  g_autofree char *head = g_strconcat (service, ".cpu{version=", NULL);
  g_autofree char *name = g_uri_escape_string (head, NULL, FALSE);
  g_autofree char *url = g_strdup_printf ("%singest?name=%s%s}&from=%" G_GINT64_FORMAT,
                                          embers_test_server_get_url (server), name, version, time_s);

  msg = soup_message_new ("POST", url);
  g_assert_nonnull (msg);
  soup_message_set_request_body_from_bytes (msg, "text/plain", g_bytes_new_static (body, strlen (body)));
  answer = soup_session_send_and_read (session, msg, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (soup_message_get_status (msg), ==, 200);
}

static void
ingest (SoupSession *session,
        const char  *version,
        gint64       time_s,
        const char  *body)
{
  ingest_service (session, "app", version, time_s, body);
}

/* Service "spread": the same versions, but parse is called from twelve
 * places (main;a1;parse … main;a12;parse, 10 each, and once through
 * itself, main;a1;parse;walk;parse 5), less than render or idle at any one
 * of them; all of it grows 60 % from v6 on */
static void
ingest_spread (void)
{
  g_autoptr(SoupSession) session = soup_session_new ();
  g_autoptr(GRand) rand = g_rand_new_with_seed (29);

  for (guint v = 0; v < 10; v++)
    for (guint i = 0; i < 6; i++)
      {
        g_autofree char *version = g_strdup_printf ("v%u", v + 1);
        g_autoptr(GString) body = g_string_new (NULL);
        double f = v >= 5 ? 1.6 : 1;

        for (guint site = 1; site <= 12; site++)
          g_string_append_printf (body, "main;a%u;parse %d\n", site, (int)(10 * f * (1 + 0.08 * normal (rand))));
        g_string_append_printf (body, "main;a1;parse;walk;parse %d\n", (int)(5 * f));
        g_string_append_printf (body, "main;render %d\nmain;idle %d\n",
                                (int)(300 * (1 + 0.08 * normal (rand))), (int)(300 * (1 + 0.08 * normal (rand))));
        ingest_service (session, "spread", version, hour_ms / 1000 + (v * 6 + i) * 60 + 30, body->str);
      }
}

/* v1 … v10, six minutes each: a profile in the middle of every minute */
static void
ingest_versions (void)
{
  g_autoptr(SoupSession) session = soup_session_new ();
  g_autoptr(GRand) rand = g_rand_new_with_seed (23);

  hour_ms = (g_get_real_time () / 1000 / 3600000 - 2) * 3600000;
  for (guint v = 0; v < 10; v++)
    for (guint i = 0; i < 6; i++)
      {
        g_autofree char *version = g_strdup_printf ("v%u", v + 1);
        g_autofree char *body = g_strdup_printf ("main;parse %d\nmain;render %d\nmain;idle %d\n",
                                                 (int)(100 * (v >= 5 ? 1.6 : 1) * (1 + 0.08 * normal (rand))),
                                                 (int)(300 * (1 + 0.08 * normal (rand))),
                                                 (int)(300 * (1 + 0.08 * normal (rand))));

        ingest (session, version, hour_ms / 1000 + (v * 6 + i) * 60 + 30, body);
      }
}

typedef struct
{
  GAsyncResult *result;
  guint         progress_calls;
  guint         last_done;
  guint         last_total;
} Wait;

static void
on_done (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Wait *wait = user_data;

  g_set_object (&wait->result, result);
}

static void
on_progress (guint    done,
             guint    total,
             gpointer user_data)
{
  Wait *wait = user_data;

  wait->progress_calls++;
  wait->last_done = done;
  wait->last_total = total;
}

static EmbersPyroscopeSource *
new_source (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersConnectClient) client = embers_connect_client_new (embers_test_server_get_url (server), &error);

  g_assert_no_error (error);
  return embers_pyroscope_source_new (client);
}

static EmbersSnapshots *
run_rows (EmbersPyroscopeSource *source,
          EmbersSnapshots       *snapshots,
          const EmbersQuery     *base,
          const char            *label,
          guint                  max_rows,
          Wait                  *wait,
          GError               **error)
{
  EmbersSnapshots *result;

  embers_pyroscope_snapshots_async (source, snapshots, base, label, max_rows, on_progress, wait, NULL, on_done, wait);
  embers_test_wait_while (wait->result == NULL);
  result = embers_pyroscope_snapshots_finish (source, wait->result, error);
  g_clear_object (&wait->result);
  return result;
}

static EmbersSnapshots *
run (EmbersPyroscopeSource *source,
     EmbersSnapshots       *snapshots,
     const EmbersQuery     *base,
     const char            *label,
     Wait                  *wait,
     GError               **error)
{
  return run_rows (source, snapshots, base, label, 0, wait, error);
}

/* v1 … v10 of @base as snapshots, by the label "version" */
static EmbersSnapshots *
versions (const EmbersQuery *base)
{
  EmbersSnapshots *snapshots = embers_snapshots_new (EMBERS_DIFF_STATS_SHARE, 0);

  for (guint v = 0; v < 10; v++)
    {
      g_autofree char *version = g_strdup_printf ("v%u", v + 1);
      g_autoptr(EmbersQuery) q = embers_snapshots_query_with_label (base, "version", version);

      embers_snapshots_add_snapshot (snapshots, version, q, NULL);
    }
  return snapshots;
}

static void
check_jump (EmbersSnapshots *s)
{
  const EmbersSnapshotRow *row;

  g_assert_cmpuint (embers_snapshots_get_n_rows (s), ==, 3);
  row = embers_snapshots_get_row (s, 0);
  g_assert_cmpstr (row->key, ==, "parse");
  g_assert_cmpstr (row->name, ==, "parse");
  g_assert_cmpint (row->jump, ==, 4);
  g_assert_cmpint (row->steps[4].verdict, ==, EMBERS_CHANGE_GREW);
  g_assert_cmpuint (row->steps[4].n_baseline, ==, 6);
  g_assert_cmpuint (row->steps[4].n_comparison, ==, 6);
  g_assert_cmpfloat_with_epsilon (row->shares[0], 100.0 / 700, 0.02);
  g_assert_cmpfloat_with_epsilon (row->shares[9], 160.0 / 760, 0.02);
  g_assert_cmpuint (embers_snapshots_get_n_flagged (s), >=, 1);
  for (guint step = 0; step < 9; step++)
    if (step != 4)
      g_assert_cmpint (row->steps[step].verdict, ==, EMBERS_CHANGE_WITHIN_NOISE);
  g_assert_cmpstr (embers_snapshots_get_sample_type (s), ==, "cpu");
}

static void
test_by_label (void)
{
  g_autoptr(EmbersPyroscopeSource) source = new_source ();
  g_autoptr(EmbersQuery) base = embers_query_new (CPU, "{service_name=\"app\"}", hour_ms, hour_ms + 3600000);
  g_autoptr(EmbersSnapshots) snapshots = versions (base);
  g_autoptr(EmbersSnapshots) result = NULL;
  g_autoptr(GError) error = NULL;
  Wait wait = { 0 };

  g_free (embers_test_server_control (server, "DELETE", "embers-test/stats", NULL));
  result = run (source, snapshots, base, "version", &wait, &error);
  g_assert_no_error (error);
  g_assert_true (result == snapshots);
  check_jump (result);
  g_assert_cmpstr (embers_snapshots_get_name (result, 9), ==, "v10");
  g_assert_cmpstr (embers_snapshots_get_query (result, 5)->label_selector, ==,
                   "{service_name=\"app\",version=\"v6\"}");

  /* One query for the totals, one merge, one per call site: not one per cell */
  g_assert_cmpint (embers_test_server_stat (server, "requests", QUERIER "SelectSeries"), ==, 1 + 3);
  g_assert_cmpint (embers_test_server_stat (server, "requests", QUERIER "SelectMergeStacktraces"), ==, 1);
  g_assert_cmpint (embers_test_server_stat (server, "maxInFlight", QUERIER "SelectSeries"), <=,
                   EMBERS_PYROSCOPE_SNAPSHOTS_IN_FLIGHT);
  g_assert_cmpuint (wait.last_done, ==, 3);
  g_assert_cmpuint (wait.last_total, ==, 3);
}

/* The same hour as ten time ranges of six minutes */
static void
test_by_time (void)
{
  g_autoptr(EmbersPyroscopeSource) source = new_source ();
  g_autoptr(EmbersSnapshots) snapshots = embers_snapshots_new (EMBERS_DIFF_STATS_SHARE, 0);
  g_autoptr(EmbersSnapshots) result = NULL;
  g_autoptr(EmbersQuery) base = embers_query_new (CPU, "{service_name=\"app\"}", hour_ms, hour_ms + 3600000);
  g_autoptr(GError) error = NULL;
  Wait wait = { 0 };

  embers_snapshots_add_time_ranges (snapshots, base, 10);
  g_assert_cmpint (embers_snapshots_get_query (snapshots, 1)->start_ms, ==, hour_ms + 360000);
  g_assert_cmpfloat (embers_pyroscope_snapshots_step (snapshots, base, NULL), ==, 15);
  result = run (source, snapshots, base, NULL, &wait, &error);
  g_assert_no_error (error);
  check_jump (result);
}

/* A function spread over many small call sites is one row: the sum of its
 * outermost call sites (the recursive one counted once), each asked once
 * for all ten versions */
static void
test_spread (void)
{
  g_autoptr(EmbersPyroscopeSource) source = new_source ();
  g_autoptr(EmbersQuery) base = embers_query_new (CPU, "{service_name=\"spread\"}", hour_ms, hour_ms + 3600000);
  g_autoptr(EmbersSnapshots) snapshots = versions (base);
  g_autoptr(EmbersSnapshots) result = NULL;
  g_autoptr(GError) error = NULL;
  const EmbersSnapshotRow *row;
  Wait wait = { 0 };

  g_free (embers_test_server_control (server, "DELETE", "embers-test/stats", NULL));
  /* Three rows: the three heaviest functions, parse among them though
   * each of its call sites is lighter than any a-caller above it */
  result = run_rows (source, snapshots, base, "version", 3, &wait, &error);
  g_assert_no_error (error);

  g_assert_cmpuint (embers_snapshots_get_n_rows (result), ==, 3);
  g_assert_cmpint (embers_snapshots_find_row (result, "render"), >=, 0);
  g_assert_cmpint (embers_snapshots_find_row (result, "idle"), >=, 0);
  row = embers_snapshots_get_row (result, 0);
  g_assert_cmpstr (row->key, ==, "parse");
  g_assert_cmpint (row->jump, ==, 4);
  g_assert_cmpint (row->steps[4].verdict, ==, EMBERS_CHANGE_GREW);
  /* 125 of 725 before, 200 of 800 after: the whole function, once */
  g_assert_cmpfloat_with_epsilon (row->shares[0], 125.0 / 725, 0.01);
  g_assert_cmpfloat_with_epsilon (row->shares[9], 200.0 / 800, 0.01);

  /* Totals, merge, and one per call site: twelve of parse, render, idle */
  g_assert_cmpint (embers_test_server_stat (server, "requests", QUERIER "SelectSeries"), ==, 1 + 12 + 2);
  g_assert_cmpint (embers_test_server_stat (server, "requests", QUERIER "SelectMergeStacktraces"), ==, 1);
  g_assert_cmpuint (wait.last_total, ==, 14);
}

/* A query that fails fails the whole: nothing partial */
static void
test_error (void)
{
  g_autoptr(EmbersPyroscopeSource) source = new_source ();
  g_autoptr(EmbersSnapshots) snapshots = embers_snapshots_new (EMBERS_DIFF_STATS_SHARE, 0);
  g_autoptr(EmbersSnapshots) result = NULL;
  g_autoptr(EmbersQuery) base = embers_query_new (CPU, "{service_name=\"app\"}", hour_ms, hour_ms + 3600000);
  g_autoptr(GError) error = NULL;
  Wait wait = { 0 };

  for (guint v = 0; v < 10; v++)
    {
      g_autofree char *version = g_strdup_printf ("v%u", v + 1);

      embers_snapshots_add_snapshot (snapshots, version, NULL, NULL);
    }
  /* The fourth request: the second call site's series */
  g_free (embers_test_server_control (server, "POST", "embers-test/faults",
                                      "{\"code\":\"unavailable\",\"message\":\"down for a moment\",\"every\":4,\"count\":1}"));
  result = run (source, snapshots, base, "version", &wait, &error);
  g_free (embers_test_server_control (server, "DELETE", "embers-test/faults", NULL));
  g_assert_null (result);
  g_assert_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_UNAVAILABLE);
  g_assert_false (embers_snapshots_is_computed (snapshots));
}

static void
diff_done (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_set_object ((GAsyncResult **)user_data, result);
}

static void
test_diff_stats (void)
{
  g_autoptr(EmbersPyroscopeSource) source = new_source ();
  g_autoptr(EmbersQuery) left = embers_query_new (CPU, "{service_name=\"app\",version=~\"v[1-5]\"}",
                                                  hour_ms, hour_ms + 3600000);
  g_autoptr(EmbersQuery) right = embers_query_new (CPU, "{service_name=\"app\",version=~\"v([6-9]|10)\"}",
                                                   hour_ms, hour_ms + 3600000);
  g_autoptr(EmbersProfile) diff = NULL;
  g_autoptr(EmbersDiffStats) stats = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree EmbersChangeVerdict *verdicts = NULL;
  const EmbersChangeStats *parse;

  embers_source_diff (EMBERS_SOURCE (source), left, right, NULL, diff_done, &result);
  embers_test_wait_while (result == NULL);
  diff = embers_source_diff_finish (EMBERS_SOURCE (source), result, &error);
  g_assert_no_error (error);
  g_clear_object (&result);

  g_free (embers_test_server_control (server, "DELETE", "embers-test/stats", NULL));
  embers_pyroscope_diff_stats_async (source, left, right, diff, EMBERS_DIFF_STATS_SHARE, 0, NULL, diff_done, &result);
  embers_test_wait_while (result == NULL);
  stats = embers_pyroscope_diff_stats_finish (source, result, &error);
  g_assert_no_error (error);

  /* A profile a minute, half an hour a side */
  g_assert_cmpuint (embers_diff_stats_get_n_steps (stats, EMBERS_DIFF_SIDE_BASELINE), ==, 30);
  g_assert_cmpuint (embers_diff_stats_get_n_steps (stats, EMBERS_DIFF_SIDE_COMPARISON), ==, 30);
  g_assert_cmpint (embers_diff_stats_get_key (stats), ==, EMBERS_DIFF_STATS_KEY_STACK);
  parse = embers_diff_stats_lookup (stats, "main;parse");
  g_assert_nonnull (parse);
  g_assert_cmpint (parse->verdict, ==, EMBERS_CHANGE_GREW);
  g_assert_cmpfloat (fabs (parse->change - 100 * ((160.0 / 760) / (100.0 / 700) - 1)), <=, parse->interval + 5);
  /* main is all of the root: not asked */
  g_assert_null (embers_diff_stats_lookup (stats, "main"));
  g_assert_cmpint (embers_test_server_stat (server, "requests", QUERIER "SelectSeries"), ==, 2 + 3 * 2);

  verdicts = embers_diff_stats_node_verdicts (stats, diff);
  for (guint32 n = 1; n < embers_profile_get_n_nodes (diff); n++)
    if (g_str_equal (embers_profile_node_name_str (diff, n), "parse"))
      g_assert_cmpint (verdicts[n], ==, EMBERS_CHANGE_GREW);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);

  server = embers_test_server_start (NULL, &error);
  g_assert_no_error (error);
  ingest_versions ();
  ingest_spread ();

  g_test_add_func ("/embers/pyroscope-snapshots/by-label", test_by_label);
  g_test_add_func ("/embers/pyroscope-snapshots/by-time", test_by_time);
  g_test_add_func ("/embers/pyroscope-snapshots/spread", test_spread);
  g_test_add_func ("/embers/pyroscope-snapshots/error", test_error);
  g_test_add_func ("/embers/pyroscope-snapshots/diff-stats", test_diff_stats);

  status = g_test_run ();
  embers_test_server_stop (server);
  return status;
}
