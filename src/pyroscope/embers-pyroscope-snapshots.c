/* embers-pyroscope-snapshots.c: regressions across many, on a server
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gi18n.h>

#include "embers-pyroscope-snapshots.h"
#include "embers-selector.h"

typedef struct
{
  EmbersPyroscopeSource  *source;
  EmbersSnapshots        *snapshots;
  EmbersQuery            *whole;       /* base selector (+ label =~ values), every snapshot's range */
  char                   *label;
  guint                   max_rows;
  EmbersSnapshotsProgress progress;
  gpointer                progress_data;
  double                  step_s;
  GHashTable             *by_value;    /* label value -> snapshot position + 1 */
  GPtrArray              *steps;       /* per snapshot: GHashTable timestamp -> step + 1 */
  GPtrArray              *call_sites;  /* GStrv, root first */
  GPtrArray              *keys;        /* char *, "a;b;c" */
  guint                   next;
  guint                   in_flight;
  guint                   done;
  GError                 *error;
} Job;

static void
job_free (Job *job)
{
  g_clear_object (&job->source);
  g_clear_object (&job->snapshots);
  g_clear_pointer (&job->whole, embers_query_free);
  g_free (job->label);
  g_clear_pointer (&job->by_value, g_hash_table_unref);
  g_clear_pointer (&job->steps, g_ptr_array_unref);
  g_clear_pointer (&job->call_sites, g_ptr_array_unref);
  g_clear_pointer (&job->keys, g_ptr_array_unref);
  g_clear_error (&job->error);
  g_free (job);
}

double
embers_pyroscope_snapshots_step (EmbersSnapshots   *snapshots,
                                 const EmbersQuery *base,
                                 const char        *label)
{
  const EmbersQuery *first;

  g_return_val_if_fail (EMBERS_IS_SNAPSHOTS (snapshots), 15);
  g_return_val_if_fail (base != NULL, 15);

  /* A label's values share the range: steps ten times finer than a
   * chart's (400 to 1000 in the range, at least 15 s, the scrape
   * interval), so that each value has steps enough for the noise test */
  if (label != NULL || embers_snapshots_get_n_snapshots (snapshots) == 0)
    return embers_source_step_for_range (base->start_ms, base->start_ms + (base->end_ms - base->start_ms) / 10);
  first = embers_snapshots_get_query (snapshots, 0);
  return embers_source_step_for_range (first->start_ms, first->end_ms);
}

/* The snapshot (position) a point of a series belongs to, or -1 */
static int
snapshot_of (Job                *job,
             const EmbersSeries *series,
             gint64              timestamp)
{
  if (job->label != NULL)
    {
      const char *value = embers_series_get_label (series, job->label);
      gpointer p = value != NULL ? g_hash_table_lookup (job->by_value, value) : NULL;

      return p != NULL ? GPOINTER_TO_INT (p) - 1 : -1;
    }

  /* A point stamped T holds (T − step, T]: the range (start, end] that
   * holds T */
  for (guint i = 0; i < embers_snapshots_get_n_snapshots (job->snapshots); i++)
    {
      const EmbersQuery *q = embers_snapshots_get_query (job->snapshots, i);

      if (timestamp > q->start_ms && timestamp <= q->end_ms)
        return i;
    }
  return -1;
}

static void
finish (GTask *task)
{
  Job *job = g_task_get_task_data (task);

  if (job->error != NULL)
    g_task_return_error (task, g_steal_pointer (&job->error));
  else
    g_task_return_pointer (task, g_object_ref (job->snapshots), g_object_unref);
  g_object_unref (task);
}

static void
computed (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  GTask *task = user_data;
  Job *job = g_task_get_task_data (task);

  embers_snapshots_compute_finish (EMBERS_SNAPSHOTS (object), result, &job->error);
  finish (task);
}

static void launch (GTask *task);

typedef struct
{
  GTask *task;
  guint  index;
} CallSite;

static void
call_site_series (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  CallSite *cs = user_data;
  GTask *task = cs->task;
  Job *job = g_task_get_task_data (task);
  g_autoptr(GPtrArray) series = NULL;
  GError *error = NULL;

  job->in_flight--;
  series = embers_source_select_series_finish (EMBERS_SOURCE (object), result, &error);
  if (series == NULL)
    {
      if (job->error == NULL)
        job->error = error;
      else
        g_error_free (error);
    }
  else if (job->error == NULL)
    {
      const char *key = g_ptr_array_index (job->keys, cs->index);

      for (guint i = 0; i < series->len; i++)
        {
          const EmbersSeries *s = g_ptr_array_index (series, i);

          for (guint j = 0; j < s->n_points; j++)
            {
              int snapshot = snapshot_of (job, s, s->timestamps[j]);
              gpointer step;

              if (snapshot < 0)
                continue;
              step = g_hash_table_lookup (g_ptr_array_index (job->steps, snapshot), &s->timestamps[j]);
              /* A point without the whole's total at its time cannot be a
               * share; the server sends none such */
              if (step != NULL && isfinite (s->values[j]))
                embers_snapshots_add_value (job->snapshots, snapshot, GPOINTER_TO_UINT (step) - 1,
                                            key, s->values[j]);
            }
        }
    }
  job->done++;
  if (job->progress != NULL)
    job->progress (job->done, job->call_sites->len, job->progress_data);
  g_free (cs);
  launch (task);
}

/* Keeps EMBERS_PYROSCOPE_SNAPSHOTS_IN_FLIGHT queries going; computes when
 * the last is in */
static void
launch (GTask *task)
{
  Job *job = g_task_get_task_data (task);
  const char *group_by[] = { job->label, NULL };

  if (job->error == NULL)
    g_cancellable_set_error_if_cancelled (g_task_get_cancellable (task), &job->error);
  while (job->error == NULL && job->in_flight < EMBERS_PYROSCOPE_SNAPSHOTS_IN_FLIGHT &&
         job->next < job->call_sites->len)
    {
      CallSite *cs = g_new0 (CallSite, 1);

      cs->task = task;
      cs->index = job->next++;
      job->in_flight++;
      embers_pyroscope_source_select_call_site_series_async (job->source, job->whole,
                                                             g_ptr_array_index (job->call_sites, cs->index),
                                                             job->label != NULL ? group_by : NULL,
                                                             job->step_s, g_task_get_cancellable (task),
                                                             call_site_series, cs);
    }
  if (job->in_flight > 0)
    return;
  if (job->error != NULL)
    {
      finish (task);
      return;
    }
  if (job->next < job->call_sites->len)
    return;
  embers_snapshots_compute_async (job->snapshots, g_task_get_cancellable (task), computed, task);
}

static int
compare_candidates (const void *a,
                    const void *b)
{
  const EmbersPyroscopeCandidate *x = a, *y = b;

  if (x->weight != y->weight)
    return x->weight > y->weight ? -1 : 1;
  return x->node < y->node ? -1 : x->node > y->node;
}

void
embers_pyroscope_candidates_sort (GArray *candidates,
                                  guint   keep)
{
  g_return_if_fail (candidates != NULL);

  g_array_sort (candidates, compare_candidates);
  if (keep > 0 && candidates->len > keep)
    g_array_set_size (candidates, keep);
}

char **
embers_pyroscope_call_site (EmbersProfile  *profile,
                            guint32         node,
                            char          **key)
{
  GPtrArray *frames = g_ptr_array_new ();

  for (guint32 m = node; m != 0 && m != EMBERS_NODE_NONE; m = embers_profile_node_parent (profile, m))
    g_ptr_array_insert (frames, 0, g_strdup (embers_profile_node_name_str (profile, m)));
  g_ptr_array_add (frames, NULL);
  if (key != NULL)
    *key = g_strjoinv (";", (char **)frames->pdata);
  return (char **)g_ptr_array_free (frames, FALSE);
}

/* A function of the merged profile: its outermost call sites */
typedef struct
{
  gint64  total;
  GArray *nodes;   /* guint32 */
} Function;

static void
function_free (Function *f)
{
  g_array_unref (f->nodes);
  g_free (f);
}

/* Whether an ancestor of @node has its name */
static gboolean
called_from_itself (EmbersProfile *profile,
                    guint32        node)
{
  guint32 name = embers_profile_node_name (profile, node);

  for (guint32 m = embers_profile_node_parent (profile, node); m != 0 && m != EMBERS_NODE_NONE;
       m = embers_profile_node_parent (profile, m))
    if (embers_profile_node_name (profile, m) == name)
      return TRUE;
  return FALSE;
}

/* The heaviest functions of the merged profile, each by its outermost
 * call sites */
static void
pick_functions (Job           *job,
                EmbersProfile *merged)
{
  guint n = embers_profile_get_n_nodes (merged);
  gint64 whole = embers_profile_node_total (merged, 0, 0);
  g_autoptr(GHashTable) functions = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify)function_free);
  g_autoptr(GArray) candidates = g_array_new (FALSE, FALSE, sizeof (EmbersPyroscopeCandidate));
  guint budget = MAX (job->max_rows * EMBERS_PYROSCOPE_SNAPSHOTS_SITES_PER_ROW,
                      EMBERS_PYROSCOPE_SNAPSHOTS_MIN_SITES);
  guint rows = 0;
  GHashTableIter iter;
  gpointer name, value;

  for (guint32 i = 1; i < n; i++)
    {
      gint64 total = embers_profile_node_total (merged, 0, i);
      guint32 id = embers_profile_node_name (merged, i);
      Function *f;

      if (total <= 0 || g_str_equal (embers_profile_node_name_str (merged, i), "other") ||
          called_from_itself (merged, i))
        continue;
      f = g_hash_table_lookup (functions, GUINT_TO_POINTER (id + 1));
      if (f == NULL)
        {
          f = g_new0 (Function, 1);
          f->nodes = g_array_new (FALSE, FALSE, sizeof (guint32));
          g_hash_table_insert (functions, GUINT_TO_POINTER (id + 1), f);
        }
      f->total += total;
      g_array_append_val (f->nodes, i);
    }

  g_hash_table_iter_init (&iter, functions);
  while (g_hash_table_iter_next (&iter, &name, &value))
    {
      Function *f = value;
      /* The function's first call site stands for it in the sort */
      EmbersPyroscopeCandidate c = { g_array_index (f->nodes, guint32, 0), (double)f->total };

      /* All of the whole (main, or the root's only child): 100 % always */
      if (f->total >= whole)
        continue;
      g_array_append_val (candidates, c);
    }
  embers_pyroscope_candidates_sort (candidates, 0);

  for (guint i = 0; i < candidates->len && (job->max_rows == 0 || rows < job->max_rows); i++)
    {
      guint32 first = g_array_index (candidates, EmbersPyroscopeCandidate, i).node;
      Function *f = g_hash_table_lookup (functions, GUINT_TO_POINTER (embers_profile_node_name (merged, first) + 1));
      const char *fname = embers_profile_node_name_str (merged, first);

      if (job->max_rows > 0 && job->call_sites->len + f->nodes->len > budget)
        continue;
      rows++;
      for (guint k = 0; k < f->nodes->len; k++)
        {
          g_ptr_array_add (job->call_sites, embers_pyroscope_call_site (merged, g_array_index (f->nodes, guint32, k), NULL));
          g_ptr_array_add (job->keys, g_strdup (fname));
        }
    }
}

static void
merged (GObject      *object,
        GAsyncResult *result,
        gpointer      user_data)
{
  GTask *task = user_data;
  Job *job = g_task_get_task_data (task);
  g_autoptr(EmbersProfile) profile = NULL;

  profile = embers_source_merge_profile_finish (EMBERS_SOURCE (object), result, &job->error);
  if (profile == NULL)
    {
      finish (task);
      return;
    }
  if (embers_profile_get_n_sample_types (profile) == 0 || embers_profile_get_total (profile, 0) == 0)
    {
      g_set_error_literal (&job->error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_NOT_FOUND,
                           _("There are no profiles to line up in this range"));
      finish (task);
      return;
    }
  embers_snapshots_set_unit (job->snapshots, embers_profile_get_sample_type (profile, 0),
                             embers_profile_get_sample_unit (profile, 0));
  pick_functions (job, profile);
  if (job->progress != NULL)
    job->progress (0, job->call_sites->len, job->progress_data);
  launch (task);
}

static void
totals_done (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  GTask *task = user_data;
  Job *job = g_task_get_task_data (task);
  g_autoptr(GPtrArray) series = NULL;
  g_autoptr(GArray) sorted = NULL;

  series = embers_source_select_series_finish (EMBERS_SOURCE (object), result, &job->error);
  if (series == NULL)
    {
      finish (task);
      return;
    }

  /* Each point of the whole is a step of its snapshot, in time order */
  for (guint i = 0; i < series->len; i++)
    {
      const EmbersSeries *s = g_ptr_array_index (series, i);

      for (guint j = 0; j < s->n_points; j++)
        {
          int snapshot = snapshot_of (job, s, s->timestamps[j]);
          GHashTable *steps;
          gint64 *key;
          guint step;

          if (snapshot < 0 || !isfinite (s->values[j]))
            continue;
          steps = g_ptr_array_index (job->steps, snapshot);
          if (g_hash_table_contains (steps, &s->timestamps[j]))
            continue;
          step = embers_snapshots_add_step (job->snapshots, snapshot, s->values[j], job->step_s);
          key = g_new (gint64, 1);
          *key = s->timestamps[j];
          g_hash_table_insert (steps, key, GUINT_TO_POINTER (step + 1));
        }
    }

  embers_source_merge_profile (EMBERS_SOURCE (job->source), job->whole, g_task_get_cancellable (task),
                               merged, task);
}

void
embers_pyroscope_snapshots_async (EmbersPyroscopeSource  *source,
                                  EmbersSnapshots        *snapshots,
                                  const EmbersQuery      *base,
                                  const char             *label,
                                  guint                   max_rows,
                                  EmbersSnapshotsProgress progress,
                                  gpointer                progress_data,
                                  GCancellable           *cancellable,
                                  GAsyncReadyCallback     callback,
                                  gpointer                user_data)
{
  GTask *task;
  Job *job;
  guint K;
  const char *group_by[] = { label, NULL };
  g_autoptr(EmbersSelector) selector = NULL;

  g_return_if_fail (EMBERS_IS_PYROSCOPE_SOURCE (source));
  g_return_if_fail (EMBERS_IS_SNAPSHOTS (snapshots));
  g_return_if_fail (base != NULL);

  task = g_task_new (source, cancellable, callback, user_data);
  g_task_set_source_tag (task, embers_pyroscope_snapshots_async);
  job = g_new0 (Job, 1);
  g_task_set_task_data (task, job, (GDestroyNotify)job_free);
  job->source = g_object_ref (source);
  job->snapshots = g_object_ref (snapshots);
  job->label = g_strdup (label);
  job->max_rows = max_rows;
  job->progress = progress;
  job->progress_data = progress_data;
  job->by_value = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  job->steps = g_ptr_array_new_with_free_func ((GDestroyNotify)g_hash_table_unref);
  job->call_sites = g_ptr_array_new_with_free_func ((GDestroyNotify)g_strfreev);
  job->keys = g_ptr_array_new_with_free_func (g_free);
  job->whole = embers_query_copy (base);
  job->step_s = embers_pyroscope_snapshots_step (snapshots, base, label);
  embers_snapshots_set_source (snapshots, EMBERS_SOURCE (source));

  K = embers_snapshots_get_n_snapshots (snapshots);
  if (K < 2)
    {
      g_task_return_new_error (task, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_INVALID_ARGUMENT,
                               _("At least two snapshots are needed to line up"));
      g_object_unref (task);
      return;
    }

  selector = embers_selector_parse (base->label_selector != NULL && base->label_selector[0] != '\0'
                                    ? base->label_selector : "{}", NULL, &job->error);
  if (selector == NULL)
    {
      finish (task);
      return;
    }

  for (guint i = 0; i < K; i++)
    {
      const EmbersQuery *q = embers_snapshots_get_query (snapshots, i);

      g_ptr_array_add (job->steps, g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL));
      if (label == NULL && q == NULL)
        {
          g_task_return_new_error (task, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_INVALID_ARGUMENT,
                                   _("Every snapshot needs a query"));
          g_object_unref (task);
          return;
        }
      if (label == NULL)
        {
          job->whole->start_ms = MIN (job->whole->start_ms, q->start_ms);
          job->whole->end_ms = MAX (job->whole->end_ms, q->end_ms);
        }
      else
        g_hash_table_insert (job->by_value, g_strdup (embers_snapshots_get_name (snapshots, i)),
                             GINT_TO_POINTER (i + 1));
    }

  /* Only the snapshots' values: label =~ "v1|v2|…" (each value quoted as
   * a regular expression; RE2 takes GLib's escapes) */
  if (label != NULL)
    {
      g_autoptr(GString) regex = g_string_new (NULL);
      g_autofree char *text = NULL;

      for (guint i = 0; i < K; i++)
        {
          g_autofree char *quoted = g_regex_escape_string (embers_snapshots_get_name (snapshots, i), -1);

          if (i > 0)
            g_string_append_c (regex, '|');
          g_string_append (regex, quoted);
        }
      embers_selector_remove (selector, label);
      if (!embers_selector_add (selector, label, EMBERS_MATCH_REGEX, regex->str, &job->error))
        {
          finish (task);
          return;
        }
      text = embers_selector_to_string (selector);
      g_free (job->whole->label_selector);
      job->whole->label_selector = g_steal_pointer (&text);
    }

  embers_source_select_series (EMBERS_SOURCE (source), job->whole, label != NULL ? group_by : NULL,
                               job->step_s, EMBERS_AGGREGATION_SUM, 0, cancellable, totals_done, task);
}

EmbersSnapshots *
embers_pyroscope_snapshots_finish (EmbersPyroscopeSource  *source,
                                   GAsyncResult           *result,
                                   GError                **error)
{
  g_return_val_if_fail (g_task_is_valid (result, source), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == embers_pyroscope_snapshots_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
