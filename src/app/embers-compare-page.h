/* embers-compare-page.h: baseline vs comparison
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "embers-diff-legend.h"
#include "embers-diff-table.h"
#include "embers-filler.h"
#include "embers-filter-bar.h"
#include "embers-profile-page.h"
#include "embers-series-chart.h"
#include "embers-source.h"

G_BEGIN_DECLS

#define EMBERS_TYPE_COMPARE_PAGE (embers_compare_page_get_type ())

G_DECLARE_FINAL_TYPE (EmbersComparePage, embers_compare_page, EMBERS, COMPARE_PAGE, AdwBreakpointBin)

/*
 * EmbersComparePage: a baseline pane and a comparison pane, each with its
 * own source: a local file (with its sample type), a Pyroscope query URL,
 * or a query on the page's EmbersSource (a profile type, label filters as
 * chips or a typed selector, a series chart and From/To entries for its
 * time range: drag across the chart, use its arrow keys and Enter, or
 * type the times). "Sync time ranges" keeps both ranges the same length
 * and moves the other side by as much as one side moved. Presets set both.
 * Compare uses what is on screen (typed selectors, times and filter values
 * count without Enter) and runs off the main thread, cancellable: the
 * server's Diff for two queries on one source (two merges and a local
 * diff when the server has no Diff), a local diff otherwise. The result:
 * the diff legend, the diff flame graph and the diff table.
 *
 * Property "busy" (boolean, read-only): a comparison is running.
 * Signal "compared": a comparison finished (successfully or not; see
 * embers_compare_page_get_error()).
 */

GtkWidget         *embers_compare_page_new          (void);

/* Sets both sides and starts the comparison (embers BASE COMP, two
 * dropped files). A file whose URI is a Pyroscope query URL
 * (embers_query_url_is_url()) is that query, fetched by the Pyroscope
 * client; two on one server use its Diff RPC. */
void               embers_compare_page_set_files    (EmbersComparePage *self,
                                                     GFile             *baseline,
                                                     GFile             *comparison);
/* The server (or local source) that query sides ask; NULL: files only */
void               embers_compare_page_set_source   (EmbersComparePage *self,
                                                     EmbersSource      *source);
EmbersSource      *embers_compare_page_get_source   (EmbersComparePage *self);
/* Prefills both sides as queries (profile type, selector, time range);
 * either may be NULL to leave that side as it is. Does not start. */
void               embers_compare_page_set_queries  (EmbersComparePage *self,
                                                     const EmbersQuery *baseline,
                                                     const EmbersQuery *comparison);

/* Runs the comparison of the two sides as they are on screen */
void               embers_compare_page_compare      (EmbersComparePage *self);
void               embers_compare_page_cancel       (EmbersComparePage *self);
gboolean           embers_compare_page_get_busy     (EmbersComparePage *self);
/* The last error message, or NULL */
const char        *embers_compare_page_get_error    (EmbersComparePage *self);

/* The diff shown (NULL before the first comparison) */
EmbersProfile     *embers_compare_page_get_diff     (EmbersComparePage *self);

EmbersDiffPalette  embers_compare_page_get_palette  (EmbersComparePage *self);
void               embers_compare_page_set_palette  (EmbersComparePage *self,
                                                     EmbersDiffPalette  palette);
EmbersDiffMode     embers_compare_page_get_mode     (EmbersComparePage *self);
void               embers_compare_page_set_mode     (EmbersComparePage *self,
                                                     EmbersDiffMode     mode);

typedef enum
{
  EMBERS_COMPARE_PRESET_PREVIOUS_PERIOD,  /* baseline: the period of equal length before the comparison's */
  EMBERS_COMPARE_PRESET_HOUR_BEFORE,      /* last hour vs the hour before */
  EMBERS_COMPARE_PRESET_DAY_AGO,          /* last hour vs the same hour 24 h ago */
  EMBERS_COMPARE_PRESET_WEEK_AGO,         /* last hour vs the same hour a week ago */
} EmbersComparePreset;

/* Sets both query ranges from @now_ms (0: the current time) */
void               embers_compare_page_apply_preset (EmbersComparePage  *self,
                                                     EmbersComparePreset preset,
                                                     gint64              now_ms);
/* Sets one side's range as a drag on its chart would: with sync on, the
 * other side moves by as much and takes the same length */
void               embers_compare_page_set_time_range (EmbersComparePage *self,
                                                       gboolean           comparison,
                                                       gint64             start_ms,
                                                       gint64             end_ms);
/* The query a side would run (NULL when that side is a file or unset);
 * free with embers_query_free */
EmbersQuery       *embers_compare_page_dup_query    (EmbersComparePage *self,
                                                     gboolean           comparison);
/* On: both ranges have the same length, and moving one moves the other by
 * as much (the gap between them stays). Turning it on gives the baseline
 * the comparison's length, keeping the baseline's end. */
gboolean           embers_compare_page_get_sync_ranges (EmbersComparePage *self);
void               embers_compare_page_set_sync_ranges (EmbersComparePage *self,
                                                     gboolean           sync);
/* A file side's sample type as chosen (NULL: the file's default) */
const char        *embers_compare_page_get_sample_type (EmbersComparePage *self,
                                                        gboolean           comparison);
/* Chooses a file side's sample type by name; the other file follows when
 * it has a type of that name. FALSE when the loaded file has none. */
gboolean           embers_compare_page_set_sample_type (EmbersComparePage *self,
                                                        gboolean           comparison,
                                                        const char        *sample_type);

/* Parts, for tests and the window. The diff is shown by a profile page
 * (its legend, diff table and flame graph are the ones below). */
EmbersProfilePage *embers_compare_page_get_profile_page (EmbersComparePage *self);
EmbersDiffLegend  *embers_compare_page_get_legend   (EmbersComparePage *self);
EmbersDiffTable   *embers_compare_page_get_table    (EmbersComparePage *self);
/* The diff flame graph (an EmbersFlameGraph) */
GtkWidget         *embers_compare_page_get_graph    (EmbersComparePage *self);
/* The fill-ins of the diff's `other` (two queries on a server), or NULL */
EmbersFiller      *embers_compare_page_get_filler   (EmbersComparePage *self);
EmbersSeriesChart *embers_compare_page_get_chart    (EmbersComparePage *self,
                                                     gboolean           comparison);
EmbersFilterBar   *embers_compare_page_get_filter_bar (EmbersComparePage *self,
                                                       gboolean           comparison);
/* A query side's typed label selector, From and To entries, type */
GtkEditable       *embers_compare_page_get_selector_entry (EmbersComparePage *self,
                                                           gboolean           comparison);
GtkEditable       *embers_compare_page_get_from_entry (EmbersComparePage *self,
                                                       gboolean           comparison);
GtkEditable       *embers_compare_page_get_to_entry (EmbersComparePage *self,
                                                     gboolean           comparison);
GtkDropDown       *embers_compare_page_get_type_dropdown (EmbersComparePage *self,
                                                          gboolean           comparison);
/* A file side's sample types (hidden until the file is loaded) */
GtkDropDown       *embers_compare_page_get_sample_type_dropdown (EmbersComparePage *self,
                                                                 gboolean           comparison);
/* What a file side shows for its file or query URL */
const char        *embers_compare_page_get_file_label (EmbersComparePage *self,
                                                       gboolean           comparison);

/* After a comparison the form folds to a one-line summary of both sides
 * (a button that opens it again), so that the diff has the room */
void               embers_compare_page_set_folded      (EmbersComparePage *self,
                                                        gboolean           folded);
gboolean           embers_compare_page_get_folded      (EmbersComparePage *self);

/* A side's file (not owned) when that side is a local file, else NULL
 * (a query, a query URL, unset) */
GFile             *embers_compare_page_get_side_file (EmbersComparePage *self,
                                                      gboolean           comparison);
/* Makes one side a local file, with its sample type by name (NULL: the
 * file's default), the other side as it is (a saved view: a file
 * compared with a query). Does not start. */
void               embers_compare_page_set_side_file (EmbersComparePage *self,
                                                      gboolean           comparison,
                                                      GFile             *file,
                                                      const char        *sample_type);

/* The two files compared (not owned), when both sides are files */
gboolean           embers_compare_page_get_files    (EmbersComparePage  *self,
                                                     GFile             **baseline,
                                                     GFile             **comparison);

G_END_DECLS
