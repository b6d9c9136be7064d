/* embers-units.h: human-readable values
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  EMBERS_UNIT_KIND_COUNT,
  EMBERS_UNIT_KIND_NANOSECONDS,
  EMBERS_UNIT_KIND_BYTES,
} EmbersUnitKind;

/* Maps pprof/Pyroscope unit strings ("nanoseconds", "ns", "bytes",
 * "count", "samples", "objects", ...) to a kind; multiplier receives
 * the factor to nanoseconds/bytes/1 (e.g. "microseconds" -> 1000). */
EmbersUnitKind embers_unit_kind          (const char *unit,
                                          gint64     *multiplier);
/* "12.3 ms", "4.50 MiB", "1,234 samples" style, compact and translatable. */
char          *embers_format_value       (gint64      value,
                                          const char *unit);
/* fraction 0..1 -> "12.34%" (two decimals under 10%, one above) */
char          *embers_format_percent     (double      fraction);
/* signed: "+12.3%" / "−4.0%" */
char          *embers_format_signed_percent (double   fraction);

G_END_DECLS
