/* embers-git-checkout.c: the commit a checkout is at, read without git
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "embers-git-checkout.h"

/* HEAD, a loose ref or a `.git` file: a line; packed-refs: a list that
 * real repositories keep well under this; a tag object: a few lines and
 * its message */
#define SMALL_FILE_MAX   (64 * 1024)
#define PACKED_REFS_MAX  (64 * 1024 * 1024)
#define TAG_OBJECT_MAX   (1024 * 1024)
/* git follows symbolic refs 5 deep (refs/files-backend.c, SYMREF_MAXDEPTH) */
#define SYMREF_DEPTH     5
/* Folders walked up from a file to its checkout */
#define MAX_UP           256
/* A chain of `.git` files (a submodule of a worktree...) */
#define MAX_GITFILE      8

void
embers_git_checkout_free (EmbersGitCheckout *checkout)
{
  if (checkout == NULL)
    return;
  g_free (checkout->worktree);
  g_free (checkout->git_dir);
  g_free (checkout->common_dir);
  g_free (checkout->head);
  g_free (checkout->head_ref);
  g_free (checkout);
}

/* ---- Reading ---- */

/* A regular file's bytes, at most @max of them: NULL and FALSE with
 * @error when it is not there (G_IO_ERROR_NOT_FOUND), not a regular file,
 * too large or unreadable */
static gboolean
read_small (const char  *path,
            gsize        max,
            char       **contents,
            gsize       *length,
            GError     **error)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFileInputStream) in = NULL;
  g_autoptr(GFileInfo) info = NULL;
  g_autoptr(GByteArray) bytes = NULL;
  guint8 buf[8192];

  /* Opening follows symlinks: a loop fails here (ELOOP) */
  in = g_file_read (file, NULL, error);
  if (in == NULL)
    return FALSE;
  info = g_file_input_stream_query_info (in, G_FILE_ATTRIBUTE_STANDARD_TYPE "," G_FILE_ATTRIBUTE_STANDARD_SIZE,
                                         NULL, error);
  if (info == NULL)
    return FALSE;
  if (g_file_info_get_file_type (info) != G_FILE_TYPE_REGULAR)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE,
                   _("“%s” is not a regular file"), path);
      return FALSE;
    }
  if ((guint64)g_file_info_get_size (info) > max)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_MESSAGE_TOO_LARGE,
                   _("“%s” is too large to be a git file"), path);
      return FALSE;
    }
  /* Read to the limit whatever the size said (a file that grows) */
  bytes = g_byte_array_new ();
  for (;;)
    {
      gssize n = g_input_stream_read (G_INPUT_STREAM (in), buf, sizeof buf, NULL, error);

      if (n < 0)
        return FALSE;
      if (n == 0)
        break;
      if (bytes->len + (gsize)n > max)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_MESSAGE_TOO_LARGE,
                       _("“%s” is too large to be a git file"), path);
          return FALSE;
        }
      g_byte_array_append (bytes, buf, (guint)n);
    }
  *length = bytes->len;
  g_byte_array_append (bytes, (const guint8 *)"", 1);
  *contents = (char *)g_byte_array_free (g_steal_pointer (&bytes), FALSE);
  return TRUE;
}

/* The first line of a small file, without its end; NULL with
 * G_IO_ERROR_NOT_FOUND when the file is not there */
static char *
read_line (const char  *path,
           GError     **error)
{
  g_autofree char *contents = NULL;
  gsize length = 0;
  char *nl;

  if (!read_small (path, SMALL_FILE_MAX, &contents, &length, error))
    return NULL;
  if (memchr (contents, '\0', length) != NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("“%s” is not a git file"), path);
      return NULL;
    }
  if ((nl = strchr (contents, '\n')) != NULL)
    *nl = '\0';
  if (nl != NULL && nl > contents && nl[-1] == '\r')
    nl[-1] = '\0';
  return g_steal_pointer (&contents);
}

/* A full object id: 40 (SHA-1) or 64 (SHA-256) hex digits */
static gboolean
is_object_id (const char *s,
              gsize       len)
{
  if (len != 40 && len != 64)
    return FALSE;
  for (gsize i = 0; i < len; i++)
    if (!g_ascii_isxdigit (s[i]))
      return FALSE;
  return TRUE;
}

static gboolean
is_hex_prefix (const char *s)
{
  gsize n = strlen (s);

  if (n < 7 || n > 64)
    return FALSE;
  for (gsize i = 0; i < n; i++)
    if (!g_ascii_isxdigit (s[i]))
      return FALSE;
  return TRUE;
}

/* git-check-ref-format(1), with --allow-onelevel */
gboolean
embers_git_ref_name_is_valid (const char *name)
{
  const char *component = name;
  gsize len;

  if (name == NULL || (len = strlen (name)) == 0 || len > 1024)
    return FALSE;
  if (g_str_equal (name, "@") || name[len - 1] == '/' || name[len - 1] == '.' || name[0] == '/')
    return FALSE;
  for (const char *p = name; *p != '\0'; p++)
    {
      guchar c = (guchar)*p;

      if (c < 0x20 || c == 0x7f || c == ' ' || c == '~' || c == '^' || c == ':' ||
          c == '?' || c == '*' || c == '[' || c == '\\')
        return FALSE;
      if (c == '.' && p[1] == '.')
        return FALSE;
      if (c == '@' && p[1] == '{')
        return FALSE;
      if (c == '/' && p[1] == '/')
        return FALSE;
      if (c == '/' || p[1] == '\0')
        {
          const char *stop = c == '/' ? p : p + 1;

          /* No component starts with a dot or ends with .lock */
          if (component[0] == '.')
            return FALSE;
          if (stop - component >= 5 && strncmp (stop - 5, ".lock", 5) == 0)
            return FALSE;
          component = p + 1;
        }
    }
  return TRUE;
}

/* The folder a `.git` file names, relative to the file's folder */
static char *
read_gitfile (const char  *path,
              GError     **error)
{
  g_autofree char *line = read_line (path, error);
  g_autofree char *dir = NULL;
  const char *target;

  if (line == NULL)
    return NULL;
  if (!g_str_has_prefix (line, "gitdir: ") || line[8] == '\0')
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("“%s” does not name a git folder"), path);
      return NULL;
    }
  target = line + 8;
  if (g_path_is_absolute (target))
    return g_canonicalize_filename (target, NULL);
  dir = g_path_get_dirname (path);
  return g_canonicalize_filename (target, dir);
}

static gboolean
is_dir (const char *path)
{
  return g_file_test (path, G_FILE_TEST_IS_DIR);
}

/* A git folder has HEAD and objects/ (or a commondir that has them) */
static gboolean
looks_like_git_dir (const char *dir)
{
  g_autofree char *head = g_build_filename (dir, "HEAD", NULL);
  g_autofree char *commondir = g_build_filename (dir, "commondir", NULL);
  g_autofree char *objects = g_build_filename (dir, "objects", NULL);

  return g_file_test (head, G_FILE_TEST_IS_REGULAR | G_FILE_TEST_IS_SYMLINK) &&
         (is_dir (objects) || g_file_test (commondir, G_FILE_TEST_EXISTS));
}

/* ---- Refs ---- */

/* The id a packed-refs file gives @ref, peeled (^ line) when it is an
 * annotated tag: NULL when it has none */
static char *
packed_ref (const char  *common_dir,
            const char  *ref,
            gboolean    *peeled,
            GError     **error)
{
  g_autofree char *path = g_build_filename (common_dir, "packed-refs", NULL);
  g_autofree char *contents = NULL;
  g_autoptr(GError) local = NULL;
  gsize length = 0;
  gsize ref_len = strlen (ref);
  char *line, *next;
  char *found = NULL;
  gboolean traits_all = FALSE, traits_tags = FALSE;

  *peeled = FALSE;
  if (!read_small (path, PACKED_REFS_MAX, &contents, &length, &local))
    {
      if (!g_error_matches (local, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
        g_propagate_error (error, g_steal_pointer (&local));
      return NULL;
    }

  for (line = contents; line != NULL && line < contents + length; line = next)
    {
      char *nl = memchr (line, '\n', (gsize)(contents + length - line));
      gsize len;

      next = nl != NULL ? nl + 1 : NULL;
      len = nl != NULL ? (gsize)(nl - line) : (gsize)(contents + length - line);
      if (len > 0 && line[len - 1] == '\r')
        len--;
      if (len == 0)
        continue;
      if (line[0] == '#')
        {
          /* "# pack-refs with: peeled fully-peeled sorted": a ref with
           * no ^ line is then no annotated tag */
          g_autofree char *header = g_strndup (line, len);

          if (strstr (header, " fully-peeled") != NULL)
            traits_all = TRUE;
          else if (strstr (header, " peeled") != NULL)
            traits_tags = TRUE;
          continue;
        }
      if (line[0] == '^')
        {
          /* The commit the tag just read peels to */
          if (found != NULL && is_object_id (line + 1, len - 1))
            {
              g_free (found);
              found = g_ascii_strdown (line + 1, (gssize)len - 1);
              *peeled = TRUE;
            }
          if (found != NULL)
            break;
          continue;
        }
      if (found != NULL)
        break;
      {
        char *space = memchr (line, ' ', len);

        if (space == NULL || !is_object_id (line, (gsize)(space - line)))
          continue;
        if ((gsize)(line + len - (space + 1)) == ref_len && memcmp (space + 1, ref, ref_len) == 0)
          {
            found = g_ascii_strdown (line, space - line);
            *peeled = traits_all || (traits_tags && g_str_has_prefix (ref, "refs/tags/"));
          }
      }
    }
  return found;
}

/* Whether a ref lives in the worktree's own folder (HEAD, bisect, ...)
 * rather than the shared one, as gitrepository-layout(5) lists */
static gboolean
per_worktree (const char *ref)
{
  return !g_str_has_prefix (ref, "refs/") ||
         g_str_has_prefix (ref, "refs/bisect/") ||
         g_str_has_prefix (ref, "refs/worktree/") ||
         g_str_has_prefix (ref, "refs/rewritten/");
}

/* What @ref (a full name, "HEAD" or "refs/...") points at, following
 * symbolic refs: an object id, or NULL without @error when there is no
 * such ref. @symref receives the last symbolic target (HEAD's branch). */
static char *
read_ref (EmbersGitCheckout  *c,
          const char         *ref,
          char              **symref,
          gboolean           *peeled,
          GError            **error)
{
  g_autofree char *name = g_strdup (ref);

  *peeled = FALSE;
  for (guint depth = 0; depth <= SYMREF_DEPTH; depth++)
    {
      g_autofree char *path = NULL;
      g_autofree char *line = NULL;
      g_autoptr(GError) local = NULL;
      const char *dir;

      if (!embers_git_ref_name_is_valid (name))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("“%s” is not a valid ref name"), name);
          return NULL;
        }
      dir = per_worktree (name) ? c->git_dir : c->common_dir;
      path = g_build_filename (dir, name, NULL);
      line = read_line (path, &local);
      if (line == NULL)
        {
          /* A folder of that name (refs/heads is one) is no ref either */
          if (!g_error_matches (local, G_IO_ERROR, G_IO_ERROR_NOT_FOUND) &&
              !g_error_matches (local, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE) &&
              !g_error_matches (local, G_IO_ERROR, G_IO_ERROR_IS_DIRECTORY) &&
              !g_error_matches (local, G_IO_ERROR, G_IO_ERROR_NOT_DIRECTORY))
            {
              g_propagate_error (error, g_steal_pointer (&local));
              return NULL;
            }
          if (!g_str_has_prefix (name, "refs/"))
            return NULL;
          return packed_ref (c->common_dir, name, peeled, error);
        }
      g_strstrip (line);
      if (g_str_has_prefix (line, "ref:"))
        {
          const char *target = line + 4;

          while (*target == ' ' || *target == '\t')
            target++;
          if (symref != NULL)
            {
              g_free (*symref);
              *symref = g_strdup (target);
            }
          g_free (name);
          name = g_strdup (target);
          continue;
        }
      if (!is_object_id (line, strlen (line)))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("“%s” holds no commit id"), path);
          return NULL;
        }
      return g_ascii_strdown (line, -1);
    }
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_TOO_MANY_LINKS,
               _("The ref “%s” refers to itself or goes too deep"), ref);
  return NULL;
}

/* A loose object's bytes, inflated, at most @max of them: NULL without
 * @error when it is not loose (packed objects are not read) */
static char *
read_loose_object (EmbersGitCheckout  *c,
                   const char         *id,
                   gsize               max,
                   gsize              *length,
                   GError            **error)
{
  g_autofree char *sub = g_strndup (id, 2);
  g_autofree char *path = g_build_filename (c->common_dir, "objects", sub, id + 2, NULL);
  g_autofree char *raw = NULL;
  g_autoptr(GError) local = NULL;
  g_autoptr(GZlibDecompressor) z = NULL;
  g_autoptr(GByteArray) out = NULL;
  gsize raw_len = 0, in_pos = 0;
  guint8 buf[4096];

  if (!read_small (path, max, &raw, &raw_len, &local))
    {
      if (!g_error_matches (local, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
        g_propagate_error (error, g_steal_pointer (&local));
      return NULL;
    }
  z = g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_ZLIB);
  out = g_byte_array_new ();
  for (;;)
    {
      gsize read = 0, written = 0;
      GConverterResult r;

      r = g_converter_convert (G_CONVERTER (z), raw + in_pos, raw_len - in_pos, buf, sizeof buf,
                               G_CONVERTER_INPUT_AT_END, &read, &written, error);
      if (r == G_CONVERTER_ERROR)
        return NULL;
      in_pos += read;
      if (out->len + written > max)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_MESSAGE_TOO_LARGE, _("The git object %s is too large"), id);
          return NULL;
        }
      g_byte_array_append (out, buf, (guint)written);
      if (r == G_CONVERTER_FINISHED || (read == 0 && written == 0))
        break;
    }
  *length = out->len;
  g_byte_array_append (out, (const guint8 *)"", 1);
  return (char *)g_byte_array_free (g_steal_pointer (&out), FALSE);
}

/* The commit an object id names: itself, or what an annotated tag
 * (loose) points at. NULL with @error when it cannot be told. */
static char *
peel (EmbersGitCheckout  *c,
      const char         *id,
      GError            **error)
{
  g_autofree char *current = g_strdup (id);

  /* A tag of a tag of ...: a few levels */
  for (guint depth = 0; depth < SYMREF_DEPTH; depth++)
    {
      g_autofree char *object = NULL;
      g_autoptr(GError) local = NULL;
      gsize len = 0;
      const char *body, *line;

      object = read_loose_object (c, current, TAG_OBJECT_MAX, &len, &local);
      if (object == NULL)
        {
          if (local != NULL)
            {
              g_propagate_error (error, g_steal_pointer (&local));
              return NULL;
            }
          /* Packed: a commit as far as we can tell only from refs that
           * name commits; say that it cannot be told */
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                       _("The object %.12s is packed; Embers reads only loose objects"), current);
          return NULL;
        }
      /* "TYPE SIZE\0BODY" */
      body = memchr (object, '\0', len);
      if (body == NULL)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("The git object %s is damaged"), current);
          return NULL;
        }
      body++;
      if (g_str_has_prefix (object, "commit "))
        return g_steal_pointer (&current);
      if (!g_str_has_prefix (object, "tag "))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("The ref names no commit but %.*s"),
                       (int)strcspn (object, " "), object);
          return NULL;
        }
      line = body;
      if (!g_str_has_prefix (line, "object ") || !is_object_id (line + 7, strcspn (line + 7, "\n")))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("The git object %s is damaged"), current);
          return NULL;
        }
      g_free (current);
      current = g_ascii_strdown (line + 7, (gssize)strcspn (line + 7, "\n"));
    }
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_TOO_MANY_LINKS, _("The tag %s goes too deep"), id);
  return NULL;
}

/* HEAD, ORIG_HEAD, FETCH_HEAD...: capitals and underscores ending in HEAD */
static gboolean
is_head_name (const char *rev)
{
  for (const char *p = rev; *p != '\0'; p++)
    if (!g_ascii_isupper (*p) && *p != '_')
      return FALSE;
  return g_str_has_suffix (rev, "HEAD");
}

/* ---- Public ---- */

EmbersGitCheckout *
embers_git_checkout_open (const char  *path,
                          GError     **error)
{
  g_autoptr(EmbersGitCheckout) c = g_new0 (EmbersGitCheckout, 1);
  g_autofree char *dir = NULL;
  g_autoptr(GError) local = NULL;
  g_autofree char *symref = NULL;
  gboolean peeled = FALSE;

  g_return_val_if_fail (path != NULL, NULL);

  dir = g_canonicalize_filename (path, NULL);
  if (!is_dir (dir))
    {
      char *parent = g_path_get_dirname (dir);

      g_free (dir);
      dir = parent;
    }

  /* Up to the nearest `.git` */
  for (guint up = 0; up < MAX_UP; up++)
    {
      g_autofree char *dot_git = g_build_filename (dir, ".git", NULL);
      g_autofree char *parent = NULL;

      if (is_dir (dot_git) && looks_like_git_dir (dot_git))
        {
          c->worktree = g_strdup (dir);
          c->git_dir = g_steal_pointer (&dot_git);
          break;
        }
      if (g_file_test (dot_git, G_FILE_TEST_IS_REGULAR))
        {
          g_autofree char *target = g_strdup (dot_git);

          /* `.git` files may chain; each names the next */
          for (guint hop = 0; hop < MAX_GITFILE && g_file_test (target, G_FILE_TEST_IS_REGULAR); hop++)
            {
              char *next = read_gitfile (target, error);

              if (next == NULL)
                return NULL;
              g_free (target);
              target = next;
            }
          if (!is_dir (target) || !looks_like_git_dir (target))
            {
              g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                           _("“%s” names a git folder that is not there: %s"), dot_git, target);
              return NULL;
            }
          c->worktree = g_strdup (dir);
          c->git_dir = g_steal_pointer (&target);
          break;
        }
      parent = g_path_get_dirname (dir);
      if (g_str_equal (parent, dir))
        return NULL;
      g_free (dir);
      dir = g_steal_pointer (&parent);
    }
  if (c->git_dir == NULL)
    return NULL;

  /* A linked worktree shares the refs of the folder `commondir` names */
  {
    g_autofree char *commondir = g_build_filename (c->git_dir, "commondir", NULL);
    g_autofree char *line = read_line (commondir, &local);

    if (line != NULL)
      {
        g_strstrip (line);
        c->common_dir = g_canonicalize_filename (line, c->git_dir);
        if (!is_dir (c->common_dir))
          {
            g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                         _("“%s” names a folder that is not there"), commondir);
            return NULL;
          }
      }
    else if (!g_error_matches (local, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
      {
        g_propagate_error (error, g_steal_pointer (&local));
        return NULL;
      }
    else
      c->common_dir = g_strdup (c->git_dir);
    g_clear_error (&local);
  }

  {
    g_autofree char *reftable = g_build_filename (c->common_dir, "reftable", NULL);

    if (is_dir (reftable))
      {
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                     _("The repository keeps its refs in the reftable format, which Embers does not read"));
        return NULL;
      }
  }

  c->head = read_ref (c, "HEAD", &symref, &peeled, &local);
  if (c->head == NULL && local != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return NULL;
    }
  c->head_ref = g_steal_pointer (&symref);
  return g_steal_pointer (&c);
}

char *
embers_git_checkout_resolve (EmbersGitCheckout  *c,
                             const char         *rev,
                             GError            **error)
{
  /* git-rev-parse(1), "SPECIFYING REVISIONS": the first that exists */
  static const char *const rules[] = {
    "%s", "refs/%s", "refs/tags/%s", "refs/heads/%s", "refs/remotes/%s", "refs/remotes/%s/HEAD",
  };

  g_return_val_if_fail (c != NULL, NULL);
  g_return_val_if_fail (rev != NULL, NULL);

  if (is_object_id (rev, strlen (rev)))
    return g_ascii_strdown (rev, -1);
  if (is_hex_prefix (rev) && c->head != NULL && g_ascii_strncasecmp (c->head, rev, strlen (rev)) == 0)
    return g_strdup (c->head);

  if (!embers_git_ref_name_is_valid (rev))
    {
      /* A prefix of some other commit, or no ref at all */
      if (!is_hex_prefix (rev))
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("“%s” is not a valid ref name"), rev);
      return NULL;
    }

  for (guint i = 0; i < G_N_ELEMENTS (rules); i++)
    {
      g_autofree char *name = NULL;
      g_autofree char *id = NULL;
      g_autoptr(GError) local = NULL;
      gboolean peeled = FALSE;

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
      name = g_strdup_printf (rules[i], rev);
#pragma GCC diagnostic pop
      /* The first rule reads the git folder's own files: only refs and
       * HEAD, ORIG_HEAD and the like, never config or objects */
      if (i == 0 && !g_str_has_prefix (rev, "refs/") && !is_head_name (rev))
        continue;
      if (!embers_git_ref_name_is_valid (name))
        continue;
      id = read_ref (c, name, NULL, &peeled, &local);
      if (id == NULL)
        {
          if (local != NULL)
            {
              g_propagate_error (error, g_steal_pointer (&local));
              return NULL;
            }
          continue;
        }
      /* Branches name commits; tags may name tag objects */
      if (peeled || g_str_has_prefix (name, "refs/heads/") || g_str_has_prefix (name, "refs/remotes/") ||
          (c->head != NULL && g_str_equal (id, c->head)))
        return g_steal_pointer (&id);
      return peel (c, id, error);
    }
  return NULL;
}

EmbersGitMatch
embers_git_compare (const char  *path,
                    const char  *rev,
                    char       **head,
                    GError     **error)
{
  g_autoptr(EmbersGitCheckout) c = NULL;
  g_autoptr(GError) local = NULL;
  g_autofree char *commit = NULL;

  g_return_val_if_fail (path != NULL, EMBERS_GIT_MATCH_UNKNOWN);
  g_return_val_if_fail (rev != NULL, EMBERS_GIT_MATCH_UNKNOWN);

  if (head != NULL)
    *head = NULL;
  c = embers_git_checkout_open (path, &local);
  if (c == NULL)
    {
      if (local == NULL)
        return EMBERS_GIT_MATCH_NO_CHECKOUT;
      g_propagate_error (error, g_steal_pointer (&local));
      return EMBERS_GIT_MATCH_UNKNOWN;
    }
  if (head != NULL)
    *head = g_strdup (c->head);
  if (c->head == NULL)
    {
      /* An unborn branch is at no commit: not the profile's */
      return EMBERS_GIT_MATCH_OTHER;
    }

  {
    g_autofree char *stripped = g_strstrip (g_strdup (rev));

    commit = embers_git_checkout_resolve (c, stripped, &local);
  }
  if (commit == NULL)
    {
      if (local != NULL)
        {
          g_propagate_error (error, g_steal_pointer (&local));
          return EMBERS_GIT_MATCH_UNKNOWN;
        }
      /* A ref the checkout does not know, or a commit id other than HEAD */
      return EMBERS_GIT_MATCH_OTHER;
    }
  return g_ascii_strcasecmp (commit, c->head) == 0 ? EMBERS_GIT_MATCH_SAME : EMBERS_GIT_MATCH_OTHER;
}

typedef struct
{
  char          *path;
  char          *rev;
  char          *head;
  EmbersGitMatch match;
} CompareData;

static void
compare_data_free (gpointer data)
{
  CompareData *d = data;

  g_free (d->path);
  g_free (d->rev);
  g_free (d->head);
  g_free (d);
}

static void
compare_thread (GTask        *task,
                gpointer      source,
                gpointer      task_data,
                GCancellable *cancellable)
{
  CompareData *d = task_data;
  GError *error = NULL;

  d->match = embers_git_compare (d->path, d->rev, &d->head, &error);
  if (g_task_return_error_if_cancelled (task))
    {
      g_clear_error (&error);
      return;
    }
  if (error != NULL)
    g_task_return_error (task, error);
  else
    g_task_return_int (task, d->match);
}

void
embers_git_compare_async (const char          *path,
                          const char          *rev,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  CompareData *d;

  g_return_if_fail (path != NULL);
  g_return_if_fail (rev != NULL);

  d = g_new0 (CompareData, 1);
  d->path = g_strdup (path);
  d->rev = g_strdup (rev);
  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, embers_git_compare_async);
  g_task_set_task_data (task, d, compare_data_free);
  g_task_run_in_thread (task, compare_thread);
}

EmbersGitMatch
embers_git_compare_finish (GAsyncResult  *result,
                           char         **head,
                           GError       **error)
{
  CompareData *d;
  gssize match;

  g_return_val_if_fail (g_task_is_valid (result, NULL), EMBERS_GIT_MATCH_UNKNOWN);

  d = g_task_get_task_data (G_TASK (result));
  if (head != NULL)
    *head = g_strdup (d->head);
  match = g_task_propagate_int (G_TASK (result), error);
  return match < 0 ? EMBERS_GIT_MATCH_UNKNOWN : (EmbersGitMatch)match;
}
