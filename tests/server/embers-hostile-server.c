/* embers-hostile-server.c: an HTTP server that misbehaves on purpose, for
 * testing that Embers ends every exchange with a clear error in bounded
 * time and never shows a partial answer as whole.
 *
 *   embers-hostile-server [--port N]
 *
 * Prints "listening on http://127.0.0.1:PORT/" and serves every mode at
 * once: the first path segment picks it, so http://127.0.0.1:PORT/MODE is a
 * server address (Embers' base URL is an opaque prefix) and the RPCs under
 * it misbehave that way. Modes:
 *
 *   deep-json     a 500 whose Connect error JSON nests 80,000 levels deep
 *   chunked-cut   a valid answer, chunked, whose connection closes after
 *                 half of its entries, before the last chunk
 *   empty-200     200 with an empty body and no content type
 *   no-content    204 No Content
 *   foreign-json  200 with another API's JSON (Prometheus')
 *   slowloris     the status line, then a header byte every 200 ms, forever
 *   endless       200 application/proto, a chunked body that never ends
 *   length-lie    Content-Length of 1 MB, 2 KB sent, then the connection closes
 *   gzip-bomb     200 application/proto, Content-Encoding gzip: 1 MB that
 *                 inflates to 1 GiB of zeros
 *   redirect-loop 302 to the same address, every time
 *   ok            a well-behaved answer (for the test's own check)
 *
 * Every answer ends the connection. Loopback only; each connection is
 * served by a thread and ends by itself (slowloris and endless after at
 * most 120 s, or as soon as the client goes).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <stdio.h>
#include <string.h>

#include <gio/gio.h>
#include <zlib.h>

#include "querier.pb-c.h"
#include "types.pb-c.h"

#define DEEP_LEVELS   80000
#define BOMB_BYTES    ((gsize) 1 << 30)
#define MAX_SECONDS   120

static GBytes *bomb;
static GMutex  bomb_lock;

/* ---- answers ------------------------------------------------------------ */

static GBytes *
pack (const ProtobufCMessage *message)
{
  gsize len = protobuf_c_message_get_packed_size (message);
  guint8 *buf = g_malloc (MAX (len, 1));

  protobuf_c_message_pack (message, buf);
  return g_bytes_new_take (buf, len);
}

/* A valid answer to method, and where half of its entries end (a field
 * boundary: what is before it decodes by itself) */
static GBytes *
valid_answer (const char *method,
              gsize      *half)
{
  GBytes *bytes;

  if (g_str_equal (method, "ProfileTypes"))
    {
      Types__V1__ProfileTypesResponse res = TYPES__V1__PROFILE_TYPES_RESPONSE__INIT;
      Types__V1__ProfileType types[4];
      Types__V1__ProfileType *list[4];
      static const char *ids[] = {
        "process_cpu:cpu:nanoseconds:cpu:nanoseconds", "memory:alloc_space:bytes:space:bytes",
        "memory:inuse_space:bytes:space:bytes", "goroutines:goroutine:count:goroutine:count",
      };

      for (guint i = 0; i < 4; i++)
        {
          types__v1__profile_type__init (&types[i]);
          types[i].id = (char *) ids[i];
          list[i] = &types[i];
        }
      res.n_profile_types = 2;
      res.profile_types = list;
      *half = protobuf_c_message_get_packed_size (&res.base);
      res.n_profile_types = 4;
      return pack (&res.base);
    }
  if (g_str_equal (method, "LabelNames") || g_str_equal (method, "LabelValues"))
    {
      Types__V1__LabelNamesResponse res = TYPES__V1__LABEL_NAMES_RESPONSE__INIT;
      char *names[] = { (char *) "__name__", (char *) "service_name", (char *) "region", (char *) "pod" };

      res.names = names;
      res.n_names = 2;
      *half = protobuf_c_message_get_packed_size (&res.base);
      res.n_names = 4;
      return pack (&res.base);
    }
  if (g_str_equal (method, "Series"))
    {
      Querier__V1__SeriesResponse res = QUERIER__V1__SERIES_RESPONSE__INIT;
      Types__V1__Labels sets[4];
      Types__V1__Labels *list[4];
      Types__V1__LabelPair pairs[4][2];
      Types__V1__LabelPair *pair_lists[4][2];
      static const char *services[] = { "api", "checkout", "worker", "web" };

      for (guint i = 0; i < 4; i++)
        {
          types__v1__labels__init (&sets[i]);
          types__v1__label_pair__init (&pairs[i][0]);
          types__v1__label_pair__init (&pairs[i][1]);
          pairs[i][0].name = (char *) "service_name";
          pairs[i][0].value = (char *) services[i];
          pairs[i][1].name = (char *) "__profile_type__";
          pairs[i][1].value = (char *) "process_cpu:cpu:nanoseconds:cpu:nanoseconds";
          pair_lists[i][0] = &pairs[i][0];
          pair_lists[i][1] = &pairs[i][1];
          sets[i].labels = pair_lists[i];
          sets[i].n_labels = 2;
          list[i] = &sets[i];
        }
      res.labels_set = list;
      res.n_labels_set = 2;
      *half = protobuf_c_message_get_packed_size (&res.base);
      res.n_labels_set = 4;
      return pack (&res.base);
    }

  /* SelectMergeStacktraces (and anything else): main;work 3, main 1 */
  {
    Querier__V1__SelectMergeStacktracesResponse res = QUERIER__V1__SELECT_MERGE_STACKTRACES_RESPONSE__INIT;
    Querier__V1__FlameGraph graph = QUERIER__V1__FLAME_GRAPH__INIT;
    Querier__V1__Level levels[3];
    Querier__V1__Level *level_list[3];
    int64_t v0[] = { 0, 4, 0, 0 }, v1[] = { 0, 4, 1, 1 }, v2[] = { 1, 3, 3, 2 };
    int64_t *values[] = { v0, v1, v2 };
    char *names[] = { (char *) "total", (char *) "main", (char *) "hostile.work" };

    for (guint i = 0; i < 3; i++)
      {
        querier__v1__level__init (&levels[i]);
        levels[i].values = values[i];
        levels[i].n_values = 4;
        level_list[i] = &levels[i];
      }
    graph.names = names;
    graph.n_names = 3;
    graph.levels = level_list;
    graph.n_levels = 3;
    graph.total = 4;
    graph.has_total = TRUE;
    graph.max_self = 3;
    graph.has_max_self = TRUE;
    res.flamegraph = &graph;
    bytes = pack (&res.base);
    *half = g_bytes_get_size (bytes) / 2;
    return bytes;
  }
}

/* 1 GiB of zeros, gzipped once (about 1 MB), on first use */
static GBytes *
get_bomb (void)
{
  g_mutex_lock (&bomb_lock);
  if (bomb == NULL)
    {
      /* Built from one compressed megabyte of zeros, repeated: each ends
       * in a sync flush (byte-aligned, nothing refers back past it), so
       * the copies in a row are one valid deflate stream; then an empty
       * final block and the gzip trailer (CRC-32 and size of the whole).
       * Milliseconds, not the seconds that deflating 1 GiB takes (which
       * a loaded machine stretched past the client's deadline). */
      static const guint8 header[10] = { 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff };
      g_autofree guint8 *zeros = g_malloc0 (1 << 20);
      g_autoptr(GByteArray) segment = g_byte_array_new ();
      g_autoptr(GByteArray) last = g_byte_array_new ();
      GByteArray *out = g_byte_array_new ();
      guint8 buf[64 * 1024];
      guint8 trailer[8];
      uLong crc_block = crc32 (crc32 (0, NULL, 0), zeros, 1 << 20);
      uLong crc = crc32 (0, NULL, 0);
      z_stream z = { 0 };

      deflateInit2 (&z, 9, Z_DEFLATED, -MAX_WBITS, 9, Z_DEFAULT_STRATEGY);
      z.next_in = zeros;
      z.avail_in = 1 << 20;
      do
        {
          z.next_out = buf;
          z.avail_out = sizeof buf;
          deflate (&z, Z_SYNC_FLUSH);
          g_byte_array_append (segment, buf, sizeof buf - z.avail_out);
        }
      while (z.avail_out == 0);
      deflateEnd (&z);

      memset (&z, 0, sizeof z);
      deflateInit2 (&z, 9, Z_DEFLATED, -MAX_WBITS, 9, Z_DEFAULT_STRATEGY);
      z.next_out = buf;
      z.avail_out = sizeof buf;
      deflate (&z, Z_FINISH);
      g_byte_array_append (last, buf, sizeof buf - z.avail_out);
      deflateEnd (&z);

      g_byte_array_append (out, header, sizeof header);
      for (gsize done = 0; done < BOMB_BYTES; done += 1 << 20)
        {
          g_byte_array_append (out, segment->data, segment->len);
          crc = crc32_combine (crc, crc_block, 1 << 20);
        }
      g_byte_array_append (out, last->data, last->len);
      for (int i = 0; i < 4; i++)
        {
          trailer[i] = (crc >> (8 * i)) & 0xff;
          trailer[4 + i] = ((guint32)BOMB_BYTES >> (8 * i)) & 0xff;
        }
      g_byte_array_append (out, trailer, sizeof trailer);
      bomb = g_byte_array_free_to_bytes (out);
    }
  g_mutex_unlock (&bomb_lock);
  return g_bytes_ref (bomb);
}

/* ---- a connection --------------------------------------------------------- */

static gboolean
send_all (GOutputStream *out,
          const void    *data,
          gsize          len)
{
  return g_output_stream_write_all (out, data, len, NULL, NULL, NULL);
}

static gboolean
send_text (GOutputStream *out,
           const char    *text)
{
  return send_all (out, text, strlen (text));
}

static gboolean
send_chunk (GOutputStream *out,
            const void    *data,
            gsize          len)
{
  g_autofree char *head = g_strdup_printf ("%" G_GSIZE_MODIFIER "x\r\n", len);

  return send_text (out, head) && send_all (out, data, len) && send_text (out, "\r\n");
}

/* The request line's path and the request's body, read and dropped */
static char *
read_request (GInputStream *in)
{
  g_autoptr(GString) head = g_string_new (NULL);
  g_auto(GStrv) lines = NULL;
  g_auto(GStrv) request = NULL;
  guint64 length = 0;
  char c;

  while (!g_str_has_suffix (head->str, "\r\n\r\n"))
    {
      if (g_input_stream_read (in, &c, 1, NULL, NULL) != 1 || head->len > 64 * 1024)
        return NULL;
      g_string_append_c (head, c);
    }
  lines = g_strsplit (head->str, "\r\n", -1);
  for (guint i = 1; lines[i] != NULL; i++)
    if (g_ascii_strncasecmp (lines[i], "content-length:", 15) == 0)
      g_ascii_string_to_unsigned (g_strstrip (lines[i] + 15), 10, 0, 64 << 20, &length, NULL);
  while (length > 0)
    {
      guint8 buf[4096];
      gssize n = g_input_stream_read (in, buf, MIN (length, sizeof buf), NULL, NULL);

      if (n <= 0)
        return NULL;
      length -= n;
    }
  request = g_strsplit (lines[0], " ", 3);
  if (request[0] == NULL || request[1] == NULL)
    return NULL;
  return g_strdup (request[1]);
}

static gboolean
serve (GThreadedSocketService *service,
       GSocketConnection      *connection,
       GObject                *source,
       gpointer                user_data)
{
  GInputStream *in = g_io_stream_get_input_stream (G_IO_STREAM (connection));
  GOutputStream *out = g_io_stream_get_output_stream (G_IO_STREAM (connection));
  g_autofree char *path = read_request (in);
  g_auto(GStrv) parts = NULL;
  const char *mode, *method;
  gint64 until = g_get_monotonic_time () + MAX_SECONDS * G_USEC_PER_SEC;

  if (path == NULL)
    return TRUE;
  parts = g_strsplit (path[0] == '/' ? path + 1 : path, "/", -1);
  mode = parts[0] != NULL ? parts[0] : "";
  method = strrchr (path, '/') != NULL ? strrchr (path, '/') + 1 : "";

  if (g_str_equal (mode, "deep-json"))
    {
      g_autoptr(GString) body = g_string_new ("{\"code\":\"internal\",\"message\":\"deep\",\"details\":");
      g_autofree char *head = NULL;

      for (guint i = 0; i < DEEP_LEVELS; i++)
        g_string_append_c (body, '[');
      for (guint i = 0; i < DEEP_LEVELS; i++)
        g_string_append_c (body, ']');
      g_string_append_c (body, '}');
      head = g_strdup_printf ("HTTP/1.1 500 Internal Server Error\r\nContent-Type: application/json\r\n"
                              "Content-Length: %" G_GSIZE_FORMAT "\r\nConnection: close\r\n\r\n", body->len);
      if (send_text (out, head))
        send_all (out, body->str, body->len);
    }
  else if (g_str_equal (mode, "chunked-cut"))
    {
      gsize half = 0;
      g_autoptr(GBytes) answer = valid_answer (method, &half);

      if (send_text (out, "HTTP/1.1 200 OK\r\nContent-Type: application/proto\r\n"
                          "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"))
        send_chunk (out, g_bytes_get_data (answer, NULL), half);
      /* …and no more chunks, no last chunk: the connection closes */
    }
  else if (g_str_equal (mode, "empty-200"))
    send_text (out, "HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
  else if (g_str_equal (mode, "no-content"))
    send_text (out, "HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n");
  else if (g_str_equal (mode, "foreign-json"))
    {
      const char *body = "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[]}}";
      g_autofree char *head = g_strdup_printf ("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                                               "Content-Length: %" G_GSIZE_FORMAT "\r\nConnection: close\r\n\r\n",
                                               strlen (body));
      if (send_text (out, head))
        send_text (out, body);
    }
  else if (g_str_equal (mode, "slowloris"))
    {
      const char *header = "X-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n";

      if (send_text (out, "HTTP/1.1 200 OK\r\n"))
        for (guint i = 0; g_get_monotonic_time () < until; i++)
          {
            if (!send_all (out, header + i % strlen (header), 1))
              break;
            g_usleep (200 * 1000);
          }
    }
  else if (g_str_equal (mode, "endless"))
    {
      static guint8 block[64 * 1024];

      /* Field 1 of length 0, again and again: it begins like an answer */
      for (gsize i = 0; i + 1 < sizeof block; i += 2)
        {
          block[i] = 0x0a;
          block[i + 1] = 0x00;
        }
      if (send_text (out, "HTTP/1.1 200 OK\r\nContent-Type: application/proto\r\n"
                          "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"))
        while (g_get_monotonic_time () < until && send_chunk (out, block, sizeof block))
          ;
    }
  else if (g_str_equal (mode, "length-lie"))
    {
      gsize half = 0;
      g_autoptr(GBytes) answer = valid_answer (method, &half);

      if (send_text (out, "HTTP/1.1 200 OK\r\nContent-Type: application/proto\r\n"
                          "Content-Length: 1000000\r\nConnection: close\r\n\r\n"))
        send_all (out, g_bytes_get_data (answer, NULL), g_bytes_get_size (answer));
    }
  else if (g_str_equal (mode, "gzip-bomb"))
    {
      g_autoptr(GBytes) body = get_bomb ();
      g_autofree char *head = g_strdup_printf ("HTTP/1.1 200 OK\r\nContent-Type: application/proto\r\n"
                                               "Content-Encoding: gzip\r\nContent-Length: %" G_GSIZE_FORMAT "\r\n"
                                               "Connection: close\r\n\r\n", g_bytes_get_size (body));
      if (send_text (out, head))
        send_all (out, g_bytes_get_data (body, NULL), g_bytes_get_size (body));
    }
  else if (g_str_equal (mode, "redirect-loop"))
    {
      g_autofree char *head = g_strdup_printf ("HTTP/1.1 302 Found\r\nLocation: %s\r\nContent-Length: 0\r\n"
                                               "Connection: close\r\n\r\n", path);
      send_text (out, head);
    }
  else if (g_str_equal (mode, "ok"))
    {
      gsize half = 0;
      g_autoptr(GBytes) answer = valid_answer (method, &half);
      g_autofree char *head = g_strdup_printf ("HTTP/1.1 200 OK\r\nContent-Type: application/proto\r\n"
                                               "Content-Length: %" G_GSIZE_FORMAT "\r\nConnection: close\r\n\r\n",
                                               g_bytes_get_size (answer));
      if (send_text (out, head))
        send_all (out, g_bytes_get_data (answer, NULL), g_bytes_get_size (answer));
    }
  else
    send_text (out, "HTTP/1.1 404 Not Found\r\nContent-Type: text/plain\r\nContent-Length: 19\r\n"
                    "Connection: close\r\n\r\n404 page not found\n");

  g_io_stream_close (G_IO_STREAM (connection), NULL, NULL);
  return TRUE;
}

int
main (int    argc,
      char **argv)
{
  int port = 0;
  GOptionEntry entries[] = {
    { "port", 'p', 0, G_OPTION_ARG_INT, &port, "Port on 127.0.0.1 (0: any free port)", "PORT" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("- an HTTP server that misbehaves, for tests");
  g_autoptr(GError) error = NULL;
  g_autoptr(GSocketService) service = NULL;
  g_autoptr(GInetAddress) loopback = NULL;
  g_autoptr(GSocketAddress) address = NULL;
  g_autoptr(GSocketAddress) effective = NULL;
  g_autoptr(GMainLoop) loop = NULL;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("embers-hostile-server: %s\n", error->message);
      return 2;
    }

  service = g_threaded_socket_service_new (64);
  loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  address = g_inet_socket_address_new (loopback, port);
  if (!g_socket_listener_add_address (G_SOCKET_LISTENER (service), address, G_SOCKET_TYPE_STREAM,
                                      G_SOCKET_PROTOCOL_TCP, NULL, &effective, &error))
    {
      g_printerr ("embers-hostile-server: cannot listen on 127.0.0.1:%d: %s\n", port, error->message);
      return 1;
    }
  /* The bomb packed before the server says it listens (milliseconds, but
   * then no request ever waits for it) */
  g_bytes_unref (get_bomb ());
  g_signal_connect (service, "run", G_CALLBACK (serve), NULL);
  g_socket_service_start (service);

  printf ("listening on http://127.0.0.1:%u/\n",
          g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (effective)));
  fflush (stdout);

  loop = g_main_loop_new (NULL, FALSE);
  g_main_loop_run (loop);
  return 0;
}
