/* embers-test-wait.h: waiting for a condition, never for a time (GLib
 * only, for every test that runs a main loop)
 *
 * embers_test_wait_while (condition) iterates the default main context
 * while the expression holds. The only clock is a safety net: after
 * EMBERS_TEST_WAIT_LIMIT seconds (default 120) the wait fails the test,
 * naming the expression and where it is, so a busy machine slows a test
 * down but does not make it fail, and a hang ends with a message.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The safety limit, in seconds */
static inline double
embers_test_wait_limit (void)
{
  const char *env = g_getenv ("EMBERS_TEST_WAIT_LIMIT");
  double limit = env != NULL ? g_ascii_strtod (env, NULL) : 0;

  return limit > 0 ? limit : 120;
}

typedef struct
{
  char  *what;
  gint64 end;
  guint  awake;
} EmbersTestWait;

static inline gboolean
embers_test_wait_keep_awake_ (gpointer data)
{
  return G_SOURCE_CONTINUE;
}

static inline EmbersTestWait *
embers_test_wait_begin (const char *what,
                        const char *file,
                        int         line)
{
  EmbersTestWait *wait = g_new0 (EmbersTestWait, 1);

  wait->what = g_strdup_printf ("%s (%s:%d)", what, file, line);
  wait->end = g_get_monotonic_time () + (gint64)(embers_test_wait_limit () * G_USEC_PER_SEC);
  /* Wakes the loop now and then, so that a condition nothing signals
   * (another process, a thread) is looked at again and the safety limit
   * is checked; it does not pace the wait */
  wait->awake = g_timeout_add (250, embers_test_wait_keep_awake_, NULL);
  return wait;
}

static inline void
embers_test_wait_step (EmbersTestWait *wait)
{
  if (g_get_monotonic_time () > wait->end)
    g_error ("gave up waiting for %s after %.0f s", wait->what, embers_test_wait_limit ());
  g_main_context_iteration (NULL, TRUE);
}

static inline void
embers_test_wait_end (EmbersTestWait *wait)
{
  g_source_remove (wait->awake);
  g_free (wait->what);
  g_free (wait);
}

/* While the expression @condition is true */
#define embers_test_wait_while(condition) \
  G_STMT_START { \
    EmbersTestWait *embers_test_wait_ = embers_test_wait_begin ("not " #condition, __FILE__, __LINE__); \
    while (condition) \
      embers_test_wait_step (embers_test_wait_); \
    embers_test_wait_end (embers_test_wait_); \
  } G_STMT_END

/* Until the expression @condition is true */
#define embers_test_wait_for(condition) \
  G_STMT_START { \
    EmbersTestWait *embers_test_wait_ = embers_test_wait_begin (#condition, __FILE__, __LINE__); \
    while (!(condition)) \
      embers_test_wait_step (embers_test_wait_); \
    embers_test_wait_end (embers_test_wait_); \
  } G_STMT_END

G_END_DECLS
