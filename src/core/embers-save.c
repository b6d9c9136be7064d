/* embers-save.c: writing a file whole, or not at all
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "embers-save.h"

struct _EmbersSave
{
  char     *target;     /* what is replaced (a link's destination) */
  char     *display;    /* the path as given, for messages */
  char     *tmp_path;
  int       fd;
  gboolean  committed;
  GError   *failure;    /* the first write error */
};

typedef enum
{
  WRITING,
  REPLACING,
} Stage;

static void
set_errno_error (GError     **error,
                 int          saved_errno,
                 Stage        stage,
                 const char  *name)
{
  if (stage == REPLACING)
    g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                 _("Could not replace “%s”: %s"), name, g_strerror (saved_errno));
  else
    g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                 _("Could not write “%s”: %s"), name, g_strerror (saved_errno));
}

/* A symbolic link is replaced through: its destination is the target */
static char *
resolve_target (const char *path)
{
  GStatBuf st;

  if (g_lstat (path, &st) == 0 && S_ISLNK (st.st_mode))
    {
      char *real = realpath (path, NULL);

      if (real != NULL)
        {
          char *ret = g_strdup (real);

          free (real);
          return ret;
        }
    }

  return g_strdup (path);
}

EmbersSave *
embers_save_new (const char  *path,
                 GError     **error)
{
  g_autoptr(EmbersSave) self = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *base = NULL;
  g_autofree char *tmp_name = NULL;
  GStatBuf st;
  int fd;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  self = g_new0 (EmbersSave, 1);
  self->fd = -1;
  self->display = g_strdup (path);
  self->target = resolve_target (path);

  if (g_stat (self->target, &st) == 0 && S_ISDIR (st.st_mode))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_IS_DIRECTORY,
                   _("Could not write “%s”: it is a folder"), self->display);
      return NULL;
    }

  dir = g_path_get_dirname (self->target);
  base = g_path_get_basename (self->target);
  /* Hidden, in the same folder; short enough for any file system */
  if (strlen (base) > 200)
    base[200] = '\0';
  tmp_name = g_strdup_printf (".%s.XXXXXX", base);
  self->tmp_path = g_build_filename (dir, tmp_name, NULL);

  fd = g_mkstemp_full (self->tmp_path, O_WRONLY | O_CLOEXEC, 0666);
  if (fd < 0)
    {
      int saved_errno = errno;

      g_clear_pointer (&self->tmp_path, g_free);
      set_errno_error (error, saved_errno, WRITING, self->display);
      return NULL;
    }
  self->fd = fd;

  /* A replaced file keeps its permissions */
  if (g_stat (self->target, &st) == 0 && S_ISREG (st.st_mode))
    (void) fchmod (fd, st.st_mode & 07777);

  return g_steal_pointer (&self);
}

gboolean
embers_save_write (EmbersSave  *self,
                   const void  *data,
                   gsize        len,
                   GError     **error)
{
  const guint8 *p = data;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (data != NULL || len == 0, FALSE);

  if (self->failure == NULL && self->fd < 0)
    g_set_error (&self->failure, G_IO_ERROR, G_IO_ERROR_CLOSED,
                 _("Could not write “%s”: it is already closed"), self->display);

  while (self->failure == NULL && len > 0)
    {
      gssize n = write (self->fd, p, MIN (len, (gsize)G_MAXSSIZE));

      if (n < 0)
        {
          int saved_errno = errno;

          if (saved_errno == EINTR)
            continue;
          set_errno_error (&self->failure, saved_errno, WRITING, self->display);
          break;
        }
      p += n;
      len -= (gsize)n;
    }

  return embers_save_check (self, error);
}

gboolean
embers_save_check (EmbersSave  *self,
                   GError     **error)
{
  g_return_val_if_fail (self != NULL, FALSE);

  if (self->failure != NULL)
    {
      if (error != NULL)
        *error = g_error_copy (self->failure);
      return FALSE;
    }

  return TRUE;
}

gboolean
embers_save_commit (EmbersSave    *self,
                    GCancellable  *cancellable,
                    GError       **error)
{
  int fd;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (!self->committed, FALSE);

  if (!embers_save_check (self, error))
    return FALSE;
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;

  /* On the disk before it replaces anything: some file systems report
   * a full disk only here (delayed allocation, NFS, quotas) */
  if (fsync (self->fd) != 0)
    {
      int saved_errno = errno;

      /* Not an error where syncing makes no sense (pipes, some FUSE) */
      if (saved_errno != EINVAL && saved_errno != EROFS && saved_errno != ENOTSUP)
        {
          set_errno_error (&self->failure, saved_errno, WRITING, self->display);
          return embers_save_check (self, error);
        }
    }

  fd = self->fd;
  self->fd = -1;
  if (close (fd) != 0 && errno != EINTR)
    {
      set_errno_error (&self->failure, errno, WRITING, self->display);
      return embers_save_check (self, error);
    }

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;

  if (g_rename (self->tmp_path, self->target) != 0)
    {
      set_errno_error (&self->failure, errno, REPLACING, self->display);
      return embers_save_check (self, error);
    }
  self->committed = TRUE;

  /* The rename itself on the disk (best effort) */
  {
    g_autofree char *dir = g_path_get_dirname (self->target);
    int dir_fd = g_open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);

    if (dir_fd >= 0)
      {
        (void) fsync (dir_fd);
        g_close (dir_fd, NULL);
      }
  }

  return TRUE;
}

void
embers_save_free (EmbersSave *self)
{
  if (self == NULL)
    return;

  if (self->fd >= 0)
    g_close (self->fd, NULL);
  if (!self->committed && self->tmp_path != NULL)
    g_unlink (self->tmp_path);
  g_free (self->tmp_path);
  g_free (self->target);
  g_free (self->display);
  g_clear_error (&self->failure);
  g_free (self);
}

cairo_status_t
embers_save_cairo_write (void                *closure,
                         const unsigned char *data,
                         unsigned int         length)
{
  return embers_save_write (closure, data, length, NULL) ? CAIRO_STATUS_SUCCESS
                                                         : CAIRO_STATUS_WRITE_ERROR;
}

gboolean
embers_save_contents (const char    *path,
                      const void    *data,
                      gsize          len,
                      GCancellable  *cancellable,
                      GError       **error)
{
  g_autoptr(EmbersSave) save = embers_save_new (path, error);

  return save != NULL &&
         embers_save_write (save, data, len, error) &&
         embers_save_commit (save, cancellable, error);
}
