/* embers-rule-rows.c: a recording rule's matchers or external labels
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "embers-rule-rows.h"

struct _EmbersRuleRows
{
  GtkWidget  parent_instance;

  gboolean   pairs;
  GtkLabel  *label;       /* whose mnemonic goes to the first entry */
  GtkWidget *add_button;  /* the mnemonic's target while there are no rows */
  GtkWidget *message;     /* describes every entry */
};

G_DEFINE_FINAL_TYPE (EmbersRuleRows, embers_rule_rows, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_PAIRS,
  PROP_LABEL,
  PROP_ADD_BUTTON,
  PROP_MESSAGE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  SIGNAL_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* A row is a box: entry, or name entry, "=", value entry; then the
 * remove button */
static GtkWidget *
nth_row (EmbersRuleRows *self,
         guint           n)
{
  GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (self));

  for (guint i = 0; row != NULL && i < n; i++)
    row = gtk_widget_get_next_sibling (row);
  return row;
}

static GtkWidget *
value_of (GtkWidget *row)
{
  return gtk_widget_get_next_sibling (gtk_widget_get_next_sibling (gtk_widget_get_first_child (row)));
}

/* Names for screen readers, and the label's mnemonic */
static void
update_names (EmbersRuleRows *self)
{
  GtkWidget *first = gtk_widget_get_first_child (GTK_WIDGET (self));
  guint n = 0;

  if (self->label != NULL)
    gtk_label_set_mnemonic_widget (self->label, first != NULL ? gtk_widget_get_first_child (first)
                                                              : self->add_button);

  for (GtkWidget *row = first; row != NULL; row = gtk_widget_get_next_sibling (row))
    {
      GtkWidget *remove = gtk_widget_get_last_child (row);
      g_autofree char *name = NULL;
      g_autofree char *remove_name = NULL;

      n++;
      if (self->pairs)
        {
          /* Translators: accessible names of the parts of the nth external label (name=value) */
          g_autofree char *value = g_strdup_printf (_("Value of external label %u"), n);

          name = g_strdup_printf (_("Name of external label %u"), n);
          remove_name = g_strdup_printf (_("Remove external label %u"), n);
          gtk_accessible_update_property (GTK_ACCESSIBLE (value_of (row)), GTK_ACCESSIBLE_PROPERTY_LABEL, value, -1);
        }
      else
        {
          /* Translators: the accessible name of a rule's nth matcher string */
          name = g_strdup_printf (_("Matcher %u"), n);
          /* Translators: the accessible name of the button that removes the rule's nth matcher string */
          remove_name = g_strdup_printf (_("Remove matcher %u"), n);
        }
      gtk_accessible_update_property (GTK_ACCESSIBLE (gtk_widget_get_first_child (row)),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
      gtk_accessible_update_property (GTK_ACCESSIBLE (remove), GTK_ACCESSIBLE_PROPERTY_LABEL, remove_name, -1);
    }
}

static void
changed (EmbersRuleRows *self)
{
  g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
}

static void
remove_row (GtkButton      *button,
            EmbersRuleRows *self)
{
  GtkWidget *row = gtk_widget_get_parent (GTK_WIDGET (button));
  GtkWidget *next = gtk_widget_get_next_sibling (row) ? gtk_widget_get_next_sibling (row)
                                                      : gtk_widget_get_prev_sibling (row);

  /* Focus moves to the neighbour (or the Add button), not to the window */
  if (next != NULL)
    gtk_widget_grab_focus (gtk_widget_get_first_child (next));
  else if (self->add_button != NULL)
    gtk_widget_grab_focus (self->add_button);
  gtk_widget_unparent (row);
  update_names (self);
  changed (self);
}

static GtkWidget *
new_entry (EmbersRuleRows *self,
           const char     *text,
           const char     *placeholder)
{
  GtkWidget *entry = gtk_entry_new ();

  gtk_editable_set_text (GTK_EDITABLE (entry), text ? text : "");
  gtk_entry_set_placeholder_text (GTK_ENTRY (entry), placeholder);
  /* Enter creates (or saves) once the rule is valid */
  gtk_entry_set_activates_default (GTK_ENTRY (entry), TRUE);
  gtk_widget_set_hexpand (entry, TRUE);
  if (self->message != NULL)
    gtk_accessible_update_relation (GTK_ACCESSIBLE (entry), GTK_ACCESSIBLE_RELATION_DESCRIBED_BY,
                                    self->message, NULL, -1);
  g_signal_connect_object (entry, "changed", G_CALLBACK (changed), self, G_CONNECT_SWAPPED);
  return entry;
}

GtkWidget *
embers_rule_rows_insert (EmbersRuleRows *self,
                         int             position,
                         const char     *name,
                         const char     *value)
{
  GtkWidget *row, *entry, *remove;

  g_return_val_if_fail (EMBERS_IS_RULE_ROWS (self), NULL);

  row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
  if (self->pairs)
    {
      GtkWidget *equals = gtk_label_new ("=");

      /* Translators: placeholders of an external label's name and value */
      entry = new_entry (self, name, C_("external label", "name"));
      gtk_editable_set_width_chars (GTK_EDITABLE (entry), 10);
      gtk_widget_add_css_class (equals, "dim-label");
      gtk_box_append (GTK_BOX (row), entry);
      gtk_box_append (GTK_BOX (row), equals);
      gtk_box_append (GTK_BOX (row), new_entry (self, value, C_("external label", "value")));
    }
  else
    {
      entry = new_entry (self, name, _("{service_name=\"…\"}"));
      gtk_box_append (GTK_BOX (row), entry);
    }
  remove = gtk_button_new_from_icon_name ("list-remove-symbolic");
  gtk_widget_add_css_class (remove, "flat");
  gtk_widget_set_valign (remove, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (remove, self->pairs ? _("Remove this label") : _("Remove this matcher"));
  g_signal_connect_object (remove, "clicked", G_CALLBACK (remove_row), self, 0);
  gtk_box_append (GTK_BOX (row), remove);

  if (position < 0 || (guint)position >= embers_rule_rows_get_n (self))
    gtk_widget_insert_before (row, GTK_WIDGET (self), NULL);
  else
    gtk_widget_insert_before (row, GTK_WIDGET (self), nth_row (self, position));
  update_names (self);
  return entry;
}

void
embers_rule_rows_set (EmbersRuleRows     *self,
                      const char * const *names,
                      const char * const *values)
{
  GtkWidget *child;

  g_return_if_fail (EMBERS_IS_RULE_ROWS (self));

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  for (guint i = 0; names != NULL && names[i] != NULL; i++)
    embers_rule_rows_insert (self, -1, names[i], values != NULL && values[i] != NULL ? values[i] : "");
  update_names (self);
}

guint
embers_rule_rows_get_n (EmbersRuleRows *self)
{
  guint n = 0;

  g_return_val_if_fail (EMBERS_IS_RULE_ROWS (self), 0);

  for (GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (self)); row; row = gtk_widget_get_next_sibling (row))
    n++;
  return n;
}

GtkEditable *
embers_rule_rows_get_entry (EmbersRuleRows *self,
                            guint           n)
{
  GtkWidget *row;

  g_return_val_if_fail (EMBERS_IS_RULE_ROWS (self), NULL);

  row = nth_row (self, n);
  return row != NULL ? GTK_EDITABLE (gtk_widget_get_first_child (row)) : NULL;
}

GtkEditable *
embers_rule_rows_get_value (EmbersRuleRows *self,
                            guint           n)
{
  GtkWidget *row;

  g_return_val_if_fail (EMBERS_IS_RULE_ROWS (self), NULL);

  row = nth_row (self, n);
  return row != NULL && self->pairs ? GTK_EDITABLE (value_of (row)) : NULL;
}

char *
embers_rule_rows_dup_text (EmbersRuleRows *self)
{
  g_autoptr(GString) text = g_string_new (NULL);

  g_return_val_if_fail (EMBERS_IS_RULE_ROWS (self), NULL);

  for (GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (self)); row; row = gtk_widget_get_next_sibling (row))
    {
      if (text->len > 0)
        g_string_append_c (text, '\n');
      g_string_append (text, gtk_editable_get_text (GTK_EDITABLE (gtk_widget_get_first_child (row))));
      if (self->pairs)
        g_string_append_printf (text, "=%s", gtk_editable_get_text (GTK_EDITABLE (value_of (row))));
    }
  return g_string_free (g_steal_pointer (&text), FALSE);
}

static void
embers_rule_rows_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  EmbersRuleRows *self = EMBERS_RULE_ROWS (object);

  switch (prop_id)
    {
    case PROP_PAIRS:
      g_value_set_boolean (value, self->pairs);
      break;
    case PROP_LABEL:
      g_value_set_object (value, self->label);
      break;
    case PROP_ADD_BUTTON:
      g_value_set_object (value, self->add_button);
      break;
    case PROP_MESSAGE:
      g_value_set_object (value, self->message);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
embers_rule_rows_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  EmbersRuleRows *self = EMBERS_RULE_ROWS (object);

  /* Widgets of the same form: they outlive no row, so not referenced */
  switch (prop_id)
    {
    case PROP_PAIRS:
      self->pairs = g_value_get_boolean (value);
      break;
    case PROP_LABEL:
      self->label = g_value_get_object (value);
      update_names (self);
      break;
    case PROP_ADD_BUTTON:
      self->add_button = g_value_get_object (value);
      update_names (self);
      break;
    case PROP_MESSAGE:
      self->message = g_value_get_object (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
embers_rule_rows_dispose (GObject *object)
{
  EmbersRuleRows *self = EMBERS_RULE_ROWS (object);
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  self->label = NULL;
  self->add_button = NULL;
  self->message = NULL;

  G_OBJECT_CLASS (embers_rule_rows_parent_class)->dispose (object);
}

static void
embers_rule_rows_class_init (EmbersRuleRowsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GParamFlags flags = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS;

  object_class->dispose = embers_rule_rows_dispose;
  object_class->get_property = embers_rule_rows_get_property;
  object_class->set_property = embers_rule_rows_set_property;

  properties[PROP_PAIRS] = g_param_spec_boolean ("pairs", NULL, NULL, FALSE, flags | G_PARAM_CONSTRUCT_ONLY);
  properties[PROP_LABEL] = g_param_spec_object ("label", NULL, NULL, GTK_TYPE_LABEL, flags);
  properties[PROP_ADD_BUTTON] = g_param_spec_object ("add-button", NULL, NULL, GTK_TYPE_WIDGET, flags);
  properties[PROP_MESSAGE] = g_param_spec_object ("message", NULL, NULL, GTK_TYPE_WIDGET, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * EmbersRuleRows::changed:
   *
   * A person edited an entry or removed a row.
   */
  signals[SIGNAL_CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                          0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "rulerows");
}

static void
embers_rule_rows_init (EmbersRuleRows *self)
{
  GtkLayoutManager *layout = gtk_widget_get_layout_manager (GTK_WIDGET (self));

  gtk_orientable_set_orientation (GTK_ORIENTABLE (layout), GTK_ORIENTATION_VERTICAL);
  gtk_box_layout_set_spacing (GTK_BOX_LAYOUT (layout), 4);
}

GtkWidget *
embers_rule_rows_new (gboolean pairs)
{
  return g_object_new (EMBERS_TYPE_RULE_ROWS, "pairs", pairs, NULL);
}
