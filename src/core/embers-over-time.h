/* embers-over-time.h: one call site's value over a range, and its share
 * of the total (issue 18: Show Over Time)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "embers-source.h"

G_BEGIN_DECLS

/**
 * EmbersOverTime:
 * @value: the call site's total per step (EmbersSeries; none when no
 *   profile had data)
 * @total: the query's total per step (the same steps)
 * @share: the call site's share of the total per step, in percent (one
 *   series; a step without a total is a gap)
 * @mean_share: the whole range's share, in percent (sum of @value over
 *   the sum of @total), or NaN without a total
 * @peak_share: the largest step's share, and @peak_ms its time
 */
typedef struct
{
  GPtrArray *value;
  GPtrArray *total;
  GPtrArray *share;
  double     mean_share;
  double     peak_share;
  gint64     peak_ms;
} EmbersOverTime;

void embers_over_time_free (EmbersOverTime *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (EmbersOverTime, embers_over_time_free)

/* The share per step of @part in @whole (percent); steps @whole lacks
 * or has at zero are gaps. (transfer full) */
EmbersSeries   *embers_over_time_share        (const EmbersSeries *part,
                                               const EmbersSeries *whole);

/* Asks @source for both charts at once (embers_source_select_call_site_series()
 * and embers_source_select_chart_series() of @query) */
void            embers_over_time_fetch_async  (EmbersSource        *source,
                                               const EmbersQuery   *query,
                                               const char * const  *call_site,
                                               GCancellable        *cancellable,
                                               GAsyncReadyCallback  callback,
                                               gpointer             user_data);
EmbersOverTime *embers_over_time_fetch_finish (EmbersSource        *source,
                                               GAsyncResult        *result,
                                               GError             **error);

G_END_DECLS
