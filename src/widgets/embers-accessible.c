/* embers-accessible.c: accessible names GTK does not give by itself
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "embers-accessible.h"

void
embers_accessible_set_label (GtkWidget  *widget,
                             const char *label)
{
  g_return_if_fail (GTK_IS_WIDGET (widget));
  g_return_if_fail (label != NULL);

  gtk_accessible_update_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);

  if (GTK_IS_DROP_DOWN (widget))
    for (GtkWidget *child = gtk_widget_get_first_child (widget);
         child != NULL;
         child = gtk_widget_get_next_sibling (child))
      if (GTK_IS_TOGGLE_BUTTON (child))
        gtk_accessible_update_property (GTK_ACCESSIBLE (child), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
}

/*
 * gtk_accessible_announce() hands the message to the widget's AT context
 * (gtk_at_context_announce in gtk/gtkatcontext.c), which calls its class's
 * announce vfunc without a check once the context is realized. The base
 * class gives that vfunc no default (its class_init sets every other one),
 * and GTK's test context, GtkTestATContext (GTK_A11Y=test,
 * gtk/gtktestatcontext.c), does not set it: the call jumps to NULL. It
 * crashes so on GTK 4.18 and still on 4.24 (tests/app/test-fill.c shows
 * it in a subprocess). The AT-SPI context implements it; a context that
 * is not realized ignores the call. So announce unless the widget's
 * context is the test one.
 */
gboolean
embers_accessible_announce (GtkWidget  *widget,
                            const char *message)
{
  g_autoptr(GtkATContext) context = NULL;
  GType test_type;

  g_return_val_if_fail (GTK_IS_WIDGET (widget), FALSE);

  if (message == NULL || message[0] == '\0')
    return FALSE;
  context = gtk_accessible_get_at_context (GTK_ACCESSIBLE (widget));
  if (context == NULL)
    return FALSE;
  test_type = g_type_from_name ("GtkTestATContext");
  if (test_type != 0 && g_type_is_a (G_OBJECT_TYPE (context), test_type))
    return FALSE;
  gtk_accessible_announce (GTK_ACCESSIBLE (widget), message, GTK_ACCESSIBLE_ANNOUNCEMENT_PRIORITY_MEDIUM);
  return TRUE;
}
