/* embers-accessible.c: accessible names GTK 4.8 does not give by itself
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "embers-accessible.h"

void
embers_accessible_set_label (GtkWidget  *widget,
                             const char *label)
{
  g_return_if_fail (GTK_IS_WIDGET (widget));
  g_return_if_fail (label != NULL);

  gtk_accessible_update_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);

  /* GTK 4.8's drop-down leaves its toggle button without a name */
  if (GTK_IS_DROP_DOWN (widget))
    for (GtkWidget *child = gtk_widget_get_first_child (widget);
         child != NULL;
         child = gtk_widget_get_next_sibling (child))
      if (GTK_IS_TOGGLE_BUTTON (child))
        gtk_accessible_update_property (GTK_ACCESSIBLE (child), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
}

#if !GTK_CHECK_VERSION (4, 14, 0)
static gboolean
has_mnemonic (GtkWidget *widget)
{
  const char *label = NULL;
  gboolean underline = FALSE;

  if (GTK_IS_BUTTON (widget))
    {
      label = gtk_button_get_label (GTK_BUTTON (widget));
      underline = gtk_button_get_use_underline (GTK_BUTTON (widget));
    }
  else if (GTK_IS_CHECK_BUTTON (widget))
    {
      label = gtk_check_button_get_label (GTK_CHECK_BUTTON (widget));
      underline = gtk_check_button_get_use_underline (GTK_CHECK_BUTTON (widget));
    }
  return underline && label != NULL && strchr (label, '_') != NULL;
}
#endif

void
embers_accessible_fix_mnemonics (GtkWidget *root)
{
  g_return_if_fail (GTK_IS_WIDGET (root));

#if !GTK_CHECK_VERSION (4, 14, 0)
  if (has_mnemonic (root))
    gtk_accessible_reset_property (GTK_ACCESSIBLE (root), GTK_ACCESSIBLE_PROPERTY_LABEL);

  /* GTK's and libadwaita's composite widgets keep their own parts */
  if (GTK_IS_DROP_DOWN (root) || GTK_IS_MENU_BUTTON (root) || GTK_IS_POPOVER (root))
    return;
  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    embers_accessible_fix_mnemonics (child);
#endif
}
