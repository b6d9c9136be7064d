/* embers-pyroscope-source.h: a Grafana Pyroscope server as an EmbersSource
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "embers-connect-client.h"
#include "embers-source.h"

G_BEGIN_DECLS

/* The server's default, used when a query leaves max_nodes at 0. */
#define EMBERS_PYROSCOPE_DEFAULT_MAX_NODES 8192
/* The server's maximum (-querier.max-flamegraph-nodes-max default). */
#define EMBERS_PYROSCOPE_MAX_MAX_NODES     1048576

#define EMBERS_PYROSCOPE_QUERIER_SERVICE   "querier.v1.QuerierService"
#define EMBERS_PYROSCOPE_RULES_SERVICE     "settings.v1.RecordingRulesService"

#define EMBERS_TYPE_PYROSCOPE_SOURCE (embers_pyroscope_source_get_type ())

G_DECLARE_FINAL_TYPE (EmbersPyroscopeSource, embers_pyroscope_source, EMBERS, PYROSCOPE_SOURCE, GObject)

EmbersPyroscopeSource *embers_pyroscope_source_new                     (EmbersConnectClient     *client);
EmbersConnectClient   *embers_pyroscope_source_get_client              (EmbersPyroscopeSource   *self);

/* max_nodes sent when a query has 0; default 8192, at most 1048576 */
void                   embers_pyroscope_source_set_max_nodes           (EmbersPyroscopeSource   *self,
                                                                        gint64                   max_nodes);
gint64                 embers_pyroscope_source_get_max_nodes           (EmbersPyroscopeSource   *self);

/* Capability probing: a method that the server does not serve (404 or
 * Connect "unimplemented") marks its capability unavailable, with the
 * reason kept; later calls fail at once with that reason. The
 * "capabilities" property is notified when this changes. */
const char            *embers_pyroscope_source_get_unavailable_reason  (EmbersPyroscopeSource   *self,
                                                                        EmbersSourceCapabilities capability);
void                   embers_pyroscope_source_mark_unavailable        (EmbersPyroscopeSource   *self,
                                                                        EmbersSourceCapabilities capability,
                                                                        const char              *reason);

/* "Test connection": LabelNames over the last hour (reachability, auth,
 * tenant), then ListRecordingRules (which sets or clears
 * EMBERS_SOURCE_CAN_RECORDING_RULES). Fails only when the first fails. */
void                   embers_pyroscope_source_probe_async             (EmbersPyroscopeSource   *self,
                                                                        GCancellable            *cancellable,
                                                                        GAsyncReadyCallback      callback,
                                                                        gpointer                 user_data);
gboolean               embers_pyroscope_source_probe_finish            (EmbersPyroscopeSource   *self,
                                                                        GAsyncResult            *result,
                                                                        GError                 **error);

/* SelectMergeProfile: the merged profile as uncompressed pprof bytes (for
 * export), and the same parsed into an EmbersProfile. */
void                   embers_pyroscope_source_fetch_pprof_async       (EmbersPyroscopeSource   *self,
                                                                        const EmbersQuery       *query,
                                                                        GCancellable            *cancellable,
                                                                        GAsyncReadyCallback      callback,
                                                                        gpointer                 user_data);
GBytes                *embers_pyroscope_source_fetch_pprof_finish      (EmbersPyroscopeSource   *self,
                                                                        GAsyncResult            *result,
                                                                        GError                 **error);
/* The same, of the stacks through one call site (its frames, root first;
 * a stack_trace_selector): the lines of a function for its details.
 * Finish with embers_pyroscope_source_fetch_pprof_finish(). */
void                   embers_pyroscope_source_fetch_call_site_pprof_async (EmbersPyroscopeSource *self,
                                                                            const EmbersQuery     *query,
                                                                            const char * const    *call_site,
                                                                            GCancellable          *cancellable,
                                                                            GAsyncReadyCallback    callback,
                                                                            gpointer               user_data);
void                   embers_pyroscope_source_merge_pprof_async       (EmbersPyroscopeSource   *self,
                                                                        const EmbersQuery       *query,
                                                                        GCancellable            *cancellable,
                                                                        GAsyncReadyCallback      callback,
                                                                        gpointer                 user_data);
EmbersProfile         *embers_pyroscope_source_merge_pprof_finish      (EmbersPyroscopeSource   *self,
                                                                        GAsyncResult            *result,
                                                                        GError                 **error);

/* Traces to profiles: the samples of spans (SelectMergeSpanProfile; span
 * ids are 16 hexadecimal characters) or of traces (SelectMergeStacktraces
 * with trace_id_selector, Pyroscope's v2 query backend; trace ids are 32
 * hexadecimal characters), merged as a flame graph */
void                   embers_pyroscope_source_merge_span_profile_async   (EmbersPyroscopeSource   *self,
                                                                           const EmbersQuery       *query,
                                                                           const char * const      *span_ids,
                                                                           GCancellable            *cancellable,
                                                                           GAsyncReadyCallback      callback,
                                                                           gpointer                 user_data);
EmbersProfile         *embers_pyroscope_source_merge_span_profile_finish  (EmbersPyroscopeSource   *self,
                                                                           GAsyncResult            *result,
                                                                           GError                 **error);
void                   embers_pyroscope_source_merge_trace_profile_async  (EmbersPyroscopeSource   *self,
                                                                           const EmbersQuery       *query,
                                                                           const char * const      *trace_ids,
                                                                           GCancellable            *cancellable,
                                                                           GAsyncReadyCallback      callback,
                                                                           gpointer                 user_data);
EmbersProfile         *embers_pyroscope_source_merge_trace_profile_finish (EmbersPyroscopeSource   *self,
                                                                           GAsyncResult            *result,
                                                                           GError                 **error);
/* SelectSeries of the stacks under a call site (its frames, root first;
 * a stack_trace_selector): each point is that call site's total in the
 * step. Finish with embers_source_select_series_finish(). */
void                   embers_pyroscope_source_select_call_site_series_async (EmbersPyroscopeSource *self,
                                                                              const EmbersQuery     *query,
                                                                              const char * const    *call_site,
                                                                              const char * const    *group_by,
                                                                              double                 step_s,
                                                                              GCancellable          *cancellable,
                                                                              GAsyncReadyCallback    callback,
                                                                              gpointer               user_data);
/* A span id (16 hexadecimal characters) or, with @trace, a trace id (32) */
gboolean               embers_pyroscope_check_span_id                     (const char              *id,
                                                                           gboolean                 trace,
                                                                           GError                 **error);

G_END_DECLS
