/* embers-render.h: the flame graph painter (cairo + pango)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <cairo.h>

#include "embers-diff.h"
#include "embers-diff-stats.h"
#include "embers-layout.h"
#include "embers-palette.h"
#include "embers-search.h"

G_BEGIN_DECLS

/**
 * EmbersRenderStyle:
 * @scheme: how frames are coloured (ignored for diff profiles, which are
 *   always coloured by their change, see @diff_mode)
 * @diff_palette: red/blue (default, colour-blind safe) or red/green
 * @diff_mode: for diff profiles: colour and label by the change of each
 *   frame's share of its side's total (default) or of its absolute value
 * @dark: dark theme: package colours as is; light theme: brightened by 15
 * @background: painted under the graph (alpha 0: nothing is painted)
 * @foreground: the theme's text colour, used for muted narrow bars and
 *   the merged-block tint
 * @accent: outline of the selected frame
 * @font: a Pango font description, e.g. "Monospace 9" (NULL: "Monospace"
 *   at @font_size px)
 * @font_size: px, default 12 (used when @font has no size)
 * @label_min_width: frames at least this wide get a label (default 20)
 * @text_padding: px left of a label (default 4)
 * @border: px of gap between adjacent frames (default 0.5)
 * @high_contrast: the high-contrast style: a search outlines its matches in
 *   @foreground and keeps the other frames' labels fully legible
 */
typedef struct
{
  EmbersColorScheme scheme;
  EmbersDiffPalette diff_palette;
  EmbersDiffMode    diff_mode;
  gboolean          dark;
  EmbersColor       background;
  EmbersColor       foreground;
  EmbersColor       accent;
  const char       *font;
  double            font_size;
  double            label_min_width;
  double            text_padding;
  double            border;
  gboolean          high_contrast;
} EmbersRenderStyle;

/* Defaults for a light or dark theme (background white / #242424) */
void embers_render_style_init (EmbersRenderStyle *style,
                               gboolean           dark);

typedef enum
{
  EMBERS_RENDER_ITEM_NONE    = 0,
  EMBERS_RENDER_ITEM_MATCH   = 1 << 0,  /* search match (or a merged block containing one) */
  EMBERS_RENDER_ITEM_DIMMED  = 1 << 1,  /* a search is active and this is no match */
  EMBERS_RENDER_ITEM_LABEL   = 1 << 2,  /* gets a text label */
  EMBERS_RENDER_ITEM_BORDER  = 1 << 3,  /* drawn with a gap to its neighbours */
} EmbersRenderItemFlags;

/**
 * EmbersRenderItem:
 * @rect: index into the layout's rects
 * @fill: fill colour, final (ancestor lightening, dimming applied)
 * @text: label colour, chosen for contrast with @fill
 * @flags: #EmbersRenderItemFlags
 *
 * One entry of the display list; one per layout rect, same order.
 */
typedef struct
{
  guint       rect;
  EmbersColor fill;
  EmbersColor text;
  guint       flags;
} EmbersRenderItem;

typedef enum
{
  EMBERS_HIGHLIGHT_HOVER,     /* thin outline in the foreground colour */
  EMBERS_HIGHLIGHT_SELECTED,  /* thicker outline in the accent colour */
} EmbersHighlight;

/*
 * EmbersRender: a display list built from a layout (colours, labels,
 * flags) and the one cairo painter that the live widget
 * (gtk_snapshot_append_cairo), the PNG/SVG/PDF export and the benchmark
 * share. It keeps one PangoLayout and caches text widths per frame name,
 * so keep one EmbersRender per view and swap its layout/search/style.
 * Use from one thread at a time (normally the main thread).
 */
typedef struct _EmbersRender EmbersRender;

#define EMBERS_TYPE_RENDER (embers_render_get_type ())

GType                 embers_render_get_type      (void) G_GNUC_CONST;

/* style NULL: embers_render_style_init (FALSE). layout and search may be NULL. */
EmbersRender         *embers_render_new           (EmbersLayout            *layout,
                                                   EmbersSearch            *search,
                                                   const EmbersRenderStyle *style);
EmbersRender         *embers_render_ref           (EmbersRender            *self);
void                  embers_render_unref         (EmbersRender            *self);

/* Setters rebuild the display list lazily (on the next paint or get) */
void                  embers_render_set_layout    (EmbersRender            *self,
                                                   EmbersLayout            *layout);
EmbersLayout         *embers_render_get_layout    (EmbersRender            *self);
void                  embers_render_set_search    (EmbersRender            *self,
                                                   EmbersSearch            *search);
EmbersSearch         *embers_render_get_search    (EmbersRender            *self);
/* A diff's noise test (embers_diff_stats_node_verdicts() for @diff, one
 * per node; copied; NULL clears): with @hide_noise, frames whose change
 * is within the noise are drawn in the palette's neutral colour and their
 * labels carry no change. Frames that could not be tested
 * (EMBERS_CHANGE_NOT_ENOUGH_STEPS) keep their colour: nothing is claimed. */
void                  embers_render_set_noise     (EmbersRender            *self,
                                                   EmbersProfile           *diff,
                                                   const EmbersChangeVerdict *verdicts,
                                                   gboolean                 hide_noise);
/* Whether @node of @profile is drawn neutral as noise */
gboolean              embers_render_node_is_noise (EmbersRender            *self,
                                                   EmbersProfile           *profile,
                                                   guint32                  node);
void                  embers_render_set_style     (EmbersRender            *self,
                                                   const EmbersRenderStyle *style);
const EmbersRenderStyle *embers_render_get_style  (EmbersRender            *self);

const EmbersRenderItem *embers_render_get_items   (EmbersRender            *self,
                                                   guint                   *n_items);

/**
 * embers_render_paint:
 * @cr: the target, in layout coordinates (px; translate/scale it first)
 *
 * Paints the background and every rect (fill, border, ellipsized label)
 * that intersects the clip of @cr, so a scrolled or partial repaint only
 * costs the visible rows.
 *
 * Diff profiles: fills from the frame's change (style diff_mode, clamped
 * to +-100 %, through the diff palette; new frames as +100, removed ones as
 * -100), and labels carry the change in words where it fits after the
 * name: "net/http.(*Client).Do  +42%", "parse  new", "old  removed"
 * (embers_render_diff_change_text()); unchanged frames get no suffix.
 */
void                  embers_render_paint         (EmbersRender            *self,
                                                   cairo_t                 *cr);
/* Hover / selection outline of one rect, painted on top of a cached
 * embers_render_paint() */
void                  embers_render_paint_highlight (EmbersRender          *self,
                                                   cairo_t                 *cr,
                                                   int                      rect,
                                                   EmbersHighlight          kind);

/* The outline embers_render_paint_highlight() draws, for a painter of
 * its own (GSK border nodes): the frame's box as painted, snapped to
 * device pixels at @scale with the layout moved down by @y_offset (the
 * box is in layout coordinates), the line's width and colour. FALSE when
 * there is no such frame. */
gboolean              embers_render_get_highlight   (EmbersRender          *self,
                                                   int                    rect,
                                                   EmbersHighlight        kind,
                                                   double                 scale,
                                                   double                 y_offset,
                                                   double                *x,
                                                   double                *y,
                                                   double                *width,
                                                   double                *height,
                                                   double                *line_width,
                                                   EmbersColor           *color);

/* Recommended height of the diff legend strip, px */
#define EMBERS_RENDER_LEGEND_HEIGHT 24.0

/**
 * embers_render_paint_legend:
 * @x: @y: @width: @height: the box to paint in, px (height
 *   %EMBERS_RENDER_LEGEND_HEIGHT is right for the default font)
 *
 * Paints the diff legend into the box, left-aligned and vertically
 * centred: "shrank" [good → neutral → bad gradient] "grew", then the
 * palette and mode ("red/blue · change of share of total"), dropped when
 * the box is too narrow. Uses the style's palette, mode, font and
 * foreground colour; paints no background. The export paints it above a
 * diff flame graph; a widget paints it wherever it shows the legend.
 */
void                  embers_render_paint_legend  (EmbersRender            *self,
                                                   cairo_t                 *cr,
                                                   double                   x,
                                                   double                   y,
                                                   double                   width,
                                                   double                   height);
/* The legend's natural width and height in px (everything shown). @cr may
 * be NULL (then the font options of a default context are used). */
void                  embers_render_measure_legend (EmbersRender           *self,
                                                   cairo_t                 *cr,
                                                   double                  *width,
                                                   double                  *height);

/**
 * embers_render_diff_change_text:
 * @diff: a diff profile
 * @mode: share or absolute change
 *
 * The change a diff label shows after the name: "+42%", "−3.5%" (one
 * decimal under 10 %), "new", "removed" (translated), or NULL when the
 * frame is unchanged (|change| < 0.05 %).
 */
char                 *embers_render_diff_change_text (EmbersProfile        *diff,
                                                   guint32                  node,
                                                   EmbersDiffMode           mode);

/**
 * embers_render_diff_tooltip_cells:
 * @diff: a diff profile
 * @n_rows: (out): rows, including the header row
 *
 * The diff tooltip as a table of n_rows x 4 cells, row by row:
 *   ""             "Baseline"  "Comparison"  "Diff"
 *   "% of total"   "20.00%"    "40.0%"       "+100.0%" (change of share,
 *                                             or "new" / "removed")
 *   "Value"        "200 ms"    "400 ms"      "+200 ms (+100.0%)"
 *   "Samples"      "20"        "40"          "+20"
 * The Samples row only when the values are times or sizes and the profile
 * has a sampling period of the same kind (samples = value / period, from
 * the comparison's period). Free with g_strfreev.
 */
char                **embers_render_diff_tooltip_cells (EmbersProfile      *diff,
                                                   guint32                  node,
                                                   guint                   *n_rows);

/**
 * embers_render_tooltip_text:
 * @focus_node: the zoom root (0 or EMBERS_NODE_NONE for the root)
 *
 * Plain text, one fact per line:
 *   name
 *   Total: 1.20 s (45.00% of total, 90.0% of focus)
 *   Self: 300 ms (11.25% of total)
 *   file.go:42
 * The "of focus" part only when a frame other than the root is focused,
 * the location only when known.
 *
 * Diff profiles (sample_type and focus ignored): the name, the table of
 * embers_render_diff_tooltip_cells() with columns padded by spaces (aligned
 * in a monospace font), then the location:
 *   name
 *                Baseline  Comparison  Diff
 *   % of total   20.00%    40.0%       +100.0%
 *   Value        200 ms    400 ms      +200 ms (+100.0%)
 */
char                 *embers_render_tooltip_text  (EmbersProfile           *profile,
                                                   guint                    sample_type,
                                                   guint32                  node,
                                                   guint32                  focus_node);
/* The same with the shares said of another whole than the profile's
 * total (a sandwich's halves: "of the function"); NULL for "of total" */
char                 *embers_render_tooltip_text_of (EmbersProfile         *profile,
                                                   guint                    sample_type,
                                                   guint32                  node,
                                                   guint32                  focus_node,
                                                   const char              *of_whole);
/* Tooltip of a layout rect: the frame's tooltip, or for a merged block
 * "N small frames" with their summed total (for a diff: the table of
 * their summed baseline and comparison) */
char                 *embers_render_rect_tooltip_text (EmbersLayout        *layout,
                                                   const EmbersRect        *rect);
char                 *embers_render_rect_tooltip_text_of (EmbersLayout     *layout,
                                                   const EmbersRect        *rect,
                                                   const char              *of_whole);
/* One line for screen readers: "main, total 1.20 s, 45.00% of total".
 * Diff profiles: "main, change +42.0%, baseline 1.20 s (45.00% of total),
 * comparison 1.70 s (52.00% of total)" (change of share; "new",
 * "removed") */
char                 *embers_render_accessible_text (EmbersProfile         *profile,
                                                   guint                    sample_type,
                                                   guint32                  node);

/**
 * EmbersExportOptions:
 * @width: px, default 1200
 * @scale: device scale for PNG (2 for a HiDPI-sharp image), default 1
 * @focus: zoom root, default 0
 * @direction: icicle (default) or flame
 * @style: colours and font
 * @search: (nullable): highlight frames matching this pattern
 * @search_flags: how @search matches
 * @diff_width: for a diff profile, which columns give the widths (default
 *   baseline + comparison, as Pyroscope draws them)
 *
 * Diff profiles also use @style's diff_palette and diff_mode.
 */
typedef struct
{
  double                width;
  double                scale;
  guint32               focus;
  EmbersLayoutDirection direction;
  EmbersRenderStyle     style;
  const char           *search;
  EmbersSearchFlags     search_flags;
  EmbersDiffWidth       diff_width;
  double                x_start;  /* the visible part of the focused frame, 0..1 */
  double                x_end;    /* (free zoom); 0, 0 or 0, 1 for all of it */
} EmbersExportOptions;

void                  embers_export_options_init  (EmbersExportOptions     *options);

/**
 * embers_render_export:
 * @options: (nullable): NULL for the defaults
 * @path: output file; the extension picks the surface: .png, .svg, .pdf
 *
 * Renders the whole flame graph (all rows) headless. An unknown extension
 * gives EMBERS_PROFILE_ERROR_UNSUPPORTED; a write failure a G_IO_ERROR.
 *
 * A diff profile (embers_profile_is_diff()) is drawn as a diff whatever
 * @sample_type is (any valid column, e.g. %EMBERS_DIFF_COMPARISON): widths
 * by options->diff_width, colours and labels by the style's diff palette
 * and mode, with the legend strip (embers_render_paint_legend(),
 * %EMBERS_RENDER_LEGEND_HEIGHT px) above the graph. An SVG of a diff also
 * carries the legend as text in its <title> and <desc>, since cairo draws
 * text as glyph outlines.
 */
gboolean              embers_render_export        (EmbersProfile             *profile,
                                                   guint                      sample_type,
                                                   const EmbersExportOptions *options,
                                                   const char                *path,
                                                   GError                   **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EmbersRender, embers_render_unref)

G_END_DECLS
