/* test-git-checkout.c: a checkout's commit read from its files, without git
 *
 * Real repositories are made with git itself (skipped where there is no
 * git); hostile layouts are made by hand, as gitrepository-layout(5) and
 * git-pack-refs(1) describe the files.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "embers-git-checkout.h"

static char *
make_tmp (void)
{
  g_autoptr(GError) error = NULL;
  char *dir = g_dir_make_tmp ("embers-git-XXXXXX", &error);

  g_assert_no_error (error);
  return dir;
}

static void
rm_rf (const char *path)
{
  g_autoptr(GDir) dir = NULL;
  const char *name;

  if (g_file_test (path, G_FILE_TEST_IS_SYMLINK) || !g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_unlink (path);
      return;
    }
  dir = g_dir_open (path, 0, NULL);
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      rm_rf (child);
    }
  g_rmdir (path);
}

static void
write_file (const char *dir,
            const char *rel,
            const char *contents)
{
  g_autofree char *path = g_build_filename (dir, rel, NULL);
  g_autofree char *parent = g_path_get_dirname (path);
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (g_mkdir_with_parents (parent, 0700), ==, 0);
  g_file_set_contents (path, contents, -1, &error);
  g_assert_no_error (error);
}

/* ---- With git ---- */

static gboolean
have_git (void)
{
  g_autofree char *git = g_find_program_in_path ("git");

  return git != NULL;
}

/* Runs git in @dir; its first output line */
static char *
git (const char *dir,
     ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_auto(GStrv) env = g_get_environ ();
  int status = 0;
  const char *arg;
  va_list ap;

  env = g_environ_setenv (env, "GIT_CONFIG_NOSYSTEM", "1", TRUE);
  env = g_environ_setenv (env, "GIT_CONFIG_GLOBAL", "/dev/null", TRUE);
  env = g_environ_setenv (env, "GIT_AUTHOR_NAME", "Embers Test", TRUE);
  env = g_environ_setenv (env, "GIT_AUTHOR_EMAIL", "test@example.org", TRUE);
  env = g_environ_setenv (env, "GIT_COMMITTER_NAME", "Embers Test", TRUE);
  env = g_environ_setenv (env, "GIT_COMMITTER_EMAIL", "test@example.org", TRUE);
  env = g_environ_setenv (env, "GIT_AUTHOR_DATE", "2026-01-01T00:00:00Z", TRUE);
  env = g_environ_setenv (env, "GIT_COMMITTER_DATE", "2026-01-01T00:00:00Z", TRUE);

  g_ptr_array_add (argv, (gpointer) "git");
  g_ptr_array_add (argv, (gpointer) "-c");
  g_ptr_array_add (argv, (gpointer) "init.defaultBranch=main");
  g_ptr_array_add (argv, (gpointer) "-c");
  g_ptr_array_add (argv, (gpointer) "protocol.file.allow=always");
  va_start (ap, dir);
  while ((arg = va_arg (ap, const char *)) != NULL)
    g_ptr_array_add (argv, (gpointer) arg);
  va_end (ap);
  g_ptr_array_add (argv, NULL);

  g_spawn_sync (dir, (char **) argv->pdata, env, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, &err, &status, &error);
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("git %s failed: %s", (char *) argv->pdata[5], err);
  g_strstrip (out);
  if (strchr (out, '\n') != NULL)
    *strchr (out, '\n') = '\0';
  return g_steal_pointer (&out);
}

static char *
commit_file (const char *repo,
             const char *name,
             const char *text)
{
  write_file (repo, name, text);
  g_free (git (repo, "add", name, NULL));
  g_free (git (repo, "commit", "-q", "-m", text, NULL));
  return git (repo, "rev-parse", "HEAD", NULL);
}

static void
assert_match (const char     *path,
              const char     *rev,
              EmbersGitMatch  expected)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *head = NULL;
  EmbersGitMatch match = embers_git_compare (path, rev, &head, &error);

  if (expected != EMBERS_GIT_MATCH_UNKNOWN)
    g_assert_no_error (error);
  else
    g_assert_nonnull (error);
  g_assert_cmpint (match, ==, expected);
}

static void
test_real_repository (void)
{
  g_autofree char *tmp = NULL;
  g_autofree char *repo = NULL;
  g_autofree char *src = NULL;
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;
  g_autofree char *short_first = NULL;
  g_autoptr(EmbersGitCheckout) c = NULL;
  g_autoptr(GError) error = NULL;

  if (!have_git ())
    {
      g_test_skip ("no git");
      return;
    }
  tmp = make_tmp ();
  repo = g_build_filename (tmp, "repo", NULL);
  g_assert_cmpint (g_mkdir (repo, 0700), ==, 0);
  g_free (git (repo, "init", "-q", NULL));
  first = commit_file (repo, "src/main.c", "one");
  g_free (git (repo, "tag", "-a", "-m", "release", "v1.0", NULL));
  g_free (git (repo, "tag", "light", NULL));
  second = commit_file (repo, "src/main.c", "two");
  g_free (git (repo, "branch", "old", first, NULL));
  src = g_build_filename (repo, "src", "main.c", NULL);

  /* HEAD on a branch, loose refs */
  c = embers_git_checkout_open (src, &error);
  g_assert_no_error (error);
  g_assert_nonnull (c);
  g_assert_cmpstr (c->head, ==, second);
  g_assert_cmpstr (c->head_ref, ==, "refs/heads/main");
  assert_match (src, second, EMBERS_GIT_MATCH_SAME);
  assert_match (src, "main", EMBERS_GIT_MATCH_SAME);
  assert_match (src, "refs/heads/main", EMBERS_GIT_MATCH_SAME);
  assert_match (src, "old", EMBERS_GIT_MATCH_OTHER);
  assert_match (src, first, EMBERS_GIT_MATCH_OTHER);
  /* An annotated tag (a loose tag object, peeled by reading it) */
  assert_match (src, "v1.0", EMBERS_GIT_MATCH_OTHER);
  assert_match (src, "no-such-branch", EMBERS_GIT_MATCH_OTHER);

  /* Detached at the first commit: a short id, the tags */
  g_free (git (repo, "checkout", "-q", "--detach", first, NULL));
  g_clear_pointer (&c, embers_git_checkout_free);
  c = embers_git_checkout_open (src, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (c->head, ==, first);
  g_assert_null (c->head_ref);
  short_first = g_strndup (first, 9);
  assert_match (src, short_first, EMBERS_GIT_MATCH_SAME);
  assert_match (src, "v1.0", EMBERS_GIT_MATCH_SAME);
  assert_match (src, "light", EMBERS_GIT_MATCH_SAME);
  assert_match (src, "old", EMBERS_GIT_MATCH_SAME);
  assert_match (src, "main", EMBERS_GIT_MATCH_OTHER);

  /* Everything packed: packed-refs with ^ lines, objects in a pack */
  g_free (git (repo, "gc", "-q", NULL));
  g_free (git (repo, "pack-refs", "--all", NULL));
  {
    g_autofree char *loose = g_build_filename (repo, ".git", "refs", "tags", "v1.0", NULL);

    g_assert_false (g_file_test (loose, G_FILE_TEST_EXISTS));
  }
  assert_match (src, "v1.0", EMBERS_GIT_MATCH_SAME);
  assert_match (src, "refs/tags/v1.0", EMBERS_GIT_MATCH_SAME);
  assert_match (src, "light", EMBERS_GIT_MATCH_SAME);
  assert_match (src, "main", EMBERS_GIT_MATCH_OTHER);
  g_free (git (repo, "checkout", "-q", "main", NULL));
  assert_match (src, "main", EMBERS_GIT_MATCH_SAME);
  assert_match (src, "v1.0", EMBERS_GIT_MATCH_OTHER);

  /* A linked worktree: its own HEAD, the shared refs through commondir */
  {
    g_autofree char *wt = g_build_filename (tmp, "wt", NULL);
    g_autofree char *wt_src = g_build_filename (wt, "src", "main.c", NULL);
    g_autoptr(EmbersGitCheckout) w = NULL;

    g_free (git (repo, "worktree", "add", "-q", "-b", "feature", wt, "old", NULL));
    w = embers_git_checkout_open (wt_src, &error);
    g_assert_no_error (error);
    g_assert_cmpstr (w->worktree, ==, wt);
    g_assert_cmpstr (w->head, ==, first);
    g_assert_cmpstr (w->head_ref, ==, "refs/heads/feature");
    g_assert_cmpstr (w->common_dir, !=, w->git_dir);
    assert_match (wt_src, "feature", EMBERS_GIT_MATCH_SAME);
    assert_match (wt_src, "v1.0", EMBERS_GIT_MATCH_SAME);
    assert_match (wt_src, "main", EMBERS_GIT_MATCH_OTHER);
    /* The main checkout is still at its own */
    assert_match (src, "main", EMBERS_GIT_MATCH_SAME);
  }

  /* A submodule: `.git` is a file naming .git/modules/NAME */
  {
    g_autofree char *super = g_build_filename (tmp, "super", NULL);
    g_autofree char *sub_src = NULL;
    g_autofree char *dot_git = NULL;
    g_autofree char *sub_head = NULL;

    g_assert_cmpint (g_mkdir (super, 0700), ==, 0);
    g_free (git (super, "init", "-q", NULL));
    g_free (commit_file (super, "README", "super"));
    g_free (git (super, "submodule", "add", "-q", repo, "lib", NULL));
    dot_git = g_build_filename (super, "lib", ".git", NULL);
    g_assert_true (g_file_test (dot_git, G_FILE_TEST_IS_REGULAR));
    sub_src = g_build_filename (super, "lib", "src", "main.c", NULL);
    sub_head = git (super, "-C", "lib", "rev-parse", "HEAD", NULL);
    assert_match (sub_src, sub_head, EMBERS_GIT_MATCH_SAME);
    assert_match (sub_src, "main", EMBERS_GIT_MATCH_SAME);
    /* The superproject's own file is in the superproject */
    {
      g_autofree char *readme = g_build_filename (super, "README", NULL);
      g_autofree char *super_head = git (super, "rev-parse", "HEAD", NULL);

      assert_match (readme, super_head, EMBERS_GIT_MATCH_SAME);
      assert_match (readme, sub_head, EMBERS_GIT_MATCH_OTHER);
    }
  }

  /* Outside any checkout */
  {
    g_autofree char *alone = g_build_filename (tmp, "alone.c", NULL);

    write_file (tmp, "alone.c", "x");
    assert_match (alone, "main", EMBERS_GIT_MATCH_NO_CHECKOUT);
  }

  rm_rf (tmp);
}

/* ---- Made by hand ---- */

#define ID_A "1111111111111111111111111111111111111111"
#define ID_B "2222222222222222222222222222222222222222"
#define ID_256 "abababababababababababababababababababababababababababababababab"

/* A repository's bare minimum: HEAD, objects/, refs/ */
static char *
hand_repo (const char *tmp,
           const char *head)
{
  char *git_dir = g_build_filename (tmp, ".git", NULL);
  g_autofree char *objects = g_build_filename (git_dir, "objects", NULL);
  g_autofree char *refs = g_build_filename (git_dir, "refs", "heads", NULL);

  g_assert_cmpint (g_mkdir_with_parents (objects, 0700), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (refs, 0700), ==, 0);
  write_file (git_dir, "HEAD", head);
  write_file (tmp, "src/a.c", "int a;\n");
  return git_dir;
}

static void
test_hand_layouts (void)
{
  g_autofree char *tmp = make_tmp ();
  g_autofree char *git_dir = hand_repo (tmp, "ref: refs/heads/main\n");
  g_autofree char *src = g_build_filename (tmp, "src", "a.c", NULL);

  /* Unborn branch: at no commit */
  assert_match (src, "main", EMBERS_GIT_MATCH_OTHER);

  /* Loose, then packed only, then both (the loose one wins, as in git) */
  write_file (git_dir, "refs/heads/main", ID_A "\n");
  assert_match (src, "main", EMBERS_GIT_MATCH_SAME);
  assert_match (src, ID_A, EMBERS_GIT_MATCH_SAME);
  assert_match (src, "1111111", EMBERS_GIT_MATCH_SAME);
  assert_match (src, "2222222", EMBERS_GIT_MATCH_OTHER);
  write_file (git_dir, "packed-refs",
              "# pack-refs with: peeled fully-peeled sorted \n"
              ID_B " refs/heads/main\n"
              ID_B " refs/tags/annotated\n"
              "^" ID_A "\n"
              ID_A " refs/tags/light\n");
  assert_match (src, "main", EMBERS_GIT_MATCH_SAME);
  assert_match (src, "annotated", EMBERS_GIT_MATCH_SAME);
  assert_match (src, "light", EMBERS_GIT_MATCH_SAME);
  {
    g_autofree char *loose = g_build_filename (git_dir, "refs", "heads", "main", NULL);

    g_unlink (loose);
  }
  /* Now HEAD follows the packed branch */
  assert_match (src, "main", EMBERS_GIT_MATCH_SAME);
  assert_match (src, ID_B, EMBERS_GIT_MATCH_SAME);
  assert_match (src, "annotated", EMBERS_GIT_MATCH_OTHER);

  /* A SHA-256 repository */
  write_file (git_dir, "HEAD", ID_256 "\n");
  assert_match (src, ID_256, EMBERS_GIT_MATCH_SAME);
  assert_match (src, "abababab", EMBERS_GIT_MATCH_SAME);

  /* CRLF and spaces around the id */
  write_file (git_dir, "HEAD", ID_A "\r\n");
  assert_match (src, " " ID_A " ", EMBERS_GIT_MATCH_SAME);

  /* A `.git` file with a relative path, then a chain of two */
  {
    g_autofree char *other = g_build_filename (tmp, "elsewhere", NULL);
    g_autofree char *wt_src = NULL;

    write_file (tmp, "elsewhere/real/HEAD", ID_B "\n");
    write_file (tmp, "elsewhere/real/objects/.keep", "");
    write_file (tmp, "checkout/.git", "gitdir: ../elsewhere/real\n");
    write_file (tmp, "checkout/x/y.c", "y");
    wt_src = g_build_filename (tmp, "checkout", "x", "y.c", NULL);
    assert_match (wt_src, ID_B, EMBERS_GIT_MATCH_SAME);
    write_file (tmp, "checkout/.git", "gitdir: ../hop\n");
    write_file (tmp, "hop", "gitdir: elsewhere/real\n");
    assert_match (wt_src, ID_B, EMBERS_GIT_MATCH_SAME);
  }

  rm_rf (tmp);
}

static void
test_hostile (void)
{
  g_autofree char *tmp = make_tmp ();
  g_autofree char *git_dir = hand_repo (tmp, "ref: refs/heads/main\n");
  g_autofree char *src = g_build_filename (tmp, "src", "a.c", NULL);
  g_autofree char *head = g_build_filename (git_dir, "HEAD", NULL);

  /* A symbolic ref loop */
  write_file (git_dir, "refs/heads/main", "ref: refs/heads/other\n");
  write_file (git_dir, "refs/heads/other", "ref: refs/heads/main\n");
  assert_match (src, "main", EMBERS_GIT_MATCH_UNKNOWN);

  /* A ref that climbs out of the repository, or holds junk */
  write_file (git_dir, "HEAD", "ref: ../../../../etc/passwd\n");
  assert_match (src, "main", EMBERS_GIT_MATCH_UNKNOWN);
  write_file (git_dir, "HEAD", "ref: refs/heads/x..y\n");
  assert_match (src, "main", EMBERS_GIT_MATCH_UNKNOWN);
  write_file (git_dir, "HEAD", "not a commit\n");
  assert_match (src, "main", EMBERS_GIT_MATCH_UNKNOWN);
  write_file (git_dir, "HEAD", ID_A);
  /* A bad ref name from the profile never reads a file */
  assert_match (src, "../../HEAD", EMBERS_GIT_MATCH_UNKNOWN);
  assert_match (src, "config", EMBERS_GIT_MATCH_OTHER);
  assert_match (src, "refs/heads/a.lock", EMBERS_GIT_MATCH_UNKNOWN);

  /* HEAD a symlink to itself (ELOOP), then a symlink loop between two */
  g_unlink (head);
  g_assert_cmpint (symlink ("HEAD", head), ==, 0);
  assert_match (src, "main", EMBERS_GIT_MATCH_UNKNOWN);
  g_unlink (head);
  write_file (git_dir, "HEAD", "ref: refs/heads/loop\n");
  {
    g_autofree char *loop = g_build_filename (git_dir, "refs", "heads", "loop", NULL);
    g_autofree char *loop2 = g_build_filename (git_dir, "refs", "heads", "loop2", NULL);

    g_assert_cmpint (symlink ("loop2", loop), ==, 0);
    g_assert_cmpint (symlink ("loop", loop2), ==, 0);
  }
  assert_match (src, "main", EMBERS_GIT_MATCH_UNKNOWN);

  /* A huge HEAD and a huge packed-refs are not read whole */
  {
    g_autofree char *big = g_malloc (200 * 1024 + 1);

    memset (big, 'a', 200 * 1024);
    big[200 * 1024] = '\0';
    write_file (git_dir, "HEAD", big);
    assert_match (src, "main", EMBERS_GIT_MATCH_UNKNOWN);
  }
  write_file (git_dir, "HEAD", "ref: refs/heads/packed\n");
  {
    g_autofree char *packed = g_build_filename (git_dir, "packed-refs", NULL);
    FILE *f = fopen (packed, "w");

    g_assert_nonnull (f);
    /* A sparse file bigger than the limit: cheap to make */
    g_assert_cmpint (fseek (f, 65 * 1024 * 1024, SEEK_SET), ==, 0);
    fputc ('\n', f);
    fclose (f);
    assert_match (src, "main", EMBERS_GIT_MATCH_UNKNOWN);
    /* Garbage lines are skipped, not misread */
    write_file (git_dir, "packed-refs", "garbage\n" ID_A "x refs/heads/packed\n^" ID_B "\n\n\n");
    assert_match (src, ID_A, EMBERS_GIT_MATCH_OTHER);
  }

  /* HEAD a folder, a fifo-free special: not a regular file */
  {
    g_unlink (head);
    g_assert_cmpint (g_mkdir (head, 0700), ==, 0);
    assert_match (src, "main", EMBERS_GIT_MATCH_NO_CHECKOUT);
    g_rmdir (head);
    write_file (git_dir, "HEAD", ID_A);
  }

  /* A `.git` file that points to itself, nowhere, or at junk */
  {
    g_autofree char *sub_src = g_build_filename (tmp, "sub", "s.c", NULL);

    write_file (tmp, "sub/s.c", "s");
    write_file (tmp, "sub/.git", "gitdir: .git\n");
    assert_match (sub_src, "main", EMBERS_GIT_MATCH_UNKNOWN);
    write_file (tmp, "sub/.git", "gitdir: /nonexistent/embers\n");
    assert_match (sub_src, "main", EMBERS_GIT_MATCH_UNKNOWN);
    write_file (tmp, "sub/.git", "hello\n");
    assert_match (sub_src, "main", EMBERS_GIT_MATCH_UNKNOWN);
    write_file (tmp, "sub/.git", "");
    assert_match (sub_src, "main", EMBERS_GIT_MATCH_UNKNOWN);
  }

  /* A reftable repository says it cannot be read */
  {
    g_autofree char *reftable = g_build_filename (git_dir, "reftable", NULL);

    g_assert_cmpint (g_mkdir (reftable, 0700), ==, 0);
    assert_match (src, "main", EMBERS_GIT_MATCH_UNKNOWN);
    g_rmdir (reftable);
  }

  /* A worktree whose commondir is missing */
  {
    g_autofree char *w_src = g_build_filename (tmp, "w", "w.c", NULL);

    write_file (tmp, "w/w.c", "w");
    write_file (tmp, "wgit/HEAD", ID_A "\n");
    write_file (tmp, "wgit/commondir", "../nowhere\n");
    write_file (tmp, "w/.git", "gitdir: ../wgit\n");
    assert_match (w_src, ID_A, EMBERS_GIT_MATCH_UNKNOWN);
  }

  rm_rf (tmp);
}

static void
test_ref_names (void)
{
  const char *good[] = { "main", "refs/heads/main", "v1.0", "feature/x-y", "HEAD", "a@b", NULL };
  const char *bad[] = { "", "@", "/main", "main/", "a..b", "a//b", ".hidden", "x/.y", "a.lock", "a b",
                        "a~1", "a^", "a:b", "a?", "a*", "a[", "a\\b", "a@{1}", "main.", "\x01", NULL };

  for (guint i = 0; good[i] != NULL; i++)
    g_assert_true (embers_git_ref_name_is_valid (good[i]));
  for (guint i = 0; bad[i] != NULL; i++)
    g_assert_false (embers_git_ref_name_is_valid (bad[i]));
}

static void
on_compared (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

static void
test_async (void)
{
  g_autofree char *tmp = make_tmp ();
  g_autofree char *git_dir = hand_repo (tmp, ID_A "\n");
  g_autofree char *src = g_build_filename (tmp, "src", "a.c", NULL);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *head = NULL;

  embers_git_compare_async (src, "1111111", NULL, on_compared, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpint (embers_git_compare_finish (result, &head, &error), ==, EMBERS_GIT_MATCH_SAME);
  g_assert_no_error (error);
  g_assert_cmpstr (head, ==, ID_A);
  rm_rf (tmp);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/embers/git-checkout/real-repository", test_real_repository);
  g_test_add_func ("/embers/git-checkout/hand-layouts", test_hand_layouts);
  g_test_add_func ("/embers/git-checkout/hostile", test_hostile);
  g_test_add_func ("/embers/git-checkout/ref-names", test_ref_names);
  g_test_add_func ("/embers/git-checkout/async", test_async);

  return g_test_run ();
}
