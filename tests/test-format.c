/* test-format.c: gzip, sniffing, file names, unit formatting
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <locale.h>
#include <string.h>
#include <zlib.h>
#include <glib/gstdio.h>
#include <unistd.h>

#include "embers-format.h"
#include "embers-units.h"
#include "embers-test-wait.h"

static void
test_format_gzip_round_trip (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) packed = NULL;
  g_autoptr(GBytes) unpacked = NULL;
  g_autoptr(GString) text = g_string_new (NULL);
  const guint8 *data;
  gsize len;

  for (guint i = 0; i < 10000; i++)
    g_string_append_printf (text, "main;work;fn%u %u\n", i % 97, i);

  packed = embers_gzip ((const guint8 *)text->str, text->len, &error);
  g_assert_no_error (error);
  data = g_bytes_get_data (packed, &len);
  g_assert_true (embers_is_gzip (data, len));
  g_assert_cmpuint (len, <, text->len);

  unpacked = embers_gunzip (data, len, 1024 * 1024 * 1024, &error);
  g_assert_no_error (error);
  g_assert_cmpmem (g_bytes_get_data (unpacked, NULL), g_bytes_get_size (unpacked), text->str, text->len);
}

static void
test_format_gzip_members (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) a = embers_gzip ((const guint8 *)"hello ", 6, &error);
  g_autoptr(GBytes) b = embers_gzip ((const guint8 *)"world", 5, &error);
  g_autoptr(GByteArray) both = g_byte_array_new ();
  g_autoptr(GBytes) out = NULL;

  g_byte_array_append (both, g_bytes_get_data (a, NULL), g_bytes_get_size (a));
  g_byte_array_append (both, g_bytes_get_data (b, NULL), g_bytes_get_size (b));
  out = embers_gunzip (both->data, both->len, 1024, &error);
  g_assert_no_error (error);
  g_assert_cmpmem (g_bytes_get_data (out, NULL), g_bytes_get_size (out), "hello world", 11);
}

static void
test_format_gzip_limits (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree guint8 *zeros = g_malloc0 (4 * 1024 * 1024);
  g_autoptr(GBytes) bomb = embers_gzip (zeros, 4 * 1024 * 1024, &error);
  g_autoptr(GBytes) out = NULL;
  const guint8 *data;
  gsize len;

  g_assert_no_error (error);
  data = g_bytes_get_data (bomb, &len);
  /* 4 MiB of zeros packs to a few KiB: a tiny bomb against a 1 MiB cap */
  g_assert_cmpuint (len, <, 16 * 1024);
  out = embers_gunzip (data, len, 1024 * 1024, &error);
  g_assert_null (out);
  g_assert_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_TOO_LARGE);
  g_assert_nonnull (strstr (error->message, "1.0"));
  g_assert_nonnull (strstr (error->message, "MB"));
  g_clear_error (&error);

  /* Exactly at the cap is fine */
  out = embers_gunzip (data, len, 4 * 1024 * 1024, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_bytes_get_size (out), ==, 4 * 1024 * 1024);
  g_clear_pointer (&out, g_bytes_unref);

  /* Truncated stream */
  out = embers_gunzip (data, len / 2, 8 * 1024 * 1024, &error);
  g_assert_null (out);
  g_assert_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "truncated"));
  g_clear_error (&error);

  /* Corrupt deflate data after a valid header */
  {
    g_autofree guint8 *bad = g_memdup2 (data, len);

    for (gsize i = 10; i < len - 8; i++)
      bad[i] ^= 0x5a;
    out = embers_gunzip (bad, len, 8 * 1024 * 1024, &error);
    g_assert_null (out);
    g_assert_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_INVALID);
    g_clear_error (&error);
  }
}

static void
test_format_sniff (void)
{
  static const struct {
    const char   *data;
    gsize         len;
    EmbersFormat  format;
  } cases[] = {
    { "main;a;b 42\n", 12, EMBERS_FORMAT_FOLDED },
    { "\n\r\nmain;java.util.HashMap get 7\r\n", 33, EMBERS_FORMAT_FOLDED },
    { "main 1", 6, EMBERS_FORMAT_FOLDED },
    { "  {\"flamebearer\": {}}", 21, EMBERS_FORMAT_FLAMEBEARER },
    { "\xef\xbb\xbf{}", 5, EMBERS_FORMAT_FLAMEBEARER },
    { "\x0a\x04\x08\x01\x10\x02", 6, EMBERS_FORMAT_PPROF },
    { "\x12\x02\x08\x01", 4, EMBERS_FORMAT_PPROF },
    { "hello world\n", 12, EMBERS_FORMAT_UNKNOWN },
    { "\x00\x01\x02", 3, EMBERS_FORMAT_UNKNOWN },
    { "", 0, EMBERS_FORMAT_UNKNOWN },
    { "main;a 12x\n", 11, EMBERS_FORMAT_UNKNOWN },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    g_assert_cmpint (embers_format_sniff ((const guint8 *)cases[i].data, cases[i].len), ==, cases[i].format);
}

static void
test_format_filenames (void)
{
  g_assert_cmpint (embers_format_for_filename ("out.pb.gz"), ==, EMBERS_FORMAT_PPROF);
  g_assert_cmpint (embers_format_for_filename ("OUT.PB"), ==, EMBERS_FORMAT_PPROF);
  g_assert_cmpint (embers_format_for_filename ("cpu.pprof"), ==, EMBERS_FORMAT_PPROF);
  g_assert_cmpint (embers_format_for_filename ("x.folded"), ==, EMBERS_FORMAT_FOLDED);
  g_assert_cmpint (embers_format_for_filename ("x.collapsed"), ==, EMBERS_FORMAT_FOLDED);
  g_assert_cmpint (embers_format_for_filename ("x.json"), ==, EMBERS_FORMAT_FLAMEBEARER);
  g_assert_cmpint (embers_format_for_filename ("x.png"), ==, EMBERS_FORMAT_PNG);
  g_assert_cmpint (embers_format_for_filename ("x.svg"), ==, EMBERS_FORMAT_SVG);
  g_assert_cmpint (embers_format_for_filename ("x.pdf"), ==, EMBERS_FORMAT_PDF);
  g_assert_cmpint (embers_format_for_filename ("x.doc"), ==, EMBERS_FORMAT_UNKNOWN);
  g_assert_cmpint (embers_format_for_filename (NULL), ==, EMBERS_FORMAT_UNKNOWN);
  g_assert_cmpstr (embers_format_get_name (EMBERS_FORMAT_PPROF), ==, "pprof");
}

static void
test_format_load_errors (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) empty = g_bytes_new_static ("", 0);
  g_autoptr(GBytes) junk = g_bytes_new_static ("hello\n", 6);
  g_autoptr(GBytes) empty_gz = embers_gzip ((const guint8 *)"", 0, NULL);
  g_autoptr(GFile) missing = g_file_new_for_path ("/nonexistent/embers/profile.pb.gz");
  g_autoptr(GFile) dir = g_file_new_for_path (g_get_tmp_dir ());
  g_autoptr(GCancellable) cancelled = g_cancellable_new ();
  EmbersProfile *p;

  p = embers_profile_load_bytes (empty, NULL, &error);
  g_assert_null (p);
  g_assert_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_EMPTY);
  g_clear_error (&error);

  p = embers_profile_load_bytes (empty_gz, NULL, &error);
  g_assert_null (p);
  g_assert_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_EMPTY);
  g_clear_error (&error);

  p = embers_profile_load_bytes (junk, NULL, &error);
  g_assert_null (p);
  g_assert_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_UNKNOWN_FORMAT);
  g_assert_nonnull (strstr (error->message, "pprof"));
  g_clear_error (&error);

  g_cancellable_cancel (cancelled);
  p = embers_profile_load_bytes (junk, cancelled, &error);
  g_assert_null (p);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);

  p = embers_profile_load_file (missing, NULL, &error);
  g_assert_null (p);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "profile.pb.gz"));
  g_clear_error (&error);

  p = embers_profile_load_file (dir, NULL, &error);
  g_assert_null (p);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_IS_DIRECTORY);
  g_clear_error (&error);
}

static void
load_done (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  EmbersProfile **out = user_data;
  g_autoptr(GError) error = NULL;

  *out = embers_profile_load_file_finish (result, &error);
  g_assert_no_error (error);
}

static void
test_format_load_async (void)
{
  g_autofree char *path = g_build_filename (g_get_tmp_dir (), "embers-test-format-XXXXXX.folded", NULL);
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;
  EmbersProfile *profile = NULL;
  int fd;

  fd = g_mkstemp (path);
  g_assert_cmpint (fd, >=, 0);
  close (fd);
  g_file_set_contents (path, "main;a 3\nmain;b 4\n", -1, &error);
  g_assert_no_error (error);

  file = g_file_new_for_path (path);
  embers_profile_load_file_async (file, NULL, load_done, &profile);
  embers_test_wait_while (profile == NULL);

  g_assert_cmpint (embers_profile_get_total (profile, 0), ==, 7);
  g_object_unref (profile);
  g_unlink (path);
}

static void
test_units (void)
{
  static const struct {
    gint64      value;
    const char *unit;
    const char *expected;
  } cases[] = {
    { 999, "nanoseconds", "999 ns" },
    { 1500, "nanoseconds", "1.50 µs" },
    { 12340000, "nanoseconds", "12.34 ms" },
    { 2500000000, "nanoseconds", "2.50 s" },
    { 90000000000, "nanoseconds", "1.50 min" },
    { 7200000000000, "nanoseconds", "2.00 h" },
    { 3, "microseconds", "3.00 µs" },
    { 2, "seconds", "2.00 s" },
    { 512, "bytes", "512 B" },
    { 1536, "bytes", "1.50 KiB" },
    { 5 * 1024 * 1024, "bytes", "5.00 MiB" },
    { G_GINT64_CONSTANT (3) * 1024 * 1024 * 1024, "bytes", "3.00 GiB" },
    { 1234567, "count", "1234567" },
    { 42, "samples", "42" },
    { 42, NULL, "42" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *s = embers_format_value (cases[i].value, cases[i].unit);
      g_assert_cmpstr (s, ==, cases[i].expected);
    }

  {
    g_autofree char *a = embers_format_percent (0.1234);
    g_autofree char *b = embers_format_percent (0.05);
    g_autofree char *c = embers_format_signed_percent (0.5);
    g_autofree char *d = embers_format_signed_percent (-0.04);
    g_autofree char *e = embers_format_signed_percent (0);
    g_autofree char *f = embers_format_percent (0.0 / 0.0);

    g_assert_cmpstr (a, ==, "12.3%");
    g_assert_cmpstr (b, ==, "5.00%");
    g_assert_cmpstr (c, ==, "+50.0%");
    g_assert_cmpstr (d, ==, "−4.00%");
    g_assert_cmpstr (e, ==, "0%");
    g_assert_cmpstr (f, ==, "–");
  }

  g_assert_cmpint (embers_unit_kind ("NANOSECONDS", NULL), ==, EMBERS_UNIT_KIND_NANOSECONDS);
  g_assert_cmpint (embers_unit_kind ("objects", NULL), ==, EMBERS_UNIT_KIND_COUNT);
}

int
main (int   argc,
      char *argv[])
{
  setlocale (LC_ALL, "C.UTF-8");
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/embers/format/gzip-round-trip", test_format_gzip_round_trip);
  g_test_add_func ("/embers/format/gzip-members", test_format_gzip_members);
  g_test_add_func ("/embers/format/gzip-limits", test_format_gzip_limits);
  g_test_add_func ("/embers/format/sniff", test_format_sniff);
  g_test_add_func ("/embers/format/filenames", test_format_filenames);
  g_test_add_func ("/embers/format/load-errors", test_format_load_errors);
  g_test_add_func ("/embers/format/load-async", test_format_load_async);
  g_test_add_func ("/embers/format/units", test_units);

  return g_test_run ();
}
