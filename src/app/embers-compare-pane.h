/* embers-compare-pane.h: one side of a comparison
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "embers-comparison.h"
#include "embers-filter-bar.h"
#include "embers-series-chart.h"
#include "embers-source.h"

G_BEGIN_DECLS

#define EMBERS_TYPE_COMPARE_PANE (embers_compare_pane_get_type ())

G_DECLARE_FINAL_TYPE (EmbersComparePane, embers_compare_pane, EMBERS, COMPARE_PANE, GtkBox)

typedef enum
{
  EMBERS_COMPARE_PANE_NONE,   /* nothing chosen yet */
  EMBERS_COMPARE_PANE_FILE,   /* a local file, with its sample type */
  EMBERS_COMPARE_PANE_URL,    /* a Pyroscope query URL */
  EMBERS_COMPARE_PANE_QUERY,  /* a query on the source: type, selector, range */
} EmbersComparePaneKind;

/*
 * EmbersComparePane: the baseline or the comparison of a compare page
 * (ui/embers-compare-pane.ui). What it compares is a file (and its sample
 * type), a query URL, or a query on its source: a profile type, label
 * filters as chips or a typed selector, a series chart of the window
 * around the chosen range, and From/To entries.
 *
 * The pane applies what is its own (a type, a selector, a file). What
 * touches both sides is the page's, which listens:
 * - "range-chosen" (gint64 start_ms, gint64 end_ms): the user chose a range
 *   on the chart or typed one; not applied yet (the page applies it with
 *   embers_compare_pane_set_range(), and moves the other side with sync);
 * - "sample-chosen": the user chose a file's sample type (the partner file
 *   has followed already when it has that type);
 * - "samples-loaded": a file loaded and its sample types show;
 * - "series-loaded": the chart has a new series (for a shared scale);
 * - "error" (string or NULL): a message for the page's error line.
 *
 * Property "comparison" (construct-only): the comparison side, else the
 * baseline. "source": what query sides ask (NULL: files only).
 */

GtkWidget             *embers_compare_pane_new              (gboolean           comparison);
/* The other side, read when this side turns into a query (its type and
 * range) and followed when a file's sample type is chosen; not a reference */
void                   embers_compare_pane_set_partner      (EmbersComparePane *self,
                                                             EmbersComparePane *partner);
void                   embers_compare_pane_set_source       (EmbersComparePane *self,
                                                             EmbersSource      *source);
gboolean               embers_compare_pane_get_comparison   (EmbersComparePane *self);
EmbersComparePaneKind  embers_compare_pane_get_kind         (EmbersComparePane *self);

/* Files and URLs */
void                   embers_compare_pane_set_file         (EmbersComparePane *self,
                                                             GFile             *file,
                                                             gboolean           preload);
void                   embers_compare_pane_set_url          (EmbersComparePane *self,
                                                             const char        *url);
/* A file, or the query URL it stands for (embers_location_dup_query_url()) */
void                   embers_compare_pane_set_file_or_url  (EmbersComparePane *self,
                                                             GFile             *file);
GFile                 *embers_compare_pane_get_file         (EmbersComparePane *self);
/* The loaded file (NULL until loaded) */
EmbersProfile         *embers_compare_pane_get_profile      (EmbersComparePane *self);
/* A file loaded elsewhere (by the comparison job): taken when it is still
 * this side's file and none is loaded */
void                   embers_compare_pane_take_loaded      (EmbersComparePane *self,
                                                             GFile             *file,
                                                             EmbersProfile     *profile);
/* The sample type chosen by name (NULL: the file's default); the index
 * compared in @profile */
const char            *embers_compare_pane_get_sample_type  (EmbersComparePane *self);
void                   embers_compare_pane_clear_sample_type (EmbersComparePane *self);
guint                  embers_compare_pane_get_sample_index (EmbersComparePane *self,
                                                             EmbersProfile     *profile);
/* Chooses by name; FALSE when the loaded file has no such type. @as_user:
 * through the drop-down, so that the partner follows and "sample-chosen"
 * is emitted */
gboolean               embers_compare_pane_choose_sample    (EmbersComparePane *self,
                                                             const char        *name,
                                                             gboolean           as_user);
const char            *embers_compare_pane_get_file_text    (EmbersComparePane *self);

/* Queries */
const char            *embers_compare_pane_get_profile_type (EmbersComparePane *self);
/* As applied, canonical */
const char            *embers_compare_pane_get_selector     (EmbersComparePane *self);
/* The chosen range; FALSE (and 0, 0) when there is none */
gboolean               embers_compare_pane_get_range        (EmbersComparePane *self,
                                                             gint64            *start_ms,
                                                             gint64            *end_ms);
/* Applies and shows a range (the chart around it, the entries, the series) */
void                   embers_compare_pane_set_range        (EmbersComparePane *self,
                                                             gint64             start_ms,
                                                             gint64             end_ms);
/* Makes this side a query with what it has, its type else @fallback_type;
 * the range is the caller's (embers_compare_pane_set_range()) */
void                   embers_compare_pane_make_query       (EmbersComparePane *self,
                                                             const char        *fallback_type);
/* A whole query: type, selector, range */
void                   embers_compare_pane_set_query        (EmbersComparePane *self,
                                                             const EmbersQuery *query);
/* The profile types the source offers; a side with none picks one (CPU
 * first) */
void                   embers_compare_pane_add_types        (EmbersComparePane *self,
                                                             GPtrArray         *types);
/* What is typed but not applied (a pending filter, a selector): applied;
 * the typed range read into @start_ms, @end_ms, @changed (not applied) */
gboolean               embers_compare_pane_commit           (EmbersComparePane *self,
                                                             gint64            *start_ms,
                                                             gint64            *end_ms,
                                                             gboolean          *changed,
                                                             GError           **error);
/* The query this side runs (NULL when it is not a whole query) */
EmbersQuery           *embers_compare_pane_dup_query        (EmbersComparePane *self);
/* This side for embers_comparison_run_async(); NULL with @error when it
 * is not complete */
EmbersCompareSide     *embers_compare_pane_dup_side         (EmbersComparePane *self,
                                                             GError           **error);
/* For people: a file name, a URL's query and server, or a selector and
 * its start; NULL when unset */
char                  *embers_compare_pane_describe         (EmbersComparePane *self);

/* Parts, for the page and tests */
EmbersSeriesChart     *embers_compare_pane_get_chart        (EmbersComparePane *self);
EmbersFilterBar       *embers_compare_pane_get_filter_bar   (EmbersComparePane *self);
GtkEditable           *embers_compare_pane_get_selector_entry (EmbersComparePane *self);
GtkEditable           *embers_compare_pane_get_from_entry   (EmbersComparePane *self);
GtkEditable           *embers_compare_pane_get_to_entry     (EmbersComparePane *self);
GtkDropDown           *embers_compare_pane_get_type_dropdown (EmbersComparePane *self);
GtkDropDown           *embers_compare_pane_get_sample_dropdown (EmbersComparePane *self);

/* A time and a loading line, shared with the page */
char                  *embers_compare_format_time           (gint64             ms);
char                  *embers_compare_loading_text          (gint64             start_ms,
                                                             gint64             end_ms);
gboolean               embers_compare_is_cancelled          (const GError      *error);

G_END_DECLS
