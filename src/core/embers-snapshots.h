/* embers-snapshots.h: regressions across many snapshots
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "embers-diff-stats.h"
#include "embers-source.h"

G_BEGIN_DECLS

/*
 * K snapshots in an explicit order, the first the baseline: the values of
 * a label (version, deployment, git_ref…), consecutive time ranges, or
 * files and folders. Each snapshot is made of steps (a server's series
 * points, or a folder's files), as each side of an EmbersDiffStats is.
 *
 * The table is functions × snapshots: per row (a function; on a server
 * the sum of its outermost call sites) each snapshot's share (the mean
 * of its per-step shares, as the noise test takes them) and each step
 * change between neighbours. Every step i → i + 1 is tested with
 * EmbersDiffStats (Welch's t-test on per-step shares, snapshot i the
 * baseline); the Benjamini–Hochberg procedure then runs once over every
 * tested cell of the table (rows × steps), so that of the steps flagged in
 * the whole table at most a fraction @fdr (5 %) are expected to be noise.
 * A row's jump is its flagged step with the largest change of share.
 * Rows are sorted: rows with a jump first, by the size of the jump; then
 * the rest by their largest step change; then by key.
 *
 * Use: add snapshots, their steps and values, then compute() (in a thread
 * if it is large: the object is not shared until then); read-only after.
 * Another order is another object: embers_snapshots_reorder() shares the
 * data and computes again.
 */

#define EMBERS_SNAPSHOTS_MAX_ROWS_DEFAULT 200

typedef struct
{
  const char              *key;      /* the function's name */
  const char              *name;     /* what to show: the function (the key) */
  const double            *shares;   /* per snapshot, in shown order; NAN when it has no usable step */
  const double            *deltas;   /* per step (n_snapshots - 1): shares[i + 1] - shares[i] */
  const EmbersChangeStats *steps;    /* per step: the test of snapshot i against i + 1 */
  int                      jump;     /* the flagged step with the largest |delta|, or -1 */
  int                      largest;  /* the step with the largest |delta|, or -1 */
} EmbersSnapshotRow;

#define EMBERS_TYPE_SNAPSHOTS (embers_snapshots_get_type ())

G_DECLARE_FINAL_TYPE (EmbersSnapshots, embers_snapshots, EMBERS, SNAPSHOTS, GObject)

EmbersSnapshots *embers_snapshots_new               (EmbersDiffStatsMode  mode,
                                                     double               fdr);
/* Keep the rows of the @max_rows functions with the largest share in any
 * snapshot (0: all) */
void             embers_snapshots_set_max_rows      (EmbersSnapshots     *self,
                                                     guint                max_rows);
/* The unit of the values ("nanoseconds", "bytes"), for text */
void             embers_snapshots_set_unit          (EmbersSnapshots     *self,
                                                     const char          *sample_type,
                                                     const char          *unit);
const char      *embers_snapshots_get_sample_type   (EmbersSnapshots     *self);
/* The source the snapshots' queries are for (a server, a local source),
 * where the diff of two snapshots is asked */
void             embers_snapshots_set_source        (EmbersSnapshots     *self,
                                                     EmbersSource        *source);
EmbersSource    *embers_snapshots_get_source        (EmbersSnapshots     *self);

/* A snapshot; @query (how to get its profile from a source: a label's
 * value, a time range) or @file (a file or folder) may be NULL. Returns
 * its index (the order they were added in is the initial order). */
guint            embers_snapshots_add_snapshot      (EmbersSnapshots     *self,
                                                     const char          *name,
                                                     const EmbersQuery   *query,
                                                     GFile               *file);
guint            embers_snapshots_add_step          (EmbersSnapshots     *self,
                                                     guint                snapshot,
                                                     double               total,
                                                     double               seconds);
void             embers_snapshots_add_value         (EmbersSnapshots     *self,
                                                     guint                snapshot,
                                                     guint                step,
                                                     const char          *key,
                                                     double               value);
/* One profile as one step of @snapshot: each function's total (recursion
 * once), the profile's total and duration */
void             embers_snapshots_add_profile       (EmbersSnapshots     *self,
                                                     guint                snapshot,
                                                     EmbersProfile       *profile,
                                                     guint                sample_type);

void             embers_snapshots_compute           (EmbersSnapshots     *self);
gboolean         embers_snapshots_is_computed       (EmbersSnapshots     *self);
/* A new, uncomputed table of the same data in another order: @order[i]
 * is the index (as added) of the snapshot shown at position i */
EmbersSnapshots *embers_snapshots_reorder           (EmbersSnapshots     *self,
                                                     const guint         *order,
                                                     guint                n_order);
/* Computes in a thread */
void             embers_snapshots_compute_async     (EmbersSnapshots     *self,
                                                     GCancellable        *cancellable,
                                                     GAsyncReadyCallback  callback,
                                                     gpointer             user_data);
gboolean         embers_snapshots_compute_finish    (EmbersSnapshots     *self,
                                                     GAsyncResult        *result,
                                                     GError             **error);

/* Snapshots, in shown order (position 0 is the baseline) */
guint            embers_snapshots_get_n_snapshots   (EmbersSnapshots     *self);
const char      *embers_snapshots_get_name          (EmbersSnapshots     *self,
                                                     guint                position);
/* The index it was added with */
guint            embers_snapshots_get_index         (EmbersSnapshots     *self,
                                                     guint                position);
const EmbersQuery *embers_snapshots_get_query       (EmbersSnapshots     *self,
                                                     guint                position);
GFile           *embers_snapshots_get_file          (EmbersSnapshots     *self,
                                                     guint                position);
guint            embers_snapshots_get_n_steps       (EmbersSnapshots     *self,
                                                     guint                position);
/* Every snapshot has EMBERS_DIFF_STATS_MIN_STEPS usable steps, so every
 * step of the table can be tested */
gboolean         embers_snapshots_has_enough_steps  (EmbersSnapshots     *self);
double           embers_snapshots_get_fdr           (EmbersSnapshots     *self);

/* Rows, sorted (after compute) */
guint            embers_snapshots_get_n_rows        (EmbersSnapshots     *self);
const EmbersSnapshotRow *embers_snapshots_get_row   (EmbersSnapshots     *self,
                                                     guint                row);
/* The row of a key, or -1 */
int              embers_snapshots_find_row          (EmbersSnapshots     *self,
                                                     const char          *key);
/* Rows with a flagged step */
guint            embers_snapshots_get_n_flagged     (EmbersSnapshots     *self);
/* Cells (rows × steps) tested, and how many were flagged */
guint            embers_snapshots_get_n_tested      (EmbersSnapshots     *self);
guint            embers_snapshots_get_n_flagged_steps (EmbersSnapshots   *self);

/* Text (all translated) */
/* "12.5%" (a share), "–" when unknown */
char            *embers_snapshots_format_share      (double               share);
/* "v1.2 → v1.3: +12% ± 3%, beyond the noise (10 and 12 steps)" */
char            *embers_snapshots_describe_step     (EmbersSnapshots     *self,
                                                     guint                row,
                                                     guint                step);
/* "v1 (baseline) → v2 → v3" */
char            *embers_snapshots_describe_order    (EmbersSnapshots     *self);

/* A sparkline's points for @n values in a @width × @height box inset by
 * @pad: x evenly spaced (one value: the middle), y from the bottom (0) to
 * the top (the largest value; all 0: the bottom); a value that is not
 * finite gives NAN (a gap) */
void             embers_snapshots_sparkline         (const double        *values,
                                                     guint                n,
                                                     double               width,
                                                     double               height,
                                                     double               pad,
                                                     double              *x,
                                                     double              *y);

/* Folders and files as snapshots, read off the main thread. Each of
 * @files is one snapshot: a file is one step; a folder's profiles
 * (not recursive) are its steps. With one folder given whose subfolders
 * hold profiles, each subfolder is a snapshot; with one folder of files
 * only, each file is. Snapshots are in the order given (a folder's
 * entries by name, numbers compared as numbers: v2 before v10). The sample
 * type is the first profile's default, found by name in the others.
 * Unreadable files fail the whole load with their name. The profiles are
 * kept in an EmbersLocalSource (embers_snapshots_get_source()), labelled
 * snapshot="name", and each snapshot's query is {snapshot="name"} over
 * the whole time range: the diff of two snapshots is a comparison of
 * two queries on it. */
void             embers_snapshots_load_files_async  (GFile * const       *files,
                                                     guint                n_files,
                                                     guint                max_rows,
                                                     GCancellable        *cancellable,
                                                     GAsyncReadyCallback  callback,
                                                     gpointer             user_data);
EmbersSnapshots *embers_snapshots_load_files_finish (GAsyncResult        *result,
                                                     GError             **error);

/* @n consecutive equal time ranges of @query's range as snapshots (each
 * @query with its own range), named by their start in local time */
void             embers_snapshots_add_time_ranges   (EmbersSnapshots     *self,
                                                     const EmbersQuery   *query,
                                                     guint                n);

/* Names compared as people do: numbers by value ("v2" < "v10") */
int              embers_snapshots_compare_names     (const char          *a,
                                                     const char          *b);
/* @query with @label = @value added to its selector (replacing a matcher
 * of @label) */
EmbersQuery     *embers_snapshots_query_with_label  (const EmbersQuery   *query,
                                                     const char          *label,
                                                     const char          *value);

G_END_DECLS
