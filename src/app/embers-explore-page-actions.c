/* embers-explore-page-actions.c: actions, the menu, nodes and recording rules
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "embers-explore-page-private.h"

/* The selected frame's function, or NULL for the root */
static const char *
selected_function (EmbersExplorePage *self)
{
  EmbersFlameGraph *graph = embers_profile_page_get_flame_graph (self->profile_page);
  EmbersProfile *profile = graph ? embers_flame_graph_get_profile (graph) : NULL;
  guint32 node = graph ? embers_flame_graph_get_selected_node (graph) : EMBERS_NODE_NONE;

  if (profile == NULL || node == EMBERS_NODE_NONE || node == 0 || node >= embers_profile_get_n_nodes (profile))
    return NULL;
  return embers_profile_node_name_str (profile, node);
}

static void
on_rule_created (EmbersRuleDialog    *dialog,
                 EmbersRecordingRule *rule,
                 EmbersExplorePage   *self)
{
  g_autofree char *text = g_strdup_printf (_("Recording rule “%s” created"), rule->metric_name);

  /* Show: the tab's Recording Rules view, which lists it */
  gtk_widget_activate_action (GTK_WIDGET (self), "win.show-toast-action", "(sss)", text,
                              /* Translators: the button of "Recording rule … created" */
                              _("_Show"), "win.show-rules");
  gtk_widget_activate_action (GTK_WIDGET (self), "workspace.reload-rules", NULL);
  adw_dialog_close (ADW_DIALOG (dialog));
}

/* Right-click a frame → Create Recording Rule…, prefilled from the context */
EmbersRuleDialog *
embers_explore_page_create_rule (EmbersExplorePage *self)
{
  g_autofree char *selector = NULL;
  EmbersRuleDialog *dialog;

  g_return_val_if_fail (EMBERS_IS_EXPLORE_PAGE (self), NULL);

  selector = embers_explore_page_dup_selector (self);
  dialog = embers_rule_dialog_new (self->source,
                                   embers_explore_page_get_service (self),
                                   embers_explore_page_get_profile_type (self),
                                   selector, selected_function (self));
  g_signal_connect_object (dialog, "created", G_CALLBACK (on_rule_created), self, 0);
  /* The preview charts the frame's call site while the function is its */
  {
    g_auto(GStrv) call_site = embers_profile_page_dup_selected_call_site (self->profile_page);

    embers_rule_dialog_set_call_site (dialog, (const char * const *) call_site);
  }
  /* The preview over the tab's range, not a fixed last hour */
  embers_rule_dialog_set_time_range (dialog, self->start_ms, self->end_ms);
  embers_rule_dialog_set_source (dialog, self->source);
  adw_dialog_present (ADW_DIALOG (dialog), GTK_WIDGET (self));
  return dialog;
}

static void
show_rules (EmbersExplorePage *self)
{
  if (embers_source_offers_recording_rules (self->source))
    gtk_widget_activate_action (GTK_WIDGET (self), "workspace.view", "s", "rules");
}

void
embers_explore_create_rule_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *param)
{
  embers_explore_page_create_rule (EMBERS_EXPLORE_PAGE (widget));
}

void
embers_explore_show_rules_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *param)
{
  show_rules (EMBERS_EXPLORE_PAGE (widget));
}

void
embers_explore_refresh_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *param)
{
  embers_explore_page_refresh (EMBERS_EXPLORE_PAGE (widget));
}

void
embers_explore_compare_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *param)
{
  embers_explore_page_request_compare (EMBERS_EXPLORE_PAGE (widget));
}

/* F9: the services sidebar, over the content when the page is narrow */
void
embers_explore_services_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *param)
{
  EmbersExplorePage *self = EMBERS_EXPLORE_PAGE (widget);

  adw_overlay_split_view_set_show_sidebar (self->split_view,
                                           !adw_overlay_split_view_get_show_sidebar (self->split_view));
  if (adw_overlay_split_view_get_show_sidebar (self->split_view))
    gtk_widget_child_focus (GTK_WIDGET (self->services_view), GTK_DIR_TAB_FORWARD);
}

/* The label explorer for this service, type, filters and range: the
 * workspace's Labels view */
void
embers_explore_labels_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *param)
{
  EmbersExplorePage *self = EMBERS_EXPLORE_PAGE (widget);

  if (self->service == NULL || self->profile_type == NULL)
    {
      gtk_widget_activate_action (widget, "win.show-toast", "s",
                                  _("Pick a service and a profile type to see their labels"));
      return;
    }
  gtk_widget_activate_action (widget, "workspace.view", "s", "labels");
}

/* API */

static void
max_nodes_changed (EmbersExplorePage *self,
                   GtkSpinButton     *spin)
{
  gint64 value = (gint64)gtk_spin_button_get_value (spin);
  GSettingsSchemaSource *schemas = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = schemas ? g_settings_schema_source_lookup (schemas, APP_ID, TRUE) : NULL;

  if (!EMBERS_IS_PYROSCOPE_SOURCE (self->source) ||
      embers_pyroscope_source_get_max_nodes (EMBERS_PYROSCOPE_SOURCE (self->source)) == value)
    return;

  embers_pyroscope_source_set_max_nodes (EMBERS_PYROSCOPE_SOURCE (self->source), value);
  if (schema != NULL && g_settings_schema_has_key (schema, "max-nodes"))
    {
      g_autoptr(GSettings) settings = g_settings_new (APP_ID);

      g_settings_set_int (settings, "max-nodes", (int)value);
    }
  embers_explore_page_refresh (self);
}

/* How many flame graph nodes the server sends (the rest it merges into a
 * frame named "other", which stays visible): a user setting */
void
embers_explore_add_max_nodes (EmbersExplorePage *self)
{
  GSettingsSchemaSource *schemas = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = schemas ? g_settings_schema_source_lookup (schemas, APP_ID, TRUE) : NULL;
  GtkSpinButton *spin;
  GtkWidget *box, *label;
  double value = EMBERS_PYROSCOPE_DEFAULT_MAX_NODES;

  if (!EMBERS_IS_PYROSCOPE_SOURCE (self->source))
    return;

  if (schema != NULL && g_settings_schema_has_key (schema, "max-nodes"))
    {
      g_autoptr(GSettings) settings = g_settings_new (APP_ID);

      value = g_settings_get_int (settings, "max-nodes");
    }
  embers_pyroscope_source_set_max_nodes (EMBERS_PYROSCOPE_SOURCE (self->source), (gint64)value);

  box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  /* Translators: the most flame graph nodes to ask the server for */
  label = gtk_label_new_with_mnemonic (_("_Nodes"));
  gtk_widget_add_css_class (label, "dim-label");
  spin = GTK_SPIN_BUTTON (gtk_spin_button_new_with_range (16, EMBERS_PYROSCOPE_MAX_MAX_NODES, 1024));
  gtk_spin_button_set_value (spin, value);
  gtk_label_set_mnemonic_widget (GTK_LABEL (label), GTK_WIDGET (spin));
  gtk_widget_set_tooltip_text (GTK_WIDGET (spin),
                               _("Flame graph nodes the server sends; it merges the rest into a frame named “other”"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (spin), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Flame graph nodes"), -1);
  g_signal_connect_swapped (spin, "value-changed", G_CALLBACK (max_nodes_changed), self);
  gtk_box_append (GTK_BOX (box), label);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (spin));
  gtk_box_prepend (self->actions_box, box);
  self->max_nodes = g_object_ref (gtk_spin_button_get_adjustment (spin));
}

/* The toolbar's menu on a narrow page: what does not fit, the node limit
 * too (it shares the toolbar spin button's adjustment) */
void
embers_explore_build_more_menu (EmbersExplorePage *self)
{
  g_autoptr(GMenu) menu = g_menu_new ();
  g_autoptr(GMenu) actions = g_menu_new ();
  g_autoptr(GMenu) rules = g_menu_new ();
  GtkPopover *popover;

  /* Translators: a menu item (the button is hidden on a small page) */
  g_menu_append (actions, C_("menu", "_Refresh"), "explore.refresh");
  g_menu_append (actions, _("Com_pare…"), "explore.compare");
  g_menu_append (actions, _("_Labels"), "explore.labels");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (actions));
  if (embers_source_offers_recording_rules (self->source))
    {
      g_menu_append (rules, _("_Create Recording Rule…"), "explore.create-rule");
      g_menu_append (rules, _("_Show Recording Rules"), "explore.show-rules");
    }
  else
    g_menu_append (rules, _("New _Rule…"), "explore.create-rule");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (rules));
  if (self->max_nodes != NULL)
    {
      g_autoptr(GMenu) nodes = g_menu_new ();
      g_autoptr(GMenuItem) item = g_menu_item_new (NULL, NULL);

      g_menu_item_set_attribute (item, "custom", "s", "nodes");
      g_menu_append_item (nodes, item);
      g_menu_append_section (menu, NULL, G_MENU_MODEL (nodes));
    }
  gtk_menu_button_set_menu_model (self->more_button, G_MENU_MODEL (menu));

  popover = gtk_menu_button_get_popover (self->more_button);
  if (self->max_nodes != NULL && GTK_IS_POPOVER_MENU (popover))
    {
      GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
      GtkWidget *label = gtk_label_new_with_mnemonic (_("_Nodes"));
      GtkWidget *spin = gtk_spin_button_new (self->max_nodes, 1024, 0);

      gtk_widget_set_margin_start (box, 12);
      gtk_widget_set_margin_end (box, 12);
      gtk_widget_set_margin_top (box, 6);
      gtk_widget_set_margin_bottom (box, 6);
      gtk_widget_set_hexpand (label, TRUE);
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_mnemonic_widget (GTK_LABEL (label), spin);
      gtk_widget_set_tooltip_text (spin,
                                   _("Flame graph nodes the server sends; it merges the rest into a frame named “other”"));
      gtk_accessible_update_property (GTK_ACCESSIBLE (spin), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      _("Flame graph nodes"), -1);
      gtk_box_append (GTK_BOX (box), label);
      gtk_box_append (GTK_BOX (box), spin);
      gtk_popover_menu_add_child (GTK_POPOVER_MENU (popover), box, "nodes");
    }
}

/* Recording rules: the server's list, and a new rule from what is on
 * screen (service, type, filters, the selected frame) */
void
embers_explore_add_rules_buttons (EmbersExplorePage *self)
{
  if (embers_source_offers_recording_rules (self->source))
    {
      g_autoptr(GMenu) menu = g_menu_new ();
      GtkWidget *rules = adw_split_button_new ();

      g_menu_append (menu, _("_Create Recording Rule…"), "explore.create-rule");
      g_menu_append (menu, _("_Show Recording Rules"), "explore.show-rules");
      adw_split_button_set_label (ADW_SPLIT_BUTTON (rules), _("_Rules"));
      adw_split_button_set_use_underline (ADW_SPLIT_BUTTON (rules), TRUE);
      adw_split_button_set_menu_model (ADW_SPLIT_BUTTON (rules), G_MENU_MODEL (menu));
      gtk_widget_set_tooltip_text (rules, _("Recording rules: metrics the server records from profiles (Ctrl+Shift+R creates one)"));
      gtk_accessible_update_property (GTK_ACCESSIBLE (rules), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      _("Recording rules"), -1);
      gtk_actionable_set_action_name (GTK_ACTIONABLE (rules), "explore.show-rules");
      gtk_box_append (self->actions_box, rules);
    }
  else
    {
      GtkWidget *create = gtk_button_new_with_mnemonic (_("New _Rule…"));

      gtk_widget_set_tooltip_text (create, _("Create a recording rule from this view, to copy as server configuration (Ctrl+Shift+R)"));
      gtk_actionable_set_action_name (GTK_ACTIONABLE (create), "explore.create-rule");
      gtk_box_append (self->actions_box, create);
    }
}

void
embers_explore_page_request_compare (EmbersExplorePage *self)
{
  g_autoptr(EmbersQuery) comparison = NULL;
  g_autoptr(EmbersQuery) baseline = NULL;
  gint64 length;

  g_return_if_fail (EMBERS_IS_EXPLORE_PAGE (self));

  comparison = embers_explore_page_dup_query (self);
  if (comparison == NULL)
    return;
  length = comparison->end_ms - comparison->start_ms;
  baseline = embers_query_copy (comparison);
  baseline->start_ms = comparison->start_ms - length;
  baseline->end_ms = comparison->start_ms;
  g_signal_emit (self, embers_explore_page_signals[EMBERS_EXPLORE_PAGE_SIGNAL_COMPARE_REQUESTED], 0, baseline, comparison);
}
