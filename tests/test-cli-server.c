/* test-cli-server.c: `embers` on the command line against servers: the
 * test server (timeouts), profiles pushed by real SDKs, and hostile
 * servers.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <string.h>

#include <gio/gio.h>

#include "embers-test-server-spawn.h"

#define CPU "process_cpu:cpu:nanoseconds:cpu:nanoseconds"

typedef struct
{
  int     status;     /* exit status, -1 when killed for taking too long */
  char   *out;
  char   *err;
  double  seconds;
} Run;

static void
run_free (Run *run)
{
  g_free (run->out);
  g_free (run->err);
  g_free (run);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Run, run_free)

static gboolean
on_too_long (gpointer user_data)
{
  g_subprocess_force_exit (user_data);
  return G_SOURCE_REMOVE;
}

/* Runs embers with args (NULL-terminated) and env ("NAME=value", NULL-
 * terminated, added to the environment); killed after limit_s */
static Run *
run_embers (const char * const *args,
            const char * const *env,
            guint               limit_s)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                                                      G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) out = NULL;
  g_autoptr(GBytes) err = NULL;
  GSource *timer;
  Run *run = g_new0 (Run, 1);
  gint64 t0 = g_get_monotonic_time ();

  g_ptr_array_add (argv, (gpointer) EMBERS_BINARY);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  g_subprocess_launcher_unsetenv (launcher, "EMBERS_TIMEOUT");
  g_subprocess_launcher_unsetenv (launcher, "EMBERS_TOKEN");
  g_subprocess_launcher_unsetenv (launcher, "EMBERS_USER");
  g_subprocess_launcher_unsetenv (launcher, "EMBERS_PASSWORD");
  g_subprocess_launcher_unsetenv (launcher, "EMBERS_TENANT");
  /* No keyring from here */
  g_subprocess_launcher_setenv (launcher, "DBUS_SESSION_BUS_ADDRESS", "disabled:", TRUE);
  for (guint i = 0; env != NULL && env[i] != NULL; i++)
    {
      g_auto(GStrv) pair = g_strsplit (env[i], "=", 2);
      g_subprocess_launcher_setenv (launcher, pair[0], pair[1], TRUE);
    }

  process = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata, &error);
  g_assert_no_error (error);
  timer = g_timeout_source_new_seconds (limit_s);
  g_source_set_callback (timer, on_too_long, process, NULL);
  g_source_attach (timer, NULL);
  g_subprocess_communicate (process, NULL, NULL, &out, &err, &error);
  g_assert_no_error (error);
  g_subprocess_wait (process, NULL, NULL);
  g_source_destroy (timer);
  g_source_unref (timer);

  run->seconds = (g_get_monotonic_time () - t0) / 1e6;
  run->status = g_subprocess_get_if_exited (process) ? g_subprocess_get_exit_status (process) : -1;
  run->out = g_strndup (g_bytes_get_size (out) > 0 ? g_bytes_get_data (out, NULL) : "", g_bytes_get_size (out));
  run->err = g_strndup (g_bytes_get_size (err) > 0 ? g_bytes_get_data (err, NULL) : "", g_bytes_get_size (err));
  return run;
}

static char *
query_url (const char *base,
           const char *type,
           const char *selector)
{
  g_autofree char *escaped = g_uri_escape_string (selector, NULL, FALSE);

  return g_strdup_printf ("%s?query=%s%s&from=now-1h&until=now", base, type, escaped);
}

/* ---- timeouts ------------------------------------------------------------ */

/* --timeout and EMBERS_TIMEOUT bound the wait for a slow server, and the
 * message names them */
static void
test_timeout (void)
{
  /* A proxy that answers after 30 s */
  const char *slow_args[] = { "--fault-delay-ms", "30000", "--fault-http", "502", NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersTestServer) slow = embers_test_server_start (slow_args, &error);
  g_autofree char *url = NULL;
  g_autoptr(Run) option = NULL;
  g_autoptr(Run) variable = NULL;
  g_autoptr(Run) bad_variable = NULL;
  g_autoptr(Run) bad_option = NULL;

  g_assert_no_error (error);
  url = query_url (embers_test_server_get_url (slow), CPU, "{}");

  option = run_embers ((const char *[]) { "--top", "--timeout=1", url, NULL }, NULL, 60);
  g_test_message ("--timeout=1: exit %d after %.2f s: %s", option->status, option->seconds, option->err);
  g_assert_cmpint (option->status, ==, 1);
  g_assert_cmpfloat (option->seconds, <, 25);
  g_assert_nonnull (strstr (option->err, "deadline exceeded"));
  g_assert_nonnull (strstr (option->err, "--timeout=SECONDS or EMBERS_TIMEOUT"));
  g_assert_cmpstr (option->out, ==, "");

  variable = run_embers ((const char *[]) { "--top", url, NULL }, (const char *[]) { "EMBERS_TIMEOUT=2", NULL }, 60);
  g_assert_cmpint (variable->status, ==, 1);
  g_assert_cmpfloat (variable->seconds, <, 25);
  g_assert_nonnull (strstr (variable->err, "within 2 s"));

  bad_variable = run_embers ((const char *[]) { "--top", url, NULL }, (const char *[]) { "EMBERS_TIMEOUT=soon", NULL }, 60);
  g_assert_cmpint (bad_variable->status, ==, 1);
  g_assert_nonnull (strstr (bad_variable->err, "EMBERS_TIMEOUT"));

  bad_option = run_embers ((const char *[]) { "--top", "--timeout=-3", url, NULL }, NULL, 60);
  g_assert_cmpint (bad_option->status, ==, 1);
  g_assert_nonnull (strstr (bad_option->err, "--timeout"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/embers/cli-server/timeout", test_timeout);

  return g_test_run ();
}
