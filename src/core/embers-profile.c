/* embers-profile.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "embers-profile-private.h"

G_DEFINE_QUARK (embers-profile-error-quark, embers_profile_error)

G_DEFINE_FINAL_TYPE (EmbersProfile, embers_profile, G_TYPE_OBJECT)

static void
embers_profile_finalize (GObject *object)
{
  EmbersProfile *self = (EmbersProfile *)object;

  g_free (self->string_data);
  g_free (self->string_offsets);
  g_free (self->type_names);
  g_free (self->type_units);
  g_free (self->names);
  g_free (self->parents);
  g_free (self->ends);
  g_free (self->depths);
  if (self->self_block != NULL)
    g_free (self->self_block);
  else
    for (guint t = 0; t < G_N_ELEMENTS (self->self_columns); t++)
      g_free (self->self_columns[t]);
  for (guint t = 0; t < G_N_ELEMENTS (self->totals); t++)
    g_free (self->totals[t]);
  g_free (self->name_files);
  g_free (self->name_lines);
  g_free (self->sample_nodes);
  g_free (self->sample_label_sets);
  g_free (self->sample_values);
  g_free (self->label_set_offsets);
  g_free (self->labels);
  g_clear_pointer (&self->kids, g_hash_table_unref);
  g_mutex_clear (&self->kids_lock);

  G_OBJECT_CLASS (embers_profile_parent_class)->finalize (object);
}

static void
embers_profile_class_init (EmbersProfileClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = embers_profile_finalize;
}

static void
embers_profile_init (EmbersProfile *self)
{
  g_mutex_init (&self->kids_lock);
}

const guint32 *
_embers_profile_get_kids (EmbersProfile *self,
                          guint32        node)
{
  const guint32 *kids = NULL;

  g_mutex_lock (&self->kids_lock);
  if (self->kids != NULL)
    kids = g_hash_table_lookup (self->kids, GUINT_TO_POINTER (node));
  g_mutex_unlock (&self->kids_lock);
  return kids;
}

void
_embers_profile_note_kids (EmbersProfile *self,
                           guint32        node,
                           const guint32 *kids,
                           guint32        n)
{
  guint32 *copy;

  g_mutex_lock (&self->kids_lock);
  if (self->kids == NULL)
    self->kids = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
  if (!g_hash_table_contains (self->kids, GUINT_TO_POINTER (node)))
    {
      copy = g_new (guint32, (gsize)n + 1);
      copy[0] = n;
      memcpy (copy + 1, kids, sizeof (guint32) * n);
      g_hash_table_insert (self->kids, GUINT_TO_POINTER (node), copy);
    }
  g_mutex_unlock (&self->kids_lock);
}

EmbersProfile *
_embers_profile_new (void)
{
  return g_object_new (EMBERS_TYPE_PROFILE, NULL);
}

void
_embers_profile_take_self (EmbersProfile *self,
                           gint64        *columns)
{
  g_assert (self->self_block == NULL && self->self_columns[0] == NULL);
  g_assert (self->n_types <= EMBERS_PROFILE_MAX_SAMPLE_TYPES);

  self->self_block = columns;
  for (guint t = 0; t < self->n_types; t++)
    self->self_columns[t] = columns + (gsize)t * self->n_nodes;
}

/* A node's self value is its total less its children's */
static gint64 *
self_column (EmbersProfile *self,
             guint          sample_type)
{
  gint64 **slot = &self->self_columns[sample_type];

  if (g_once_init_enter_pointer (slot))
    {
      const gint64 *total = self->totals[sample_type];
      gint64 *column = g_memdup2 (total, sizeof (gint64) * MAX (self->n_nodes, 1));

      for (guint i = 1; i < self->n_nodes; i++)
        column[self->parents[i]] -= total[i];
      g_once_init_leave_pointer (slot, column);
    }

  return *slot;
}

guint
embers_profile_get_n_strings (EmbersProfile *self)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE (self), 0);

  return self->n_strings;
}

const char *
embers_profile_get_string (EmbersProfile *self,
                           guint32        string_id)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE (self), "");

  if (string_id >= self->n_strings)
    return "";

  return self->string_data + self->string_offsets[string_id];
}

guint
embers_profile_get_n_sample_types (EmbersProfile *self)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE (self), 0);

  return self->n_types;
}

const char *
embers_profile_get_sample_type (EmbersProfile *self,
                                guint          index)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE (self), "");
  g_return_val_if_fail (index < self->n_types, "");

  return embers_profile_get_string (self, self->type_names[index]);
}

const char *
embers_profile_get_sample_unit (EmbersProfile *self,
                                guint          index)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE (self), "");
  g_return_val_if_fail (index < self->n_types, "");

  return embers_profile_get_string (self, self->type_units[index]);
}

guint
embers_profile_get_default_sample_type (EmbersProfile *self)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE (self), 0);

  return self->default_type;
}

/**
 * embers_profile_find_sample_type:
 * @type: a sample type name ("alloc_space"), or a number
 *
 * Returns: the index of the sample type, or -1
 */
int
embers_profile_find_sample_type (EmbersProfile *self,
                                 const char    *type)
{
  guint64 idx;

  g_return_val_if_fail (EMBERS_IS_PROFILE (self), -1);
  g_return_val_if_fail (type != NULL, -1);

  for (guint i = 0; i < self->n_types; i++)
    {
      if (g_strcmp0 (embers_profile_get_sample_type (self, i), type) == 0)
        return i;
    }

  if (g_ascii_string_to_unsigned (type, 10, 0, self->n_types ? self->n_types - 1 : 0, &idx, NULL) &&
      self->n_types > 0)
    return (int)idx;

  return -1;
}

const char *
embers_profile_get_period_type (EmbersProfile *self)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE (self), "");

  return embers_profile_get_string (self, self->period_type);
}

const char *
embers_profile_get_period_unit (EmbersProfile *self)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE (self), "");

  return embers_profile_get_string (self, self->period_unit);
}

gint64
embers_profile_get_period (EmbersProfile *self)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE (self), 0);

  return self->period;
}

gint64
embers_profile_get_time_nanos (EmbersProfile *self)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE (self), 0);

  return self->time_nanos;
}

gint64
embers_profile_get_duration_nanos (EmbersProfile *self)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE (self), 0);

  return self->duration_nanos;
}

gboolean
embers_profile_is_diff (EmbersProfile *self)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE (self), FALSE);

  return self->is_diff;
}

guint
embers_profile_get_n_nodes (EmbersProfile *self)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE (self), 0);

  return self->n_nodes;
}

guint
embers_profile_get_max_depth (EmbersProfile *self)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE (self), 0);

  return self->max_depth;
}

guint32
embers_profile_node_name (EmbersProfile *self,
                          guint32        node)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE (self), 0);
  g_return_val_if_fail (node < self->n_nodes, 0);

  return self->names[node];
}

const char *
embers_profile_node_name_str (EmbersProfile *self,
                              guint32        node)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE (self), "");
  g_return_val_if_fail (node < self->n_nodes, "");

  return embers_profile_get_string (self, self->names[node]);
}

guint32
embers_profile_node_parent (EmbersProfile *self,
                            guint32        node)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE (self), EMBERS_NODE_NONE);
  g_return_val_if_fail (node < self->n_nodes, EMBERS_NODE_NONE);

  return self->parents[node];
}

guint32
embers_profile_node_end (EmbersProfile *self,
                         guint32        node)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE (self), 0);
  g_return_val_if_fail (node < self->n_nodes, 0);

  return self->ends[node];
}

guint
embers_profile_node_depth (EmbersProfile *self,
                           guint32        node)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE (self), 0);
  g_return_val_if_fail (node < self->n_nodes, 0);

  return self->depths[node];
}

gint64
embers_profile_node_self (EmbersProfile *self,
                          guint          sample_type,
                          guint32        node)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE (self), 0);
  g_return_val_if_fail (sample_type < self->n_types, 0);
  g_return_val_if_fail (node < self->n_nodes, 0);

  /* Without the column: the total less the children's totals */
  {
    const gint64 *column = g_atomic_pointer_get (&self->self_columns[sample_type]);
    const gint64 *total = self->totals[sample_type];
    gint64 value;

    if (column != NULL)
      return column[node];
    value = total[node];
    for (guint32 c = node + 1; c < self->ends[node]; c = self->ends[c])
      value -= total[c];
    return value;
  }
}

gint64
embers_profile_node_total (EmbersProfile *self,
                           guint          sample_type,
                           guint32        node)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE (self), 0);
  g_return_val_if_fail (sample_type < self->n_types, 0);
  g_return_val_if_fail (node < self->n_nodes, 0);

  return self->totals[sample_type][node];
}

gint64
embers_profile_get_total (EmbersProfile *self,
                          guint          sample_type)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE (self), 0);
  g_return_val_if_fail (sample_type < self->n_types, 0);

  return self->totals[sample_type][0];
}

const guint32 *
embers_profile_get_name_column (EmbersProfile *self)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE (self), NULL);

  return self->names;
}

const guint32 *
embers_profile_get_parent_column (EmbersProfile *self)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE (self), NULL);

  return self->parents;
}

const guint32 *
embers_profile_get_end_column (EmbersProfile *self)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE (self), NULL);

  return self->ends;
}

const guint16 *
embers_profile_get_depth_column (EmbersProfile *self)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE (self), NULL);

  return self->depths;
}

const gint64 *
embers_profile_get_self_column (EmbersProfile *self,
                                guint          sample_type)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE (self), NULL);
  g_return_val_if_fail (sample_type < self->n_types, NULL);

  return self_column (self, sample_type);
}

const gint64 *
embers_profile_get_total_column (EmbersProfile *self,
                                 guint          sample_type)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE (self), NULL);
  g_return_val_if_fail (sample_type < self->n_types, NULL);

  return self->totals[sample_type];
}

guint32
embers_profile_get_name_file (EmbersProfile *self,
                              guint32        name_id)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE (self), 0);

  if (self->name_files == NULL || name_id >= self->n_strings)
    return 0;

  return self->name_files[name_id];
}

gint64
embers_profile_get_name_line (EmbersProfile *self,
                              guint32        name_id)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE (self), 0);

  if (self->name_lines == NULL || name_id >= self->n_strings)
    return 0;

  return self->name_lines[name_id];
}

guint
embers_profile_get_n_samples (EmbersProfile *self)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE (self), 0);

  return self->n_samples;
}

guint32
embers_profile_sample_node (EmbersProfile *self,
                            guint          sample)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE (self), 0);
  g_return_val_if_fail (sample < self->n_samples, 0);

  return self->sample_nodes[sample];
}

guint32
embers_profile_sample_label_set (EmbersProfile *self,
                                 guint          sample)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE (self), 0);
  g_return_val_if_fail (sample < self->n_samples, 0);

  return self->sample_label_sets[sample];
}

gint64
embers_profile_sample_value (EmbersProfile *self,
                             guint          sample,
                             guint          sample_type)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE (self), 0);
  g_return_val_if_fail (sample < self->n_samples, 0);
  g_return_val_if_fail (sample_type < self->n_types, 0);

  return self->sample_values[(gsize)sample * self->n_types + sample_type];
}

guint
embers_profile_get_n_label_sets (EmbersProfile *self)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE (self), 0);

  return self->n_label_sets;
}

const EmbersLabel *
embers_profile_get_label_set (EmbersProfile *self,
                              guint32        label_set,
                              guint         *n_labels)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE (self), NULL);

  if (label_set >= self->n_label_sets || self->label_set_offsets == NULL)
    {
      if (n_labels)
        *n_labels = 0;
      return NULL;
    }

  if (n_labels)
    *n_labels = self->label_set_offsets[label_set + 1] - self->label_set_offsets[label_set];

  return self->labels + self->label_set_offsets[label_set];
}

/**
 * embers_profile_node_stack:
 * @separator: e.g. ";" or "\n"
 *
 * Returns: the frames from the first frame below the root down to @node,
 *   joined by @separator ("" for the root)
 */
char *
embers_profile_node_stack (EmbersProfile *self,
                           guint32        node,
                           const char    *separator)
{
  g_autoptr(GPtrArray) frames = NULL;
  GString *str;

  g_return_val_if_fail (EMBERS_IS_PROFILE (self), NULL);
  g_return_val_if_fail (node < self->n_nodes, NULL);

  frames = g_ptr_array_new ();
  for (guint32 n = node; n != 0 && n != EMBERS_NODE_NONE; n = self->parents[n])
    g_ptr_array_add (frames, (gpointer)embers_profile_get_string (self, self->names[n]));

  str = g_string_new (NULL);
  for (guint i = frames->len; i > 0; i--)
    {
      if (i != frames->len)
        g_string_append (str, separator);
      g_string_append (str, g_ptr_array_index (frames, i - 1));
    }

  return g_string_free (str, FALSE);
}

gsize
embers_profile_get_memory_size (EmbersProfile *self)
{
  gsize size;

  g_return_val_if_fail (EMBERS_IS_PROFILE (self), 0);

  size = sizeof *self;
  if (self->n_strings)
    size += self->string_offsets[self->n_strings - 1] + 1 + self->n_strings * 4;
  size += (gsize)self->n_nodes * (4 + 4 + 4 + 2 + 8 * self->n_types);
  for (guint t = 0; t < self->n_types; t++)
    if (g_atomic_pointer_get (&self->self_columns[t]) != NULL)
      size += (gsize)self->n_nodes * 8;
  if (self->name_files)
    size += (gsize)self->n_strings * 12;
  size += (gsize)self->n_samples * (8 + 8 * self->n_types);
  if (self->label_set_offsets)
    size += (self->n_label_sets + 1) * 4 + self->label_set_offsets[self->n_label_sets] * sizeof (EmbersLabel);

  return size;
}
