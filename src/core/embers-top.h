/* embers-top.h: per-function self and total
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "embers-profile.h"

G_BEGIN_DECLS

typedef struct
{
  guint32 name;    /* string id in the profile */
  gint64  self;
  gint64  total;   /* recursion counted once */
} EmbersTopRow;

typedef enum
{
  EMBERS_TOP_SORT_SELF,
  EMBERS_TOP_SORT_TOTAL,
  EMBERS_TOP_SORT_NAME,
} EmbersTopSort;

/* One row per distinct function name with a non-zero self or total,
 * sorted by self descending, then total descending, then name. */
GArray *embers_top_compute (EmbersProfile *profile,
                            guint          sample_type);
void    embers_top_sort    (GArray        *rows,
                            EmbersProfile *profile,
                            EmbersTopSort  column,
                            gboolean       descending);
/* Writes "self\ttotal\tname\n" rows, at most limit (0 = all); the name
 * escaped by embers_text_append_escaped() (tabs, line breaks, control
 * characters). */
void    embers_top_print   (GArray        *rows,
                            EmbersProfile *profile,
                            guint          limit,
                            GString       *out);

/* A table for people, as `go tool pprof -top` prints it: a header line
 * with the total, then aligned columns self, self%, sum%, total, total%
 * and the escaped name; values in the sample type's unit ("1.20 s",
 * "4.50 MiB"), percentages of the profile's total. */
void    embers_top_print_table (GArray        *rows,
                                EmbersProfile *profile,
                                guint          sample_type,
                                guint          limit,
                                GString       *out);

/* Appends @text right-aligned (@right) or left-aligned in @width
 * characters (not bytes), and a separator of two spaces unless @last */
void    embers_top_append_cell (GString       *out,
                                const char    *text,
                                guint          width,
                                gboolean       right);

G_END_DECLS
