/* fuzz-selector.c: libFuzzer target for the label selector parsers
 * (what a user types in a filter and what a server sends in a recording
 * rule's matchers).
 *
 * Each input is parsed as a selector, as one Prometheus metric selector
 * and as a list of matcher strings (split at newlines). Whatever parses
 * must print as text that parses again to the same text, and a failure
 * must set a GError in the selector domain with a message.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "embers-selector.h"

int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

#define fuzz_fail(...) \
  G_STMT_START { \
    fprintf (stderr, "fuzz invariant broken: " __VA_ARGS__); \
    fputc ('\n', stderr); \
    abort (); \
  } G_STMT_END

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  /* A critical or warning from hostile input is a bug in the parser */
  g_log_set_always_fatal (G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING);
  return 0;
}

static void
check_error (const char   *what,
             const GError *error)
{
  if (error == NULL)
    fuzz_fail ("%s failed without setting a GError", what);
  if (error->domain != EMBERS_SELECTOR_ERROR)
    fuzz_fail ("%s: error in domain %s: %s", what, g_quark_to_string (error->domain), error->message);
  if (error->message == NULL || error->message[0] == '\0')
    fuzz_fail ("%s: an error without a message", what);
  if (!g_utf8_validate (error->message, -1, NULL))
    fuzz_fail ("%s: the error message is not UTF-8", what);
}

/* What a selector prints parses back as the same selector */
static void
check_round_trip (const char     *what,
                  EmbersSelector *selector)
{
  g_autofree char *text = embers_selector_to_string (selector);
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersSelector) again = NULL;
  g_autofree char *text_again = NULL;

  if (!g_utf8_validate (text, -1, NULL))
    fuzz_fail ("%s: printed as non-UTF-8", what);
  again = embers_selector_parse (text, NULL, &error);
  if (again == NULL)
    fuzz_fail ("%s: printed as “%s”, which does not parse: %s", what, text, error->message);
  if (embers_selector_get_n_matchers (again) != embers_selector_get_n_matchers (selector))
    fuzz_fail ("%s: “%s” parses to %u matchers, not %u", what, text,
               embers_selector_get_n_matchers (again), embers_selector_get_n_matchers (selector));
  text_again = embers_selector_to_string (again);
  if (strcmp (text, text_again) != 0)
    fuzz_fail ("%s: “%s” prints again as “%s”", what, text, text_again);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree char *text = g_strndup ((const char *)data, size);
  g_auto(GStrv) lines = NULL;

  /* Only C strings reach the parsers */
  if (memchr (data, '\0', size) != NULL)
    return 0;

  {
    g_autoptr(GError) error = NULL;
    g_autofree char *metric = NULL;
    g_autoptr(EmbersSelector) selector = embers_selector_parse (text, &metric, &error);

    if (selector == NULL)
      check_error ("embers_selector_parse", error);
    else
      check_round_trip ("embers_selector_parse", selector);
  }
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(EmbersSelector) selector = embers_selector_parse_metric_selector (text, &error);

    if (selector == NULL)
      check_error ("embers_selector_parse_metric_selector", error);
    else
      check_round_trip ("embers_selector_parse_metric_selector", selector);
  }
  lines = g_strsplit (text, "\n", 16);
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(EmbersSelector) selector = embers_selector_parse_matchers ((const char * const *)lines, &error);

    if (selector == NULL)
      check_error ("embers_selector_parse_matchers", error);
    else
      check_round_trip ("embers_selector_parse_matchers", selector);
  }
  return 0;
}
