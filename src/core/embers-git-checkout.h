/* embers-git-checkout.h: the commit a checkout is at, read without git
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/*
 * Which commit a source file's checkout is at, and whether that is the
 * commit a profile was taken at (its `service_git_ref` or `git_ref`
 * label), read from the repository's files as git writes them, so that it
 * works where no git program is (the GNOME runtime inside Flatpak):
 *
 * - the checkout: the nearest folder up from the file that holds `.git`,
 *   a folder, or a file `gitdir: PATH` (a linked worktree, a submodule;
 *   PATH relative to the file's folder), as gitrepository-layout(5) says
 * - `HEAD`: a commit id, or `ref: refs/...` (followed at most 5 times, as
 *   git does)
 * - refs: loose files under `refs/`, then `packed-refs` (`ID NAME` lines,
 *   a `^ID` line after an annotated tag giving the commit it peels to);
 *   a linked worktree keeps HEAD in its own folder and the shared refs in
 *   the folder its `commondir` file names
 * - a branch or tag given by a short name is looked up as
 *   git-rev-parse(1) does: NAME, refs/NAME, refs/tags/NAME,
 *   refs/heads/NAME, refs/remotes/NAME, refs/remotes/NAME/HEAD
 * - an annotated tag stored as a loose object is peeled by reading it
 *   (zlib); a tag inside a pack file, or refs in the reftable format,
 *   cannot be read this way and give EMBERS_GIT_MATCH_UNKNOWN.
 *
 * Every file is read with a size limit, ref names are checked as
 * git-check-ref-format(1) says (so none climbs out of the repository),
 * and nothing is written. Hostile layouts (loops, huge files, bad ids)
 * give an error or UNKNOWN, never a wrong answer.
 */

typedef enum
{
  EMBERS_GIT_MATCH_NO_CHECKOUT,  /* the file is in no git checkout */
  EMBERS_GIT_MATCH_SAME,         /* the checkout is at the profile's commit */
  EMBERS_GIT_MATCH_OTHER,        /* at another commit (or the ref is not in it) */
  EMBERS_GIT_MATCH_UNKNOWN,      /* the files cannot tell (see the error) */
} EmbersGitMatch;

typedef struct
{
  char *worktree;   /* the folder that holds `.git` */
  char *git_dir;    /* the repository folder (HEAD's) */
  char *common_dir; /* where the shared refs are: git_dir but in a linked worktree */
  char *head;       /* the commit HEAD is at (lowercase hex), NULL on an unborn branch */
  char *head_ref;   /* the branch HEAD names ("refs/heads/main"), NULL when detached */
} EmbersGitCheckout;

void               embers_git_checkout_free    (EmbersGitCheckout *checkout);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (EmbersGitCheckout, embers_git_checkout_free)

/* The checkout @path (a file or folder) is in: NULL without @error set
 * when there is none; NULL with @error when its files are unreadable or
 * malformed */
EmbersGitCheckout *embers_git_checkout_open    (const char         *path,
                                                GError            **error);

/* The commit @rev names in the checkout: a commit id (full, or 7 or more
 * hex digits as a prefix of HEAD only: objects are not listed), or a
 * branch or tag name. NULL without @error when the checkout has no such
 * ref; NULL with @error when it cannot be told. */
char              *embers_git_checkout_resolve (EmbersGitCheckout  *checkout,
                                                const char         *rev,
                                                GError            **error);

/* Whether the checkout of @path is at @rev (blocking; small reads) */
EmbersGitMatch     embers_git_compare          (const char         *path,
                                                const char         *rev,
                                                char              **head,
                                                GError            **error);

/* The same off the main thread */
void               embers_git_compare_async    (const char         *path,
                                                const char         *rev,
                                                GCancellable       *cancellable,
                                                GAsyncReadyCallback callback,
                                                gpointer            user_data);
/* @head (nullable): the checkout's commit; @error set for UNKNOWN */
EmbersGitMatch     embers_git_compare_finish   (GAsyncResult       *result,
                                                char              **head,
                                                GError            **error);

/* Whether @name is a valid ref name (git-check-ref-format(1), with
 * --allow-onelevel) */
gboolean           embers_git_ref_name_is_valid (const char        *name);

G_END_DECLS
