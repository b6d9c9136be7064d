/* embers-rule-dialog.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "embers-recording-rules.h"
#include "embers-rule-copies.h"
#include "embers-rule-dialog.h"
#include "embers-rule-group-by.h"
#include "embers-rule-preview.h"
#include "embers-rule-rows.h"
#include "embers-rule-type-chooser.h"
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
  EmbersSource        *source;            /* the preview's, label names', types' */
  GCancellable        *cancellable;
  char                *service;           /* for suggestions */
  char                *suggested_metric;  /* replaced while untouched */

  /* Template: the fields */
  GtkEntry            *metric_entry;
  EmbersRuleRows      *matcher_rows;      /* one entry per matcher string */
  GtkEntry            *group_by_entry;
  EmbersRuleGroupBy   *group_by_chips;    /* the service's label names as toggles */
  EmbersRuleRows      *label_rows;        /* name = value per external label */
  GtkEntry            *function_entry;
  EmbersRuleTypeChooser *type_chooser;   /* New Rule…: the profile type */
  GtkLabel            *metric_message;
  GtkLabel            *matchers_message;
  GtkLabel            *group_by_message;
  GtkLabel            *labels_message;
  GtkLabel            *function_message;

  GtkLabel            *messages[EMBERS_RULE_N_FIELDS];
  char                *message_text[EMBERS_RULE_N_FIELDS];  /* ours, else the server's */
  char                *server_text[EMBERS_RULE_N_FIELDS];   /* until the next edit */
  char                *field_text[EMBERS_RULE_N_FIELDS];    /* get_field's answer */

  /* Template: why the rule cannot be created here (no server, rules off) */
  GtkWidget           *notice;
  GtkLabel            *notice_title;
  GtkLabel            *notice_body;
  GtkLabel            *notice_flag;
  GtkLabel            *notice_details;
  char                *notice_text;
  char                *disabled_reason;

  /* Template: the state, the buttons, the preview */
  GtkLabel            *status;
  GtkWidget           *conflict_box;      /* Load Current Version / Keep My Changes */
  gboolean             conflict;
  GtkButton           *cancel_button;
  GtkButton           *create_button;
  EmbersRuleCopies    *copies;            /* the rule as server configuration */
  AdwWindowTitle      *title;
  GtkWidget           *spinner;
  EmbersRulePreview   *preview;           /* what the rule would record */
  gboolean             valid;
  gboolean             busy;
  gboolean             changing;          /* filling fields: one edit, not one per field */
  char                *id;                /* editing: the rule's id and the */
  gint64               generation;        /* generation it was read with */
};

G_DEFINE_FINAL_TYPE (EmbersRuleDialog, embers_rule_dialog, ADW_TYPE_DIALOG)

enum {
  SIGNAL_CREATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void validate         (EmbersRuleDialog *self);
static void on_edited        (EmbersRuleDialog *self);
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

/* ---- matcher and label rows ---------------------------------------------- */

static void
on_add_matcher (EmbersRuleDialog *self)
{
  gtk_widget_grab_focus (embers_rule_rows_insert (self->matcher_rows, -1, "", NULL));
  on_edited (self);
}

static void
on_add_label (EmbersRuleDialog *self)
{
  gtk_widget_grab_focus (embers_rule_rows_insert (self->label_rows, -1, "", ""));
  on_edited (self);
}

/* Fills the rows from a rule's lists, one row per string or label, so
 * that a stored rule comes back unchanged; there is always a matcher
 * row to type in */
static void
set_matchers (EmbersRuleDialog  *self,
              const char * const *matchers)
{
  embers_rule_rows_set (self->matcher_rows, matchers, NULL);
  if (embers_rule_rows_get_n (self->matcher_rows) == 0)
    embers_rule_rows_insert (self->matcher_rows, -1, "", NULL);
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
  for (guint i = 0; i < embers_rule_rows_get_n (self->matcher_rows); i++)
    {
      const char *text = gtk_editable_get_text (embers_rule_rows_get_entry (self->matcher_rows, i));

      if (!is_blank (text))
        g_strv_builder_add (matchers, text);
    }
  g_strfreev (rule->matchers);
  rule->matchers = g_strv_builder_end (matchers);

  g_strfreev (rule->group_by);
  rule->group_by = embers_rule_group_by_split (gtk_editable_get_text (GTK_EDITABLE (self->group_by_entry)));

  /* Names as typed but trimmed (a valid one has no spaces); values exactly
   * as typed: commas, "=" and spaces are part of them */
  for (guint i = 0; i < embers_rule_rows_get_n (self->label_rows); i++)
    {
      g_autofree char *name = g_strstrip (g_strdup (gtk_editable_get_text (embers_rule_rows_get_entry (self->label_rows, i))));
      const char *value = gtk_editable_get_text (embers_rule_rows_get_value (self->label_rows, i));

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
    case EMBERS_RULE_FIELD_MATCHERS:        return (GtkWidget *)embers_rule_rows_get_entry (self->matcher_rows, 0);
    case EMBERS_RULE_FIELD_EXTERNAL_LABELS: return (GtkWidget *)embers_rule_rows_get_entry (self->label_rows, 0);
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
  for (guint i = 0; i < embers_rule_rows_get_n (self->matcher_rows); i++)
    {
      GtkEditable *entry = embers_rule_rows_get_entry (self->matcher_rows, i);
      const char *text = gtk_editable_get_text (entry);
      g_autoptr(EmbersSelector) sel = is_blank (text) ? NULL : embers_selector_parse_metric_selector (text, NULL);

      set_error_class (GTK_WIDGET (entry), !is_blank (text) && sel == NULL);
    }

  for (guint i = 0; i < embers_rule_rows_get_n (self->label_rows); i++)
    {
      GtkEditable *name_entry = embers_rule_rows_get_entry (self->label_rows, i);
      g_autofree char *name = g_strstrip (g_strdup (gtk_editable_get_text (name_entry)));
      gboolean empty = name[0] == '\0' && gtk_editable_get_text (embers_rule_rows_get_value (self->label_rows, i))[0] == '\0';

      set_error_class (GTK_WIDGET (name_entry), !empty && !embers_label_name_is_valid (name));
    }
}

/* Live validation, exactly as the server validates */
static void
validate (EmbersRuleDialog *self)
{
  g_autoptr(EmbersRecordingRule) rule = embers_rule_dialog_dup_rule (self);
  char *messages[EMBERS_RULE_N_FIELDS] = { NULL, };

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
  /* Copies of an invalid rule would only be refused later */
  embers_rule_copies_set_rule (self->copies, self->valid ? rule : NULL);
  /* The preview asks again only when the query changed */
  embers_rule_preview_set_rule (self->preview, self->valid ? rule : NULL);
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
                                         : embers_rule_copies_get_first (self->copies);

  gtk_widget_set_visible (GTK_WIDGET (self->create_button), self->server != NULL);
  gtk_widget_set_sensitive (GTK_WIDGET (self->create_button), can_create && self->valid && !self->busy);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->create_button),
                               self->disabled_reason != NULL ? self->disabled_reason : NULL);

  /* Without the rules API, copying is the way forward: it is the default */
  embers_rule_copies_set_suggested (self->copies, !can_create);
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

static void
on_copied (EmbersRuleDialog *self,
           const char       *text,
           gboolean          warning)
{
  set_status (self, text, warning ? STATUS_WARNING : STATUS_INFO);
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

guint
embers_rule_dialog_get_n_preview_series (EmbersRuleDialog *self)
{
  g_return_val_if_fail (EMBERS_IS_RULE_DIALOG (self), 0);
  return embers_rule_preview_get_n_series (self->preview);
}

const char *
embers_rule_dialog_get_preview_text (EmbersRuleDialog *self)
{
  g_return_val_if_fail (EMBERS_IS_RULE_DIALOG (self), NULL);
  return embers_rule_preview_get_text (self->preview);
}

EmbersRulePreview *
embers_rule_dialog_get_preview (EmbersRuleDialog *self)
{
  g_return_val_if_fail (EMBERS_IS_RULE_DIALOG (self), NULL);
  return self->preview;
}

/* ---- profile type (New Rule…) --------------------------------------------- */

/* The matchers with the profile type replaced (or added in front) */
static void
apply_profile_type (EmbersRuleDialog *self,
                    const char       *type)
{
  g_autoptr(EmbersRecordingRule) rule = embers_rule_dialog_dup_rule (self);
  g_autofree char *current = embers_recording_rule_derive_profile_type (rule);
  gboolean replaced = FALSE;

  /* Choosing the type the matchers have changes nothing */
  if (g_strcmp0 (current, type) == 0)
    return;

  /* One edit of the rule (on_edited below), not one per field */
  self->changing = TRUE;

  for (guint r = 0; r < embers_rule_rows_get_n (self->matcher_rows) && !replaced; r++)
    {
      GtkEditable *entry = embers_rule_rows_get_entry (self->matcher_rows, r);
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
      GtkEditable *first = embers_rule_rows_get_entry (self->matcher_rows, 0);
      g_autofree char *quoted = embers_selector_quote (type);
      g_autofree char *text = g_strdup_printf ("{__profile_type__=%s}", quoted);

      /* An empty first row takes it, else a row in front */
      if (first != NULL && is_blank (gtk_editable_get_text (first)))
        gtk_editable_set_text (first, text);
      else
        embers_rule_rows_insert (self->matcher_rows, 0, text, NULL);
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
  self->changing = FALSE;
  on_edited (self);
}

/* A type chosen (by a person, or when the list loaded) */
static void
on_type_chosen (EmbersRuleDialog *self)
{
  const char *type = embers_rule_type_chooser_get_profile_type (self->type_chooser);
  GtkWidget *focus = adw_dialog_get_focus (ADW_DIALOG (self));
  GtkWidget *first = (GtkWidget *)embers_rule_rows_get_entry (self->matcher_rows, 0);
  gboolean blank = first != NULL && is_blank (gtk_editable_get_text (GTK_EDITABLE (first)));

  if (type == NULL)
    return;
  apply_profile_type (self, type);
  /* An empty matcher had the focus only for want of a type: the name
   * comes first now that the rule is valid */
  if (blank && focus != NULL && (focus == first || gtk_widget_is_ancestor (focus, first)))
    adw_dialog_set_focus (ADW_DIALOG (self), GTK_WIDGET (self->metric_entry));
}

static void
load_profile_types (EmbersRuleDialog *self)
{
  g_autoptr(EmbersRecordingRule) rule = NULL;
  g_autofree char *current = NULL;

  if (self->source == NULL || self->id != NULL)
    return;
  rule = embers_rule_dialog_dup_rule (self);
  current = embers_recording_rule_derive_profile_type (rule);
  embers_rule_type_chooser_load (self->type_chooser, self->source, current, self->cancellable);
}

gboolean
embers_rule_dialog_set_profile_type (EmbersRuleDialog *self,
                                     const char       *type)
{
  g_return_val_if_fail (EMBERS_IS_RULE_DIALOG (self), FALSE);

  if (!embers_rule_type_chooser_set_profile_type (self->type_chooser, type))
    return FALSE;
  /* Chosen before, with other matchers typed since: the type again */
  apply_profile_type (self, type);
  return TRUE;
}

guint
embers_rule_dialog_get_n_profile_types (EmbersRuleDialog *self)
{
  g_return_val_if_fail (EMBERS_IS_RULE_DIALOG (self), 0);
  return embers_rule_type_chooser_get_n_types (self->type_chooser);
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
  embers_rule_rows_set (self->label_rows, (const char * const *)rule->external_label_names,
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

/* ---- group by --------------------------------------------------------------- */

static void
label_names_done (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(EmbersRuleDialog) self = user_data;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) names = embers_source_list_label_names_finish (EMBERS_SOURCE (object), result, &error);

  if (disposed (self))
    return;
  if (names == NULL)
    {
      /* Only a convenience: the entry still takes any name */
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_debug ("No label names for the group-by toggles: %s", error->message);
      return;
    }
  embers_rule_group_by_set_choices (self->group_by_chips, (const char * const *)names);
}

static void
load_label_names (EmbersRuleDialog *self)
{
  g_autoptr(EmbersRecordingRule) rule = embers_rule_dialog_dup_rule (self);
  g_autoptr(GStrvBuilder) parsable = g_strv_builder_new ();
  g_auto(GStrv) matchers = NULL;
  gint64 end = g_get_real_time () / 1000;

  embers_rule_group_by_set_choices (self->group_by_chips, NULL);
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
  embers_rule_preview_set_time_range (self->preview, start_ms, end_ms);
}

void
embers_rule_dialog_set_call_site (EmbersRuleDialog   *self,
                                  const char * const *call_site)
{
  g_return_if_fail (EMBERS_IS_RULE_DIALOG (self));
  embers_rule_preview_set_call_site (self->preview, call_site);
}

gboolean
embers_rule_dialog_get_preview_call_site (EmbersRuleDialog *self)
{
  g_return_val_if_fail (EMBERS_IS_RULE_DIALOG (self), FALSE);
  return embers_rule_preview_get_call_site (self->preview);
}

double
embers_rule_dialog_get_preview_sum (EmbersRuleDialog *self)
{
  g_return_val_if_fail (EMBERS_IS_RULE_DIALOG (self), 0);
  return embers_rule_preview_get_sum (self->preview);
}

void
embers_rule_dialog_get_preview_range (EmbersRuleDialog *self,
                                      gint64           *start_ms,
                                      gint64           *end_ms)
{
  g_return_if_fail (EMBERS_IS_RULE_DIALOG (self));
  embers_rule_preview_get_range (self->preview, start_ms, end_ms);
}

guint
embers_rule_dialog_get_n_group_by_choices (EmbersRuleDialog *self)
{
  g_return_val_if_fail (EMBERS_IS_RULE_DIALOG (self), 0);
  return embers_rule_group_by_get_n_choices (self->group_by_chips);
}

gboolean
embers_rule_dialog_toggle_group_by (EmbersRuleDialog *self,
                                    const char       *name)
{
  g_return_val_if_fail (EMBERS_IS_RULE_DIALOG (self), FALSE);
  return embers_rule_group_by_toggle (self->group_by_chips, name);
}

/* ---- source ------------------------------------------------------------------ */

void
embers_rule_dialog_set_source (EmbersRuleDialog *self,
                               EmbersSource     *source)
{
  g_return_if_fail (EMBERS_IS_RULE_DIALOG (self));

  if (self->source == source)
    return;
  if (self->source != NULL)
    g_signal_handlers_disconnect_by_func (self->source, on_capabilities, self);
  g_set_object (&self->source, source);
  if (source != NULL)
    g_signal_connect_object (source, "notify::capabilities", G_CALLBACK (on_capabilities), self,
                             G_CONNECT_SWAPPED);
  embers_rule_preview_set_source (self->preview, source);
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
  g_clear_pointer (&self->id, g_free);
  g_clear_pointer (&self->service, g_free);
  g_clear_pointer (&self->suggested_metric, g_free);
  g_clear_pointer (&self->disabled_reason, g_free);
  g_clear_pointer (&self->notice_text, g_free);
  if (self->source != NULL)
    g_signal_handlers_disconnect_by_func (self->source, on_capabilities, self);
  g_clear_object (&self->source);
  for (guint f = 0; f < EMBERS_RULE_N_FIELDS; f++)
    {
      g_clear_pointer (&self->message_text[f], g_free);
      g_clear_pointer (&self->server_text[f], g_free);
      g_clear_pointer (&self->field_text[f], g_free);
    }
  gtk_widget_dispose_template (GTK_WIDGET (self), EMBERS_TYPE_RULE_DIALOG);

  G_OBJECT_CLASS (embers_rule_dialog_parent_class)->dispose (object);
}

static void
on_load_current (EmbersRuleDialog *self)
{
  embers_rule_dialog_reload (self, FALSE);
}

static void
on_keep_mine (EmbersRuleDialog *self)
{
  embers_rule_dialog_reload (self, TRUE);
}

static void
embers_rule_dialog_class_init (EmbersRuleDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = embers_rule_dialog_dispose;

  /**
   * EmbersRuleDialog::created:
   * @rule: the rule as the server stored it (EmbersRecordingRule)
   */
  signals[SIGNAL_CREATED] = g_signal_new ("created", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                          0, NULL, NULL, NULL, G_TYPE_NONE, 1,
                                          EMBERS_TYPE_RECORDING_RULE | G_SIGNAL_TYPE_STATIC_SCOPE);
  /* (Escape closes it, as Cancel does: AdwDialog's own key) */

  g_type_ensure (EMBERS_TYPE_RULE_COPIES);
  g_type_ensure (EMBERS_TYPE_RULE_GROUP_BY);
  g_type_ensure (EMBERS_TYPE_RULE_PREVIEW);
  g_type_ensure (EMBERS_TYPE_RULE_ROWS);
  g_type_ensure (EMBERS_TYPE_RULE_TYPE_CHOOSER);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/emberslab/Embers/embers-rule-dialog.ui");
#define CHILD(name) gtk_widget_class_bind_template_child (widget_class, EmbersRuleDialog, name)
  CHILD (metric_entry);
  CHILD (matcher_rows);
  CHILD (group_by_entry);
  CHILD (group_by_chips);
  CHILD (label_rows);
  CHILD (function_entry);
  CHILD (type_chooser);
  CHILD (metric_message);
  CHILD (matchers_message);
  CHILD (group_by_message);
  CHILD (labels_message);
  CHILD (function_message);
  CHILD (notice);
  CHILD (notice_title);
  CHILD (notice_body);
  CHILD (notice_flag);
  CHILD (notice_details);
  CHILD (status);
  CHILD (conflict_box);
  CHILD (cancel_button);
  CHILD (create_button);
  CHILD (copies);
  CHILD (title);
  CHILD (spinner);
  CHILD (preview);
#undef CHILD
  gtk_widget_class_bind_template_callback (widget_class, on_edited);
  gtk_widget_class_bind_template_callback (widget_class, on_add_matcher);
  gtk_widget_class_bind_template_callback (widget_class, on_add_label);
  gtk_widget_class_bind_template_callback (widget_class, on_type_chosen);
  gtk_widget_class_bind_template_callback (widget_class, on_load_current);
  gtk_widget_class_bind_template_callback (widget_class, on_keep_mine);
  gtk_widget_class_bind_template_callback (widget_class, on_copied);
  gtk_widget_class_bind_template_callback (widget_class, adw_dialog_close);
  gtk_widget_class_bind_template_callback (widget_class, embers_rule_dialog_create);
}

static void
embers_rule_dialog_init (EmbersRuleDialog *self)
{
  self->cancellable = g_cancellable_new ();

  gtk_widget_init_template (GTK_WIDGET (self));

  self->messages[EMBERS_RULE_FIELD_METRIC_NAME] = self->metric_message;
  self->messages[EMBERS_RULE_FIELD_MATCHERS] = self->matchers_message;
  self->messages[EMBERS_RULE_FIELD_GROUP_BY] = self->group_by_message;
  self->messages[EMBERS_RULE_FIELD_EXTERNAL_LABELS] = self->labels_message;
  self->messages[EMBERS_RULE_FIELD_FUNCTION] = self->function_message;

  /* The toggles and the entry show one group-by: each setter does
   * nothing when the value is already there, so the two never loop */
  g_object_bind_property (self->group_by_entry, "text", self->group_by_chips, "text",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
}

static EmbersRuleDialog *
dialog_new (EmbersSource *source)
{
  EmbersRuleDialog *self = g_object_new (EMBERS_TYPE_RULE_DIALOG, NULL);

  if (source != NULL && embers_source_offers_recording_rules (source))
    self->server = g_object_ref (source);
  /* Where the tenant override goes: said once the server is known */
  if (self->server != NULL)
    {
      g_autofree char *tenant = embers_source_dup_tenant (self->server);

      embers_rule_copies_set_tenant (self->copies, tenant);
    }
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

        embers_rule_rows_set (self->label_rows, NULL, NULL);
        for (guint i = 0; lines[i]; i++)
          {
            g_auto(GStrv) kv = NULL;

            if (lines[i][0] == '\0')
              continue;
            kv = g_strsplit (lines[i], "=", 2);
            embers_rule_rows_insert (self->label_rows, -1, kv[0], kv[1] ? kv[1] : "");
          }
        on_edited (self);
      }
      break;
    case EMBERS_RULE_FIELD_METRIC_NAME:
    case EMBERS_RULE_FIELD_GROUP_BY:
    case EMBERS_RULE_FIELD_FUNCTION:
      /* One edit, as typing it over would be: not through an empty (and
       * so invalid) text first, which would clear the preview */
      self->changing = TRUE;
      gtk_editable_set_text (GTK_EDITABLE (field_widget (self, field)), text ? text : "");
      self->changing = FALSE;
      on_edited (self);
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
  g_return_val_if_fail (EMBERS_IS_RULE_DIALOG (self), NULL);

  switch (field)
    {
    case EMBERS_RULE_FIELD_MATCHERS:
    case EMBERS_RULE_FIELD_EXTERNAL_LABELS:
      g_free (self->field_text[field]);
      self->field_text[field] = embers_rule_rows_dup_text (field == EMBERS_RULE_FIELD_MATCHERS ? self->matcher_rows
                                                                                           : self->label_rows);
      return self->field_text[field];
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
}

gboolean
embers_rule_dialog_get_busy (EmbersRuleDialog *self)
{
  g_return_val_if_fail (EMBERS_IS_RULE_DIALOG (self), FALSE);
  return self->busy;
}
