/* embers-snapshots.c: regressions across many snapshots
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gi18n.h>

#include "embers-diff.h"
#include "embers-format.h"
#include "embers-local-source.h"
#include "embers-selector.h"
#include "embers-snapshots.h"
#include "embers-top.h"

/* The data, shared by every order of it */

typedef struct
{
  char        *name;
  EmbersQuery *query;
  GFile       *file;
  GArray      *totals;    /* double per step */
  GArray      *seconds;   /* double per step */
} Snapshot;

typedef struct
{
  char      *key;
  GPtrArray *values;      /* per snapshot: GArray of double per step, or NULL */
} Key;

typedef struct
{
  gatomicrefcount      ref;
  EmbersDiffStatsMode  mode;
  double               fdr;
  guint                max_rows;
  char                *sample_type;
  char                *unit;
  GPtrArray           *snapshots;  /* Snapshot */
  GPtrArray           *keys;       /* Key, in the order first seen */
  GHashTable          *by_key;     /* key -> Key */
  EmbersSource        *source;     /* where the snapshots' queries go, or NULL */
  char                *type_id;    /* of the files' profiles */
} Data;

static void
snapshot_free (Snapshot *s)
{
  g_free (s->name);
  g_clear_pointer (&s->query, embers_query_free);
  g_clear_object (&s->file);
  g_array_unref (s->totals);
  g_array_unref (s->seconds);
  g_free (s);
}

static void
values_free (gpointer data)
{
  if (data != NULL)
    g_array_unref (data);
}

static void
key_free (Key *k)
{
  g_free (k->key);
  g_ptr_array_unref (k->values);
  g_free (k);
}

static Data *
data_new (void)
{
  Data *d = g_new0 (Data, 1);

  g_atomic_ref_count_init (&d->ref);
  d->snapshots = g_ptr_array_new_with_free_func ((GDestroyNotify)snapshot_free);
  d->keys = g_ptr_array_new_with_free_func ((GDestroyNotify)key_free);
  d->by_key = g_hash_table_new (g_str_hash, g_str_equal);
  d->fdr = EMBERS_DIFF_STATS_DEFAULT_FDR;
  d->max_rows = EMBERS_SNAPSHOTS_MAX_ROWS_DEFAULT;
  return d;
}

static Data *
data_ref (Data *d)
{
  g_atomic_ref_count_inc (&d->ref);
  return d;
}

static void
data_unref (Data *d)
{
  if (!g_atomic_ref_count_dec (&d->ref))
    return;
  g_hash_table_unref (d->by_key);
  g_ptr_array_unref (d->keys);
  g_ptr_array_unref (d->snapshots);
  g_free (d->sample_type);
  g_free (d->unit);
  g_clear_object (&d->source);
  g_free (d->type_id);
  g_free (d);
}

/* A computed row */
typedef struct
{
  EmbersSnapshotRow  row;
  Key               *key;
  double            *shares;
  double            *deltas;
  EmbersChangeStats *steps;
  double             rank;   /* largest share, for max_rows */
} Row;

struct _EmbersSnapshots
{
  GObject    parent_instance;

  Data      *data;
  guint     *order;       /* position -> snapshot index */
  guint      n_order;
  gboolean   filling;     /* data may still be added (no other order shares it) */
  gboolean   computed;
  GPtrArray *rows;        /* Row, sorted */
  guint      n_flagged;
  guint      n_tested;
  guint      n_flagged_steps;
};

G_DEFINE_FINAL_TYPE (EmbersSnapshots, embers_snapshots, G_TYPE_OBJECT)

static void
row_free (Row *r)
{
  g_free (r->shares);
  g_free (r->deltas);
  g_free (r->steps);
  g_free (r);
}

static void
embers_snapshots_finalize (GObject *object)
{
  EmbersSnapshots *self = EMBERS_SNAPSHOTS (object);

  g_clear_pointer (&self->rows, g_ptr_array_unref);
  g_free (self->order);
  data_unref (self->data);

  G_OBJECT_CLASS (embers_snapshots_parent_class)->finalize (object);
}

static void
embers_snapshots_class_init (EmbersSnapshotsClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = embers_snapshots_finalize;
}

static void
embers_snapshots_init (EmbersSnapshots *self)
{
}

/**
 * embers_snapshots_new:
 * @mode: shares of each step's total, or values per second
 * @fdr: the false discovery rate over the whole table (0 for 5 %)
 */
EmbersSnapshots *
embers_snapshots_new (EmbersDiffStatsMode mode,
                      double              fdr)
{
  EmbersSnapshots *self = g_object_new (EMBERS_TYPE_SNAPSHOTS, NULL);

  self->data = data_new ();
  self->data->mode = mode;
  if (fdr > 0 && fdr < 1)
    self->data->fdr = fdr;
  self->filling = TRUE;
  return self;
}

void
embers_snapshots_set_max_rows (EmbersSnapshots *self,
                               guint            max_rows)
{
  g_return_if_fail (EMBERS_IS_SNAPSHOTS (self));
  g_return_if_fail (self->filling);

  self->data->max_rows = max_rows;
}

void
embers_snapshots_set_unit (EmbersSnapshots *self,
                           const char      *sample_type,
                           const char      *unit)
{
  g_return_if_fail (EMBERS_IS_SNAPSHOTS (self));
  g_return_if_fail (self->filling);

  g_free (self->data->sample_type);
  g_free (self->data->unit);
  self->data->sample_type = g_strdup (sample_type);
  self->data->unit = g_strdup (unit);
}

void
embers_snapshots_set_source (EmbersSnapshots *self,
                             EmbersSource    *source)
{
  g_return_if_fail (EMBERS_IS_SNAPSHOTS (self));
  g_return_if_fail (self->filling);

  g_set_object (&self->data->source, source);
}

EmbersSource *
embers_snapshots_get_source (EmbersSnapshots *self)
{
  g_return_val_if_fail (EMBERS_IS_SNAPSHOTS (self), NULL);

  return self->data->source;
}

const char *
embers_snapshots_get_sample_type (EmbersSnapshots *self)
{
  g_return_val_if_fail (EMBERS_IS_SNAPSHOTS (self), NULL);

  return self->data->sample_type;
}

guint
embers_snapshots_add_snapshot (EmbersSnapshots   *self,
                               const char        *name,
                               const EmbersQuery *query,
                               GFile             *file)
{
  Snapshot *s;

  g_return_val_if_fail (EMBERS_IS_SNAPSHOTS (self), 0);
  g_return_val_if_fail (self->filling, 0);
  g_return_val_if_fail (name != NULL, 0);

  s = g_new0 (Snapshot, 1);
  s->name = g_strdup (name);
  s->query = query != NULL ? embers_query_copy (query) : NULL;
  s->file = file != NULL ? g_object_ref (file) : NULL;
  s->totals = g_array_new (FALSE, FALSE, sizeof (double));
  s->seconds = g_array_new (FALSE, FALSE, sizeof (double));
  g_ptr_array_add (self->data->snapshots, s);

  self->order = g_renew (guint, self->order, self->data->snapshots->len);
  self->order[self->n_order] = self->n_order;
  self->n_order++;
  return self->data->snapshots->len - 1;
}

guint
embers_snapshots_add_step (EmbersSnapshots *self,
                           guint            snapshot,
                           double           total,
                           double           seconds)
{
  Snapshot *s;

  g_return_val_if_fail (EMBERS_IS_SNAPSHOTS (self), 0);
  g_return_val_if_fail (self->filling, 0);
  g_return_val_if_fail (snapshot < self->data->snapshots->len, 0);

  s = g_ptr_array_index (self->data->snapshots, snapshot);
  g_array_append_val (s->totals, total);
  g_array_append_val (s->seconds, seconds);
  return s->totals->len - 1;
}

void
embers_snapshots_add_value (EmbersSnapshots *self,
                            guint            snapshot,
                            guint            step,
                            const char      *key,
                            double           value)
{
  Data *d;
  Key *k;
  GArray *values;

  g_return_if_fail (EMBERS_IS_SNAPSHOTS (self));
  g_return_if_fail (self->filling);
  g_return_if_fail (key != NULL);

  d = self->data;
  g_return_if_fail (snapshot < d->snapshots->len);
  g_return_if_fail (step < ((Snapshot *)g_ptr_array_index (d->snapshots, snapshot))->totals->len);

  k = g_hash_table_lookup (d->by_key, key);
  if (k == NULL)
    {
      k = g_new0 (Key, 1);
      k->key = g_strdup (key);
      k->values = g_ptr_array_new_with_free_func (values_free);
      g_hash_table_insert (d->by_key, k->key, k);
      g_ptr_array_add (d->keys, k);
    }
  if (k->values->len < d->snapshots->len)
    g_ptr_array_set_size (k->values, d->snapshots->len);
  values = g_ptr_array_index (k->values, snapshot);
  if (values == NULL)
    {
      values = g_array_new (FALSE, TRUE, sizeof (double));
      g_ptr_array_index (k->values, snapshot) = values;
    }
  if (values->len <= step)
    g_array_set_size (values, step + 1);
  g_array_index (values, double, step) += value;
}

void
embers_snapshots_add_profile (EmbersSnapshots *self,
                              guint            snapshot,
                              EmbersProfile   *profile,
                              guint            sample_type)
{
  g_autoptr(GArray) rows = NULL;
  guint step;

  g_return_if_fail (EMBERS_IS_SNAPSHOTS (self));
  g_return_if_fail (EMBERS_IS_PROFILE (profile));
  g_return_if_fail (sample_type < embers_profile_get_n_sample_types (profile));

  step = embers_snapshots_add_step (self, snapshot, (double)embers_profile_get_total (profile, sample_type),
                                    (double)embers_profile_get_duration_nanos (profile) / 1e9);
  rows = embers_top_compute (profile, sample_type);
  for (guint i = 0; i < rows->len; i++)
    {
      EmbersTopRow *row = &g_array_index (rows, EmbersTopRow, i);

      if (row->total != 0)
        embers_snapshots_add_value (self, snapshot, step, embers_profile_get_string (profile, row->name),
                                    (double)row->total);
    }
}

/* Computing */

static gboolean
step_normaliser (Data     *d,
                 Snapshot *s,
                 guint     step,
                 double   *norm)
{
  double n = d->mode == EMBERS_DIFF_STATS_SHARE ? g_array_index (s->totals, double, step)
                                                 : g_array_index (s->seconds, double, step);

  *norm = n;
  return isfinite (n) && n > 0;
}

/* The mean of a key's per-step values of a snapshot (what the noise test
 * compares); NAN without usable steps */
static double
snapshot_mean (Data     *d,
               Key      *k,
               guint     snapshot)
{
  Snapshot *s = g_ptr_array_index (d->snapshots, snapshot);
  GArray *values = snapshot < k->values->len ? g_ptr_array_index (k->values, snapshot) : NULL;
  double sum = 0;
  guint n = 0;

  for (guint i = 0; i < s->totals->len; i++)
    {
      double norm;

      if (!step_normaliser (d, s, i, &norm))
        continue;
      if (values != NULL && i < values->len)
        sum += g_array_index (values, double, i) / norm;
      n++;
    }
  return n > 0 ? sum / n : NAN;
}

static guint
usable_steps (Data     *d,
              Snapshot *s)
{
  guint n = 0;

  for (guint i = 0; i < s->totals->len; i++)
    {
      double norm;

      if (step_normaliser (d, s, i, &norm))
        n++;
    }
  return n;
}

static void
add_side (EmbersDiffStats *stats,
          EmbersDiffSide   side,
          Snapshot        *s)
{
  for (guint i = 0; i < s->totals->len; i++)
    embers_diff_stats_add_step (stats, side, g_array_index (s->totals, double, i),
                                g_array_index (s->seconds, double, i));
}

static int
compare_rank (gconstpointer a,
              gconstpointer b)
{
  const Row *x = *(Row * const *)a, *y = *(Row * const *)b;

  if (x->rank != y->rank)
    return x->rank > y->rank ? -1 : 1;
  return strcmp (x->key->key, y->key->key);
}

static double
row_sort_size (const Row *r)
{
  if (r->row.jump >= 0)
    return fabs (r->deltas[r->row.jump]);
  if (r->row.largest >= 0)
    return fabs (r->deltas[r->row.largest]);
  return 0;
}

static int
compare_rows (gconstpointer a,
              gconstpointer b)
{
  const Row *x = *(Row * const *)a, *y = *(Row * const *)b;
  double sx, sy;

  if ((x->row.jump >= 0) != (y->row.jump >= 0))
    return x->row.jump >= 0 ? -1 : 1;
  sx = row_sort_size (x);
  sy = row_sort_size (y);
  if (sx != sy)
    return sx > sy ? -1 : 1;
  return strcmp (x->key->key, y->key->key);
}

void
embers_snapshots_compute (EmbersSnapshots *self)
{
  Data *d;
  guint K, n_steps;
  g_autoptr(GPtrArray) all = NULL;
  g_autoptr(GArray) p_values = NULL;
  g_autoptr(GArray) cells = NULL;   /* guint row * n_steps + step, of tested cells */
  g_autofree double *q_values = NULL;

  g_return_if_fail (EMBERS_IS_SNAPSHOTS (self));
  g_return_if_fail (!self->computed);

  d = self->data;
  self->filling = FALSE;
  self->computed = TRUE;
  K = self->n_order;
  n_steps = K > 0 ? K - 1 : 0;

  /* Shares per snapshot, then the rows kept */
  all = g_ptr_array_new_with_free_func ((GDestroyNotify)row_free);
  for (guint i = 0; i < d->keys->len; i++)
    {
      Key *k = g_ptr_array_index (d->keys, i);
      Row *r = g_new0 (Row, 1);
      gboolean whole;

      r->key = k;
      r->shares = g_new (double, MAX (K, 1u));
      r->deltas = g_new0 (double, MAX (n_steps, 1u));
      r->steps = g_new0 (EmbersChangeStats, MAX (n_steps, 1u));
      r->rank = 0;
      whole = K > 0;
      for (guint p = 0; p < K; p++)
        {
          r->shares[p] = snapshot_mean (d, k, self->order[p]);
          if (isfinite (r->shares[p]))
            r->rank = MAX (r->rank, r->shares[p]);
          /* Shares are per step; their mean is 1 only if every step's is */
          if (!(isfinite (r->shares[p]) && r->shares[p] >= 1 - 1e-12))
            whole = FALSE;
        }
      /* All of every step of every snapshot (main, a root's only child):
       * 100 % throughout says nothing, and would only add untestable
       * cells to the false-discovery family. A server's rows skip it too. */
      if (whole && d->mode == EMBERS_DIFF_STATS_SHARE)
        {
          row_free (r);
          continue;
        }
      g_ptr_array_add (all, r);
    }
  if (d->max_rows > 0 && all->len > d->max_rows)
    {
      g_ptr_array_sort (all, compare_rank);
      g_ptr_array_set_size (all, d->max_rows);
    }
  self->rows = g_steal_pointer (&all);

  /* Each step i → i + 1 by the noise test of a diff */
  p_values = g_array_new (FALSE, FALSE, sizeof (double));
  cells = g_array_new (FALSE, FALSE, sizeof (guint));
  for (guint step = 0; step < n_steps; step++)
    {
      Snapshot *a = g_ptr_array_index (d->snapshots, self->order[step]);
      Snapshot *b = g_ptr_array_index (d->snapshots, self->order[step + 1]);
      g_autoptr(EmbersDiffStats) stats = embers_diff_stats_new (d->mode, d->fdr);

      add_side (stats, EMBERS_DIFF_SIDE_BASELINE, a);
      add_side (stats, EMBERS_DIFF_SIDE_COMPARISON, b);
      for (guint i = 0; i < self->rows->len; i++)
        {
          Row *r = g_ptr_array_index (self->rows, i);
          GArray *va = self->order[step] < r->key->values->len
                       ? g_ptr_array_index (r->key->values, self->order[step]) : NULL;
          GArray *vb = self->order[step + 1] < r->key->values->len
                       ? g_ptr_array_index (r->key->values, self->order[step + 1]) : NULL;

          /* A function in neither has nothing to test; it is still
           * present with zeros so that lookup finds it */
          if (va != NULL)
            embers_diff_stats_add_series (stats, EMBERS_DIFF_SIDE_BASELINE, r->key->key,
                                          (const double *)va->data, MIN (va->len, a->totals->len));
          if (vb != NULL)
            embers_diff_stats_add_series (stats, EMBERS_DIFF_SIDE_COMPARISON, r->key->key,
                                          (const double *)vb->data, MIN (vb->len, b->totals->len));
        }
      embers_diff_stats_compute (stats);

      for (guint i = 0; i < self->rows->len; i++)
        {
          Row *r = g_ptr_array_index (self->rows, i);
          const EmbersChangeStats *cs = embers_diff_stats_lookup (stats, r->key->key);
          double sa = isfinite (r->shares[step]) ? r->shares[step] : 0;
          double sb = isfinite (r->shares[step + 1]) ? r->shares[step + 1] : 0;

          r->deltas[step] = sb - sa;
          if (cs != NULL)
            r->steps[step] = *cs;
          else
            {
              r->steps[step].verdict = embers_diff_stats_has_enough_steps (stats)
                                       ? EMBERS_CHANGE_WITHIN_NOISE : EMBERS_CHANGE_NOT_ENOUGH_STEPS;
              r->steps[step].n_baseline = usable_steps (d, a);
              r->steps[step].n_comparison = usable_steps (d, b);
              r->steps[step].interval = INFINITY;
              r->steps[step].p_value = r->steps[step].q_value = 1;
            }
          if (r->steps[step].verdict != EMBERS_CHANGE_NOT_ENOUGH_STEPS)
            {
              guint cell = i * n_steps + step;

              /* The decision is made below, over the whole table */
              r->steps[step].verdict = EMBERS_CHANGE_WITHIN_NOISE;
              g_array_append_val (p_values, r->steps[step].p_value);
              g_array_append_val (cells, cell);
            }
        }
    }

  /* Benjamini–Hochberg over every tested cell of the table */
  self->n_tested = p_values->len;
  q_values = g_new (double, MAX (p_values->len, 1u));
  embers_stats_benjamini_hochberg ((const double *)p_values->data, p_values->len, q_values);
  for (guint c = 0; c < cells->len; c++)
    {
      guint cell = g_array_index (cells, guint, c);
      Row *r = g_ptr_array_index (self->rows, cell / n_steps);
      EmbersChangeStats *cs = &r->steps[cell % n_steps];

      cs->q_value = q_values[c];
      if (q_values[c] <= d->fdr && cs->mean_comparison != cs->mean_baseline)
        {
          cs->verdict = cs->mean_comparison > cs->mean_baseline ? EMBERS_CHANGE_GREW : EMBERS_CHANGE_SHRANK;
          self->n_flagged_steps++;
        }
    }

  /* Each row's jump and largest step, then the order of the rows */
  for (guint i = 0; i < self->rows->len; i++)
    {
      Row *r = g_ptr_array_index (self->rows, i);

      r->row.key = r->key->key;
      r->row.name = r->key->key;
      r->row.shares = r->shares;
      r->row.deltas = r->deltas;
      r->row.steps = r->steps;
      r->row.jump = -1;
      r->row.largest = -1;
      for (guint step = 0; step < n_steps; step++)
        {
          double size = fabs (r->deltas[step]);

          if (r->row.largest < 0 || size > fabs (r->deltas[r->row.largest]))
            r->row.largest = step;
          if ((r->steps[step].verdict == EMBERS_CHANGE_GREW || r->steps[step].verdict == EMBERS_CHANGE_SHRANK) &&
              (r->row.jump < 0 || size > fabs (r->deltas[r->row.jump])))
            r->row.jump = step;
        }
      if (r->row.jump >= 0)
        self->n_flagged++;
    }
  g_ptr_array_sort (self->rows, compare_rows);
}

gboolean
embers_snapshots_is_computed (EmbersSnapshots *self)
{
  g_return_val_if_fail (EMBERS_IS_SNAPSHOTS (self), FALSE);

  return self->computed;
}

EmbersSnapshots *
embers_snapshots_reorder (EmbersSnapshots *self,
                          const guint     *order,
                          guint            n_order)
{
  EmbersSnapshots *copy;
  g_autofree gboolean *seen = NULL;

  g_return_val_if_fail (EMBERS_IS_SNAPSHOTS (self), NULL);
  g_return_val_if_fail (n_order == self->data->snapshots->len, NULL);

  seen = g_new0 (gboolean, MAX (n_order, 1u));
  for (guint i = 0; i < n_order; i++)
    {
      g_return_val_if_fail (order[i] < n_order && !seen[order[i]], NULL);
      seen[order[i]] = TRUE;
    }

  self->filling = FALSE;
  copy = g_object_new (EMBERS_TYPE_SNAPSHOTS, NULL);
  copy->data = data_ref (self->data);
  copy->order = g_memdup2 (order, sizeof (guint) * MAX (n_order, 1u));
  copy->n_order = n_order;
  return copy;
}

static void
compute_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  embers_snapshots_compute (source_object);
  g_task_return_boolean (task, TRUE);
}

void
embers_snapshots_compute_async (EmbersSnapshots     *self,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (EMBERS_IS_SNAPSHOTS (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, embers_snapshots_compute_async);
  g_task_set_return_on_cancel (task, TRUE);
  g_task_run_in_thread (task, compute_thread);
}

gboolean
embers_snapshots_compute_finish (EmbersSnapshots  *self,
                                 GAsyncResult     *result,
                                 GError          **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* Reading */

guint
embers_snapshots_get_n_snapshots (EmbersSnapshots *self)
{
  g_return_val_if_fail (EMBERS_IS_SNAPSHOTS (self), 0);

  return self->n_order;
}

static Snapshot *
at (EmbersSnapshots *self,
    guint            position)
{
  return g_ptr_array_index (self->data->snapshots, self->order[position]);
}

const char *
embers_snapshots_get_name (EmbersSnapshots *self,
                           guint            position)
{
  g_return_val_if_fail (EMBERS_IS_SNAPSHOTS (self), NULL);
  g_return_val_if_fail (position < self->n_order, NULL);

  return at (self, position)->name;
}

guint
embers_snapshots_get_index (EmbersSnapshots *self,
                            guint            position)
{
  g_return_val_if_fail (EMBERS_IS_SNAPSHOTS (self), 0);
  g_return_val_if_fail (position < self->n_order, 0);

  return self->order[position];
}

const EmbersQuery *
embers_snapshots_get_query (EmbersSnapshots *self,
                            guint            position)
{
  g_return_val_if_fail (EMBERS_IS_SNAPSHOTS (self), NULL);
  g_return_val_if_fail (position < self->n_order, NULL);

  return at (self, position)->query;
}

GFile *
embers_snapshots_get_file (EmbersSnapshots *self,
                           guint            position)
{
  g_return_val_if_fail (EMBERS_IS_SNAPSHOTS (self), NULL);
  g_return_val_if_fail (position < self->n_order, NULL);

  return at (self, position)->file;
}

guint
embers_snapshots_get_n_steps (EmbersSnapshots *self,
                              guint            position)
{
  g_return_val_if_fail (EMBERS_IS_SNAPSHOTS (self), 0);
  g_return_val_if_fail (position < self->n_order, 0);

  return usable_steps (self->data, at (self, position));
}

gboolean
embers_snapshots_has_enough_steps (EmbersSnapshots *self)
{
  g_return_val_if_fail (EMBERS_IS_SNAPSHOTS (self), FALSE);

  for (guint p = 0; p < self->n_order; p++)
    if (usable_steps (self->data, at (self, p)) < EMBERS_DIFF_STATS_MIN_STEPS)
      return FALSE;
  return self->n_order >= 2;
}

double
embers_snapshots_get_fdr (EmbersSnapshots *self)
{
  g_return_val_if_fail (EMBERS_IS_SNAPSHOTS (self), EMBERS_DIFF_STATS_DEFAULT_FDR);

  return self->data->fdr;
}

guint
embers_snapshots_get_n_rows (EmbersSnapshots *self)
{
  g_return_val_if_fail (EMBERS_IS_SNAPSHOTS (self), 0);

  return self->rows != NULL ? self->rows->len : 0;
}

const EmbersSnapshotRow *
embers_snapshots_get_row (EmbersSnapshots *self,
                          guint            row)
{
  g_return_val_if_fail (EMBERS_IS_SNAPSHOTS (self), NULL);
  g_return_val_if_fail (self->computed, NULL);
  g_return_val_if_fail (row < self->rows->len, NULL);

  return &((Row *)g_ptr_array_index (self->rows, row))->row;
}

int
embers_snapshots_find_row (EmbersSnapshots *self,
                           const char      *key)
{
  g_return_val_if_fail (EMBERS_IS_SNAPSHOTS (self), -1);
  g_return_val_if_fail (self->computed, -1);

  for (guint i = 0; i < self->rows->len; i++)
    if (g_strcmp0 (((Row *)g_ptr_array_index (self->rows, i))->key->key, key) == 0)
      return i;
  return -1;
}

guint
embers_snapshots_get_n_flagged (EmbersSnapshots *self)
{
  g_return_val_if_fail (EMBERS_IS_SNAPSHOTS (self), 0);

  return self->n_flagged;
}

guint
embers_snapshots_get_n_tested (EmbersSnapshots *self)
{
  g_return_val_if_fail (EMBERS_IS_SNAPSHOTS (self), 0);

  return self->n_tested;
}

guint
embers_snapshots_get_n_flagged_steps (EmbersSnapshots *self)
{
  g_return_val_if_fail (EMBERS_IS_SNAPSHOTS (self), 0);

  return self->n_flagged_steps;
}

/* Text */

char *
embers_snapshots_format_share (double share)
{
  if (!isfinite (share))
    return g_strdup ("–");
  if (share != 0 && fabs (share) < 0.001)
    /* Translators: a share of less than 0.1 % */
    return g_strdup (C_("share", "<0.1%"));
  return g_strdup_printf (C_("share", "%.1f%%"), share * 100);
}

char *
embers_snapshots_describe_step (EmbersSnapshots *self,
                                guint            row,
                                guint            step)
{
  const EmbersSnapshotRow *r;
  g_autofree char *change = NULL;
  g_autofree char *from = NULL;
  g_autofree char *to = NULL;

  g_return_val_if_fail (EMBERS_IS_SNAPSHOTS (self), NULL);
  g_return_val_if_fail (step + 1 < self->n_order, NULL);

  r = embers_snapshots_get_row (self, row);
  g_return_val_if_fail (r != NULL, NULL);

  change = embers_change_stats_describe (&r->steps[step]);
  from = embers_snapshots_format_share (r->shares[step]);
  to = embers_snapshots_format_share (r->shares[step + 1]);
  /* Translators: two snapshots ("v1.2 → v1.3"), the shares of the total
   * before and after ("4.0% → 6.5%"), then the change with its noise
   * ("+62% ± 9%, beyond the noise (10 and 12 steps)") */
  return g_strdup_printf (_("%s → %s: %s → %s of the total; %s"),
                          embers_snapshots_get_name (self, step),
                          embers_snapshots_get_name (self, step + 1),
                          from, to, change);
}

char *
embers_snapshots_describe_order (EmbersSnapshots *self)
{
  GString *s;

  g_return_val_if_fail (EMBERS_IS_SNAPSHOTS (self), NULL);

  s = g_string_new (NULL);
  for (guint p = 0; p < self->n_order; p++)
    {
      if (p == 0)
        /* Translators: the first snapshot of a series, which the others are compared with */
        g_string_append_printf (s, _("%s (baseline)"), embers_snapshots_get_name (self, p));
      else
        g_string_append_printf (s, " → %s", embers_snapshots_get_name (self, p));
    }
  return g_string_free (s, FALSE);
}

void
embers_snapshots_sparkline (const double *values,
                            guint         n,
                            double        width,
                            double        height,
                            double        pad,
                            double       *x,
                            double       *y)
{
  double top = 0;
  double w = MAX (0, width - 2 * pad), h = MAX (0, height - 2 * pad);

  for (guint i = 0; i < n; i++)
    if (isfinite (values[i]))
      top = MAX (top, values[i]);
  for (guint i = 0; i < n; i++)
    {
      if (!isfinite (values[i]))
        {
          x[i] = y[i] = NAN;
          continue;
        }
      x[i] = pad + (n > 1 ? w * i / (n - 1) : w / 2);
      y[i] = pad + h - (top > 0 ? h * MAX (values[i], 0) / top : 0);
    }
}

/* Names as people sort them */

int
embers_snapshots_compare_names (const char *a,
                                const char *b)
{
  while (*a != '\0' && *b != '\0')
    {
      if (g_ascii_isdigit (*a) && g_ascii_isdigit (*b))
        {
          const char *sa = a, *sb = b;
          gsize la, lb;

          while (*sa == '0' && g_ascii_isdigit (sa[1]))
            sa++;
          while (*sb == '0' && g_ascii_isdigit (sb[1]))
            sb++;
          a = sa;
          b = sb;
          while (g_ascii_isdigit (*a))
            a++;
          while (g_ascii_isdigit (*b))
            b++;
          la = a - sa;
          lb = b - sb;
          if (la != lb)
            return la < lb ? -1 : 1;
          if (memcmp (sa, sb, la) != 0)
            return memcmp (sa, sb, la) < 0 ? -1 : 1;
          continue;
        }
      if (*a != *b)
        return (guchar)*a < (guchar)*b ? -1 : 1;
      a++;
      b++;
    }
  return *a == *b ? 0 : (*a == '\0' ? -1 : 1);
}

EmbersQuery *
embers_snapshots_query_with_label (const EmbersQuery *query,
                                   const char        *label,
                                   const char        *value)
{
  g_autoptr(EmbersSelector) selector = NULL;
  EmbersQuery *copy;

  g_return_val_if_fail (query != NULL, NULL);
  g_return_val_if_fail (label != NULL && value != NULL, NULL);

  selector = embers_selector_parse (query->label_selector != NULL && query->label_selector[0] != '\0'
                                    ? query->label_selector : "{}", NULL, NULL);
  if (selector == NULL)
    selector = embers_selector_new ();
  embers_selector_remove (selector, label);
  embers_selector_add (selector, label, EMBERS_MATCH_EQUAL, value, NULL);
  copy = embers_query_copy (query);
  g_free (copy->label_selector);
  copy->label_selector = embers_selector_to_string (selector);
  return copy;
}

void
embers_snapshots_add_time_ranges (EmbersSnapshots   *self,
                                  const EmbersQuery *query,
                                  guint              n)
{
  gint64 length;

  g_return_if_fail (EMBERS_IS_SNAPSHOTS (self));
  g_return_if_fail (query != NULL);
  g_return_if_fail (n >= 1);

  length = (query->end_ms - query->start_ms) / n;
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(EmbersQuery) q = embers_query_copy (query);
      g_autoptr(GDateTime) start = NULL;
      g_autofree char *name = NULL;
      const char *format;

      q->start_ms = query->start_ms + i * length;
      q->end_ms = i + 1 == n ? query->end_ms : q->start_ms + length;
      start = g_date_time_new_from_unix_local (q->start_ms / 1000);
      if (length >= 86400000)
        /* Translators: a day's time range as a snapshot's name (g_date_time_format)
         * xgettext:no-c-format */
        format = C_("snapshot", "%b %e");
      else
        /* Translators: a time range's start as a snapshot's name (g_date_time_format)
         * xgettext:no-c-format */
        format = C_("snapshot", "%b %e %H:%M");
      name = g_date_time_format (start, format);
      embers_snapshots_add_snapshot (self, name, q, NULL);
    }
}

/* Files and folders */

typedef struct
{
  GPtrArray *files;
  guint      max_rows;
} LoadData;

static void
load_data_free (LoadData *ld)
{
  g_ptr_array_unref (ld->files);
  g_free (ld);
}

static int
compare_files (gconstpointer a,
               gconstpointer b)
{
  g_autofree char *na = g_file_get_basename (*(GFile * const *)a);
  g_autofree char *nb = g_file_get_basename (*(GFile * const *)b);

  return embers_snapshots_compare_names (na, nb);
}

/* The regular files and folders in @folder (not hidden, not sidecars),
 * in name order */
static GPtrArray *
list_folder (GFile         *folder,
             gboolean       folders,
             GCancellable  *cancellable,
             GError       **error)
{
  g_autoptr(GFileEnumerator) e = NULL;
  g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func (g_object_unref);

  e = g_file_enumerate_children (folder, G_FILE_ATTRIBUTE_STANDARD_NAME "," G_FILE_ATTRIBUTE_STANDARD_TYPE ","
                                 G_FILE_ATTRIBUTE_STANDARD_IS_HIDDEN,
                                 G_FILE_QUERY_INFO_NONE, cancellable, error);
  if (e == NULL)
    return NULL;
  for (;;)
    {
      GFileInfo *info;
      GFile *child;
      const char *name;
      GFileType type;

      if (!g_file_enumerator_iterate (e, &info, &child, cancellable, error))
        return NULL;
      if (info == NULL)
        break;
      name = g_file_info_get_name (info);
      type = g_file_info_get_file_type (info);
      if (g_file_info_get_is_hidden (info) || g_str_has_suffix (name, ".labels"))
        continue;
      if ((folders && type == G_FILE_TYPE_DIRECTORY) || (!folders && type == G_FILE_TYPE_REGULAR))
        g_ptr_array_add (out, g_object_ref (child));
    }
  g_ptr_array_sort (out, compare_files);
  return g_steal_pointer (&out);
}

static gboolean
is_folder (GFile        *file,
           GCancellable *cancellable)
{
  return g_file_query_file_type (file, G_FILE_QUERY_INFO_NONE, cancellable) == G_FILE_TYPE_DIRECTORY;
}

static gboolean
add_file_step (EmbersSnapshots  *self,
               EmbersLocalSource *source,
               guint             snapshot,
               GFile            *file,
               GCancellable     *cancellable,
               GError          **error)
{
  g_autofree char *basename = NULL;
  const char *labels[] = { "snapshot", NULL, NULL };
  g_autoptr(EmbersProfile) profile = NULL;
  GError *local = NULL;
  int t;

  profile = embers_profile_load_file (file, cancellable, &local);
  if (profile == NULL)
    {
      g_autofree char *name = g_file_get_parse_name (file);

      if (g_error_matches (local, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_propagate_error (error, local);
          return FALSE;
        }
      g_set_error (error, local->domain, local->code, _("Could not read “%s”: %s"), name, local->message);
      g_error_free (local);
      return FALSE;
    }

  if (self->data->sample_type == NULL)
    {
      guint d = embers_profile_get_default_sample_type (profile);

      embers_snapshots_set_unit (self, embers_profile_get_sample_type (profile, d),
                                 embers_profile_get_sample_unit (profile, d));
    }
  t = embers_profile_find_sample_type (profile, self->data->sample_type);
  if (t < 0)
    {
      g_autofree char *name = g_file_get_parse_name (file);

      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("“%s” has no “%s” samples to compare with the other profiles"),
                   name, self->data->sample_type);
      return FALSE;
    }
  embers_snapshots_add_profile (self, snapshot, profile, t);
  if (self->data->type_id == NULL)
    self->data->type_id = embers_local_source_profile_type_id (profile, t);

  /* Kept in a local source as well, labelled with its snapshot, for the
   * diff of two snapshots */
  basename = g_file_get_basename (file);
  labels[1] = ((Snapshot *)g_ptr_array_index (self->data->snapshots, snapshot))->name;
  embers_local_source_add_profile (source, basename, profile, 0, labels);
  return TRUE;
}

static void
load_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  LoadData *ld = task_data;
  g_autoptr(EmbersSnapshots) self = embers_snapshots_new (EMBERS_DIFF_STATS_SHARE, 0);
  g_autoptr(GPtrArray) snapshots = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(EmbersLocalSource) source = embers_local_source_new ();
  gint64 start_ms = 0, end_ms = 0;
  GError *error = NULL;

  embers_snapshots_set_max_rows (self, ld->max_rows);

  /* One folder: its subfolders, else its files */
  if (ld->files->len == 1 && is_folder (g_ptr_array_index (ld->files, 0), cancellable))
    {
      GFile *folder = g_ptr_array_index (ld->files, 0);
      g_autoptr(GPtrArray) sub = list_folder (folder, TRUE, cancellable, &error);

      if (sub != NULL && sub->len == 0)
        {
          g_clear_pointer (&sub, g_ptr_array_unref);
          sub = list_folder (folder, FALSE, cancellable, &error);
        }
      if (sub == NULL)
        {
          g_task_return_error (task, error);
          return;
        }
      g_ptr_array_extend_and_steal (snapshots, g_steal_pointer (&sub));
    }
  else
    for (guint i = 0; i < ld->files->len; i++)
      g_ptr_array_add (snapshots, g_object_ref (g_ptr_array_index (ld->files, i)));

  if (snapshots->len < 2)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                               _("At least two profiles or folders are needed to line up"));
      return;
    }

  for (guint i = 0; i < snapshots->len; i++)
    {
      GFile *file = g_ptr_array_index (snapshots, i);
      g_autofree char *name = g_file_get_basename (file);
      guint index = embers_snapshots_add_snapshot (self, name, NULL, file);

      if (is_folder (file, cancellable))
        {
          g_autoptr(GPtrArray) children = list_folder (file, FALSE, cancellable, &error);

          if (children == NULL)
            {
              g_task_return_error (task, error);
              return;
            }
          for (guint j = 0; j < children->len; j++)
            if (!add_file_step (self, source, index, g_ptr_array_index (children, j), cancellable, &error))
              {
                g_task_return_error (task, error);
                return;
              }
        }
      else if (!add_file_step (self, source, index, file, cancellable, &error))
        {
          g_task_return_error (task, error);
          return;
        }
    }

  if (g_task_return_error_if_cancelled (task))
    return;

  /* Each snapshot as a query on the local source: {snapshot="name"} */
  embers_local_source_get_time_range (source, &start_ms, &end_ms);
  for (guint i = 0; i < self->data->snapshots->len; i++)
    {
      Snapshot *snap = g_ptr_array_index (self->data->snapshots, i);
      /* Whole minutes around the files' times, so that a range shown in
       * seconds does not end where it starts (files without a time are
       * all "now") */
      g_autoptr(EmbersQuery) all = embers_query_new (self->data->type_id, "{}",
                                                     (start_ms / 60000 - 1) * 60000,
                                                     (end_ms / 60000 + 2) * 60000);

      snap->query = embers_snapshots_query_with_label (all, "snapshot", snap->name);
    }
  embers_snapshots_set_source (self, EMBERS_SOURCE (source));
  embers_snapshots_compute (self);
  g_task_return_pointer (task, g_steal_pointer (&self), g_object_unref);
}

void
embers_snapshots_load_files_async (GFile * const       *files,
                                   guint                n_files,
                                   guint                max_rows,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  LoadData *ld;

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, embers_snapshots_load_files_async);
  ld = g_new0 (LoadData, 1);
  ld->files = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < n_files; i++)
    g_ptr_array_add (ld->files, g_object_ref (files[i]));
  ld->max_rows = max_rows;
  g_task_set_task_data (task, ld, (GDestroyNotify)load_data_free);
  g_task_run_in_thread (task, load_thread);
}

EmbersSnapshots *
embers_snapshots_load_files_finish (GAsyncResult  *result,
                                    GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == embers_snapshots_load_files_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
