/* test-folded.c: folded stacks, read and write
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "embers-diff.h"
#include "embers-format.h"
#include "embers-profile-builder.h"
#include "embers-readers.h"
#include "embers-top.h"

static EmbersProfile *
parse (const char *text,
       GError    **error)
{
  return embers_folded_parse (text, strlen (text), error);
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
  g_error ("no node “%s”", stack);
  return 0;
}

static void
assert_node (EmbersProfile *p,
             const char    *stack,
             gint64         self,
             gint64         total)
{
  guint32 node = find (p, stack);

  g_assert_cmpint (embers_profile_node_self (p, 0, node), ==, self);
  g_assert_cmpint (embers_profile_node_total (p, 0, node), ==, total);
}

static void
assert_writes (EmbersProfile *p,
               guint          sample_type,
               const char    *expected)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) out = embers_folded_write (p, sample_type, &error);

  g_assert_no_error (error);
  g_assert_cmpmem (g_bytes_get_data (out, NULL), g_bytes_get_size (out), expected, strlen (expected));
}

static EmbersProfile *
load_fixture (const char *name)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fixtures", "folded", name, NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  EmbersProfile *p = embers_profile_load_file (file, NULL, &error);

  g_assert_no_error (error);
  return p;
}

static void
test_folded_basic (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersProfile) p = parse ("main;a 3\nmain;b;c 2\nmain 1\nmain;a 4\n", &error);

  g_assert_no_error (error);
  g_assert_cmpuint (embers_profile_get_n_sample_types (p), ==, 1);
  g_assert_cmpstr (embers_profile_get_sample_type (p, 0), ==, "samples");
  g_assert_cmpstr (embers_profile_get_sample_unit (p, 0), ==, "count");
  g_assert_false (embers_profile_is_diff (p));
  g_assert_cmpint (embers_profile_get_total (p, 0), ==, 10);
  /* total, main, a, b, c */
  g_assert_cmpuint (embers_profile_get_n_nodes (p), ==, 5);
  g_assert_cmpstr (embers_profile_node_name_str (p, 0), ==, "total");
  /* Repeated stacks add up */
  assert_node (p, "main;a", 7, 7);
  assert_node (p, "main", 1, 10);
  assert_node (p, "main;b", 0, 2);
  assert_node (p, "main;b;c", 2, 2);

  /* Root-first frames, DFS pre-order, only nodes with self */
  assert_writes (p, 0, "main 1\nmain;a 7\nmain;b;c 2\n");
}

/* The count follows the last space: frames keep theirs */
static void
test_folded_spaces (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersProfile) p = parse ("java;java.util.HashMap get 5\n"
                                      "a;std::vector<int>::push_back (inlined) 7\n"
                                      "x y z\t2\n"
                                      "tabs\tin\tframe;f   \t 4\n", &error);

  g_assert_no_error (error);
  g_assert_cmpint (embers_profile_get_total (p, 0), ==, 18);
  assert_node (p, "java;java.util.HashMap get", 5, 5);
  assert_node (p, "a;std::vector<int>::push_back (inlined)", 7, 7);
  assert_node (p, "x y z", 2, 2);
  /* White space before the count is not part of the last frame */
  assert_node (p, "tabs\tin\tframe;f", 4, 4);
}

static void
test_folded_tolerant (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersProfile) p = NULL;

  /* Blank lines, \r\n, white space around lines, no final newline,
   * empty frames, a byte order mark */
  p = parse ("\xef\xbb\xbf\n\r\nfoo bar;baz qux 10\r\n   a;;b  5  \r\n\t\n;a; 2\nc 1", &error);
  g_assert_no_error (error);
  g_assert_cmpint (embers_profile_get_total (p, 0), ==, 18);
  assert_node (p, "foo bar;baz qux", 10, 10);
  assert_node (p, "a;b", 5, 5);
  assert_node (p, "a", 2, 7);
  assert_node (p, "c", 1, 1);
  g_clear_object (&p);

  /* A line of nothing but separators is the root's own */
  p = parse (";; 4\nmain 1\n", &error);
  g_assert_no_error (error);
  g_assert_cmpint (embers_profile_get_total (p, 0), ==, 5);
  g_assert_cmpint (embers_profile_node_self (p, 0, 0), ==, 4);
  /* and is written where folded readers expect it */
  assert_writes (p, 0, "[unknown] 4\nmain 1\n");
  g_clear_object (&p);

  /* Zero counts are valid and add nothing */
  p = parse ("a 0\nb 3\n", &error);
  g_assert_no_error (error);
  g_assert_cmpint (embers_profile_get_total (p, 0), ==, 3);
  assert_writes (p, 0, "b 3\n");
  g_clear_object (&p);

  /* The largest count there is */
  p = parse ("a 9223372036854775807\n", &error);
  g_assert_no_error (error);
  g_assert_cmpint (embers_profile_get_total (p, 0), ==, G_MAXINT64);
}

/* stackcollapse-perf.pl style, \r\n line ends: kernel frames with _[k],
 * Java frames with spaces, a blank line, a padded repeated stack */
static void
test_folded_perf_fixture (void)
{
  g_autoptr(EmbersProfile) p = load_fixture ("perf.folded");
  g_autoptr(GArray) rows = NULL;
  gboolean seen_get = FALSE, seen_handle = FALSE;

  g_assert_cmpint (embers_profile_get_total (p, 0), ==, 120 + 37 + 5 + 58 + 3);
  assert_node (p, "swapper;[unknown]_[k];cpu_startup_entry_[k];do_idle_[k]", 120, 120);
  assert_node (p, "nginx;ngx_process_events_and_timers;epoll_wait;entry_SYSCALL_64_after_hwframe_[k]", 58, 58);
  assert_node (p, "java;java.lang.Thread.run", 0, 45);

  rows = embers_top_compute (p, 0);
  for (guint i = 0; i < rows->len; i++)
    {
      EmbersTopRow *row = &g_array_index (rows, EmbersTopRow, i);
      const char *name = embers_profile_get_string (p, row->name);

      if (g_str_equal (name, "java.util.HashMap get"))
        {
          g_assert_cmpint (row->self, ==, 40);
          g_assert_cmpint (row->total, ==, 40);
          seen_get = TRUE;
        }
      if (g_str_equal (name, "com.acme.Server$Handler.handle (Server.java:42)"))
        {
          g_assert_cmpint (row->self, ==, 5);
          g_assert_cmpint (row->total, ==, 45);
          seen_handle = TRUE;
        }
    }
  g_assert_true (seen_get && seen_handle);

  /* Written back sorted, with \n */
  assert_writes (p, 0,
                 "java;java.lang.Thread.run;com.acme.Server$Handler.handle (Server.java:42) 5\n"
                 "java;java.lang.Thread.run;com.acme.Server$Handler.handle (Server.java:42);java.util.HashMap get 40\n"
                 "nginx;ngx_process_events_and_timers;epoll_wait;entry_SYSCALL_64_after_hwframe_[k] 58\n"
                 "swapper;[unknown]_[k];cpu_startup_entry_[k];do_idle_[k] 120\n");
}

/* C++ frames with spaces and "(inlined)", a tab before a count, blank
 * lines, no final newline */
static void
test_folded_cpp_fixture (void)
{
  g_autoptr(EmbersProfile) p = load_fixture ("cpp.folded");

  g_assert_cmpint (embers_profile_get_total (p, 0), ==, 95);
  assert_node (p, "main", 1, 95);
  assert_node (p, "main;run", 0, 90);
  assert_node (p, "main;run;std::vector<int>::push_back (inlined)", 40, 52);
  assert_node (p, "main;run;std::vector<int>::push_back (inlined);operator new(unsigned long)", 12, 12);
  assert_node (p, "main;run;compute(int, double)", 8, 38);
  assert_node (p, "main;run;compute(int, double);std::sqrt (inlined)", 30, 30);
  assert_node (p, "main;io::read_all(std::string const&);read_[k]", 4, 4);
  g_assert_cmpuint (embers_profile_get_n_nodes (p), ==, 9);
}

/* folded -> profile -> folded is the identity on sorted input */
static void
test_folded_round_trip (void)
{
  static const char *inputs[] = {
    "a 1\n",
    "main 1\nmain;a 7\nmain;b;c 2\n",
    ("java;java.lang.Thread.run 2\njava;java.lang.Thread.run;java.util.HashMap get 3\n"
     "swapper;do_idle_[k] 120\nzz 1000\n"),
    "f(a, b);g (inlined) 4\nf(a, b);h 5\nü;日本 6\n",
  };

  for (guint i = 0; i < G_N_ELEMENTS (inputs); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(EmbersProfile) p = parse (inputs[i], &error);

      g_assert_no_error (error);
      assert_writes (p, 0, inputs[i]);
    }

  /* Unsorted, repeated, messy input comes out sorted and summed, and that
   * output reads back to the same tree */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(EmbersProfile) p = load_fixture ("cpp.folded");
    g_autoptr(GBytes) out = embers_folded_write (p, 0, &error);
    g_autoptr(EmbersProfile) again = NULL;
    g_autoptr(GBytes) out2 = NULL;

    g_assert_no_error (error);
    again = embers_folded_parse (g_bytes_get_data (out, NULL), g_bytes_get_size (out), &error);
    g_assert_no_error (error);
    g_assert_cmpuint (embers_profile_get_n_nodes (again), ==, embers_profile_get_n_nodes (p));
    g_assert_cmpint (embers_profile_get_total (again, 0), ==, 95);
    out2 = embers_folded_write (again, 0, &error);
    g_assert_true (g_bytes_equal (out, out2));
  }
}

/* The writer writes the sample type it is asked for */
static void
test_folded_write_sample_type (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersProfile) l = parse ("a;b 1\na;c 2\n", &error);
  g_autoptr(EmbersProfile) r = parse ("a;b 4\na;d 8\n", &error);
  g_autoptr(EmbersProfile) d = embers_diff_profiles (l, 0, r, 0, &error);

  g_assert_no_error (error);
  assert_writes (d, EMBERS_DIFF_BASELINE, "a;b 1\na;c 2\n");
  assert_writes (d, EMBERS_DIFF_COMPARISON, "a;b 4\na;d 8\n");
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
    { "main;a 3\nmain;b\n", EMBERS_PROFILE_ERROR_INVALID, "line 2 does not end in a count" },
    { "main;a 3\n\nmain;b\r\n", EMBERS_PROFILE_ERROR_INVALID, "line 3" },
    { "main;a 3x\n", EMBERS_PROFILE_ERROR_INVALID, "line 1 does not end in a count" },
    { "main;a 3.5\n", EMBERS_PROFILE_ERROR_INVALID, "line 1 does not end in a count" },
    { "main;a 1e3\n", EMBERS_PROFILE_ERROR_INVALID, "line 1 does not end in a count" },
    { "main;a +3\n", EMBERS_PROFILE_ERROR_INVALID, "line 1 does not end in a count" },
    { "main;a3\n", EMBERS_PROFILE_ERROR_INVALID, "line 1 does not end in a count" },
    { "a 1\nmain;a -3\n", EMBERS_PROFILE_ERROR_INVALID, "count on line 2 is negative" },
    { "-3\n", EMBERS_PROFILE_ERROR_INVALID, "count on line 1 is negative" },
    { "42\n", EMBERS_PROFILE_ERROR_INVALID, "line 1 does not end in a count" },
    { "a 1\nb 2\nmain;a 99999999999999999999\n", EMBERS_PROFILE_ERROR_TOO_LARGE, "count on line 3 is too large" },
    { "main;a 9223372036854775808\n", EMBERS_PROFILE_ERROR_TOO_LARGE, "count on line 1 is too large" },
    { "a 9223372036854775807\nb 9223372036854775807\n", EMBERS_PROFILE_ERROR_TOO_LARGE, "64-bit" },
    { "a 1\nmain;\xff\xfe 3\n", EMBERS_PROFILE_ERROR_INVALID, "line 2 is not valid UTF-8" },
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

  /* Lengths are honoured: no NUL needed, nothing read past the end */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(EmbersProfile) p = embers_folded_parse ("a 12garbage", 4, &error);

    g_assert_no_error (error);
    g_assert_cmpint (embers_profile_get_total (p, 0), ==, 12);
  }
}

static void
test_folded_writer_escapes (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersProfile) from_json = NULL;
  g_autoptr(GBytes) folded = NULL;
  g_autoptr(EmbersProfile) again = NULL;
  const char *doc = "{\"names\":[\"total\",\"a;b\",\"line\\nbreak\",\" \"],"
                    "\"levels\":[{\"values\":[\"0\",\"6\",\"1\",\"0\"]},"
                    "{\"values\":[\"1\",\"2\",\"2\",\"1\",\"0\",\"2\",\"2\",\"2\",\"0\",\"1\",\"1\",\"3\"]}],"
                    "\"total\":\"6\"}";

  /* Names the line format cannot hold: separators, line breaks, blanks */
  from_json = embers_flamebearer_parse (doc, strlen (doc), &error);
  g_assert_no_error (error);
  folded = embers_folded_write (from_json, 0, &error);
  g_assert_no_error (error);
  /* Root self first, then " " < "a;b" < "line\nbreak" */
  assert_writes (from_json, 0, "[unknown] 1\n[unknown] 1\na:b 2\nline\xe2\x90\x8a" "break 2\n");
  again = embers_folded_parse (g_bytes_get_data (folded, NULL), g_bytes_get_size (folded), &error);
  g_assert_no_error (error);
  g_assert_cmpint (embers_profile_get_total (again, 0), ==, 6);
}

/* Issue 15, failure 9: names with control characters made a folded file
 * that the sniffer called binary. Every name the writer gets must come
 * back through embers_profile_load_bytes() (sniffing included), and
 * writing what came back gives the same bytes. */
static void
test_folded_writer_hostile_names (void)
{
  static const struct {
    const char *name;
    const char *written;
  } cases[] = {
    { "esc\x1b[31mred", "esc\xe2\x90\x9b[31mred" },
    { "bell\x07", "bell\xe2\x90\x87" },
    { "del\x7f", "del\xe2\x90\xa1" },
    { "cr\rlf\n", "cr\xe2\x90\x8dlf\xe2\x90\x8a" },
    { "in\ttab", "in\ttab" },
    { "\t edges \t", "edges" },
    { "semi;colon", "semi:colon" },
    { "{{closure}}", "{{closure}}" },
    { "{\"json\": 1}", "{\"json\": 1}" },
    { "\xef\xbb\xbf" "bom", "\xef\xbb\xbf" "bom" },
    { "bad\xff" "utf8", "bad\xef\xbf\xbd" "utf8" },
    { "name 12", "name 12" },
    { "c1\xc2\x9b" "csi", "c1\xc2\x9b" "csi" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      /* The name as a root, and as a leaf under "main" */
      for (guint as_root = 0; as_root < 2; as_root++)
        {
          g_autoptr(EmbersProfileBuilder) b = embers_profile_builder_new ();
          g_autoptr(EmbersProfile) p = NULL;
          g_autoptr(EmbersProfile) again = NULL;
          g_autoptr(GBytes) out = NULL;
          g_autoptr(GBytes) out2 = NULL;
          g_autoptr(GError) error = NULL;
          g_autofree char *expected = NULL;
          guint32 stack[2];
          gint64 value = 3;
          const char *text;

          embers_profile_builder_add_sample_type (b, "samples", "count");
          stack[0] = embers_profile_builder_intern (b, as_root ? cases[i].name : "main", -1);
          stack[1] = embers_profile_builder_intern (b, cases[i].name, -1);
          embers_profile_builder_add_stack (b, stack, as_root ? 1 : 2, &value, 0);
          p = embers_profile_builder_finish (b, &error);
          g_assert_no_error (error);

          out = embers_profile_save_bytes (p, EMBERS_FORMAT_FOLDED, 0, FALSE, &error);
          g_assert_no_error (error);
          text = g_bytes_get_data (out, NULL);
          /* A root that would make the sniffer think of JSON or eat a byte
           * order mark gets an empty frame first */
          expected = as_root ? g_strdup_printf ("%s%s 3\n",
                                                cases[i].written[0] == '{' ||
                                                g_str_has_prefix (cases[i].written, "\xef\xbb\xbf") ? ";" : "",
                                                cases[i].written)
                             : g_strdup_printf ("main;%s 3\n", cases[i].written);
          g_assert_cmpmem (text, g_bytes_get_size (out), expected, strlen (expected));

          again = embers_profile_load_bytes (out, NULL, &error);
          g_assert_no_error (error);
          g_assert_cmpint (embers_profile_get_total (again, 0), ==, 3);
          g_assert_cmpuint (embers_profile_get_n_nodes (again), ==, as_root ? 2 : 3);
          out2 = embers_profile_save_bytes (again, EMBERS_FORMAT_FOLDED, 0, FALSE, &error);
          g_assert_no_error (error);
          g_assert_true (g_bytes_equal (out, out2));
        }
    }
}

/* One pass: a large file reads in linear time */
static void
test_folded_large (void)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersProfile) p = NULL;
  gint64 expected = 0;
  gint64 start;
  double seconds;

  for (guint i = 0; i < 300000; i++)
    {
      g_string_append_printf (text, "main;svc%u;handler%u;java.util.HashMap get;leaf%u %u\n",
                              i % 10, i % 100, i % 5000, i % 7 + 1);
      expected += i % 7 + 1;
    }

  start = g_get_monotonic_time ();
  p = embers_folded_parse (text->str, text->len, &error);
  seconds = (g_get_monotonic_time () - start) / 1e6;
  g_assert_no_error (error);
  g_test_message ("%zu bytes, %u nodes in %.3f s", text->len, embers_profile_get_n_nodes (p), seconds);
  g_assert_cmpint (embers_profile_get_total (p, 0), ==, expected);
  /* root, main, 10 svc, 100 handlers, 100 "get", 5000 leaves (i % 5000
   * fixes i % 100, which fixes i % 10: each node has one parent) */
  g_assert_cmpuint (embers_profile_get_n_nodes (p), ==, 1 + 1 + 10 + 100 + 100 + 5000);
  /* Generous: a quadratic reader would take minutes */
  g_assert_cmpfloat (seconds, <, 10.0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/embers/folded/basic", test_folded_basic);
  g_test_add_func ("/embers/folded/spaces", test_folded_spaces);
  g_test_add_func ("/embers/folded/tolerant", test_folded_tolerant);
  g_test_add_func ("/embers/folded/perf-fixture", test_folded_perf_fixture);
  g_test_add_func ("/embers/folded/cpp-fixture", test_folded_cpp_fixture);
  g_test_add_func ("/embers/folded/round-trip", test_folded_round_trip);
  g_test_add_func ("/embers/folded/write-sample-type", test_folded_write_sample_type);
  g_test_add_func ("/embers/folded/errors", test_folded_errors);
  g_test_add_func ("/embers/folded/writer-escapes", test_folded_writer_escapes);
  g_test_add_func ("/embers/folded/writer-hostile-names", test_folded_writer_hostile_names);
  g_test_add_func ("/embers/folded/large", test_folded_large);

  return g_test_run ();
}
