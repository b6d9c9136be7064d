/* embers-adaptive.c: breakpoints whose width is measured, not guessed
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "embers-adaptive.h"

typedef struct
{
  GWeakRef row;
  GWeakRef stack;
  char    *wide_page;
  int      max_width;  /* the condition's, -1 before the first */
} Follow;

static void
follow_free (gpointer data)
{
  Follow *follow = data;

  g_weak_ref_clear (&follow->row);
  g_weak_ref_clear (&follow->stack);
  g_free (follow->wide_page);
  g_free (follow);
}

void
embers_adaptive_update (AdwBreakpoint *breakpoint)
{
  Follow *follow = g_object_get_data (G_OBJECT (breakpoint), "embers-follow");
  g_autoptr(GtkWidget) row = NULL;
  g_autoptr(GtkStack) stack = NULL;
  g_autoptr(AdwBreakpointCondition) condition = NULL;
  GtkWidget *wide, *shown;
  int row_min = 0, shown_min = 0, wide_min = 0, max_width;

  g_return_if_fail (ADW_IS_BREAKPOINT (breakpoint));
  g_return_if_fail (follow != NULL);

  row = g_weak_ref_get (&follow->row);
  stack = g_weak_ref_get (&follow->stack);
  if (row == NULL || stack == NULL)
    return;
  wide = gtk_stack_get_child_by_name (stack, follow->wide_page);
  shown = gtk_stack_get_visible_child (stack);
  if (wide == NULL || shown == NULL)
    return;

  /* The row with the wide page instead of the one shown (a stack of
   * pages of different widths measures as the page it shows) */
  gtk_widget_measure (row, GTK_ORIENTATION_HORIZONTAL, -1, &row_min, NULL, NULL, NULL);
  gtk_widget_measure (shown, GTK_ORIENTATION_HORIZONTAL, -1, &shown_min, NULL, NULL, NULL);
  gtk_widget_measure (wide, GTK_ORIENTATION_HORIZONTAL, -1, &wide_min, NULL, NULL, NULL);
  max_width = MAX (row_min - shown_min + wide_min - 1, 0);
  /* Unchanged: the bin is not made to look again (this runs at every
   * allocation of a page that follows it) */
  if (max_width == follow->max_width)
    return;
  follow->max_width = max_width;
  condition = adw_breakpoint_condition_new_length (ADW_BREAKPOINT_CONDITION_MAX_WIDTH, max_width,
                                                   ADW_LENGTH_UNIT_PX);
  adw_breakpoint_set_condition (breakpoint, condition);
}

void
embers_adaptive_follow_width (AdwBreakpoint *breakpoint,
                              GtkWidget     *row,
                              GtkStack      *stack,
                              const char    *wide_page)
{
  Follow *follow;
  GtkSettings *settings;

  g_return_if_fail (ADW_IS_BREAKPOINT (breakpoint));
  g_return_if_fail (GTK_IS_WIDGET (row));
  g_return_if_fail (GTK_IS_STACK (stack));
  g_return_if_fail (wide_page != NULL);

  follow = g_new0 (Follow, 1);
  g_weak_ref_init (&follow->row, row);
  g_weak_ref_init (&follow->stack, stack);
  follow->wide_page = g_strdup (wide_page);
  follow->max_width = -1;
  g_object_set_data_full (G_OBJECT (breakpoint), "embers-follow", follow, follow_free);

  settings = gtk_widget_get_settings (row);
  g_signal_connect_object (row, "map", G_CALLBACK (embers_adaptive_update), breakpoint, G_CONNECT_SWAPPED);
  g_signal_connect_object (settings, "notify::gtk-font-name", G_CALLBACK (embers_adaptive_update),
                           breakpoint, G_CONNECT_SWAPPED);
  g_signal_connect_object (settings, "notify::gtk-xft-dpi", G_CALLBACK (embers_adaptive_update),
                           breakpoint, G_CONNECT_SWAPPED);
  embers_adaptive_update (breakpoint);
}
