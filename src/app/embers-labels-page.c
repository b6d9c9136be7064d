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

static void
view_toggled (GtkToggleButton  *button,
              EmbersLabelsPage *self)
{
  if (self->syncing || !gtk_toggle_button_get_active (button))
    return;
  embers_labels_page_set_view (self, GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "view")));
}

static void
view_dropdown_selected (EmbersLabelsPage *self)
{
  guint view = gtk_drop_down_get_selected (self->view_dropdown);

  if (self->syncing || view > EMBERS_LABELS_VIEW_TABLE)
    return;
  embers_labels_page_set_view (self, view);
}

static void
same_scale_toggled (EmbersLabelsPage *self)
{
  if (self->syncing)
    return;
  embers_labels_page_set_same_scale (self, gtk_check_button_get_active (self->same_scale_check));
}

static void
show_all_toggled (EmbersLabelsPage *self)
{
  if (self->syncing)
    return;
  embers_labels_page_set_show_all (self, gtk_toggle_button_get_active (self->show_all_button));
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

/* Building */

GtkWidget *
embers_labels_centered_spinner (void)
{
  GtkWidget *spinner = adw_spinner_new ();

  gtk_widget_set_halign (spinner, GTK_ALIGN_CENTER);
  gtk_widget_set_valign (spinner, GTK_ALIGN_CENTER);
  gtk_widget_set_size_request (spinner, 32, 32);
  return spinner;
}

GtkWidget *
embers_labels_retry_status (AdwStatusPage   **out,
              GtkButton       **out_button,
              EmbersLabelsPage *self)
{
  GtkWidget *status = adw_status_page_new ();
  GtkWidget *button = gtk_button_new_with_mnemonic (_("_Retry"));

  gtk_widget_set_halign (button, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (button, "pill");
  g_signal_connect_object (button, "clicked", G_CALLBACK (embers_labels_page_retry), self, G_CONNECT_SWAPPED);
  adw_status_page_set_child (ADW_STATUS_PAGE (status), button);
  adw_status_page_set_icon_name (ADW_STATUS_PAGE (status), "dialog-error-symbolic");
  gtk_widget_add_css_class (status, "compact");
  *out = ADW_STATUS_PAGE (status);
  if (out_button != NULL)
    *out_button = GTK_BUTTON (button);
  return status;
}

static GtkWidget *
build_toolbar (EmbersLabelsPage *self)
{
  GtkWidget *toolbar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *views = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  g_autoptr(GtkStringList) view_list = gtk_string_list_new (NULL);
  GtkWidget *button;
  GtkToggleButton *group = NULL;

  gtk_widget_add_css_class (toolbar, "toolbar");
  self->toolbar = toolbar;

  /* The label names, over the values on a narrow page */
  button = gtk_toggle_button_new ();
  gtk_button_set_icon_name (GTK_BUTTON (button), "sidebar-show-symbolic");
  gtk_widget_set_tooltip_text (button, _("Show Label Names (F9)"));
  embers_accessible_set_label (button, _("Show Label Names"));
  g_object_bind_property (self->split_view, "show-sidebar", button, "active",
                          G_BINDING_SYNC_CREATE | G_BINDING_BIDIRECTIONAL);
  gtk_box_append (GTK_BOX (toolbar), button);

  self->title_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_widget_add_css_class (GTK_WIDGET (self->title_label), "heading");
  gtk_label_set_ellipsize (self->title_label, PANGO_ELLIPSIZE_END);
  gtk_label_set_xalign (self->title_label, 0);
  gtk_widget_set_hexpand (GTK_WIDGET (self->title_label), TRUE);
  gtk_box_append (GTK_BOX (toolbar), GTK_WIDGET (self->title_label));

  gtk_widget_add_css_class (views, "linked");
  gtk_accessible_update_property (GTK_ACCESSIBLE (views), GTK_ACCESSIBLE_PROPERTY_LABEL, _("View"), -1);
  for (guint i = 0; i < G_N_ELEMENTS (embers_labels_view_names); i++)
    {
      button = gtk_toggle_button_new_with_mnemonic (_(embers_labels_view_names[i].label));
      gtk_widget_set_tooltip_text (button, _(embers_labels_view_names[i].tooltip));
      g_object_set_data (G_OBJECT (button), "view", GUINT_TO_POINTER (i));
      if (group != NULL)
        gtk_toggle_button_set_group (GTK_TOGGLE_BUTTON (button), group);
      else
        group = GTK_TOGGLE_BUTTON (button);
      g_signal_connect (button, "toggled", G_CALLBACK (view_toggled), self);
      self->view_buttons[i] = GTK_TOGGLE_BUTTON (button);
      gtk_box_append (GTK_BOX (views), button);
      {
        /* The same names without their mnemonics, for the narrow list */
        g_auto(GStrv) parts = g_strsplit (_(embers_labels_view_names[i].label), "_", -1);
        g_autofree char *plain = g_strjoinv ("", parts);

        gtk_string_list_append (view_list, plain);
      }
    }
  gtk_toggle_button_set_active (self->view_buttons[0], TRUE);
  self->view_dropdown = GTK_DROP_DOWN (gtk_drop_down_new (G_LIST_MODEL (g_steal_pointer (&view_list)), NULL));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->view_dropdown), _("View"));
  embers_accessible_set_label (GTK_WIDGET (self->view_dropdown), _("View"));
  gtk_widget_set_halign (GTK_WIDGET (self->view_dropdown), GTK_ALIGN_END);
  g_signal_connect_swapped (self->view_dropdown, "notify::selected", G_CALLBACK (view_dropdown_selected), self);
  /* The buttons, or where the toolbar has no room for them the list
   * (a breakpoint switches, see embers_labels_page_init) */
  self->view_switch = GTK_STACK (gtk_stack_new ());
  gtk_stack_set_hhomogeneous (self->view_switch, FALSE);
  gtk_widget_set_halign (GTK_WIDGET (self->view_switch), GTK_ALIGN_END);
  gtk_stack_add_named (self->view_switch, views, "buttons");
  gtk_stack_add_named (self->view_switch, GTK_WIDGET (self->view_dropdown), "list");
  gtk_box_append (GTK_BOX (toolbar), GTK_WIDGET (self->view_switch));

  self->show_all_button = GTK_TOGGLE_BUTTON (gtk_toggle_button_new_with_mnemonic (_("Show A_ll")));
  {
    g_autofree char *tip = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                         "Show every value, not only the top %u by total",
                                                         "Show every value, not only the top %u by total",
                                                         EMBERS_LABEL_STATS_DEFAULT_TOP),
                                            EMBERS_LABEL_STATS_DEFAULT_TOP);

    gtk_widget_set_tooltip_text (GTK_WIDGET (self->show_all_button), tip);
  }
  g_signal_connect_swapped (self->show_all_button, "toggled", G_CALLBACK (show_all_toggled), self);
  gtk_box_append (GTK_BOX (toolbar), GTK_WIDGET (self->show_all_button));

  self->spinner = adw_spinner_new ();
  gtk_widget_set_visible (self->spinner, FALSE);
  gtk_box_append (GTK_BOX (toolbar), self->spinner);

  button = gtk_button_new_from_icon_name ("view-refresh-symbolic");
  gtk_widget_set_tooltip_text (button, _("Refresh (Ctrl+R)"));
  embers_accessible_set_label (button, _("Refresh"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "labels.refresh");
  gtk_box_append (GTK_BOX (toolbar), button);

  self->compare_button = GTK_BUTTON (gtk_button_new_with_mnemonic (_("_Compare")));
  gtk_widget_add_css_class (GTK_WIDGET (self->compare_button), "suggested-action");
  g_signal_connect_object (self->compare_button, "clicked", G_CALLBACK (embers_labels_page_compare),
                           self, G_CONNECT_SWAPPED);
  gtk_box_append (GTK_BOX (toolbar), GTK_WIDGET (self->compare_button));
  return toolbar;
}

static GtkWidget *
build_marks_bar (EmbersLabelsPage *self)
{
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 18);
  GtkWidget *hint = gtk_label_new (_("Pick a value's ⋮ menu to filter by it, to mark it or to compare it"));

  gtk_widget_set_margin_start (bar, 12);
  gtk_widget_set_margin_end (bar, 12);
  gtk_widget_set_margin_bottom (bar, 6);
  self->baseline_label = GTK_LABEL (gtk_label_new (NULL));
  self->comparison_label = GTK_LABEL (gtk_label_new (NULL));
  /* On a narrow page the marks wrap rather than lose their middle */
  for (GtkLabel *label = self->baseline_label; label != NULL;
       label = label == self->baseline_label ? self->comparison_label : NULL)
    {
      gtk_label_set_wrap (label, TRUE);
      gtk_label_set_wrap_mode (label, PANGO_WRAP_WORD_CHAR);
      gtk_label_set_xalign (label, 0);
      gtk_label_set_max_width_chars (label, 40);
      gtk_widget_set_valign (GTK_WIDGET (label), GTK_ALIGN_START);
    }
  gtk_widget_add_css_class (GTK_WIDGET (self->baseline_label), "labels-baseline-text");
  gtk_widget_add_css_class (GTK_WIDGET (self->comparison_label), "labels-comparison-text");
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->baseline_label));
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->comparison_label));
  gtk_widget_add_css_class (hint, "dim-label");
  gtk_label_set_xalign (GTK_LABEL (hint), 1);
  gtk_widget_set_valign (hint, GTK_ALIGN_START);
  /* The hint whole, or not at all on a narrow page (half of it said
   * nothing): shown with values, hidden by the narrow breakpoint */
  {
    GtkWidget *wrapper = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);

    gtk_widget_set_hexpand (wrapper, TRUE);
    gtk_widget_set_halign (hint, GTK_ALIGN_END);
    gtk_widget_set_hexpand (hint, TRUE);
    gtk_box_append (GTK_BOX (wrapper), hint);
    gtk_widget_set_visible (wrapper, FALSE);
    self->hint_label = wrapper;
    g_object_set_data (G_OBJECT (self), "hint", hint);
    gtk_box_append (GTK_BOX (bar), wrapper);
  }
  return bar;
}

static GtkWidget *
build_values (EmbersLabelsPage *self)
{
  GtkWidget *scrolled = gtk_scrolled_window_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *table_scrolled = gtk_scrolled_window_new ();
  GtkWidget *outer = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);

  self->values_box = outer;
  {
    GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);

    self->values_heading = GTK_LABEL (gtk_label_new (NULL));
    gtk_widget_add_css_class (GTK_WIDGET (self->values_heading), "heading");
    gtk_label_set_xalign (self->values_heading, 0);
    gtk_label_set_ellipsize (self->values_heading, PANGO_ELLIPSIZE_END);
    gtk_widget_set_hexpand (GTK_WIDGET (self->values_heading), TRUE);
    gtk_box_append (GTK_BOX (row), GTK_WIDGET (self->values_heading));

    /* One scale for all values, so that sizes and shapes compare at a
     * glance; off, each chart fills its card */
    self->same_scale_check = GTK_CHECK_BUTTON (gtk_check_button_new_with_mnemonic (_("Same _Scale")));
    gtk_check_button_set_active (self->same_scale_check, TRUE);
    gtk_widget_set_tooltip_text (GTK_WIDGET (self->same_scale_check),
                                 _("Draw every value on one scale, so that their sizes compare; off, each chart uses its own"));
    g_signal_connect_swapped (self->same_scale_check, "toggled", G_CALLBACK (same_scale_toggled), self);
    /* In a stack of its size, so that the heading keeps its height when
     * the check is not there (views without a scale to share) */
    {
      GtkWidget *keep = gtk_stack_new ();

      gtk_stack_set_vhomogeneous (GTK_STACK (keep), TRUE);
      gtk_stack_set_hhomogeneous (GTK_STACK (keep), FALSE);
      gtk_stack_add_child (GTK_STACK (keep), GTK_WIDGET (self->same_scale_check));
      gtk_stack_add_child (GTK_STACK (keep), gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0));
      gtk_stack_set_visible_child (GTK_STACK (keep), gtk_widget_get_last_child (keep));
      gtk_stack_set_interpolate_size (GTK_STACK (keep), FALSE);
      gtk_box_append (GTK_BOX (row), keep);
    }
    /* Regressions across many (embers-window-regressions.c): by the
     * values' heading, which gives way (the toolbar has no room left) */
    {
      g_autoptr(GMenu) across = g_menu_new ();
      GtkWidget *button = gtk_menu_button_new ();

      g_menu_append (across, _("The Label’s _Values, in Order"), "win.compare-across::values");
      g_menu_append (across, _("_Time Ranges"), "win.compare-across::time");
      gtk_menu_button_set_label (GTK_MENU_BUTTON (button), _("Line _Up"));
      gtk_menu_button_set_use_underline (GTK_MENU_BUTTON (button), TRUE);
      embers_accessible_set_label (button, _("Line Up"));
      gtk_menu_button_set_menu_model (GTK_MENU_BUTTON (button), G_MENU_MODEL (across));
      gtk_widget_set_tooltip_text (button, _("Line Up: the values or time ranges in order, and where a function jumps"));
      gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
      gtk_box_append (GTK_BOX (row), button);
    }

    gtk_widget_set_margin_start (row, 12);
    gtk_widget_set_margin_end (row, 12);
    gtk_widget_set_margin_top (row, 6);
    gtk_box_append (GTK_BOX (outer), row);
  }

  self->no_time_label = GTK_LABEL (gtk_label_new (_("Every profile here has the same time, so there is no time series, histogram or average over time")));
  gtk_widget_add_css_class (GTK_WIDGET (self->no_time_label), "dim-label");
  gtk_label_set_wrap (self->no_time_label, TRUE);
  gtk_label_set_xalign (self->no_time_label, 0);
  gtk_widget_set_margin_start (GTK_WIDGET (self->no_time_label), 12);
  gtk_widget_set_margin_end (GTK_WIDGET (self->no_time_label), 12);
  gtk_widget_set_visible (GTK_WIDGET (self->no_time_label), FALSE);
  gtk_box_append (GTK_BOX (outer), GTK_WIDGET (self->no_time_label));

  self->cards = GTK_FLOW_BOX (gtk_flow_box_new ());
  gtk_flow_box_set_selection_mode (self->cards, GTK_SELECTION_NONE);
  gtk_flow_box_set_homogeneous (self->cards, TRUE);
  gtk_flow_box_set_min_children_per_line (self->cards, 1);
  gtk_flow_box_set_max_children_per_line (self->cards, 4);
  gtk_flow_box_set_column_spacing (self->cards, 12);
  gtk_flow_box_set_row_spacing (self->cards, 12);
  gtk_widget_set_valign (GTK_WIDGET (self->cards), GTK_ALIGN_START);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->cards), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Label values by total"), -1);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->cards));

  self->rest_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_widget_add_css_class (GTK_WIDGET (self->rest_label), "dim-label");
  gtk_label_set_xalign (self->rest_label, 0);
  gtk_label_set_wrap (self->rest_label, TRUE);
  gtk_widget_set_visible (GTK_WIDGET (self->rest_label), FALSE);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->rest_label));

  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  gtk_widget_set_margin_top (box, 6);
  gtk_widget_set_margin_bottom (box, 12);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), box);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);

  embers_labels_build_table (self, table_scrolled);

  self->values_stack = GTK_STACK (gtk_stack_new ());
  gtk_stack_add_named (self->values_stack, scrolled, "cards");
  gtk_stack_add_named (self->values_stack, table_scrolled, "table");
  gtk_widget_set_vexpand (GTK_WIDGET (self->values_stack), TRUE);
  gtk_widget_set_hexpand (GTK_WIDGET (self->values_stack), TRUE);
  self->values_panel = EMBERS_STATUS (embers_status_new ());
  embers_status_set_content (self->values_panel, GTK_WIDGET (self->values_stack));
  g_signal_connect_object (self->values_panel, "retry", G_CALLBACK (embers_labels_page_retry), self,
                           G_CONNECT_SWAPPED);
  gtk_widget_set_vexpand (GTK_WIDGET (self->values_panel), TRUE);
  gtk_widget_set_hexpand (GTK_WIDGET (self->values_panel), TRUE);
  gtk_box_append (GTK_BOX (outer), GTK_WIDGET (self->values_panel));
  return outer;
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
  adw_breakpoint_bin_set_child (ADW_BREAKPOINT_BIN (self), NULL);
  self->root = NULL;
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
set_string_setter (AdwBreakpoint *breakpoint,
                   gpointer       object,
                   const char    *property,
                   const char    *value)
{
  g_auto(GValue) v = G_VALUE_INIT;

  g_value_init (&v, G_TYPE_STRING);
  g_value_set_string (&v, value);
  adw_breakpoint_add_setter (breakpoint, G_OBJECT (object), property, &v);
}

static void
embers_labels_page_init (EmbersLabelsPage *self)
{
  GtkWidget *names;

  g_weak_ref_init (&self->explore, NULL);
  g_weak_ref_init (&self->model, NULL);
  self->names = gtk_string_list_new (NULL);
  self->cardinality = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->charts = g_ptr_array_new ();
  self->same_scale = TRUE;
  self->has_time = TRUE;

  self->root = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  adw_breakpoint_bin_set_child (ADW_BREAKPOINT_BIN (self), self->root);
  /* The least room the narrowest layout needs */
  gtk_widget_set_size_request (GTK_WIDGET (self), 360, 240);
  /* Names beside the values; over them (F9) when both do not fit */
  self->split_view = ADW_OVERLAY_SPLIT_VIEW (adw_overlay_split_view_new ());
  adw_overlay_split_view_set_min_sidebar_width (self->split_view, 200);
  adw_overlay_split_view_set_max_sidebar_width (self->split_view, 240);
  gtk_box_append (GTK_BOX (self->root), build_toolbar (self));
  gtk_box_append (GTK_BOX (self->root), build_marks_bar (self));
  gtk_box_append (GTK_BOX (self->root), gtk_separator_new (GTK_ORIENTATION_HORIZONTAL));

  names = embers_labels_build_names (self);
  adw_overlay_split_view_set_sidebar (self->split_view, names);
  adw_overlay_split_view_set_content (self->split_view, build_values (self));
  gtk_widget_set_vexpand (GTK_WIDGET (self->split_view), TRUE);
  gtk_box_append (GTK_BOX (self->root), GTK_WIDGET (self->split_view));

  /* Narrower than the toolbar with the view buttons: the views as a list */
  self->views_breakpoint = adw_breakpoint_new (adw_breakpoint_condition_parse ("max-width: 900sp"));
  set_string_setter (self->views_breakpoint, self->view_switch, "visible-child-name", "list");
  adw_breakpoint_bin_add_breakpoint (ADW_BREAKPOINT_BIN (self), self->views_breakpoint);
  embers_adaptive_follow_width (self->views_breakpoint, self->toolbar, self->view_switch, "buttons");
  /* Narrower still: the names over the values (F9), no hint */
  {
    AdwBreakpoint *narrow = adw_breakpoint_new (adw_breakpoint_condition_parse ("max-width: 760sp"));
    g_auto(GValue) yes = G_VALUE_INIT;
    g_auto(GValue) no = G_VALUE_INIT;

    g_value_init (&yes, G_TYPE_BOOLEAN);
    g_value_set_boolean (&yes, TRUE);
    g_value_init (&no, G_TYPE_BOOLEAN);
    g_value_set_boolean (&no, FALSE);
    set_string_setter (narrow, self->view_switch, "visible-child-name", "list");
    adw_breakpoint_add_setter (narrow, G_OBJECT (self->split_view), "collapsed", &yes);
    adw_breakpoint_add_setter (narrow, g_object_get_data (G_OBJECT (self), "hint"), "visible", &no);
    adw_breakpoint_bin_add_breakpoint (ADW_BREAKPOINT_BIN (self), narrow);
  }

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
  self->syncing = TRUE;
  gtk_toggle_button_set_active (self->show_all_button, show_all);
  self->syncing = FALSE;
  embers_labels_rebuild_values (self);
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

  self->view = view;
  self->syncing = TRUE;
  gtk_toggle_button_set_active (self->view_buttons[view], TRUE);
  if (self->view_dropdown != NULL)
    gtk_drop_down_set_selected (self->view_dropdown, view);
  self->syncing = FALSE;
  if (view != EMBERS_LABELS_VIEW_TABLE)
    for (guint i = 0; i < self->charts->len; i++)
      embers_label_chart_set_view (g_ptr_array_index (self->charts, i), embers_labels_chart_view (self));
  else if (self->table_marks_stale)
    embers_labels_refresh_table_marks (self);
  embers_labels_show_values_view (self);
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
  self->syncing = TRUE;
  gtk_check_button_set_active (self->same_scale_check, same_scale);
  self->syncing = FALSE;
  for (guint i = 0; i < self->charts->len; i++)
    embers_labels_apply_scale (self, g_ptr_array_index (self->charts, i));
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
