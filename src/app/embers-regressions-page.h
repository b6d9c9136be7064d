/* embers-regressions-page.h: regressions across many snapshots (a tab)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "embers-snapshots.h"
#include "embers-source.h"

G_BEGIN_DECLS

#define EMBERS_TYPE_REGRESSIONS_PAGE (embers_regressions_page_get_type ())

G_DECLARE_FINAL_TYPE (EmbersRegressionsPage, embers_regressions_page, EMBERS, REGRESSIONS_PAGE, AdwBin)

/*
 * K snapshots lined up in an explicit order, the baseline first, shown at
 * the top ("v1 (baseline) → v2 → …"), changed with Order (move a snapshot
 * up or down, make one the baseline) or Reverse. Below: one row per
 * function with a sparkline of its share in
 * each snapshot, its jump (the step the noise test flags, with the
 * change "+62% ± 9%"), Open Diff for the two snapshots around it, and
 * its share in every snapshot. Rows with a jump come first. When the
 * snapshots have fewer steps than the test needs, a banner says so and
 * nothing is flagged.
 *
 * Loading runs off the main thread or as async queries, cancellable, with
 * its progress; an error shows in place with Retry. A new order is
 * computed in a thread too.
 *
 * Property "loading" (boolean), "title" (string).
 * Signal "compare-requested" (EmbersQuery *baseline, EmbersQuery
 * *comparison): Open Diff; the queries are for
 * embers_regressions_page_get_source().
 */

/* The values of @label (in this order; the first is the baseline) on
 * @source, each a snapshot of @base (its selector and range) */
EmbersRegressionsPage *embers_regressions_page_new_for_label   (EmbersSource        *source,
                                                                const EmbersQuery   *base,
                                                                const char          *label,
                                                                const char * const  *values);
/* How many time ranges may be lined up (the Time Ranges spin button), and
 * how many when the "time-ranges" setting cannot be read */
#define EMBERS_REGRESSIONS_MIN_RANGES     2
#define EMBERS_REGRESSIONS_MAX_RANGES     50
#define EMBERS_REGRESSIONS_DEFAULT_RANGES 10

/* @n equal time ranges of @base's range on @source (0: as many as the
 * "time-ranges" setting says); the Time Ranges spin button shows @n and
 * lines up another number, kept in the setting */
EmbersRegressionsPage *embers_regressions_page_new_for_ranges  (EmbersSource        *source,
                                                                const EmbersQuery   *base,
                                                                guint                n);
/* Files and folders (embers_snapshots_load_files_async()) */
EmbersRegressionsPage *embers_regressions_page_new_for_files   (GFile * const       *files,
                                                                guint                n);

EmbersSource      *embers_regressions_page_get_source    (EmbersRegressionsPage *self);
/* The table shown (NULL while loading the first time) */
EmbersSnapshots   *embers_regressions_page_get_snapshots (EmbersRegressionsPage *self);
gboolean           embers_regressions_page_get_loading   (EmbersRegressionsPage *self);
const char        *embers_regressions_page_get_title     (EmbersRegressionsPage *self);
/* Time ranges: how many (0 for other snapshots); setting it lines them up
 * again and keeps @n in the "time-ranges" setting */
guint              embers_regressions_page_get_n_ranges  (EmbersRegressionsPage *self);
void               embers_regressions_page_set_n_ranges  (EmbersRegressionsPage *self,
                                                          guint                  n);
/* The error shown, or NULL */
const char        *embers_regressions_page_get_error     (EmbersRegressionsPage *self);
GtkColumnView     *embers_regressions_page_get_table     (EmbersRegressionsPage *self);

/* Loads again */
void               embers_regressions_page_reload        (EmbersRegressionsPage *self);
void               embers_regressions_page_cancel        (EmbersRegressionsPage *self);
/* A new order: @order[i] is the snapshot (as first added) at position i */
void               embers_regressions_page_set_order     (EmbersRegressionsPage *self,
                                                          const guint           *order,
                                                          guint                  n);
void               embers_regressions_page_reverse       (EmbersRegressionsPage *self);
/* Moves the snapshot at @position to @to (0 makes it the baseline) */
void               embers_regressions_page_move          (EmbersRegressionsPage *self,
                                                          guint                  position,
                                                          guint                  to);
/* Emits compare-requested for the step around @row's jump (or its
 * largest step); FALSE when there is none */
gboolean           embers_regressions_page_open_diff     (EmbersRegressionsPage *self,
                                                          guint                  row);

G_END_DECLS
