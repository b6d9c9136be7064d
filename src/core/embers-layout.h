/* embers-layout.h: flame graph geometry for one viewport
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "embers-profile.h"

G_BEGIN_DECLS

/**
 * EmbersLayoutDirection:
 * @EMBERS_LAYOUT_ICICLE: root row at the top, callees below (top-down, the
 *   Pyroscope/Grafana default)
 * @EMBERS_LAYOUT_FLAME: root row at the bottom, callees above (classic
 *   flame graph). Rows and rects are the same; only y is mirrored.
 */
typedef enum
{
  EMBERS_LAYOUT_ICICLE,
  EMBERS_LAYOUT_FLAME,
} EmbersLayoutDirection;

/**
 * EmbersDiffWidth:
 * @EMBERS_DIFF_WIDTH_SUM: baseline total + comparison total (Pyroscope's
 *   rule; the default): a frame that grew and one that shrank by the same
 *   amount get the same width, so the two sides are compared on one scale
 * @EMBERS_DIFF_WIDTH_COMPARISON: the comparison's totals only (frames
 *   removed in the comparison are not drawn)
 * @EMBERS_DIFF_WIDTH_BASELINE: the baseline's totals only (new frames are
 *   not drawn)
 *
 * Which value columns of a diff profile (embers_profile_is_diff()) give the
 * bar widths. Ignored for other profiles.
 */
typedef enum
{
  EMBERS_DIFF_WIDTH_SUM,
  EMBERS_DIFF_WIDTH_COMPARISON,
  EMBERS_DIFF_WIDTH_BASELINE,
} EmbersDiffWidth;

#define EMBERS_LAYOUT_ROW_HEIGHT 22.0
#define EMBERS_LAYOUT_MIN_WIDTH  1.0

/**
 * EmbersViewport:
 * @x_start: left edge of the visible range, as a fraction of the focused
 *   node's width (0 = its left edge). Free zoom/pan: [x_start, x_end] is
 *   stretched to the full @width; the default is [0, 1].
 * @x_end: right edge, > @x_start
 * @width: width of the drawing area in px (device-independent px)
 * @row_height: px per row, default %EMBERS_LAYOUT_ROW_HEIGHT
 * @min_width: level of detail: runs of adjacent siblings each narrower than
 *   this many px are merged into one block (default %EMBERS_LAYOUT_MIN_WIDTH)
 * @direction: icicle (root on top) or flame (root at the bottom)
 * @diff_width: for a diff profile, which columns give the widths (default
 *   %EMBERS_DIFF_WIDTH_SUM, which is 0, so a zeroed viewport gets it too)
 */
typedef struct
{
  double                x_start;
  double                x_end;
  double                width;
  double                row_height;
  double                min_width;
  EmbersLayoutDirection direction;
  EmbersDiffWidth       diff_width;
} EmbersViewport;

/* Fills the defaults: [0, 1], row height 22, min width 1, icicle, diff
 * widths baseline + comparison */
void embers_viewport_init (EmbersViewport *viewport,
                           double          width);

typedef enum
{
  EMBERS_RECT_NONE     = 0,
  /* A level-of-detail block: a run of adjacent sibling frames, each
   * narrower than min_width, drawn as one rect covering their total width.
   * Its subtrees are not laid out. node is the first sibling, n_nodes how
   * many siblings, [node, node_end) the DFS range of all of them. */
  EMBERS_RECT_MERGED   = 1 << 0,
  /* An ancestor of the focused node: drawn full width above it (paint it
   * lighter / at reduced alpha) */
  EMBERS_RECT_ANCESTOR = 1 << 1,
  /* The focused node (zoom root) */
  EMBERS_RECT_FOCUS    = 1 << 2,
  /* Wide enough to carry a text label (>= 20 px wide, not merged).
   * The text and its ellipsis are the painter's job. */
  EMBERS_RECT_LABEL    = 1 << 3,
  /* Cut at the left or right edge of the viewport (zoomed in) */
  EMBERS_RECT_CLIPPED  = 1 << 4,
} EmbersRectFlags;

/**
 * EmbersRect:
 * @x: left edge in px from the viewport's left, clipped to [0, width]
 * @width: in px, clipped to the viewport (> 0)
 * @node: the frame (for a merged block: its first sibling)
 * @node_end: end of the DFS range covered: embers_profile_node_end (node)
 *   for a frame; the end of the last sibling's subtree for a merged block
 * @n_nodes: 1, or the number of siblings a merged block covers
 * @row: depth of the node (0 = root); the y position follows from the row,
 *   the row height and the direction (embers_layout_rect_y())
 * @flags: #EmbersRectFlags
 *
 * Rects are sorted by (row, x). Within a row they never overlap, and
 * (because the tree is in DFS pre-order) they are also sorted by node.
 */
typedef struct
{
  double  x;
  double  width;
  guint32 node;
  guint32 node_end;
  guint32 n_nodes;
  guint32 row;
  guint32 flags;
} EmbersRect;

typedef enum
{
  EMBERS_NEIGHBOR_PARENT,    /* the rect of the parent frame */
  EMBERS_NEIGHBOR_CHILD,     /* the WIDEST child (follows the hot path);
                              * a merged block only when there is nothing
                              * else below */
  EMBERS_NEIGHBOR_PREVIOUS,  /* the nearest rect to the left in the same
                              * row (may have another parent), skipping
                              * merged blocks */
  EMBERS_NEIGHBOR_NEXT,      /* same, to the right */
} EmbersNeighbor;

/*
 * EmbersLayout: an immutable flat array of rects for one profile, sample
 * type, focus and viewport. Computing it is linear in the number of VISIBLE
 * frames plus the siblings of visible frames; narrow frames are merged, so
 * the rect count stays near width / min_width per row whatever the profile
 * size. It only reads the profile, so it can be computed on a worker
 * thread and handed to the main thread. Reference counted.
 *
 * Bar widths are node totals in @sample_type. Frames with a zero total are
 * skipped. Children start at the parent's left edge, in the profile's
 * (name) order; the parent's self value is the gap at the right.
 *
 * Diff profiles (embers_profile_is_diff(): column 0 baseline, column 1
 * comparison) ignore @sample_type: the widths are the columns the
 * viewport's diff_width picks, by default baseline + comparison, so a
 * node's "width value" (embers_layout_node_value()) is the sum of its two
 * totals. Everything else (level of detail, hit testing, neighbours, focus,
 * zoom) works on that value unchanged.
 */
typedef struct _EmbersLayout EmbersLayout;

#define EMBERS_TYPE_LAYOUT (embers_layout_get_type ())

GType             embers_layout_get_type        (void) G_GNUC_CONST;

/**
 * embers_layout_new:
 * @profile: the profile (a reference is kept)
 * @sample_type: the value column for widths (ignored for a diff profile,
 *   see above)
 * @focus: the zoom root, or 0 / EMBERS_NODE_NONE for the root. Its
 *   ancestors are laid out full width in the rows above it (flag
 *   ANCESTOR); the focus and its subtree span [x_start, x_end].
 * @viewport: (nullable): the viewport; NULL means embers_viewport_init
 *   with a width of 1000 px
 */
EmbersLayout     *embers_layout_new             (EmbersProfile        *profile,
                                                 guint                 sample_type,
                                                 guint32               focus,
                                                 const EmbersViewport *viewport);
/* Lays out @profile once, unzoomed and wide, for what a layout keeps in
 * the profile: the lists of children of frames that have many (1024 or
 * more). Later layouts read those lists instead of walking the siblings,
 * which costs a cache miss per child (about 90 ms for the 875,000
 * children of s2m's top frames). For a thread that makes a profile
 * before a window shows it. */
void              embers_layout_prepare         (EmbersProfile        *profile,
                                                 guint                 sample_type);
EmbersLayout     *embers_layout_ref             (EmbersLayout         *self);
void              embers_layout_unref           (EmbersLayout         *self);

EmbersProfile    *embers_layout_get_profile     (EmbersLayout         *self);
guint             embers_layout_get_sample_type (EmbersLayout         *self);
guint32           embers_layout_get_focus       (EmbersLayout         *self);
const EmbersViewport *embers_layout_get_viewport (EmbersLayout        *self);
/* Total of the focused node: the value of the full viewport width */
gint64            embers_layout_get_focus_total (EmbersLayout         *self);
/* TRUE when the profile is a diff profile (two columns drawn as one) */
gboolean          embers_layout_is_diff         (EmbersLayout         *self);
/* The width mode in effect (the viewport's, %EMBERS_DIFF_WIDTH_SUM for
 * profiles that are not diffs) */
EmbersDiffWidth   embers_layout_get_diff_width  (EmbersLayout         *self);
/* The value a node's bar width stands for: its total in the sample type,
 * or for a diff the total(s) the width mode picks (saturating sum) */
gint64            embers_layout_node_value      (EmbersLayout         *self,
                                                 guint32               node);

const EmbersRect *embers_layout_get_rects       (EmbersLayout         *self,
                                                 guint                *n_rects);
guint             embers_layout_get_n_rects     (EmbersLayout         *self);
const EmbersRect *embers_layout_get_rect        (EmbersLayout         *self,
                                                 guint                 index);
/* Number of rows with rects (deepest row + 1) */
guint             embers_layout_get_n_rows      (EmbersLayout         *self);
/* n_rows * row_height: the height to request */
double            embers_layout_get_height      (EmbersLayout         *self);
/* The rects of one row are [*first, *first + return value) */
guint             embers_layout_get_row         (EmbersLayout         *self,
                                                 guint                 row,
                                                 guint                *first);
/* Top edge of a row / rect in px (depends on the direction) */
double            embers_layout_row_y           (EmbersLayout         *self,
                                                 guint                 row);
double            embers_layout_rect_y          (EmbersLayout         *self,
                                                 const EmbersRect     *rect);
/* The row drawn at y px, or -1 outside */
int               embers_layout_row_at_y        (EmbersLayout         *self,
                                                 double                y);

/* The rect under (x, y) in px, or -1 (gaps, parents' self area, below or
 * above the graph). O(log n): binary search in the row. */
int               embers_layout_hit_test        (EmbersLayout         *self,
                                                 double                x,
                                                 double                y);
/* The rect showing @node: its own rect, or the merged block that covers it
 * when it is a sibling inside a block; -1 when the node is not laid out
 * (off screen, zero, or inside a merged block's subtree). O(log n). */
int               embers_layout_find_node       (EmbersLayout         *self,
                                                 guint32               node);
/* Keyboard navigation from rect @index; -1 when there is no such rect.
 * Map arrow keys by direction: in an icicle, Down = CHILD, Up = PARENT;
 * in a flame graph the other way around. */
int               embers_layout_get_neighbor    (EmbersLayout         *self,
                                                 int                   index,
                                                 EmbersNeighbor        which);
/* Node ids covered by a rect (1 for a frame, n_nodes siblings for a
 * merged block), in order; free with g_array_unref */
GArray           *embers_layout_rect_get_nodes  (EmbersLayout         *self,
                                                 const EmbersRect     *rect);
/* Sum of the width values (embers_layout_node_value()) covered by the
 * rect: totals in the layout's sample type, or for a diff the columns of
 * the width mode */
gint64            embers_layout_rect_get_total  (EmbersLayout         *self,
                                                 const EmbersRect     *rect);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EmbersLayout, embers_layout_unref)

G_END_DECLS
