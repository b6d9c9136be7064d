/* embers-recording-rules.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "settings.pb-c.h"

#include "embers-recording-rules.h"
#include "embers-source.h"

#define SERVICE "settings.v1.RecordingRulesService"

static EmbersRecordingRule *
rule_from_message (const Settings__V1__RecordingRule *msg)
{
  EmbersRecordingRule *rule = g_new0 (EmbersRecordingRule, 1);

  rule->id = g_strdup (msg->id ? msg->id : "");
  rule->metric_name = g_strdup (msg->metric_name ? msg->metric_name : "");
  rule->profile_type = g_strdup (msg->profile_type ? msg->profile_type : "");
  rule->matchers = g_new0 (char *, msg->n_matchers + 1);
  for (gsize i = 0; i < msg->n_matchers; i++)
    rule->matchers[i] = g_strdup (msg->matchers[i]);
  rule->group_by = g_new0 (char *, msg->n_group_by + 1);
  for (gsize i = 0; i < msg->n_group_by; i++)
    rule->group_by[i] = g_strdup (msg->group_by[i]);
  rule->external_label_names = g_new0 (char *, msg->n_external_labels + 1);
  rule->external_label_values = g_new0 (char *, msg->n_external_labels + 1);
  for (gsize i = 0; i < msg->n_external_labels; i++)
    {
      rule->external_label_names[i] = g_strdup (msg->external_labels[i]->name ? msg->external_labels[i]->name : "");
      rule->external_label_values[i] = g_strdup (msg->external_labels[i]->value ? msg->external_labels[i]->value : "");
    }
  rule->generation = msg->generation;
  if (msg->stacktrace_filter != NULL && msg->stacktrace_filter->function_name != NULL &&
      msg->stacktrace_filter->function_name->function_name != NULL &&
      msg->stacktrace_filter->function_name->function_name[0] != '\0')
    rule->function_name = g_strdup (msg->stacktrace_filter->function_name->function_name);
  rule->provisioned = msg->provisioned;

  return rule;
}

typedef struct
{
  const ProtobufCMessageDescriptor *response_type;
  int                               kind;   /* 0 list, 1 one rule, 2 delete */
} CallKind;

static void
call_done (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  const CallKind *kind = g_task_get_task_data (task);
  g_autoptr(GBytes) bytes = NULL;
  GError *error = NULL;
  ProtobufCMessage *msg;

  bytes = embers_connect_client_call_finish (EMBERS_CONNECT_CLIENT (object), result, &error);
  if (bytes == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  msg = embers_connect_unpack (kind->response_type, bytes, _("the recording rules answer"), &error);
  if (msg == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  if (kind->kind == 0)
    {
      const Settings__V1__ListRecordingRulesResponse *list = (gpointer)msg;
      GPtrArray *rules = g_ptr_array_new_with_free_func ((GDestroyNotify)embers_recording_rule_free);

      for (gsize i = 0; i < list->n_rules; i++)
        g_ptr_array_add (rules, rule_from_message (list->rules[i]));
      g_task_return_pointer (task, rules, (GDestroyNotify)g_ptr_array_unref);
    }
  else if (kind->kind == 1)
    {
      /* Get and Upsert answers have the rule in field 1 */
      const Settings__V1__GetRecordingRuleResponse *one = (gpointer)msg;

      if (one->rule == NULL)
        g_task_return_new_error (task, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_PROTOCOL,
                                 _("The server answered without the rule"));
      else
        g_task_return_pointer (task, rule_from_message (one->rule), (GDestroyNotify)embers_recording_rule_free);
    }
  else
    g_task_return_boolean (task, TRUE);

  protobuf_c_message_free_unpacked (msg, NULL);
}

static void
call (EmbersConnectClient              *client,
      const char                       *method,
      const ProtobufCMessage           *request,
      const CallKind                   *kind,
      gpointer                          tag,
      GCancellable                     *cancellable,
      GAsyncReadyCallback               callback,
      gpointer                          user_data)
{
  GTask *task = g_task_new (client, cancellable, callback, user_data);

  g_task_set_source_tag (task, tag);
  g_task_set_task_data (task, (gpointer)kind, NULL);
  embers_connect_client_call_async (client, SERVICE, method, request, kind->response_type,
                                    EMBERS_CONNECT_CALL_NONE, cancellable, call_done, task);
}

static const CallKind list_kind = { &settings__v1__list_recording_rules_response__descriptor, 0 };
static const CallKind get_kind = { &settings__v1__get_recording_rule_response__descriptor, 1 };
static const CallKind upsert_kind = { &settings__v1__upsert_recording_rule_response__descriptor, 1 };
static const CallKind delete_kind = { &settings__v1__delete_recording_rule_response__descriptor, 2 };

void
embers_recording_rules_list_async (EmbersConnectClient *client,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  Settings__V1__ListRecordingRulesRequest req = SETTINGS__V1__LIST_RECORDING_RULES_REQUEST__INIT;

  g_return_if_fail (EMBERS_IS_CONNECT_CLIENT (client));

  call (client, "ListRecordingRules", &req.base, &list_kind, embers_recording_rules_list_async,
        cancellable, callback, user_data);
}

GPtrArray *
embers_recording_rules_list_finish (GAsyncResult  *result,
                                    GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

void
embers_recording_rules_get_async (EmbersConnectClient *client,
                                  const char          *id,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  Settings__V1__GetRecordingRuleRequest req = SETTINGS__V1__GET_RECORDING_RULE_REQUEST__INIT;

  g_return_if_fail (EMBERS_IS_CONNECT_CLIENT (client));

  req.id = (char *)id;
  call (client, "GetRecordingRule", &req.base, &get_kind, embers_recording_rules_get_async,
        cancellable, callback, user_data);
}

EmbersRecordingRule *
embers_recording_rules_get_finish (GAsyncResult  *result,
                                   GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

void
embers_recording_rules_upsert_async (EmbersConnectClient       *client,
                                     const EmbersRecordingRule *rule,
                                     GCancellable              *cancellable,
                                     GAsyncReadyCallback        callback,
                                     gpointer                   user_data)
{
  Settings__V1__UpsertRecordingRuleRequest req = SETTINGS__V1__UPSERT_RECORDING_RULE_REQUEST__INIT;
  Settings__V1__StacktraceFilter filter = SETTINGS__V1__STACKTRACE_FILTER__INIT;
  Settings__V1__StacktraceFilterFunctionName function = SETTINGS__V1__STACKTRACE_FILTER_FUNCTION_NAME__INIT;
  g_autofree Types__V1__LabelPair *pairs = NULL;
  g_autofree Types__V1__LabelPair **pair_ptrs = NULL;
  g_autofree char *metric = NULL;
  guint n_labels;

  g_return_if_fail (EMBERS_IS_CONNECT_CLIENT (client));
  g_return_if_fail (rule != NULL);

  metric = g_strstrip (g_strdup (rule->metric_name ? rule->metric_name : ""));
  req.id = rule->id != NULL && rule->id[0] != '\0' ? rule->id : NULL;
  req.metric_name = metric;
  req.n_matchers = rule->matchers ? g_strv_length (rule->matchers) : 0;
  req.matchers = rule->matchers;
  req.n_group_by = rule->group_by ? g_strv_length (rule->group_by) : 0;
  req.group_by = rule->group_by;

  n_labels = rule->external_label_names ? g_strv_length (rule->external_label_names) : 0;
  pairs = g_new0 (Types__V1__LabelPair, MAX (n_labels, 1u));
  pair_ptrs = g_new0 (Types__V1__LabelPair *, MAX (n_labels, 1u));
  for (guint i = 0; i < n_labels; i++)
    {
      types__v1__label_pair__init (&pairs[i]);
      pairs[i].name = rule->external_label_names[i];
      pairs[i].value = rule->external_label_values ? rule->external_label_values[i] : (char *)"";
      pair_ptrs[i] = &pairs[i];
    }
  req.n_external_labels = n_labels;
  req.external_labels = pair_ptrs;

  /* The generation the rule was read with: the server refuses a stale one */
  req.has_generation = rule->generation != 0;
  req.generation = rule->generation;

  if (rule->function_name != NULL && rule->function_name[0] != '\0')
    {
      function.function_name = rule->function_name;
      function.has_metric_type = TRUE;
      function.metric_type = SETTINGS__V1__METRIC_TYPE__TOTAL;
      filter.function_name = &function;
      req.stacktrace_filter = &filter;
    }

  call (client, "UpsertRecordingRule", &req.base, &upsert_kind, embers_recording_rules_upsert_async,
        cancellable, callback, user_data);
}

EmbersRecordingRule *
embers_recording_rules_upsert_finish (GAsyncResult  *result,
                                      GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

void
embers_recording_rules_delete_async (EmbersConnectClient *client,
                                     const char          *id,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data)
{
  Settings__V1__DeleteRecordingRuleRequest req = SETTINGS__V1__DELETE_RECORDING_RULE_REQUEST__INIT;

  g_return_if_fail (EMBERS_IS_CONNECT_CLIENT (client));

  req.id = (char *)id;
  call (client, "DeleteRecordingRule", &req.base, &delete_kind, embers_recording_rules_delete_async,
        cancellable, callback, user_data);
}

gboolean
embers_recording_rules_delete_finish (GAsyncResult  *result,
                                      GError       **error)
{
  return g_task_propagate_boolean (G_TASK (result), error);
}
