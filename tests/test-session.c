/* test-session.c: view files (.embers): round trips, no credentials,
 * relative paths, missing profiles by name, hostile files
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>
#include <glib/gstdio.h>

#include "embers-session.h"

/* embers_session_clean_url(), kept for the test's lifetime */
static const char *
embers_session_clean_url_checked (const char *url)
{
  static char *last;

  g_free (last);
  last = embers_session_clean_url (url);
  return last;
}

static EmbersSession *
full_session (void)
{
  EmbersSession *s = embers_session_new ();

  s->file = g_strdup ("/data/profiles/cpu after.pb.gz");
  s->baseline_file = g_strdup ("/data/profiles/cpu-before.pb.gz");
  s->view = g_strdup ("flame");
  s->sample_type = g_strdup ("cpu");
  s->sandwich = g_strdup ("main.fib");
  s->search = g_strdup ("fib|walk\"quoted\"");
  s->search_regex = TRUE;
  s->focus = g_strdupv ((char *[]) { (char *) "main.main", (char *) "main.walkTree", NULL });
  g_assert_true (embers_transform_stack_push (s->transforms, EMBERS_TRANSFORM_DROP_FUNCTION,
                                              (const char *[]) { "main.burn", NULL }, NULL));
  g_assert_true (embers_transform_stack_push (s->transforms, EMBERS_TRANSFORM_HIDE,
                                              (const char *[]) { "main.main", "main.fib", NULL }, NULL));
  return s;
}

static void
assert_same_side (const EmbersSessionSide *a,
                  const EmbersSessionSide *b)
{
  g_assert_true ((a == NULL) == (b == NULL));
  if (a == NULL)
    return;
  g_assert_cmpstr (a->file, ==, b->file);
  g_assert_cmpstr (a->sample_type, ==, b->sample_type);
  g_assert_cmpstr (a->profile_type, ==, b->profile_type);
  g_assert_cmpstr (a->selector, ==, b->selector);
  g_assert_cmpint (a->from_ms, ==, b->from_ms);
  g_assert_cmpint (a->until_ms, ==, b->until_ms);
}

static void
assert_same (const EmbersSession *a,
             const EmbersSession *b)
{
  g_assert_cmpstr (a->file, ==, b->file);
  g_assert_cmpstr (a->baseline_file, ==, b->baseline_file);
  g_assert_cmpstr (a->server, ==, b->server);
  g_assert_cmpstr (a->profile_type, ==, b->profile_type);
  g_assert_cmpstr (a->selector, ==, b->selector);
  g_assert_cmpint (a->from_ms, ==, b->from_ms);
  g_assert_cmpint (a->until_ms, ==, b->until_ms);
  g_assert_cmpstr (a->view, ==, b->view);
  g_assert_cmpstr (a->sample_type, ==, b->sample_type);
  g_assert_cmpstr (a->sandwich, ==, b->sandwich);
  g_assert_cmpstr (a->search, ==, b->search);
  g_assert_cmpint (a->search_regex, ==, b->search_regex);
  g_assert_cmpint (a->search_case_sensitive, ==, b->search_case_sensitive);
  g_assert_true ((a->focus == NULL) == (b->focus == NULL));
  if (a->focus != NULL)
    g_assert_true (g_strv_equal ((const char * const *)a->focus, (const char * const *)b->focus));
  g_assert_true (embers_transform_stack_equal (a->transforms, b->transforms));
  g_assert_cmpstr (a->tenant, ==, b->tenant);
  g_assert_cmpstr (a->service, ==, b->service);
  g_assert_cmpstr (a->filters, ==, b->filters);
  g_assert_cmpstr (a->workspace_view, ==, b->workspace_view);
  g_assert_cmpstr (a->profile_id, ==, b->profile_id);
  g_assert_cmpint (a->profile_time_ms, ==, b->profile_time_ms);
  g_assert_cmpint (a->profile_value, ==, b->profile_value);
  g_assert_cmpstr (a->diff_mode, ==, b->diff_mode);
  assert_same_side (a->compare_baseline, b->compare_baseline);
  assert_same_side (a->compare_comparison, b->compare_comparison);
  g_assert_true ((a->diff == NULL) == (b->diff == NULL));
  if (a->diff != NULL)
    assert_same (a->diff, b->diff);
  g_assert_cmpint (a->has_labels, ==, b->has_labels);
  g_assert_cmpstr (a->labels_label, ==, b->labels_label);
  g_assert_cmpstr (a->labels_view, ==, b->labels_view);
  g_assert_cmpint (a->labels_same_scale, ==, b->labels_same_scale);
  g_assert_cmpstr (a->labels_baseline_label, ==, b->labels_baseline_label);
  g_assert_cmpstr (a->labels_baseline_value, ==, b->labels_baseline_value);
  g_assert_cmpstr (a->labels_comparison_label, ==, b->labels_comparison_label);
  g_assert_cmpstr (a->labels_comparison_value, ==, b->labels_comparison_value);
  g_assert_cmpint (a->has_services, ==, b->has_services);
  g_assert_cmpstr (a->services_filter, ==, b->services_filter);
  g_assert_cmpint (a->services_filter_regex, ==, b->services_filter_regex);
  g_assert_cmpstr (a->services_sort, ==, b->services_sort);
}

/* Written again, @s is byte for byte @text, which reads back as @s */
static void
assert_writes_back (const EmbersSession *s,
                    const char         *text)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *data = embers_session_to_data (s, NULL);
  g_autoptr(EmbersSession) back = NULL;

  g_assert_cmpstr (data, ==, text);
  back = embers_session_parse (data, strlen (data), NULL, &error);
  g_assert_no_error (error);
  assert_same (s, back);
}

static void
test_round_trip (void)
{
  g_autoptr(EmbersSession) s = full_session ();
  g_autoptr(EmbersSession) back = NULL;
  g_autofree char *data = NULL;
  g_autofree char *again = NULL;
  GError *error = NULL;
  gsize length = 0;

  data = embers_session_to_data (s, &length);
  g_assert_cmpuint (length, ==, strlen (data));
  g_assert_true (g_str_has_suffix (data, "\n"));
  g_assert_nonnull (strstr (data, "\"format\" : \"embers-view\""));
  g_assert_nonnull (strstr (data, "\"version\" : 2"));
  back = embers_session_parse (data, length, NULL, &error);
  g_assert_no_error (error);
  assert_same (s, back);

  /* Written again, byte for byte the same */
  again = embers_session_to_data (back, NULL);
  g_assert_cmpstr (data, ==, again);
}

static void
test_server_no_credentials (void)
{
  g_autoptr(EmbersSession) s = embers_session_new ();
  g_autoptr(EmbersSession) back = NULL;
  g_autofree char *data = NULL;
  g_autofree char *hostile = NULL;
  g_autoptr(EmbersSession) cleaned = NULL;
  GError *error = NULL;
  const char *secrets[] = { "alice", "s3cr3t", "tok123", "frag", "@" };

  s->server = g_strdup ("https://alice:s3cr3t@pyro.example:4040/prefix/?token=tok123#frag");
  s->profile_type = g_strdup ("process_cpu:cpu:nanoseconds:cpu:nanoseconds");
  s->selector = g_strdup ("{service_name=\"checkout\"}");
  s->from_ms = 1700000000000;
  s->until_ms = 1700003600000;
  data = embers_session_to_data (s, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (secrets); i++)
    g_assert_null (strstr (data, secrets[i]));
  back = embers_session_parse (data, strlen (data), NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (back->server, ==, "https://pyro.example:4040/prefix/");
  g_assert_cmpstr (back->selector, ==, s->selector);
  g_assert_cmpint (back->from_ms, ==, s->from_ms);

  /* A file that has them anyway: dropped on reading */
  hostile = g_strdup ("{\"format\": \"embers-view\", \"version\": 1,"
                      " \"source\": {\"server\": \"http://bob:pw@h:80/p?x=1\"},"
                      " \"query\": {\"profile-type\": \"t\", \"from\": 1, \"until\": 2}}");
  cleaned = embers_session_parse (hostile, strlen (hostile), NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (cleaned->server, ==, "http://h:80/p");

  g_assert_null (embers_session_clean_url ("file:///etc/passwd"));
  g_assert_null (embers_session_clean_url ("not a url"));
  /* Found by fuzz-session.c: a relative path after a host, a lone % */
  g_assert_null (embers_session_clean_url ("https://pyro.example:4040/p/%"));
  g_assert_null (embers_session_clean_url ("https://u%40/p/"));
  g_assert_cmpstr (embers_session_clean_url_checked ("https://u/ser:pw@h/"), ==, "https://u/ser:pw@h/");
}

static void
test_relative_and_missing (void)
{
  g_autofree char *dir_path = g_dir_make_tmp ("embers-session-XXXXXX", NULL);
  g_autoptr(GFile) dir = g_file_new_for_path (dir_path);
  g_autoptr(GFile) view = g_file_get_child (dir, "v.embers");
  g_autoptr(GFile) there = g_file_get_child (dir, "there.pb.gz");
  g_autoptr(EmbersSession) loaded = NULL;
  g_autoptr(EmbersSession) missing = NULL;
  const char *text = "{\"format\": \"embers-view\", \"version\": 1, \"source\": {\"file\": \"there.pb.gz\"}}";
  const char *text2 = "{\"format\": \"embers-view\", \"version\": 1,"
                      " \"source\": {\"file\": \"gone-a.pb.gz\", \"baseline-file\": \"/nowhere/gone-b.pb.gz\"}}";
  GError *error = NULL;

  g_assert_true (embers_session_is_session_file (view));
  g_assert_false (embers_session_is_session_file (there));

  /* Relative to the view file's folder */
  g_assert_true (g_file_replace_contents (there, "x", 1, NULL, FALSE, 0, NULL, NULL, NULL));
  g_assert_true (g_file_replace_contents (view, text, strlen (text), NULL, FALSE, 0, NULL, NULL, NULL));
  loaded = embers_session_load (view, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (loaded->file, ==, g_file_peek_path (there));

  /* Both missing profiles, by name */
  g_assert_true (g_file_replace_contents (view, text2, strlen (text2), NULL, FALSE, 0, NULL, NULL, NULL));
  missing = embers_session_load (view, NULL, &error);
  g_assert_null (missing);
  g_assert_error (error, EMBERS_SESSION_ERROR, EMBERS_SESSION_ERROR_MISSING_FILE);
  g_assert_nonnull (strstr (error->message, "gone-a.pb.gz"));
  g_assert_nonnull (strstr (error->message, "/nowhere/gone-b.pb.gz"));
  g_clear_error (&error);

  /* A workspace's comparison of files: each missing one named too */
  {
    const char *text3 = "{\"format\": \"embers-view\", \"version\": 2, \"source\": {\"server\": \"http://h:4040\"},"
                        " \"workspace\": {\"view\": \"compare\", \"compare\": {\"baseline\": {\"file\": \"there.pb.gz\"},"
                        " \"comparison\": {\"file\": \"gone-c.pb.gz\"}}}}";
    g_autoptr(EmbersSession) side_missing = NULL;

    g_assert_true (g_file_replace_contents (view, text3, strlen (text3), NULL, FALSE, 0, NULL, NULL, NULL));
    side_missing = embers_session_load (view, NULL, &error);
    g_assert_null (side_missing);
    g_assert_error (error, EMBERS_SESSION_ERROR, EMBERS_SESSION_ERROR_MISSING_FILE);
    g_assert_nonnull (strstr (error->message, "gone-c.pb.gz"));
    g_assert_null (strstr (error->message, "there.pb.gz"));
    g_clear_error (&error);
  }

  g_file_delete (view, NULL, NULL);
  g_file_delete (there, NULL, NULL);
  g_rmdir (dir_path);
}

/* A server's whole workspace (version 2): written, read, written again
 * byte for byte; the text is the one docs/session-format.md shows */
static const char workspace_text[] =
  "{\n"
  "  \"format\" : \"embers-view\",\n"
  "  \"version\" : 2,\n"
  "  \"source\" : {\n"
  "    \"server\" : \"https://pyro.example:4040/\",\n"
  "    \"tenant\" : \"team-a\"\n"
  "  },\n"
  "  \"query\" : {\n"
  "    \"service\" : \"checkout\",\n"
  "    \"profile-type\" : \"process_cpu:cpu:nanoseconds:cpu:nanoseconds\",\n"
  "    \"filters\" : \"{region=\\\"eu\\\",pod=~\\\"web-.*\\\"}\",\n"
  "    \"from\" : 1700000000000,\n"
  "    \"until\" : 1700003600000\n"
  "  },\n"
  "  \"workspace\" : {\n"
  "    \"view\" : \"compare\",\n"
  "    \"profile\" : {\n"
  "      \"id\" : \"8c1f0b7e-5d2a-4c3b-9e61-2f4a7d9b0c15\",\n"
  "      \"time\" : 1700000123000,\n"
  "      \"value\" : 250000000\n"
  "    },\n"
  "    \"compare\" : {\n"
  "      \"baseline\" : {\n"
  "        \"profile-type\" : \"process_cpu:cpu:nanoseconds:cpu:nanoseconds\",\n"
  "        \"selector\" : \"{service_name=\\\"checkout\\\"}\",\n"
  "        \"from\" : 1699996400000,\n"
  "        \"until\" : 1700000000000\n"
  "      },\n"
  "      \"comparison\" : {\n"
  "        \"profile-type\" : \"process_cpu:cpu:nanoseconds:cpu:nanoseconds\",\n"
  "        \"selector\" : \"{service_name=\\\"checkout\\\"}\",\n"
  "        \"from\" : 1700000000000,\n"
  "        \"until\" : 1700003600000\n"
  "      },\n"
  "      \"diff-mode\" : \"absolute\",\n"
  "      \"view\" : {\n"
  "        \"mode\" : \"icicle\",\n"
  "        \"transforms\" : [\n"
  "          {\n"
  "            \"kind\" : \"drop-function\",\n"
  "            \"args\" : [\n"
  "              \"runtime.gcBgMarkWorker\"\n"
  "            ]\n"
  "          }\n"
  "        ],\n"
  "        \"focus\" : [\n"
  "          \"main.main\"\n"
  "        ]\n"
  "      }\n"
  "    }\n"
  "  },\n"
  "  \"view\" : {\n"
  "    \"mode\" : \"flame\",\n"
  "    \"transforms\" : [],\n"
  "    \"search\" : \"json\",\n"
  "    \"search-regex\" : false,\n"
  "    \"search-case-sensitive\" : true\n"
  "  }\n"
  "}\n";

static void
test_workspace_round_trip (void)
{
  g_autoptr(EmbersSession) s = NULL;
  g_autoptr(EmbersSession) built = embers_session_new ();
  g_autofree char *from_built = NULL;
  GError *error = NULL;

  s = embers_session_parse (workspace_text, strlen (workspace_text), NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (s->server, ==, "https://pyro.example:4040/");
  g_assert_cmpstr (s->tenant, ==, "team-a");
  g_assert_cmpstr (s->service, ==, "checkout");
  g_assert_cmpstr (s->filters, ==, "{region=\"eu\",pod=~\"web-.*\"}");
  g_assert_cmpstr (s->selector, ==, "{service_name=\"checkout\",region=\"eu\",pod=~\"web-.*\"}");
  g_assert_cmpstr (s->workspace_view, ==, "compare");
  g_assert_cmpstr (s->profile_id, ==, "8c1f0b7e-5d2a-4c3b-9e61-2f4a7d9b0c15");
  g_assert_cmpint (s->profile_time_ms, ==, 1700000123000);
  g_assert_cmpint (s->profile_value, ==, 250000000);
  g_assert_nonnull (s->compare_baseline);
  g_assert_null (s->compare_baseline->file);
  g_assert_cmpint (s->compare_baseline->until_ms, ==, 1700000000000);
  g_assert_cmpstr (s->compare_comparison->selector, ==, "{service_name=\"checkout\"}");
  g_assert_cmpstr (s->diff_mode, ==, "absolute");
  g_assert_nonnull (s->diff);
  g_assert_cmpstr (s->diff->view, ==, "icicle");
  g_assert_cmpuint (embers_transform_stack_get_length (s->diff->transforms), ==, 1);
  g_assert_cmpstr (s->diff->focus[0], ==, "main.main");
  g_assert_cmpstr (s->search, ==, "json");
  g_assert_true (s->search_case_sensitive);
  /* Written before the Labels and Services views were kept: neither */
  g_assert_false (s->has_labels);
  g_assert_false (s->has_services);

  /* Written again: byte for byte the text read */
  assert_writes_back (s, workspace_text);

  /* Built field by field (as the window does, with a whole selector and
   * a URL that carries credentials), the same text */
  built->server = g_strdup ("https://bob:hunter2@pyro.example:4040/?token=abc");
  built->tenant = g_strdup ("team-a");
  built->profile_type = g_strdup (s->profile_type);
  built->selector = g_strdup (s->selector);
  built->from_ms = s->from_ms;
  built->until_ms = s->until_ms;
  built->workspace_view = g_strdup ("compare");
  built->profile_id = g_strdup (s->profile_id);
  built->profile_time_ms = s->profile_time_ms;
  built->profile_value = s->profile_value;
  built->compare_baseline = embers_session_side_new ();
  built->compare_baseline->profile_type = g_strdup (s->profile_type);
  built->compare_baseline->selector = g_strdup ("{service_name=\"checkout\"}");
  built->compare_baseline->from_ms = 1699996400000;
  built->compare_baseline->until_ms = 1700000000000;
  built->compare_comparison = embers_session_side_new ();
  built->compare_comparison->profile_type = g_strdup (s->profile_type);
  built->compare_comparison->selector = g_strdup ("{service_name=\"checkout\"}");
  built->compare_comparison->from_ms = 1700000000000;
  built->compare_comparison->until_ms = 1700003600000;
  built->diff_mode = g_strdup ("absolute");
  built->diff = embers_session_new ();
  built->diff->view = g_strdup ("icicle");
  built->diff->focus = g_strdupv ((char *[]) { (char *) "main.main", NULL });
  g_assert_true (embers_transform_stack_push (built->diff->transforms, EMBERS_TRANSFORM_DROP_FUNCTION,
                                              (const char *[]) { "runtime.gcBgMarkWorker", NULL }, NULL));
  built->view = g_strdup ("flame");
  built->search = g_strdup ("json");
  built->search_case_sensitive = TRUE;
  from_built = embers_session_to_data (built, NULL);
  g_assert_cmpstr (from_built, ==, workspace_text);
  g_assert_null (strstr (from_built, "bob"));
  g_assert_null (strstr (from_built, "hunter2"));
  g_assert_null (strstr (from_built, "abc"));
}

/* A file compared with a server's query (either way round): the file
 * side by path with its sample type, the query side as a query side is;
 * the text docs/session-format.md shows */
static const char mixed_text[] =
  "{\n"
  "  \"format\" : \"embers-view\",\n"
  "  \"version\" : 2,\n"
  "  \"source\" : {\n"
  "    \"server\" : \"https://pyro.example:4040/\",\n"
  "    \"tenant\" : \"team-a\"\n"
  "  },\n"
  "  \"query\" : {\n"
  "    \"service\" : \"checkout\",\n"
  "    \"profile-type\" : \"process_cpu:cpu:nanoseconds:cpu:nanoseconds\",\n"
  "    \"filters\" : \"{region=\\\"eu\\\"}\",\n"
  "    \"from\" : 1700000000000,\n"
  "    \"until\" : 1700003600000\n"
  "  },\n"
  "  \"workspace\" : {\n"
  "    \"view\" : \"compare\",\n"
  "    \"compare\" : {\n"
  "      \"baseline\" : {\n"
  "        \"file\" : \"/home/me/profiles/cpu-before.pb.gz\",\n"
  "        \"sample-type\" : \"cpu\"\n"
  "      },\n"
  "      \"comparison\" : {\n"
  "        \"profile-type\" : \"process_cpu:cpu:nanoseconds:cpu:nanoseconds\",\n"
  "        \"selector\" : \"{service_name=\\\"checkout\\\",region=\\\"eu\\\"}\",\n"
  "        \"from\" : 1700000000000,\n"
  "        \"until\" : 1700003600000\n"
  "      },\n"
  "      \"diff-mode\" : \"share\",\n"
  "      \"view\" : {\n"
  "        \"mode\" : \"icicle\",\n"
  "        \"transforms\" : []\n"
  "      }\n"
  "    }\n"
  "  },\n"
  "  \"view\" : {\n"
  "    \"transforms\" : []\n"
  "  }\n"
  "}\n";

static void
test_file_and_query (void)
{
  static const char * const bad[] = {
    /* A side missing, a side that is both or neither, wrong types */
    "{\"baseline\": {\"file\": \"/a\"}}",
    "{\"comparison\": {\"file\": \"/a\"}}",
    "{\"baseline\": {\"file\": \"/a\", \"profile-type\": \"t\"}, \"comparison\": {\"file\": \"/b\"}}",
    "{\"baseline\": {\"file\": \"/a\", \"selector\": \"{}\"}, \"comparison\": {\"file\": \"/b\"}}",
    "{\"baseline\": {}, \"comparison\": {\"file\": \"/b\"}}",
    "{\"baseline\": {\"file\": \"/a\"}, \"comparison\": {\"sample-type\": \"cpu\", \"profile-type\": \"t\","
    " \"from\": 1, \"until\": 2}}",
    "{\"baseline\": {\"file\": \"/a\", \"sample-type\": 3}, \"comparison\": {\"file\": \"/b\"}}",
    "{\"baseline\": {\"file\": [\"/a\"]}, \"comparison\": {\"file\": \"/b\"}}",
    "{\"baseline\": {\"file\": \"/a\"}, \"comparison\": {\"profile-type\": 4, \"from\": 1, \"until\": 2}}",
    "{\"baseline\": {\"file\": \"/a\"}, \"comparison\": {\"profile-type\": \"t\", \"from\": \"1\", \"until\": 2}}",
    "{\"baseline\": {\"file\": \"/a\"}, \"comparison\": {\"profile-type\": \"t\", \"from\": 1}}",
    "{\"baseline\": {\"file\": \"/a\"}, \"comparison\": {\"profile-type\": \"t\", \"selector\": \"{x=\","
    " \"from\": 1, \"until\": 2}}",
    "{\"baseline\": \"/a\", \"comparison\": {\"file\": \"/b\"}}",
  };
  /* What each error must name */
  static const char * const named[] = {
    "comparison", "baseline", "baseline", "baseline", "baseline", "comparison", "sample-type", "file",
    "profile-type", "from", "until", "selector", "baseline",
  };
  g_autoptr(EmbersSession) s = NULL;
  g_autoptr(EmbersSession) built = embers_session_new ();
  g_autoptr(EmbersSession) turned = NULL;
  g_autofree char *from_built = NULL;
  g_autofree char *turned_data = NULL;
  GError *error = NULL;

  G_STATIC_ASSERT (G_N_ELEMENTS (bad) == G_N_ELEMENTS (named));

  s = embers_session_parse (mixed_text, strlen (mixed_text), NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (s->compare_baseline->file, ==, "/home/me/profiles/cpu-before.pb.gz");
  g_assert_cmpstr (s->compare_baseline->sample_type, ==, "cpu");
  g_assert_null (s->compare_baseline->profile_type);
  g_assert_null (s->compare_comparison->file);
  g_assert_null (s->compare_comparison->sample_type);
  g_assert_cmpstr (s->compare_comparison->selector, ==, "{service_name=\"checkout\",region=\"eu\"}");
  g_assert_cmpint (s->compare_comparison->until_ms, ==, 1700003600000);
  assert_writes_back (s, mixed_text);

  /* Built as the window does (a URL with credentials), the same text */
  built->server = g_strdup ("https://bob:hunter2@pyro.example:4040/");
  built->tenant = g_strdup ("team-a");
  built->profile_type = g_strdup ("process_cpu:cpu:nanoseconds:cpu:nanoseconds");
  built->selector = g_strdup ("{service_name=\"checkout\",region=\"eu\"}");
  built->from_ms = 1700000000000;
  built->until_ms = 1700003600000;
  built->workspace_view = g_strdup ("compare");
  built->compare_baseline = embers_session_side_new ();
  built->compare_baseline->file = g_strdup ("/home/me/profiles/cpu-before.pb.gz");
  built->compare_baseline->sample_type = g_strdup ("cpu");
  built->compare_comparison = embers_session_side_new ();
  built->compare_comparison->profile_type = g_strdup (built->profile_type);
  built->compare_comparison->selector = g_strdup (built->selector);
  built->compare_comparison->from_ms = built->from_ms;
  built->compare_comparison->until_ms = built->until_ms;
  built->diff_mode = g_strdup ("share");
  built->diff = embers_session_new ();
  built->diff->view = g_strdup ("icicle");
  from_built = embers_session_to_data (built, NULL);
  g_assert_cmpstr (from_built, ==, mixed_text);
  g_assert_null (strstr (from_built, "hunter2"));

  /* The other way round: the query the baseline, the file the
   * comparison (its default sample type: none written) */
  {
    EmbersSessionSide *t = built->compare_baseline;

    built->compare_baseline = built->compare_comparison;
    built->compare_comparison = t;
    g_clear_pointer (&t->sample_type, g_free);
  }
  turned_data = embers_session_to_data (built, NULL);
  g_assert_null (strstr (turned_data, "sample-type"));
  turned = embers_session_parse (turned_data, strlen (turned_data), NULL, &error);
  g_assert_no_error (error);
  g_assert_null (turned->compare_baseline->file);
  g_assert_cmpstr (turned->compare_comparison->file, ==, "/home/me/profiles/cpu-before.pb.gz");
  g_assert_null (turned->compare_comparison->sample_type);
  assert_same_side (built->compare_baseline, turned->compare_baseline);
  assert_same_side (built->compare_comparison, turned->compare_comparison);
  g_assert_cmpstr (turned->server, ==, "https://pyro.example:4040/");

  /* Hostile sides: refused, the error naming the side or the field */
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autofree char *text = g_strdup_printf ("{\"format\": \"embers-view\", \"version\": 2,"
                                               " \"source\": {\"server\": \"http://h/\"},"
                                               " \"workspace\": {\"view\": \"compare\", \"compare\": %s}}",
                                               bad[i]);
      g_autoptr(EmbersSession) refused = embers_session_parse (text, strlen (text), NULL, &error);

      if (refused != NULL)
        g_error ("accepted: %s", bad[i]);
      g_assert_error (error, EMBERS_SESSION_ERROR, EMBERS_SESSION_ERROR_INVALID);
      if (strstr (error->message, named[i]) == NULL)
        g_error ("“%s” does not name %s: %s", bad[i], named[i], error->message);
      g_clear_error (&error);
    }
}

/* A file compared with a query whose file is gone: named, nothing else */
static void
test_file_and_query_missing (void)
{
  g_autofree char *dir_path = g_dir_make_tmp ("embers-session-XXXXXX", NULL);
  g_autofree char *view_path = g_build_filename (dir_path, "mixed.embers", NULL);
  g_autoptr(GFile) view = g_file_new_for_path (view_path);
  g_autoptr(EmbersSession) loaded = NULL;
  const char *text = "{\"format\": \"embers-view\", \"version\": 2, \"source\": {\"server\": \"http://h:4040\"},"
                     " \"workspace\": {\"view\": \"compare\", \"compare\": {\"baseline\": {\"profile-type\": \"t\","
                     " \"selector\": \"{service_name=\\\"api\\\"}\", \"from\": 1, \"until\": 2},"
                     " \"comparison\": {\"file\": \"gone-d.pb.gz\", \"sample-type\": \"cpu\"}}}}";
  GError *error = NULL;

  g_assert_true (g_file_set_contents (view_path, text, -1, NULL));
  loaded = embers_session_load (view, NULL, &error);
  g_assert_null (loaded);
  g_assert_error (error, EMBERS_SESSION_ERROR, EMBERS_SESSION_ERROR_MISSING_FILE);
  g_assert_nonnull (strstr (error->message, "gone-d.pb.gz"));
  g_clear_error (&error);
  g_unlink (view_path);
  g_rmdir (dir_path);
}

/* The Labels view's label, view, scale and marks, the Services view's
 * filter and order (optional fields of version 2) */
static const char labels_text[] =
  "{\n"
  "  \"format\" : \"embers-view\",\n"
  "  \"version\" : 2,\n"
  "  \"source\" : {\n"
  "    \"server\" : \"http://localhost:4040/\"\n"
  "  },\n"
  "  \"query\" : {\n"
  "    \"service\" : \"api\",\n"
  "    \"profile-type\" : \"process_cpu:cpu:nanoseconds:cpu:nanoseconds\",\n"
  "    \"filters\" : \"{}\",\n"
  "    \"from\" : 1700000000000,\n"
  "    \"until\" : 1700003600000\n"
  "  },\n"
  "  \"workspace\" : {\n"
  "    \"view\" : \"labels\",\n"
  "    \"labels\" : {\n"
  "      \"label\" : \"region\",\n"
  "      \"view\" : \"histogram\",\n"
  "      \"same-scale\" : false,\n"
  "      \"baseline\" : {\n"
  "        \"label\" : \"region\",\n"
  "        \"value\" : \"eu-west-1\"\n"
  "      },\n"
  "      \"comparison\" : {\n"
  "        \"label\" : \"pod\",\n"
  "        \"value\" : \"\"\n"
  "      }\n"
  "    },\n"
  "    \"services\" : {\n"
  "      \"filter\" : \"^(api|web)\",\n"
  "      \"filter-regex\" : true,\n"
  "      \"sort\" : \"total\"\n"
  "    }\n"
  "  },\n"
  "  \"view\" : {\n"
  "    \"transforms\" : []\n"
  "  }\n"
  "}\n";

static void
test_labels_services (void)
{
  static const char * const bad[] = {
    /* An unknown view, order, a mark without its value, wrong types */
    "{\"labels\": {\"view\": \"pie\"}}",
    "{\"labels\": {\"view\": \"Table\"}}",
    "{\"labels\": {\"label\": 5}}",
    "{\"labels\": {\"same-scale\": \"yes\"}}",
    "{\"labels\": {\"baseline\": {\"label\": \"region\"}}}",
    "{\"labels\": {\"comparison\": {\"label\": \"\", \"value\": \"x\"}}}",
    "{\"labels\": {\"baseline\": \"region=eu\"}}",
    "{\"labels\": [1]}",
    "{\"services\": {\"sort\": \"random\"}}",
    "{\"services\": {\"filter\": [\"a\"]}}",
    "{\"services\": {\"filter-regex\": 1}}",
    "{\"services\": \"api\"}",
  };
  g_autoptr(EmbersSession) s = NULL;
  g_autoptr(EmbersSession) built = embers_session_new ();
  g_autofree char *from_built = NULL;
  g_autoptr(GString) huge = g_string_new (NULL);
  GError *error = NULL;

  s = embers_session_parse (labels_text, strlen (labels_text), NULL, &error);
  g_assert_no_error (error);
  g_assert_true (s->has_labels);
  g_assert_cmpstr (s->labels_label, ==, "region");
  g_assert_cmpstr (s->labels_view, ==, "histogram");
  g_assert_false (s->labels_same_scale);
  g_assert_cmpstr (s->labels_baseline_label, ==, "region");
  g_assert_cmpstr (s->labels_baseline_value, ==, "eu-west-1");
  g_assert_cmpstr (s->labels_comparison_label, ==, "pod");
  g_assert_cmpstr (s->labels_comparison_value, ==, "");
  g_assert_true (s->has_services);
  g_assert_cmpstr (s->services_filter, ==, "^(api|web)");
  g_assert_true (s->services_filter_regex);
  g_assert_cmpstr (s->services_sort, ==, "total");

  /* Written again: byte for byte */
  assert_writes_back (s, labels_text);

  /* Built field by field, as the window does: the same text */
  built->server = g_strdup ("http://localhost:4040/");
  built->service = g_strdup ("api");
  built->profile_type = g_strdup ("process_cpu:cpu:nanoseconds:cpu:nanoseconds");
  built->filters = g_strdup ("{}");
  built->from_ms = 1700000000000;
  built->until_ms = 1700003600000;
  built->workspace_view = g_strdup ("labels");
  built->has_labels = TRUE;
  built->labels_label = g_strdup ("region");
  built->labels_view = g_strdup ("histogram");
  built->labels_same_scale = FALSE;
  built->labels_baseline_label = g_strdup ("region");
  built->labels_baseline_value = g_strdup ("eu-west-1");
  built->labels_comparison_label = g_strdup ("pod");
  built->labels_comparison_value = g_strdup ("");
  built->has_services = TRUE;
  built->services_filter = g_strdup ("^(api|web)");
  built->services_filter_regex = TRUE;
  built->services_sort = g_strdup ("total");
  from_built = embers_session_to_data (built, NULL);
  g_assert_cmpstr (from_built, ==, labels_text);

  /* Left out, each: the defaults (Same Scale on, no marks, no filter) */
  {
    const char *partial = "{\"format\": \"embers-view\", \"version\": 2, \"source\": {\"server\": \"http://h/\"},"
                          " \"workspace\": {\"view\": \"labels\", \"labels\": {}, \"services\": {}}}";
    g_autoptr(EmbersSession) p = embers_session_parse (partial, strlen (partial), NULL, &error);

    g_assert_no_error (error);
    g_assert_true (p->has_labels);
    g_assert_null (p->labels_label);
    g_assert_null (p->labels_view);
    g_assert_true (p->labels_same_scale);
    g_assert_null (p->labels_baseline_label);
    g_assert_null (p->labels_comparison_value);
    g_assert_true (p->has_services);
    g_assert_null (p->services_filter);
    g_assert_false (p->services_filter_regex);
    g_assert_null (p->services_sort);
  }

  /* Hostile values: refused, saying which field */
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autofree char *text = g_strdup_printf ("{\"format\": \"embers-view\", \"version\": 2,"
                                               " \"source\": {\"server\": \"http://h/\"},"
                                               " \"workspace\": %s}", bad[i]);
      g_autoptr(EmbersSession) b = embers_session_parse (text, strlen (text), NULL, &error);

      if (b != NULL)
        g_error ("accepted: %s", text);
      g_assert_error (error, EMBERS_SESSION_ERROR, EMBERS_SESSION_ERROR_INVALID);
      g_clear_error (&error);
    }
  {
    const char *text = "{\"format\": \"embers-view\", \"version\": 2, \"source\": {\"server\": \"http://h/\"},"
                       " \"workspace\": {\"labels\": {\"view\": \"pie\"}}}";
    g_autoptr(EmbersSession) b = embers_session_parse (text, strlen (text), NULL, &error);

    g_assert_null (b);
    g_assert_error (error, EMBERS_SESSION_ERROR, EMBERS_SESSION_ERROR_INVALID);
    g_assert_nonnull (strstr (error->message, "series, total, maximum, histogram or table"));
    g_clear_error (&error);
  }

  /* A huge filter (over 64 KiB): "too long" */
  g_string_append (huge, "{\"format\": \"embers-view\", \"version\": 2, \"source\": {\"server\": \"http://h/\"},"
                         " \"workspace\": {\"services\": {\"filter\": \"");
  for (guint i = 0; i < 70000; i++)
    g_string_append_c (huge, 'a');
  g_string_append (huge, "\"}}}");
  g_assert_null (embers_session_parse (huge->str, huge->len, NULL, &error));
  g_assert_error (error, EMBERS_SESSION_ERROR, EMBERS_SESSION_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "“filter” is too long"));
  g_clear_error (&error);

  /* Not UTF-8: raw bytes in a label refuse the file; an escaped lone
   * surrogate never lands in a field as broken text */
  {
    const char raw[] = "{\"format\": \"embers-view\", \"version\": 2, \"source\": {\"server\": \"http://h/\"},"
                       " \"workspace\": {\"labels\": {\"label\": \"re\xffgion\"}}}";
    const char escaped[] = "{\"format\": \"embers-view\", \"version\": 2, \"source\": {\"server\": \"http://h/\"},"
                           " \"workspace\": {\"labels\": {\"label\": \"re\\udc80gion\"}}}";
    g_autoptr(EmbersSession) e = NULL;

    g_assert_null (embers_session_parse (raw, strlen (raw), NULL, &error));
    g_assert_error (error, EMBERS_SESSION_ERROR, EMBERS_SESSION_ERROR_INVALID);
    g_clear_error (&error);
    e = embers_session_parse (escaped, strlen (escaped), NULL, &error);
    if (e != NULL)
      g_assert_true (e->labels_label == NULL || g_utf8_validate (e->labels_label, -1, NULL));
    else
      g_assert_error (error, EMBERS_SESSION_ERROR, EMBERS_SESSION_ERROR_INVALID);
    g_clear_error (&error);
  }
}

/* Files of version 1 are read: a server's query becomes the workspace's
 * (service and filters apart), shown on the Flame Graph view */
static void
test_version_1 (void)
{
  const char *v1 = "{\"format\": \"embers-view\", \"version\": 1,"
                   " \"source\": {\"server\": \"http://pyro.example:4040/\"},"
                   " \"query\": {\"profile-type\": \"memory:alloc_space:bytes:space:bytes\","
                   " \"selector\": \"{region=\\\"eu\\\", service_name=\\\"api\\\"}\", \"from\": 10, \"until\": 20},"
                   " \"view\": {\"mode\": \"bottom-up\"}}";
  const char *services = "{\"format\": \"embers-view\", \"version\": 2,"
                         " \"source\": {\"server\": \"http://pyro.example:4040/\"},"
                         " \"workspace\": {\"view\": \"services\"}}";
  g_autoptr(EmbersSession) s = NULL;
  g_autoptr(EmbersSession) back = NULL;
  g_autoptr(EmbersSession) overview = NULL;
  g_autofree char *data = NULL;
  g_autofree char *again = NULL;
  GError *error = NULL;

  s = embers_session_parse (v1, strlen (v1), NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (s->service, ==, "api");
  g_assert_cmpstr (s->filters, ==, "{region=\"eu\"}");
  g_assert_cmpstr (s->selector, ==, "{service_name=\"api\",region=\"eu\"}");
  g_assert_null (s->workspace_view);
  g_assert_null (s->tenant);
  g_assert_cmpstr (s->view, ==, "bottom-up");

  /* Written as version 2, on the Flame Graph view; stable from then on */
  data = embers_session_to_data (s, NULL);
  g_assert_nonnull (strstr (data, "\"version\" : 2"));
  g_assert_nonnull (strstr (data, "\"view\" : \"flame-graph\""));
  back = embers_session_parse (data, strlen (data), NULL, &error);
  g_assert_no_error (error);
  again = embers_session_to_data (back, NULL);
  g_assert_cmpstr (data, ==, again);

  /* A workspace before any service is picked: no query */
  overview = embers_session_parse (services, strlen (services), NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (overview->workspace_view, ==, "services");
  g_assert_null (overview->profile_type);
  g_assert_null (overview->selector);
  g_clear_pointer (&data, g_free);
  data = embers_session_to_data (overview, NULL);
  g_assert_null (strstr (data, "\"query\""));
}

static void
test_hostile (void)
{
  static const char * const bad[] = {
    "",
    "null",
    "[]",
    "{\"version\": 1}",
    "{\"format\": \"embers-view\"}",
    "{\"format\": \"embers-view\", \"version\": 0, \"source\": {\"file\": \"/a\"}}",
    "{\"format\": \"embers-view\", \"version\": \"1\", \"source\": {\"file\": \"/a\"}}",
    "{\"format\": \"embers-view\", \"version\": 1}",
    "{\"format\": \"embers-view\", \"version\": 1, \"source\": []}",
    "{\"format\": \"embers-view\", \"version\": 1, \"source\": {\"file\": 3}}",
    "{\"format\": \"embers-view\", \"version\": 1, \"source\": {\"file\": \"\"}}",
    "{\"format\": \"embers-view\", \"version\": 1, \"source\": {\"file\": \"/a\", \"server\": \"http://h/\"}}",
    "{\"format\": \"embers-view\", \"version\": 1, \"source\": {\"server\": \"ftp://h/\"}}",
    "{\"format\": \"embers-view\", \"version\": 1, \"source\": {\"server\": \"http://h/\"}}",
    "{\"format\": \"embers-view\", \"version\": 1, \"source\": {\"server\": \"http://h/\"}, \"query\": {\"profile-type\": \"t\", \"from\": 5, \"until\": 2}}",
    "{\"format\": \"embers-view\", \"version\": 1, \"source\": {\"baseline-file\": \"/a\"}}",
    "{\"format\": \"embers-view\", \"version\": 1, \"source\": {\"file\": \"/a\"}, \"view\": {\"mode\": \"spiral\"}}",
    "{\"format\": \"embers-view\", \"version\": 1, \"source\": {\"file\": \"/a\"}, \"view\": {\"focus\": [1]}}",
    "{\"format\": \"embers-view\", \"version\": 1, \"source\": {\"file\": \"/a\"}, \"view\": {\"transforms\": [{\"kind\": \"x\"}]}}",
    "{\"format\": \"embers-view\", \"version\": 1, \"source\": {\"file\": \"/a\"}, \"view\": []}",
    /* Version 2: a server's workspace */
    "{\"format\": \"embers-view\", \"version\": 2, \"source\": {\"server\": \"http://h/\"}}",
    "{\"format\": \"embers-view\", \"version\": 2, \"source\": {\"server\": \"http://h/\", \"tenant\": 7}, \"workspace\": {}}",
    "{\"format\": \"embers-view\", \"version\": 2, \"source\": {\"server\": \"http://h/\"}, \"workspace\": {\"view\": \"attic\"}}",
    "{\"format\": \"embers-view\", \"version\": 2, \"source\": {\"server\": \"http://h/\"}, \"workspace\": [1]}",
    "{\"format\": \"embers-view\", \"version\": 2, \"source\": {\"server\": \"http://h/\"}, \"workspace\": {},"
    " \"query\": {\"service\": \"a\", \"filters\": \"{broken\", \"from\": 1, \"until\": 2}}",
    "{\"format\": \"embers-view\", \"version\": 2, \"source\": {\"server\": \"http://h/\"}, \"workspace\": {},"
    " \"query\": {\"service\": \"a\", \"from\": 3, \"until\": 2}}",
    "{\"format\": \"embers-view\", \"version\": 2, \"source\": {\"server\": \"http://h/\"}, \"workspace\": {},"
    " \"query\": {\"service\": \"a\", \"from\": -3, \"until\": 2}}",
    "{\"format\": \"embers-view\", \"version\": 2, \"source\": {\"server\": \"http://h/\"},"
    " \"workspace\": {\"profile\": {\"id\": \"\", \"time\": 1, \"value\": 2}}}",
    "{\"format\": \"embers-view\", \"version\": 2, \"source\": {\"server\": \"http://h/\"},"
    " \"workspace\": {\"profile\": {\"id\": \"x\", \"time\": 1}}}",
    "{\"format\": \"embers-view\", \"version\": 2, \"source\": {\"server\": \"http://h/\"},"
    " \"workspace\": {\"profile\": {\"id\": \"x\", \"time\": 1.5, \"value\": 2}}}",
    "{\"format\": \"embers-view\", \"version\": 2, \"source\": {\"server\": \"http://h/\"},"
    " \"workspace\": {\"compare\": {\"baseline\": {\"file\": \"/a\"}}}}",
    "{\"format\": \"embers-view\", \"version\": 2, \"source\": {\"server\": \"http://h/\"},"
    " \"workspace\": {\"compare\": {\"baseline\": {\"file\": \"/a\"}, \"comparison\": {\"file\": \"\"}}}}",
    "{\"format\": \"embers-view\", \"version\": 2, \"source\": {\"server\": \"http://h/\"},"
    " \"workspace\": {\"compare\": {\"baseline\": {\"file\": \"/a\"}, \"comparison\": {\"profile-type\": \"t\","
    " \"from\": 9, \"until\": 2}}}}",
    "{\"format\": \"embers-view\", \"version\": 2, \"source\": {\"server\": \"http://h/\"},"
    " \"workspace\": {\"compare\": {\"baseline\": {\"file\": \"/a\"}, \"comparison\": {\"selector\": \"{}\","
    " \"from\": 1, \"until\": 2}}}}",
    "{\"format\": \"embers-view\", \"version\": 2, \"source\": {\"server\": \"http://h/\"},"
    " \"workspace\": {\"compare\": {\"baseline\": {\"file\": \"/a\"}, \"comparison\": {\"file\": \"/b\"},"
    " \"diff-mode\": \"loud\"}}}",
    "{\"format\": \"embers-view\", \"version\": 2, \"source\": {\"server\": \"http://h/\"},"
    " \"workspace\": {\"compare\": {\"baseline\": {\"file\": \"/a\"}, \"comparison\": {\"file\": \"/b\"},"
    " \"view\": {\"mode\": \"spiral\"}}}}",
    /* A version 1 selector that is no selector */
    "{\"format\": \"embers-view\", \"version\": 1, \"source\": {\"server\": \"http://h/\"},"
    " \"query\": {\"profile-type\": \"t\", \"selector\": \"{a=\", \"from\": 1, \"until\": 2}}",
    /* json-glib's immutable parser aborted on a number before the object */
    "2{\"format\": \"embers-view\", \"version\": 1, \"source\": {\"file\": \"/a\"}}",
  };
  g_autofree char *newer = g_strdup ("{\"format\": \"embers-view\", \"version\": 3, \"source\": {\"file\": \"/a\"}}");
  g_autoptr(EmbersSession) none = NULL;
  g_autoptr(EmbersSession) minimal = NULL;
  const char *ok = "{\"format\": \"embers-view\", \"version\": 1, \"source\": {\"file\": \"/a\"}, \"future\": [1, 2]}";
  GError *error = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(EmbersSession) s = embers_session_parse (bad[i], strlen (bad[i]), NULL, &error);

      if (s != NULL)
        g_error ("accepted: %s", bad[i]);
      g_assert_error (error, EMBERS_SESSION_ERROR, EMBERS_SESSION_ERROR_INVALID);
      g_clear_error (&error);
    }

  /* A newer version says so */
  none = embers_session_parse (newer, strlen (newer), NULL, &error);
  g_assert_error (error, EMBERS_SESSION_ERROR, EMBERS_SESSION_ERROR_VERSION);
  g_assert_nonnull (strstr (error->message, "newer"));
  g_clear_error (&error);

  /* Fields it does not know are left alone; the view has defaults */
  minimal = embers_session_parse (ok, strlen (ok), NULL, &error);
  g_assert_no_error (error);
  g_assert_null (minimal->view);
  g_assert_cmpuint (embers_transform_stack_get_length (minimal->transforms), ==, 0);

  /* Not UTF-8, embedded NUL */
  g_assert_null (embers_session_parse ("{\"\xff\": 1}", 8, NULL, &error));
  g_clear_error (&error);
  g_assert_null (embers_session_parse ("{\0}", 3, NULL, &error));
  g_clear_error (&error);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/embers/session/round-trip", test_round_trip);
  g_test_add_func ("/embers/session/server-no-credentials", test_server_no_credentials);
  g_test_add_func ("/embers/session/relative-and-missing", test_relative_and_missing);
  g_test_add_func ("/embers/session/workspace-round-trip", test_workspace_round_trip);
  g_test_add_func ("/embers/session/version-1", test_version_1);
  g_test_add_func ("/embers/session/labels-services", test_labels_services);
  g_test_add_func ("/embers/session/hostile", test_hostile);
  g_test_add_func ("/embers/session/file-and-query", test_file_and_query);
  g_test_add_func ("/embers/session/file-and-query-missing", test_file_and_query_missing);

  return g_test_run ();
}
