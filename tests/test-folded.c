/* test-folded.c: folded stacks, read and write
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "embers-format.h"
#include "embers-readers.h"
#include "embers-top.h"

static EmbersProfile *
parse (const char *text,
       GError    **error)
{
  return embers_folded_parse (text, strlen (text), error);
}

static void
test_folded_basic (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersProfile) p = parse ("main;a 3\nmain;b;c 2\nmain 1\nmain;a 4\n", &error);
  g_autoptr(GBytes) out = NULL;

  g_assert_no_error (error);
  g_assert_cmpstr (embers_profile_get_sample_type (p, 0), ==, "samples");
  g_assert_cmpstr (embers_profile_get_sample_unit (p, 0), ==, "count");
  g_assert_cmpint (embers_profile_get_total (p, 0), ==, 10);
  /* total, main, a, b, c */
  g_assert_cmpuint (embers_profile_get_n_nodes (p), ==, 5);
  g_assert_cmpint (embers_profile_node_self (p, 0, 2), ==, 7);

  /* Sorted input round-trips byte for byte */
  out = embers_folded_write (p, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpmem (g_bytes_get_data (out, NULL), g_bytes_get_size (out),
                   "main 1\nmain;a 7\nmain;b;c 2\n", 27);
}

static void
test_folded_tolerant (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersProfile) p = NULL;
  g_autoptr(GArray) rows = NULL;
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fixtures", "folded", "perf.folded", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);

  /* Blank lines, \r\n, spaces inside frames, no final newline, empty frames */
  p = parse ("\n\r\nfoo bar;baz qux 10\r\n   a;;b  5  \r\n\nc 1", &error);
  g_assert_no_error (error);
  g_assert_cmpint (embers_profile_get_total (p, 0), ==, 16);
  {
    g_autofree char *s1 = embers_profile_node_stack (p, 2, ";");
    g_assert_cmpstr (s1, ==, "a;b");
  }
  g_clear_object (&p);

  /* A stackcollapse-perf.pl style file, with Java frames and kernel frames */
  p = embers_profile_load_file (file, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (embers_profile_get_total (p, 0), ==, 120 + 37 + 5 + 58 + 3);
  rows = embers_top_compute (p, 0);
  for (guint i = 0; i < rows->len; i++)
    {
      EmbersTopRow *row = &g_array_index (rows, EmbersTopRow, i);
      const char *name = embers_profile_get_string (p, row->name);

      if (g_str_equal (name, "java.util.HashMap get"))
        {
          g_assert_cmpint (row->self, ==, 40);
          g_assert_cmpint (row->total, ==, 40);
        }
      if (g_str_equal (name, "com.acme.Server$Handler.handle (Server.java:42)"))
        {
          g_assert_cmpint (row->self, ==, 5);
          g_assert_cmpint (row->total, ==, 45);
        }
    }
}

static void
test_folded_errors (void)
{
  static const struct {
    const char *text;
    int         code;
    const char *fragment;
  } cases[] = {
    { "", EMBERS_PROFILE_ERROR_EMPTY, "no stacks" },
    { "\n\n  \r\n", EMBERS_PROFILE_ERROR_EMPTY, "no stacks" },
    { "main;a 3\nmain;b\n", EMBERS_PROFILE_ERROR_INVALID, "line 2" },
    { "main;a 3x\n", EMBERS_PROFILE_ERROR_INVALID, "line 1" },
    { "main;a -3\n", EMBERS_PROFILE_ERROR_INVALID, "line 1" },
    { "42\n", EMBERS_PROFILE_ERROR_INVALID, "count" },
    { "main;a 99999999999999999999\n", EMBERS_PROFILE_ERROR_TOO_LARGE, "too large" },
    { "a 9223372036854775807\nb 9223372036854775807\n", EMBERS_PROFILE_ERROR_TOO_LARGE, "64-bit" },
    { "main;\xff\xfe 3\n", EMBERS_PROFILE_ERROR_INVALID, "UTF-8" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(EmbersProfile) p = parse (cases[i].text, &error);

      g_assert_null (p);
      g_assert_error (error, EMBERS_PROFILE_ERROR, cases[i].code);
      if (strstr (error->message, cases[i].fragment) == NULL)
        g_error ("case %u: “%s” lacks “%s”", i, error->message, cases[i].fragment);
    }
}

static void
test_folded_writer_escapes (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersProfile) p = parse ("main;a 3\n", &error);
  g_autoptr(GBytes) json = NULL;
  g_autoptr(EmbersProfile) from_json = NULL;
  g_autoptr(GBytes) folded = NULL;
  g_autoptr(EmbersProfile) again = NULL;
  const char *doc = "{\"names\":[\"total\",\"a;b\",\"line\\nbreak\",\" \"],"
                    "\"levels\":[{\"values\":[\"0\",\"6\",\"1\",\"0\"]},"
                    "{\"values\":[\"1\",\"2\",\"2\",\"1\",\"0\",\"2\",\"2\",\"2\",\"0\",\"1\",\"1\",\"3\"]}],"
                    "\"total\":\"6\"}";

  g_assert_no_error (error);
  /* Names the line format cannot hold: separators, line breaks, blanks */
  from_json = embers_flamebearer_parse (doc, strlen (doc), &error);
  g_assert_no_error (error);
  folded = embers_folded_write (from_json, 0, &error);
  g_assert_no_error (error);
  again = embers_folded_parse (g_bytes_get_data (folded, NULL), g_bytes_get_size (folded), &error);
  g_assert_no_error (error);
  g_assert_cmpint (embers_profile_get_total (again, 0), ==, 6);
  g_assert_nonnull (g_strstr_len (g_bytes_get_data (folded, NULL), g_bytes_get_size (folded), "[unknown] 1\n"));
  g_assert_nonnull (g_strstr_len (g_bytes_get_data (folded, NULL), g_bytes_get_size (folded), "a:b 2\n"));
  g_assert_nonnull (g_strstr_len (g_bytes_get_data (folded, NULL), g_bytes_get_size (folded), "line break 2\n"));
  (void)json;
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/embers/folded/basic", test_folded_basic);
  g_test_add_func ("/embers/folded/tolerant", test_folded_tolerant);
  g_test_add_func ("/embers/folded/errors", test_folded_errors);
  g_test_add_func ("/embers/folded/writer-escapes", test_folded_writer_escapes);

  return g_test_run ();
}
