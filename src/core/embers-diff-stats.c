/* embers-diff-stats.c: a diff that knows its noise
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <glib/gi18n.h>

#include "embers-diff.h"
#include "embers-diff-stats.h"
#include "embers-top.h"

typedef struct
{
  char   *name;
  GArray *values[2];   /* double per step, possibly shorter than the side */
  EmbersChangeStats stats;
} Function;

static void
function_free (Function *f)
{
  g_free (f->name);
  g_array_unref (f->values[0]);
  g_array_unref (f->values[1]);
  g_free (f);
}

struct _EmbersDiffStats
{
  GObject              parent_instance;

  EmbersDiffStatsMode  mode;
  EmbersDiffStatsKey   key;
  double               fdr;
  GArray              *totals[2];    /* double per step */
  GArray              *seconds[2];   /* double per step */
  GHashTable          *functions;    /* name -> Function */
  GPtrArray           *order;        /* Function, in the order first seen */
  gboolean             computed;
  guint                n_used[2];
  guint                n_changed;
};

G_DEFINE_FINAL_TYPE (EmbersDiffStats, embers_diff_stats, G_TYPE_OBJECT)

static void
embers_diff_stats_finalize (GObject *object)
{
  EmbersDiffStats *self = EMBERS_DIFF_STATS (object);

  for (guint s = 0; s < 2; s++)
    {
      g_array_unref (self->totals[s]);
      g_array_unref (self->seconds[s]);
    }
  g_hash_table_unref (self->functions);
  g_ptr_array_unref (self->order);

  G_OBJECT_CLASS (embers_diff_stats_parent_class)->finalize (object);
}

static void
embers_diff_stats_class_init (EmbersDiffStatsClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = embers_diff_stats_finalize;
}

static void
embers_diff_stats_init (EmbersDiffStats *self)
{
  for (guint s = 0; s < 2; s++)
    {
      self->totals[s] = g_array_new (FALSE, FALSE, sizeof (double));
      self->seconds[s] = g_array_new (FALSE, FALSE, sizeof (double));
    }
  self->functions = g_hash_table_new (g_str_hash, g_str_equal);
  self->order = g_ptr_array_new_with_free_func ((GDestroyNotify)function_free);
  self->fdr = EMBERS_DIFF_STATS_DEFAULT_FDR;
}

/**
 * embers_diff_stats_new:
 * @mode: shares of each step's total, or values per second
 * @fdr: the false discovery rate to control (0 < @fdr < 1; 0 for 5 %)
 */
EmbersDiffStats *
embers_diff_stats_new (EmbersDiffStatsMode mode,
                       double              fdr)
{
  EmbersDiffStats *self = g_object_new (EMBERS_TYPE_DIFF_STATS, NULL);

  self->mode = mode;
  if (fdr > 0 && fdr < 1)
    self->fdr = fdr;
  return self;
}

EmbersDiffStatsMode
embers_diff_stats_get_mode (EmbersDiffStats *self)
{
  g_return_val_if_fail (EMBERS_IS_DIFF_STATS (self), EMBERS_DIFF_STATS_SHARE);

  return self->mode;
}

void
embers_diff_stats_set_key (EmbersDiffStats    *self,
                           EmbersDiffStatsKey  key)
{
  g_return_if_fail (EMBERS_IS_DIFF_STATS (self));

  self->key = key;
}

EmbersDiffStatsKey
embers_diff_stats_get_key (EmbersDiffStats *self)
{
  g_return_val_if_fail (EMBERS_IS_DIFF_STATS (self), EMBERS_DIFF_STATS_KEY_FUNCTION);

  return self->key;
}

double
embers_diff_stats_get_fdr (EmbersDiffStats *self)
{
  g_return_val_if_fail (EMBERS_IS_DIFF_STATS (self), EMBERS_DIFF_STATS_DEFAULT_FDR);

  return self->fdr;
}

guint
embers_diff_stats_add_step (EmbersDiffStats *self,
                            EmbersDiffSide   side,
                            double           total,
                            double           seconds)
{
  g_return_val_if_fail (EMBERS_IS_DIFF_STATS (self), 0);
  g_return_val_if_fail (side <= EMBERS_DIFF_SIDE_COMPARISON, 0);
  g_return_val_if_fail (!self->computed, 0);

  g_array_append_val (self->totals[side], total);
  g_array_append_val (self->seconds[side], seconds);
  return self->totals[side]->len - 1;
}

static Function *
function_get (EmbersDiffStats *self,
              const char      *name)
{
  Function *f = g_hash_table_lookup (self->functions, name);

  if (f == NULL)
    {
      f = g_new0 (Function, 1);
      f->name = g_strdup (name);
      f->values[0] = g_array_new (FALSE, TRUE, sizeof (double));
      f->values[1] = g_array_new (FALSE, TRUE, sizeof (double));
      g_hash_table_insert (self->functions, f->name, f);
      g_ptr_array_add (self->order, f);
    }
  return f;
}

void
embers_diff_stats_add_value (EmbersDiffStats *self,
                             EmbersDiffSide   side,
                             guint            step,
                             const char      *function,
                             double           value)
{
  Function *f;

  g_return_if_fail (EMBERS_IS_DIFF_STATS (self));
  g_return_if_fail (side <= EMBERS_DIFF_SIDE_COMPARISON);
  g_return_if_fail (step < self->totals[side]->len);
  g_return_if_fail (function != NULL);
  g_return_if_fail (!self->computed);

  f = function_get (self, function);
  if (f->values[side]->len <= step)
    g_array_set_size (f->values[side], step + 1);
  g_array_index (f->values[side], double, step) += value;
}

void
embers_diff_stats_add_series (EmbersDiffStats *self,
                              EmbersDiffSide   side,
                              const char      *function,
                              const double    *values,
                              guint            n_values)
{
  g_return_if_fail (EMBERS_IS_DIFF_STATS (self));
  g_return_if_fail (side <= EMBERS_DIFF_SIDE_COMPARISON);
  g_return_if_fail (n_values <= self->totals[side]->len);

  for (guint i = 0; i < n_values; i++)
    embers_diff_stats_add_value (self, side, i, function, values[i]);
}

void
embers_diff_stats_add_profile (EmbersDiffStats *self,
                               EmbersDiffSide   side,
                               EmbersProfile   *profile,
                               guint            sample_type)
{
  g_autoptr(GArray) rows = NULL;
  guint step;

  g_return_if_fail (EMBERS_IS_DIFF_STATS (self));
  g_return_if_fail (EMBERS_IS_PROFILE (profile));
  g_return_if_fail (sample_type < embers_profile_get_n_sample_types (profile));

  step = embers_diff_stats_add_step (self, side, (double)embers_profile_get_total (profile, sample_type),
                                     (double)embers_profile_get_duration_nanos (profile) / 1e9);
  rows = embers_top_compute (profile, sample_type);
  for (guint i = 0; i < rows->len; i++)
    {
      EmbersTopRow *row = &g_array_index (rows, EmbersTopRow, i);

      embers_diff_stats_add_value (self, side, step, embers_profile_get_string (profile, row->name),
                                   (double)row->total);
    }
}

guint
embers_diff_stats_get_n_steps (EmbersDiffStats *self,
                               EmbersDiffSide   side)
{
  g_return_val_if_fail (EMBERS_IS_DIFF_STATS (self), 0);
  g_return_val_if_fail (side <= EMBERS_DIFF_SIDE_COMPARISON, 0);

  return self->totals[side]->len;
}

/* A step is used when its normaliser is positive */
static gboolean
step_usable (EmbersDiffStats *self,
             guint            side,
             guint            step,
             double          *normaliser)
{
  double n = self->mode == EMBERS_DIFF_STATS_SHARE
             ? g_array_index (self->totals[side], double, step)
             : g_array_index (self->seconds[side], double, step);

  *normaliser = n;
  return isfinite (n) && n > 0;
}

static guint
usable_steps (EmbersDiffStats *self,
              guint            side)
{
  guint n = 0;
  double unused;

  for (guint i = 0; i < self->totals[side]->len; i++)
    if (step_usable (self, side, i, &unused))
      n++;
  return n;
}

double
embers_diff_stats_get_step_total (EmbersDiffStats *self,
                                  EmbersDiffSide   side,
                                  guint            step)
{
  g_return_val_if_fail (EMBERS_IS_DIFF_STATS (self), NAN);
  g_return_val_if_fail (side <= EMBERS_DIFF_SIDE_COMPARISON, NAN);
  g_return_val_if_fail (step < self->totals[side]->len, NAN);

  return g_array_index (self->totals[side], double, step);
}

guint
embers_diff_stats_get_n_used_steps (EmbersDiffStats *self,
                                    EmbersDiffSide   side)
{
  g_return_val_if_fail (EMBERS_IS_DIFF_STATS (self), 0);
  g_return_val_if_fail (side <= EMBERS_DIFF_SIDE_COMPARISON, 0);

  return usable_steps (self, side);
}

gboolean
embers_diff_stats_has_enough_steps (EmbersDiffStats *self)
{
  g_return_val_if_fail (EMBERS_IS_DIFF_STATS (self), FALSE);

  return usable_steps (self, 0) >= EMBERS_DIFF_STATS_MIN_STEPS &&
         usable_steps (self, 1) >= EMBERS_DIFF_STATS_MIN_STEPS;
}

/* Statistics */

/* The continued fraction of the regularised incomplete beta function,
 * by the modified Lentz method */
static double
beta_fraction (double a,
               double b,
               double x)
{
  const double tiny = 1e-300;
  double c = 1, d = 1 - (a + b) * x / (a + 1);
  double h;

  if (fabs (d) < tiny)
    d = tiny;
  d = 1 / d;
  h = d;
  for (int m = 1; m <= 300; m++)
    {
      double m2 = 2.0 * m;
      double num = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
      double delta;

      d = 1 + num * d;
      if (fabs (d) < tiny)
        d = tiny;
      c = 1 + num / c;
      if (fabs (c) < tiny)
        c = tiny;
      d = 1 / d;
      h *= d * c;

      num = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
      d = 1 + num * d;
      if (fabs (d) < tiny)
        d = tiny;
      c = 1 + num / c;
      if (fabs (c) < tiny)
        c = tiny;
      d = 1 / d;
      delta = d * c;
      h *= delta;
      if (fabs (delta - 1) < 1e-15)
        break;
    }
  return h;
}

/* I_x(a, b) */
static double
incomplete_beta (double a,
                 double b,
                 double x)
{
  double front;

  if (x <= 0)
    return 0;
  if (x >= 1)
    return 1;
  front = exp (lgamma (a + b) - lgamma (a) - lgamma (b) + a * log (x) + b * log1p (-x));
  if (x < (a + 1) / (a + b + 2))
    return front * beta_fraction (a, b, x) / a;
  return 1 - front * beta_fraction (b, a, 1 - x) / b;
}

/**
 * embers_stats_student_t_cdf:
 *
 * P(T <= t) for Student's t with @df degrees of freedom (df > 0, not
 * necessarily whole, as Welch's test gives them).
 */
double
embers_stats_student_t_cdf (double t,
                            double df)
{
  double tail;

  if (isnan (t) || !(df > 0))
    return NAN;
  if (isinf (t))
    return t > 0 ? 1 : 0;
  tail = 0.5 * incomplete_beta (df / 2, 0.5, df / (df + t * t));
  return t > 0 ? 1 - tail : tail;
}

/* Student's t density */
static double
student_t_pdf (double t,
               double df)
{
  return exp (lgamma ((df + 1) / 2) - lgamma (df / 2) - 0.5 * log (df * G_PI) -
              (df + 1) / 2 * log1p (t * t / df));
}

/* The standard normal quantile (Acklam's rational approximation, relative
 * error below 1.2e-9): the start of the Newton steps below */
static double
normal_quantile (double p)
{
  static const double a[] = { -3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
                              1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00 };
  static const double b[] = { -5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                              6.680131188771972e+01, -1.328068155288572e+01 };
  static const double c[] = { -7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                              -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00 };
  static const double d[] = { 7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                              3.754408661907416e+00 };
  double q, r;

  if (p < 0.02425)
    {
      q = sqrt (-2 * log (p));
      return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
             ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
    }
  if (p > 1 - 0.02425)
    return -normal_quantile (1 - p);
  q = p - 0.5;
  r = q * q;
  return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
         (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
}

/* The t with P(T <= t) = p: Newton's method on the CDF from the
 * Cornish–Fisher expansion of the normal quantile (a few steps, each one
 * CDF); bisection when that does not settle (very few degrees of freedom
 * far in the tail) */
double
embers_stats_student_t_quantile (double p,
                                 double df)
{
  double lo = -1e6, hi = 1e6;

  if (!(p > 0 && p < 1) || !(df > 0))
    return NAN;

  {
    double z = normal_quantile (p);
    double z3 = z * z * z, z5 = z3 * z * z;
    double t = z + (z3 + z) / (4 * df) + (5 * z5 + 16 * z3 + 3 * z) / (96 * df * df);

    for (int i = 0; i < 12 && isfinite (t); i++)
      {
        double f = embers_stats_student_t_cdf (t, df) - p;
        double density = student_t_pdf (t, df);
        double step;

        if (!(density > 0))
          break;
        step = f / density;
        t -= step;
        if (fabs (step) < 1e-10 * MAX (1.0, fabs (t)))
          return t;
      }
  }

  for (int i = 0; i < 200; i++)
    {
      double mid = (lo + hi) / 2;

      if (embers_stats_student_t_cdf (mid, df) < p)
        lo = mid;
      else
        hi = mid;
      if (hi - lo < 1e-12 * MAX (1.0, fabs (mid)))
        break;
    }
  return (lo + hi) / 2;
}

typedef struct
{
  double p;
  guint  index;
} Ranked;

static int
compare_ranked (const void *a,
                const void *b)
{
  const Ranked *x = a, *y = b;

  if (x->p < y->p)
    return -1;
  if (x->p > y->p)
    return 1;
  return x->index < y->index ? -1 : x->index > y->index;
}

/**
 * embers_stats_benjamini_hochberg:
 * @q_values: (out caller-allocates): @n adjusted p-values
 *
 * Benjamini–Hochberg adjusted p-values: q_(i) = min over j >= i of
 * p_(j) · n / j, at most 1. Rejecting every hypothesis with q <= α keeps
 * the expected share of false discoveries at α or below (for independent
 * or positively dependent tests).
 */
void
embers_stats_benjamini_hochberg (const double *p_values,
                                 guint         n,
                                 double       *q_values)
{
  g_autofree Ranked *ranked = g_new (Ranked, MAX (n, 1u));
  double running = 1;

  for (guint i = 0; i < n; i++)
    {
      ranked[i].p = isnan (p_values[i]) ? 1 : p_values[i];
      ranked[i].index = i;
    }
  qsort (ranked, n, sizeof *ranked, compare_ranked);
  for (guint k = n; k > 0; k--)
    {
      double q = ranked[k - 1].p * n / k;

      running = MIN (running, q);
      q_values[ranked[k - 1].index] = MIN (running, 1.0);
    }
}

static void
mean_sd (const double *x,
         guint         n,
         double       *mean,
         double       *sd)
{
  double m = 0, ss = 0;

  /* Welford */
  for (guint i = 0; i < n; i++)
    {
      double delta = x[i] - m;

      m += delta / (i + 1);
      ss += delta * (x[i] - m);
    }
  *mean = m;
  *sd = n > 1 ? sqrt (MAX (ss, 0) / (n - 1)) : 0;
}

/* The per-step values of a function on a side: value / normaliser */
static guint
function_points (EmbersDiffStats *self,
                 Function        *f,
                 guint            side,
                 double          *out)
{
  guint n = 0;

  for (guint i = 0; i < self->totals[side]->len; i++)
    {
      double norm;
      double v = i < f->values[side]->len ? g_array_index (f->values[side], double, i) : 0;

      if (!step_usable (self, side, i, &norm))
        continue;
      out[n++] = v / norm;
    }
  return n;
}

static void
test_function (EmbersDiffStats *self,
               Function        *f,
               double          *buf0,
               double          *buf1,
               gboolean         enough)
{
  EmbersChangeStats *s = &f->stats;
  double mL, mR, sL, sR;
  double vL, vR, se;

  s->n_baseline = function_points (self, f, 0, buf0);
  s->n_comparison = function_points (self, f, 1, buf1);
  mean_sd (buf0, s->n_baseline, &mL, &sL);
  mean_sd (buf1, s->n_comparison, &mR, &sR);
  s->mean_baseline = mL;
  s->mean_comparison = mR;
  s->sd_baseline = sL;
  s->sd_comparison = sR;
  s->is_new = mL == 0 && mR > 0;
  s->is_removed = mR == 0 && mL > 0;
  s->change = mL > 0 ? (mR - mL) / mL * 100 : (mR > 0 ? INFINITY : 0);
  s->interval = INFINITY;
  s->p_value = 1;
  s->q_value = 1;
  s->verdict = enough ? EMBERS_CHANGE_WITHIN_NOISE : EMBERS_CHANGE_NOT_ENOUGH_STEPS;
  if (!enough)
    return;

  vL = sL * sL / s->n_baseline;
  vR = sR * sR / s->n_comparison;
  se = sqrt (vL + vR);
  if (se == 0)
    {
      /* No variation at all: a difference is certain, equality too */
      s->p_value = mL == mR ? 1 : 0;
      if (mL > 0)
        s->interval = 0;
      return;
    }

  {
    double t = (mR - mL) / se;
    double df_den = (s->n_baseline > 1 ? vL * vL / (s->n_baseline - 1) : 0) +
                    (s->n_comparison > 1 ? vR * vR / (s->n_comparison - 1) : 0);
    double df = df_den > 0 ? (vL + vR) * (vL + vR) / df_den : s->n_baseline + s->n_comparison - 2;

    s->p_value = 2 * embers_stats_student_t_cdf (-fabs (t), df);
    if (mL > 0)
      {
        /* The delta method: r = mR / mL - 1,
         * Var(r) ≈ Var(mR) / mL² + mR² Var(mL) / mL⁴ */
        double var_r = vR / (mL * mL) + mR * mR * vL / (mL * mL * mL * mL);

        s->interval = embers_stats_student_t_quantile (0.975, df) * sqrt (var_r) * 100;
      }
  }
}

void
embers_diff_stats_compute (EmbersDiffStats *self)
{
  g_autofree double *buf0 = NULL;
  g_autofree double *buf1 = NULL;
  g_autofree double *p = NULL;
  g_autofree double *q = NULL;
  gboolean enough;
  guint n = self->order->len;

  g_return_if_fail (EMBERS_IS_DIFF_STATS (self));
  g_return_if_fail (!self->computed);

  self->computed = TRUE;
  self->n_used[0] = usable_steps (self, 0);
  self->n_used[1] = usable_steps (self, 1);
  enough = embers_diff_stats_has_enough_steps (self);
  buf0 = g_new (double, MAX (self->totals[0]->len, 1u));
  buf1 = g_new (double, MAX (self->totals[1]->len, 1u));
  p = g_new (double, MAX (n, 1u));
  q = g_new (double, MAX (n, 1u));

  for (guint i = 0; i < n; i++)
    {
      Function *f = g_ptr_array_index (self->order, i);

      test_function (self, f, buf0, buf1, enough);
      p[i] = f->stats.p_value;
    }
  if (!enough)
    return;

  embers_stats_benjamini_hochberg (p, n, q);
  for (guint i = 0; i < n; i++)
    {
      Function *f = g_ptr_array_index (self->order, i);

      f->stats.q_value = q[i];
      if (q[i] <= self->fdr && f->stats.mean_comparison != f->stats.mean_baseline)
        {
          f->stats.verdict = f->stats.mean_comparison > f->stats.mean_baseline
                             ? EMBERS_CHANGE_GREW : EMBERS_CHANGE_SHRANK;
          self->n_changed++;
        }
    }
}

guint
embers_diff_stats_get_n_functions (EmbersDiffStats *self)
{
  g_return_val_if_fail (EMBERS_IS_DIFF_STATS (self), 0);

  return self->order->len;
}

guint
embers_diff_stats_get_n_changed (EmbersDiffStats *self)
{
  g_return_val_if_fail (EMBERS_IS_DIFF_STATS (self), 0);

  return self->n_changed;
}

const EmbersChangeStats *
embers_diff_stats_lookup (EmbersDiffStats *self,
                          const char      *function)
{
  Function *f;

  g_return_val_if_fail (EMBERS_IS_DIFF_STATS (self), NULL);
  g_return_val_if_fail (self->computed, NULL);

  f = function != NULL ? g_hash_table_lookup (self->functions, function) : NULL;
  return f != NULL ? &f->stats : NULL;
}

EmbersChangeVerdict *
embers_diff_stats_node_verdicts (EmbersDiffStats *self,
                                 EmbersProfile   *diff)
{
  guint n_nodes;
  EmbersChangeVerdict *verdicts;
  EmbersChangeVerdict fallback;
  g_autofree EmbersChangeVerdict *by_name = NULL;
  guint n_strings;

  g_return_val_if_fail (EMBERS_IS_DIFF_STATS (self), NULL);
  g_return_val_if_fail (EMBERS_IS_PROFILE (diff), NULL);
  g_return_val_if_fail (self->computed, NULL);

  n_nodes = embers_profile_get_n_nodes (diff);
  n_strings = embers_profile_get_n_strings (diff);
  fallback = self->n_used[0] >= EMBERS_DIFF_STATS_MIN_STEPS && self->n_used[1] >= EMBERS_DIFF_STATS_MIN_STEPS
             ? EMBERS_CHANGE_WITHIN_NOISE : EMBERS_CHANGE_NOT_ENOUGH_STEPS;

  /* Once per name, not per node */
  by_name = g_new (EmbersChangeVerdict, MAX (n_strings, 1u));
  for (guint32 s = 0; s < n_strings; s++)
    {
      const EmbersChangeStats *stats = embers_diff_stats_lookup (self, embers_profile_get_string (diff, s));

      by_name[s] = stats != NULL ? stats->verdict : fallback;
    }

  verdicts = g_new (EmbersChangeVerdict, MAX (n_nodes, 1u));
  verdicts[0] = fallback;
  if (self->key == EMBERS_DIFF_STATS_KEY_FUNCTION)
    {
      for (guint32 i = 1; i < n_nodes; i++)
        verdicts[i] = by_name[embers_profile_node_name (diff, i)];
      return verdicts;
    }

  /* By stack: each node's path, built from its parent's (pre-order) */
  {
    g_autoptr(GPtrArray) paths = g_ptr_array_new_full (n_nodes, g_free);

    g_ptr_array_add (paths, g_strdup (""));
    for (guint32 i = 1; i < n_nodes; i++)
      {
        guint32 parent = embers_profile_node_parent (diff, i);
        const char *up = g_ptr_array_index (paths, parent);
        char *path = up[0] != '\0' ? g_strconcat (up, ";", embers_profile_node_name_str (diff, i), NULL)
                                   : g_strdup (embers_profile_node_name_str (diff, i));
        const EmbersChangeStats *stats = embers_diff_stats_lookup (self, path);

        verdicts[i] = stats != NULL ? stats->verdict : fallback;
        g_ptr_array_add (paths, path);
      }
  }
  return verdicts;
}

char *
embers_diff_stats_node_describe (EmbersDiffStats *self,
                                 EmbersProfile   *diff,
                                 guint32          node)
{
  const EmbersChangeStats *stats;

  g_return_val_if_fail (EMBERS_IS_DIFF_STATS (self), NULL);
  g_return_val_if_fail (EMBERS_IS_PROFILE (diff), NULL);
  g_return_val_if_fail (self->computed, NULL);
  g_return_val_if_fail (node < embers_profile_get_n_nodes (diff), NULL);

  if (self->key == EMBERS_DIFF_STATS_KEY_STACK)
    {
      g_autofree char *path = embers_profile_node_stack (diff, node, ";");

      stats = embers_diff_stats_lookup (self, path);
    }
  else
    stats = embers_diff_stats_lookup (self, embers_profile_node_name_str (diff, node));

  if (stats != NULL)
    return embers_change_stats_describe (stats);
  if (self->n_used[0] < EMBERS_DIFF_STATS_MIN_STEPS || self->n_used[1] < EMBERS_DIFF_STATS_MIN_STEPS)
    return g_strdup_printf (_("Not enough steps to tell a change from noise: %u and %u steps, %u needed on each side"),
                            self->n_used[0], self->n_used[1], EMBERS_DIFF_STATS_MIN_STEPS);
  return NULL;
}

char *
embers_change_stats_format_steps (const EmbersChangeStats *stats)
{
  g_return_val_if_fail (stats != NULL, NULL);

  /* Translators: the steps of the baseline and of the comparison */
  return g_strdup_printf (C_("steps", "%u | %u"), stats->n_baseline, stats->n_comparison);
}

char *
embers_change_stats_format (const EmbersChangeStats *stats)
{
  g_autofree char *change = NULL;
  g_autofree char *interval = NULL;

  g_return_val_if_fail (stats != NULL, NULL);

  if (stats->is_new)
    return g_strdup (C_("change", "new"));
  if (stats->is_removed)
    return g_strdup (C_("change", "removed"));
  change = embers_diff_format_percent (stats->change, TRUE);
  if (!isfinite (stats->interval))
    return g_steal_pointer (&change);
  interval = embers_diff_format_percent (stats->interval, FALSE);
  /* Translators: a change and its 95 % interval, "+12% ± 3%" */
  return g_strdup_printf (C_("change", "%s ± %s"), change, interval);
}

char *
embers_change_stats_describe (const EmbersChangeStats *stats)
{
  g_autofree char *change = NULL;

  g_return_val_if_fail (stats != NULL, NULL);

  change = embers_change_stats_format (stats);
  switch (stats->verdict)
    {
    case EMBERS_CHANGE_NOT_ENOUGH_STEPS:
      /* Translators: the numbers of steps of the baseline and the comparison, then the minimum */
      return g_strdup_printf (_("Not enough steps to tell a change from noise: %u and %u steps, %u needed on each side"),
                              stats->n_baseline, stats->n_comparison, EMBERS_DIFF_STATS_MIN_STEPS);
    case EMBERS_CHANGE_WITHIN_NOISE:
      /* Translators: a change ("+2% ± 5%"), then the steps of the two sides */
      return g_strdup_printf (_("%s, within the noise (%u and %u steps)"),
                              change, stats->n_baseline, stats->n_comparison);
    case EMBERS_CHANGE_GREW:
    case EMBERS_CHANGE_SHRANK:
    default:
      /* Translators: a change ("+12% ± 3%"), then the steps of the two sides */
      return g_strdup_printf (_("%s, beyond the noise (%u and %u steps)"),
                              change, stats->n_baseline, stats->n_comparison);
    }
}
