/* embers-rule-type-chooser.c: the profile type of a new recording rule
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "embers-accessible.h"
#include "embers-drop-down.h"
#include "embers-rule-type-chooser.h"

/* The type a new rule starts with when the source has it */
#define CPU_TYPE "process_cpu:cpu:nanoseconds:cpu:nanoseconds"

struct _EmbersRuleTypeChooser
{
  GtkWidget      parent_instance;

  GtkDropDown   *drop_down;
  GtkStringList *ids;
  gboolean       loaded;        /* ids holds the source's types */
  char          *profile_type;
  char          *current;       /* the rule's, while loading */
};

G_DEFINE_FINAL_TYPE (EmbersRuleTypeChooser, embers_rule_type_chooser, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_PROFILE_TYPE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static guint
position_of (EmbersRuleTypeChooser *self,
             const char            *type)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->ids));

  for (guint i = 0; i < n; i++)
    if (g_strcmp0 (gtk_string_list_get_string (self->ids, i), type) == 0)
      return i;
  return GTK_INVALID_LIST_POSITION;
}

static void
choose (EmbersRuleTypeChooser *self,
        const char            *type)
{
  if (g_strcmp0 (self->profile_type, type) == 0)
    return;
  g_free (self->profile_type);
  self->profile_type = g_strdup (type);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROFILE_TYPE]);
}

static void
on_selected (EmbersRuleTypeChooser *self)
{
  guint position = gtk_drop_down_get_selected (self->drop_down);

  /* While the list fills, the selection passes positions nobody chose */
  if (!self->loaded || position == GTK_INVALID_LIST_POSITION)
    return;
  choose (self, gtk_string_list_get_string (self->ids, position));
}

static void
types_done (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(EmbersRuleTypeChooser) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) types = embers_source_list_profile_types_finish (EMBERS_SOURCE (object), result, &error);
  const char *current = self->current;
  guint position;

  if (types == NULL)
    {
      /* Only a convenience: the matchers still take any type */
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_debug ("No profile types for the rule dialog: %s", error->message);
      return;
    }

  self->loaded = FALSE;
  gtk_string_list_splice (self->ids, 0, g_list_model_get_n_items (G_LIST_MODEL (self->ids)), NULL);
  for (guint i = 0; i < types->len; i++)
    gtk_string_list_append (self->ids, ((EmbersProfileTypeInfo *)g_ptr_array_index (types, i))->id);
  if (!g_str_equal (current, "unknown") && position_of (self, current) == GTK_INVALID_LIST_POSITION)
    gtk_string_list_append (self->ids, current);
  self->loaded = TRUE;

  /* The rule's type; none yet (New Rule…): CPU when the server has it,
   * else the first, so that the rule starts out valid */
  position = position_of (self, current);
  if (position == GTK_INVALID_LIST_POSITION)
    position = position_of (self, CPU_TYPE);
  if (position == GTK_INVALID_LIST_POSITION && types->len > 0)
    position = 0;
  gtk_widget_set_visible (GTK_WIDGET (self), TRUE);
  if (position != GTK_INVALID_LIST_POSITION)
    {
      gtk_drop_down_set_selected (self->drop_down, position);
      choose (self, gtk_string_list_get_string (self->ids, position));
    }
}

void
embers_rule_type_chooser_load (EmbersRuleTypeChooser *self,
                               EmbersSource          *source,
                               const char            *current,
                               GCancellable          *cancellable)
{
  gint64 end = g_get_real_time () / 1000;

  g_return_if_fail (EMBERS_IS_RULE_TYPE_CHOOSER (self));
  g_return_if_fail (EMBERS_IS_SOURCE (source));

  g_free (self->current);
  self->current = g_strdup (current != NULL ? current : "unknown");
  embers_source_list_profile_types (source, end - 24 * 3600 * 1000, end, cancellable,
                                    types_done, g_object_ref (self));
}

const char *
embers_rule_type_chooser_get_profile_type (EmbersRuleTypeChooser *self)
{
  g_return_val_if_fail (EMBERS_IS_RULE_TYPE_CHOOSER (self), NULL);
  return self->profile_type;
}

gboolean
embers_rule_type_chooser_set_profile_type (EmbersRuleTypeChooser *self,
                                           const char            *type)
{
  guint position;

  g_return_val_if_fail (EMBERS_IS_RULE_TYPE_CHOOSER (self), FALSE);

  position = position_of (self, type);
  if (!self->loaded || position == GTK_INVALID_LIST_POSITION)
    return FALSE;
  /* on_selected finds it chosen */
  choose (self, type);
  gtk_drop_down_set_selected (self->drop_down, position);
  return TRUE;
}

guint
embers_rule_type_chooser_get_n_types (EmbersRuleTypeChooser *self)
{
  g_return_val_if_fail (EMBERS_IS_RULE_TYPE_CHOOSER (self), 0);
  return self->loaded ? g_list_model_get_n_items (G_LIST_MODEL (self->ids)) : 0;
}

static void
embers_rule_type_chooser_get_property (GObject    *object,
                                       guint       prop_id,
                                       GValue     *value,
                                       GParamSpec *pspec)
{
  EmbersRuleTypeChooser *self = EMBERS_RULE_TYPE_CHOOSER (object);

  switch (prop_id)
    {
    case PROP_PROFILE_TYPE:
      g_value_set_string (value, self->profile_type);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
embers_rule_type_chooser_dispose (GObject *object)
{
  EmbersRuleTypeChooser *self = EMBERS_RULE_TYPE_CHOOSER (object);

  g_clear_pointer ((GtkWidget **)&self->drop_down, gtk_widget_unparent);
  g_clear_object (&self->ids);
  g_clear_pointer (&self->profile_type, g_free);
  g_clear_pointer (&self->current, g_free);

  G_OBJECT_CLASS (embers_rule_type_chooser_parent_class)->dispose (object);
}

static void
embers_rule_type_chooser_class_init (EmbersRuleTypeChooserClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = embers_rule_type_chooser_dispose;
  object_class->get_property = embers_rule_type_chooser_get_property;

  properties[PROP_PROFILE_TYPE] =
    g_param_spec_string ("profile-type", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "ruletypechooser");
}

static void
embers_rule_type_chooser_init (EmbersRuleTypeChooser *self)
{
  self->ids = gtk_string_list_new (NULL);
  self->drop_down = GTK_DROP_DOWN (gtk_drop_down_new (G_LIST_MODEL (g_object_ref (self->ids)), NULL));
  embers_drop_down_shorten_on_button (self->drop_down);
  embers_accessible_set_label (GTK_WIDGET (self->drop_down), _("Profile Type"));
  gtk_widget_set_hexpand (GTK_WIDGET (self->drop_down), TRUE);
  g_signal_connect_object (self->drop_down, "notify::selected", G_CALLBACK (on_selected), self, G_CONNECT_SWAPPED);
  gtk_widget_set_parent (GTK_WIDGET (self->drop_down), GTK_WIDGET (self));
  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
}

GtkWidget *
embers_rule_type_chooser_new (void)
{
  return g_object_new (EMBERS_TYPE_RULE_TYPE_CHOOSER, NULL);
}
