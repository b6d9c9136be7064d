/* embers-text.c: text that leaves Embers safely
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "embers-text.h"

/* Invisible characters that reorder, join or hide text on a terminal */
static gboolean
is_hidden_format (gunichar c)
{
  return (c >= 0x80 && c <= 0x9f) ||        /* C1 controls (CSI is U+009B) */
         c == 0x061c ||                     /* Arabic letter mark */
         (c >= 0x200b && c <= 0x200f) ||    /* zero width, LRM, RLM */
         (c >= 0x2028 && c <= 0x202e) ||    /* line/paragraph separators, bidi embeddings */
         (c >= 0x2060 && c <= 0x2064) ||    /* word joiner, invisible operators */
         (c >= 0x2066 && c <= 0x2069) ||    /* bidi isolates */
         c == 0xfeff ||                     /* zero width no-break space (BOM) */
         (c >= 0xfff9 && c <= 0xfffb);      /* interlinear annotations */
}

void
embers_text_append_escaped (GString    *out,
                            const char *text)
{
  const char *p = text;

  g_return_if_fail (out != NULL);

  if (text == NULL)
    return;

  while (*p != '\0')
    {
      guchar c = (guchar)*p;
      const char *run = p;

      /* Plain printable ASCII, the common case, in one go */
      while ((guchar)*p >= 0x20 && (guchar)*p < 0x7f && *p != '\\')
        p++;
      if (p > run)
        {
          g_string_append_len (out, run, p - run);
          continue;
        }

      c = (guchar)*p;
      if (c == '\\')
        {
          g_string_append (out, "\\\\");
          p++;
        }
      else if (c == '\t')
        {
          g_string_append (out, "\\t");
          p++;
        }
      else if (c == '\n')
        {
          g_string_append (out, "\\n");
          p++;
        }
      else if (c == '\r')
        {
          g_string_append (out, "\\r");
          p++;
        }
      else if (c < 0x80)
        {
          /* Other C0 controls and DEL */
          g_string_append_printf (out, "\\x%02x", c);
          p++;
        }
      else
        {
          gunichar u = g_utf8_get_char_validated (p, -1);

          if (u == (gunichar)-1 || u == (gunichar)-2)
            {
              g_string_append_printf (out, "\\x%02x", c);
              p++;
            }
          else
            {
              const char *next = g_utf8_next_char (p);

              if (is_hidden_format (u))
                g_string_append_printf (out, "\\u%04x", u);
              else
                g_string_append_len (out, p, next - p);
              p = next;
            }
        }
    }
}

char *
embers_text_escape (const char *text)
{
  GString *out = g_string_new (NULL);

  embers_text_append_escaped (out, text);
  return g_string_free (out, FALSE);
}

/* Where a URL's authority (user:password@host:port) ends: at the path,
 * query or fragment, as URL parsers see it, or at white space in running
 * text. Stopping late only masks more; stopping early could show a
 * password, so no other character stops it. */
static const char *
authority_end (const char *p)
{
  while (*p != '\0' && strchr ("/?# \t\r\n", *p) == NULL)
    p++;
  return p;
}

char *
embers_text_mask_credentials (const char *text)
{
  GString *out;
  const char *p;

  if (text == NULL)
    return NULL;

  out = g_string_sized_new (strlen (text));
  p = text;
  for (;;)
    {
      const char *sep = strstr (p, "://");
      const char *authority, *end, *at, *colon;

      if (sep == NULL)
        break;
      authority = sep + 3;
      end = authority_end (authority);

      /* The last "@" ends the user information (a password may hold "@") */
      at = NULL;
      for (const char *q = authority; q < end; q++)
        if (*q == '@')
          at = q;
      colon = at != NULL ? memchr (authority, ':', at - authority) : NULL;

      if (colon != NULL)
        {
          g_string_append_len (out, p, colon + 1 - p);
          g_string_append (out, "***");
          g_string_append_len (out, at, end - at);
        }
      else
        g_string_append_len (out, p, end - p);
      p = end;
    }
  g_string_append (out, p);

  return g_string_free (out, FALSE);
}

#define SHORTEN_ELLIPSIS "\xe2\x80\xa6"   /* U+2026 */

/* A dot followed only by digits up to the next separator or the end is
 * part of the name before it: Go's closures (`main.worker.func5.1.1`) and
 * versions (`python3.11/`) are not cut apart */
static gboolean
numeric_segment (const char *p)
{
  const char *start = p;

  while (g_ascii_isdigit (*p))
    p++;
  return p > start && (*p == '\0' || *p == '.' || *p == '/' || *p == ':');
}

/* Byte offsets just past each separator at bracket depth 0: where a
 * shortened name may start */
GArray *
embers_text_name_cuts (const char *name)
{
  GArray *cuts = g_array_new (FALSE, FALSE, sizeof (gsize));
  int depth = 0;

  for (const char *p = name; *p != '\0'; p++)
    {
      gsize cut;

      switch (*p)
        {
        case '(': case '[': case '<': case '{':
          depth++;
          continue;
        case ')': case ']': case '>': case '}':
          /* "->" and "operator>" close nothing; unbalanced ones count as closed */
          if (*p == '>' && p > name && p[-1] == '-')
            continue;
          depth = MAX (depth - 1, 0);
          continue;
        case '/': case '.':
          cut = (gsize)(p + 1 - name);
          break;
        case ':':
          if (p[1] != ':')
            continue;
          p++;
          cut = (gsize)(p + 1 - name);
          break;
        default:
          continue;
        }
      /* A cut needs something after it, and "..." or "//" are one cut */
      if (depth == 0 && name[cut] != '\0' && name[cut] != '/' && name[cut] != '.' && name[cut] != ':' &&
          !(*p == '.' && numeric_segment (name + cut)))
        g_array_append_val (cuts, cut);
    }
  return cuts;
}

char *
embers_text_shorten_name (const char     *name,
                          EmbersTextFits  fits,
                          gpointer        user_data)
{
  g_autofree char *valid = NULL;
  g_autoptr(GArray) cuts = NULL;
  g_autoptr(GString) s = NULL;
  const char *last;
  glong lo, hi;

  g_return_val_if_fail (fits != NULL, NULL);

  if (name == NULL || *name == '\0')
    return g_strdup ("");
  valid = g_utf8_make_valid (name, -1);
  if (fits (valid, user_data))
    return g_steal_pointer (&valid);

  /* Drop the leading segments one by one, the last segment stays */
  s = g_string_new (NULL);
  cuts = embers_text_name_cuts (valid);
  for (guint i = 0; i < cuts->len; i++)
    {
      g_string_assign (s, SHORTEN_ELLIPSIS);
      g_string_append (s, valid + g_array_index (cuts, gsize, i));
      if (fits (s->str, user_data))
        return g_string_free (g_steal_pointer (&s), FALSE);
    }

  /* The last segment cut at its end: the longest prefix that fits */
  last = cuts->len > 0 ? valid + g_array_index (cuts, gsize, cuts->len - 1) : valid;
  lo = 0;
  hi = g_utf8_strlen (last, -1) - 1;
  while (lo < hi)
    {
      glong mid = (lo + hi + 1) / 2;
      const char *end = g_utf8_offset_to_pointer (last, mid);

      g_string_assign (s, cuts->len > 0 ? SHORTEN_ELLIPSIS : "");
      g_string_append_len (s, last, end - last);
      g_string_append (s, SHORTEN_ELLIPSIS);
      if (fits (s->str, user_data))
        lo = mid;
      else
        hi = mid - 1;
    }
  if (lo > 0)
    {
      g_string_assign (s, cuts->len > 0 ? SHORTEN_ELLIPSIS : "");
      g_string_append_len (s, last, g_utf8_offset_to_pointer (last, lo) - last);
      g_string_append (s, SHORTEN_ELLIPSIS);
      return g_string_free (g_steal_pointer (&s), FALSE);
    }
  return g_strdup (SHORTEN_ELLIPSIS);
}
