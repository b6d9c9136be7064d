/* embers-profile-page-actions.c: the page.* actions, their keys and
 * states, and the frame actions (the transform stack)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <adwaita.h>

#include "embers-fill.h"
#include "embers-palette.h"
#include "embers-profile-page-private.h"
#include "embers-transforms.h"

/* Actions */

static void
update_history_actions (EmbersProfilePage *self)
{
  EmbersFlameGraph *graph = embers_profile_page_active_graph (self);
  GtkWidget *widget = GTK_WIDGET (self);
  gboolean ready = self->state == EMBERS_PAGE_STATE_READY;
  double x0, x1;

  embers_flame_graph_get_visible_range (graph, &x0, &x1);
  gtk_widget_action_set_enabled (widget, "page.back",
                                 ready && embers_flame_graph_get_can_go_back (graph));
  gtk_widget_action_set_enabled (widget, "page.forward",
                                 ready && embers_flame_graph_get_can_go_forward (graph));
  gtk_widget_action_set_enabled (widget, "page.reset",
                                 ready && (embers_flame_graph_get_focus_node (graph) != 0 ||
                                           x0 > 0 || x1 < 1));
}

void
embers_profile_page_update_actions (EmbersProfilePage *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  gboolean ready = self->state == EMBERS_PAGE_STATE_READY;
  gboolean searching = self->table_search != NULL && embers_search_is_active (self->table_search);

  gtk_widget_action_set_enabled (widget, "page.cancel", self->state == EMBERS_PAGE_STATE_LOADING);
  gtk_widget_action_set_enabled (widget, "page.reload", self->file != NULL &&
                                 self->state != EMBERS_PAGE_STATE_LOADING);
  gtk_widget_action_set_enabled (widget, "page.view", ready);
  gtk_widget_action_set_enabled (widget, "page.collapse-recursion", ready);
  gtk_widget_action_set_enabled (widget, "page.colors", ready);
  gtk_widget_action_set_enabled (widget, "page.sandwich", ready);
  gtk_widget_action_set_enabled (widget, "page.hide-frame", ready);
  gtk_widget_action_set_enabled (widget, "page.focus-function", ready);
  gtk_widget_action_set_enabled (widget, "page.merge-function", ready);
  gtk_widget_action_set_enabled (widget, "page.drop-function", ready);
  gtk_widget_action_set_enabled (widget, "page.collapse-package", ready);
  gtk_widget_action_set_enabled (widget, "page.collapse-function-recursion", ready);
  gtk_widget_action_set_enabled (widget, "page.transform", ready);
  gtk_widget_action_set_enabled (widget, "page.invert", ready);
  gtk_widget_action_set_enabled (widget, "page.search", ready);
  gtk_widget_action_set_enabled (widget, "page.search-next", ready && searching);
  gtk_widget_action_set_enabled (widget, "page.search-previous", ready && searching);
  update_history_actions (self);
}

/* Actions */

/* The stack changed: the chips, the collapse-recursion switch, the view */
void
embers_profile_page_transforms_changed (EmbersProfilePage *self)
{
  embers_profile_page_update_chips (self);
  embers_profile_page_recompute (self);
  embers_profile_page_notify (self, PAGE_PROP_COLLAPSE_RECURSION);
  embers_profile_page_notify (self, PAGE_PROP_N_TRANSFORMS);
}

static void
push_transform (EmbersProfilePage  *self,
                EmbersTransformKind kind,
                const char * const *args)
{
  /* The `other` frames of a cut answer are no function (the table knows
   * them, embers-top-model.c): a function's action on them would fold
   * the cut work into its callers or keep it alone, as if it were code */
  if (args[0] != NULL && g_str_equal (args[0], EMBERS_FILL_OTHER) &&
      embers_top_table_get_n_cut (self->top_table) > 0)
    {
      gtk_widget_error_bell (GTK_WIDGET (self));
      embers_profile_page_toast (self, _("“other” is no function: it is the work the server’s answer cut. "
                                         "Load More (L) shows what it holds."));
      return;
    }
  if (args[0] == NULL ||
      !embers_transform_stack_push (self->transforms, kind, args, NULL))
    {
      /* Applied already, or nothing to apply it to */
      gtk_widget_error_bell (GTK_WIDGET (self));
      return;
    }
  embers_profile_page_transforms_changed (self);
}

static void
page_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *param)
{
  EmbersProfilePage *self = EMBERS_PROFILE_PAGE (widget);
  const char *name = param != NULL && g_variant_is_of_type (param, G_VARIANT_TYPE_STRING)
                     ? g_variant_get_string (param, NULL) : NULL;

  if (g_str_equal (action_name, "page.cancel"))
    embers_profile_page_cancel (self);
  else if (g_str_equal (action_name, "page.reload"))
    {
      if (self->file != NULL)
        {
          g_autoptr(GFile) file = g_object_ref (self->file);

          embers_profile_page_load (self, file, self->title);
        }
    }
  else if (g_str_equal (action_name, "page.details"))
    adw_overlay_split_view_set_show_sidebar (self->details_split,
                                             !adw_overlay_split_view_get_show_sidebar (self->details_split));
  else if (g_str_equal (action_name, "page.sandwich"))
    {
      g_free (self->sandwich_function);
      self->sandwich_function = g_strdup (name);
      if (self->view == EMBERS_VIEW_SANDWICH)
        embers_profile_page_recompute (self);
      else
        embers_profile_page_set_view (self, EMBERS_VIEW_SANDWICH);
    }
  else if (g_str_equal (action_name, "page.hide-frame"))
    {
      /* A table row is a function: hiding it merges it everywhere (the
       * graph hides one call node, through page.transform) */
      push_transform (self, EMBERS_TRANSFORM_MERGE_FUNCTION, (const char *[]) { name, NULL });
    }
  else if (g_str_equal (action_name, "page.focus-function"))
    push_transform (self, EMBERS_TRANSFORM_FOCUS_FUNCTION, (const char *[]) { name, NULL });
  else if (g_str_equal (action_name, "page.merge-function"))
    push_transform (self, EMBERS_TRANSFORM_MERGE_FUNCTION, (const char *[]) { name, NULL });
  else if (g_str_equal (action_name, "page.drop-function"))
    push_transform (self, EMBERS_TRANSFORM_DROP_FUNCTION, (const char *[]) { name, NULL });
  else if (g_str_equal (action_name, "page.collapse-package"))
    {
      gsize len = 0;
      const char *package = embers_palette_package (name, &len);
      g_autofree char *copy = g_strndup (package, len);

      push_transform (self, EMBERS_TRANSFORM_COLLAPSE_PACKAGE, (const char *[]) { copy, NULL });
    }
  else if (g_str_equal (action_name, "page.collapse-function-recursion"))
    push_transform (self, EMBERS_TRANSFORM_COLLAPSE_RECURSION, (const char *[]) { name, NULL });
  else if (g_str_equal (action_name, "page.transform"))
    {
      g_autoptr(GError) error = NULL;

      const char *kind_name = NULL;
      EmbersTransformKind kind;

      g_variant_get_child (param, 0, "&s", &kind_name);
      /* A call path is one of the call tree's: the inverted trees' paths
       * are not */
      if (embers_transform_kind_from_string (kind_name, &kind) &&
          embers_transform_kind_takes_path (kind) &&
          (self->view == EMBERS_VIEW_BOTTOM_UP || self->view == EMBERS_VIEW_SANDWICH))
        embers_profile_page_toast (self, _("Hide and Focus on Subtree work on the call tree: switch to Icicle or Flame Graph"));
      else if (!embers_transform_stack_push_variant (self->transforms, param, &error))
        gtk_widget_error_bell (widget);
      else
        embers_profile_page_transforms_changed (self);
    }
  else if (g_str_equal (action_name, "page.remove-transform"))
    {
      guint index = g_variant_get_uint32 (param);

      if (index < embers_transform_stack_get_length (self->transforms))
        {
          embers_transform_stack_remove (self->transforms, index);
          embers_profile_page_transforms_changed (self);
        }
    }
  else if (g_str_equal (action_name, "page.clear-transforms"))
    {
      if (embers_transform_stack_get_length (self->transforms) > 0)
        {
          embers_transform_stack_clear (self->transforms);
          embers_profile_page_transforms_changed (self);
        }
    }
  else if (g_str_equal (action_name, "page.invert") && self->view == EMBERS_VIEW_CALL_TREE)
    {
      /* The call tree turns itself over: callers below the functions */
      embers_call_tree_view_set_inverted (self->call_tree,
                                          !embers_call_tree_view_get_inverted (self->call_tree));
    }
  else if (g_str_equal (action_name, "page.invert"))
    {
      embers_profile_page_set_view (self, self->view == EMBERS_VIEW_BOTTOM_UP
                                          ? self->last_tree_view : EMBERS_VIEW_BOTTOM_UP);
    }
  else if (g_str_equal (action_name, "page.search"))
    embers_profile_page_begin_search (self);
  else if (g_str_equal (action_name, "page.search-next"))
    embers_profile_page_search_step (self, TRUE);
  else if (g_str_equal (action_name, "page.search-previous"))
    embers_profile_page_search_step (self, FALSE);
  else if (g_str_equal (action_name, "page.back"))
    embers_flame_graph_go_back (embers_profile_page_active_graph (self));
  else if (g_str_equal (action_name, "page.forward"))
    embers_flame_graph_go_forward (embers_profile_page_active_graph (self));
  else if (g_str_equal (action_name, "page.reset"))
    embers_flame_graph_reset (embers_profile_page_active_graph (self));
}

/* The frame actions */

const EmbersTransformStack *
embers_profile_page_get_transforms (EmbersProfilePage *self)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE_PAGE (self), NULL);
  return self->transforms;
}

void
embers_profile_page_set_transforms (EmbersProfilePage          *self,
                                    const EmbersTransformStack *stack)
{
  g_return_if_fail (EMBERS_IS_PROFILE_PAGE (self));
  g_return_if_fail (stack != NULL);

  if (embers_transform_stack_equal (stack, self->transforms))
    return;
  embers_transform_stack_free (self->transforms);
  self->transforms = embers_transform_stack_copy (stack);
  embers_profile_page_transforms_changed (self);
}

EmbersTransformBar *
embers_profile_page_get_transform_bar (EmbersProfilePage *self)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE_PAGE (self), NULL);
  return self->transform_bar;
}

void
embers_profile_page_class_init_actions (GtkWidgetClass *widget_class)
{
  static const char * const plain_actions[] = {
    "page.cancel", "page.reload", "page.clear-transforms", "page.invert",
    "page.search", "page.search-next", "page.search-previous",
    "page.back", "page.forward", "page.reset", "page.details",
  };
  static const char * const name_actions[] = {
    "page.sandwich", "page.hide-frame", "page.focus-function", "page.merge-function",
    "page.drop-function", "page.collapse-package", "page.collapse-function-recursion",
  };

  gtk_widget_class_bind_template_callback (widget_class, update_history_actions);

  for (guint i = 0; i < G_N_ELEMENTS (plain_actions); i++)
    gtk_widget_class_install_action (widget_class, plain_actions[i], NULL, page_action);
  for (guint i = 0; i < G_N_ELEMENTS (name_actions); i++)
    gtk_widget_class_install_action (widget_class, name_actions[i], "s", page_action);
  /* The transform stack: push a step ("(sas)": kind, path or name), remove one */
  gtk_widget_class_install_action (widget_class, "page.transform", "(sas)", page_action);
  gtk_widget_class_install_action (widget_class, "page.remove-transform", "u", page_action);
  gtk_widget_class_install_property_action (widget_class, "page.view", "view");
  gtk_widget_class_install_property_action (widget_class, "page.collapse-recursion", "collapse-recursion");
  gtk_widget_class_install_property_action (widget_class, "page.colors", "colors");

  /* Keys anywhere on the page (the flame graph has its own, see
   * embers-flame-graph.c); each is listed in the shortcuts window */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_1, GDK_CONTROL_MASK, "page.view", "s", "icicle");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_2, GDK_CONTROL_MASK, "page.view", "s", "flame");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_3, GDK_CONTROL_MASK, "page.view", "s", "bottom-up");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_4, GDK_CONTROL_MASK, "page.view", "s", "sandwich");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_5, GDK_CONTROL_MASK, "page.view", "s", "call-tree");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_g, GDK_CONTROL_MASK, "page.search-next", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_g, GDK_CONTROL_MASK | GDK_SHIFT_MASK, "page.search-previous", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, GDK_ALT_MASK, "page.back", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Right, GDK_ALT_MASK, "page.forward", NULL);
  /* Escape cancels a load, or resets the zoom: one of them is enabled */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "page.cancel", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "page.reset", NULL);
  /* A file's page reads the file again; a server's page has no file and
   * leaves these keys to the explore page's Refresh */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_r, GDK_CONTROL_MASK, "page.reload", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F5, 0, "page.reload", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_i, GDK_CONTROL_MASK, "page.details", NULL);
}
