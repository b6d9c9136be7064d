/* ets-selector.c: Prometheus metric selectors for the test server
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "ets-selector.h"

#include <string.h>

#include <gio/gio.h>

typedef struct
{
  const char *text;
  const char *p;
  GError    **error;
} Parser;

static void
matcher_free (gpointer data)
{
  EtsMatcher *m = data;

  g_free (m->name);
  g_free (m->value);
  g_clear_pointer (&m->regex, g_regex_unref);
  g_free (m);
}

void
ets_selector_free (EtsSelector *self)
{
  if (self == NULL)
    return;
  g_ptr_array_unref (self->matchers);
  g_free (self);
}

static EtsSelector *
selector_new (void)
{
  EtsSelector *self = g_new0 (EtsSelector, 1);

  self->matchers = g_ptr_array_new_with_free_func (matcher_free);
  return self;
}

static gboolean
fail (Parser     *parser,
      const char *format,
      ...) G_GNUC_PRINTF (2, 3);

static gboolean
fail (Parser     *parser,
      const char *format,
      ...)
{
  g_autofree char *what = NULL;
  va_list args;

  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (parser->error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
               "1:%d: parse error: %s", (int) (parser->p - parser->text) + 1, what);
  return FALSE;
}

static void
skip_space (Parser *parser)
{
  while (*parser->p == ' ' || *parser->p == '\t' || *parser->p == '\n' || *parser->p == '\r')
    parser->p++;
}

static gboolean
is_name_start (char c,
               gboolean colon)
{
  return g_ascii_isalpha (c) || c == '_' || (colon && c == ':');
}

static gboolean
is_name_char (char c,
              gboolean colon)
{
  return g_ascii_isalnum (c) || c == '_' || (colon && c == ':');
}

static gboolean
is_name (const char *name,
         gboolean    colon)
{
  if (name == NULL || !is_name_start (name[0], colon))
    return FALSE;
  for (const char *p = name + 1; *p != '\0'; p++)
    if (!is_name_char (*p, colon))
      return FALSE;
  return TRUE;
}

gboolean
ets_is_label_name (const char *name)
{
  return is_name (name, FALSE);
}

gboolean
ets_is_metric_name (const char *name)
{
  return is_name (name, TRUE);
}

static char *
read_name (Parser  *parser,
           gboolean colon)
{
  const char *start = parser->p;

  if (!is_name_start (*parser->p, colon))
    return NULL;
  while (is_name_char (*parser->p, colon))
    parser->p++;
  return g_strndup (start, parser->p - start);
}

static int
hex_value (char c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

/* A quoted string with Go's escapes; p is on the opening quote */
static char *
read_string (Parser *parser)
{
  char quote = *parser->p;
  g_autoptr(GString) out = g_string_new (NULL);

  parser->p++;
  for (;;)
    {
      char c = *parser->p;

      if (c == '\0' || (c == '\n' && quote != '`'))
        {
          fail (parser, "unterminated quoted string");
          return NULL;
        }
      parser->p++;
      if (c == quote)
        break;
      if (c != '\\' || quote == '`')
        {
          g_string_append_c (out, c);
          continue;
        }

      c = *parser->p++;
      switch (c)
        {
        case 'a': g_string_append_c (out, '\a'); break;
        case 'b': g_string_append_c (out, '\b'); break;
        case 'f': g_string_append_c (out, '\f'); break;
        case 'n': g_string_append_c (out, '\n'); break;
        case 'r': g_string_append_c (out, '\r'); break;
        case 't': g_string_append_c (out, '\t'); break;
        case 'v': g_string_append_c (out, '\v'); break;
        case '\\': g_string_append_c (out, '\\'); break;
        case '"':
        case '\'':
          if (c != quote)
            {
              parser->p--;
              fail (parser, "unknown escape sequence \\%c", c);
              return NULL;
            }
          g_string_append_c (out, c);
          break;
        case 'x':
        case 'u':
        case 'U':
          {
            int n = c == 'x' ? 2 : c == 'u' ? 4 : 8;
            gunichar v = 0;

            for (int i = 0; i < n; i++)
              {
                int h = hex_value (parser->p[i]);
                if (h < 0)
                  {
                    fail (parser, "invalid escape sequence \\%c", c);
                    return NULL;
                  }
                v = v * 16 + h;
              }
            parser->p += n;
            if (c == 'x')
              g_string_append_c (out, (char) v);
            else
              {
                if (!g_unichar_validate (v))
                  {
                    fail (parser, "escape sequence is an invalid Unicode code point");
                    return NULL;
                  }
                g_string_append_unichar (out, v);
              }
          }
          break;
        default:
          if (c >= '0' && c <= '7')
            {
              int v = c - '0';
              for (int i = 0; i < 2; i++)
                {
                  char d = parser->p[i];
                  if (d < '0' || d > '7')
                    {
                      fail (parser, "invalid escape sequence \\%c", c);
                      return NULL;
                    }
                  v = v * 8 + (d - '0');
                }
              if (v > 255)
                {
                  fail (parser, "octal escape value > 255");
                  return NULL;
                }
              parser->p += 2;
              g_string_append_c (out, (char) v);
              break;
            }
          parser->p--;
          fail (parser, "unknown escape sequence \\%c", c != '\0' ? c : '0');
          return NULL;
        }
    }

  if (!g_utf8_validate (out->str, out->len, NULL))
    {
      fail (parser, "invalid UTF-8 in quoted string");
      return NULL;
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

static gboolean
add_matcher (EtsSelector *self,
             char        *name,
             EtsMatchOp   op,
             char        *value,
             GError     **error)
{
  EtsMatcher *m = g_new0 (EtsMatcher, 1);

  m->name = name;
  m->op = op;
  m->value = value;
  if (op == ETS_MATCH_RE || op == ETS_MATCH_NRE)
    {
      g_autofree char *anchored = g_strdup_printf ("^(?:%s)$", value);
      g_autoptr(GError) local = NULL;

      m->regex = g_regex_new (anchored, G_REGEX_DOTALL, 0, &local);
      if (m->regex == NULL)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       "parse error: invalid regular expression in matcher %s: %s",
                       name, local->message);
          matcher_free (m);
          return FALSE;
        }
    }
  g_ptr_array_add (self->matchers, m);
  return TRUE;
}

void
ets_selector_add (EtsSelector *self,
                  const char  *name,
                  EtsMatchOp   op,
                  const char  *value)
{
  gboolean ok = add_matcher (self, g_strdup (name), op, g_strdup (value), NULL);

  g_return_if_fail (ok);
}

static gboolean
parse_braces (Parser      *parser,
              EtsSelector *self)
{
  /* p is after '{' */
  for (;;)
    {
      g_autofree char *name = NULL;
      g_autofree char *value = NULL;
      EtsMatchOp op;

      skip_space (parser);
      if (*parser->p == '}')
        {
          parser->p++;
          return TRUE;
        }
      if (*parser->p == '\0')
        return fail (parser, "unexpected end of input inside braces");

      if (*parser->p == '"')
        {
          /* Quoted (UTF-8) label name */
          name = read_string (parser);
          if (name == NULL)
            return FALSE;
        }
      else
        {
          name = read_name (parser, FALSE);
          if (name == NULL)
            return fail (parser, "unexpected character inside braces: '%c'", *parser->p);
        }

      skip_space (parser);
      if (parser->p[0] == '=' && parser->p[1] == '~')
        op = ETS_MATCH_RE, parser->p += 2;
      else if (parser->p[0] == '!' && parser->p[1] == '~')
        op = ETS_MATCH_NRE, parser->p += 2;
      else if (parser->p[0] == '!' && parser->p[1] == '=')
        op = ETS_MATCH_NE, parser->p += 2;
      else if (parser->p[0] == '=')
        op = ETS_MATCH_EQ, parser->p += 1;
      else if (parser->p[0] == '\0')
        return fail (parser, "unexpected end of input inside braces");
      else
        return fail (parser, "unexpected character after label name \"%s\": '%c'", name, *parser->p);

      skip_space (parser);
      if (*parser->p != '"' && *parser->p != '\'' && *parser->p != '`')
        return fail (parser, "unexpected %s in label matching, expected string",
                     *parser->p == '\0' ? "end of input" : "character");
      value = read_string (parser);
      if (value == NULL)
        return FALSE;
      if (!add_matcher (self, g_steal_pointer (&name), op, g_steal_pointer (&value), parser->error))
        return FALSE;

      skip_space (parser);
      if (*parser->p == ',')
        {
          parser->p++;
          continue;
        }
      if (*parser->p == '}')
        continue;
      if (*parser->p == '\0')
        return fail (parser, "unexpected end of input inside braces");
      return fail (parser, "unexpected character inside braces: '%c'", *parser->p);
    }
}

EtsSelector *
ets_selector_parse (const char *text,
                    GError    **error)
{
  g_autoptr(EtsSelector) self = selector_new ();
  Parser parser = { text != NULL ? text : "", text != NULL ? text : "", error };
  g_autofree char *metric = NULL;

  text = parser.text;
  if (!g_utf8_validate (text, -1, NULL))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           "1:1: parse error: invalid UTF-8 rune");
      return NULL;
    }

  skip_space (&parser);
  if (*parser.p == '\0')
    {
      /* Prometheus' ParseMetricSelector refuses an empty string */
      fail (&parser, "unexpected end of input");
      return NULL;
    }

  if (*parser.p != '{')
    {
      metric = read_name (&parser, TRUE);
      if (metric == NULL)
        {
          fail (&parser, "unexpected character: '%c'", *parser.p);
          return NULL;
        }
      if (!add_matcher (self, g_strdup ("__name__"), ETS_MATCH_EQ, g_steal_pointer (&metric), error))
        return NULL;
      skip_space (&parser);
    }

  if (*parser.p == '{')
    {
      parser.p++;
      if (!parse_braces (&parser, self))
        return NULL;
      skip_space (&parser);
    }

  if (*parser.p != '\0')
    {
      fail (&parser, "unexpected character after selector: '%c'", *parser.p);
      return NULL;
    }
  return g_steal_pointer (&self);
}

gboolean
ets_matcher_matches (EtsMatcher *m,
                     const char *value)
{
  if (value == NULL)
    value = "";

  switch (m->op)
    {
    case ETS_MATCH_EQ:
      return g_str_equal (value, m->value);
    case ETS_MATCH_NE:
      return !g_str_equal (value, m->value);
    case ETS_MATCH_RE:
      return g_regex_match (m->regex, value, 0, NULL);
    case ETS_MATCH_NRE:
      return !g_regex_match (m->regex, value, 0, NULL);
    default:
      g_assert_not_reached ();
    }
}

gboolean
ets_selector_matches (EtsSelector   *self,
                      EtsLabelLookup lookup,
                      gpointer       data)
{
  for (guint i = 0; i < self->matchers->len; i++)
    {
      EtsMatcher *m = g_ptr_array_index (self->matchers, i);

      if (!ets_matcher_matches (m, lookup (data, m->name)))
        return FALSE;
    }
  return TRUE;
}

const char *
ets_selector_get_equal (EtsSelector *self,
                        const char  *name)
{
  for (guint i = 0; i < self->matchers->len; i++)
    {
      EtsMatcher *m = g_ptr_array_index (self->matchers, i);

      if (m->op == ETS_MATCH_EQ && g_str_equal (m->name, name))
        return m->value;
    }
  return NULL;
}
