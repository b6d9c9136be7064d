/* test-render.c: palette, display list, cairo painting (checked pixel by
 * pixel), tooltips, PNG/SVG/PDF export
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>

#include <math.h>
#include <string.h>
#include <glib/gstdio.h>
#include <gio/gio.h>
#include <pango/pangocairo.h>

#include "embers-diff.h"
#include "embers-format.h"
#include "embers-profile-builder.h"
#include "embers-render.h"
#include "embers-test-utils.h"

static EmbersProfile *
profile_from_lines (const char *text,
                    const char *unit)
{
  return embers_test_profile_from_lines_typed (text, "cpu", unit);
}

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
      g_assert_true (found != EMBERS_NODE_NONE);
      node = found;
    }

  return node;
}

#define assert_rgb(color, r, g, b) \
  G_STMT_START { \
    guint8 r_, g_, b_; \
    embers_color_to_rgb8 ((color), &r_, &g_, &b_); \
    g_assert_cmpint (r_, ==, (r)); \
    g_assert_cmpint (g_, ==, (g)); \
    g_assert_cmpint (b_, ==, (b)); \
  } G_STMT_END

/* Palette */

static void
test_palette_diff (void)
{
  EmbersColor c;

  /* PYROSCOPE-API.md §7 check values */
  embers_palette_diff_scale (50, EMBERS_DIFF_PALETTE_RED_GREEN, &c);
  assert_rgb (&c, 174, 71, 71);
  embers_palette_diff_scale (-50, EMBERS_DIFF_PALETTE_RED_GREEN, &c);
  assert_rgb (&c, 74, 156, 71);

  /* Stops and clamping */
  embers_palette_diff_scale (0, EMBERS_DIFF_PALETTE_RED_BLUE, &c);
  assert_rgb (&c, 148, 142, 142);
  embers_palette_diff_scale (100, EMBERS_DIFF_PALETTE_RED_BLUE, &c);
  assert_rgb (&c, 220, 50, 32);
  embers_palette_diff_scale (-100, EMBERS_DIFF_PALETTE_RED_BLUE, &c);
  assert_rgb (&c, 26, 133, 255);
  embers_palette_diff_scale (900, EMBERS_DIFF_PALETTE_RED_BLUE, &c);
  assert_rgb (&c, 220, 50, 32);
  embers_palette_diff_scale (-900, EMBERS_DIFF_PALETTE_RED_GREEN, &c);
  assert_rgb (&c, 0, 170, 0);
  embers_palette_diff_scale (NAN, EMBERS_DIFF_PALETTE_RED_GREEN, &c);
  assert_rgb (&c, 148, 142, 142);
  g_assert_cmpfloat (c.alpha, ==, 1.f);

  /* OG's rules for the change */
  g_assert_cmpfloat (embers_palette_diff_change (0.2, 0.2), ==, 0);
  g_assert_cmpfloat (embers_palette_diff_change (0, 0), ==, 0);
  g_assert_cmpfloat (embers_palette_diff_change (0, 0.3), ==, 100);
  g_assert_cmpfloat_with_epsilon (embers_palette_diff_change (0.1, 0.15), 50, 1e-9);
  g_assert_cmpfloat_with_epsilon (embers_palette_diff_change (0.2, 0.1), -50, 1e-9);
  g_assert_cmpfloat (embers_palette_diff_change (0.1, 0.5), ==, 100);    /* +400 clamped */
  g_assert_cmpfloat (embers_palette_diff_change (0.1, 0), ==, -100);

  embers_palette_diff_color (0.1, 0.15, EMBERS_DIFF_PALETTE_RED_GREEN, &c);
  assert_rgb (&c, 174, 71, 71);
  embers_palette_diff_color (0.0, 0.15, EMBERS_DIFF_PALETTE_RED_BLUE, &c);
  assert_rgb (&c, 220, 50, 32);
  embers_palette_diff_color (0.3, 0.3, EMBERS_DIFF_PALETTE_RED_BLUE, &c);
  assert_rgb (&c, 148, 142, 142);

  embers_palette_diff_stop (EMBERS_DIFF_PALETTE_RED_BLUE, 0, &c);
  assert_rgb (&c, 26, 133, 255);
  embers_palette_diff_stop (EMBERS_DIFF_PALETTE_RED_GREEN, 2, &c);
  assert_rgb (&c, 200, 0, 0);
}

static void
test_palette_package (void)
{
  static const struct { const char *name; const char *package; } cases[] = {
    { "net/http.(*Client).Do", "net/http" },
    { "github.com/grafana/pyroscope/pkg/model.(*Tree).Insert", "github.com/grafana/pyroscope/pkg/model" },
    { "main.main", "main" },
    { "runtime.mallocgc", "runtime" },
    { "sync.(*Mutex).Lock", "sync" },
    { "java.util.HashMap.get", "java.util" },
    { "com.example.app.Server$Handler.run", "com.example.app" },
    { "std::vector<int>::push_back", "std" },
    { "std::map<std::string, int>::find", "std" },
    { "core::ptr::drop_in_place", "core" },
    { "<alloc::vec::Vec<T> as core::ops::Drop>::drop", "<alloc::vec::Vec<T> as core::ops::Drop>" },
    { "module.py:func", "module.py" },
    { "app/server.py:42 - handle", "app/server.py" },
    { "<module> (lib/util.py:3)", "lib/util.py" },
    { "malloc", "malloc" },
    { "[kernel.kallsyms]", "[kernel.kallsyms]" },
    { "[unknown]", "[unknown]" },
    { "", "" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      gsize len = 999;
      const char *p = embers_palette_package (cases[i].name, &len);
      g_autofree char *got = g_strndup (p, len);

      g_assert_cmpstr (got, ==, cases[i].package);
    }
}

static void
test_palette_hash_and_colors (void)
{
  EmbersColor a, b, dark, hsl;
  guint8 r, g, bl, r2, g2, b2;

  /* murmur3 x86_32, seed 0, published test vectors */
  g_assert_cmphex (embers_palette_hash ("", 0), ==, 0);
  g_assert_cmphex (embers_palette_hash ("hello", 5), ==, 0x248bfa47);
  g_assert_cmphex (embers_palette_hash ("The quick brown fox jumps over the lazy dog", 43), ==, 0x2e4ff723);

  /* Same package, same colour; light theme is 15 brighter than dark */
  embers_palette_package_color ("net/http.(*Client).Do", FALSE, &a);
  embers_palette_package_color ("net/http.Get", FALSE, &b);
  g_assert_true (memcmp (&a, &b, sizeof a) == 0);
  embers_palette_package_color ("net/http.Get", TRUE, &dark);
  embers_color_to_rgb8 (&a, &r, &g, &bl);
  embers_color_to_rgb8 (&dark, &r2, &g2, &b2);
  g_assert_cmpint (r, ==, MIN (255, r2 + 15));
  g_assert_cmpint (g, ==, MIN (255, g2 + 15));
  g_assert_cmpint (bl, ==, MIN (255, b2 + 15));
  g_assert_cmpfloat (a.alpha, ==, 1.f);

  /* Warm palette: red is the strongest channel in every entry */
  for (guint i = 0; i < EMBERS_PALETTE_N_COLORS; i++)
    {
      embers_palette_get_color (i, &a);
      g_assert_cmpfloat (a.red, >=, a.green);
      g_assert_cmpfloat (a.green, >=, a.blue);
    }

  /* By value: HSL(50 - 50i, 100%, 65 + 7i) */
  embers_palette_value_color (0, &hsl);
  embers_color_to_rgb8 (&hsl, &r, &g, &bl);
  g_assert_cmpint (r, ==, 255);
  g_assert_cmpint (abs (g - 225), <=, 1);
  g_assert_cmpint (abs (bl - 77), <=, 1);
  embers_palette_value_color (1, &hsl);
  embers_color_to_rgb8 (&hsl, &r, &g, &bl);
  g_assert_cmpint (r, ==, 255);
  g_assert_cmpint (abs (g - 112), <=, 1);
  g_assert_cmpint (abs (bl - 112), <=, 1);
  embers_palette_value_color (7, &b);          /* clamped to 1 */
  g_assert_true (memcmp (&hsl, &b, sizeof b) == 0);

  /* Text contrast */
  embers_color_init_rgb8 (&a, 255, 255, 255);
  embers_color_contrast_text (&a, &b);
  assert_rgb (&b, 0, 0, 0);
  embers_color_init_rgb8 (&a, 0x24, 0x24, 0x24);
  embers_color_contrast_text (&a, &b);
  assert_rgb (&b, 255, 255, 255);
  embers_palette_get_color (0, &a);
  embers_color_contrast_text (&a, &b);
  assert_rgb (&b, 0, 0, 0);   /* warm colours take black text */

  embers_color_init_hsl (&a, 120, 1, 0.5);
  assert_rgb (&a, 0, 255, 0);
  embers_color_init_hsl (&a, 240, 0, 0.5);
  assert_rgb (&a, 128, 128, 128);
}

/* Painting */

typedef struct
{
  cairo_surface_t *surface;
  cairo_t         *cr;
} Canvas;

static void
canvas_init (Canvas *c,
             int     width,
             int     height)
{
  c->surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  c->cr = cairo_create (c->surface);
}

static void
canvas_clear (Canvas *c)
{
  cairo_destroy (c->cr);
  cairo_surface_destroy (c->surface);
}

static void
pixel (Canvas *c,
       int     x,
       int     y,
       guint8 *r,
       guint8 *g,
       guint8 *b,
       guint8 *a)
{
  const guint8 *data;
  guint32 v;

  cairo_surface_flush (c->surface);
  data = cairo_image_surface_get_data (c->surface);
  v = *(const guint32 *)(gconstpointer)(data + y * cairo_image_surface_get_stride (c->surface) + x * 4);
  *a = v >> 24;
  *r = (v >> 16) & 0xff;
  *g = (v >> 8) & 0xff;
  *b = v & 0xff;
}

static void
assert_pixel (Canvas            *c,
              int                x,
              int                y,
              const EmbersColor *expected)
{
  guint8 r, g, b, a, er, eg, eb;

  pixel (c, x, y, &r, &g, &b, &a);
  embers_color_to_rgb8 (expected, &er, &eg, &eb);
  g_assert_cmpint (a, ==, 255);
  g_assert_cmpint (abs (r - er), <=, 1);
  g_assert_cmpint (abs (g - eg), <=, 1);
  g_assert_cmpint (abs (b - eb), <=, 1);
}

static const EmbersRenderItem *
item_of (EmbersRender *render,
         EmbersLayout *layout,
         guint32       node)
{
  guint n;
  const EmbersRenderItem *items = embers_render_get_items (render, &n);
  int i = embers_layout_find_node (layout, node);

  g_assert_cmpint (i, >=, 0);
  g_assert_cmpuint ((guint)i, <, n);
  g_assert_cmpuint (items[i].rect, ==, (guint)i);
  return &items[i];
}

/* root 100 -> a 50 (b 30, self 20), c 50 */
static const char *small = "a;b 30\na 20\nc 50\n";

static void
test_paint_pixels (void)
{
  g_autoptr(EmbersProfile) p = profile_from_lines (small, "nanoseconds");
  g_autoptr(EmbersLayout) layout = NULL;
  g_autoptr(EmbersRender) render = NULL;
  EmbersViewport vp;
  EmbersRenderStyle style;
  EmbersColor expected;
  Canvas c;
  guint8 r, g, b, a;
  gboolean text_found = FALSE;

  embers_viewport_init (&vp, 200);
  layout = embers_layout_new (p, 0, 0, &vp);
  embers_render_style_init (&style, FALSE);
  render = embers_render_new (layout, NULL, &style);

  canvas_init (&c, 200, 3 * 22);
  embers_render_paint (render, c.cr);

  /* Root row is filled with the root's package colour, right of its label */
  embers_palette_package_color ("total", FALSE, &expected);
  assert_pixel (&c, 190, 1, &expected);
  assert_pixel (&c, 150, 20, &expected);
  g_assert_true (memcmp (&item_of (render, layout, 0)->fill, &expected, sizeof expected) == 0);

  /* c in row 1, b in row 2 */
  embers_palette_package_color ("c", FALSE, &expected);
  assert_pixel (&c, 195, 22 + 1, &expected);
  embers_palette_package_color ("b", FALSE, &expected);
  assert_pixel (&c, 55, 44 + 1, &expected);

  /* a's self area (60..100 in row 2) and the space under c are background */
  assert_pixel (&c, 80, 44 + 10, &style.background);
  assert_pixel (&c, 150, 44 + 10, &style.background);
  /* The 0.5 px border between a and c is lighter than both */
  pixel (&c, 99, 30, &r, &g, &b, &a);
  embers_palette_package_color ("a", FALSE, &expected);
  g_assert_cmpint (r + g + b, >, (int)((expected.red + expected.green + expected.blue) * 255));

  /* The root's label "total" is drawn in black over the fill */
  for (int x = 4; x < 40 && !text_found; x++)
    for (int y = 3; y < 19 && !text_found; y++)
      {
        pixel (&c, x, y, &r, &g, &b, &a);
        text_found = r < 80 && g < 80 && b < 80;
      }
  g_assert_true (text_found);
  g_assert_true (item_of (render, layout, 0)->flags & EMBERS_RENDER_ITEM_LABEL);
  assert_rgb (&item_of (render, layout, 0)->text, 0, 0, 0);

  canvas_clear (&c);
}

static void
test_paint_clip (void)
{
  g_autoptr(EmbersProfile) p = profile_from_lines (small, "nanoseconds");
  g_autoptr(EmbersLayout) layout = NULL;
  g_autoptr(EmbersRender) render = NULL;
  EmbersViewport vp;
  EmbersColor expected;
  Canvas c;
  guint8 r, g, b, a;

  embers_viewport_init (&vp, 200);
  layout = embers_layout_new (p, 0, 0, &vp);
  render = embers_render_new (layout, NULL, NULL);

  /* Only row 1 is exposed: rows 0 and 2 stay untouched (transparent) */
  canvas_init (&c, 200, 3 * 22);
  cairo_rectangle (c.cr, 0, 22, 200, 22);
  cairo_clip (c.cr);
  embers_render_paint (render, c.cr);
  pixel (&c, 190, 1, &r, &g, &b, &a);
  g_assert_cmpint (a, ==, 0);
  pixel (&c, 10, 50, &r, &g, &b, &a);
  g_assert_cmpint (a, ==, 0);
  embers_palette_package_color ("c", FALSE, &expected);
  assert_pixel (&c, 195, 23, &expected);
  canvas_clear (&c);
}

static double
saturation (guint8 r,
            guint8 g,
            guint8 b)
{
  return (double)MAX (r, MAX (g, b)) - (double)MIN (r, MIN (g, b));
}

static void
test_paint_search (void)
{
  g_autoptr(EmbersProfile) p = profile_from_lines (small, "nanoseconds");
  g_autoptr(EmbersLayout) layout = NULL;
  g_autoptr(EmbersRender) render = NULL;
  g_autoptr(EmbersSearch) search = NULL;
  EmbersViewport vp;
  EmbersColor base_b, base_c;
  Canvas c;
  guint8 r, g, b, a;
  double s_match, s_dim;

  embers_viewport_init (&vp, 200);
  layout = embers_layout_new (p, 0, 0, &vp);
  search = embers_search_new (p, "b", EMBERS_SEARCH_DEFAULT, NULL);
  render = embers_render_new (layout, search, NULL);

  g_assert_true (item_of (render, layout, find_path (p, "a;b"))->flags & EMBERS_RENDER_ITEM_MATCH);
  g_assert_true (item_of (render, layout, find_path (p, "c"))->flags & EMBERS_RENDER_ITEM_DIMMED);
  g_assert_false (item_of (render, layout, find_path (p, "c"))->flags & EMBERS_RENDER_ITEM_MATCH);

  canvas_init (&c, 200, 3 * 22);
  embers_render_paint (render, c.cr);

  /* The match keeps its colour */
  embers_palette_package_color ("b", FALSE, &base_b);
  assert_pixel (&c, 55, 45, &base_b);
  pixel (&c, 55, 45, &r, &g, &b, &a);
  s_match = saturation (r, g, b);

  /* Others are dimmed: greyer and closer to the white background */
  embers_palette_package_color ("c", FALSE, &base_c);
  pixel (&c, 195, 23, &r, &g, &b, &a);
  s_dim = saturation (r, g, b);
  g_assert_cmpfloat (s_dim, <, s_match / 2);
  g_assert_cmpint (r + g + b, >, (int)((base_c.red + base_c.green + base_c.blue) * 255));

  /* Dropping the search restores the colours */
  embers_render_set_search (render, NULL);
  embers_render_paint (render, c.cr);
  assert_pixel (&c, 195, 23, &base_c);
  canvas_clear (&c);
}

/* A match far narrower than a pixel, alone in a merged block of tiny
 * frames, still shows: a sliver in its undimmed colour among the dimmed
 * (so that "591 matches" never looks like none) */
static void
test_paint_search_sliver (void)
{
  g_autoptr(GString) lines = g_string_new ("big 100000\n");
  g_autoptr(EmbersProfile) p = NULL;
  g_autoptr(EmbersLayout) layout = NULL;
  g_autoptr(EmbersRender) render = NULL;
  g_autoptr(EmbersSearch) search = NULL;
  EmbersViewport vp;
  const EmbersRect *rects;
  guint n_rects, matched = 0, n_lit = 0;
  int sliver = -1;
  Canvas c;

  /* 40 tiny functions, one of them the match, each 1/100000 of the width */
  for (int i = 0; i < 40; i++)
    g_string_append_printf (lines, "tiny%02d 1\n", i);
  g_string_append (lines, "zz_needle 1\n");
  p = profile_from_lines (lines->str, "nanoseconds");
  embers_viewport_init (&vp, 200);
  layout = embers_layout_new (p, 0, 0, &vp);
  search = embers_search_new (p, "needle", EMBERS_SEARCH_DEFAULT, NULL);
  render = embers_render_new (layout, search, NULL);

  /* The needle is inside a merged block, which is marked a match */
  rects = embers_layout_get_rects (layout, &n_rects);
  for (guint i = 0; i < n_rects; i++)
    {
      const EmbersRenderItem *item = &embers_render_get_items (render, NULL)[i];

      if ((rects[i].flags & EMBERS_RECT_MERGED) && (item->flags & EMBERS_RENDER_ITEM_MATCH))
        {
          g_assert_cmpfloat (rects[i].width, <, 0.5);
          sliver = (int)i;
          matched++;
        }
    }
  g_assert_cmpuint (matched, ==, 1);

  canvas_init (&c, 200, 2 * 22);
  embers_render_paint (render, c.cr);

  /* Row 1 right of "big": one column in the block's undimmed colour */
  for (int x = 190; x < 200; x++)
    {
      guint8 r, g, b, a;
      const EmbersRenderItem *item = &embers_render_get_items (render, NULL)[sliver];
      guint8 er, eg, eb;

      pixel (&c, x, 22 + 10, &r, &g, &b, &a);
      embers_color_to_rgb8 (&item->fill, &er, &eg, &eb);
      if (abs (r - er) <= 1 && abs (g - eg) <= 1 && abs (b - eb) <= 1)
        n_lit++;
    }
  g_assert_cmpuint (n_lit, >=, 1);
  canvas_clear (&c);
}

/* High contrast: the match is outlined in the foreground colour, the
 * others keep fully opaque labels */
static void
test_paint_search_high_contrast (void)
{
  g_autoptr(EmbersProfile) p = profile_from_lines (small, "nanoseconds");
  g_autoptr(EmbersLayout) layout = NULL;
  g_autoptr(EmbersRender) render = NULL;
  g_autoptr(EmbersSearch) search = NULL;
  EmbersViewport vp;
  EmbersRenderStyle style;
  EmbersColor base_b;
  Canvas c;

  embers_viewport_init (&vp, 200);
  layout = embers_layout_new (p, 0, 0, &vp);
  search = embers_search_new (p, "b", EMBERS_SEARCH_DEFAULT, NULL);
  embers_render_style_init (&style, FALSE);
  render = embers_render_new (layout, search, &style);
  g_assert_cmpfloat (item_of (render, layout, find_path (p, "c"))->text.alpha, <, 1.0);

  style.high_contrast = TRUE;
  embers_render_set_style (render, &style);
  g_assert_cmpfloat (item_of (render, layout, find_path (p, "c"))->text.alpha, ==, 1.0);

  canvas_init (&c, 200, 3 * 22);
  embers_render_paint (render, c.cr);
  /* b (0..60 in row 2): its left edge is the foreground, its inside its colour */
  assert_pixel (&c, 1, 55, &style.foreground);
  embers_palette_package_color ("b", FALSE, &base_b);
  assert_pixel (&c, 50, 56, &base_b);
  /* c, dimmed, has no outline */
  {
    guint8 r, g, b, a;

    pixel (&c, 101, 33, &r, &g, &b, &a);
    g_assert_cmpint (r + g + b, >, 3 * 150);
  }
  canvas_clear (&c);
}

static void
test_paint_focus_and_highlight (void)
{
  g_autoptr(EmbersProfile) p = profile_from_lines (small, "nanoseconds");
  g_autoptr(EmbersLayout) layout = NULL;
  g_autoptr(EmbersRender) render = NULL;
  EmbersViewport vp;
  EmbersRenderStyle style;
  EmbersColor base;
  Canvas c;
  guint8 r, g, b, a;
  int rect_b;

  embers_viewport_init (&vp, 200);
  layout = embers_layout_new (p, 0, find_path (p, "a"), &vp);
  embers_render_style_init (&style, TRUE);
  render = embers_render_new (layout, NULL, &style);

  canvas_init (&c, 200, 3 * 22);
  embers_render_paint (render, c.cr);

  /* The ancestor (root) is drawn toward the dark background: darker */
  embers_palette_package_color ("total", TRUE, &base);
  pixel (&c, 190, 1, &r, &g, &b, &a);
  g_assert_cmpint (r + g + b, <, (int)((base.red + base.green + base.blue) * 255) - 60);
  /* The focused frame a spans the whole width in its own colour */
  embers_palette_package_color ("a", TRUE, &base);
  assert_pixel (&c, 195, 23, &base);
  /* b: 30 of 50 -> 120 px */
  embers_palette_package_color ("b", TRUE, &base);
  assert_pixel (&c, 115, 45, &base);
  assert_pixel (&c, 125, 45, &style.background);

  /* Selection outline in the accent colour, on top */
  rect_b = embers_layout_find_node (layout, find_path (p, "a;b"));
  embers_render_paint_highlight (render, c.cr, rect_b, EMBERS_HIGHLIGHT_SELECTED);
  assert_pixel (&c, 0, 50, &style.accent);
  assert_pixel (&c, 60, 44, &style.accent);
  assert_pixel (&c, 60, 50, &base);
  /* Hover: foreground outline */
  embers_render_paint_highlight (render, c.cr, embers_layout_find_node (layout, 0), EMBERS_HIGHLIGHT_HOVER);
  assert_pixel (&c, 100, 0, &style.foreground);
  /* Out of range: nothing, no crash */
  embers_render_paint_highlight (render, c.cr, 99, EMBERS_HIGHLIGHT_HOVER);
  embers_render_paint_highlight (render, c.cr, -1, EMBERS_HIGHLIGHT_HOVER);
  canvas_clear (&c);
}

static void
test_paint_diff (void)
{
  g_autoptr(EmbersProfile) base = profile_from_lines ("a 50\nb 50\n", "nanoseconds");
  g_autoptr(EmbersProfile) comp = profile_from_lines ("a 75\nb 25\n", "nanoseconds");
  g_autoptr(EmbersProfile) diff = NULL;
  g_autoptr(EmbersLayout) layout = NULL;
  g_autoptr(EmbersRender) render = NULL;
  g_autofree char *tip = NULL;
  EmbersRenderStyle style;
  GError *error = NULL;

  diff = embers_diff_profiles (base, 0, comp, 0, &error);
  g_assert_no_error (error);
  layout = embers_layout_new (diff, EMBERS_DIFF_COMPARISON, 0, NULL);
  embers_render_style_init (&style, FALSE);
  style.diff_palette = EMBERS_DIFF_PALETTE_RED_GREEN;
  render = embers_render_new (layout, NULL, &style);

  /* a: 50% -> 75% = +50 -> (174,71,71); b: 50% -> 25% = -50 -> (74,156,71) */
  assert_rgb (&item_of (render, layout, find_path (diff, "a"))->fill, 174, 71, 71);
  assert_rgb (&item_of (render, layout, find_path (diff, "b"))->fill, 74, 156, 71);
  assert_rgb (&item_of (render, layout, 0)->fill, 148, 142, 142);

  tip = embers_render_tooltip_text (diff, 0, find_path (diff, "a"), 0);
  g_assert_cmpstr (tip, ==,
                   "a\n"
                   "            Baseline  Comparison  Diff\n"
                   "% of total  50.0%     75.0%       +50.0%\n"
                   "Value       50 ns     75 ns       +25 ns (+50.0%)");
}

/* A diff's noise test: "b" changed beyond the noise, "a" within it. With
 * Hide noise, a is neutral and its label carries no change; b keeps its
 * colour; without it, both do. A node that could not be tested keeps its
 * colour too: nothing is claimed. */
static void
test_paint_noise (void)
{
  g_autoptr(EmbersProfile) base = profile_from_lines ("a 50\nb 50\n", "nanoseconds");
  g_autoptr(EmbersProfile) comp = profile_from_lines ("a 75\nb 25\n", "nanoseconds");
  g_autoptr(EmbersProfile) diff = embers_diff_profiles (base, 0, comp, 0, NULL);
  g_autoptr(EmbersLayout) layout = embers_layout_new (diff, EMBERS_DIFF_COMPARISON, 0, NULL);
  g_autoptr(EmbersRender) render = NULL;
  g_autofree EmbersChangeVerdict *verdicts = g_new0 (EmbersChangeVerdict, embers_profile_get_n_nodes (diff));
  EmbersRenderStyle style;

  embers_render_style_init (&style, FALSE);
  style.diff_palette = EMBERS_DIFF_PALETTE_RED_GREEN;
  render = embers_render_new (layout, NULL, &style);
  verdicts[find_path (diff, "a")] = EMBERS_CHANGE_WITHIN_NOISE;
  verdicts[find_path (diff, "b")] = EMBERS_CHANGE_SHRANK;

  embers_render_set_noise (render, diff, verdicts, TRUE);
  g_assert_true (embers_render_node_is_noise (render, diff, find_path (diff, "a")));
  g_assert_false (embers_render_node_is_noise (render, diff, find_path (diff, "b")));
  assert_rgb (&item_of (render, layout, find_path (diff, "a"))->fill, 148, 142, 142);
  assert_rgb (&item_of (render, layout, find_path (diff, "b"))->fill, 74, 156, 71);

  /* Shown: the change is coloured again */
  embers_render_set_noise (render, diff, verdicts, FALSE);
  assert_rgb (&item_of (render, layout, find_path (diff, "a"))->fill, 174, 71, 71);

  /* Not tested: coloured, not called noise */
  verdicts[find_path (diff, "a")] = EMBERS_CHANGE_NOT_ENOUGH_STEPS;
  embers_render_set_noise (render, diff, verdicts, TRUE);
  assert_rgb (&item_of (render, layout, find_path (diff, "a"))->fill, 174, 71, 71);

  /* Another profile than the verdicts': ignored */
  g_assert_false (embers_render_node_is_noise (render, base, find_path (diff, "a")));
  embers_render_set_noise (render, NULL, NULL, TRUE);
  assert_rgb (&item_of (render, layout, find_path (diff, "a"))->fill, 174, 71, 71);
}

/* Diff flame graphs */

static EmbersProfile *
diff_from_lines (const char *baseline,
                 const char *comparison,
                 const char *unit)
{
  g_autoptr(EmbersProfile) base = profile_from_lines (baseline, unit);
  g_autoptr(EmbersProfile) comp = profile_from_lines (comparison, unit);
  GError *error = NULL;
  EmbersProfile *diff;

  diff = embers_diff_profiles (base, 0, comp, 0, &error);
  g_assert_no_error (error);
  return diff;
}

static void
assert_fill (EmbersRender *render,
             EmbersLayout *layout,
             EmbersProfile *profile,
             const char   *path,
             guint8        r,
             guint8        g,
             guint8        b)
{
  assert_rgb (&item_of (render, layout, path ? find_path (profile, path) : 0)->fill, r, g, b);
}

/* One function got slower: "slow" 20 -> 40 ns, the rest the same */
static const char *slower_base = "main;a 60\nmain;slow 20\nmain 20\n";
static const char *slower_comp = "main;a 60\nmain;slow 40\nmain 20\n";

static void
test_diff_colors (void)
{
  g_autoptr(EmbersProfile) d = diff_from_lines (slower_base, slower_comp, "nanoseconds");
  g_autoptr(EmbersLayout) layout = embers_layout_new (d, EMBERS_DIFF_COMPARISON, 0, NULL);
  g_autoptr(EmbersRender) render = NULL;
  EmbersRenderStyle style;

  embers_render_style_init (&style, FALSE);
  g_assert_cmpint (style.diff_palette, ==, EMBERS_DIFF_PALETTE_RED_BLUE);
  g_assert_cmpint (style.diff_mode, ==, EMBERS_DIFF_MODE_SHARE);

  /* Absolute change (equal load): slow +100% is the red end exactly, the
   * unchanged a neutral exactly; main grew 100 -> 120 (+20%) */
  style.diff_mode = EMBERS_DIFF_MODE_ABSOLUTE;
  render = embers_render_new (layout, NULL, &style);
  assert_fill (render, layout, d, "main;slow", 220, 50, 32);
  assert_fill (render, layout, d, "main;a", 148, 142, 142);
  assert_fill (render, layout, d, "main", 162, 124, 120);
  assert_fill (render, layout, d, NULL, 162, 124, 120);

  /* Red/green: the same frames in the other palette */
  style.diff_palette = EMBERS_DIFF_PALETTE_RED_GREEN;
  embers_render_set_style (render, &style);
  assert_fill (render, layout, d, "main;slow", 200, 0, 0);
  assert_fill (render, layout, d, "main;a", 148, 142, 142);

  /* Share of total: slow 20% -> 33.3% (+66.7), a 60% -> 50% (-16.7),
   * main and the root 100% -> 100% */
  style.diff_palette = EMBERS_DIFF_PALETTE_RED_BLUE;
  style.diff_mode = EMBERS_DIFF_MODE_SHARE;
  embers_render_set_style (render, &style);
  assert_fill (render, layout, d, "main;slow", 196, 81, 69);
  assert_fill (render, layout, d, "main;a", 128, 141, 161);
  assert_fill (render, layout, d, "main", 148, 142, 142);
  assert_fill (render, layout, d, NULL, 148, 142, 142);

  /* Equal totals: share and absolute agree; the slowed frame red, the
   * rest neutral exactly (main's self time went down by as much) */
  {
    g_autoptr(EmbersProfile) eq = diff_from_lines (slower_base, "main;a 60\nmain;slow 40\n", "nanoseconds");
    g_autoptr(EmbersLayout) eq_layout = embers_layout_new (eq, 0, 0, NULL);

    for (guint mode = 0; mode < 2; mode++)
      {
        style.diff_mode = mode;
        embers_render_set_style (render, &style);
        embers_render_set_layout (render, eq_layout);
        assert_fill (render, eq_layout, eq, "main;slow", 220, 50, 32);
        assert_fill (render, eq_layout, eq, "main;a", 148, 142, 142);
        assert_fill (render, eq_layout, eq, "main", 148, 142, 142);
        assert_fill (render, eq_layout, eq, NULL, 148, 142, 142);
      }
  }
}

static void
test_diff_new_removed_clamp (void)
{
  g_autoptr(EmbersProfile) d = diff_from_lines ("main;old 10\nmain;keep 10\nx 10\ny 90\n",
                                                "main;new 10\nmain;keep 10\nx 110\ny 10\n",
                                                "count");
  g_autoptr(EmbersLayout) layout = embers_layout_new (d, 0, 0, NULL);
  g_autoptr(EmbersRender) render = NULL;
  EmbersRenderStyle style;
  struct {
    const char *path;
    const char *text;        /* share mode */
    const char *abs_text;    /* absolute mode */
  } cases[] = {
    { "main;new", "new", "new" },
    { "main;old", "removed", "removed" },
    { "main;keep", "\xe2\x88\x92" "14%", NULL },  /* 8.33% -> 7.14% of total; 10 -> 10 */
    { "x", "+843%", "+1000%" },                    /* 8.33% -> 78.6%; 10 -> 110 */
    { "y", "\xe2\x88\x92" "90%", "\xe2\x88\x92" "89%" },  /* 75% -> 7.14%; 90 -> 10 */
    { NULL, NULL, "+17%" },                        /* the root: 100% -> 100%; 120 -> 140 */
  };

  embers_render_style_init (&style, FALSE);
  render = embers_render_new (layout, NULL, &style);

  /* New: the "bad" end; removed: the "good" end; huge growth clamps */
  assert_fill (render, layout, d, "main;new", 220, 50, 32);
  assert_fill (render, layout, d, "main;old", 26, 133, 255);
  assert_fill (render, layout, d, "x", 220, 50, 32);
  style.diff_palette = EMBERS_DIFF_PALETTE_RED_GREEN;
  embers_render_set_style (render, &style);
  assert_fill (render, layout, d, "main;new", 200, 0, 0);
  assert_fill (render, layout, d, "main;old", 0, 170, 0);

  /* The same in words */
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      guint32 node = cases[i].path ? find_path (d, cases[i].path) : 0;
      g_autofree char *text = embers_render_diff_change_text (d, node, EMBERS_DIFF_MODE_SHARE);
      g_autofree char *abs_text = embers_render_diff_change_text (d, node, EMBERS_DIFF_MODE_ABSOLUTE);

      g_assert_cmpstr (text, ==, cases[i].text);
      g_assert_cmpstr (abs_text, ==, cases[i].abs_text);
    }

  /* The change functions behind these */
  {
    EmbersDiffKind kind;

    g_assert_cmpfloat (embers_diff_absolute_change (0, 5, &kind), ==, 100);
    g_assert_cmpint (kind, ==, EMBERS_DIFF_KIND_NEW);
    g_assert_cmpfloat (embers_diff_absolute_change (5, 0, &kind), ==, -100);
    g_assert_cmpint (kind, ==, EMBERS_DIFF_KIND_REMOVED);
    g_assert_cmpfloat (embers_diff_absolute_change (7, 7, &kind), ==, 0);
    g_assert_cmpint (kind, ==, EMBERS_DIFF_KIND_CHANGED);
    g_assert_cmpfloat (embers_diff_absolute_change (0, 0, NULL), ==, 0);
    g_assert_cmpfloat (embers_diff_absolute_change (4, 5, NULL), ==, 25);
    g_assert_cmpfloat (embers_diff_node_change (d, find_path (d, "x"), EMBERS_DIFF_MODE_ABSOLUTE, &kind), ==, 1000);
    g_assert_cmpfloat_with_epsilon (embers_diff_node_change (d, find_path (d, "x"), EMBERS_DIFF_MODE_SHARE, NULL),
                                    (110.0 / 140 - 10.0 / 120) / (10.0 / 120) * 100, 1e-9);
    g_assert_cmpfloat (embers_diff_node_change (d, find_path (d, "main;new"), EMBERS_DIFF_MODE_SHARE, &kind), ==, 100);
    g_assert_cmpint (kind, ==, EMBERS_DIFF_KIND_NEW);
  }

  /* An empty baseline: everything is new, red, in either mode */
  {
    g_autoptr(EmbersProfileBuilder) bld = embers_profile_builder_new ();
    g_autoptr(EmbersProfile) empty = NULL;
    g_autoptr(EmbersProfile) comp = profile_from_lines ("a 5\n", "count");
    g_autoptr(EmbersProfile) all_new = NULL;
    g_autoptr(EmbersLayout) new_layout = NULL;
    EmbersDiffKind kind;

    embers_profile_builder_add_sample_type (bld, "cpu", "count");
    empty = embers_profile_builder_finish (bld, NULL);
    all_new = embers_diff_profiles (empty, 0, comp, 0, NULL);
    g_assert_nonnull (all_new);
    g_assert_cmpfloat (embers_diff_node_change (all_new, find_path (all_new, "a"), EMBERS_DIFF_MODE_SHARE, &kind), ==, 0);
    g_assert_cmpint (kind, ==, EMBERS_DIFF_KIND_NEW);
    new_layout = embers_layout_new (all_new, 0, 0, NULL);
    style.diff_palette = EMBERS_DIFF_PALETTE_RED_BLUE;
    embers_render_set_style (render, &style);
    embers_render_set_layout (render, new_layout);
    assert_fill (render, new_layout, all_new, "a", 220, 50, 32);
    assert_fill (render, new_layout, all_new, NULL, 220, 50, 32);
  }

  /* One decimal under 10% */
  {
    g_autoptr(EmbersProfile) small_change = diff_from_lines ("a 1000\nb 1000\n", "a 2084\nb 1916\n", "count");
    g_autofree char *share = embers_render_diff_change_text (small_change, find_path (small_change, "a"),
                                                             EMBERS_DIFF_MODE_SHARE);
    g_autofree char *share_b = embers_render_diff_change_text (small_change, find_path (small_change, "b"),
                                                               EMBERS_DIFF_MODE_SHARE);
    g_autofree char *absolute = embers_render_diff_change_text (small_change, find_path (small_change, "a"),
                                                                EMBERS_DIFF_MODE_ABSOLUTE);

    g_assert_cmpstr (share, ==, "+4.2%");
    g_assert_cmpstr (share_b, ==, "\xe2\x88\x92" "4.2%");
    g_assert_cmpstr (absolute, ==, "+108%");
  }
}

static void
test_label_ellipsis (void)
{
  g_autoptr(EmbersProfile) p = profile_from_lines ("a_very_long_function_name_that_cannot_fit 50\nshort 50\n",
                                                   "nanoseconds");
  g_autoptr(EmbersLayout) layout = NULL;
  g_autoptr(EmbersRender) render = NULL;
  EmbersViewport vp;
  Canvas c;

  /* 120 px each: the long name is cut; painting twice uses the cache */
  embers_viewport_init (&vp, 240);
  layout = embers_layout_new (p, 0, 0, &vp);
  render = embers_render_new (layout, NULL, NULL);
  canvas_init (&c, 240, 44);
  embers_render_paint (render, c.cr);
  embers_render_paint (render, c.cr);

  /* Text never spills into the neighbour: column 118..119 (right padding
   * of the long frame) stays the fill colour in row 1 */
  {
    EmbersColor fill = item_of (render, layout, find_path (p, "a_very_long_function_name_that_cannot_fit"))->fill;

    for (int y = 23; y < 42; y++)
      assert_pixel (&c, 117, y, &fill);
  }
  canvas_clear (&c);

  /* Too narrow for a label: no LABEL flag */
  {
    g_autoptr(EmbersLayout) narrow = NULL;

    embers_viewport_init (&vp, 30);
    narrow = embers_layout_new (p, 0, 0, &vp);
    embers_render_set_layout (render, narrow);
    g_assert_false (item_of (render, narrow, find_path (p, "short"))->flags & EMBERS_RENDER_ITEM_LABEL);
    g_assert_true (embers_render_get_layout (render) == narrow);
  }
}

/* Tooltips */

static void
test_tooltip (void)
{
  g_autoptr(EmbersProfileBuilder) bld = embers_profile_builder_new ();
  g_autoptr(EmbersProfile) p = NULL;
  guint32 ids[2];
  gint64 v;
  guint32 main_node, work;
  g_autofree char *tip_root = NULL;
  g_autofree char *tip_work = NULL;
  g_autofree char *tip_focus = NULL;
  g_autofree char *tip_outside = NULL;
  g_autofree char *a11y = NULL;

  embers_profile_builder_add_sample_type (bld, "cpu", "nanoseconds");
  ids[0] = embers_profile_builder_intern (bld, "main", -1);
  ids[1] = embers_profile_builder_intern (bld, "work", -1);
  embers_profile_builder_set_name_location (bld, ids[1], embers_profile_builder_intern (bld, "src/work.go", -1), 42);
  v = 900000000;   /* 0.9 s in work */
  embers_profile_builder_add_stack (bld, ids, 2, &v, 0);
  v = 300000000;   /* 0.3 s in main itself */
  embers_profile_builder_add_stack (bld, ids, 1, &v, 0);
  v = 800000000;   /* 0.8 s elsewhere */
  ids[0] = embers_profile_builder_intern (bld, "other", -1);
  embers_profile_builder_add_stack (bld, ids, 1, &v, 0);
  p = embers_profile_builder_finish (bld, NULL);
  main_node = find_path (p, "main");
  work = find_path (p, "main;work");

  tip_root = embers_render_tooltip_text (p, 0, 0, 0);
  g_assert_cmpstr (tip_root, ==, "total\nTotal: 2.00 s (100.0% of total)\nSelf: 0 ns (0.00% of total)");

  tip_work = embers_render_tooltip_text (p, 0, work, EMBERS_NODE_NONE);
  g_assert_cmpstr (tip_work, ==, "work\nTotal: 900.00 ms (45.0% of total)\nSelf: 900.00 ms (45.0% of total)\nsrc/work.go:42");

  /* Focused on main (1.2 s): work is 75% of it */
  tip_focus = embers_render_tooltip_text (p, 0, work, main_node);
  g_assert_cmpstr (tip_focus, ==, "work\nTotal: 900.00 ms (45.0% of total, 75.0% of focus)\nSelf: 900.00 ms (45.0% of total)\nsrc/work.go:42");

  /* An ancestor of the focus has no share of the focus */
  tip_outside = embers_render_tooltip_text (p, 0, 0, main_node);
  g_assert_cmpstr (tip_outside, ==, "total\nTotal: 2.00 s (100.0% of total)\nSelf: 0 ns (0.00% of total)");

  a11y = embers_render_accessible_text (p, 0, main_node);
  g_assert_cmpstr (a11y, ==, "main, total 1.20 s, 60.0% of total");

  /* A sandwich's half says what its shares are of */
  {
    g_autofree char *of_function = embers_render_tooltip_text_of (p, 0, work, EMBERS_NODE_NONE, "of the function");

    g_assert_cmpstr (of_function, ==,
                     "work\nTotal: 900.00 ms (45.0% of the function)\nSelf: 900.00 ms (45.0% of the function)\nsrc/work.go:42");
  }
}

static void
test_tooltip_merged (void)
{
  g_autoptr(EmbersProfileBuilder) bld = embers_profile_builder_new ();
  g_autoptr(EmbersProfile) p = NULL;
  g_autoptr(EmbersLayout) layout = NULL;
  g_autofree char *tip = NULL;
  g_autofree char *tip_big = NULL;
  EmbersViewport vp;
  gint64 v = 1000;
  guint32 id;
  int big;

  embers_profile_builder_add_sample_type (bld, "alloc_space", "bytes");
  id = embers_profile_builder_intern (bld, "big", -1);
  embers_profile_builder_add_stack (bld, &id, 1, &v, 0);
  v = 1;
  for (guint i = 0; i < 24; i++)
    {
      char s[8];

      g_snprintf (s, sizeof s, "t%02u", i);
      id = embers_profile_builder_intern (bld, s, -1);
      embers_profile_builder_add_stack (bld, &id, 1, &v, 0);
    }
  p = embers_profile_builder_finish (bld, NULL);

  /* 512 px: big is 500 px, the others half a pixel each */
  embers_viewport_init (&vp, 512);
  layout = embers_layout_new (p, 0, 0, &vp);
  tip = embers_render_rect_tooltip_text (layout, embers_layout_get_rect (layout, embers_layout_hit_test (layout, 510, 30)));
  g_assert_cmpstr (tip, ==, "24 small frames\nTotal: 24 B (2.34% of total)\nZoom in to see them");

  big = embers_layout_hit_test (layout, 10, 30);
  tip_big = embers_render_rect_tooltip_text (layout, embers_layout_get_rect (layout, big));
  g_assert_true (g_str_has_prefix (tip_big, "big\nTotal: 1000 B (97.7% of total)"));
}

/* Export */

static char *
read_head (const char *path,
           gsize       n)
{
  g_autofree char *contents = NULL;
  gsize len = 0;
  GError *error = NULL;

  g_file_get_contents (path, &contents, &len, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (len, >, n);
  return g_strndup (contents, n);
}

static guint32
png_pixel (const char *path,
           int         x,
           int         y)
{
  cairo_surface_t *image = cairo_image_surface_create_from_png (path);
  guint32 pixel;

  g_assert_cmpint (cairo_surface_status (image), ==, CAIRO_STATUS_SUCCESS);
  pixel = *(guint32 *)(gpointer)(cairo_image_surface_get_data (image) +
                                  y * cairo_image_surface_get_stride (image) + x * 4);
  cairo_surface_destroy (image);
  return pixel;
}

/* A free-zoomed view exports exactly the visible part */
static void
test_export_zoomed (void)
{
  g_autoptr(EmbersProfile) p = profile_from_lines ("main;left 50\nmain;right 50\n", "nanoseconds");
  g_autofree char *dir = g_dir_make_tmp ("embers-render-XXXXXX", NULL);
  g_autofree char *full = g_build_filename (dir, "full.png", NULL);
  g_autofree char *zoomed = g_build_filename (dir, "zoomed.png", NULL);
  EmbersExportOptions options;
  GError *error = NULL;
  int row = (int)(EMBERS_LAYOUT_ROW_HEIGHT * 2.5);

  embers_export_options_init (&options);
  options.width = 400;
  g_assert_cmpfloat (options.x_start, ==, 0);
  g_assert_cmpfloat (options.x_end, ==, 1);
  g_assert_true (embers_render_export (p, 0, &options, full, &error));
  g_assert_no_error (error);

  options.x_start = 0.5;
  options.x_end = 1.0;
  g_assert_true (embers_render_export (p, 0, &options, zoomed, &error));
  g_assert_no_error (error);

  /* "left" and "right" differ in colour; zoomed in on the right half,
   * the left edge shows what was on the right */
  g_assert_cmphex (png_pixel (full, 5, row), !=, png_pixel (full, 395, row));
  g_assert_cmphex (png_pixel (zoomed, 5, row), ==, png_pixel (full, 395, row));
  g_assert_cmphex (png_pixel (zoomed, 395, row), ==, png_pixel (full, 395, row));

  g_unlink (full);
  g_unlink (zoomed);
  g_rmdir (dir);
}

static void
test_export (void)
{
  g_autoptr(EmbersProfile) p = profile_from_lines (small, "nanoseconds");
  g_autofree char *dir = g_dir_make_tmp ("embers-render-XXXXXX", NULL);
  g_autofree char *png = g_build_filename (dir, "graph.png", NULL);
  g_autofree char *png_upper = g_build_filename (dir, "GRAPH.PNG", NULL);
  g_autofree char *svg = g_build_filename (dir, "graph.svg", NULL);
  g_autofree char *pdf = g_build_filename (dir, "graph.pdf", NULL);
  g_autofree char *txt = g_build_filename (dir, "graph.txt", NULL);
  g_autofree char *head = NULL;
  g_autofree char *svg_text = NULL;
  EmbersExportOptions options;
  GError *error = NULL;
  cairo_surface_t *image;

  g_assert_nonnull (dir);

  /* PNG: signature and size (1200 px wide by default, 3 rows) */
  g_assert_true (embers_render_export (p, 0, NULL, png, &error));
  g_assert_no_error (error);
  head = read_head (png, 8);
  g_assert_true (memcmp (head, "\x89PNG\r\n\x1a\n", 8) == 0);
  image = cairo_image_surface_create_from_png (png);
  g_assert_cmpint (cairo_surface_status (image), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_width (image), ==, 1200);
  g_assert_cmpint (cairo_image_surface_get_height (image), ==, 66);
  cairo_surface_destroy (image);
  g_clear_pointer (&head, g_free);

  /* Options: width, HiDPI scale, flame direction, search, focus */
  embers_export_options_init (&options);
  options.width = 300;
  options.scale = 2;
  options.direction = EMBERS_LAYOUT_FLAME;
  options.search = "b";
  options.focus = find_path (p, "a");
  g_assert_true (embers_render_export (p, 0, &options, png_upper, &error));
  g_assert_no_error (error);
  image = cairo_image_surface_create_from_png (png_upper);
  g_assert_cmpint (cairo_image_surface_get_width (image), ==, 600);
  g_assert_cmpint (cairo_image_surface_get_height (image), ==, 132);
  cairo_surface_destroy (image);

  /* SVG and PDF */
  g_assert_true (embers_render_export (p, 0, NULL, svg, &error));
  g_assert_no_error (error);
  g_file_get_contents (svg, &svg_text, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (strstr (svg_text, "<svg"));
  g_assert_true (embers_render_export (p, 0, NULL, pdf, &error));
  g_assert_no_error (error);
  head = read_head (pdf, 5);
  g_assert_cmpstr (head, ==, "%PDF-");

  /* Errors: unknown extension, a bad search, a folder that does not exist */
  g_assert_false (embers_render_export (p, 0, NULL, txt, &error));
  g_assert_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_UNSUPPORTED);
  g_clear_error (&error);
  g_assert_false (g_file_test (txt, G_FILE_TEST_EXISTS));

  options.search = "(";
  options.search_flags = EMBERS_SEARCH_REGEX;
  g_assert_false (embers_render_export (p, 0, &options, png, &error));
  g_assert_nonnull (error);
  g_assert_true (error->domain == G_REGEX_ERROR);
  g_clear_error (&error);

  {
    g_autofree char *missing = g_build_filename (dir, "no", "such", "dir", "x.png", NULL);
    g_autofree char *missing_svg = g_build_filename (dir, "no", "such", "dir", "x.svg", NULL);

    /* The reason, not cairo's "error while writing to output stream" */
    g_assert_false (embers_render_export (p, 0, NULL, missing, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
    g_assert_nonnull (strstr (error->message, g_strerror (ENOENT)));
    g_clear_error (&error);
    g_assert_false (embers_render_export (p, 0, NULL, missing_svg, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
    g_clear_error (&error);
  }

  g_unlink (png);
  g_unlink (png_upper);
  g_unlink (svg);
  g_unlink (pdf);
  g_rmdir (dir);
}

static void
test_export_empty (void)
{
  g_autoptr(EmbersProfileBuilder) bld = embers_profile_builder_new ();
  g_autoptr(EmbersProfile) p = embers_profile_builder_finish (bld, NULL);
  g_autofree char *dir = g_dir_make_tmp ("embers-render-XXXXXX", NULL);
  g_autofree char *png = g_build_filename (dir, "empty.png", NULL);
  GError *error = NULL;
  cairo_surface_t *image;

  /* An empty profile exports one background row, not an error */
  g_assert_true (embers_render_export (p, 0, NULL, png, &error));
  g_assert_no_error (error);
  image = cairo_image_surface_create_from_png (png);
  g_assert_cmpint (cairo_image_surface_get_height (image), ==, 22);
  cairo_surface_destroy (image);
  g_unlink (png);
  g_rmdir (dir);
}

/* Pixels of text colour (not the fill) in a box */
static guint
count_ink (Canvas            *c,
           int                x0,
           int                x1,
           int                y0,
           int                y1,
           const EmbersColor *fill)
{
  guint8 fr, fg, fb;
  guint n = 0;

  embers_color_to_rgb8 (fill, &fr, &fg, &fb);
  for (int x = x0; x < x1; x++)
    for (int y = y0; y < y1; y++)
      {
        guint8 r, g, b, a;

        pixel (c, x, y, &r, &g, &b, &a);
        if (abs (r - fr) + abs (g - fg) + abs (b - fb) > 60)
          n++;
      }
  return n;
}

static void
test_diff_paint_labels (void)
{
  /* 200 units over 800 px: a 0..480 (unchanged), slow 480..720 (+100%),
   * main's self (20 in the baseline) after */
  g_autoptr(EmbersProfile) d = diff_from_lines ("main;a 60\nmain;slow 20\nmain 20\n",
                                                "main;a 60\nmain;slow 40\n", "nanoseconds");
  g_autoptr(EmbersLayout) layout = NULL;
  g_autoptr(EmbersRender) render = NULL;
  EmbersViewport vp;
  EmbersColor neutral, red;
  const EmbersRect *ra, *rs;
  Canvas c;

  embers_viewport_init (&vp, 800);
  layout = embers_layout_new (d, 0, 0, &vp);
  render = embers_render_new (layout, NULL, NULL);
  canvas_init (&c, 800, 3 * 22);
  embers_render_paint (render, c.cr);

  ra = embers_layout_get_rect (layout, embers_layout_find_node (layout, find_path (d, "main;a")));
  rs = embers_layout_get_rect (layout, embers_layout_find_node (layout, find_path (d, "main;slow")));
  g_assert_cmpfloat_with_epsilon (ra->width, 480, 1e-9);
  g_assert_cmpfloat_with_epsilon (rs->x, 480, 1e-9);
  g_assert_cmpfloat_with_epsilon (rs->width, 240, 1e-9);

  /* The fills: the slowed frame red, the unchanged one grey, on screen */
  embers_color_init_rgb8 (&neutral, 148, 142, 142);
  embers_color_init_rgb8 (&red, 220, 50, 32);
  assert_pixel (&c, 470, 44 + 2, &neutral);
  assert_pixel (&c, 710, 44 + 2, &red);
  assert_pixel (&c, 10, 2, &neutral);          /* the root */

  /* "slow  +100%" is drawn: ink well right of where "slow" ends (4
   * characters of a 12 px monospace font are about 30 px); "a" has no
   * suffix, so nothing is drawn there */
  g_assert_cmpuint (count_ink (&c, (int)rs->x + 4 + 40, (int)rs->x + 4 + 100, 44 + 3, 44 + 19, &red), >, 20);
  g_assert_cmpuint (count_ink (&c, (int)ra->x + 4 + 40, (int)ra->x + 4 + 100, 44 + 3, 44 + 19, &neutral), ==, 0);
  /* Text stays inside its frame */
  g_assert_cmpuint (count_ink (&c, (int)(rs->x + rs->width) - 3, (int)(rs->x + rs->width) - 1, 44 + 3, 44 + 19, &red), ==, 0);
  canvas_clear (&c);

  /* Search on a diff: matches keep their diff colour, the rest is dimmed */
  {
    g_autoptr(EmbersSearch) search = embers_search_new (d, "slow", EMBERS_SEARCH_DEFAULT, NULL);

    embers_render_set_search (render, search);
    g_assert_true (item_of (render, layout, find_path (d, "main;slow"))->flags & EMBERS_RENDER_ITEM_MATCH);
    assert_fill (render, layout, d, "main;slow", 220, 50, 32);
    g_assert_true (item_of (render, layout, find_path (d, "main;a"))->flags & EMBERS_RENDER_ITEM_DIMMED);
    g_assert_false (memcmp (&item_of (render, layout, find_path (d, "main;a"))->fill, &neutral, sizeof neutral) == 0);
    embers_render_set_search (render, NULL);
  }

  /* Narrow: the name gives way to the change ("s…  +100%"), and when
   * even that does not fit the name alone is drawn */
  {
    g_autoptr(EmbersLayout) narrow = NULL;
    guint32 slow = find_path (d, "main;slow");

    embers_viewport_init (&vp, 400);   /* slow is 120 px */
    narrow = embers_layout_new (d, 0, 0, &vp);
    embers_render_set_layout (render, narrow);
    canvas_init (&c, 400, 3 * 22);
    embers_render_paint (render, c.cr);
    rs = embers_layout_get_rect (narrow, embers_layout_find_node (narrow, slow));
    g_assert_cmpuint (count_ink (&c, (int)rs->x + 4, (int)(rs->x + rs->width) - 4, 44 + 3, 44 + 19, &red), >, 20);
    canvas_clear (&c);
  }
}

static void
find_color_x (Canvas *c,
              int     width,
              int     y,
              guint8  r,
              guint8  g,
              guint8  b,
              int    *first)
{
  *first = -1;
  for (int x = 0; x < width && *first < 0; x++)
    {
      guint8 pr, pg, pb, pa;

      pixel (c, x, y, &pr, &pg, &pb, &pa);
      if (abs (pr - r) <= 3 && abs (pg - g) <= 3 && abs (pb - b) <= 3)
        *first = x;
    }
}

static void
test_diff_legend (void)
{
  g_autoptr(EmbersRender) render = embers_render_new (NULL, NULL, NULL);
  EmbersRenderStyle style;
  double w = 0, h = 0;
  int good, neutral, bad;
  Canvas c;

  embers_render_measure_legend (render, NULL, &w, &h);
  g_assert_cmpfloat (h, ==, EMBERS_RENDER_LEGEND_HEIGHT);
  g_assert_cmpfloat (w, >, 160 + 3 * 30);
  g_assert_cmpfloat (w, <, 800);

  /* Red/blue: blue left, grey in the middle, red right, in order */
  canvas_init (&c, 800, 24);
  cairo_set_source_rgb (c.cr, 1, 1, 1);
  cairo_paint (c.cr);
  embers_render_paint_legend (render, c.cr, 0, 0, 800, 24);
  find_color_x (&c, 800, 12, 26, 133, 255, &good);
  find_color_x (&c, 800, 12, 148, 142, 142, &neutral);
  find_color_x (&c, 800, 12, 220, 50, 32, &bad);
  g_assert_cmpint (good, >, 20);           /* after "shrank" */
  g_assert_cmpint (neutral, >, good);
  g_assert_cmpint (bad, >, neutral);
  g_assert_cmpint (bad - good, >=, 150);
  /* Captions in the foreground colour on either side */
  {
    EmbersColor white = { 1, 1, 1, 1 };

    g_assert_cmpuint (count_ink (&c, 0, good, 4, 20, &white), >, 20);
    g_assert_cmpuint (count_ink (&c, bad + 6, bad + 40, 4, 20, &white), >, 20);
    /* ... and the palette name after "grew" */
    g_assert_cmpuint (count_ink (&c, bad + 60, (int)w, 4, 20, &white), >, 20);
    /* nothing right of the natural width */
    g_assert_cmpuint (count_ink (&c, (int)w + 1, 800, 0, 24, &white), ==, 0);
  }
  canvas_clear (&c);

  /* Red/green */
  embers_render_style_init (&style, FALSE);
  style.diff_palette = EMBERS_DIFF_PALETTE_RED_GREEN;
  embers_render_set_style (render, &style);
  canvas_init (&c, 800, 24);
  embers_render_paint_legend (render, c.cr, 0, 0, 800, 24);
  find_color_x (&c, 800, 12, 0, 170, 0, &good);
  find_color_x (&c, 800, 12, 200, 0, 0, &bad);
  g_assert_cmpint (good, >, 0);
  g_assert_cmpint (bad, >, good);
  find_color_x (&c, 800, 12, 26, 133, 255, &good);
  g_assert_cmpint (good, ==, -1);
  canvas_clear (&c);

  /* Narrow box: the gradient shrinks, the description goes, and nothing
   * is painted outside the box */
  canvas_init (&c, 400, 40);
  embers_render_paint_legend (render, c.cr, 10, 8, 140, 24);
  find_color_x (&c, 400, 20, 200, 0, 0, &bad);
  g_assert_cmpint (bad, >, 10);
  g_assert_cmpint (bad, <, 150);
  {
    guint8 r, g, b, a;

    pixel (&c, 200, 20, &r, &g, &b, &a);
    g_assert_cmpint (a, ==, 0);
    pixel (&c, 60, 4, &r, &g, &b, &a);
    g_assert_cmpint (a, ==, 0);
  }
  /* Empty boxes are fine */
  embers_render_paint_legend (render, c.cr, 0, 0, 0, 24);
  canvas_clear (&c);
}

static EmbersProfile *
cpu_profile (const char *text)
{
  g_autoptr(EmbersProfileBuilder) b = embers_profile_builder_new ();
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  GError *error = NULL;
  EmbersProfile *profile;

  embers_profile_builder_add_sample_type (b, "cpu", "nanoseconds");
  embers_profile_builder_set_period (b, "cpu", "nanoseconds", 10000000);   /* 100 Hz */
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto(GStrv) parts = g_strsplit (lines[i], " ", 2);
      g_auto(GStrv) frames = NULL;
      guint32 ids[16];
      gint64 value;
      guint n;

      if (g_strv_length (parts) < 2)
        continue;
      frames = g_strsplit (parts[0], ";", -1);
      n = g_strv_length (frames);
      for (guint f = 0; f < n; f++)
        ids[f] = embers_profile_builder_intern (b, frames[f], -1);
      if (g_str_equal (frames[n - 1], "work"))
        embers_profile_builder_set_name_location (b, ids[n - 1],
                                                  embers_profile_builder_intern (b, "work.go", -1), 7);
      value = g_ascii_strtoll (parts[1], NULL, 10);
      embers_profile_builder_add_stack (b, ids, n, &value, 0);
    }
  profile = embers_profile_builder_finish (b, &error);
  g_assert_no_error (error);
  return profile;
}

static void
test_diff_tooltip (void)
{
  /* CPU at 100 Hz: work 200 ms (20 samples) -> 400 ms (40 samples) */
  g_autoptr(EmbersProfile) base = cpu_profile ("main;work 200000000\nmain;gone 100000000\nmain 700000000\n");
  g_autoptr(EmbersProfile) comp = cpu_profile ("main;work 400000000\nmain;fresh 50000000\nmain 750000000\n");
  g_autoptr(EmbersProfile) d = NULL;
  g_auto(GStrv) cells = NULL;
  g_autofree char *tip = NULL;
  g_autofree char *tip_new = NULL;
  g_autofree char *tip_gone = NULL;
  g_autofree char *a11y = NULL;
  guint n_rows = 0;
  GError *error = NULL;

  d = embers_diff_profiles (base, 0, comp, 0, &error);
  g_assert_no_error (error);

  /* Shares: work 20% -> 33.3% (+66.7%) */
  cells = embers_render_diff_tooltip_cells (d, find_path (d, "main;work"), &n_rows);
  g_assert_cmpuint (n_rows, ==, 4);
  g_assert_cmpuint (g_strv_length (cells), ==, 16);
  {
    const char *expected[] = {
      "", "Baseline", "Comparison", "Diff",
      "% of total", "20.0%", "33.3%", "+66.7%",
      "Value", "200.00 ms", "400.00 ms", "+200.00 ms (+100.0%)",
      "Samples", "20", "40", "+20",
    };

    for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
      g_assert_cmpstr (cells[i], ==, expected[i]);
  }

  /* Sample type and focus do not matter; columns line up. (The location
   * would come last, but embers_diff_profiles() keeps no locations.) */
  tip = embers_render_tooltip_text (d, EMBERS_DIFF_COMPARISON, find_path (d, "main;work"), find_path (d, "main"));
  g_assert_cmpstr (tip, ==,
                   "work\n"
                   "            Baseline   Comparison  Diff\n"
                   "% of total  20.0%      33.3%       +66.7%\n"
                   "Value       200.00 ms  400.00 ms   +200.00 ms (+100.0%)\n"
                   "Samples     20         40          +20");

  /* New and removed say so; the value difference has no percentage */
  tip_new = embers_render_tooltip_text (d, 0, find_path (d, "main;fresh"), 0);
  g_assert_cmpstr (tip_new, ==,
                   "fresh\n"
                   "            Baseline  Comparison  Diff\n"
                   "% of total  0.00%     4.17%       new\n"
                   "Value       0 ns      50.00 ms    +50.00 ms\n"
                   "Samples     0         5           +5");
  tip_gone = embers_render_tooltip_text (d, 0, find_path (d, "main;gone"), 0);
  g_assert_cmpstr (tip_gone, ==,
                   "gone\n"
                   "            Baseline   Comparison  Diff\n"
                   "% of total  10.0%      0.00%       removed\n"
                   "Value       100.00 ms  0 ns        \xe2\x88\x92" "100.00 ms\n"
                   "Samples     10         0           \xe2\x88\x92" "10");

  a11y = embers_render_accessible_text (d, 1, find_path (d, "main;work"));
  g_assert_cmpstr (a11y, ==, "work, change +66.7%, baseline 200.00 ms (20.0% of total), "
                             "comparison 400.00 ms (33.3% of total)");

  /* Counts have no samples row */
  {
    g_autoptr(EmbersProfile) counts = diff_from_lines ("a 5\nb 5\n", "a 5\nb 15\n", "count");
    g_auto(GStrv) count_cells = embers_render_diff_tooltip_cells (counts, find_path (counts, "b"), &n_rows);

    g_assert_cmpuint (n_rows, ==, 3);
    g_assert_cmpstr (count_cells[8], ==, "Value");
    g_assert_cmpstr (count_cells[11], ==, "+10 (+200.0%)");
    g_assert_cmpstr (count_cells[7], ==, "+50.0%");
  }
}

static void
test_diff_tooltip_merged (void)
{
  /* big on both sides; 24 tiny frames, baseline and comparison in turn */
  g_autoptr(GString) base = g_string_new ("big 1000\n");
  g_autoptr(GString) comp = g_string_new ("big 1000\n");
  g_autoptr(EmbersProfile) d = NULL;
  g_autoptr(EmbersLayout) layout = NULL;
  g_autofree char *tip = NULL;
  EmbersViewport vp;

  for (guint i = 0; i < 24; i++)
    g_string_append_printf (i < 16 ? base : comp, "t%02u 1\n", i);
  d = diff_from_lines (base->str, comp->str, "bytes");

  /* 2024 units over 1012 px: the tiny frames are half a pixel each */
  embers_viewport_init (&vp, 1012);
  layout = embers_layout_new (d, 0, 0, &vp);
  tip = embers_render_rect_tooltip_text (layout, embers_layout_get_rect (layout, embers_layout_hit_test (layout, 1008, 30)));
  g_assert_cmpstr (tip, ==,
                   "24 small frames\n"
                   "            Baseline  Comparison  Diff\n"
                   "% of total  1.57%     0.79%       \xe2\x88\x92" "49.6%\n"
                   "Value       16 B      8 B         \xe2\x88\x92" "8 B (\xe2\x88\x92" "50.0%)\n"
                   "Zoom in to see them");
}

static void
test_diff_export (void)
{
  g_autoptr(EmbersProfile) d = diff_from_lines (slower_base, slower_comp, "nanoseconds");
  g_autofree char *dir = g_dir_make_tmp ("embers-render-XXXXXX", NULL);
  g_autofree char *png = g_build_filename (dir, "diff.png", NULL);
  g_autofree char *svg = g_build_filename (dir, "diff.svg", NULL);
  g_autofree char *pdf = g_build_filename (dir, "diff.pdf", NULL);
  g_autofree char *svg_text = NULL;
  g_autofree char *head = NULL;
  EmbersExportOptions options;
  cairo_surface_t *image;
  GError *error = NULL;
  Canvas c;
  int good, bad;

  /* PNG as the CLI writes it (`embers --diff BASE COMP --export x.png`):
   * the legend strip on top, then the graph drawn on both sides' widths */
  g_assert_true (embers_render_export (d, EMBERS_DIFF_COMPARISON, NULL, png, &error));
  g_assert_no_error (error);
  image = cairo_image_surface_create_from_png (png);
  g_assert_cmpint (cairo_surface_status (image), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_width (image), ==, 1200);
  g_assert_cmpint (cairo_image_surface_get_height (image), ==, 24 + 3 * 22);
  c.surface = image;
  c.cr = cairo_create (image);
  {
    /* Root 220 (100 + 120) over 1200 px: a 0..654.5, slow 654.5..981.8 */
    EmbersColor bluish, neutral, white = { 1, 1, 1, 1 };
    guint8 r, g, b, a;

    embers_color_init_rgb8 (&bluish, 128, 141, 161);
    embers_color_init_rgb8 (&neutral, 148, 142, 142);
    assert_pixel (&c, 600, 24 + 1 * 22 + 2, &neutral);   /* main: 100% of both */
    assert_pixel (&c, 1190, 24 + 2, &neutral);          /* the root */
    assert_pixel (&c, 600, 24 + 2 * 22 + 2, &bluish);    /* a: 60% -> 50% of total */
    pixel (&c, 950, 24 + 2 * 22 + 2, &r, &g, &b, &a);  /* slow: 20% -> 33% of total, red */
    g_assert_cmpint (r, >, g + 80);
    g_assert_cmpint (r, >, b + 80);
    assert_pixel (&c, 1190, 2, &white);                 /* legend row: background */
    find_color_x (&c, 1200, 12, 26, 133, 255, &good);
    find_color_x (&c, 1200, 12, 220, 50, 32, &bad);
    g_assert_cmpint (good, >, 0);
    g_assert_cmpint (bad, >, good);
  }
  canvas_clear (&c);

  /* Comparison widths and absolute colours: the unchanged a is exactly
   * grey, the slowed frame exactly red */
  embers_export_options_init (&options);
  g_assert_cmpint (options.diff_width, ==, EMBERS_DIFF_WIDTH_SUM);
  options.diff_width = EMBERS_DIFF_WIDTH_COMPARISON;
  options.style.diff_mode = EMBERS_DIFF_MODE_ABSOLUTE;
  options.width = 120;
  g_assert_true (embers_render_export (d, EMBERS_DIFF_BASELINE, &options, png, &error));
  g_assert_no_error (error);
  image = cairo_image_surface_create_from_png (png);
  c.surface = image;
  c.cr = cairo_create (image);
  {
    /* 120 units over 120 px: a 0..60, slow 60..100 */
    EmbersColor red, neutral;

    embers_color_init_rgb8 (&red, 220, 50, 32);
    embers_color_init_rgb8 (&neutral, 148, 142, 142);
    assert_pixel (&c, 56, 24 + 44 + 20, &neutral);
    assert_pixel (&c, 96, 24 + 44 + 20, &red);
  }
  canvas_clear (&c);

  /* SVG: the legend as text too */
  g_assert_true (embers_render_export (d, EMBERS_DIFF_COMPARISON, NULL, svg, &error));
  g_assert_no_error (error);
  g_file_get_contents (svg, &svg_text, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_str_has_prefix (svg_text, "<?xml"));
  g_assert_nonnull (strstr (svg_text, "<title>Diff flame graph</title>"));
  g_assert_nonnull (strstr (svg_text, "<desc>"));
  g_assert_nonnull (strstr (svg_text, "red/blue · change of share of total"));
  g_assert_nonnull (strstr (svg_text, "shrank"));
  g_assert_nonnull (strstr (svg_text, "grew"));
  g_assert_nonnull (strstr (svg_text, "blue: shrank, gray: unchanged, red: grew"));
  g_assert_nonnull (strstr (svg_text, "Bar widths: baseline + comparison"));
  g_assert_nonnull (strstr (svg_text, "</svg>"));
  /* The fills are there: the root's grey (148,142,142), slow's red
   * (196,81,69) for +66.7%, and the legend's gradient stops, blue
   * (26,133,255) and red (220,50,32) */
  g_assert_nonnull (strstr (svg_text, "fill=\"#948e8e\""));
  g_assert_nonnull (strstr (svg_text, "fill=\"#c45145\""));
  g_assert_nonnull (strstr (svg_text, "<linearGradient"));
  g_assert_nonnull (strstr (svg_text, "stop-color=\"#1a85ff\""));
  g_assert_nonnull (strstr (svg_text, "stop-color=\"#dc3220\""));
  /* Names as text, the change after them */
  g_assert_nonnull (strstr (svg_text, ">slow<tspan class=\"c\">  +67%</tspan></text>"));
  g_clear_pointer (&svg_text, g_free);

  /* Red/green, absolute: named as such */
  embers_export_options_init (&options);
  options.style.diff_palette = EMBERS_DIFF_PALETTE_RED_GREEN;
  options.style.diff_mode = EMBERS_DIFF_MODE_ABSOLUTE;
  g_assert_true (embers_render_export (d, 0, &options, svg, &error));
  g_assert_no_error (error);
  g_file_get_contents (svg, &svg_text, NULL, &error);
  g_assert_nonnull (strstr (svg_text, "red/green · change of absolute value"));
  g_assert_nonnull (strstr (svg_text, "green: shrank"));
  /* slow +100%: rgb(200,0,0) */
  g_assert_nonnull (strstr (svg_text, "fill=\"#c80000\""));

  /* PDF */
  g_assert_true (embers_render_export (d, 0, NULL, pdf, &error));
  g_assert_no_error (error);
  head = read_head (pdf, 5);
  g_assert_cmpstr (head, ==, "%PDF-");

  /* The data export (`--export x.json`): Pyroscope's diff JSON, read back
   * as the same diff */
  {
    g_autoptr(GBytes) json = embers_profile_save_bytes (d, EMBERS_FORMAT_FLAMEBEARER, EMBERS_DIFF_COMPARISON,
                                                        FALSE, &error);
    g_autoptr(EmbersProfile) back = NULL;

    g_assert_no_error (error);
    g_assert_nonnull (g_strstr_len (g_bytes_get_data (json, NULL), g_bytes_get_size (json), "\"numTicks\":220"));
    back = embers_profile_load_bytes (json, NULL, &error);
    g_assert_no_error (error);
    g_assert_true (embers_profile_is_diff (back));
    g_assert_cmpuint (embers_profile_get_n_nodes (back), ==, embers_profile_get_n_nodes (d));
    for (guint t = 0; t < 2; t++)
      for (guint32 i = 0; i < embers_profile_get_n_nodes (d); i++)
        {
          g_autofree char *stack = embers_profile_node_stack (d, i, ";");
          g_autofree char *back_stack = embers_profile_node_stack (back, i, ";");

          g_assert_cmpstr (stack, ==, back_stack);
          g_assert_cmpint (embers_profile_node_total (back, t, i), ==, embers_profile_node_total (d, t, i));
          g_assert_cmpint (embers_profile_node_self (back, t, i), ==, embers_profile_node_self (d, t, i));
        }
  }

  /* A folder that does not exist */
  {
    g_autofree char *missing = g_build_filename (dir, "no", "such", "x.svg", NULL);

    g_assert_false (embers_render_export (d, 0, NULL, missing, &error));
    g_assert_true (error != NULL && error->domain == G_IO_ERROR);
    g_clear_error (&error);
  }

  g_unlink (png);
  g_unlink (svg);
  g_unlink (pdf);
  g_rmdir (dir);
}

/* LeakSanitizer reads this hook when the test is built with ASan: the
 * fontconfig configuration that Pango loads lives as long as the process
 * (only FcFini, which we do not link, would free it). Everything of ours
 * is still checked. */
const char *__lsan_default_suppressions (void);

const char *
__lsan_default_suppressions (void)
{
  return "leak:libfontconfig.so\n";
}

static void
count_element (GMarkupParseContext  *context,
               const char           *element,
               const char          **names,
               const char          **values,
               gpointer              user_data,
               GError              **error)
{
  guint *counts = user_data;

  counts[0]++;
  if (g_str_equal (element, "script"))
    counts[1]++;
}

/* The SVG we write: well-formed, a <g> per rect of the layout (merged
 * blocks stay merged: the size follows the visible frames, not the
 * profile), names as escaped text */
static void
test_svg (void)
{
  g_autofree char *dir = g_dir_make_tmp ("embers-svg-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "graph.svg", NULL);
  gsize sizes[2] = { 0, };
  guint leaves[2] = { 2000, 200000 };
  GError *error = NULL;

  for (guint k = 0; k < G_N_ELEMENTS (leaves); k++)
    {
      g_autoptr(GString) lines = g_string_new ("main;hot 1000000\nmain;<script>&x\x01\xe2\x80\xae 300000\n");
      g_autoptr(EmbersProfile) p = NULL;
      g_autoptr(EmbersLayout) layout = NULL;
      g_autofree char *svg = NULL;
      EmbersViewport vp;
      const char *at;
      guint groups = 0;
      guint counts[2] = { 0, 0 };
      GMarkupParser parser = { .start_element = count_element };
      g_autoptr(GMarkupParseContext) context = NULL;

      for (guint i = 0; i < leaves[k]; i++)
        g_string_append_printf (lines, "main;tiny%06u 1\n", i);
      p = profile_from_lines (lines->str, "nanoseconds");

      g_assert_true (embers_render_export (p, 0, NULL, path, &error));
      g_assert_no_error (error);
      g_assert_true (g_file_get_contents (path, &svg, &sizes[k], NULL));

      embers_viewport_init (&vp, 1200);
      layout = embers_layout_new (p, 0, 0, &vp);
      for (at = svg; (at = strstr (at, "<g class=\"f")) != NULL; at++)
        groups++;
      g_assert_cmpuint (groups, ==, embers_layout_get_n_rects (layout));
      g_assert_cmpuint (groups, <, 20);
      g_test_message ("%u frames: %u rects, %" G_GSIZE_FORMAT " bytes", leaves[k] + 3, groups, sizes[k]);

      /* XML that parses; one script, ours */
      context = g_markup_parse_context_new (&parser, 0, counts, NULL);
      g_assert_true (g_markup_parse_context_parse (context, svg, -1, &error));
      g_assert_true (g_markup_parse_context_end_parse (context, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (counts[1], ==, 1);

      /* The hostile name as text: markup escaped, the control and the
       * reordering character shown as --top shows them */
      g_assert_nonnull (strstr (svg, ">&lt;script&gt;&amp;x\\x01\\u202e</text>"));
      g_assert_null (strstr (svg, "\x01"));
      g_assert_null (strstr (svg, "\xe2\x80\xae"));
      /* Generic fonts, frames with titles, the label clipped by a nested svg */
      g_assert_nonnull (strstr (svg, "font-family=\"monospace\""));
      g_assert_nonnull (strstr (svg, "<title>hot\nTotal: 1.00 ms ("));
      g_assert_nonnull (strstr (svg, "<svg x=\"0\" y=\"22\" width=\""));
      g_assert_nonnull (strstr (svg, "small frames"));
    }

  /* A hundred times the frames, about the same file */
  g_assert_cmpuint (sizes[1], <, sizes[0] * 2);
  g_unlink (path);
  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  int ret;

  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/embers/render/palette-diff", test_palette_diff);
  g_test_add_func ("/embers/render/palette-package", test_palette_package);
  g_test_add_func ("/embers/render/palette-hash-and-colors", test_palette_hash_and_colors);
  g_test_add_func ("/embers/render/paint-pixels", test_paint_pixels);
  g_test_add_func ("/embers/render/paint-clip", test_paint_clip);
  g_test_add_func ("/embers/render/paint-search", test_paint_search);
  g_test_add_func ("/embers/render/paint-search-high-contrast", test_paint_search_high_contrast);
  g_test_add_func ("/embers/render/paint-search-sliver", test_paint_search_sliver);
  g_test_add_func ("/embers/render/paint-focus-and-highlight", test_paint_focus_and_highlight);
  g_test_add_func ("/embers/render/paint-diff", test_paint_diff);
  g_test_add_func ("/embers/render/paint-noise", test_paint_noise);
  g_test_add_func ("/embers/render/diff-colors", test_diff_colors);
  g_test_add_func ("/embers/render/diff-new-removed-clamp", test_diff_new_removed_clamp);
  g_test_add_func ("/embers/render/label-ellipsis", test_label_ellipsis);
  g_test_add_func ("/embers/render/tooltip", test_tooltip);
  g_test_add_func ("/embers/render/tooltip-merged", test_tooltip_merged);
  g_test_add_func ("/embers/render/export", test_export);
  g_test_add_func ("/embers/render/export-zoomed", test_export_zoomed);
  g_test_add_func ("/embers/render/export-empty", test_export_empty);
  g_test_add_func ("/embers/render/diff-paint-labels", test_diff_paint_labels);
  g_test_add_func ("/embers/render/diff-legend", test_diff_legend);
  g_test_add_func ("/embers/render/diff-tooltip", test_diff_tooltip);
  g_test_add_func ("/embers/render/diff-tooltip-merged", test_diff_tooltip_merged);
  g_test_add_func ("/embers/render/diff-export", test_diff_export);
  g_test_add_func ("/embers/render/svg", test_svg);

  ret = g_test_run ();

  /* Drop the process-wide font map and cairo's caches so leak checkers
   * see only what we allocated */
  pango_cairo_font_map_set_default (NULL);
  cairo_debug_reset_static_data ();

  return ret;
}
