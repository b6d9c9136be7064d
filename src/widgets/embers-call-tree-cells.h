/* embers-call-tree-cells.h: the call tree view's cells, light widgets that
 * draw their own text and bar (no label widgets, no tooltip set per row)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "embers-palette.h"

G_BEGIN_DECLS

/*
 * EmbersCallTreeText: one line of text drawn with a layout it keeps. A
 * name cuts itself to its width (the package path first, as the name
 * label) and says the whole name in its tooltip, asked for only when the
 * pointer rests on it; a number is right-aligned. Setting the same text
 * again costs nothing; a new text of the same width is only redrawn.
 */
#define EMBERS_TYPE_CALL_TREE_TEXT (embers_call_tree_text_get_type ())
G_DECLARE_FINAL_TYPE (EmbersCallTreeText, embers_call_tree_text, EMBERS, CALL_TREE_TEXT, GtkWidget)

GtkWidget  *embers_call_tree_text_new      (gboolean            is_name);
void        embers_call_tree_text_set_text (EmbersCallTreeText *self,
                                            const char         *text);
const char *embers_call_tree_text_get_text (EmbersCallTreeText *self);
/* What is drawn at the current width */
const char *embers_call_tree_text_get_shown_text (EmbersCallTreeText *self);

/*
 * EmbersCallTreeBar: a row's total as a share of the root's, its self
 * part darker; in a diff, one colour for the row's change (the diff
 * palette, as the diff flame graph) over the larger of its two shares.
 */
#define EMBERS_TYPE_CALL_TREE_BAR (embers_call_tree_bar_get_type ())
G_DECLARE_FINAL_TYPE (EmbersCallTreeBar, embers_call_tree_bar, EMBERS, CALL_TREE_BAR, GtkWidget)

void embers_call_tree_bar_set      (EmbersCallTreeBar *self,
                                    double             total,
                                    double             self_share);
/* A diff row: its length, and its colour (an EmbersColor, as GdkRGBA) */
void embers_call_tree_bar_set_diff (EmbersCallTreeBar  *self,
                                    double              share,
                                    const EmbersColor  *color);

G_END_DECLS
