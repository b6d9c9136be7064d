/* embers-json-reader.h: a strict one-pass JSON reader for the readers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/*
 * A strict RFC 8259 pull reader over a buffer: the readers walk the text
 * once, keep what they need and check the syntax of everything else while
 * skipping it. json-glib 1.6 needs about a second to build its tree of a
 * 1M-node array (4M JsonNodes), and it lets through "01", ".5", single
 * quotes and integers that overflow 64 bits; this reader does neither.
 *
 * Errors are EMBERS_PROFILE_ERROR_INVALID with the line and column.
 * Strings come out as valid UTF-8 without NULs (broken bytes, lone
 * surrogates and U+0000 become U+FFFD).
 */

#define EMBERS_JSON_MAX_DEPTH 512

typedef struct
{
  const char *start;
  const char *p;
  const char *end;
  GString    *scratch;    /* the last member name or string read */
} EmbersJson;

typedef enum
{
  EMBERS_JSON_INT,       /* *out is set */
  EMBERS_JSON_NULL,
  EMBERS_JSON_OTHER,     /* a valid value that is no integer (or out of range) */
  EMBERS_JSON_FAILED,    /* a syntax error, set */
} EmbersJsonRead;

void           embers_json_init               (EmbersJson   *j,
                                               const char   *data,
                                               gsize         len);
void           embers_json_clear              (EmbersJson   *j);

void           embers_json_set_invalid        (GError      **error,
                                               const char   *format,
                                               ...) G_GNUC_PRINTF (2, 3);
gboolean       embers_json_syntax_error       (EmbersJson   *j,
                                               GError      **error,
                                               const char   *what);
gboolean       embers_json_ends_early         (EmbersJson   *j,
                                               GError      **error);

static inline void
embers_json_skip_ws (EmbersJson *j)
{
  while (j->p < j->end && (*j->p == ' ' || *j->p == '\n' || *j->p == '\r' || *j->p == '\t'))
    j->p++;
}

/* Skips white space; FALSE with an error at the end of the data */
static inline gboolean
embers_json_peek (EmbersJson  *j,
                  GError     **error)
{
  embers_json_skip_ws (j);
  if (j->p >= j->end)
    return embers_json_ends_early (j, error);
  return TRUE;
}

/* A string at j->p (the opening quote) into out (replacing its contents) */
gboolean       embers_json_read_string        (EmbersJson   *j,
                                               GString      *out,
                                               GError      **error);
/* A number's syntax at j->p; is_integer when it has no fraction or exponent */
gboolean       embers_json_scan_number        (EmbersJson   *j,
                                               gboolean     *is_integer,
                                               GError      **error);
/* "-"? digits, into a gint64; FALSE on anything else or overflow */
gboolean       embers_json_parse_decimal      (const char   *s,
                                               gsize         len,
                                               gint64       *out);
/* An integer as a JSON number (integral, within 64 bits; with a fraction
 * or exponent within 2^53) or a string of digits (protobuf's JSON int64) */
EmbersJsonRead embers_json_read_int           (EmbersJson   *j,
                                               gint64       *out,
                                               GError      **error);
/* Any JSON number as a double (finite); EMBERS_JSON_INT when it is one */
EmbersJsonRead embers_json_read_double        (EmbersJson   *j,
                                               double       *out,
                                               GError      **error);
gboolean       embers_json_expect_literal     (EmbersJson   *j,
                                               const char   *word,
                                               GError      **error);
/* Object and array iteration. first is TRUE before the first element;
 * each returns TRUE with *more when an element follows at j->p. */
gboolean       embers_json_next_element       (EmbersJson   *j,
                                               char          close,
                                               gboolean     *first,
                                               gboolean     *more,
                                               GError      **error);
/* The next member's key into j->scratch, and its colon */
gboolean       embers_json_next_member        (EmbersJson   *j,
                                               gboolean     *first,
                                               gboolean     *more,
                                               GError      **error);
gboolean       embers_json_skip_value         (EmbersJson   *j,
                                               guint         depth,
                                               GError      **error);
gboolean       embers_json_is_null            (EmbersJson   *j);
/* A value of the wrong type at j->p: that, unless it is no JSON at all */
gboolean       embers_json_wrong_type         (EmbersJson   *j,
                                               GError      **error,
                                               const char   *format,
                                               ...) G_GNUC_PRINTF (3, 4);
/* An integer member (null counts as 0) */
gboolean       embers_json_read_int_member    (EmbersJson   *j,
                                               const char   *name,
                                               gint64       *out,
                                               GError      **error);
/* A number member as a double (null counts as 0) */
gboolean       embers_json_read_double_member (EmbersJson   *j,
                                               const char   *name,
                                               double       *out,
                                               GError      **error);
/* A string member (null counts as absent) */
gboolean       embers_json_read_string_member (EmbersJson   *j,
                                               const char   *name,
                                               char        **out,
                                               GError      **error);
/* Expects @open ('{' or '[') at j->p (after white space), else the error
 * says that @what must be an object or an array */
gboolean       embers_json_enter              (EmbersJson   *j,
                                               char          open,
                                               const char   *what,
                                               GError      **error);

G_END_DECLS
