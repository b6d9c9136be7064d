/* embers-explore-page.h: browse the services of an EmbersSource (a tab)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "embers-query-model.h"

#include "embers-filler.h"
#include "embers-profile-page.h"
#include "embers-selector.h"
#include "embers-source.h"

G_BEGIN_DECLS

#define EMBERS_TYPE_EXPLORE_PAGE (embers_explore_page_get_type ())

G_DECLARE_FINAL_TYPE (EmbersExplorePage, embers_explore_page, EMBERS, EXPLORE_PAGE, AdwBreakpointBin)

/*
 * Services of a source in a sidebar (Series on service_name and
 * __profile_type__), a profile type picker, a label filter bar, a time
 * range (presets and absolute from/to), a time-series chart of the
 * selection where dragging picks a new range, and the merged flame graph
 * and top table (an EmbersProfilePage inside).
 *
 * Each kind of request has its own GCancellable: a newer one cancels the
 * older, and a stale answer is never shown. Errors show in place with a
 * Retry button.
 *
 * Signals:
 *   compare-requested (EmbersQuery *baseline, EmbersQuery *comparison):
 *     the previous period of the same length (baseline) and the current
 *     query (comparison).
 *   notify::title when the selected service changes.
 */

EmbersExplorePage *embers_explore_page_new               (EmbersSource      *source);
/* Load More: fills in the `other` frames of the answer shown */
EmbersFiller      *embers_explore_page_get_filler        (EmbersExplorePage *self);

EmbersSource      *embers_explore_page_get_source        (EmbersExplorePage *self);
/* The workspace's shared query: the page writes what it asks for into
 * it, and follows it when another view changes it */
void               embers_explore_page_set_query_model   (EmbersExplorePage *self,
                                                          EmbersQueryModel  *model);
EmbersQueryModel  *embers_explore_page_get_query_model   (EmbersExplorePage *self);
/* "api — host:4040" or the source's name */
const char        *embers_explore_page_get_title         (EmbersExplorePage *self);
/* The inner profile page (flame graph, top table, search, views) */
EmbersProfilePage *embers_explore_page_get_profile_page  (EmbersExplorePage *self);

/* Services, as GtkStringObjects (owned by the page) */
GListModel        *embers_explore_page_get_services      (EmbersExplorePage *self);
/* Profile type ids of a service, or NULL */
const char * const *embers_explore_page_get_service_types (EmbersExplorePage *self,
                                                          const char        *service);
gboolean           embers_explore_page_select_service    (EmbersExplorePage *self,
                                                          const char        *service);
const char        *embers_explore_page_get_service       (EmbersExplorePage *self);
gboolean           embers_explore_page_set_profile_type  (EmbersExplorePage *self,
                                                          const char        *profile_type);
const char        *embers_explore_page_get_profile_type  (EmbersExplorePage *self);

/* Label filters (service_name is implied by the selected service) */
gboolean           embers_explore_page_add_filter        (EmbersExplorePage *self,
                                                          const char        *name,
                                                          EmbersMatchOp      op,
                                                          const char        *value,
                                                          GError           **error);
void               embers_explore_page_remove_filter     (EmbersExplorePage *self,
                                                          const char        *name);
/* The full selector, e.g. {service_name="api",region="eu"} */
char              *embers_explore_page_dup_selector      (EmbersExplorePage *self);
/* The current query, or NULL before a service and type are picked */
EmbersQuery       *embers_explore_page_dup_query         (EmbersExplorePage *self);

/* Time range. A preset (seconds back from now) follows now on refresh;
 * an absolute range stays. */
void               embers_explore_page_set_preset        (EmbersExplorePage *self,
                                                          gint64             seconds);
/* The preset's seconds, or 0 for an absolute range */
gint64             embers_explore_page_get_preset        (EmbersExplorePage *self);
void               embers_explore_page_set_time_range    (EmbersExplorePage *self,
                                                          gint64             start_ms,
                                                          gint64             end_ms);
void               embers_explore_page_get_time_range    (EmbersExplorePage *self,
                                                          gint64            *start_ms,
                                                          gint64            *end_ms);

/* Reloads everything (keeps service, filters, focus, search and view) */
void               embers_explore_page_refresh           (EmbersExplorePage *self);
/* Retries whatever failed */
void               embers_explore_page_retry             (EmbersExplorePage *self);
/* TRUE while any request is under way */
gboolean           embers_explore_page_get_loading       (EmbersExplorePage *self);
/* The error shown in place (services, chart or flame graph), or NULL */
const char        *embers_explore_page_get_error         (EmbersExplorePage *self);
/* Number of series in the chart */
guint              embers_explore_page_get_n_series      (EmbersExplorePage *self);

/* The heaviest individual profiles under the chart, one of them picked
 * (embers-explore-profiles.h) */
struct _EmbersProfilesBar *embers_explore_page_get_profiles_bar (EmbersExplorePage *self);
/* The chart's series (EmbersSeries), or NULL before any */
GPtrArray         *embers_explore_page_get_series        (EmbersExplorePage *self);
/* What a drag on the chart from x_from to x_to (widget coordinates)
 * does; for tests. FALSE when the chart has no size yet. */
gboolean           embers_explore_page_drag_chart        (EmbersExplorePage *self,
                                                          double             x_from,
                                                          double             x_to);
/* Emits compare-requested for the current query */
void               embers_explore_page_request_compare   (EmbersExplorePage *self);

/* Opens the recording rule dialog prefilled from the service, profile type,
 * filters and the selected frame (the flame graph's context menu) */
struct _EmbersRuleDialog;
struct _EmbersRuleDialog *embers_explore_page_create_rule (EmbersExplorePage *self);
/* Show Over Time of the selected frame (NULL, with a bell and a toast,
 * when no top-down frame is selected) */
struct _EmbersOverTimeDialog *embers_explore_page_show_over_time (EmbersExplorePage *self);

G_END_DECLS
