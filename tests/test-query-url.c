/* test-query-url.c: Pyroscope query URLs and time specs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <libsoup/soup.h>

#include "embers-connect-client.h"
#include "embers-diff.h"
#include "embers-query-url.h"
#include "embers-test-server-spawn.h"

#include "querier.pb-c.h"

#define CPU "process_cpu:cpu:nanoseconds:cpu:nanoseconds"
/* 2023-11-14T22:13:20Z */
#define NOW_MS G_GINT64_CONSTANT (1700000000000)

static void
test_time_numbers (void)
{
  static const struct {
    const char *text;
    gint64      ms;
  } cases[] = {
    { "0", 0 },
    { "1700000000", NOW_MS },                  /* seconds */
    { "99999999999", G_GINT64_CONSTANT (99999999999000) },
    { "1700000000000", NOW_MS },               /* ms */
    { "1700000000123", NOW_MS + 123 },
    { "1700000000000000", NOW_MS },            /* µs */
    { "1700000000123456", NOW_MS + 123 },
    { "1700000000000000000", NOW_MS },         /* ns */
    { " 1700000000 ", NOW_MS },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      gint64 ms = -1;

      g_assert_true (embers_query_url_parse_time (cases[i].text, NOW_MS, &ms, &error));
      g_assert_no_error (error);
      g_assert_cmpint (ms, ==, cases[i].ms);
    }
}

static void
test_time_relative (void)
{
  static const struct {
    const char *text;
    gint64      delta_ms;
  } cases[] = {
    { "now", 0 },
    { "NOW", 0 },
    { "now-1h", -3600 * 1000 },
    { "now-7d", -(gint64) 7 * 24 * 3600 * 1000 },
    { "now-30m", -30 * 60 * 1000 },
    { "now-15s", -15 * 1000 },
    { "now-500ms", -500 },
    { "now-2w", -(gint64) 14 * 24 * 3600 * 1000 },
    { "now-1h30m", -(3600 + 1800) * 1000 },
    { "now+5m", 5 * 60 * 1000 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      gint64 ms = -1;

      g_assert_true (embers_query_url_parse_time (cases[i].text, NOW_MS, &ms, &error));
      g_assert_no_error (error);
      g_assert_cmpint (ms, ==, NOW_MS + cases[i].delta_ms);
    }
}

static void
test_time_rfc3339 (void)
{
  static const struct {
    const char *text;
    gint64      ms;
  } cases[] = {
    { "2023-11-14T22:13:20Z", NOW_MS },
    { "2023-11-14T22:13:20.250Z", NOW_MS + 250 },
    { "2023-11-15T00:13:20+02:00", NOW_MS },
    { "2023-11-14T22:13:20", NOW_MS },           /* no zone: UTC */
    { "2023-11-14", NOW_MS - (22 * 3600 + 13 * 60 + 20) * G_GINT64_CONSTANT (1000) },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      gint64 ms = -1;

      g_assert_true (embers_query_url_parse_time (cases[i].text, NOW_MS, &ms, &error));
      g_assert_no_error (error);
      g_assert_cmpint (ms, ==, cases[i].ms);
    }
}

static void
test_time_bad (void)
{
  static const char *cases[] = {
    "", "   ", "yesterday", "now-", "now-1", "now-1y", "now-h", "now*2", "now-1h-", "12a",
    "-5", "2023-13-45", "99999999999999999999999", "now-99999999999w",
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      gint64 ms = 42;

      g_assert_false (embers_query_url_parse_time (cases[i], NOW_MS, &ms, &error));
      g_assert_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_INVALID_ARGUMENT);
      g_assert_nonnull (strstr (error->message, "is not a time"));
      g_assert_nonnull (strstr (error->message, "now-1h"));
      g_assert_cmpint (ms, ==, 42);
    }
}

static EmbersQueryUrl *
parse_ok (const char *url)
{
  g_autoptr(GError) error = NULL;
  EmbersQueryUrl *parsed = embers_query_url_parse (url, NOW_MS, &error);

  g_assert_no_error (error);
  g_assert_nonnull (parsed);
  g_assert_nonnull (parsed->query);
  return parsed;
}

static void
test_parse_encoded (void)
{
  /* As the Pyroscope UI writes it */
  g_autoptr(EmbersQueryUrl) parsed =
    parse_ok ("http://localhost:4040/?query=process_cpu%3Acpu%3Ananoseconds%3Acpu%3Ananoseconds"
              "%7Bservice_name%3D%22ride-sharing-app%22%7D&from=now-1h&until=now");

  g_assert_cmpstr (parsed->base_url, ==, "http://localhost:4040");
  g_assert_null (parsed->user);
  g_assert_null (parsed->password);
  g_assert_cmpstr (parsed->query->profile_type, ==, CPU);
  g_assert_cmpstr (parsed->query->label_selector, ==, "{service_name=\"ride-sharing-app\"}");
  g_assert_cmpint (parsed->query->start_ms, ==, NOW_MS - 3600 * 1000);
  g_assert_cmpint (parsed->query->end_ms, ==, NOW_MS);
  g_assert_cmpint (parsed->query->max_nodes, ==, 0);
}

static void
test_parse_raw (void)
{
  /* As a person types it in a shell: braces and quotes unencoded */
  g_autoptr(EmbersQueryUrl) parsed =
    parse_ok ("http://localhost:4040/?query=" CPU "{service_name=\"api\", env!=\"dev\"}"
              "&from=1699990000&until=1700000000000&max-nodes=1024");

  g_assert_cmpstr (parsed->base_url, ==, "http://localhost:4040");
  g_assert_cmpstr (parsed->query->profile_type, ==, CPU);
  g_assert_cmpstr (parsed->query->label_selector, ==, "{service_name=\"api\",env!=\"dev\"}");
  g_assert_cmpint (parsed->query->start_ms, ==, G_GINT64_CONSTANT (1699990000000));
  g_assert_cmpint (parsed->query->end_ms, ==, NOW_MS);
  g_assert_cmpint (parsed->query->max_nodes, ==, 1024);
}

static void
test_parse_defaults (void)
{
  /* No selector, no time range: {} over the last hour; maxNodes spelling */
  g_autoptr(EmbersQueryUrl) parsed =
    parse_ok ("https://pyroscope.example.com?query=memory:inuse_space:bytes:space:bytes&maxNodes=77");

  g_assert_cmpstr (parsed->base_url, ==, "https://pyroscope.example.com");
  g_assert_cmpstr (parsed->query->profile_type, ==, "memory:inuse_space:bytes:space:bytes");
  g_assert_cmpstr (parsed->query->label_selector, ==, "{}");
  g_assert_cmpint (parsed->query->start_ms, ==, NOW_MS - 3600 * 1000);
  g_assert_cmpint (parsed->query->end_ms, ==, NOW_MS);
  g_assert_cmpint (parsed->query->max_nodes, ==, 77);
}

static void
test_parse_prefix (void)
{
  /* Grafana's datasource proxy: the prefix is opaque and kept */
  g_autoptr(EmbersQueryUrl) parsed =
    parse_ok ("https://grafana.example.com/api/datasources/proxy/uid/P1809F7CD0C75ACF3/"
              "?query=" CPU "%7B%7D&from=2023-11-14T21:13:20Z&until=2023-11-14T22:13:20Z#ignored");
  g_autoptr(EmbersQueryUrl) ipv6 = parse_ok ("http://[::1]:4040/pyro/?query=" CPU);
  g_autoptr(EmbersQueryUrl) explore = parse_ok ("http://localhost:4040/explore?query=" CPU "&from=now-6h");

  g_assert_cmpstr (parsed->base_url, ==,
                   "https://grafana.example.com/api/datasources/proxy/uid/P1809F7CD0C75ACF3");
  g_assert_cmpint (parsed->query->start_ms, ==, NOW_MS - 3600 * 1000);
  g_assert_cmpint (parsed->query->end_ms, ==, NOW_MS);

  g_assert_cmpstr (ipv6->base_url, ==, "http://[::1]:4040/pyro");

  /* A Pyroscope UI page name is not part of the API prefix */
  g_assert_cmpstr (explore->base_url, ==, "http://localhost:4040");
  g_assert_cmpint (explore->query->start_ms, ==, NOW_MS - 6 * 3600 * 1000);
}

/* The legacy render API's URLs, "to" for "until", and Grafana Profiles
 * Drilldown URLs (read through Grafana's data source proxy) */
static void
test_parse_render_and_drilldown (void)
{
  g_autoptr(EmbersQueryUrl) render =
    parse_ok ("http://localhost:4040/pyroscope/render?query=" CPU "%7Bservice_name%3D%22api%22%7D"
              "&from=now-2h&to=now-1h&max-nodes=512&format=json");
  g_autoptr(EmbersQueryUrl) og_render = parse_ok ("http://localhost:4040/render?query=" CPU "&from=now-2h");
  g_autoptr(EmbersQueryUrl) drilldown =
    parse_ok ("https://grafana.example.com/sub/a/grafana-pyroscope-app/explore?searchText=&panelType=time-series"
              "&explorationType=flame-graph&var-serviceName=ride-sharing-app"
              "&var-profileMetricId=process_cpu:cpu:nanoseconds:cpu:nanoseconds"
              "&var-dataSource=PD8C576611E62080A&var-filters=vehicle%7C%3D%7Ccar"
              "&var-filters=region%7C%21~%7Ceu.*&var-filters=k%7C%3D%7Cx__gfp__y__gfc__z"
              "&from=1700000000000&to=1700003600000&maxNodes=16384");
  g_autoptr(EmbersQueryUrl) drilldown_service = parse_ok (
    "https://grafana.example.com/a/grafana-pyroscope-app/profiles-explorer?var-serviceName=api"
    "&var-profileMetricId=memory:alloc_space:bytes:space:bytes&var-dataSource=pyro&var-filters=");
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersQueryUrl) no_source = NULL;

  g_assert_cmpstr (render->base_url, ==, "http://localhost:4040");
  g_assert_cmpstr (render->query->label_selector, ==, "{service_name=\"api\"}");
  g_assert_cmpint (render->query->start_ms, ==, NOW_MS - 2 * 3600 * 1000);
  g_assert_cmpint (render->query->end_ms, ==, NOW_MS - 3600 * 1000);
  g_assert_cmpint (render->query->max_nodes, ==, 512);
  g_assert_cmpstr (og_render->base_url, ==, "http://localhost:4040");

  g_assert_cmpstr (drilldown->base_url, ==,
                   "https://grafana.example.com/sub/api/datasources/proxy/uid/PD8C576611E62080A");
  g_assert_cmpstr (drilldown->query->profile_type, ==, CPU);
  g_assert_cmpstr (drilldown->query->label_selector, ==,
                   "{service_name=\"ride-sharing-app\",vehicle=\"car\",region!~\"eu.*\",k=\"x|y,z\"}");
  g_assert_cmpint (drilldown->query->start_ms, ==, 1700000000000);
  g_assert_cmpint (drilldown->query->end_ms, ==, 1700003600000);
  g_assert_cmpint (drilldown->query->max_nodes, ==, 16384);

  g_assert_cmpstr (drilldown_service->base_url, ==, "https://grafana.example.com/api/datasources/proxy/uid/pyro");
  g_assert_cmpstr (drilldown_service->query->profile_type, ==, "memory:alloc_space:bytes:space:bytes");
  g_assert_cmpstr (drilldown_service->query->label_selector, ==, "{service_name=\"api\"}");

  no_source = embers_query_url_parse ("https://grafana.example.com/a/grafana-pyroscope-app/explore"
                                      "?var-profileMetricId=" CPU, NOW_MS, &error);
  g_assert_null (no_source);
  g_assert_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "var-dataSource"));
}

static void
test_parse_credentials (void)
{
  g_autoptr(EmbersQueryUrl) parsed =
    parse_ok ("https://123456:glc_s3cr%40t@profiles-prod-001.grafana.net/?query=" CPU);

  g_assert_cmpstr (parsed->base_url, ==, "https://profiles-prod-001.grafana.net");
  g_assert_null (strstr (parsed->base_url, "glc_"));
  g_assert_cmpstr (parsed->user, ==, "123456");
  g_assert_cmpstr (parsed->password, ==, "glc_s3cr@t");
}

static void
test_parse_errors (void)
{
  static const struct {
    const char *url;
    const char *words;
  } cases[] = {
    { "localhost:4040/?query=" CPU, "must start with http" },
    { "ftp://localhost/?query=" CPU, "must start with http" },
    { "http://localhost:4040/", "has no query" },
    { "http://localhost:4040/?from=now-1h", "no query parameter" },
    { "http://localhost:4040/?query=", "no query parameter" },
    { "http://localhost:4040/?query={service_name=\"x\"}", "has no profile type" },
    { "http://localhost:4040/?query=cpu{}", "is not a profile type" },
    { "http://localhost:4040/?query=" CPU "{service_name=}", "is not valid" },
    { "http://localhost:4040/?query=" CPU "{a=\"b\"", "is not valid" },
    { "http://localhost:4040/?query=" CPU "&from=later", "is not a time" },
    { "http://localhost:4040/?query=" CPU "&from=now&until=now-1h", "time range is empty" },
    { "http://localhost:4040/?query=" CPU "&max-nodes=0", "max-nodes must be" },
    { "http://localhost:4040/?query=" CPU "&max-nodes=many", "max-nodes must be" },
    { "http://localhost:4040/?query=" CPU "&max-nodes=2000000", "max-nodes must be" },
    { "http://localhost:4040/?query=%ZZ", "cannot be read" },
    { "http://:4040/?query=" CPU, "" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(EmbersQueryUrl) parsed = embers_query_url_parse (cases[i].url, NOW_MS, &error);

      g_test_message ("%s", cases[i].url);
      g_assert_null (parsed);
      g_assert_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_INVALID_ARGUMENT);
      g_assert_nonnull (strstr (error->message, cases[i].words));
    }
}


/* Issue 15, failure 10: a password in the URL never reaches a message */
static void
test_parse_errors_masked (void)
{
  static const char *urls[] = {
    "ftp://user:hunter2@localhost/?query=" CPU,
    "http://user:hunter2@localhost:4040/",
    "http://user:hunter2@localhost:4040/?from=now-1h",
    "http://user:hunter2@localhost:4040/?query=" CPU "&from=later",
    "http://user:hunter2@:4040/?query=" CPU,
    "http://user:hunter2@localhost:99999999/?query=" CPU,
    "http://user:hunter2@[::1/?query=" CPU,
  };

  for (guint i = 0; i < G_N_ELEMENTS (urls); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(EmbersQueryUrl) parsed = embers_query_url_parse (urls[i], NOW_MS, &error);

      g_assert_null (parsed);
      g_assert_nonnull (error);
      g_test_message ("%s: %s", urls[i], error->message);
      g_assert_null (strstr (error->message, "hunter2"));
      if (strstr (error->message, "user") != NULL)
        g_assert_nonnull (strstr (error->message, "user:***@"));
    }

  /* The client's own address checks */
  {
    static const char *bases[] = {
      "ftp://user:hunter2@localhost",
      "http://user:hunter2@:4040",
      "http://user:hunter2@localhost:99999999",
    };

    for (guint i = 0; i < G_N_ELEMENTS (bases); i++)
      {
        g_autoptr(GError) error = NULL;
        g_autoptr(EmbersConnectClient) client = embers_connect_client_new (bases[i], &error);

        g_assert_null (client);
        g_assert_nonnull (error);
        g_test_message ("%s: %s", bases[i], error->message);
        g_assert_null (strstr (error->message, "hunter2"));
      }
  }
}

static void
test_is_url (void)
{
  g_assert_true (embers_query_url_is_url ("http://x/?query=a"));
  g_assert_true (embers_query_url_is_url ("HTTPS://x"));
  g_assert_false (embers_query_url_is_url ("profile.pb.gz"));
  g_assert_false (embers_query_url_is_url ("/tmp/http://x"));
  g_assert_false (embers_query_url_is_url (NULL));
}

static void
test_build_round_trip (void)
{
  static const struct {
    const char *selector;
    gint64      start_ms;
    gint64      end_ms;
    gint64      max_nodes;
  } cases[] = {
    { "{service_name=\"api\",path=~\"/a b+c&d\"}", NOW_MS - 3600000, NOW_MS, 0 },
    { "{}", NOW_MS - 1, NOW_MS, 512 },
    { "{q=\"\\\"quoted\\\" and {braces}\"}", 1000, 2500, 0 },  /* small ms: written as RFC 3339 */
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(EmbersQuery) query = embers_query_new (CPU, cases[i].selector,
                                                       cases[i].start_ms, cases[i].end_ms);
      g_autoptr(EmbersQueryUrl) parsed = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree char *url = NULL;

      query->max_nodes = cases[i].max_nodes;
      url = embers_query_url_build ("https://grafana.example.com/api/datasources/proxy/uid/X/", query);
      g_test_message ("%s", url);
      g_assert_true (g_str_has_prefix (url, "https://grafana.example.com/api/datasources/proxy/uid/X/?query="));
      g_assert_null (strchr (url, ' '));
      g_assert_null (strchr (url, '"'));

      parsed = embers_query_url_parse (url, NOW_MS, &error);
      g_assert_no_error (error);
      g_assert_cmpstr (parsed->base_url, ==, "https://grafana.example.com/api/datasources/proxy/uid/X");
      g_assert_cmpstr (parsed->query->profile_type, ==, CPU);
      g_assert_cmpstr (parsed->query->label_selector, ==, cases[i].selector);
      g_assert_cmpint (parsed->query->start_ms, ==, cases[i].start_ms);
      g_assert_cmpint (parsed->query->end_ms, ==, cases[i].end_ms);
      g_assert_cmpint (parsed->query->max_nodes, ==, cases[i].max_nodes);
    }
}

static void
test_load_bad_url (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersProfile) profile = NULL;

  /* Fails on parsing, before any network or keyring use */
  profile = embers_pyroscope_load_query_url ("http://localhost:1/?query=nope", NULL, &error);
  g_assert_null (profile);
  g_assert_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_INVALID_ARGUMENT);
}

static void
test_load_refused (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersProfile) profile = NULL;
  g_autoptr(GSocket) socket = NULL;
  g_autoptr(GSocketAddress) bound = NULL;
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) any = g_inet_socket_address_new (loopback, 0);
  g_autofree char *url = NULL;
  guint16 port;

  /* A port that was free a moment ago: nobody listens there */
  socket = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, &error);
  g_assert_no_error (error);
  g_socket_bind (socket, any, FALSE, &error);
  g_assert_no_error (error);
  bound = g_socket_get_local_address (socket, &error);
  g_assert_no_error (error);
  port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
  g_socket_close (socket, NULL);

  /* Credentials from the environment: no keyring is asked */
  g_setenv ("EMBERS_TOKEN", "t0ken", TRUE);
  url = g_strdup_printf ("http://127.0.0.1:%u/?query=" CPU "&from=now-1h", port);
  profile = embers_pyroscope_load_query_url (url, NULL, &error);
  g_unsetenv ("EMBERS_TOKEN");

  g_assert_null (profile);
  g_assert_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_UNAVAILABLE);
  g_assert_nonnull (strstr (error->message, "refused"));
  g_assert_null (strstr (error->message, "t0ken"));
  g_clear_error (&error);

  /* The same with user:password@ in the URL */
  g_free (url);
  url = g_strdup_printf ("http://user:hunter2@127.0.0.1:%u/?query=" CPU "&from=now-1h", port);
  profile = embers_pyroscope_load_query_url (url, NULL, &error);
  g_assert_null (profile);
  g_assert_nonnull (error);
  g_assert_null (strstr (error->message, "hunter2"));
}

/* A tiny Pyroscope in a thread of its own: the loader blocks the main thread. */
typedef struct
{
  GThread      *thread;
  GMainContext *context;
  GMainLoop    *loop;
  GMutex        lock;
  GCond         cond;
  char         *url;
  char         *authorization;   /* last request's headers */
  char         *tenant;
  char         *path;
  GBytes       *body;
} Server;

static void
server_handler (SoupServer        *soup,
                SoupServerMessage *msg,
                const char        *path,
                GHashTable        *query,
                gpointer           user_data)
{
  Server *server = user_data;
  SoupMessageHeaders *headers = soup_server_message_get_request_headers (msg);
  /* main;a 3, main;b 1 */
  static const char *names[] = { "total", "main", "a", "b" };
  int64_t l0[] = { 0, 4, 0, 0 }, l1[] = { 0, 4, 0, 1 }, l2[] = { 0, 3, 3, 2, 0, 1, 1, 3 };
  Querier__V1__Level levels[3];
  Querier__V1__Level *lp[] = { &levels[0], &levels[1], &levels[2] };
  Querier__V1__FlameGraph fg = QUERIER__V1__FLAME_GRAPH__INIT;
  Querier__V1__SelectMergeStacktracesResponse resp = QUERIER__V1__SELECT_MERGE_STACKTRACES_RESPONSE__INIT;
  int64_t *lv[] = { l0, l1, l2 };
  size_t ln[] = { 4, 4, 8 };
  guint8 *buf;
  gsize len;

  g_mutex_lock (&server->lock);
  g_free (server->authorization);
  server->authorization = g_strdup (soup_message_headers_get_one (headers, "Authorization"));
  g_free (server->tenant);
  server->tenant = g_strdup (soup_message_headers_get_one (headers, "X-Scope-OrgID"));
  g_free (server->path);
  server->path = g_strdup (path);
  g_clear_pointer (&server->body, g_bytes_unref);
  server->body = soup_message_body_flatten (soup_server_message_get_request_body (msg));
  g_mutex_unlock (&server->lock);

  if (!g_str_has_suffix (path, "/querier.v1.QuerierService/SelectMergeStacktraces") ||
      g_str_has_prefix (path, "/elsewhere/"))
    {
      soup_server_message_set_status (msg, 404, NULL);
      soup_server_message_set_response (msg, "text/plain", SOUP_MEMORY_STATIC, "404 page not found", 18);
      return;
    }

  for (guint i = 0; i < 3; i++)
    {
      querier__v1__level__init (&levels[i]);
      levels[i].n_values = ln[i];
      levels[i].values = lv[i];
    }
  fg.n_names = 4;
  fg.names = (char **) names;
  fg.n_levels = 3;
  fg.levels = lp;
  resp.flamegraph = &fg;
  len = querier__v1__select_merge_stacktraces_response__get_packed_size (&resp);
  buf = g_malloc (len);
  querier__v1__select_merge_stacktraces_response__pack (&resp, buf);
  soup_server_message_set_status (msg, 200, NULL);
  soup_server_message_set_response (msg, "application/proto", SOUP_MEMORY_TAKE, (char *) buf, len);
}

static gpointer
server_thread (gpointer user_data)
{
  Server *server = user_data;
  g_autoptr(SoupServer) soup = NULL;
  g_autoptr(GError) error = NULL;
  GSList *uris;

  g_main_context_push_thread_default (server->context);

  soup = soup_server_new (NULL, NULL);
  soup_server_add_handler (soup, NULL, server_handler, server, NULL);
  soup_server_listen_local (soup, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, &error);
  g_assert_no_error (error);
  uris = soup_server_get_uris (soup);

  g_mutex_lock (&server->lock);
  server->url = g_strdup_printf ("http://127.0.0.1:%d", g_uri_get_port (uris->data));
  g_cond_signal (&server->cond);
  g_mutex_unlock (&server->lock);
  g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);

  g_main_loop_run (server->loop);

  soup_server_disconnect (soup);
  g_main_context_pop_thread_default (server->context);
  return NULL;
}

static Server *
server_new (void)
{
  Server *server = g_new0 (Server, 1);

  g_mutex_init (&server->lock);
  g_cond_init (&server->cond);
  server->context = g_main_context_new ();
  server->loop = g_main_loop_new (server->context, FALSE);
  server->thread = g_thread_new ("pyroscope", server_thread, server);

  g_mutex_lock (&server->lock);
  while (server->url == NULL)
    g_cond_wait (&server->cond, &server->lock);
  g_mutex_unlock (&server->lock);

  return server;
}

static gboolean
quit_loop (gpointer user_data)
{
  g_main_loop_quit (user_data);
  return G_SOURCE_REMOVE;
}

static void
server_free (Server *server)
{
  g_main_context_invoke (server->context, quit_loop, server->loop);
  g_thread_join (server->thread);
  g_main_loop_unref (server->loop);
  g_main_context_unref (server->context);
  g_mutex_clear (&server->lock);
  g_cond_clear (&server->cond);
  g_free (server->url);
  g_free (server->authorization);
  g_free (server->tenant);
  g_free (server->path);
  g_clear_pointer (&server->body, g_bytes_unref);
  g_free (server);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Server, server_free)

static void
test_load_ok (void)
{
  g_autoptr(Server) server = server_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersProfile) profile = NULL;
  g_autofree char *url = NULL;
  Querier__V1__SelectMergeStacktracesRequest *sent;
  g_autofree char *expected_auth = NULL;

  /* user:password in the URL win; the tenant comes from the environment */
  g_setenv ("EMBERS_TENANT", "acme", TRUE);
  url = g_strdup_printf ("http://123:s3cret@%s/prefix/?query=" CPU "{service_name=\"api\"}"
                         "&from=now-2h&until=now-1h&max-nodes=64",
                         server->url + strlen ("http://"));
  profile = embers_pyroscope_load_query_url (url, NULL, &error);
  g_unsetenv ("EMBERS_TENANT");
  g_assert_no_error (error);
  g_assert_nonnull (profile);

  g_assert_cmpstr (embers_profile_get_sample_type (profile, 0), ==, "cpu");
  g_assert_cmpint (embers_profile_get_total (profile, 0), ==, 4);
  g_assert_cmpuint (embers_profile_get_n_nodes (profile), ==, 4);

  g_assert_cmpstr (server->path, ==, "/prefix/querier.v1.QuerierService/SelectMergeStacktraces");
  g_assert_cmpstr (server->tenant, ==, "acme");
  {
    g_autofree char *b64 = g_base64_encode ((const guint8 *) "123:s3cret", 10);
    expected_auth = g_strconcat ("Basic ", b64, NULL);
  }
  g_assert_cmpstr (server->authorization, ==, expected_auth);

  sent = querier__v1__select_merge_stacktraces_request__unpack (NULL, g_bytes_get_size (server->body),
                                                                g_bytes_get_data (server->body, NULL));
  g_assert_nonnull (sent);
  g_assert_cmpstr (sent->profile_typeid, ==, CPU);
  g_assert_cmpstr (sent->label_selector, ==, "{service_name=\"api\"}");
  g_assert_cmpint (sent->max_nodes, ==, 64);
  g_assert_cmpint (sent->end - sent->start, ==, 3600 * 1000);
  g_assert_cmpint (ABS (sent->end - (g_get_real_time () / 1000 - 3600 * 1000)), <, 60 * 1000);
  querier__v1__select_merge_stacktraces_request__free_unpacked (sent, NULL);
  g_clear_object (&profile);

  /* A token from the environment, and the default max-nodes */
  g_setenv ("EMBERS_TOKEN", "t0ken", TRUE);
  g_free (url);
  url = g_strdup_printf ("%s/?query=" CPU, server->url);
  profile = embers_pyroscope_load_query_url (url, NULL, &error);
  g_unsetenv ("EMBERS_TOKEN");
  g_assert_no_error (error);
  g_assert_cmpint (embers_profile_get_total (profile, 0), ==, 4);
  g_assert_cmpstr (server->authorization, ==, "Bearer t0ken");
  g_assert_null (server->tenant);
  sent = querier__v1__select_merge_stacktraces_request__unpack (NULL, g_bytes_get_size (server->body),
                                                                g_bytes_get_data (server->body, NULL));
  g_assert_cmpint (sent->max_nodes, ==, 8192);
  querier__v1__select_merge_stacktraces_request__free_unpacked (sent, NULL);
  g_clear_object (&profile);

  /* Nothing in the environment: the keyring is asked (none reachable here),
   * then the query goes without credentials */
  profile = embers_pyroscope_load_query_url (url, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (profile);
  g_assert_null (server->authorization);

  /* A server error comes back as it is */
  g_free (url);
  url = g_strdup_printf ("%s/elsewhere/?query=" CPU, server->url);
  g_clear_object (&profile);
  profile = embers_pyroscope_load_query_url (url, NULL, &error);
  g_assert_null (profile);
  g_assert_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_UNIMPLEMENTED);
}

static void
test_load_diff (void)
{
  const char *args[] = { "--now", "1700000000000", NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersTestServer) server = embers_test_server_start (args, &error);
  g_autoptr(EmbersTestServer) other = NULL;
  g_autoptr(EmbersProfile) diff = NULL;
  g_autoptr(EmbersProfile) left = NULL;
  g_autoptr(EmbersProfile) right = NULL;
  g_autofree char *base = NULL;
  g_autofree char *comp = NULL;
  g_autofree char *elsewhere = NULL;

  g_assert_no_error (error);
  base = g_strdup_printf ("%s?query=" CPU "{service_name=\"api\"}&from=1699992800&until=1699996400",
                          embers_test_server_get_url (server));
  comp = g_strdup_printf ("%s?query=" CPU "{service_name=\"api\"}&from=1699996400&until=1700000000",
                          embers_test_server_get_url (server));

  /* The server's Diff: each side's total is that side's merged total */
  diff = embers_pyroscope_load_query_url_diff (base, comp, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (embers_profile_is_diff (diff));
  left = embers_pyroscope_load_query_url (base, NULL, &error);
  g_assert_no_error (error);
  right = embers_pyroscope_load_query_url (comp, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (embers_profile_get_total (diff, EMBERS_DIFF_BASELINE), ==, embers_profile_get_total (left, 0));
  g_assert_cmpint (embers_profile_get_total (diff, EMBERS_DIFF_COMPARISON), ==, embers_profile_get_total (right, 0));
  g_assert_cmpint (embers_profile_get_total (left, 0), >, 0);

  /* Two servers: not for the server to diff */
  other = embers_test_server_start (args, &error);
  g_assert_no_error (error);
  elsewhere = g_strdup_printf ("%s?query=" CPU, embers_test_server_get_url (other));
  g_clear_object (&diff);
  diff = embers_pyroscope_load_query_url_diff (base, elsewhere, NULL, &error);
  g_assert_null (diff);
  g_assert_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_NOT_SUPPORTED);
}

int
main (int   argc,
      char *argv[])
{
  /* No keyring reachable: a bus address that leads nowhere */
  g_setenv ("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/embers-test-bus", TRUE);
  g_unsetenv ("EMBERS_USER");
  g_unsetenv ("EMBERS_PASSWORD");
  g_unsetenv ("EMBERS_TOKEN");
  g_unsetenv ("EMBERS_TENANT");

  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/embers/query-url/time/numbers", test_time_numbers);
  g_test_add_func ("/embers/query-url/time/relative", test_time_relative);
  g_test_add_func ("/embers/query-url/time/rfc3339", test_time_rfc3339);
  g_test_add_func ("/embers/query-url/time/bad", test_time_bad);
  g_test_add_func ("/embers/query-url/parse/encoded", test_parse_encoded);
  g_test_add_func ("/embers/query-url/parse/raw", test_parse_raw);
  g_test_add_func ("/embers/query-url/parse/render-and-drilldown", test_parse_render_and_drilldown);
  g_test_add_func ("/embers/query-url/parse/defaults", test_parse_defaults);
  g_test_add_func ("/embers/query-url/parse/prefix", test_parse_prefix);
  g_test_add_func ("/embers/query-url/parse/credentials", test_parse_credentials);
  g_test_add_func ("/embers/query-url/parse/errors", test_parse_errors);
  g_test_add_func ("/embers/query-url/parse/errors-masked", test_parse_errors_masked);
  g_test_add_func ("/embers/query-url/is-url", test_is_url);
  g_test_add_func ("/embers/query-url/build/round-trip", test_build_round_trip);
  g_test_add_func ("/embers/query-url/load/bad-url", test_load_bad_url);
  g_test_add_func ("/embers/query-url/load/refused", test_load_refused);
  g_test_add_func ("/embers/query-url/load/ok", test_load_ok);
  g_test_add_func ("/embers/query-url/load/diff", test_load_diff);

  return g_test_run ();
}
