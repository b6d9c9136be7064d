/* embers-readers.h: per-format readers and writers, on uncompressed data.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "embers-input.h"
#include "embers-profile.h"

G_BEGIN_DECLS

/* pprof (perftools.profiles / google.v1.Profile), src/core/embers-pprof.c */

/* Streaming: the profile's bytes block by block (threaded: decoded on a
 * second thread while the caller reads the next block), then finish.
 * options: the limits and the building progress (NULL: defaults). */
typedef struct _EmbersPprofReader EmbersPprofReader;

EmbersPprofReader *embers_pprof_reader_new    (const EmbersInputOptions *options,
                                               gboolean                  threaded);
gboolean           embers_pprof_reader_push   (EmbersPprofReader        *r,
                                               const guint8             *data,
                                               gsize                     len,
                                               GError                  **error);
EmbersProfile     *embers_pprof_reader_finish (EmbersPprofReader        *r,
                                               GCancellable             *cancellable,
                                               GError                  **error);
void               embers_pprof_reader_free   (EmbersPprofReader        *r);
/* For tests: the caller decodes every @every-th block itself whether or
 * not the decoding thread is behind (0: only when it is) */
void               embers_pprof_reader_set_caller_share (EmbersPprofReader *r,
                                                         guint              every);

EmbersProfile *embers_pprof_parse        (const guint8  *data,
                                          gsize          len,
                                          GError       **error);
GBytes        *embers_pprof_write        (EmbersProfile *profile,
                                          GError       **error);

/* Folded / collapsed stacks ("a;b;c 42"), src/core/embers-folded.c */
EmbersProfile *embers_folded_parse       (const char    *data,
                                          gsize          len,
                                          GError       **error);
GBytes        *embers_folded_write       (EmbersProfile *profile,
                                          guint          sample_type,
                                          GError       **error);

/* Pyroscope flame graph JSON, src/core/embers-flamebearer.c:
 * render API {flamebearer, metadata, ...} single and double, and Connect
 * FlameGraph / FlameGraphDiff / SelectMergeStacktracesResponse / DiffResponse. */
EmbersProfile *embers_flamebearer_parse  (const char    *data,
                                          gsize          len,
                                          GError       **error);
GBytes        *embers_flamebearer_write  (EmbersProfile *profile,
                                          guint          sample_type,
                                          GError       **error);

/* `perf script` output (Linux perf), src/core/embers-perf-script.c:
 * samples with or without call chains, one or more events. */
EmbersProfile *embers_perf_script_parse  (const char    *data,
                                          gsize          len,
                                          GError       **error);
/* Whether a line (without its newline) reads as a sample's header */
gboolean       embers_perf_script_is_header (const char *line,
                                             gsize       len);

/* Chrome DevTools / V8 CPU profile JSON (.cpuprofile, node --cpu-prof),
 * src/core/embers-chrome.c */
EmbersProfile *embers_cpuprofile_parse   (const char    *data,
                                          gsize          len,
                                          GError       **error);
/* Chrome's trace event format (object or array form): the CPU profiles
 * in its Profile and ProfileChunk events, src/core/embers-chrome.c */
EmbersProfile *embers_chrome_trace_parse (const char    *data,
                                          gsize          len,
                                          GError       **error);

/* speedscope's file format, evented and sampled profiles,
 * src/core/embers-speedscope.c */
EmbersProfile *embers_speedscope_parse   (const char    *data,
                                          gsize          len,
                                          GError       **error);

/* Java Flight Recorder (format 2: JDK 11+, async-profiler): execution
 * samples, allocations and lock waits, src/core/embers-jfr.c */
EmbersProfile *embers_jfr_parse          (const guint8  *data,
                                          gsize          len,
                                          GError       **error);

/* Levels decoding shared with the Pyroscope client (protobuf FlameGraph).
 * levels[d] has n_values[d] integers: 4 per node, or 7 for a diff.
 * names has n_names entries; names[0] is the root. */
EmbersProfile *embers_levels_to_profile  (const char * const *names,
                                          gsize               n_names,
                                          const gint64 * const *levels,
                                          const gsize        *n_values,
                                          gsize               n_levels,
                                          gboolean            is_diff,
                                          const char         *sample_type,
                                          const char         *sample_unit,
                                          GError            **error);

G_END_DECLS
