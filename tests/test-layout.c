/* test-layout.c: flame graph geometry, level of detail, hit testing,
 * keyboard neighbours
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "embers-diff.h"
#include "embers-layout.h"
#include "embers-profile-private.h"
#include "embers-profile-builder.h"

/* "a;b;c 10" lines -> profile with one "samples"/"count" column; a line
 * may carry a second value ("a;b 10 3") for a second column */
static EmbersProfile *
profile_from_lines (const char *text,
                    guint       n_types)
{
  g_autoptr(EmbersProfileBuilder) b = embers_profile_builder_new ();
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  GError *error = NULL;
  EmbersProfile *profile;

  embers_profile_builder_add_sample_type (b, "samples", "count");
  if (n_types > 1)
    embers_profile_builder_add_sample_type (b, "other", "count");

  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto(GStrv) parts = NULL;
      g_auto(GStrv) frames = NULL;
      guint32 ids[64];
      gint64 values[2] = { 0, 0 };
      guint n;

      if (lines[i][0] == '\0')
        continue;
      parts = g_strsplit (lines[i], " ", -1);
      g_assert_cmpuint (g_strv_length (parts), >=, 1 + n_types);
      frames = g_strsplit (parts[0], ";", -1);
      n = g_strv_length (frames);
      g_assert_cmpuint (n, <=, G_N_ELEMENTS (ids));
      for (guint f = 0; f < n; f++)
        ids[f] = embers_profile_builder_intern (b, frames[f], -1);
      for (guint t = 0; t < n_types; t++)
        values[t] = g_ascii_strtoll (parts[1 + t], NULL, 10);
      embers_profile_builder_add_stack (b, ids, n, values, 0);
    }

  profile = embers_profile_builder_finish (b, &error);
  g_assert_no_error (error);
  return profile;
}

/* Node at a ";"-separated path from the root, or EMBERS_NODE_NONE */
static guint32
find_path (EmbersProfile *profile,
           const char    *path)
{
  g_auto(GStrv) frames = g_strsplit (path, ";", -1);
  guint32 node = 0;

  for (guint f = 0; frames[f] != NULL; f++)
    {
      guint32 end = embers_profile_node_end (profile, node);
      guint32 found = EMBERS_NODE_NONE;

      for (guint32 c = node + 1; c < end; c = embers_profile_node_end (profile, c))
        if (g_str_equal (embers_profile_node_name_str (profile, c), frames[f]))
          found = c;
      if (found == EMBERS_NODE_NONE)
        return EMBERS_NODE_NONE;
      node = found;
    }

  return node;
}

static const EmbersRect *
rect_of (EmbersLayout *layout,
         guint32       node)
{
  int i = embers_layout_find_node (layout, node);

  g_assert_cmpint (i, >=, 0);
  return embers_layout_get_rect (layout, (guint)i);
}

static void
assert_sorted (EmbersLayout *layout)
{
  guint n;
  const EmbersRect *rects = embers_layout_get_rects (layout, &n);

  for (guint i = 1; i < n; i++)
    {
      g_assert_true (rects[i - 1].row < rects[i].row ||
                     (rects[i - 1].row == rects[i].row &&
                      rects[i - 1].x + rects[i - 1].width <= rects[i].x + 1e-9));
      if (rects[i - 1].row == rects[i].row)
        g_assert_cmpuint (rects[i - 1].node, <, rects[i].node);
    }
  for (guint i = 0; i < n; i++)
    {
      g_assert_cmpfloat (rects[i].width, >, 0);
      g_assert_cmpfloat (rects[i].x, >=, 0);
      g_assert_cmpfloat (rects[i].x + rects[i].width, <=, embers_layout_get_viewport (layout)->width + 1e-9);
    }
}

static const char *basic =
  "a;b 30\n"
  "a;c 20\n"
  "a 10\n"
  "d;e 25\n"
  "d 15\n";

static void
test_geometry (void)
{
  g_autoptr(EmbersProfile) p = profile_from_lines (basic, 1);
  g_autoptr(EmbersLayout) layout = NULL;
  EmbersViewport vp;
  const EmbersRect *root, *a, *b, *c, *d, *e;

  embers_viewport_init (&vp, 1000);
  layout = embers_layout_new (p, 0, 0, &vp);
  assert_sorted (layout);

  g_assert_cmpuint (embers_layout_get_n_rows (layout), ==, 3);
  g_assert_cmpfloat (embers_layout_get_height (layout), ==, 3 * 22.0);
  g_assert_cmpuint (embers_layout_get_n_rects (layout), ==, 6);
  g_assert_cmpint (embers_layout_get_focus_total (layout), ==, 100);

  root = rect_of (layout, 0);
  a = rect_of (layout, find_path (p, "a"));
  b = rect_of (layout, find_path (p, "a;b"));
  c = rect_of (layout, find_path (p, "a;c"));
  d = rect_of (layout, find_path (p, "d"));
  e = rect_of (layout, find_path (p, "d;e"));

  g_assert_cmpfloat_with_epsilon (root->x, 0, 1e-9);
  g_assert_cmpfloat_with_epsilon (root->width, 1000, 1e-9);
  g_assert_true (root->flags & EMBERS_RECT_FOCUS);
  g_assert_true (root->flags & EMBERS_RECT_LABEL);

  /* Children start at the parent's left, in name order, widths by total */
  g_assert_cmpfloat_with_epsilon (a->x, 0, 1e-9);
  g_assert_cmpfloat_with_epsilon (a->width, 600, 1e-9);
  g_assert_cmpfloat_with_epsilon (d->x, 600, 1e-9);
  g_assert_cmpfloat_with_epsilon (d->width, 400, 1e-9);
  g_assert_cmpfloat_with_epsilon (b->x, 0, 1e-9);
  g_assert_cmpfloat_with_epsilon (b->width, 300, 1e-9);
  g_assert_cmpfloat_with_epsilon (c->x, 300, 1e-9);
  g_assert_cmpfloat_with_epsilon (c->width, 200, 1e-9);
  g_assert_cmpfloat_with_epsilon (e->x, 600, 1e-9);
  g_assert_cmpfloat_with_epsilon (e->width, 250, 1e-9);

  /* Children widths plus the self share add up to the parent's width */
  g_assert_cmpfloat_with_epsilon (a->width + d->width, root->width, 1e-9);
  g_assert_cmpfloat_with_epsilon (b->width + c->width + 10 * 10.0, a->width, 1e-9);
  g_assert_cmpfloat_with_epsilon (e->width + 15 * 10.0, d->width, 1e-9);

  g_assert_cmpuint (a->row, ==, 1);
  g_assert_cmpuint (e->row, ==, 2);
  g_assert_cmpuint (a->node_end, ==, embers_profile_node_end (p, a->node));
  g_assert_cmpuint (a->n_nodes, ==, 1);

  /* Row ranges */
  {
    guint first, n;

    n = embers_layout_get_row (layout, 2, &first);
    g_assert_cmpuint (n, ==, 3);
    g_assert_cmpuint (first, ==, 3);
    g_assert_cmpuint (embers_layout_get_row (layout, 7, &first), ==, 0);
  }
}

static void
test_children_sum_random (void)
{
  /* A random tree: in every expanded parent, children + self = parent */
  g_autoptr(EmbersProfileBuilder) bld = embers_profile_builder_new ();
  g_autoptr(EmbersProfile) p = NULL;
  g_autoptr(EmbersLayout) layout = NULL;
  g_autoptr(GRand) rand = g_rand_new_with_seed (42);
  EmbersViewport vp;
  const EmbersRect *rects;
  const gint64 *self;
  guint n;
  guint32 names[8];

  embers_profile_builder_add_sample_type (bld, "samples", "count");
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      char s[8];

      g_snprintf (s, sizeof s, "f%u", i);
      names[i] = embers_profile_builder_intern (bld, s, -1);
    }
  for (guint i = 0; i < 2000; i++)
    {
      guint32 stack[12];
      guint depth = (guint)g_rand_int_range (rand, 1, 12);
      gint64 v = g_rand_int_range (rand, 1, 1000);

      for (guint d = 0; d < depth; d++)
        stack[d] = names[g_rand_int_range (rand, 0, G_N_ELEMENTS (names))];
      embers_profile_builder_add_stack (bld, stack, depth, &v, 0);
    }
  p = embers_profile_builder_finish (bld, NULL);
  g_assert_nonnull (p);

  embers_viewport_init (&vp, 1920);
  vp.min_width = 0;   /* no merging: every frame gets a rect */
  layout = embers_layout_new (p, 0, 0, &vp);
  assert_sorted (layout);
  rects = embers_layout_get_rects (layout, &n);
  g_assert_cmpuint (n, ==, embers_profile_get_n_nodes (p));
  self = embers_profile_get_self_column (p, 0);

  for (guint i = 0; i < n; i++)
    {
      const EmbersRect *r = &rects[i];
      double sum = 0;
      guint first, count;

      count = embers_layout_get_row (layout, r->row + 1, &first);
      for (guint j = first; j < first + count; j++)
        if (rects[j].node > r->node && rects[j].node < r->node_end)
          {
            g_assert_cmpfloat (rects[j].x, >=, r->x - 1e-6);
            g_assert_cmpfloat (rects[j].x + rects[j].width, <=, r->x + r->width + 1e-6);
            sum += rects[j].width;
          }
      sum += (double)self[r->node] * 1920.0 / (double)embers_profile_get_total (p, 0);
      g_assert_cmpfloat_with_epsilon (sum, r->width, 1e-6);
    }
}

static void
test_lod_merge (void)
{
  g_autoptr(EmbersProfileBuilder) bld = embers_profile_builder_new ();
  g_autoptr(EmbersProfile) p = NULL;
  g_autoptr(EmbersLayout) layout = NULL;
  g_autoptr(GArray) nodes = NULL;
  EmbersViewport vp;
  guint first, n;
  const EmbersRect *rects;
  double row_sum = 0;
  int merged = -1;
  gint64 one = 1, big = 1000;
  guint32 stack[2];

  embers_profile_builder_add_sample_type (bld, "samples", "count");
  /* "big" (1000) and 100 narrow siblings "s000".."s099" (1 each) with children */
  stack[0] = embers_profile_builder_intern (bld, "big", -1);
  embers_profile_builder_add_stack (bld, stack, 1, &big, 0);
  for (guint i = 0; i < 100; i++)
    {
      char s[8];

      g_snprintf (s, sizeof s, "s%03u", i);
      stack[0] = embers_profile_builder_intern (bld, s, -1);
      stack[1] = embers_profile_builder_intern (bld, "child", -1);
      embers_profile_builder_add_stack (bld, stack, 2, &one, 0);
    }
  p = embers_profile_builder_finish (bld, NULL);

  /* 1100 px: each small frame is 1 px wide; merge under 2 px */
  embers_viewport_init (&vp, 1100);
  vp.min_width = 2;
  layout = embers_layout_new (p, 0, 0, &vp);
  assert_sorted (layout);

  n = embers_layout_get_row (layout, 1, &first);
  rects = embers_layout_get_rects (layout, NULL);
  g_assert_cmpuint (n, ==, 2);
  for (guint i = first; i < first + n; i++)
    {
      row_sum += rects[i].width;
      if (rects[i].flags & EMBERS_RECT_MERGED)
        merged = (int)i;
    }
  /* Nothing dropped: the row still covers the whole width */
  g_assert_cmpfloat_with_epsilon (row_sum, 1100, 1e-6);
  g_assert_cmpint (merged, >=, 0);
  g_assert_cmpuint (rects[merged].n_nodes, ==, 100);
  g_assert_cmpfloat_with_epsilon (rects[merged].width, 100, 1e-6);
  g_assert_cmpfloat_with_epsilon (rects[merged].x, 1000, 1e-6);
  g_assert_false (rects[merged].flags & EMBERS_RECT_LABEL);
  g_assert_cmpint (embers_layout_rect_get_total (layout, &rects[merged]), ==, 100);
  nodes = embers_layout_rect_get_nodes (layout, &rects[merged]);
  g_assert_cmpuint (nodes->len, ==, 100);
  g_assert_cmpstr (embers_profile_node_name_str (p, g_array_index (nodes, guint32, 0)), ==, "s000");
  g_assert_cmpstr (embers_profile_node_name_str (p, g_array_index (nodes, guint32, 99)), ==, "s099");

  /* Not descended: no row 2 (big has no children, the small ones are merged) */
  g_assert_cmpuint (embers_layout_get_n_rows (layout), ==, 2);

  /* Hit testing returns the block; any covered node finds it */
  g_assert_cmpint (embers_layout_hit_test (layout, 1050, 22 + 5), ==, merged);
  g_assert_cmpint (embers_layout_find_node (layout, find_path (p, "s042")), ==, merged);
  /* ... but not the subtree below it */
  g_assert_cmpint (embers_layout_find_node (layout, find_path (p, "s042;child")), ==, -1);
  g_assert_cmpint (embers_layout_get_neighbor (layout, merged, EMBERS_NEIGHBOR_CHILD), ==, -1);

  /* Wider viewport: no merging, all 100 + big and their children */
  g_clear_pointer (&layout, embers_layout_unref);
  vp.width = 11000;
  layout = embers_layout_new (p, 0, 0, &vp);
  g_assert_cmpuint (embers_layout_get_row (layout, 1, &first), ==, 101);
  g_assert_cmpuint (embers_layout_get_row (layout, 2, &first), ==, 100);
}

static void
test_lod_single_narrow (void)
{
  /* A lone narrow frame between wide ones stays itself, not a block */
  g_autoptr(EmbersProfile) p = profile_from_lines ("a 500\nb 1\nc 500\n", 1);
  g_autoptr(EmbersLayout) layout = NULL;
  EmbersViewport vp;
  const EmbersRect *b;

  embers_viewport_init (&vp, 500.5);   /* b is 0.5 px wide */
  layout = embers_layout_new (p, 0, 0, &vp);
  b = rect_of (layout, find_path (p, "b"));
  g_assert_false (b->flags & EMBERS_RECT_MERGED);
  g_assert_cmpuint (b->n_nodes, ==, 1);
  g_assert_cmpfloat_with_epsilon (b->width, 0.5, 1e-9);
  g_assert_cmpuint (embers_layout_get_n_rects (layout), ==, 4);
}

static void
test_zero_skipped (void)
{
  /* Second column: b and its subtree are zero */
  g_autoptr(EmbersProfile) p = profile_from_lines ("a 10 5\nb;x 10 0\nc 10 5\n", 2);
  g_autoptr(EmbersLayout) layout = NULL;
  EmbersViewport vp;

  embers_viewport_init (&vp, 100);
  layout = embers_layout_new (p, 1, 0, &vp);
  g_assert_cmpuint (embers_layout_get_n_rects (layout), ==, 3);
  g_assert_cmpint (embers_layout_find_node (layout, find_path (p, "b")), ==, -1);
  g_assert_cmpfloat_with_epsilon (rect_of (layout, find_path (p, "c"))->x, 50, 1e-9);
  g_assert_cmpuint (embers_layout_get_n_rows (layout), ==, 2);

  /* Zero-total focus: nothing at all */
  g_clear_pointer (&layout, embers_layout_unref);
  layout = embers_layout_new (p, 1, find_path (p, "b"), &vp);
  g_assert_cmpuint (embers_layout_get_n_rects (layout), ==, 0);
  g_assert_cmpint (embers_layout_hit_test (layout, 1, 1), ==, -1);
}

static void
test_direction (void)
{
  g_autoptr(EmbersProfile) p = profile_from_lines (basic, 1);
  g_autoptr(EmbersLayout) icicle = NULL;
  g_autoptr(EmbersLayout) flame = NULL;
  EmbersViewport vp;
  guint n1, n2;
  const EmbersRect *r1, *r2;
  double height;

  embers_viewport_init (&vp, 800);
  icicle = embers_layout_new (p, 0, 0, &vp);
  vp.direction = EMBERS_LAYOUT_FLAME;
  flame = embers_layout_new (p, 0, 0, &vp);

  r1 = embers_layout_get_rects (icicle, &n1);
  r2 = embers_layout_get_rects (flame, &n2);
  g_assert_cmpuint (n1, ==, n2);
  height = embers_layout_get_height (icicle);
  g_assert_cmpfloat (height, ==, embers_layout_get_height (flame));

  for (guint i = 0; i < n1; i++)
    {
      double y1 = embers_layout_rect_y (icicle, &r1[i]);
      double y2 = embers_layout_rect_y (flame, &r2[i]);

      g_assert_cmpuint (r1[i].node, ==, r2[i].node);
      g_assert_cmpfloat (r1[i].x, ==, r2[i].x);
      g_assert_cmpfloat (r1[i].width, ==, r2[i].width);
      /* Mirrored: the same rect, flipped top to bottom */
      g_assert_cmpfloat_with_epsilon (y2, height - vp.row_height - y1, 1e-9);
      g_assert_cmpint (embers_layout_hit_test (icicle, r1[i].x + 1, y1 + 1), ==, (int)i);
      g_assert_cmpint (embers_layout_hit_test (flame, r2[i].x + 1, y2 + 1), ==, (int)i);
    }

  /* The root is at the top of an icicle and at the bottom of a flame graph */
  g_assert_cmpfloat (embers_layout_row_y (icicle, 0), ==, 0);
  g_assert_cmpfloat (embers_layout_row_y (flame, 0), ==, height - 22);
  g_assert_cmpint (embers_layout_row_at_y (flame, height - 1), ==, 0);
  g_assert_cmpint (embers_layout_row_at_y (icicle, height - 1), ==, 2);
  g_assert_cmpint (embers_layout_row_at_y (icicle, height), ==, -1);
  g_assert_cmpint (embers_layout_row_at_y (icicle, -0.5), ==, -1);
}

static void
test_focus (void)
{
  g_autoptr(EmbersProfile) p = profile_from_lines ("a;b;x 30\na;b;y 10\na;c 60\nz 100\n", 1);
  g_autoptr(EmbersLayout) layout = NULL;
  EmbersViewport vp;
  guint32 b = find_path (p, "a;b");
  const EmbersRect *r;

  embers_viewport_init (&vp, 400);
  layout = embers_layout_new (p, 0, b, &vp);
  assert_sorted (layout);

  g_assert_cmpuint (embers_layout_get_focus (layout), ==, b);
  g_assert_cmpint (embers_layout_get_focus_total (layout), ==, 40);
  g_assert_cmpuint (embers_layout_get_n_rows (layout), ==, 4);
  g_assert_cmpuint (embers_layout_get_n_rects (layout), ==, 5);

  /* Ancestors: full width, one per row, flagged */
  r = rect_of (layout, 0);
  g_assert_cmpuint (r->row, ==, 0);
  g_assert_true (r->flags & EMBERS_RECT_ANCESTOR);
  g_assert_cmpfloat (r->width, ==, 400);
  r = rect_of (layout, find_path (p, "a"));
  g_assert_true (r->flags & EMBERS_RECT_ANCESTOR);
  g_assert_cmpfloat (r->x, ==, 0);
  g_assert_cmpfloat (r->width, ==, 400);

  /* Siblings of the focus and of its ancestors are gone */
  g_assert_cmpint (embers_layout_find_node (layout, find_path (p, "z")), ==, -1);
  g_assert_cmpint (embers_layout_find_node (layout, find_path (p, "a;c")), ==, -1);

  /* The focus spans the width, its children are scaled to it */
  r = rect_of (layout, b);
  g_assert_true (r->flags & EMBERS_RECT_FOCUS);
  g_assert_false (r->flags & EMBERS_RECT_ANCESTOR);
  g_assert_cmpuint (r->row, ==, 2);
  g_assert_cmpfloat (r->width, ==, 400);
  r = rect_of (layout, find_path (p, "a;b;x"));
  g_assert_cmpfloat_with_epsilon (r->width, 300, 1e-9);
  r = rect_of (layout, find_path (p, "a;b;y"));
  g_assert_cmpfloat_with_epsilon (r->x, 300, 1e-9);
  g_assert_cmpfloat_with_epsilon (r->width, 100, 1e-9);

  /* Parent of the focus is its ancestor rect */
  g_assert_cmpint (embers_layout_get_neighbor (layout, embers_layout_find_node (layout, b), EMBERS_NEIGHBOR_PARENT),
                   ==, embers_layout_find_node (layout, find_path (p, "a")));

  /* EMBERS_NODE_NONE and out-of-range focus mean the root */
  g_clear_pointer (&layout, embers_layout_unref);
  layout = embers_layout_new (p, 0, EMBERS_NODE_NONE, NULL);
  g_assert_cmpuint (embers_layout_get_focus (layout), ==, 0);
  g_assert_cmpfloat (embers_layout_get_viewport (layout)->width, ==, 1000);
}

static void
test_zoom_pan (void)
{
  g_autoptr(EmbersProfile) p = profile_from_lines (basic, 1);
  g_autoptr(EmbersLayout) layout = NULL;
  EmbersViewport vp;
  const EmbersRect *r;

  /* Show the right half of the graph: [0.5, 1] stretched to 1000 px */
  embers_viewport_init (&vp, 1000);
  vp.x_start = 0.5;
  vp.x_end = 1.0;
  layout = embers_layout_new (p, 0, 0, &vp);
  assert_sorted (layout);

  r = rect_of (layout, 0);
  g_assert_cmpfloat (r->x, ==, 0);
  g_assert_cmpfloat (r->width, ==, 1000);
  g_assert_true (r->flags & EMBERS_RECT_CLIPPED);

  /* d: 0.6 .. 1.0 -> 200 .. 1000 px */
  r = rect_of (layout, find_path (p, "d"));
  g_assert_cmpfloat_with_epsilon (r->x, 200, 1e-9);
  g_assert_cmpfloat_with_epsilon (r->width, 800, 1e-9);
  g_assert_false (r->flags & EMBERS_RECT_CLIPPED);

  /* a: 0 .. 0.6 -> clipped to 0 .. 200 px */
  r = rect_of (layout, find_path (p, "a"));
  g_assert_cmpfloat_with_epsilon (r->x, 0, 1e-9);
  g_assert_cmpfloat_with_epsilon (r->width, 200, 1e-9);
  g_assert_true (r->flags & EMBERS_RECT_CLIPPED);

  /* a;b (0 .. 0.3) is off screen; a;c (0.3 .. 0.5) too */
  g_assert_cmpint (embers_layout_find_node (layout, find_path (p, "a;b")), ==, -1);
  g_assert_cmpint (embers_layout_find_node (layout, find_path (p, "a;c")), ==, -1);

  /* e: 0.6 .. 0.85 -> 200 .. 700 */
  r = rect_of (layout, find_path (p, "d;e"));
  g_assert_cmpfloat_with_epsilon (r->x, 200, 1e-9);
  g_assert_cmpfloat_with_epsilon (r->width, 500, 1e-9);

  /* Pan to the left part: [0, 0.25] */
  g_clear_pointer (&layout, embers_layout_unref);
  vp.x_start = 0;
  vp.x_end = 0.25;
  layout = embers_layout_new (p, 0, 0, &vp);
  assert_sorted (layout);
  r = rect_of (layout, find_path (p, "a;b"));
  g_assert_cmpfloat_with_epsilon (r->x, 0, 1e-9);
  g_assert_cmpfloat_with_epsilon (r->width, 1000, 1e-9);
  g_assert_true (r->flags & EMBERS_RECT_CLIPPED);
  g_assert_cmpint (embers_layout_find_node (layout, find_path (p, "d")), ==, -1);

  /* A bad range falls back to [0, 1] */
  g_clear_pointer (&layout, embers_layout_unref);
  vp.x_start = 0.7;
  vp.x_end = 0.2;
  layout = embers_layout_new (p, 0, 0, &vp);
  g_assert_cmpfloat (embers_layout_get_viewport (layout)->x_start, ==, 0);
  g_assert_cmpfloat (embers_layout_get_viewport (layout)->x_end, ==, 1);
  g_assert_cmpuint (embers_layout_get_n_rects (layout), ==, 6);
}

static void
test_hit_test (void)
{
  g_autoptr(EmbersProfile) p = profile_from_lines (basic, 1);
  g_autoptr(EmbersLayout) layout = NULL;
  EmbersViewport vp;
  const EmbersRect *rects;
  guint n;

  embers_viewport_init (&vp, 1000);
  layout = embers_layout_new (p, 0, 0, &vp);
  rects = embers_layout_get_rects (layout, &n);

  /* Every rect's centre and corners hit itself */
  for (guint i = 0; i < n; i++)
    {
      double y = embers_layout_rect_y (layout, &rects[i]);

      g_assert_cmpint (embers_layout_hit_test (layout, rects[i].x + rects[i].width / 2, y + 11), ==, (int)i);
      g_assert_cmpint (embers_layout_hit_test (layout, rects[i].x, y), ==, (int)i);
      g_assert_cmpint (embers_layout_hit_test (layout, rects[i].x + rects[i].width - 0.01, y + 21.9), ==, (int)i);
    }

  /* Gaps: a's self area (500..600 in row 2), d's self area (850..1000) */
  g_assert_cmpint (embers_layout_hit_test (layout, 550, 2 * 22 + 5), ==, -1);
  g_assert_cmpint (embers_layout_hit_test (layout, 900, 2 * 22 + 5), ==, -1);
  /* Below the graph, left of it, right of it */
  g_assert_cmpint (embers_layout_hit_test (layout, 10, 3 * 22 + 1), ==, -1);
  g_assert_cmpint (embers_layout_hit_test (layout, -1, 5), ==, -1);
  g_assert_cmpint (embers_layout_hit_test (layout, 1000, 5), ==, -1);
  g_assert_cmpint (embers_layout_hit_test (layout, NAN, 5), ==, -1);
  g_assert_cmpint (embers_layout_hit_test (layout, 5, NAN), ==, -1);
}

static void
test_neighbors (void)
{
  /* root -> a (60: b 30, c 20), d (40: e 25) */
  g_autoptr(EmbersProfile) p = profile_from_lines (basic, 1);
  g_autoptr(EmbersLayout) layout = NULL;
  EmbersViewport vp;
  int root, a, b, c, d, e;

  embers_viewport_init (&vp, 1000);
  layout = embers_layout_new (p, 0, 0, &vp);
  root = embers_layout_find_node (layout, 0);
  a = embers_layout_find_node (layout, find_path (p, "a"));
  b = embers_layout_find_node (layout, find_path (p, "a;b"));
  c = embers_layout_find_node (layout, find_path (p, "a;c"));
  d = embers_layout_find_node (layout, find_path (p, "d"));
  e = embers_layout_find_node (layout, find_path (p, "d;e"));

  g_assert_cmpint (embers_layout_get_neighbor (layout, root, EMBERS_NEIGHBOR_PARENT), ==, -1);
  g_assert_cmpint (embers_layout_get_neighbor (layout, root, EMBERS_NEIGHBOR_CHILD), ==, a);
  g_assert_cmpint (embers_layout_get_neighbor (layout, root, EMBERS_NEIGHBOR_NEXT), ==, -1);
  g_assert_cmpint (embers_layout_get_neighbor (layout, root, EMBERS_NEIGHBOR_PREVIOUS), ==, -1);

  g_assert_cmpint (embers_layout_get_neighbor (layout, a, EMBERS_NEIGHBOR_PARENT), ==, root);
  g_assert_cmpint (embers_layout_get_neighbor (layout, a, EMBERS_NEIGHBOR_CHILD), ==, b);  /* widest */
  g_assert_cmpint (embers_layout_get_neighbor (layout, a, EMBERS_NEIGHBOR_NEXT), ==, d);
  g_assert_cmpint (embers_layout_get_neighbor (layout, d, EMBERS_NEIGHBOR_PREVIOUS), ==, a);
  g_assert_cmpint (embers_layout_get_neighbor (layout, d, EMBERS_NEIGHBOR_CHILD), ==, e);

  g_assert_cmpint (embers_layout_get_neighbor (layout, b, EMBERS_NEIGHBOR_NEXT), ==, c);
  /* Across parents, within the row */
  g_assert_cmpint (embers_layout_get_neighbor (layout, c, EMBERS_NEIGHBOR_NEXT), ==, e);
  g_assert_cmpint (embers_layout_get_neighbor (layout, e, EMBERS_NEIGHBOR_PREVIOUS), ==, c);
  g_assert_cmpint (embers_layout_get_neighbor (layout, e, EMBERS_NEIGHBOR_NEXT), ==, -1);
  g_assert_cmpint (embers_layout_get_neighbor (layout, e, EMBERS_NEIGHBOR_PARENT), ==, d);
  g_assert_cmpint (embers_layout_get_neighbor (layout, e, EMBERS_NEIGHBOR_CHILD), ==, -1);

  g_assert_cmpint (embers_layout_get_neighbor (layout, -1, EMBERS_NEIGHBOR_NEXT), ==, -1);
  g_assert_cmpint (embers_layout_get_neighbor (layout, 1000, EMBERS_NEIGHBOR_NEXT), ==, -1);
}

static void
test_neighbors_skip_merged (void)
{
  /* Row 1: a (wide), 50 narrow siblings (merged), z (wide) */
  g_autoptr(EmbersProfileBuilder) bld = embers_profile_builder_new ();
  g_autoptr(EmbersProfile) p = NULL;
  g_autoptr(EmbersLayout) layout = NULL;
  EmbersViewport vp;
  gint64 big = 500, one = 1;
  guint32 id;
  int a, z, m;

  embers_profile_builder_add_sample_type (bld, "samples", "count");
  id = embers_profile_builder_intern (bld, "a", -1);
  embers_profile_builder_add_stack (bld, &id, 1, &big, 0);
  id = embers_profile_builder_intern (bld, "z", -1);
  embers_profile_builder_add_stack (bld, &id, 1, &big, 0);
  for (guint i = 0; i < 50; i++)
    {
      char s[8];

      g_snprintf (s, sizeof s, "m%02u", i);
      id = embers_profile_builder_intern (bld, s, -1);
      embers_profile_builder_add_stack (bld, &id, 1, &one, 0);
    }
  p = embers_profile_builder_finish (bld, NULL);

  embers_viewport_init (&vp, 1050);
  vp.min_width = 2;
  layout = embers_layout_new (p, 0, 0, &vp);
  a = embers_layout_find_node (layout, find_path (p, "a"));
  z = embers_layout_find_node (layout, find_path (p, "z"));
  m = embers_layout_find_node (layout, find_path (p, "m10"));
  g_assert_cmpint (m, ==, a + 1);
  g_assert_cmpint (z, ==, a + 2);
  g_assert_true (embers_layout_get_rect (layout, m)->flags & EMBERS_RECT_MERGED);

  g_assert_cmpint (embers_layout_get_neighbor (layout, a, EMBERS_NEIGHBOR_NEXT), ==, z);
  g_assert_cmpint (embers_layout_get_neighbor (layout, z, EMBERS_NEIGHBOR_PREVIOUS), ==, a);
  /* The root's widest child is a real frame, not the block */
  g_assert_cmpint (embers_layout_get_neighbor (layout, 0, EMBERS_NEIGHBOR_CHILD), ==, a);
  /* From the block itself: moves on to real frames */
  g_assert_cmpint (embers_layout_get_neighbor (layout, m, EMBERS_NEIGHBOR_NEXT), ==, z);
  g_assert_cmpint (embers_layout_get_neighbor (layout, m, EMBERS_NEIGHBOR_PARENT), ==, 0);
}

static void
test_only_merged_child (void)
{
  /* When everything under a frame is merged, CHILD gives the block */
  g_autoptr(EmbersProfileBuilder) bld = embers_profile_builder_new ();
  g_autoptr(EmbersProfile) p = NULL;
  g_autoptr(EmbersLayout) layout = NULL;
  EmbersViewport vp;
  gint64 one = 1;
  guint32 ids[2];
  int child;

  embers_profile_builder_add_sample_type (bld, "samples", "count");
  ids[0] = embers_profile_builder_intern (bld, "main", -1);
  for (guint i = 0; i < 20; i++)
    {
      char s[8];

      g_snprintf (s, sizeof s, "f%02u", i);
      ids[1] = embers_profile_builder_intern (bld, s, -1);
      embers_profile_builder_add_stack (bld, ids, 2, &one, 0);
    }
  p = embers_profile_builder_finish (bld, NULL);

  embers_viewport_init (&vp, 20);
  vp.min_width = 1.5;
  layout = embers_layout_new (p, 0, 0, &vp);
  child = embers_layout_get_neighbor (layout, embers_layout_find_node (layout, find_path (p, "main")),
                                      EMBERS_NEIGHBOR_CHILD);
  g_assert_cmpint (child, >=, 0);
  g_assert_true (embers_layout_get_rect (layout, child)->flags & EMBERS_RECT_MERGED);
  g_assert_cmpuint (embers_layout_get_rect (layout, child)->n_nodes, ==, 20);
}

static void
test_empty (void)
{
  g_autoptr(EmbersProfileBuilder) bld = embers_profile_builder_new ();
  g_autoptr(EmbersProfile) p = NULL;
  g_autoptr(EmbersLayout) layout = NULL;
  g_autoptr(EmbersLayout) narrow = NULL;
  g_autoptr(EmbersProfile) q = profile_from_lines (basic, 1);
  EmbersViewport vp;

  p = embers_profile_builder_finish (bld, NULL);
  g_assert_nonnull (p);
  layout = embers_layout_new (p, 0, 0, NULL);
  g_assert_cmpuint (embers_layout_get_n_rects (layout), ==, 0);
  g_assert_cmpuint (embers_layout_get_n_rows (layout), ==, 0);
  g_assert_cmpfloat (embers_layout_get_height (layout), ==, 0);
  g_assert_cmpint (embers_layout_hit_test (layout, 0, 0), ==, -1);
  g_assert_cmpint (embers_layout_find_node (layout, 0), ==, -1);

  /* Zero width: nothing to lay out */
  embers_viewport_init (&vp, 0);
  narrow = embers_layout_new (q, 0, 0, &vp);
  g_assert_cmpuint (embers_layout_get_n_rects (narrow), ==, 0);
}

static void
test_deep (void)
{
  /* A 10000-deep stack lays out without recursion trouble */
  g_autoptr(EmbersProfileBuilder) bld = embers_profile_builder_new ();
  g_autoptr(EmbersProfile) p = NULL;
  g_autoptr(EmbersLayout) layout = NULL;
  g_autofree guint32 *ids = g_new (guint32, 10000);
  gint64 one = 1;
  int i;

  embers_profile_builder_add_sample_type (bld, "samples", "count");
  for (guint d = 0; d < 10000; d++)
    ids[d] = embers_profile_builder_intern (bld, d % 2 ? "odd" : "even", -1);
  embers_profile_builder_add_stack (bld, ids, 10000, &one, 0);
  p = embers_profile_builder_finish (bld, NULL);

  layout = embers_layout_new (p, 0, 0, NULL);
  g_assert_cmpuint (embers_layout_get_n_rows (layout), ==, 10001);
  g_assert_cmpuint (embers_layout_get_n_rects (layout), ==, 10001);
  i = embers_layout_hit_test (layout, 500, 10000 * 22 + 3);
  g_assert_cmpint (i, ==, 10000);
  g_assert_cmpint (embers_layout_get_neighbor (layout, i, EMBERS_NEIGHBOR_PARENT), ==, 9999);
}

/* Diff profiles: widths from both value columns */

static EmbersProfile *
diff_from_lines (const char *baseline,
                 const char *comparison)
{
  g_autoptr(EmbersProfile) base = profile_from_lines (baseline, 1);
  g_autoptr(EmbersProfile) comp = profile_from_lines (comparison, 1);
  GError *error = NULL;
  EmbersProfile *diff;

  diff = embers_diff_profiles (base, 0, comp, 0, &error);
  g_assert_no_error (error);
  g_assert_true (embers_profile_is_diff (diff));
  return diff;
}

static void
test_diff_widths (void)
{
  /* Baseline 40: a 30, b 10. Comparison 50: a 10, c 40.
   * Sum: root 90, a 40, b 10, c 40 (main's self: none) */
  g_autoptr(EmbersProfile) d = diff_from_lines ("main;a 30\nmain;b 10\n", "main;a 10\nmain;c 40\n");
  g_autoptr(EmbersLayout) layout = NULL;
  EmbersViewport vp;
  guint32 a = find_path (d, "main;a"), b = find_path (d, "main;b"), c = find_path (d, "main;c");
  const EmbersRect *r;

  /* The default is the sum, whatever sample type is passed */
  embers_viewport_init (&vp, 900);
  g_assert_cmpint (vp.diff_width, ==, EMBERS_DIFF_WIDTH_SUM);
  for (guint type = 0; type < 2; type++)
    {
      g_clear_pointer (&layout, embers_layout_unref);
      layout = embers_layout_new (d, type, 0, &vp);
      assert_sorted (layout);
      g_assert_true (embers_layout_is_diff (layout));
      g_assert_cmpint (embers_layout_get_diff_width (layout), ==, EMBERS_DIFF_WIDTH_SUM);
      g_assert_cmpint (embers_layout_get_focus_total (layout), ==, 90);
      g_assert_cmpint (embers_layout_node_value (layout, a), ==, 40);
      g_assert_cmpint (embers_layout_node_value (layout, b), ==, 10);
      g_assert_cmpint (embers_layout_node_value (layout, c), ==, 40);
      g_assert_cmpuint (embers_layout_get_n_rects (layout), ==, 5);

      /* 10 px per unit: a 0..400, b (removed) 400..500, c (new) 500..900 */
      r = rect_of (layout, a);
      g_assert_cmpfloat_with_epsilon (r->x, 0, 1e-9);
      g_assert_cmpfloat_with_epsilon (r->width, 400, 1e-9);
      r = rect_of (layout, b);
      g_assert_cmpfloat_with_epsilon (r->x, 400, 1e-9);
      g_assert_cmpfloat_with_epsilon (r->width, 100, 1e-9);
      r = rect_of (layout, c);
      g_assert_cmpfloat_with_epsilon (r->x, 500, 1e-9);
      g_assert_cmpfloat_with_epsilon (r->width, 400, 1e-9);
      g_assert_cmpint (embers_layout_rect_get_total (layout, r), ==, 40);
    }

  /* Comparison only: root 50, a 10, c 40; the removed b is not drawn */
  vp.diff_width = EMBERS_DIFF_WIDTH_COMPARISON;
  g_clear_pointer (&layout, embers_layout_unref);
  layout = embers_layout_new (d, EMBERS_DIFF_BASELINE, 0, &vp);
  assert_sorted (layout);
  g_assert_cmpint (embers_layout_get_diff_width (layout), ==, EMBERS_DIFF_WIDTH_COMPARISON);
  g_assert_cmpint (embers_layout_get_focus_total (layout), ==, 50);
  g_assert_cmpint (embers_layout_find_node (layout, b), ==, -1);
  r = rect_of (layout, a);
  g_assert_cmpfloat_with_epsilon (r->width, 180, 1e-9);
  r = rect_of (layout, c);
  g_assert_cmpfloat_with_epsilon (r->x, 180, 1e-9);
  g_assert_cmpfloat_with_epsilon (r->width, 720, 1e-9);

  /* Baseline only: root 40, a 30, b 10; the new c is not drawn */
  vp.diff_width = EMBERS_DIFF_WIDTH_BASELINE;
  g_clear_pointer (&layout, embers_layout_unref);
  layout = embers_layout_new (d, EMBERS_DIFF_COMPARISON, 0, &vp);
  assert_sorted (layout);
  g_assert_cmpint (embers_layout_get_focus_total (layout), ==, 40);
  g_assert_cmpint (embers_layout_find_node (layout, c), ==, -1);
  r = rect_of (layout, a);
  g_assert_cmpfloat_with_epsilon (r->width, 675, 1e-9);
  r = rect_of (layout, b);
  g_assert_cmpfloat_with_epsilon (r->x, 675, 1e-9);
  g_assert_cmpfloat_with_epsilon (r->width, 225, 1e-9);

  /* A bad mode means the sum */
  vp.diff_width = (EmbersDiffWidth)77;
  g_clear_pointer (&layout, embers_layout_unref);
  layout = embers_layout_new (d, 0, 0, &vp);
  g_assert_cmpint (embers_layout_get_diff_width (layout), ==, EMBERS_DIFF_WIDTH_SUM);
  g_assert_cmpint (embers_layout_get_focus_total (layout), ==, 90);

  /* Single profiles: the mode is ignored, widths are the sample type's */
  {
    g_autoptr(EmbersProfile) p = profile_from_lines ("a 10 1\nb 30 3\n", 2);
    g_autoptr(EmbersLayout) single = NULL;

    vp.diff_width = EMBERS_DIFF_WIDTH_COMPARISON;
    single = embers_layout_new (p, 1, 0, &vp);
    g_assert_false (embers_layout_is_diff (single));
    g_assert_cmpint (embers_layout_get_diff_width (single), ==, EMBERS_DIFF_WIDTH_SUM);
    g_assert_cmpint (embers_layout_get_focus_total (single), ==, 4);
    g_assert_cmpint (embers_layout_node_value (single, find_path (p, "b")), ==, 3);
    g_assert_cmpint (embers_layout_node_value (single, 999), ==, 0);
  }
}

static void
test_diff_children_sum_random (void)
{
  /* Random baseline and comparison: with both columns drawn, children plus
   * both self values fill every parent exactly */
  g_autoptr(GRand) rand = g_rand_new_with_seed (5);
  g_autoptr(GString) base = g_string_new (NULL);
  g_autoptr(GString) comp = g_string_new (NULL);
  GString *lines[2] = { base, comp };
  g_autoptr(EmbersProfile) d = NULL;
  g_autoptr(EmbersLayout) layout = NULL;
  const EmbersRect *rects;
  const gint64 *self[2];
  gint64 root;
  EmbersViewport vp;
  guint n;

  for (guint side = 0; side < 2; side++)
    for (guint i = 0; i < 400; i++)
      {
        guint depth = (guint)g_rand_int_range (rand, 1, 8);

        for (guint k = 0; k < depth; k++)
          g_string_append_printf (lines[side], "%sf%d", k ? ";" : "", g_rand_int_range (rand, 0, side ? 7 : 5));
        g_string_append_printf (lines[side], " %d\n", g_rand_int_range (rand, 1, 100));
      }
  d = diff_from_lines (lines[0]->str, lines[1]->str);

  embers_viewport_init (&vp, 1920);
  vp.min_width = 0;
  layout = embers_layout_new (d, 0, 0, &vp);
  assert_sorted (layout);
  rects = embers_layout_get_rects (layout, &n);
  g_assert_cmpuint (n, ==, embers_profile_get_n_nodes (d));
  self[0] = embers_profile_get_self_column (d, 0);
  self[1] = embers_profile_get_self_column (d, 1);
  root = embers_profile_get_total (d, 0) + embers_profile_get_total (d, 1);
  g_assert_cmpint (embers_layout_get_focus_total (layout), ==, root);

  for (guint i = 0; i < n; i++)
    {
      const EmbersRect *r = &rects[i];
      double sum = 0;
      guint first, count;

      g_assert_cmpfloat_with_epsilon (r->width,
                                      (double)(embers_profile_node_total (d, 0, r->node) +
                                               embers_profile_node_total (d, 1, r->node)) * 1920.0 / (double)root,
                                      1e-6);
      count = embers_layout_get_row (layout, r->row + 1, &first);
      for (guint j = first; j < first + count; j++)
        if (rects[j].node > r->node && rects[j].node < r->node_end)
          sum += rects[j].width;
      sum += (double)(self[0][r->node] + self[1][r->node]) * 1920.0 / (double)root;
      g_assert_cmpfloat_with_epsilon (sum, r->width, 1e-6);
    }
}

static void
test_diff_lod_hit_neighbors (void)
{
  /* main has a wide child "big" (changed), a new "fresh" and 50 tiny
   * children present on one side each: merged by their summed widths */
  g_autoptr(GString) base = g_string_new ("main;big 400\nmain;old;x 100\n");
  g_autoptr(GString) comp = g_string_new ("main;big 600\nmain;fresh;y 200\n");
  g_autoptr(EmbersProfile) d = NULL;
  g_autoptr(EmbersLayout) layout = NULL;
  g_autoptr(GArray) nodes = NULL;
  const EmbersRect *rects, *block = NULL;
  EmbersViewport vp;
  int big, fresh, old, main_rect, y_rect;
  guint n;

  for (guint i = 0; i < 50; i++)
    g_string_append_printf (i % 2 ? comp : base, "main;tiny%02u 1\n", i);
  d = diff_from_lines (base->str, comp->str);

  /* Root 1350 (525 + 825) over 1350 px: 1 px per unit, tiny frames 1 px */
  embers_viewport_init (&vp, 1350);
  vp.min_width = 2;
  layout = embers_layout_new (d, 0, 0, &vp);
  assert_sorted (layout);
  rects = embers_layout_get_rects (layout, &n);
  for (guint i = 0; i < n; i++)
    if (rects[i].flags & EMBERS_RECT_MERGED)
      {
        g_assert_null (block);
        block = &rects[i];
      }
  g_assert_nonnull (block);
  g_assert_cmpuint (block->n_nodes, ==, 50);
  g_assert_cmpfloat_with_epsilon (block->width, 50, 1e-9);
  g_assert_cmpint (embers_layout_rect_get_total (layout, block), ==, 50);
  nodes = embers_layout_rect_get_nodes (layout, block);
  g_assert_cmpuint (nodes->len, ==, 50);

  /* Hit testing: big 0..1000, fresh 1000..1200, old 1200..1300 */
  big = embers_layout_find_node (layout, find_path (d, "main;big"));
  fresh = embers_layout_find_node (layout, find_path (d, "main;fresh"));
  old = embers_layout_find_node (layout, find_path (d, "main;old"));
  main_rect = embers_layout_find_node (layout, find_path (d, "main"));
  y_rect = embers_layout_find_node (layout, find_path (d, "main;fresh;y"));
  g_assert_cmpint (embers_layout_hit_test (layout, 999.5, 2 * 22 + 3), ==, big);
  g_assert_cmpint (embers_layout_hit_test (layout, 1000.5, 2 * 22 + 3), ==, fresh);
  g_assert_cmpint (embers_layout_hit_test (layout, 1250, 2 * 22 + 3), ==, old);
  g_assert_cmpint (embers_layout_hit_test (layout, 1100, 3 * 22 + 3), ==, y_rect);
  g_assert_cmpint (embers_layout_hit_test (layout, 1100, 4 * 22 + 3), ==, -1);

  /* Keyboard: the widest child by summed width, siblings, parent */
  g_assert_cmpint (embers_layout_get_neighbor (layout, main_rect, EMBERS_NEIGHBOR_CHILD), ==, big);
  g_assert_cmpint (embers_layout_get_neighbor (layout, big, EMBERS_NEIGHBOR_NEXT), ==, fresh);
  g_assert_cmpint (embers_layout_get_neighbor (layout, fresh, EMBERS_NEIGHBOR_NEXT), ==, old);
  g_assert_cmpint (embers_layout_get_neighbor (layout, old, EMBERS_NEIGHBOR_NEXT), ==, -1);   /* the block is skipped */
  g_assert_cmpint (embers_layout_get_neighbor (layout, y_rect, EMBERS_NEIGHBOR_PARENT), ==, fresh);

  /* Focus on the new frame: it spans the width; its ancestors full width */
  g_clear_pointer (&layout, embers_layout_unref);
  vp.min_width = 1;
  layout = embers_layout_new (d, 1, find_path (d, "main;fresh"), &vp);
  assert_sorted (layout);
  g_assert_cmpint (embers_layout_get_focus_total (layout), ==, 200);
  g_assert_true (rect_of (layout, find_path (d, "main"))->flags & EMBERS_RECT_ANCESTOR);
  g_assert_cmpfloat (rect_of (layout, find_path (d, "main;fresh;y"))->width, ==, 1350);
  g_assert_cmpint (embers_layout_find_node (layout, find_path (d, "main;big")), ==, -1);

  /* Zoom on the summed scale: from unit 1001 of 1350 on, only fresh (cut
   * at the left) and old are in view */
  g_clear_pointer (&layout, embers_layout_unref);
  vp.x_start = 1001.0 / 1350.0;
  vp.x_end = 1.0;
  layout = embers_layout_new (d, 0, 0, &vp);
  assert_sorted (layout);
  g_assert_cmpint (embers_layout_find_node (layout, find_path (d, "main;big")), ==, -1);
  g_assert_cmpfloat_with_epsilon (rect_of (layout, find_path (d, "main;fresh"))->x, 0, 1e-6);
  g_assert_cmpfloat_with_epsilon (rect_of (layout, find_path (d, "main;fresh"))->width, 199 * 1350.0 / 349.0, 1e-6);
  g_assert_true (rect_of (layout, find_path (d, "main;fresh"))->flags & EMBERS_RECT_CLIPPED);
  g_assert_cmpfloat_with_epsilon (rect_of (layout, find_path (d, "main;old"))->x, 199 * 1350.0 / 349.0, 1e-6);
}

/* Frames with many children: a layout made after the lists of children
 * were noted (embers_layout_prepare, or an earlier layout) is the same,
 * rect for rect, as one that walks the siblings, unzoomed, zoomed, panned,
 * focused and at every width; zero-valued children stay skipped */
static void
make_wide (EmbersProfile **out)
{
  g_autoptr(EmbersProfileBuilder) bld = embers_profile_builder_new ();
  g_autoptr(GRand) rand = g_rand_new_with_seed (17);
  guint32 names[3000];

  embers_profile_builder_add_sample_type (bld, "samples", "count");
  embers_profile_builder_add_sample_type (bld, "cpu", "nanoseconds");
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      char name[16];

      g_snprintf (name, sizeof name, "f%04u", i);
      names[i] = embers_profile_builder_intern (bld, name, -1);
    }
  for (guint i = 0; i < 20000; i++)
    {
      /* main;fNNNN;fNNNN...: 3000 children under main, many under each */
      guint32 stack[6] = { names[0], };
      guint depth = (guint)g_rand_int_range (rand, 2, 6);
      gint64 v[2] = { g_rand_int_range (rand, 1, 50), 0 };

      if (g_rand_int_range (rand, 0, 500) == 0)
        v[0] = 20000;   /* a few wide ones among the narrow */
      v[1] = g_rand_int_range (rand, 0, 3) == 0 ? 0 : v[0] * 7;   /* zeros in the second type */
      for (guint d = 1; d < depth; d++)
        stack[d] = names[g_rand_int_range (rand, 1, G_N_ELEMENTS (names))];
      embers_profile_builder_add_stack (bld, stack, depth, v, 0);
    }
  *out = embers_profile_builder_finish (bld, NULL);
  g_assert_nonnull (*out);
}

static void
assert_same_layout (EmbersLayout *a,
                    EmbersLayout *b)
{
  guint na, nb;
  const EmbersRect *ra = embers_layout_get_rects (a, &na);
  const EmbersRect *rb = embers_layout_get_rects (b, &nb);

  g_assert_cmpuint (na, ==, nb);
  for (guint i = 0; i < na; i++)
    {
      g_assert_cmpfloat (ra[i].x, ==, rb[i].x);
      g_assert_cmpfloat (ra[i].width, ==, rb[i].width);
      g_assert_cmpuint (ra[i].node, ==, rb[i].node);
      g_assert_cmpuint (ra[i].node_end, ==, rb[i].node_end);
      g_assert_cmpuint (ra[i].n_nodes, ==, rb[i].n_nodes);
      g_assert_cmpuint (ra[i].row, ==, rb[i].row);
      g_assert_cmpuint (ra[i].flags, ==, rb[i].flags);
    }
}

static void
test_many_children (void)
{
  static const struct { double width, x_start, x_end; gboolean focus; } views[] = {
    { 1920, 0, 1, FALSE },
    { 300, 0, 1, FALSE },
    { 1920, 0.25, 0.3, FALSE },
    { 1920, 0.9, 1, FALSE },
    { 800, 0, 1, TRUE },
  };
  g_autoptr(EmbersProfile) walked = NULL;
  g_autoptr(EmbersProfile) listed = NULL;
  guint32 focus;

  /* Two equal profiles: one only ever walked (each layout on a fresh one),
   * one with its lists noted first */
  make_wide (&listed);
  focus = embers_profile_node_parent (listed, embers_profile_get_n_nodes (listed) - 1);
  embers_layout_prepare (listed, 0);
  /* main's children were noted, the root's one child not */
  g_assert_nonnull (_embers_profile_get_kids (listed, 1));
  g_assert_cmpuint (_embers_profile_get_kids (listed, 1)[0], >, 2000);
  g_assert_null (_embers_profile_get_kids (listed, 0));

  for (guint t = 0; t < 2; t++)
    for (guint i = 0; i < G_N_ELEMENTS (views); i++)
      {
        g_autoptr(EmbersLayout) a = NULL;
        g_autoptr(EmbersLayout) b = NULL;
        EmbersViewport vp;

        g_clear_object (&walked);
        make_wide (&walked);
        embers_viewport_init (&vp, views[i].width);
        vp.x_start = views[i].x_start;
        vp.x_end = views[i].x_end;
        a = embers_layout_new (walked, t, views[i].focus ? focus : 0, &vp);
        b = embers_layout_new (listed, t, views[i].focus ? focus : 0, &vp);
        g_assert_cmpuint (embers_layout_get_n_rects (a), >, 10);
        assert_sorted (b);
        assert_same_layout (a, b);
      }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/embers/layout/geometry", test_geometry);
  g_test_add_func ("/embers/layout/children-sum-random", test_children_sum_random);
  g_test_add_func ("/embers/layout/lod-merge", test_lod_merge);
  g_test_add_func ("/embers/layout/lod-single-narrow", test_lod_single_narrow);
  g_test_add_func ("/embers/layout/zero-skipped", test_zero_skipped);
  g_test_add_func ("/embers/layout/direction", test_direction);
  g_test_add_func ("/embers/layout/focus", test_focus);
  g_test_add_func ("/embers/layout/zoom-pan", test_zoom_pan);
  g_test_add_func ("/embers/layout/hit-test", test_hit_test);
  g_test_add_func ("/embers/layout/neighbors", test_neighbors);
  g_test_add_func ("/embers/layout/neighbors-skip-merged", test_neighbors_skip_merged);
  g_test_add_func ("/embers/layout/only-merged-child", test_only_merged_child);
  g_test_add_func ("/embers/layout/empty", test_empty);
  g_test_add_func ("/embers/layout/deep", test_deep);
  g_test_add_func ("/embers/layout/diff-widths", test_diff_widths);
  g_test_add_func ("/embers/layout/diff-children-sum-random", test_diff_children_sum_random);
  g_test_add_func ("/embers/layout/diff-lod-hit-neighbors", test_diff_lod_hit_neighbors);
  g_test_add_func ("/embers/layout/many-children", test_many_children);

  return g_test_run ();
}
