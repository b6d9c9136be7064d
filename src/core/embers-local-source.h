/* embers-local-source.h: files and folders of profiles as an EmbersSource
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "embers-diff-stats.h"
#include "embers-snapshots.h"
#include "embers-source.h"

G_BEGIN_DECLS

#define EMBERS_TYPE_LOCAL_SOURCE (embers_local_source_get_type ())

G_DECLARE_FINAL_TYPE (EmbersLocalSource, embers_local_source, EMBERS, LOCAL_SOURCE, GObject)

EmbersLocalSource *embers_local_source_new              (void);

/* Adds a loaded profile. time_ms <= 0 takes the profile's time_nanos, or
 * now. labels is a NULL-terminated name, value, name, value... list; a
 * service_name is derived from the file name when absent. */
void               embers_local_source_add_profile      (EmbersLocalSource   *self,
                                                         const char          *name,
                                                         EmbersProfile       *profile,
                                                         gint64               time_ms,
                                                         const char * const  *labels);
/* Loads a file, or every profile in a folder (not recursive), off the main
 * thread. Time comes from the profile or the file's modification time;
 * labels from the file name "service{k=v,...}.pb.gz" and from a sidecar
 * "FILE.labels" holding "service{k=\"v\"}". Resolves to the number of
 * profiles added; unreadable files in a folder are skipped and counted in
 * embers_local_source_get_n_skipped(). */
void               embers_local_source_add_file_async   (EmbersLocalSource   *self,
                                                         GFile               *file,
                                                         GCancellable        *cancellable,
                                                         GAsyncReadyCallback  callback,
                                                         gpointer             user_data);
guint              embers_local_source_add_file_finish  (EmbersLocalSource   *self,
                                                         GAsyncResult        *result,
                                                         GError             **error);
guint              embers_local_source_get_n_profiles   (EmbersLocalSource   *self);
guint              embers_local_source_get_n_skipped    (EmbersLocalSource   *self);
/* TRUE while files or folders are being read (the display name says so
 * instead of "0 local profiles"; before anything is added or read it is
 * "Local profiles", without a count) */
gboolean           embers_local_source_get_loading      (EmbersLocalSource   *self);
/* The time span covered by the profiles, in ms (0, 0 when empty) */
void               embers_local_source_get_time_range   (EmbersLocalSource   *self,
                                                         gint64              *start_ms,
                                                         gint64              *end_ms);

/* The Pyroscope-style profile type id of one sample type of a profile,
 * e.g. "process_cpu:cpu:nanoseconds:cpu:nanoseconds" */
char              *embers_local_source_profile_type_id  (EmbersProfile       *profile,
                                                         guint                sample_type);
/* Parses "service{k=v,k2=\"v 2\"}" into name and label pairs; FALSE if it is
 * not of that shape. */
gboolean           embers_local_source_parse_name       (const char          *text,
                                                         char               **service,
                                                         GStrv               *labels);

/* The noise test of a comparison of local files: each file a side's query
 * selects is one step (embers-diff-stats.h). Runs in a thread. */
void               embers_local_source_diff_stats_async  (EmbersLocalSource   *self,
                                                          const EmbersQuery   *left,
                                                          const EmbersQuery   *right,
                                                          EmbersDiffStatsMode  mode,
                                                          GCancellable        *cancellable,
                                                          GAsyncReadyCallback  callback,
                                                          gpointer             user_data);
EmbersDiffStats   *embers_local_source_diff_stats_finish (EmbersLocalSource   *self,
                                                          GAsyncResult        *result,
                                                          GError             **error);

/* Regressions across many: fills and computes @snapshots (each snapshot
 * added with its query; each file a query selects is one of its steps)
 * in a thread; resolves to @snapshots (embers-snapshots.h) */
void               embers_local_source_snapshots_async   (EmbersLocalSource   *self,
                                                          EmbersSnapshots     *snapshots,
                                                          GCancellable        *cancellable,
                                                          GAsyncReadyCallback  callback,
                                                          gpointer             user_data);
EmbersSnapshots   *embers_local_source_snapshots_finish  (EmbersLocalSource   *self,
                                                          GAsyncResult        *result,
                                                          GError            **error);

G_END_DECLS
