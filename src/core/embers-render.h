/* embers-render.h: the flame graph painter (cairo + pango)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <cairo.h>

#include "embers-layout.h"
#include "embers-palette.h"
#include "embers-search.h"

G_BEGIN_DECLS

/**
 * EmbersRenderStyle:
 * @scheme: how frames are coloured (ignored for diff profiles, which are
 *   always coloured by the change of their share)
 * @diff_palette: red/blue (default) or red/green
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
 */
typedef struct
{
  EmbersColorScheme scheme;
  EmbersDiffPalette diff_palette;
  gboolean          dark;
  EmbersColor       background;
  EmbersColor       foreground;
  EmbersColor       accent;
  const char       *font;
  double            font_size;
  double            label_min_width;
  double            text_padding;
  double            border;
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
 */
void                  embers_render_paint         (EmbersRender            *self,
                                                   cairo_t                 *cr);
/* Hover / selection outline of one rect, painted on top of a cached
 * embers_render_paint() */
void                  embers_render_paint_highlight (EmbersRender          *self,
                                                   cairo_t                 *cr,
                                                   int                      rect,
                                                   EmbersHighlight          kind);

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
 * the location only when known. Diff profiles show the baseline,
 * comparison and change of share instead (issue 5 extends this).
 */
char                 *embers_render_tooltip_text  (EmbersProfile           *profile,
                                                   guint                    sample_type,
                                                   guint32                  node,
                                                   guint32                  focus_node);
/* Tooltip of a layout rect: the frame's tooltip, or for a merged block
 * "N small frames" with their summed total */
char                 *embers_render_rect_tooltip_text (EmbersLayout        *layout,
                                                   const EmbersRect        *rect);
/* One line for screen readers: "main, total 1.20 s, 45.00% of total" */
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
} EmbersExportOptions;

void                  embers_export_options_init  (EmbersExportOptions     *options);

/**
 * embers_render_export:
 * @options: (nullable): NULL for the defaults
 * @path: output file; the extension picks the surface: .png, .svg, .pdf
 *
 * Renders the whole flame graph (all rows) headless. An unknown extension
 * gives EMBERS_PROFILE_ERROR_UNSUPPORTED; a write failure a G_IO_ERROR.
 */
gboolean              embers_render_export        (EmbersProfile             *profile,
                                                   guint                      sample_type,
                                                   const EmbersExportOptions *options,
                                                   const char                *path,
                                                   GError                   **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EmbersRender, embers_render_unref)

G_END_DECLS
