/* test-time.c: dates and times in the locale's format and the desktop's
 * 12 or 24 hours, checked in German and American English
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <locale.h>
#include <string.h>
#include <glib.h>

#include "embers-chart.h"
#include "embers-time.h"

static GDateTime *
afternoon (void)
{
  return g_date_time_new_local (2026, 11, 25, 14, 3, 5);
}

static gboolean
use_locale (const char *name)
{
  if (setlocale (LC_ALL, name) == NULL)
    {
      g_test_skip_printf ("no locale %s", name);
      return FALSE;
    }
  return TRUE;
}

static void
check (EmbersClockFormat format,
       const char       *time,
       const char       *time_seconds,
       const char       *date_time)
{
  g_autoptr(GDateTime) dt = afternoon ();
  g_autofree char *t = NULL, *ts = NULL, *dts = NULL;

  embers_time_set_clock_format (format);
  t = embers_time_format_time (dt, FALSE);
  ts = embers_time_format_time (dt, TRUE);
  dts = embers_time_format_date_time (dt, FALSE);
  g_assert_cmpstr (t, ==, time);
  g_assert_cmpstr (ts, ==, time_seconds);
  g_assert_cmpstr (dts, ==, date_time);
}

static void
test_german (void)
{
  if (!use_locale ("de_DE.UTF-8"))
    return;
  /* The locale writes 24 hours and 25.11.2026 */
  check (EMBERS_CLOCK_FORMAT_LOCALE, "14:03", "14:03:05", "25.11.2026 14:03");
  check (EMBERS_CLOCK_FORMAT_24H, "14:03", "14:03:05", "25.11.2026 14:03");
  /* The desktop asks for 12 hours; German has no AM/PM of its own: ours */
  check (EMBERS_CLOCK_FORMAT_12H, "2:03 PM", "2:03:05 PM", "25.11.2026 2:03 PM");
  g_assert_false ((embers_time_set_clock_format (EMBERS_CLOCK_FORMAT_LOCALE), embers_time_uses_12h ()));
  setlocale (LC_ALL, "C.UTF-8");
}

static void
test_american (void)
{
  if (!use_locale ("en_US.UTF-8"))
    return;
  check (EMBERS_CLOCK_FORMAT_LOCALE, "2:03 PM", "2:03:05 PM", "11/25/2026 2:03 PM");
  check (EMBERS_CLOCK_FORMAT_24H, "14:03", "14:03:05", "11/25/2026 14:03");
  check (EMBERS_CLOCK_FORMAT_12H, "2:03 PM", "2:03:05 PM", "11/25/2026 2:03 PM");
  {
    g_autoptr(GDateTime) morning = g_date_time_new_local (2026, 11, 25, 0, 30, 0);
    g_autofree char *text = NULL;

    embers_time_set_clock_format (EMBERS_CLOCK_FORMAT_12H);
    text = embers_time_format_time (morning, FALSE);
    g_assert_cmpstr (text, ==, "12:30 AM");
  }
  setlocale (LC_ALL, "C.UTF-8");
}

/* The C locale: ISO 8601 dates and 24 hours */
static void
test_c (void)
{
  if (!use_locale ("C.UTF-8"))
    return;
  check (EMBERS_CLOCK_FORMAT_LOCALE, "14:03", "14:03:05", "2026-11-25 14:03");
}

/* A chart's tooltip says when, in the locale's words and the desktop's
 * hours */
static void
test_chart (void)
{
  g_autoptr(GDateTime) dt = afternoon ();
  gint64 ms = g_date_time_to_unix (dt) * 1000;
  g_autoptr(GPtrArray) series = g_ptr_array_new_with_free_func ((GDestroyNotify) embers_series_free);
  g_autoptr(EmbersChart) chart = embers_chart_new (EMBERS_CHART_KIND_LINES);
  EmbersSeries *s = embers_series_new ();
  g_autofree char *de = NULL, *us = NULL;

  s->n_points = 2;
  s->timestamps = g_memdup2 ((gint64[]) { ms - 60000, ms }, 2 * sizeof (gint64));
  s->values = g_memdup2 ((double[]) { 1, 2 }, 2 * sizeof (double));
  g_ptr_array_add (series, s);
  embers_chart_set_series (chart, series, NULL);
  embers_chart_set_step (chart, 60000);

  if (!use_locale ("de_DE.UTF-8"))
    return;
  embers_time_set_clock_format (EMBERS_CLOCK_FORMAT_24H);
  de = embers_chart_describe (chart, 0, 1);
  if (strstr (de, "25.11.2026 14:02:05–14:03:05") == NULL)
    g_error ("German: %s", de);

  if (!use_locale ("en_US.UTF-8"))
    return;
  embers_time_set_clock_format (EMBERS_CLOCK_FORMAT_12H);
  us = embers_chart_describe (chart, 0, 1);
  if (strstr (us, "11/25/2026 2:02:05 PM–2:03:05 PM") == NULL)
    g_error ("American: %s", us);
  setlocale (LC_ALL, "C.UTF-8");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/embers/time/german", test_german);
  g_test_add_func ("/embers/time/american", test_american);
  g_test_add_func ("/embers/time/c", test_c);
  g_test_add_func ("/embers/time/chart", test_chart);
  return g_test_run ();
}
