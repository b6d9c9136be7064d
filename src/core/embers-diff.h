/* embers-diff.h: baseline vs comparison
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "embers-profile.h"

G_BEGIN_DECLS

/* Column indexes of a diff profile (embers_profile_is_diff()) */
#define EMBERS_DIFF_BASELINE   0
#define EMBERS_DIFF_COMPARISON 1

/**
 * embers_diff_profiles:
 * @baseline: the "before" profile
 * @baseline_type: its sample type
 * @comparison: the "after" profile
 * @comparison_type: its sample type
 *
 * Merges two call trees by frame name path into one diff profile with two
 * value columns, "baseline" and "comparison"; frames present on one side
 * only have zeros on the other. The units must agree (a count and a
 * duration cannot be compared): otherwise %EMBERS_PROFILE_ERROR_UNSUPPORTED.
 */
EmbersProfile *embers_diff_profiles (EmbersProfile  *baseline,
                                     guint           baseline_type,
                                     EmbersProfile  *comparison,
                                     guint           comparison_type,
                                     GError        **error);

/**
 * embers_diff_check_units:
 * @baseline_type: the baseline's sample type ("cpu"), for the message
 * @baseline_unit: its unit ("nanoseconds")
 * @comparison_type: the comparison's sample type
 * @comparison_unit: its unit
 *
 * The check embers_diff_profiles() makes, for callers that only know the
 * types (two server queries before a Diff RPC): units of one kind (a
 * duration and a duration, bytes and bytes, counts and counts) compare;
 * others give %EMBERS_PROFILE_ERROR_UNSUPPORTED with the same message.
 */
gboolean       embers_diff_check_units (const char     *baseline_type,
                                        const char     *baseline_unit,
                                        const char     *comparison_type,
                                        const char     *comparison_unit,
                                        GError        **error);

typedef enum
{
  EMBERS_DIFF_KIND_CHANGED,
  EMBERS_DIFF_KIND_NEW,       /* only in the comparison */
  EMBERS_DIFF_KIND_REMOVED,   /* only in the baseline */
} EmbersDiffKind;

/**
 * embers_diff_share_change:
 * @left: baseline value
 * @left_total: baseline root total
 * @right: comparison value
 * @right_total: comparison root total
 * @kind: (out) (optional): new / removed / changed
 *
 * The change of a frame's share of its side's total, in percent:
 * d = (pR - pL) / pL * 100, where pX is the value's share of its side.
 * pL = pR gives 0; pL = 0 (new) gives +100 as a colour input, and kind tells
 * the caller to say "new". Not clamped: callers clamp for colour.
 */
double embers_diff_share_change (gint64          left,
                                 gint64          left_total,
                                 gint64          right,
                                 gint64          right_total,
                                 EmbersDiffKind *kind);

/**
 * EmbersDiffMode:
 * @EMBERS_DIFF_MODE_SHARE: the change of a frame's share of its side's
 *   total (embers_diff_share_change()); the default, right when the two
 *   sides had different loads or durations
 * @EMBERS_DIFF_MODE_ABSOLUTE: the change of the frame's absolute value
 *   (embers_diff_absolute_change()), for equal-load comparisons: a frame
 *   that did not change stays neutral when another one grew
 *
 * Which change colours and labels a diff flame graph.
 */
typedef enum
{
  EMBERS_DIFF_MODE_SHARE,
  EMBERS_DIFF_MODE_ABSOLUTE,
} EmbersDiffMode;

typedef struct
{
  guint32        name;
  gint64         baseline_self;
  gint64         baseline_total;
  gint64         comparison_self;
  gint64         comparison_total;
  double         baseline_share;    /* of the baseline root, 0..1, total */
  double         comparison_share;  /* of the comparison root, 0..1, total */
  double         change;            /* embers_diff_share_change of totals, % */
  double         absolute_change;   /* embers_diff_absolute_change of totals, % */
  EmbersDiffKind kind;
} EmbersDiffRow;

/* The row's change by @mode: change (share) or absolute_change, in % */
double  embers_diff_row_change  (const EmbersDiffRow *row,
                                 EmbersDiffMode       mode);

/* One row per function of a diff profile, sorted by the change of share,
 * descending (new first, then what grew most ... what shrank most,
 * removed last). */
GArray *embers_diff_top_compute (EmbersProfile       *diff);
/* Sorts by the change @mode gives (embers_diff_row_change()) */
void    embers_diff_top_sort    (GArray              *rows,
                                 EmbersProfile       *diff,
                                 EmbersDiffMode       mode,
                                 gboolean             descending);
/* TSV: baseline value, comparison value, baseline %, comparison %, diff %
 * (by @mode), name escaped by embers_text_append_escaped(); @limit 0
 * prints every row */
void    embers_diff_top_print   (GArray              *rows,
                                 EmbersProfile       *diff,
                                 EmbersDiffMode       mode,
                                 guint                limit,
                                 GString             *out);

/* The same rows as a table for people: aligned columns baseline,
 * comparison (in the unit), their shares, the change and the name;
 * "new" and "removed" in words */
void    embers_diff_top_print_table (GArray         *rows,
                                     EmbersProfile  *diff,
                                     EmbersDiffMode  mode,
                                     guint           limit,
                                     GString        *out);

/* A change in percent with three significant digits and at most two
 * decimals ("0.05%", "1.23%", "12.3%", "123%"); with @sign, "+" or
 * U+2212 before it. Shares and changes of the diff table use it. */
char   *embers_diff_format_percent (double        percent,
                                    gboolean      sign);
/* comparison - baseline in @unit with its sign: "+550.00 ms", "−2.00 MiB",
 * "0 ns" (embers_format_value()) */
char   *embers_diff_format_delta   (gint64        baseline,
                                    gint64        comparison,
                                    const char   *unit);


/**
 * embers_diff_absolute_change:
 * @left: baseline value
 * @right: comparison value
 * @kind: (out) (optional): new / removed / changed
 *
 * d = (right - left) / left * 100 with the same rules as
 * embers_diff_share_change(): equal values give 0, left = 0 gives +100
 * (new). Not clamped.
 */
double embers_diff_absolute_change (gint64          left,
                                    gint64          right,
                                    EmbersDiffKind *kind);

/**
 * embers_diff_node_change:
 * @diff: a diff profile (column 0 baseline, column 1 comparison)
 * @node: a node
 * @mode: share or absolute
 * @kind: (out) (optional): new / removed / changed
 *
 * The change of the node's TOTAL in percent, by @mode; not clamped. In
 * share mode a side whose root total is 0 gives 0 (there are no shares to
 * compare), while @kind still tells new / removed.
 */
double embers_diff_node_change     (EmbersProfile  *diff,
                                    guint32         node,
                                    EmbersDiffMode  mode,
                                    EmbersDiffKind *kind);

G_END_DECLS
