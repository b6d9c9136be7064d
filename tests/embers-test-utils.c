/* embers-test-utils.c: shared helpers for the tests on core
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

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
