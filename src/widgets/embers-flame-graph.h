/* embers-flame-graph.h: the interactive flame graph
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "embers-diff-stats.h"

#include "embers-layout.h"
#include "embers-render.h"
#include "embers-search.h"

G_BEGIN_DECLS

#define EMBERS_TYPE_FLAME_GRAPH (embers_flame_graph_get_type ())

G_DECLARE_FINAL_TYPE (EmbersFlameGraph, embers_flame_graph, EMBERS, FLAME_GRAPH, GtkWidget)

/*
 * EmbersFlameGraph paints the core layout of one profile with the core
 * painter. It is a GtkScrollable: put it in a GtkScrolledWindow. The
 * vertical adjustment scrolls the rows; the horizontal one is the free
 * zoom (its page is the visible part of the focused frame's width).
 *
 * Requests it cannot serve itself go up the widget tree as actions with
 * the frame's name as a string parameter: "page.sandwich",
 * "page.focus-function", "page.merge-function", "page.drop-function",
 * "page.collapse-package", "page.collapse-function-recursion"; with the
 * selected call node's path, "page.transform" ("(sas)": "hide" or
 * "focus-subtree" and the names from the root's child down); and without
 * a parameter "page.invert" and "page.search".
 */

GtkWidget            *embers_flame_graph_new                 (void);

EmbersProfile        *embers_flame_graph_get_profile         (EmbersFlameGraph      *self);
/* Resets focus, selection, zoom and history */
void                  embers_flame_graph_set_profile         (EmbersFlameGraph      *self,
                                                              EmbersProfile         *profile);
/* What the tooltip's shares are of: NULL for "of total"; a sandwich's
 * halves say "of the function" (their root is the function) */
void                  embers_flame_graph_set_share_of        (EmbersFlameGraph      *self,
                                                              const char            *share_of);
const char           *embers_flame_graph_get_share_of        (EmbersFlameGraph      *self);
/* The tooltip's text for the frame at x, y (widget px); NULL for none */
char                 *embers_flame_graph_dup_tooltip_at      (EmbersFlameGraph      *self,
                                                              double                 x,
                                                              double                 y);
guint                 embers_flame_graph_get_sample_type     (EmbersFlameGraph      *self);
void                  embers_flame_graph_set_sample_type     (EmbersFlameGraph      *self,
                                                              guint                  sample_type);
EmbersLayoutDirection embers_flame_graph_get_direction       (EmbersFlameGraph      *self);
void                  embers_flame_graph_set_direction       (EmbersFlameGraph      *self,
                                                              EmbersLayoutDirection  direction);
EmbersColorScheme     embers_flame_graph_get_color_scheme    (EmbersFlameGraph      *self);
void                  embers_flame_graph_set_color_scheme    (EmbersFlameGraph      *self,
                                                              EmbersColorScheme      scheme);
/* Diff profiles: palette, what the colours show, which columns give the
 * widths (properties "diff-palette", "diff-mode", "diff-width") */
EmbersDiffPalette     embers_flame_graph_get_diff_palette    (EmbersFlameGraph      *self);
void                  embers_flame_graph_set_diff_palette    (EmbersFlameGraph      *self,
                                                              EmbersDiffPalette      palette);
EmbersDiffMode        embers_flame_graph_get_diff_mode       (EmbersFlameGraph      *self);
void                  embers_flame_graph_set_diff_mode       (EmbersFlameGraph      *self,
                                                              EmbersDiffMode         mode);
EmbersDiffWidth       embers_flame_graph_get_diff_width      (EmbersFlameGraph      *self);
void                  embers_flame_graph_set_diff_width      (EmbersFlameGraph      *self,
                                                              EmbersDiffWidth        width);
/* A search over the same profile (others are ignored), or NULL */
EmbersSearch         *embers_flame_graph_get_search          (EmbersFlameGraph      *self);
void                  embers_flame_graph_set_search          (EmbersFlameGraph      *self,
                                                              EmbersSearch          *search);

/* The zoom root. Setting it records the previous one in the history. */
guint32               embers_flame_graph_get_focus_node      (EmbersFlameGraph      *self);
void                  embers_flame_graph_set_focus_node      (EmbersFlameGraph      *self,
                                                              guint32                node);
gboolean              embers_flame_graph_get_can_go_back     (EmbersFlameGraph      *self);
gboolean              embers_flame_graph_get_can_go_forward  (EmbersFlameGraph      *self);
void                  embers_flame_graph_go_back             (EmbersFlameGraph      *self);
void                  embers_flame_graph_go_forward          (EmbersFlameGraph      *self);
/* Focus on the root and zoom out */
void                  embers_flame_graph_reset               (EmbersFlameGraph      *self);

/* Free zoom around a point of the visible width (0..1) */
void                  embers_flame_graph_zoom                (EmbersFlameGraph      *self,
                                                              double                 factor,
                                                              double                 anchor);
void                  embers_flame_graph_get_visible_range   (EmbersFlameGraph      *self,
                                                              double                *x_start,
                                                              double                *x_end);

/* The selected frame (keyboard, click, search match), or EMBERS_NODE_NONE */
guint32               embers_flame_graph_get_selected_node   (EmbersFlameGraph      *self);
void                  embers_flame_graph_set_selected_node   (EmbersFlameGraph      *self,
                                                              guint32                node);
/* Selects @node and makes it visible: focuses an ancestor when the node
 * is not laid out in the current focus or zoom, scrolls to its row. */
void                  embers_flame_graph_reveal_node         (EmbersFlameGraph      *self,
                                                              guint32                node);
/* The frame under the pointer, or EMBERS_NODE_NONE */
guint32               embers_flame_graph_get_hover_node      (EmbersFlameGraph      *self);

/* Frames with this function name get an outline (the top table's row) */
const char           *embers_flame_graph_get_highlight_name  (EmbersFlameGraph      *self);
void                  embers_flame_graph_set_highlight_name  (EmbersFlameGraph      *self,
                                                              const char            *name);

/* The current layout (NULL before the first allocation) */
EmbersLayout         *embers_flame_graph_get_layout          (EmbersFlameGraph      *self);
/* The display list the widget paints (colours and flags per rect of
 * embers_flame_graph_get_layout()) */
EmbersRender         *embers_flame_graph_get_render          (EmbersFlameGraph      *self);
/* Where @node's frame is drawn, in widget coordinates (scroll position
 * included); FALSE when it is not laid out */
gboolean              embers_flame_graph_get_node_area       (EmbersFlameGraph      *self,
                                                              guint32                node,
                                                              graphene_rect_t       *area);
/* Whether the painted graph is cached (it is after a paint, until data,
 * size, scroll position or style change) */
gboolean              embers_flame_graph_has_paint_cache     (EmbersFlameGraph      *self);
/* Export options for what is on screen: width, focus, direction, colours,
 * search. options->search points into the widget's search. */
void                  embers_flame_graph_get_export_options  (EmbersFlameGraph      *self,
                                                              EmbersExportOptions   *options);
/* What a click at (x, y) in widget coordinates does: select and focus the
 * frame there, or zoom into a block of small frames. FALSE when nothing
 * is there. */
gboolean              embers_flame_graph_activate_at         (EmbersFlameGraph      *self,
                                                              double                 x,
                                                              double                 y);
/* Moves the selection like the arrow keys do */
gboolean              embers_flame_graph_move_selection      (EmbersFlameGraph      *self,
                                                              EmbersNeighbor         which);

/* A diff's noise test (NULL: none): with @hide_noise, changes within the
 * noise are drawn neutral; the tooltip says each frame's change with its
 * interval and steps (embers_diff_stats_node_describe()) */
void             embers_flame_graph_set_noise     (EmbersFlameGraph *self,
                                                   EmbersDiffStats  *noise,
                                                   gboolean          hide_noise);
EmbersDiffStats *embers_flame_graph_get_noise     (EmbersFlameGraph *self);
/* Whether @node is drawn neutral as noise */
gboolean         embers_flame_graph_node_is_noise (EmbersFlameGraph *self,
                                                   guint32           node);

G_END_DECLS
