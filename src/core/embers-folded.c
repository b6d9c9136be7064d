/* embers-folded.c: folded / collapsed stacks ("a;b;c 42")
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <inttypes.h>
#include <string.h>
#include <glib/gi18n.h>

#include "embers-profile-builder.h"
#include "embers-readers.h"

/*
 * One stack per line, root first: frames separated by ";", then white space
 * and a count. The count follows the LAST space or tab, so frames may hold
 * spaces ("java.util.HashMap get", "std::vector<int>::push_back (inlined)").
 *
 * Tolerated: blank lines, white space around a line, "\r\n", a last line
 * without "\n", a UTF-8 byte order mark. Empty frames ("a;;b") are skipped
 * (a line of nothing but separators counts for the root itself). Repeated
 * stacks add up. One sample type: "samples", in "count".
 *
 * Errors name the line: a line that does not end in a count (the
 * stackcollapse scripts always write one), a negative or fractional count,
 * a count past 64 bits, text that is not UTF-8.
 *
 * One pass; the only allocations are the builder's interning.
 */
EmbersProfile *
embers_folded_parse (const char  *data,
                     gsize        len,
                     GError     **error)
{
  g_autoptr(EmbersProfileBuilder) b = embers_profile_builder_new ();
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (guint32));
  const char *p = data;
  const char *end = data + len;
  guint line_no = 0;
  guint n_stacks = 0;

  embers_profile_builder_add_sample_type (b, "samples", "count");

  /* A UTF-8 byte order mark */
  if (len >= 3 && memcmp (p, "\xef\xbb\xbf", 3) == 0)
    p += 3;

  while (p < end)
    {
      const char *nl = memchr (p, '\n', end - p);
      const char *line_end = nl ? nl : end;
      const char *q = line_end;
      const char *count_start;
      const char *frames_end;
      guint64 count = 0;

      line_no++;

      /* Trim the right */
      while (q > p && (q[-1] == '\r' || q[-1] == ' ' || q[-1] == '\t'))
        q--;
      /* Skip leading white space */
      while (p < q && (*p == ' ' || *p == '\t'))
        p++;

      if (p == q)
        goto next;

      if (!g_utf8_validate (p, q - p, NULL))
        {
          g_set_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_INVALID,
                       _("folded: line %u is not valid UTF-8"), line_no);
          return NULL;
        }

      count_start = q;
      while (count_start > p && g_ascii_isdigit (count_start[-1]))
        count_start--;

      if (count_start < q && count_start > p && count_start[-1] == '-' &&
          (count_start - 1 == p || count_start[-2] == ' ' || count_start[-2] == '\t'))
        {
          g_set_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_INVALID,
                       _("folded: the count on line %u is negative"), line_no);
          return NULL;
        }

      if (count_start == q || count_start == p ||
          (count_start[-1] != ' ' && count_start[-1] != '\t'))
        {
          g_set_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_INVALID,
                       _("folded: line %u does not end in a count (expected “frame;frame;… 42”)"),
                       line_no);
          return NULL;
        }

      for (const char *d = count_start; d < q; d++)
        {
          if (count > (guint64)(G_MAXINT64 - (*d - '0')) / 10)
            {
              g_set_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_TOO_LARGE,
                           _("folded: the count on line %u is too large"), line_no);
              return NULL;
            }
          count = count * 10 + (guint64)(*d - '0');
        }

      frames_end = count_start - 1;
      while (frames_end > p && (frames_end[-1] == ' ' || frames_end[-1] == '\t'))
        frames_end--;

      g_array_set_size (stack, 0);
      for (const char *f = p; f < frames_end; )
        {
          const char *semi = memchr (f, ';', frames_end - f);
          const char *f_end = semi ? semi : frames_end;

          if (f_end > f)
            {
              guint32 id = embers_profile_builder_intern (b, f, f_end - f);

              g_array_append_val (stack, id);
            }
          f = semi ? semi + 1 : frames_end;
        }

      if (stack->len > EMBERS_PROFILE_MAX_DEPTH)
        {
          /* Translators: the plural follows the second number, the limit */
          g_set_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_TOO_LARGE,
                       g_dngettext (GETTEXT_PACKAGE,
                                    "folded: the stack on line %u is more than %u frame deep",
                                    "folded: the stack on line %u is more than %u frames deep",
                                    EMBERS_PROFILE_MAX_DEPTH),
                       line_no, EMBERS_PROFILE_MAX_DEPTH);
          return NULL;
        }

      {
        gint64 value = (gint64)count;

        embers_profile_builder_add_stack (b, (const guint32 *)(gpointer)stack->data, stack->len, &value, 0);
      }
      n_stacks++;

      if (!embers_profile_builder_check (b, error))
        {
          g_prefix_error (error, _("folded: line %u: "), line_no);
          return NULL;
        }

    next:
      if (nl == NULL)
        break;
      p = nl + 1;
    }

  if (n_stacks == 0)
    {
      g_set_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_EMPTY,
                   _("folded: there are no stacks"));
      return NULL;
    }

  return embers_profile_builder_finish (b, error);
}

/*
 * Writing. Whatever the writer puts out, embers_profile_load_bytes() must
 * read back (sniffed as folded) to the same tree, and writing that again
 * must give the same bytes. A frame name is made to fit the line format:
 *
 *  - bytes that are not UTF-8 become U+FFFD (the reader refuses them);
 *  - control characters but tab become their visible Control Pictures
 *    (U+2400 + code, DEL U+2421): a line break would split the line, and
 *    a control byte makes the sniffer call the file binary;
 *  - ";" (the separator) becomes ":";
 *  - white space around a name is dropped (the reader trims it around a
 *    line), and a blank name becomes "[unknown]" (it would vanish).
 *
 * A stack whose root frame starts with "{" or "[{" (the sniffer would take
 * the file for JSON) or with a byte order mark (skipped at the start of a
 * file) gets an empty first frame, ";{…", which the reader skips.
 */
static void
append_frame (GString    *out,
              const char *name)
{
  g_autofree char *valid = NULL;
  const char *start, *end;

  if (!g_utf8_validate (name, -1, NULL))
    name = valid = g_utf8_make_valid (name, -1);

  start = name;
  end = name + strlen (name);
  while (start < end && (*start == ' ' || *start == '\t'))
    start++;
  while (end > start && (end[-1] == ' ' || end[-1] == '\t'))
    end--;
  if (start == end)
    {
      g_string_append (out, "[unknown]");
      return;
    }

  for (const char *p = start; p < end; p++)
    {
      guchar c = (guchar)*p;

      if (c == ';')
        g_string_append_c (out, ':');
      else if (c == '\t' || (c >= 0x20 && c != 0x7f))
        g_string_append_c (out, (char)c);
      else
        g_string_append_unichar (out, c == 0x7f ? 0x2421 : 0x2400 + c);
    }
}

/* Whether a line starting with @name needs an empty first frame */
static gboolean
root_needs_guard (const char *name)
{
  while (*name == ' ' || *name == '\t')
    name++;

  if (name[0] == '[')
    {
      /* "[{" or "[]" would read as a Chrome trace */
      name++;
      while (*name == ' ' || *name == '\t')
        name++;
      return name[0] == '{' || name[0] == ']';
    }
  return name[0] == '{' || g_str_has_prefix (name, "\xef\xbb\xbf");
}

GBytes *
embers_folded_write (EmbersProfile  *profile,
                     guint           sample_type,
                     GError        **error)
{
  g_autoptr(GPtrArray) path = g_ptr_array_new ();
  const guint32 *names, *parents;
  const gint64 *self;
  GString *out;
  guint n_nodes;

  g_return_val_if_fail (EMBERS_IS_PROFILE (profile), NULL);
  g_return_val_if_fail (sample_type < embers_profile_get_n_sample_types (profile), NULL);

  n_nodes = embers_profile_get_n_nodes (profile);
  names = embers_profile_get_name_column (profile);
  parents = embers_profile_get_parent_column (profile);
  self = embers_profile_get_self_column (profile, sample_type);

  /* The reader takes no negative count */
  for (guint i = 0; i < n_nodes; i++)
    if (self[i] < 0)
      {
        g_set_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_UNSUPPORTED,
                     _("Folded stacks cannot hold negative values (“%s” has %" PRId64 ")"),
                     embers_profile_node_name_str (profile, i), self[i]);
        return NULL;
      }

  out = g_string_new (NULL);

  /* Samples without any frame cannot be written as an empty stack; they go
   * to a "[unknown]" frame (the collapsed-stack convention) so that the
   * total stays right. */
  if (self[0] != 0)
    g_string_append_printf (out, "[unknown] %" G_GINT64_FORMAT "\n", self[0]);

  /* DFS pre-order; the root ("total") is not a frame */
  for (guint i = 1; i < n_nodes; i++)
    {
      if (self[i] == 0)
        continue;

      g_ptr_array_set_size (path, 0);
      for (guint32 n = i; n != 0; n = parents[n])
        g_ptr_array_add (path, (gpointer)embers_profile_get_string (profile, names[n]));
      if (root_needs_guard (g_ptr_array_index (path, path->len - 1)))
        g_string_append_c (out, ';');
      for (guint k = path->len; k > 0; k--)
        {
          append_frame (out, g_ptr_array_index (path, k - 1));
          if (k > 1)
            g_string_append_c (out, ';');
        }
      g_string_append_printf (out, " %" G_GINT64_FORMAT "\n", self[i]);
    }

  return g_string_free_to_bytes (out);
}
