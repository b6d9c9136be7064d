/* embers-top.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "embers-text.h"
#include "embers-top.h"
#include "embers-units.h"

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

void
embers_top_append_cell (GString    *out,
                        const char *text,
                        guint       width,
                        gboolean    right)
{
  glong len = g_utf8_strlen (text, -1);

  if (right)
    for (glong i = len; i < (glong) width; i++)
      g_string_append_c (out, ' ');
  g_string_append (out, text);
  if (!right)
    for (glong i = len; i < (glong) width; i++)
      g_string_append_c (out, ' ');
}

static char *
share (gint64 value,
       gint64 total)
{
  if (total == 0)
    return g_strdup ("–");
  return embers_format_percent ((double) value / (double) total);
}

void
embers_top_print_table (GArray        *rows,
                        EmbersProfile *profile,
                        guint          sample_type,
                        guint          limit,
                        GString       *out)
{
  const char *unit;
  gint64 total, shown = 0, sum = 0;
  g_autoptr(GPtrArray) cells = g_ptr_array_new_with_free_func (g_free);
  /* Translators: column headings of `embers --top`, as go tool pprof's
   * flat, flat%, sum%, cum, cum% */
  const char *headings[5] = { C_("top column", "self"), C_("top column", "self%"),
                              C_("top column", "sum%"), C_("top column", "total"),
                              C_("top column", "total%") };
  guint widths[5];
  g_autofree char *shown_text = NULL;
  g_autofree char *total_text = NULL;
  g_autofree char *shown_share = NULL;
  guint n;

  g_return_if_fail (rows != NULL);
  g_return_if_fail (EMBERS_IS_PROFILE (profile));
  g_return_if_fail (sample_type < embers_profile_get_n_sample_types (profile));
  g_return_if_fail (out != NULL);

  unit = embers_profile_get_sample_unit (profile, sample_type);
  total = embers_profile_get_total (profile, sample_type);
  n = limit == 0 ? rows->len : MIN (limit, rows->len);

  for (guint c = 0; c < 5; c++)
    widths[c] = (guint) g_utf8_strlen (headings[c], -1);
  for (guint i = 0; i < n; i++)
    {
      const EmbersTopRow *row = &g_array_index (rows, EmbersTopRow, i);
      char *row_cells[5];

      sum += row->self;
      row_cells[0] = embers_format_value (row->self, unit);
      row_cells[1] = share (row->self, total);
      row_cells[2] = share (sum, total);
      row_cells[3] = embers_format_value (row->total, unit);
      row_cells[4] = share (row->total, total);
      for (guint c = 0; c < 5; c++)
        {
          widths[c] = MAX (widths[c], (guint) g_utf8_strlen (row_cells[c], -1));
          g_ptr_array_add (cells, row_cells[c]);
        }
    }
  shown = sum;

  shown_text = embers_format_value (shown, unit);
  total_text = embers_format_value (total, unit);
  shown_share = share (shown, total);
  /* Translators: the first line of `embers --top`: "Showing 10 of 42
   * functions: 1.20 s of 2.50 s total (48.0%), sample type cpu" */
  g_string_append_printf (out, _("Showing %u of %u functions: %s of %s total (%s), sample type %s"),
                          n, rows->len, shown_text, total_text, shown_share,
                          embers_profile_get_sample_type (profile, sample_type));
  g_string_append_c (out, '\n');

  for (guint c = 0; c < 5; c++)
    {
      embers_top_append_cell (out, headings[c], widths[c], TRUE);
      g_string_append (out, "  ");
    }
  g_string_append (out, C_("top column", "name"));
  g_string_append_c (out, '\n');

  for (guint i = 0; i < n; i++)
    {
      const EmbersTopRow *row = &g_array_index (rows, EmbersTopRow, i);

      for (guint c = 0; c < 5; c++)
        {
          embers_top_append_cell (out, cells->pdata[i * 5 + c], widths[c], TRUE);
          g_string_append (out, "  ");
        }
      embers_text_append_escaped (out, embers_profile_get_string (profile, row->name));
      g_string_append_c (out, '\n');
    }
}
