/* ets-selector.h: Prometheus metric selectors for the test server
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The grammar of Prometheus' ParseMetricSelector: an optional metric name
 * (becomes __name__="name"), then optionally {matchers} where a matcher is
 * label = != =~ !~ "value" (double, single or back quotes; Go escapes in
 * double and single quotes), comma separated, a trailing comma allowed.
 * Regexes are fully anchored. "{}" matches anything; an empty string is a
 * parse error, as in Prometheus (and so in Pyroscope).
 * Written for the server independently of src/core/embers-selector.c.
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  ETS_MATCH_EQ,
  ETS_MATCH_NE,
  ETS_MATCH_RE,
  ETS_MATCH_NRE,
} EtsMatchOp;

typedef struct
{
  char       *name;
  EtsMatchOp  op;
  char       *value;
  GRegex     *regex;    /* for =~ and !~ */
} EtsMatcher;

typedef struct
{
  GPtrArray *matchers;  /* EtsMatcher* */
} EtsSelector;

/* Errors are G_IO_ERROR_INVALID_DATA with Prometheus-like messages:
 * "1:5: parse error: unexpected character inside braces: '!'" */
EtsSelector *ets_selector_parse      (const char   *text,
                                      GError      **error);
void         ets_selector_free       (EtsSelector  *self);
void         ets_selector_add        (EtsSelector  *self,
                                      const char   *name,
                                      EtsMatchOp    op,
                                      const char   *value);
/* lookup returns NULL for an absent label, which matches as "" */
typedef const char *(*EtsLabelLookup) (gpointer    data,
                                       const char *name);
gboolean     ets_selector_matches    (EtsSelector  *self,
                                      EtsLabelLookup lookup,
                                      gpointer      data);
gboolean     ets_matcher_matches     (EtsMatcher   *matcher,
                                      const char   *value);
/* The value of a name="value" matcher, or NULL */
const char  *ets_selector_get_equal  (EtsSelector  *self,
                                      const char   *name);

gboolean     ets_is_label_name       (const char   *name);   /* ^[a-zA-Z_][a-zA-Z0-9_]*$ */
gboolean     ets_is_metric_name      (const char   *name);   /* ^[a-zA-Z_:][a-zA-Z0-9_:]*$ */

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtsSelector, ets_selector_free)

G_END_DECLS
