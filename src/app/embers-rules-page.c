/* embers-rules-page.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "embers-pyroscope-source.h"
#include "embers-rule-dialog.h"
#include "embers-rules-page.h"

/* The flag that turns the rules API on */
#define RULES_FLAG "-tenant-settings.recording-rules.enabled=true"

struct _EmbersRulesPage
{
  GtkWidget            parent_instance;

  EmbersSource        *source;    /* the rules', and the dialogs': preview, labels, types */
  GCancellable        *cancellable;
  GPtrArray           *rules;
  char                *error;
  gboolean             disabled;  /* the server's rules API is off */
  gboolean             loading;

  GtkWidget           *box;
  GtkStack            *stack;
  GtkListBox          *list;
  AdwStatusPage       *error_page;
  AdwStatusPage       *empty_page;
  AdwStatusPage       *disabled_page;
  GtkLabel            *disabled_details;
  GtkLabel            *flag_label;
};

G_DEFINE_FINAL_TYPE (EmbersRulesPage, embers_rules_page, GTK_TYPE_WIDGET)

static const EmbersRecordingRule *
find_rule (EmbersRulesPage *self,
           const char      *id)
{
  for (guint i = 0; self->rules && i < self->rules->len; i++)
    {
      const EmbersRecordingRule *rule = g_ptr_array_index (self->rules, i);

      if (g_strcmp0 (rule->id, id) == 0)
        return rule;
    }
  return NULL;
}

static void on_edit_clicked (GtkButton *button, EmbersRulesPage *self);
static void on_delete_clicked (GtkButton *button, EmbersRulesPage *self);

static GtkWidget *
make_row (EmbersRulesPage           *self,
          const EmbersRecordingRule *rule)
{
  GtkWidget *row = adw_action_row_new ();
  g_autoptr(GString) subtitle = g_string_new (NULL);
  g_autofree char *matchers = rule->matchers ? g_strjoinv (" ", rule->matchers) : g_strdup ("");
  g_autofree char *escaped = NULL;
  GtkWidget *edit, *delete;

  /* Translators: %s is a profile type such as process_cpu:cpu:nanoseconds:cpu:nanoseconds */
  g_string_append_printf (subtitle, _("Type: %s"), rule->profile_type ? rule->profile_type : "");
  g_string_append_c (subtitle, '\n');
  /* Translators: %s is a label selector such as {service_name="api"} */
  g_string_append_printf (subtitle, _("Matchers: %s"), matchers);
  if (rule->group_by && rule->group_by[0])
    {
      g_autofree char *by = g_strjoinv (", ", rule->group_by);

      g_string_append_c (subtitle, '\n');
      /* Translators: %s is a list of label names */
      g_string_append_printf (subtitle, _("Group by: %s"), by);
    }
  if (rule->external_label_names && rule->external_label_names[0])
    {
      g_autoptr(GString) labels = g_string_new (NULL);

      for (guint i = 0; rule->external_label_names[i]; i++)
        g_string_append_printf (labels, "%s%s=%s", i == 0 ? "" : ", ", rule->external_label_names[i],
                                rule->external_label_values ? rule->external_label_values[i] : "");
      g_string_append_c (subtitle, '\n');
      /* Translators: %s is a list of name=value pairs added to the metric */
      g_string_append_printf (subtitle, _("External labels: %s"), labels->str);
    }
  if (rule->function_name)
    {
      g_string_append_c (subtitle, '\n');
      /* Translators: %s is a function name; the rule records only stacks through it */
      g_string_append_printf (subtitle, _("Function: %s"), rule->function_name);
    }

  escaped = g_markup_escape_text (subtitle->str, -1);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), rule->metric_name);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), escaped);

  if (rule->provisioned)
    {
      /* Translators: a badge on a rule set in the server's configuration, which cannot be edited here */
      GtkWidget *badge = gtk_label_new (_("Provisioned"));

      gtk_widget_add_css_class (badge, "badge");
      gtk_widget_set_tooltip_text (badge, _("Set in the server’s configuration: read-only here"));
      gtk_widget_set_valign (badge, GTK_ALIGN_CENTER);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), badge);
    }

  edit = gtk_button_new_from_icon_name ("document-edit-symbolic");
  gtk_widget_set_valign (edit, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (edit, "flat");
  /* Translators: a button's tooltip: edit this recording rule */
  gtk_widget_set_tooltip_text (edit, C_("recording rule", "Edit"));
  {
    /* Translators: the accessible name of a rule's Edit button; %s is the rule's metric name */
    g_autofree char *name = g_strdup_printf (_("Edit “%s”"), rule->metric_name);

    gtk_accessible_update_property (GTK_ACCESSIBLE (edit), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
  }
  gtk_widget_set_sensitive (edit, !rule->provisioned);
  g_object_set_data_full (G_OBJECT (edit), "rule-id", g_strdup (rule->id), g_free);
  g_signal_connect (edit, "clicked", G_CALLBACK (on_edit_clicked), self);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), edit);

  delete = gtk_button_new_from_icon_name ("user-trash-symbolic");
  gtk_widget_set_valign (delete, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (delete, "flat");
  gtk_widget_set_tooltip_text (delete, _("Delete"));
  {
    /* Translators: the accessible name of a rule's Delete button; %s is the rule's metric name */
    g_autofree char *name = g_strdup_printf (_("Delete “%s”"), rule->metric_name);

    gtk_accessible_update_property (GTK_ACCESSIBLE (delete), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
  }
  gtk_widget_set_sensitive (delete, !rule->provisioned);
  g_object_set_data_full (G_OBJECT (delete), "rule-id", g_strdup (rule->id), g_free);
  g_signal_connect (delete, "clicked", G_CALLBACK (on_delete_clicked), self);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), delete);

  /* Enter or a click on the row edits the rule */
  if (!rule->provisioned)
    adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), edit);

  return row;
}

static void
show_rules (EmbersRulesPage *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->list))) != NULL)
    gtk_list_box_remove (self->list, child);

  if (self->disabled)
    {
      /* The server's own answer only when it says more than the flag */
      gtk_label_set_text (self->disabled_details, self->error ? self->error : "");
      gtk_widget_set_visible (GTK_WIDGET (self->disabled_details),
                              self->error != NULL && strstr (self->error, RULES_FLAG) == NULL);
      gtk_stack_set_visible_child_name (self->stack, "disabled");
      return;
    }
  if (self->error != NULL)
    {
      adw_status_page_set_description (self->error_page, self->error);
      gtk_stack_set_visible_child_name (self->stack, "error");
      return;
    }
  if (self->rules == NULL || self->rules->len == 0)
    {
      gtk_stack_set_visible_child_name (self->stack, self->loading ? "loading" : "empty");
      return;
    }

  for (guint i = 0; i < self->rules->len; i++)
    gtk_list_box_append (self->list, make_row (self, g_ptr_array_index (self->rules, i)));
  gtk_stack_set_visible_child_name (self->stack, "list");
}

static void
list_done (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(EmbersRulesPage) self = user_data;
  g_autoptr(GError) error = NULL;
  GPtrArray *rules = embers_source_list_recording_rules_finish (EMBERS_SOURCE (object), result, &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  self->loading = FALSE;
  g_clear_pointer (&self->rules, g_ptr_array_unref);
  g_clear_pointer (&self->error, g_free);
  /* Not served (404): the rules API is off; the source's dialogs say so too */
  self->disabled = g_error_matches (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_UNIMPLEMENTED);
  if (rules == NULL)
    self->error = g_strdup (error->message);
  else
    self->rules = rules;
  show_rules (self);
}

void
embers_rules_page_reload (EmbersRulesPage *self)
{
  g_return_if_fail (EMBERS_IS_RULES_PAGE (self));

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  self->loading = TRUE;
  if (self->rules == NULL)
    gtk_stack_set_visible_child_name (self->stack, "loading");
  embers_source_list_recording_rules (self->source, self->cancellable, list_done, g_object_ref (self));
}

static void
delete_done (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(EmbersRulesPage) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!embers_source_delete_recording_rule_finish (EMBERS_SOURCE (object), result, &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;
      gtk_widget_activate_action (GTK_WIDGET (self), "win.show-toast", "s", error->message);
    }
  embers_rules_page_reload (self);
}

static void
on_delete_response (AdwAlertDialog  *dialog,
                    const char      *response,
                    EmbersRulesPage *self)
{
  if (g_str_equal (response, "delete"))
    embers_rules_page_delete (self, g_object_get_data (G_OBJECT (dialog), "rule-id"), TRUE);
}

gboolean
embers_rules_page_delete (EmbersRulesPage *self,
                          const char      *id,
                          gboolean         confirmed)
{
  const EmbersRecordingRule *rule;

  g_return_val_if_fail (EMBERS_IS_RULES_PAGE (self), FALSE);

  rule = find_rule (self, id);
  if (rule == NULL || rule->provisioned)
    return FALSE;

  if (!confirmed)
    {
      AdwDialog *dialog = adw_alert_dialog_new (_("Delete Recording Rule?"),
                                                _("The server stops recording this metric. Its past data "
                                                  "stays where it is stored."));
      GtkWidget *name = gtk_label_new (rule->metric_name);

      /* The metric name whole, never hyphenated: shortened in the middle
       * when it is too long, and selectable to copy */
      gtk_label_set_ellipsize (GTK_LABEL (name), PANGO_ELLIPSIZE_MIDDLE);
      gtk_label_set_selectable (GTK_LABEL (name), TRUE);
      gtk_widget_set_tooltip_text (name, rule->metric_name);
      gtk_widget_add_css_class (name, "monospace");
      adw_alert_dialog_set_extra_child (ADW_ALERT_DIALOG (dialog), name);

      adw_alert_dialog_add_responses (ADW_ALERT_DIALOG (dialog), "cancel", _("_Cancel"),
                                      "delete", _("_Delete"), NULL);
      adw_alert_dialog_set_response_appearance (ADW_ALERT_DIALOG (dialog), "delete", ADW_RESPONSE_DESTRUCTIVE);
      adw_alert_dialog_set_close_response (ADW_ALERT_DIALOG (dialog), "cancel");
      g_object_set_data_full (G_OBJECT (dialog), "rule-id", g_strdup (id), g_free);
      g_signal_connect_object (dialog, "response", G_CALLBACK (on_delete_response), self, 0);
      adw_dialog_present (dialog, GTK_WIDGET (self));
      return TRUE;
    }

  embers_source_delete_recording_rule (self->source, id, self->cancellable, delete_done, g_object_ref (self));
  return TRUE;
}

static void
on_delete_clicked (GtkButton       *button,
                   EmbersRulesPage *self)
{
  embers_rules_page_delete (self, g_object_get_data (G_OBJECT (button), "rule-id"), FALSE);
}

/* "closed": the list shows what the dialog may have changed */
static void
on_dialog_closed (EmbersRulesPage *self)
{
  embers_rules_page_reload (self);
}

static void
on_dialog_saved (EmbersRuleDialog    *dialog,
                 EmbersRecordingRule *rule,
                 EmbersRulesPage     *self)
{
  /* Translators: %s is a recording rule's metric name */
  g_autofree char *text = g_strdup_printf (_("Recording rule “%s” saved"), rule->metric_name);

  gtk_widget_activate_action (GTK_WIDGET (self), "win.show-toast", "s", text);
  adw_dialog_close (ADW_DIALOG (dialog));
}

static void
present_dialog (EmbersRulesPage  *self,
                EmbersRuleDialog *dialog)
{
  embers_rule_dialog_set_source (dialog, self->source);
  g_signal_connect_object (dialog, "created", G_CALLBACK (on_dialog_saved), self, 0);
  g_signal_connect_object (dialog, "closed", G_CALLBACK (on_dialog_closed), self,
                           G_CONNECT_SWAPPED);
  adw_dialog_present (ADW_DIALOG (dialog), GTK_WIDGET (self));
}

EmbersRuleDialog *
embers_rules_page_edit (EmbersRulesPage *self,
                        const char      *id)
{
  const EmbersRecordingRule *rule;
  EmbersRuleDialog *dialog;

  g_return_val_if_fail (EMBERS_IS_RULES_PAGE (self), NULL);

  rule = find_rule (self, id);
  if (rule == NULL || rule->provisioned)
    return NULL;

  dialog = embers_rule_dialog_new_for_rule (self->source, rule);
  present_dialog (self, dialog);
  return dialog;
}

static void
on_edit_clicked (GtkButton       *button,
                 EmbersRulesPage *self)
{
  embers_rules_page_edit (self, g_object_get_data (G_OBJECT (button), "rule-id"));
}

EmbersRuleDialog *
embers_rules_page_new_rule (EmbersRulesPage *self)
{
  EmbersRuleDialog *dialog;

  g_return_val_if_fail (EMBERS_IS_RULES_PAGE (self), NULL);

  /* The profile type is offered from the server's types */
  dialog = embers_rule_dialog_new (self->source, NULL, NULL, NULL, NULL);
  present_dialog (self, dialog);
  return dialog;
}

static void
embers_rules_page_dispose (GObject *object)
{
  EmbersRulesPage *self = EMBERS_RULES_PAGE (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  gtk_widget_dispose_template (GTK_WIDGET (self), EMBERS_TYPE_RULES_PAGE);
  g_clear_object (&self->source);
  g_clear_pointer (&self->rules, g_ptr_array_unref);
  g_clear_pointer (&self->error, g_free);

  G_OBJECT_CLASS (embers_rules_page_parent_class)->dispose (object);
}

static void
embers_rules_page_class_init (EmbersRulesPageClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = embers_rules_page_dispose;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/emberslab/Embers/embers-rules-page.ui");
  gtk_widget_class_bind_template_child (widget_class, EmbersRulesPage, box);
  gtk_widget_class_bind_template_child (widget_class, EmbersRulesPage, stack);
  gtk_widget_class_bind_template_child (widget_class, EmbersRulesPage, list);
  gtk_widget_class_bind_template_child (widget_class, EmbersRulesPage, error_page);
  gtk_widget_class_bind_template_child (widget_class, EmbersRulesPage, empty_page);
  gtk_widget_class_bind_template_child (widget_class, EmbersRulesPage, disabled_page);
  gtk_widget_class_bind_template_child (widget_class, EmbersRulesPage, disabled_details);
  gtk_widget_class_bind_template_child (widget_class, EmbersRulesPage, flag_label);
  gtk_widget_class_bind_template_callback (widget_class, embers_rules_page_new_rule);
  gtk_widget_class_bind_template_callback (widget_class, embers_rules_page_reload);
}

static void
embers_rules_page_init (EmbersRulesPage *self)
{
  self->cancellable = g_cancellable_new ();
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_label_set_text (self->flag_label, RULES_FLAG);
}

EmbersRulesPage *
embers_rules_page_new_for_source (EmbersSource *source)
{
  EmbersRulesPage *self;
  g_autofree char *reason = NULL;

  g_return_val_if_fail (EMBERS_IS_SOURCE (source), NULL);

  self = g_object_new (EMBERS_TYPE_RULES_PAGE, NULL);
  self->source = g_object_ref (source);

  /* Already known to be off: say so at once (the list asks again) */
  reason = embers_source_dup_unavailable_reason (source, EMBERS_SOURCE_CAN_RECORDING_RULES);
  if (reason != NULL)
    {
      self->disabled = TRUE;
      self->error = g_steal_pointer (&reason);
      show_rules (self);
    }
  embers_rules_page_reload (self);
  return self;
}

EmbersRulesPage *
embers_rules_page_new (EmbersConnectClient *client)
{
  g_autoptr(EmbersPyroscopeSource) source = NULL;

  g_return_val_if_fail (EMBERS_IS_CONNECT_CLIENT (client), NULL);

  source = embers_pyroscope_source_new (client);
  return embers_rules_page_new_for_source (EMBERS_SOURCE (source));
}

EmbersSource *
embers_rules_page_get_source (EmbersRulesPage *self)
{
  g_return_val_if_fail (EMBERS_IS_RULES_PAGE (self), NULL);
  return self->source;
}

gboolean
embers_rules_page_get_disabled (EmbersRulesPage *self)
{
  g_return_val_if_fail (EMBERS_IS_RULES_PAGE (self), FALSE);
  return self->disabled;
}

gboolean
embers_rules_page_get_loading (EmbersRulesPage *self)
{
  g_return_val_if_fail (EMBERS_IS_RULES_PAGE (self), FALSE);
  return self->loading;
}

GPtrArray *
embers_rules_page_get_rules (EmbersRulesPage *self)
{
  g_return_val_if_fail (EMBERS_IS_RULES_PAGE (self), NULL);
  return self->rules;
}

const char *
embers_rules_page_get_error (EmbersRulesPage *self)
{
  g_return_val_if_fail (EMBERS_IS_RULES_PAGE (self), NULL);
  return self->error;
}
