/* test-round-trip.c: every write reads back (issue 15, failure 9)
 *
 * Every file of the fuzz corpus (tests/fuzz/corpus) that loads is written
 * by each data writer (pprof raw and gzipped, folded, Pyroscope JSON), for
 * each of its sample types, and read back the way a user opens a file
 * (embers_profile_load_bytes: gzip check, sniffing, reader). It must load,
 * with the same totals; folded, once read back, must write the same bytes
 * again and again.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "embers-format.h"
#include "embers-profile.h"

static guint n_files;
static guint n_loaded;
static guint n_writes;

static void
round_trip_one (EmbersProfile *profile,
                const char    *name,
                EmbersFormat   format,
                gboolean       gzip,
                guint          sample_type)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) written = NULL;
  g_autoptr(EmbersProfile) back = NULL;
  /* pprof keeps every sample type; JSON keeps both sides of a diff */
  gboolean all_types = (format == EMBERS_FORMAT_PPROF && !embers_profile_is_diff (profile)) ||
                       (format == EMBERS_FORMAT_FLAMEBEARER && embers_profile_is_diff (profile));
  const char *what = embers_format_get_name (format);

  written = embers_profile_save_bytes (profile, format, sample_type, gzip, &error);
  if (written == NULL)
    {
      /* A writer may refuse what its format cannot hold, with a reason */
      g_assert_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_UNSUPPORTED);
      return;
    }
  n_writes++;

  back = embers_profile_load_bytes (written, NULL, &error);
  if (back == NULL)
    {
      /* Only an empty profile may come back as "empty" */
      if (g_error_matches (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_EMPTY) &&
          embers_profile_get_total (profile, sample_type) == 0)
        return;
      g_error ("%s: the %s%s writer wrote %" G_GSIZE_FORMAT " bytes that do not load back: %s",
               name, what, gzip ? " (gzip)" : "", g_bytes_get_size (written), error->message);
    }

  if (all_types)
    {
      g_assert_cmpuint (embers_profile_get_n_sample_types (back), ==,
                        embers_profile_get_n_sample_types (profile));
      for (guint t = 0; t < embers_profile_get_n_sample_types (profile); t++)
        g_assert_cmpint (embers_profile_get_total (back, t), ==, embers_profile_get_total (profile, t));
    }
  else if (embers_profile_get_total (back, 0) != embers_profile_get_total (profile, sample_type))
    g_error ("%s: the %s writer, sample type %u: total %" G_GINT64_FORMAT " came back as %" G_GINT64_FORMAT,
             name, what, sample_type, embers_profile_get_total (profile, sample_type),
             embers_profile_get_total (back, 0));

  /* Folded: once read back, writing is a fixpoint (names made to fit map
   * to themselves) */
  if (format == EMBERS_FORMAT_FOLDED)
    {
      g_autoptr(GBytes) again = embers_profile_save_bytes (back, format, 0, FALSE, &error);
      g_autoptr(EmbersProfile) back2 = NULL;
      g_autoptr(GBytes) again2 = NULL;

      g_assert_no_error (error);
      back2 = embers_profile_load_bytes (again, NULL, &error);
      g_assert_no_error (error);
      again2 = embers_profile_save_bytes (back2, format, 0, FALSE, &error);
      g_assert_no_error (error);
      if (!g_bytes_equal (again, again2))
        g_error ("%s: folded is no fixpoint after one read", name);
    }
}

static void
round_trip_file (const char *path,
                 gboolean    skip_first_byte)
{
  g_autofree char *name = g_path_get_basename (path);
  g_autofree char *contents = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(EmbersProfile) profile = NULL;
  g_autoptr(GError) error = NULL;
  gsize len;

  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  if (skip_first_byte && len > 0)
    bytes = g_bytes_new (contents + 1, len - 1);
  else
    bytes = g_bytes_new (contents, len);
  n_files++;

  profile = embers_profile_load_bytes (bytes, NULL, &error);
  if (profile == NULL)
    {
      g_test_message ("%s: not a profile (%s)", name, error->message);
      return;
    }
  n_loaded++;

  round_trip_one (profile, name, EMBERS_FORMAT_PPROF, FALSE, 0);
  round_trip_one (profile, name, EMBERS_FORMAT_PPROF, TRUE, 0);
  for (guint t = 0; t < embers_profile_get_n_sample_types (profile); t++)
    {
      round_trip_one (profile, name, EMBERS_FORMAT_FOLDED, FALSE, t);
      round_trip_one (profile, name, EMBERS_FORMAT_FLAMEBEARER, FALSE, t);
    }
}

static void
test_round_trip_corpus (void)
{
  g_autofree char *corpus = g_test_build_filename (G_TEST_DIST, "fuzz", "corpus", NULL);
  const char *readers[] = { "pprof", "folded", "flamebearer", "load", "input" };

  for (guint r = 0; r < G_N_ELEMENTS (readers); r++)
    {
      g_autofree char *dir_path = g_build_filename (corpus, readers[r], NULL);
      g_autoptr(GDir) dir = g_dir_open (dir_path, 0, NULL);
      g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
      const char *entry;

      g_assert_nonnull (dir);
      while ((entry = g_dir_read_name (dir)) != NULL)
        g_ptr_array_add (names, g_build_filename (dir_path, entry, NULL));
      g_ptr_array_sort_values (names, (GCompareFunc)g_strcmp0);
      for (guint i = 0; i < names->len; i++)
        /* fuzz-input's seeds start with a block size byte */
        round_trip_file (g_ptr_array_index (names, i), g_str_equal (readers[r], "input"));
    }

  g_test_message ("%u corpus files, %u loaded, %u writes read back", n_files, n_loaded, n_writes);
  g_assert_cmpuint (n_loaded, >=, 25);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/embers/round-trip/corpus", test_round_trip_corpus);

  return g_test_run ();
}
