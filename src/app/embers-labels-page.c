/* embers-labels-page.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <glib/gi18n.h>
#include <adwaita.h>

#include "embers-accessible.h"
#include "embers-adaptive.h"
#include "embers-label-chart.h"
#include "embers-query-url.h"
#include "embers-status.h"
#include "embers-focus.h"
#include "embers-labels-page.h"
#include "embers-request.h"
#include "embers-selector.h"
#include "embers-time.h"
#include "embers-units.h"

#define SERVICE_LABEL "service_name"

typedef enum
{
  REQ_NAMES,
  REQ_VALUES,
  N_REQ
} RequestKind;

/* The table's columns */
typedef enum
{
  COL_VALUE,
  COL_TOTAL,
  COL_SHARE,
  COL_MEAN,
  COL_STDDEV,
  COL_MAX,
  COL_STEPS,
  COL_MARK,
  COL_ACTIONS,
} Column;

/* A row of the table: one value's statistics (the array is shared) */

#define EMBERS_TYPE_LABEL_VALUE_ROW (embers_label_value_row_get_type ())
G_DECLARE_FINAL_TYPE (EmbersLabelValueRow, embers_label_value_row, EMBERS, LABEL_VALUE_ROW, GObject)

struct _EmbersLabelValueRow
{
  GObject                parent_instance;
  GPtrArray             *all;     /* keeps stats alive */
  EmbersLabelValueStats *stats;
};

G_DEFINE_FINAL_TYPE (EmbersLabelValueRow, embers_label_value_row, G_TYPE_OBJECT)

static void
embers_label_value_row_finalize (GObject *object)
{
  g_clear_pointer (&EMBERS_LABEL_VALUE_ROW (object)->all, g_ptr_array_unref);
  G_OBJECT_CLASS (embers_label_value_row_parent_class)->finalize (object);
}

static void
embers_label_value_row_class_init (EmbersLabelValueRowClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = embers_label_value_row_finalize;
}

static void
embers_label_value_row_init (EmbersLabelValueRow *self)
{
}

static EmbersLabelValueRow *
embers_label_value_row_new (GPtrArray *all,
                            guint      index)
{
  EmbersLabelValueRow *row = g_object_new (EMBERS_TYPE_LABEL_VALUE_ROW, NULL);

  row->all = g_ptr_array_ref (all);
  row->stats = g_ptr_array_index (all, index);
  return row;
}

/* The page */

struct _EmbersLabelsPage
{
  AdwBreakpointBin   parent_instance;

  GtkWidget         *root;
  GtkLabel          *title_label;
  GtkToggleButton   *view_buttons[EMBERS_LABELS_VIEW_TABLE + 1];
  GtkToggleButton   *show_all_button;
  GtkDropDown       *view_dropdown;   /* instead of view_buttons when narrow */
  GtkStack          *view_switch;     /* the buttons, or the drop-down */
  AdwBreakpoint     *views_breakpoint;
  AdwOverlaySplitView *split_view;    /* label names beside or over the values */
  GtkWidget         *spinner;
  GtkButton         *compare_button;
  GtkLabel          *baseline_label;
  GtkLabel          *comparison_label;
  GtkStack          *names_stack;
  GtkListBox        *names_list;
  AdwStatusPage     *names_status;
  GtkStack          *values_stack;
  GtkLabel          *values_heading;
  GtkCheckButton    *same_scale_check;
  GtkLabel          *no_time_label;
  GtkWidget         *hint_label;      /* with values; whole, or hidden when narrow */
  GtkWidget         *toolbar;
  GtkWidget         *values_box;      /* the split view's content */
  GtkFlowBox        *cards;
  GtkLabel          *rest_label;
  GtkColumnView     *table;
  GListStore        *table_store;
  GPtrArray         *table_stats;     /* the stats the table's rows are of */
  gboolean           table_marks_stale; /* marks changed while the table was hidden */
  EmbersStatus      *values_panel;    /* the cards or table, loading or a message */
  char              *shown_label;     /* the label whose values are on screen */
  gboolean           values_stale;    /* they answer an older query: new ones are asked for */

  EmbersSource      *source;
  EmbersQuery       *query;
  char              *service;
  char              *unit;
  char              *title;
  GWeakRef           explore;
  GWeakRef           model;    /* the workspace's query: where filters go */

  GtkStringList     *names;
  GHashTable        *cardinality;     /* name -> GINT_TO_POINTER (n + 1) */
  guint              pending_counts;
  GStrv              count_names;     /* label names whose values are counted */
  guint              count_next;      /* the next of them to ask for */
  char              *label;
  GPtrArray         *stats;
  GPtrArray         *charts;          /* EmbersLabelChart shown */
  EmbersLabelsView   view;
  gboolean           show_all;
  gboolean           same_scale;      /* one scale for every value's chart */
  gboolean           has_time;        /* the values' points have more than one time */
  double             grand_total;
  double             max_of_max;
  double             hist_lo;         /* every value's per-step range */
  double             hist_hi;
  GPtrArray         *top;             /* the values shown as cards */
  guint              n_built;         /* of top */
  guint              build_source;    /* the tick that builds the rest of the cards */
  GListModel        *sorted;          /* the table's rows as sorted */
  int                sort_column;     /* the table's primary sort column */

  gint64             preset_s;        /* > 0: the range is the last preset_s seconds */

  char              *baseline_name;
  char              *baseline_value;
  char              *comparison_name;
  char              *comparison_value;

  GCancellable      *cancellables[N_REQ];
  char              *errors[N_REQ];
  gboolean           syncing;
};

G_DEFINE_FINAL_TYPE (EmbersLabelsPage, embers_labels_page, ADW_TYPE_BREAKPOINT_BIN)

enum
{
  PROP_0,
  PROP_TITLE,
  PROP_LOADING,
  PROP_CAN_COMPARE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum
{
  SIGNAL_COMPARE_REQUESTED,
  SIGNAL_FILTER_ADDED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static const struct
{
  const char *label;
  const char *tooltip;
} view_names[] = {
  { N_("_Series"), N_("Each value's time series") },
  { N_("T_otal"), N_("Each value's total over the range, as a share of the whole") },
  { N_("_Maximum"), N_("Each value's largest step, with the average of its steps with data marked") },
  { N_("_Histogram"), N_("How each value's per-step values spread") },
  { N_("T_able"), N_("Total, share, average and standard deviation of the steps with data, and maximum per value") },
};

static void load_names        (EmbersLabelsPage *self);
static void load_values       (EmbersLabelsPage *self);
static void mark_current_name (EmbersLabelsPage *self);

/* Requests (as on the explore page: a newer one cancels the older) */

static void
update_loading (EmbersLabelsPage *self)
{
  gboolean loading = embers_labels_page_get_loading (self);

  gtk_widget_set_visible (self->spinner, loading);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADING]);
}

static EmbersRequest *
request_start (EmbersLabelsPage *self,
               RequestKind       kind)
{
  EmbersRequest *req = embers_request_start (self, &self->cancellables[kind], kind);

  g_clear_pointer (&self->errors[kind], g_free);
  update_loading (self);
  return req;
}

static void
request_done (EmbersLabelsPage *self,
              RequestKind       kind)
{
  g_clear_object (&self->cancellables[kind]);
  update_loading (self);
}

/* Helpers */

static const char *
display_value (const char *value)
{
  /* Translators: a label value that is absent */
  return value != NULL && value[0] != '\0' ? value : _("(none)");
}

static char *
format_value (EmbersLabelsPage *self,
              double            value)
{
  return embers_format_value ((gint64)llround (value), self->unit);
}

/* What the cards show: the time views need points at more than one time */
static EmbersLabelView
chart_view (EmbersLabelsPage *self)
{
  EmbersLabelsView view = MIN (self->view, EMBERS_LABELS_VIEW_HISTOGRAM);

  if (!self->has_time && (view == EMBERS_LABELS_VIEW_SERIES || view == EMBERS_LABELS_VIEW_HISTOGRAM))
    return EMBERS_LABEL_VIEW_TOTAL;
  return (EmbersLabelView)view;
}

static gboolean
is_baseline (EmbersLabelsPage *self,
             const char       *value)
{
  return self->baseline_name != NULL && g_strcmp0 (self->baseline_name, self->label) == 0 &&
         g_strcmp0 (self->baseline_value, value) == 0;
}

static gboolean
is_comparison (EmbersLabelsPage *self,
               const char       *value)
{
  return self->comparison_name != NULL && g_strcmp0 (self->comparison_name, self->label) == 0 &&
         g_strcmp0 (self->comparison_value, value) == 0;
}

static char *
describe_mark (const char *name,
               const char *value)
{
  g_autofree char *quoted = NULL;

  if (name == NULL)
    return NULL;
  quoted = embers_selector_quote (value);
  return g_strdup_printf ("%s=%s", name, quoted);
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

static const char * const *
matchers (EmbersLabelsPage *self,
          const char       *out[2])
{
  out[0] = self->query->label_selector != NULL && self->query->label_selector[0]
         ? self->query->label_selector : "{}";
  out[1] = NULL;
  return out;
}

static void
show_status (EmbersLabelsPage *self,
             const char       *title,
             const char       *description,
             gboolean          retry)
{
  embers_status_show_message (self->values_panel, retry ? "dialog-error-symbolic" : NULL,
                              title, description, retry);
}

/* The values asking for the query on screen: the old cards dimmed under
 * the range being loaded (never shown as the answer to the new one) */
static void
show_values_loading (EmbersLabelsPage *self)
{
  self->values_stale = TRUE;
  g_autofree char *from = embers_query_url_format_local_time (self->query->start_ms);
  g_autofree char *to = embers_query_url_format_local_time (self->query->end_ms);
  /* Translators: over a chart or a flame graph while it loads: the time
   * range asked for, from and to */
  g_autofree char *text = g_strdup_printf (_("Loading %s – %s…"), from, to);

  embers_status_show_loading (self->values_panel, text);
}

/* Marks */

static void
refresh_table_marks (EmbersLabelsPage *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->table_store));

  self->table_marks_stale = FALSE;
  if (n > 0)
    g_list_model_items_changed (G_LIST_MODEL (self->table_store), 0, n, n);
}

/* What a screen reader says on a card (the focusable flow box child):
 * label, value, total, share and its mark */
static void
update_card_name (EmbersLabelsPage *self,
                  GtkWidget        *card)
{
  GtkWidget *child = gtk_widget_get_parent (card);
  const EmbersLabelValueStats *stats = g_object_get_data (G_OBJECT (card), "stats");
  g_autofree char *total = NULL;
  g_autofree char *share = NULL;
  g_autofree char *name = NULL;

  if (child == NULL || stats == NULL)
    return;
  total = format_value (self, stats->total);
  share = embers_format_percent (stats->share);
  if (is_baseline (self, stats->value))
    /* Translators: a card's accessible name: label name, value, total,
     * share of the whole, when it is marked as the baseline */
    name = g_strdup_printf (_("%s %s: %s, %s, baseline"), self->label, display_value (stats->value), total, share);
  else if (is_comparison (self, stats->value))
    /* Translators: the same when the value is marked as the comparison */
    name = g_strdup_printf (_("%s %s: %s, %s, comparison"), self->label, display_value (stats->value), total, share);
  else
    /* Translators: label name, value, total, share (a card's accessible name) */
    name = g_strdup_printf (_("%s %s: %s, %s"), self->label, display_value (stats->value), total, share);
  gtk_accessible_update_property (GTK_ACCESSIBLE (child), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
  gtk_accessible_update_property (GTK_ACCESSIBLE (card), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
}

/* The marks as the page shows them; @changed: they changed (the table's
 * mark column follows) */
static void
update_marks (EmbersLabelsPage *self,
              gboolean          changed)
{
  g_autofree char *baseline = embers_labels_page_dup_baseline (self);
  g_autofree char *comparison = embers_labels_page_dup_comparison (self);
  g_autofree char *b = NULL;
  g_autofree char *c = NULL;
  gboolean can = embers_labels_page_get_can_compare (self);

  /* Translators: what is marked as the baseline of a comparison */
  b = g_strdup_printf (_("Baseline: %s"), baseline != NULL ? baseline : _("none"));
  /* Translators: what is marked as the comparison */
  c = g_strdup_printf (_("Comparison: %s"), comparison != NULL ? comparison : _("none"));
  gtk_label_set_text (self->baseline_label, b);
  gtk_label_set_text (self->comparison_label, c);
  gtk_widget_set_sensitive (GTK_WIDGET (self->compare_button), can);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->compare_button),
                               can ? _("Open the comparison of the baseline and the comparison value (Ctrl+Enter)")
                                   : _("Mark one value as baseline and another as comparison first"));

  /* Tags on the cards */
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->cards));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *card = gtk_flow_box_child_get_child (GTK_FLOW_BOX_CHILD (child));
      const char *value = g_object_get_data (G_OBJECT (card), "value");
      GtkLabel *tag = g_object_get_data (G_OBJECT (card), "tag");
      gboolean is_b = is_baseline (self, value);
      gboolean is_c = is_comparison (self, value);

      gtk_widget_set_visible (GTK_WIDGET (tag), is_b || is_c);
      gtk_label_set_text (tag, is_b ? _("Baseline") : is_c ? _("Comparison") : "");
      if (is_b)
        gtk_widget_add_css_class (card, "labels-baseline");
      else
        gtk_widget_remove_css_class (card, "labels-baseline");
      if (is_c)
        gtk_widget_add_css_class (card, "labels-comparison");
      else
        gtk_widget_remove_css_class (card, "labels-comparison");
      update_card_name (self, card);
    }
  /* The table's mark column: one change for all rows (one per row made the
   * sorted model and the table redo their work thousands of times), and
   * only when the table shows: with thousands of rows it re-sorts them all */
  if (changed && self->view == EMBERS_LABELS_VIEW_TABLE)
    refresh_table_marks (self);
  else if (changed)
    self->table_marks_stale = TRUE;

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_COMPARE]);
}

/* Cards */

static void
append_item (GMenu      *section,
             const char *label,
             const char *action,
             const char *value)
{
  g_autoptr(GMenuItem) item = g_menu_item_new (label, NULL);

  g_menu_item_set_action_and_target_value (item, action, g_variant_new_string (value));
  g_menu_append_item (section, item);
}

static GMenuModel *
value_menu (const char  *value,
            GMenu      **compare)
{
  GMenu *menu = g_menu_new ();
  g_autoptr(GMenu) filters = g_menu_new ();
  g_autoptr(GMenu) marks = g_menu_new ();

  append_item (filters, _("_Include as Filter"), "labels.include", value);
  append_item (filters, _("_Exclude as Filter"), "labels.exclude", value);
  append_item (marks, _("Mark as _Baseline"), "labels.mark-baseline", value);
  append_item (marks, _("Mark as _Comparison"), "labels.mark-comparison", value);
  *compare = g_menu_new ();
  g_menu_append_section (menu, NULL, G_MENU_MODEL (filters));
  g_menu_append_section (menu, NULL, G_MENU_MODEL (marks));
  g_menu_append_section (menu, NULL, G_MENU_MODEL (*compare));
  return G_MENU_MODEL (menu);
}

/* One click to a comparison: with the baseline once one is marked (and
 * it is not this value), and with all the other values */
static void
fill_compare_section (EmbersLabelsPage *self,
                      GMenu            *section,
                      const char       *value)
{
  g_menu_remove_all (section);
  if (self != NULL && self->baseline_name != NULL && !is_baseline (self, value))
    append_item (section, _("Compare _with Baseline"), "labels.compare-with-baseline", value);
  append_item (section, _("Compare with the _Rest"), "labels.compare-with-rest", value);
}

/* The menu is made when it is first opened: a popover menu observes its
 * actions from the moment it exists, and GTK's action observers cost time
 * per observer, so a table of thousands of rows made them all at once and
 * took tens of seconds. GTK calls this on every opening: the comparison
 * items follow the marks. */
static void
create_value_popup (GtkMenuButton *button,
                    gpointer       user_data)
{
  const char *value = g_object_get_data (G_OBJECT (button), "value");
  GtkWidget *page = gtk_widget_get_ancestor (GTK_WIDGET (button), EMBERS_TYPE_LABELS_PAGE);
  GMenu *compare = g_object_get_data (G_OBJECT (button), "compare-section");

  if (compare == NULL)
    {
      g_autoptr(GMenuModel) menu = value_menu (value, &compare);

      g_object_set_data_full (G_OBJECT (button), "compare-section", compare, g_object_unref);
      fill_compare_section (page != NULL ? EMBERS_LABELS_PAGE (page) : NULL, compare, value);
      gtk_menu_button_set_menu_model (button, menu);
      return;
    }
  fill_compare_section (page != NULL ? EMBERS_LABELS_PAGE (page) : NULL, compare, value);
}

static GtkWidget *
value_menu_button (const char *value)
{
  GtkWidget *button = gtk_menu_button_new ();
  g_autofree char *tip = NULL;

  gtk_menu_button_set_icon_name (GTK_MENU_BUTTON (button), "view-more-symbolic");
  g_object_set_data_full (G_OBJECT (button), "value", g_strdup (value), g_free);
  gtk_menu_button_set_create_popup_func (GTK_MENU_BUTTON (button), create_value_popup, NULL, NULL);
  gtk_widget_add_css_class (button, "flat");
  /* Translators: %s is a label value */
  tip = g_strdup_printf (_("Actions for %s"), display_value (value));
  gtk_widget_set_tooltip_text (button, tip);
  gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL, tip, -1);
  return button;
}

static void
apply_scale (EmbersLabelsPage *self,
             EmbersLabelChart *chart)
{
  if (self->same_scale)
    embers_label_chart_set_scale (chart, self->max_of_max, self->hist_lo, self->hist_hi);
  else
    embers_label_chart_set_scale (chart, 0, 0, 0);
}

static GtkWidget *
build_card (EmbersLabelsPage            *self,
            const EmbersLabelValueStats *stats)
{
  GtkWidget *card = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  GtkWidget *header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *name = gtk_label_new (display_value (stats->value));
  GtkWidget *tag = gtk_label_new (NULL);
  g_autofree char *share = embers_format_percent (stats->share);
  g_autofree char *total = format_value (self, stats->total);
  g_autofree char *share_text = NULL;
  GtkWidget *share_label;
  GtkWidget *chart = embers_label_chart_new ();

  gtk_widget_add_css_class (card, "card");
  gtk_widget_add_css_class (card, "labels-card");
  gtk_widget_set_size_request (card, 300, -1);

  gtk_label_set_ellipsize (GTK_LABEL (name), PANGO_ELLIPSIZE_MIDDLE);
  gtk_label_set_xalign (GTK_LABEL (name), 0);
  gtk_widget_add_css_class (name, "heading");
  if (stats->value == NULL || stats->value[0] == '\0')
    {
      /* Translators: the tooltip of the "(none)" value; %s is a label name */
      g_autofree char *tip = g_strdup_printf (_("Series without a %s label"), self->label);

      gtk_widget_set_tooltip_text (name, tip);
    }
  else
    gtk_widget_set_tooltip_text (name, stats->value);
  gtk_box_append (GTK_BOX (header), name);

  gtk_widget_add_css_class (tag, "caption-heading");
  gtk_widget_add_css_class (tag, "labels-tag");
  gtk_widget_set_visible (tag, FALSE);
  gtk_box_append (GTK_BOX (header), tag);

  /* Translators: a value's total and its share of the whole */
  share_text = g_strdup_printf (_("%s · %s"), total, share);
  share_label = gtk_label_new (share_text);
  gtk_widget_add_css_class (share_label, "dim-label");
  gtk_widget_add_css_class (share_label, "numeric");
  gtk_widget_set_hexpand (share_label, TRUE);
  gtk_widget_set_halign (share_label, GTK_ALIGN_END);
  gtk_widget_set_tooltip_text (share_label, _("Total over the range and share of all values"));
  gtk_box_append (GTK_BOX (header), share_label);
  gtk_box_append (GTK_BOX (header), value_menu_button (stats->value));

  gtk_widget_set_margin_start (header, 12);
  gtk_widget_set_margin_end (header, 6);
  gtk_widget_set_margin_top (header, 6);
  gtk_box_append (GTK_BOX (card), header);

  embers_label_chart_set_data (EMBERS_LABEL_CHART (chart), stats, self->label, self->unit,
                               self->query->start_ms, self->query->end_ms,
                               embers_source_step_for_range (self->query->start_ms, self->query->end_ms),
                               self->grand_total, self->max_of_max);
  embers_label_chart_set_has_time (EMBERS_LABEL_CHART (chart), self->has_time);
  apply_scale (self, EMBERS_LABEL_CHART (chart));
  embers_label_chart_set_view (EMBERS_LABEL_CHART (chart), chart_view (self));
  gtk_widget_set_margin_start (chart, 6);
  gtk_widget_set_margin_end (chart, 6);
  gtk_widget_set_margin_bottom (chart, 6);
  gtk_box_append (GTK_BOX (card), chart);
  g_ptr_array_add (self->charts, chart);

  g_object_set_data_full (G_OBJECT (card), "value", g_strdup (stats->value), g_free);
  g_object_set_data (G_OBJECT (card), "stats", (gpointer)stats);
  g_object_set_data (G_OBJECT (card), "tag", tag);
  return card;
}

static void
stop_building (EmbersLabelsPage *self)
{
  if (self->build_source != 0)
    {
      gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->build_source);
      self->build_source = 0;
      update_loading (self);
    }
}

static void
clear_values (EmbersLabelsPage *self)
{
  GtkWidget *child;

  stop_building (self);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->cards))) != NULL)
    gtk_flow_box_remove (self->cards, child);
  g_ptr_array_set_size (self->charts, 0);
  g_clear_pointer (&self->top, g_ptr_array_unref);
  self->n_built = 0;
  gtk_widget_set_visible (GTK_WIDGET (self->rest_label), FALSE);
  gtk_widget_set_visible (GTK_WIDGET (self->no_time_label), FALSE);
}

static void
update_sensitivity (EmbersLabelsPage *self)
{
  gboolean have_values = self->stats != NULL && self->stats->len > 0;
  gboolean time_views = self->stats == NULL || self->has_time;
  const char *why = _("Every profile here has the same time: a time series and a histogram need profiles from different times");

  /* Show All: a label with more values than cards, in a card view */
  gtk_widget_set_sensitive (GTK_WIDGET (self->show_all_button),
                            self->stats != NULL && self->stats->len > EMBERS_LABEL_STATS_DEFAULT_TOP &&
                            self->view != EMBERS_LABELS_VIEW_TABLE);
  gtk_widget_set_visible (self->hint_label, have_values);
  {
    gboolean scale = have_values && self->has_time &&
                     (self->view == EMBERS_LABELS_VIEW_SERIES || self->view == EMBERS_LABELS_VIEW_HISTOGRAM);
    GtkWidget *check = GTK_WIDGET (self->same_scale_check);
    GtkStack *keep = GTK_STACK (gtk_widget_get_parent (check));

    gtk_stack_set_visible_child (keep, scale ? check : gtk_widget_get_last_child (GTK_WIDGET (keep)));
  }
  for (EmbersLabelsView v = EMBERS_LABELS_VIEW_SERIES; v <= EMBERS_LABELS_VIEW_HISTOGRAM; v += EMBERS_LABELS_VIEW_HISTOGRAM)
    {
      gtk_widget_set_sensitive (GTK_WIDGET (self->view_buttons[v]), time_views);
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->view_buttons[v]), time_views ? _(view_names[v].tooltip) : why);
    }
}

/* The heading: how many values (the sidebar's count, which leaves out the
 * missing value, with "(none)" named when there is one) and their order */
static void
update_heading (EmbersLabelsPage *self)
{
  g_autofree char *count = NULL;
  g_autofree char *heading = NULL;
  guint n;
  gboolean none;

  if (self->stats == NULL)
    {
      gtk_label_set_text (self->values_heading, "");
      return;
    }
  none = embers_label_stats_find (self->stats, "") >= 0;
  n = self->stats->len - (none ? 1 : 0);
  /* Translators: label name, number of its values */
  count = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s: %u value", "%s: %u values", n), self->label, n);
  if (none)
    {
      /* Translators: "region: 3 values" and the missing value, "(none)" */
      g_autofree char *with_none = g_strdup_printf (_("%s and (none)"), count);

      g_free (count);
      count = g_steal_pointer (&with_none);
    }

  if (self->view != EMBERS_LABELS_VIEW_TABLE || self->sort_column < 0)
    /* Translators: the values heading; %s is "region: 3 values" */
    heading = g_strdup_printf (_("%s, by total"), count);
  else
    {
      GListModel *columns = gtk_column_view_get_columns (self->table);
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, self->sort_column);
      const char *title = column != NULL ? gtk_column_view_column_get_title (column) : "";
      gboolean ascending = FALSE;

      if (g_list_model_get_n_items (self->sorted) >= 2)
        {
          g_autoptr(GObject) first = g_list_model_get_item (self->sorted, 0);
          g_autoptr(GObject) second = g_list_model_get_item (self->sorted, 1);
          GtkSorter *sorter = gtk_column_view_column_get_sorter (column);

          ascending = gtk_sorter_compare (sorter, first, second) == GTK_ORDERING_SMALLER;
        }
      if (self->sort_column == 0)
        /* Translators: %s is "region: 3 values"; sorted by name */
        heading = g_strdup_printf (ascending ? _("%s, by name, A to Z") : _("%s, by name, Z to A"), count);
      else if (ascending)
        /* Translators: %s is "region: 3 values", then a column title */
        heading = g_strdup_printf (_("%s, by %s, smallest first"), count, title);
      else
        /* Translators: %s is "region: 3 values", then a column title */
        heading = g_strdup_printf (_("%s, by %s, largest first"), count, title);
    }
  gtk_label_set_text (self->values_heading, heading);
}

static void
show_values_view (EmbersLabelsPage *self)
{
  /* (while the page is being built) */
  if (self->values_stack == NULL || self->show_all_button == NULL)
    return;
  update_sensitivity (self);
  update_heading (self);
  if (self->stats == NULL)
    return;
  if (self->stats->len == 0)
    {
      show_status (self, _("No Values"), _("No series carry this label in the time range."), FALSE);
      return;
    }
  gtk_widget_set_visible (GTK_WIDGET (self->no_time_label), !self->has_time);
  gtk_stack_set_visible_child_name (self->values_stack,
                                    self->view == EMBERS_LABELS_VIEW_TABLE ? "table" : "cards");
  /* Only the answer to the query on screen */
  if (self->values_stale)
    return;
  embers_status_show_content (self->values_panel);
}

/* Cards are built a batch per frame, each batch for a few milliseconds:
 * Show All on a label with thousands of values made 120 cards in one go
 * and held the main loop for a quarter of a second. A frame tick, not an
 * idle: an idle waits behind drawing, which a slow display (Xvfb) keeps
 * busy all the time. */
#define BUILD_BUDGET_US 6000

static gboolean
build_some_cards (GtkWidget     *widget,
                  GdkFrameClock *clock,
                  gpointer       user_data)
{
  EmbersLabelsPage *self = EMBERS_LABELS_PAGE (widget);
  gint64 until = g_get_monotonic_time () + BUILD_BUDGET_US;

  while (self->top != NULL && self->n_built < self->top->len)
    {
      GtkWidget *card = build_card (self, g_ptr_array_index (self->top, self->n_built++));

      gtk_flow_box_append (self->cards, card);
      update_card_name (self, card);
      if (g_get_monotonic_time () >= until)
        break;
    }
  if (self->top != NULL && self->n_built < self->top->len)
    return G_SOURCE_CONTINUE;
  self->build_source = 0;
  update_marks (self, FALSE);
  update_loading (self);
  return G_SOURCE_REMOVE;
}

static void
rebuild_values (EmbersLabelsPage *self)
{
  g_autoptr(EmbersLabelValueStats) rest = NULL;
  double step_s = embers_source_step_for_range (self->query->start_ms, self->query->end_ms);

  clear_values (self);
  if (self->stats == NULL)
    {
      show_values_view (self);
      return;
    }

  self->grand_total = 0;
  for (guint i = 0; i < self->stats->len; i++)
    self->grand_total += ((EmbersLabelValueStats *)g_ptr_array_index (self->stats, i))->total;
  self->max_of_max = embers_label_stats_max_of_max (self->stats);
  self->has_time = embers_label_stats_has_time (self->stats);
  embers_label_stats_step_range (self->stats, self->query->start_ms, self->query->end_ms, step_s,
                                 &self->hist_lo, &self->hist_hi);

  /* Show All stops at EMBERS_LABELS_MAX_CARDS cards: a pod label can have
   * thousands of values, and a card is a dozen widgets; the table (a
   * list view that only makes the rows on screen) holds them all */
  self->top = embers_label_stats_top (self->stats,
                                      self->show_all ? EMBERS_LABELS_MAX_CARDS : EMBERS_LABEL_STATS_DEFAULT_TOP,
                                      &rest);
  /* The top few at once (what a label shows first), the rest at idle */
  while (self->n_built < MIN (self->top->len, (guint)EMBERS_LABEL_STATS_DEFAULT_TOP))
    {
      GtkWidget *card = build_card (self, g_ptr_array_index (self->top, self->n_built++));

      gtk_flow_box_append (self->cards, card);
    }
  if (self->n_built < self->top->len)
    {
      self->build_source = gtk_widget_add_tick_callback (GTK_WIDGET (self), build_some_cards, NULL, NULL);
      update_loading (self);
    }

  if (rest != NULL)
    {
      guint n_rest = self->stats->len - self->top->len;
      g_autofree char *total = format_value (self, rest->total);
      g_autofree char *share = embers_format_percent (rest->share);
      g_autofree char *text = NULL;

      if (self->show_all)
        /* Translators: values beyond the most cards shown; count, their total, their share */
        text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                             "%u more value: %s, %s of the whole (the Table view lists it)",
                                             "%u more values: %s, %s of the whole (the Table view lists them)",
                                             n_rest),
                                n_rest, total, share);
      else
        /* Translators: values not shown as cards; count, their total, their share */
        text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                             "%u more value: %s, %s of the whole (Show All to see it)",
                                             "%u more values: %s, %s of the whole (Show All to see them)",
                                             n_rest),
                                n_rest, total, share);
      gtk_label_set_text (self->rest_label, text);
      gtk_widget_set_visible (GTK_WIDGET (self->rest_label), TRUE);
    }

  /* The table's rows: one splice that replaces them all, so that the
   * sorted table re-sorts once, not per row; not again for the same
   * values (Show All changes only the cards) */
  if (self->table_stats != self->stats)
    {
      g_autoptr(GPtrArray) rows = g_ptr_array_new_full (self->stats->len, g_object_unref);

      for (guint i = 0; i < self->stats->len; i++)
        g_ptr_array_add (rows, embers_label_value_row_new (self->stats, i));
      g_list_store_splice (self->table_store, 0, g_list_model_get_n_items (G_LIST_MODEL (self->table_store)),
                           rows->pdata, rows->len);
      g_clear_pointer (&self->table_stats, g_ptr_array_unref);
      self->table_stats = g_ptr_array_ref (self->stats);
      self->table_marks_stale = FALSE;
    }
  /* Averages over time say nothing when every profile has one time */
  for (guint c = COL_MEAN; c <= COL_STEPS; c++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (gtk_column_view_get_columns (self->table), c);

      if (c != COL_MAX)
        gtk_column_view_column_set_visible (column, self->has_time);
    }

  update_marks (self, FALSE);
  show_values_view (self);
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
  request_done (self, REQ_VALUES);
  self->values_stale = FALSE;
  if (series == NULL)
    {
      self->errors[REQ_VALUES] = g_strdup (error->message);
      show_status (self, _("Could Not Load the Values"), error->message, TRUE);
      return;
    }

  clear_values (self);
  g_clear_pointer (&self->stats, g_ptr_array_unref);
  g_free (self->shown_label);
  self->shown_label = g_strdup (self->label);
  self->stats = embers_label_stats_compute (series, self->label,
                                            self->query->start_ms, self->query->end_ms,
                                            embers_source_step_for_range (self->query->start_ms,
                                                                          self->query->end_ms));
  rebuild_values (self);
}

static void
load_values (EmbersLabelsPage *self)
{
  const char *group_by[2] = { self->label, NULL };
  EmbersRequest *req;

  /* Another label's values are no old answer to this one */
  if (g_strcmp0 (self->label, self->shown_label) != 0)
    {
      clear_values (self);
      g_clear_pointer (&self->stats, g_ptr_array_unref);
      g_clear_pointer (&self->shown_label, g_free);
    }
  else
    stop_building (self);
  update_sensitivity (self);
  update_heading (self);
  if (self->label == NULL)
    {
      self->values_stale = FALSE;
      show_status (self, _("Pick a Label"), _("Its values show here, sorted by total."), FALSE);
      return;
    }
  req = request_start (self, REQ_VALUES);
  show_values_loading (self);
  embers_source_select_chart_series (self->source, self->query, group_by, EMBERS_AGGREGATION_SUM, 0,
                                     req->cancellable, values_done, req);
}

static GtkListBoxRow *
find_name_row (EmbersLabelsPage *self,
               const char       *name)
{
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->names_list));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_LIST_BOX_ROW (child) &&
        g_strcmp0 (g_object_get_data (G_OBJECT (child), "name"), name) == 0)
      return GTK_LIST_BOX_ROW (child);
  return NULL;
}

/* The row of the label shown: highlighted as a selection is, and said to
 * be selected (the list itself selects nothing: moving through it with
 * the keyboard must not load every label on the way) */
static void
mark_current_name (EmbersLabelsPage *self)
{
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->names_list));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      gboolean current;

      if (!GTK_IS_LIST_BOX_ROW (child))
        continue;
      current = g_strcmp0 (g_object_get_data (G_OBJECT (child), "name"), self->label) == 0;
      if (current)
        gtk_widget_add_css_class (child, "labels-current");
      else
        gtk_widget_remove_css_class (child, "labels-current");
      gtk_accessible_update_state (GTK_ACCESSIBLE (child), GTK_ACCESSIBLE_STATE_SELECTED, current, -1);
    }
}

static void
show_cardinality (EmbersLabelsPage *self,
                  const char       *name)
{
  GtkListBoxRow *row = find_name_row (self, name);
  GtkLabel *count;
  int n = embers_labels_page_get_cardinality (self, name);
  g_autofree char *text = NULL;
  g_autofree char *accessible = NULL;

  if (row == NULL)
    return;
  count = g_object_get_data (G_OBJECT (row), "count");
  text = n >= 0 ? g_strdup_printf ("%d", n) : g_strdup ("?");
  gtk_label_set_text (count, text);
  if (n >= 0)
    {
      /* Translators: label name, number of its values */
      accessible = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s, %d value", "%s, %d values", n), name, n);
      gtk_widget_set_tooltip_text (GTK_WIDGET (row), accessible);
      gtk_accessible_update_property (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_PROPERTY_LABEL, accessible, -1);
    }
}

static void count_done (GObject      *object,
                        GAsyncResult *result,
                        gpointer      user_data);

/* Value counts go to the server a few at a time, not one request per
 * label at once (a service may have dozens of labels) */
#define MAX_COUNT_REQUESTS 4

static void
ask_next_count (EmbersLabelsPage *self,
                EmbersRequest    *req)
{
  const char *m[2];
  const char *name;

  if (self->count_names == NULL || self->count_names[self->count_next] == NULL)
    return;
  name = self->count_names[self->count_next++];
  embers_source_list_label_values (self->source, name, matchers (self, m),
                                   self->query->start_ms, self->query->end_ms,
                                   req->cancellable, count_done, embers_request_share (req, name));
}

static void
count_done (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(EmbersRequest) req = user_data;
  EmbersLabelsPage *self = req->owner;
  g_auto(GStrv) values = NULL;
  g_autoptr(GError) error = NULL;

  values = embers_source_list_label_values_finish (EMBERS_SOURCE (object), result, &error);
  if (!embers_request_is_current (req))
    return;
  if (values != NULL)
    g_hash_table_insert (self->cardinality, g_strdup (req->name),
                         GINT_TO_POINTER ((int)g_strv_length (values) + 1));
  show_cardinality (self, req->name);
  if (--self->pending_counts == 0)
    request_done (self, REQ_NAMES);
  else
    ask_next_count (self, req);
}

static gboolean
is_shown_name (const char *name)
{
  return !g_str_has_prefix (name, "__") && !g_str_equal (name, SERVICE_LABEL);
}

static GtkWidget *
name_row (const char *name)
{
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *label = gtk_label_new (name);
  GtkWidget *count = gtk_label_new ("…");

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand (label, TRUE);
  gtk_widget_add_css_class (count, "dim-label");
  gtk_widget_add_css_class (count, "numeric");
  gtk_box_append (GTK_BOX (box), label);
  gtk_box_append (GTK_BOX (box), count);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  gtk_accessible_update_property (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
  g_object_set_data_full (G_OBJECT (row), "name", g_strdup (name), g_free);
  g_object_set_data (G_OBJECT (row), "count", count);
  return row;
}

static void
names_done (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(EmbersRequest) req = user_data;
  EmbersLabelsPage *self = req->owner;
  g_auto(GStrv) names = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GStrvBuilder) shown = g_strv_builder_new ();
  g_auto(GStrv) list = NULL;
  GtkWidget *child;
  guint n;

  names = embers_source_list_label_names_finish (EMBERS_SOURCE (object), result, &error);
  if (!embers_request_is_current (req))
    return;
  if (names == NULL)
    {
      request_done (self, REQ_NAMES);
      self->errors[REQ_NAMES] = g_strdup (error->message);
      adw_status_page_set_description (self->names_status, error->message);
      gtk_stack_set_visible_child_name (self->names_stack, "message");
      show_status (self, _("Could Not Load the Labels"), error->message, TRUE);
      return;
    }

  for (guint i = 0; names[i] != NULL; i++)
    if (is_shown_name (names[i]))
      g_strv_builder_add (shown, names[i]);
  list = g_strv_builder_end (shown);
  n = g_strv_length (list);

  self->syncing = TRUE;
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->names_list))) != NULL)
    gtk_list_box_remove (self->names_list, child);
  gtk_string_list_splice (self->names, 0, g_list_model_get_n_items (G_LIST_MODEL (self->names)),
                          (const char * const *)list);
  g_hash_table_remove_all (self->cardinality);
  for (guint i = 0; i < n; i++)
    gtk_list_box_append (self->names_list, name_row (list[i]));
  self->syncing = FALSE;
  mark_current_name (self);

  if (n == 0)
    {
      request_done (self, REQ_NAMES);
      adw_status_page_set_description (self->names_status, _("The series carry no labels besides the service."));
      adw_status_page_set_title (self->names_status, _("No Labels"));
      gtk_widget_set_visible (adw_status_page_get_child (self->names_status), FALSE);
      gtk_stack_set_visible_child_name (self->names_stack, "message");
      show_status (self, _("No Labels"), _("Nothing to break down in this time range."), FALSE);
      return;
    }
  gtk_stack_set_visible_child_name (self->names_stack, "list");

  /* How many values each has */
  self->pending_counts = n;
  g_strfreev (self->count_names);
  self->count_names = g_strdupv (list);
  self->count_next = 0;
  for (guint i = 0; i < MIN (n, MAX_COUNT_REQUESTS); i++)
    ask_next_count (self, req);

  /* Keep the selected label when it is still there */
  if (self->label != NULL && g_strv_contains ((const char * const *)list, self->label))
    {
      g_autofree char *label = g_strdup (self->label);

      g_clear_pointer (&self->label, g_free);
      embers_labels_page_select_label (self, label);
    }
  else
    {
      g_clear_pointer (&self->label, g_free);
      load_values (self);
    }
}

static void
load_names (EmbersLabelsPage *self)
{
  EmbersRequest *req = request_start (self, REQ_NAMES);
  const char *m[2];

  self->pending_counts = 0;
  if (self->values_panel != NULL && self->label != NULL)
    show_values_loading (self);
  gtk_stack_set_visible_child_name (self->names_stack, "loading");
  adw_status_page_set_title (self->names_status, _("Could Not Load the Labels"));
  gtk_widget_set_visible (adw_status_page_get_child (self->names_status), TRUE);
  embers_source_list_label_names (self->source, matchers (self, m),
                                  self->query->start_ms, self->query->end_ms,
                                  req->cancellable, names_done, req);
}

/* Signals from widgets */

static void
name_activated (EmbersLabelsPage *self,
                GtkListBoxRow    *row,
                GtkListBox       *list)
{
  if (self->syncing || row == NULL)
    return;
  /* On a narrow page the names lie over the values: show the values */
  if (adw_overlay_split_view_get_collapsed (self->split_view))
    adw_overlay_split_view_set_show_sidebar (self->split_view, FALSE);
  embers_labels_page_select_label (self, g_object_get_data (G_OBJECT (row), "name"));
}

/* The label names are one Tab stop: GtkListBox takes Tab to its next row,
 * so Tab walked every label before it reached the values. Tab and
 * Shift+Tab from a name leave the list; the arrows move in it, Enter or
 * a click shows the label (GtkWindow moves the focus on Tab by asking
 * the widgets on the focus's path, this page among them) */
static gboolean
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
      GtkListBoxRow *row = self->label != NULL ? find_name_row (self, self->label) : NULL;

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

/* Table */

static void
setup_cell (GtkSignalListItemFactory *factory,
            GtkListItem              *item,
            gpointer                  user_data)
{
  Column column = GPOINTER_TO_UINT (user_data);
  GtkWidget *label;

  if (column == COL_ACTIONS)
    {
      gtk_list_item_set_child (item, gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0));
      return;
    }
  label = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (label), column == COL_VALUE || column == COL_MARK ? 0 : 1);
  if (column == COL_VALUE)
    gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
  else
    gtk_widget_add_css_class (label, "numeric");
  if (column == COL_MARK)
    gtk_widget_add_css_class (label, "caption-heading");
  gtk_list_item_set_child (item, label);
}

static void
bind_cell (GtkSignalListItemFactory *factory,
           GtkListItem              *item,
           gpointer                  user_data)
{
  Column column = GPOINTER_TO_UINT (user_data);
  EmbersLabelValueRow *row = gtk_list_item_get_item (item);
  EmbersLabelsPage *self = g_object_get_data (G_OBJECT (factory), "page");
  const EmbersLabelValueStats *s = row->stats;
  g_autofree char *text = NULL;

  switch (column)
    {
    case COL_VALUE:
      text = g_strdup (display_value (s->value));
      break;
    case COL_TOTAL:
      text = format_value (self, s->total);
      break;
    case COL_SHARE:
      text = embers_format_percent (s->share);
      break;
    case COL_MEAN:
      text = format_value (self, s->mean);
      break;
    case COL_STDDEV:
      text = format_value (self, s->stddev);
      break;
    case COL_MAX:
      text = format_value (self, s->max);
      break;
    case COL_STEPS:
      /* Translators: steps that have data, of the steps in the range */
      text = g_strdup_printf (_("%u of %u"), s->n_data_steps, s->n_steps);
      break;
    case COL_MARK:
      {
        GtkWidget *label = gtk_list_item_get_child (item);
        gboolean is_b = self->baseline_name != NULL && g_strcmp0 (self->baseline_name, self->label) == 0 &&
                        g_strcmp0 (self->baseline_value, s->value) == 0;
        gboolean is_c = self->comparison_name != NULL && g_strcmp0 (self->comparison_name, self->label) == 0 &&
                        g_strcmp0 (self->comparison_value, s->value) == 0;

        text = g_strdup (is_b ? _("Baseline") : is_c ? _("Comparison") : "");
        if (is_b)
          gtk_widget_add_css_class (label, "labels-baseline-text");
        else
          gtk_widget_remove_css_class (label, "labels-baseline-text");
        if (is_c)
          gtk_widget_add_css_class (label, "labels-comparison-text");
        else
          gtk_widget_remove_css_class (label, "labels-comparison-text");
      }
      break;
    case COL_ACTIONS:
    default:
      {
        GtkWidget *box = gtk_list_item_get_child (item);
        GtkWidget *old = gtk_widget_get_first_child (box);

        if (old != NULL)
          gtk_box_remove (GTK_BOX (box), old);
        gtk_box_append (GTK_BOX (box), value_menu_button (s->value));
        return;
      }
    }
  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (item)), text);
}

typedef struct
{
  EmbersLabelsPage *page;
  Column            column;
} SortKey;

static int
compare_rows (gconstpointer a,
              gconstpointer b,
              gpointer      user_data)
{
  const EmbersLabelValueStats *sa = EMBERS_LABEL_VALUE_ROW ((gpointer)a)->stats;
  const EmbersLabelValueStats *sb = EMBERS_LABEL_VALUE_ROW ((gpointer)b)->stats;
  SortKey *key = user_data;
  double ka = 0, kb = 0;

  /* Values differ, so this never returns "equal" */
  switch (key->column)
    {
    case COL_TOTAL:  ka = sa->total;  kb = sb->total;  break;
    case COL_SHARE:  ka = sa->share;  kb = sb->share;  break;
    case COL_MEAN:   ka = sa->mean;   kb = sb->mean;   break;
    case COL_STDDEV: ka = sa->stddev; kb = sb->stddev; break;
    case COL_MAX:    ka = sa->max;    kb = sb->max;    break;
    case COL_STEPS:  ka = sa->n_data_steps; kb = sb->n_data_steps; break;
    case COL_VALUE:
    case COL_MARK:
    case COL_ACTIONS:
    default:
      return g_strcmp0 (sa->value, sb->value);
    }
  if (ka != kb)
    return ka < kb ? -1 : 1;
  return g_strcmp0 (sa->value, sb->value);
}

static void
table_sorted (EmbersLabelsPage *self)
{
  GtkColumnViewSorter *sorter = GTK_COLUMN_VIEW_SORTER (gtk_column_view_get_sorter (self->table));
  GtkColumnViewColumn *primary = gtk_column_view_sorter_get_primary_sort_column (sorter);
  GListModel *columns = gtk_column_view_get_columns (self->table);

  self->sort_column = -1;
  for (guint i = 0; primary != NULL && i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, i);

      if (column == primary)
        self->sort_column = (int)i;
    }
  update_heading (self);
}

static void
build_table (EmbersLabelsPage *self,
             GtkWidget        *scrolled)
{
  static const struct
  {
    const char *title;
    const char *tooltip;
    gboolean    sortable;
  } columns[] = {
    { N_("Value"), NULL, TRUE },
    { N_("Total"), N_("Sum over the time range"), TRUE },
    { N_("Share"), N_("Share of all values' total"), TRUE },
    { N_("Average per Step with Data"), N_("The mean of the chart steps that have data; steps without data are left out (Steps with Data says how many count)"), TRUE },
    { N_("Std. Deviation"), N_("Standard deviation of the steps that have data"), TRUE },
    { N_("Maximum"), N_("The largest per-step value"), TRUE },
    { N_("Steps with Data"), N_("Chart steps that have data, of the steps in the range"), TRUE },
    { N_("Mark"), NULL, FALSE },
    { "", NULL, FALSE },
  };
  g_autoptr(GtkSortListModel) sorted = NULL;
  GtkColumnViewColumn *total_column = NULL;

  self->table_store = g_list_store_new (EMBERS_TYPE_LABEL_VALUE_ROW);
  self->table = GTK_COLUMN_VIEW (gtk_column_view_new (NULL));
  gtk_column_view_set_show_column_separators (self->table, FALSE);
  gtk_widget_add_css_class (GTK_WIDGET (self->table), "data-table");
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->table), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Label values and their statistics"), -1);

  for (guint i = 0; i < G_N_ELEMENTS (columns); i++)
    {
      GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
      GtkColumnViewColumn *column;

      g_object_set_data (G_OBJECT (factory), "page", self);
      g_signal_connect (factory, "setup", G_CALLBACK (setup_cell), GUINT_TO_POINTER (i));
      g_signal_connect (factory, "bind", G_CALLBACK (bind_cell), GUINT_TO_POINTER (i));
      column = gtk_column_view_column_new (columns[i].title[0] ? _(columns[i].title) : "", factory);
      if (columns[i].sortable)
        {
          SortKey *key = g_new0 (SortKey, 1);
          GtkCustomSorter *sorter;

          key->page = self;
          key->column = i;
          sorter = gtk_custom_sorter_new (compare_rows, key, g_free);

          gtk_column_view_column_set_sorter (column, GTK_SORTER (sorter));
          g_object_unref (sorter);
        }
      gtk_column_view_column_set_expand (column, i == COL_VALUE);
      gtk_column_view_column_set_resizable (column, i != COL_ACTIONS);
      gtk_column_view_append_column (self->table, column);
      if (i == COL_TOTAL)
        total_column = column;
      g_object_unref (column);
    }

  sorted = gtk_sort_list_model_new (G_LIST_MODEL (g_object_ref (self->table_store)),
                                    g_object_ref (gtk_column_view_get_sorter (self->table)));
  self->sorted = G_LIST_MODEL (sorted);
  g_signal_connect_object (sorted, "items-changed", G_CALLBACK (table_sorted), self, G_CONNECT_SWAPPED);
  {
    GtkNoSelection *selection = gtk_no_selection_new (G_LIST_MODEL (g_steal_pointer (&sorted)));

    gtk_column_view_set_model (self->table, GTK_SELECTION_MODEL (selection));
    g_object_unref (selection);
  }
  gtk_column_view_sort_by_column (self->table, total_column, GTK_SORT_DESCENDING);
  self->sort_column = COL_TOTAL;
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), GTK_WIDGET (self->table));
}

/* Building */

static GtkWidget *
centered_spinner (void)
{
  GtkWidget *spinner = adw_spinner_new ();

  gtk_widget_set_halign (spinner, GTK_ALIGN_CENTER);
  gtk_widget_set_valign (spinner, GTK_ALIGN_CENTER);
  gtk_widget_set_size_request (spinner, 32, 32);
  return spinner;
}

static GtkWidget *
retry_status (AdwStatusPage   **out,
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
  for (guint i = 0; i < G_N_ELEMENTS (view_names); i++)
    {
      button = gtk_toggle_button_new_with_mnemonic (_(view_names[i].label));
      gtk_widget_set_tooltip_text (button, _(view_names[i].tooltip));
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
        g_auto(GStrv) parts = g_strsplit (_(view_names[i].label), "_", -1);
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
build_names (EmbersLabelsPage *self)
{
  GtkWidget *scrolled = gtk_scrolled_window_new ();
  GtkWidget *heading = gtk_label_new (_("Labels"));
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);

  gtk_widget_add_css_class (heading, "heading");
  gtk_label_set_xalign (GTK_LABEL (heading), 0);
  gtk_widget_set_margin_start (heading, 12);
  gtk_widget_set_margin_top (heading, 6);
  gtk_widget_set_margin_bottom (heading, 6);
  gtk_box_append (GTK_BOX (box), heading);

  self->names_list = GTK_LIST_BOX (gtk_list_box_new ());
  gtk_widget_add_css_class (GTK_WIDGET (self->names_list), "navigation-sidebar");
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->names_list), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Label names and their number of values"), -1);
  /* A click or Enter shows a label; arrows only move through the list,
   * and Tab leaves it (embers_labels_page_focus) */
  gtk_list_box_set_selection_mode (self->names_list, GTK_SELECTION_NONE);
  g_signal_connect_swapped (self->names_list, "row-activated", G_CALLBACK (name_activated), self);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), GTK_WIDGET (self->names_list));
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_widget_set_vexpand (scrolled, TRUE);

  self->names_stack = GTK_STACK (gtk_stack_new ());
  gtk_stack_add_named (self->names_stack, scrolled, "list");
  gtk_stack_add_named (self->names_stack, centered_spinner (), "loading");
  gtk_stack_add_named (self->names_stack, retry_status (&self->names_status, NULL, self), "message");
  gtk_widget_set_vexpand (GTK_WIDGET (self->names_stack), TRUE);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->names_stack));
  gtk_widget_set_size_request (box, 200, -1);
  return box;
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

  build_table (self, table_scrolled);

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
  stop_building (self);
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
    case PROP_TITLE:
      g_value_set_string (value, self->title);
      break;
    case PROP_LOADING:
      g_value_set_boolean (value, embers_labels_page_get_loading (self));
      break;
    case PROP_CAN_COMPARE:
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

  properties[PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_LOADING] =
    g_param_spec_boolean ("loading", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_CAN_COMPARE] =
    g_param_spec_boolean ("can-compare", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * EmbersLabelsPage::compare-requested:
   * @baseline: the page's query with the baseline value's filter
   * @comparison: the page's query with the comparison value's filter
   */
  signals[SIGNAL_COMPARE_REQUESTED] =
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
  signals[SIGNAL_FILTER_ADDED] =
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

  names = build_names (self);
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

  update_marks (self, FALSE);

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

  load_names (self);
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
  load_names (self);
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

GListModel *
embers_labels_page_get_names (EmbersLabelsPage *self)
{
  g_return_val_if_fail (EMBERS_IS_LABELS_PAGE (self), NULL);
  return G_LIST_MODEL (self->names);
}

int
embers_labels_page_get_cardinality (EmbersLabelsPage *self,
                                    const char       *name)
{
  gpointer n;

  g_return_val_if_fail (EMBERS_IS_LABELS_PAGE (self), -1);
  n = g_hash_table_lookup (self->cardinality, name);
  return n != NULL ? GPOINTER_TO_INT (n) - 1 : -1;
}

gboolean
embers_labels_page_select_label (EmbersLabelsPage *self,
                                 const char       *name)
{
  GtkListBoxRow *row;

  g_return_val_if_fail (EMBERS_IS_LABELS_PAGE (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  row = find_name_row (self, name);
  if (row == NULL)
    return FALSE;
  if (g_strcmp0 (self->label, name) == 0 && self->stats != NULL)
    return TRUE;
  g_free (self->label);
  self->label = g_strdup (name);
  mark_current_name (self);
  load_values (self);
  return TRUE;
}

void
embers_labels_page_prefer_label (EmbersLabelsPage *self,
                                 const char       *name)
{
  g_return_if_fail (EMBERS_IS_LABELS_PAGE (self));
  g_return_if_fail (name != NULL);

  /* Picked when the names arrive, if it is among them */
  if (!embers_labels_page_select_label (self, name) && self->label == NULL &&
      g_list_model_get_n_items (G_LIST_MODEL (self->names)) == 0)
    self->label = g_strdup (name);
}

const char *
embers_labels_page_get_label (EmbersLabelsPage *self)
{
  g_return_val_if_fail (EMBERS_IS_LABELS_PAGE (self), NULL);
  return self->label;
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
  rebuild_values (self);
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
      embers_label_chart_set_view (g_ptr_array_index (self->charts, i), chart_view (self));
  else if (self->table_marks_stale)
    refresh_table_marks (self);
  show_values_view (self);
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
    apply_scale (self, g_ptr_array_index (self->charts, i));
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

GtkColumnView *
embers_labels_page_get_table (EmbersLabelsPage *self)
{
  g_return_val_if_fail (EMBERS_IS_LABELS_PAGE (self), NULL);
  return self->table;
}

const char *
embers_labels_page_get_table_value (EmbersLabelsPage *self,
                                    guint             position)
{
  GListModel *model;
  g_autoptr(EmbersLabelValueRow) row = NULL;

  g_return_val_if_fail (EMBERS_IS_LABELS_PAGE (self), NULL);

  model = G_LIST_MODEL (gtk_column_view_get_model (self->table));
  row = g_list_model_get_item (model, position);
  return row != NULL ? row->stats->value : NULL;
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
      g_signal_emit (self, signals[SIGNAL_FILTER_ADDED], 0, self->label, value, exclude);
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
  g_signal_emit (self, signals[SIGNAL_FILTER_ADDED], 0, self->label, value, exclude);
  return TRUE;
}

static void
set_mark (char       **name,
          char       **value,
          const char  *new_name,
          const char  *new_value)
{
  g_free (*name);
  g_free (*value);
  *name = g_strdup (new_name);
  *value = g_strdup (new_value);
}

void
embers_labels_page_mark_baseline (EmbersLabelsPage *self,
                                  const char       *value)
{
  g_return_if_fail (EMBERS_IS_LABELS_PAGE (self));
  g_return_if_fail (value != NULL);

  if (self->label == NULL)
    return;
  set_mark (&self->baseline_name, &self->baseline_value, self->label, value);
  /* One value cannot be both */
  if (g_strcmp0 (self->comparison_name, self->label) == 0 && g_strcmp0 (self->comparison_value, value) == 0)
    set_mark (&self->comparison_name, &self->comparison_value, NULL, NULL);
  update_marks (self, TRUE);
}

void
embers_labels_page_mark_comparison (EmbersLabelsPage *self,
                                    const char       *value)
{
  g_return_if_fail (EMBERS_IS_LABELS_PAGE (self));
  g_return_if_fail (value != NULL);

  if (self->label == NULL)
    return;
  set_mark (&self->comparison_name, &self->comparison_value, self->label, value);
  if (g_strcmp0 (self->baseline_name, self->label) == 0 && g_strcmp0 (self->baseline_value, value) == 0)
    set_mark (&self->baseline_name, &self->baseline_value, NULL, NULL);
  update_marks (self, TRUE);
}

char *
embers_labels_page_dup_baseline (EmbersLabelsPage *self)
{
  g_return_val_if_fail (EMBERS_IS_LABELS_PAGE (self), NULL);
  return describe_mark (self->baseline_name, self->baseline_value);
}

char *
embers_labels_page_dup_comparison (EmbersLabelsPage *self)
{
  g_return_val_if_fail (EMBERS_IS_LABELS_PAGE (self), NULL);
  return describe_mark (self->comparison_name, self->comparison_value);
}

gboolean
embers_labels_page_get_can_compare (EmbersLabelsPage *self)
{
  g_return_val_if_fail (EMBERS_IS_LABELS_PAGE (self), FALSE);
  return self->baseline_name != NULL && self->comparison_name != NULL;
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
  g_signal_emit (self, signals[SIGNAL_COMPARE_REQUESTED], 0, baseline, comparison);
  return TRUE;
}

gboolean
embers_labels_page_compare_with_baseline (EmbersLabelsPage *self,
                                          const char       *value)
{
  g_return_val_if_fail (EMBERS_IS_LABELS_PAGE (self), FALSE);
  g_return_val_if_fail (value != NULL, FALSE);

  if (self->label == NULL || self->baseline_name == NULL || is_baseline (self, value))
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
  g_signal_emit (self, signals[SIGNAL_COMPARE_REQUESTED], 0, rest, one);
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
  load_names (self);
}

void
embers_labels_page_retry (EmbersLabelsPage *self)
{
  g_return_if_fail (EMBERS_IS_LABELS_PAGE (self));

  if (self->errors[REQ_NAMES] != NULL)
    load_names (self);
  else
    load_values (self);
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
