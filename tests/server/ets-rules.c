/* ets-rules.c: settings.v1.RecordingRulesService for the test server
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "ets-server.h"

#include "settings.pb-c.h"

struct _EtsRules
{
  guint max_rules;
};

EtsRules *
ets_rules_new (guint max_rules)
{
  EtsRules *rules = g_new0 (EtsRules, 1);

  rules->max_rules = max_rules;
  return rules;
}

gboolean
ets_rules_load_provisioned (EtsRules   *rules,
                            const char *path,
                            GError    **error)
{
  return TRUE;
}

void
ets_rules_free (EtsRules *rules)
{
  g_free (rules);
}

const EtsMethod ets_rules_methods[] = {
  { NULL }
};
