/* embers-series-chart.h: a time-series chart with a selectable range
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "embers-chart.h"

G_BEGIN_DECLS

#define EMBERS_TYPE_SERIES_CHART (embers_series_chart_get_type ())

G_DECLARE_FINAL_TYPE (EmbersSeriesChart, embers_series_chart, EMBERS, SERIES_CHART, GtkWidget)

/*
 * EmbersSeriesChart shows the lines of a core EmbersChart. Dragging
 * across it selects a time range (drawn shaded) and emits
 * "range-selected" (gint64 from_ms, gint64 to_ms) when the drag ends.
 * It takes keyboard focus: Left/Right move the selection by a twentieth
 * of the time range, Shift+Left/Right move its end, Enter (or Space)
 * emits "range-selected" for it, Escape goes back to the last one
 * applied (actions chart.move "(ib)" steps, resize; chart.apply;
 * chart.revert);
 * hovering shows the nearest point ("eu — 12.3 ms at 14:05:00") as a
 * tooltip. Its accessible description is embers_chart_accessible_text().
 */

GtkWidget   *embers_series_chart_new            (void);

/* @series: EmbersSeries (copied); @label_name names the series' legend
 * label (nullable); @unit the values' unit (nullable) */
void         embers_series_chart_set_series     (EmbersSeriesChart *self,
                                                 GPtrArray         *series,
                                                 const char        *label_name,
                                                 const char        *unit);
void         embers_series_chart_set_time_range (EmbersSeriesChart *self,
                                                 gint64             start_ms,
                                                 gint64             end_ms);
void         embers_series_chart_get_time_range (EmbersSeriesChart *self,
                                                 gint64            *start_ms,
                                                 gint64            *end_ms);
/* The shaded range; setting it emits nothing */
void         embers_series_chart_set_selection  (EmbersSeriesChart *self,
                                                 gint64             from_ms,
                                                 gint64             to_ms);
gboolean     embers_series_chart_get_selection  (EmbersSeriesChart *self,
                                                 gint64            *from_ms,
                                                 gint64            *to_ms);
void         embers_series_chart_clear_selection (EmbersSeriesChart *self);

/* What a drag from x_from to x_to (widget px) does: selects that range
 * and emits "range-selected". FALSE (nothing happens) for a drag shorter
 * than 3 px or when the chart has no time range. */
gboolean     embers_series_chart_drag           (EmbersSeriesChart *self,
                                                 double             x_from,
                                                 double             x_to);

/* The keyboard's moves: by @steps twentieths of the time range, the whole
 * selection or (@resize) its end; a chart without a selection gets the
 * middle fifth. Emits nothing. FALSE without a time range. */
gboolean     embers_series_chart_move_selection (EmbersSeriesChart *self,
                                                 int                steps,
                                                 gboolean           resize);
/* Enter: emits "range-selected" for the selection; FALSE without one */
gboolean     embers_series_chart_apply_selection (EmbersSeriesChart *self);

/* Lines up this chart's time axis with @other's (both ways; NULL
 * undoes it): both plots start where the wider value labels need, so
 * that a time is at the same x in both when they are as wide */
void         embers_series_chart_align_with     (EmbersSeriesChart *self,
                                                 EmbersSeriesChart *other);

EmbersChart *embers_series_chart_get_chart      (EmbersSeriesChart *self);

G_END_DECLS
