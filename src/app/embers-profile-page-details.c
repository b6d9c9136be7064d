/* embers-profile-page-details.c: the function details panel beside
 * the views
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <adwaita.h>

#include "embers-accessible.h"
#include "embers-fill.h"
#include "embers-profile-page-private.h"

/* ---- Function details ---- */

/* The stack, root first, from @profile's root down to @node */
static GStrv
node_stack (EmbersProfile *profile,
            guint32        node)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  for (guint32 n = node; n != 0 && n != EMBERS_NODE_NONE; n = embers_profile_node_parent (profile, n))
    g_ptr_array_add (names, (gpointer) embers_profile_node_name_str (profile, n));
  for (guint i = names->len; i > 0; i--)
    g_strv_builder_add (builder, g_ptr_array_index (names, i - 1));
  return g_strv_builder_end (builder);
}

/* The selected frame when it is a frame of @name in a root-first view
 * (its path is a call site as recorded), or EMBERS_NODE_NONE */
static guint32
selected_frame (EmbersProfilePage *self,
                const char        *name)
{
  EmbersProfile *profile = embers_flame_graph_get_profile (self->graph);
  guint32 node = embers_flame_graph_get_selected_node (self->graph);

  /* Bottom-up and sandwich graphs are not root-first stacks */
  if (self->view == EMBERS_VIEW_BOTTOM_UP || self->view == EMBERS_VIEW_SANDWICH ||
      profile == NULL || node == EMBERS_NODE_NONE || node == 0 || node >= embers_profile_get_n_nodes (profile) ||
      g_strcmp0 (embers_profile_node_name_str (profile, node), name) != 0)
    return EMBERS_NODE_NONE;
  return node;
}

/* The call site the panel's figures can be asked for: the selected
 * frame's stack, else (a table's row, an inverted view) the function's
 * heaviest frame's, in the recorded profile where the view's paths are
 * not root-first */
static GStrv
details_call_site (EmbersProfilePage *self,
                   const char        *name)
{
  EmbersProfile *profile = embers_flame_graph_get_profile (self->graph);
  guint32 node = selected_frame (self, name);

  if (node != EMBERS_NODE_NONE)
    return node_stack (profile, node);
  if (self->view == EMBERS_VIEW_BOTTOM_UP || self->view == EMBERS_VIEW_SANDWICH)
    profile = self->profile;
  if (profile == NULL)
    return NULL;
  node = embers_function_details_pick_node (profile, EMBERS_NODE_NONE, name, 0);
  return node != EMBERS_NODE_NONE ? node_stack (profile, node) : NULL;
}

/* The details of the selected function (of the table's, or the hottest),
 * while the panel is shown; and of the selected frame of it: on a server
 * the figures are that call site's, so another frame of the same
 * function is asked for again (the very same frame is not) */
void
embers_profile_page_update_details (EmbersProfilePage *self)
{
  EmbersProfile *shown;
  const char *name;
  gboolean same;
  g_auto(GStrv) site = NULL;

  if (self->details_split == NULL || !adw_overlay_split_view_get_show_sidebar (self->details_split)
      || self->profile == NULL || self->partial_profile != NULL)
    return;
  name = embers_profile_page_default_function (self);
  /* The shown view: the transformed profile, its lines counted over the
   * same stack (the file is read again through it) */
  shown = self->table_profile != NULL ? self->table_profile : self->profile;
  if (name == NULL)
    return;
  same = self->details_profile == (gpointer)shown &&
         g_strcmp0 (name, embers_details_panel_get_function (self->details)) == 0;
  /* The function shown, no frame of it picked now: its frame stays */
  if (same && selected_frame (self, name) == EMBERS_NODE_NONE)
    return;
  /* A cut answer's `other` frames (the table knows them) are no function */
  embers_details_panel_set_cut_off (self->details, g_strcmp0 (name, EMBERS_FILL_OTHER) == 0
                                                   ? embers_top_table_get_n_cut (self->top_table) : 0);
  if (!same)
    {
      self->details_profile = shown;
      embers_details_panel_show_view_function (self->details, shown,
                                               shown == self->profile ? NULL : self->applied,
                                               self->sample_type, name,
                                               embers_profile_is_diff (self->profile) ? NULL : self->file);
    }
  site = details_call_site (self, name);
  embers_details_panel_set_call_site (self->details, (const char * const *)site);
}

/* A caller or callee chosen in the panel's Calls becomes the graph's
 * selection (which then selects its table row): the selected frame's
 * parent or child of that name, else its heaviest frame */
static void
on_details_function_activated (EmbersProfilePage *self,
                               const char        *name)
{
  EmbersProfile *profile = embers_flame_graph_get_profile (self->graph);
  guint32 node;

  if (profile == NULL || name == NULL)
    return;
  node = embers_function_details_pick_node (profile, embers_flame_graph_get_selected_node (self->graph),
                                            name, self->sample_type);
  /* Selected, and in view */
  if (node != EMBERS_NODE_NONE)
    embers_flame_graph_reveal_node (self->graph, node);
}

static void
on_details_close (EmbersProfilePage *self)
{
  adw_overlay_split_view_set_show_sidebar (self->details_split, FALSE);
  gtk_widget_grab_focus (GTK_WIDGET (self->graph));
}

/* The panel itself is made when first needed (shown, or asked for by a
 * page that feeds it), and goes into the split view when first shown: a
 * GtkSourceView, its style scheme and menus cost ~10 ms of the main
 * thread that a tab's opening need not pay */
static EmbersDetailsPanel *
ensure_details (EmbersProfilePage *self)
{
  if (self->details != NULL)
    return self->details;
  self->details = g_object_ref_sink (embers_details_panel_new ());
  g_signal_connect_object (self->details, "close", G_CALLBACK (on_details_close), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->details, "function-activated",
                           G_CALLBACK (on_details_function_activated), self, G_CONNECT_SWAPPED);
  return self->details;
}

static void
on_show_sidebar (EmbersProfilePage *self)
{
  if (adw_overlay_split_view_get_show_sidebar (self->details_split)
      && adw_overlay_split_view_get_sidebar (self->details_split) == NULL)
    adw_overlay_split_view_set_sidebar (self->details_split, GTK_WIDGET (ensure_details (self)));
  embers_profile_page_update_details (self);
}

/* The panel goes beside the table and views (the template's paned), and
 * over them where the page is narrow */
void
embers_profile_page_setup_details (EmbersProfilePage *self)
{
  GtkWidget *paned = GTK_WIDGET (self->paned);
  GtkWidget *box = gtk_widget_get_parent (paned);
  GtkWidget *before = gtk_widget_get_prev_sibling (paned);
  GValue collapsed = G_VALUE_INIT;

  self->details_split = ADW_OVERLAY_SPLIT_VIEW (adw_overlay_split_view_new ());
  gtk_widget_set_vexpand (GTK_WIDGET (self->details_split), TRUE);
  adw_overlay_split_view_set_sidebar_position (self->details_split, GTK_PACK_END);
  adw_overlay_split_view_set_show_sidebar (self->details_split, FALSE);
  /* Shown only when asked for, whatever the width does */
  adw_overlay_split_view_set_pin_sidebar (self->details_split, TRUE);
  adw_overlay_split_view_set_enable_show_gesture (self->details_split, FALSE);
  adw_overlay_split_view_set_min_sidebar_width (self->details_split, 320);
  adw_overlay_split_view_set_max_sidebar_width (self->details_split, 640);
  adw_overlay_split_view_set_sidebar_width_fraction (self->details_split, 0.4);

  g_object_ref (paned);
  gtk_box_remove (GTK_BOX (box), paned);
  adw_overlay_split_view_set_content (self->details_split, paned);
  g_object_unref (paned);
  gtk_box_insert_child_after (GTK_BOX (box), GTK_WIDGET (self->details_split), before);

  /* Breakpoints exclude each other: the narrow ones lay the panel over */
  g_value_init (&collapsed, G_TYPE_BOOLEAN);
  g_value_set_boolean (&collapsed, TRUE);
  adw_breakpoint_add_setter (self->split_breakpoint, G_OBJECT (self->details_split), "collapsed", &collapsed);
  adw_breakpoint_add_setter (self->narrow_breakpoint, G_OBJECT (self->details_split), "collapsed", &collapsed);
  g_value_unset (&collapsed);

  g_signal_connect_object (self->details_split, "notify::show-sidebar",
                           G_CALLBACK (on_show_sidebar), self, G_CONNECT_SWAPPED);

  /* Its button, last in the toolbar */
  {
    GtkWidget *button = gtk_toggle_button_new ();

    gtk_button_set_icon_name (GTK_BUTTON (button), "sidebar-show-right-symbolic");
    gtk_widget_set_tooltip_text (button, _("Function Details (Ctrl+I)"));
    embers_accessible_set_label (button, _("Function Details"));
    gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
    g_object_bind_property (self->details_split, "show-sidebar", button, "active",
                            G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
    gtk_box_append (GTK_BOX (self->toolbar), button);
  }
}

EmbersDetailsPanel *
embers_profile_page_get_details_panel (EmbersProfilePage *self)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE_PAGE (self), NULL);
  return ensure_details (self);
}

gboolean
embers_profile_page_get_details_shown (EmbersProfilePage *self)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE_PAGE (self), FALSE);
  return adw_overlay_split_view_get_show_sidebar (self->details_split);
}
