/* embers-palette.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n.h>

#include "embers-palette.h"

void
embers_color_init_rgb8 (EmbersColor *color,
                        guint8       r,
                        guint8       g,
                        guint8       b)
{
  color->red = r / 255.f;
  color->green = g / 255.f;
  color->blue = b / 255.f;
  color->alpha = 1.f;
}

static inline guint8
channel_to_8 (float c)
{
  double v = round (CLAMP ((double)c, 0.0, 1.0) * 255.0);

  return (guint8)v;
}

void
embers_color_to_rgb8 (const EmbersColor *color,
                      guint8            *r,
                      guint8            *g,
                      guint8            *b)
{
  if (r)
    *r = channel_to_8 (color->red);
  if (g)
    *g = channel_to_8 (color->green);
  if (b)
    *b = channel_to_8 (color->blue);
}

void
embers_color_lighten (EmbersColor *color,
                      double       amount)
{
  float d = (float)(amount / 255.0);

  color->red = CLAMP (color->red + d, 0.f, 1.f);
  color->green = CLAMP (color->green + d, 0.f, 1.f);
  color->blue = CLAMP (color->blue + d, 0.f, 1.f);
}

void
embers_color_mix (EmbersColor       *color,
                  const EmbersColor *other,
                  double             t)
{
  float ft = (float)CLAMP (t, 0.0, 1.0);

  color->red += (other->red - color->red) * ft;
  color->green += (other->green - color->green) * ft;
  color->blue += (other->blue - color->blue) * ft;
  color->alpha += (other->alpha - color->alpha) * ft;
}

static double
linear_channel (float c)
{
  double v = CLAMP ((double)c, 0.0, 1.0);

  return v <= 0.03928 ? v / 12.92 : pow ((v + 0.055) / 1.055, 2.4);
}

double
embers_color_luminance (const EmbersColor *color)
{
  return 0.2126 * linear_channel (color->red)
       + 0.7152 * linear_channel (color->green)
       + 0.0722 * linear_channel (color->blue);
}

void
embers_color_contrast_text (const EmbersColor *background,
                            EmbersColor       *text)
{
  double l = embers_color_luminance (background);
  /* WCAG contrast ratios against black (L=0) and white (L=1) */
  double with_black = (l + 0.05) / 0.05;
  double with_white = 1.05 / (l + 0.05);

  if (with_black >= with_white)
    embers_color_init_rgb8 (text, 0, 0, 0);
  else
    embers_color_init_rgb8 (text, 255, 255, 255);
}

static double
hue_to_channel (double p,
                double q,
                double t)
{
  if (t < 0)
    t += 1;
  if (t > 1)
    t -= 1;
  if (t < 1.0 / 6)
    return p + (q - p) * 6 * t;
  if (t < 1.0 / 2)
    return q;
  if (t < 2.0 / 3)
    return p + (q - p) * (2.0 / 3 - t) * 6;
  return p;
}

void
embers_color_init_hsl (EmbersColor *color,
                       double       h,
                       double       s,
                       double       l)
{
  double q, p, hh;

  h = fmod (h, 360.0);
  if (h < 0)
    h += 360.0;
  hh = h / 360.0;
  s = CLAMP (s, 0.0, 1.0);
  l = CLAMP (l, 0.0, 1.0);

  color->alpha = 1.f;
  if (s == 0)
    {
      color->red = color->green = color->blue = (float)l;
      return;
    }

  q = l < 0.5 ? l * (1 + s) : l + s - l * s;
  p = 2 * l - q;
  color->red = (float)hue_to_channel (p, q, hh + 1.0 / 3);
  color->green = (float)hue_to_channel (p, q, hh);
  color->blue = (float)hue_to_channel (p, q, hh - 1.0 / 3);
}

/* murmur3, x86_32 variant, written from the published algorithm */
static inline guint32
rotl32 (guint32 x,
        int     r)
{
  return (x << r) | (x >> (32 - r));
}

guint32
embers_palette_hash (const char *data,
                     gsize       len)
{
  const guint8 *bytes = (const guint8 *)data;
  const guint32 c1 = 0xcc9e2d51;
  const guint32 c2 = 0x1b873593;
  guint32 h = 0;
  gsize n_blocks = len / 4;
  const guint8 *tail;
  guint32 k = 0;

  for (gsize i = 0; i < n_blocks; i++)
    {
      guint32 b = (guint32)bytes[i * 4]
                | (guint32)bytes[i * 4 + 1] << 8
                | (guint32)bytes[i * 4 + 2] << 16
                | (guint32)bytes[i * 4 + 3] << 24;

      b *= c1;
      b = rotl32 (b, 15);
      b *= c2;
      h ^= b;
      h = rotl32 (h, 13);
      h = h * 5 + 0xe6546b64;
    }

  tail = bytes + n_blocks * 4;
  switch (len & 3)
    {
    case 3:
      k ^= (guint32)tail[2] << 16;
      G_GNUC_FALLTHROUGH;
    case 2:
      k ^= (guint32)tail[1] << 8;
      G_GNUC_FALLTHROUGH;
    case 1:
      k ^= tail[0];
      k *= c1;
      k = rotl32 (k, 15);
      k *= c2;
      h ^= k;
      break;
    default:
      break;
    }

  h ^= (guint32)len;
  h ^= h >> 16;
  h *= 0x85ebca6b;
  h ^= h >> 13;
  h *= 0xc2b2ae35;
  h ^= h >> 16;

  return h;
}

/* Index of "::" at bracket depth 0, or -1 */
static gssize
find_scope_separator (const char *name)
{
  int depth = 0;

  for (gssize i = 0; name[i] != '\0'; i++)
    {
      char c = name[i];

      if (c == '<' || c == '(' || c == '[')
        depth++;
      else if ((c == '>' || c == ')' || c == ']') && depth > 0)
        depth--;
      else if (c == ':' && name[i + 1] == ':' && depth == 0 && i > 0)
        return i;
    }

  return -1;
}

static const char *
python_package (const char *name,
                gsize      *len)
{
  const char *p = name;

  while ((p = strstr (p, ".py")) != NULL)
    {
      char after = p[3];

      if (after == ':' || after == '\0' || after == ' ' || after == ')')
        {
          const char *start = p;

          /* The file starts after the last space or '(' before it */
          while (start > name && start[-1] != ' ' && start[-1] != '(')
            start--;
          *len = (gsize)(p + 3 - start);
          return start;
        }
      p += 3;
    }

  return NULL;
}

const char *
embers_palette_package (const char *name,
                        gsize      *len)
{
  gssize scope;
  const char *slash;
  const char *py;
  const char *dot;
  gsize name_len;

  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (len != NULL, NULL);

  name_len = strlen (name);

  /* [kernel.kallsyms], [unknown]: the whole name */
  if (name[0] == '[')
    {
      *len = name_len;
      return name;
    }

  /* Python: module.py:func */
  if ((py = python_package (name, len)) != NULL)
    return py;

  /* C++ / Rust: std::vector<int>::push_back -> std */
  scope = find_scope_separator (name);
  if (scope > 0)
    {
      *len = (gsize)scope;
      return name;
    }

  /* Go with an import path: net/http.(*Client).Do -> net/http */
  slash = strrchr (name, '/');
  if (slash != NULL && (dot = strchr (slash, '.')) != NULL && dot > slash + 1)
    {
      *len = (gsize)(dot - name);
      return name;
    }

  /* Dotted: Java keeps the lowercase segments before the first class
   * (java.util.HashMap.get -> java.util); Go keeps the first segment
   * (runtime.mallocgc -> runtime, sync.(*Mutex).Lock -> sync). */
  dot = strchr (name, '.');
  if (dot != NULL && dot > name)
    {
      const char *seg = name;
      const char *last_lower_end = NULL;

      while (seg < name + name_len)
        {
          const char *end = strchr (seg, '.');

          if (end == NULL)
            break;
          if (g_ascii_isupper (*seg))
            {
              if (last_lower_end != NULL)
                {
                  *len = (gsize)(last_lower_end - name);
                  return name;
                }
              break;
            }
          if (!g_ascii_islower (*seg) && *seg != '_')
            break;
          last_lower_end = end;
          seg = end + 1;
        }

      *len = (gsize)(dot - name);
      return name;
    }

  *len = name_len;
  return name;
}

/* A warm palette of 24 distinguishable reds, oranges and yellows */
static const guint8 warm_palette[EMBERS_PALETTE_N_COLORS][3] = {
  { 215,  70,  50 }, { 230, 110,  50 }, { 240, 150,  60 }, { 225,  95,  70 },
  { 250, 180,  80 }, { 200,  80,  60 }, { 235, 130,  40 }, { 245, 200,  90 },
  { 210, 105,  45 }, { 225, 160,  75 }, { 240,  90,  60 }, { 195, 120,  60 },
  { 250, 165,  50 }, { 220,  60,  45 }, { 235, 185, 110 }, { 205, 140,  70 },
  { 245, 120,  80 }, { 215, 175,  60 }, { 230,  75,  75 }, { 240, 140, 100 },
  { 200,  95,  40 }, { 250, 210, 120 }, { 220, 130,  55 }, { 235, 100,  95 },
};

void
embers_palette_get_color (guint        index,
                          EmbersColor *color)
{
  const guint8 *c = warm_palette[index % EMBERS_PALETTE_N_COLORS];

  embers_color_init_rgb8 (color, c[0], c[1], c[2]);
}

void
embers_palette_package_color (const char  *name,
                              gboolean     dark,
                              EmbersColor *color)
{
  const char *package;
  gsize len;

  package = embers_palette_package (name != NULL ? name : "", &len);
  embers_palette_get_color (embers_palette_hash (package, len) % EMBERS_PALETTE_N_COLORS, color);
  if (!dark)
    embers_color_lighten (color, 15);
}

void
embers_palette_value_color (double       fraction,
                            EmbersColor *color)
{
  double i = isnan (fraction) ? 0.0 : CLAMP (fraction, 0.0, 1.0);

  embers_color_init_hsl (color, 50 - 50 * i, 1.0, (65 + 7 * i) / 100.0);
}

double
embers_palette_diff_change (double left_share,
                            double right_share)
{
  double d;

  if (left_share == right_share)
    return 0.0;
  if (left_share <= 0.0)
    return 100.0;

  d = (right_share - left_share) / left_share * 100.0;
  if (isnan (d))
    return 0.0;

  return CLAMP (d, -100.0, 100.0);
}

static const guint8 diff_stops[2][3][3] = {
  /* EMBERS_DIFF_PALETTE_RED_BLUE */
  { { 26, 133, 255 }, { 148, 142, 142 }, { 220, 50, 32 } },
  /* EMBERS_DIFF_PALETTE_RED_GREEN */
  { { 0, 170, 0 }, { 148, 142, 142 }, { 200, 0, 0 } },
};

void
embers_palette_diff_stop (EmbersDiffPalette  palette,
                          guint              stop,
                          EmbersColor       *color)
{
  const guint8 *c;

  if ((guint)palette > EMBERS_DIFF_PALETTE_RED_GREEN)
    palette = EMBERS_DIFF_PALETTE_RED_BLUE;
  c = diff_stops[palette][MIN (stop, 2u)];
  embers_color_init_rgb8 (color, c[0], c[1], c[2]);
}

void
embers_palette_diff_scale (double             change,
                           EmbersDiffPalette  palette,
                           EmbersColor       *color)
{
  EmbersColor from, to;
  double t;

  if (isnan (change))
    change = 0.0;
  change = CLAMP (change, -100.0, 100.0);

  if (change < 0)
    {
      embers_palette_diff_stop (palette, 0, &from);
      embers_palette_diff_stop (palette, 1, &to);
      t = (change + 100.0) / 100.0;
    }
  else
    {
      embers_palette_diff_stop (palette, 1, &from);
      embers_palette_diff_stop (palette, 2, &to);
      t = change / 100.0;
    }

  *color = from;
  embers_color_mix (color, &to, t);
}

void
embers_palette_diff_color (double             left_share,
                           double             right_share,
                           EmbersDiffPalette  palette,
                           EmbersColor       *color)
{
  embers_palette_diff_scale (embers_palette_diff_change (left_share, right_share), palette, color);
}

const char *
embers_palette_diff_name (EmbersDiffPalette palette)
{
  switch (palette)
    {
    case EMBERS_DIFF_PALETTE_RED_GREEN:
      /* Translators: the diff palette from green (shrank) to red (grew) */
      return _("red/green");
    case EMBERS_DIFF_PALETTE_RED_BLUE:
    default:
      /* Translators: the colour-blind safe diff palette, blue (shrank) to red (grew) */
      return _("red/blue");
    }
}
