/* bench-diff.c: diff of two ~1M-node profiles (prints figures only)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdio.h>
#include <sys/resource.h>
#include <time.h>

#include "embers-diff.h"
#include "embers-profile-builder.h"

/* A wide and deep synthetic tree: every node has `fanout` children named
 * from a pool, down to `depth`; the comparison shifts weights and renames a
 * share of the leaves so that frames are new and removed too. */
static EmbersProfile *
make_profile (guint32 seed,
              guint   target_nodes)
{
  g_autoptr(EmbersProfileBuilder) b = embers_profile_builder_new ();
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  g_autoptr(GError) error = NULL;
  guint32 names[4096];
  guint32 stack[64];
  EmbersProfile *p;

  embers_profile_builder_add_sample_type (b, "cpu", "nanoseconds");
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      char name[64];

      g_snprintf (name, sizeof name, "pkg%u/sub.(*T%u).Method%u", i % 97, i % 13, i);
      names[i] = embers_profile_builder_intern (b, name, -1);
    }

  while (embers_profile_builder_get_n_nodes (b) < target_nodes)
    {
      guint depth = 8 + g_rand_int_range (rand, 0, 40);
      gint64 value = 1 + g_rand_int_range (rand, 0, 1000) * 10000;

      for (guint d = 0; d < depth; d++)
        {
          /* Shallow frames come from few names, deep ones from many */
          guint pool = MIN ((guint)G_N_ELEMENTS (names), 4u + d * d * 4);
          stack[d] = names[g_rand_int_range (rand, 0, pool)];
        }
      /* Node by node, to stop at the node count (stacks are only laid
       * out in finish) */
      {
        guint32 node = 0;

        for (guint d = 0; d < depth; d++)
          node = embers_profile_builder_get_child (b, node, stack[d]);
        embers_profile_builder_add_self (b, node, 0, value);
      }
    }

  p = embers_profile_builder_finish (b, &error);
  g_assert_no_error (error);
  return p;
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(EmbersProfile) left = NULL;
  g_autoptr(EmbersProfile) right = NULL;
  double times[7], cpu[7];
  guint runs = G_N_ELEMENTS (times);
  guint n_diff_nodes = 0;
  double top_ms;
  gint64 t0;
  struct rusage usage;

  left = make_profile (1, 1000000);
  right = make_profile (2, 1000000);

  for (guint r = 0; r < runs; r++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(EmbersProfile) d = NULL;

      struct timespec c0, c1;

      clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &c0);
      t0 = g_get_monotonic_time ();
      d = embers_diff_profiles (left, 0, right, 0, &error);
      times[r] = (g_get_monotonic_time () - t0) / 1000.0;
      clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &c1);
      cpu[r] = (c1.tv_sec - c0.tv_sec) * 1e3 + (c1.tv_nsec - c0.tv_nsec) / 1e6;
      g_assert_no_error (error);
      n_diff_nodes = embers_profile_get_n_nodes (d);
    }
  qsort (times, runs, sizeof (double), compare_doubles);
  qsort (cpu, runs, sizeof (double), compare_doubles);

  {
    g_autoptr(EmbersProfile) d = embers_diff_profiles (left, 0, right, 0, NULL);
    g_autoptr(GArray) rows = NULL;

    t0 = g_get_monotonic_time ();
    rows = embers_diff_top_compute (d);
    top_ms = (g_get_monotonic_time () - t0) / 1000.0;
  }

  getrusage (RUSAGE_SELF, &usage);
  printf ("diff: baseline %u nodes, comparison %u nodes -> %u merged nodes\n",
          embers_profile_get_n_nodes (left), embers_profile_get_n_nodes (right), n_diff_nodes);
  printf ("diff: median %.1f ms, min %.1f ms, max %.1f ms over %u runs\n",
          times[runs / 2], times[0], times[runs - 1], runs);
  printf ("diff CPU: median %.1f ms, min %.1f ms (goal: < 100 ms of CPU)\n", cpu[runs / 2], cpu[0]);
  printf ("diff top table: %.1f ms\n", top_ms);
  printf ("peak RSS: %.1f MiB\n", usage.ru_maxrss / 1024.0);

  return 0;
}
