/* embers-rule-dialog.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "embers-accessible.h"
#include "embers-chart.h"
#include "embers-drop-down.h"
#include "embers-recording-rules.h"
#include "embers-rule-dialog.h"
#include "embers-theme.h"
#include "embers-selector.h"
#include "embers-source.h"

/* The flag that turns the rules API on */
#define RULES_FLAG "-tenant-settings.recording-rules.enabled=true"

typedef enum
{
  STATUS_INFO,
  STATUS_WARNING,
  STATUS_ERROR,
} StatusKind;

struct _EmbersRuleDialog
{
  AdwDialog            parent_instance;

  EmbersSource        *server;            /* where the rule goes, or NULL */
  GCancellable        *cancellable;
  char                *service;           /* for suggestions */
  char                *suggested_metric;  /* replaced while untouched */

  /* The fields */
  GtkEntry            *metric_entry;
  GtkBox              *matcher_rows;      /* one GtkEntry per matcher string */
  GtkLabel            *matchers_label;
  GtkEntry            *group_by_entry;
  GtkFlowBox          *group_by_chips;    /* the service's label names as toggles */
  gboolean             syncing_chips;
  GtkBox              *label_rows;        /* name = value per external label */
  GtkLabel            *labels_label;
  GtkEntry            *function_entry;
  GtkWidget           *type_label;        /* New Rule…: the profile type */
  GtkDropDown         *type_drop_down;
  GtkStringList       *type_ids;
  gboolean             syncing_type;
  gboolean             types_loaded;

  GtkLabel            *messages[EMBERS_RULE_N_FIELDS];
  char                *message_text[EMBERS_RULE_N_FIELDS];  /* ours, else the server's */
  char                *server_text[EMBERS_RULE_N_FIELDS];   /* until the next edit */
  char                *field_text[EMBERS_RULE_N_FIELDS];    /* get_field's answer */

  /* Why the rule cannot be created here (no server, rules off) */
  GtkWidget           *notice;
  GtkLabel            *notice_title;
  GtkLabel            *notice_body;
  GtkLabel            *notice_flag;
  GtkLabel            *notice_details;
  char                *notice_text;
  char                *tenant;
  char                *disabled_reason;

  GtkLabel            *status;
  GtkWidget           *conflict_box;      /* Load Current Version / Keep My Changes */
  gboolean             conflict;
  GtkButton           *cancel_button;
  GtkButton           *create_button;
  GtkButton           *copy_override_button;
  GtkButton           *copy_og_button;
  GtkLabel            *override_note;
  AdwWindowTitle      *title;
  GtkWidget           *spinner;
  gboolean             valid;
  gboolean             busy;
  gboolean             changing;          /* filling fields: not a person's edit */
  char                *id;                /* editing: the rule's id and the */
  gint64               generation;        /* generation it was read with */

  /* Preview: what the rule would record over the last hour */
  EmbersSource        *source;
  GCancellable        *preview_cancellable;
  guint                preview_timeout;
  EmbersChart         *chart;
  gint64               preview_start;    /* the tab's time range (0, 0: the last hour) */
  gint64               preview_end;
  gint64               shown_start;      /* what the preview asked for */
  gint64               shown_end;
  GtkDrawingArea      *chart_area;
  GtkLabel            *preview_label;
  guint                n_preview_series;
  /* The frame the dialog was opened from, root first (or NULL): while the
   * function is that frame's, the preview charts its call site */
  GStrv                call_site;
  gboolean             preview_call_site;  /* the chart shown is of it */
  double               preview_sum;
};

G_DEFINE_FINAL_TYPE (EmbersRuleDialog, embers_rule_dialog, ADW_TYPE_DIALOG)

enum {
  SIGNAL_CREATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void validate         (EmbersRuleDialog *self);
static void on_edited        (EmbersRuleDialog *self);
static void schedule_preview (EmbersRuleDialog *self);
static void clear_preview    (EmbersRuleDialog *self,
                              const char       *text);
static void sync_chips       (EmbersRuleDialog *self);
static void update_buttons   (EmbersRuleDialog *self);

/* An answer that arrives after the dialog was destroyed finds nothing
 * to show it in */
static gboolean
disposed (EmbersRuleDialog *self)
{
  return self->cancellable == NULL;
}

static gboolean
is_blank (const char *text)
{
  for (const char *p = text ? text : ""; *p; p++)
    if (!g_ascii_isspace (*p))
      return FALSE;
  return TRUE;
}

static GStrv
split_list (const char *text)
{
  g_auto(GStrv) parts = g_strsplit (text ? text : "", ",", -1);
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  for (guint i = 0; parts[i]; i++)
    {
      char *item = g_strstrip (parts[i]);

      if (item[0] != '\0')
        g_strv_builder_add (builder, item);
    }

  return g_strv_builder_end (builder);
}

/* ---- matcher and label rows ---------------------------------------------- */

static GtkEditable *
matcher_entry_of (GtkWidget *row)
{
  return GTK_EDITABLE (gtk_widget_get_first_child (row));
}

static void
update_row_names (EmbersRuleDialog *self)
{
  GtkWidget *first = gtk_widget_get_first_child (GTK_WIDGET (self->matcher_rows));
  guint n = 0;

  /* Alt+A goes to the first matcher */
  if (first != NULL)
    gtk_label_set_mnemonic_widget (self->matchers_label, GTK_WIDGET (matcher_entry_of (first)));

  for (GtkWidget *row = first; row != NULL; row = gtk_widget_get_next_sibling (row))
    {
      GtkWidget *remove = gtk_widget_get_last_child (row);
      /* Translators: the accessible name of a rule's nth matcher string */
      g_autofree char *name = g_strdup_printf (_("Matcher %u"), ++n);
      /* Translators: the accessible name of the button that removes the rule's nth matcher string */
      g_autofree char *remove_name = g_strdup_printf (_("Remove matcher %u"), n);

      gtk_accessible_update_property (GTK_ACCESSIBLE (matcher_entry_of (row)),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
      gtk_accessible_update_property (GTK_ACCESSIBLE (remove), GTK_ACCESSIBLE_PROPERTY_LABEL, remove_name, -1);
    }

  n = 0;
  first = gtk_widget_get_first_child (GTK_WIDGET (self->label_rows));
  if (first != NULL)
    gtk_label_set_mnemonic_widget (self->labels_label, gtk_widget_get_first_child (first));
  for (GtkWidget *row = first; row != NULL; row = gtk_widget_get_next_sibling (row))
    {
      GtkWidget *name_entry = gtk_widget_get_first_child (row);
      GtkWidget *value_entry = gtk_widget_get_next_sibling (gtk_widget_get_next_sibling (name_entry));
      GtkWidget *remove = gtk_widget_get_last_child (row);
      /* Translators: accessible names of the parts of the nth external label (name=value) */
      g_autofree char *name = g_strdup_printf (_("Name of external label %u"), ++n);
      g_autofree char *value = g_strdup_printf (_("Value of external label %u"), n);
      g_autofree char *remove_name = g_strdup_printf (_("Remove external label %u"), n);

      gtk_accessible_update_property (GTK_ACCESSIBLE (name_entry), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
      gtk_accessible_update_property (GTK_ACCESSIBLE (value_entry), GTK_ACCESSIBLE_PROPERTY_LABEL, value, -1);
      gtk_accessible_update_property (GTK_ACCESSIBLE (remove), GTK_ACCESSIBLE_PROPERTY_LABEL, remove_name, -1);
    }
}

static void
remove_row (GtkButton *button,
            gpointer   user_data)
{
  EmbersRuleDialog *self = EMBERS_RULE_DIALOG (gtk_widget_get_ancestor (GTK_WIDGET (button), EMBERS_TYPE_RULE_DIALOG));
  GtkWidget *row = gtk_widget_get_parent (GTK_WIDGET (button));
  GtkWidget *box = gtk_widget_get_parent (row);
  GtkWidget *next = gtk_widget_get_next_sibling (row) ? gtk_widget_get_next_sibling (row)
                                                      : gtk_widget_get_prev_sibling (row);

  /* Focus moves to the neighbour, not to the window */
  if (next != NULL)
    gtk_widget_grab_focus (gtk_widget_get_first_child (next));
  gtk_box_remove (GTK_BOX (box), row);
  update_row_names (self);
  on_edited (self);
}

static GtkWidget *
new_row_entry (EmbersRuleDialog *self,
               const char       *text,
               const char       *placeholder)
{
  GtkWidget *entry = gtk_entry_new ();

  gtk_editable_set_text (GTK_EDITABLE (entry), text ? text : "");
  gtk_entry_set_placeholder_text (GTK_ENTRY (entry), placeholder);
  gtk_entry_set_activates_default (GTK_ENTRY (entry), TRUE);
  g_signal_connect_object (entry, "changed", G_CALLBACK (on_edited), self, G_CONNECT_SWAPPED);
  return entry;
}

static GtkWidget *
new_remove_button (const char *tooltip)
{
  GtkWidget *remove = gtk_button_new_from_icon_name ("list-remove-symbolic");

  gtk_widget_add_css_class (remove, "flat");
  gtk_widget_set_valign (remove, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (remove, tooltip);
  g_signal_connect (remove, "clicked", G_CALLBACK (remove_row), NULL);
  return remove;
}

static GtkWidget *
add_matcher_row (EmbersRuleDialog *self,
                 const char       *text,
                 gboolean          first)
{
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
  GtkWidget *entry = new_row_entry (self, text, _("{service_name=\"…\"}"));

  gtk_widget_set_hexpand (entry, TRUE);
  gtk_accessible_update_relation (GTK_ACCESSIBLE (entry), GTK_ACCESSIBLE_RELATION_DESCRIBED_BY,
                                  self->messages[EMBERS_RULE_FIELD_MATCHERS], NULL, -1);
  gtk_box_append (GTK_BOX (row), entry);
  gtk_box_append (GTK_BOX (row), new_remove_button (_("Remove this matcher")));
  if (first)
    gtk_box_insert_child_after (self->matcher_rows, row, NULL);
  else
    gtk_box_append (self->matcher_rows, row);
  update_row_names (self);
  return entry;
}

static GtkWidget *
add_label_row (EmbersRuleDialog *self,
               const char       *name,
               const char       *value)
{
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
  /* Translators: placeholders of an external label's name and value */
  GtkWidget *name_entry = new_row_entry (self, name, C_("external label", "name"));
  GtkWidget *value_entry = new_row_entry (self, value, C_("external label", "value"));
  GtkWidget *equals = gtk_label_new ("=");

  gtk_editable_set_width_chars (GTK_EDITABLE (name_entry), 10);
  gtk_widget_set_hexpand (name_entry, TRUE);
  gtk_widget_set_hexpand (value_entry, TRUE);
  gtk_widget_add_css_class (equals, "dim-label");
  gtk_accessible_update_relation (GTK_ACCESSIBLE (name_entry), GTK_ACCESSIBLE_RELATION_DESCRIBED_BY,
                                  self->messages[EMBERS_RULE_FIELD_EXTERNAL_LABELS], NULL, -1);
  gtk_box_append (GTK_BOX (row), name_entry);
  gtk_box_append (GTK_BOX (row), equals);
  gtk_box_append (GTK_BOX (row), value_entry);
  gtk_box_append (GTK_BOX (row), new_remove_button (_("Remove this label")));
  gtk_box_append (self->label_rows, row);
  update_row_names (self);
  return name_entry;
}

static void
clear_rows (GtkBox *box)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (box))) != NULL)
    gtk_box_remove (box, child);
}

static void
on_add_matcher (EmbersRuleDialog *self)
{
  gtk_widget_grab_focus (add_matcher_row (self, "", FALSE));
  on_edited (self);
}

static void
on_add_label (EmbersRuleDialog *self)
{
  gtk_widget_grab_focus (add_label_row (self, "", ""));
  on_edited (self);
}

/* Fills the rows from a rule's lists, one row per string or label, so
 * that a stored rule comes back unchanged */
static void
set_matchers (EmbersRuleDialog  *self,
              const char * const *matchers)
{
  clear_rows (self->matcher_rows);
  for (guint i = 0; matchers && matchers[i]; i++)
    add_matcher_row (self, matchers[i], FALSE);
  if (gtk_widget_get_first_child (GTK_WIDGET (self->matcher_rows)) == NULL)
    add_matcher_row (self, "", FALSE);
  update_row_names (self);
}

static void
set_labels (EmbersRuleDialog   *self,
            const char * const *names,
            const char * const *values)
{
  clear_rows (self->label_rows);
  for (guint i = 0; names && names[i]; i++)
    add_label_row (self, names[i], values && values[i] ? values[i] : "");
  update_row_names (self);
}

/* ---- the rule -------------------------------------------------------------- */

EmbersRecordingRule *
embers_rule_dialog_dup_rule (EmbersRuleDialog *self)
{
  EmbersRecordingRule *rule;
  g_autoptr(GStrvBuilder) matchers = g_strv_builder_new ();
  g_autoptr(GStrvBuilder) names = g_strv_builder_new ();
  g_autoptr(GStrvBuilder) values = g_strv_builder_new ();
  const char *function;

  g_return_val_if_fail (EMBERS_IS_RULE_DIALOG (self), NULL);

  rule = embers_recording_rule_new ();
  rule->metric_name = g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->metric_entry)));

  /* Each row as typed; a row left empty is no matcher */
  for (GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (self->matcher_rows));
       row != NULL;
       row = gtk_widget_get_next_sibling (row))
    {
      const char *text = gtk_editable_get_text (matcher_entry_of (row));

      if (!is_blank (text))
        g_strv_builder_add (matchers, text);
    }
  g_strfreev (rule->matchers);
  rule->matchers = g_strv_builder_end (matchers);

  g_strfreev (rule->group_by);
  rule->group_by = split_list (gtk_editable_get_text (GTK_EDITABLE (self->group_by_entry)));

  /* Names as typed but trimmed (a valid one has no spaces); values exactly
   * as typed: commas, "=" and spaces are part of them */
  for (GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (self->label_rows));
       row != NULL;
       row = gtk_widget_get_next_sibling (row))
    {
      GtkWidget *name_entry = gtk_widget_get_first_child (row);
      GtkWidget *value_entry = gtk_widget_get_next_sibling (gtk_widget_get_next_sibling (name_entry));
      g_autofree char *name = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (name_entry))));
      const char *value = gtk_editable_get_text (GTK_EDITABLE (value_entry));

      if (name[0] == '\0' && value[0] == '\0')
        continue;
      g_strv_builder_add (names, name);
      g_strv_builder_add (values, value);
    }
  g_strfreev (rule->external_label_names);
  g_strfreev (rule->external_label_values);
  rule->external_label_names = g_strv_builder_end (names);
  rule->external_label_values = g_strv_builder_end (values);

  function = gtk_editable_get_text (GTK_EDITABLE (self->function_entry));
  rule->function_name = function[0] != '\0' ? g_strdup (function) : NULL;
  rule->profile_type = embers_recording_rule_derive_profile_type (rule);
  rule->id = g_strdup (self->id);
  rule->generation = self->generation;

  return rule;
}

static void
set_status (EmbersRuleDialog *self,
            const char       *text,
            StatusKind        kind)
{
  GtkWidget *label = GTK_WIDGET (self->status);

  gtk_label_set_text (self->status, text ? text : "");
  gtk_widget_set_visible (label, text != NULL && text[0] != '\0');
  if (kind == STATUS_ERROR)
    gtk_widget_add_css_class (label, "error");
  else
    gtk_widget_remove_css_class (label, "error");
  if (kind == STATUS_WARNING)
    gtk_widget_add_css_class (label, "warning");
  else
    gtk_widget_remove_css_class (label, "warning");
}

static GtkWidget *
field_widget (EmbersRuleDialog *self,
              EmbersRuleField   field)
{
  switch (field)
    {
    case EMBERS_RULE_FIELD_METRIC_NAME:     return GTK_WIDGET (self->metric_entry);
    case EMBERS_RULE_FIELD_GROUP_BY:        return GTK_WIDGET (self->group_by_entry);
    case EMBERS_RULE_FIELD_FUNCTION:        return GTK_WIDGET (self->function_entry);
    case EMBERS_RULE_FIELD_MATCHERS:
      {
        GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (self->matcher_rows));

        return row ? GTK_WIDGET (matcher_entry_of (row)) : NULL;
      }
    case EMBERS_RULE_FIELD_EXTERNAL_LABELS:
      {
        GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (self->label_rows));

        return row ? gtk_widget_get_first_child (row) : NULL;
      }
    case EMBERS_RULE_FIELD_ID:
    case EMBERS_RULE_FIELD_GENERATION:
    case EMBERS_RULE_N_FIELDS:
    default:
      return NULL;
    }
}

static void
set_error_class (GtkWidget *widget,
                 gboolean   error)
{
  if (error)
    gtk_widget_add_css_class (widget, "error");
  else
    gtk_widget_remove_css_class (widget, "error");
}

/* Each matcher row and label row by itself: which one is wrong */
static void
mark_rows (EmbersRuleDialog *self)
{
  for (GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (self->matcher_rows));
       row != NULL;
       row = gtk_widget_get_next_sibling (row))
    {
      const char *text = gtk_editable_get_text (matcher_entry_of (row));
      g_autoptr(EmbersSelector) sel = is_blank (text) ? NULL : embers_selector_parse_metric_selector (text, NULL);

      set_error_class (GTK_WIDGET (matcher_entry_of (row)), !is_blank (text) && sel == NULL);
    }

  for (GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (self->label_rows));
       row != NULL;
       row = gtk_widget_get_next_sibling (row))
    {
      GtkWidget *name_entry = gtk_widget_get_first_child (row);
      GtkWidget *value_entry = gtk_widget_get_next_sibling (gtk_widget_get_next_sibling (name_entry));
      g_autofree char *name = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (name_entry))));
      gboolean empty = name[0] == '\0' && gtk_editable_get_text (GTK_EDITABLE (value_entry))[0] == '\0';

      set_error_class (name_entry, !empty && !embers_label_name_is_valid (name));
    }
}

/* Live validation, exactly as the server validates */
static void
validate (EmbersRuleDialog *self)
{
  g_autoptr(EmbersRecordingRule) rule = embers_rule_dialog_dup_rule (self);
  char *messages[EMBERS_RULE_N_FIELDS] = { NULL, };
  gboolean was_valid = self->valid;

  self->valid = embers_recording_rule_check (rule, messages);
  for (guint f = 0; f < EMBERS_RULE_N_FIELDS; f++)
    {
      GtkWidget *widget = field_widget (self, f);

      /* Ours first; else what the server said about this field */
      if (messages[f] == NULL && self->server_text[f] != NULL)
        messages[f] = g_strdup_printf (_("The server says: %s"), self->server_text[f]);
      g_free (self->message_text[f]);
      self->message_text[f] = messages[f];
      if (self->messages[f] != NULL)
        {
          gtk_label_set_text (self->messages[f], messages[f] ? messages[f] : "");
          gtk_widget_set_visible (GTK_WIDGET (self->messages[f]), messages[f] != NULL);
        }
      if (widget != NULL && f != EMBERS_RULE_FIELD_MATCHERS && f != EMBERS_RULE_FIELD_EXTERNAL_LABELS)
        set_error_class (widget, messages[f] != NULL);
    }
  mark_rows (self);

  update_buttons (self);
  if (self->valid)
    schedule_preview (self);
  else if (was_valid || self->n_preview_series > 0 || self->preview_cancellable != NULL)
    clear_preview (self, _("The preview follows once the rule is valid"));
  else if (self->source != NULL)
    gtk_label_set_text (self->preview_label, _("The preview follows once the rule is valid"));
}

/* A person changed a field: what the server said about the old rule no
 * longer applies */
static void
on_edited (EmbersRuleDialog *self)
{
  if (self->changing)
    return;

  for (guint f = 0; f < EMBERS_RULE_N_FIELDS; f++)
    g_clear_pointer (&self->server_text[f], g_free);
  if (!self->busy && !self->conflict)
    set_status (self, NULL, STATUS_INFO);
  validate (self);
}

static void
update_buttons (EmbersRuleDialog *self)
{
  gboolean can_create = self->server != NULL && self->disabled_reason == NULL;
  GtkWidget *default_widget = can_create ? GTK_WIDGET (self->create_button)
                                         : GTK_WIDGET (self->copy_override_button);

  gtk_widget_set_visible (GTK_WIDGET (self->create_button), self->server != NULL);
  gtk_widget_set_sensitive (GTK_WIDGET (self->create_button), can_create && self->valid && !self->busy);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->create_button),
                               self->disabled_reason != NULL ? self->disabled_reason : NULL);

  /* Copies of an invalid rule would only be refused later */
  gtk_widget_set_sensitive (GTK_WIDGET (self->copy_override_button), self->valid);
  gtk_widget_set_sensitive (GTK_WIDGET (self->copy_og_button), self->valid);

  /* Without the rules API, copying is the way forward: it is the default */
  if (can_create)
    gtk_widget_remove_css_class (GTK_WIDGET (self->copy_override_button), "suggested-action");
  else
    gtk_widget_add_css_class (GTK_WIDGET (self->copy_override_button), "suggested-action");
  if (adw_dialog_get_default_widget (ADW_DIALOG (self)) != default_widget)
    adw_dialog_set_default_widget (ADW_DIALOG (self), default_widget);
}

/* ---- the notice: why the rule can only be copied -------------------------- */

static void
show_notice (EmbersRuleDialog *self,
             const char       *title,
             const char       *body,
             gboolean          flag,
             const char       *details)
{
  gtk_label_set_text (self->notice_title, title);
  gtk_label_set_text (self->notice_body, body);
  gtk_widget_set_visible (GTK_WIDGET (self->notice_flag), flag);
  gtk_label_set_text (self->notice_details, details ? details : "");
  gtk_widget_set_visible (GTK_WIDGET (self->notice_details), details != NULL && details[0] != '\0');
  gtk_widget_set_visible (self->notice, TRUE);

  g_free (self->notice_text);
  self->notice_text = g_strjoin ("\n", title, body, flag ? RULES_FLAG : "", details ? details : "", NULL);
}

static void
set_disabled (EmbersRuleDialog *self,
              const char       *reason)
{
  if (g_strcmp0 (self->disabled_reason, reason) == 0)
    return;
  g_free (self->disabled_reason);
  self->disabled_reason = g_strdup (reason);

  /* The server's own answer only when it says more than the flag */
  if (reason != NULL)
    show_notice (self,
                 _("Recording Rules Are Off on This Server"),
                 _("The server does not take recording rules, so Embers cannot create this one there. "
                   "Copy it as server configuration below, or start Pyroscope with:"),
                 TRUE, strstr (reason, RULES_FLAG) == NULL ? reason : NULL);
  else if (self->server != NULL)
    {
      gtk_widget_set_visible (self->notice, FALSE);
      g_clear_pointer (&self->notice_text, g_free);
    }
  update_buttons (self);
}

static void
on_capabilities (EmbersRuleDialog *self)
{
  g_autofree char *reason = NULL;

  if (self->source != NULL)
    reason = embers_source_dup_unavailable_reason (self->source, EMBERS_SOURCE_CAN_RECORDING_RULES);
  set_disabled (self, reason);
}

/* ---- copies ---------------------------------------------------------------- */

static const char *
tenant (EmbersRuleDialog *self)
{
  g_free (self->tenant);
  self->tenant = self->server != NULL ? embers_source_dup_tenant (self->server) : NULL;
  return self->tenant != NULL ? self->tenant : EMBERS_RECORDING_RULE_DEFAULT_TENANT;
}

static void
copy_text (EmbersRuleDialog *self,
           char             *text)
{
  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), text);
  g_free (text);
}

static void
copy_override (EmbersRuleDialog *self)
{
  g_autoptr(EmbersRecordingRule) rule = embers_rule_dialog_dup_rule (self);
  g_autofree char *text = NULL;

  if (!self->valid)
    return;
  copy_text (self, embers_recording_rule_to_tenant_override (rule, tenant (self)));
  /* Translators: %s is a tenant id, e.g. anonymous */
  text = g_strdup_printf (_("Copied as a per-tenant “recording_rules” override for tenant “%s”"), tenant (self));
  set_status (self, text, STATUS_INFO);
}

static void
copy_og (EmbersRuleDialog *self)
{
  g_autoptr(EmbersRecordingRule) rule = embers_rule_dialog_dup_rule (self);
  g_autofree char *warning = NULL;
  char *config;

  if (!self->valid)
    return;
  config = embers_recording_rule_to_og_config (rule, &warning);
  copy_text (self, config);
  if (warning != NULL)
    {
      g_autofree char *text = g_strdup_printf (_("Copied as a “metrics-export-rules” entry for the original "
                                                 "Pyroscope’s configuration. Before you use it: %s"), warning);

      set_status (self, text, STATUS_WARNING);
    }
  else
    set_status (self, _("Copied as a “metrics-export-rules” entry for the original Pyroscope’s configuration"),
                STATUS_INFO);
}

/* ---- create / save ----------------------------------------------------------- */

static void
upsert_done (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(EmbersRuleDialog) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersRecordingRule) rule = embers_source_upsert_recording_rule_finish (EMBERS_SOURCE (object), result, &error);

  if (disposed (self) || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  self->busy = FALSE;
  gtk_widget_set_visible (self->spinner, FALSE);

  if (rule == NULL)
    {
      /* Keep everything typed; say what the server said */
      if (g_error_matches (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_ALREADY_EXISTS) && self->id != NULL)
        {
          set_status (self, _("Someone changed this rule after you opened it, so the server refused your change "
                              "(conflicting update). Load the current version to start again from it, or keep "
                              "your changes and save them over it."), STATUS_ERROR);
          self->conflict = TRUE;
          gtk_widget_set_visible (self->conflict_box, TRUE);
        }
      else if (g_error_matches (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_UNIMPLEMENTED))
        {
          /* The rules API is off: the source says so up front from now on */
          set_status (self, NULL, STATUS_INFO);
          set_disabled (self, error->message);
        }
      else if (g_error_matches (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_INVALID_ARGUMENT))
        {
          g_autofree char *rest = NULL;
          char *placed[EMBERS_RULE_N_FIELDS];

          /* Each problem next to its field; the whole answer below */
          rest = embers_recording_rule_place_server_problems (error->message, placed);
          for (guint f = 0; f < EMBERS_RULE_N_FIELDS; f++)
            {
              g_free (self->server_text[f]);
              self->server_text[f] = placed[f];
            }
          set_status (self, error->message, STATUS_ERROR);
        }
      else
        set_status (self, error->message, STATUS_ERROR);
      validate (self);
      return;
    }

  {
    g_autofree char *text = self->id != NULL
      ? g_strdup_printf (_("Saved “%s”"), rule->metric_name)
      : g_strdup_printf (_("Created “%s” (id %s)"), rule->metric_name, rule->id);

    set_status (self, text, STATUS_INFO);
  }
  /* Further saves continue from what the server stored */
  g_free (self->id);
  self->id = g_strdup (rule->id);
  self->generation = rule->generation;
  validate (self);
  g_signal_emit (self, signals[SIGNAL_CREATED], 0, rule);
}

void
embers_rule_dialog_create (EmbersRuleDialog *self)
{
  g_autoptr(EmbersRecordingRule) rule = NULL;

  g_return_if_fail (EMBERS_IS_RULE_DIALOG (self));

  validate (self);
  if (!self->valid || self->busy || self->server == NULL || self->disabled_reason != NULL)
    return;

  rule = embers_rule_dialog_dup_rule (self);
  self->busy = TRUE;
  gtk_widget_set_visible (self->spinner, TRUE);
  set_status (self, self->id != NULL ? _("Saving…") : _("Creating…"), STATUS_INFO);
  update_buttons (self);
  embers_source_upsert_recording_rule (self->server, rule, self->cancellable, upsert_done, g_object_ref (self));
}

/* ---- preview ----------------------------------------------------------------- */

static void
preview_draw (GtkDrawingArea *area,
              cairo_t        *cr,
              int             width,
              int             height,
              gpointer        user_data)
{
  EmbersRuleDialog *self = user_data;
  EmbersChartStyle style;

  /* Text, axes and accent from the chart's CSS */
  embers_theme_chart_style (GTK_WIDGET (area), &style);
  embers_chart_set_size (self->chart, width, height);
  embers_chart_paint (self->chart, cr, &style);
}

/* No chart of a rule that is not the one in the fields */
static void
clear_preview (EmbersRuleDialog *self,
               const char       *text)
{
  g_clear_handle_id (&self->preview_timeout, g_source_remove);
  if (self->preview_cancellable != NULL)
    g_cancellable_cancel (self->preview_cancellable);
  g_clear_object (&self->preview_cancellable);
  self->n_preview_series = 0;
  embers_chart_set_series (self->chart, NULL, NULL);
  gtk_widget_queue_draw (GTK_WIDGET (self->chart_area));
  if (self->source != NULL)
    gtk_label_set_text (self->preview_label, text ? text : "");
}

/* One preview request: whose, and whether of the call site */
typedef struct
{
  EmbersRuleDialog *self;
  gboolean          call_site;
} Preview;

static void
preview_done (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  Preview *preview = user_data;
  g_autoptr(EmbersRuleDialog) self = preview->self;
  gboolean call_site = preview->call_site;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) series = NULL;

  g_free (preview);
  series = call_site ? embers_source_select_call_site_series_finish (EMBERS_SOURCE (object), result, &error)
                     : embers_source_select_series_finish (EMBERS_SOURCE (object), result, &error);
  if (disposed (self) || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  g_clear_object (&self->preview_cancellable);
  self->preview_call_site = call_site && series != NULL;
  self->preview_sum = 0;
  for (guint i = 0; series != NULL && i < series->len; i++)
    {
      EmbersSeries *one = g_ptr_array_index (series, i);

      for (guint k = 0; k < one->n_points; k++)
        self->preview_sum += one->values[k];
    }

  if (series == NULL)
    {
      g_autofree char *text = g_strdup_printf (_("No preview: %s"), error->message);

      self->n_preview_series = 0;
      gtk_label_set_text (self->preview_label, text);
      embers_chart_set_series (self->chart, NULL, NULL);
    }
  else
    {
      const char *function = gtk_editable_get_text (GTK_EDITABLE (self->function_entry));
      g_autofree char *text = NULL;

      self->n_preview_series = series->len;
      text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                           "Over the last hour this rule would record %u series",
                                           "Over the last hour this rule would record %u series",
                                           series->len),
                              series->len);
      if (function[0] != '\0' && call_site)
        {
          /* Translators: the separator of a stack's frames, root first */
          g_autofree char *path = g_strjoinv (_(" › "), self->call_site);
          /* The chart is of the frame's call site (a stack-trace
           * selector); the rule counts the function under any caller */
          g_autofree char *note = g_strdup_printf (_("%s. The chart shows the stacks through this frame (%s); "
                                                     "when it records, the server counts only stacks through "
                                                     "“%s”, from any caller."),
                                                   text, path, function);

          gtk_label_set_text (self->preview_label, note);
        }
      else if (function[0] != '\0')
        {
          /* SelectSeries cannot filter by a function anywhere in the stack,
           * so the chart shows whole profiles: say so rather than pretend */
          g_autofree char *note = g_strdup_printf (_("%s. The chart shows all stacks of the matched profiles; "
                                                     "the server counts only stacks through “%s” when it records."),
                                                   text, function);

          gtk_label_set_text (self->preview_label, note);
        }
      else
        gtk_label_set_text (self->preview_label, text);
      embers_chart_set_series (self->chart, series, NULL);
    }
  gtk_widget_queue_draw (GTK_WIDGET (self->chart_area));
}

/* SelectSeries with the rule's matchers and group-by over the last hour.
 * (The function filter is applied by the server when it records; the
 * preview shows the whole stacks of the matched profiles.) */
static gboolean
run_preview (gpointer user_data)
{
  EmbersRuleDialog *self = user_data;
  g_autoptr(EmbersRecordingRule) rule = NULL;
  g_autoptr(EmbersSelector) all = NULL;
  g_autoptr(EmbersSelector) rest = embers_selector_new ();
  g_autoptr(EmbersQuery) query = NULL;
  g_autofree char *selector = NULL;
  g_autofree char *type = NULL;
  gint64 end = g_get_real_time () / 1000;
  gint64 start = end - 3600 * 1000;

  /* The range the tab shows, when it gave one */
  if (self->preview_end > self->preview_start)
    {
      start = self->preview_start;
      end = self->preview_end;
    }
  self->preview_timeout = 0;
  if (self->source == NULL || !self->valid)
    return G_SOURCE_REMOVE;

  if (self->preview_cancellable != NULL)
    g_cancellable_cancel (self->preview_cancellable);
  g_clear_object (&self->preview_cancellable);

  rule = embers_rule_dialog_dup_rule (self);
  all = embers_selector_parse_matchers ((const char * const *)rule->matchers, NULL);
  type = embers_recording_rule_derive_profile_type (rule);
  for (guint i = 0; all && i < embers_selector_get_n_matchers (all); i++)
    {
      const EmbersMatcher *m = embers_selector_get_matcher (all, i);

      if (!g_str_equal (m->name, "__profile_type__"))
        embers_selector_add_matcher (rest, m);
    }
  selector = embers_selector_to_string (rest);
  query = embers_query_new (type, selector, start, end);
  {
    g_autoptr(EmbersProfileTypeInfo) info = embers_profile_type_info_new (type);

    embers_chart_set_unit (self->chart, info ? info->sample_unit : NULL);
  }
  embers_chart_set_time_range (self->chart, start, end);
  self->shown_start = start;
  self->shown_end = end;

  self->preview_cancellable = g_cancellable_new ();
  gtk_label_set_text (self->preview_label, _("Previewing…"));
  {
    Preview *preview = g_new0 (Preview, 1);
    guint n = self->call_site != NULL ? g_strv_length (self->call_site) : 0;

    preview->self = g_object_ref (self);
    /* The function is the frame's: chart that frame's call site */
    preview->call_site = n > 0 && rule->function_name != NULL &&
                         g_str_equal (rule->function_name, self->call_site[n - 1]);
    if (preview->call_site)
      embers_source_select_call_site_series (self->source, query, (const char * const *)self->call_site,
                                             (const char * const *)rule->group_by,
                                             self->preview_cancellable, preview_done, preview);
    else
      embers_source_select_chart_series (self->source, query, (const char * const *)rule->group_by,
                                         EMBERS_AGGREGATION_SUM, 0,
                                         self->preview_cancellable, preview_done, preview);
  }
  return G_SOURCE_REMOVE;
}

static void
schedule_preview (EmbersRuleDialog *self)
{
  if (self->source == NULL)
    return;
  g_clear_handle_id (&self->preview_timeout, g_source_remove);
  self->preview_timeout = g_timeout_add (400, run_preview, self);
}

guint
embers_rule_dialog_get_n_preview_series (EmbersRuleDialog *self)
{
  g_return_val_if_fail (EMBERS_IS_RULE_DIALOG (self), 0);
  return self->n_preview_series;
}

const char *
embers_rule_dialog_get_preview_text (EmbersRuleDialog *self)
{
  g_return_val_if_fail (EMBERS_IS_RULE_DIALOG (self), NULL);
  return gtk_label_get_text (self->preview_label);
}

/* ---- profile type (New Rule…) --------------------------------------------- */

/* The matchers with the profile type replaced (or added in front) */
static void
apply_profile_type (EmbersRuleDialog *self,
                    const char       *type)
{
  gboolean replaced = FALSE;

  for (GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (self->matcher_rows));
       row != NULL && !replaced;
       row = gtk_widget_get_next_sibling (row))
    {
      GtkEditable *entry = matcher_entry_of (row);
      g_autoptr(EmbersSelector) sel = embers_selector_parse_metric_selector (gtk_editable_get_text (entry), NULL);
      g_autoptr(EmbersSelector) rebuilt = embers_selector_new ();
      g_autofree char *text = NULL;

      if (sel == NULL)
        continue;
      for (guint i = 0; i < embers_selector_get_n_matchers (sel); i++)
        {
          const EmbersMatcher *m = embers_selector_get_matcher (sel, i);

          if (g_str_equal (m->name, "__profile_type__"))
            {
              if (!replaced)
                embers_selector_add (rebuilt, "__profile_type__", EMBERS_MATCH_EQUAL, type, NULL);
              replaced = TRUE;
            }
          else
            embers_selector_add_matcher (rebuilt, m);
        }
      if (replaced)
        {
          text = embers_selector_to_string (rebuilt);
          gtk_editable_set_text (entry, text);
        }
    }

  if (!replaced)
    {
      GtkWidget *first = gtk_widget_get_first_child (GTK_WIDGET (self->matcher_rows));
      g_autofree char *quoted = embers_selector_quote (type);
      g_autofree char *text = g_strdup_printf ("{__profile_type__=%s}", quoted);

      /* An empty first row takes it, else a row in front */
      if (first != NULL && is_blank (gtk_editable_get_text (matcher_entry_of (first))))
        gtk_editable_set_text (matcher_entry_of (first), text);
      else
        add_matcher_row (self, text, TRUE);
    }

  /* A suggested name follows the type until someone edits it */
  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self->metric_entry)), self->suggested_metric) == 0 ||
      is_blank (gtk_editable_get_text (GTK_EDITABLE (self->metric_entry))))
    {
      const char *function = gtk_editable_get_text (GTK_EDITABLE (self->function_entry));

      g_free (self->suggested_metric);
      self->suggested_metric = embers_recording_rule_suggest_metric_name (self->service, type,
                                                                          function[0] ? function : NULL);
      gtk_editable_set_text (GTK_EDITABLE (self->metric_entry), self->suggested_metric);
    }
  on_edited (self);
}

static void
on_type_selected (EmbersRuleDialog *self)
{
  guint position = gtk_drop_down_get_selected (self->type_drop_down);
  const char *type;

  if (self->syncing_type || position == GTK_INVALID_LIST_POSITION)
    return;
  type = gtk_string_list_get_string (self->type_ids, position);
  if (type != NULL)
    apply_profile_type (self, type);
}

static guint
type_position (EmbersRuleDialog *self,
               const char       *type)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->type_ids));

  for (guint i = 0; i < n; i++)
    if (g_strcmp0 (gtk_string_list_get_string (self->type_ids, i), type) == 0)
      return i;
  return GTK_INVALID_LIST_POSITION;
}

static void
profile_types_done (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(EmbersRuleDialog) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) types = embers_source_list_profile_types_finish (EMBERS_SOURCE (object), result, &error);
  g_autoptr(EmbersRecordingRule) rule = NULL;
  g_autofree char *current = NULL;
  guint position;

  if (disposed (self))
    return;
  if (types == NULL)
    {
      /* Only a convenience: the matchers still take any type */
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_debug ("No profile types for the rule dialog: %s", error->message);
      return;
    }

  rule = embers_rule_dialog_dup_rule (self);
  current = embers_recording_rule_derive_profile_type (rule);

  self->syncing_type = TRUE;
  gtk_string_list_splice (self->type_ids, 0, g_list_model_get_n_items (G_LIST_MODEL (self->type_ids)), NULL);
  for (guint i = 0; i < types->len; i++)
    gtk_string_list_append (self->type_ids, ((EmbersProfileTypeInfo *)g_ptr_array_index (types, i))->id);
  if (!g_str_equal (current, "unknown") && type_position (self, current) == GTK_INVALID_LIST_POSITION)
    gtk_string_list_append (self->type_ids, current);
  self->types_loaded = TRUE;
  gtk_widget_set_visible (self->type_label, TRUE);
  gtk_widget_set_visible (GTK_WIDGET (self->type_drop_down), TRUE);

  position = type_position (self, current);
  if (position == GTK_INVALID_LIST_POSITION)
    {
      /* None yet (New Rule…): CPU when the server has it, else the first,
       * so that the rule starts out valid */
      position = type_position (self, "process_cpu:cpu:nanoseconds:cpu:nanoseconds");
      if (position == GTK_INVALID_LIST_POSITION && types->len > 0)
        position = 0;
      if (position != GTK_INVALID_LIST_POSITION)
        {
          GtkWidget *focus = adw_dialog_get_focus (ADW_DIALOG (self));
          GtkWidget *first = gtk_widget_get_first_child (GTK_WIDGET (self->matcher_rows));

          gtk_drop_down_set_selected (self->type_drop_down, position);
          self->syncing_type = FALSE;
          apply_profile_type (self, gtk_string_list_get_string (self->type_ids, position));
          /* The empty matcher had the focus only for want of a type: the
           * name comes first now that the rule is valid */
          if (focus != NULL && first != NULL && gtk_widget_is_ancestor (focus, first))
            adw_dialog_set_focus (ADW_DIALOG (self), GTK_WIDGET (self->metric_entry));
          return;
        }
    }
  gtk_drop_down_set_selected (self->type_drop_down, position);
  self->syncing_type = FALSE;
}

static void
load_profile_types (EmbersRuleDialog *self)
{
  gint64 end = g_get_real_time () / 1000;

  if (self->source == NULL || self->id != NULL)
    return;
  embers_source_list_profile_types (self->source, end - 24 * 3600 * 1000, end, self->cancellable,
                                    profile_types_done, g_object_ref (self));
}

gboolean
embers_rule_dialog_set_profile_type (EmbersRuleDialog *self,
                                     const char       *type)
{
  guint position;

  g_return_val_if_fail (EMBERS_IS_RULE_DIALOG (self), FALSE);

  position = type_position (self, type);
  if (!self->types_loaded || position == GTK_INVALID_LIST_POSITION)
    return FALSE;
  if (gtk_drop_down_get_selected (self->type_drop_down) == position)
    apply_profile_type (self, type);
  else
    gtk_drop_down_set_selected (self->type_drop_down, position);
  return TRUE;
}

guint
embers_rule_dialog_get_n_profile_types (EmbersRuleDialog *self)
{
  g_return_val_if_fail (EMBERS_IS_RULE_DIALOG (self), 0);
  return self->types_loaded ? g_list_model_get_n_items (G_LIST_MODEL (self->type_ids)) : 0;
}

/* ---- reload after a conflict ------------------------------------------------ */

/* The fields from a rule as the server stored it */
static void
fill_fields (EmbersRuleDialog          *self,
             const EmbersRecordingRule *rule)
{
  g_autofree char *group_by = NULL;

  group_by = rule->group_by ? g_strjoinv (", ", rule->group_by) : g_strdup ("");

  self->changing = TRUE;
  gtk_editable_set_text (GTK_EDITABLE (self->metric_entry), rule->metric_name ? rule->metric_name : "");
  set_matchers (self, (const char * const *)rule->matchers);
  gtk_editable_set_text (GTK_EDITABLE (self->group_by_entry), group_by);
  set_labels (self, (const char * const *)rule->external_label_names,
              (const char * const *)rule->external_label_values);
  gtk_editable_set_text (GTK_EDITABLE (self->function_entry), rule->function_name ? rule->function_name : "");
  self->changing = FALSE;
  for (guint f = 0; f < EMBERS_RULE_N_FIELDS; f++)
    g_clear_pointer (&self->server_text[f], g_free);
  validate (self);
}

static void
reload_done (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(EmbersRuleDialog) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersRecordingRule) rule = embers_source_get_recording_rule_finish (EMBERS_SOURCE (object), result, &error);
  gboolean keep_mine = GPOINTER_TO_INT (g_object_steal_data (G_OBJECT (self), "embers-keep-mine"));

  if (disposed (self) || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  self->busy = FALSE;
  gtk_widget_set_visible (self->spinner, FALSE);

  if (rule == NULL)
    {
      g_autofree char *text = g_strdup_printf (_("Could not load the current version: %s"), error->message);

      set_status (self, text, STATUS_ERROR);
      validate (self);
      return;
    }

  self->conflict = FALSE;
  gtk_widget_set_visible (self->conflict_box, FALSE);
  self->generation = rule->generation;
  if (keep_mine)
    {
      set_status (self, _("Your changes are kept. Saving now replaces the current version on the server."),
                  STATUS_INFO);
      validate (self);
    }
  else
    {
      fill_fields (self, rule);
      set_status (self, _("This is the current version on the server."), STATUS_INFO);
    }
}

void
embers_rule_dialog_reload (EmbersRuleDialog *self,
                           gboolean          keep_mine)
{
  g_return_if_fail (EMBERS_IS_RULE_DIALOG (self));

  if (self->server == NULL || self->id == NULL || self->busy)
    return;

  self->busy = TRUE;
  gtk_widget_set_visible (self->spinner, TRUE);
  update_buttons (self);
  g_object_set_data (G_OBJECT (self), "embers-keep-mine", GINT_TO_POINTER (keep_mine));
  embers_source_get_recording_rule (self->server, self->id, self->cancellable,
                                    reload_done, g_object_ref (self));
}

gboolean
embers_rule_dialog_get_conflict (EmbersRuleDialog *self)
{
  g_return_val_if_fail (EMBERS_IS_RULE_DIALOG (self), FALSE);
  return self->conflict;
}

static void
load_current (EmbersRuleDialog *self)
{
  embers_rule_dialog_reload (self, FALSE);
}

static void
keep_mine (EmbersRuleDialog *self)
{
  embers_rule_dialog_reload (self, TRUE);
}

/* ---- group by --------------------------------------------------------------- */

/* The service's label names as toggles that edit the entry, so that
 * nobody has to remember or type them */
static void
sync_chips (EmbersRuleDialog *self)
{
  g_auto(GStrv) names = split_list (gtk_editable_get_text (GTK_EDITABLE (self->group_by_entry)));
  GtkWidget *child;

  self->syncing_chips = TRUE;
  for (child = gtk_widget_get_first_child (GTK_WIDGET (self->group_by_chips));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *toggle = gtk_flow_box_child_get_child (GTK_FLOW_BOX_CHILD (child));
      const char *name = g_object_get_data (G_OBJECT (toggle), "label-name");

      gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (toggle), g_strv_contains ((const char * const *)names, name));
    }
  self->syncing_chips = FALSE;
}

static void
chip_toggled (GtkToggleButton  *toggle,
              EmbersRuleDialog *self)
{
  GtkEditable *entry = GTK_EDITABLE (self->group_by_entry);
  g_auto(GStrv) names = split_list (gtk_editable_get_text (entry));
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) result = NULL;
  g_autofree char *text = NULL;
  const char *name = g_object_get_data (G_OBJECT (toggle), "label-name");
  gboolean active = gtk_toggle_button_get_active (toggle);

  if (self->syncing_chips)
    return;

  for (guint i = 0; names[i]; i++)
    if (!g_str_equal (names[i], name))
      g_strv_builder_add (builder, names[i]);
  if (active)
    g_strv_builder_add (builder, name);
  result = g_strv_builder_end (builder);
  text = g_strjoinv (", ", result);
  gtk_editable_set_text (entry, text);
}

static void
label_names_done (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(EmbersRuleDialog) self = user_data;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) names = embers_source_list_label_names_finish (EMBERS_SOURCE (object), result, &error);
  guint shown = 0;

  if (disposed (self))
    return;
  if (names == NULL)
    {
      /* Only a convenience: the entry still takes any name */
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_debug ("No label names for the group-by toggles: %s", error->message);
      return;
    }

  for (guint i = 0; names[i]; i++)
    {
      GtkWidget *toggle;

      /* Internals (__name__, __profile_type__…) cannot be grouped by */
      if (g_str_has_prefix (names[i], "__"))
        continue;
      toggle = gtk_toggle_button_new_with_label (names[i]);
      gtk_widget_add_css_class (toggle, "caption");
      /* A flow box's columns are equally wide: chips fill them, as a grid,
       * rather than leave gaps of different widths after short names */
      gtk_widget_set_halign (toggle, GTK_ALIGN_FILL);
      g_object_set_data_full (G_OBJECT (toggle), "label-name", g_strdup (names[i]), g_free);
      gtk_widget_set_tooltip_text (toggle, _("Record one series per value of this label"));
      g_signal_connect (toggle, "toggled", G_CALLBACK (chip_toggled), self);
      gtk_flow_box_append (self->group_by_chips, toggle);
      shown++;
    }
  gtk_widget_set_visible (GTK_WIDGET (self->group_by_chips), shown > 0);
  sync_chips (self);
}

static void
load_label_names (EmbersRuleDialog *self)
{
  g_autoptr(EmbersRecordingRule) rule = embers_rule_dialog_dup_rule (self);
  g_autoptr(GStrvBuilder) parsable = g_strv_builder_new ();
  g_auto(GStrv) matchers = NULL;
  gint64 end = g_get_real_time () / 1000;
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->group_by_chips))) != NULL)
    gtk_flow_box_remove (self->group_by_chips, child);
  gtk_widget_set_visible (GTK_WIDGET (self->group_by_chips), FALSE);
  if (self->source == NULL)
    return;

  /* The label names of the profiles the rule matches, over the last day
   * (matchers that do not parse yet are left out). One selector of them
   * all: LabelNames takes the union of its matchers (a series matching
   * any), so {__profile_type__=…} and {service_name="api"} apart would
   * offer every service's labels */
  {
    g_autoptr(EmbersSelector) all = embers_selector_new ();
    g_autofree char *joined = NULL;

    for (guint i = 0; rule->matchers[i]; i++)
      {
        g_autoptr(EmbersSelector) sel = embers_selector_parse_metric_selector (rule->matchers[i], NULL);

        for (guint k = 0; sel != NULL && k < embers_selector_get_n_matchers (sel); k++)
          embers_selector_add_matcher (all, embers_selector_get_matcher (sel, k));
      }
    joined = embers_selector_to_string (all);
    if (embers_selector_get_n_matchers (all) > 0)
      g_strv_builder_add (parsable, joined);
  }
  matchers = g_strv_builder_end (parsable);
  embers_source_list_label_names (self->source, (const char * const *)matchers,
                                  end - 24 * 3600 * 1000, end, self->cancellable,
                                  label_names_done, g_object_ref (self));
}

void
embers_rule_dialog_set_time_range (EmbersRuleDialog *self,
                                   gint64            start_ms,
                                   gint64            end_ms)
{
  g_return_if_fail (EMBERS_IS_RULE_DIALOG (self));

  self->preview_start = start_ms;
  self->preview_end = end_ms;
  schedule_preview (self);
}

void
embers_rule_dialog_set_call_site (EmbersRuleDialog   *self,
                                  const char * const *call_site)
{
  g_return_if_fail (EMBERS_IS_RULE_DIALOG (self));

  g_strfreev (self->call_site);
  self->call_site = call_site != NULL && call_site[0] != NULL ? g_strdupv ((char **) call_site) : NULL;
  schedule_preview (self);
}

gboolean
embers_rule_dialog_get_preview_call_site (EmbersRuleDialog *self)
{
  g_return_val_if_fail (EMBERS_IS_RULE_DIALOG (self), FALSE);
  return self->preview_call_site;
}

double
embers_rule_dialog_get_preview_sum (EmbersRuleDialog *self)
{
  g_return_val_if_fail (EMBERS_IS_RULE_DIALOG (self), 0);
  return self->preview_sum;
}

void
embers_rule_dialog_get_preview_range (EmbersRuleDialog *self,
                                      gint64           *start_ms,
                                      gint64           *end_ms)
{
  g_return_if_fail (EMBERS_IS_RULE_DIALOG (self));

  if (start_ms != NULL)
    *start_ms = self->shown_start;
  if (end_ms != NULL)
    *end_ms = self->shown_end;
}

guint
embers_rule_dialog_get_n_group_by_choices (EmbersRuleDialog *self)
{
  guint n = 0;

  g_return_val_if_fail (EMBERS_IS_RULE_DIALOG (self), 0);

  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->group_by_chips));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    n++;
  return n;
}

gboolean
embers_rule_dialog_toggle_group_by (EmbersRuleDialog *self,
                                    const char       *name)
{
  g_return_val_if_fail (EMBERS_IS_RULE_DIALOG (self), FALSE);

  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->group_by_chips));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *toggle = gtk_flow_box_child_get_child (GTK_FLOW_BOX_CHILD (child));

      if (g_strcmp0 (g_object_get_data (G_OBJECT (toggle), "label-name"), name) == 0)
        {
          gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (toggle),
                                        !gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (toggle)));
          return TRUE;
        }
    }
  return FALSE;
}

/* ---- source ------------------------------------------------------------------ */

void
embers_rule_dialog_set_source (EmbersRuleDialog *self,
                               EmbersSource     *source)
{
  g_return_if_fail (EMBERS_IS_RULE_DIALOG (self));

  if (self->source != NULL)
    g_signal_handlers_disconnect_by_func (self->source, on_capabilities, self);
  g_set_object (&self->source, source);
  if (source != NULL)
    g_signal_connect_object (source, "notify::capabilities", G_CALLBACK (on_capabilities), self,
                             G_CONNECT_SWAPPED);
  gtk_widget_set_visible (GTK_WIDGET (self->chart_area), source != NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->preview_label), source != NULL);
  on_capabilities (self);
  load_label_names (self);
  load_profile_types (self);
  validate (self);
}

/* ---- keyboard ------------------------------------------------------------------ */

/* The first field that needs work, else the metric name */
static void
focus_first_field (EmbersRuleDialog *self)
{
  static const EmbersRuleField order[] = {
    EMBERS_RULE_FIELD_METRIC_NAME, EMBERS_RULE_FIELD_MATCHERS, EMBERS_RULE_FIELD_GROUP_BY,
    EMBERS_RULE_FIELD_EXTERNAL_LABELS, EMBERS_RULE_FIELD_FUNCTION,
  };
  GtkWidget *focus = GTK_WIDGET (self->metric_entry);

  for (guint i = 0; i < G_N_ELEMENTS (order); i++)
    if (self->message_text[order[i]] != NULL && field_widget (self, order[i]) != NULL)
      {
        focus = field_widget (self, order[i]);
        break;
      }
  adw_dialog_set_focus (ADW_DIALOG (self), focus);
}

/* ---- lifecycle ----------------------------------------------------------------- */

static void
embers_rule_dialog_dispose (GObject *object)
{
  EmbersRuleDialog *self = EMBERS_RULE_DIALOG (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->server);
  g_clear_pointer (&self->tenant, g_free);
  g_clear_pointer (&self->id, g_free);
  g_clear_pointer (&self->service, g_free);
  g_clear_pointer (&self->suggested_metric, g_free);
  g_clear_pointer (&self->disabled_reason, g_free);
  g_clear_pointer (&self->notice_text, g_free);
  g_clear_pointer (&self->call_site, g_strfreev);
  g_clear_handle_id (&self->preview_timeout, g_source_remove);
  if (self->preview_cancellable != NULL)
    g_cancellable_cancel (self->preview_cancellable);
  g_clear_object (&self->preview_cancellable);
  if (self->source != NULL)
    g_signal_handlers_disconnect_by_func (self->source, on_capabilities, self);
  g_clear_object (&self->source);
  g_clear_pointer (&self->chart, embers_chart_unref);
  g_clear_object (&self->type_ids);
  for (guint f = 0; f < EMBERS_RULE_N_FIELDS; f++)
    {
      g_clear_pointer (&self->message_text[f], g_free);
      g_clear_pointer (&self->server_text[f], g_free);
      g_clear_pointer (&self->field_text[f], g_free);
    }

  G_OBJECT_CLASS (embers_rule_dialog_parent_class)->dispose (object);
}

static void
embers_rule_dialog_class_init (EmbersRuleDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = embers_rule_dialog_dispose;

  /**
   * EmbersRuleDialog::created:
   * @rule: the rule as the server stored it (EmbersRecordingRule)
   */
  signals[SIGNAL_CREATED] = g_signal_new ("created", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                          0, NULL, NULL, NULL, G_TYPE_NONE, 1,
                                          EMBERS_TYPE_RECORDING_RULE | G_SIGNAL_TYPE_STATIC_SCOPE);
  /* (Escape closes it, as Cancel does: AdwDialog's own key) */
}

/* A field's label in the first column, its message under the widget */
static GtkLabel *
attach_field (EmbersRuleDialog *self,
              GtkGrid          *grid,
              int              *row,
              const char       *label_text,
              GtkWidget        *widget,
              GtkWidget        *mnemonic,
              EmbersRuleField   field)
{
  GtkWidget *label = gtk_label_new_with_mnemonic (label_text);

  gtk_label_set_xalign (GTK_LABEL (label), 1);
  gtk_widget_set_valign (label, GTK_ALIGN_START);
  gtk_widget_set_margin_top (label, 7);
  if (mnemonic != NULL)
    gtk_label_set_mnemonic_widget (GTK_LABEL (label), mnemonic);
  gtk_grid_attach (grid, label, 0, *row, 1, 1);
  gtk_grid_attach (grid, widget, 1, *row, 1, 1);
  (*row)++;

  if (field != EMBERS_RULE_N_FIELDS)
    {
      GtkWidget *message = gtk_label_new (NULL);

      gtk_label_set_xalign (GTK_LABEL (message), 0);
      gtk_label_set_wrap (GTK_LABEL (message), TRUE);
      gtk_label_set_selectable (GTK_LABEL (message), TRUE);
      gtk_widget_add_css_class (message, "error");
      gtk_widget_add_css_class (message, "caption");
      gtk_widget_set_visible (message, FALSE);
      gtk_grid_attach (grid, message, 1, *row, 1, 1);
      (*row)++;
      self->messages[field] = GTK_LABEL (message);
      if (GTK_IS_ENTRY (widget))
        gtk_accessible_update_relation (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_RELATION_DESCRIBED_BY,
                                        message, NULL, -1);
    }
  return GTK_LABEL (label);
}

static GtkWidget *
new_entry (EmbersRuleDialog *self,
           const char       *placeholder)
{
  GtkWidget *entry = gtk_entry_new ();

  gtk_entry_set_placeholder_text (GTK_ENTRY (entry), placeholder);
  gtk_widget_set_hexpand (entry, TRUE);
  /* Enter creates (or saves) once the rule is valid */
  gtk_entry_set_activates_default (GTK_ENTRY (entry), TRUE);
  g_signal_connect_object (entry, "changed", G_CALLBACK (on_edited), self, G_CONNECT_SWAPPED);
  return entry;
}

static GtkWidget *
new_add_button (const char *label,
                GCallback   callback,
                gpointer    self)
{
  GtkWidget *button = gtk_button_new ();
  GtkWidget *content = adw_button_content_new ();

  adw_button_content_set_icon_name (ADW_BUTTON_CONTENT (content), "list-add-symbolic");
  adw_button_content_set_label (ADW_BUTTON_CONTENT (content), label);
  gtk_button_set_child (GTK_BUTTON (button), content);
  gtk_widget_add_css_class (button, "flat");
  gtk_widget_set_halign (button, GTK_ALIGN_START);
  g_signal_connect_swapped (button, "clicked", callback, self);
  return button;
}

static void
embers_rule_dialog_init (EmbersRuleDialog *self)
{
  GtkWidget *toolbar, *header, *scrolled, *box, *grid, *buttons, *column, *widget;
  GtkWidget *notice_text;
  int row = 0;

  self->cancellable = g_cancellable_new ();
  self->type_ids = gtk_string_list_new (NULL);

  adw_dialog_set_title (ADW_DIALOG (self), _("Create Recording Rule"));
  adw_dialog_set_content_width (ADW_DIALOG (self), 700);
  adw_dialog_set_content_height (ADW_DIALOG (self), 800);

  toolbar = adw_toolbar_view_new ();
  header = adw_header_bar_new ();
  self->title = ADW_WINDOW_TITLE (adw_window_title_new (_("Create Recording Rule"),
                                                        _("A Prometheus metric from profiles")));
  adw_header_bar_set_title_widget (ADW_HEADER_BAR (header), GTK_WIDGET (self->title));
  adw_header_bar_set_show_end_title_buttons (ADW_HEADER_BAR (header), FALSE);
  adw_header_bar_set_show_start_title_buttons (ADW_HEADER_BAR (header), FALSE);
  self->cancel_button = GTK_BUTTON (gtk_button_new_with_mnemonic (_("_Cancel")));
  g_signal_connect_swapped (self->cancel_button, "clicked", G_CALLBACK (adw_dialog_close), self);
  adw_header_bar_pack_start (ADW_HEADER_BAR (header), GTK_WIDGET (self->cancel_button));
  self->create_button = GTK_BUTTON (gtk_button_new_with_mnemonic (_("C_reate")));
  gtk_widget_add_css_class (GTK_WIDGET (self->create_button), "suggested-action");
  g_signal_connect_swapped (self->create_button, "clicked", G_CALLBACK (embers_rule_dialog_create), self);
  adw_header_bar_pack_end (ADW_HEADER_BAR (header), GTK_WIDGET (self->create_button));
  self->spinner = adw_spinner_new ();
  gtk_widget_set_visible (self->spinner, FALSE);
  adw_header_bar_pack_end (ADW_HEADER_BAR (header), self->spinner);
  adw_toolbar_view_add_top_bar (ADW_TOOLBAR_VIEW (toolbar), header);

  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  gtk_widget_set_margin_top (box, 18);
  gtk_widget_set_margin_bottom (box, 18);
  gtk_widget_set_margin_start (box, 18);
  gtk_widget_set_margin_end (box, 18);

  /* Why the rule can only be copied here (no server, or rules off) */
  self->notice = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  gtk_widget_add_css_class (self->notice, "card");
  widget = gtk_image_new_from_icon_name ("dialog-information-symbolic");
  gtk_widget_set_valign (widget, GTK_ALIGN_START);
  gtk_widget_set_margin_start (widget, 12);
  gtk_widget_set_margin_top (widget, 12);
  gtk_widget_add_css_class (widget, "dim-label");
  gtk_box_append (GTK_BOX (self->notice), widget);
  notice_text = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  gtk_widget_set_margin_top (notice_text, 12);
  gtk_widget_set_margin_bottom (notice_text, 12);
  gtk_widget_set_margin_end (notice_text, 12);
  gtk_widget_set_hexpand (notice_text, TRUE);
  self->notice_title = GTK_LABEL (gtk_label_new (NULL));
  gtk_widget_add_css_class (GTK_WIDGET (self->notice_title), "heading");
  self->notice_body = GTK_LABEL (gtk_label_new (NULL));
  /* The flag whole on its own line: never broken at its dashes */
  self->notice_flag = GTK_LABEL (gtk_label_new (RULES_FLAG));
  gtk_widget_add_css_class (GTK_WIDGET (self->notice_flag), "monospace");
  self->notice_details = GTK_LABEL (gtk_label_new (NULL));
  gtk_widget_add_css_class (GTK_WIDGET (self->notice_details), "dim-label");
  gtk_widget_add_css_class (GTK_WIDGET (self->notice_details), "caption");
  for (GtkLabel *l = self->notice_title; l != NULL;
       l = l == self->notice_title ? self->notice_body
         : l == self->notice_body ? self->notice_flag
         : l == self->notice_flag ? self->notice_details : NULL)
    {
      gtk_label_set_xalign (l, 0);
      gtk_label_set_selectable (l, TRUE);
      gtk_label_set_wrap (l, l != self->notice_flag);
      gtk_box_append (GTK_BOX (notice_text), GTK_WIDGET (l));
    }
  gtk_box_append (GTK_BOX (self->notice), notice_text);
  gtk_widget_set_visible (self->notice, FALSE);
  gtk_box_append (GTK_BOX (box), self->notice);

  grid = gtk_grid_new ();
  gtk_grid_set_row_spacing (GTK_GRID (grid), 4);
  gtk_grid_set_column_spacing (GTK_GRID (grid), 12);

  /* New Rule…: the profile type, from the source's types */
  self->type_drop_down = GTK_DROP_DOWN (gtk_drop_down_new (G_LIST_MODEL (g_object_ref (self->type_ids)), NULL));
  embers_drop_down_shorten_on_button (self->type_drop_down);
  embers_accessible_set_label (GTK_WIDGET (self->type_drop_down), _("Profile Type"));
  gtk_widget_set_hexpand (GTK_WIDGET (self->type_drop_down), TRUE);
  g_signal_connect_object (self->type_drop_down, "notify::selected", G_CALLBACK (on_type_selected), self,
                           G_CONNECT_SWAPPED);
  self->type_label = GTK_WIDGET (attach_field (self, GTK_GRID (grid), &row, _("_Profile type"),
                                               GTK_WIDGET (self->type_drop_down),
                                               GTK_WIDGET (self->type_drop_down), EMBERS_RULE_N_FIELDS));
  gtk_widget_set_margin_top (self->type_label, 0);
  gtk_widget_set_valign (self->type_label, GTK_ALIGN_CENTER);
  gtk_widget_set_visible (self->type_label, FALSE);
  gtk_widget_set_visible (GTK_WIDGET (self->type_drop_down), FALSE);

  self->metric_entry = GTK_ENTRY (new_entry (self, _("profiles_recorded_…")));
  attach_field (self, GTK_GRID (grid), &row, _("_Metric name"), GTK_WIDGET (self->metric_entry),
                GTK_WIDGET (self->metric_entry), EMBERS_RULE_FIELD_METRIC_NAME);

  /* One row per matcher string, as the server keeps them */
  column = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  self->matcher_rows = GTK_BOX (gtk_box_new (GTK_ORIENTATION_VERTICAL, 4));
  gtk_box_append (GTK_BOX (column), GTK_WIDGET (self->matcher_rows));
  gtk_box_append (GTK_BOX (column), new_add_button (_("Add Matcher"), G_CALLBACK (on_add_matcher), self));
  self->matchers_label = attach_field (self, GTK_GRID (grid), &row, _("M_atchers"), column, NULL,
                                       EMBERS_RULE_FIELD_MATCHERS);

  self->group_by_entry = GTK_ENTRY (new_entry (self, _("Label names, separated by commas")));
  attach_field (self, GTK_GRID (grid), &row, _("_Group by"), GTK_WIDGET (self->group_by_entry),
                GTK_WIDGET (self->group_by_entry), EMBERS_RULE_FIELD_GROUP_BY);
  self->group_by_chips = GTK_FLOW_BOX (gtk_flow_box_new ());
  gtk_flow_box_set_selection_mode (self->group_by_chips, GTK_SELECTION_NONE);
  gtk_flow_box_set_min_children_per_line (self->group_by_chips, 2);
  gtk_flow_box_set_max_children_per_line (self->group_by_chips, 32);
  gtk_flow_box_set_column_spacing (self->group_by_chips, 4);
  gtk_flow_box_set_row_spacing (self->group_by_chips, 4);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->group_by_chips), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Label names to group by"), -1);
  gtk_widget_set_visible (GTK_WIDGET (self->group_by_chips), FALSE);
  gtk_grid_attach (GTK_GRID (grid), GTK_WIDGET (self->group_by_chips), 1, row++, 1, 1);
  g_signal_connect_object (self->group_by_entry, "changed", G_CALLBACK (sync_chips), self, G_CONNECT_SWAPPED);

  /* name = value rows: a value may hold commas, "=" and spaces */
  column = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  self->label_rows = GTK_BOX (gtk_box_new (GTK_ORIENTATION_VERTICAL, 4));
  gtk_box_append (GTK_BOX (column), GTK_WIDGET (self->label_rows));
  widget = new_add_button (_("Add Label"), G_CALLBACK (on_add_label), self);
  gtk_widget_set_tooltip_text (widget, _("A label with a fixed value on every recorded series"));
  gtk_box_append (GTK_BOX (column), widget);
  self->labels_label = attach_field (self, GTK_GRID (grid), &row, _("_External labels"), column, widget,
                                     EMBERS_RULE_FIELD_EXTERNAL_LABELS);

  self->function_entry = GTK_ENTRY (new_entry (self, _("Only stacks through this function (empty: all)")));
  attach_field (self, GTK_GRID (grid), &row, _("_Function"), GTK_WIDGET (self->function_entry),
                GTK_WIDGET (self->function_entry), EMBERS_RULE_FIELD_FUNCTION);
  gtk_box_append (GTK_BOX (box), grid);

  /* What happened; errors are read out with their text */
  self->status = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (self->status, TRUE);
  gtk_label_set_xalign (self->status, 0);
  gtk_label_set_selectable (self->status, TRUE);
  gtk_widget_set_visible (GTK_WIDGET (self->status), FALSE);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->status));

  /* After a conflicting update: start again from the server's version,
   * or keep what was typed and save it over that version */
  self->conflict_box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  {
    GtkWidget *load = gtk_button_new_with_mnemonic (_("_Load Current Version"));
    GtkWidget *keep = gtk_button_new_with_mnemonic (_("_Keep My Changes"));

    gtk_widget_set_tooltip_text (load, _("Replace the fields with the rule as it is on the server now"));
    gtk_widget_set_tooltip_text (keep, _("Keep the fields as they are; saving then overwrites the server’s version"));
    g_signal_connect_swapped (load, "clicked", G_CALLBACK (load_current), self);
    g_signal_connect_swapped (keep, "clicked", G_CALLBACK (keep_mine), self);
    gtk_box_append (GTK_BOX (self->conflict_box), load);
    gtk_box_append (GTK_BOX (self->conflict_box), keep);
  }
  gtk_widget_set_visible (self->conflict_box, FALSE);
  gtk_box_append (GTK_BOX (box), self->conflict_box);

  self->preview_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->preview_label, 0);
  gtk_label_set_wrap (self->preview_label, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->preview_label), "dim-label");
  gtk_widget_set_visible (GTK_WIDGET (self->preview_label), FALSE);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->preview_label));
  self->chart = embers_chart_new (EMBERS_CHART_KIND_LINES);
  self->chart_area = GTK_DRAWING_AREA (gtk_drawing_area_new ());
  gtk_drawing_area_set_content_height (self->chart_area, 140);
  gtk_drawing_area_set_draw_func (self->chart_area, preview_draw, self, NULL);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->chart_area), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Preview of the recorded series"), -1);
  gtk_widget_set_visible (GTK_WIDGET (self->chart_area), FALSE);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->chart_area));

  /* For servers without the rules API: the rule as configuration */
  /* One above the other when they do not fit side by side (a narrow
   * window, longer words) */
  buttons = adw_wrap_box_new ();
  adw_wrap_box_set_child_spacing (ADW_WRAP_BOX (buttons), 6);
  adw_wrap_box_set_line_spacing (ADW_WRAP_BOX (buttons), 6);
  self->copy_override_button = GTK_BUTTON (gtk_button_new_with_mnemonic (_("Copy as _Tenant Override")));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->copy_override_button),
                               _("The rule as a per-tenant “recording_rules” override (YAML)"));
  g_signal_connect_swapped (self->copy_override_button, "clicked", G_CALLBACK (copy_override), self);
  self->copy_og_button = GTK_BUTTON (gtk_button_new_with_mnemonic (_("Copy for _Original Pyroscope")));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->copy_og_button),
                               _("The rule as a “metrics-export-rules” entry of Pyroscope 0.x (FlameQL)"));
  g_signal_connect_swapped (self->copy_og_button, "clicked", G_CALLBACK (copy_og), self);
  adw_wrap_box_append (ADW_WRAP_BOX (buttons), GTK_WIDGET (self->copy_override_button));
  adw_wrap_box_append (ADW_WRAP_BOX (buttons), GTK_WIDGET (self->copy_og_button));
  self->override_note = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->override_note, 0);
  gtk_label_set_wrap (self->override_note, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->override_note), "dim-label");
  gtk_widget_add_css_class (GTK_WIDGET (self->override_note), "caption");

  /* The form scrolls when the window is smaller than it */
  scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scrolled), TRUE);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scrolled), 700);
  gtk_widget_set_vexpand (scrolled, TRUE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), box);
  adw_toolbar_view_set_content (ADW_TOOLBAR_VIEW (toolbar), scrolled);

  /* The copies stay in sight below it: without the rules API they are
   * the way forward */
  adw_toolbar_view_set_bottom_bar_style (ADW_TOOLBAR_VIEW (toolbar), ADW_TOOLBAR_RAISED_BORDER);
  column = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  gtk_widget_set_margin_top (column, 12);
  gtk_widget_set_margin_bottom (column, 12);
  gtk_widget_set_margin_start (column, 18);
  gtk_widget_set_margin_end (column, 18);
  gtk_box_append (GTK_BOX (column), buttons);
  gtk_box_append (GTK_BOX (column), GTK_WIDGET (self->override_note));
  adw_toolbar_view_add_bottom_bar (ADW_TOOLBAR_VIEW (toolbar), column);
  adw_dialog_set_child (ADW_DIALOG (self), toolbar);

  set_labels (self, NULL, NULL);
}

/* Where the tenant override goes: said once the server is known */
static void
update_override_note (EmbersRuleDialog *self)
{
  /* Translators: %s is a tenant id, e.g. anonymous */
  g_autofree char *note = g_strdup_printf (_("A tenant override goes into Pyroscope’s runtime configuration "
                                             "file (-runtime-config.file), under overrides for tenant “%s”."),
                                           tenant (self));

  gtk_label_set_text (self->override_note, note);
}

static EmbersRuleDialog *
dialog_new (EmbersSource *source)
{
  EmbersRuleDialog *self = g_object_new (EMBERS_TYPE_RULE_DIALOG, NULL);

  if (source != NULL && embers_source_offers_recording_rules (source))
    self->server = g_object_ref (source);
  update_override_note (self);
  if (self->server == NULL)
    show_notice (self, _("Not From a Pyroscope Server"),
                 _("This profile does not come from a Pyroscope server: copy the rule as server configuration."),
                 FALSE, NULL);
  return self;
}

EmbersRuleDialog *
embers_rule_dialog_new (EmbersSource *source,
                        const char   *service,
                        const char   *profile_type,
                        const char   *selector,
                        const char   *function_name)
{
  EmbersRuleDialog *self = dialog_new (source);
  g_autoptr(EmbersSelector) filters = NULL;
  g_autoptr(EmbersSelector) rest = embers_selector_new ();
  g_autoptr(GStrvBuilder) matchers = g_strv_builder_new ();
  g_auto(GStrv) strv = NULL;
  gboolean has_service = FALSE;

  self->service = g_strdup (service);

  /* The profile type, then the current filters (with the service) */
  if (profile_type != NULL && profile_type[0] != '\0')
    {
      g_autofree char *quoted = embers_selector_quote (profile_type);
      g_autofree char *text = g_strdup_printf ("{__profile_type__=%s}", quoted);

      g_strv_builder_add (matchers, text);
    }
  filters = selector ? embers_selector_parse (selector, NULL, NULL) : NULL;
  for (guint i = 0; filters && i < embers_selector_get_n_matchers (filters); i++)
    {
      const EmbersMatcher *m = embers_selector_get_matcher (filters, i);

      if (g_str_equal (m->name, "__profile_type__"))
        continue;
      has_service |= g_str_equal (m->name, "service_name");
      embers_selector_add_matcher (rest, m);
    }
  if (service != NULL && service[0] != '\0' && !has_service)
    embers_selector_add (rest, "service_name", EMBERS_MATCH_EQUAL, service, NULL);
  if (embers_selector_get_n_matchers (rest) > 0)
    {
      g_autofree char *text = embers_selector_to_string (rest);

      g_strv_builder_add (matchers, text);
    }
  strv = g_strv_builder_end (matchers);

  /* The root (or the profile's "total") is no function filter */
  if (function_name != NULL && (function_name[0] == '\0' || g_str_equal (function_name, "total")))
    function_name = NULL;
  self->suggested_metric = embers_recording_rule_suggest_metric_name (service, profile_type, function_name);

  self->changing = TRUE;
  gtk_editable_set_text (GTK_EDITABLE (self->metric_entry), self->suggested_metric);
  set_matchers (self, (const char * const *)strv);
  gtk_editable_set_text (GTK_EDITABLE (self->group_by_entry), service != NULL ? "service_name" : "");
  gtk_editable_set_text (GTK_EDITABLE (self->function_entry), function_name ? function_name : "");
  self->changing = FALSE;
  validate (self);
  focus_first_field (self);

  return self;
}

EmbersRuleDialog *
embers_rule_dialog_new_for_rule (EmbersSource              *source,
                                 const EmbersRecordingRule *rule)
{
  EmbersRuleDialog *self;

  g_return_val_if_fail (rule != NULL, NULL);

  self = dialog_new (source);
  self->id = g_strdup (rule->id);
  self->generation = rule->generation;

  adw_dialog_set_title (ADW_DIALOG (self), _("Edit Recording Rule"));
  adw_window_title_set_title (self->title, _("Edit Recording Rule"));
  adw_window_title_set_subtitle (self->title, rule->metric_name);
  gtk_button_set_label (self->create_button, _("_Save"));
  gtk_button_set_use_underline (self->create_button, TRUE);

  fill_fields (self, rule);
  focus_first_field (self);

  return self;
}

/* ---- for tests and callers ------------------------------------------------------ */

gboolean
embers_rule_dialog_get_valid (EmbersRuleDialog *self)
{
  g_return_val_if_fail (EMBERS_IS_RULE_DIALOG (self), FALSE);
  return self->valid;
}

const char *
embers_rule_dialog_get_message (EmbersRuleDialog *self,
                                EmbersRuleField   field)
{
  g_return_val_if_fail (EMBERS_IS_RULE_DIALOG (self), NULL);
  g_return_val_if_fail (field < EMBERS_RULE_N_FIELDS, NULL);
  return self->message_text[field];
}

const char *
embers_rule_dialog_get_status (EmbersRuleDialog *self)
{
  g_return_val_if_fail (EMBERS_IS_RULE_DIALOG (self), NULL);
  return gtk_label_get_text (self->status);
}

const char *
embers_rule_dialog_get_notice (EmbersRuleDialog *self)
{
  g_return_val_if_fail (EMBERS_IS_RULE_DIALOG (self), NULL);
  return gtk_widget_get_visible (self->notice) ? self->notice_text : NULL;
}

void
embers_rule_dialog_set_field (EmbersRuleDialog *self,
                              EmbersRuleField   field,
                              const char       *text)
{
  g_return_if_fail (EMBERS_IS_RULE_DIALOG (self));

  switch (field)
    {
    case EMBERS_RULE_FIELD_MATCHERS:
      {
        g_auto(GStrv) lines = g_strsplit (text ? text : "", "\n", -1);

        set_matchers (self, (const char * const *)lines);
        on_edited (self);
      }
      break;
    case EMBERS_RULE_FIELD_EXTERNAL_LABELS:
      {
        g_auto(GStrv) lines = g_strsplit (text ? text : "", "\n", -1);

        clear_rows (self->label_rows);
        for (guint i = 0; lines[i]; i++)
          {
            g_auto(GStrv) kv = NULL;

            if (lines[i][0] == '\0')
              continue;
            kv = g_strsplit (lines[i], "=", 2);
            add_label_row (self, kv[0], kv[1] ? kv[1] : "");
          }
        on_edited (self);
      }
      break;
    case EMBERS_RULE_FIELD_METRIC_NAME:
    case EMBERS_RULE_FIELD_GROUP_BY:
    case EMBERS_RULE_FIELD_FUNCTION:
      gtk_editable_set_text (GTK_EDITABLE (field_widget (self, field)), text ? text : "");
      break;
    case EMBERS_RULE_FIELD_ID:
    case EMBERS_RULE_FIELD_GENERATION:
    case EMBERS_RULE_N_FIELDS:
    default:
      g_return_if_reached ();
    }
}

const char *
embers_rule_dialog_get_field (EmbersRuleDialog *self,
                              EmbersRuleField   field)
{
  g_autoptr(GString) text = g_string_new (NULL);

  g_return_val_if_fail (EMBERS_IS_RULE_DIALOG (self), NULL);

  switch (field)
    {
    case EMBERS_RULE_FIELD_MATCHERS:
      for (GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (self->matcher_rows));
           row != NULL;
           row = gtk_widget_get_next_sibling (row))
        {
          if (text->len > 0)
            g_string_append_c (text, '\n');
          g_string_append (text, gtk_editable_get_text (matcher_entry_of (row)));
        }
      break;
    case EMBERS_RULE_FIELD_EXTERNAL_LABELS:
      for (GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (self->label_rows));
           row != NULL;
           row = gtk_widget_get_next_sibling (row))
        {
          GtkWidget *name_entry = gtk_widget_get_first_child (row);
          GtkWidget *value_entry = gtk_widget_get_next_sibling (gtk_widget_get_next_sibling (name_entry));

          if (text->len > 0)
            g_string_append_c (text, '\n');
          g_string_append_printf (text, "%s=%s", gtk_editable_get_text (GTK_EDITABLE (name_entry)),
                                  gtk_editable_get_text (GTK_EDITABLE (value_entry)));
        }
      break;
    case EMBERS_RULE_FIELD_METRIC_NAME:
    case EMBERS_RULE_FIELD_GROUP_BY:
    case EMBERS_RULE_FIELD_FUNCTION:
      return gtk_editable_get_text (GTK_EDITABLE (field_widget (self, field)));
    case EMBERS_RULE_FIELD_ID:
    case EMBERS_RULE_FIELD_GENERATION:
    case EMBERS_RULE_N_FIELDS:
    default:
      g_return_val_if_reached (NULL);
    }

  g_free (self->field_text[field]);
  self->field_text[field] = g_string_free (g_steal_pointer (&text), FALSE);
  return self->field_text[field];
}

gboolean
embers_rule_dialog_get_busy (EmbersRuleDialog *self)
{
  g_return_val_if_fail (EMBERS_IS_RULE_DIALOG (self), FALSE);
  return self->busy;
}
