/* embers-drop-down.h: helpers for GtkDropDowns of strings
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* For a drop-down whose model holds GtkStringObjects: the chosen string
 * ellipsizes on the button (down to 8 characters, for a narrow window or
 * a long language) while its list shows every string whole */
void embers_drop_down_shorten_on_button (GtkDropDown *drop_down);

G_END_DECLS
