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
  g_assert_nonnull (strstr (data, "\"version\" : 1"));
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

  g_file_delete (view, NULL, NULL);
  g_file_delete (there, NULL, NULL);
  g_rmdir (dir_path);
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
    /* json-glib's immutable parser aborted on a number before the object */
    "2{\"format\": \"embers-view\", \"version\": 1, \"source\": {\"file\": \"/a\"}}",
  };
  g_autofree char *newer = g_strdup ("{\"format\": \"embers-view\", \"version\": 2, \"source\": {\"file\": \"/a\"}}");
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
  g_test_add_func ("/embers/session/hostile", test_hostile);

  return g_test_run ();
}
