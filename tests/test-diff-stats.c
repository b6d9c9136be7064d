/* test-diff-stats.c: the noise test of a comparison
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The statistics against known values, then synthetic sides with a known
 * effect and known noise (a seeded generator, so every run sees the same
 * numbers): the true change is found with an interval that holds it, and
 * changes that are only noise stay neutral at the stated rate. The rates
 * measured are printed as TAP comments ("# false positives …").
 */

#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "embers-diff.h"
#include "embers-diff-stats.h"
#include "embers-local-source.h"
#include "embers-profile-builder.h"
#include "embers-readers.h"
#include "embers-test-wait.h"

/* Values from tables of Student's t */
static void
test_student_t (void)
{
  g_assert_cmpfloat_with_epsilon (embers_stats_student_t_cdf (0, 5), 0.5, 1e-12);
  g_assert_cmpfloat_with_epsilon (embers_stats_student_t_cdf (2.228139, 10), 0.975, 1e-6);
  g_assert_cmpfloat_with_epsilon (embers_stats_student_t_cdf (-2.228139, 10), 0.025, 1e-6);
  g_assert_cmpfloat_with_epsilon (embers_stats_student_t_cdf (1, 1), 0.75, 1e-12);   /* Cauchy */
  g_assert_cmpfloat_with_epsilon (embers_stats_student_t_quantile (0.975, 1), 12.7062, 1e-4);
  g_assert_cmpfloat_with_epsilon (embers_stats_student_t_quantile (0.975, 4), 2.7764, 1e-4);
  g_assert_cmpfloat_with_epsilon (embers_stats_student_t_quantile (0.975, 30), 2.0423, 1e-4);
  g_assert_cmpfloat_with_epsilon (embers_stats_student_t_quantile (0.975, 1e7), 1.95996, 1e-4);
  /* The quantile inverts the CDF, in the tails and with few degrees of
   * freedom too (Welch's df is at least about 1 with two steps a side) */
  for (double df = 1; df < 200; df *= 1.9)
    for (double p = 1e-6; p < 1; p = p < 0.5 ? p * 7 : 1 - (1 - p) / 7)
      {
        double t = embers_stats_student_t_quantile (p, df);

        g_assert_cmpfloat (fabs (embers_stats_student_t_cdf (t, df) - p), <=, 1e-9 * MAX (1, p / (1 - p)));
        if (p > 0.999)
          break;
      }
  /* Welch's fractional degrees of freedom */
  g_assert_cmpfloat_with_epsilon (embers_stats_student_t_cdf (2.0, 7.5), 0.9587, 1e-3);
}

/* Benjamini and Hochberg's own example (1995): 15 p-values, q = 0.05
 * rejects the four smallest */
static void
test_benjamini_hochberg (void)
{
  static const double p[] = {
    0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278, 0.0298, 0.0344,
    0.0459, 0.3240, 0.4262, 0.5719, 0.6528, 0.7590, 1.0000,
  };
  double q[G_N_ELEMENTS (p)];
  guint rejected = 0;

  embers_stats_benjamini_hochberg (p, G_N_ELEMENTS (p), q);
  for (guint i = 0; i < G_N_ELEMENTS (p); i++)
    {
      if (q[i] <= 0.05)
        rejected++;
      g_assert_cmpfloat (q[i], >=, p[i]);
      g_assert_cmpfloat (q[i], <=, 1);
    }
  g_assert_cmpuint (rejected, ==, 4);
  g_assert_cmpfloat_with_epsilon (q[0], 0.0015, 1e-12);
  g_assert_cmpfloat_with_epsilon (q[3], 0.035625, 1e-12);
}

/* Synthetic sides */

static double
normal (GRand *rand)
{
  /* Box–Muller */
  double u1 = g_rand_double_range (rand, 1e-300, 1);
  double u2 = g_rand_double (rand);

  return sqrt (-2 * log (u1)) * cos (2 * G_PI * u2);
}

typedef struct
{
  guint  n_functions;
  guint  steps[2];
  double seconds[2];   /* each step's length per side */
  double cv;           /* the noise: a share's coefficient of variation per step */
  double load_cv;      /* how much a step's total varies */
  guint  changed;      /* function with an effect, or G_MAXUINT */
  double effect;       /* its relative change, 0.2 = +20 % */
} Scenario;

/* Function f's share is (f + 1) / sum, with noise per step; the changed
 * one moves by @effect on the comparison side. In per-second mode the
 * load is per second, so longer steps hold more. */
static EmbersDiffStats *
synthesize (const Scenario      *sc,
            EmbersDiffStatsMode  mode,
            GRand               *rand)
{
  EmbersDiffStats *stats = embers_diff_stats_new (mode, 0);
  double weight_sum = 0;

  for (guint f = 0; f < sc->n_functions; f++)
    weight_sum += f + 1;

  for (guint side = 0; side < 2; side++)
    for (guint s = 0; s < sc->steps[side]; s++)
      {
        double load = 1 + sc->load_cv * normal (rand);
        double rate = 1e9 * MAX (0.05, load);
        double total = rate * sc->seconds[side];
        guint step = embers_diff_stats_add_step (stats, side, total, sc->seconds[side]);

        for (guint f = 0; f < sc->n_functions; f++)
          {
            g_autofree char *name = g_strdup_printf ("f%u", f);
            double share = (f + 1) / weight_sum;
            double noise = 1 + sc->cv * normal (rand);
            double v;

            if (side == 1 && f == sc->changed)
              share *= 1 + sc->effect;
            v = share * total * MAX (0.0, noise);
            embers_diff_stats_add_value (stats, side, step, name, v);
          }
      }
  embers_diff_stats_compute (stats);
  return stats;
}

/* Pure noise: how often does any function come out changed? */
static void
test_false_positives (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (19);
  Scenario sc = { 40, { 12, 12 }, { 15, 15 }, 0.15, 0.3, G_MAXUINT, 0 };
  const guint trials = 500;
  guint trials_with_any = 0, false_calls = 0;
  double rate, per_function;

  for (guint t = 0; t < trials; t++)
    {
      g_autoptr(EmbersDiffStats) stats = synthesize (&sc, EMBERS_DIFF_STATS_SHARE, rand);
      guint changed = embers_diff_stats_get_n_changed (stats);

      g_assert_true (embers_diff_stats_has_enough_steps (stats));
      false_calls += changed;
      if (changed > 0)
        trials_with_any++;
    }
  rate = (double)trials_with_any / trials;
  per_function = (double)false_calls / (trials * sc.n_functions);
  printf ("# false positives on pure noise (%u functions, %u+%u steps, CV %.0f%%, FDR %.0f%%): "
          "%u of %u trials called any function changed (%.1f%%); %.3f%% of all functions\n",
          sc.n_functions, sc.steps[0], sc.steps[1], sc.cv * 100, EMBERS_DIFF_STATS_DEFAULT_FDR * 100,
          trials_with_any, trials, rate * 100, per_function * 100);
  /* With only noise every discovery is false, so the FDR bounds the share
   * of trials with any: 5 %, plus the spread of 500 trials */
  g_assert_cmpfloat (rate, <=, EMBERS_DIFF_STATS_DEFAULT_FDR + 0.03);
}

/* One function grows within noise of 10 % per step: it is found, the
 * interval holds the truth, and the others stay neutral. Power depends
 * on the effect: printed for +10 %, +20 % and +30 %, required for +30 %
 * (t ≈ 6 with 12 steps a side, past Benjamini–Hochberg's bar for one
 * true change among 40). */
static void
test_true_change (void)
{
  static const double effects[] = { 0.10, 0.20, 0.30 };

  for (guint e = 0; e < G_N_ELEMENTS (effects); e++)
    {
      g_autoptr(GRand) rand = g_rand_new_with_seed (7 + e);
      Scenario sc = { 40, { 12, 12 }, { 15, 15 }, 0.10, 0.3, 5, effects[e] };
      const guint trials = 300;
      guint found = 0, covered = 0, others = 0;
      double fdp_sum = 0;

      for (guint t = 0; t < trials; t++)
        {
          g_autoptr(EmbersDiffStats) stats = synthesize (&sc, EMBERS_DIFF_STATS_SHARE, rand);
          const EmbersChangeStats *s = embers_diff_stats_lookup (stats, "f5");

          g_assert_nonnull (s);
          g_assert_cmpuint (s->n_baseline, ==, 12);
          g_assert_cmpuint (s->n_comparison, ==, 12);
          if (s->verdict == EMBERS_CHANGE_GREW)
            found++;
          g_assert_cmpint (s->verdict, !=, EMBERS_CHANGE_SHRANK);
          if (fabs (s->change - sc.effect * 100) <= s->interval)
            covered++;
          {
            guint calls = embers_diff_stats_get_n_changed (stats);
            guint wrong = calls - (s->verdict == EMBERS_CHANGE_GREW ? 1 : 0);

            others += wrong;
            /* The false discovery proportion of this trial */
            fdp_sum += calls > 0 ? (double)wrong / calls : 0;
          }
        }
      printf ("# power for +%.0f%% (CV 10%%, 12+12 steps, 40 functions): %.1f%%; interval coverage %.1f%%; "
              "%u false calls in %u trials, false discovery rate %.1f%%\n",
              effects[e] * 100, 100.0 * found / trials, 100.0 * covered / trials, others, trials,
              100 * fdp_sum / trials);
      /* The interval is right whatever the power; the false discovery
       * rate is what Benjamini–Hochberg promises, with room for 300 trials */
      g_assert_cmpuint (covered, >=, trials * 90 / 100);
      g_assert_cmpfloat (fdp_sum / trials, <=, EMBERS_DIFF_STATS_DEFAULT_FDR + 0.03);
      if (effects[e] >= 0.3)
        g_assert_cmpuint (found, >=, trials * 95 / 100);
    }
}

/* A big shrink is seen as such, with a readable interval */
static void
test_shrink_and_format (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (3);
  Scenario sc = { 10, { 8, 9 }, { 10, 10 }, 0.05, 0.2, 2, -0.5 };
  g_autoptr(EmbersDiffStats) stats = synthesize (&sc, EMBERS_DIFF_STATS_SHARE, rand);
  const EmbersChangeStats *s = embers_diff_stats_lookup (stats, "f2");
  g_autofree char *text = embers_change_stats_format (s);
  g_autofree char *sentence = embers_change_stats_describe (s);

  g_assert_cmpint (s->verdict, ==, EMBERS_CHANGE_SHRANK);
  g_assert_cmpfloat (s->change, <, -40);
  g_assert_cmpfloat (s->change, >, -60);
  g_assert_true (g_str_has_prefix (text, "\xe2\x88\x92"));   /* U+2212 */
  g_assert_nonnull (strstr (text, " ± "));
  g_assert_nonnull (strstr (sentence, "beyond the noise (8 and 9 steps)"));
  g_assert_null (embers_diff_stats_lookup (stats, "nowhere"));
}

/* Fewer steps than the test needs: nothing is claimed */
static void
test_not_enough_steps (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (5);
  Scenario sc = { 5, { 2, 6 }, { 10, 10 }, 0.01, 0.1, 1, 3.0 };
  g_autoptr(EmbersDiffStats) stats = synthesize (&sc, EMBERS_DIFF_STATS_SHARE, rand);
  const EmbersChangeStats *s = embers_diff_stats_lookup (stats, "f1");
  g_autofree char *sentence = embers_change_stats_describe (s);

  g_assert_false (embers_diff_stats_has_enough_steps (stats));
  g_assert_cmpuint (embers_diff_stats_get_n_changed (stats), ==, 0);
  g_assert_cmpint (s->verdict, ==, EMBERS_CHANGE_NOT_ENOUGH_STEPS);
  g_assert_true (isinf (s->interval));
  /* The change is there to read, but not called a change */
  g_assert_cmpfloat (s->change, >, 200);
  g_assert_cmpstr (sentence, ==, "Not enough steps to tell a change from noise: 2 and 6 steps, 3 needed on each side");
}

/* Steps of different lengths: in per-second mode equal rates are equal */
static void
test_per_second (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (11);
  /* Baseline steps are 10 s, comparison steps 60 s; f3 doubles its rate */
  Scenario sc = { 20, { 12, 12 }, { 10, 60 }, 0.10, 0.1, 3, 1.0 };
  g_autoptr(EmbersDiffStats) per_second = synthesize (&sc, EMBERS_DIFF_STATS_PER_SECOND, rand);
  const EmbersChangeStats *s3 = embers_diff_stats_lookup (per_second, "f3");
  const EmbersChangeStats *s4 = embers_diff_stats_lookup (per_second, "f4");
  guint changed = embers_diff_stats_get_n_changed (per_second);

  /* f3's +100 % per second is found, f4 (same rate) is not, although each
   * comparison step holds six times as much */
  g_assert_cmpint (s3->verdict, ==, EMBERS_CHANGE_GREW);
  g_assert_cmpint (s4->verdict, ==, EMBERS_CHANGE_WITHIN_NOISE);
  g_assert_cmpfloat (fabs (s4->change), <, 15);
  g_assert_cmpfloat (s4->mean_comparison / s4->mean_baseline, <, 1.5);
  g_assert_cmpuint (changed, <=, 2);
}

/* Equal constant values: no variance, no change; a constant shift is certain */
static void
test_constant (void)
{
  g_autoptr(EmbersDiffStats) stats = embers_diff_stats_new (EMBERS_DIFF_STATS_SHARE, 0);

  for (guint side = 0; side < 2; side++)
    for (guint i = 0; i < 4; i++)
      {
        guint step = embers_diff_stats_add_step (stats, side, 100, 10);

        embers_diff_stats_add_value (stats, side, step, "same", 20);
        embers_diff_stats_add_value (stats, side, step, "moved", side ? 30 : 10);
        if (side == 1)
          embers_diff_stats_add_value (stats, side, step, "born", 5);
      }
  embers_diff_stats_compute (stats);
  g_assert_cmpint (embers_diff_stats_lookup (stats, "same")->verdict, ==, EMBERS_CHANGE_WITHIN_NOISE);
  g_assert_cmpint (embers_diff_stats_lookup (stats, "moved")->verdict, ==, EMBERS_CHANGE_GREW);
  g_assert_cmpfloat_with_epsilon (embers_diff_stats_lookup (stats, "moved")->change, 200, 1e-9);
  g_assert_true (embers_diff_stats_lookup (stats, "born")->is_new);
  {
    g_autofree char *text = embers_change_stats_format (embers_diff_stats_lookup (stats, "born"));

    g_assert_cmpstr (text, ==, "new");
  }
}

/* Local files as steps, through EmbersLocalSource, and the per-node
 * verdicts of the merged diff */
static EmbersProfile *
folded_profile (const char *text,
                gint64      duration_ns)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersProfile) parsed = embers_folded_parse (text, strlen (text), &error);
  g_autoptr(EmbersProfileBuilder) b = embers_profile_builder_new ();

  g_assert_no_error (error);
  embers_profile_builder_add_sample_type (b, "cpu", "nanoseconds");
  embers_profile_builder_set_time (b, 0, duration_ns);
  embers_profile_builder_add_profile (b, parsed, 0, 0, NULL);
  return embers_profile_builder_finish (b, NULL);
}

static void
diff_stats_done (GObject      *source,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  EmbersDiffStats **out = user_data;
  g_autoptr(GError) error = NULL;

  *out = embers_local_source_diff_stats_finish (EMBERS_LOCAL_SOURCE (source), result, &error);
  g_assert_no_error (error);
}

static void
test_local_files (void)
{
  g_autoptr(EmbersLocalSource) source = embers_local_source_new ();
  g_autoptr(GRand) rand = g_rand_new_with_seed (23);
  g_autoptr(EmbersDiffStats) stats = NULL;
  g_autoptr(EmbersQuery) left = NULL;
  g_autoptr(EmbersQuery) right = NULL;
  g_autoptr(EmbersProfile) before = NULL;
  g_autoptr(EmbersProfile) after = NULL;
  g_autoptr(EmbersProfile) diff = NULL;
  g_autofree EmbersChangeVerdict *verdicts = NULL;
  g_autofree char *type = NULL;

  /* Ten files an hour apart for v1, ten for v2: parse grows by 60 % */
  for (guint i = 0; i < 20; i++)
    {
      gboolean v2 = i >= 10;
      gint64 parse = (gint64)(100 * (v2 ? 1.6 : 1.0) * (1 + 0.1 * normal (rand)));
      gint64 render = (gint64)(300 * (1 + 0.1 * normal (rand)));
      gint64 idle = (gint64)(50 * (1 + 0.1 * normal (rand)));
      g_autofree char *text = g_strdup_printf ("main;parse %" G_GINT64_FORMAT "\nmain;render %" G_GINT64_FORMAT
                                               "\nmain;render;idle %" G_GINT64_FORMAT "\n", parse, render, idle);
      g_autoptr(EmbersProfile) p = folded_profile (text, 10 * G_GINT64_CONSTANT (1000000000));
      const char *labels[] = { "service_name", "app", "version", v2 ? "v2" : "v1", NULL };
      g_autofree char *name = g_strdup_printf ("file-%u.pb", i);

      if (type == NULL)
        type = embers_local_source_profile_type_id (p, 0);
      embers_local_source_add_profile (source, name, p, 1000000 + i * 3600000, labels);
      if (i == 0)
        before = g_object_ref (p);
      if (i == 10)
        after = g_object_ref (p);
    }

  left = embers_query_new (type, "{version=\"v1\"}", 0, 0);
  right = embers_query_new (type, "{version=\"v2\"}", 0, 0);
  embers_local_source_diff_stats_async (source, left, right, EMBERS_DIFF_STATS_SHARE, NULL,
                                        diff_stats_done, &stats);
  embers_test_wait_while (stats == NULL);

  g_assert_cmpuint (embers_diff_stats_get_n_steps (stats, EMBERS_DIFF_SIDE_BASELINE), ==, 10);
  g_assert_cmpuint (embers_diff_stats_get_n_steps (stats, EMBERS_DIFF_SIDE_COMPARISON), ==, 10);
  g_assert_cmpint (embers_diff_stats_lookup (stats, "parse")->verdict, ==, EMBERS_CHANGE_GREW);
  g_assert_cmpint (embers_diff_stats_lookup (stats, "main")->verdict, ==, EMBERS_CHANGE_WITHIN_NOISE);

  /* Colouring a diff profile: the nodes of "parse" say grew */
  diff = embers_diff_profiles (before, 0, after, 0, NULL);
  g_assert_nonnull (diff);
  verdicts = embers_diff_stats_node_verdicts (stats, diff);
  for (guint32 n = 1; n < embers_profile_get_n_nodes (diff); n++)
    {
      const char *name = embers_profile_node_name_str (diff, n);

      if (g_str_equal (name, "parse"))
        g_assert_cmpint (verdicts[n], ==, EMBERS_CHANGE_GREW);
      else if (g_str_equal (name, "render"))
        g_assert_cmpint (verdicts[n], ==, embers_diff_stats_lookup (stats, "render")->verdict);
    }
}

/* Values keyed by stack, as a server's SelectSeries per call site gives
 * them: the nodes of that path, and only those, take the verdict */
static void
test_stack_keys (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (29);
  g_autoptr(EmbersDiffStats) stats = embers_diff_stats_new (EMBERS_DIFF_STATS_PER_SECOND, 0);
  g_autoptr(EmbersProfile) before = folded_profile ("main;a;parse 10\nmain;b;parse 10\n", 1);
  g_autoptr(EmbersProfile) after = folded_profile ("main;a;parse 20\nmain;b;parse 10\n", 1);
  g_autoptr(EmbersProfile) diff = embers_diff_profiles (before, 0, after, 0, NULL);
  g_autofree EmbersChangeVerdict *verdicts = NULL;

  embers_diff_stats_set_key (stats, EMBERS_DIFF_STATS_KEY_STACK);
  for (guint side = 0; side < 2; side++)
    for (guint i = 0; i < 10; i++)
      {
        /* 15 s steps, as SelectSeries with step=15 gives them */
        guint step = embers_diff_stats_add_step (stats, side, 0, 15);
        double a = 150 * (side ? 2 : 1) * (1 + 0.05 * normal (rand));
        double b = 150 * (1 + 0.05 * normal (rand));

        embers_diff_stats_add_value (stats, side, step, "main;a;parse", a);
        embers_diff_stats_add_value (stats, side, step, "main;b;parse", b);
      }
  embers_diff_stats_compute (stats);
  verdicts = embers_diff_stats_node_verdicts (stats, diff);
  for (guint32 n = 1; n < embers_profile_get_n_nodes (diff); n++)
    {
      g_autofree char *path = embers_profile_node_stack (diff, n, ";");

      if (g_str_equal (path, "main;a;parse"))
        g_assert_cmpint (verdicts[n], ==, EMBERS_CHANGE_GREW);
      else
        g_assert_cmpint (verdicts[n], ==, EMBERS_CHANGE_WITHIN_NOISE);
    }
}

/* The sentence for a node, by function and by stack; a short side says so */
static void
test_node_describe (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (37);
  g_autoptr(EmbersDiffStats) stats = embers_diff_stats_new (EMBERS_DIFF_STATS_SHARE, 0);
  g_autoptr(EmbersDiffStats) short_stats = embers_diff_stats_new (EMBERS_DIFF_STATS_SHARE, 0);
  g_autoptr(EmbersProfile) before = folded_profile ("main;parse 10\nmain;render 30\n", 1);
  g_autoptr(EmbersProfile) after = folded_profile ("main;parse 20\nmain;render 30\n", 1);
  g_autoptr(EmbersProfile) diff = embers_diff_profiles (before, 0, after, 0, NULL);
  g_autofree char *parse = NULL;
  g_autofree char *unknown = NULL;
  g_autofree char *short_text = NULL;
  g_autofree char *steps = NULL;
  guint32 parse_node = 0;

  for (guint32 n = 1; n < embers_profile_get_n_nodes (diff); n++)
    if (g_str_equal (embers_profile_node_name_str (diff, n), "parse"))
      parse_node = n;
  g_assert_cmpuint (parse_node, >, 0);

  for (guint side = 0; side < 2; side++)
    for (guint i = 0; i < 8 + side * 2; i++)
      {
        guint step = embers_diff_stats_add_step (stats, side, 1000, 15);

        embers_diff_stats_add_value (stats, side, step, "parse", 100 * (side ? 2 : 1) * (1 + 0.05 * normal (rand)));
      }
  embers_diff_stats_compute (stats);
  parse = embers_diff_stats_node_describe (stats, diff, parse_node);
  g_assert_true (g_str_has_suffix (parse, ", beyond the noise (8 and 10 steps)"));
  g_assert_nonnull (strstr (parse, "±"));
  /* A function without values, both sides long enough: nothing to say */
  unknown = embers_diff_stats_node_describe (stats, diff, 1);
  g_assert_null (unknown);
  steps = embers_change_stats_format_steps (embers_diff_stats_lookup (stats, "parse"));
  g_assert_cmpstr (steps, ==, "8 | 10");

  embers_diff_stats_add_step (short_stats, EMBERS_DIFF_SIDE_BASELINE, 1000, 15);
  embers_diff_stats_add_step (short_stats, EMBERS_DIFF_SIDE_COMPARISON, 1000, 15);
  embers_diff_stats_compute (short_stats);
  short_text = embers_diff_stats_node_describe (short_stats, diff, parse_node);
  g_assert_cmpstr (short_text, ==, "Not enough steps to tell a change from noise: 1 and 1 steps, 3 needed on each side");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/embers/diff-stats/student-t", test_student_t);
  g_test_add_func ("/embers/diff-stats/benjamini-hochberg", test_benjamini_hochberg);
  g_test_add_func ("/embers/diff-stats/false-positives", test_false_positives);
  g_test_add_func ("/embers/diff-stats/true-change", test_true_change);
  g_test_add_func ("/embers/diff-stats/shrink-and-format", test_shrink_and_format);
  g_test_add_func ("/embers/diff-stats/not-enough-steps", test_not_enough_steps);
  g_test_add_func ("/embers/diff-stats/per-second", test_per_second);
  g_test_add_func ("/embers/diff-stats/constant", test_constant);
  g_test_add_func ("/embers/diff-stats/local-files", test_local_files);
  g_test_add_func ("/embers/diff-stats/stack-keys", test_stack_keys);
  g_test_add_func ("/embers/diff-stats/node-describe", test_node_describe);

  return g_test_run ();
}
