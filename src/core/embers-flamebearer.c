/* embers-flamebearer.c: Pyroscope flame graph JSON and levels decoding
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <inttypes.h>
#include <string.h>
#include <glib/gi18n.h>

#include "embers-profile-builder.h"
#include "embers-readers.h"

/*
 * Levels (PYROSCOPE-API.md §2): levels[d] holds the nodes at depth d sorted
 * by x, 4 integers each ([x_delta, total, self, name]) or 7 for a diff
 * ([xL_delta, totalL, selfL, xR_delta, totalR, selfR, name]). x is decoded
 * per level and per side: x = prev_end + x_delta, prev_end = x + total. A
 * node's self sits on its left: its children start at x + self.
 *
 * The reader checks all of it, and attaches a node to the parent whose
 * [x, x + total) holds it in one merge pass over two adjacent levels.
 */

#define OTHER_NAME "other"

static void
set_invalid (GError     **error,
             const char  *format,
             ...) G_GNUC_PRINTF (2, 3);

static void
set_invalid (GError     **error,
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

/* One decoded node of a level */
typedef struct
{
  gint64  x[2];       /* per side (single profiles use side 0) */
  gint64  total[2];
  gint64  self[2];
  gint64  child_sum[2];
  guint32 node;       /* builder node */
  guint32 index;      /* position in its level, for messages */
} LevelNode;

/* Children that do not fill their parent's width (a gap between the
 * parent's self and its total) were cut off by whoever wrote the levels;
 * Pyroscope calls them "other", and so do we, so that totals stay right. */
static void
add_gaps (EmbersProfileBuilder *b,
          GArray               *parents,
          guint                 sides,
          guint32              *other_id)
{
  for (guint p = 0; p < parents->len; p++)
    {
      const LevelNode *pn = &g_array_index (parents, LevelNode, p);

      for (guint s = 0; s < sides; s++)
        {
          gint64 gap = pn->total[s] - pn->self[s] - pn->child_sum[s];

          if (gap > 0)
            {
              if (*other_id == 0)
                *other_id = embers_profile_builder_intern (b, OTHER_NAME, -1);
              embers_profile_builder_add_self (b, embers_profile_builder_get_child (b, pn->node, *other_id),
                                               s, gap);
            }
        }
    }
}

EmbersProfile *
embers_levels_to_profile (const char * const  *names,
                          gsize                n_names,
                          const gint64 * const *levels,
                          const gsize         *n_values,
                          gsize                n_levels,
                          gboolean             is_diff,
                          const char          *sample_type,
                          const char          *sample_unit,
                          GError             **error)
{
  g_autoptr(EmbersProfileBuilder) b = embers_profile_builder_new ();
  g_autoptr(GArray) parents = g_array_new (FALSE, TRUE, sizeof (LevelNode));
  g_autoptr(GArray) current = g_array_new (FALSE, TRUE, sizeof (LevelNode));
  g_autofree guint32 *name_ids = NULL;
  guint32 other_id = 0;
  guint stride = is_diff ? 7 : 4;
  guint sides = is_diff ? 2 : 1;

  if (sample_unit == NULL || sample_unit[0] == '\0')
    sample_unit = "count";
  if (is_diff)
    {
      embers_profile_builder_add_sample_type (b, "baseline", sample_unit);
      embers_profile_builder_add_sample_type (b, "comparison", sample_unit);
      embers_profile_builder_set_diff (b, TRUE);
    }
  else
    embers_profile_builder_add_sample_type (b, sample_type && *sample_type ? sample_type : "samples",
                                            sample_unit);

  if (n_levels == 0)
    {
      g_set_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_EMPTY,
                   _("the flame graph has no levels"));
      return NULL;
    }
  if (n_levels > EMBERS_PROFILE_MAX_DEPTH)
    {
      g_set_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_TOO_LARGE,
                   g_dngettext (GETTEXT_PACKAGE,
                                "the flame graph is %zu level deep; the limit is %u",
                                "the flame graph is %zu levels deep; the limit is %u",
                                n_levels),
                   n_levels, EMBERS_PROFILE_MAX_DEPTH);
      return NULL;
    }

  name_ids = g_new (guint32, MAX (n_names, 1));
  for (gsize i = 0; i < n_names; i++)
    name_ids[i] = embers_profile_builder_intern (b, names[i] ? names[i] : "", -1);

  for (gsize d = 0; d < n_levels; d++)
    {
      gsize count;
      gint64 prev_end[2] = { 0, 0 };
      guint pi = 0;

      if (n_values[d] % stride != 0)
        {
          set_invalid (error, _("level %zu has %zu values, which is not a multiple of %u"),
                       d, n_values[d], stride);
          return NULL;
        }
      count = n_values[d] / stride;
      if (d == 0 && count != 1)
        {
          set_invalid (error, _("level 0 must hold exactly one node (the root), not %zu"), count);
          return NULL;
        }

      g_array_set_size (current, 0);
      for (gsize k = 0; k < count; k++)
        {
          const gint64 *v = levels[d] + k * stride;
          gint64 name_index = v[stride - 1];
          LevelNode node = { { 0, }, };
          gboolean empty = TRUE;

          for (guint s = 0; s < sides; s++)
            {
              const gint64 *sv = v + s * 3;

              if (sv[0] < 0 || sv[1] < 0 || sv[2] < 0)
                {
                  set_invalid (error, _("level %zu, node %zu has a negative value"), d, k);
                  return NULL;
                }
              if (sv[2] > sv[1])
                {
                  set_invalid (error, _("level %zu, node %zu: self (%" PRId64 ") exceeds total (%" PRId64 ")"),
                               d, k, sv[2], sv[1]);
                  return NULL;
                }
              if (__builtin_add_overflow (prev_end[s], sv[0], &node.x[s]) ||
                  __builtin_add_overflow (node.x[s], sv[1], &prev_end[s]))
                {
                  set_invalid (error, _("level %zu, node %zu: offsets overflow"), d, k);
                  return NULL;
                }
              node.total[s] = sv[1];
              node.self[s] = sv[2];
              if (sv[1] != 0)
                empty = FALSE;
            }

          if (name_index < 0 || (guint64)name_index >= n_names)
            {
              set_invalid (error, _("level %zu, node %zu refers to name %" PRId64 ", but there are %zu names"),
                           d, k, name_index, n_names);
              return NULL;
            }
          node.index = (guint32)k;

          if (d == 0)
            node.node = 0;
          else if (empty)
            continue;   /* zero-width nodes carry nothing */
          else
            {
              LevelNode *parent = NULL;

              /* Parents are sorted by x: advance to the one containing x */
              while (pi < parents->len)
                {
                  LevelNode *p = &g_array_index (parents, LevelNode, pi);
                  gboolean inside = TRUE;

                  for (guint s = 0; s < sides; s++)
                    if (node.total[s] > 0 && node.x[s] >= p->x[s] + p->total[s])
                      inside = FALSE;
                  if (inside)
                    {
                      parent = p;
                      break;
                    }
                  pi++;
                }

              if (parent == NULL)
                {
                  set_invalid (error, _("level %zu, node %zu (x %" PRId64 ") lies outside every node of level %zu"),
                               d, k, node.total[0] > 0 ? node.x[0] : node.x[1], d - 1);
                  return NULL;
                }

              for (guint s = 0; s < sides; s++)
                {
                  if (node.total[s] == 0)
                    continue;
                  /* Pyroscope puts a node's self on the left of its children */
                  if (node.x[s] < parent->x[s] + parent->self[s] ||
                      node.x[s] + node.total[s] > parent->x[s] + parent->total[s])
                    {
                      set_invalid (error, _("level %zu, node %zu ([%" PRId64 ", %" PRId64 ")) "
                                            "does not fit inside its parent, level %zu node %u "
                                            "(children from %" PRId64 " to %" PRId64 ")"),
                                   d, k, node.x[s], node.x[s] + node.total[s], d - 1, parent->index,
                                   parent->x[s] + parent->self[s], parent->x[s] + parent->total[s]);
                      return NULL;
                    }
                  /* Siblings never overlap (deltas are >= 0) and fit
                   * inside the parent, so this cannot pass its total */
                  parent->child_sum[s] += node.total[s];
                }

              node.node = embers_profile_builder_get_child (b, parent->node, name_ids[name_index]);
            }

          for (guint s = 0; s < sides; s++)
            if (node.self[s] > 0)
              embers_profile_builder_add_self (b, node.node, s, node.self[s]);

          g_array_append_val (current, node);
        }

      add_gaps (b, parents, sides, &other_id);

      {
        GArray *tmp = parents;
        parents = current;
        current = tmp;
      }
    }

  /* The deepest level has no children: anything past self was cut off */
  add_gaps (b, parents, sides, &other_id);

  return embers_profile_builder_finish (b, error);
}

/*
 * JSON reader.
 *
 * A strict RFC 8259 reader made for this one document shape: it walks the
 * text once, keeps what a flame graph needs (names, levels, totals,
 * metadata) and checks the syntax of everything else while skipping it.
 * json-glib 1.6 needs about a second to build its tree of a 1M-node levels
 * array (4M JsonNodes), and it lets through "01", ".5", single quotes and
 * integers that overflow 64 bits; this reader does neither.
 */

#define JSON_MAX_DEPTH 512

typedef struct
{
  const char *start;
  const char *p;
  const char *end;
  GString    *scratch;
} Json;

typedef struct
{
  GString   *name_pool;      /* NUL-separated */
  GArray    *name_offsets;   /* gsize */
  GPtrArray *levels;         /* GArray of gint64, or NULL */
  gboolean   has_names;
  gboolean   has_levels;
  gint64     total;          /* numTicks (render API) or total (Connect) */
  gint64     ticks[2];       /* leftTicks, rightTicks */
  gboolean   has_ticks[2];
} Graph;

typedef struct
{
  Graph      top;            /* bare Connect FlameGraph(Diff) */
  Graph      flamebearer;    /* render API */
  Graph      flamegraph;     /* SelectMergeStacktracesResponse / DiffResponse */
  gboolean   has_flamebearer;
  gboolean   has_flamegraph;
  char      *format;
  char      *units;
  char      *name;
  gint64     sample_rate;
} Doc;

static void
graph_clear (Graph *g)
{
  if (g->name_pool)
    g_string_free (g->name_pool, TRUE);
  g_clear_pointer (&g->name_offsets, g_array_unref);
  g_clear_pointer (&g->levels, g_ptr_array_unref);
}

static void
doc_clear (Doc *doc)
{
  graph_clear (&doc->top);
  graph_clear (&doc->flamebearer);
  graph_clear (&doc->flamegraph);
  g_clear_pointer (&doc->format, g_free);
  g_clear_pointer (&doc->units, g_free);
  g_clear_pointer (&doc->name, g_free);
}

static gboolean
syntax_error (Json        *j,
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

  set_invalid (error, _("not valid JSON (line %u, column %u: %s)"), line, column, what);
  return FALSE;
}

static inline void
skip_ws (Json *j)
{
  while (j->p < j->end && (*j->p == ' ' || *j->p == '\n' || *j->p == '\r' || *j->p == '\t'))
    j->p++;
}

/* Skips white space; FALSE with an error at the end of the data */
static inline gboolean
peek (Json    *j,
      GError **error)
{
  skip_ws (j);
  if (j->p >= j->end)
    return syntax_error (j, error, _("the data ends too early"));
  return TRUE;
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
read_hex4 (Json     *j,
           gunichar *out,
           GError  **error)
{
  gunichar v = 0;

  if (j->end - j->p < 4)
    return syntax_error (j, error, _("the data ends inside a \\u escape"));
  for (int i = 0; i < 4; i++)
    {
      int h = hex_digit (j->p[i]);

      if (h < 0)
        return syntax_error (j, error, _("a \\u escape needs four hexadecimal digits"));
      v = (v << 4) | (gunichar)h;
    }
  j->p += 4;
  *out = v;
  return TRUE;
}

/* A string at j->p (the opening quote) into out (replacing its contents).
 * The result is valid UTF-8 without NULs: broken bytes, lone surrogates
 * and U+0000 become U+FFFD. */
static gboolean
read_string (Json     *j,
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
        return syntax_error (j, error, _("a string is not closed"));

      if (*j->p == '"')
        {
          j->p++;
          break;
        }

      if ((guchar)*j->p < 0x20)
        return syntax_error (j, error, _("a control character inside a string must be escaped"));

      /* An escape */
      j->p++;
      if (j->p >= j->end)
        return syntax_error (j, error, _("a string is not closed"));
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
          return syntax_error (j, error, _("an unknown escape in a string"));
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
static gboolean
scan_number (Json      *j,
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
      return syntax_error (j, error, _("a number needs a digit here"));
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
          return syntax_error (j, error, _("a number needs a digit after the decimal point"));
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
          return syntax_error (j, error, _("a number needs a digit in its exponent"));
        }
      while (p < j->end && g_ascii_isdigit (*p))
        p++;
    }
  j->p = p;
  return TRUE;
}

/* "-"? digits, into a gint64; FALSE on anything else or overflow */
static gboolean
parse_decimal (const char *s,
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

static gboolean skip_value (Json *j, guint depth, GError **error);

typedef enum
{
  READ_INT,       /* *out is set */
  READ_NULL,
  READ_OTHER,     /* a valid value that is no integer (or out of range) */
  READ_FAILED,    /* a syntax error, set */
} ReadResult;

/* An integer as a JSON number (integral, within 64 bits; with a fraction
 * or exponent within 2^53) or as a string of digits (protobuf's JSON form
 * of int64) */
static ReadResult
read_int (Json    *j,
          gint64  *out,
          GError **error)
{
  const char *start;

  if (!peek (j, error))
    return READ_FAILED;
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
          return parse_decimal (start + 1, q - start - 1, out) ? READ_INT : READ_OTHER;
        }
      if (!read_string (j, j->scratch, error))
        return READ_FAILED;
      return parse_decimal (j->scratch->str, j->scratch->len, out) ? READ_INT : READ_OTHER;
    }

  if (*j->p == '-' || g_ascii_isdigit (*j->p))
    {
      gboolean is_integer;
      char buf[64];
      gsize len;
      double v;

      if (!scan_number (j, &is_integer, error))
        return READ_FAILED;
      len = j->p - start;
      if (is_integer)
        return parse_decimal (start, len, out) ? READ_INT : READ_OTHER;

      if (len >= sizeof buf)
        return READ_OTHER;
      memcpy (buf, start, len);
      buf[len] = '\0';
      v = g_ascii_strtod (buf, NULL);
      if (!isfinite (v) || v != floor (v) || fabs (v) > 9007199254740992.0)
        return READ_OTHER;
      *out = (gint64)v;
      return READ_INT;
    }

  if (j->end - j->p >= 4 && memcmp (j->p, "null", 4) == 0)
    {
      j->p += 4;
      return READ_NULL;
    }

  return skip_value (j, 0, error) ? READ_OTHER : READ_FAILED;
}

static gboolean
expect_literal (Json       *j,
                const char *word,
                GError    **error)
{
  gsize len = strlen (word);

  if ((gsize)(j->end - j->p) < len || memcmp (j->p, word, len) != 0)
    return syntax_error (j, error, _("unexpected character"));
  j->p += len;
  return TRUE;
}

/* Object and array iteration. first is TRUE before the first element;
 * each returns TRUE with *more when an element follows at j->p. */
static gboolean
next_element (Json      *j,
              char       close,
              gboolean  *first,
              gboolean  *more,
              GError   **error)
{
  if (!peek (j, error))
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
        return syntax_error (j, error, close == ']' ? _("expected “,” or “]”") : _("expected “,” or “}”"));
      j->p++;
      if (!peek (j, error))
        return FALSE;
      if (*j->p == close)
        return syntax_error (j, error, _("a comma before a closing bracket"));
    }
  *first = FALSE;
  *more = TRUE;
  return TRUE;
}

/* The next member's key into j->scratch, and its colon */
static gboolean
next_member (Json      *j,
             gboolean  *first,
             gboolean  *more,
             GError   **error)
{
  if (!next_element (j, '}', first, more, error))
    return FALSE;
  if (!*more)
    return TRUE;
  if (*j->p != '"')
    return syntax_error (j, error, _("expected a member name in quotes"));
  if (!read_string (j, j->scratch, error))
    return FALSE;
  if (!peek (j, error))
    return FALSE;
  if (*j->p != ':')
    return syntax_error (j, error, _("expected “:” after a member name"));
  j->p++;
  return peek (j, error);
}

static gboolean
skip_value (Json    *j,
            guint    depth,
            GError **error)
{
  gboolean first = TRUE, more = TRUE, is_integer;

  if (!peek (j, error))
    return FALSE;
  if (depth > JSON_MAX_DEPTH)
    return syntax_error (j, error, _("nested too deeply"));

  switch (*j->p)
    {
    case '{':
      j->p++;
      while (next_member (j, &first, &more, error) && more)
        if (!skip_value (j, depth + 1, error))
          return FALSE;
      return !more;

    case '[':
      j->p++;
      while (next_element (j, ']', &first, &more, error) && more)
        if (!skip_value (j, depth + 1, error))
          return FALSE;
      return !more;

    case '"':
      return read_string (j, j->scratch, error);

    case 't':
      return expect_literal (j, "true", error);

    case 'f':
      return expect_literal (j, "false", error);

    case 'n':
      return expect_literal (j, "null", error);

    default:
      if (*j->p == '-' || g_ascii_isdigit (*j->p))
        return scan_number (j, &is_integer, error);
      return syntax_error (j, error, _("expected a value"));
    }
}

static gboolean
is_null (Json *j)
{
  return j->p < j->end && *j->p == 'n' && j->end - j->p >= 4 && memcmp (j->p, "null", 4) == 0;
}

/* A value of the wrong type at j->p: that, unless it is no JSON at all */
static gboolean
wrong_type (Json       *j,
            GError    **error,
            const char *format,
            ...) G_GNUC_PRINTF (3, 4);

static gboolean
wrong_type (Json       *j,
            GError    **error,
            const char *format,
            ...)
{
  g_autofree char *message = NULL;
  va_list args;

  if (!skip_value (j, 2, error))
    return FALSE;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  g_set_error_literal (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_INVALID, message);
  return FALSE;
}

/* An integer member (null counts as 0) */
static gboolean
read_int_member (Json       *j,
                 const char *name,
                 gint64     *out,
                 GError    **error)
{
  switch (read_int (j, out, error))
    {
    case READ_INT:
      return TRUE;
    case READ_NULL:
      *out = 0;
      return TRUE;
    case READ_OTHER:
      set_invalid (error, _("“%s” is not a 64-bit integer"), name);
      return FALSE;
    case READ_FAILED:
    default:
      return FALSE;
    }
}

/* A string member (null counts as absent) */
static gboolean
read_string_member (Json        *j,
                    const char  *name,
                    char       **out,
                    GError     **error)
{
  g_clear_pointer (out, g_free);
  if (is_null (j))
    {
      j->p += 4;
      return TRUE;
    }
  if (*j->p != '"')
    return wrong_type (j, error, _("“%s” must be a string"), name);
  if (!read_string (j, j->scratch, error))
    return FALSE;
  *out = g_strndup (j->scratch->str, j->scratch->len);
  return TRUE;
}

static gboolean
read_names (Json    *j,
            Graph   *g,
            GError **error)
{
  gboolean first = TRUE, more = TRUE;
  guint i = 0;

  if (g->name_pool)
    g_string_truncate (g->name_pool, 0);
  else
    g->name_pool = g_string_new (NULL);
  g_clear_pointer (&g->name_offsets, g_array_unref);
  g->name_offsets = g_array_new (FALSE, FALSE, sizeof (gsize));
  g->has_names = TRUE;

  if (is_null (j))
    {
      j->p += 4;
      return TRUE;
    }
  if (*j->p != '[')
    return wrong_type (j, error, _("“names” must be an array of strings"));
  j->p++;

  while (next_element (j, ']', &first, &more, error) && more)
    {
      gsize offset = g->name_pool->len;

      if (*j->p != '"')
        return wrong_type (j, error, _("name %u is not a string"), i);
      if (!read_string (j, j->scratch, error))
        return FALSE;
      g_string_append_len (g->name_pool, j->scratch->str, j->scratch->len + 1);   /* with its NUL */
      g_array_append_val (g->name_offsets, offset);
      i++;
    }
  return !more;
}

static gboolean
read_level_values (Json    *j,
                   guint    d,
                   GArray  *values,
                   GError **error)
{
  gboolean first = TRUE, more = TRUE;

  j->p++;   /* [ */
  while (next_element (j, ']', &first, &more, error) && more)
    {
      gint64 v;

      switch (read_int (j, &v, error))
        {
        case READ_INT:
          g_array_append_val (values, v);
          break;
        case READ_NULL:
        case READ_OTHER:
          set_invalid (error, _("level %u, value %u is not a 64-bit integer"), d, values->len);
          return FALSE;
        case READ_FAILED:
        default:
          return FALSE;
        }
    }
  return !more;
}

/* levels: [[ints...], ...] (render API) or [{"values": [ints...]}, ...]
 * (Connect JSON; "values" may be missing when the level is empty) */
static gboolean
read_levels (Json    *j,
             Graph   *g,
             GError **error)
{
  gboolean first = TRUE, more = TRUE;
  guint d = 0;

  g_clear_pointer (&g->levels, g_ptr_array_unref);
  g->levels = g_ptr_array_new_with_free_func ((GDestroyNotify)g_array_unref);
  g->has_levels = TRUE;

  if (is_null (j))
    {
      j->p += 4;
      return TRUE;
    }
  if (*j->p != '[')
    return wrong_type (j, error, _("“levels” must be an array"));
  j->p++;

  while (next_element (j, ']', &first, &more, error) && more)
    {
      GArray *values = g_array_new (FALSE, FALSE, sizeof (gint64));

      g_ptr_array_add (g->levels, values);
      if (*j->p == '[')
        {
          if (!read_level_values (j, d, values, error))
            return FALSE;
        }
      else if (*j->p == '{')
        {
          gboolean mfirst = TRUE, mmore = TRUE;

          j->p++;
          while (next_member (j, &mfirst, &mmore, error) && mmore)
            {
              if (strcmp (j->scratch->str, "values") == 0)
                {
                  g_array_set_size (values, 0);
                  if (is_null (j))
                    j->p += 4;
                  else if (*j->p == '[')
                    {
                      if (!read_level_values (j, d, values, error))
                        return FALSE;
                    }
                  else
                    return wrong_type (j, error, _("level %u: “values” must be an array of integers"), d);
                }
              else if (!skip_value (j, 2, error))
                return FALSE;
            }
          if (mmore)
            return FALSE;
        }
      else
        return wrong_type (j, error, _("level %u is not an array of integers"), d);
      d++;
    }
  return !more;
}

static gboolean
read_metadata (Json    *j,
               Doc     *doc,
               GError **error)
{
  gboolean first = TRUE, more = TRUE;

  if (is_null (j))
    {
      j->p += 4;
      return TRUE;
    }
  if (*j->p != '{')
    return wrong_type (j, error, _("“metadata” must be an object"));
  j->p++;

  while (next_member (j, &first, &more, error) && more)
    {
      const char *key = j->scratch->str;
      gboolean ok;

      if (strcmp (key, "format") == 0)
        ok = read_string_member (j, "metadata.format", &doc->format, error);
      else if (strcmp (key, "units") == 0)
        ok = read_string_member (j, "metadata.units", &doc->units, error);
      else if (strcmp (key, "name") == 0)
        ok = read_string_member (j, "metadata.name", &doc->name, error);
      else if (strcmp (key, "sampleRate") == 0)
        ok = read_int_member (j, "metadata.sampleRate", &doc->sample_rate, error);
      else
        ok = skip_value (j, 2, error);
      if (!ok)
        return FALSE;
    }
  return !more;
}

/* A FlameGraph-like object; at the top (doc != NULL) also the render API's
 * and the response wrappers' members */
static gboolean
read_graph_object (Json    *j,
                   Graph   *g,
                   Doc     *doc,
                   GError **error)
{
  gboolean first = TRUE, more = TRUE;
  guint depth = doc ? 1 : 2;

  j->p++;   /* { */
  while (next_member (j, &first, &more, error) && more)
    {
      const char *key = j->scratch->str;
      gint64 ignored;
      gboolean ok;

      if (strcmp (key, "names") == 0)
        ok = read_names (j, g, error);
      else if (strcmp (key, "levels") == 0)
        ok = read_levels (j, g, error);
      else if (strcmp (key, "numTicks") == 0)
        ok = read_int_member (j, "numTicks", &g->total, error);
      else if (strcmp (key, "total") == 0)
        ok = read_int_member (j, "total", &g->total, error);
      else if (strcmp (key, "leftTicks") == 0 || strcmp (key, "left_ticks") == 0 ||
               strcmp (key, "rightTicks") == 0 || strcmp (key, "right_ticks") == 0)
        {
          guint side = key[0] == 'l' ? 0 : 1;

          /* (the key's buffer is reused while reading the value) */
          ok = read_int_member (j, side == 0 ? "leftTicks" : "rightTicks", &g->ticks[side], error);
          g->has_ticks[side] = TRUE;
        }
      else if (strcmp (key, "maxSelf") == 0 || strcmp (key, "max_self") == 0)
        ok = read_int_member (j, "maxSelf", &ignored, error);
      else if (doc != NULL && (strcmp (key, "flamebearer") == 0 || strcmp (key, "flamegraph") == 0))
        {
          gboolean fb = key[5] == 'b';
          Graph *inner = fb ? &doc->flamebearer : &doc->flamegraph;

          if (*j->p != '{')
            return wrong_type (j, error, "%s", fb ? _("“flamebearer” must be an object")
                                                  : _("“flamegraph” must be an object"));
          graph_clear (inner);
          memset (inner, 0, sizeof *inner);
          if (fb)
            doc->has_flamebearer = TRUE;
          else
            doc->has_flamegraph = TRUE;
          ok = read_graph_object (j, inner, NULL, error);
        }
      else if (doc != NULL && strcmp (key, "metadata") == 0)
        ok = read_metadata (j, doc, error);
      else
        ok = skip_value (j, depth, error);

      if (!ok)
        return FALSE;
    }
  return !more;
}

/* Levels are 7 integers per node in a diff; level 0 holds the root alone */
static gboolean
graph_is_diff (Graph      *g,
               const char *format)
{
  if (format != NULL && strcmp (format, "double") == 0)
    return TRUE;
  if (format != NULL && strcmp (format, "single") == 0)
    return FALSE;
  if (g->has_ticks[0] || g->has_ticks[1])
    return TRUE;
  return g->levels != NULL && g->levels->len > 0 &&
         ((GArray *)g_ptr_array_index (g->levels, 0))->len == 7;
}

static EmbersProfile *
graph_to_profile (Graph       *g,
                  gboolean     is_diff,
                  const char  *sample_type,
                  const char  *sample_unit,
                  gint64       expected_total,
                  gint64       ticks[2],
                  gboolean     has_ticks[2],
                  GError     **error)
{
  guint n_names = g->name_offsets ? g->name_offsets->len : 0;
  guint n_levels = g->levels ? g->levels->len : 0;
  g_autofree const char **names = g_new0 (const char *, MAX (n_names, 1u));
  g_autofree const gint64 **levels = g_new0 (const gint64 *, MAX (n_levels, 1u));
  g_autofree gsize *n_values = g_new0 (gsize, MAX (n_levels, 1u));
  g_autoptr(EmbersProfile) profile = NULL;
  gint64 total;

  for (guint i = 0; i < n_names; i++)
    names[i] = g->name_pool->str + g_array_index (g->name_offsets, gsize, i);
  for (guint d = 0; d < n_levels; d++)
    {
      GArray *values = g_ptr_array_index (g->levels, d);

      levels[d] = (const gint64 *)(gpointer)values->data;
      n_values[d] = values->len;
    }

  profile = embers_levels_to_profile (names, n_names, levels, n_values, n_levels,
                                      is_diff, sample_type, sample_unit, error);
  if (profile == NULL)
    return NULL;

  /* Zero is also what protobuf's JSON leaves out: only other values count.
   * Each side fits in 64 bits (the levels were checked); both together may
   * not, and the total of a diff is both together. */
  total = embers_profile_get_total (profile, 0);
  if (is_diff && __builtin_add_overflow (total, embers_profile_get_total (profile, 1), &total))
    {
      set_invalid (error, _("the two sides of the diff together are larger than 64 bits can hold"));
      return NULL;
    }
  if (expected_total != 0 && total != expected_total)
    {
      set_invalid (error, _("the total says %" PRId64 " but the root of the levels is %" PRId64 " wide"),
                   expected_total, total);
      return NULL;
    }
  for (guint s = 0; is_diff && s < 2; s++)
    if (has_ticks[s] && ticks[s] != embers_profile_get_total (profile, s))
      {
        set_invalid (error, _("“%s” says %" PRId64 " but the root of the levels has %" PRId64 " on that side"),
                     s == 0 ? "leftTicks" : "rightTicks", ticks[s], embers_profile_get_total (profile, s));
        return NULL;
      }

  return g_steal_pointer (&profile);
}

/* The render API names units Pyroscope's way: CPU time in nanoseconds is
 * "samples" at a sample rate of 1e9, counts are "objects". */
static const char *
unit_from_render_api (const char *units,
                      gint64      sample_rate)
{
  if (units == NULL || units[0] == '\0' || strcmp (units, "objects") == 0)
    return "count";
  if (strcmp (units, "samples") == 0 && sample_rate == 1000000000)
    return "nanoseconds";
  return units;
}

EmbersProfile *
embers_flamebearer_parse (const char  *data,
                          gsize        len,
                          GError     **error)
{
  g_autoptr(GString) scratch = g_string_new (NULL);
  Json j = { data, data, data + len, scratch };
  Doc doc = { { 0, }, };
  EmbersProfile *profile = NULL;

  /* A UTF-8 byte order mark */
  if (len >= 3 && memcmp (data, "\xef\xbb\xbf", 3) == 0)
    j.p += 3;

  skip_ws (&j);
  if (j.p >= j.end)
    {
      syntax_error (&j, error, _("there is no data"));
      goto out;
    }
  if (*j.p != '{')
    {
      if (skip_value (&j, 0, error))
        set_invalid (error, _("expected a JSON object"));
      goto out;
    }
  if (!read_graph_object (&j, &doc.top, &doc, error))
    goto out;
  skip_ws (&j);
  if (j.p < j.end)
    {
      syntax_error (&j, error, _("there is more after the JSON object"));
      goto out;
    }

  if (doc.has_flamebearer)
    {
      /* Render API: units and sample type in metadata; ticks at the top */
      gboolean is_diff = graph_is_diff (&doc.flamebearer, doc.format) ||
                         (doc.format == NULL && (doc.top.has_ticks[0] || doc.top.has_ticks[1]));

      profile = graph_to_profile (&doc.flamebearer, is_diff, doc.name,
                                  unit_from_render_api (doc.units, doc.sample_rate),
                                  doc.flamebearer.total, doc.top.ticks, doc.top.has_ticks, error);
    }
  else if (doc.has_flamegraph)
    profile = graph_to_profile (&doc.flamegraph, graph_is_diff (&doc.flamegraph, NULL),
                                "samples", "count", doc.flamegraph.total,
                                doc.flamegraph.ticks, doc.flamegraph.has_ticks, error);
  else if (doc.top.has_names || doc.top.has_levels)
    profile = graph_to_profile (&doc.top, graph_is_diff (&doc.top, NULL),
                                "samples", "count", doc.top.total,
                                doc.top.ticks, doc.top.has_ticks, error);
  else
    set_invalid (error, _("no “flamebearer”, “flamegraph” or “levels” found"));

out:
  if (profile == NULL)
    g_prefix_error (error, "%s: ", _("Pyroscope JSON"));
  doc_clear (&doc);
  return profile;
}

/* Writer: the render API's JSON */

static void
append_json_string (GString    *out,
                    const char *s)
{
  g_autofree char *valid = NULL;

  if (!g_utf8_validate (s, -1, NULL))
    s = valid = g_utf8_make_valid (s, -1);

  g_string_append_c (out, '"');
  for (const char *p = s; *p; p++)
    {
      guchar c = (guchar)*p;

      switch (c)
        {
        case '"':  g_string_append (out, "\\\""); break;
        case '\\': g_string_append (out, "\\\\"); break;
        case '\n': g_string_append (out, "\\n"); break;
        case '\r': g_string_append (out, "\\r"); break;
        case '\t': g_string_append (out, "\\t"); break;
        case '\b': g_string_append (out, "\\b"); break;
        case '\f': g_string_append (out, "\\f"); break;
        default:
          if (c < 0x20)
            g_string_append_printf (out, "\\u%04x", c);
          else
            g_string_append_c (out, (char)c);
          break;
        }
    }
  g_string_append_c (out, '"');
}

static void
append_int (GString *out,
            gint64   v)
{
  char buf[24];
  char *p = buf + sizeof buf;
  guint64 u = v < 0 ? 0 - (guint64)v : (guint64)v;

  do
    {
      *--p = (char)('0' + u % 10);
      u /= 10;
    }
  while (u != 0);
  if (v < 0)
    *--p = '-';
  g_string_append_len (out, p, buf + sizeof buf - p);
}

/* Pyroscope's units for the render API (see unit_from_render_api) */
static void
render_api_units (const char  *unit,
                  const char **units,
                  gint64      *sample_rate)
{
  *sample_rate = 100;
  if (unit == NULL || unit[0] == '\0' || strcmp (unit, "count") == 0)
    *units = "objects";
  else if (strcmp (unit, "nanoseconds") == 0)
    {
      *units = "samples";
      *sample_rate = 1000000000;
    }
  else
    *units = unit;
}

GBytes *
embers_flamebearer_write (EmbersProfile  *profile,
                          guint           sample_type,
                          GError        **error)
{
  g_autofree guint32 *name_index = NULL;
  g_autofree gint64 *next_x = NULL;
  g_autofree gint64 *x = NULL;
  g_autofree gint64 *prev_end = NULL;
  g_autoptr(GPtrArray) level_values = g_ptr_array_new_with_free_func ((GDestroyNotify)g_array_unref);
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  gboolean is_diff;
  guint sides, n_nodes, n_strings, max_depth, unit_type;
  const guint32 *pnames, *parents;
  const guint16 *depths;
  const gint64 *self[2], *total[2];
  const char *units;
  gint64 max_self = 0, sample_rate, both;
  GString *out;

  g_return_val_if_fail (EMBERS_IS_PROFILE (profile), NULL);
  g_return_val_if_fail (sample_type < embers_profile_get_n_sample_types (profile), NULL);

  is_diff = embers_profile_is_diff (profile) && embers_profile_get_n_sample_types (profile) >= 2;
  sides = is_diff ? 2 : 1;
  unit_type = is_diff ? 0 : sample_type;
  n_nodes = embers_profile_get_n_nodes (profile);
  n_strings = embers_profile_get_n_strings (profile);
  max_depth = embers_profile_get_max_depth (profile);
  pnames = embers_profile_get_name_column (profile);
  parents = embers_profile_get_parent_column (profile);
  depths = embers_profile_get_depth_column (profile);
  for (guint s = 0; s < sides; s++)
    {
      guint t = is_diff ? s : sample_type;

      self[s] = embers_profile_get_self_column (profile, t);
      total[s] = embers_profile_get_total_column (profile, t);
    }
  /* Widths are both sides together; every node is within the root */
  if (is_diff && __builtin_add_overflow (total[0][0], total[1][0], &both))
    {
      g_set_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_TOO_LARGE,
                   _("the two sides of the diff together are larger than 64 bits can hold"));
      return NULL;
    }

  /* Names: "total" first, then in first-seen (DFS) order */
  name_index = g_new (guint32, n_strings);
  memset (name_index, 0xff, sizeof (guint32) * n_strings);
  g_ptr_array_add (names, (gpointer)"total");
  name_index[pnames[0]] = 0;

  for (guint d = 0; d <= max_depth; d++)
    g_ptr_array_add (level_values, g_array_new (FALSE, FALSE, sizeof (gint64)));

  x = g_new0 (gint64, (gsize)n_nodes * 2);
  next_x = g_new0 (gint64, (gsize)n_nodes * 2);
  prev_end = g_new0 (gint64, (gsize)(max_depth + 1) * 2);

  /* DFS pre-order visits each level left to right; children are sorted by
   * name, as Pyroscope sorts them */
  for (guint i = 0; i < n_nodes; i++)
    {
      GArray *level = g_ptr_array_index (level_values, depths[i]);
      gint64 width = 0;
      gint64 idx;

      for (guint s = 0; s < sides; s++)
        width += total[s][i];
      if (i > 0 && width == 0)
        continue;

      if (name_index[pnames[i]] == G_MAXUINT32)
        {
          name_index[pnames[i]] = names->len;
          g_ptr_array_add (names, (gpointer)embers_profile_get_string (profile, pnames[i]));
        }

      for (guint s = 0; s < sides; s++)
        {
          gint64 *xs = x + (gsize)s * n_nodes;
          gint64 *nx = next_x + (gsize)s * n_nodes;
          gint64 *pe = prev_end + (gsize)s * (max_depth + 1);
          gint64 delta;

          if (i == 0)
            xs[i] = 0;
          else
            {
              xs[i] = nx[parents[i]];
              nx[parents[i]] += total[s][i];
            }
          /* Self on the left: children start after it */
          nx[i] = xs[i] + self[s][i];
          delta = xs[i] - pe[depths[i]];
          pe[depths[i]] = xs[i] + total[s][i];
          g_array_append_val (level, delta);
          g_array_append_val (level, total[s][i]);
          g_array_append_val (level, self[s][i]);
          max_self = MAX (max_self, self[s][i]);
        }
      idx = name_index[pnames[i]];
      g_array_append_val (level, idx);
    }

  out = g_string_sized_new (64 + (gsize)n_nodes * (is_diff ? 20 : 12));
  g_string_append (out, "{\"version\":1,\"flamebearer\":{\"names\":[");
  for (guint i = 0; i < names->len; i++)
    {
      if (i > 0)
        g_string_append_c (out, ',');
      append_json_string (out, g_ptr_array_index (names, i));
    }
  g_string_append (out, "],\"levels\":[");
  for (guint d = 0; d < level_values->len; d++)
    {
      GArray *level = g_ptr_array_index (level_values, d);

      if (level->len == 0)
        break;
      if (d > 0)
        g_string_append_c (out, ',');
      g_string_append_c (out, '[');
      for (guint k = 0; k < level->len; k++)
        {
          if (k > 0)
            g_string_append_c (out, ',');
          append_int (out, g_array_index (level, gint64, k));
        }
      g_string_append_c (out, ']');
    }
  g_string_append (out, "],\"numTicks\":");
  append_int (out, total[0][0] + (is_diff ? total[1][0] : 0));
  g_string_append (out, ",\"maxSelf\":");
  append_int (out, max_self);

  render_api_units (embers_profile_get_sample_unit (profile, unit_type), &units, &sample_rate);
  g_string_append (out, "},\"metadata\":{\"format\":");
  g_string_append (out, is_diff ? "\"double\"" : "\"single\"");
  g_string_append (out, ",\"spyName\":\"\",\"sampleRate\":");
  append_int (out, sample_rate);
  g_string_append (out, ",\"units\":");
  append_json_string (out, units);
  if (!is_diff)
    {
      /* A diff's columns are "baseline" and "comparison", no sample type */
      g_string_append (out, ",\"name\":");
      append_json_string (out, embers_profile_get_sample_type (profile, sample_type));
    }
  g_string_append_c (out, '}');

  if (is_diff)
    {
      g_string_append (out, ",\"leftTicks\":");
      append_int (out, total[0][0]);
      g_string_append (out, ",\"rightTicks\":");
      append_int (out, total[1][0]);
    }
  g_string_append (out, "}\n");

  return g_string_free_to_bytes (out);
}
