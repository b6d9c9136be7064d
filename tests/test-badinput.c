/* test-badinput.c: hostile and broken input gets a clear error, never a
 * crash, a hang or an abort
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "embers-format.h"
#include "embers-readers.h"
#include "embers-top.h"

/* Either a usable profile or an error a person can read */
static void
expect_error_or_profile (GBytes     *bytes,
                         const char *what)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersProfile) p = embers_profile_load_bytes (bytes, NULL, &error);

  if (p == NULL)
    {
      g_assert_nonnull (error);
      g_assert_true (error->domain == EMBERS_PROFILE_ERROR);
      g_assert_cmpuint (strlen (error->message), >, 10);
      if (!g_utf8_validate (error->message, -1, NULL))
        g_error ("%s: the message is not UTF-8", what);
    }
  else
    {
      g_autoptr(GArray) rows = embers_top_compute (p, embers_profile_get_default_sample_type (p));

      g_assert_no_error (error);
      g_assert_nonnull (rows);
    }
}

static GBytes *
load_fixture_raw (const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fixtures", "go", name, NULL);
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;
  gsize len;

  g_file_get_contents (path, &contents, &len, &error);
  g_assert_no_error (error);
  return embers_gunzip ((const guint8 *)contents, len, 64 * 1024 * 1024, &error);
}

static void
test_truncated_everywhere (void)
{
  g_autoptr(GBytes) raw = load_fixture_raw ("cpu-inlined.pb.gz");
  const guint8 *data;
  gsize len;
  guint errors = 0;

  data = g_bytes_get_data (raw, &len);
  g_assert_cmpuint (len, >, 100);

  for (gsize cut = 0; cut < len; cut++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(EmbersProfile) p = embers_pprof_parse (data, cut, &error);

      if (p == NULL)
        {
          g_assert_nonnull (error);
          g_assert_true (g_str_has_prefix (error->message, "pprof: "));
          errors++;
        }
    }

  /* Most prefixes end inside a field: those must be refused */
  g_assert_cmpuint (errors, >, len / 2);
}

static void
test_truncated_gzip_everywhere (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fixtures", "go", "heap.pb.gz", NULL);
  g_autofree char *contents = NULL;
  gsize len;

  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  for (gsize cut = 0; cut < len; cut += 7)
    {
      g_autoptr(GBytes) part = g_bytes_new (contents, cut);
      g_autoptr(GError) error = NULL;
      g_autoptr(EmbersProfile) p = embers_profile_load_bytes (part, NULL, &error);

      g_assert_null (p);
      g_assert_nonnull (error);
    }
}

static void
test_garbage (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);
  static const char *cases[] = {
    "",
    "\x0a",
    "\x0a\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01",   /* an 11-byte varint */
    "\x0a\x80\x80\x80\x80\x80\x80\x80\x80\x80\x02",       /* a 10-byte varint over 64 bits */
    "\x0a\x7f\x00",                                         /* length past the end */
    "\x0b\x00",                                             /* group wire type */
    "\x12\x02\x08",                                         /* sample truncated */
    "\x10\x05",                                             /* sample as a varint */
    "PK\x03\x04 not a profile",
    "\x1f\x8b\x08\x00garbage after a gzip header",
    "{}",
    "{\"flamebearer\": 5}",
    "{\"flamebearer\": {\"names\": 5}}",
    "{\"names\": [\"total\"], \"levels\": \"x\"}",
    "[1, 2, 3]",
    "main;a notanumber",
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GBytes) bytes = g_bytes_new_static (cases[i], strlen (cases[i]) + (i == 0 ? 0 : 0));
      g_autoptr(GError) error = NULL;
      g_autoptr(EmbersProfile) p = embers_profile_load_bytes (bytes, NULL, &error);

      g_assert_null (p);
      g_assert_nonnull (error);
      g_assert_cmpuint (strlen (error->message), >, 10);
    }

  /* Overlong varints straight into the pprof reader */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(EmbersProfile) p = embers_pprof_parse ((const guint8 *)cases[2], 12, &error);

    g_assert_null (p);
    g_assert_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_INVALID);
    g_assert_nonnull (strstr (error->message, "corrupt"));
  }

  /* Random bytes after a plausible first tag */
  for (guint i = 0; i < 2000; i++)
    {
      guint8 buf[256];
      gsize n = g_rand_int_range (rand, 1, sizeof buf);
      g_autoptr(GBytes) bytes = NULL;

      for (gsize k = 0; k < n; k++)
        buf[k] = (guint8)g_rand_int_range (rand, 0, 256);
      buf[0] = 0x0a;
      bytes = g_bytes_new (buf, n);
      expect_error_or_profile (bytes, "random");
    }
}

static void
test_bad_gzip (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fixtures", "go", "cpu-labels.pb.gz", NULL);
  g_autofree char *contents = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersProfile) p = NULL;
  gsize len;

  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  /* Flip the deflate data, keep the header */
  for (gsize i = 12; i < len - 8; i++)
    contents[i] ^= 0x33;
  bytes = g_bytes_new (contents, len);
  p = embers_profile_load_bytes (bytes, NULL, &error);
  g_assert_null (p);
  g_assert_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "compressed"));
}

static void
test_gzip_bomb (void)
{
  /* 64 MiB of zeros packs to ~64 KiB; the reader must stop at its cap */
  gsize big = 64 * 1024 * 1024;
  g_autofree guint8 *zeros = g_malloc0 (big);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bomb = embers_gzip (zeros, big, &error);
  g_autoptr(GBytes) out = NULL;

  g_assert_no_error (error);
  g_assert_cmpuint (g_bytes_get_size (bomb), <, 128 * 1024);
  out = embers_gunzip (g_bytes_get_data (bomb, NULL), g_bytes_get_size (bomb), 8 * 1024 * 1024, &error);
  g_assert_null (out);
  g_assert_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_TOO_LARGE);
  g_assert_nonnull (strstr (error->message, "refusing"));
  /* The default cap of the loader is finite and documented */
  g_assert_cmpuint (EMBERS_MAX_DECOMPRESSED_SIZE, <, G_MAXSIZE);
}

static void
test_fuzz_reproducers (void)
{
  g_autofree char *dir_path = g_test_build_filename (G_TEST_DIST, "fixtures", "bad", NULL);
  g_autoptr(GDir) dir = g_dir_open (dir_path, 0, NULL);
  const char *name;
  guint n = 0;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)))
    {
      g_autofree char *path = g_build_filename (dir_path, name, NULL);
      g_autofree char *contents = NULL;
      g_autoptr(GBytes) bytes = NULL;
      gsize len;

      g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
      bytes = g_bytes_new (contents, len);
      expect_error_or_profile (bytes, name);

      /* And each reader directly */
      {
        g_autoptr(GError) e1 = NULL, e2 = NULL, e3 = NULL;
        g_autoptr(EmbersProfile) a = embers_pprof_parse ((const guint8 *)contents, len, &e1);
        g_autoptr(EmbersProfile) b = embers_folded_parse (contents, len, &e2);
        g_autoptr(EmbersProfile) c = embers_flamebearer_parse (contents, len, &e3);

        g_assert_true ((a == NULL) == (e1 != NULL));
        g_assert_true ((b == NULL) == (e2 != NULL));
        g_assert_true ((c == NULL) == (e3 != NULL));
      }
      n++;
    }
  g_assert_cmpuint (n, >=, 4);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/embers/badinput/truncated-everywhere", test_truncated_everywhere);
  g_test_add_func ("/embers/badinput/truncated-gzip-everywhere", test_truncated_gzip_everywhere);
  g_test_add_func ("/embers/badinput/garbage", test_garbage);
  g_test_add_func ("/embers/badinput/bad-gzip", test_bad_gzip);
  g_test_add_func ("/embers/badinput/gzip-bomb", test_gzip_bomb);
  g_test_add_func ("/embers/badinput/fuzz-reproducers", test_fuzz_reproducers);

  return g_test_run ();
}
