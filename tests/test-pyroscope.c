/* test-pyroscope.c: the Connect client, EmbersPyroscopeSource and credentials
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Three kinds of peers:
 * - a scripted SoupServer in this process ("mock"), to check exactly what
 *   goes over the wire (headers, gzip, paths, encodings) and to answer
 *   with lies, web pages and delays;
 * - a raw socket peer ("raw") for faults HTTP cannot express: dropped
 *   connections, bodies cut short, garbage;
 * - the project's test server (tests/server), which speaks the real
 *   protocol, for every RPC round trip.
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include <libsoup/soup.h>

#define G_SETTINGS_ENABLE_BACKEND
#include <gio/gsettingsbackend.h>

#include "embers-connect-client.h"
#include "embers-credentials.h"
#include "embers-test-wait.h"
#include "embers-diff.h"
#include "embers-format.h"
#include "embers-protojson.h"
#include "embers-pyroscope-source.h"
#include "embers-readers.h"
#include "embers-test-server-spawn.h"

#include "profile.pb-c.h"
#include "querier.pb-c.h"
#include "settings.pb-c.h"
#include "types.pb-c.h"

#define CPU "process_cpu:cpu:nanoseconds:cpu:nanoseconds"
#define QUERIER "querier.v1.QuerierService"
#define SECRET_PASSWORD "pa55-w0rd-n0t-in-logs"
#define SECRET_TOKEN "glsa_t0ken-n0t-in-logs"

/* ---- waiting for async results ------------------------------------------ */

typedef struct
{
  GAsyncResult *result;
  guint         n_calls;
} Wait;

static void
on_done (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Wait *wait = user_data;

  wait->n_calls++;
  g_set_object (&wait->result, result);
}

static void
wait_result (Wait *wait)
{
  embers_test_wait_while (wait->result == NULL);
}

static void
wait_clear (Wait *wait)
{
  g_clear_object (&wait->result);
  wait->n_calls = 0;
}


/* ---- captured logs: secrets must never show up ---------------------------- */

static GString *captured_logs;

static GLogWriterOutput
capture_writer (GLogLevelFlags   log_level,
                const GLogField *fields,
                gsize            n_fields,
                gpointer         user_data)
{
  for (gsize i = 0; i < n_fields; i++)
    {
      if (g_str_equal (fields[i].key, "MESSAGE") || g_str_equal (fields[i].key, "GLIB_DOMAIN"))
        {
          if (fields[i].length < 0)
            g_string_append (captured_logs, fields[i].value);
          else
            g_string_append_len (captured_logs, fields[i].value, fields[i].length);
          g_string_append_c (captured_logs, '\n');
        }
    }

  /* Keep warnings fatal and visible */
  if (log_level & (G_LOG_LEVEL_ERROR | G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING))
    return g_log_writer_default (log_level, fields, n_fields, user_data);

  return G_LOG_WRITER_HANDLED;
}

static void
assert_no_secret_logged (void)
{
  g_assert_null (strstr (captured_logs->str, SECRET_PASSWORD));
  g_assert_null (strstr (captured_logs->str, SECRET_TOKEN));
}

/* ---- a GSettings backend that records every write ----------------------- */

typedef struct
{
  GSettingsBackend parent_instance;
} RecordingBackend;

typedef struct
{
  GSettingsBackendClass parent_class;
} RecordingBackendClass;

static GType recording_backend_get_type (void);
G_DEFINE_TYPE (RecordingBackend, recording_backend, G_TYPE_SETTINGS_BACKEND)

static guint settings_writes;

static GVariant *
recording_read (GSettingsBackend   *backend,
                const char         *key,
                const GVariantType *expected_type,
                gboolean            default_value)
{
  return NULL;
}

static gboolean
recording_write (GSettingsBackend *backend,
                 const char       *key,
                 GVariant         *value,
                 gpointer          origin_tag)
{
  settings_writes++;
  return TRUE;
}

static gboolean
count_tree_write (gpointer key,
                  gpointer value,
                  gpointer user_data)
{
  settings_writes++;
  return FALSE;
}

static gboolean
recording_write_tree (GSettingsBackend *backend,
                      GTree            *tree,
                      gpointer          origin_tag)
{
  g_tree_foreach (tree, count_tree_write, NULL);
  return TRUE;
}

static void
recording_reset (GSettingsBackend *backend,
                 const char       *key,
                 gpointer          origin_tag)
{
  settings_writes++;
}

static gboolean
recording_get_writable (GSettingsBackend *backend,
                        const char       *key)
{
  return TRUE;
}

static void
recording_backend_class_init (RecordingBackendClass *klass)
{
  GSettingsBackendClass *backend_class = G_SETTINGS_BACKEND_CLASS (klass);

  backend_class->read = recording_read;
  backend_class->write = recording_write;
  backend_class->write_tree = recording_write_tree;
  backend_class->reset = recording_reset;
  backend_class->get_writable = recording_get_writable;
}

static void
recording_backend_init (RecordingBackend *self)
{
}

/* ---- the mock server ------------------------------------------------------ */

typedef struct
{
  guint   status;
  char   *content_type;
  GBytes *body;
  gboolean gzip;
} Route;

static void
route_free (Route *route)
{
  g_free (route->content_type);
  g_bytes_unref (route->body);
  g_free (route);
}

typedef struct
{
  SoupServer *server;
  char       *url;          /* http://127.0.0.1:PORT */
  GHashTable *routes;       /* "pkg.Service/Method" -> Route */
  guint       delay_ms;
  GList      *delayed;
  guint       n_requests;
  guint       n_finished;   /* answered (or dropped with the connection) */
  char       *last_path;
  char       *last_method;
  GHashTable *last_headers; /* lower-case name -> value */
  GBytes     *last_body;    /* gunzipped */
  gboolean    last_gzipped;
} Mock;

typedef struct
{
  Mock              *mock;
  SoupServerMessage *msg;
  guint              id;
} Delayed;

static void
record_header (const char *name,
               const char *value,
               gpointer    user_data)
{
  g_hash_table_insert (user_data, g_ascii_strdown (name, -1), g_strdup (value));
}

static void
mock_respond (Mock              *mock,
              SoupServerMessage *msg,
              const char        *path)
{
  const char *slash = strchr (path + 1, '/');
  const char *key = path + 1;
  Route *route = NULL;

  /* The route key is the last two path segments (pkg.Service/Method) */
  while (slash != NULL)
    {
      const char *next = strchr (slash + 1, '/');
      if (next == NULL)
        break;
      key = slash + 1;
      slash = next;
    }

  route = g_hash_table_lookup (mock->routes, key);
  if (route == NULL)
    {
      /* What Go's mux says for paths nobody registered */
      soup_server_message_set_status (msg, 404, NULL);
      soup_server_message_set_response (msg, "text/plain; charset=utf-8", SOUP_MEMORY_STATIC,
                                        "404 page not found\n", 19);
      return;
    }

  soup_server_message_set_status (msg, route->status, NULL);
  if (route->gzip)
    {
      g_autoptr(GBytes) gz = embers_gzip (g_bytes_get_data (route->body, NULL),
                                          g_bytes_get_size (route->body), NULL);
      soup_message_headers_replace (soup_server_message_get_response_headers (msg),
                                    "Content-Encoding", "gzip");
      soup_server_message_set_response (msg, route->content_type, SOUP_MEMORY_COPY,
                                        g_bytes_get_data (gz, NULL), g_bytes_get_size (gz));
    }
  else
    soup_server_message_set_response (msg, route->content_type, SOUP_MEMORY_COPY,
                                      g_bytes_get_data (route->body, NULL),
                                      g_bytes_get_size (route->body));
}

static gboolean
on_delayed (gpointer user_data)
{
  Delayed *d = user_data;
  g_autofree char *path = g_strdup (g_uri_get_path (soup_server_message_get_uri (d->msg)));

  d->mock->delayed = g_list_remove (d->mock->delayed, d);
  mock_respond (d->mock, d->msg, path);
  soup_server_message_unpause (d->msg);
  g_object_unref (d->msg);
  g_free (d);

  return G_SOURCE_REMOVE;
}

static void
on_finished (Mock *mock)
{
  mock->n_finished++;
}

/* Answers the requests held back by delay_ms now */
static void
mock_release (Mock *mock)
{
  while (mock->delayed != NULL)
    {
      Delayed *d = mock->delayed->data;

      g_source_remove (d->id);
      on_delayed (d);
    }
}

static void
mock_handler (SoupServer        *server,
              SoupServerMessage *msg,
              const char        *path,
              GHashTable        *query,
              gpointer           user_data)
{
  Mock *mock = user_data;
  SoupMessageHeaders *headers = soup_server_message_get_request_headers (msg);
  g_autoptr(GBytes) raw = soup_message_body_flatten (soup_server_message_get_request_body (msg));

  mock->n_requests++;
  g_signal_connect_swapped (msg, "finished", G_CALLBACK (on_finished), mock);
  g_free (mock->last_path);
  mock->last_path = g_strdup (path);
  g_free (mock->last_method);
  mock->last_method = g_strdup (soup_server_message_get_method (msg));
  g_hash_table_remove_all (mock->last_headers);
  soup_message_headers_foreach (headers, record_header, mock->last_headers);

  g_clear_pointer (&mock->last_body, g_bytes_unref);
  mock->last_gzipped = g_strcmp0 (soup_message_headers_get_one (headers, "Content-Encoding"), "gzip") == 0;
  if (mock->last_gzipped)
    {
      g_autoptr(GError) error = NULL;
      mock->last_body = embers_gunzip (g_bytes_get_data (raw, NULL), g_bytes_get_size (raw), 1 << 24, &error);
      g_assert_no_error (error);
    }
  else
    mock->last_body = g_bytes_ref (raw);

  if (mock->delay_ms > 0)
    {
      Delayed *d = g_new0 (Delayed, 1);

      d->mock = mock;
      d->msg = g_object_ref (msg);
      d->id = g_timeout_add (mock->delay_ms, on_delayed, d);
      mock->delayed = g_list_prepend (mock->delayed, d);
      soup_server_message_pause (msg);
      return;
    }

  mock_respond (mock, msg, path);
}

static Mock *
mock_new (void)
{
  Mock *mock = g_new0 (Mock, 1);
  g_autoptr(GError) error = NULL;
  GSList *uris;

  mock->routes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) route_free);
  mock->last_headers = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  mock->server = soup_server_new ("server-header", "mock", NULL);
  soup_server_add_handler (mock->server, NULL, mock_handler, mock, NULL);
  soup_server_listen_local (mock->server, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, &error);
  g_assert_no_error (error);

  uris = soup_server_get_uris (mock->server);
  g_assert_nonnull (uris);
  mock->url = g_strdup_printf ("http://127.0.0.1:%d", g_uri_get_port (uris->data));
  g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);

  return mock;
}

static void
mock_free (Mock *mock)
{
  for (GList *l = mock->delayed; l != NULL; l = l->next)
    {
      Delayed *d = l->data;
      g_source_remove (d->id);
      g_object_unref (d->msg);
      g_free (d);
    }
  g_list_free (mock->delayed);

  soup_server_disconnect (mock->server);
  g_object_unref (mock->server);
  g_hash_table_unref (mock->routes);
  g_hash_table_unref (mock->last_headers);
  g_clear_pointer (&mock->last_body, g_bytes_unref);
  g_free (mock->last_path);
  g_free (mock->last_method);
  g_free (mock->url);
  g_free (mock);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Mock, mock_free)

static void
mock_route (Mock         *mock,
            const char   *key,
            guint         status,
            const char   *content_type,
            const void   *data,
            gssize        len)
{
  Route *route = g_new0 (Route, 1);

  route->status = status;
  route->content_type = g_strdup (content_type);
  route->body = g_bytes_new (data, len < 0 ? strlen (data) : (gsize) len);
  g_hash_table_replace (mock->routes, g_strdup (key), route);
}

static void
mock_route_proto (Mock                   *mock,
                  const char             *key,
                  const ProtobufCMessage *message)
{
  gsize len = protobuf_c_message_get_packed_size (message);
  g_autofree guint8 *buf = g_malloc (MAX (len, 1));

  protobuf_c_message_pack (message, buf);
  mock_route (mock, key, 200, "application/proto", buf, len);
}

static const char *
mock_header (Mock       *mock,
             const char *name)
{
  return g_hash_table_lookup (mock->last_headers, name);
}

static ProtobufCMessage *
mock_request (Mock                             *mock,
              const ProtobufCMessageDescriptor *descriptor)
{
  ProtobufCMessage *message;

  g_assert_nonnull (mock->last_body);
  message = protobuf_c_message_unpack (descriptor, NULL, g_bytes_get_size (mock->last_body),
                                       g_bytes_get_data (mock->last_body, NULL));
  g_assert_nonnull (message);
  return message;
}

static EmbersConnectClient *
client_for (const char *url)
{
  g_autoptr(GError) error = NULL;
  EmbersConnectClient *client = embers_connect_client_new (url, &error);

  g_assert_no_error (error);
  g_assert_nonnull (client);
  return client;
}

/* ---- protojson ------------------------------------------------------------ */

static void
test_protojson_encode (void)
{
  Querier__V1__SelectMergeStacktracesRequest req = QUERIER__V1__SELECT_MERGE_STACKTRACES_REQUEST__INIT;
  Querier__V1__SelectSeriesRequest series = QUERIER__V1__SELECT_SERIES_REQUEST__INIT;
  Types__V1__LabelNamesRequest names = TYPES__V1__LABEL_NAMES_REQUEST__INIT;
  char *matchers[] = { (char *) "{service_name=\"api\"}", (char *) "{a=\"b\"}" };
  g_autoptr(GBytes) json = NULL;
  g_autoptr(GBytes) json2 = NULL;
  g_autoptr(GBytes) json3 = NULL;
  g_autofree char *text = NULL;

  req.profile_typeid = (char *) CPU;
  req.label_selector = (char *) "{}";
  req.has_start = req.has_end = TRUE;
  req.start = G_GINT64_CONSTANT (1700000000000);
  req.end = G_GINT64_CONSTANT (1700003600000);
  req.has_max_nodes = TRUE;
  req.max_nodes = 8192;

  json = embers_protojson_encode (&req.base);
  text = g_strndup (g_bytes_get_data (json, NULL), g_bytes_get_size (json));
  /* lowerCamelCase keys, int64 as strings, absent fields left out */
  g_assert_cmpstr (text, ==,
                   "{\"profileTypeID\":\"" CPU "\",\"labelSelector\":\"{}\","
                   "\"start\":\"1700000000000\",\"end\":\"1700003600000\",\"maxNodes\":\"8192\"}");

  series.profile_typeid = (char *) CPU;
  series.has_step = TRUE;
  series.step = 15.5;
  series.has_aggregation = TRUE;
  series.aggregation = TYPES__V1__TIME_SERIES_AGGREGATION_TYPE__TIME_SERIES_AGGREGATION_TYPE_AVERAGE;
  json2 = embers_protojson_encode (&series.base);
  g_free (text);
  text = g_strndup (g_bytes_get_data (json2, NULL), g_bytes_get_size (json2));
  g_assert_cmpstr (text, ==,
                   "{\"profileTypeID\":\"" CPU "\",\"step\":15.5,"
                   "\"aggregation\":\"TIME_SERIES_AGGREGATION_TYPE_AVERAGE\"}");

  names.n_matchers = 2;
  names.matchers = matchers;
  json3 = embers_protojson_encode (&names.base);
  g_free (text);
  text = g_strndup (g_bytes_get_data (json3, NULL), g_bytes_get_size (json3));
  g_assert_cmpstr (text, ==, "{\"matchers\":[\"{service_name=\\\"api\\\"}\",\"{a=\\\"b\\\"}\"]}");

  {
    g_autofree char *a = embers_protojson_field_name ("profile_typeID");
    g_autofree char *b = embers_protojson_field_name ("leftTicks");
    g_autofree char *c = embers_protojson_field_name ("ID");
    g_autofree char *d = embers_protojson_field_name ("max_self");
    g_assert_cmpstr (a, ==, "profileTypeID");
    g_assert_cmpstr (b, ==, "leftTicks");
    g_assert_cmpstr (c, ==, "ID");
    g_assert_cmpstr (d, ==, "maxSelf");
  }
}

static ProtobufCMessage *
json_to_message (const ProtobufCMessageDescriptor *descriptor,
                 const char                       *json)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) wire = embers_protojson_to_wire (descriptor, json, strlen (json), &error);
  ProtobufCMessage *message;

  g_assert_no_error (error);
  g_assert_nonnull (wire);
  message = protobuf_c_message_unpack (descriptor, NULL, g_bytes_get_size (wire),
                                       g_bytes_get_data (wire, NULL));
  g_assert_nonnull (message);
  return message;
}

/* Exemplars (api/types/v1/types.proto: Point field 4, Exemplar fields 1–6)
 * and the request fields that ask for them: protojson keys, int64 values as
 * strings, enums by name, and back to the same wire message */
static void
test_protojson_exemplars (void)
{
  Querier__V1__SelectSeriesRequest req = QUERIER__V1__SELECT_SERIES_REQUEST__INIT;
  Querier__V1__SelectMergeStacktracesRequest merge = QUERIER__V1__SELECT_MERGE_STACKTRACES_REQUEST__INIT;
  Querier__V1__SelectSeriesResponse res = QUERIER__V1__SELECT_SERIES_RESPONSE__INIT;
  Types__V1__Series series = TYPES__V1__SERIES__INIT;
  Types__V1__Point point = TYPES__V1__POINT__INIT;
  Types__V1__Exemplar exemplar = TYPES__V1__EXEMPLAR__INIT;
  Types__V1__LabelPair pod = TYPES__V1__LABEL_PAIR__INIT;
  Types__V1__Series *series_ptrs[] = { &series };
  Types__V1__Point *point_ptrs[] = { &point };
  Types__V1__Exemplar *exemplar_ptrs[] = { &exemplar };
  Types__V1__LabelPair *label_ptrs[] = { &pod };
  char *ids[] = { (char *) "7c9e6679-7425-40de-944b-e07fc1f90ae7" };
  g_autoptr(GBytes) json = NULL;
  g_autofree char *text = NULL;
  Querier__V1__SelectSeriesResponse *back;
  const Types__V1__Exemplar *e;

  req.profile_typeid = (char *) CPU;
  req.has_exemplar_type = TRUE;
  req.exemplar_type = TYPES__V1__EXEMPLAR_TYPE__EXEMPLAR_TYPE_INDIVIDUAL;
  json = embers_protojson_encode (&req.base);
  text = g_strndup (g_bytes_get_data (json, NULL), g_bytes_get_size (json));
  g_assert_cmpstr (text, ==, "{\"profileTypeID\":\"" CPU "\",\"exemplarType\":\"EXEMPLAR_TYPE_INDIVIDUAL\"}");
  g_clear_pointer (&json, g_bytes_unref);
  g_clear_pointer (&text, g_free);

  merge.n_profile_id_selector = 1;
  merge.profile_id_selector = ids;
  json = embers_protojson_encode (&merge.base);
  text = g_strndup (g_bytes_get_data (json, NULL), g_bytes_get_size (json));
  g_assert_cmpstr (text, ==, "{\"profileIdSelector\":[\"7c9e6679-7425-40de-944b-e07fc1f90ae7\"]}");
  g_clear_pointer (&json, g_bytes_unref);
  g_clear_pointer (&text, g_free);

  pod.name = (char *) "pod";
  pod.value = (char *) "api-1";
  exemplar.has_timestamp = TRUE;
  exemplar.timestamp = G_GINT64_CONSTANT (1700000004000);
  exemplar.profile_id = ids[0];
  exemplar.has_value = TRUE;
  exemplar.value = G_GINT64_CONSTANT (9007199254740993);  /* past a double's integers */
  exemplar.n_labels = 1;
  exemplar.labels = label_ptrs;
  point.has_value = TRUE;
  point.value = 9e15;
  point.has_timestamp = TRUE;
  point.timestamp = G_GINT64_CONSTANT (1700000010000);
  point.n_exemplars = 1;
  point.exemplars = exemplar_ptrs;
  series.n_points = 1;
  series.points = point_ptrs;
  res.n_series = 1;
  res.series = series_ptrs;
  json = embers_protojson_encode (&res.base);
  text = g_strndup (g_bytes_get_data (json, NULL), g_bytes_get_size (json));
  g_assert_nonnull (strstr (text, "\"exemplars\":[{\"timestamp\":\"1700000004000\","
                                  "\"profileId\":\"7c9e6679-7425-40de-944b-e07fc1f90ae7\","
                                  "\"value\":\"9007199254740993\","
                                  "\"labels\":[{\"name\":\"pod\",\"value\":\"api-1\"}]}]"));

  back = (gpointer) json_to_message (&querier__v1__select_series_response__descriptor, text);
  g_assert_cmpuint (back->n_series, ==, 1);
  g_assert_cmpuint (back->series[0]->points[0]->n_exemplars, ==, 1);
  e = back->series[0]->points[0]->exemplars[0];
  g_assert_cmpint (e->timestamp, ==, G_GINT64_CONSTANT (1700000004000));
  g_assert_cmpstr (e->profile_id, ==, ids[0]);
  g_assert_cmpint (e->value, ==, G_GINT64_CONSTANT (9007199254740993));
  g_assert_cmpuint (e->n_labels, ==, 1);
  g_assert_cmpstr (e->labels[0]->value, ==, "api-1");
  protobuf_c_message_free_unpacked (&back->base, NULL);
}

static void
test_protojson_decode (void)
{
  Querier__V1__SelectMergeStacktracesResponse *merge;
  Types__V1__ProfileTypesResponse *types;
  Querier__V1__SelectSeriesResponse *series;
  Querier__V1__SelectMergeStacktracesRequest *req;
  Querier__V1__SelectMergeStacktracesResponse *tree;

  /* int64 as strings and as numbers; unknown keys ignored; zeros omitted */
  merge = (gpointer) json_to_message (&querier__v1__select_merge_stacktraces_response__descriptor,
    "{\"flamegraph\":{\"names\":[\"total\",\"main\"],"
    "\"levels\":[{\"values\":[\"0\",\"6\",\"0\",\"0\"]},{\"values\":[0,6,\"6\",1]},{}],"
    "\"total\":\"6\",\"maxSelf\":6,\"futureField\":{\"x\":[1,2]}},\"somethingNew\":true}");
  g_assert_nonnull (merge->flamegraph);
  g_assert_cmpuint (merge->flamegraph->n_names, ==, 2);
  g_assert_cmpstr (merge->flamegraph->names[1], ==, "main");
  g_assert_cmpuint (merge->flamegraph->n_levels, ==, 3);
  g_assert_cmpuint (merge->flamegraph->levels[1]->n_values, ==, 4);
  g_assert_cmpint (merge->flamegraph->levels[1]->values[2], ==, 6);
  g_assert_cmpuint (merge->flamegraph->levels[2]->n_values, ==, 0);
  g_assert_cmpint (merge->flamegraph->total, ==, 6);
  g_assert_cmpint (merge->flamegraph->max_self, ==, 6);
  protobuf_c_message_free_unpacked (&merge->base, NULL);

  /* "ID" stays as it is; proto names accepted too */
  types = (gpointer) json_to_message (&types__v1__profile_types_response__descriptor,
    "{\"profileTypes\":[{\"ID\":\"" CPU "\",\"name\":\"process_cpu\",\"sampleType\":\"cpu\"},"
    "{\"ID\":\"memory:inuse_space:bytes:space:bytes\",\"sample_unit\":\"bytes\"}]}");
  g_assert_cmpuint (types->n_profile_types, ==, 2);
  g_assert_cmpstr (types->profile_types[0]->id, ==, CPU);
  g_assert_cmpstr (types->profile_types[0]->sample_type, ==, "cpu");
  g_assert_cmpstr (types->profile_types[1]->sample_unit, ==, "bytes");
  protobuf_c_message_free_unpacked (&types->base, NULL);

  /* doubles, negative and huge int64, special floats */
  series = (gpointer) json_to_message (&querier__v1__select_series_response__descriptor,
    "{\"series\":[{\"labels\":[{\"name\":\"service_name\",\"value\":\"api\"}],"
    "\"points\":[{\"value\":1.5,\"timestamp\":\"-9223372036854775808\"},"
    "{\"value\":\"NaN\",\"timestamp\":9007199254740993},{\"value\":\"-Infinity\"},{\"value\":3}]}]}");
  g_assert_cmpuint (series->n_series, ==, 1);
  g_assert_cmpuint (series->series[0]->n_points, ==, 4);
  g_assert_cmpfloat (series->series[0]->points[0]->value, ==, 1.5);
  g_assert_cmpint (series->series[0]->points[0]->timestamp, ==, G_MININT64);
  g_assert_true (isnan (series->series[0]->points[1]->value));
  g_assert_cmpint (series->series[0]->points[1]->timestamp, ==, G_GINT64_CONSTANT (9007199254740993));
  g_assert_true (isinf (series->series[0]->points[2]->value));
  g_assert_cmpfloat (series->series[0]->points[3]->value, ==, 3.0);
  g_assert_cmpint (series->series[0]->points[3]->timestamp, ==, 0);
  protobuf_c_message_free_unpacked (&series->base, NULL);

  /* enums by name or number; nested messages; nulls are absent */
  req = (gpointer) json_to_message (&querier__v1__select_merge_stacktraces_request__descriptor,
    "{\"format\":\"PROFILE_FORMAT_TREE\",\"stackTraceSelector\":{\"callSite\":[{\"name\":\"main\"}],"
    "\"goPgo\":{\"keepLocations\":5,\"aggregateCallees\":true}},\"maxNodes\":null}");
  g_assert_true (req->has_format);
  g_assert_cmpint (req->format, ==, QUERIER__V1__PROFILE_FORMAT__PROFILE_FORMAT_TREE);
  g_assert_false (req->has_max_nodes);
  g_assert_cmpuint (req->stack_trace_selector->n_call_site, ==, 1);
  g_assert_cmpstr (req->stack_trace_selector->call_site[0]->name, ==, "main");
  g_assert_cmpuint (req->stack_trace_selector->go_pgo->keep_locations, ==, 5);
  g_assert_true (req->stack_trace_selector->go_pgo->aggregate_callees);
  protobuf_c_message_free_unpacked (&req->base, NULL);

  /* bytes are base64, with or without padding, standard or URL-safe */
  tree = (gpointer) json_to_message (&querier__v1__select_merge_stacktraces_response__descriptor,
                                     "{\"tree\":\"_-8A\"}");
  g_assert_true (tree->has_tree);
  g_assert_cmpuint (tree->tree.len, ==, 3);
  g_assert_cmpuint (tree->tree.data[0], ==, 0xff);
  g_assert_cmpuint (tree->tree.data[1], ==, 0xef);
  g_assert_cmpuint (tree->tree.data[2], ==, 0x00);
  protobuf_c_message_free_unpacked (&tree->base, NULL);

  /* A round trip: encode, then decode */
  {
    Querier__V1__DiffRequest diff = QUERIER__V1__DIFF_REQUEST__INIT;
    Querier__V1__SelectMergeStacktracesRequest left = QUERIER__V1__SELECT_MERGE_STACKTRACES_REQUEST__INIT;
    g_autoptr(GBytes) json = NULL;
    g_autoptr(GBytes) wire = NULL;
    g_autoptr(GError) error = NULL;
    Querier__V1__DiffRequest *back;

    left.profile_typeid = (char *) CPU;
    left.has_start = TRUE;
    left.start = -5;
    diff.left = &left;
    json = embers_protojson_encode (&diff.base);
    wire = embers_protojson_to_wire (&querier__v1__diff_request__descriptor,
                                     g_bytes_get_data (json, NULL), g_bytes_get_size (json), &error);
    g_assert_no_error (error);
    back = (gpointer) protobuf_c_message_unpack (&querier__v1__diff_request__descriptor, NULL,
                                                 g_bytes_get_size (wire), g_bytes_get_data (wire, NULL));
    g_assert_nonnull (back);
    g_assert_nonnull (back->left);
    g_assert_null (back->right);
    g_assert_cmpstr (back->left->profile_typeid, ==, CPU);
    g_assert_cmpint (back->left->start, ==, -5);
    protobuf_c_message_free_unpacked (&back->base, NULL);
  }
}

static void
test_protojson_errors (void)
{
  static const struct {
    const char *json;
    const char *words;
  } cases[] = {
    { "", "empty" },
    { "   ", "empty" },
    { "{", "not valid JSON" },
    { "[]", "This is not a Pyroscope answer: JSON with an array" },
    /* Another API's answer (Prometheus'), not an empty flame graph */
    { "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[]}}",
      "This is not a Pyroscope answer: a JSON object with the keys" },
    { " \n\t", "empty" },
    /* Two values: json-glib asserted on this (found by fuzz-server-body) */
    { "{\"flamegraph\":{}}\n{\"flamegraph\":{}}", "more after its end" },
    { "{\"flamegraph\":[]}", "flamegraph: expected an object" },
    { "{\"flamegraph\":{\"names\":\"total\"}}", "flamegraph.names: expected an array" },
    { "{\"flamegraph\":{\"names\":[1]}}", "flamegraph.names[0]: expected a string" },
    { "{\"flamegraph\":{\"levels\":[{\"values\":[\"x\"]}]}}", "flamegraph.levels[0].values: expected an integer" },
    { "{\"flamegraph\":{\"levels\":[{\"values\":[1.5]}]}}", "expected an integer" },
    { "{\"flamegraph\":{\"total\":true}}", "flamegraph.total: expected an integer" },
    { "{\"flamegraph\":{\"total\":\"99999999999999999999\"}}", "expected an integer" },
    { "{\"tree\":\"not base64!\"}", "not valid base64" },
    { "{\"dot\":{}}", "expected a string" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GBytes) wire = embers_protojson_to_wire (&querier__v1__select_merge_stacktraces_response__descriptor,
                                                         cases[i].json, strlen (cases[i].json), &error);

      g_test_message ("%s -> %s", cases[i].json, error ? error->message : "(no error)");
      g_assert_null (wire);
      g_assert_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_PROTOCOL);
      g_assert_nonnull (strstr (error->message, cases[i].words));
    }

  /* Enum names must exist; deep nesting is refused before parsing */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(GBytes) wire = NULL;
    g_autoptr(GString) deep = g_string_new ("{\"stackTraceSelector\":");
    const char *gif = "{\"format\":\"PROFILE_FORMAT_GIF\"}";

    wire = embers_protojson_to_wire (&querier__v1__select_merge_stacktraces_request__descriptor,
                                     gif, strlen (gif), &error);
    g_assert_null (wire);
    g_assert_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_PROTOCOL);
    g_assert_nonnull (strstr (error->message, "PROFILE_FORMAT_GIF"));
    g_clear_error (&error);

    for (guint i = 0; i < 5000; i++)
      g_string_append (deep, "[");
    wire = embers_protojson_to_wire (&querier__v1__select_merge_stacktraces_request__descriptor,
                                     deep->str, deep->len, &error);
    g_assert_null (wire);
    g_assert_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_PROTOCOL);
    g_assert_nonnull (strstr (error->message, "nested more than 128 levels deep"));
  }
}

/* ---- error mapping -------------------------------------------------------- */

static GError *
response_error (guint       status,
                const char *content_type,
                const char *body,
                const char *service,
                const char *method,
                gboolean    have_auth,
                gboolean    have_tenant)
{
  return embers_connect_error_from_response (status, NULL, content_type,
                                             (const guint8 *) body, body ? strlen (body) : 0,
                                             service, method, have_auth, have_tenant);
}

static void
test_errors_connect_codes (void)
{
  static const struct {
    const char *code;
    guint       status;
    int         expected;
    const char *words;
  } cases[] = {
    { "canceled", 499, EMBERS_SOURCE_ERROR_CANCELED, "canceled" },
    { "unknown", 500, EMBERS_SOURCE_ERROR_UNKNOWN, "unknown" },
    { "invalid_argument", 400, EMBERS_SOURCE_ERROR_INVALID_ARGUMENT, "invalid argument" },
    { "deadline_exceeded", 504, EMBERS_SOURCE_ERROR_DEADLINE_EXCEEDED, "shorter time range" },
    { "not_found", 404, EMBERS_SOURCE_ERROR_NOT_FOUND, "not found" },
    { "already_exists", 409, EMBERS_SOURCE_ERROR_ALREADY_EXISTS, "already exists" },
    { "permission_denied", 403, EMBERS_SOURCE_ERROR_PERMISSION_DENIED, "permission denied" },
    { "resource_exhausted", 429, EMBERS_SOURCE_ERROR_RESOURCE_EXHAUSTED, "resource exhausted" },
    { "failed_precondition", 400, EMBERS_SOURCE_ERROR_FAILED_PRECONDITION, "failed precondition" },
    { "aborted", 409, EMBERS_SOURCE_ERROR_ABORTED, "aborted" },
    { "out_of_range", 400, EMBERS_SOURCE_ERROR_OUT_OF_RANGE, "out of range" },
    { "unimplemented", 501, EMBERS_SOURCE_ERROR_UNIMPLEMENTED, "does not support SelectSeries" },
    { "internal", 500, EMBERS_SOURCE_ERROR_INTERNAL, "internal server error" },
    { "unavailable", 503, EMBERS_SOURCE_ERROR_UNAVAILABLE, "try again" },
    { "data_loss", 500, EMBERS_SOURCE_ERROR_DATA_LOSS, "data loss" },
    { "unauthenticated", 401, EMBERS_SOURCE_ERROR_UNAUTHENTICATED, "needs credentials" },
    { "something_new", 400, EMBERS_SOURCE_ERROR_UNKNOWN, "unknown" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *body = g_strdup_printf ("{\"code\":\"%s\",\"message\":\"the detail\\nhere\",\"details\":[]}",
                                               cases[i].code);
      /* The status lies on purpose: the code decides */
      g_autoptr(GError) error = response_error (i % 2 ? 200 + i : cases[i].status, "application/json", body,
                                                QUERIER, "SelectSeries", FALSE, FALSE);

      g_test_message ("%s -> %s", cases[i].code, error->message);
      g_assert_error (error, EMBERS_SOURCE_ERROR, cases[i].expected);
      g_assert_nonnull (strstr (error->message, cases[i].words));
      /* The server's message is kept, on one line */
      g_assert_nonnull (strstr (error->message, "“the detail here”"));

      if (strcmp (cases[i].code, "something_new") != 0)
        {
          g_assert_cmpint (embers_connect_code_from_string (cases[i].code), ==, cases[i].expected);
          g_assert_cmpstr (embers_connect_code_to_string (cases[i].expected), ==, cases[i].code);
        }
    }

  /* Unauthenticated says what to do, depending on what we sent */
  {
    g_autoptr(GError) no_auth = response_error (401, "application/json", "{\"code\":\"unauthenticated\"}",
                                                QUERIER, "LabelNames", FALSE, FALSE);
    g_autoptr(GError) bad_auth = response_error (401, "application/json", "{\"code\":\"unauthenticated\"}",
                                                 QUERIER, "LabelNames", TRUE, FALSE);
    g_autoptr(GError) no_tenant = response_error (401, "application/json",
                                                  "{\"code\":\"unauthenticated\",\"message\":\"no org id\"}",
                                                  QUERIER, "LabelNames", FALSE, FALSE);

    g_assert_error (no_auth, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_UNAUTHENTICATED);
    g_assert_cmpstr (no_auth->message, ==,
                     "unauthenticated: the server needs credentials — add a user and password or a token");
    g_assert_nonnull (strstr (bad_auth->message, "refused the credentials — check"));
    g_assert_nonnull (strstr (no_tenant->message, "set a tenant (X-Scope-OrgID)"));
  }
}

/* Errors in the server's words: a body with leading whitespace, Connect
 * details, a code read from its message, Grafana's and proxies' JSON, and
 * an error body nested far deeper than a parser may recurse */
static void
test_errors_server_words (void)
{
  g_autoptr(GError) spaced = response_error (400, "application/json",
                                             " \r\n {\"code\":\"invalid_argument\",\"message\":\"bad selector\"}",
                                             QUERIER, "SelectSeries", FALSE, FALSE);
  g_autoptr(GError) details = response_error (400, "application/json",
                                              "{\"code\":\"invalid_argument\",\"message\":\"bad\",\"details\":"
                                              "[{\"type\":\"google.rpc.ErrorInfo\",\"value\":\"CgNiYWQ=\","
                                              "\"debug\":{\"reason\":\"LABEL_INVALID\",\"domain\":\"pyroscope\"}}]}",
                                              QUERIER, "SelectSeries", FALSE, FALSE);
  g_autoptr(GError) busy = response_error (429, "application/json",
                                           "{\"code\":\"resource_exhausted\",\"message\":\"too many outstanding requests\"}",
                                           QUERIER, "SelectSeries", FALSE, FALSE);
  g_autoptr(GError) large = response_error (429, "application/json",
                                            "{\"code\":\"resource_exhausted\",\"message\":\"the query exceeds 10GB\"}",
                                            QUERIER, "SelectSeries", FALSE, FALSE);
  g_autoptr(GError) by_message = response_error (500, "application/json",
                                                 "{\"code\":\"unknown\",\"message\":\"rpc error: context deadline exceeded\"}",
                                                 QUERIER, "SelectSeries", FALSE, FALSE);
  g_autoptr(GError) grafana = response_error (401, "application/json",
                                              "{\"message\":\"Unauthorized\",\"traceID\":\"\"}",
                                              QUERIER, "LabelNames", FALSE, FALSE);
  g_autoptr(GError) proxy = response_error (502, "application/json",
                                            "{\"error\":{\"message\":\"upstream connect error\"}}",
                                            QUERIER, "LabelNames", FALSE, FALSE);
  g_autoptr(GString) deep = g_string_new ("{\"code\":\"internal\",\"message\":\"x\",\"details\":");
  g_autoptr(GError) deep_error = NULL;

  g_assert_error (spaced, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (spaced->message, "“bad selector”"));

  g_test_message ("details: %s", details->message);
  g_assert_nonnull (strstr (details->message, "ErrorInfo: reason=LABEL_INVALID, domain=pyroscope"));

  g_assert_error (busy, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_RESOURCE_EXHAUSTED);
  g_assert_nonnull (strstr (busy->message, "busy with too many queries"));
  g_assert_null (strstr (busy->message, "too large"));
  g_assert_nonnull (strstr (large->message, "too large"));

  g_assert_error (by_message, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_DEADLINE_EXCEEDED);

  g_test_message ("grafana: %s", grafana->message);
  g_assert_error (grafana, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_UNAUTHENTICATED);
  g_assert_nonnull (strstr (grafana->message, "the server said “Unauthorized”"));
  g_assert_null (strstr (grafana->message, "{"));
  g_assert_error (proxy, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_UNAVAILABLE);
  g_assert_nonnull (strstr (proxy->message, "“upstream connect error”"));

  /* 80,000 levels (160 KB): no crash, the status decides */
  for (guint i = 0; i < 80000; i++)
    g_string_append_c (deep, '[');
  for (guint i = 0; i < 80000; i++)
    g_string_append_c (deep, ']');
  g_string_append_c (deep, '}');
  deep_error = response_error (500, "application/json", deep->str, QUERIER, "SelectSeries", FALSE, FALSE);
  g_assert_error (deep_error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_UNAVAILABLE);
  g_assert_cmpuint (strlen (deep_error->message), <, 1000);
  g_assert_nonnull (strstr (deep_error->message, "nested more than 128 levels deep"));
  g_assert_null (strstr (deep_error->message, "[[["));
}

static void
test_errors_http (void)
{
  g_autoptr(GError) rules = response_error (404, "text/plain; charset=utf-8", "404 page not found\n",
                                            "settings.v1.RecordingRulesService", "ListRecordingRules",
                                            FALSE, FALSE);
  g_autoptr(GError) querier = response_error (404, "text/plain", "404 page not found",
                                              QUERIER, "SelectHeatmap", FALSE, FALSE);
  g_autoptr(GError) html = response_error (502, "text/html",
                                           "<!DOCTYPE html><html><head><title>502 Bad\n Gateway</title></head>"
                                           "<body>nginx</body></html>", QUERIER, "LabelNames", FALSE, FALSE);
  g_autoptr(GError) html_sniffed = response_error (200 + 300, NULL, "  <html><body>Sign in</body></html>",
                                                   QUERIER, "LabelNames", FALSE, FALSE);
  g_autoptr(GError) auth = response_error (401, "text/plain", "Unauthorized", QUERIER, "LabelNames", FALSE, FALSE);
  g_autoptr(GError) forbidden = response_error (403, NULL, NULL, QUERIER, "LabelNames", TRUE, FALSE);
  g_autoptr(GError) unsupported = response_error (415, "text/plain", "", QUERIER, "LabelNames", FALSE, FALSE);
  g_autoptr(GError) gateway_timeout = response_error (504, "text/plain", "upstream timed out", QUERIER, "Diff", FALSE, FALSE);
  g_autoptr(GError) not_json = response_error (500, "application/json", "{not json", QUERIER, "Diff", FALSE, FALSE);
  g_autoptr(GError) weird = response_error (418, "text/plain", "I'm a teapot\x01\xff", QUERIER, "Diff", FALSE, FALSE);

  g_assert_error (rules, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_UNIMPLEMENTED);
  g_assert_true (g_str_has_prefix (rules->message,
                                   "not found: the server does not serve recording rules "
                                   "(start Pyroscope with -tenant-settings.recording-rules.enabled=true)"));
  g_assert_nonnull (strstr (rules->message, "HTTP 404: “404 page not found”"));

  g_assert_error (querier, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_UNIMPLEMENTED);
  g_assert_nonnull (strstr (querier->message, "no querier.v1.QuerierService/SelectHeatmap"));
  g_assert_nonnull (strstr (querier->message, "api/datasources/proxy/uid/UID"));

  g_assert_error (html, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_UNAVAILABLE);
  g_assert_nonnull (strstr (html->message, "web page (“502 Bad Gateway”, HTTP 502)"));
  g_assert_null (strstr (html->message, "<"));

  g_assert_error (html_sniffed, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_UNAVAILABLE);
  g_assert_nonnull (strstr (html_sniffed->message, "web page"));

  g_assert_error (auth, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_UNAUTHENTICATED);
  g_assert_nonnull (strstr (auth->message, "needs credentials"));
  g_assert_error (forbidden, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_PERMISSION_DENIED);
  g_assert_error (unsupported, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_PROTOCOL);
  g_assert_nonnull (strstr (unsupported->message, "HTTP 415"));
  g_assert_error (gateway_timeout, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_DEADLINE_EXCEEDED);
  g_assert_nonnull (strstr (gateway_timeout->message, "upstream timed out"));
  g_assert_error (not_json, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_UNAVAILABLE);
  g_assert_nonnull (strstr (not_json->message, "HTTP 500"));
  g_assert_error (weird, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_PROTOCOL);
  g_assert_true (g_utf8_validate (weird->message, -1, NULL));
  g_assert_null (strchr (weird->message, '\x01'));
}

static void
test_errors_transport (void)
{
  static const struct {
    GQuark      domain;
    int         code;
    int         expected;
    const char *words;
  } cases[] = {
    { 0, G_RESOLVER_ERROR_NOT_FOUND, EMBERS_SOURCE_ERROR_UNAVAILABLE, "cannot find the server “example.invalid”" },
    { 1, G_IO_ERROR_CONNECTION_REFUSED, EMBERS_SOURCE_ERROR_UNAVAILABLE, "refused the connection" },
    { 1, G_IO_ERROR_TIMED_OUT, EMBERS_SOURCE_ERROR_DEADLINE_EXCEEDED, "did not answer in time" },
    { 1, G_IO_ERROR_PARTIAL_INPUT, EMBERS_SOURCE_ERROR_UNAVAILABLE, "closed before the whole answer arrived" },
    { 1, G_IO_ERROR_CONNECTION_CLOSED, EMBERS_SOURCE_ERROR_UNAVAILABLE, "closed before" },
    { 1, G_IO_ERROR_NETWORK_UNREACHABLE, EMBERS_SOURCE_ERROR_UNAVAILABLE, "cannot reach" },
    { 2, G_TLS_ERROR_BAD_CERTIFICATE, EMBERS_SOURCE_ERROR_UNAVAILABLE, "certificate is not trusted" },
    { 2, G_TLS_ERROR_HANDSHAKE, EMBERS_SOURCE_ERROR_UNAVAILABLE, "no secure connection" },
    { 3, SOUP_SESSION_ERROR_PARSING, EMBERS_SOURCE_ERROR_PROTOCOL, "not valid HTTP" },
    { 3, SOUP_SESSION_ERROR_TOO_MANY_REDIRECTS, EMBERS_SOURCE_ERROR_PROTOCOL, "redirects in a loop" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      GQuark domains[] = { G_RESOLVER_ERROR, G_IO_ERROR, G_TLS_ERROR, SOUP_SESSION_ERROR };
      g_autoptr(GError) in = g_error_new_literal (domains[cases[i].domain], cases[i].code, "low-level detail");
      g_autoptr(GError) out = embers_connect_error_from_transport (in, "example.invalid");

      g_test_message ("%s", out->message);
      g_assert_error (out, EMBERS_SOURCE_ERROR, cases[i].expected);
      g_assert_nonnull (strstr (out->message, cases[i].words));
    }

  /* Cancellation stays G_IO_ERROR_CANCELLED */
  {
    g_autoptr(GError) in = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED, "Operation was cancelled");
    g_autoptr(GError) out = embers_connect_error_from_transport (in, "x");
    g_assert_error (out, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  }
}

/* ---- base URLs -------------------------------------------------------------- */

static void
test_client_base_url (void)
{
  static const struct {
    const char *in;
    const char *out;
  } ok[] = {
    { "http://localhost:4040", "http://localhost:4040" },
    { "http://localhost:4040/", "http://localhost:4040" },
    { "http://localhost:4040///", "http://localhost:4040" },
    { "HTTPS://Example.COM/api/datasources/proxy/uid/abc/", "https://example.com/api/datasources/proxy/uid/abc" },
    { "https://host/a%20b/c", "https://host/a%20b/c" },
    { "https://user:secret@host/p?q=1#f", "https://host/p" },
    { "http://[::1]:4040/", "http://[::1]:4040" },
    { "http://host:80/p/", "http://host/p" },
    { "https://host:443", "https://host" },
  };
  static const char *bad[] = { "", "localhost:4040", "ftp://host/", "http://", "http:///path", "not a url" };

  for (guint i = 0; i < G_N_ELEMENTS (ok); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *norm = embers_connect_normalize_base_url (ok[i].in, &error);

      g_assert_no_error (error);
      g_assert_cmpstr (norm, ==, ok[i].out);
    }

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(EmbersConnectClient) client = embers_connect_client_new (bad[i], &error);

      g_assert_null (client);
      g_assert_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_INVALID_ARGUMENT);
    }

  /* Credentials in the URL become Basic auth and leave the URL */
  {
    g_autoptr(EmbersConnectClient) client = client_for ("https://123:" SECRET_PASSWORD "@grafana.example/prefix/");
    g_autofree char *name = embers_connect_client_dup_display_name (client);

    g_assert_true (embers_connect_client_has_auth (client));
    g_assert_cmpstr (embers_connect_client_get_base_url (client), ==, "https://grafana.example/prefix");
    g_assert_cmpstr (name, ==, "grafana.example/prefix");
  }
}

/* ---- levels decoding (PYROSCOPE-API.md §2 vectors) -------------------------- */

static guint32
find_node (EmbersProfile *profile,
           const char    *stack)
{
  for (guint32 i = 0; i < embers_profile_get_n_nodes (profile); i++)
    {
      g_autofree char *s = embers_profile_node_stack (profile, i, ";");
      if (g_strcmp0 (s, stack) == 0)
        return i;
    }
  return EMBERS_NODE_NONE;
}

static void
assert_node (EmbersProfile *profile,
             const char    *stack,
             guint          column,
             gint64         total,
             gint64         self)
{
  guint32 node = find_node (profile, stack);

  g_test_message ("node %s", stack);
  g_assert_cmpuint (node, !=, EMBERS_NODE_NONE);
  g_assert_cmpint (embers_profile_node_total (profile, column, node), ==, total);
  g_assert_cmpint (embers_profile_node_self (profile, column, node), ==, self);
}

static void
test_levels_single (void)
{
  /* Stacks main;a 3, main;b;c 2, main 1 */
  const char *names[] = { "total", "main", "b", "c", "a" };
  const gint64 l0[] = { 0, 6, 0, 0 };
  const gint64 l1[] = { 0, 6, 1, 1 };
  const gint64 l2[] = { 1, 3, 3, 4, 0, 2, 0, 2 };
  const gint64 l3[] = { 4, 2, 2, 3 };
  const gint64 *levels[] = { l0, l1, l2, l3 };
  const gsize n_values[] = { 4, 4, 8, 4 };
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersProfile) profile = NULL;

  profile = embers_levels_to_profile (names, 5, levels, n_values, 4, FALSE, "cpu", "nanoseconds", &error);
  g_assert_no_error (error);
  g_assert_false (embers_profile_is_diff (profile));
  g_assert_cmpuint (embers_profile_get_n_nodes (profile), ==, 5);
  g_assert_cmpstr (embers_profile_get_sample_type (profile, 0), ==, "cpu");
  g_assert_cmpstr (embers_profile_get_sample_unit (profile, 0), ==, "nanoseconds");
  g_assert_cmpint (embers_profile_get_total (profile, 0), ==, 6);
  assert_node (profile, "main", 0, 6, 1);
  assert_node (profile, "main;a", 0, 3, 3);
  assert_node (profile, "main;b", 0, 2, 0);
  assert_node (profile, "main;b;c", 0, 2, 2);
}

static void
test_levels_diff (void)
{
  /* Left {a;b 1, a;c 2}, right {a;b 4, a;c 8} */
  const char *names[] = { "total", "a", "c", "b" };
  const gint64 l0[] = { 0, 3, 0, 0, 12, 0, 0 };
  const gint64 l1[] = { 0, 3, 0, 0, 12, 0, 1 };
  const gint64 l2[] = { 0, 1, 1, 0, 4, 4, 3, 0, 2, 2, 0, 8, 8, 2 };
  const gint64 *levels[] = { l0, l1, l2 };
  const gsize n_values[] = { 7, 7, 14 };
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersProfile) profile = NULL;

  profile = embers_levels_to_profile (names, 4, levels, n_values, 3, TRUE, "cpu", "nanoseconds", &error);
  g_assert_no_error (error);
  g_assert_true (embers_profile_is_diff (profile));
  g_assert_cmpuint (embers_profile_get_n_nodes (profile), ==, 4);
  g_assert_cmpint (embers_profile_get_total (profile, EMBERS_DIFF_BASELINE), ==, 3);
  g_assert_cmpint (embers_profile_get_total (profile, EMBERS_DIFF_COMPARISON), ==, 12);
  assert_node (profile, "a;b", EMBERS_DIFF_BASELINE, 1, 1);
  assert_node (profile, "a;b", EMBERS_DIFF_COMPARISON, 4, 4);
  assert_node (profile, "a;c", EMBERS_DIFF_BASELINE, 2, 2);
  assert_node (profile, "a;c", EMBERS_DIFF_COMPARISON, 8, 8);
}

static void
test_levels_lies (void)
{
  const char *names[] = { "total", "main" };
  const gint64 l0[] = { 0, 6, 0, 0 };
  const gint64 bad_index[] = { 0, 6, 6, 7 };
  const gint64 ragged[] = { 0, 6, 6 };
  const gint64 *levels1[] = { l0, bad_index };
  const gint64 *levels2[] = { l0, ragged };
  const gsize n1[] = { 4, 4 };
  const gsize n2[] = { 4, 3 };
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersProfile) p1 = NULL;
  g_autoptr(EmbersProfile) p2 = NULL;

  p1 = embers_levels_to_profile (names, 2, levels1, n1, 2, FALSE, "cpu", "nanoseconds", &error);
  g_assert_null (p1);
  g_assert_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_INVALID);
  g_clear_error (&error);

  p2 = embers_levels_to_profile (names, 2, levels2, n2, 2, FALSE, "cpu", "nanoseconds", &error);
  g_assert_null (p2);
  g_assert_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_INVALID);
}

/* ---- the client against the mock ---------------------------------------- */

static GBytes *
call_sync (EmbersConnectClient              *client,
           const char                       *method,
           const ProtobufCMessage           *request,
           const ProtobufCMessageDescriptor *response_type,
           EmbersConnectCallFlags            flags,
           GError                          **error)
{
  Wait wait = { NULL };
  GBytes *bytes;

  embers_connect_client_call_async (client, QUERIER, method, request, response_type, flags,
                                    NULL, on_done, &wait);
  wait_result (&wait);
  g_assert_cmpuint (wait.n_calls, ==, 1);
  bytes = embers_connect_client_call_finish (client, wait.result, error);
  wait_clear (&wait);

  return bytes;
}

static void
test_mock_headers (void)
{
  g_autoptr(Mock) mock = mock_new ();
  g_autoptr(EmbersConnectClient) client = client_for (mock->url);
  Types__V1__LabelNamesRequest req = TYPES__V1__LABEL_NAMES_REQUEST__INIT;
  Types__V1__LabelNamesResponse resp = TYPES__V1__LABEL_NAMES_RESPONSE__INIT;
  char *names[] = { (char *) "__name__", (char *) "service_name" };
  Types__V1__LabelNamesRequest *sent;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *expected_basic = NULL;

  resp.n_names = 2;
  resp.names = names;
  mock_route_proto (mock, QUERIER "/LabelNames", &resp.base);

  req.has_start = req.has_end = TRUE;
  req.start = 1000;
  req.end = 2000;

  /* No auth, no tenant, no label flag */
  bytes = call_sync (client, "LabelNames", &req.base, &types__v1__label_names_response__descriptor,
                     EMBERS_CONNECT_CALL_NONE, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (mock->last_method, ==, "POST");
  g_assert_cmpstr (mock->last_path, ==, "/querier.v1.QuerierService/LabelNames");
  g_assert_cmpstr (mock_header (mock, "content-type"), ==, "application/proto");
  g_assert_cmpstr (mock_header (mock, "connect-protocol-version"), ==, "1");
  g_assert_cmpstr (mock_header (mock, "connect-timeout-ms"), ==, "60000");
  g_assert_nonnull (strstr (mock_header (mock, "accept-encoding"), "gzip"));
  g_assert_null (mock_header (mock, "authorization"));
  g_assert_null (mock_header (mock, "x-scope-orgid"));
  g_assert_null (mock_header (mock, "accept"));
  g_assert_false (mock->last_gzipped);
  sent = (gpointer) mock_request (mock, &types__v1__label_names_request__descriptor);
  g_assert_cmpint (sent->start, ==, 1000);
  g_assert_cmpint (sent->end, ==, 2000);
  protobuf_c_message_free_unpacked (&sent->base, NULL);
  g_clear_pointer (&bytes, g_bytes_unref);

  /* Bearer, tenant, UTF-8 label names */
  embers_connect_client_set_bearer_token (client, SECRET_TOKEN);
  embers_connect_client_set_tenant (client, "team-a|team-b");
  bytes = call_sync (client, "LabelNames", &req.base, &types__v1__label_names_response__descriptor,
                     EMBERS_CONNECT_CALL_UTF8_LABEL_NAMES, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (mock_header (mock, "authorization"), ==, "Bearer " SECRET_TOKEN);
  g_assert_cmpstr (mock_header (mock, "x-scope-orgid"), ==, "team-a|team-b");
  g_assert_cmpstr (mock_header (mock, "accept"), ==, "*/*;allow-utf8-labelnames=true");
  g_clear_pointer (&bytes, g_bytes_unref);

  /* Basic wins over Bearer */
  embers_connect_client_set_basic_auth (client, "123456", SECRET_PASSWORD);
  bytes = call_sync (client, "LabelNames", &req.base, &types__v1__label_names_response__descriptor,
                     EMBERS_CONNECT_CALL_NONE, &error);
  g_assert_no_error (error);
  {
    g_autofree char *b64 = g_base64_encode ((const guint8 *) "123456:" SECRET_PASSWORD,
                                            strlen ("123456:" SECRET_PASSWORD));
    expected_basic = g_strconcat ("Basic ", b64, NULL);
  }
  g_assert_cmpstr (mock_header (mock, "authorization"), ==, expected_basic);
  g_clear_pointer (&bytes, g_bytes_unref);

  /* Clearing auth and tenant removes the headers */
  embers_connect_client_set_basic_auth (client, NULL, NULL);
  embers_connect_client_set_bearer_token (client, NULL);
  embers_connect_client_set_tenant (client, "");
  embers_connect_client_set_timeout (client, 0);
  bytes = call_sync (client, "LabelNames", &req.base, &types__v1__label_names_response__descriptor,
                     EMBERS_CONNECT_CALL_NONE, &error);
  g_assert_no_error (error);
  g_assert_null (mock_header (mock, "authorization"));
  g_assert_null (mock_header (mock, "x-scope-orgid"));
  g_assert_null (mock_header (mock, "connect-timeout-ms"));
  g_assert_cmpuint (mock->n_requests, ==, 4);

  assert_no_secret_logged ();
}

static void
test_mock_prefix (void)
{
  g_autoptr(Mock) mock = mock_new ();
  g_autofree char *base = g_strconcat (mock->url, "/api/datasources/proxy/uid/P1809F7CD0C75ACF3//", NULL);
  g_autoptr(EmbersConnectClient) client = client_for (base);
  Types__V1__ProfileTypesRequest req = TYPES__V1__PROFILE_TYPES_REQUEST__INIT;
  Types__V1__ProfileTypesResponse resp = TYPES__V1__PROFILE_TYPES_RESPONSE__INIT;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;

  mock_route_proto (mock, QUERIER "/ProfileTypes", &resp.base);
  bytes = call_sync (client, "ProfileTypes", &req.base, &types__v1__profile_types_response__descriptor,
                     EMBERS_CONNECT_CALL_NONE, &error);
  g_assert_no_error (error);
  g_assert_nonnull (bytes);
  g_assert_cmpuint (g_bytes_get_size (bytes), ==, 0);  /* an empty message is zero bytes */
  g_assert_cmpstr (mock->last_path, ==,
                   "/api/datasources/proxy/uid/P1809F7CD0C75ACF3/querier.v1.QuerierService/ProfileTypes");
}

static void
test_mock_gzip (void)
{
  g_autoptr(Mock) mock = mock_new ();
  g_autoptr(EmbersConnectClient) client = client_for (mock->url);
  Querier__V1__SeriesRequest req = QUERIER__V1__SERIES_REQUEST__INIT;
  Querier__V1__SeriesResponse resp = QUERIER__V1__SERIES_RESPONSE__INIT;
  Types__V1__Labels set = TYPES__V1__LABELS__INIT;
  Types__V1__LabelPair pair = TYPES__V1__LABEL_PAIR__INIT;
  Types__V1__Labels *sets[] = { &set };
  Types__V1__LabelPair *pairs[] = { &pair };
  g_autoptr(GPtrArray) matchers = g_ptr_array_new_with_free_func (g_free);
  Querier__V1__SeriesRequest *sent;
  Querier__V1__SeriesResponse *got;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;

  pair.name = (char *) "service_name";
  pair.value = (char *) "api";
  set.n_labels = 1;
  set.labels = pairs;
  resp.n_labels_set = 1;
  resp.labels_set = sets;
  mock_route_proto (mock, QUERIER "/Series", &resp.base);
  ((Route *) g_hash_table_lookup (mock->routes, QUERIER "/Series"))->gzip = TRUE;

  /* A big request is sent gzipped */
  for (guint i = 0; i < 200; i++)
    g_ptr_array_add (matchers, g_strdup_printf ("{service_name=\"service-%u\"}", i));
  req.n_matchers = matchers->len;
  req.matchers = (char **) matchers->pdata;

  bytes = call_sync (client, "Series", &req.base, &querier__v1__series_response__descriptor,
                     EMBERS_CONNECT_CALL_NONE, &error);
  g_assert_no_error (error);
  g_assert_true (mock->last_gzipped);
  sent = (gpointer) mock_request (mock, &querier__v1__series_request__descriptor);
  g_assert_cmpuint (sent->n_matchers, ==, 200);
  g_assert_cmpstr (sent->matchers[199], ==, "{service_name=\"service-199\"}");
  protobuf_c_message_free_unpacked (&sent->base, NULL);

  /* and the gzipped answer arrives decoded */
  got = (gpointer) embers_connect_unpack (&querier__v1__series_response__descriptor, bytes, "Series", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (got->n_labels_set, ==, 1);
  g_assert_cmpstr (got->labels_set[0]->labels[0]->value, ==, "api");
  protobuf_c_message_free_unpacked (&got->base, NULL);
  g_clear_pointer (&bytes, g_bytes_unref);

  /* A small one is not */
  req.n_matchers = 1;
  bytes = call_sync (client, "Series", &req.base, &querier__v1__series_response__descriptor,
                     EMBERS_CONNECT_CALL_NONE, &error);
  g_assert_no_error (error);
  g_assert_false (mock->last_gzipped);
}

static void
test_mock_json (void)
{
  g_autoptr(Mock) mock = mock_new ();
  g_autoptr(EmbersConnectClient) client = client_for (mock->url);
  g_autoptr(EmbersPyroscopeSource) source = embers_pyroscope_source_new (client);
  g_autoptr(EmbersQuery) query = embers_query_new (CPU, "{service_name=\"api\"}", 1000, 2000);
  g_autoptr(EmbersProfile) profile = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *sent = NULL;
  Wait wait = { NULL };

  embers_connect_client_set_encoding (client, EMBERS_CONNECT_ENCODING_JSON);
  mock_route (mock, QUERIER "/SelectMergeStacktraces", 200, "application/json",
              "{\"flamegraph\":{\"names\":[\"total\",\"main\",\"b\",\"c\",\"a\"],"
              "\"levels\":[{\"values\":[\"0\",\"6\",\"0\",\"0\"]},{\"values\":[\"0\",\"6\",\"1\",\"1\"]},"
              "{\"values\":[\"1\",\"3\",\"3\",\"4\",\"0\",\"2\",\"0\",\"2\"]},{\"values\":[\"4\",\"2\",\"2\",\"3\"]}],"
              "\"total\":\"6\",\"maxSelf\":\"3\"}}", -1);

  embers_source_merge_profile (EMBERS_SOURCE (source), query, NULL, on_done, &wait);
  wait_result (&wait);
  profile = embers_source_merge_profile_finish (EMBERS_SOURCE (source), wait.result, &error);
  wait_clear (&wait);
  g_assert_no_error (error);

  g_assert_cmpstr (mock_header (mock, "content-type"), ==, "application/json");
  sent = g_strndup (g_bytes_get_data (mock->last_body, NULL), g_bytes_get_size (mock->last_body));
  g_assert_cmpstr (sent, ==,
                   "{\"profileTypeID\":\"" CPU "\",\"labelSelector\":\"{service_name=\\\"api\\\"}\","
                   "\"start\":\"1000\",\"end\":\"2000\",\"maxNodes\":\"8192\"}");

  g_assert_cmpint (embers_profile_get_total (profile, 0), ==, 6);
  assert_node (profile, "main;b;c", 0, 2, 2);
}

static EmbersProfile *
merge_sync (EmbersPyroscopeSource *source,
            const EmbersQuery     *query,
            GError               **error)
{
  Wait wait = { NULL };
  EmbersProfile *profile;

  embers_source_merge_profile (EMBERS_SOURCE (source), query, NULL, on_done, &wait);
  wait_result (&wait);
  g_assert_cmpuint (wait.n_calls, ==, 1);
  profile = embers_source_merge_profile_finish (EMBERS_SOURCE (source), wait.result, error);
  wait_clear (&wait);

  return profile;
}

static void
route_flamegraph (Mock          *mock,
                  const char   **names,
                  gsize          n_names,
                  const gint64 **levels,
                  const gsize   *n_values,
                  gsize          n_levels)
{
  Querier__V1__SelectMergeStacktracesResponse resp = QUERIER__V1__SELECT_MERGE_STACKTRACES_RESPONSE__INIT;
  Querier__V1__FlameGraph fg = QUERIER__V1__FLAME_GRAPH__INIT;
  g_autofree Querier__V1__Level *lv = g_new0 (Querier__V1__Level, n_levels);
  g_autofree Querier__V1__Level **lvp = g_new0 (Querier__V1__Level *, n_levels);

  for (gsize i = 0; i < n_levels; i++)
    {
      querier__v1__level__init (&lv[i]);
      lv[i].n_values = n_values[i];
      lv[i].values = (int64_t *) levels[i];
      lvp[i] = &lv[i];
    }
  fg.n_names = n_names;
  fg.names = (char **) names;
  fg.n_levels = n_levels;
  fg.levels = lvp;
  resp.flamegraph = &fg;
  mock_route_proto (mock, QUERIER "/SelectMergeStacktraces", &resp.base);
}

static void
test_mock_merge (void)
{
  g_autoptr(Mock) mock = mock_new ();
  g_autoptr(EmbersConnectClient) client = client_for (mock->url);
  g_autoptr(EmbersPyroscopeSource) source = embers_pyroscope_source_new (client);
  g_autoptr(EmbersQuery) query = embers_query_new ("memory:alloc_space:bytes:space:bytes", NULL, 1000, 2000);
  g_autoptr(EmbersProfile) profile = NULL;
  g_autoptr(GError) error = NULL;
  Querier__V1__SelectMergeStacktracesRequest *sent;
  /* main;a 7, and 3 more the server cut into "other" */
  const char *names[] = { "total", "main", "other", "a" };
  const gint64 l0[] = { 0, 10, 0, 0 };
  const gint64 l1[] = { 0, 10, 0, 1 };
  const gint64 l2[] = { 0, 7, 7, 3, 0, 3, 3, 2 };
  const gint64 *levels[] = { l0, l1, l2 };
  const gsize n_values[] = { 4, 4, 8 };

  route_flamegraph (mock, names, 4, levels, n_values, 3);

  profile = merge_sync (source, query, &error);
  g_assert_no_error (error);

  /* The request: selector "{}" by default, max_nodes 8192 by default */
  sent = (gpointer) mock_request (mock, &querier__v1__select_merge_stacktraces_request__descriptor);
  g_assert_cmpstr (sent->profile_typeid, ==, "memory:alloc_space:bytes:space:bytes");
  g_assert_cmpstr (sent->label_selector, ==, "{}");
  g_assert_cmpint (sent->start, ==, 1000);
  g_assert_cmpint (sent->end, ==, 2000);
  g_assert_true (sent->has_max_nodes);
  g_assert_cmpint (sent->max_nodes, ==, EMBERS_PYROSCOPE_DEFAULT_MAX_NODES);
  protobuf_c_message_free_unpacked (&sent->base, NULL);

  /* Sample type and unit come from the profile type id */
  g_assert_cmpstr (embers_profile_get_sample_type (profile, 0), ==, "alloc_space");
  g_assert_cmpstr (embers_profile_get_sample_unit (profile, 0), ==, "bytes");
  g_assert_cmpint (embers_profile_get_total (profile, 0), ==, 10);
  /* "other" stays a normal, visible frame with its size */
  assert_node (profile, "main;other", 0, 3, 3);
  assert_node (profile, "main;a", 0, 7, 7);
  g_clear_object (&profile);

  /* max_nodes: the query's own, then the source's setting */
  query->max_nodes = 100;
  profile = merge_sync (source, query, &error);
  g_assert_no_error (error);
  sent = (gpointer) mock_request (mock, &querier__v1__select_merge_stacktraces_request__descriptor);
  g_assert_cmpint (sent->max_nodes, ==, 100);
  protobuf_c_message_free_unpacked (&sent->base, NULL);
  g_clear_object (&profile);

  query->max_nodes = 0;
  embers_pyroscope_source_set_max_nodes (source, 2048);
  profile = merge_sync (source, query, &error);
  g_assert_no_error (error);
  sent = (gpointer) mock_request (mock, &querier__v1__select_merge_stacktraces_request__descriptor);
  g_assert_cmpint (sent->max_nodes, ==, 2048);
  protobuf_c_message_free_unpacked (&sent->base, NULL);
  g_clear_object (&profile);

  /* No flame graph in the answer: Pyroscope always sends one, the root
   * alone when nothing matches (pkg/frontend/frontend_select_merge_stacktraces.go
   * and the v2 query frontend set Flamegraph = NewFlameGraph(…) for the
   * flame graph format), so an answer without one is someone else's, and
   * an error rather than "no data" */
  {
    Querier__V1__SelectMergeStacktracesResponse empty = QUERIER__V1__SELECT_MERGE_STACKTRACES_RESPONSE__INIT;
    mock_route_proto (mock, QUERIER "/SelectMergeStacktraces", &empty.base);
  }
  profile = merge_sync (source, query, &error);
  g_assert_null (profile);
  g_assert_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_PROTOCOL);
  g_assert_nonnull (strstr (error->message, "not a Pyroscope answer"));
  g_clear_error (&error);

  /* A bad profile type never leaves the machine */
  {
    g_autoptr(EmbersQuery) bad = embers_query_new ("cpu", NULL, 1000, 2000);
    guint before = mock->n_requests;

    profile = merge_sync (source, bad, &error);
    g_assert_null (profile);
    g_assert_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_INVALID_ARGUMENT);
    g_assert_nonnull (strstr (error->message, "“cpu” is not a profile type"));
    g_assert_cmpuint (mock->n_requests, ==, before);
  }
}

static void
test_mock_lies (void)
{
  g_autoptr(Mock) mock = mock_new ();
  g_autoptr(EmbersConnectClient) client = client_for (mock->url);
  g_autoptr(EmbersPyroscopeSource) source = embers_pyroscope_source_new (client);
  g_autoptr(EmbersQuery) query = embers_query_new (CPU, NULL, 1000, 2000);
  const char *names[] = { "total", "main" };
  const gint64 l0[] = { 0, 6, 0, 0 };
  const gint64 out_of_range[] = { 0, 6, 6, 9 };
  const gint64 ragged[] = { 0, 6, 6 };
  const gint64 *levels1[] = { l0, out_of_range };
  const gint64 *levels2[] = { l0, ragged };
  const gsize n1[] = { 4, 4 };
  const gsize n2[] = { 4, 3 };

  /* Names index out of range */
  route_flamegraph (mock, names, 2, levels1, n1, 2);
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(EmbersProfile) profile = merge_sync (source, query, &error);
    g_assert_null (profile);
    g_assert_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_PROTOCOL);
    g_assert_true (g_str_has_prefix (error->message, "The server's flame graph is inconsistent: "));
  }

  /* A level that is not a whole number of nodes */
  route_flamegraph (mock, names, 2, levels2, n2, 2);
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(EmbersProfile) profile = merge_sync (source, query, &error);
    g_assert_null (profile);
    g_assert_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_PROTOCOL);
  }

  /* Not protobuf at all */
  mock_route (mock, QUERIER "/SelectMergeStacktraces", 200, "application/proto", "\xff\xff\xff\xff\xff", 5);
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(EmbersProfile) profile = merge_sync (source, query, &error);
    g_assert_null (profile);
    g_assert_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_PROTOCOL);
    g_assert_nonnull (strstr (error->message, "could not be decoded"));
  }

  /* A login page with 200 OK */
  mock_route (mock, QUERIER "/SelectMergeStacktraces", 200, "text/html",
              "<html><title>Sign in</title></html>", -1);
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(EmbersProfile) profile = merge_sync (source, query, &error);
    g_assert_null (profile);
    g_assert_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_PROTOCOL);
    g_assert_nonnull (strstr (error->message, "web page instead of the Pyroscope API"));
  }

  /* Some other content type */
  mock_route (mock, QUERIER "/SelectMergeStacktraces", 200, "image/png", "\x89PNG", 4);
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(EmbersProfile) profile = merge_sync (source, query, &error);
    g_assert_null (profile);
    g_assert_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_PROTOCOL);
    g_assert_nonnull (strstr (error->message, "“image/png”"));
  }

  /* Bigger than we accept */
  route_flamegraph (mock, names, 2, levels1, n1, 2);
  embers_connect_client_set_max_response_size (client, 8);
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(EmbersProfile) profile = merge_sync (source, query, &error);
    g_assert_null (profile);
    g_assert_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_RESOURCE_EXHAUSTED);
    g_assert_nonnull (strstr (error->message, "fewer nodes or a shorter time range"));
  }
  ((Route *) g_hash_table_lookup (mock->routes, QUERIER "/SelectMergeStacktraces"))->gzip = TRUE;
  {
    /* also when it only grows once decompressed */
    g_autoptr(GError) error = NULL;
    g_autoptr(EmbersProfile) profile = merge_sync (source, query, &error);
    g_assert_null (profile);
    g_assert_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_RESOURCE_EXHAUSTED);
  }
}

/* Load More's request: the call site as a stack_trace_selector, root
 * first, and the query's budget as max_nodes; no selector for the root */
static void
test_mock_call_site (void)
{
  g_autoptr(Mock) mock = mock_new ();
  g_autoptr(EmbersConnectClient) client = client_for (mock->url);
  g_autoptr(EmbersPyroscopeSource) source = embers_pyroscope_source_new (client);
  g_autoptr(EmbersQuery) query = embers_query_new ("memory:alloc_space:bytes:space:bytes", "{service_name=\"x\"}",
                                                   1000, 2000);
  const char *site[] = { "main", "a", NULL };
  const char *names[] = { "total", "main", "a" };
  const gint64 l0[] = { 0, 7, 0, 0 };
  const gint64 l1[] = { 0, 7, 0, 1 };
  const gint64 l2[] = { 0, 7, 7, 2 };
  const gint64 *levels[] = { l0, l1, l2 };
  const gsize n_values[] = { 4, 4, 4 };

  route_flamegraph (mock, names, 3, levels, n_values, 3);
  query->max_nodes = 1026;
  for (guint i = 0; i < 2; i++)
    {
      Wait wait = { NULL };
      g_autoptr(EmbersProfile) profile = NULL;
      g_autoptr(GError) error = NULL;
      Querier__V1__SelectMergeStacktracesRequest *sent;

      embers_source_merge_call_site (EMBERS_SOURCE (source), query, i == 0 ? site : NULL, NULL, on_done, &wait);
      wait_result (&wait);
      profile = embers_source_merge_call_site_finish (EMBERS_SOURCE (source), wait.result, &error);
      wait_clear (&wait);
      g_assert_no_error (error);
      assert_node (profile, "main;a", 0, 7, 7);

      sent = (gpointer) mock_request (mock, &querier__v1__select_merge_stacktraces_request__descriptor);
      g_assert_cmpstr (sent->label_selector, ==, "{service_name=\"x\"}");
      g_assert_cmpint (sent->max_nodes, ==, 1026);
      if (i == 0)
        {
          g_assert_nonnull (sent->stack_trace_selector);
          g_assert_cmpuint (sent->stack_trace_selector->n_call_site, ==, 2);
          g_assert_cmpstr (sent->stack_trace_selector->call_site[0]->name, ==, "main");
          g_assert_cmpstr (sent->stack_trace_selector->call_site[1]->name, ==, "a");
          g_assert_null (sent->stack_trace_selector->go_pgo);
        }
      else
        g_assert_null (sent->stack_trace_selector);
      protobuf_c_message_free_unpacked (&sent->base, NULL);
    }
}

static void
test_mock_series (void)
{
  g_autoptr(Mock) mock = mock_new ();
  g_autoptr(EmbersConnectClient) client = client_for (mock->url);
  g_autoptr(EmbersPyroscopeSource) source = embers_pyroscope_source_new (client);
  g_autoptr(EmbersQuery) query = embers_query_new (CPU, "{env=\"prod\"}", 0, 3600 * 1000);
  Querier__V1__SelectSeriesResponse resp = QUERIER__V1__SELECT_SERIES_RESPONSE__INIT;
  Types__V1__Series s = TYPES__V1__SERIES__INIT;
  Types__V1__LabelPair pair = TYPES__V1__LABEL_PAIR__INIT;
  Types__V1__Point p1 = TYPES__V1__POINT__INIT, p2 = TYPES__V1__POINT__INIT;
  Types__V1__Series *series_list[] = { &s };
  Types__V1__LabelPair *pairs[] = { &pair };
  Types__V1__Point *points[] = { &p1, &p2 };
  Querier__V1__SelectSeriesRequest *sent;
  const char *group_by[] = { "service_name", NULL };
  g_autoptr(GPtrArray) result = NULL;
  g_autoptr(GError) error = NULL;
  EmbersSeries *first;
  Wait wait = { NULL };

  pair.name = (char *) "service_name";
  pair.value = (char *) "api";
  p1.has_value = p1.has_timestamp = TRUE;
  p1.value = 1.5;
  p1.timestamp = 15000;
  p2.has_value = p2.has_timestamp = TRUE;
  p2.value = 4;
  p2.timestamp = 60000;
  s.n_labels = 1;
  s.labels = pairs;
  s.n_points = 2;
  s.points = points;
  resp.n_series = 1;
  resp.series = series_list;
  mock_route_proto (mock, QUERIER "/SelectSeries", &resp.base);

  embers_source_select_series (EMBERS_SOURCE (source), query, group_by, 36.0,
                               EMBERS_AGGREGATION_AVERAGE, 5, NULL, on_done, &wait);
  wait_result (&wait);
  result = embers_source_select_series_finish (EMBERS_SOURCE (source), wait.result, &error);
  wait_clear (&wait);
  g_assert_no_error (error);

  sent = (gpointer) mock_request (mock, &querier__v1__select_series_request__descriptor);
  g_assert_cmpstr (sent->profile_typeid, ==, CPU);
  g_assert_cmpstr (sent->label_selector, ==, "{env=\"prod\"}");
  g_assert_cmpuint (sent->n_group_by, ==, 1);
  g_assert_cmpstr (sent->group_by[0], ==, "service_name");
  g_assert_cmpfloat (sent->step, ==, 36.0);
  g_assert_true (sent->has_aggregation);
  g_assert_cmpint (sent->aggregation, ==, TYPES__V1__TIME_SERIES_AGGREGATION_TYPE__TIME_SERIES_AGGREGATION_TYPE_AVERAGE);
  g_assert_true (sent->has_limit);
  g_assert_cmpint (sent->limit, ==, 5);
  protobuf_c_message_free_unpacked (&sent->base, NULL);

  g_assert_cmpuint (result->len, ==, 1);
  first = g_ptr_array_index (result, 0);
  g_assert_cmpstr (embers_series_get_label (first, "service_name"), ==, "api");
  g_assert_cmpuint (first->n_points, ==, 2);
  g_assert_cmpint (first->timestamps[1], ==, 60000);
  g_assert_cmpfloat (first->values[0], ==, 1.5);
  g_clear_pointer (&result, g_ptr_array_unref);

  /* Sum, no limit, step 0: the shared step rule, and no optional fields */
  embers_source_select_series (EMBERS_SOURCE (source), query, NULL, 0,
                               EMBERS_AGGREGATION_SUM, 0, NULL, on_done, &wait);
  wait_result (&wait);
  result = embers_source_select_series_finish (EMBERS_SOURCE (source), wait.result, &error);
  wait_clear (&wait);
  g_assert_no_error (error);
  sent = (gpointer) mock_request (mock, &querier__v1__select_series_request__descriptor);
  g_assert_cmpfloat (sent->step, ==, 60.0);   /* max(15, 3600/100) = 36, rounded up to 1 min */
  g_assert_false (sent->has_aggregation);
  g_assert_false (sent->has_limit);
  g_assert_cmpuint (sent->n_group_by, ==, 0);
  protobuf_c_message_free_unpacked (&sent->base, NULL);

  /* Points out of time order are a lie */
  p1.timestamp = 90000;
  mock_route_proto (mock, QUERIER "/SelectSeries", &resp.base);
  embers_source_select_series (EMBERS_SOURCE (source), query, NULL, 15,
                               EMBERS_AGGREGATION_SUM, 0, NULL, on_done, &wait);
  wait_result (&wait);
  g_clear_pointer (&result, g_ptr_array_unref);
  result = embers_source_select_series_finish (EMBERS_SOURCE (source), wait.result, &error);
  wait_clear (&wait);
  g_assert_null (result);
  g_assert_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_PROTOCOL);
}

static void
test_mock_labels (void)
{
  g_autoptr(Mock) mock = mock_new ();
  g_autoptr(EmbersConnectClient) client = client_for (mock->url);
  g_autoptr(EmbersPyroscopeSource) source = embers_pyroscope_source_new (client);
  Types__V1__ProfileTypesResponse types = TYPES__V1__PROFILE_TYPES_RESPONSE__INIT;
  Types__V1__ProfileType t1 = TYPES__V1__PROFILE_TYPE__INIT, t2 = TYPES__V1__PROFILE_TYPE__INIT, t3 = TYPES__V1__PROFILE_TYPE__INIT;
  Types__V1__ProfileType *tv[] = { &t1, &t2, &t3 };
  Types__V1__LabelValuesResponse values = TYPES__V1__LABEL_VALUES_RESPONSE__INIT;
  char *value_names[] = { (char *) "api", (char *) "db", (char *) "ünïcode" };
  Querier__V1__SeriesResponse series = QUERIER__V1__SERIES_RESPONSE__INIT;
  Types__V1__Labels set = TYPES__V1__LABELS__INIT;
  Types__V1__LabelPair p1 = TYPES__V1__LABEL_PAIR__INIT, p2 = TYPES__V1__LABEL_PAIR__INIT;
  Types__V1__LabelPair *pairs[] = { &p1, &p2 };
  Types__V1__Labels *sets[] = { &set };
  const char *matchers[] = { "{env=\"prod\"}", NULL };
  const char *label_names[] = { "service_name", "__profile_type__", NULL };
  Types__V1__LabelValuesRequest *values_sent;
  Querier__V1__SeriesRequest *series_sent;
  Types__V1__ProfileTypesRequest *types_sent;
  g_autoptr(GPtrArray) types_got = NULL;
  g_autoptr(GPtrArray) sets_got = NULL;
  g_auto(GStrv) values_got = NULL;
  g_autoptr(GError) error = NULL;
  EmbersProfileTypeInfo *info;
  EmbersSeries *labels;
  Wait wait = { NULL };

  /* One with an ID, one with parts only, one that is neither */
  t1.id = (char *) CPU;
  t2.name = (char *) "memory";
  t2.sample_type = (char *) "alloc_in_new_tlab_bytes";
  t2.sample_unit = (char *) "bytes";
  t3.id = (char *) "broken";
  types.n_profile_types = 3;
  types.profile_types = tv;
  mock_route_proto (mock, QUERIER "/ProfileTypes", &types.base);

  embers_source_list_profile_types (EMBERS_SOURCE (source), 1000, 2000, NULL, on_done, &wait);
  wait_result (&wait);
  types_got = embers_source_list_profile_types_finish (EMBERS_SOURCE (source), wait.result, &error);
  wait_clear (&wait);
  g_assert_no_error (error);
  types_sent = (gpointer) mock_request (mock, &types__v1__profile_types_request__descriptor);
  g_assert_cmpint (types_sent->start, ==, 1000);
  g_assert_cmpint (types_sent->end, ==, 2000);
  protobuf_c_message_free_unpacked (&types_sent->base, NULL);
  g_assert_cmpuint (types_got->len, ==, 2);
  info = g_ptr_array_index (types_got, 0);
  g_assert_cmpstr (info->id, ==, CPU);
  g_assert_cmpstr (info->sample_type, ==, "cpu");
  g_assert_cmpstr (info->period_unit, ==, "nanoseconds");
  info = g_ptr_array_index (types_got, 1);
  g_assert_cmpstr (info->id, ==, "memory:alloc_in_new_tlab_bytes:bytes::");
  g_assert_cmpstr (info->name, ==, "memory");
  g_assert_cmpstr (info->period_type, ==, "");

  values.n_names = 3;
  values.names = value_names;
  mock_route_proto (mock, QUERIER "/LabelValues", &values.base);
  embers_source_list_label_values (EMBERS_SOURCE (source), "service_name", matchers, 1000, 2000,
                                   NULL, on_done, &wait);
  wait_result (&wait);
  values_got = embers_source_list_label_values_finish (EMBERS_SOURCE (source), wait.result, &error);
  wait_clear (&wait);
  g_assert_no_error (error);
  g_assert_cmpstr (mock_header (mock, "accept"), ==, "*/*;allow-utf8-labelnames=true");
  values_sent = (gpointer) mock_request (mock, &types__v1__label_values_request__descriptor);
  g_assert_cmpstr (values_sent->name, ==, "service_name");
  g_assert_cmpuint (values_sent->n_matchers, ==, 1);
  g_assert_cmpstr (values_sent->matchers[0], ==, "{env=\"prod\"}");
  protobuf_c_message_free_unpacked (&values_sent->base, NULL);
  g_assert_cmpuint (g_strv_length (values_got), ==, 3);
  g_assert_cmpstr (values_got[2], ==, "ünïcode");

  /* The service list: Series on service_name and __profile_type__ */
  p1.name = (char *) "service_name";
  p1.value = (char *) "api";
  p2.name = (char *) "__profile_type__";
  p2.value = (char *) CPU;
  set.n_labels = 2;
  set.labels = pairs;
  series.n_labels_set = 1;
  series.labels_set = sets;
  mock_route_proto (mock, QUERIER "/Series", &series.base);
  embers_source_list_series (EMBERS_SOURCE (source), NULL, label_names, 1000, 2000, NULL, on_done, &wait);
  wait_result (&wait);
  sets_got = embers_source_list_series_finish (EMBERS_SOURCE (source), wait.result, &error);
  wait_clear (&wait);
  g_assert_no_error (error);
  series_sent = (gpointer) mock_request (mock, &querier__v1__series_request__descriptor);
  g_assert_cmpuint (series_sent->n_matchers, ==, 0);
  g_assert_cmpuint (series_sent->n_label_names, ==, 2);
  g_assert_cmpstr (series_sent->label_names[1], ==, "__profile_type__");
  protobuf_c_message_free_unpacked (&series_sent->base, NULL);
  g_assert_cmpuint (sets_got->len, ==, 1);
  labels = g_ptr_array_index (sets_got, 0);
  g_assert_cmpuint (labels->n_points, ==, 0);
  g_assert_cmpstr (embers_series_get_label (labels, "service_name"), ==, "api");
  g_assert_cmpstr (embers_series_get_label (labels, "__profile_type__"), ==, CPU);

  {
    g_autofree char *name = embers_source_dup_display_name (EMBERS_SOURCE (source));
    g_assert_cmpstr (name, ==, mock->url + strlen ("http://"));
    embers_connect_client_set_tenant (client, "acme");
    g_free (name);
    name = embers_source_dup_display_name (EMBERS_SOURCE (source));
    g_assert_true (g_str_has_suffix (name, " (acme)"));
  }
}

static void
test_mock_pprof (void)
{
  g_autoptr(Mock) mock = mock_new ();
  g_autoptr(EmbersConnectClient) client = client_for (mock->url);
  g_autoptr(EmbersPyroscopeSource) source = embers_pyroscope_source_new (client);
  g_autoptr(EmbersQuery) query = embers_query_new (CPU, "{service_name=\"api\"}", 1000, 2000);
  Google__V1__Profile profile = GOOGLE__V1__PROFILE__INIT;
  Google__V1__ValueType vt = GOOGLE__V1__VALUE_TYPE__INIT;
  Google__V1__ValueType *vts[] = { &vt };
  char *strings[] = { (char *) "", (char *) "cpu", (char *) "nanoseconds" };
  Querier__V1__SelectMergeProfileRequest *sent;
  Google__V1__Profile *back;
  g_autoptr(GBytes) pprof = NULL;
  g_autoptr(GBytes) gz = NULL;
  g_autoptr(GBytes) got = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree guint8 *buf = NULL;
  Wait wait = { NULL };
  gsize len;

  vt.type = 1;
  vt.unit = 2;
  profile.n_sample_type = 1;
  profile.sample_type = vts;
  profile.n_string_table = 3;
  profile.string_table = strings;
  profile.duration_nanos = 10 * G_GINT64_CONSTANT (1000000000);
  len = google__v1__profile__get_packed_size (&profile);
  buf = g_malloc (len);
  google__v1__profile__pack (&profile, buf);
  pprof = g_bytes_new (buf, len);

  /* The server's pprof may itself be gzipped: we hand out plain bytes */
  gz = embers_gzip (buf, len, NULL);
  mock_route (mock, QUERIER "/SelectMergeProfile", 200, "application/proto",
              g_bytes_get_data (gz, NULL), g_bytes_get_size (gz));
  embers_pyroscope_source_fetch_pprof_async (source, query, NULL, on_done, &wait);
  wait_result (&wait);
  got = embers_pyroscope_source_fetch_pprof_finish (source, wait.result, &error);
  wait_clear (&wait);
  g_assert_no_error (error);
  g_assert_true (g_bytes_equal (got, pprof));

  sent = (gpointer) mock_request (mock, &querier__v1__select_merge_profile_request__descriptor);
  g_assert_cmpstr (sent->profile_typeid, ==, CPU);
  g_assert_cmpstr (sent->label_selector, ==, "{service_name=\"api\"}");
  g_assert_false (sent->has_max_nodes);   /* no truncation of exports unless asked */
  protobuf_c_message_free_unpacked (&sent->base, NULL);
  g_clear_pointer (&got, g_bytes_unref);

  /* In JSON, the same profile as protojson becomes the same pprof bytes */
  embers_connect_client_set_encoding (client, EMBERS_CONNECT_ENCODING_JSON);
  mock_route (mock, QUERIER "/SelectMergeProfile", 200, "application/json",
              "{\"sampleType\":[{\"type\":\"1\",\"unit\":\"2\"}],"
              "\"stringTable\":[\"\",\"cpu\",\"nanoseconds\"],\"durationNanos\":\"10000000000\"}", -1);
  embers_pyroscope_source_fetch_pprof_async (source, query, NULL, on_done, &wait);
  wait_result (&wait);
  got = embers_pyroscope_source_fetch_pprof_finish (source, wait.result, &error);
  wait_clear (&wait);
  g_assert_no_error (error);
  back = google__v1__profile__unpack (NULL, g_bytes_get_size (got), g_bytes_get_data (got, NULL));
  g_assert_nonnull (back);
  g_assert_cmpuint (back->n_string_table, ==, 3);
  g_assert_cmpstr (back->string_table[2], ==, "nanoseconds");
  g_assert_cmpuint (back->n_sample_type, ==, 1);
  g_assert_cmpint (back->sample_type[0]->unit, ==, 2);
  g_assert_cmpint (back->duration_nanos, ==, 10 * G_GINT64_CONSTANT (1000000000));
  google__v1__profile__free_unpacked (back, NULL);
}

static void
count_notify (GObject    *object,
              GParamSpec *pspec,
              gpointer    user_data)
{
  (*(guint *) user_data)++;
}

static void
test_mock_capability (void)
{
  g_autoptr(Mock) mock = mock_new ();
  g_autoptr(EmbersConnectClient) client = client_for (mock->url);
  g_autoptr(EmbersPyroscopeSource) source = embers_pyroscope_source_new (client);
  Types__V1__LabelNamesResponse names = TYPES__V1__LABEL_NAMES_RESPONSE__INIT;
  g_autoptr(EmbersQuery) left = embers_query_new (CPU, NULL, 1000, 2000);
  g_autoptr(EmbersQuery) right = embers_query_new (CPU, NULL, 2000, 3000);
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersProfile) diff = NULL;
  EmbersSourceCapabilities caps;
  guint notified = 0;
  guint before;
  Wait wait = { NULL };

  g_signal_connect (source, "notify::capabilities", G_CALLBACK (count_notify), &notified);

  caps = embers_source_get_capabilities (EMBERS_SOURCE (source));
  g_assert_true (caps & EMBERS_SOURCE_CAN_DIFF);
  g_assert_true (caps & EMBERS_SOURCE_CAN_MERGE);
  g_assert_false (caps & EMBERS_SOURCE_CAN_RECORDING_RULES);  /* unknown until probed */

  /* The probe: LabelNames works, recording rules are not served (404) */
  mock_route_proto (mock, QUERIER "/LabelNames", &names.base);
  embers_pyroscope_source_probe_async (source, NULL, on_done, &wait);
  wait_result (&wait);
  g_assert_true (embers_pyroscope_source_probe_finish (source, wait.result, &error));
  wait_clear (&wait);
  g_assert_no_error (error);
  g_assert_cmpstr (mock->last_path, ==, "/settings.v1.RecordingRulesService/ListRecordingRules");
  caps = embers_source_get_capabilities (EMBERS_SOURCE (source));
  g_assert_false (caps & EMBERS_SOURCE_CAN_RECORDING_RULES);
  g_assert_true (g_str_has_prefix (embers_pyroscope_source_get_unavailable_reason (source, EMBERS_SOURCE_CAN_RECORDING_RULES),
                                   "not found: the server does not serve recording rules (start Pyroscope with "
                                   "-tenant-settings.recording-rules.enabled=true)"));

  /* Now the server serves them */
  {
    Settings__V1__ListRecordingRulesResponse rules = SETTINGS__V1__LIST_RECORDING_RULES_RESPONSE__INIT;
    mock_route_proto (mock, "settings.v1.RecordingRulesService/ListRecordingRules", &rules.base);
  }
  embers_pyroscope_source_probe_async (source, NULL, on_done, &wait);
  wait_result (&wait);
  g_assert_true (embers_pyroscope_source_probe_finish (source, wait.result, &error));
  wait_clear (&wait);
  g_assert_true (embers_source_get_capabilities (EMBERS_SOURCE (source)) & EMBERS_SOURCE_CAN_RECORDING_RULES);
  g_assert_null (embers_pyroscope_source_get_unavailable_reason (source, EMBERS_SOURCE_CAN_RECORDING_RULES));

  /* Diff is not served (an old server): unavailable, with the reason kept */
  embers_source_diff (EMBERS_SOURCE (source), left, right, NULL, on_done, &wait);
  wait_result (&wait);
  diff = embers_source_diff_finish (EMBERS_SOURCE (source), wait.result, &error);
  wait_clear (&wait);
  g_assert_null (diff);
  g_assert_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_UNIMPLEMENTED);
  g_assert_cmpstr (mock->last_path, ==, "/querier.v1.QuerierService/Diff");
  caps = embers_source_get_capabilities (EMBERS_SOURCE (source));
  g_assert_false (caps & EMBERS_SOURCE_CAN_DIFF);
  g_assert_true (caps & EMBERS_SOURCE_CAN_MERGE);
  g_assert_cmpstr (embers_pyroscope_source_get_unavailable_reason (source, EMBERS_SOURCE_CAN_DIFF), ==, error->message);
  g_clear_error (&error);
  g_assert_cmpuint (notified, >=, 3);

  /* and later calls fail at once, without a request */
  before = mock->n_requests;
  embers_source_diff (EMBERS_SOURCE (source), left, right, NULL, on_done, &wait);
  wait_result (&wait);
  diff = embers_source_diff_finish (EMBERS_SOURCE (source), wait.result, &error);
  wait_clear (&wait);
  g_assert_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_UNIMPLEMENTED);
  g_assert_cmpuint (mock->n_requests, ==, before);

  /* A failing probe fails (unauthenticated here) */
  mock_route (mock, QUERIER "/LabelNames", 401, "application/json", "{\"code\":\"unauthenticated\",\"message\":\"no org id\"}", -1);
  g_clear_error (&error);
  embers_pyroscope_source_probe_async (source, NULL, on_done, &wait);
  wait_result (&wait);
  g_assert_false (embers_pyroscope_source_probe_finish (source, wait.result, &error));
  wait_clear (&wait);
  g_assert_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_UNAUTHENTICATED);
  g_assert_nonnull (strstr (error->message, "tenant"));
}

static void
test_mock_timeout (void)
{
  g_autoptr(Mock) mock = mock_new ();
  g_autoptr(EmbersConnectClient) client = client_for (mock->url);
  g_autoptr(EmbersPyroscopeSource) source = embers_pyroscope_source_new (client);
  Types__V1__LabelNamesResponse names = TYPES__V1__LABEL_NAMES_RESPONSE__INIT;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) result = NULL;
  Wait wait = { NULL };
  gint64 started;

  mock_route_proto (mock, QUERIER "/LabelNames", &names.base);
  /* An answer that comes long after the timeout (never, in this test) */
  mock->delay_ms = 600000;
  embers_connect_client_set_timeout_ms (client, 300);

  started = g_get_monotonic_time ();
  embers_source_list_label_names (EMBERS_SOURCE (source), NULL, 0, 1000, NULL, on_done, &wait);
  wait_result (&wait);
  result = embers_source_list_label_names_finish (EMBERS_SOURCE (source), wait.result, &error);
  wait_clear (&wait);

  g_assert_null (result);
  g_assert_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_DEADLINE_EXCEEDED);
  g_assert_nonnull (strstr (error->message, "did not answer within 0.3 s"));
  /* Not before the timeout (a busy machine only makes it later; that it
   * was not the answer is the error above) */
  g_assert_cmpint (g_get_monotonic_time () - started, >=, 250 * 1000);
  g_assert_nonnull (mock->delayed);
  /* A timeout is not "unavailable": the capability stays */
  g_assert_true (embers_source_get_capabilities (EMBERS_SOURCE (source)) & EMBERS_SOURCE_CAN_LABELS);
}

static void
weak_notify (gpointer  data,
             GObject  *where_the_object_was)
{
  *(gboolean *) data = TRUE;
}

static void
test_mock_cancel (void)
{
  g_autoptr(Mock) mock = mock_new ();
  EmbersConnectClient *client = client_for (mock->url);
  EmbersPyroscopeSource *source = embers_pyroscope_source_new (client);
  g_autoptr(EmbersQuery) query = embers_query_new (CPU, NULL, 1000, 2000);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GCancellable) pre_cancelled = g_cancellable_new ();
  g_autoptr(EmbersProfile) profile = NULL;
  g_autoptr(GError) error = NULL;
  const char *names[] = { "total" };
  const gint64 l0[] = { 0, 0, 0, 0 };
  const gint64 *levels[] = { l0 };
  const gsize n_values[] = { 4 };
  gboolean client_gone = FALSE, source_gone = FALSE;
  Wait wait = { NULL };

  route_flamegraph (mock, names, 1, levels, n_values, 1);
  /* The server holds its answer until the test releases it */
  mock->delay_ms = 600000;

  /* Cancel mid-request (the server has it): the callback comes once,
   * promptly (without the server's answer), CANCELLED */
  embers_source_merge_profile (EMBERS_SOURCE (source), query, cancellable, on_done, &wait);
  embers_test_wait_while (mock->n_requests < 1);
  g_assert_cmpuint (mock->n_requests, ==, 1);
  g_assert_null (wait.result);
  g_cancellable_cancel (cancellable);
  wait_result (&wait);
  g_assert_nonnull (mock->delayed);
  profile = embers_source_merge_profile_finish (EMBERS_SOURCE (source), wait.result, &error);
  g_assert_null (profile);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);

  /* Nothing more after the server finally answers: once it is done with
   * the request, and what that made ready has run */
  mock_release (mock);
  embers_test_wait_while (mock->n_finished < mock->n_requests);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_cmpuint (wait.n_calls, ==, 1);
  wait_clear (&wait);

  /* Already cancelled: no request at all */
  g_cancellable_cancel (pre_cancelled);
  embers_source_merge_profile (EMBERS_SOURCE (source), query, pre_cancelled, on_done, &wait);
  wait_result (&wait);
  profile = embers_source_merge_profile_finish (EMBERS_SOURCE (source), wait.result, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (mock->n_requests, ==, 1);
  g_clear_error (&error);
  wait_clear (&wait);

  /* Cancelled while the answer is being decoded: no stale data */
  mock->delay_ms = 0;
  g_cancellable_reset (cancellable);
  embers_source_merge_profile (EMBERS_SOURCE (source), query, cancellable, on_done, &wait);
  embers_test_wait_while (mock->n_requests < 2);
  g_cancellable_cancel (cancellable);
  wait_result (&wait);
  profile = embers_source_merge_profile_finish (EMBERS_SOURCE (source), wait.result, &error);
  g_assert_null (profile);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_object (&wait.result);  /* (it holds the source) */

  /* Nothing leaks: client and source go away, once the work they started
   * is done (it holds them) */
  g_object_weak_ref (G_OBJECT (client), weak_notify, &client_gone);
  g_object_weak_ref (G_OBJECT (source), weak_notify, &source_gone);
  g_object_unref (source);
  g_object_unref (client);
  embers_test_wait_while (!source_gone || !client_gone);
  /* and that work called back once, no stale data after the cancel */
  g_assert_cmpuint (wait.n_calls, ==, 1);
  wait_clear (&wait);
}

/* ---- a raw peer for faults ------------------------------------------------- */

typedef enum
{
  RAW_DROP,        /* reads the request, closes without a word */
  RAW_TRUNCATED,   /* promises 1000 bytes, sends 10, closes */
  RAW_GARBAGE,     /* answers something that is not HTTP */
} RawMode;

typedef struct
{
  GSocketService *service;
  char           *url;
  RawMode         mode;
} Raw;

static gboolean
raw_run (GThreadedSocketService *service,
         GSocketConnection      *connection,
         GObject                *source_object,
         gpointer                user_data)
{
  Raw *raw = user_data;
  GInputStream *in = g_io_stream_get_input_stream (G_IO_STREAM (connection));
  GOutputStream *out = g_io_stream_get_output_stream (G_IO_STREAM (connection));
  g_autoptr(GString) request = g_string_new (NULL);
  char buf[4096];

  /* Read the headers (the bodies here are small enough to come along) */
  while (strstr (request->str, "\r\n\r\n") == NULL)
    {
      gssize n = g_input_stream_read (in, buf, sizeof buf, NULL, NULL);
      if (n <= 0)
        return TRUE;
      g_string_append_len (request, buf, n);
    }

  /* and the body, so that closing sends FIN, not a reset */
  {
    const char *cl = strstr (request->str, "Content-Length: ");
    const char *end = strstr (request->str, "\r\n\r\n") + 4;
    gsize want = cl ? (gsize) g_ascii_strtoull (cl + 16, NULL, 10) : 0;
    gsize have = request->len - (end - request->str);

    while (have < want)
      {
        gssize n = g_input_stream_read (in, buf, MIN (sizeof buf, want - have), NULL, NULL);
        if (n <= 0)
          return TRUE;
        have += n;
      }
  }

  switch (raw->mode)
    {
    case RAW_DROP:
      break;
    case RAW_TRUNCATED:
      {
        const char *head = "HTTP/1.1 200 OK\r\nContent-Type: application/proto\r\nContent-Length: 1000\r\n\r\n";
        g_output_stream_write_all (out, head, strlen (head), NULL, NULL, NULL);
        static const char partial[] = "\x0a\x05total\x0a\x04ma";
        g_output_stream_write_all (out, partial, sizeof partial - 1, NULL, NULL, NULL);
        g_output_stream_flush (out, NULL, NULL);
      }
      break;
    case RAW_GARBAGE:
      g_output_stream_write_all (out, "SSH-2.0-OpenSSH_9.2\r\n", 21, NULL, NULL, NULL);
      break;
    }

  g_io_stream_close (G_IO_STREAM (connection), NULL, NULL);
  return TRUE;
}

static Raw *
raw_new (RawMode mode)
{
  Raw *raw = g_new0 (Raw, 1);
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) address = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GSocketAddress) effective = NULL;
  g_autoptr(GError) error = NULL;

  raw->mode = mode;
  raw->service = g_threaded_socket_service_new (2);
  g_socket_listener_add_address (G_SOCKET_LISTENER (raw->service), address, G_SOCKET_TYPE_STREAM,
                                 G_SOCKET_PROTOCOL_TCP, NULL, &effective, &error);
  g_assert_no_error (error);
  g_signal_connect (raw->service, "run", G_CALLBACK (raw_run), raw);
  g_socket_service_start (raw->service);
  raw->url = g_strdup_printf ("http://127.0.0.1:%u",
                              g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (effective)));
  return raw;
}

static void
raw_free (Raw *raw)
{
  g_socket_service_stop (raw->service);
  g_socket_listener_close (G_SOCKET_LISTENER (raw->service));
  g_object_unref (raw->service);
  g_free (raw->url);
  g_free (raw);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Raw, raw_free)

static GError *
raw_merge_error (RawMode mode)
{
  g_autoptr(Raw) raw = raw_new (mode);
  g_autoptr(EmbersConnectClient) client = client_for (raw->url);
  g_autoptr(EmbersPyroscopeSource) source = embers_pyroscope_source_new (client);
  g_autoptr(EmbersQuery) query = embers_query_new (CPU, NULL, 1000, 2000);
  g_autoptr(EmbersProfile) profile = NULL;
  GError *error = NULL;

  profile = merge_sync (source, query, &error);
  g_assert_null (profile);
  g_assert_nonnull (error);
  g_test_message ("%s", error->message);
  /* A transport fault says nothing about capabilities */
  g_assert_true (embers_source_get_capabilities (EMBERS_SOURCE (source)) & EMBERS_SOURCE_CAN_MERGE);
  return error;
}

static void
test_raw_dropped (void)
{
  g_autoptr(GError) error = raw_merge_error (RAW_DROP);

  g_assert_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_UNAVAILABLE);
  g_assert_nonnull (strstr (error->message, "127.0.0.1"));
}

static void
test_raw_truncated (void)
{
  g_autoptr(GError) error = raw_merge_error (RAW_TRUNCATED);

  g_assert_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_UNAVAILABLE);
  g_assert_nonnull (strstr (error->message, "closed before the whole answer arrived"));
}

static void
test_raw_garbage (void)
{
  g_autoptr(GError) error = raw_merge_error (RAW_GARBAGE);

  g_assert_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_PROTOCOL);
  g_assert_nonnull (strstr (error->message, "not valid HTTP"));
}

/* ---- credentials -------------------------------------------------------------- */

static void
test_credentials_env (void)
{
  g_autoptr(EmbersCredentials) none = NULL;
  g_autoptr(EmbersCredentials) basic = NULL;
  g_autoptr(EmbersCredentials) bearer = NULL;
  g_autoptr(EmbersCredentials) tenant_only = NULL;
  g_autoptr(EmbersCredentials) copy = NULL;
  g_autoptr(Mock) mock = mock_new ();
  g_autoptr(EmbersConnectClient) client = client_for (mock->url);
  Types__V1__LabelNamesRequest req = TYPES__V1__LABEL_NAMES_REQUEST__INIT;
  Types__V1__LabelNamesResponse resp = TYPES__V1__LABEL_NAMES_RESPONSE__INIT;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;

  mock_route_proto (mock, QUERIER "/LabelNames", &resp.base);

  g_unsetenv ("EMBERS_USER");
  g_unsetenv ("EMBERS_PASSWORD");
  g_unsetenv ("EMBERS_TOKEN");
  g_unsetenv ("EMBERS_TENANT");
  none = embers_credentials_from_environment ();
  g_assert_null (none);

  g_setenv ("EMBERS_TOKEN", SECRET_TOKEN, TRUE);
  g_setenv ("EMBERS_TENANT", "acme", TRUE);
  bearer = embers_credentials_from_environment ();
  g_assert_cmpint (bearer->kind, ==, EMBERS_AUTH_BEARER);
  g_assert_cmpstr (bearer->secret, ==, SECRET_TOKEN);
  g_assert_cmpstr (bearer->tenant, ==, "acme");
  g_assert_null (bearer->user);

  embers_credentials_apply (bearer, client);
  bytes = call_sync (client, "LabelNames", &req.base, &types__v1__label_names_response__descriptor,
                     EMBERS_CONNECT_CALL_NONE, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (mock_header (mock, "authorization"), ==, "Bearer " SECRET_TOKEN);
  g_assert_cmpstr (mock_header (mock, "x-scope-orgid"), ==, "acme");
  g_clear_pointer (&bytes, g_bytes_unref);

  /* User and password win over the token */
  g_setenv ("EMBERS_USER", "123456", TRUE);
  g_setenv ("EMBERS_PASSWORD", SECRET_PASSWORD, TRUE);
  basic = embers_credentials_from_environment ();
  g_assert_cmpint (basic->kind, ==, EMBERS_AUTH_BASIC);
  g_assert_cmpstr (basic->user, ==, "123456");
  g_assert_cmpstr (basic->secret, ==, SECRET_PASSWORD);
  copy = embers_credentials_copy (basic);
  g_assert_cmpstr (copy->secret, ==, SECRET_PASSWORD);

  embers_credentials_apply (copy, client);
  bytes = call_sync (client, "LabelNames", &req.base, &types__v1__label_names_response__descriptor,
                     EMBERS_CONNECT_CALL_NONE, &error);
  g_assert_no_error (error);
  g_assert_true (g_str_has_prefix (mock_header (mock, "authorization"), "Basic "));
  g_clear_pointer (&bytes, g_bytes_unref);

  /* A tenant alone */
  g_unsetenv ("EMBERS_USER");
  g_unsetenv ("EMBERS_PASSWORD");
  g_unsetenv ("EMBERS_TOKEN");
  tenant_only = embers_credentials_from_environment ();
  g_assert_cmpint (tenant_only->kind, ==, EMBERS_AUTH_NONE);
  g_assert_null (tenant_only->secret);
  g_assert_cmpstr (tenant_only->tenant, ==, "acme");

  embers_credentials_apply (tenant_only, client);
  bytes = call_sync (client, "LabelNames", &req.base, &types__v1__label_names_response__descriptor,
                     EMBERS_CONNECT_CALL_NONE, &error);
  g_assert_no_error (error);
  g_assert_null (mock_header (mock, "authorization"));
  g_assert_cmpstr (mock_header (mock, "x-scope-orgid"), ==, "acme");
  g_unsetenv ("EMBERS_TENANT");

  /* Keys are the normalised base URL */
  {
    g_autofree char *key = embers_credentials_server_key ("https://u:p@Grafana.example/api/datasources/proxy/uid/X/");
    g_assert_cmpstr (key, ==, "https://grafana.example/api/datasources/proxy/uid/X");
  }

  assert_no_secret_logged ();
}

static void
test_credentials_no_keyring (void)
{
  g_autoptr(EmbersCredentials) stored = embers_credentials_new (EMBERS_AUTH_BASIC, "123456", SECRET_PASSWORD, "acme");
  g_autoptr(EmbersCredentials) found = NULL;
  g_autoptr(GError) error = NULL;
  Wait wait = { NULL };

  /* Without a reachable keyring (this test runs with a session bus
   * address that leads nowhere), a lookup is "nothing stored"... */
  embers_credentials_lookup_async ("http://localhost:4040", NULL, NULL, on_done, &wait);
  wait_result (&wait);
  found = embers_credentials_lookup_finish (wait.result, &error);
  wait_clear (&wait);
  g_assert_no_error (error);
  g_assert_null (found);

  /* ...and storing fails with a message a person can act on */
  embers_credentials_store_async ("http://localhost:4040", stored, NULL, on_done, &wait);
  wait_result (&wait);
  g_assert_false (embers_credentials_store_finish (wait.result, &error));
  wait_clear (&wait);
  g_assert_nonnull (error);
  g_assert_true (g_str_has_prefix (error->message, "Could not save the secret in the keyring: "));
  g_assert_null (strstr (error->message, SECRET_PASSWORD));
  g_clear_error (&error);

  /* A bad server URL is refused before the keyring is asked */
  embers_credentials_lookup_async ("localhost", NULL, NULL, on_done, &wait);
  wait_result (&wait);
  found = embers_credentials_lookup_finish (wait.result, &error);
  wait_clear (&wait);
  g_assert_null (found);
  g_assert_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_INVALID_ARGUMENT);

  /* The reason was logged for debugging, the secret never */
  g_assert_nonnull (strstr (captured_logs->str, "keyring"));
  assert_no_secret_logged ();
}

/* Runs inside a private session bus with a fresh, unlocked gnome-keyring
 * (see test_credentials_keyring). */
static void
test_credentials_keyring_child (void)
{
  g_autoptr(EmbersCredentials) basic = embers_credentials_new (EMBERS_AUTH_BASIC, "123456", SECRET_PASSWORD, "acme");
  g_autoptr(EmbersCredentials) bearer = embers_credentials_new (EMBERS_AUTH_BEARER, NULL, SECRET_TOKEN, NULL);
  g_autoptr(EmbersCredentials) found = NULL;
  g_autoptr(GError) error = NULL;
  Wait wait = { NULL };

  /* Store, then find it under the normalised URL */
  embers_credentials_store_async ("http://LOCALHOST:4040/", basic, NULL, on_done, &wait);
  wait_result (&wait);
  g_assert_true (embers_credentials_store_finish (wait.result, &error));
  g_assert_no_error (error);
  wait_clear (&wait);

  embers_credentials_lookup_async ("http://localhost:4040", NULL, NULL, on_done, &wait);
  wait_result (&wait);
  found = embers_credentials_lookup_finish (wait.result, &error);
  wait_clear (&wait);
  g_assert_no_error (error);
  g_assert_nonnull (found);
  g_assert_cmpint (found->kind, ==, EMBERS_AUTH_BASIC);
  g_assert_cmpstr (found->user, ==, "123456");
  g_assert_cmpstr (found->secret, ==, SECRET_PASSWORD);
  g_assert_cmpstr (found->tenant, ==, "acme");
  g_clear_pointer (&found, embers_credentials_free);

  /* By user: another user finds nothing */
  embers_credentials_lookup_async ("http://localhost:4040", "someone-else", NULL, on_done, &wait);
  wait_result (&wait);
  found = embers_credentials_lookup_finish (wait.result, &error);
  wait_clear (&wait);
  g_assert_no_error (error);
  g_assert_null (found);

  /* Storing again replaces: one entry per server */
  embers_credentials_store_async ("http://localhost:4040", bearer, NULL, on_done, &wait);
  wait_result (&wait);
  g_assert_true (embers_credentials_store_finish (wait.result, &error));
  wait_clear (&wait);
  embers_credentials_lookup_async ("http://localhost:4040", NULL, NULL, on_done, &wait);
  wait_result (&wait);
  found = embers_credentials_lookup_finish (wait.result, &error);
  wait_clear (&wait);
  g_assert_no_error (error);
  g_assert_cmpint (found->kind, ==, EMBERS_AUTH_BEARER);
  g_assert_cmpstr (found->secret, ==, SECRET_TOKEN);
  g_assert_null (found->user != NULL && found->user[0] ? found->user : NULL);
  g_assert_null (found->tenant);
  g_clear_pointer (&found, embers_credentials_free);

  /* Clear */
  embers_credentials_clear_async ("http://localhost:4040", NULL, on_done, &wait);
  wait_result (&wait);
  g_assert_true (embers_credentials_clear_finish (wait.result, &error));
  wait_clear (&wait);
  embers_credentials_lookup_async ("http://localhost:4040", NULL, NULL, on_done, &wait);
  wait_result (&wait);
  found = embers_credentials_lookup_finish (wait.result, &error);
  wait_clear (&wait);
  g_assert_no_error (error);
  g_assert_null (found);

  assert_no_secret_logged ();
}

static void
test_credentials_keyring (void)
{
  g_autofree char *dbus_run_session = g_find_program_in_path ("dbus-run-session");
  g_autofree char *keyring_daemon = g_find_program_in_path ("gnome-keyring-daemon");
  g_autofree char *self = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *home = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) env = NULL;
  int status = -1;

  if (dbus_run_session == NULL || keyring_daemon == NULL || self == NULL)
    {
      /* No keyring can run here: the fallback is what users get */
      g_autoptr(EmbersCredentials) found = NULL;
      Wait wait = { NULL };

      g_test_message ("no dbus-run-session or gnome-keyring-daemon: checking the fallback");
      embers_credentials_lookup_async ("http://localhost:4040", NULL, NULL, on_done, &wait);
      wait_result (&wait);
      found = embers_credentials_lookup_finish (wait.result, &error);
      wait_clear (&wait);
      g_assert_no_error (error);
      g_assert_null (found);
      return;
    }

  home = g_dir_make_tmp ("embers-keyring-XXXXXX", &error);
  g_assert_no_error (error);

  env = g_get_environ ();
  env = g_environ_setenv (env, "HOME", home, TRUE);
  env = g_environ_setenv (env, "XDG_DATA_HOME", home, TRUE);
  env = g_environ_setenv (env, "XDG_RUNTIME_DIR", home, TRUE);
  env = g_environ_setenv (env, "EMBERS_TEST_KEYRING_CHILD", "1", TRUE);
  env = g_environ_unsetenv (env, "DBUS_SESSION_BUS_ADDRESS");
  env = g_environ_unsetenv (env, "DISPLAY");

  {
    const char *argv[] = {
      dbus_run_session, "--", "sh", "-c",
      "echo -n embers-test | gnome-keyring-daemon --unlock --components=secrets --daemonize >/dev/null "
      "&& exec \"$0\" -p /embers/pyroscope/credentials/keyring-child",
      self, NULL
    };

    g_spawn_sync (NULL, (char **) argv, env, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &error);
  }
  g_assert_no_error (error);
  g_test_message ("child stdout:\n%s\nchild stderr:\n%s", out, err);

  {
    const char *rm[] = { "rm", "-rf", home, NULL };
    g_spawn_sync (NULL, (char **) rm, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, NULL, NULL);
  }

  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_assert_nonnull (strstr (out, "ok 1 /embers/pyroscope/credentials/keyring-child"));
  g_assert_null (strstr (out, "not ok"));
}

static void
test_credentials_not_in_settings (void)
{
  /* Everything a credential goes through ran in this process with the
   * recording GSettings backend as the default: nothing was written. */
  GSettingsBackend *backend = g_settings_backend_get_default ();

  g_assert_true (G_TYPE_CHECK_INSTANCE_TYPE (backend, recording_backend_get_type ()));
  g_object_unref (backend);
  g_assert_cmpuint (settings_writes, ==, 0);
  assert_no_secret_logged ();
}

/* ---- against the project's test server ---------------------------------- */

#define SERVER_NOW_MS G_GINT64_CONSTANT (1700000000000)
#define SERVER_NOW    "1700000000000"

static EmbersTestServer *
server_start (const char *first_arg,
              ...)
{
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  EmbersTestServer *server;
  const char *arg;
  va_list ap;

  g_ptr_array_add (args, (gpointer) "--now");
  g_ptr_array_add (args, (gpointer) SERVER_NOW);
  va_start (ap, first_arg);
  for (arg = first_arg; arg != NULL; arg = va_arg (ap, const char *))
    g_ptr_array_add (args, (gpointer) arg);
  va_end (ap);
  g_ptr_array_add (args, NULL);

  server = embers_test_server_start ((const char * const *) args->pdata, &error);
  g_assert_no_error (error);
  g_assert_nonnull (server);
  return server;
}

static EmbersPyroscopeSource *
source_for (EmbersTestServer *server,
            gboolean          json)
{
  g_autoptr(EmbersConnectClient) client = client_for (embers_test_server_get_url (server));

  if (json)
    embers_connect_client_set_encoding (client, EMBERS_CONNECT_ENCODING_JSON);
  return embers_pyroscope_source_new (client);
}

static GStrv
label_values_sync (EmbersPyroscopeSource  *source,
                   const char             *name,
                   GError                **error)
{
  Wait wait = { NULL };
  GStrv values;

  embers_source_list_label_values (EMBERS_SOURCE (source), name, NULL,
                                   SERVER_NOW_MS - 3600 * 1000, SERVER_NOW_MS, NULL, on_done, &wait);
  wait_result (&wait);
  g_assert_cmpuint (wait.n_calls, ==, 1);
  values = embers_source_list_label_values_finish (EMBERS_SOURCE (source), wait.result, error);
  wait_clear (&wait);
  return values;
}

static gboolean
strv_has (const char * const *strv,
          const char         *s)
{
  return strv != NULL && g_strv_contains (strv, s);
}

static void
test_server_round_trips (gconstpointer data)
{
  gboolean json = GPOINTER_TO_INT (data);
  g_autoptr(EmbersTestServer) server = server_start (NULL);
  g_autoptr(EmbersPyroscopeSource) source = source_for (server, json);
  gint64 start = SERVER_NOW_MS - 3600 * 1000, end = SERVER_NOW_MS;
  g_autoptr(EmbersQuery) query = embers_query_new (CPU, "{service_name=\"api\"}", start, end);
  g_autoptr(EmbersQuery) earlier = embers_query_new (CPU, "{service_name=\"api\"}", start - 3600 * 1000, start);
  const char *service_labels[] = { "service_name", "__profile_type__", NULL };
  const char *group_by[] = { "region", NULL };
  g_autoptr(GPtrArray) types = NULL;
  g_autoptr(GPtrArray) services = NULL;
  g_autoptr(GPtrArray) series = NULL;
  g_auto(GStrv) names = NULL;
  g_auto(GStrv) values = NULL;
  g_autoptr(EmbersProfile) full = NULL;
  g_autoptr(EmbersProfile) small = NULL;
  g_autoptr(EmbersProfile) diff = NULL;
  g_autoptr(EmbersProfile) pprof = NULL;
  g_autoptr(GError) error = NULL;
  gboolean found_api_cpu = FALSE;
  guint32 other;
  double series_sum = 0;
  Wait wait = { NULL };

  /* ProfileTypes */
  embers_source_list_profile_types (EMBERS_SOURCE (source), start, end, NULL, on_done, &wait);
  wait_result (&wait);
  types = embers_source_list_profile_types_finish (EMBERS_SOURCE (source), wait.result, &error);
  wait_clear (&wait);
  g_assert_no_error (error);
  g_assert_cmpuint (types->len, >=, 3);
  for (guint i = 0; i < types->len; i++)
    {
      EmbersProfileTypeInfo *info = g_ptr_array_index (types, i);
      g_autoptr(EmbersProfileTypeInfo) parsed = embers_profile_type_info_new (info->id);

      g_assert_nonnull (parsed);
      g_assert_cmpstr (parsed->sample_type, ==, info->sample_type);
      if (g_str_equal (info->id, CPU))
        g_assert_cmpstr (info->sample_unit, ==, "nanoseconds");
    }

  /* LabelNames, LabelValues */
  embers_source_list_label_names (EMBERS_SOURCE (source), NULL, start, end, NULL, on_done, &wait);
  wait_result (&wait);
  names = embers_source_list_label_names_finish (EMBERS_SOURCE (source), wait.result, &error);
  wait_clear (&wait);
  g_assert_no_error (error);
  g_assert_true (strv_has ((const char * const *) names, "service_name"));
  g_assert_true (strv_has ((const char * const *) names, "region"));
  g_assert_true (strv_has ((const char * const *) names, "__profile_type__"));

  values = label_values_sync (source, "service_name", &error);
  g_assert_no_error (error);
  g_assert_true (strv_has ((const char * const *) values, "api"));
  g_assert_true (strv_has ((const char * const *) values, "checkout"));

  /* Series: the service list */
  embers_source_list_series (EMBERS_SOURCE (source), NULL, service_labels, start, end, NULL, on_done, &wait);
  wait_result (&wait);
  services = embers_source_list_series_finish (EMBERS_SOURCE (source), wait.result, &error);
  wait_clear (&wait);
  g_assert_no_error (error);
  for (guint i = 0; i < services->len; i++)
    {
      EmbersSeries *set = g_ptr_array_index (services, i);
      g_assert_cmpuint (set->n_points, ==, 0);
      if (g_strcmp0 (embers_series_get_label (set, "service_name"), "api") == 0 &&
          g_strcmp0 (embers_series_get_label (set, "__profile_type__"), CPU) == 0)
        found_api_cpu = TRUE;
    }
  g_assert_true (found_api_cpu);

  /* SelectMergeStacktraces, whole and cut to 16 nodes: "other" keeps the rest */
  query->max_nodes = EMBERS_PYROSCOPE_MAX_MAX_NODES;
  full = merge_sync (source, query, &error);
  g_assert_no_error (error);
  g_assert_cmpint (embers_profile_get_total (full, 0), >, 0);
  g_assert_cmpstr (embers_profile_get_sample_type (full, 0), ==, "cpu");

  query->max_nodes = 16;
  small = merge_sync (source, query, &error);
  g_assert_no_error (error);
  g_assert_cmpint (embers_profile_get_total (small, 0), ==, embers_profile_get_total (full, 0));
  g_assert_cmpuint (embers_profile_get_n_nodes (small), <, embers_profile_get_n_nodes (full));
  other = EMBERS_NODE_NONE;
  for (guint32 i = 0; i < embers_profile_get_n_nodes (small); i++)
    if (g_strcmp0 (embers_profile_node_name_str (small, i), "other") == 0)
      {
        other = i;
        break;
      }
  g_assert_cmpuint (other, !=, EMBERS_NODE_NONE);
  g_assert_cmpint (embers_profile_node_total (small, 0, other), >, 0);

  /* SelectSeries for a chart of (start, end]: points T = end - k·60 s,
   * each holding (T - 60 s, T], add up to the merged total of [start, end] */
  query->max_nodes = 0;
  embers_source_select_chart_series (EMBERS_SOURCE (source), query, group_by, EMBERS_AGGREGATION_SUM, 0,
                                     NULL, on_done, &wait);
  wait_result (&wait);
  series = embers_source_select_series_finish (EMBERS_SOURCE (source), wait.result, &error);
  wait_clear (&wait);
  g_assert_no_error (error);
  g_assert_cmpuint (series->len, >=, 2);
  for (guint i = 0; i < series->len; i++)
    {
      EmbersSeries *one = g_ptr_array_index (series, i);
      g_assert_nonnull (embers_series_get_label (one, "region"));
      g_assert_cmpuint (one->n_points, >, 0);
      for (guint j = 0; j < one->n_points; j++)
        {
          g_assert_cmpint (one->timestamps[j], >, start);
          g_assert_cmpint (one->timestamps[j], <=, end);
          g_assert_cmpint ((end - one->timestamps[j]) % 60000, ==, 0);
          series_sum += one->values[j];
        }
    }
  g_assert_cmpfloat_with_epsilon (series_sum, (double) embers_profile_get_total (full, 0),
                                  1e-6 * (double) embers_profile_get_total (full, 0));

  /* Diff: two columns, each side's total */
  embers_source_diff (EMBERS_SOURCE (source), earlier, query, NULL, on_done, &wait);
  wait_result (&wait);
  diff = embers_source_diff_finish (EMBERS_SOURCE (source), wait.result, &error);
  wait_clear (&wait);
  g_assert_no_error (error);
  g_assert_true (embers_profile_is_diff (diff));
  g_assert_cmpint (embers_profile_get_total (diff, EMBERS_DIFF_COMPARISON), ==, embers_profile_get_total (full, 0));
  g_assert_cmpint (embers_profile_get_total (diff, EMBERS_DIFF_BASELINE), >, 0);

  /* SelectMergeProfile: the whole profile as pprof, same total */
  embers_pyroscope_source_merge_pprof_async (source, query, NULL, on_done, &wait);
  wait_result (&wait);
  pprof = embers_pyroscope_source_merge_pprof_finish (source, wait.result, &error);
  wait_clear (&wait);
  g_assert_no_error (error);
  g_assert_cmpint (embers_profile_get_total (pprof, 0), ==, embers_profile_get_total (full, 0));

  /* The server's own validation comes back in words */
  {
    g_autoptr(EmbersQuery) no_range = embers_query_new (CPU, "{}", 0, 0);
    g_autoptr(EmbersQuery) bad_selector = embers_query_new (CPU, "{service_name=~\"(\"}", start, end);
    g_autoptr(EmbersProfile) none = NULL;

    none = merge_sync (source, no_range, &error);
    g_assert_null (none);
    g_assert_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_INVALID_ARGUMENT);
    g_assert_nonnull (strstr (error->message, "missing time range"));
    g_clear_error (&error);

    none = merge_sync (source, bad_selector, &error);
    g_assert_null (none);
    g_assert_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_INVALID_ARGUMENT);
    g_clear_error (&error);
  }

  /* Nothing here was unavailable */
  g_assert_cmpuint (embers_source_get_capabilities (EMBERS_SOURCE (source)) & 0x3f, ==, 0x3f);
}

static void
test_server_capabilities (void)
{
  g_autoptr(EmbersTestServer) plain = server_start (NULL);
  g_autoptr(EmbersTestServer) with_rules = server_start ("--recording-rules", NULL);
  g_autoptr(EmbersPyroscopeSource) source = source_for (plain, FALSE);
  g_autoptr(EmbersPyroscopeSource) rules = source_for (with_rules, TRUE);
  g_autoptr(GError) error = NULL;
  const char *reason;
  Wait wait = { NULL };

  /* A real server without the flag: ListRecordingRules is a plain 404 */
  embers_pyroscope_source_probe_async (source, NULL, on_done, &wait);
  wait_result (&wait);
  g_assert_true (embers_pyroscope_source_probe_finish (source, wait.result, &error));
  wait_clear (&wait);
  g_assert_no_error (error);
  g_assert_false (embers_source_get_capabilities (EMBERS_SOURCE (source)) & EMBERS_SOURCE_CAN_RECORDING_RULES);
  reason = embers_pyroscope_source_get_unavailable_reason (source, EMBERS_SOURCE_CAN_RECORDING_RULES);
  g_assert_nonnull (reason);
  g_assert_true (g_str_has_prefix (reason, "not found: the server does not serve recording rules (start Pyroscope "
                                           "with -tenant-settings.recording-rules.enabled=true)"));
  g_assert_true (embers_source_get_capabilities (EMBERS_SOURCE (source)) & EMBERS_SOURCE_CAN_MERGE);

  /* With it (and in JSON) */
  embers_pyroscope_source_probe_async (rules, NULL, on_done, &wait);
  wait_result (&wait);
  g_assert_true (embers_pyroscope_source_probe_finish (rules, wait.result, &error));
  wait_clear (&wait);
  g_assert_no_error (error);
  g_assert_true (embers_source_get_capabilities (EMBERS_SOURCE (rules)) & EMBERS_SOURCE_CAN_RECORDING_RULES);
  g_assert_null (embers_pyroscope_source_get_unavailable_reason (rules, EMBERS_SOURCE_CAN_RECORDING_RULES));
}

static void
test_server_auth (void)
{
  g_autoptr(EmbersTestServer) basic = server_start ("--basic-auth", "123456:" SECRET_PASSWORD, NULL);
  g_autoptr(EmbersTestServer) bearer = server_start ("--bearer", SECRET_TOKEN, NULL);
  g_autoptr(EmbersPyroscopeSource) source = source_for (basic, FALSE);
  g_autoptr(EmbersPyroscopeSource) token_source = source_for (bearer, TRUE);
  EmbersConnectClient *client = embers_pyroscope_source_get_client (source);
  EmbersConnectClient *token_client = embers_pyroscope_source_get_client (token_source);
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) values = NULL;

  /* None */
  values = label_values_sync (source, "service_name", &error);
  g_assert_null (values);
  g_assert_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_UNAUTHENTICATED);
  g_assert_true (g_str_has_prefix (error->message, "unauthenticated: the server needs credentials"));
  g_clear_error (&error);

  /* Wrong */
  embers_connect_client_set_basic_auth (client, "123456", "nope");
  values = label_values_sync (source, "service_name", &error);
  g_assert_null (values);
  g_assert_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_UNAUTHENTICATED);
  g_assert_true (g_str_has_prefix (error->message, "unauthenticated: the server refused the credentials"));
  g_clear_error (&error);

  /* Right; and a wrong token does not matter when Basic is set */
  embers_connect_client_set_bearer_token (client, "wrong-token");
  embers_connect_client_set_basic_auth (client, "123456", SECRET_PASSWORD);
  values = label_values_sync (source, "service_name", &error);
  g_assert_no_error (error);
  g_assert_true (strv_has ((const char * const *) values, "api"));
  g_clear_pointer (&values, g_strfreev);

  /* Bearer, from the environment's way of setting it */
  values = label_values_sync (token_source, "service_name", &error);
  g_assert_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_UNAUTHENTICATED);
  g_clear_error (&error);
  {
    g_autoptr(EmbersCredentials) credentials = embers_credentials_new (EMBERS_AUTH_BEARER, NULL, SECRET_TOKEN, NULL);
    embers_credentials_apply (credentials, token_client);
  }
  values = label_values_sync (token_source, "service_name", &error);
  g_assert_no_error (error);
  g_assert_true (strv_has ((const char * const *) values, "api"));

  /* A failed login does not make anything "unavailable" */
  g_assert_cmpuint (embers_source_get_capabilities (EMBERS_SOURCE (source)) & 0x3f, ==, 0x3f);
  assert_no_secret_logged ();
}

static void
test_server_tenant (void)
{
  g_autoptr(EmbersTestServer) server = server_start ("--multitenancy", NULL);
  g_autoptr(EmbersPyroscopeSource) source = source_for (server, FALSE);
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) values = NULL;
  Wait wait = { NULL };

  /* The probe is how "Test connection" finds out */
  embers_pyroscope_source_probe_async (source, NULL, on_done, &wait);
  wait_result (&wait);
  g_assert_false (embers_pyroscope_source_probe_finish (source, wait.result, &error));
  wait_clear (&wait);
  g_assert_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_UNAUTHENTICATED);
  g_assert_true (g_str_has_prefix (error->message,
                                   "unauthenticated: the server is multi-tenant — set a tenant (X-Scope-OrgID)"));
  g_clear_error (&error);

  embers_connect_client_set_tenant (embers_pyroscope_source_get_client (source), "team-a|team-b");
  values = label_values_sync (source, "service_name", &error);
  g_assert_no_error (error);
  g_assert_true (strv_has ((const char * const *) values, "api"));
}

static GError *
server_fault_error (guint        timeout_ms,
                    const char  *first_arg,
                    ...)
{
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  g_autoptr(EmbersTestServer) server = NULL;
  g_autoptr(EmbersPyroscopeSource) source = NULL;
  g_autoptr(EmbersQuery) query = embers_query_new (CPU, "{}", SERVER_NOW_MS - 3600 * 1000, SERVER_NOW_MS);
  g_autoptr(EmbersProfile) profile = NULL;
  g_autoptr(GError) start_error = NULL;
  GError *error = NULL;
  const char *arg;
  va_list ap;

  g_ptr_array_add (args, (gpointer) "--now");
  g_ptr_array_add (args, (gpointer) SERVER_NOW);
  va_start (ap, first_arg);
  for (arg = first_arg; arg != NULL; arg = va_arg (ap, const char *))
    g_ptr_array_add (args, (gpointer) arg);
  va_end (ap);
  g_ptr_array_add (args, NULL);
  server = embers_test_server_start ((const char * const *) args->pdata, &start_error);
  g_assert_no_error (start_error);

  source = source_for (server, FALSE);
  if (timeout_ms > 0)
    embers_connect_client_set_timeout_ms (embers_pyroscope_source_get_client (source), timeout_ms);

  profile = merge_sync (source, query, &error);
  g_assert_null (profile);
  g_assert_nonnull (error);
  g_test_message ("%s", error->message);

  /* A fault is not a missing feature */
  g_assert_true (embers_source_get_capabilities (EMBERS_SOURCE (source)) & EMBERS_SOURCE_CAN_MERGE);
  return error;
}

static void
test_server_faults (void)
{
  {
    g_autoptr(GError) error = server_fault_error (0, "--fault-code", "unavailable",
                                                  "--fault-message", "ingesters are not ready", NULL);
    g_assert_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_UNAVAILABLE);
    g_assert_cmpstr (error->message, ==, "unavailable: the server is not ready — try again in a moment "
                                         "(the server said: “ingesters are not ready”)");
  }
  {
    g_autoptr(GError) error = server_fault_error (0, "--fault-code", "resource_exhausted", NULL);
    g_assert_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_RESOURCE_EXHAUSTED);
    g_assert_nonnull (strstr (error->message, "shorter time range or fewer nodes"));
  }
  {
    g_autoptr(GError) error = server_fault_error (0, "--fault-code", "permission_denied", NULL);
    g_assert_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_PERMISSION_DENIED);
  }
  {
    g_autoptr(GError) error = server_fault_error (0, "--fault-drop", NULL);
    g_assert_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_UNAVAILABLE);
    g_assert_nonnull (strstr (error->message, "closed before the whole answer arrived"));
  }
  {
    g_autoptr(GError) error = server_fault_error (0, "--fault-truncate", NULL);
    g_assert_true (error->domain == EMBERS_SOURCE_ERROR);
    g_assert_true (error->code == EMBERS_SOURCE_ERROR_PROTOCOL || error->code == EMBERS_SOURCE_ERROR_UNAVAILABLE);
    g_assert_true (strstr (error->message, "cut short") != NULL ||
                   strstr (error->message, "closed before the whole answer arrived") != NULL);
  }
  {
    g_autoptr(GError) error = server_fault_error (0, "--fault-http", "502", NULL);
    g_assert_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_UNAVAILABLE);
    g_assert_nonnull (strstr (error->message, "web page"));
    g_assert_nonnull (strstr (error->message, "HTTP 502"));
  }
  {
    /* (an answer that would come long after the 0.3 s: that it did not is
     * the error; the message names the user's timeout) */
    g_autoptr(GError) error = server_fault_error (300, "--fault-delay-ms", "600000", NULL);
    g_assert_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_DEADLINE_EXCEEDED);
    g_assert_nonnull (strstr (error->message, "deadline exceeded"));
    g_assert_nonnull (strstr (error->message, "within 0.3 s"));
  }

  /* Recoverable: a fault on the first request only, then a retry works */
  {
    g_autoptr(EmbersTestServer) server = server_start ("--fault-code", "unavailable", "--fault-count", "1", NULL);
    g_autoptr(EmbersPyroscopeSource) source = source_for (server, FALSE);
    g_autoptr(GError) error = NULL;
    g_auto(GStrv) values = label_values_sync (source, "service_name", &error);

    g_assert_null (values);
    g_assert_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_UNAVAILABLE);
    g_clear_error (&error);
    values = label_values_sync (source, "service_name", &error);
    g_assert_no_error (error);
    g_assert_true (strv_has ((const char * const *) values, "api"));
  }
}

#define MERGE_PATH "/querier.v1.QuerierService/SelectMergeStacktraces"

static void
test_server_cancel (void)
{
  /* Every answer 3 s late: time enough to cancel while the server has
   * the request (the cancel waits for no clock; a slower machine only
   * takes longer to get there) */
  g_autoptr(EmbersTestServer) server = server_start ("--fault-delay-ms", "3000", NULL);
  EmbersPyroscopeSource *source = source_for (server, FALSE);
  EmbersConnectClient *client = g_object_ref (embers_pyroscope_source_get_client (source));
  g_autoptr(EmbersQuery) query = embers_query_new (CPU, "{}", SERVER_NOW_MS - 3600 * 1000, SERVER_NOW_MS);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(EmbersProfile) profile = NULL;
  g_autoptr(GError) error = NULL;
  gboolean client_gone = FALSE, source_gone = FALSE;
  Wait wait = { NULL };

  embers_source_merge_profile (EMBERS_SOURCE (source), query, cancellable, on_done, &wait);
  embers_test_wait_while (embers_test_server_stat (server, "requests", MERGE_PATH) < 1);
  g_assert_null (wait.result);

  /* Cancelled, it calls back at once, not when the answer comes */
  g_cancellable_cancel (cancellable);
  wait_result (&wait);
  g_assert_cmpint (embers_test_server_stat (server, "inFlight", MERGE_PATH), ==, 1);
  profile = embers_source_merge_profile_finish (EMBERS_SOURCE (source), wait.result, &error);
  g_assert_null (profile);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);

  /* No late callback once the delayed answer came (the server is done
   * with the request, and what that made ready has run) */
  embers_test_wait_while (embers_test_server_stat (server, "inFlight", MERGE_PATH) > 0);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_cmpuint (wait.n_calls, ==, 1);
  wait_clear (&wait);

  /* A newer request on the same source works */
  g_clear_error (&error);
  profile = merge_sync (source, query, &error);
  g_assert_no_error (error);
  g_assert_cmpint (embers_profile_get_total (profile, 0), >, 0);

  /* and nothing is left behind */
  g_object_weak_ref (G_OBJECT (client), weak_notify, &client_gone);
  g_object_weak_ref (G_OBJECT (source), weak_notify, &source_gone);
  g_object_unref (source);
  g_object_unref (client);
  embers_test_wait_while (!source_gone || !client_gone);
}

int
main (int   argc,
      char *argv[])
{
  gboolean keyring_child = g_getenv ("EMBERS_TEST_KEYRING_CHILD") != NULL;

  /* No keyring reachable: a bus address that leads nowhere (except in the
   * child that runs with a private bus and keyring) */
  if (!keyring_child)
    g_setenv ("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/embers-test-bus", TRUE);
  g_setenv ("GSETTINGS_BACKEND", "embers-recording", TRUE);
  g_unsetenv ("http_proxy");
  g_unsetenv ("HTTP_PROXY");
  g_unsetenv ("no_proxy");

  g_test_init (&argc, &argv, NULL);

  captured_logs = g_string_new (NULL);
  g_log_set_writer_func (capture_writer, NULL, NULL);

  /* Registers GIO's extension points, so that ours can join them */
  g_object_unref (g_memory_settings_backend_new ());
  g_io_extension_point_implement (G_SETTINGS_BACKEND_EXTENSION_POINT_NAME,
                                  recording_backend_get_type (), "embers-recording", 1000);

  if (keyring_child)
    {
      g_test_add_func ("/embers/pyroscope/credentials/keyring-child", test_credentials_keyring_child);
      return g_test_run ();
    }

  g_test_add_func ("/embers/pyroscope/protojson/encode", test_protojson_encode);
  g_test_add_func ("/embers/pyroscope/protojson/decode", test_protojson_decode);
  g_test_add_func ("/embers/pyroscope/protojson/exemplars", test_protojson_exemplars);
  g_test_add_func ("/embers/pyroscope/protojson/errors", test_protojson_errors);
  g_test_add_func ("/embers/pyroscope/errors/connect-codes", test_errors_connect_codes);
  g_test_add_func ("/embers/pyroscope/errors/server-words", test_errors_server_words);
  g_test_add_func ("/embers/pyroscope/errors/http", test_errors_http);
  g_test_add_func ("/embers/pyroscope/errors/transport", test_errors_transport);
  g_test_add_func ("/embers/pyroscope/client/base-url", test_client_base_url);
  g_test_add_func ("/embers/pyroscope/levels/single", test_levels_single);
  g_test_add_func ("/embers/pyroscope/levels/diff", test_levels_diff);
  g_test_add_func ("/embers/pyroscope/levels/lies", test_levels_lies);
  g_test_add_func ("/embers/pyroscope/mock/headers", test_mock_headers);
  g_test_add_func ("/embers/pyroscope/mock/prefix", test_mock_prefix);
  g_test_add_func ("/embers/pyroscope/mock/gzip", test_mock_gzip);
  g_test_add_func ("/embers/pyroscope/mock/json", test_mock_json);
  g_test_add_func ("/embers/pyroscope/mock/merge", test_mock_merge);
  g_test_add_func ("/embers/pyroscope/mock/lies", test_mock_lies);
  g_test_add_func ("/embers/pyroscope/mock/call-site", test_mock_call_site);
  g_test_add_func ("/embers/pyroscope/mock/series", test_mock_series);
  g_test_add_func ("/embers/pyroscope/mock/labels", test_mock_labels);
  g_test_add_func ("/embers/pyroscope/mock/pprof", test_mock_pprof);
  g_test_add_func ("/embers/pyroscope/mock/capability", test_mock_capability);
  g_test_add_func ("/embers/pyroscope/mock/timeout", test_mock_timeout);
  g_test_add_func ("/embers/pyroscope/mock/cancel", test_mock_cancel);
  g_test_add_func ("/embers/pyroscope/raw/dropped", test_raw_dropped);
  g_test_add_func ("/embers/pyroscope/raw/truncated", test_raw_truncated);
  g_test_add_func ("/embers/pyroscope/raw/garbage", test_raw_garbage);
  g_test_add_data_func ("/embers/pyroscope/server/round-trips/proto", GINT_TO_POINTER (FALSE), test_server_round_trips);
  g_test_add_data_func ("/embers/pyroscope/server/round-trips/json", GINT_TO_POINTER (TRUE), test_server_round_trips);
  g_test_add_func ("/embers/pyroscope/server/capabilities", test_server_capabilities);
  g_test_add_func ("/embers/pyroscope/server/auth", test_server_auth);
  g_test_add_func ("/embers/pyroscope/server/tenant", test_server_tenant);
  g_test_add_func ("/embers/pyroscope/server/faults", test_server_faults);
  g_test_add_func ("/embers/pyroscope/server/cancel", test_server_cancel);
  g_test_add_func ("/embers/pyroscope/credentials/env", test_credentials_env);
  g_test_add_func ("/embers/pyroscope/credentials/no-keyring", test_credentials_no_keyring);
  g_test_add_func ("/embers/pyroscope/credentials/keyring", test_credentials_keyring);
  /* last: it checks what all the others did */
  g_test_add_func ("/embers/pyroscope/credentials/not-in-settings", test_credentials_not_in_settings);

  return g_test_run ();
}
