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

/* profiles_recorded_<service>_<function>_<unit>, sanitized; NULL parts skipped */
char     *embers_recording_rule_suggest_metric_name (const char *service,
                                                     const char *profile_type,
                                                     const char *function_name);

/* Server configuration for servers without the rules API */
/* YAML for the per-tenant "recording_rules" override */
char     *embers_recording_rule_to_tenant_override  (const EmbersRecordingRule *rule);
/* The original Pyroscope's metrics-export-rules entry (FlameQL expr) */
char     *embers_recording_rule_to_og_config        (const EmbersRecordingRule *rule);

G_END_DECLS
