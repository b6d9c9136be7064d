/* test-span-profiles.c: traces to profiles against the test server
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Go runtime's own CPU profile with the pprof labels OpenTelemetry
 * integrations set on spans (span_id, span_name, trace_id; written by
 * tests/go/main.go, fixtures/spans/cpu-spans.pb.gz) is ingested into the
 * test server, which keeps the ids with each sample as Pyroscope does
 * (pkg/model/pprofsplit/pprof_split.go). Then: SelectMergeSpanProfile for
 * one span, both spans, an unknown span; SelectMergeStacktraces with
 * trace_id_selector; a query URL with &span-id= through
 * embers_pyroscope_load_query_url() (what the window's Open Location runs)
 * and through `embers --top URL`; ids that are not ids. The expected
 * values are the fixture's own samples, read apart from the server.
 */

#include "config.h"

#include <string.h>

#include <libsoup/soup.h>

#include "embers-format.h"
#include "embers-pyroscope-source.h"
#include "embers-query-url.h"
#include "embers-test-server-spawn.h"
#include "embers-top.h"
#include "embers-test-wait.h"

#define CPU "process_cpu:cpu:nanoseconds:cpu:nanoseconds"
#define SPAN_API "9a517183f26a089d"
#define SPAN_STATIC "5a4fe264a9c987fe"
#define TRACE_API "7c9e66797425440de944be07fc1f90ae"
#define TRACE_STATIC "0af7651916cd43dd8448eb211c80319c"

static EmbersTestServer *server;
static EmbersProfile *fixture;
static gint64 ingest_ms;

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

static char *
fixture_path (void)
{
  return g_test_build_filename (G_TEST_DIST, "fixtures", "spans", "cpu-spans.pb.gz", NULL);
}

/* What the fixture holds for some span ids (label span_id) or trace ids:
 * per function self in nanoseconds, and the total */
static GHashTable *
expected_self (const char * const *spans,
               const char * const *traces,
               gint64             *total)
{
  GHashTable *self = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  int cpu = embers_profile_find_sample_type (fixture, "cpu");

  g_assert_cmpint (cpu, >=, 0);
  *total = 0;
  for (guint s = 0; s < embers_profile_get_n_samples (fixture); s++)
    {
      guint n_labels = 0;
      const EmbersLabel *labels = embers_profile_get_label_set (fixture, embers_profile_sample_label_set (fixture, s),
                                                                &n_labels);
      gboolean match = FALSE;
      const char *leaf;
      gint64 *v;

      for (guint l = 0; l < n_labels; l++)
        {
          const char *key = embers_profile_get_string (fixture, labels[l].key);
          const char *value = embers_profile_get_string (fixture, labels[l].str);

          if (spans != NULL && g_str_equal (key, "span_id") && g_strv_contains (spans, value))
            match = TRUE;
          if (traces != NULL && g_str_equal (key, "trace_id") && g_strv_contains (traces, value))
            match = TRUE;
        }
      if (!match)
        continue;
      leaf = embers_profile_node_name_str (fixture, embers_profile_sample_node (fixture, s));
      v = g_hash_table_lookup (self, leaf);
      if (v == NULL)
        {
          v = g_new0 (gint64, 1);
          g_hash_table_insert (self, g_strdup (leaf), v);
        }
      *v += embers_profile_sample_value (fixture, s, (guint)cpu);
      *total += embers_profile_sample_value (fixture, s, (guint)cpu);
    }
  return self;
}

static void
assert_matches (EmbersProfile      *profile,
                const char * const *spans,
                const char * const *traces)
{
  gint64 total;
  g_autoptr(GHashTable) expected = expected_self (spans, traces, &total);
  g_autoptr(GArray) rows = embers_top_compute (profile, 0);
  guint compared = 0;

  g_assert_cmpint (total, >, 0);
  g_assert_cmpint (embers_profile_get_total (profile, 0), ==, total);
  for (guint i = 0; i < rows->len; i++)
    {
      EmbersTopRow *row = &g_array_index (rows, EmbersTopRow, i);
      const char *name = embers_profile_get_string (profile, row->name);
      gint64 *v = g_hash_table_lookup (expected, name);

      if (row->self == 0)
        continue;
      if (v == NULL)
        g_error ("%s has self %" G_GINT64_FORMAT " in the span profile, none in the spans' samples",
                 name, row->self);
      g_assert_cmpint (row->self, ==, *v);
      compared++;
    }
  g_assert_cmpuint (compared, ==, g_hash_table_size (expected));
}

static gboolean
has_function (EmbersProfile *profile,
              const char    *name)
{
  for (guint32 n = 1; n < embers_profile_get_n_nodes (profile); n++)
    if (g_str_equal (embers_profile_node_name_str (profile, n), name) &&
        embers_profile_node_total (profile, 0, n) > 0)
      return TRUE;
  return FALSE;
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

static EmbersQuery *
query_new (void)
{
  return embers_query_new (CPU, "{service_name=\"spans-app\"}", ingest_ms - 60000, ingest_ms + 60000);
}

static EmbersProfile *
span_profile (EmbersPyroscopeSource *source,
              const char * const    *spans,
              GError               **error)
{
  g_autoptr(EmbersQuery) query = query_new ();
  EmbersProfile *profile;
  Wait wait = { NULL };

  embers_pyroscope_source_merge_span_profile_async (source, query, spans, NULL, on_done, &wait);
  profile = embers_pyroscope_source_merge_span_profile_finish (source, wait_for (&wait), error);
  g_clear_object (&wait.result);
  return profile;
}

static EmbersProfile *
trace_profile (EmbersPyroscopeSource *source,
               const char * const    *traces,
               GError               **error)
{
  g_autoptr(EmbersQuery) query = query_new ();
  EmbersProfile *profile;
  Wait wait = { NULL };

  embers_pyroscope_source_merge_trace_profile_async (source, query, traces, NULL, on_done, &wait);
  profile = embers_pyroscope_source_merge_trace_profile_finish (source, wait_for (&wait), error);
  g_clear_object (&wait.result);
  return profile;
}

static void
test_spans (gconstpointer data)
{
  g_autoptr(EmbersPyroscopeSource) source = make_source (GPOINTER_TO_INT (data));
  const char *api[] = { SPAN_API, NULL };
  const char *both[] = { SPAN_API, SPAN_STATIC, NULL };
  const char *unknown[] = { "0123456789abcdef", NULL };
  g_autoptr(GError) error = NULL;

  {
    g_autoptr(EmbersProfile) p = span_profile (source, api, &error);

    g_assert_no_error (error);
    assert_matches (p, api, NULL);
    g_assert_true (has_function (p, "main.handleAPI"));
    g_assert_false (has_function (p, "main.serveStatic"));
    g_assert_false (has_function (p, "main.backgroundGC"));
  }
  {
    g_autoptr(EmbersProfile) p = span_profile (source, both, &error);

    g_assert_no_error (error);
    assert_matches (p, both, NULL);
    g_assert_true (has_function (p, "main.serveStatic"));
    g_assert_false (has_function (p, "main.backgroundGC"));
  }
  {
    /* A span without samples: the root alone, as Pyroscope answers */
    g_autoptr(EmbersProfile) p = span_profile (source, unknown, &error);

    g_assert_no_error (error);
    g_assert_cmpint (embers_profile_get_total (p, 0), ==, 0);
  }
}

static void
test_traces (gconstpointer data)
{
  g_autoptr(EmbersPyroscopeSource) source = make_source (GPOINTER_TO_INT (data));
  const char *statics[] = { TRACE_STATIC, NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersProfile) p = trace_profile (source, statics, &error);

  g_assert_no_error (error);
  assert_matches (p, NULL, statics);
  g_assert_true (has_function (p, "main.serveStatic"));
  g_assert_false (has_function (p, "main.handleAPI"));
}

/* Ids that are no ids are refused before anything is sent */
static void
test_bad_ids (void)
{
  g_autoptr(EmbersPyroscopeSource) source = make_source (FALSE);
  const char *short_id[] = { "9a5171", NULL };
  const char *not_hex[] = { "9a517183f26a089z", NULL };
  const char *none[] = { NULL };
  const char *span_as_trace[] = { SPAN_API, NULL };
  gint64 before = embers_test_server_stat (server, "requests", "/querier.v1.QuerierService/SelectMergeSpanProfile");

  {
    g_autoptr(GError) error = NULL;
    g_autoptr(EmbersProfile) p = span_profile (source, short_id, &error);

    g_assert_null (p);
    g_assert_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_INVALID_ARGUMENT);
    g_assert_nonnull (strstr (error->message, "16 hexadecimal characters"));
  }
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(EmbersProfile) p = span_profile (source, not_hex, &error);

    g_assert_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_INVALID_ARGUMENT);
  }
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(EmbersProfile) p = span_profile (source, none, &error);

    g_assert_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_INVALID_ARGUMENT);
  }
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(EmbersProfile) p = trace_profile (source, span_as_trace, &error);

    g_assert_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_INVALID_ARGUMENT);
    g_assert_nonnull (strstr (error->message, "32 hexadecimal characters"));
  }
  g_assert_cmpint (embers_test_server_stat (server, "requests", "/querier.v1.QuerierService/SelectMergeSpanProfile"),
                   ==, before);
}

static char *
span_url (const char * const *spans,
          const char * const *traces)
{
  g_autoptr(EmbersQuery) query = query_new ();

  return embers_query_url_build_spans (embers_test_server_get_url (server), query, spans, traces);
}

/* The URL form, as the command line and the window's Open Location load it */
static void
test_query_url (void)
{
  const char *api[] = { SPAN_API, NULL };
  const char *statics[] = { TRACE_STATIC, NULL };
  g_autofree char *url = span_url (api, NULL);
  g_autofree char *trace_url = span_url (NULL, statics);
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersQueryUrl) parsed = embers_query_url_parse (url, g_get_real_time () / 1000, &error);

  g_assert_no_error (error);
  g_assert_nonnull (strstr (url, "&span-id=" SPAN_API));
  g_assert_nonnull (parsed->span_ids);
  g_assert_cmpstr (parsed->span_ids[0], ==, SPAN_API);
  g_assert_null (parsed->span_ids[1]);
  g_assert_null (parsed->trace_ids);

  {
    g_autoptr(EmbersProfile) p = embers_pyroscope_load_query_url (url, NULL, &error);

    g_assert_no_error (error);
    assert_matches (p, api, NULL);
  }
  {
    g_autoptr(EmbersProfile) p = embers_pyroscope_load_query_url (trace_url, NULL, &error);

    g_assert_no_error (error);
    assert_matches (p, NULL, statics);
  }
}

/* Every spelling of the parameters, and what is refused */
static void
test_query_url_forms (void)
{
  const char *base = "http://127.0.0.1:4040/?query=" CPU "%7B%7D&from=now-1h";
  static const struct
  {
    const char *params;
    const char *spans;     /* comma-separated, or NULL */
    const char *traces;
  } ok[] = {
    { "&span_id=9A517183F26A089D", SPAN_API, NULL },
    { "&spanId=" SPAN_API "&spanSelector=" SPAN_STATIC, SPAN_API "," SPAN_STATIC, NULL },
    { "&spanSelector=" SPAN_API "%2C" SPAN_STATIC, SPAN_API "," SPAN_STATIC, NULL },
    { "&trace_id=" TRACE_API, NULL, TRACE_API },
    { "&traceId=" TRACE_API "&trace-id=" TRACE_API, NULL, TRACE_API },
  };
  static const char *bad[] = {
    "&span-id=123",
    ("&span-id=" SPAN_API "&trace-id=" TRACE_API),
    ("&trace-id=" SPAN_API),
    "&span-id=zz517183f26a089d",
  };

  for (guint i = 0; i < G_N_ELEMENTS (ok); i++)
    {
      g_autofree char *url = g_strconcat (base, ok[i].params, NULL);
      g_autoptr(GError) error = NULL;
      g_autoptr(EmbersQueryUrl) parsed = embers_query_url_parse (url, 1700000000000, &error);
      g_autofree char *spans = NULL;
      g_autofree char *traces = NULL;

      g_assert_no_error (error);
      spans = parsed->span_ids ? g_strjoinv (",", parsed->span_ids) : NULL;
      traces = parsed->trace_ids ? g_strjoinv (",", parsed->trace_ids) : NULL;
      g_assert_cmpstr (spans, ==, ok[i].spans);
      g_assert_cmpstr (traces, ==, ok[i].traces);
    }
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autofree char *url = g_strconcat (base, bad[i], NULL);
      g_autoptr(GError) error = NULL;
      g_autoptr(EmbersQueryUrl) parsed = embers_query_url_parse (url, 1700000000000, &error);

      g_assert_null (parsed);
      g_assert_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_INVALID_ARGUMENT);
    }
}

#ifdef EMBERS_BINARY
/* `embers --top URL` prints the span's functions */
static void
test_cli (void)
{
  const char *api[] = { SPAN_API, NULL };
  g_autofree char *url = span_url (api, NULL);
  const char *argv[] = { EMBERS_BINARY, "--top", "--format=tsv", url, NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  int status = 0;

  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &error);
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("embers --top failed: %s", err);
  g_assert_nonnull (strstr (out, "\tmain.handleAPI\n"));
  g_assert_null (strstr (out, "main.serveStatic"));
  g_assert_null (strstr (out, "main.backgroundGC"));
}
#endif

/* The fixture, pushed as a Go program's profile to /ingest */
static void
ingest (void)
{
  g_autofree char *path = fixture_path ();
  g_autoptr(GError) error = NULL;
  g_autoptr(SoupSession) session = soup_session_new ();
  g_autoptr(SoupMessage) msg = NULL;
  g_autoptr(GBytes) body = NULL;
  g_autoptr(GBytes) answer = NULL;
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autofree char *url = NULL;
  char *data = NULL;
  gsize len = 0;

  g_file_get_contents (path, &data, &len, &error);
  g_assert_no_error (error);
  body = g_bytes_new_take (data, len);
  fixture = embers_profile_load_file (file, NULL, &error);
  g_assert_no_error (error);

  ingest_ms = g_get_real_time () / 1000;
  url = g_strdup_printf ("%singest?name=spans-app&format=pprof&from=%" G_GINT64_FORMAT,
                         embers_test_server_get_url (server), ingest_ms / 1000);
  msg = soup_message_new ("POST", url);
  soup_message_set_request_body_from_bytes (msg, "application/octet-stream", body);
  answer = soup_session_send_and_read (session, msg, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (soup_message_get_status (msg), ==, 200);
  /* The stored sample is at the whole second of "from" */
  ingest_ms = ingest_ms / 1000 * 1000;
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
  ingest ();

  g_test_add_data_func ("/embers/span-profiles/spans/proto", GINT_TO_POINTER (FALSE), test_spans);
  g_test_add_data_func ("/embers/span-profiles/spans/json", GINT_TO_POINTER (TRUE), test_spans);
  g_test_add_data_func ("/embers/span-profiles/traces/proto", GINT_TO_POINTER (FALSE), test_traces);
  g_test_add_data_func ("/embers/span-profiles/traces/json", GINT_TO_POINTER (TRUE), test_traces);
  g_test_add_func ("/embers/span-profiles/bad-ids", test_bad_ids);
  g_test_add_func ("/embers/span-profiles/query-url", test_query_url);
  g_test_add_func ("/embers/span-profiles/query-url-forms", test_query_url_forms);
#ifdef EMBERS_BINARY
  g_test_add_func ("/embers/span-profiles/cli", test_cli);
#endif

  status = g_test_run ();
  g_clear_object (&fixture);
  g_clear_pointer (&server, embers_test_server_stop);
  return status;
}
