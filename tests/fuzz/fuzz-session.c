/* fuzz-session.c: libFuzzer target for view files (.embers) and the
 * transform stacks they hold
 *
 * Each input is parsed as a view file. Whatever parses must write out as
 * a file that parses again to the same view, writes again to the same
 * bytes, and holds no credential; a failure must set a GError in the
 * session domain with a UTF-8 message.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "embers-session.h"

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

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersSession) session = NULL;
  g_autoptr(EmbersSession) again = NULL;
  g_autofree char *text = NULL;
  g_autofree char *text_again = NULL;
  gsize length = 0;

  session = embers_session_parse ((const char *)data, size, NULL, &error);
  if (session == NULL)
    {
      if (error == NULL || error->domain != EMBERS_SESSION_ERROR)
        fuzz_fail ("a failure without a session error");
      if (error->message == NULL || error->message[0] == '\0' || !g_utf8_validate (error->message, -1, NULL))
        fuzz_fail ("an error without a readable message");
      return 0;
    }

  text = embers_session_to_data (session, &length);
  if (session->server != NULL)
    {
      /* What is kept has no user information, query or fragment (an @ in
       * the path, after the host, is a path) */
      g_autoptr(GUri) uri = g_uri_parse (session->server, G_URI_FLAGS_ENCODED, NULL);

      if (uri == NULL)
        fuzz_fail ("the server URL kept does not parse: %s", session->server);
      if (g_uri_get_userinfo (uri) != NULL || g_uri_get_query (uri) != NULL || g_uri_get_fragment (uri) != NULL)
        fuzz_fail ("a server URL with user information, query or fragment was kept: %s", session->server);
    }
  again = embers_session_parse (text, length, NULL, &error);
  if (again == NULL)
    fuzz_fail ("what was written does not parse: %s\n%s", error->message, text);
  text_again = embers_session_to_data (again, NULL);
  if (strcmp (text, text_again) != 0)
    fuzz_fail ("written twice, two texts:\n%s\n%s", text, text_again);
  if (!embers_transform_stack_equal (session->transforms, again->transforms))
    fuzz_fail ("the transform stack changed on the way");
  return 0;
}
