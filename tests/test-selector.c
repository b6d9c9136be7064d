/* test-selector.c: label selectors and name rules
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "embers-selector.h"

static const char *
lookup_table (const char *name,
              gpointer    user_data)
{
  return g_hash_table_lookup (user_data, name);
}

static void
test_selector_parse_ok (void)
{
  static const struct {
    const char *text;
    const char *canonical;
    const char *metric;
  } cases[] = {
    { "", "{}", NULL },
    { "{}", "{}", NULL },
    { "  { }  ", "{}", NULL },
    { "{service_name=\"api\"}", "{service_name=\"api\"}", NULL },
    { "{a=\"b\", c!=\"d\",e=~\"f.*\" , g!~'h'}", "{a=\"b\",c!=\"d\",e=~\"f.*\",g!~\"h\"}", NULL },
    { "{a=\"b\",}", "{a=\"b\"}", NULL },
    { "{path=\"say \\\"hi\\\"\\n\"}", "{path=\"say \\\"hi\\\"\\n\"}", NULL },
    { "{re=~`\\d+`}", "{re=~\"\\\\d+\"}", NULL },
    { "process_cpu:cpu:nanoseconds:cpu:nanoseconds{service_name=\"api\"}",
      "{service_name=\"api\"}", "process_cpu:cpu:nanoseconds:cpu:nanoseconds" },
    { "memory:alloc_in_new_tlab_bytes:bytes::", "{}", "memory:alloc_in_new_tlab_bytes:bytes::" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *metric = NULL;
      g_autoptr(EmbersSelector) sel = embers_selector_parse (cases[i].text, &metric, &error);
      g_autofree char *s = NULL;

      g_assert_no_error (error);
      s = embers_selector_to_string (sel);
      g_assert_cmpstr (s, ==, cases[i].canonical);
      g_assert_cmpstr (metric, ==, cases[i].metric);

      /* The canonical form parses back to itself */
      {
        g_autoptr(EmbersSelector) again = embers_selector_parse (s, NULL, &error);
        g_autofree char *s2 = NULL;

        g_assert_no_error (error);
        s2 = embers_selector_to_string (again);
        g_assert_cmpstr (s2, ==, s);
      }
    }
}

static void
test_selector_parse_errors (void)
{
  static const struct {
    const char *text;
    int         code;
    const char *fragment;
  } cases[] = {
    { "{a=\"b\"", EMBERS_SELECTOR_ERROR_SYNTAX, "not closed" },
    { "{a=b}", EMBERS_SELECTOR_ERROR_SYNTAX, "quoted value" },
    { "{a==\"b\"}", EMBERS_SELECTOR_ERROR_SYNTAX, "quoted value" },
    { "{a \"b\"}", EMBERS_SELECTOR_ERROR_SYNTAX, "“=”" },
    { "{1a=\"b\"}", EMBERS_SELECTOR_ERROR_SYNTAX, "label name" },
    { "{a=\"b\" c=\"d\"}", EMBERS_SELECTOR_ERROR_SYNTAX, "“,”" },
    { "{a=\"b\"} trailing", EMBERS_SELECTOR_ERROR_SYNTAX, "after" },
    { "{a=~\"(\"}", EMBERS_SELECTOR_ERROR_REGEX, "regular expression" },
    { "{a=\"unterminated}", EMBERS_SELECTOR_ERROR_SYNTAX, "not closed" },
    { "{a=\"\\", EMBERS_SELECTOR_ERROR_SYNTAX, "not closed" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *metric = NULL;
      g_autoptr(EmbersSelector) sel = embers_selector_parse (cases[i].text, &metric, &error);

      g_assert_null (sel);
      g_assert_null (metric);
      g_assert_error (error, EMBERS_SELECTOR_ERROR, cases[i].code);
      if (strstr (error->message, cases[i].fragment) == NULL)
        g_error ("“%s”: message “%s” lacks “%s”", cases[i].text, error->message, cases[i].fragment);
    }

  /* Without a place for a metric name, a bare name is an error */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(EmbersSelector) sel = embers_selector_parse ("cpu{}", NULL, &error);

    g_assert_null (sel);
    g_assert_error (error, EMBERS_SELECTOR_ERROR, EMBERS_SELECTOR_ERROR_SYNTAX);
  }
}

static void
test_selector_matches (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GHashTable) labels = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(EmbersSelector) sel = NULL;

  g_hash_table_insert (labels, (char *)"service_name", (char *)"api");
  g_hash_table_insert (labels, (char *)"region", (char *)"eu-west-1");

  sel = embers_selector_parse ("{service_name=\"api\",region=~\"eu-.*\"}", NULL, &error);
  g_assert_no_error (error);
  g_assert_true (embers_selector_matches (sel, lookup_table, labels));
  g_clear_pointer (&sel, embers_selector_unref);

  /* Regexes are fully anchored */
  sel = embers_selector_parse ("{region=~\"eu\"}", NULL, &error);
  g_assert_false (embers_selector_matches (sel, lookup_table, labels));
  g_clear_pointer (&sel, embers_selector_unref);

  sel = embers_selector_parse ("{region!~\"us-.*\",service_name!=\"web\"}", NULL, &error);
  g_assert_true (embers_selector_matches (sel, lookup_table, labels));
  g_clear_pointer (&sel, embers_selector_unref);

  /* An absent label is the empty string */
  sel = embers_selector_parse ("{pod=\"\"}", NULL, &error);
  g_assert_true (embers_selector_matches (sel, lookup_table, labels));
  g_clear_pointer (&sel, embers_selector_unref);
  sel = embers_selector_parse ("{pod!=\"x\"}", NULL, &error);
  g_assert_true (embers_selector_matches (sel, lookup_table, labels));
  g_clear_pointer (&sel, embers_selector_unref);
  sel = embers_selector_parse ("{pod=\"x\"}", NULL, &error);
  g_assert_false (embers_selector_matches (sel, lookup_table, labels));
  g_clear_pointer (&sel, embers_selector_unref);

  /* Empty selector matches everything */
  sel = embers_selector_new ();
  g_assert_true (embers_selector_matches (sel, lookup_table, labels));
}

static void
test_selector_edit (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersSelector) sel = embers_selector_new ();
  g_autoptr(EmbersSelector) copy = NULL;
  g_autofree char *s = NULL;
  g_autofree char *s2 = NULL;
  const char *matchers[] = { "__profile_type__=\"process_cpu:cpu:nanoseconds:cpu:nanoseconds\"", "{env=~\"prod|staging\"}", NULL };

  g_assert_true (embers_selector_add (sel, "region", EMBERS_MATCH_EQUAL, "eu", &error));
  g_assert_true (embers_selector_add (sel, "pod", EMBERS_MATCH_NOT_REGEX, "canary-.*", &error));
  g_assert_true (embers_selector_add (sel, "region", EMBERS_MATCH_NOT_EQUAL, "us", &error));
  g_assert_false (embers_selector_add (sel, "bad-name", EMBERS_MATCH_EQUAL, "x", &error));
  g_assert_error (error, EMBERS_SELECTOR_ERROR, EMBERS_SELECTOR_ERROR_NAME);
  g_clear_error (&error);
  g_assert_false (embers_selector_add (sel, "ok", EMBERS_MATCH_EQUAL, "\xff", &error));
  g_assert_error (error, EMBERS_SELECTOR_ERROR, EMBERS_SELECTOR_ERROR_SYNTAX);
  g_clear_error (&error);

  copy = embers_selector_copy (sel);
  g_assert_cmpuint (embers_selector_remove (sel, "region"), ==, 2);
  s = embers_selector_to_string (sel);
  g_assert_cmpstr (s, ==, "{pod!~\"canary-.*\"}");
  g_assert_cmpuint (embers_selector_get_n_matchers (copy), ==, 3);
  g_assert_cmpstr (embers_selector_get_matcher (copy, 0)->value, ==, "eu");

  g_clear_pointer (&sel, embers_selector_unref);
  sel = embers_selector_parse_matchers (matchers, &error);
  g_assert_no_error (error);
  s2 = embers_selector_to_string (sel);
  g_assert_cmpstr (s2, ==, "{__profile_type__=\"process_cpu:cpu:nanoseconds:cpu:nanoseconds\",env=~\"prod|staging\"}");

  {
    const char *bad[] = { "env=", NULL };
    g_autoptr(EmbersSelector) none = embers_selector_parse_matchers (bad, &error);

    g_assert_null (none);
    g_assert_error (error, EMBERS_SELECTOR_ERROR, EMBERS_SELECTOR_ERROR_SYNTAX);
    g_clear_error (&error);
  }

  /* A metric name alone is a __name__ matcher; quoted names stay quoted */
  {
    const char *list[] = { "cpu", "{\"service.name\"=\"api\"}", "mem{a=\"b\"}", NULL };
    g_autoptr(EmbersSelector) all = embers_selector_parse_matchers (list, &error);
    g_autofree char *text = NULL;

    g_assert_no_error (error);
    text = embers_selector_to_string (all);
    g_assert_cmpstr (text, ==, "{__name__=\"cpu\",\"service.name\"=\"api\",__name__=\"mem\",a=\"b\"}");
  }

  /* An empty or blank entry is an error */
  {
    const char *blank[] = { "{a=\"b\"}", "  ", NULL };
    g_autoptr(EmbersSelector) none = embers_selector_parse_matchers (blank, &error);

    g_assert_null (none);
    g_assert_error (error, EMBERS_SELECTOR_ERROR, EMBERS_SELECTOR_ERROR_SYNTAX);
    g_clear_error (&error);
  }
}

/* Prometheus' ParseMetricSelector, as Pyroscope parses a rule's matchers */
static void
test_selector_metric_selector (void)
{
  static const struct {
    const char *text;
    const char *canonical;   /* NULL: an error */
    const char *fragment;    /* in the error */
  } cases[] = {
    { "{__profile_type__=\"cpu\", service_name=\"x\"}", "{__profile_type__=\"cpu\",service_name=\"x\"}", NULL },
    { "metric{a=\"b\"}", "{__name__=\"metric\",a=\"b\"}", NULL },
    { "a:b_c {a=\"b\"}", "{__name__=\"a:b_c\",a=\"b\"}", NULL },
    { "metric", "{__name__=\"metric\"}", NULL },
    { "{}", "{}", NULL },
    { " \t{a='b',}\n", "{a=\"b\"}", NULL },
    { "{a=`\\d+`}", "{a=\"\\\\d+\"}", NULL },
    { "{\"service.name\"=\"x\"}", "{\"service.name\"=\"x\"}", NULL },
    { "{'k8s.pod'!~\"a.*\"}", "{\"k8s.pod\"!~\"a.*\"}", NULL },
    { "{a=\"\\u00e9\\x41\\101\\t\"}", "{a=\"éAA\\t\"}", NULL },
    { "{a=\"say \\\"hi\\\"\"}", "{a=\"say \\\"hi\\\"\"}", NULL },
    { "a=\"b\"", NULL, "position 2" },
    { "", NULL, "empty" },
    { "   ", NULL, "empty" },
    { "{a=b}", NULL, "quoted value" },
    { "{a=\"b\" c=\"d\"}", NULL, "“,”" },
    { "{a=\"b\"", NULL, "not closed" },
    { "{a=\"b}", NULL, "not closed" },
    { "{a=\"b\nc\"}", NULL, "not closed" },
    { "{a=\"\\d\"}", NULL, "Unknown escape" },
    { "{a=\"\\'\"}", NULL, "Unknown escape" },
    { "{a=\"\\xff\"}", NULL, "UTF-8" },
    { "{a=\"\\x4\"}", NULL, "hexadecimal" },
    { "{a=\"\\400\"}", NULL, "octal" },
    { "{a=~\"(\"}", NULL, "regular expression" },
    { "{1a=\"b\"}", NULL, "label name" },
    { "{,}", NULL, "label name" },
    { "{a=\"b\"} x", NULL, "after the selector" },
    { "9lives{}", NULL, "metric name" },
    { "metric-name", NULL, "after the selector" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(EmbersSelector) sel = embers_selector_parse_metric_selector (cases[i].text, &error);

      if (cases[i].canonical != NULL)
        {
          g_autofree char *s = NULL;

          if (error != NULL)
            g_error ("“%s”: %s", cases[i].text, error->message);
          s = embers_selector_to_string (sel);
          g_assert_cmpstr (s, ==, cases[i].canonical);

          /* The canonical form parses back to the same */
          {
            g_autoptr(EmbersSelector) again = embers_selector_parse_metric_selector (s, &error);
            g_autofree char *s2 = NULL;

            g_assert_no_error (error);
            s2 = embers_selector_to_string (again);
            g_assert_cmpstr (s2, ==, s);
          }
        }
      else
        {
          int code = strstr (cases[i].fragment, "regular") != NULL ? EMBERS_SELECTOR_ERROR_REGEX
                                                                   : EMBERS_SELECTOR_ERROR_SYNTAX;

          if (sel != NULL)
            g_error ("“%s” parsed, but the server refuses it", cases[i].text);
          g_assert_error (error, EMBERS_SELECTOR_ERROR, code);
          if (strstr (error->message, cases[i].fragment) == NULL)
            g_error ("“%s”: message “%s” lacks “%s”", cases[i].text, error->message, cases[i].fragment);
        }
    }

  /* Quoted names survive a copy, and the lenient parser reads them too */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(EmbersSelector) sel = embers_selector_parse_metric_selector ("{\"a.b\"=\"c\"}", &error);
    g_autoptr(EmbersSelector) copy = embers_selector_copy (sel);
    g_autoptr(EmbersSelector) lenient = embers_selector_parse ("{\"a.b\"=\"c\"}", NULL, &error);

    g_assert_no_error (error);
    g_assert_cmpuint (embers_selector_get_n_matchers (copy), ==, 1);
    g_assert_cmpstr (embers_selector_get_matcher (copy, 0)->name, ==, "a.b");
    g_assert_cmpstr (embers_selector_get_matcher (lenient, 0)->name, ==, "a.b");
  }
}

static void
test_selector_names (void)
{
  g_assert_true (embers_label_name_is_valid ("service_name"));
  g_assert_true (embers_label_name_is_valid ("_x1"));
  g_assert_false (embers_label_name_is_valid ("1x"));
  g_assert_false (embers_label_name_is_valid ("a-b"));
  g_assert_false (embers_label_name_is_valid ("a:b"));
  g_assert_false (embers_label_name_is_valid (""));
  g_assert_false (embers_label_name_is_valid (NULL));

  g_assert_true (embers_metric_name_is_valid ("profiles_recorded_cpu"));
  g_assert_true (embers_metric_name_is_valid (":a:b_1"));
  g_assert_false (embers_metric_name_is_valid ("9lives"));
  g_assert_false (embers_metric_name_is_valid ("a.b"));
  g_assert_false (embers_metric_name_is_valid (""));
}

/* Input that is not UTF-8 is echoed in an error message as valid UTF-8
 * (it is shown in labels and toasts); found by fuzz-selector */
static void
test_selector_error_utf8 (void)
{
  static const char * const inputs[] = {
    "{\"servic\x8d\x39 e.nam\\u=\"x\", po\"=\\adus|eu`}",
    "{ser\xffvice=\"x\"}",
    "{a=\"b\"} tr\xc3" "ailing",
    "{na\xe9me~\"x\"}",
  };

  for (guint i = 0; i < G_N_ELEMENTS (inputs); i++)
    {
      g_autoptr(GError) e1 = NULL;
      g_autoptr(GError) e2 = NULL;
      g_autoptr(EmbersSelector) lenient = embers_selector_parse (inputs[i], NULL, &e1);
      g_autoptr(EmbersSelector) strict = embers_selector_parse_metric_selector (inputs[i], &e2);

      g_assert_null (lenient);
      g_assert_error (e1, EMBERS_SELECTOR_ERROR, e1->code);
      g_assert_true (g_utf8_validate (e1->message, -1, NULL));
      g_assert_null (strict);
      g_assert_nonnull (e2);
      g_assert_true (g_utf8_validate (e2->message, -1, NULL));
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/embers/selector/parse-ok", test_selector_parse_ok);
  g_test_add_func ("/embers/selector/parse-errors", test_selector_parse_errors);
  g_test_add_func ("/embers/selector/matches", test_selector_matches);
  g_test_add_func ("/embers/selector/edit", test_selector_edit);
  g_test_add_func ("/embers/selector/names", test_selector_names);
  g_test_add_func ("/embers/selector/metric-selector", test_selector_metric_selector);
  g_test_add_func ("/embers/selector/error-utf8", test_selector_error_utf8);

  return g_test_run ();
}
