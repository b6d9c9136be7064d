/* embers-top-table.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "embers-column-keys.h"
#include "embers-widgets.h"
#include "embers-name-label.h"
#include "embers-top.h"
#include "embers-top-item.h"
#include "embers-top-model.h"
#include "embers-top-table.h"
#include "embers-units.h"

struct _EmbersTopTable
{
  GtkWidget           parent_instance;

  GtkScrolledWindow  *scroller;
  GtkColumnView      *column_view;
  GtkColumnViewColumn *name_column;
  GtkColumnViewColumn *self_column;
  GtkColumnViewColumn *self_percent_column;
  GtkColumnViewColumn *total_column;
  GtkColumnViewColumn *total_percent_column;
  GtkLabel           *placeholder;

  EmbersTopModel     *model;
  GtkSingleSelection *selection;

  EmbersProfile      *profile;
  EmbersSearch       *search;
  guint               sample_type;
  gint64              n_rows_given;  /* the last rows' length, -1 for none */
  gint64              root_total;
  char               *unit;
  char               *selected_name;
};

enum {
  PROP_0,
  PROP_PROFILE,
  PROP_SELECTED_NAME,
  PROP_N_ROWS,
  PROP_COLUMN_WIDTHS,
  N_PROPS
};

enum {
  FUNCTION_ACTIVATED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (EmbersTopTable, embers_top_table, GTK_TYPE_WIDGET)

/* Cells */

/* Whether @item is the row of the `other` frames: work a node limit cut
 * off, in several places, no function */
static gboolean
is_cut (EmbersTopTable *self,
        EmbersTopItem  *item)
{
  return item != NULL && embers_top_item_get_name_id (item) == embers_top_model_get_cut_name (self->model);
}

/* The cut row's name, what it is and how to see more */
static char *
cut_text (EmbersTopTable *self)
{
  guint n = embers_top_model_get_n_cut (self->model);

  /* Translators: the table of functions' row for the subtrees a server's
   * node limit cut off (Pyroscope's "other"); %u is how many places */
  return g_strdup_printf (ngettext ("Cut off by the node limit, in %u place",
                                    "Cut off by the node limit, in %u places", n), n);
}

static const char *
cut_explanation (void)
{
  return _("Not a function: the work the server’s answer left out where it reached its node limit, "
           "shown as “other” frames in the graph. To see what they hold, select an “other” frame "
           "and use Load More (L), or raise Nodes.");
}

static void
setup_name (GtkSignalListItemFactory *factory,
            GtkListItem              *list_item,
            EmbersTopTable           *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  GtkWidget *name = embers_name_label_new ();
  GtkWidget *cut = gtk_label_new (NULL);

  /* Cut at the package path, never mid-name; the whole name in the tooltip */
  gtk_widget_set_hexpand (name, TRUE);
  gtk_box_append (GTK_BOX (box), name);
  /* The row of cut-off work: no name, dimmed and slanted */
  {
    PangoAttrList *attrs = pango_attr_list_new ();

    pango_attr_list_insert (attrs, pango_attr_style_new (PANGO_STYLE_ITALIC));
    gtk_label_set_attributes (GTK_LABEL (cut), attrs);
    pango_attr_list_unref (attrs);
  }
  gtk_label_set_xalign (GTK_LABEL (cut), 0);
  gtk_label_set_ellipsize (GTK_LABEL (cut), PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand (cut, TRUE);
  gtk_widget_add_css_class (cut, "cut-off");
  gtk_widget_add_css_class (cut, "dim-label");
  /* Hidden first: GTK asks the X server where the pointer is when a
   * shown widget gets a tooltip (a round trip per row) */
  gtk_widget_set_visible (cut, FALSE);
  gtk_widget_set_tooltip_text (cut, cut_explanation ());
  gtk_box_append (GTK_BOX (box), cut);
  gtk_list_item_set_child (list_item, box);
}

/* What a screen reader says for a row: the function and its values (the
 * row factory's bind; a row's cells are labels without their headers) */
static void
bind_row (GtkSignalListItemFactory *factory,
          GObject                  *object,
          EmbersTopTable           *self)
{
  GtkColumnViewRow *row = GTK_COLUMN_VIEW_ROW (object);
  EmbersTopItem *item = gtk_column_view_row_get_item (row);
  g_autofree char *self_value = NULL;
  g_autofree char *self_percent = NULL;
  g_autofree char *total_value = NULL;
  g_autofree char *total_percent = NULL;
  g_autofree char *text = NULL;

  if (item == NULL)
    return;
  if (is_cut (self, item))
    {
      g_autofree char *name = cut_text (self);

      total_value = embers_format_value (embers_top_item_get_total (item), self->unit);
      total_percent = embers_format_percent (self->root_total > 0 ? (double)embers_top_item_get_total (item) / self->root_total : 0);
      /* Translators: what a screen reader says for the table's row of work
       * a node limit cut off: "Cut off by the node limit, in 3 places,
       * total 40 ms (2.00%). Not a function: …" */
      text = g_strdup_printf (_("%s, total %s (%s). %s"), name, total_value, total_percent, cut_explanation ());
      gtk_column_view_row_set_accessible_label (row, text);
      return;
    }
  self_value = embers_format_value (embers_top_item_get_self (item), self->unit);
  total_value = embers_format_value (embers_top_item_get_total (item), self->unit);
  self_percent = embers_format_percent (self->root_total > 0 ? (double)embers_top_item_get_self (item) / self->root_total : 0);
  total_percent = embers_format_percent (self->root_total > 0 ? (double)embers_top_item_get_total (item) / self->root_total : 0);
  /* Translators: what a screen reader says for a row of the table of
   * functions: the function's name, its self value and share of the
   * total, its total value and share, e.g. "runtime.mallocgc, self
   * 120 ms (4.00%), total 300 ms (10.0%)" */
  text = g_strdup_printf (_("%s, self %s (%s), total %s (%s)"), embers_top_item_get_name (item),
                          self_value, self_percent, total_value, total_percent);
  gtk_column_view_row_set_accessible_label (row, text);
}

static void
bind_name (GtkSignalListItemFactory *factory,
           GtkListItem              *list_item,
           EmbersTopTable           *self)
{
  EmbersTopItem *item = gtk_list_item_get_item (list_item);
  GtkWidget *name = gtk_widget_get_first_child (gtk_list_item_get_child (list_item));
  GtkWidget *cut = gtk_widget_get_next_sibling (name);
  gboolean cut_row = is_cut (self, item);

  embers_name_label_set_text (EMBERS_NAME_LABEL (name), cut_row ? NULL : embers_top_item_get_name (item));
  gtk_widget_set_visible (name, !cut_row);
  gtk_widget_set_visible (cut, cut_row);
  if (cut_row)
    {
      g_autofree char *text = cut_text (self);

      gtk_label_set_label (GTK_LABEL (cut), text);
    }
}

static void
setup_value (GtkSignalListItemFactory *factory,
             GtkListItem              *list_item,
             EmbersTopTable           *self)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 1);
  gtk_widget_add_css_class (label, "numeric");
  gtk_list_item_set_child (list_item, label);
}

static void
set_value (GtkListItem    *list_item,
           EmbersTopTable *self,
           gint64          value)
{
  g_autofree char *text = embers_format_value (value, self->unit);

  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (list_item)), text);
}

static void
set_percent (GtkListItem    *list_item,
             EmbersTopTable *self,
             gint64          value)
{
  g_autofree char *text = NULL;

  text = embers_format_percent (self->root_total > 0 ? (double)value / self->root_total : 0);
  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (list_item)), text);
}

static void
bind_self (GtkSignalListItemFactory *factory,
           GtkListItem              *list_item,
           EmbersTopTable           *self)
{
  set_value (list_item, self, embers_top_item_get_self (gtk_list_item_get_item (list_item)));
}

static void
bind_self_percent (GtkSignalListItemFactory *factory,
                   GtkListItem              *list_item,
                   EmbersTopTable           *self)
{
  set_percent (list_item, self, embers_top_item_get_self (gtk_list_item_get_item (list_item)));
}

static void
bind_total (GtkSignalListItemFactory *factory,
            GtkListItem              *list_item,
            EmbersTopTable           *self)
{
  set_value (list_item, self, embers_top_item_get_total (gtk_list_item_get_item (list_item)));
}

static void
bind_total_percent (GtkSignalListItemFactory *factory,
                    GtkListItem              *list_item,
                    EmbersTopTable           *self)
{
  set_percent (list_item, self, embers_top_item_get_total (gtk_list_item_get_item (list_item)));
}

static void
on_activate (GtkColumnView  *column_view,
             guint           position,
             EmbersTopTable *self)
{
  g_autoptr(EmbersTopItem) item = NULL;

  item = g_list_model_get_item (G_LIST_MODEL (self->selection), position);
  /* No function to show the callers and callees of */
  if (is_cut (self, item))
    gtk_widget_error_bell (GTK_WIDGET (self));
  else if (item != NULL)
    g_signal_emit (self, signals[FUNCTION_ACTIVATED], 0, embers_top_item_get_name (item));
}

static void
on_selection_changed (EmbersTopTable *self)
{
  EmbersTopItem *item = gtk_single_selection_get_selected_item (self->selection);
  /* The cut row names no function */
  const char *name = item != NULL && !is_cut (self, item) ? embers_top_item_get_name (item) : NULL;

  if (g_strcmp0 (name, self->selected_name) == 0)
    return;

  g_free (self->selected_name);
  self->selected_name = g_strdup (name);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_NAME]);
}

static void
on_items_changed (EmbersTopTable *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_ROWS]);
}

/* API */

void
embers_top_table_set_data (EmbersTopTable *self,
                           EmbersProfile  *profile,
                           guint           sample_type,
                           GArray         *rows)
{
  g_autofree char *selected = NULL;

  g_return_if_fail (EMBERS_IS_TOP_TABLE (self));
  g_return_if_fail (profile == NULL || EMBERS_IS_PROFILE (profile));

  /* The same profile and sample type give the same rows (embers_top_compute
   * is a function of them): a view switched with the transforms unchanged.
   * The table keeps its rows, scroll and selection; making them again cost
   * the switch's frame ~30 ms of rows built and measured on 1M nodes */
  if (profile != NULL && profile == self->profile && sample_type == self->sample_type
      && rows != NULL && (gint64)rows->len == self->n_rows_given)
    return;
  self->n_rows_given = profile != NULL && rows != NULL ? (gint64)rows->len : -1;

  selected = g_strdup (self->selected_name);

  if (g_set_object (&self->profile, profile))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROFILE]);
  if (self->search != NULL && embers_search_get_profile (self->search) != profile)
    g_clear_pointer (&self->search, embers_search_unref);

  self->sample_type = sample_type;
  g_clear_pointer (&self->unit, g_free);
  self->root_total = 0;
  if (profile != NULL)
    {
      self->unit = g_strdup (embers_profile_get_sample_unit (profile, sample_type));
      self->root_total = embers_profile_get_total (profile, sample_type);
    }

  embers_top_model_set_rows (self->model, profile, rows);
  /* Rows of a profile: nothing to explain */
  if (profile != NULL)
    embers_top_table_set_placeholder (self, NULL);

  embers_top_table_select_name (self, selected);
}

void
embers_top_table_set_placeholder (EmbersTopTable *self,
                                  const char     *text)
{
  g_return_if_fail (EMBERS_IS_TOP_TABLE (self));

  gtk_label_set_label (self->placeholder, text != NULL ? text : "");
  gtk_widget_set_visible (GTK_WIDGET (self->placeholder), text != NULL);
}

const char *
embers_top_table_get_placeholder (EmbersTopTable *self)
{
  g_return_val_if_fail (EMBERS_IS_TOP_TABLE (self), NULL);
  return gtk_widget_get_visible (GTK_WIDGET (self->placeholder)) ? gtk_label_get_label (self->placeholder) : NULL;
}

EmbersProfile *
embers_top_table_get_profile (EmbersTopTable *self)
{
  g_return_val_if_fail (EMBERS_IS_TOP_TABLE (self), NULL);
  return self->profile;
}

void
embers_top_table_set_search (EmbersTopTable *self,
                             EmbersSearch   *search)
{
  g_return_if_fail (EMBERS_IS_TOP_TABLE (self));

  if (search != NULL && embers_search_get_profile (search) != self->profile)
    search = NULL;
  if (search == self->search)
    return;

  if (search != NULL)
    embers_search_ref (search);
  g_clear_pointer (&self->search, embers_search_unref);
  self->search = search;
  {
    g_autofree char *selected = g_strdup (self->selected_name);

    embers_top_model_set_search (self->model, search);
    embers_top_table_select_name (self, selected);
  }
}

guint
embers_top_table_get_n_rows (EmbersTopTable *self)
{
  g_return_val_if_fail (EMBERS_IS_TOP_TABLE (self), 0);
  return embers_top_model_get_n_rows (self->model);
}

gboolean
embers_top_table_get_cut_selected (EmbersTopTable *self)
{
  g_return_val_if_fail (EMBERS_IS_TOP_TABLE (self), FALSE);
  return is_cut (self, gtk_single_selection_get_selected_item (self->selection));
}

guint
embers_top_table_get_n_cut (EmbersTopTable *self)
{
  g_return_val_if_fail (EMBERS_IS_TOP_TABLE (self), 0);
  return embers_top_model_get_cut_name (self->model) != G_MAXUINT32 ? embers_top_model_get_n_cut (self->model) : 0;
}

const char *
embers_top_table_get_selected_name (EmbersTopTable *self)
{
  g_return_val_if_fail (EMBERS_IS_TOP_TABLE (self), NULL);
  return self->selected_name;
}

static void
scroll_to (EmbersTopTable *self,
           guint           position)
{
  gtk_column_view_scroll_to (self->column_view, position, NULL, GTK_LIST_SCROLL_NONE, NULL);
}

void
embers_top_table_mark_name (EmbersTopTable *self,
                            const char *name,
                            gboolean    scroll)
{
  guint position;

  g_return_if_fail (EMBERS_IS_TOP_TABLE (self));

  position = embers_top_model_find_name (self->model, name);
  if (position != GTK_INVALID_LIST_POSITION)
    {
      /* A row the hover marked is scrolled to once it is clicked */
      gtk_single_selection_set_selected (self->selection, position);
      if (scroll)
        scroll_to (self, position);
      return;
    }

  gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
}

/* Column widths: what the user dragged the headers' edges to, by column
 * id, for the application to keep in its settings */

static GtkColumnViewColumn *
column_at (EmbersTopTable *self,
           guint           i)
{
  GtkColumnViewColumn *columns[] = {
    self->name_column, self->self_column, self->self_percent_column,
    self->total_column, self->total_percent_column,
  };

  return i < G_N_ELEMENTS (columns) ? columns[i] : NULL;
}

GVariant *
embers_top_table_dup_column_widths (EmbersTopTable *self)
{
  GVariantBuilder builder;
  GtkColumnViewColumn *column;

  g_return_val_if_fail (EMBERS_IS_TOP_TABLE (self), NULL);

  g_variant_builder_init (&builder, G_VARIANT_TYPE ("a{si}"));
  for (guint i = 0; (column = column_at (self, i)) != NULL; i++)
    if (gtk_column_view_column_get_fixed_width (column) > 0)
      g_variant_builder_add (&builder, "{si}", gtk_column_view_column_get_id (column),
                             (gint32)gtk_column_view_column_get_fixed_width (column));
  return g_variant_ref_sink (g_variant_builder_end (&builder));
}

void
embers_top_table_set_column_widths (EmbersTopTable *self,
                                    GVariant       *widths)
{
  GtkColumnViewColumn *column;

  g_return_if_fail (EMBERS_IS_TOP_TABLE (self));
  g_return_if_fail (widths == NULL || g_variant_is_of_type (widths, G_VARIANT_TYPE ("a{si}")));

  for (guint i = 0; (column = column_at (self, i)) != NULL; i++)
    {
      gint32 width = -1;

      if (widths != NULL)
        g_variant_lookup (widths, gtk_column_view_column_get_id (column), "i", &width);
      /* Hostile or stale settings: a width a person could have dragged */
      gtk_column_view_column_set_fixed_width (column, width > 0 ? CLAMP (width, 24, 4000) : -1);
    }
}

static void
on_column_width (EmbersTopTable *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COLUMN_WIDTHS]);
}

/* Keyboard: the flame graph's single keys work on the selected row too
 * (the column view has no type-ahead to eat them) */

static gboolean
name_key (GtkWidget *widget,
          GVariant  *args,
          gpointer   user_data)
{
  EmbersTopTable *self = EMBERS_TOP_TABLE (widget);

  /* The cut row: no function to act on; the key goes nowhere else */
  if (embers_top_table_get_cut_selected (self))
    {
      gtk_widget_error_bell (widget);
      return TRUE;
    }
  if (self->selected_name == NULL)
    return FALSE;
  return gtk_widget_activate_action (widget, g_variant_get_string (args, NULL), "s", self->selected_name);
}

static gboolean
plain_key (GtkWidget *widget,
           GVariant  *args,
           gpointer   user_data)
{
  return gtk_widget_activate_action (widget, g_variant_get_string (args, NULL), NULL);
}

void
embers_table_add_key_bindings (GtkWidgetClass *widget_class,
                               GtkShortcutFunc name_func)
{
  gtk_widget_class_add_binding (widget_class, GDK_KEY_s, 0, name_func, "s", "page.sandwich");
  gtk_widget_class_add_binding (widget_class, GDK_KEY_f, 0, name_func, "s", "page.focus-function");
  gtk_widget_class_add_binding (widget_class, GDK_KEY_Delete, 0, name_func, "s", "page.hide-frame");
  gtk_widget_class_add_binding (widget_class, GDK_KEY_KP_Delete, 0, name_func, "s", "page.hide-frame");
  gtk_widget_class_add_binding (widget_class, GDK_KEY_m, 0, name_func, "s", "page.merge-function");
  gtk_widget_class_add_binding (widget_class, GDK_KEY_d, 0, name_func, "s", "page.drop-function");
  gtk_widget_class_add_binding (widget_class, GDK_KEY_p, 0, name_func, "s", "page.collapse-package");
  gtk_widget_class_add_binding (widget_class, GDK_KEY_R, GDK_SHIFT_MASK, name_func, "s",
                                "page.collapse-function-recursion");
  gtk_widget_class_add_binding (widget_class, GDK_KEY_i, 0, plain_key, "s", "page.invert");
  gtk_widget_class_add_binding (widget_class, GDK_KEY_r, 0, plain_key, "s", "page.collapse-recursion");
  gtk_widget_class_add_binding (widget_class, GDK_KEY_slash, 0, plain_key, "s", "page.search");
  gtk_widget_class_add_binding (widget_class, GDK_KEY_KP_Divide, 0, plain_key, "s", "page.search");
}

/* GObject */

static void
embers_top_table_dispose (GObject *object)
{
  EmbersTopTable *self = EMBERS_TOP_TABLE (object);

  g_clear_object (&self->model);
  gtk_widget_dispose_template (GTK_WIDGET (self), EMBERS_TYPE_TOP_TABLE);
  g_clear_object (&self->selection);
  g_clear_object (&self->profile);
  g_clear_pointer (&self->search, embers_search_unref);

  G_OBJECT_CLASS (embers_top_table_parent_class)->dispose (object);
}

static void
embers_top_table_finalize (GObject *object)
{
  EmbersTopTable *self = EMBERS_TOP_TABLE (object);

  g_free (self->unit);
  g_free (self->selected_name);

  G_OBJECT_CLASS (embers_top_table_parent_class)->finalize (object);
}

static void
embers_top_table_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  EmbersTopTable *self = EMBERS_TOP_TABLE (object);

  switch (prop_id)
    {
    case PROP_PROFILE:
      g_value_set_object (value, self->profile);
      break;
    case PROP_SELECTED_NAME:
      g_value_set_string (value, self->selected_name);
      break;
    case PROP_N_ROWS:
      g_value_set_uint (value, embers_top_table_get_n_rows (self));
      break;
    case PROP_COLUMN_WIDTHS:
      g_value_take_variant (value, embers_top_table_dup_column_widths (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
embers_top_table_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  EmbersTopTable *self = EMBERS_TOP_TABLE (object);

  switch (prop_id)
    {
    case PROP_SELECTED_NAME:
      embers_top_table_select_name (self, g_value_get_string (value));
      break;
    case PROP_COLUMN_WIDTHS:
      embers_top_table_set_column_widths (self, g_value_get_variant (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
embers_top_table_class_init (EmbersTopTableClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = embers_top_table_dispose;
  object_class->finalize = embers_top_table_finalize;
  object_class->get_property = embers_top_table_get_property;
  object_class->set_property = embers_top_table_set_property;


  properties[PROP_PROFILE] =
    g_param_spec_object ("profile", NULL, NULL,
                         EMBERS_TYPE_PROFILE,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_SELECTED_NAME] =
    g_param_spec_string ("selected-name", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_N_ROWS] =
    g_param_spec_uint ("n-rows", NULL, NULL,
                       0, G_MAXUINT, 0,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  /* The width of each column the user resized, by column id ("name",
   * "self", "self-percent", "total", "total-percent"), in px */
  properties[PROP_COLUMN_WIDTHS] =
    g_param_spec_variant ("column-widths", NULL, NULL,
                          G_VARIANT_TYPE ("a{si}"), NULL,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  embers_table_add_key_bindings (widget_class, name_key);

  /**
   * EmbersTopTable::function-activated:
   * @name: the function name
   *
   * A row was double-clicked or activated with Enter.
   */
  signals[FUNCTION_ACTIVATED] =
    g_signal_new ("function-activated",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING);

  g_type_ensure (EMBERS_TYPE_TOP_ITEM);

  embers_widgets_ensure_resources ();
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/emberslab/Embers/embers-top-table.ui");
  gtk_widget_class_bind_template_child (widget_class, EmbersTopTable, scroller);
  gtk_widget_class_bind_template_child (widget_class, EmbersTopTable, column_view);
  gtk_widget_class_bind_template_child (widget_class, EmbersTopTable, name_column);
  gtk_widget_class_bind_template_child (widget_class, EmbersTopTable, self_column);
  gtk_widget_class_bind_template_child (widget_class, EmbersTopTable, self_percent_column);
  gtk_widget_class_bind_template_child (widget_class, EmbersTopTable, total_column);
  gtk_widget_class_bind_template_child (widget_class, EmbersTopTable, total_percent_column);
  gtk_widget_class_bind_template_child (widget_class, EmbersTopTable, placeholder);
  gtk_widget_class_bind_template_callback (widget_class, setup_name);
  gtk_widget_class_bind_template_callback (widget_class, bind_name);
  gtk_widget_class_bind_template_callback (widget_class, bind_row);
  gtk_widget_class_bind_template_callback (widget_class, setup_value);
  gtk_widget_class_bind_template_callback (widget_class, bind_self);
  gtk_widget_class_bind_template_callback (widget_class, bind_self_percent);
  gtk_widget_class_bind_template_callback (widget_class, bind_total);
  gtk_widget_class_bind_template_callback (widget_class, bind_total_percent);
  gtk_widget_class_bind_template_callback (widget_class, on_activate);

  gtk_widget_class_set_css_name (widget_class, "toptable");
}

/* The column view's sorter says which column and order; the model sorts
 * its rows itself (the columns' sorters only make the headers sortable) */
static void
on_sorter_changed (GtkColumnViewSorter *sorter,
                   GtkSorterChange      change,
                   EmbersTopTable      *self)
{
  GtkColumnViewColumn *column = gtk_column_view_sorter_get_primary_sort_column (sorter);
  GtkSortType order = gtk_column_view_sorter_get_primary_sort_order (sorter);
  g_autofree char *selected = NULL;
  EmbersTopSort sort;

  if (self->model == NULL)
    return;   /* disposed: the columns go away */
  selected = g_strdup (self->selected_name);

  if (column == self->name_column)
    sort = EMBERS_TOP_SORT_NAME;
  else if (column == self->total_column || column == self->total_percent_column)
    sort = EMBERS_TOP_SORT_TOTAL;
  else
    sort = EMBERS_TOP_SORT_SELF;

  embers_top_model_set_sort (self->model, sort, column == NULL || order == GTK_SORT_DESCENDING);
  embers_top_table_select_name (self, selected);
}

static void
embers_top_table_init (EmbersTopTable *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->n_rows_given = -1;
  self->model = embers_top_model_new ();
  self->selection = gtk_single_selection_new (G_LIST_MODEL (g_object_ref (self->model)));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (self->selection));
  g_signal_connect_object (gtk_column_view_get_sorter (self->column_view), "changed",
                           G_CALLBACK (on_sorter_changed), self, 0);
  gtk_column_view_sort_by_column (self->column_view, self->self_column, GTK_SORT_DESCENDING);
  embers_column_view_add_sort_keys (self->column_view);

  g_signal_connect_object (self->selection, "notify::selected-item",
                           G_CALLBACK (on_selection_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->selection, "items-changed",
                           G_CALLBACK (on_items_changed), self, G_CONNECT_SWAPPED);
  for (guint i = 0; column_at (self, i) != NULL; i++)
    g_signal_connect_object (column_at (self, i), "notify::fixed-width",
                             G_CALLBACK (on_column_width), self, G_CONNECT_SWAPPED);
}

GtkWidget *
embers_top_table_new (void)
{
  return g_object_new (EMBERS_TYPE_TOP_TABLE, NULL);
}

void
embers_top_table_select_name (EmbersTopTable *self,
                              const char *name)
{
  embers_top_table_mark_name (self, name, TRUE);
}
