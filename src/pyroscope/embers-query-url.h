/* embers-query-url.h: Pyroscope query URLs, and loading one headless
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   http(s)://HOST[/prefix]/?query=<profile-type-id>{<selector>}&from=<t>&until=<t>[&max-nodes=N]
 *
 * also below a UI page (/explore …) or the legacy render API
 * (/pyroscope/render?query=…), with "to" for "until"; and Grafana Profiles
 * Drilldown URLs (GRAFANA/a/grafana-pyroscope-app/…?var-dataSource=UID&
 * var-profileMetricId=TYPE&var-serviceName=S&var-filters=k|op|v…), read
 * through Grafana's data source proxy (GRAFANA/api/datasources/proxy/uid/UID).
 *
 * from/until: Unix seconds, ms, µs or ns (told apart by magnitude), RFC 3339
 * (2024-05-01T12:00:00Z, or a date alone, taken as UTC), "now", or
 * "now-<N><unit>" with units ms, s, m, h, d, w (several may follow each
 * other: now-1h30m). from defaults to now-1h and until to now.
 *
 * Traces to profiles: &span-id=<16 hex> (also span_id, spanId or
 * spanSelector; repeated or comma-separated) opens the merged profile of
 * those spans (SelectMergeSpanProfile), &trace-id=<32 hex> (also trace_id,
 * traceId) that of those traces (SelectMergeStacktraces' trace_id_selector,
 * Pyroscope's v2 query backend). One or the other, not both.
 */

#pragma once

#include <gio/gio.h>

#include "embers-profile.h"
#include "embers-source.h"

G_BEGIN_DECLS

typedef struct
{
  char        *base_url;   /* normalised, without credentials */
  char        *user;       /* from user:password@ in the URL, or NULL */
  char        *password;
  EmbersQuery *query;      /* max_nodes 0 when the URL has none */
  GStrv        span_ids;   /* &span-id=…, or NULL */
  GStrv        trace_ids;  /* &trace-id=…, or NULL */
} EmbersQueryUrl;

void            embers_query_url_free         (EmbersQueryUrl    *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (EmbersQueryUrl, embers_query_url_free)

/* TRUE for text that starts with http:// or https:// (case-insensitive) */
gboolean        embers_query_url_is_url       (const char        *text);

/* Errors are EMBERS_SOURCE_ERROR_INVALID_ARGUMENT with a readable reason.
 * now_ms is the time "now" stands for (pass g_get_real_time () / 1000). */
EmbersQueryUrl *embers_query_url_parse        (const char        *url,
                                               gint64             now_ms,
                                               GError           **error);
gboolean        embers_query_url_parse_time   (const char        *text,
                                               gint64             now_ms,
                                               gint64            *out_ms,
                                               GError           **error);
/* A time typed by a person, as the time range entries take it:
 * "YYYY-MM-DD HH:MM[:SS]" in the local time zone, or anything
 * embers_query_url_parse_time() reads (RFC 3339, Unix time, now-2h). */
gboolean        embers_query_url_parse_local_time  (const char   *text,
                                                    gint64        now_ms,
                                                    gint64       *out_ms,
                                                    GError      **error);
/* @ms as "YYYY-MM-DD HH:MM:SS" in the local time zone ("" when out of
 * range): what embers_query_url_parse_local_time() reads back */
char           *embers_query_url_format_local_time (gint64        ms);

/* The URL for a query, with ms timestamps; parses back to the same query.
 * embers_query_url_build_spans() adds span ids or trace ids (one of them
 * NULL). */
char           *embers_query_url_build        (const char        *base_url,
                                               const EmbersQuery *query);
char           *embers_query_url_build_spans  (const char        *base_url,
                                               const EmbersQuery *query,
                                               const char * const *span_ids,
                                               const char * const *trace_ids);

#define EMBERS_QUERY_URL_MAX_TIMEOUT_S 86400

/* The seconds a query URL's server has to answer (the command line's
 * --timeout); 0 leaves it to EMBERS_TIMEOUT, else 60 s. Deadline errors
 * name both. */
void            embers_query_url_set_timeout  (guint              seconds);

/* For the command line: runs the query on a private main context and
 * waits. Credentials come from user:password@ in the URL, else from
 * EMBERS_USER/EMBERS_PASSWORD, EMBERS_TOKEN and EMBERS_TENANT, else from
 * the keyring entry saved for that server. Returns the merged flame graph
 * (SelectMergeStacktraces, max-nodes from the URL or 8192). */
EmbersProfile  *embers_pyroscope_load_query_url (const char      *url,
                                                 GCancellable    *cancellable,
                                                 GError         **error);
/* The same, but the whole merged profile as pprof (SelectMergeProfile):
 * no max-nodes truncation unless the URL asks for it; all sample labels.
 * For exporting (embers --export out.pb.gz URL). */
EmbersProfile  *embers_pyroscope_load_query_url_pprof (const char      *url,
                                                       GCancellable    *cancellable,
                                                       GError         **error);

/* Two query URLs on one server: the server's Diff RPC; a server without it
 * (unimplemented, 404) gets two SelectMergeStacktraces diffed here. Queries
 * on two servers give EMBERS_SOURCE_ERROR_NOT_SUPPORTED (diff them
 * locally). Types whose units differ (CPU time against bytes) are refused
 * before any request, with embers_diff_check_units()' error. */
EmbersProfile  *embers_pyroscope_load_query_url_diff (const char      *baseline_url,
                                                      const char      *comparison_url,
                                                      GCancellable    *cancellable,
                                                      GError         **error);

G_END_DECLS
