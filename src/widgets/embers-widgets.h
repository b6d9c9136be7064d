/* embers-widgets.h: the widgets library
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Registers the library's resource (its templates) once; each widget
 * class with a template calls it before setting the template, so that the
 * library needs nothing of the program that links it */
void embers_widgets_ensure_resources (void);

void embers_drop_down_replace_strings (GtkDropDown        *drop_down,
                                       GtkStringList      *list,
                                       const char * const *strings,
                                       guint               pick);

G_END_DECLS
