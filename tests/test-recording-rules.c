/* test-recording-rules.c: the recording rules client against the test
 * server: create, list, get, update with generations, delete, errors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "embers-recording-rules.h"
#include "embers-source.h"
#include "embers-test-server-spawn.h"

#define CPU "process_cpu:cpu:nanoseconds:cpu:nanoseconds"

typedef struct
{
  GAsyncResult *result;
} Wait;

static void
on_done (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_set_object (&((Wait *)user_data)->result, result);
}

static GAsyncResult *
wait_for (Wait *wait)
{
  g_clear_object (&wait->result);
  while (wait->result == NULL)
    g_main_context_iteration (NULL, TRUE);
  return wait->result;
}

static EmbersConnectClient *
client_for (EmbersTestServer *server)
{
  g_autoptr(GError) error = NULL;
  EmbersConnectClient *client = embers_connect_client_new (embers_test_server_get_url (server), &error);

  g_assert_no_error (error);
  return client;
}

static EmbersRecordingRule *
gc_rule (void)
{
  EmbersRecordingRule *rule = embers_recording_rule_new ();

  rule->metric_name = g_strdup ("profiles_recorded_cpu_gc_nanoseconds");
  g_strfreev (rule->matchers);
  rule->matchers = g_strdupv ((char *[]) { (char *)"{__profile_type__=\"" CPU "\",service_name=\"api\"}", NULL });
  g_strfreev (rule->group_by);
  rule->group_by = g_strdupv ((char *[]) { (char *)"region", NULL });
  g_strfreev (rule->external_label_names);
  g_strfreev (rule->external_label_values);
  rule->external_label_names = g_strdupv ((char *[]) { (char *)"env", NULL });
  rule->external_label_values = g_strdupv ((char *[]) { (char *)"prod", NULL });
  rule->function_name = g_strdup ("runtime.gcBgMarkWorker");
  return rule;
}

static void
test_rules_crud (void)
{
  const char *args[] = { "--recording-rules", NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersTestServer) server = embers_test_server_start (args, &error);
  g_autoptr(EmbersConnectClient) client = NULL;
  g_autoptr(EmbersRecordingRule) rule = gc_rule ();
  g_autoptr(EmbersRecordingRule) created = NULL;
  g_autoptr(EmbersRecordingRule) updated = NULL;
  g_autoptr(EmbersRecordingRule) got = NULL;
  g_autoptr(EmbersRecordingRule) stale = NULL;
  g_autoptr(GPtrArray) rules = NULL;
  Wait wait = { NULL };
  gboolean found = FALSE;

  g_assert_no_error (error);
  client = client_for (server);

  /* Valid as the server validates it */
  g_assert_true (embers_recording_rule_check (rule, NULL));

  /* Create: the server makes the id, generation 1, profile type from the matcher */
  embers_recording_rules_upsert_async (client, rule, NULL, on_done, &wait);
  created = embers_recording_rules_upsert_finish (wait_for (&wait), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (strlen (created->id), ==, 10);
  g_assert_cmpint (created->generation, ==, 1);
  g_assert_cmpstr (created->profile_type, ==, CPU);
  g_assert_cmpstr (created->function_name, ==, "runtime.gcBgMarkWorker");
  g_assert_cmpstr (created->external_label_values[0], ==, "prod");
  g_assert_false (created->provisioned);

  /* Listed */
  embers_recording_rules_list_async (client, NULL, on_done, &wait);
  rules = embers_recording_rules_list_finish (wait_for (&wait), &error);
  g_assert_no_error (error);
  for (guint i = 0; i < rules->len; i++)
    found |= g_str_equal (((EmbersRecordingRule *)g_ptr_array_index (rules, i))->id, created->id);
  g_assert_true (found);

  /* Edit with the current generation */
  g_free (created->metric_name);
  created->metric_name = g_strdup ("profiles_recorded_cpu_gc_total");
  embers_recording_rules_upsert_async (client, created, NULL, on_done, &wait);
  updated = embers_recording_rules_upsert_finish (wait_for (&wait), &error);
  g_assert_no_error (error);
  g_assert_cmpint (updated->generation, ==, 2);

  /* A stale generation is a conflict */
  embers_recording_rules_upsert_async (client, created, NULL, on_done, &wait);
  stale = embers_recording_rules_upsert_finish (wait_for (&wait), &error);
  g_assert_null (stale);
  g_assert_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_ALREADY_EXISTS);
  g_clear_error (&error);

  embers_recording_rules_get_async (client, created->id, NULL, on_done, &wait);
  got = embers_recording_rules_get_finish (wait_for (&wait), &error);
  g_assert_no_error (error);
  g_assert_cmpstr (got->metric_name, ==, "profiles_recorded_cpu_gc_total");

  /* A rule the server refuses: its message, and our own check agrees */
  {
    g_autoptr(EmbersRecordingRule) bad = gc_rule ();
    g_autoptr(EmbersRecordingRule) none = NULL;

    g_free (bad->metric_name);
    bad->metric_name = g_strdup ("cpu_gc");
    g_assert_false (embers_recording_rule_check (bad, NULL));
    embers_recording_rules_upsert_async (client, bad, NULL, on_done, &wait);
    none = embers_recording_rules_upsert_finish (wait_for (&wait), &error);
    g_assert_null (none);
    g_assert_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_INVALID_ARGUMENT);
    g_assert_nonnull (strstr (error->message, "profiles_recorded_"));
    g_clear_error (&error);
  }

  /* Delete, then it is gone */
  embers_recording_rules_delete_async (client, created->id, NULL, on_done, &wait);
  g_assert_true (embers_recording_rules_delete_finish (wait_for (&wait), &error));
  g_assert_no_error (error);
  g_clear_pointer (&got, embers_recording_rule_free);
  embers_recording_rules_get_async (client, created->id, NULL, on_done, &wait);
  got = embers_recording_rules_get_finish (wait_for (&wait), &error);
  g_assert_null (got);
  g_assert_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_NOT_FOUND);

  g_clear_object (&wait.result);
}

/* Without the service (rules disabled): say so, and which flag enables it */
static void
test_rules_disabled (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersTestServer) server = embers_test_server_start (NULL, &error);
  g_autoptr(EmbersConnectClient) client = NULL;
  g_autoptr(GPtrArray) rules = NULL;
  Wait wait = { NULL };

  g_assert_no_error (error);
  client = client_for (server);
  embers_recording_rules_list_async (client, NULL, on_done, &wait);
  rules = embers_recording_rules_list_finish (wait_for (&wait), &error);
  g_assert_null (rules);
  g_assert_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_UNIMPLEMENTED);
  g_assert_nonnull (strstr (error->message, "recording-rules.enabled"));
  g_clear_object (&wait.result);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/embers/recording-rules/crud", test_rules_crud);
  g_test_add_func ("/embers/recording-rules/disabled", test_rules_disabled);

  return g_test_run ();
}
