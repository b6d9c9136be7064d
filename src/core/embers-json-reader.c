/* embers-json-reader.c: a strict one-pass JSON reader for the readers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n.h>

#include "embers-json-reader.h"
#include "embers-profile.h"

void
embers_json_init (EmbersJson *j,
                  const char *data,
                  gsize       len)
{
  j->start = data;
  j->p = data;
  j->end = data + len;
  j->scratch = g_string_new (NULL);
}

void
embers_json_clear (EmbersJson *j)
{
  if (j->scratch != NULL)
    g_string_free (j->scratch, TRUE);
  j->scratch = NULL;
}

void
embers_json_set_invalid (GError     **error,
                         const char  *format,
                         ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  g_set_error_literal (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_INVALID, message);
}

gboolean
embers_json_syntax_error (EmbersJson        *j,
              GError     **error,
              const char  *what)
{
  guint line = 1, column = 1;

  for (const char *q = j->start; q < j->p; q++)
    {
      if (*q == '\n')
        {
          line++;
          column = 1;
        }
      else if (((guchar)*q & 0xc0) != 0x80)   /* count characters, not bytes */
        column++;
    }

  embers_json_set_invalid (error, _("not valid JSON (line %u, column %u: %s)"), line, column, what);
  return FALSE;
}

static int
hex_digit (char c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

static gboolean
read_hex4 (EmbersJson     *j,
           gunichar *out,
           GError  **error)
{
  gunichar v = 0;

  if (j->end - j->p < 4)
    return embers_json_syntax_error (j, error, _("the data ends inside a \\u escape"));
  for (int i = 0; i < 4; i++)
    {
      int h = hex_digit (j->p[i]);

      if (h < 0)
        return embers_json_syntax_error (j, error, _("a \\u escape needs four hexadecimal digits"));
      v = (v << 4) | (gunichar)h;
    }
  j->p += 4;
  *out = v;
  return TRUE;
}

/* A string at j->p (the opening quote) into out (replacing its contents).
 * The result is valid UTF-8 without NULs: broken bytes, lone surrogates
 * and U+0000 become U+FFFD. */
gboolean
embers_json_read_string (EmbersJson     *j,
             GString  *out,
             GError  **error)
{
  gboolean ascii_only = TRUE;

  g_string_truncate (out, 0);
  j->p++;   /* the quote */

  for (;;)
    {
      const char *run = j->p;

      while (j->p < j->end && *j->p != '"' && *j->p != '\\' && (guchar)*j->p >= 0x20)
        {
          if ((guchar)*j->p >= 0x80)
            ascii_only = FALSE;
          j->p++;
        }
      if (j->p > run)
        g_string_append_len (out, run, j->p - run);

      if (j->p >= j->end)
        return embers_json_syntax_error (j, error, _("a string is not closed"));

      if (*j->p == '"')
        {
          j->p++;
          break;
        }

      if ((guchar)*j->p < 0x20)
        return embers_json_syntax_error (j, error, _("a control character inside a string must be escaped"));

      /* An escape */
      j->p++;
      if (j->p >= j->end)
        return embers_json_syntax_error (j, error, _("a string is not closed"));
      switch (*j->p++)
        {
        case '"':  g_string_append_c (out, '"'); break;
        case '\\': g_string_append_c (out, '\\'); break;
        case '/':  g_string_append_c (out, '/'); break;
        case 'b':  g_string_append_c (out, '\b'); break;
        case 'f':  g_string_append_c (out, '\f'); break;
        case 'n':  g_string_append_c (out, '\n'); break;
        case 'r':  g_string_append_c (out, '\r'); break;
        case 't':  g_string_append_c (out, '\t'); break;
        case 'u':
          {
            gunichar c;

            if (!read_hex4 (j, &c, error))
              return FALSE;
            if (c >= 0xd800 && c <= 0xdbff && j->end - j->p >= 6 && j->p[0] == '\\' && j->p[1] == 'u')
              {
                const char *save = j->p;
                gunichar low;

                j->p += 2;
                if (!read_hex4 (j, &low, error))
                  return FALSE;
                if (low >= 0xdc00 && low <= 0xdfff)
                  c = 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00);
                else
                  j->p = save;   /* a lone high surrogate; read the next escape on its own */
              }
            if (c == 0 || (c >= 0xd800 && c <= 0xdfff))
              c = 0xfffd;
            g_string_append_unichar (out, c);
            ascii_only = ascii_only && c < 0x80;
          }
          break;
        default:
          j->p--;
          return embers_json_syntax_error (j, error, _("an unknown escape in a string"));
        }
    }

  if (!ascii_only && !g_utf8_validate (out->str, out->len, NULL))
    {
      g_autofree char *valid = g_utf8_make_valid (out->str, out->len);

      g_string_assign (out, valid);
    }

  return TRUE;
}

/* Scans a number's syntax at j->p; is_integer when it has no fraction or
 * exponent */
gboolean
embers_json_scan_number (EmbersJson      *j,
             gboolean  *is_integer,
             GError   **error)
{
  const char *p = j->p;

  *is_integer = TRUE;
  if (p < j->end && *p == '-')
    p++;
  if (p >= j->end || !g_ascii_isdigit (*p))
    {
      j->p = p;
      return embers_json_syntax_error (j, error, _("a number needs a digit here"));
    }
  if (*p == '0')
    p++;
  else
    while (p < j->end && g_ascii_isdigit (*p))
      p++;
  if (p < j->end && *p == '.')
    {
      *is_integer = FALSE;
      p++;
      if (p >= j->end || !g_ascii_isdigit (*p))
        {
          j->p = p;
          return embers_json_syntax_error (j, error, _("a number needs a digit after the decimal point"));
        }
      while (p < j->end && g_ascii_isdigit (*p))
        p++;
    }
  if (p < j->end && (*p == 'e' || *p == 'E'))
    {
      *is_integer = FALSE;
      p++;
      if (p < j->end && (*p == '+' || *p == '-'))
        p++;
      if (p >= j->end || !g_ascii_isdigit (*p))
        {
          j->p = p;
          return embers_json_syntax_error (j, error, _("a number needs a digit in its exponent"));
        }
      while (p < j->end && g_ascii_isdigit (*p))
        p++;
    }
  j->p = p;
  return TRUE;
}

/* "-"? digits, into a gint64; FALSE on anything else or overflow */
gboolean
embers_json_parse_decimal (const char *s,
               gsize       len,
               gint64     *out)
{
  gboolean negative = FALSE;
  guint64 v = 0;
  guint64 limit;
  gsize i = 0;

  if (len > 0 && s[0] == '-')
    {
      negative = TRUE;
      i = 1;
    }
  if (i == len)
    return FALSE;
  limit = negative ? (guint64)G_MAXINT64 + 1 : (guint64)G_MAXINT64;
  for (; i < len; i++)
    {
      guint digit;

      if (!g_ascii_isdigit (s[i]))
        return FALSE;
      digit = (guint)(s[i] - '0');
      if (v > (limit - digit) / 10)
        return FALSE;
      v = v * 10 + digit;
    }
  *out = negative ? (gint64)(0 - v) : (gint64)v;
  return TRUE;
}

/* An integer as a JSON number (integral, within 64 bits; with a fraction
 * or exponent within 2^53) or as a string of digits (protobuf's JSON form
 * of int64) */
EmbersJsonRead
embers_json_read_int (EmbersJson    *j,
          gint64  *out,
          GError **error)
{
  const char *start;

  if (!embers_json_peek (j, error))
    return EMBERS_JSON_FAILED;
  start = j->p;

  if (*j->p == '"')
    {
      /* Fast path: digits right up to the closing quote */
      const char *q = j->p + 1;

      while (q < j->end && (g_ascii_isdigit (*q) || *q == '-'))
        q++;
      if (q < j->end && *q == '"')
        {
          j->p = q + 1;
          return embers_json_parse_decimal (start + 1, q - start - 1, out) ? EMBERS_JSON_INT : EMBERS_JSON_OTHER;
        }
      if (!embers_json_read_string (j, j->scratch, error))
        return EMBERS_JSON_FAILED;
      return embers_json_parse_decimal (j->scratch->str, j->scratch->len, out) ? EMBERS_JSON_INT : EMBERS_JSON_OTHER;
    }

  if (*j->p == '-' || g_ascii_isdigit (*j->p))
    {
      gboolean is_integer;
      char buf[64];
      gsize len;
      double v;

      if (!embers_json_scan_number (j, &is_integer, error))
        return EMBERS_JSON_FAILED;
      len = j->p - start;
      if (is_integer)
        return embers_json_parse_decimal (start, len, out) ? EMBERS_JSON_INT : EMBERS_JSON_OTHER;

      if (len >= sizeof buf)
        return EMBERS_JSON_OTHER;
      memcpy (buf, start, len);
      buf[len] = '\0';
      v = g_ascii_strtod (buf, NULL);
      if (!isfinite (v) || v != floor (v) || fabs (v) > 9007199254740992.0)
        return EMBERS_JSON_OTHER;
      *out = (gint64)v;
      return EMBERS_JSON_INT;
    }

  if (j->end - j->p >= 4 && memcmp (j->p, "null", 4) == 0)
    {
      j->p += 4;
      return EMBERS_JSON_NULL;
    }

  return embers_json_skip_value (j, 0, error) ? EMBERS_JSON_OTHER : EMBERS_JSON_FAILED;
}

gboolean
embers_json_expect_literal (EmbersJson       *j,
                const char *word,
                GError    **error)
{
  gsize len = strlen (word);

  if ((gsize)(j->end - j->p) < len || memcmp (j->p, word, len) != 0)
    return embers_json_syntax_error (j, error, _("unexpected character"));
  j->p += len;
  return TRUE;
}

/* Object and array iteration. first is TRUE before the first element;
 * each returns TRUE with *more when an element follows at j->p. */
gboolean
embers_json_next_element (EmbersJson      *j,
              char       close,
              gboolean  *first,
              gboolean  *more,
              GError   **error)
{
  if (!embers_json_peek (j, error))
    return FALSE;
  if (*j->p == close)
    {
      j->p++;
      *more = FALSE;
      return TRUE;
    }
  if (!*first)
    {
      if (*j->p != ',')
        return embers_json_syntax_error (j, error, close == ']' ? _("expected “,” or “]”") : _("expected “,” or “}”"));
      j->p++;
      if (!embers_json_peek (j, error))
        return FALSE;
      if (*j->p == close)
        return embers_json_syntax_error (j, error, _("a comma before a closing bracket"));
    }
  *first = FALSE;
  *more = TRUE;
  return TRUE;
}

/* The next member's key into j->scratch, and its colon */
gboolean
embers_json_next_member (EmbersJson      *j,
             gboolean  *first,
             gboolean  *more,
             GError   **error)
{
  if (!embers_json_next_element (j, '}', first, more, error))
    return FALSE;
  if (!*more)
    return TRUE;
  if (*j->p != '"')
    return embers_json_syntax_error (j, error, _("expected a member name in quotes"));
  if (!embers_json_read_string (j, j->scratch, error))
    return FALSE;
  if (!embers_json_peek (j, error))
    return FALSE;
  if (*j->p != ':')
    return embers_json_syntax_error (j, error, _("expected “:” after a member name"));
  j->p++;
  return embers_json_peek (j, error);
}

gboolean
embers_json_skip_value (EmbersJson    *j,
            guint    depth,
            GError **error)
{
  gboolean first = TRUE, more = TRUE, is_integer;

  if (!embers_json_peek (j, error))
    return FALSE;
  if (depth > EMBERS_JSON_MAX_DEPTH)
    return embers_json_syntax_error (j, error, _("nested too deeply"));

  switch (*j->p)
    {
    case '{':
      j->p++;
      while (embers_json_next_member (j, &first, &more, error) && more)
        if (!embers_json_skip_value (j, depth + 1, error))
          return FALSE;
      return !more;

    case '[':
      j->p++;
      while (embers_json_next_element (j, ']', &first, &more, error) && more)
        if (!embers_json_skip_value (j, depth + 1, error))
          return FALSE;
      return !more;

    case '"':
      return embers_json_read_string (j, j->scratch, error);

    case 't':
      return embers_json_expect_literal (j, "true", error);

    case 'f':
      return embers_json_expect_literal (j, "false", error);

    case 'n':
      return embers_json_expect_literal (j, "null", error);

    default:
      if (*j->p == '-' || g_ascii_isdigit (*j->p))
        return embers_json_scan_number (j, &is_integer, error);
      return embers_json_syntax_error (j, error, _("expected a value"));
    }
}

gboolean
embers_json_is_null (EmbersJson *j)
{
  return j->p < j->end && *j->p == 'n' && j->end - j->p >= 4 && memcmp (j->p, "null", 4) == 0;
}

/* A value of the wrong type at j->p: that, unless it is no JSON at all */
gboolean
embers_json_wrong_type (EmbersJson       *j,
            GError    **error,
            const char *format,
            ...)
{
  g_autofree char *message = NULL;
  va_list args;

  if (!embers_json_skip_value (j, 2, error))
    return FALSE;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  g_set_error_literal (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_INVALID, message);
  return FALSE;
}

/* An integer member (null counts as 0) */
gboolean
embers_json_read_int_member (EmbersJson       *j,
                 const char *name,
                 gint64     *out,
                 GError    **error)
{
  switch (embers_json_read_int (j, out, error))
    {
    case EMBERS_JSON_INT:
      return TRUE;
    case EMBERS_JSON_NULL:
      *out = 0;
      return TRUE;
    case EMBERS_JSON_OTHER:
      embers_json_set_invalid (error, _("“%s” is not a 64-bit integer"), name);
      return FALSE;
    case EMBERS_JSON_FAILED:
    default:
      return FALSE;
    }
}

/* A string member (null counts as absent) */
gboolean
embers_json_read_string_member (EmbersJson        *j,
                    const char  *name,
                    char       **out,
                    GError     **error)
{
  g_clear_pointer (out, g_free);
  if (embers_json_is_null (j))
    {
      j->p += 4;
      return TRUE;
    }
  if (*j->p != '"')
    return embers_json_wrong_type (j, error, _("“%s” must be a string"), name);
  if (!embers_json_read_string (j, j->scratch, error))
    return FALSE;
  *out = g_strndup (j->scratch->str, j->scratch->len);
  return TRUE;
}

gboolean
embers_json_ends_early (EmbersJson  *j,
                        GError     **error)
{
  return embers_json_syntax_error (j, error, _("the data ends too early"));
}

EmbersJsonRead
embers_json_read_double (EmbersJson  *j,
                         double      *out,
                         GError     **error)
{
  const char *start;
  gboolean is_integer;
  char buf[64];
  gsize len;
  double v;

  if (!embers_json_peek (j, error))
    return EMBERS_JSON_FAILED;
  start = j->p;

  if (*j->p == '-' || g_ascii_isdigit (*j->p))
    {
      if (!embers_json_scan_number (j, &is_integer, error))
        return EMBERS_JSON_FAILED;
      len = j->p - start;
      if (len >= sizeof buf)
        {
          /* So many digits: only the integer part counts, and it is huge */
          *out = start[0] == '-' ? -HUGE_VAL : HUGE_VAL;
          return EMBERS_JSON_OTHER;
        }
      memcpy (buf, start, len);
      buf[len] = '\0';
      v = g_ascii_strtod (buf, NULL);
      if (!isfinite (v))
        return EMBERS_JSON_OTHER;
      *out = v;
      return EMBERS_JSON_INT;
    }

  if (embers_json_is_null (j))
    {
      j->p += 4;
      return EMBERS_JSON_NULL;
    }

  return embers_json_skip_value (j, 0, error) ? EMBERS_JSON_OTHER : EMBERS_JSON_FAILED;
}

gboolean
embers_json_read_double_member (EmbersJson  *j,
                                const char  *name,
                                double      *out,
                                GError     **error)
{
  switch (embers_json_read_double (j, out, error))
    {
    case EMBERS_JSON_INT:
      return TRUE;
    case EMBERS_JSON_NULL:
      *out = 0;
      return TRUE;
    case EMBERS_JSON_OTHER:
      embers_json_set_invalid (error, _("“%s” is not a number"), name);
      return FALSE;
    case EMBERS_JSON_FAILED:
    default:
      return FALSE;
    }
}

gboolean
embers_json_enter (EmbersJson  *j,
                   char         open,
                   const char  *what,
                   GError     **error)
{
  if (!embers_json_peek (j, error))
    return FALSE;
  if (*j->p != open)
    return open == '{' ? embers_json_wrong_type (j, error, _("“%s” must be an object"), what)
                       : embers_json_wrong_type (j, error, _("“%s” must be an array"), what);
  j->p++;
  return TRUE;
}
