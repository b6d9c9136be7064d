/* embers-accessible.h: accessible names GTK does not give by itself
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* @widget's accessible label; for a drop-down also the toggle button
 * inside it, which is what takes the focus and what a screen reader
 * announces (GtkDropDown leaves it unnamed; tests/app/test-a11y.c checks) */
void embers_accessible_set_label     (GtkWidget  *widget,
                                      const char *label);

/* gtk_accessible_announce() where @widget's AT context implements it
 * (see embers-accessible.c): TRUE if the message was handed over */
gboolean embers_accessible_announce  (GtkWidget  *widget,
                                      const char *message);

G_END_DECLS
