/* bench-load.c: how fast Embers loads a pprof profile, next to the floor and
 * to `go tool pprof`, measured in the same run.
 *
 *   bench-load [--runs N] [--go-runs N] [--shapes LIST] [--dir DIR]
 *              [--embers PATH] [--floor PATH] [--gen PATH] [--no-go] [FILE...]
 *
 * For each profile it runs, as child processes and in turn, `embers --top=20
 * FILE` (the real command line: load, top table, print), `bench-floor FILE`
 * (the least a loader can do to print the same lines) and `go tool pprof
 * -top FILE`, and prints the median wall time, CPU time (user + system) and
 * peak RSS of each (from wait4), the ratios go / Embers and Embers / floor
 * (the median of the ratios of the runs made in the same round: a pair
 * shares the machine's load of its moment),
 * the peak RSS over the uncompressed size and per tree node. Then, in this
 * process, one load through embers_profile_load_file() for the node count,
 * the profile's own memory and the loader's phases, and a cancelled load:
 * how long the loader takes to stop after g_cancellable_cancel(), and the
 * memory it leaves behind.
 *
 * Without FILE it makes the profiles of issue 17 with gen-pprof, once, in
 * --dir (default: next to this program): s10k, s100k, big100k and z500k;
 * --shapes picks others from s10k, s100k, big100k, s500k, s2m, z500k, z2m.
 * The machine's load during the run (CPU time of other processes, from
 * /proc/stat) is printed, because it is shared. Figures only: it asserts
 * nothing about time.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <zlib.h>

#include <gio/gio.h>
#include <glib/gstdio.h>

#include "embers-format.h"
#include "embers-input.h"
#include "embers-profile.h"

extern char **environ;

#define GOAL_GO_S       15.0   /* s100k, big100k */
#define GOAL_GO_Z       30.0   /* z500k */
#define GOAL_FLOOR      1.5
#define GOAL_BYTES_NODE 32.0

typedef struct
{
  double wall, cpu;
  gint64 rss_kb;
} Run;

typedef struct
{
  const char *name;
  const char *shape;
  guint       samples;
} Shape;

static const Shape shapes[] = {
  { "s10k", "random", 10000 },
  { "s100k", "random", 100000 },
  { "big100k", "big", 100000 },
  { "s500k", "random", 500000 },
  { "s2m", "random", 2000000 },
  { "z500k", "zipf", 500000 },
  { "z2m", "zipf", 2000000 },
};

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
median (const double *values,
        guint         n)
{
  g_autofree double *v = g_memdup2 (values, sizeof (double) * MAX (n, 1));

  if (n == 0)
    return 0;
  qsort (v, n, sizeof (double), compare_doubles);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Resets VmHWM to the current RSS (Linux >= 4.0) */
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

/* Busy and total jiffies of the whole machine, from /proc/stat */
static gboolean
machine_jiffies (guint64 *busy,
                 guint64 *total)
{
  g_autofree char *stat = NULL;
  guint64 v[10] = { 0 };

  if (!g_file_get_contents ("/proc/stat", &stat, NULL, NULL) || !g_str_has_prefix (stat, "cpu "))
    return FALSE;
  if (sscanf (stat + 4, "%" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT
              " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT
              " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT,
              &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) < 8)
    return FALSE;
  *total = v[0] + v[1] + v[2] + v[3] + v[4] + v[5] + v[6] + v[7];
  *busy = *total - v[3] - v[4];
  return TRUE;
}

static double
self_and_children_cpu (void)
{
  struct rusage a, b;

  getrusage (RUSAGE_SELF, &a);
  getrusage (RUSAGE_CHILDREN, &b);
  return a.ru_utime.tv_sec + a.ru_utime.tv_usec / 1e6 + a.ru_stime.tv_sec + a.ru_stime.tv_usec / 1e6 +
         b.ru_utime.tv_sec + b.ru_utime.tv_usec / 1e6 + b.ru_stime.tv_sec + b.ru_stime.tv_usec / 1e6;
}

/* Runs argv with standard output to /dev/null (or to out_path) and standard
 * error to err_path; fills wall, CPU and peak RSS. */
static gboolean
run_child (const char * const *argv,
           const char         *out_path,
           const char         *err_path,
           Run                *run)
{
  posix_spawn_file_actions_t actions;
  struct rusage ru;
  pid_t pid;
  int status = 0;
  double t0;
  int ret;

  posix_spawn_file_actions_init (&actions);
  posix_spawn_file_actions_addopen (&actions, 1, out_path ? out_path : "/dev/null",
                                    O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen (&actions, 2, err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  t0 = now_seconds ();
  ret = posix_spawnp (&pid, argv[0], &actions, NULL, (char * const *) argv, environ);
  posix_spawn_file_actions_destroy (&actions);
  if (ret != 0)
    {
      g_print ("# cannot run %s: %s\n", argv[0], g_strerror (ret));
      return FALSE;
    }
  while (wait4 (pid, &status, 0, &ru) < 0)
    if (errno != EINTR)
      return FALSE;
  run->wall = now_seconds () - t0;
  run->cpu = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
  run->rss_kb = ru.ru_maxrss;
  if (!WIFEXITED (status) || WEXITSTATUS (status) != 0)
    {
      g_autofree char *err = NULL;

      g_file_get_contents (err_path, &err, NULL, NULL);
      g_print ("# %s failed (status %d): %s\n", argv[0], status, err ? err : "");
      return FALSE;
    }
  return TRUE;
}

static void
summarize (const Run *runs,
           guint      n,
           double    *wall,
           double    *cpu,
           gint64    *rss_kb)
{
  g_autofree double *w = g_new (double, MAX (n, 1));
  g_autofree double *c = g_new (double, MAX (n, 1));

  *rss_kb = 0;
  for (guint i = 0; i < n; i++)
    {
      w[i] = runs[i].wall;
      c[i] = runs[i].cpu;
      *rss_kb = MAX (*rss_kb, runs[i].rss_kb);
    }
  *wall = median (w, n);
  *cpu = median (c, n);
}

/* The median of the ratios a[i] / b[i] of the runs made side by side in
 * the same round: each pair saw the same load on the shared machine */
static double
paired_ratio (const Run *a,
              const Run *b,
              guint      n,
              gboolean   use_cpu)
{
  g_autofree double *r = g_new (double, MAX (n, 1));

  for (guint i = 0; i < n; i++)
    r[i] = use_cpu ? a[i].cpu / MAX (b[i].cpu, 1e-9) : a[i].wall / MAX (b[i].wall, 1e-9);
  return median (r, n);
}

/* The profile's size once inflated, counted in small steps: this process
 * must stay small (a spawned child starts from its parent's high-water
 * mark of RSS) */
static gsize
uncompressed_size (const char *path)
{
  FILE *f = fopen (path, "rb");
  guint8 in[65536], out[262144];
  z_stream zs;
  gsize total = 0, n;
  gboolean gz = FALSE;
  int ret = Z_OK;

  if (f == NULL)
    return 0;
  memset (&zs, 0, sizeof zs);
  n = fread (in, 1, sizeof in, f);
  if (n >= 2 && in[0] == 0x1f && in[1] == 0x8b)
    gz = inflateInit2 (&zs, 15 + 32) == Z_OK;
  while (n > 0)
    {
      if (!gz)
        total += n;
      else
        {
          zs.next_in = in;
          zs.avail_in = (uInt)n;
          do
            {
              zs.next_out = out;
              zs.avail_out = sizeof out;
              ret = inflate (&zs, Z_NO_FLUSH);
              total += sizeof out - zs.avail_out;
              if (ret == Z_STREAM_END)
                {
                  /* Another member may follow */
                  inflateReset (&zs);
                  ret = Z_OK;
                }
            }
          while (ret == Z_OK && (zs.avail_in > 0 || zs.avail_out == 0));
        }
      n = fread (in, 1, sizeof in, f);
    }
  if (gz)
    inflateEnd (&zs);
  fclose (f);
  return total;
}

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

typedef enum
{
  CANCEL_READING,     /* half the bytes read */
  CANCEL_TABLES,      /* as the building begins: the tables' unpack */
  CANCEL_BUILDING,    /* half the building done */
} CancelAt;

static const char *cancel_at_names[] = { "half-way through reading", "as the tables are unpacked",
                                         "half-way through building" };

typedef struct
{
  GMutex        lock;
  GCond         cond;
  GCancellable *cancellable;
  CancelAt      at;
  guint64       done;
  guint64       goal;
  gboolean      building;
  guint64       built;
  guint64       build_goal;
  double        cancelled_at;
  gboolean      finished;
  double        finished_at;
} CancelProbe;

static void
cancel_progress (guint64  done,
                 guint64  total,
                 gpointer user_data)
{
  CancelProbe *probe = user_data;

  g_mutex_lock (&probe->lock);
  probe->done = done;
  probe->goal = total;
  g_cond_broadcast (&probe->cond);
  g_mutex_unlock (&probe->lock);
}

static void
cancel_building (guint64  done,
                 guint64  total,
                 gpointer user_data)
{
  CancelProbe *probe = user_data;

  g_mutex_lock (&probe->lock);
  probe->building = TRUE;
  probe->built = done;
  probe->build_goal = total;
  g_cond_broadcast (&probe->cond);
  /* Cancelled from the bench's thread: this one waits for it to be sent,
   * so the phase is the one asked for */
  if (probe->at == CANCEL_TABLES || (probe->at == CANCEL_BUILDING && done * 2 >= total))
    while (!g_cancellable_is_cancelled (probe->cancellable))
      g_cond_wait (&probe->cond, &probe->lock);
  g_mutex_unlock (&probe->lock);
}

static gboolean
cancel_due (CancelProbe *probe)
{
  switch (probe->at)
    {
    case CANCEL_READING:
      return probe->goal != 0 && probe->done * 2 >= probe->goal;
    case CANCEL_TABLES:
      return probe->building;
    case CANCEL_BUILDING:
    default:
      return probe->building && probe->built * 2 >= probe->build_goal;
    }
}

static gpointer
cancel_thread (gpointer data)
{
  CancelProbe *probe = data;
  g_autoptr(GFile) file = g_object_get_data (G_OBJECT (probe->cancellable), "file");
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersProfile) profile = NULL;
  EmbersInputOptions options;

  g_object_ref (file);
  embers_input_options_init (&options);
  options.progress = cancel_progress;   /* bytes read */
  options.building = cancel_building;
  options.user_data = probe;
  profile = embers_profile_load_file_full (file, &options, probe->cancellable, &error);
  g_mutex_lock (&probe->lock);
  probe->finished = TRUE;
  probe->finished_at = now_seconds ();
  g_cond_broadcast (&probe->cond);
  g_mutex_unlock (&probe->lock);
  return profile != NULL ? GINT_TO_POINTER (1) : NULL;
}

/* Starts a load, cancels it at @at, and prints how long the loader took
 * to stop and what it left in memory. */
static void
bench_cancel (const char *path,
              CancelAt    at)
{
  CancelProbe probe = { 0 };
  g_autoptr(GFile) file = g_file_new_for_path (path);
  GThread *thread;
  gint64 rss_before, rss_during, rss_after;
  gboolean completed;

  malloc_trim (0);
  rss_before = proc_status_kb ("VmRSS");
  g_mutex_init (&probe.lock);
  g_cond_init (&probe.cond);
  probe.cancellable = g_cancellable_new ();
  probe.at = at;
  g_object_set_data (G_OBJECT (probe.cancellable), "file", file);
  thread = g_thread_new ("bench-cancel", cancel_thread, &probe);

  g_mutex_lock (&probe.lock);
  while (!probe.finished && !cancel_due (&probe))
    g_cond_wait (&probe.cond, &probe.lock);
  rss_during = proc_status_kb ("VmRSS");
  probe.cancelled_at = now_seconds ();
  g_cancellable_cancel (probe.cancellable);
  g_cond_broadcast (&probe.cond);
  g_mutex_unlock (&probe.lock);
  completed = g_thread_join (thread) != NULL;
  malloc_trim (0);
  rss_after = proc_status_kb ("VmRSS");

  if (completed)
    g_print ("cancel:         the load finished before it could be cancelled\n");
  else
    g_print ("cancel:         %s: stopped %.1f ms after the cancel (%.0f%% of the bytes read); "
             "RSS %.1f MiB before, %.1f MiB at the cancel, %.1f MiB after\n",
             cancel_at_names[at], (probe.finished_at - probe.cancelled_at) * 1e3,
             probe.goal ? 100.0 * probe.done / probe.goal : 0.0,
             rss_before / 1024.0, rss_during / 1024.0, rss_after / 1024.0);

  g_object_unref (probe.cancellable);
  g_mutex_clear (&probe.lock);
  g_cond_clear (&probe.cond);
}

/* --in-process FILE: one load for the node count, the profile's memory and
 * the loader's phases, then a cancelled load */
static int
run_in_process (const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersProfile) profile = NULL;
  gsize profile_bytes, strings_bytes = 0;
  guint n_nodes;
  double t0, load_wall;
  gint64 rss_before, rss_peak;

  malloc_trim (0);
  reset_peak_rss ();
  rss_before = proc_status_kb ("VmRSS");
  t0 = now_seconds ();
  profile = embers_profile_load_file (file, NULL, &error);
  load_wall = now_seconds () - t0;
  rss_peak = proc_status_kb ("VmHWM");
  if (profile == NULL)
    {
      g_printerr ("load failed: %s\n", error->message);
      return 1;
    }
  n_nodes = embers_profile_get_n_nodes (profile);
  profile_bytes = embers_profile_get_memory_size (profile);
  for (guint i = 0; i < embers_profile_get_n_strings (profile); i++)
    strings_bytes += strlen (embers_profile_get_string (profile, i)) + 1 + 4;
  g_clear_object (&profile);
  malloc_trim (0);

  g_print ("in process:     load %.3f s, nodes %u, profile %.1f MiB (%.1f bytes per node, "
           "strings %.1f MiB)\n",
           load_wall, n_nodes, profile_bytes / 1048576.0,
           (double) (profile_bytes - MIN (strings_bytes, profile_bytes)) / MAX (n_nodes, 1),
           strings_bytes / 1048576.0);
  g_print ("load's peak:    %.1f MiB over the %.1f MiB before it: %.1f bytes per node\n",
           (rss_peak - rss_before) / 1024.0, rss_before / 1024.0,
           (rss_peak - rss_before) * 1024.0 / MAX (n_nodes, 1));
  for (CancelAt at = CANCEL_READING; at <= CANCEL_BUILDING; at++)
    bench_cancel (path, at);
  return 0;
}

/* The command line's own peak RSS, on a profile of a few nodes */
static gint64 baseline_rss_kb;

static gboolean
bench_file (const char *path,
            const char *embers,
            const char *floor,
            const char *go,
            guint       runs,
            guint       go_runs,
            GString    *summary)
{
  g_autofree Run *e = g_new0 (Run, runs);
  g_autofree Run *f = g_new0 (Run, runs);
  g_autofree Run *g = g_new0 (Run, MAX (go_runs, 1));
  g_autofree char *err_path = g_build_filename (g_get_tmp_dir (), "bench-load-err.txt", NULL);
  g_autofree char *out_path = g_build_filename (g_get_tmp_dir (), "bench-load-out.txt", NULL);
  g_autofree char *floor_err = NULL;
  g_autofree char *base = g_path_get_basename (path);
  g_autofree char *in_process = NULL;
  const char *e_argv[] = { embers, "--top=20", path, NULL };
  const char *f_argv[] = { floor, path, NULL };
  const char *g_argv[] = { go, "tool", "pprof", "-top", path, NULL };
  double e_wall, e_cpu, f_wall, f_cpu, g_wall = 0, g_cpu = 0;
  gint64 e_rss, f_rss, g_rss = 0;
  gsize raw;
  guint n_go = 0, n_nodes = 0;
  char *dot;

  if ((dot = strstr (base, ".pb")) != NULL)
    *dot = '\0';
  raw = uncompressed_size (path);
  g_print ("# %s: %.1f MiB uncompressed\n", path, raw / 1048576.0);

  for (guint r = 0; r < runs; r++)
    {
      /* Alternate the order so that neither always runs on a warmer cache */
      if (r % 2 == 0)
        {
          if (!run_child (e_argv, NULL, err_path, &e[r]) ||
              !run_child (f_argv, NULL, err_path, &f[r]))
            return FALSE;
        }
      else
        {
          if (!run_child (f_argv, NULL, err_path, &f[r]) ||
              !run_child (e_argv, NULL, err_path, &e[r]))
            return FALSE;
        }
      g_file_get_contents (err_path, &floor_err, NULL, NULL);
      if (go != NULL && r < go_runs)
        {
          if (run_child (g_argv, NULL, err_path, &g[n_go]))
            n_go++;
          else
            go = NULL;
        }
      g_print ("# round %u: embers %.3f s (%.3f s CPU, %.0f MiB), floor %.3f s", r + 1,
               e[r].wall, e[r].cpu, e[r].rss_kb / 1024.0, f[r].wall);
      if (n_go > 0 && r < n_go)
        g_print (", go %.2f s", g[r].wall);
      g_print ("\n");
    }
  if (floor_err != NULL)
    g_print ("# %s", floor_err);

  /* The same lines from both */
  {
    g_autofree char *a = NULL, *b = NULL;
    Run dummy;

    run_child (e_argv, out_path, err_path, &dummy);
    g_file_get_contents (out_path, &a, NULL, NULL);
    run_child (f_argv, out_path, err_path, &dummy);
    g_file_get_contents (out_path, &b, NULL, NULL);
    g_print ("# embers --top=20 and the floor print %s\n",
             g_strcmp0 (a, b) == 0 ? "the same lines" : "DIFFERENT lines");
  }

  summarize (e, runs, &e_wall, &e_cpu, &e_rss);
  summarize (f, runs, &f_wall, &f_cpu, &f_rss);
  if (n_go > 0)
    summarize (g, n_go, &g_wall, &g_cpu, &g_rss);

  /* The node count, the profile's own memory, the loader's phases and a
   * cancelled load: in a child (this program again), so that this
   * process's own memory never counts in the children's peak RSS (a
   * spawned child starts from its parent's high-water mark). */
  {
    g_autofree char *self = g_file_read_link ("/proc/self/exe", NULL);
    g_autofree char *inproc = NULL;
    const char *i_argv[] = { self, "--in-process", path, NULL };
    Run dummy;
    char *line;

    if (!run_child (i_argv, out_path, err_path, &dummy) ||
        !g_file_get_contents (out_path, &inproc, NULL, NULL))
      return FALSE;
    line = strstr (inproc, "nodes ");
    if (line == NULL || sscanf (line, "nodes %u", &n_nodes) != 1)
      return FALSE;
    in_process = g_steal_pointer (&inproc);
  }

  g_print ("embers --top:   %.3f s wall, %.3f s CPU, peak RSS %.1f MiB (%.1fx the uncompressed size)\n",
           e_wall, e_cpu, e_rss / 1024.0, e_rss * 1024.0 / MAX (raw, 1));
  g_print ("floor:          %.3f s wall, %.3f s CPU, peak RSS %.1f MiB\n",
           f_wall, f_cpu, f_rss / 1024.0);
  if (n_go > 0)
    g_print ("go tool pprof:  %.3f s wall, %.3f s CPU, peak RSS %.1f MiB (median of %u)\n",
             g_wall, g_cpu, g_rss / 1024.0, n_go);
  g_print ("%s", in_process);
  g_print ("peak RSS:       %.1f bytes per node (all of the process's peak, strings included)",
           e_rss * 1024.0 / MAX (n_nodes, 1));
  if (baseline_rss_kb > 0)
    g_print ("; %.1f bytes per node over the command line's own %.1f MiB",
             (e_rss - baseline_rss_kb) * 1024.0 / MAX (n_nodes, 1), baseline_rss_kb / 1024.0);
  g_print ("\n");
  /* Ratios of the runs paired in each round (the medians of the ratios),
   * then of the medians: on a shared machine the first is the fair one */
  g_print ("ratios:         embers / floor %.2fx wall, %.2fx CPU paired (%.2fx, %.2fx of the medians; goal <= %.1fx)",
           paired_ratio (e, f, runs, FALSE), paired_ratio (e, f, runs, TRUE),
           e_wall / f_wall, e_cpu / f_cpu, GOAL_FLOOR);
  if (n_go > 0)
    g_print ("; go / embers %.1fx wall, %.1fx CPU paired (%.1fx, %.1fx of the medians)",
             paired_ratio (g, e, n_go, FALSE), paired_ratio (g, e, n_go, TRUE),
             g_wall / e_wall, g_cpu / e_cpu);
  g_print ("\n\n");

  g_string_append_printf (summary, "| %s | %.1f MB | %u | %.3f s | %.3f s | %.3f s | ",
                          base, raw / 1e6, n_nodes, e_wall, e_cpu, f_wall);
  if (n_go > 0)
    g_string_append_printf (summary, "%.2f s | %.1fx (CPU %.1fx) |", g_wall,
                            paired_ratio (g, e, n_go, FALSE), paired_ratio (g, e, n_go, TRUE));
  else
    g_string_append (summary, "- | - |");
  g_string_append_printf (summary, " %.2fx (CPU %.2fx) | %.0f MB (%.1fx, %.0f B/node over the program's own) |\n",
                          paired_ratio (e, f, runs, FALSE), paired_ratio (e, f, runs, TRUE), e_rss * 1024 / 1e6, e_rss * 1024.0 / MAX (raw, 1),
                          (e_rss - baseline_rss_kb) * 1024.0 / MAX (n_nodes, 1));
  return TRUE;
}

static gboolean
ensure_input (const char  *gen,
              const char  *dir,
              const Shape *shape,
              char       **path,
              GError     **error)
{
  g_autofree char *raw = g_strdup_printf ("%s/%s.pb", dir, shape->name);
  g_autofree char *samples = g_strdup_printf ("%u", shape->samples);
  const char *argv[] = { gen, raw, "--shape", shape->shape, "--samples", samples, "--gzip",
                         /* the tiny one: a few functions too */
                         shape->samples < 100 ? "--functions" : NULL, "10", NULL };
  int status = 0;

  *path = g_strconcat (raw, ".gz", NULL);
  if (g_file_test (*path, G_FILE_TEST_EXISTS))
    return TRUE;
  g_print ("# generating %s\n", *path);
  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, &status, error) ||
      !g_spawn_check_wait_status (status, error))
    return FALSE;
  g_unlink (raw);
  return TRUE;
}

int
main (int    argc,
      char **argv)
{
  gint64 runs = 5, go_runs = 3;
  g_autofree char *gen = NULL, *embers = NULL, *floor = NULL, *dir = NULL, *shape_list = NULL;
  gboolean no_go = FALSE;
  g_autofree char *in_process_path = NULL;
  GOptionEntry entries[] = {
    { "in-process", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_FILENAME, &in_process_path, NULL, NULL },
    { "runs", 0, 0, G_OPTION_ARG_INT64, &runs, "Runs of Embers and the floor per profile (5)", "N" },
    { "go-runs", 0, 0, G_OPTION_ARG_INT64, &go_runs, "Runs of go tool pprof per profile (3)", "N" },
    { "shapes", 0, 0, G_OPTION_ARG_STRING, &shape_list, "Profiles to make: s10k,s100k,big100k,z500k", "LIST" },
    { "dir", 0, 0, G_OPTION_ARG_FILENAME, &dir, "Where generated profiles go", "DIR" },
    { "embers", 0, 0, G_OPTION_ARG_FILENAME, &embers, "The embers program", "PATH" },
    { "floor", 0, 0, G_OPTION_ARG_FILENAME, &floor, "The bench-floor program", "PATH" },
    { "gen", 0, 0, G_OPTION_ARG_FILENAME, &gen, "The gen-pprof program", "PATH" },
    { "no-go", 0, 0, G_OPTION_ARG_NONE, &no_go, "Do not run go tool pprof", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new ("[FILE...] - load profiles beside the floor and go tool pprof");
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GString) summary = g_string_new (NULL);
  g_autofree char *self = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *here = self ? g_path_get_dirname (self) : g_get_current_dir ();
  g_autofree char *go = NULL;
  g_autofree char *loadavg = NULL;
  guint64 busy0 = 0, total0 = 0, busy1 = 0, total1 = 0;
  double cpu0, cpu1, wall0;
  long n_cpus = sysconf (_SC_NPROCESSORS_ONLN);
  int ret = 0;

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    {
      g_printerr ("bench-load: %s\n", error->message);
      return 2;
    }
  if (in_process_path != NULL)
    {
      /* As main.c does */
      mallopt (M_MMAP_THRESHOLD, 256 * 1024);
      return run_in_process (in_process_path);
    }
  if (runs < 1 || runs > 1000 || go_runs < 0)
    {
      g_printerr ("bench-load: --runs must be 1..1000\n");
      return 2;
    }

  if (embers == NULL)
    embers = g_build_filename (here, "..", "..", "src", "app", "embers", NULL);
  if (floor == NULL)
    floor = g_build_filename (here, "bench-floor", NULL);
  if (gen == NULL)
    gen = g_build_filename (here, "gen-pprof", NULL);
  if (dir == NULL)
    dir = g_strdup (here);
  if (!no_go && go_runs > 0)
    go = g_find_program_in_path ("go");

  if (argc > 1)
    for (int i = 1; i < argc; i++)
      g_ptr_array_add (files, g_strdup (argv[i]));
  else
    {
      g_auto(GStrv) names = g_strsplit (shape_list ? shape_list : "s10k,s100k,big100k,z500k", ",", -1);

      for (guint i = 0; names[i] != NULL; i++)
        {
          const Shape *shape = NULL;
          char *path = NULL;

          for (guint k = 0; k < G_N_ELEMENTS (shapes); k++)
            if (g_str_equal (shapes[k].name, names[i]))
              shape = &shapes[k];
          if (shape == NULL)
            {
              g_printerr ("bench-load: no profile shape named %s\n", names[i]);
              return 2;
            }
          if (!ensure_input (gen, dir, shape, &path, &error))
            {
              g_printerr ("bench-load: cannot make %s: %s\n", shape->name, error->message);
              return 1;
            }
          g_ptr_array_add (files, path);
        }
    }

  /* The command line's own memory: a profile of ten samples */
  {
    static const Shape tiny = { "tiny", "zipf", 10 };
    g_autofree char *tiny_path = NULL;
    g_autofree char *err_path = g_build_filename (g_get_tmp_dir (), "bench-load-err.txt", NULL);
    Run run;

    if (ensure_input (gen, dir, &tiny, &tiny_path, NULL))
      {
        const char *t_argv[] = { embers, "--top=1", tiny_path, NULL };

        if (run_child (t_argv, NULL, err_path, &run))
          baseline_rss_kb = run.rss_kb;
      }
  }

  g_file_get_contents ("/proc/loadavg", &loadavg, NULL, NULL);
  g_print ("# bench-load: %" G_GINT64_FORMAT " runs per profile (go: %" G_GINT64_FORMAT "), "
           "%ld CPUs, load average %s", runs, go ? go_runs : 0, n_cpus, loadavg ? loadavg : "?\n");
  g_print ("# embers --top on ten samples: peak RSS %.1f MiB (the program itself, its libraries)\n",
           baseline_rss_kb / 1024.0);
  machine_jiffies (&busy0, &total0);
  cpu0 = self_and_children_cpu ();
  wall0 = now_seconds ();

  for (guint i = 0; i < files->len; i++)
    if (!bench_file (files->pdata[i], embers, floor, go, (guint) runs, (guint) go_runs, summary))
      ret = 1;

  machine_jiffies (&busy1, &total1);
  cpu1 = self_and_children_cpu ();
  if (total1 > total0)
    {
      double wall = now_seconds () - wall0;
      double busy = (double) (busy1 - busy0) / (total1 - total0) * n_cpus;
      double ours = (cpu1 - cpu0) / wall;

      g_print ("# machine: %.2f of %ld CPUs busy on average during the run, %.2f of them this benchmark, "
               "%.2f other processes\n", busy, n_cpus, ours, MAX (busy - ours, 0));
    }

  g_print ("\n| profile | raw | nodes | Embers wall | Embers CPU | floor wall | go pprof wall | go / Embers (paired) | Embers / floor (paired) | Embers peak RSS |\n"
           "|---|---|---|---|---|---|---|---|---|---|\n%s", summary->str);
  g_print ("# goals: go / Embers >= %.0fx on s100k and big100k, >= %.0fx on z500k; Embers / floor <= %.1fx; "
           "about %.0f bytes per node plus strings\n", GOAL_GO_S, GOAL_GO_Z, GOAL_FLOOR, GOAL_BYTES_NODE);
  return ret;
}
