/* embers-transforms.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "embers-palette.h"
#include "embers-profile-builder.h"
#include "embers-transforms.h"
#include "embers-tree-build.h"

/*
 * Every transform maps each source node to a destination node in a new
 * builder ("dest"), or to nothing. Values then move as "units": the part of
 * a node's self value not covered by label samples (added with add_self),
 * and every label sample (added with add_stack, so it stays a sample with
 * its label set). Destination nodes are created lazily, only for nodes that
 * carry a unit, so no empty frames appear in the result.
 *
 * A destination node that only one source node maps to gets its children
 * from that node's children, whose names differ: they are added without a
 * (parent, name) lookup. Once a second source node maps to it (a merge:
 * recursion collapsed, a frame hidden, another focus root), its children
 * go into the builder's map and later ones are looked up.
 */

#define UNSET (G_MAXUINT32 - 1)
#define NONE  EMBERS_NODE_NONE

typedef struct _Ctx Ctx;
typedef guint32 (*StepFunc) (Ctx     *ctx,
                             guint32  node,
                             guint32  parent_dest);

struct _Ctx
{
  EmbersProfile        *src;
  EmbersProfileBuilder *b;
  guint                 n_types;
  guint                 n_nodes;
  const guint32        *names;
  const guint32        *parents;
  const guint32        *ends;

  guint32              *string_map;   /* src string id -> builder id */
  guint8               *located;      /* name location copied */
  guint32              *label_set_map;
  guint8               *keep_set;     /* NULL: keep every label set */

  guint32              *dest;         /* per src node, UNSET until resolved */
  /* Per builder node: children looked up by name, and its children */
  guint8               *indexed;
  guint32              *first_child;
  guint32              *next_sibling;
  guint                 dest_size;
  gboolean              all_indexed;  /* every node merges (invert, callers) */
  GArray               *chain;        /* scratch for resolve_step */

  /* Transform parameters */
  guint32               function;     /* src string id, or NONE */
  guint8               *hidden;       /* per src string id: 0 unknown, 1 hide, 2 keep */
  GRegex               *regex;
  guint32              *outer;        /* callers: outermost occurrence per node */
  guint8               *mark;         /* per src node (path transforms) or
                                       * per src string id (package) */
  guint32               package;      /* builder id of the package frame */
  const char           *package_str;
};

static guint32
map_string (Ctx     *ctx,
            guint32  id)
{
  if (ctx->string_map[id] == NONE)
    ctx->string_map[id] = embers_profile_builder_intern (ctx->b, embers_profile_get_string (ctx->src, id), -1);
  return ctx->string_map[id];
}

static guint32
map_name (Ctx     *ctx,
          guint32  id)
{
  guint32 mapped = map_string (ctx, id);

  if (!ctx->located[id])
    {
      guint32 file = embers_profile_get_name_file (ctx->src, id);
      gint64 line = embers_profile_get_name_line (ctx->src, id);

      ctx->located[id] = 1;
      if (file != 0 || line != 0)
        embers_profile_builder_set_name_location (ctx->b, mapped, file != 0 ? map_string (ctx, file) : 0, line);
    }

  return mapped;
}

static guint32
map_label_set (Ctx     *ctx,
               guint32  set)
{
  const EmbersLabel *labels;
  g_autofree EmbersLabel *mapped = NULL;
  guint n;

  if (set == 0)
    return 0;
  if (ctx->label_set_map[set] != NONE)
    return ctx->label_set_map[set];

  labels = embers_profile_get_label_set (ctx->src, set, &n);
  mapped = g_new0 (EmbersLabel, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    {
      mapped[i].key = map_string (ctx, labels[i].key);
      mapped[i].str = labels[i].str != 0 ? map_string (ctx, labels[i].str) : 0;
      mapped[i].num = labels[i].num;
      mapped[i].num_unit = labels[i].num_unit != 0 ? map_string (ctx, labels[i].num_unit) : 0;
    }
  ctx->label_set_map[set] = embers_profile_builder_add_label_set (ctx->b, mapped, n);

  return ctx->label_set_map[set];
}

/* Room for n destination nodes */
static void
ctx_grow (Ctx   *ctx,
          guint  n)
{
  if (n <= ctx->dest_size)
    return;
  n = MAX (n, ctx->dest_size * 2);
  ctx->indexed = g_realloc (ctx->indexed, n);
  ctx->first_child = g_realloc_n (ctx->first_child, n, sizeof (guint32));
  ctx->next_sibling = g_realloc_n (ctx->next_sibling, n, sizeof (guint32));
  embers_advise_huge (ctx->first_child, sizeof (guint32) * n);
  embers_advise_huge (ctx->next_sibling, sizeof (guint32) * n);
  ctx->dest_size = n;
}

static void
ctx_init (Ctx           *ctx,
          EmbersProfile *src)
{
  guint n_strings = MAX (embers_profile_get_n_strings (src), 1);
  guint n_sets = embers_profile_get_n_label_sets (src);

  memset (ctx, 0, sizeof *ctx);
  ctx->src = src;
  ctx->b = embers_profile_builder_new ();
  ctx->n_types = embers_profile_get_n_sample_types (src);
  ctx->n_nodes = embers_profile_get_n_nodes (src);
  ctx->names = embers_profile_get_name_column (src);
  ctx->parents = embers_profile_get_parent_column (src);
  ctx->ends = embers_profile_get_end_column (src);
  ctx->function = NONE;

  ctx->string_map = g_new (guint32, n_strings);
  memset (ctx->string_map, 0xff, sizeof (guint32) * n_strings);
  ctx->string_map[0] = 0;
  ctx->located = g_new0 (guint8, n_strings);
  ctx->label_set_map = g_new (guint32, MAX (n_sets, 1));
  memset (ctx->label_set_map, 0xff, sizeof (guint32) * MAX (n_sets, 1));

  ctx->dest = embers_alloc_column (sizeof (guint32) * MAX (ctx->n_nodes, 1), FALSE);
  for (guint i = 0; i < ctx->n_nodes; i++)
    ctx->dest[i] = UNSET;
  ctx->chain = g_array_new (FALSE, FALSE, sizeof (guint32));
  {
    /* The root: any number of source nodes may map to it */
    ctx_grow (ctx, 1);
    ctx->indexed[0] = 1;
    ctx->first_child[0] = NONE;
    ctx->next_sibling[0] = NONE;
  }

  for (guint t = 0; t < ctx->n_types; t++)
    embers_profile_builder_add_sample_type (ctx->b,
                                            embers_profile_get_sample_type (src, t),
                                            embers_profile_get_sample_unit (src, t));
  embers_profile_builder_set_default_sample_type (ctx->b, embers_profile_get_default_sample_type (src));
  embers_profile_builder_set_period (ctx->b,
                                     embers_profile_get_period_type (src),
                                     embers_profile_get_period_unit (src),
                                     embers_profile_get_period (src));
  embers_profile_builder_set_time (ctx->b,
                                   embers_profile_get_time_nanos (src),
                                   embers_profile_get_duration_nanos (src));
  embers_profile_builder_set_diff (ctx->b, embers_profile_is_diff (src));
}

static void
ctx_clear (Ctx *ctx)
{
  g_clear_pointer (&ctx->b, embers_profile_builder_free);
  g_clear_pointer (&ctx->string_map, g_free);
  g_clear_pointer (&ctx->located, g_free);
  g_clear_pointer (&ctx->label_set_map, g_free);
  g_clear_pointer (&ctx->keep_set, g_free);
  g_clear_pointer (&ctx->dest, g_free);
  g_clear_pointer (&ctx->indexed, g_free);
  g_clear_pointer (&ctx->first_child, g_free);
  g_clear_pointer (&ctx->next_sibling, g_free);
  g_clear_pointer (&ctx->chain, g_array_unref);
  g_clear_pointer (&ctx->hidden, g_free);
  g_clear_pointer (&ctx->outer, g_free);
  g_clear_pointer (&ctx->mark, g_free);
}

/* Another source node maps to dest: from now on its children are looked
 * up by name */
static void
ctx_merge (Ctx     *ctx,
           guint32  dest)
{
  if (dest == NONE || ctx->all_indexed || ctx->indexed[dest])
    return;

  ctx->indexed[dest] = 1;
  for (guint32 c = ctx->first_child[dest]; c != NONE; c = ctx->next_sibling[c])
    embers_profile_builder_index_child (ctx->b, c);
}

/* The child of a destination node, by builder name id */
static guint32
ctx_child_mapped (Ctx     *ctx,
                  guint32  parent,
                  guint32  name)
{
  guint before = embers_profile_builder_get_n_nodes (ctx->b);
  guint32 node;

  if (ctx->all_indexed)
    return embers_profile_builder_get_child (ctx->b, parent, name);

  if (ctx->indexed[parent])
    {
      node = embers_profile_builder_get_child (ctx->b, parent, name);
      if (node != before)
        {
          ctx_merge (ctx, node);
          return node;
        }
    }
  else
    {
      node = embers_profile_builder_add_child (ctx->b, parent, name);
      if (node != before)
        return node;  /* a limit was hit */
    }

  ctx_grow (ctx, node + 1);
  ctx->indexed[node] = 0;
  ctx->first_child[node] = NONE;
  ctx->next_sibling[node] = ctx->first_child[parent];
  ctx->first_child[parent] = node;

  return node;
}

/* The child of a destination node, by source name id */
static guint32
ctx_child (Ctx     *ctx,
           guint32  parent,
           guint32  src_name)
{
  return ctx_child_mapped (ctx, parent, map_name (ctx, src_name));
}

/* Room for n destination nodes */
static void
ctx_reserve (Ctx   *ctx,
             guint  n,
             guint  n_looked_up)
{
  embers_profile_builder_reserve (ctx->b, n, n_looked_up);
  if (!ctx->all_indexed)
    ctx_grow (ctx, MIN (n, EMBERS_PROFILE_MAX_NODES));
}

/* Resolves dest[node] with a step function, creating the chain of
 * ancestors first (iteratively: stacks can be 60000 deep). dest[0] must be
 * set by the caller. */
static guint32
resolve_step (Ctx      *ctx,
              guint32   node,
              StepFunc  step)
{
  GArray *chain = ctx->chain;
  guint32 n = node;

  if (ctx->dest[node] != UNSET)
    return ctx->dest[node];

  g_array_set_size (chain, 0);
  while (ctx->dest[n] == UNSET)
    {
      g_array_append_val (chain, n);
      n = ctx->parents[n];
    }

  for (guint i = chain->len; i-- > 0; )
    {
      guint32 c = g_array_index (chain, guint32, i);

      ctx->dest[c] = step (ctx, c, ctx->dest[ctx->parents[c]]);
    }

  return ctx->dest[node];
}

typedef guint32 (*ResolveFunc) (Ctx     *ctx,
                                guint32  node,
                                gpointer data);

/* Moves every unit (residual self per node, label samples) to its
 * destination, then builds the profile */
static EmbersProfile *
ctx_finish (Ctx          *ctx,
            ResolveFunc   resolve,
            gpointer      data,
            GError      **error)
{
  guint n_samples = embers_profile_get_n_samples (ctx->src);
  guint n_types = ctx->n_types;
  g_autofree gint64 *residual = NULL;
  g_autofree gint64 *values = g_new (gint64, MAX (n_types, 1));
  gboolean keep_unlabelled = ctx->keep_set == NULL || ctx->keep_set[0];

  /* Self values not covered by samples (node-major) */
  residual = embers_alloc_column (sizeof (gint64) * MAX (ctx->n_nodes, 1) * MAX (n_types, 1), FALSE);
  for (guint t = 0; t < n_types; t++)
    {
      const gint64 *self = embers_profile_get_self_column (ctx->src, t);

      for (guint i = 0; i < ctx->n_nodes; i++)
        residual[(gsize)i * n_types + t] = self[i];
    }
  for (guint s = 0; s < n_samples; s++)
    {
      guint32 node = embers_profile_sample_node (ctx->src, s);

      for (guint t = 0; t < n_types; t++)
        residual[(gsize)node * n_types + t] -= embers_profile_sample_value (ctx->src, s, t);
    }

  if (keep_unlabelled)
    {
      for (guint i = 0; i < ctx->n_nodes; i++)
        {
          const gint64 *r = &residual[(gsize)i * n_types];
          gboolean any = FALSE;
          guint32 d;

          for (guint t = 0; t < n_types; t++)
            any |= r[t] > 0;
          if (!any)
            continue;

          d = resolve (ctx, i, data);
          if (d == NONE)
            continue;
          for (guint t = 0; t < n_types; t++)
            if (r[t] > 0)
              embers_profile_builder_add_self (ctx->b, d, t, r[t]);
        }
    }

  for (guint s = 0; s < n_samples; s++)
    {
      guint32 node = embers_profile_sample_node (ctx->src, s);
      guint32 set = embers_profile_sample_label_set (ctx->src, s);
      gboolean any = FALSE;
      guint32 d;

      if (ctx->keep_set != NULL && !ctx->keep_set[set])
        continue;

      for (guint t = 0; t < n_types; t++)
        {
          values[t] = embers_profile_sample_value (ctx->src, s, t);
          any |= values[t] > 0;
        }
      if (!any)
        continue;

      d = resolve (ctx, node, data);
      if (d == NONE)
        continue;
      embers_profile_builder_add_node_labels (ctx->b, d, values, map_label_set (ctx, set));
    }

  return embers_profile_builder_finish (ctx->b, error);
}

static guint32
resolve_with_step (Ctx      *ctx,
                   guint32   node,
                   gpointer  data)
{
  return resolve_step (ctx, node, (StepFunc)data);
}

static EmbersProfile *
run_step_transform (Ctx       *ctx,
                    guint32    root_dest,
                    StepFunc   step,
                    GError   **error)
{
  EmbersProfile *result;

  /* At most one destination node per source node */
  ctx_reserve (ctx, ctx->n_nodes, 0);
  if (ctx->n_nodes > 0)
    ctx->dest[0] = root_dest;

  /* Every node with a value, parents first (the node order): the same as
   * resolving them when their units come, in one pass over the columns.
   * A label filter resolves lazily: it may leave a node nothing. */
  if (ctx->keep_set == NULL)
    {
      const gint64 *totals[8];
      guint n_types = MIN (ctx->n_types, G_N_ELEMENTS (totals));

      for (guint t = 0; t < n_types; t++)
        totals[t] = embers_profile_get_total_column (ctx->src, t);
      for (guint i = 1; i < ctx->n_nodes; i++)
        {
          gboolean any = FALSE;
          guint32 parent_dest = ctx->dest[ctx->parents[i]];

          for (guint t = 0; t < n_types; t++)
            any |= totals[t][i] > 0;
          if (any && parent_dest != UNSET)
            ctx->dest[i] = step (ctx, i, parent_dest);
        }
    }
  result = ctx_finish (ctx, resolve_with_step, (gpointer)step, error);
  ctx_clear (ctx);

  return result;
}

guint32
embers_transform_find_name (EmbersProfile *profile,
                            const char    *name)
{
  guint n;

  g_return_val_if_fail (EMBERS_IS_PROFILE (profile), 0);
  g_return_val_if_fail (name != NULL, 0);

  n = embers_profile_get_n_strings (profile);
  for (guint i = 1; i < n; i++)
    if (strcmp (embers_profile_get_string (profile, i), name) == 0)
      return i;

  return 0;
}

static guint32
function_id (EmbersProfile *profile,
             const char    *function)
{
  guint32 id = function[0] != '\0' ? embers_transform_find_name (profile, function) : 0;

  return id != 0 ? id : NONE;
}

/* Identity */

static guint32
step_identity (Ctx     *ctx,
               guint32  node,
               guint32  parent_dest)
{
  if (parent_dest == NONE)
    return NONE;
  return ctx_child (ctx, parent_dest, ctx->names[node]);
}

/* Focus / callees */

static guint32
step_focus (Ctx     *ctx,
            guint32  node,
            guint32  parent_dest)
{
  guint32 name = ctx->names[node];

  if (parent_dest != NONE)
    return ctx_child (ctx, parent_dest, name);
  if (name == ctx->function)
    return ctx_child (ctx, 0, name);
  return NONE;
}

EmbersProfile *
embers_transform_focus (EmbersProfile  *profile,
                        const char     *function,
                        GError        **error)
{
  Ctx ctx;

  g_return_val_if_fail (EMBERS_IS_PROFILE (profile), NULL);
  g_return_val_if_fail (function != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  ctx_init (&ctx, profile);
  ctx.function = function_id (profile, function);

  return run_step_transform (&ctx, NONE, step_focus, error);
}

EmbersProfile *
embers_transform_sandwich_callees (EmbersProfile  *profile,
                                   const char     *function,
                                   GError        **error)
{
  return embers_transform_focus (profile, function, error);
}

/* Hide */

static guint32
step_hide (Ctx     *ctx,
           guint32  node,
           guint32  parent_dest)
{
  guint32 name = ctx->names[node];

  if (ctx->hidden[name] == 0)
    {
      const char *str = embers_profile_get_string (ctx->src, name);
      g_autofree char *valid = NULL;

      if (!g_utf8_validate (str, -1, NULL))
        str = valid = g_utf8_make_valid (str, -1);
      ctx->hidden[name] = g_regex_match (ctx->regex, str, 0, NULL) ? 1 : 2;
    }

  if (ctx->hidden[name] == 1)
    {
      ctx_merge (ctx, parent_dest);
      return parent_dest;
    }
  return ctx_child (ctx, parent_dest, name);
}

EmbersProfile *
embers_transform_hide (EmbersProfile  *profile,
                       GRegex         *regex,
                       GError        **error)
{
  Ctx ctx;

  g_return_val_if_fail (EMBERS_IS_PROFILE (profile), NULL);
  g_return_val_if_fail (regex != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  ctx_init (&ctx, profile);
  ctx.regex = regex;
  ctx.hidden = g_new0 (guint8, MAX (embers_profile_get_n_strings (profile), 1));

  return run_step_transform (&ctx, 0, step_hide, error);
}

/* Collapse recursion */

static guint32
step_collapse (Ctx     *ctx,
               guint32  node,
               guint32  parent_dest)
{
  guint32 parent = ctx->parents[node];

  if (parent != 0 && ctx->names[parent] == ctx->names[node])
    {
      ctx_merge (ctx, parent_dest);
      return parent_dest;
    }
  return ctx_child (ctx, parent_dest, ctx->names[node]);
}

EmbersProfile *
embers_transform_collapse_recursion (EmbersProfile  *profile,
                                     GError        **error)
{
  Ctx ctx;

  g_return_val_if_fail (EMBERS_IS_PROFILE (profile), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  ctx_init (&ctx, profile);

  return run_step_transform (&ctx, 0, step_collapse, error);
}

/* Invert: each unit goes to its stack reversed, leaf first. The reversed
 * stacks differ from each other (their nodes do), so they go to the
 * builder as unique stacks, laid out by sorting them. */

EmbersProfile *
embers_transform_invert (EmbersProfile  *profile,
                         GError        **error)
{
  Ctx ctx;
  EmbersProfile *result;
  guint n_samples, n_types, n_nodes;
  g_autofree gint64 *whole = NULL;
  g_autofree guint32 *stack_of = NULL;
  g_autoptr(GArray) path = NULL;
  g_autofree gint64 *values = NULL;

  g_return_val_if_fail (EMBERS_IS_PROFILE (profile), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  ctx_init (&ctx, profile);
  n_samples = embers_profile_get_n_samples (profile);
  n_types = ctx.n_types;
  n_nodes = ctx.n_nodes;
  values = g_new (gint64, MAX (n_types, 1));

  /* Each node's value of its own, node-major: the self value less its
   * labelled samples (kept if positive), and the labelled samples */
  whole = embers_alloc_column (sizeof (gint64) * MAX (n_nodes, 1) * MAX (n_types, 1), FALSE);
  for (guint t = 0; t < n_types; t++)
    {
      const gint64 *self = embers_profile_get_self_column (profile, t);

      for (guint i = 0; i < n_nodes; i++)
        whole[(gsize)i * n_types + t] = self[i];
    }
  for (guint s = 0; s < n_samples; s++)
    {
      guint32 node = embers_profile_sample_node (profile, s);

      if (embers_profile_sample_label_set (profile, s) == 0)
        continue;
      for (guint t = 0; t < n_types; t++)
        whole[(gsize)node * n_types + t] -= embers_profile_sample_value (profile, s, t);
    }
  for (gsize k = 0; k < (gsize)n_nodes * n_types; k++)
    whole[k] = MAX (whole[k], 0);
  for (guint s = 0; s < n_samples; s++)
    {
      guint32 node = embers_profile_sample_node (profile, s);

      if (embers_profile_sample_label_set (profile, s) == 0)
        continue;
      for (guint t = 0; t < n_types; t++)
        whole[(gsize)node * n_types + t] += MAX (embers_profile_sample_value (profile, s, t), 0);
    }

  /* A stack per node with a value, leaf first */
  stack_of = embers_alloc_column (sizeof (guint32) * MAX (n_nodes, 1), FALSE);
  path = g_array_new (FALSE, FALSE, sizeof (guint32));
  for (guint i = 0; i < n_nodes; i++)
    {
      const gint64 *w = &whole[(gsize)i * n_types];
      gboolean any = FALSE;

      stack_of[i] = G_MAXUINT32;
      for (guint t = 0; t < n_types; t++)
        any |= w[t] > 0;
      if (!any)
        continue;

      g_array_set_size (path, 0);
      for (guint32 n = i; n != 0 && n != NONE; n = ctx.parents[n])
        {
          guint32 name = map_name (&ctx, ctx.names[n]);

          g_array_append_val (path, name);
        }
      stack_of[i] = embers_profile_builder_add_unique_stack (ctx.b, (const guint32 *)(gpointer)path->data,
                                                             path->len, w);
    }

  /* What of it has labels */
  for (guint s = 0; s < n_samples; s++)
    {
      guint32 node = embers_profile_sample_node (profile, s);
      guint32 set = embers_profile_sample_label_set (profile, s);
      gboolean any = FALSE;

      if (set == 0 || stack_of[node] == G_MAXUINT32)
        continue;
      for (guint t = 0; t < n_types; t++)
        {
          values[t] = MAX (embers_profile_sample_value (profile, s, t), 0);
          any |= values[t] > 0;
        }
      if (any)
        embers_profile_builder_add_stack_labels (ctx.b, stack_of[node], values, map_label_set (&ctx, set));
    }

  result = embers_profile_builder_finish (ctx.b, error);
  ctx_clear (&ctx);

  return result;
}

/* Sandwich callers: each unit in the subtree of an outermost occurrence of
 * the function goes to that occurrence's path, reversed */

static guint32
resolve_callers (Ctx      *ctx,
                 guint32   node,
                 gpointer  data)
{
  guint32 o = ctx->outer[node];
  guint32 d = 0;

  if (o == NONE)
    return NONE;
  if (ctx->dest[o] != UNSET)
    return ctx->dest[o];

  for (guint32 n = o; n != 0 && n != NONE; n = ctx->parents[n])
    d = ctx_child (ctx, d, ctx->names[n]);
  ctx->dest[o] = d;

  return d;
}

EmbersProfile *
embers_transform_sandwich_callers (EmbersProfile  *profile,
                                   const char     *function,
                                   GError        **error)
{
  Ctx ctx;
  EmbersProfile *result;

  g_return_val_if_fail (EMBERS_IS_PROFILE (profile), NULL);
  g_return_val_if_fail (function != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  ctx_init (&ctx, profile);
  ctx.function = function_id (profile, function);
  ctx.outer = g_new (guint32, MAX (ctx.n_nodes, 1));
  if (ctx.n_nodes > 0)
    ctx.outer[0] = NONE;
  for (guint i = 1; i < ctx.n_nodes; i++)
    {
      guint32 po = ctx.outer[ctx.parents[i]];

      if (po != NONE)
        ctx.outer[i] = po;
      else
        ctx.outer[i] = ctx.names[i] == ctx.function ? i : NONE;
    }

  ctx.all_indexed = TRUE;
  result = ctx_finish (&ctx, resolve_callers, NULL, error);
  ctx_clear (&ctx);

  return result;
}

/* Frame actions (the transform stack's; Firefox Profiler's names) */

/* outer[node]: how many names of @path the node's stack starts with when
 * it is exactly that prefix (the node is at depth k and its stack is
 * path[0..k)), else NONE. Returns the path's length. */
static guint
mark_path (Ctx                *ctx,
           const char * const *path)
{
  guint len = path != NULL ? g_strv_length ((char **)path) : 0;
  g_autofree guint32 *ids = g_new (guint32, MAX (len, 1));

  ctx->outer = g_new (guint32, MAX (ctx->n_nodes, 1));
  for (guint k = 0; k < len; k++)
    {
      ids[k] = function_id (ctx->src, path[k]);
      if (ids[k] == NONE)
        len = 0;  /* a name the profile lacks: nothing matches */
    }
  if (ctx->n_nodes > 0)
    ctx->outer[0] = 0;
  for (guint i = 1; i < ctx->n_nodes; i++)
    {
      guint32 lp = ctx->outer[ctx->parents[i]];

      ctx->outer[i] = lp != NONE && lp < len && ctx->names[i] == ids[lp] ? lp + 1 : NONE;
    }
  return len;
}

static guint32
step_focus_subtree (Ctx     *ctx,
                    guint32  node,
                    guint32  parent_dest)
{
  if (parent_dest != NONE)
    return ctx_child (ctx, parent_dest, ctx->names[node]);
  /* ctx->function is NONE when no path matches: then nothing does */
  if (ctx->function != NONE && ctx->outer[node] == ctx->function)
    return ctx_child (ctx, 0, ctx->names[node]);
  return NONE;
}

EmbersProfile *
embers_transform_focus_subtree (EmbersProfile       *profile,
                                const char * const  *path,
                                GError             **error)
{
  Ctx ctx;
  guint len;

  g_return_val_if_fail (EMBERS_IS_PROFILE (profile), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  ctx_init (&ctx, profile);
  len = mark_path (&ctx, path);
  /* ctx.function holds the depth to match; with no path nothing is kept */
  ctx.function = len > 0 ? len : NONE;

  return run_step_transform (&ctx, NONE, step_focus_subtree, error);
}

static guint32
step_merge_node (Ctx     *ctx,
                 guint32  node,
                 guint32  parent_dest)
{
  if (ctx->function != NONE && ctx->outer[node] == ctx->function)
    {
      ctx_merge (ctx, parent_dest);
      return parent_dest;
    }
  return ctx_child (ctx, parent_dest, ctx->names[node]);
}

EmbersProfile *
embers_transform_merge_node (EmbersProfile       *profile,
                             const char * const  *path,
                             GError             **error)
{
  Ctx ctx;
  guint len;

  g_return_val_if_fail (EMBERS_IS_PROFILE (profile), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  ctx_init (&ctx, profile);
  len = mark_path (&ctx, path);
  ctx.function = len > 0 ? len : NONE;

  return run_step_transform (&ctx, 0, step_merge_node, error);
}

static guint32
step_merge_function (Ctx     *ctx,
                     guint32  node,
                     guint32  parent_dest)
{
  if (ctx->names[node] == ctx->function)
    {
      ctx_merge (ctx, parent_dest);
      return parent_dest;
    }
  return ctx_child (ctx, parent_dest, ctx->names[node]);
}

EmbersProfile *
embers_transform_merge_function (EmbersProfile  *profile,
                                 const char     *function,
                                 GError        **error)
{
  Ctx ctx;

  g_return_val_if_fail (EMBERS_IS_PROFILE (profile), NULL);
  g_return_val_if_fail (function != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  ctx_init (&ctx, profile);
  ctx.function = function_id (profile, function);

  return run_step_transform (&ctx, 0, step_merge_function, error);
}

static guint32
step_drop_function (Ctx     *ctx,
                    guint32  node,
                    guint32  parent_dest)
{
  return ctx_child (ctx, parent_dest, ctx->names[node]);
}

/* A unit under the function goes nowhere; any other resolves as usual.
 * Ancestors of a kept unit are kept too, so no frame is made for value
 * that is then dropped. */
static guint32
resolve_drop (Ctx      *ctx,
              guint32   node,
              gpointer  data)
{
  if (ctx->mark[node])
    return NONE;
  return resolve_step (ctx, node, step_drop_function);
}

EmbersProfile *
embers_transform_drop_function (EmbersProfile  *profile,
                                const char     *function,
                                GError        **error)
{
  Ctx ctx;
  EmbersProfile *result;

  g_return_val_if_fail (EMBERS_IS_PROFILE (profile), NULL);
  g_return_val_if_fail (function != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  ctx_init (&ctx, profile);
  ctx.function = function_id (profile, function);
  /* mark: the node's stack holds the function */
  ctx.mark = g_new0 (guint8, MAX (ctx.n_nodes, 1));
  for (guint i = 1; i < ctx.n_nodes; i++)
    ctx.mark[i] = ctx.mark[ctx.parents[i]] || ctx.names[i] == ctx.function;

  ctx_reserve (&ctx, ctx.n_nodes, 0);
  if (ctx.n_nodes > 0)
    ctx.dest[0] = 0;
  result = ctx_finish (&ctx, resolve_drop, NULL, error);
  ctx_clear (&ctx);

  return result;
}

/* Whether frame name @id is in the package (cached per string id) */
static gboolean
in_package (Ctx     *ctx,
            guint32  id)
{
  if (ctx->mark[id] == 0)
    {
      const char *name = embers_profile_get_string (ctx->src, id);
      gsize len = 0;
      const char *package = id != 0 ? embers_palette_package (name, &len) : NULL;

      ctx->mark[id] = package != NULL && len == strlen (ctx->package_str) &&
                      memcmp (package, ctx->package_str, len) == 0 ? 1 : 2;
    }
  return ctx->mark[id] == 1;
}

static guint32
step_collapse_package (Ctx     *ctx,
                       guint32  node,
                       guint32  parent_dest)
{
  guint32 parent = ctx->parents[node];

  if (!in_package (ctx, ctx->names[node]))
    return ctx_child (ctx, parent_dest, ctx->names[node]);
  /* A run of the package's frames is one frame */
  if (parent != 0 && in_package (ctx, ctx->names[parent]))
    {
      ctx_merge (ctx, parent_dest);
      return parent_dest;
    }
  return ctx_child_mapped (ctx, parent_dest, ctx->package);
}

EmbersProfile *
embers_transform_collapse_package (EmbersProfile  *profile,
                                   const char     *package,
                                   GError        **error)
{
  Ctx ctx;

  g_return_val_if_fail (EMBERS_IS_PROFILE (profile), NULL);
  g_return_val_if_fail (package != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  ctx_init (&ctx, profile);
  ctx.mark = g_new0 (guint8, MAX (embers_profile_get_n_strings (profile), 1));
  ctx.package_str = package;
  ctx.package = embers_profile_builder_intern (ctx.b, package, -1);

  return run_step_transform (&ctx, 0, step_collapse_package, error);
}

/* ctx->parents here is the logical parent: an inner occurrence of the
 * function stands for the outermost one, so what hangs below it hangs
 * below that, and the frames in between are passed over (and made only
 * when units of their own come) */
static guint32
step_collapse_function (Ctx     *ctx,
                        guint32  node,
                        guint32  parent_dest)
{
  if (parent_dest == NONE)
    return NONE;
  /* Below a collapsed occurrence: merged with the outer one's children */
  if (ctx->parents[node] != embers_profile_get_parent_column (ctx->src)[node])
    ctx_merge (ctx, parent_dest);
  return ctx_child (ctx, parent_dest, ctx->names[node]);
}

/* The node a unit of @node goes to: an inner occurrence's is the
 * outermost one's */
static guint32
collapsed_node (Ctx     *ctx,
                guint32  node)
{
  const guint32 *parents = embers_profile_get_parent_column (ctx->src);

  if (node != 0 && ctx->names[node] == ctx->function && parents[node] != 0 &&
      ctx->outer[parents[node]] != NONE)
    return ctx->outer[parents[node]];
  return node;
}

static guint32
resolve_collapse_function (Ctx      *ctx,
                           guint32   node,
                           gpointer  data)
{
  return resolve_step (ctx, collapsed_node (ctx, node), step_collapse_function);
}

EmbersProfile *
embers_transform_collapse_function_recursion (EmbersProfile  *profile,
                                              const char     *function,
                                              GError        **error)
{
  Ctx ctx;
  EmbersProfile *result;
  g_autofree guint32 *logical = NULL;

  g_return_val_if_fail (EMBERS_IS_PROFILE (profile), NULL);
  g_return_val_if_fail (function != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  ctx_init (&ctx, profile);
  ctx.function = function_id (profile, function);
  /* outer[node]: the outermost occurrence of the function on the node's
   * stack, itself included, or NONE */
  ctx.outer = g_new (guint32, MAX (ctx.n_nodes, 1));
  if (ctx.n_nodes > 0)
    ctx.outer[0] = NONE;
  for (guint i = 1; i < ctx.n_nodes; i++)
    {
      guint32 po = ctx.outer[ctx.parents[i]];

      ctx.outer[i] = po != NONE ? po : ctx.names[i] == ctx.function ? i : NONE;
    }
  /* Each node's logical parent (see step_collapse_function) */
  logical = g_new (guint32, MAX (ctx.n_nodes, 1));
  if (ctx.n_nodes > 0)
    logical[0] = NONE;
  for (guint i = 1; i < ctx.n_nodes; i++)
    logical[i] = collapsed_node (&ctx, ctx.parents[i]);
  ctx.parents = logical;

  ctx_reserve (&ctx, ctx.n_nodes, 0);
  if (ctx.n_nodes > 0)
    ctx.dest[0] = 0;
  result = ctx_finish (&ctx, resolve_collapse_function, NULL, error);
  ctx_clear (&ctx);

  return result;
}

/* Label filter */

typedef struct
{
  EmbersProfile     *profile;
  const EmbersLabel *labels;
  guint              n_labels;
  char               buffer[32];
} LookupData;

static const char *
lookup_label (const char *name,
              gpointer    user_data)
{
  LookupData *data = user_data;

  for (guint i = 0; i < data->n_labels; i++)
    {
      const EmbersLabel *l = &data->labels[i];

      if (strcmp (embers_profile_get_string (data->profile, l->key), name) != 0)
        continue;
      if (l->str != 0)
        return embers_profile_get_string (data->profile, l->str);
      g_snprintf (data->buffer, sizeof data->buffer, "%" G_GINT64_FORMAT, l->num);
      return data->buffer;
    }

  return NULL;
}

EmbersProfile *
embers_transform_filter_labels (EmbersProfile  *profile,
                                EmbersSelector *selector,
                                GError        **error)
{
  Ctx ctx;
  guint n_sets;

  g_return_val_if_fail (EMBERS_IS_PROFILE (profile), NULL);
  g_return_val_if_fail (selector != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  ctx_init (&ctx, profile);
  n_sets = embers_profile_get_n_label_sets (profile);
  ctx.keep_set = g_new0 (guint8, MAX (n_sets, 1));
  for (guint s = 0; s < MAX (n_sets, 1); s++)
    {
      LookupData data = { profile, NULL, 0, { 0, } };

      if (s < n_sets)
        data.labels = embers_profile_get_label_set (profile, s, &data.n_labels);
      ctx.keep_set[s] = embers_selector_matches (selector, lookup_label, &data) ? 1 : 0;
    }

  return run_step_transform (&ctx, 0, step_identity, error);
}
