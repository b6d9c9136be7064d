/* bench-window.c: how fast the window shows a big profile and answers on
 * it, measured in the real widgets under a display (run it under
 * xvfb-run). It prints figures and asserts nothing about time.
 *
 *   bench-window [--file FILE] [--gen PATH] [--embers PATH] [--runs N]
 *                [--width W --height H] [--no-transforms]
 *
 * Without --file it makes big100k (gen-pprof --shape big) next to itself.
 *
 * Load: from embers_window_open_file() to the first frame that paints the
 * flame graph of the whole profile (and, where the page shows a coarse
 * one of the samples read so far before it, to the first frame that
 * paints that), against the command line's load of the same file
 * (`embers --top=20 FILE`, as a child, just before each window load: the
 * ratio is the median of the pairs'). A ping probe, a 1 ms timeout on the
 * main loop, measures the longest the main loop did not run during the
 * load and the hand-off to the widgets, and the main thread's CPU time in
 * each pause: on a shared machine a long pause with little CPU is the
 * other processes', a pause full of CPU is the app's own work. The loads
 * start once the empty window has drawn its first frame (timed apart:
 * GTK's GL renderer compiles its shaders for it).
 *
 * Frames: on the loaded profile, each interaction (zoom step, pan, hover)
 * is followed by the frame clock until a frame has painted its result:
 * the time from the interaction to the end of that frame ("after-paint",
 * which includes waiting for the frame clock's next tick, up to a refresh
 * interval), and the frame's own work on the main thread (from
 * "before-paint" to "after-paint": layout, snapshot, rendering). The graph
 * paints on a worker: a zoom or pan step is answered first by the last
 * paint moved and scaled, then sharp; both are printed ("sharp" is the
 * first frame that shows the paint of the new view, which is the first
 * frame itself when the worker was done in time). Beside the wall times,
 * each frame's CPU time on the main thread and Mesa's llvmpipe threads:
 * on a shared machine it varies far less.
 *
 * The floor (--floor, or --floor-only without loading anything): what the
 * same renderer needs for a frame that shows nothing but one texture of
 * the graph's size, in a bare widget of that size in a window of its own,
 * measured alike: the texture moved by a pixel (as a pan's first frame),
 * scaled (as a zoom step's first frame), a new texture each frame (upload
 * and draw, as a sharp frame), and a plain colour fill of the same area
 * (no texture at all). No widget can draw the graph faster than that.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <adwaita.h>
#include <glib/gstdio.h>

#include "embers-flame-graph.h"
#include "embers-profile-page.h"
#include "embers-renderer.h"
#include "embers-window.h"

typedef struct
{
  /* ping probe */
  guint          ping_id;
  gint64         last_ping;
  gint64         max_gap;
  gint64         max_gap_at;
  gint64         gaps_since;
  GString       *gaps;       /* pauses over 30 ms: "end time (length)" */
  gint64         last_cpu;   /* the main thread's CPU time at the last ping */
  gint64         max_gap_cpu;      /* of the longest pause */
  gint64         max_cpu;          /* the most CPU the main thread spent in one pause */

  /* frames */
  GdkFrameClock *clock;
  gint64         frame_start;
  gint64         last_frame_len;
  gint64         layout_start;
  gint64         last_layout_len;
  gint64         paint_start;
  gint64         last_paint_end;
  gint64         last_paint_len;
  gint64         frame_cpu_start;
  gint64         last_frame_cpu;
  gint64         frame_main_cpu_start;
  gint64         last_frame_main_cpu;   /* of which the main thread's */
  guint          n_paints;
  EmbersFlameGraph *graph;          /* the graph the frames are watched for */
  gboolean       last_frame_sharp;  /* the last frame showed its current paint */
} Bench;

static Bench bench;

/* A long load's coarse profile: shown since when, painted when */
static struct
{
  guint  paints_at_shown;
  gint64 painted;
} coarse;

/* Whether the page shows a long load's coarse profile (asked by name:
 * the bench also runs against builds without it) */
static gboolean
page_partial (EmbersProfilePage *page)
{
  gboolean partial = FALSE;

  if (g_object_class_find_property (G_OBJECT_GET_CLASS (page), "partial") != NULL)
    g_object_get (page, "partial", &partial, NULL);
  return partial;
}

static double
now_ms (void)
{
  return g_get_monotonic_time () / 1e3;
}

/* The main thread's CPU time: a pause in which it ran little was the
 * machine's (other processes had the processors), not the app's work */
static gint64
thread_cpu_us (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return (gint64) ts.tv_sec * G_USEC_PER_SEC + ts.tv_nsec / 1000;
}

static gboolean
ping (gpointer data)
{
  gint64 t = g_get_monotonic_time ();
  gint64 cpu = thread_cpu_us ();

  if (bench.gaps != NULL && bench.last_ping != 0 && t - bench.last_ping > 30000)
    g_string_append_printf (bench.gaps, " %.2f s (%.0f ms, %.0f ms CPU)", (t - bench.gaps_since) / 1e6,
                            (t - bench.last_ping) / 1e3, (cpu - bench.last_cpu) / 1e3);
  if (bench.last_ping != 0 && t - bench.last_ping > bench.max_gap)
    {
      bench.max_gap = t - bench.last_ping;
      bench.max_gap_at = t;
      bench.max_gap_cpu = cpu - bench.last_cpu;
    }
  if (bench.last_ping != 0)
    bench.max_cpu = MAX (bench.max_cpu, cpu - bench.last_cpu);
  bench.last_ping = t;
  bench.last_cpu = cpu;
  return G_SOURCE_CONTINUE;
}

static void
ping_reset (void)
{
  bench.last_ping = g_get_monotonic_time ();
  bench.last_cpu = thread_cpu_us ();
  bench.max_gap = 0;
  bench.max_gap_cpu = 0;
  bench.max_cpu = 0;
}

/* The CPU time of the threads that draw a frame: the main thread and,
 * with software GL, Mesa's rasteriser threads (llvmpipe-N). On a shared
 * machine this varies much less than the wall time. From each thread's
 * schedstat (ns on the CPU); 0 where it cannot be read. */
static gint64
frame_threads_cpu_us (void)
{
  g_autoptr(GDir) dir = g_dir_open ("/proc/self/task", 0, NULL);
  const char *tid;
  char self_tid[32];
  gint64 sum = 0;

  if (dir == NULL)
    return 0;
  g_snprintf (self_tid, sizeof self_tid, "%d", getpid ());
  while ((tid = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *comm_path = g_build_filename ("/proc/self/task", tid, "comm", NULL);
      g_autofree char *stat_path = g_build_filename ("/proc/self/task", tid, "schedstat", NULL);
      g_autofree char *comm = NULL, *stat = NULL;

      if (!g_str_equal (tid, self_tid) &&
          (!g_file_get_contents (comm_path, &comm, NULL, NULL) || !g_str_has_prefix (comm, "llvmpipe")))
        continue;
      if (g_file_get_contents (stat_path, &stat, NULL, NULL))
        sum += g_ascii_strtoll (stat, NULL, 10) / 1000;
    }
  return sum;
}

static gboolean
on_before_paint (GSignalInvocationHint *hint,
                 guint                  n_params,
                 const GValue          *params,
                 gpointer               data)
{
  if (g_value_get_object (&params[0]) == (GObject *)bench.clock)
    {
      bench.frame_start = g_get_monotonic_time ();
      bench.frame_cpu_start = frame_threads_cpu_us ();
      bench.frame_main_cpu_start = thread_cpu_us ();
    }
  return TRUE;
}

/* The start of the layout and paint phases: emission hooks, which run
 * before the handlers GTK connected (a handler connected now would run
 * after GTK's own, at the phase's end) */
static gboolean
on_layout (GSignalInvocationHint *hint,
           guint                  n_params,
           const GValue          *params,
           gpointer               data)
{
  if (g_value_get_object (&params[0]) == (GObject *)bench.clock)
    bench.layout_start = g_get_monotonic_time ();
  return TRUE;
}

static gboolean
on_paint (GSignalInvocationHint *hint,
          guint                  n_params,
          const GValue          *params,
          gpointer               data)
{
  if (g_value_get_object (&params[0]) != (GObject *)bench.clock)
    return TRUE;
  bench.paint_start = g_get_monotonic_time ();
  /* A frame without a layout phase has layout_start from an earlier one */
  bench.last_layout_len = bench.layout_start >= bench.frame_start ? bench.paint_start - bench.layout_start : 0;
  return TRUE;
}

static void
on_after_paint (GdkFrameClock *clock,
                gpointer       data)
{
  if (clock != bench.clock)
    return;
  bench.last_paint_end = g_get_monotonic_time ();
  bench.last_paint_len = bench.last_paint_end - bench.paint_start;
  bench.last_frame_len = bench.last_paint_end - bench.frame_start;
  bench.last_frame_cpu = frame_threads_cpu_us () - bench.frame_cpu_start;
  bench.last_frame_main_cpu = thread_cpu_us () - bench.frame_main_cpu_start;
  bench.last_frame_sharp = bench.graph != NULL && embers_flame_graph_has_paint_cache (bench.graph);
  bench.n_paints++;
}

static void
iterate_until (gboolean (*done) (gpointer),
               gpointer   data,
               double     limit_s)
{
  gint64 end = g_get_monotonic_time () + (gint64)(limit_s * G_USEC_PER_SEC);

  while (!done (data))
    {
      if (g_get_monotonic_time () > end)
        g_error ("bench-window: gave up waiting after %.0f s", limit_s);
      g_main_context_iteration (NULL, TRUE);
    }
}

static gboolean
page_ready (gpointer data)
{
  EmbersProfilePage *page = data;
  EmbersFlameGraph *graph = embers_profile_page_get_flame_graph (page);

  if (embers_profile_page_get_state (page) == EMBERS_PAGE_STATE_FAILED)
    g_error ("bench-window: the load failed");
  if (page_partial (page))
    {
      /* The first frame painted once the coarse profile was drawn */
      if (coarse.paints_at_shown == G_MAXUINT)
        coarse.paints_at_shown = bench.n_paints;
      else if (coarse.painted == 0 && embers_flame_graph_has_paint_cache (graph) &&
               bench.n_paints > coarse.paints_at_shown)
        coarse.painted = bench.last_paint_end;
      return FALSE;
    }
  return embers_profile_page_get_state (page) == EMBERS_PAGE_STATE_READY &&
         embers_flame_graph_get_profile (graph) != NULL &&
         embers_flame_graph_has_paint_cache (graph) &&
         bench.n_paints > 0;
}

static gboolean
page_settled (gpointer data)
{
  EmbersProfilePage *page = data;

  return !embers_profile_page_get_busy (page) && !embers_profile_page_get_search_pending (page);
}

/* Until the page shows the result of a transform: a new profile in the
 * graph, painted, and the page no longer busy */
typedef struct
{
  EmbersProfilePage *page;
  EmbersProfile     *before;
  guint              paints;
} TransformWait;

static gboolean
transform_shown (gpointer data)
{
  TransformWait *w = data;
  EmbersFlameGraph *graph = embers_profile_page_get_flame_graph (w->page);

  return !embers_profile_page_get_busy (w->page) &&
         embers_flame_graph_get_profile (graph) != w->before &&
         embers_flame_graph_has_paint_cache (graph) &&
         bench.n_paints > w->paints;
}

/* Until a frame has painted after @since (and after @paints frames),
 * and with @sharp, until a frame has shown the graph's paint of the view
 * (the first frame does when the paint was ready in time) */
typedef struct
{
  EmbersFlameGraph *graph;
  gint64            since;
  guint             paints;
  gboolean          sharp;
} FrameWait;

static gboolean
frame_painted (gpointer data)
{
  FrameWait *w = data;

  if (bench.n_paints <= w->paints || bench.last_paint_end < w->since)
    return FALSE;
  return !w->sharp || bench.last_frame_sharp;
}

/* One kind of interaction's figures, one entry per step */
typedef struct
{
  double *latency;   /* from the action to the end of the frame that shows it */
  double *work;      /* that frame's work on the main thread */
  double *layout;    /* of which the layout phase */
  double *paint;     /* and the paint phase: snapshot and rendering */
  double *cpu;       /* the CPU time of the main and GL threads in that frame */
  double *main_cpu;  /* of which the main thread's */
} Series;

static void
series_init (Series *s,
             guint   n)
{
  s->latency = g_new0 (double, n);
  s->work = g_new0 (double, n);
  s->layout = g_new0 (double, n);
  s->paint = g_new0 (double, n);
  s->cpu = g_new0 (double, n);
  s->main_cpu = g_new0 (double, n);
}

static void
series_clear (Series *s)
{
  g_free (s->latency);
  g_free (s->work);
  g_free (s->layout);
  g_free (s->paint);
  g_free (s->cpu);
  g_free (s->main_cpu);
}

static void
wait_frame (EmbersFlameGraph *graph,
            gint64            since,
            guint             paints,
            gboolean          sharp,
            Series           *s,
            guint             i)
{
  FrameWait w = { graph, since, paints, sharp };

  gtk_widget_queue_draw (GTK_WIDGET (graph));
  iterate_until (frame_painted, &w, 60);
  /* The main thread's work in that frame: layout, snapshot, rendering */
  s->work[i] = bench.last_frame_len / 1e3;
  s->layout[i] = bench.last_layout_len / 1e3;
  s->paint[i] = bench.last_paint_len / 1e3;
  s->cpu[i] = bench.last_frame_cpu / 1e3;
  s->main_cpu[i] = bench.last_frame_main_cpu / 1e3;
  s->latency[i] = (bench.last_paint_end - since) / 1e3;
}

static int
compare_doubles (const void *a,
                 const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;

  return x < y ? -1 : x > y;
}

static double
median (double *v,
        guint   n)
{
  qsort (v, n, sizeof (double), compare_doubles);
  return n == 0 ? 0 : n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static double
cli_seconds (const char *embers,
             const char *path)
{
  g_autoptr(GError) error = NULL;
  const char *argv[] = { embers, "--top=20", path, NULL };
  int status;
  double t0 = now_ms ();

  if (!g_spawn_sync (NULL, (char **)argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, NULL,
                     &status, &error) ||
      !g_spawn_check_wait_status (status, &error))
    {
      g_print ("# embers --top failed: %s\n", error->message);
      return -1;
    }
  return (now_ms () - t0) / 1e3;
}

/* The motion controller of the graph, for hover */
static GtkEventController *
motion_controller (GtkWidget *widget)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) c = g_list_model_get_item (controllers, i);

      if (GTK_IS_EVENT_CONTROLLER_MOTION (c))
        return GTK_EVENT_CONTROLLER (c);
    }
  return NULL;
}

static double
maximum (const double *v,
         guint         n)
{
  double m = 0;

  for (guint i = 0; i < n; i++)
    m = MAX (m, v[i]);
  return m;
}

static void
print_series (const char *what,
              Series     *s,
              guint       n)
{
  double max_latency = maximum (s->latency, n), max_work = maximum (s->work, n);

  g_print ("%-22s median %6.1f ms, max %6.1f ms from the action to the frame; "
           "the frame's work median %5.1f ms, max %5.1f ms (layout %4.1f ms, paint %4.1f ms), "
           "CPU %5.1f ms (main and GL threads; the main thread's %4.1f ms); %u times\n",
           what, median (s->latency, n), max_latency, median (s->work, n), max_work,
           median (s->layout, n), median (s->paint, n), median (s->cpu, n), median (s->main_cpu, n), n);
}

/* The floor: a bare widget that shows one texture of the graph's size */

typedef enum
{
  FLOOR_MOVED,     /* the same texture, moved by a pixel */
  FLOOR_MOVED_NEAREST, /* the same, drawn with the nearest filter */
  FLOOR_SCALED,    /* the same texture, scaled by 1.25 or not */
  FLOOR_SCALED_NEAREST, /* the same, drawn with the nearest filter */
  FLOOR_NEW,       /* a new texture of the same pixels each frame */
  FLOOR_FILL,      /* no texture: a colour fill of the same area */
} FloorMode;

#define BENCH_TYPE_FLOOR (bench_floor_get_type ())
G_DECLARE_FINAL_TYPE (BenchFloor, bench_floor, BENCH, FLOOR, GtkWidget)

struct _BenchFloor
{
  GtkWidget   parent_instance;
  GBytes     *pixels;
  GdkTexture *texture;
  int         width;
  int         height;
  FloorMode   mode;
  guint       step;
};

G_DEFINE_FINAL_TYPE (BenchFloor, bench_floor, GTK_TYPE_WIDGET)

static void
bench_floor_snapshot (GtkWidget   *widget,
                      GtkSnapshot *snapshot)
{
  BenchFloor *self = BENCH_FLOOR (widget);
  graphene_rect_t bounds = GRAPHENE_RECT_INIT (0, 0, self->width, self->height);
  gboolean odd = self->step % 2;

  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (0, 0, self->width, self->height));
  switch (self->mode)
    {
    case FLOOR_MOVED:
      graphene_rect_offset (&bounds, odd ? 1 : 0, 0);
      gtk_snapshot_append_texture (snapshot, self->texture, &bounds);
      break;
    case FLOOR_MOVED_NEAREST:
      graphene_rect_offset (&bounds, odd ? 1 : 0, 0);
      gtk_snapshot_append_scaled_texture (snapshot, self->texture, GSK_SCALING_FILTER_NEAREST, &bounds);
      break;
    case FLOOR_SCALED:
      bounds.size.width *= odd ? 1.25 : 1.0;
      gtk_snapshot_append_scaled_texture (snapshot, self->texture, GSK_SCALING_FILTER_LINEAR, &bounds);
      break;
    case FLOOR_SCALED_NEAREST:
      bounds.size.width *= odd ? 1.25 : 1.0;
      gtk_snapshot_append_scaled_texture (snapshot, self->texture, GSK_SCALING_FILTER_NEAREST, &bounds);
      break;
    case FLOOR_NEW:
      {
        g_autoptr(GdkTexture) texture = gdk_memory_texture_new (self->width, self->height,
                                                                gdk_texture_get_format (self->texture),
                                                                self->pixels, self->width * 4);

        gtk_snapshot_append_texture (snapshot, texture, &bounds);
      }
      break;
    case FLOOR_FILL:
    default:
      gtk_snapshot_append_color (snapshot, &(GdkRGBA) { odd ? 0.9 : 0.8, 0.5, 0.2, 1 }, &bounds);
      break;
    }
  gtk_snapshot_pop (snapshot);
}

static void
bench_floor_measure (GtkWidget      *widget,
                     GtkOrientation  orientation,
                     int             for_size,
                     int            *minimum,
                     int            *natural,
                     int            *minimum_baseline,
                     int            *natural_baseline)
{
  BenchFloor *self = BENCH_FLOOR (widget);

  *minimum = *natural = orientation == GTK_ORIENTATION_HORIZONTAL ? self->width : self->height;
}

static void
bench_floor_finalize (GObject *object)
{
  BenchFloor *self = BENCH_FLOOR (object);

  g_clear_object (&self->texture);
  g_clear_pointer (&self->pixels, g_bytes_unref);
  G_OBJECT_CLASS (bench_floor_parent_class)->finalize (object);
}

static void
bench_floor_class_init (BenchFloorClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = bench_floor_finalize;
  GTK_WIDGET_CLASS (klass)->snapshot = bench_floor_snapshot;
  GTK_WIDGET_CLASS (klass)->measure = bench_floor_measure;
}

static void
bench_floor_init (BenchFloor *self)
{
}

/* Pixels like a flame graph's: rows of frames in a few colours, with
 * the format the graph's texture has (opaque BGRX, as cairo paints) */
static BenchFloor *
bench_floor_new (int width,
                 int height)
{
  BenchFloor *self = g_object_new (BENCH_TYPE_FLOOR, NULL);
  guint32 *data = g_new (guint32, (gsize)width * height);

  for (int y = 0; y < height; y++)
    for (int x = 0; x < width; x++)
      data[(gsize)y * width + x] = 0xff000000u | (((x / 37) * 0x3a5f1bu + (y / 18) * 0x1f7a3cu) & 0xffffffu);
  self->width = width;
  self->height = height;
  self->pixels = g_bytes_new_take (data, (gsize)width * height * 4);
#if G_BYTE_ORDER == G_LITTLE_ENDIAN
  self->texture = gdk_memory_texture_new (width, height, GDK_MEMORY_B8G8R8X8, self->pixels, width * 4);
#else
  self->texture = gdk_memory_texture_new (width, height, GDK_MEMORY_X8R8G8B8, self->pixels, width * 4);
#endif
  return self;
}

static void
measure_floor (int   width,
               int   height,
               guint steps)
{
  static const struct { FloorMode mode; const char *what; } modes[] = {
    { FLOOR_MOVED, "floor: texture moved" },
    { FLOOR_MOVED_NEAREST, "floor: moved, nearest" },
    { FLOOR_SCALED, "floor: texture scaled" },
    { FLOOR_SCALED_NEAREST, "floor: scaled, nearest" },
    { FLOOR_NEW, "floor: new texture" },
    { FLOOR_FILL, "floor: colour fill" },
  };
  GtkWidget *window = gtk_window_new ();
  BenchFloor *floor_widget = bench_floor_new (width, height);
  GdkFrameClock *clock_before = bench.clock;
  Series s;

  gtk_window_set_decorated (GTK_WINDOW (window), FALSE);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (floor_widget));
  gtk_window_present (GTK_WINDOW (window));
  while (!gtk_widget_get_mapped (GTK_WIDGET (floor_widget)) ||
         gtk_widget_get_width (GTK_WIDGET (floor_widget)) != width)
    g_main_context_iteration (NULL, TRUE);
  bench.clock = gtk_widget_get_frame_clock (window);
  g_signal_connect_after (bench.clock, "after-paint", G_CALLBACK (on_after_paint), NULL);
  g_print ("# floor: a bare widget of %d x %d px showing one texture, in a window of its own; GSK renderer %s\n",
           gtk_widget_get_width (GTK_WIDGET (floor_widget)), gtk_widget_get_height (GTK_WIDGET (floor_widget)),
           G_OBJECT_TYPE_NAME (gtk_native_get_renderer (GTK_NATIVE (window))));

  series_init (&s, steps);
  for (guint m = 0; m < G_N_ELEMENTS (modes); m++)
    {
      floor_widget->mode = modes[m].mode;
      /* One frame first: the texture uploaded, the shaders compiled */
      for (guint i = 0; i < steps + 2; i++)
        {
          FrameWait w = { NULL, g_get_monotonic_time (), bench.n_paints, FALSE };
          guint at = i < 2 ? 0 : i - 2;

          floor_widget->step++;
          gtk_widget_queue_draw (GTK_WIDGET (floor_widget));
          iterate_until (frame_painted, &w, 60);
          s.work[at] = bench.last_frame_len / 1e3;
          s.layout[at] = bench.last_layout_len / 1e3;
          s.paint[at] = bench.last_paint_len / 1e3;
          s.cpu[at] = bench.last_frame_cpu / 1e3;
          s.main_cpu[at] = bench.last_frame_main_cpu / 1e3;
          s.latency[at] = (bench.last_paint_end - w.since) / 1e3;
        }
      print_series (modes[m].what, &s, steps);
    }
  series_clear (&s);

  g_signal_handlers_disconnect_by_func (bench.clock, on_after_paint, NULL);
  bench.clock = clock_before;
  gtk_window_destroy (GTK_WINDOW (window));
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

static char *
ensure_input (const char *gen,
              const char *dir)
{
  char *path = g_build_filename (dir, "big100k.pb.gz", NULL);
  g_autofree char *raw = g_build_filename (dir, "big100k.pb", NULL);
  g_autoptr(GError) error = NULL;
  const char *argv[] = { gen, raw, "--shape", "big", "--samples", "100000", "--gzip", NULL };
  int status;

  if (g_file_test (path, G_FILE_TEST_EXISTS))
    return path;
  g_print ("# generating %s\n", path);
  if (!g_spawn_sync (NULL, (char **)argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, &status, &error) ||
      !g_spawn_check_wait_status (status, &error))
    g_error ("bench-window: cannot make the input: %s", error->message);
  g_unlink (raw);
  return path;
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *file_path = NULL, *gen = NULL, *embers = NULL;
  gint64 runs = 3, steps = 12, win_width = 1920, win_height = 1080;
  gboolean no_transforms = FALSE, floor = FALSE, floor_only = FALSE, keep_gl = FALSE;
  g_autofree char *floor_size = NULL;
  GOptionEntry entries[] = {
    { "file", 0, 0, G_OPTION_ARG_FILENAME, &file_path, "The profile (default: big100k, made)", "FILE" },
    { "gen", 0, 0, G_OPTION_ARG_FILENAME, &gen, "The gen-pprof program", "PATH" },
    { "embers", 0, 0, G_OPTION_ARG_FILENAME, &embers, "The embers program (for the CLI's time)", "PATH" },
    { "runs", 0, 0, G_OPTION_ARG_INT64, &runs, "Loads (3)", "N" },
    { "steps", 0, 0, G_OPTION_ARG_INT64, &steps, "Interactions of each kind (12)", "N" },
    { "width", 0, 0, G_OPTION_ARG_INT64, &win_width, "The window's width (1920)", "W" },
    { "height", 0, 0, G_OPTION_ARG_INT64, &win_height, "The window's height (1080)", "H" },
    { "no-transforms", 0, 0, G_OPTION_ARG_NONE, &no_transforms, "Skip the transforms", NULL },
    { "keep-gl", 0, 0, G_OPTION_ARG_NONE, &keep_gl, "Draw with GL even where it is software (the app picks cairo there)", NULL },
    { "floor", 0, 0, G_OPTION_ARG_NONE, &floor, "Measure the renderer's floor after the graph", NULL },
    { "floor-only", 0, 0, G_OPTION_ARG_NONE, &floor_only, "Measure the floor only", NULL },
    { "floor-size", 0, 0, G_OPTION_ARG_STRING, &floor_size, "The floor's size with --floor-only (1369x978)", "WxH" },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new ("- time the window on a big profile");
  g_autoptr(GError) error = NULL;
  g_autofree char *self = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *here = self ? g_path_get_dirname (self) : g_get_current_dir ();
  g_autofree double *first_paint = NULL, *pauses = NULL, *coarse_paint = NULL;
  guint n_coarse = 0;
  struct rusage usage;
  g_autoptr(GFile) file = NULL;
  EmbersWindow *window;
  EmbersProfilePage *page = NULL;
  EmbersFlameGraph *graph;
  g_autofree double *cli = NULL;
  g_autofree double *paired = NULL;
  g_autofree double *pause_cpu = NULL;
  guint n_cli = 0;
  g_autofree char *loadavg = NULL;

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    {
      g_printerr ("bench-window: %s\n", error->message);
      return 2;
    }
  runs = CLAMP (runs, 1, 100);
  steps = CLAMP (steps, 1, 1000);
  if (gen == NULL)
    gen = g_build_filename (here, "..", "bench", "gen-pprof", NULL);
  if (embers == NULL)
    embers = g_build_filename (here, "..", "..", "src", "app", "embers", NULL);
  if (file_path == NULL)
    file_path = ensure_input (gen, here);
  file = g_file_new_for_path (file_path);

  gtk_init ();
  adw_init ();
  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);
  /* The renderer the app would pick (embers-renderer.c) */
  if (!keep_gl)
    {
      g_autofree char *gl = NULL;
      gint64 t_probe = g_get_monotonic_time ();
      EmbersRendererChoice choice = embers_renderer_choose (gdk_display_get_default (), &gl);

      g_print ("# renderer: %s (GL renderer: %s; asked in %.1f ms)\n",
               choice == EMBERS_RENDERER_CAIRO ? "cairo, as the app picks where GL is software"
               : choice == EMBERS_RENDERER_USER ? "GSK_RENDERER's" : "GTK's own choice",
               gl != NULL ? gl : "not asked", (g_get_monotonic_time () - t_probe) / 1e3);
    }
  else
    g_print ("# renderer: GTK's own choice (--keep-gl)\n");

  g_file_get_contents ("/proc/loadavg", &loadavg, NULL, NULL);
  g_print ("# bench-window: %s, %ld CPUs, load average %s", file_path,
           sysconf (_SC_NPROCESSORS_ONLN), loadavg ? loadavg : "?\n");

  window = embers_window_new (NULL);
  gtk_window_set_default_size (GTK_WINDOW (window), CLAMP (win_width, 400, 8192),
                               CLAMP (win_height, 300, 8192));
  gtk_window_present (GTK_WINDOW (window));
  while (!gtk_widget_get_mapped (GTK_WIDGET (window)))
    g_main_context_iteration (NULL, TRUE);
  bench.clock = gtk_widget_get_frame_clock (GTK_WIDGET (window));
  g_signal_add_emission_hook (g_signal_lookup ("before-paint", GDK_TYPE_FRAME_CLOCK), 0, on_before_paint, NULL, NULL);
  g_signal_add_emission_hook (g_signal_lookup ("layout", GDK_TYPE_FRAME_CLOCK), 0, on_layout, NULL, NULL);
  g_signal_add_emission_hook (g_signal_lookup ("paint", GDK_TYPE_FRAME_CLOCK), 0, on_paint, NULL, NULL);

  g_signal_connect_after (bench.clock, "after-paint", G_CALLBACK (on_after_paint), NULL);
  bench.ping_id = g_timeout_add (1, ping, NULL);
  bench.gaps = g_string_new (NULL);

  /* The window's own first frame is not the load's: mapped, it has not
   * drawn yet, and its first frame (for which GTK's GL renderer compiles
   * its shaders, 60-100 ms of CPU with llvmpipe) would land in the first
   * load's pauses. Measured apart. */
  {
    gint64 t0 = g_get_monotonic_time (), cpu0 = thread_cpu_us ();

    gtk_widget_queue_draw (GTK_WIDGET (window));
    while (bench.n_paints == 0)
      g_main_context_iteration (NULL, TRUE);
    g_print ("# the empty window's first frame: %.1f ms after it was mapped, %.1f ms of the main thread's CPU\n",
             (g_get_monotonic_time () - t0) / 1e3, (thread_cpu_us () - cpu0) / 1e3);

    /* Then the renderer's programs made one per idle (embers-window-warm.c),
     * as in a window that waits for the person to pick a file */
    t0 = g_get_monotonic_time ();
    cpu0 = thread_cpu_us ();
    ping_reset ();
    while (!embers_window_get_renderer_warm (EMBERS_WINDOW (window)))
      g_main_context_iteration (NULL, TRUE);
    g_print ("# the warm-up (the renderer's programs, a profile page made ahead): %.1f ms after the first frame, %.1f ms of the main thread's CPU, the longest main-loop pause %.1f ms\n",
             (g_get_monotonic_time () - t0) / 1e3, (thread_cpu_us () - cpu0) / 1e3, bench.max_gap / 1e3);
  }

  if (floor_only)
    {
      int fw = 1369, fh = 978;

      if (floor_size != NULL && sscanf (floor_size, "%dx%d", &fw, &fh) != 2)
        {
          g_printerr ("bench-window: --floor-size takes WxH\n");
          return 2;
        }
      measure_floor (CLAMP (fw, 16, 8192), CLAMP (fh, 16, 8192), steps);
      g_source_remove (bench.ping_id);
      gtk_window_destroy (GTK_WINDOW (window));
      while (g_main_context_iteration (NULL, FALSE))
        ;
      return 0;
    }

  /* The command line's load before each of the window's: each pair saw
   * the same load on the shared machine */
  cli = g_new0 (double, runs);
  paired = g_new0 (double, runs);
  pause_cpu = g_new0 (double, runs);

  first_paint = g_new (double, runs);
  coarse_paint = g_new (double, runs);
  pauses = g_new (double, runs);
  for (gint64 r = 0; r < runs; r++)
    {
      gint64 t0, open_cpu;

      if (page != NULL)
        {
          /* Close the last tab: each load starts from an empty window */
          gtk_widget_activate_action (GTK_WIDGET (window), "win.close-tab", NULL);
          while (g_main_context_iteration (NULL, FALSE))
            ;
        }
      if ((cli[n_cli] = cli_seconds (embers, file_path)) > 0)
        n_cli++;
      bench.n_paints = 0;
      coarse.paints_at_shown = G_MAXUINT;
      coarse.painted = 0;
      ping_reset ();
      t0 = g_get_monotonic_time ();
      bench.gaps_since = t0;
      g_string_truncate (bench.gaps, 0);
      open_cpu = thread_cpu_us ();
      page = embers_window_open_file (window, file);
      g_print ("# load %" G_GINT64_FORMAT ": opening the tab took %.1f ms (%.1f ms of the main thread's CPU)\n",
               r + 1, (g_get_monotonic_time () - t0) / 1e3, (thread_cpu_us () - open_cpu) / 1e3);
      iterate_until (page_ready, page, 600);
      first_paint[r] = (bench.last_paint_end - t0) / 1e6;
      if (coarse.painted > 0)
        {
          coarse_paint[n_coarse++] = (coarse.painted - t0) / 1e6;
          g_print ("# load %" G_GINT64_FORMAT ": first coarse (partial) paint %.3f s\n", r + 1,
                   (coarse.painted - t0) / 1e6);
        }
      else
        g_print ("# load %" G_GINT64_FORMAT ": no coarse (partial) paint before the whole profile's\n", r + 1);
      /* The hand-off goes on until the page has settled (search, table) */
      iterate_until (page_settled, page, 600);
      pauses[r] = bench.max_gap / 1e3;
      pause_cpu[r] = bench.max_cpu / 1e3;
      if (n_cli > 0)
        paired[n_cli - 1] = first_paint[r] / cli[n_cli - 1];
      g_print ("# load %" G_GINT64_FORMAT ": first paint %.3f s (the command line's load just before %.3f s), "
               "longest main-loop pause %.1f ms (%.2f s after the start, %.1f ms of it the main thread's CPU), "
               "the most main-thread CPU in one pause %.1f ms; pauses over 30 ms ended at:%s\n",
               r + 1, first_paint[r], n_cli > 0 ? cli[n_cli - 1] : 0.0, pauses[r],
               (bench.max_gap_at - t0) / 1e6, bench.max_gap_cpu / 1e3, pause_cpu[r],
               bench.gaps->len ? bench.gaps->str : " none");
    }

  {
    double fp = median (first_paint, runs);
    double pause_max = 0, cpu_max = 0;

    for (gint64 r = 0; r < runs; r++)
      {
        pause_max = MAX (pause_max, pauses[r]);
        cpu_max = MAX (cpu_max, pause_cpu[r]);
      }
    g_print ("first paint:           %.3f s (median of %" G_GINT64_FORMAT " loads; the whole profile)\n", fp, runs);
    if (n_coarse > 0)
      g_print ("first coarse paint:    %.3f s (median of %u loads that showed one; the samples read so far, marked partial)\n",
               median (coarse_paint, n_coarse), n_coarse);
    else
      g_print ("first coarse paint:    none (no load showed a partial profile)\n");
    getrusage (RUSAGE_SELF, &usage);
    g_print ("peak RSS:              %.0f MB (the process, after the loads)\n", usage.ru_maxrss / 1024.0);
    if (n_cli > 0)
      {
        double c = median (cli, n_cli);

        g_print ("embers --top:          %.3f s (the command line's load, median of %u, one before each window load)\n",
                 c, n_cli);
        g_print ("window / command line: %.2fx paired (the median of each load's ratio; %.2fx of the medians; goal <= 1.2x)\n",
                 median (paired, n_cli), fp / c);
      }
    g_print ("main-loop pause:       %.1f ms at most during load and hand-off (goal <= 50 ms); "
             "the main thread's own CPU in one pause at most %.1f ms (the rest of a pause: other processes ran)\n",
             pause_max, cpu_max);
  }

  /* Interactions */
  graph = embers_profile_page_get_flame_graph (page);
  bench.graph = graph;

  g_print ("# graph: %u nodes, %d x %d px; GSK renderer %s (software GL under Xvfb costs "
           "frames 5-10 ms more than cairo or a real GPU: see --keep-gl)\n",
           embers_profile_get_n_nodes (embers_flame_graph_get_profile (graph)),
           gtk_widget_get_width (GTK_WIDGET (graph)), gtk_widget_get_height (GTK_WIDGET (graph)),
           G_OBJECT_TYPE_NAME (gtk_native_get_renderer (GTK_NATIVE (window))));
  {
    Series first, sharp;
    GtkAdjustment *hadj = gtk_scrollable_get_hadjustment (GTK_SCROLLABLE (graph));
    GtkEventController *motion = motion_controller (GTK_WIDGET (graph));
    int width = gtk_widget_get_width (GTK_WIDGET (graph));
    int height = gtk_widget_get_height (GTK_WIDGET (graph));

    series_init (&first, steps);
    series_init (&sharp, steps);

    /* Zoom in step by step around the middle, then pan, then hover */
    for (gint64 i = 0; i < steps; i++)
      {
        gint64 t = g_get_monotonic_time ();
        guint paints = bench.n_paints;

        embers_flame_graph_zoom (graph, 1.25, 0.37);
        wait_frame (graph, t, paints, FALSE, &first, i);
        wait_frame (graph, t, paints, TRUE, &sharp, i);
      }
    print_series ("zoom step, first frame", &first, steps);
    print_series ("zoom step, sharp", &sharp, steps);

    for (gint64 i = 0; i < steps; i++)
      {
        gint64 t = g_get_monotonic_time ();
        guint paints = bench.n_paints;
        double step = gtk_adjustment_get_page_size (hadj) / 7;

        gtk_adjustment_set_value (hadj, gtk_adjustment_get_value (hadj) + (i % 2 ? -step : step));
        wait_frame (graph, t, paints, FALSE, &first, i);
        wait_frame (graph, t, paints, TRUE, &sharp, i);
      }
    print_series ("pan, first frame", &first, steps);
    print_series ("pan, sharp", &sharp, steps);

    for (gint64 i = 0; i < steps && motion != NULL; i++)
      {
        gint64 t = g_get_monotonic_time ();
        double x = width * (0.1 + 0.8 * ((i * 7) % 11) / 10.0);
        double y = height * (0.1 + 0.8 * ((i * 3) % 7) / 6.0);

        g_signal_emit_by_name (motion, "motion", x, y);
        wait_frame (graph, t, bench.n_paints, FALSE, &first, i);
      }
    print_series ("hover", &first, steps);

    /* A function highlighted, as hovering its row in the top table does:
     * the name with the most frames in the whole view */
    {
      embers_flame_graph_zoom (graph, 1e-9, 0.5);
      wait_frame (graph, g_get_monotonic_time (), bench.n_paints, TRUE, &first, 0);
    }
    {
      EmbersLayout *layout = embers_flame_graph_get_layout (graph);
      g_autoptr(GHashTable) counts = g_hash_table_new (NULL, NULL);
      guint n_rects, best = 0, best_count = 0;
      const EmbersRect *rects = embers_layout_get_rects (layout, &n_rects);
      EmbersProfile *profile = embers_flame_graph_get_profile (graph);

      for (guint r = 0; r < n_rects; r++)
        {
          guint name = embers_profile_node_name (profile, rects[r].node);
          guint count = GPOINTER_TO_UINT (g_hash_table_lookup (counts, GUINT_TO_POINTER (name))) + 1;

          if (rects[r].flags & EMBERS_RECT_MERGED || rects[r].node == 0)
            continue;
          g_hash_table_insert (counts, GUINT_TO_POINTER (name), GUINT_TO_POINTER (count));
          if (count > best_count)
            {
              best = rects[r].node;
              best_count = count;
            }
        }
      embers_flame_graph_set_highlight_name (graph, embers_profile_node_name_str (profile, best));
      g_print ("# highlighted: %s, %u frames in view\n", embers_profile_node_name_str (profile, best), best_count);
      wait_frame (graph, g_get_monotonic_time (), bench.n_paints, TRUE, &first, 0);

      for (gint64 i = 0; i < steps && motion != NULL; i++)
        {
          gint64 t = g_get_monotonic_time ();
          double x = width * (0.1 + 0.8 * ((i * 5) % 11) / 10.0);
          double y = height * (0.1 + 0.8 * ((i * 2) % 7) / 6.0);

          g_signal_emit_by_name (motion, "motion", x, y);
          wait_frame (graph, t, bench.n_paints, FALSE, &first, i);
        }
      print_series ("hover, highlighted", &first, steps);

      for (gint64 i = 0; i < steps; i++)
        {
          gint64 t = g_get_monotonic_time ();
          guint paints = bench.n_paints;

          embers_flame_graph_zoom (graph, 1.25, 0.37);
          wait_frame (graph, t, paints, FALSE, &first, i);
          wait_frame (graph, t, paints, TRUE, &sharp, i);
        }
      print_series ("zoom in, highlighted", &first, steps);
      print_series ("zoom in, hl., sharp", &sharp, steps);
      embers_flame_graph_set_highlight_name (graph, NULL);
    }
    series_clear (&first);
    series_clear (&sharp);
  }

  if (floor)
    measure_floor (gtk_widget_get_width (GTK_WIDGET (graph)), gtk_widget_get_height (GTK_WIDGET (graph)), steps);

  /* The view's transforms: they run off the main thread; the main loop
   * must keep turning while they do and when their result is shown */
  {
    static const struct { const char *what, *property, *view; gboolean value; } changes[] = {
      { "collapse recursion", "collapse-recursion", NULL, TRUE },
      { "expand recursion", "collapse-recursion", NULL, FALSE },
      { "bottom-up (invert)", NULL, "bottom-up", FALSE },
      { "back to the icicle", NULL, "icicle", FALSE },
    };

    for (guint i = 0; i < G_N_ELEMENTS (changes) && !no_transforms; i++)
      {
        TransformWait w = { page, embers_flame_graph_get_profile (graph), bench.n_paints };
        gint64 t0;

        ping_reset ();
        t0 = g_get_monotonic_time ();
        if (changes[i].property != NULL)
          g_object_set (page, changes[i].property, changes[i].value, NULL);
        else
          g_object_set (page, "view", changes[i].view, NULL);
        iterate_until (transform_shown, &w, 600);
        g_print ("%-22s shown after %6.1f ms (%u nodes); the longest main-loop pause %5.1f ms, "
                 "the most main-thread CPU in one pause %5.1f ms\n",
                 changes[i].what, (bench.last_paint_end - t0) / 1e3,
                 embers_profile_get_n_nodes (embers_flame_graph_get_profile (graph)),
                 bench.max_gap / 1e3, bench.max_cpu / 1e3);
      }
  }

  g_print ("# goals: first paint <= 1.2x the command line; main loop never paused > 50 ms; "
           "repaint after zoom, pan or hover < 16 ms\n");

  g_source_remove (bench.ping_id);
  gtk_window_destroy (GTK_WINDOW (window));
  while (g_main_context_iteration (NULL, FALSE))
    ;
  return 0;
}
