/* embers-pyroscope-snapshots.h: regressions across many, on a server
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "embers-pyroscope-source.h"
#include "embers-snapshots.h"

G_BEGIN_DECLS

/* At most this many SelectSeries in flight at once */
#define EMBERS_PYROSCOPE_SNAPSHOTS_IN_FLIGHT 4

typedef void (*EmbersSnapshotsProgress) (guint    done,
                                         guint    total,
                                         gpointer user_data);

/*
 * Fills and computes @snapshots (each added with its query: a label's
 * value, or a time range) from a server, asking it to aggregate:
 *
 *  1. SelectSeries of the whole (@base: its selector, plus @label =~ the
 *     values when @label is set; the range of every snapshot), grouped by
 *     @label: each snapshot's total per step, which makes its steps;
 *  2. SelectMergeStacktraces of the same: the call sites to follow, the
 *     @max_rows heaviest nodes (a node with its parent's total adds
 *     nothing and is skipped);
 *  3. per call site one SelectSeries with a stack_trace_selector of its
 *     frames, grouped by @label: its value in every step of every
 *     snapshot at once (not one query per cell), at most
 *     EMBERS_PYROSCOPE_SNAPSHOTS_IN_FLIGHT at a time;
 *
 * then computes the table in a thread. Without @label the snapshots are
 * time ranges within @base's range, and each point goes to the range that
 * holds it. @progress (may be NULL) is called as call sites arrive.
 * Resolves to @snapshots; an error of any query fails the whole (nothing
 * partial is shown as whole).
 */
void             embers_pyroscope_snapshots_async  (EmbersPyroscopeSource  *source,
                                                    EmbersSnapshots        *snapshots,
                                                    const EmbersQuery      *base,
                                                    const char             *label,
                                                    guint                   max_rows,
                                                    EmbersSnapshotsProgress progress,
                                                    gpointer                progress_data,
                                                    GCancellable           *cancellable,
                                                    GAsyncReadyCallback     callback,
                                                    gpointer                user_data);
EmbersSnapshots *embers_pyroscope_snapshots_finish (EmbersPyroscopeSource  *source,
                                                    GAsyncResult           *result,
                                                    GError                **error);

/* The step of the series: the chart rule for a tenth of a label's range
 * (400 to 1000 steps in it, at least 15 s), or for one time range (40 to
 * 100 steps each), so that each snapshot has steps for the noise test */
double           embers_pyroscope_snapshots_step   (EmbersSnapshots        *snapshots,
                                                    const EmbersQuery      *base,
                                                    const char             *label);

G_END_DECLS
