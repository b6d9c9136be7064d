/* embers-recording-rule.h: recording rules (metrics from profiles)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define EMBERS_RECORDING_RULE_METRIC_PREFIX "profiles_recorded_"

/* The fields a person edits, for per-field validation messages */
typedef enum
{
  EMBERS_RULE_FIELD_ID,
  EMBERS_RULE_FIELD_METRIC_NAME,
  EMBERS_RULE_FIELD_MATCHERS,
  EMBERS_RULE_FIELD_GROUP_BY,
  EMBERS_RULE_FIELD_EXTERNAL_LABELS,
  EMBERS_RULE_FIELD_GENERATION,
  EMBERS_RULE_FIELD_FUNCTION,
  EMBERS_RULE_N_FIELDS,
} EmbersRuleField;

/* All nine fields of settings.v1.RecordingRule */
typedef struct
{
  char     *id;
  char     *metric_name;
  char     *profile_type;          /* from the __profile_type__ matcher */
  GStrv     matchers;              /* each a Prometheus matcher, or {…} */
  GStrv     group_by;
  GStrv     external_label_names;
  GStrv     external_label_values;
  gint64    generation;
  char     *function_name;         /* stacktrace_filter; NULL = none */
  gboolean  provisioned;
} EmbersRecordingRule;

#define EMBERS_TYPE_RECORDING_RULE (embers_recording_rule_get_type ())
GType                embers_recording_rule_get_type (void) G_GNUC_CONST;
EmbersRecordingRule *embers_recording_rule_new      (void);
EmbersRecordingRule *embers_recording_rule_copy     (const EmbersRecordingRule *rule);
void                 embers_recording_rule_free     (EmbersRecordingRule       *rule);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (EmbersRecordingRule, embers_recording_rule_free)

/**
 * embers_recording_rule_check:
 * @messages: (out caller-allocates): EMBERS_RULE_N_FIELDS entries, each
 *   NULL (fine) or a message for that field; free with g_free
 *
 * Validates as the Pyroscope server validates an upsert: id ^[a-zA-Z]+$
 * (or empty), metric name required, ^[a-zA-Z_:][a-zA-Z0-9_:]*$ and the
 * profiles_recorded_ prefix, every matcher parses and exactly one is an
 * __profile_type__= equality, group-by and external label names
 * ^[a-zA-Z_][a-zA-Z0-9_]*$, values valid UTF-8, generation >= 0.
 *
 * Returns: TRUE when the rule is valid
 */
gboolean  embers_recording_rule_check          (const EmbersRecordingRule *rule,
                                                char                     **messages);
/* The profile type named by the __profile_type__= matcher, or "unknown" */
char     *embers_recording_rule_derive_profile_type (const EmbersRecordingRule *rule);

/* profiles_recorded_<service>_<sample type>_<function>_<unit>, sanitized;
 * NULL parts skipped; with none, the prefix alone (valid, to complete) */
char     *embers_recording_rule_suggest_metric_name (const char *service,
                                                     const char *profile_type,
                                                     const char *function_name);

/* Server configuration for servers without the rules API */

/* The tenant of a server without multi-tenancy */
#define EMBERS_RECORDING_RULE_DEFAULT_TENANT "anonymous"
/* In the original Pyroscope's expr when the rule names no one service */
#define EMBERS_RECORDING_RULE_OG_APP_PLACEHOLDER "APP_NAME"

/* YAML for Pyroscope's runtime configuration (-runtime-config.file):
 * overrides: <tenant>: recording_rules: [the rule], the rule's keys as
 * settings.v1.RecordingRule's field names (stacktrace_filter:
 * function_name: function_name:, external_labels as name/value).
 * tenant NULL or "": "anonymous" (a server without multi-tenancy) */
char     *embers_recording_rule_to_tenant_override  (const EmbersRecordingRule *rule,
                                                     const char                *tenant);
/* The original Pyroscope's metrics-export-rules entry: expr
 * "<app>.<type>{<other matchers>}" with the service_name= value as the app
 * and the type by its old name (cpu, alloc_space, goroutines,
 * mutex_count…), node "total" or the function as an exact regex,
 * group_by. @warning (out) (optional): what a person must fix by hand
 * (no single service, a type the original lacked), or NULL */
char     *embers_recording_rule_to_og_config        (const EmbersRecordingRule  *rule,
                                                     char                      **warning);

/* Places the problems of a server's invalid_argument answer ("… invalid
 * request: <problem>\n<problem>…", one per line, each starting with the
 * field's name: id, metric_name, matcher(s), group_by, external_labels,
 * generation) next to their fields: @messages (out caller-allocates)
 * gets EMBERS_RULE_N_FIELDS entries, each NULL or that field's problems
 * (one per line). Returns the problems that name no field, or NULL. Free
 * everything with g_free. */
char     *embers_recording_rule_place_server_problems (const char  *message,
                                                       char       **messages);

G_END_DECLS
