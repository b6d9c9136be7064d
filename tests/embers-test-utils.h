/* embers-test-utils.h: shared helpers for the tests on core (no display)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "embers-profile.h"
#include "embers-test-wait.h"

G_BEGIN_DECLS

/* A CPU profile (nanoseconds, period 1) taken at @time_ms over 10 s, of
 * one stack main → @leaf worth @value */
EmbersProfile *embers_test_cpu_profile (gint64      time_ms,
                                        const char *leaf,
                                        gint64      value);

/* A profile of folded stacks, one a line: "main;foo;bar 10" (frames by
 * ";", the value after the last space), in one sample type "samples"
 * (count); other lines are skipped */
EmbersProfile *embers_test_profile_from_lines (const char *text);
/* The same in one sample type @type measured in @unit */
EmbersProfile *embers_test_profile_from_lines_typed (const char *text,
                                                     const char *type,
                                                     const char *unit);

G_END_DECLS
