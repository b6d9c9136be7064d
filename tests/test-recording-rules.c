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
#include "embers-test-wait.h"

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
  embers_test_wait_while (wait->result == NULL);
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

/* Rule calls have their own wording: the rule was rejected (with the
 * server's problems last, by field), the rule limit was reached */
static void
test_rules_errors (void)
{
  const char *args[] = { "--recording-rules", "--max-rules", "1", NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersTestServer) server = embers_test_server_start (args, &error);
  g_autoptr(EmbersConnectClient) client = NULL;
  g_autoptr(EmbersRecordingRule) rule = gc_rule ();
  g_autoptr(EmbersRecordingRule) first = NULL;
  g_autoptr(EmbersRecordingRule) second = NULL;
  g_autoptr(EmbersRecordingRule) bad = gc_rule ();
  g_autoptr(EmbersRecordingRule) none = NULL;
  g_autofree char *rest = NULL;
  char *messages[EMBERS_RULE_N_FIELDS];
  Wait wait = { NULL };

  g_assert_no_error (error);
  client = client_for (server);

  embers_recording_rules_upsert_async (client, rule, NULL, on_done, &wait);
  first = embers_recording_rules_upsert_finish (wait_for (&wait), &error);
  g_assert_no_error (error);

  /* A second new rule is one too many */
  embers_recording_rules_upsert_async (client, rule, NULL, on_done, &wait);
  second = embers_recording_rules_upsert_finish (wait_for (&wait), &error);
  g_assert_null (second);
  g_assert_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_RESOURCE_EXHAUSTED);
  g_assert_nonnull (strstr (error->message, "rule limit reached"));
  g_assert_null (strstr (error->message, "time range"));
  g_assert_nonnull (strstr (error->message, "maximum number of recording rules"));
  g_clear_error (&error);

  /* Rejected: the rule, not "the query"; each problem by its field */
  g_free (bad->metric_name);
  bad->metric_name = g_strdup ("cpu_gc");
  g_strfreev (bad->group_by);
  bad->group_by = g_strdupv ((char *[]) { (char *)"k8s.pod", NULL });
  embers_recording_rules_upsert_async (client, bad, NULL, on_done, &wait);
  none = embers_recording_rules_upsert_finish (wait_for (&wait), &error);
  g_assert_null (none);
  g_assert_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_INVALID_ARGUMENT);
  g_assert_true (g_str_has_prefix (error->message, "the server rejected the rule: invalid request: "));
  g_assert_null (strstr (error->message, "query"));
  rest = embers_recording_rule_place_server_problems (error->message, messages);
  g_assert_null (rest);
  g_assert_nonnull (strstr (messages[EMBERS_RULE_FIELD_METRIC_NAME], "profiles_recorded_"));
  g_assert_nonnull (strstr (messages[EMBERS_RULE_FIELD_GROUP_BY], "k8s.pod"));
  for (guint f = 0; f < EMBERS_RULE_N_FIELDS; f++)
    {
      if (f != EMBERS_RULE_FIELD_METRIC_NAME && f != EMBERS_RULE_FIELD_GROUP_BY)
        g_assert_null (messages[f]);
      g_free (messages[f]);
    }
  g_clear_object (&wait.result);
}

/* Core validation and the (test) server agree on every matcher list, both
 * ways: what core accepts the server stores, what core refuses the server
 * refuses. Each case is a rule's whole list of matcher strings. */
static void
test_rules_matchers_agree (void)
{
  static const struct {
    const char *matchers[4];
    gboolean    valid;
  } cases[] = {
    { { "{__profile_type__=\"" CPU "\", service_name=\"x\"}" }, TRUE },
    { { "{__profile_type__=\"" CPU "\"}", "{service_name=\"x\"}" }, TRUE },
    { { "metric{__profile_type__=\"" CPU "\"}" }, TRUE },
    { { "a:b_c {__profile_type__=\"" CPU "\"}" }, TRUE },
    { { "{__profile_type__=\"" CPU "\"}", "service_name" }, TRUE },
    { { "{__profile_type__=\"" CPU "\"}", "{}" }, TRUE },
    { { "{\"__profile_type__\"=\"" CPU "\", \"service.name\"=\"x\"}" }, TRUE },
    { { "{__profile_type__='" CPU "'}" }, TRUE },
    { { "{__profile_type__=`" CPU "`, re=~`\\d+`}" }, TRUE },
    { { " {__profile_type__=\"" CPU "\",}\n" }, TRUE },
    { { "{__profile_type__=\"" CPU "\", a=\"\\u00e9\\x41\\101\\t\"}" }, TRUE },
    { { "{__profile_type__=\"" CPU "\", region=~\"eu-.*\", pod!~\"canary-.*\", zone!=\"\"}" }, TRUE },
    { { "__profile_type__=\"" CPU "\"" }, FALSE },
    { { "{__profile_type__=\"" CPU "\"}", "service_name=\"x\"" }, FALSE },
    { { "{__profile_type__=\"" CPU "\"}", "" }, FALSE },
    { { "{__profile_type__=\"" CPU "\"}", "   " }, FALSE },
    { { "{__profile_type__=\"" CPU "\", a=b}" }, FALSE },
    { { "{__profile_type__=\"" CPU "\", a=\"b\" c=\"d\"}" }, FALSE },
    { { "{__profile_type__=\"" CPU "\"" }, FALSE },
    { { "{__profile_type__=\"" CPU "\", a=\"x}" }, FALSE },
    { { "{__profile_type__=\"" CPU "\", a=\"x\ny\"}" }, FALSE },
    { { "{__profile_type__=\"" CPU "\", a=~\"(\"}" }, FALSE },
    { { "{__profile_type__=\"" CPU "\", a=\"\\d\"}" }, FALSE },
    { { "{__profile_type__=\"" CPU "\", a=\"\\xff\"}" }, FALSE },
    { { "{__profile_type__=\"" CPU "\"} extra" }, FALSE },
    { { "{__profile_type__=\"" CPU "\", 1a=\"b\"}" }, FALSE },
    { { "{__profile_type__=\"" CPU "\"}", "{,}" }, FALSE },
    { { "9lives{__profile_type__=\"" CPU "\"}" }, FALSE },
    { { "{__profile_type__=~\"process_cpu.*\"}" }, FALSE },
    { { "{service_name=\"x\"}" }, FALSE },
    { { "{__profile_type__=\"" CPU "\"}", "{__profile_type__=\"" CPU "\"}" }, FALSE },
    { { "{__profile_type__=\"" CPU "\", __profile_type__!=\"x\"}" }, FALSE },
    { { NULL }, FALSE },
  };
  const char *args[] = { "--recording-rules", "--max-rules", "0", NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersTestServer) server = embers_test_server_start (args, &error);
  g_autoptr(EmbersConnectClient) client = NULL;
  Wait wait = { NULL };

  g_assert_no_error (error);
  client = client_for (server);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(EmbersRecordingRule) rule = gc_rule ();
      g_autoptr(EmbersRecordingRule) stored = NULL;
      g_autoptr(GError) server_error = NULL;
      g_autofree char *joined = NULL;
      char *messages[EMBERS_RULE_N_FIELDS];
      gboolean core_ok;

      g_strfreev (rule->matchers);
      rule->matchers = g_strdupv ((char **) cases[i].matchers);
      joined = g_strjoinv (" | ", rule->matchers);

      core_ok = embers_recording_rule_check (rule, messages);
      /* Only the matchers are in question */
      for (guint f = 0; f < EMBERS_RULE_N_FIELDS; f++)
        {
          if (f != EMBERS_RULE_FIELD_MATCHERS && messages[f] != NULL)
            g_error ("%s: unexpected problem with field %u: %s", joined, f, messages[f]);
          g_free (messages[f]);
        }

      embers_recording_rules_upsert_async (client, rule, NULL, on_done, &wait);
      stored = embers_recording_rules_upsert_finish (wait_for (&wait), &server_error);

      if (core_ok != cases[i].valid)
        g_error ("%s: core says %s, expected %s", joined, core_ok ? "valid" : "invalid",
                 cases[i].valid ? "valid" : "invalid");
      if ((stored != NULL) != cases[i].valid)
        g_error ("%s: the server %s it (%s)", joined, stored != NULL ? "stored" : "refused",
                 server_error ? server_error->message : "");
      if (stored == NULL)
        {
          /* Refused for its matchers, not for anything else */
          g_assert_error (server_error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_INVALID_ARGUMENT);
          g_assert_nonnull (strstr (server_error->message, "matcher"));
        }
      else
        {
          g_autofree char *type = embers_recording_rule_derive_profile_type (rule);

          /* Both read the same profile type from the matchers */
          g_assert_cmpstr (stored->profile_type, ==, type);
          embers_recording_rules_delete_async (client, stored->id, NULL, on_done, &wait);
          g_assert_true (embers_recording_rules_delete_finish (wait_for (&wait), &error));
          g_assert_no_error (error);
        }
    }
  g_clear_object (&wait.result);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/embers/recording-rules/crud", test_rules_crud);
  g_test_add_func ("/embers/recording-rules/disabled", test_rules_disabled);
  g_test_add_func ("/embers/recording-rules/errors", test_rules_errors);
  g_test_add_func ("/embers/recording-rules/matchers-agree", test_rules_matchers_agree);

  return g_test_run ();
}
