/* embers-sparkline.h: a small line of a function's share, snapshot by snapshot
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "embers-diff-stats.h"
#include "embers-palette.h"

G_BEGIN_DECLS

#define EMBERS_TYPE_SPARKLINE (embers_sparkline_get_type ())

G_DECLARE_FINAL_TYPE (EmbersSparkline, embers_sparkline, EMBERS, SPARKLINE, GtkWidget)

/*
 * A line through @n values (a function's share in each snapshot, the
 * baseline first, on the left), scaled to its own largest value, with a
 * dot on the baseline; the step @jump → @jump + 1 drawn thick in the diff
 * palette's colour for @verdict (grew: red; shrank: blue or green), so a
 * flagged jump stands out in a column of them. Points are computed by
 * embers_snapshots_sparkline(). Its accessible label is set by whoever
 * knows the words (the row's text).
 */
GtkWidget *embers_sparkline_new         (void);
void       embers_sparkline_set_values  (EmbersSparkline     *self,
                                         const double        *values,
                                         guint                n);
guint      embers_sparkline_get_n_values (EmbersSparkline    *self);
/* -1: none */
void       embers_sparkline_set_jump    (EmbersSparkline     *self,
                                         int                  jump,
                                         EmbersChangeVerdict  verdict);
int        embers_sparkline_get_jump    (EmbersSparkline     *self);
void       embers_sparkline_set_palette (EmbersSparkline     *self,
                                         EmbersDiffPalette    palette);
/* A small chart of a series over a range instead: a bar per point, none
 * for a gap (NAN), no baseline dot, 40 px tall and as wide as it is
 * given */
void       embers_sparkline_set_area    (EmbersSparkline     *self,
                                         gboolean             area);
gboolean   embers_sparkline_get_area    (EmbersSparkline     *self);

G_END_DECLS
