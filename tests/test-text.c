/* test-text.c: text that leaves Embers safely: the --top escapes and
 * masked passwords (issue 15, failures 8 and 10)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "embers-diff.h"
#include "embers-profile-builder.h"
#include "embers-text.h"
#include "embers-top.h"

static void
test_text_escape (void)
{
  static const struct {
    const char *in;
    const char *out;
  } cases[] = {
    { "main.run", "main.run" },
    { "", "" },
    { "tab\there", "tab\\there" },
    { "two\nlines\r\n", "two\\nlines\\r\\n" },
    { "back\\slash", "back\\\\slash" },
    { "\x1b[31mred\x1b[0m", "\\x1b[31mred\\x1b[0m" },
    { "\x1b]8;;http://evil\x07link", "\\x1b]8;;http://evil\\x07link" },
    { "bell\x07 del\x7f", "bell\\x07 del\\x7f" },
    { "c1 csi\xc2\x9b" "2J", "c1 csi\\u009b2J" },
    { "bidi \xe2\x80\xae" "reversed\xe2\x80\xac", "bidi \\u202ereversed\\u202c" },
    { "iso\xe2\x81\xa6late\xe2\x81\xa9", "iso\\u2066late\\u2069" },
    { "zw\xe2\x80\x8bsp", "zw\\u200bsp" },
    { "ls\xe2\x80\xa8ps\xe2\x80\xa9", "ls\\u2028ps\\u2029" },
    { "\xef\xbb\xbf" "bom", "\\ufeffbom" },
    { "bad\xff\xfe" "bytes", "bad\\xff\\xfebytes" },
    { "cut\xe2\x82", "cut\\xe2\\x82" },
    { "ü 日本 € 🔥", "ü 日本 € 🔥" },
    { "std::vector<int>::push_back (inlined)", "std::vector<int>::push_back (inlined)" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *out = embers_text_escape (cases[i].in);

      g_assert_cmpstr (out, ==, cases[i].out);
      g_assert_true (g_utf8_validate (out, -1, NULL));
      for (const char *p = out; *p; p++)
        g_assert_true ((guchar)*p >= 0x20 && *p != 0x7f);
    }
}

/* --top and --diff --top: one row per function, exactly its columns,
 * whatever the names hold */
static void
test_text_top_rows (void)
{
  static const char *names[] = {
    "fake\t1\t2\tforged", "two\nrows", "\x1b[2J\x1b[Hclear", "plain", "bad\xff",
  };
  g_autoptr(EmbersProfileBuilder) b = embers_profile_builder_new ();
  g_autoptr(EmbersProfileBuilder) b2 = embers_profile_builder_new ();
  g_autoptr(EmbersProfile) p = NULL;
  g_autoptr(EmbersProfile) p2 = NULL;
  g_autoptr(EmbersProfile) diff = NULL;
  g_autoptr(GArray) rows = NULL;
  g_autoptr(GArray) diff_rows = NULL;
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GString) diff_out = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) lines = NULL;

  embers_profile_builder_add_sample_type (b, "samples", "count");
  embers_profile_builder_add_sample_type (b2, "samples", "count");
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      guint32 stack[2];
      gint64 value = i + 1;

      stack[0] = embers_profile_builder_intern (b, "main", -1);
      stack[1] = embers_profile_builder_intern (b, names[i], -1);
      embers_profile_builder_add_stack (b, stack, 2, &value, 0);
      stack[0] = embers_profile_builder_intern (b2, "main", -1);
      stack[1] = embers_profile_builder_intern (b2, names[i], -1);
      value *= 2;
      embers_profile_builder_add_stack (b2, stack, 2, &value, 0);
    }
  p = embers_profile_builder_finish (b, &error);
  g_assert_no_error (error);
  p2 = embers_profile_builder_finish (b2, &error);
  g_assert_no_error (error);

  rows = embers_top_compute (p, 0);
  embers_top_print (rows, p, 0, out);
  lines = g_strsplit (out->str, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, G_N_ELEMENTS (names) + 2);  /* + main, + "" */
  for (guint i = 0; lines[i] != NULL && lines[i][0] != '\0'; i++)
    {
      g_auto(GStrv) cols = g_strsplit (lines[i], "\t", -1);

      g_assert_cmpuint (g_strv_length (cols), ==, 3);
    }
  g_assert_null (strchr (out->str, '\x1b'));
  g_assert_nonnull (strstr (out->str, "\tfake\\t1\\t2\\tforged\n"));
  g_assert_nonnull (strstr (out->str, "\ttwo\\nrows\n"));
  g_assert_nonnull (strstr (out->str, "\t\\x1b[2J\\x1b[Hclear\n"));
  g_assert_nonnull (strstr (out->str, "\tbad\\xff\n"));

  diff = embers_diff_profiles (p, 0, p2, 0, &error);
  g_assert_no_error (error);
  diff_rows = embers_diff_top_compute (diff);
  embers_diff_top_print (diff_rows, diff, EMBERS_DIFF_MODE_SHARE, 0, diff_out);
  g_clear_pointer (&lines, g_strfreev);
  lines = g_strsplit (diff_out->str, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, G_N_ELEMENTS (names) + 2);
  for (guint i = 0; lines[i] != NULL && lines[i][0] != '\0'; i++)
    {
      g_auto(GStrv) cols = g_strsplit (lines[i], "\t", -1);

      g_assert_cmpuint (g_strv_length (cols), ==, 6);
    }
  g_assert_null (strchr (diff_out->str, '\x1b'));
}

static void
test_text_mask (void)
{
  static const struct {
    const char *in;
    const char *out;
  } cases[] = {
    { "http://user:secret@host:4040/path", "http://user:***@host:4040/path" },
    { "https://u:s3cr%40t@h/?query=a&b=c", "https://u:***@h/?query=a&b=c" },
    { "http://u:p@ss@host/", "http://u:***@host/" },
    { "http://user@host/", "http://user@host/" },
    { "http://host:4040/?query=x{a=\"b@c\"}", "http://host:4040/?query=x{a=\"b@c\"}" },
    { "“http://a:b@h” is not a query URL", "“http://a:***@h” is not a query URL" },
    { "from http://a:1@x and https://b:2@y.", "from http://a:***@x and https://b:***@y." },
    { "no url here: just text @ and :", "no url here: just text @ and :" },
    { "http://u:pa\"s'w<o>rd\\{x}@host", "http://u:***@host" },
    { "http://u:p€ss@host#frag", "http://u:***@host#frag" },
    { "ftp://u:p@h", "ftp://u:***@h" },
    { "http://:@h", "http://:***@h" },
    { "", "" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *out = embers_text_mask_credentials (cases[i].in);

      g_assert_cmpstr (out, ==, cases[i].out);
    }
  g_assert_null (embers_text_mask_credentials (NULL));
}

/* Fits when the candidate has at most GPOINTER_TO_UINT (data) characters */
static gboolean
fits_chars (const char *text,
            gpointer    data)
{
  g_assert_true (g_utf8_validate (text, -1, NULL));
  return (guint)g_utf8_strlen (text, -1) <= GPOINTER_TO_UINT (data);
}

/* Issue 16.4: a name is cut at its package path first, its function name
 * last, never in the middle ("regexp/… ompile") */
static void
test_text_shorten (void)
{
  static const struct {
    const char *in;
    guint       chars;
    const char *out;
  } cases[] = {
    /* Go */
    { "regexp/syntax.(*compiler).compile", 40, "regexp/syntax.(*compiler).compile" },
    { "regexp/syntax.(*compiler).compile", 33, "regexp/syntax.(*compiler).compile" },
    { "regexp/syntax.(*compiler).compile", 32, "…syntax.(*compiler).compile" },
    { "regexp/syntax.(*compiler).compile", 26, "…(*compiler).compile" },
    { "regexp/syntax.(*compiler).compile", 19, "…compile" },
    { "regexp/syntax.(*compiler).compile", 8, "…compile" },
    { "regexp/syntax.(*compiler).compile", 6, "…comp…" },
    { "regexp/syntax.(*compiler).compile", 3, "…c…" },
    { "regexp/syntax.(*compiler).compile", 2, "…" },
    { "github.com/grafana/pyroscope/pkg/model.(*Tree).Insert", 30, "…pkg/model.(*Tree).Insert" },
    { "main.main.func1", 12, "…main.func1" },
    /* Go closures and numbered parts stay with their function */
    { "main.writeCPULabels.func5.1.1", 14, "…func5.1.1" },
    { "main.writeCPULabels.func5.1.1", 9, "…func5.1…" },
    { "lib/python3.11/json/decoder.py.decode", 27, "…json/decoder.py.decode" },
    /* C++: the "::" inside the template arguments are not cuts */
    { "std::vector<std::string, std::allocator<std::string>>::push_back(std::string const&)", 60,
      "…push_back(std::string const&)" },
    { "std::vector<int>::push_back(int const&)", 36, "…vector<int>::push_back(int const&)" },
    { "a::operator->()", 13, "…operator->()" },
    /* Java: the dots of the file position stay */
    { "com.example.shop.Checkout.pay(Checkout.java:42)", 38, "…shop.Checkout.pay(Checkout.java:42)" },
    { "com.example.shop.Checkout.pay(Checkout.java:42)", 25, "…pay(Checkout.java:42)" },
    /* Rust */
    { "core::ptr::drop_in_place<alloc::vec::Vec<u8>>", 41, "…ptr::drop_in_place<alloc::vec::Vec<u8>>" },
    { "<alloc::vec::Vec<T> as core::ops::Drop>::drop", 10, "…drop" },
    /* Python-ish: dotted modules; py-spy's "function (file:line)" has no
     * cut outside its brackets and is cut at its end */
    { "app.worker.jobs.process", 16, "…jobs.process" },
    { "process (app/worker.py:12)", 12, "process (ap…" },
    { "<module>", 6, "<modu…" },
    /* Hostile */
    { "", 0, "" },
    { "////", 2, "/…" },
    { "....", 3, "..…" },
    { "::::a", 3, "…a" },
    { ")))(((a.b", 5, ")))(…" },
    { "((((a.b.c", 6, "((((a…" },
    { "a.b", 0, "…" },
    { "\xff\xfe" "bad.name", 7, "…name" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *got = embers_text_shorten_name (cases[i].in, fits_chars, GUINT_TO_POINTER (cases[i].chars));

      g_test_message ("%s in %u: %s", cases[i].in, cases[i].chars, got);
      g_assert_cmpstr (got, ==, cases[i].out);
    }

  {
    g_autofree char *got = embers_text_shorten_name (NULL, fits_chars, GUINT_TO_POINTER (4));

    g_assert_cmpstr (got, ==, "");
  }

  /* A long hostile name: every candidate stays valid UTF-8 (fits_chars
   * checks), and the answer fits */
  {
    g_autoptr(GString) big = g_string_new (NULL);
    g_autofree char *got = NULL;

    for (guint i = 0; i < 5000; i++)
      g_string_append (big, i % 7 == 0 ? "::" : i % 5 == 0 ? "\xc3" "" : i % 3 == 0 ? "<" : "é.");
    got = embers_text_shorten_name (big->str, fits_chars, GUINT_TO_POINTER (20));
    g_assert_cmpuint (g_utf8_strlen (got, -1), <=, 20);
  }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/embers/text/escape", test_text_escape);
  g_test_add_func ("/embers/text/top-rows", test_text_top_rows);
  g_test_add_func ("/embers/text/mask", test_text_mask);
  g_test_add_func ("/embers/text/shorten", test_text_shorten);

  return g_test_run ();
}
