/* embers-comparison.h: load both sides of a comparison and diff them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "embers-profile.h"
#include "embers-source.h"

G_BEGIN_DECLS

/* One side: a query on a source, a location (a file or a query URL,
 * embers-location.h), or a profile loaded before */
typedef struct _EmbersCompareSide EmbersCompareSide;

#define EMBERS_TYPE_COMPARE_SIDE (embers_compare_side_get_type ())
GType              embers_compare_side_get_type         (void) G_GNUC_CONST;
EmbersCompareSide *embers_compare_side_new_query        (EmbersSource            *source,
                                                         const EmbersQuery       *query);
EmbersCompareSide *embers_compare_side_new_location     (GFile                   *file);
/* A location already loaded (@file may be NULL): not loaded again */
EmbersCompareSide *embers_compare_side_new_profile      (EmbersProfile           *profile,
                                                         GFile                   *file);
/* The sample type to compare (a profile's column); NULL: its default */
void               embers_compare_side_set_sample_type  (EmbersCompareSide       *side,
                                                         const char              *sample_type);
EmbersCompareSide *embers_compare_side_copy             (const EmbersCompareSide *side);
void               embers_compare_side_free             (EmbersCompareSide       *side);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (EmbersCompareSide, embers_compare_side_free)

/*
 * The comparison job, as the Compare view and the command line run it:
 *
 * - two queries on one source that can diff: the source's Diff (the
 *   server's Diff RPC); a server without it (unimplemented) gets two
 *   merges diffed here;
 * - two query URLs on one server: that server's Diff, likewise;
 * - anything else: each query side merged by its source, each location
 *   loaded on a worker thread, and the two diffed here
 *   (embers_diff_profiles()).
 *
 * Two queries whose units differ (CPU time against bytes) are refused
 * before any request. A newer comparison is the caller's to cancel.
 */
/* What the job refuses before any request (two queries whose units
 * differ), for callers that say so at once */
gboolean       embers_comparison_check      (const EmbersCompareSide  *baseline,
                                             const EmbersCompareSide  *comparison,
                                             GError                  **error);
void           embers_comparison_run_async  (const EmbersCompareSide  *baseline,
                                             const EmbersCompareSide  *comparison,
                                             GCancellable             *cancellable,
                                             GAsyncReadyCallback       callback,
                                             gpointer                  user_data);
/* The diff profile (embers_profile_is_diff()). @loaded_baseline and
 * @loaded_comparison (optional, out): the files loaded on the way (their
 * sides may offer their sample types), even when the diff failed */
EmbersProfile *embers_comparison_run_finish (GAsyncResult             *result,
                                             EmbersProfile           **loaded_baseline,
                                             EmbersProfile           **loaded_comparison,
                                             GError                  **error);

G_END_DECLS
