/* fuzz-git-checkout.c: libFuzzer target for embers_git_compare(), the
 * reader of a checkout's .git files (HEAD, a loose ref, packed-refs, a
 * loose object, a .git file) and of the profile's ref.
 *
 * The input is split at NUL bytes into: HEAD, refs/heads/main,
 * packed-refs, the worktree's .git file (empty: a .git folder), an object
 * (written raw: zlib or not), and the ref to resolve. Hostile files give
 * an answer or an error, never a crash, a hang or an error-less UNKNOWN.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "fuzz-common.h"

#include <glib/gstdio.h>

#include "embers-git-checkout.h"

static char *tmp;

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  fuzz_init ();
  tmp = g_dir_make_tmp ("embers-fuzz-git-XXXXXX", NULL);
  if (tmp == NULL)
    abort ();
  return 0;
}

static void
put (const char *rel,
     const char *data,
     gsize       len)
{
  g_autofree char *path = g_build_filename (tmp, rel, NULL);
  g_autofree char *dir = g_path_get_dirname (path);

  g_mkdir_with_parents (dir, 0700);
  if (!g_file_set_contents (path, data, (gssize) len, NULL))
    abort ();
}

static void
drop (const char *rel)
{
  g_autofree char *path = g_build_filename (tmp, rel, NULL);

  g_unlink (path);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  const char *parts[6] = { "", "", "", "", "", "main" };
  gsize lens[6] = { 0, 0, 0, 0, 0, 4 };
  const char *p = (const char *) data, *end = (const char *) data + size;
  g_autofree char *rev = NULL;
  g_autofree char *head = NULL;
  g_autofree char *file = NULL;
  g_autoptr(GError) error = NULL;
  EmbersGitMatch match;

  for (guint i = 0; i < 6 && p <= end; i++)
    {
      const char *nul = memchr (p, '\0', (gsize) (end - p));
      gsize len = nul != NULL ? (gsize) (nul - p) : (gsize) (end - p);

      parts[i] = p;
      lens[i] = len;
      p += len + 1;
    }

  /* A checkout at tmp/w: its .git a folder, or a file naming tmp/g */
  drop ("w/.git");
  put ("g/HEAD", parts[0], lens[0]);
  put ("g/refs/heads/main", parts[1], lens[1]);
  put ("g/packed-refs", parts[2], lens[2]);
  put ("g/objects/11/11111111111111111111111111111111111111", parts[4], lens[4]);
  put ("w/src/a.c", "a", 1);
  if (lens[3] > 0)
    put ("w/.git", parts[3], lens[3]);
  else
    {
      g_autofree char *link = g_build_filename (tmp, "w", ".git", NULL);
      g_autofree char *target = g_build_filename (tmp, "g", NULL);

      if (symlink (target, link) != 0)
        abort ();
    }

  rev = g_strndup (parts[5], lens[5]);
  if (!g_utf8_validate (rev, -1, NULL) || rev[0] == '\0')
    return 0;
  file = g_build_filename (tmp, "w", "src", "a.c", NULL);
  match = embers_git_compare (file, rev, &head, &error);
  if (match > EMBERS_GIT_MATCH_UNKNOWN)
    fuzz_fail ("git: match %d", match);
  if ((match == EMBERS_GIT_MATCH_UNKNOWN) != (error != NULL))
    fuzz_fail ("git: UNKNOWN %s an error", error != NULL ? "with" : "without");
  if (head != NULL && strlen (head) != 40 && strlen (head) != 64)
    fuzz_fail ("git: HEAD %s is no object id", head);
  return 0;
}
