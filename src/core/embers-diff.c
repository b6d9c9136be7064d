/* embers-diff.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n.h>

#include "embers-diff.h"
#include "embers-text.h"
#include "embers-profile-builder.h"
#include "embers-profile-private.h"
#include "embers-top.h"
#include "embers-tree-build.h"
#include "embers-units.h"

static gboolean
units_compatible (const char *a,
                  const char *b)
{
  EmbersUnitKind ka = embers_unit_kind (a, NULL);
  EmbersUnitKind kb = embers_unit_kind (b, NULL);

  return ka == kb;
}

/* Unified string ids for the union of both profiles' strings, and a rank
 * in strcmp order so that sibling lists (sorted by name) merge directly. */
typedef struct
{
  GHashTable *index;      /* const char * (borrowed) -> id + 1 */
  GPtrArray  *strings;    /* borrowed */
  guint32    *map[2];     /* per side: string id -> unified id */
  guint32    *rank;       /* unified id -> rank */
} Names;

static void
names_add_side (Names         *names,
                EmbersProfile *p,
                guint          side)
{
  guint n = embers_profile_get_n_strings (p);

  names->map[side] = g_new (guint32, n);
  for (guint i = 0; i < n; i++)
    {
      const char *str = embers_profile_get_string (p, i);
      gpointer value = g_hash_table_lookup (names->index, str);

      if (value == NULL)
        {
          g_ptr_array_add (names->strings, (gpointer)str);
          value = GUINT_TO_POINTER (names->strings->len);
          g_hash_table_insert (names->index, (gpointer)str, value);
        }
      names->map[side][i] = GPOINTER_TO_UINT (value) - 1;
    }
}

static int
compare_string_ptrs (gconstpointer a,
                     gconstpointer b,
                     gpointer      user_data)
{
  GPtrArray *strings = user_data;

  return strcmp (g_ptr_array_index (strings, *(const guint32 *)a),
                 g_ptr_array_index (strings, *(const guint32 *)b));
}

static void
names_rank (Names *names)
{
  guint n = names->strings->len;
  g_autofree guint32 *order = g_new (guint32, MAX (n, 1u));

  for (guint i = 0; i < n; i++)
    order[i] = i;
  g_sort_array (order, n, sizeof (guint32), compare_string_ptrs, names->strings);
  names->rank = g_new (guint32, MAX (n, 1u));
  for (guint i = 0; i < n; i++)
    names->rank[order[i]] = i;
}

typedef struct
{
  guint32 node[2];     /* per side, EMBERS_NODE_NONE when absent */
  guint32 out_parent;
} Pair;

typedef struct
{
  const guint32 *names[2];
  const guint32 *ends[2];
  const gint64  *total[2];
  guint32       *rank[2];   /* per side: string id -> rank of the name */
} Sides;

/* The next child pair of a merged node: the children left in [c[s], e[s])
 * of both sides, matched by name rank; FALSE when none is left. Empty
 * subtrees are skipped. */
static inline gboolean
next_kid (const Sides *sides,
          guint32      c[2],
          const guint32 e[2],
          Pair        *kid)
{
  gboolean have[2];

  for (guint s = 0; s < 2; s++)
    {
      while (c[s] < e[s] && sides->total[s][c[s]] == 0)
        c[s] = sides->ends[s][c[s]];
      have[s] = c[s] < e[s];
    }
  if (!have[0] && !have[1])
    return FALSE;

  kid->node[0] = kid->node[1] = EMBERS_NODE_NONE;
  if (have[0] && have[1])
    {
      guint32 r0 = sides->rank[0][sides->names[0][c[0]]];
      guint32 r1 = sides->rank[1][sides->names[1][c[1]]];

      if (r0 <= r1)
        kid->node[0] = c[0];
      if (r1 <= r0)
        kid->node[1] = c[1];
    }
  else if (have[0])
    kid->node[0] = c[0];
  else
    kid->node[1] = c[1];

  for (guint s = 0; s < 2; s++)
    if (kid->node[s] != EMBERS_NODE_NONE)
      c[s] = sides->ends[s][c[s]];
  return TRUE;
}

/* The children of @pair, in order, appended to @stack in reverse (the
 * first comes out first) */
static void
push_kids (const Sides *sides,
           const Pair  *pair,
           guint32      out_node,
           GArray      *stack)
{
  guint32 c[2], e[2];
  guint first = stack->len;
  Pair kid;

  for (guint s = 0; s < 2; s++)
    {
      c[s] = pair->node[s] == EMBERS_NODE_NONE ? 0 : pair->node[s] + 1;
      e[s] = pair->node[s] == EMBERS_NODE_NONE ? 0 : sides->ends[s][pair->node[s]];
    }
  while (next_kid (sides, c, e, &kid))
    {
      kid.out_parent = out_node;
      g_array_append_val (stack, kid);
    }

  /* Reverse what was added */
  for (guint i = first, j = stack->len; i + 1 < j; i++, j--)
    {
      Pair t = g_array_index (stack, Pair, i);

      g_array_index (stack, Pair, i) = g_array_index (stack, Pair, j - 1);
      g_array_index (stack, Pair, j - 1) = t;
    }
}

/*
 * Both trees are in pre-order with children sorted by name, so the merged
 * tree comes out of one walk over both, merging each pair of sibling lists
 * like sorted lists: linear in the two sizes, no hashing, no sorting, and
 * the totals are the inputs' own (self values follow from them, when
 * asked for).
 */
static EmbersProfile *
merge_trees (EmbersProfile  *inputs[2],
             const guint     types[2],
             const gint64    scale[2],
             const char     *unit,
             GError        **error)
{
  g_autoptr(EmbersProfile) out = NULL;
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (Pair));
  Names names = { 0, };
  Sides sides = { 0, };
  guint n = 0, count = 0;
  Pair root = { { 0, 0 }, EMBERS_NODE_NONE };
  GString *pool;

  names.index = g_hash_table_new (g_str_hash, g_str_equal);
  names.strings = g_ptr_array_new ();
  for (guint s = 0; s < 2; s++)
    {
      names_add_side (&names, inputs[s], s);
      sides.names[s] = embers_profile_get_name_column (inputs[s]);
      sides.ends[s] = embers_profile_get_end_column (inputs[s]);
      sides.total[s] = embers_profile_get_total_column (inputs[s], types[s]);
    }
  names_rank (&names);
  for (guint s = 0; s < 2; s++)
    {
      guint n_strings = embers_profile_get_n_strings (inputs[s]);

      sides.rank[s] = g_new (guint32, MAX (n_strings, 1));
      for (guint i = 0; i < n_strings; i++)
        sides.rank[s][i] = names.rank[names.map[s][i]];
    }

  /* Columns for both trees at most: only the pages the merged tree uses
   * are touched (huge pages, see embers_alloc_column), the rest is given
   * back at the end */
  count = embers_profile_get_n_nodes (inputs[0]) + embers_profile_get_n_nodes (inputs[1]);
  out = _embers_profile_new ();
  out->n_types = 2;
  out->is_diff = TRUE;
  out->names = embers_alloc_column (sizeof (guint32) * count, FALSE);
  out->parents = embers_alloc_column (sizeof (guint32) * count, FALSE);
  out->ends = embers_alloc_column (sizeof (guint32) * count, FALSE);
  out->depths = embers_alloc_column (sizeof (guint16) * count, FALSE);
  out->totals[0] = embers_alloc_column (sizeof (gint64) * count, FALSE);
  out->totals[1] = embers_alloc_column (sizeof (gint64) * count, FALSE);

  /* Writing walk */
  g_array_append_val (stack, root);
  while (stack->len > 0)
    {
      Pair pair = g_array_index (stack, Pair, stack->len - 1);
      guint32 cur = n++;

      g_array_set_size (stack, stack->len - 1);

      for (guint s = 0; s < 2; s++)
        {
          guint32 node = pair.node[s];
          gint64 tv = 0;

          if (node != EMBERS_NODE_NONE &&
              __builtin_mul_overflow (sides.total[s][node], scale[s], &tv))
            {
              g_set_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_TOO_LARGE,
                           _("Converting the units overflows a 64-bit integer"));
              goto fail;
            }
          out->totals[s][cur] = tv;
        }

      out->names[cur] = pair.node[0] != EMBERS_NODE_NONE ? names.map[0][sides.names[0][pair.node[0]]]
                                                         : names.map[1][sides.names[1][pair.node[1]]];
      out->parents[cur] = pair.out_parent;
      out->depths[cur] = pair.out_parent == EMBERS_NODE_NONE ? 0 : out->depths[pair.out_parent] + 1;
      out->max_depth = MAX (out->max_depth, out->depths[cur]);

      push_kids (&sides, &pair, cur, stack);
    }
  g_assert (n <= count);
  out->names = g_renew (guint32, out->names, MAX (n, 1));
  out->parents = g_renew (guint32, out->parents, MAX (n, 1));
  out->ends = g_renew (guint32, out->ends, MAX (n, 1));
  out->depths = g_renew (guint16, out->depths, MAX (n, 1));
  out->totals[0] = g_renew (gint64, out->totals[0], MAX (n, 1));
  out->totals[1] = g_renew (gint64, out->totals[1], MAX (n, 1));

  /* Subtree ends from parents, in reverse pre-order */
  for (guint i = 0; i < n; i++)
    out->ends[i] = i + 1;
  for (guint i = n; i-- > 1; )
    if (out->ends[i] > out->ends[out->parents[i]])
      out->ends[out->parents[i]] = out->ends[i];

  out->n_nodes = n;

  /* Strings: the root is named "total"; the union of both pools */
  pool = g_string_new (NULL);
  out->n_strings = names.strings->len;
  out->string_offsets = g_new (guint32, MAX (out->n_strings, 1u));
  for (guint i = 0; i < out->n_strings; i++)
    {
      out->string_offsets[i] = pool->len;
      g_string_append_len (pool, g_ptr_array_index (names.strings, i),
                           strlen (g_ptr_array_index (names.strings, i)) + 1);
    }
  out->string_data = g_string_free (pool, FALSE);

  /* Header */
  {
    const char *header[] = { "baseline", "comparison", unit,
                             embers_profile_get_period_type (inputs[1]),
                             embers_profile_get_period_unit (inputs[1]), "" };
    guint32 ids[G_N_ELEMENTS (header)];

    /* These strings may be missing from both pools: append them. */
    for (guint h = 0; h < G_N_ELEMENTS (header); h++)
      {
        gpointer value = g_hash_table_lookup (names.index, header[h]);

        if (value == NULL)
          {
            gsize len = 0;
            guint32 offset;

            for (guint i = 0; i < out->n_strings; i++)
              len = MAX (len, out->string_offsets[i] + strlen (out->string_data + out->string_offsets[i]) + 1);
            offset = len;
            out->string_data = g_realloc (out->string_data, len + strlen (header[h]) + 1);
            memcpy (out->string_data + offset, header[h], strlen (header[h]) + 1);
            out->string_offsets = g_renew (guint32, out->string_offsets, out->n_strings + 1);
            out->string_offsets[out->n_strings] = offset;
            g_ptr_array_add (names.strings, (gpointer)header[h]);
            value = GUINT_TO_POINTER (++out->n_strings);
            g_hash_table_insert (names.index, (gpointer)header[h], value);
          }
        ids[h] = GPOINTER_TO_UINT (value) - 1;
      }

    out->type_names = g_new (guint32, 2);
    out->type_units = g_new (guint32, 2);
    out->type_names[0] = ids[0];
    out->type_names[1] = ids[1];
    out->type_units[0] = out->type_units[1] = ids[2];
    out->period_type = ids[3];
    out->period_unit = ids[4];
    out->period = embers_profile_get_period (inputs[1]);
  }

  g_hash_table_unref (names.index);
  g_ptr_array_unref (names.strings);
  g_free (names.map[0]);
  g_free (names.map[1]);
  g_free (names.rank);
  g_free (sides.rank[0]);
  g_free (sides.rank[1]);

  return g_steal_pointer (&out);

fail:
  g_hash_table_unref (names.index);
  g_ptr_array_unref (names.strings);
  g_free (names.map[0]);
  g_free (names.map[1]);
  g_free (names.rank);
  g_free (sides.rank[0]);
  g_free (sides.rank[1]);
  return NULL;
}

gboolean
embers_diff_check_units (const char  *baseline_type,
                         const char  *baseline_unit,
                         const char  *comparison_type,
                         const char  *comparison_unit,
                         GError     **error)
{
  if (units_compatible (baseline_unit, comparison_unit))
    return TRUE;

  g_set_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_UNSUPPORTED,
               _("Cannot compare “%s” in %s with “%s” in %s: the units differ"),
               baseline_type != NULL ? baseline_type : "?",
               baseline_unit != NULL && baseline_unit[0] != '\0' ? baseline_unit : "count",
               comparison_type != NULL ? comparison_type : "?",
               comparison_unit != NULL && comparison_unit[0] != '\0' ? comparison_unit : "count");
  return FALSE;
}

EmbersProfile *
embers_diff_profiles (EmbersProfile  *baseline,
                      guint           baseline_type,
                      EmbersProfile  *comparison,
                      guint           comparison_type,
                      GError        **error)
{
  EmbersProfile *sides[2] = { baseline, comparison };
  guint types[2] = { baseline_type, comparison_type };
  gint64 mult[2], scale[2];
  const char *unit_l, *unit_r;

  g_return_val_if_fail (EMBERS_IS_PROFILE (baseline), NULL);
  g_return_val_if_fail (EMBERS_IS_PROFILE (comparison), NULL);
  g_return_val_if_fail (baseline_type < embers_profile_get_n_sample_types (baseline), NULL);
  g_return_val_if_fail (comparison_type < embers_profile_get_n_sample_types (comparison), NULL);

  unit_l = embers_profile_get_sample_unit (baseline, baseline_type);
  unit_r = embers_profile_get_sample_unit (comparison, comparison_type);
  if (!embers_diff_check_units (embers_profile_get_sample_type (baseline, baseline_type), unit_l,
                                embers_profile_get_sample_type (comparison, comparison_type), unit_r,
                                error))
    return NULL;

  /* Same kind, maybe different scale (seconds vs nanoseconds): both sides
   * are expressed in the finer unit. */
  embers_unit_kind (unit_l, &mult[0]);
  embers_unit_kind (unit_r, &mult[1]);
  scale[0] = mult[0] / MIN (mult[0], mult[1]);
  scale[1] = mult[1] / MIN (mult[0], mult[1]);

  return merge_trees (sides, types, scale, mult[0] <= mult[1] ? unit_l : unit_r, error);
}

double
embers_diff_share_change (gint64          left,
                          gint64          left_total,
                          gint64          right,
                          gint64          right_total,
                          EmbersDiffKind *kind)
{
  double pl = left_total > 0 ? (double)left / (double)left_total : 0.0;
  double pr = right_total > 0 ? (double)right / (double)right_total : 0.0;
  EmbersDiffKind k = EMBERS_DIFF_KIND_CHANGED;
  double d;

  if (left == 0 && right > 0)
    k = EMBERS_DIFF_KIND_NEW;
  else if (left > 0 && right == 0)
    k = EMBERS_DIFF_KIND_REMOVED;

  if (kind)
    *kind = k;

  if (pl == pr)
    return 0.0;
  if (pl == 0.0)
    return 100.0;

  d = (pr - pl) / pl * 100.0;
  return d;
}

GArray *
embers_diff_top_compute (EmbersProfile *diff)
{
  g_autoptr(GArray) left = NULL;
  g_autoptr(GArray) right = NULL;
  g_autofree gint32 *index = NULL;
  gint64 left_root, right_root;
  GArray *rows;

  g_return_val_if_fail (EMBERS_IS_PROFILE (diff), NULL);
  g_return_val_if_fail (embers_profile_get_n_sample_types (diff) >= 2, NULL);

  left = embers_top_compute (diff, EMBERS_DIFF_BASELINE);
  right = embers_top_compute (diff, EMBERS_DIFF_COMPARISON);
  left_root = embers_profile_get_total (diff, EMBERS_DIFF_BASELINE);
  right_root = embers_profile_get_total (diff, EMBERS_DIFF_COMPARISON);

  index = g_new (gint32, embers_profile_get_n_strings (diff));
  memset (index, 0xff, sizeof (gint32) * embers_profile_get_n_strings (diff));

  rows = g_array_new (FALSE, TRUE, sizeof (EmbersDiffRow));
  for (guint side = 0; side < 2; side++)
    {
      GArray *src = side == 0 ? left : right;

      for (guint i = 0; i < src->len; i++)
        {
          const EmbersTopRow *t = &g_array_index (src, EmbersTopRow, i);
          EmbersDiffRow *row;

          if (index[t->name] < 0)
            {
              EmbersDiffRow empty = { 0, };

              empty.name = t->name;
              index[t->name] = rows->len;
              g_array_append_val (rows, empty);
            }
          row = &g_array_index (rows, EmbersDiffRow, index[t->name]);
          if (side == 0)
            {
              row->baseline_self = t->self;
              row->baseline_total = t->total;
            }
          else
            {
              row->comparison_self = t->self;
              row->comparison_total = t->total;
            }
        }
    }

  for (guint i = 0; i < rows->len; i++)
    {
      EmbersDiffRow *row = &g_array_index (rows, EmbersDiffRow, i);

      row->baseline_share = left_root > 0 ? (double)row->baseline_total / (double)left_root : 0.0;
      row->comparison_share = right_root > 0 ? (double)row->comparison_total / (double)right_root : 0.0;
      row->change = embers_diff_share_change (row->baseline_total, left_root,
                                              row->comparison_total, right_root,
                                              &row->kind);
      row->absolute_change = embers_diff_absolute_change (row->baseline_total, row->comparison_total, NULL);
    }

  embers_diff_top_sort (rows, diff, EMBERS_DIFF_MODE_SHARE, TRUE);

  return rows;
}

double
embers_diff_row_change (const EmbersDiffRow *row,
                        EmbersDiffMode       mode)
{
  g_return_val_if_fail (row != NULL, 0.0);
  return mode == EMBERS_DIFF_MODE_ABSOLUTE ? row->absolute_change : row->change;
}

/* New frames sort above every change, removed ones below. */
static double
sort_key (const EmbersDiffRow *row,
          EmbersDiffMode       mode)
{
  switch (row->kind)
    {
    case EMBERS_DIFF_KIND_NEW:     return INFINITY;
    case EMBERS_DIFF_KIND_REMOVED: return -INFINITY;
    case EMBERS_DIFF_KIND_CHANGED:
    default:                       return embers_diff_row_change (row, mode);
    }
}

static int
compare_diff_rows (gconstpointer a,
                   gconstpointer b,
                   gpointer      user_data)
{
  const EmbersDiffRow *ra = a;
  const EmbersDiffRow *rb = b;
  gpointer *ctx = user_data;
  EmbersProfile *diff = ctx[0];
  int sign = GPOINTER_TO_INT (ctx[1]);
  EmbersDiffMode mode = GPOINTER_TO_INT (ctx[2]);
  double ka = sort_key (ra, mode), kb = sort_key (rb, mode);
  double sa, sb;

  if (ka != kb)
    return (ka < kb ? -1 : 1) * sign;

  /* Equal change: the bigger share first */
  sa = MAX (ra->baseline_share, ra->comparison_share);
  sb = MAX (rb->baseline_share, rb->comparison_share);
  if (sa != sb)
    return sa > sb ? -1 : 1;

  return strcmp (embers_profile_get_string (diff, ra->name),
                 embers_profile_get_string (diff, rb->name));
}

void
embers_diff_top_sort (GArray         *rows,
                      EmbersProfile  *diff,
                      EmbersDiffMode  mode,
                      gboolean        descending)
{
  gpointer ctx[3] = { diff, GINT_TO_POINTER (descending ? -1 : 1), GINT_TO_POINTER (mode) };

  g_return_if_fail (rows != NULL);

  g_sort_array (rows->data, rows->len, sizeof (EmbersDiffRow), compare_diff_rows, ctx);
}

void
embers_diff_top_print (GArray         *rows,
                       EmbersProfile  *diff,
                       EmbersDiffMode  mode,
                       guint           limit,
                       GString        *out)
{
  guint n;

  g_return_if_fail (rows != NULL);
  g_return_if_fail (out != NULL);

  n = limit == 0 ? rows->len : MIN (limit, rows->len);
  for (guint i = 0; i < n; i++)
    {
      const EmbersDiffRow *row = &g_array_index (rows, EmbersDiffRow, i);
      char change[32];

      switch (row->kind)
        {
        case EMBERS_DIFF_KIND_NEW:
          g_strlcpy (change, "new", sizeof change);
          break;
        case EMBERS_DIFF_KIND_REMOVED:
          g_strlcpy (change, "removed", sizeof change);
          break;
        case EMBERS_DIFF_KIND_CHANGED:
        default:
          g_ascii_formatd (change, sizeof change, "%+.2f", embers_diff_row_change (row, mode));
          break;
        }

      g_string_append_printf (out, "%" G_GINT64_FORMAT "\t%" G_GINT64_FORMAT "\t",
                              row->baseline_total, row->comparison_total);
      {
        char bl[32], cmp[32];

        g_ascii_formatd (bl, sizeof bl, "%.2f", row->baseline_share * 100.0);
        g_ascii_formatd (cmp, sizeof cmp, "%.2f", row->comparison_share * 100.0);
        g_string_append_printf (out, "%s\t%s\t%s\t", bl, cmp, change);
        /* Names from a profile: no forged columns, rows or escapes */
        embers_text_append_escaped (out, embers_profile_get_string (diff, row->name));
        g_string_append_c (out, '\n');
      }
    }
}

double
embers_diff_absolute_change (gint64          left,
                             gint64          right,
                             EmbersDiffKind *kind)
{
  EmbersDiffKind k = EMBERS_DIFF_KIND_CHANGED;

  if (left == 0 && right > 0)
    k = EMBERS_DIFF_KIND_NEW;
  else if (left > 0 && right == 0)
    k = EMBERS_DIFF_KIND_REMOVED;
  if (kind)
    *kind = k;

  if (left == right)
    return 0.0;
  if (left == 0)
    return 100.0;

  return ((double)right - (double)left) / (double)left * 100.0;
}

double
embers_diff_node_change (EmbersProfile  *diff,
                         guint32         node,
                         EmbersDiffMode  mode,
                         EmbersDiffKind *kind)
{
  gint64 left, right, left_root, right_root;
  double change;

  g_return_val_if_fail (EMBERS_IS_PROFILE (diff), 0.0);
  g_return_val_if_fail (embers_profile_get_n_sample_types (diff) >= 2, 0.0);
  g_return_val_if_fail (node < embers_profile_get_n_nodes (diff), 0.0);

  left = embers_profile_node_total (diff, EMBERS_DIFF_BASELINE, node);
  right = embers_profile_node_total (diff, EMBERS_DIFF_COMPARISON, node);

  if (mode == EMBERS_DIFF_MODE_ABSOLUTE)
    return embers_diff_absolute_change (left, right, kind);

  left_root = embers_profile_get_total (diff, EMBERS_DIFF_BASELINE);
  right_root = embers_profile_get_total (diff, EMBERS_DIFF_COMPARISON);
  change = embers_diff_share_change (left, left_root, right, right_root, kind);
  if (left_root <= 0 || right_root <= 0)
    return 0.0;

  return change;
}

char *
embers_diff_format_percent (double   percent,
                            gboolean sign)
{
  /* U+2212 MINUS SIGN, as embers_format_signed_percent() writes it */
  const char *prefix = !sign || percent == 0.0 ? "" : percent > 0 ? "+" : "\xe2\x88\x92";
  double a = fabs (percent);

  if (!isfinite (percent))
    return g_strdup ("–");
  if (a == 0.0)
    return g_strdup ("0%");
  if (a < 0.005)
    return g_strdup_printf ("%s<0.01%%", prefix);
  /* Rounding decides the digits: 9.996 is "10.0", 99.96 is "100" */
  if (a < 9.995)
    return g_strdup_printf ("%s%.2f%%", prefix, a);
  if (a < 99.95)
    return g_strdup_printf ("%s%.1f%%", prefix, a);
  return g_strdup_printf ("%s%.0f%%", prefix, a);
}

char *
embers_diff_format_delta (gint64      baseline,
                          gint64      comparison,
                          const char *unit)
{
  g_autofree char *magnitude = NULL;
  guint64 delta;

  /* Both are non-negative totals: the difference's magnitude fits in 64
   * bits unsigned, and embers_format_value takes it up to G_MAXINT64 */
  if (comparison >= baseline)
    delta = (guint64) comparison - (guint64) baseline;
  else
    delta = (guint64) baseline - (guint64) comparison;
  magnitude = embers_format_value ((gint64) MIN (delta, (guint64) G_MAXINT64), unit);
  if (delta == 0)
    return g_steal_pointer (&magnitude);
  return g_strconcat (comparison > baseline ? "+" : "\xe2\x88\x92", magnitude, NULL);
}

void
embers_diff_top_print_table (GArray         *rows,
                             EmbersProfile  *diff,
                             EmbersDiffMode  mode,
                             guint           limit,
                             GString        *out)
{
  /* Translators: column headings of `embers --diff --top` */
  const char *headings[5] = { C_("top column", "baseline"), C_("top column", "comparison"),
                              C_("top column", "baseline%"), C_("top column", "comparison%"),
                              mode == EMBERS_DIFF_MODE_ABSOLUTE ? C_("top column", "change")
                                                                : C_("top column", "share change") };
  g_autoptr(GPtrArray) cells = g_ptr_array_new_with_free_func (g_free);
  const char *unit;
  guint widths[5];
  guint n;

  g_return_if_fail (rows != NULL);
  g_return_if_fail (EMBERS_IS_PROFILE (diff));
  g_return_if_fail (out != NULL);

  unit = embers_profile_get_sample_unit (diff, EMBERS_DIFF_COMPARISON);
  n = limit == 0 ? rows->len : MIN (limit, rows->len);
  for (guint c = 0; c < 5; c++)
    widths[c] = (guint) g_utf8_strlen (headings[c], -1);

  for (guint i = 0; i < n; i++)
    {
      const EmbersDiffRow *row = &g_array_index (rows, EmbersDiffRow, i);
      char *row_cells[5];

      row_cells[0] = embers_format_value (row->baseline_total, unit);
      row_cells[1] = embers_format_value (row->comparison_total, unit);
      row_cells[2] = embers_diff_format_percent (row->baseline_share * 100.0, FALSE);
      row_cells[3] = embers_diff_format_percent (row->comparison_share * 100.0, FALSE);
      switch (row->kind)
        {
        case EMBERS_DIFF_KIND_NEW:
          /* Translators: a function only in the comparison */
          row_cells[4] = g_strdup (C_("diff change", "new"));
          break;
        case EMBERS_DIFF_KIND_REMOVED:
          /* Translators: a function only in the baseline */
          row_cells[4] = g_strdup (C_("diff change", "removed"));
          break;
        case EMBERS_DIFF_KIND_CHANGED:
        default:
          row_cells[4] = embers_diff_format_percent (embers_diff_row_change (row, mode), TRUE);
          break;
        }
      for (guint c = 0; c < 5; c++)
        {
          widths[c] = MAX (widths[c], (guint) g_utf8_strlen (row_cells[c], -1));
          g_ptr_array_add (cells, row_cells[c]);
        }
    }

  for (guint c = 0; c < 5; c++)
    {
      embers_top_append_cell (out, headings[c], widths[c], TRUE);
      g_string_append (out, "  ");
    }
  g_string_append (out, C_("top column", "name"));
  g_string_append_c (out, '\n');

  for (guint i = 0; i < n; i++)
    {
      const EmbersDiffRow *row = &g_array_index (rows, EmbersDiffRow, i);

      for (guint c = 0; c < 5; c++)
        {
          embers_top_append_cell (out, cells->pdata[i * 5 + c], widths[c], TRUE);
          g_string_append (out, "  ");
        }
      embers_text_append_escaped (out, embers_profile_get_string (diff, row->name));
      g_string_append_c (out, '\n');
    }
}
