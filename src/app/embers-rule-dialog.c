/* embers-rule-dialog.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "embers-chart.h"
#include "embers-pyroscope-source.h"
#include "embers-fold-bin.h"
#include "embers-recording-rules.h"
#include "embers-rule-dialog.h"
#include "embers-selector.h"
#include "embers-source.h"

/* The fields a person edits, in the order shown */
static const struct {
  EmbersRuleField  field;
  const char      *label;
  const char      *hint;
} fields[] = {
  { EMBERS_RULE_FIELD_METRIC_NAME, N_("_Metric name"), N_("profiles_recorded_…") },
  { EMBERS_RULE_FIELD_MATCHERS, N_("M_atchers"), N_("{__profile_type__=\"…\", service_name=\"…\"}") },
  { EMBERS_RULE_FIELD_GROUP_BY, N_("_Group by"), N_("Label names, separated by commas") },
  { EMBERS_RULE_FIELD_EXTERNAL_LABELS, N_("_External labels"), N_("name=value, separated by commas") },
  { EMBERS_RULE_FIELD_FUNCTION, N_("_Function"), N_("Only stacks through this function (empty: all)") },
};

struct _EmbersRuleDialog
{
  AdwWindow            parent_instance;

  EmbersConnectClient *client;
  GCancellable        *cancellable;
  GtkEntry            *entries[EMBERS_RULE_N_FIELDS];
  GtkLabel            *messages[EMBERS_RULE_N_FIELDS];
  char                *message_text[EMBERS_RULE_N_FIELDS];
  GtkLabel            *status;
  GtkWidget           *conflict_box;  /* Load Current Version / Keep My Changes */
  gboolean             conflict;
  GtkButton           *create_button;
  AdwWindowTitle      *title;
  GtkFlowBox          *group_by_chips;  /* the service's label names as toggles */
  gboolean             syncing_chips;
  GtkSpinner          *spinner;
  gboolean             valid;
  gboolean             busy;
  char                *id;          /* editing: the rule's id and the */
  gint64               generation;  /* generation it was read with */

  /* Preview: what the rule would record over the last hour */
  EmbersSource        *source;
  GCancellable        *preview_cancellable;
  guint                preview_timeout;
  EmbersChart         *chart;
  GtkDrawingArea      *chart_area;
  GtkLabel            *preview_label;
  guint                n_preview_series;
};

G_DEFINE_FINAL_TYPE (EmbersRuleDialog, embers_rule_dialog, ADW_TYPE_WINDOW)

enum {
  SIGNAL_CREATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

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

EmbersRecordingRule *
embers_rule_dialog_dup_rule (EmbersRuleDialog *self)
{
  EmbersRecordingRule *rule;
  g_auto(GStrv) labels = NULL;
  g_autoptr(GStrvBuilder) names = g_strv_builder_new ();
  g_autoptr(GStrvBuilder) values = g_strv_builder_new ();
  const char *matchers;
  const char *function;

  g_return_val_if_fail (EMBERS_IS_RULE_DIALOG (self), NULL);

  rule = embers_recording_rule_new ();
  rule->metric_name = g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->entries[EMBERS_RULE_FIELD_METRIC_NAME])));

  matchers = gtk_editable_get_text (GTK_EDITABLE (self->entries[EMBERS_RULE_FIELD_MATCHERS]));
  g_strfreev (rule->matchers);
  rule->matchers = g_strdupv ((char *[]) { (char *)matchers, NULL });

  g_strfreev (rule->group_by);
  rule->group_by = split_list (gtk_editable_get_text (GTK_EDITABLE (self->entries[EMBERS_RULE_FIELD_GROUP_BY])));

  labels = split_list (gtk_editable_get_text (GTK_EDITABLE (self->entries[EMBERS_RULE_FIELD_EXTERNAL_LABELS])));
  for (guint i = 0; labels[i]; i++)
    {
      g_auto(GStrv) kv = g_strsplit (labels[i], "=", 2);

      g_strv_builder_add (names, g_strstrip (kv[0]));
      g_strv_builder_add (values, kv[1] ? g_strstrip (kv[1]) : "");
    }
  g_strfreev (rule->external_label_names);
  g_strfreev (rule->external_label_values);
  rule->external_label_names = g_strv_builder_end (names);
  rule->external_label_values = g_strv_builder_end (values);

  function = gtk_editable_get_text (GTK_EDITABLE (self->entries[EMBERS_RULE_FIELD_FUNCTION]));
  rule->function_name = function[0] != '\0' ? g_strdup (function) : NULL;
  rule->profile_type = embers_recording_rule_derive_profile_type (rule);
  rule->id = g_strdup (self->id);
  rule->generation = self->generation;

  return rule;
}

static void
set_status (EmbersRuleDialog *self,
            const char       *text,
            gboolean          is_error)
{
  gtk_label_set_text (self->status, text ? text : "");
  gtk_widget_set_visible (GTK_WIDGET (self->status), text != NULL && text[0] != '\0');
  if (is_error)
    gtk_widget_add_css_class (GTK_WIDGET (self->status), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->status), "error");
}

static void schedule_preview (EmbersRuleDialog *self);
static void load_current     (EmbersRuleDialog *self);
static void keep_mine        (EmbersRuleDialog *self);
static void sync_chips       (EmbersRuleDialog *self);

/* Live validation, exactly as the server validates */
static void
validate (EmbersRuleDialog *self)
{
  g_autoptr(EmbersRecordingRule) rule = embers_rule_dialog_dup_rule (self);
  char *messages[EMBERS_RULE_N_FIELDS] = { NULL, };

  self->valid = embers_recording_rule_check (rule, messages);
  for (guint f = 0; f < EMBERS_RULE_N_FIELDS; f++)
    {
      g_free (self->message_text[f]);
      self->message_text[f] = messages[f];
      if (self->messages[f] != NULL)
        {
          gtk_label_set_text (self->messages[f], messages[f] ? messages[f] : "");
          gtk_widget_set_visible (GTK_WIDGET (self->messages[f]), messages[f] != NULL);
        }
      if (self->entries[f] != NULL)
        {
          if (messages[f] != NULL)
            gtk_widget_add_css_class (GTK_WIDGET (self->entries[f]), "error");
          else
            gtk_widget_remove_css_class (GTK_WIDGET (self->entries[f]), "error");
        }
    }

  gtk_widget_set_sensitive (GTK_WIDGET (self->create_button), self->valid && !self->busy && self->client != NULL);
  schedule_preview (self);
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

  copy_text (self, embers_recording_rule_to_tenant_override (rule, self->client ? embers_connect_client_get_tenant (self->client) : NULL));
  set_status (self, _("Copied as a per-tenant “recording_rules” override for the server’s configuration"), FALSE);
}

static void
copy_og (EmbersRuleDialog *self)
{
  g_autoptr(EmbersRecordingRule) rule = embers_rule_dialog_dup_rule (self);

  copy_text (self, embers_recording_rule_to_og_config (rule, NULL));
  set_status (self, _("Copied as a “metrics-export-rules” entry for the original Pyroscope’s configuration"), FALSE);
}

static void
upsert_done (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(EmbersRuleDialog) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersRecordingRule) rule = embers_recording_rules_upsert_finish (result, &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  self->busy = FALSE;
  gtk_spinner_stop (self->spinner);

  if (rule == NULL)
    {
      /* Keep everything typed; say what the server said */
      if (g_error_matches (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_ALREADY_EXISTS) && self->id != NULL)
        {
          set_status (self, _("Someone changed this rule after you opened it, so the server refused your change "
                              "(conflicting update). Load the current version to start again from it, or keep "
                              "your changes and save them over it."), TRUE);
          self->conflict = TRUE;
          gtk_widget_set_visible (self->conflict_box, TRUE);
        }
      else if (g_error_matches (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_UNIMPLEMENTED))
        {
          g_autofree char *text = g_strdup_printf (_("%s. You can still copy the rule as server configuration."),
                                                   error->message);
          set_status (self, text, TRUE);
        }
      else
        set_status (self, error->message, TRUE);
      validate (self);
      return;
    }

  {
    g_autofree char *text = self->id != NULL
      ? g_strdup_printf (_("Saved “%s”"), rule->metric_name)
      : g_strdup_printf (_("Created “%s” (id %s)"), rule->metric_name, rule->id);

    set_status (self, text, FALSE);
  }
  /* Further saves continue from what the server stored */
  g_free (self->id);
  self->id = g_strdup (rule->id);
  self->generation = rule->generation;
  g_signal_emit (self, signals[SIGNAL_CREATED], 0, rule);
  validate (self);
}

static void
preview_draw (GtkDrawingArea *area,
              cairo_t        *cr,
              int             width,
              int             height,
              gpointer        user_data)
{
  EmbersRuleDialog *self = user_data;
  EmbersChartStyle style;
  GdkRGBA fg;

  embers_chart_style_init (&style, adw_style_manager_get_dark (adw_style_manager_get_default ()));
  gtk_style_context_get_color (gtk_widget_get_style_context (GTK_WIDGET (area)), &fg);
  style.fg[0] = fg.red;
  style.fg[1] = fg.green;
  style.fg[2] = fg.blue;
  embers_chart_set_size (self->chart, width, height);
  embers_chart_paint (self->chart, cr, &style);
}

static void
preview_done (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(EmbersRuleDialog) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) series = embers_source_select_series_finish (EMBERS_SOURCE (object), result, &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  if (series == NULL)
    {
      g_autofree char *text = g_strdup_printf (_("No preview: %s"), error->message);

      gtk_label_set_text (self->preview_label, text);
      embers_chart_set_series (self->chart, NULL, NULL);
    }
  else
    {
      const char *function = gtk_editable_get_text (GTK_EDITABLE (self->entries[EMBERS_RULE_FIELD_FUNCTION]));
      g_autofree char *text = NULL;

      self->n_preview_series = series->len;
      text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                           "Over the last hour this rule would record %u series",
                                           "Over the last hour this rule would record %u series",
                                           series->len),
                              series->len);
      if (function[0] != '\0')
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

  self->preview_timeout = 0;
  if (self->source == NULL)
    return G_SOURCE_REMOVE;

  g_cancellable_cancel (self->preview_cancellable);
  g_clear_object (&self->preview_cancellable);
  if (!self->valid)
    {
      gtk_label_set_text (self->preview_label, _("The preview follows once the rule is valid"));
      return G_SOURCE_REMOVE;
    }

  rule = embers_rule_dialog_dup_rule (self);
  all = embers_selector_parse_matchers ((const char * const *)rule->matchers, NULL);
  type = embers_recording_rule_derive_profile_type (rule);
  for (guint i = 0; all && i < embers_selector_get_n_matchers (all); i++)
    {
      const EmbersMatcher *m = embers_selector_get_matcher (all, i);

      if (!g_str_equal (m->name, "__profile_type__"))
        embers_selector_add (rest, m->name, m->op, m->value, NULL);
    }
  selector = embers_selector_to_string (rest);
  query = embers_query_new (type, selector, start, end);
  {
    g_autoptr(EmbersProfileTypeInfo) info = embers_profile_type_info_new (type);

    embers_chart_set_unit (self->chart, info ? info->sample_unit : NULL);
  }
  embers_chart_set_time_range (self->chart, start, end);

  self->preview_cancellable = g_cancellable_new ();
  gtk_label_set_text (self->preview_label, _("Previewing…"));
  embers_source_select_series (self->source, query, (const char * const *)rule->group_by,
                               embers_source_step_for_range (start, end), EMBERS_AGGREGATION_SUM, 0,
                               self->preview_cancellable, preview_done, g_object_ref (self));
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

void
embers_rule_dialog_create (EmbersRuleDialog *self)
{
  g_autoptr(EmbersRecordingRule) rule = NULL;

  g_return_if_fail (EMBERS_IS_RULE_DIALOG (self));

  validate (self);
  if (!self->valid || self->busy || self->client == NULL)
    return;

  rule = embers_rule_dialog_dup_rule (self);
  self->busy = TRUE;
  gtk_spinner_start (self->spinner);
  set_status (self, _("Creating…"), FALSE);
  gtk_widget_set_sensitive (GTK_WIDGET (self->create_button), FALSE);
  embers_recording_rules_upsert_async (self->client, rule, self->cancellable, upsert_done, g_object_ref (self));
}

static void
embers_rule_dialog_dispose (GObject *object)
{
  EmbersRuleDialog *self = EMBERS_RULE_DIALOG (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->client);
  g_clear_pointer (&self->id, g_free);
  g_clear_handle_id (&self->preview_timeout, g_source_remove);
  if (self->preview_cancellable != NULL)
    g_cancellable_cancel (self->preview_cancellable);
  g_clear_object (&self->preview_cancellable);
  g_clear_object (&self->source);
  g_clear_pointer (&self->chart, embers_chart_unref);
  for (guint f = 0; f < EMBERS_RULE_N_FIELDS; f++)
    g_clear_pointer (&self->message_text[f], g_free);

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
}

static void
embers_rule_dialog_init (EmbersRuleDialog *self)
{
  GtkWidget *toolbar, *header, *box, *grid, *buttons, *cancel, *copy1, *copy2;
  AdwWindowTitle *title;

  self->cancellable = g_cancellable_new ();

  gtk_window_set_title (GTK_WINDOW (self), _("Create Recording Rule"));
  gtk_window_set_default_size (GTK_WINDOW (self), 620, -1);
  gtk_window_set_modal (GTK_WINDOW (self), TRUE);

  toolbar = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  header = adw_header_bar_new ();
  title = ADW_WINDOW_TITLE (adw_window_title_new (_("Create Recording Rule"),
                                                  _("A Prometheus metric from profiles")));
  adw_header_bar_set_title_widget (ADW_HEADER_BAR (header), GTK_WIDGET (title));
  self->title = title;
  adw_header_bar_set_show_end_title_buttons (ADW_HEADER_BAR (header), FALSE);
  adw_header_bar_set_show_start_title_buttons (ADW_HEADER_BAR (header), FALSE);
  cancel = gtk_button_new_with_mnemonic (_("_Cancel"));
  g_signal_connect_swapped (cancel, "clicked", G_CALLBACK (gtk_window_close), self);
  adw_header_bar_pack_start (ADW_HEADER_BAR (header), cancel);
  self->create_button = GTK_BUTTON (gtk_button_new_with_mnemonic (_("C_reate")));
  gtk_widget_add_css_class (GTK_WIDGET (self->create_button), "suggested-action");
  g_signal_connect_swapped (self->create_button, "clicked", G_CALLBACK (embers_rule_dialog_create), self);
  adw_header_bar_pack_end (ADW_HEADER_BAR (header), GTK_WIDGET (self->create_button));
  self->spinner = GTK_SPINNER (gtk_spinner_new ());
  adw_header_bar_pack_end (ADW_HEADER_BAR (header), GTK_WIDGET (self->spinner));
  gtk_box_append (GTK_BOX (toolbar), header);

  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  gtk_widget_set_margin_top (box, 18);
  gtk_widget_set_margin_bottom (box, 18);
  gtk_widget_set_margin_start (box, 18);
  gtk_widget_set_margin_end (box, 18);

  grid = gtk_grid_new ();
  gtk_grid_set_row_spacing (GTK_GRID (grid), 4);
  gtk_grid_set_column_spacing (GTK_GRID (grid), 12);
  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    {
      EmbersRuleField f = fields[i].field;
      GtkWidget *label = gtk_label_new_with_mnemonic (_(fields[i].label));
      GtkWidget *entry = gtk_entry_new ();
      GtkWidget *message = gtk_label_new (NULL);

      gtk_label_set_xalign (GTK_LABEL (label), 1);
      gtk_label_set_mnemonic_widget (GTK_LABEL (label), entry);
      gtk_entry_set_placeholder_text (GTK_ENTRY (entry), _(fields[i].hint));
      gtk_widget_set_hexpand (entry, TRUE);
      gtk_accessible_update_relation (GTK_ACCESSIBLE (entry),
                                      GTK_ACCESSIBLE_RELATION_DESCRIBED_BY, message, NULL, -1);
      g_signal_connect_swapped (entry, "changed", G_CALLBACK (validate), self);
      g_signal_connect_swapped (entry, "activate", G_CALLBACK (embers_rule_dialog_create), self);
      gtk_label_set_xalign (GTK_LABEL (message), 0);
      gtk_label_set_wrap (GTK_LABEL (message), TRUE);
      gtk_widget_add_css_class (message, "error");
      gtk_widget_add_css_class (message, "caption");
      gtk_widget_set_visible (message, FALSE);

      gtk_grid_attach (GTK_GRID (grid), label, 0, i * 2, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), entry, 1, i * 2, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), message, 1, i * 2 + 1, 1, 1);
      self->entries[f] = GTK_ENTRY (entry);
      self->messages[f] = GTK_LABEL (message);
    }
  self->group_by_chips = GTK_FLOW_BOX (gtk_flow_box_new ());
  gtk_flow_box_set_selection_mode (self->group_by_chips, GTK_SELECTION_NONE);
  gtk_flow_box_set_min_children_per_line (self->group_by_chips, 2);
  gtk_flow_box_set_max_children_per_line (self->group_by_chips, 32);
  gtk_flow_box_set_column_spacing (self->group_by_chips, 4);
  gtk_flow_box_set_row_spacing (self->group_by_chips, 4);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->group_by_chips), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Label names to group by"), -1);
  gtk_widget_set_visible (GTK_WIDGET (self->group_by_chips), FALSE);
  gtk_grid_insert_next_to (GTK_GRID (grid), GTK_WIDGET (self->messages[EMBERS_RULE_FIELD_GROUP_BY]), GTK_POS_BOTTOM);
  {
    int column, row, width, height;

    gtk_grid_query_child (GTK_GRID (grid), GTK_WIDGET (self->messages[EMBERS_RULE_FIELD_GROUP_BY]),
                          &column, &row, &width, &height);
    gtk_grid_attach (GTK_GRID (grid), GTK_WIDGET (self->group_by_chips), 1, row + 1, 1, 1);
  }
  g_signal_connect_object (self->entries[EMBERS_RULE_FIELD_GROUP_BY], "changed",
                           G_CALLBACK (sync_chips), self, G_CONNECT_SWAPPED);
  gtk_box_append (GTK_BOX (box), grid);

  self->status = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (GTK_LABEL (self->status), TRUE);
  gtk_label_set_xalign (self->status, 0);
  gtk_widget_set_visible (GTK_WIDGET (self->status), FALSE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->status), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Status"), -1);
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
  buttons = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  copy1 = gtk_button_new_with_mnemonic (_("Copy as _Tenant Override"));
  gtk_widget_set_tooltip_text (copy1, _("The rule as a per-tenant “recording_rules” override (YAML)"));
  g_signal_connect_swapped (copy1, "clicked", G_CALLBACK (copy_override), self);
  copy2 = gtk_button_new_with_mnemonic (_("Copy for _Original Pyroscope"));
  gtk_widget_set_tooltip_text (copy2, _("The rule as a “metrics-export-rules” entry of Pyroscope 0.x (FlameQL)"));
  g_signal_connect_swapped (copy2, "clicked", G_CALLBACK (copy_og), self);
  gtk_box_append (GTK_BOX (buttons), copy1);
  gtk_box_append (GTK_BOX (buttons), copy2);
  /* One above the other when they do not fit side by side (a narrow
   * window, longer words) */
  {
    GtkWidget *fold = embers_fold_bin_new ();

    embers_fold_bin_set_child (EMBERS_FOLD_BIN (fold), buttons);
    gtk_box_append (GTK_BOX (box), fold);
  }

  gtk_box_append (GTK_BOX (toolbar), box);
  adw_window_set_content (ADW_WINDOW (self), toolbar);
}

EmbersRuleDialog *
embers_rule_dialog_new (GtkWindow           *parent,
                        EmbersConnectClient *client,
                        const char          *service,
                        const char          *profile_type,
                        const char          *selector,
                        const char          *function_name)
{
  EmbersRuleDialog *self = g_object_new (EMBERS_TYPE_RULE_DIALOG, "transient-for", parent, NULL);
  g_autoptr(EmbersSelector) matchers = NULL;
  g_autoptr(EmbersSelector) merged = embers_selector_new ();
  g_autofree char *metric = NULL;
  g_autofree char *matcher_text = NULL;

  if (client != NULL)
    self->client = g_object_ref (client);

  /* The profile type first, then the current filters */
  if (profile_type != NULL)
    embers_selector_add (merged, "__profile_type__", EMBERS_MATCH_EQUAL, profile_type, NULL);
  matchers = selector ? embers_selector_parse (selector, NULL, NULL) : NULL;
  for (guint i = 0; matchers && i < embers_selector_get_n_matchers (matchers); i++)
    {
      const EmbersMatcher *m = embers_selector_get_matcher (matchers, i);

      if (!g_str_equal (m->name, "__profile_type__"))
        embers_selector_add (merged, m->name, m->op, m->value, NULL);
    }
  if (service != NULL)
    {
      gboolean has_service = FALSE;

      for (guint i = 0; i < embers_selector_get_n_matchers (merged); i++)
        has_service |= g_str_equal (embers_selector_get_matcher (merged, i)->name, "service_name");
      if (!has_service)
        embers_selector_add (merged, "service_name", EMBERS_MATCH_EQUAL, service, NULL);
    }
  matcher_text = embers_selector_to_string (merged);

  if (function_name != NULL && (function_name[0] == '\0' || g_str_equal (function_name, "total")))
    function_name = NULL;
  metric = embers_recording_rule_suggest_metric_name (service, profile_type, function_name);

  gtk_editable_set_text (GTK_EDITABLE (self->entries[EMBERS_RULE_FIELD_METRIC_NAME]), metric);
  gtk_editable_set_text (GTK_EDITABLE (self->entries[EMBERS_RULE_FIELD_MATCHERS]), matcher_text);
  gtk_editable_set_text (GTK_EDITABLE (self->entries[EMBERS_RULE_FIELD_GROUP_BY]), "service_name");
  gtk_editable_set_text (GTK_EDITABLE (self->entries[EMBERS_RULE_FIELD_FUNCTION]), function_name ? function_name : "");

  if (client == NULL)
    set_status (self, _("This profile does not come from a Pyroscope server: copy the rule as server configuration."),
                FALSE);
  validate (self);

  return self;
}

/* The fields from a rule as the server stored it */
static void
fill_fields (EmbersRuleDialog          *self,
             const EmbersRecordingRule *rule)
{
  g_autoptr(GString) labels = g_string_new (NULL);
  g_autofree char *group_by = NULL;
  g_autofree char *matchers = NULL;

  matchers = rule->matchers ? g_strjoinv (", ", rule->matchers) : g_strdup ("");
  group_by = rule->group_by ? g_strjoinv (", ", rule->group_by) : g_strdup ("");
  for (guint i = 0; rule->external_label_names && rule->external_label_names[i]; i++)
    g_string_append_printf (labels, "%s%s=%s", i ? ", " : "", rule->external_label_names[i],
                            rule->external_label_values ? rule->external_label_values[i] : "");

  gtk_editable_set_text (GTK_EDITABLE (self->entries[EMBERS_RULE_FIELD_METRIC_NAME]), rule->metric_name);
  gtk_editable_set_text (GTK_EDITABLE (self->entries[EMBERS_RULE_FIELD_MATCHERS]), matchers);
  gtk_editable_set_text (GTK_EDITABLE (self->entries[EMBERS_RULE_FIELD_GROUP_BY]), group_by);
  gtk_editable_set_text (GTK_EDITABLE (self->entries[EMBERS_RULE_FIELD_EXTERNAL_LABELS]), labels->str);
  gtk_editable_set_text (GTK_EDITABLE (self->entries[EMBERS_RULE_FIELD_FUNCTION]),
                         rule->function_name ? rule->function_name : "");
  validate (self);
}

static void
reload_done (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(EmbersRuleDialog) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersRecordingRule) rule = embers_recording_rules_get_finish (result, &error);
  gboolean keep_mine = GPOINTER_TO_INT (g_object_steal_data (G_OBJECT (self), "embers-keep-mine"));

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  self->busy = FALSE;
  gtk_spinner_stop (self->spinner);

  if (rule == NULL)
    {
      g_autofree char *text = g_strdup_printf (_("Could not load the current version: %s"), error->message);

      set_status (self, text, TRUE);
      validate (self);
      return;
    }

  self->conflict = FALSE;
  gtk_widget_set_visible (self->conflict_box, FALSE);
  self->generation = rule->generation;
  gtk_widget_remove_css_class (GTK_WIDGET (self->status), "error");
  if (keep_mine)
    {
      set_status (self, _("Your changes are kept. Saving now replaces the current version on the server."), FALSE);
      validate (self);
    }
  else
    {
      fill_fields (self, rule);
      set_status (self, _("This is the current version on the server."), FALSE);
    }
}

void
embers_rule_dialog_reload (EmbersRuleDialog *self,
                           gboolean          keep_mine)
{
  g_return_if_fail (EMBERS_IS_RULE_DIALOG (self));

  if (self->client == NULL || self->id == NULL || self->busy)
    return;

  self->busy = TRUE;
  gtk_spinner_start (self->spinner);
  gtk_widget_set_sensitive (GTK_WIDGET (self->create_button), FALSE);
  g_object_set_data (G_OBJECT (self), "embers-keep-mine", GINT_TO_POINTER (keep_mine));
  embers_recording_rules_get_async (self->client, self->id, self->cancellable,
                                    reload_done, g_object_ref (self));
}

const char *
embers_rule_dialog_get_preview_text (EmbersRuleDialog *self)
{
  g_return_val_if_fail (EMBERS_IS_RULE_DIALOG (self), NULL);
  return gtk_label_get_text (self->preview_label);
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

EmbersRuleDialog *
embers_rule_dialog_new_for_rule (GtkWindow                 *parent,
                                 EmbersConnectClient       *client,
                                 const EmbersRecordingRule *rule)
{
  EmbersRuleDialog *self = g_object_new (EMBERS_TYPE_RULE_DIALOG, "transient-for", parent, NULL);

  g_return_val_if_fail (rule != NULL, NULL);

  if (client != NULL)
    self->client = g_object_ref (client);
  self->id = g_strdup (rule->id);
  self->generation = rule->generation;

  gtk_window_set_title (GTK_WINDOW (self), _("Edit Recording Rule"));
  adw_window_title_set_title (self->title, _("Edit Recording Rule"));
  adw_window_title_set_subtitle (self->title, rule->metric_name);
  gtk_button_set_label (self->create_button, _("_Save"));
  gtk_button_set_use_underline (self->create_button, TRUE);

  fill_fields (self, rule);

  return self;
}

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

void
embers_rule_dialog_set_field (EmbersRuleDialog *self,
                              EmbersRuleField   field,
                              const char       *text)
{
  g_return_if_fail (EMBERS_IS_RULE_DIALOG (self));
  g_return_if_fail (field < EMBERS_RULE_N_FIELDS && self->entries[field] != NULL);

  gtk_editable_set_text (GTK_EDITABLE (self->entries[field]), text ? text : "");
}

const char *
embers_rule_dialog_get_field (EmbersRuleDialog *self,
                              EmbersRuleField   field)
{
  g_return_val_if_fail (EMBERS_IS_RULE_DIALOG (self), NULL);
  g_return_val_if_fail (field < EMBERS_RULE_N_FIELDS && self->entries[field] != NULL, NULL);

  return gtk_editable_get_text (GTK_EDITABLE (self->entries[field]));
}

/* Group by: the service's label names as toggles that edit the entry,
 * so that nobody has to remember or type them */
static void
sync_chips (EmbersRuleDialog *self)
{
  g_auto(GStrv) names = split_list (gtk_editable_get_text (GTK_EDITABLE (self->entries[EMBERS_RULE_FIELD_GROUP_BY])));
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
  GtkEditable *entry = GTK_EDITABLE (self->entries[EMBERS_RULE_FIELD_GROUP_BY]);
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
      gtk_widget_set_halign (toggle, GTK_ALIGN_START);
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
  gint64 end = g_get_real_time () / 1000;
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->group_by_chips))) != NULL)
    gtk_flow_box_remove (self->group_by_chips, child);
  gtk_widget_set_visible (GTK_WIDGET (self->group_by_chips), FALSE);
  if (self->source == NULL)
    return;

  /* The label names of the profiles the rule matches, over the last day */
  embers_source_list_label_names (self->source, (const char * const *)rule->matchers,
                                  end - 24 * 3600 * 1000, end, self->cancellable,
                                  label_names_done, g_object_ref (self));
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

void
embers_rule_dialog_set_source (EmbersRuleDialog *self,
                               EmbersSource     *source)
{
  g_return_if_fail (EMBERS_IS_RULE_DIALOG (self));

  g_set_object (&self->source, source);
  gtk_widget_set_visible (GTK_WIDGET (self->chart_area), source != NULL);
  load_label_names (self);
  schedule_preview (self);
}

gboolean
embers_rule_dialog_get_busy (EmbersRuleDialog *self)
{
  g_return_val_if_fail (EMBERS_IS_RULE_DIALOG (self), FALSE);
  return self->busy;
}
