/* embers-diff.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n.h>

#include "embers-diff.h"
#include "embers-profile-builder.h"
#include "embers-top.h"
#include "embers-units.h"

static gboolean
units_compatible (const char *a,
                  const char *b)
{
  EmbersUnitKind ka = embers_unit_kind (a, NULL);
  EmbersUnitKind kb = embers_unit_kind (b, NULL);

  return ka == kb;
}

EmbersProfile *
embers_diff_profiles (EmbersProfile  *baseline,
                      guint           baseline_type,
                      EmbersProfile  *comparison,
                      guint           comparison_type,
                      GError        **error)
{
  g_autoptr(EmbersProfileBuilder) b = NULL;
  const char *unit_l, *unit_r;

  g_return_val_if_fail (EMBERS_IS_PROFILE (baseline), NULL);
  g_return_val_if_fail (EMBERS_IS_PROFILE (comparison), NULL);
  g_return_val_if_fail (baseline_type < embers_profile_get_n_sample_types (baseline), NULL);
  g_return_val_if_fail (comparison_type < embers_profile_get_n_sample_types (comparison), NULL);

  unit_l = embers_profile_get_sample_unit (baseline, baseline_type);
  unit_r = embers_profile_get_sample_unit (comparison, comparison_type);
  if (!units_compatible (unit_l, unit_r))
    {
      g_set_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_UNSUPPORTED,
                   _("Cannot compare “%s” in %s with “%s” in %s: the units differ"),
                   embers_profile_get_sample_type (baseline, baseline_type), unit_l,
                   embers_profile_get_sample_type (comparison, comparison_type), unit_r);
      return NULL;
    }

  b = embers_profile_builder_new ();
  embers_profile_builder_add_sample_type (b, "baseline", unit_l);
  embers_profile_builder_add_sample_type (b, "comparison", unit_l);
  embers_profile_builder_set_diff (b, TRUE);
  embers_profile_builder_set_period (b,
                                     embers_profile_get_period_type (comparison),
                                     embers_profile_get_period_unit (comparison),
                                     embers_profile_get_period (comparison));

  embers_profile_builder_add_profile (b, baseline, baseline_type, EMBERS_DIFF_BASELINE, NULL);
  embers_profile_builder_add_profile (b, comparison, comparison_type, EMBERS_DIFF_COMPARISON, NULL);

  return embers_profile_builder_finish (b, error);
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
    }

  embers_diff_top_sort (rows, diff, TRUE);

  return rows;
}

/* New frames sort above every change, removed ones below. */
static double
sort_key (const EmbersDiffRow *row)
{
  switch (row->kind)
    {
    case EMBERS_DIFF_KIND_NEW:     return INFINITY;
    case EMBERS_DIFF_KIND_REMOVED: return -INFINITY;
    case EMBERS_DIFF_KIND_CHANGED:
    default:                       return row->change;
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
  double ka = sort_key (ra), kb = sort_key (rb);
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
embers_diff_top_sort (GArray        *rows,
                      EmbersProfile *diff,
                      gboolean       descending)
{
  gpointer ctx[2] = { diff, GINT_TO_POINTER (descending ? -1 : 1) };

  g_return_if_fail (rows != NULL);

  g_qsort_with_data (rows->data, (gint)rows->len, sizeof (EmbersDiffRow), compare_diff_rows, ctx);
}

void
embers_diff_top_print (GArray        *rows,
                       EmbersProfile *diff,
                       guint          limit,
                       GString       *out)
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
          g_ascii_formatd (change, sizeof change, "%+.2f", row->change);
          break;
        }

      g_string_append_printf (out, "%" G_GINT64_FORMAT "\t%" G_GINT64_FORMAT "\t",
                              row->baseline_total, row->comparison_total);
      {
        char bl[32], cmp[32];

        g_ascii_formatd (bl, sizeof bl, "%.2f", row->baseline_share * 100.0);
        g_ascii_formatd (cmp, sizeof cmp, "%.2f", row->comparison_share * 100.0);
        g_string_append_printf (out, "%s\t%s\t%s\t%s\n", bl, cmp, change,
                                embers_profile_get_string (diff, row->name));
      }
    }
}
