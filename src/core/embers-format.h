/* embers-format.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "embers-profile.h"

G_BEGIN_DECLS

typedef enum
{
  EMBERS_FORMAT_UNKNOWN,
  EMBERS_FORMAT_PPROF,
  EMBERS_FORMAT_FOLDED,
  EMBERS_FORMAT_FLAMEBEARER,   /* Pyroscope JSON: render API or Connect FlameGraph(Diff) */
  EMBERS_FORMAT_PNG,           /* export only */
  EMBERS_FORMAT_SVG,           /* export only */
  EMBERS_FORMAT_PDF,           /* export only */
  EMBERS_FORMAT_PERF_SCRIPT,   /* `perf script` text, read only */
  EMBERS_FORMAT_CPUPROFILE,    /* Chrome/V8 .cpuprofile JSON, read only */
  EMBERS_FORMAT_CHROME_TRACE,  /* Chrome trace JSON with profile chunks, read only */
  EMBERS_FORMAT_SPEEDSCOPE,    /* speedscope JSON, read only */
  EMBERS_FORMAT_JFR,           /* Java Flight Recorder, read only */
} EmbersFormat;

/* Refuse to inflate more than this (gzip bombs). */
#define EMBERS_MAX_DECOMPRESSED_SIZE ((gsize) 2 * 1024 * 1024 * 1024 - 1)
/* Refuse to read input files larger than this. */
#define EMBERS_MAX_INPUT_SIZE        ((gsize) 1024 * 1024 * 1024)

gboolean       embers_is_gzip                (const guint8  *data,
                                              gsize          len);
GBytes        *embers_gunzip                 (const guint8  *data,
                                              gsize          len,
                                              gsize          max_size,
                                              GError       **error);
GBytes        *embers_gzip                   (const guint8  *data,
                                              gsize          len,
                                              GError       **error);

/* Sniffs uncompressed content. */
EmbersFormat   embers_format_sniff           (const guint8  *data,
                                              gsize          len);

/* The same decision, made on a growing prefix: as soon as the first bytes
 * tell the format, or that they cannot begin a profile at all. */
typedef struct
{
  EmbersFormat format;        /* final once decided */
  gboolean     decided;
  /*< private >*/
  gsize        probed;
  gsize        text_start;
  gsize        line_scanned;
  gboolean     text_comments;   /* "#" lines came first */
  /* JSON: the top-level member names, read as they arrive */
  gsize        json_pos;
  guint        json_depth;
  gboolean     json_in_string;
  gboolean     json_escape;
  gboolean     json_in_key;
  gboolean     json_want_key;
  guint        json_key_len;
  char         json_key[24];
} EmbersFormatSniffer;

void           embers_format_sniffer_init    (EmbersFormatSniffer *sniffer);
gboolean       embers_format_sniffer_feed    (EmbersFormatSniffer *sniffer,
                                              const guint8        *data,
                                              gsize                len,
                                              gboolean             complete);
/* From an output file name: .pb.gz .pb .pprof .folded .txt .json .png .svg .pdf */
EmbersFormat   embers_format_for_filename    (const char    *filename);
const char    *embers_format_get_name        (EmbersFormat   format);
/* The error message for data in no format Embers reads */
const char    *embers_format_unknown_message (void);

/* Parse: gunzips if needed, sniffs, dispatches. */
EmbersProfile *embers_profile_load_bytes     (GBytes        *bytes,
                                              GCancellable  *cancellable,
                                              GError       **error);
EmbersProfile *embers_profile_load_file      (GFile         *file,
                                              GCancellable  *cancellable,
                                              GError       **error);
void           embers_profile_load_file_async  (GFile              *file,
                                                GCancellable       *cancellable,
                                                GAsyncReadyCallback callback,
                                                gpointer            user_data);
EmbersProfile *embers_profile_load_file_finish (GAsyncResult  *result,
                                                GError       **error);

/* Serialize a data format (pprof written gzipped when gzip is TRUE).
 * sample_type selects the column for single-column formats (folded, JSON). */
GBytes        *embers_profile_save_bytes     (EmbersProfile *profile,
                                              EmbersFormat   format,
                                              guint          sample_type,
                                              gboolean       gzip,
                                              GError       **error);

G_END_DECLS
