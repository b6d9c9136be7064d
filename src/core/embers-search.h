/* embers-search.h: frame search in a flame graph
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "embers-profile.h"

G_BEGIN_DECLS

typedef enum
{
  EMBERS_SEARCH_DEFAULT        = 0,       /* plain substring, case-insensitive */
  EMBERS_SEARCH_REGEX          = 1 << 0,  /* GRegex (PCRE), unanchored */
  EMBERS_SEARCH_CASE_SENSITIVE = 1 << 1,
} EmbersSearchFlags;

/*
 * EmbersNameMatcher: one pattern, as the search reads it (a plain
 * substring or a regular expression, caseless unless asked), for any list
 * of names. An empty pattern matches every name. A bad regex returns NULL
 * with a G_REGEX_ERROR. Immutable: safe to use from several threads.
 */
typedef struct _EmbersNameMatcher EmbersNameMatcher;

EmbersNameMatcher *embers_name_matcher_new     (const char         *pattern,
                                                EmbersSearchFlags   flags,
                                                GError            **error);
gboolean           embers_name_matcher_matches (EmbersNameMatcher  *matcher,
                                                const char         *name);
void               embers_name_matcher_free    (EmbersNameMatcher  *matcher);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (EmbersNameMatcher, embers_name_matcher_free)

/*
 * EmbersSearch: the frames of a profile whose name matches a pattern.
 * Immutable once created (thread-safe to read), reference counted.
 * The pattern is evaluated once per distinct name, then every node is
 * marked in one pass; a prefix count over DFS order answers "does this
 * DFS range contain a match" in O(1) (used for merged layout blocks).
 */
typedef struct _EmbersSearch EmbersSearch;

#define EMBERS_TYPE_SEARCH (embers_search_get_type ())

GType         embers_search_get_type          (void) G_GNUC_CONST;

/* An empty or NULL pattern matches nothing. A bad regex returns NULL
 * with a G_REGEX_ERROR. */
EmbersSearch *embers_search_new               (EmbersProfile     *profile,
                                               const char        *pattern,
                                               EmbersSearchFlags  flags,
                                               GError           **error);
EmbersSearch *embers_search_ref               (EmbersSearch      *self);
void          embers_search_unref             (EmbersSearch      *self);

EmbersProfile *embers_search_get_profile      (EmbersSearch      *self);
const char   *embers_search_get_pattern       (EmbersSearch      *self);
EmbersSearchFlags embers_search_get_flags     (EmbersSearch      *self);
/* FALSE for an empty pattern: nothing to highlight, nothing to dim */
gboolean      embers_search_is_active         (EmbersSearch      *self);

gboolean      embers_search_name_matches      (EmbersSearch      *self,
                                               guint32            name_id);
gboolean      embers_search_node_matches      (EmbersSearch      *self,
                                               guint32            node);
/* Whether any node in the DFS range [first, end) matches, O(1) */
gboolean      embers_search_range_has_match   (EmbersSearch      *self,
                                               guint32            first,
                                               guint32            end);
/* Number of matching nodes (call tree frames) */
guint         embers_search_get_n_matches     (EmbersSearch      *self);
/* Number of distinct matching names that occur as frames */
guint         embers_search_get_n_names       (EmbersSearch      *self);

/* Sum of the totals of the matching nodes that have no matching ancestor
 * (nested matches are not counted twice); at most the root total. */
gint64        embers_search_get_matched_total (EmbersSearch      *self,
                                               guint              sample_type);
/* matched total / root total, 0..1 (0 for an empty profile) */
double        embers_search_get_matched_fraction (EmbersSearch   *self,
                                               guint              sample_type);
/* Same, but of the subtree of focus (matches above focus do not count;
 * a focus that matches itself gives 1) */
double        embers_search_get_focus_fraction (EmbersSearch     *self,
                                               guint              sample_type,
                                               guint32            focus);
/* "12 matching frames, 34.5% of total" (translatable); "No matches".
 * For a diff profile (sample_type ignored): "12 matching frames, 30.00% of
 * baseline, 34.50% of comparison" */
char         *embers_search_summary           (EmbersSearch      *self,
                                               guint              sample_type);

/* Next / previous matching node in DFS pre-order after / before @node,
 * wrapping around; pass EMBERS_NODE_NONE to get the first / last. Nodes
 * with a zero total in @sample_type (invisible) are skipped; for a diff
 * profile @sample_type is ignored and a node is skipped when it is zero on
 * both sides (it is drawn with the default baseline + comparison widths).
 * Returns EMBERS_NODE_NONE when nothing matches. */
guint32       embers_search_next              (EmbersSearch      *self,
                                               guint              sample_type,
                                               guint32            node);
guint32       embers_search_previous          (EmbersSearch      *self,
                                               guint              sample_type,
                                               guint32            node);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EmbersSearch, embers_search_unref)

G_END_DECLS
