/* bench-snapshots.c: regressions across K = 50 snapshots (prints figures only)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A folder: 50 version folders of 10 folded profiles each (300 stacks up
 * to 8 deep; one grows threefold at v31), loaded and tested. A server: the test server with
 * the same 50 versions ingested (10 profiles each, one a minute), lined up
 * by the label "version" with the default 200 call sites. Then the table
 * alone, computed again in another order (what Reverse costs).
 */

#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <glib/gstdio.h>

#include <libsoup/soup.h>

#include "embers-pyroscope-snapshots.h"
#include "embers-test-server-spawn.h"

#define K 50
#define FILES 10
#define FUNCTIONS 300
#define CPU "process_cpu:cpu:nanoseconds:cpu:nanoseconds"

/* A service's call tree: 300 stacks up to 8 deep over 300 functions,
 * made once, with fixed weights; every profile draws each stack's value
 * around its weight (10 % noise). One stack, the last, takes three times
 * as much from version 30 on. */
static char *stacks[FUNCTIONS];
static double weights[FUNCTIONS];

static void
make_tree (GRand *rand)
{
  for (guint i = 0; i < FUNCTIONS; i++)
    {
      GString *s = g_string_new ("main");
      guint depth = 2 + g_rand_int_range (rand, 0, 7);

      for (guint d = 1; d < depth; d++)
        g_string_append_printf (s, ";pkg%u.fn%u", (i / 30 + d) % 10, (i * d + d) % FUNCTIONS);
      if (i == FUNCTIONS - 1)
        g_string_assign (s, "main;pkg1.serve;pkg1.handle;pkg1.fn1");
      stacks[i] = g_string_free (s, FALSE);
      weights[i] = 20 + g_rand_int_range (rand, 0, 200);
    }
}

static double
normal (GRand *rand)
{
  double u1 = g_rand_double_range (rand, 1e-300, 1);
  double u2 = g_rand_double (rand);

  return sqrt (-2 * log (u1)) * cos (2 * G_PI * u2);
}

static char *
make_folded (GRand *rand,
             guint  version)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < FUNCTIONS; i++)
    {
      double w = weights[i] * (i == FUNCTIONS - 1 && version >= 30 ? 3 : 1);

      g_string_append_printf (s, "%s %d\n", stacks[i], (int)MAX (1, w * (1 + 0.1 * normal (rand))));
    }
  return g_string_free (s, FALSE);
}

static void
done (GObject      *object,
      GAsyncResult *result,
      gpointer      user_data)
{
  *(GAsyncResult **)user_data = g_object_ref (result);
}

static double
now_s (void)
{
  return g_get_monotonic_time () / 1e6;
}

static void
bench_folder (GRand *rand)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *root = g_dir_make_tmp ("embers-bench-snapshots-XXXXXX", &error);
  g_autoptr(GFile) folder = g_file_new_for_path (root);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(EmbersSnapshots) s = NULL;
  g_autoptr(EmbersSnapshots) again = NULL;
  guint order[K];
  double t0, t1;

  g_assert_no_error (error);
  for (guint v = 0; v < K; v++)
    {
      g_autofree char *dir = g_strdup_printf ("%s/v%u", root, v + 1);

      g_mkdir (dir, 0700);
      for (guint i = 0; i < FILES; i++)
        {
          g_autofree char *path = g_strdup_printf ("%s/cpu-%u.folded", dir, i);
          g_autofree char *text = make_folded (rand, v);

          g_file_set_contents (path, text, -1, &error);
          g_assert_no_error (error);
        }
    }

  t0 = now_s ();
  embers_snapshots_load_files_async (&folder, 1, EMBERS_SNAPSHOTS_MAX_ROWS_DEFAULT, NULL, done, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  s = embers_snapshots_load_files_finish (result, &error);
  t1 = now_s ();
  g_assert_no_error (error);
  printf ("folder: K = %u snapshots × %u files, %u rows: loaded and tested in %.0f ms; "
          "%u rows flagged, first \"%s\" at %s → %s\n",
          embers_snapshots_get_n_snapshots (s), FILES, embers_snapshots_get_n_rows (s), (t1 - t0) * 1000,
          embers_snapshots_get_n_flagged (s), embers_snapshots_get_row (s, 0)->key,
          embers_snapshots_get_name (s, MAX (embers_snapshots_get_row (s, 0)->jump, 0)),
          embers_snapshots_get_name (s, MAX (embers_snapshots_get_row (s, 0)->jump, 0) + 1));

  for (guint i = 0; i < K; i++)
    order[i] = K - 1 - i;
  again = embers_snapshots_reorder (s, order, K);
  t0 = now_s ();
  embers_snapshots_compute (again);
  t1 = now_s ();
  printf ("table alone (K = %u, %u rows, %u steps tested): %.1f ms\n",
          K, embers_snapshots_get_n_rows (again), embers_snapshots_get_n_tested (again), (t1 - t0) * 1000);

  for (guint v = 0; v < K; v++)
    {
      for (guint i = 0; i < FILES; i++)
        {
          g_autofree char *path = g_strdup_printf ("%s/v%u/cpu-%u.folded", root, v + 1, i);

          g_unlink (path);
        }
      {
        g_autofree char *dir = g_strdup_printf ("%s/v%u", root, v + 1);

        g_rmdir (dir);
      }
    }
  g_rmdir (root);
}

static void
bench_server (GRand *rand)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersTestServer) server = embers_test_server_start (NULL, &error);
  g_autoptr(SoupSession) session = soup_session_new ();
  g_autoptr(EmbersConnectClient) client = NULL;
  g_autoptr(EmbersPyroscopeSource) source = NULL;
  g_autoptr(EmbersSnapshots) s = embers_snapshots_new (EMBERS_DIFF_STATS_SHARE, 0);
  g_autoptr(EmbersQuery) base = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(EmbersSnapshots) out = NULL;
  gint64 start_ms = (g_get_real_time () / 1000 / 3600000 - 10) * 3600000;
  double t0, t1;

  g_assert_no_error (error);
  for (guint v = 0; v < K; v++)
    for (guint i = 0; i < FILES; i++)
      {
        g_autofree char *text = make_folded (rand, v);
        g_autofree char *name = g_strdup_printf ("bench.cpu%%7Bversion%%3Dv%u%%7D", v + 1);
        g_autofree char *url = g_strdup_printf ("%singest?name=%s&from=%" G_GINT64_FORMAT,
                                                embers_test_server_get_url (server), name,
                                                start_ms / 1000 + (v * FILES + i) * 60 + 30);
        g_autoptr(SoupMessage) msg = soup_message_new ("POST", url);
        g_autoptr(GBytes) answer = NULL;

        soup_message_set_request_body_from_bytes (msg, "text/plain", g_bytes_new_take (g_steal_pointer (&text), strlen (text)));
        answer = soup_session_send_and_read (session, msg, NULL, &error);
        g_assert_no_error (error);
        g_assert_cmpuint (soup_message_get_status (msg), ==, 200);
      }

  client = embers_connect_client_new (embers_test_server_get_url (server), &error);
  g_assert_no_error (error);
  source = embers_pyroscope_source_new (client);
  base = embers_query_new (CPU, "{service_name=\"bench\"}", start_ms, start_ms + K * FILES * 60000 + 60000);
  for (guint v = 0; v < K; v++)
    {
      g_autofree char *version = g_strdup_printf ("v%u", v + 1);
      g_autoptr(EmbersQuery) q = embers_snapshots_query_with_label (base, "version", version);

      embers_snapshots_add_snapshot (s, version, q, NULL);
    }
  g_free (embers_test_server_control (server, "DELETE", "embers-test/stats", NULL));

  t0 = now_s ();
  embers_pyroscope_snapshots_async (source, s, base, "version", EMBERS_SNAPSHOTS_MAX_ROWS_DEFAULT,
                                    NULL, NULL, NULL, done, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  out = embers_pyroscope_snapshots_finish (source, result, &error);
  t1 = now_s ();
  g_assert_no_error (error);
  printf ("server: K = %u label values, %u functions: %.0f ms (%" G_GINT64_FORMAT " SelectSeries, %"
          G_GINT64_FORMAT " SelectMergeStacktraces; step %.0f s, %u steps in the first snapshot); "
          "%u rows flagged, first \"%s\"\n",
          K, embers_snapshots_get_n_rows (out), (t1 - t0) * 1000,
          embers_test_server_stat (server, "requests", "/querier.v1.QuerierService/SelectSeries"),
          embers_test_server_stat (server, "requests", "/querier.v1.QuerierService/SelectMergeStacktraces"),
          embers_pyroscope_snapshots_step (s, base, "version"), embers_snapshots_get_n_steps (out, 0),
          embers_snapshots_get_n_flagged (out), embers_snapshots_get_row (out, 0)->key);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (42);
  struct rusage usage;

  make_tree (rand);
  bench_folder (rand);
  bench_server (rand);
  getrusage (RUSAGE_SELF, &usage);
  printf ("peak RSS %.1f MiB\n", usage.ru_maxrss / 1024.0);
  return 0;
}
