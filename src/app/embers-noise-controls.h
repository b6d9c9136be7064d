/* embers-noise-controls.h: a comparison's noise test: Hide noise, Per second
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "embers-compare-page.h"
#include "embers-diff-stats.h"

G_BEGIN_DECLS

#define EMBERS_TYPE_NOISE_CONTROLS (embers_noise_controls_get_type ())

G_DECLARE_FINAL_TYPE (EmbersNoiseControls, embers_noise_controls, EMBERS, NOISE_CONTROLS, GtkBox)

/*
 * Follows a compare page (held weakly): after each comparison of two
 * queries, the noise test of the two sides goes to the page's diff flame
 * graph and diff table: on a local source each file is a step
 * (embers_local_source_diff_stats_async(), in a thread), on a server each
 * point of the side's series (embers_pyroscope_diff_stats_async(), the
 * call sites that changed most); a newer comparison cancels it. Two
 * files are one step a side: the test says it cannot tell. "Hide noise" draws changes within the noise neutral;
 * it is on by default when both sides have the steps the test needs, and
 * off and insensitive when they do not (the label says how many steps
 * each side has, and that it is too few). "Per second" tests values per
 * second of each step instead of shares of its total.
 *
 * Property "busy" (boolean): the test is running.
 */
EmbersNoiseControls *embers_noise_controls_new        (EmbersComparePage   *page);
/* The test of the comparison shown, or NULL */
EmbersDiffStats     *embers_noise_controls_get_stats  (EmbersNoiseControls *self);
gboolean             embers_noise_controls_get_busy   (EmbersNoiseControls *self);
void                 embers_noise_controls_set_hide_noise (EmbersNoiseControls *self,
                                                           gboolean             hide);
gboolean             embers_noise_controls_get_hide_noise (EmbersNoiseControls *self);
void                 embers_noise_controls_set_per_second (EmbersNoiseControls *self,
                                                           gboolean             per_second);
/* What the label says */
const char          *embers_noise_controls_get_status (EmbersNoiseControls *self);

G_END_DECLS
