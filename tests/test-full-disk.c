/* test-full-disk.c: exports on a full disk (issue 15, failures 4 and 5)
 *
 * `embers --export` to every format, and the core writers (EmbersSave,
 * embers_render_export), on a small tmpfs that fills up (or, where no
 * tmpfs can be mounted, under the ENOSPC shim; see full-disk.h). A failed
 * export must say why ("No space left on device"), exit non-zero, leave
 * the old file byte for byte and leave no temporary file behind; with
 * room, the same export succeeds and is whole.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define _GNU_SOURCE  /* unshare() */

#include "config.h"

#include <signal.h>
#include <string.h>
#include <sys/resource.h>

#include <gio/gio.h>

#include "full-disk.h"
#include "embers-format.h"
#include "embers-render.h"
#include "embers-save.h"

static const char *formats[] = { "pdf", "svg", "png", "folded", "pb.gz", "pb", "json" };
static char *input_path;
static const char old_contents[] = "the old file, which must survive\n";

static char **
cli_environ (void)
{
  char **envp = g_get_environ ();

  envp = g_environ_setenv (envp, "LC_ALL", "C.UTF-8", TRUE);
  envp = g_environ_unsetenv (envp, "DISPLAY");
  envp = g_environ_unsetenv (envp, "WAYLAND_DISPLAY");
  return envp;
}

static int
run_cli (const char  *out_path,
         char       **err)
{
  const char *argv[] = { EMBERS_BINARY, "--export", out_path, input_path, NULL };
  g_auto(GStrv) envp = cli_environ ();
  g_autoptr(GError) error = NULL;
  int status = -1;

  g_spawn_sync (NULL, (char **)argv, envp, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL,
                NULL, err, &status, &error);
  g_assert_no_error (error);
  return g_spawn_check_wait_status (status, NULL) ? 0 : 1;
}

/* A profile whose every export is larger than the room left: 3000
 * distinct stacks */
static void
make_input (void)
{
  g_autoptr(GString) text = g_string_new (NULL);
  int fd;

  for (guint i = 0; i < 3000; i++)
    g_string_append_printf (text, "main;pkg%u.Handler;pkg%u.step%u;leaf.%08x %u\n",
                            i % 37, i % 37, i % 101, g_str_hash (text->str) ^ i, 1 + i % 13);
  fd = g_file_open_tmp ("embers-full-disk-input-XXXXXX.folded", &input_path, NULL);
  g_assert_cmpint (fd, >=, 0);
  g_close (fd, NULL);
  g_assert_true (g_file_set_contents (input_path, text->str, text->len, NULL));
}

static char *
target (const char *ext)
{
  g_autofree char *name = g_strdup_printf ("out.%s", ext);

  return g_build_filename (full_disk_dir, name, NULL);
}

static void
assert_old_file_intact (const char *path)
{
  g_autofree char *contents = NULL;

  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, old_contents);
}

/* Every format from the command line: refused with the reason, the old
 * file intact, nothing left behind; then, with room, written whole */
static void
test_cli_full_disk (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      g_autofree char *path = target (formats[i]);
      g_autofree char *base = g_path_get_basename (path);
      g_autofree char *err = NULL;
      g_autofree char *listing = NULL;

      g_test_message ("%s", formats[i]);

      /* Over an old file */
      g_assert_true (g_file_set_contents (path, old_contents, -1, NULL));
      full_disk_fill (4096);
      g_assert_cmpint (run_cli (path, &err), !=, 0);
      if (strstr (err, g_strerror (ENOSPC)) == NULL || strstr (err, base) == NULL)
        g_error ("%s: stderr “%s” lacks the reason or the file", formats[i], err);
      assert_old_file_intact (path);
      listing = full_disk_list ();
      g_assert_cmpstr (listing, ==, base);
      g_clear_pointer (&err, g_free);
      g_clear_pointer (&listing, g_free);

      /* Nothing there before: nothing there after */
      g_unlink (path);
      full_disk_fill (4096);
      g_assert_cmpint (run_cli (path, &err), !=, 0);
      g_assert_nonnull (strstr (err, g_strerror (ENOSPC)));
      listing = full_disk_list ();
      g_assert_cmpstr (listing, ==, "");
      g_clear_pointer (&err, g_free);
    }

  /* With room (tmpfs only: the shim caps every file) the exports are whole */
  if (full_disk_kind == FULL_DISK_TMPFS)
    {
      g_autofree char *filler = g_build_filename (full_disk_dir, "filler", NULL);

      g_unlink (filler);
      for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
        {
          g_autofree char *path = target (formats[i]);
          g_autofree char *err = NULL;

          g_assert_true (g_file_set_contents (path, old_contents, -1, NULL));
          if (run_cli (path, &err) != 0)
            g_error ("%s with room: %s", formats[i], err);
          g_assert_cmpstr (err, ==, "");
          if (g_str_equal (formats[i], "folded") || g_str_has_prefix (formats[i], "pb") ||
              g_str_equal (formats[i], "json"))
            {
              g_autoptr(GFile) file = g_file_new_for_path (path);
              g_autoptr(GError) error = NULL;
              g_autoptr(EmbersProfile) profile = embers_profile_load_file (file, NULL, &error);

              g_assert_no_error (error);
              g_assert_cmpint (embers_profile_get_total (profile, 0), >, 0);
            }
          g_unlink (path);
        }
    }
}

/* The core writers: EmbersSave and embers_render_export() */
static void
test_core_full_disk (void)
{
  g_autofree char *path = target ("bin");
  g_autofree char *svg = target ("svg");
  g_autofree char *big = g_malloc0 (256 * 1024);
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersProfile) profile = NULL;
  g_autoptr(GFile) input = g_file_new_for_path (input_path);
  g_autofree char *listing = NULL;

  g_assert_true (g_file_set_contents (path, old_contents, -1, NULL));
  full_disk_fill (4096);

  g_assert_false (embers_save_contents (path, big, 256 * 1024, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE);
  g_assert_nonnull (strstr (error->message, g_strerror (ENOSPC)));
  assert_old_file_intact (path);
  g_clear_error (&error);

  /* Once a write failed, the rest fail the same and nothing is committed */
  {
    g_autoptr(EmbersSave) save = embers_save_new (path, &error);

    g_assert_no_error (error);
    g_assert_false (embers_save_write (save, big, 256 * 1024, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE);
    g_clear_error (&error);
    g_assert_false (embers_save_write (save, "x", 1, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE);
    g_clear_error (&error);
    g_assert_false (embers_save_commit (save, NULL, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE);
    g_clear_error (&error);
  }
  assert_old_file_intact (path);

  profile = embers_profile_load_file (input, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (svg, old_contents, -1, NULL));
  g_assert_false (embers_render_export (profile, 0, NULL, svg, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE);
  assert_old_file_intact (svg);

  listing = full_disk_list ();
  g_assert_cmpstr (listing, ==, "out.bin out.svg");
  g_unlink (path);
  g_unlink (svg);
}

int
main (int    argc,
      char **argv)
{
  int ret;

  full_disk_setup (argv, ENOSPC_SHIM);
  g_test_init (&argc, &argv, NULL);
  g_test_message ("full disk: %s in %s",
                  full_disk_kind == FULL_DISK_TMPFS ? "a tmpfs" : "the ENOSPC shim", full_disk_dir);
  make_input ();

  g_test_add_func ("/embers/full-disk/cli", test_cli_full_disk);
  g_test_add_func ("/embers/full-disk/core", test_core_full_disk);

  ret = g_test_run ();
  full_disk_teardown ();
  g_unlink (input_path);
  g_free (input_path);
  return ret;
}
