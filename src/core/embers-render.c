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

#include "embers-diff.h"
#include "embers-render.h"
#include "embers-svg.h"
#include "embers-text.h"
#include "embers-save.h"
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

  /* A diff's noise test: per node, for the profile it was made for */
  EmbersChangeVerdict *verdicts;
  guint              n_verdicts;
  EmbersProfile     *verdicts_profile;  /* not a reference; compared only */
  gboolean           hide_noise;

  /* Per-name caches, for the profile they were built for */
  EmbersProfile     *cache_profile; /* not a reference; compared only */
  guint              cache_n_strings;
  guint8            *package_index; /* 0xff unknown */
  float             *text_width;    /* px, < 0 unknown */
  guint32           *text_chars;    /* UTF-8 characters in the name */

  GHashTable        *groups;        /* colour key -> Group, reused per paint */

  /* Labels shaped once (per name id; SHAPE_PANGO: drawn through Pango
   * each time, see shape_name), the ellipsis, and diff suffixes */
  struct _Shaped   **shaped;
  struct _Shaped    *shaped_ellipsis;
  GHashTable        *shaped_suffixes; /* text -> Shaped */
  double             shaped_scale;    /* device scale they were made for */
  GArray            *glyph_scratch;   /* cairo_glyph_t */

  PangoContext      *pango_context;
  PangoLayout       *pango_layout;
  double             text_height;
  double             ellipsis_width;

  /* Diff labels: "name" SEPARATOR "+42%" */
  double             separator_width;
  GHashTable        *suffix_widths; /* suffix text -> px, as a float in a pointer */
  GString           *label;         /* scratch */
};

#define SEPARATOR "  "

static gboolean
is_diff_profile (EmbersProfile *profile)
{
  return embers_profile_is_diff (profile) && embers_profile_get_n_sample_types (profile) >= 2;
}

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

/* A label shaped once: its glyphs (x from 0, on the baseline) in one
 * font, and where it may be cut (after glyph i: ends[i]; INFINITY inside
 * a cluster) */
typedef struct _Shaped
{
  cairo_scaled_font_t *font;
  guint                n_glyphs;
  float                width;
  float                baseline;   /* px below the label's top */
  cairo_glyph_t       *glyphs;
  float               *ends;
  guint32             *cuts;       /* glyphs a shortened name may start at */
  guint                n_cuts;     /* (embers_text_name_cuts), in order */
} Shaped;

/* A name Pango must draw itself: several fonts or directions, glyphs it
 * has no font for */
#define SHAPE_PANGO ((Shaped *)GSIZE_TO_POINTER (1))

static void
shaped_free (Shaped *shaped)
{
  if (shaped == NULL || shaped == SHAPE_PANGO)
    return;
  cairo_scaled_font_destroy (shaped->font);
  g_free (shaped->glyphs);
  g_free (shaped->ends);
  g_free (shaped->cuts);
  g_free (shaped);
}

static void
clear_shaped (EmbersRender *self)
{
  if (self->shaped != NULL)
    for (guint i = 0; i < self->cache_n_strings; i++)
      g_clear_pointer (&self->shaped[i], shaped_free);
  g_clear_pointer (&self->shaped_ellipsis, shaped_free);
  if (self->shaped_suffixes != NULL)
    g_hash_table_remove_all (self->shaped_suffixes);
}

static void
clear_name_caches (EmbersRender *self)
{
  clear_shaped (self);
  g_clear_pointer (&self->shaped, g_free);
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
  if (self->suffix_widths != NULL)
    g_hash_table_remove_all (self->suffix_widths);
  clear_shaped (self);
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
  self->shaped = g_new0 (Shaped *, n);
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
  self->suffix_widths = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->shaped_suffixes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                 (GDestroyNotify)shaped_free);
  self->glyph_scratch = g_array_new (FALSE, FALSE, sizeof (cairo_glyph_t));
  self->label = g_string_new (NULL);
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
      g_clear_pointer (&self->verdicts, g_free);
      g_clear_pointer (&self->groups, g_hash_table_unref);
      g_clear_object (&self->pango_layout);
      g_clear_object (&self->pango_context);
      g_clear_pointer (&self->suffix_widths, g_hash_table_unref);
      clear_name_caches (self);
      g_clear_pointer (&self->shaped_suffixes, g_hash_table_unref);
      g_clear_pointer (&self->glyph_scratch, g_array_unref);
      if (self->label != NULL)
        g_string_free (self->label, TRUE);
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
embers_render_set_noise (EmbersRender              *self,
                         EmbersProfile             *diff,
                         const EmbersChangeVerdict *verdicts,
                         gboolean                   hide_noise)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (verdicts == NULL || EMBERS_IS_PROFILE (diff));

  g_clear_pointer (&self->verdicts, g_free);
  self->n_verdicts = 0;
  self->verdicts_profile = NULL;
  if (verdicts != NULL)
    {
      self->n_verdicts = embers_profile_get_n_nodes (diff);
      self->verdicts = g_memdup2 (verdicts, sizeof (EmbersChangeVerdict) * MAX (self->n_verdicts, 1u));
      self->verdicts_profile = diff;
    }
  self->hide_noise = hide_noise;
  self->items_valid = FALSE;
}

gboolean
embers_render_node_is_noise (EmbersRender  *self,
                             EmbersProfile *profile,
                             guint32        node)
{
  g_return_val_if_fail (self != NULL, FALSE);

  return self->hide_noise && self->verdicts != NULL && profile == self->verdicts_profile &&
         node < self->n_verdicts && self->verdicts[node] == EMBERS_CHANGE_WITHIN_NOISE;
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

  if (is_diff_profile (profile))
    {
      EmbersDiffKind kind;
      double change = embers_diff_node_change (profile, rect->node, style->diff_mode, &kind);

      /* A change within the noise is drawn as no change at all */
      if (embers_render_node_is_noise (self, profile, rect->node))
        {
          embers_palette_diff_stop (style->diff_palette, 1, color);
          return;
        }

      /* New and removed frames are the ends of the scale, whatever the
       * totals of the sides */
      if (kind == EMBERS_DIFF_KIND_NEW)
        change = 100.0;
      else if (kind == EMBERS_DIFF_KIND_REMOVED)
        change = -100.0;
      embers_palette_diff_scale (change, style->diff_palette, color);
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
      if ((item->flags & EMBERS_RENDER_ITEM_DIMMED) && !self->style.high_contrast)
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

  if (cr != NULL)
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
      pango_layout_set_text (self->pango_layout, SEPARATOR, -1);
      pango_layout_get_pixel_size (self->pango_layout, &w, &h);
      self->separator_width = w;
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

/* The layout's text becomes the name (or what of it fits), plus the
 * suffix when there is one */
static void
finish_label (EmbersRender *self,
              const char   *name,
              gssize        len,
              const char   *suffix)
{
  if (suffix == NULL)
    {
      pango_layout_set_text (self->pango_layout, name, (int)len);
      return;
    }

  g_string_truncate (self->label, 0);
  g_string_append_len (self->label, name, len);
  g_string_append (self->label, SEPARATOR);
  g_string_append (self->label, suffix);
  pango_layout_set_text (self->pango_layout, self->label->str, (int)self->label->len);
}

static double
suffix_width (EmbersRender *self,
              const char   *suffix)
{
  gpointer value;
  float w;

  if (g_hash_table_lookup_extended (self->suffix_widths, suffix, NULL, &value))
    {
      memcpy (&w, &value, sizeof w);
      return w;
    }

  w = (float)measure (self, suffix, -1);
  value = NULL;
  memcpy (&value, &w, sizeof w);
  if (g_hash_table_size (self->suffix_widths) > 4096)
    g_hash_table_remove_all (self->suffix_widths);
  g_hash_table_insert (self->suffix_widths, g_strdup (suffix), value);
  return w;
}

typedef struct
{
  EmbersRender *self;
  double        avail;
} LabelFits;

static gboolean
label_fits (const char *text,
            gpointer    user_data)
{
  LabelFits *fits = user_data;

  return measure (fits->self, text, -1) <= fits->avail;
}

/* Sets the layout's text to the name, ellipsized to fit avail px, followed
 * by SEPARATOR and @suffix when given (then the name gets what the suffix
 * leaves). Returns FALSE when not even one character and the ellipsis
 * fit. */
static gboolean
set_label (EmbersRender  *self,
           EmbersProfile *profile,
           guint32        name_id,
           double         avail,
           const char    *suffix)
{
  const char *name = embers_profile_get_string (profile, name_id);
  float full = self->text_width[name_id];
  gboolean ok = FALSE;

  if (suffix != NULL)
    {
      avail -= self->separator_width + suffix_width (self, suffix);
      if (avail < self->ellipsis_width + 1)
        return FALSE;
    }

  if (full < 0)
    {
      if (!g_utf8_validate (name, -1, NULL))
        {
          g_autofree char *valid = g_utf8_make_valid (name, -1);

          /* Invalid names are rare: measure a valid copy, cache nothing */
          full = (float)measure (self, valid, -1);
          if (full <= avail)
            {
              finish_label (self, valid, -1, suffix);
              return TRUE;
            }
          name = NULL;
          full = -1;
        }
      else
        {
          full = (float)measure (self, name, -1);
          self->text_width[name_id] = full;
          self->text_chars[name_id] = (guint32)g_utf8_strlen (name, -1);
          if (full <= avail)
            {
              if (suffix != NULL)
                finish_label (self, name, -1, suffix);
              return TRUE;
            }
        }
    }
  else if (full <= avail)
    {
      finish_label (self, name, -1, suffix);
      return TRUE;
    }

  if (name == NULL || avail < self->ellipsis_width + 1)
    return FALSE;

  /* Too wide: the package path goes first, then the function name's end
   * (embers_text_shorten_name), each candidate measured */
  {
    LabelFits fits = { self, avail };
    g_autofree char *cut = embers_text_shorten_name (name, label_fits, &fits);

    if (g_strcmp0 (cut, ELLIPSIS) == 0)
      g_clear_pointer (&cut, g_free);   /* "…" alone says nothing */
    if (cut != NULL && measure (self, cut, -1) <= avail)
      {
        ok = TRUE;
        finish_label (self, cut, -1, suffix);
      }
  }
  return ok;
}

static const char *
diff_suffix (EmbersProfile  *profile,
             guint32         node,
             EmbersDiffMode  mode,
             char           *buf,
             gsize           size)
{
  EmbersDiffKind kind;
  double change = embers_diff_node_change (profile, node, mode, &kind);
  double a = fabs (change);

  switch (kind)
    {
    case EMBERS_DIFF_KIND_NEW:
      /* Translators: label suffix of a frame only in the comparison */
      return _("new");
    case EMBERS_DIFF_KIND_REMOVED:
      /* Translators: label suffix of a frame only in the baseline */
      return _("removed");
    case EMBERS_DIFF_KIND_CHANGED:
    default:
      break;
    }

  if (!(a >= 0.05) || !isfinite (change))
    return NULL;

  /* U+2212 MINUS SIGN, as in embers_format_signed_percent() */
  g_snprintf (buf, size, a < 9.95 ? "%s%.1f%%" : "%s%.0f%%",
              change > 0 ? "+" : "\xe2\x88\x92", a);
  return buf;
}

char *
embers_render_diff_change_text (EmbersProfile  *diff,
                                guint32         node,
                                EmbersDiffMode  mode)
{
  char buf[64];

  g_return_val_if_fail (EMBERS_IS_PROFILE (diff), NULL);
  g_return_val_if_fail (is_diff_profile (diff), NULL);
  g_return_val_if_fail (node < embers_profile_get_n_nodes (diff), NULL);

  return g_strdup (diff_suffix (diff, node, mode, buf, sizeof buf));
}

/* Shapes @text with the layout's font, once: NULL for text Pango must
 * draw itself (the caller keeps that answer as SHAPE_PANGO) */
static Shaped *
shape_text (EmbersRender *self,
            const char   *text)
{
  PangoLayoutLine *line;
  PangoGlyphItem *run;
  PangoGlyphString *glyphs;
  Shaped *shaped;
  double x = 0;

  if (!g_utf8_validate (text, -1, NULL))
    return NULL;
  pango_layout_set_text (self->pango_layout, text, -1);
  if (pango_layout_get_line_count (self->pango_layout) != 1)
    return NULL;
  line = pango_layout_get_line_readonly (self->pango_layout, 0);
  if (line->runs == NULL || line->runs->next != NULL)
    return NULL;   /* one run: one font, one direction */
  run = line->runs->data;
  glyphs = run->glyphs;
  if (run->item->analysis.level % 2 != 0 || !PANGO_IS_CAIRO_FONT (run->item->analysis.font))
    return NULL;
  for (int i = 0; i < glyphs->num_glyphs; i++)
    if (glyphs->glyphs[i].glyph & PANGO_GLYPH_UNKNOWN_FLAG)
      return NULL;   /* Pango draws a box with the code point */

  shaped = g_new0 (Shaped, 1);
  shaped->font = cairo_scaled_font_reference (pango_cairo_font_get_scaled_font (PANGO_CAIRO_FONT (run->item->analysis.font)));
  shaped->glyphs = g_new (cairo_glyph_t, MAX (glyphs->num_glyphs, 1));
  shaped->ends = g_new (float, MAX (glyphs->num_glyphs, 1));
  shaped->baseline = pango_layout_get_baseline (self->pango_layout) / (float)PANGO_SCALE;
  for (int i = 0; i < glyphs->num_glyphs; i++)
    {
      const PangoGlyphInfo *g = &glyphs->glyphs[i];

      x += (double)g->geometry.width / PANGO_SCALE;
      if (g->glyph != PANGO_GLYPH_EMPTY)
        {
          cairo_glyph_t *out = &shaped->glyphs[shaped->n_glyphs];

          out->index = g->glyph;
          out->x = x - (double)g->geometry.width / PANGO_SCALE + (double)g->geometry.x_offset / PANGO_SCALE;
          out->y = (double)g->geometry.y_offset / PANGO_SCALE;
          /* A cut may follow this glyph only where a cluster ends */
          shaped->ends[shaped->n_glyphs] = (i + 1 == glyphs->num_glyphs ||
                                            glyphs->log_clusters[i + 1] != glyphs->log_clusters[i])
                                           ? (float)x : INFINITY;
          shaped->n_glyphs++;
        }
      else if (shaped->n_glyphs > 0)
        shaped->ends[shaped->n_glyphs - 1] = (float)x;
    }
  shaped->width = (float)x;

  /* Where a name may be cut at its package path: the first glyph at or
   * after each cut's byte, where a cluster starts */
  {
    g_autoptr(GArray) cuts = embers_text_name_cuts (text);
    guint out = 0;
    int i = 0;

    shaped->cuts = g_new (guint32, MAX (cuts->len, 1));
    for (guint c = 0; c < cuts->len; c++)
      {
        gsize byte = g_array_index (cuts, gsize, c);
        guint j = 0;

        /* Output glyph j is input glyph i, skipping empty ones */
        for (i = 0, j = 0; i < glyphs->num_glyphs; i++)
          {
            if ((gsize)glyphs->log_clusters[i] >= byte)
              break;
            if (glyphs->glyphs[i].glyph != PANGO_GLYPH_EMPTY)
              j++;
          }
        if (j > 0 && j < shaped->n_glyphs && isfinite (shaped->ends[j - 1]) &&
            (out == 0 || shaped->cuts[out - 1] < j))
          shaped->cuts[out++] = j;
      }
    shaped->n_cuts = out;
  }

  return shaped;
}

/* The device scale shaped labels are for: glyph metrics are hinted for it */
static void
check_shaped_scale (EmbersRender *self,
                    cairo_t      *cr)
{
  double sx = 1, sy = 1;
  cairo_matrix_t m;

  cairo_surface_get_device_scale (cairo_get_target (cr), &sx, &sy);
  cairo_get_matrix (cr, &m);
  sx *= m.xx;
  if (sx != self->shaped_scale)
    {
      clear_shaped (self);
      self->shaped_scale = sx;
    }
}

static Shaped *
shaped_name (EmbersRender  *self,
             EmbersProfile *profile,
             guint32        name_id)
{
  Shaped *shaped = self->shaped[name_id];

  if (shaped == NULL)
    {
      shaped = shape_text (self, embers_profile_get_string (profile, name_id));
      if (shaped == NULL)
        shaped = SHAPE_PANGO;
      else
        self->text_width[name_id] = shaped->width;
      self->shaped[name_id] = shaped;
    }

  return shaped == SHAPE_PANGO ? NULL : shaped;
}

static Shaped *
shaped_suffix (EmbersRender *self,
               const char   *suffix)
{
  Shaped *shaped;

  if (g_hash_table_lookup_extended (self->shaped_suffixes, suffix, NULL, (gpointer *)&shaped))
    return shaped;
  if (g_hash_table_size (self->shaped_suffixes) > 4096)
    g_hash_table_remove_all (self->shaped_suffixes);
  shaped = shape_text (self, suffix);
  g_hash_table_insert (self->shaped_suffixes, g_strdup (suffix), shaped);
  return shaped;
}

/* Adds glyphs [first, last) of @shaped at (x, y) to the scratch run */
static void
add_glyph_range (EmbersRender *self,
                 const Shaped *shaped,
                 guint         first,
                 guint         last,
                 double        x,
                 double        y)
{
  guint at = self->glyph_scratch->len;

  g_array_set_size (self->glyph_scratch, at + (last - first));
  for (guint i = first; i < last; i++)
    {
      cairo_glyph_t *g = &g_array_index (self->glyph_scratch, cairo_glyph_t, at + (i - first));

      g->index = shaped->glyphs[i].index;
      g->x = shaped->glyphs[i].x + x;
      g->y = shaped->glyphs[i].y + y;
    }
}

/* Adds glyphs [0, n) of @shaped at (x, y) to the scratch run */
static void
add_glyphs (EmbersRender *self,
            const Shaped *shaped,
            guint         n,
            double        x,
            double        y)
{
  add_glyph_range (self, shaped, 0, n, x, y);
}

/* Draws a label from shaped glyphs: the name, cut with an ellipsis to fit
 * @avail px when it must, then the suffix. FALSE when the shaped path
 * cannot draw it (the caller falls back to Pango), TRUE when it drew it
 * or when not even a character and the ellipsis fit (*drawn FALSE). */
static gboolean
show_shaped (EmbersRender  *self,
             cairo_t       *cr,
             EmbersProfile *profile,
             guint32        name_id,
             const char    *suffix,
             double         avail,
             double         x,
             double         top,
             gboolean      *drawn)
{
  Shaped *name = shaped_name (self, profile, name_id);
  Shaped *tail = NULL;
  Shaped *ellipsis;
  guint keep;
  double y;

  *drawn = FALSE;
  if (name == NULL)
    return FALSE;
  if (self->shaped_ellipsis == NULL)
    self->shaped_ellipsis = shape_text (self, ELLIPSIS);
  ellipsis = self->shaped_ellipsis;
  if (suffix != NULL)
    {
      tail = shaped_suffix (self, suffix);
      if (tail == NULL || tail->font != name->font)
        return FALSE;
      avail -= self->separator_width + tail->width;
      if (avail < self->ellipsis_width + 1)
        return TRUE;
    }

  g_array_set_size (self->glyph_scratch, 0);
  y = top + name->baseline;
  if (name->width <= avail)
    {
      add_glyphs (self, name, name->n_glyphs, x, y);
      x += name->width;
    }
  else
    {
      guint first;
      float start, lead;
      gboolean cut = FALSE;

      if (ellipsis == NULL || ellipsis->font != name->font)
        return FALSE;
      /* The package path goes first: "…syntax.(*compiler).compile" */
      for (guint c = 0; c < name->n_cuts && !cut; c++)
        {
          first = name->cuts[c];
          start = name->ends[first - 1];
          if (ellipsis->width + name->width - start <= avail)
            {
              add_glyphs (self, ellipsis, ellipsis->n_glyphs, x, y);
              add_glyph_range (self, name, first, name->n_glyphs, x + ellipsis->width - start, y);
              x += ellipsis->width + name->width - start;
              cut = TRUE;
            }
        }
      if (!cut)
        {
          /* Then the function name, at its end: "…comp…" */
          first = name->n_cuts > 0 ? name->cuts[name->n_cuts - 1] : 0;
          start = first > 0 ? name->ends[first - 1] : 0;
          lead = first > 0 ? ellipsis->width : 0;
          for (keep = name->n_glyphs; keep > first; keep--)
            if (lead + name->ends[keep - 1] - start + ellipsis->width <= avail)
              break;
          if (keep == first)
            return TRUE;
          if (first > 0)
            add_glyphs (self, ellipsis, ellipsis->n_glyphs, x, y);
          add_glyph_range (self, name, first, keep, x + lead - start, y);
          x += lead + name->ends[keep - 1] - start;
          add_glyphs (self, ellipsis, ellipsis->n_glyphs, x, y);
          x += ellipsis->width;
        }
    }
  if (tail != NULL)
    add_glyphs (self, tail, tail->n_glyphs, x + self->separator_width, y);

  cairo_set_scaled_font (cr, name->font);
  cairo_show_glyphs (cr, (cairo_glyph_t *)(gpointer)self->glyph_scratch->data, self->glyph_scratch->len);
  *drawn = TRUE;
  return TRUE;
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

/* One device pixel wide where [v, v + len) is, for what must show however
 * narrow it is */
static gboolean
snap_sliver (const Snap *snap,
             double      v,
             double      len,
             double     *out_v,
             double     *out_len)
{
  double d0;

  if (!snap->snap)
    {
      *out_v = v;
      *out_len = MAX (len, 1.0);
      return TRUE;
    }

  d0 = floor ((v + len / 2) * snap->sx + snap->ox);
  *out_v = (d0 - snap->ox) / snap->sx;
  *out_len = 1.0 / snap->sx;
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

    g_autoptr(GArray) outlines = NULL;

    /* High contrast: matches are outlined, not only coloured */
    if (self->style.high_contrast && self->search != NULL)
      outlines = g_array_new (FALSE, FALSE, sizeof (Box));
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
              {
                /* A match (or a merged block holding one) narrower than a
                 * pixel still shows, as a sliver of one device pixel:
                 * hundreds of tiny matches must not look like none */
                if (!(items[i].flags & EMBERS_RENDER_ITEM_MATCH) ||
                    !snap_sliver (&snap, r->x, r->width, &box.x, &box.w))
                  continue;
              }
            box.y = by;
            box.h = bh;
            g_array_append_val (group_for (self, &items[i].fill)->boxes, box);
            if (outlines != NULL && (items[i].flags & EMBERS_RENDER_ITEM_MATCH) && box.w >= 4)
              g_array_append_val (outlines, box);
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

    if (outlines != NULL && outlines->len > 0)
      {
        set_source (cr, &self->style.foreground);
        cairo_set_line_width (cr, 2.0);
        for (guint b = 0; b < outlines->len; b++)
          {
            const Box *box = &g_array_index (outlines, Box, b);

            cairo_rectangle (cr, box->x + 1, box->y + 1, box->w - 2, box->h - 2);
          }
        cairo_stroke (cr);
      }
  }

  /* Labels */
  if (n_rows > 0)
    {
      double pad = self->style.text_padding;
      gboolean diff = is_diff_profile (profile);
      char suffix_buf[64];

      ensure_pango (self, cr);
      check_shaped_scale (self, cr);
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

              /* Shaped once, drawn as glyphs: no Pango layout per frame */
              {
                guint32 name_id = embers_profile_node_name (profile, r->node);
                const char *suffix = diff && !embers_render_node_is_noise (self, profile, r->node)
                                     ? diff_suffix (profile, r->node, self->style.diff_mode,
                                                    suffix_buf, sizeof suffix_buf) : NULL;
                gboolean drawn = FALSE;

                set_source (cr, &item->text);
                /* The change where it fits, else the name alone; Pango
                 * for what cannot be drawn from shaped glyphs */
                if (suffix == NULL || show_shaped (self, cr, profile, name_id, suffix, avail,
                                                   r->x + pad, ty, &drawn))
                  {
                    if (drawn)
                      continue;
                    if (show_shaped (self, cr, profile, name_id, NULL, avail, r->x + pad, ty, &drawn))
                      continue;
                  }
              }

              if (diff)
                {
                  const char *suffix = embers_render_node_is_noise (self, profile, r->node)
                                       ? NULL : diff_suffix (profile, r->node, self->style.diff_mode,
                                                             suffix_buf, sizeof suffix_buf);

                  /* The change where it fits, else the name alone */
                  if ((suffix == NULL || !set_label (self, profile, embers_profile_node_name (profile, r->node), avail, suffix)) &&
                      !set_label (self, profile, embers_profile_node_name (profile, r->node), avail, NULL))
                    continue;
                }
              else if (!set_label (self, profile, embers_profile_node_name (profile, r->node), avail, NULL))
                continue;

              cairo_move_to (cr, r->x + pad, ty);
              pango_cairo_show_layout (cr, self->pango_layout);
            }
        }
    }

  cairo_restore (cr);
}

/* The outline of a highlighted frame in the user space @snap is for */
static gboolean
highlight_box (EmbersRender    *self,
               const Snap      *snap,
               int              rect,
               EmbersHighlight  kind,
               double          *x,
               double          *y,
               double          *w,
               double          *h,
               double          *lw,
               EmbersColor     *color)
{
  const EmbersRect *r;
  const EmbersViewport *vp;

  if (self->layout == NULL || rect < 0 || (guint)rect >= embers_layout_get_n_rects (self->layout))
    return FALSE;

  r = embers_layout_get_rect (self->layout, rect);
  vp = embers_layout_get_viewport (self->layout);

  /* Outline the frame as painted (snapped, without its gap) */
  if (!snap_span (snap, TRUE, r->x, r->width, r->width >= 3.0 * self->style.border, x, w))
    snap_span (snap, FALSE, r->x, MAX (r->width, 1.0), FALSE, x, w);
  snap_span (snap, FALSE, embers_layout_rect_y (self->layout, r), vp->row_height, TRUE, y, h);

  if (kind == EMBERS_HIGHLIGHT_SELECTED)
    {
      *lw = 2.0;
      *color = self->style.accent;
    }
  else
    {
      *lw = 1.0;
      *color = self->style.foreground;
    }
  return TRUE;
}

void
embers_render_paint_highlight (EmbersRender    *self,
                               cairo_t         *cr,
                               int              rect,
                               EmbersHighlight  kind)
{
  Snap snap;
  double x, y, lw, w, h;
  EmbersColor color;

  g_return_if_fail (self != NULL);
  g_return_if_fail (cr != NULL);

  snap_init (&snap, cr, self->style.border);
  if (!highlight_box (self, &snap, rect, kind, &x, &y, &w, &h, &lw, &color))
    return;

  cairo_save (cr);
  set_source (cr, &color);
  cairo_set_line_width (cr, lw);
  /* Inset by half the line so the outline stays inside the frame */
  cairo_rectangle (cr, x + lw / 2, y + lw / 2, MAX (w - lw, 0.0), MAX (h - lw, 0.0));
  cairo_stroke (cr);
  cairo_restore (cr);
}

gboolean
embers_render_get_highlight (EmbersRender    *self,
                             int              rect,
                             EmbersHighlight  kind,
                             double           scale,
                             double           y_offset,
                             double          *x,
                             double          *y,
                             double          *width,
                             double          *height,
                             double          *line_width,
                             EmbersColor     *color)
{
  Snap snap;
  double border;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (scale > 0, FALSE);

  /* As snap_init() sees a cairo context scaled by @scale and moved down
   * by @y_offset */
  border = self->style.border;
  snap.snap = TRUE;
  snap.sx = scale;
  snap.ox = 0;
  snap.sy = scale;
  snap.oy = y_offset * scale;
  snap.border = border;
  snap.gap_x = border > 0 ? MAX (1.0, round (border * snap.sx)) : 0;
  snap.gap_y = border > 0 ? MAX (1.0, round (border * snap.sy)) : 0;
  return highlight_box (self, &snap, rect, kind, x, y, width, height, line_width, color);
}

/* Legend */

#define LEGEND_PAD        4.0
#define LEGEND_GAP        6.0
#define LEGEND_DESC_GAP   16.0
#define LEGEND_GRADIENT   160.0
#define LEGEND_GRADIENT_MIN 48.0
#define LEGEND_BAR_HEIGHT 10.0

static char *
legend_description (const EmbersRenderStyle *style)
{
  const char *mode = style->diff_mode == EMBERS_DIFF_MODE_ABSOLUTE ?
                     /* Translators: what the diff colours show (legend) */
                     _("change of absolute value") :
                     /* Translators: what the diff colours show (legend) */
                     _("change of share of total");

  /* Translators: diff legend, "red/blue · change of share of total" */
  return g_strdup_printf (_("%s · %s"), embers_palette_diff_name (style->diff_palette), mode);
}

typedef struct
{
  double shrank, grew, desc;   /* text widths */
  double text_height;
} LegendMetrics;

static void
legend_metrics (EmbersRender  *self,
                const char    *desc,
                LegendMetrics *m)
{
  /* Translators: diff legend caption at the "smaller" end of the scale */
  m->shrank = measure (self, _("shrank"), -1);
  /* Translators: diff legend caption at the "bigger" end of the scale */
  m->grew = measure (self, _("grew"), -1);
  m->desc = measure (self, desc, -1);
  m->text_height = self->text_height;
}

void
embers_render_measure_legend (EmbersRender *self,
                              cairo_t      *cr,
                              double       *width,
                              double       *height)
{
  g_autofree char *desc = NULL;
  LegendMetrics m;

  g_return_if_fail (self != NULL);

  ensure_pango (self, cr);
  desc = legend_description (&self->style);
  legend_metrics (self, desc, &m);

  if (width)
    *width = 2 * LEGEND_PAD + m.shrank + LEGEND_GAP + LEGEND_GRADIENT + LEGEND_GAP + m.grew +
             LEGEND_DESC_GAP + m.desc;
  if (height)
    *height = MAX (EMBERS_RENDER_LEGEND_HEIGHT, ceil (m.text_height) + 4);
}

static void
show_text_at (EmbersRender *self,
              cairo_t      *cr,
              const char   *text,
              double        x,
              double        y)
{
  pango_layout_set_text (self->pango_layout, text, -1);
  cairo_move_to (cr, x, y);
  pango_cairo_show_layout (cr, self->pango_layout);
}

void
embers_render_paint_legend (EmbersRender *self,
                            cairo_t      *cr,
                            double        x,
                            double        y,
                            double        width,
                            double        height)
{
  g_autofree char *desc = NULL;
  cairo_pattern_t *gradient;
  LegendMetrics m;
  double avail, bar_w, bar_h, tx, ty, gx, gy;
  gboolean show_desc;

  g_return_if_fail (self != NULL);
  g_return_if_fail (cr != NULL);

  if (!(width > 0) || !(height > 0))
    return;

  cairo_save (cr);
  cairo_rectangle (cr, x, y, width, height);
  cairo_clip (cr);

  ensure_pango (self, cr);
  desc = legend_description (&self->style);
  legend_metrics (self, desc, &m);

  /* The gradient gets its natural width, less when the box is narrow;
   * the description goes first when there is no room for it */
  avail = width - 2 * LEGEND_PAD - m.shrank - m.grew - 2 * LEGEND_GAP;
  show_desc = avail - LEGEND_DESC_GAP - m.desc >= LEGEND_GRADIENT_MIN;
  bar_w = MIN (LEGEND_GRADIENT, show_desc ? avail - LEGEND_DESC_GAP - m.desc : avail);
  bar_w = MAX (bar_w, MIN (LEGEND_GRADIENT_MIN, MAX (avail, 0.0)));
  bar_h = MIN (LEGEND_BAR_HEIGHT, height - 4);

  tx = x + LEGEND_PAD;
  ty = y + floor ((height - m.text_height) / 2.0);
  gx = round (tx + m.shrank + LEGEND_GAP);
  gy = round (y + (height - bar_h) / 2.0);

  set_source (cr, &self->style.foreground);
  show_text_at (self, cr, _("shrank"), tx, ty);

  /* good -> neutral -> bad: the diff scale is linear in RGB between its
   * stops, as cairo interpolates */
  gradient = cairo_pattern_create_linear (gx, 0, gx + bar_w, 0);
  for (guint stop = 0; stop < 3; stop++)
    {
      EmbersColor c;

      embers_palette_diff_stop (self->style.diff_palette, stop, &c);
      cairo_pattern_add_color_stop_rgb (gradient, stop / 2.0, c.red, c.green, c.blue);
    }
  cairo_set_source (cr, gradient);
  cairo_rectangle (cr, gx, gy, MAX (bar_w, 0.0), bar_h);
  cairo_fill (cr);
  cairo_pattern_destroy (gradient);

  set_source (cr, &self->style.foreground);
  show_text_at (self, cr, _("grew"), gx + bar_w + LEGEND_GAP, ty);
  if (show_desc)
    show_text_at (self, cr, desc, gx + bar_w + LEGEND_GAP + m.grew + LEGEND_DESC_GAP, ty);

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

/* Diff tooltips */

static char *
signed_value (gint64      diff,
              const char *unit)
{
  g_autofree char *abs_str = NULL;

  if (diff == 0)
    return embers_format_value (0, unit);
  /* |G_MININT64| does not exist: the value is a difference of two
   * non-negative totals, so this only guards against garbage */
  abs_str = embers_format_value (diff > 0 ? diff : diff == G_MININT64 ? G_MAXINT64 : -diff, unit);
  return g_strconcat (diff > 0 ? "+" : "\xe2\x88\x92", abs_str, NULL);
}

static char *
change_text (double         change,
             EmbersDiffKind kind)
{
  switch (kind)
    {
    case EMBERS_DIFF_KIND_NEW:
      return g_strdup (_("new"));
    case EMBERS_DIFF_KIND_REMOVED:
      return g_strdup (_("removed"));
    case EMBERS_DIFF_KIND_CHANGED:
    default:
      return embers_format_signed_percent (change / 100.0);
    }
}

/* The sampling period in the unit of the values, or 0 when samples cannot
 * be told from values (counts, no period, a period of another kind) */
static double
period_in_value_unit (EmbersProfile *diff)
{
  const char *unit = embers_profile_get_sample_unit (diff, EMBERS_DIFF_BASELINE);
  const char *period_unit = embers_profile_get_period_unit (diff);
  gint64 period = embers_profile_get_period (diff);
  gint64 unit_mult = 1, period_mult = 1;
  EmbersUnitKind kind = embers_unit_kind (unit, &unit_mult);

  if (kind == EMBERS_UNIT_KIND_COUNT || period <= 0 || period_unit == NULL || period_unit[0] == '\0' ||
      embers_unit_kind (period_unit, &period_mult) != kind)
    return 0.0;

  return (double)period * (double)period_mult / (double)unit_mult;
}

/* Cells of the diff table for baseline value l and comparison value r */
static GPtrArray *
diff_cells (EmbersProfile *diff,
            gint64         l,
            gint64         r)
{
  GPtrArray *cells = g_ptr_array_new_with_free_func (g_free);
  const char *unit = embers_profile_get_sample_unit (diff, EMBERS_DIFF_BASELINE);
  gint64 lt = embers_profile_get_total (diff, EMBERS_DIFF_BASELINE);
  gint64 rt = embers_profile_get_total (diff, EMBERS_DIFF_COMPARISON);
  double period = period_in_value_unit (diff);
  EmbersDiffKind kind;
  double share_change, abs_change;
  gint64 delta;

  share_change = embers_diff_share_change (l, lt, r, rt, &kind);
  abs_change = embers_diff_absolute_change (l, r, NULL);
  if (__builtin_sub_overflow (r, l, &delta))
    delta = r > l ? G_MAXINT64 : G_MININT64;

  g_ptr_array_add (cells, g_strdup (""));
  g_ptr_array_add (cells, g_strdup (_("Baseline")));
  g_ptr_array_add (cells, g_strdup (_("Comparison")));
  /* Translators: a column heading of the comparison tooltip: the change
   * from the baseline to the comparison */
  g_ptr_array_add (cells, g_strdup (_("Diff")));

  /* xgettext:no-c-format */
  g_ptr_array_add (cells, g_strdup (_("% of total")));
  g_ptr_array_add (cells, percent_of (l, lt));
  g_ptr_array_add (cells, percent_of (r, rt));
  g_ptr_array_add (cells, change_text (share_change, kind));

  /* Translators: row headers of the comparison tooltip table: value (e.g. CPU time) and sample count */
  g_ptr_array_add (cells, g_strdup (_("Value")));
  g_ptr_array_add (cells, embers_format_value (l, unit));
  g_ptr_array_add (cells, embers_format_value (r, unit));
  if (kind == EMBERS_DIFF_KIND_CHANGED && l != r)
    {
      g_autofree char *v = signed_value (delta, unit);
      g_autofree char *pct = embers_format_signed_percent (abs_change / 100.0);

      g_ptr_array_add (cells, g_strdup_printf ("%s (%s)", v, pct));
    }
  else
    g_ptr_array_add (cells, signed_value (delta, unit));

  if (period > 0)
    {
      gint64 ls = (gint64)llround ((double)l / period);
      gint64 rs = (gint64)llround ((double)r / period);

      g_ptr_array_add (cells, g_strdup (_("Samples")));
      g_ptr_array_add (cells, embers_format_value (ls, "count"));
      g_ptr_array_add (cells, embers_format_value (rs, "count"));
      g_ptr_array_add (cells, signed_value (rs - ls, "count"));
    }

  return cells;
}

char **
embers_render_diff_tooltip_cells (EmbersProfile *diff,
                                  guint32        node,
                                  guint         *n_rows)
{
  GPtrArray *cells;

  g_return_val_if_fail (EMBERS_IS_PROFILE (diff), NULL);
  g_return_val_if_fail (is_diff_profile (diff), NULL);
  g_return_val_if_fail (node < embers_profile_get_n_nodes (diff), NULL);

  cells = diff_cells (diff,
                      embers_profile_node_total (diff, EMBERS_DIFF_BASELINE, node),
                      embers_profile_node_total (diff, EMBERS_DIFF_COMPARISON, node));
  if (n_rows)
    *n_rows = cells->len / 4;
  g_ptr_array_add (cells, NULL);
  /* Hands over the strings with the segment */
  return (char **)g_ptr_array_free (cells, FALSE);
}

/* The table as text, columns padded with spaces to line up in monospace */
static void
append_table (GString   *s,
              GPtrArray *cells)
{
  guint n_rows = cells->len / 4;
  glong widths[4] = { 0, };

  for (guint i = 0; i < cells->len; i++)
    widths[i % 4] = MAX (widths[i % 4], g_utf8_strlen (g_ptr_array_index (cells, i), -1));

  for (guint row = 0; row < n_rows; row++)
    {
      GString *line = g_string_new (NULL);

      for (guint col = 0; col < 4; col++)
        {
          const char *cell = g_ptr_array_index (cells, row * 4 + col);

          g_string_append (line, cell);
          if (col < 3)
            for (glong pad = g_utf8_strlen (cell, -1); pad < widths[col] + 2; pad++)
              g_string_append_c (line, ' ');
        }
      /* The header's last cell is short: no trailing blanks */
      while (line->len > 0 && line->str[line->len - 1] == ' ')
        g_string_truncate (line, line->len - 1);
      g_string_append_c (s, '\n');
      g_string_append (s, line->str);
      g_string_free (line, TRUE);
    }
}

static char *
diff_tooltip_text (EmbersProfile *profile,
                   guint32        node)
{
  GString *s = g_string_new (embers_profile_node_name_str (profile, node));
  g_autoptr(GPtrArray) cells = NULL;

  cells = diff_cells (profile,
                      embers_profile_node_total (profile, EMBERS_DIFF_BASELINE, node),
                      embers_profile_node_total (profile, EMBERS_DIFF_COMPARISON, node));
  append_table (s, cells);
  append_location (s, profile, embers_profile_node_name (profile, node));

  return g_string_free (s, FALSE);
}

char *
embers_render_tooltip_text (EmbersProfile *profile,
                            guint          sample_type,
                            guint32        node,
                            guint32        focus_node)
{
  return embers_render_tooltip_text_of (profile, sample_type, node, focus_node, NULL);
}

char *
embers_render_tooltip_text_of (EmbersProfile *profile,
                               guint          sample_type,
                               guint32        node,
                               guint32        focus_node,
                               const char    *of_whole)
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

  if (of_whole == NULL)
    of_whole = _("of total");
  s = g_string_new (embers_profile_node_name_str (profile, node));

  /* Translators: "Total: 1.20 s (45.00% of total" */
  g_string_append_printf (s, "\n%s %s (%s %s", _("Total:"), total_str, total_pct, of_whole);
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
  g_string_append_printf (s, "\n%s %s (%s %s)", _("Self:"), self_str, self_pct, of_whole);
  append_location (s, profile, embers_profile_node_name (profile, node));

  return g_string_free (s, FALSE);
}

char *
embers_render_rect_tooltip_text (EmbersLayout     *layout,
                                 const EmbersRect *rect)
{
  return embers_render_rect_tooltip_text_of (layout, rect, NULL);
}

char *
embers_render_rect_tooltip_text_of (EmbersLayout     *layout,
                                    const EmbersRect *rect,
                                    const char       *of_whole)
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
    return embers_render_tooltip_text_of (profile, sample_type, rect->node,
                                          embers_layout_get_focus (layout), of_whole);

  count = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u small frame", "%u small frames", rect->n_nodes),
                           rect->n_nodes);

  if (is_diff_profile (profile))
    {
      const gint64 *lc = embers_profile_get_total_column (profile, EMBERS_DIFF_BASELINE);
      const gint64 *rc = embers_profile_get_total_column (profile, EMBERS_DIFF_COMPARISON);
      g_autoptr(GArray) nodes = embers_layout_rect_get_nodes (layout, rect);
      g_autoptr(GPtrArray) cells = NULL;
      gint64 l = 0, r = 0;
      GString *s;

      for (guint i = 0; i < nodes->len; i++)
        {
          guint32 node = g_array_index (nodes, guint32, i);

          if (__builtin_add_overflow (l, lc[node], &l))
            l = G_MAXINT64;
          if (__builtin_add_overflow (r, rc[node], &r))
            r = G_MAXINT64;
        }
      s = g_string_new (count);
      cells = diff_cells (profile, l, r);
          append_table (s, cells);
      g_string_append_printf (s, "\n%s", _("Zoom in to see them"));
      return g_string_free (s, FALSE);
    }

  total = embers_layout_rect_get_total (layout, rect);
  total_str = embers_format_value (total, embers_profile_get_sample_unit (profile, sample_type));
  total_pct = percent_of (total, embers_profile_get_total (profile, sample_type));

  return g_strdup_printf ("%s\n%s %s (%s %s)\n%s",
                          count, _("Total:"), total_str, total_pct, of_whole != NULL ? of_whole : _("of total"),
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

  if (is_diff_profile (profile))
    {
      const char *unit = embers_profile_get_sample_unit (profile, EMBERS_DIFF_BASELINE);
      gint64 l = embers_profile_node_total (profile, EMBERS_DIFF_BASELINE, node);
      gint64 r = embers_profile_node_total (profile, EMBERS_DIFF_COMPARISON, node);
      gint64 lt = embers_profile_get_total (profile, EMBERS_DIFF_BASELINE);
      gint64 rt = embers_profile_get_total (profile, EMBERS_DIFF_COMPARISON);
      g_autofree char *lv = embers_format_value (l, unit);
      g_autofree char *rv = embers_format_value (r, unit);
      g_autofree char *lp = percent_of (l, lt);
      g_autofree char *rp = percent_of (r, rt);
      g_autofree char *change = NULL;
      EmbersDiffKind kind;
      double d = embers_diff_share_change (l, lt, r, rt, &kind);

      change = change_text (d, kind);
      /* Translators: "main, change +42.0%, baseline 1.20 s (45.00% of total),
       * comparison 1.70 s (52.00% of total)" */
      return g_strdup_printf (_("%s, change %s, baseline %s (%s of total), comparison %s (%s of total)"),
                              embers_profile_node_name_str (profile, node), change, lv, lp, rv, rp);
    }

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
  options->x_start = 0;
  options->x_end = 1;
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
  g_autoptr(EmbersSave) save = NULL;
  cairo_surface_t *surface;
  cairo_t *cr;
  double width, height, scale, legend_height;
  gboolean ok, diff;

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
  vp.diff_width = options->diff_width;
  if (options->x_end > options->x_start && options->x_start >= 0 && options->x_end <= 1)
    {
      /* Exactly the zoomed part that is on screen */
      vp.x_start = options->x_start;
      vp.x_end = options->x_end;
    }
  layout = embers_layout_new (profile, sample_type, options->focus, &vp);
  diff = is_diff_profile (profile);

  if (options->search != NULL && options->search[0] != '\0')
    {
      search = embers_search_new (profile, options->search, options->search_flags, error);
      if (search == NULL)
        return FALSE;
    }

  render = embers_render_new (layout, search, &options->style);

  /* SVG: written by us, with text, titles and a script (embers-svg.c) */
  if (kind == EXPORT_SVG)
    {
      g_autoptr(GBytes) svg = embers_svg_write (&render, 1, width, 0, options->diff_width);

      save = embers_save_new (path, error);
      return save != NULL &&
             embers_save_write (save, g_bytes_get_data (svg, NULL), g_bytes_get_size (svg), error) &&
             embers_save_commit (save, NULL, error);
    }

  legend_height = 0;
  if (diff)
    embers_render_measure_legend (render, NULL, NULL, &legend_height);
  height = legend_height + MAX (embers_layout_get_height (layout), vp.row_height);
  if (kind == EXPORT_PNG && height * scale > PNG_MAX_SIZE)
    height = floor (PNG_MAX_SIZE / scale);   /* the deepest rows are cut */

  /* Into a temporary file next to @path, renamed over it once whole */
  save = embers_save_new (path, error);
  if (save == NULL)
    return FALSE;

  switch (kind)
    {
    case EXPORT_PNG:
      surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32,
                                            (int)ceil (width * scale), (int)ceil (height * scale));
      break;
    case EXPORT_PDF:
    default:
      surface = cairo_pdf_surface_create_for_stream (embers_save_cairo_write, save, width, height);
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
  if (legend_height > 0)
    {
      const EmbersColor *bg = &options->style.background;

      cairo_save (cr);
      cairo_rectangle (cr, 0, 0, width, legend_height);
      cairo_clip (cr);
      if (bg->alpha > 0)
        {
          set_source (cr, bg);
          cairo_paint (cr);
        }
      embers_render_paint_legend (render, cr, 0, 0, width, legend_height);
      cairo_restore (cr);
      cairo_translate (cr, 0, legend_height);
    }
  cairo_rectangle (cr, 0, 0, width, height - legend_height);
  cairo_clip (cr);
  embers_render_paint (render, cr);
  ok = embers_save_check (save, error) && cairo_check (cairo_status (cr), path, error);
  cairo_destroy (cr);

  if (ok && kind == EXPORT_PNG)
    {
      cairo_status_t status = cairo_surface_write_to_png_stream (surface, embers_save_cairo_write, save);

      /* A write error says why (the disk is full), cairo only that it failed */
      ok = embers_save_check (save, error) && cairo_check (status, path, error);
    }
  cairo_surface_finish (surface);
  if (ok)
    ok = embers_save_check (save, error) &&
         cairo_check (cairo_surface_status (surface), path, error);
  cairo_surface_destroy (surface);

  /* Only a whole file replaces @path */
  if (ok)
    ok = embers_save_commit (save, NULL, error);

  return ok;
}
