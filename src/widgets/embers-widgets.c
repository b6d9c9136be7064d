/* embers-widgets.c: the widgets library
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gtk/gtk.h>

#include "embers-widgets.h"
#include "embers-widgets-resources.h"

void
embers_widgets_ensure_resources (void)
{
  static gsize registered = 0;

  if (g_once_init_enter (&registered))
    {
      embers_widgets_register_resource ();
      g_once_init_leave (&registered, 1);
    }
}

/* Puts @strings in @list (the model of @drop_down) and selects @pick
 * (GTK_INVALID_LIST_POSITION: nothing, where the list is empty), so that
 * the selected item changes at most once, straight to the one picked: a
 * splice of the whole list would first select whatever lands at the old
 * position (the drop-down's selection picks one itself), and a listener
 * of notify::selected would act on that passing choice.
 *
 * The picked string goes in first, before the old items (the selected
 * one moves but stays selected), and is selected; the rest of @strings
 * then go around it and the old items out. */
void
embers_drop_down_replace_strings (GtkDropDown        *drop_down,
                                  GtkStringList      *list,
                                  const char * const *strings,
                                  guint               pick)
{
  guint n_old = g_list_model_get_n_items (G_LIST_MODEL (list));
  guint n = strings != NULL ? g_strv_length ((char **) strings) : 0;
  const char *picked[2] = { NULL, NULL };
  g_autofree char **before = NULL;

  g_return_if_fail (GTK_IS_DROP_DOWN (drop_down));
  g_return_if_fail (GTK_IS_STRING_LIST (list));

  if (n == 0 || pick >= n)
    {
      if (n == 0)
        {
          gtk_string_list_splice (list, 0, n_old, NULL);
          return;
        }
      pick = 0;
    }
  picked[0] = strings[pick];
  gtk_string_list_splice (list, 0, 0, picked);
  gtk_drop_down_set_selected (drop_down, 0);
  before = g_new0 (char *, pick + 1);
  for (guint i = 0; i < pick; i++)
    before[i] = (char *) strings[i];
  gtk_string_list_splice (list, 0, 0, (const char * const *) before);
  gtk_string_list_splice (list, pick + 1, n_old, strings + pick + 1);
}
