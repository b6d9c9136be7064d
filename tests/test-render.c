/* test-render.c: palette, display list, cairo painting (checked pixel by
 * pixel), tooltips, PNG/SVG/PDF export
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gstdio.h>
#include <gio/gio.h>
#include <pango/pangocairo.h>

#include "embers-diff.h"
#include "embers-profile-builder.h"
#include "embers-render.h"

static EmbersProfile *
profile_from_lines (const char *text,
                    const char *unit)
{
  g_autoptr(EmbersProfileBuilder) b = embers_profile_builder_new ();
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  GError *error = NULL;
  EmbersProfile *profile;

  embers_profile_builder_add_sample_type (b, "cpu", unit);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *space = strrchr (lines[i], ' ');
      g_auto(GStrv) frames = NULL;
      guint32 ids[64];
      gint64 value;
      guint n;

      if (space == NULL)
        continue;
      {
        g_autofree char *stack = g_strndup (lines[i], space - lines[i]);

        frames = g_strsplit (stack, ";", -1);
      }
      n = g_strv_length (frames);
      for (guint f = 0; f < n; f++)
        ids[f] = embers_profile_builder_intern (b, frames[f], -1);
      value = g_ascii_strtoll (space + 1, NULL, 10);
      embers_profile_builder_add_stack (b, ids, n, &value, 0);
    }

  profile = embers_profile_builder_finish (b, &error);
  g_assert_no_error (error);
  return profile;
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
  g_assert_cmpstr (tip, ==, "a\nBaseline: 50 ns (50.0%)\nComparison: 75 ns (75.0%)\nChange: +50.0%");
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

    g_assert_false (embers_render_export (p, 0, NULL, missing, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_FAILED);
    g_clear_error (&error);
    g_assert_false (embers_render_export (p, 0, NULL, missing_svg, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_FAILED);
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
  g_test_add_func ("/embers/render/paint-focus-and-highlight", test_paint_focus_and_highlight);
  g_test_add_func ("/embers/render/paint-diff", test_paint_diff);
  g_test_add_func ("/embers/render/label-ellipsis", test_label_ellipsis);
  g_test_add_func ("/embers/render/tooltip", test_tooltip);
  g_test_add_func ("/embers/render/tooltip-merged", test_tooltip_merged);
  g_test_add_func ("/embers/render/export", test_export);
  g_test_add_func ("/embers/render/export-empty", test_export_empty);

  ret = g_test_run ();

  /* Drop the process-wide font map and cairo's caches so leak checkers
   * see only what we allocated */
  pango_cairo_font_map_set_default (NULL);
  cairo_debug_reset_static_data ();

  return ret;
}
