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

  /* Several matcher strings, each a Prometheus metric selector, as the
   * server parses them (ParseMetricSelector) */
  g_strfreev (rule->matchers);
  rule->matchers = g_strdupv ((char *[]) { (char *)"{__profile_type__=\"" CPU "\"}",
                                           (char *)"{service_name=~\"api|web\"}",
                                           (char *)"process_cpu{\"service.name\"=\"x\"}", NULL });
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
  rule->matchers = g_strdupv ((char *[]) { (char *)"{__profile_type__=\"a\"}", (char *)"{__profile_type__=\"b\"}", NULL });
  expect (rule, EMBERS_RULE_FIELD_MATCHERS, "Only one");
  g_strfreev (rule->matchers);
  rule->matchers = g_strdupv ((char *[]) { (char *)"{__profile_type__=~\"process_cpu.*\"}", NULL });
  expect (rule, EMBERS_RULE_FIELD_MATCHERS, "must use");
  g_strfreev (rule->matchers);
  rule->matchers = g_strdupv ((char *[]) { (char *)"{service_name=api}", NULL });
  expect (rule, EMBERS_RULE_FIELD_MATCHERS, "service_name=api");
  /* A bare matcher is not a metric selector: the server cannot parse it */
  g_strfreev (rule->matchers);
  rule->matchers = g_strdupv ((char *[]) { (char *)"__profile_type__=\"" CPU "\"", NULL });
  expect (rule, EMBERS_RULE_FIELD_MATCHERS, "__profile_type__=");
  /* Nor is an empty entry */
  g_strfreev (rule->matchers);
  rule->matchers = g_strdupv ((char *[]) { (char *)"{__profile_type__=\"" CPU "\"}", (char *)" ", NULL });
  expect (rule, EMBERS_RULE_FIELD_MATCHERS, "Matcher 2 is empty");
  g_strfreev (rule->matchers);
  rule->matchers = g_strdupv ((char *[]) { (char *)"{__profile_type__=\"" CPU "\"}", NULL });
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
  g_autofree char *d = embers_recording_rule_suggest_metric_name (NULL, CPU, NULL);
  g_autofree char *e = embers_recording_rule_suggest_metric_name ("", "goroutines:goroutine:count:goroutine:count", "");

  g_assert_cmpstr (a, ==, "profiles_recorded_cpu_runtime_gc_nanoseconds");
  g_assert_cmpstr (b, ==, "profiles_recorded_checkout_api_alloc_space_cart_cart_add_bytes");
  /* Nothing known: the prefix, valid as it is, to complete */
  g_assert_cmpstr (c, ==, "profiles_recorded_");
  /* New Rule… with only a profile type */
  g_assert_cmpstr (d, ==, "profiles_recorded_cpu_nanoseconds");
  g_assert_cmpstr (e, ==, "profiles_recorded_goroutine_count");
  /* Suggestions are valid metric names */
  {
    const char *all[] = { a, b, c, d, e };
    g_autoptr(EmbersRecordingRule) rule = valid_rule ();

    for (guint i = 0; i < G_N_ELEMENTS (all); i++)
      {
        g_free (rule->metric_name);
        rule->metric_name = g_strdup (all[i]);
        expect (rule, 0, NULL);
      }
  }
}

/* The override as Pyroscope reads it: overrides.<tenant>.recording_rules,
 * each rule in settings.v1.RecordingRule's field names */
static void
test_rule_tenant_override (void)
{
  g_autoptr(EmbersRecordingRule) rule = valid_rule ();
  g_autofree char *yaml = embers_recording_rule_to_tenant_override (rule, NULL);
  g_autofree char *tenant = NULL;
  g_autofree char *root = NULL;

  g_assert_cmpstr (yaml, ==,
                   "overrides:\n"
                   "  \"anonymous\":\n"
                   "    recording_rules:\n"
                   "      - metric_name: \"profiles_recorded_cpu_gc_nanoseconds\"\n"
                   "        matchers:\n"
                   "          - \"{__profile_type__=\\\"" CPU "\\\", service_name=\\\"api\\\"}\"\n"
                   "        group_by:\n"
                   "          - \"region\"\n"
                   "        external_labels:\n"
                   "          - name: \"env\"\n"
                   "            value: \"prod\"\n"
                   "        stacktrace_filter:\n"
                   "          function_name:\n"
                   "            function_name: \"runtime.gcBgMarkWorker\"\n");

  /* The connection's tenant; an id when the rule has one; quotes escaped;
   * several matchers and labels; the trimmed metric name */
  g_free (rule->id);
  rule->id = g_strdup ("abcDEF");
  g_free (rule->metric_name);
  rule->metric_name = g_strdup (" profiles_recorded_x ");
  g_strfreev (rule->matchers);
  rule->matchers = g_strdupv ((char *[]) { (char *)"{__profile_type__=\"" CPU "\"}", (char *)"{a=\"b\\\\c\"}", NULL });
  g_strfreev (rule->external_label_names);
  g_strfreev (rule->external_label_values);
  rule->external_label_names = g_strdupv ((char *[]) { (char *)"team", (char *)"note", NULL });
  rule->external_label_values = g_strdupv ((char *[]) { (char *)"a,b", (char *)"say \"hi\"", NULL });
  tenant = embers_recording_rule_to_tenant_override (rule, "team-a");
  g_assert_cmpstr (tenant, ==,
                   "overrides:\n"
                   "  \"team-a\":\n"
                   "    recording_rules:\n"
                   "      - metric_name: \"profiles_recorded_x\"\n"
                   "        id: \"abcDEF\"\n"
                   "        matchers:\n"
                   "          - \"{__profile_type__=\\\"" CPU "\\\"}\"\n"
                   "          - \"{a=\\\"b\\\\\\\\c\\\"}\"\n"
                   "        group_by:\n"
                   "          - \"region\"\n"
                   "        external_labels:\n"
                   "          - name: \"team\"\n"
                   "            value: \"a,b\"\n"
                   "          - name: \"note\"\n"
                   "            value: \"say \\\"hi\\\"\"\n"
                   "        stacktrace_filter:\n"
                   "          function_name:\n"
                   "            function_name: \"runtime.gcBgMarkWorker\"\n");

  /* The root: no function filter at all */
  g_clear_pointer (&rule->function_name, g_free);
  root = embers_recording_rule_to_tenant_override (rule, "");
  g_assert_true (g_str_has_prefix (root, "overrides:\n  \"anonymous\":\n"));
  g_assert_null (strstr (root, "stacktrace_filter"));
  g_assert_null (strstr (root, "function_name"));
}

static void
test_rule_og_config (void)
{
  static const struct {
    const char *type;
    const char *og;
  } types[] = {
    { CPU, "cpu" },
    { "process_cpu:samples:count:cpu:nanoseconds", "cpu" },
    { "memory:alloc_objects:count:space:bytes", "alloc_objects" },
    { "memory:alloc_space:bytes:space:bytes", "alloc_space" },
    { "memory:inuse_objects:count:space:bytes", "inuse_objects" },
    { "memory:inuse_space:bytes:space:bytes", "inuse_space" },
    { "goroutines:goroutine:count:goroutine:count", "goroutines" },
    { "mutex:contentions:count:mutex:count", "mutex_count" },
    { "mutex:delay:nanoseconds:mutex:count", "mutex_duration" },
    { "block:contentions:count:block:count", "block_count" },
    { "block:delay:nanoseconds:block:count", "block_duration" },
  };
  g_autoptr(EmbersRecordingRule) rule = valid_rule ();
  g_autofree char *warning = NULL;
  g_autofree char *og = embers_recording_rule_to_og_config (rule, &warning);

  g_assert_cmpstr (og, ==,
                   "metrics-export-rules:\n"
                   "  profiles_recorded_cpu_gc_nanoseconds:\n"
                   "    expr: \"api.cpu{}\"\n"
                   "    node: \"^runtime\\\\.gcBgMarkWorker$\"\n"
                   "    group_by:\n"
                   "      - \"region\"\n");
  g_assert_null (warning);

  /* Each type by the original's name */
  for (guint i = 0; i < G_N_ELEMENTS (types); i++)
    {
      g_autofree char *text = NULL;
      g_autofree char *want = g_strdup_printf ("expr: \"api.%s{}\"", types[i].og);
      g_autofree char *w = NULL;

      g_strfreev (rule->matchers);
      rule->matchers = g_strdupv ((char *[]) { (char *)"{service_name=\"api\"}", NULL });
      rule->matchers = g_realloc_n (rule->matchers, 3, sizeof (char *));
      rule->matchers[1] = g_strdup_printf ("{__profile_type__=\"%s\"}", types[i].type);
      rule->matchers[2] = NULL;
      text = embers_recording_rule_to_og_config (rule, &w);
      if (strstr (text, want) == NULL)
        g_error ("%s: “%s” lacks “%s”", types[i].type, text, want);
      g_assert_null (w);
    }

  /* The other matchers stay as tags; the root records the total */
  {
    g_autofree char *text = NULL;
    g_autofree char *w = NULL;

    g_clear_pointer (&rule->function_name, g_free);
    g_strfreev (rule->matchers);
    rule->matchers = g_strdupv ((char *[]) { (char *)"{__profile_type__=\"" CPU "\",service_name=\"api\",env=\"prod\"}", NULL });
    text = embers_recording_rule_to_og_config (rule, &w);
    g_assert_nonnull (strstr (text, "expr: \"api.cpu{env=\\\"prod\\\"}\""));
    g_assert_nonnull (strstr (text, "node: \"total\""));
    g_assert_null (w);
  }

  /* No service: a visible placeholder and a warning, never a silent "app" */
  {
    g_autofree char *text = NULL;
    g_autofree char *w = NULL;

    g_strfreev (rule->matchers);
    rule->matchers = g_strdupv ((char *[]) { (char *)"{__profile_type__=\"" CPU "\",env=\"prod\"}", NULL });
    text = embers_recording_rule_to_og_config (rule, &w);
    g_assert_nonnull (strstr (text, "expr: \"" EMBERS_RECORDING_RULE_OG_APP_PLACEHOLDER ".cpu{env=\\\"prod\\\"}\""));
    g_assert_null (strstr (text, "\"app."));
    g_assert_nonnull (w);
    g_assert_nonnull (strstr (w, "service_name"));
    g_assert_nonnull (strstr (w, EMBERS_RECORDING_RULE_OG_APP_PLACEHOLDER));
  }

  /* A regex service: the same, and the regex stays as a tag */
  {
    g_autofree char *text = NULL;
    g_autofree char *w = NULL;

    g_strfreev (rule->matchers);
    rule->matchers = g_strdupv ((char *[]) { (char *)"{__profile_type__=\"" CPU "\",service_name=~\"api|web\"}", NULL });
    text = embers_recording_rule_to_og_config (rule, &w);
    g_assert_nonnull (strstr (text, EMBERS_RECORDING_RULE_OG_APP_PLACEHOLDER ".cpu{service_name=~\\\"api|web\\\"}"));
    g_assert_nonnull (w);
    g_assert_nonnull (strstr (w, "one rule per application"));
  }

  /* A type the original did not have: its sample type, with a warning */
  {
    g_autofree char *text = NULL;
    g_autofree char *w = NULL;

    g_strfreev (rule->matchers);
    rule->matchers = g_strdupv ((char *[]) { (char *)"{__profile_type__=\"wall:wall:nanoseconds:wall:nanoseconds\",service_name=\"api\"}", NULL });
    text = embers_recording_rule_to_og_config (rule, &w);
    g_assert_nonnull (strstr (text, "expr: \"api.wall{}\""));
    g_assert_nonnull (w);
    g_assert_nonnull (strstr (w, "wall:wall:nanoseconds:wall:nanoseconds"));
  }
}

/* The server's invalid_argument problems, next to their fields */
static void
test_rule_server_problems (void)
{
  char *messages[EMBERS_RULE_N_FIELDS];
  g_autofree char *rest = embers_recording_rule_place_server_problems (
    "the server rejected the rule: invalid request: id \"a1\" must match ^[a-zA-Z]+$\n"
    "metric_name \"x\" is invalid: metric name must start with profiles_recorded_\n"
    "matcher \"a=\\\"b\\\"\" is invalid: 1:2: parse error: unexpected character\n"
    "matchers must contain a \"__profile_type__\" matcher\n"
    "group_by label \"a.b\" must match ^[a-zA-Z_][a-zA-Z0-9_]*$\n"
    "external_labels name \"1x\" must match ^[a-zA-Z_][a-zA-Z0-9_]*$\n"
    "generation must be positive\n"
    "something new\n", messages);

  g_assert_cmpstr (messages[EMBERS_RULE_FIELD_ID], ==, "id \"a1\" must match ^[a-zA-Z]+$");
  g_assert_cmpstr (messages[EMBERS_RULE_FIELD_METRIC_NAME], ==,
                   "metric_name \"x\" is invalid: metric name must start with profiles_recorded_");
  g_assert_cmpstr (messages[EMBERS_RULE_FIELD_MATCHERS], ==,
                   "matcher \"a=\\\"b\\\"\" is invalid: 1:2: parse error: unexpected character\n"
                   "matchers must contain a \"__profile_type__\" matcher");
  g_assert_cmpstr (messages[EMBERS_RULE_FIELD_GROUP_BY], ==, "group_by label \"a.b\" must match ^[a-zA-Z_][a-zA-Z0-9_]*$");
  g_assert_cmpstr (messages[EMBERS_RULE_FIELD_EXTERNAL_LABELS], ==,
                   "external_labels name \"1x\" must match ^[a-zA-Z_][a-zA-Z0-9_]*$");
  g_assert_cmpstr (messages[EMBERS_RULE_FIELD_GENERATION], ==, "generation must be positive");
  g_assert_null (messages[EMBERS_RULE_FIELD_FUNCTION]);
  g_assert_cmpstr (rest, ==, "something new");
  for (guint f = 0; f < EMBERS_RULE_N_FIELDS; f++)
    g_free (messages[f]);

  g_clear_pointer (&rest, g_free);
  rest = embers_recording_rule_place_server_problems ("rule limit reached", messages);
  g_assert_cmpstr (rest, ==, "rule limit reached");
  for (guint f = 0; f < EMBERS_RULE_N_FIELDS; f++)
    g_assert_null (messages[f]);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/embers/recording-rule/valid", test_rule_valid);
  g_test_add_func ("/embers/recording-rule/invalid", test_rule_invalid);
  g_test_add_func ("/embers/recording-rule/suggest", test_rule_suggest);
  g_test_add_func ("/embers/recording-rule/tenant-override", test_rule_tenant_override);
  g_test_add_func ("/embers/recording-rule/og-config", test_rule_og_config);
  g_test_add_func ("/embers/recording-rule/server-problems", test_rule_server_problems);

  return g_test_run ();
}
