/* embers-labels-page.h: the labels of a service, value by value (a tab)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "embers-explore-page.h"
#include "embers-label-stats.h"
#include "embers-source.h"

G_BEGIN_DECLS

typedef enum
{
  EMBERS_LABELS_VIEW_SERIES,     /* same numbers as EmbersLabelView */
  EMBERS_LABELS_VIEW_TOTAL,
  EMBERS_LABELS_VIEW_MAXIMUM,
  EMBERS_LABELS_VIEW_HISTOGRAM,
  EMBERS_LABELS_VIEW_TABLE,      /* one row per value with its statistics */
} EmbersLabelsView;

/* Show All makes at most this many cards; the table lists every value */
#define EMBERS_LABELS_MAX_CARDS 120

#define EMBERS_TYPE_LABELS_PAGE (embers_labels_page_get_type ())

G_DECLARE_FINAL_TYPE (EmbersLabelsPage, embers_labels_page, EMBERS, LABELS_PAGE, AdwBreakpointBin)

/*
 * For one query (a source, a profile type, a selector with the service and
 * the explore page's filters, a time range): the label names (internal
 * "__" names and service_name hidden) with their number of values, and for
 * the selected label each value's time series (SelectSeries grouped by
 * the label, with the explore page's step rule), total, share, maximum
 * and histogram as cards (top N by total, or all), or a sortable table.
 *
 * Per value: include or exclude it as a filter on the explore page that
 * opened this page, mark it as baseline or comparison; Compare emits
 * compare-requested with the two queries (each the page's query plus its
 * label filter, the same range).
 *
 * Requests are async with their own GCancellable (a newer cancels the
 * older); errors show in place with Retry. Cards beyond the first few
 * are built at idle; "loading" stays TRUE until they are all there.
 *
 * Signals:
 *   compare-requested (EmbersQuery *baseline, EmbersQuery *comparison)
 *   filter-added (const char *name, const char *value, gboolean exclude):
 *     after a value went to the explore page's filter bar
 */

EmbersLabelsPage  *embers_labels_page_new               (EmbersSource      *source,
                                                         const EmbersQuery *query,
                                                         const char        *service);

EmbersSource      *embers_labels_page_get_source        (EmbersLabelsPage  *self);
const EmbersQuery *embers_labels_page_get_query         (EmbersLabelsPage  *self);
const char        *embers_labels_page_get_title         (EmbersLabelsPage  *self);

/* Where include/exclude go (held weakly) */
/* The same service and profile type over another range or filters: the
 * old values stay, dimmed, while the new load; FALSE when the page cannot
 * take it (another service or profile type) */
gboolean           embers_labels_page_set_query         (EmbersLabelsPage  *self,
                                                         const EmbersQuery *query,
                                                         const char        *service);
void               embers_labels_page_set_explore_page  (EmbersLabelsPage  *self,
                                                         EmbersExplorePage *explore);
EmbersExplorePage *embers_labels_page_get_explore_page  (EmbersLabelsPage  *self);
/* In a workspace: include/exclude go to its shared query (held weakly),
 * not through the explore page */
void               embers_labels_page_set_query_model   (EmbersLabelsPage  *self,
                                                         EmbersQueryModel  *model);

/* Label names shown (GtkStringObjects, owned by the page) */
GListModel        *embers_labels_page_get_names         (EmbersLabelsPage  *self);
/* Number of values of a label, -1 while unknown */
int                embers_labels_page_get_cardinality   (EmbersLabelsPage  *self,
                                                         const char        *name);
gboolean           embers_labels_page_select_label      (EmbersLabelsPage  *self,
                                                         const char        *name);
/* The label to pick: now when its name is listed, else when the names
 * arrive (if it is among them) */
void               embers_labels_page_prefer_label      (EmbersLabelsPage  *self,
                                                         const char        *name);
const char        *embers_labels_page_get_label         (EmbersLabelsPage  *self);
/* The selected label's values, sorted by total (EmbersLabelValueStats) */
GPtrArray         *embers_labels_page_get_stats         (EmbersLabelsPage  *self);
/* Value cards shown (top N, or all) */
guint              embers_labels_page_get_n_cards       (EmbersLabelsPage  *self);
void               embers_labels_page_set_show_all      (EmbersLabelsPage  *self,
                                                         gboolean           show_all);
gboolean           embers_labels_page_get_show_all      (EmbersLabelsPage  *self);

/* The view picked; when the values have no time (every point at one
 * time), Series and Histogram are unavailable and the cards show totals */
void               embers_labels_page_set_view          (EmbersLabelsPage  *self,
                                                         EmbersLabelsView   view);
EmbersLabelsView   embers_labels_page_get_view          (EmbersLabelsPage  *self);
/* Whether the selected label's values have points at more than one time
 * (TRUE before they are loaded) */
gboolean           embers_labels_page_get_has_time      (EmbersLabelsPage  *self);
/* One scale for every value's series and histogram (the default), or each
 * card its own */
void               embers_labels_page_set_same_scale    (EmbersLabelsPage  *self,
                                                         gboolean           same_scale);
gboolean           embers_labels_page_get_same_scale    (EmbersLabelsPage  *self);
/* The table view (for tests: sorting) */
GtkColumnView     *embers_labels_page_get_table         (EmbersLabelsPage  *self);
/* The value at a row of the table as it is sorted, or NULL */
const char        *embers_labels_page_get_table_value   (EmbersLabelsPage  *self,
                                                         guint              position);

/* Value actions on the selected label */
gboolean           embers_labels_page_include_value     (EmbersLabelsPage  *self,
                                                         const char        *value,
                                                         gboolean           exclude,
                                                         GError           **error);
void               embers_labels_page_mark_baseline     (EmbersLabelsPage  *self,
                                                         const char        *value);
void               embers_labels_page_mark_comparison   (EmbersLabelsPage  *self,
                                                         const char        *value);
/* "region=\"eu\"" style, or NULL when not marked */
char              *embers_labels_page_dup_baseline      (EmbersLabelsPage  *self);
char              *embers_labels_page_dup_comparison    (EmbersLabelsPage  *self);
gboolean           embers_labels_page_get_can_compare   (EmbersLabelsPage  *self);
/* For a saved view: the marks as label and value (NULL, NULL when not
 * marked), and both set back at once (any label, listed or not yet) */
void               embers_labels_page_get_marks         (EmbersLabelsPage  *self,
                                                         const char       **baseline_label,
                                                         const char       **baseline_value,
                                                         const char       **comparison_label,
                                                         const char       **comparison_value);
void               embers_labels_page_restore_marks     (EmbersLabelsPage  *self,
                                                         const char        *baseline_label,
                                                         const char        *baseline_value,
                                                         const char        *comparison_label,
                                                         const char        *comparison_value);
/* Emits compare-requested; FALSE when both are not marked */
gboolean           embers_labels_page_compare           (EmbersLabelsPage  *self);
/* One step: marks @value as the comparison and compares it with the
 * baseline; FALSE without a baseline or when @value is the baseline */
gboolean           embers_labels_page_compare_with_baseline (EmbersLabelsPage *self,
                                                             const char       *value);
/* Compares every other value of the label (label!=value, the baseline)
 * with @value (label=value, the comparison) */
gboolean           embers_labels_page_compare_with_rest (EmbersLabelsPage  *self,
                                                         const char        *value);

/* Loads again; a range relative to now (the explore page's preset when
 * it was set as this page's explore page) moves to now */
void               embers_labels_page_refresh           (EmbersLabelsPage  *self);
void               embers_labels_page_retry             (EmbersLabelsPage  *self);
gboolean           embers_labels_page_get_loading       (EmbersLabelsPage  *self);
/* The values' heading: the label, how many values, their order
 * ("region: 3 values, by total") */
const char        *embers_labels_page_get_heading       (EmbersLabelsPage  *self);
/* The error shown in place, or NULL */
const char        *embers_labels_page_get_error         (EmbersLabelsPage  *self);

G_END_DECLS
