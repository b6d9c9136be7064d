/* embers-save.h: writing a file whole, or not at all
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <cairo.h>

G_BEGIN_DECLS

/*
 * Every export goes through EmbersSave: the bytes go to a new temporary
 * file next to the target (same folder, so same file system), which is
 * flushed to the disk (fsync) and only then renamed over the target. Until
 * the rename the old file is untouched; after a failure the temporary file
 * is removed. The first write, flush, close or rename error is kept and
 * reported with its reason ("No space left on device").
 *
 * A symbolic link as the target is followed: the file it points to is
 * replaced, the link stays. A replaced file keeps its permissions; a new
 * one gets 0666 less the umask, as any new file.
 */
typedef struct _EmbersSave EmbersSave;

EmbersSave     *embers_save_new          (const char     *path,
                                          GError        **error);
/* Appends; after a failure every later write fails the same way */
gboolean        embers_save_write        (EmbersSave     *self,
                                          const void     *data,
                                          gsize           len,
                                          GError        **error);
/* FALSE, with the first write error, when any write failed */
gboolean        embers_save_check        (EmbersSave     *self,
                                          GError        **error);
/* Flushes, closes and renames over the target. Cancelled: nothing is
 * replaced. */
gboolean        embers_save_commit       (EmbersSave     *self,
                                          GCancellable   *cancellable,
                                          GError        **error);
/* Without a commit: removes the temporary file, the target stays */
void            embers_save_free         (EmbersSave     *self);

/* A cairo_write_func_t for cairo_*_surface_create_for_stream() and
 * cairo_surface_write_to_png_stream(), with an EmbersSave as closure */
cairo_status_t  embers_save_cairo_write  (void                *closure,
                                          const unsigned char *data,
                                          unsigned int         length);

/* The whole of @data to @path, atomically */
gboolean        embers_save_contents     (const char     *path,
                                          const void     *data,
                                          gsize           len,
                                          GCancellable   *cancellable,
                                          GError        **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EmbersSave, embers_save_free)

G_END_DECLS
