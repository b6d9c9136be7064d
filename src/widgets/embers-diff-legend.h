/* embers-diff-legend.h: the colour key of a diff flame graph
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "embers-render.h"

G_BEGIN_DECLS

#define EMBERS_TYPE_DIFF_LEGEND (embers_diff_legend_get_type ())

G_DECLARE_FINAL_TYPE (EmbersDiffLegend, embers_diff_legend, EMBERS, DIFF_LEGEND, GtkWidget)

/*
 * EmbersDiffLegend paints embers_render_paint_legend(): "shrank" [gradient]
 * "grew" and the palette and mode in words. Properties "palette"
 * (EmbersDiffPalette as guint) and "mode" (EmbersDiffMode as guint). Its
 * accessible label says what the colours mean, e.g. "Diff colours: red =
 * grew, blue = shrank, grey = unchanged; change of share of total".
 */

GtkWidget         *embers_diff_legend_new          (void);

EmbersDiffPalette  embers_diff_legend_get_palette  (EmbersDiffLegend  *self);
void               embers_diff_legend_set_palette  (EmbersDiffLegend  *self,
                                                    EmbersDiffPalette  palette);
EmbersDiffMode     embers_diff_legend_get_mode     (EmbersDiffLegend  *self);
void               embers_diff_legend_set_mode     (EmbersDiffLegend  *self,
                                                    EmbersDiffMode     mode);
/* The accessible label (also used as the tooltip) */
char              *embers_diff_legend_describe     (EmbersDiffPalette  palette,
                                                    EmbersDiffMode     mode);

G_END_DECLS
