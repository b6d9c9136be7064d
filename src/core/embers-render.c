/* embers-render.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n.h>
#include <gio/gio.h>
#include <pango/pangocairo.h>
#include <cairo-pdf.h>
#include <cairo-svg.h>

#include "embers-diff.h"
#include "embers-render.h"
#include "embers-units.h"

#define ELLIPSIS "\xe2\x80\xa6"   /* U+2026 */
#define PNG_MAX_SIZE 32767

struct _EmbersRender
{
  gatomicrefcount    ref_count;
  EmbersLayout      *layout;
  EmbersSearch      *search;
  EmbersRenderStyle  style;
  char              *font;          /* owned copy of style.font */

  GArray            *items;         /* EmbersRenderItem */
  gboolean           items_valid;

  /* Per-name caches, for the profile they were built for */
  EmbersProfile     *cache_profile; /* not a reference; compared only */
  guint              cache_n_strings;
  guint8            *package_index; /* 0xff unknown */
  float             *text_width;    /* px, < 0 unknown */
  guint32           *text_chars;    /* UTF-8 characters in the name */

  GHashTable        *groups;        /* colour key -> Group, reused per paint */

  PangoContext      *pango_context;
  PangoLayout       *pango_layout;
  double             text_height;
  double             ellipsis_width;
};

G_DEFINE_BOXED_TYPE (EmbersRender, embers_render, embers_render_ref, embers_render_unref)

void
embers_render_style_init (EmbersRenderStyle *style,
                          gboolean           dark)
{
  g_return_if_fail (style != NULL);

  memset (style, 0, sizeof *style);
  style->scheme = EMBERS_COLOR_SCHEME_PACKAGE;
  style->diff_palette = EMBERS_DIFF_PALETTE_RED_BLUE;
  style->dark = dark;
  if (dark)
    {
      embers_color_init_rgb8 (&style->background, 0x24, 0x24, 0x24);
      embers_color_init_rgb8 (&style->foreground, 0xff, 0xff, 0xff);
      embers_color_init_rgb8 (&style->accent, 0x78, 0xae, 0xed);
    }
  else
    {
      embers_color_init_rgb8 (&style->background, 0xff, 0xff, 0xff);
      embers_color_init_rgb8 (&style->foreground, 0x24, 0x24, 0x24);
      embers_color_init_rgb8 (&style->accent, 0x35, 0x84, 0xe4);
    }
  style->font = NULL;
  style->font_size = 12.0;
  style->label_min_width = 20.0;
  style->text_padding = 4.0;
  style->border = 0.5;
}

static void
clear_name_caches (EmbersRender *self)
{
  g_clear_pointer (&self->package_index, g_free);
  g_clear_pointer (&self->text_width, g_free);
  g_clear_pointer (&self->text_chars, g_free);
  self->cache_profile = NULL;
  self->cache_n_strings = 0;
}

static void
clear_text_widths (EmbersRender *self)
{
  if (self->text_width != NULL)
    for (guint i = 0; i < self->cache_n_strings; i++)
      self->text_width[i] = -1.f;
}

static void
ensure_name_caches (EmbersRender  *self,
                    EmbersProfile *profile)
{
  guint n;

  if (self->cache_profile == profile && self->package_index != NULL)
    return;

  clear_name_caches (self);
  n = MAX (embers_profile_get_n_strings (profile), 1);
  self->cache_profile = profile;
  self->cache_n_strings = n;
  self->package_index = g_malloc (n);
  memset (self->package_index, 0xff, n);
  self->text_width = g_new (float, n);
  self->text_chars = g_new0 (guint32, n);
  clear_text_widths (self);
}

EmbersRender *
embers_render_new (EmbersLayout            *layout,
                   EmbersSearch            *search,
                   const EmbersRenderStyle *style)
{
  EmbersRender *self = g_new0 (EmbersRender, 1);

  g_atomic_ref_count_init (&self->ref_count);
  self->items = g_array_new (FALSE, FALSE, sizeof (EmbersRenderItem));
  if (style != NULL)
    embers_render_set_style (self, style);
  else
    {
      EmbersRenderStyle defaults;

      embers_render_style_init (&defaults, FALSE);
      embers_render_set_style (self, &defaults);
    }
  embers_render_set_layout (self, layout);
  embers_render_set_search (self, search);

  return self;
}

EmbersRender *
embers_render_ref (EmbersRender *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
embers_render_unref (EmbersRender *self)
{
  g_return_if_fail (self != NULL);

  if (g_atomic_ref_count_dec (&self->ref_count))
    {
      g_clear_pointer (&self->layout, embers_layout_unref);
      g_clear_pointer (&self->search, embers_search_unref);
      g_clear_pointer (&self->items, g_array_unref);
      g_clear_pointer (&self->groups, g_hash_table_unref);
      g_clear_object (&self->pango_layout);
      g_clear_object (&self->pango_context);
      clear_name_caches (self);
      g_free (self->font);
      g_free (self);
    }
}

void
embers_render_set_layout (EmbersRender *self,
                          EmbersLayout *layout)
{
  g_return_if_fail (self != NULL);

  if (layout == self->layout)
    return;
  if (layout != NULL)
    embers_layout_ref (layout);
  g_clear_pointer (&self->layout, embers_layout_unref);
  self->layout = layout;
  self->items_valid = FALSE;
}

EmbersLayout *
embers_render_get_layout (EmbersRender *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->layout;
}

void
embers_render_set_search (EmbersRender *self,
                          EmbersSearch *search)
{
  g_return_if_fail (self != NULL);

  if (search == self->search)
    return;
  if (search != NULL)
    embers_search_ref (search);
  g_clear_pointer (&self->search, embers_search_unref);
  self->search = search;
  self->items_valid = FALSE;
}

EmbersSearch *
embers_render_get_search (EmbersRender *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->search;
}

void
embers_render_set_style (EmbersRender            *self,
                         const EmbersRenderStyle *style)
{
  gboolean font_changed;

  g_return_if_fail (self != NULL);
  g_return_if_fail (style != NULL);

  font_changed = g_strcmp0 (style->font, self->font) != 0 ||
                 style->font_size != self->style.font_size;

  self->style = *style;
  if (font_changed)
    {
      g_free (self->font);
      self->font = g_strdup (style->font);
      g_clear_object (&self->pango_layout);
      clear_text_widths (self);
    }
  self->style.font = self->font;
  if (!(self->style.font_size > 0))
    self->style.font_size = 12.0;
  self->items_valid = FALSE;
}

const EmbersRenderStyle *
embers_render_get_style (EmbersRender *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return &self->style;
}

/* Display list */

static void
base_color (EmbersRender     *self,
            EmbersProfile    *profile,
            const EmbersRect *rect,
            EmbersColor      *color)
{
  const EmbersRenderStyle *style = &self->style;

  if (rect->flags & EMBERS_RECT_MERGED)
    {
      /* Muted: the theme's foreground faintly over its background */
      *color = style->background;
      color->alpha = 1.f;
      embers_color_mix (color, &style->foreground, 0.22);
      color->alpha = 1.f;
      return;
    }

  if (embers_profile_is_diff (profile) && embers_profile_get_n_sample_types (profile) >= 2)
    {
      gint64 lt = embers_profile_get_total (profile, EMBERS_DIFF_BASELINE);
      gint64 rt = embers_profile_get_total (profile, EMBERS_DIFF_COMPARISON);
      double l = lt > 0 ? (double)embers_profile_node_total (profile, EMBERS_DIFF_BASELINE, rect->node) / (double)lt : 0.0;
      double r = rt > 0 ? (double)embers_profile_node_total (profile, EMBERS_DIFF_COMPARISON, rect->node) / (double)rt : 0.0;

      if (lt <= 0 || rt <= 0)
        embers_palette_diff_stop (style->diff_palette, 1, color);
      else
        embers_palette_diff_color (l, r, style->diff_palette, color);
      return;
    }

  switch (style->scheme)
    {
    case EMBERS_COLOR_SCHEME_VALUE:
      {
        gint64 focus_total = embers_layout_get_focus_total (self->layout);
        gint64 t = embers_profile_node_total (profile, embers_layout_get_sample_type (self->layout), rect->node);

        embers_palette_value_color (focus_total > 0 ? (double)t / (double)focus_total : 0.0, color);
      }
      break;

    case EMBERS_COLOR_SCHEME_PLAIN:
      embers_color_init_rgb8 (color, 240, 150, 60);
      if (!style->dark)
        embers_color_lighten (color, 15);
      break;

    case EMBERS_COLOR_SCHEME_PACKAGE:
    default:
      {
        guint32 name = embers_profile_node_name (profile, rect->node);
        guint8 index = self->package_index[name];

        if (index == 0xff)
          {
            const char *package;
            gsize len;

            package = embers_palette_package (embers_profile_get_string (profile, name), &len);
            index = embers_palette_hash (package, len) % EMBERS_PALETTE_N_COLORS;
            self->package_index[name] = index;
          }
        embers_palette_get_color (index, color);
        if (!style->dark)
          embers_color_lighten (color, 15);
      }
      break;
    }
}

static void
ensure_items (EmbersRender *self)
{
  EmbersProfile *profile;
  const EmbersRect *rects;
  guint n_rects;
  gboolean searching;
  EmbersColor bg;

  if (self->items_valid)
    return;

  g_array_set_size (self->items, 0);
  self->items_valid = TRUE;
  if (self->layout == NULL)
    return;

  profile = embers_layout_get_profile (self->layout);
  ensure_name_caches (self, profile);
  rects = embers_layout_get_rects (self->layout, &n_rects);
  searching = self->search != NULL && embers_search_is_active (self->search) &&
              embers_search_get_profile (self->search) == profile;
  bg = self->style.background;
  bg.alpha = 1.f;

  g_array_set_size (self->items, n_rects);
  for (guint i = 0; i < n_rects; i++)
    {
      const EmbersRect *r = &rects[i];
      EmbersRenderItem *item = &g_array_index (self->items, EmbersRenderItem, i);

      item->rect = i;
      item->flags = EMBERS_RENDER_ITEM_NONE;
      base_color (self, profile, r, &item->fill);

      if (r->flags & EMBERS_RECT_ANCESTOR)
        embers_color_mix (&item->fill, &bg, 0.45);

      if (searching)
        {
          if (embers_search_range_has_match (self->search, r->node,
                                             (r->flags & EMBERS_RECT_MERGED) ? r->node_end : r->node + 1))
            item->flags |= EMBERS_RENDER_ITEM_MATCH;
          else
            {
              /* Dim: greyed and faded toward the background */
              float grey = (float)(0.299 * item->fill.red + 0.587 * item->fill.green + 0.114 * item->fill.blue);
              EmbersColor g = { grey, grey, grey, 1.f };

              embers_color_mix (&item->fill, &g, 0.7);
              embers_color_mix (&item->fill, &bg, 0.6);
              item->flags |= EMBERS_RENDER_ITEM_DIMMED;
            }
        }

      if (!(r->flags & EMBERS_RECT_MERGED) && r->width >= self->style.label_min_width)
        item->flags |= EMBERS_RENDER_ITEM_LABEL;
      if (r->width >= 3.0 * self->style.border && self->style.border > 0)
        item->flags |= EMBERS_RENDER_ITEM_BORDER;

      embers_color_contrast_text (&item->fill, &item->text);
      if (item->flags & EMBERS_RENDER_ITEM_DIMMED)
        item->text.alpha = 0.6f;
    }
}

const EmbersRenderItem *
embers_render_get_items (EmbersRender *self,
                         guint        *n_items)
{
  g_return_val_if_fail (self != NULL, NULL);

  ensure_items (self);
  if (n_items)
    *n_items = self->items->len;
  return (const EmbersRenderItem *)(gpointer)self->items->data;
}

/* Text */

static void
ensure_pango (EmbersRender *self,
              cairo_t      *cr)
{
  if (self->pango_context == NULL)
    {
      PangoFontMap *map = pango_cairo_font_map_get_default ();

      self->pango_context = pango_font_map_create_context (map);
    }

  pango_cairo_update_context (cr, self->pango_context);

  if (self->pango_layout == NULL)
    {
      PangoFontDescription *desc;
      int w, h;

      desc = pango_font_description_from_string (self->font != NULL ? self->font : "Monospace");
      if (pango_font_description_get_size (desc) == 0)
        pango_font_description_set_absolute_size (desc, self->style.font_size * PANGO_SCALE);

      self->pango_layout = pango_layout_new (self->pango_context);
      pango_layout_set_font_description (self->pango_layout, desc);
      pango_layout_set_single_paragraph_mode (self->pango_layout, TRUE);
      pango_font_description_free (desc);

      pango_layout_set_text (self->pango_layout, ELLIPSIS, -1);
      pango_layout_get_pixel_size (self->pango_layout, &w, &h);
      self->ellipsis_width = w;
      self->text_height = h;
      clear_text_widths (self);
    }
  else
    {
      pango_layout_context_changed (self->pango_layout);
    }
}

static double
measure (EmbersRender *self,
         const char   *text,
         int           len)
{
  int w, h;

  pango_layout_set_text (self->pango_layout, text, len);
  pango_layout_get_pixel_size (self->pango_layout, &w, &h);
  return w;
}

/* Sets the layout's text to the name, ellipsized to fit avail px.
 * Returns FALSE when not even one character and the ellipsis fit. */
static gboolean
set_label (EmbersRender  *self,
           EmbersProfile *profile,
           guint32        name_id,
           double         avail)
{
  const char *name = embers_profile_get_string (profile, name_id);
  float full = self->text_width[name_id];
  guint32 n_chars;
  double per_char;
  glong keep;
  GString *s;
  gboolean ok = FALSE;

  if (full < 0)
    {
      if (!g_utf8_validate (name, -1, NULL))
        {
          g_autofree char *valid = g_utf8_make_valid (name, -1);

          /* Invalid names are rare: measure a valid copy, cache nothing */
          full = (float)measure (self, valid, -1);
          if (full <= avail)
            return TRUE;
          name = NULL;
          full = -1;
        }
      else
        {
          full = (float)measure (self, name, -1);
          self->text_width[name_id] = full;
          self->text_chars[name_id] = (guint32)g_utf8_strlen (name, -1);
          if (full <= avail)
            return TRUE;
        }
    }
  else if (full <= avail)
    {
      pango_layout_set_text (self->pango_layout, name, -1);
      return TRUE;
    }

  if (name == NULL || avail < self->ellipsis_width + 1)
    return FALSE;

  /* Too wide: keep as many characters as the average width allows, then
   * shrink until it fits (exact at once for monospace fonts) */
  n_chars = MAX (self->text_chars[name_id], 1);
  per_char = full / n_chars;
  keep = (glong)floor ((avail - self->ellipsis_width) / MAX (per_char, 0.5));
  keep = MIN (keep, (glong)n_chars - 1);

  s = g_string_new (NULL);
  while (keep > 0)
    {
      const char *end = g_utf8_offset_to_pointer (name, keep);

      g_string_truncate (s, 0);
      g_string_append_len (s, name, end - name);
      g_string_append (s, ELLIPSIS);
      if (measure (self, s->str, (int)s->len) <= avail)
        {
          ok = TRUE;
          break;
        }
      keep--;
    }
  g_string_free (s, TRUE);

  return ok;
}

static inline void
set_source (cairo_t           *cr,
            const EmbersColor *c)
{
  cairo_set_source_rgba (cr, c->red, c->green, c->blue, c->alpha);
}

/* First rect of [first, last) whose right edge is past x */
static guint
first_visible (const EmbersRect *rects,
               guint             first,
               guint             last,
               double            x)
{
  guint lo = first, hi = last;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (rects[mid].x + rects[mid].width <= x)
        lo = mid + 1;
      else
        hi = mid;
    }

  return lo;
}

/* Pixel snapping: rect edges are rounded to device pixels (taking the
 * CTM and the surface's device scale into account) and separated by a gap
 * of at least one device pixel, so adjacent frames tile crisply. */
typedef struct
{
  gboolean snap;
  double   sx, ox;   /* device x = user x * sx + ox */
  double   sy, oy;
  double   gap_x;    /* device px */
  double   gap_y;
  double   border;   /* user px, when not snapping */
} Snap;

static void
snap_init (Snap    *snap,
           cairo_t *cr,
           double   border)
{
  cairo_matrix_t m;
  double dsx = 1, dsy = 1;

  cairo_get_matrix (cr, &m);
  cairo_surface_get_device_scale (cairo_get_target (cr), &dsx, &dsy);

  snap->snap = m.xy == 0 && m.yx == 0 && m.xx > 0 && m.yy > 0;
  snap->sx = m.xx * dsx;
  snap->ox = m.x0 * dsx;
  snap->sy = m.yy * dsy;
  snap->oy = m.y0 * dsy;
  snap->border = border;
  snap->gap_x = border > 0 ? MAX (1.0, round (border * snap->sx)) : 0;
  snap->gap_y = border > 0 ? MAX (1.0, round (border * snap->sy)) : 0;
}

/* The drawn extent of [v, v + len) on one axis; FALSE when it covers no
 * device pixel */
static gboolean
snap_span (const Snap *snap,
           gboolean    horizontal,
           double      v,
           double      len,
           gboolean    with_gap,
           double     *out_v,
           double     *out_len)
{
  double scale = horizontal ? snap->sx : snap->sy;
  double offset = horizontal ? snap->ox : snap->oy;
  double gap = horizontal ? snap->gap_x : snap->gap_y;
  double d0, d1;

  if (!snap->snap)
    {
      *out_v = v;
      *out_len = with_gap && len > 2 * snap->border ? len - snap->border : len;
      return *out_len > 0;
    }

  d0 = round (v * scale + offset);
  d1 = round ((v + len) * scale + offset);
  if (with_gap && d1 - d0 >= 2 * gap + 1)
    d1 -= gap;
  if (d1 <= d0)
    return FALSE;

  *out_v = (d0 - offset) / scale;
  *out_len = (d1 - d0) / scale;
  return TRUE;
}

typedef struct
{
  double x, y, w, h;
} Box;

typedef struct
{
  EmbersColor color;
  GArray     *boxes;
} Group;

static void
group_free (gpointer data)
{
  Group *group = data;

  g_array_unref (group->boxes);
  g_free (group);
}

static void
groups_reset (EmbersRender *self)
{
  GHashTableIter iter;
  gpointer value;

  if (self->groups == NULL || g_hash_table_size (self->groups) > 1024)
    {
      g_clear_pointer (&self->groups, g_hash_table_unref);
      self->groups = g_hash_table_new_full (NULL, NULL, NULL, group_free);
      return;
    }

  g_hash_table_iter_init (&iter, self->groups);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    g_array_set_size (((Group *)value)->boxes, 0);
}

static Group *
group_for (EmbersRender      *self,
           const EmbersColor *color)
{
  guint8 r, g, b;
  guint32 key;
  Group *group;

  embers_color_to_rgb8 (color, &r, &g, &b);
  key = ((guint32)r << 24) | ((guint32)g << 16) | ((guint32)b << 8) |
        (guint32)round (CLAMP (color->alpha, 0.f, 1.f) * 255);
  group = g_hash_table_lookup (self->groups, GUINT_TO_POINTER (key));
  if (group == NULL)
    {
      group = g_new (Group, 1);
      group->color = *color;
      group->boxes = g_array_new (FALSE, FALSE, sizeof (Box));
      g_hash_table_insert (self->groups, GUINT_TO_POINTER (key), group);
    }

  return group;
}

void
embers_render_paint (EmbersRender *self,
                     cairo_t      *cr)
{
  EmbersProfile *profile;
  const EmbersRect *rects;
  const EmbersRenderItem *items;
  const EmbersViewport *vp;
  double cx1, cy1, cx2, cy2;
  double rh, border;
  guint n_rows;

  g_return_if_fail (self != NULL);
  g_return_if_fail (cr != NULL);

  cairo_save (cr);
  cairo_clip_extents (cr, &cx1, &cy1, &cx2, &cy2);

  if (self->style.background.alpha > 0)
    {
      set_source (cr, &self->style.background);
      cairo_paint (cr);
    }

  if (self->layout == NULL)
    {
      cairo_restore (cr);
      return;
    }

  ensure_items (self);
  profile = embers_layout_get_profile (self->layout);
  rects = embers_layout_get_rects (self->layout, NULL);
  items = (const EmbersRenderItem *)(gpointer)self->items->data;
  vp = embers_layout_get_viewport (self->layout);
  rh = vp->row_height;
  border = self->style.border;
  n_rows = embers_layout_get_n_rows (self->layout);

  /* Fills: only what the clip shows, snapped to device pixels, and
   * batched by colour so cairo fills a few big pixel-aligned paths
   * (its fast path) instead of thousands of small anti-aliased ones */
  {
    Snap snap;
    GHashTableIter iter;
    gpointer value;

    snap_init (&snap, cr, border);
    groups_reset (self);
    for (guint row = 0; row < n_rows; row++)
      {
        double y = embers_layout_row_y (self->layout, row);
        double by, bh;
        guint first, n, i;

        if (y + rh <= cy1 || y >= cy2)
          continue;

        snap_span (&snap, FALSE, y, rh, TRUE, &by, &bh);
        n = embers_layout_get_row (self->layout, row, &first);
        for (i = first_visible (rects, first, first + n, cx1); i < first + n; i++)
          {
            const EmbersRect *r = &rects[i];
            Box box;

            if (r->x >= cx2)
              break;

            if (!snap_span (&snap, TRUE, r->x, r->width,
                            (items[i].flags & EMBERS_RENDER_ITEM_BORDER) != 0, &box.x, &box.w))
              continue;
            box.y = by;
            box.h = bh;
            g_array_append_val (group_for (self, &items[i].fill)->boxes, box);
          }
      }

    g_hash_table_iter_init (&iter, self->groups);
    while (g_hash_table_iter_next (&iter, NULL, &value))
      {
        Group *group = value;

        if (group->boxes->len == 0)
          continue;
        set_source (cr, &group->color);
        for (guint b = 0; b < group->boxes->len; b++)
          {
            const Box *box = &g_array_index (group->boxes, Box, b);

            cairo_rectangle (cr, box->x, box->y, box->w, box->h);
          }
        cairo_fill (cr);
      }
  }

  /* Labels */
  if (n_rows > 0)
    {
      double pad = self->style.text_padding;

      ensure_pango (self, cr);
      for (guint row = 0; row < n_rows; row++)
        {
          double y = embers_layout_row_y (self->layout, row);
          double ty;
          guint first, n, i;

          if (y + rh <= cy1 || y >= cy2)
            continue;

          ty = y + floor ((rh - border - self->text_height) / 2.0);
          n = embers_layout_get_row (self->layout, row, &first);
          for (i = first_visible (rects, first, first + n, cx1); i < first + n; i++)
            {
              const EmbersRect *r = &rects[i];
              const EmbersRenderItem *item = &items[i];
              double avail;

              if (r->x >= cx2)
                break;
              if (!(item->flags & EMBERS_RENDER_ITEM_LABEL))
                continue;

              avail = r->width - 2 * pad - border;
              if (avail <= 0)
                continue;
              if (!set_label (self, profile, embers_profile_node_name (profile, r->node), avail))
                continue;

              set_source (cr, &item->text);
              cairo_move_to (cr, r->x + pad, ty);
              pango_cairo_show_layout (cr, self->pango_layout);
            }
        }
    }

  cairo_restore (cr);
}

void
embers_render_paint_highlight (EmbersRender    *self,
                               cairo_t         *cr,
                               int              rect,
                               EmbersHighlight  kind)
{
  const EmbersRect *r;
  const EmbersViewport *vp;
  Snap snap;
  double x, y, lw, w, h;

  g_return_if_fail (self != NULL);
  g_return_if_fail (cr != NULL);

  if (self->layout == NULL || rect < 0 || (guint)rect >= embers_layout_get_n_rects (self->layout))
    return;

  r = embers_layout_get_rect (self->layout, rect);
  vp = embers_layout_get_viewport (self->layout);
  y = embers_layout_rect_y (self->layout, r);

  /* Outline the frame as painted (snapped, without its gap) */
  snap_init (&snap, cr, self->style.border);
  if (!snap_span (&snap, TRUE, r->x, r->width, r->width >= 3.0 * self->style.border, &x, &w))
    snap_span (&snap, FALSE, r->x, MAX (r->width, 1.0), FALSE, &x, &w);
  snap_span (&snap, FALSE, y, vp->row_height, TRUE, &y, &h);

  cairo_save (cr);
  if (kind == EMBERS_HIGHLIGHT_SELECTED)
    {
      lw = 2.0;
      set_source (cr, &self->style.accent);
    }
  else
    {
      lw = 1.0;
      set_source (cr, &self->style.foreground);
    }
  cairo_set_line_width (cr, lw);
  /* Inset by half the line so the outline stays inside the frame */
  cairo_rectangle (cr, x + lw / 2, y + lw / 2, MAX (w - lw, 0.0), MAX (h - lw, 0.0));
  cairo_stroke (cr);
  cairo_restore (cr);
}

/* Tooltips */

static char *
percent_of (gint64 value,
            gint64 whole)
{
  return embers_format_percent (whole > 0 ? (double)value / (double)whole : 0.0);
}

static void
append_location (GString       *s,
                 EmbersProfile *profile,
                 guint32        name)
{
  guint32 file = embers_profile_get_name_file (profile, name);
  gint64 line = embers_profile_get_name_line (profile, name);

  if (file != 0)
    {
      g_string_append_printf (s, "\n%s", embers_profile_get_string (profile, file));
      if (line > 0)
        g_string_append_printf (s, ":%" G_GINT64_FORMAT, line);
    }
}

static char *
diff_tooltip_text (EmbersProfile *profile,
                   guint32        node)
{
  GString *s = g_string_new (embers_profile_node_name_str (profile, node));
  const char *unit = embers_profile_get_sample_unit (profile, EMBERS_DIFF_BASELINE);
  gint64 lt = embers_profile_get_total (profile, EMBERS_DIFF_BASELINE);
  gint64 rt = embers_profile_get_total (profile, EMBERS_DIFF_COMPARISON);
  gint64 l = embers_profile_node_total (profile, EMBERS_DIFF_BASELINE, node);
  gint64 r = embers_profile_node_total (profile, EMBERS_DIFF_COMPARISON, node);
  g_autofree char *lv = embers_format_value (l, unit);
  g_autofree char *rv = embers_format_value (r, unit);
  g_autofree char *lp = percent_of (l, lt);
  g_autofree char *rp = percent_of (r, rt);
  EmbersDiffKind kind;
  double change = embers_diff_share_change (l, lt, r, rt, &kind);

  g_string_append_printf (s, "\n%s %s (%s)", _("Baseline:"), lv, lp);
  g_string_append_printf (s, "\n%s %s (%s)", _("Comparison:"), rv, rp);
  if (kind == EMBERS_DIFF_KIND_NEW)
    g_string_append_printf (s, "\n%s %s", _("Change:"), _("new"));
  else if (kind == EMBERS_DIFF_KIND_REMOVED)
    g_string_append_printf (s, "\n%s %s", _("Change:"), _("removed"));
  else
    {
      g_autofree char *d = embers_format_signed_percent (change / 100.0);

      g_string_append_printf (s, "\n%s %s", _("Change:"), d);
    }
  append_location (s, profile, embers_profile_node_name (profile, node));

  return g_string_free (s, FALSE);
}

char *
embers_render_tooltip_text (EmbersProfile *profile,
                            guint          sample_type,
                            guint32        node,
                            guint32        focus_node)
{
  GString *s;
  const char *unit;
  gint64 root_total, total, self_value;
  g_autofree char *total_str = NULL;
  g_autofree char *self_str = NULL;
  g_autofree char *total_pct = NULL;
  g_autofree char *self_pct = NULL;

  g_return_val_if_fail (EMBERS_IS_PROFILE (profile), NULL);
  g_return_val_if_fail (sample_type < embers_profile_get_n_sample_types (profile), NULL);
  g_return_val_if_fail (node < embers_profile_get_n_nodes (profile), NULL);

  if (embers_profile_is_diff (profile) && embers_profile_get_n_sample_types (profile) >= 2)
    return diff_tooltip_text (profile, node);

  if (focus_node == EMBERS_NODE_NONE || focus_node >= embers_profile_get_n_nodes (profile))
    focus_node = 0;

  unit = embers_profile_get_sample_unit (profile, sample_type);
  root_total = embers_profile_get_total (profile, sample_type);
  total = embers_profile_node_total (profile, sample_type, node);
  self_value = embers_profile_node_self (profile, sample_type, node);
  total_str = embers_format_value (total, unit);
  self_str = embers_format_value (self_value, unit);
  total_pct = percent_of (total, root_total);
  self_pct = percent_of (self_value, root_total);

  s = g_string_new (embers_profile_node_name_str (profile, node));

  /* Translators: "Total: 1.20 s (45.00% of total" */
  g_string_append_printf (s, "\n%s %s (%s %s", _("Total:"), total_str, total_pct, _("of total"));
  if (focus_node != 0)
    {
      gint64 focus_total = embers_profile_node_total (profile, sample_type, focus_node);
      guint32 focus_end = embers_profile_node_end (profile, focus_node);

      /* Only frames in the focused subtree have a share of it */
      if (node >= focus_node && node < focus_end)
        {
          g_autofree char *focus_pct = percent_of (total, focus_total);

          g_string_append_printf (s, ", %s %s", focus_pct, _("of focus"));
        }
    }
  g_string_append (s, ")");
  g_string_append_printf (s, "\n%s %s (%s %s)", _("Self:"), self_str, self_pct, _("of total"));
  append_location (s, profile, embers_profile_node_name (profile, node));

  return g_string_free (s, FALSE);
}

char *
embers_render_rect_tooltip_text (EmbersLayout     *layout,
                                 const EmbersRect *rect)
{
  EmbersProfile *profile;
  guint sample_type;
  g_autofree char *total_str = NULL;
  g_autofree char *total_pct = NULL;
  g_autofree char *count = NULL;
  gint64 total;

  g_return_val_if_fail (layout != NULL, NULL);
  g_return_val_if_fail (rect != NULL, NULL);

  profile = embers_layout_get_profile (layout);
  sample_type = embers_layout_get_sample_type (layout);

  if (!(rect->flags & EMBERS_RECT_MERGED))
    return embers_render_tooltip_text (profile, sample_type, rect->node,
                                       embers_layout_get_focus (layout));

  total = embers_layout_rect_get_total (layout, rect);
  total_str = embers_format_value (total, embers_profile_get_sample_unit (profile, sample_type));
  total_pct = percent_of (total, embers_profile_get_total (profile, sample_type));

  count = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u small frame", "%u small frames", rect->n_nodes),
                           rect->n_nodes);

  return g_strdup_printf ("%s\n%s %s (%s %s)\n%s",
                          count, _("Total:"), total_str, total_pct, _("of total"),
                          _("Zoom in to see them"));
}

char *
embers_render_accessible_text (EmbersProfile *profile,
                               guint          sample_type,
                               guint32        node)
{
  gint64 total;
  g_autofree char *value = NULL;
  g_autofree char *pct = NULL;

  g_return_val_if_fail (EMBERS_IS_PROFILE (profile), NULL);
  g_return_val_if_fail (sample_type < embers_profile_get_n_sample_types (profile), NULL);
  g_return_val_if_fail (node < embers_profile_get_n_nodes (profile), NULL);

  total = embers_profile_node_total (profile, sample_type, node);
  value = embers_format_value (total, embers_profile_get_sample_unit (profile, sample_type));
  pct = percent_of (total, embers_profile_get_total (profile, sample_type));

  /* Translators: "main, total 1.20 s, 45.00% of total" */
  return g_strdup_printf (_("%s, total %s, %s of total"),
                          embers_profile_node_name_str (profile, node), value, pct);
}

/* Export */

void
embers_export_options_init (EmbersExportOptions *options)
{
  g_return_if_fail (options != NULL);

  memset (options, 0, sizeof *options);
  options->width = 1200;
  options->scale = 1;
  options->focus = 0;
  options->direction = EMBERS_LAYOUT_ICICLE;
  embers_render_style_init (&options->style, FALSE);
  options->search = NULL;
  options->search_flags = EMBERS_SEARCH_DEFAULT;
}

typedef enum
{
  EXPORT_PNG,
  EXPORT_SVG,
  EXPORT_PDF,
} ExportKind;

static gboolean
export_kind_for_path (const char  *path,
                      ExportKind  *kind)
{
  g_autofree char *lower = g_ascii_strdown (path, -1);

  if (g_str_has_suffix (lower, ".png"))
    *kind = EXPORT_PNG;
  else if (g_str_has_suffix (lower, ".svg"))
    *kind = EXPORT_SVG;
  else if (g_str_has_suffix (lower, ".pdf"))
    *kind = EXPORT_PDF;
  else
    return FALSE;

  return TRUE;
}

static gboolean
cairo_check (cairo_status_t   status,
             const char      *path,
             GError         **error)
{
  if (status == CAIRO_STATUS_SUCCESS)
    return TRUE;

  g_set_error (error, G_IO_ERROR,
               G_IO_ERROR_FAILED,
               _("Could not write the image %s: %s"), path, cairo_status_to_string (status));
  return FALSE;
}

gboolean
embers_render_export (EmbersProfile             *profile,
                      guint                      sample_type,
                      const EmbersExportOptions *options,
                      const char                *path,
                      GError                   **error)
{
  EmbersExportOptions defaults;
  EmbersViewport vp;
  ExportKind kind;
  g_autoptr(EmbersLayout) layout = NULL;
  g_autoptr(EmbersSearch) search = NULL;
  g_autoptr(EmbersRender) render = NULL;
  cairo_surface_t *surface;
  cairo_t *cr;
  double width, height, scale;
  gboolean ok;

  g_return_val_if_fail (EMBERS_IS_PROFILE (profile), FALSE);
  g_return_val_if_fail (sample_type < embers_profile_get_n_sample_types (profile), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (options == NULL)
    {
      embers_export_options_init (&defaults);
      options = &defaults;
    }

  if (!export_kind_for_path (path, &kind))
    {
      g_set_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_UNSUPPORTED,
                   _("Cannot export an image to %s: use a .png, .svg or .pdf file name"), path);
      return FALSE;
    }

  width = options->width > 0 ? options->width : 1200;
  scale = options->scale > 0 ? options->scale : 1;
  if (kind == EXPORT_PNG && width * scale > PNG_MAX_SIZE)
    {
      g_set_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_UNSUPPORTED,
                   _("A PNG image can be at most %d pixels wide"), PNG_MAX_SIZE);
      return FALSE;
    }

  embers_viewport_init (&vp, width);
  vp.direction = options->direction;
  layout = embers_layout_new (profile, sample_type, options->focus, &vp);

  if (options->search != NULL && options->search[0] != '\0')
    {
      search = embers_search_new (profile, options->search, options->search_flags, error);
      if (search == NULL)
        return FALSE;
    }

  render = embers_render_new (layout, search, &options->style);
  height = MAX (embers_layout_get_height (layout), vp.row_height);
  if (kind == EXPORT_PNG && height * scale > PNG_MAX_SIZE)
    height = floor (PNG_MAX_SIZE / scale);   /* the deepest rows are cut */

  switch (kind)
    {
    case EXPORT_PNG:
      surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32,
                                            (int)ceil (width * scale), (int)ceil (height * scale));
      break;
    case EXPORT_SVG:
      surface = cairo_svg_surface_create (path, width, height);
      break;
    case EXPORT_PDF:
    default:
      surface = cairo_pdf_surface_create (path, width, height);
      break;
    }

  if (!cairo_check (cairo_surface_status (surface), path, error))
    {
      cairo_surface_destroy (surface);
      return FALSE;
    }

  cr = cairo_create (surface);
  if (kind == EXPORT_PNG)
    cairo_scale (cr, scale, scale);
  cairo_rectangle (cr, 0, 0, width, height);
  cairo_clip (cr);
  embers_render_paint (render, cr);
  ok = cairo_check (cairo_status (cr), path, error);
  cairo_destroy (cr);

  if (ok && kind == EXPORT_PNG)
    ok = cairo_check (cairo_surface_write_to_png (surface, path), path, error);
  cairo_surface_finish (surface);
  if (ok)
    ok = cairo_check (cairo_surface_status (surface), path, error);
  cairo_surface_destroy (surface);

  return ok;
}
