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
 * name is the tooltip and the accessible label.
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

G_END_DECLS
