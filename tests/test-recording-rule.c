/* test-recording-rule.c: validation as the server validates, suggestions,
 * configuration for servers without the rules API
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "embers-recording-rule.h"

#define CPU "process_cpu:cpu:nanoseconds:cpu:nanoseconds"

static EmbersRecordingRule *
valid_rule (void)
{
  EmbersRecordingRule *rule = embers_recording_rule_new ();

  rule->metric_name = g_strdup ("profiles_recorded_cpu_gc_nanoseconds");
  g_strfreev (rule->matchers);
  rule->matchers = g_strdupv ((char *[]) { (char *)"{__profile_type__=\"" CPU "\", service_name=\"api\"}", NULL });
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
expect (EmbersRecordingRule *rule,
        EmbersRuleField      field,
        const char          *fragment)
{
  char *messages[EMBERS_RULE_N_FIELDS];
  gboolean ok = embers_recording_rule_check (rule, messages);

  for (guint f = 0; f < EMBERS_RULE_N_FIELDS; f++)
    {
      if (f == field && fragment != NULL)
        {
          g_assert_false (ok);
          g_assert_nonnull (messages[f]);
          if (strstr (messages[f], fragment) == NULL)
            g_error ("field %u: “%s” lacks “%s”", f, messages[f], fragment);
        }
      else if (messages[f] != NULL)
        g_error ("unexpected message for field %u: %s", f, messages[f]);
      g_free (messages[f]);
    }
  if (fragment == NULL)
    g_assert_true (ok);
}

static void
test_rule_valid (void)
{
  g_autoptr(EmbersRecordingRule) rule = valid_rule ();
  g_autoptr(EmbersRecordingRule) copy = NULL;
  g_autofree char *type = NULL;

  expect (rule, 0, NULL);
  g_assert_true (embers_recording_rule_check (rule, NULL));
  type = embers_recording_rule_derive_profile_type (rule);
  g_assert_cmpstr (type, ==, CPU);

  copy = embers_recording_rule_copy (rule);
  g_assert_cmpstr (copy->function_name, ==, "runtime.gcBgMarkWorker");
  g_assert_cmpstr (copy->external_label_values[0], ==, "prod");

  /* Bare matchers, one per entry, as profilecli writes them */
  g_strfreev (rule->matchers);
  rule->matchers = g_strdupv ((char *[]) { (char *)"__profile_type__=\"" CPU "\"", (char *)"service_name=~\"api|web\"", NULL });
  expect (rule, 0, NULL);

  /* Ids: letters, or empty */
  g_free (rule->id);
  rule->id = g_strdup ("abcDEF");
  expect (rule, 0, NULL);
}

static void
test_rule_invalid (void)
{
  g_autoptr(EmbersRecordingRule) rule = valid_rule ();

  g_free (rule->id);
  rule->id = g_strdup ("abc1");
  expect (rule, EMBERS_RULE_FIELD_ID, "letters");
  g_clear_pointer (&rule->id, g_free);

  g_free (rule->metric_name);
  rule->metric_name = g_strdup ("   ");
  expect (rule, EMBERS_RULE_FIELD_METRIC_NAME, "required");
  g_free (rule->metric_name);
  rule->metric_name = g_strdup ("cpu_gc");
  expect (rule, EMBERS_RULE_FIELD_METRIC_NAME, "profiles_recorded_");
  g_free (rule->metric_name);
  rule->metric_name = g_strdup ("profiles_recorded_cpu-gc");
  expect (rule, EMBERS_RULE_FIELD_METRIC_NAME, "letters");
  g_free (rule->metric_name);
  /* surrounding white space is trimmed, as the server does */
  rule->metric_name = g_strdup (" profiles_recorded_ok ");
  expect (rule, 0, NULL);

  g_strfreev (rule->matchers);
  rule->matchers = g_strdupv ((char *[]) { (char *)"{service_name=\"api\"}", NULL });
  expect (rule, EMBERS_RULE_FIELD_MATCHERS, "Add a profile type matcher");
  g_strfreev (rule->matchers);
  rule->matchers = g_strdupv ((char *[]) { (char *)"__profile_type__=\"a\"", (char *)"__profile_type__=\"b\"", NULL });
  expect (rule, EMBERS_RULE_FIELD_MATCHERS, "Only one");
  g_strfreev (rule->matchers);
  rule->matchers = g_strdupv ((char *[]) { (char *)"__profile_type__=~\"process_cpu.*\"", NULL });
  expect (rule, EMBERS_RULE_FIELD_MATCHERS, "must use");
  g_strfreev (rule->matchers);
  rule->matchers = g_strdupv ((char *[]) { (char *)"{service_name=api}", NULL });
  expect (rule, EMBERS_RULE_FIELD_MATCHERS, "service_name=api");
  g_strfreev (rule->matchers);
  rule->matchers = g_strdupv ((char *[]) { (char *)"__profile_type__=\"" CPU "\"", NULL });
  expect (rule, 0, NULL);

  g_strfreev (rule->group_by);
  rule->group_by = g_strdupv ((char *[]) { (char *)"region", (char *)"k8s.pod", NULL });
  expect (rule, EMBERS_RULE_FIELD_GROUP_BY, "k8s.pod");
  g_strfreev (rule->group_by);
  rule->group_by = g_new0 (char *, 1);

  g_strfreev (rule->external_label_names);
  rule->external_label_names = g_strdupv ((char *[]) { (char *)"1env", NULL });
  expect (rule, EMBERS_RULE_FIELD_EXTERNAL_LABELS, "1env");
  g_strfreev (rule->external_label_names);
  g_strfreev (rule->external_label_values);
  rule->external_label_names = g_strdupv ((char *[]) { (char *)"env", NULL });
  rule->external_label_values = g_strdupv ((char *[]) { (char *)"\xff\xfe", NULL });
  expect (rule, EMBERS_RULE_FIELD_EXTERNAL_LABELS, "UTF-8");
  g_strfreev (rule->external_label_values);
  rule->external_label_values = g_strdupv ((char *[]) { (char *)"prod", NULL });

  rule->generation = -1;
  expect (rule, EMBERS_RULE_FIELD_GENERATION, "negative");
  rule->generation = 3;
  expect (rule, 0, NULL);
}

static void
test_rule_suggest (void)
{
  g_autofree char *a = embers_recording_rule_suggest_metric_name (NULL, CPU, "runtime.GC");
  g_autofree char *b = embers_recording_rule_suggest_metric_name ("checkout-api", "memory:alloc_space:bytes:space:bytes",
                                                                   "github.com/acme/shop/cart.(*Cart).Add");
  g_autofree char *c = embers_recording_rule_suggest_metric_name (NULL, NULL, NULL);

  g_assert_cmpstr (a, ==, "profiles_recorded_cpu_runtime_gc_nanoseconds");
  g_assert_cmpstr (b, ==, "profiles_recorded_checkout_api_alloc_space_cart_cart_add_bytes");
  g_assert_cmpstr (c, ==, "profiles_recorded");
  /* Suggestions are valid metric names */
  {
    g_autoptr(EmbersRecordingRule) rule = valid_rule ();

    g_free (rule->metric_name);
    rule->metric_name = g_strdup (b);
    expect (rule, 0, NULL);
  }
}

static void
test_rule_config (void)
{
  g_autoptr(EmbersRecordingRule) rule = valid_rule ();
  g_autofree char *yaml = embers_recording_rule_to_tenant_override (rule);
  g_autofree char *og = embers_recording_rule_to_og_config (rule);
  g_autofree char *og_total = NULL;

  g_assert_cmpstr (yaml, ==,
                   "recording_rules:\n"
                   "  - metric_name: \"profiles_recorded_cpu_gc_nanoseconds\"\n"
                   "    matchers:\n"
                   "      - \"{__profile_type__=\\\"" CPU "\\\", service_name=\\\"api\\\"}\"\n"
                   "    group_by:\n"
                   "      - \"region\"\n"
                   "    external_labels:\n"
                   "      - name: \"env\"\n"
                   "        value: \"prod\"\n"
                   "    function_name: \"runtime.gcBgMarkWorker\"\n");

  g_assert_cmpstr (og, ==,
                   "metrics-export-rules:\n"
                   "  profiles_recorded_cpu_gc_nanoseconds:\n"
                   "    expr: \"api.cpu{}\"\n"
                   "    node: \"^runtime\\\\.gcBgMarkWorker$\"\n"
                   "    group_by:\n"
                   "      - \"region\"\n");

  g_clear_pointer (&rule->function_name, g_free);
  g_strfreev (rule->matchers);
  rule->matchers = g_strdupv ((char *[]) { (char *)"{__profile_type__=\"" CPU "\",service_name=\"api\",env=\"prod\"}", NULL });
  og_total = embers_recording_rule_to_og_config (rule);
  g_assert_nonnull (strstr (og_total, "expr: \"api.cpu{env=\\\"prod\\\"}\""));
  g_assert_nonnull (strstr (og_total, "node: \"total\""));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/embers/recording-rule/valid", test_rule_valid);
  g_test_add_func ("/embers/recording-rule/invalid", test_rule_invalid);
  g_test_add_func ("/embers/recording-rule/suggest", test_rule_suggest);
  g_test_add_func ("/embers/recording-rule/config", test_rule_config);

  return g_test_run ();
}
