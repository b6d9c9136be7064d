/* bench-fill.c: the cost of one fill-in of `other` on the test server,
 * against the full, uncut query, measured in the same run.
 *
 *   bench-fill [--stacks N] [--nodes M]
 *
 * Ingests N distinct stacks (40000; five frames deep, fan-out 20 × 20 ×
 * 10 × 10, values from a fixed generator) into embers-test-server, then:
 *
 * - the cut answer: SelectMergeStacktraces with max_nodes M (1024);
 * - one fill-in: the widest `other` frame's call site asked again with a
 *   stack_trace_selector and the budget M + its depth, merged into the cut
 *   answer (embers_fill_merge);
 * - the full query: max_nodes 1048576, nothing cut.
 *
 * Prints, for each, the wall time through EmbersPyroscopeSource (request,
 * decode, and for the fill-in the merge), the answer's bytes on the wire
 * (uncompressed protobuf, as a raw POST gets it) and the nodes; then the
 * fill-in's share of the full query's time and bytes. Best of 5 runs.
 * Then the merge alone into made profiles of 100,000 and a million nodes
 * (best of 3). Asserts nothing about time.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <string.h>

#include <libsoup/soup.h>

#include "embers-fill.h"
#include "embers-profile-builder.h"
#include "embers-readers.h"
#include "embers-pyroscope-source.h"
#include "embers-test-server-spawn.h"
#include "querier.pb-c.h"
#include "types.pb-c.h"

#define TYPE "memory:alloc_objects:count:space:bytes"
#define RUNS 5

static double
now_s (void)
{
  return g_get_monotonic_time () / 1e6;
}

static void
on_done (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_set_object ((GAsyncResult **) user_data, result);
}

static GAsyncResult *
wait_result (GAsyncResult **result)
{
  while (*result == NULL)
    g_main_context_iteration (NULL, TRUE);
  return *result;
}

static char *
make_stacks (guint n)
{
  GString *out = g_string_new (NULL);
  guint32 seed = 12345;
  guint i = 0;

  for (guint a = 0; a < 20 && i < n; a++)
    for (guint b = 0; b < 20 && i < n; b++)
      for (guint c = 0; c < 10 && i < n; c++)
        for (guint d = 0; d < 10 && i < n; d++, i++)
          {
            seed = seed * 1103515245u + 12345u;
            /* a few services and handlers weigh most, as in real profiles */
            g_string_append_printf (out, "main;service_%u;handler_%u_%u;step_%u;leaf_%u %u\n",
                                    a, a, b, c, d, 1 + (seed >> 16) % 1000 * 40 / ((a + 1) * (b + 1)));
          }
  return g_string_free (out, FALSE);
}

static void
post (SoupSession *session,
      const char  *url,
      const char  *content_type,
      gconstpointer data,
      gsize        size,
      GBytes     **out)
{
  g_autoptr(SoupMessage) msg = soup_message_new ("POST", url);
  g_autoptr(GError) error = NULL;
  GBytes *answer;

  soup_message_set_request_body_from_bytes (msg, content_type, g_bytes_new (data, size));
  answer = soup_session_send_and_read (session, msg, NULL, &error);
  g_assert_no_error (error);
  if (soup_message_get_status (msg) != 200)
    g_error ("%s: HTTP %u", url, soup_message_get_status (msg));
  if (out != NULL)
    *out = answer;
  else
    g_bytes_unref (answer);
}

/* The answer's size for this request, uncompressed protobuf */
static gsize
answer_bytes (SoupSession        *session,
              const char         *base,
              const EmbersQuery  *query,
              const char * const *site)
{
  Querier__V1__SelectMergeStacktracesRequest req = QUERIER__V1__SELECT_MERGE_STACKTRACES_REQUEST__INIT;
  Types__V1__StackTraceSelector sts = TYPES__V1__STACK_TRACE_SELECTOR__INIT;
  guint n = site != NULL ? g_strv_length ((char **) site) : 0;
  g_autofree Types__V1__Location *locations = g_new0 (Types__V1__Location, MAX (n, 1));
  g_autofree Types__V1__Location **ptrs = g_new0 (Types__V1__Location *, MAX (n, 1));
  g_autofree char *url = g_strconcat (base, "querier.v1.QuerierService/SelectMergeStacktraces", NULL);
  g_autoptr(GBytes) answer = NULL;
  g_autofree guint8 *buf = NULL;
  gsize size;

  req.profile_typeid = query->profile_type;
  req.label_selector = query->label_selector;
  req.has_start = req.has_end = req.has_max_nodes = TRUE;
  req.start = query->start_ms;
  req.end = query->end_ms;
  req.max_nodes = query->max_nodes;
  for (guint i = 0; i < n; i++)
    {
      types__v1__location__init (&locations[i]);
      locations[i].name = (char *) site[i];
      ptrs[i] = &locations[i];
    }
  if (n > 0)
    {
      sts.n_call_site = n;
      sts.call_site = ptrs;
      req.stack_trace_selector = &sts;
    }
  size = protobuf_c_message_get_packed_size (&req.base);
  buf = g_malloc (MAX (size, 1));
  protobuf_c_message_pack (&req.base, buf);
  post (session, url, "application/proto", buf, size, &answer);
  return g_bytes_get_size (answer);
}

static EmbersProfile *
merge (EmbersSource      *source,
       const EmbersQuery *query,
       const char * const *site,
       gboolean           call_site)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  EmbersProfile *profile;

  if (call_site)
    {
      embers_source_merge_call_site (source, query, site, NULL, on_done, &result);
      profile = embers_source_merge_call_site_finish (source, wait_result (&result), &error);
    }
  else
    {
      embers_source_merge_profile (source, query, NULL, on_done, &result);
      profile = embers_source_merge_profile_finish (source, wait_result (&result), &error);
    }
  g_assert_no_error (error);
  return profile;
}

/* The widest `other` frame */
static guint32
widest_other (EmbersProfile *profile)
{
  guint32 best = EMBERS_NODE_NONE;

  for (guint32 i = 1; i < embers_profile_get_n_nodes (profile); i++)
    if (embers_fill_is_other (profile, i) &&
        (best == EMBERS_NODE_NONE ||
         embers_profile_node_total (profile, 0, i) > embers_profile_node_total (profile, 0, best)))
      best = i;
  return best;
}

/* A profile of about @n nodes: main, 1000 frames under it, each with
 * leaves and an `other` */
static EmbersProfile *
make_big (guint n)
{
  g_autoptr(EmbersProfileBuilder) b = embers_profile_builder_new ();
  g_autoptr(GError) error = NULL;
  guint32 main_node, other = 0;
  guint per = MAX (n / 1000, 2) - 1;
  EmbersProfile *p;

  embers_profile_builder_add_sample_type (b, "alloc_objects", "count");
  main_node = embers_profile_builder_get_child (b, 0, embers_profile_builder_intern (b, "main", -1));
  other = embers_profile_builder_intern (b, EMBERS_FILL_OTHER, -1);
  for (guint i = 0; i < 1000; i++)
    {
      g_autofree char *name = g_strdup_printf ("frame_%u", i);
      guint32 node = embers_profile_builder_get_child (b, main_node, embers_profile_builder_intern (b, name, -1));

      for (guint j = 0; j + 1 < per; j++)
        {
          g_autofree char *leaf = g_strdup_printf ("leaf_%u", j);

          embers_profile_builder_add_self (b, embers_profile_builder_get_child (b, node,
                                             embers_profile_builder_intern (b, leaf, -1)), 0, 10);
        }
      embers_profile_builder_add_self (b, embers_profile_builder_get_child (b, node, other), 0, 100);
    }
  p = embers_profile_builder_finish (b, &error);
  g_assert_no_error (error);
  return p;
}

/* The merge alone on a big profile: linear in its size */
static void
bench_big_merge (void)
{
  static const guint sizes[] = { 100000, 1000000 };

  for (guint k = 0; k < G_N_ELEMENTS (sizes); k++)
    {
      g_autoptr(EmbersProfile) big = make_big (sizes[k]);
      g_autoptr(EmbersProfile) sub = NULL;
      g_autoptr(GError) error = NULL;
      const char *text = "main;frame_0;cut_a 60\nmain;frame_0;cut_b 30\nmain;frame_0;other 10\n";
      double best = G_MAXDOUBLE;
      guint added = 0;

      sub = embers_folded_parse (text, strlen (text), &error);
      g_assert_no_error (error);
      for (guint run = 0; run < 3; run++)
        {
          double t0 = now_s ();
          g_autoptr(EmbersProfile) merged = embers_fill_merge (big, sub, &added, &error);

          g_assert_no_error (error);
          best = MIN (best, now_s () - t0);
          g_assert_cmpint (embers_profile_get_total (merged, 0), ==, embers_profile_get_total (big, 0));
        }
      g_print ("merge into %u nodes (%u came in): %.1f ms, %.0f ns a node\n",
               embers_profile_get_n_nodes (big), added, best * 1e3,
               best * 1e9 / embers_profile_get_n_nodes (big));
    }
}

int
main (int   argc,
      char *argv[])
{
  gint64 n_stacks = 40000, nodes = 1024;
  GOptionEntry entries[] = {
    { "stacks", 0, 0, G_OPTION_ARG_INT64, &n_stacks, "Distinct stacks", "N" },
    { "nodes", 0, 0, G_OPTION_ARG_INT64, &nodes, "max_nodes of the cut answer", "M" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (NULL);
  g_autoptr(GError) error = NULL;
  const char *args[] = { "--now", "1700000000000", NULL };
  g_autoptr(EmbersTestServer) server = NULL;
  g_autoptr(SoupSession) session = soup_session_new ();
  g_autoptr(EmbersConnectClient) client = NULL;
  g_autoptr(EmbersPyroscopeSource) source = NULL;
  g_autoptr(EmbersQuery) cut_query = NULL;
  g_autoptr(EmbersQuery) full_query = NULL;
  g_autoptr(EmbersQuery) fill_query = NULL;
  g_autoptr(EmbersProfile) cut = NULL;
  g_autoptr(EmbersProfile) filled = NULL;
  g_autoptr(EmbersProfile) full = NULL;
  g_autofree char *stacks = NULL;
  g_autofree char *ingest_url = NULL;
  g_auto(GStrv) site = NULL;
  double cut_s = G_MAXDOUBLE, fill_s = G_MAXDOUBLE, fill_merge_s = G_MAXDOUBLE, full_s = G_MAXDOUBLE;
  gsize cut_bytes, fill_bytes, full_bytes;
  gint64 other_before = 0, other_after = 0;
  guint added = 0;
  guint32 other;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    g_error ("%s", error->message);

  server = embers_test_server_start (args, &error);
  g_assert_no_error (error);
  stacks = make_stacks ((guint) n_stacks);
  ingest_url = g_strdup_printf ("%singest?name=bench.alloc_objects&from=1699999990",
                                embers_test_server_get_url (server));
  post (session, ingest_url, "text/plain", stacks, strlen (stacks), NULL);

  client = embers_connect_client_new (embers_test_server_get_url (server), &error);
  g_assert_no_error (error);
  source = embers_pyroscope_source_new (client);
  cut_query = embers_query_new (TYPE, "{service_name=\"bench\"}", 1700000000000 - 60000, 1700000000000);
  cut_query->max_nodes = nodes;
  full_query = embers_query_copy (cut_query);
  full_query->max_nodes = 1048576;

  /* The cut answer and its widest `other` */
  cut = merge (EMBERS_SOURCE (source), cut_query, NULL, FALSE);
  other = widest_other (cut);
  g_assert_cmpuint (other, !=, EMBERS_NODE_NONE);
  site = embers_fill_call_site (cut, embers_profile_node_parent (cut, other));
  fill_query = embers_query_copy (cut_query);
  fill_query->max_nodes = nodes + g_strv_length (site);

  for (guint run = 0; run < RUNS; run++)
    {
      g_autoptr(EmbersProfile) c = NULL;
      g_autoptr(EmbersProfile) sub = NULL;
      g_autoptr(EmbersProfile) f = NULL;
      g_autoptr(EmbersProfile) w = NULL;
      double t0, t1, t2;

      t0 = now_s ();
      c = merge (EMBERS_SOURCE (source), cut_query, NULL, FALSE);
      cut_s = MIN (cut_s, now_s () - t0);

      t0 = now_s ();
      sub = merge (EMBERS_SOURCE (source), fill_query, (const char * const *) site, TRUE);
      t1 = now_s ();
      f = embers_fill_merge (cut, sub, &added, &error);
      g_assert_no_error (error);
      t2 = now_s ();
      fill_s = MIN (fill_s, t2 - t0);
      fill_merge_s = MIN (fill_merge_s, t2 - t1);
      g_set_object (&filled, f);

      t0 = now_s ();
      w = merge (EMBERS_SOURCE (source), full_query, NULL, FALSE);
      full_s = MIN (full_s, now_s () - t0);
      g_set_object (&full, w);
    }

  cut_bytes = answer_bytes (session, embers_test_server_get_url (server), cut_query, NULL);
  fill_bytes = answer_bytes (session, embers_test_server_get_url (server), fill_query, (const char * const *) site);
  full_bytes = answer_bytes (session, embers_test_server_get_url (server), full_query, NULL);
  {
    guint32 at = embers_fill_find (filled, (const char * const *) site);

    for (guint32 c = at + 1; c < embers_profile_node_end (filled, at); c = embers_profile_node_end (filled, c))
      if (embers_fill_is_other (filled, c))
        other_after = embers_profile_node_total (filled, 0, c);
    other_before = embers_profile_node_total (cut, 0, other);
  }
  g_assert_cmpint (embers_profile_get_total (filled, 0), ==, embers_profile_get_total (cut, 0));
  g_assert_cmpint (embers_profile_get_total (full, 0), ==, embers_profile_get_total (cut, 0));

  {
    g_autofree char *where = g_strjoinv (";", site);

    g_print ("# %" G_GINT64_FORMAT " stacks; cut at max_nodes %" G_GINT64_FORMAT "; best of %d\n",
             n_stacks, nodes, RUNS);
    g_print ("# fill-in at %s (its other: %.1f%% of the total), budget %" G_GINT64_FORMAT "\n", where,
             100.0 * embers_profile_node_total (cut, 0, other) / embers_profile_get_total (cut, 0),
             fill_query->max_nodes);
  }
  g_print ("%-28s %10s %12s %10s\n", "query", "wall ms", "bytes", "nodes");
  g_print ("%-28s %10.2f %12" G_GSIZE_FORMAT " %10u\n", "cut answer", cut_s * 1e3, cut_bytes,
           embers_profile_get_n_nodes (cut));
  g_print ("%-28s %10.2f %12" G_GSIZE_FORMAT " %10u\n", "one fill-in (query + merge)", fill_s * 1e3, fill_bytes,
           embers_profile_get_n_nodes (filled));
  g_print ("%-28s %10.2f %12s %10s\n", "  of which the merge", fill_merge_s * 1e3, "", "");
  g_print ("%-28s %10.2f %12" G_GSIZE_FORMAT " %10u\n", "full query (uncut)", full_s * 1e3, full_bytes,
           embers_profile_get_n_nodes (full));
  g_print ("fill-in / full: %.1f%% of the time, %.1f%% of the bytes; %u frames came in; "
           "that other went from %.2f%% to %.2f%% of the total\n",
           100 * fill_s / full_s, 100.0 * fill_bytes / full_bytes, added,
           100.0 * other_before / embers_profile_get_total (cut, 0),
           100.0 * other_after / embers_profile_get_total (cut, 0));
  bench_big_merge ();
  return 0;
}
