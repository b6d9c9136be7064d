/* embers-diff-table.c: per-function baseline vs comparison
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "embers-column-keys.h"
#include "embers-diff-table.h"
#include "embers-widgets.h"
#include "embers-name-label.h"
#include "embers-top-table.h"
#include "embers-units.h"

/* One row of the table */

#define EMBERS_TYPE_DIFF_ITEM (embers_diff_item_get_type ())
G_DECLARE_FINAL_TYPE (EmbersDiffItem, embers_diff_item, EMBERS, DIFF_ITEM, GObject)

struct _EmbersDiffItem
{
  GObject          parent_instance;
  EmbersProfile   *profile;
  EmbersDiffRow    row;
  EmbersDiffStats *noise;   /* the table's noise test, or NULL */
};

G_DEFINE_FINAL_TYPE (EmbersDiffItem, embers_diff_item, G_TYPE_OBJECT)

static void
embers_diff_item_finalize (GObject *object)
{
  EmbersDiffItem *self = EMBERS_DIFF_ITEM (object);

  g_clear_object (&self->profile);
  g_clear_object (&self->noise);
  G_OBJECT_CLASS (embers_diff_item_parent_class)->finalize (object);
}

static void
embers_diff_item_class_init (EmbersDiffItemClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = embers_diff_item_finalize;
}

static void
embers_diff_item_init (EmbersDiffItem *self)
{
}

static EmbersDiffItem *
embers_diff_item_new (EmbersProfile       *profile,
                      const EmbersDiffRow *row)
{
  EmbersDiffItem *self = g_object_new (EMBERS_TYPE_DIFF_ITEM, NULL);

  self->profile = g_object_ref (profile);
  self->row = *row;
  return self;
}

static EmbersDiffStats *
item_noise (EmbersDiffItem *item)
{
  return item->noise;
}

/* Within the noise, by the test */
static gboolean
item_is_noise (EmbersDiffItem *item)
{
  const char *name = embers_profile_get_string (item->profile, item->row.name);
  const EmbersChangeStats *stats = item->noise != NULL && name != NULL
                                   ? embers_diff_stats_lookup (item->noise, name) : NULL;

  return stats != NULL && stats->verdict == EMBERS_CHANGE_WITHIN_NOISE;
}

static const char *
item_name (EmbersDiffItem *item)
{
  const char *name = embers_profile_get_string (item->profile, item->row.name);

  return name != NULL ? name : "";
}

/* The change as a sort key: new above everything, removed below */
static double
item_change_key (EmbersDiffItem *item,
                 EmbersDiffMode  mode)
{
  switch (item->row.kind)
    {
    case EMBERS_DIFF_KIND_NEW:
      return INFINITY;
    case EMBERS_DIFF_KIND_REMOVED:
      return -INFINITY;
    case EMBERS_DIFF_KIND_CHANGED:
    default:
      return embers_diff_row_change (&item->row, mode);
    }
}

/* comparison - baseline, without overflow (both are non-negative) */
static double
item_delta (EmbersDiffItem *item)
{
  return (double) item->row.comparison_total - (double) item->row.baseline_total;
}

enum {
  COLUMN_NAME,
  COLUMN_BASELINE_SHARE,
  COLUMN_COMPARISON_SHARE,
  COLUMN_CHANGE,
  COLUMN_BASELINE_VALUE,
  COLUMN_COMPARISON_VALUE,
  COLUMN_DELTA,
  COLUMN_NOISE,   /* the change with its interval, with a noise test */
  COLUMN_STEPS,   /* steps of each side, with a noise test */
  N_COLUMNS
};

static EmbersDiffStats *item_noise (EmbersDiffItem *item);

static char *
item_cell_text (EmbersDiffItem *item,
                guint           column,
                EmbersDiffMode  mode)
{
  const char *unit = embers_profile_get_sample_unit (item->profile, EMBERS_DIFF_COMPARISON);

  switch (column)
    {
    case COLUMN_NAME:
      return g_strdup (item_name (item));
    case COLUMN_BASELINE_SHARE:
      return embers_diff_format_percent (item->row.baseline_share * 100.0, FALSE);
    case COLUMN_COMPARISON_SHARE:
      return embers_diff_format_percent (item->row.comparison_share * 100.0, FALSE);
    case COLUMN_CHANGE:
      if (item->row.kind == EMBERS_DIFF_KIND_NEW)
        return g_strdup (C_("diff", "new"));
      if (item->row.kind == EMBERS_DIFF_KIND_REMOVED)
        return g_strdup (C_("diff", "removed"));
      return embers_diff_format_percent (embers_diff_row_change (&item->row, mode), TRUE);
    case COLUMN_BASELINE_VALUE:
      return embers_format_value (item->row.baseline_total, unit);
    case COLUMN_COMPARISON_VALUE:
      return embers_format_value (item->row.comparison_total, unit);
    case COLUMN_DELTA:
      return embers_diff_format_delta (item->row.baseline_total, item->row.comparison_total, unit);
    case COLUMN_NOISE:
    case COLUMN_STEPS:
      {
        EmbersDiffStats *noise = item_noise (item);
        const EmbersChangeStats *stats = noise != NULL ? embers_diff_stats_lookup (noise, item_name (item)) : NULL;

        if (stats == NULL)
          return g_strdup ("");
        if (column == COLUMN_STEPS)
          return embers_change_stats_format_steps (stats);
        if (stats->verdict == EMBERS_CHANGE_NOT_ENOUGH_STEPS)
          /* Translators: the noise column when a side has too few steps to test */
          return g_strdup (C_("noise", "too few steps"));
        return embers_change_stats_format (stats);
      }
    default:
      g_return_val_if_reached (NULL);
    }
}

static int
cmp_double (double a,
            double b)
{
  return a < b ? -1 : a > b ? 1 : 0;
}

static int
cmp_int64 (gint64 a,
           gint64 b)
{
  return a < b ? -1 : a > b ? 1 : 0;
}

typedef struct
{
  EmbersDiffTable *table;
  guint            column;
} SortContext;

static EmbersDiffMode table_mode (EmbersDiffTable *self);

static int
compare_items (gconstpointer a,
               gconstpointer b,
               gpointer      user_data)
{
  EmbersDiffItem *ia = (EmbersDiffItem *) a;
  EmbersDiffItem *ib = (EmbersDiffItem *) b;
  SortContext *ctx = user_data;
  EmbersDiffMode mode = table_mode (ctx->table);
  int r = 0;

  switch (ctx->column)
    {
    case COLUMN_NAME:
      return g_utf8_collate (item_name (ia), item_name (ib));
    case COLUMN_BASELINE_SHARE:
      r = cmp_double (ia->row.baseline_share, ib->row.baseline_share);
      break;
    case COLUMN_COMPARISON_SHARE:
      r = cmp_double (ia->row.comparison_share, ib->row.comparison_share);
      break;
    case COLUMN_CHANGE:
      r = cmp_double (item_change_key (ia, mode), item_change_key (ib, mode));
      if (r == 0)
        r = cmp_int64 (ia->row.comparison_total, ib->row.comparison_total);
      break;
    case COLUMN_DELTA:
      r = cmp_double (item_delta (ia), item_delta (ib));
      break;
    case COLUMN_BASELINE_VALUE:
      r = cmp_int64 (ia->row.baseline_total, ib->row.baseline_total);
      break;
    case COLUMN_COMPARISON_VALUE:
      r = cmp_int64 (ia->row.comparison_total, ib->row.comparison_total);
      break;
    default:
      break;
    }
  if (r == 0)
    r = -g_utf8_collate (item_name (ia), item_name (ib));
  return r;
}

/* The table */

struct _EmbersDiffTable
{
  GtkWidget           parent_instance;

  GtkWidget          *scroller;
  GtkColumnView      *column_view;
  GtkColumnViewColumn *columns[N_COLUMNS];
  GListStore         *store;
  GtkSortListModel   *sorted;
  GtkSingleSelection *selection;
  EmbersProfile      *profile;
  char               *selected_name;
  EmbersDiffMode      mode;
  SortContext         sort_contexts[N_COLUMNS];
  EmbersDiffStats    *noise;
  gboolean            hide_noise;
};

G_DEFINE_FINAL_TYPE (EmbersDiffTable, embers_diff_table, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_SELECTED_NAME,
  PROP_COLUMN_WIDTHS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  SIGNAL_ROW_ACTIVATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static EmbersDiffMode
table_mode (EmbersDiffTable *self)
{
  return self->mode;
}

static void
setup_cell (GtkSignalListItemFactory *factory,
            GtkListItem              *list_item,
            gpointer                  user_data)
{
  guint column = ((SortContext *) user_data)->column;
  GtkWidget *label;

  if (column == COLUMN_NAME)
    {
      /* Cut at the package path, never mid-name; the whole name in the tooltip */
      gtk_list_item_set_child (list_item, embers_name_label_new ());
      return;
    }
  label = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (label), 1.0);
  gtk_widget_add_css_class (label, "numeric");
  gtk_list_item_set_child (list_item, label);
}

/* What a screen reader says for a row: the function, both sides and the
 * change (the row factory's bind) */
static void
bind_row (GtkSignalListItemFactory *factory,
          GObject                  *object,
          EmbersDiffTable          *self)
{
  GtkColumnViewRow *row = GTK_COLUMN_VIEW_ROW (object);
  EmbersDiffItem *item = gtk_column_view_row_get_item (row);
  EmbersDiffMode mode = table_mode (self);
  g_autofree char *baseline_share = NULL;
  g_autofree char *baseline_value = NULL;
  g_autofree char *comparison_share = NULL;
  g_autofree char *comparison_value = NULL;
  g_autofree char *change = NULL;
  g_autofree char *delta = NULL;
  g_autofree char *text = NULL;

  if (item == NULL)
    return;
  baseline_share = item_cell_text (item, COLUMN_BASELINE_SHARE, mode);
  baseline_value = item_cell_text (item, COLUMN_BASELINE_VALUE, mode);
  comparison_share = item_cell_text (item, COLUMN_COMPARISON_SHARE, mode);
  comparison_value = item_cell_text (item, COLUMN_COMPARISON_VALUE, mode);
  change = item_cell_text (item, COLUMN_CHANGE, mode);
  delta = item_cell_text (item, COLUMN_DELTA, mode);
  /* Translators: what a screen reader says for a row of the diff table:
   * the function, its share and value in the baseline and in the
   * comparison, the diff (a signed percentage, or "new" / "removed") and
   * the change of its value, e.g. "main.checksum, baseline 11.7%
   * (380 ms), comparison 25.2% (930 ms), diff +116%, change +550 ms" */
  text = g_strdup_printf (_("%s, baseline %s (%s), comparison %s (%s), diff %s, change %s"),
                          item_name (item), baseline_share, baseline_value,
                          comparison_share, comparison_value, change, delta);
  if (item->noise != NULL)
    {
      const EmbersChangeStats *stats = embers_diff_stats_lookup (item->noise, item_name (item));
      g_autofree char *noise = stats != NULL ? embers_change_stats_describe (stats) : NULL;

      if (noise != NULL)
        {
          char *both = g_strconcat (text, "; ", noise, NULL);

          g_free (text);
          text = both;
        }
    }
  gtk_column_view_row_set_accessible_label (row, text);
}

static void
bind_cell (GtkSignalListItemFactory *factory,
           GtkListItem              *list_item,
           gpointer                  user_data)
{
  SortContext *ctx = user_data;
  guint column = ctx->column;
  EmbersDiffItem *item = gtk_list_item_get_item (list_item);
  GtkWidget *label = gtk_list_item_get_child (list_item);
  g_autofree char *text = item_cell_text (item, column, ctx->table->mode);

  if (column == COLUMN_NAME)
    embers_name_label_set_text (EMBERS_NAME_LABEL (label), text);
  else
    gtk_label_set_text (GTK_LABEL (label), text);
  if (column == COLUMN_NOISE && item->noise != NULL)
    {
      const EmbersChangeStats *stats = embers_diff_stats_lookup (item->noise, item_name (item));
      g_autofree char *tip = stats != NULL ? embers_change_stats_describe (stats) : NULL;

      gtk_widget_set_tooltip_text (label, tip);
    }
  /* With Hide noise, a change within the noise is shown faintly */
  if (ctx->table->hide_noise && item_is_noise (item))
    gtk_widget_add_css_class (label, "dim-label");
  else
    gtk_widget_remove_css_class (label, "dim-label");
}

/* Column widths: what the user dragged the headers' edges to, by column
 * id, for the application to keep in its settings */

static const char * const column_ids[N_COLUMNS] = {
  [COLUMN_NAME] = "name",
  [COLUMN_BASELINE_SHARE] = "baseline-share",
  [COLUMN_COMPARISON_SHARE] = "comparison-share",
  [COLUMN_CHANGE] = "change",
  [COLUMN_BASELINE_VALUE] = "baseline-value",
  [COLUMN_COMPARISON_VALUE] = "comparison-value",
  [COLUMN_DELTA] = "delta",
  [COLUMN_NOISE] = "noise",
  [COLUMN_STEPS] = "steps",
};

GVariant *
embers_diff_table_dup_column_widths (EmbersDiffTable *self)
{
  GVariantBuilder builder;

  g_return_val_if_fail (EMBERS_IS_DIFF_TABLE (self), NULL);

  g_variant_builder_init (&builder, G_VARIANT_TYPE ("a{si}"));
  for (guint i = 0; i < N_COLUMNS; i++)
    if (self->columns[i] != NULL && column_ids[i] != NULL
        && gtk_column_view_column_get_fixed_width (self->columns[i]) > 0)
      g_variant_builder_add (&builder, "{si}", column_ids[i],
                             (gint32)gtk_column_view_column_get_fixed_width (self->columns[i]));
  return g_variant_ref_sink (g_variant_builder_end (&builder));
}

void
embers_diff_table_set_column_widths (EmbersDiffTable *self,
                                     GVariant        *widths)
{
  g_return_if_fail (EMBERS_IS_DIFF_TABLE (self));
  g_return_if_fail (widths == NULL || g_variant_is_of_type (widths, G_VARIANT_TYPE ("a{si}")));

  for (guint i = 0; i < N_COLUMNS; i++)
    {
      gint32 width = -1;

      if (self->columns[i] == NULL || column_ids[i] == NULL)
        continue;
      if (widths != NULL)
        g_variant_lookup (widths, column_ids[i], "i", &width);
      /* Hostile or stale settings: a width a person could have dragged */
      gtk_column_view_column_set_fixed_width (self->columns[i], width > 0 ? CLAMP (width, 24, 4000) : -1);
    }
}

static void
on_column_width (EmbersDiffTable *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COLUMN_WIDTHS]);
}

/* s, f and Delete act on the selected row (see embers_table_add_key_bindings) */
static gboolean
name_key (GtkWidget *widget,
          GVariant  *args,
          gpointer   user_data)
{
  EmbersDiffTable *self = EMBERS_DIFF_TABLE (widget);

  if (self->selected_name == NULL)
    return FALSE;
  return gtk_widget_activate_action (widget, g_variant_get_string (args, NULL), "s", self->selected_name);
}

static void
on_activate (GtkColumnView   *column_view,
             guint            position,
             EmbersDiffTable *self)
{
  const char *name = embers_diff_table_get_row_name (self, position);

  if (name != NULL)
    g_signal_emit (self, signals[SIGNAL_ROW_ACTIVATED], 0, name);
}

static void
on_selection_changed (EmbersDiffTable *self)
{
  guint position = gtk_single_selection_get_selected (self->selection);
  const char *name = position != GTK_INVALID_LIST_POSITION
                     ? embers_diff_table_get_row_name (self, position) : NULL;

  if (g_strcmp0 (name, self->selected_name) == 0)
    return;
  g_free (self->selected_name);
  self->selected_name = g_strdup (name);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_NAME]);
}

static void
embers_diff_table_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  EmbersDiffTable *self = EMBERS_DIFF_TABLE (object);

  switch (prop_id)
    {
    case PROP_SELECTED_NAME:
      g_value_set_string (value, self->selected_name);
      break;
    case PROP_COLUMN_WIDTHS:
      g_value_take_variant (value, embers_diff_table_dup_column_widths (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
embers_diff_table_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  EmbersDiffTable *self = EMBERS_DIFF_TABLE (object);

  switch (prop_id)
    {
    case PROP_SELECTED_NAME:
      embers_diff_table_select_name (self, g_value_get_string (value));
      break;
    case PROP_COLUMN_WIDTHS:
      embers_diff_table_set_column_widths (self, g_value_get_variant (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
embers_diff_table_finalize (GObject *object)
{
  EmbersDiffTable *self = EMBERS_DIFF_TABLE (object);

  g_free (self->selected_name);
  G_OBJECT_CLASS (embers_diff_table_parent_class)->finalize (object);
}

static void
embers_diff_table_dispose (GObject *object)
{
  EmbersDiffTable *self = EMBERS_DIFF_TABLE (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), EMBERS_TYPE_DIFF_TABLE);
  g_clear_object (&self->selection);
  g_clear_object (&self->profile);
  g_clear_object (&self->noise);

  G_OBJECT_CLASS (embers_diff_table_parent_class)->dispose (object);
}

static void
embers_diff_table_class_init (EmbersDiffTableClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = embers_diff_table_dispose;
  object_class->finalize = embers_diff_table_finalize;
  object_class->get_property = embers_diff_table_get_property;
  object_class->set_property = embers_diff_table_set_property;

  /**
   * EmbersDiffTable:selected-name:
   *
   * The function of the selected row, or %NULL.
   */
  properties[PROP_SELECTED_NAME] =
    g_param_spec_string ("selected-name", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* The width of each column the user resized, by column id, in px */
  properties[PROP_COLUMN_WIDTHS] =
    g_param_spec_variant ("column-widths", NULL, NULL,
                          G_VARIANT_TYPE ("a{si}"), NULL,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  embers_table_add_key_bindings (widget_class, name_key);

  /**
   * EmbersDiffTable::row-activated:
   * @name: the function name
   *
   * A row was double-clicked or activated with Enter.
   */
  signals[SIGNAL_ROW_ACTIVATED] =
    g_signal_new ("row-activated",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING);

  embers_widgets_ensure_resources ();
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/emberslab/Embers/embers-diff-table.ui");
  gtk_widget_class_bind_template_child (widget_class, EmbersDiffTable, scroller);
  gtk_widget_class_bind_template_child (widget_class, EmbersDiffTable, column_view);
  gtk_widget_class_bind_template_callback (widget_class, bind_row);
  gtk_widget_class_bind_template_callback (widget_class, on_activate);
  gtk_widget_class_set_css_name (widget_class, "embers-diff-table");
}

/* The Diff column says which change it shows: the colour mode's */
static const char *
change_title (EmbersDiffMode mode)
{
  return mode == EMBERS_DIFF_MODE_ABSOLUTE
    /* Translators: a diff table column: the change of a function's value, in percent */
    ? C_("diff table", "Value Diff")
    /* Translators: a diff table column: the change of a function's share of its side's total, in percent */
    : C_("diff table", "Share Diff");
}

static void
embers_diff_table_init (EmbersDiffTable *self)
{
  GListModel *columns;
  GtkSorter *sorter;

  gtk_widget_init_template (GTK_WIDGET (self));

  self->store = g_list_store_new (EMBERS_TYPE_DIFF_ITEM);
  self->sorted = gtk_sort_list_model_new (G_LIST_MODEL (self->store), NULL);
  self->selection = gtk_single_selection_new (G_LIST_MODEL (self->sorted));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (self->selection));
  embers_column_view_add_sort_keys (self->column_view);

  /* The template's columns, in Column order: their cells and sorters */
  columns = gtk_column_view_get_columns (self->column_view);
  g_assert (g_list_model_get_n_items (columns) == N_COLUMNS);
  for (guint i = 0; i < N_COLUMNS; i++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, i);
      g_autoptr(GtkListItemFactory) factory = gtk_signal_list_item_factory_new ();

      g_assert (g_str_equal (gtk_column_view_column_get_id (column), column_ids[i]));
      self->sort_contexts[i].table = self;
      self->sort_contexts[i].column = i;
      g_signal_connect (factory, "setup", G_CALLBACK (setup_cell), &self->sort_contexts[i]);
      g_signal_connect (factory, "bind", G_CALLBACK (bind_cell), &self->sort_contexts[i]);
      gtk_column_view_column_set_factory (column, factory);
      g_signal_connect_object (column, "notify::fixed-width",
                               G_CALLBACK (on_column_width), self, G_CONNECT_SWAPPED);
      if (i < COLUMN_NOISE)
        {
          g_autoptr(GtkCustomSorter) custom = gtk_custom_sorter_new (compare_items, &self->sort_contexts[i], NULL);

          gtk_column_view_column_set_sorter (column, GTK_SORTER (custom));
        }
      self->columns[i] = column;
    }
  gtk_column_view_column_set_title (self->columns[COLUMN_CHANGE], change_title (self->mode));

  sorter = gtk_column_view_get_sorter (self->column_view);
  gtk_sort_list_model_set_sorter (self->sorted, sorter);
  gtk_column_view_sort_by_column (self->column_view, self->columns[COLUMN_CHANGE], GTK_SORT_DESCENDING);

  g_signal_connect_object (self->selection, "notify::selected",
                           G_CALLBACK (on_selection_changed), self, G_CONNECT_SWAPPED);
}

GtkWidget *
embers_diff_table_new (void)
{
  return g_object_new (EMBERS_TYPE_DIFF_TABLE, NULL);
}

void
embers_diff_table_set_data (EmbersDiffTable *self,
                            EmbersProfile   *diff,
                            GArray          *rows)
{
  g_autoptr(GArray) computed = NULL;
  g_autoptr(GPtrArray) items = NULL;

  g_return_if_fail (EMBERS_IS_DIFF_TABLE (self));
  g_return_if_fail (diff == NULL || embers_profile_is_diff (diff));

  /* The same diff gives the same rows (a view switched, the transforms
   * unchanged): the table keeps them, its scroll and its selection */
  if (diff != NULL && diff == self->profile && rows != NULL
      && g_list_model_get_n_items (G_LIST_MODEL (self->store)) == rows->len)
    return;
  g_set_object (&self->profile, diff);
  if (diff == NULL)
    {
      g_list_store_remove_all (self->store);
      return;
    }

  if (rows == NULL)
    rows = computed = embers_diff_top_compute (diff);

  items = g_ptr_array_new_full (rows->len, g_object_unref);
  for (guint i = 0; i < rows->len; i++)
    {
      EmbersDiffItem *item = embers_diff_item_new (diff, &g_array_index (rows, EmbersDiffRow, i));

      item->noise = self->noise != NULL ? g_object_ref (self->noise) : NULL;
      g_ptr_array_add (items, item);
    }
  g_list_store_splice (self->store, 0, g_list_model_get_n_items (G_LIST_MODEL (self->store)),
                       items->pdata, items->len);
}

EmbersProfile *
embers_diff_table_get_profile (EmbersDiffTable *self)
{
  g_return_val_if_fail (EMBERS_IS_DIFF_TABLE (self), NULL);
  return self->profile;
}

guint
embers_diff_table_get_n_rows (EmbersDiffTable *self)
{
  g_return_val_if_fail (EMBERS_IS_DIFF_TABLE (self), 0);
  return g_list_model_get_n_items (G_LIST_MODEL (self->sorted));
}

void
embers_diff_table_sort_by_change (EmbersDiffTable *self,
                                  gboolean         descending)
{
  g_return_if_fail (EMBERS_IS_DIFF_TABLE (self));
  gtk_column_view_sort_by_column (self->column_view, self->columns[COLUMN_CHANGE],
                                  descending ? GTK_SORT_DESCENDING : GTK_SORT_ASCENDING);
}

static EmbersDiffItem *
get_item (EmbersDiffTable *self,
          guint            position)
{
  EmbersDiffItem *item = g_list_model_get_item (G_LIST_MODEL (self->sorted), position);

  if (item != NULL)
    g_object_unref (item);  /* the model keeps it */
  return item;
}

const EmbersDiffRow *
embers_diff_table_get_row (EmbersDiffTable *self,
                           guint            position)
{
  EmbersDiffItem *item;

  g_return_val_if_fail (EMBERS_IS_DIFF_TABLE (self), NULL);
  item = get_item (self, position);
  return item != NULL ? &item->row : NULL;
}

const char *
embers_diff_table_get_row_name (EmbersDiffTable *self,
                                guint            position)
{
  EmbersDiffItem *item;

  g_return_val_if_fail (EMBERS_IS_DIFF_TABLE (self), NULL);
  item = get_item (self, position);
  return item != NULL ? item_name (item) : NULL;
}

char *
embers_diff_table_get_cell_text (EmbersDiffTable *self,
                                 guint            position,
                                 guint            column)
{
  EmbersDiffItem *item;

  g_return_val_if_fail (EMBERS_IS_DIFF_TABLE (self), NULL);
  g_return_val_if_fail (column < N_COLUMNS, NULL);
  item = get_item (self, position);
  return item != NULL ? item_cell_text (item, column, self->mode) : NULL;
}

EmbersDiffMode
embers_diff_table_get_mode (EmbersDiffTable *self)
{
  g_return_val_if_fail (EMBERS_IS_DIFF_TABLE (self), EMBERS_DIFF_MODE_SHARE);
  return self->mode;
}

void
embers_diff_table_set_mode (EmbersDiffTable *self,
                            EmbersDiffMode   mode)
{
  g_autofree char *selected = NULL;
  g_autoptr(GPtrArray) items = NULL;
  guint n;

  g_return_if_fail (EMBERS_IS_DIFF_TABLE (self));

  if (self->mode == mode)
    return;
  self->mode = mode;
  gtk_column_view_column_set_title (self->columns[COLUMN_CHANGE], change_title (mode));

  /* The Diff cells show the other change, and sort by it: the rows go
   * out and back in (rebound, resorted), the selection stays */
  selected = g_strdup (self->selected_name);
  n = g_list_model_get_n_items (G_LIST_MODEL (self->store));
  items = g_ptr_array_new_full (n, g_object_unref);
  for (guint i = 0; i < n; i++)
    g_ptr_array_add (items, g_list_model_get_item (G_LIST_MODEL (self->store), i));
  gtk_sorter_changed (gtk_column_view_column_get_sorter (self->columns[COLUMN_CHANGE]),
                      GTK_SORTER_CHANGE_DIFFERENT);
  g_list_store_splice (self->store, 0, n, items->pdata, n);
  embers_diff_table_select_name (self, selected);
}

void
embers_diff_table_set_noise (EmbersDiffTable *self,
                             EmbersDiffStats *noise,
                             gboolean         hide_noise)
{
  g_autofree char *selected = NULL;
  g_autoptr(GPtrArray) items = NULL;
  guint n;

  g_return_if_fail (EMBERS_IS_DIFF_TABLE (self));
  g_return_if_fail (noise == NULL || EMBERS_IS_DIFF_STATS (noise));

  g_set_object (&self->noise, noise);
  self->hide_noise = hide_noise;
  /* Only with functions tested (one profile a side has none to show) */
  gtk_column_view_column_set_visible (self->columns[COLUMN_NOISE],
                                      noise != NULL && embers_diff_stats_get_n_functions (noise) > 0);
  gtk_column_view_column_set_visible (self->columns[COLUMN_STEPS],
                                      noise != NULL && embers_diff_stats_get_n_functions (noise) > 0);

  /* New rows with the test (the same objects would not be bound again),
   * the selection stays */
  selected = g_strdup (self->selected_name);
  n = g_list_model_get_n_items (G_LIST_MODEL (self->store));
  items = g_ptr_array_new_full (n, g_object_unref);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(EmbersDiffItem) old = g_list_model_get_item (G_LIST_MODEL (self->store), i);
      EmbersDiffItem *item = embers_diff_item_new (old->profile, &old->row);

      item->noise = noise != NULL ? g_object_ref (noise) : NULL;
      g_ptr_array_add (items, item);
    }
  g_list_store_splice (self->store, 0, n, items->pdata, n);
  embers_diff_table_select_name (self, selected);
}

EmbersDiffStats *
embers_diff_table_get_noise (EmbersDiffTable *self)
{
  g_return_val_if_fail (EMBERS_IS_DIFF_TABLE (self), NULL);
  return self->noise;
}

gboolean
embers_diff_table_row_is_noise (EmbersDiffTable *self,
                                guint            position)
{
  EmbersDiffItem *item;

  g_return_val_if_fail (EMBERS_IS_DIFF_TABLE (self), FALSE);
  item = get_item (self, position);
  return item != NULL && item_is_noise (item);
}

GtkColumnView *
embers_diff_table_get_column_view (EmbersDiffTable *self)
{
  g_return_val_if_fail (EMBERS_IS_DIFF_TABLE (self), NULL);
  return self->column_view;
}

static void
scroll_to (EmbersDiffTable *self,
           guint            position)
{
  gtk_column_view_scroll_to (self->column_view, position, NULL, GTK_LIST_SCROLL_NONE, NULL);
}

const char *
embers_diff_table_get_selected_name (EmbersDiffTable *self)
{
  g_return_val_if_fail (EMBERS_IS_DIFF_TABLE (self), NULL);
  return self->selected_name;
}

void
embers_diff_table_mark_name (EmbersDiffTable *self,
                             const char *name,
                             gboolean    scroll)
{
  guint n;

  g_return_if_fail (EMBERS_IS_DIFF_TABLE (self));

  if (name != NULL)
    {
      n = embers_diff_table_get_n_rows (self);
      for (guint i = 0; i < n; i++)
        if (g_strcmp0 (embers_diff_table_get_row_name (self, i), name) == 0)
          {
            /* A row the hover marked is scrolled to once it is clicked */
            gtk_single_selection_set_selected (self->selection, i);
            if (scroll)
              scroll_to (self, i);
            return;
          }
    }
  gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
}

void
embers_diff_table_select_name (EmbersDiffTable *self,
                               const char *name)
{
  embers_diff_table_mark_name (self, name, TRUE);
}

/* The first descendant of @widget whose CSS name is @name */
static GtkWidget *
find_css_name (GtkWidget  *widget,
               const char *name)
{
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found;

      if (g_strcmp0 (gtk_widget_get_css_name (c), name) == 0)
        return c;
      found = find_css_name (c, name);
      if (found != NULL)
        return found;
    }
  return NULL;
}

int
embers_diff_table_get_least_height (EmbersDiffTable *self,
                                    guint            n_rows)
{
  GtkWidget *header, *row;
  int header_height = 0, row_height = 0, least = 0;

  g_return_val_if_fail (EMBERS_IS_DIFF_TABLE (self), 0);

  /* The header and @n_rows rows, measured on the column view itself: the
   * scrolled window's own minimum also holds its scrollbars', which grow
   * while the pointer is over them */
  header = find_css_name (GTK_WIDGET (self->column_view), "header");
  row = find_css_name (GTK_WIDGET (self->column_view), "row");
  if (header == NULL || row == NULL)
    {
      gtk_widget_measure (GTK_WIDGET (self), GTK_ORIENTATION_VERTICAL, -1, &least, NULL, NULL, NULL);
      return least;
    }
  gtk_widget_measure (header, GTK_ORIENTATION_VERTICAL, -1, NULL, &header_height, NULL, NULL);
  gtk_widget_measure (row, GTK_ORIENTATION_VERTICAL, -1, NULL, &row_height, NULL, NULL);
  return header_height + (int)n_rows * row_height;
}
