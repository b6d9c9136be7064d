/* embers-source.h: where profiles come from (files, a Pyroscope server)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "embers-profile.h"
#include "embers-recording-rule.h"

G_BEGIN_DECLS

#define EMBERS_SOURCE_ERROR (embers_source_error_quark ())

/* Mirrors the Connect error codes a server can answer with, plus our own. */
typedef enum
{
  EMBERS_SOURCE_ERROR_UNKNOWN,
  EMBERS_SOURCE_ERROR_CANCELED,
  EMBERS_SOURCE_ERROR_INVALID_ARGUMENT,
  EMBERS_SOURCE_ERROR_DEADLINE_EXCEEDED,
  EMBERS_SOURCE_ERROR_NOT_FOUND,
  EMBERS_SOURCE_ERROR_ALREADY_EXISTS,
  EMBERS_SOURCE_ERROR_PERMISSION_DENIED,
  EMBERS_SOURCE_ERROR_RESOURCE_EXHAUSTED,
  EMBERS_SOURCE_ERROR_FAILED_PRECONDITION,
  EMBERS_SOURCE_ERROR_ABORTED,
  EMBERS_SOURCE_ERROR_OUT_OF_RANGE,
  EMBERS_SOURCE_ERROR_UNIMPLEMENTED,
  EMBERS_SOURCE_ERROR_INTERNAL,
  EMBERS_SOURCE_ERROR_UNAVAILABLE,
  EMBERS_SOURCE_ERROR_DATA_LOSS,
  EMBERS_SOURCE_ERROR_UNAUTHENTICATED,
  /* Not Connect codes: */
  EMBERS_SOURCE_ERROR_NOT_SUPPORTED,    /* this source cannot do that */
  EMBERS_SOURCE_ERROR_PROTOCOL,         /* the server answered something we cannot read */
} EmbersSourceError;

GQuark embers_source_error_quark (void);

typedef enum
{
  EMBERS_SOURCE_CAN_PROFILE_TYPES   = 1 << 0,
  EMBERS_SOURCE_CAN_LABELS          = 1 << 1,
  EMBERS_SOURCE_CAN_SERIES          = 1 << 2,  /* label sets */
  EMBERS_SOURCE_CAN_TIME_SERIES     = 1 << 3,  /* SelectSeries */
  EMBERS_SOURCE_CAN_MERGE           = 1 << 4,
  EMBERS_SOURCE_CAN_DIFF            = 1 << 5,
  EMBERS_SOURCE_CAN_RECORDING_RULES = 1 << 6,
  EMBERS_SOURCE_CAN_PROFILE_IDS     = 1 << 7,  /* exemplars, profile_id_selector */
} EmbersSourceCapabilities;

/* A profile type, e.g. process_cpu:cpu:nanoseconds:cpu:nanoseconds */
typedef struct
{
  char *id;
  char *name;
  char *sample_type;
  char *sample_unit;
  char *period_type;
  char *period_unit;
} EmbersProfileTypeInfo;

#define EMBERS_TYPE_PROFILE_TYPE_INFO (embers_profile_type_info_get_type ())
GType                  embers_profile_type_info_get_type (void) G_GNUC_CONST;
EmbersProfileTypeInfo *embers_profile_type_info_new      (const char *id);  /* parses the 5 parts */
EmbersProfileTypeInfo *embers_profile_type_info_copy     (const EmbersProfileTypeInfo *info);
void                   embers_profile_type_info_free     (EmbersProfileTypeInfo *info);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (EmbersProfileTypeInfo, embers_profile_type_info_free)

/* One query: a profile type, a Prometheus label selector and a time range */
typedef struct
{
  char   *profile_type;    /* profile type id */
  char   *label_selector;  /* "{service_name=\"api\"}"; NULL or "" = "{}" */
  gint64  start_ms;
  gint64  end_ms;
  gint64  max_nodes;       /* 0 = server default */
  GStrv   profile_ids;     /* merges: only these individual profiles
                            * (exemplars' ids); NULL = all */
} EmbersQuery;

#define EMBERS_TYPE_QUERY (embers_query_get_type ())
GType        embers_query_get_type (void) G_GNUC_CONST;
EmbersQuery *embers_query_new      (const char        *profile_type,
                                    const char        *label_selector,
                                    gint64             start_ms,
                                    gint64             end_ms);
EmbersQuery *embers_query_copy     (const EmbersQuery *query);
void         embers_query_free     (EmbersQuery       *query);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (EmbersQuery, embers_query_free)

/* One individual profile of a point (Pyroscope's types.v1.Exemplar): its
 * id (a UUID from a server, a file's name from a folder), its own time,
 * its value in the series and its labels other than the series' own */
typedef struct
{
  guint    point;          /* index of its point in the series */
  gint64   timestamp_ms;
  char    *profile_id;
  gint64   value;
  GStrv    label_names;
  GStrv    label_values;
} EmbersExemplar;

EmbersExemplar *embers_exemplar_new   (guint                 point,
                                       gint64                timestamp_ms,
                                       const char           *profile_id,
                                       gint64                value);
EmbersExemplar *embers_exemplar_copy  (const EmbersExemplar *exemplar);
void            embers_exemplar_free  (EmbersExemplar       *exemplar);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (EmbersExemplar, embers_exemplar_free)

/* A time series: label pairs and sparse points (ms timestamps) */
typedef struct
{
  GStrv    label_names;
  GStrv    label_values;
  guint    n_points;
  gint64  *timestamps;
  double  *values;
  GPtrArray *exemplars;     /* EmbersExemplar by point, or NULL (asked
                             * for with embers_source_select_exemplars) */
} EmbersSeries;

#define EMBERS_TYPE_SERIES (embers_series_get_type ())
GType         embers_series_get_type (void) G_GNUC_CONST;
EmbersSeries *embers_series_new      (void);
EmbersSeries *embers_series_copy     (const EmbersSeries *series);
void          embers_series_free     (EmbersSeries       *series);
const char   *embers_series_get_label (const EmbersSeries *series,
                                       const char         *name);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (EmbersSeries, embers_series_free)

typedef enum
{
  EMBERS_AGGREGATION_SUM,
  EMBERS_AGGREGATION_AVERAGE,
} EmbersAggregation;

#define EMBERS_TYPE_SOURCE (embers_source_get_type ())
G_DECLARE_INTERFACE (EmbersSource, embers_source, EMBERS, SOURCE, GObject)

/* Every method is async and cancellable. A source that cannot do something
 * leaves the vfunc NULL; the wrapper then fails with NOT_SUPPORTED. */
struct _EmbersSourceInterface
{
  GTypeInterface parent_iface;

  EmbersSourceCapabilities (*get_capabilities) (EmbersSource *self);
  char                   *(*dup_display_name) (EmbersSource *self);

  void       (*list_profile_types)        (EmbersSource *self, gint64 start_ms, gint64 end_ms,
                                           GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data);
  GPtrArray *(*list_profile_types_finish) (EmbersSource *self, GAsyncResult *result, GError **error);

  void       (*list_label_names)          (EmbersSource *self, const char * const *matchers, gint64 start_ms, gint64 end_ms,
                                           GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data);
  GStrv      (*list_label_names_finish)   (EmbersSource *self, GAsyncResult *result, GError **error);

  void       (*list_label_values)         (EmbersSource *self, const char *name, const char * const *matchers,
                                           gint64 start_ms, gint64 end_ms,
                                           GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data);
  GStrv      (*list_label_values_finish)  (EmbersSource *self, GAsyncResult *result, GError **error);

  /* Label sets (Series RPC); returns EmbersSeries with no points */
  void       (*list_series)               (EmbersSource *self, const char * const *matchers, const char * const *label_names,
                                           gint64 start_ms, gint64 end_ms,
                                           GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data);
  GPtrArray *(*list_series_finish)        (EmbersSource *self, GAsyncResult *result, GError **error);

  /* SelectSeries; step in seconds; limit 0 = no limit */
  void       (*select_series)             (EmbersSource *self, const EmbersQuery *query, const char * const *group_by,
                                           double step_s, EmbersAggregation aggregation, gint64 limit,
                                           GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data);
  GPtrArray *(*select_series_finish)      (EmbersSource *self, GAsyncResult *result, GError **error);

  /* SelectSeries with each point's heaviest individual profiles
   * (exemplar_type INDIVIDUAL; a folder's files); sum, step in seconds */
  void       (*select_exemplars)          (EmbersSource *self, const EmbersQuery *query, const char * const *group_by,
                                           double step_s,
                                           GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data);
  GPtrArray *(*select_exemplars_finish)   (EmbersSource *self, GAsyncResult *result, GError **error);
  /* SelectSeries of the stacks under one call site (frames root first; a
   * stack-trace selector): each point is that call site's total */
  void       (*select_call_site_series)   (EmbersSource *self, const EmbersQuery *query,
                                           const char * const *call_site, const char * const *group_by,
                                           double step_s,
                                           GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data);
  GPtrArray *(*select_call_site_series_finish) (EmbersSource *self, GAsyncResult *result, GError **error);

  /* Merged profile for a query (SelectMergeStacktraces) */
  void           (*merge_profile)         (EmbersSource *self, const EmbersQuery *query,
                                           GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data);
  EmbersProfile *(*merge_profile_finish)  (EmbersSource *self, GAsyncResult *result, GError **error);

  /* Diff of two queries: a profile with embers_profile_is_diff() */
  void           (*diff)                  (EmbersSource *self, const EmbersQuery *left, const EmbersQuery *right,
                                           GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data);
  EmbersProfile *(*diff_finish)           (EmbersSource *self, GAsyncResult *result, GError **error);

  /* Recording rules (EMBERS_SOURCE_CAN_RECORDING_RULES). A source that
   * learns that a server does not serve them says why in
   * dup_unavailable_reason and notifies "capabilities" itself. */
  void                 (*list_recording_rules)         (EmbersSource *self, GCancellable *cancellable,
                                                        GAsyncReadyCallback callback, gpointer user_data);
  GPtrArray           *(*list_recording_rules_finish)  (EmbersSource *self, GAsyncResult *result, GError **error);
  void                 (*get_recording_rule)           (EmbersSource *self, const char *id, GCancellable *cancellable,
                                                        GAsyncReadyCallback callback, gpointer user_data);
  EmbersRecordingRule *(*get_recording_rule_finish)    (EmbersSource *self, GAsyncResult *result, GError **error);
  void                 (*upsert_recording_rule)        (EmbersSource *self, const EmbersRecordingRule *rule,
                                                        GCancellable *cancellable,
                                                        GAsyncReadyCallback callback, gpointer user_data);
  EmbersRecordingRule *(*upsert_recording_rule_finish) (EmbersSource *self, GAsyncResult *result, GError **error);
  void                 (*delete_recording_rule)        (EmbersSource *self, const char *id, GCancellable *cancellable,
                                                        GAsyncReadyCallback callback, gpointer user_data);
  gboolean             (*delete_recording_rule_finish) (EmbersSource *self, GAsyncResult *result, GError **error);

  /* Why a capability this kind of source has is off here (the server
   * said so), or NULL */
  char                *(*dup_unavailable_reason)       (EmbersSource *self, EmbersSourceCapabilities capability);
  /* The tenant its requests are for (multi-tenant servers), or NULL */
  char                *(*dup_tenant)                   (EmbersSource *self);
  /* Two sources are the same place (one server and tenant): one
   * Recording Rules view each */
  char                *(*dup_location)                 (EmbersSource *self);

  /* The stacks under one call site (frames root first; NULL or empty:
   * all), merged with @query's max_nodes as the node budget
   * (SelectMergeStacktraces with a stack_trace_selector), to fill in the
   * `other` frames of a truncated answer (embers-fill.h) */
  void           (*merge_call_site)        (EmbersSource *self, const EmbersQuery *query,
                                            const char * const *call_site,
                                            GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data);
  EmbersProfile *(*merge_call_site_finish) (EmbersSource *self, GAsyncResult *result, GError **error);
};

EmbersSourceCapabilities embers_source_get_capabilities       (EmbersSource        *self);
char                    *embers_source_dup_display_name       (EmbersSource        *self);

void           embers_source_list_profile_types        (EmbersSource        *self,
                                                        gint64               start_ms,
                                                        gint64               end_ms,
                                                        GCancellable        *cancellable,
                                                        GAsyncReadyCallback  callback,
                                                        gpointer             user_data);
GPtrArray     *embers_source_list_profile_types_finish (EmbersSource        *self,
                                                        GAsyncResult        *result,
                                                        GError             **error);
void           embers_source_list_label_names          (EmbersSource        *self,
                                                        const char * const  *matchers,
                                                        gint64               start_ms,
                                                        gint64               end_ms,
                                                        GCancellable        *cancellable,
                                                        GAsyncReadyCallback  callback,
                                                        gpointer             user_data);
GStrv          embers_source_list_label_names_finish   (EmbersSource        *self,
                                                        GAsyncResult        *result,
                                                        GError             **error);
void           embers_source_list_label_values         (EmbersSource        *self,
                                                        const char          *name,
                                                        const char * const  *matchers,
                                                        gint64               start_ms,
                                                        gint64               end_ms,
                                                        GCancellable        *cancellable,
                                                        GAsyncReadyCallback  callback,
                                                        gpointer             user_data);
GStrv          embers_source_list_label_values_finish  (EmbersSource        *self,
                                                        GAsyncResult        *result,
                                                        GError             **error);
void           embers_source_list_series               (EmbersSource        *self,
                                                        const char * const  *matchers,
                                                        const char * const  *label_names,
                                                        gint64               start_ms,
                                                        gint64               end_ms,
                                                        GCancellable        *cancellable,
                                                        GAsyncReadyCallback  callback,
                                                        gpointer             user_data);
GPtrArray     *embers_source_list_series_finish        (EmbersSource        *self,
                                                        GAsyncResult        *result,
                                                        GError             **error);
void           embers_source_select_series             (EmbersSource        *self,
                                                        const EmbersQuery   *query,
                                                        const char * const  *group_by,
                                                        double               step_s,
                                                        EmbersAggregation    aggregation,
                                                        gint64               limit,
                                                        GCancellable        *cancellable,
                                                        GAsyncReadyCallback  callback,
                                                        gpointer             user_data);
GPtrArray     *embers_source_select_series_finish      (EmbersSource        *self,
                                                        GAsyncResult        *result,
                                                        GError             **error);
void           embers_source_merge_profile             (EmbersSource        *self,
                                                        const EmbersQuery   *query,
                                                        GCancellable        *cancellable,
                                                        GAsyncReadyCallback  callback,
                                                        gpointer             user_data);
EmbersProfile *embers_source_merge_profile_finish      (EmbersSource        *self,
                                                        GAsyncResult        *result,
                                                        GError             **error);
void           embers_source_diff                      (EmbersSource        *self,
                                                        const EmbersQuery   *left,
                                                        const EmbersQuery   *right,
                                                        GCancellable        *cancellable,
                                                        GAsyncReadyCallback  callback,
                                                        gpointer             user_data);
EmbersProfile *embers_source_diff_finish               (EmbersSource        *self,
                                                        GAsyncResult        *result,
                                                        GError             **error);

/* Recording rules; a source without them fails with NOT_SUPPORTED */
void                 embers_source_list_recording_rules         (EmbersSource              *self,
                                                                 GCancellable              *cancellable,
                                                                 GAsyncReadyCallback        callback,
                                                                 gpointer                   user_data);
GPtrArray           *embers_source_list_recording_rules_finish  (EmbersSource              *self,
                                                                 GAsyncResult              *result,
                                                                 GError                   **error);
void                 embers_source_get_recording_rule           (EmbersSource              *self,
                                                                 const char                *id,
                                                                 GCancellable              *cancellable,
                                                                 GAsyncReadyCallback        callback,
                                                                 gpointer                   user_data);
EmbersRecordingRule *embers_source_get_recording_rule_finish    (EmbersSource              *self,
                                                                 GAsyncResult              *result,
                                                                 GError                   **error);
void                 embers_source_upsert_recording_rule        (EmbersSource              *self,
                                                                 const EmbersRecordingRule *rule,
                                                                 GCancellable              *cancellable,
                                                                 GAsyncReadyCallback        callback,
                                                                 gpointer                   user_data);
EmbersRecordingRule *embers_source_upsert_recording_rule_finish (EmbersSource              *self,
                                                                 GAsyncResult              *result,
                                                                 GError                   **error);
void                 embers_source_delete_recording_rule        (EmbersSource              *self,
                                                                 const char                *id,
                                                                 GCancellable              *cancellable,
                                                                 GAsyncReadyCallback        callback,
                                                                 gpointer                   user_data);
gboolean             embers_source_delete_recording_rule_finish (EmbersSource              *self,
                                                                 GAsyncResult              *result,
                                                                 GError                   **error);
/* This kind of source keeps recording rules (whether its server has them
 * on is known once asked: EMBERS_SOURCE_CAN_RECORDING_RULES) */
gboolean             embers_source_offers_recording_rules       (EmbersSource              *self);
/* Why @capability is off on this source (its server said so), or NULL */
char                *embers_source_dup_unavailable_reason       (EmbersSource              *self,
                                                                 EmbersSourceCapabilities   capability);
/* The tenant (multi-tenant servers), or NULL */
char                *embers_source_dup_tenant                   (EmbersSource              *self);
/* Where the source is (a server's URL and tenant; NULL for local ones):
 * equal strings, the same place */
char                *embers_source_dup_location                 (EmbersSource              *self);

/* The merged stacks under @call_site (frame names, root first; NULL or
 * empty: all stacks) with @query->max_nodes as the node budget: the
 * sub-answer that fills in a call site's `other` (embers_fill_merge()).
 * Sources whose answers are never cut fail with NOT_SUPPORTED. */
void           embers_source_merge_call_site           (EmbersSource        *self,
                                                        const EmbersQuery   *query,
                                                        const char * const  *call_site,
                                                        GCancellable        *cancellable,
                                                        GAsyncReadyCallback  callback,
                                                        gpointer             user_data);
EmbersProfile *embers_source_merge_call_site_finish    (EmbersSource        *self,
                                                        GAsyncResult        *result,
                                                        GError             **error);

/* A chart of the range (start, end]: SelectSeries' points T each hold the
 * profiles in (T − step, T] (Pyroscope's pkg/model/timeseries/range.go),
 * so the chart asks for the points T = end − k·step, from the last at
 * @end_ms back to the first whose step reaches @start_ms: ⌈(end − start) /
 * step⌉ points, the first at the value this returns. */
gint64         embers_source_series_first_point        (gint64               start_ms,
                                                        gint64               end_ms,
                                                        double               step_s);
/* The number of those points */
guint          embers_source_series_n_points           (gint64               start_ms,
                                                        gint64               end_ms,
                                                        double               step_s);
/* SelectSeries for a chart of @query's range: the step of
 * embers_source_step_for_range() and the points of
 * embers_source_series_first_point(). Finish with
 * embers_source_select_series_finish(). */
void           embers_source_select_chart_series       (EmbersSource        *self,
                                                        const EmbersQuery   *query,
                                                        const char * const  *group_by,
                                                        EmbersAggregation    aggregation,
                                                        gint64               limit,
                                                        GCancellable        *cancellable,
                                                        GAsyncReadyCallback  callback,
                                                        gpointer             user_data);

/* A chart of @query's range (the steps and points of
 * embers_source_select_chart_series(), summed, one series) whose points
 * carry their heaviest individual profiles (EmbersSeries.exemplars): the
 * profiles to pick and narrow a merge to (EmbersQuery.profile_ids).
 * Sources without EMBERS_SOURCE_CAN_PROFILE_IDS fail with NOT_SUPPORTED. */
/* SelectSeries, summed, with each point's heaviest individual profiles
 * (EmbersSeries.exemplars); step in seconds */
void           embers_source_select_exemplars          (EmbersSource        *self,
                                                        const EmbersQuery   *query,
                                                        const char * const  *group_by,
                                                        double               step_s,
                                                        GCancellable        *cancellable,
                                                        GAsyncReadyCallback  callback,
                                                        gpointer             user_data);
void           embers_source_select_chart_exemplars    (EmbersSource        *self,
                                                        const EmbersQuery   *query,
                                                        GCancellable        *cancellable,
                                                        GAsyncReadyCallback  callback,
                                                        gpointer             user_data);
GPtrArray     *embers_source_select_exemplars_finish   (EmbersSource        *self,
                                                        GAsyncResult        *result,
                                                        GError             **error);
/* The heaviest exemplar of all @series' points, for "the heaviest
 * profiles": up to @max of them, heaviest first (ties: earlier, then the
 * smaller id), as (EmbersExemplar *) borrowed from @series */
GPtrArray     *embers_source_top_exemplars             (GPtrArray          *series,
                                                        guint               max);
/* A chart of the stacks under one call site (@call_site: frame names,
 * root first, at least one), a series per @group_by label set (nullable),
 * over @query's range with the steps and
 * points of embers_source_select_chart_series(): each point is the call
 * site's total in that step (Pyroscope: SelectSeries with a
 * stack_trace_selector; a folder computes it from its files). Finish with
 * embers_source_select_call_site_series_finish(). */
void           embers_source_select_call_site_series   (EmbersSource        *self,
                                                        const EmbersQuery   *query,
                                                        const char * const  *call_site,
                                                        const char * const  *group_by,
                                                        GCancellable        *cancellable,
                                                        GAsyncReadyCallback  callback,
                                                        gpointer             user_data);
GPtrArray     *embers_source_select_call_site_series_finish (EmbersSource  *self,
                                                        GAsyncResult        *result,
                                                        GError             **error);

/* Step rule shared by charts: Pyroscope's max(15 s, ⌈range_s / 100⌉)
 * rounded up to a multiple of the 15 s scrape interval that is a round
 * time: 15 s, 30 s, 1 min, 2 min, 5 min, 10 min, 15 min, 30 min, 1 h, 2 h,
 * 3 h, 6 h, 12 h, 1 d, then whole days (40 to 100 steps per range) */
double         embers_source_step_for_range            (gint64               start_ms,
                                                        gint64               end_ms);

G_END_DECLS
