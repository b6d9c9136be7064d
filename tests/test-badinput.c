/* test-badinput.c: hostile and broken input gets a clear error, never a
 * crash, a hang or an abort
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "embers-format.h"
#include "embers-profile-builder.h"
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
  /* Each must fail with this code and a message that names the problem */
  static const struct {
    const char *data;
    int         code;
    const char *fragment;
    gsize       len;        /* 0: up to the first NUL */
  } cases[] = {
    { "", EMBERS_PROFILE_ERROR_EMPTY, "empty" },
    { "\x0a", EMBERS_PROFILE_ERROR_UNKNOWN_FORMAT, "not a profile" },
    { "\x0a\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", EMBERS_PROFILE_ERROR_INVALID, "corrupt" },  /* an 11-byte varint */
    { "\x0a\x80\x80\x80\x80\x80\x80\x80\x80\x80\x02", EMBERS_PROFILE_ERROR_INVALID, "corrupt" },  /* a 10-byte varint over 64 bits */
    { "\x0a\x7f\x00", EMBERS_PROFILE_ERROR_UNKNOWN_FORMAT, "not a profile" },  /* length past the end */
    { "\x0b\x00", EMBERS_PROFILE_ERROR_UNKNOWN_FORMAT, "not a profile" },  /* group wire type */
    { "\x12\x02\x08", EMBERS_PROFILE_ERROR_INVALID, "truncated" },  /* sample truncated */
    { "\x10\x05", EMBERS_PROFILE_ERROR_INVALID, "corrupt" },  /* sample as a varint */
    { "PK\x03\x04 not a profile", EMBERS_PROFILE_ERROR_INVALID, "corrupt" },  /* wrong magic, pprof-like bytes */
    { "\x1f\x8b\x08\x00garbage after a gzip header", EMBERS_PROFILE_ERROR_INVALID, "compressed" },
    { "{}", EMBERS_PROFILE_ERROR_INVALID, "flamebearer" },
    { "{\"flamebearer\": 5}", EMBERS_PROFILE_ERROR_INVALID, "must be an object" },
    { "{\"flamebearer\": {\"names\": 5}}", EMBERS_PROFILE_ERROR_INVALID, "“names” must be an array" },
    { "{\"names\": [\"total\"], \"levels\": \"x\"}", EMBERS_PROFILE_ERROR_INVALID, "“levels” must be an array" },
    { "[1, 2, 3]", EMBERS_PROFILE_ERROR_UNKNOWN_FORMAT, "not a profile" },
    { "main;a notanumber", EMBERS_PROFILE_ERROR_UNKNOWN_FORMAT, "not a profile" },
    { "\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR", EMBERS_PROFILE_ERROR_UNKNOWN_FORMAT, "not a profile", 16 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      gsize len = cases[i].len ? cases[i].len : strlen (cases[i].data);
      g_autoptr(GBytes) bytes = g_bytes_new_static (cases[i].data, len);
      g_autoptr(GError) error = NULL;
      g_autoptr(EmbersProfile) p = embers_profile_load_bytes (bytes, NULL, &error);

      g_assert_null (p);
      g_assert_error (error, EMBERS_PROFILE_ERROR, cases[i].code);
      g_assert_cmpuint (strlen (error->message), >, 10);
      if (strstr (error->message, cases[i].fragment) == NULL)
        g_error ("case %u: “%s” lacks “%s”", i, error->message, cases[i].fragment);
    }

  /* Overlong varints straight into the pprof reader */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(EmbersProfile) p = embers_pprof_parse ((const guint8 *)cases[2].data, 12, &error);

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

/* A tiny protobuf writer, so the wire bytes below are exactly what we say:
 * no protobuf-c in between that would refuse to write broken messages. */
static void
put_varint (GByteArray *a,
            guint64     v)
{
  do
    {
      guint8 byte = (v & 0x7f) | (v > 0x7f ? 0x80 : 0);

      g_byte_array_append (a, &byte, 1);
      v >>= 7;
    }
  while (v != 0);
}

static void
put_int (GByteArray *a,
         guint       field,
         gint64      v)
{
  put_varint (a, (guint64)field << 3 | 0);
  put_varint (a, (guint64)v);   /* negative: ten bytes, as protobuf does */
}

static void
put_bytes (GByteArray   *a,
           guint         field,
           const guint8 *data,
           gsize         len)
{
  put_varint (a, (guint64)field << 3 | 2);
  put_varint (a, len);
  g_byte_array_append (a, data, len);
}

static void
put_str (GByteArray *a,
         guint       field,
         const char *str)
{
  put_bytes (a, field, (const guint8 *)str, strlen (str));
}

/* Appends sub as field and frees it */
static void
put_msg (GByteArray *a,
         guint       field,
         GByteArray *sub)
{
  put_bytes (a, field, sub->data, sub->len);
  g_byte_array_unref (sub);
}

static GByteArray *
packed (const gint64 *v,
        guint         n)
{
  GByteArray *a = g_byte_array_new ();

  for (guint i = 0; i < n; i++)
    put_varint (a, (guint64)v[i]);
  return a;
}

typedef enum
{
  WIRE_OK,
  WIRE_UNPACKED,           /* repeated fields not packed: valid too */
  WIRE_HUGE_IDS,           /* ids near 2^64: valid, not dense */
  WIRE_NO_LINES,           /* a location without lines: named from its mapping */
  WIRE_STRING_RANGE,
  WIRE_NEGATIVE_STRING,
  WIRE_FIRST_STRING,
  WIRE_LOCATION_UNDEFINED,
  WIRE_FUNCTION_UNDEFINED,
  WIRE_MAPPING_UNDEFINED,
  WIRE_NEGATIVE_VALUE,
  WIRE_VALUE_COUNT,
  WIRE_NO_TYPES,
  WIRE_NOTHING,
  WIRE_TOO_DEEP,
  WIRE_SAMPLE_CORRUPT,
  WIRE_LOCATION_CORRUPT,
} WireCase;

/* strings: "", samples, count, main, work, /lib/libx.so
 * main (function 1, location 1) calls work (function 2, location 2),
 * one sample of 5 */
static GBytes *
wire_profile (WireCase c)
{
  GByteArray *a = g_byte_array_new ();
  GByteArray *m;
  guint64 loc_main = c == WIRE_HUGE_IDS ? G_MAXUINT64 : 1;
  guint64 loc_work = c == WIRE_HUGE_IDS ? G_MAXUINT64 - 1 : 2;

  put_str (a, 6, c == WIRE_FIRST_STRING ? "x" : "");
  if (c != WIRE_NOTHING)
    {
      put_str (a, 6, "samples");
      put_str (a, 6, "count");
      put_str (a, 6, "main");
      put_str (a, 6, "work");
      put_str (a, 6, "/lib/libx.so");
    }
  if (c == WIRE_NOTHING)
    return g_byte_array_free_to_bytes (a);

  if (c != WIRE_NO_TYPES)
    {
      m = g_byte_array_new ();
      put_int (m, 1, 1);
      put_int (m, 2, c == WIRE_STRING_RANGE ? 6 : 2);
      put_msg (a, 1, m);
    }

  /* mapping 1 */
  m = g_byte_array_new ();
  put_int (m, 1, 1);
  put_int (m, 2, 0x400000);
  put_int (m, 3, 0x500000);
  put_int (m, 5, 5);
  put_msg (a, 3, m);

  for (guint f = 1; f <= 2; f++)
    {
      m = g_byte_array_new ();
      put_int (m, 1, f);
      put_int (m, 2, c == WIRE_NEGATIVE_STRING && f == 2 ? -1 : 2 + (gint64)f);
      put_msg (a, 5, m);
    }

  for (guint l = 1; l <= 2; l++)
    {
      GByteArray *line = g_byte_array_new ();

      m = g_byte_array_new ();
      put_int (m, 1, l == 1 ? loc_main : loc_work);
      put_int (m, 2, c == WIRE_MAPPING_UNDEFINED && l == 2 ? 4 : 1);
      put_int (m, 3, 0x401000 * l);
      put_int (line, 1, c == WIRE_FUNCTION_UNDEFINED && l == 2 ? 9 : l);
      put_int (line, 2, 10 * l);
      if (c == WIRE_LOCATION_CORRUPT && l == 2)
        {
          /* a line whose length runs past the location's end */
          put_varint (m, 4 << 3 | 2);
          put_varint (m, line->len + 20);
          g_byte_array_append (m, line->data, line->len);
          g_byte_array_unref (line);
        }
      else if (c == WIRE_NO_LINES && l == 2)
        g_byte_array_unref (line);
      else
        put_msg (m, 4, line);
      put_msg (a, 4, m);
    }

  m = g_byte_array_new ();
  if (c == WIRE_TOO_DEEP)
    {
      guint n = EMBERS_PROFILE_MAX_DEPTH + 1;
      g_autofree gint64 *ids = g_new (gint64, n);

      for (guint i = 0; i < n; i++)
        ids[i] = 1 + (i & 1);   /* main;work;main;work... recursion */
      put_msg (m, 1, packed (ids, n));
    }
  else if (c == WIRE_UNPACKED)
    {
      put_int (m, 1, 2);
      put_int (m, 1, 1);
    }
  else
    put_msg (m, 1, packed ((gint64[]) { loc_work, c == WIRE_LOCATION_UNDEFINED ? 7 : loc_main }, 2));

  if (c == WIRE_UNPACKED)
    put_int (m, 2, 5);
  else if (c == WIRE_VALUE_COUNT)
    put_msg (m, 2, packed ((gint64[]) { 5, 6 }, 2));
  else
    put_msg (m, 2, packed ((gint64[]) { c == WIRE_NEGATIVE_VALUE ? -3 : 5 }, 1));

  if (c == WIRE_SAMPLE_CORRUPT)
    {
      /* the sample's own bytes end inside a varint */
      guint8 cont = 0x80;

      put_varint (m, 3 << 3 | 2);
      put_varint (m, 1);
      g_byte_array_append (m, &cont, 1);
    }
  put_msg (a, 2, m);

  return g_byte_array_free_to_bytes (a);
}

static void
test_wire (void)
{
  static const struct {
    WireCase    c;
    int         code;       /* -1: must load */
    const char *fragment;
  } cases[] = {
    { WIRE_OK, -1, "main;work" },
    { WIRE_UNPACKED, -1, "main;work" },
    { WIRE_HUGE_IDS, -1, "main;work" },
    { WIRE_NO_LINES, -1, "main;libx.so+0x402000" },
    { WIRE_STRING_RANGE, EMBERS_PROFILE_ERROR_INVALID, "refers to string 6, but the string table has 6 entries" },
    { WIRE_NEGATIVE_STRING, EMBERS_PROFILE_ERROR_INVALID, "function 2 refers to string -1" },
    { WIRE_FIRST_STRING, EMBERS_PROFILE_ERROR_INVALID, "must start with an empty string" },
    { WIRE_LOCATION_UNDEFINED, EMBERS_PROFILE_ERROR_INVALID, "sample 0 refers to location 7, which does not exist" },
    { WIRE_FUNCTION_UNDEFINED, EMBERS_PROFILE_ERROR_INVALID, "location 2 refers to function 9, which does not exist" },
    /* go's profile package reads an undefined mapping as none */
    { WIRE_MAPPING_UNDEFINED, -1, "main;work" },
    { WIRE_NEGATIVE_VALUE, EMBERS_PROFILE_ERROR_INVALID, "sample 0 has a negative samples value (-3)" },
    { WIRE_VALUE_COUNT, EMBERS_PROFILE_ERROR_INVALID, "sample 0 has 2 values, but the profile declares 1 sample type" },
    { WIRE_NO_TYPES, EMBERS_PROFILE_ERROR_INVALID, "no sample types" },
    { WIRE_NOTHING, EMBERS_PROFILE_ERROR_EMPTY, "no sample types" },
    { WIRE_TOO_DEEP, EMBERS_PROFILE_ERROR_TOO_LARGE, "more than 60000 frames deep" },
    { WIRE_SAMPLE_CORRUPT, EMBERS_PROFILE_ERROR_INVALID, "sample 0 is not a valid protobuf message" },
    { WIRE_LOCATION_CORRUPT, EMBERS_PROFILE_ERROR_INVALID, "truncated or corrupt" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GBytes) bytes = wire_profile (cases[i].c);
      g_autoptr(GError) error = NULL;
      g_autoptr(EmbersProfile) p = embers_pprof_parse (g_bytes_get_data (bytes, NULL),
                                                       g_bytes_get_size (bytes), &error);

      if (cases[i].code < 0)
        {
          g_autofree char *stack = NULL;

          g_assert_no_error (error);
          g_assert_cmpuint (embers_profile_get_n_nodes (p), ==, 3);
          stack = embers_profile_node_stack (p, 2, ";");
          g_assert_cmpstr (stack, ==, cases[i].fragment);
          g_assert_cmpint (embers_profile_node_self (p, 0, 2), ==, 5);
          g_assert_cmpint (embers_profile_get_total (p, 0), ==, 5);
          continue;
        }

      g_assert_null (p);
      g_assert_error (error, EMBERS_PROFILE_ERROR, cases[i].code);
      if (strstr (error->message, cases[i].fragment) == NULL)
        g_error ("case %u: “%s” lacks “%s”", i, error->message, cases[i].fragment);

      /* The loader gives the same error (it sniffs these as pprof) */
      {
        g_autoptr(GError) error2 = NULL;
        g_autoptr(EmbersProfile) p2 = embers_profile_load_bytes (bytes, NULL, &error2);

        g_assert_null (p2);
        g_assert_error (error2, EMBERS_PROFILE_ERROR, cases[i].code);
      }
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
  /* and says the limit */
  {
    g_autofree char *limit = g_format_size (8 * 1024 * 1024);

    g_assert_nonnull (strstr (error->message, limit));
  }
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
      {
        g_autoptr(GError) e1 = NULL, e2 = NULL, e3 = NULL, e4 = NULL, e5 = NULL;
        g_autoptr(EmbersProfile) a = embers_perf_script_parse (contents, len, &e1);
        g_autoptr(EmbersProfile) b = embers_cpuprofile_parse (contents, len, &e2);
        g_autoptr(EmbersProfile) c = embers_chrome_trace_parse (contents, len, &e3);
        g_autoptr(EmbersProfile) d = embers_speedscope_parse (contents, len, &e4);
        g_autoptr(EmbersProfile) e = embers_jfr_parse ((const guint8 *)contents, len, &e5);

        g_assert_true ((a == NULL) == (e1 != NULL));
        g_assert_true ((b == NULL) == (e2 != NULL));
        g_assert_true ((c == NULL) == (e3 != NULL));
        g_assert_true ((d == NULL) == (e4 != NULL));
        g_assert_true ((e == NULL) == (e5 != NULL));
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
  g_test_add_func ("/embers/badinput/pprof-wire", test_wire);
  g_test_add_func ("/embers/badinput/bad-gzip", test_bad_gzip);
  g_test_add_func ("/embers/badinput/gzip-bomb", test_gzip_bomb);
  g_test_add_func ("/embers/badinput/fuzz-reproducers", test_fuzz_reproducers);

  return g_test_run ();
}
