/* embers-test-server-spawn.c: start and stop embers-test-server from a test
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "embers-test-server-spawn.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include <gio/gio.h>

#include "../embers-test-wait.h"
#include <json-glib/json-glib.h>
#include <libsoup/soup.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

/* How long a server may take to say where it listens: only a safety net
 * (a server that hangs), as generous as the window tests' waits,
 * EMBERS_TEST_WAIT_LIMIT seconds (default 120) */
static guint
start_timeout_ms (void)
{
  return (guint)(embers_test_wait_limit () * 1000);
}
#define STOP_TIMEOUT_MS  5000
#define LISTENING_PREFIX "listening on "

struct _EmbersTestServer
{
  GSubprocess *process;
  char        *url;
  guint16      port;
};

typedef struct
{
  char     *line;
  GError   *error;
  gboolean  done;
  gboolean  timed_out;
} Wait;

const char *
embers_test_server_get_default_data_dir (void)
{
  return EMBERS_TEST_SERVER_DATA;
}

static const char *
server_path (void)
{
  const char *env = g_getenv ("EMBERS_TEST_SERVER");

  return env != NULL && env[0] != '\0' ? env : EMBERS_TEST_SERVER_PATH;
}

#ifdef __linux__
static void
child_setup (gpointer user_data)
{
  /* Dies with the test (a failed assertion aborts without stop). */
  prctl (PR_SET_PDEATHSIG, SIGKILL);
}
#endif

static void
on_line (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Wait *wait = user_data;

  wait->line = g_data_input_stream_read_line_finish_utf8 (G_DATA_INPUT_STREAM (object),
                                                          result, NULL, &wait->error);
  wait->done = TRUE;
}

static void
on_waited (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  Wait *wait = user_data;

  g_subprocess_wait_finish (G_SUBPROCESS (object), result, NULL);
  wait->done = TRUE;
}

static gboolean
on_timeout (gpointer user_data)
{
  Wait *wait = user_data;

  wait->timed_out = TRUE;
  return G_SOURCE_REMOVE;
}

/* Runs a private main context until wait is done or timeout_ms passed */
static void
run_until_done (GMainContext *context,
                Wait         *wait,
                guint         timeout_ms)
{
  GSource *timeout = g_timeout_source_new (timeout_ms);

  g_source_set_callback (timeout, on_timeout, wait, NULL);
  g_source_attach (timeout, context);
  while (!wait->done && !wait->timed_out)
    g_main_context_iteration (context, TRUE);
  g_source_destroy (timeout);
  g_source_unref (timeout);
}

/* Reads lines until "listening on URL" (the server prints nothing else on
 * stdout, but skip anything unexpected). */
static char *
read_url (GSubprocess *process,
          GError     **error)
{
  g_autoptr(GMainContext) context = g_main_context_new ();
  g_autoptr(GDataInputStream) in = NULL;
  gint64 deadline = g_get_monotonic_time () + (gint64)start_timeout_ms () * G_TIME_SPAN_MILLISECOND;

  in = g_data_input_stream_new (g_subprocess_get_stdout_pipe (process));
  g_main_context_push_thread_default (context);

  for (;;)
    {
      Wait wait = { 0 };
      gint64 left_ms = (deadline - g_get_monotonic_time ()) / G_TIME_SPAN_MILLISECOND;
      g_autoptr(GCancellable) cancellable = g_cancellable_new ();

      if (left_ms <= 0)
        left_ms = 1;
      g_data_input_stream_read_line_async (in, G_PRIORITY_DEFAULT, cancellable, on_line, &wait);
      run_until_done (context, &wait, left_ms);
      if (!wait.done)
        {
          /* Let the cancelled read finish before wait goes out of scope */
          g_cancellable_cancel (cancellable);
          wait.timed_out = FALSE;
          while (!wait.done)
            g_main_context_iteration (context, TRUE);
          g_clear_error (&wait.error);
          g_free (wait.line);
          g_main_context_pop_thread_default (context);
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
                       "embers-test-server did not say where it listens within %d s",
                       start_timeout_ms () / 1000);
          return NULL;
        }
      if (wait.error != NULL)
        {
          g_main_context_pop_thread_default (context);
          g_propagate_prefixed_error (error, wait.error, "embers-test-server: ");
          return NULL;
        }
      if (wait.line == NULL)
        {
          g_main_context_pop_thread_default (context);
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                       "embers-test-server exited before listening (see its messages above)");
          return NULL;
        }
      if (g_str_has_prefix (wait.line, LISTENING_PREFIX))
        {
          char *url = g_strdup (wait.line + strlen (LISTENING_PREFIX));

          g_free (wait.line);
          g_main_context_pop_thread_default (context);
          return url;
        }
      g_free (wait.line);
    }
}

static EmbersTestServer *spawn_server (const char         *path,
                                       const char * const *extra_args,
                                       gboolean            with_data,
                                       GError            **error);

EmbersTestServer *
embers_test_server_start (const char * const *extra_args,
                          GError            **error)
{
  return spawn_server (server_path (), extra_args, TRUE, error);
}

EmbersTestServer *
embers_hostile_server_start (GError **error)
{
  return spawn_server (EMBERS_HOSTILE_SERVER_PATH, NULL, FALSE, error);
}

static EmbersTestServer *
spawn_server (const char         *path,
              const char * const *extra_args,
              gboolean            with_data,
              GError            **error)
{
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GUri) uri = NULL;
  g_autofree char *url = NULL;
  gboolean has_data = !with_data;
  EmbersTestServer *self;

  g_ptr_array_add (argv, (char *) path);
  g_ptr_array_add (argv, (char *) "--port");
  g_ptr_array_add (argv, (char *) "0");
  for (guint i = 0; extra_args != NULL && extra_args[i] != NULL; i++)
    {
      if (g_str_equal (extra_args[i], "--data") || g_str_has_prefix (extra_args[i], "--data="))
        has_data = TRUE;
      g_ptr_array_add (argv, (char *) extra_args[i]);
    }
  if (!has_data)
    {
      g_ptr_array_add (argv, (char *) "--data");
      g_ptr_array_add (argv, (char *) EMBERS_TEST_SERVER_DATA);
    }
  g_ptr_array_add (argv, NULL);

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE);
#ifdef __linux__
  g_subprocess_launcher_set_child_setup (launcher, child_setup, NULL, NULL);
#endif
  process = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata, error);
  if (process == NULL)
    return NULL;

  url = read_url (process, error);
  if (url == NULL)
    {
      g_subprocess_force_exit (process);
      g_subprocess_wait (process, NULL, NULL);
      return NULL;
    }

  uri = g_uri_parse (url, G_URI_FLAGS_NONE, error);
  if (uri == NULL || g_uri_get_port (uri) <= 0)
    {
      if (uri != NULL)
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                     "embers-test-server printed a URL without a port: %s", url);
      g_subprocess_force_exit (process);
      g_subprocess_wait (process, NULL, NULL);
      return NULL;
    }

  self = g_new0 (EmbersTestServer, 1);
  self->process = g_steal_pointer (&process);
  self->url = g_steal_pointer (&url);
  self->port = g_uri_get_port (uri);
  return self;
}

const char *
embers_test_server_get_url (EmbersTestServer *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->url;
}

guint16
embers_test_server_get_port (EmbersTestServer *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->port;
}

void
embers_test_server_stop (EmbersTestServer *self)
{
  g_autoptr(GMainContext) context = NULL;
  Wait wait = { 0 };

  if (self == NULL)
    return;

  context = g_main_context_new ();
  g_main_context_push_thread_default (context);
  g_subprocess_send_signal (self->process, SIGTERM);
  g_subprocess_wait_async (self->process, NULL, on_waited, &wait);
  run_until_done (context, &wait, STOP_TIMEOUT_MS);
  if (!wait.done)
    {
      g_subprocess_force_exit (self->process);
      while (!wait.done)
        g_main_context_iteration (context, TRUE);
    }
  g_main_context_pop_thread_default (context);

  g_clear_object (&self->process);
  g_free (self->url);
  g_free (self);
}

char *
embers_test_server_control (EmbersTestServer *self,
                            const char       *method,
                            const char       *path,
                            const char       *json)
{
  g_autofree char *url = g_strconcat (self->url, path, NULL);
  g_autoptr(SoupSession) session = soup_session_new ();
  g_autoptr(SoupMessage) msg = soup_message_new (method, url);
  g_autoptr(GBytes) body = NULL;
  g_autoptr(GError) error = NULL;

  if (json != NULL)
    {
      g_autoptr(GBytes) request = g_bytes_new (json, strlen (json));

      soup_message_set_request_body_from_bytes (msg, "application/json", request);
    }
  body = soup_session_send_and_read (session, msg, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (soup_message_get_status (msg), ==, 200);
  return g_strndup (g_bytes_get_data (body, NULL), g_bytes_get_size (body));
}

gint64
embers_test_server_stat (EmbersTestServer *self,
                         const char       *table,
                         const char       *path)
{
  g_autofree char *text = embers_test_server_control (self, "GET", "embers-test/stats", NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *o;

  json_parser_load_from_data (parser, text, -1, &error);
  g_assert_no_error (error);
  o = json_object_get_object_member (json_node_get_object (json_parser_get_root (parser)), table);
  g_assert_nonnull (o);
  return json_object_get_int_member_with_default (o, path, 0);
}
