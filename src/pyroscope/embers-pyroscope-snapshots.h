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
/* Call sites asked per row at most, on average (and at least this many in
 * all): see embers_pyroscope_snapshots_async() */
#define EMBERS_PYROSCOPE_SNAPSHOTS_SITES_PER_ROW 2
#define EMBERS_PYROSCOPE_SNAPSHOTS_MIN_SITES 32

/* A node of a profile to ask the server about, and how much it weighs */
typedef struct
{
  guint32 node;
  double  weight;
} EmbersPyroscopeCandidate;

/* Sorts @candidates (EmbersPyroscopeCandidate) heaviest first, ties by
 * node, and keeps the first @keep (0: all) */
void             embers_pyroscope_candidates_sort  (GArray                 *candidates,
                                                    guint                   keep);
/* The frames of @node, root first (a NULL-terminated array to free with
 * g_strfreev), and in @key (may be NULL) the stack "a;b;c" */
char           **embers_pyroscope_call_site        (EmbersProfile          *profile,
                                                    guint32                 node,
                                                    char                  **key);

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
 *  2. SelectMergeStacktraces of the same: the rows, the @max_rows
 *     functions with the largest total (recursion counted once; a
 *     function that is all of the whole is skipped, its share is 100 %);
 *  3. a function's value is the sum of its outermost call sites (its
 *     nodes with no caller of the same name: every stack that holds the
 *     function passes through exactly one of them). Per call site one
 *     SelectSeries with a stack_trace_selector of its frames, grouped by
 *     @label: its value in every step of every snapshot at once (not one
 *     query per cell), at most EMBERS_PYROSCOPE_SNAPSHOTS_IN_FLIGHT at a
 *     time. At most max (@max_rows × SITES_PER_ROW, MIN_SITES) call sites
 *     are asked in all: a function whose call sites do not fit gets no
 *     row (every row shown is whole, never a part of its function);
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
