/* embers-label-chart.h: one label value's data as a chart
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "embers-label-stats.h"

G_BEGIN_DECLS

typedef enum
{
  EMBERS_LABEL_VIEW_SERIES,     /* its time series */
  EMBERS_LABEL_VIEW_TOTAL,      /* its total as a share of the whole */
  EMBERS_LABEL_VIEW_MAXIMUM,    /* its largest step, against the largest of all values */
  EMBERS_LABEL_VIEW_HISTOGRAM,  /* how its per-step values spread */
} EmbersLabelView;

#define EMBERS_TYPE_LABEL_VIEW (embers_label_view_get_type ())
GType embers_label_view_get_type (void) G_GNUC_CONST;

#define EMBERS_LABEL_CHART_HISTOGRAM_BINS 12

#define EMBERS_TYPE_LABEL_CHART (embers_label_chart_get_type ())

G_DECLARE_FINAL_TYPE (EmbersLabelChart, embers_label_chart, EMBERS, LABEL_CHART, GtkWidget)

/*
 * EmbersLabelChart paints one value of a label (an EmbersLabelValueStats)
 * in one of four views with cairo: the time series (core EmbersChart
 * lines), the total as a bar of the whole, the maximum as a bar against
 * the largest maximum of all values (with the average per step marked),
 * or a histogram of the per-step values. Values are formatted with the
 * profile type's unit. Hovering shows the value and time (or the bin's
 * range and count) as a tooltip; the accessible description summarises
 * what the view shows.
 */

GtkWidget       *embers_label_chart_new          (void);

/* @stats is copied as far as needed; @max_of_max scales the maximum view */
void             embers_label_chart_set_data     (EmbersLabelChart            *self,
                                                  const EmbersLabelValueStats *stats,
                                                  const char                  *label_name,
                                                  const char                  *unit,
                                                  gint64                       start_ms,
                                                  gint64                       end_ms,
                                                  double                       step_s,
                                                  double                       grand_total,
                                                  double                       max_of_max);
/* One scale for all values of a label: the series' value axis reaches
 * @value_max and the histogram bins [@hist_lo, @hist_hi]; 0 (and
 * @hist_lo >= @hist_hi) for the chart's own scale */
void             embers_label_chart_set_scale    (EmbersLabelChart            *self,
                                                  double                       value_max,
                                                  double                       hist_lo,
                                                  double                       hist_hi);
/* FALSE when every profile has the same time: the maximum view leaves out
 * the average over time */
void             embers_label_chart_set_has_time (EmbersLabelChart            *self,
                                                  gboolean                     has_time);
void             embers_label_chart_set_view     (EmbersLabelChart            *self,
                                                  EmbersLabelView              view);
EmbersLabelView  embers_label_chart_get_view     (EmbersLabelChart            *self);

/* What hovering at x, y (widget px) shows, or NULL */
char            *embers_label_chart_describe_at  (EmbersLabelChart            *self,
                                                  double                       x,
                                                  double                       y);
/* The accessible description of the current view */
char            *embers_label_chart_dup_summary  (EmbersLabelChart            *self);

G_END_DECLS
