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
      const EmbersMatcher *m = &g_array_index (self->matchers, EmbersMatcher, i);

      embers_selector_add (copy, m->name, m->op, m->value, NULL);
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

gboolean
embers_selector_add (EmbersSelector  *self,
                     const char      *name,
                     EmbersMatchOp    op,
                     const char      *value,
                     GError         **error)
{
  g_autoptr(GRegex) regex = NULL;
  EmbersMatcher m;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  if (!embers_label_name_is_valid (name))
    {
      g_set_error (error, EMBERS_SELECTOR_ERROR, EMBERS_SELECTOR_ERROR_NAME,
                   _("“%s” is not a valid label name: use letters, digits and “_”, not starting with a digit"),
                   name);
      return FALSE;
    }

  if (value == NULL)
    value = "";

  if (!g_utf8_validate (value, -1, NULL))
    {
      g_set_error (error, EMBERS_SELECTOR_ERROR, EMBERS_SELECTOR_ERROR_SYNTAX,
                   _("The value for “%s” is not valid UTF-8"), name);
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
  EmbersMatchOp op;

  if (!(g_ascii_isalpha (*ps->p) || *ps->p == '_'))
    {
      g_set_error (error, EMBERS_SELECTOR_ERROR, EMBERS_SELECTOR_ERROR_SYNTAX,
                   _("Expected a label name at position %zu"), position (ps));
      return FALSE;
    }
  while (g_ascii_isalnum (*ps->p) || *ps->p == '_')
    ps->p++;
  name = g_strndup (start, ps->p - start);

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
      g_set_error (error, EMBERS_SELECTOR_ERROR, EMBERS_SELECTOR_ERROR_SYNTAX,
                   _("Expected “=”, “!=”, “=~” or “!~” after “%s” at position %zu"),
                   name, position (ps));
      return FALSE;
    }

  skip_space (ps);
  if (!parse_string (ps, &value, error))
    return FALSE;

  return embers_selector_add (self, name, op, value, error);
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

EmbersSelector *
embers_selector_parse_matchers (const char * const  *matchers,
                                GError             **error)
{
  g_autoptr(EmbersSelector) self = embers_selector_new ();

  for (guint i = 0; matchers && matchers[i]; i++)
    {
      Parser ps = { matchers[i], matchers[i] };
      const char *text = matchers[i];

      /* The server accepts each matcher either bare or in braces. */
      skip_space (&ps);
      if (*ps.p == '{')
        {
          g_autoptr(EmbersSelector) inner = embers_selector_parse (text, NULL, error);

          if (inner == NULL)
            return NULL;
          for (guint j = 0; j < inner->matchers->len; j++)
            {
              const EmbersMatcher *m = &g_array_index (inner->matchers, EmbersMatcher, j);
              embers_selector_add (self, m->name, m->op, m->value, NULL);
            }
          continue;
        }

      if (!parse_matcher (&ps, self, error))
        return NULL;
      skip_space (&ps);
      if (*ps.p != '\0')
        {
          g_set_error (error, EMBERS_SELECTOR_ERROR, EMBERS_SELECTOR_ERROR_SYNTAX,
                       _("Unexpected text after the matcher “%s” at position %zu"), text, position (&ps));
          return NULL;
        }
    }

  return g_steal_pointer (&self);
}
