/* embers-search.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "embers-search.h"

struct _EmbersSearch
{
  gatomicrefcount    ref_count;
  EmbersProfile     *profile;
  char              *pattern;
  EmbersSearchFlags  flags;
  gboolean           active;

  guint8            *name_matches;  /* per string id */
  guint              n_names;       /* matching names used by nodes */
  /* prefix[i] = number of matching nodes among [0, i); n_nodes + 1 entries */
  guint32           *prefix;
  guint              n_nodes;
};

G_DEFINE_BOXED_TYPE (EmbersSearch, embers_search, embers_search_ref, embers_search_unref)

/* ASCII case-insensitive substring search; needle is already lowercase */
static gboolean
is_diff (EmbersProfile *profile)
{
  return embers_profile_is_diff (profile) && embers_profile_get_n_sample_types (profile) >= 2;
}

static gboolean
ascii_contains_caseless (const char *haystack,
                         const char *needle,
                         gsize       needle_len)
{
  if (needle_len == 0)
    return TRUE;

  for (const char *h = haystack; *h != '\0'; h++)
    {
      gsize i = 0;

      while (i < needle_len && h[i] != '\0' && g_ascii_tolower (h[i]) == needle[i])
        i++;
      if (i == needle_len)
        return TRUE;
      if (h[i] == '\0')
        return FALSE;
    }

  return FALSE;
}

static gboolean
is_ascii (const char *s)
{
  for (; *s != '\0'; s++)
    if ((guchar)*s >= 0x80)
      return FALSE;
  return TRUE;
}

struct _EmbersNameMatcher
{
  EmbersSearchFlags  flags;
  char              *pattern;
  GRegex            *regex;
  char              *folded;     /* casefolded pattern (non-ASCII, caseless) */
  char              *lower;      /* ASCII-lowered pattern (ASCII, caseless) */
  gsize              lower_len;
};

EmbersNameMatcher *
embers_name_matcher_new (const char         *pattern,
                         EmbersSearchFlags   flags,
                         GError            **error)
{
  g_autoptr(EmbersNameMatcher) m = g_new0 (EmbersNameMatcher, 1);

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (pattern == NULL)
    pattern = "";
  m->flags = flags;
  m->pattern = g_strdup (pattern);
  if (pattern[0] != '\0' && (flags & EMBERS_SEARCH_REGEX))
    {
      GRegexCompileFlags cflags = G_REGEX_OPTIMIZE;

      if (!(flags & EMBERS_SEARCH_CASE_SENSITIVE))
        cflags |= G_REGEX_CASELESS;
      m->regex = g_regex_new (pattern, cflags, 0, error);
      if (m->regex == NULL)
        return NULL;
    }
  else if (!(flags & EMBERS_SEARCH_CASE_SENSITIVE))
    {
      if (is_ascii (pattern))
        {
          m->lower = g_ascii_strdown (pattern, -1);
          m->lower_len = strlen (m->lower);
        }
      else
        {
          m->folded = g_utf8_casefold (pattern, -1);
        }
    }
  return g_steal_pointer (&m);
}

void
embers_name_matcher_free (EmbersNameMatcher *m)
{
  if (m == NULL)
    return;
  g_clear_pointer (&m->regex, g_regex_unref);
  g_free (m->pattern);
  g_free (m->folded);
  g_free (m->lower);
  g_free (m);
}

gboolean
embers_name_matcher_matches (EmbersNameMatcher *m,
                             const char        *name)
{
  g_autofree char *valid = NULL;

  if (!g_utf8_validate (name, -1, NULL))
    name = valid = g_utf8_make_valid (name, -1);

  if (m->regex != NULL)
    return g_regex_match (m->regex, name, 0, NULL);

  if (m->flags & EMBERS_SEARCH_CASE_SENSITIVE)
    return strstr (name, m->pattern) != NULL;

  if (m->lower != NULL)
    return ascii_contains_caseless (name, m->lower, m->lower_len);

  {
    g_autofree char *folded_name = g_utf8_casefold (name, -1);

    return strstr (folded_name, m->folded) != NULL;
  }
}

EmbersSearch *
embers_search_new (EmbersProfile     *profile,
                   const char        *pattern,
                   EmbersSearchFlags  flags,
                   GError           **error)
{
  EmbersSearch *self;
  g_autoptr(EmbersNameMatcher) m = NULL;
  guint n_nodes, n_strings;
  const guint32 *names;
  g_autofree guint8 *used = NULL;

  g_return_val_if_fail (EMBERS_IS_PROFILE (profile), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (pattern == NULL)
    pattern = "";

  m = embers_name_matcher_new (pattern, flags, error);
  if (m == NULL)
    return NULL;

  self = g_new0 (EmbersSearch, 1);
  g_atomic_ref_count_init (&self->ref_count);
  self->profile = g_object_ref (profile);
  self->pattern = g_strdup (pattern);
  self->flags = flags;
  self->active = pattern[0] != '\0';

  n_nodes = embers_profile_get_n_nodes (profile);
  n_strings = embers_profile_get_n_strings (profile);
  names = embers_profile_get_name_column (profile);
  self->n_nodes = n_nodes;
  self->name_matches = g_new0 (guint8, MAX (n_strings, 1));
  self->prefix = g_new0 (guint32, (gsize)n_nodes + 1);

  if (self->active)
    {
      /* Evaluate the pattern once per distinct frame name (not the root) */
      used = g_new0 (guint8, MAX (n_strings, 1));
      for (guint i = 1; i < n_nodes; i++)
        used[names[i]] = 1;
      for (guint s = 0; s < n_strings; s++)
        if (used[s] && embers_name_matcher_matches (m, embers_profile_get_string (profile, s)))
          {
            self->name_matches[s] = 1;
            self->n_names++;
          }
    }

  self->prefix[0] = 0;
  if (n_nodes > 0)
    self->prefix[1] = 0;  /* the root never matches */
  for (guint i = 1; i < n_nodes; i++)
    self->prefix[i + 1] = self->prefix[i] + self->name_matches[names[i]];

  return self;
}

EmbersSearch *
embers_search_ref (EmbersSearch *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
embers_search_unref (EmbersSearch *self)
{
  g_return_if_fail (self != NULL);

  if (g_atomic_ref_count_dec (&self->ref_count))
    {
      g_clear_object (&self->profile);
      g_free (self->pattern);
      g_free (self->name_matches);
      g_free (self->prefix);
      g_free (self);
    }
}

EmbersProfile *
embers_search_get_profile (EmbersSearch *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->profile;
}

const char *
embers_search_get_pattern (EmbersSearch *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->pattern;
}

EmbersSearchFlags
embers_search_get_flags (EmbersSearch *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->flags;
}

gboolean
embers_search_is_active (EmbersSearch *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return self->active;
}

gboolean
embers_search_name_matches (EmbersSearch *self,
                            guint32       name_id)
{
  g_return_val_if_fail (self != NULL, FALSE);

  if (name_id >= embers_profile_get_n_strings (self->profile))
    return FALSE;
  return self->name_matches[name_id] != 0;
}

gboolean
embers_search_node_matches (EmbersSearch *self,
                            guint32       node)
{
  g_return_val_if_fail (self != NULL, FALSE);

  if (node >= self->n_nodes)
    return FALSE;
  return self->prefix[node + 1] != self->prefix[node];
}

gboolean
embers_search_range_has_match (EmbersSearch *self,
                               guint32       first,
                               guint32       end)
{
  g_return_val_if_fail (self != NULL, FALSE);

  end = MIN (end, self->n_nodes);
  if (first >= end)
    return FALSE;
  return self->prefix[end] != self->prefix[first];
}

guint
embers_search_get_n_matches (EmbersSearch *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->prefix[self->n_nodes];
}

guint
embers_search_get_n_names (EmbersSearch *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_names;
}

/* Sum of the totals of outermost matches within [first, end) */
static gint64
matched_total_in (EmbersSearch *self,
                  guint         sample_type,
                  guint32       first,
                  guint32       end)
{
  const gint64 *total = embers_profile_get_total_column (self->profile, sample_type);
  const guint32 *ends = embers_profile_get_end_column (self->profile);
  gint64 sum = 0;
  guint32 i = first;

  while (i < end)
    {
      /* Skip over match-free subtrees and runs in O(1) each */
      if (self->prefix[ends[i]] == self->prefix[i])
        {
          i = ends[i];
          continue;
        }
      if (self->prefix[i + 1] != self->prefix[i])
        {
          sum += total[i];
          i = ends[i];
        }
      else
        {
          i++;
        }
    }

  return sum;
}

gint64
embers_search_get_matched_total (EmbersSearch *self,
                                 guint         sample_type)
{
  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (sample_type < embers_profile_get_n_sample_types (self->profile), 0);

  if (self->n_nodes == 0)
    return 0;
  return matched_total_in (self, sample_type, 0, self->n_nodes);
}

double
embers_search_get_matched_fraction (EmbersSearch *self,
                                    guint         sample_type)
{
  gint64 root;

  g_return_val_if_fail (self != NULL, 0.0);

  root = embers_profile_get_total (self->profile, sample_type);
  if (root <= 0)
    return 0.0;
  return (double)embers_search_get_matched_total (self, sample_type) / (double)root;
}

double
embers_search_get_focus_fraction (EmbersSearch *self,
                                  guint         sample_type,
                                  guint32       focus)
{
  gint64 focus_total;

  g_return_val_if_fail (self != NULL, 0.0);
  g_return_val_if_fail (sample_type < embers_profile_get_n_sample_types (self->profile), 0.0);

  if (focus == EMBERS_NODE_NONE)
    focus = 0;
  if (focus >= self->n_nodes)
    return 0.0;

  focus_total = embers_profile_node_total (self->profile, sample_type, focus);
  if (focus_total <= 0)
    return 0.0;

  return (double)matched_total_in (self, sample_type, focus,
                                   embers_profile_node_end (self->profile, focus)) / (double)focus_total;
}

char *
embers_search_summary (EmbersSearch *self,
                       guint         sample_type)
{
  guint n;
  g_autofree char *percent = NULL;

  g_return_val_if_fail (self != NULL, NULL);

  n = embers_search_get_n_matches (self);
  if (n == 0)
    return g_strdup (_("No matches"));

  if (is_diff (self->profile))
    {
      g_autofree char *baseline = g_strdup_printf ("%.2f%%", 100.0 * embers_search_get_matched_fraction (self, 0));
      g_autofree char *comparison = g_strdup_printf ("%.2f%%", 100.0 * embers_search_get_matched_fraction (self, 1));

      /* Translators: "12 matching frames, 30.00% of baseline, 34.50% of comparison" */
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u matching frame, %s of baseline, %s of comparison",
                                           "%u matching frames, %s of baseline, %s of comparison", n),
                              n, baseline, comparison);
    }

  percent = g_strdup_printf ("%.2f%%", 100.0 * embers_search_get_matched_fraction (self, sample_type));
  /* Translators: "12 matching frames, 34.50% of total" */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u matching frame, %s of total",
                                       "%u matching frames, %s of total", n),
                          n, percent);
}

static gboolean
visible_match (EmbersSearch  *self,
               const gint64  *total,
               const gint64  *other,
               guint32        i)
{
  return self->prefix[i + 1] != self->prefix[i] &&
         (total[i] > 0 || (other != NULL && other[i] > 0));
}

/* The columns that make a node visible: the sample type's; for a diff
 * (drawn on baseline + comparison by default) either side */
static const gint64 *
visible_columns (EmbersSearch  *self,
                 guint          sample_type,
                 const gint64 **other)
{
  if (is_diff (self->profile))
    {
      *other = embers_profile_get_total_column (self->profile, 1);
      return embers_profile_get_total_column (self->profile, 0);
    }
  *other = NULL;
  return embers_profile_get_total_column (self->profile, sample_type);
}

guint32
embers_search_next (EmbersSearch *self,
                    guint         sample_type,
                    guint32       node)
{
  const gint64 *total, *other;
  guint32 start;

  g_return_val_if_fail (self != NULL, EMBERS_NODE_NONE);
  g_return_val_if_fail (sample_type < embers_profile_get_n_sample_types (self->profile), EMBERS_NODE_NONE);

  if (self->n_nodes == 0 || self->prefix[self->n_nodes] == 0)
    return EMBERS_NODE_NONE;

  total = visible_columns (self, sample_type, &other);
  start = (node == EMBERS_NODE_NONE || node >= self->n_nodes) ? 0 : node + 1;

  for (guint32 i = start; i < self->n_nodes; i++)
    if (visible_match (self, total, other, i))
      return i;
  for (guint32 i = 0; i < start && i < self->n_nodes; i++)
    if (visible_match (self, total, other, i))
      return i;

  return EMBERS_NODE_NONE;
}

guint32
embers_search_previous (EmbersSearch *self,
                        guint         sample_type,
                        guint32       node)
{
  const gint64 *total, *other;
  guint32 start;

  g_return_val_if_fail (self != NULL, EMBERS_NODE_NONE);
  g_return_val_if_fail (sample_type < embers_profile_get_n_sample_types (self->profile), EMBERS_NODE_NONE);

  if (self->n_nodes == 0 || self->prefix[self->n_nodes] == 0)
    return EMBERS_NODE_NONE;

  total = visible_columns (self, sample_type, &other);
  start = (node == EMBERS_NODE_NONE || node >= self->n_nodes) ? self->n_nodes : node;

  for (guint32 i = start; i-- > 0; )
    if (visible_match (self, total, other, i))
      return i;
  for (guint32 i = self->n_nodes; i-- > start; )
    if (visible_match (self, total, other, i))
      return i;

  return EMBERS_NODE_NONE;
}
