/* embers-rule-group-by.h: label names as toggles for a rule's group-by
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define EMBERS_TYPE_RULE_GROUP_BY (embers_rule_group_by_get_type ())

G_DECLARE_FINAL_TYPE (EmbersRuleGroupBy, embers_rule_group_by, EMBERS, RULE_GROUP_BY, GtkWidget)

/* A service's label names as toggles, so that nobody has to remember or
 * type them. "text" is the group-by as a person types it (names
 * separated by commas): a toggle adds or removes its name there, and the
 * toggles follow it. Bind it both ways to an entry's "text": setting it
 * to what it is does nothing, and a toggle set to match the text changes
 * nothing, so the two never loop. Hidden while it has no choices. */
GtkWidget  *embers_rule_group_by_new         (void);
const char *embers_rule_group_by_get_text    (EmbersRuleGroupBy  *self);
void        embers_rule_group_by_set_text    (EmbersRuleGroupBy  *self,
                                              const char         *text);
/* The names offered (internal ones, "__…", are left out); NULL: none */
void        embers_rule_group_by_set_choices (EmbersRuleGroupBy  *self,
                                              const char * const *names);
guint       embers_rule_group_by_get_n_choices (EmbersRuleGroupBy *self);
/* Flips one toggle as a click would; FALSE if no such choice */
gboolean    embers_rule_group_by_toggle      (EmbersRuleGroupBy  *self,
                                              const char         *name);
/* The comma list as names, blanks left out */
GStrv       embers_rule_group_by_split       (const char         *text);

G_END_DECLS
