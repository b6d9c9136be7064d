/* test-client-server.c: the Pyroscope client against the test server, every
 * RPC in both encodings, and the server's Diff against our local diff
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <json-glib/json-glib.h>
#include <libsoup/soup.h>

#include "embers-call-tree.h"
#include "embers-diff.h"
#include "embers-over-time.h"
#include "embers-pyroscope-source.h"
#include "embers-query-url.h"
#include "embers-test-server-spawn.h"
#include "embers-top.h"
#include "embers-test-wait.h"

#define CPU "process_cpu:cpu:nanoseconds:cpu:nanoseconds"

static EmbersTestServer *server;

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
  g_clear_object (&wait->result);
  embers_test_wait_while (wait->result == NULL);
  return wait->result;
}

static EmbersPyroscopeSource *
make_source (gboolean json)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersConnectClient) client = embers_connect_client_new (embers_test_server_get_url (server), &error);

  g_assert_no_error (error);
  if (json)
    embers_connect_client_set_encoding (client, EMBERS_CONNECT_ENCODING_JSON);
  return embers_pyroscope_source_new (client);
}

static void
range (gint64 *start,
       gint64 *end)
{
  *end = g_get_real_time () / 1000;
  *start = *end - 3600 * 1000;
}

static EmbersProfile *
merge (EmbersSource *source,
       const char   *selector,
       gint64        start,
       gint64        end,
       gint64        max_nodes)
{
  g_autoptr(EmbersQuery) query = embers_query_new (CPU, selector, start, end);
  g_autoptr(GError) error = NULL;
  EmbersProfile *profile;
  Wait wait = { NULL };

  query->max_nodes = max_nodes;
  embers_source_merge_profile (source, query, NULL, on_done, &wait);
  profile = embers_source_merge_profile_finish (source, wait_for (&wait), &error);
  g_clear_object (&wait.result);
  g_assert_no_error (error);
  return profile;
}

static void
test_rpcs (gconstpointer data)
{
  gboolean json = GPOINTER_TO_INT (data);
  g_autoptr(EmbersPyroscopeSource) pyro = make_source (json);
  EmbersSource *source = EMBERS_SOURCE (pyro);
  g_autoptr(GError) error = NULL;
  Wait wait = { NULL };
  gint64 start, end;

  range (&start, &end);

  /* ProfileTypes */
  {
    g_autoptr(GPtrArray) types = NULL;
    gboolean found = FALSE;

    embers_source_list_profile_types (source, start, end, NULL, on_done, &wait);
    types = embers_source_list_profile_types_finish (source, wait_for (&wait), &error);
    g_assert_no_error (error);
    for (guint i = 0; i < types->len; i++)
      {
        EmbersProfileTypeInfo *info = g_ptr_array_index (types, i);

        if (g_str_equal (info->id, CPU))
          {
            found = TRUE;
            g_assert_cmpstr (info->sample_unit, ==, "nanoseconds");
          }
      }
    g_assert_true (found);
  }

  /* LabelNames, LabelValues */
  {
    const char *api[] = { "{service_name=\"api\"}", NULL };
    g_auto(GStrv) names = NULL;
    g_auto(GStrv) services = NULL;
    g_auto(GStrv) regions = NULL;

    embers_source_list_label_names (source, api, start, end, NULL, on_done, &wait);
    names = embers_source_list_label_names_finish (source, wait_for (&wait), &error);
    g_assert_no_error (error);
    g_assert_true (g_strv_contains ((const char * const *)names, "service_name"));
    g_assert_true (g_strv_contains ((const char * const *)names, "region"));

    embers_source_list_label_values (source, "service_name", NULL, start, end, NULL, on_done, &wait);
    services = embers_source_list_label_values_finish (source, wait_for (&wait), &error);
    g_assert_no_error (error);
    g_assert_true (g_strv_contains ((const char * const *)services, "api"));
    g_assert_true (g_strv_contains ((const char * const *)services, "checkout"));

    embers_source_list_label_values (source, "region", api, start, end, NULL, on_done, &wait);
    regions = embers_source_list_label_values_finish (source, wait_for (&wait), &error);
    g_assert_no_error (error);
    g_assert_true (g_strv_contains ((const char * const *)regions, "eu-west-1"));
  }

  /* Series: the service list */
  {
    const char *wanted[] = { "service_name", "__profile_type__", NULL };
    g_autoptr(GPtrArray) series = NULL;

    embers_source_list_series (source, NULL, wanted, start, end, NULL, on_done, &wait);
    series = embers_source_list_series_finish (source, wait_for (&wait), &error);
    g_assert_no_error (error);
    g_assert_cmpuint (series->len, >=, 4);
    for (guint i = 0; i < series->len; i++)
      g_assert_nonnull (embers_series_get_label (g_ptr_array_index (series, i), "service_name"));
  }

  /* SelectSeries grouped by region, on step boundaries */
  {
    g_autoptr(EmbersQuery) query = embers_query_new (CPU, "{service_name=\"api\"}", start, end);
    const char *by[] = { "region", NULL };
    g_autoptr(GPtrArray) series = NULL;
    double step = embers_source_step_for_range (start, end);

    embers_source_select_series (source, query, by, step, EMBERS_AGGREGATION_SUM, 0, NULL, on_done, &wait);
    series = embers_source_select_series_finish (source, wait_for (&wait), &error);
    g_assert_no_error (error);
    g_assert_cmpuint (series->len, ==, 3);
    for (guint i = 0; i < series->len; i++)
      {
        EmbersSeries *s = g_ptr_array_index (series, i);

        g_assert_cmpuint (s->n_points, >, 10);
        for (guint k = 0; k < s->n_points; k++)
          {
            gint64 step_ms = (gint64)(step * 1000);

            /* on step boundaries (of the epoch or of the range start) */
            g_assert_true (s->timestamps[k] % step_ms == 0 || (s->timestamps[k] - start) % step_ms == 0);
            g_assert_cmpint (s->timestamps[k], >=, start - step_ms);
            g_assert_cmpint (s->timestamps[k], <=, end);
            g_assert_cmpfloat (s->values[k], >=, 0);
          }
      }
  }

  /* SelectMergeStacktraces, and SelectMergeProfile (pprof) agree on totals */
  {
    g_autoptr(EmbersProfile) flame = merge (source, "{service_name=\"api\"}", start, end, 0);
    g_autoptr(EmbersProfile) pprof = NULL;
    g_autoptr(EmbersQuery) query = embers_query_new (CPU, "{service_name=\"api\"}", start, end);
    g_autoptr(GArray) rows = NULL;

    g_assert_cmpint (embers_profile_get_total (flame, 0), >, 0);
    rows = embers_top_compute (flame, 0);
    g_assert_cmpuint (rows->len, >, 3);

    embers_pyroscope_source_merge_pprof_async (pyro, query, NULL, on_done, &wait);
    pprof = embers_pyroscope_source_merge_pprof_finish (pyro, wait_for (&wait), &error);
    g_assert_no_error (error);
    g_assert_cmpint (embers_profile_get_total (pprof, embers_profile_get_default_sample_type (pprof)), ==,
                     embers_profile_get_total (flame, 0));
  }

  /* max_nodes: the cut nodes go to "other", the total stays */
  {
    g_autoptr(EmbersProfile) full = merge (source, "{}", start, end, 0);
    g_autoptr(EmbersProfile) cut = merge (source, "{}", start, end, 5);
    gboolean other = FALSE;

    g_assert_cmpint (embers_profile_get_total (cut, 0), ==, embers_profile_get_total (full, 0));
    g_assert_cmpuint (embers_profile_get_n_nodes (cut), <, embers_profile_get_n_nodes (full));
    for (guint i = 0; i < embers_profile_get_n_nodes (cut); i++)
      other |= g_str_equal (embers_profile_node_name_str (cut, i), "other");
    g_assert_true (other);
  }

  /* Errors from the server, by Connect code */
  {
    g_autoptr(EmbersQuery) bad = embers_query_new (CPU, "{service_name=", start, end);
    g_autoptr(EmbersQuery) no_range = embers_query_new (CPU, "{}", 0, 0);
    g_autoptr(EmbersProfile) p1 = NULL;
    g_autoptr(EmbersProfile) p2 = NULL;

    embers_source_merge_profile (source, bad, NULL, on_done, &wait);
    p1 = embers_source_merge_profile_finish (source, wait_for (&wait), &error);
    g_assert_null (p1);
    g_assert_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_INVALID_ARGUMENT);
    g_clear_error (&error);

    embers_source_merge_profile (source, no_range, NULL, on_done, &wait);
    p2 = embers_source_merge_profile_finish (source, wait_for (&wait), &error);
    g_assert_null (p2);
    g_assert_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_INVALID_ARGUMENT);
    g_assert_nonnull (strstr (error->message, "time range"));
    g_clear_error (&error);
  }

  g_clear_object (&wait.result);
}

/* A call site's series (SelectSeries with a stack_trace_selector, as the
 * rule preview and Show Over Time ask for it): each step holds the call
 * site's total (Pyroscope's pkg/phlaredb/head_queriers.go adds
 * symdb.CallSiteValues.Total per profile; pkg/phlaredb/symdb/
 * stacktrace_selection.go: the stacks with the call site as their
 * prefix), never more than the step's total, and its share over the
 * range is the merged profile's share of that node */
static void
test_call_site_series (gconstpointer data)
{
  gboolean json = GPOINTER_TO_INT (data);
  g_autoptr(EmbersPyroscopeSource) pyro = make_source (json);
  EmbersSource *source = EMBERS_SOURCE (pyro);
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersProfile) merged = NULL;
  g_autoptr(EmbersQuery) query = NULL;
  g_autoptr(EmbersOverTime) over = NULL;
  g_autoptr(GPtrArray) none = NULL;
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) call_site = NULL;
  const char *missing[] = { "no.such.function", NULL };
  EmbersSeries *value, *total;
  Wait wait = { NULL };
  guint32 path[2];
  double node_share;
  gint64 start, end;
  gboolean any = FALSE;

  range (&start, &end);
  merged = merge (source, "{service_name=\"api\"}", start, end, 0);
  /* Two frames down the heaviest path: a call site of two frames */
  g_assert_cmpuint (embers_call_tree_heaviest_path (merged, 0, 0, path, 2), ==, 2);
  g_strv_builder_add (builder, embers_profile_node_name_str (merged, path[0]));
  g_strv_builder_add (builder, embers_profile_node_name_str (merged, path[1]));
  call_site = g_strv_builder_end (builder);
  node_share = 100.0 * embers_profile_node_total (merged, 0, path[1]) / embers_profile_get_total (merged, 0);
  g_assert_cmpfloat (node_share, >, 1);
  g_assert_cmpfloat (node_share, <, 99);

  query = embers_query_new (CPU, "{service_name=\"api\"}", start, end);
  embers_over_time_fetch_async (source, query, (const char * const *) call_site, NULL, on_done, &wait);
  over = embers_over_time_fetch_finish (source, wait_for (&wait), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (over->value->len, ==, 1);
  g_assert_cmpuint (over->total->len, ==, 1);
  value = g_ptr_array_index (over->value, 0);
  total = g_ptr_array_index (over->total, 0);
  g_assert_cmpuint (value->n_points, >, 10);
  for (guint k = 0; k < value->n_points; k++)
    for (guint j = 0; j < total->n_points; j++)
      if (total->timestamps[j] == value->timestamps[k])
        {
          g_assert_cmpfloat (value->values[k], <=, total->values[j]);
          any |= value->values[k] > 0;
        }
  g_assert_true (any);
  g_assert_cmpfloat (over->mean_share, >, node_share * 0.8);
  g_assert_cmpfloat (over->mean_share, <, node_share * 1.25);

  /* A call site no stack has: nothing (or zeros) */
  embers_source_select_call_site_series (source, query, missing, NULL, NULL, on_done, &wait);
  none = embers_source_select_call_site_series_finish (source, wait_for (&wait), &error);
  g_assert_no_error (error);
  for (guint i = 0; i < none->len; i++)
    for (guint k = 0; k < ((EmbersSeries *) g_ptr_array_index (none, i))->n_points; k++)
      g_assert_cmpfloat (((EmbersSeries *) g_ptr_array_index (none, i))->values[k], ==, 0);
  g_clear_object (&wait.result);
}

/* The server's Diff must agree with our local diff of the same two merges */
static void
test_diff_agrees (gconstpointer data)
{
  gboolean json = GPOINTER_TO_INT (data);
  g_autoptr(EmbersPyroscopeSource) pyro = make_source (json);
  EmbersSource *source = EMBERS_SOURCE (pyro);
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersQuery) left = NULL;
  g_autoptr(EmbersQuery) right = NULL;
  g_autoptr(EmbersProfile) server_diff = NULL;
  g_autoptr(EmbersProfile) l = NULL;
  g_autoptr(EmbersProfile) r = NULL;
  g_autoptr(EmbersProfile) local_diff = NULL;
  g_autoptr(GArray) server_rows = NULL;
  g_autoptr(GArray) local_rows = NULL;
  Wait wait = { NULL };
  gint64 start, end;

  range (&start, &end);
  left = embers_query_new (CPU, "{service_name=\"api\",region=\"eu-west-1\"}", start, end);
  right = embers_query_new (CPU, "{service_name=\"api\",region=\"us-east-1\"}", start, end);

  embers_source_diff (source, left, right, NULL, on_done, &wait);
  server_diff = embers_source_diff_finish (source, wait_for (&wait), &error);
  g_clear_object (&wait.result);
  g_assert_no_error (error);
  g_assert_true (embers_profile_is_diff (server_diff));

  l = merge (source, left->label_selector, start, end, 0);
  r = merge (source, right->label_selector, start, end, 0);
  local_diff = embers_diff_profiles (l, 0, r, 0, &error);
  g_assert_no_error (error);

  g_assert_cmpint (embers_profile_get_total (server_diff, EMBERS_DIFF_BASELINE), ==,
                   embers_profile_get_total (local_diff, EMBERS_DIFF_BASELINE));
  g_assert_cmpint (embers_profile_get_total (server_diff, EMBERS_DIFF_COMPARISON), ==,
                   embers_profile_get_total (local_diff, EMBERS_DIFF_COMPARISON));
  g_assert_cmpuint (embers_profile_get_n_nodes (server_diff), ==, embers_profile_get_n_nodes (local_diff));

  /* Node for node: same names in the same order, same values on both sides */
  for (guint i = 0; i < embers_profile_get_n_nodes (local_diff); i++)
    {
      g_assert_cmpstr (embers_profile_node_name_str (server_diff, i), ==, embers_profile_node_name_str (local_diff, i));
      for (guint t = 0; t < 2; t++)
        g_assert_cmpint (embers_profile_node_self (server_diff, t, i), ==, embers_profile_node_self (local_diff, t, i));
    }

  /* The top tables, row by row: same functions in the same order, same
   * values and changes */
  server_rows = embers_diff_top_compute (server_diff);
  local_rows = embers_diff_top_compute (local_diff);
  g_assert_cmpuint (server_rows->len, ==, local_rows->len);
  g_assert_cmpuint (local_rows->len, >, 5);
  for (guint i = 0; i < local_rows->len; i++)
    {
      const EmbersDiffRow *sr = &g_array_index (server_rows, EmbersDiffRow, i);
      const EmbersDiffRow *lr = &g_array_index (local_rows, EmbersDiffRow, i);

      g_assert_cmpstr (embers_profile_get_string (server_diff, sr->name), ==,
                       embers_profile_get_string (local_diff, lr->name));
      g_assert_cmpint (sr->baseline_self, ==, lr->baseline_self);
      g_assert_cmpint (sr->baseline_total, ==, lr->baseline_total);
      g_assert_cmpint (sr->comparison_self, ==, lr->comparison_self);
      g_assert_cmpint (sr->comparison_total, ==, lr->comparison_total);
      g_assert_cmpint (sr->kind, ==, lr->kind);
      g_assert_cmpfloat (sr->baseline_share, ==, lr->baseline_share);
      g_assert_cmpfloat (sr->comparison_share, ==, lr->comparison_share);
      g_assert_cmpfloat (sr->change, ==, lr->change);
      g_assert_cmpfloat (sr->absolute_change, ==, lr->absolute_change);
    }
}

#define DIFF_PATH "/querier.v1.QuerierService/Diff"
#define MERGE_PATH "/querier.v1.QuerierService/SelectMergeStacktraces"
#define ALLOC "memory:alloc_space:bytes:space:bytes"

/* A query URL on @on, with credentials in it (no keyring is asked) */
static char *
query_url (EmbersTestServer *on,
           const char       *type,
           const char       *selector,
           gint64            start,
           gint64            end)
{
  g_autoptr(EmbersQuery) query = embers_query_new (type, selector, start, end);
  const char *base = embers_test_server_get_url (on);

  g_assert_true (g_str_has_prefix (base, "http://"));
  {
    g_autofree char *with_user = g_strconcat ("http://embers:secret@", base + 7, NULL);

    return embers_query_url_build (with_user, query);
  }
}

/* CPU time against bytes is not a diff: refused before the server is asked,
 * with embers_diff_profiles()' words, by the source and by query URLs */
static void
test_diff_units (void)
{
  g_autoptr(EmbersPyroscopeSource) pyro = make_source (FALSE);
  EmbersSource *source = EMBERS_SOURCE (pyro);
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersQuery) left = NULL;
  g_autoptr(EmbersQuery) right = NULL;
  g_autoptr(EmbersProfile) diff = NULL;
  g_autofree char *left_url = NULL;
  g_autofree char *right_url = NULL;
  const char *expected = "Cannot compare “cpu” in nanoseconds with “alloc_space” in bytes: the units differ";
  Wait wait = { NULL };
  gint64 start, end;

  range (&start, &end);
  g_free (embers_test_server_control (server, "DELETE", "embers-test/stats", NULL));
  left = embers_query_new (CPU, "{service_name=\"api\"}", start, end);
  right = embers_query_new (ALLOC, "{service_name=\"api\"}", start, end);

  embers_source_diff (source, left, right, NULL, on_done, &wait);
  diff = embers_source_diff_finish (source, wait_for (&wait), &error);
  g_clear_object (&wait.result);
  g_assert_null (diff);
  g_assert_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_UNSUPPORTED);
  g_assert_cmpstr (error->message, ==, expected);
  g_clear_error (&error);

  left_url = query_url (server, CPU, "{service_name=\"api\"}", start, end);
  right_url = query_url (server, ALLOC, "{service_name=\"api\"}", start, end);
  diff = embers_pyroscope_load_query_url_diff (left_url, right_url, NULL, &error);
  g_assert_null (diff);
  g_assert_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_UNSUPPORTED);
  g_assert_cmpstr (error->message, ==, expected);

  g_assert_cmpint (embers_test_server_stat (server, "requests", DIFF_PATH), ==, 0);
  g_assert_cmpint (embers_test_server_stat (server, "requests", MERGE_PATH), ==, 0);
}

/* A server without Diff (404): two SelectMergeStacktraces and a local
 * diff, the same as the server's Diff of the same data */
static void
test_diff_fallback (void)
{
  const char *args[] = { "--no-diff", NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersTestServer) old = embers_test_server_start (args, &error);
  g_autoptr(EmbersPyroscopeSource) pyro = make_source (FALSE);
  g_autoptr(EmbersQuery) left = NULL;
  g_autoptr(EmbersQuery) right = NULL;
  g_autoptr(EmbersProfile) fallback = NULL;
  g_autoptr(EmbersProfile) server_diff = NULL;
  g_autofree char *left_url = NULL;
  g_autofree char *right_url = NULL;
  const char *eu = "{service_name=\"api\",region=\"eu-west-1\"}";
  const char *us = "{service_name=\"api\",region=\"us-east-1\"}";
  Wait wait = { NULL };
  gint64 start, end;

  g_assert_no_error (error);
  /* Whole minutes well inside both servers' data: the same stacks */
  range (&start, &end);
  end -= end % 60000 + 5 * 60000;
  start = end - 30 * 60000;

  left_url = query_url (old, CPU, eu, start, end);
  right_url = query_url (old, CPU, us, start, end);
  fallback = embers_pyroscope_load_query_url_diff (left_url, right_url, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (embers_profile_is_diff (fallback));
  g_assert_cmpint (embers_test_server_stat (old, "requests", DIFF_PATH), ==, 1);
  g_assert_cmpint (embers_test_server_stat (old, "requests", MERGE_PATH), ==, 2);

  left = embers_query_new (CPU, eu, start, end);
  right = embers_query_new (CPU, us, start, end);
  embers_source_diff (EMBERS_SOURCE (pyro), left, right, NULL, on_done, &wait);
  server_diff = embers_source_diff_finish (EMBERS_SOURCE (pyro), wait_for (&wait), &error);
  g_clear_object (&wait.result);
  g_assert_no_error (error);

  g_assert_cmpint (embers_profile_get_total (fallback, EMBERS_DIFF_BASELINE), >, 0);
  g_assert_cmpint (embers_profile_get_total (fallback, EMBERS_DIFF_BASELINE), ==,
                   embers_profile_get_total (server_diff, EMBERS_DIFF_BASELINE));
  g_assert_cmpint (embers_profile_get_total (fallback, EMBERS_DIFF_COMPARISON), ==,
                   embers_profile_get_total (server_diff, EMBERS_DIFF_COMPARISON));
  g_assert_cmpuint (embers_profile_get_n_nodes (fallback), ==, embers_profile_get_n_nodes (server_diff));
  for (guint i = 0; i < embers_profile_get_n_nodes (fallback); i++)
    {
      g_assert_cmpstr (embers_profile_node_name_str (fallback, i), ==, embers_profile_node_name_str (server_diff, i));
      for (guint t = 0; t < 2; t++)
        g_assert_cmpint (embers_profile_node_total (fallback, t, i), ==, embers_profile_node_total (server_diff, t, i));
    }
}

/* A server that cuts its answers short (with or without gzip) gives an
 * error, never a shorter profile */
static void
test_truncated (void)
{
  const char *args[] = { "--fault-truncate", NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersTestServer) liar = embers_test_server_start (args, &error);
  g_autoptr(EmbersConnectClient) client = NULL;
  g_autoptr(EmbersPyroscopeSource) pyro = NULL;
  g_autoptr(EmbersQuery) query = NULL;
  g_autoptr(EmbersProfile) profile = NULL;
  Wait wait = { NULL };
  gint64 start, end;

  g_assert_no_error (error);
  client = embers_connect_client_new (embers_test_server_get_url (liar), &error);
  g_assert_no_error (error);
  pyro = embers_pyroscope_source_new (client);
  range (&start, &end);
  query = embers_query_new (CPU, "{}", start, end);

  embers_source_merge_profile (EMBERS_SOURCE (pyro), query, NULL, on_done, &wait);
  profile = embers_source_merge_profile_finish (EMBERS_SOURCE (pyro), wait_for (&wait), &error);
  g_clear_object (&wait.result);
  g_assert_null (profile);
  g_assert_nonnull (error);
  g_assert_true (error->domain == EMBERS_SOURCE_ERROR);
  g_assert_cmpuint (strlen (error->message), >, 10);
}

static void
list_types (EmbersSource *source,
            GError      **error)
{
  g_autoptr(GPtrArray) types = NULL;
  Wait wait = { NULL };
  gint64 start, end;

  range (&start, &end);
  embers_source_list_profile_types (source, start, end, NULL, on_done, &wait);
  types = embers_source_list_profile_types_finish (source, wait_for (&wait), error);
  g_clear_object (&wait.result);
}

/* Queries only read, so they are sent as idempotent and share one kept-alive
 * connection: N sequential RPCs use one connection, counted on the server
 * by the clients' peer ports. When the server closes a reused connection
 * before answering, the call goes once more on a new one; a connection
 * that never answered is not tried again. */
static void
test_connections (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersTestServer) own = embers_test_server_start (NULL, &error);
  g_autoptr(EmbersConnectClient) client = NULL;
  g_autoptr(EmbersPyroscopeSource) pyro = NULL;
  g_autoptr(EmbersConnectClient) fresh_client = NULL;
  g_autoptr(EmbersPyroscopeSource) fresh = NULL;
  const char *path = "/querier.v1.QuerierService/ProfileTypes";
  const guint n = 20;

  g_assert_no_error (error);
#if !SOUP_CHECK_VERSION (3, 3, 0)
  g_test_skip ("libsoup < 3.3: the test server closes every connection (its descriptor leak)");
  return;
#endif
  client = embers_connect_client_new (embers_test_server_get_url (own), &error);
  g_assert_no_error (error);
  pyro = embers_pyroscope_source_new (client);

  g_free (embers_test_server_control (own, "DELETE", "embers-test/stats", NULL));
  for (guint i = 0; i < n; i++)
    {
      list_types (EMBERS_SOURCE (pyro), &error);
      g_assert_no_error (error);
    }
  g_assert_cmpint (embers_test_server_stat (own, "requests", path), ==, n);
  g_assert_cmpint (embers_test_server_stat (own, "server", "connections"), ==, 1);
  g_test_message ("%u sequential RPCs used %" G_GINT64_FORMAT " connection(s)", n,
                  embers_test_server_stat (own, "server", "connections"));

  /* The server drops the kept-alive connection without an answer: sent
   * again on a new connection, and the caller sees the answer */
  g_free (embers_test_server_control (own, "POST", "embers-test/faults", "{\"drop\":true,\"count\":1}"));
  list_types (EMBERS_SOURCE (pyro), &error);
  g_assert_no_error (error);
  g_assert_cmpint (embers_test_server_stat (own, "requests", path), ==, n + 2);
  g_assert_cmpint (embers_test_server_stat (own, "server", "connections"), ==, 2);

  /* Only once: two drops in a row are an error */
  g_free (embers_test_server_control (own, "POST", "embers-test/faults", "{\"drop\":true,\"count\":2}"));
  list_types (EMBERS_SOURCE (pyro), &error);
  g_assert_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_UNAVAILABLE);
  g_clear_error (&error);
  g_assert_cmpint (embers_test_server_stat (own, "requests", path), ==, n + 4);

  /* A first connection that drops is the server's answer: no retry */
  fresh_client = embers_connect_client_new (embers_test_server_get_url (own), &error);
  g_assert_no_error (error);
  fresh = embers_pyroscope_source_new (fresh_client);
  g_free (embers_test_server_control (own, "POST", "embers-test/faults", "{\"drop\":true,\"count\":1}"));
  list_types (EMBERS_SOURCE (fresh), &error);
  g_assert_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_UNAVAILABLE);
  g_clear_error (&error);
  g_assert_cmpint (embers_test_server_stat (own, "requests", path), ==, n + 5);
}

/* Individual profiles over both encodings: SelectSeries with exemplar_type
 * INDIVIDUAL gives each point its heaviest profile (a UUID, its time,
 * value and labels; api/types/v1/types.proto, Point.exemplars), proto and
 * protojson alike, and profile_id_selector merges that profile alone */
static GPtrArray *
exemplar_series (EmbersSource      *source,
                 const EmbersQuery *query)
{
  g_autoptr(GError) error = NULL;
  GPtrArray *series;
  Wait wait = { NULL };

  embers_source_select_chart_exemplars (source, query, NULL, on_done, &wait);
  series = embers_source_select_exemplars_finish (source, wait_for (&wait), &error);
  g_clear_object (&wait.result);
  g_assert_no_error (error);
  return series;
}

static void
test_exemplars (void)
{
  g_autoptr(EmbersPyroscopeSource) proto = make_source (FALSE);
  g_autoptr(EmbersPyroscopeSource) json = make_source (TRUE);
  g_autoptr(EmbersQuery) query = NULL;
  g_autoptr(GPtrArray) a = NULL;
  g_autoptr(GPtrArray) b = NULL;
  g_autoptr(GPtrArray) top = NULL;
  g_autoptr(GError) error = NULL;
  EmbersSeries *sa, *sb;
  EmbersExemplar *heaviest;
  gint64 start, end;

  g_assert_true (embers_source_get_capabilities (EMBERS_SOURCE (proto)) & EMBERS_SOURCE_CAN_PROFILE_IDS);
  range (&start, &end);
  query = embers_query_new (CPU, "{service_name=\"api\"}", start, end);
  a = exemplar_series (EMBERS_SOURCE (proto), query);
  b = exemplar_series (EMBERS_SOURCE (json), query);
  g_assert_cmpuint (a->len, ==, 1);
  g_assert_cmpuint (b->len, ==, 1);
  sa = g_ptr_array_index (a, 0);
  sb = g_ptr_array_index (b, 0);
  g_assert_nonnull (sa->exemplars);
  g_assert_nonnull (sb->exemplars);
  /* One per point, the same over both encodings */
  g_assert_cmpuint (sa->exemplars->len, ==, sa->n_points);
  g_assert_cmpuint (sb->exemplars->len, ==, sa->exemplars->len);
  for (guint i = 0; i < sa->exemplars->len; i++)
    {
      EmbersExemplar *x = g_ptr_array_index (sa->exemplars, i);
      EmbersExemplar *y = g_ptr_array_index (sb->exemplars, i);

      g_assert_cmpuint (x->point, ==, i);
      g_assert_true (g_uuid_string_is_valid (x->profile_id));
      g_assert_cmpstr (x->profile_id, ==, y->profile_id);
      g_assert_cmpint (x->value, ==, y->value);
      g_assert_cmpint (x->timestamp_ms, ==, y->timestamp_ms);
      g_assert_cmpuint (x->point, ==, y->point);
      g_assert_cmpuint (g_strv_length (x->label_names), ==, g_strv_length (y->label_names));
      /* A profile of the step: its time in (T − step, T], its value at
       * most the point's */
      g_assert_cmpint (x->timestamp_ms, <=, sa->timestamps[i]);
      g_assert_cmpfloat ((double) x->value, <=, sa->values[i]);
      g_assert_cmpstr (embers_series_get_label (&(EmbersSeries) { .label_names = x->label_names,
                                                                  .label_values = x->label_values },
                                                "service_name"), ==, "api");
    }

  /* The heaviest alone, over both encodings */
  top = embers_source_top_exemplars (a, 1);
  heaviest = g_ptr_array_index (top, 0);
  query->profile_ids = g_new0 (char *, 2);
  query->profile_ids[0] = g_strdup (heaviest->profile_id);
  for (guint k = 0; k < 2; k++)
    {
      EmbersSource *source = k == 0 ? EMBERS_SOURCE (proto) : EMBERS_SOURCE (json);
      g_autoptr(EmbersProfile) profile = NULL;
      Wait wait = { NULL };

      embers_source_merge_profile (source, query, NULL, on_done, &wait);
      profile = embers_source_merge_profile_finish (source, wait_for (&wait), &error);
      g_clear_object (&wait.result);
      g_assert_no_error (error);
      g_assert_cmpint (embers_profile_get_total (profile, 0), ==, heaviest->value);
    }
}

/* A 1.x querier refuses exemplars (pkg/querier/querier.go, SelectSeries:
 * unimplemented): profile ids turn off, with the server's words, and the
 * plain series still work; a second ask fails without a request */
static void
test_exemplars_v1 (void)
{
  const char *args[] = { "--v1-querier", NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersTestServer) old = embers_test_server_start (args, &error);
  g_autoptr(EmbersConnectClient) client = NULL;
  g_autoptr(EmbersPyroscopeSource) pyro = NULL;
  g_autoptr(EmbersQuery) query = NULL;
  g_autoptr(GPtrArray) series = NULL;
  g_autofree char *reason = NULL;
  const char *path = "/querier.v1.QuerierService/SelectSeries";
  Wait wait = { NULL };
  gint64 start, end;

  g_assert_no_error (error);
  client = embers_connect_client_new (embers_test_server_get_url (old), &error);
  g_assert_no_error (error);
  pyro = embers_pyroscope_source_new (client);
  range (&start, &end);
  query = embers_query_new (CPU, "{service_name=\"api\"}", start, end);

  embers_source_select_chart_exemplars (EMBERS_SOURCE (pyro), query, NULL, on_done, &wait);
  g_assert_null (embers_source_select_exemplars_finish (EMBERS_SOURCE (pyro), wait_for (&wait), &error));
  g_assert_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_UNIMPLEMENTED);
  g_clear_error (&error);
  g_assert_false (embers_source_get_capabilities (EMBERS_SOURCE (pyro)) & EMBERS_SOURCE_CAN_PROFILE_IDS);
  g_assert_true (embers_source_get_capabilities (EMBERS_SOURCE (pyro)) & EMBERS_SOURCE_CAN_TIME_SERIES);
  reason = embers_source_dup_unavailable_reason (EMBERS_SOURCE (pyro), EMBERS_SOURCE_CAN_PROFILE_IDS);
  g_assert_nonnull (strstr (reason, "use the v2 query API"));
  g_assert_cmpint (embers_test_server_stat (old, "requests", path), ==, 1);

  embers_source_select_chart_exemplars (EMBERS_SOURCE (pyro), query, NULL, on_done, &wait);
  g_assert_null (embers_source_select_exemplars_finish (EMBERS_SOURCE (pyro), wait_for (&wait), &error));
  g_assert_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_UNIMPLEMENTED);
  g_clear_error (&error);
  g_assert_cmpint (embers_test_server_stat (old, "requests", path), ==, 1);

  embers_source_select_chart_series (EMBERS_SOURCE (pyro), query, NULL, EMBERS_AGGREGATION_SUM, 0,
                                     NULL, on_done, &wait);
  series = embers_source_select_series_finish (EMBERS_SOURCE (pyro), wait_for (&wait), &error);
  g_clear_object (&wait.result);
  g_assert_no_error (error);
  g_assert_cmpuint (series->len, ==, 1);
  g_assert_null (((EmbersSeries *) g_ptr_array_index (series, 0))->exemplars);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  int ret;

  g_test_init (&argc, &argv, NULL);

  server = embers_test_server_start (NULL, &error);
  g_assert_no_error (error);

  g_test_add_data_func ("/embers/client-server/rpcs/proto", GINT_TO_POINTER (FALSE), test_rpcs);
  g_test_add_data_func ("/embers/client-server/rpcs/json", GINT_TO_POINTER (TRUE), test_rpcs);
  g_test_add_data_func ("/embers/client-server/diff-agrees/proto", GINT_TO_POINTER (FALSE), test_diff_agrees);
  g_test_add_data_func ("/embers/client-server/diff-agrees/json", GINT_TO_POINTER (TRUE), test_diff_agrees);
  g_test_add_data_func ("/embers/client-server/call-site-series/proto", GINT_TO_POINTER (FALSE), test_call_site_series);
  g_test_add_data_func ("/embers/client-server/call-site-series/json", GINT_TO_POINTER (TRUE), test_call_site_series);
  g_test_add_func ("/embers/client-server/diff-units", test_diff_units);
  g_test_add_func ("/embers/client-server/exemplars", test_exemplars);
  g_test_add_func ("/embers/client-server/exemplars-v1", test_exemplars_v1);
  g_test_add_func ("/embers/client-server/diff-fallback", test_diff_fallback);
  g_test_add_func ("/embers/client-server/truncated", test_truncated);
  g_test_add_func ("/embers/client-server/connections", test_connections);

  ret = g_test_run ();
  embers_test_server_stop (server);

  return ret;
}
