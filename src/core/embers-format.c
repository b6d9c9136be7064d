/* embers-format.c: gzip, format sniffing, load and save dispatch
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>
#include <unistd.h>
#include <zlib.h>
#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#endif
#include <glib/gi18n.h>

#include "embers-format.h"
#include "embers-input.h"
#include "embers-readers.h"

gboolean
embers_is_gzip (const guint8 *data,
                gsize         len)
{
  return len >= 2 && data[0] == 0x1f && data[1] == 0x8b;
}

/**
 * embers_gunzip:
 * @max_size: refuse to produce more than this many bytes
 *
 * Inflates gzip data (several concatenated members are fine). Stops with
 * %EMBERS_PROFILE_ERROR_TOO_LARGE as soon as the output would pass
 * @max_size, so a gzip bomb costs at most @max_size bytes of memory.
 */
GBytes *
embers_gunzip (const guint8  *data,
               gsize          len,
               gsize          max_size,
               GError       **error)
{
  g_autoptr(GByteArray) out = NULL;
  z_stream zs;
  gsize cap;
  int ret;

  memset (&zs, 0, sizeof zs);
  if (inflateInit2 (&zs, 15 + 16) != Z_OK)
    {
      g_set_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_INVALID,
                   _("Could not start decompression"));
      return NULL;
    }

  /* Start with a guess of 4x, grow geometrically. */
  cap = MIN (max_size, MAX ((gsize)4096, MIN (len, G_MAXSIZE / 8) * 4));
  out = g_byte_array_sized_new (cap);
  g_byte_array_set_size (out, cap);

  zs.next_in = (Bytef *)data;
  zs.avail_in = 0;

  for (;;)
    {
      gsize produced = zs.total_out;

      if (zs.avail_in == 0 && (gsize)(zs.next_in - data) < len)
        zs.avail_in = (uInt)MIN (len - (gsize)(zs.next_in - data), (gsize)G_MAXUINT32 / 2);

      if (produced == out->len)
        {
          gsize new_cap;

          if (out->len >= max_size)
            {
              g_autofree char *limit = g_format_size (max_size);

              inflateEnd (&zs);
              g_set_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_TOO_LARGE,
                           _("The compressed data expands to more than %s; refusing to decompress it further"),
                           limit);
              return NULL;
            }
          new_cap = out->len > max_size / 2 ? max_size : out->len * 2;
          g_byte_array_set_size (out, new_cap);
        }

      zs.next_out = out->data + produced;
      zs.avail_out = (uInt)MIN (out->len - produced, (gsize)G_MAXUINT32 / 2);

      ret = inflate (&zs, Z_NO_FLUSH);

      if (ret == Z_STREAM_END)
        {
          gsize consumed = (gsize)(zs.next_in - data);

          /* Another gzip member may follow. */
          if (len - consumed >= 2 && embers_is_gzip (data + consumed, len - consumed))
            {
              gsize total = zs.total_out;

              inflateReset (&zs);
              /* inflateReset clears total_out; keep our own count. */
              zs.total_out = total;
              continue;
            }
          break;
        }

      if (ret == Z_BUF_ERROR && zs.avail_in == 0 && (gsize)(zs.next_in - data) >= len)
        {
          inflateEnd (&zs);
          g_set_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_INVALID,
                       _("The compressed data is truncated"));
          return NULL;
        }

      if (ret != Z_OK && ret != Z_BUF_ERROR)
        {
          inflateEnd (&zs);
          g_set_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_INVALID,
                       _("The compressed data is corrupt (%s)"),
                       zs.msg ? zs.msg : _("unknown zlib error"));
          return NULL;
        }
    }

  g_byte_array_set_size (out, zs.total_out);
  inflateEnd (&zs);

  return g_byte_array_free_to_bytes (g_steal_pointer (&out));
}

GBytes *
embers_gzip (const guint8  *data,
             gsize          len,
             GError       **error)
{
  g_autoptr(GByteArray) out = NULL;
  z_stream zs;
  int ret;

  memset (&zs, 0, sizeof zs);
  if (deflateInit2 (&zs, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    {
      g_set_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_INVALID,
                   _("Could not start compression"));
      return NULL;
    }

  out = g_byte_array_sized_new (deflateBound (&zs, len) + 64);
  g_byte_array_set_size (out, deflateBound (&zs, len) + 64);
  zs.next_in = (Bytef *)data;
  zs.avail_in = len;
  zs.next_out = out->data;
  zs.avail_out = out->len;
  ret = deflate (&zs, Z_FINISH);
  if (ret != Z_STREAM_END)
    {
      deflateEnd (&zs);
      g_set_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_INVALID,
                   _("Could not compress the data"));
      return NULL;
    }
  g_byte_array_set_size (out, zs.total_out);
  deflateEnd (&zs);

  return g_byte_array_free_to_bytes (g_steal_pointer (&out));
}

static gboolean
looks_like_protobuf_tag (guint8 byte)
{
  guint field = byte >> 3;
  guint wire = byte & 7;

  /* Profile fields 1..14: messages and strings are length-delimited (2),
   * scalars are varints (0); packed repeated ints are length-delimited. */
  if (field < 1 || field > 14)
    return FALSE;

  return wire == 0 || wire == 2;
}

static gboolean
looks_like_folded_line (const char *line,
                        gsize       len)
{
  gsize end = len;
  gsize digits = 0;

  while (end > 0 && (line[end - 1] == ' ' || line[end - 1] == '\t' || line[end - 1] == '\r'))
    end--;
  while (end > 0 && g_ascii_isdigit (line[end - 1]))
    {
      end--;
      digits++;
    }

  return digits > 0 && end > 1 && (line[end - 1] == ' ' || line[end - 1] == '\t');
}

/* How many bytes the binary test looks at */
#define SNIFF_PROBE ((gsize)4096)

void
embers_format_sniffer_init (EmbersFormatSniffer *sniffer)
{
  g_return_if_fail (sniffer != NULL);

  memset (sniffer, 0, sizeof *sniffer);
  sniffer->format = EMBERS_FORMAT_UNKNOWN;
}

/* A top-level member name that tells which JSON profile this is */
static EmbersFormat
json_format_for_key (const char *key)
{
  static const struct
  {
    const char   *key;
    EmbersFormat  format;
  } keys[] = {
    /* Chrome DevTools / V8 CPU profile (node --cpu-prof) */
    { "nodes", EMBERS_FORMAT_CPUPROFILE },
    { "timeDeltas", EMBERS_FORMAT_CPUPROFILE },
    /* Chrome's trace event format, JSON object form */
    { "traceEvents", EMBERS_FORMAT_CHROME_TRACE },
    { "systemTraceEvents", EMBERS_FORMAT_CHROME_TRACE },
    { "stackFrames", EMBERS_FORMAT_CHROME_TRACE },
    /* speedscope's file format */
    { "$schema", EMBERS_FORMAT_SPEEDSCOPE },
    { "shared", EMBERS_FORMAT_SPEEDSCOPE },
    { "profiles", EMBERS_FORMAT_SPEEDSCOPE },
    { "activeProfileIndex", EMBERS_FORMAT_SPEEDSCOPE },
    { "exporter", EMBERS_FORMAT_SPEEDSCOPE },
    /* Pyroscope: render API and Connect FlameGraph(Diff) */
    { "flamebearer", EMBERS_FORMAT_FLAMEBEARER },
    { "flamegraph", EMBERS_FORMAT_FLAMEBEARER },
    { "names", EMBERS_FORMAT_FLAMEBEARER },
    { "levels", EMBERS_FORMAT_FLAMEBEARER },
    { "numTicks", EMBERS_FORMAT_FLAMEBEARER },
    { "total", EMBERS_FORMAT_FLAMEBEARER },
    { "maxSelf", EMBERS_FORMAT_FLAMEBEARER },
    { "max_self", EMBERS_FORMAT_FLAMEBEARER },
    { "leftTicks", EMBERS_FORMAT_FLAMEBEARER },
    { "rightTicks", EMBERS_FORMAT_FLAMEBEARER },
    { "left_ticks", EMBERS_FORMAT_FLAMEBEARER },
    { "right_ticks", EMBERS_FORMAT_FLAMEBEARER },
  };

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    if (strcmp (key, keys[i].key) == 0)
      return keys[i].format;

  return EMBERS_FORMAT_UNKNOWN;
}

/* A JSON object at data[start]: reads its member names as they arrive,
 * skipping their values (strings and brackets only: the reader checks the
 * syntax), until one tells the kind. An object that ends without such a
 * name is Pyroscope JSON, whose reader says what is missing. */
static gboolean
sniff_json_object (EmbersFormatSniffer *sniffer,
                   const guint8        *data,
                   gsize                len,
                   gsize                start,
                   gboolean             complete)
{
  gsize i = MAX (sniffer->json_pos, start);

  for (; i < len; i++)
    {
      guint8 c = data[i];

      if (c == '\0')
        {
          /* No JSON holds a NUL byte */
          sniffer->format = EMBERS_FORMAT_UNKNOWN;
          sniffer->decided = TRUE;
          return TRUE;
        }
      if (sniffer->json_in_string)
        {
          if (sniffer->json_escape)
            sniffer->json_escape = FALSE;
          else if (c == '\\')
            sniffer->json_escape = TRUE;
          else if (c == '"')
            {
              sniffer->json_in_string = FALSE;
              if (sniffer->json_in_key)
                {
                  EmbersFormat format;

                  sniffer->json_in_key = FALSE;
                  sniffer->json_want_key = FALSE;
                  sniffer->json_key[MIN (sniffer->json_key_len, sizeof sniffer->json_key - 1)] = '\0';
                  format = sniffer->json_key_len < sizeof sniffer->json_key
                           ? json_format_for_key (sniffer->json_key) : EMBERS_FORMAT_UNKNOWN;
                  if (format != EMBERS_FORMAT_UNKNOWN)
                    {
                      sniffer->format = format;
                      sniffer->decided = TRUE;
                      return TRUE;
                    }
                }
              continue;
            }
          if (sniffer->json_in_key)
            {
              if (sniffer->json_key_len < sizeof sniffer->json_key)
                sniffer->json_key[sniffer->json_key_len] = (char)c;
              sniffer->json_key_len++;
            }
          continue;
        }

      switch (c)
        {
        case '"':
          sniffer->json_in_string = TRUE;
          sniffer->json_escape = FALSE;
          if (sniffer->json_depth == 1 && sniffer->json_want_key)
            {
              sniffer->json_in_key = TRUE;
              sniffer->json_key_len = 0;
            }
          break;

        case '{':
        case '[':
          sniffer->json_depth++;
          if (sniffer->json_depth == 1)
            sniffer->json_want_key = TRUE;
          break;

        case '}':
        case ']':
          if (sniffer->json_depth > 0)
            sniffer->json_depth--;
          if (sniffer->json_depth == 0)
            {
              sniffer->format = EMBERS_FORMAT_FLAMEBEARER;
              sniffer->decided = TRUE;
              return TRUE;
            }
          break;

        case ',':
          if (sniffer->json_depth == 1)
            sniffer->json_want_key = TRUE;
          break;

        default:
          break;
        }
    }
  sniffer->json_pos = i;

  if (complete)
    {
      /* Cut off: the reader will say where */
      sniffer->format = EMBERS_FORMAT_FLAMEBEARER;
      sniffer->decided = TRUE;
    }
  return sniffer->decided;
}

/**
 * embers_format_sniffer_feed:
 * @data: all the data so far (each call passes the same buffer, longer)
 * @complete: TRUE when @data is all there is
 *
 * Decides the format from as little as it can: a control byte in the first
 * 4 KiB makes the data binary (Java Flight Recorder when it starts with
 * "FLR\0", pprof when its first byte can be a Profile field's tag, nothing
 * otherwise). Text that starts with "[" is a Chrome trace; text that
 * starts with "{" is JSON whose first telling top-level member name says
 * which (a V8 CPU profile's "nodes", a Chrome trace's "traceEvents",
 * speedscope's "$schema" or "profiles", Pyroscope's "flamebearer" or
 * "levels"…). Other text is folded stacks when its first non-empty line
 * ends in a count, and `perf script` output when its first line that is
 * not a "#" comment is a sample's header. Every step resumes where the
 * last one stopped, so feeding a long stream block by block costs one pass
 * over it.
 *
 * Returns: TRUE once sniffer->format is final (it may be
 * %EMBERS_FORMAT_UNKNOWN: these bytes cannot begin a profile); FALSE while
 * more data is needed. With @complete it always returns TRUE.
 */
gboolean
embers_format_sniffer_feed (EmbersFormatSniffer *sniffer,
                            const guint8        *data,
                            gsize                len,
                            gboolean             complete)
{
  gsize probe = MIN (len, SNIFF_PROBE);
  gsize i;

  g_return_val_if_fail (sniffer != NULL, TRUE);

  if (sniffer->decided)
    return TRUE;

  if (len == 0)
    {
      if (complete)
        sniffer->decided = TRUE;
      return sniffer->decided;
    }

  /* Binary: a control character early on */
  for (i = sniffer->probed; i < probe; i++)
    {
      guint8 c = data[i];

      if (c < 0x20 && c != '\n' && c != '\r' && c != '\t')
        {
          if (len < 4 && !complete && memcmp (data, "FLR", len) == 0)
            return FALSE;   /* wait for the fourth byte */
          if (len >= 4 && memcmp (data, "FLR\0", 4) == 0)
            sniffer->format = EMBERS_FORMAT_JFR;
          else
            sniffer->format = looks_like_protobuf_tag (data[0]) ? EMBERS_FORMAT_PPROF
                                                                : EMBERS_FORMAT_UNKNOWN;
          sniffer->decided = TRUE;
          return TRUE;
        }
    }
  sniffer->probed = probe;
  if (probe < SNIFF_PROBE && !complete)
    return FALSE;

  /* Text. Skip a UTF-8 byte order mark and white space. */
  i = sniffer->text_start;
  if (i == 0 && len >= 3 && data[0] == 0xef && data[1] == 0xbb && data[2] == 0xbf)
    i = 3;
  while (i < len && g_ascii_isspace (data[i]))
    i++;
  sniffer->text_start = i;
  if (i == len)
    {
      /* Nothing but white space so far */
      if (complete)
        sniffer->decided = TRUE;
      return sniffer->decided;
    }

  if (data[i] == '[' && !sniffer->text_comments)
    {
      /* The trace event format's JSON array form: an array of objects (a
       * folded stack may start with "[unknown];…") */
      gsize k = i + 1;

      while (k < len && g_ascii_isspace (data[k]))
        k++;
      if (k == len && !complete)
        return FALSE;
      if (k < len && (data[k] == '{' || data[k] == ']'))
        {
          sniffer->format = EMBERS_FORMAT_CHROME_TRACE;
          sniffer->decided = TRUE;
          return TRUE;
        }
    }

  if (data[i] == '{' && !sniffer->text_comments)
    return sniff_json_object (sniffer, data, len, i, complete);

  /* Lines: folded stacks, or perf script after its "#" comments */
  for (;;)
    {
      gsize from = MAX (i, sniffer->line_scanned);
      const guint8 *nl = memchr (data + from, '\n', len - from);
      gsize line_end;

      if (nl == NULL && !complete)
        {
          sniffer->line_scanned = len;
          return FALSE;
        }
      line_end = nl != NULL ? (gsize)(nl - data) : len;

      if (data[i] == '#' && !sniffer->text_comments &&
          looks_like_folded_line ((const char *)data + i, line_end - i))
        {
          /* A folded stack whose root starts with "#" */
          sniffer->format = EMBERS_FORMAT_FOLDED;
          break;
        }
      if (data[i] == '#')
        {
          /* perf script --header: comments first */
          if (nl == NULL)
            break;
          i = line_end + 1;
          sniffer->text_comments = TRUE;
          while (i < len && g_ascii_isspace (data[i]))
            i++;
          sniffer->text_start = i;
          sniffer->line_scanned = i;
          sniffer->probed = MAX (sniffer->probed, i);
          if (i == len)
            {
              if (complete)
                sniffer->decided = TRUE;
              return sniffer->decided;
            }
          continue;
        }

      if (!sniffer->text_comments)
        {
          if (looks_like_folded_line ((const char *)data + i, line_end - i))
            sniffer->format = EMBERS_FORMAT_FOLDED;
          else if (embers_perf_script_is_header ((const char *)data + i, line_end - i))
            sniffer->format = EMBERS_FORMAT_PERF_SCRIPT;
        }
      else if (embers_perf_script_is_header ((const char *)data + i, line_end - i))
        sniffer->format = EMBERS_FORMAT_PERF_SCRIPT;
      break;
    }

  sniffer->decided = TRUE;
  return TRUE;
}

EmbersFormat
embers_format_sniff (const guint8 *data,
                     gsize         len)
{
  EmbersFormatSniffer sniffer;

  embers_format_sniffer_init (&sniffer);
  embers_format_sniffer_feed (&sniffer, data, len, TRUE);

  return sniffer.format;
}

/* What the refusal of unknown data says: the formats Embers reads */
const char *
embers_format_unknown_message (void)
{
  return _("This is not a profile Embers can read: expected pprof (.pb, .pb.gz), "
           "folded stacks (“a;b;c 42” lines), Pyroscope JSON, perf script output, "
           "a V8 or Chrome CPU profile (.cpuprofile, a trace with profile chunks), "
           "speedscope JSON or Java Flight Recorder (.jfr)");
}

EmbersFormat
embers_format_for_filename (const char *filename)
{
  g_autofree char *lower = NULL;

  if (filename == NULL)
    return EMBERS_FORMAT_UNKNOWN;

  lower = g_ascii_strdown (filename, -1);

  if (g_str_has_suffix (lower, ".pb.gz") || g_str_has_suffix (lower, ".pb") ||
      g_str_has_suffix (lower, ".pprof") || g_str_has_suffix (lower, ".prof") ||
      g_str_has_suffix (lower, ".pprof.gz"))
    return EMBERS_FORMAT_PPROF;
  if (g_str_has_suffix (lower, ".folded") || g_str_has_suffix (lower, ".collapsed") ||
      g_str_has_suffix (lower, ".txt"))
    return EMBERS_FORMAT_FOLDED;
  if (g_str_has_suffix (lower, ".json"))
    return EMBERS_FORMAT_FLAMEBEARER;
  if (g_str_has_suffix (lower, ".png"))
    return EMBERS_FORMAT_PNG;
  if (g_str_has_suffix (lower, ".svg"))
    return EMBERS_FORMAT_SVG;
  if (g_str_has_suffix (lower, ".pdf"))
    return EMBERS_FORMAT_PDF;

  return EMBERS_FORMAT_UNKNOWN;
}

const char *
embers_format_get_name (EmbersFormat format)
{
  switch (format)
    {
    case EMBERS_FORMAT_PPROF:       return "pprof";
    case EMBERS_FORMAT_FOLDED:      return "folded";
    case EMBERS_FORMAT_FLAMEBEARER: return "Pyroscope JSON";
    case EMBERS_FORMAT_PNG:         return "PNG";
    case EMBERS_FORMAT_SVG:         return "SVG";
    case EMBERS_FORMAT_PDF:         return "PDF";
    case EMBERS_FORMAT_PERF_SCRIPT: return "perf script";
    case EMBERS_FORMAT_CPUPROFILE:  return "V8 CPU profile";
    case EMBERS_FORMAT_CHROME_TRACE: return "Chrome trace";
    case EMBERS_FORMAT_SPEEDSCOPE:  return "speedscope";
    case EMBERS_FORMAT_JFR:         return "Java Flight Recorder";
    case EMBERS_FORMAT_UNKNOWN:
    default:                        return "unknown";
    }
}

static EmbersProfile *
parse (const guint8  *data,
       gsize          len,
       EmbersFormat   format,
       GError       **error)
{
  switch (format)
    {
    case EMBERS_FORMAT_PPROF:
      return embers_pprof_parse (data, len, error);

    case EMBERS_FORMAT_FOLDED:
      return embers_folded_parse ((const char *)data, len, error);

    case EMBERS_FORMAT_FLAMEBEARER:
      return embers_flamebearer_parse ((const char *)data, len, error);

    case EMBERS_FORMAT_PERF_SCRIPT:
      return embers_perf_script_parse ((const char *)data, len, error);

    case EMBERS_FORMAT_CPUPROFILE:
      return embers_cpuprofile_parse ((const char *)data, len, error);

    case EMBERS_FORMAT_CHROME_TRACE:
      return embers_chrome_trace_parse ((const char *)data, len, error);

    case EMBERS_FORMAT_SPEEDSCOPE:
      return embers_speedscope_parse ((const char *)data, len, error);

    case EMBERS_FORMAT_JFR:
      return embers_jfr_parse (data, len, error);

    case EMBERS_FORMAT_UNKNOWN:
    case EMBERS_FORMAT_PNG:
    case EMBERS_FORMAT_SVG:
    case EMBERS_FORMAT_PDF:
    default:
      g_set_error_literal (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_UNKNOWN_FORMAT,
                           embers_format_unknown_message ());
      return NULL;
    }
}

EmbersProfile *
embers_profile_load_bytes (GBytes        *bytes,
                           GCancellable  *cancellable,
                           GError       **error)
{
  g_autoptr(GBytes) inflated = NULL;
  const guint8 *data;
  EmbersFormat format;
  gsize len;

  g_return_val_if_fail (bytes != NULL, NULL);

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;

  data = g_bytes_get_data (bytes, &len);
  if (len == 0)
    {
      g_set_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_EMPTY,
                   _("The file is empty"));
      return NULL;
    }

  if (embers_is_gzip (data, len))
    {
      /* Inflated in steps, each checked: a bomb stops at its first block
       * that cannot be a profile (embers-input.c) */
      g_autoptr(EmbersInput) input = NULL;
      EmbersInputOptions options;

      embers_input_options_init (&options);
      options.max_input = MAX (options.max_input, len);
      input = embers_input_new (&options);
      if (!embers_input_push (input, data, len, error) ||
          !(inflated = embers_input_finish (input, &format, error)))
        return NULL;
      data = g_bytes_get_data (inflated, &len);
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;
    }
  else
    format = embers_format_sniff (data, len);

  return parse (data, len, format, error);
}

/* A pprof streams into its reader as it is read and inflated */
typedef struct
{
  const EmbersInputOptions *options;
  EmbersPprofReader        *reader;
} PprofSink;

static gboolean
pprof_sink_start (EmbersFormat format,
                  gpointer     user_data)
{
  PprofSink *sink = user_data;

  if (format != EMBERS_FORMAT_PPROF)
    return FALSE;
  sink->reader = embers_pprof_reader_new (sink->options, TRUE);
  return TRUE;
}

static gboolean
pprof_sink_block (const guint8  *data,
                  gsize          len,
                  gpointer       user_data,
                  GError       **error)
{
  PprofSink *sink = user_data;

  return embers_pprof_reader_push (sink->reader, data, len, error);
}

EmbersProfile *
embers_profile_load_file_full (GFile                     *file,
                               const EmbersInputOptions  *options,
                               GCancellable              *cancellable,
                               GError                   **error)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) local_error = NULL;
  EmbersInputOptions defaults;
  EmbersProfile *profile;
  EmbersFormat format;
  PprofSink pprof = { 0, };
  EmbersInputSink sink = { pprof_sink_start, pprof_sink_block, &pprof };

  g_return_val_if_fail (G_IS_FILE (file), NULL);

  if (options == NULL)
    {
      embers_input_options_init (&defaults);
      options = &defaults;
    }
  pprof.options = options;

  if (embers_input_read_file_to_sink (file, options, &sink, &format, &bytes, cancellable, error))
    profile = embers_pprof_reader_finish (pprof.reader, cancellable, &local_error);
  else if (bytes != NULL)
    {
      const guint8 *data;
      gsize len;

      data = g_bytes_get_data (bytes, &len);
      profile = parse (data, len, format, &local_error);
    }
  else
    {
      g_clear_pointer (&pprof.reader, embers_pprof_reader_free);
      return NULL;
    }
  g_clear_pointer (&pprof.reader, embers_pprof_reader_free);

  if (profile == NULL)
    {
      g_autofree char *name = g_file_get_parse_name (file);

      g_set_error (error, local_error->domain, local_error->code,
                   _("Could not read “%s”: %s"), name, local_error->message);
      return NULL;
    }

  return profile;
}

EmbersProfile *
embers_profile_load_file (GFile         *file,
                          GCancellable  *cancellable,
                          GError       **error)
{
  return embers_profile_load_file_full (file, NULL, cancellable, error);
}

typedef struct
{
  GTask              *task;
  GFile              *file;
  EmbersInputOptions  options;
  GDestroyNotify      destroy;
} LoadJob;

static gpointer
load_file_thread (gpointer data)
{
  LoadJob *job = data;
  GCancellable *cancellable = g_task_get_cancellable (job->task);
  GError *error = NULL;
  EmbersProfile *profile;

#ifdef __linux__
  /* Nice is per thread on Linux, and threads started here inherit it */
  setpriority (PRIO_PROCESS, (id_t)syscall (SYS_gettid), 10);
#endif

  profile = embers_profile_load_file_full (job->file, &job->options, cancellable, &error);
  if (profile == NULL)
    g_task_return_error (job->task, error);
  else
    g_task_return_pointer (job->task, profile, g_object_unref);

  if (job->destroy != NULL)
    job->destroy (job->options.user_data);
  g_object_unref (job->task);
  g_object_unref (job->file);
  g_free (job);
  return NULL;
}

void
embers_profile_load_file_full_async (GFile                     *file,
                                     const EmbersInputOptions  *options,
                                     GDestroyNotify             destroy,
                                     GCancellable              *cancellable,
                                     GAsyncReadyCallback        callback,
                                     gpointer                   user_data)
{
  LoadJob *job;

  g_return_if_fail (G_IS_FILE (file));

  job = g_new0 (LoadJob, 1);
  job->task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (job->task, embers_profile_load_file_async);
  job->file = g_object_ref (file);
  if (options != NULL)
    job->options = *options;
  else
    embers_input_options_init (&job->options);
  job->destroy = destroy;
  g_thread_unref (g_thread_new ("embers-load", load_file_thread, job));
}

void
embers_profile_load_file_async (GFile              *file,
                                GCancellable       *cancellable,
                                GAsyncReadyCallback callback,
                                gpointer            user_data)
{
  embers_profile_load_file_full_async (file, NULL, NULL, cancellable, callback, user_data);
}

EmbersProfile *
embers_profile_load_file_finish (GAsyncResult  *result,
                                 GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == embers_profile_load_file_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

GBytes *
embers_profile_save_bytes (EmbersProfile *profile,
                           EmbersFormat   format,
                           guint          sample_type,
                           gboolean       gzip,
                           GError       **error)
{
  g_autoptr(GBytes) raw = NULL;

  g_return_val_if_fail (EMBERS_IS_PROFILE (profile), NULL);

  if (sample_type >= embers_profile_get_n_sample_types (profile))
    {
      g_set_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_INVALID,
                   _("The profile has no sample type %u"), sample_type);
      return NULL;
    }

  switch (format)
    {
    case EMBERS_FORMAT_PPROF:
      raw = embers_pprof_write (profile, error);
      break;

    case EMBERS_FORMAT_FOLDED:
      raw = embers_folded_write (profile, sample_type, error);
      break;

    case EMBERS_FORMAT_FLAMEBEARER:
      raw = embers_flamebearer_write (profile, sample_type, error);
      break;

    case EMBERS_FORMAT_UNKNOWN:
    case EMBERS_FORMAT_PNG:
    case EMBERS_FORMAT_SVG:
    case EMBERS_FORMAT_PDF:
    default:
      g_set_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_UNSUPPORTED,
                   _("Cannot save a profile as %s data"), embers_format_get_name (format));
      return NULL;
    }

  if (raw == NULL)
    return NULL;

  if (gzip)
    return embers_gzip (g_bytes_get_data (raw, NULL), g_bytes_get_size (raw), error);

  return g_steal_pointer (&raw);
}
