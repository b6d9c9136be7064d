/* full-disk.h: a small disk that fills up, for export tests
 *
 * full_disk_setup() gives a test a folder where writes run out of space:
 *
 *  - a real tmpfs of FULL_DISK_SIZE bytes, mounted in a private user and
 *    mount namespace (needs unprivileged user namespaces; the namespace is
 *    entered before any thread exists, and children such as the embers
 *    command line see the same mount);
 *  - where that is not allowed, or with EMBERS_TEST_FULL_DISK=shim, the
 *    test runs again with tests/enospc-shim.so preloaded: writes to files
 *    in the folder fail with ENOSPC once a file would pass
 *    FULL_DISK_SHIM_FILE_CAP bytes (a partial write first, as a disk
 *    does).
 *
 * full_disk_fill() then leaves only @free bytes free (tmpfs) or is a no-op
 * (the shim's cap already applies). Either way a write error carries
 * ENOSPC's reason, "No space left on device".
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

/* Needs _GNU_SOURCE (unshare) defined before the first #include */

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>

#define FULL_DISK_SIZE          (2 * 1024 * 1024)
#define FULL_DISK_SHIM_FILE_CAP "4096"

typedef enum
{
  FULL_DISK_TMPFS,
  FULL_DISK_SHIM,
} FullDiskKind;

static char         *full_disk_dir;
static FullDiskKind  full_disk_kind;

static gboolean
full_disk_write_file (const char *path,
                      const char *contents)
{
  int fd = open (path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  gsize len = strlen (contents);
  gboolean ok;

  if (fd < 0)
    return FALSE;
  ok = write (fd, contents, len) == (gssize)len;
  return close (fd) == 0 && ok;
}

/* A private tmpfs: user namespace (keeping our ids), mount namespace */
static gboolean
full_disk_try_tmpfs (void)
{
  g_autofree char *uid_map = g_strdup_printf ("%u %u 1\n", (guint)getuid (), (guint)getuid ());
  g_autofree char *gid_map = g_strdup_printf ("%u %u 1\n", (guint)getgid (), (guint)getgid ());
  g_autofree char *dir = g_build_filename (g_get_tmp_dir (), "embers-full-disk-XXXXXX", NULL);
  g_autofree char *options = g_strdup_printf ("size=%d,mode=0755", FULL_DISK_SIZE);

  if (g_mkdtemp (dir) == NULL)
    return FALSE;

  if (unshare (CLONE_NEWUSER | CLONE_NEWNS) != 0 ||
      !full_disk_write_file ("/proc/self/setgroups", "deny") ||
      !full_disk_write_file ("/proc/self/uid_map", uid_map) ||
      !full_disk_write_file ("/proc/self/gid_map", gid_map) ||
      mount (NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0 ||
      mount ("tmpfs", dir, "tmpfs", MS_NOSUID | MS_NODEV, options) != 0)
    {
      g_test_message ("no tmpfs (%s): using the ENOSPC shim", g_strerror (errno));
      g_rmdir (dir);
      return FALSE;
    }

  full_disk_dir = g_steal_pointer (&dir);
  full_disk_kind = FULL_DISK_TMPFS;
  return TRUE;
}

/* Call first in main(), before any thread exists. @shim is the path of
 * enospc-shim.so. May run the program again (the shim). */
static void
full_disk_setup (char       **argv,
                 const char  *shim)
{
  const char *dir = g_getenv ("EMBERS_FULL_DISK_DIR");
  const char *want = g_getenv ("EMBERS_TEST_FULL_DISK");

  if (dir != NULL)
    {
      /* The second run, with the shim in place */
      full_disk_dir = g_strdup (dir);
      full_disk_kind = FULL_DISK_SHIM;
      return;
    }

  if (g_strcmp0 (want, "shim") != 0 && full_disk_try_tmpfs ())
    return;

  {
    g_autofree char *tmp = g_build_filename (g_get_tmp_dir (), "embers-full-disk-XXXXXX", NULL);
    const char *preload = g_getenv ("LD_PRELOAD");
    const char *asan = g_getenv ("ASAN_OPTIONS");
    g_autofree char *new_preload = NULL;
    g_autofree char *new_asan = NULL;

    if (g_mkdtemp (tmp) == NULL)
      g_error ("mkdtemp: %s", g_strerror (errno));
    new_preload = preload != NULL && preload[0] != '\0' ? g_strdup_printf ("%s:%s", preload, shim)
                                                        : g_strdup (shim);
    /* ASan wants to be first; the shim only wraps write() */
    new_asan = asan != NULL && asan[0] != '\0' ? g_strdup_printf ("%s:verify_asan_link_order=0", asan)
                                               : g_strdup ("verify_asan_link_order=0");
    g_setenv ("EMBERS_FULL_DISK_DIR", tmp, TRUE);
    g_setenv ("EMBERS_ENOSPC_DIR", tmp, TRUE);
    g_setenv ("EMBERS_ENOSPC_FILE_CAP", FULL_DISK_SHIM_FILE_CAP, TRUE);
    g_setenv ("LD_PRELOAD", new_preload, TRUE);
    g_setenv ("ASAN_OPTIONS", new_asan, TRUE);
    execv ("/proc/self/exe", argv);
    g_error ("could not run again with the shim: %s", g_strerror (errno));
  }
}

/* Leaves about @free bytes free (tmpfs); the shim caps each file instead */
static void
full_disk_fill (gsize free_bytes)
{
  g_autofree char *filler = g_build_filename (full_disk_dir, "filler", NULL);
  struct statvfs st;
  guint64 avail;
  int fd;

  if (full_disk_kind != FULL_DISK_TMPFS)
    return;

  g_unlink (filler);
  g_assert_cmpint (statvfs (full_disk_dir, &st), ==, 0);
  avail = (guint64)st.f_bavail * st.f_frsize;
  if (avail <= free_bytes)
    return;

  fd = open (filler, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  g_assert_cmpint (fd, >=, 0);
  {
    g_autofree char *block = g_malloc0 (65536);
    guint64 left = avail - free_bytes;

    while (left > 0)
      {
        gssize n = write (fd, block, MIN (left, (guint64)65536));

        g_assert_cmpint (n, >, 0);
        left -= (guint64)n;
      }
  }
  g_assert_cmpint (close (fd), ==, 0);
}

/* The names in the folder, but the filler: a failed export leaves none */
static char *
full_disk_list (void)
{
  g_autoptr(GDir) dir = g_dir_open (full_disk_dir, 0, NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  const char *name;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    if (!g_str_equal (name, "filler"))
      g_ptr_array_add (names, (gpointer)name);
  g_ptr_array_sort_values (names, (GCompareFunc)g_strcmp0);
  g_ptr_array_add (names, NULL);
  return g_strjoinv (" ", (char **)names->pdata);
}

static void
full_disk_teardown (void)
{
  g_autoptr(GDir) dir = g_dir_open (full_disk_dir, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (full_disk_dir, name, NULL);

      g_unlink (path);
    }
  if (full_disk_kind == FULL_DISK_TMPFS)
    umount2 (full_disk_dir, MNT_DETACH);
  g_rmdir (full_disk_dir);
  g_clear_pointer (&full_disk_dir, g_free);
}
