/* test-cli-server.c: `embers` on the command line against servers: the
 * test server (timeouts), profiles pushed by real SDKs, and hostile
 * servers.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <string.h>

#include <gio/gio.h>
#include <glib/gstdio.h>

#include "embers-test-server-spawn.h"
#include "embers-test-wait.h"

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
 * terminated, added to the environment); killed after limit_s, or
 * EMBERS_TEST_WAIT_LIMIT seconds when that is longer (a safety net for a
 * hang: a busy machine only makes a run slower) */
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
  timer = g_timeout_source_new_seconds (MAX (limit_s, (guint) embers_test_wait_limit ()));
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
  /* A proxy that answers after 10 minutes, long after any timeout here */
  const char *slow_args[] = { "--fault-delay-ms", "600000", "--fault-http", "502", NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersTestServer) slow = embers_test_server_start (slow_args, &error);
  g_autofree char *url = NULL;
  g_autoptr(Run) option = NULL;
  g_autoptr(Run) variable = NULL;
  g_autoptr(Run) bad_variable = NULL;
  g_autoptr(Run) bad_option = NULL;

  g_assert_no_error (error);
  url = query_url (embers_test_server_get_url (slow), CPU, "{}");

  option = run_embers ((const char *[]) { "--top", "--format=tsv", "--timeout=1", url, NULL }, NULL, 60);
  g_test_message ("--timeout=1: exit %d after %.2f s: %s", option->status, option->seconds, option->err);
  g_assert_cmpint (option->status, ==, 1);
  /* The option's timeout, not the default: the message names it (the time
   * it took is a figure above: a busy machine takes longer to say so) */
  g_assert_nonnull (strstr (option->err, "deadline exceeded"));
  g_assert_nonnull (strstr (option->err, "within 1 s"));
  g_assert_nonnull (strstr (option->err, "--timeout=SECONDS or EMBERS_TIMEOUT"));
  g_assert_cmpstr (option->out, ==, "");

  variable = run_embers ((const char *[]) { "--top", "--format=tsv", url, NULL }, (const char *[]) { "EMBERS_TIMEOUT=2", NULL }, 60);
  g_assert_cmpint (variable->status, ==, 1);
  g_assert_nonnull (strstr (variable->err, "within 2 s"));

  bad_variable = run_embers ((const char *[]) { "--top", "--format=tsv", url, NULL }, (const char *[]) { "EMBERS_TIMEOUT=soon", NULL }, 60);
  g_assert_cmpint (bad_variable->status, ==, 1);
  g_assert_nonnull (strstr (bad_variable->err, "EMBERS_TIMEOUT"));

  bad_option = run_embers ((const char *[]) { "--top", "--format=tsv", "--timeout=-3", url, NULL }, NULL, 60);
  g_assert_cmpint (bad_option->status, ==, 1);
  g_assert_nonnull (strstr (bad_option->err, "--timeout"));
}

/* ---- real SDKs ------------------------------------------------------------- */

/* Runs argv in dir with env added; TRUE when it exits 0 within limit_s */
static gboolean
run_tool (const char * const *argv,
          const char         *dir,
          const char * const *env,
          guint               limit_s,
          char              **output)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                                                      G_SUBPROCESS_FLAGS_STDERR_MERGE);
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  GSource *timer;

  g_subprocess_launcher_set_cwd (launcher, dir);
  for (guint i = 0; env != NULL && env[i] != NULL; i++)
    {
      g_auto(GStrv) pair = g_strsplit (env[i], "=", 2);
      g_subprocess_launcher_setenv (launcher, pair[0], pair[1], TRUE);
    }
  process = g_subprocess_launcher_spawnv (launcher, argv, &error);
  if (process == NULL)
    {
      *output = g_strdup (error->message);
      return FALSE;
    }
  timer = g_timeout_source_new_seconds (MAX (limit_s, (guint) embers_test_wait_limit ()));
  g_source_set_callback (timer, on_too_long, process, NULL);
  g_source_attach (timer, NULL);
  g_subprocess_communicate_utf8 (process, NULL, NULL, &out, NULL, NULL);
  g_subprocess_wait (process, NULL, NULL);
  g_source_destroy (timer);
  g_source_unref (timer);
  *output = g_steal_pointer (&out);
  return g_subprocess_get_if_exited (process) && g_subprocess_get_exit_status (process) == 0;
}

/* The official Node SDK (@pyroscope/nodejs from npm) pushes a small
 * program's profiles to the test server; `embers --top` on a query URL,
 * on a /pyroscope/render URL and through its dotted tags (stored as
 * process_runtime_name, as Pyroscope 1.x stores them) shows that
 * program's functions */
static void
test_node_sdk (void)
{
  g_autofree char *node = g_find_program_in_path ("node");
  g_autofree char *npm = g_find_program_in_path ("npm");
  g_autofree char *sdk_dir = g_build_filename (SDK_BUILDDIR, "sdk-node", NULL);
  g_autofree char *package = g_build_filename (sdk_dir, "node_modules", "@pyroscope", "nodejs", NULL);
  g_autofree char *modules = g_build_filename (sdk_dir, "node_modules", NULL);
  g_autofree char *program = g_build_filename (TEST_SRCDIR, "sdk", "node-push.js", NULL);
  g_autofree char *node_path = g_strconcat ("NODE_PATH=", modules, NULL);
  g_autofree char *output = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersTestServer) server = NULL;
  g_autofree char *base = NULL;
  static const char *wall = "wall:wall:nanoseconds:wall:nanoseconds";

  if (node == NULL || npm == NULL)
    {
      g_test_skip ("node and npm are not installed (Debian: nodejs, npm)");
      return;
    }
  if (!g_file_test (package, G_FILE_TEST_IS_DIR))
    {
      const char *argv[] = { npm, "install", "--no-audit", "--no-fund", "--prefix", sdk_dir,
                             "@pyroscope/nodejs@0.6", NULL };

      g_mkdir_with_parents (sdk_dir, 0755);
      if (!run_tool (argv, sdk_dir, NULL, 300, &output))
        {
          g_test_message ("npm install: %s", output);
          g_test_skip ("npm could not install @pyroscope/nodejs (no registry?)");
          return;
        }
      g_clear_pointer (&output, g_free);
    }

  server = embers_test_server_start (NULL, &error);
  g_assert_no_error (error);
  base = g_strndup (embers_test_server_get_url (server), strlen (embers_test_server_get_url (server)) - 1);
  {
    const char *argv[] = { node, program, base, "4", NULL };
    gboolean ok = run_tool (argv, sdk_dir, (const char *[]) { node_path, NULL }, 120, &output);

    g_test_message ("node: %s", output);
    g_assert_true (ok);
  }

  {
    g_autofree char *url = query_url (embers_test_server_get_url (server), wall, "{service_name=\"embers-node-sdk\"}");
    g_autofree char *render = g_strdup_printf ("%s/pyroscope/render?query=%s%%7Bservice_name%%3D%%22embers-node-sdk%%22%%7D"
                                               "&from=now-10m&to=now", base, wall);
    g_autofree char *dotted = query_url (embers_test_server_get_url (server), wall,
                                         "{service_name=\"embers-node-sdk\",process_runtime_name=\"nodejs\"}");
    const char *urls[] = { url, render, dotted };

    for (guint i = 0; i < G_N_ELEMENTS (urls); i++)
      {
        g_autoptr(Run) top = run_embers ((const char *[]) { "--top=100", "--format=tsv", urls[i], NULL }, NULL, 60);

        g_test_message ("%s: exit %d %s", urls[i], top->status, top->err);
        g_assert_cmpint (top->status, ==, 0);
        g_assert_nonnull (strstr (top->out, "embersBusyLoop"));
        g_assert_nonnull (strstr (top->out, "embersHashStrings"));
      }
  }
}

/* A CPU profile made by Go's runtime/pprof and pushed with Go's net/http
 * as Pyroscope's Go SDK sends it (a multipart form with a "profile" part);
 * only the standard library, so nothing is downloaded */
static void
test_go_push (void)
{
  g_autofree char *go = g_find_program_in_path ("go");
  g_autofree char *dir = g_build_filename (TEST_SRCDIR, "sdk", "go-push", NULL);
  g_autofree char *work = g_dir_make_tmp ("embers-go-XXXXXX", NULL);
  g_autofree char *gocache = g_strconcat ("GOCACHE=", work, "/cache", NULL);
  g_autofree char *gopath = g_strconcat ("GOPATH=", work, "/path", NULL);
  g_autofree char *output = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersTestServer) server = NULL;
  g_autofree char *base = NULL;
  g_autofree char *url = NULL;
  g_autoptr(Run) top = NULL;

  if (go == NULL)
    {
      g_test_skip ("go is not installed (Debian: golang-go)");
      return;
    }
  server = embers_test_server_start (NULL, &error);
  g_assert_no_error (error);
  base = g_strndup (embers_test_server_get_url (server), strlen (embers_test_server_get_url (server)) - 1);
  {
    const char *argv[] = { go, "run", ".", "-server", base, "-seconds", "2", NULL };
    gboolean ok = run_tool (argv, dir, (const char *[]) { gocache, gopath, "GOFLAGS=-mod=mod", "GOPROXY=off", NULL },
                            300, &output);

    g_test_message ("go: %s", output);
    g_assert_true (ok);
  }
  url = query_url (embers_test_server_get_url (server), CPU, "{service_name=\"embers-go-sdk\",process_runtime=\"go\"}");
  top = run_embers ((const char *[]) { "--top=50", "--format=tsv", url, NULL }, NULL, 60);
  g_assert_cmpint (top->status, ==, 0);
  g_assert_nonnull (strstr (top->out, "main.embersGoBusy"));
  {
    g_autofree char *rm = g_strdup_printf ("rm -rf '%s'", work);
    g_spawn_command_line_sync (rm, NULL, NULL, NULL, NULL);
  }
}

/* ---- hostile servers ------------------------------------------------------ */

static EmbersTestServer *hostile;

typedef struct
{
  const char *mode;
  const char *words[3];   /* any of them, in lower case */
} Hostile;

static const Hostile hostile_modes[] = {
  { "deep-json", { "nested more than 128 levels deep", NULL } },
  { "chunked-cut", { "closed before the whole answer arrived", "cut short", NULL } },
  { "empty-200", { "not a pyroscope answer", NULL } },
  { "no-content", { "answered 204 with no body", NULL } },
  { "foreign-json", { "not a pyroscope answer", NULL } },
  { "slowloris", { "deadline exceeded", NULL } },
  { "endless", { "larger than", "deadline exceeded", NULL } },
  { "length-lie", { "cut short", "closed before the whole answer arrived", NULL } },
  { "gzip-bomb", { "does not begin like a pyroscope answer", NULL } },
  { "redirect-loop", { "redirects the request", NULL } },
};

static gboolean
says_any (const char         *text,
          const char * const *words)
{
  g_autofree char *lower = g_utf8_strdown (text, -1);

  for (guint i = 0; words[i] != NULL; i++)
    if (strstr (lower, words[i]) != NULL)
      return TRUE;
  return FALSE;
}

/* Every misbehaviour ends `embers --top` in a clear error, in bounded
 * time, with nothing printed as a result; an export writes no file */
static void
test_hostile (gconstpointer data)
{
  const Hostile *h = data;
  g_autofree char *base = g_strconcat (embers_test_server_get_url (hostile), h->mode, NULL);
  g_autofree char *url = query_url (base, CPU, "{service_name=\"api\"}");
  g_autoptr(Run) top = run_embers ((const char *[]) { "--top", "--format=tsv", "--timeout=5", url, NULL }, NULL, 120);
  g_autofree char *dir = g_dir_make_tmp ("embers-hostile-XXXXXX", NULL);
  g_autofree char *out = g_build_filename (dir, "out.pb.gz", NULL);
  g_autoptr(Run) export = run_embers ((const char *[]) { "--export", out, "--timeout=5", url, NULL }, NULL, 120);

  g_test_message ("%s: --top exit %d after %.2f s: %s", h->mode, top->status, top->seconds, g_strchomp (top->err));
  g_assert_cmpint (top->status, ==, 1);
  g_assert_cmpstr (top->out, ==, "");
  g_assert_true (says_any (top->err, h->words));
  /* Bounded by --timeout, which the message names when it ran out (the
   * time is a figure above; a hang is killed by run_embers) */
  if (strstr (top->err, "deadline exceeded") != NULL)
    g_assert_nonnull (strstr (top->err, "within 5 s"));

  g_test_message ("%s: --export exit %d after %.2f s", h->mode, export->status, export->seconds);
  g_assert_cmpint (export->status, ==, 1);
  g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
  g_rmdir (dir);
}

/* The same server, well behaved: the check above fails for the right reason */
static void
test_hostile_ok (void)
{
  g_autofree char *base = g_strconcat (embers_test_server_get_url (hostile), "ok", NULL);
  g_autofree char *url = query_url (base, CPU, "{}");
  g_autoptr(Run) top = run_embers ((const char *[]) { "--top", "--format=tsv", "--timeout=5", url, NULL }, NULL, 120);

  g_assert_cmpint (top->status, ==, 0);
  g_assert_nonnull (strstr (top->out, "hostile.work"));
}

/* TLS with a self-signed certificate: refused, unless the user trusts it
 * (EMBERS_CA_FILE) */
static void
test_tls (void)
{
  g_autofree char *cert = g_build_filename (TEST_SRCDIR, "fixtures", "tls", "cert.pem", NULL);
  g_autofree char *key = g_build_filename (TEST_SRCDIR, "fixtures", "tls", "key.pem", NULL);
  g_autofree char *trust = g_strconcat ("EMBERS_CA_FILE=", cert, NULL);
  const char *args[] = { "--tls-cert", cert, "--tls-key", key, NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersTestServer) secure = embers_test_server_start (args, &error);
  g_autofree char *url = NULL;
  g_autoptr(Run) refused = NULL;
  g_autoptr(Run) trusted = NULL;

  g_assert_no_error (error);
  g_assert_true (g_str_has_prefix (embers_test_server_get_url (secure), "https://"));
  url = query_url (embers_test_server_get_url (secure), CPU, "{service_name=\"example\"}");

  refused = run_embers ((const char *[]) { "--top", "--format=tsv", "--timeout=10", url, NULL }, NULL, 60);
  g_test_message ("self-signed: exit %d after %.2f s: %s", refused->status, refused->seconds, refused->err);
  g_assert_cmpint (refused->status, ==, 1);
  g_assert_true (says_any (refused->err, (const char *[]) { "certificate is not trusted", NULL }));
  g_assert_nonnull (strstr (refused->err, "EMBERS_CA_FILE"));

  trusted = run_embers ((const char *[]) { "--top", "--format=tsv", "--timeout=10", url, NULL }, (const char *[]) { trust, NULL }, 60);
  g_assert_cmpint (trusted->status, ==, 0);
  g_assert_nonnull (strstr (trusted->out, "\tmain\n"));
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  int ret;

  g_test_init (&argc, &argv, NULL);

  hostile = embers_hostile_server_start (&error);
  g_assert_no_error (error);

  g_test_add_func ("/embers/cli-server/timeout", test_timeout);
  g_test_add_func ("/embers/cli-server/tls", test_tls);
  g_test_add_func ("/embers/cli-server/sdk/node", test_node_sdk);
  g_test_add_func ("/embers/cli-server/sdk/go-net-http", test_go_push);
  g_test_add_func ("/embers/cli-server/hostile/ok", test_hostile_ok);
  for (guint i = 0; i < G_N_ELEMENTS (hostile_modes); i++)
    {
      g_autofree char *name = g_strdup_printf ("/embers/cli-server/hostile/%s", hostile_modes[i].mode);
      g_test_add_data_func (name, &hostile_modes[i], test_hostile);
    }

  ret = g_test_run ();
  embers_test_server_stop (hostile);
  return ret;
}
