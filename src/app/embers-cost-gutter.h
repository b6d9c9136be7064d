/* embers-cost-gutter.h: a source view gutter showing each line's cost
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtksourceview/gtksource.h>

#include "embers-function-details.h"

G_BEGIN_DECLS

#define EMBERS_TYPE_COST_GUTTER (embers_cost_gutter_get_type ())

G_DECLARE_FINAL_TYPE (EmbersCostGutter, embers_cost_gutter, EMBERS, COST_GUTTER, GtkSourceGutterRendererText)

/* Each line with samples shows its total (in @unit) over a bar as long as
 * its share of the heaviest line's */
EmbersCostGutter *embers_cost_gutter_new       (void);
void              embers_cost_gutter_set_costs (EmbersCostGutter      *self,
                                                EmbersFunctionDetails *details,
                                                const char            *unit);
/* The bar's colour, for tests */
void              embers_cost_gutter_get_color (EmbersCostGutter      *self,
                                                GdkRGBA               *color);

G_END_DECLS
