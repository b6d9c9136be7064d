/* embers-over-time-dialog.h: one function (call site) over the tab's
 * range: its value and its share of the total (issue 18: Show Over Time)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "embers-over-time.h"

G_BEGIN_DECLS

#define EMBERS_TYPE_OVER_TIME_DIALOG (embers_over_time_dialog_get_type ())

G_DECLARE_FINAL_TYPE (EmbersOverTimeDialog, embers_over_time_dialog, EMBERS, OVER_TIME_DIALOG, AdwDialog)

/* @call_site: the frame's stack, root first (its last frame is the
 * function). Starts fetching at once. Dragging a chart (or choosing a
 * range with the keys) shows that range and emits "range-selected"
 * (gint64 start_ms, gint64 end_ms) for the tab. */
EmbersOverTimeDialog *embers_over_time_dialog_new           (EmbersSource         *source,
                                                             const EmbersQuery    *query,
                                                             const char * const   *call_site);
void                  embers_over_time_dialog_reload        (EmbersOverTimeDialog *self);
/* Shows another range (fetches again) */
void                  embers_over_time_dialog_set_time_range (EmbersOverTimeDialog *self,
                                                             gint64                start_ms,
                                                             gint64                end_ms);
gboolean              embers_over_time_dialog_get_loading   (EmbersOverTimeDialog *self);
/* The last answer, or NULL (loading, or an error) */
const EmbersOverTime *embers_over_time_dialog_get_result    (EmbersOverTimeDialog *self);
const char           *embers_over_time_dialog_get_summary   (EmbersOverTimeDialog *self);
const EmbersQuery    *embers_over_time_dialog_get_query     (EmbersOverTimeDialog *self);

G_END_DECLS
