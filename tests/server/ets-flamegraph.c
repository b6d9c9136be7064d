/* ets-flamegraph.c: merged stacks -> FlameGraph levels, FlameGraphDiff, pprof
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "ets-flamegraph.h"

#include <string.h>

#include "embers-profile-builder.h"
#include "embers-readers.h"

#define OTHER G_MAXUINT32

typedef struct
{
  EtsStore     *store;
  guint         n_sides;
  guint         n_nodes;
  const gint64 *self[2];
  gint64       *total[2];
  gint64       *other[2];     /* per kept node: total of its dropped children */
  guint8       *kept;
  guint32      *child_start;  /* n_nodes + 1 offsets into children */
  guint32      *children;
} Tree;

typedef struct
{
  guint32 trie;      /* OTHER for a merged "other" node */
  guint32 parent;    /* trie node of the parent (for "other") */
  gint64  x[2];
  gint64  total[2];
  gint64  self[2];
} Out;

static gint64
rank_key (Tree    *tree,
          guint32  node)
{
  gint64 key = tree->total[0][node];

  if (tree->n_sides == 2)
    key = MAX (key, tree->total[1][node]);
  return key;
}

static int
compare_rank (gconstpointer a,
              gconstpointer b,
              gpointer      user_data)
{
  Tree *tree = user_data;
  guint32 na = *(const guint32 *) a;
  guint32 nb = *(const guint32 *) b;
  gint64 ka = rank_key (tree, na);
  gint64 kb = rank_key (tree, nb);
  guint da, db;

  if (ka != kb)
    return ka > kb ? -1 : 1;
  da = ets_store_node_depth (tree->store, na);
  db = ets_store_node_depth (tree->store, nb);
  if (da != db)
    return da < db ? -1 : 1;
  return na < nb ? -1 : na > nb;
}

static int
compare_name (gconstpointer a,
              gconstpointer b,
              gpointer      user_data)
{
  Tree *tree = user_data;

  return strcmp (ets_store_node_name (tree->store, *(const guint32 *) a),
                 ets_store_node_name (tree->store, *(const guint32 *) b));
}

static void
tree_clear (Tree *tree)
{
  for (guint s = 0; s < 2; s++)
    {
      g_clear_pointer (&tree->total[s], g_free);
      g_clear_pointer (&tree->other[s], g_free);
    }
  g_clear_pointer (&tree->kept, g_free);
  g_clear_pointer (&tree->child_start, g_free);
  g_clear_pointer (&tree->children, g_free);
}

static void
tree_init (Tree         *tree,
           EtsStore     *store,
           guint         n_sides,
           const gint64 *left,
           const gint64 *right,
           gint64        max_nodes)
{
  guint n = ets_store_get_n_nodes (store);
  g_autoptr(GArray) present = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint32 *fill;

  memset (tree, 0, sizeof *tree);
  tree->store = store;
  tree->n_sides = n_sides;
  tree->n_nodes = n;
  tree->self[0] = left;
  tree->self[1] = right;

  for (guint s = 0; s < n_sides; s++)
    {
      tree->total[s] = g_memdup2 (tree->self[s], sizeof (gint64) * n);
      for (guint i = n - 1; i >= 1; i--)
        tree->total[s][ets_store_node_parent (store, i)] += tree->total[s][i];
      tree->other[s] = g_new0 (gint64, n);
    }

  tree->kept = g_new0 (guint8, n);
  tree->kept[0] = TRUE;
  for (guint32 i = 1; i < n; i++)
    if (tree->total[0][i] > 0 || (n_sides == 2 && tree->total[1][i] > 0))
      g_array_append_val (present, i);

  /* As Pyroscope trims (pkg/model/tree.go, minValue; pkg/model/flamegraph.go
   * and flamegraph_diff.go): the max_nodes-th largest total (of a diff, of
   * max(left, right)) is the threshold, and every node whose total reaches
   * it stays, ties included, so more than max_nodes nodes can stay. A
   * frame named "other" of a single flame graph always goes into its
   * parent's "other". */
  if (max_nodes > 0 && present->len > (guint64) max_nodes)
    {
      g_autoptr(GArray) ranked = g_array_copy (present);
      gint64 threshold;

      g_sort_array (ranked->data, ranked->len, sizeof (guint32), compare_rank, tree);
      threshold = rank_key (tree, g_array_index (ranked, guint32, max_nodes - 1));
      for (guint i = 0; i < ranked->len; i++)
        {
          guint32 node = g_array_index (ranked, guint32, i);

          if (rank_key (tree, node) < threshold)
            break;
          tree->kept[node] = TRUE;
        }
    }
  else
    for (guint i = 0; i < present->len; i++)
      tree->kept[g_array_index (present, guint32, i)] = TRUE;
  if (n_sides == 1)
    for (guint i = 0; i < present->len; i++)
      {
        guint32 node = g_array_index (present, guint32, i);

        if (g_str_equal (ets_store_node_name (store, node), "other"))
          tree->kept[node] = FALSE;
      }
  /* A node stays only under a parent that stays */
  for (guint i = 0; i < present->len; i++)
    {
      guint32 node = g_array_index (present, guint32, i);

      if (tree->kept[node] && !tree->kept[ets_store_node_parent (store, node)])
        tree->kept[node] = FALSE;
    }

  /* Children of each kept node, and what was cut below it */
  tree->child_start = g_new0 (guint32, n + 1);
  for (guint i = 0; i < present->len; i++)
    {
      guint32 node = g_array_index (present, guint32, i);
      guint32 parent = ets_store_node_parent (store, node);

      if (tree->kept[node])
        tree->child_start[parent + 1]++;
      else if (tree->kept[parent])
        for (guint s = 0; s < n_sides; s++)
          tree->other[s][parent] += tree->total[s][node];
    }
  for (guint i = 0; i < n; i++)
    tree->child_start[i + 1] += tree->child_start[i];
  tree->children = g_new0 (guint32, MAX (tree->child_start[n], 1));
  fill = g_memdup2 (tree->child_start, sizeof (guint32) * (n + 1));
  for (guint i = 0; i < present->len; i++)
    {
      guint32 node = g_array_index (present, guint32, i);

      if (tree->kept[node])
        tree->children[fill[ets_store_node_parent (store, node)]++] = node;
    }
  g_free (fill);
  for (guint i = 0; i < n; i++)
    if (tree->child_start[i + 1] - tree->child_start[i] > 1)
      g_sort_array (tree->children + tree->child_start[i],
                    tree->child_start[i + 1] - tree->child_start[i],
                    sizeof (guint32), compare_name, tree);
}

typedef struct
{
  GPtrArray  *names;     /* const char*, not owned */
  GHashTable *index;     /* name -> index + 1 */
} Names;

static guint32
name_index (Names      *names,
            const char *name)
{
  gpointer v = g_hash_table_lookup (names->index, name);

  if (v != NULL)
    return GPOINTER_TO_UINT (v) - 1;
  g_ptr_array_add (names->names, (gpointer) name);
  g_hash_table_insert (names->index, (gpointer) name, GUINT_TO_POINTER (names->names->len));
  return names->names->len - 1;
}

static const char *
out_name (Tree *tree,
          Out  *out)
{
  if (out->trie == OTHER)
    return "other";
  if (out->trie == 0)
    return "total";
  return ets_store_node_name (tree->store, out->trie);
}

/* Appends the children of parent (sorted by name, "other" in its place)
 * to next, laid out from the parent's x + self on each side */
static void
append_children (Tree   *tree,
                 Out    *parent,
                 GArray *next)
{
  gint64 cursor[2];
  gboolean other_pending;
  guint32 node = parent->trie;

  if (node == OTHER)
    return;

  for (guint s = 0; s < tree->n_sides; s++)
    cursor[s] = parent->x[s] + parent->self[s];
  other_pending = tree->other[0][node] > 0 || (tree->n_sides == 2 && tree->other[1][node] > 0);

  for (guint32 i = tree->child_start[node]; ; i++)
    {
      gboolean at_end = i >= tree->child_start[node + 1];
      Out child = { 0 };

      if (other_pending &&
          (at_end || strcmp ("other", ets_store_node_name (tree->store, tree->children[i])) < 0))
        {
          Out other = { 0 };

          other.trie = OTHER;
          other.parent = node;
          for (guint s = 0; s < tree->n_sides; s++)
            {
              other.x[s] = cursor[s];
              other.total[s] = other.self[s] = tree->other[s][node];
              cursor[s] += other.total[s];
            }
          g_array_append_val (next, other);
          other_pending = FALSE;
        }
      if (at_end)
        break;

      child.trie = tree->children[i];
      child.parent = node;
      for (guint s = 0; s < tree->n_sides; s++)
        {
          child.x[s] = cursor[s];
          child.total[s] = tree->total[s][child.trie];
          child.self[s] = tree->self[s][child.trie];
          cursor[s] += child.total[s];
        }
      g_array_append_val (next, child);
    }
}

/* Fills levels (arena-allocated) and names; returns max self */
static gint64
encode_levels (EtsCall              *call,
               Tree                 *tree,
               size_t               *n_levels,
               Querier__V1__Level ***levels_out,
               size_t               *n_names,
               char               ***names_out)
{
  g_autoptr(GPtrArray) levels = g_ptr_array_new ();
  g_autoptr(GArray) current = g_array_new (FALSE, FALSE, sizeof (Out));
  Names names = { g_ptr_array_new (), g_hash_table_new (g_str_hash, g_str_equal) };
  guint per_node = tree->n_sides == 2 ? 7 : 4;
  gint64 max_self = 0;
  Out root = { 0 };

  name_index (&names, "total");
  for (guint s = 0; s < tree->n_sides; s++)
    {
      root.total[s] = tree->total[s][0];
      root.self[s] = tree->self[s][0];
    }
  g_array_append_val (current, root);

  while (current->len > 0)
    {
      g_autoptr(GArray) next = g_array_new (FALSE, FALSE, sizeof (Out));
      Querier__V1__Level *level = ets_call_new (call, Querier__V1__Level, 1);
      gint64 prev_end[2] = { 0, 0 };

      querier__v1__level__init (level);
      level->n_values = (gsize) current->len * per_node;
      level->values = ets_call_new (call, int64_t, level->n_values);
      for (guint i = 0; i < current->len; i++)
        {
          Out *o = &g_array_index (current, Out, i);
          int64_t *v = level->values + (gsize) i * per_node;

          for (guint s = 0; s < tree->n_sides; s++)
            {
              v[s * 3 + 0] = o->x[s] - prev_end[s];
              v[s * 3 + 1] = o->total[s];
              v[s * 3 + 2] = o->self[s];
              prev_end[s] = o->x[s] + o->total[s];
              max_self = MAX (max_self, o->self[s]);
            }
          v[per_node - 1] = name_index (&names, out_name (tree, o));
          append_children (tree, o, next);
        }
      g_ptr_array_add (levels, level);
      g_array_unref (current);
      current = g_steal_pointer (&next);
    }

  *n_levels = levels->len;
  *levels_out = ets_call_new (call, Querier__V1__Level *, levels->len);
  memcpy (*levels_out, levels->pdata, sizeof (gpointer) * levels->len);
  *n_names = names.names->len;
  *names_out = ets_call_new (call, char *, names.names->len);
  memcpy (*names_out, names.names->pdata, sizeof (gpointer) * names.names->len);
  g_ptr_array_unref (names.names);
  g_hash_table_unref (names.index);
  return max_self;
}

Querier__V1__FlameGraph *
ets_flamegraph_build (EtsCall      *call,
                      EtsStore     *store,
                      const gint64 *self,
                      gint64        max_nodes)
{
  Querier__V1__FlameGraph *fg = ets_call_new (call, Querier__V1__FlameGraph, 1);
  Tree tree;

  querier__v1__flame_graph__init (fg);
  tree_init (&tree, store, 1, self, NULL, max_nodes);
  fg->max_self = encode_levels (call, &tree, &fg->n_levels, &fg->levels, &fg->n_names, &fg->names);
  fg->total = tree.total[0][0];
  fg->has_total = fg->total != 0;
  fg->has_max_self = fg->max_self != 0;
  tree_clear (&tree);
  return fg;
}

Querier__V1__FlameGraphDiff *
ets_flamegraph_build_diff (EtsCall      *call,
                           EtsStore     *store,
                           const gint64 *left,
                           const gint64 *right,
                           gint64        max_nodes)
{
  Querier__V1__FlameGraphDiff *fg = ets_call_new (call, Querier__V1__FlameGraphDiff, 1);
  Tree tree;

  querier__v1__flame_graph_diff__init (fg);
  tree_init (&tree, store, 2, left, right, max_nodes);
  fg->max_self = encode_levels (call, &tree, &fg->n_levels, &fg->levels, &fg->n_names, &fg->names);
  fg->leftticks = tree.total[0][0];
  fg->rightticks = tree.total[1][0];
  fg->total = fg->leftticks + fg->rightticks;
  fg->has_total = fg->total != 0;
  fg->has_max_self = fg->max_self != 0;
  fg->has_leftticks = fg->leftticks != 0;
  fg->has_rightticks = fg->rightticks != 0;
  tree_clear (&tree);
  return fg;
}

GBytes *
ets_flamegraph_pprof (EtsStore             *store,
                      const gint64         *self,
                      const EtsProfileType *type,
                      gint64                start_ms,
                      gint64                end_ms,
                      GError              **error)
{
  g_autoptr(EmbersProfileBuilder) builder = embers_profile_builder_new ();
  g_autoptr(EmbersProfile) profile = NULL;
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GHashTable) ids = g_hash_table_new (NULL, NULL);
  guint n = ets_store_get_n_nodes (store);

  embers_profile_builder_add_sample_type (builder, type->sample_type, type->sample_unit);
  if (type->period_type[0] != '\0' || type->period_unit[0] != '\0')
    embers_profile_builder_set_period (builder, type->period_type, type->period_unit, 0);
  embers_profile_builder_set_time (builder, start_ms * 1000000, MAX (end_ms - start_ms, 0) * 1000000);

  for (guint32 i = 1; i < n; i++)
    {
      gint64 value = self[i];

      if (value <= 0)
        continue;
      g_array_set_size (stack, 0);
      for (guint32 node = i; node != 0; node = ets_store_node_parent (store, node))
        {
          guint32 name = ets_store_node_name_id (store, node);
          guint32 frame;
          gpointer id;

          if (!g_hash_table_lookup_extended (ids, GUINT_TO_POINTER (name), NULL, &id))
            {
              id = GUINT_TO_POINTER (embers_profile_builder_intern (builder, ets_store_node_name (store, node), -1));
              g_hash_table_insert (ids, GUINT_TO_POINTER (name), id);
            }
          frame = GPOINTER_TO_UINT (id);
          g_array_append_val (stack, frame);
        }
      /* leaf first -> root first */
      for (guint a = 0, b = stack->len - 1; a < b; a++, b--)
        {
          guint32 t = g_array_index (stack, guint32, a);
          g_array_index (stack, guint32, a) = g_array_index (stack, guint32, b);
          g_array_index (stack, guint32, b) = t;
        }
      embers_profile_builder_add_stack (builder, (guint32 *) stack->data, stack->len, &value, 0);
    }

  profile = embers_profile_builder_finish (builder, error);
  if (profile == NULL)
    return NULL;
  return embers_pprof_write (profile, error);
}
