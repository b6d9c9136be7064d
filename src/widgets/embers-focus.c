/* embers-focus.c: lists and tables that are one Tab stop
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "embers-focus.h"

gboolean
embers_focus_is_tab_out_of (GtkWidget        *list,
                            GtkDirectionType  direction)
{
  GtkRoot *root;
  GtkWidget *focus;

  g_return_val_if_fail (GTK_IS_WIDGET (list), FALSE);

  if (direction != GTK_DIR_TAB_FORWARD && direction != GTK_DIR_TAB_BACKWARD)
    return FALSE;
  root = gtk_widget_get_root (list);
  focus = root != NULL ? gtk_root_get_focus (root) : NULL;
  return focus != NULL && (focus == list || gtk_widget_is_ancestor (focus, list));
}
