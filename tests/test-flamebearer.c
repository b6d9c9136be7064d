/* test-flamebearer.c: Pyroscope flame graph JSON and levels decoding
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "embers-diff.h"
#include "embers-format.h"
#include "embers-readers.h"

static EmbersProfile *
parse (const char *text,
       GError    **error)
{
  return embers_flamebearer_parse (text, strlen (text), error);
}

static guint32
find (EmbersProfile *p,
      const char    *stack)
{
  for (guint i = 0; i < embers_profile_get_n_nodes (p); i++)
    {
      g_autofree char *s = embers_profile_node_stack (p, i, ";");

      if (g_str_equal (s, stack))
        return i;
    }
  g_error ("no node %s", stack);
  return 0;
}

/* PYROSCOPE-API.md §2: main;a 3, main;b;c 2, main 1 */
static void
check_single (EmbersProfile *p)
{
  g_assert_false (embers_profile_is_diff (p));
  g_assert_cmpint (embers_profile_get_total (p, 0), ==, 6);
  g_assert_cmpuint (embers_profile_get_n_nodes (p), ==, 5);
  g_assert_cmpint (embers_profile_node_self (p, 0, find (p, "main")), ==, 1);
  g_assert_cmpint (embers_profile_node_self (p, 0, find (p, "main;a")), ==, 3);
  g_assert_cmpint (embers_profile_node_total (p, 0, find (p, "main;b")), ==, 2);
  g_assert_cmpint (embers_profile_node_self (p, 0, find (p, "main;b")), ==, 0);
  g_assert_cmpint (embers_profile_node_self (p, 0, find (p, "main;b;c")), ==, 2);
}

static void
test_single_vector (void)
{
  static const char *docs[] = {
    /* render API */
    "{\"version\":1,\"flamebearer\":{\"names\":[\"total\",\"main\",\"b\",\"c\",\"a\"],"
    "\"levels\":[[0,6,0,0],[0,6,1,1],[1,3,3,4,0,2,0,2],[4,2,2,3]],\"numTicks\":6,\"maxSelf\":3},"
    "\"metadata\":{\"format\":\"single\",\"units\":\"samples\",\"name\":\"cpu\",\"sampleRate\":100},"
    "\"timeline\":null,\"groups\":null,\"heatmap\":null}",
    /* Connect JSON: int64 as strings */
    "{\"names\":[\"total\",\"main\",\"b\",\"c\",\"a\"],\"levels\":[{\"values\":[\"0\",\"6\",\"0\",\"0\"]},"
    "{\"values\":[\"0\",\"6\",\"1\",\"1\"]},{\"values\":[\"1\",\"3\",\"3\",\"4\",\"0\",\"2\",\"0\",\"2\"]},"
    "{\"values\":[\"4\",\"2\",\"2\",\"3\"]}],\"total\":\"6\",\"maxSelf\":\"3\"}",
    /* SelectMergeStacktracesResponse wrapper, numbers */
    "{\"flamegraph\":{\"names\":[\"total\",\"main\",\"b\",\"c\",\"a\"],\"levels\":[{\"values\":[0,6,0,0]},"
    "{\"values\":[0,6,1,1]},{\"values\":[1,3,3,4,0,2,0,2]},{\"values\":[4,2,2,3]}],\"total\":6}}",
  };

  for (guint i = 0; i < G_N_ELEMENTS (docs); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(EmbersProfile) p = parse (docs[i], &error);

      g_assert_no_error (error);
      check_single (p);
    }

  /* render API metadata: name is the sample type */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(EmbersProfile) p = parse (docs[0], &error);

    g_assert_cmpstr (embers_profile_get_sample_type (p, 0), ==, "cpu");
  }
}

static void
check_diff (EmbersProfile *p)
{
  guint32 b, c;

  g_assert_true (embers_profile_is_diff (p));
  g_assert_cmpuint (embers_profile_get_n_sample_types (p), ==, 2);
  g_assert_cmpint (embers_profile_get_total (p, EMBERS_DIFF_BASELINE), ==, 3);
  g_assert_cmpint (embers_profile_get_total (p, EMBERS_DIFF_COMPARISON), ==, 12);
  b = find (p, "a;b");
  c = find (p, "a;c");
  g_assert_cmpint (embers_profile_node_self (p, EMBERS_DIFF_BASELINE, b), ==, 1);
  g_assert_cmpint (embers_profile_node_self (p, EMBERS_DIFF_COMPARISON, b), ==, 4);
  g_assert_cmpint (embers_profile_node_self (p, EMBERS_DIFF_BASELINE, c), ==, 2);
  g_assert_cmpint (embers_profile_node_self (p, EMBERS_DIFF_COMPARISON, c), ==, 8);
}

/* PYROSCOPE-API.md §2, from flamegraph_diff_test.go */
static void
test_diff_vector (void)
{
  static const char *docs[] = {
    "{\"version\":1,\"flamebearer\":{\"names\":[\"total\",\"a\",\"c\",\"b\"],"
    "\"levels\":[[0,3,0,0,12,0,0],[0,3,0,0,12,0,1],[0,1,1,0,4,4,3,0,2,2,0,8,8,2]],\"numTicks\":15,\"maxSelf\":8},"
    "\"metadata\":{\"format\":\"double\",\"units\":\"samples\"},\"leftTicks\":3,\"rightTicks\":12}",
    "{\"flamegraph\":{\"names\":[\"total\",\"a\",\"c\",\"b\"],\"levels\":["
    "{\"values\":[\"0\",\"3\",\"0\",\"0\",\"12\",\"0\",\"0\"]},{\"values\":[\"0\",\"3\",\"0\",\"0\",\"12\",\"0\",\"1\"]},"
    "{\"values\":[\"0\",\"1\",\"1\",\"0\",\"4\",\"4\",\"3\",\"0\",\"2\",\"2\",\"0\",\"8\",\"8\",\"2\"]}],"
    "\"total\":\"15\",\"maxSelf\":\"8\",\"leftTicks\":\"3\",\"rightTicks\":\"12\"}}",
  };

  for (guint i = 0; i < G_N_ELEMENTS (docs); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(EmbersProfile) p = parse (docs[i], &error);

      g_assert_no_error (error);
      check_diff (p);
    }
}

static void
test_round_trip (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersProfile) p = embers_folded_parse ("main;a 3\nmain;b;c 2\nmain 1\n", 27, &error);
  g_autoptr(GBytes) json = NULL;
  g_autoptr(EmbersProfile) again = NULL;
  g_autoptr(GBytes) json2 = NULL;

  g_assert_no_error (error);
  json = embers_flamebearer_write (p, 0, &error);
  g_assert_no_error (error);
  /* Our dictionary order differs from Pyroscope's; the levels decode the same */
  g_assert_nonnull (g_strstr_len (g_bytes_get_data (json, NULL), g_bytes_get_size (json), "\"format\":\"single\""));
  again = embers_flamebearer_parse (g_bytes_get_data (json, NULL), g_bytes_get_size (json), &error);
  g_assert_no_error (error);
  check_single (again);
  json2 = embers_flamebearer_write (again, 0, &error);
  g_assert_true (g_bytes_equal (json, json2));

  /* A diff writes the double format and reads back the same */
  {
    g_autoptr(EmbersProfile) l = embers_folded_parse ("a;b 1\na;c 2\n", 12, &error);
    g_autoptr(EmbersProfile) r = embers_folded_parse ("a;b 4\na;c 8\n", 12, &error);
    g_autoptr(EmbersProfile) d = embers_diff_profiles (l, 0, r, 0, &error);
    g_autoptr(GBytes) dj = NULL;
    g_autoptr(EmbersProfile) d2 = NULL;

    g_assert_no_error (error);
    dj = embers_flamebearer_write (d, 0, &error);
    g_assert_no_error (error);
    g_assert_nonnull (g_strstr_len (g_bytes_get_data (dj, NULL), g_bytes_get_size (dj), "\"leftTicks\":3"));
    d2 = embers_flamebearer_parse (g_bytes_get_data (dj, NULL), g_bytes_get_size (dj), &error);
    g_assert_no_error (error);
    check_diff (d2);
  }
}

static void
test_errors (void)
{
  static const struct {
    const char *doc;
    const char *fragment;
  } cases[] = {
    { "not json", "not valid JSON" },
    { "[1,2]", "object" },
    { "{\"flamebearer\":{\"names\":5,\"levels\":[]}}", "names" },
    { "{\"flamebearer\":{\"names\":[1],\"levels\":[[0,1,1,0]]}}", "name 0" },
    { "{\"flamebearer\":{\"names\":[\"total\"],\"levels\":\"x\"}}", "levels" },
    { "{\"flamebearer\":{\"names\":[\"total\"],\"levels\":[[0,1,1]]}}", "multiple of 4" },
    { "{\"flamebearer\":{\"names\":[\"total\"],\"levels\":[[0,1,1,\"x\"]]}}", "not an integer" },
    { "{\"flamebearer\":{\"names\":[\"total\"],\"levels\":[[0,1,1,7]]}}", "name 7" },
    { "{\"flamebearer\":{\"names\":[\"total\"],\"levels\":[[0,1,2,0]]}}", "exceeds total" },
    { "{\"flamebearer\":{\"names\":[\"total\"],\"levels\":[[0,-1,0,0]]}}", "negative" },
    { "{\"flamebearer\":{\"names\":[\"total\"],\"levels\":[[0,1,1,0],[0,1,1,0]]}}", "does not fit" },
    { "{\"flamebearer\":{\"names\":[\"total\",\"a\"],\"levels\":[[0,4,0,0],[5,2,2,1]]}}", "outside" },
    { "{\"flamebearer\":{\"names\":[\"total\",\"a\"],\"levels\":[[0,4,0,0],[0,2,2,1]]}}", "not self" },
    { "{\"flamebearer\":{\"names\":[\"total\",\"a\"],\"levels\":[[0,4,0,0,0],[0,4,4,1]]}}", "multiple" },
    { "{\"flamebearer\":{\"names\":[\"total\"],\"levels\":[[0,1,1,0],[0,1,1,0,0,1,1,0]]}}", "does not fit" },
    { "{\"flamebearer\":{\"names\":[\"total\"],\"levels\":[[0,1,1,0]],\"numTicks\":9}}", "total says 9" },
    { "{\"names\":[\"total\"],\"levels\":[]}", "no levels" },
    { "{\"flamegraph\":3}", "flamegraph" },
    { "{\"hello\":1}", "no “flamebearer”" },
    { "{\"flamebearer\":{\"names\":[\"total\"],\"levels\":[[0,9223372036854775807,0,0],[9223372036854775807,5,5,0]]}}", "overflow" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(EmbersProfile) p = parse (cases[i].doc, &error);

      g_assert_null (p);
      g_assert_true (error != NULL && error->domain == EMBERS_PROFILE_ERROR);
      if (strstr (error->message, cases[i].fragment) == NULL)
        g_error ("case %u: “%s” lacks “%s”", i, error->message, cases[i].fragment);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/embers/flamebearer/single-vector", test_single_vector);
  g_test_add_func ("/embers/flamebearer/diff-vector", test_diff_vector);
  g_test_add_func ("/embers/flamebearer/round-trip", test_round_trip);
  g_test_add_func ("/embers/flamebearer/errors", test_errors);

  return g_test_run ();
}
