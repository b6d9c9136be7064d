/* embers-diff-stats.h: a diff that knows its noise
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "embers-profile.h"

G_BEGIN_DECLS

/*
 * Each side of a comparison is made of steps: the points of a server's
 * series (SelectSeries), or the individual files of a folder. For every
 * function, each step gives one value (its total, recursion counted
 * once), and each step has the side's total and its length in seconds.
 * EmbersDiffStats estimates how much each function's value varies from
 * step to step and tells a change from the noise:
 *
 *  - per step, the function's share of the step's total (or, in the
 *    per-second mode, its value per second of the step, for sides whose
 *    steps differ in length);
 *  - Welch's t-test of the two sides' per-step values (unequal variances
 *    and sizes), two-sided;
 *  - the Benjamini–Hochberg procedure over all functions tested at once,
 *    so that among the functions called changed, at most a fraction
 *    @fdr (5 % by default) are expected to be noise;
 *  - the change of the mean in percent of the baseline's mean, with its
 *    95 % confidence interval by the delta method ("+12% ± 3%");
 *  - sides with fewer than EMBERS_DIFF_STATS_MIN_STEPS steps are not
 *    tested: their functions say EMBERS_CHANGE_NOT_ENOUGH_STEPS.
 *
 * Use: add the steps of each side, then their functions' values (by name;
 * a function without a value in a step has 0 there), call compute(),
 * then look functions up. The object is not thread-safe while it is
 * filled; once computed it is read-only and may be handed to another
 * thread.
 */

#define EMBERS_DIFF_STATS_MIN_STEPS 3
#define EMBERS_DIFF_STATS_DEFAULT_FDR 0.05

typedef enum
{
  EMBERS_DIFF_SIDE_BASELINE,
  EMBERS_DIFF_SIDE_COMPARISON,
} EmbersDiffSide;

/**
 * EmbersDiffStatsMode:
 * @EMBERS_DIFF_STATS_SHARE: per-step value / the step's total
 * @EMBERS_DIFF_STATS_PER_SECOND: per-step value / the step's length in
 *   seconds: sides whose steps differ in length compare fairly
 */
typedef enum
{
  EMBERS_DIFF_STATS_SHARE,
  EMBERS_DIFF_STATS_PER_SECOND,
} EmbersDiffStatsMode;

/**
 * EmbersChangeVerdict:
 * @EMBERS_CHANGE_NOT_ENOUGH_STEPS: a side has fewer steps than the test
 *   needs; nothing is claimed
 * @EMBERS_CHANGE_WITHIN_NOISE: tested; the change is within the noise
 * @EMBERS_CHANGE_GREW: a significant increase
 * @EMBERS_CHANGE_SHRANK: a significant decrease
 */
typedef enum
{
  EMBERS_CHANGE_NOT_ENOUGH_STEPS,
  EMBERS_CHANGE_WITHIN_NOISE,
  EMBERS_CHANGE_GREW,
  EMBERS_CHANGE_SHRANK,
} EmbersChangeVerdict;

typedef struct
{
  EmbersChangeVerdict verdict;
  guint               n_baseline;       /* steps used on each side */
  guint               n_comparison;
  double              mean_baseline;    /* per-step share (0..1) or per second */
  double              mean_comparison;
  double              sd_baseline;      /* their standard deviations */
  double              sd_comparison;
  double              change;           /* (mean_comparison - mean_baseline) / mean_baseline, % */
  double              interval;         /* half-width of its 95 % interval, %; INFINITY when unknown */
  gboolean            is_new;           /* the baseline's mean is 0 */
  gboolean            is_removed;       /* the comparison's mean is 0 */
  double              p_value;          /* Welch, two-sided; 1 when not tested */
  double              q_value;          /* Benjamini–Hochberg adjusted */
} EmbersChangeStats;

/**
 * EmbersDiffStatsKey:
 * @EMBERS_DIFF_STATS_KEY_FUNCTION: values are keyed by function name (the
 *   top table's rows; local files, whose whole trees are at hand)
 * @EMBERS_DIFF_STATS_KEY_STACK: values are keyed by a node's stack from
 *   the root, names joined by ";" ("main;handler;parse"): what a server's
 *   SelectSeries gives for a stack_trace_selector whose call_site is that
 *   path
 *
 * How embers_diff_stats_node_verdicts() finds a node's values.
 */
typedef enum
{
  EMBERS_DIFF_STATS_KEY_FUNCTION,
  EMBERS_DIFF_STATS_KEY_STACK,
} EmbersDiffStatsKey;

#define EMBERS_TYPE_DIFF_STATS (embers_diff_stats_get_type ())

G_DECLARE_FINAL_TYPE (EmbersDiffStats, embers_diff_stats, EMBERS, DIFF_STATS, GObject)

EmbersDiffStats     *embers_diff_stats_new              (EmbersDiffStatsMode  mode,
                                                         double               fdr);
EmbersDiffStatsMode  embers_diff_stats_get_mode         (EmbersDiffStats     *self);
void                 embers_diff_stats_set_key          (EmbersDiffStats     *self,
                                                         EmbersDiffStatsKey   key);
EmbersDiffStatsKey   embers_diff_stats_get_key          (EmbersDiffStats     *self);
double               embers_diff_stats_get_fdr          (EmbersDiffStats     *self);

/* A step: its total (share mode) and its length in seconds (per-second
 * mode; 0 when unknown). Returns its index on the side. */
guint                embers_diff_stats_add_step         (EmbersDiffStats     *self,
                                                         EmbersDiffSide       side,
                                                         double               total,
                                                         double               seconds);
/* Adds @value to @function in @step of @side */
void                 embers_diff_stats_add_value        (EmbersDiffStats     *self,
                                                         EmbersDiffSide       side,
                                                         guint                step,
                                                         const char          *function,
                                                         double               value);
/* A whole series for @function: one value per step of the side, in order
 * (a server's SelectSeries for one function) */
void                 embers_diff_stats_add_series       (EmbersDiffStats     *self,
                                                         EmbersDiffSide       side,
                                                         const char          *function,
                                                         const double        *values,
                                                         guint                n_values);
/* One profile as one step (a local file): its total of @sample_type, each
 * function's total (recursion counted once, as in the top table), and its
 * duration as the step's length */
void                 embers_diff_stats_add_profile      (EmbersDiffStats     *self,
                                                         EmbersDiffSide       side,
                                                         EmbersProfile       *profile,
                                                         guint                sample_type);

guint                embers_diff_stats_get_n_steps      (EmbersDiffStats     *self,
                                                         EmbersDiffSide       side);
/* The total of step @step of @side, as added */
double               embers_diff_stats_get_step_total   (EmbersDiffStats     *self,
                                                         EmbersDiffSide       side,
                                                         guint                step);
/* Usable steps of @side (a positive total, or length in per-second mode),
 * the number the test and its sentences count */
guint                embers_diff_stats_get_n_used_steps (EmbersDiffStats     *self,
                                                         EmbersDiffSide       side);
/* Both sides have at least EMBERS_DIFF_STATS_MIN_STEPS usable steps (the
 * "Hide noise" switch is on by default then) */
gboolean             embers_diff_stats_has_enough_steps (EmbersDiffStats     *self);

/* Tests every function; after this the object is read-only */
void                 embers_diff_stats_compute          (EmbersDiffStats     *self);
guint                embers_diff_stats_get_n_functions  (EmbersDiffStats     *self);
/* How many functions the test calls changed (grew or shrank) */
guint                embers_diff_stats_get_n_changed    (EmbersDiffStats     *self);

/* A function's result, or NULL when no step of either side has it */
const EmbersChangeStats *embers_diff_stats_lookup       (EmbersDiffStats     *self,
                                                         const char          *function);
/* The verdict for each node of a diff profile, by the node's function
 * name or its stack (embers_diff_stats_set_key()); the root and nodes
 * without values: NOT_ENOUGH_STEPS when a side is short, WITHIN_NOISE
 * otherwise. Free with g_free(). */
EmbersChangeVerdict *embers_diff_stats_node_verdicts    (EmbersDiffStats     *self,
                                                         EmbersProfile       *diff);

/* The sentence of embers_change_stats_describe() for a node of a diff
 * profile (by its function or its stack, as the key says); for a node
 * without values, "not enough steps" when a side is short, else NULL */
char                *embers_diff_stats_node_describe    (EmbersDiffStats     *self,
                                                         EmbersProfile       *diff,
                                                         guint32              node);
/* The steps of each side, "10 | 12" (baseline | comparison) */
char                *embers_change_stats_format_steps   (const EmbersChangeStats *stats);

/* "+12% ± 3%", "−4.1% ± 0.8%", "new", "removed", "0% ± 2%" */
char                *embers_change_stats_format         (const EmbersChangeStats *stats);
/* A sentence for a tooltip: the change, the verdict and the steps
 * ("+12% ± 3%, beyond the noise (10 and 12 steps)"; "Not enough steps to
 * tell change from noise: 2 and 12 steps, 3 needed on each side") */
char                *embers_change_stats_describe       (const EmbersChangeStats *stats);

/* The statistics themselves, for tests */
double               embers_stats_student_t_cdf         (double t,
                                                         double df);
double               embers_stats_student_t_quantile    (double p,
                                                         double df);
void                 embers_stats_benjamini_hochberg    (const double *p_values,
                                                         guint         n,
                                                         double       *q_values);

G_END_DECLS
