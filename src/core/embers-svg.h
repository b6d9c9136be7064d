/* embers-svg.h: a flame graph as an interactive SVG document
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "embers-render.h"

G_BEGIN_DECLS

/**
 * embers_svg_write:
 * @renders: (array length=n_renders): the flame graphs, drawn one below the
 *   other (each with its layout, search and style)
 * @width: the document's width in px
 * @gap: px between two graphs
 * @diff_width: what the widths of a diff graph are (told in its legend)
 *
 * Writes the SVG ourselves, from the same display list the painter draws:
 * one <g class="f"> per rect with a <title> (the tooltip: name, value,
 * share), a <rect> and a <text> clipped to the box (a nested <svg>), fonts
 * named generically (monospace, sans-serif). Merged blocks of sub-pixel
 * frames stay merged, so the size is linear in the visible rects. A diff
 * graph carries its legend (gradient, words, the palette and mode) above
 * it and in the <desc>. Names are escaped as --top escapes them, then for
 * XML, so a hostile name is text, never markup.
 *
 * A small script makes the file alone an interactive flame graph in a
 * browser: click a frame to zoom to it (its ancestors stay full width),
 * click the root or "Reset zoom" to go back, "Search" (or Ctrl+F) to
 * highlight a regular expression and see the matches' share of the total.
 * Without scripts the file is the same picture, statically.
 *
 * Returns: (transfer full): the document, UTF-8
 */
GBytes *embers_svg_write (EmbersRender * const *renders,
                          guint                 n_renders,
                          double                width,
                          double                gap,
                          EmbersDiffWidth       diff_width);

G_END_DECLS
