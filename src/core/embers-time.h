/* embers-time.h: dates and times as people read them here
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * EmbersClockFormat:
 * @EMBERS_CLOCK_FORMAT_LOCALE: as the locale writes times (12-hour where
 *   its time format is: en_US, ja_JP…)
 * @EMBERS_CLOCK_FORMAT_24H: 14:03, whatever the locale
 * @EMBERS_CLOCK_FORMAT_12H: 2:03 PM, whatever the locale
 *
 * The desktop's choice (org.gnome.desktop.interface clock-format), which
 * the application passes on when it has one.
 */
typedef enum
{
  EMBERS_CLOCK_FORMAT_LOCALE,
  EMBERS_CLOCK_FORMAT_24H,
  EMBERS_CLOCK_FORMAT_12H,
} EmbersClockFormat;

void              embers_time_set_clock_format (EmbersClockFormat format);
EmbersClockFormat embers_time_get_clock_format (void);
/* Whether times are shown with AM/PM: the clock format, or the locale's */
gboolean          embers_time_uses_12h         (void);

/* "14:03", "14:03:05", "2:03 PM", "2:03:05 PM" */
char             *embers_time_format_time      (GDateTime *dt,
                                                gboolean   seconds);
/* The locale's date: "25.11.2026", "11/25/2026"; ISO 8601 (2026-11-25) in
 * the C locale, which has no national convention */
char             *embers_time_format_date      (GDateTime *dt);
/* The date, then the time */
char             *embers_time_format_date_time (GDateTime *dt,
                                                gboolean   seconds);

G_END_DECLS
