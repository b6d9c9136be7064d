/* embers-top-item.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "embers-top-item.h"

struct _EmbersTopItem
{
  GObject  parent_instance;

  char    *name;
  guint32  name_id;
  gint64   self_value;
  gint64   total_value;
};

enum {
  PROP_0,
  PROP_NAME,
  PROP_NAME_ID,
  PROP_SELF,
  PROP_TOTAL,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (EmbersTopItem, embers_top_item, G_TYPE_OBJECT)

static void
embers_top_item_finalize (GObject *object)
{
  EmbersTopItem *self = EMBERS_TOP_ITEM (object);

  g_free (self->name);

  G_OBJECT_CLASS (embers_top_item_parent_class)->finalize (object);
}

static void
embers_top_item_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  EmbersTopItem *self = EMBERS_TOP_ITEM (object);

  switch (prop_id)
    {
    case PROP_NAME:
      g_value_set_string (value, self->name);
      break;
    case PROP_NAME_ID:
      g_value_set_uint (value, self->name_id);
      break;
    case PROP_SELF:
      g_value_set_int64 (value, self->self_value);
      break;
    case PROP_TOTAL:
      g_value_set_int64 (value, self->total_value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
embers_top_item_class_init (EmbersTopItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = embers_top_item_finalize;
  object_class->get_property = embers_top_item_get_property;

  properties[PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  properties[PROP_NAME_ID] =
    g_param_spec_uint ("name-id", NULL, NULL, 0, G_MAXUINT32, 0,
                       (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  properties[PROP_SELF] =
    g_param_spec_int64 ("self", NULL, NULL, G_MININT64, G_MAXINT64, 0,
                        (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  properties[PROP_TOTAL] =
    g_param_spec_int64 ("total", NULL, NULL, G_MININT64, G_MAXINT64, 0,
                        (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
embers_top_item_init (EmbersTopItem *self)
{
}

EmbersTopItem *
embers_top_item_new (const char *name,
                     guint32     name_id,
                     gint64      self_value,
                     gint64      total_value)
{
  EmbersTopItem *self = g_object_new (EMBERS_TYPE_TOP_ITEM, NULL);

  self->name = g_strdup (name);
  self->name_id = name_id;
  self->self_value = self_value;
  self->total_value = total_value;
  return self;
}

const char *
embers_top_item_get_name (EmbersTopItem *self)
{
  g_return_val_if_fail (EMBERS_IS_TOP_ITEM (self), NULL);
  return self->name;
}

guint32
embers_top_item_get_name_id (EmbersTopItem *self)
{
  g_return_val_if_fail (EMBERS_IS_TOP_ITEM (self), 0);
  return self->name_id;
}

gint64
embers_top_item_get_self (EmbersTopItem *self)
{
  g_return_val_if_fail (EMBERS_IS_TOP_ITEM (self), 0);
  return self->self_value;
}

gint64
embers_top_item_get_total (EmbersTopItem *self)
{
  g_return_val_if_fail (EMBERS_IS_TOP_ITEM (self), 0);
  return self->total_value;
}
