/* embers-rule-copies.h: a recording rule copied as server configuration
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "embers-recording-rule.h"

G_BEGIN_DECLS

#define EMBERS_TYPE_RULE_COPIES (embers_rule_copies_get_type ())

G_DECLARE_FINAL_TYPE (EmbersRuleCopies, embers_rule_copies, EMBERS, RULE_COPIES, GtkWidget)

/* "Copy as Tenant Override" and "Copy for Original Pyroscope", with a
 * note on where the override goes. The buttons copy "rule" (NULL while
 * the form's rule is not valid: then they are insensitive, as a copy of
 * an invalid rule would only be refused later) for "tenant". With
 * "suggested" (no rules API: copying is the way forward) the first is
 * the suggested action. "copied" tells what was copied, for people, and
 * whether it came with a warning. */
GtkWidget *embers_rule_copies_new            (void);
void       embers_rule_copies_set_rule       (EmbersRuleCopies          *self,
                                              const EmbersRecordingRule *rule);
void       embers_rule_copies_set_tenant     (EmbersRuleCopies          *self,
                                              const char                *tenant);
void       embers_rule_copies_set_suggested  (EmbersRuleCopies          *self,
                                              gboolean                   suggested);
/* The suggested button, for the dialog's default widget */
GtkWidget *embers_rule_copies_get_first      (EmbersRuleCopies          *self);
/* As a click on a button would (TRUE: the override; FALSE: the
 * original Pyroscope's entry) */
void       embers_rule_copies_copy           (EmbersRuleCopies          *self,
                                              gboolean                   override);

G_END_DECLS
