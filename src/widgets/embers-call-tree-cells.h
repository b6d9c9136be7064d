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
/* A number's share, drawn right-aligned at the end of the cell (the
 * number ends where the widest share would start); NULL: none */
void        embers_call_tree_text_set_second (EmbersCallTreeText *self,
                                              const char         *second);
const char *embers_call_tree_text_get_second (EmbersCallTreeText *self);
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

G_BEGIN_DECLS

/*
 * EmbersCallTreeExpander: the name cell of a row: its indent, a triangle
 * that opens and closes it (a click), and its child (the name). Unlike
 * GtkTreeExpander, which makes a widget per level of indent (hundreds on
 * a deep stack, each time a row is bound), it draws the indent: one
 * widget at any depth. Deep rows stop moving right at a share of the
 * cell's width and show their level there instead. A screen reader gets
 * the row's level and its expanded state here.
 */
#define EMBERS_TYPE_CALL_TREE_EXPANDER (embers_call_tree_expander_get_type ())
G_DECLARE_FINAL_TYPE (EmbersCallTreeExpander, embers_call_tree_expander, EMBERS, CALL_TREE_EXPANDER, GtkWidget)

/* Pixels of indent per level */
#define EMBERS_CALL_TREE_INDENT 12

GtkWidget      *embers_call_tree_expander_new          (GtkWidget              *child);
GtkWidget      *embers_call_tree_expander_get_child    (EmbersCallTreeExpander *self);
void            embers_call_tree_expander_set_list_row (EmbersCallTreeExpander *self,
                                                        GtkTreeListRow         *row);
GtkTreeListRow *embers_call_tree_expander_get_list_row (EmbersCallTreeExpander *self);
/* A diff row's colour, a strip at the cell's start; NULL: none */
void            embers_call_tree_expander_set_mark     (EmbersCallTreeExpander *self,
                                                        const GdkRGBA          *color);
/* The indent drawn now, in pixels (for tests) */
int             embers_call_tree_expander_get_indent   (EmbersCallTreeExpander *self);

G_END_DECLS
