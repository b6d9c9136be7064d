/* embers-rule-group-by.c: label names as toggles for a rule's group-by
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "embers-rule-group-by.h"

struct _EmbersRuleGroupBy
{
  GtkWidget   parent_instance;

  GtkFlowBox *chips;
  char       *text;
};

G_DEFINE_FINAL_TYPE (EmbersRuleGroupBy, embers_rule_group_by, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_TEXT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

GStrv
embers_rule_group_by_split (const char *text)
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

static const char *
toggle_name (GtkWidget *toggle)
{
  return g_object_get_data (G_OBJECT (toggle), "label-name");
}

static GtkToggleButton *
toggle_of (GtkWidget *child)
{
  return GTK_TOGGLE_BUTTON (gtk_flow_box_child_get_child (GTK_FLOW_BOX_CHILD (child)));
}

/* The toggles show the text */
static void
show_text (EmbersRuleGroupBy *self)
{
  g_auto(GStrv) names = embers_rule_group_by_split (self->text);

  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->chips));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkToggleButton *toggle = toggle_of (child);

      gtk_toggle_button_set_active (toggle, g_strv_contains ((const char * const *)names,
                                                             toggle_name (GTK_WIDGET (toggle))));
    }
}

/* A toggle adds or removes its name; one that already agrees with the
 * text (set by show_text) changes nothing */
static void
on_toggled (GtkToggleButton   *toggle,
            EmbersRuleGroupBy *self)
{
  g_auto(GStrv) names = embers_rule_group_by_split (self->text);
  g_autoptr(GStrvBuilder) builder = NULL;
  g_auto(GStrv) result = NULL;
  g_autofree char *text = NULL;
  const char *name = toggle_name (GTK_WIDGET (toggle));
  gboolean active = gtk_toggle_button_get_active (toggle);

  if (g_strv_contains ((const char * const *)names, name) == active)
    return;

  builder = g_strv_builder_new ();
  for (guint i = 0; names[i]; i++)
    if (!g_str_equal (names[i], name))
      g_strv_builder_add (builder, names[i]);
  if (active)
    g_strv_builder_add (builder, name);
  result = g_strv_builder_end (builder);
  text = g_strjoinv (", ", result);
  embers_rule_group_by_set_text (self, text);
}

const char *
embers_rule_group_by_get_text (EmbersRuleGroupBy *self)
{
  g_return_val_if_fail (EMBERS_IS_RULE_GROUP_BY (self), NULL);
  return self->text ? self->text : "";
}

void
embers_rule_group_by_set_text (EmbersRuleGroupBy *self,
                               const char        *text)
{
  g_return_if_fail (EMBERS_IS_RULE_GROUP_BY (self));

  if (g_strcmp0 (self->text ? self->text : "", text ? text : "") == 0)
    return;
  g_free (self->text);
  self->text = g_strdup (text ? text : "");
  show_text (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TEXT]);
}

void
embers_rule_group_by_set_choices (EmbersRuleGroupBy  *self,
                                  const char * const *names)
{
  GtkWidget *child;

  g_return_if_fail (EMBERS_IS_RULE_GROUP_BY (self));

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->chips))) != NULL)
    gtk_flow_box_remove (self->chips, child);

  for (guint i = 0; names != NULL && names[i]; i++)
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
      g_signal_connect_object (toggle, "toggled", G_CALLBACK (on_toggled), self, 0);
      gtk_flow_box_append (self->chips, toggle);
    }
  show_text (self);
  gtk_widget_set_visible (GTK_WIDGET (self), embers_rule_group_by_get_n_choices (self) > 0);
}

guint
embers_rule_group_by_get_n_choices (EmbersRuleGroupBy *self)
{
  guint n = 0;

  g_return_val_if_fail (EMBERS_IS_RULE_GROUP_BY (self), 0);

  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->chips));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    n++;
  return n;
}

gboolean
embers_rule_group_by_toggle (EmbersRuleGroupBy *self,
                             const char        *name)
{
  g_return_val_if_fail (EMBERS_IS_RULE_GROUP_BY (self), FALSE);

  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->chips));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkToggleButton *toggle = toggle_of (child);

      if (g_strcmp0 (toggle_name (GTK_WIDGET (toggle)), name) == 0)
        {
          gtk_toggle_button_set_active (toggle, !gtk_toggle_button_get_active (toggle));
          return TRUE;
        }
    }
  return FALSE;
}

static void
embers_rule_group_by_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  EmbersRuleGroupBy *self = EMBERS_RULE_GROUP_BY (object);

  switch (prop_id)
    {
    case PROP_TEXT:
      g_value_set_string (value, embers_rule_group_by_get_text (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
embers_rule_group_by_set_property (GObject      *object,
                                   guint         prop_id,
                                   const GValue *value,
                                   GParamSpec   *pspec)
{
  EmbersRuleGroupBy *self = EMBERS_RULE_GROUP_BY (object);

  switch (prop_id)
    {
    case PROP_TEXT:
      embers_rule_group_by_set_text (self, g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
embers_rule_group_by_dispose (GObject *object)
{
  EmbersRuleGroupBy *self = EMBERS_RULE_GROUP_BY (object);

  g_clear_pointer ((GtkWidget **)&self->chips, gtk_widget_unparent);
  g_clear_pointer (&self->text, g_free);

  G_OBJECT_CLASS (embers_rule_group_by_parent_class)->dispose (object);
}

static void
embers_rule_group_by_class_init (EmbersRuleGroupByClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = embers_rule_group_by_dispose;
  object_class->get_property = embers_rule_group_by_get_property;
  object_class->set_property = embers_rule_group_by_set_property;

  properties[PROP_TEXT] =
    g_param_spec_string ("text", NULL, NULL, "",
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "rulegroupby");
}

static void
embers_rule_group_by_init (EmbersRuleGroupBy *self)
{
  self->text = g_strdup ("");
  self->chips = GTK_FLOW_BOX (gtk_flow_box_new ());
  gtk_flow_box_set_selection_mode (self->chips, GTK_SELECTION_NONE);
  gtk_flow_box_set_min_children_per_line (self->chips, 2);
  gtk_flow_box_set_max_children_per_line (self->chips, 32);
  gtk_flow_box_set_column_spacing (self->chips, 4);
  gtk_flow_box_set_row_spacing (self->chips, 4);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->chips), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Label names to group by"), -1);
  gtk_widget_set_parent (GTK_WIDGET (self->chips), GTK_WIDGET (self));
  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
}

GtkWidget *
embers_rule_group_by_new (void)
{
  return g_object_new (EMBERS_TYPE_RULE_GROUP_BY, NULL);
}
