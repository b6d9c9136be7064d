/* embers-rule-dialog.h: create a recording rule from what is on screen
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "embers-recording-rule.h"
#include "embers-rule-preview.h"
#include "embers-source.h"

G_BEGIN_DECLS

#define EMBERS_TYPE_RULE_DIALOG (embers_rule_dialog_get_type ())

G_DECLARE_FINAL_TYPE (EmbersRuleDialog, embers_rule_dialog, EMBERS, RULE_DIALOG, AdwDialog)

/* An AdwDialog: the caller presents it (adw_dialog_present). Prefilled
 * from the context: the service and profile type, the current
 * label selector (its matchers are kept) and a frame's function (NULL or ""
 * for the root: no function filter). source may be NULL, or a source
 * without recording rules (local files): the rule can then only be copied
 * as configuration. */
EmbersRuleDialog    *embers_rule_dialog_new          (EmbersSource        *source,
                                                      const char          *service,
                                                      const char          *profile_type,
                                                      const char          *selector,
                                                      const char          *function_name);
/* Edits an existing rule (saved with the generation it was read with) */
EmbersRuleDialog    *embers_rule_dialog_new_for_rule (EmbersSource              *source,
                                                      const EmbersRecordingRule *rule);
/* The rule as the fields say now */
EmbersRecordingRule *embers_rule_dialog_dup_rule     (EmbersRuleDialog    *self);
gboolean             embers_rule_dialog_get_valid    (EmbersRuleDialog    *self);
/* The message next to a field, or NULL */
const char          *embers_rule_dialog_get_message  (EmbersRuleDialog    *self,
                                                      EmbersRuleField      field);
/* The server's answer or the state, for people */
const char          *embers_rule_dialog_get_status   (EmbersRuleDialog    *self);
/* Why the rule can only be copied as configuration here (no server, or
 * the server's rules API is off: then with the flag that turns it on),
 * or NULL */
const char          *embers_rule_dialog_get_notice   (EmbersRuleDialog    *self);
/* A field as text, as a person would type it. Matchers: one matcher
 * string per line (a row each in the dialog); external labels: one
 * name=value per line (split at the first "="). */
void                 embers_rule_dialog_set_field    (EmbersRuleDialog    *self,
                                                      EmbersRuleField      field,
                                                      const char          *text);
const char          *embers_rule_dialog_get_field    (EmbersRuleDialog    *self,
                                                      EmbersRuleField      field);
/* Creates the rule on the server; emits "created" on success */
void                 embers_rule_dialog_create       (EmbersRuleDialog    *self);
gboolean             embers_rule_dialog_get_busy     (EmbersRuleDialog    *self);
/* The preview's data: SelectSeries with the rule's matchers and group-by
 * over the tab's time range (or the last hour); the group-by toggles; for a new rule, the source's
 * profile types to choose from; and whether the server takes rules at all
 * (a Pyroscope source that knows they are off) */
void                 embers_rule_dialog_set_source   (EmbersRuleDialog    *self,
                                                      EmbersSource        *source);
/* New rules with a source: the profile types offered (0 until loaded),
 * and choosing one as a person would (replaces the __profile_type__
 * matcher; a suggested metric name follows) */
guint                embers_rule_dialog_get_n_profile_types (EmbersRuleDialog *self);
gboolean             embers_rule_dialog_set_profile_type (EmbersRuleDialog *self,
                                                          const char       *type);
guint                embers_rule_dialog_get_n_preview_series (EmbersRuleDialog *self);
/* The preview widget (its request count, for tests) */
EmbersRulePreview   *embers_rule_dialog_get_preview  (EmbersRuleDialog    *self);
/* What the preview says (series count, or why there is none) */
const char          *embers_rule_dialog_get_preview_text (EmbersRuleDialog *self);
/* The preview over the tab's time range (the workspace's query) rather
 * than the last hour; and the range the preview's chart shows */
void                 embers_rule_dialog_set_time_range (EmbersRuleDialog *self,
                                                        gint64            start_ms,
                                                        gint64            end_ms);
void                 embers_rule_dialog_get_preview_range (EmbersRuleDialog *self,
                                                           gint64           *start_ms,
                                                           gint64           *end_ms);
/* The frame the dialog is for, root first (NULL: none): while the
 * function field names its last frame, the preview charts that call site
 * (SelectSeries with a stack-trace selector; a folder computes it) */
void                 embers_rule_dialog_set_call_site (EmbersRuleDialog   *self,
                                                       const char * const *call_site);
/* Whether the chart shown is of the call site, and the sum of its points */
gboolean             embers_rule_dialog_get_preview_call_site (EmbersRuleDialog *self);
double               embers_rule_dialog_get_preview_sum (EmbersRuleDialog *self);
/* The service's label names offered as group-by toggles (with a source) */
guint                embers_rule_dialog_get_n_group_by_choices (EmbersRuleDialog *self);
/* Flips one toggle (adds or removes the name in Group by); FALSE if no
 * such choice */
gboolean             embers_rule_dialog_toggle_group_by (EmbersRuleDialog *self,
                                                         const char       *name);
/* TRUE after the server refused a save as a conflicting update (someone
 * changed the rule since it was read) */
gboolean             embers_rule_dialog_get_conflict (EmbersRuleDialog    *self);
/* Reads the rule's current version: @keep_mine FALSE replaces the fields
 * with it; TRUE keeps the fields and takes its generation, so that the
 * next save overwrites it */
void                 embers_rule_dialog_reload       (EmbersRuleDialog    *self,
                                                      gboolean             keep_mine);

G_END_DECLS
