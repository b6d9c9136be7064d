/* bench-load.c: how fast a large pprof loads (gunzip + parse + build tree).
 *
 *   bench-load [--runs N] [--samples N] [--gen PATH] [--no-go] [FILE...]
 *
 * Without FILE, makes the input with gen-pprof (next to this program, or
 * --gen) in the build directory, once: OUT.pb and OUT.pb.gz with 500000
 * samples, about 35 MB uncompressed. Loads each file N times (5) with
 * embers_profile_load_file() and prints the median wall time, the peak RSS,
 * the node count, sizes and MB/s, then one breakdown run (read, gunzip,
 * parse). When `go` is on PATH, times `go tool pprof -top -nodecount=100000`
 * on the same file and prints the ratio. It prints figures and asserts
 * nothing about time.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include <gio/gio.h>

#include "embers-format.h"
#include "embers-profile.h"
#include "embers-readers.h"

#define GOAL_SECONDS       2.0
#define GOAL_SPEEDUP       10.0
#define GOAL_RSS_FACTOR    10.0

static double
now_seconds (void)
{
  return g_get_monotonic_time () / 1e6;
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

static double
median (double *values,
        guint   n)
{
  qsort (values, n, sizeof (double), compare_doubles);
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

/* A field of /proc/self/status in kB, or -1. */
static gint64
proc_status_kb (const char *field)
{
  g_autofree char *status = NULL;
  gsize flen = strlen (field);

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL))
    return -1;
  for (char *line = status; line != NULL && *line; )
    {
      char *next = strchr (line, '\n');

      if (strncmp (line, field, flen) == 0 && line[flen] == ':')
        return g_ascii_strtoll (line + flen + 1, NULL, 10);
      line = next ? next + 1 : NULL;
    }
  return -1;
}

/* Resets VmHWM to the current RSS (Linux >= 4.0), so each file's peak is its own. */
static gboolean
reset_peak_rss (void)
{
  FILE *f = fopen ("/proc/self/clear_refs", "w");
  gboolean ok;

  if (f == NULL)
    return FALSE;
  ok = fputs ("5", f) >= 0;
  return fclose (f) == 0 && ok;
}

static gint64
ru_maxrss_kb (int who)
{
  struct rusage ru;

  if (getrusage (who, &ru) != 0)
    return -1;
  return ru.ru_maxrss;
}

static double
mib (gint64 bytes)
{
  return bytes / (1024.0 * 1024.0);
}

/* Go's figures on the same file, or FALSE when go is not usable. */
static gboolean
time_go_pprof (const char *path,
               double     *seconds,
               gint64     *peak_kb)
{
  g_autofree char *go = g_find_program_in_path ("go");
  g_autofree char *time_prog = g_find_program_in_path ("time");
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  gboolean have_time = time_prog != NULL && g_file_test ("/usr/bin/time", G_FILE_TEST_IS_EXECUTABLE);
  const char *argv_time[] = { "/usr/bin/time", "-f", "EMBERS-BENCH %e %M", NULL, "tool", "pprof",
                              "-top", "-nodecount=100000", NULL, NULL };
  const char **argv = argv_time;
  int status = 0;
  double t0, t1;

  if (go == NULL)
    return FALSE;
  argv_time[3] = go;
  argv_time[8] = path;
  if (!have_time)
    argv = argv_time + 3;

  t0 = now_seconds ();
  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL,
                     NULL, &err, &status, &error)
      || !g_spawn_check_wait_status (status, &error))
    {
      g_print ("# go tool pprof failed: %s\n%s", error->message, err ? err : "");
      return FALSE;
    }
  t1 = now_seconds ();

  *seconds = t1 - t0;
  *peak_kb = -1;
  if (have_time && err != NULL)
    {
      const char *mark = strstr (err, "EMBERS-BENCH ");

      if (mark != NULL)
        {
          char *end = NULL;

          *seconds = g_ascii_strtod (mark + 13, &end);
          *peak_kb = g_ascii_strtoll (end, NULL, 10);
        }
    }
  return TRUE;
}

static gboolean
bench_file (const char *path,
            guint       runs,
            gboolean    with_go,
            GError    **error)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autofree double *times = g_new (double, runs);
  g_autofree char *contents = NULL;
  g_autoptr(GBytes) inflated = NULL;
  g_autoptr(EmbersProfile) profile = NULL;
  gsize file_size = 0, raw_size;
  gint64 rss_before, hwm, maxrss;
  guint n_nodes, max_depth, n_samples, n_strings, n_types;
  gsize profile_bytes;
  gboolean gz;
  double t_read, t_gunzip = 0, t_parse, t0, med;
  gboolean hwm_reset;

  g_print ("# %s\n", path);

  /* Breakdown run first: it also warms the page cache. */
  t0 = now_seconds ();
  if (!g_file_get_contents (path, &contents, &file_size, error))
    return FALSE;
  t_read = now_seconds () - t0;
  gz = embers_is_gzip ((const guint8 *) contents, file_size);
  raw_size = file_size;
  if (gz)
    {
      t0 = now_seconds ();
      inflated = embers_gunzip ((const guint8 *) contents, file_size,
                                EMBERS_MAX_DECOMPRESSED_SIZE, error);
      if (inflated == NULL)
        return FALSE;
      t_gunzip = now_seconds () - t0;
      raw_size = g_bytes_get_size (inflated);
    }
  t0 = now_seconds ();
  profile = embers_pprof_parse (gz ? g_bytes_get_data (inflated, NULL) : (const guint8 *) contents,
                                raw_size, error);
  if (profile == NULL)
    return FALSE;
  t_parse = now_seconds () - t0;
  g_clear_object (&profile);
  g_clear_pointer (&inflated, g_bytes_unref);
  g_clear_pointer (&contents, g_free);

  /* Timed runs of the real entry point. */
  hwm_reset = reset_peak_rss ();
  rss_before = proc_status_kb ("VmRSS");
  for (guint r = 0; r < runs; r++)
    {
      t0 = now_seconds ();
      profile = embers_profile_load_file (file, NULL, error);
      times[r] = now_seconds () - t0;
      if (profile == NULL)
        return FALSE;
      if (r + 1 < runs)
        g_clear_object (&profile);
    }
  hwm = proc_status_kb ("VmHWM");
  maxrss = ru_maxrss_kb (RUSAGE_SELF);

  n_nodes = embers_profile_get_n_nodes (profile);
  max_depth = embers_profile_get_max_depth (profile);
  n_samples = embers_profile_get_n_samples (profile);
  n_strings = embers_profile_get_n_strings (profile);
  n_types = embers_profile_get_n_sample_types (profile);
  profile_bytes = embers_profile_get_memory_size (profile);

  g_print ("# runs:");
  for (guint r = 0; r < runs; r++)
    g_print (" %.3f", times[r]);
  g_print (" s\n");
  med = median (times, runs);

  g_print ("input:          %s%s\n", path, gz ? " (gzip)" : "");
  g_print ("file size:      %.1f MiB\n", mib (file_size));
  g_print ("uncompressed:   %.1f MiB (%" G_GSIZE_FORMAT " bytes)\n", mib (raw_size), raw_size);
  g_print ("load time:      %.3f s (median of %u)\n", med, runs);
  g_print ("throughput:     %.1f MiB/s uncompressed\n", mib (raw_size) / med);
  g_print ("breakdown:      read %.3f s, gunzip %.3f s, parse + tree %.3f s\n",
           t_read, t_gunzip, t_parse);
  g_print ("nodes:          %u (max depth %u)\n", n_nodes, max_depth);
  g_print ("sample types:   %u, label samples: %u, strings: %u\n", n_types, n_samples, n_strings);
  g_print ("profile memory: %.1f MiB\n", mib (profile_bytes));
  if (hwm_reset && hwm >= 0)
    g_print ("peak RSS:       %.1f MiB during these loads (VmHWM; %.1f MiB before), "
             "%.1fx the uncompressed size\n",
             hwm / 1024.0, rss_before / 1024.0, (hwm * 1024.0) / raw_size);
  g_print ("peak RSS:       %.1f MiB over the whole process (ru_maxrss), %.1fx the uncompressed size\n",
           maxrss / 1024.0, (maxrss * 1024.0) / raw_size);
  g_print ("goal time:      %s (%.3f s, goal < %.1f s)\n",
           med < GOAL_SECONDS ? "met" : "MISSED", med, GOAL_SECONDS);
  g_print ("goal memory:    %s (%.1fx, goal < %.0fx)\n",
           (hwm_reset && hwm >= 0 ? hwm : maxrss) * 1024.0 / raw_size < GOAL_RSS_FACTOR ? "met" : "MISSED",
           (hwm_reset && hwm >= 0 ? hwm : maxrss) * 1024.0 / raw_size, GOAL_RSS_FACTOR);

  if (with_go)
    {
      double go_seconds;
      gint64 go_kb;

      g_print ("# running go tool pprof -top -nodecount=100000 %s\n", path);
      if (time_go_pprof (path, &go_seconds, &go_kb))
        {
          g_print ("go tool pprof:  %.3f s", go_seconds);
          if (go_kb >= 0)
            g_print (", peak RSS %.1f MiB", go_kb / 1024.0);
          g_print ("\n");
          g_print ("speed-up:       %.1fx (%s, goal >= %.0fx)\n", go_seconds / med,
                   go_seconds / med >= GOAL_SPEEDUP ? "met" : "MISSED", GOAL_SPEEDUP);
        }
      else
        g_print ("go tool pprof:  skipped (`go` is not on PATH or failed)\n");
    }

  g_print ("\n");
  return TRUE;
}

/* Makes OUT.pb and OUT.pb.gz with gen-pprof unless they exist already. */
static gboolean
ensure_input (const char  *gen,
              const char  *dir,
              gint64       n_samples,
              char       **raw_path,
              char       **gz_path,
              GError     **error)
{
  g_autofree char *base = g_strdup_printf ("bench-load-%" G_GINT64_FORMAT ".pb", n_samples);
  g_autofree char *samples = g_strdup_printf ("%" G_GINT64_FORMAT, n_samples);
  int status = 0;
  double t0;

  *raw_path = g_build_filename (dir, base, NULL);
  *gz_path = g_strconcat (*raw_path, ".gz", NULL);
  if (g_file_test (*raw_path, G_FILE_TEST_EXISTS) && g_file_test (*gz_path, G_FILE_TEST_EXISTS))
    return TRUE;

  {
    const char *argv[] = { gen, *raw_path, "--samples", samples, "--gzip", NULL };

    g_print ("# generating %s with %s\n", *raw_path, gen);
    t0 = now_seconds ();
    if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                       NULL, NULL, &status, error)
        || !g_spawn_check_wait_status (status, error))
      return FALSE;
    g_print ("# generated in %.1f s\n", now_seconds () - t0);
  }
  return TRUE;
}

int
main (int    argc,
      char **argv)
{
  gint64 runs = 5, n_samples = 500000;
  char *gen = NULL;
  gboolean no_go = FALSE;
  GOptionEntry entries[] = {
    { "runs", 0, 0, G_OPTION_ARG_INT64, &runs, "Timed loads per file (5)", "N" },
    { "samples", 0, 0, G_OPTION_ARG_INT64, &n_samples, "Samples in the generated input (500000)", "N" },
    { "gen", 0, 0, G_OPTION_ARG_FILENAME, &gen, "The gen-pprof program", "PATH" },
    { "no-go", 0, 0, G_OPTION_ARG_NONE, &no_go, "Do not time go tool pprof", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new ("[FILE...] - time loading profiles");
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func (g_free);
  int ret = 0;

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    {
      g_printerr ("bench-load: %s\n", error->message);
      return 2;
    }
  if (runs < 1 || runs > 1000 || n_samples < 1)
    {
      g_printerr ("bench-load: --runs must be 1..1000 and --samples positive\n");
      return 2;
    }

  if (argc > 1)
    {
      for (int i = 1; i < argc; i++)
        g_ptr_array_add (files, g_strdup (argv[i]));
    }
  else
    {
      g_autofree char *self = g_file_read_link ("/proc/self/exe", NULL);
      g_autofree char *dir = self ? g_path_get_dirname (self) : g_get_current_dir ();
      g_autofree char *raw = NULL, *gz = NULL;

      if (gen == NULL)
        gen = g_build_filename (dir, "gen-pprof", NULL);
      if (!ensure_input (gen, dir, n_samples, &raw, &gz, &error))
        {
          g_printerr ("bench-load: cannot make the input: %s\n", error->message);
          return 1;
        }
      g_ptr_array_add (files, g_steal_pointer (&gz));
      g_ptr_array_add (files, g_steal_pointer (&raw));
    }

  g_print ("# bench-load: %" G_GINT64_FORMAT " runs per file, %ld CPUs online\n",
           runs, sysconf (_SC_NPROCESSORS_ONLN));
  for (guint i = 0; i < files->len; i++)
    {
      /* Go only on the first file (the gzipped one when generated): it is slow. */
      if (!bench_file (files->pdata[i], (guint) runs, !no_go && i == 0, &error))
        {
          g_printerr ("bench-load: %s: %s\n", (char *) files->pdata[i], error->message);
          g_clear_error (&error);
          ret = 1;
        }
    }

  g_free (gen);
  return ret;
}
