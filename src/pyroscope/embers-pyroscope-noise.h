/* embers-pyroscope-noise.h: the noise test of a comparison on a server
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "embers-diff-stats.h"
#include "embers-pyroscope-snapshots.h"

G_BEGIN_DECLS

/* Call sites tested when 0 is given */
#define EMBERS_PYROSCOPE_NOISE_DEFAULT_SITES 50

/*
 * The steps of each side of a comparison of two queries on a server, for
 * the call sites whose share changed most in @diff (their diff profile):
 *
 *  - per side, one SelectSeries of the query (the chart step of its range):
 *    each point is a step, with the side's total in it;
 *  - per call site and side, one SelectSeries with a stack_trace_selector
 *    of its frames: its value in each step (0 where it has none);
 *
 * at most EMBERS_PYROSCOPE_SNAPSHOTS_IN_FLIGHT at once, then
 * EmbersDiffStats (keyed by stack, "main;handler;parse") is computed in a
 * thread. The call sites: the @max_sites nodes of @diff with the largest
 * change of share (a node with all of its parent's values on both sides
 * adds nothing and is skipped); the others are not tested (their
 * verdict is "within the noise" when the sides have steps enough, as
 * embers_diff_stats_node_verdicts() gives nodes without values).
 */
void             embers_pyroscope_diff_stats_async  (EmbersPyroscopeSource  *source,
                                                     const EmbersQuery      *left,
                                                     const EmbersQuery      *right,
                                                     EmbersProfile          *diff,
                                                     EmbersDiffStatsMode     mode,
                                                     guint                   max_sites,
                                                     GCancellable           *cancellable,
                                                     GAsyncReadyCallback     callback,
                                                     gpointer                user_data);
EmbersDiffStats *embers_pyroscope_diff_stats_finish (EmbersPyroscopeSource  *source,
                                                     GAsyncResult           *result,
                                                     GError                **error);

G_END_DECLS
