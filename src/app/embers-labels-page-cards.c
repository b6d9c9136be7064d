/* embers-labels-page-cards.c: the values as cards, the marks, the heading
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <glib/gi18n.h>

#include "embers-labels-page-private.h"

gboolean
embers_labels_is_baseline (EmbersLabelsPage *self,
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

/* Marks */

/* The rows again, as new rows of the same values in one splice: the table
 * binds them again (an items-changed of the same items keeps the rows'
 * cells as they were bound) and re-sorts once */
void
embers_labels_refresh_table_marks (EmbersLabelsPage *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->table_store));
  g_autoptr(GPtrArray) rows = NULL;

  self->table_marks_stale = FALSE;
  if (n == 0 || self->table_stats == NULL)
    return;
  rows = g_ptr_array_new_full (self->table_stats->len, g_object_unref);
  for (guint i = 0; i < self->table_stats->len; i++)
    g_ptr_array_add (rows, embers_label_value_row_new (self->table_stats, i));
  g_list_store_splice (self->table_store, 0, n, rows->pdata, rows->len);
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
  total = embers_labels_format_value (self, stats->total);
  share = embers_format_percent (stats->share);
  if (embers_labels_is_baseline (self, stats->value))
    /* Translators: a card's accessible name: label name, value, total,
     * share of the whole, when it is marked as the baseline */
    name = g_strdup_printf (_("%s %s: %s, %s, baseline"), self->label, embers_labels_display_value (stats->value), total, share);
  else if (is_comparison (self, stats->value))
    /* Translators: the same when the value is marked as the comparison */
    name = g_strdup_printf (_("%s %s: %s, %s, comparison"), self->label, embers_labels_display_value (stats->value), total, share);
  else
    /* Translators: label name, value, total, share (a card's accessible name) */
    name = g_strdup_printf (_("%s %s: %s, %s"), self->label, embers_labels_display_value (stats->value), total, share);
  gtk_accessible_update_property (GTK_ACCESSIBLE (child), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
  gtk_accessible_update_property (GTK_ACCESSIBLE (card), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
}

/* The marks as the page shows them; @changed: they changed (the table's
 * mark column follows) */
void
embers_labels_update_marks (EmbersLabelsPage *self,
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
      gboolean is_b = embers_labels_is_baseline (self, value);
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
    embers_labels_refresh_table_marks (self);
  else if (changed)
    self->table_marks_stale = TRUE;

  g_object_notify_by_pspec (G_OBJECT (self), embers_labels_page_properties[EMBERS_LABELS_PAGE_PROP_CAN_COMPARE]);
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
  if (self != NULL && self->baseline_name != NULL && !embers_labels_is_baseline (self, value))
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

GtkWidget *
embers_labels_value_menu_button (const char *value)
{
  GtkWidget *button = gtk_menu_button_new ();
  g_autofree char *tip = NULL;

  gtk_menu_button_set_icon_name (GTK_MENU_BUTTON (button), "view-more-symbolic");
  g_object_set_data_full (G_OBJECT (button), "value", g_strdup (value), g_free);
  gtk_menu_button_set_create_popup_func (GTK_MENU_BUTTON (button), create_value_popup, NULL, NULL);
  gtk_widget_add_css_class (button, "flat");
  /* Translators: %s is a label value */
  tip = g_strdup_printf (_("Actions for %s"), embers_labels_display_value (value));
  gtk_widget_set_tooltip_text (button, tip);
  gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL, tip, -1);
  return button;
}

void
embers_labels_apply_scale (EmbersLabelsPage *self,
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
  GtkWidget *name = gtk_label_new (embers_labels_display_value (stats->value));
  GtkWidget *tag = gtk_label_new (NULL);
  g_autofree char *share = embers_format_percent (stats->share);
  g_autofree char *total = embers_labels_format_value (self, stats->total);
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
  gtk_box_append (GTK_BOX (header), embers_labels_value_menu_button (stats->value));

  gtk_widget_set_margin_start (header, 12);
  gtk_widget_set_margin_end (header, 6);
  gtk_widget_set_margin_top (header, 6);
  gtk_box_append (GTK_BOX (card), header);

  embers_label_chart_set_data (EMBERS_LABEL_CHART (chart), stats, self->label, self->unit,
                               self->query->start_ms, self->query->end_ms,
                               embers_source_step_for_range (self->query->start_ms, self->query->end_ms),
                               self->grand_total, self->max_of_max);
  embers_label_chart_set_has_time (EMBERS_LABEL_CHART (chart), self->has_time);
  embers_labels_apply_scale (self, EMBERS_LABEL_CHART (chart));
  embers_label_chart_set_view (EMBERS_LABEL_CHART (chart), embers_labels_chart_view (self));
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

void
embers_labels_stop_building (EmbersLabelsPage *self)
{
  if (self->build_source != 0)
    {
      gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->build_source);
      self->build_source = 0;
      embers_labels_update_loading (self);
    }
}

void
embers_labels_clear_values (EmbersLabelsPage *self)
{
  GtkWidget *child;

  embers_labels_stop_building (self);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->cards))) != NULL)
    gtk_flow_box_remove (self->cards, child);
  g_ptr_array_set_size (self->charts, 0);
  g_clear_pointer (&self->top, g_ptr_array_unref);
  self->n_built = 0;
  gtk_widget_set_visible (GTK_WIDGET (self->rest_label), FALSE);
  gtk_widget_set_visible (GTK_WIDGET (self->no_time_label), FALSE);
}

void
embers_labels_update_sensitivity (EmbersLabelsPage *self)
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
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->view_buttons[v]), time_views ? _(embers_labels_view_names[v].tooltip) : why);
    }
}

/* The heading: how many values (the sidebar's count, which leaves out the
 * missing value, with "(none)" named when there is one) and their order */
void
embers_labels_update_heading (EmbersLabelsPage *self)
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

void
embers_labels_show_values_view (EmbersLabelsPage *self)
{
  /* (while the page is being built) */
  if (self->values_stack == NULL || self->show_all_button == NULL)
    return;
  embers_labels_update_sensitivity (self);
  embers_labels_update_heading (self);
  if (self->stats == NULL)
    return;
  if (self->stats->len == 0)
    {
      embers_labels_show_status (self, _("No Values"), _("No series carry this label in the time range."), FALSE);
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
  embers_labels_update_marks (self, FALSE);
  embers_labels_update_loading (self);
  return G_SOURCE_REMOVE;
}

void
embers_labels_rebuild_values (EmbersLabelsPage *self)
{
  g_autoptr(EmbersLabelValueStats) rest = NULL;
  double step_s = embers_source_step_for_range (self->query->start_ms, self->query->end_ms);

  embers_labels_clear_values (self);
  if (self->stats == NULL)
    {
      embers_labels_show_values_view (self);
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
      embers_labels_update_loading (self);
    }

  if (rest != NULL)
    {
      guint n_rest = self->stats->len - self->top->len;
      g_autofree char *total = embers_labels_format_value (self, rest->total);
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

  embers_labels_update_marks (self, FALSE);
  embers_labels_show_values_view (self);
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
  embers_labels_update_marks (self, TRUE);
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
  embers_labels_update_marks (self, TRUE);
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

void
embers_labels_page_get_marks (EmbersLabelsPage  *self,
                              const char       **baseline_label,
                              const char       **baseline_value,
                              const char       **comparison_label,
                              const char       **comparison_value)
{
  g_return_if_fail (EMBERS_IS_LABELS_PAGE (self));

  *baseline_label = self->baseline_name;
  *baseline_value = self->baseline_value;
  *comparison_label = self->comparison_name;
  *comparison_value = self->comparison_value;
}

void
embers_labels_page_restore_marks (EmbersLabelsPage *self,
                                  const char       *baseline_label,
                                  const char       *baseline_value,
                                  const char       *comparison_label,
                                  const char       *comparison_value)
{
  g_return_if_fail (EMBERS_IS_LABELS_PAGE (self));

  if (baseline_label == NULL || baseline_value == NULL)
    baseline_label = baseline_value = NULL;
  if (comparison_label == NULL || comparison_value == NULL)
    comparison_label = comparison_value = NULL;
  /* One value cannot be both: the baseline wins */
  if (baseline_label != NULL && g_strcmp0 (baseline_label, comparison_label) == 0 &&
      g_strcmp0 (baseline_value, comparison_value) == 0)
    comparison_label = comparison_value = NULL;
  set_mark (&self->baseline_name, &self->baseline_value, baseline_label, baseline_value);
  set_mark (&self->comparison_name, &self->comparison_value, comparison_label, comparison_value);
  embers_labels_update_marks (self, TRUE);
}
