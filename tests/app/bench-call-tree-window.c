/* bench-call-tree-window.c: the call tree view on a profile of about a
 * million nodes, in the real widgets under a display (run it under
 * xvfb-run). It prints figures and asserts nothing about time.
 *
 *   bench-call-tree-window [--file FILE] [--gen PATH] [--alone-first] [--keep-gl]
 *
 * It draws with the renderer the app picks (cairo where GL is software,
 * as under Xvfb); --keep-gl keeps GTK's GL renderer.
 *
 * Without --file it makes s50k (gen-pprof --shape random --samples 50000,
 * 1.07 million nodes) next to itself. A ping probe (a 1 ms timeout on the
 * main loop) gives the longest time the main loop did not run, and the
 * frame clock each frame's own work (before-paint to after-paint), while:
 * the view switches to the call tree and opens the heaviest path (until
 * the column view has all the rows, a few a frame); the tree
 * scrolls a page at a time through the open rows; * opens everything below
 * the root's heaviest child (up to the view's 5,000 rows); the tree turns
 * inverted and opens its heaviest path. Last, for comparison, a call tree
 * view alone in a window of its own (no table beside it, nothing else
 * new in the window) shows the same profile for the first time.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdio.h>
#include <time.h>

#include <adwaita.h>

#include "embers-call-tree-view.h"
#include "embers-flame-graph.h"
#include "embers-profile-page.h"
#include "embers-renderer.h"
#include "embers-top-table.h"
#include "embers-window.h"
#include "embers-test-gtk-utils.h"

typedef struct
{
  gint64 last_ping;
  gint64 last_ping_cpu;
  gint64 max_gap;
  gint64 max_gap_cpu;     /* the main thread's CPU time in the longest pause */
  gint64 max_pause_cpu;   /* the most CPU time in one pause */
  gint64 frame_start;
  gint64 frame_start_cpu;
  gint64 max_frame;
  gint64 max_frame_cpu;
  gint64 max_frame_cpu_at;  /* when that frame began, CLOCK_MONOTONIC */
  gint64 sum_frame_cpu;
  guint  n_probe_frames;
  guint  n_frames;
} Probe;

static Probe probe;

/* The main thread's CPU time: on a shared machine a long pause with little
 * of it is the other processes' */
static gint64
cpu_us (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * G_USEC_PER_SEC + ts.tv_nsec / 1000;
}

static gboolean
ping (gpointer data)
{
  gint64 now = g_get_monotonic_time ();
  gint64 cpu = cpu_us ();

  if (probe.last_ping > 0)
    {
      if (now - probe.last_ping > probe.max_gap)
        {
          probe.max_gap = now - probe.last_ping;
          probe.max_gap_cpu = cpu - probe.last_ping_cpu;
        }
      probe.max_pause_cpu = MAX (probe.max_pause_cpu, cpu - probe.last_ping_cpu);
    }
  probe.last_ping = now;
  probe.last_ping_cpu = cpu;
  return G_SOURCE_CONTINUE;
}

static void
before_paint (GdkFrameClock *clock)
{
  probe.frame_start = g_get_monotonic_time ();
  probe.frame_start_cpu = cpu_us ();
}

static void
after_paint (GdkFrameClock *clock)
{
  if (probe.frame_start > 0)
    {
      gint64 cpu = cpu_us () - probe.frame_start_cpu;

      probe.max_frame = MAX (probe.max_frame, g_get_monotonic_time () - probe.frame_start);
      if (cpu > probe.max_frame_cpu)
        {
          probe.max_frame_cpu = cpu;
          probe.max_frame_cpu_at = probe.frame_start;
        }
      probe.sum_frame_cpu += cpu;
      probe.n_probe_frames++;
    }
  probe.frame_start = 0;
  probe.n_frames++;
}

static void
probe_reset (void)
{
  probe.last_ping = g_get_monotonic_time ();
  probe.last_ping_cpu = cpu_us ();
  probe.max_gap = probe.max_gap_cpu = probe.max_pause_cpu = 0;
  probe.max_frame = probe.max_frame_cpu = probe.sum_frame_cpu = 0;
  probe.n_probe_frames = 0;
}

static void
iterate_until (gboolean (*done) (gpointer), gpointer data)
{
  while (!done (data))
    g_main_context_iteration (NULL, TRUE);
}

static gboolean
page_ready (gpointer data)
{
  return embers_profile_page_get_state (data) == EMBERS_PAGE_STATE_READY &&
         !embers_profile_page_get_busy (data);
}

/* The top table beside the graph has all its rows (they come a batch at
 * a time after a load): what follows is measured alone */
static gboolean
table_whole (gpointer data)
{
  EmbersTopTable *table = embers_profile_page_get_top_table (data);
  GtkColumnView *view = GTK_COLUMN_VIEW (embers_test_find_widget (GTK_WIDGET (table), GTK_TYPE_COLUMN_VIEW, NULL));

  return g_list_model_get_n_items (G_LIST_MODEL (gtk_column_view_get_model (view))) == embers_top_table_get_n_rows (table);
}

static gboolean
tree_settled (gpointer data)
{
  return embers_call_tree_view_is_settled (data);
}

/* The column view has all the open rows (it gets them a few a frame after
 * a new tree or *) */
static gboolean
tree_whole (gpointer data)
{
  return g_list_model_get_n_items (G_LIST_MODEL (embers_call_tree_view_get_model (data))) ==
         embers_call_tree_view_get_n_rows (data);
}

static guint wait_frames_target;

static gboolean
frames_done (gpointer data)
{
  return probe.n_frames >= wait_frames_target;
}

/* Until @n more frames have painted */
static void
wait_frames (guint n)
{
  wait_frames_target = probe.n_frames + n;
  iterate_until (frames_done, NULL);
}

static void
report (const char *what,
        gint64      wall_us)
{
  gint64 now = g_get_monotonic_time ();

  /* The phase's span on CLOCK_MONOTONIC, for perf report --time (with
   * perf record -k CLOCK_MONOTONIC) */
  g_print ("  [%.6f,%.6f] costliest frame at %.6f\n", (now - wall_us) / 1e6, now / 1e6,
           probe.max_frame_cpu_at / 1e6);
  g_print ("  %s: %.1f ms\n"
           "    main loop: longest pause %.1f ms (%.1f ms of it the main thread's CPU); most CPU in one pause %.1f ms\n"
           "    frames: %u, longest %.1f ms; CPU per frame: mean %.1f ms, most %.1f ms\n",
           what, wall_us / 1e3, probe.max_gap / 1e3, probe.max_gap_cpu / 1e3, probe.max_pause_cpu / 1e3,
           probe.n_probe_frames, probe.max_frame / 1e3,
           probe.n_probe_frames ? probe.sum_frame_cpu / 1e3 / probe.n_probe_frames : 0.0,
           probe.max_frame_cpu / 1e3);
}

/* The call tree alone: its own first show, without the page's table
 * filled again beside it */
static void
show_alone (EmbersProfilePage *page,
            GdkFrameClock     *clock)
{
  EmbersFlameGraph *graph = embers_profile_page_get_flame_graph (page);
  GtkWidget *alone = gtk_window_new ();
  EmbersCallTreeView *view = EMBERS_CALL_TREE_VIEW (embers_call_tree_view_new ());
  GdkFrameClock *alone_clock;
  gint64 t;

  gtk_window_set_default_size (GTK_WINDOW (alone), 800, 800);
  gtk_window_set_child (GTK_WINDOW (alone), GTK_WIDGET (view));
  gtk_window_present (GTK_WINDOW (alone));
  while (!gtk_widget_get_mapped (alone))
    g_main_context_iteration (NULL, TRUE);
  g_signal_handlers_disconnect_by_func (clock, before_paint, NULL);
  g_signal_handlers_disconnect_by_func (clock, after_paint, NULL);
  alone_clock = gtk_widget_get_frame_clock (alone);
  g_signal_connect (alone_clock, "before-paint", G_CALLBACK (before_paint), NULL);
  g_signal_connect (alone_clock, "after-paint", G_CALLBACK (after_paint), NULL);
  wait_frames (2);
  probe_reset ();
  t = g_get_monotonic_time ();
  embers_call_tree_view_set_profile (view, embers_flame_graph_get_profile (graph),
                                     embers_flame_graph_get_sample_type (graph));
  iterate_until (tree_settled, view);
  wait_frames (1);
  iterate_until (tree_whole, view);
  wait_frames (1);
  report ("the call tree alone in a new window, heaviest path open", g_get_monotonic_time () - t);
  g_signal_handlers_disconnect_by_func (alone_clock, before_paint, NULL);
  g_signal_handlers_disconnect_by_func (alone_clock, after_paint, NULL);
  g_signal_connect (clock, "before-paint", G_CALLBACK (before_paint), NULL);
  g_signal_connect (clock, "after-paint", G_CALLBACK (after_paint), NULL);
  gtk_window_destroy (GTK_WINDOW (alone));
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *file_path = NULL, *gen = NULL;
  gboolean alone_first = FALSE, keep_gl = FALSE;
  GOptionEntry entries[] = {
    { "keep-gl", 0, 0, G_OPTION_ARG_NONE, &keep_gl, "Draw with GL even where it is software (the app picks cairo there)", NULL },
    { "alone-first", 0, 0, G_OPTION_ARG_NONE, &alone_first, "The call tree alone first (what its first show needs)", NULL },
    { "file", 0, 0, G_OPTION_ARG_FILENAME, &file_path, "The profile", "FILE" },
    { "gen", 0, 0, G_OPTION_ARG_FILENAME, &gen, "The gen-pprof program", "PATH" },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new ("- the call tree on a big profile");
  g_autoptr(GError) error = NULL;
  g_autofree char *here = g_path_get_dirname (argv[0]);
  g_autoptr(GFile) file = NULL;
  EmbersWindow *window;
  EmbersProfilePage *page;
  EmbersCallTreeView *tree;
  GtkScrolledWindow *scroller;
  GtkAdjustment *adj;
  GdkFrameClock *clock;
  gint64 t;

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return 2;
    }
  if (file_path == NULL)
    {
      g_autofree char *raw = g_build_filename (here, "s50k.pb", NULL);
      int status;

      file_path = g_strconcat (raw, ".gz", NULL);
      if (gen == NULL)
        gen = g_build_filename (here, "..", "bench", "gen-pprof", NULL);
      if (!g_file_test (file_path, G_FILE_TEST_EXISTS))
        {
          const char *gen_argv[] = { gen, raw, "--shape", "random", "--samples", "50000", "--gzip", NULL };

          if (!g_spawn_sync (NULL, (char **) gen_argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL,
                             &status, &error) ||
              !g_spawn_check_wait_status (status, &error))
            {
              g_printerr ("cannot make the profile: %s\n", error->message);
              return 1;
            }
        }
    }

  adw_init ();
  /* The renderer the app would pick (embers-renderer.c) */
  if (!keep_gl)
    embers_renderer_choose (gdk_display_get_default (), NULL);
  window = embers_window_new (NULL);
  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 800);
  gtk_window_present (GTK_WINDOW (window));
  while (!gtk_widget_get_mapped (GTK_WIDGET (window)))
    g_main_context_iteration (NULL, TRUE);
  clock = gtk_widget_get_frame_clock (GTK_WIDGET (window));
  g_signal_connect (clock, "before-paint", G_CALLBACK (before_paint), NULL);
  g_signal_connect (clock, "after-paint", G_CALLBACK (after_paint), NULL);
  g_timeout_add (1, ping, NULL);

  file = g_file_new_for_path (file_path);
  page = embers_window_open_file (window, file);
  iterate_until (page_ready, page);
  iterate_until (table_whole, page);
  wait_frames (2);

  g_print ("call tree window: %s\n", file_path);
  /* Frames include the renderer's work: under Xvfb a software one */
  g_print ("  renderer: %s\n", G_OBJECT_TYPE_NAME (gtk_native_get_renderer (GTK_NATIVE (window))));

  if (alone_first)
    show_alone (page, clock);

  /* For comparison: the same hand-off to another graph view */
  probe_reset ();
  t = g_get_monotonic_time ();
  embers_profile_page_set_view (page, EMBERS_VIEW_FLAME);
  iterate_until (page_ready, page);
  wait_frames (1);
  report ("switch to the flame graph view (for comparison)", g_get_monotonic_time () - t);

  /* The view: the tree shown, its heaviest path open */
  probe_reset ();
  t = g_get_monotonic_time ();
  embers_profile_page_set_view (page, EMBERS_VIEW_CALL_TREE);
  iterate_until (page_ready, page);
  tree = EMBERS_CALL_TREE_VIEW (embers_test_find_widget (GTK_WIDGET (page), EMBERS_TYPE_CALL_TREE_VIEW, NULL));
  iterate_until (tree_settled, tree);
  wait_frames (1);
  iterate_until (tree_whole, tree);
  wait_frames (1);
  report ("switch to the call tree, heaviest path open", g_get_monotonic_time () - t);
  g_print ("  (%u rows open)\n", embers_call_tree_view_get_n_rows (tree));

  /* Scrolling a page at a time, each step painted */
  scroller = GTK_SCROLLED_WINDOW (gtk_widget_get_first_child (GTK_WIDGET (tree)));
  adj = gtk_scrolled_window_get_vadjustment (scroller);
  probe_reset ();
  t = g_get_monotonic_time ();
  for (guint i = 0; i < 40; i++)
    {
      double value = gtk_adjustment_get_value (adj) + gtk_adjustment_get_page_size (adj);

      if (value > gtk_adjustment_get_upper (adj) - gtk_adjustment_get_page_size (adj))
        value = 0;
      gtk_adjustment_set_value (adj, value);
      wait_frames (1);
    }
  report ("scroll 40 pages, each painted", g_get_monotonic_time () - t);

  /* * on the root's heaviest child */
  gtk_single_selection_set_selected (GTK_SINGLE_SELECTION (embers_call_tree_view_get_model (tree)), 1);
  probe_reset ();
  t = g_get_monotonic_time ();
  embers_call_tree_view_expand_all_selected (tree);
  wait_frames (1);
  iterate_until (tree_whole, tree);
  wait_frames (1);
  report ("* on the heaviest child of the root", g_get_monotonic_time () - t);
  g_print ("  (%u rows open)\n", embers_call_tree_view_get_n_rows (tree));

  /* Scrolling through them */
  probe_reset ();
  t = g_get_monotonic_time ();
  for (guint i = 0; i < 40; i++)
    {
      gtk_adjustment_set_value (adj, gtk_adjustment_get_value (adj) + gtk_adjustment_get_page_size (adj) * 3);
      wait_frames (1);
    }
  report ("scroll 40 times three pages through them", g_get_monotonic_time () - t);

  /* Inverted */
  probe_reset ();
  t = g_get_monotonic_time ();
  embers_call_tree_view_set_inverted (tree, TRUE);
  iterate_until (tree_settled, tree);
  wait_frames (1);
  iterate_until (tree_whole, tree);
  wait_frames (1);
  report ("inverted, its heaviest path open", g_get_monotonic_time () - t);
  g_print ("  (%u rows open)\n", embers_call_tree_view_get_n_rows (tree));

  if (!alone_first)
    show_alone (page, clock);

  gtk_window_destroy (GTK_WINDOW (window));
  return 0;
}
