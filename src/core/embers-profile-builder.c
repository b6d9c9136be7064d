/* embers-profile-builder.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <inttypes.h>
#include <string.h>
#include <glib/gi18n.h>

#include "embers-profile-builder.h"
#include "embers-profile-private.h"
#include "embers-tree-build.h"

/* Unique stacks hold at most this many frames in all (8 per node allowed) */
#define MAX_STACK_FRAMES ((gsize)EMBERS_PROFILE_MAX_NODES * 8)

typedef EmbersU64Map U64Map;
#define u64map_init embers_u64_map_init
#define u64map_clear embers_u64_map_clear
#define u64map_lookup_or_insert embers_u64_map_lookup_or_insert
#define u64map_reserve embers_u64_map_reserve

/* String interning: NUL-terminated strings packed in one buffer. */
typedef struct
{
  GByteArray *data;
  GArray     *offsets;  /* guint32 */
  GArray     *hashes;   /* guint32 */
  guint32    *slots;    /* id + 1, 0 = empty */
  gsize       mask;
} StringPool;

static inline guint32
hash_bytes (const char *s,
            gsize       len)
{
  guint32 h = 2166136261u;

  for (gsize i = 0; i < len; i++)
    {
      h ^= (guint8)s[i];
      h *= 16777619u;
    }

  return h;
}

static void
string_pool_rehash (StringPool *pool,
                    gsize       size)
{
  g_free (pool->slots);
  pool->slots = g_new0 (guint32, size);
  pool->mask = size - 1;

  for (guint id = 0; id < pool->offsets->len; id++)
    {
      gsize i = g_array_index (pool->hashes, guint32, id) & pool->mask;

      while (pool->slots[i] != 0)
        i = (i + 1) & pool->mask;
      pool->slots[i] = id + 1;
    }
}

static guint32
string_pool_intern (StringPool *pool,
                    const char *str,
                    gsize       len)
{
  guint32 h = hash_bytes (str, len);
  gsize i = h & pool->mask;
  guint32 offset;
  guint32 id;

  for (;;)
    {
      guint32 slot = pool->slots[i];

      if (slot == 0)
        break;

      if (g_array_index (pool->hashes, guint32, slot - 1) == h)
        {
          const char *candidate = (const char *)pool->data->data + g_array_index (pool->offsets, guint32, slot - 1);

          if (memcmp (candidate, str, len) == 0 && candidate[len] == '\0')
            return slot - 1;
        }

      i = (i + 1) & pool->mask;
    }

  id = pool->offsets->len;
  offset = pool->data->len;
  g_byte_array_append (pool->data, (const guint8 *)str, len);
  g_byte_array_append (pool->data, (const guint8 *)"", 1);
  g_array_append_val (pool->offsets, offset);
  g_array_append_val (pool->hashes, h);
  pool->slots[i] = id + 1;

  if ((gsize)pool->offsets->len * 4 > (pool->mask + 1) * 3)
    string_pool_rehash (pool, (pool->mask + 1) * 2);

  return id;
}

struct _EmbersProfileBuilder
{
  StringPool  strings;

  GArray     *type_names;   /* guint32 */
  GArray     *type_units;   /* guint32 */
  guint       default_type;
  guint32     period_type;
  guint32     period_unit;
  gint64      period;
  gint64      time_nanos;
  gint64      duration_nanos;
  gboolean    is_diff;
  gboolean    values_started;

  /* Stacks, laid out as a tree by sorting in finish (see
   * embers-tree-build.c): unique name sequences, their summed values
   * (n_types each), and per (stack, label set != 0) the labelled part */
  EmbersSeqTable stacks;
  GArray     *stack_values;       /* gint64 */
  U64Map      entry_map;          /* stack << 32 | label set -> entry */
  GArray     *entry_stacks;       /* guint32 */
  GArray     *entry_sets;         /* guint32 */
  GArray     *entry_values;       /* gint64, n_types each */

  /* Tree-shaped input (get_child, add_self, add_profile): nodes as they
   * are asked for, with a (parent, name) -> child map. When it is used,
   * finish adds the stacks to this tree frame by frame. */
  gboolean    tree_mode;
  GArray     *parents;      /* guint32 */
  GArray     *names;        /* guint32 */
  GArray     *self;         /* gint64, n_types per node */
  U64Map      children;     /* (parent << 32 | name) -> node */
  GArray     *node_entry_nodes;   /* guint32: labelled parts of nodes */
  GArray     *node_entry_sets;    /* guint32 */
  GArray     *node_entry_values;  /* gint64, n_types each */
  gboolean    unindexed;    /* add_child made nodes the map lacks */
  guint32     root_name;

  /* Function locations, per name id */
  GArray     *name_files;   /* guint32 */
  GArray     *name_lines;   /* gint64 */

  /* Label sets */
  GArray     *label_set_offsets;  /* guint32, n + 1 */
  GArray     *labels;             /* EmbersLabel */
  GHashTable *label_set_index;    /* GBytes of labels -> id + 1 */
  gboolean    any_labels;

  EmbersBuilderProgressFunc progress;
  gpointer    progress_data;

  /* First error while adding */
  GError     *error;
};

EmbersProfileBuilder *
embers_profile_builder_new (void)
{
  EmbersProfileBuilder *b = g_new0 (EmbersProfileBuilder, 1);
  guint32 zero = 0;
  guint32 root = EMBERS_NODE_NONE;

  b->strings.data = g_byte_array_new ();
  b->strings.offsets = g_array_new (FALSE, FALSE, sizeof (guint32));
  b->strings.hashes = g_array_new (FALSE, FALSE, sizeof (guint32));
  b->strings.slots = NULL;
  string_pool_rehash (&b->strings, 1024);
  string_pool_intern (&b->strings, "", 0);
  b->root_name = string_pool_intern (&b->strings, "total", 5);

  b->type_names = g_array_new (FALSE, FALSE, sizeof (guint32));
  b->type_units = g_array_new (FALSE, FALSE, sizeof (guint32));

  embers_seq_table_init (&b->stacks);
  b->stack_values = g_array_new (FALSE, TRUE, sizeof (gint64));
  u64map_init (&b->entry_map, 64);
  b->entry_stacks = g_array_new (FALSE, FALSE, sizeof (guint32));
  b->entry_sets = g_array_new (FALSE, FALSE, sizeof (guint32));
  b->entry_values = g_array_new (FALSE, TRUE, sizeof (gint64));
  b->node_entry_nodes = g_array_new (FALSE, FALSE, sizeof (guint32));
  b->node_entry_sets = g_array_new (FALSE, FALSE, sizeof (guint32));
  b->node_entry_values = g_array_new (FALSE, FALSE, sizeof (gint64));

  b->parents = g_array_new (FALSE, FALSE, sizeof (guint32));
  b->names = g_array_new (FALSE, FALSE, sizeof (guint32));
  b->self = g_array_new (FALSE, TRUE, sizeof (gint64));
  g_array_append_val (b->parents, root);
  g_array_append_val (b->names, b->root_name);
  u64map_init (&b->children, 64);

  b->label_set_offsets = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_array_append_val (b->label_set_offsets, zero);
  g_array_append_val (b->label_set_offsets, zero);
  b->labels = g_array_new (FALSE, FALSE, sizeof (EmbersLabel));
  b->label_set_index = g_hash_table_new_full (g_bytes_hash, g_bytes_equal,
                                              (GDestroyNotify)g_bytes_unref, NULL);

  return b;
}

void
embers_profile_builder_free (EmbersProfileBuilder *b)
{
  if (b == NULL)
    return;

  g_byte_array_unref (b->strings.data);
  g_array_unref (b->strings.offsets);
  g_array_unref (b->strings.hashes);
  g_free (b->strings.slots);
  g_array_unref (b->type_names);
  g_array_unref (b->type_units);
  embers_seq_table_clear (&b->stacks);
  g_array_unref (b->stack_values);
  u64map_clear (&b->entry_map);
  g_array_unref (b->entry_stacks);
  g_array_unref (b->entry_sets);
  g_array_unref (b->entry_values);
  g_array_unref (b->node_entry_nodes);
  g_array_unref (b->node_entry_sets);
  g_array_unref (b->node_entry_values);
  g_array_unref (b->parents);
  g_array_unref (b->names);
  g_array_unref (b->self);
  u64map_clear (&b->children);
  g_clear_pointer (&b->name_files, g_array_unref);
  g_clear_pointer (&b->name_lines, g_array_unref);
  g_array_unref (b->label_set_offsets);
  g_array_unref (b->labels);
  g_hash_table_unref (b->label_set_index);
  g_clear_error (&b->error);
  g_free (b);
}

static void
builder_fail (EmbersProfileBuilder *b,
              EmbersProfileError    code,
              const char           *format,
              ...) G_GNUC_PRINTF (3, 4);

static void
builder_fail (EmbersProfileBuilder *b,
              EmbersProfileError    code,
              const char           *format,
              ...)
{
  va_list args;

  if (b->error != NULL)
    return;

  va_start (args, format);
  b->error = g_error_new_valist (EMBERS_PROFILE_ERROR, code, format, args);
  va_end (args);
}

guint32
embers_profile_builder_intern (EmbersProfileBuilder *b,
                               const char           *str,
                               gssize                len)
{
  g_return_val_if_fail (b != NULL, 0);

  if (str == NULL)
    return 0;
  if (len < 0)
    len = strlen (str);
  else
    len = strnlen (str, len);  /* a NUL ends a string */

  return string_pool_intern (&b->strings, str, len);
}

const char *
embers_profile_builder_get_string (EmbersProfileBuilder *b,
                                   guint32               string_id)
{
  g_return_val_if_fail (b != NULL, "");

  if (string_id >= b->strings.offsets->len)
    return "";

  return (const char *)b->strings.data->data + g_array_index (b->strings.offsets, guint32, string_id);
}

guint
embers_profile_builder_add_sample_type (EmbersProfileBuilder *b,
                                        const char           *type,
                                        const char           *unit)
{
  guint32 t, u;

  g_return_val_if_fail (b != NULL, 0);
  g_return_val_if_fail (!b->values_started, 0);

  if (b->type_names->len >= EMBERS_PROFILE_MAX_SAMPLE_TYPES)
    {
      builder_fail (b, EMBERS_PROFILE_ERROR_TOO_LARGE,
                    _("Too many sample types (more than %u)"), EMBERS_PROFILE_MAX_SAMPLE_TYPES);
      return b->type_names->len - 1;
    }

  t = embers_profile_builder_intern (b, type ? type : "", -1);
  u = embers_profile_builder_intern (b, unit ? unit : "", -1);
  g_array_append_val (b->type_names, t);
  g_array_append_val (b->type_units, u);

  return b->type_names->len - 1;
}

void
embers_profile_builder_set_progress (EmbersProfileBuilder      *b,
                                     EmbersBuilderProgressFunc  progress,
                                     gpointer                   user_data)
{
  g_return_if_fail (b != NULL);

  b->progress = progress;
  b->progress_data = user_data;
}

guint
embers_profile_builder_get_n_sample_types (EmbersProfileBuilder *b)
{
  g_return_val_if_fail (b != NULL, 0);

  return b->type_names->len;
}

void
embers_profile_builder_set_default_sample_type (EmbersProfileBuilder *b,
                                                guint                 index)
{
  g_return_if_fail (b != NULL);

  b->default_type = index;
}

void
embers_profile_builder_set_period (EmbersProfileBuilder *b,
                                   const char           *type,
                                   const char           *unit,
                                   gint64                period)
{
  g_return_if_fail (b != NULL);

  b->period_type = embers_profile_builder_intern (b, type, -1);
  b->period_unit = embers_profile_builder_intern (b, unit, -1);
  b->period = period;
}

void
embers_profile_builder_set_time (EmbersProfileBuilder *b,
                                 gint64                time_nanos,
                                 gint64                duration_nanos)
{
  g_return_if_fail (b != NULL);

  b->time_nanos = time_nanos;
  b->duration_nanos = duration_nanos;
}

void
embers_profile_builder_set_diff (EmbersProfileBuilder *b,
                                 gboolean              is_diff)
{
  g_return_if_fail (b != NULL);

  b->is_diff = !!is_diff;
}

void
embers_profile_builder_set_name_location (EmbersProfileBuilder *b,
                                          guint32               name_id,
                                          guint32               file_id,
                                          gint64                line)
{
  guint n;

  g_return_if_fail (b != NULL);

  n = b->strings.offsets->len;
  if (name_id >= n || file_id >= n)
    return;

  if (b->name_files == NULL)
    {
      b->name_files = g_array_new (FALSE, TRUE, sizeof (guint32));
      b->name_lines = g_array_new (FALSE, TRUE, sizeof (gint64));
    }

  if (b->name_files->len <= name_id)
    {
      g_array_set_size (b->name_files, name_id + 1);
      g_array_set_size (b->name_lines, name_id + 1);
    }

  /* First location wins: a function keeps the file it was first seen in. */
  if (g_array_index (b->name_files, guint32, name_id) == 0 &&
      g_array_index (b->name_lines, gint64, name_id) == 0)
    {
      g_array_index (b->name_files, guint32, name_id) = file_id;
      g_array_index (b->name_lines, gint64, name_id) = line;
    }
}

/* By key name, so that a set's order does not depend on the order its
 * strings were met (two threads may meet them in either order) */
static int
compare_labels (gconstpointer a,
                gconstpointer b,
                gpointer      user_data)
{
  EmbersProfileBuilder *builder = user_data;
  const EmbersLabel *la = a;
  const EmbersLabel *lb = b;

  if (la->key != lb->key)
    return strcmp (embers_profile_builder_get_string (builder, la->key),
                   embers_profile_builder_get_string (builder, lb->key));
  if (la->str != lb->str)
    return strcmp (embers_profile_builder_get_string (builder, la->str),
                   embers_profile_builder_get_string (builder, lb->str));
  if (la->num != lb->num)
    return la->num < lb->num ? -1 : 1;
  if (la->num_unit != lb->num_unit)
    return strcmp (embers_profile_builder_get_string (builder, la->num_unit),
                   embers_profile_builder_get_string (builder, lb->num_unit));
  return 0;
}

guint32
embers_profile_builder_add_label_set (EmbersProfileBuilder *b,
                                      const EmbersLabel    *labels,
                                      guint                 n_labels)
{
  g_autofree EmbersLabel *sorted = NULL;
  g_autoptr(GBytes) key = NULL;
  gpointer value;
  guint32 id;
  guint32 end;

  g_return_val_if_fail (b != NULL, 0);

  if (n_labels == 0 || labels == NULL)
    return 0;

  sorted = g_memdup2 (labels, sizeof (EmbersLabel) * n_labels);
  /* Normalize padding so that memcmp-based hashing is exact. */
  for (guint i = 0; i < n_labels; i++)
    {
      EmbersLabel l = { 0, };

      memset (&l, 0, sizeof l);
      l.key = sorted[i].key;
      l.str = sorted[i].str;
      l.num = sorted[i].num;
      l.num_unit = sorted[i].num_unit;
      memcpy (&sorted[i], &l, sizeof l);
    }
  g_sort_array (sorted, n_labels, sizeof (EmbersLabel), compare_labels, b);

  key = g_bytes_new (sorted, sizeof (EmbersLabel) * n_labels);
  value = g_hash_table_lookup (b->label_set_index, key);
  if (value != NULL)
    return GPOINTER_TO_UINT (value) - 1;

  id = b->label_set_offsets->len - 1;
  g_array_append_vals (b->labels, sorted, n_labels);
  end = b->labels->len;
  g_array_append_val (b->label_set_offsets, end);
  g_hash_table_insert (b->label_set_index, g_steal_pointer (&key), GUINT_TO_POINTER (id + 1));
  b->any_labels = TRUE;

  return id;
}

guint32
embers_profile_builder_get_child (EmbersProfileBuilder *b,
                                  guint32               parent,
                                  guint32               name_id)
{
  gboolean found;
  guint32 *slot;
  guint32 node;

  g_return_val_if_fail (b != NULL, 0);

  b->tree_mode = TRUE;
  slot = u64map_lookup_or_insert (&b->children, ((guint64)parent << 32) | name_id, &found);
  if (found)
    return *slot;

  node = b->parents->len;
  if G_UNLIKELY (node >= EMBERS_PROFILE_MAX_NODES)
    {
      builder_fail (b, EMBERS_PROFILE_ERROR_TOO_LARGE,
                    _("The profile has more than %u call tree nodes"), EMBERS_PROFILE_MAX_NODES);
      /* Keep going without growing: attribute to the parent. */
      *slot = parent;
      return parent;
    }

  *slot = node;
  g_array_append_val (b->parents, parent);
  g_array_append_val (b->names, name_id);

  return node;
}

static inline guint32
append_node (EmbersProfileBuilder *b,
             guint32               parent,
             guint32               name_id)
{
  guint32 node = b->parents->len;

  if G_UNLIKELY (node >= EMBERS_PROFILE_MAX_NODES)
    {
      builder_fail (b, EMBERS_PROFILE_ERROR_TOO_LARGE,
                    _("The profile has more than %u call tree nodes"), EMBERS_PROFILE_MAX_NODES);
      return parent;
    }

  g_array_append_val (b->parents, parent);
  g_array_append_val (b->names, name_id);

  return node;
}

guint32
embers_profile_builder_add_child (EmbersProfileBuilder *b,
                                  guint32               parent,
                                  guint32               name_id)
{
  g_return_val_if_fail (b != NULL, 0);
  g_return_val_if_fail (parent < b->parents->len, 0);

  b->tree_mode = TRUE;
  b->unindexed = TRUE;

  return append_node (b, parent, name_id);
}

void
embers_profile_builder_index_child (EmbersProfileBuilder *b,
                                    guint32               node)
{
  gboolean found;
  guint32 *slot;
  guint32 parent, name;

  g_return_if_fail (b != NULL);
  g_return_if_fail (node > 0 && node < b->parents->len);

  parent = g_array_index (b->parents, guint32, node);
  name = g_array_index (b->names, guint32, node);
  slot = u64map_lookup_or_insert (&b->children, ((guint64)parent << 32) | name, &found);
  g_warn_if_fail (!found || *slot == node);
  *slot = node;
}

void
embers_profile_builder_reserve (EmbersProfileBuilder *b,
                                guint                 n_nodes,
                                guint                 n_looked_up)
{
  guint len;

  g_return_if_fail (b != NULL);

  n_nodes = MIN (n_nodes, EMBERS_PROFILE_MAX_NODES);
  u64map_reserve (&b->children, MIN (n_looked_up, n_nodes));
  len = b->parents->len;
  if (n_nodes <= len)
    return;

  if (b->type_names->len > 0 && b->self->len < (gsize)n_nodes * b->type_names->len)
    {
      guint self_len = b->self->len;

      gsize size = (gsize)n_nodes * b->type_names->len;

      if (self_len == 0)
        {
          /* Huge pages: the array zeroes what it grows into */
          g_array_unref (b->self);
          b->self = g_array_new_take (embers_alloc_column (sizeof (gint64) * size, TRUE), size, TRUE, sizeof (gint64));
        }
      else
        g_array_set_size (b->self, size);
      g_array_set_size (b->self, self_len);
    }

  /* GArray keeps its allocation when it shrinks */
  g_array_set_size (b->parents, n_nodes);
  embers_advise_huge (b->parents->data, sizeof (guint32) * n_nodes);
  g_array_set_size (b->parents, len);
  g_array_set_size (b->names, n_nodes);
  embers_advise_huge (b->names->data, sizeof (guint32) * n_nodes);
  g_array_set_size (b->names, len);
}

/* Puts every node into the (parent, name) map after add_child */
static void
index_all_children (EmbersProfileBuilder *b)
{
  const guint32 *parents = (const guint32 *)(gpointer)b->parents->data;
  const guint32 *names = (const guint32 *)(gpointer)b->names->data;

  u64map_reserve (&b->children, b->parents->len);
  for (guint i = 1; i < b->parents->len; i++)
    {
      gboolean found;
      guint32 *slot = u64map_lookup_or_insert (&b->children, ((guint64)parents[i] << 32) | names[i], &found);

      if (!found)
        *slot = i;
    }
  b->unindexed = FALSE;
}

guint
embers_profile_builder_get_n_nodes (EmbersProfileBuilder *b)
{
  g_return_val_if_fail (b != NULL, 0);

  return b->parents->len;
}

/* Values without a declared sample type are plain sample counts. */
static inline void
ensure_sample_type (EmbersProfileBuilder *b)
{
  if G_UNLIKELY (b->type_names->len == 0)
    {
      guint32 t = embers_profile_builder_intern (b, "samples", -1);
      guint32 u = embers_profile_builder_intern (b, "count", -1);

      g_array_append_val (b->type_names, t);
      g_array_append_val (b->type_units, u);
    }
}

static inline gint64 *
node_self (EmbersProfileBuilder *b,
           guint32               node)
{
  guint n_types = b->type_names->len;
  gsize needed = (gsize)b->parents->len * n_types;

  if (b->self->len < needed)
    {
      gsize size = MAX (needed, (gsize)b->self->len * 2);

      g_array_set_size (b->self, size);
    }

  return &g_array_index (b->self, gint64, (gsize)node * n_types);
}

static inline gboolean
add_value (EmbersProfileBuilder *b,
           gint64               *dest,
           gint64                value)
{
  if G_UNLIKELY (value < 0)
    {
      builder_fail (b, EMBERS_PROFILE_ERROR_INVALID,
                    _("A sample has a negative value (%" PRId64 ")"), value);
      return FALSE;
    }

  if G_UNLIKELY (__builtin_add_overflow (*dest, value, dest))
    {
      builder_fail (b, EMBERS_PROFILE_ERROR_TOO_LARGE,
                    _("Sample values add up to more than a 64-bit integer can hold"));
      *dest = G_MAXINT64;
      return FALSE;
    }

  return TRUE;
}

void
embers_profile_builder_add_self (EmbersProfileBuilder *b,
                                 guint32               node,
                                 guint                 sample_type,
                                 gint64                value)
{
  g_return_if_fail (b != NULL);
  g_return_if_fail (node < b->parents->len);

  ensure_sample_type (b);
  if (sample_type >= b->type_names->len)
    {
      builder_fail (b, EMBERS_PROFILE_ERROR_INVALID,
                    _("A value refers to sample type %u, but there are only %u"),
                    sample_type, b->type_names->len);
      return;
    }

  b->tree_mode = TRUE;
  b->values_started = TRUE;
  add_value (b, &node_self (b, node)[sample_type], value);
}

void
embers_profile_builder_add_node_labels (EmbersProfileBuilder *b,
                                        guint32               node,
                                        const gint64         *values,
                                        guint32               label_set)
{
  guint n_types;
  gint64 *self;

  g_return_if_fail (b != NULL);
  g_return_if_fail (node < b->parents->len);

  ensure_sample_type (b);
  n_types = b->type_names->len;
  b->tree_mode = TRUE;
  b->values_started = TRUE;
  self = node_self (b, node);
  for (guint t = 0; t < n_types; t++)
    if (!add_value (b, &self[t], values[t]))
      return;
  if (label_set >= b->label_set_offsets->len - 1)
    return;

  g_array_append_val (b->node_entry_nodes, node);
  g_array_append_val (b->node_entry_sets, label_set);
  g_array_append_vals (b->node_entry_values, values, n_types);
}

static guint32 add_stack (EmbersProfileBuilder *b,
                          const guint32        *names,
                          guint                 n_names,
                          const gint64         *values,
                          guint32               label_set,
                          gboolean              unique);

void
embers_profile_builder_add_stack (EmbersProfileBuilder *b,
                                  const guint32        *names,
                                  guint                 n_names,
                                  const gint64         *values,
                                  guint32               label_set)
{
  g_return_if_fail (b != NULL);

  add_stack (b, names, n_names, values, label_set, FALSE);
}

guint32
embers_profile_builder_add_unique_stack (EmbersProfileBuilder *b,
                                         const guint32        *names,
                                         guint                 n_names,
                                         const gint64         *values)
{
  return add_stack (b, names, n_names, values, 0, TRUE);
}

static void add_labels (EmbersProfileBuilder *b,
                        guint32               stack,
                        const gint64         *values,
                        guint32               label_set,
                        gboolean              merge);

void
embers_profile_builder_add_stack_labels (EmbersProfileBuilder *b,
                                         guint32               stack,
                                         const gint64         *values,
                                         guint32               label_set)
{
  g_return_if_fail (b != NULL);

  if (stack >= b->stacks.n || label_set == 0 || label_set >= b->label_set_offsets->len - 1)
    return;
  add_labels (b, stack, values, label_set, FALSE);
}

void
embers_profile_builder_take_stack_labels (EmbersProfileBuilder *b,
                                          guint32              *stacks,
                                          guint32              *sets,
                                          gint64               *values,
                                          guint                 n)
{
  guint n_types;
  guint n_sets;

  g_return_if_fail (b != NULL);

  ensure_sample_type (b);
  n_types = b->type_names->len;
  n_sets = b->label_set_offsets->len - 1;
  for (guint i = 0; i < n; i++)
    g_return_if_fail (stacks[i] < b->stacks.n && sets[i] < n_sets);

  if (b->entry_stacks->len == 0)
    {
      /* Adopt them */
      g_array_unref (b->entry_stacks);
      g_array_unref (b->entry_sets);
      g_array_unref (b->entry_values);
      b->entry_stacks = g_array_new_take (stacks, n, FALSE, sizeof (guint32));
      b->entry_sets = g_array_new_take (sets, n, FALSE, sizeof (guint32));
      b->entry_values = g_array_new_take (values, (gsize)n * n_types, TRUE, sizeof (gint64));
      return;
    }

  g_array_append_vals (b->entry_stacks, stacks, n);
  g_array_append_vals (b->entry_sets, sets, n);
  g_array_append_vals (b->entry_values, values, (gsize)n * n_types);
  g_free (stacks);
  g_free (sets);
  g_free (values);
}

static guint32
add_stack (EmbersProfileBuilder *b,
           const guint32        *names,
           guint                 n_names,
           const gint64         *values,
           guint32               label_set,
           gboolean              unique)
{
  guint n_types;
  guint32 stack;
  gboolean added;
  gint64 *dest;

  ensure_sample_type (b);
  n_types = b->type_names->len;
  b->values_started = TRUE;

  if G_UNLIKELY (n_names > EMBERS_PROFILE_MAX_DEPTH)
    {
      builder_fail (b, EMBERS_PROFILE_ERROR_TOO_LARGE,
                    g_dngettext (GETTEXT_PACKAGE,
                                 "a stack is %u frame deep; the limit is %u",
                                 "a stack is %u frames deep; the limit is %u",
                                 n_names),
                    n_names, EMBERS_PROFILE_MAX_DEPTH);
      return G_MAXUINT32;
    }

  /* A stack without any value adds nothing: no empty frames */
  {
    gboolean any = FALSE;

    for (guint t = 0; t < n_types; t++)
      {
        if G_UNLIKELY (values[t] < 0)
          {
            builder_fail (b, EMBERS_PROFILE_ERROR_INVALID,
                          _("A sample has a negative value (%" PRId64 ")"), values[t]);
            return G_MAXUINT32;
          }
        any |= values[t] != 0;
      }
    if (!any)
      return G_MAXUINT32;
  }

  if (unique)
    {
      stack = embers_seq_table_append (&b->stacks, names, (gsize)n_names * 4);
      added = TRUE;
    }
  else
    stack = embers_seq_table_add (&b->stacks, names, n_names, &added);
  if G_UNLIKELY (stack == G_MAXUINT32 || b->stacks.len / 4 > MAX_STACK_FRAMES)
    {
      builder_fail (b, EMBERS_PROFILE_ERROR_TOO_LARGE,
                    _("The profile has more than %u call tree nodes"), EMBERS_PROFILE_MAX_NODES);
      return G_MAXUINT32;
    }
  if (added)
    g_array_set_size (b->stack_values, b->stack_values->len + n_types);

  dest = &g_array_index (b->stack_values, gint64, (gsize)stack * n_types);
  for (guint t = 0; t < n_types; t++)
    if G_UNLIKELY (!add_value (b, &dest[t], values[t]))
      return G_MAXUINT32;

  /* Keep the labelled part apart, so labels can filter and group later;
   * what a stack has without labels is the rest of its value. */
  if (label_set != 0)
    add_labels (b, stack, values, label_set, TRUE);

  return stack;
}

/* The labelled part of a stack's value: merged with those of the same
 * stack and label set here (add_stack: callers may repeat stacks without
 * bound), or later by sorting (add_stack_labels: its reader has merged) */
static void
add_labels (EmbersProfileBuilder *b,
            guint32               stack,
            const gint64         *values,
            guint32               label_set,
            gboolean              merge)
{
  guint n_types = b->type_names->len;
  gint64 *dest;

  if (merge)
    {
      gboolean found;
      guint32 *slot = u64map_lookup_or_insert (&b->entry_map, ((guint64)stack << 32) | label_set, &found);

      if (found)
        {
          dest = &g_array_index (b->entry_values, gint64, (gsize)*slot * n_types);
          for (guint t = 0; t < n_types; t++)
            dest[t] += values[t];   /* cannot overflow: the stack's sum did not */
          return;
        }
      *slot = b->entry_stacks->len;
    }

  g_array_append_val (b->entry_stacks, stack);
  g_array_append_val (b->entry_sets, label_set);
  g_array_append_vals (b->entry_values, values, n_types);
}

void
embers_profile_builder_add_profile (EmbersProfileBuilder *b,
                                    EmbersProfile        *profile,
                                    guint                 sample_type,
                                    guint                 column,
                                    const gint64         *self_values)
{
  guint n_nodes, n_strings;
  const guint32 *names, *parents;
  const gint64 *self, *total;
  g_autofree gint64 *computed_total = NULL;
  g_autofree guint32 *name_map = NULL;
  g_autofree guint32 *node_map = NULL;

  g_return_if_fail (b != NULL);
  g_return_if_fail (EMBERS_IS_PROFILE (profile));
  g_return_if_fail (sample_type < embers_profile_get_n_sample_types (profile));

  n_nodes = embers_profile_get_n_nodes (profile);
  n_strings = embers_profile_get_n_strings (profile);
  names = embers_profile_get_name_column (profile);
  parents = embers_profile_get_parent_column (profile);

  if (self_values != NULL)
    {
      /* Subtree sums of the given self values, to skip empty subtrees */
      computed_total = g_memdup2 (self_values, sizeof (gint64) * n_nodes);
      for (guint i = n_nodes; i-- > 1; )
        computed_total[parents[i]] += computed_total[i];
      self = self_values;
      total = computed_total;
    }
  else
    {
      self = embers_profile_get_self_column (profile, sample_type);
      total = embers_profile_get_total_column (profile, sample_type);
    }

  name_map = g_new (guint32, n_strings);
  memset (name_map, 0xff, sizeof (guint32) * n_strings);
  node_map = g_new (guint32, n_nodes);

  node_map[0] = 0;
  if (self[0] > 0)
    embers_profile_builder_add_self (b, 0, column, self[0]);

  for (guint i = 1; i < n_nodes; i++)
    {
      guint32 name = names[i];

      if (total[i] == 0)
        {
          node_map[i] = G_MAXUINT32;
          continue;
        }

      if (name_map[name] == G_MAXUINT32)
        name_map[name] = embers_profile_builder_intern (b, embers_profile_get_string (profile, name), -1);

      node_map[i] = embers_profile_builder_get_child (b, node_map[parents[i]], name_map[name]);
      if (self[i] > 0)
        embers_profile_builder_add_self (b, node_map[i], column, self[i]);
    }
}

gboolean
embers_profile_builder_check (EmbersProfileBuilder *b,
                              GError              **error)
{
  g_return_val_if_fail (b != NULL, FALSE);

  if (b->error != NULL)
    {
      if (error)
        *error = g_error_copy (b->error);
      return FALSE;
    }

  return TRUE;
}

/* Strings, header and function locations: the same for both ways of
 * making the tree */
static void
finish_header (EmbersProfileBuilder *b,
               EmbersProfile        *profile)
{
  guint n_types = b->type_names->len;
  guint n_strings = b->strings.offsets->len;

  profile->n_types = n_types;
  profile->n_strings = n_strings;
  /* The pool is handed over, not copied (finish consumes the builder):
   * one copy of the strings less at the load's peak. The builder is left
   * with a fresh pool of its two first strings. */
  {
    gsize n_bytes = b->strings.data->len;

    profile->string_data = g_realloc (g_byte_array_steal (b->strings.data, NULL), n_bytes);
    profile->string_offsets = g_renew (guint32, g_array_steal (b->strings.offsets, NULL), n_strings);
    g_array_set_size (b->strings.hashes, 0);
    string_pool_rehash (&b->strings, 1024);
    string_pool_intern (&b->strings, "", 0);
    string_pool_intern (&b->strings, "total", 5);
  }

  profile->type_names = g_memdup2 (b->type_names->data, sizeof (guint32) * n_types);
  profile->type_units = g_memdup2 (b->type_units->data, sizeof (guint32) * n_types);
  profile->default_type = b->default_type < n_types ? b->default_type : 0;
  profile->period_type = b->period_type;
  profile->period_unit = b->period_unit;
  profile->period = b->period;
  profile->time_nanos = b->time_nanos;
  profile->duration_nanos = b->duration_nanos;
  profile->is_diff = b->is_diff;

  if (b->name_files != NULL)
    {
      profile->name_files = g_new0 (guint32, n_strings);
      profile->name_lines = g_new0 (gint64, n_strings);
      memcpy (profile->name_files, b->name_files->data, sizeof (guint32) * MIN (n_strings, b->name_files->len));
      memcpy (profile->name_lines, b->name_lines->data, sizeof (gint64) * MIN (n_strings, b->name_lines->len));
    }
}

typedef struct
{
  guint64 key;     /* node << 32 | label set */
  guint32 source;  /* an entry, or n_entries + a stack (its unlabelled rest),
                    * or n_entries + n_stacks + a node entry */
} SampleRef;

/* LSD radix sort by key, a byte per pass, skipping the bytes every key
 * shares; stable, so equal keys keep their order */
static void
sort_sample_refs (SampleRef *a,
                  gsize      n)
{
  g_autofree SampleRef *tmp = NULL;
  SampleRef *src = a, *dst;
  guint64 all_or = 0, all_and = G_MAXUINT64;
  gsize counts[256];

  if (n < 2)
    return;
  for (gsize i = 0; i < n; i++)
    {
      all_or |= a[i].key;
      all_and &= a[i].key;
    }

  tmp = g_new (SampleRef, n);
  dst = tmp;
  for (guint shift = 0; shift < 64; shift += 8)
    {
      gsize sum = 0;

      if ((((all_or ^ all_and) >> shift) & 0xff) == 0)
        continue;
      memset (counts, 0, sizeof counts);
      for (gsize i = 0; i < n; i++)
        counts[(src[i].key >> shift) & 0xff]++;
      for (guint b = 0; b < 256; b++)
        {
          gsize c = counts[b];

          counts[b] = sum;
          sum += c;
        }
      for (gsize i = 0; i < n; i++)
        dst[counts[(src[i].key >> shift) & 0xff]++] = src[i];
      {
        SampleRef *t = src;

        src = dst;
        dst = t;
      }
    }
  if (src != a)
    memcpy (a, src, sizeof (SampleRef) * n);
}

/* Samples by (node, label set), ordered so, only when some sample has
 * labels: each labelled entry, what each stack has without labels, and
 * each node entry (tree mode: new_index maps its node). */
static void
finish_samples (EmbersProfileBuilder *b,
                EmbersProfile        *profile,
                const guint32        *leaf_of_stack,
                const guint32        *new_index)
{
  guint n_types = b->type_names->len;
  guint n_entries = b->entry_stacks->len;
  guint n_stacks = b->stacks.n;
  guint n_node_entries = new_index != NULL ? b->node_entry_nodes->len : 0;
  const guint32 *node_entry_nodes = (const guint32 *)(gpointer)b->node_entry_nodes->data;
  const guint32 *node_entry_sets = (const guint32 *)(gpointer)b->node_entry_sets->data;
  const gint64 *node_entry_values = (const gint64 *)(gpointer)b->node_entry_values->data;
  const guint32 *entry_stacks = (const guint32 *)(gpointer)b->entry_stacks->data;
  const guint32 *entry_sets = (const guint32 *)(gpointer)b->entry_sets->data;
  const gint64 *entry_values = (const gint64 *)(gpointer)b->entry_values->data;
  g_autofree gint64 *rest = NULL;
  g_autofree SampleRef *refs = NULL;
  guint n_refs = 0, n_samples = 0;

  if (!b->any_labels)
    return;

  rest = g_memdup2 (b->stack_values->data, sizeof (gint64) * MAX ((gsize)n_stacks * n_types, 1));
  for (guint e = 0; e < n_entries; e++)
    for (guint t = 0; t < n_types; t++)
      rest[(gsize)entry_stacks[e] * n_types + t] -= entry_values[(gsize)e * n_types + t];

  refs = g_new (SampleRef, (gsize)n_entries + n_stacks + n_node_entries + 1);
  for (guint e = 0; e < n_entries; e++)
    refs[n_refs++] = (SampleRef) { ((guint64)leaf_of_stack[entry_stacks[e]] << 32) | entry_sets[e], e };
  for (guint st = 0; st < n_stacks; st++)
    {
      gboolean any = FALSE;

      for (guint t = 0; t < n_types; t++)
        any |= rest[(gsize)st * n_types + t] != 0;
      if (any)
        refs[n_refs++] = (SampleRef) { (guint64)leaf_of_stack[st] << 32, n_entries + st };
    }
  for (guint e = 0; e < n_node_entries; e++)
    refs[n_refs++] = (SampleRef) { ((guint64)new_index[node_entry_nodes[e]] << 32) | node_entry_sets[e],
                                   n_entries + n_stacks + e };
  sort_sample_refs (refs, n_refs);

  profile->sample_nodes = g_new (guint32, MAX (n_refs, 1));
  profile->sample_label_sets = g_new (guint32, MAX (n_refs, 1));
  profile->sample_values = g_new0 (gint64, MAX ((gsize)n_refs * n_types, 1));
  for (guint i = 0; i < n_refs; i++)
    {
      guint32 source = refs[i].source;
      const gint64 *src = source < n_entries
                          ? entry_values + (gsize)source * n_types
                          : source < n_entries + n_stacks
                          ? rest + (gsize)(source - n_entries) * n_types
                          : node_entry_values + (gsize)(source - n_entries - n_stacks) * n_types;
      gint64 *dest;

      if (i == 0 || refs[i].key != refs[i - 1].key)
        {
          profile->sample_nodes[n_samples] = (guint32)(refs[i].key >> 32);
          profile->sample_label_sets[n_samples] = (guint32)refs[i].key;
          n_samples++;
        }
      /* Cannot overflow: the node's value did not */
      dest = profile->sample_values + (gsize)(n_samples - 1) * n_types;
      for (guint t = 0; t < n_types; t++)
        dest[t] += src[t];
    }

  profile->n_samples = n_samples;
  profile->n_label_sets = b->label_set_offsets->len - 1;
  profile->label_set_offsets = g_memdup2 (b->label_set_offsets->data, sizeof (guint32) * b->label_set_offsets->len);
  profile->labels = g_memdup2 (b->labels->data, sizeof (EmbersLabel) * MAX (1u, b->labels->len));
}

/* After finish: the stacks and their labelled parts, emptied */
static void
release_stacks (EmbersProfileBuilder *b)
{
  embers_seq_table_clear (&b->stacks);
  embers_seq_table_init (&b->stacks);
  g_array_unref (b->stack_values);
  b->stack_values = g_array_new (FALSE, TRUE, sizeof (gint64));
  g_array_unref (b->entry_stacks);
  b->entry_stacks = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_array_unref (b->entry_sets);
  b->entry_sets = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_array_unref (b->entry_values);
  b->entry_values = g_array_new (FALSE, TRUE, sizeof (gint64));
}

/* The stacks' tree by sorting them (embers-tree-build.c) */
static EmbersProfile *
finish_sorted (EmbersProfileBuilder *b,
               GCancellable         *cancellable,
               GError              **error)
{
  g_autoptr(EmbersProfile) profile = _embers_profile_new ();
  EmbersTreeColumns tree = { 0, };
  guint n_types = b->type_names->len;
  guint n_strings = b->strings.offsets->len;
  g_autofree guint32 *rank = g_new (guint32, MAX (n_strings, 1));
  g_autofree guint32 *names_by_rank = NULL;
  guint32 *words = embers_seq_table_words (&b->stacks);
  gsize n_words = b->stacks.len / 4;
  guint n_ranks = 0;
  gint64 t0 = g_get_monotonic_time ();

  /* Rank the names that frames use, in strcmp order */
  {
    g_autofree guint8 *used = g_new0 (guint8, MAX (n_strings, 1));

    for (gsize i = 0; i < n_words; i++)
      used[words[i]] = 1;
    names_by_rank = g_new (guint32, MAX (n_strings, 1));
    for (guint32 id = 0; id < n_strings; id++)
      if (used[id])
        names_by_rank[n_ranks++] = id;
    embers_sort_string_ids (names_by_rank, n_ranks, (const char *)b->strings.data->data,
                            (const guint32 *)(gpointer)b->strings.offsets->data);
    for (guint r = 0; r < n_ranks; r++)
      rank[names_by_rank[r]] = r;
  }

  g_debug ("builder: %u names ranked in %.1f ms", n_ranks, (g_get_monotonic_time () - t0) / 1e3);

  /* The stacks in rank space, then their tree; nothing is added any
   * more, so the maps that found entries go first */
  embers_seq_table_freeze (&b->stacks);
  u64map_clear (&b->entry_map);
  u64map_init (&b->entry_map, 64);
  for (gsize i = 0; i < n_words; i++)
    words[i] = rank[words[i]];
  if (!embers_tree_build (&b->stacks, n_ranks, names_by_rank, b->root_name,
                          (const gint64 *)(gpointer)b->stack_values->data, n_types,
                          EMBERS_PROFILE_MAX_NODES, b->progress, b->progress_data,
                          cancellable, &tree, error))
    return NULL;
  g_debug ("builder: %u stacks, %u nodes at %.1f ms", b->stacks.n, tree.n_nodes,
           (g_get_monotonic_time () - t0) / 1e3);

  profile->n_nodes = tree.n_nodes;
  profile->n_types = n_types;
  profile->max_depth = tree.max_depth;
  profile->names = g_steal_pointer (&tree.names);
  profile->depths = g_steal_pointer (&tree.depths);
  for (guint t = 0; t < n_types; t++)
    profile->totals[t] = g_steal_pointer (&tree.totals[t]);
  finish_header (b, profile);
  finish_samples (b, profile, tree.leaf_of_seq, NULL);
  embers_tree_columns_clear (&tree);
  g_debug ("builder: samples at %.1f ms", (g_get_monotonic_time () - t0) / 1e3);

  /* The stacks are spent (finish consumes them): their memory goes before
   * the parents and ends are made, which keeps the load's peak near the
   * profile's own size */
  release_stacks (b);
  g_clear_pointer (&names_by_rank, g_free);
  g_clear_pointer (&rank, g_free);
  profile->parents = embers_alloc_column (sizeof (guint32) * MAX (profile->n_nodes, 1), FALSE);
  profile->ends = embers_alloc_column (sizeof (guint32) * MAX (profile->n_nodes, 1), FALSE);
  embers_tree_link (profile->depths, profile->n_nodes, profile->max_depth,
                    profile->parents, profile->ends);
  g_debug ("builder: parents and ends at %.1f ms", (g_get_monotonic_time () - t0) / 1e3);

  return g_steal_pointer (&profile);
}

/* Tree-shaped input: the stacks go into the node map frame by frame, then
 * the nodes are laid out in pre-order with siblings sorted by name. */

typedef struct
{
  const char     *data;
  const guint32  *offsets;
} RankContext;

static int
compare_string_ids (gconstpointer a,
                    gconstpointer b,
                    gpointer      user_data)
{
  const RankContext *ctx = user_data;
  guint32 ia = *(const guint32 *)a;
  guint32 ib = *(const guint32 *)b;

  return strcmp (ctx->data + ctx->offsets[ia], ctx->data + ctx->offsets[ib]);
}

static int
compare_u64 (gconstpointer a,
             gconstpointer b)
{
  guint64 ka = *(const guint64 *)a;
  guint64 kb = *(const guint64 *)b;

  return ka < kb ? -1 : ka > kb;
}

static EmbersProfile *
finish_tree (EmbersProfileBuilder *b,
             GError              **error)
{
  g_autoptr(EmbersProfile) profile = NULL;
  g_autofree guint32 *rank = NULL;
  g_autofree guint32 *child_start = NULL;
  g_autofree guint64 *child_keys = NULL;
  g_autofree guint32 *new_index = NULL;
  g_autofree guint32 *stack = NULL;
  g_autofree guint32 *leaf_of_stack = NULL;
  g_autofree gint64 *self = NULL;
  guint n_nodes, n_types, n_strings;
  const guint32 *old_parents;
  const guint32 *old_names;
  guint32 pos;
  gsize sp;

  n_types = b->type_names->len;

  if (b->unindexed && b->stacks.n > 0)
    index_all_children (b);

  /* The stacks, frame by frame */
  leaf_of_stack = g_new (guint32, MAX (b->stacks.n, 1));
  for (guint st = 0; st < b->stacks.n; st++)
    {
      const guint32 *names = embers_seq_table_get (&b->stacks, st);
      guint len = embers_seq_table_length (&b->stacks, st);
      const gint64 *values = &g_array_index (b->stack_values, gint64, (gsize)st * n_types);
      guint32 node = 0;
      gint64 *dest;

      for (guint i = 0; i < len; i++)
        node = embers_profile_builder_get_child (b, node, names[i]);
      leaf_of_stack[st] = node;
      dest = node_self (b, node);
      for (guint t = 0; t < n_types; t++)
        add_value (b, &dest[t], values[t]);
    }
  if (!embers_profile_builder_check (b, error))
    return NULL;

  n_nodes = b->parents->len;
  n_strings = b->strings.offsets->len;
  old_parents = (const guint32 *)(gpointer)b->parents->data;
  old_names = (const guint32 *)(gpointer)b->names->data;
  node_self (b, n_nodes - 1);  /* make sure the value array covers every node */

  /* Rank names in strcmp order */
  {
    g_autofree guint32 *order = g_new (guint32, n_strings);
    RankContext ctx = { (const char *)b->strings.data->data, (const guint32 *)(gpointer)b->strings.offsets->data };

    for (guint i = 0; i < n_strings; i++)
      order[i] = i;
    g_sort_array (order, n_strings, sizeof (guint32), compare_string_ids, &ctx);
    rank = g_new (guint32, n_strings);
    for (guint i = 0; i < n_strings; i++)
      rank[order[i]] = i;
  }

  /* Children lists (CSR), each sorted by name rank */
  child_start = embers_alloc_column (sizeof (guint32) * ((gsize)n_nodes + 1), TRUE);
  for (guint i = 1; i < n_nodes; i++)
    child_start[old_parents[i] + 1]++;
  for (guint i = 0; i < n_nodes; i++)
    child_start[i + 1] += child_start[i];

  child_keys = embers_alloc_column (sizeof (guint64) * (n_nodes > 1 ? n_nodes - 1 : 1), FALSE);
  {
    g_autofree guint32 *fill = g_memdup2 (child_start, sizeof (guint32) * n_nodes);

    for (guint i = 1; i < n_nodes; i++)
      child_keys[fill[old_parents[i]]++] = ((guint64)rank[old_names[i]] << 32) | i;
  }
  for (guint i = 0; i < n_nodes; i++)
    {
      guint32 s = child_start[i];
      guint32 e = child_start[i + 1];

      if (e - s > 1)
        qsort (child_keys + s, e - s, sizeof (guint64), compare_u64);
    }

  profile = _embers_profile_new ();
  profile->n_nodes = n_nodes;
  profile->n_types = n_types;
  profile->names = embers_alloc_column (sizeof (guint32) * n_nodes, FALSE);
  profile->parents = embers_alloc_column (sizeof (guint32) * n_nodes, FALSE);
  profile->ends = embers_alloc_column (sizeof (guint32) * n_nodes, FALSE);
  profile->depths = embers_alloc_column (sizeof (guint16) * n_nodes, FALSE);
  self = embers_alloc_column (sizeof (gint64) * n_nodes * n_types, FALSE);
  for (guint t = 0; t < n_types; t++)
    profile->totals[t] = embers_alloc_column (sizeof (gint64) * n_nodes, FALSE);

  /* Iterative DFS in pre-order; the stack holds old node ids. */
  new_index = embers_alloc_column (sizeof (guint32) * n_nodes, FALSE);
  stack = embers_alloc_column (sizeof (guint32) * n_nodes, FALSE);
  sp = 0;
  pos = 0;
  stack[sp++] = 0;
  while (sp > 0)
    {
      guint32 old = stack[--sp];
      guint32 cur = pos++;
      guint32 old_parent = old_parents[old];
      const gint64 *src = &g_array_index (b->self, gint64, (gsize)old * n_types);

      new_index[old] = cur;
      profile->names[cur] = old_names[old];
      if (old == 0)
        {
          profile->parents[cur] = EMBERS_NODE_NONE;
          profile->depths[cur] = 0;
        }
      else
        {
          guint32 p = new_index[old_parent];
          guint depth = profile->depths[p] + 1u;

          profile->parents[cur] = p;
          profile->depths[cur] = (guint16)MIN (depth, G_MAXUINT16);
          if (depth > profile->max_depth)
            profile->max_depth = depth;
        }
      for (guint t = 0; t < n_types; t++)
        self[(gsize)t * n_nodes + cur] = src[t];

      /* Push children in reverse so the first by name comes out first. */
      for (guint32 k = child_start[old + 1]; k > child_start[old]; k--)
        stack[sp++] = (guint32)(child_keys[k - 1] & 0xffffffffu);
    }

  /* Subtree ends and totals, in reverse pre-order. */
  for (guint i = 0; i < n_nodes; i++)
    profile->ends[i] = i + 1;
  for (guint t = 0; t < n_types; t++)
    memcpy (profile->totals[t], self + (gsize)t * n_nodes, sizeof (gint64) * n_nodes);
  for (guint i = n_nodes; i-- > 1; )
    {
      guint32 p = profile->parents[i];

      if (profile->ends[i] > profile->ends[p])
        profile->ends[p] = profile->ends[i];
      for (guint t = 0; t < n_types; t++)
        {
          gint64 *dest = &profile->totals[t][p];

          if G_UNLIKELY (__builtin_add_overflow (*dest, profile->totals[t][i], dest))
            {
              g_set_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_TOO_LARGE,
                           _("Sample values add up to more than a 64-bit integer can hold"));
              return NULL;
            }
        }
    }
  _embers_profile_take_self (profile, g_steal_pointer (&self));

  finish_header (b, profile);
  for (guint st = 0; st < b->stacks.n; st++)
    leaf_of_stack[st] = new_index[leaf_of_stack[st]];
  finish_samples (b, profile, leaf_of_stack, new_index);

  return g_steal_pointer (&profile);
}

EmbersProfile *
embers_profile_builder_finish (EmbersProfileBuilder *b,
                               GError              **error)
{
  return embers_profile_builder_finish_cancellable (b, NULL, error);
}

EmbersProfile *
embers_profile_builder_finish_cancellable (EmbersProfileBuilder *b,
                                           GCancellable         *cancellable,
                                           GError              **error)
{
  g_return_val_if_fail (b != NULL, NULL);

  if (!embers_profile_builder_check (b, error))
    return NULL;

  ensure_sample_type (b);

  if (b->tree_mode)
    return finish_tree (b, error);
  return finish_sorted (b, cancellable, error);
}
