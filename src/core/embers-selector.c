/* embers-selector.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "embers-selector.h"

G_DEFINE_QUARK (embers-selector-error-quark, embers_selector_error)

struct _EmbersSelector
{
  gatomicrefcount  ref_count;
  GArray          *matchers;  /* EmbersMatcher */
  GPtrArray       *regexes;   /* GRegex or NULL, parallel to matchers */
};

G_DEFINE_BOXED_TYPE (EmbersSelector, embers_selector, embers_selector_ref, embers_selector_unref)

static void
clear_matcher (gpointer data)
{
  EmbersMatcher *m = data;

  g_free (m->name);
  g_free (m->value);
}

static void
regex_unref0 (gpointer data)
{
  if (data != NULL)
    g_regex_unref (data);
}

EmbersSelector *
embers_selector_new (void)
{
  EmbersSelector *self = g_new0 (EmbersSelector, 1);

  g_atomic_ref_count_init (&self->ref_count);
  self->matchers = g_array_new (FALSE, FALSE, sizeof (EmbersMatcher));
  g_array_set_clear_func (self->matchers, clear_matcher);
  self->regexes = g_ptr_array_new_with_free_func (regex_unref0);

  return self;
}

EmbersSelector *
embers_selector_ref (EmbersSelector *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
embers_selector_unref (EmbersSelector *self)
{
  if (self == NULL)
    return;

  if (g_atomic_ref_count_dec (&self->ref_count))
    {
      g_array_unref (self->matchers);
      g_ptr_array_unref (self->regexes);
      g_free (self);
    }
}

EmbersSelector *
embers_selector_copy (EmbersSelector *self)
{
  EmbersSelector *copy;

  g_return_val_if_fail (self != NULL, NULL);

  copy = embers_selector_new ();
  for (guint i = 0; i < self->matchers->len; i++)
    {
      embers_selector_add_matcher (copy, &g_array_index (self->matchers, EmbersMatcher, i));
    }

  return copy;
}

guint
embers_selector_get_n_matchers (EmbersSelector *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->matchers->len;
}

const EmbersMatcher *
embers_selector_get_matcher (EmbersSelector *self,
                             guint           index)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (index < self->matchers->len, NULL);

  return &g_array_index (self->matchers, EmbersMatcher, index);
}

gboolean
embers_label_name_is_valid (const char *name)
{
  if (name == NULL || name[0] == '\0')
    return FALSE;
  if (!(g_ascii_isalpha (name[0]) || name[0] == '_'))
    return FALSE;
  for (const char *p = name + 1; *p; p++)
    if (!(g_ascii_isalnum (*p) || *p == '_'))
      return FALSE;

  return TRUE;
}

gboolean
embers_metric_name_is_valid (const char *name)
{
  if (name == NULL || name[0] == '\0')
    return FALSE;
  if (!(g_ascii_isalpha (name[0]) || name[0] == '_' || name[0] == ':'))
    return FALSE;
  for (const char *p = name + 1; *p; p++)
    if (!(g_ascii_isalnum (*p) || *p == '_' || *p == ':'))
      return FALSE;

  return TRUE;
}

/* any_name: a quoted label name, which Prometheus takes as any UTF-8 */
static gboolean
add_matcher (EmbersSelector  *self,
             const char      *name,
             EmbersMatchOp    op,
             const char      *value,
             gboolean         any_name,
             GError         **error)
{
  g_autoptr(GRegex) regex = NULL;
  EmbersMatcher m;

  if (any_name ? !g_utf8_validate (name, -1, NULL) : !embers_label_name_is_valid (name))
    {
      g_autofree char *shown = g_utf8_make_valid (name, -1);

      g_set_error (error, EMBERS_SELECTOR_ERROR, EMBERS_SELECTOR_ERROR_NAME,
                   _("“%s” is not a valid label name: use letters, digits and “_”, not starting with a digit"),
                   shown);
      return FALSE;
    }

  if (value == NULL)
    value = "";

  if (!g_utf8_validate (value, -1, NULL))
    {
      g_autofree char *shown = g_utf8_make_valid (name, -1);

      g_set_error (error, EMBERS_SELECTOR_ERROR, EMBERS_SELECTOR_ERROR_SYNTAX,
                   _("The value for “%s” is not valid UTF-8"), shown);
      return FALSE;
    }

  if (op == EMBERS_MATCH_REGEX || op == EMBERS_MATCH_NOT_REGEX)
    {
      g_autofree char *anchored = g_strdup_printf ("^(?:%s)$", value);
      g_autoptr(GError) local_error = NULL;

      regex = g_regex_new (anchored, G_REGEX_OPTIMIZE, 0, &local_error);
      if (regex == NULL)
        {
          g_set_error (error, EMBERS_SELECTOR_ERROR, EMBERS_SELECTOR_ERROR_REGEX,
                       _("The regular expression for “%s” is not valid: %s"),
                       name, local_error->message);
          return FALSE;
        }
    }

  m.name = g_strdup (name);
  m.op = op;
  m.value = g_strdup (value);
  g_array_append_val (self->matchers, m);
  g_ptr_array_add (self->regexes, g_steal_pointer (&regex));

  return TRUE;
}

gboolean
embers_selector_add (EmbersSelector  *self,
                     const char      *name,
                     EmbersMatchOp    op,
                     const char      *value,
                     GError         **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  return add_matcher (self, name, op, value, FALSE, error);
}

void
embers_selector_add_matcher (EmbersSelector      *self,
                             const EmbersMatcher *matcher)
{
  gboolean ok;

  g_return_if_fail (self != NULL);
  g_return_if_fail (matcher != NULL);

  /* It was valid where it came from */
  ok = add_matcher (self, matcher->name, matcher->op, matcher->value, TRUE, NULL);
  g_return_if_fail (ok);
}

guint
embers_selector_remove (EmbersSelector *self,
                        const char     *name)
{
  guint removed = 0;

  g_return_val_if_fail (self != NULL, 0);

  for (guint i = self->matchers->len; i > 0; i--)
    {
      if (g_strcmp0 (g_array_index (self->matchers, EmbersMatcher, i - 1).name, name) == 0)
        {
          g_array_remove_index (self->matchers, i - 1);
          g_ptr_array_remove_index (self->regexes, i - 1);
          removed++;
        }
    }

  return removed;
}

gboolean
embers_selector_matches (EmbersSelector    *self,
                         EmbersLabelLookup  lookup,
                         gpointer           user_data)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (lookup != NULL, FALSE);

  for (guint i = 0; i < self->matchers->len; i++)
    {
      const EmbersMatcher *m = &g_array_index (self->matchers, EmbersMatcher, i);
      const char *value = lookup (m->name, user_data);
      gboolean ok;

      if (value == NULL)
        value = "";

      switch (m->op)
        {
        case EMBERS_MATCH_EQUAL:
          ok = g_str_equal (value, m->value);
          break;
        case EMBERS_MATCH_NOT_EQUAL:
          ok = !g_str_equal (value, m->value);
          break;
        case EMBERS_MATCH_REGEX:
          ok = g_regex_match (g_ptr_array_index (self->regexes, i), value, 0, NULL);
          break;
        case EMBERS_MATCH_NOT_REGEX:
          ok = !g_regex_match (g_ptr_array_index (self->regexes, i), value, 0, NULL);
          break;
        default:
          ok = FALSE;
          break;
        }

      if (!ok)
        return FALSE;
    }

  return TRUE;
}

const char *
embers_match_op_to_string (EmbersMatchOp op)
{
  switch (op)
    {
    case EMBERS_MATCH_EQUAL:     return "=";
    case EMBERS_MATCH_NOT_EQUAL: return "!=";
    case EMBERS_MATCH_REGEX:     return "=~";
    case EMBERS_MATCH_NOT_REGEX: return "!~";
    default:                     return "?";
    }
}

char *
embers_selector_quote (const char *value)
{
  GString *s = g_string_new ("\"");

  for (const char *p = value ? value : ""; *p; p++)
    {
      switch (*p)
        {
        case '"':  g_string_append (s, "\\\""); break;
        case '\\': g_string_append (s, "\\\\"); break;
        case '\n': g_string_append (s, "\\n"); break;
        case '\t': g_string_append (s, "\\t"); break;
        case '\r': g_string_append (s, "\\r"); break;
        default:   g_string_append_c (s, *p); break;
        }
    }
  g_string_append_c (s, '"');

  return g_string_free (s, FALSE);
}

char *
embers_matcher_to_string (const EmbersMatcher *matcher)
{
  g_autofree char *quoted = NULL;

  g_return_val_if_fail (matcher != NULL, NULL);

  quoted = embers_selector_quote (matcher->value);
  if (!embers_label_name_is_valid (matcher->name))
    {
      /* Prometheus 3: any UTF-8 name, in quotes */
      g_autofree char *name = embers_selector_quote (matcher->name);

      return g_strdup_printf ("%s%s%s", name, embers_match_op_to_string (matcher->op), quoted);
    }
  return g_strdup_printf ("%s%s%s", matcher->name, embers_match_op_to_string (matcher->op), quoted);
}

char *
embers_selector_to_string (EmbersSelector *self)
{
  GString *s;

  g_return_val_if_fail (self != NULL, NULL);

  s = g_string_new ("{");
  for (guint i = 0; i < self->matchers->len; i++)
    {
      g_autofree char *m = embers_matcher_to_string (&g_array_index (self->matchers, EmbersMatcher, i));

      if (i > 0)
        g_string_append_c (s, ',');
      g_string_append (s, m);
    }
  g_string_append_c (s, '}');

  return g_string_free (s, FALSE);
}

/* Parser */

typedef struct
{
  const char *text;
  const char *p;
} Parser;

static void
skip_space (Parser *ps)
{
  while (*ps->p && g_ascii_isspace (*ps->p))
    ps->p++;
}

static gsize
position (Parser *ps)
{
  return (gsize)(ps->p - ps->text) + 1;
}

static gboolean
parse_string (Parser   *ps,
              char    **out,
              GError  **error)
{
  char quote = *ps->p;
  GString *s;

  if (quote != '"' && quote != '\'' && quote != '`')
    {
      g_set_error (error, EMBERS_SELECTOR_ERROR, EMBERS_SELECTOR_ERROR_SYNTAX,
                   _("Expected a quoted value at position %zu"), position (ps));
      return FALSE;
    }

  s = g_string_new (NULL);
  ps->p++;
  while (*ps->p && *ps->p != quote)
    {
      if (*ps->p == '\\' && quote != '`')
        {
          ps->p++;
          switch (*ps->p)
            {
            case 'n':  g_string_append_c (s, '\n'); break;
            case 't':  g_string_append_c (s, '\t'); break;
            case 'r':  g_string_append_c (s, '\r'); break;
            case '\\': g_string_append_c (s, '\\'); break;
            case '"':  g_string_append_c (s, '"'); break;
            case '\'': g_string_append_c (s, '\''); break;
            case '\0':
              g_string_free (s, TRUE);
              g_set_error (error, EMBERS_SELECTOR_ERROR, EMBERS_SELECTOR_ERROR_SYNTAX,
                           _("The quoted value is not closed"));
              return FALSE;
            default:
              /* Keep unknown escapes for regular expressions: \d, \. ... */
              g_string_append_c (s, '\\');
              g_string_append_c (s, *ps->p);
              break;
            }
          ps->p++;
          continue;
        }
      g_string_append_c (s, *ps->p);
      ps->p++;
    }

  if (*ps->p != quote)
    {
      g_string_free (s, TRUE);
      g_set_error (error, EMBERS_SELECTOR_ERROR, EMBERS_SELECTOR_ERROR_SYNTAX,
                   _("The quoted value is not closed"));
      return FALSE;
    }
  ps->p++;

  *out = g_string_free (s, FALSE);
  return TRUE;
}

static gboolean
parse_matcher (Parser          *ps,
               EmbersSelector  *self,
               GError         **error)
{
  g_autofree char *name = NULL;
  g_autofree char *value = NULL;
  const char *start = ps->p;
  gboolean quoted_name = FALSE;
  EmbersMatchOp op;

  if (*ps->p == '"')
    {
      /* A quoted name: any UTF-8 (Prometheus 3) */
      if (!parse_string (ps, &name, error))
        return FALSE;
      quoted_name = TRUE;
    }
  else
    {
      if (!(g_ascii_isalpha (*ps->p) || *ps->p == '_'))
        {
          g_set_error (error, EMBERS_SELECTOR_ERROR, EMBERS_SELECTOR_ERROR_SYNTAX,
                       _("Expected a label name at position %zu"), position (ps));
          return FALSE;
        }
      while (g_ascii_isalnum (*ps->p) || *ps->p == '_')
        ps->p++;
      name = g_strndup (start, ps->p - start);
    }

  skip_space (ps);
  if (ps->p[0] == '=' && ps->p[1] == '~')
    op = EMBERS_MATCH_REGEX, ps->p += 2;
  else if (ps->p[0] == '!' && ps->p[1] == '~')
    op = EMBERS_MATCH_NOT_REGEX, ps->p += 2;
  else if (ps->p[0] == '!' && ps->p[1] == '=')
    op = EMBERS_MATCH_NOT_EQUAL, ps->p += 2;
  else if (ps->p[0] == '=')
    op = EMBERS_MATCH_EQUAL, ps->p += 1;
  else
    {
      g_autofree char *shown = g_utf8_make_valid (name, -1);

      g_set_error (error, EMBERS_SELECTOR_ERROR, EMBERS_SELECTOR_ERROR_SYNTAX,
                   _("Expected “=”, “!=”, “=~” or “!~” after “%s” at position %zu"),
                   shown, position (ps));
      return FALSE;
    }

  skip_space (ps);
  if (!parse_string (ps, &value, error))
    return FALSE;

  return add_matcher (self, name, op, value, quoted_name, error);
}

EmbersSelector *
embers_selector_parse (const char  *text,
                       char       **metric_name,
                       GError     **error)
{
  g_autoptr(EmbersSelector) self = embers_selector_new ();
  Parser ps = { text ? text : "", text ? text : "" };
  const char *start;

  if (metric_name)
    *metric_name = NULL;

  skip_space (&ps);

  /* Optional metric name (a profile type id is allowed: letters, digits, _ : . -) */
  start = ps.p;
  while (*ps.p && *ps.p != '{' && !g_ascii_isspace (*ps.p))
    ps.p++;
  if (ps.p > start)
    {
      if (metric_name == NULL)
        {
          g_set_error (error, EMBERS_SELECTOR_ERROR, EMBERS_SELECTOR_ERROR_SYNTAX,
                       _("A label selector starts with “{”"));
          return NULL;
        }
      *metric_name = g_strndup (start, ps.p - start);
    }

  skip_space (&ps);
  if (*ps.p == '\0')
    return g_steal_pointer (&self);

  if (*ps.p != '{')
    {
      g_set_error (error, EMBERS_SELECTOR_ERROR, EMBERS_SELECTOR_ERROR_SYNTAX,
                   _("Expected “{” at position %zu"), position (&ps));
      goto fail;
    }
  ps.p++;
  skip_space (&ps);

  while (*ps.p != '}')
    {
      if (!parse_matcher (&ps, self, error))
        goto fail;
      skip_space (&ps);
      if (*ps.p == ',')
        {
          ps.p++;
          skip_space (&ps);
          continue;
        }
      if (*ps.p != '}')
        {
          g_set_error (error, EMBERS_SELECTOR_ERROR, EMBERS_SELECTOR_ERROR_SYNTAX,
                       *ps.p ? _("Expected “,” or “}” at position %zu")
                             : _("The selector is not closed with “}” (position %zu)"),
                       position (&ps));
          goto fail;
        }
    }
  ps.p++;
  skip_space (&ps);
  if (*ps.p != '\0')
    {
      g_set_error (error, EMBERS_SELECTOR_ERROR, EMBERS_SELECTOR_ERROR_SYNTAX,
                   _("Unexpected text after “}” at position %zu"), position (&ps));
      goto fail;
    }

  return g_steal_pointer (&self);

fail:
  if (metric_name)
    g_clear_pointer (metric_name, g_free);
  return NULL;
}

/* Prometheus' ParseMetricSelector, as Pyroscope parses each matcher of a
 * recording rule and of a Series request: an optional metric name, then
 * an optional {…}; at least one of them. Strings take Go's escapes only
 * (an unknown one such as \d is an error), may not span lines unless in
 * backquotes, and must be UTF-8; a label name in quotes may be any UTF-8. */

static gboolean
strict_fail (Parser      *ps,
             GError     **error,
             const char  *format,
             ...) G_GNUC_PRINTF (3, 4);

static gboolean
strict_fail (Parser      *ps,
             GError     **error,
             const char  *format,
             ...)
{
  g_autofree char *what = NULL;
  va_list args;

  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);
  /* Translators: %s says what is wrong, %zu is a character position */
  g_set_error (error, EMBERS_SELECTOR_ERROR, EMBERS_SELECTOR_ERROR_SYNTAX,
               _("%s at position %zu"), what, position (ps));
  return FALSE;
}

static void
strict_skip_space (Parser *ps)
{
  while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r')
    ps->p++;
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

/* A Go string literal; ps->p is on the opening quote */
static char *
strict_string (Parser  *ps,
               GError **error)
{
  g_autoptr(GString) out = g_string_new (NULL);
  char quote = *ps->p;

  ps->p++;
  for (;;)
    {
      char c = *ps->p;

      if (c == '\0' || (c == '\n' && quote != '`'))
        {
          strict_fail (ps, error, _("The quoted text is not closed"));
          return NULL;
        }
      ps->p++;
      if (c == quote)
        break;
      if (c != '\\' || quote == '`')
        {
          g_string_append_c (out, c);
          continue;
        }

      c = *ps->p;
      switch (c)
        {
        case 'a': g_string_append_c (out, '\a'); ps->p++; break;
        case 'b': g_string_append_c (out, '\b'); ps->p++; break;
        case 'f': g_string_append_c (out, '\f'); ps->p++; break;
        case 'n': g_string_append_c (out, '\n'); ps->p++; break;
        case 'r': g_string_append_c (out, '\r'); ps->p++; break;
        case 't': g_string_append_c (out, '\t'); ps->p++; break;
        case 'v': g_string_append_c (out, '\v'); ps->p++; break;
        case '\\': g_string_append_c (out, '\\'); ps->p++; break;
        case 'x':
        case 'u':
        case 'U':
          {
            int n = c == 'x' ? 2 : c == 'u' ? 4 : 8;
            gunichar v = 0;

            for (int i = 0; i < n; i++)
              {
                int h = hex_digit (ps->p[1 + i]);

                if (h < 0)
                  {
                    strict_fail (ps, error, _("“\\%c” needs %d hexadecimal digits"), c, n);
                    return NULL;
                  }
                v = v * 16 + h;
              }
            if (c == 'x')
              g_string_append_c (out, (char) v);
            else if (!g_unichar_validate (v))
              {
                strict_fail (ps, error, _("“\\%c” is not a valid Unicode character"), c);
                return NULL;
              }
            else
              g_string_append_unichar (out, v);
            ps->p += 1 + n;
          }
          break;
        default:
          if (c == quote)
            {
              g_string_append_c (out, c);
              ps->p++;
              break;
            }
          if (c >= '0' && c <= '7')
            {
              int v = 0;

              for (int i = 0; i < 3; i++)
                {
                  char d = ps->p[i];

                  if (d < '0' || d > '7')
                    {
                      strict_fail (ps, error, _("An octal escape needs three digits"));
                      return NULL;
                    }
                  v = v * 8 + (d - '0');
                }
              if (v > 255)
                {
                  strict_fail (ps, error, _("An octal escape cannot be above \\377"));
                  return NULL;
                }
              g_string_append_c (out, (char) v);
              ps->p += 3;
              break;
            }
          if (c == '\0')
            strict_fail (ps, error, _("The quoted text is not closed"));
          else if ((guchar) c < 0x80)
            strict_fail (ps, error, _("Unknown escape “\\%c” (write “\\\\%c” for a backslash)"), c, c);
          else
            strict_fail (ps, error, _("Unknown escape after “\\”"));
          return NULL;
        }
    }

  if (!g_utf8_validate (out->str, out->len, NULL))
    {
      strict_fail (ps, error, _("The quoted text is not valid UTF-8"));
      return NULL;
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

static char *
strict_name (Parser   *ps,
             gboolean  metric)
{
  const char *start = ps->p;

  if (!(g_ascii_isalpha (*ps->p) || *ps->p == '_' || (metric && *ps->p == ':')))
    return NULL;
  while (g_ascii_isalnum (*ps->p) || *ps->p == '_' || (metric && *ps->p == ':'))
    ps->p++;
  return g_strndup (start, ps->p - start);
}

static gboolean
strict_braces (Parser          *ps,
               EmbersSelector  *self,
               GError         **error)
{
  /* ps->p is after "{" */
  for (;;)
    {
      g_autofree char *name = NULL;
      g_autofree char *value = NULL;
      gboolean quoted_name = FALSE;
      EmbersMatchOp op;

      strict_skip_space (ps);
      if (*ps->p == '}')
        {
          ps->p++;
          return TRUE;
        }
      if (*ps->p == '\0')
        return strict_fail (ps, error, _("The selector is not closed with “}”"));

      if (*ps->p == '"' || *ps->p == '\'' || *ps->p == '`')
        {
          name = strict_string (ps, error);
          if (name == NULL)
            return FALSE;
          quoted_name = TRUE;
        }
      else if ((name = strict_name (ps, FALSE)) == NULL)
        return strict_fail (ps, error, _("Expected a label name"));

      strict_skip_space (ps);
      if (ps->p[0] == '=' && ps->p[1] == '~')
        op = EMBERS_MATCH_REGEX, ps->p += 2;
      else if (ps->p[0] == '!' && ps->p[1] == '~')
        op = EMBERS_MATCH_NOT_REGEX, ps->p += 2;
      else if (ps->p[0] == '!' && ps->p[1] == '=')
        op = EMBERS_MATCH_NOT_EQUAL, ps->p += 2;
      else if (ps->p[0] == '=')
        op = EMBERS_MATCH_EQUAL, ps->p += 1;
      else
        {
          g_autofree char *shown = g_utf8_make_valid (name, -1);

          return strict_fail (ps, error, _("Expected “=”, “!=”, “=~” or “!~” after “%s”"), shown);
        }

      strict_skip_space (ps);
      if (*ps->p != '"' && *ps->p != '\'' && *ps->p != '`')
        return strict_fail (ps, error, _("Expected a quoted value"));
      value = strict_string (ps, error);
      if (value == NULL)
        return FALSE;
      if (!add_matcher (self, name, op, value, quoted_name, error))
        return FALSE;

      strict_skip_space (ps);
      if (*ps->p == ',')
        {
          ps->p++;
          continue;
        }
      if (*ps->p == '}')
        continue;
      if (*ps->p == '\0')
        return strict_fail (ps, error, _("The selector is not closed with “}”"));
      return strict_fail (ps, error, _("Expected “,” or “}”"));
    }
}

EmbersSelector *
embers_selector_parse_metric_selector (const char  *text,
                                       GError     **error)
{
  g_autoptr(EmbersSelector) self = embers_selector_new ();
  Parser ps = { text ? text : "", text ? text : "" };

  if (!g_utf8_validate (ps.text, -1, NULL))
    {
      g_set_error (error, EMBERS_SELECTOR_ERROR, EMBERS_SELECTOR_ERROR_SYNTAX,
                   _("The matcher is not valid UTF-8"));
      return NULL;
    }

  strict_skip_space (&ps);
  if (*ps.p == '\0')
    {
      g_set_error (error, EMBERS_SELECTOR_ERROR, EMBERS_SELECTOR_ERROR_SYNTAX,
                   _("The matcher is empty"));
      return NULL;
    }

  if (*ps.p != '{')
    {
      g_autofree char *metric = strict_name (&ps, TRUE);

      if (metric == NULL)
        {
          strict_fail (&ps, error, _("Expected “{” or a metric name"));
          return NULL;
        }
      add_matcher (self, "__name__", EMBERS_MATCH_EQUAL, metric, FALSE, NULL);
      strict_skip_space (&ps);
    }

  if (*ps.p == '{')
    {
      ps.p++;
      if (!strict_braces (&ps, self, error))
        return NULL;
      strict_skip_space (&ps);
    }

  if (*ps.p != '\0')
    {
      strict_fail (&ps, error, _("Unexpected text after the selector"));
      return NULL;
    }

  return g_steal_pointer (&self);
}

/* "name op …" with nothing before the name: a bare matcher */
static gboolean
looks_bare (const char *text)
{
  const char *p = text;

  while (g_ascii_isspace (*p))
    p++;
  if (!(g_ascii_isalpha (*p) || *p == '_'))
    return FALSE;
  while (g_ascii_isalnum (*p) || *p == '_')
    p++;
  while (g_ascii_isspace (*p))
    p++;
  return *p == '=' || *p == '!';
}

EmbersSelector *
embers_selector_parse_matchers (const char * const  *matchers,
                                GError             **error)
{
  g_autoptr(EmbersSelector) self = embers_selector_new ();

  for (guint i = 0; matchers && matchers[i]; i++)
    {
      const char *text = matchers[i];
      g_autoptr(EmbersSelector) one = NULL;

      if (looks_bare (text))
        {
          /* Not Prometheus syntax, a convenience of local sources */
          Parser ps = { text, text };

          one = embers_selector_new ();
          skip_space (&ps);
          if (!parse_matcher (&ps, one, error))
            return NULL;
          skip_space (&ps);
          if (*ps.p != '\0')
            {
              g_autofree char *shown = g_utf8_make_valid (text, -1);

              g_set_error (error, EMBERS_SELECTOR_ERROR, EMBERS_SELECTOR_ERROR_SYNTAX,
                           _("Unexpected text after the matcher “%s” at position %zu"), shown, position (&ps));
              return NULL;
            }
        }
      else if ((one = embers_selector_parse_metric_selector (text, error)) == NULL)
        return NULL;

      for (guint j = 0; j < one->matchers->len; j++)
        embers_selector_add_matcher (self, &g_array_index (one->matchers, EmbersMatcher, j));
    }

  return g_steal_pointer (&self);
}
