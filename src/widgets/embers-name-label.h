/* embers-name-label.h: a function name that keeps its function name
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define EMBERS_TYPE_NAME_LABEL (embers_name_label_get_type ())

G_DECLARE_FINAL_TYPE (EmbersNameLabel, embers_name_label, EMBERS, NAME_LABEL, GtkWidget)

/*
 * A one-line label for a function name in a table cell. Where the name
 * does not fit its width it is cut  by embers_text_shorten_name(): the
 * package path goes first, the function name last
 * ("…syntax.(*compiler).compile", never "regexp/… ompile"). The whole
 * name is the accessible label, and the tooltip when the pointer rests
 * on it (worked out then: a bound label sets no tooltip text).
 */
GtkWidget  *embers_name_label_new            (void);
void        embers_name_label_set_text       (EmbersNameLabel *self,
                                              const char      *text);
const char *embers_name_label_get_text       (EmbersNameLabel *self);
const char *embers_name_label_get_shown_text (EmbersNameLabel *self);
/* The fewest characters' width it asks for (34 by default, a typical
 * name); a tree, whose deep rows are indented, asks for fewer */
void        embers_name_label_set_min_chars  (EmbersNameLabel *self,
                                              int              min_chars);

/*
 * EmbersNameText: what a name label and the call tree's text cells share,
 * kept inside the widget that draws it. The text is shaped once per text
 * and font (a row measured or bound out of sight shapes nothing); a name
 * that does not fit is cut by embers_text_shorten_name() at its width;
 * its accessible label is the whole text; and the whole name is its
 * tooltip, worked out only when the pointer rests on it
 * (GtkWidget::query-tooltip): setting a tooltip's text at every bind asks
 * the display server where the pointer is, a round trip per row.
 */
typedef struct
{
  GtkWidget            *widget;       /* the owner, not a reference */
  gboolean              is_name;      /* cut to fit, and a tooltip */
  char                 *text;
  char                 *shown;        /* a name cut to shown_width, or NULL */
  int                   shown_width;
  PangoLayout          *layout;       /* the whole text, shaped once */
  PangoLayout          *cut_layout;   /* a cut name: the candidates, then shown */
  PangoFontDescription *font;
  int                   text_width;   /* of the whole text, -1 unknown */
  int                   text_height;
  int                   baseline;
} EmbersNameText;

/* A font's sizes, kept per font for all cells: a line's height and
 * baseline, an approximate character's width (in pixels, and in Pango
 * units), the room of the widest share ("100.00%" and a gap) and the
 * width of "…" in Pango units */
typedef struct
{
  int height;
  int baseline;
  int char_width;
  int char_units;
  int share_room;
  int ellipsis;
} EmbersFontSizes;

const EmbersFontSizes *embers_font_sizes (GtkWidget *widget);

void         embers_name_text_init          (EmbersNameText *nt,
                                             GtkWidget      *widget,
                                             gboolean        is_name);
void         embers_name_text_clear         (EmbersNameText *nt);
/* FALSE when it is the same text */
gboolean     embers_name_text_set_text      (EmbersNameText *nt,
                                             const char     *text);
/* The whole text's size in pixels */
void         embers_name_text_get_size      (EmbersNameText *nt,
                                             int            *width,
                                             int            *height,
                                             int            *baseline);
/* What is drawn at @width px (the whole text where it fits), and the
 * layout that holds it */
const char  *embers_name_text_get_shown     (EmbersNameText *nt,
                                             int             width);
PangoLayout *embers_name_text_get_layout    (EmbersNameText *nt,
                                             int             width);
/* In css_changed: TRUE when the font changed (the layouts are dropped and
 * a new size is asked for); colours alone change nothing */
gboolean     embers_name_text_css_changed   (EmbersNameText *nt);
/* In query_tooltip: the whole name, for a name */
gboolean     embers_name_text_query_tooltip (EmbersNameText *nt,
                                             GtkTooltip     *tooltip);

G_END_DECLS
