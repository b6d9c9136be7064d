/* embers-selector.h: Prometheus label selectors and name rules
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define EMBERS_SELECTOR_ERROR (embers_selector_error_quark ())

typedef enum
{
  EMBERS_SELECTOR_ERROR_SYNTAX,
  EMBERS_SELECTOR_ERROR_REGEX,
  EMBERS_SELECTOR_ERROR_NAME,
} EmbersSelectorError;

GQuark embers_selector_error_quark (void);

typedef enum
{
  EMBERS_MATCH_EQUAL,       /* =  */
  EMBERS_MATCH_NOT_EQUAL,   /* != */
  EMBERS_MATCH_REGEX,       /* =~ (fully anchored) */
  EMBERS_MATCH_NOT_REGEX,   /* !~ (fully anchored) */
} EmbersMatchOp;

typedef struct
{
  char          *name;
  EmbersMatchOp  op;
  char          *value;
} EmbersMatcher;

typedef struct _EmbersSelector EmbersSelector;

#define EMBERS_TYPE_SELECTOR (embers_selector_get_type ())

GType           embers_selector_get_type      (void) G_GNUC_CONST;
EmbersSelector *embers_selector_new           (void);
/* "{a=\"b\", c=~\"d.*\"}", "{}", "" (empty); an optional metric name before
 * the braces is returned in metric_name (e.g. a profile type id). */
EmbersSelector *embers_selector_parse         (const char        *text,
                                               char             **metric_name,
                                               GError           **error);
/* One matcher string as Pyroscope parses it (Prometheus'
 * ParseMetricSelector): "{a=\"b\"}", "metric{a=\"b\"}" or "metric" (a
 * __name__ matcher); label names may be quoted UTF-8 ({"service.name"="x"});
 * Go escapes only; an empty or blank string is an error. */
EmbersSelector *embers_selector_parse_metric_selector (const char *text,
                                                       GError    **error);
/* Several matcher strings, all matchers in one selector. Each is a metric
 * selector as above, or (a convenience of local sources, not Prometheus
 * syntax) one bare matcher such as service_name="api". */
EmbersSelector *embers_selector_parse_matchers (const char * const *matchers,
                                                GError           **error);
EmbersSelector *embers_selector_ref           (EmbersSelector    *self);
void            embers_selector_unref         (EmbersSelector    *self);
EmbersSelector *embers_selector_copy          (EmbersSelector    *self);

guint                embers_selector_get_n_matchers (EmbersSelector *self);
const EmbersMatcher *embers_selector_get_matcher    (EmbersSelector *self,
                                                     guint           index);
gboolean        embers_selector_add           (EmbersSelector    *self,
                                               const char        *name,
                                               EmbersMatchOp      op,
                                               const char        *value,
                                               GError           **error);
/* Adds a copy of a matcher taken from another selector (names in quotes
 * included) */
void            embers_selector_add_matcher   (EmbersSelector      *self,
                                               const EmbersMatcher *matcher);
/* Removes every matcher on name (any operator); returns how many */
guint           embers_selector_remove        (EmbersSelector    *self,
                                               const char        *name);
/* Lookup returns the label's value or NULL when the label is absent
 * (an absent label matches = "" and != "x", as in Prometheus). */
typedef const char *(*EmbersLabelLookup) (const char *name,
                                          gpointer    user_data);
gboolean        embers_selector_matches       (EmbersSelector    *self,
                                               EmbersLabelLookup  lookup,
                                               gpointer           user_data);
/* Canonical form: {a="b",c=~"d"} with escapes; "{}" when empty */
char           *embers_selector_to_string     (EmbersSelector    *self);
/* One matcher as a string: a="b" ("a.b"="c" for a name that needs quotes) */
char           *embers_matcher_to_string      (const EmbersMatcher *matcher);
const char     *embers_match_op_to_string     (EmbersMatchOp      op);

/* Name rules (Prometheus / Pyroscope recording rules) */
gboolean        embers_label_name_is_valid    (const char        *name);   /* ^[a-zA-Z_][a-zA-Z0-9_]*$ */
gboolean        embers_metric_name_is_valid   (const char        *name);   /* ^[a-zA-Z_:][a-zA-Z0-9_:]*$ */
/* Quotes a label value: "a\"b" */
char           *embers_selector_quote         (const char        *value);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EmbersSelector, embers_selector_unref)

G_END_DECLS
