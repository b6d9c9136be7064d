/* embers-accessible.h: accessible names GTK 4.8 does not give by itself
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* @widget's accessible label; for a drop-down also the button inside it,
 * which is what takes the focus and what a screen reader announces */
void embers_accessible_set_label     (GtkWidget  *widget,
                                      const char *label);

/* GTK before 4.14 gives a button, toggle button or check button with a
 * mnemonic the raw label ("_Open…") as its accessible label, which a
 * screen reader reads before the visible label it is also labelled by
 * ("_Open… Open…"). This drops that raw label from each one in @root's
 * subtree, leaving the visible label as the name. A mnemonic button
 * therefore gets no accessible label of its own in a template. */
void embers_accessible_fix_mnemonics (GtkWidget  *root);

G_END_DECLS
