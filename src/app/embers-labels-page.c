/* embers-labels-page.c: the labels explorer
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <glib/gi18n.h>

#include "embers-labels-page-private.h"

G_DEFINE_FINAL_TYPE (EmbersLabelsPage, embers_labels_page, ADW_TYPE_BREAKPOINT_BIN)

GParamSpec *embers_labels_page_properties[EMBERS_LABELS_PAGE_N_PROPS];
guint embers_labels_page_signals[EMBERS_LABELS_PAGE_N_SIGNALS];

const EmbersLabelsViewName embers_labels_view_names[] = {
  { N_("_Series"), N_("Each value's time series") },
  { N_("T_otal"), N_("Each value's total over the range, as a share of the whole") },
  { N_("_Maximum"), N_("Each value's largest step, with the average of its steps with data marked") },
  { N_("_Histogram"), N_("How each value's per-step values spread") },
  { N_("T_able"), N_("Total, share, average and standard deviation of the steps with data, and maximum per value") },
};

/* Requests (as on the explore page: a newer one cancels the older) */

void
embers_labels_update_loading (EmbersLabelsPage *self)
{
  gboolean loading = embers_labels_page_get_loading (self);

  gtk_widget_set_visible (self->spinner, loading);
  g_object_notify_by_pspec (G_OBJECT (self), embers_labels_page_properties[EMBERS_LABELS_PAGE_PROP_LOADING]);
}

EmbersRequest *
embers_labels_request_start (EmbersLabelsPage *self,
               RequestKind       kind)
{
  EmbersRequest *req = embers_request_start (self, &self->cancellables[kind], kind);

  g_clear_pointer (&self->errors[kind], g_free);
  embers_labels_update_loading (self);
  return req;
}

void
embers_labels_request_done (EmbersLabelsPage *self,
              RequestKind       kind)
{
  g_clear_object (&self->cancellables[kind]);
  embers_labels_update_loading (self);
}

/* Helpers */

const char *
embers_labels_display_value (const char *value)
{
  /* Translators: a label value that is absent */
  return value != NULL && value[0] != '\0' ? value : _("(none)");
}

char *
embers_labels_format_value (EmbersLabelsPage *self,
              double            value)
{
  return embers_format_value ((gint64)llround (value), self->unit);
}

/* What the cards show: the time views need points at more than one time */
EmbersLabelView
embers_labels_chart_view (EmbersLabelsPage *self)
{
  EmbersLabelsView view = MIN (self->view, EMBERS_LABELS_VIEW_HISTOGRAM);

  if (!self->has_time && (view == EMBERS_LABELS_VIEW_SERIES || view == EMBERS_LABELS_VIEW_HISTOGRAM))
    return EMBERS_LABEL_VIEW_TOTAL;
  return (EmbersLabelView)view;
}

/* The page's query with name=value (or name!=value) added, replacing any
 * matcher on name */
static EmbersQuery *
query_with_op (EmbersLabelsPage *self,
               const char       *name,
               EmbersMatchOp     op,
               const char       *value)
{
  g_autoptr(EmbersSelector) selector = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  EmbersQuery *query;

  selector = embers_selector_parse (self->query->label_selector != NULL && self->query->label_selector[0]
                                    ? self->query->label_selector : "{}",
                                    NULL, &error);
  if (selector == NULL)
    selector = embers_selector_new ();
  embers_selector_remove (selector, name);
  embers_selector_add (selector, name, op, value, NULL);
  text = embers_selector_to_string (selector);
  query = embers_query_copy (self->query);
  g_free (query->label_selector);
  query->label_selector = g_steal_pointer (&text);
  return query;
}

static EmbersQuery *
query_with (EmbersLabelsPage *self,
            const char       *name,
            const char       *value)
{
  return query_with_op (self, name, EMBERS_MATCH_EQUAL, value);
}

const char * const *
embers_labels_matchers (EmbersLabelsPage *self,
          const char       *out[2])
{
  out[0] = self->query->label_selector != NULL && self->query->label_selector[0]
         ? self->query->label_selector : "{}";
  out[1] = NULL;
  return out;
}

void
embers_labels_show_status (EmbersLabelsPage *self,
             const char       *title,
             const char       *description,
             gboolean          retry)
{
  embers_status_show_message (self->values_panel, retry ? "dialog-error-symbolic" : NULL,
                              title, description, retry);
}

/* The values asking for the query on screen: the old cards dimmed under
 * the range being loaded (never shown as the answer to the new one) */
void
embers_labels_show_values_loading (EmbersLabelsPage *self)
{
  self->values_stale = TRUE;
  g_autofree char *from = embers_query_url_format_local_time (self->query->start_ms);
  g_autofree char *to = embers_query_url_format_local_time (self->query->end_ms);
  /* Translators: over a chart or a flame graph while it loads: the time
   * range asked for, from and to */
  g_autofree char *text = g_strdup_printf (_("Loading %s – %s…"), from, to);

  embers_status_show_loading (self->values_panel, text);
}

/* Loading */

static void
values_done (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(EmbersRequest) req = user_data;
  EmbersLabelsPage *self = req->owner;
  g_autoptr(GPtrArray) series = NULL;
  g_autoptr(GError) error = NULL;

  series = embers_source_select_series_finish (EMBERS_SOURCE (object), result, &error);
  if (!embers_request_is_current (req))
    return;
  embers_labels_request_done (self, REQ_VALUES);
  self->values_stale = FALSE;
  if (series == NULL)
    {
      self->errors[REQ_VALUES] = g_strdup (error->message);
      embers_labels_show_status (self, _("Could Not Load the Values"), error->message, TRUE);
      return;
    }

  embers_labels_clear_values (self);
  g_clear_pointer (&self->stats, g_ptr_array_unref);
  g_free (self->shown_label);
  self->shown_label = g_strdup (self->label);
  self->stats = embers_label_stats_compute (series, self->label,
                                            self->query->start_ms, self->query->end_ms,
                                            embers_source_step_for_range (self->query->start_ms,
                                                                          self->query->end_ms));
  embers_labels_rebuild_values (self);
}

void
embers_labels_load_values (EmbersLabelsPage *self)
{
  const char *group_by[2] = { self->label, NULL };
  EmbersRequest *req;

  /* Another label's values are no old answer to this one */
  if (g_strcmp0 (self->label, self->shown_label) != 0)
    {
      embers_labels_clear_values (self);
      g_clear_pointer (&self->stats, g_ptr_array_unref);
      g_clear_pointer (&self->shown_label, g_free);
    }
  else
    embers_labels_stop_building (self);
  embers_labels_update_sensitivity (self);
  embers_labels_update_heading (self);
  if (self->label == NULL)
    {
      self->values_stale = FALSE;
      embers_labels_show_status (self, _("Pick a Label"), _("Its values show here, sorted by total."), FALSE);
      return;
    }
  req = embers_labels_request_start (self, REQ_VALUES);
  embers_labels_show_values_loading (self);
  embers_source_select_chart_series (self->source, self->query, group_by, EMBERS_AGGREGATION_SUM, 0,
                                     req->cancellable, values_done, req);
}

/* The label names are one Tab stop: GtkListBox takes Tab to its next row,
 * so Tab walked every label before it reached the values. Tab and
 * Shift+Tab from a name leave the list; the arrows move in it, Enter or
 * a click shows the label (GtkWindow moves the focus on Tab by asking
 * the widgets on the focus's path, this page among them) */
gboolean
embers_labels_page_focus (GtkWidget        *widget,
                          GtkDirectionType  direction)
{
  EmbersLabelsPage *self = EMBERS_LABELS_PAGE (widget);

  if (embers_focus_is_tab_out_of (GTK_WIDGET (self->names_list), direction))
    {
      gboolean moved;

      /* The page's own order (the split view's, the toolbar's) past the list:
       * the list takes no focus meanwhile, so its next row is no stop */
      gtk_widget_set_can_focus (GTK_WIDGET (self->names_list), FALSE);
      moved = GTK_WIDGET_CLASS (embers_labels_page_parent_class)->focus (widget, direction);
      gtk_widget_set_can_focus (GTK_WIDGET (self->names_list), TRUE);
      return moved;
    }
  return GTK_WIDGET_CLASS (embers_labels_page_parent_class)->focus (widget, direction);
}

/* The view buttons: each one is on while its view is shown; turned on, it
 * shows its view (turned off, another one is turned on) */
static gboolean
view_to_active (GBinding     *binding,
                const GValue *from,
                GValue       *to,
                gpointer      user_data)
{
  g_value_set_boolean (to, g_value_get_uint (from) == GPOINTER_TO_UINT (user_data));
  return TRUE;
}

static gboolean
active_to_view (GBinding     *binding,
                const GValue *from,
                GValue       *to,
                gpointer      user_data)
{
  if (!g_value_get_boolean (from))
    return FALSE;
  g_value_set_uint (to, GPOINTER_TO_UINT (user_data));
  return TRUE;
}

/* The list shows the view; a pick in it (never "nothing") shows another */
static gboolean
selected_to_view (GBinding     *binding,
                  const GValue *from,
                  GValue       *to,
                  gpointer      user_data)
{
  if (g_value_get_uint (from) > EMBERS_LABELS_VIEW_TABLE)
    return FALSE;
  g_value_set_uint (to, g_value_get_uint (from));
  return TRUE;
}

static void
value_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *param)
{
  EmbersLabelsPage *self = EMBERS_LABELS_PAGE (widget);
  const char *value = g_variant_get_string (param, NULL);

  if (g_str_equal (action_name, "labels.include") || g_str_equal (action_name, "labels.exclude"))
    {
      g_autoptr(GError) error = NULL;

      if (!embers_labels_page_include_value (self, value, g_str_equal (action_name, "labels.exclude"), &error))
        {
          GtkWidget *toast_parent = gtk_widget_get_ancestor (widget, ADW_TYPE_TOAST_OVERLAY);

          if (toast_parent != NULL)
            adw_toast_overlay_add_toast (ADW_TOAST_OVERLAY (toast_parent), adw_toast_new (error->message));
          else
            g_message ("%s", error->message);
        }
    }
  else if (g_str_equal (action_name, "labels.mark-baseline"))
    embers_labels_page_mark_baseline (self, value);
  else if (g_str_equal (action_name, "labels.mark-comparison"))
    embers_labels_page_mark_comparison (self, value);
  else if (g_str_equal (action_name, "labels.compare-with-baseline"))
    embers_labels_page_compare_with_baseline (self, value);
  else if (g_str_equal (action_name, "labels.compare-with-rest"))
    embers_labels_page_compare_with_rest (self, value);
}

static void
compare_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *param)
{
  embers_labels_page_compare (EMBERS_LABELS_PAGE (widget));
}

/* F9: the label names, over the values when the page is narrow */
static void
names_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *param)
{
  EmbersLabelsPage *self = EMBERS_LABELS_PAGE (widget);

  adw_overlay_split_view_set_show_sidebar (self->split_view,
                                           !adw_overlay_split_view_get_show_sidebar (self->split_view));
  if (adw_overlay_split_view_get_show_sidebar (self->split_view))
    {
      /* On the label shown, else the first */
      GtkListBoxRow *row = self->label != NULL ? embers_labels_find_name_row (self, self->label) : NULL;

      if (row == NULL || !gtk_widget_grab_focus (GTK_WIDGET (row)))
        gtk_widget_child_focus (GTK_WIDGET (self->names_list), GTK_DIR_TAB_FORWARD);
    }
}

static void
refresh_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *param)
{
  embers_labels_page_refresh (EMBERS_LABELS_PAGE (widget));
}

/* GObject */

static void
embers_labels_page_dispose (GObject *object)
{
  EmbersLabelsPage *self = EMBERS_LABELS_PAGE (object);

  for (guint i = 0; i < N_REQ; i++)
    {
      embers_request_cancel (&self->cancellables[i]);
    }
  embers_labels_stop_building (self);
  g_clear_pointer (&self->top, g_ptr_array_unref);
  /* The bin lets go of its child before the template does */
  adw_breakpoint_bin_set_child (ADW_BREAKPOINT_BIN (self), NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), EMBERS_TYPE_LABELS_PAGE);
  g_clear_pointer (&self->charts, g_ptr_array_unref);
  G_OBJECT_CLASS (embers_labels_page_parent_class)->dispose (object);
}

static void
embers_labels_page_finalize (GObject *object)
{
  EmbersLabelsPage *self = EMBERS_LABELS_PAGE (object);

  g_clear_object (&self->source);
  g_clear_pointer (&self->query, embers_query_free);
  g_clear_pointer (&self->service, g_free);
  g_clear_pointer (&self->unit, g_free);
  g_clear_pointer (&self->title, g_free);
  g_weak_ref_clear (&self->explore);
  g_weak_ref_clear (&self->model);
  g_clear_object (&self->names);
  g_clear_pointer (&self->cardinality, g_hash_table_unref);
  g_clear_pointer (&self->count_names, g_strfreev);
  g_clear_pointer (&self->label, g_free);
  g_clear_pointer (&self->shown_label, g_free);
  g_clear_pointer (&self->stats, g_ptr_array_unref);
  g_clear_object (&self->table_store);
  g_clear_pointer (&self->table_stats, g_ptr_array_unref);
  g_clear_pointer (&self->baseline_name, g_free);
  g_clear_pointer (&self->baseline_value, g_free);
  g_clear_pointer (&self->comparison_name, g_free);
  g_clear_pointer (&self->comparison_value, g_free);
  for (guint i = 0; i < N_REQ; i++)
    g_clear_pointer (&self->errors[i], g_free);
  G_OBJECT_CLASS (embers_labels_page_parent_class)->finalize (object);
}

static void
embers_labels_page_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  EmbersLabelsPage *self = EMBERS_LABELS_PAGE (object);

  switch (prop_id)
    {
    case EMBERS_LABELS_PAGE_PROP_TITLE:
      g_value_set_string (value, self->title);
      break;
    case EMBERS_LABELS_PAGE_PROP_LOADING:
      g_value_set_boolean (value, embers_labels_page_get_loading (self));
      break;
    case EMBERS_LABELS_PAGE_PROP_CAN_COMPARE:
      g_value_set_boolean (value, embers_labels_page_get_can_compare (self));
      break;
    case EMBERS_LABELS_PAGE_PROP_VIEW:
      g_value_set_uint (value, self->view);
      break;
    case EMBERS_LABELS_PAGE_PROP_SHOW_ALL:
      g_value_set_boolean (value, self->show_all);
      break;
    case EMBERS_LABELS_PAGE_PROP_SAME_SCALE:
      g_value_set_boolean (value, self->same_scale);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
embers_labels_page_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  EmbersLabelsPage *self = EMBERS_LABELS_PAGE (object);

  switch (prop_id)
    {
    case EMBERS_LABELS_PAGE_PROP_VIEW:
      embers_labels_page_set_view (self, g_value_get_uint (value));
      break;
    case EMBERS_LABELS_PAGE_PROP_SHOW_ALL:
      embers_labels_page_set_show_all (self, g_value_get_boolean (value));
      break;
    case EMBERS_LABELS_PAGE_PROP_SAME_SCALE:
      embers_labels_page_set_same_scale (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
embers_labels_page_class_init (EmbersLabelsPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = embers_labels_page_dispose;
  object_class->finalize = embers_labels_page_finalize;
  object_class->get_property = embers_labels_page_get_property;
  object_class->set_property = embers_labels_page_set_property;
  widget_class->focus = embers_labels_page_focus;

  embers_labels_page_properties[EMBERS_LABELS_PAGE_PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  embers_labels_page_properties[EMBERS_LABELS_PAGE_PROP_LOADING] =
    g_param_spec_boolean ("loading", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  embers_labels_page_properties[EMBERS_LABELS_PAGE_PROP_CAN_COMPARE] =
    g_param_spec_boolean ("can-compare", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /* The view (an EmbersLabelsView), Show All and Same Scale: the toolbar's
   * buttons, the list and the check are bound to them in both ways */
  embers_labels_page_properties[EMBERS_LABELS_PAGE_PROP_VIEW] =
    g_param_spec_uint ("view", NULL, NULL, EMBERS_LABELS_VIEW_SERIES, EMBERS_LABELS_VIEW_TABLE,
                       EMBERS_LABELS_VIEW_SERIES,
                       G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  embers_labels_page_properties[EMBERS_LABELS_PAGE_PROP_SHOW_ALL] =
    g_param_spec_boolean ("show-all", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  embers_labels_page_properties[EMBERS_LABELS_PAGE_PROP_SAME_SCALE] =
    g_param_spec_boolean ("same-scale", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, EMBERS_LABELS_PAGE_N_PROPS, embers_labels_page_properties);

  /**
   * EmbersLabelsPage::compare-requested:
   * @baseline: the page's query with the baseline value's filter
   * @comparison: the page's query with the comparison value's filter
   */
  embers_labels_page_signals[EMBERS_LABELS_PAGE_SIGNAL_COMPARE_REQUESTED] =
    g_signal_new ("compare-requested",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, EMBERS_TYPE_QUERY, EMBERS_TYPE_QUERY);
  /**
   * EmbersLabelsPage::filter-added:
   * @name: the label name
   * @value: the value
   * @exclude: TRUE for name!=value
   */
  embers_labels_page_signals[EMBERS_LABELS_PAGE_SIGNAL_FILTER_ADDED] =
    g_signal_new ("filter-added",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 3, G_TYPE_STRING, G_TYPE_STRING, G_TYPE_BOOLEAN);

  gtk_widget_class_install_action (widget_class, "labels.include", "s", value_action);
  gtk_widget_class_install_action (widget_class, "labels.exclude", "s", value_action);
  gtk_widget_class_install_action (widget_class, "labels.mark-baseline", "s", value_action);
  gtk_widget_class_install_action (widget_class, "labels.mark-comparison", "s", value_action);
  gtk_widget_class_install_action (widget_class, "labels.compare-with-baseline", "s", value_action);
  gtk_widget_class_install_action (widget_class, "labels.compare-with-rest", "s", value_action);
  gtk_widget_class_install_action (widget_class, "labels.compare", NULL, compare_action);
  gtk_widget_class_install_action (widget_class, "labels.refresh", NULL, refresh_action);
  gtk_widget_class_install_action (widget_class, "labels.names", NULL, names_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F9, 0, "labels.names", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_r, GDK_CONTROL_MASK, "labels.refresh", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Return, GDK_CONTROL_MASK, "labels.compare", NULL);

  g_type_ensure (EMBERS_TYPE_STATUS);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/emberslab/Embers/embers-labels-page.ui");
  gtk_widget_class_bind_template_child (widget_class, EmbersLabelsPage, root);
  gtk_widget_class_bind_template_child (widget_class, EmbersLabelsPage, toolbar);
  gtk_widget_class_bind_template_child (widget_class, EmbersLabelsPage, title_label);
  gtk_widget_class_bind_template_child (widget_class, EmbersLabelsPage, view_switch);
  gtk_widget_class_bind_template_child (widget_class, EmbersLabelsPage, view_dropdown);
  gtk_widget_class_bind_template_child_full (widget_class, "view_series", FALSE,
                                             G_STRUCT_OFFSET (EmbersLabelsPage, view_buttons[EMBERS_LABELS_VIEW_SERIES]));
  gtk_widget_class_bind_template_child_full (widget_class, "view_total", FALSE,
                                             G_STRUCT_OFFSET (EmbersLabelsPage, view_buttons[EMBERS_LABELS_VIEW_TOTAL]));
  gtk_widget_class_bind_template_child_full (widget_class, "view_maximum", FALSE,
                                             G_STRUCT_OFFSET (EmbersLabelsPage, view_buttons[EMBERS_LABELS_VIEW_MAXIMUM]));
  gtk_widget_class_bind_template_child_full (widget_class, "view_histogram", FALSE,
                                             G_STRUCT_OFFSET (EmbersLabelsPage, view_buttons[EMBERS_LABELS_VIEW_HISTOGRAM]));
  gtk_widget_class_bind_template_child_full (widget_class, "view_table", FALSE,
                                             G_STRUCT_OFFSET (EmbersLabelsPage, view_buttons[EMBERS_LABELS_VIEW_TABLE]));
  gtk_widget_class_bind_template_child (widget_class, EmbersLabelsPage, views_breakpoint);
  gtk_widget_class_bind_template_child (widget_class, EmbersLabelsPage, show_all_button);
  gtk_widget_class_bind_template_child (widget_class, EmbersLabelsPage, spinner);
  gtk_widget_class_bind_template_child (widget_class, EmbersLabelsPage, compare_button);
  gtk_widget_class_bind_template_child (widget_class, EmbersLabelsPage, baseline_label);
  gtk_widget_class_bind_template_child (widget_class, EmbersLabelsPage, comparison_label);
  gtk_widget_class_bind_template_child (widget_class, EmbersLabelsPage, hint_label);
  gtk_widget_class_bind_template_child (widget_class, EmbersLabelsPage, split_view);
  gtk_widget_class_bind_template_child (widget_class, EmbersLabelsPage, names_stack);
  gtk_widget_class_bind_template_child (widget_class, EmbersLabelsPage, names_list);
  gtk_widget_class_bind_template_child (widget_class, EmbersLabelsPage, names_status);
  gtk_widget_class_bind_template_child (widget_class, EmbersLabelsPage, values_box);
  gtk_widget_class_bind_template_child (widget_class, EmbersLabelsPage, values_heading);
  gtk_widget_class_bind_template_child (widget_class, EmbersLabelsPage, same_scale_check);
  gtk_widget_class_bind_template_child (widget_class, EmbersLabelsPage, no_time_label);
  gtk_widget_class_bind_template_child (widget_class, EmbersLabelsPage, values_panel);
  gtk_widget_class_bind_template_child (widget_class, EmbersLabelsPage, values_stack);
  gtk_widget_class_bind_template_child (widget_class, EmbersLabelsPage, cards);
  gtk_widget_class_bind_template_child (widget_class, EmbersLabelsPage, rest_label);
  gtk_widget_class_bind_template_child (widget_class, EmbersLabelsPage, table);
  gtk_widget_class_bind_template_callback (widget_class, embers_labels_page_compare);
  gtk_widget_class_bind_template_callback (widget_class, embers_labels_page_retry);
  gtk_widget_class_bind_template_callback (widget_class, embers_labels_name_activated);

  /* Marked values and the shown label are styled in ui/style.css */
  gtk_widget_class_set_css_name (widget_class, "labelspage");
}

/* Lighter mark colours on a dark background */
static void
dark_changed (EmbersLabelsPage *self,
              GParamSpec       *pspec,
              AdwStyleManager  *manager)
{
  if (adw_style_manager_get_dark (manager))
    gtk_widget_add_css_class (GTK_WIDGET (self), "dark");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self), "dark");
}

static void
embers_labels_page_init (EmbersLabelsPage *self)
{
  g_autoptr(GtkStringList) view_list = gtk_string_list_new (NULL);

  g_weak_ref_init (&self->explore, NULL);
  g_weak_ref_init (&self->model, NULL);
  self->names = gtk_string_list_new (NULL);
  self->cardinality = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->charts = g_ptr_array_new ();
  self->same_scale = TRUE;
  self->has_time = TRUE;

  gtk_widget_init_template (GTK_WIDGET (self));

  {
    g_autofree char *tip = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                         "Show every value, not only the top %u by total",
                                                         "Show every value, not only the top %u by total",
                                                         EMBERS_LABEL_STATS_DEFAULT_TOP),
                                            EMBERS_LABEL_STATS_DEFAULT_TOP);

    gtk_widget_set_tooltip_text (GTK_WIDGET (self->show_all_button), tip);
  }
  /* The view: each button, and the list of the same names without their
   * mnemonics (where the toolbar has no room for the buttons) */
  for (guint i = 0; i < G_N_ELEMENTS (embers_labels_view_names); i++)
    {
      g_auto(GStrv) parts = g_strsplit (_(embers_labels_view_names[i].label), "_", -1);
      g_autofree char *plain = g_strjoinv ("", parts);

      gtk_string_list_append (view_list, plain);
      g_object_bind_property_full (self, "view", self->view_buttons[i], "active",
                                   G_BINDING_SYNC_CREATE | G_BINDING_BIDIRECTIONAL,
                                   view_to_active, active_to_view, GUINT_TO_POINTER (i), NULL);
    }
  gtk_drop_down_set_model (self->view_dropdown, G_LIST_MODEL (view_list));
  /* its button named too (the template names the drop-down only) */
  embers_accessible_set_label (GTK_WIDGET (self->view_dropdown), _("View"));
  g_object_bind_property_full (self, "view", self->view_dropdown, "selected",
                               G_BINDING_SYNC_CREATE | G_BINDING_BIDIRECTIONAL,
                               NULL, selected_to_view, NULL, NULL);
  embers_adaptive_follow_width (self->views_breakpoint, self->toolbar, self->view_switch, "buttons");

  embers_labels_build_table (self);
  embers_labels_update_marks (self, FALSE);

  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark",
                           G_CALLBACK (dark_changed), self, G_CONNECT_SWAPPED);
  dark_changed (self, NULL, adw_style_manager_get_default ());
}

/* The selector, type and range over the toolbar */
static void
update_title_label (EmbersLabelsPage *self)
{
  g_autoptr(EmbersProfileTypeInfo) info = NULL;
  g_autoptr(GDateTime) a = g_date_time_new_from_unix_local (self->query->start_ms / 1000);
  g_autoptr(GDateTime) b = g_date_time_new_from_unix_local (self->query->end_ms / 1000);
  g_autofree char *start = a != NULL ? embers_time_format_date_time (a, TRUE) : g_strdup ("?");
  g_autofree char *end = b != NULL ? embers_time_format_date_time (b, TRUE) : g_strdup ("?");
  g_autofree char *heading = NULL;

  info = self->query->profile_type != NULL ? embers_profile_type_info_new (self->query->profile_type) : NULL;
  /* Translators: selector, profile type name, from, to */
  heading = g_strdup_printf (_("%s · %s · %s – %s"),
                             self->query->label_selector != NULL ? self->query->label_selector : "{}",
                             info != NULL ? info->name : self->query->profile_type, start, end);
  gtk_label_set_text (self->title_label, heading);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->title_label), heading);
}

/* API */

EmbersLabelsPage *
embers_labels_page_new (EmbersSource      *source,
                        const EmbersQuery *query,
                        const char        *service)
{
  EmbersLabelsPage *self;
  g_autoptr(EmbersProfileTypeInfo) info = NULL;

  g_return_val_if_fail (EMBERS_IS_SOURCE (source), NULL);
  g_return_val_if_fail (query != NULL, NULL);

  self = g_object_new (EMBERS_TYPE_LABELS_PAGE, NULL);
  self->source = g_object_ref (source);
  self->query = embers_query_copy (query);
  self->service = g_strdup (service);
  info = query->profile_type != NULL ? embers_profile_type_info_new (query->profile_type) : NULL;
  self->unit = g_strdup (info != NULL ? info->sample_unit : NULL);

  /* Translators: a tab title; %s is a service name */
  self->title = service != NULL ? g_strdup_printf (_("Labels — %s"), service) : g_strdup (_("Labels"));
  update_title_label (self);

  embers_labels_load_names (self);
  return self;
}

EmbersSource *
embers_labels_page_get_source (EmbersLabelsPage *self)
{
  g_return_val_if_fail (EMBERS_IS_LABELS_PAGE (self), NULL);
  return self->source;
}

const EmbersQuery *
embers_labels_page_get_query (EmbersLabelsPage *self)
{
  g_return_val_if_fail (EMBERS_IS_LABELS_PAGE (self), NULL);
  return self->query;
}

const char *
embers_labels_page_get_title (EmbersLabelsPage *self)
{
  g_return_val_if_fail (EMBERS_IS_LABELS_PAGE (self), NULL);
  return self->title;
}

gboolean
embers_labels_page_set_query (EmbersLabelsPage  *self,
                              const EmbersQuery *query,
                              const char        *service)
{
  g_return_val_if_fail (EMBERS_IS_LABELS_PAGE (self), FALSE);
  g_return_val_if_fail (query != NULL, FALSE);

  /* Another service or profile type (another unit): a new page */
  if (g_strcmp0 (query->profile_type, self->query->profile_type) != 0 ||
      g_strcmp0 (service, self->service) != 0)
    return FALSE;
  embers_query_free (self->query);
  self->query = embers_query_copy (query);
  update_title_label (self);
  embers_labels_load_names (self);
  return TRUE;
}

void
embers_labels_page_set_explore_page (EmbersLabelsPage  *self,
                                     EmbersExplorePage *explore)
{
  g_return_if_fail (EMBERS_IS_LABELS_PAGE (self));
  g_return_if_fail (explore == NULL || EMBERS_IS_EXPLORE_PAGE (explore));
  g_weak_ref_set (&self->explore, explore);
  /* A range relative to now ("the last hour") stays so on refresh */
  self->preset_s = explore != NULL ? embers_explore_page_get_preset (explore) : 0;
}

void
embers_labels_page_set_query_model (EmbersLabelsPage *self,
                                    EmbersQueryModel *model)
{
  g_return_if_fail (EMBERS_IS_LABELS_PAGE (self));
  g_return_if_fail (model == NULL || EMBERS_IS_QUERY_MODEL (model));
  g_weak_ref_set (&self->model, model);
}

EmbersExplorePage *
embers_labels_page_get_explore_page (EmbersLabelsPage *self)
{
  g_autoptr(GObject) explore = NULL;

  g_return_val_if_fail (EMBERS_IS_LABELS_PAGE (self), NULL);
  explore = g_weak_ref_get (&self->explore);
  /* The page stays alive while it is in the window */
  return EMBERS_EXPLORE_PAGE (explore);
}

GPtrArray *
embers_labels_page_get_stats (EmbersLabelsPage *self)
{
  g_return_val_if_fail (EMBERS_IS_LABELS_PAGE (self), NULL);
  return self->stats;
}

guint
embers_labels_page_get_n_cards (EmbersLabelsPage *self)
{
  g_return_val_if_fail (EMBERS_IS_LABELS_PAGE (self), 0);
  return self->charts->len;
}

void
embers_labels_page_set_show_all (EmbersLabelsPage *self,
                                 gboolean          show_all)
{
  g_return_if_fail (EMBERS_IS_LABELS_PAGE (self));

  show_all = !!show_all;
  if (self->show_all == show_all)
    return;
  self->show_all = show_all;
  embers_labels_rebuild_values (self);
  g_object_notify_by_pspec (G_OBJECT (self), embers_labels_page_properties[EMBERS_LABELS_PAGE_PROP_SHOW_ALL]);
}

gboolean
embers_labels_page_get_show_all (EmbersLabelsPage *self)
{
  g_return_val_if_fail (EMBERS_IS_LABELS_PAGE (self), FALSE);
  return self->show_all;
}

void
embers_labels_page_set_view (EmbersLabelsPage *self,
                             EmbersLabelsView  view)
{
  g_return_if_fail (EMBERS_IS_LABELS_PAGE (self));
  g_return_if_fail (view <= EMBERS_LABELS_VIEW_TABLE);

  if (self->view == view)
    return;
  self->view = view;
  if (view != EMBERS_LABELS_VIEW_TABLE)
    for (guint i = 0; i < self->charts->len; i++)
      embers_label_chart_set_view (g_ptr_array_index (self->charts, i), embers_labels_chart_view (self));
  else if (self->table_marks_stale)
    embers_labels_refresh_table_marks (self);
  embers_labels_show_values_view (self);
  g_object_notify_by_pspec (G_OBJECT (self), embers_labels_page_properties[EMBERS_LABELS_PAGE_PROP_VIEW]);
}

void
embers_labels_page_set_same_scale (EmbersLabelsPage *self,
                                   gboolean          same_scale)
{
  g_return_if_fail (EMBERS_IS_LABELS_PAGE (self));

  same_scale = !!same_scale;
  if (self->same_scale == same_scale)
    return;
  self->same_scale = same_scale;
  for (guint i = 0; i < self->charts->len; i++)
    embers_labels_apply_scale (self, g_ptr_array_index (self->charts, i));
  g_object_notify_by_pspec (G_OBJECT (self), embers_labels_page_properties[EMBERS_LABELS_PAGE_PROP_SAME_SCALE]);
}

gboolean
embers_labels_page_get_same_scale (EmbersLabelsPage *self)
{
  g_return_val_if_fail (EMBERS_IS_LABELS_PAGE (self), TRUE);
  return self->same_scale;
}

gboolean
embers_labels_page_get_has_time (EmbersLabelsPage *self)
{
  g_return_val_if_fail (EMBERS_IS_LABELS_PAGE (self), TRUE);
  return self->stats == NULL || self->has_time;
}

EmbersLabelsView
embers_labels_page_get_view (EmbersLabelsPage *self)
{
  g_return_val_if_fail (EMBERS_IS_LABELS_PAGE (self), EMBERS_LABELS_VIEW_SERIES);
  return self->view;
}

gboolean
embers_labels_page_include_value (EmbersLabelsPage  *self,
                                  const char        *value,
                                  gboolean           exclude,
                                  GError           **error)
{
  g_autoptr(EmbersExplorePage) explore = NULL;
  g_autoptr(EmbersQueryModel) model = NULL;

  g_return_val_if_fail (EMBERS_IS_LABELS_PAGE (self), FALSE);
  g_return_val_if_fail (value != NULL, FALSE);

  if (self->label == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, _("No label is selected"));
      return FALSE;
    }
  /* In a workspace: on the shared query, which every view follows */
  model = (EmbersQueryModel *)g_weak_ref_get (&self->model);
  if (model != NULL)
    {
      EmbersSelector *filters = embers_query_model_get_filters (model);
      const EmbersMatcher *existing = NULL;
      g_autofree char *merged = NULL;
      EmbersMatchOp op;

      for (guint i = 0; i < embers_selector_get_n_matchers (filters); i++)
        if (g_str_equal (embers_selector_get_matcher (filters, i)->name, self->label))
          existing = embers_selector_get_matcher (filters, i);
      if (!embers_label_filter_merge (existing, value, exclude, &op, &merged, error) ||
          !embers_query_model_add_filter (model, self->label, op, merged, error))
        return FALSE;
      g_signal_emit (self, embers_labels_page_signals[EMBERS_LABELS_PAGE_SIGNAL_FILTER_ADDED], 0, self->label, value, exclude);
      return TRUE;
    }
  explore = (EmbersExplorePage *)g_weak_ref_get (&self->explore);
  if (explore == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                           _("The explore tab this page was opened from is closed"));
      return FALSE;
    }
  /* Stacked on the label's filter there (!~"eu|us" after excluding both),
   * as the explore page holds one filter per label */
  {
    g_autofree char *text = embers_explore_page_dup_selector (explore);
    g_autoptr(EmbersSelector) current = embers_selector_parse (text != NULL ? text : "{}", NULL, NULL);
    const EmbersMatcher *existing = NULL;
    g_autofree char *merged = NULL;
    EmbersMatchOp op;

    for (guint i = 0; current != NULL && i < embers_selector_get_n_matchers (current); i++)
      if (g_str_equal (embers_selector_get_matcher (current, i)->name, self->label))
        existing = embers_selector_get_matcher (current, i);
    if (!embers_label_filter_merge (existing, value, exclude, &op, &merged, error))
      return FALSE;
    if (!embers_explore_page_add_filter (explore, self->label, op, merged, error))
      return FALSE;
  }
  g_signal_emit (self, embers_labels_page_signals[EMBERS_LABELS_PAGE_SIGNAL_FILTER_ADDED], 0, self->label, value, exclude);
  return TRUE;
}

gboolean
embers_labels_page_compare (EmbersLabelsPage *self)
{
  g_autoptr(EmbersQuery) baseline = NULL;
  g_autoptr(EmbersQuery) comparison = NULL;

  g_return_val_if_fail (EMBERS_IS_LABELS_PAGE (self), FALSE);

  if (!embers_labels_page_get_can_compare (self))
    return FALSE;
  baseline = query_with (self, self->baseline_name, self->baseline_value);
  comparison = query_with (self, self->comparison_name, self->comparison_value);
  g_signal_emit (self, embers_labels_page_signals[EMBERS_LABELS_PAGE_SIGNAL_COMPARE_REQUESTED], 0, baseline, comparison);
  return TRUE;
}

gboolean
embers_labels_page_compare_with_baseline (EmbersLabelsPage *self,
                                          const char       *value)
{
  g_return_val_if_fail (EMBERS_IS_LABELS_PAGE (self), FALSE);
  g_return_val_if_fail (value != NULL, FALSE);

  if (self->label == NULL || self->baseline_name == NULL || embers_labels_is_baseline (self, value))
    return FALSE;
  embers_labels_page_mark_comparison (self, value);
  return embers_labels_page_compare (self);
}

gboolean
embers_labels_page_compare_with_rest (EmbersLabelsPage *self,
                                      const char       *value)
{
  g_autoptr(EmbersQuery) rest = NULL;
  g_autoptr(EmbersQuery) one = NULL;

  g_return_val_if_fail (EMBERS_IS_LABELS_PAGE (self), FALSE);
  g_return_val_if_fail (value != NULL, FALSE);

  if (self->label == NULL)
    return FALSE;
  rest = query_with_op (self, self->label, EMBERS_MATCH_NOT_EQUAL, value);
  one = query_with (self, self->label, value);
  g_signal_emit (self, embers_labels_page_signals[EMBERS_LABELS_PAGE_SIGNAL_COMPARE_REQUESTED], 0, rest, one);
  return TRUE;
}

void
embers_labels_page_refresh (EmbersLabelsPage *self)
{
  g_return_if_fail (EMBERS_IS_LABELS_PAGE (self));

  /* "The last hour" is the last hour now */
  if (self->preset_s > 0)
    {
      self->query->end_ms = g_get_real_time () / 1000;
      self->query->start_ms = self->query->end_ms - self->preset_s * 1000;
      update_title_label (self);
    }
  embers_labels_load_names (self);
}

void
embers_labels_page_retry (EmbersLabelsPage *self)
{
  g_return_if_fail (EMBERS_IS_LABELS_PAGE (self));

  if (self->errors[REQ_NAMES] != NULL)
    embers_labels_load_names (self);
  else
    embers_labels_load_values (self);
}

gboolean
embers_labels_page_get_loading (EmbersLabelsPage *self)
{
  g_return_val_if_fail (EMBERS_IS_LABELS_PAGE (self), FALSE);

  for (guint i = 0; i < N_REQ; i++)
    if (self->cancellables[i] != NULL)
      return TRUE;
  /* Cards still being built */
  return self->build_source != 0;
}

const char *
embers_labels_page_get_error (EmbersLabelsPage *self)
{
  g_return_val_if_fail (EMBERS_IS_LABELS_PAGE (self), NULL);
  return self->errors[REQ_NAMES] != NULL ? self->errors[REQ_NAMES] : self->errors[REQ_VALUES];
}

const char *
embers_labels_page_get_heading (EmbersLabelsPage *self)
{
  g_return_val_if_fail (EMBERS_IS_LABELS_PAGE (self), NULL);
  return gtk_label_get_text (self->values_heading);
}
