/* embers-test-server.c: a Pyroscope look-alike for tests, demos and screenshots
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One process, one GLib main loop, one SoupServer on 127.0.0.1. It speaks
 * Connect unary (application/proto and application/json, gzip both ways)
 * for querier.v1.QuerierService, settings.v1.RecordingRulesService (with
 * --recording-rules) and push.v1.PusherService, plus /ingest, /ready and
 * /api/v1/status/buildinfo. See tests/server/README.md.
 */

#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib-unix.h>
#include <json-glib/json-glib.h>
#include <libsoup/soup.h>

#include "ets-server.h"

#define CONTROL_PATH "/embers-test/faults"
#define STATS_PATH "/embers-test/stats"

typedef struct
{
  EtsServer         *server;
  SoupServerMessage *msg;
  char              *path;
  GHashTable        *query;
  EtsFault           fault;
  gboolean           paused;
} Request;

typedef struct
{
  GIOStream *stream;
  GBytes    *bytes;
} Stolen;

void
ets_fault_clear (EtsFault *fault)
{
  g_clear_pointer (&fault->message, g_free);
  memset (fault, 0, sizeof *fault);
}

static void
request_free (Request *req)
{
  g_object_unref (req->msg);
  g_free (req->path);
  g_clear_pointer (&req->query, g_hash_table_unref);
  ets_fault_clear (&req->fault);
  g_free (req);
}

/* ---- faults -------------------------------------------------------------- */

static void
on_stolen_closed (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  Stolen *stolen = user_data;

  g_io_stream_close_finish (G_IO_STREAM (object), result, NULL);
  g_object_unref (stolen->stream);
  g_clear_pointer (&stolen->bytes, g_bytes_unref);
  g_free (stolen);
}

static void
on_stolen_written (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  Stolen *stolen = user_data;

  g_output_stream_write_all_finish (G_OUTPUT_STREAM (object), result, NULL, NULL);
  g_io_stream_close_async (stolen->stream, G_PRIORITY_DEFAULT, NULL, on_stolen_closed, stolen);
}

/* Takes the connection away from libsoup, writes bytes (may be NULL) and
 * closes it: the client sees a dropped connection or a short body. */
static void
steal_and_close (SoupServerMessage *msg,
                 GBytes            *bytes)
{
  Stolen *stolen = g_new0 (Stolen, 1);

  stolen->stream = soup_server_message_steal_connection (msg);
  if (bytes != NULL && g_bytes_get_size (bytes) > 0)
    {
      stolen->bytes = g_bytes_ref (bytes);
      g_output_stream_write_all_async (g_io_stream_get_output_stream (stolen->stream),
                                       g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                                       G_PRIORITY_DEFAULT, NULL, on_stolen_written, stolen);
    }
  else
    g_io_stream_close_async (stolen->stream, G_PRIORITY_DEFAULT, NULL, on_stolen_closed, stolen);
}

static void
append_header (const char *name,
               const char *value,
               gpointer    user_data)
{
  GString *out = user_data;

  if (g_ascii_strcasecmp (name, "Content-Length") == 0 ||
      g_ascii_strcasecmp (name, "Transfer-Encoding") == 0 ||
      g_ascii_strcasecmp (name, "Connection") == 0)
    return;
  g_string_append_printf (out, "%s: %s\r\n", name, value);
}

/* Sends the prepared response with a Content-Length of the whole body but
 * only the first half of the body, then closes */
static void
send_truncated (SoupServerMessage *msg)
{
  g_autoptr(GBytes) body = soup_message_body_flatten (soup_server_message_get_response_body (msg));
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GBytes) bytes = NULL;
  gsize len = g_bytes_get_size (body);
  guint status = soup_server_message_get_status (msg);

  g_string_append_printf (out, "HTTP/1.1 %u %s\r\n", status, soup_status_get_phrase (status));
  soup_message_headers_foreach (soup_server_message_get_response_headers (msg), append_header, out);
  g_string_append_printf (out, "Content-Length: %" G_GSIZE_FORMAT "\r\nConnection: close\r\n\r\n",
                          MAX (len, 16));
  g_string_append_len (out, g_bytes_get_data (body, NULL), len / 2);
  bytes = g_bytes_new (out->str, out->len);
  steal_and_close (msg, bytes);
}

static void
fault_from_headers (SoupMessageHeaders *headers,
                    EtsFault           *fault)
{
  const char *v;

  if ((v = soup_message_headers_get_one (headers, "X-Embers-Fault-Delay-Ms")) != NULL)
    fault->delay_ms = MIN (strtoul (v, NULL, 10), 600000);
  if ((v = soup_message_headers_get_one (headers, "X-Embers-Fault-Code")) != NULL &&
      ets_code_from_string (v, &fault->code))
    fault->has_code = TRUE;
  if ((v = soup_message_headers_get_one (headers, "X-Embers-Fault-Message")) != NULL)
    {
      g_free (fault->message);
      fault->message = g_strdup (v);
    }
  if (soup_message_headers_get_one (headers, "X-Embers-Fault-Drop") != NULL)
    fault->drop = TRUE;
  if (soup_message_headers_get_one (headers, "X-Embers-Fault-Truncate") != NULL)
    fault->truncate = TRUE;
  if ((v = soup_message_headers_get_one (headers, "X-Embers-Fault-Http")) != NULL)
    fault->http_status = strtoul (v, NULL, 10);
}

static void
fault_copy (const EtsFault *from,
            EtsFault       *to)
{
  ets_fault_clear (to);
  *to = *from;
  to->message = g_strdup (from->message);
}

static gboolean
path_takes_faults (const char *path)
{
  return g_str_has_prefix (path, "/querier.v1.") ||
         g_str_has_prefix (path, "/settings.v1.") ||
         g_str_has_prefix (path, "/push.v1.") ||
         g_str_equal (path, "/ingest") ||
         g_str_equal (path, "/pyroscope/ingest");
}

/* POST /embers-test/faults {"delay_ms":..,"code":"unavailable","message":..,
 * "drop":true,"truncate":true,"http_status":502,"count":N,"every":N};
 * an empty object or DELETE clears. Not a Pyroscope route: a test hook so a
 * window test can make the server fail and then recover. */
static void
handle_control (EtsServer         *server,
                SoupServerMessage *msg)
{
  const char *method = soup_server_message_get_method (msg);
  g_autoptr(GBytes) body = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *o;
  EtsFault fault = { 0 };

  if (g_str_equal (method, "DELETE"))
    {
      ets_fault_clear (&server->fault);
      server->fault_enabled = FALSE;
      ets_respond_text (msg, 200, "cleared\n");
      return;
    }
  if (!g_str_equal (method, "POST"))
    {
      soup_message_headers_replace (soup_server_message_get_response_headers (msg), "Allow", "POST, DELETE");
      ets_respond_text (msg, 405, "405 method not allowed\n");
      return;
    }

  body = soup_message_body_flatten (soup_server_message_get_request_body (msg));
  if (!json_parser_load_from_data (parser, g_bytes_get_data (body, NULL), g_bytes_get_size (body), &error) ||
      !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    {
      ets_respond_error (msg, ETS_CODE_INVALID_ARGUMENT,
                         error != NULL ? error->message : "expected a JSON object");
      return;
    }
  o = json_node_get_object (json_parser_get_root (parser));
  fault.delay_ms = json_object_get_int_member_with_default (o, "delay_ms", 0);
  if (json_object_has_member (o, "code"))
    {
      if (!ets_code_from_string (json_object_get_string_member_with_default (o, "code", ""), &fault.code))
        {
          ets_respond_error (msg, ETS_CODE_INVALID_ARGUMENT, "unknown code");
          return;
        }
      fault.has_code = TRUE;
    }
  fault.message = g_strdup (json_object_get_string_member_with_default (o, "message", NULL));
  fault.drop = json_object_get_boolean_member_with_default (o, "drop", FALSE);
  fault.truncate = json_object_get_boolean_member_with_default (o, "truncate", FALSE);
  fault.http_status = json_object_get_int_member_with_default (o, "http_status", 0);

  ets_fault_clear (&server->fault);
  server->fault = fault;
  server->fault_enabled = fault.delay_ms != 0 || fault.has_code || fault.drop ||
                          fault.truncate || fault.http_status != 0;
  server->fault_remaining = json_object_get_int_member_with_default (o, "count", 0);
  server->fault_every = json_object_get_int_member_with_default (o, "every", 0);
  server->n_fault_candidates = 0;
  ets_respond_text (msg, 200, server->fault_enabled ? "set\n" : "cleared\n");
}

/* ---- auth and tenants ---------------------------------------------------- */

static gboolean
check_auth (EtsServer         *server,
            SoupServerMessage *msg)
{
  const char *auth;

  if (server->basic_auth == NULL && server->bearer == NULL)
    return TRUE;

  auth = soup_message_headers_get_one (soup_server_message_get_request_headers (msg), "Authorization");
  if (auth != NULL && server->basic_auth != NULL && g_ascii_strncasecmp (auth, "Basic ", 6) == 0)
    {
      gsize len = 0;
      g_autofree guchar *decoded = g_base64_decode (auth + 6, &len);
      g_autofree char *text = g_strndup ((const char *) decoded, len);

      if (g_str_equal (text, server->basic_auth))
        return TRUE;
    }
  if (auth != NULL && server->bearer != NULL && g_ascii_strncasecmp (auth, "Bearer ", 7) == 0 &&
      g_str_equal (auth + 7, server->bearer))
    return TRUE;

  if (server->basic_auth != NULL)
    soup_message_headers_replace (soup_server_message_get_response_headers (msg),
                                  "WWW-Authenticate", "Basic realm=\"embers-test-server\"");
  ets_respond_error (msg, ETS_CODE_UNAUTHENTICATED,
                     auth == NULL ? "authentication required" : "invalid credentials");
  return FALSE;
}

/* NULL (and the 401 answered) when multi-tenancy is on and the header is
 * missing; "anonymous" without multi-tenancy, as Pyroscope does */
static char *
tenant_for (EtsServer         *server,
            SoupServerMessage *msg)
{
  const char *org;

  if (!server->multitenancy)
    return g_strdup ("anonymous");
  org = soup_message_headers_get_one (soup_server_message_get_request_headers (msg), "X-Scope-OrgID");
  if (org == NULL || org[0] == '\0')
    {
      ets_respond_error (msg, ETS_CODE_UNAUTHENTICATED, "no org id");
      return NULL;
    }
  return g_strdup (org);
}

/* ---- routes -------------------------------------------------------------- */

static void handle_stats (EtsServer         *server,
                          SoupServerMessage *msg);

static const EtsMethod *
find_method (EtsServer  *server,
             const char *path)
{
  const EtsMethod *tables[] = {
    ets_querier_methods,
    server->recording_rules ? ets_rules_methods : NULL,
    ets_push_methods,
  };

  for (guint t = 0; t < G_N_ELEMENTS (tables); t++)
    for (const EtsMethod *m = tables[t]; m != NULL && m->service != NULL; m++)
      {
        gsize n = strlen (m->service);

        if (path[0] == '/' && strncmp (path + 1, m->service, n) == 0 &&
            path[n + 1] == '/' && g_str_equal (path + n + 2, m->method))
          {
            /* --no-diff: a server (or a proxy in front of it) without Diff */
            if (server->no_diff && tables[t] == ets_querier_methods && g_str_equal (m->method, "Diff"))
              return NULL;
            return m;
          }
      }
  return NULL;
}

static void
respond_json_text (SoupServerMessage *msg,
                   const char        *json)
{
  soup_server_message_set_status (msg, 200, NULL);
  soup_server_message_set_response (msg, "application/json", SOUP_MEMORY_COPY, json, strlen (json));
}

/* TRUE when the answer is sent later by whoever took the message over */
static gboolean
route (Request *req)
{
  EtsServer *server = req->server;
  SoupServerMessage *msg = req->msg;
  const char *method = soup_server_message_get_method (msg);
  const char *path = req->path;
  const EtsMethod *rpc;
  g_autofree char *tenant = NULL;

  if (g_str_equal (path, "/ready"))
    {
      ets_respond_text (msg, 200, "ready\n");
      return FALSE;
    }
  if (g_str_equal (path, CONTROL_PATH))
    {
      handle_control (server, msg);
      return FALSE;
    }
  if (g_str_equal (path, STATS_PATH))
    {
      handle_stats (server, msg);
      return FALSE;
    }

  if (!check_auth (server, msg))
    return FALSE;

  if (g_str_equal (path, "/api/v1/status/buildinfo"))
    {
      respond_json_text (msg,
                         "{\"status\":\"success\",\"data\":{\"version\":\"1.16.2-embers-test\","
                         "\"revision\":\"embers-test-server\",\"branch\":\"embers\","
                         "\"buildUser\":\"\",\"buildDate\":\"\",\"goVersion\":\"\"}}");
      return FALSE;
    }

  if (g_str_equal (path, "/ingest") || g_str_equal (path, "/pyroscope/ingest"))
    {
      if (!g_str_equal (method, "POST"))
        {
          soup_message_headers_replace (soup_server_message_get_response_headers (msg), "Allow", "POST");
          ets_respond_text (msg, 405, "405 method not allowed\n");
          return FALSE;
        }
      tenant = tenant_for (server, msg);
      if (tenant != NULL)
        return ets_ingest_handle (server, msg, req->query, tenant);
      return FALSE;
    }

  rpc = find_method (server, path);
  if (rpc == NULL)
    {
      ets_respond_text (msg, 404, "404 page not found\n");
      return FALSE;
    }
  if (!g_str_equal (method, "POST"))
    {
      /* No method is marked side-effect-free, so connect-go refuses GET */
      soup_message_headers_replace (soup_server_message_get_response_headers (msg), "Allow", "POST");
      soup_server_message_set_status (msg, 405, NULL);
      return FALSE;
    }
  tenant = tenant_for (server, msg);
  if (tenant == NULL)
    return FALSE;
  ets_connect_dispatch (server, rpc, msg, tenant);
  return FALSE;
}

static void
process (Request *req)
{
  SoupServerMessage *msg = req->msg;
  const EtsFault *fault = &req->fault;

  if (fault->drop)
    {
      if (req->server->verbose)
        g_printerr ("embers-test-server: %s: dropping the connection\n", req->path);
      steal_and_close (msg, NULL);
      return;
    }
  if (fault->http_status >= 400)
    {
      g_autofree char *page = g_strdup_printf ("<html><head><title>%u %s</title></head><body>"
                                               "<center><h1>%u %s</h1></center><hr>"
                                               "<center>embers-test-server</center></body></html>\n",
                                               fault->http_status, soup_status_get_phrase (fault->http_status),
                                               fault->http_status, soup_status_get_phrase (fault->http_status));
      soup_server_message_set_status (msg, fault->http_status, NULL);
      soup_server_message_set_response (msg, "text/html", SOUP_MEMORY_COPY, page, strlen (page));
    }
  else if (fault->has_code)
    ets_respond_error (msg, fault->code,
                       fault->message != NULL ? fault->message : "injected fault (embers-test-server)");
  else if (route (req))
    return;

  if (fault->truncate)
    {
      if (req->server->verbose)
        g_printerr ("embers-test-server: %s: truncating the body\n", req->path);
      send_truncated (msg);
      return;
    }
  if (req->paused)
    soup_server_message_unpause (msg);
}

/* ---- request statistics --------------------------------------------------- */

static void
stats_add (GHashTable *table,
           const char *path,
           int         delta)
{
  int n = GPOINTER_TO_INT (g_hash_table_lookup (table, path)) + delta;

  g_hash_table_replace (table, g_strdup (path), GINT_TO_POINTER (n));
}

/* The test hooks (/embers-test/…) are not counted */
static gboolean
is_counted (const char *path)
{
  return !g_str_has_prefix (path, "/embers-test/");
}

static void
stats_begin (EtsServer  *server,
             const char *path)
{
  int now;

  if (!is_counted (path))
    return;
  stats_add (server->n_requests, path, 1);
  stats_add (server->in_flight, path, 1);
  now = GPOINTER_TO_INT (g_hash_table_lookup (server->in_flight, path));
  if (now > GPOINTER_TO_INT (g_hash_table_lookup (server->max_in_flight, path)))
    g_hash_table_replace (server->max_in_flight, g_strdup (path), GINT_TO_POINTER (now));
}

/* The connection a request came on, by the client's address and port: a
 * client that reuses its connection shows one peer for many requests */
static void
stats_peer (EtsServer         *server,
            SoupServerMessage *msg,
            const char        *path)
{
  GSocketAddress *addr = soup_server_message_get_remote_address (msg);
  g_autofree char *key = NULL;

  if (!is_counted (path) || !G_IS_INET_SOCKET_ADDRESS (addr))
    return;
  {
    g_autofree char *ip = g_inet_address_to_string (g_inet_socket_address_get_address (G_INET_SOCKET_ADDRESS (addr)));
    key = g_strdup_printf ("%s:%u", ip, g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (addr)));
  }
  stats_add (server->peers, key, 1);
}

/* Descriptors the process holds now (Linux: /proc/self/fd), or -1 */
static int
count_open_fds (void)
{
  g_autoptr(GDir) dir = g_dir_open ("/proc/self/fd", 0, NULL);
  int n = 0;

  if (dir == NULL)
    return -1;
  while (g_dir_read_name (dir) != NULL)
    n++;
  return n - 1;   /* the directory's own descriptor */
}

static void
stats_end (EtsServer  *server,
           const char *path)
{
  if (is_counted (path))
    stats_add (server->in_flight, path, -1);
}

static void
add_table (JsonBuilder *builder,
           const char  *name,
           GHashTable  *table)
{
  GHashTableIter iter;
  gpointer key, value;

  json_builder_set_member_name (builder, name);
  json_builder_begin_object (builder);
  g_hash_table_iter_init (&iter, table);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      json_builder_set_member_name (builder, key);
      json_builder_add_int_value (builder, GPOINTER_TO_INT (value));
    }
  json_builder_end_object (builder);
}

/* GET: {"requests":{path:n},"maxInFlight":{path:n},"inFlight":{path:n}};
 * DELETE: reset */
static void
handle_stats (EtsServer         *server,
              SoupServerMessage *msg)
{
  const char *method = soup_server_message_get_method (msg);
  g_autoptr(JsonBuilder) builder = NULL;
  g_autoptr(JsonGenerator) generator = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *text = NULL;

  if (g_str_equal (method, "DELETE"))
    {
      g_hash_table_remove_all (server->n_requests);
      g_hash_table_remove_all (server->max_in_flight);
      g_hash_table_remove_all (server->peers);
      ets_respond_text (msg, 200, "cleared\n");
      return;
    }
  if (!g_str_equal (method, "GET"))
    {
      ets_respond_text (msg, 405, "GET or DELETE\n");
      return;
    }
  builder = json_builder_new ();
  json_builder_begin_object (builder);
  add_table (builder, "requests", server->n_requests);
  add_table (builder, "maxInFlight", server->max_in_flight);
  add_table (builder, "inFlight", server->in_flight);
  add_table (builder, "peers", server->peers);
  json_builder_set_member_name (builder, "server");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "connections");
  json_builder_add_int_value (builder, g_hash_table_size (server->peers));
  json_builder_set_member_name (builder, "openFds");
  json_builder_add_int_value (builder, count_open_fds ());
  json_builder_end_object (builder);
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  generator = json_generator_new ();
  json_generator_set_root (generator, root);
  text = json_generator_to_data (generator, NULL);
  respond_json_text (msg, text);
}

static gboolean
on_delay_done (gpointer user_data)
{
  Request *req = user_data;

  process (req);
  stats_end (req->server, req->path);
  request_free (req);
  return G_SOURCE_REMOVE;
}

static void
handle (SoupServer        *soup,
        SoupServerMessage *msg,
        const char        *path,
        GHashTable        *query,
        gpointer           user_data)
{
  EtsServer *server = user_data;
  Request *req = g_new0 (Request, 1);

  req->server = server;
  req->msg = g_object_ref (msg);
  req->path = g_strdup (path);
  req->query = query != NULL ? g_hash_table_ref (query) : NULL;

  if (server->verbose)
    g_printerr ("embers-test-server: %s %s\n", soup_server_message_get_method (msg), path);

#if !SOUP_CHECK_VERSION (3, 3, 0)
  /* libsoup 3.2's server never closes a connection's socket: one
   * descriptor leaks per connection until the process runs out (fixed in
   * 3.3). Closing after each answer bounds them to the requests in flight,
   * at the price of connection reuse (test-client-server skips its
   * connection count there). */
  soup_message_headers_replace (soup_server_message_get_response_headers (msg), "Connection", "close");
#endif

  if (server->fault_enabled && path_takes_faults (path))
    {
      guint64 n = server->n_fault_candidates++;

      if (server->fault_every <= 1 || n % server->fault_every == server->fault_every - 1)
        {
          fault_copy (&server->fault, &req->fault);
          if (server->fault_remaining > 0 && --server->fault_remaining == 0)
            {
              ets_fault_clear (&server->fault);
              server->fault_enabled = FALSE;
            }
        }
    }
  fault_from_headers (soup_server_message_get_request_headers (msg), &req->fault);

  /* Connect-Timeout-Ms: a delay past the client's deadline ends, at the
   * deadline, in deadline_exceeded (as a Connect server's handler whose
   * context expired) */
  {
    const char *timeout = soup_message_headers_get_one (soup_server_message_get_request_headers (msg),
                                                        "Connect-Timeout-Ms");
    guint64 ms;

    if (timeout != NULL && !g_str_has_prefix (path, "/ingest") &&
        g_ascii_string_to_unsigned (timeout, 10, 0, 9999999999, &ms, NULL) &&
        req->fault.delay_ms > ms && !req->fault.drop && req->fault.http_status == 0)
      {
        req->fault.delay_ms = ms;
        req->fault.has_code = TRUE;
        req->fault.code = ETS_CODE_DEADLINE_EXCEEDED;
        g_free (req->fault.message);
        req->fault.message = g_strdup ("the request's deadline (Connect-Timeout-Ms) passed");
        req->fault.truncate = FALSE;
      }
  }

  stats_begin (server, path);
  stats_peer (server, msg, path);
  if (req->fault.delay_ms > 0)
    {
      req->paused = TRUE;
      soup_server_message_pause (msg);
      g_timeout_add (req->fault.delay_ms, on_delay_done, req);
      return;
    }
  process (req);
  stats_end (server, path);
  request_free (req);
}

/* ---- main ---------------------------------------------------------------- */

static gboolean
on_signal (gpointer user_data)
{
  g_main_loop_quit (user_data);
  return G_SOURCE_CONTINUE;
}

static gint64
parse_now (const char *text,
           GError    **error)
{
  guint64 v;

  if (text == NULL)
    return 0;
  if (!g_ascii_string_to_unsigned (text, 10, 1, G_MAXINT64, &v, error))
    return -1;
  /* seconds or milliseconds */
  return v < 100000000000ull ? (gint64) v * 1000 : (gint64) v;
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(SoupServer) soup = NULL;
  g_autoptr(GMainLoop) loop = NULL;
  g_autoptr(GInetAddress) loopback = NULL;
  g_autoptr(GSocketAddress) address = NULL;
  g_autofree char *data_dir = NULL;
  g_autofree char *now_text = NULL;
  g_autofree char *provisioned = NULL;
  g_autofree char *fault_code = NULL;
  g_autofree char *fault_message = NULL;
  GSList *listeners;
  EtsServer server = { 0 };
  int port = 4040;
  int max_rules = 25;
  int fault_delay = 0, fault_http = 0, fault_count = 0, fault_every = 0;
  gboolean fault_drop = FALSE, fault_truncate = FALSE;
  gint64 now_ms;
  g_autofree char *tls_cert = NULL;
  g_autofree char *tls_key = NULL;
  g_autoptr(GTlsCertificate) certificate = NULL;
  GOptionEntry entries[] = {
    { "port", 'p', 0, G_OPTION_ARG_INT, &port, "Port on 127.0.0.1 (0: any free port; default 4040)", "PORT" },
    { "data", 'd', 0, G_OPTION_ARG_FILENAME, &data_dir, "Folder with manifest.json (default: the committed demo data)", "DIR" },
    { "now", 0, 0, G_OPTION_ARG_STRING, &now_text, "Fixed \"now\" in Unix seconds or ms (reproducible data)", "TIME" },
    { "multitenancy", 0, 0, G_OPTION_ARG_NONE, &server.multitenancy, "Require X-Scope-OrgID", NULL },
    { "basic-auth", 0, 0, G_OPTION_ARG_STRING, &server.basic_auth, "Require HTTP Basic auth", "USER:PASS" },
    { "bearer", 0, 0, G_OPTION_ARG_STRING, &server.bearer, "Accept Authorization: Bearer TOKEN", "TOKEN" },
    { "recording-rules", 0, 0, G_OPTION_ARG_NONE, &server.recording_rules, "Serve settings.v1.RecordingRulesService", NULL },
    { "v1-querier", 0, 0, G_OPTION_ARG_NONE, &server.v1_querier, "Refuse exemplars and profile ids as 1.x's querier does", NULL },
    { "max-rules", 0, 0, G_OPTION_ARG_INT, &max_rules, "Recording rules per tenant (default 25; 0: no limit)", "N" },
    { "provisioned", 0, 0, G_OPTION_ARG_FILENAME, &provisioned, "Provisioned recording rules (JSON list)", "FILE" },
    { "fault-delay-ms", 0, 0, G_OPTION_ARG_INT, &fault_delay, "Delay every RPC", "MS" },
    { "fault-code", 0, 0, G_OPTION_ARG_STRING, &fault_code, "Fail every RPC with this Connect code", "CODE" },
    { "fault-message", 0, 0, G_OPTION_ARG_STRING, &fault_message, "Message for --fault-code", "TEXT" },
    { "fault-drop", 0, 0, G_OPTION_ARG_NONE, &fault_drop, "Close the connection without answering", NULL },
    { "fault-truncate", 0, 0, G_OPTION_ARG_NONE, &fault_truncate, "Send half of each body, then close", NULL },
    { "fault-http", 0, 0, G_OPTION_ARG_INT, &fault_http, "Answer with a bare HTTP error page", "STATUS" },
    { "fault-count", 0, 0, G_OPTION_ARG_INT, &fault_count, "Only the first N faulty requests, then recover", "N" },
    { "fault-every", 0, 0, G_OPTION_ARG_INT, &fault_every, "Only every Nth request is faulty", "N" },
    { "no-diff", 0, 0, G_OPTION_ARG_NONE, &server.no_diff, "Serve no Diff RPC (a plain 404, as without the route)", NULL },
    { "tls-cert", 0, 0, G_OPTION_ARG_FILENAME, &tls_cert, "Serve HTTPS with this PEM certificate (with --tls-key)", "FILE" },
    { "tls-key", 0, 0, G_OPTION_ARG_FILENAME, &tls_key, "The PEM private key of --tls-cert", "FILE" },
    { "verbose", 'v', 0, G_OPTION_ARG_NONE, &server.verbose, "Log requests on stderr", NULL },
    { NULL }
  };

  context = g_option_context_new ("- a Grafana Pyroscope look-alike for Embers' tests");
  g_option_context_set_description (context,
    "Per-request faults: headers X-Embers-Fault-Delay-Ms, X-Embers-Fault-Code,\n"
    "X-Embers-Fault-Message, X-Embers-Fault-Drop, X-Embers-Fault-Truncate,\n"
    "X-Embers-Fault-Http; or POST " CONTROL_PATH " {\"code\":\"unavailable\",\"count\":1}.\n");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("embers-test-server: %s\n", error->message);
      return 2;
    }
  if (port < 0 || port > 65535 || max_rules < 0)
    {
      g_printerr ("embers-test-server: bad --port or --max-rules\n");
      return 2;
    }
  if (server.basic_auth != NULL && strchr (server.basic_auth, ':') == NULL)
    {
      g_printerr ("embers-test-server: --basic-auth takes USER:PASS\n");
      return 2;
    }

  now_ms = parse_now (now_text, &error);
  if (now_ms < 0)
    {
      g_printerr ("embers-test-server: --now: %s\n", error->message);
      return 2;
    }

  server.store = ets_store_new (now_ms);
  if (!ets_store_load (server.store, data_dir != NULL ? data_dir : EMBERS_TEST_SERVER_DATA, &error))
    {
      g_printerr ("embers-test-server: %s\n", error->message);
      ets_store_free (server.store);
      return 1;
    }

  server.max_rules = max_rules;
  server.rules = ets_rules_new (max_rules);
  if (provisioned != NULL && !ets_rules_load_provisioned (server.rules, provisioned, &error))
    {
      g_printerr ("embers-test-server: %s\n", error->message);
      return 1;
    }

  if (fault_code != NULL)
    {
      if (!ets_code_from_string (fault_code, &server.fault.code))
        {
          g_printerr ("embers-test-server: unknown Connect code \"%s\"\n", fault_code);
          return 2;
        }
      server.fault.has_code = TRUE;
    }
  server.fault.message = g_strdup (fault_message);
  server.n_requests = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  server.in_flight = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  server.max_in_flight = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  server.peers = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  server.fault.delay_ms = MAX (fault_delay, 0);
  server.fault.drop = fault_drop;
  server.fault.truncate = fault_truncate;
  server.fault.http_status = MAX (fault_http, 0);
  server.fault_enabled = server.fault.has_code || server.fault.delay_ms > 0 || fault_drop ||
                         fault_truncate || server.fault.http_status > 0;
  server.fault_remaining = MAX (fault_count, 0);
  server.fault_every = MAX (fault_every, 0);

  if ((tls_cert != NULL) != (tls_key != NULL))
    {
      g_printerr ("embers-test-server: --tls-cert and --tls-key go together\n");
      return 2;
    }
  if (tls_cert != NULL)
    {
      certificate = g_tls_certificate_new_from_files (tls_cert, tls_key, &error);
      if (certificate == NULL)
        {
          g_printerr ("embers-test-server: %s\n", error->message);
          return 1;
        }
    }

  soup = soup_server_new ("server-header", "embers-test-server", "tls-certificate", certificate, NULL);
  soup_server_add_handler (soup, NULL, handle, &server, NULL);

  loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  address = g_inet_socket_address_new (loopback, port);
  if (!soup_server_listen (soup, address, certificate != NULL ? SOUP_SERVER_LISTEN_HTTPS : 0, &error))
    {
      g_printerr ("embers-test-server: cannot listen on 127.0.0.1:%d: %s\n", port, error->message);
      return 1;
    }

  /* The bound port from the listening socket (soup_server_get_uris
   * leaks a socket address in libsoup 3.2) */
  listeners = soup_server_get_listeners (soup);
  if (listeners != NULL)
    {
      g_autoptr(GSocketAddress) local = g_socket_get_local_address (listeners->data, &error);

      if (local == NULL)
        {
          g_printerr ("embers-test-server: %s\n", error->message);
          return 1;
        }
      printf ("listening on %s://127.0.0.1:%u/\n", certificate != NULL ? "https" : "http",
              g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (local)));
      fflush (stdout);
    }
  g_slist_free (listeners);

  loop = g_main_loop_new (NULL, FALSE);
  g_unix_signal_add (SIGTERM, on_signal, loop);
  g_unix_signal_add (SIGINT, on_signal, loop);
  g_main_loop_run (loop);

  /* Close the listener and the open connections (keep-alive clients),
   * and let their closing run, so leak checkers see a clean exit */
  soup_server_disconnect (soup);
  g_clear_object (&soup);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  ets_rules_free (server.rules);
  ets_store_free (server.store);
  ets_fault_clear (&server.fault);
  g_free (server.basic_auth);
  g_free (server.bearer);
  g_hash_table_unref (server.n_requests);
  g_hash_table_unref (server.peers);
  g_hash_table_unref (server.in_flight);
  g_hash_table_unref (server.max_in_flight);
  return 0;
}
