/* embers-fill.h: filling in the `other` frames of a truncated answer
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "embers-profile.h"

G_BEGIN_DECLS

/*
 * A Pyroscope answer cut by max_nodes puts what it cut under a frame named
 * `other`, a child of the kept frame the cut subtrees hung from; totals
 * stay. To see what `other` hides, ask again for the stacks through that
 * frame only (SelectMergeStacktraces with a stack_trace_selector whose
 * call_site is the path from the root to the frame, and a node budget):
 * that sub-answer holds the call site's children in more detail, itself
 * perhaps with a smaller `other`.
 *
 * The merge walks the profile and the sub-answer side by side by frame
 * name. Where a frame has an `other` leaf and the sub-answer has the same
 * frame, the sub-answer's children that the frame does not have yet take
 * `other`'s place, heaviest first, as long as they fit into what `other`
 * held (in every sample type); what does not fit, or what the sub-answer
 * cut as well, stays in a smaller `other`. So no total of the profile
 * changes, `other` still names what remains, and merging the same
 * sub-answer twice changes nothing. Linear in the sizes of both.
 */

#define EMBERS_FILL_OTHER "other"

/* The frames from the root's child down to @node (the root "total" not
 * included), e.g. for a stack_trace_selector's call_site; empty for the
 * root. */
GStrv          embers_fill_call_site      (EmbersProfile        *profile,
                                           guint32               node);
/* The node at @call_site (NULL or empty: the root), or EMBERS_NODE_NONE */
guint32        embers_fill_find           (EmbersProfile        *profile,
                                           const char * const   *call_site);
/* Whether @node is an `other` frame that a fill-in could open: a leaf
 * named `other` below the root */
gboolean       embers_fill_is_other       (EmbersProfile        *profile,
                                           guint32               node);
/* The number of `other` frames in @profile, and their sum (sample type 0) */
guint          embers_fill_count_other    (EmbersProfile        *profile,
                                           gint64               *out_value);

/* A new profile: @profile with @sub merged into its `other` frames.
 * @out_added: how many frames came in (0: nothing more to show; the
 * result is then a new reference to @profile). Fails when the two are
 * not alike (sample types; a diff and not a diff). A diff is filled from
 * a diff: each column's `other` by that column's answer, a frame coming
 * in only where it fits in both columns, so no total of either side
 * changes. */
EmbersProfile *embers_fill_merge          (EmbersProfile        *profile,
                                           EmbersProfile        *sub,
                                           guint                *out_added,
                                           GError              **error);

/* The same on a worker thread */
void           embers_fill_merge_async    (EmbersProfile        *profile,
                                           EmbersProfile        *sub,
                                           GCancellable         *cancellable,
                                           GAsyncReadyCallback   callback,
                                           gpointer              user_data);
/* A comparison's fill-in: @baseline_sub and @comparison_sub are the two
 * sides' answers at one call site (plain profiles); they are diffed
 * (embers_diff_profiles) and merged into @diff's `other` frames as
 * embers_fill_merge() does, on a worker thread. Finish with
 * embers_fill_merge_finish(). */
void           embers_fill_merge_diff_async (EmbersProfile      *diff,
                                             EmbersProfile      *baseline_sub,
                                             EmbersProfile      *comparison_sub,
                                             GCancellable       *cancellable,
                                             GAsyncReadyCallback callback,
                                             gpointer            user_data);
EmbersProfile *embers_fill_merge_finish   (GAsyncResult         *result,
                                           guint                *out_added,
                                           GError              **error);

G_END_DECLS
