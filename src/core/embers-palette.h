/* embers-palette.h: flame graph colours
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * EmbersColor:
 *
 * An RGBA colour with channels in 0..1. Same memory layout as GdkRGBA
 * (four floats, red first), so a widget may cast a pointer to it.
 */
typedef struct
{
  float red;
  float green;
  float blue;
  float alpha;
} EmbersColor;

typedef enum
{
  EMBERS_COLOR_SCHEME_PACKAGE,  /* default: hash of the package name */
  EMBERS_COLOR_SCHEME_VALUE,    /* warm by share of the focused frame */
  EMBERS_COLOR_SCHEME_PLAIN,    /* one colour */
} EmbersColorScheme;

typedef enum
{
  EMBERS_DIFF_PALETTE_RED_BLUE,   /* default, colour-blind safe: blue shrank, red grew */
  EMBERS_DIFF_PALETTE_RED_GREEN,  /* green shrank, red grew */
} EmbersDiffPalette;

/* Number of colours in the package palette */
#define EMBERS_PALETTE_N_COLORS 24

/* Helpers. Channels given in 0..255. */
void        embers_color_init_rgb8        (EmbersColor *color,
                                           guint8       r,
                                           guint8       g,
                                           guint8       b);
/* Rounds each channel to 0..255 */
void        embers_color_to_rgb8          (const EmbersColor *color,
                                           guint8      *r,
                                           guint8      *g,
                                           guint8      *b);
/* Adds amount (0..255 scale, e.g. 15) to each channel, clamped */
void        embers_color_lighten          (EmbersColor *color,
                                           double       amount);
/* Mixes color toward other by t in 0..1 */
void        embers_color_mix              (EmbersColor       *color,
                                           const EmbersColor *other,
                                           double             t);
/* WCAG relative luminance, 0..1 */
double      embers_color_luminance        (const EmbersColor *color);
/* Black or white, whichever contrasts more with background */
void        embers_color_contrast_text    (const EmbersColor *background,
                                           EmbersColor       *text);
/* h in degrees, s and l in 0..1 */
void        embers_color_init_hsl         (EmbersColor *color,
                                           double       h,
                                           double       s,
                                           double       l);

/* 32-bit murmur3 (x86_32 variant, seed 0) of len bytes. Stable across
 * runs and machines, so a package keeps its colour. */
guint32     embers_palette_hash           (const char  *data,
                                           gsize        len);

/**
 * embers_palette_package:
 * @name: a frame name
 * @len: (out): length in bytes of the package, a prefix of @name
 *
 * The package part of a frame name, as a prefix of @name (no allocation):
 *  - Go `net/http.(*Client).Do` -> `net/http`, `main.main` -> `main`,
 *    `github.com/x/y.F` -> `github.com/x/y`
 *  - Java `java.util.HashMap.get` -> `java.util` (lowercase segments
 *    before the first capitalised one)
 *  - C++/Rust `std::vector<int>::push_back` -> `std`, `core::ptr::drop` ->
 *    `core`
 *  - Python `module.py:func` or `path/module.py:12 - func` -> the file part
 *  - `[kernel.kallsyms]`, plain C names and anything else -> the whole name
 */
const char *embers_palette_package        (const char  *name,
                                           gsize       *len);

/* Colour of a frame by its package: hash into a 24-colour warm palette;
 * on a light theme (dark == FALSE) each channel is brightened by 15. */
void        embers_palette_package_color  (const char  *name,
                                           gboolean     dark,
                                           EmbersColor *color);
/* Entry i (mod 24) of the package palette, as on a dark theme */
void        embers_palette_get_color      (guint        index,
                                           EmbersColor *color);

/* By value: HSL(50 - 50i, 100%, 65 + 7i %), i = CLAMP (fraction, 0, 1),
 * where fraction = total / focused total (share of the visible width). */
void        embers_palette_value_color    (double       fraction,
                                           EmbersColor *color);

/**
 * embers_palette_diff_change:
 * @left_share: the frame's share of the baseline total (any scale, e.g. 0..1)
 * @right_share: its share of the comparison total (same scale)
 *
 * The colour input for diffs, with OG's rules: equal shares give 0, a frame
 * absent from the baseline (left_share == 0) gives +100, otherwise
 * d = (right - left) / left * 100 clamped to -100..+100.
 */
double      embers_palette_diff_change    (double       left_share,
                                           double       right_share);
/* Maps d in -100..100 (clamped) linearly through good / neutral / bad:
 *   red/blue:  rgb(26,133,255) · rgb(148,142,142) · rgb(220,50,32)
 *   red/green: rgb(0,170,0)    · rgb(148,142,142) · rgb(200,0,0) */
void        embers_palette_diff_scale     (double             change,
                                           EmbersDiffPalette  palette,
                                           EmbersColor       *color);
/* embers_palette_diff_scale (embers_palette_diff_change (l, r), ...) */
void        embers_palette_diff_color     (double             left_share,
                                           double             right_share,
                                           EmbersDiffPalette  palette,
                                           EmbersColor       *color);
/* The three stops of a diff palette (for the legend); stop 0 good,
 * 1 neutral, 2 bad. */
void        embers_palette_diff_stop      (EmbersDiffPalette  palette,
                                           guint              stop,
                                           EmbersColor       *color);

/* "red/blue" or "red/green", translated, for legends and menus */
const char *embers_palette_diff_name      (EmbersDiffPalette  palette);

G_END_DECLS
