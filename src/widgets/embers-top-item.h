/* embers-top-item.h: one row of the top table
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define EMBERS_TYPE_TOP_ITEM (embers_top_item_get_type ())

G_DECLARE_FINAL_TYPE (EmbersTopItem, embers_top_item, EMBERS, TOP_ITEM, GObject)

EmbersTopItem *embers_top_item_new         (const char *name,
                                            guint32     name_id,
                                            gint64      self_value,
                                            gint64      total_value);
const char    *embers_top_item_get_name    (EmbersTopItem *self);
guint32        embers_top_item_get_name_id (EmbersTopItem *self);
gint64         embers_top_item_get_self    (EmbersTopItem *self);
gint64         embers_top_item_get_total   (EmbersTopItem *self);

G_END_DECLS
