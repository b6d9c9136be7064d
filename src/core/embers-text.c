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
