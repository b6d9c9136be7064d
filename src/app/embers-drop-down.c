/* embers-drop-down.c: helpers for GtkDropDowns of strings
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "embers-drop-down.h"

static void
setup_label (GtkSignalListItemFactory *factory,
             GtkListItem              *item,
             gpointer                  ellipsize)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  if (ellipsize != NULL)
    {
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
      gtk_label_set_width_chars (GTK_LABEL (label), 8);
    }
  gtk_list_item_set_child (item, label);
}

static void
bind_label (GtkSignalListItemFactory *factory,
            GtkListItem              *item,
            gpointer                  data)
{
  GtkStringObject *string = gtk_list_item_get_item (item);

  gtk_label_set_label (GTK_LABEL (gtk_list_item_get_child (item)),
                       string != NULL ? gtk_string_object_get_string (string) : "");
}

static GtkListItemFactory *
label_factory (gboolean ellipsize)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();

  g_signal_connect (factory, "setup", G_CALLBACK (setup_label), GINT_TO_POINTER (ellipsize));
  g_signal_connect (factory, "bind", G_CALLBACK (bind_label), NULL);
  return factory;
}

void
embers_drop_down_shorten_on_button (GtkDropDown *drop_down)
{
  g_autoptr(GtkListItemFactory) ellipsizing = label_factory (TRUE);
  g_autoptr(GtkListItemFactory) plain = label_factory (FALSE);

  g_return_if_fail (GTK_IS_DROP_DOWN (drop_down));

  gtk_drop_down_set_factory (drop_down, ellipsizing);
  gtk_drop_down_set_list_factory (drop_down, plain);
}
