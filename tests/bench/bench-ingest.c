/* bench-ingest.c: how long the test server takes to ingest a big pprof, and
 * whether it keeps answering meanwhile.
 *
 *   bench-ingest [--samples N] [--gen PATH]
 *
 * Makes a pprof of N samples (100000) with gen-pprof, starts
 * embers-test-server, POSTs the gzipped profile to /ingest as the Go SDK
 * does (multipart, a "profile" part) and, while that runs, asks GET /ready
 * over and over on another connection. Prints the ingest time, how many
 * /ready answers came during it and the slowest of them, then the time of
 * a merged flame graph of what was ingested. Asserts nothing about time.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gstdio.h>
#include <libsoup/soup.h>

#include "embers-test-server-spawn.h"

typedef struct
{
  gboolean  ingest_done;
  guint     ingest_status;
  double    ingest_s;
  guint     ready_during;
  double    ready_max_s;
  double    t0;
  double    ready_t0;
  SoupSession *ready_session;
  char     *ready_url;
} Bench;

static double
now_s (void)
{
  return g_get_monotonic_time () / 1e6;
}

static void ask_ready (Bench *b);

static void
on_ready (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  Bench *b = user_data;
  g_autoptr(GBytes) body = soup_session_send_and_read_finish (SOUP_SESSION (object), result, NULL);

  if (b->ingest_done)
    return;
  b->ready_during++;
  b->ready_max_s = MAX (b->ready_max_s, now_s () - b->ready_t0);
  ask_ready (b);
}

static void
ask_ready (Bench *b)
{
  g_autoptr(SoupMessage) msg = soup_message_new ("GET", b->ready_url);

  b->ready_t0 = now_s ();
  soup_session_send_and_read_async (b->ready_session, msg, G_PRIORITY_DEFAULT, NULL, on_ready, b);
}

static void
on_ingested (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  Bench *b = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) body = soup_session_send_and_read_finish (SOUP_SESSION (object), result, &error);
  SoupMessage *msg = soup_session_get_async_result_message (SOUP_SESSION (object), result);

  b->ingest_s = now_s () - b->t0;
  b->ingest_status = body != NULL ? soup_message_get_status (msg) : 0;
  if (error != NULL)
    g_printerr ("ingest: %s\n", error->message);
  b->ingest_done = TRUE;
}

int
main (int    argc,
      char **argv)
{
  gint64 n_samples = 100000;
  g_autofree char *gen = NULL;
  GOptionEntry entries[] = {
    { "samples", 0, 0, G_OPTION_ARG_INT64, &n_samples, "Samples in the profile (100000)", "N" },
    { "gen", 0, 0, G_OPTION_ARG_FILENAME, &gen, "The gen-pprof program", "PATH" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("- the test server's ingest of a big pprof");
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *raw = NULL;
  g_autofree char *gz = NULL;
  g_autofree char *samples = NULL;
  g_autofree char *url = NULL;
  g_autofree char *query_url = NULL;
  g_autofree char *contents = NULL;
  gsize len = 0;
  g_autoptr(EmbersTestServer) server = NULL;
  g_autoptr(SoupSession) session = NULL;
  g_autoptr(SoupMultipart) multipart = NULL;
  g_autoptr(SoupMessage) msg = NULL;
  g_autoptr(GBytes) body = NULL;
  g_autoptr(GBytes) profile = NULL;
  Bench b = { 0 };
  int status = 0;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("bench-ingest: %s\n", error->message);
      return 2;
    }
  if (gen == NULL)
    {
      g_autofree char *self_dir = g_path_get_dirname (argv[0]);
      gen = g_build_filename (self_dir, "gen-pprof", NULL);
    }

  dir = g_dir_make_tmp ("bench-ingest-XXXXXX", &error);
  g_assert_no_error (error);
  raw = g_build_filename (dir, "big.pb", NULL);
  gz = g_strconcat (raw, ".gz", NULL);
  samples = g_strdup_printf ("%" G_GINT64_FORMAT, n_samples);
  {
    const char *gen_argv[] = { gen, raw, "--samples", samples, "--gzip", NULL };

    if (!g_spawn_sync (NULL, (char **) gen_argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL,
                       NULL, NULL, &status, &error) ||
        !g_spawn_check_wait_status (status, &error))
      {
        g_printerr ("bench-ingest: gen-pprof: %s\n", error->message);
        return 1;
      }
  }
  g_file_get_contents (gz, &contents, &len, &error);
  g_assert_no_error (error);
  profile = g_bytes_new_take (g_steal_pointer (&contents), len);
  g_print ("# pprof: %" G_GINT64_FORMAT " samples, %" G_GSIZE_FORMAT " bytes gzipped\n", n_samples, len);

  server = embers_test_server_start ((const char *[]) { "--now", "1700000000000", NULL }, &error);
  g_assert_no_error (error);

  session = soup_session_new_with_options ("timeout", 1200, NULL);
  b.ready_session = soup_session_new_with_options ("timeout", 1200, NULL);
  b.ready_url = g_strconcat (embers_test_server_get_url (server), "ready", NULL);

  multipart = soup_multipart_new ("multipart/form-data");
  soup_multipart_append_form_file (multipart, "profile", "profile.pprof", "application/octet-stream", profile);
  msg = soup_message_new ("POST", (url = g_strconcat (embers_test_server_get_url (server),
                                                      "ingest?name=big.cpu&from=1699999990&spyName=gospy", NULL)));
  {
    g_autoptr(SoupMessageHeaders) headers = soup_message_headers_new (SOUP_MESSAGE_HEADERS_MULTIPART);
    soup_multipart_to_message (multipart, headers, &body);
    soup_message_set_request_body_from_bytes (msg, soup_message_headers_get_one (headers, "Content-Type"), body);
  }

  b.t0 = now_s ();
  soup_session_send_and_read_async (session, msg, G_PRIORITY_DEFAULT, NULL, on_ingested, &b);
  ask_ready (&b);
  while (!b.ingest_done)
    g_main_context_iteration (NULL, TRUE);

  g_print ("ingest: HTTP %u in %.2f s; /ready answered %u times meanwhile, the slowest in %.1f ms\n",
           b.ingest_status, b.ingest_s, b.ready_during, b.ready_max_s * 1000);

  {
    static const char query[] = "{\"profileTypeID\":\"process_cpu:cpu:nanoseconds:cpu:nanoseconds\","
                                "\"labelSelector\":\"{service_name=\\\"big\\\"}\","
                                "\"start\":\"1699999000000\",\"end\":\"1700000000000\"}";
    g_autoptr(SoupMessage) q = NULL;
    g_autoptr(GBytes) answer = NULL;
    double t0;

    query_url = g_strconcat (embers_test_server_get_url (server),
                             "querier.v1.QuerierService/SelectMergeStacktraces", NULL);
    q = soup_message_new ("POST", query_url);
    {
      g_autoptr(GBytes) query_body = g_bytes_new_static (query, sizeof query - 1);
      soup_message_set_request_body_from_bytes (q, "application/json", query_body);
    }
    t0 = now_s ();
    answer = soup_session_send_and_read (session, q, NULL, &error);
    g_assert_no_error (error);
    g_print ("merge of what was ingested: HTTP %u, %" G_GSIZE_FORMAT " bytes in %.2f s\n",
             soup_message_get_status (q), g_bytes_get_size (answer), now_s () - t0);
  }

  g_object_unref (b.ready_session);
  g_free (b.ready_url);
  g_unlink (raw);
  g_unlink (gz);
  g_rmdir (dir);
  return b.ingest_status == 200 ? 0 : 1;
}
