/* embers-rule-rows.h: a recording rule's matchers or external labels
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define EMBERS_TYPE_RULE_ROWS (embers_rule_rows_get_type ())

G_DECLARE_FINAL_TYPE (EmbersRuleRows, embers_rule_rows, EMBERS, RULE_ROWS, GtkWidget)

/* Rows of entries, each with a button that removes it: one entry per
 * row (a rule's matcher strings, as the server keeps them), or, with
 * "pairs", name = value (external labels: a value may hold commas, "="
 * and spaces). The "label" is given the first entry as its mnemonic
 * widget ("add-button" while there are no rows); each entry is
 * described by "message". "changed" is emitted when a person edits an
 * entry or removes a row, not when rows are set or added. */
GtkWidget   *embers_rule_rows_new       (gboolean            pairs);
/* Replaces the rows: one per name (values: the pairs' values, or NULL) */
void         embers_rule_rows_set       (EmbersRuleRows     *self,
                                         const char * const *names,
                                         const char * const *values);
/* Adds a row at @position (-1: at the end); returns its first entry */
GtkWidget   *embers_rule_rows_insert    (EmbersRuleRows     *self,
                                         int                 position,
                                         const char         *name,
                                         const char         *value);
guint        embers_rule_rows_get_n     (EmbersRuleRows     *self);
/* The nth row's entry (its name entry for pairs), or NULL */
GtkEditable *embers_rule_rows_get_entry (EmbersRuleRows     *self,
                                         guint               n);
/* The nth row's value entry (pairs only), or NULL */
GtkEditable *embers_rule_rows_get_value (EmbersRuleRows     *self,
                                         guint               n);
/* The rows as text: an entry per line, or name=value per line */
char        *embers_rule_rows_dup_text  (EmbersRuleRows     *self);

G_END_DECLS
