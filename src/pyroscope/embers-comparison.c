/* embers-comparison.c: load both sides of a comparison and diff them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "embers-comparison.h"
#include "embers-diff.h"
#include "embers-format.h"
#include "embers-location.h"
#include "embers-query-url.h"

struct _EmbersCompareSide
{
  EmbersSource  *source;       /* with query */
  EmbersQuery   *query;
  GFile         *file;         /* a file or a query URL */
  EmbersProfile *profile;      /* loaded before */
  char          *sample_type;
};

G_DEFINE_BOXED_TYPE (EmbersCompareSide, embers_compare_side, embers_compare_side_copy, embers_compare_side_free)

EmbersCompareSide *
embers_compare_side_new_query (EmbersSource      *source,
                               const EmbersQuery *query)
{
  EmbersCompareSide *side;

  g_return_val_if_fail (EMBERS_IS_SOURCE (source), NULL);
  g_return_val_if_fail (query != NULL, NULL);

  side = g_new0 (EmbersCompareSide, 1);
  side->source = g_object_ref (source);
  side->query = embers_query_copy (query);
  return side;
}

EmbersCompareSide *
embers_compare_side_new_location (GFile *file)
{
  EmbersCompareSide *side;

  g_return_val_if_fail (G_IS_FILE (file), NULL);

  side = g_new0 (EmbersCompareSide, 1);
  side->file = g_object_ref (file);
  return side;
}

EmbersCompareSide *
embers_compare_side_new_profile (EmbersProfile *profile,
                                 GFile         *file)
{
  EmbersCompareSide *side;

  g_return_val_if_fail (EMBERS_IS_PROFILE (profile), NULL);
  g_return_val_if_fail (file == NULL || G_IS_FILE (file), NULL);

  side = g_new0 (EmbersCompareSide, 1);
  side->profile = g_object_ref (profile);
  if (file != NULL)
    side->file = g_object_ref (file);
  return side;
}

void
embers_compare_side_set_sample_type (EmbersCompareSide *side,
                                     const char        *sample_type)
{
  g_return_if_fail (side != NULL);

  g_free (side->sample_type);
  side->sample_type = g_strdup (sample_type);
}

EmbersCompareSide *
embers_compare_side_copy (const EmbersCompareSide *side)
{
  EmbersCompareSide *copy;

  g_return_val_if_fail (side != NULL, NULL);

  copy = g_new0 (EmbersCompareSide, 1);
  copy->source = side->source != NULL ? g_object_ref (side->source) : NULL;
  copy->query = side->query != NULL ? embers_query_copy (side->query) : NULL;
  copy->file = side->file != NULL ? g_object_ref (side->file) : NULL;
  copy->profile = side->profile != NULL ? g_object_ref (side->profile) : NULL;
  copy->sample_type = g_strdup (side->sample_type);
  return copy;
}

void
embers_compare_side_free (EmbersCompareSide *side)
{
  if (side == NULL)
    return;
  g_clear_object (&side->source);
  g_clear_pointer (&side->query, embers_query_free);
  g_clear_object (&side->file);
  g_clear_object (&side->profile);
  g_free (side->sample_type);
  g_free (side);
}

/* The job */

typedef struct
{
  EmbersCompareSide *sides[2];
  EmbersProfile     *merged[2];   /* query sides, once merged */
  guint              pending;
  GError            *error;
} Job;

typedef struct
{
  EmbersProfile *diff;
  EmbersProfile *loaded[2];
} Answer;

static void
job_free (Job *job)
{
  for (guint i = 0; i < 2; i++)
    {
      embers_compare_side_free (job->sides[i]);
      g_clear_object (&job->merged[i]);
    }
  g_clear_error (&job->error);
  g_free (job);
}

static void
answer_free (Answer *answer)
{
  g_clear_object (&answer->diff);
  g_clear_object (&answer->loaded[0]);
  g_clear_object (&answer->loaded[1]);
  g_free (answer);
}

static const char *
side_url (const EmbersCompareSide *side,
          char                   **out)
{
  if (side->file == NULL || side->profile != NULL)
    return NULL;
  *out = embers_location_dup_query_url (side->file);
  return *out;
}

/* A location side's profile, on the thread */
static EmbersProfile *
load_side (const EmbersCompareSide  *side,
           guint                     index,
           GCancellable             *cancellable,
           GError                  **error)
{
  g_autofree char *url = NULL;
  EmbersProfile *profile;

  if (side_url (side, &url) != NULL)
    {
      profile = embers_pyroscope_load_query_url (url, cancellable, error);
      if (profile == NULL)
        g_prefix_error (error, "%s", index == 0 ? _("Baseline: ") : _("Comparison: "));
      return profile;
    }

  profile = embers_profile_load_file (side->file, cancellable, error);
  if (profile == NULL)
    {
      g_autofree char *name = g_file_get_basename (side->file);

      g_prefix_error (error, "%s: ", name);
    }
  return profile;
}

static guint
pick_sample_type (EmbersProfile           *profile,
                  const EmbersCompareSide *side)
{
  int found = side->sample_type != NULL ? embers_profile_find_sample_type (profile, side->sample_type) : -1;

  return found >= 0 ? (guint) found : embers_profile_get_default_sample_type (profile);
}

static void
diff_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  Job *job = task_data;
  Answer *answer = g_new0 (Answer, 1);
  g_autofree char *urls[2] = { NULL, NULL };
  EmbersProfile *held[2] = { NULL, NULL };
  EmbersProfile *profiles[2];
  guint types[2];
  GError *error = NULL;

  /* Two query URLs: the server's Diff when they are on one server */
  if (side_url (job->sides[0], &urls[0]) != NULL && side_url (job->sides[1], &urls[1]) != NULL)
    {
      answer->diff = embers_pyroscope_load_query_url_diff (urls[0], urls[1], cancellable, &error);
      if (answer->diff != NULL ||
          !g_error_matches (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_NOT_SUPPORTED))
        goto out;
      g_clear_error (&error);
    }

  for (guint i = 0; i < 2; i++)
    {
      const EmbersCompareSide *side = job->sides[i];

      if (side->profile != NULL)
        profiles[i] = side->profile;
      else if (job->merged[i] != NULL)
        profiles[i] = job->merged[i];
      else
        {
          held[i] = load_side (side, i, cancellable, &error);
          if (held[i] == NULL)
            goto out;
          if (urls[i] == NULL)
            answer->loaded[i] = g_object_ref (held[i]);
          profiles[i] = held[i];
        }
      types[i] = pick_sample_type (profiles[i], side);
    }

  answer->diff = embers_diff_profiles (profiles[0], types[0], profiles[1], types[1], &error);

out:
  g_clear_object (&held[0]);
  g_clear_object (&held[1]);
  /* The answer carries what was loaded, also beside an error */
  if (error != NULL)
    {
      g_object_set_data_full (G_OBJECT (task), "embers-answer", answer, (GDestroyNotify) answer_free);
      g_task_return_error (task, error);
    }
  else
    g_task_return_pointer (task, answer, (GDestroyNotify) answer_free);
}

static void
run_local (GTask *task)
{
  Job *job = g_task_get_task_data (task);

  if (job->error != NULL)
    {
      g_task_return_error (task, g_steal_pointer (&job->error));
      g_object_unref (task);
      return;
    }
  g_task_run_in_thread (task, diff_thread);
  g_object_unref (task);
}

typedef struct
{
  GTask *task;
  guint  index;
} MergeCall;

static void
merge_done (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  MergeCall *call = user_data;
  GTask *task = call->task;
  Job *job = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  EmbersProfile *profile = embers_source_merge_profile_finish (EMBERS_SOURCE (object), result, &error);

  if (profile != NULL)
    job->merged[call->index] = profile;
  else if (job->error == NULL)
    job->error = g_steal_pointer (&error);
  g_free (call);

  if (--job->pending == 0)
    run_local (task);
}

/* Query sides merged by their sources, then diffed with the rest here;
 * takes the task's reference */
static void
run_merges (GTask *task)
{
  Job *job = g_task_get_task_data (task);

  for (guint i = 0; i < 2; i++)
    if (job->sides[i]->query != NULL)
      job->pending++;
  if (job->pending == 0)
    {
      run_local (task);
      return;
    }
  for (guint i = 0; i < 2; i++)
    if (job->sides[i]->query != NULL)
      {
        MergeCall *call = g_new0 (MergeCall, 1);

        call->task = task;
        call->index = i;
        embers_source_merge_profile (job->sides[i]->source, job->sides[i]->query,
                                     g_task_get_cancellable (task), merge_done, call);
      }
}

static void
source_diff_done (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  GTask *task = user_data;
  g_autoptr(GError) error = NULL;
  EmbersProfile *diff = embers_source_diff_finish (EMBERS_SOURCE (object), result, &error);
  Answer *answer;

  /* A server without Diff (unimplemented, 404): two merges, diffed here */
  if (diff == NULL && g_error_matches (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_UNIMPLEMENTED) &&
      !g_cancellable_is_cancelled (g_task_get_cancellable (task)))
    {
      g_debug ("Diff unavailable (%s): two merges and a local diff", error->message);
      run_merges (task);
      return;
    }
  if (diff == NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    {
      answer = g_new0 (Answer, 1);
      answer->diff = diff;
      g_task_return_pointer (task, answer, (GDestroyNotify) answer_free);
    }
  g_object_unref (task);
}

gboolean
embers_comparison_check (const EmbersCompareSide *baseline,
                         const EmbersCompareSide *comparison,
                         GError                 **error)
{
  g_autoptr(EmbersProfileTypeInfo) l = NULL;
  g_autoptr(EmbersProfileTypeInfo) r = NULL;

  if (baseline->query == NULL || comparison->query == NULL)
    return TRUE;
  l = embers_profile_type_info_new (baseline->query->profile_type);
  r = embers_profile_type_info_new (comparison->query->profile_type);
  if (l == NULL || r == NULL)
    return TRUE;
  return embers_diff_check_units (l->sample_type, l->sample_unit, r->sample_type, r->sample_unit, error);
}

void
embers_comparison_run_async (const EmbersCompareSide *baseline,
                             const EmbersCompareSide *comparison,
                             GCancellable            *cancellable,
                             GAsyncReadyCallback      callback,
                             gpointer                 user_data)
{
  GTask *task;
  Job *job;
  GError *error = NULL;

  g_return_if_fail (baseline != NULL);
  g_return_if_fail (comparison != NULL);

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, embers_comparison_run_async);
  g_task_set_name (task, "[embers] comparison");

  /* CPU time against bytes is no diff, wherever it would be computed */
  if (!embers_comparison_check (baseline, comparison, &error))
    {
      g_task_return_error (task, error);
      g_object_unref (task);
      return;
    }

  job = g_new0 (Job, 1);
  job->sides[0] = embers_compare_side_copy (baseline);
  job->sides[1] = embers_compare_side_copy (comparison);
  g_task_set_task_data (task, job, (GDestroyNotify) job_free);

  if (baseline->query != NULL && comparison->query != NULL && baseline->source == comparison->source &&
      (embers_source_get_capabilities (baseline->source) & EMBERS_SOURCE_CAN_DIFF))
    {
      embers_source_diff (baseline->source, baseline->query, comparison->query, cancellable,
                          source_diff_done, task);
      return;
    }
  run_merges (task);
}

EmbersProfile *
embers_comparison_run_finish (GAsyncResult   *result,
                              EmbersProfile **loaded_baseline,
                              EmbersProfile **loaded_comparison,
                              GError        **error)
{
  Answer *answer;
  Answer *beside;
  EmbersProfile *diff = NULL;

  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_async_result_is_tagged (result, embers_comparison_run_async), NULL);

  beside = g_object_get_data (G_OBJECT (result), "embers-answer");
  answer = g_task_propagate_pointer (G_TASK (result), error);
  if (answer == NULL)
    answer = beside;
  if (loaded_baseline != NULL)
    *loaded_baseline = answer != NULL && answer->loaded[0] != NULL ? g_object_ref (answer->loaded[0]) : NULL;
  if (loaded_comparison != NULL)
    *loaded_comparison = answer != NULL && answer->loaded[1] != NULL ? g_object_ref (answer->loaded[1]) : NULL;
  if (answer != NULL && answer != beside)
    {
      diff = g_steal_pointer (&answer->diff);
      answer_free (answer);
    }
  return diff;
}
