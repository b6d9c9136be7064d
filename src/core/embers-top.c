/* embers-top.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "embers-text.h"
#include "embers-top.h"

/**
 * embers_top_compute:
 *
 * Aggregates the call tree per function name. A function's total counts
 * each stack once, however often the function appears in it (recursion),
 * which matches `go tool pprof -top`'s cum column.
 *
 * Returns: (transfer full): an array of #EmbersTopRow
 */
GArray *
embers_top_compute (EmbersProfile *profile,
                    guint          sample_type)
{
  g_autofree gint64 *self_by_name = NULL;
  g_autofree gint64 *total_by_name = NULL;
  g_autofree guint32 *on_path = NULL;
  g_autofree guint32 *path = NULL;
  const guint32 *names, *ends, *parents;
  const gint64 *total;
  guint n_nodes, n_strings;
  GArray *rows;
  gsize depth = 0;

  g_return_val_if_fail (EMBERS_IS_PROFILE (profile), NULL);
  g_return_val_if_fail (sample_type < embers_profile_get_n_sample_types (profile), NULL);

  n_nodes = embers_profile_get_n_nodes (profile);
  n_strings = embers_profile_get_n_strings (profile);
  names = embers_profile_get_name_column (profile);
  ends = embers_profile_get_end_column (profile);
  parents = embers_profile_get_parent_column (profile);
  total = embers_profile_get_total_column (profile, sample_type);

  self_by_name = g_new0 (gint64, n_strings);
  total_by_name = g_new0 (gint64, n_strings);
  on_path = g_new0 (guint32, n_strings);
  path = g_new (guint32, embers_profile_get_max_depth (profile) + 2);

  /* Node 0 is the root: not a function. */
  for (guint i = 1; i < n_nodes; i++)
    {
      guint32 name = names[i];

      while (depth > 0 && ends[path[depth - 1]] <= i)
        on_path[names[path[--depth]]]--;

      /* A node's self is its total less its children's: no self column
       * (it would cost 8 bytes a node) */
      self_by_name[name] += total[i];
      if (parents[i] != 0)
        self_by_name[names[parents[i]]] -= total[i];
      if (on_path[name] == 0)
        total_by_name[name] += total[i];
      on_path[name]++;
      path[depth++] = i;
    }

  rows = g_array_new (FALSE, FALSE, sizeof (EmbersTopRow));
  for (guint32 name = 0; name < n_strings; name++)
    {
      if (self_by_name[name] != 0 || total_by_name[name] != 0)
        {
          EmbersTopRow row = { name, self_by_name[name], total_by_name[name] };

          g_array_append_val (rows, row);
        }
    }

  embers_top_sort (rows, profile, EMBERS_TOP_SORT_SELF, TRUE);

  return rows;
}

typedef struct
{
  EmbersProfile *profile;
  EmbersTopSort  column;
  int            sign;
} SortContext;

static int
compare_i64 (gint64 a,
             gint64 b)
{
  return a < b ? -1 : a > b;
}

static int
compare_rows (gconstpointer a,
              gconstpointer b,
              gpointer      user_data)
{
  const EmbersTopRow *ra = a;
  const EmbersTopRow *rb = b;
  const SortContext *ctx = user_data;
  int r = 0;

  switch (ctx->column)
    {
    case EMBERS_TOP_SORT_SELF:
      r = compare_i64 (ra->self, rb->self);
      if (r == 0)
        r = compare_i64 (ra->total, rb->total);
      break;

    case EMBERS_TOP_SORT_TOTAL:
      r = compare_i64 (ra->total, rb->total);
      if (r == 0)
        r = compare_i64 (ra->self, rb->self);
      break;

    case EMBERS_TOP_SORT_NAME:
    default:
      break;
    }

  if (r != 0)
    return r * ctx->sign;

  /* Names always ascending as the tie breaker, for stable output. */
  r = strcmp (embers_profile_get_string (ctx->profile, ra->name),
              embers_profile_get_string (ctx->profile, rb->name));
  if (ctx->column == EMBERS_TOP_SORT_NAME)
    r *= ctx->sign;

  return r;
}

void
embers_top_sort (GArray        *rows,
                 EmbersProfile *profile,
                 EmbersTopSort  column,
                 gboolean       descending)
{
  SortContext ctx = { profile, column, descending ? -1 : 1 };

  g_return_if_fail (rows != NULL);
  g_return_if_fail (EMBERS_IS_PROFILE (profile));

  g_sort_array (rows->data, rows->len, sizeof (EmbersTopRow), compare_rows, &ctx);
}

void
embers_top_print (GArray        *rows,
                  EmbersProfile *profile,
                  guint          limit,
                  GString       *out)
{
  guint n;

  g_return_if_fail (rows != NULL);
  g_return_if_fail (EMBERS_IS_PROFILE (profile));
  g_return_if_fail (out != NULL);

  n = limit == 0 ? rows->len : MIN (limit, rows->len);
  for (guint i = 0; i < n; i++)
    {
      const EmbersTopRow *row = &g_array_index (rows, EmbersTopRow, i);

      g_string_append_printf (out, "%" G_GINT64_FORMAT "\t%" G_GINT64_FORMAT "\t",
                              row->self, row->total);
      /* Names from a profile: no forged columns, rows or escapes */
      embers_text_append_escaped (out, embers_profile_get_string (profile, row->name));
      g_string_append_c (out, '\n');
    }
}
