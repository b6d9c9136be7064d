/* embers-units.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <glib/gi18n.h>

#include "embers-units.h"

EmbersUnitKind
embers_unit_kind (const char *unit,
                  gint64     *multiplier)
{
  static const struct {
    const char     *name;
    EmbersUnitKind  kind;
    gint64          multiplier;
  } units[] = {
    { "nanoseconds",  EMBERS_UNIT_KIND_NANOSECONDS, 1 },
    { "nanosecond",   EMBERS_UNIT_KIND_NANOSECONDS, 1 },
    { "ns",           EMBERS_UNIT_KIND_NANOSECONDS, 1 },
    { "microseconds", EMBERS_UNIT_KIND_NANOSECONDS, 1000 },
    { "us",           EMBERS_UNIT_KIND_NANOSECONDS, 1000 },
    { "milliseconds", EMBERS_UNIT_KIND_NANOSECONDS, 1000000 },
    { "ms",           EMBERS_UNIT_KIND_NANOSECONDS, 1000000 },
    { "seconds",      EMBERS_UNIT_KIND_NANOSECONDS, 1000000000 },
    { "s",            EMBERS_UNIT_KIND_NANOSECONDS, 1000000000 },
    { "bytes",        EMBERS_UNIT_KIND_BYTES, 1 },
    { "byte",         EMBERS_UNIT_KIND_BYTES, 1 },
    { "B",            EMBERS_UNIT_KIND_BYTES, 1 },
    { "kilobytes",    EMBERS_UNIT_KIND_BYTES, 1024 },
    { "megabytes",    EMBERS_UNIT_KIND_BYTES, 1024 * 1024 },
  };
  gint64 dummy;

  if (multiplier == NULL)
    multiplier = &dummy;
  *multiplier = 1;

  if (unit == NULL)
    return EMBERS_UNIT_KIND_COUNT;

  for (guint i = 0; i < G_N_ELEMENTS (units); i++)
    {
      if (g_ascii_strcasecmp (unit, units[i].name) == 0)
        {
          *multiplier = units[i].multiplier;
          return units[i].kind;
        }
    }

  return EMBERS_UNIT_KIND_COUNT;
}

static char *
format_count (gint64 value)
{
  /* Thousands separators from the locale ("%'"), digits only. */
  return g_strdup_printf ("%'" G_GINT64_FORMAT, value);
}

static char *
format_duration (double ns)
{
  double a = fabs (ns);

  if (a < 1000.0)
    /* Translators: a duration in nanoseconds */
    return g_strdup_printf (_("%.0f ns"), ns);
  if (a < 1000.0 * 1000.0)
    /* Translators: a duration in microseconds */
    return g_strdup_printf (_("%.2f µs"), ns / 1e3);
  if (a < 1e9)
    /* Translators: a duration in milliseconds */
    return g_strdup_printf (_("%.2f ms"), ns / 1e6);
  if (a < 60e9)
    /* Translators: a duration in seconds */
    return g_strdup_printf (_("%.2f s"), ns / 1e9);
  if (a < 3600e9)
    /* Translators: a duration in minutes */
    return g_strdup_printf (_("%.2f min"), ns / 60e9);
  /* Translators: a duration in hours */
  return g_strdup_printf (_("%.2f h"), ns / 3600e9);
}

static char *
format_bytes (double bytes)
{
  static const char *suffixes[] = { "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
  double a = fabs (bytes);
  guint i = 0;

  if (a < 1024.0)
    /* Translators: a size in bytes */
    return g_strdup_printf (_("%.0f B"), bytes);

  a /= 1024.0;
  bytes /= 1024.0;
  while (a >= 1024.0 && i + 1 < G_N_ELEMENTS (suffixes))
    {
      a /= 1024.0;
      bytes /= 1024.0;
      i++;
    }

  return g_strdup_printf ("%.2f %s", bytes, suffixes[i]);
}

/**
 * embers_format_value:
 * @unit: the sample unit, as in the profile
 *
 * Returns: (transfer full): the value for people: "12.34 ms", "4.50 MiB",
 *   "1,234" (counts keep every digit)
 */
char *
embers_format_value (gint64      value,
                     const char *unit)
{
  gint64 multiplier = 1;
  EmbersUnitKind kind = embers_unit_kind (unit, &multiplier);

  switch (kind)
    {
    case EMBERS_UNIT_KIND_NANOSECONDS:
      return format_duration ((double)value * (double)multiplier);

    case EMBERS_UNIT_KIND_BYTES:
      return format_bytes ((double)value * (double)multiplier);

    case EMBERS_UNIT_KIND_COUNT:
    default:
      return format_count (value);
    }
}

char *
embers_format_percent (double fraction)
{
  double p = fraction * 100.0;

  if (!isfinite (p))
    return g_strdup ("–");
  if (fabs (p) < 10.0)
    return g_strdup_printf ("%.2f%%", p);
  return g_strdup_printf ("%.1f%%", p);
}

char *
embers_format_signed_percent (double fraction)
{
  double p = fraction * 100.0;

  if (!isfinite (p))
    return g_strdup ("–");
  if (p > 0)
    return g_strdup_printf (fabs (p) < 10.0 ? "+%.2f%%" : "+%.1f%%", p);
  if (p < 0)
    /* U+2212 MINUS SIGN reads better than a hyphen */
    return g_strdup_printf (fabs (p) < 10.0 ? "−%.2f%%" : "−%.1f%%", -p);
  return g_strdup ("0%");
}
