/* embers-rule-preview.h: what a recording rule would record
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "embers-recording-rule.h"
#include "embers-source.h"

G_BEGIN_DECLS

#define EMBERS_TYPE_RULE_PREVIEW (embers_rule_preview_get_type ())

G_DECLARE_FINAL_TYPE (EmbersRulePreview, embers_rule_preview, EMBERS, RULE_PREVIEW, GtkWidget)

/* A line of text over a chart of the series a rule would record:
 * SelectSeries with the rule's matchers and group-by over the tab's time
 * range (or the last hour), or, while the rule's function is the last
 * frame of the call site, that call site's series (a stack-trace
 * selector; a folder computes it). Hidden without a source.
 *
 * Each setter does nothing when nothing changed, so that a form may pass
 * its rule on every edit: a request goes out (after a short pause) only
 * when the query changes. The "changed" signal says the text or chart
 * changed (an answer came, or the preview was cleared). */
GtkWidget  *embers_rule_preview_new            (void);
void        embers_rule_preview_set_source     (EmbersRulePreview         *self,
                                                EmbersSource              *source);
EmbersSource *embers_rule_preview_get_source   (EmbersRulePreview         *self);
/* The rule in the form, or NULL while it is not valid (the preview is
 * then cleared, saying that it follows once the rule is valid) */
void        embers_rule_preview_set_rule       (EmbersRulePreview         *self,
                                                const EmbersRecordingRule *rule);
void        embers_rule_preview_set_time_range (EmbersRulePreview         *self,
                                                gint64                     start_ms,
                                                gint64                     end_ms);
void        embers_rule_preview_set_call_site  (EmbersRulePreview         *self,
                                                const char * const        *call_site);
/* How many requests went out (for tests: a form's edits that do not
 * change the query send none) */
guint       embers_rule_preview_get_n_requests (EmbersRulePreview         *self);
/* TRUE while a request is scheduled or under way */
gboolean    embers_rule_preview_get_pending    (EmbersRulePreview         *self);
guint       embers_rule_preview_get_n_series   (EmbersRulePreview         *self);
const char *embers_rule_preview_get_text       (EmbersRulePreview         *self);
void        embers_rule_preview_get_range      (EmbersRulePreview         *self,
                                                gint64                    *start_ms,
                                                gint64                    *end_ms);
gboolean    embers_rule_preview_get_call_site  (EmbersRulePreview         *self);
double      embers_rule_preview_get_sum        (EmbersRulePreview         *self);

G_END_DECLS
