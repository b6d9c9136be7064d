/* embers-test-utils.c: shared helpers for the tests on core
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "embers-profile-builder.h"
#include "embers-test-utils.h"

EmbersProfile *
embers_test_cpu_profile (gint64      time_ms,
                         const char *leaf,
                         gint64      value)
{
  g_autoptr(EmbersProfileBuilder) b = embers_profile_builder_new ();
  g_autoptr(GError) error = NULL;
  guint32 frames[2];
  EmbersProfile *p;

  embers_profile_builder_add_sample_type (b, "cpu", "nanoseconds");
  embers_profile_builder_set_period (b, "cpu", "nanoseconds", 1);
  embers_profile_builder_set_time (b, time_ms * 1000000, 10000000000);
  frames[0] = embers_profile_builder_intern (b, "main", -1);
  frames[1] = embers_profile_builder_intern (b, leaf, -1);
  embers_profile_builder_add_stack (b, frames, 2, &value, 0);
  p = embers_profile_builder_finish (b, &error);
  g_assert_no_error (error);
  return p;
}

EmbersProfile *
embers_test_profile_from_lines (const char *text)
{
  return embers_test_profile_from_lines_typed (text, "samples", "count");
}

EmbersProfile *
embers_test_profile_from_lines_typed (const char *text,
                                      const char *type,
                                      const char *unit)
{
  g_autoptr(EmbersProfileBuilder) b = embers_profile_builder_new ();
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  GError *error = NULL;
  EmbersProfile *profile;

  embers_profile_builder_add_sample_type (b, type, unit);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *space = strrchr (lines[i], ' ');
      g_auto(GStrv) frames = NULL;
      guint32 ids[64];
      gint64 value;
      guint n;

      if (space == NULL)
        continue;
      {
        g_autofree char *stack = g_strndup (lines[i], space - lines[i]);

        frames = g_strsplit (stack, ";", -1);
      }
      n = g_strv_length (frames);
      for (guint f = 0; f < n; f++)
        ids[f] = embers_profile_builder_intern (b, frames[f], -1);
      value = g_ascii_strtoll (space + 1, NULL, 10);
      embers_profile_builder_add_stack (b, ids, n, &value, 0);
    }

  profile = embers_profile_builder_finish (b, &error);
  g_assert_no_error (error);
  return profile;
}
