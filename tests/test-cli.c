/* test-cli.c: the headless command line, run as a user would
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <gio/gio.h>
#include <glib/gstdio.h>

#include "embers-format.h"
#include "embers-units.h"

static char *tmpdir;

/* No display: headless work must not need one. Sanitizer settings pass. */
static char **
cli_environ (void)
{
  char **envp = g_strdupv ((char *[]) { (char *)"LC_ALL=C.UTF-8", (char *)"PATH=/usr/bin:/bin", NULL });

  for (guint i = 0; i < 3; i++)
    {
      const char *names[] = { "ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS" };
      const char *value = g_getenv (names[i]);

      if (value != NULL)
        envp = g_environ_setenv (envp, names[i], value, TRUE);
    }
  return envp;
}

static int
run (const char * const  *args,
     char               **out,
     char               **err)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) envp = cli_environ ();
  int status = -1;

  g_ptr_array_add (argv, (gpointer)EMBERS_BINARY);
  for (guint i = 0; args[i]; i++)
    g_ptr_array_add (argv, (gpointer)args[i]);
  g_ptr_array_add (argv, NULL);

  g_spawn_sync (NULL, (char **)argv->pdata, envp,
                G_SPAWN_DEFAULT, NULL, NULL, out, err, &status, &error);
  g_assert_no_error (error);

  return g_spawn_check_wait_status (status, NULL) ? 0 : 1;
}

static char *
fixture (const char *name)
{
  return g_test_build_filename (G_TEST_DIST, "fixtures", "go", name, NULL);
}

static void
test_cli_top (void)
{
  g_autofree char *path = fixture ("cpu-labels.pb.gz");
  g_autofree char *out = NULL, *err = NULL;
  g_auto(GStrv) lines = NULL;
  gint64 prev_self = G_MAXINT64;

  g_assert_cmpint (run ((const char *[]) { "--top", "--format=tsv", path, NULL }, &out, &err), ==, 0);
  lines = g_strsplit (out, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), >, 10);
  for (guint i = 0; lines[i] && lines[i][0]; i++)
    {
      g_auto(GStrv) cols = g_strsplit (lines[i], "\t", 3);
      gint64 self = g_ascii_strtoll (cols[0], NULL, 10);
      gint64 total = g_ascii_strtoll (cols[1], NULL, 10);

      g_assert_cmpuint (g_strv_length (cols), ==, 3);
      g_assert_cmpint (self, <=, total);
      g_assert_cmpint (self, <=, prev_self);   /* sorted by self */
      prev_self = self;
    }
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  /* A limit, and the sample type by name and by index agree */
  {
    g_autofree char *by_name = NULL, *by_index = NULL;
    g_autofree char *heap = fixture ("heap.pb.gz");

    g_assert_cmpint (run ((const char *[]) { "--top=3", "--format=tsv", "--sample-type=alloc_space", heap, NULL }, &by_name, &err), ==, 0);
    g_clear_pointer (&err, g_free);
    g_assert_cmpint (run ((const char *[]) { "--top=3", "--format=tsv", "--sample-type", "1", heap, NULL }, &by_index, &err), ==, 0);
    g_assert_cmpstr (by_name, ==, by_index);
    g_assert_cmpuint (g_strv_length (g_strsplit (by_name, "\n", -1)), ==, 4);
  }
}

static void
test_cli_errors (void)
{
  g_autofree char *path = fixture ("heap.pb.gz");
  static const struct {
    const char *args[5];
    const char *fragment;
  } cases[] = {
    { { "--top", "/nonexistent/profile.pb.gz", NULL }, "profile.pb.gz" },
    { { "--top", "--sample-type=nope", "@FIXTURE@", NULL }, "alloc_objects, alloc_space" },
    { { "--top=x", "@FIXTURE@", NULL }, "number of rows" },
    { { "--export", "/tmp/out.doc", "@FIXTURE@", NULL }, ".png" },
    { { "--top", NULL }, "No profile" },
    { { "--diff", "--top", "@FIXTURE@", NULL }, "exactly two" },
    { { "--top", "@FIXTURE@", "@FIXTURE@", NULL }, "exactly one" },
    { { "--sample-type=1", "@FIXTURE@", NULL }, "Nothing to do" },
    { { "--top", "http://127.0.0.1:9/?query=bad", NULL }, "profile type" },
    /* Issue 15, failure 10: the password of a URL is masked */
    { { "--top", "http://user:hunter2@127.0.0.1:9/", NULL }, "user:***@127.0.0.1:9" },
    { { "--top", "http://user:hunter2@127.0.0.1:9/?query=bad", NULL }, "profile type" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const char *args[5] = { NULL, };
      g_autofree char *out = NULL, *err = NULL;

      for (guint k = 0; cases[i].args[k]; k++)
        args[k] = g_str_equal (cases[i].args[k], "@FIXTURE@") ? path : cases[i].args[k];
      g_assert_cmpint (run (args, &out, &err), !=, 0);
      g_assert_cmpstr (out, ==, "");
      if (strstr (err, cases[i].fragment) == NULL)
        g_error ("case %u: stderr “%s” lacks “%s”", i, err, cases[i].fragment);
      g_assert_null (strstr (err, "hunter2"));
    }
}

/* Issue 15, failure 8: names with tabs, line breaks and escape sequences
 * cannot forge rows or reach the terminal */
static void
test_cli_top_escapes (void)
{
  g_autofree char *json = g_build_filename (tmpdir, "hostile.json", NULL);
  g_autofree char *json2 = g_build_filename (tmpdir, "hostile2.json", NULL);
  g_autofree char *out = NULL, *err = NULL;
  g_auto(GStrv) lines = NULL;
  const char *doc =
    "{\"names\":[\"total\",\"fake\\t9\\t9\\tforged\",\"two\\nrows\",\"\\u001b[2Jclear\",\"back\\\\slash\"],"
    "\"levels\":[{\"values\":[\"0\",\"10\",\"0\",\"0\"]},"
    "{\"values\":[\"0\",\"1\",\"1\",\"1\",\"0\",\"2\",\"2\",\"2\",\"0\",\"3\",\"3\",\"3\",\"0\",\"4\",\"4\",\"4\"]}],"
    "\"total\":\"10\"}";

  g_assert_true (g_file_set_contents (json, doc, -1, NULL));
  g_assert_true (g_file_set_contents (json2, doc, -1, NULL));
  g_assert_cmpint (run ((const char *[]) { "--top", "--format=tsv", json, NULL }, &out, &err), ==, 0);
  g_assert_cmpstr (out, ==,
                   "4\t4\tback\\\\slash\n"
                   "3\t3\t\\x1b[2Jclear\n"
                   "2\t2\ttwo\\nrows\n"
                   "1\t1\tfake\\t9\\t9\\tforged\n");
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  /* --diff --top: six columns a line */
  g_assert_cmpint (run ((const char *[]) { "--diff", "--top", "--format=tsv", json, json2, NULL }, &out, &err), ==, 0);
  g_assert_null (strchr (out, '\x1b'));
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i] != NULL && lines[i][0] != '\0'; i++)
    {
      g_auto(GStrv) cols = g_strsplit (lines[i], "\t", -1);

      g_assert_cmpuint (g_strv_length (cols), ==, 6);
    }
  g_assert_nonnull (strstr (out, "\tfake\\t9\\t9\\tforged\n"));
  g_unlink (json);
  g_unlink (json2);
}

static void
test_cli_export (void)
{
  g_autofree char *path = fixture ("cpu-recursion.pb.gz");
  const char *exts[] = { "folded", "pb.gz", "pb", "json", "png", "svg", "pdf" };
  g_autofree char *top_before = NULL, *err = NULL;

  g_assert_cmpint (run ((const char *[]) { "--top", "--format=tsv", "--sample-type=cpu", path, NULL }, &top_before, &err), ==, 0);

  for (guint i = 0; i < G_N_ELEMENTS (exts); i++)
    {
      g_autofree char *name = g_strdup_printf ("out.%s", exts[i]);
      g_autofree char *out_path = g_build_filename (tmpdir, name, NULL);
      g_autofree char *out = NULL;
      g_autofree char *err2 = NULL;
      g_autofree char *contents = NULL;
      gsize len;

      g_assert_cmpint (run ((const char *[]) { "--sample-type=cpu", "--export", out_path, path, NULL }, &out, &err2), ==, 0);
      g_assert_true (g_file_get_contents (out_path, &contents, &len, NULL));
      g_assert_cmpuint (len, >, 50);

      if (g_str_equal (exts[i], "png"))
        g_assert_cmpmem (contents, 8, "\x89PNG\r\n\x1a\n", 8);
      else if (g_str_equal (exts[i], "svg"))
        g_assert_nonnull (strstr (contents, "<svg"));
      else if (g_str_equal (exts[i], "pdf"))
        g_assert_true (g_str_has_prefix (contents, "%PDF"));
      else if (g_str_equal (exts[i], "pb.gz"))
        g_assert_true (embers_is_gzip ((const guint8 *)contents, len));
      else
        {
          /* Data formats read back to the same top table */
          g_autofree char *top_after = NULL;

          g_clear_pointer (&err2, g_free);
          g_assert_cmpint (run ((const char *[]) { "--top", "--format=tsv", out_path, NULL }, &top_after, &err2), ==, 0);
          if (g_str_equal (exts[i], "pb"))
            {
              g_autofree char *again = NULL;

              g_clear_pointer (&err2, g_free);
              g_assert_cmpint (run ((const char *[]) { "--top", "--format=tsv", "--sample-type=cpu", out_path, NULL }, &again, &err2), ==, 0);
              g_assert_cmpstr (again, ==, top_before);
            }
          else
            g_assert_cmpstr (top_after, ==, top_before);
        }
      g_unlink (out_path);
    }
}

static void
test_cli_diff (void)
{
  g_autofree char *base = g_build_filename (tmpdir, "base.folded", NULL);
  g_autofree char *comp = g_build_filename (tmpdir, "comp.folded", NULL);
  g_autofree char *svg = g_build_filename (tmpdir, "diff.svg", NULL);
  g_autofree char *json = g_build_filename (tmpdir, "diff.json", NULL);
  g_autofree char *out = NULL, *err = NULL;

  g_file_set_contents (base, "main;slow 10\nmain;fast 90\nmain;gone 5\n", -1, NULL);
  g_file_set_contents (comp, "main;slow 40\nmain;fast 90\nmain;new 10\n", -1, NULL);

  g_assert_cmpint (run ((const char *[]) { "--diff", "--top", "--format=tsv", base, comp, NULL }, &out, &err), ==, 0);
  /* baseline, comparison, baseline %, comparison %, diff %, name; by diff */
  g_assert_cmpstr (out, ==,
                   "0\t10\t0.00\t7.14\tnew\tnew\n"
                   "10\t40\t9.52\t28.57\t+200.00\tslow\n"
                   "105\t140\t100.00\t100.00\t+0.00\tmain\n"
                   "90\t90\t85.71\t64.29\t-25.00\tfast\n"
                   "5\t0\t4.76\t0.00\tremoved\tgone\n");

  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run ((const char *[]) { "--diff", "--export", svg, base, comp, NULL }, &out, &err), ==, 0);
  g_assert_true (g_file_test (svg, G_FILE_TEST_EXISTS));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run ((const char *[]) { "--diff", "--export", json, base, comp, NULL }, &out, &err), ==, 0);
  {
    g_autofree char *contents = NULL;

    g_assert_true (g_file_get_contents (json, &contents, NULL, NULL));
    g_assert_nonnull (strstr (contents, "\"format\":\"double\""));
  }

  /* By the absolute change: the diff % column and the order follow it */
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run ((const char *[]) { "--diff", "--diff-mode=absolute", "--top", "--format=tsv", base, comp, NULL }, &out, &err), ==, 0);
  g_assert_cmpstr (out, ==,
                   "0\t10\t0.00\t7.14\tnew\tnew\n"
                   "10\t40\t9.52\t28.57\t+300.00\tslow\n"
                   "105\t140\t100.00\t100.00\t+33.33\tmain\n"
                   "90\t90\t85.71\t64.29\t+0.00\tfast\n"
                   "5\t0\t4.76\t0.00\tremoved\tgone\n");

  g_unlink (base);
  g_unlink (comp);
  g_unlink (svg);
  g_unlink (json);
}

/* An exported diff's palette, mode and widths */
static void
test_cli_diff_export_options (void)
{
  g_autofree char *base = g_build_filename (tmpdir, "base.folded", NULL);
  g_autofree char *comp = g_build_filename (tmpdir, "comp.folded", NULL);
  g_autofree char *svg = g_build_filename (tmpdir, "diff.svg", NULL);
  g_autofree char *plain = NULL, *red_green = NULL, *comparison = NULL, *absolute = NULL;
  static const struct {
    const char *args[4];
    const char *fragment;
  } errors[] = {
    { { "--diff", "--palette=purple", NULL }, "--palette takes one of red-blue, red-green, not “purple”" },
    { { "--diff", "--diff-mode=relative", NULL }, "--diff-mode takes one of share, absolute, not “relative”" },
    { { "--diff", "--diff-width=baseline", NULL }, "--diff-width takes one of both, comparison, not “baseline”" },
    { { "--palette=red-green", NULL }, "need --diff" },
  };

  g_file_set_contents (base, "main;slow 10\nmain;fast 90\nmain;gone 5\n", -1, NULL);
  g_file_set_contents (comp, "main;slow 40\nmain;fast 90\nmain;new 10\n", -1, NULL);

  for (guint i = 0; i < 4; i++)
    {
      const char *option[] = { NULL, "--palette=red-green", "--diff-width=comparison", "--diff-mode=absolute" };
      char **contents[] = { &plain, &red_green, &comparison, &absolute };
      const char *args[8] = { "--diff", "--export", svg, base, comp, NULL, NULL, NULL };
      g_autofree char *out = NULL, *err = NULL;

      if (option[i] != NULL)
        {
          args[5] = args[4];
          args[4] = args[3];
          args[3] = option[i];
        }
      g_assert_cmpint (run (args, &out, &err), ==, 0);
      g_assert_true (g_file_get_contents (svg, contents[i], NULL, NULL));
    }

  /* "slow" grew: the palette's red at +100 %, rgb(220,50,32) or rgb(200,0,0);
   * "fast" and "gone" shrank: blue rgb(26,133,255) or green rgb(0,170,0) */
  g_assert_nonnull (strstr (plain, "fill=\"#dc3220\""));
  g_assert_nonnull (strstr (plain, "#1a85ff"));
  g_assert_null (strstr (plain, "#c80000"));
  g_assert_nonnull (strstr (red_green, "fill=\"#c80000\""));
  g_assert_nonnull (strstr (red_green, "#00aa00"));
  g_assert_null (strstr (red_green, "#1a85ff"));
  g_assert_nonnull (strstr (plain, "red/blue · change of share of total"));
  g_assert_nonnull (strstr (red_green, "red/green · change of share of total"));
  g_assert_nonnull (strstr (absolute, "red/blue · change of absolute value"));
  /* Widths: the comparison only ("gone" is not drawn), and the SVG says so */
  g_assert_nonnull (strstr (plain, "Bar widths: baseline + comparison"));
  g_assert_null (strstr (comparison, "Bar widths: baseline + comparison"));
  g_assert_cmpstr (plain, !=, comparison);

  for (guint i = 0; i < G_N_ELEMENTS (errors); i++)
    {
      const char *args[8] = { NULL, };
      g_autofree char *out = NULL, *err = NULL;
      guint n = 0;

      for (guint k = 0; errors[i].args[k] != NULL; k++)
        args[n++] = errors[i].args[k];
      args[n++] = "--top";
      args[n++] = base;
      if (g_str_equal (errors[i].args[0], "--diff"))
        args[n++] = comp;
      g_assert_cmpint (run (args, &out, &err), !=, 0);
      g_assert_cmpstr (out, ==, "");
      if (strstr (err, errors[i].fragment) == NULL)
        g_error ("case %u: stderr “%s” lacks “%s”", i, err, errors[i].fragment);
    }

  g_unlink (base);
  g_unlink (comp);
  g_unlink (svg);
}


/* --top to a full disk (/dev/full) says why and fails */
static void
test_cli_stdout_full (void)
{
  g_autofree char *path = fixture ("heap.pb.gz");
  const char *argv[] = { EMBERS_BINARY, "--top", path, NULL };
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) envp = cli_environ ();
  g_autofree char *err = NULL;

  if (!g_file_test ("/dev/full", G_FILE_TEST_EXISTS))
    {
      g_test_skip ("no /dev/full");
      return;
    }
  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_subprocess_launcher_set_environ (launcher, envp);
  g_subprocess_launcher_set_stdout_file_path (launcher, "/dev/full");
  proc = g_subprocess_launcher_spawnv (launcher, argv, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (proc, NULL, NULL, NULL, &err, &error);
  g_assert_no_error (error);
  g_assert_false (g_subprocess_get_successful (proc));
  g_assert_nonnull (strstr (err, g_strerror (ENOSPC)));
}

/* Started, not waited for: stdout and stderr are pipes */
static GSubprocess *
spawn (const char * const *args)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                                                       G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_auto(GStrv) envp = cli_environ ();
  g_autoptr(GError) error = NULL;
  GSubprocess *proc;

  g_ptr_array_add (argv, (gpointer)EMBERS_BINARY);
  for (guint i = 0; args[i]; i++)
    g_ptr_array_add (argv, (gpointer)args[i]);
  g_ptr_array_add (argv, NULL);
  g_subprocess_launcher_set_environ (launcher, envp);
  proc = g_subprocess_launcher_spawnv (launcher, (const char * const *)argv->pdata, &error);
  g_assert_no_error (error);
  return proc;
}

/* Blocks until the process writes a line to stderr; returns it */
static char *
read_err_line (GDataInputStream *err)
{
  g_autoptr(GError) error = NULL;
  char *line = g_data_input_stream_read_line_utf8 (err, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (line);
  return line;
}

/* Issue 15, failure 6: unbounded reads. /dev/zero, a gzip bomb and a FIFO
 * end in a clear error (or a result) instead of reading forever. */
static void
test_cli_unbounded (void)
{
  g_autofree char *out = NULL, *err = NULL;

  /* /dev/zero: refused at its first block, not read to the cap */
  g_assert_cmpint (run ((const char *[]) { "--top", "--format=tsv", "/dev/zero", NULL }, &out, &err), ==, 1);
  g_assert_cmpstr (out, ==, "");
  g_assert_nonnull (strstr (err, "/dev/zero"));
  g_assert_nonnull (strstr (err, "not a profile"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  /* A gzip bomb of zeros: refused as not a profile (at its first bytes),
   * not as too large (after inflating to the cap) */
  {
    gsize big = 256 * 1024 * 1024;
    g_autofree guint8 *zeros = g_malloc0 (big);
    g_autoptr(GBytes) bomb = embers_gzip (zeros, big, NULL);
    g_autofree char *path = g_build_filename (tmpdir, "bomb.pb.gz", NULL);

    g_assert_true (g_file_set_contents (path, g_bytes_get_data (bomb, NULL), g_bytes_get_size (bomb), NULL));
    g_assert_cmpint (run ((const char *[]) { "--top", "--format=tsv", path, NULL }, &out, &err), ==, 1);
    g_assert_nonnull (strstr (err, "not a profile"));
    g_assert_null (strstr (err, "refusing"));
    g_unlink (path);
  }
}

/* A FIFO with no writer: the CLI says it waits, and Ctrl+C (or SIGTERM)
 * ends it with a clear word and status 128 + the signal */
static void
test_cli_fifo (void)
{
  g_autofree char *fifo = g_build_filename (tmpdir, "profile.fifo", NULL);
  const int signals[] = { SIGINT, SIGTERM };

  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);

  for (guint i = 0; i < G_N_ELEMENTS (signals); i++)
    {
      g_autoptr(GSubprocess) proc = spawn ((const char *[]) { "--top", "--format=tsv", fifo, NULL });
      g_autoptr(GDataInputStream) err = g_data_input_stream_new (g_subprocess_get_stderr_pipe (proc));
      g_autoptr(GError) error = NULL;
      g_autofree char *line = read_err_line (err);
      g_autofree char *rest = NULL;

      g_assert_nonnull (strstr (line, "waiting for data from"));
      g_assert_nonnull (strstr (line, "profile.fifo"));
      g_subprocess_send_signal (proc, signals[i]);
      rest = g_data_input_stream_read_upto (err, "", 0, NULL, NULL, &error);
      g_assert_no_error (error);
      g_subprocess_wait (proc, NULL, &error);
      g_assert_no_error (error);
      g_assert_true (g_subprocess_get_if_exited (proc));
      g_assert_cmpint (g_subprocess_get_exit_status (proc), ==, 128 + signals[i]);
      g_assert_nonnull (strstr (rest, "embers: Interrupted"));
    }

  /* A writer that comes later: read to its end */
  {
    g_autoptr(GSubprocess) proc = spawn ((const char *[]) { "--top", "--format=tsv", fifo, NULL });
    g_autoptr(GError) error = NULL;
    g_autofree char *out = NULL, *err = NULL;
    const char *text = "main;work 30\nmain;idle 12\n";
    int fd = g_open (fifo, O_WRONLY, 0);

    g_assert_cmpint (fd, >=, 0);
    g_assert_cmpint (write (fd, text, strlen (text)), ==, (gssize)strlen (text));
    g_close (fd, NULL);
    g_subprocess_communicate_utf8 (proc, NULL, NULL, &out, &err, &error);
    g_assert_no_error (error);
    g_assert_true (g_subprocess_get_successful (proc));
    g_assert_cmpstr (out, ==, "30\t30\twork\n12\t12\tidle\n0\t42\tmain\n");
  }
  g_unlink (fifo);
}

/* `embers --help` tells everything, grouped; the headless parser's help
 * is the same text; every option is in the man page and both completions */
static void
test_cli_help (void)
{
  static const char *groups[] = { "Open (in the window):", "Headless (no window, no display needed):",
                                  "Compare options:", "Server:", "Help:" };
  static const char *options[] = { "--diff", "--top", "--format", "--export", "--sample-type",
                                   "--timeout", "--palette", "--diff-mode", "--diff-width",
                                   "--server", "--version", "--help" };
  g_autofree char *out = NULL, *err = NULL;
  g_autofree char *again = NULL;
  g_autofree char *man = NULL, *bash = NULL, *zsh = NULL;
  const char *last = NULL;

  g_assert_cmpint (run ((const char *[]) { "--help", NULL }, &out, &err), ==, 0);
  g_assert_cmpstr (err, ==, "");
  /* In this order */
  last = out;
  for (guint i = 0; i < G_N_ELEMENTS (groups); i++)
    {
      const char *at = strstr (out, groups[i]);

      if (at == NULL || at < last)
        g_error ("--help lacks “%s” (or out of order):\n%s", groups[i], out);
      last = at;
    }
  for (guint i = 0; i < G_N_ELEMENTS (options); i++)
    g_assert_nonnull (strstr (out, options[i]));
  g_assert_nonnull (strstr (out, "FILE…"));
  g_assert_nonnull (strstr (out, "Exit status"));
  g_assert_nonnull (strstr (out, "no samples"));
  /* No line wider than a terminal */
  {
    g_auto(GStrv) lines = g_strsplit (out, "\n", -1);

    for (guint i = 0; lines[i] != NULL; i++)
      if (g_utf8_strlen (lines[i], -1) > 80 && strstr (lines[i], "http://") == NULL)
        g_error ("--help line %u is %ld wide: %s", i, g_utf8_strlen (lines[i], -1), lines[i]);
  }

  /* -h, and --help among headless options: the same text */
  g_assert_cmpint (run ((const char *[]) { "-h", NULL }, &again, &err), ==, 0);
  g_assert_cmpstr (again, ==, out);
  g_clear_pointer (&again, g_free);
  g_assert_cmpint (run ((const char *[]) { "--top", "--help", NULL }, &again, &err), ==, 0);
  g_assert_cmpstr (again, ==, out);

  /* The man page built by meson and the completions know every option */
  g_assert_true (g_file_get_contents (MAN_PAGE, &man, NULL, NULL));
  g_assert_true (g_file_get_contents (COMPLETIONS_DIR "/embers.bash", &bash, NULL, NULL));
  g_assert_true (g_file_get_contents (COMPLETIONS_DIR "/_embers", &zsh, NULL, NULL));
  g_assert_true (g_str_has_prefix (strstr (man, ".TH"), ".TH EMBERS 1"));
  g_assert_nonnull (strstr (man, "Embers " PACKAGE_VERSION));
  for (guint i = 0; i < G_N_ELEMENTS (options); i++)
    {
      g_autofree char *man_option = g_strdup (options[i]);
      g_autoptr(GString) escaped = g_string_new (NULL);

      /* roff writes a minus as \- */
      for (const char *c = man_option; *c; c++)
        {
          if (*c == '-')
            g_string_append (escaped, "\\-");
          else
            g_string_append_c (escaped, *c);
        }
      if (strstr (man, escaped->str) == NULL)
        g_error ("the man page lacks %s", options[i]);
      if (strstr (bash, options[i]) == NULL)
        g_error ("the bash completion lacks %s", options[i]);
      if (strstr (zsh, options[i]) == NULL)
        g_error ("the zsh completion lacks %s", options[i]);
    }
}

/* bash completes the options and their values (run as bash runs it) */
static void
test_cli_bash_completion (void)
{
  static const struct {
    const char *line;
    const char *expect;
  } cases[] = {
    { "embers --fo", "--format=" },
    { "embers --format=t", "table tsv" },
    { "embers --palette=red-", "red-blue red-green" },
    { "embers --diff-mode=a", "absolute" },
    { "embers --serv", "--server=" },
  };
  g_autofree char *bash = g_find_program_in_path ("bash");

  if (bash == NULL)
    {
      g_test_skip ("no bash");
      return;
    }

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *script = g_strdup_printf (
        "source '%s/embers.bash'; COMP_LINE='%s'; read -ra COMP_WORDS <<< \"$COMP_LINE\"; "
        "COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _embers; echo \"${COMPREPLY[*]}\"",
        COMPLETIONS_DIR, cases[i].line);
      const char *argv[] = { bash, "--norc", "-c", script, NULL };
      g_autofree char *out = NULL, *err = NULL;
      int status = 0;

      g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                                   &out, &err, &status, NULL));
      g_assert_true (g_spawn_check_wait_status (status, NULL));
      g_strchomp (out);
      if (!g_str_equal (out, cases[i].expect))
        g_error ("“%s” completes to “%s”, not “%s” (%s)", cases[i].line, out, cases[i].expect, err);
    }
}

static void
test_cli_version (void)
{
  g_autofree char *out = NULL, *err = NULL;

  g_assert_cmpint (run ((const char *[]) { "--version", NULL }, &out, &err), ==, 0);
  g_assert_cmpstr (out, ==, "embers " PACKAGE_VERSION "\n");
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run ((const char *[]) { "--top", "--version", NULL }, &out, &err), ==, 0);
  g_assert_cmpstr (out, ==, "embers " PACKAGE_VERSION "\n");
}

/* A profile without samples: no rows, "no samples", exit status 2 (as
 * --help and the man page say) */
static void
test_cli_no_samples (void)
{
  g_autofree char *folded = g_build_filename (tmpdir, "zero.folded", NULL);
  g_autofree char *gz = g_build_filename (tmpdir, "zero.folded.gz", NULL);
  const char *files[] = { folded, gz };
  const char *formats[] = { "--format=table", "--format=tsv" };

  g_assert_true (g_file_set_contents (folded, "main;idle 0\n", -1, NULL));
  /* The same, gzipped by the real gzip when there is one */
  {
    g_autofree char *gzip = g_find_program_in_path ("gzip");
    g_autofree char *cmd = g_strdup_printf ("sh -c 'gzip -c \"%s\" > \"%s\"'", folded, gz);

    if (gzip == NULL || !g_spawn_command_line_sync (cmd, NULL, NULL, NULL, NULL))
      files[1] = folded;
  }
  for (guint f = 0; f < G_N_ELEMENTS (files); f++)
    for (guint k = 0; k < G_N_ELEMENTS (formats); k++)
      {
        g_autofree char *out = NULL, *err = NULL;
        g_autoptr(GError) error = NULL;
        const char *argv[] = { EMBERS_BINARY, "--top", formats[k], files[f], NULL };
        g_auto(GStrv) envp = cli_environ ();
        int status = 0;

        g_spawn_sync (NULL, (char **) argv, envp, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &error);
        g_assert_no_error (error);
        g_assert_true (WIFEXITED (status));
        if (WEXITSTATUS (status) != 2)
          g_error ("%s: exit %d, %s", files[f], WEXITSTATUS (status), err);
        g_assert_cmpstr (out, ==, "");
        g_assert_cmpstr (err, ==, "embers: no samples\n");
      }

  /* Both sides empty in a diff */
  {
    g_autofree char *out = NULL, *err = NULL;
    const char *argv[] = { EMBERS_BINARY, "--diff", "--top", folded, folded, NULL };
    g_auto(GStrv) envp = cli_environ ();
    int status = 0;

    g_spawn_sync (NULL, (char **) argv, envp, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, NULL);
    g_assert_cmpint (WEXITSTATUS (status), ==, 2);
    g_assert_cmpstr (err, ==, "embers: no samples\n");
  }
  g_unlink (folded);
  g_unlink (gz);
}

/* The default --top is a table for people, as go tool pprof -top prints
 * one: the total, aligned columns with units and shares; the same
 * numbers as --format=tsv */
static void
test_cli_top_table (void)
{
  g_autofree char *path = fixture ("cpu-labels.pb.gz");
  g_autofree char *table = NULL, *tsv = NULL, *err = NULL;
  g_auto(GStrv) rows = NULL;
  g_auto(GStrv) tsv_rows = NULL;
  const char *name_at;
  glong name_column;
  guint n = 0;

  g_assert_cmpint (run ((const char *[]) { "--top", path, NULL }, &table, &err), ==, 0);
  g_assert_cmpint (run ((const char *[]) { "--top", "--format=tsv", path, NULL }, &tsv, &err), ==, 0);
  rows = g_strsplit (table, "\n", -1);
  tsv_rows = g_strsplit (tsv, "\n", -1);

  /* go tool pprof: "Showing nodes accounting for 2990000000ns, 100% of 2990000000ns total" */
  g_assert_true (g_str_has_prefix (rows[0], "Showing "));
  g_assert_nonnull (strstr (rows[0], "2.99 s of 2.99 s total (100.0%), sample type cpu"));
  g_assert_true (g_regex_match_simple ("^ +self +self% +sum% +total +total%  name$", rows[1], 0, 0));
  name_at = strstr (rows[1], "name");
  name_column = g_utf8_pointer_to_offset (rows[1], name_at);

  for (guint i = 2; rows[i] != NULL && rows[i][0] != '\0'; i++, n++)
    {
      g_auto(GStrv) cols = g_strsplit (tsv_rows[i - 2], "\t", 3);
      g_autofree char *self = embers_format_value (g_ascii_strtoll (cols[0], NULL, 10), "nanoseconds");
      g_autofree char *total = embers_format_value (g_ascii_strtoll (cols[1], NULL, 10), "nanoseconds");
      g_autofree char *pattern = g_strdup_printf ("^ *%s +[0-9.]+%% +[0-9.]+%% +%s +[0-9.]+%%  %s$",
                                                  g_regex_escape_string (self, -1),
                                                  g_regex_escape_string (total, -1),
                                                  g_regex_escape_string (cols[2], -1));

      /* Every name starts in the heading's column */
      g_assert_cmpint (g_utf8_pointer_to_offset (rows[i], rows[i] + strlen (rows[i]) - strlen (cols[2])), ==, name_column);
      if (!g_regex_match_simple (pattern, rows[i], 0, 0))
        g_error ("row “%s” does not match %s", rows[i], pattern);
    }
  g_assert_cmpuint (n, ==, g_strv_length (tsv_rows) - 1);
  /* All rows: their self sums to the whole */
  g_assert_nonnull (strstr (rows[n + 1], " 100.0% "));

  /* --diff --top as a table: new and removed in words */
  {
    g_autofree char *base = g_build_filename (tmpdir, "tbase.folded", NULL);
    g_autofree char *comp = g_build_filename (tmpdir, "tcomp.folded", NULL);
    g_autofree char *out = NULL;

    g_file_set_contents (base, "main;slow 10\nmain;fast 90\nmain;gone 5\n", -1, NULL);
    g_file_set_contents (comp, "main;slow 40\nmain;fast 90\nmain;new 10\n", -1, NULL);
    g_assert_cmpint (run ((const char *[]) { "--diff", "--top", base, comp, NULL }, &out, &err), ==, 0);
    g_assert_cmpstr (out, ==,
                     "baseline  comparison  baseline%  comparison%  share change  name\n"
                     "       0          10         0%        7.14%           new  new\n"
                     "      10          40      9.52%        28.6%         +200%  slow\n"
                     "     105         140       100%         100%            0%  main\n"
                     "      90          90      85.7%        64.3%        −25.0%  fast\n"
                     "       5           0      4.76%           0%       removed  gone\n");
    g_unlink (base);
    g_unlink (comp);
  }

  /* A bad format is refused */
  {
    g_autofree char *out = NULL;

    g_assert_cmpint (run ((const char *[]) { "--top", "--format=csv", path, NULL }, &out, &err), ==, 1);
    g_assert_nonnull (strstr (err, "--format takes table or tsv, not “csv”"));
  }
}

int
main (int   argc,
      char *argv[])
{
  int ret;

  g_test_init (&argc, &argv, NULL);
  tmpdir = g_dir_make_tmp ("embers-cli-XXXXXX", NULL);

  g_test_add_func ("/embers/cli/top", test_cli_top);
  g_test_add_func ("/embers/cli/errors", test_cli_errors);
  g_test_add_func ("/embers/cli/export", test_cli_export);
  g_test_add_func ("/embers/cli/diff", test_cli_diff);
  g_test_add_func ("/embers/cli/diff-export-options", test_cli_diff_export_options);
  g_test_add_func ("/embers/cli/top-escapes", test_cli_top_escapes);
  g_test_add_func ("/embers/cli/unbounded", test_cli_unbounded);
  g_test_add_func ("/embers/cli/stdout-full", test_cli_stdout_full);
  g_test_add_func ("/embers/cli/fifo", test_cli_fifo);
  g_test_add_func ("/embers/cli/help", test_cli_help);
  g_test_add_func ("/embers/cli/bash-completion", test_cli_bash_completion);
  g_test_add_func ("/embers/cli/version", test_cli_version);
  g_test_add_func ("/embers/cli/no-samples", test_cli_no_samples);
  g_test_add_func ("/embers/cli/top-table", test_cli_top_table);

  ret = g_test_run ();
  g_rmdir (tmpdir);
  g_free (tmpdir);
  return ret;
}
