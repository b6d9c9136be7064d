/* bench-frame.c: layout + paint of a full 1920x1080 flame graph frame and
 * hit-test cost on a synthetic profile of about a million nodes.
 *
 * Prints figures; asserts nothing about time. Goals: < 16 ms per frame,
 * < 1 µs per hit test. Also a frame of a diff of two such profiles (same
 * tree, other values, a few frames only on one side).
 *
 *   bench-frame [--nodes N] [--runs N] [--export FILE.png]
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pango/pangocairo.h>

#include "embers-diff.h"
#include "embers-layout.h"
#include "embers-profile-builder.h"
#include "embers-render.h"
#include "embers-search.h"
#include "embers-transforms.h"

#define FRAME_WIDTH  1920
#define FRAME_HEIGHT 1080

static const char *packages[] = {
  "runtime", "net/http", "encoding/json", "github.com/grafana/pyroscope/pkg/model",
  "java.util", "com.example.server", "std", "core", "app/handlers.py", "libc",
  "sync", "compress/gzip", "database/sql", "google.golang.org/grpc", "os",
};

/* Builds a wide and deep synthetic tree, level by level, with heavy-tailed
 * leaf values: a few wide frames, very many narrow ones. value_seed 0
 * draws the values from the tree's own random sequence; otherwise from
 * their own, so that two seeds give the same tree with other values, and
 * about 3% of the leaves left out (frames only on one side of a diff). */
static EmbersProfile *
generate_full (guint   target_nodes,
               guint32 value_seed)
{
  g_autoptr(EmbersProfileBuilder) b = embers_profile_builder_new ();
  g_autoptr(GRand) rand = g_rand_new_with_seed (20240601);
  g_autoptr(GRand) own_values = value_seed ? g_rand_new_with_seed (value_seed) : NULL;
  GRand *vrand = value_seed ? own_values : rand;
  g_autoptr(GArray) level = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) next = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autofree guint32 *names = NULL;
  const guint n_names = 20000;
  guint depth = 0;
  guint32 root = 0;
  GError *error = NULL;
  EmbersProfile *profile;

  embers_profile_builder_add_sample_type (b, "cpu", "nanoseconds");
  names = g_new (guint32, n_names);
  for (guint i = 0; i < n_names; i++)
    {
      const char *pkg = packages[i % G_N_ELEMENTS (packages)];
      char buf[160];

      if (g_str_has_suffix (pkg, ".py"))
        g_snprintf (buf, sizeof buf, "%s:handler_%u", pkg, i);
      else if (g_str_equal (pkg, "std") || g_str_equal (pkg, "core"))
        g_snprintf (buf, sizeof buf, "%s::detail::function_%u", pkg, i);
      else if (g_str_equal (pkg, "libc"))
        g_snprintf (buf, sizeof buf, "libc_function_%u", i);
      else
        g_snprintf (buf, sizeof buf, "%s.(*Type%u).Method%u", pkg, i % 97, i);
      names[i] = embers_profile_builder_intern (b, buf, -1);
    }

  g_array_append_val (level, root);
  while (level->len > 0 && embers_profile_builder_get_n_nodes (b) < target_nodes)
    {
      g_array_set_size (next, 0);
      for (guint i = 0; i < level->len; i++)
        {
          guint32 node = g_array_index (level, guint32, i);
          guint n_children;
          double r = g_rand_double (rand);

          /* Wide at the top, then a mean branching of about 1.15: the
           * tree grows about 55 levels deep before the budget runs out */
          if (depth == 0)
            n_children = 40;
          else if (depth < 3)
            n_children = 2 + g_rand_int_range (rand, 0, 4);
          else if (depth < 200)
            n_children = r < 0.30 ? 0 : r < 0.75 ? 1 : r < 0.92 ? 2 : 3 + g_rand_int_range (rand, 0, 4);
          else
            n_children = 0;

          for (guint c = 0; c < n_children && embers_profile_builder_get_n_nodes (b) < target_nodes; c++)
            {
              guint32 name = names[g_rand_int_range (rand, 0, n_names)];
              guint before = embers_profile_builder_get_n_nodes (b);
              guint32 child = embers_profile_builder_get_child (b, node, name);

              if (embers_profile_builder_get_n_nodes (b) > before)
                g_array_append_val (next, child);
            }

          if (n_children == 0 || g_rand_double (rand) < 0.2)
            {
              double x = g_rand_double (vrand);
              gint64 v = 1 + (gint64)(pow (x, 6) * 1e6);

              if (value_seed != 0 && g_rand_double (vrand) < 0.03)
                v = 0;
              embers_profile_builder_add_self (b, node, 0, v);
            }
        }

      /* Nodes cut off by the budget become leaves */
      {
        GArray *tmp = level;

        level = next;
        next = tmp;
      }
      depth++;
    }

  for (guint i = 0; i < level->len; i++)
    embers_profile_builder_add_self (b, g_array_index (level, guint32, i), 0,
                                     1 + g_rand_int_range (vrand, 0, 100));

  profile = embers_profile_builder_finish (b, &error);
  if (profile == NULL)
    g_error ("generating the profile failed: %s", error->message);
  return profile;
}

static EmbersProfile *
generate (guint target_nodes)
{
  return generate_full (target_nodes, 0);
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
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static double
now_ms (void)
{
  return g_get_monotonic_time () / 1000.0;
}

typedef struct
{
  double layout_ms;
  double paint_ms;
  double frame_ms;
  guint  n_rects;
  guint  n_rows;
} FrameFigures;

/* Median layout, paint and layout+paint of one frame */
static gboolean no_labels = FALSE;
static EmbersDiffWidth diff_width = EMBERS_DIFF_WIDTH_SUM;

static void
measure_frame (EmbersProfile   *profile,
               guint32          focus,
               double           x_start,
               double           x_end,
               EmbersSearch    *search,
               guint            runs,
               cairo_surface_t *surface,
               FrameFigures    *out)
{
  g_autofree double *layout_times = g_new (double, runs);
  g_autofree double *paint_times = g_new (double, runs);
  g_autofree double *frame_times = g_new (double, runs);
  g_autoptr(EmbersRender) render = embers_render_new (NULL, search, NULL);
  EmbersViewport vp;

  if (no_labels)
    {
      EmbersRenderStyle style = *embers_render_get_style (render);

      style.label_min_width = G_MAXDOUBLE;
      embers_render_set_style (render, &style);
    }

  embers_viewport_init (&vp, FRAME_WIDTH);
  vp.x_start = x_start;
  vp.x_end = x_end;
  vp.diff_width = diff_width;

  for (guint r = 0; r < runs; r++)
    {
      g_autoptr(EmbersLayout) layout = NULL;
      cairo_t *cr;
      double t0, t1, t2;

      t0 = now_ms ();
      layout = embers_layout_new (profile, 0, focus, &vp);
      t1 = now_ms ();
      embers_render_set_layout (render, layout);
      cr = cairo_create (surface);
      cairo_rectangle (cr, 0, 0, FRAME_WIDTH, FRAME_HEIGHT);
      cairo_clip (cr);
      embers_render_paint (render, cr);
      cairo_destroy (cr);
      cairo_surface_flush (surface);
      t2 = now_ms ();

      layout_times[r] = t1 - t0;
      paint_times[r] = t2 - t1;
      frame_times[r] = t2 - t0;
      out->n_rects = embers_layout_get_n_rects (layout);
      out->n_rows = embers_layout_get_n_rows (layout);
    }

  out->layout_ms = median (layout_times, runs);
  out->paint_ms = median (paint_times, runs);
  out->frame_ms = median (frame_times, runs);
}

static void
print_frame (const char         *what,
             const FrameFigures *f)
{
  printf ("%-28s layout %7.2f ms   paint %7.2f ms   frame %7.2f ms   (%u rects, %u rows)\n",
          what, f->layout_ms, f->paint_ms, f->frame_ms, f->n_rects, f->n_rows);
}

/* Under ASan: fontconfig's configuration lives as long as the process */
const char *__lsan_default_suppressions (void);

const char *
__lsan_default_suppressions (void)
{
  return "leak:libfontconfig.so\n";
}

int
main (int   argc,
      char *argv[])
{
  guint target = 1000000;
  guint runs = 20;
  const char *export_path = NULL;
  g_autoptr(EmbersProfile) profile = NULL;
  g_autoptr(EmbersLayout) layout = NULL;
  g_autoptr(EmbersSearch) search = NULL;
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);
  cairo_surface_t *surface;
  FrameFigures f;
  EmbersViewport vp;
  double t0, t1;
  guint32 deep_focus = 0;

  for (int i = 1; i < argc; i++)
    {
      if (g_str_equal (argv[i], "--nodes") && i + 1 < argc)
        target = (guint)g_ascii_strtoull (argv[++i], NULL, 10);
      else if (g_str_equal (argv[i], "--runs") && i + 1 < argc)
        {
          runs = (guint)g_ascii_strtoull (argv[++i], NULL, 10);
          runs = MAX (runs, 1);
        }
      else if (g_str_equal (argv[i], "--export") && i + 1 < argc)
        export_path = argv[++i];
      else
        {
          fprintf (stderr, "usage: %s [--nodes N] [--runs N] [--export FILE.png]\n", argv[0]);
          return 2;
        }
    }

  t0 = now_ms ();
  profile = generate (target);
  t1 = now_ms ();
  printf ("profile: %u nodes, max depth %u, %u names, built in %.0f ms\n",
          embers_profile_get_n_nodes (profile), embers_profile_get_max_depth (profile),
          embers_profile_get_n_strings (profile), t1 - t0);

  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, FRAME_WIDTH, FRAME_HEIGHT);

  /* Cold: a fresh render with empty text caches */
  {
    FrameFigures cold;

    measure_frame (profile, 0, 0, 1, NULL, 1, surface, &cold);
    print_frame ("full frame, cold caches", &cold);
  }

  measure_frame (profile, 0, 0, 1, NULL, runs, surface, &f);
  print_frame ("full frame (median)", &f);
  if (export_path != NULL)
    {
      cairo_status_t status = cairo_surface_write_to_png (surface, export_path);

      printf ("wrote %s: %s\n", export_path, cairo_status_to_string (status));
    }

  no_labels = TRUE;
  measure_frame (profile, 0, 0, 1, NULL, runs, surface, &f);
  print_frame ("full frame without text", &f);
  no_labels = FALSE;

  /* Zoomed into the middle tenth */
  measure_frame (profile, 0, 0.45, 0.55, NULL, runs, surface, &f);
  print_frame ("zoomed x10 (median)", &f);

  /* Focused on a frame a few levels down, along the widest path */
  {
    const guint32 *ends = embers_profile_get_end_column (profile);
    const gint64 *total = embers_profile_get_total_column (profile, 0);
    guint32 n = 0;

    for (guint d = 0; d < 4; d++)
      {
        guint32 best = EMBERS_NODE_NONE;

        for (guint32 c = n + 1; c < ends[n]; c = ends[c])
          if (best == EMBERS_NODE_NONE || total[c] > total[best])
            best = c;
        if (best == EMBERS_NODE_NONE)
          break;
        n = best;
      }
    deep_focus = n;
    measure_frame (profile, deep_focus, 0, 1, NULL, runs, surface, &f);
    print_frame ("focused 4 levels down", &f);
  }

  /* Search: built once, then a frame with highlighting */
  t0 = now_ms ();
  search = embers_search_new (profile, "net/http", EMBERS_SEARCH_DEFAULT, NULL);
  t1 = now_ms ();
  printf ("search \"net/http\": %u matches, %.2f%% of total, built in %.2f ms\n",
          embers_search_get_n_matches (search),
          100 * embers_search_get_matched_fraction (search, 0), t1 - t0);
  measure_frame (profile, 0, 0, 1, search, runs, surface, &f);
  print_frame ("full frame with search", &f);

  /* Hit testing: average over 1M random points in the frame */
  embers_viewport_init (&vp, FRAME_WIDTH);
  layout = embers_layout_new (profile, 0, 0, &vp);
  {
    const guint n_points = 1000000;
    g_autofree double *xs = g_new (double, n_points);
    g_autofree double *ys = g_new (double, n_points);
    double height = MIN (embers_layout_get_height (layout), (double)FRAME_HEIGHT);
    guint hits = 0;

    for (guint i = 0; i < n_points; i++)
      {
        xs[i] = g_rand_double_range (rand, 0, FRAME_WIDTH);
        ys[i] = g_rand_double_range (rand, 0, height);
      }

    t0 = now_ms ();
    for (guint i = 0; i < n_points; i++)
      hits += embers_layout_hit_test (layout, xs[i], ys[i]) >= 0;
    t1 = now_ms ();
    printf ("hit test: %.1f ns per point (%u points, %u hits, %u rects)\n",
            (t1 - t0) * 1e6 / n_points, n_points, hits, embers_layout_get_n_rects (layout));
  }

  /* A diff of two 1M-node profiles: same tree, other values */
  {
    g_autoptr(EmbersProfile) base = generate_full (target, 11);
    g_autoptr(EmbersProfile) comp = generate_full (target, 12);
    g_autoptr(EmbersProfile) diff = NULL;
    g_autoptr(EmbersLayout) diff_layout = NULL;
    GError *error = NULL;

    t0 = now_ms ();
    diff = embers_diff_profiles (base, 0, comp, 0, &error);
    t1 = now_ms ();
    if (diff == NULL)
      g_error ("diff failed: %s", error->message);
    printf ("diff: %u + %u nodes -> %u nodes in %.0f ms\n", embers_profile_get_n_nodes (base),
            embers_profile_get_n_nodes (comp), embers_profile_get_n_nodes (diff), t1 - t0);
    g_clear_object (&base);
    g_clear_object (&comp);

    measure_frame (diff, 0, 0, 1, NULL, runs, surface, &f);
    print_frame ("diff frame (median)", &f);
    diff_width = EMBERS_DIFF_WIDTH_COMPARISON;
    measure_frame (diff, 0, 0, 1, NULL, runs, surface, &f);
    print_frame ("diff frame, comparison widths", &f);
    diff_width = EMBERS_DIFF_WIDTH_SUM;
    if (export_path != NULL)
      {
        g_autofree char *diff_path = g_strconcat (export_path, ".diff.png", NULL);
        cairo_status_t status = cairo_surface_write_to_png (surface, diff_path);

        printf ("wrote %s: %s\n", diff_path, cairo_status_to_string (status));
      }

    embers_viewport_init (&vp, FRAME_WIDTH);
    diff_layout = embers_layout_new (diff, 0, 0, &vp);
    {
      const guint n_points = 1000000;
      g_autofree double *xs = g_new (double, n_points);
      g_autofree double *ys = g_new (double, n_points);
      double height = MIN (embers_layout_get_height (diff_layout), (double)FRAME_HEIGHT);
      guint hits = 0;

      for (guint i = 0; i < n_points; i++)
        {
          xs[i] = g_rand_double_range (rand, 0, FRAME_WIDTH);
          ys[i] = g_rand_double_range (rand, 0, height);
        }
      t0 = now_ms ();
      for (guint i = 0; i < n_points; i++)
        hits += embers_layout_hit_test (diff_layout, xs[i], ys[i]) >= 0;
      t1 = now_ms ();
      printf ("diff hit test: %.1f ns per point (%u points, %u hits, %u rects)\n",
              (t1 - t0) * 1e6 / n_points, n_points, hits, embers_layout_get_n_rects (diff_layout));
    }
  }

  /* Transforms, once each, for scale. Inverting makes a node per frame of
   * every stack (about nodes x depth), so it runs on a tenth of the size. */
  {
    g_autoptr(EmbersProfile) small = generate (target / 10);
    g_autoptr(EmbersProfile) inverted = NULL;
    g_autoptr(EmbersProfile) collapsed = NULL;
    g_autoptr(EmbersProfile) focused = NULL;
    g_autoptr(EmbersProfile) hidden = NULL;
    g_autoptr(GRegex) regex = g_regex_new ("^net/http", 0, 0, NULL);
    const char *name = embers_profile_node_name_str (profile, deep_focus);

    t0 = now_ms ();
    inverted = embers_transform_invert (small, NULL);
    t1 = now_ms ();
    printf ("invert of %u nodes: %.0f ms (%u nodes)\n", embers_profile_get_n_nodes (small),
            t1 - t0, embers_profile_get_n_nodes (inverted));
    t0 = now_ms ();
    collapsed = embers_transform_collapse_recursion (profile, NULL);
    t1 = now_ms ();
    printf ("collapse recursion: %.0f ms (%u nodes)\n", t1 - t0, embers_profile_get_n_nodes (collapsed));
    t0 = now_ms ();
    focused = embers_transform_focus (profile, name, NULL);
    t1 = now_ms ();
    printf ("focus on %s: %.0f ms (%u nodes)\n", name, t1 - t0, embers_profile_get_n_nodes (focused));
    t0 = now_ms ();
    hidden = embers_transform_hide (profile, regex, NULL);
    t1 = now_ms ();
    printf ("hide ^net/http: %.0f ms (%u nodes)\n", t1 - t0, embers_profile_get_n_nodes (hidden));
  }

  cairo_surface_destroy (surface);
  pango_cairo_font_map_set_default (NULL);
  cairo_debug_reset_static_data ();
  return 0;
}
