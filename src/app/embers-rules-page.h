/* embers-rules-page.h: a server's recording rules: list, edit, delete
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "embers-connect-client.h"
#include "embers-pyroscope-source.h"
#include "embers-recording-rule.h"
#include "embers-rule-dialog.h"

G_BEGIN_DECLS

#define EMBERS_TYPE_RULES_PAGE (embers_rules_page_get_type ())

G_DECLARE_FINAL_TYPE (EmbersRulesPage, embers_rules_page, EMBERS, RULES_PAGE, GtkWidget)

/* The dialogs it opens get the source (preview, group-by labels, profile
 * types, whether the server takes rules) */
EmbersRulesPage *embers_rules_page_new_for_source (EmbersSource      *source);
/* The same with a Pyroscope source of its own for the client */
EmbersRulesPage *embers_rules_page_new         (EmbersConnectClient *client);
EmbersSource    *embers_rules_page_get_source  (EmbersRulesPage     *self);
/* Reloads the list from the server */
void             embers_rules_page_reload      (EmbersRulesPage     *self);
gboolean         embers_rules_page_get_loading (EmbersRulesPage     *self);
/* The rules shown (EmbersRecordingRule), or NULL before the first answer */
GPtrArray       *embers_rules_page_get_rules   (EmbersRulesPage     *self);
/* The error shown in place (rules disabled, unreachable...), or NULL */
const char      *embers_rules_page_get_error   (EmbersRulesPage     *self);
/* TRUE when the server does not serve the rules API (404): the page says
 * so, with the flag that turns it on */
gboolean         embers_rules_page_get_disabled (EmbersRulesPage    *self);
/* New Rule…: a rule dialog with the page's source (profile types offered) */
EmbersRuleDialog *embers_rules_page_new_rule    (EmbersRulesPage     *self);
/* Deletes a rule after the person confirmed (the page asks first when
 * confirmed is FALSE); provisioned rules cannot be deleted */
gboolean         embers_rules_page_delete      (EmbersRulesPage     *self,
                                                const char          *id,
                                                gboolean             confirmed);
/* Opens the rule dialog to edit (upsert with the current generation) */
EmbersRuleDialog *embers_rules_page_edit        (EmbersRulesPage     *self,
                                                const char          *id);

G_END_DECLS
