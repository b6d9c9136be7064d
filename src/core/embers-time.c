/* embers-time.c: dates and times as people read them here
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <locale.h>
#include <string.h>
#include <glib.h>
#include <glib/gi18n.h>
#ifdef G_OS_UNIX
#include <langinfo.h>
#endif

#include "embers-time.h"

static int clock_format = EMBERS_CLOCK_FORMAT_LOCALE;   /* atomic */

void
embers_time_set_clock_format (EmbersClockFormat format)
{
  g_atomic_int_set (&clock_format, format);
}

EmbersClockFormat
embers_time_get_clock_format (void)
{
  return g_atomic_int_get (&clock_format);
}

/* The C and POSIX locales: no national convention, ISO 8601 and 24 hours */
static gboolean
is_c_locale (void)
{
  const char *name = setlocale (LC_TIME, NULL);

  return name == NULL || g_str_equal (name, "C") || g_str_equal (name, "POSIX") ||
         g_str_has_prefix (name, "C.");
}

gboolean
embers_time_uses_12h (void)
{
  switch (embers_time_get_clock_format ())
    {
    case EMBERS_CLOCK_FORMAT_12H:
      return TRUE;
    case EMBERS_CLOCK_FORMAT_24H:
      return FALSE;
    case EMBERS_CLOCK_FORMAT_LOCALE:
    default:
      break;
    }

  if (is_c_locale ())
    return FALSE;
#ifdef G_OS_UNIX
  {
    const char *t_fmt = nl_langinfo (T_FMT);

    return strstr (t_fmt, "%r") != NULL || strstr (t_fmt, "%I") != NULL ||
           strstr (t_fmt, "%l") != NULL || strstr (t_fmt, "%p") != NULL;
  }
#else
  return FALSE;
#endif
}

/* The locale's AM or PM, or ours where it has none (German: the desktop
 * asks for 12 hours, the locale never writes them) */
static char *
am_pm (GDateTime *dt)
{
  gboolean pm = g_date_time_get_hour (dt) >= 12;
  const char *text = NULL;

#ifdef G_OS_UNIX
  text = nl_langinfo (pm ? PM_STR : AM_STR);
#endif
  if (text == NULL || text[0] == '\0')
    /* Translators: before and after noon in a 12-hour time, "2:03 PM" */
    text = pm ? C_("12-hour time", "PM") : C_("12-hour time", "AM");
  return g_locale_to_utf8 (text, -1, NULL, NULL, NULL) ?: g_strdup (pm ? "PM" : "AM");
}

char *
embers_time_format_time (GDateTime *dt,
                         gboolean   seconds)
{
  g_autofree char *clock = NULL;
  g_autofree char *marker = NULL;

  g_return_val_if_fail (dt != NULL, NULL);

  if (!embers_time_uses_12h ())
    return g_date_time_format (dt, seconds ? "%H:%M:%S" : "%H:%M");

  clock = g_date_time_format (dt, seconds ? "%-I:%M:%S" : "%-I:%M");
  marker = am_pm (dt);
  /* Translators: a 12-hour time: the first %s is "2:03", the second "PM";
   * put them in your language's order */
  return g_strdup_printf (C_("12-hour time", "%s %s"), clock, marker);
}

char *
embers_time_format_date (GDateTime *dt)
{
  char *date;

  g_return_val_if_fail (dt != NULL, NULL);

  if (is_c_locale ())
    return g_date_time_format (dt, "%Y-%m-%d");
  date = g_date_time_format (dt, "%x");
  return date != NULL ? date : g_date_time_format (dt, "%Y-%m-%d");
}

char *
embers_time_format_date_time (GDateTime *dt,
                              gboolean   seconds)
{
  g_autofree char *date = NULL;
  g_autofree char *time = NULL;

  g_return_val_if_fail (dt != NULL, NULL);

  date = embers_time_format_date (dt);
  time = embers_time_format_time (dt, seconds);
  /* Translators: a date and a time, "25.11.2026 14:03" */
  return g_strdup_printf (C_("date and time", "%s %s"), date, time);
}
