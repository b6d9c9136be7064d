/* embers-fill.c: filling in the `other` frames of a truncated answer
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "embers-diff.h"
#include "embers-fill.h"
#include "embers-profile-builder.h"

GStrv
embers_fill_call_site (EmbersProfile *profile,
                       guint32        node)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_autoptr(GPtrArray) names = g_ptr_array_new ();

  g_return_val_if_fail (EMBERS_IS_PROFILE (profile), NULL);
  g_return_val_if_fail (node < embers_profile_get_n_nodes (profile), NULL);

  for (; node != 0 && node != EMBERS_NODE_NONE; node = embers_profile_node_parent (profile, node))
    g_ptr_array_add (names, (gpointer) embers_profile_node_name_str (profile, node));
  for (guint i = names->len; i-- > 0; )
    g_strv_builder_add (builder, g_ptr_array_index (names, i));
  return g_strv_builder_end (builder);
}

guint32
embers_fill_find (EmbersProfile      *profile,
                  const char * const *call_site)
{
  guint32 node = 0;

  g_return_val_if_fail (EMBERS_IS_PROFILE (profile), EMBERS_NODE_NONE);

  if (embers_profile_get_n_nodes (profile) == 0)
    return EMBERS_NODE_NONE;
  for (guint depth = 0; call_site != NULL && call_site[depth] != NULL; depth++)
    {
      guint32 end = embers_profile_node_end (profile, node);
      guint32 child = node + 1;

      while (child < end && strcmp (embers_profile_node_name_str (profile, child), call_site[depth]) != 0)
        child = embers_profile_node_end (profile, child);
      if (child >= end)
        return EMBERS_NODE_NONE;
      node = child;
    }
  return node;
}

gboolean
embers_fill_is_other (EmbersProfile *profile,
                      guint32        node)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE (profile), FALSE);

  return node != 0 && node < embers_profile_get_n_nodes (profile) &&
         embers_profile_node_end (profile, node) == node + 1 &&
         strcmp (embers_profile_node_name_str (profile, node), EMBERS_FILL_OTHER) == 0;
}

guint
embers_fill_count_other (EmbersProfile *profile,
                         gint64        *out_value)
{
  guint n_nodes, count = 0;
  gint64 value = 0;

  g_return_val_if_fail (EMBERS_IS_PROFILE (profile), 0);

  n_nodes = embers_profile_get_n_nodes (profile);
  for (guint32 i = 1; i < n_nodes; i++)
    if (embers_fill_is_other (profile, i))
      {
        count++;
        value += embers_profile_node_total (profile, 0, i);
      }
  if (out_value != NULL)
    *out_value = value;
  return count;
}

/* ---- the merge ------------------------------------------------------------ */

/* (parent, name) -> child of the sub-answer: open addressing, no deletes */
typedef struct
{
  guint64 *keys;
  guint32 *values;   /* G_MAXUINT32: empty */
  guint64  mask;
} KidMap;

static inline guint64
kid_key (guint32 parent,
         guint32 name)
{
  return ((guint64) parent << 32) | name;
}

static inline guint64
kid_hash (guint64 key)
{
  key ^= key >> 33;
  key *= G_GUINT64_CONSTANT (0xff51afd7ed558ccd);
  key ^= key >> 33;
  return key;
}

static void
kid_map_init (KidMap *map,
              guint   n)
{
  guint64 size = 16;

  while (size < (guint64) n * 2)
    size <<= 1;
  map->keys = g_new (guint64, size);
  map->values = g_new (guint32, size);
  memset (map->values, 0xff, sizeof (guint32) * size);
  map->mask = size - 1;
}

static void
kid_map_clear (KidMap *map)
{
  g_clear_pointer (&map->keys, g_free);
  g_clear_pointer (&map->values, g_free);
}

static void
kid_map_insert (KidMap  *map,
                guint64  key,
                guint32  value)
{
  for (guint64 i = kid_hash (key) & map->mask; ; i = (i + 1) & map->mask)
    {
      if (map->values[i] == G_MAXUINT32)
        {
          map->keys[i] = key;
          map->values[i] = value;
          return;
        }
      if (map->keys[i] == key)
        return;   /* the first stays */
    }
}

static guint32
kid_map_lookup (const KidMap *map,
                guint64       key)
{
  for (guint64 i = kid_hash (key) & map->mask; ; i = (i + 1) & map->mask)
    {
      if (map->values[i] == G_MAXUINT32)
        return G_MAXUINT32;
      if (map->keys[i] == key)
        return map->values[i];
    }
}

typedef struct
{
  EmbersProfile        *p;
  guint32              *strings;   /* the profile's string id -> the builder's */
} Side;

typedef struct
{
  EmbersProfileBuilder *b;
  guint                 n_types;
  guint                 order_type;
  Side                  main;
  Side                  sub;
  const gint64         *main_self[EMBERS_PROFILE_MAX_SAMPLE_TYPES];
  const gint64         *main_total[EMBERS_PROFILE_MAX_SAMPLE_TYPES];
  const gint64         *sub_self[EMBERS_PROFILE_MAX_SAMPLE_TYPES];
  const gint64         *sub_total[EMBERS_PROFILE_MAX_SAMPLE_TYPES];
  guint32              *sub_nodes;   /* sub-answer node -> builder node, while copying */
  guint32               other;       /* the builder's id of "other" */
  guint                 added;
} Merge;

static guint32
side_string (Merge   *m,
             Side    *side,
             guint32  id)
{
  if (side->strings[id] == G_MAXUINT32)
    {
      guint32 file = embers_profile_get_name_file (side->p, id);

      side->strings[id] = embers_profile_builder_intern (m->b, embers_profile_get_string (side->p, id), -1);
      if (file != 0)
        embers_profile_builder_set_name_location (m->b, side->strings[id],
                                                  embers_profile_builder_intern (m->b, embers_profile_get_string (side->p, file), -1),
                                                  embers_profile_get_name_line (side->p, id));
    }
  return side->strings[id];
}

static guint32
main_name (Merge   *m,
           guint32  node)
{
  return side_string (m, &m->main, embers_profile_node_name (m->main.p, node));
}

static guint32
sub_name (Merge   *m,
          guint32  node)
{
  return side_string (m, &m->sub, embers_profile_node_name (m->sub.p, node));
}

/* The sub-answer's subtree at @top, under the builder's @parent */
static void
copy_sub_tree (Merge   *m,
               guint32  top,
               guint32  parent)
{
  guint32 end = embers_profile_node_end (m->sub.p, top);
  const guint32 *parents = embers_profile_get_parent_column (m->sub.p);

  for (guint32 k = top; k < end; k++)
    {
      guint32 under = k == top ? parent : m->sub_nodes[parents[k]];
      guint32 node = embers_profile_builder_add_child (m->b, under, sub_name (m, k));

      m->sub_nodes[k] = node;
      for (guint t = 0; t < m->n_types; t++)
        if (m->sub_self[t][k] != 0)
          embers_profile_builder_add_self (m->b, node, t, m->sub_self[t][k]);
      m->added++;
    }
}

typedef struct
{
  guint32 node;
  gint64  total;
} Candidate;

static int
compare_candidates (gconstpointer a,
                    gconstpointer b)
{
  const Candidate *ca = a, *cb = b;

  if (ca->total != cb->total)
    return ca->total > cb->total ? -1 : 1;
  return ca->node < cb->node ? -1 : ca->node > cb->node;
}

/* The `other` leaf @other of the profile's @parent (the builder's
 * @bparent), whose frame the sub-answer has as @sparent: the sub-answer's
 * children that @parent lacks, heaviest first while they fit into what
 * `other` held; the rest stays `other`. */
static void
fill_other (Merge   *m,
            guint32  other,
            guint32  parent,
            guint32  bparent,
            guint32  sparent)
{
  g_autoptr(GHashTable) have = g_hash_table_new (NULL, NULL);
  g_autoptr(GArray) candidates = g_array_new (FALSE, FALSE, sizeof (Candidate));
  gint64 remaining[EMBERS_PROFILE_MAX_SAMPLE_TYPES];
  guint32 end = embers_profile_node_end (m->main.p, parent);
  guint32 send = embers_profile_node_end (m->sub.p, sparent);
  gboolean left = FALSE;

  for (guint t = 0; t < m->n_types; t++)
    remaining[t] = m->main_total[t][other];

  for (guint32 j = parent + 1; j < end; j = embers_profile_node_end (m->main.p, j))
    g_hash_table_add (have, GUINT_TO_POINTER (main_name (m, j) + 1));

  for (guint32 c = sparent + 1; c < send; c = embers_profile_node_end (m->sub.p, c))
    {
      guint32 name = sub_name (m, c);
      gboolean any = FALSE;

      if (name == m->other || g_hash_table_contains (have, GUINT_TO_POINTER (name + 1)))
        continue;
      for (guint t = 0; t < m->n_types; t++)
        any |= m->sub_total[t][c] > 0;
      if (any)
        g_array_append_val (candidates, ((Candidate) { c, m->sub_total[m->order_type][c] }));
    }
  g_array_sort (candidates, compare_candidates);

  for (guint i = 0; i < candidates->len; i++)
    {
      guint32 c = g_array_index (candidates, Candidate, i).node;
      gboolean fits = TRUE;

      for (guint t = 0; t < m->n_types && fits; t++)
        fits = m->sub_total[t][c] >= 0 && m->sub_total[t][c] <= remaining[t];
      if (!fits)
        continue;
      copy_sub_tree (m, c, bparent);
      for (guint t = 0; t < m->n_types; t++)
        remaining[t] -= m->sub_total[t][c];
    }

  for (guint t = 0; t < m->n_types; t++)
    left |= remaining[t] != 0;
  if (left)
    {
      guint32 node = embers_profile_builder_add_child (m->b, bparent, m->other);

      for (guint t = 0; t < m->n_types; t++)
        if (remaining[t] != 0)
          embers_profile_builder_add_self (m->b, node, t, remaining[t]);
    }
}

static gboolean
check_alike (EmbersProfile  *profile,
             EmbersProfile  *sub,
             GError        **error)
{
  guint n = embers_profile_get_n_sample_types (profile);

  /* A comparison is filled in from a comparison of the call site's two
   * answers (embers_fill_merge_diff_async), column by column */
  if (embers_profile_is_diff (profile) != embers_profile_is_diff (sub))
    {
      g_set_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_UNSUPPORTED,
                   _("A comparison is filled in only from both of its sides"));
      return FALSE;
    }
  if (embers_profile_get_n_sample_types (sub) != n)
    goto differ;
  for (guint t = 0; t < n; t++)
    if (g_strcmp0 (embers_profile_get_sample_unit (profile, t), embers_profile_get_sample_unit (sub, t)) != 0)
      goto differ;
  return TRUE;

differ:
  g_set_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_INVALID,
               _("The answer has other sample types than the profile it should fill in"));
  return FALSE;
}

EmbersProfile *
embers_fill_merge (EmbersProfile  *profile,
                   EmbersProfile  *sub,
                   guint          *out_added,
                   GError        **error)
{
  g_autoptr(EmbersProfileBuilder) b = NULL;
  g_autofree guint32 *main_strings = NULL;
  g_autofree guint32 *sub_strings = NULL;
  g_autofree guint32 *nodes = NULL;     /* profile node -> builder node */
  g_autofree guint32 *matches = NULL;   /* profile node -> sub-answer node */
  g_autofree guint32 *sub_nodes = NULL;
  const guint32 *parents, *sub_parents;
  guint n_nodes, n_sub;
  KidMap kids = { 0 };
  Merge m = { 0 };

  g_return_val_if_fail (EMBERS_IS_PROFILE (profile), NULL);
  g_return_val_if_fail (EMBERS_IS_PROFILE (sub), NULL);

  if (out_added != NULL)
    *out_added = 0;
  if (!check_alike (profile, sub, error))
    return NULL;

  n_nodes = embers_profile_get_n_nodes (profile);
  n_sub = embers_profile_get_n_nodes (sub);
  if (n_nodes <= 1 || n_sub <= 1 || embers_fill_count_other (profile, NULL) == 0)
    return g_object_ref (profile);

  b = embers_profile_builder_new ();
  m.b = b;
  /* Every node is added without a lookup (add_child): the profile's
   * siblings have distinct names, and so do the sub-answer's; what comes
   * in under a frame has a name the frame's children lack (fill_other
   * checks), and the `other` it replaces is not copied. */
  m.n_types = embers_profile_get_n_sample_types (profile);
  m.order_type = embers_profile_get_default_sample_type (profile);
  for (guint t = 0; t < m.n_types; t++)
    {
      embers_profile_builder_add_sample_type (b, embers_profile_get_sample_type (profile, t),
                                              embers_profile_get_sample_unit (profile, t));
      m.main_self[t] = embers_profile_get_self_column (profile, t);
      m.main_total[t] = embers_profile_get_total_column (profile, t);
      m.sub_self[t] = embers_profile_get_self_column (sub, t);
      m.sub_total[t] = embers_profile_get_total_column (sub, t);
    }
  embers_profile_builder_set_default_sample_type (b, m.order_type);
  embers_profile_builder_set_diff (b, embers_profile_is_diff (profile));
  embers_profile_builder_reserve (b, n_nodes + n_sub, 0);
  if (embers_profile_get_period_type (profile) != NULL)
    embers_profile_builder_set_period (b, embers_profile_get_period_type (profile),
                                       embers_profile_get_period_unit (profile),
                                       embers_profile_get_period (profile));
  embers_profile_builder_set_time (b, embers_profile_get_time_nanos (profile),
                                   embers_profile_get_duration_nanos (profile));

  main_strings = g_new (guint32, embers_profile_get_n_strings (profile));
  memset (main_strings, 0xff, sizeof (guint32) * embers_profile_get_n_strings (profile));
  sub_strings = g_new (guint32, embers_profile_get_n_strings (sub));
  memset (sub_strings, 0xff, sizeof (guint32) * embers_profile_get_n_strings (sub));
  m.main = (Side) { profile, main_strings };
  m.sub = (Side) { sub, sub_strings };
  m.other = embers_profile_builder_intern (b, EMBERS_FILL_OTHER, -1);

  /* The sub-answer's children by (parent, name) */
  sub_parents = embers_profile_get_parent_column (sub);
  kid_map_init (&kids, n_sub);
  for (guint32 s = 1; s < n_sub; s++)
    kid_map_insert (&kids, kid_key (sub_parents[s], sub_name (&m, s)), s);
  sub_nodes = g_new (guint32, n_sub);
  m.sub_nodes = sub_nodes;

  /* The profile in order, its frames matched with the sub-answer's */
  parents = embers_profile_get_parent_column (profile);
  nodes = g_new (guint32, n_nodes);
  matches = g_new (guint32, n_nodes);
  nodes[0] = 0;
  matches[0] = 0;
  for (guint t = 0; t < m.n_types; t++)
    if (m.main_self[t][0] != 0)
      embers_profile_builder_add_self (b, 0, t, m.main_self[t][0]);
  for (guint32 i = 1; i < n_nodes; i++)
    {
      guint32 p = parents[i];
      guint32 name = main_name (&m, i);

      if (name == m.other && matches[p] != G_MAXUINT32 && embers_profile_node_end (profile, i) == i + 1)
        {
          fill_other (&m, i, p, nodes[p], matches[p]);
          nodes[i] = G_MAXUINT32;
          matches[i] = G_MAXUINT32;
          continue;
        }
      nodes[i] = embers_profile_builder_add_child (b, nodes[p], name);
      for (guint t = 0; t < m.n_types; t++)
        if (m.main_self[t][i] != 0)
          embers_profile_builder_add_self (b, nodes[i], t, m.main_self[t][i]);
      matches[i] = matches[p] != G_MAXUINT32 ? kid_map_lookup (&kids, kid_key (matches[p], name)) : G_MAXUINT32;
    }
  kid_map_clear (&kids);

  if (out_added != NULL)
    *out_added = m.added;
  if (m.added == 0)
    return g_object_ref (profile);
  return embers_profile_builder_finish (b, error);
}

/* ---- on a worker thread --------------------------------------------------- */

typedef struct
{
  EmbersProfile *profile;
  EmbersProfile *sub;
  EmbersProfile *comparison_sub;   /* a diff's: sub is the baseline's */
  guint          added;
} MergeData;

static void
merge_data_free (MergeData *data)
{
  g_clear_object (&data->profile);
  g_clear_object (&data->sub);
  g_clear_object (&data->comparison_sub);
  g_free (data);
}

static void
merge_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  MergeData *data = task_data;
  GError *error = NULL;
  EmbersProfile *merged;

  if (g_task_return_error_if_cancelled (task))
    return;
  if (data->comparison_sub != NULL)
    {
      /* Both sides' answers at the call site, compared as the view is */
      g_autoptr(EmbersProfile) diff = NULL;

      diff = embers_diff_profiles (data->sub, embers_profile_get_default_sample_type (data->sub),
                                   data->comparison_sub,
                                   embers_profile_get_default_sample_type (data->comparison_sub), &error);
      if (diff == NULL)
        {
          g_task_return_error (task, error);
          return;
        }
      g_set_object (&data->sub, diff);
    }
  merged = embers_fill_merge (data->profile, data->sub, &data->added, &error);
  if (merged == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, merged, g_object_unref);
}

void
embers_fill_merge_async (EmbersProfile       *profile,
                         EmbersProfile       *sub,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  MergeData *data;

  g_return_if_fail (EMBERS_IS_PROFILE (profile));
  g_return_if_fail (EMBERS_IS_PROFILE (sub));

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, embers_fill_merge_async);
  data = g_new0 (MergeData, 1);
  data->profile = g_object_ref (profile);
  data->sub = g_object_ref (sub);
  g_task_set_task_data (task, data, (GDestroyNotify) merge_data_free);
  g_task_set_return_on_cancel (task, TRUE);
  g_task_run_in_thread (task, merge_thread);
}

void
embers_fill_merge_diff_async (EmbersProfile       *diff,
                              EmbersProfile       *baseline_sub,
                              EmbersProfile       *comparison_sub,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  MergeData *data;

  g_return_if_fail (EMBERS_IS_PROFILE (diff));
  g_return_if_fail (EMBERS_IS_PROFILE (baseline_sub));
  g_return_if_fail (EMBERS_IS_PROFILE (comparison_sub));

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, embers_fill_merge_async);
  data = g_new0 (MergeData, 1);
  data->profile = g_object_ref (diff);
  data->sub = g_object_ref (baseline_sub);
  data->comparison_sub = g_object_ref (comparison_sub);
  g_task_set_task_data (task, data, (GDestroyNotify) merge_data_free);
  g_task_set_return_on_cancel (task, TRUE);
  g_task_run_in_thread (task, merge_thread);
}

EmbersProfile *
embers_fill_merge_finish (GAsyncResult  *result,
                          guint         *out_added,
                          GError       **error)
{
  MergeData *data;
  EmbersProfile *merged;

  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == embers_fill_merge_async, NULL);

  merged = g_task_propagate_pointer (G_TASK (result), error);
  data = g_task_get_task_data (G_TASK (result));
  if (out_added != NULL)
    *out_added = merged != NULL ? data->added : 0;
  return merged;
}
